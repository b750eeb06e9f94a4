// SPDX-License-Identifier: GPL-2.0
/*
 * irq_spread pools: a range of one device's vectors shared by more
 * consumers than it has (sub-functions, queues of many ports, ...).  A
 * vector is requested from the driver when a get first needs it, placed
 * by the engine under the pool's (or its owner's) policy, and released by
 * its last user; irq_spread_pool_get() has the rules.  On CPU hotplug the
 * interrupt core moves it, asking the pool where, and brings it home.
 */
#define pr_fmt(fmt) "irq_spread: " fmt

#include <linux/bitmap.h>
#include <linux/cpumask.h>
#include <linux/debugfs.h>
#include <linux/err.h>
#include <linux/export.h>
#include <linux/irq_spread.h>
#include <linux/interrupt.h>
#include <linux/limits.h>
#include <linux/list.h>
#include <linux/lockdep.h>
#include <linux/minmax.h>
#include <linux/mutex.h>
#include <linux/numa.h>
#include <linux/overflow.h>
#include <linux/printk.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>

#include <kunit/visibility.h>

#include "pool.h"

/*
 * The least used requested vector below @cap users, all of whose CPUs are
 * in @cpus (%NULL: any), not in @skip (%NULL: none); -ENOSPC if none.
 */
static int irq_spread_pool_least(const struct irq_spread_pool *pool,
				 const unsigned long *cpus, unsigned int cap,
				 const unsigned long *skip)
{
	unsigned int n = pool->topo->nr_cpus, v, users;
	int best = -ENOSPC;

	lockdep_assert_held(&pool->lock);
	for (v = 0; v < pool->info.nr_vectors; v++) {
		users = pool->vec[v].users;
		if (!users || users >= cap || (skip && test_bit(v, skip)))
			continue;
		if (!cpus || bitmap_subset(irq_spread_pool_mask(pool, v), cpus, n)) {
			cap = users;
			best = v;
		}
	}
	return best;
}

/*
 * Step 3.  The least used vector with room on @cpus or their siblings; then
 * on these and their nodes, then adding the nodes at each NUMA distance
 * from those in turn, the least used below the driver's bound alone.
 */
static int irq_spread_pool_nearest(struct irq_spread_pool *pool,
				   const unsigned long *cpus,
				   unsigned int share,
				   const unsigned long *skip)
{
	struct irq_spread_topology *topo = pool->topo;
	const struct irq_spread_topology_ops *ops = topo->ops;
	unsigned int cap = pool->info.max_users ?: UINT_MAX;
	unsigned int n = topo->nr_cpus, cpu;
	int v, a, k, d, next, far = -2;

	if (!cpus)
		return irq_spread_pool_least(pool, NULL, share, skip);
	bitmap_copy(pool->near, cpus, n);
	for_each_set_bit(cpu, cpus, n)
		bitmap_or(pool->near, pool->near, ops->sibling_cpus(topo, cpu), n);
	v = irq_spread_pool_least(pool, pool->near, cap, skip);
	if (v >= 0 && pool->vec[v].users < share)
		return v;

	/* Per node, -1 for the nodes of @cpus, else its distance from them. */
	for (k = 0; k < topo->nr_nodes; k++)
		pool->dist[k] = INT_MAX;
	for_each_set_bit(cpu, cpus, n) {
		a = ops->cpu_node(topo, cpu);
		if (a < 0 || a >= topo->nr_nodes || pool->dist[a] == -1)
			continue;
		for (k = 0; k < topo->nr_nodes; k++)
			pool->dist[k] = min(pool->dist[k], ops->distance(topo, a, k));
		pool->dist[a] = -1;
	}
	/* Each level adds the nodes at its distance, up to the farthest. */
	for (d = -1; d < INT_MAX; far = d, d = next) {
		next = INT_MAX;
		for (k = 0; k < topo->nr_nodes; k++) {
			if (!ops->node_cpus(topo, k) || pool->dist[k] <= far)
				continue;
			if (pool->dist[k] > d)
				next = min(next, pool->dist[k]);
			else
				bitmap_or(pool->near, pool->near,
					  ops->node_cpus(topo, k), n);
		}
		v = irq_spread_pool_least(pool, pool->near, cap, skip);
		if (v >= 0)
			return v;
	}
	return irq_spread_pool_least(pool, NULL, share, skip);
}

/* The owner's policy and CPUs, which the administrator may have written. */
void irq_spread_pool_sync(struct irq_spread_pool *pool)
{
	lockdep_assert_held(&pool->lock);
	if (!pool->owner)
		return;
	irq_spread_dev_owner_state(pool->owner, &pool->policy, pool->avoid);
	spin_lock(&pool->exclude_lock);
	bitmap_copy(pool->exclude, pool->avoid, pool->topo->nr_cpus);
	spin_unlock(&pool->exclude_lock);
}

/* Set vector @v's interrupt on its CPUs; the vectors it serves follow. */
static int irq_spread_pool_moved(struct irq_spread_pool *pool, unsigned int v)
{
	unsigned long *mask = irq_spread_pool_mask(pool, v);
	int ret = irq_spread_irq_place(pool->vec[v].irq, to_cpumask(mask));

	if (ret)
		pr_warn_ratelimited("pool %s: affinity of IRQ %u not set: %d\n",
				    pool->info.name, pool->vec[v].irq, ret);
	irq_spread_links_serve(&pool->vec[v].links, mask);
	return ret;
}

/* Vector @v is not requested any more: its CPUs leave the load. */
static void irq_spread_pool_clear(struct irq_spread_pool *pool, unsigned int v)
{
	unsigned long *mask = irq_spread_pool_mask(pool, v);

	irq_spread_topo_release(pool->topo, 1, mask, pool->stride);
	bitmap_zero(mask, pool->stride * BITS_PER_LONG);
	pool->vec[v].irq = 0;
}

/* Step 2: request a new vector, placed within @cpus and the owner's CPUs. */
static int irq_spread_pool_request(struct irq_spread_pool *pool,
				   const unsigned long *cpus)
{
	const struct irq_spread_pool_info *info = &pool->info;
	unsigned int n = pool->topo->nr_cpus, v = 0;
	const unsigned long *exclude;
	int irq, ret;

	while (pool->vec[v].users)
		v++;
	irq_spread_pool_sync(pool);
	exclude = pool->exclude;
	if (cpus) {
		bitmap_complement(pool->avoid, cpus, n);
		bitmap_or(pool->avoid, pool->avoid, pool->exclude, n);
		if (bitmap_weight(pool->avoid, n) < n)
			exclude = pool->avoid;
	}
	ret = irq_spread_topo_cpus(pool->topo, info->node, 1, pool->policy,
				   exclude, irq_spread_pool_mask(pool, v),
				   pool->stride);
	if (ret)
		return ret;
	irq = info->ops->request(info->priv, info->first_vector + v,
				 to_cpumask(irq_spread_pool_mask(pool, v)));
	ret = irq;
	if (irq < 0)
		goto clear;
	pool->vec[v].irq = irq;
	ret = irq_spread_irq_placer(irq, &pool->vec[v].placer);
	if (ret) {
		pr_warn("pool %s: IRQ %d of vector %u not placed, the interrupt core refused a placer: %d\n",
			info->name, irq, info->first_vector + v, ret);
		goto release;
	}
	ret = irq_spread_pool_moved(pool, v);
	if (!ret) {
		pool->nr_requested++;
		return v;
	}
	irq_spread_irq_placer(irq, NULL);
release:
	info->ops->release(info->priv, info->first_vector + v, irq);
clear:
	irq_spread_pool_clear(pool, v);
	return ret;
}

/* The last user of vector @v is gone: the driver releases it. */
static void irq_spread_pool_release(struct irq_spread_pool *pool,
				    unsigned int v)
{
	irq_spread_links_unserve(&pool->vec[v].links);
	irq_spread_irq_placer(pool->vec[v].irq, NULL);
	pool->info.ops->release(pool->info.priv, pool->info.first_vector + v,
				pool->vec[v].irq);
	irq_spread_pool_clear(pool, v);
	pool->nr_requested--;
}

/* A user of a vector for @cpus, not of @skip while another has room. */
int irq_spread_pool_take_for(struct irq_spread_pool *pool,
			     const unsigned long *cpus,
			     const unsigned long *skip)
{
	unsigned int share = min(pool->users / pool->info.nr_vectors + 1,
				 pool->info.max_users ?: UINT_MAX);
	int v;

	v = irq_spread_pool_least(pool, cpus, share, skip);
	if (v < 0 && pool->nr_requested < pool->info.nr_vectors)
		v = irq_spread_pool_request(pool, cpus);
	else if (v < 0)
		v = irq_spread_pool_nearest(pool, cpus, share, skip);
	if (v == -ENOSPC && skip)
		v = irq_spread_pool_nearest(pool, cpus, share, NULL);
	if (v >= 0) {
		pool->vec[v].users++;
		pool->users++;
	}
	return v;
}

/* Give back a user of vector @v, which has one; the pool's lock held. */
void irq_spread_pool_give_back(struct irq_spread_pool *pool, unsigned int v)
{
	lockdep_assert_held(&pool->lock);
	pool->users--;
	if (!--pool->vec[v].users)
		irq_spread_pool_release(pool, v);
}

/**
 * irq_spread_pool_get - take a user of a pool vector near some CPUs
 * @pool: the pool
 * @mask: the CPUs the consumer runs on, or %NULL for any CPU
 *
 * Gives the least used requested vector with room within @mask; else a
 * new one, placed within @mask and requested by the request callback;
 * else the least used with room on @mask's CPUs and siblings, then on
 * these and their nodes, then adding the nodes at each NUMA distance from
 * those in turn, then anywhere.  A vector has room below
 * &irq_spread_pool_info.max_users and, but at a NUMA level, below
 * ceil((U + 1) / V) for U users of all V vectors.
 *
 * Context: process context, may sleep: takes the pool's mutex, then the
 * irq_spread mutex, and calls the request callback.
 * Return: the device's vector number; -EINVAL if @pool is %NULL or @mask
 * is empty; -ENOSPC if every vector has max_users users; -ENOMEM; the
 * request callback's or the interrupt core's error.  On error, nothing is
 * changed.
 */
int irq_spread_pool_get(struct irq_spread_pool *pool,
			const struct cpumask *mask)
{
	int v;

	if (!pool ||
	    (mask && bitmap_empty(cpumask_bits(mask), pool->topo->nr_cpus)))
		return -EINVAL;
	mutex_lock(&pool->lock);
	v = irq_spread_pool_take_for(pool, mask ? cpumask_bits(mask) : NULL, NULL);
	mutex_unlock(&pool->lock);
	return v < 0 ? v : v + pool->info.first_vector;
}
EXPORT_SYMBOL_GPL(irq_spread_pool_get);

/**
 * irq_spread_pool_put - give back a user of a pool vector
 * @pool: the pool
 * @vector: the vector number irq_spread_pool_get() returned
 *
 * The last user's put has the release callback release the vector.
 *
 * Context: process context, may sleep: takes the pool's mutex and the
 * irq_spread mutex, and calls the release callback.
 * Return: 0; -EINVAL, changing nothing, if @pool is %NULL or @vector is not
 * a vector of @pool that has a user.
 */
int irq_spread_pool_put(struct irq_spread_pool *pool, unsigned int vector)
{
	unsigned int v = pool ? vector - pool->info.first_vector : 0;
	int ret;

	if (!pool || v >= pool->info.nr_vectors)
		return -EINVAL;
	mutex_lock(&pool->lock);
	ret = pool->vec[v].users ? 0 : -EINVAL;
	if (!ret)
		irq_spread_pool_give_back(pool, v);
	mutex_unlock(&pool->lock);
	return ret;
}
EXPORT_SYMBOL_GPL(irq_spread_pool_put);

/* Place the requested vectors afresh, in vector order; the pool's lock held. */
void irq_spread_pool_respread(struct irq_spread_pool *pool)
{
	unsigned int nvec = pool->info.nr_vectors, v;
	unsigned long *fresh = pool->fresh, *mask;
	int ret;

	irq_spread_pool_sync(pool);
	if (!pool->nr_requested)
		return;
	/* The masks of vectors not requested are empty. */
	irq_spread_topo_release(pool->topo, nvec, pool->masks, pool->stride);
	ret = irq_spread_topo_cpus(pool->topo, pool->info.node,
				   pool->nr_requested, pool->policy,
				   pool->exclude, fresh, pool->stride);
	if (ret) {
		irq_spread_topo_hold(pool->topo, nvec, pool->masks, pool->stride);
		pr_warn("pool %s: vectors not placed again: %d\n",
			pool->info.name, ret);
		return;
	}
	for (v = 0; v < nvec; v++) {
		if (!pool->vec[v].users)
			continue;
		mask = irq_spread_pool_mask(pool, v);
		if (!bitmap_equal(mask, fresh, pool->topo->nr_cpus)) {
			bitmap_copy(mask, fresh, pool->stride * BITS_PER_LONG);
			irq_spread_pool_moved(pool, v);
		}
		fresh += pool->stride;
	}
}

/*
 * The interrupt core asks where a vector's interrupt goes while @cpu, one
 * of its CPUs, is offline: the eligible CPUs the owner allows, those of
 * @cpu's node if any; it brings it home with @cpu.  Without the pool's
 * mutex, held while a placer is removed, a removal that waits for this.
 */
static int irq_spread_pool_cpu_offline(struct irq_affinity_placer *placer,
				       unsigned int irq, unsigned int cpu,
				       struct cpumask *mask)
{
	struct irq_spread_pool *pool =
		container_of(placer, struct irq_spread_pool_vec, placer)->pool;
	struct irq_spread_topology *topo = pool->topo;
	int node = topo->ops->cpu_node(topo, cpu);
	unsigned long *cpus = cpumask_bits(mask);
	const unsigned long *near = node >= 0 && node < topo->nr_nodes ?
				    topo->ops->node_cpus(topo, node) : NULL;

	topo->ops->eligible_cpus(topo, cpus);
	__clear_bit(cpu, cpus);
	spin_lock(&pool->exclude_lock);
	bitmap_andnot(cpus, cpus, pool->exclude, topo->nr_cpus);
	spin_unlock(&pool->exclude_lock);
	if (near && bitmap_intersects(cpus, near, topo->nr_cpus))
		bitmap_and(cpus, cpus, near, topo->nr_cpus);
	return bitmap_empty(cpus, topo->nr_cpus) ? -ENOENT : 0;
}

static bool irq_spread_pool_info_valid(const struct irq_spread_topology *topo,
				       const struct irq_spread_pool_info *info)
{
	if (!info || !info->name || !info->ops || !info->ops->request ||
	    !info->ops->release || !topo->ops->cpu_node ||
	    (unsigned int)info->policy >= IRQ_SPREAD_NR_POLICIES ||
	    (info->owner && !irq_spread_dev_on(info->owner, topo)) ||
	    (info->node != NUMA_NO_NODE &&
	     (info->node < 0 || info->node >= topo->nr_nodes)))
		return false;
	/* Vector numbers are returned as int. */
	return info->nr_vectors && info->first_vector <= INT_MAX &&
	       info->nr_vectors - 1 <= INT_MAX - info->first_vector;
}

static void irq_spread_pool_free(struct irq_spread_pool *pool)
{
	kvfree(pool->dist);
	kvfree(pool->masks);
	kfree(pool->info.name);
	kvfree(pool);
}

/**
 * irq_spread_pool_topo_create - irq_spread_pool_create() on a topology
 * @topo: the machine
 * @info: the pool
 *
 * Return: as irq_spread_pool_create().
 */
struct irq_spread_pool *
irq_spread_pool_topo_create(struct irq_spread_topology *topo,
			    const struct irq_spread_pool_info *info)
{
	struct irq_spread_pool *pool;
	unsigned int nvec, v;

	if (!irq_spread_pool_info_valid(topo, info))
		return ERR_PTR(-EINVAL);
	nvec = info->nr_vectors;
	pool = kvzalloc_flex(*pool, vec, nvec);
	if (!pool)
		return ERR_PTR(-ENOMEM);
	pool->topo = topo;
	pool->info = *info;
	pool->owner = info->owner;
	pool->policy = info->policy;
	/* The masks are handed to the driver as struct cpumask. */
	pool->stride = max(BITS_TO_LONGS(topo->nr_cpus),
			   cpumask_size() / sizeof(long));
	pool->info.name = kstrdup(info->name, GFP_KERNEL);
	/* The vectors' masks, then the scratch bitmaps. */
	pool->masks = kvcalloc(size_add(array3_size(2, nvec, pool->stride),
					4 * pool->stride + BITS_TO_LONGS(nvec)),
			       sizeof(long), GFP_KERNEL);
	pool->dist = kvcalloc(max(topo->nr_nodes, 1U), sizeof(*pool->dist),
			      GFP_KERNEL);
	if (!pool->info.name || !pool->masks || !pool->dist) {
		irq_spread_pool_free(pool);
		return ERR_PTR(-ENOMEM);
	}
	pool->fresh = irq_spread_pool_mask(pool, nvec);
	pool->exclude = irq_spread_pool_mask(pool, 2 * nvec);
	pool->avoid = pool->exclude + pool->stride;
	pool->asked = pool->avoid + pool->stride;
	pool->near = pool->asked + pool->stride;
	pool->skip = pool->near + pool->stride;
	for (v = 0; v < nvec; v++) {
		pool->vec[v].pool = pool;
		pool->vec[v].placer.cpu_offline = irq_spread_pool_cpu_offline;
		INIT_LIST_HEAD(&pool->vec[v].links);
	}
	mutex_init(&pool->lock);
	spin_lock_init(&pool->exclude_lock);
	if (pool->owner)
		irq_spread_dev_owner_state(pool->owner, &pool->policy,
					   pool->exclude);
	mutex_lock(&topo->pools_lock);
	list_add_tail(&pool->list, &topo->pools);
	mutex_unlock(&topo->pools_lock);
	pool->debugfs = irq_spread_pool_debugfs(pool);
	return pool;
}
EXPORT_SYMBOL_IF_KUNIT(irq_spread_pool_topo_create);

/**
 * irq_spread_pool_create - create a pool of a device's vectors
 * @info: the pool: its name, node and policy (or owner), its vectors, the
 *	bound of users per vector, the driver's callbacks
 *
 * No vector is requested yet.  The pool's state is in
 * ``/sys/kernel/debug/irq_spread/pools/<name>``.
 *
 * Context: process context, may sleep.
 * Return: the pool; ERR_PTR(-EINVAL) if @info is %NULL, has no name, no
 * request or release callback, no vector, an invalid policy or node, an
 * owner on another machine, or vector numbers past INT_MAX;
 * ERR_PTR(-ENOMEM).
 */
struct irq_spread_pool *irq_spread_pool_create(const struct irq_spread_pool_info *info)
{
	return irq_spread_pool_topo_create(&irq_spread_system, info);
}
EXPORT_SYMBOL_GPL(irq_spread_pool_create);

/**
 * irq_spread_pool_destroy - destroy a pool
 * @pool: the pool, or %NULL
 *
 * Releases every vector still requested, users or not (a driver's fast
 * teardown); the placement-only devices it served have their own CPUs
 * again.  No get or put of @pool may run or follow.
 *
 * Context: process context, may sleep.
 */
void irq_spread_pool_destroy(struct irq_spread_pool *pool)
{
	unsigned int v;

	if (!pool)
		return;
	debugfs_remove(pool->debugfs);
	mutex_lock(&pool->topo->pools_lock);
	list_del(&pool->list);
	mutex_unlock(&pool->topo->pools_lock);
	mutex_lock(&pool->lock);
	for (v = 0; v < pool->info.nr_vectors; v++)
		if (pool->vec[v].users)
			irq_spread_pool_release(pool, v);
	mutex_unlock(&pool->lock);
	mutex_destroy(&pool->lock);
	irq_spread_pool_free(pool);
}
EXPORT_SYMBOL_GPL(irq_spread_pool_destroy);
