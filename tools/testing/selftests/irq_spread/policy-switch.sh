#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Live policy switch: writing a policy name (with or without a trailing
# newline) to <netdev>/irq_spread/policy re-spreads that device at once by
# the rules of the new policy; reading the policy file and the debugfs
# table changes nothing; a new system default leaves registered devices as
# they are.

. "$(dirname "$0")/lib.sh"
irq_spread_python <<'PY'
from irq_spread_lib import *

# The guest, node 1 (CPUs 4-7, cores {4,5} {6,7}), 4 queues.  Tiers: 0 =
# node 1, 1 = node 0 (0-3, distance 12), 2 = nodes 2-3 (8-15, 32).
#   numa:      tier 0 in CPU order: 4 5 6 7.
#   numa-core: tier 0 rank 0: 4 6, rank 1: 5 7; each core holds two
#              vectors: a thread each, 4 6 5 7.
#   core:      rank 0 of tier 0: 4 6, of tier 1: 0 2 -> 4 6 0 2.
WANT = {"numa": "4 5 6 7", "numa-core": "4 6 5 7", "core": "4 6 0 2"}


def test(t):
    topo, tables = machine(t)
    node = topo.nodes[1] if len(topo.nodes) > 1 else topo.nodes[0]
    queues = len(topo.node_cpus[node])
    set_default_policy("numa")
    dev = Nsim(7200, queues, node)
    want = lambda p: table(WANT[p]) if tables else None
    check_placement(t, dev, want("numa"), "registered under numa")
    check_rules(t, topo, dev, "numa", "registered under numa")
    for policy, text in (("numa-core", "numa-core\n"), ("core", "core"),
                         ("numa", "numa\n")):
        what = "switched to %s" % policy
        t.eq(write(dev.policy_file, text), 0, "%s: write %r" % (what, text))
        t.eq(dev.policy(), policy, "%s: policy file" % what)
        check_placement(t, dev, want(policy), what)
        check_rules(t, topo, dev, policy, what)

    # Reads change nothing.
    before = dev.state()
    for _ in range(3):
        read(dev.policy_file)
        read(DEVICES)
    t.eq(dev.state(), before, "reading policy and debugfs changes nothing")

    # The system default is for devices registered later.
    set_default_policy("core")
    t.eq(dev.state(), before, "new default leaves the device alone")
    t.eq(dev.policy(), "numa", "device keeps its policy")


run("irq_spread policy switch", test)
PY
