#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# CPU hotplug moves the minimum: when a CPU goes offline, only the vectors
# whose mask holds it move (one left with no CPU to a free mask of a fresh
# placement, one with other CPUs just losing it), before the write to
# cpuN/online returns; when it comes back exactly those move back (and a
# numa-core vector alone on its core narrows to one thread of it when a
# moved vector joins the core, on nodes of three cores or more).  A CPU
# that holds no vector moves nothing either way.  Checked by the effective
# CPUs and the affinities of every queue before, during and after, under
# numa and numa-core; a device registered after the cycles finds the load
# as it should be.

. "$(dirname "$0")/lib.sh"
irq_spread_python <<'PY'
from irq_spread_lib import *

# The guest, node 0 (CPUs 0-3, cores {0,1} {2,3}), 4 queues, alone.
# Tiers: 0 = node 0, 1 = node 1 (4-7), 2 = nodes 2-3.  Per step: the CPUs
# of queues 0..3 (effective: the first of each), then the queues moved.
#
# numa: 0 1 2 3.
#   CPU 1 offline: queue 1 lost its CPU.  Fresh placement without 1: tier 0
#     in CPU order 0 2 3, then tier 1's 4.  Queues 0, 2, 3 keep 0 2 3;
#     queue 1 takes the one free, 4.           0 4 2 3, moved: queue 1
#   CPU 1 online: placed afresh, 0 1 2 3: queue 1 alone moves back.
#   CPU 5 offline, online: no vector on it.     0 1 2 3, moved: none
# numa-core (written): tier 0 rank 0: 0 2, rank 1: 1 3; a thread each:
#   0 2 1 3.
#   CPU 1 offline: queue 2 lost its CPU.  Fresh placement without 1: tier 0
#     rank 0: 0 2, rank 1: 3, tier 1 rank 0: 4; core {0} holds one (0),
#     {2,3} two (2, 3), {4,5} one (4-5).  Queues 0, 1, 3 keep 0 2 3; queue
#     2 takes 4-5, effective 4.        0 2 4-5 3, moved: queue 2
#   CPU 1 online: 0 2 1 3, queue 2 back.  CPU 5: nothing.
# numa-core, ethtool -L 2: slots 0 2, a vector a core: whole cores 0-1 2-3.
#   CPU 1 offline: queue 0 keeps 0 (effective 0 still). 0 2-3, moved: queue 0
#   CPU 1 online: 0-1 2-3, queue 0 back.
# ethtool -L 4 and numa written: 0 1 2 3.  A second device, numa, no node,
# 4 queues: one tier; CPUs 0-3 have a load of 1: the least loaded first,
# 4 5 6 7.
#
# Per phase: (all online, effective), (CPU offline, effective).
NUMA = ("0 1 2 3", "0 1 2 3")
NUMA_CORE = ("0 2 1 3", "0 2 1 3")
CORES = ("0-1 2-3", "0 2")
OFFLINE = {"numa": ("0 4 2 3", "0 4 2 3"),
           "numa-core": ("0 2 4-5 3", "0 2 4 3"),
           "cores": ("0 2-3", "0 2")}
SECOND = "4 5 6 7"
hp = Hotplug()


def cycle(t, topo, dev, policy, cpu, on, off, active, name):
    """Offline @cpu and online it again, checking @dev under @policy: the
    CPUs and effective CPUs of the hand tables @on (all online) and @off
    (while @cpu is offline; @on again for a CPU that holds no vector),
    None where tables do not apply; and that the queues that move are
    those whose mask held @cpu, and only they, each way."""
    tab = lambda pair, i: table(pair[i]) if pair else None
    held = dev.affinities()[:active]
    hp.set(cpu, False)
    what = "%s, CPU %d offline" % (name, cpu)
    t.result(cpu not in topo.eligible(), "%s: not eligible" % what)
    now = dev.affinities()[:active]
    check_placement(t, dev, tab(off, 0), what, active=active,
                    eff=tab(off, 1))
    check_rules(t, topo, dev, policy, what, active=active, fresh=False)
    t.result(all(cpu not in m for m in now + dev.effectives(active)),
             "%s: no IRQ on it" % what)
    # A numa-core vector alone on its core holds the whole core; one that
    # lost its CPU may join it there (three cores or more per node), and
    # then each of the two gets one thread: the lone one narrows, within
    # its mask, and counts apart.
    lost = [q for q in range(active) if cpu in held[q]]
    narrowed = [q for q in moved(held, now) if q not in lost and
                policy == "numa-core" and len(now[q]) == 1 and
                now[q] < held[q] and any(now[r] <= held[q] for r in lost)]
    t.eq([q for q in moved(held, now) if q not in narrowed], lost,
         "%s: only the vectors it held moved" % what)
    if narrowed:
        t.diag("%s: queues %s narrowed to a thread of their core, which a "
               "moved queue joined" % (what, narrowed))
    t.diag("%s: effective CPUs %s, %d moved"
           % (what, fmt_masks(dev.effectives(active)), len(moved(held, now))))

    hp.set(cpu, True)
    what = "%s, CPU %d online again" % (name, cpu)
    check_placement(t, dev, tab(on, 0), what, active=active, eff=tab(on, 1))
    check_rules(t, topo, dev, policy, what, active=active)
    back = dev.affinities()[:active]
    t.eq(moved(now, back), moved(held, now),
         "%s: what moved moves back, nothing else" % what)
    t.eq(back, held, "%s: as before" % what)


def test(t):
    topo, tables = machine(t)
    node, queues = topo.nodes[0], 4
    set_default_policy("numa")
    dev = Nsim(7500, queues, node)
    tab = lambda pair: pair if tables else None
    placed = lambda pair, what, active=queues: check_placement(
        t, dev, table(pair[0]) if tables else None, what, active=active,
        eff=table(pair[1]) if tables else None)
    placed(NUMA, "numa")
    check_rules(t, topo, dev, "numa", "numa")

    # A hot-pluggable CPU that a vector is on: queue 1's (CPU 1), and one
    # that holds none (CPU 5).
    with_vec = min(dev.effective(1))
    idle = sorted(c for c in topo.eligible() - set().union(*dev.affinities())
                  if pluggable(c))
    if not pluggable(with_vec) or not idle:
        raise Skip("no hot-pluggable CPU with a vector and one without")
    without = 5 if tables else idle[0]
    t.diag("offlining CPU %d (queue 1's) and CPU %d (no vector)"
           % (with_vec, without))
    cycle(t, topo, dev, "numa", with_vec, tab(NUMA), tab(OFFLINE["numa"]),
          queues, "numa")
    cycle(t, topo, dev, "numa", without, tab(NUMA), tab(NUMA), queues, "numa")

    dev.set_policy_ok("numa-core")
    placed(NUMA_CORE, "numa-core")
    check_rules(t, topo, dev, "numa-core", "numa-core")
    cycle(t, topo, dev, "numa-core", with_vec, tab(NUMA_CORE),
          tab(OFFLINE["numa-core"]), queues, "numa-core")
    cycle(t, topo, dev, "numa-core", without, tab(NUMA_CORE), tab(NUMA_CORE),
          queues, "numa-core")

    # Whole-core masks: a vector keeps the rest of its mask.
    set_channels(dev, 2)
    placed(CORES, "numa-core, 2 channels", 2)
    cycle(t, topo, dev, "numa-core", with_vec, tab(CORES),
          tab(OFFLINE["cores"]), 2, "numa-core, 2 channels")

    # The load after the cycles: a second device.
    set_channels(dev, queues)
    dev.set_policy_ok("numa")
    placed(NUMA, "numa, 4 channels again")
    dev2 = Nsim(7501, queues)
    what = "numa, no node, a device registered after the cycles"
    check_placement(t, dev2, table(SECOND) if tables else None, what)
    check_rules(t, topo, dev2, "numa", what)
    dev2.remove()
    dev.remove()
    around(t, topo, tables)


# Two devices placed around each other, numa: A, no node, 0 1 2 3 (one
# tier, CPU order); then B, node 0: node 0 first whatever its load,
# 0 1 2 3.
#   CPU 9, which neither uses, offline and online: nothing moves.  (Placed
#     afresh with B's load, A would move to 4 5 6 7.)
#   CPU 1 offline: A's queue 1 lost its CPU.  A's fresh placement without
#     CPU 1 and with B's load on 0, 2, 3: 4 5 6 7; the one its others do
#     not hold, first: 4.  B's without CPU 1 and with A's load on 0, 2, 3,
#     4: node 0's 0 2 3, then node 1's least loaded, 5.  B's queue 1: 5.
#   CPU 1 online: both queues 1 back, nothing else.
AROUND = ("0 1 2 3", "0 1 2 3")
AROUND_OFF = ("0 4 2 3", "0 5 2 3")


def around(t, topo, tables):
    a = Nsim(7502, 4)
    b = Nsim(7503, 4, topo.nodes[0])
    both = lambda: (a.affinities(), b.affinities())
    want = lambda pair: tuple(table(m) for m in pair) if tables else None
    start = both()
    if tables:
        t.eq(start, want(AROUND), "two devices around each other: placed")
    idle = 9 if tables else next(
        (c for c in sorted(topo.eligible()) if pluggable(c) and
         all(c not in m for m in start[0] + start[1])), None)
    if idle is not None:
        hp.set(idle, False)
        hp.set(idle, True)
        t.eq(both(), start, "two devices: CPU %d, which neither uses, "
             "went and came back: nothing moved" % idle)
    cpu = min(start[0][1])
    if not pluggable(cpu):
        return
    hp.set(cpu, False)
    off = both()
    if tables:
        t.eq(off, want(AROUND_OFF), "two devices, CPU %d offline" % cpu)
    t.eq((moved(start[0], off[0]), moved(start[1], off[1])),
         ([q for q in range(4) if cpu in start[0][q]],
          [q for q in range(4) if cpu in start[1][q]]),
         "two devices, CPU %d offline: only the vectors it held moved" % cpu)
    hp.set(cpu, True)
    t.eq(both(), start, "two devices, CPU %d online again: as before" % cpu)


run("irq_spread CPU hotplug", test, hp.restore)
PY
