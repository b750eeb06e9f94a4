#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Admin override: an IRQ moved by hand through /proc/irq/N/smp_affinity_list
# stays where the admin put it across ethtool -L channel changes and link
# down/up, while the other queues follow the policy (placed as if nothing
# had been moved); writing a policy to the device hands it back.  Queues
# not in use after ethtool -L lose their affinity hint.

. "$(dirname "$0")/lib.sh"
irq_spread_python <<'PY'
from irq_spread_lib import *


def test(t):
    topo = quiet_machine()
    node, queues, policy = topo.nodes[0], 4, "numa-core"
    set_default_policy(policy)
    dev = Nsim(7400, queues, node)
    want = spread(topo, node, queues, policy)
    check_placement(t, dev, want, "registered")

    # Queue 1 by hand, to a CPU its policy would not give it.
    moved = frozenset([max(topo.eligible() - want[1])])
    dev.set_affinity(1, moved)
    kept = lambda what: t.eq(dev.affinity(1), moved,
                             "%s: admin CPUs of queue 1 kept" % what)

    run_cmd("ethtool", "-L", dev.ifname, "combined", "2")
    kept("ethtool -L combined 2")
    check_placement(t, dev, spread(topo, node, 2, policy),
                    "ethtool -L combined 2", admin={1}, active=2)
    for q in range(2, queues):
        t.eq(dev.hint(q), frozenset(), "queue %d not in use: no hint" % q)

    run_cmd("ethtool", "-L", dev.ifname, "combined", str(queues))
    kept("ethtool -L combined %d" % queues)
    check_placement(t, dev, want, "ethtool -L combined %d" % queues,
                    admin={1})

    set_link(dev.ifname, True)
    set_link(dev.ifname, False)
    set_link(dev.ifname, True)
    kept("link down/up")
    check_placement(t, dev, want, "link down/up", admin={1})

    # The same policy again: every vector back to the policy.
    t.eq(write(dev.policy_file, policy), 0, "write the policy again")
    check_placement(t, dev, want, "policy written")


run("irq_spread admin override", test)
PY
