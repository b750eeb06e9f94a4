#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Allocation failures, each in turn, with the kernel's fault injection:
# each operation runs with its 1st, 2nd, ... allocation failing
# (/proc/thread-self/fail-nth, armed just before the operation's system
# call) until it runs through without one failing.  After each failure
# the operation returned an errno (ENOMEM, or ENOBUFS for a netlink
# request or reply that could not be allocated) and nothing changed: the
# device's policy and CPUs, its rows in irq_spread's debugfs, each queue
# IRQ's affinity, effective affinity, hint and placement (Nsim.state());
# or, where the error can come after the change (a netlink reply), the
# operation did all of it; or, for a devlink reload, the errno left the
# devlink instance "reload failed", its ports and event IRQs gone, as
# devlink documents, and a reload without fault injection brought the
# start state back (the only operation that recovers so).  An operation
# that returns success did all of it, or fell back as documented (a
# netdev whose registration with the library failed keeps
# netif_set_affinity_auto()'s spread).
# Each operation is undone after it succeeded, and must leave the state
# it started from (a devlink reload leaves it as it was).  At the end, a
# device made afresh is placed as one made before the failures: nothing
# leaked into the per-CPU load.
#
# The operations: netdev netlink dev-set of a policy and of CPUs, the
# administrator's write to /proc/irq/N/smp_affinity_list, napi-set of the
# IRQ back to the policy, ethtool -L (SIOCETHTOOL) and the link down and
# up (SIOCSIFFLAGS), of which only the allocations with the library's
# code on the stack fail (nearly all of theirs are net core's and
# netdevsim's: the stack trace filter), a CPU of the device's node
# offline and online again (the library's allocations on the CPU's
# hotplug thread, cpuhp/N, whose fail-nth is armed: a hotplug step does
# not fail, the placement after a failure must hold), a netdevsim device
# of one queue created (new_device; a probe that fails leaves netdevsim's
# device without a port, which is deleted), once failing the library's
# allocations and once netdevsim's own, a write of a class device's cpus
# (netdevsim's event IRQs), and reads of that file, of
# /sys/class/irq_spread/irqs and of irq_spread's debugfs files, a netdev
# netlink dev-get failing net core's irq_spread fill (an errno, or the
# file or reply, and nothing changed),
# netdevsim's fail_irq_affinity knob written and read; in netdevsim's
# pool mode, a port made (new_port) whose queues request vectors of the
# device's irq_spread pool, failing the library's, netdevsim's IRQ
# code's and nsim_bpf_init()'s allocations, and the first port, which
# creates the pool (nsim_irq_pool_get()'s); a devlink reload (YNL, in
# the test's thread) of a device with event IRQs, failing netdevsim's IRQ
# code's allocations, and of one with a port as well, failing those of
# the port's IRQs.  A reload whose event IRQs the interrupt core refuses
# (fail_irq_affinity) fails with ENOSPC and is recovered by a reload.
# net core's XPS work, which runs in a kworker, fails the allocation of
# its CPU mask, then the first of a TX queue's map, once each (failslab's
# probability and times, under the stack trace filter).
#
# IRQ_SPREAD_FAULT names the parts to run, both by default: "ops", the
# operations on a device, new_device among them, and "devices", the pool
# mode, devlink reload and XPS work (make check runs them in two guests).
#
# fail-nth fails only what failslab and fail_page_alloc let fail: their
# ignore-gfp-wait are set to N for the test (and back to Y), their
# verbose to 0 (a failure dumps no stack).  One line per operation says
# how many allocations were failed and how each ended.

. "$(dirname "$0")/lib.sh"
irq_spread_python <<'PY'
from irq_spread_lib import *

FAULT = "/sys/kernel/debug"
ATTRS = ("failslab", "fail_page_alloc")
DEV_ID, PROBE_ID, NEW_ID, EV_ID = 7801, 7802, 7803, 7804
POOL_ID, FIRST_ID, RELOAD_ID, RELOAD_PORTS_ID = 7805, 7806, 7807, 7808
XPS_ID = 7809
QUEUES = 4
POOL_VECTORS, POOL_QUEUES = 4, 2
# A reload's sweep fails each allocation of netdevsim's IRQ code, and
# each failure costs a reload more: one event IRQ.
EV_IRQS, EV_QUEUES = 1, 2
DEVLINK_SPEC = KSRC + "/Documentation/netlink/specs/devlink.yaml"
ERRNOS = (errno.ENOMEM, errno.ENOBUFS)


class FailNth:
    """A task's fail-nth file (the calling thread's unless @path), opened
    once: arming it and reading it back allocate nothing."""

    def __init__(self, path="/proc/thread-self/fail-nth"):
        self.fd = os.open(path, os.O_RDWR)

    def arm(self, n):
        os.write(self.fd, b"%d" % n)

    def fired(self):
        """Whether the armed allocation failed; disarms the rest."""
        left = int(os.pread(self.fd, 16, 0))
        os.write(self.fd, b"0")
        return left == 0


def fault_setup():
    saved = {}
    for a in ATTRS:
        for f, v in (("ignore-gfp-wait", "N"), ("verbose", "0")):
            p = "%s/%s/%s" % (FAULT, a, f)
            if not os.path.exists(p):
                raise Skip("no %s (a kernel without FAILSLAB, "
                           "FAIL_PAGE_ALLOC or their debugfs)" % p)
            saved[p] = read(p)
            write_ok(p, v)
    return saved


def errno_of(fn):
    try:
        fn()
        return 0
    except OSError as e:
        return e.errno


class Op:
    """An operation: run() under fault injection, its errno (0 on
    success), ready() just before (a file to write opened, say: that is
    not the operation's); undo() after it succeeded; state() what it may
    change."""

    desc = ""
    after_error = False  # the errno may come after the change
    # False: a read, or an operation that makes again what it undoes (a
    # devlink reload): a success leaves the state as it was.
    changes = True
    # How recover() puts the start state back after an errno that left
    # the state changed, as documented; "": it does not.
    recovery = ""

    def prepare(self):
        pass

    def ready(self):
        pass

    def finish(self):
        pass

    def fallback(self, state):
        """Whether @state, after a success, is the documented fallback
        of a failure the operation does not return."""
        return False

    def settle(self):
        """Wait for what the operation left to a work item; True if it
        failed after all (and was cleaned up)."""
        return False

    def recover(self):
        """After an errno that left the state changed: put the start state
        back as the kernel documents it (self.recovery), without fault
        injection; False if the operation has no such recovery."""
        return False


class DevSet(Op):
    after_error = True

    def __init__(self, dev, what, vals, back):
        self.dev, self.desc = dev, "dev-set " + what
        self.vals, self.back = vals, back

    def state(self):
        return self.dev.state()

    def run(self):
        return nl_err(lambda: self.dev.set(raw=self.vals))

    def undo(self):
        r = self.dev.set(raw=self.back)
        if r.err:
            raise OSError(r.err, "%s: undo: %r" % (self.desc, r))


def nl_err(fn):
    """A netlink request's errno: its error reply's, or the socket's."""
    try:
        return fn().err
    except OSError as e:
        return e.errno


class AdminWrite(Op):
    def __init__(self, dev, q, cpu):
        self.dev, self.q, self.cpu = dev, q, cpu
        self.desc = "write of queue %d's IRQ smp_affinity_list" % q
        self.path = "/proc/irq/%d/smp_affinity_list" % dev.irqs[q]

    def state(self):
        return self.dev.state()

    def ready(self):
        self.fd = os.open(self.path, os.O_WRONLY)

    def run(self):
        try:
            return errno_of(lambda: os.write(self.fd, b"%d" % self.cpu))
        finally:
            os.close(self.fd)

    def settle(self):
        # The notifier marks it the administrator's from a work item.
        if self.dev.affinity(self.q) == frozenset([self.cpu]):
            self.dev.wait_state(self.q, "admin")
        return False

    def undo(self):
        err = self.dev.to_policy(self.q)
        if err:
            raise OSError(err, "%s: undo" % self.desc)


class ToPolicy(Op):
    after_error = True

    def __init__(self, dev, q, cpu):
        self.dev, self.q = dev, q
        self.write = AdminWrite(dev, q, cpu)
        self.desc = "napi-set of queue %d's IRQ back to the policy" % q
        self.napi = None

    def prepare(self):
        self.write.ready()
        self.write.run()
        self.write.settle()
        self.napi = self.dev.napis()[self.q]["id"]

    def state(self):
        return self.dev.state()

    def run(self):
        return nl_err(lambda: nl_do("napi-set", {
            "id": self.napi, "irq-affinity-source": "policy"}))

    def undo(self):
        self.write.ready()
        self.write.run()
        self.write.settle()


class Filtered(Op):
    """An operation of which only the allocations with the code of
    stack_filter() on the stack fail (the stack trace filter, as
    CpuHotplug's), the irq_spread library's by default: nearly all of an
    ethtool -L's or a link change's are net core's and netdevsim's,
    absorbed or returned as upstream does."""

    def stack_filter(self):
        """require()'s text, depth and reject."""
        return (library_text(),)

    def prepare(self):
        self.saved = {}
        require(self.saved, *self.stack_filter())

    def finish(self):
        unrequire(self.saved)


class Channels(Filtered):
    def __init__(self, dev, n):
        self.dev, self.n = dev, n
        self.desc = "ethtool -L combined %d (the library's allocations)" % n

    def state(self):
        return self.dev.state()

    def ready(self):
        self.sock = inet_socket()

    def run(self):
        try:
            return errno_of(lambda: ethtool_channels(self.dev.ifname, self.n,
                                                     self.sock))
        finally:
            self.sock.close()

    def undo(self):
        ethtool_channels(self.dev.ifname, self.dev.queues)


class Link(Filtered):
    def __init__(self, dev, up):
        self.dev, self.up = dev, up
        self.desc = "link %s (the library's allocations)" % (
            "up" if up else "down")

    def prepare(self):
        super().prepare()
        set_link(self.dev.ifname, not self.up)

    def state(self):
        return self.dev.state()

    def ready(self):
        self.sock = inet_socket()

    def run(self):
        try:
            return errno_of(lambda: set_link(self.dev.ifname, self.up,
                                             self.sock))
        finally:
            self.sock.close()

    def undo(self):
        set_link(self.dev.ifname, not self.up)


def events_state(ev):
    """What a write to event IRQ device @ev's class device may change."""
    return (read(ev.policy_file), read(ev.cpus_file),
            tuple(sorted(ev.rows().items())), tuple(ev.affinities()))


class FileWrite(Op):
    """A write of @value to the file @path in one write(); undone by
    writing @back."""

    def __init__(self, desc, path, value, back, state):
        self.desc, self.path, self.value, self.back = desc, path, value, back
        self.state = state

    def ready(self):
        self.fd = os.open(self.path, os.O_WRONLY)

    def run(self):
        try:
            return errno_of(lambda: os.write(self.fd, self.value.encode()))
        finally:
            os.close(self.fd)

    def undo(self):
        write_ok(self.path, self.back)


def class_cpus(ev, cpus):
    """A write of a class device's cpus: netdevsim's event IRQs, a device
    without a netdev."""
    return FileWrite("write of a class device's cpus", ev.cpus_file,
                     fmt_cpulist(cpus), read(ev.cpus_file),
                     lambda: events_state(ev))


def nsim_knob(dev, cpus):
    """A write of netdevsim's fail_irq_affinity knob."""
    path = nsim_fail_knob(dev.id)
    return FileWrite("write of netdevsim's fail_irq_affinity", path,
                     fmt_cpulist(cpus), "\n", lambda: read(path))


class Read(Op):
    """A read of one of the library's files: an errno or the file, and
    nothing changed (@state)."""

    changes = False

    def __init__(self, path, state):
        self.path, self.state = path, state
        self.desc = "read of " + path

    def ready(self):
        self.fd = os.open(self.path, os.O_RDONLY)

    def run(self):
        try:
            return errno_of(lambda: os.read(self.fd, 1 << 20))
        finally:
            os.close(self.fd)

    def undo(self):
        pass


class DevGet(Filtered):
    """netdev netlink dev-get of a netdev: its reply, with the policy and
    CPUs, or an errno, and nothing changed.  Only the allocations of net
    core's irq_spread glue fail (its fill of the policy and CPUs): the
    reply's own are netlink's."""

    changes = False

    def __init__(self, dev):
        self.dev, self.desc = dev, "dev-get (net core's irq_spread fill)"
        self.state = dev.state

    def stack_filter(self):
        return (text_of("napi_irq_spread_"),)

    def run(self):
        return nl_err(lambda: nl_do("dev-get", {"ifindex": self.dev.ifindex}))

    def undo(self):
        pass


_SYMBOLS = []


def text_symbols():
    """The kernel's functions, (address, name) in address order, those of
    .init.text left out (freed after boot); read once."""
    if not _SYMBOLS:
        _SYMBOLS.append(read_text_symbols())
    return _SYMBOLS[0]


def read_text_symbols():
    syms, init = [], {}
    with open("/proc/kallsyms") as f:
        for line in f:
            a, kind, name = line.split()[:3]
            if name in ("_sinittext", "_einittext"):
                init[name] = int(a, 16)
            elif kind in "tT":
                syms.append((int(a, 16), name))
    if len(init) != 2:
        raise Skip("no _sinittext and _einittext in /proc/kallsyms")
    return sorted(x for x in syms
                  if not init["_sinittext"] <= x[0] < init["_einittext"])


def text_of(prefix, skip=None):
    """[start, end) of the code whose functions are named @prefix*, from
    the first to the symbol after the last (in address order, the objects
    of one directory are linked one after the other), those named @skip*
    left out."""
    syms = text_symbols()
    ours = [i for i, (_, name) in enumerate(syms)
            if name.startswith(prefix) and
            not (skip and name.startswith(skip))]
    if not ours or not syms[ours[0]][0]:
        raise Skip("no %s* functions in /proc/kallsyms (or no "
                   "addresses: not root?)" % prefix)
    return syms[ours[0]][0], syms[ours[-1] + 1][0]


def function_text(name):
    """[start, end) of function @name: to the symbol after it."""
    syms = text_symbols()
    for i, (a, sym) in enumerate(syms):
        if sym == name:
            return a, syms[i + 1][0]
    raise Skip("no %s in /proc/kallsyms" % name)


def library_text():
    """The irq_spread library's code, not its KUnit cases' (net core's,
    irq_spread_test_napi_*, are elsewhere)."""
    return text_of("irq_spread_", "irq_spread_test_")


def require(saved, text, depth=None, reject=(None, None)):
    """Fail only allocations with code in @text, [start, end), on the
    stack, within @depth frames if given, and none in @reject (failslab's
    and fail_page_alloc's stack trace filter); what was set goes in
    @saved."""
    for a in ATTRS:
        for f, v in (("require-start", text[0]), ("require-end", text[1]),
                     ("stacktrace-depth", depth),
                     ("reject-start", reject[0]), ("reject-end", reject[1])):
            p = "%s/%s/%s" % (FAULT, a, f)
            if v is not None:
                saved[p] = read(p)
                write_ok(p, "%d" % v)


def unrequire(saved):
    for p, v in saved.items():
        write_ok(p, v)
    saved.clear()


def cpuhp_thread(cpu):
    """The pid of CPU @cpu's hotplug thread, cpuhp/<cpu>, which runs the
    library's CPU hotplug callbacks for it."""
    for pid in os.listdir("/proc"):
        if pid.isdigit() and read_or("/proc/%s/comm" % pid) == "cpuhp/%d" % cpu:
            return int(pid)
    raise Skip("no cpuhp/%d thread" % cpu)


def read_or(path, default=""):
    try:
        return read(path)
    except OSError:
        return default


class CpuHotplug(Op):
    """CPU @cpu offline (@on False) or online: the library's callback
    runs on the CPU's hotplug thread, whose fail-nth is armed, the stack
    trace filter requiring the library's code.  A CPU hotplug step does
    not fail on the library's account: a failed allocation leaves a
    placement that holds (every vector of the device on CPUs it may use,
    none on @cpu offline), logged."""

    def __init__(self, topo, dev, cpu, on):
        self.topo, self.dev, self.cpu, self.on = topo, dev, cpu, on
        self.desc = "CPU %d %s (cpuhp/%d)" % (cpu, "online" if on else
                                               "offline", cpu)
        self.path = "%s/cpu%d/online" % (SYS_CPU, cpu)
        self.saved = {}

    def prepare(self):
        if not self.on:
            write_ok(self.path, "1")
        self.fn = FailNth("/proc/%d/fail-nth" % cpuhp_thread(self.cpu))
        require(self.saved, library_text())
        if self.on:
            write_ok(self.path, "0")

    def finish(self):
        unrequire(self.saved)
        write_ok(self.path, "1")

    def state(self):
        return (read(self.path), self.dev.state())

    def run(self):
        return write(self.path, "1" if self.on else "0")

    def undo(self):
        write_ok(self.path, "0" if self.on else "1")

    def fallback(self, state):
        online = self.topo.online()
        rows = self.dev.rows().values()
        return (state[0] == ("1" if self.on else "0") and
                all(r.cpus and r.cpus <= online for r in rows
                    if r.state == "active"))


class NewDevice(Filtered):
    """Creating a netdevsim device makes about 1200 allocations, nearly
    all of them netdevsim's, devlink's and net core's: only those with the
    irq_spread library on the stack fail (the stack trace filter of
    failslab and fail_page_alloc, require-start and require-end)."""

    text, depth = staticmethod(library_text), None
    reject = staticmethod(lambda: (None, None))

    @classmethod
    def filter(cls):
        """(text, depth, reject) of require()."""
        return cls.text(), cls.depth, cls.reject()

    def __init__(self, node):
        self.node = node
        self.desc = "netdevsim new_device (the library's allocations)"
        self.dir = "%s/devices/netdevsim%d" % (NSIM_BUS, NEW_ID)

    def stack_filter(self):
        return self.filter()

    def fallback(self, state):
        # net core's registration with the library failed: the port
        # exists, with netif_set_affinity_auto()'s spread and a warning,
        # and the library has no row of it (netdev_irq_spread_register()).
        devs, rows = state
        return ("netdevsim%d" % NEW_ID in devs and
                not any(r.device.startswith(sysfs_path(self.dir) + "/")
                        for r in rows))

    def state(self):
        return (tuple(sorted(os.listdir(NSIM_BUS + "/devices"))),
                tuple(devices_table()))

    def ready(self):
        self.fd = os.open(NSIM_BUS + "/new_device", os.O_WRONLY)

    def run(self):
        try:
            return errno_of(lambda: os.write(
                self.fd, b"%d 1 1 %d" % (NEW_ID, self.node)))
        finally:
            os.close(self.fd)

    def settle(self):
        # A probe that failed: the write succeeded (the bus device was
        # added), the device has no port.  Deleted, and then all must be
        # as before: a failure, as if the write had returned it.
        if os.path.exists(self.dir) and not glob.glob(self.dir + "/net/*"):
            write_ok(NSIM_BUS + "/del_device", "%d" % NEW_ID)
            return True
        return False

    def undo(self):
        write_ok(NSIM_BUS + "/del_device", "%d" % NEW_ID)


class NewDeviceNsim(NewDevice):
    """The allocations of netdevsim's IRQ code in new_device: those its
    functions (nsim_irq*: irq.c, irq_fail.c, irqchip.c, irq_events.c)
    make, or what they call, up to 10 frames deep (stacktrace-depth,
    fault injection's own frames counted): the IRQ domain and mappings,
    the requested IRQs, the aRFS map, the knobs."""

    text, depth = staticmethod(lambda: text_of("nsim_irq")), 10
    # Not the interrupt's /proc/irq/N entries: when one of them cannot be
    # made, unregister_irq_proc() warns as it removes them all (genirq's,
    # not fixed here).
    reject = staticmethod(lambda: function_text("register_irq_proc"))

    def __init__(self, node):
        super().__init__(node)
        self.desc = "netdevsim new_device (netdevsim's IRQ allocations)"


def nsim_irqs(dev_id):
    """{name: IRQ} of netdevsim device @dev_id's queue and event IRQs in
    /proc/interrupts (nsim<ID>p<port>-rx<queue>, nsim<ID>-ev<N>), a
    queue IRQ of a pool once per queue that shares it."""
    out = {}
    pat = re.compile(r"\bnsim%d(?:p\d+-rx|-ev)\d+\b" % dev_id)
    with open("/proc/interrupts") as f:
        for line in f:
            m = re.match(r"^\s*(\d+):", line)
            if m:
                for name in pat.findall(line):
                    out[name] = int(m.group(1))
    return out


class PoolDevice:
    """A netdevsim device in pool mode, on @node: made with no port, its
    irq_pool knob set to POOL_VECTORS, so that the RX queues of the ports
    made afterwards (POOL_QUEUES each) take IRQs from an irq_spread pool
    of the device, which its first port creates and which stays until
    the device is deleted (nsim_irq_pool_get()).  Removed by run() at the
    end, as Nsim devices are."""

    def __init__(self, dev_id, node):
        self.id, self.node = dev_id, node
        self.busdev = "%s/devices/netdevsim%d" % (NSIM_BUS, dev_id)
        self.pool_file = "%s/pools/netdevsim%d" % (DEBUGFS, dev_id)
        Nsim.created.append(self)
        self.make()

    def make(self):
        write_ok(NSIM_BUS + "/new_device", "%d 0 %d %d"
                 % (self.id, POOL_QUEUES, self.node))
        self.alive = True
        write_ok("%s/netdevsim%d/irq_pool" % (NSIM_DEBUGFS, self.id),
                 "%d" % POOL_VECTORS)

    def remove(self):
        if self.alive:
            self.alive = False
            write_ok(NSIM_BUS + "/del_device", "%d" % self.id)

    def state(self):
        """Its netdevs, its pool's debugfs file (None: no pool), its
        queues' IRQs, and the library's devices table (pool ports do not
        register: nothing of theirs may appear there)."""
        return (tuple(sorted(os.path.basename(n) for n in
                             glob.glob(self.busdev + "/net/*"))),
                read_or(self.pool_file, None),
                tuple(sorted(nsim_irqs(self.id).items())),
                tuple(devices_table()))


class NewPort(Filtered):
    """new_port @port of pool device @pdev, of which only the allocations
    with @text ([start, end)) on the stack, within @depth frames if given,
    none in @reject, fail; undone by del_port."""

    def __init__(self, pdev, port, what, text, depth=None,
                 reject=(None, None)):
        self.pdev, self.port = pdev, port
        self.desc = "new_port of a pool device (%s)" % what
        self.args = (text, depth, reject)

    def stack_filter(self):
        return self.args

    def state(self):
        return self.pdev.state()

    def ready(self):
        self.fd = os.open(self.pdev.busdev + "/new_port", os.O_WRONLY)

    def run(self):
        try:
            return errno_of(lambda: os.write(self.fd, b"%d" % self.port))
        finally:
            os.close(self.fd)

    def undo(self):
        write_ok(self.pdev.busdev + "/del_port", "%d" % self.port)


def pool_port(pdev, what, text, depth=None, reject=(None, None)):
    """Port 0 of a pool device whose pool has requested vectors: port 1
    holds vectors 2 and 3 (a get for any CPU requests a vector while each
    requested one has ceil((U + 1) / V) users), port 0 was made before
    it and deleted, so that its queues request vectors 0 and 1 again,
    and its del_port releases them.  Vectors 0 and 1: genirq allocates
    the interrupt of hwirq 0 or 1 once, where for a higher hwirq it tries
    again from IRQ 1 after a failed allocation (irq_domain_alloc_descs()),
    which hides the failure.  A failure leaves the port unmade and the
    pool as it was: what the port requested released."""
    return NewPort(pdev, 0, what, text, depth, reject)


class PoolFirst(NewPort):
    """The first port of a pool device, which creates the pool: only the
    allocations of nsim_irq_pool_get() fail, and what it calls up to 8
    frames deep (the pool, its IRQ domain, the library's pool and its
    masks; not the pool's debugfs file).  One that fails leaves no pool
    (nsim_irq_pool_get() frees what it made: the next port is the first
    again); a pool once made stays for the device, so the success is
    undone by deleting the device and making it again, irq_pool set,
    without a pool."""

    def __init__(self, pdev):
        super().__init__(pdev, 0, "the first: its pool created",
                         function_text("nsim_irq_pool_get"), 8)

    def undo(self):
        self.pdev.remove()
        self.pdev.make()


_DEVLINK = []


def devlink_nl():
    """The devlink family, through the YNL library of the kernel tree (one
    socket for the test), its spec not validated."""
    if not _DEVLINK:
        netdev_nl()  # the library's path and site packages
        from pyynl.lib import YnlFamily  # pylint: disable=import-outside-toplevel
        _DEVLINK.append(YnlFamily(DEVLINK_SPEC, schema=""))
    return _DEVLINK[0]


def devlink_reload(dev_id):
    """devlink dev reload netdevsim/netdevsim<@dev_id>, the default action
    (driver reinit), from this thread: 0 or the errno."""
    ynl = devlink_nl()
    from pyynl.lib import NlError  # pylint: disable=import-outside-toplevel
    try:
        ynl.do("reload", {"bus-name": "netdevsim",
                          "dev-name": "netdevsim%d" % dev_id})
        return 0
    except NlError as e:
        return e.error
    except OSError as e:
        return e.errno


class EventsDevice:
    """A netdevsim device on @node with @ports ports of EV_QUEUES queues,
    their links down, and EV_IRQS event IRQs (made at devlink reload),
    which netdevsim registers with irq_spread on the bus device.  Removed
    by run() at the end, as Nsim devices are."""

    def __init__(self, dev_id, ports, node):
        self.id = dev_id
        self.busdev = "%s/devices/netdevsim%d" % (NSIM_BUS, dev_id)
        self.class_dir = ("/sys/class/irq_spread/netdevsim:netdevsim%d"
                          % dev_id)
        write_ok(NSIM_BUS + "/new_device", "%d %d %d %d"
                 % (dev_id, ports, EV_QUEUES, node))
        self.alive = True
        Nsim.created.append(self)
        write_ok("%s/netdevsim%d/event_irqs" % (NSIM_DEBUGFS, dev_id),
                 "%d" % EV_IRQS)
        self.reload_ok()

    def reload_ok(self):
        err = devlink_reload(self.id)
        if err:
            raise OSError(err, "devlink reload netdevsim%d: %s"
                          % (self.id, os.strerror(err)))

    def remove(self):
        if self.alive:
            self.alive = False
            write_ok(NSIM_BUS + "/del_device", "%d" % self.id)

    def state(self):
        """Its netdevs, its event and queue IRQs with their affinity and
        effective affinity, its class device's cpus (None: not
        registered), and its rows in the library's devices table (its
        event IRQs', its port's), by device and vector: a registration
        made again comes last in the table."""
        path = sysfs_path(self.busdev)
        return (tuple(sorted(os.path.basename(n) for n in
                             glob.glob(self.busdev + "/net/*"))),
                tuple((name, irq,
                       read("/proc/irq/%d/smp_affinity_list" % irq),
                       read("/proc/irq/%d/effective_affinity_list" % irq))
                      for name, irq in sorted(nsim_irqs(self.id).items())),
                read_or(self.class_dir + "/cpus", None),
                tuple(sorted((r for r in devices_table()
                              if r.device == path or
                              r.device.startswith(path + "/")),
                             key=lambda r: (r.device, r.vector))))


class Reload(Filtered):
    """devlink reload of EventsDevice @edev, in this thread (YNL), so that
    its fail-nth applies: the ports and the event IRQs torn down, then
    made again, the event IRQs registered with irq_spread again; only the
    allocations with @text ([start, end)) on the stack, within @depth
    frames if given, none in @reject, fail.  A success leaves the state as
    it was.  A failure leaves the devlink instance "reload failed", its
    ports and event IRQs gone (devlink's documented behaviour), and a
    reload without fault injection brings the start state back."""

    changes = False
    recovery = "a reload"

    def __init__(self, edev, what, text, depth=None, reject=(None, None)):
        self.edev = edev
        self.desc = "devlink reload (%s)" % what
        self.args = (text, depth, reject)

    def stack_filter(self):
        return self.args

    def prepare(self):
        # The start: a reload made the device, its vectors placed with
        # the load of every other device as it is now, as each reload
        # of the sweep places them.
        self.edev.reload_ok()
        super().prepare()

    def state(self):
        return self.edev.state()

    def run(self):
        return devlink_reload(self.edev.id)

    def undo(self):
        pass

    def recover(self):
        self.edev.reload_ok()
        return True


def refused_reload(t, topo, edev):
    """A devlink reload whose event IRQs the interrupt core refuses every
    CPU (netdevsim's fail_irq_affinity knob listing each online CPU): the
    attach of the first fails, and so does the reload, with ENOSPC, the
    event IRQs gone; a reload once the knob is cleared brings all back."""
    start = edev.state()
    nsim_fail_irq_affinity(edev.id, topo.online())
    try:
        err = devlink_reload(edev.id)
        gone = edev.state()
    finally:
        nsim_fail_irq_affinity(edev.id, ())
    edev.reload_ok()
    now = edev.state()
    t.result((err, gone != start, now) == (errno.ENOSPC, True, start),
             "devlink reload, every CPU refused to the event IRQs "
             "(fail_irq_affinity): ENOSPC, recovered by a reload",
             "errno %d (%s), state %s after it; after the reload: %s"
             % (err, os.strerror(err), "changed" if gone != start else
                "unchanged", differs(now, start) or "as before"))


def differs(a, b):
    """Where state @a differs from @b, shortly."""
    if isinstance(a, tuple) and isinstance(b, tuple) and len(a) == len(b):
        return "; ".join("[%d] %.200r, want %.200r" % (i, x, y)
                         for i, (x, y) in enumerate(zip(a, b)) if x != y)
    return "%.300r, want %.300r" % (a, b)


def sweep(t, fn, op):
    """Fail each allocation of @op in turn (of the calling thread, or of
    op.fn's task); one check line."""
    op.prepare()
    fn = getattr(op, "fn", None) or fn
    start = op.state()
    op.ready()
    err = op.run()
    op.settle()
    done = op.state()
    if err or (done == start) == op.changes:
        t.result(False, "%s: runs and changes %s" % (
            op.desc, "something" if op.changes else "nothing"),
                 "errno %d" % err)
        return
    op.undo()
    if op.state() != start:
        t.result(False, "%s: undone, as it was" % op.desc,
                 differs(op.state(), start))
        return
    bad, failed, absorbed, late, fell, recovered = [], 0, 0, 0, 0, 0
    n = 0
    while not bad:
        n += 1
        op.ready()
        fn.arm(n)
        err = op.run()
        if not fn.fired():
            op.settle()
            if err or op.state() != done:
                bad.append("allocation %d not failed: errno %d, state %s"
                           % (n, err, "done" if op.state() == done
                              else "other"))
            else:
                op.undo()
            break
        if op.settle() and not err:
            err = errno.ENOMEM
        now = op.state()
        if err:
            failed += 1
            if err not in ERRNOS:
                bad.append("allocation %d: errno %d (%s)"
                           % (n, err, os.strerror(err)))
            elif now == done and op.after_error:
                late += 1
            elif now != start and op.recover():
                recovered += 1
                now = op.state()
                if now != start:
                    bad.append("allocation %d: %s, not recovered by %s: %s"
                               % (n, os.strerror(err), op.recovery,
                                  differs(now, start)))
                    break
            elif now != start:
                bad.append("allocation %d: %s, and the state changed: %s"
                           % (n, os.strerror(err), differs(now, start)))
                break
            if now == start:
                continue
        elif now == done:
            absorbed += 1
        elif op.fallback(now):
            fell += 1
        else:
            bad.append("allocation %d failed, success returned, the "
                       "operation not done: %s" % (n, differs(now, done)))
            break
        op.undo()
        if op.state() != start:
            bad.append("allocation %d: undone, not as it was: %s"
                       % (n, differs(op.state(), start)))
    t.result(not bad, "%s: %d allocations failed in turn: %d returned an "
             "errno with nothing changed, %d an errno after the change, "
             "%s%d were absorbed%s" % (
                 op.desc, failed + absorbed + fell, failed - late - recovered,
                 late, "%d an errno, recovered by %s, " % (
                     recovered, op.recovery) if op.recovery else "",
                 absorbed, ", %d fell back as documented" % fell
                 if fell else ""), "\n".join(bad))


def sweeps(t, fn, ops):
    for op in ops:
        try:
            sweep(t, fn, op)
        finally:
            op.finish()


def pool_sweeps(t, fn, node):
    """new_port on pool devices: a port whose queues request vectors of
    the pool (irq_spread_pool_get()), failing the library's, netdevsim's
    IRQ code's and its BPF offload's allocations; the first port, which
    creates the pool."""
    pdev = PoolDevice(POOL_ID, node)
    for f, port in (("new_port", 0), ("new_port", 1), ("del_port", 0)):
        write_ok("%s/%s" % (pdev.busdev, f), "%d" % port)
    first = PoolDevice(FIRST_ID, node)
    sweeps(t, fn, [
        # Not the IRQs' sysfs directories (/sys/kernel/irq/N), which
        # genirq does without.
        pool_port(pdev, "the library's allocations", library_text(),
                  reject=function_text("kobject_add")),
        pool_port(pdev, "netdevsim's IRQ allocations",
                  *NewDeviceNsim.filter()),
        # Its own, 7 frames deep: not its debugfs files.
        pool_port(pdev, "nsim_bpf_init()'s allocations",
                  function_text("nsim_bpf_init"), 7),
        PoolFirst(first),
    ])
    pdev.remove()
    first.remove()


def reload_sweeps(t, fn, topo, node):
    """devlink reload of a device with event IRQs, failing netdevsim's IRQ
    code's allocations; of one with a port too, failing those of the
    port's IRQs (nsim_irqs_init(), its own and what it calls up to 6
    frames deep), after the event IRQs were made; a reload the interrupt
    core refuses."""
    edev = EventsDevice(RELOAD_ID, 0, node)
    pdev = EventsDevice(RELOAD_PORTS_ID, 1, node)
    sweeps(t, fn, [
        Reload(edev, "event IRQs, netdevsim's IRQ allocations",
               *NewDeviceNsim.filter()),
        Reload(pdev, "a port and event IRQs, the port's IRQ allocations",
               function_text("nsim_irqs_init"), 6),
    ])
    refused_reload(t, topo, edev)
    edev.remove()
    pdev.remove()


def fail_next(text):
    """Fail failslab's next allocation with @text on the stack, in any
    task (a work item's kworker, which fail-nth cannot arm): probability
    100, times 1.  Returns what to give fail_none()."""
    saved = {}
    require(saved, text)
    for f, v in (("times", "1"), ("probability", "100")):
        p = "%s/failslab/%s" % (FAULT, f)
        saved[p] = read(p)
        write_ok(p, v)
    return saved


def fail_none(saved):
    """Undo fail_next(): no failure first, then no filter."""
    p = "%s/failslab/probability" % FAULT
    write_ok(p, saved.pop(p))
    unrequire(saved)


def xps_work(t, topo, node):
    """The work that keeps XPS maps on the IRQs' CPUs (netif_xps_auto_run()
    from netdev_work, scheduled as netdevsim's xps_auto is turned on), with
    its CPU mask's allocation failing (CPUMASK_OFFSTACK): no map set,
    tx-0's written one stays; and with the first allocation of tx-0's map
    failing: tx-0's stays, said once, the other queues' are set.  Each
    waits for failslab's times to reach 0 (the failure happened)."""
    dev = Nsim(XPS_ID, QUEUES, node)
    # Nothing else schedules the work: the placement's notifications done.
    t.result(wait_not_due(dev.irqs), "XPS work: the device's notifications "
             "handled")
    knob = glob.glob("%s/netdevsim%d/ports/*/xps_auto" % (NSIM_DEBUGFS,
                                                          dev.id))[0]
    online = sorted(topo.online())
    mine = fmt_hexmask({online[0]}, online[-1] + 1)
    tx = lambda q: "%s/queues/tx-%d/xps_cpus" % (dev.sysfs, q)
    maps = lambda: [parse_hexmask(read(tx(q))) for q in range(QUEUES)]
    for fn, what in (("netif_xps_auto_run", "the work's CPU mask"),
                     ("__netif_set_xps_queue", "tx-0's map")):
        write_ok(knob, "0")
        write_ok(tx(0), mine)
        before = maps()
        log = Kmsg()
        saved = fail_next(function_text(fn))
        try:
            write_ok(knob, "1")
            fired = wait_for(lambda: read(FAULT + "/failslab/times") == "0")
        finally:
            fail_none(saved)
        t.result(fired, "XPS work, %s failing: failed" % what)
        if fn == "netif_xps_auto_run":
            t.eq(maps(), before, "XPS work, %s failing: no map set" % what)
        else:
            t.result(wait_for(lambda: log.has("XPS map of TX queue 0 not "
                                              "set (-12)")),
                     "XPS work, %s failing: said" % what)
            t.eq(maps(), [before[0]] + dev.affinities()[1:],
                 "XPS work, %s failing: tx-0's as written, the others set"
                 % what)
        log.close()
    write_ok(knob, "0")
    write_ok(knob, "1")
    t.result(wait_for(lambda: maps() == dev.affinities()),
             "XPS work without failures: every map on its IRQ's CPUs")
    dev.remove()


def test(t):
    topo, _ = machine(t)
    node = topo.nodes[0]
    cpus = sorted(topo.eligible())
    probe = Nsim(PROBE_ID, QUEUES, node)
    baseline = probe.affinities()
    probe.remove()
    dev = Nsim(DEV_ID, QUEUES, node)
    # On another node: its load leaves the placement of dev's alone.
    ev = NsimEvents(EV_ID, 2, topo.nodes[-1])
    saved = fault_setup()
    fn = FailNth()
    last = cpus[-1]
    # A CPU of the device's node with a vector of its own (numa: one CPU
    # each): offline, its vector's mask is empty and placed afresh.
    gone = max(c for c in topo.node_cpus[node] if pluggable(c))
    ops = [
        DevSet(dev, "irq-policy core", {"irq-policy": "core"},
               {"irq-policy": "numa"}),
        DevSet(dev, "irq-cpus %d" % last,
               {"irq-cpus": cpus_to_words([last])},
               {"irq-cpus": cpus_to_words(cpus)}),
        AdminWrite(dev, 1, last),
        ToPolicy(dev, 1, last),
        Channels(dev, 2),
        # With the link up: a detached IRQ is nobody's to put back.
        CpuHotplug(topo, dev, gone, False),
        CpuHotplug(topo, dev, gone, True),
        Link(dev, False),
        Link(dev, True),
        NewDevice(node),
        NewDeviceNsim(node),
        class_cpus(ev, [last]),
        Read(ev.cpus_file, lambda: events_state(ev)),
        Read("/sys/class/irq_spread/irqs", dev.state),
        Read(DEVICES, dev.state),
        Read(NOTIFIERS, dev.state),
        DevGet(dev),
        nsim_knob(dev, [last]),
        Read(nsim_fail_knob(dev.id), dev.state),
    ]
    parts = os.environ.get("IRQ_SPREAD_FAULT", "ops devices").split()
    try:
        if "ops" in parts:
            sweeps(t, fn, ops)
        dev.remove()
        ev.remove()
        if "devices" in parts:
            pool_sweeps(t, fn, node)
            reload_sweeps(t, fn, topo, topo.nodes[-1])
            xps_work(t, topo, node)
    finally:
        for p, v in saved.items():
            write(p, v)
    probe = Nsim(PROBE_ID, QUEUES, node)
    t.eq(probe.affinities(), baseline, "a device made after the failures "
         "is placed as one made before: no load leaked")


run("irq_spread allocation failures", test)
PY
