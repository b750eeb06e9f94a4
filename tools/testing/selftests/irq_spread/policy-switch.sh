#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Live policy switch: writing a policy name (with or without a trailing
# newline) to <netdev>/irq_spread/policy re-spreads that device at once by
# the rules of the new policy; a new system default leaves registered
# devices as they are.

. "$(dirname "$0")/lib.sh"
irq_spread_python <<'PY'
from irq_spread_lib import *


def test(t):
    topo = quiet_machine()
    node = topo.nodes[1] if len(topo.nodes) > 1 else topo.nodes[0]
    queues = len(topo.node_cpus[node])
    set_default_policy("numa")
    dev = Nsim(7200, queues, node)
    check_placement(t, dev, spread(topo, node, queues, "numa"),
                    "registered under numa")
    for policy, text in (("numa-core", "numa-core\n"), ("core", "core"),
                         ("numa", "numa\n")):
        what = "switched to %s" % policy
        t.eq(write(dev.policy_file, text), 0, "%s: write %r" % (what, text))
        t.eq(dev.policy(), policy, "%s: policy file" % what)
        check_placement(t, dev, spread(topo, node, queues, policy), what)

    # The system default is for devices registered later.
    before = dev.state()
    set_default_policy("core")
    t.eq(dev.state(), before, "new default leaves the device alone")
    t.eq(dev.policy(), "numa", "device keeps its policy")


run("irq_spread policy switch", test)
PY
