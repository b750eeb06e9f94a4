#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Upstream's own test of net core's NAPI IRQ affinity,
# drivers/net/hw/irq.py, on a netdevsim port with IRQs.  irq.py runs on the
# NIC that NETIF names and ends XFAIL without one: plain netdevsim has no
# IRQs.  Here a 4-queue port on node 2, linked to a peer so that it has a
# carrier, its link up, is the NIC: every NAPI must report an IRQ, and an
# IRQ affinity written by hand must survive ethtool -L 1 -> max -> back,
# XDP attached and detached, and the link going down and up, with
# irq_spread placing the other queues meanwhile.  irq.py's cases are this
# test's checks, one KTAP line each; it fails if any failed or none ran.

. "$(dirname "$0")/lib.sh"
irq_spread_python <<'PY'
import subprocess

from irq_spread_lib import *

IRQ_PY = os.path.join(os.path.dirname(os.path.abspath("lib.sh")), "..",
                      "drivers", "net", "hw", "irq.py")


def test(t):
    topo, _ = machine(t)
    if not os.path.exists(NSIM_BUS + "/link_device"):
        raise Skip("netdevsim without link_device")
    hw = os.path.realpath(os.path.dirname(IRQ_PY))
    if not os.path.exists(IRQ_PY):
        raise Skip("no %s" % IRQ_PY)
    node = topo.nodes[-2] if len(topo.nodes) > 1 else topo.nodes[0]
    nic = Nsim(7900, 4, node)
    peer = Nsim(7901, 1)
    link(nic, peer)
    set_link(peer.ifname, True)
    env = dict(os.environ, NETIF=nic.ifname)
    p = subprocess.run(["python3", "irq.py"], cwd=hw, env=env,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       universal_newlines=True)
    t.diag(p.stdout)
    cases = re.findall(r"^(ok|not ok) \d+ (\S+)(.*)$", p.stdout, re.M)
    t.result(bool(cases), "irq.py ran its cases", "exit %d" % p.returncode)
    for verdict, name, rest in cases:
        t.result(verdict == "ok" and "SKIP" not in rest,
                 "irq.py: %s%s" % (name, rest))
    t.eq(p.returncode, 0, "irq.py exits 0")


run("irq_spread: upstream drivers/net/hw/irq.py on netdevsim", test)
PY
