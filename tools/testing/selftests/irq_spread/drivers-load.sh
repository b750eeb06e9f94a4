#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The drivers of MODULES below load and unload cleanly with no device to
# bind: each module is inserted after the modules it depends on (modinfo
# -F depends), in that order, with insmod, its PCI driver is registered,
# then everything the test inserted is removed with rmmod, last first, and
# the kernel logged no splat meanwhile.  kmemleak's verdict on what they
# left is the run's own (the project's guest scans once all the tests are
# done).
#
# The .ko files are found in $IRQ_SPREAD_MODULES, a kernel build directory
# (its modules.order) or any folder holding them, which the project's
# pipeline sets to the guest kernel's build directory; else in
# /lib/modules/$(uname -r).  A module of MODULES whose .ko is not there
# (not built) is skipped; the test skips on a kernel without module
# support or when none of them is there, and fails if a module they
# depend on is missing, or one does not load or unload.

. "$(dirname "$0")/lib.sh"
irq_spread_python <<'PY'
from irq_spread_lib import *
import subprocess

# ---------------------------------------------------------------------------
# MODULES: the drivers this test loads and unloads, the only list of them:
# the two the series converts.  ice, idpf and iavf have no patch (net
# core places their IRQs), nor have virtio_net and bnxt_en.  One whose .ko
# was not built is skipped.
MODULES = ("mlx5_core", "mana")

SPLAT = re.compile(r"BUG: |WARNING: |Oops|Kernel panic|general protection "
                   r"fault|UBSAN: |INFO: possible |kernel BUG at|Call Trace:")


def canon(name):
    """A module's name as the kernel lists it (dashes become underscores)."""
    return name.replace("-", "_")


def loaded():
    """The modules in /proc/modules."""
    with open("/proc/modules") as f:
        return {line.split()[0] for line in f if line.strip()}


def find_modules(t):
    """Map module name to .ko path; skip if none of MODULES is there."""
    top = os.environ.get("IRQ_SPREAD_MODULES")
    if not top:
        top = "/lib/modules/" + os.uname().release
        if not os.path.isdir(top):
            raise Skip("IRQ_SPREAD_MODULES not set and no %s" % top)
    paths = []
    order = os.path.join(top, "modules.order")
    if os.path.isfile(order):  # a build directory: no walk over its tree
        paths = [os.path.join(top, p[:-2] + ".ko")
                 for p in read(order).split() if p.endswith(".o")]
    else:
        for d, _, files in os.walk(top):
            paths += [os.path.join(d, f) for f in files
                      if re.search(r"\.ko(\.[a-z]+)?$", f)]
    found = {}
    for p in paths:
        name = canon(re.sub(r"\.ko(\.[a-z]+)?$", "", os.path.basename(p)))
        if os.path.isfile(p):
            found.setdefault(name, p)
    t.diag("modules from %s" % top)
    if not any(m in found for m in MODULES):
        raise Skip("none of %s built: not in %s" % (" ".join(MODULES), top))
    return found


def run_cmd(args):
    """Run a command; return (exit code, its output)."""
    p = subprocess.run(args, capture_output=True, text=True)
    return p.returncode, (p.stdout + p.stderr).strip()


def load_order(t, mod, name, found, order, seen):
    """Append name's dependencies (modinfo -F depends), then name, to order,
    each once; a failed check for module mod if one is missing."""
    if name in seen:
        return True
    seen.add(name)
    if name not in found:
        return t.result(False, "%s: %s found" % (mod, name),
                        "no %s.ko beside the others" % name)
    rc, out = run_cmd(["modinfo", "-F", "depends", found[name]])
    if rc:
        return t.result(False, "%s: modinfo %s" % (mod, name),
                        "modinfo %s: exit %d: %s" % (found[name], rc, out))
    for dep in [canon(d) for d in out.split(",") if d]:
        if not load_order(t, mod, dep, found, order, seen):
            return False
    order.append(name)
    return True


def pci_driver_devices(name):
    """The PCI devices bound to driver name, or None if it is not registered."""
    d = "/sys/bus/pci/drivers/" + name
    if not os.path.isdir(d):
        return None
    return sorted(e for e in os.listdir(d) if re.match(r"[0-9a-f]{4}:", e))


def test(t):
    if not os.path.exists("/proc/modules"):
        raise Skip("kernel without module support")
    if not any(os.path.exists(p) for p in ("/usr/sbin/insmod", "/sbin/insmod",
                                          "/usr/bin/insmod", "/bin/insmod")):
        raise Skip("insmod not found")
    found = find_modules(t)
    kmsg = Kmsg()
    for mod in MODULES:
        if mod not in found:
            t.skip(mod, "not built: no %s.ko" % mod)
            continue
        if mod in loaded():
            t.skip(mod, "loaded already: not inserted again")
            continue
        order = []
        if not load_order(t, mod, mod, found, order, set()):
            continue
        t.diag("%s: insmod order %s" % (mod, " ".join(order)))
        inserted = []
        for name in order:
            if name in loaded():
                t.diag("%s: loaded already" % name)
                continue
            rc, out = run_cmd(["insmod", found[name]])
            if not t.result(rc == 0 and name in loaded(),
                            "%s: insmod %s" % (mod, name),
                            "insmod %s: exit %d: %s" % (found[name], rc, out)):
                break
            inserted.append(name)
        else:
            devs = pci_driver_devices(mod)
            t.result(devs is not None, "%s: PCI driver registered" % mod,
                     "no /sys/bus/pci/drivers/%s" % mod)
            if devs:
                t.diag("%s: bound to %s" % (mod, " ".join(devs)))
        for name in reversed(inserted):
            rc, out = run_cmd(["rmmod", name])
            t.result(rc == 0 and name not in loaded(),
                     "%s: rmmod %s" % (mod, name),
                     "rmmod %s: exit %d: %s" % (name, rc, out))
    splats = [m for m in kmsg.lines() if SPLAT.search(m)]
    t.result(not splats, "no kernel splat while loading and unloading",
             "\n".join(splats[:20]))


run("drivers-load", test)
PY
