#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Stress: every way a device's placement changes, at once, for
# IRQ_SPREAD_STRESS_SECONDS (60 unless set).  Threads of one python3
# process (a fork costs about 0.15 s under TCG) race each other: CPUs
# going offline and online (two threads, CPUs 1-7 and 8-15), policy
# writes through sysfs (the netdevs' irq_spread/policy and the device
# layer's /sys/class/irq_spread/*/policy) and through netlink dev-set,
# the administrator's writes to /proc/irq/N/smp_affinity_list, ethtool -L
# (SIOCETHTOOL), links down and up, XDP on and off, netdevsim devices
# created and deleted, and virtio-net NICs bound to virtio-pci and
# unbound.  A monitor reads debugfs meanwhile.
#
# Devices: persistent ones, which the administrator writes to and which
# live through the whole run (netdevsim ports A, 8 queues, and B, 4, a
# netdevsim device with 2 event IRQs on the device layer, and the
# virtio-net NIC with 17 queue pairs, which XDP gives 16 more pairs when
# one is in use); churned ones, which nothing but the policy, channel
# and link workers touch (netdevsim ports created and deleted, the other
# three virtio-net NICs bound and unbound).
#
# Every operation is counted (KTAP diag and one line per kind): done,
# refused with an error that is expected for a reason the test can tell
# from what the other threads did at the same time (a device deleted or
# unbound meanwhile: ENOENT, ENODEV; an administrator's mask whose CPUs
# all went offline: EINVAL, or ENOSPC from x86's vector allocator; ethtool
# -L on virtio_net while XDP is on: EINVAL; CPU hotplug while a NIC is
# bound: EBUSY, pci_call_probe() disables CPU hotplug), or refused with
# any other error, which fails.
#
# What must hold:
# - no vector is ever admin that the administrator did not write: during
#   the run (the monitor's samples) no churned device has one, and a
#   persistent device only on an IRQ the administrator had begun to
#   write; at the end, each admin vector had a write of the
#   administrator's that ended after the last policy write to its device
#   began (a policy write hands every vector back);
# - at the end, the workers stopped, every CPU online, XDP off and the
#   links up: debugfs' admin states are those of netdev netlink's
#   napi-get irq-admin; every attached IRQ has one notifier, irq_spread's;
#   every device's placement is valid by the rules (irq_spread_lib's
#   check_placement() and rule_problems(): one vector per slot, floor
#   and ceiling per CPU, nearest hop first, a core each, eligible CPUs
#   only; a device with admin vectors after a policy write hands them
#   back); once the churned devices are gone, debugfs lists none of them;
# - no splat in the kernel log (the pipeline checks kmemleak's report),
#   nor a warning of net core's or the library's that an IRQ, a vector,
#   an XPS map or a NAPI kthread could not be placed or moved.

. "$(dirname "$0")/lib.sh"
irq_spread_python <<'PY'
import random
import threading
import traceback

import irq_spread_virtio as virtio
from irq_spread_lib import *
from irq_spread_virtio import *

SECONDS = float(os.environ.get("IRQ_SPREAD_STRESS_SECONDS", "60"))
# The longest pause of a worker between operations: enough for the
# others to run in between, short enough for hundreds of each.
PAUSE = 0.03
# The administrator's writes are the cheapest: slower, to leave the
# interpreter to the others.
ADMIN_PAUSE = 0.1
A_ID, B_ID, EV_ID = 7970, 7971, 7972
CHURN_IDS = list(range(7980, 7990))
CHURN_QUEUES = 4
CHURN_ROLES = ("dut", "peer", "shared")
KINDS = ("cpu hotplug", "policy (sysfs)", "policy (netlink)",
         "admin write", "ethtool -L", "link down/up", "XDP on/off",
         "netdevsim create/delete", "virtio-net bind/unbind",
         "debugfs read")
GONE = (errno.ENOENT, errno.ENODEV)
# The library's and net core's warnings of an IRQ, a vector, an XPS map
# or a NAPI kthread that could not be placed or moved.
NOT_PLACED = (r"irq_spread: |not placed|not moved|XPS map of TX queue|"
              r"IRQ placement for|not set back")
hp = Hotplug()
clock = time.monotonic
stop = threading.Event()


class Counts:
    """What the workers did, per kind: done, refused with an expected
    error (per errno and reason), refused otherwise (with what and why)."""

    def __init__(self):
        self.lock = threading.Lock()
        self.done = collections.Counter()
        self.spent = collections.Counter()
        self.expected = collections.defaultdict(collections.Counter)
        self.unexpected = collections.defaultdict(list)

    def attempt(self, kind, what, fn, why=lambda err: None):
        """Run fn(), an operation of @kind on @what, and count it; @why(err)
        is the reason an error is expected, or None.  Return the errno."""
        err, msg = 0, None
        t0 = clock()
        try:
            fn()
        except OSError as e:
            err = e.errno or errno.EIO
        except NlError as e:
            err = e.error
        except Exception as e:  # a step of a bind or create that failed
            err, msg = -1, "%s: %s" % (type(e).__name__, e)
        reason = why(err) if err > 0 else None
        with self.lock:
            self.spent[kind] += clock() - t0
            if not err:
                self.done[kind] += 1
            elif reason:
                self.expected[kind]["%s (%s)" % (errno.errorcode.get(
                    err, err), reason)] += 1
            else:
                self.unexpected[kind].append(
                    "%s: %s" % (what, msg or os.strerror(err)))
        return err


class NlError(Exception):
    """YNL's, once ynl_netdev() loaded it."""


COUNTS = Counts()


class Cpus:
    """CPU hotplug as the hotplug workers do it: each CPU's sequence
    count, odd while its state changes, and whether it is online."""

    def __init__(self, cpus):
        self.seq = {c: 0 for c in cpus}
        self.up = {c: True for c in cpus}

    def snap(self):
        return dict(self.seq), dict(self.up)

    def stayed_online(self, before, cpu):
        """Whether @cpu was online throughout, since snap() @before."""
        seq, up = before
        return (cpu not in seq or
                (seq[cpu] % 2 == 0 and seq[cpu] == self.seq[cpu] and
                 up[cpu]))


class Churned:
    """A churned device while it exists: its netdev's name, ifindex and
    policy file, and going, set before anything starts to remove it."""

    def __init__(self, kind, dev, ifname, sysfs, channels):
        self.kind = kind
        self.dev = dev
        self.ifname = ifname
        self.ifindex = int(read(sysfs + "/ifindex"))
        self.policy_file = sysfs + "/irq_spread/policy"
        self.channels = channels
        self.going = False

    def why_gone(self, err):
        return "removed meanwhile" if err in GONE and self.going else None


class Shared:
    """What the workers share: the devices, and what the administrator
    and the policy writers did to the persistent ones."""

    def __init__(self):
        self.lock = threading.Lock()
        self.churned = []
        self.admin_paths = set()
        self.written = set()          # IRQs an admin write began on
        self.admin_end = {}           # IRQ: end of its last good write
        self.admin_masks = collections.defaultdict(list)  # IRQ: (mask,
        #                               CPU sequence counts before)
        self.policy_start = {}        # device path: start of the last
        self.vec_irq = {}             # device path: {vector: IRQ}
        self.probe = 0                # odd while a PCI probe may run
        self.samples = 0
        self.admin_seen = set()
        self.sightings = []
        self.made = collections.Counter()

    def pick_churned(self):
        with self.lock:
            return random.choice(self.churned) if self.churned else None

    def add(self, c):
        with self.lock:
            self.churned.append(c)

    def remove(self, c):
        c.going = True
        with self.lock:
            self.churned.remove(c)

    def policy_written(self, path, start):
        with self.lock:
            self.policy_start[path] = max(start,
                                          self.policy_start.get(path, 0))


S = Shared()


class Persistent:
    """A persistent netdev: name, ifindex, policy file, debugfs path,
    largest channel count, IRQs the administrator may write."""

    def __init__(self, dev, max_channels, irqs, virtio_nic=False):
        self.dev = dev
        self.ifname = dev.ifname
        self.ifindex = int(read(dev.sysfs + "/ifindex"))
        self.policy_file = dev.policy_file
        self.path = dev.path
        self.channels = max_channels
        self.vec_irq = dict(enumerate(irqs))
        self.irqs = [i for i in irqs if i]
        self.virtio = virtio_nic
        self.xdp_seq = 0


def worker(name, body):
    """A thread running body() until stop, a crash counted against
    @name's kind."""
    kind = name.split(":")[0]

    def loop():
        try:
            while not stop.is_set():
                body()
        except Exception:
            with COUNTS.lock:
                COUNTS.unexpected[kind].append(
                    "worker %s crashed: %s" % (name, traceback.format_exc()))
    return threading.Thread(target=loop, name=name, daemon=True)


def pause(top=PAUSE):
    stop.wait(random.uniform(0, top))


# ---------------------------------------------------------------------------
# The workers


def hotplug_worker(cpus, state):
    def body():
        c = random.choice(cpus)
        for on in (False, True):
            state.seq[c] += 1
            probe = S.probe

            def why(err):
                # pci_call_probe() disables CPU hotplug while it runs.
                if err == errno.EBUSY and (probe % 2 or S.probe != probe):
                    return "a PCI probe meanwhile"
                return None
            err = COUNTS.attempt("cpu hotplug", "CPU %d %s" % (
                c, "online" if on else "offline"),
                lambda: hp.set(c, on), why)
            if not err:
                state.up[c] = on
            state.seq[c] += 1
            if err:
                break
            if not on:
                stop.wait(random.uniform(0, 0.2))
        pause()
    return body


def policy_sysfs_worker(persistent, ev):
    files = [(p.path, p.policy_file) for p in persistent] + \
        [(ev.path, ev.policy_file)]

    def body():
        p = random.choice(POLICIES)
        c = S.pick_churned() if random.random() < 0.3 else None
        if c:
            COUNTS.attempt("policy (sysfs)", c.policy_file,
                           lambda: write_ok(c.policy_file, p), c.why_gone)
        else:
            path, f = random.choice(files)
            start = clock()
            if not COUNTS.attempt("policy (sysfs)", f,
                                  lambda: write_ok(f, p)):
                S.policy_written(path, start)
        pause()
    return body


def policy_netlink_worker(persistent, family):
    def body():
        p = random.choice(POLICIES)
        c = S.pick_churned() if random.random() < 0.3 else None
        d = c or random.choice(persistent)
        req = {"ifindex": d.ifindex, "irq-policy": p}
        start = clock()
        err = COUNTS.attempt("policy (netlink)", "dev-set %s" % req,
                             lambda: family.do("dev-set", req),
                             c.why_gone if c else lambda err: None)
        if not err and not c:
            S.policy_written(d.path, start)
        pause()
    return body


def admin_worker(targets, cpus, all_cpus):
    def body():
        path, irq = random.choice(targets)
        up = [c for c in all_cpus if cpus.up.get(c, True)]
        mask = frozenset(random.sample(up, random.choice((1, 1, 2))))
        before = cpus.snap()
        with S.lock:
            S.written.add(irq)

        def why(err):
            if err in (errno.EINVAL, errno.ENOSPC) and not any(
                    cpus.stayed_online(before, c) for c in mask):
                return "its CPUs went offline"
            return None
        err = COUNTS.attempt("admin write", "IRQ %d to %s"
                             % (irq, fmt_cpulist(mask)),
                             lambda: set_irq_affinity(irq, mask), why)
        if not err:
            end = clock()
            with S.lock:
                S.admin_end[irq] = end
                S.admin_masks[irq].append((mask, before[0]))
        pause(ADMIN_PAUSE)
    return body


def channels_worker(persistent):
    def body():
        c = S.pick_churned() if random.random() < 0.3 else None
        d = c or random.choice(persistent)
        n = random.randint(1, d.channels)
        xdp = d.xdp_seq if not c else 0

        def why(err):
            if c:
                return c.why_gone(err)
            if (err == errno.EINVAL and d.virtio and
                    (xdp % 2 or d.xdp_seq != xdp)):
                return "XDP on virtio_net"
            return None
        COUNTS.attempt("ethtool -L", "%s combined %d" % (d.ifname, n),
                       lambda: ethtool_channels(d.ifname, n), why)
        pause()
    return body


def link_worker(persistent):
    def body():
        c = S.pick_churned() if random.random() < 0.3 else None
        d = c or random.choice(persistent)
        why = c.why_gone if c else lambda err: None
        for up in (False, True):
            COUNTS.attempt("link down/up", "%s %s" % (
                d.ifname, "up" if up else "down"),
                lambda: set_link(d.ifname, up), why)
            stop.wait(random.uniform(0, 0.1))
        pause(0.3)
    return body


def xdp_worker(targets, prog):
    def body():
        d = random.choice(targets)
        d.xdp_seq += 1
        for fd in (prog, -1):
            COUNTS.attempt("XDP on/off", "%s %s" % (
                d.ifname, "off" if fd < 0 else "on"),
                lambda: virtio.xdp_set(d.ifindex, fd))
            if fd >= 0:
                stop.wait(random.uniform(0, 0.3))
        d.xdp_seq += 1
        pause(0.3)
    return body


def nsim_churn_worker(topo):
    alive = []
    free = list(CHURN_IDS)

    def create():
        dev_id = free.pop(0)
        node = random.choice(topo.nodes)
        made = []

        def make():
            made.append(Nsim(dev_id, CHURN_QUEUES, node))
        if COUNTS.attempt("netdevsim create/delete", "new_device %d" % dev_id,
                          make):
            for d in Nsim.created:
                if d.id == dev_id and d.alive:
                    d.remove()
            free.append(dev_id)
            return
        dev = made[0]
        S.made["netdevsim"] += 1
        c = Churned("netdevsim", dev, dev.ifname, dev.sysfs, CHURN_QUEUES)
        S.add(c)
        alive.append(c)

    def delete():
        c = alive.pop(0)
        S.remove(c)
        COUNTS.attempt("netdevsim create/delete", "del_device %d" % c.dev.id,
                       c.dev.remove)
        free.append(c.dev.id)

    def body():
        if len(alive) < 2 or (len(alive) < 3 and random.random() < 0.5):
            create()
        else:
            delete()
        pause(0.3)
    return body


def virtio_churn_worker(roles, topo):
    bound = {}

    def body():
        role = random.choice(roles)
        c = bound.pop(role, None)
        if c:
            S.remove(c)
            COUNTS.attempt("virtio-net bind/unbind", "unbind %s" % role,
                           c.dev.unbind)
        else:
            node = random.choice(topo.nodes)
            made = []

            def bind():
                S.probe += 1
                try:
                    made.append(VirtioNic(role, node))
                finally:
                    S.probe += 1
                set_link(made[0].ifname, True)
            if COUNTS.attempt("virtio-net bind/unbind", "bind %s on node %d"
                              % (role, node), bind):
                # Unbound again, if bound, for the next try.
                for n in list(VirtioNic.bound):
                    if n.role == role:
                        n.unbind()
                return
            n = made[0]
            S.made["virtio-net"] += 1
            c = Churned("virtio", n, n.ifname, n.sysfs, n.queues)
            S.add(c)
            bound[role] = c
        pause(0.3)
    return body


def monitor_worker():
    def body():
        rows = []
        COUNTS.attempt("debugfs read", DEVICES,
                       lambda: rows.extend(devices_table()))
        with S.lock:
            S.samples += 1
            written = set(S.written)
            admin_paths = set(S.admin_paths)
        for r in rows:
            if r.state != "admin":
                continue
            S.admin_seen.add((r.device, r.vector))
            # A vector keeps the administrator's mask while detached.
            irq = S.vec_irq.get(r.device, {}).get(r.vector)
            if r.device not in admin_paths or irq not in written:
                S.sightings.append("%.1f s: %s vector %d (IRQ %s) admin, "
                                   "which no admin wrote"
                                   % (clock() - T0[0], r.device, r.vector,
                                      irq))
        pause(0.5)
    return body


T0 = [0.0]


# ---------------------------------------------------------------------------
# The checks at the end


def active_queues(sysfs):
    """A netdev's real number of RX queues, from sysfs: net core's
    indexes in use (the driver sets as many TX queues, or fewer)."""
    return len([d for d in os.listdir(sysfs + "/queues")
                if d.startswith("rx-")])


def hint(irq):
    return parse_hexmask(read("/proc/irq/%d/affinity_hint" % irq))


def firsts(masks):
    """The CPU each vector is counted on by the rules: the first of its
    mask, where an interrupt controller that takes the first ends it."""
    return [frozenset([min(m)]) if m else frozenset() for m in masks]


def rules(t, topo, node, policy, masks, what):
    for rule, problems in rule_problems(topo, node, policy, masks,
                                        firsts(masks)).items():
        t.result(not problems, "%s: rule: %s" % (what, rule),
                 "\n".join(problems))


def check_nic(t, topo, nic, what, moved=()):
    """A virtio-net NIC as the stress left it: debugfs rows against
    /proc/irq (RX K spread vector K, TX K post vector N + K, following
    pair K modulo those in use unless either is the administrator's;
    not the CPUs of the vectors in @moved, see admin_moved()), hints,
    XPS; the rules on the RX vectors in use if none of the NIC's vectors
    is admin.  Return the admin vectors."""
    n, active = nic.queues, active_queues(nic.sysfs)
    rows = nic.rows()
    admin = {v for v, r in rows.items() if r.state == "admin"}
    bad = []
    if sorted(rows) != list(range(2 * n)):
        bad.append("vectors %s, want 0-%d" % (sorted(rows), 2 * n - 1))
    for v, r in sorted(rows.items()):
        k = v % n
        irq = (nic.rx if v < n else nic.tx)[k]
        in_use = v >= n or k < active
        state = r.state if r.state == "admin" else \
            "active" if in_use else "inactive"
        if (r.irq, r.kind, r.state) != (irq, "spread" if v < n else "post",
                                        state):
            bad.append("vector %d: irq %s %s %s, want irq %s %s"
                       % (v, r.irq, r.kind, r.state, irq, state))
        if irq and in_use and v not in moved and r.cpus != irq_affinity(irq):
            bad.append("vector %d: CPUs %s, IRQ %d has %s"
                       % (v, r.cpus and fmt_cpulist(r.cpus), irq,
                          fmt_cpulist(irq_affinity(irq))))
        if irq and in_use and v not in admin and hint(irq) != r.cpus:
            bad.append("vector %d: IRQ %d hint %s, CPUs %s"
                       % (v, irq, fmt_cpulist(hint(irq)),
                          r.cpus and fmt_cpulist(r.cpus)))
        if irq and not in_use and hint(irq):
            bad.append("vector %d not in use: IRQ %d hint %s"
                       % (v, irq, fmt_cpulist(hint(irq))))
        if v >= n and v not in admin and k % active not in admin and \
                r.cpus != rows[k % active].cpus:
            bad.append("TX vector %d: CPUs %s, pair %d's %s"
                       % (v, r.cpus and fmt_cpulist(r.cpus), k % active,
                          fmt_cpulist(rows[k % active].cpus)))
    t.result(not bad, "%s: debugfs rows, /proc/irq and hints agree" % what,
             "\n".join(bad))
    if nic.mode == "msix" and not moved:
        check_xps(t, nic, active, what)
    if not admin:
        rules(t, topo, nic.node, active_policy(nic.policy_file),
              [rows[k].cpus for k in range(active)], what)
    return admin


def check_events(t, topo, ev, what, moved=()):
    """The event device's two IRQs: debugfs against /proc/irq (but for
    @moved), hints; the rules if neither is admin.  Return the admin
    vectors."""
    rows, irqs = ev.rows(), ev.irqs()
    admin = {v for v, r in rows.items() if r.state == "admin"}
    bad = []
    for v, irq in enumerate(irqs):
        r = rows.get(v)
        if not r or r.irq != irq or (v not in moved and
                                     r.cpus != irq_affinity(irq)):
            bad.append("event %d: debugfs %s, IRQ %d on %s"
                       % (v, r, irq, fmt_cpulist(irq_affinity(irq))))
        elif v not in admin and hint(irq) != r.cpus:
            bad.append("event %d: hint %s, CPUs %s"
                       % (v, fmt_cpulist(hint(irq)), fmt_cpulist(r.cpus)))
    t.result(not bad, "%s: debugfs rows, /proc/irq and hints agree" % what,
             "\n".join(bad))
    if not admin:
        rules(t, topo, ev.node, active_policy(ev.policy_file),
              ev.affinities(), what)
    return admin


def check_nsim(t, topo, dev, what, moved=()):
    """A netdevsim port: irq_spread_lib's check_placement() with the
    admin vectors debugfs shows, unless some are in @moved (it checks
    that their CPUs are their IRQs'), and its rules if there are no
    admin vectors.  Return the admin vectors."""
    active = active_queues(dev.sysfs)
    admin = {v for v, r in dev.rows().items() if r.state == "admin"}
    if moved:
        t.diag("%s: admin vectors %s moved by the interrupt core: checked "
               "once handed back" % (what, sorted(moved)))
    else:
        check_placement(t, dev, None, what, admin=admin, active=active)
    if not admin:
        check_rules(t, topo, dev, dev.policy(), what, active=active)
    return admin


def check_device(t, topo, d, what, moved=()):
    if isinstance(d, NsimEvents):
        return check_events(t, topo, d, what, moved)
    if isinstance(d, VirtioNic):
        return check_nic(t, topo, d, what, moved)
    return check_nsim(t, topo, d, what, moved)


def admin_moved(t, rows, cpus):
    """Each admin vector's debugfs CPUs are its IRQ's, unless they are a
    mask the administrator wrote every CPU of which went offline since:
    the interrupt core then broke the IRQ's affinity, to every online
    CPU, and told nobody (Documentation/admin-guide/irq_spread.rst: "if
    their CPUs all go offline, the interrupt core moves them, as for any
    interrupt").  Return {device path: {vector}} of those."""
    moved = collections.defaultdict(set)
    bad = []
    n = 0
    for r in rows:
        if r.state != "admin" or r.irq is None:
            continue
        n += 1
        aff = irq_affinity(r.irq)
        if aff == r.cpus:
            continue
        if any(m == r.cpus and all(c in seq and cpus.seq[c] != seq[c]
                                   for c in m)
               for m, seq in S.admin_masks.get(r.irq, ())):
            moved[r.device].add(r.vector)
        else:
            bad.append("%s vector %d IRQ %d: admin on %s, the IRQ on %s"
                       % (r.device, r.vector, r.irq,
                          fmt_cpulist(r.cpus or ()), fmt_cpulist(aff)))
    t.result(not bad, "at the end: each of the %d admin vectors has its "
             "IRQ's CPUs in debugfs, or (%d) a mask written whose CPUs all "
             "went offline since" % (n, sum(map(len, moved.values()))),
             "\n".join(bad))
    return moved


def admin_problems(rows):
    """Admin vectors no admin wrote, or handed back since: each must be on
    a persistent device, on an IRQ an admin write succeeded on, the last
    such write ending after the last policy write to the device began."""
    bad = []
    for r in rows:
        if r.state != "admin":
            continue
        irq = S.vec_irq.get(r.device, {}).get(r.vector)
        end = S.admin_end.get(irq)
        start = S.policy_start.get(r.device)
        if r.device not in S.admin_paths:
            bad.append("%s vector %d: admin on a device no admin writes to"
                       % (r.device, r.vector))
        elif end is None:
            bad.append("%s vector %d IRQ %s: admin, no admin write to it "
                       "succeeded" % (r.device, r.vector, irq))
        elif start is not None and end < start:
            bad.append("%s vector %d IRQ %d: admin, its last admin write "
                       "ended at %.3f s, a policy write began at %.3f s"
                       % (r.device, r.vector, irq, end - T0[0],
                          start - T0[0]))
    return bad


def check_napi_admin(t, family, persistent, rows):
    """napi-get irq-admin of each NAPI of the persistent netdevs is the
    debugfs state of its IRQ's vector."""
    by_irq = {r.irq: r.state == "admin" for r in rows if r.irq}
    bad = []
    for p in persistent:
        for napi in family.dump("napi-get", {"ifindex": p.ifindex}):
            irq = napi.get("irq")
            if irq is None:
                continue
            got = bool(napi.get("irq-admin", False))
            if by_irq.get(irq) != got:
                bad.append("%s NAPI %d IRQ %d: irq-admin %s, debugfs %s"
                           % (p.ifname, napi["id"], irq, got,
                              by_irq.get(irq)))
    t.result(not bad, "napi-get irq-admin of every NAPI is its vector's "
             "debugfs state", "\n".join(bad))


def check_notifiers(t, rows):
    """Every attached vector's IRQ once in debugfs notifiers, with
    irq_spread's notifier."""
    lines = read(DEBUGFS + "/notifiers").split("\n")[1:]
    seen = collections.Counter()
    bad = []
    for line in lines:
        irq, path, vector, owner = line.split(" ")
        seen[int(irq)] += 1
        if owner != "irq_spread":
            bad.append("IRQ %s (%s vector %s): notifier %s"
                       % (irq, path, vector, owner))
    bad += ["IRQ %d listed %d times" % (i, n) for i, n in seen.items()
            if n > 1]
    bad += ["IRQ %d of %s vector %d: not in notifiers" % (r.irq, r.device,
                                                          r.vector)
            for r in rows if r.irq and r.irq not in seen]
    t.result(not bad, "every attached IRQ has one notifier, irq_spread's "
             "(%d IRQs)" % len(seen), "\n".join(bad))


def report(t, kinds_skipped, elapsed):
    t.diag("%.1f s of stress; per kind: done, refused as expected, "
           "unexpected errors, mean time of one" % elapsed)
    for kind in KINDS:
        exp = COUNTS.expected[kind]
        n = COUNTS.done[kind] + sum(exp.values()) + \
            len(COUNTS.unexpected[kind])
        t.diag("  %-24s %5d done, %4d expected%s, %d unexpected, %.0f ms"
               % (kind, COUNTS.done[kind], sum(exp.values()),
                  " (%s)" % ", ".join("%s %d" % kv for kv in
                                     sorted(exp.items())) if exp else "",
                  len(COUNTS.unexpected[kind]),
                  1000 * COUNTS.spent[kind] / max(n, 1)))
    for kind in KINDS:
        if kind in kinds_skipped:
            t.result(True, "%s # SKIP %s" % (kind, kinds_skipped[kind]))
            continue
        bad = COUNTS.unexpected[kind]
        t.result(COUNTS.done[kind] > 0 and not bad,
                 "%s: %d done, 0 unexpected errors" % (kind,
                                                      COUNTS.done[kind]),
                 "\n".join(bad[:20]) + (
                     "\n... %d more" % (len(bad) - 20) if len(bad) > 20
                     else ""))


# ---------------------------------------------------------------------------


def test(t):
    global NlError
    topo, _ = machine(t)
    log = Kmsg()
    nodes = topo.nodes
    family, NlError = ynl_netdev()
    final_family, _ = ynl_netdev()
    set_default_policy("numa")
    before = {r.device for r in devices_table()}
    skipped = {}

    a = Nsim(A_ID, 8, nodes[0])
    b = Nsim(B_ID, 4, nodes[1 % len(nodes)])
    ev = NsimEvents(EV_ID, 2, nodes[-1])
    persistent = [Persistent(a, 8, a.irqs), Persistent(b, 4, b.irqs)]
    x = None
    try:
        x = nic("xdp", nodes[2 % len(nodes)])
        persistent.append(Persistent(x, x.queues, x.rx + x.tx, True))
    except Skip as e:
        t.diag("no virtio-net NIC for XDP, ethtool -L, links and admin "
               "writes: %s" % e)
    roles = [r for r in CHURN_ROLES
             if virtio.virtio_net_function(NICS[r][0])]
    if not roles:
        skipped["virtio-net bind/unbind"] = "no virtio-net NIC to bind"
    targets = [(p.path, irq) for p in persistent for irq in p.irqs]
    targets += [(ev.path, irq) for irq in ev.irqs()]
    S.admin_paths = {p.path for p in persistent} | {ev.path}
    S.vec_irq = {p.path: p.vec_irq for p in persistent}
    S.vec_irq[ev.path] = dict(enumerate(ev.irqs()))

    cpus = sorted(c for c in topo.eligible() if c and pluggable(c))
    if len(cpus) < 2:
        raise Skip("fewer than two hot-pluggable CPUs but CPU 0")
    state = Cpus(cpus)
    half = len(cpus) // 2
    prog = virtio.xdp_pass_prog()
    xdp_targets = [persistent[0]] + ([persistent[2]] if x else [])
    nsim_churn = nsim_churn_worker(topo)
    virtio_churn = virtio_churn_worker(roles, topo) if roles else None
    t.diag("persistent: %s; event IRQs %s; CPUs %s hot-plugged"
           % ("; ".join("%s (%s) %d IRQs" % (p.ifname, p.path, len(p.irqs))
                        for p in persistent),
              " ".join(map(str, ev.irqs())), fmt_cpulist(cpus)))

    threads = [
        worker("cpu hotplug:low", hotplug_worker(cpus[:half], state)),
        worker("cpu hotplug:high", hotplug_worker(cpus[half:], state)),
        worker("policy (sysfs)", policy_sysfs_worker(persistent, ev)),
        worker("policy (netlink)", policy_netlink_worker(persistent,
                                                         family)),
        worker("admin write", admin_worker(targets, state,
                                           sorted(topo.online()))),
        worker("ethtool -L", channels_worker(persistent)),
        worker("link down/up", link_worker(persistent)),
        worker("XDP on/off", xdp_worker(xdp_targets, prog)),
        worker("netdevsim create/delete", nsim_churn),
        worker("debugfs read", monitor_worker()),
    ]
    if virtio_churn:
        threads.append(worker("virtio-net bind/unbind", virtio_churn))
    T0[0] = clock()
    try:
        for th in threads:
            th.start()
        stop.wait(SECONDS)
    finally:
        stop.set()
        for th in threads:
            if th.ident:
                th.join(120)
    elapsed = clock() - T0[0]
    hung = [th.name for th in threads if th.is_alive()]
    t.eq(hung, [], "every worker stopped")
    if hung:
        return

    # Settle: every CPU online, XDP off, links up; the notifier's and the
    # driver's work items of the last writes run.
    hp.restore()
    for p in xdp_targets:
        if virtio.xdp_attached(p.ifindex):
            virtio.xdp_set(p.ifindex, -1)
    os.close(prog)
    for d in persistent + list(S.churned):
        set_link(d.ifname, True)
    # Until debugfs reads the same twice, half a second apart.
    last = [None]

    def settled():
        time.sleep(0.5)
        now, last[0] = last[0], devices_table()
        return now == last[0]
    t.result(wait_for(settled, 20), "settled: debugfs reads the same twice "
             "in a row")
    report(t, skipped, elapsed)
    t.result(elapsed >= SECONDS, "the workers raced for %.1f s (%d s asked)"
             % (elapsed, SECONDS))

    t.result(not S.sightings, "during the run: no vector admin that no "
             "admin wrote, in %d samples of debugfs (%d vectors seen admin)"
             % (S.samples, len(S.admin_seen)),
             "\n".join(S.sightings[:20]))
    rows = devices_table()
    admin = admin_problems(rows)
    t.eq(admin, [], "at the end: %d vectors admin, each written by the "
         "admin after the last policy write to its device began"
         % len([r for r in rows if r.state == "admin"]))
    check_napi_admin(t, final_family, persistent, rows)
    check_notifiers(t, rows)

    devices = [(p.dev, "%s (persistent)" % p.ifname) for p in persistent]
    devices.append((ev, "event IRQs of netdevsim%d (persistent)" % ev.id))
    for c in list(S.churned):
        devices.append((c.dev, "%s (churned %s)" % (c.ifname, c.kind)))
    moved = admin_moved(t, rows, state)
    handed = []
    for d, what in devices:
        if check_device(t, topo, d, what, moved.get(d.path, ())):
            handed.append((d, what))
    # Devices with admin vectors: the policy hands them back, then the
    # rules apply.
    for d, what in handed:
        policy = active_policy(d.policy_file)
        what += ", %s written" % policy
        t.eq(write(d.policy_file, policy), 0, "%s: accepted" % what)
        t.eq(check_device(t, topo, d, what), set(),
             "%s: no admin vector" % what)

    # The churned devices go: debugfs lists only the devices there were
    # before the test and the persistent ones.
    for c in list(S.churned):
        S.remove(c)
        if c.kind == "virtio":
            c.dev.unbind()
        else:
            c.dev.remove()
    left = {r.device for r in devices_table()} - before - S.admin_paths
    t.eq(sorted(left), [], "the churned devices removed (%d netdevsim "
         "ports made, virtio-net NICs bound %d times): debugfs lists none "
         "of them" % (S.made["netdevsim"], S.made["virtio-net"]))
    check_notifiers(t, devices_table())
    lines = log.lines()
    log.close()
    t.eq([m for m in lines if any(s in m for s in virtio.SPLATS)], [],
         "no splat in the kernel log")
    t.eq([m for m in lines if re.search(NOT_PLACED, m)], [],
         "no placement failure in the kernel log (%s)" % NOT_PLACED)


run_virtio("irq_spread stress", test, hp.restore)
PY
