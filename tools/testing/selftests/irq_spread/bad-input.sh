#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Bad input changes nothing: not the policy, not the CPUs, not the debugfs
# table, not a vector set by the admin (which any accepted new policy
# would hand back to the policy).
# - netdev netlink: a dev-set or napi-set that is malformed (an unknown
#   policy, a CPU bitmap of a bad length, naming no CPU or a CPU the
#   machine cannot have, nothing to set, no such netdev, a netdev whose
#   IRQs irq_spread does not place, an IRQ made the user's by netlink)
#   fails with its errno and an extack.
# - sysfs: an unknown, empty or over-long policy, or a name with anything
#   around it, written to a class device's policy file or to the runtime
#   default (/sys/module/irq_spread/parameters/policy), and anything but a
#   list of the machine's CPUs written to a class device's cpus file,
#   fails with EINVAL.
# - An unprivileged user cannot write the files or send the sets.
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

hp = Hotplug()


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


def bad_requests(dev, topo):
    """(what, op, attributes, errno) of each malformed request."""
    ifindex = {"ifindex": dev.ifindex}
    napi = dev.napis()[0]["id"]
    return [
        ("policy 3", "dev-set", dict(ifindex, **{"irq-policy": 3}),
         errno.ERANGE),
        ("3-byte CPU bitmap", "dev-set",
         dict(ifindex, **{"irq-cpus": b"\x0f\x00\x00"}), errno.ERANGE),
        ("5-byte CPU bitmap", "dev-set",
         dict(ifindex, **{"irq-cpus": b"\x0f\x00\x00\x00\x00"}),
         errno.EINVAL),
        ("empty CPU bitmap", "dev-set", dict(ifindex, **{"irq-cpus": [0]}),
         errno.EINVAL),
        ("CPU 4096", "dev-set",
         dict(ifindex, **{"irq-cpus": cpus_to_words({0, 4096})}),
         errno.EINVAL),
        ("nothing to set", "dev-set", dict(ifindex), errno.EINVAL),
        ("no ifindex", "dev-set", {"irq-policy": "core"}, errno.EINVAL),
        ("no such netdev", "dev-set",
         {"ifindex": 0x7fffffff, "irq-policy": "core"}, errno.ENODEV),
        ("lo, not placed by irq_spread", "dev-set",
         {"ifindex": 1, "irq-policy": "core"}, errno.EOPNOTSUPP),
        ("napi-set source user", "napi-set",
         {"id": napi, "irq-affinity-source": "user"}, errno.EINVAL),
        ("napi-set source 2", "napi-set",
         {"id": napi, "irq-affinity-source": 2}, errno.ERANGE),
    ]


def test(t):
    topo, tables = machine(t)
    node = topo.nodes[0]
    set_default_policy("numa")
    dev = Nsim(7300, 4, node)
    check_placement(t, dev, table(NUMA) if tables else None, "registered")
    check_rules(t, topo, dev, "numa", "registered")
    # An admin-set vector: any accepted new policy would hand it back.
    admin = max(topo.eligible() - dev.affinity(1))
    dev.set_affinity(1, [admin])
    t.result(dev.wait_state(1, "admin"), "queue 1 admin before the bad writes")
    # On the guest the admin's CPU is 15.
    check_placement(t, dev, table("0 15 2 3") if tables else None,
                    "queue 1 set by the admin", admin={1})

    saved = dev.state()
    for what, op, vals, want in bad_requests(dev, topo):
        r = nl_do(op, vals)
        t.result(r.err == want and r.extack and dev.state() == saved,
                 "%s %s: %s with an extack, nothing changed"
                 % (op, what, errno.errorcode[want]),
                 "got %r" % r)
    t.eq(dev.source(1), "user", "queue 1 still the user's")

    # CPUs none of which can take an interrupt now: an offline one, of a
    # node the device's IRQs are not on.
    gone = max(topo.node_cpus[topo.nodes[-1]] -
               frozenset().union(*dev.effectives()))
    if pluggable(gone):
        hp.set(gone, False)
        saved = dev.state()
        r = nl_do("dev-set", {"ifindex": dev.ifindex,
                              "irq-cpus": cpus_to_words([gone])})
        t.result(r.err == errno.EINVAL and r.extack and dev.state() == saved,
                 "dev-set irq-cpus of offline CPU %d: EINVAL with an extack, "
                 "nothing changed" % gone, "got %r" % r)
        hp.set(gone, True)
    else:
        t.skip("dev-set irq-cpus of an offline CPU", "CPU %d not "
               "hot-pluggable" % gone)

    ev = NsimEvents(7302, 2, node)
    ev_state = lambda: (read(ev.policy_file), read(ev.cpus_file),
                        tuple(sorted(ev.rows().items())))
    saved_sysfs = {
        ev.policy_file: check_rejects(t, ev.policy_file, ev_state,
                                      "class device policy"),
        PARAM: check_rejects(t, PARAM, lambda: read(PARAM), "default policy"),
        ev.cpus_file: check_rejects(t, ev.cpus_file, ev_state,
                                    "class device CPUs", BAD_CPUS),
    }
    t.eq(read(ev.cpus_file), fmt_cpulist(topo.present),
         "class device CPUs: every CPU, as before")

    # Unprivileged writes and sets, as setpriv --reuid=65534 --regid=65534
    # --clear-groups would do them.
    for path, state, good in ((ev.policy_file, ev_state, "core"),
                              (ev.cpus_file, ev_state, "0-3"),
                              (PARAM, lambda: read(PARAM), "core")):
        rc = as_user(65534, lambda: write(path, good))
        t.result(rc in (errno.EACCES, errno.EPERM) and
                 state() == saved_sysfs[path],
                 "%s: unprivileged write refused, nothing changed" % path,
                 "child exit %d (%s)" % (rc, os.strerror(rc) if rc < 255
                                         else "?"))
    for path in (ev.policy_file, ev.cpus_file):
        st = os.stat(path)
        t.result(st.st_uid == 0 and st.st_mode & 0o777 == 0o644,
                 "%s is root's, mode 0644" % path, "uid %d mode %o"
                 % (st.st_uid, st.st_mode & 0o777))
    for what, fn in (("policy", lambda: dev.set_policy("core")),
                     ("CPUs", lambda: dev.set_cpus({0, 1})),
                     ("napi-set", lambda: dev.to_policy(1))):
        rc = as_user(65534, lambda: (netdev_nl_reset(), fn())[1])
        t.result(rc == errno.EPERM and dev.state() == saved,
                 "unprivileged dev-set of the %s: EPERM, nothing changed"
                 % what, "child exit %d" % rc)
    ev.remove()

    # netdevsim's fail_irq_affinity knob: a CPU list, written whole.
    knob = nsim_fail_knob(dev.id)
    nsim_fail_irq_affinity(dev.id, {3})
    check_rejects(t, knob, lambda: read(knob), "fail_irq_affinity",
                  ["any", "3-1", "0;1"])
    fd = os.open(knob, os.O_WRONLY)
    try:
        os.pwrite(fd, b"5", 1)
        err = 0
    except OSError as e:
        err = e.errno
    finally:
        os.close(fd)
    t.result(err == errno.EINVAL and read(knob) == "3",
             "fail_irq_affinity: a write at offset 1 rejected with EINVAL, "
             "nothing changed", "write: %s, knob %r"
             % (os.strerror(err) if err else "accepted", read(knob)))
    nsim_fail_irq_affinity(dev.id, ())

    # new_device with a node that is not online.
    bad_node = max(topo.nodes) + 1
    err = write(NSIM_BUS + "/new_device", "7301 1 1 %d" % bad_node)
    t.result(err == errno.EINVAL and
             not os.path.exists(NSIM_BUS + "/devices/netdevsim7301"),
             "new_device on offline node %d rejected with EINVAL" % bad_node,
             "write: %s" % (os.strerror(err) if err else "accepted"))
    if not err:
        write(NSIM_BUS + "/del_device", "7301")

    # The sets do take good values: the tests above were not vacuous.
    t.eq(dev.set_policy("numa-core"), 0, "good policy set")
    t.eq(dev.policy(), "numa-core", "device policy changed")
    check_placement(t, dev, table(NUMA_CORE) if tables else None,
                    "after a good set: every vector the policy's")
    check_rules(t, topo, dev, "numa-core", "after a good set")
    node2 = topo.node_cpus[topo.nodes[-2]]
    t.eq(dev.set_cpus(node2), 0, "good CPUs set")
    t.eq(dev.cpus(), node2, "device CPUs changed")
    check_placement(t, dev, table(NODE2) if tables else None,
                    "after a good CPUs set: within them")
    t.result(all(dev.affinity(q) <= node2 for q in range(4)),
             "after a good CPUs set: every vector within %s"
             % fmt_cpulist(node2))
    t.eq(write(PARAM, "core"), 0, "good default write")
    t.eq(active_policy(PARAM), "core", "default policy changed")


run("irq_spread bad input", test, hp.restore)
PY
