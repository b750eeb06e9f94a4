#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Privilege: every write of the administrator's interface needs
# CAP_NET_ADMIN in the initial user namespace.  A process in a user
# namespace of its own (root in it, mapped to root outside, so that file
# permissions let it write root's files) that owns a network namespace
# holding a netdevsim port, up and placed by irq_spread, gets EPERM from
# dev-set (policy, CPUs), napi-set (irq-affinity-source) on that port,
# from the policy and cpus files of a class device, and from the system
# default policy; it may read (dev-get, napi-get).  Nothing changes: not
# the port's policy, CPUs, placement or IRQ states, not the class device,
# not the default.

. "$(dirname "$0")/lib.sh"
irq_spread_python <<'PY'
import ctypes
import json
import subprocess

from irq_spread_lib import *

CLONE_NEWUSER, CLONE_NEWNET = 0x10000000, 0x40000000
ID = 7960


def unshare_user_net():
    """A user namespace whose root is this process's uid outside, and a
    network namespace it owns."""
    uid, gid = os.getuid(), os.getgid()
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.unshare(CLONE_NEWUSER | CLONE_NEWNET):
        raise OSError(ctypes.get_errno(), "unshare")
    write_ok("/proc/self/setgroups", "deny")
    write_ok("/proc/self/uid_map", "0 %d 1" % uid)
    write_ok("/proc/self/gid_map", "0 %d 1" % gid)


def inside(ev_class):
    """What the namespaced process gets, as a dict."""
    netdev_nl_reset()
    out = {}
    ports = [d for d in netdev_nl().dump("dev-get", {}) if "irq-policy" in d]
    out["ports"] = len(ports)
    if len(ports) != 1:
        return out
    ifindex = ports[0]["ifindex"]
    out["dev-get"] = ports[0]["irq-policy"]
    napis = netdev_nl().dump("napi-get", {"ifindex": ifindex})
    out["napi-get"] = sorted(n.get("irq-affinity-source", "-") for n in napis)
    sets = {
        "dev-set policy": ("dev-set", {"ifindex": ifindex,
                                       "irq-policy": "core"}),
        "dev-set cpus": ("dev-set", {"ifindex": ifindex,
                                     "irq-cpus": cpus_to_words({0, 1})}),
        "napi-set source": ("napi-set", {"id": napis[0]["id"],
                                         "irq-affinity-source": "policy"}),
    }
    for what, (op, vals) in sets.items():
        r = nl_do(op, vals)
        out[what] = errno.errorcode.get(r.err, r.err)
    for what, path, value in (("class policy", ev_class + "/policy", "core"),
                              ("class cpus", ev_class + "/cpus", "0-1"),
                              ("default policy", PARAM, "core")):
        err = write(path, value)
        out[what] = errno.errorcode.get(err, err)
    return out


def in_netns(pid, *argv):
    """Run @argv as root in the network namespace of @pid; its output."""
    return subprocess.run(["nsenter", "--target", str(pid), "--net"] +
                          list(argv), check=True, stdout=subprocess.PIPE,
                          universal_newlines=True).stdout


def test(t):
    topo, _ = machine(t)
    node = topo.nodes[-1]
    set_default_policy("numa")
    ev = NsimEvents(ID + 1, 2, node)
    ev_state = lambda: (read(ev.policy_file), read(ev.cpus_file),
                        tuple(sorted(ev.rows().items())))
    ev_before, param_before = ev_state(), read(PARAM)

    ready_r, ready_w = os.pipe()
    go_r, go_w = os.pipe()
    res_r, res_w = os.pipe()
    pid = os.fork()
    if pid == 0:
        code = 0
        try:
            unshare_user_net()
            os.write(ready_w, b"1")
            os.read(go_r, 1)
            os.write(res_w, json.dumps(inside(ev.class_dir)).encode())
        except BaseException as e:  # pylint: disable=broad-except
            os.write(res_w, json.dumps({"error": repr(e)}).encode())
            code = 1
        os._exit(code)
    os.close(ready_w)
    os.close(res_w)
    if os.read(ready_r, 1) != b"1":
        os.waitpid(pid, 0)
        raise Skip("no user namespace for the test: %s"
                   % os.read(res_r, 4096).decode())

    # The port, created by root in the namespace's netns and brought up.
    in_netns(pid, "sh", "-c", "echo '%d 1 4 %d' > %s/new_device"
             % (ID, node, NSIM_BUS))
    links = [line.split(":")[1].strip() for line in
             in_netns(pid, "ip", "-o", "link", "show").splitlines()]
    ports = [name for name in links if name != "lo"]
    t.eq(len(ports), 1, "the port exists, in the namespace's netns")
    t.eq(glob.glob("%s/devices/netdevsim%d/net/*" % (NSIM_BUS, ID)), [],
         "and not in this one")
    in_netns(pid, "ip", "link", "set", "dev", ports[0], "up")
    irqs = sorted(nsim_irq_actions(ID))
    t.eq(len(irqs), 4, "the port's four queue IRQs requested")
    t.result(wait_for(lambda: all(irq_placement(i) == "placed"
                                  for i in irqs), 5),
             "the port's IRQs placed by the kernel")
    port_before = ([irq_affinity(i) for i in irqs],
                   [irq_placement(i) for i in irqs])

    # The netns outlives the namespaced process, for the checks after it.
    netns = os.open("/proc/%d/ns/net" % pid, os.O_RDONLY)
    os.write(go_w, b"1")
    raw = b""
    while True:
        chunk = os.read(res_r, 4096)
        if not chunk:
            break
        raw += chunk
    _, status = os.waitpid(pid, 0)
    got = json.loads(raw.decode() or "{}")
    for line in json.dumps(got, indent=1, sort_keys=True).splitlines():
        t.diag("in the user namespace: " + line)
    t.eq(os.waitstatus_to_exitcode(status), 0, "the namespaced process ran")
    t.eq(got.get("ports"), 1, "it sees its port in dev-get")
    t.eq(got.get("dev-get"), "numa", "dev-get: it may read the policy")
    t.eq(got.get("napi-get"), ["policy"] * 4,
         "napi-get: it may read where the masks come from")
    for what in ("dev-set policy", "dev-set cpus", "napi-set source",
                 "class policy", "class cpus", "default policy"):
        t.eq(got.get(what), "EPERM", "%s from the user namespace: EPERM"
             % what)
    t.eq(([irq_affinity(i) for i in irqs], [irq_placement(i) for i in irqs]),
         port_before, "the port's placement and IRQ states unchanged")
    t.eq((ev_state(), read(PARAM)), (ev_before, param_before),
         "the class device and the default policy unchanged")
    os.close(netns)


def cleanup():
    """The port, whichever netns it is in now."""
    if os.path.exists("%s/devices/netdevsim%d" % (NSIM_BUS, ID)):
        write(NSIM_BUS + "/del_device", "%d" % ID)


run("irq_spread user namespace", test, cleanup)
PY
