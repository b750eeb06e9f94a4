// SPDX-License-Identifier: GPL-2.0
/*
 * irq_spread pools: a range of one device's vectors, shared by more
 * consumers than it has vectors (sub-functions, queues of many ports, ...).
 *
 * A vector is requested from the driver when a consumer first needs it and
 * released when its last user puts it.  A consumer asks for a vector for
 * some CPUs; the pool gives it, in this order:
 *
 *  1. the least used requested vector whose CPUs are all among the asked
 *     ones and that has room;
 *  2. else a vector not requested yet, placed by the engine under the
 *     pool's policy within the asked CPUs, and requested from the driver;
 *  3. else the least used vector with room at the nearest level: on the
 *     asked CPUs and their SMT siblings, then within 0, 1, ... NUMA hops of
 *     their nodes, then anywhere.
 *
 * A vector has room if it has fewer users than the driver's bound, and
 * fewer than the share of its level: ceil((U + 1) / V), U being the users
 * of all V vectors of the pool before this one; at a NUMA hop level, the
 * share of the vectors within it if that is higher.  So gets for any CPU
 * leave no vector with more than ceil(U / V) users; and since the least
 * used of V' vectors with U' users has fewer than ceil((U' + 1) / V'),
 * a consumer leaves its node only when every vector of the node has the
 * driver's bound: a node whose consumers outnumber its share of the
 * vectors loads its own vectors a little more, rather than sending its
 * users across the interconnect.
 *
 * A get costs a scan of the vectors per nearness level, each a word-wise
 * bitmap comparison, and the engine's placement when it requests one.
 */
#define pr_fmt(fmt) "irq_spread: " fmt

#include <linux/bitmap.h>
#include <linux/cpumask.h>
#include <linux/debugfs.h>
#include <linux/err.h>
#include <linux/export.h>
#include <linux/init.h>
#include <linux/irq_spread.h>
#include <linux/limits.h>
#include <linux/list.h>
#include <linux/lockdep.h>
#include <linux/math.h>
#include <linux/minmax.h>
#include <linux/mutex.h>
#include <linux/numa.h>
#include <linux/overflow.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>

#include <kunit/visibility.h>

#include "irq_spread_internal.h"

/*
 * Every pool, for the interrupts they have requested (irq_spread_pools_irqs()).
 * The mutex is taken before any pool's, never with irq_spread_devs_lock or
 * a device's lock held.
 */
static DEFINE_MUTEX(irq_spread_pools_lock);
static LIST_HEAD(irq_spread_pools);

static unsigned long *irq_spread_pool_mask(const struct irq_spread_pool *pool,
					   unsigned int v)
{
	return pool->masks + v * pool->stride;
}

/*
 * The most users a vector may have after this get: one more than the
 * share of @users over @nr vectors, and no more than the driver's bound.
 */
static unsigned int irq_spread_pool_cap(const struct irq_spread_pool *pool,
					unsigned int users, unsigned int nr)
{
	unsigned int cap = DIV_ROUND_UP(users + 1, nr);

	if (pool->info.max_users)
		cap = min(cap, pool->info.max_users);
	return cap;
}

/* The pool's share: the cap of steps 1 and 3 outside NUMA hop levels. */
static unsigned int irq_spread_pool_share(const struct irq_spread_pool *pool)
{
	return irq_spread_pool_cap(pool, pool->users, pool->info.nr_vectors);
}

/*
 * The least used requested vector with fewer than @cap users whose CPUs
 * are all in @cpus (%NULL: anywhere), lowest number among equals; -ENOSPC
 * if there is none.
 */
static int irq_spread_pool_least_used(const struct irq_spread_pool *pool,
				      const unsigned long *cpus,
				      unsigned int cap)
{
	unsigned int v, users;
	int best = -ENOSPC;

	lockdep_assert_held(&pool->lock);
	for (v = 0; v < pool->info.nr_vectors; v++) {
		users = pool->vec[v].users;
		if (!users || users >= cap)
			continue;
		if (best >= 0 && users >= pool->vec[best].users)
			continue;
		if (cpus && !bitmap_subset(irq_spread_pool_mask(pool, v), cpus,
					   pool->topo->nr_cpus))
			continue;
		best = v;
	}
	return best;
}

/*
 * Step 3: the nearest vector with room, or -ENOSPC.  @pool->near grows
 * from @cpus level by level; hop masks include the hops before them.
 */
static int irq_spread_pool_nearest(struct irq_spread_pool *pool,
				   const unsigned long *cpus)
{
	struct irq_spread_topology *topo = pool->topo;
	unsigned int n = topo->nr_cpus, cpu, hop;
	unsigned int share = irq_spread_pool_share(pool);
	bool found;
	int v, node;

	if (!cpus)
		return -ENOSPC;

	bitmap_copy(pool->near, cpus, n);
	for_each_set_bit(cpu, cpus, n)
		bitmap_or(pool->near, pool->near,
			  topo->ops->sibling_cpus(topo, cpu), n);
	v = irq_spread_pool_least_used(pool, pool->near, share);
	if (v >= 0)
		return v;

	bitmap_zero(pool->nodes, topo->nr_nodes);
	for_each_set_bit(cpu, cpus, n) {
		node = topo->ops->cpu_node(topo, cpu);
		if (node >= 0 && node < topo->nr_nodes)
			__set_bit(node, pool->nodes);
	}
	for (hop = 0; hop < IRQ_SPREAD_MAX_HOPS; hop++) {
		found = false;
		for_each_set_bit(node, pool->nodes, topo->nr_nodes) {
			if (!topo->ops->hop_cpus(topo, node, hop, pool->hop))
				continue;
			bitmap_or(pool->near, pool->near, pool->hop, n);
			found = true;
		}
		if (!found)
			break;
		/*
		 * The cap within a hop level is the share of the level's
		 * vectors, if above the pool's: ceil((S + 1) / nr) for S
		 * users of nr vectors.  The least used of them has at most
		 * S / nr users, below it, so only max_users can stop it.
		 */
		v = irq_spread_pool_least_used(pool, pool->near,
					       pool->info.max_users ?: UINT_MAX);
		if (v >= 0)
			return v;
	}
	return irq_spread_pool_least_used(pool, NULL, share);
}

/*
 * Step 2: place the first vector not requested within @cpus and have the
 * driver request it.  On error, nothing is changed.
 */
static int irq_spread_pool_request(struct irq_spread_pool *pool,
				   const unsigned long *cpus)
{
	struct irq_spread_topology *topo = pool->topo;
	const unsigned long *exclude = NULL;
	unsigned long *mask;
	unsigned int v;
	int ret;

	lockdep_assert_held(&pool->lock);
	for (v = 0; pool->vec[v].users; v++)
		;
	if (cpus) {
		bitmap_complement(pool->want, cpus, topo->nr_cpus);
		exclude = pool->want;
	}
	mask = irq_spread_pool_mask(pool, v);
	ret = irq_spread_topo_cpus(topo, pool->info.node, 1, pool->info.policy,
				   exclude, mask, pool->stride);
	if (ret)
		return ret;

	ret = pool->info.ops->request(pool->info.priv,
				      pool->info.first_vector + v,
				      to_cpumask(mask));
	if (ret < 0) {
		irq_spread_topo_release(topo, 1, mask, pool->stride);
		bitmap_zero(mask, pool->stride * BITS_PER_LONG);
		return ret;
	}
	pool->vec[v].irq = ret;
	pool->nr_requested++;
	return v;
}

/* The last user is gone: have the driver release the vector. */
static void irq_spread_pool_release(struct irq_spread_pool *pool,
				    unsigned int v)
{
	unsigned long *mask = irq_spread_pool_mask(pool, v);

	lockdep_assert_held(&pool->lock);
	pool->info.ops->release(pool->info.priv, pool->info.first_vector + v,
				pool->vec[v].irq);
	irq_spread_topo_release(pool->topo, 1, mask, pool->stride);
	bitmap_zero(mask, pool->stride * BITS_PER_LONG);
	pool->vec[v].irq = 0;
	pool->nr_requested--;
}

/**
 * irq_spread_pool_topo_get - take a user of a pool vector near some CPUs
 * @pool: the pool
 * @cpus: the CPUs the consumer runs on, a bitmap of @pool->topo->nr_cpus
 *	bits, or %NULL for any CPU
 *
 * See irq_spread_pool_get(), which this is on the pool's topology.
 *
 * Context: process context, may sleep: takes @pool->lock, then the
 * topology's lock, and calls the driver's request callback.
 * Return: the device's vector number; -EINVAL if @pool is %NULL or @cpus
 * has no CPU; -ENOSPC if every vector has the driver's bound of users; an
 * error of the engine or of the request callback.  On error, nothing is
 * changed.
 */
int irq_spread_pool_topo_get(struct irq_spread_pool *pool,
			     const unsigned long *cpus)
{
	int v;

	if (!pool || (cpus && bitmap_empty(cpus, pool->topo->nr_cpus)))
		return -EINVAL;

	mutex_lock(&pool->lock);
	v = irq_spread_pool_least_used(pool, cpus, irq_spread_pool_share(pool));
	if (v < 0 && pool->nr_requested < pool->info.nr_vectors)
		v = irq_spread_pool_request(pool, cpus);
	else if (v < 0)
		v = irq_spread_pool_nearest(pool, cpus);
	if (v >= 0) {
		pool->vec[v].users++;
		pool->users++;
		v += pool->info.first_vector;
	}
	mutex_unlock(&pool->lock);
	return v;
}
EXPORT_SYMBOL_IF_KUNIT(irq_spread_pool_topo_get);

/**
 * irq_spread_pool_get - take a user of a pool vector near some CPUs
 * @pool: the pool
 * @mask: the CPUs the consumer runs on (a queue's CPU, a node, ...), or
 *	%NULL for any CPU
 *
 * Gives the consumer, in this order: the least used requested vector
 * whose CPUs are all in @mask and that has room; else a vector not
 * requested yet, which the engine places within @mask under the pool's
 * policy (nearest to the device's node first, least loaded CPUs first)
 * and the driver's request callback requests; else the least used vector
 * with room at the nearest level: on @mask and the SMT siblings of its
 * CPUs, then within 0, 1, ... NUMA hops of their nodes, then anywhere.
 *
 * A vector has room while it has fewer users than
 * &irq_spread_pool_info.max_users (if set) and fewer than
 * ceil((U + 1) / V) for U users of all V vectors of the pool; at a NUMA
 * hop level, fewer than the same share of the vectors within that level,
 * if higher.  Gets for any CPU leave no vector with more than ceil(U / V)
 * users, and a consumer's user leaves its node only when the node's
 * vectors all have &irq_spread_pool_info.max_users.
 *
 * If @mask holds no eligible CPU, the new vector goes to an online CPU
 * (see irq_spread_cpus()).  The vector stays the consumer's until
 * irq_spread_pool_put().
 *
 * Context: process context, may sleep: takes the pool's mutex, which
 * serialises all gets and puts of the pool and the driver's callbacks, then
 * the irq_spread mutex, and calls the request callback.
 * Return: the device's vector number (&irq_spread_pool_info.first_vector
 * and up); -EINVAL if @pool is %NULL or @mask is empty; -ENOSPC if every
 * vector already has &irq_spread_pool_info.max_users users; -ENOMEM; or the
 * request callback's error.  On error, nothing is changed.
 */
int irq_spread_pool_get(struct irq_spread_pool *pool,
			const struct cpumask *mask)
{
	return irq_spread_pool_topo_get(pool, mask ? cpumask_bits(mask) : NULL);
}
EXPORT_SYMBOL_GPL(irq_spread_pool_get);

/**
 * irq_spread_pool_get_cpu - take a user of a pool vector near a CPU
 * @pool: the pool
 * @cpu: the CPU the consumer runs on
 *
 * irq_spread_pool_get() for the CPUs cpumask_of(@cpu).
 *
 * Context: process context, may sleep.
 * Return: as irq_spread_pool_get(); -EINVAL also if @cpu is not below
 * nr_cpu_ids.
 */
int irq_spread_pool_get_cpu(struct irq_spread_pool *pool, unsigned int cpu)
{
	if (cpu >= nr_cpu_ids)
		return -EINVAL;
	return irq_spread_pool_get(pool, cpumask_of(cpu));
}
EXPORT_SYMBOL_GPL(irq_spread_pool_get_cpu);

/**
 * irq_spread_pool_put - give back a user of a pool vector
 * @pool: the pool
 * @vector: the vector number irq_spread_pool_get() returned
 *
 * The vector's last user put makes the driver's release callback release
 * it, and takes it out of the per-CPU load.
 *
 * Context: process context, may sleep: takes the pool's mutex and the
 * irq_spread mutex, and calls the release callback.
 * Return: 0; -EINVAL, changing nothing, if @pool is %NULL or @vector is not
 * a vector of @pool that has a user.
 */
int irq_spread_pool_put(struct irq_spread_pool *pool, unsigned int vector)
{
	unsigned int v;
	int ret = 0;

	if (!pool || vector < pool->info.first_vector ||
	    vector - pool->info.first_vector >= pool->info.nr_vectors)
		return -EINVAL;
	v = vector - pool->info.first_vector;

	mutex_lock(&pool->lock);
	if (!pool->vec[v].users) {
		ret = -EINVAL;
		goto unlock;
	}
	pool->users--;
	if (!--pool->vec[v].users)
		irq_spread_pool_release(pool, v);
unlock:
	mutex_unlock(&pool->lock);
	return ret;
}
EXPORT_SYMBOL_GPL(irq_spread_pool_put);

/**
 * irq_spread_pool_irq - the Linux interrupt number of a pool vector
 * @pool: the pool
 * @vector: a vector number irq_spread_pool_get() returned, not yet put
 *
 * Context: process context, may sleep (takes the pool's mutex).
 * Return: what the request callback returned for @vector; -EINVAL if
 * @pool is %NULL or @vector is not a vector of @pool that has a user.
 */
int irq_spread_pool_irq(struct irq_spread_pool *pool, unsigned int vector)
{
	unsigned int v;
	int ret;

	if (!pool || vector < pool->info.first_vector ||
	    vector - pool->info.first_vector >= pool->info.nr_vectors)
		return -EINVAL;
	v = vector - pool->info.first_vector;

	mutex_lock(&pool->lock);
	ret = pool->vec[v].users ? pool->vec[v].irq : -EINVAL;
	mutex_unlock(&pool->lock);
	return ret;
}
EXPORT_SYMBOL_GPL(irq_spread_pool_irq);

/**
 * irq_spread_pool_show - write a pool's state, as its debugfs file shows it
 * @m: the seq_file; @m->private is the pool
 * @v: unused
 *
 * A comment line with the pool's settings and totals, a header, then one
 * line per requested vector: vector number, Linux interrupt number, users
 * and CPU list.
 *
 * Context: process context, may sleep (takes the pool's mutex).
 * Return: 0.
 */
int irq_spread_pool_show(struct seq_file *m, void *v)
{
	struct irq_spread_pool *pool = m->private;
	const struct irq_spread_pool_info *info = &pool->info;
	unsigned int i;

	mutex_lock(&pool->lock);
	seq_printf(m, "# node %d policy %s max_users %u requested %u/%u users %u\n",
		   info->node, irq_spread_policy_name(info->policy),
		   info->max_users, pool->nr_requested, info->nr_vectors,
		   pool->users);
	seq_puts(m, "vector\tirq\tusers\tcpus\n");
	for (i = 0; i < info->nr_vectors; i++) {
		if (!pool->vec[i].users)
			continue;
		seq_printf(m, "%u\t%u\t%u\t%*pbl\n", info->first_vector + i,
			   pool->vec[i].irq, pool->vec[i].users,
			   pool->topo->nr_cpus, irq_spread_pool_mask(pool, i));
	}
	mutex_unlock(&pool->lock);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(irq_spread_pool_show);

/**
 * irq_spread_pools_irqs - mark the interrupts a machine's pools requested
 * @topo: the machine
 * @irqs: a bitmap of Linux interrupt numbers, @nr_irqs bits, where the
 *	interrupt of every requested vector (one with a user) of every pool
 *	on @topo is set
 * @nr_irqs: the size of @irqs; interrupts at or above it are left out
 *
 * Sets bits only, and changes nothing of the pools.
 *
 * Context: process context, may sleep: takes the list of pools' mutex,
 * then each pool's mutex in turn.
 */
void irq_spread_pools_irqs(const struct irq_spread_topology *topo,
			   unsigned long *irqs, unsigned int nr_irqs)
{
	struct irq_spread_pool *pool;
	unsigned int v, irq;

	mutex_lock(&irq_spread_pools_lock);
	list_for_each_entry(pool, &irq_spread_pools, list) {
		if (pool->topo != topo)
			continue;
		mutex_lock(&pool->lock);
		for (v = 0; v < pool->info.nr_vectors; v++) {
			irq = pool->vec[v].irq;
			if (pool->vec[v].users && irq < nr_irqs)
				__set_bit(irq, irqs);
		}
		mutex_unlock(&pool->lock);
	}
	mutex_unlock(&irq_spread_pools_lock);
}

DEFINE_SHOW_ATTRIBUTE(irq_spread_pool);

static bool irq_spread_pool_info_valid(const struct irq_spread_topology *topo,
				       const struct irq_spread_pool_info *info)
{
	if (!info || !info->name || !info->ops || !info->ops->request ||
	    !info->ops->release || !topo->ops->cpu_node)
		return false;
	if ((unsigned int)info->policy >= IRQ_SPREAD_NR_POLICIES)
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
	bitmap_free(pool->nodes);
	bitmap_free(pool->hop);
	bitmap_free(pool->near);
	bitmap_free(pool->want);
	kvfree(pool->masks);
	kvfree(pool->vec);
	kfree(pool->info.name);
	kfree(pool);
}

/**
 * irq_spread_pool_topo_create - create a pool on a topology
 * @topo: the machine
 * @info: the pool; see irq_spread_pool_create()
 *
 * Context: process context, may sleep.
 * Return: the pool; ERR_PTR(-EINVAL) if @info is invalid (see
 * irq_spread_pool_create()); ERR_PTR(-ENOMEM).
 */
struct irq_spread_pool *
irq_spread_pool_topo_create(struct irq_spread_topology *topo,
			    const struct irq_spread_pool_info *info)
{
	struct irq_spread_pool *pool;
	unsigned int n = topo->nr_cpus;

	if (!irq_spread_pool_info_valid(topo, info))
		return ERR_PTR(-EINVAL);
	pool = kzalloc(sizeof(*pool), GFP_KERNEL);
	if (!pool)
		return ERR_PTR(-ENOMEM);

	pool->topo = topo;
	pool->info = *info;
	/* The masks are handed to the driver as struct cpumask. */
	pool->stride = max_t(size_t, BITS_TO_LONGS(n),
			     cpumask_size() / sizeof(long));
	pool->info.name = kstrdup(info->name, GFP_KERNEL);
	pool->vec = kvcalloc(info->nr_vectors, sizeof(*pool->vec), GFP_KERNEL);
	pool->masks = kvcalloc(array_size(info->nr_vectors, pool->stride),
			       sizeof(long), GFP_KERNEL);
	pool->want = bitmap_zalloc(n, GFP_KERNEL);
	pool->near = bitmap_zalloc(n, GFP_KERNEL);
	pool->hop = bitmap_zalloc(n, GFP_KERNEL);
	pool->nodes = bitmap_zalloc(max(topo->nr_nodes, 1U), GFP_KERNEL);
	if (!pool->info.name || !pool->vec || !pool->masks || !pool->want ||
	    !pool->near || !pool->hop || !pool->nodes) {
		irq_spread_pool_free(pool);
		return ERR_PTR(-ENOMEM);
	}
	mutex_init(&pool->lock);
	pool->debugfs = debugfs_create_file(pool->info.name, 0400,
					    irq_spread_pool_dir, pool,
					    &irq_spread_pool_fops);
	mutex_lock(&irq_spread_pools_lock);
	list_add_tail(&pool->list, &irq_spread_pools);
	mutex_unlock(&irq_spread_pools_lock);
	return pool;
}
EXPORT_SYMBOL_IF_KUNIT(irq_spread_pool_topo_create);

/**
 * irq_spread_pool_create - create a pool of a device's vectors
 * @info: the pool: its name, the device's node and policy, its vectors,
 *	the bound of users per vector, the driver's callbacks
 *
 * No vector is requested yet: irq_spread_pool_get() requests each when a
 * consumer first needs it.  The pool's state is in
 * ``/sys/kernel/debug/irq_spread/pools/<name>``.
 *
 * Context: process context, may sleep.
 * Return: the pool; ERR_PTR(-EINVAL) if @info is %NULL, has no name, no
 * request or release callback, no vector, an invalid policy or node, or
 * vector numbers past INT_MAX; ERR_PTR(-ENOMEM).
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
 * Every consumer must have put its vectors, and no get or put of @pool may
 * run or follow.  A vector still held is a driver bug: it is warned about
 * and released.
 *
 * Context: process context, may sleep.
 */
void irq_spread_pool_destroy(struct irq_spread_pool *pool)
{
	unsigned int v;

	if (!pool)
		return;
	mutex_lock(&irq_spread_pools_lock);
	list_del(&pool->list);
	mutex_unlock(&irq_spread_pools_lock);
	debugfs_remove(pool->debugfs);

	mutex_lock(&pool->lock);
	WARN_ON(pool->users);
	for (v = 0; v < pool->info.nr_vectors; v++) {
		if (!pool->vec[v].users)
			continue;
		pool->vec[v].users = 0;
		irq_spread_pool_release(pool, v);
	}
	mutex_unlock(&pool->lock);
	mutex_destroy(&pool->lock);
	irq_spread_pool_free(pool);
}
EXPORT_SYMBOL_GPL(irq_spread_pool_destroy);
