# SPDX-License-Identifier: GPL-2.0
"""Guest side of make demo, after the topology: a netdevsim NIC with 4 RX
queues on node 2, each queue's CPUs and node under 7.3's default and under
each irq_spread policy, then its queue 0 IRQ moved to another node and the
page pool following, and the NIC's lines of irq_spread's debugfs table of
vectors.

Uses the helpers of the irq_spread selftests (PYTHONPATH)."""

import sys

from irq_spread_lib import (DEVICES, FRAMES, POLICIES, Nsim, Topology,
                            fmt_cpulist, link, packet_sockets, read, set_link,
                            traffic, traffic_until, wait_for, write_ok)

QUEUES = 4


def node_of(topo, cpus):
    return ",".join(str(n) for n in sorted({topo.cpu_node[c] for c in cpus}))


def plain_73(topo, queues):
    """Where 7.3's netif_set_affinity_auto() puts queue i, by its code:
    cpumask_local_spread(i, dev_to_node(&dev->dev)), called before the
    netdev is registered, when its device's node reads 0: the i-th CPU
    by distance from node 0 (then CPU number), whatever the NIC's node."""
    order = sorted(topo.online(), key=lambda c: (topo.dist(0, topo.cpu_node[c]), c))
    return [frozenset([order[i % len(order)]]) for i in range(queues)]


def placement_table(topo, dev):
    """Each queue's CPUs under 7.3's default and under each policy, read
    from /proc/irq/N/smp_affinity_list, with the NUMA node of each."""
    cols = [("7.3 default", plain_73(topo, dev.queues))]
    for policy in POLICIES:
        write_ok(dev.policy_file, policy)
        cols.append((policy, dev.affinities()))
    print("  queue  " + "".join("%-15s" % c for c, _ in cols))
    for q in range(dev.queues):
        print("  %5d  " % q + "".join(
            "%-15s" % ("%s (node %s)" % (fmt_cpulist(m[q]),
                                         node_of(topo, m[q])))
            for _, m in cols))


def show_rq(rq, dev):
    cpu = min(dev.effective(0))
    print("  queue 0: IRQ %d on CPU %d; page pool retargets %s, last RX page"
          " from node %s"
          % (dev.irqs[0], cpu, read(rq + "/retargets"),
             read(rq + "/page_nid")))


def main():
    topo = Topology()
    node = topo.nodes[-2] if len(topo.nodes) > 1 else topo.nodes[0]
    dev = Nsim(1, QUEUES, node)
    print("netdevsim NIC %s, %d RX queues, its PCI-like parent on NUMA node %d"
          % (dev.ifname, QUEUES, node))
    print()
    print("Where each queue's IRQ goes.  7.3 default: what plain 7.3's "
          "netif_set_affinity_auto()")
    print("gives (cpumask_local_spread(i, node): drivers call it before the "
          "netdev is")
    print("registered, when its node reads 0, so node 0's CPUs first).")
    print("The policies: irq_spread under the same call, read from "
          "/proc/irq/N/smp_affinity_list")
    print("after # echo <policy> > %s" % dev.policy_file)
    placement_table(topo, dev)

    write_ok(dev.policy_file, "numa")
    peer = Nsim(2, 1, topo.nodes[0])
    link(peer, dev)
    set_link(peer.ifname, True)
    set_link(dev.ifname, True)
    tx, rx, dst = packet_sockets(peer, dev)
    rq = dev.debugfs_rq(0)
    print()
    print("Page pool of queue 0 (policy numa; %s sends %d frames each time):"
          % (peer.ifname, FRAMES))
    traffic(tx, rx, dst)
    wait_for(lambda: read(rq + "/page_nid") != "-1")
    show_rq(rq, dev)

    cpu = min(dev.effective(0))
    here = topo.cpu_node[cpu]
    far = max(topo.nodes, key=lambda n: (topo.dist(here, n), n))
    dest = min(topo.node_cpus[far] & topo.online())
    before = read(rq + "/retargets")
    print()
    print("# echo %d > /proc/irq/%d/smp_affinity_list   (node %d, distance"
          " %d from node %d)" % (dest, dev.irqs[0], far, topo.dist(here, far),
                                 here))
    dev.set_affinity(0, [dest])
    traffic_until(tx, rx, dst,
                  lambda: read(rq + "/retargets") != before and
                  read(rq + "/page_nid") == str(far))
    show_rq(rq, dev)
    # The notifier marks the write admin from a work item.
    wait_for(lambda: dev.rows()[0].state == "admin", 5)
    print()
    print("# grep -e ^device -e %s %s" % (dev.path, DEVICES))
    for line in read(DEVICES).splitlines():
        if line.startswith("device ") or line.startswith(dev.path + " "):
            print(line)
    tx.close()
    rx.close()
    return 0


sys.exit(main())
