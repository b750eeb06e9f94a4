#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Admin override on virtio-net: the RX vector of queue pair 1, written to
# CPU 15 through /proc/irq/N/smp_affinity_list, is marked admin and keeps
# CPU 15 across ethtool -L down and up, link down/up and the offline and
# online of another CPU that holds a vector of the NIC (6.12's virtio_net
# re-applied its own spread over it); the other vectors follow the policy,
# each TX vector its pair's placement, and each TX queue's XPS map its TX
# vector's CPUs.  Writing the policy hands the vector back.  Skips if the
# guest has no such NICs.

. "$(dirname "$0")/lib.sh"
irq_spread_python <<'PY'
from irq_spread_lib import *
from irq_spread_virtio import *

# The guest, node 2 (8-11, cores {8,9} {10,11}), numa (the driver's
# default), 4 queue pairs; tier 1 is node 3 (12-15), tier 2 nodes 0-1.  The
# TX vector of pair K follows spread vector K's placement (not the
# administrator's CPUs of its RX vector).  Each step: RX vectors | TX
# vectors (pairs in use).
#   registered:     slots 8 9 10 11.
#   RX 1 to CPU 15: 8 15 10 11 | 8 9 10 11.
#   ethtool -L 2:   8 9; RX 1 keeps 15: 8 15 | 8 9.
#   ethtool -L 4:   8 15 10 11 | 8 9 10 11.
#   link down/up:   the same.
#   CPU 10 offline: only pair 2 moves; node 2's 8 9 11 hold one vector each
#                   (RX 1 counts at its placement, 9): tier 1's 12.
#                   8 15 12 11 | 8 9 12 11.
#   CPU 10 online:  pair 2 back: 8 15 10 11 | 8 9 10 11.
#   numa written:   8 9 10 11 | 8 9 10 11.
STEPS = [
    ("registered", "8 9 10 11", "8 9 10 11"),
    ("admin", "8 15 10 11", "8 9 10 11"),
    ("ethtool -L 2", "8 15", "8 9"),
    ("ethtool -L 4", "8 15 10 11", "8 9 10 11"),
    ("link down/up", "8 15 10 11", "8 9 10 11"),
    ("CPU 10 offline", "8 15 12 11", "8 9 12 11"),
    ("CPU 10 online", "8 15 10 11", "8 9 10 11"),
    ("policy written", "8 9 10 11", "8 9 10 11"),
]
ADMIN_CPU, OTHER_CPU = 15, 10
hp = Hotplug()


def test(t):
    topo, tables = machine(t)
    dut, peer = nics()
    steps = iter(STEPS)

    def step(what, active=QUEUES, admin=True):
        name, rx, tx = next(steps)
        assert name == what
        got_rx = fmt_masks(dut.masks(dut.rx[:active]))
        got_tx = fmt_masks(dut.masks(dut.tx[:active]))
        if tables:
            t.eq(got_rx, rx, "%s: RX vector CPUs (hand table)" % what)
            t.eq(got_tx, tx, "%s: TX vector CPUs (hand table)" % what)
        if admin:
            t.eq(irq_affinity(dut.rx[1]), frozenset([ADMIN_CPU]),
                 "%s: RX vector 1 keeps the admin's CPU" % what)
        state = dut.rows()[1].state
        t.eq(state, "admin" if admin else "active",
             "%s: debugfs state of vector 1" % what)
        check_xps(t, dut, active, what)

    if tables and not {ADMIN_CPU, OTHER_CPU} <= topo.online():
        raise Skip("CPUs %d and %d not online" % (ADMIN_CPU, OTHER_CPU))
    step("registered", admin=False)
    set_irq_affinity(dut.rx[1], [ADMIN_CPU])
    t.result(wait_vector_state(dut.path, 1, "admin"),
             "admin write marks RX vector 1 admin")
    step("admin")

    run_cmd("ethtool", "-L", dut.ifname, "combined", "2")
    step("ethtool -L 2", active=2)
    run_cmd("ethtool", "-L", dut.ifname, "combined", str(QUEUES))
    step("ethtool -L 4")

    set_link(dut.ifname, False)
    set_link(dut.ifname, True)
    step("link down/up")

    if not pluggable(OTHER_CPU):
        raise Skip("CPU %d not hot-pluggable" % OTHER_CPU)
    held = dut.masks(dut.rx + dut.tx)
    hp.set(OTHER_CPU, False)
    step("CPU %d offline" % OTHER_CPU)
    off = dut.masks(dut.rx + dut.tx)
    t.eq(moved(held, off),
         [i for i in range(2 * QUEUES) if OTHER_CPU in held[i]],
         "CPU %d offline: only the vectors it held moved" % OTHER_CPU)
    hp.set(OTHER_CPU, True)
    step("CPU %d online" % OTHER_CPU)

    t.eq(write(dut.policy_file, "numa"), 0, "write the policy again")
    step("policy written", admin=False)


run_virtio("irq_spread virtio-net admin override", test, hp.restore)
PY
