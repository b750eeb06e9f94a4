// SPDX-License-Identifier: GPL-2.0
/*
 * irq_spread topologies: the running system, and hop masks computed from
 * node distances for the nodes the scheduler keeps no hop masks for.
 */
#include <linux/bitmap.h>
#include <linux/cpumask.h>
#include <linux/err.h>
#include <linux/export.h>
#include <linux/init.h>
#include <linux/interrupt.h>
#include <linux/limits.h>
#include <linux/nodemask.h>
#include <linux/printk.h>
#include <linux/sched/isolation.h>
#include <linux/spinlock.h>
#include <linux/topology.h>

#include <kunit/visibility.h>

#include "engine.h"

/* The @hop-th smallest distinct distance from @node to a node with CPUs. */
static int irq_spread_hop_distance(const struct irq_spread_nodes *nodes,
				   int node, unsigned int hop)
{
	int limit = -1, next, d;
	unsigned int h, k;

	for (h = 0; h <= hop; h++) {
		next = INT_MAX;
		for (k = 0; k < nodes->nr_nodes; k++) {
			if (!nodes->node_cpus(nodes->priv, k))
				continue;
			d = nodes->distance(nodes->priv, node, k);
			if (d > limit && d < next)
				next = d;
		}
		if (next == INT_MAX)
			return -1;
		limit = next;
	}
	return limit;
}

/**
 * irq_spread_hop_by_distance - hop mask of a node, from node distances
 * @nodes: the machine
 * @node: the node to count hops from; it needs no CPUs of its own
 * @hop: the hop: 0 for the nearest nodes with CPUs, 1 for the next
 *	nearest, ...
 * @dst: where to write the CPUs at most @hop hops away from @node
 * @nr_cpus: width of @dst and of the node masks
 *
 * The scheduler's hop masks (sched_numa_hop_mask()) exist only for nodes
 * with CPUs; a device can sit on a node without any (memory or I/O only),
 * and its vectors still belong on the nearest CPUs.  Hop h gathers the
 * nodes with CPUs whose distance from @node is at most the h-th smallest
 * such distance.  Costs O(@hop * nodes) distance lookups.
 *
 * Return: false, leaving @dst alone, if there is no hop @hop.
 */
bool irq_spread_hop_by_distance(const struct irq_spread_nodes *nodes,
				int node, unsigned int hop, unsigned long *dst,
				unsigned int nr_cpus)
{
	const unsigned long *cpus;
	unsigned int k;
	int limit;

	limit = irq_spread_hop_distance(nodes, node, hop);
	if (limit < 0)
		return false;

	bitmap_zero(dst, nr_cpus);
	for (k = 0; k < nodes->nr_nodes; k++) {
		cpus = nodes->node_cpus(nodes->priv, k);
		if (cpus && nodes->distance(nodes->priv, node, k) <= limit)
			bitmap_or(dst, dst, cpus, nr_cpus);
	}
	return true;
}
EXPORT_SYMBOL_IF_KUNIT(irq_spread_hop_by_distance);

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

struct irq_spread_topology irq_spread_system = {
	.ops	= &irq_spread_system_ops,
	.lock	= __MUTEX_INITIALIZER(irq_spread_system.lock),
	.query_lock = __RAW_SPIN_LOCK_UNLOCKED(irq_spread_system.query_lock),
	.devs_lock = __MUTEX_INITIALIZER(irq_spread_system.devs_lock),
	.devs	= LIST_HEAD_INIT(irq_spread_system.devs),
	.pools_lock = __MUTEX_INITIALIZER(irq_spread_system.pools_lock),
	.pools	= LIST_HEAD_INIT(irq_spread_system.pools),
	.leaving = cpumask_bits(&irq_spread_system_leaving),
};
EXPORT_SYMBOL_IF_KUNIT(irq_spread_system);

/*
 * nr_cpu_ids and nr_node_ids are final by now, and no driver probed yet.
 * Without the scratch space, spreads fail with -ENOMEM and
 * irq_spread_local_cpu() answers as cpumask_local_spread().
 */
static int __init irq_spread_system_init(void)
{
	irq_spread_system.nr_cpus = nr_cpu_ids;
	irq_spread_system.nr_nodes = nr_node_ids;
	if (irq_spread_topology_alloc(&irq_spread_system))
		pr_err("irq_spread: no memory for the system's scratch space\n");
	return 0;
}
core_initcall(irq_spread_system_init);
