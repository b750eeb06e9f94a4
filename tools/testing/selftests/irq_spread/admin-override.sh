#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Admin override: an IRQ moved by hand through /proc/irq/N/smp_affinity_list
# is marked admin in debugfs (net core's affinity notifier, from a work
# item, passes the write on to the library) and stays where the admin put
# it across ethtool -L down and up, link down/up and the offline and
# online of another CPU that holds a vector of the device, while the other
# queues follow the policy (placed as if nothing had been moved); writing
# a policy to the device hands it back.  Reads change nothing.  A write to
# a queue not in use is not the admin's: the queue gets the policy's CPUs
# back with ethtool -L; nor is the IRQ core's own move of a queue not in
# use off a CPU going offline.  No queue's IRQ has an affinity hint (net
# core sets none), in use or not.  /proc/irq/N/affinity_placement shows
# the written IRQ as the user's, the others as placed, and all of them
# placed once the policy is written.

. "$(dirname "$0")/lib.sh"
irq_spread_python <<'PY'
from irq_spread_lib import *

# The guest, node 0 (CPUs 0-3, cores {0,1} {2,3}), numa-core, 4 queues,
# alone.  Tiers: 0 = node 0, 1 = node 1 (4-7), 2 = nodes 2-3.
#   registered:  tier 0 rank 0: 0 2, rank 1: 1 3; two vectors a core, a
#                thread each: 0 2 1 3.
#   queue 1 to CPU 15 by hand: 0 15 1 3.
#   ethtool -L 2: slots 0 2, one vector a core, whole cores 0-1 2-3;
#                queue 1 keeps 15: 0-1 15.  Queues 2, 3 not in use keep
#                their IRQ's CPUs (1, 3).
#   queue 3 (not in use) written to CPU 14: not the admin's.
#   CPU 1 offline: queue 0's 0-1 loses 1: 0.  Queue 2's IRQ (CPU 1, not in
#                use) is moved by the IRQ core to every online CPU,
#                0,2-15, as its mask has no other online CPU; nobody's,
#                still not in use.  (A mask with another online CPU, 4-5
#                on a machine of three cores per node, is kept, the
#                effective CPU moving to 5, where it stays once CPU 4 is
#                back.)
#   CPU 1 online: placed afresh, 0-1 15.
#   ethtool -L 4: 0 15 1 3 (queue 3 the policy's 3, not 14).
#   link down/up: the same.
#   CPU 3 offline: queue 3 alone moves.  Fresh placement without 3: tier 0
#                slots 0 2 (rank 0), 1 (rank 1), then tier 1's 4: core
#                {0,1} holds two (0, 1), {2} one (2), {4,5} one (4-5).
#                Queues 0, 1, 2 keep 0, 2 (queue 1's placement), 1; queue 3
#                takes the free 4-5: 0 15 1 4-5, effective 0 15 1 4.
#   CPU 3 online: queue 3 back to 3 alone: 0 15 1 3.
#   numa-core written: queue 1 back to the policy's 2: 0 2 1 3.
STEPS = {
    "registered": "0 2 1 3",
    "admin": "0 15 1 3",
    "ethtool -L 2": "0-1 15",
    "CPU 1 offline": "0 15",
    "CPU 1 online": "0-1 15",
    "ethtool -L 4": "0 15 1 3",
    "link down/up": "0 15 1 3",
    "CPU 3 offline": "0 15 1 4-5",
    "CPU 3 online": "0 15 1 3",
    "policy written": "0 2 1 3",
}
CPU3_OFFLINE_EFFECTIVE = "0 15 1 4"
hp = Hotplug()


def test(t):
    topo, tables = machine(t)
    node, queues, policy = topo.nodes[0], 4, "numa-core"
    set_default_policy(policy)
    dev = Nsim(7400, queues, node)
    want = lambda step: table(STEPS[step]) if tables else None

    def step(what, admin={1}, active=queues, eff=None):
        check_placement(t, dev, want(what), what, admin=admin, active=active,
                        eff=eff)
        t.eq(dev.affinity(1), frozenset([cpu]),
             "%s: queue 1 keeps the admin's CPU" % what)

    check_placement(t, dev, want("registered"), "registered")
    check_rules(t, topo, dev, policy, "registered")

    # Queue 1 by hand, to a CPU its policy would not give it (15).
    cpu = max(topo.eligible() - dev.affinity(1))
    dev.set_affinity(1, [cpu])
    t.result(dev.wait_state(1, "admin"), "admin write marks queue 1 admin")
    t.eq(dev.placements(), ["placed", "user", "placed", "placed"],
         "admin write: the interrupt core counts queue 1's IRQ as the user's")
    step("admin")
    before = dev.state()
    for _ in range(3):
        dev.dev_get()
        dev.napis()
        read(DEVICES)
    t.eq(dev.state(), before, "dev-get, napi-get and debugfs change nothing")
    t.eq([dev.source(q) for q in range(queues)],
         ["policy", "user", "policy", "policy"],
         "napi-get: queue 1's IRQ mask is the user's, the others the policy's")

    set_channels(dev, 2)
    step("ethtool -L 2", active=2)

    # A write to a queue not in use is not the admin's.
    late = max(topo.eligible() - dev.affinity(3) - {cpu})
    seen = notified(dev.irqs[3])
    dev.set_affinity(3, [late])
    t.eq(dev.affinity(3), frozenset([late]),
         "queue 3 not in use: the IRQ core took the write")
    t.result(wait_notified(dev.irqs[3], seen + 1),
             "queue 3 not in use: the write's notification handled",
             "notified %s, was %d" % (notified(dev.irqs[3]), seen))
    t.eq(dev.rows()[3].state, "inactive",
         "queue 3 not in use: written, still inactive")

    # The IRQ core moves queue 2's IRQ, not in use, off a CPU going
    # offline: not the admin's either.
    gone = min(dev.effective(2))
    if gone == cpu or not pluggable(gone):
        raise Skip("CPU %d of queue 2 not hot-pluggable" % gone)
    mask = dev.affinity(2)
    seen = notified(dev.irqs[2])
    hp.set(gone, False)
    # The IRQ core notifies a move that breaks the mask, and no other.
    if not mask & topo.online():
        t.result(wait_notified(dev.irqs[2], seen + 1),
                 "queue 2 not in use: the broken mask's notification "
                 "handled", "notified %s, was %d"
                 % (notified(dev.irqs[2]), seen))
    step("CPU %d offline" % gone, active=2)
    t.result(gone not in dev.effective(2),
             "queue 2 not in use: IRQ moved off CPU %d by the IRQ core" % gone,
             "effective %s" % fmt_cpulist(dev.effective(2)))
    # The IRQ core keeps a mask with another online CPU whole, the CPU
    # going offline included (the effective CPU moves within it), and
    # breaks one without, to every online CPU.
    t.eq(dev.affinity(2), mask if mask & topo.online() else topo.online(),
         "queue 2 not in use: the mask the IRQ core keeps")
    hp.set(gone, True)
    step("CPU %d online" % gone, active=2)

    set_channels(dev, queues)
    step("ethtool -L 4")
    t.result(dev.affinity(3) != frozenset([late]),
             "queue 3 has the policy's CPUs, not those written while unused")

    set_link(dev.ifname, True)
    set_link(dev.ifname, False)
    set_link(dev.ifname, True)
    step("link down/up")

    # Another CPU that holds a vector of the device: queue 3's.
    other = min(dev.effective(3))
    if other == cpu or not pluggable(other):
        raise Skip("CPU %d of queue 3 not hot-pluggable" % other)
    held = dev.affinities()
    hp.set(other, False)
    step("CPU %d offline" % other,
         eff=table(CPU3_OFFLINE_EFFECTIVE) if tables else None)
    off = dev.affinities()
    t.eq(moved(held, off), [q for q in range(queues)
                            if q != 1 and other in held[q]],
         "CPU %d offline: only the vectors it held moved" % other)
    hp.set(other, True)
    step("CPU %d online" % other)
    t.eq(moved(off, dev.affinities()), moved(held, off),
         "CPU %d online: what moved moves back" % other)
    t.eq(dev.affinities(), held, "CPU %d online: as before" % other)

    # The same policy again changes nothing; napi-set hands queue 1 back.
    kept = dev.state()
    t.eq(dev.set_policy(policy), 0, "dev-set of the policy it has")
    t.eq(dev.state(), kept, "the policy it has again: nothing changed")
    t.eq(dev.source(1), "user", "the policy it has again: queue 1 the user's")
    t.eq(dev.to_policy(1), 0, "napi-set: queue 1 back to the policy")
    check_placement(t, dev, want("policy written"), "back to the policy")
    t.eq(dev.placements(), ["placed"] * queues,
         "back to the policy: every IRQ placed by the kernel again")
    t.eq([dev.source(q) for q in range(queues)], ["policy"] * queues,
         "back to the policy: napi-get says so for every queue")
    check_rules(t, topo, dev, policy, "back to the policy")


run("irq_spread admin override", test, hp.restore)
PY
