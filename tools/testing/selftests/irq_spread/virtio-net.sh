#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# virtio-net on node 2, placed by irq_spread: for each policy written to
# <virtio device>/irq_spread/policy, both MSI-X vectors of each queue pair
# (virtioN-input.K, virtioN-output.K) get the CPUs of the hand table below,
# the TX queue's XPS map the same CPUs; once traffic (frames from the peer
# NIC on node 0, frames sent from each queue's CPU) has made every vector
# interrupt, its effective CPU is in its mask, per the table, and its
# interrupts in /proc/interrupts rose on that CPU only.  The driver's
# default is numa.  Skips if the guest has no such NICs.

. "$(dirname "$0")/lib.sh"
irq_spread_python <<'PY'
from irq_spread_lib import *
from irq_spread_virtio import *

# The guest: node 2 = CPUs 8-11, cores {8,9} {10,11}; node 3 (12-15) at
# distance 12, nodes 0-1 at 32.  4 spread vectors (the RX vectors; each TX
# vector follows its pair's RX vector and adds no load), the peer's load on
# node 0 only.
#   numa:      tier 0 slots 8 9 10 11.
#   numa-core: tier 0 rank 0: 8 10, rank 1: 9 11; every core holds two
#              vectors: a thread each.
#   core:      rank 0 of tier 0: 8 10, of tier 1: 12 14.
# A single CPU each: the effective CPU is that CPU.
NODE2 = {
    "numa": "8 9 10 11",
    "numa-core": "8 10 9 11",
    "core": "8 10 12 14",
}


def check_pairs(t, topo, tables, dut, policy, what):
    """Masks of both vectors of each pair, XPS, debugfs rows."""
    want = table(NODE2[policy]) if tables else None
    rx, tx = dut.masks(dut.rx), dut.masks(dut.tx)
    if want is not None:
        t.eq(fmt_masks(rx), fmt_masks(want), "%s: RX vector CPUs (hand table)"
             % what)
    t.eq(fmt_masks(tx), fmt_masks(rx), "%s: each TX vector has its pair's "
         "CPUs" % what)
    for rule, problems in rule_problems(topo, 2, policy, rx, rx).items():
        t.result(not problems, "%s: rule: %s" % (what, rule),
                 "\n".join(problems))
    check_xps(t, dut, QUEUES, what)
    rows = dut.rows()
    got = [(v, r.irq, r.kind, r.state) for v, r in sorted(rows.items())]
    exp = [(q, dut.rx[q], "spread", "active") for q in range(QUEUES)] + \
        [(QUEUES + q, dut.tx[q], "post", "active") for q in range(QUEUES)]
    t.eq(got, exp, "%s: debugfs: RX vectors spread, TX vectors post" % what)


def test(t):
    topo, tables = machine(t)
    dut, peer = nics()
    t.diag("device under test %s (%s), node %d; peer %s (%s), node %d"
           % (dut.name, dut.ifname, dut.node, peer.name, peer.ifname,
              peer.node))
    t.eq(dut.policy_file and active_policy(dut.policy_file), "numa",
         "the driver's default policy is numa")
    for policy in POLICIES:
        what = "node 2, %s" % policy
        t.eq(write(dut.policy_file, policy), 0, "%s: write the policy"
             % what)
        t.eq(active_policy(dut.policy_file), policy, "%s: policy reads it"
             % what)
        check_pairs(t, topo, tables, dut, policy, what)

        # The first interrupt after a move moves the vector: then count.
        irqs = dut.rx + dut.tx
        make_interrupt(dut, peer, irqs, irq_affinity)
        d = make_interrupt(dut, peer, irqs, irq_affinity)
        eff = [irq_effective(i) for i in irqs]
        t.diag("%s: effective CPUs RX %s, TX %s" % (
            what, fmt_masks(eff[:QUEUES]), fmt_masks(eff[QUEUES:])))
        names = ["input.%d" % q for q in range(QUEUES)] + \
            ["output.%d" % q for q in range(QUEUES)]
        t.diag("%s: interrupts per CPU under traffic: %s" % (what, "; ".join(
            "%s %s" % (n, " ".join("CPU%d:%d" % kv
                                   for kv in sorted(d[i].items())))
            for n, i in zip(names, irqs))))
        if tables:
            t.eq(fmt_masks(eff), fmt_masks(table(NODE2[policy]) * 2),
                 "%s: effective CPUs after traffic (hand table)" % what)
        bad = [i for i, e in zip(irqs, eff) if not e <= irq_affinity(i)]
        t.eq(bad, [], "%s: effective CPU within the mask" % what)
        bad = ["IRQ %d: none" % i for i in irqs if not d[i]]
        bad += ["IRQ %d: on CPUs %s, effective %s"
                % (i, fmt_cpulist(d[i]), fmt_cpulist(irq_effective(i)))
                for i in irqs if d[i] and set(d[i]) != irq_effective(i)]
        t.eq(bad, [], "%s: every vector interrupted, on its effective CPU "
             "only" % what)


run_virtio("irq_spread virtio-net placement", test)
PY
