#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Placement per policy: a netdevsim device registered under each system
# default policy gets, for every queue IRQ, the CPUs of the hand tables
# below on the project's guest, and on any machine the CPUs that keep the
# rules of Documentation/core-api/irq_spread.rst: on a node with more
# queues than the node has CPUs, and without a node with more queues than
# CPUs (every CPU then takes the floor or the ceiling of the vectors).
# 6 numa-core queues on node 2 take a thread each on the cores that hold two
# of them, counted by effective CPU.  <netdev>/irq_spread/ holds exactly
# the policy file.

. "$(dirname "$0")/lib.sh"
irq_spread_python <<'PY'
from irq_spread_lib import *

# The guest: node n = CPUs 4n..4n+3, cores {2k, 2k+1}; SLIT 10, 12 within
# a socket (nodes 0-1, 2-3), 32 across.  One device at a time, no other
# load.  Slots (see Documentation/core-api/irq_spread.rst): numa by tier,
# load, CPU; numa-core by tier, rank, core load, load, CPU; core by rank,
# tier, core load, load, CPU; vector i takes slot i mod slots.
#
# Node 2, 6 queues.  Tiers: 0 = node 2 (8-11), 1 = node 3 (12-15, distance
# 12), 2 = nodes 0-1 (0-7, distance 32).  No load: rank 0 is a core's lower
# thread.
#   numa:      8 9 10 11 | 12 13 14 15 | 0..7 -> the first 6.
#   numa-core: tier 0 rank 0: 8 10, rank 1: 9 11; tier 1 rank 0: 12 14,
#              rank 1: 13 15; ... -> slots 8 10 9 11 12 14.  Cores {8,9}
#              and {10,11} hold two vectors: a thread each; {12,13} and
#              {14,15} one: the whole core.  Effective CPU: the first of
#              the mask (netdevsim's irqchip), 8 10 9 11 12 14.
#   core:      rank 0 of tier 0: 8 10, tier 1: 12 14, tier 2: 0 2 4 6 ->
#              8 10 12 14 0 2.
# No node, 18 queues (16 CPUs + 2): one tier.
#   numa:      0..15, then 0 1.
#   numa-core: rank 0: 0 2 .. 14, rank 1: 1 3 .. 15, then 0 2; every core
#              holds two or three vectors: a thread each.
#   core:      rank 0 of every core, then rank 1: the same order.
NODE2 = {
    "numa": ("8 9 10 11 12 13", "8 9 10 11 12 13"),
    "numa-core": ("8 10 9 11 12-13 14-15", "8 10 9 11 12 14"),
    "core": ("8 10 12 14 0 2", "8 10 12 14 0 2"),
}
ROUND = "0 2 4 6 8 10 12 14 1 3 5 7 9 11 13 15 0 2"
NO_NODE = {
    "numa": "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 0 1",
    "numa-core": ROUND,
    "core": ROUND,
}


def test(t):
    topo, tables = machine(t)
    node = topo.nodes[-2] if len(topo.nodes) > 1 else topo.nodes[0]
    cases = [(node, len(topo.node_cpus[node]) + 2),
             (None, len(topo.eligible()) + 2)]
    for policy in POLICIES:
        set_default_policy(policy)
        t.eq(active_policy(PARAM), policy, "default policy reads %s" % policy)
        for i, (n, queues) in enumerate(cases):
            what = "%s, node %s, %d queues" % (policy, n, queues)
            dev = Nsim(7100 + i, queues, n)
            t.eq(dev.policy(), policy, "%s: device takes the default" % what)
            t.result(not os.path.exists(dev.sysfs + "/irq_spread"),
                     "%s: no irq_spread/ under the netdev's sysfs" % what)
            t.eq(sorted(k for k in dev.dev_get() if k.startswith("irq-")),
                 ["irq-cpus", "irq-policy"],
                 "%s: dev-get reports irq-policy and irq-cpus" % what)
            t.eq(dev.cpus(), parse_cpulist(read(SYS_CPU + "/possible")),
                 "%s: irq-cpus: every possible CPU" % what)
            want = eff = None
            if tables and n is None:
                want = eff = table(NO_NODE[policy])
            elif tables:
                want, eff = (table(s) for s in NODE2[policy])
            check_placement(t, dev, want, what, eff=eff)
            check_rules(t, topo, dev, policy, what)
            dev.remove()


run("irq_spread placement", test)
PY
