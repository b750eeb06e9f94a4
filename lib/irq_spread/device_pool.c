// SPDX-License-Identifier: GPL-2.0
/*
 * irq_spread devices and pools: a placement-only device
 * (%IRQ_SPREAD_DEV_PLACE_ONLY) whose vectors a pool's vectors serve, and a
 * device that owns a pool, whose policy and CPUs the pool follows.
 *
 * Everything a pool needs of a device is here, so that pool.c never
 * touches a device's state or lock itself.  The pool's lock is taken
 * before a device's, as everywhere.
 */
#include <linux/bitmap.h>
#include <linux/export.h>
#include <linux/irq_spread.h>
#include <linux/list.h>
#include <linux/lockdep.h>
#include <linux/mutex.h>

#include "device.h"
#include "pool.h"

/**
 * irq_spread_dev_on - whether a device is registered on a machine
 * @sd: the device
 * @topo: the machine
 *
 * Return: true if @sd is registered on @topo.
 */
bool irq_spread_dev_on(const struct irq_spread_dev *sd,
		       const struct irq_spread_topology *topo)
{
	return sd->topo == topo;
}

/**
 * irq_spread_dev_owner_state - what a pool's owner lets its vectors use
 * @owner: the device that owns the pool
 * @policy: where to write its policy
 * @exclude: where to write the CPUs it may not use (none if it may use
 *	every CPU), @owner->topo->nr_cpus bits
 *
 * Context: process context, may sleep: takes @owner's lock, inside the
 * pool's.
 */
void irq_spread_dev_owner_state(struct irq_spread_dev *owner,
				enum irq_spread_policy *policy,
				unsigned long *exclude)
{
	mutex_lock(&owner->lock);
	*policy = owner->policy;
	if (owner->restricted)
		bitmap_copy(exclude, owner->exclude, owner->topo->nr_cpus);
	else
		bitmap_zero(exclude, owner->topo->nr_cpus);
	mutex_unlock(&owner->lock);
}

/**
 * irq_spread_links_serve - a pool vector's served vectors follow its CPUs
 * @links: the pool vector's list of the vectors it serves
 *	(&irq_spread_vec.pool_link)
 * @mask: its CPUs
 *
 * Each vector has @mask from now on; each device whose vector's CPUs
 * change is told.
 *
 * Context: the pool's lock held; takes each vector's device's lock.
 */
void irq_spread_links_serve(struct list_head *links, const unsigned long *mask)
{
	struct irq_spread_vec *vec;

	list_for_each_entry(vec, links, pool_link) {
		mutex_lock(&vec->sd->lock);
		irq_spread_vec_serve(vec, mask);
		mutex_unlock(&vec->sd->lock);
	}
}

/**
 * irq_spread_links_unserve - a pool vector serves nobody any more
 * @links: the pool vector's list of the vectors it serves, emptied
 *
 * Each vector has its device's placement again, and its device is told
 * if that differs.
 *
 * Context: the pool's lock held; takes each vector's device's lock.
 */
void irq_spread_links_unserve(struct list_head *links)
{
	struct irq_spread_vec *vec, *tmp;

	list_for_each_entry_safe(vec, tmp, links, pool_link) {
		mutex_lock(&vec->sd->lock);
		list_del_init(&vec->pool_link);
		vec->pool = NULL;
		irq_spread_vec_unserve(vec);
		mutex_unlock(&vec->sd->lock);
	}
}

/**
 * irq_spread_dev_pool_get - a pool vector for a placement-only device's vector
 * @sd: the device, registered with %IRQ_SPREAD_DEV_PLACE_ONLY
 * @vector: its device vector number, which no pool vector serves yet
 * @pool: the pool, on the same machine
 *
 * Gives the vector a user of a pool vector, as irq_spread_pool_get() does
 * for the CPUs that the pool vectors of the device's other vectors do not
 * have (all, if they have every CPU), and never one of those pool vectors
 * while another has room: a device's vectors get distinct interrupts, as
 * many as the pool has.  From then on the device's vector has the pool
 * vector's CPUs (irq_spread_dev_vector_mask()), through every move of it,
 * and the device's &irq_spread_dev_ops.changed is told of each change.
 * The placement-only device is never counted in the per-CPU load: the pool
 * vector is, once, however many vectors it serves.
 *
 * The caller serialises the gets and puts of one device vector.
 *
 * Context: process context, may sleep: takes the pool's mutex, then the
 * device's, and calls the pool's request callback.
 * Return: the pool vector's number, as irq_spread_pool_get(); -EINVAL if
 * @sd or @pool is %NULL, @sd is not placement-only, is on another machine
 * or has no vector @vector; -EBUSY if a pool vector serves it already;
 * else as irq_spread_pool_get().  On error nothing is changed.
 */
int irq_spread_dev_pool_get(struct irq_spread_dev *sd, unsigned int vector,
			    struct irq_spread_pool *pool)
{
	struct irq_spread_vec *vec, *other;
	unsigned int n, v;
	int p = -EBUSY;

	if (!sd || !pool || sd->topo != pool->topo ||
	    !(sd->flags & IRQ_SPREAD_DEV_PLACE_ONLY) ||
	    vector >= irq_spread_dev_nvec(sd))
		return -EINVAL;
	n = pool->topo->nr_cpus;
	vec = sd->vec[vector];

	mutex_lock(&pool->lock);
	mutex_lock(&sd->lock);
	if (vec->pool) {
		mutex_unlock(&sd->lock);
		goto unlock;
	}
	/* The pool vectors of the device's others, and their CPUs. */
	bitmap_zero(pool->skip, pool->info.nr_vectors);
	bitmap_zero(pool->asked, n);
	for (v = 0; v < irq_spread_dev_nvec(sd); v++) {
		other = sd->vec[v];
		if (other->pool != pool)
			continue;
		__set_bit(other->pool_vector, pool->skip);
		bitmap_or(pool->asked, pool->asked,
			  irq_spread_pool_mask(pool, other->pool_vector), n);
	}
	mutex_unlock(&sd->lock);
	bitmap_complement(pool->asked, pool->asked, n);

	p = irq_spread_pool_take_for(pool, bitmap_empty(pool->asked, n) ?
				     NULL : pool->asked, pool->skip);
	if (p < 0)
		goto unlock;
	mutex_lock(&sd->lock);
	vec->pool = pool;
	vec->pool_vector = p;
	list_add_tail(&vec->pool_link, &pool->vec[p].links);
	irq_spread_vec_serve(vec, irq_spread_pool_mask(pool, p));
	mutex_unlock(&sd->lock);
	p += pool->info.first_vector;
unlock:
	mutex_unlock(&pool->lock);
	return p;
}
EXPORT_SYMBOL_GPL(irq_spread_dev_pool_get);

/**
 * irq_spread_dev_pool_put - give back a placement-only device's pool vector
 * @sd: the device
 * @vector: its device vector number, which irq_spread_dev_pool_get() gave
 *	a pool vector
 *
 * Gives back the vector's user of its pool vector, as irq_spread_pool_put()
 * does; the device's vector has its placement's CPUs again.
 *
 * Context: process context, may sleep: takes the pool's mutex, then the
 * device's, and calls the pool's release callback.
 * Return: 0; -EINVAL, changing nothing, if @sd is %NULL or no pool vector
 * serves its vector @vector.
 */
int irq_spread_dev_pool_put(struct irq_spread_dev *sd, unsigned int vector)
{
	struct irq_spread_pool *pool;
	struct irq_spread_vec *vec;
	unsigned int p;

	if (!sd || vector >= irq_spread_dev_nvec(sd))
		return -EINVAL;
	vec = sd->vec[vector];
	mutex_lock(&sd->lock);
	pool = vec->pool;
	mutex_unlock(&sd->lock);
	if (!pool)
		return -EINVAL;

	mutex_lock(&pool->lock);
	mutex_lock(&sd->lock);
	p = vec->pool_vector;
	list_del_init(&vec->pool_link);
	vec->pool = NULL;
	irq_spread_vec_unserve(vec);
	mutex_unlock(&sd->lock);
	irq_spread_pool_give_back(pool, p);
	mutex_unlock(&pool->lock);
	return 0;
}
EXPORT_SYMBOL_GPL(irq_spread_dev_pool_put);

/**
 * irq_spread_pools_owner_changed - a device that owns pools changed
 * @topo: the machine
 * @owner: the device
 * @gone: it is being unregistered
 *
 * The pools @owner owns place their requested vectors afresh under its
 * policy and CPUs, which the administrator wrote; or, if it goes, keep its
 * last ones, owned by nobody from now on.
 *
 * Context: process context, may sleep: takes the pools' list mutex, each
 * of @owner's pools' mutex, then @owner's lock; @owner's lock not held.
 */
void irq_spread_pools_owner_changed(struct irq_spread_topology *topo,
				    struct irq_spread_dev *owner, bool gone)
{
	struct irq_spread_pool *pool;

	mutex_lock(&topo->pools_lock);
	list_for_each_entry(pool, &topo->pools, list) {
		if (pool->owner != owner)
			continue;
		mutex_lock(&pool->lock);
		if (gone) {
			irq_spread_pool_sync(pool);
			pool->owner = NULL;
		} else {
			irq_spread_pool_respread(pool);
		}
		mutex_unlock(&pool->lock);
	}
	mutex_unlock(&topo->pools_lock);
}

/**
 * irq_spread_dev_pool_put_all - a device gives back every pool vector
 * @sd: the device, being unregistered
 *
 * Context: process context, may sleep; @sd's lock not held.
 */
void irq_spread_dev_pool_put_all(struct irq_spread_dev *sd)
{
	unsigned int v;

	for (v = 0; v < irq_spread_dev_nvec(sd); v++)
		irq_spread_dev_pool_put(sd, v);
}
