#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The netdev netlink family as an administrator drives it, with the YNL CLI
# of the kernel tree (tools/net/ynl/pyynl/cli.py) and its spec
# (Documentation/netlink/specs/netdev.yaml): the spec validates against
# the genetlink schema; dev-get reports a port's irq-policy and irq-cpus;
# napi-get where each NAPI's IRQ mask comes from; dev-set switches the
# policy and restricts the CPUs, the IRQs follow, and a dev-change-ntf is
# sent for each; napi-set hands an IRQ the user set back to the policy;
# a request with nothing to set fails with its extack.  The session is
# printed as the administrator sees it.

. "$(dirname "$0")/lib.sh"
irq_spread_python <<'PY'
import contextlib
import importlib.util
import io
import json
import shlex
import sys

from irq_spread_lib import *

# The guest, node 2 (CPUs 8-11, cores {8,9} {10,11}), 4 queues, alone:
#   numa: 8 9 10 11; numa-core: rank 0: 8 10, rank 1: 9 11: 8 10 9 11.
#   numa-core within CPUs 10-11 (one core): 10 11 10 11.
NUMA, NUMA_CORE, CORE_10_11 = "8 9 10 11", "8 10 9 11", "10 11 10 11"


def ynl_cli():
    """The YNL CLI 7.3 ships, loaded once: each ynl() runs its main() in
    this process, as a shell would run the script, without starting
    Python and importing the CLI again (about 8 s a call in the guest)."""
    if not hasattr(ynl_cli, "module"):
        spec = importlib.util.spec_from_file_location("ynl_cli", YNL_CLI)
        ynl_cli.module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(ynl_cli.module)
    return ynl_cli.module


def ynl(t, *args):
    """Run the YNL CLI with @args; print the command and what it printed;
    return (exit code, its JSON output or its error line).  The first
    call validates the spec; the others pass --no-schema, which skips the
    schema check that takes half of each call's seconds in the guest."""
    argv = [YNL_CLI, "--spec", NETDEV_SPEC, "--output-json"]
    if args != ("--validate",):
        argv.append("--no-schema")
    argv += list(args)
    shown = ["ynl"] + [shlex.quote(a) for a in args]
    out, saved, rc = io.StringIO(), sys.argv, 0
    try:
        sys.argv = argv
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
            ynl_cli().main()
    except SystemExit as e:
        rc = e.code if isinstance(e.code, int) else 1
    finally:
        sys.argv = saved
    text = out.getvalue()
    t.diag("$ " + " ".join(shown))
    t.diag(text.rstrip() or "(no output)")
    if rc:
        return rc, text.strip()
    return 0, json.loads(text) if text.strip() else None


def test(t):
    topo, tables = machine(t)
    if len(topo.nodes) < 3:
        raise Skip("needs the guest's third node")
    tables = tables and len(topo.nodes) == 4
    want = lambda s: table(s) if tables else None
    node = topo.nodes[2]
    set_default_policy("numa")
    dev = Nsim(7970, 4, node)
    check_placement(t, dev, want(NUMA), "registered")
    ntf = NetdevListener()

    t.eq(ynl(t, "--validate")[0], 0, "the spec validates against the schema")

    rc, reply = ynl(t, "--do", "dev-get", "--json",
                    json.dumps({"ifindex": dev.ifindex}))
    possible = parse_cpulist(read(SYS_CPU + "/possible"))
    t.eq((rc, reply and reply.get("irq-policy"),
          reply and words_to_cpus(reply.get("irq-cpus", []))),
         (0, "numa", possible), "dev-get: irq-policy numa, irq-cpus all")

    rc, napis = ynl(t, "--dump", "napi-get", "--json",
                    json.dumps({"ifindex": dev.ifindex}))
    t.eq((rc, sorted(n.get("irq") for n in napis or []),
          [n.get("irq-affinity-source") for n in napis or []]),
         (0, sorted(dev.irqs), ["policy"] * 4),
         "napi-get: the four queue IRQs, each mask the policy's")

    rc, _ = ynl(t, "--do", "dev-set", "--json",
                json.dumps({"ifindex": dev.ifindex,
                            "irq-policy": "numa-core"}))
    t.eq(rc, 0, "dev-set irq-policy numa-core")
    check_placement(t, dev, want(NUMA_CORE), "numa-core")
    check_rules(t, topo, dev, "numa-core", "numa-core")

    cpus = frozenset(sorted(topo.node_cpus[node])[-2:])
    rc, _ = ynl(t, "--do", "dev-set", "--json",
                json.dumps({"ifindex": dev.ifindex,
                            "irq-cpus": cpus_to_words(cpus)}))
    t.eq(rc, 0, "dev-set irq-cpus %s" % fmt_cpulist(cpus))
    check_placement(t, dev, want(CORE_10_11), "within %s" % fmt_cpulist(cpus))
    t.result(all(a <= cpus for a in dev.affinities()),
             "every IRQ within %s" % fmt_cpulist(cpus))
    t.eq([(n, m.get("irq-policy"), words_to_cpus(m.get("irq-cpus", [])))
          for n, m in ntf.take(dev.ifindex)],
         [("dev-change-ntf", "numa-core", possible),
          ("dev-change-ntf", "numa-core", cpus)],
         "a dev-change-ntf after each set, with the new values")

    other = min(topo.eligible() - cpus)
    dev.set_affinity(1, [other])
    t.result(dev.wait_state(1, "admin"), "queue 1 written by the user")
    rc, napis = ynl(t, "--dump", "napi-get", "--json",
                    json.dumps({"ifindex": dev.ifindex}))
    by_irq = {n.get("irq"): n for n in napis or []}
    t.eq(by_irq.get(dev.irqs[1], {}).get("irq-affinity-source"), "user",
         "napi-get: queue 1's mask is the user's")
    rc, _ = ynl(t, "--do", "napi-set", "--json",
                json.dumps({"id": by_irq.get(dev.irqs[1], {}).get("id"),
                            "irq-affinity-source": "policy"}))
    t.eq(rc, 0, "napi-set irq-affinity-source policy")
    check_placement(t, dev, want(CORE_10_11), "queue 1 back to the policy")
    t.eq(dev.source(1), "policy", "queue 1's mask the policy's again")

    rc, err = ynl(t, "--do", "dev-set", "--json",
                  json.dumps({"ifindex": dev.ifindex}))
    t.result(rc == 1 and "no irq-policy or irq-cpus to set" in err and
             "Invalid argument" in err,
             "dev-set with nothing to set: EINVAL and its extack", err)
    t.eq(ntf.take(dev.ifindex), [], "no notification but for the changes")


run("irq_spread netdev netlink", test)
PY
