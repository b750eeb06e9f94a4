#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The netdev netlink family's IRQ placement, driven by YNL's cli.py as an
# administrator would: dev-get shows a netdevsim port's irq-policy and
# irq-cpus as its irq_spread/{policy,cpus} files do (and nothing for lo,
# whose IRQs net core does not place); dev-set of a policy, of CPUs, and of
# both at once places the IRQs by the rules and the sysfs files agree;
# napi-get shows each NAPI's irq, its irq-affinity as
# /proc/irq/N/smp_affinity_list shows it, and irq-admin once the
# administrator wrote /proc/irq/N/smp_affinity, until a policy write hands
# it back.  Each bad request (unknown policy, a CPU that does not exist,
# an empty CPU list, no CPU able to take an interrupt, a good and a bad
# value together, a netdev without placement or none at all, no
# CAP_NET_ADMIN) fails with its errno and an extack message and changes
# nothing, not even the vector the administrator set.
#
# The first request of each op, and the unprivileged one, run cli.py
# itself; the others its library, in this process, with the spec parsed
# once.  cli.py and the spec are taken from the kernel tree this folder is in
# (tools/testing/selftests/irq_spread/../../../..), or from $KSRC; the test
# skips without them.

. "$(dirname "$0")/lib.sh"
irq_spread_python <<'PY'
from irq_spread_lib import *
import ast
import json
import subprocess

# The guest, node 2 (CPUs 8-11, cores {8,9} {10,11}), 4 queues, alone.
# Tiers: 0 = node 2, 1 = node 3 (12-15, distance 12), 2 = nodes 0-1 (32).
#   numa:                tier 0 in CPU order: 8 9 10 11.
#   numa-core:           tier 0 rank 0: 8 10, rank 1: 9 11; two vectors a
#                        core, a thread each: 8 10 9 11.
#   numa-core, CPUs 12-15: only tier 1 left, rank 0: 12 14, rank 1: 13 15:
#                        12 14 13 15.
#   core, CPUs 0-7:      only tier 2 left, one per core in CPU order:
#                        0 2 4 6.
#   numa, every CPU:     8 9 10 11 again.
#   queue 1 to CPU 15 by hand (its smp_affinity): 8 15 10 11.
#   numa written again:  queue 1 handed back: 8 9 10 11.
STEPS = {
    "numa": "8 9 10 11",
    "numa-core": "8 10 9 11",
    "numa-core, CPUs restricted": "12 14 13 15",
    "core, CPUs restricted": "0 2 4 6",
    "numa, every CPU": "8 9 10 11",
    "admin": "8 15 10 11",
    "numa written again": "8 9 10 11",
}

CLI, SPEC = YNL_CLI, NETDEV_SPEC
NOBODY = 65534
saved_affinity = []
copies = []


class NlErr:
    """A request cli.py got an error for: its errno and extack."""

    def __init__(self, errnum, extack):
        self.errno = errnum
        self.extack = extack

    def __repr__(self):
        return "%s %r" % (errno.errorcode.get(self.errno, self.errno),
                          self.extack)


def readable_copy():
    """cli.py, its lib and the spec in a folder anyone can read (the tree
    may be in root's home): (cli.py, spec)."""
    import shutil
    import tempfile
    if copies:
        return copies[0] + "/ynl/cli.py", copies[0] + "/netdev.yaml"
    top = tempfile.mkdtemp(prefix="irq_spread_ynl.")
    copies.append(top)
    shutil.copytree(os.path.dirname(CLI), top + "/ynl",
                    ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(SPEC, top + "/netdev.yaml")
    for d, _, files in os.walk(top):
        os.chmod(d, 0o755)
        for f in files:
            os.chmod(os.path.join(d, f), 0o644)
    return top + "/ynl/cli.py", top + "/netdev.yaml"


# Ops already sent once through cli.py; later requests go through the
# same library (tools/net/ynl/lib, the spec parsed once) in this process:
# each cli.py run parses the spec anew, about 3 s under TCG.
CLI_DONE = set()
FAMILY = NlError = None


def ynl(op, args, dump=False, uid=None):
    """cli.py --do/--dump @op --json @args: the reply (None for a do
    without one), or an NlErr.  As user @uid if given.  The first request
    of each op, and every unprivileged one, runs cli.py itself."""
    global FAMILY, NlError
    if uid is None and (op, dump) in CLI_DONE:
        if FAMILY is None:
            FAMILY, NlError = ynl_netdev()
        try:
            r = (FAMILY.dump if dump else FAMILY.do)(op, args)
        except NlError as e:
            return NlErr(e.error, e.nl_msg.extack or {})
        # As cli.py --output-json prints it: sets as lists.
        return json.loads(json.dumps(r, default=sorted))
    CLI_DONE.add((op, dump))
    cli, spec = (CLI, SPEC) if uid is None else readable_copy()
    argv = ["python3", cli, "--spec", spec, "--no-schema",
            "--dump" if dump else "--do", op, "--json", json.dumps(args),
            "--output-json"]

    def drop():
        os.setgroups([])
        os.setgid(uid)
        os.setuid(uid)

    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       universal_newlines=True, env=env,
                       preexec_fn=drop if uid is not None else None)
    if p.returncode == 0:
        return json.loads(p.stdout.strip().splitlines()[-1])
    m = re.search(r"^\terror: (-\d+)$", p.stdout, re.M)
    if not m:
        raise RuntimeError("cli.py %s %s: exit %d: %s%s"
                           % (op, json.dumps(args), p.returncode, p.stdout,
                              p.stderr))
    x = re.search(r"^\textack: (\{.*\})$", p.stdout, re.M)
    return NlErr(-int(m.group(1)), ast.literal_eval(x.group(1)) if x else {})


def nr_cpu_ids():
    return max(parse_cpulist(read(SYS_CPU + "/possible"))) + 1


def sysfs_cpus(dev):
    return parse_cpulist(read(dev.group + "/cpus"))


def check_dev_get(t, dev, policy, cpus, what, reply=None):
    """dev-get of @dev: irq-policy @policy, irq-cpus @cpus (sorted), and
    the sysfs files say the same."""
    if reply is None:
        reply = ynl("dev-get", {"ifindex": dev.ifindex})
    got = (reply.get("irq-policy"), reply.get("irq-cpus")) \
        if isinstance(reply, dict) else reply
    t.eq(got, (policy, sorted(cpus)), "%s: dev-get irq-policy, irq-cpus"
         % what)
    t.eq((dev.policy(), sysfs_cpus(dev)), (policy, frozenset(cpus)),
         "%s: irq_spread/policy and cpus agree" % what)


def check_napis(t, dev, admin, what):
    """napi-get dump of @dev: a NAPI per queue with the queue's IRQ, its
    irq-affinity that of /proc/irq/N, irq-admin for the queues in @admin
    only.  Returns {queue: NAPI id}."""
    reply = ynl("napi-get", {"ifindex": dev.ifindex}, dump=True)
    if isinstance(reply, NlErr):
        t.result(False, "%s: napi-get" % what, repr(reply))
        return {}
    byq = {dev.irqs.index(n["irq"]): n for n in reply
           if n.get("irq") in dev.irqs}
    t.eq(sorted(byq), list(range(dev.queues)),
         "%s: napi-get: a NAPI per queue with its IRQ" % what)
    got = {q: (n.get("irq-affinity"), n.get("irq-admin", False))
           for q, n in byq.items()}
    want = {q: (sorted(dev.affinity(q)), q in admin) for q in byq}
    t.eq(got, want, "%s: napi-get irq-affinity is /proc/irq/N's, irq-admin "
         "for queues %s" % (what, sorted(admin)))
    return {q: n["id"] for q, n in byq.items()}


def check_set(t, topo, tables, dev, args, policy, cpus, step, restricted):
    """dev-set @args succeeds; then the placement (hand table @step), the
    rules or the restriction, dev-get and sysfs."""
    what = "dev-set %s" % json.dumps(args)
    r = ynl("dev-set", dict(args, ifindex=dev.ifindex))
    t.result(r is None, "%s: accepted" % what, repr(r))
    check_placement(t, dev, table(STEPS[step]) if tables else None, what)
    if restricted:
        used = set().union(*dev.affinities())
        t.result(used <= cpus, "%s: IRQs only on CPUs %s" %
                 (what, fmt_cpulist(cpus)), "used %s" % fmt_cpulist(used))
    else:
        check_rules(t, topo, dev, policy, what)
    check_dev_get(t, dev, policy, cpus, what)


def restore():
    import shutil
    if saved_affinity:
        write_ok(DEFAULT_AFFINITY, saved_affinity.pop())
    while copies:
        shutil.rmtree(copies.pop(), ignore_errors=True)


def test(t):
    topo, tables = machine(t)
    if not os.path.exists(CLI) or not os.path.exists(SPEC):
        raise Skip("no %s or %s (set KSRC to a kernel tree)" % (CLI, SPEC))
    node = topo.nodes[2] if len(topo.nodes) > 2 else topo.nodes[0]
    every = frozenset(range(nr_cpu_ids()))
    elig = sorted(topo.eligible())
    if len(elig) < 8:
        raise Skip("fewer than 8 eligible CPUs")
    set_default_policy("numa")
    dev = Nsim(7600, 4, node)
    dev.ifindex = int(read(dev.sysfs + "/ifindex"))
    # netdevsim adds its NAPIs and links them with their IRQs at open.
    if not int(read(dev.sysfs + "/flags"), 16) & 1:
        set_link(dev.ifname, True)

    # dev-get, as an administrator types it.
    check_placement(t, dev, table(STEPS["numa"]) if tables else None,
                    "registered")
    check_dev_get(t, dev, "numa", every, "registered")
    dump = ynl("dev-get", {}, dump=True)
    if isinstance(dump, NlErr):
        t.result(False, "dev-get dump", repr(dump))
    else:
        mine = [d for d in dump if d["ifindex"] == dev.ifindex]
        check_dev_get(t, dev, "numa", every, "dev-get dump",
                      mine[0] if mine else "missing")
        lo = [d for d in dump if d["ifindex"] == 1]
        t.result(lo and "irq-policy" not in lo[0] and "irq-cpus" not in lo[0],
                 "dev-get dump: lo has no irq-policy, no irq-cpus", repr(lo))
    check_napis(t, dev, set(), "registered")

    # dev-set: a policy, CPUs, both, and back.
    last4, first8 = frozenset(elig[-4:]), frozenset(elig[:8])
    check_set(t, topo, tables, dev, {"irq-policy": "numa-core"},
              "numa-core", every, "numa-core", False)
    check_set(t, topo, tables, dev, {"irq-cpus": sorted(last4)},
              "numa-core", last4, "numa-core, CPUs restricted", True)
    check_set(t, topo, tables, dev,
              {"irq-policy": "core", "irq-cpus": sorted(first8)},
              "core", first8, "core, CPUs restricted", True)
    check_set(t, topo, tables, dev,
              {"irq-policy": "numa", "irq-cpus": sorted(every)},
              "numa", every, "numa, every CPU", False)

    # The administrator sets queue 1's IRQ by hand (hex smp_affinity).
    cpu = max(topo.eligible() - dev.affinity(1))
    write_ok("/proc/irq/%d/smp_affinity" % dev.irqs[1],
             fmt_hexmask([cpu], max(topo.present) + 1))
    t.result(dev.wait_state(1, "admin"), "queue 1's smp_affinity written: "
             "admin in debugfs")
    check_placement(t, dev, table(STEPS["admin"]) if tables else None,
                    "queue 1 set by hand", admin={1})
    ids = check_napis(t, dev, {1}, "queue 1 set by hand")
    if 1 in ids:
        n = ynl("napi-get", {"id": ids[1]})
        got = (n.get("irq"), n.get("irq-affinity"), n.get("irq-admin")) \
            if isinstance(n, dict) else n
        t.eq(got, (dev.irqs[1], [cpu], True),
             "napi-get do of queue 1's NAPI: irq, irq-affinity, irq-admin")

    # Bad requests, each: its errno, an extack message, nothing changed.
    out = max(topo.present - {cpu})
    saved_affinity.append(read(DEFAULT_AFFINITY))
    write_ok(DEFAULT_AFFINITY,
             fmt_hexmask(topo.default_affinity() - {out},
                         max(topo.present) + 1))
    nr = nr_cpu_ids()
    bad = [
        ("unknown policy", {"irq-policy": 3}, None, errno.ERANGE,
         ".irq-policy"),
        ("CPU %d (nr_cpu_ids)" % nr, {"irq-cpus": [0, nr]}, None,
         errno.EINVAL, ".irq-cpus"),
        ("empty CPU list", {"irq-cpus": []}, None, errno.EINVAL, None),
        ("CPU %d only, out of the default IRQ affinity" % out,
         {"irq-cpus": [out]}, None, errno.EINVAL, ".irq-cpus"),
        ("policy core with CPU %d only" % out,
         {"irq-policy": "core", "irq-cpus": [out]}, None, errno.EINVAL,
         ".irq-cpus"),
        ("policy core with CPU %d" % (nr + 5),
         {"irq-policy": "core", "irq-cpus": [nr + 5]}, None, errno.EINVAL,
         ".irq-cpus"),
        ("lo, no placement", {"irq-policy": "core", "ifindex": 1}, None,
         errno.EOPNOTSUPP, ".ifindex"),
        ("no such netdev", {"irq-policy": "core", "ifindex": 0x7fffffff},
         None, errno.ENODEV, ".ifindex"),
        ("not CAP_NET_ADMIN", {"irq-policy": "core"}, NOBODY, errno.EPERM,
         None),
    ]
    state = lambda: (dev.state(), sysfs_cpus(dev))
    before = state()
    for what, args, uid, want, attr in bad:
        r = ynl("dev-set", dict({"ifindex": dev.ifindex}, **args), uid=uid)
        if not isinstance(r, NlErr):
            t.result(False, "dev-set %s: refused" % what, "accepted")
            continue
        t.diag("dev-set %s: %s" % (what, r))
        t.eq((errno.errorcode.get(r.errno, r.errno), r.extack.get("bad-attr")),
             (errno.errorcode[want], attr), "dev-set %s: %s, bad attribute %s"
             % (what, errno.errorcode[want], attr))
        if uid is None:
            t.result(bool(r.extack.get("msg")),
                     "dev-set %s: extack message" % what, repr(r.extack))
        t.result(state() == before, "dev-set %s: nothing changed" % what)
    restore()
    check_dev_get(t, dev, "numa", every, "after the bad requests")

    # A policy write, the same policy, hands queue 1 back.
    check_set(t, topo, tables, dev, {"irq-policy": "numa"}, "numa", every,
              "numa written again", False)
    check_napis(t, dev, set(), "numa written again")


run("irq_spread netlink", test, restore)
PY
