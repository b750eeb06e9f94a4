/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The irq_spread engine: a machine (struct irq_spread_topology) and the
 * placement of vectors on it (spread.c), with nothing of devices,
 * interrupts or sysfs.  The device layer (device.h), pools (pool.h), the
 * engine's KUnit suite and the user-space tool (tools/irq_spread/) all
 * build on this header alone.
 *
 * Everything here works on plain bitmaps of topo->nr_cpus bits rather than
 * on struct cpumask: cpumask operations stop at nr_cpu_ids, which is 1 under
 * UML, where an injected 256-CPU machine must still fit.  The system topology
 * uses nr_cpus == nr_cpu_ids, so its bitmaps are cpumask_bits().
 */
#ifndef _LIB_IRQ_SPREAD_ENGINE_H
#define _LIB_IRQ_SPREAD_ENGINE_H

#include <linux/bits.h>
#include <linux/irq_spread.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/types.h>

struct irq_spread_topology;
struct irq_spread_order;
struct irq_spread_query;

/*
 * Firmware distances are one byte (ACPI SLIT), so no machine has more
 * distinct hops than this; it bounds the hops a spread or a pool counts.
 */
#define IRQ_SPREAD_MAX_HOPS	256

/**
 * struct irq_spread_topology_ops - what the engine asks of a machine
 * @distance: the distance from node @from to node @to, as node_distance().
 *	The hops of a node follow from it.
 * @node_cpus: the CPUs of @node, a bitmap of nr_cpus bits, or %NULL if the
 *	node has none.
 * @sibling_cpus: the SMT siblings of @cpu, @cpu included, as a bitmap of
 *	nr_cpus bits that stays valid for the duration of a spread.  Sibling
 *	masks change only when the online CPUs do: the engine links each
 *	core's threads again then, and only then.
 * @llc_cpus: the CPUs that share @cpu's last-level cache (its L3, or its
 *	cluster where the architecture groups cores by cluster instead),
 *	@cpu included, as a bitmap of nr_cpus bits valid as @sibling_cpus
 *	is, and changing only when the online CPUs do; the masks of the
 *	online CPUs partition them.  %NULL (the op) for a machine whose
 *	cache domains are not known: the order is then that of NUMA hops,
 *	cores and threads alone.
 * @eligible_cpus: write to @dst the CPUs that may take an interrupt: online
 *	and housekeeping for managed interrupts and for the tick.
 * @online_cpus: write to @dst the online CPUs, the fallback when no CPU is
 *	eligible.
 * @cpu_node: the NUMA node of @cpu, or NUMA_NO_NODE.  Only pools ask for it
 *	(to find the nodes near a consumer's CPUs); the engine does not.
 *
 * None of these may sleep.
 */
struct irq_spread_topology_ops {
	int (*distance)(const struct irq_spread_topology *topo, int from,
			int to);
	const unsigned long *(*node_cpus)(const struct irq_spread_topology *topo,
					  int node);
	const unsigned long *(*sibling_cpus)(const struct irq_spread_topology *topo,
					     unsigned int cpu);
	const unsigned long *(*llc_cpus)(const struct irq_spread_topology *topo,
					 unsigned int cpu);
	void (*eligible_cpus)(const struct irq_spread_topology *topo,
			      unsigned long *dst);
	void (*online_cpus)(const struct irq_spread_topology *topo,
			    unsigned long *dst);
	int (*cpu_node)(const struct irq_spread_topology *topo,
			unsigned int cpu);
};

/**
 * struct irq_spread_topology - a machine, and the vectors placed on it
 * @ops: how to read the machine
 * @nr_cpus: number of CPUs, the width of every bitmap the engine handles
 * @nr_nodes: number of NUMA nodes; valid device nodes are 0..@nr_nodes - 1
 * @priv: for @ops
 * @lock: serialises spreads and releases on this topology; protects @load
 * @load: per CPU, the number of placed vectors whose mask holds that CPU;
 *	allocated by the first spread, @nr_cpus entries
 * @held: the sum of @load: while it is 0, a spread orders the CPUs as on
 *	an idle machine, and stops within a tier
 * @leaving: CPUs on their way offline, which no spread uses although
 *	@ops still reports them online; %NULL for none.  Set and cleared by
 *	the device layer's CPU hotplug callbacks with atomic bit operations.
 * @order: scratch space of spreads, under @lock
 * @query_lock: protects @query; a query builds an order under it
 * @query: irq_spread_topo_nth_cpu()'s cache of orders, and its scratch
 *	space
 * @devs_lock: protects @devs
 * @devs: the devices registered on this machine (device.h)
 * @pools_lock: protects @pools
 * @pools: the pools on this machine (pool.h)
 * @frozen: CPUs that went offline while the system suspends and have not
 *	come back, for the device layer; %NULL to note none
 * @default_policy: the policy a new registration gets instead of its
 *	driver's, while @default_policy_set (param.c: irq_spread.policy=)
 * @default_policy_set: the administrator chose @default_policy
 *
 * Each topology counts its own load and lists its own devices and pools,
 * so that KUnit cases, which make topologies of their own, share nothing
 * with the system or with each other; the system has a single instance,
 * irq_spread_system.  The engine uses the fields up to @query; the device
 * layer and pools use the rest.  Lock order: @pools_lock, then @devs_lock,
 * then @lock, then @query_lock (never both taken by the engine).
 */
struct irq_spread_topology {
	const struct irq_spread_topology_ops *ops;
	unsigned int nr_cpus;
	unsigned int nr_nodes;
	void *priv;
	struct mutex lock;	/* serialises spreads, protects @load */
	unsigned int *load;
	unsigned long held;
	unsigned long *leaving;
	struct irq_spread_order *order;
	struct mutex query_lock;	/* protects @query */
	struct irq_spread_query *query;
	struct mutex devs_lock;		/* protects @devs */
	struct list_head devs;
	struct mutex pools_lock;	/* protects @pools */
	struct list_head pools;
	unsigned long *frozen;
	enum irq_spread_policy default_policy;
	bool default_policy_set;
};

int irq_spread_topology_init(struct irq_spread_topology *topo,
			     const struct irq_spread_topology_ops *ops,
			     unsigned int nr_cpus, unsigned int nr_nodes,
			     void *priv);
void irq_spread_topology_destroy(struct irq_spread_topology *topo);

/*
 * Flags of irq_spread_topo_spread().  IRQ_SPREAD_SLOT_ONLY: every vector
 * gets its slot's CPU alone, even a numa-core vector that would get its
 * whole core.  IRQ_SPREAD_NO_HOLD: the placement is made on the load but
 * not counted in it, as for a placement-only device's vectors.
 */
#define IRQ_SPREAD_SLOT_ONLY	BIT(0)
#define IRQ_SPREAD_NO_HOLD	BIT(1)

int irq_spread_topo_spread(struct irq_spread_topology *topo, int node,
			   unsigned int nvec, enum irq_spread_policy policy,
			   const unsigned long *exclude, unsigned long *masks,
			   size_t stride, unsigned int flags);
int irq_spread_topo_nth_cpu(struct irq_spread_topology *topo, int node,
			    unsigned int index, enum irq_spread_policy policy);
int irq_spread_topo_cpus(struct irq_spread_topology *topo, int node,
			 unsigned int nvec, enum irq_spread_policy policy,
			 const unsigned long *exclude, unsigned long *masks,
			 size_t stride);
void irq_spread_topo_eligible(const struct irq_spread_topology *topo,
			      unsigned long *dst);
void irq_spread_topo_release(struct irq_spread_topology *topo,
			     unsigned int nvec, const unsigned long *masks,
			     size_t stride);
void irq_spread_topo_hold(struct irq_spread_topology *topo, unsigned int nvec,
			  const unsigned long *masks, size_t stride);

extern struct irq_spread_topology irq_spread_system;

#endif /* _LIB_IRQ_SPREAD_ENGINE_H */
