#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# irq_spread's device layer on real interrupts: a netdevsim device's event
# IRQs (debugfs event_irqs, created at devlink reload), which no NAPI owns,
# registered with irq_spread on the bus device.  The registration has a
# class device, /sys/class/irq_spread/netdevsim:netdevsim<ID>, whose
# device link is the bus device and whose policy and cpus files place
# the IRQs; each IRQ has one affinity notifier, irq_spread's.  What the
# administrator set (policy, CPUs, an IRQ's smp_affinity) survives a
# devlink reload, which unregisters and registers the IRQs again, as a
# driver's reset does; bad values change nothing; writing the policy it
# has changes nothing, a new policy hands the hand-set IRQ back; a device
# created anew starts afresh.

. "$(dirname "$0")/lib.sh"
irq_spread_python <<'PY'
from irq_spread_lib import *

# The guest, a device on node 1 (CPUs 4-7, cores {4,5} {6,7}) with no
# port, 2 event IRQs, alone:
#   numa:                 node 1's threads in order: 4 5.
#   numa-core:            a core each, alone on it: the whole core: 4-5 6-7.
#   numa-core, CPUs 6-7:  one core holds both, a thread each: 6 7.
#   event 1 to CPU 0 by hand: 6 0, through the reload.
#   numa, CPUs 6-7:       6 7 (event 1 handed back).
STEPS = {
    "registered": "4 5",
    "numa-core": "4-5 6-7",
    "CPUs 6-7": "6 7",
    "admin": "6 0",
    "reloaded": "6 0",
    "numa written": "6 7",
}
ID, NR = 7700, 2
CLASS = "/sys/class/irq_spread/netdevsim:netdevsim%d" % ID
BUSDEV = NSIM_BUS + "/devices/netdevsim%d" % ID
BAD_POLICY = ["bogus", "\n", "numa x"]
BAD_CPUS = ["\n", "4096", "3-1", "f"]
# The device, made again at the end.
dev = []


def new_device(node):
    dev[:] = [NsimEvents(ID, NR, node)]


def irqs():
    return dev[0].irqs()


def affinities():
    return dev[0].affinities()


def state():
    """What a reload or a bad write must leave alone (IRQ numbers aside:
    a reload requests the IRQs anew)."""
    return (read(CLASS + "/policy"), read(CLASS + "/cpus"),
            tuple(fmt_cpulist(a) for a in affinities()),
            tuple((v, r.policy, r.kind, r.state, r.cpus)
                  for v, r in sorted(dev[0].rows().items())))


def check(t, topo, tables, what, admin=()):
    """The IRQs where the table says, their affinity as hint but for those
    set by hand, one notifier each, irq_spread's, and debugfs agreeing."""
    aff = affinities()
    if tables:
        t.eq(fmt_masks(aff), fmt_masks(table(STEPS[what])),
             "%s: event IRQ CPUs (hand table)" % what)
    bad = []
    for i, irq in enumerate(irqs()):
        hint = parse_hexmask(read("/proc/irq/%d/affinity_hint" % irq))
        if i not in admin and hint != aff[i]:
            bad.append("event %d: hint %s, affinity %s"
                       % (i, fmt_cpulist(hint), fmt_cpulist(aff[i])))
    rows = device_rows(sysfs_path(BUSDEV))
    for i in range(NR):
        r = rows.get(i)
        want = ("admin" if i in admin else "active", aff[i])
        if not r or (r.state, r.cpus) != want:
            bad.append("event %d: debugfs %s, want %s %s"
                       % (i, r, want[0], fmt_cpulist(want[1])))
    owners = {r.irq: r.notifier for r in notifiers_table()}
    for irq in irqs():
        if owners.get(irq) != "irq_spread":
            bad.append("IRQ %d: notifier %s" % (irq, owners.get(irq)))
    t.result(not bad, "%s: hints, debugfs and notifiers" % what,
             "\n".join(bad))


def test(t):
    topo, tables = machine(t)
    node = topo.nodes[1]
    set_default_policy("numa")
    new_device(node)
    steps(t, topo, tables, node)


def steps(t, topo, tables, node):
    t.result(os.path.isdir(CLASS), "registered: %s" % CLASS)
    t.eq(os.path.realpath(CLASS + "/device"), os.path.realpath(BUSDEV),
         "its device link is the bus device")
    t.eq(read(CLASS + "/policy"), "[numa] numa-core core", "policy: numa")
    t.eq(read(CLASS + "/cpus"), fmt_cpulist(topo.present), "cpus: all")
    check(t, topo, tables, "registered")

    t.eq(write(CLASS + "/policy", "numa-core"), 0, "write numa-core")
    check(t, topo, tables, "numa-core")
    cpus = frozenset(sorted(topo.node_cpus[node])[-2:])
    t.eq(write(CLASS + "/cpus", fmt_cpulist(cpus)), 0,
         "write CPUs %s" % fmt_cpulist(cpus))
    check(t, topo, tables, "CPUs 6-7")
    t.result(all(a <= cpus for a in affinities()),
             "every event IRQ within %s" % fmt_cpulist(cpus))

    cpu = min(topo.eligible() - cpus)
    set_irq_affinity(irqs()[1], [cpu])
    t.result(wait_for(lambda: device_rows(sysfs_path(BUSDEV))[1].state ==
                      "admin", 5), "admin write marks event 1 admin")
    check(t, topo, tables, "admin", admin={1})

    before = state()
    dev[0].reload()
    t.result(os.path.isdir(CLASS), "devlink reload: registered again")
    t.eq(read(CLASS + "/policy"), "numa [numa-core] core",
         "devlink reload: the policy written is kept")
    t.eq(read(CLASS + "/cpus"), fmt_cpulist(cpus),
         "devlink reload: the CPUs written are kept")
    t.eq(affinities()[1], frozenset([cpu]),
         "devlink reload: event 1 keeps the admin's CPU")
    check(t, topo, tables, "reloaded", admin={1})
    t.eq(state(), before, "devlink reload: nothing else changed")

    for path, bad in ((CLASS + "/policy", BAD_POLICY),
                      (CLASS + "/cpus", BAD_CPUS)):
        saved = state()
        for value in bad:
            err = write(path, value)
            t.result(err == errno.EINVAL and state() == saved,
                     "%s: %r rejected with EINVAL, nothing changed"
                     % (path, value),
                     "write: %s" % (os.strerror(err) if err else "accepted"))
        st = os.stat(path)
        t.result(st.st_uid == 0 and st.st_mode & 0o777 == 0o644,
                 "%s is root's, mode 0644" % path)

    saved = state()
    t.eq(write(CLASS + "/policy", "numa-core"), 0, "write numa-core again")
    t.eq(state(), saved, "the policy it has again: nothing changed, event 1 "
         "still the admin's")
    t.eq(write(CLASS + "/policy", "numa"), 0, "write numa")
    check(t, topo, tables, "numa written")

    # Removed and created anew: nothing kept.
    dev[0].remove()
    t.result(not os.path.exists(CLASS), "removed: no class device")
    new_device(node)
    t.eq(read(CLASS + "/policy"), "[numa] numa-core core",
         "created anew: the policy is the default again")
    t.eq(read(CLASS + "/cpus"), fmt_cpulist(topo.present),
         "created anew: every CPU again")
    check(t, topo, tables, "registered")


run("irq_spread device layer", test)
PY
