/* SPDX-License-Identifier: GPL-2.0 */
/*
 * irq_spread pools (pool.c): a device's vectors shared by its consumers,
 * requested when first asked for and released by their last user.  What
 * the device layer, the pool's KUnit suite and the user-space tool need of
 * a pool; drivers use the API of <linux/irq_spread.h>.
 */
#ifndef _LIB_IRQ_SPREAD_POOL_H
#define _LIB_IRQ_SPREAD_POOL_H

#include <linux/interrupt.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/spinlock.h>
#include <linux/types.h>

#include "engine.h"

struct cpumask;
struct dentry;
struct seq_file;
struct irq_spread_dev;

/**
 * struct irq_spread_pool_vec - one vector of a pool
 * @pool: the pool
 * @users: number of consumers holding the vector; 0 if it is not requested
 * @irq: its Linux interrupt number, as the request callback returned it
 * @placer: what the interrupt core asks where @irq goes on CPU hotplug,
 *	installed while the vector is requested
 * @links: the vectors of placement-only devices it serves
 *	(&irq_spread_vec.pool_link)
 */
struct irq_spread_pool_vec {
	struct irq_spread_pool *pool;
	unsigned int users;
	unsigned int irq;
	struct irq_affinity_placer placer;
	struct list_head links;
};

/**
 * struct irq_spread_pool - vectors of one device, shared by its consumers
 * @list: in &irq_spread_topology.pools of @topo, under its pools_lock
 * @topo: the machine
 * @info: as given at creation; @info.name is a copy
 * @owner: the registration whose policy and CPUs the pool follows
 *	(&irq_spread_pool_info.owner), or %NULL; written under
 *	@topo->pools_lock and @lock
 * @policy: the policy new and re-placed vectors are placed under: the
 *	owner's, else @info.policy
 * @stride: distance between two masks in @masks, in longs: enough for
 *	@topo->nr_cpus bits and for a struct cpumask
 * @lock: serialises gets, puts, moves and the driver's callbacks; protects
 *	the fields below and @policy
 * @exclude_lock: for the vectors' placer, which does not take @lock:
 *	@exclude is written under both
 * @users: users of all vectors
 * @nr_requested: number of requested vectors
 * @masks: the vectors' CPUs: vector i's is the bitmap at @masks + i * @stride,
 *	empty while it is not requested; then @fresh, @exclude, @avoid,
 *	@asked, @near and @skip
 * @fresh: scratch: a fresh placement of the requested vectors, laid out
 *	as @masks
 * @exclude: the CPUs the owner may not use; empty for none
 * @avoid: scratch: the CPUs a new vector may not have
 * @asked: scratch: the CPUs a placement-only device's vector asks for
 * @near: scratch: the CPUs of a get's nearness level
 * @skip: scratch: the vectors a placement-only device holds already,
 *	@info.nr_vectors bits
 * @dist: scratch: per node, its distance from the nodes of a get's CPUs
 * @debugfs: the pool's debugfs file
 * @vec: the @info.nr_vectors vectors
 *
 * Lock order: @topo->pools_lock, @lock, then the lock of a device
 * (its owner's, or a device whose vectors it serves), then the topology's.
 */
struct irq_spread_pool {
	struct list_head list;
	struct irq_spread_topology *topo;
	struct irq_spread_pool_info info;
	struct irq_spread_dev *owner;
	enum irq_spread_policy policy;
	size_t stride;
	struct mutex lock;	/* gets, puts, moves and callbacks */
	spinlock_t exclude_lock;	/* @exclude, for the placer */
	unsigned int users;
	unsigned int nr_requested;
	unsigned long *masks;
	unsigned long *fresh;
	unsigned long *exclude;
	unsigned long *avoid;
	unsigned long *asked;
	unsigned long *near;
	unsigned long *skip;
	int *dist;
	struct dentry *debugfs;
	struct irq_spread_pool_vec vec[];
};

/* The CPUs of vector @v of @pool: empty while it is not requested. */
static inline unsigned long *irq_spread_pool_mask(const struct irq_spread_pool *pool,
						  unsigned int v)
{
	return pool->masks + v * pool->stride;
}

struct irq_spread_pool *
irq_spread_pool_topo_create(struct irq_spread_topology *topo,
			    const struct irq_spread_pool_info *info);
void irq_spread_pool_sync(struct irq_spread_pool *pool);
void irq_spread_pool_respread(struct irq_spread_pool *pool);
void irq_spread_pools_owner_changed(struct irq_spread_topology *topo,
				    struct irq_spread_dev *owner, bool gone);
int irq_spread_pool_take_for(struct irq_spread_pool *pool,
			     const unsigned long *cpus,
			     const unsigned long *skip);
void irq_spread_pool_give_back(struct irq_spread_pool *pool, unsigned int v);

/*
 * What pool.c asks of the rest of the library, which the user-space tool
 * stubs: the interrupt core (irq.c), its debugfs file (debugfs.c), and the
 * devices that own a pool or whose vectors a pool serves (device_pool.c).
 * A pool sees a device only through these: it never takes a device's lock
 * itself.
 */
int irq_spread_irq_place(unsigned int irq, const struct cpumask *mask);
int irq_spread_irq_placer(unsigned int irq, struct irq_affinity_placer *placer);
struct dentry *irq_spread_pool_debugfs(struct irq_spread_pool *pool);
int irq_spread_pool_show(struct seq_file *m, void *v);
bool irq_spread_dev_on(const struct irq_spread_dev *sd,
		       const struct irq_spread_topology *topo);
void irq_spread_dev_owner_state(struct irq_spread_dev *owner,
				enum irq_spread_policy *policy,
				unsigned long *exclude);
void irq_spread_links_serve(struct list_head *links, const unsigned long *mask);
void irq_spread_links_unserve(struct list_head *links);

#endif /* _LIB_IRQ_SPREAD_POOL_H */
