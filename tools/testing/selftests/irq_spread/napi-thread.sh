#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A threaded NAPI's kthread and its IRQ (net core's napi attribute
# thread-follows-irq), on the receiver of a linked netdevsim pair, whose
# NAPI runs in its kthread when frames arrive.  By default napi-get reports
# 0 and the kthread stays where the administrator put it (taskset) however
# its IRQ moves, frames received or not.  Set over napi-set, the kthread
# takes its IRQ's CPUs when it next runs, and again after the IRQ moves by
# the administrator's write, by napi-set handing it back to the policy and
# by a dev-set of the netdev's CPUs; the setting outlives the NAPI's
# deletion and re-addition (link down and up: a new kthread, which follows
# too).  A value out of range gets ERANGE and an extack and changes
# nothing.  Cleared, the kthread stays where it is.

. "$(dirname "$0")/lib.sh"
irq_spread_python <<'PY'
from irq_spread_lib import *


def kthread(dev):
    """(NAPI id, kthread pid) of @dev's queue 0."""
    napi = dev.napis()[0]
    return napi["id"], napi.get("pid")


def follows(dev):
    return dev.napis()[0].get("thread-follows-irq")


def ran(pid):
    """How many times kthread @pid gave up its CPU: it rose if it ran."""
    for line in read("/proc/%d/status" % pid).splitlines():
        if line.startswith("voluntary_ctxt_switches:"):
            return int(line.split()[1])
    raise ValueError("no voluntary_ctxt_switches for %d" % pid)


def test(t):
    topo, _ = machine(t)
    set_default_policy("numa")
    if not os.path.exists(NSIM_BUS + "/link_device"):
        raise Skip("netdevsim without link_device")
    online = sorted(topo.online())
    if len(online) < 4:
        raise Skip("needs four online CPUs")
    a = Nsim(7720, 1)
    b = Nsim(7721, 1)
    link(a, b)
    set_link(a.ifname, True)
    set_link(b.ifname, True)
    tx, rx, dst = packet_sockets(a, b)
    write_ok(b.sysfs + "/threaded", "1")
    napi_id, pid = kthread(b)
    t.result(pid is not None, "threaded: napi-get reports the kthread")
    follows_on = lambda: os.sched_getaffinity(pid) == b.affinity(0)

    # Off: the kthread stays where the administrator put it.
    t.eq(follows(b), 0, "napi-get: thread-follows-irq 0 by default")
    first, other = online[0], online[-1]
    os.sched_setaffinity(pid, {first})
    b.set_affinity(0, [other])
    before = ran(pid)
    traffic(tx, rx, dst)
    t.result(wait_for(lambda: ran(pid) > before, 5),
             "the kthread ran for the frames")
    t.eq(os.sched_getaffinity(pid), {first},
         "off: the kthread stays on CPU %d, its IRQ on %d" % (first, other))

    # On: it takes its IRQ's CPUs when it next runs, and follows them.
    r = nl_do("napi-set", {"id": napi_id, "thread-follows-irq": 1})
    t.eq(r.err, 0, "napi-set thread-follows-irq 1")
    t.eq(follows(b), 1, "napi-get: thread-follows-irq 1")
    t.result(traffic_until(tx, rx, dst, follows_on),
             "on: the kthread takes its IRQ's CPU %d" % other,
             "kthread %s" % fmt_cpulist(os.sched_getaffinity(pid)))
    mid = online[len(online) // 2]
    b.set_affinity(0, [mid])
    t.result(traffic_until(tx, rx, dst, follows_on),
             "the IRQ moved by the administrator to %d: the kthread too" % mid,
             "kthread %s" % fmt_cpulist(os.sched_getaffinity(pid)))
    t.eq(b.to_policy(0), 0, "napi-set: the IRQ back to the policy")
    t.result(traffic_until(tx, rx, dst, follows_on),
             "the IRQ placed by the policy on %s: the kthread too"
             % fmt_cpulist(b.affinity(0)),
             "kthread %s" % fmt_cpulist(os.sched_getaffinity(pid)))
    cpus = frozenset(online[1:3]) - b.affinity(0)
    t.eq(b.set_cpus(cpus), 0, "dev-set irq-cpus %s" % fmt_cpulist(cpus))
    t.result(b.affinity(0) <= cpus and
             traffic_until(tx, rx, dst, follows_on),
             "the IRQ moved within %s: the kthread too" % fmt_cpulist(cpus),
             "IRQ %s, kthread %s" % (fmt_cpulist(b.affinity(0)),
                                     fmt_cpulist(os.sched_getaffinity(pid))))

    # A value out of range changes nothing.
    where = os.sched_getaffinity(pid)
    r = nl_do("napi-set", {"id": napi_id, "thread-follows-irq": 2})
    t.result(r.err == errno.ERANGE and r.extack.get("bad-attr") ==
             ".thread-follows-irq",
             "napi-set thread-follows-irq 2: ERANGE, the extack names it", r)
    t.eq((follows(b), os.sched_getaffinity(pid)), (1, where),
         "thread-follows-irq 2: nothing changed")

    # The NAPI deleted and added again keeps the setting: a new kthread.
    set_link(b.ifname, False)
    set_link(b.ifname, True)
    tx.close()
    rx.close()
    tx, rx, dst = packet_sockets(a, b)
    napi_id, pid = kthread(b)
    t.eq(follows(b), 1, "link down and up: thread-follows-irq still 1")
    t.result(pid is not None and traffic_until(tx, rx, dst, follows_on),
             "link down and up: the new kthread takes its IRQ's CPUs",
             "kthread %s" % (pid and fmt_cpulist(os.sched_getaffinity(pid))))

    # Cleared: the kthread stays where it is, and where it is put.
    r = nl_do("napi-set", {"id": napi_id, "thread-follows-irq": 0})
    t.eq((r.err, follows(b)), (0, 0), "napi-set thread-follows-irq 0")
    os.sched_setaffinity(pid, {first})
    b.set_affinity(0, [other])
    traffic(tx, rx, dst)
    t.eq(os.sched_getaffinity(pid), {first},
         "cleared: the kthread stays on CPU %d, its IRQ on %d"
         % (first, other))
    write_ok(b.sysfs + "/threaded", "0")
    tx.close()
    rx.close()


run("irq_spread threaded NAPI kthread and its IRQ", test)
PY
