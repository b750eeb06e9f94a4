#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# virtio-net with too few MSI-X vectors: the NIC with 4 queue pairs and 3
# vectors (config + 8 virtqueues do not fit), on node 2, gets one vector
# for the configuration and one that every virtqueue shares, so that no
# virtqueue has an interrupt of its own: virtio_net links its NAPIs with
# none.  Net core still registers the netdev: debugfs lists its 8 vectors
# with no IRQ, placed by the policy (hand tables), and XPS maps every CPU
# by them; nothing sets the shared interrupts' affinity or hint; frames go
# both ways; ethtool -L and a policy write work.  Bound and unbound twice,
# then once with MSI disabled (INTx, msi_bus 0), with no WARN or other
# splat in the kernel log: 0016's driver set a hint on the shared vector
# that it never cleared, and free_irq() warns about that.  Skips if the
# guest has no such NIC.
#
# The shared interrupts keep what the interrupt core gave them when
# requested (irq_setup_affinity()): the default affinity, within the
# interrupt's node if it has one (an MSI-X vector has its device's, the
# INTx line of the IO-APIC none), and no hint.

. "$(dirname "$0")/lib.sh"
irq_spread_python <<'PY'
from irq_spread_lib import *
from irq_spread_virtio import *

# The guest, node 2: 4 spread vectors, without interrupts, placed as
# virtio-net.sh's NIC (the peer's load is on node 0): numa 8 9 10 11,
# numa-core 8 10 9 11; the post vector of pair K follows K, of pair K not
# in use K modulo those in use.  A TX queue's CPUs for XPS are its pair's
# vector's, there being no TX interrupt: the tables of virtio-net.sh, and
# with 2 pairs in use (8 9) virtio-admin.sh's 5555 aaaa.
PLACEMENT = {
    "numa": ("8 9 10 11", "1111 2222 4444 8888"),
    "numa-core": ("8 10 9 11", "1111 2422 4244 8888"),
}
TWO = ("8 9", "5555 aaaa")


def hint(irq):
    return parse_hexmask(read("/proc/irq/%d/affinity_hint" % irq))


def check_rows(t, tables, n, placed, what, active=QUEUES):
    """The debugfs rows: no IRQ; the spread vectors in use placed, the
    others inactive; the post vectors following."""
    rows = n.rows()
    cpus = table(placed) if tables else [rows[k].cpus for k in range(active)]
    want = [(k, None, "spread", "active" if k < active else "inactive",
             cpus[k] if k < active else None) for k in range(QUEUES)]
    want += [(QUEUES + k, None, "post", "active", cpus[k % active])
             for k in range(QUEUES)]
    got = [(v, r.irq, r.kind, r.state, r.cpus) for v, r in sorted(rows.items())]
    t.eq(got, want, "%s: debugfs: 8 vectors without IRQ, %s" % (
        what, "placed (hand table)" if tables else "post following spread"))


def requested_affinity(topo, irq):
    """What the interrupt core gives an interrupt nobody placed."""
    cpus = topo.default_affinity() & topo.online()
    node = int(read("/proc/irq/%d/node" % irq))
    if node >= 0 and cpus & topo.node_cpus[node]:
        cpus &= topo.node_cpus[node]
    return cpus


def check_shared_irqs(t, topo, n, what):
    bad = ["IRQ %d: affinity %s, want %s; hint %s"
           % (i, fmt_cpulist(irq_affinity(i)),
              fmt_cpulist(requested_affinity(topo, i)), fmt_cpulist(hint(i)))
           for i in n.irqs_shared
           if hint(i) or irq_affinity(i) != requested_affinity(topo, i)]
    t.eq(bad, [], "%s: nobody placed the shared IRQs %s: no hint, the "
         "interrupt core's affinity" % (what, " ".join(map(str,
                                                           n.irqs_shared))))


def bind_unbind(t, topo, log, what, mode):
    n = nic("shared", 2, up=False)
    t.eq(n.mode, mode, "%s: virtio-pci's interrupts: %s" % (what, mode))
    t.eq(os.path.exists(n.policy_file), True,
         "%s: the netdev has irq_spread/policy" % what)
    check_shared_irqs(t, topo, n, what)
    set_link(n.ifname, True)
    set_link(n.ifname, False)
    n.unbind()
    t.eq(log.splats(), [], "%s: bound, up, down, unbound: no splat" % what)


def test(t):
    topo, tables = machine(t)
    log = Kmsg()
    shared = nic("shared", 2)
    peer = nic("peer", 0)
    what = "shared vector"
    t.diag("%s (%s), node %d: IRQs %s" % (shared.name, shared.ifname,
                                          shared.node, shared.irqs_shared))
    t.eq(shared.mode, "shared", "%s: one MSI-X vector for every virtqueue, "
         "none of their own" % what)
    t.eq(active_policy(shared.policy_file), "numa", "%s: the netdev's policy "
         "file, numa" % what)
    check_shared_irqs(t, topo, shared, what)
    for policy in ("numa", "numa-core"):
        w = "%s, %s" % (what, policy)
        t.eq(write(shared.policy_file, policy), 0, "%s: write it" % w)
        check_rows(t, tables, shared, PLACEMENT[policy][0], w)
        if tables:
            check_xps_table(t, shared, xps_table(PLACEMENT[policy][1]), w)
    t.eq(write(shared.policy_file, "numa"), 0, "%s: numa again" % what)

    n = shared.stat("rx_packets")
    Traffic(peer, shared, IN_PORT).send(2)
    t.result(wait_for(lambda: shared.stat("rx_packets") >= n + 64, 5),
             "%s: frames from the peer arrive" % what)
    n = peer.stat("rx_packets")
    Traffic(shared, peer, IN_PORT + 1000).send(2, cpu=12)
    t.result(wait_for(lambda: peer.stat("rx_packets") >= n + 64, 5),
             "%s: frames sent reach the peer" % what)

    run_cmd("ethtool", "-L", shared.ifname, "combined", "2")
    check_rows(t, tables, shared, TWO[0], what + ", ethtool -L 2", active=2)
    if tables:
        check_xps_table(t, shared, xps_table(TWO[1]), what + ", ethtool -L 2")
    run_cmd("ethtool", "-L", shared.ifname, "combined", str(QUEUES))
    check_rows(t, tables, shared, PLACEMENT["numa"][0], what + ", ethtool -L 4")
    check_shared_irqs(t, topo, shared, what + ", after all that")

    peer.unbind()
    shared.unbind()
    t.eq(log.splats(), [], "%s: unbound: no splat" % what)
    bind_unbind(t, topo, log, what + ", again", "shared")

    msi_bus = "%s/devices/%s/msi_bus" % ("/sys/bus/pci", NICS["shared"][0])
    write_ok(msi_bus, "0")
    try:
        bind_unbind(t, topo, log, "INTx", "intx")
    finally:
        write_ok(msi_bus, "1")
    log.lines()
    lines = [m for m in log.seen if "not placed" in m]
    t.eq(lines, [], "net core placed nothing it could not")
    log.close()


run_virtio("irq_spread virtio-net with a shared vector", test)
PY
