#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# irqbalance (Debian 12's 1.9.2, as pipeline/install-deps.sh installs it)
# beside the library, on netdevsim: a port whose queue IRQs net core places
# (NAPIs), a device's event IRQs on the device layer, a device in pool mode
# whose port takes its IRQs from an irq_spread pool, and a port left down,
# whose IRQs nobody places.  /sys/class/irq_spread/irqs lists the first
# three's IRQs, as debugfs does, and not the fourth's.
#
# Without a policy script, irqbalance takes the library's IRQs as any
# other's, moves them (smp_affinity_list, effective_affinity_list), and
# every vector of a registered device it moved is marked admin, in
# --oneshot and in its normal mode; napi-set (the port's queues) and a new
# policy (the event IRQs) hand them back.  With
# tools/irq_spread/irqbalance/irqbalance-policy.sh as --policyscript, which
# answers ban=true for the listed IRQs only, irqbalance bans each of them
# (its --debug says so), moves none, none is marked admin or becomes the
# user's in /proc/irq/N/affinity_placement, and it still balances the
# down port's IRQs, in --oneshot and for $IRQ_SPREAD_IRQBALANCE_SECONDS
# (default 60) of its normal mode, during which a port created and brought
# up has its new IRQs banned too.  Without the script, each library IRQ
# it moves is the user's there.  Each run's moves are reported in diag lines.  The
# guest's own IRQs irqbalance moved are put back at the end.

. "$(dirname "$0")/lib.sh"
irq_spread_python <<'PY'
import fcntl
import shutil
import signal
import subprocess
import tempfile

import irq_spread_lib
from irq_spread_lib import *

IRQS = "/sys/class/irq_spread/irqs"
SCRIPT = os.path.normpath(os.path.join(
    os.path.dirname(os.path.abspath(irq_spread_lib.__file__)),
    "../../../irq_spread/irqbalance/irqbalance-policy.sh"))
NET, EVENTS, POOL, DOWN, LATE = 7900, 7901, 7902, 7903, 7904
EVENT_IRQS = 2
POOL_VECTORS = 2
# irqbalance measures for one interval before it places anything; its
# normal mode runs until this many seconds after its first placement.
INTERVAL = 1
DAEMON_SECS = 4
# With the policy script, the normal mode runs this long: a daemon's life,
# not a few of its intervals.
SCRIPT_SECS = int(os.environ.get("IRQ_SPREAD_IRQBALANCE_SECONDS", "60"))


def listed():
    """/sys/class/irq_spread/irqs, checking its format: one line of
    numbers and ranges in increasing order; None without the file."""
    if not os.path.exists(IRQS):
        return None
    s = read(IRQS)
    if s and not re.fullmatch(r"\d+(-\d+)?(,\d+(-\d+)?)*", s):
        raise ValueError("%s: %r" % (IRQS, s))
    irqs = sorted(parse_cpulist(s))
    if fmt_cpulist(irqs) != s:
        raise ValueError("%s: %r is not in increasing order" % (IRQS, s))
    return frozenset(irqs)


def debugfs_irqs():
    """The IRQs of every device vector and pool vector in debugfs."""
    irqs = {r.irq for r in devices_table() if r.irq is not None}
    for p in glob.glob(DEBUGFS + "/pools/*"):
        for line in read(p).splitlines()[2:]:
            irqs.add(int(line.split("\t")[1]))
    return frozenset(irqs)


def all_irqs():
    out = []
    with open("/proc/interrupts") as f:
        for line in f:
            m = re.match(r"^\s*(\d+):", line)
            if m:
                out.append(int(m.group(1)))
    return out


def snapshot():
    """{irq: (smp_affinity_list, effective_affinity_list)} of every IRQ."""
    snap = {}
    for irq in all_irqs():
        try:
            snap[irq] = (read("/proc/irq/%d/smp_affinity_list" % irq),
                         read("/proc/irq/%d/effective_affinity_list" % irq))
        except OSError:
            continue
    return snap


def moved(before, after, irqs):
    return sorted(i for i in irqs if i in before and
                  before[i] != after.get(i))


def irq_names():
    """{irq: its actions' names} from /proc/interrupts."""
    out = {}
    with open("/proc/interrupts") as f:
        for line in f:
            m = re.match(r"^\s*(\d+):.*\s(\S+)$", line.rstrip())
            if m:
                out[int(m.group(1))] = m.group(2)
    return out


class Setup:
    """The four devices and their IRQs."""

    def __init__(self, topo):
        node = topo.nodes[0]
        set_default_policy("numa")
        self.net = Nsim(NET, 4, node)
        self.down = Nsim(DOWN, 2, node, up=False)

        self.events = NsimEvents(EVENTS, EVENT_IRQS, node)
        self.events_path = self.events.path
        self.events_policy = self.events.policy_file
        self.event_irqs = self.events.irqs()

        write_ok(NSIM_BUS + "/new_device", "%d 0 2 %d" % (POOL, node))
        write_ok("%s/netdevsim%d/irq_pool" % (NSIM_DEBUGFS, POOL),
                 "%d" % POOL_VECTORS)
        write_ok(NSIM_BUS + "/devices/netdevsim%d/new_port" % POOL, "0")
        self.pool_irqs = sorted(nsim_irq_actions(POOL))

        # Registered devices' vectors: (debugfs path, vector) by IRQ.
        self.vectors = {irq: (self.net.path, q)
                        for q, irq in enumerate(self.net.irqs)}
        self.vectors.update({irq: (self.events_path, i)
                             for i, irq in enumerate(self.event_irqs)})
        self.library = frozenset(self.vectors) | frozenset(self.pool_irqs)
        self.others = frozenset(self.down.irqs)

    def admin(self):
        """The registered devices' IRQs whose vector is marked admin."""
        rows = {(r.device, r.vector): r.state for r in devices_table()}
        return sorted(irq for irq, key in self.vectors.items()
                      if rows.get(key) == "admin")

    def placed(self):
        return {irq: irq_affinity(irq) for irq in self.library}

    def pool_cpus(self):
        """{irq: CPUs} of the pool's requested vectors, in debugfs."""
        out = {}
        for line in read(DEBUGFS + "/pools/netdevsim%d"
                         % POOL).splitlines()[2:]:
            v, irq, users, cpus = line.split("\t")
            out[int(irq)] = parse_cpulist(cpus)
        return out

    def hand_back(self):
        """Hand each registered device's vectors back to its policy: the
        netdev's queues with napi-set, the event IRQs by writing another
        policy and numa again; put the pool's IRQs back on the CPUs it gave
        them (a pool takes no write for the administrator's)."""
        for q in range(self.net.queues):
            if self.net.source(q) == "user" and self.net.to_policy(q):
                raise OSError("napi-set of queue %d refused" % q)
        write_ok(self.events_policy, "core")
        write_ok(self.events_policy, "numa")
        for irq, cpus in self.pool_cpus().items():
            set_irq_affinity(irq, cpus)

    def reset_others(self, topo, initial):
        """Every IRQ not the library's back to its CPUs before the test,
        the down port's on every CPU, for irqbalance to move anew."""
        for irq, (now, _) in snapshot().items():
            aff = initial.get(irq, (fmt_cpulist(topo.online()),))[0]
            if irq not in self.library and now != aff:
                write("/proc/irq/%d/smp_affinity_list" % irq, aff)

    def remove(self):
        write(NSIM_BUS + "/del_device", "%d" % POOL)
        self.events.remove()


def irqbalance(oneshot, script, during=None):
    """Run irqbalance in the foreground with --debug, once (--oneshot) or
    in its normal mode for DAEMON_SECS seconds (SCRIPT_SECS with @script)
    after its first placement, calling @during(output so far) then if
    given; return its output."""
    argv = [shutil.which("irqbalance"), "--debug", "--interval=%d" % INTERVAL]
    if oneshot:
        argv.append("--oneshot")
    if script:
        argv.append("--policyscript=" + script)
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("IRQBALANCE_")}
    os.makedirs("/run/irqbalance", exist_ok=True)
    with tempfile.TemporaryFile(mode="w+") as out:
        # irqbalance writes through the same open file that log() seeks
        # back to read: without O_APPEND, a write between the seek and the
        # read lands at the start, over the first placement's lines.
        fcntl.fcntl(out, fcntl.F_SETFL,
                    fcntl.fcntl(out, fcntl.F_GETFL) | os.O_APPEND)
        p = subprocess.Popen(argv, stdout=out, stderr=subprocess.STDOUT,
                             env=env, universal_newlines=True)
        try:
            if oneshot:
                p.wait(timeout=120)
            else:
                # --debug prints its tree, a line of dashes first, after
                # each placement.
                def log():
                    out.seek(0)
                    return out.read()
                wait_for(lambda: "\n-----" in log(), 120)
                if during:
                    during(log)
                time.sleep(SCRIPT_SECS if script else DAEMON_SECS)
                p.send_signal(signal.SIGTERM)
                p.wait(timeout=30)
        finally:
            if p.poll() is None:
                p.kill()
                p.wait()
        out.seek(0)
        return out.read()


def logged(log, what):
    """The IRQs of --debug's lines "IRQ N was BANNED." (@what "banned") or
    "Adding IRQ N to database" ("added")."""
    pat = {"banned": r"IRQ (\d+) was BANNED\.",
           "added": r"Adding IRQ (\d+) to database"}[what]
    return frozenset(int(m) for m in re.findall(pat, log))


def cycles(log):
    """How many placements --debug shows: a tree after each."""
    return len(re.findall(r"^-{20,}$", log, re.M))


def test(t):
    topo, _ = machine(t)
    if not shutil.which("irqbalance"):
        raise Skip("no irqbalance (pipeline/install-deps.sh installs it)")
    if foreign_devices():
        raise Skip("irq_spread devices not the test's: %s" % foreign_devices())
    before = snapshot()
    s = Setup(topo)
    try:
        steps(t, topo, s, before)
    finally:
        s.remove()
        # The guest's own IRQs irqbalance moved go back.
        now = snapshot()
        for irq, (aff, _) in before.items():
            if irq in now and now[irq][0] != aff:
                write("/proc/irq/%d/smp_affinity_list" % irq, aff)


def steps(t, topo, s, initial):
    lib = listed()
    t.result(lib is not None, "%s exists" % IRQS)
    t.eq(lib, s.library,
         "%s: the port's, the events' and the pool's IRQs" % IRQS)
    t.eq(lib, debugfs_irqs(), "%s: as debugfs has them" % IRQS)
    t.result(lib is not None and not lib & s.others,
             "%s: not the down port's" % IRQS)

    t.result(os.access(SCRIPT, os.X_OK), "policy script %s" % SCRIPT)
    probe = [min(s.library), max(s.library), min(s.others)]
    got = [subprocess.run([SCRIPT, "/sys", str(irq)], stdout=subprocess.PIPE,
                          universal_newlines=True).stdout for irq in probe]
    t.eq(got, ["ban=true\n", "ban=true\n", ""],
         "policy script: ban=true for IRQs %d, %d, nothing for %d"
         % tuple(probe))

    # Where the policies put the vectors, with every device's load.
    s.hand_back()
    placed = s.placed()
    for script in (None, SCRIPT):
        for oneshot in (True, False):
            run_once(t, topo, s, script, oneshot, placed, initial)


def run_once(t, topo, s, script, oneshot, placed, initial):
    what = "%s, %s" % ("with script" if script else "without script",
                       "--oneshot" if oneshot else "normal mode")
    s.reset_others(topo, initial)
    ref = snapshot()
    states = {i: irq_placement(i) for i in s.library}
    late = []

    def new_port(log):
        """A port created and brought up while irqbalance runs: wait for
        irqbalance to see its IRQs."""
        late.append(Nsim(LATE, 2, topo.nodes[-1]))
        wait_for(lambda: logged(log(), "banned") | logged(log(), "added") >=
                 frozenset(late[0].irqs), 30)

    log = irqbalance(oneshot, script,
                     new_port if script and not oneshot else None)
    after = snapshot()
    lib = moved(ref, after, s.library)
    others = moved(ref, after, s.others)
    if not script:
        t.result(s.library <= logged(log, "added"),
                 "%s: irqbalance takes every library IRQ" % what,
                 "added %s" % fmt_cpulist(logged(log, "added")))
        t.result(lib, "%s: irqbalance moves library IRQs" % what)
        t.result(wait_for(lambda: s.admin() == moved(ref, after, s.vectors),
                          5),
                 "%s: each device vector it moved is marked admin, and no "
                 "other" % what,
                 "moved %s, admin %s" % (moved(ref, after, s.vectors),
                                         s.admin()))
        t.eq(sorted(i for i in s.vectors if irq_placement(i) == "user"),
             moved(ref, after, s.vectors), "%s: each device vector it moved "
             "is the user's in affinity_placement, and no other" % what)
    else:
        t.eq((s.library & logged(log, "added"),
              s.library - logged(log, "banned")), (frozenset(), frozenset()),
             "%s: irqbalance bans every library IRQ, takes none" % what)
        t.eq(lib, [], "%s: no library IRQ moved" % what)
        # No write, no notification to wait for: a write would show as
        # "user" in affinity_placement at once (below), and the library
        # marks a vector admin only from a notification of such a write.
        t.eq(s.admin(), [], "%s: none marked admin" % what)
        t.eq(({i: irq_placement(i) for i in s.library},
              sorted(states[i] for i in s.vectors)),
             (states, ["placed"] * len(s.vectors)),
             "%s: affinity_placement of the library's IRQs as before: "
             "every device vector placed, none turned the user's" % what)
    t.result(others, "%s: the down port's IRQs balanced" % what)
    rest = [i for i in after if i not in s.library]
    names = irq_names()
    t.diag("%s: %d placements; moved %d of %d library IRQs (%s), %d "
           "marked admin; %d of %d other IRQs: %s"
           % (what, cycles(log), len(lib), len(s.library),
              fmt_cpulist(lib) or "none", len(s.admin()),
              len(moved(ref, after, rest)), len(rest),
              ", ".join("%d %s %s->%s" % (i, names.get(i, "?"), ref[i][0],
                                          after[i][0])
                        for i in moved(ref, after, rest))))
    if not script:
        s.hand_back()
        t.eq((s.admin(), s.placed()), ([], placed),
             "%s: napi-set and a new policy hand them back" % what)
    else:
        t.eq(s.placed(), placed, "%s: the library's placement kept" % what)
    for dev in late:
        new = frozenset(dev.irqs)
        t.eq((new - logged(log, "banned"), new & logged(log, "added")),
             (frozenset(), frozenset()),
             "%s: a port brought up meanwhile: its IRQs banned" % what)
        rows = [r for r in dev.rows().values() if r.irq is not None]
        t.eq([(r.state, irq_affinity(r.irq)) for r in rows],
             [("active", r.cpus) for r in rows],
             "%s: a port brought up meanwhile: where the library put it"
             % what)
        dev.remove()


run("irq_spread and irqbalance", test)
PY
