#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# virtio-net on node 2, placed by net core with irq_spread: for each policy
# written to /sys/class/net/<if>/irq_spread/policy, both MSI-X vectors of
# each queue pair (virtioN-input.K, virtioN-output.K) get the CPUs of the
# hand table below; debugfs lists the netdev's 8 vectors under its sysfs
# path, RX K as spread vector K and TX K as post vector 4 + K; XPS maps
# every CPU to the TX queue of the hand table; once traffic (frames from
# the peer NIC on node 0, frames sent from each queue's CPU) has made
# every vector interrupt, its effective CPU is in its mask, per the table,
# and its interrupts in /proc/interrupts rose on that CPU only.  The
# default policy is numa, the netdev may use every CPU.  Skips if the
# guest has no such NICs.

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
#
# XPS (net/core/napi_affinity_xps.c): CPUs 0-15 in order, each to the TX
# queue whose IRQ has it, else an SMT sibling of it, else CPUs on the
# nearest node (SLIT); ties to the queue with the fewest CPUs so far, then
# the lowest.  Queues q0..q3 on the TX IRQs' CPUs:
#   numa (8 9 10 11): CPUs 0-7 (node 0-1, every queue at 32) round robin
#     q0 q1 q2 q3 q0 q1 q2 q3; 8-11 their own; 12-15 (node 3, all at 12)
#     round robin again: q0 = 0,4,8,12 (1111), q1 = 1,5,9,13 (2222),
#     q2 = 2,6,10,14 (4444), q3 = 3,7,11,15 (8888).
#   numa-core (8 10 9 11): 0-7 the same; 8 q0, 9 q2, 10 q1, 11 q3; 12-15
#     round robin: q0 = 0,4,8,12 (1111), q1 = 1,5,10,13 (2422),
#     q2 = 2,6,9,14 (4244), q3 = 3,7,11,15 (8888).
#   core (8 10 12 14; nodes 2 2 3 3, all at 32 from nodes 0-1): 0-7 round
#     robin; 8 q0, 9 q0 (sibling 8), 10 q1, 11 q1 (sibling 10), 12 q2,
#     13 q2, 14 q3, 15 q3: q0 = 0,4,8,9 (0311), q1 = 1,5,10,11 (0c22),
#     q2 = 2,6,12,13 (3044), q3 = 3,7,14,15 (c088).
# 16 CPUs of 16 in the maps; with the maps of 0016's driver (each TX
# queue's IRQ CPUs) 4 of 16.
NODE2 = {
    "numa": ("8 9 10 11", "1111 2222 4444 8888"),
    "numa-core": ("8 10 9 11", "1111 2422 4244 8888"),
    "core": ("8 10 12 14", "0311 0c22 3044 c088"),
}


def check_pairs(t, topo, tables, dut, policy, what):
    """Masks of both vectors of each pair, XPS, debugfs rows."""
    want = table(NODE2[policy][0]) if tables else None
    rx, tx = dut.masks(dut.rx), dut.masks(dut.tx)
    if want is not None:
        t.eq(fmt_masks(rx), fmt_masks(want), "%s: RX vector CPUs (hand table)"
             % what)
    t.eq(fmt_masks(tx), fmt_masks(rx), "%s: each TX vector has its pair's "
         "CPUs" % what)
    for rule, problems in rule_problems(topo, 2, policy, rx, rx).items():
        t.result(not problems, "%s: rule: %s" % (what, rule),
                 "\n".join(problems))
    if tables:
        check_xps_table(t, dut, xps_table(NODE2[policy][1]), what)
    check_xps(t, dut, QUEUES, what)
    rows = dut.rows()
    got = [(v, r.irq, r.kind, r.state, r.cpus) for v, r in sorted(rows.items())]
    exp = [(q, dut.rx[q], "spread", "active", rx[q]) for q in range(QUEUES)] + \
        [(QUEUES + q, dut.tx[q], "post", "active", tx[q])
         for q in range(QUEUES)]
    t.eq(got, exp, "%s: debugfs: the netdev's RX vectors spread, TX vectors "
         "post, their CPUs those of /proc/irq" % what)


def test(t):
    topo, tables = machine(t)
    dut, peer = nics()
    t.diag("device under test %s (%s), node %d; peer %s (%s), node %d"
           % (dut.name, dut.ifname, dut.node, peer.name, peer.ifname,
              peer.node))
    t.eq(active_policy(dut.policy_file), "numa",
         "the default policy is numa, in the netdev's irq_spread/policy")
    t.eq(read(dut.cpus_file), fmt_cpulist(topo.present),
         "the netdev may use every CPU (irq_spread/cpus)")
    t.eq(os.path.exists(dut.sysfs_dev + "/irq_spread"), False,
         "the virtio device has no irq_spread group")
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
            t.eq(fmt_masks(eff), fmt_masks(table(NODE2[policy][0]) * 2),
                 "%s: effective CPUs after traffic (hand table)" % what)
        bad = [i for i, e in zip(irqs, eff) if not e <= irq_affinity(i)]
        t.eq(bad, [], "%s: effective CPU within the mask" % what)
        bad = ["IRQ %d: none" % i for i in irqs if not d[i]]
        bad += ["IRQ %d: on CPUs %s, effective %s"
                % (i, fmt_cpulist(d[i]), fmt_cpulist(irq_effective(i)))
                for i in irqs if d[i] and set(d[i]) != irq_effective(i)]
        t.eq(bad, [], "%s: every vector interrupted, on its effective CPU "
             "only" % what)
    t.eq(write(dut.policy_file, "numa"), 0, "numa written back")


run_virtio("irq_spread virtio-net placement", test)
PY
