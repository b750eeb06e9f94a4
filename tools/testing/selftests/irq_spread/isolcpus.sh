#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# isolcpus=managed_irq: on a kernel booted with isolcpus=managed_irq,<cpus>
# no policy ever gives a vector one of those CPUs, even with more queues
# than CPUs, and the placement is the one the rules give on the other CPUs.
# Skips on a kernel booted without it.

. "$(dirname "$0")/lib.sh"
irq_spread_python <<'PY'
from irq_spread_lib import *


def test(t):
    topo = quiet_machine()
    if not topo.isolated:
        raise Skip("booted without isolcpus=managed_irq,<cpus>")
    t.diag("isolated for managed IRQs: %s" % fmt_cpulist(topo.isolated))
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
        check_placement(t, dev, spread(topo, node, queues, policy), what)
        dev.remove()


run("irq_spread isolcpus=managed_irq", test)
PY
