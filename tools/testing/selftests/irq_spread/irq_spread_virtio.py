# SPDX-License-Identifier: GPL-2.0
"""The virtio-net NICs of the irq_spread selftests, and traffic through them.

The project's guest (pipeline/run-guest.sh with VIRTIO_NETNS) has two
virtio-net PCI NICs with 4 queue pairs each, their taps bridged on the
host, so that frames one sends reach the other: the device under test, MAC
52:54:00:15:00:02, which the tests put on node 2, and a peer, MAC
52:54:00:15:00:00, on node 0.  A NIC's node is its PCI function's
numa_node, written before virtio-pci binds it (the firmware gives the
guest's PCI devices no node).  Each queue pair has an MSI-X vector per
virtqueue: virtioN-input.K (RX) and virtioN-output.K (TX) in
/proc/interrupts.

pci-stub holds the NICs' PCI functions from boot (pci-stub.ids=, in
pipeline/check.sh), so that nothing else sees their load; nics() binds
them to virtio-pci, which makes their virtio devices, which virtio_net
binds, and run_virtio() unbinds them again.

Frames are IPv6 UDP, link-local, to an address and port nobody uses: the
host's tap picks the RX queue by flow hash, so FLOWS source ports reach
every RX queue; the guest's stack drops them.  TX goes out of the queue XPS
maps to the sending CPU.
"""

import os
import socket
import struct
import time

from irq_spread_lib import (Skip, device_rows, fmt_cpulist, irq_affinity,
                            read, run, set_link, sysfs_path, wait_for, write,
                            write_ok, xps_cpus)

PCI_BUS = "/sys/bus/pci"
VIRTIO_PCI = PCI_BUS + "/drivers/virtio-pci"
VIRTIO_BUS = "/sys/bus/virtio"
DRIVER = VIRTIO_BUS + "/drivers/virtio_net"
# Virtio's PCI vendor, and virtio-net's device IDs: transitional, modern.
VIRTIO_VENDOR, VIRTIO_NET_IDS = 0x1af4, (0x1000, 0x1041)
VIRTIO_ID_NET = 1
QUEUES = 4
ETH_P_IPV6 = 0x86dd
FLOWS = 64
UDP_PORT = 9  # discard
IN_PORT, OUT_PORT = 20000, 40000
NO_NIC = ("no two virtio-net NICs with %d queue pairs: the guest was booted "
          "without them (pipeline/virtio-nics.sh could not make the host's "
          "taps, or not the project's guest)" % QUEUES)


def virtio_net_functions():
    """The PCI functions of the virtio-net NICs, bound or not."""
    out = []
    for d in sorted(os.listdir(PCI_BUS + "/devices")):
        p = "%s/devices/%s/" % (PCI_BUS, d)
        if (int(read(p + "vendor"), 16) == VIRTIO_VENDOR and
                int(read(p + "device"), 16) in VIRTIO_NET_IDS):
            out.append(d)
    return out


def interrupts():
    """{irq: (name, {cpu: count})} of /proc/interrupts, by the header's
    CPU columns (offline CPUs have none)."""
    out = {}
    with open("/proc/interrupts") as f:
        cpus = [int(c[3:]) for c in f.readline().split()]
        for line in f:
            head, _, rest = line.partition(":")
            if not head.strip().isdigit():
                continue
            f_ = rest.split()
            counts = {c: int(f_[i]) for i, c in enumerate(cpus)}
            out[int(head)] = (f_[-1] if len(f_) > len(cpus) else "", counts)
    return out


class VirtioNic:
    """A virtio-net NIC, its PCI function bound to virtio-pci and its
    virtio device to virtio_net: its netdev, its vectors."""

    bound = []

    def __init__(self, pci):
        self.pci = pci
        self.pci_dev = "%s/devices/%s" % (PCI_BUS, pci)
        self.bind()

    def bind(self):
        drv = self.pci_dev + "/driver"
        if os.path.exists(drv):
            if os.path.basename(os.readlink(drv)) != "virtio-pci":
                write_ok(drv + "/unbind", self.pci)
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
        self.path = sysfs_path(self.sysfs_dev)
        self.policy_file = self.sysfs_dev + "/irq_spread/policy"
        self.node = int(read(self.pci_dev + "/numa_node"))
        self.address = read(self.sysfs + "/address")
        self.mac = bytes.fromhex(self.address.replace(":", ""))
        names = {}
        for irq, (action, _) in interrupts().items():
            if action.startswith(name + "-"):
                names[action[len(name) + 1:]] = irq
        self.rx = [names.get("input.%d" % q) for q in range(QUEUES)]
        self.tx = [names.get("output.%d" % q) for q in range(QUEUES)]
        if None in self.rx + self.tx:
            raise RuntimeError("%s: queue IRQs %s in /proc/interrupts, want "
                               "input.0-%d and output.0-%d"
                               % (name, sorted(names), QUEUES - 1, QUEUES - 1))

    def move_to(self, node):
        """Put the NIC's PCI function on @node, bound again if it moved."""
        if self.node == node:
            return
        self.unbind()
        write_ok(self.pci_dev + "/numa_node", str(node))
        self.bind()

    def unbind(self):
        if self in VirtioNic.bound:
            VirtioNic.bound.remove(self)
            write_ok(VIRTIO_PCI + "/unbind", self.pci)

    # The IRQs of queue pair @q: RX then TX.
    def irqs(self, q):
        return (self.rx[q], self.tx[q])

    def masks(self, irqs):
        return [irq_affinity(i) for i in irqs]

    def xps(self, q):
        return xps_cpus(self.sysfs, q)

    def rows(self):
        return device_rows(self.path)

    def stat(self, what):
        return int(read("%s/statistics/%s" % (self.sysfs, what)))


DUT_MAC, PEER_MAC = "52:54:00:15:00:02", "52:54:00:15:00:00"


def nics():
    """(device under test on node 2, peer on node 0), bound and up; Skip if
    the guest has no such NICs."""
    if not os.path.isdir(DRIVER) or not os.path.isdir(VIRTIO_PCI):
        raise Skip("no virtio_net or virtio-pci driver")
    funcs = virtio_net_functions()
    if len(funcs) != 2:
        raise Skip(NO_NIC)
    found = {n.address: n for n in (VirtioNic(f) for f in funcs)}
    if sorted(found) != sorted([DUT_MAC, PEER_MAC]):
        raise Skip("%s: virtio-net NICs with MACs %s, not %s and %s"
                   % (NO_NIC, sorted(found), DUT_MAC, PEER_MAC))
    dut, peer = found[DUT_MAC], found[PEER_MAC]
    dut.move_to(2)
    peer.move_to(0)
    for nic in (dut, peer):
        set_link(nic.ifname, True)
    return dut, peer


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


def check_xps(t, dut, active, what):
    """XPS of each TX queue in use is its TX vector's CPUs (polled: the
    driver follows from the library's work item); the others are not in
    sysfs."""
    want = dut.masks(dut.tx[:active]) + [None] * (QUEUES - active)
    got = lambda: [dut.xps(q) for q in range(QUEUES)]
    ok = wait_for(lambda: got() == want, 5)
    show = lambda ms: " ".join("-" if m is None else fmt_cpulist(m)
                               for m in ms)
    t.result(ok, "%s: XPS of each TX queue in use is its TX vector's CPUs, "
             "the others not in sysfs" % what,
             "XPS %s, want %s" % (show(got()), show(want)))


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


def run_virtio(name, test, cleanup=None):
    """run() for a test of the virtio-net NICs: unbinds them at the end."""
    def done():
        if cleanup:
            cleanup()
        for nic in list(VirtioNic.bound):
            nic.unbind()
    run(name, test, done)


__all__ = ["VirtioNic", "Traffic", "nics", "interrupts", "check_xps",
           "interrupt_deltas", "make_interrupt", "run_virtio", "QUEUES",
           "IN_PORT",
           "virtio_net_functions", "write"]
