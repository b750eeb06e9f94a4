# SPDX-License-Identifier: GPL-2.0
"""The virtio-net NICs of the irq_spread selftests, and traffic through them.

The project's guest (pipeline/run-guest.sh with VIRTIO_NETNS) has four
virtio-net PCI NICs on pcie.0 at fixed addresses, their taps bridged on the
host (pipeline/virtio-nics.sh), so that frames one sends reach the others:

  00:10.0  "dut", the device under test, MAC 52:54:00:15:00:02, 4 queue
           pairs; the tests put it on node 2;
  00:11.0  "peer", MAC 52:54:00:15:00:00, 4 queue pairs, on node 0;
  00:12.0  "shared", MAC 52:54:00:15:00:01, 4 queue pairs but 3 MSI-X
           vectors, too few for one per virtqueue (config + 8): virtio-pci
           shares one vector between all virtqueues (virtioN-config,
           virtioN-virtqueues in /proc/interrupts), so that no virtqueue
           has an interrupt of its own;
  00:13.0  "xdp", MAC 52:54:00:15:00:03, 17 queue pairs: XDP takes
           nr_cpu_ids (16) queue pairs beside those in use, which only a
           NIC with 17 or more has, once ethtool -L leaves it one.

A NIC's node is its PCI function's numa_node, written before virtio-pci
binds it (the firmware gives the guest's PCI devices no node); the virtio
device and the netdev inherit it.  A NIC with a vector per virtqueue has
virtioN-input.K (RX) and virtioN-output.K (TX) in /proc/interrupts.

pci-stub holds the NICs' PCI functions from boot (pci-stub.ids=, in
pipeline/check.sh), so that nothing else sees their load; nic() binds one
to virtio-pci, which makes its virtio device, which virtio_net binds, and
run_virtio() unbinds them again.

Net core places the interrupts (virtio_net opts in with
netif_set_affinity_auto() and netif_set_xps_auto()): it registers the
netdev with irq_spread, whose debugfs table lists the netdev's vectors
under the netdev's sysfs path: spread vector K is NAPI index K, the RX
virtqueue of pair K, and vector N + K the TX virtqueue of pair K, a post
vector that follows K, N the NIC's queue pairs.  The policy and the CPUs
the netdev may use are /sys/class/net/<if>/irq_spread/{policy,cpus}.  XPS
maps every CPU to one TX queue in use (net/core/napi_affinity_xps.c).

Frames are IPv6 UDP, link-local, to an address and port nobody uses: the
host's tap picks the RX queue by flow hash, so FLOWS source ports reach
every RX queue; the guest's stack drops them.  TX goes out of the queue XPS
maps to the sending CPU.
"""

import ctypes
import errno
import os
import signal
import socket
import struct
import time

import irq_spread_lib
from irq_spread_lib import (SYS_CPU, Skip, device_rows, fmt_cpulist,
                            irq_affinity, parse_cpulist, parse_hexmask, read,
                            run, set_link, sysfs_path, wait_for, write,
                            write_ok, xps_cpus)

PCI_BUS = "/sys/bus/pci"
VIRTIO_PCI = PCI_BUS + "/drivers/virtio-pci"
PCI_STUB = PCI_BUS + "/drivers/pci-stub"
VIRTIO_BUS = "/sys/bus/virtio"
DRIVER = VIRTIO_BUS + "/drivers/virtio_net"
# Virtio's PCI vendor, and virtio-net's device IDs: transitional, modern.
VIRTIO_VENDOR, VIRTIO_NET_IDS = 0x1af4, (0x1000, 0x1041)
QUEUES = 4
# role: (PCI function, MAC, queue pairs), as run-guest.sh makes them.
NICS = {
    "dut": ("0000:00:10.0", "52:54:00:15:00:02", QUEUES),
    "peer": ("0000:00:11.0", "52:54:00:15:00:00", QUEUES),
    "shared": ("0000:00:12.0", "52:54:00:15:00:01", QUEUES),
    "xdp": ("0000:00:13.0", "52:54:00:15:00:03", 17),
}
ETH_P_IPV6 = 0x86dd
FLOWS = 64
UDP_PORT = 9  # discard
IN_PORT, OUT_PORT = 20000, 40000
NO_NIC = ("no virtio-net NIC %s at %s: the guest was booted without the "
          "NICs (pipeline/virtio-nics.sh could not make the host's taps, "
          "or not the project's guest)")


def virtio_net_function(pci):
    """Whether PCI function @pci exists and is a virtio-net NIC."""
    p = "%s/devices/%s/" % (PCI_BUS, pci)
    return (os.path.isdir(p) and
            int(read(p + "vendor"), 16) == VIRTIO_VENDOR and
            int(read(p + "device"), 16) in VIRTIO_NET_IDS)


def interrupts():
    """{irq: (name, {cpu: count})} of /proc/interrupts, by the header's
    CPU columns (offline CPUs have none).  The file is not read at once:
    a line written after a CPU went offline or online has a column less
    or more than the header, and its counts are left out (empty)."""
    out = {}
    with open("/proc/interrupts") as f:
        cpus = [int(c[3:]) for c in f.readline().split()]
        for line in f:
            head, _, rest = line.partition(":")
            if not head.strip().isdigit():
                continue
            f_ = rest.split()
            n = 0
            while n < len(f_) and f_[n].isdigit():
                n += 1
            counts = dict(zip(cpus, map(int, f_))) if n == len(cpus) else {}
            out[int(head)] = (f_[-1] if len(f_) > n else "", counts)
    return out


class VirtioNic:
    """A virtio-net NIC, its PCI function bound to virtio-pci and its
    virtio device to virtio_net: its netdev, its vectors.  mode is "msix"
    (a vector per virtqueue: rx and tx list the IRQs of each pair),
    "shared" (one vector for every virtqueue: rx and tx hold None, irqs
    the config and the virtqueues' IRQs) or "intx"."""

    bound = []

    def __init__(self, role, node=None):
        self.role = role
        self.pci, self.want_mac, self.queues = NICS[role]
        self.pci_dev = "%s/devices/%s" % (PCI_BUS, self.pci)
        self.bind(node)

    def bind(self, node=None):
        """Bind virtio-pci, the PCI function on @node first if given."""
        drv = self.pci_dev + "/driver"
        if os.path.exists(drv):
            if os.path.basename(os.readlink(drv)) != "virtio-pci":
                write_ok(drv + "/unbind", self.pci)
        if node is not None and not os.path.exists(drv):
            write_ok(self.pci_dev + "/numa_node", str(node))
        if not os.path.exists(drv):
            write_ok(VIRTIO_PCI + "/bind", self.pci)
        VirtioNic.bound.append(self)
        virtio = [d for d in os.listdir(self.pci_dev)
                  if d.startswith("virtio")]
        if len(virtio) != 1:
            raise RuntimeError("%s: virtio devices %s" % (self.pci, virtio))
        name = self.name = virtio[0]
        self.sysfs_dev = "%s/%s" % (self.pci_dev, name)
        if not wait_for(lambda: os.path.isdir(self.sysfs_dev + "/net"), 5):
            raise RuntimeError("%s: virtio_net did not bind" % name)
        nets = os.listdir(self.sysfs_dev + "/net")
        if len(nets) != 1:
            raise RuntimeError("%s: netdevs %s" % (name, nets))
        self.ifname = nets[0]
        self.sysfs = "/sys/class/net/" + self.ifname
        self.ifindex = int(read(self.sysfs + "/ifindex"))
        self.path = sysfs_path(self.sysfs)
        self.group = self.sysfs + "/irq_spread"
        self.policy_file = self.group + "/policy"
        self.cpus_file = self.group + "/cpus"
        self.node = int(read(self.pci_dev + "/numa_node"))
        self.address = read(self.sysfs + "/address")
        if self.address != self.want_mac:
            raise RuntimeError("%s at %s: MAC %s, want %s: not the NIC "
                               "run-guest.sh puts there"
                               % (self.role, self.pci, self.address,
                                  self.want_mac))
        self.mac = bytes.fromhex(self.address.replace(":", ""))
        self.find_irqs()

    def find_irqs(self):
        """The NIC's IRQs, by name in /proc/interrupts (a freeze and
        restore requests them again)."""
        names = {}
        for irq, (action, _) in interrupts().items():
            if action == self.name:
                names["intx"] = irq
            elif action.startswith(self.name + "-"):
                names[action[len(self.name) + 1:]] = irq
        q = self.queues
        self.rx = [names.get("input.%d" % k) for k in range(q)]
        self.tx = [names.get("output.%d" % k) for k in range(q)]
        if "virtqueues" in names:
            self.mode = "shared"
            self.irqs_shared = [names["config"], names["virtqueues"]]
        elif "intx" in names:
            self.mode = "intx"
            self.irqs_shared = [names["intx"]]
        else:
            self.mode = "msix"
            self.irqs_shared = []
            if None in self.rx + self.tx:
                raise RuntimeError("%s: queue IRQs %s in /proc/interrupts, "
                                   "want input.0-%d and output.0-%d"
                                   % (self.name, sorted(names), q - 1, q - 1))

    def move_to(self, node):
        """Put the NIC's PCI function on @node, bound again if it moved."""
        if self.node == node:
            return
        self.unbind()
        self.bind(node)

    def unbind(self):
        if self in VirtioNic.bound:
            VirtioNic.bound.remove(self)
            write_ok(VIRTIO_PCI + "/unbind", self.pci)

    # The IRQs of queue pair @q: RX then TX.
    def irqs(self, q):
        return (self.rx[q], self.tx[q])

    def masks(self, irqs):
        return [irq_affinity(i) for i in irqs]

    # For irq_spread_lib.check_xps(): the TX queues and their IRQs' CPUs.
    def xps_file(self, q):
        return "%s/queues/tx-%d/xps_cpus" % (self.sysfs, q)

    def xps(self, q):
        return xps_cpus(self.sysfs, q)

    def affinity(self, q):
        return irq_affinity(self.tx[q])

    def rows(self):
        return device_rows(self.path)

    def stat(self, what):
        return int(read("%s/statistics/%s" % (self.sysfs, what)))

    def rx_queues(self):
        """The netdev's real number of RX queues, from sysfs."""
        return len([d for d in os.listdir(self.sysfs + "/queues")
                    if d.startswith("rx-")])


# The hand tables apply with no irq_spread device but the test's own
# (irq_spread_lib's Topology.tables(), through foreign_devices()): the NICs a
# virtio test bound are its own, as the netdevsim devices it made are, and a
# netdev with an empty irq_spread directory (a kernel that shows the group
# to every netdev, its files only to those net core places) places nothing.
_foreign_devices = irq_spread_lib.foreign_devices


def foreign_devices():
    """irq_spread_lib.foreign_devices() less the NICs bound here and the
    netdevs net core does not place."""
    ours = {n.path for n in VirtioNic.bound}
    rows = {r.device for r in irq_spread_lib.devices_table()}
    placed = lambda d: (d.startswith("pool ") or d in rows or
                        os.path.exists("/sys%s/irq_spread/policy" % d))
    return [d for d in _foreign_devices() if d not in ours and placed(d)]


irq_spread_lib.foreign_devices = foreign_devices


def readd(role):
    """Remove PCI function @role and find it again (bus rescan), pci-stub's
    again: so that it is the last device the PM core suspends, first."""
    pci = NICS[role][0]
    dev = "%s/devices/%s" % (PCI_BUS, pci)
    write_ok(dev + "/remove", "1")
    if not wait_for(lambda: not os.path.exists(dev), 10):
        raise RuntimeError("%s: not removed" % pci)
    write_ok(PCI_BUS + "/rescan", "1")
    if not wait_for(lambda: os.path.exists(dev + "/vendor"), 10):
        raise RuntimeError("%s: not found again by the rescan" % pci)


def nic(role, node=None, up=True):
    """The NIC of @role (NICS), bound, on @node if given, its link up if
    @up; Skip if the guest has no such NIC."""
    if not os.path.isdir(DRIVER) or not os.path.isdir(VIRTIO_PCI):
        raise Skip("no virtio_net or virtio-pci driver")
    pci = NICS[role][0]
    if not virtio_net_function(pci):
        raise Skip(NO_NIC % (role, pci))
    n = VirtioNic(role, node)
    if node is not None:
        n.move_to(node)
    if up:
        set_link(n.ifname, True)
    return n


def nics():
    """(device under test on node 2, peer on node 0), bound and up; Skip if
    the guest has no such NICs."""
    return nic("dut", 2), nic("peer", 0)


def csum(data):
    if len(data) % 2:
        data += b"\0"
    s = sum(struct.unpack("!%dH" % (len(data) // 2), data))
    while s >> 16:
        s = (s & 0xffff) + (s >> 16)
    return ~s & 0xffff


def udp6_frame(dst_mac, src_mac, sport):
    """An Ethernet frame of IPv6 UDP from fe80::1:1 port @sport to fe80::1:2
    port UDP_PORT, with its checksum."""
    src = bytes.fromhex("fe800000000000000000000000010001")
    dst = bytes.fromhex("fe800000000000000000000000010002")
    payload = bytes(18)
    length = 8 + len(payload)
    pseudo = src + dst + struct.pack("!IxxxB", length, 17)
    udp = struct.pack("!HHHH", sport, UDP_PORT, length, 0) + payload
    udp = udp[:6] + struct.pack("!H", csum(pseudo + udp) or 0xffff) + udp[8:]
    ip6 = struct.pack("!IHBB", 6 << 28, length, 17, 64) + src + dst
    return dst_mac + src_mac + struct.pack("!H", ETH_P_IPV6) + ip6 + udp


class Traffic:
    """Frames from one NIC to another, on FLOWS flows, source ports @port
    on.  A tap sends the frames of a flow that the guest sent it last to
    the queue it came from: each direction needs flows of its own."""

    def __init__(self, src, dst, port):
        self.src, self.dst = src, dst
        self.frames = [udp6_frame(dst.mac, src.mac, port + i)
                       for i in range(FLOWS)]

    def send(self, rounds=1, cpu=None):
        """Send every flow's frame @rounds times out of @src, from @cpu if
        given (XPS then picks the TX queue of that CPU)."""
        old = os.sched_getaffinity(0)
        if cpu is not None:
            os.sched_setaffinity(0, {cpu})
        try:
            with socket.socket(socket.AF_PACKET, socket.SOCK_RAW) as s:
                s.bind((self.src.ifname, ETH_P_IPV6))
                for _ in range(rounds):
                    for f in self.frames:
                        s.send(f)
        finally:
            os.sched_setaffinity(0, old)


def xps_table(spec):
    """A hand table of XPS maps, one hex mask per TX queue in use, as
    xps_cpus reads (without leading zeros): "1111 2222 4444 8888"."""
    return [parse_hexmask(m) for m in spec.split()]


def fmt_xps(maps):
    return " ".join("-" if m is None else fmt_cpulist(m) for m in maps)


def check_xps_table(t, nic, want, what):
    """XPS of the TX queues in use is the hand table @want (polled: net
    core sets the maps from a work item), every online CPU in exactly one
    map (XPS maps hold online CPUs only); the TX queues not in use are not
    in sysfs."""
    active = len(want)
    got = lambda: [nic.xps(q) for q in range(nic.queues)]
    exp = want + [None] * (nic.queues - active)
    ok = wait_for(lambda: got() == exp, 5)
    t.result(ok, "%s: XPS maps (hand table)" % what,
             "XPS %s, want %s" % (fmt_xps(got()), fmt_xps(exp)))
    cpus = [c for m in got()[:active] if m for c in m]
    online = parse_cpulist(read(SYS_CPU + "/online"))
    t.eq((sorted(cpus), len(set(cpus))), (sorted(online), len(online)),
         "%s: XPS maps all %d online CPUs, each to one TX queue"
         % (what, len(online)))


def interrupt_deltas(before, after, irqs):
    """{irq: {cpu: interrupts between the two interrupts() readings}}."""
    out = {}
    for irq in irqs:
        b = before.get(irq, ("", {}))[1]
        a = after[irq][1]
        out[irq] = {c: a[c] - b.get(c, 0) for c in a if a[c] - b.get(c, 0)}
    return out


def make_interrupt(dut, peer, irqs, cpus_of, rounds=1, tries=10):
    """Traffic until each of @irqs (the DUT's) interrupted: RX from the
    peer's frames, TX sent from a CPU of the queue (@cpus_of(irq)).  Return
    the interrupt deltas per IRQ, per CPU."""
    base = interrupts()
    into = Traffic(peer, dut, IN_PORT)
    out = Traffic(dut, peer, OUT_PORT)
    for _ in range(tries):
        into.send(rounds)
        for irq in irqs:
            if irq in dut.tx:
                out.send(rounds, cpu=min(cpus_of(irq)))
        time.sleep(0.2)
        d = interrupt_deltas(base, interrupts(), irqs)
        if all(d[i] for i in irqs):
            break
    return d


# ---------------------------------------------------------------------------
# The kernel log, read from /dev/kmsg

SPLATS = ("BUG: ", "WARNING: ", "Oops", "Kernel panic",
          "general protection fault", "UBSAN: ", "INFO: possible ",
          "kernel BUG at", "Call Trace:", "inconsistent lock state")


class Kmsg:
    """The kernel's log records from the moment made on (seen: all read)."""

    def __init__(self):
        self.fd = os.open("/dev/kmsg", os.O_RDONLY | os.O_NONBLOCK)
        os.lseek(self.fd, 0, os.SEEK_END)
        self.seen = []

    def lines(self):
        """The messages logged since the last call (or since made)."""
        out = []
        while True:
            try:
                rec = os.read(self.fd, 8192)
            except BlockingIOError:
                self.seen += out
                return out
            except OSError as e:
                if e.errno == errno.EPIPE:  # overwritten: go on
                    continue
                raise
            head, _, msg = rec.decode(errors="replace").partition(";")
            out.append(msg.split("\n")[0])

    def splats(self):
        """The splat lines logged since the last call."""
        return [m for m in self.lines() if any(s in m for s in SPLATS)]

    def close(self):
        os.close(self.fd)


# ---------------------------------------------------------------------------
# XDP: a program returning XDP_PASS, loaded with bpf() and attached with
# rtnetlink (no clang, libbpf or bpftool needed)

SYS_BPF = 321  # x86_64
BPF_PROG_LOAD = 5
BPF_PROG_TYPE_XDP = 6
XDP_PASS = 2
RTM_NEWLINK, RTM_GETLINK, RTM_SETLINK = 16, 18, 19
NLM_F_REQUEST, NLM_F_ACK = 1, 4
NLMSG_ERROR = 2
IFLA_XDP = 43
IFLA_XDP_FD, IFLA_XDP_ATTACHED, IFLA_XDP_FLAGS = 1, 2, 3
NLA_F_NESTED = 1 << 15
XDP_FLAGS_DRV_MODE = 1 << 2
XDP_ATTACHED_DRV = 1

libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long


def xdp_pass_prog():
    """A loaded XDP program "r0 = XDP_PASS; exit": its fd."""
    insns = struct.pack("<BBhi", 0xb7, 0, 0, XDP_PASS) + \
        struct.pack("<BBhi", 0x95, 0, 0, 0)
    insns_buf = ctypes.create_string_buffer(insns, len(insns))
    lic = ctypes.create_string_buffer(b"GPL")
    log = ctypes.create_string_buffer(4096)
    attr = struct.pack("<IIQQIIQII16sII", BPF_PROG_TYPE_XDP, 2,
                       ctypes.addressof(insns_buf), ctypes.addressof(lic),
                       1, len(log), ctypes.addressof(log), 0, 0,
                       b"irq_spread_pass", 0, 0)
    buf = ctypes.create_string_buffer(attr, 128)
    fd = libc.syscall(SYS_BPF, BPF_PROG_LOAD, buf, 128)
    if fd < 0:
        err = ctypes.get_errno()
        raise OSError(err, "BPF_PROG_LOAD: %s: %s"
                      % (os.strerror(err), log.value.decode(errors="replace")))
    return fd


def nla(kind, payload):
    n = 4 + len(payload)
    return struct.pack("=HH", n, kind) + payload + bytes(-n % 4)


def rtnl(msg_type, ifindex, attrs=b"", flags=NLM_F_REQUEST | NLM_F_ACK):
    """One rtnetlink request about link @ifindex; return the replies'
    attributes {type: payload} (of an RTM_NEWLINK), raising its error."""
    body = struct.pack("=BxHiII", socket.AF_UNSPEC, 0, ifindex, 0, 0) + attrs
    msg = struct.pack("=IHHII", 16 + len(body), msg_type, flags, 1, 0) + body
    with socket.socket(socket.AF_NETLINK, socket.SOCK_RAW,
                       socket.NETLINK_ROUTE) as s:
        s.bind((0, 0))
        s.send(msg)
        out = {}
        while True:
            data = s.recv(65536)
            off = 0
            while off < len(data):
                n, kind = struct.unpack_from("=IH", data, off)
                if kind == NLMSG_ERROR:
                    err = -struct.unpack_from("=i", data, off + 16)[0]
                    if err:
                        raise OSError(err, "rtnetlink %d on ifindex %d: %s"
                                      % (msg_type, ifindex, os.strerror(err)))
                    return out
                if kind == RTM_NEWLINK:
                    a = off + 16 + 16
                    while a < off + n:
                        alen, akind = struct.unpack_from("=HH", data, a)
                        out[akind & ~NLA_F_NESTED] = data[a + 4:a + alen]
                        a += (alen + 3) & ~3
                    if not flags & NLM_F_ACK:
                        return out
                off += (n + 3) & ~3


def xdp_set(ifindex, fd):
    """Attach program @fd to link @ifindex in driver mode (-1: detach)."""
    attrs = nla(IFLA_XDP_FD, struct.pack("=i", fd)) + \
        nla(IFLA_XDP_FLAGS, struct.pack("=I", XDP_FLAGS_DRV_MODE))
    rtnl(RTM_SETLINK, ifindex, nla(IFLA_XDP | NLA_F_NESTED, attrs))


def xdp_attached(ifindex):
    """IFLA_XDP_ATTACHED of link @ifindex: 0 none, 1 in driver mode."""
    xdp = rtnl(RTM_GETLINK, ifindex, flags=NLM_F_REQUEST).get(IFLA_XDP, b"")
    a = 0
    while a < len(xdp):
        alen, akind = struct.unpack_from("=HH", xdp, a)
        if akind == IFLA_XDP_ATTACHED:
            return xdp[a + 4]
        a += (alen + 3) & ~3
    return 0


class Xdp:
    """An XDP_PASS program on a NIC while in use (with statement)."""

    def __init__(self, nic):
        self.nic = nic
        self.fd = None

    def __enter__(self):
        self.fd = xdp_pass_prog()
        xdp_set(self.nic.ifindex, self.fd)
        return self

    def __exit__(self, *exc):
        self.off()

    def off(self):
        if self.fd is not None:
            xdp_set(self.nic.ifindex, -1)
            os.close(self.fd)
            self.fd = None


# ---------------------------------------------------------------------------
# Freeze and restore of one NIC through the PM core

POWER = "/sys/power"
CLOCK_BOOTTIME_ALARM = 9
SIGEV_SIGNAL = 0


class _Sigevent(ctypes.Structure):
    _fields_ = [("value", ctypes.c_void_p), ("signo", ctypes.c_int),
                ("notify", ctypes.c_int), ("pad", ctypes.c_int * 12)]


class _Itimerspec(ctypes.Structure):
    _fields_ = [("interval_s", ctypes.c_long), ("interval_ns", ctypes.c_long),
                ("value_s", ctypes.c_long), ("value_ns", ctypes.c_long)]


def freeze_restore(nic):
    """Put @nic's virtio-net driver through freeze and restore, and only
    it: return the log lines of the PM core's device callbacks, or raise
    Skip saying why it cannot be done here.

    The only way in is a system sleep: echo devices > /sys/power/pm_test;
    echo freeze > /sys/power/state suspends every device and resumes them.
    That would reset the guest's root and results filesystems too:
    virtio-pci suspends a virtio device it cannot keep in D3 with
    virtio_pci_freeze(), and virtio_device_restore() resets it, but 9p has
    no restore callback to set its virtqueues up again.  So the suspend is
    made to stop right after @nic: its PCI function was added last (
    readd()), the PM core suspends devices in the reverse order they were
    added, one at a time with pm_async 0, and the next device with a
    suspend callback is the alarm timer's, which fails with -EBUSY when an
    alarm is due within 2 s: a periodic CLOCK_BOOTTIME_ALARM timer whose
    signal is ignored, which the kernel rearms itself every 0.2 s, keeps
    one due.  The PM core then resumes what it suspended, @nic alone, and
    the write fails with EBUSY.  pm_print_times logs each device callback,
    for the caller to check."""
    for f in ("state", "pm_test", "pm_async", "pm_print_times"):
        if not os.path.exists("%s/%s" % (POWER, f)):
            raise Skip("no %s/%s: kernel without CONFIG_SUSPEND and "
                       "CONFIG_PM_DEBUG" % (POWER, f))
    if "freeze" not in read(POWER + "/state").split():
        raise Skip("no freeze in %s/state" % POWER)
    alarm = [d for d in os.listdir("/sys/bus/platform/devices")
             if d.startswith("alarmtimer")]
    if len(alarm) != 1:
        raise Skip("no alarmtimer device (no RTC that can wake the system): "
                   "the suspend could not be stopped after the NIC")
    timer = ctypes.c_void_p()
    ev = _Sigevent(signo=signal.SIGUSR2, notify=SIGEV_SIGNAL)
    old_handler = signal.signal(signal.SIGUSR2, signal.SIG_IGN)
    if libc.timer_create(CLOCK_BOOTTIME_ALARM, ctypes.byref(ev),
                         ctypes.byref(timer)):
        err = ctypes.get_errno()
        signal.signal(signal.SIGUSR2, old_handler)
        raise Skip("no CLOCK_BOOTTIME_ALARM timer: %s" % os.strerror(err))
    saved = {f: read("%s/%s" % (POWER, f))
             for f in ("pm_async", "pm_print_times")}
    saved["pm_test"] = [w[1:-1] for w in read(POWER + "/pm_test").split()
                        if w.startswith("[")][0]
    log = Kmsg()
    try:
        period = _Itimerspec(0, 200000000, 0, 200000000)
        if libc.timer_settime(timer, 0, ctypes.byref(period), None):
            raise OSError(ctypes.get_errno(), "timer_settime")
        now = _Itimerspec()
        libc.timer_gettime(timer, ctypes.byref(now))
        if not (now.value_s or now.value_ns) or now.interval_ns != 200000000:
            raise RuntimeError("the alarm timer is not armed: not suspending")
        write_ok(POWER + "/pm_async", "0")
        if read(POWER + "/pm_async") != "0":
            raise RuntimeError("pm_async still on: not suspending")
        write_ok(POWER + "/pm_test", "devices")
        write_ok(POWER + "/pm_print_times", "1")
        err = write(POWER + "/state", "freeze")
        if err != errno.EBUSY:
            raise RuntimeError("echo freeze > /sys/power/state: %s, want "
                               "EBUSY from the alarm timer's suspend"
                               % (os.strerror(err) if err else "success"))
    finally:
        libc.timer_delete(timer)
        signal.signal(signal.SIGUSR2, old_handler)
        for f, v in saved.items():
            write("%s/%s" % (POWER, f), v)
        lines = log.lines()
        log.close()
    return [m for m in lines if "PM: " in m or "PM:" in m]


def run_virtio(name, test, cleanup=None):
    """run() for a test of the virtio-net NICs: unbinds them at the end."""
    def done():
        if cleanup:
            cleanup()
        for n in list(VirtioNic.bound):
            n.unbind()
    run(name, test, done)


__all__ = ["VirtioNic", "Traffic", "Kmsg", "Xdp", "nic", "nics", "readd",
           "interrupts", "check_xps_table", "xps_table", "fmt_xps",
           "interrupt_deltas", "make_interrupt", "run_virtio",
           "freeze_restore", "xdp_attached", "QUEUES", "IN_PORT", "NICS",
           "write"]
