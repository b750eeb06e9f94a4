#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# irq_spread.policy= on the kernel command line: the system default policy
# is the last value that names a policy (numa if none does), each value that
# names none was logged and changed nothing, and a device registered now
# takes that default.  Must run before anything writes the default; skips on
# a kernel booted without irq_spread.policy=.

. "$(dirname "$0")/lib.sh"
irq_spread_python <<'PY'
from irq_spread_lib import *

# The isolcpus guest: booted with irq_spread.policy=numa-core and
# isolcpus=managed_irq,2-3,9.  A device without a node, 2 queues, under
# numa-core: one tier; rank 0 slots 0 4 6 8 10 12 14 ({2,3} has no
# eligible thread); a vector a core: the eligible threads, 0-1 4-5.
ISOLATED, NO_NODE_2 = frozenset([2, 3, 9]), "0-1 4-5"


def kernel_log():
    """The kernel log's messages, all of what it keeps."""
    log = Kmsg(everything=True)
    try:
        return log.lines()
    finally:
        log.close()


def test(t):
    require_lib()
    topo = Topology()
    values = [a.split("=", 1)[1] for a in read("/proc/cmdline").split()
              if a.startswith("irq_spread.policy=")]
    if not values:
        raise Skip("booted without irq_spread.policy=")
    t.diag("irq_spread.policy= values on the command line: %s" % values)
    log = kernel_log()
    policy = "numa"
    for v in values:
        if v in POLICIES:
            policy = v
            continue
        msg = 'irq_spread: unknown policy "%s" on the command line, ' \
              'keeping %s' % (v, policy)
        t.result(msg in log, "bad value %r logged, %s kept" % (v, policy),
                 "no %r in the kernel log" % msg)
    t.eq(active_policy(PARAM), policy, "the default is the boot value")
    tables = topo.tables(t, ISOLATED) and policy == "numa-core"
    dev = Nsim(7900, 2)
    t.eq(dev.policy(), policy, "a new device takes the boot default")
    check_placement(t, dev, table(NO_NODE_2) if tables else None,
                    "placed under %s" % policy)
    check_rules(t, topo, dev, policy, "placed under %s" % policy)


run("irq_spread boot parameter", test)
PY
