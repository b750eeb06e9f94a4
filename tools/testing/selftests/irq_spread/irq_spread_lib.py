# SPDX-License-Identifier: GPL-2.0
"""Shared helpers of the irq_spread selftests.

The tests place netdevsim devices with the irq_spread library and compare the
CPUs of each queue's IRQ (/proc/irq/N/smp_affinity_list) with what the rules
of Documentation/core-api/irq_spread.rst give on the running machine's
topology.  The expected placement is computed here, from sysfs alone (nodes,
their CPUs and distances, thread siblings, online CPUs) and the kernel command
line (isolcpus=managed_irq, nohz_full), never from the library's output.

Each test runs in one python3 process: under TCG every fork costs about
0.15 s.  Tests print KTAP lines and exit with the kselftest codes.
"""

import errno
import glob
import os
import re
import struct
import sys
import time

KSFT_PASS = 0
KSFT_FAIL = 1
KSFT_SKIP = 4

POLICIES = ("numa", "numa-core", "core")
NSIM_BUS = "/sys/bus/netdevsim"
PARAM = "/sys/module/irq_spread/parameters/policy"
NSIM_DEBUGFS = "/sys/kernel/debug/netdevsim"
SYS_NODE = "/sys/devices/system/node"
SYS_CPU = "/sys/devices/system/cpu"


class Skip(Exception):
    """The test cannot run here (missing kernel feature or privilege)."""


# ---------------------------------------------------------------------------
# KTAP output and exit codes

class Ktap:
    """Numbered "ok"/"not ok" lines; exit code 1 if any failed, 4 if skipped."""

    def __init__(self, name):
        self.name = name
        self.n = 0
        self.failed = 0
        self.t0 = time.monotonic()
        print("TAP version 13", flush=True)
        print("# %s" % name, flush=True)

    def diag(self, msg):
        for line in str(msg).splitlines():
            print("# " + line, flush=True)

    def result(self, good, what, detail=None):
        self.n += 1
        if not good:
            self.failed += 1
            if detail:
                self.diag(detail)
        print("%s %d %s" % ("ok" if good else "not ok", self.n, what), flush=True)
        return good

    def eq(self, got, want, what):
        return self.result(got == want, what,
                           "expected: %s\n     got: %s" % (want, got))

    def finish(self):
        print("1..%d" % self.n, flush=True)
        if self.n == 0:
            print("# no check ran", flush=True)
            sys.exit(KSFT_FAIL)
        print("# %s: %d passed, %d failed in %.1f s"
              % (self.name, self.n - self.failed, self.failed,
                 time.monotonic() - self.t0), flush=True)
        sys.exit(KSFT_FAIL if self.failed else KSFT_PASS)


def run(name, test, cleanup=None):
    """Run test(ktap), then cleanup() if given, remove the netdevsim devices
    the test made and restore the default policy; exit with the kselftest
    code."""
    t = Ktap(name)
    try:
        try:
            if os.geteuid() != 0:
                raise Skip("must run as root")
            test(t)
        finally:
            if cleanup:
                cleanup()
            for dev in reversed(Nsim.created):
                dev.remove()
            if os.path.exists(PARAM):
                write(PARAM, "numa")
    except Skip as e:
        print("1..0 # SKIP %s" % e, flush=True)
        sys.exit(KSFT_SKIP)
    except Exception as e:  # a broken step is a failure, with its cause
        import traceback
        t.diag(traceback.format_exc())
        t.result(False, "%s: %s: %s" % (name, type(e).__name__, e))
    t.finish()


# ---------------------------------------------------------------------------
# Files and CPU lists

def read(path):
    with open(path) as f:
        return f.read().strip()


def write(path, value):
    """Write @value in one write(); return 0 or the errno it failed with."""
    try:
        fd = os.open(path, os.O_WRONLY)
    except OSError as e:
        return e.errno
    try:
        os.write(fd, value.encode() if isinstance(value, str) else value)
        return 0
    except OSError as e:
        return e.errno
    finally:
        os.close(fd)


def write_ok(path, value):
    err = write(path, value)
    if err:
        raise OSError(err, "writing %r to %s: %s" % (value, path,
                                                     os.strerror(err)))


def parse_cpulist(s):
    cpus = set()
    s = s.strip()
    if not s or s == "(null)":
        return frozenset()
    for part in s.split(","):
        if "-" in part:
            a, b = part.split("-")
            cpus.update(range(int(a), int(b) + 1))
        else:
            cpus.add(int(part))
    return frozenset(cpus)


def fmt_cpulist(cpus):
    """The kernel's %*pbl format: "0-1,4"."""
    out = []
    cpus = sorted(cpus)
    i = 0
    while i < len(cpus):
        j = i
        while j + 1 < len(cpus) and cpus[j + 1] == cpus[j] + 1:
            j += 1
        out.append(str(cpus[i]) if i == j else "%d-%d" % (cpus[i], cpus[j]))
        i = j + 1
    return ",".join(out)


def parse_hexmask(s):
    """A /proc/irq/N/smp_affinity style mask ("0000,00000003") as CPUs."""
    v = int(s.replace(",", ""), 16)
    return frozenset(i for i in range(v.bit_length()) if v >> i & 1)


# ---------------------------------------------------------------------------
# The machine, from sysfs and the command line

def cmdline_isolated_managed_irq(cmdline):
    """CPUs of isolcpus=...managed_irq...,<cpus> (not housekeeping)."""
    cpus = frozenset()
    for arg in cmdline.split():
        if not arg.startswith("isolcpus="):
            continue
        parts = arg[len("isolcpus="):].split(",")
        flags = []
        while parts and re.fullmatch(r"[a-z_]+", parts[0]):
            flags.append(parts.pop(0))
        # Without flags isolcpus= means "domain" only.
        if "managed_irq" in flags:
            cpus |= parse_cpulist(",".join(parts))
    return cpus


class Topology:
    """What the irq_spread rules need of the running machine."""

    def __init__(self):
        self.node_cpus = {}
        self.distance = {}
        for d in sorted(glob.glob(SYS_NODE + "/node[0-9]*")):
            n = int(d[len(SYS_NODE) + 5:])
            self.node_cpus[n] = parse_cpulist(read(d + "/cpulist"))
            self.distance[n] = [int(x) for x in read(d + "/distance").split()]
        self.nodes = sorted(self.node_cpus)
        self.cpu_node = {c: n for n, cs in self.node_cpus.items() for c in cs}
        self.present = parse_cpulist(read(SYS_CPU + "/present"))
        self.siblings = {}
        for c in self.present:
            p = "%s/cpu%d/topology/thread_siblings_list" % (SYS_CPU, c)
            if os.path.exists(p):
                self.siblings[c] = parse_cpulist(read(p))
        cmdline = read("/proc/cmdline")
        self.isolated = cmdline_isolated_managed_irq(cmdline)
        nohz = SYS_CPU + "/nohz_full"
        self.nohz_full = parse_cpulist(read(nohz)) if os.path.exists(nohz) \
            else frozenset()
        # A CPU's core: the present CPUs that share its core_id and package.
        # thread_siblings_list of an offline CPU is empty, so the cores are
        # taken once, while every CPU is online (the tests start so).
        self.core_of = {}
        for c, sib in self.siblings.items():
            if sib:
                self.core_of[c] = frozenset(sib)

    def online(self):
        return parse_cpulist(read(SYS_CPU + "/online"))

    def eligible(self, exclude=frozenset()):
        """Rules: online, housekeeping for managed IRQs and the tick."""
        e = self.online() - self.isolated - self.nohz_full - set(exclude)
        return e if e else self.online()

    def dist(self, a, b):
        return self.distance[a][self.nodes.index(b)]

    def tier(self, node, cpu):
        """NUMA hop of @cpu from @node: index of its distance among the
        distinct distances from @node to the nodes with CPUs."""
        if node is None:
            return 0
        levels = sorted({self.dist(node, n) for n in self.nodes
                         if self.node_cpus[n]})
        return levels.index(self.dist(node, self.cpu_node[cpu]))

    def nearest_node_with_cpus(self, node):
        return min((n for n in self.nodes if self.node_cpus[n]),
                   key=lambda n: (self.dist(node, n), n))


def spread(topo, node, nvec, policy, load=None, eligible=None):
    """Expected CPUs of each vector, from the documented rules.

    Every eligible CPU is a slot.  tier: the NUMA hop from @node; rank: the
    CPU's position among the eligible threads of its core, least loaded
    first.  numa orders slots by tier, then least loaded CPU, then CPU
    number; numa-core by tier, rank, least loaded core, least loaded CPU,
    CPU number, and gives each vector its slot's whole core (its eligible
    threads); core by rank, tier, then like numa-core.  Vector i takes slot i modulo the number of slots.
    @load: per-CPU count of vectors placed for other devices.
    """
    load = load or {}
    cpus = topo.eligible() if eligible is None else frozenset(eligible)
    core = {c: topo.core_of.get(c, frozenset([c])) & cpus for c in cpus}
    core_load = {c: sum(load.get(t, 0) for t in core[c]) for c in cpus}
    rank = {}
    for c in cpus:
        threads = sorted(core[c], key=lambda t: (load.get(t, 0), t))
        rank[c] = threads.index(c)

    def near(c):
        return (core_load[c], load.get(c, 0), c)

    if policy == "numa":
        key = lambda c: (topo.tier(node, c), load.get(c, 0), c)
    elif policy == "numa-core":
        key = lambda c: (topo.tier(node, c), rank[c]) + near(c)
    elif policy == "core":
        key = lambda c: (rank[c], topo.tier(node, c)) + near(c)
    else:
        raise ValueError(policy)
    slots = sorted(cpus, key=key)
    out = []
    for i in range(nvec):
        c = slots[i % len(slots)]
        out.append(core[c] if policy == "numa-core" else frozenset([c]))
    return out


def add_load(load, masks):
    for m in masks:
        for c in m:
            load[c] = load.get(c, 0) + 1
    return load


# ---------------------------------------------------------------------------
# Policy files

def active_policy(path):
    """The bracketed name of a policy file, checking the whole format."""
    s = read(path)
    names = s.split(" ")
    active = [n[1:-1] for n in names if n.startswith("[") and n.endswith("]")]
    plain = [n.strip("[]") for n in names]
    if sorted(plain) != sorted(POLICIES) or len(active) != 1:
        raise ValueError("%s: unexpected format %r" % (path, s))
    return active[0]


def set_default_policy(policy):
    write_ok(PARAM, policy)


def require_lib():
    if not os.path.exists(PARAM):
        raise Skip("no %s: kernel without irq_spread's policy parameter"
                   % PARAM)
    if not os.path.exists(NSIM_BUS + "/new_device"):
        raise Skip("no netdevsim")


def quiet_machine():
    """The topology, once sure that irq_spread and netdevsim are there and
    that no other device is registered with irq_spread: the expected
    placements count the load of the test's own devices only."""
    require_lib()
    others = glob.glob("/sys/class/net/*/irq_spread")
    if others:
        raise RuntimeError("other irq_spread devices (left by an earlier "
                           "test?): %s" % others)
    return Topology()


# ---------------------------------------------------------------------------
# netdevsim devices and their IRQs

def nsim_irq_actions(dev_id):
    """{irq: [action names]} of netdevsim device @dev_id's RX queues in
    /proc/interrupts: nsim<ID>p<port>-rx<queue>, several on an IRQ that
    queues share (pool mode)."""
    out = {}
    pat = re.compile(r"\bnsim%dp\d+-rx\d+\b" % dev_id)
    with open("/proc/interrupts") as f:
        for line in f:
            m = re.match(r"^\s*(\d+):", line)
            names = pat.findall(line)
            if m and names:
                out[int(m.group(1))] = names
    return out


class Nsim:
    """A netdevsim device with one port, @queues queues, on @node."""

    created = []

    def __init__(self, dev_id, queues, node=None):
        self.id = dev_id
        self.queues = queues
        self.node = node
        arg = "%d 1 %d" % (dev_id, queues)
        if node is not None:
            arg += " %d" % node
        write_ok(NSIM_BUS + "/new_device", arg)
        self.alive = True
        Nsim.created.append(self)
        nets = glob.glob("%s/devices/netdevsim%d/net/*" % (NSIM_BUS, dev_id))
        if len(nets) != 1:
            raise RuntimeError("netdevsim%d: %d netdevs" % (dev_id, len(nets)))
        self.ifname = os.path.basename(nets[0])
        self.sysfs = "/sys/class/net/" + self.ifname
        self.policy_file = self.sysfs + "/irq_spread/policy"
        self.vectors_file = self.sysfs + "/irq_spread/vectors"
        self.irqs = self._find_irqs()

    def _find_irqs(self):
        """Queue -> IRQ from /proc/interrupts, by netdevsim's IRQ names."""
        irqs = {}
        for irq, names in nsim_irq_actions(self.id).items():
            for name in names:
                irqs[int(name.rsplit("-rx", 1)[1])] = irq
        if sorted(irqs) != list(range(self.queues)):
            raise RuntimeError("netdevsim%d: IRQs of queues %s in "
                               "/proc/interrupts, want 0-%d"
                               % (self.id, sorted(irqs), self.queues - 1))
        return [irqs[q] for q in range(self.queues)]

    def remove(self):
        if self.alive:
            self.alive = False
            write_ok(NSIM_BUS + "/del_device", "%d" % self.id)

    def affinity(self, q):
        return parse_cpulist(read("/proc/irq/%d/smp_affinity_list"
                                  % self.irqs[q]))

    def effective(self, q):
        return parse_cpulist(read("/proc/irq/%d/effective_affinity_list"
                                  % self.irqs[q]))

    def hint(self, q):
        return parse_hexmask(read("/proc/irq/%d/affinity_hint" % self.irqs[q]))

    def set_affinity(self, q, cpus):
        write_ok("/proc/irq/%d/smp_affinity_list" % self.irqs[q],
                 fmt_cpulist(cpus))

    def vectors(self):
        """Rows of the vectors file: {vector: (irq, cpus, set of marks)}."""
        lines = read(self.vectors_file).splitlines()
        if lines[0].split() != ["vector", "irq", "cpus"]:
            raise ValueError("vectors header %r" % lines[0])
        rows = {}
        for line in lines[1:]:
            f = line.split(" ")
            rows[int(f[0])] = (int(f[1]), parse_cpulist(f[2]), set(f[3:]))
        return rows

    def policy(self):
        return active_policy(self.policy_file)

    def state(self):
        """Everything a rejected write must leave alone."""
        return (read(self.policy_file), read(self.vectors_file),
                tuple(read("/proc/irq/%d/smp_affinity_list" % i)
                      for i in self.irqs))

    def debugfs_rq(self, q):
        p = glob.glob("%s/netdevsim%d/ports/*/rq%d" % (NSIM_DEBUGFS, self.id,
                                                       q))
        if len(p) != 1:
            raise Skip("no netdevsim debugfs rq%d directory" % q)
        return p[0]


def check_placement(t, dev, want, what, admin=(), active=None):
    """Each active queue's IRQ: affinity == @want[q] (queues in @admin are
    skipped: the caller checks them), effective affinity one eligible CPU of
    it, hint == @want[q]; the vectors file agrees with /proc/irq."""
    active = dev.queues if active is None else active
    got = []
    eff_ok = True
    rows = dev.vectors()
    rows_ok = sorted(rows) == list(range(dev.queues))
    for q in range(active):
        if q in admin:
            got.append(want[q])
            continue
        aff = dev.affinity(q)
        got.append(aff)
        eff = dev.effective(q)
        if len(eff) != 1 or not eff <= aff:
            eff_ok = False
            t.diag("queue %d: effective %s not one CPU of %s"
                   % (q, fmt_cpulist(eff), fmt_cpulist(aff)))
        if dev.hint(q) != want[q]:
            eff_ok = False
            t.diag("queue %d: affinity_hint %s, want %s"
                   % (q, fmt_cpulist(dev.hint(q)), fmt_cpulist(want[q])))
    for q in range(dev.queues):
        if q not in rows:
            continue
        irq, cpus, marks = rows[q]
        if irq != dev.irqs[q] or cpus != dev.affinity(q):
            rows_ok = False
            t.diag("vectors row %d: irq %d cpus %s; /proc: irq %d cpus %s"
                   % (q, irq, fmt_cpulist(cpus), dev.irqs[q],
                      fmt_cpulist(dev.affinity(q))))
        want_marks = set()
        if q in admin:
            want_marks.add("admin")
        if q >= active:
            want_marks.add("inactive")
        if marks != want_marks:
            rows_ok = False
            t.diag("vectors row %d: marks %s, want %s"
                   % (q, sorted(marks), sorted(want_marks)))
    fmt = lambda ms: " ".join(fmt_cpulist(m) for m in ms)
    t.result(fmt(got) == fmt(want[:active]), "%s: queue CPUs" % what,
             "expected: %s\n     got: %s" % (fmt(want[:active]), fmt(got)))
    t.result(eff_ok, "%s: effective affinity and hint" % what)
    t.result(rows_ok, "%s: vectors file matches /proc/irq" % what)


def as_user(uid, fn):
    """Run fn() in a child with uid/gid @uid and no groups (as setpriv
    --reuid --regid --clear-groups); return its exit code."""
    pid = os.fork()
    if pid == 0:
        try:
            os.setgroups([])
            os.setgid(uid)
            os.setuid(uid)
            os._exit(fn())
        except BaseException:
            os._exit(255)
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status)


def set_link(ifname, up):
    """ip link set dev @ifname up/down, without a fork (SIOCSIFFLAGS)."""
    import fcntl
    import socket
    SIOCGIFFLAGS, SIOCSIFFLAGS, IFF_UP = 0x8913, 0x8914, 0x1
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        ifr = struct.pack("16sH22x", ifname.encode(), 0)
        flags = struct.unpack("16sH22x", fcntl.ioctl(s, SIOCGIFFLAGS, ifr))[1]
        flags = flags | IFF_UP if up else flags & ~IFF_UP
        fcntl.ioctl(s, SIOCSIFFLAGS, struct.pack("16sH22x", ifname.encode(),
                                                 flags))


def run_cmd(*argv):
    """Run a command; raise with its output if it fails."""
    import subprocess
    p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       universal_newlines=True)
    if p.returncode:
        raise RuntimeError("%s: exit %d: %s" % (" ".join(argv), p.returncode,
                                                p.stdout.strip()))
    return p.stdout


# ---------------------------------------------------------------------------
# Traffic between two linked netdevsim ports

ETH_P = 0x88b5  # IEEE local experimental
FRAMES = 32


def link(a, b):
    """Link two netdevsim ports of this network namespace."""
    fd = os.open("/proc/self/ns/net", os.O_RDONLY)
    try:
        idx = [int(read("/sys/class/net/%s/ifindex" % d.ifname))
               for d in (a, b)]
        write_ok(NSIM_BUS + "/link_device", "%d:%d %d:%d" % (fd, idx[0], fd,
                                                              idx[1]))
    finally:
        os.close(fd)


def packet_sockets(a, b):
    """(tx, rx, dst): a raw socket sending out of @a, one receiving on @b,
    and @b's MAC address."""
    import socket
    tx = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
    tx.bind((a.ifname, ETH_P))
    rx = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(ETH_P))
    rx.bind((b.ifname, ETH_P))
    rx.settimeout(20)
    dst = bytes.fromhex(read(b.sysfs + "/address").replace(":", ""))
    return tx, rx, dst


def traffic(tx, rx, dst):
    """Send FRAMES frames out of @tx; return once @rx received them all."""
    frame = dst + bytes(6) + struct.pack("!H", ETH_P) + bytes(46)
    for _ in range(FRAMES):
        tx.send(frame)
    got = 0
    while got < FRAMES:
        got += len(rx.recv(2048)) > 0


def wait_for(cond, secs=20):
    """Poll @cond: NAPI finishes a poll after it delivered the frames."""
    end = time.monotonic() + secs
    while not cond() and time.monotonic() < end:
        time.sleep(0.05)
    return cond()
