#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# CPU hotplug: when a CPU holding a vector goes offline, the device is
# placed again by the rules on the remaining CPUs before the write to
# cpuN/online returns (no IRQ left on it); when it comes back, the
# placement is the full one again, under numa-core and numa; a device
# registered after the hotplug cycle is placed by the rules too.

. "$(dirname "$0")/lib.sh"
irq_spread_python <<'PY'
from irq_spread_lib import *

offlined = []


def online(cpu, on):
    write_ok("%s/cpu%d/online" % (SYS_CPU, cpu), "1" if on else "0")
    if on:
        offlined.remove(cpu)
    else:
        offlined.append(cpu)


def cycle(t, topo, dev, cpu, policy):
    """Offline @cpu and online it again, checking @dev under @policy."""
    node, queues = dev.node, dev.queues
    online(cpu, False)
    rest = topo.eligible()
    t.result(cpu not in rest, "CPU %d offline" % cpu)
    check_placement(t, dev, spread(topo, node, queues, policy, eligible=rest),
                    "%s, CPU %d offline" % (policy, cpu))
    t.result(all(cpu not in dev.affinity(q) | dev.effective(q)
                 for q in range(queues)),
             "%s: no IRQ on offline CPU %d" % (policy, cpu))
    online(cpu, True)
    check_placement(t, dev, spread(topo, node, queues, policy),
                    "%s, CPU %d online again" % (policy, cpu))


def test(t):
    topo = quiet_machine()
    node, queues = topo.nodes[0], 4
    set_default_policy("numa-core")
    dev = Nsim(7500, queues, node)
    want = spread(topo, node, queues, "numa-core")
    check_placement(t, dev, want, "numa-core, all online")

    # A hot-pluggable CPU that a vector's IRQ is on.
    cpus = [c for q in range(1, queues) for c in sorted(dev.effective(q))
            if os.path.exists("%s/cpu%d/online" % (SYS_CPU, c))]
    if not cpus:
        raise Skip("no vector on a hot-pluggable CPU")
    t.diag("offlining CPU %d" % cpus[0])
    cycle(t, topo, dev, cpus[0], "numa-core")

    write_ok(dev.policy_file, "numa")
    want = spread(topo, node, queues, "numa")
    check_placement(t, dev, want, "numa, all online")
    cycle(t, topo, dev, [c for q in range(1, queues) for c in want[q]][0],
          "numa")

    # The load and the NUMA masks after the cycle: a second device.
    set_default_policy("numa")
    dev2 = Nsim(7501, queues, node)
    check_placement(t, dev2, spread(topo, node, queues, "numa",
                                    add_load({}, want)),
                    "numa, a device registered after the cycles")


def cleanup():
    for c in list(offlined):
        online(c, True)


run("irq_spread CPU hotplug", test, cleanup)
PY
