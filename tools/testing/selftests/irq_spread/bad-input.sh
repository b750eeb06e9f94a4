#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Bad input: an unknown, empty or over-long policy, or a name with anything
# around it, written to a device's policy file or to the runtime default
# (/sys/module/irq_spread/parameters/policy) fails with EINVAL and changes
# nothing: not the policy, not the CPUs, not a vector set by the admin
# (which any accepted write would hand back to the policy).  An
# unprivileged user cannot write either file.  new_device refuses a NUMA
# node that is not online.  Good writes still work afterwards.

. "$(dirname "$0")/lib.sh"
irq_spread_python <<'PY'
from irq_spread_lib import *

BAD = ["\n", "bogus", "numa x", "numa-core core", " numa", "numa\n\n",
       "numa-", "numacore", "x" * 64, "numa" + "-core" * 800]

def check_rejects(t, path, state, what):
    """Each bad value: EINVAL, and state() as before.  Returns the state."""
    saved = state()
    for value in BAD:
        err = write(path, value)
        t.result(err == errno.EINVAL and state() == saved,
                 "%s: %r rejected with EINVAL, nothing changed"
                 % (what, value[:20]),
                 "write: %s" % (os.strerror(err) if err else "accepted"))
    return saved


def test(t):
    topo = quiet_machine()
    node = topo.nodes[0]
    set_default_policy("numa")
    dev = Nsim(7300, 4, node)
    want = spread(topo, node, 4, "numa")
    # An admin-set vector: any accepted policy write would clear the mark.
    moved = max(topo.eligible() - want[1])
    dev.set_affinity(1, [moved])
    t.eq(dev.vectors()[1][2], {"admin"}, "admin mark before the bad writes")

    saved = {
        dev.policy_file: check_rejects(t, dev.policy_file, dev.state,
                                       "device policy"),
        PARAM: check_rejects(t, PARAM, lambda: read(PARAM), "default policy"),
    }

    # Unprivileged writes, as setpriv --reuid=65534 --regid=65534
    # --clear-groups would do them.
    for path, state in ((dev.policy_file, dev.state),
                        (PARAM, lambda: read(PARAM))):
        rc = as_user(65534, lambda: write(path, "core"))
        t.result(rc in (errno.EACCES, errno.EPERM) and
                 state() == saved[path],
                 "%s: unprivileged write refused, nothing changed" % path,
                 "child exit %d (%s)" % (rc, os.strerror(rc) if rc < 255
                                         else "?"))
    st = os.stat(dev.policy_file)
    t.result(st.st_uid == 0 and st.st_mode & 0o777 == 0o644,
             "policy file is root's, mode 0644", "uid %d mode %o"
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
    check_placement(t, dev, spread(topo, node, 4, "numa-core"),
                    "after a good write")
    t.eq(write(PARAM, "core"), 0, "good default write")
    t.eq(active_policy(PARAM), "core", "default policy changed")


run("irq_spread bad input", test)
PY
