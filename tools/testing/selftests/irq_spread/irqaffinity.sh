#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# irqaffinity= at run time: with /proc/irq/default_smp_affinity leaving out
# some CPUs of a node, a device on that node gets no vector on them under
# any policy (the placement is the rules' on the CPUs left); with the
# default affinity restored, a new policy places the device on them
# again.  What the IRQ core does with a bad value there is not irq_spread's
# and not tested here.

. "$(dirname "$0")/lib.sh"
irq_spread_python <<'PY'
from irq_spread_lib import *

# The guest, CPUs 8 and 11 (one thread of each core of node 2) left out of
# the default affinity.  Node 2, 6 queues: tier 0 = 9 10, tier 1 = node 3
# (12-15), tier 2 = nodes 0-1; cores {9} {10} {12,13} {14,15} {0,1}..
#   numa:      9 10 | 12 13 14 15 -> 9 10 12 13 14 15.
#   numa-core: tier 0 rank 0: 9 10; tier 1 rank 0: 12 14, rank 1: 13 15;
#              {9} and {10} hold one vector each, their eligible thread;
#              {12,13} and {14,15} two, a thread each: 9 10 12 14 13 15.
#   core:      rank 0: 9 10, 12 14, 0 2 4 6 -> 9 10 12 14 0 2.
# Restored, numa: 8 9 10 11 12 13.
OUT = frozenset([8, 11])
WANT = {"numa": "9 10 12 13 14 15", "numa-core": "9 10 12 14 13 15",
        "core": "9 10 12 14 0 2"}
RESTORED = "8 9 10 11 12 13"
saved = []


def restore():
    if saved:
        write_ok(DEFAULT_AFFINITY, saved.pop())


def test(t):
    topo, tables = machine(t)
    node = topo.nodes[-2] if len(topo.nodes) > 1 else topo.nodes[0]
    mine = sorted(topo.node_cpus[node] & topo.eligible())
    if len(mine) < 3:
        raise Skip("node %d has fewer than 3 eligible CPUs" % node)
    out = frozenset([mine[0], mine[-1]])  # the guest: OUT
    queues = len(topo.node_cpus[node]) + 2
    saved.append(read(DEFAULT_AFFINITY))
    write_ok(DEFAULT_AFFINITY,
             fmt_hexmask(topo.default_affinity() - out, max(topo.present) + 1))
    t.eq(topo.default_affinity() & out, frozenset(),
         "default affinity without CPUs %s" % fmt_cpulist(out))

    set_default_policy("numa")
    dev = Nsim(7450, queues, node)
    for policy in POLICIES:
        what = "%s, CPUs %s out of the default affinity" % (policy,
                                                            fmt_cpulist(out))
        if policy != "numa":
            dev.set_policy_ok(policy)
        used = set().union(*(dev.affinities() + dev.effectives()))
        t.result(not used & out, "%s: no vector on them" % what,
                 "used %s" % fmt_cpulist(used & out))
        check_placement(t, dev, table(WANT[policy]) if tables else None, what)
        check_rules(t, topo, dev, policy, what)

    restore()
    dev.set_policy_ok("numa")
    what = "numa, default affinity restored"
    check_placement(t, dev, table(RESTORED) if tables else None, what)
    check_rules(t, topo, dev, "numa", what)


run("irq_spread irqaffinity", test, restore)
PY
