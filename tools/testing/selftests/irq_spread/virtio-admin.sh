#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Admin override on virtio-net, and what it survives: the RX vector of
# queue pair 1, written to CPU 15 through /proc/irq/N/smp_affinity_list, is
# marked admin and keeps CPU 15 across ethtool -L down and up, link
# down/up, an XDP program on and off, a freeze and restore of the driver
# (its virtqueues, interrupts and NAPIs deleted and made again: the new
# interrupt gets CPU 15), and the offline and online of another CPU that
# holds a vector of the NIC (6.12's virtio_net re-applied its own spread
# over it); the other vectors follow the policy, each TX vector its pair's
# placement, and XPS maps every CPU by the TX vectors (hand tables).
# Writing the policy hands the vector back.  Skips if the guest has no
# such NICs; the freeze step skips, saying why, on a kernel that cannot
# stop a system suspend after the NIC (see freeze_restore()).

. "$(dirname "$0")/lib.sh"
irq_spread_python <<'PY'
from irq_spread_lib import *
from irq_spread_virtio import *

# The guest, node 2 (8-11, cores {8,9} {10,11}), numa (the default), 4
# queue pairs; tier 1 is node 3 (12-15), tier 2 nodes 0-1.  The TX vector
# of pair K follows spread vector K's placement (not the administrator's
# CPUs of its RX vector); with fewer pairs in use, that of pair K modulo
# those in use (Documentation: irq_spread_dev_set_vectors()).  The RX
# vectors of pairs not in use keep their CPUs, without a hint.  Each step:
# RX vectors | TX vectors (all pairs) | XPS of the TX queues in use.
#   registered:     slots 8 9 10 11.  XPS as in virtio-net.sh's numa:
#                   1111 2222 4444 8888.
#   RX 1 to CPU 15: 8 15 10 11 | 8 9 10 11; XPS by the TX vectors: the same.
#   ethtool -L 2:   8 9 placed, RX 1 keeps 15: 8 15 10 11 | 8 9 8 9.  XPS
#                   q0 on 8, q1 on 9: CPUs 0-7 alternate (both at 32),
#                   8 q0, 9 q1, 10 11 (node 2, neither a sibling's queue)
#                   alternate, 12-15 alternate: q0 = even CPUs (5555),
#                   q1 = odd (aaaa).
#   ethtool -L 4:   8 15 10 11 | 8 9 10 11 | 1111 2222 4444 8888.
#   link down/up, XDP on and off (4 pairs: XDP wants 4 + nr_cpu_ids = 20,
#   more than the NIC has, so virtio_net adds no XDP queues and changes no
#   queue count), freeze/restore: the same.
#   CPU 10 offline: only pair 2 moves; node 2's 8 9 11 hold one vector each
#                   (RX 1 counts at its placement, 9): tier 1's 12.
#                   8 15 12 11 | 8 9 12 11.  XPS: 0-7 round robin (node 3
#                   is 32 from nodes 0-1 too); 8 q0, 9 q1, 10 in no map
#                   (offline: XPS maps hold online CPUs); 11 q3; 12 q2,
#                   13 q2 (sibling 12), 14 15 q2 (node 3):
#                   q0 = 0,4,8 (0111), q1 = 1,5,9 (0222),
#                   q2 = 2,6,12-15 (f044), q3 = 3,7,11 (0888).
#   CPU 10 online:  pair 2 back: 8 15 10 11 | 8 9 10 11 | 1111 2222 4444 8888.
#   numa written:   8 9 10 11 | 8 9 10 11 | the same.
PLACED = "1111 2222 4444 8888"
STEPS = [
    ("registered", "8 9 10 11", "8 9 10 11", PLACED),
    ("admin", "8 15 10 11", "8 9 10 11", PLACED),
    ("ethtool -L 2", "8 15 10 11", "8 9 8 9", "5555 aaaa"),
    ("ethtool -L 4", "8 15 10 11", "8 9 10 11", PLACED),
    ("link down/up", "8 15 10 11", "8 9 10 11", PLACED),
    ("XDP on", "8 15 10 11", "8 9 10 11", PLACED),
    ("XDP off", "8 15 10 11", "8 9 10 11", PLACED),
    ("freeze/restore", "8 15 10 11", "8 9 10 11", PLACED),
    ("CPU 10 offline", "8 15 12 11", "8 9 12 11", "0111 0222 f044 0888"),
    ("CPU 10 online", "8 15 10 11", "8 9 10 11", PLACED),
    ("policy written", "8 9 10 11", "8 9 10 11", PLACED),
]
ADMIN_CPU, OTHER_CPU = 15, 10
hp = Hotplug()


def hint(irq):
    return parse_hexmask(read("/proc/irq/%d/affinity_hint" % irq))


def nine_p_functions():
    """The PCI functions of the guest's 9p filesystems (root, results)."""
    d = "/sys/bus/virtio/drivers/9pnet_virtio"
    if not os.path.isdir(d):
        return []
    return sorted(os.path.basename(os.path.dirname(os.path.realpath(
        "%s/%s" % (d, v)))) for v in os.listdir(d) if v.startswith("virtio"))


def test(t):
    topo, tables = machine(t)
    if tables and not {ADMIN_CPU, OTHER_CPU} <= topo.online():
        raise Skip("CPUs %d and %d not online" % (ADMIN_CPU, OTHER_CPU))
    # The freeze step needs the NIC's PCI function added after every
    # device with a suspend callback the PM core must not reach.
    readd("dut")
    dut, peer = nics()
    steps = iter(STEPS)

    def step(what, active=QUEUES, admin=True):
        name, rx, tx, xps = next(steps)
        assert name == what
        got_rx = fmt_masks(dut.masks(dut.rx))
        got_tx = fmt_masks(dut.masks(dut.tx))
        if tables:
            t.eq(got_rx, rx, "%s: RX vector CPUs (hand table)" % what)
            t.eq(got_tx, tx, "%s: TX vector CPUs (hand table)" % what)
            check_xps_table(t, dut, xps_table(xps), what)
        if admin:
            t.eq(irq_affinity(dut.rx[1]), frozenset([ADMIN_CPU]),
                 "%s: RX vector 1 keeps the admin's CPU" % what)
        rows = dut.rows()
        t.eq(rows[1].state, "admin" if admin else "active",
             "%s: debugfs state of vector 1" % what)
        bad = ["RX %d (IRQ %d) not in use: hint %s"
               % (q, dut.rx[q], fmt_cpulist(hint(dut.rx[q])))
               for q in range(active, QUEUES) if hint(dut.rx[q])]
        bad += ["vector %d: %s, want inactive" % (q, rows[q].state)
                for q in range(active, QUEUES) if rows[q].state != "inactive"]
        t.eq(bad, [], "%s: the RX vectors not in use are inactive, without "
             "a hint" % what)
        # The rule check reads the nodes' CPU lists, without offline CPUs.
        if topo.online() == topo.present:
            check_xps(t, dut, active, what)

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

    with Xdp(dut) as xdp:
        t.eq(xdp_attached(dut.ifindex), 1, "XDP on: attached in driver mode")
        t.eq(dut.rx_queues(), QUEUES, "XDP on: no XDP queues on a NIC with "
             "fewer than 4 + 16 pairs: still 4 RX queues")
        step("XDP on")
        xdp.off()
        t.eq(xdp_attached(dut.ifindex), 0, "XDP off: detached")
        step("XDP off")

    nine_p = nine_p_functions()
    # Interrupts before, that the restored NIC's new interrupts start from
    # naught.
    Traffic(peer, dut, IN_PORT).send(4)
    time.sleep(0.5)
    counts = interrupts()
    count = lambda c: sum(sum(c[i][1].values()) for i in dut.rx + dut.tx)
    before = count(counts)
    try:
        log = freeze_restore(dut)
    except Skip as e:
        t.result(True, "freeze/restore # SKIP %s" % e)
        next(steps)
    else:
        calls = [m for m in log if " calling " in m]
        t.diag("freeze/restore: PM callbacks run:\n" + "\n".join(calls))
        t.result(any(dut.pci in m and "calling pci_pm_suspend" in m
                     for m in calls) and
                 any(dut.pci in m and "calling pci_pm_resume" in m
                     for m in calls),
                 "freeze/restore: the PM core suspended and resumed the "
                 "NIC's PCI function", "\n".join(log))
        t.result(any("alarmtimer" in m and "-16" in m for m in log),
                 "freeze/restore: the alarm timer's suspend stopped it")
        t.eq([f for f in nine_p if any(f + ":" in m for m in calls)], [],
             "freeze/restore: the 9p filesystems' PCI functions %s were "
             "left alone" % " ".join(nine_p))
        irqs = dut.rx + dut.tx
        dut.find_irqs()
        after = count(interrupts())
        t.diag("freeze/restore: IRQs %s, now %s; %d interrupts before, %d "
               "since" % (" ".join(map(str, irqs)),
                          " ".join(map(str, dut.rx + dut.tx)), before,
                          after))
        t.result(after < before, "freeze/restore: the NIC's interrupts "
                 "were freed and requested again (their counts restarted)")
        step("freeze/restore")

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
