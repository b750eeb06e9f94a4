#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# isolcpus=managed_irq: on a kernel booted with isolcpus=managed_irq,<cpus>
# no policy ever gives a vector one of those CPUs, even with more queues
# than CPUs, and the placement is the one the rules give on the other CPUs
# (hand tables for the isolcpus guest's isolcpus=managed_irq,2-3,9); a
# numa-core vector alone on a core gets the core's eligible threads only.
# Skips on a kernel booted without it.

. "$(dirname "$0")/lib.sh"
irq_spread_python <<'PY'
from irq_spread_lib import *

# The guest with 2, 3 and 9 isolated: eligible 0-1, 4-8, 10-15 (13
# slots); cores {0,1} {4,5} {6,7} {8} {10,11} {12,13} {14,15} ({2,3} has
# no eligible thread).  Node 0, 18 queues: tier 0 = 0 1, tier 1 = 4-7,
# tier 2 = 8 10-15.
#   numa:      0 1 | 4 5 6 7 | 8 10 11 12 13 14 15, then the first 5 again.
#   numa-core: tier 0 rank 0: 0, rank 1: 1; tier 1: 4 6, then 5 7; tier 2:
#              8 10 12 14, then 11 13 15; then 0 1 4 6 5.  Every core but
#              {8} holds two or more: a thread each; {8} holds one, its
#              whole eligible core, 8.
#   core:      rank 0 by tier: 0, 4 6, 8 10 12 14; rank 1: 1, 5 7, 11 13
#              15; then 0 4 6 8 10.
# numa-core, node 2, 2 queues: tier 0 rank 0: 8 ({8}), 10 ({10,11}), a
# vector each: the eligible threads, 8 and 10-11.
ISOLATED = frozenset([2, 3, 9])
NODE0 = {
    "numa": "0 1 4 5 6 7 8 10 11 12 13 14 15 0 1 4 5 6",
    "numa-core": "0 1 4 6 5 7 8 10 12 14 11 13 15 0 1 4 6 5",
    "core": "0 4 6 8 10 12 14 1 5 7 11 13 15 0 4 6 8 10",
}
NODE2_CORES = "8 10-11"


def test(t):
    require_lib()
    topo = Topology()
    if not topo.isolated:
        raise Skip("booted without isolcpus=managed_irq,<cpus>")
    t.diag("isolated for managed IRQs: %s" % fmt_cpulist(topo.isolated))
    tables = topo.tables(t, ISOLATED)
    node = topo.cpu_node[min(topo.isolated)]
    queues = len(topo.online()) + 2
    for i, policy in enumerate(POLICIES):
        set_default_policy(policy)
        what = "%s, node %d, %d queues" % (policy, node, queues)
        dev = Nsim(7800 + i, queues, node)
        used = set().union(*(dev.affinity(q) | dev.effective(q)
                             for q in range(queues)))
        t.result(not used & topo.isolated, "%s: no isolated CPU used" % what,
                 "used %s" % fmt_cpulist(used & topo.isolated))
        check_placement(t, dev, table(NODE0[policy]) if tables else None,
                        what)
        check_rules(t, topo, dev, policy, what)
        dev.remove()

    # Whole cores are their eligible threads.
    node = topo.cpu_node[max(topo.isolated)]
    what = "numa-core, node %d, 2 queues" % node
    set_default_policy("numa-core")
    dev = Nsim(7803, 2, node)
    check_placement(t, dev, table(NODE2_CORES) if tables else None, what)
    check_rules(t, topo, dev, "numa-core", what)


run("irq_spread isolcpus=managed_irq", test)
PY
