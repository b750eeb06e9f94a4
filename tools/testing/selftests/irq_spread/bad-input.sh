#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Bad input: an unknown, empty or over-long policy, or a name with anything
# around it, written to a device's policy file or to the runtime default
# (/sys/module/irq_spread/parameters/policy), and anything but a list of
# the machine's CPUs written to a device's cpus file, fails with EINVAL and
# changes nothing: not the policy, not the CPUs, not the debugfs table, not
# a vector set by the admin (which any accepted policy write would hand
# back to the policy).  An unprivileged user cannot write the files.
# new_device refuses a NUMA node that is not online.  Good writes still
# work afterwards.

. "$(dirname "$0")/lib.sh"
irq_spread_python <<'PY'
from irq_spread_lib import *

# The guest, node 0 (CPUs 0-3, cores {0,1} {2,3}), 4 queues, alone:
#   numa:      tier 0 in CPU order: 0 1 2 3.
#   numa-core: tier 0 rank 0: 0 2, rank 1: 1 3; two vectors a core: a
#              thread each, 0 2 1 3.
#   numa-core within CPUs 8-11: node 2 is the only node with CPUs the
#              device may use: rank 0: 8 10, rank 1: 9 11, 8 10 9 11.
NUMA, NUMA_CORE, NODE2 = "0 1 2 3", "0 2 1 3", "8 10 9 11"

BAD = ["\n", "bogus", "numa x", "numa-core core", " numa", "numa\n\n",
       "numa-", "numacore", "x" * 64, "numa" + "-core" * 800]
BAD_CPUS = ["\n", "4096", "0-4096", "3-1", "-1", "any", "f", "0x1",
            "0;1", "1" * 64]

def check_rejects(t, path, state, what, bad=BAD):
    """Each bad value: EINVAL, and state() as before.  Returns the state."""
    saved = state()
    for value in bad:
        err = write(path, value)
        t.result(err == errno.EINVAL and state() == saved,
                 "%s: %r rejected with EINVAL, nothing changed"
                 % (what, value[:20]),
                 "write: %s" % (os.strerror(err) if err else "accepted"))
    return saved


def test(t):
    topo, tables = machine(t)
    node = topo.nodes[0]
    set_default_policy("numa")
    dev = Nsim(7300, 4, node)
    check_placement(t, dev, table(NUMA) if tables else None, "registered")
    check_rules(t, topo, dev, "numa", "registered")
    # An admin-set vector: any accepted policy write would hand it back.
    admin = max(topo.eligible() - dev.affinity(1))
    dev.set_affinity(1, [admin])
    t.result(dev.wait_state(1, "admin"), "queue 1 admin before the bad writes")
    # On the guest the admin's CPU is 15.
    check_placement(t, dev, table("0 15 2 3") if tables else None,
                    "queue 1 set by the admin", admin={1})

    saved = {
        dev.policy_file: check_rejects(t, dev.policy_file, dev.state,
                                       "device policy"),
        PARAM: check_rejects(t, PARAM, lambda: read(PARAM), "default policy"),
        dev.cpus_file: check_rejects(t, dev.cpus_file, dev.state,
                                     "device CPUs", BAD_CPUS),
    }
    t.eq(read(dev.cpus_file), fmt_cpulist(topo.present),
         "device CPUs: every CPU, as before")

    # Unprivileged writes, as setpriv --reuid=65534 --regid=65534
    # --clear-groups would do them.
    for path, state, good in ((dev.policy_file, dev.state, "core"),
                              (dev.cpus_file, dev.state, "0-3"),
                              (PARAM, lambda: read(PARAM), "core")):
        rc = as_user(65534, lambda: write(path, good))
        t.result(rc in (errno.EACCES, errno.EPERM) and
                 state() == saved[path],
                 "%s: unprivileged write refused, nothing changed" % path,
                 "child exit %d (%s)" % (rc, os.strerror(rc) if rc < 255
                                         else "?"))
    for path in (dev.policy_file, dev.cpus_file):
        st = os.stat(path)
        t.result(st.st_uid == 0 and st.st_mode & 0o777 == 0o644,
                 "%s is root's, mode 0644" % path, "uid %d mode %o"
                 % (st.st_uid, st.st_mode & 0o777))

    # new_device with a node that is not online.
    bad_node = max(topo.nodes) + 1
    err = write(NSIM_BUS + "/new_device", "7301 1 1 %d" % bad_node)
    t.result(err == errno.EINVAL and
             not os.path.exists(NSIM_BUS + "/devices/netdevsim7301"),
             "new_device on offline node %d rejected with EINVAL" % bad_node,
             "write: %s" % (os.strerror(err) if err else "accepted"))
    if not err:
        write(NSIM_BUS + "/del_device", "7301")

    # The files do take good values: the tests above were not vacuous.
    t.eq(write(dev.policy_file, "numa-core\n"), 0, "good device write")
    t.eq(dev.policy(), "numa-core", "device policy changed")
    check_placement(t, dev, table(NUMA_CORE) if tables else None,
                    "after a good write: every vector the policy's")
    check_rules(t, topo, dev, "numa-core", "after a good write")
    node2 = topo.node_cpus[topo.nodes[-2]]
    t.eq(write(dev.cpus_file, fmt_cpulist(node2)), 0, "good CPUs write")
    t.eq(read(dev.cpus_file), fmt_cpulist(node2), "device CPUs changed")
    check_placement(t, dev, table(NODE2) if tables else None,
                    "after a good CPUs write: within them")
    t.result(all(dev.affinity(q) <= node2 for q in range(4)),
             "after a good CPUs write: every vector within %s"
             % fmt_cpulist(node2))
    t.eq(write(PARAM, "core"), 0, "good default write")
    t.eq(active_policy(PARAM), "core", "default policy changed")


run("irq_spread bad input", test)
PY
