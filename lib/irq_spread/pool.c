// SPDX-License-Identifier: GPL-2.0
/*
 * irq_spread pools: a range of one device's vectors shared by more
 * consumers than it has (sub-functions, queues of many ports, ...).  A
 * vector is requested from the driver when a get first needs it, placed
 * by the engine under the pool's policy (irq_spread_pool_get() has the
 * rules), and released by its last user.  The pool moves its vectors off
 * a CPU going offline, back once their CPUs are online again, and under
 * the owner's policy and CPUs when the administrator writes them.
 */
#define pr_fmt(fmt) "irq_spread: " fmt

#include <linux/bitmap.h>
#include <linux/cpumask.h>
#include <linux/debugfs.h>
#include <linux/err.h>
#include <linux/export.h>
#include <linux/irq_spread.h>
#include <linux/limits.h>
#include <linux/list.h>
#include <linux/lockdep.h>
#include <linux/minmax.h>
#include <linux/mutex.h>
#include <linux/numa.h>
#include <linux/overflow.h>
#include <linux/printk.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>

#include <kunit/visibility.h>

#include "pool.h"

/* Where vector @v goes back to once CPU hotplug is over. */
static unsigned long *irq_spread_pool_home(struct irq_spread_pool *pool,
					   unsigned int v)
{
	return irq_spread_pool_mask(pool, pool->info.nr_vectors + v);
}

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
 * Add to @pool->near, for each node whose @pool->hop_limit is not INT_MIN,
 * the nodes up to its next distance above that limit.  False if none.
 */
static bool irq_spread_pool_next_hop(struct irq_spread_pool *pool)
{
	struct irq_spread_topology *topo = pool->topo;
	const struct irq_spread_topology_ops *ops = topo->ops;
	int node, k, d, next;
	bool found = false;

	for (node = 0; node < topo->nr_nodes; node++) {
		if (pool->hop_limit[node] == INT_MIN)
			continue;
		next = INT_MAX;
		for (k = 0; k < topo->nr_nodes; k++) {
			d = ops->distance(topo, node, k);
			if (ops->node_cpus(topo, k) && d > pool->hop_limit[node])
				next = min(next, d);
		}
		for (k = 0; next < INT_MAX && k < topo->nr_nodes; k++)
			if (ops->node_cpus(topo, k) &&
			    ops->distance(topo, node, k) <= next)
				bitmap_or(pool->near, pool->near,
					  ops->node_cpus(topo, k), topo->nr_cpus);
		found |= next < INT_MAX;
		pool->hop_limit[node] = next;
	}
	return found;
}

/*
 * Step 3.  Within a NUMA hop level, the least used vector is below the
 * level's share: only the driver's bound limits it.
 */
static int irq_spread_pool_nearest(struct irq_spread_pool *pool,
				   const unsigned long *cpus,
				   unsigned int share,
				   const unsigned long *skip)
{
	struct irq_spread_topology *topo = pool->topo;
	unsigned int cap = pool->info.max_users ?: UINT_MAX;
	unsigned int n = topo->nr_cpus, cpu, hop;
	int v, node;

	if (!cpus)
		return irq_spread_pool_least(pool, NULL, share, skip);
	bitmap_copy(pool->near, cpus, n);
	for_each_set_bit(cpu, cpus, n)
		bitmap_or(pool->near, pool->near,
			  topo->ops->sibling_cpus(topo, cpu), n);
	v = irq_spread_pool_least(pool, pool->near, cap, skip);
	if (v >= 0 && pool->vec[v].users < share)
		return v;

	for (node = 0; node < topo->nr_nodes; node++)
		pool->hop_limit[node] = INT_MIN;
	for_each_set_bit(cpu, cpus, n) {
		node = topo->ops->cpu_node(topo, cpu);
		if (node >= 0 && node < topo->nr_nodes)
			pool->hop_limit[node] = -1;
	}
	for (hop = 0; hop < IRQ_SPREAD_MAX_HOPS &&
	     irq_spread_pool_next_hop(pool); hop++) {
		v = irq_spread_pool_least(pool, pool->near, cap, skip);
		if (v >= 0)
			return v;
	}
	return irq_spread_pool_least(pool, NULL, share, skip);
}

/* The owner's policy and CPUs, which the administrator may have written. */
static void irq_spread_pool_sync(struct irq_spread_pool *pool)
{
	lockdep_assert_held(&pool->lock);
	if (pool->owner)
		irq_spread_dev_owner_state(pool->owner, &pool->policy,
					   &pool->restricted, pool->exclude);
}

/* Place vector @v within @cpus (%NULL: any) and the owner's CPUs, or these. */
static int irq_spread_pool_place(struct irq_spread_pool *pool, unsigned int v,
				 const unsigned long *cpus)
{
	const unsigned long *exclude = pool->restricted ? pool->exclude : NULL;
	unsigned int n = pool->topo->nr_cpus;

	if (cpus) {
		bitmap_complement(pool->avoid, cpus, n);
		if (exclude)
			bitmap_or(pool->avoid, pool->avoid, exclude, n);
		if (bitmap_weight(pool->avoid, n) < n)
			exclude = pool->avoid;
	}
	return irq_spread_topo_cpus(pool->topo, pool->info.node, 1, pool->policy,
				    exclude, irq_spread_pool_mask(pool, v),
				    pool->stride);
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
	pool->vec[v].displaced = false;
}

/* Step 2: place the first vector not requested and request it, or fail. */
static int irq_spread_pool_request(struct irq_spread_pool *pool,
				   const unsigned long *cpus)
{
	const struct irq_spread_pool_info *info = &pool->info;
	unsigned int v = 0;
	int irq, ret;

	while (pool->vec[v].users)
		v++;
	irq_spread_pool_sync(pool);
	ret = irq_spread_pool_place(pool, v, cpus);
	if (ret)
		return ret;
	irq = info->ops->request(info->priv, info->first_vector + v,
				 to_cpumask(irq_spread_pool_mask(pool, v)));
	ret = irq;
	if (irq < 0)
		goto clear;
	pool->vec[v].irq = irq;
	if (irq_spread_irq_managed(irq)) {
		pr_warn("pool %s: IRQ %d of vector %u is managed by the interrupt core, not placed\n",
			info->name, irq, info->first_vector + v);
		ret = -EINVAL;
	} else {
		ret = irq_spread_pool_moved(pool, v);
	}
	if (!ret) {
		pool->nr_requested++;
		return v;
	}
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
	unsigned int share = pool->users / pool->info.nr_vectors + 1;
	int v;

	if (pool->info.max_users)
		share = min(share, pool->info.max_users);
	v = irq_spread_pool_least(pool, cpus, share, skip);
	if (v < 0 && cpus && bitmap_empty(cpus, pool->topo->nr_cpus))
		return -EINVAL;
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
 * irq_spread_pool_topo_get - irq_spread_pool_get() on the pool's topology
 * @pool: the pool
 * @cpus: the consumer's CPUs, @pool->topo->nr_cpus bits, or %NULL for any
 *
 * Return: as irq_spread_pool_get().
 */
int irq_spread_pool_topo_get(struct irq_spread_pool *pool,
			     const unsigned long *cpus)
{
	int v;

	if (!pool)
		return -EINVAL;
	mutex_lock(&pool->lock);
	v = irq_spread_pool_take_for(pool, cpus, NULL);
	mutex_unlock(&pool->lock);
	return v < 0 ? v : v + pool->info.first_vector;
}
EXPORT_SYMBOL_IF_KUNIT(irq_spread_pool_topo_get);

/**
 * irq_spread_pool_get - take a user of a pool vector near some CPUs
 * @pool: the pool
 * @mask: the CPUs the consumer runs on, or %NULL for any CPU
 *
 * Gives the least used requested vector with room within @mask; else a
 * new one, placed within @mask and requested by the request callback;
 * else the least used with room on @mask's CPUs and siblings, then within
 * 0, 1, ... NUMA hops, then anywhere.  A vector has room below
 * &irq_spread_pool_info.max_users and, but within a NUMA hop level, below
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
	return irq_spread_pool_topo_get(pool, mask ? cpumask_bits(mask) : NULL);
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

/*
 * @fn(pool, @cpu) for each pool on @topo (of @owner), under its lock;
 * %NULL @fn: the pools of @owner are owned by nobody from now on.
 */
static void irq_spread_pools_each(struct irq_spread_topology *topo,
				  struct irq_spread_dev *owner,
				  void (*fn)(struct irq_spread_pool *pool,
					     unsigned int cpu),
				  unsigned int cpu)
{
	struct irq_spread_pool *pool;

	mutex_lock(&topo->pools_lock);
	list_for_each_entry(pool, &topo->pools, list) {
		if (owner && pool->owner != owner)
			continue;
		mutex_lock(&pool->lock);
		irq_spread_pool_sync(pool);
		if (fn)
			fn(pool, cpu);
		else
			pool->owner = NULL;
		mutex_unlock(&pool->lock);
	}
	mutex_unlock(&topo->pools_lock);
}

/* Place every requested vector afresh, in vector order, and move them. */
static void irq_spread_pool_respread(struct irq_spread_pool *pool,
				     unsigned int unused)
{
	unsigned int nvec = pool->info.nr_vectors, v, i = 0;
	/* The new masks go over the homes: no vector is away from home after. */
	unsigned long *fresh = irq_spread_pool_home(pool, 0), *mask;
	int ret;

	if (!pool->nr_requested)
		return;
	/* The masks of vectors not requested are empty. */
	irq_spread_topo_release(pool->topo, nvec, pool->masks, pool->stride);
	ret = irq_spread_topo_cpus(pool->topo, pool->info.node,
				   pool->nr_requested, pool->policy,
				   pool->restricted ? pool->exclude : NULL,
				   fresh, pool->stride);
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
		pool->vec[v].displaced = false;
		if (!bitmap_equal(mask, fresh + i * pool->stride, pool->topo->nr_cpus)) {
			bitmap_copy(mask, fresh + i * pool->stride,
				    pool->stride * BITS_PER_LONG);
			irq_spread_pool_moved(pool, v);
		}
		i++;
	}
}

/* The pools of @owner place their vectors afresh under its policy and CPUs. */
void irq_spread_pools_follow(struct irq_spread_topology *topo,
			     struct irq_spread_dev *owner)
{
	irq_spread_pools_each(topo, owner, irq_spread_pool_respread, 0);
}

/* @cpu is leaving: vectors lose it; one left with none is placed again. */
static void irq_spread_pool_cpu_offline(struct irq_spread_pool *pool,
					unsigned int cpu)
{
	unsigned long *mask;
	unsigned int v;

	for (v = 0; v < pool->info.nr_vectors; v++) {
		mask = irq_spread_pool_mask(pool, v);
		if (!pool->vec[v].users || !test_bit(cpu, mask))
			continue;
		if (!pool->vec[v].displaced)
			bitmap_copy(irq_spread_pool_home(pool, v), mask,
				    pool->stride * BITS_PER_LONG);
		pool->vec[v].displaced = true;
		irq_spread_topo_release(pool->topo, 1, mask, pool->stride);
		__clear_bit(cpu, mask);
		if (!bitmap_empty(mask, pool->topo->nr_cpus)) {
			irq_spread_topo_hold(pool->topo, 1, mask, pool->stride);
		} else if (irq_spread_pool_place(pool, v, NULL)) {
			/* Nowhere else: the interrupt core moves it. */
			__set_bit(cpu, mask);
			irq_spread_topo_hold(pool->topo, 1, mask, pool->stride);
			continue;
		}
		irq_spread_pool_moved(pool, v);
	}
}

/* A CPU came back: the vectors CPU hotplug moved go home, if they can. */
static void irq_spread_pool_cpu_back(struct irq_spread_pool *pool,
				     unsigned int cpu)
{
	unsigned int n = pool->topo->nr_cpus, v;
	unsigned long *mask;

	irq_spread_topo_eligible(pool->topo, pool->near);
	if (pool->restricted)
		bitmap_andnot(pool->near, pool->near, pool->exclude, n);
	for (v = 0; v < pool->info.nr_vectors; v++) {
		if (!pool->vec[v].users || !pool->vec[v].displaced ||
		    !bitmap_subset(irq_spread_pool_home(pool, v), pool->near, n))
			continue;
		mask = irq_spread_pool_mask(pool, v);
		irq_spread_topo_release(pool->topo, 1, mask, pool->stride);
		bitmap_copy(mask, irq_spread_pool_home(pool, v),
			    pool->stride * BITS_PER_LONG);
		irq_spread_topo_hold(pool->topo, 1, mask, pool->stride);
		pool->vec[v].displaced = false;
		irq_spread_pool_moved(pool, v);
	}
}

/* From CPU hotplug callbacks: @cpu is going offline, or came online. */
void irq_spread_pools_cpu_offline(struct irq_spread_topology *topo,
				  unsigned int cpu)
{
	irq_spread_pools_each(topo, NULL, irq_spread_pool_cpu_offline, cpu);
}

void irq_spread_pools_cpu_online(struct irq_spread_topology *topo,
				 unsigned int cpu)
{
	irq_spread_pools_each(topo, NULL, irq_spread_pool_cpu_back, cpu);
}

/* @owner goes: its pools keep its last policy and CPUs, owned by nobody. */
void irq_spread_pools_disown(struct irq_spread_topology *topo,
			     struct irq_spread_dev *owner)
{
	irq_spread_pools_each(topo, owner, NULL, 0);
}

/**
 * irq_spread_pool_show - write a pool's state, as its debugfs file shows it
 * @m: the seq_file; @m->private is the pool
 * @v: unused
 *
 * The pool's settings and totals, then per requested vector its number,
 * interrupt, users and CPUs.
 *
 * Return: 0.
 */
int irq_spread_pool_show(struct seq_file *m, void *v)
{
	struct irq_spread_pool *pool = m->private;
	const struct irq_spread_pool_info *info = &pool->info;
	unsigned int i;

	mutex_lock(&pool->lock);
	seq_printf(m, "# node %d policy %s max_users %u requested %u/%u users %u\n",
		   info->node, irq_spread_policy_name(pool->policy),
		   info->max_users, pool->nr_requested, info->nr_vectors,
		   pool->users);
	seq_puts(m, "vector\tirq\tusers\tcpus\n");
	for (i = 0; i < info->nr_vectors; i++)
		if (pool->vec[i].users)
			seq_printf(m, "%u\t%u\t%u\t%*pbl\n",
				   info->first_vector + i, pool->vec[i].irq,
				   pool->vec[i].users, pool->topo->nr_cpus,
				   irq_spread_pool_mask(pool, i));
	mutex_unlock(&pool->lock);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(irq_spread_pool_show);

DEFINE_SHOW_ATTRIBUTE(irq_spread_pool);

/* Set in @irqs, below @nr_irqs, the interrupts of @topo's requested vectors. */
void irq_spread_pools_irqs(struct irq_spread_topology *topo,
			   unsigned long *irqs, unsigned int nr_irqs)
{
	struct irq_spread_pool *pool;
	unsigned int v, irq;

	mutex_lock(&topo->pools_lock);
	list_for_each_entry(pool, &topo->pools, list) {
		mutex_lock(&pool->lock);
		for (v = 0; v < pool->info.nr_vectors; v++) {
			irq = pool->vec[v].irq;
			if (pool->vec[v].users && irq < nr_irqs)
				__set_bit(irq, irqs);
		}
		mutex_unlock(&pool->lock);
	}
	mutex_unlock(&topo->pools_lock);
}

static bool irq_spread_pool_info_valid(const struct irq_spread_topology *topo,
				       const struct irq_spread_pool_info *info)
{
	if (!info || !info->name || !info->ops || !info->ops->request ||
	    !info->ops->release || !topo->ops->cpu_node ||
	    (unsigned int)info->policy >= IRQ_SPREAD_NR_POLICIES ||
	    (info->owner && !irq_spread_dev_on(info->owner, topo)))
		return false;
	if (info->node != NUMA_NO_NODE &&
	    (info->node < 0 || info->node >= topo->nr_nodes))
		return false;
	/* Vector numbers are returned as int. */
	return info->nr_vectors && info->first_vector <= INT_MAX &&
	       info->nr_vectors - 1 <= INT_MAX - info->first_vector;
}

static void irq_spread_pool_free(struct irq_spread_pool *pool)
{
	kvfree(pool->hop_limit);
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
	size_t stride;

	if (!irq_spread_pool_info_valid(topo, info))
		return ERR_PTR(-EINVAL);
	nvec = info->nr_vectors;
	pool = kvzalloc_flex(*pool, vec, nvec);
	if (!pool)
		return ERR_PTR(-ENOMEM);
	/* The masks are handed to the driver as struct cpumask. */
	stride = max(BITS_TO_LONGS(topo->nr_cpus), cpumask_size() / sizeof(long));
	pool->topo = topo;
	pool->info = *info;
	pool->owner = info->owner;
	pool->policy = info->policy;
	pool->stride = stride;
	pool->info.name = kstrdup(info->name, GFP_KERNEL);
	/* The vectors' masks, their homes, then the scratch bitmaps. */
	pool->masks = kvcalloc(size_add(array3_size(2, nvec, stride),
					4 * stride + BITS_TO_LONGS(nvec)),
			       sizeof(long), GFP_KERNEL);
	pool->hop_limit = kvcalloc(max(topo->nr_nodes, 1U),
				   sizeof(*pool->hop_limit), GFP_KERNEL);
	if (!pool->info.name || !pool->masks || !pool->hop_limit) {
		irq_spread_pool_free(pool);
		return ERR_PTR(-ENOMEM);
	}
	pool->exclude = irq_spread_pool_mask(pool, 2 * nvec);
	pool->avoid = pool->exclude + stride;
	pool->asked = pool->avoid + stride;
	pool->near = pool->asked + stride;
	pool->skip = pool->near + stride;
	for (v = 0; v < nvec; v++)
		INIT_LIST_HEAD(&pool->vec[v].links);
	mutex_init(&pool->lock);

	mutex_lock(&topo->pools_lock);
	mutex_lock(&pool->lock);
	irq_spread_pool_sync(pool);
	mutex_unlock(&pool->lock);
	list_add_tail(&pool->list, &topo->pools);
	mutex_unlock(&topo->pools_lock);
	/* Only the system's pools are the administrator's to look at. */
	if (topo == &irq_spread_system)
		pool->debugfs = debugfs_create_file(pool->info.name, 0400,
						    irq_spread_pool_dir, pool,
						    &irq_spread_pool_fops);
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
