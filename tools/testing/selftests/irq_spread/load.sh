#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Load across devices: a second device placed while a first one holds its
# vectors takes the least loaded cores, so that two devices without a node
# land on distinct physical cores under numa-core and core, and the least
# loaded CPUs of its node under numa; distance still wins over load: two
# devices on one node that fill it both stay on that node.

. "$(dirname "$0")/lib.sh"
irq_spread_python <<'PY'
from irq_spread_lib import *

# The guest, pairs of devices, the second placed on the load of the first
# (load: vectors of every device on a CPU, a whole-core mask counting on
# both threads; core load: the sum over the core's threads).
#   numa-core, no node, 4 queues each (one tier).  First: rank 0 slots
#     0 2 .. 14, all unloaded, the first four, a vector a core: 0-1 2-3 4-5
#     6-7.  Second: CPUs 0-7 have a load of 1, cores {0,1}..{6,7} a core
#     load of 2, {8,9}..{14,15} 0: rank 0 by core load: 8 10 12 14 first:
#     8-9 10-11 12-13 14-15.
#   core, no node, 4 queues each.  First: 0 2 4 6.  Second: in cores
#     {0,1}..{6,7} the unloaded thread 1 3 5 7 is rank 0, core load 1;
#     {8,9}.. have core load 0: 8 10 12 14.
#   numa, node 0, 4 queues each.  First: 0 1 2 3.  Second: tier 0 is
#     0-3, all loaded, still before node 1: 0 1 2 3.
#   numa, node 0, 2 queues each.  First: 0 1.  Second: tier 0 by load:
#     2 3 (load 0) before 0 1: 2 3.
PAIRS = [
    ("numa-core", None, 4, ("0-1 2-3 4-5 6-7", "8-9 10-11 12-13 14-15")),
    ("core", None, 4, ("0 2 4 6", "8 10 12 14")),
    ("numa", 0, 4, ("0 1 2 3", "0 1 2 3")),
    ("numa", 0, 2, ("0 1", "2 3")),
]


def pair(t, topo, tables, quiet, policy, node, queues, want):
    set_default_policy(policy)
    masks = []
    for i in range(2):
        what = "%s, node %s, %d queues, device %d of 2" % (policy, node,
                                                           queues, i + 1)
        dev = Nsim(7600 + len(Nsim.created), queues, node)
        check_placement(t, dev, table(want[i]) if tables else None, what)
        check_rules(t, topo, dev, policy, what)
        masks.append(set().union(*dev.affinities()))
    # Only the tests' own load: the rules alone say where the second goes.
    if quiet and node is None:
        cores = [set().union(*(topo.core_of[c] for c in m)) for m in masks]
        t.result(not cores[0] & cores[1],
                 "%s: the two devices on distinct cores" % policy,
                 "cores %s and %s" % (fmt_cpulist(cores[0]),
                                      fmt_cpulist(cores[1])))
    elif quiet:
        t.result(masks[0] | masks[1] <= topo.node_cpus[node],
                 "%s: both devices on node %d" % (policy, node))
        if queues * 2 <= len(topo.node_cpus[node] & topo.eligible()):
            t.result(not masks[0] & masks[1],
                     "%s: the second device on the CPUs the first left"
                     % policy)
    for d in Nsim.created:
        d.remove()


def test(t):
    topo, tables = machine(t)
    quiet = not foreign_devices()
    # Two devices of half as many queues as there are cores fit side by
    # side: two 4-queue NICs on 8 cores.
    cores = {topo.core_of[c] for c in topo.eligible()}
    node = topo.nodes[0]
    threads = len(topo.node_cpus[node] & topo.eligible())
    for policy, n, queues, want in PAIRS:
        if not tables:
            queues = max(1, len(cores) // 2) if n is None else \
                threads if queues == 4 else max(1, threads // 2)
        pair(t, topo, tables, quiet, policy, n if n is None else node, queues,
             want)


run("irq_spread load across devices", test)
PY
