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


def back_refused(t, dev, want):
    """napi-set of an administrator's queue back to the policy, whose
    mask the lines refuse: ENOSPC, the queue stays the administrator's."""
    what = "napi-set of queue 1 back to the policy, 10 listed"
    dev.set_affinity(1, {11})
    t.result(dev.wait_state(1, "admin"), "queue 1 the administrator's, on 11")
    nsim_fail_irq_affinity(dev.id, {10})
    before = dev.state()
    t.eq(dev.to_policy(1), ENOSPC, "%s: refused with ENOSPC" % what)
    nsim_fail_irq_affinity(dev.id, ())
    t.eq(dev.state(), before, "%s: as it was, the administrator's on 11"
         % what)
    t.eq(dev.to_policy(1), 0, "napi-set back to the policy, nothing listed")
    check_placement(t, dev, want("core"), "queue 1 back to the policy")
    no_admin(t, dev, "queue 1 back to the policy")


def attach_refused(t, dev, want):
    """The link up again with queue 0's CPU listed: its IRQ is not
    placed, said in a warning, and the others are; an administrator's
    queue whose CPU is listed keeps its IRQ as it is, the user's."""
    what = "link up, 8 and 11 listed"
    dev.set_affinity(1, {11})
    t.result(dev.wait_state(1, "admin"), "queue 1 the administrator's, on 11")
    dev.link(False)
    nsim_fail_irq_affinity(dev.id, {8, 11})
    log = Kmsg()
    dev.link(True)
    nsim_fail_irq_affinity(dev.id, ())
    t.result(log.has("IRQ %d of NAPI index 0 not placed: -28" % dev.irqs[0]),
             "%s: queue 0's IRQ not placed, said" % what)
    log.close()
    t.eq(dev.placements(), ["none", "user", "placed", "placed"],
         "%s: queue 0's IRQ not placed, queue 1's the user's" % what)
    t.eq((dev.rows()[1].state, dev.affinity(1)), ("admin", frozenset([11])),
         "%s: queue 1 attached, the administrator's, on 11" % what)
    dev.link(False)
    dev.link(True)
    t.eq(dev.to_policy(1), 0, "queue 1 back to the policy")
    check_placement(t, dev, want("core"), "link up, nothing listed")
    no_admin(t, dev, "link up, nothing listed")


def inactive_hotplug(t, dev, topo):
    """A queue not in use keeps its IRQ where it was, placed: as that CPU
    goes offline, irq_spread declines to say where the IRQ goes (the
    interrupt core's fallback: every online CPU, the line on the first),
    and the IRQ goes home with the CPU."""
    what = "queue 2 not in use, CPU 12 offline"
    t.eq((dev.affinity(2), irq_placement(dev.irqs[2])),
         (frozenset([12]), "placed"), "queue 2 not in use: placed, on 12")
    hp.set(12, False)
    t.eq((dev.affinity(2), dev.effective(2)), (topo.online(), frozenset([0])),
         "%s: the interrupt core's fallback" % what)
    hp.set(12, True)
    t.eq((dev.affinity(2), irq_placement(dev.irqs[2])),
         (frozenset([12]), "placed"), "CPU 12 online: queue 2's IRQ home")


def undo_refused(t, dev):
    """A refused policy set whose undo is refused too (hand table)."""
    what = "core from numa, 9 and 12 listed"
    t.eq(dev.set_policy("numa"), 0, "policy numa")
    check_placement(t, dev, table(STEPS["numa"]), "numa")
    nsim_fail_irq_affinity(dev.id, {9, 12})
    log = Kmsg()
    t.eq(dev.set_policy("core"), ENOSPC, "%s: refused with ENOSPC" % what)
    nsim_fail_irq_affinity(dev.id, ())
    t.result(log.has("irq_spread: IRQ %d not moved back: -28" % dev.irqs[1]),
             "%s: queue 1 not moved back, logged" % what)
    log.close()
    t.eq(dev.policy(), "numa", "%s: still numa" % what)
    t.eq(dev.affinities(), table("8 10 10 11"),
         "%s: queue 1 left on 10, the others as they were" % what)
    t.eq(dev.set_policy("core"), 0, "policy core, nothing listed")
    check_placement(t, dev, table(STEPS["core"]), "core after the undo")
    no_admin(t, dev, "core after the undo")


def fallback_refused(t, dev, topo, want):
    """An administrator's IRQ whose CPU goes offline, the CPU left in its
    mask refused: the interrupt core's retry on every online CPU."""
    what = "CPU 8 offline, queue 0 the administrator's on 8-9, 9 listed"
    dev.set_affinity(0, {8, 9})
    t.result(dev.wait_state(0, "admin"), "queue 0 the administrator's")
    t.eq(dev.effective(0), frozenset([8]), "queue 0's line on 8")
    nsim_fail_irq_affinity(dev.id, {9})
    hp.set(8, False)
    t.eq((dev.affinity(0), dev.effective(0)), (topo.online(), frozenset([0])),
         "%s: broken to every online CPU, the line on the first not "
         "listed" % what)
    nsim_fail_irq_affinity(dev.id, ())
    hp.set(8, True)
    t.eq(dev.to_policy(0), 0, "queue 0 back to the policy")
    check_placement(t, dev, want("core"), "queue 0 back to the policy")
    no_admin(t, dev, "queue 0 back to the policy")


def home_refused(t, dev, topo, want):
    """CPU 12 offline as before, and its way home refused: the interrupt
    core's move home and irq_spread's placement of queue 2 as CPU 12 comes
    back, past which irq_spread places the other queues."""
    what = "CPU 12 online, 12 listed"
    nsim_fail_irq_affinity(dev.id, topo.online() - {0})
    seen = notified(dev.irqs[2])
    hp.set(12, False)
    t.result(wait_notified(dev.irqs[2], seen + 1),
             "CPU 12 offline again: the broken mask's notification handled")
    nsim_fail_irq_affinity(dev.id, {12})
    log = Kmsg()
    hp.set(12, True)
    nsim_fail_irq_affinity(dev.id, ())
    t.result(log.has("irq_spread: affinity of IRQ %d not set: -28"
                     % dev.irqs[2]),
             "%s: irq_spread's placement of queue 2 refused, logged" % what)
    log.close()
    t.eq(dev.effective(2), frozenset([0]),
         "%s: queue 2's line stays on CPU 0" % what)
    t.eq([dev.affinity(q) for q in (0, 1, 3)],
         [frozenset([8]), frozenset([10]), frozenset([14])],
         "%s: the other queues stay" % what)
    no_admin(t, dev, what)
    t.eq(dev.set_policy("core"), 0, "the policy set again, nothing listed")
    check_placement(t, dev, want("core"), "the policy set again: home")


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
    refused(t, dev, {11}, "the administrator's 11 for queue 1",
            lambda: write("/proc/irq/%d/smp_affinity_list" % dev.irqs[1],
                          "11"))

    back_refused(t, dev, want)
    attach_refused(t, dev, want)
    if tables:
        undo_refused(t, dev)
    if not pluggable(8) or dev.effective(0) != frozenset([8]):
        raise Skip("CPU 8 not hot-pluggable, or not queue 0's")
    fallback_refused(t, dev, topo, want)

    set_channels(dev, 2)
    check_placement(t, dev, table("8 10") if tables else None,
                    "ethtool -L 2", active=2)
    if tables:
        inactive_hotplug(t, dev, topo)
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
    home_refused(t, dev, topo, want)

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
