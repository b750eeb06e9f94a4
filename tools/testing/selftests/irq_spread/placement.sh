#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Placement per policy: a netdevsim device registered under each system
# default policy gets, for every queue IRQ, the CPUs that the rules of
# Documentation/core-api/irq_spread.rst give on this machine's topology
# (computed here from sysfs): on a node, and without one with more queues
# than CPUs (every CPU then takes the floor or the ceiling of the vectors).

. "$(dirname "$0")/lib.sh"
irq_spread_python <<'PY'
from irq_spread_lib import *


def test(t):
    topo = quiet_machine()
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
            check_placement(t, dev, spread(topo, n, queues, policy), what)
            dev.remove()


run("irq_spread placement", test)
PY
