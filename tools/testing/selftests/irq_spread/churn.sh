#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Churn: a mask the kernel set is never taken for the administrator's.
# Three devices, with no write to any /proc/irq/N/smp_affinity, go through
# $IRQ_SPREAD_CHURN_CYCLES (default 300) CPU hotplug cycles (offline and
# online of a CPU other than 0 that holds one of their vectors, the next
# such CPU each time) interleaved with policy sets (netdev netlink
# dev-set): one while the CPU is offline every third cycle, and right after
# each online two different ones to each device in a row, without waiting.  The library's own applies and hotplug
# moves notify the affinity notifier (net core's, which passes each
# notification on to the library) from a work item, which may run after
# the library applied something else; no vector may be marked admin for
# it, and no IRQ of theirs may be the user's in the interrupt core's
# /proc/irq/N/affinity_placement, at the start of any cycle nor after the
# last one.  A fourth device, on CPU 0, whose queue IRQ the user wrote
# before the cycles and which gets no policy set, keeps the user's mask,
# its state user and its row admin through every cycle.  After the cycles
# the library still places every IRQ: each queue's debugfs row is active,
# with its IRQ and the IRQ's affinity, and no IRQ has an affinity hint (net
# core sets none); a policy set still places every vector by the policy's
# rules.

. "$(dirname "$0")/lib.sh"
irq_spread_python <<'PY'
from irq_spread_lib import *

CYCLES = int(os.environ.get("IRQ_SPREAD_CHURN_CYCLES", "300"))

# The guest, devices on nodes 1, 2, 3 (CPUs 4-7, 8-11, 12-15), 4 queues
# each.  After the cycles every device is set to numa-core, then to numa:
# numa-core keeps each device on its own node (two cores a node, a thread
# each), whatever the others' policies left on its CPUs (core on node 2
# uses 12 14 of node 3, on node 3 8 10 of node 2); then each node's CPUs
# hold its own device's vectors only, which are out of the load when it is
# set to numa: tier 0 in CPU order.
WANT = ("4 5 6 7", "8 9 10 11", "12 13 14 15")
hp = Hotplug()


def check_placed(t, devs, what):
    """Every IRQ of @devs is the library's, placed: its queue's debugfs
    row active, with the IRQ and the IRQ's smp_affinity; and no IRQ has
    an affinity hint (net core places a netdev's queue IRQs without)."""
    bad = []
    for d in devs:
        rows = d.rows()
        for q in range(d.queues):
            irq = d.irqs[q]
            aff = parse_hexmask(read("/proc/irq/%d/smp_affinity" % irq))
            hint = d.hint(q)
            r = rows.get(q)
            if hint:
                bad.append("%s queue %d (IRQ %d): hint %s"
                           % (d.ifname, q, irq, fmt_cpulist(hint)))
            if not r or (r.irq, r.state, r.cpus) != (irq, "active", aff):
                bad.append("%s queue %d (IRQ %d, affinity %s): debugfs %s"
                           % (d.ifname, q, irq, fmt_cpulist(aff), r))
    t.result(not bad, "%s: every IRQ placed by the library, as debugfs "
             "says, without an affinity hint" % what, "\n".join(bad))


def admin_rows(rows):
    """The rows of @rows in state admin, with what their IRQ has now."""
    out = []
    for r in rows:
        if r.state != "admin":
            continue
        irq = "" if r.irq is None else " (IRQ: affinity %s)" % (
            fmt_cpulist(irq_affinity(r.irq)))
        out.append("%s vector %d irq %s cpus %s%s"
                   % (r.device, r.vector, r.irq, fmt_cpulist(r.cpus or ()),
                      irq))
    return out


def test(t):
    topo, tables = machine(t)
    nodes = topo.nodes
    set_default_policy("numa")
    devs = [Nsim(7950 + i, 4, nodes[(1 + i) % len(nodes)]) for i in range(3)]
    tables = tables and len(nodes) == 4
    kept = Nsim(7953, 1, nodes[0])
    kept.set_affinity(0, [0])
    t.result(kept.wait_state(0, "admin"), "the user's write to the fourth "
             "device's IRQ (CPU 0) marks it admin")
    kept_state = (kept.affinity(0), kept.placements())
    t.eq(kept_state, (frozenset([0]), ["user"]),
         "the fourth device's IRQ: CPU 0, the user's")
    kept_lost = []   # cycles at whose start the user's write was not kept
    ours = {d.path: d for d in devs}
    cpus = sorted(c for c in topo.eligible() if c and pluggable(c))
    if not cpus:
        raise Skip("no hot-pluggable CPU but CPU 0")
    t.diag("devices on nodes %s, 4 queues each; %d cycles over CPUs %s"
           % (" ".join(str(d.node) for d in devs), CYCLES, fmt_cpulist(cpus)))

    sightings = []   # (cycle, admin rows) seen at a cycle's start
    errors = []      # (cycle, file, policy, errno) of refused writes
    hits = 0         # offlines of a CPU that held a vector of ours
    spent = {"offline": 0.0, "online": 0.0, "writes": 0.0, "table": 0.0}
    nwrites = 0
    last = cpus[-1]
    done = 0
    clock = time.monotonic
    t0 = clock()
    for i in range(CYCLES):
        a = clock()
        rows = [r for r in devices_table() if r.device in ours]
        spent["table"] += clock() - a
        admin = admin_rows(rows)
        admin += ["%s queue %d: IRQ %d is the user's" % (d.ifname, q, irq)
                  for d in devs for q, irq in enumerate(d.irqs)
                  if irq_placement(irq) != "placed"]
        if admin:
            sightings.append((i, admin))
        if ((kept.affinity(0), kept.placements()) != kept_state or
                kept.rows()[0].state != "admin"):
            kept_lost.append(i)
        held = set()
        for r in rows:
            if r.state != "inactive" and r.cpus:
                held |= r.cpus
        # The next CPU after the last one that holds a vector, else the next.
        order = [c for c in cpus if c > last] + [c for c in cpus if c <= last]
        cpu = next((c for c in order if c in held), order[0])
        hits += cpu in held
        last = cpu

        a = clock()
        hp.set(cpu, False)
        b = clock()
        spent["offline"] += b - a
        if i % 3 == 2:
            p = POLICIES[i % len(POLICIES)]
            d = devs[i % len(devs)]
            err = d.set_policy(p)
            nwrites += 1
            if err:
                errors.append((i, d.ifname, p, err))
        c = clock()
        spent["writes"] += c - b
        hp.set(cpu, True)
        b = clock()
        spent["online"] += b - c
        # Right after the online, two policies to each device in a row:
        # the notifications of the first may run while the second applies.
        for k, d in enumerate(devs):
            for n in (0, 1):
                p = POLICIES[(i + k + n) % len(POLICIES)]
                err = d.set_policy(p)
                nwrites += 1
                if err:
                    errors.append((i, d.ifname, p, err))
        spent["writes"] += clock() - b
        done += 1
    loop = clock() - t0
    t.diag("loop: %d cycles in %.1f s, %.0f ms a cycle: offline %.0f ms, "
           "online %.0f ms, %d policy sets %.1f ms each, debugfs read "
           "%.1f ms" % (done, loop, 1000 * loop / max(done, 1),
                        1000 * spent["offline"] / max(done, 1),
                        1000 * spent["online"] / max(done, 1), nwrites,
                        1000 * spent["writes"] / max(nwrites, 1),
                        1000 * spent["table"] / max(done, 1)))

    t.eq(done, CYCLES, "CPU hotplug cycles done")
    t.eq(hits, done, "every cycle offlined a CPU that held a vector")
    t.eq(["cycle %d: %s %s: %s" % (i, f, p, os.strerror(e))
          for i, f, p, e in errors], [],
         "every policy set during the cycles succeeded")
    t.result(not sightings,
             "no vector admin, no IRQ the user's, at any cycle's start "
             "(%d of %d cycles)" % (len(sightings), done),
             "\n".join("cycle %d: %s" % (i, "; ".join(a))
                       for i, a in sightings[:10]))
    t.eq(kept_lost, [], "the user's write kept at every cycle's start")

    # The notifications of the library's last changes: those of CPU
    # hotplug before them are handled by then, or folded into theirs.
    t.result(wait_not_due([i for d in devs for i in d.irqs]),
             "after %d cycles: the notifications of irq_spread's changes "
             "handled" % done)
    admin = admin_rows([r for r in devices_table() if r.device in ours])
    t.eq(len(admin), 0, "after %d cycles: vectors in state admin: 0" % done)
    if admin:
        t.diag("admin: " + "; ".join(admin))
    t.eq([d.placements() for d in devs], [["placed"] * 4] * 3,
         "after %d cycles: every IRQ placed by the kernel" % done)
    t.eq((kept.affinity(0), kept.placements(), kept.rows()[0].state),
         kept_state + ("admin",), "after %d cycles: the user's write kept"
         % done)
    check_placed(t, devs, "after %d cycles" % done)

    refused = []
    for p in ("numa-core", "numa"):
        for d in devs:
            err = d.set_policy(p)
            if err:
                refused.append("%s %s: %s" % (d.ifname, p, os.strerror(err)))
    t.eq(refused, [], "numa-core, then numa set on every device after the "
         "cycles")
    for i, d in enumerate(devs):
        what = "numa after the cycles, device on node %d" % d.node
        check_placement(t, d, table(WANT[i]) if tables else None, what)
        check_rules(t, topo, d, "numa", what)


run("irq_spread churn", test, hp.restore)
PY
