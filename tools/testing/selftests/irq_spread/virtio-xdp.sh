#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# XDP on virtio-net, which needs nr_cpu_ids (16) queue pairs beside those in
# use: on the NIC with 17 queue pairs, on node 2, left one pair by
# ethtool -L, an XDP_PASS program (loaded with bpf(), attached with
# rtnetlink in driver mode) makes virtio_net use all 17, through
# netif_set_real_num_rx_queues(): net core places the 16 it adds, and
# takes them out again when the program goes; the administrator's CPU for
# the RX vector of pair 0 stays throughout, and through ethtool -L back to
# 16.  TX vectors follow their pair's placement (of pair K modulo those in
# use, for a pair not in use); XPS maps every CPU.  All by hand tables.
# Skips if the guest has no such NIC.

. "$(dirname "$0")/lib.sh"
irq_spread_python <<'PY'
from irq_spread_lib import *
from irq_spread_virtio import *

# The guest, node 2, numa, no other device: slots 8 9 10 11 (node 2),
# 12 13 14 15 (node 3, distance 12), 0..7 (nodes 0-1, 32); vector i takes
# slot i mod 16.
#   bound:         probe takes min(17, 16 online CPUs) = 16 pairs: RX 0-15 on
#                  the 16 slots; RX 16 not in use.  TX K with RX K; TX 16
#                  follows pair 16 mod 16 = 0: 8.  XPS: each CPU to the queue
#                  whose IRQ has it: q0 on 8 (0100) ... q7 on 15 (8000), q8 on
#                  0 (0001) ... q15 on 7 (0080).
#   ethtool -L 1:  RX 0 on 8; RX 1-16 keep their CPUs, without hint; every TX
#                  follows pair 0: 8.  XPS: q0 maps every CPU (ffff).
#   RX 0 to CPU 3: the administrator's.
#   XDP on:        1 + 16 = 17 pairs: RX 0 keeps 3 (placed on 8), RX 1-16 on
#                  slots 1-15 and 16 mod 16 = 0: 9 .. 15, 0 .. 7, 8; TX K on
#                  pair K's placement: 8 9 .. 15 0 .. 7 8.  One TX queue for
#                  the stack still: XPS ffff.
#   XDP off:       one pair again: RX 0 keeps 3, RX 1-16 keep the CPUs XDP
#                  gave them; every TX on 8; XPS ffff.
#   ethtool -L 16: RX 0 keeps 3, RX 1-15 on slots 1-15; RX 16 not in use
#                  keeps 8; TX as bound; XPS as bound.
#   numa written:  as bound.
SLOTS = "8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7"
XPS16 = "0100 0200 0400 0800 1000 2000 4000 8000 " \
    "0001 0002 0004 0008 0010 0020 0040 0080"
ALL8 = " ".join(["8"] * 17)
ADMIN_CPU = 3
# what: (pairs in use, RX CPUs, TX CPUs, XPS), None where not checked (RX
# 16 before XDP placed it: its IRQ's CPUs as requested).
STEPS = {
    "bound": (16, SLOTS + " -", SLOTS + " 8", XPS16),
    "ethtool -L 1": (1, "8 " + SLOTS[2:] + " -", ALL8, "ffff"),
    "admin": (1, "3 " + SLOTS[2:] + " -", ALL8, "ffff"),
    "XDP on": (17, "3 " + SLOTS[2:] + " 8", SLOTS + " 8", "ffff"),
    "XDP off": (1, "3 " + SLOTS[2:] + " 8", ALL8, "ffff"),
    "ethtool -L 16": (16, "3 " + SLOTS[2:] + " 8", SLOTS + " 8", XPS16),
    "numa written": (16, SLOTS + " 8", SLOTS + " 8", XPS16),
}
PAIRS = 17


def hint(irq):
    return parse_hexmask(read("/proc/irq/%d/affinity_hint" % irq))


def spec_masks(masks, spec):
    """@masks as a hand table @spec writes them: "-" where not checked."""
    return " ".join("-" if w == "-" else fmt_cpulist(m)
                    for m, w in zip(masks, spec.split()))


def test(t):
    topo, tables = machine(t)
    log = Kmsg()
    n = nic("xdp", 2)
    t.diag("%s (%s), node %d, %d queue pairs"
           % (n.name, n.ifname, n.node, n.queues))

    def step(what, admin):
        active, rx, tx, xps = STEPS[what]
        t.eq(n.rx_queues(), active, "%s: %d RX queues" % (what, active))
        if tables:
            t.eq(spec_masks(n.masks(n.rx), rx), rx,
                 "%s: RX vector CPUs (hand table)" % what)
            t.eq(fmt_masks(n.masks(n.tx)), tx,
                 "%s: TX vector CPUs (hand table)" % what)
            check_xps_table(t, n, xps_table(xps), what)
        rows = n.rows()
        want = ["admin" if k == 0 and admin else
                "active" if k < active else "inactive" for k in range(PAIRS)]
        want += ["active"] * PAIRS
        t.eq([rows[v].state for v in range(2 * PAIRS)], want,
             "%s: debugfs states: RX 0 %s, %d in use"
             % (what, "admin" if admin else "placed", active))
        bad = ["RX %d (IRQ %d) not in use: hint %s"
               % (k, n.rx[k], fmt_cpulist(hint(n.rx[k])))
               for k in range(active, PAIRS) if hint(n.rx[k])]
        t.eq(bad, [], "%s: no hint on the RX vectors not in use" % what)

    step("bound", False)
    run_cmd("ethtool", "-L", n.ifname, "combined", "1")
    step("ethtool -L 1", False)
    set_irq_affinity(n.rx[0], [ADMIN_CPU])
    t.result(wait_vector_state(n.path, 0, "admin"),
             "admin write marks RX vector 0 admin")
    step("admin", True)

    with Xdp(n) as xdp:
        t.eq(xdp_attached(n.ifindex), 1, "XDP on: attached in driver mode")
        step("XDP on", True)
        xdp.off()
        t.eq(xdp_attached(n.ifindex), 0, "XDP off: detached")
        step("XDP off", True)

    run_cmd("ethtool", "-L", n.ifname, "combined", "16")
    step("ethtool -L 16", True)
    t.eq(write(n.policy_file, "numa"), 0, "write the policy again")
    step("numa written", False)
    n.unbind()
    t.eq(log.splats(), [], "no splat in the kernel log")
    log.close()


run_virtio("irq_spread virtio-net XDP queues", test)
PY
