#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Write the sysfs-shaped machine trees the irq_spread preview reads.

    make-machines.py            rewrite every tree next to this script
    make-machines.py --out DIR  write the trees under DIR instead
    make-machines.py --check    write into a temporary directory and compare
                                with the committed trees; exit 1 on any
                                difference (run by `make check`)

Each tree is what `--sysfs tools/testing/irq_spread/machines/<name>` reads:
<name>/devices/system/..., <name>/bus/pci/devices/... and
<name>/class/net/...  Only the files the preview reads are written (see
"Files" below); the output depends on nothing but this script.

Machines
--------
epyc-7763-nps4
    Seed 000 (the mlx5 hop-spread review, lscpu in the thread): 2 sockets
    of AMD EPYC 7763, 64 cores SMT2 each, 256 CPUs; 16 nodes, one per CCD
    (NPS4 plus "L3 as NUMA node"): node n = CPUs 8n..8n+7 and their
    siblings 128+8n..128+8n+7.  SLIT as irq_spread_test_epyc in
    lib/irq_spread/tests/machine.c: 10 local, 11 between the
    two nodes of a quadrant (2k, 2k+1), 12 otherwise within a socket
    (nodes 0-7, 8-15), 32 across.  One L3 per CCX = per node (the seed's
    "L3 cache: 32768K" is one CCX's 32 MB).
epyc-7763-nps1
    The same EPYC in NPS1: one node per socket (node 0 = 0-63,128-191,
    node 1 = 64-127,192-255), SLIT 10 / 32, still 8 L3 domains of 8 cores
    per socket.  CPUs numbered as Linux numbers EPYC: socket 0's cores
    0-63, socket 1's 64-127, second threads +128.
mana-vm-4core
    Seed 002 (the MANA irq_setup() review, "Case 1"): a Hyper-V VM, one
    node, 4 cores SMT2, siblings 2k / 2k+1, one L3.  As
    irq_spread_test_mana_vm.
vm-96vcpu-2node
    Seed 002 (Michael Kelley's example): the 96-vCPU 2-node Hyper-V VM,
    24 cores SMT2 per node, siblings 2k / 2k+1, node n = 48n..48n+47; no
    SLIT, so the ACPI defaults 10 / 20; Hyper-V shows a socket per node,
    one L3 per socket.  As irq_spread_test_vm96.
xeon-e5-2697v3
    Seed 004 (the mlx5 SF IRQ pool series): 2 sockets of Xeon E5-2697 v3,
    14 cores SMT2 each, 56 CPUs numbered as Intel firmware does: every
    core's first thread (socket 0, then 1), then the second threads, so
    siblings are i and i+28; node = socket; SLIT 10 / 21; one L3 per
    socket.  As irq_spread_test_xeon.  core_id is not dense: the 14-core
    part is a cut-down 18-core Haswell-EP die and shows core ids 0-6 and
    8-14 (from public cpuinfo dumps of Haswell-EP, not from the seed; it
    makes sure nothing takes core_id for a dense index).
power-smt4-2node
    Not from a seed (issue 14 asks for "a 2-node SMT4 machine"): a
    POWER9-like PowerNV box, 2 chips x 10 cores x SMT4 = 80 CPUs,
    siblings adjacent (4k..4k+3), node = chip, SLIT 10 / 40 (what
    PowerNV POWER9 reports between chips).  L3 per pair of cores (POWER9
    has one 10 MB L3 region per core pair), so 5 L3 domains per node; that
    the kernel's powerpc cacheinfo shows the pair depends on the device
    tree, an assumption here.  As on powerpc: core_id is the hardware id
    of the core's first thread (cpu_to_core_id(): P9 PIR = chip << 8 |
    core << 2 | thread), physical_package_id the chip id, and index3 has
    no "id" file (arch/powerpc/kernel/cacheinfo.c does not create one).
    Real 2-socket POWER9 numbers its nodes 0 and 8; this one uses 0 and 1.
isolated-4node
    Not from a seed, for tests: 2 packages x 2 nodes x 2 cores SMT2 = 16
    CPUs, siblings 2k / 2k+1, node n = 4n..4n+3, one L3 per node; SLIT 10
    local, 20 between nodes 0-1 and 2-3, 30 otherwise; node 4 has memory
    and no CPU, 40 to every other node.  CPU 5 is offline, booted with
    isolcpus=2-3 nohz_full=9.  Offline as x86 shows it in 6.12 (see below).

Fake NICs (bus/pci/devices/<addr>/numa_node and class/net/<ifname>/device,
a relative symlink to the PCI device directory; chosen here, not from the
seeds):
    epyc-7763-nps4    enp65s0f0np0  0000:41:00.0  node 2
                      enp193s0f0np0 0000:c1:00.0  node 13
    epyc-7763-nps1    enp65s0f0np0  0000:41:00.0  node 0
                      enp193s0f0np0 0000:c1:00.0  node 1
    mana-vm-4core     enP30832s1    7870:00:00.0  node 0
    vm-96vcpu-2node   enP30832s1    7870:00:00.0  node 0
                      enP45056s2    b000:00:00.0  node -1 (no affinity)
    xeon-e5-2697v3    enp4s0f0np0   0000:04:00.0  node 0
                      enp130s0f0np0 0000:82:00.0  node 1
    power-smt4-2node  enp1s0f0      0000:01:00.0  node 0
                      enP6p1s0f0    0006:01:00.0  node 1
    isolated-4node    eth0          0000:00:04.0  node 1 (CPU 5 offline)
                      eth1          0000:00:05.0  node -1

Files, formatted as Linux 6.12 does (one line, trailing newline)
----------------------------------------------------------------
devices/system/node/{online,possible,has_cpu}, nodeN/cpulist: "%*pbl\n"
    (drivers/base/node.c: print_nodes_state(), node_read_cpulist()); a
    node without CPUs has an empty cpulist, "\n".
devices/system/node/nodeN/distance: node_distance() to every online node,
    space separated (node_read_distance()).
devices/system/cpu/{online,possible,present}: cpumap_print_to_pagebuf(),
    offline: possible minus online, "\n" when none (print_cpus_offline()).
devices/system/cpu/isolated: possible minus the HK_TYPE_DOMAIN
    housekeeping CPUs, "%*pbl\n", so "\n" without isolcpus=
    (print_cpus_isolated()).  nohz_full= does not add to it
    (kernel/sched/isolation.c: housekeeping_nohz_full_setup() has no
    HK_FLAG_DOMAIN).
devices/system/cpu/nohz_full: only with CONFIG_NO_HZ_FULL; "%*pbl\n" of
    tick_nohz_full_mask, which is allocated only when nohz_full= is given
    (kernel/time/tick-sched.c: tick_nohz_full_setup()).  Without it the
    file reads "(null)\n" on a CONFIG_CPUMASK_OFFSTACK kernel (vsprintf's
    check_pointer() on the NULL mask: distribution kernels) and "\n"
    otherwise.  Every machine here reads "(null)\n" except mana-vm-4core
    ("\n") and isolated-4node ("9\n"), so that both forms are covered.
devices/system/cpu/cpuN/topology/{thread_siblings_list,core_id,
    physical_package_id} (drivers/base/topology.c); die_id, cluster_id and
    core_siblings_list are not written: the preview does not read them.
devices/system/cpu/cpuN/cache/index3/{level,shared_cpu_list,id}
    (drivers/base/cacheinfo.c); id is x86's APIC id >> the bits of the
    threads sharing the L3: the CCD on EPYC (0-15), the socket on the
    Xeon and the VMs.  index0..2 are not written.
devices/system/cpu/cpuN/online: "0\n" / "1\n", only in isolated-4node (it
    keeps cpu5/ from being an empty directory, which git cannot hold), and
    as on x86 not for CPU 0 (arch_cpu_is_hotpluggable() is cpu > 0).

An offline CPU on x86 (isolated-4node's CPU 5): its topology/ directory goes
at CPUHP_TOPOLOGY_PREPARE (topology_remove_dev()) and its cache/ directory at
CPUHP_AP_BASE_CACHEINFO_ONLINE (cacheinfo_cpu_pre_down()); it leaves its
node's cpulist (arch/x86/kernel/smpboot.c: remove_cpu_from_maps() ->
numa_remove_cpu()), its sibling's thread_siblings_list (remove_siblinginfo())
and the other CPUs' L3 shared_cpu_list (cache_shared_cpu_map_remove()).
It stays in present and possible.
"""

import argparse
import filecmp
import os
import shutil
import sys
import tempfile


def cpulist(cpus):
    """A set of CPUs (or nodes) in kernel list format, "0-7,128-135"."""
    out = []
    run = None
    for c in sorted(cpus):
        if run and c == run[1] + 1:
            run[1] = c
        else:
            run = [c, c]
            out.append(run)
    return ",".join(str(a) if a == b else "%d-%d" % (a, b) for a, b in out)


class Machine:
    """A machine: CPUs 0..nr_cpus-1, all present and possible.

    nodes: per node id 0..n-1, its CPUs (offline ones too; empty for a
    node without CPUs); distance(a, b): SLIT; core(cpu): a key shared by
    a core's threads; core_id(cpu), package(cpu): the topology files;
    l3(cpu): (id, key) of the CPU's L3 or None; l3_id: write index3/id;
    offline, isolated: sets; nohz_full: a set, or None for no nohz_full=
    (written as nohz_null); cpu_online: write cpuN/online; nics:
    (ifname, PCI address, numa_node).
    """

    def __init__(self, name, nr_cpus, nodes, distance, core, core_id,
                 package, l3, l3_id=True, offline=(), isolated=(),
                 nohz_full=None, nohz_null="(null)", cpu_online=False,
                 nics=()):
        self.name = name
        self.nr_cpus = nr_cpus
        self.nodes = [set(n) for n in nodes]
        self.distance = distance
        self.core = core
        self.core_id = core_id
        self.package = package
        self.l3 = l3
        self.l3_id = l3_id
        self.offline = set(offline)
        self.isolated = set(isolated)
        self.nohz_full = nohz_full
        self.nohz_null = nohz_null
        self.cpu_online = cpu_online
        self.nics = nics
        cpus = [c for n in self.nodes for c in n]
        if sorted(cpus) != list(range(nr_cpus)):
            raise ValueError("%s: nodes do not cover CPUs 0-%d once"
                             % (name, nr_cpus - 1))


def write(root, rel, text):
    path = os.path.join(root, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text + "\n")


def write_machine(m, root):
    cpus = range(m.nr_cpus)
    online = [c for c in cpus if c not in m.offline]
    nodes = range(len(m.nodes))
    sysn = "devices/system/node/"
    sysc = "devices/system/cpu/"

    def group(key):
        """Online CPUs by key(cpu): what the kernel's masks hold."""
        g = {}
        for c in online:
            k = key(c)
            if k is not None:
                g.setdefault(k, set()).add(c)
        return g

    write(root, sysn + "online", cpulist(nodes))
    write(root, sysn + "possible", cpulist(nodes))
    write(root, sysn + "has_cpu",
          cpulist(n for n in nodes if m.nodes[n] - m.offline))
    for n in nodes:
        d = "%snode%d/" % (sysn, n)
        write(root, d + "cpulist", cpulist(m.nodes[n] - m.offline))
        write(root, d + "distance",
              " ".join(str(m.distance(n, to)) for to in nodes))

    write(root, sysc + "online", cpulist(online))
    write(root, sysc + "possible", cpulist(cpus))
    write(root, sysc + "present", cpulist(cpus))
    write(root, sysc + "offline", cpulist(m.offline))
    write(root, sysc + "isolated", cpulist(m.isolated))
    write(root, sysc + "nohz_full", m.nohz_null if m.nohz_full is None
          else cpulist(m.nohz_full))

    threads = group(m.core)
    l3s = group(lambda c: m.l3(c) and m.l3(c)[1])
    for c in cpus:
        d = "%scpu%d/" % (sysc, c)
        if m.cpu_online and c > 0:
            write(root, d + "online", "0" if c in m.offline else "1")
        if c in m.offline:
            continue
        t = d + "topology/"
        write(root, t + "thread_siblings_list",
              cpulist(threads[m.core(c)]))
        write(root, t + "core_id", str(m.core_id(c)))
        write(root, t + "physical_package_id", str(m.package(c)))
        if m.l3(c) is None:
            continue
        l3id, key = m.l3(c)
        i = d + "cache/index3/"
        write(root, i + "level", "3")
        write(root, i + "shared_cpu_list", cpulist(l3s[key]))
        if m.l3_id:
            write(root, i + "id", str(l3id))

    for ifname, addr, node in m.nics:
        dev = "bus/pci/devices/" + addr
        write(root, dev + "/numa_node", str(node))
        link = os.path.join(root, "class/net", ifname, "device")
        os.makedirs(os.path.dirname(link), exist_ok=True)
        os.symlink("../../../" + dev, link)


def epyc(name, nps1, nics):
    """2 x EPYC 7763: core k (0-127) = CPUs k, k+128, CCD k / 8."""
    def ccd(c):
        return c % 128 // 8

    if nps1:
        nodes = [[c for c in range(256) if c % 128 // 64 == s]
                 for s in range(2)]

        def distance(a, b):
            return 10 if a == b else 32
    else:
        nodes = [[c for c in range(256) if ccd(c) == n]
                 for n in range(16)]

        def distance(a, b):
            if a == b:
                return 10
            if a // 8 != b // 8:
                return 32
            return 11 if a // 2 == b // 2 else 12

    return Machine(name, 256, nodes, distance,
                   core=lambda c: c % 128,
                   core_id=lambda c: c % 64,
                   package=lambda c: c % 128 // 64,
                   l3=lambda c: (ccd(c), ccd(c)),
                   nics=nics)


def adjacent(name, nr_nodes, cores, smt, distance, per_package, l3_cores,
             core_id=None, memory_nodes=0, **kw):
    """Siblings adjacent (smt * k ..), node n = the n-th run of CPUs.

    per_package nodes to a package; an L3 per l3_cores cores of a node;
    memory_nodes nodes without CPUs after the others.
    """
    per_node = cores * smt

    def pkg(c):
        return c // per_node // per_package

    def core_in_pkg(c):
        return c // smt - pkg(c) * per_package * cores

    def l3(c):
        k = c // smt // l3_cores
        return (k, k)

    nodes = [range(n * per_node, (n + 1) * per_node)
             for n in range(nr_nodes)] + [[]] * memory_nodes
    return Machine(name, nr_nodes * per_node, nodes, distance,
                   core=lambda c: c // smt,
                   core_id=core_id or core_in_pkg, package=pkg, l3=l3,
                   **kw)


def slit(remote):
    return lambda a, b: 10 if a == b else remote


def xeon():
    """Core k (0-27) = CPUs k, k+28; socket k / 14."""
    ids = list(range(0, 7)) + list(range(8, 15))

    def sock(c):
        return c % 28 // 14

    return Machine("xeon-e5-2697v3", 56,
                   [[c for c in range(56) if sock(c) == s]
                    for s in range(2)],
                   slit(21), core=lambda c: c % 28,
                   core_id=lambda c: ids[c % 14], package=sock,
                   l3=lambda c: (sock(c), sock(c)),
                   nics=[("enp4s0f0np0", "0000:04:00.0", 0),
                         ("enp130s0f0np0", "0000:82:00.0", 1)])


def isolated():
    def distance(a, b):
        if a == b:
            return 10
        if 4 in (a, b):
            return 40
        return 20 if a // 2 == b // 2 else 30

    return adjacent("isolated-4node", 4, 2, 2, distance, 2, 2,
                    memory_nodes=1, offline={5}, isolated={2, 3},
                    nohz_full={9}, cpu_online=True,
                    nics=[("eth0", "0000:00:04.0", 1),
                          ("eth1", "0000:00:05.0", -1)])


MACHINES = [
    epyc("epyc-7763-nps4", False,
         [("enp65s0f0np0", "0000:41:00.0", 2),
          ("enp193s0f0np0", "0000:c1:00.0", 13)]),
    epyc("epyc-7763-nps1", True,
         [("enp65s0f0np0", "0000:41:00.0", 0),
          ("enp193s0f0np0", "0000:c1:00.0", 1)]),
    adjacent("mana-vm-4core", 1, 4, 2, slit(20), 1, 4, nohz_null="",
             nics=[("enP30832s1", "7870:00:00.0", 0)]),
    adjacent("vm-96vcpu-2node", 2, 24, 2, slit(20), 1, 24,
             nics=[("enP30832s1", "7870:00:00.0", 0),
                   ("enP45056s2", "b000:00:00.0", -1)]),
    xeon(),
    adjacent("power-smt4-2node", 2, 10, 4, slit(40), 1, 2,
             core_id=lambda c: (c // 40) << 8 | (c // 4 % 10) << 2,
             l3_id=False,
             nics=[("enp1s0f0", "0000:01:00.0", 0),
                   ("enP6p1s0f0", "0006:01:00.0", 1)]),
    isolated(),
]


# What lives next to the trees and is not one.
OWN_FILES = ["make-machines.py", "README"]


def write_all(out):
    for m in MACHINES:
        path = os.path.join(out, m.name)
        if os.path.lexists(path):
            shutil.rmtree(path)
        write_machine(m, path)
        for d, subdirs, files in os.walk(path):
            if not subdirs and not files:
                raise RuntimeError("%s: empty directory (git "
                                   "cannot hold it)" % d)


def entries(root):
    """Every path under root: 'd', ('l', target) or ('f', path)."""
    e = {}
    for d, subdirs, files in os.walk(root):
        for s in list(subdirs):
            p = os.path.join(d, s)
            if os.path.islink(p):
                subdirs.remove(s)
                files.append(s)
            else:
                e[os.path.relpath(p, root)] = "d"
        for f in files:
            p = os.path.join(d, f)
            rel = os.path.relpath(p, root)
            e[rel] = ("l", os.readlink(p)) if os.path.islink(p) \
                else ("f", p)
    return e


def differences(new, old, name):
    """What differs between the trees new and old, paths under name/."""
    a, b = entries(new), entries(old)
    diff = []
    for rel in sorted(set(a) | set(b)):
        if rel != "." and differs(a.get(rel), b.get(rel)):
            diff.append("%s %s/%s" % (
                "missing from the tree:" if rel not in b else
                "not written by the script:" if rel not in a else
                "differs:", name, rel))
    return diff


def differs(a, b):
    if a is None or b is None:
        return True
    if a == "d" or b == "d" or a[0] != b[0] or a[0] == "l":
        return a != b
    return not filecmp.cmp(a[1], b[1], shallow=False)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default=here,
                    help="where to write the trees (default: next to "
                    "this script)")
    ap.add_argument("--check", action="store_true",
                    help="compare a fresh run with the trees in --out")
    args = ap.parse_args()

    if not args.check:
        write_all(args.out)
        return 0

    tmp = tempfile.mkdtemp(prefix="irq_spread-machines-")
    try:
        write_all(tmp)
        diff = []
        for m in MACHINES:
            diff += differences(os.path.join(tmp, m.name),
                                os.path.join(args.out, m.name), m.name)
        names = set(m.name for m in MACHINES) | set(OWN_FILES)
        diff += ["not written by the script: " + n
                 for n in sorted(os.listdir(args.out)) if n not in names]
    finally:
        shutil.rmtree(tmp)
    for d in diff[:20]:
        print("make-machines.py --check: %s" % d, file=sys.stderr)
    if len(diff) > 20:
        print("make-machines.py --check: ... %d more" %
              (len(diff) - 20), file=sys.stderr)
    if diff:
        print("make-machines.py --check: run make-machines.py and commit "
              "its output", file=sys.stderr)
    return 1 if diff else 0


if __name__ == "__main__":
    sys.exit(main())
