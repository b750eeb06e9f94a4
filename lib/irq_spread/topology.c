// SPDX-License-Identifier: GPL-2.0
/*
 * The running system as an irq_spread topology.
 */
#include <linux/bitmap.h>
#include <linux/cpumask.h>
#include <linux/err.h>
#include <linux/export.h>
#include <linux/init.h>
#include <linux/interrupt.h>
#include <linux/nodemask.h>
#include <linux/printk.h>
#include <linux/sched/isolation.h>
#include <linux/topology.h>

#include <kunit/visibility.h>

#include "engine.h"

/*
 * Hops by node_distance() over the nodes' CPU masks, rather than the
 * scheduler's hop masks: those gain a CPU coming online only once it is
 * active (CPUHP_AP_ACTIVE), after the re-spread of the online callback has
 * run, and hold no mask at all for a node without CPUs.  The order of the
 * hops is the same: nearer nodes first.
 */
static int irq_spread_system_distance(const struct irq_spread_topology *topo,
				      int from, int to)
{
	return node_distance(from, to);
}

static const unsigned long *
irq_spread_system_node_cpus(const struct irq_spread_topology *topo, int node)
{
	if (!node_state(node, N_CPU))
		return NULL;
	return cpumask_bits(cpumask_of_node(node));
}

static const unsigned long *
irq_spread_system_sibling_cpus(const struct irq_spread_topology *topo,
			       unsigned int cpu)
{
	return cpumask_bits(topology_sibling_cpumask(cpu));
}

#ifdef CONFIG_SCHED_MC
/*
 * A CPU's cache domain is the scheduler's MC level: the CPUs that share its
 * last-level cache.  On x86 that is cpu_llc_shared_mask(), an L3 (a CCX on
 * AMD); on architectures of the generic arch_topology (arm64, RISC-V) it is
 * the smaller of the node, the package and the LLC, or the cluster where no
 * LLC is shared (clusters then being the cache domain, as group_cpus_evenly()
 * takes them); powerpc and s390 give their own MC groups.  Kept up to date
 * as CPUs come and go, as the sibling masks are.  Without CONFIG_SCHED_MC
 * the machine has no cache domain for irq_spread, and the order is that of
 * NUMA hops, cores and threads.
 */
static const unsigned long *
irq_spread_system_llc_cpus(const struct irq_spread_topology *topo,
			   unsigned int cpu)
{
	return cpumask_bits(cpu_coregroup_mask(cpu));
}

#define IRQ_SPREAD_SYSTEM_LLC_CPUS	irq_spread_system_llc_cpus
#else
#define IRQ_SPREAD_SYSTEM_LLC_CPUS	NULL
#endif

/*
 * isolcpus=managed_irq keeps managed interrupts off a CPU; nohz_full keeps
 * the tick, and so should keep device interrupts, off it.  irqaffinity=
 * (/proc/irq/default_smp_affinity) is where the administrator wants the
 * interrupts nobody placed: irq_spread's stay within it too.
 */
static void irq_spread_system_eligible_cpus(const struct irq_spread_topology *topo,
					    unsigned long *dst)
{
	unsigned int n = topo->nr_cpus;

	bitmap_and(dst, cpumask_bits(cpu_online_mask),
		   cpumask_bits(housekeeping_cpumask(HK_TYPE_MANAGED_IRQ)), n);
	bitmap_and(dst, dst, cpumask_bits(housekeeping_cpumask(HK_TYPE_TICK)), n);
#ifdef CONFIG_SMP
	bitmap_and(dst, dst, cpumask_bits(irq_default_affinity), n);
#endif
}

static void irq_spread_system_online_cpus(const struct irq_spread_topology *topo,
					  unsigned long *dst)
{
	bitmap_copy(dst, cpumask_bits(cpu_online_mask), topo->nr_cpus);
}

static int irq_spread_system_cpu_node(const struct irq_spread_topology *topo,
				      unsigned int cpu)
{
	return cpu_to_node(cpu);
}

static const struct irq_spread_topology_ops irq_spread_system_ops = {
	.distance	= irq_spread_system_distance,
	.node_cpus	= irq_spread_system_node_cpus,
	.sibling_cpus	= irq_spread_system_sibling_cpus,
	.llc_cpus	= IRQ_SPREAD_SYSTEM_LLC_CPUS,
	.eligible_cpus	= irq_spread_system_eligible_cpus,
	.online_cpus	= irq_spread_system_online_cpus,
	.cpu_node	= irq_spread_system_cpu_node,
};

/*
 * The running system.  Its lock serialises every spread and release of
 * every device, and protects the load of all CPUs.  CPU hotplug is not
 * held off: a spread sees the online CPUs of one moment, and the interrupt
 * core moves an interrupt whose CPUs all go offline.
 */
static struct cpumask irq_spread_system_leaving;
static struct cpumask irq_spread_system_frozen;

struct irq_spread_topology irq_spread_system = {
	.ops	= &irq_spread_system_ops,
	.lock	= __MUTEX_INITIALIZER(irq_spread_system.lock),
	.query_lock = __MUTEX_INITIALIZER(irq_spread_system.query_lock),
	.devs_lock = __MUTEX_INITIALIZER(irq_spread_system.devs_lock),
	.devs	= LIST_HEAD_INIT(irq_spread_system.devs),
	.pools_lock = __MUTEX_INITIALIZER(irq_spread_system.pools_lock),
	.pools	= LIST_HEAD_INIT(irq_spread_system.pools),
	.leaving = cpumask_bits(&irq_spread_system_leaving),
	.frozen = cpumask_bits(&irq_spread_system_frozen),
};
EXPORT_SYMBOL_IF_KUNIT(irq_spread_system);

/*
 * nr_cpu_ids and nr_node_ids are final by now, and no driver probed yet.
 * Without the scratch space, spreads fail with -ENOMEM and
 * irq_spread_local_cpu() answers as cpumask_local_spread().
 */
static int __init irq_spread_system_init(void)
{
	if (irq_spread_topology_init(&irq_spread_system, &irq_spread_system_ops,
				     nr_cpu_ids, nr_node_ids, NULL))
		pr_err("irq_spread: no memory for the system's scratch space\n");
	return 0;
}
core_initcall(irq_spread_system_init);
