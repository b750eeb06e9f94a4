// SPDX-License-Identifier: GPL-2.0-only
///
/// Find drivers that place their interrupt vectors on CPUs themselves, a
/// job of lib/irq_spread (Documentation/core-api/irq_spread.rst):
///
///  - cpumask_local_spread(i, node) whose CPU ends, directly, through a
///    local variable or through a cpumask the driver keeps, in an IRQ
///    affinity hint (irq_set_affinity_hint(), irq_set_affinity_and_hint(),
///    irq_update_affinity_hint()) or an XPS map (netif_set_xps_queue()) of
///    the same file: in a loop over the vectors (High), or in a function
///    called once per vector (Medium: the loop is in the caller);
///  - a for_each_numa_hop_mask() loop that hands the hop's CPUs to the
///    vectors' affinity hints (High).
///
/// A CPU that reaches neither a hint nor an XPS map is not reported: a perf
/// PMU's context CPU (its interrupt follows it with irq_set_affinity()), a
/// ring's memory node, a fallback CPU for deferred work.
///
/// Patch mode rewrites the simple loop shape, a cpumask_local_spread() call
/// in a loop that feeds a hint or an XPS map, to irq_spread_local_cpu(i,
/// node, IRQ_SPREAD_NUMA), and includes <linux/irq_spread.h>: the same CPUs
/// where every online CPU may take interrupts, never one that
/// isolcpus=managed_irq or nohz_full keeps free of them; unlike
/// cpumask_local_spread(), irq_spread_local_cpu() may sleep, so a loop run
/// under a spinlock is not for it.  Registering the
/// device instead (the administrator's policy, the load of all devices, CPU
/// hotplug) is a conversion by hand: "Converting a driver" in the document
/// above.
///
// Confidence: High (a loop), Medium (a function called per vector)
// Copyright: (C) 2026 The irq_spread authors
// Options: --no-includes --include-headers
//

virtual patch
virtual context
virtual org
virtual report

@initialize:python@
@@
import re

# Per file: the keys of the masks that reach a hint or an XPS map, and the
# line of each (for the message).
sinks = {}

def strip_index(e):
	"""@e without its array indices and parentheses: q->m[i] is q->m."""
	prev = None
	while prev != e:
		prev = e
		e = re.sub(r"\[[^\[\]]*\]", "", e)
	return e.replace("(", "").replace(")", "")

def mask_key(fn, e):
	"""What names a mask: ("field", name) for a mask the driver keeps in a
	structure (&q->affinity_mask, q->masks[i], *q->intr.mask), ("var", fn,
	name) for a local one, ("cpu", fn, name) for cpumask_of(cpu) and
	get_cpu_mask(cpu)."""
	e = re.sub(r"\s+", "", e)
	m = re.match(r"^(?:cpumask_of|get_cpu_mask)\((.*)\)$", e)
	if m:
		inner = strip_index(m.group(1)).lstrip("&*")
		ids = re.findall(r"[A-Za-z_]\w*", inner)
		if not ids:
			return None
		if "->" in inner or "." in inner:
			return ("cpufield", ids[-1])
		return ("cpu", fn, ids[-1])
	e = strip_index(e).lstrip("&*")
	ids = re.findall(r"[A-Za-z_]\w*", e)
	if not ids:
		return None
	if "->" in e or "." in e:
		return ("field", ids[-1])
	return ("var", fn, ids[-1])

def cpu_key(fn, e):
	"""The key a CPU variable or field has as cpumask_of()'s argument."""
	return mask_key(fn, "cpumask_of(" + e + ")")

def add_sink(p, e, what):
	k = mask_key(p[0].current_element, e)
	if k is not None:
		sinks.setdefault(p[0].file, {}).setdefault(k, (what, p[0].line))

def find_sink(p, keys):
	"""The sink one of @keys reaches in @p's file, or None.  A local mask
	also reaches a field of its name (a pointer to the field it fills)."""
	s = sinks.get(p[0].file, {})
	for k in keys:
		if k is None:
			continue
		if k in s:
			return s[k]
		if k[0] == "var" and ("field", k[2]) in s:
			return s[("field", k[2])]
	return None

def message(p, sink, inloop):
	what, line = sink
	where = "in a loop" if inloop else "in a function called per vector"
	return ("cpumask_local_spread() %s places vectors: its CPU reaches %s "
		"at line %s; irq_spread_local_cpu() or a registered irq_spread "
		"device places them (Documentation/core-api/irq_spread.rst)"
		% (where, what, line))

// The masks that reach a hint or an XPS map.

@hint@
expression IRQ, M;
position p;
@@

(
irq_set_affinity_hint@p(IRQ, M)
|
irq_set_affinity_and_hint@p(IRQ, M)
|
irq_update_affinity_hint@p(IRQ, M)
)

@script:python@
p << hint.p;
M << hint.M;
@@

if M != "NULL":
	add_sink(p, M, "an IRQ affinity hint")

@xps@
expression D, M, Q;
position p;
@@

(
netif_set_xps_queue@p(D, M, Q)
|
__netif_set_xps_queue@p(D, M, Q, ...)
)

@script:python@
p << xps.p;
M << xps.M;
@@

add_sink(p, M, "an XPS map")

// Each call, and the keys of what its CPU goes into.

@call@
expression I, N;
position p;
@@

cpumask_local_spread@p(I, N)

@loop@
position call.p;
position q;
expression I, N;
iterator it;
@@

(
for (...;...;...) { <+... cpumask_local_spread@p@q(I, N) ...+> }
|
while (...) { <+... cpumask_local_spread@p@q(I, N) ...+> }
|
it(...) { <+... cpumask_local_spread@p@q(I, N) ...+> }
)

@into_mask@
position call.p;
position q;
expression I, N, M;
@@

cpumask_set_cpu(cpumask_local_spread@p@q(I, N), M)

@into_cpu@
position call.p;
position q;
expression I, N, C;
@@

C = cpumask_local_spread@p@q(I, N)

@cpu_into_mask exists@
position call.p;
position q;
expression I, N, C, M, M2;
@@

C = cpumask_local_spread@p@q(I, N);
...
(
cpumask_set_cpu(C, M)
|
cpumask_or(M, M2, \(get_cpu_mask(C)\|cpumask_of(C)\))
)

@cpu_ptr_or_mask exists@
position call.p;
position q;
expression I, N, C, M, M2, P;
@@

C = cpumask_local_spread@p@q(I, N);
...
P = get_cpu_mask(C);
...
\(cpumask_or(M, M2, P)\|cpumask_copy(M, P)\)

@in_sink@
position call.p;
position q;
expression IRQ, D, Q;
@@

(
irq_set_affinity_hint(IRQ, <+... cpumask_local_spread@p@q(...) ...+>)
|
irq_set_affinity_and_hint(IRQ, <+... cpumask_local_spread@p@q(...) ...+>)
|
irq_update_affinity_hint(IRQ, <+... cpumask_local_spread@p@q(...) ...+>)
|
netif_set_xps_queue(D, <+... cpumask_local_spread@p@q(...) ...+>, Q)
)

@initialize:python@
@@
# Per call (file, line, column): the keys of what its CPU goes into.
call_keys = {}
in_loop = set()

def call_id(p):
	return (p[0].file, p[0].line, p[0].column)

def add_keys(p, keys):
	call_keys.setdefault(call_id(p), []).extend(keys)

@script:python@
p << loop.q;
@@
in_loop.add(call_id(p))

@script:python@
p << into_mask.q;
M << into_mask.M;
@@
add_keys(p, [mask_key(p[0].current_element, M)])

@script:python@
p << into_cpu.q;
C << into_cpu.C;
@@
add_keys(p, [cpu_key(p[0].current_element, C)])

@script:python@
p << cpu_into_mask.q;
M << cpu_into_mask.M;
@@
add_keys(p, [mask_key(p[0].current_element, M)])

@script:python@
p << cpu_ptr_or_mask.q;
M << cpu_ptr_or_mask.M;
@@
add_keys(p, [mask_key(p[0].current_element, M)])

@script:python@
p << in_sink.q;
@@
k = ("direct", call_id(p))
sinks.setdefault(p[0].file, {})[k] = ("a hint or an XPS map", p[0].line)
add_keys(p, [k])

// A for_each_numa_hop_mask() loop that gives hop CPUs to vector hints.

@hop_loop@
iterator name for_each_numa_hop_mask;
expression M, N;
position p;
@@

for_each_numa_hop_mask@p(M, N) {
	<+...
(
	irq_set_affinity_hint(...)
|
	irq_set_affinity_and_hint(...)
|
	irq_update_affinity_hint(...)
|
	netif_set_xps_queue(...)
)
	...+>
}

// Report and org modes print from every call; the scripts after them drop
// the calls that do not qualify (include_match(False)), for context mode
// and then for patch mode, so they come last.

@script:python depends on report@
p << call.p;
@@
sink = find_sink(p, call_keys.get(call_id(p), []))
if sink is not None:
	coccilib.report.print_report(p[0], "WARNING: " +
		message(p, sink, call_id(p) in in_loop))

@script:python depends on org@
p << call.p;
@@
sink = find_sink(p, call_keys.get(call_id(p), []))
if sink is not None:
	coccilib.org.print_todo(p[0], "WARNING: " +
		message(p, sink, call_id(p) in in_loop))

@script:python depends on report@
p << hop_loop.p;
@@
coccilib.report.print_report(p[0], "WARNING: for_each_numa_hop_mask() "
	"loop places vectors hop by hop: a registered irq_spread device "
	"places them (Documentation/core-api/irq_spread.rst)")

@script:python depends on org@
p << hop_loop.p;
@@
coccilib.org.print_todo(p[0], "WARNING: for_each_numa_hop_mask() loop "
	"places vectors hop by hop")

@depends on context@
iterator name for_each_numa_hop_mask;
position hop_loop.p;
expression M, N;
statement S;
@@

* for_each_numa_hop_mask@p(M, N) S

// Decide: a call whose CPU reaches a sink is reported; a call in a loop is
// the simple shape patch mode rewrites.

@script:python placed@
p << call.p;
@@
keys = call_keys.get(call_id(p), [])
sink = find_sink(p, keys)
if sink is None:
	cocci.include_match(False)

@depends on context && placed@
position call.p;
expression I, N;
@@

* cpumask_local_spread@p(I, N)

@script:python simple@
p << call.p;
@@
keys = call_keys.get(call_id(p), [])
if find_sink(p, keys) is None or call_id(p) not in in_loop:
	cocci.include_match(False)

@rewrite depends on patch && simple@
position call.p;
expression I, N;
@@

- cpumask_local_spread@p(I, N)
+ irq_spread_local_cpu(I, N, IRQ_SPREAD_NUMA)

@has_header depends on rewrite@
@@

#include <linux/irq_spread.h>

// The new include goes before the first of some includes most drivers
// have that sort after it, else before the first <linux/...> include
// (Coccinelle adds a line next to an include it names, but not reliably
// next to one it matched as <linux/...> in a file it also changes): sort
// it in by hand if the file sorts its includes and the guess is wrong.

@inc_module depends on patch && rewrite && !has_header@
@@

+ #include <linux/irq_spread.h>
  #include <linux/module.h>

@inc_pci depends on patch && rewrite && !has_header && !inc_module@
@@

+ #include <linux/irq_spread.h>
  #include <linux/pci.h>

@inc_netdevice depends on patch && rewrite && !has_header && !inc_module && !inc_pci@
@@

+ #include <linux/irq_spread.h>
  #include <linux/netdevice.h>

@inc_kernel depends on patch && rewrite && !has_header && !inc_module && !inc_pci && !inc_netdevice@
@@

+ #include <linux/irq_spread.h>
  #include <linux/kernel.h>

@inc_platform_device depends on patch && rewrite && !has_header && !inc_module && !inc_pci && !inc_netdevice && !inc_kernel@
@@

+ #include <linux/irq_spread.h>
  #include <linux/platform_device.h>

@inc_of depends on patch && rewrite && !has_header && !inc_module && !inc_pci && !inc_netdevice && !inc_kernel && !inc_platform_device@
@@

+ #include <linux/irq_spread.h>
  #include <linux/of.h>

@depends on patch && rewrite && !has_header && !inc_module && !inc_pci && !inc_netdevice && !inc_kernel && !inc_platform_device && !inc_of@
@@

+ #include <linux/irq_spread.h>
  #include <linux/...>
