#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# XPS and the queues' IRQs: net core keeps a TX queue's XPS map on the CPUs
# of its channel's IRQ only for a driver that opts in (netif_set_xps_auto();
# netdevsim's ports/<n>/xps_auto knob, each TX queue linked to the NAPI of
# the RX queue of its number).  Off, the default: an xps_cpus the
# administrator wrote stays through IRQ moves and policy changes.  On: each
# TX queue's map is its channel's IRQ's CPUs, at once, after the
# administrator moves an IRQ (an xps_cpus written by hand is overwritten
# then), after a dev-set of a new policy, and per traffic class under
# mqprio (TX queues 0-1 class 0, 2-3 class 1: each its own channel's CPUs,
# in its class), and again once the classes are gone.  A bad value for
# the knob gets EINVAL and changes nothing.  Off again: the maps stay.

. "$(dirname "$0")/lib.sh"
irq_spread_python <<'PY'
import subprocess

from irq_spread_lib import *

QUEUES = 4


def xps(dev, q):
    return parse_hexmask(read("%s/queues/tx-%d/xps_cpus" % (dev.sysfs, q)))


def maps(dev):
    return [fmt_cpulist(xps(dev, q)) for q in range(QUEUES)]


def irq_cpus(dev):
    return [fmt_cpulist(dev.affinity(q)) for q in range(QUEUES)]


def following(t, dev, what):
    t.result(wait_for(lambda: maps(dev) == irq_cpus(dev)),
             "%s: each TX queue's XPS map is its channel's IRQ CPUs" % what,
             "xps %s, IRQs %s" % (maps(dev), irq_cpus(dev)))


def tc(*args):
    return subprocess.run(["tc"] + list(args), stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, universal_newlines=True)


def test(t):
    topo, _ = machine(t)
    set_default_policy("numa")
    online = sorted(topo.online())
    if len(online) < 4:
        raise Skip("needs four online CPUs")
    dev = Nsim(7730, QUEUES)
    knobs = glob.glob("%s/netdevsim%d/ports/*/xps_auto" % (NSIM_DEBUGFS,
                                                          dev.id))
    t.eq(len(knobs), 1, "netdevsim's ports/<n>/xps_auto")
    if len(knobs) != 1:
        return
    knob = knobs[0]
    first, last = online[0], online[-1]
    mask = fmt_hexmask({first}, last + 1)

    # Off: the administrator's map stays.
    t.eq(read(knob), "0", "xps_auto 0 by default")
    write_ok(dev.sysfs + "/queues/tx-0/xps_cpus", mask)
    dev.set_affinity(0, [last])
    dev.set_policy_ok("core")
    t.eq(xps(dev, 0), {first}, "off: tx-0's map as written through an IRQ "
         "move and a policy change")

    t.eq(write(knob, "2"), errno.EINVAL, "xps_auto 2: EINVAL")
    t.eq((read(knob), xps(dev, 0)), ("0", {first}),
         "xps_auto 2: nothing changed")

    # On: the maps follow the IRQs.
    write_ok(knob, "1")
    following(t, dev, "on")
    dev.set_affinity(1, [last])
    following(t, dev, "IRQ 1 moved to CPU %d by the administrator" % last)
    write_ok(dev.sysfs + "/queues/tx-2/xps_cpus", mask)
    dev.set_affinity(2, [last])
    following(t, dev, "tx-2 written by hand, then its IRQ moved")
    t.eq(dev.to_policy(1), 0, "napi-set: IRQ 1 back to the policy")
    t.eq(dev.to_policy(2), 0, "napi-set: IRQ 2 back to the policy")
    dev.set_policy_ok("numa")
    following(t, dev, "dev-set irq-policy numa")

    # Per traffic class.
    r = tc("qdisc", "add", "dev", dev.ifname, "root", "mqprio", "num_tc",
           "2", "map", "0", "1", "queues", "2@0", "2@2", "hw", "0")
    t.result(r.returncode == 0, "mqprio: 2 classes of 2 queues", r.stdout)
    following(t, dev, "mqprio: queues 0-1 class 0, 2-3 class 1")
    dev.set_affinity(3, [first])
    following(t, dev, "mqprio: IRQ 3 moved to CPU %d" % first)
    r = tc("qdisc", "del", "dev", dev.ifname, "root")
    t.result(r.returncode == 0, "mqprio deleted", r.stdout)
    following(t, dev, "no classes again")

    # Off again: the maps stay as they are.
    write_ok(knob, "0")
    before = maps(dev)
    seen = notified(dev.irqs[3])
    dev.set_affinity(3, [last])
    dev.set_policy_ok("core")
    # What would schedule the XPS work is net core's notifier: wait until
    # it handled the user's write and the policy's moves.
    t.result(wait_notified(dev.irqs[3], seen + 1) and
             wait_not_due(dev.irqs),
             "off again: the notifications of the write and the policy "
             "handled")
    t.eq(maps(dev), before, "off again: the maps stay as they were")


run("irq_spread XPS on the queues' IRQs, as a driver opts in", test)
PY
