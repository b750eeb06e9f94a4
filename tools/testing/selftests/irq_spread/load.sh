#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Load across devices: a second device placed while a first one holds its
# vectors takes the least loaded cores, so that two devices without a node
# land on distinct physical cores under numa-core and core; distance still
# wins over load: two devices on one node both stay on that node.

. "$(dirname "$0")/lib.sh"
irq_spread_python <<'PY'
from irq_spread_lib import *


def pair(t, topo, policy, node, queues, distinct):
    set_default_policy(policy)
    load = {}
    masks = []
    for i in range(2):
        what = "%s, node %s, device %d of 2" % (policy, node, i + 1)
        dev = Nsim(7600 + len(Nsim.created), queues, node)
        want = spread(topo, node, queues, policy, load)
        check_placement(t, dev, want, what)
        add_load(load, want)
        masks.append(set().union(*(dev.affinity(q) for q in range(queues))))
    cores = [set().union(*(topo.core_of[c] for c in m)) for m in masks]
    if distinct:
        t.result(not cores[0] & cores[1],
                 "%s: the two devices on distinct cores" % policy,
                 "cores %s and %s" % (fmt_cpulist(cores[0]),
                                      fmt_cpulist(cores[1])))
    else:
        t.result(masks[0] | masks[1] <= topo.node_cpus[node],
                 "%s: both devices on node %d" % (policy, node))
    for d in Nsim.created:
        d.remove()


def test(t):
    topo = quiet_machine()
    # Two devices of half as many queues as there are cores fit side by
    # side: two 4-queue NICs on 8 cores.
    cores = {topo.core_of[c] for c in topo.eligible()}
    queues = max(1, len(cores) // 2)
    pair(t, topo, "numa-core", None, queues, True)
    pair(t, topo, "core", None, queues, True)
    node = topo.nodes[0]
    pair(t, topo, "numa", node, len(topo.node_cpus[node] & topo.eligible()),
         False)


run("irq_spread load across devices", test)
PY
