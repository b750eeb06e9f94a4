/* SPDX-License-Identifier: GPL-2.0 */
/*
 * irq_spread internals: the abstract topology the engine works on, so that
 * KUnit can inject any machine, and the engine entry points.
 *
 * Everything here works on plain bitmaps of topo->nr_cpus bits rather than
 * on struct cpumask: cpumask operations stop at nr_cpu_ids, which is 1 under
 * UML, where an injected 256-CPU machine must still fit.  The system topology
 * uses nr_cpus == nr_cpu_ids, so its bitmaps are cpumask_bits().
 */
#ifndef _LIB_IRQ_SPREAD_INTERNAL_H
#define _LIB_IRQ_SPREAD_INTERNAL_H

#include <linux/irq_spread.h>
#include <linux/kobject.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/types.h>

struct cpumask;
struct dentry;
struct device;
struct seq_file;
struct irq_spread_topology;

/*
 * Firmware distances are one byte (ACPI SLIT), so no machine has more
 * distinct hops than this; it only guards against a topology whose
 * hop_cpus() never says stop.
 */
#define IRQ_SPREAD_MAX_HOPS	256

/**
 * struct irq_spread_topology_ops - what the engine asks of a machine
 * @hop_cpus: write to @dst the CPUs at most @hop NUMA hops away from @node
 *	(hop 0 is @node itself, each hop includes the ones before it, as
 *	sched_numa_hop_mask() does), all nr_cpus bits of it.  Return false,
 *	leaving @dst alone, when there is no hop @hop; every topology must
 *	return false for some finite @hop.  Never called with NUMA_NO_NODE.
 * @sibling_cpus: the SMT siblings of @cpu, @cpu included, as a bitmap of
 *	nr_cpus bits that stays valid for the duration of a spread.
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
	bool (*hop_cpus)(const struct irq_spread_topology *topo, int node,
			 unsigned int hop, unsigned long *dst);
	const unsigned long *(*sibling_cpus)(const struct irq_spread_topology *topo,
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
 *
 * Each topology counts its own load, so that KUnit cases do not see each
 * other's vectors; the system has a single instance.
 */
struct irq_spread_topology {
	const struct irq_spread_topology_ops *ops;
	unsigned int nr_cpus;
	unsigned int nr_nodes;
	void *priv;
	struct mutex lock;	/* serialises spreads, protects @load */
	unsigned int *load;
};

void irq_spread_topology_init(struct irq_spread_topology *topo,
			      const struct irq_spread_topology_ops *ops,
			      unsigned int nr_cpus, unsigned int nr_nodes,
			      void *priv);
void irq_spread_topology_destroy(struct irq_spread_topology *topo);

int irq_spread_topo_cpus(struct irq_spread_topology *topo, int node,
			 unsigned int nvec, enum irq_spread_policy policy,
			 const unsigned long *exclude, unsigned long *masks,
			 size_t stride);
void irq_spread_topo_release(struct irq_spread_topology *topo,
			     unsigned int nvec, const unsigned long *masks,
			     size_t stride);
void irq_spread_topo_hold(struct irq_spread_topology *topo, unsigned int nvec,
			  const unsigned long *masks, size_t stride);

/**
 * struct irq_spread_nodes - a machine described by node distances
 * @nr_nodes: number of nodes
 * @distance: distance from node @from to node @to, as node_distance()
 * @node_cpus: the CPUs of @node, or %NULL if it has none
 * @priv: for the callbacks
 */
struct irq_spread_nodes {
	unsigned int nr_nodes;
	int (*distance)(const void *priv, int from, int to);
	const unsigned long *(*node_cpus)(const void *priv, int node);
	const void *priv;
};

extern struct irq_spread_topology irq_spread_system;

bool irq_spread_hop_by_distance(const struct irq_spread_nodes *nodes,
				int node, unsigned int hop, unsigned long *dst,
				unsigned int nr_cpus);

/**
 * struct irq_spread_pool_vec - one vector of a pool
 * @users: number of consumers holding the vector; 0 if it is not requested
 * @irq: its Linux interrupt number, as the request callback returned it
 */
struct irq_spread_pool_vec {
	unsigned int users;
	unsigned int irq;
};

/**
 * struct irq_spread_pool - vectors of one device, shared by its consumers
 * @topo: the machine
 * @info: as given at creation; @info.name is a copy
 * @stride: distance between two masks in @masks, in longs: enough for
 *	@topo->nr_cpus bits and for a struct cpumask
 * @lock: serialises gets, puts and the driver's callbacks; protects the
 *	fields below
 * @users: users of all vectors
 * @nr_requested: number of requested vectors
 * @vec: the @info.nr_vectors vectors
 * @masks: the vectors' CPUs: vector i's is the bitmap at @masks + i * @stride,
 *	empty while it is not requested
 * @want: scratch: the CPUs a consumer asked for, or those it excludes
 * @near: scratch: the CPUs near the consumer's, at one nearness level
 * @hop: scratch: one hop mask
 * @nodes: scratch: the nodes of the consumer's CPUs, @topo->nr_nodes bits
 * @debugfs: the pool's debugfs file
 */
struct irq_spread_pool {
	struct irq_spread_topology *topo;
	struct irq_spread_pool_info info;
	size_t stride;
	struct mutex lock;	/* serialises gets, puts and callbacks */
	unsigned int users;
	unsigned int nr_requested;
	struct irq_spread_pool_vec *vec;
	unsigned long *masks;
	unsigned long *want;
	unsigned long *near;
	unsigned long *hop;
	unsigned long *nodes;
	struct dentry *debugfs;
};

struct irq_spread_pool *
irq_spread_pool_topo_create(struct irq_spread_topology *topo,
			    const struct irq_spread_pool_info *info);
int irq_spread_pool_topo_get(struct irq_spread_pool *pool,
			     const unsigned long *cpus);
int irq_spread_pool_show(struct seq_file *m, void *v);

/**
 * struct irq_spread_irq_ops - how registered devices reach their interrupts
 * @set: set the affinity and the affinity hint of @irq to @mask, as
 *	irq_set_affinity_and_hint() does; @mask stays valid and unchanged
 *	until @clear or the next @set of @irq.  Return 0 or a negative errno.
 * @clear: remove the affinity hint of @irq, leaving its affinity alone.
 * @get: write the current affinity of @irq to @dst, @nr_cpus bits; return
 *	false, leaving @dst alone, if @irq has none or it is not known (a move
 *	still pending).
 *
 * The system's are the interrupt core's.  KUnit injects its own, so that
 * it can test the device layer without interrupts (UML has none that take
 * an affinity) and play the administrator.  None of them may call back into
 * irq_spread; they are called with irq_spread_dev_lock held.
 */
struct irq_spread_irq_ops {
	int (*set)(void *priv, unsigned int irq, const struct cpumask *mask);
	void (*clear)(void *priv, unsigned int irq);
	bool (*get)(void *priv, unsigned int irq, unsigned long *dst,
		    unsigned int nr_cpus);
};

/**
 * struct irq_spread_dev - a device registered with irq_spread
 * @kobj: the device's ``irq_spread`` sysfs directory; its release frees the
 *	structure
 * @list: in the list of registered devices
 * @topo: the machine
 * @irq_ops: how to reach the vectors' interrupts
 * @irq_priv: for @irq_ops
 * @dev: the device
 * @node: the device's NUMA node, or NUMA_NO_NODE
 * @policy: how the device's vectors are placed
 * @nvec: number of vectors registered
 * @nr_active: number of vectors in use, the first ones; 0 until the first
 *	placement
 * @stride: distance between two masks of @placed, @applied and @spare, in
 *	longs: enough for @topo->nr_cpus bits and for a struct cpumask
 * @irqs: the vectors' Linux interrupt numbers, @nvec of them
 * @admin: bitmap of @nvec bits: the vectors whose affinity the administrator
 *	set, which no re-spread touches until a policy is written
 * @placed: the placement of the @nr_active active vectors, counted in the
 *	load of @topo
 * @applied: per vector, the mask last applied to its interrupt: the
 *	interrupt's affinity hint while the vector is active, and what its
 *	affinity is compared with to notice the administrator's
 * @spare: where the next placement is made
 * @cur: scratch: one interrupt's current affinity
 *
 * Everything but @kobj, @topo, @irq_ops, @irq_priv, @dev, @node, @nvec,
 * @stride and @irqs, which do not change, is protected by
 * irq_spread_dev_lock.
 */
struct irq_spread_dev {
	struct kobject kobj;
	struct list_head list;
	struct irq_spread_topology *topo;
	const struct irq_spread_irq_ops *irq_ops;
	void *irq_priv;
	struct device *dev;
	int node;
	enum irq_spread_policy policy;
	unsigned int nvec;
	unsigned int nr_active;
	size_t stride;
	unsigned int *irqs;
	unsigned long *admin;
	unsigned long *placed;
	unsigned long *applied;
	unsigned long *spare;
	unsigned long *cur;
};

extern struct mutex irq_spread_dev_lock;
extern const struct kobj_type irq_spread_dev_ktype;

int irq_spread_policy_list(char *buf, size_t size,
			   enum irq_spread_policy active);
int irq_spread_default_policy_set(const char *val, bool booting);

struct irq_spread_dev *
irq_spread_dev_topo_register(struct irq_spread_topology *topo,
			     const struct irq_spread_irq_ops *irq_ops,
			     void *irq_priv, struct device *dev, int node,
			     const unsigned int *irqs, unsigned int nvec);
void irq_spread_dev_free(struct irq_spread_dev *sd);
int irq_spread_dev_set_policy(struct irq_spread_dev *sd,
			      enum irq_spread_policy policy);
void irq_spread_dev_find_admin(struct irq_spread_dev *sd);
void irq_spread_devs_respread(struct irq_spread_topology *topo,
			      const unsigned long *exclude);

/* Vector @i's mask in @masks, one of the mask arrays of @sd. */
static inline unsigned long *irq_spread_dev_mask(const struct irq_spread_dev *sd,
						 unsigned long *masks,
						 unsigned int i)
{
	return masks + i * sd->stride;
}

#endif /* _LIB_IRQ_SPREAD_INTERNAL_H */
