#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Live policy switch: a dev-set of a new irq-policy re-spreads that netdev
# at once by the rules of the new policy, and a dev-change-ntf with the new
# policy follows each; a dev-set of the policy or the CPUs it has changes
# nothing and is followed by no notification; dev-get and the debugfs
# table change nothing; a new system default leaves registered devices as
# they are.  The policy imposes nothing else: threaded NAPI kthreads and
# XPS maps stay as the administrator set them.

. "$(dirname "$0")/lib.sh"
irq_spread_python <<'PY'
from irq_spread_lib import *

# The guest, node 1 (CPUs 4-7, cores {4,5} {6,7}), 4 queues.  Tiers: 0 =
# node 1, 1 = node 0 (0-3, distance 12), 2 = nodes 2-3 (8-15, 32).
#   numa:      tier 0 in CPU order: 4 5 6 7.
#   numa-core: tier 0 rank 0: 4 6, rank 1: 5 7; each core holds two
#              vectors: a thread each, 4 6 5 7.
#   core:      rank 0 of tier 0: 4 6, of tier 1: 0 2 -> 4 6 0 2.
WANT = {"numa": "4 5 6 7", "numa-core": "4 6 5 7", "core": "4 6 0 2"}


def test(t):
    topo, tables = machine(t)
    node = topo.nodes[1] if len(topo.nodes) > 1 else topo.nodes[0]
    queues = len(topo.node_cpus[node])
    set_default_policy("numa")
    dev = Nsim(7200, queues, node)
    want = lambda p: table(WANT[p]) if tables else None
    check_placement(t, dev, want("numa"), "registered under numa")
    check_rules(t, topo, dev, "numa", "registered under numa")
    ntf = NetdevListener()
    for policy in ("numa-core", "core", "numa"):
        what = "switched to %s" % policy
        t.eq(dev.set_policy(policy), 0, "%s: dev-set" % what)
        t.eq(dev.policy(), policy, "%s: dev-get" % what)
        t.eq([(n, m.get("irq-policy")) for n, m in ntf.take(dev.ifindex)],
             [("dev-change-ntf", policy)], "%s: one dev-change-ntf" % what)
        check_placement(t, dev, want(policy), what)
        check_rules(t, topo, dev, policy, what)

    # Reads, and sets of what the netdev has, change nothing.
    before = dev.state()
    for _ in range(3):
        dev.dev_get()
        read(DEVICES)
    t.eq(dev.state(), before, "dev-get and debugfs change nothing")
    for what, r in (("policy", dev.set(policy="numa")),
                    ("CPUs", dev.set(cpus=topo.present)),
                    ("both", dev.set(policy="numa", cpus=topo.present))):
        t.eq(r.err, 0, "dev-set of the %s it has: accepted" % what)
        t.eq(dev.state(), before, "dev-set of the %s it has: nothing "
             "changed" % what)
    t.eq(ntf.take(dev.ifindex), [], "sets of what it has: no notification")

    # The system default is for devices registered later.
    set_default_policy("core")
    t.eq(dev.state(), before, "new default leaves the device alone")
    t.eq(dev.policy(), "numa", "device keeps its policy")

    # Nothing imposed: a threaded NAPI's kthread and a TX queue's XPS map
    # stay where the administrator put them through policy switches.
    write_ok(dev.sysfs + "/threaded", "1")
    pids = sorted(n["pid"] for n in dev.napis().values() if "pid" in n)
    t.eq(len(pids), dev.queues, "threaded: a kthread per NAPI")
    for pid in pids:
        os.sched_setaffinity(pid, {0})
    xps = dev.sysfs + "/queues/tx-0/xps_cpus"
    write_ok(xps, "1")
    xps_before = read(xps)
    for policy in ("core", "numa"):
        dev.set_policy_ok(policy)
    t.eq([os.sched_getaffinity(pid) for pid in pids], [{0}] * len(pids),
         "policy switches: the NAPI kthreads stay on CPU 0, as set")
    t.eq(read(xps), xps_before, "policy switches: tx-0's xps_cpus as set")
    write_ok(dev.sysfs + "/threaded", "0")


run("irq_spread policy switch", test)
PY
