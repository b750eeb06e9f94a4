#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The page pool follows its IRQ: a linked netdevsim pair passes frames; the
# receiver's RX queue IRQ is moved to a CPU of another node through
# /proc/irq/N/smp_affinity_list; after more frames, NAPI ran there, the
# queue's page pool was retargeted by net core when it refilled its cache
# (debugfs rqN/retargets rose) and new pages come from that node
# (rqN/page_nid).  Then back again.  netdevsim never calls into the page pool
# for this: its pool has PP_FLAG_NAPI_NODE.

. "$(dirname "$0")/lib.sh"
irq_spread_python <<'PY'
from irq_spread_lib import *

# The guest, numa: the sender, no node, 1 queue: CPU 0 (one tier, no
# load, CPU order).  The receiver, node 0, 1 queue: tier 0 is 0-3, CPU 0 has
# a load of 1: CPU 1.
SENDER, RECEIVER = "0", "1"


def test(t):
    topo, tables = machine(t)
    set_default_policy("numa")
    if not os.path.exists(NSIM_BUS + "/link_device"):
        raise Skip("netdevsim without link_device")
    if len([n for n in topo.nodes if topo.node_cpus[n]]) < 2:
        raise Skip("needs two nodes with CPUs")
    a = Nsim(7700, 1)
    b = Nsim(7701, 1, topo.nodes[0])
    for dev, want, what in ((a, SENDER, "sender"), (b, RECEIVER, "receiver")):
        check_placement(t, dev, table(want) if tables else None, what)
        check_rules(t, topo, dev, "numa", what)
    link(a, b)
    set_link(a.ifname, True)
    set_link(b.ifname, True)
    rq = b.debugfs_rq(0)
    for f in ("irq", "retargets", "page_nid"):
        if not os.path.exists("%s/%s" % (rq, f)):
            raise Skip("no %s/%s" % (rq, f))
    t.eq(int(read(rq + "/irq")), b.irqs[0], "debugfs irq is queue 0's IRQ")

    tx, rx, dst = packet_sockets(a, b)

    cpu = min(b.effective(0))
    node = topo.cpu_node[cpu]
    traffic(tx, rx, dst)
    t.result(wait_for(lambda: int(read(rq + "/page_nid")) == node),
             "pages from node %d of the IRQ's CPU %d" % (node, cpu),
             "page_nid %s" % read(rq + "/page_nid"))

    # To the farthest node, then back to where it was.
    far = max(topo.nodes, key=lambda n: (topo.dist(node, n), n))
    for dest in (min(topo.node_cpus[far] & topo.online()), cpu):
        dnode = topo.cpu_node[dest]
        before = int(read(rq + "/retargets"))
        b.set_affinity(0, [dest])
        t.eq(b.effective(0), frozenset([dest]),
             "RX IRQ moved to CPU %d (node %d)" % (dest, dnode))
        t.result(traffic_until(tx, rx, dst,
                               lambda: int(read(rq + "/retargets")) > before
                               and int(read(rq + "/page_nid")) == dnode),
                 "page pool retargeted to node %d" % dnode,
                 "retargets %d -> %s, page_nid %s"
                 % (before, read(rq + "/retargets"), read(rq + "/page_nid")))
    tx.close()
    rx.close()


run("irq_spread page pool follows its IRQ", test)
PY
