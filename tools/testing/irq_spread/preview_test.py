#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Tests of the irq_spread preview tool (tools/irq_spread) on the machines
of tools/testing/irq_spread/machines and on this machine's /sys.

    preview_test.py TOOL [MACHINES_DIR]

Prints KTAP.  The expected placements are worked out by hand from the
policies' rules (Documentation/core-api/irq_spread.rst, lib/irq_spread/
spread.c) and each machine's numbering (machines/README); the rule checks
hold for every output: only eligible CPUs, every CPU taken once before any
twice, nearer CPUs first.  Bad trees are copies of a good one with one file
broken: each must fail with exit 1, one message naming the broken file, and
nothing on stdout.
"""

import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
import xml.dom.minidom
import xml.parsers.expat

TOOL = sys.argv[1]
MACHINES = sys.argv[2] if len(sys.argv) > 2 else os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "machines")

results = []


def check(name, ok, diag=""):
    results.append((name, bool(ok), diag))


def run(*args):
    p = subprocess.run([TOOL, *args], capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def preview(machine, *args):
    """The tool's JSON for a machine; raises if it failed."""
    rc, out, err = run("--sysfs", os.path.join(MACHINES, machine), "-j", *args)
    if rc:
        raise RuntimeError(f"{machine} {' '.join(args)}: exit {rc}: {err.strip()}")
    return json.loads(out)


def cpus_of(doc, dev=None):
    vecs = doc["vectors"] if dev is None else doc["devices"][dev]["vectors"]
    return [v["cpus"] for v in vecs]


def r(a, b):
    return list(range(a, b + 1))


# name, machine, arguments, expected CPUs per vector (of the last device)
HAND = [
    # EPYC NPS4: node 2 = CPUs 16-23 and their siblings 144-151; node 3
    # (distance 11, the other node of the quadrant) = 24-31 / 152-159.
    ("epyc node 2 numa 8: the node's first threads", "epyc-7763-nps4",
     ["--dev", "enp65s0f0np0", "--vectors", "8", "--policy", "numa"],
     [[c] for c in r(16, 23)]),
    ("epyc node 2 numa 16: the node's every thread", "epyc-7763-nps4",
     ["--dev", "enp65s0f0np0", "--vectors", "16", "--policy", "numa"],
     [[c] for c in r(16, 23) + r(144, 151)]),
    ("epyc node 2 numa 17: then the nearest node, 3", "epyc-7763-nps4",
     ["--dev", "enp65s0f0np0", "--vectors", "17", "--policy", "numa"],
     [[c] for c in r(16, 23) + r(144, 151)] + [[24]]),
    ("epyc node 2 numa-core 8: a whole core each", "epyc-7763-nps4",
     ["--dev", "0000:41:00.0", "--vectors", "8", "--policy", "numa-core"],
     [[c, c + 128] for c in r(16, 23)]),
    ("epyc node 2 numa-core 16: two per core, a thread each",
     "epyc-7763-nps4",
     ["--dev", "0000:41:00.0", "--vectors", "16", "--policy", "numa-core"],
     [[c] for c in r(16, 23) + r(144, 151)]),
    ("epyc node 2 core 16: node 3's cores before node 2's siblings",
     "epyc-7763-nps4",
     ["--node", "2", "--vectors", "16", "--policy", "core"],
     [[c] for c in r(16, 31)]),
    ("epyc two NICs on node 2: the second on the siblings left",
     "epyc-7763-nps4",
     ["--node", "2", "--vectors", "8", "--node", "2", "--vectors", "8"],
     [[c] for c in r(144, 151)]),
    # NPS1: node 1 = CPUs 64-127 (and +128), an L3 per 8 cores: one vector
    # per L3, the first CPU of each in turn.
    ("epyc nps1 node 1 numa 4: socket 1, one per L3", "epyc-7763-nps1",
     ["--dev", "enp193s0f0np0", "--vectors", "4"],
     [[64], [72], [80], [88]]),
    ("epyc nps1 node 0 numa-core 12: a core per L3, then the next",
     "epyc-7763-nps1",
     ["--dev", "enp65s0f0np0", "--vectors", "12", "--policy", "numa-core"],
     [[c, c + 128] for c in [0, 8, 16, 24, 32, 40, 48, 56, 1, 9, 17, 25]]),
    # Xeon: node 1 = cores 14-27, threads i and i + 28.
    ("xeon node 1 numa-core 14: whole cores", "xeon-e5-2697v3",
     ["--dev", "enp130s0f0np0", "--vectors", "14", "--policy", "numa-core"],
     [[c, c + 28] for c in r(14, 27)]),
    # MANA VM: 4 cores, threads 2k and 2k + 1.
    ("mana vm numa-core 4: a whole core each", "mana-vm-4core",
     ["--vectors", "4", "--policy", "numa-core"],
     [[0, 1], [2, 3], [4, 5], [6, 7]]),
    ("mana vm numa-core 8: one thread each (the low-vCPU fix)",
     "mana-vm-4core",
     ["--vectors", "8", "--policy", "numa-core"],
     [[0], [2], [4], [6], [1], [3], [5], [7]]),
    # isolated-4node: eligible 0-1,4,6-8,10-15 (5 offline, 2-3 isolated,
    # 9 nohz_full); node 1 = 4,6,7; node 0 is node 1's nearest (20).
    ("isolated node 1 numa 4: eligible CPUs only, then node 0",
     "isolated-4node", ["--dev", "eth0", "--vectors", "4"],
     [[4], [6], [7], [0]]),
    # Node 4 has no CPUs and is 40 from all: one tier of every eligible
    # CPU, an L3 per node (0-1; 4,6,7; 8,10,11; 12-15); core: first
    # threads one per L3 in turn, 0,4,8,12, then 6,10,14; then the second
    # threads the same way, 1,7,11,13, then 15.
    ("isolated memory-only node 4 core 16", "isolated-4node",
     ["--node", "4", "--vectors", "16", "--policy", "core"],
     [[c] for c in [0, 4, 8, 12, 6, 10, 14, 1, 7, 11, 13, 15, 0, 4, 8, 12]]),
    # No node: one tier of both nodes, an L3 each: one per L3 in turn.
    ("vm96 no node numa 3: one per L3 in turn", "vm-96vcpu-2node",
     ["--dev", "enP45056s2", "--vectors", "3"],
     [[0], [48], [1]]),
    # POWER-like: node 0 = cores 0-9, threads 4k..4k+3, an L3 per core
    # pair (0-7, 8-15, ...): 20 vectors put two on each core, so one
    # thread each, first threads one per L3 in turn (0,8,..,32, then
    # 4,12,..,36), then second threads the same way.
    ("power smt4 numa-core 20: one per L3, first then second threads",
     "power-smt4-2node",
     ["--node", "0", "--vectors", "20", "--policy", "numa-core"],
     [[c] for c in [0, 8, 16, 24, 32, 4, 12, 20, 28, 36,
                    1, 9, 17, 25, 33, 5, 13, 21, 29, 37]]),
]

for name, machine, args, want in HAND:
    try:
        got = cpus_of(preview(machine, *args), -1)
        check(name, got == want, f"want {want}\n got {got}")
    except (RuntimeError, ValueError, KeyError) as e:
        check(name, False, str(e))


def machine_info(doc):
    return doc["machine"]


def nics(machine):
    base = os.path.join(MACHINES, machine, "class", "net")
    return sorted(os.listdir(base)) if os.path.isdir(base) else []


def read_list(path):
    """A kernel CPU list file as a set; None if the file is missing."""
    try:
        with open(path) as f:
            text = f.read().strip()
    except FileNotFoundError:
        return None
    out = set()
    for part in filter(None, text.split(",")):
        a, _, b = part.partition("-")
        out.update(range(int(a), int(b or a) + 1))
    return out


def cache_view(machine):
    """Per CPU its L3 (index3/shared_cpu_list, or itself alone where there
    is none) and its node; per node its distance row, by node order."""
    root = os.path.join(MACHINES, machine, "devices", "system")
    l3, node_of, dist = {}, {}, {}
    for d in os.listdir(os.path.join(root, "cpu")):
        if d.startswith("cpu") and d[3:].isdigit():
            c = int(d[3:])
            l3[c] = frozenset(read_list(os.path.join(
                root, "cpu", d, "cache", "index3", "shared_cpu_list")) or {c})
    nodes = os.path.join(root, "node")
    names = sorted((int(d[4:]) for d in os.listdir(nodes)
                    if d.startswith("node") and d[4:].isdigit())) \
        if os.path.isdir(nodes) else []
    for n in names:
        for c in read_list(os.path.join(nodes, f"node{n}", "cpulist")) or ():
            node_of[c] = n
        with open(os.path.join(nodes, f"node{n}", "distance")) as f:
            dist[n] = dict(zip(names, map(int, f.read().split())))
    return l3, node_of, dist


def l3_crowded(doc, view, node):
    """Vectors whose interrupt (the first CPU of the mask) joins an L3 that
    holds an earlier vector's while another L3 with an eligible CPU, no
    farther from the device node, holds none: what the cache-domain order
    never does for one device (quality.h's l3_crowded)."""
    l3, node_of, dist = view

    def d(cpu):
        if node is None or node < 0 or cpu not in node_of:
            return 0
        return dist[node][node_of[cpu]]

    near = {}
    for c in machine_info(doc)["eligible"]:
        near[l3[c]] = min(near.get(l3[c], d(c)), d(c))
    hit, bad = set(), []
    for i, v in enumerate(cpus_of(doc)):
        if not v:
            continue
        dom = l3[v[0]]
        if dom in hit and any(k not in hit and near[k] <= d(v[0])
                              for k in near):
            bad.append(f"vector {i} on {v}: an L3 as near was free")
        hit.add(dom)
    return bad


def rules(doc, policy, nvec, view=None):
    """Rule violations of a single device's placement, as strings."""
    bad = []
    eligible = set(machine_info(doc)["eligible"])
    vecs = cpus_of(doc)
    if len(vecs) != nvec:
        bad.append(f"{len(vecs)} vectors, not {nvec}")
    for i, v in enumerate(vecs):
        if not v or not set(v) <= eligible:
            bad.append(f"vector {i} on {v}: not eligible CPUs")
    # Every eligible CPU is some vector's before any is a second's: with
    # one CPU per vector, counts differ by at most one.
    single = all(len(v) == 1 for v in vecs)
    if single:
        count = {c: 0 for c in eligible}
        for v in vecs:
            count[v[0]] += 1
        lo, hi = nvec // len(eligible), math.ceil(nvec / len(eligible))
        if any(n < lo or n > hi for n in count.values()):
            bad.append(f"per-CPU counts outside {lo}..{hi}")
    # Nearest first: in the first round, no vector is nearer than the one
    # before it (numa and numa-core order by hop first).
    if policy != "core" and "distance" in doc["vectors"][0]:
        d = [v["distance"] for v in doc["vectors"][:len(eligible)]]
        if any(b < a for a, b in zip(d, d[1:])):
            bad.append(f"distances not nearest first: {d}")
    # One per cache domain: no vector joins an L3 while one as near is free.
    if view:
        bad += l3_crowded(doc, view, doc["devices"][-1]["node"])[:3]
    return bad


for machine in sorted(os.listdir(MACHINES)):
    if not os.path.isdir(os.path.join(MACHINES, machine, "devices")):
        continue
    try:
        info = machine_info(preview(machine, "--vectors", "1"))
    except (RuntimeError, ValueError) as e:
        check(f"{machine}: previews", False, str(e))
        continue
    threads = len(info["eligible"])
    view = cache_view(machine)
    bad = []
    for dev in nics(machine) or [None]:
        for policy in ("numa", "numa-core", "core"):
            for nvec in (1, info["cores"], threads, threads + 1):
                args = ["--vectors", str(nvec), "--policy", policy]
                if dev:
                    args = ["--dev", dev] + args
                try:
                    doc = preview(machine, *args)
                    bad += [f"{dev} {policy} {nvec}: {b}"
                            for b in rules(doc, policy, nvec, view)]
                except (RuntimeError, ValueError, KeyError) as e:
                    bad.append(str(e))
    check(f"{machine}: every NIC, policy and size keeps the rules", not bad,
          "\n".join(bad[:10]))

# The figures, worked out by hand from their definitions (the admin guide).
# EPYC node 2: 8 numa vectors on 16-23, one core and the L3 of node 2 each;
# 16 add the siblings 144-151 (8 share a core); core 16 puts 8 on node 3
# (distance 11): mean (8 * 10 + 8 * 11) / 16 = 10.5 against 10 for the 16
# threads of node 2, on 2 L3 domains.
FIGURES = [
    ("numa 8", ["--node", "2", "--vectors", "8"],
     {"mean_distance": 10, "lower_bound": 10, "core_shared": 0,
      "max_per_cpu": 1, "l3_used": 1}),
    ("numa 16", ["--node", "2", "--vectors", "16"],
     {"mean_distance": 10, "lower_bound": 10, "core_shared": 8,
      "max_per_cpu": 1, "l3_used": 1}),
    ("core 16", ["--node", "2", "--vectors", "16", "--policy", "core"],
     {"mean_distance": 10.5, "lower_bound": 10, "core_shared": 0,
      "max_per_cpu": 1, "l3_used": 2}),
    # 300 vectors on 256 CPUs: 44 CPUs take 2.
    ("numa 300", ["--node", "2", "--vectors", "300"],
     {"max_per_cpu": 2}),
]
for name, args, want in FIGURES:
    try:
        q = preview("epyc-7763-nps4", *args)["quality"]
        got = {k: q[k] for k in want}
        check(f"figures: epyc node 2 {name}",
              all(abs(got[k] - want[k]) < 1e-9 for k in want),
              f"want {want}\n got {got}")
    except (RuntimeError, ValueError, KeyError) as e:
        check(f"figures: epyc node 2 {name}", False, str(e))

# Without cache/index3, a CPU's L3 domain is its package: the Xeon has 2.
with tempfile.TemporaryDirectory() as tmp:
    root = os.path.join(tmp, "xeon")
    shutil.copytree(os.path.join(MACHINES, "xeon-e5-2697v3"), root,
                    symlinks=True)
    cpu = os.path.join(root, "devices", "system", "cpu")
    for d in os.listdir(cpu):
        shutil.rmtree(os.path.join(cpu, d, "cache"), ignore_errors=True)
    rc, out, err = run("--sysfs", root, "-j", "--node", "1", "--vectors", "14")
    try:
        doc = json.loads(out)
        check("no index3: an L3 domain per package",
              doc["machine"]["l3_domains"] == 2 and
              doc["quality"]["l3_used"] == 1, out[:200])
    except ValueError:
        check("no index3: an L3 domain per package", False,
              f"exit {rc}: {err.strip()}")

# Without cache/index3 but with clusters of two cores (arm64 without a shared
# L3): the clusters are the cache domains, as cpu_coregroup_mask() takes
# them there.  MANA's VM, cores 0-1 .. 6-7: clusters 0-3 and 4-7; numa 4
# goes one per cluster in turn: 0, 4, 1, 5.  Clusters of one core each are
# no cache domains (x86 shows its L2 so): CPU order, as with no cache.
with tempfile.TemporaryDirectory() as tmp:
    root = os.path.join(tmp, "mana")
    shutil.copytree(os.path.join(MACHINES, "mana-vm-4core"), root,
                    symlinks=True)
    cpu = os.path.join(root, "devices", "system", "cpu")
    for c in range(8):
        shutil.rmtree(os.path.join(cpu, f"cpu{c}", "cache"))
        with open(os.path.join(cpu, f"cpu{c}", "topology",
                               "cluster_cpus_list"), "w") as f:
            f.write("0-3\n" if c < 4 else "4-7\n")
    for name, args, want in [
            ("clusters: numa 4 one per cluster", ["--vectors", "4"],
             [[0], [4], [1], [5]]),
            ("clusters: numa-core 4 a core per cluster",
             ["--vectors", "4", "--policy", "numa-core"],
             [[0, 1], [4, 5], [2, 3], [6, 7]])]:
        rc, out, err = run("--sysfs", root, "-j", "--node", "0", *args)
        try:
            doc = json.loads(out)
            check(name, cpus_of(doc) == want and
                  doc["machine"]["l3_domains"] == 2,
                  f"want {want}\n got {cpus_of(doc)}")
        except ValueError:
            check(name, False, f"exit {rc}: {err.strip()}")
    for c in range(8):
        with open(os.path.join(cpu, f"cpu{c}", "topology",
                               "cluster_cpus_list"), "w") as f:
            f.write("%d-%d\n" % (c // 2 * 2, c // 2 * 2 + 1))
    rc, out, err = run("--sysfs", root, "-j", "--node", "0", "--vectors", "4")
    try:
        check("clusters of one core: no cache domains, CPU order",
              cpus_of(json.loads(out)) == [[0], [1], [2], [3]], out[:300])
    except ValueError:
        check("clusters of one core: no cache domains, CPU order", False,
              f"exit {rc}: {err.strip()}")

# Pictures of every machine, two devices each: the SVG parses as XML and has
# a cell per CPU (class "cpu"), the map stays within 100 columns and is plain
# ASCII without colours.
with tempfile.TemporaryDirectory() as tmp:
    for machine in sorted(os.listdir(MACHINES)):
        if not os.path.isdir(os.path.join(MACHINES, machine, "devices")):
            continue
        svg = os.path.join(tmp, machine + ".svg")
        rc, out, err = run("--sysfs", os.path.join(MACHINES, machine),
                           "--svg", svg, "--map", "--color", "never",
                           "--vectors", "4", "--node", "-1", "--vectors", "3")
        try:
            dom = xml.dom.minidom.parse(svg)
            cells = [e for e in dom.getElementsByTagName("g")
                     if "cpu" in e.getAttribute("class").split()]
            cpus = json.loads(run("--sysfs", os.path.join(MACHINES, machine),
                                  "-j", "--vectors", "1")[1])["machine"]["cpus"]
            check(f"{machine}: the SVG is XML with a cell per CPU",
                  rc == 0 and len(cells) == len(cpus),
                  f"exit {rc}, {len(cells)} cells for {len(cpus)} CPUs")
        except (OSError, ValueError, xml.parsers.expat.ExpatError) as e:
            check(f"{machine}: the SVG is XML with a cell per CPU", False,
                  f"exit {rc}: {e} {err.strip()}")
        tail = out[out.find("irq_spread map:"):]
        check(f"{machine}: the map fits 100 columns, plain ASCII",
              rc == 0 and "irq_spread map:" in out and tail.isascii() and
              "\x1b" not in out and
              max(len(line) for line in tail.splitlines()) <= 100)

# JSON shape: a single device's vectors at the top level too, not for two.
try:
    one = preview("mana-vm-4core", "--vectors", "2")
    two = preview("mana-vm-4core", "--vectors", "2", "--vectors", "2")
    check("json: one device has top-level vectors and quality",
          one["vectors"] == one["devices"][0]["vectors"] and
          "quality" in one and len(one["devices"]) == 1)
    check("json: two devices have no top-level vectors",
          "vectors" not in two and len(two["devices"]) == 2)
except (RuntimeError, ValueError, KeyError) as e:
    check("json shape", False, str(e))

# This machine.
rc, out, err = run("-j")
try:
    doc = json.loads(out) if rc == 0 else None
    ok = doc is not None and all(
        set(v["cpus"]) <= set(doc["machine"]["eligible"])
        for d in doc["devices"] for v in d["vectors"])
    check("this machine's /sys previews", ok, f"exit {rc}: {err.strip()}")
except ValueError as e:
    check("this machine's /sys previews", False, str(e))
rc, out, err = run()
check("this machine's /sys: the table", rc == 0 and "device 0:" in out,
      f"exit {rc}: {err.strip()}")


# Bad trees: (name, how to break a copy of isolated-4node, the file the
# message must name, extra arguments)
def write(rel, text):
    def f(root):
        path = os.path.join(root, rel)
        if os.path.isdir(path) and not os.path.islink(path):
            shutil.rmtree(path)
        with open(path, "w") as fh:
            fh.write(text)
    return f


def remove(rel):
    def f(root):
        os.unlink(os.path.join(root, rel))
    return f


def make_dir(rel):
    def f(root):
        path = os.path.join(root, rel)
        os.unlink(path)
        os.mkdir(path)
    return f


CPU = "devices/system/cpu"
NODE = "devices/system/node"
BAD = [
    ("no possible file", remove(f"{CPU}/possible"), f"{CPU}/possible", []),
    ("no online file", remove(f"{CPU}/online"), f"{CPU}/online", []),
    ("no CPU online", write(f"{CPU}/online", "\n"), f"{CPU}/online", []),
    ("online not within possible", write(f"{CPU}/online", "0-16\n"),
     f"{CPU}/online", []),
    ("a CPU list with a letter", write(f"{NODE}/node0/cpulist", "0-1,x\n"),
     f"{NODE}/node0/cpulist", []),
    ("a backwards range", write(f"{CPU}/isolated", "3-2\n"),
     f"{CPU}/isolated", []),
    ("a node cpulist missing", remove(f"{NODE}/node2/cpulist"),
     f"{NODE}/node2/cpulist", []),
    ("two nodes with one CPU", write(f"{NODE}/node1/cpulist", "0,4,6-7\n"),
     f"{NODE}/node1/cpulist", []),
    ("a distance row too short", write(f"{NODE}/node0/distance", "10 20 30 30\n"),
     f"{NODE}/node0/distance", []),
    ("a distance row too long",
     write(f"{NODE}/node0/distance", "10 20 30 30 40 40\n"),
     f"{NODE}/node0/distance", []),
    ("a distance that is no number",
     write(f"{NODE}/node0/distance", "10 20 3O 30 40\n"),
     f"{NODE}/node0/distance", []),
    ("a distance of 0", write(f"{NODE}/node3/distance", "30 30 20 0 40\n"),
     f"{NODE}/node3/distance", []),
    ("siblings without the CPU itself",
     write(f"{CPU}/cpu0/topology/thread_siblings_list", "1\n"),
     f"{CPU}/cpu0/topology/thread_siblings_list", []),
    ("siblings that disagree",
     write(f"{CPU}/cpu0/topology/thread_siblings_list", "0-1,4\n"),
     f"{CPU}/cpu0/topology/thread_siblings_list", []),
    ("an online CPU without topology",
     remove(f"{CPU}/cpu7/topology/thread_siblings_list"),
     f"{CPU}/cpu7/topology/thread_siblings_list", []),
    ("a package id that is no number",
     write(f"{CPU}/cpu1/topology/physical_package_id", "one\n"),
     f"{CPU}/cpu1/topology/physical_package_id", []),
    ("an L3 list without its CPU",
     write(f"{CPU}/cpu4/cache/index3/shared_cpu_list", "6-7\n"),
     f"{CPU}/cpu4/cache/index3/shared_cpu_list", []),
    ("a NUL byte", write(f"{CPU}/online", "0-4\0,6-15\n"), f"{CPU}/online", []),
    ("a directory for a file", make_dir(f"{CPU}/online"), f"{CPU}/online", []),
    ("a NIC's numa_node that is no number",
     write("bus/pci/devices/0000:00:04.0/numa_node", "one\n"),
     "class/net/eth0/device/numa_node", ["--dev", "eth0"]),
    ("a PCI device's numa_node out of range",
     write("bus/pci/devices/0000:00:04.0/numa_node", "-2\n"),
     "bus/pci/devices/0000:00:04.0/numa_node", ["--dev", "0000:00:04.0"]),
    ("a NIC that is not there", lambda root: None,
     "class/net/eth9/device/numa_node", ["--dev", "eth9"]),
]

with tempfile.TemporaryDirectory() as tmp:
    for name, breakit, path, args in BAD:
        root = os.path.join(tmp, "m")
        shutil.rmtree(root, ignore_errors=True)
        shutil.copytree(os.path.join(MACHINES, "isolated-4node"), root,
                        symlinks=True)
        breakit(root)
        svg = os.path.join(tmp, "out.svg")
        rc, out, err = run("--sysfs", root, "--svg", svg, *args)
        lines = err.strip().splitlines()
        check(f"bad tree: {name}",
              rc == 1 and out == "" and len(lines) == 1 and
              os.path.join(root, path) in lines[0] and not os.path.exists(svg),
              f"exit {rc}, stdout {out[:80]!r}, stderr {err.strip()!r}")
    rc, out, err = run("--sysfs", os.path.join(tmp, "none"))
    check("bad tree: no such directory", rc == 1 and out == "" and
          os.path.join(tmp, "none") in err, err.strip())

# Bad arguments: exit 2, nothing on stdout.
iso = os.path.join(MACHINES, "isolated-4node")
for name, args in [
        ("no vectors", ["--vectors", "0"]),
        ("too many vectors", ["--vectors", "65536"]),
        ("vectors not a number", ["--vectors", "8x"]),
        ("an unknown policy", ["--policy", "spread"]),
        ("a node that is no number", ["--node", "two"]),
        ("a stray argument", ["eth0"]),
        ("json and map", ["-j", "--map"])]:
    rc, out, err = run("--sysfs", iso, *args)
    check(f"bad argument: {name}", rc == 2 and out == "" and err,
          f"exit {rc}, stderr {err.strip()!r}")
rc, out, err = run("--sysfs", iso, "--node", "5")
check("bad argument: a node the machine lacks", rc == 1 and out == "" and
      "node 5" in err, f"exit {rc}, stderr {err.strip()!r}")

print("KTAP version 1")
print(f"1..{len(results)}")
for i, (name, ok, diag) in enumerate(results, 1):
    if not ok:
        for line in diag.splitlines():
            print(f"# {line}")
    print(f"{'ok' if ok else 'not ok'} {i} {name}")
sys.exit(0 if all(ok for _, ok, _ in results) else 1)
