#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# CPU hotplug under traffic on virtio-net: while frames flow into the NIC
# on node 2 on every RX queue, the CPU that holds queue pair 2 goes offline
# and comes back.  Only pair 2's two vectors move, each way; frames keep
# arriving throughout (the NIC's rx_packets counted over a window before,
# during and after each change); after the move pair 2's RX vector
# interrupts on its new effective CPU, and its TX vector too, for frames
# sent from that CPU; XPS follows (hand tables).  Splats fail the
# pipeline's dmesg check.
# Skips if the guest has no such NICs.

. "$(dirname "$0")/lib.sh"
irq_spread_python <<'PY'
import threading

from irq_spread_lib import *
from irq_spread_virtio import *

# The guest, node 2 (8-11), numa, 4 queue pairs: 8 9 10 11 for both
# vectors of each pair.  CPU 10 offline: pair 2's vectors move to the
# nearest CPU with the least load: 8, 9 and 11 hold a vector each, node 3
# (12-15, distance 12) none: 12.  CPU 10 online: back to 10.
# XPS (the rules in virtio-net.sh): placed, 1111 2222 4444 8888; with pair
# 2 on 12, CPUs 0-7 round robin, 8 q0, 9 q1, 10 in no map (offline: XPS
# maps hold online CPUs), 11 q3, 12-15 q2 (12 itself, 13 its sibling, 14
# 15 node 3): 0111 0222 f044 0888.
PLACED = "8 9 10 11"
CPU = 10
MOVED = "8 9 12 11"
XPS_PLACED, XPS_MOVED = "1111 2222 4444 8888", "0111 0222 f044 0888"
hp = Hotplug()


class Flow(threading.Thread):
    """Frames from the peer into the NIC under test until stopped."""

    def __init__(self, peer, dut):
        super().__init__(daemon=True)
        self.traffic = Traffic(peer, dut, IN_PORT)
        self.stop = threading.Event()
        self.error = None

    def run(self):
        try:
            while not self.stop.is_set():
                self.traffic.send(1)
                time.sleep(0.05)
        except Exception as e:  # reported by the test
            self.error = e


def arriving(t, dut, what, secs=2):
    """Whether frames arrive at @dut within @secs: rx_packets rises."""
    n = dut.stat("rx_packets")
    ok = wait_for(lambda: dut.stat("rx_packets") > n + 16, secs)
    t.result(ok, "%s: frames keep arriving" % what,
             "rx_packets %d -> %d" % (n, dut.stat("rx_packets")))


def test(t):
    topo, tables = machine(t)
    dut, peer = nics()
    if not pluggable(CPU):
        raise Skip("CPU %d not hot-pluggable" % CPU)
    vecs = dut.rx + dut.tx
    held = dut.masks(vecs)
    if tables:
        t.eq(fmt_masks(held), fmt_masks(table(PLACED) * 2),
             "placed: both vectors of each pair (hand table)")
    flow = Flow(peer, dut)
    flow.start()
    try:
        arriving(t, dut, "before")
        hp.set(CPU, False)
        arriving(t, dut, "CPU %d offline" % CPU)
        off = dut.masks(vecs)
        t.eq(moved(held, off),
             [i for i in range(len(vecs)) if CPU in held[i]],
             "CPU %d offline: only the vectors it held moved" % CPU)
        if tables:
            t.eq(fmt_masks(off), fmt_masks(table(MOVED) * 2),
                 "CPU %d offline: pair 2 on CPU 12 (hand table)" % CPU)
        new = min(off[2])
        make_interrupt(dut, peer, dut.irqs(2), irq_affinity)
        d = make_interrupt(dut, peer, dut.irqs(2), irq_affinity)
        for kind, irq in zip(("RX", "TX"), dut.irqs(2)):
            t.eq((fmt_cpulist(irq_effective(irq)), sorted(d[irq])),
                 (str(new), [new]),
                 "CPU %d offline: pair 2's %s vector interrupts on CPU %d, "
                 "its effective CPU" % (CPU, kind, new))
        if tables:
            check_xps_table(t, dut, xps_table(XPS_MOVED),
                            "CPU %d offline" % CPU)

        hp.set(CPU, True)
        arriving(t, dut, "CPU %d online" % CPU)
        back = dut.masks(vecs)
        t.eq(moved(off, back), moved(held, off),
             "CPU %d online: what moved moves back" % CPU)
        t.eq(fmt_masks(back), fmt_masks(held), "CPU %d online: as before"
             % CPU)
        if tables:
            check_xps_table(t, dut, xps_table(XPS_PLACED),
                            "CPU %d online" % CPU)
        check_xps(t, dut, QUEUES, "CPU %d online" % CPU)
    finally:
        flow.stop.set()
        flow.join()
    t.eq(flow.error, None, "the traffic never failed")


run_virtio("irq_spread virtio-net hotplug under traffic", test, hp.restore)
PY
