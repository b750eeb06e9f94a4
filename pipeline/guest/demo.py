# SPDX-License-Identifier: GPL-2.0
"""Guest side of make demo, after the topology: a netdevsim device with
several RX queues, each queue's IRQ and CPUs under each irq_spread policy,
then its queue 0 IRQ moved to another node and the page pool following,
and the device's lines of irq_spread's debugfs table of vectors.

Uses the helpers of the irq_spread selftests (PYTHONPATH)."""

import sys

from irq_spread_lib import (DEVICES, FRAMES, POLICIES, Nsim, Topology,
                            fmt_cpulist, link, packet_sockets, read, set_link,
                            traffic, traffic_until, wait_for, write_ok)

QUEUES = 6


def show_queues(topo, dev):
    print("  queue  irq  cpus      effective  node")
    for q in range(dev.queues):
        eff = dev.effective(q)
        print("  %5d  %3d  %-8s  %-9s  %s"
              % (q, dev.irqs[q], fmt_cpulist(dev.affinity(q)),
                 fmt_cpulist(eff),
                 ",".join(str(n) for n in
                          sorted({topo.cpu_node[c] for c in eff}))))


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
    print("netdevsim device: %s, %d RX queues, NUMA node %d"
          % (dev.ifname, QUEUES, node))
    for policy in POLICIES:
        write_ok(dev.policy_file, policy)
        print()
        print("# echo %s > %s" % (policy, dev.policy_file))
        print("# cat %s" % dev.policy_file)
        print(read(dev.policy_file))
        show_queues(topo, dev)

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
