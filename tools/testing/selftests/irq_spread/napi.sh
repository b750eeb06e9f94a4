#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Net core's NAPI IRQ affinity with irq_spread under it, on a netdevsim
# port (netif_set_affinity_auto(), netif_enable_cpu_rmap(), NAPIs added
# with their queue as index at open): each IRQ has one affinity notifier,
# net core's, which irq_spread installs none beside; the aRFS reverse map
# follows an admin write and a CPU hotplug move; the administrator's mask
# of a NAPI index survives NAPI delete and add (link down/up) and ethtool
# -L down and up, until napi-set hands it back; link up attaches an
# IRQ whose administrator's CPUs all went offline while the link was
# down; a devlink reload re-creates the netdev, whose placement starts
# afresh.

. "$(dirname "$0")/lib.sh"
irq_spread_python <<'PY'
from irq_spread_lib import *

# The guest, node 2 (CPUs 8-11, cores {8,9} {10,11}), numa, 4 queues,
# alone: node 2's threads in order, 8 9 10 11.
#   queue 1 to CPU 4 by hand: 8 4 10 11.
#   CPU 10 offline: queue 2 alone moves.  A fresh placement without 10:
#               8 9 11 (node 2), then 12 (node 3, 12 away): queues 0, 1
#               (its placement, 9) and 3 keep 8, 9, 11; queue 2 takes 12.
#   ethtool -L 2: numa gives a thread each; queue 1 keeps CPU 4: 8 4.
#   rmap: a CPU of an IRQ maps to its queue; a CPU whose IRQ went maps to
#               the queue of its sibling (cpu_rmap_update(): distance 1).
STEPS = {
    "registered": "8 9 10 11",
    "admin": "8 4 10 11",
    "CPU 10 offline": "8 4 12 11",
    "ethtool -L 2": "8 4",
}
hp = Hotplug()


def notifier_rows(dev):
    """{irq: owner} of @dev's IRQs in debugfs notifiers."""
    return {r.irq: r.notifier for r in notifiers_table()
            if r.device == dev.path}


def rmap(dev):
    p = "%s/netdevsim%d/ports/0/rx_cpu_rmap" % (NSIM_DEBUGFS, dev.id)
    if not os.path.exists(p):
        raise Skip("no %s (a kernel without RFS_ACCEL)" % p)
    return [int(x) for x in read(p).split()]


def test(t):
    topo, tables = machine(t)
    node, queues = topo.nodes[-2], 4
    set_default_policy("numa")
    dev = Nsim(7600, queues, node)
    want = lambda step: table(STEPS[step]) if tables else None

    check_placement(t, dev, want("registered"), "registered")
    t.eq(notifier_rows(dev), {irq: "other" for irq in dev.irqs},
         "each IRQ has one affinity notifier, net core's")
    r = rmap(dev)
    for q in range(queues):
        for c in dev.affinity(q):
            if r[c] != q:
                t.result(False, "rmap: CPU %d maps to queue %d, its IRQ is "
                         "queue %d's" % (c, r[c], q))
                break
        else:
            continue
        break
    else:
        t.result(True, "rmap: each IRQ's CPUs map to its queue")

    # The administrator moves queue 1 to CPU 4 (node 1).
    cpu = 4 if tables else max(topo.eligible() - dev.affinity(1))
    old = dev.affinity(1)
    dev.set_affinity(1, [cpu])
    t.result(dev.wait_state(1, "admin"), "admin write marks queue 1 admin")
    check_placement(t, dev, want("admin"), "admin", admin={1})
    t.result(wait_for(lambda: rmap(dev)[cpu] == 1, 5),
             "rmap follows the admin write: CPU %d maps to queue 1" % cpu)
    if tables:
        t.eq(rmap(dev)[9], 0, "rmap: CPU 9, left, maps to its sibling 8's "
             "queue 0")

    # A CPU hotplug move: queue 2's CPU goes.
    gone = min(dev.affinity(2))
    if not pluggable(gone):
        raise Skip("CPU %d not hot-pluggable" % gone)
    hp.set(gone, False)
    check_placement(t, dev, want("CPU 10 offline") if gone == 10 else None,
                    "CPU %d offline" % gone, admin={1})
    moved_to = dev.affinity(2)
    t.result(wait_for(lambda: all(rmap(dev)[c] == 2 for c in moved_to), 5),
             "rmap follows the hotplug move: CPUs %s map to queue 2"
             % fmt_cpulist(moved_to))
    hp.set(gone, True)
    check_placement(t, dev, want("admin"), "CPU %d online" % gone, admin={1})
    t.eq(notifier_rows(dev), {irq: "other" for irq in dev.irqs},
         "still one notifier per IRQ, net core's")

    # What the index keeps: link down/up deletes and adds the NAPIs.
    dev.link(False)
    t.eq(notifier_rows(dev), {}, "link down: the NAPIs are gone, so are "
         "their IRQs' notifiers")
    t.eq(dev.affinity(1), frozenset([cpu]), "link down: queue 1's IRQ keeps "
         "its affinity")
    dev.link(True)
    check_placement(t, dev, want("admin"), "link down/up", admin={1})

    # The administrator's CPU goes offline while the link is down: the
    # interrupt core moves queue 1's IRQ, and link up attaches it all the
    # same, where the interrupt core put it, still the administrator's.
    if pluggable(cpu):
        dev.link(False)
        hp.set(cpu, False)
        moved_to = dev.affinity(1)
        dev.link(True)
        what = "CPU %d, queue 1's, offline while the link was down" % cpu
        t.eq(notifier_rows(dev), {irq: "other" for irq in dev.irqs},
             "%s: link up attaches every IRQ, net core's notifier" % what)
        row = dev.rows()[1]
        t.eq((row.irq, row.state, dev.affinity(1)),
             (dev.irqs[1], "admin", moved_to), "%s: queue 1 attached, "
             "admin, its IRQ where the interrupt core moved it" % what)
        hp.set(cpu, True)
        dev.set_affinity(1, [cpu])
        t.result(wait_for(lambda: dev.affinity(1) == frozenset([cpu]) and
                          dev.rows()[1].cpus == frozenset([cpu]), 5),
                 "CPU %d online, queue 1 written to it again" % cpu)
    set_channels(dev, 2)
    check_placement(t, dev, want("ethtool -L 2"), "ethtool -L 2", admin={1},
                    active=2)
    set_channels(dev, queues)
    check_placement(t, dev, want("admin"), "ethtool -L 4", admin={1})

    # The policy it has changes nothing; napi-set hands the IRQ back.
    t.eq(dev.set_policy("numa"), 0, "dev-set of the policy it has")
    check_placement(t, dev, want("admin"), "the policy it has", admin={1})
    t.eq(dev.to_policy(1), 0, "napi-set: queue 1 back to the policy")
    check_placement(t, dev, want("registered"), "queue 1 back to the policy")

    # A devlink reload re-creates the port: its netdev, and its placement.
    dev.set_affinity(1, [cpu])
    t.result(dev.wait_state(1, "admin"), "admin write before the reload")
    run_cmd("devlink", "dev", "reload", "netdevsim/netdevsim%d" % dev.id)
    dev.reattach()
    dev.link(True)
    check_placement(t, dev, want("registered"),
                    "devlink reload: a new netdev, placed afresh")


run("irq_spread NAPI IRQ affinity", test, hp.restore)
PY
