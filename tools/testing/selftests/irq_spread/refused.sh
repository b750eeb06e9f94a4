#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The interrupt core refuses a mask, on a real irqchip: netdevsim's
# fail_irq_affinity knob makes the device's lines refuse, with ENOSPC as
# x86's vector allocator does, any mask whose online CPUs are all listed.
# A policy set, a CPUs set (netdev netlink dev-set) and a channel change
# that need such a mask change nothing: the sets fail with ENOSPC and an
# extack; policy, placement, debugfs
# rows, affinities, hints and the interrupt core's placement state stay as
# they were, and no vector becomes the administrator's.  A CPU going
# offline whose queue cannot be moved where the library wants it leaves
# the IRQ wherever the interrupt core's fallback puts it, still placed, not
# the administrator's, and the queue goes home when the CPU is back.  After
# a refused channel change, a set of the policy the netdev has places the
# new queues.  A policy write on a device whose IRQs irq_spread sets itself
# (event IRQs) changes nothing either.

. "$(dirname "$0")/lib.sh"
irq_spread_python <<'PY'
from irq_spread_lib import *

# The guest, node 2 (CPUs 8-11, cores {8,9} {10,11}), 4 queues, alone.
# Tiers: 0 = node 2, 1 = node 3 (12-15), 2 = nodes 0-1.
#   numa:      8 9 10 11.
#   core:      rank 0 of tier 0: 8 10, of tier 1: 12 14 -> 8 10 12 14.
#   core, 2 queues: 8 10.
# Refused, core from numa with 12 and 14 listed: queue 2 needs 12.
# Refused, CPUs 0-7 with 0-7 listed: every queue needs one of them.
# ethtool -L 4 from 2 under core with 12, 14 listed: queues 2 and 3 need
# them; the two in use keep 8 10, the two not in use their IRQs' CPUs.
# CPU 12 offline with every online CPU but 0 listed: queue 2's mask (12)
# has no online CPU, the interrupt core falls back to every online CPU
# and the line takes the first not listed, 0; CPU 12 back: home, 12.
STEPS = {
    "numa": "8 9 10 11",
    "core": "8 10 12 14",
}
ENOSPC = errno.ENOSPC
hp = Hotplug()


def no_admin(t, dev, what):
    t.result(wait_not_due(dev.irqs),
             "%s: the notifications of irq_spread's changes handled" % what)
    t.eq([q for q, r in sorted(dev.rows().items()) if r.state == "admin"], [],
         "%s: no queue is the administrator's" % what)
    t.eq(dev.placements(), ["placed"] * dev.queues,
         "%s: every IRQ placed, none the user's" % what)


def refused(t, dev, fail, what, write):
    """@write() under @fail refused with ENOSPC, nothing changed."""
    nsim_fail_irq_affinity(dev.id, fail)
    before = dev.state()
    t.eq(write(), ENOSPC, "%s: refused with ENOSPC" % what)
    nsim_fail_irq_affinity(dev.id, ())
    t.eq(dev.state(), before, "%s: policy, rows, affinities, hints and "
         "placement state as they were" % what)
    no_admin(t, dev, what)


def test(t):
    topo, tables = machine(t)
    if len(topo.nodes) < 4:
        raise Skip("needs the guest's four nodes")
    node = topo.nodes[2]
    want = lambda step: table(STEPS[step]) if tables else None
    set_default_policy("numa")
    dev = Nsim(7650, 4, node)
    check_placement(t, dev, want("numa"), "registered")
    no_admin(t, dev, "registered")

    refused(t, dev, {12, 14}, "policy core",
            lambda: dev.set_policy("core"))
    t.eq(dev.policy(), "numa", "policy core refused: still numa")
    t.eq(dev.set_policy("core"), 0, "policy core, nothing listed")
    check_placement(t, dev, want("core"), "core")

    refused(t, dev, set(range(8)), "CPUs 0-7",
            lambda: dev.set_cpus(set(range(8))))

    set_channels(dev, 2)
    check_placement(t, dev, table("8 10") if tables else None,
                    "ethtool -L 2", active=2)
    nsim_fail_irq_affinity(dev.id, {12, 14})
    before = (dev.rows(), dev.affinities(), dev.placements())
    set_channels(dev, 4)
    nsim_fail_irq_affinity(dev.id, ())
    t.eq((dev.rows(), dev.affinities(), dev.placements()), before,
         "ethtool -L 4 refused: rows, affinities and placement state as "
         "they were")
    no_admin(t, dev, "ethtool -L 4 refused")
    t.eq(dev.set_policy("core"), 0,
         "the policy it has, after a refused ethtool -L: accepted")
    check_placement(t, dev, want("core"), "core again")

    gone = 12
    if not pluggable(gone) or gone not in dev.effective(2):
        raise Skip("CPU 12 not hot-pluggable, or not queue 2's")
    nsim_fail_irq_affinity(dev.id, topo.online() - {0})
    seen = notified(dev.irqs[2])
    hp.set(gone, False)
    t.result(wait_notified(dev.irqs[2], seen + 1),
             "CPU 12 offline, refused: the broken mask's notification handled")
    t.eq(dev.effective(2), frozenset([0]),
         "CPU 12 offline, refused: the interrupt core's fallback, CPU 0")
    t.eq([dev.affinity(q) for q in (0, 1, 3)],
         [frozenset([8]), frozenset([10]), frozenset([14])],
         "CPU 12 offline, refused: the other queues stay")
    no_admin(t, dev, "CPU 12 offline, refused")
    nsim_fail_irq_affinity(dev.id, ())
    hp.set(gone, True)
    check_placement(t, dev, want("core"), "CPU 12 online")
    no_admin(t, dev, "CPU 12 online")

    # Event IRQs, which irq_spread sets itself, with their hint.
    dev.remove()
    ev = NsimEvents(7651, 4, node)
    t.eq([irq_placement(i) for i in ev.irqs()], ["placed"] * 4,
         "event IRQs placed")
    nsim_fail_irq_affinity(ev.id, {12, 14})
    before = (ev.rows(), ev.affinities(),
              [read("/proc/irq/%d/affinity_hint" % i) for i in ev.irqs()],
              [irq_placement(i) for i in ev.irqs()])
    t.eq(write(ev.policy_file, "core"), ENOSPC,
         "event IRQs, policy core: refused with ENOSPC")
    nsim_fail_irq_affinity(ev.id, ())
    t.result(wait_not_due(ev.irqs()),
             "event IRQs: the notifications of irq_spread's changes handled")
    t.eq((ev.rows(), ev.affinities(),
          [read("/proc/irq/%d/affinity_hint" % i) for i in ev.irqs()],
          [irq_placement(i) for i in ev.irqs()]), before,
         "event IRQs: rows, affinities, hints and placement state as they "
         "were, none the administrator's")


run("refused", test, hp.restore)
PY
