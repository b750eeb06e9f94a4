#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Pool mode: a netdevsim device whose irq_pool debugfs knob is set gives the
# RX queues of the ports created afterwards IRQs from an irq_spread pool of
# that many vectors.  Under each policy: every queue's IRQ is one of the
# pool's, the pool's debugfs users match the handlers /proc/interrupts shows
# on each IRQ, no vector has more than ceil(users / vectors), each vector
# was placed, as it was requested, where the rules put one vector on the
# load of those before it (hand tables on the guest, eligible CPUs
# anywhere), the ports do not register with irq_spread, and once the last
# port is gone every vector is released.  Under numa, CPU hotplug: when the
# pool's first CPU goes offline, the interrupt core asks the pool's placer
# where its vector's IRQ goes, the node's other eligible CPUs, and puts
# it back when the CPU returns; the pool's own state does not move.

. "$(dirname "$0")/lib.sh"
irq_spread_python <<'PY'
import math

from irq_spread_lib import *

VECTORS = 3
PORTS = 4
QUEUES = 2

# The guest, node 2 (CPUs 8-11, cores {8,9} {10,11}; tier 1 node 3, tier 2
# nodes 0-1).  The first three gets (any CPU) each request a vector, one
# vector placed on the load of those before it: a get takes a requested
# vector only below ceil((users + 1) / 3), 1 for the first three.
#   numa:      8; then 9 10 11 have load 0: 9; then 10.
#   numa-core: 8, alone on core {8,9}: 8-9; cores {8,9} core load 2,
#              {10,11} 0: 10-11; then both core load 2, rank 0 8 and 10
#              tie on load, lower CPU, still tier 0 (distance over load):
#              8-9.
#   core:      8; core {8,9}: 9 is its rank 0 (load 0), core load 1,
#              {10,11} core load 0: 10; then rank 0 9 and 11, core load 1
#              each, load 0: 9.
POOL = {"numa": "8 9 10", "numa-core": "8-9 10-11 8-9", "core": "8 10 9"}
# CPU 8 offline (numa): the placer answers node 2's eligible CPUs, 8-11;
# the core leaves 8 out.
POOL_OFF = "9-11"

hp = Hotplug()


def pool_file(dev_id):
    return "/sys/kernel/debug/irq_spread/pools/netdevsim%d" % dev_id


def pool_state(dev_id):
    """(header fields, {vector: (irq, users, cpus)}) of a pool's debugfs."""
    lines = read(pool_file(dev_id)).splitlines()
    f = lines[0].lstrip("# ").split()
    head = dict(zip(f[0::2], f[1::2]))
    if lines[1].split() != ["vector", "irq", "users", "cpus"]:
        raise ValueError("pool header %r" % lines[1])
    rows = {}
    for line in lines[2:]:
        v, irq, users, cpus = line.split("\t")
        rows[int(v)] = (int(irq), int(users), parse_cpulist(cpus))
    return head, rows


def hotplug(t, dev_id, topo, tables):
    """The vector on the pool's first CPU, when that CPU goes and comes
    back (numa: a vector has one CPU)."""
    _, rows = pool_state(dev_id)
    v = min(rows, key=lambda r: min(rows[r][2]))
    irq, _, cpus = rows[v]
    cpu = min(cpus)
    if not pluggable(cpu):
        t.diag("CPU %d cannot go offline: no hotplug check" % cpu)
        return
    near = (topo.node_cpus[topo.cpu_node[cpu]] & topo.eligible()) - {cpu}
    hp.set(cpu, False)
    t.eq(pool_state(dev_id)[1], rows,
         "numa, CPU %d offline: the pool's vectors as they were" % cpu)
    t.eq(irq_affinity(irq), near,
         "numa, CPU %d offline: the IRQ on the node's other eligible CPUs"
         % cpu)
    if tables:
        t.eq(fmt_cpulist(irq_affinity(irq)), POOL_OFF,
             "numa, CPU %d offline: the IRQ's CPUs (hand table)" % cpu)
    hp.set(cpu, True)
    t.eq(pool_state(dev_id)[1], rows,
         "numa, CPU %d online: the pool's vectors as they were" % cpu)
    t.eq(irq_affinity(irq), cpus,
         "numa, CPU %d online: the IRQ back on the vector's CPU" % cpu)
    if tables:
        move_refused(t, dev_id, v, irq, cpu)


def napi_not_placed(t, dev):
    """napi-set of the policy on a pool port's NAPI, whose IRQ irq_spread
    does not place: EOPNOTSUPP with an extack."""
    ifname = os.path.basename(sorted(glob.glob(dev + "/net/*"))[0])
    ifindex = int(read("/sys/class/net/%s/ifindex" % ifname))
    set_link(ifname, True)
    try:
        napis = [n for n in netdev_nl().dump("napi-get",
                                             {"ifindex": ifindex})
                 if n.get("irq")]
        t.result(napis, "%s, up, has NAPIs with an IRQ" % ifname)
        if napis:
            r = nl_do("napi-set", {"id": napis[0]["id"],
                                   "irq-affinity-source": "policy"})
            t.result(r.err == errno.EOPNOTSUPP and r.extack,
                     "napi-set of a pool port's NAPI: EOPNOTSUPP with an "
                     "extack", "got %r" % r)
    finally:
        set_link(ifname, False)


def request_refused(t, dev_id):
    """The first port's first get requests vector 0 for CPU 8 (hand table),
    which the lines refuse: the port is not made (ENOSPC), no vector is
    requested."""
    what = "numa, a new vector's CPU 8 refused"
    nsim_fail_irq_affinity(dev_id, {8})
    dev = NSIM_BUS + "/devices/netdevsim%d" % dev_id
    t.eq(write(dev + "/new_port", "0"), errno.ENOSPC,
         "%s: new_port fails with ENOSPC" % what)
    nsim_fail_irq_affinity(dev_id, ())
    head, rows = pool_state(dev_id)
    t.eq((head.get("users"), rows, nsim_irq_actions(dev_id),
          glob.glob(dev + "/net/*")), ("0", {}, {}, []),
         "%s: no vector requested, no port" % what)


def move_refused(t, dev_id, v, irq, cpu):
    """CPU @cpu offline again, the CPUs the pool's placer answers refused:
    the interrupt core moves the IRQ off @cpu as it does any other, and
    back with the CPU; the pool's vector stays on @cpu."""
    what = "numa, CPU %d offline, %s refused" % (cpu, POOL_OFF)
    nsim_fail_irq_affinity(dev_id, parse_cpulist(POOL_OFF))
    hp.set(cpu, False)
    nsim_fail_irq_affinity(dev_id, ())
    _, rows = pool_state(dev_id)
    t.eq(rows[v][2], {cpu}, "%s: the pool's CPU for the vector" % what)
    t.eq(irq_effective(irq), frozenset([0]),
         "%s: the line on the first online CPU not listed" % what)
    hp.set(cpu, True)
    _, rows = pool_state(dev_id)
    t.eq((rows[v][2], irq_affinity(irq)), ({cpu}, frozenset([cpu])),
         "numa, CPU %d online: the vector and its IRQ back" % cpu)


def test(t):
    topo, tables = machine(t)
    node = topo.nodes[-2] if len(topo.nodes) > 1 else topo.nodes[0]
    users = PORTS * QUEUES
    for i, policy in enumerate(POLICIES):
        what = "%s, node %d" % (policy, node)
        set_default_policy(policy)
        dev_id = 7400 + i
        dev = NSIM_BUS + "/devices/netdevsim%d" % dev_id
        write_ok(NSIM_BUS + "/new_device", "%d 0 %d %d" % (dev_id, QUEUES, node))
        try:
            write_ok("%s/netdevsim%d/irq_pool" % (NSIM_DEBUGFS, dev_id),
                     "%d" % VECTORS)
            if policy == "numa" and tables:
                request_refused(t, dev_id)
            for p in range(PORTS):
                write_ok(dev + "/new_port", "%d" % p)

            head, rows = pool_state(dev_id)
            t.eq((head.get("node"), head.get("policy"), head.get("users")),
                 (str(node), policy, str(users)),
                 "%s: pool on the device's node, policy, users" % what)
            t.eq(sorted(rows), list(range(VECTORS)),
                 "%s: every vector requested" % what)
            most = max(u for _, u, _ in rows.values())
            t.result(most <= math.ceil(users / VECTORS),
                     "%s: at most ceil(%d/%d) users per vector"
                     % (what, users, VECTORS), "a vector has %d" % most)

            actions = nsim_irq_actions(dev_id)
            names = sorted(n for ns in actions.values() for n in ns)
            t.eq(names, sorted("nsim%dp%d-rx%d" % (dev_id, p, q)
                               for p in range(PORTS) for q in range(QUEUES)),
                 "%s: one handler per queue" % what)
            t.eq({irq: len(ns) for irq, ns in actions.items()},
                 {irq: u for irq, u, _ in rows.values()},
                 "%s: queues share the pool's IRQs as debugfs counts them"
                 % what)
            got = sorted(read("/proc/irq/%d/smp_affinity_list" % irq)
                         for irq, _, _ in rows.values())
            t.eq(got, sorted(fmt_cpulist(c) for _, _, c in rows.values()),
                 "%s: debugfs CPUs match /proc/irq" % what)
            if tables:
                t.eq(got, sorted(POOL[policy].split()),
                     "%s: vector CPUs (hand table)" % what)
            elig = topo.eligible()
            t.result(all(c <= elig for _, _, c in rows.values()),
                     "%s: rule: only eligible CPUs" % what)
            regs = glob.glob(dev + "/net/*/irq_spread")
            regs += [r.device for r in devices_table()
                     if r.device.startswith(sysfs_path(dev) + "/")]
            t.eq(regs, [], "%s: pool ports not registered" % what)
            if policy == "numa":
                napi_not_placed(t, dev)
            if policy == "numa":
                hotplug(t, dev_id, topo, tables)

            for p in range(PORTS):
                write_ok(dev + "/del_port", "%d" % p)
            head, rows = pool_state(dev_id)
            t.eq((head.get("users"), rows, nsim_irq_actions(dev_id)),
                 ("0", {}, {}), "%s: all released with the last port" % what)
        finally:
            write(NSIM_BUS + "/del_device", "%d" % dev_id)
        t.result(not os.path.exists(pool_file(dev_id)),
                 "%s: pool gone with the device" % what)


run("irq_spread netdevsim pool mode", test, hp.restore)
PY
