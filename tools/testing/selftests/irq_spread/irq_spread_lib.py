# SPDX-License-Identifier: GPL-2.0
"""Shared helpers of the irq_spread selftests.

The tests place netdevsim devices with the irq_spread library and read back
each queue's IRQ (/proc/irq/N/smp_affinity_list, effective_affinity_list,
affinity_hint) and the library's table of vectors in debugfs
(/sys/kernel/debug/irq_spread/devices).  What
they expect comes from two oracles, neither of them a copy of the library:

- hand tables: the CPUs of each queue, worked out by hand in each test from
  the rules of Documentation/core-api/irq_spread.rst for the project's guest
  (pipeline/run-guest.sh: 16 CPUs, node n = CPUs 4n..4n+3, SMT siblings 2k
  and 2k+1, SLIT 10 local, 12 within a socket (nodes 0-1, 2-3), 32 across).
  They apply only on that topology, with every CPU online and no irq_spread
  device but the test's own loading the CPUs (tables()); elsewhere a diag
  line says so and only the rule checks run;
- rule checks (check_rules()) that hold on any machine, whatever the load of
  other devices: only eligible CPUs; per CPU the floor or the ceiling of
  vectors / slots, counted by effective CPU; even per NUMA hop; nearest
  first; a core each before a second (numa-core, core); the numa-core mask
  shapes.

The machine is read from sysfs and the kernel command line only.  Each test
runs in one python3 process: under TCG every fork costs about 0.15 s.
Tests print KTAP lines and exit with the kselftest codes.
"""

import collections
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
DEBUGFS = "/sys/kernel/debug/irq_spread"
DEVICES = DEBUGFS + "/devices"
DEVICES_HEADER = "device policy vector irq kind state cpus"
NOTIFIERS = DEBUGFS + "/notifiers"
NOTIFIERS_HEADER = "irq device vector notifier notified due"
DEFAULT_AFFINITY = "/proc/irq/default_smp_affinity"
SYS_NODE = "/sys/devices/system/node"
SYS_CPU = "/sys/devices/system/cpu"
# The kernel tree these selftests sit in, with its YNL library and specs.
KSRC = os.path.abspath(os.path.join(os.path.dirname(__file__), "../../../.."))
NETDEV_SPEC = KSRC + "/Documentation/netlink/specs/netdev.yaml"
YNL_CLI = KSRC + "/tools/net/ynl/pyynl/cli.py"


class Skip(Exception):
    """The test cannot run here (missing kernel feature or privilege)."""


# ---------------------------------------------------------------------------
# KTAP output and exit codes

class Ktap:
    """Numbered "ok"/"not ok" lines; exit code 1 if any failed, 4 if the
    test skipped (run())."""

    def __init__(self, name):
        self.name = name
        self.n = 0
        self.failed = 0
        self.skipped = 0
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

    def skip(self, what, why):
        """A check that did not run: "ok N what # SKIP why".  Not a pass:
        the pipeline fails on any skip its list of expected skips does not
        name."""
        self.n += 1
        self.skipped += 1
        print("ok %d %s # SKIP %s" % (self.n, what, why), flush=True)

    def finish(self):
        print("1..%d" % self.n, flush=True)
        if self.n == 0:
            print("# no check ran", flush=True)
            sys.exit(KSFT_FAIL)
        print("# %s: %d passed, %d failed, %d skipped in %.1f s"
              % (self.name, self.n - self.failed - self.skipped, self.failed,
                 self.skipped, time.monotonic() - self.t0), flush=True)
        sys.exit(KSFT_FAIL if self.failed else KSFT_PASS)

    def finish_skipped(self):
        """The plan and the exit code of a test that skipped after checks
        that all passed."""
        print("1..%d" % self.n, flush=True)
        print("# %s: %d passed, then skipped, in %.1f s"
              % (self.name, self.n - self.skipped,
                 time.monotonic() - self.t0), flush=True)
        sys.exit(KSFT_SKIP)


def run(name, test, cleanup=None):
    """Run test(ktap), then cleanup() if given, remove the netdevsim devices
    the test made and restore the default policy; exit with the kselftest
    code.  A test that raises Skip before any check skips (exit 4); after
    checks, the rest of it is one skipped check, and it fails if any check
    failed, else skips."""
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
        if not t.n:
            print("1..0 # SKIP %s" % e, flush=True)
            sys.exit(KSFT_SKIP)
        t.skip("%s: the rest" % name, e)
        if not t.failed:
            t.finish_skipped()
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


def fmt_masks(masks):
    """Per-queue CPU lists, a space between queues: "8 10 12-13"."""
    return " ".join(fmt_cpulist(m) for m in masks)


def table(spec):
    """A hand table: per-queue CPU lists separated by spaces, "8 10 12-13"."""
    return [parse_cpulist(m) for m in spec.split()]


def parse_hexmask(s):
    """A /proc/irq/N/smp_affinity style mask ("0000,00000003") as CPUs."""
    v = int(s.replace(",", ""), 16)
    return frozenset(i for i in range(v.bit_length()) if v >> i & 1)


def fmt_hexmask(cpus, nr_cpus):
    """@cpus as the kernel writes a mask of @nr_cpus bits: hex, a comma
    between 32-bit words ("f6ff", "00000001,00000000")."""
    v = sum(1 << c for c in cpus)
    words = [v >> (32 * i) & 0xffffffff for i in range((nr_cpus + 31) // 32)]
    top = "%x" % words[-1]
    return ",".join([top] + ["%08x" % w for w in reversed(words[:-1])])


def wait_for(cond, secs=20):
    """Poll @cond every 50 ms until it holds or @secs passed; return it."""
    end = time.monotonic() + secs
    while not cond() and time.monotonic() < end:
        time.sleep(0.05)
    return cond()


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


def guest_distance(a, b):
    """SLIT of the project's guest: 10 local, 12 within a socket, 32 across."""
    return 10 if a == b else 12 if a // 2 == b // 2 else 32


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
        cmdline = read("/proc/cmdline")
        self.isolated = cmdline_isolated_managed_irq(cmdline)
        nohz = SYS_CPU + "/nohz_full"
        self.nohz_full = parse_cpulist(read(nohz)) if os.path.exists(nohz) \
            else frozenset()
        # A CPU's core: its thread siblings.  thread_siblings_list of an
        # offline CPU is empty, so the cores are taken once, while every CPU
        # is online (the tests start so).
        self.core_of = {}
        for c in self.present:
            p = "%s/cpu%d/topology/thread_siblings_list" % (SYS_CPU, c)
            if os.path.exists(p) and read(p):
                self.core_of[c] = parse_cpulist(read(p))

    def online(self):
        return parse_cpulist(read(SYS_CPU + "/online"))

    def default_affinity(self):
        return parse_hexmask(read(DEFAULT_AFFINITY))

    def eligible(self):
        """Rules: online, housekeeping for managed IRQs and the tick, within
        the default IRQ affinity; all online CPUs if that leaves none."""
        online = self.online()
        e = (online - self.isolated - self.nohz_full) & self.default_affinity()
        return e if e else online

    def core(self, cpu, eligible):
        """The eligible threads of @cpu's core."""
        return self.core_of.get(cpu, frozenset([cpu])) & eligible

    def dist(self, a, b):
        return self.distance[a][self.nodes.index(b)]

    def cpu_dist(self, node, cpu):
        """How far @cpu is from a device on @node (0 for no node): the order
        of the NUMA hops."""
        return 0 if node is None else self.dist(node, self.cpu_node[cpu])

    def is_guest(self):
        """Whether this is the project's guest topology (run-guest.sh)."""
        return (self.present == frozenset(range(16)) and
                self.nodes == [0, 1, 2, 3] and
                all(self.node_cpus[n] == frozenset(range(4 * n, 4 * n + 4))
                    for n in self.nodes) and
                all(self.dist(a, b) == guest_distance(a, b)
                    for a in self.nodes for b in self.nodes) and
                all(self.core_of.get(c) == frozenset([c & ~1, c | 1])
                    for c in range(16)))

    def tables(self, t, isolated=frozenset()):
        """Whether the hand tables of a test apply: the project's guest,
        every CPU online, @isolated the CPUs of isolcpus=managed_irq, no
        nohz_full, the default IRQ affinity every CPU, and no irq_spread
        device or pool vector the test did not make.  If not, say why: in
        a diag line, or, with IRQ_SPREAD_TABLES=required in the environment
        (the pipeline's main guest, where they must apply), in a failed
        check."""
        why = []
        if not self.is_guest():
            why.append("not the project's guest topology (16 CPUs, node n = "
                       "4n..4n+3, siblings 2k/2k+1, SLIT 10/12/32)")
        elif self.online() != self.present:
            why.append("CPUs %s offline"
                       % fmt_cpulist(self.present - self.online()))
        if self.isolated != isolated or self.nohz_full:
            why.append("isolcpus=managed_irq %s, nohz_full %s (tables for %s, "
                       "none)" % (fmt_cpulist(self.isolated) or "none",
                                  fmt_cpulist(self.nohz_full) or "none",
                                  fmt_cpulist(isolated) or "none"))
        if self.default_affinity() != self.present:
            why.append("default IRQ affinity %s"
                       % fmt_cpulist(self.default_affinity()))
        others = foreign_devices()
        if others:
            why.append("irq_spread devices or pools this test did not make, "
                       "whose load the tables do not count: %s"
                       % ", ".join(others))
        if os.environ.get("IRQ_SPREAD_TABLES") == "required":
            t.result(not why, "the hand tables apply (IRQ_SPREAD_TABLES="
                     "required)", "\n".join(why))
        else:
            for w in why:
                t.diag("hand tables skipped, rule checks only: %s" % w)
        return not why


def require_lib():
    if not os.path.exists(PARAM):
        raise Skip("no %s: kernel without irq_spread's policy parameter"
                   % PARAM)
    if not os.path.exists(NSIM_BUS + "/new_device"):
        raise Skip("no netdevsim")
    if not os.path.exists(DEVICES):
        raise Skip("no %s (debugfs not mounted?)" % DEVICES)


def machine(t, isolated=frozenset()):
    """(topology, whether the hand tables apply), once sure that irq_spread,
    netdevsim and irq_spread's debugfs are there."""
    global TOPO
    require_lib()
    topo = TOPO = Topology()
    return topo, topo.tables(t, isolated)


# The machine as machine() read it at the start of the test, every CPU
# online (node cpulists leave offline CPUs out), or None.
TOPO = None


# ---------------------------------------------------------------------------
# Policy files and the debugfs table of vectors

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


Row = collections.namedtuple("Row", "device policy vector irq kind state cpus")


def table_fields(path, header, n, valid):
    """The lines of debugfs table @path after its @header, each split into
    @n fields separated by one space that valid(fields) accepts; a
    ValueError for any other."""
    lines = read(path).split("\n")
    if lines[0] != header:
        raise ValueError("%s: header %r" % (path, lines[0]))
    rows = []
    for line in lines[1:]:
        f = line.split(" ")
        if len(f) != n or not valid(f):
            raise ValueError("%s: line %r" % (path, line))
        rows.append(f)
    return rows


def devices_table():
    """The rows of /sys/kernel/debug/irq_spread/devices, checking the format:
    the header, then seven fields separated by one space; irq and cpus are
    None for "-"."""
    valid = lambda f: (f[1] in POLICIES and
                       f[4] in ("pre", "spread", "post") and
                       f[5] in ("active", "admin", "inactive") and
                       re.fullmatch(r"\d+", f[2]) and
                       re.fullmatch(r"\d+|-", f[3]) and
                       re.fullmatch(r"[0-9,-]+", f[6]))
    return [Row(f[0], f[1], int(f[2]), None if f[3] == "-" else int(f[3]),
                f[4], f[5], None if f[6] == "-" else parse_cpulist(f[6]))
            for f in table_fields(DEVICES, DEVICES_HEADER, 7, valid)]


Notifier = collections.namedtuple("Notifier",
                                  "irq device vector notifier notified due")


def notifiers_table():
    """The rows of /sys/kernel/debug/irq_spread/notifiers, checking the
    format: the header, then six fields separated by one space; due is a
    bool."""
    valid = lambda f: (all(re.fullmatch(r"\d+", f[i]) for i in (0, 2, 4)) and
                       f[3] in ("irq_spread", "other") and
                       f[5] in ("0", "1"))
    return [Notifier(int(f[0]), f[1], int(f[2]), f[3], int(f[4]), f[5] == "1")
            for f in table_fields(NOTIFIERS, NOTIFIERS_HEADER, 6, valid)]


def sysfs_path(path):
    """A device's kobject path, as debugfs names it: /sys/... without /sys."""
    return os.path.realpath(path)[len("/sys"):]


def foreign_devices():
    """irq_spread devices and pools with vectors that no test Nsim made:
    debugfs rows, pools' requested vectors."""
    ours = {d.path for d in Nsim.created if d.alive}
    found = {r.device for r in devices_table()}
    found -= ours
    for p in sorted(glob.glob(DEBUGFS + "/pools/*")):
        if len(read(p).splitlines()) > 2:
            found.add("pool " + os.path.basename(p))
    return sorted(found)


# ---------------------------------------------------------------------------
# The netdev netlink family, through the YNL library of the kernel tree

_NETDEV = []


def netdev_nl():
    """The netdev family (one socket for the test), its spec not validated
    again: the CLI test does that."""
    if not _NETDEV:
        # lib.sh runs python3 -S, for a start that is quick under TCG; YNL
        # needs the distribution's packages (yaml).
        import site  # pylint: disable=import-outside-toplevel
        site.main()
        sys.path.insert(0, KSRC + "/tools/net/ynl")
        try:
            from pyynl.lib import YnlFamily  # pylint: disable=import-outside-toplevel
        except ImportError as e:
            raise Skip("no YNL library in %s: %s" % (KSRC, e)) from e
        _NETDEV.append(YnlFamily(NETDEV_SPEC, schema=""))
    return _NETDEV[0]


def netdev_nl_reset():
    """Forget the family's socket: a child opens its own, with its own
    credentials."""
    _NETDEV.clear()


class NlResult:
    """What a netlink request got: its reply, or its errno and extack."""

    def __init__(self, reply=None, err=0, extack=None):
        self.reply = reply
        self.err = err
        self.extack = extack or {}

    def __repr__(self):
        return "NlResult(err=%d, extack=%r)" % (self.err, self.extack)


def nl_do(op, vals):
    """netdev @op with @vals: an NlResult, the error kept, not raised."""
    ynl = netdev_nl()
    from pyynl.lib import NlError  # pylint: disable=import-outside-toplevel
    try:
        return NlResult(reply=ynl.do(op, vals))
    except NlError as e:
        return NlResult(err=e.error, extack=e.nl_msg.extack)


class NetdevListener:
    """A socket of the netdev family in its mgmt group: the dev-add,
    dev-del and dev-change notifications since the last take()."""

    def __init__(self):
        netdev_nl()
        from pyynl.lib import YnlFamily  # pylint: disable=import-outside-toplevel
        self.ynl = YnlFamily(NETDEV_SPEC, schema="")
        self.ynl.ntf_subscribe("mgmt")

    def take(self, ifindex):
        """The notifications about @ifindex received so far, in order:
        (name, message) each.  The kernel sends them before it answers the
        request that caused them."""
        self.ynl.check_ntf()
        out = []
        while not self.ynl.async_msg_queue.empty():
            n = self.ynl.async_msg_queue.get_nowait()
            if n["msg"].get("ifindex") == ifindex:
                out.append((n["name"], n["msg"]))
        return out


def cpus_to_words(cpus, words=None):
    """A CPU set as irq-cpus' u32 words."""
    n = words if words is not None else max(cpus, default=0) // 32 + 1
    out = [0] * n
    for c in cpus:
        out[c // 32] |= 1 << (c % 32)
    return out


def words_to_cpus(words):
    return frozenset(32 * w + b for w, v in enumerate(words)
                     for b in range(32) if v >> b & 1)


# ---------------------------------------------------------------------------
# A device's IRQs and debugfs rows, for any driver's device

def irq_affinity(irq):
    return parse_cpulist(read("/proc/irq/%d/smp_affinity_list" % irq))


def irq_effective(irq):
    return parse_cpulist(read("/proc/irq/%d/effective_affinity_list" % irq))


def set_irq_affinity(irq, cpus):
    write_ok("/proc/irq/%d/smp_affinity_list" % irq, fmt_cpulist(cpus))


def irq_placement(irq):
    """Who set IRQ @irq's affinity last, as the interrupt core tells:
    "placed" (the kernel, irq_spread), "user" (a write to smp_affinity or
    smp_affinity_list) or "none"."""
    return read("/proc/irq/%d/affinity_placement" % irq)


class Kmsg:
    """The kernel log's messages, read from /dev/kmsg without blocking:
    those logged from the moment it is made on, or all of the log kept
    with @everything."""

    def __init__(self, everything=False):
        self.fd = os.open("/dev/kmsg", os.O_RDONLY | os.O_NONBLOCK)
        self.seen = []
        if not everything:
            os.lseek(self.fd, 0, os.SEEK_END)

    def lines(self):
        """The messages logged since the last call, first line each."""
        out = []
        while True:
            try:
                rec = os.read(self.fd, 8192).decode(errors="replace")
            except BlockingIOError:
                return out
            except OSError as e:
                if e.errno == errno.EPIPE:  # overwritten records: go on
                    continue
                raise
            out.append(rec.split(";", 1)[-1].split("\n", 1)[0])

    def has(self, text):
        """Whether a message logged since it was made, but those lines()
        returned, holds @text."""
        self.seen += self.lines()
        return any(text in m for m in self.seen)

    def close(self):
        os.close(self.fd)


def nsim_fail_knob(dev_id):
    """netdevsim device @dev_id's fail_irq_affinity knob."""
    return "%s/netdevsim%d/fail_irq_affinity" % (NSIM_DEBUGFS, dev_id)


def nsim_fail_irq_affinity(dev_id, cpus):
    """Make netdevsim device @dev_id's interrupt lines refuse, with ENOSPC,
    any mask whose usable CPUs are all in @cpus (empty: none refused)."""
    knob = nsim_fail_knob(dev_id)
    if not os.path.exists(knob):
        raise Skip("no %s: netdevsim without the knob" % knob)
    write_ok(knob, fmt_cpulist(cpus) if cpus else "\n")


def device_rows(path):
    """The rows of device @path (sysfs_path()) in the debugfs table:
    {vector: Row}."""
    return {r.vector: r for r in devices_table() if r.device == path}


def wait_vector_state(path, vector, state):
    """Poll debugfs until vector @vector of device @path is in @state: the
    affinity notifier and the driver's callback run from work items."""
    return wait_for(lambda: device_rows(path)[vector].state == state, 5)


def notifier_of(irq):
    """IRQ @irq's row in debugfs notifiers, or None for an IRQ no
    registered device has."""
    return next((r for r in notifiers_table() if r.irq == irq), None)


def notified(irq):
    """How many of the interrupt core's affinity notifications irq_spread
    handled for IRQ @irq since it was attached (0 if none of its devices
    has it)."""
    r = notifier_of(irq)
    return r.notified if r else 0


def wait_notified(irq, count):
    """Wait until irq_spread handled @count notifications for IRQ @irq:
    the notifier's work has run.  False after 10 s."""
    return wait_for(lambda: notified(irq) >= count, 10)


def wait_not_due(irqs):
    """Wait until irq_spread handled the notification of its last change
    of each of @irqs.  False after 10 s."""
    return wait_for(lambda: not any(r.due for r in notifiers_table()
                                    if r.irq in irqs), 10)


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
    """A netdevsim device with one port, @queues queues, on @node, its link
    up: netdevsim adds its NAPIs and links them with their IRQs when the
    port opens, and net core places them from then on (@up False: left
    down, the IRQs requested but not placed)."""

    created = []

    def __init__(self, dev_id, queues, node=None, up=True):
        self.id = dev_id
        self.queues = queues
        self.node = node
        arg = "%d 1 %d" % (dev_id, queues)
        if node is not None:
            arg += " %d" % node
        write_ok(NSIM_BUS + "/new_device", arg)
        self.alive = True
        Nsim.created.append(self)
        self.reattach()
        if up:
            self.link(True)

    def reattach(self):
        """Find the port's netdev and IRQs again, as after a devlink reload,
        which re-creates them."""
        nets = glob.glob("%s/devices/netdevsim%d/net/*" % (NSIM_BUS, self.id))
        if len(nets) != 1:
            raise RuntimeError("netdevsim%d: %d netdevs" % (self.id, len(nets)))
        self.ifname = os.path.basename(nets[0])
        self.sysfs = "/sys/class/net/" + self.ifname
        self.path = sysfs_path(self.sysfs)
        self.ifindex = int(read(self.sysfs + "/ifindex"))
        self.irqs = self._find_irqs()

    def link(self, up):
        set_link(self.ifname, up)

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
        return irq_affinity(self.irqs[q])

    def affinities(self):
        return [self.affinity(q) for q in range(self.queues)]

    def effective(self, q):
        return irq_effective(self.irqs[q])

    def effectives(self, active=None):
        return [self.effective(q) for q in range(self.queues if active is None
                                                 else active)]

    def hint(self, q):
        return parse_hexmask(read("/proc/irq/%d/affinity_hint" % self.irqs[q]))

    def set_affinity(self, q, cpus):
        set_irq_affinity(self.irqs[q], cpus)

    def rows(self):
        return device_rows(self.path)

    def wait_state(self, q, state):
        return wait_vector_state(self.path, q, state)

    def dev_get(self):
        """dev-get of the port: its irq-policy and irq-cpus."""
        r = nl_do("dev-get", {"ifindex": self.ifindex})
        if r.err:
            raise OSError(r.err, "dev-get %s: %r" % (self.ifname, r))
        return r.reply

    def policy(self):
        return self.dev_get()["irq-policy"]

    def cpus(self):
        return words_to_cpus(self.dev_get()["irq-cpus"])

    def set(self, policy=None, cpus=None, raw=None):
        """dev-set of @policy and/or @cpus (a CPU set), or of the @raw
        attributes: an NlResult."""
        vals = {"ifindex": self.ifindex}
        if policy is not None:
            vals["irq-policy"] = policy
        if cpus is not None:
            vals["irq-cpus"] = cpus_to_words(cpus)
        vals.update(raw or {})
        return nl_do("dev-set", vals)

    def set_policy(self, policy):
        """dev-set of the policy: 0 or the errno."""
        return self.set(policy=policy).err

    def set_policy_ok(self, policy):
        """dev-set of the policy; raise if refused."""
        r = self.set(policy=policy)
        if r.err:
            raise OSError(r.err, "dev-set %s irq-policy %s: %r"
                          % (self.ifname, policy, r))

    def set_cpus(self, cpus):
        """dev-set of the CPUs (a set or a CPU list): 0 or the errno."""
        if isinstance(cpus, str):
            cpus = parse_cpulist(cpus)
        return self.set(cpus=cpus).err

    def napis(self):
        """Queue -> its NAPI as napi-get reports it, by IRQ."""
        by_irq = {n.get("irq"): n for n in
                  netdev_nl().dump("napi-get", {"ifindex": self.ifindex})}
        return {q: by_irq[irq] for q, irq in enumerate(self.irqs)
                if irq in by_irq}

    def source(self, q):
        """Queue @q's irq-affinity-source: "policy", "user" or None."""
        return self.napis().get(q, {}).get("irq-affinity-source")

    def to_policy(self, q):
        """napi-set: hand queue @q's IRQ back to the policy; 0 or errno."""
        napi = self.napis()[q]
        return nl_do("napi-set", {"id": napi["id"],
                                  "irq-affinity-source": "policy"}).err

    def state(self):
        """Everything a read or a rejected write must leave alone."""
        d = self.dev_get()
        return (d.get("irq-policy"), tuple(d.get("irq-cpus", ())),
                tuple(sorted(self.rows().items())),
                tuple((read("/proc/irq/%d/smp_affinity_list" % i),
                       read("/proc/irq/%d/effective_affinity_list" % i),
                       read("/proc/irq/%d/affinity_hint" % i),
                       irq_placement(i))
                      for i in self.irqs))

    def placements(self):
        return [irq_placement(i) for i in self.irqs]

    def debugfs_rq(self, q):
        p = glob.glob("%s/netdevsim%d/ports/*/rq%d" % (NSIM_DEBUGFS, self.id,
                                                       q))
        if len(p) != 1:
            raise Skip("no netdevsim debugfs rq%d directory" % q)
        return p[0]


class NsimEvents:
    """A netdevsim device with no port and @nr event IRQs (debugfs
    event_irqs, made at devlink reload), on @node: no NAPI owns them, and
    netdevsim registers them with irq_spread's device layer on the bus
    device, which gets a class device, /sys/class/irq_spread/
    netdevsim:netdevsim<ID>, with the policy and cpus files.  Removed by
    run() at the end, as Nsim devices are."""

    def __init__(self, dev_id, nr, node):
        self.id = dev_id
        self.nr = nr
        self.node = node
        self.class_dir = "/sys/class/irq_spread/netdevsim:netdevsim%d" % dev_id
        self.policy_file = self.class_dir + "/policy"
        self.cpus_file = self.class_dir + "/cpus"
        self.busdev = NSIM_BUS + "/devices/netdevsim%d" % dev_id
        write_ok(NSIM_BUS + "/new_device", "%d 0 1 %d" % (dev_id, node))
        self.alive = True
        Nsim.created.append(self)
        self.path = sysfs_path(self.busdev)
        knob = "%s/netdevsim%d/event_irqs" % (NSIM_DEBUGFS, dev_id)
        if not os.path.exists(knob):
            raise Skip("no %s: netdevsim without event IRQs" % knob)
        write_ok(knob, "%d" % nr)
        self.reload()

    def reload(self):
        """devlink reload: the event IRQs unregistered, freed, requested
        and registered again, as a driver's reset does."""
        run_cmd("devlink", "dev", "reload", "netdevsim/netdevsim%d" % self.id)

    def irqs(self):
        """Event N -> its IRQ, by its name in /proc/interrupts."""
        out = {}
        with open("/proc/interrupts") as f:
            for line in f:
                m = re.match(r"^\s*(\d+):.*\bnsim%d-ev(\d+)\b" % self.id,
                             line)
                if m:
                    out[int(m.group(2))] = int(m.group(1))
        if sorted(out) != list(range(self.nr)):
            raise RuntimeError("event IRQs %s in /proc/interrupts"
                               % sorted(out))
        return [out[i] for i in range(self.nr)]

    def affinities(self):
        return [irq_affinity(i) for i in self.irqs()]

    def rows(self):
        return device_rows(self.path)

    def remove(self):
        if self.alive:
            self.alive = False
            write_ok(NSIM_BUS + "/del_device", "%d" % self.id)


def moved(before, after):
    """The queues whose IRQ affinity differs between two affinities()."""
    return [q for q in range(len(before)) if before[q] != after[q]]


def check_placement(t, dev, want, what, admin=(), active=None, eff=None):
    """The placement of @dev's queues, the first @active of them in use:

    - with a hand table @want (the CPUs of each queue in use, the admin's
      for those in @admin; None where tables do not apply), each queue's
      IRQ affinity, and with @eff (per queue CPUs), its effective affinity;
    - always: each effective affinity is one online CPU of the IRQ's
      affinity, as the interrupt core reports it (netdevsim's irqchip takes
      the first when an affinity is set, but a CPU going offline moves it to
      another CPU of the mask, where it stays when the CPU comes back); no
      IRQ has an affinity hint (net core sets none); the debugfs table has
      one row per NAPI index, with its IRQ, kind spread, its state (admin,
      inactive or active) and, for a queue in use, the CPUs of /proc/irq/N.
    """
    active = dev.queues if active is None else active
    online = parse_cpulist(read(SYS_CPU + "/online"))
    aff = dev.affinities()
    if want is not None:
        t.eq(fmt_masks(aff[:active]), fmt_masks(want),
             "%s: queue CPUs (hand table)" % what)
    if eff is not None:
        t.eq(fmt_masks(dev.effectives(active)), fmt_masks(eff),
             "%s: effective CPUs (hand table)" % what)

    bad = []
    for q in range(dev.queues):
        e = dev.effective(q)
        if len(e) != 1 or not e <= aff[q] & online:
            bad.append("queue %d: effective %s, not one online CPU of %s"
                       % (q, fmt_cpulist(e), fmt_cpulist(aff[q])))
        hint = dev.hint(q)
        if hint:
            bad.append("queue %d: hint %s" % (q, fmt_cpulist(hint)))
    t.result(not bad, "%s: effective affinity, no hints" % what,
             "\n".join(bad))

    bad = []
    rows = dev.rows()
    if sorted(rows) != list(range(dev.queues)):
        bad.append("vectors %s, want 0-%d" % (sorted(rows), dev.queues - 1))
    pols = {r.policy for r in rows.values()}
    if pols != {dev.policy()}:
        bad.append("policy %s, the policy file says %s" % (sorted(pols),
                                                           dev.policy()))
    for q, r in sorted(rows.items()):
        state = "admin" if q in admin else \
            "inactive" if q >= active else "active"
        cpus = aff[q] if q < active else None
        if (r.irq, r.kind, r.state, r.cpus) != (dev.irqs[q], "spread", state,
                                                cpus):
            bad.append("vector %d: irq %s %s %s cpus %s; want irq %d spread "
                       "%s cpus %s"
                       % (q, r.irq, r.kind, r.state,
                          "-" if r.cpus is None else fmt_cpulist(r.cpus),
                          dev.irqs[q], state,
                          "-" if cpus is None else fmt_cpulist(cpus)))
    t.result(not bad, "%s: debugfs table agrees with /proc/irq" % what,
             "\n".join(bad))


# ---------------------------------------------------------------------------
# The rules that hold on any machine

def rule_problems(topo, node, policy, masks, effs, fresh=True):
    """{rule: [problems]} of the placement of one device's queues in use:
    @masks their IRQ affinities, @effs their effective CPUs, in queue order.
    @fresh: placed afresh (registration, policy write, ethtool -L, CPU
    online), so that the order rules apply; else (after a CPU went offline,
    which moves only the vectors it held) only the rules on the set of
    vectors.  Read Documentation/core-api/irq_spread.rst, "Rules"."""
    elig = topo.eligible()
    nvec, nslots = len(masks), len(elig)
    out = collections.OrderedDict()
    p = out.setdefault("only eligible CPUs", [])
    for q in range(nvec):
        if not masks[q] <= elig or not effs[q] <= elig:
            p.append("queue %d: CPUs %s, effective %s, eligible %s"
                     % (q, fmt_cpulist(masks[q]), fmt_cpulist(effs[q]),
                        fmt_cpulist(elig)))

    # Counted by effective CPU: where the interrupts end.
    count = {c: 0 for c in elig}
    for e in effs:
        for c in e & elig:
            count[c] += 1
    lo, hi = nvec // nslots, -(-nvec // nslots)
    p = out.setdefault("floor or ceiling of vectors/slots per CPU", [])
    over = [c for c in sorted(elig) if count[c] not in (lo, hi)]
    if over:
        p.append("%d vectors, %d slots: CPUs %s hold %s"
                 % (nvec, nslots, fmt_cpulist(over),
                    [count[c] for c in over]))

    hops = collections.defaultdict(set)
    for c in elig:
        hops[topo.cpu_dist(node, c)].add(c)
    p = out.setdefault("even per thread within a NUMA hop", [])
    for d, cpus in sorted(hops.items()):
        n = [count[c] for c in cpus]
        if max(n) - min(n) > 1:
            p.append("distance %d: CPUs %s hold %s vectors"
                     % (d, fmt_cpulist(cpus), [count[c] for c in sorted(cpus)]))

    cores = {topo.core(c, elig) for c in elig}
    dist = [min(topo.cpu_dist(node, c) for c in m) if m else 0 for m in masks]
    p = out.setdefault("nearest first", [])
    if fresh:
        # The first round: one vector per slot, one per core for core.
        first = min(nvec, len(cores) if policy == "core" else nslots)
        for q in range(1, first):
            if dist[q] < dist[q - 1]:
                p.append("queue %d at distance %d, queue %d at %d"
                         % (q - 1, dist[q - 1], q, dist[q]))
    elif policy != "core":
        # A vector goes farther only once every nearer thread has one.
        used = set().union(*effs) if effs else set()
        for q in range(nvec):
            idle = {c for c in elig if topo.cpu_dist(node, c) < dist[q]} - used
            if idle:
                p.append("queue %d at distance %d, CPUs %s nearer hold none"
                         % (q, dist[q], fmt_cpulist(idle)))

    core_of = [topo.core(min(e), elig) if e else frozenset() for e in effs]
    if policy in ("numa-core", "core"):
        # A core gets a second vector only once every core (of the hop,
        # for numa-core) has one.
        def peers(q):
            if policy == "core":
                return cores
            return {k for k in cores
                    if topo.cpu_dist(node, min(k)) == dist[q]}
        p = out.setdefault("a core each before a second", [])
        if fresh:
            used = set()
            for q in range(nvec):
                if core_of[q] in used and not peers(q) <= used:
                    p.append("queue %d: second vector on core %s while %s "
                             "have none"
                             % (q, fmt_cpulist(core_of[q]),
                                ";".join(fmt_cpulist(k) for k in
                                         sorted(peers(q) - used, key=min))))
                used.add(core_of[q])
        else:
            held = collections.Counter(core_of)
            for q in range(nvec):
                idle = {k for k in peers(q) if not held[k]}
                if held[core_of[q]] > 1 and idle:
                    p.append("core %s holds %d vectors while %s hold none"
                             % (fmt_cpulist(core_of[q]), held[core_of[q]],
                                ";".join(fmt_cpulist(k)
                                         for k in sorted(idle, key=min))))

    p = out.setdefault("mask shapes", [])
    held = collections.Counter(core_of)
    for q in range(nvec):
        if policy != "numa-core":
            ok = len(masks[q]) == 1
        elif held[core_of[q]] == 1:
            ok = masks[q] == core_of[q]
        else:
            ok = len(masks[q]) == 1
        if not ok:
            p.append("queue %d: CPUs %s, core %s holds %d of the vectors"
                     % (q, fmt_cpulist(masks[q]), fmt_cpulist(core_of[q]),
                        held[core_of[q]]))
    return out


def check_rules(t, topo, dev, policy, what, active=None, fresh=True):
    """check_placement()'s companion: the rules of rule_problems() on the
    first @active queues of @dev, one KTAP line each."""
    active = dev.queues if active is None else active
    masks = dev.affinities()[:active]
    effs = dev.effectives(active)
    for rule, problems in rule_problems(topo, dev.node, policy, masks, effs,
                                        fresh).items():
        t.result(not problems, "%s: rule: %s" % (what, rule),
                 "\n".join(problems))


# ---------------------------------------------------------------------------
# CPU hotplug, users, links and commands

class Hotplug:
    """CPU online/offline, put back online by restore()."""

    def __init__(self):
        self.offline = []

    def set(self, cpu, on):
        write_ok("%s/cpu%d/online" % (SYS_CPU, cpu), "1" if on else "0")
        if on:
            self.offline.remove(cpu)
        else:
            self.offline.append(cpu)

    def restore(self):
        for c in list(self.offline):
            self.set(c, True)


def pluggable(cpu):
    return os.path.exists("%s/cpu%d/online" % (SYS_CPU, cpu))


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


def inet_socket():
    """A socket for the interface ioctls of set_link() and
    ethtool_channels()."""
    import socket
    return socket.socket(socket.AF_INET, socket.SOCK_DGRAM)


def set_link(ifname, up, sock=None):
    """ip link set dev @ifname up/down, without a fork (SIOCSIFFLAGS), on
    @sock or a socket of its own."""
    import fcntl
    SIOCGIFFLAGS, SIOCSIFFLAGS, IFF_UP = 0x8913, 0x8914, 0x1
    if sock is None:
        with inet_socket() as s:
            return set_link(ifname, up, s)
    ifr = struct.pack("16sH22x", ifname.encode(), 0)
    flags = struct.unpack("16sH22x", fcntl.ioctl(sock, SIOCGIFFLAGS, ifr))[1]
    flags = flags | IFF_UP if up else flags & ~IFF_UP
    fcntl.ioctl(sock, SIOCSIFFLAGS, struct.pack("16sH22x", ifname.encode(),
                                                flags))
    return None


def run_cmd(*argv):
    """Run a command; raise with its output if it fails."""
    import subprocess
    p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       universal_newlines=True)
    if p.returncode:
        raise RuntimeError("%s: exit %d: %s" % (" ".join(argv), p.returncode,
                                                p.stdout.strip()))
    return p.stdout


def set_channels(dev, n):
    run_cmd("ethtool", "-L", dev.ifname, "combined", str(n))


SIOCETHTOOL = 0x8946
ETHTOOL_GCHANNELS, ETHTOOL_SCHANNELS = 0x3c, 0x3d


def ethtool_channels(ifname, combined=None, sock=None):
    """ethtool -l @ifname, and with @combined ethtool -L @ifname combined
    @combined, without a fork (SIOCETHTOOL, the driver's get_channels and
    set_channels as ethtool's netlink requests reach them), on @sock or a
    socket of its own: return (the maximum, the number) of combined
    channels the driver reports before the change.  Raises OSError with
    the driver's error."""
    import array
    import fcntl
    if sock is None:
        with inet_socket() as s:
            return ethtool_channels(ifname, combined, s)
    # struct ethtool_channels: cmd, max_rx, max_tx, max_other,
    # max_combined, rx_count, tx_count, other_count, combined_count.
    ch = array.array("I", [ETHTOOL_GCHANNELS] + [0] * 8)
    ifr = struct.pack("16sP16x", ifname.encode(), ch.buffer_info()[0])
    fcntl.ioctl(sock, SIOCETHTOOL, ifr)
    got = (ch[4], ch[8])
    if combined is not None:
        ch[0], ch[8] = ETHTOOL_SCHANNELS, combined
        fcntl.ioctl(sock, SIOCETHTOOL, ifr)
    return got


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


# A page pool refills its allocation cache, where net core moves it to the
# node NAPI polls on, at the latest every PP_ALLOC_CACHE_REFILL (64) pages;
# netdevsim takes one page per frame received.
TRAFFIC_ROUNDS = 8


def traffic_until(tx, rx, dst, cond):
    """Send FRAMES frames at a time out of @tx, up to TRAFFIC_ROUNDS times,
    until @cond holds after a round; return @cond."""
    for _ in range(TRAFFIC_ROUNDS):
        traffic(tx, rx, dst)
        if wait_for(cond, 2):
            return True
    return cond()
