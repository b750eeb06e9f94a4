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
 * A placement-only device (%IRQ_SPREAD_DEV_PLACE_ONLY) takes a pool
 * vector for one of its vectors with irq_spread_dev_pool_get(): it asks
 * for the CPUs its other vectors' pool vectors do not have, and is never
 * given one of those vectors while another has room, so that a consumer's
 * vectors are distinct interrupts; its vector then has the pool vector's
 * CPUs.  Its vectors are never counted in the load: the pool's are.
 *
 * The pool sets each requested vector's affinity (not its hint) and moves
 * it: off a CPU going offline (a vector keeps its other CPUs, one left
 * with none is placed again as a new one would be) and back home once all
 * its CPUs are online again; and, for a pool that belongs to a registered
 * device (&irq_spread_pool_info.owner), every requested vector placed
 * afresh under the owner's policy and within its CPUs whenever the
 * administrator writes them.  The devices whose vectors a moved vector
 * serves are told (&irq_spread_dev_ops.changed).
 *
 * A get does not scan the vectors.  Each requested vector is listed under
 * its first CPU, so the vectors within some CPUs are found from those CPUs'
 * lists; each node keeps the vectors all on it in buckets by user count,
 * so a node's least used vector is the lowest bit of its least bucket, and
 * a NUMA hop level's is the least of its nodes'.  A list runs up the
 * vector numbers and keeps the least users of its vectors and the first
 * vector that may have them, so that a get usually looks at one vector of
 * it; a put leaves the lists alone and counts itself, and a get walks a
 * list put since its last whole walk whole.  A get costs O(CPUs asked /
 * BITS_PER_LONG + their vectors) at the asked CPUs and their siblings,
 * O(nodes asked x nodes) per hop level, O(nodes) overall, plus the
 * engine's placement when it requests a vector; a put O(1), and the
 * driver's release on the last.
 *
 * The functions of the usual path of a get and of a put are inlined into
 * them (__always_inline): drivers call both per queue, and the calls
 * between them cost more than the work of each.  The usual get, for CPUs
 * of which one has a list whose start it takes, is tried first on its
 * own (irq_spread_pool_take_start()), and the rest of a get is out of
 * line, so that the usual get does not save the registers the rest needs.
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
#include <linux/printk.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>

#include <kunit/visibility.h>

#include "pool.h"

static unsigned long *
irq_spread_pool_before_hotplug(const struct irq_spread_pool *pool,
			       unsigned int v)
{
	return pool->before_hotplug + v * pool->stride;
}

/*
 * The pool's share, the cap of steps 1 and 3 outside NUMA hop levels: the
 * most users a vector may have after this get, one more than the share of
 * the U users over the V vectors, ceil((U + 1) / V), and no more than the
 * driver's bound.  For U = qV + r, that is q + 1.
 */
static unsigned int irq_spread_pool_share(const struct irq_spread_pool *pool)
{
	unsigned int share = pool->users / pool->info.nr_vectors + 1;

	if (pool->info.max_users)
		return min(share, pool->info.max_users);
	return share;
}

/*
 * The index.  Every requested vector is in the list of its first CPU
 * (@pool->by_first), so that the vectors whose CPUs are all among some
 * CPUs are found from those CPUs alone; and, if all its CPUs are on one
 * node, in that node's buckets by user count (@pool->buckets), so that
 * the least used vector of a node is the lowest bit of its least bucket.
 * The least used of the pool is the least of its nodes' and of the few
 * vectors on more than one node (@pool->spanning).
 */

/*
 * The word of node @node's bucket of @users users that holds vector @v.
 * A vector's word of every bucket of a node sits together, so that moving
 * it to the next bucket touches one cache line.
 */
static unsigned long *
irq_spread_pool_bucket_word(const struct irq_spread_pool *pool,
			    unsigned int node, unsigned int v, unsigned int users)
{
	unsigned int k = min_t(unsigned int, users, IRQ_SPREAD_POOL_BUCKETS);

	return pool->buckets + (node * pool->words + v / BITS_PER_LONG) *
			       (IRQ_SPREAD_POOL_BUCKETS + 1) + k;
}

/*
 * Vector @v, all on node @node, joins the bucket of @users users, within
 * its own words of the node's buckets.  @pool->least stays a bound below
 * which every bucket is empty; a search raises it.
 */
static __always_inline void
irq_spread_pool_bucket_add(struct irq_spread_pool *pool, unsigned int node,
			   unsigned int v, unsigned int users)
{
	unsigned int k = min_t(unsigned int, users, IRQ_SPREAD_POOL_BUCKETS);

	pool->vec[v].buckets[k] |= BIT(v % BITS_PER_LONG);
	pool->least[node] = min(pool->least[node], k);
}

/* Vector @v leaves the bucket of @users users of its node. */
static __always_inline void
irq_spread_pool_bucket_del(struct irq_spread_pool *pool, unsigned int v,
			   unsigned int users)
{
	unsigned int k = min_t(unsigned int, users, IRQ_SPREAD_POOL_BUCKETS);

	pool->vec[v].buckets[k] &= ~BIT(v % BITS_PER_LONG);
}

/*
 * Vector @v goes from the bucket of @users users, below the last, to the
 * next one up.  The node's bound stays right: no bucket was filled.
 */
static __always_inline void
irq_spread_pool_bucket_up(struct irq_spread_pool *pool, unsigned int v,
			  unsigned int users)
{
	unsigned long bit = BIT(v % BITS_PER_LONG);

	pool->vec[v].buckets[users] &= ~bit;
	pool->vec[v].buckets[users + 1] |= bit;
}

/*
 * Vector @v of node @node goes from @users users, at most
 * IRQ_SPREAD_POOL_BUCKETS, to one less.
 */
static __always_inline void
irq_spread_pool_bucket_down(struct irq_spread_pool *pool, unsigned int node,
			    unsigned int v, unsigned int users)
{
	irq_spread_pool_bucket_del(pool, v, users);
	irq_spread_pool_bucket_add(pool, node, v, users - 1);
}

/* The node all of @mask's CPUs are on, or -1. */
static int irq_spread_pool_mask_node(const struct irq_spread_pool *pool,
				     const unsigned long *mask,
				     unsigned int first)
{
	const struct irq_spread_topology *topo = pool->topo;
	const unsigned long *cpus;
	int node = topo->ops->cpu_node(topo, first);

	if (node < 0 || node >= topo->nr_nodes)
		return -1;
	cpus = topo->ops->node_cpus(topo, node);
	if (!cpus || !bitmap_subset(mask, cpus, topo->nr_cpus))
		return -1;
	return node;
}

/* CPU @cpu's list is empty; its least, none, is known. */
static void irq_spread_pool_list_init(struct irq_spread_pool *pool,
				      unsigned int cpu)
{
	pool->by_first[cpu] = (struct irq_spread_pool_list) {
		.head = IRQ_SPREAD_POOL_NONE,
		.start = IRQ_SPREAD_POOL_NONE,
		.least = UINT_MAX,
		.walked_at = pool->puts,
	};
	__clear_bit(cpu, pool->firsts);
}

/* Vector @v, of @users users, joins @list. */
static void irq_spread_pool_list_lower(struct irq_spread_pool_list *list,
				       unsigned int v, unsigned int users)
{
	if (users > list->least)
		return;
	if (users < list->least || v < list->start)
		list->start = v;
	list->least = users;
}

/*
 * Vector @v, at the start of @list, has one user more: a walk may start
 * after it.  Past the end of the list, every vector of it has more than
 * the least users, and a walk starts at the head again.
 */
static __always_inline void
irq_spread_pool_list_pass(struct irq_spread_pool *pool,
			  struct irq_spread_pool_list *list, unsigned int v)
{
	list->start = pool->vec[v].next;
	if (list->start == IRQ_SPREAD_POOL_NONE) {
		list->start = list->head;
		list->least++;
	}
}

/* Requested vector @v, of @users users, joins the index. */
static void irq_spread_pool_index(struct irq_spread_pool *pool, unsigned int v,
				  unsigned int users)
{
	struct irq_spread_pool_vec *vec = &pool->vec[v];
	const unsigned long *mask = irq_spread_pool_mask(pool, v);
	unsigned int n = pool->topo->nr_cpus, prev, next;
	struct irq_spread_pool_list *list;

	vec->first = find_first_bit(mask, n);
	vec->last = find_last_bit(mask, n);
	vec->node = irq_spread_pool_mask_node(pool, mask, vec->first);
	if (vec->node < 0) {
		__set_bit(v, pool->spanning);
		pool->nr_spanning++;
	} else {
		vec->buckets = irq_spread_pool_bucket_word(pool, vec->node, v, 0);
		irq_spread_pool_bucket_add(pool, vec->node, v, users);
	}

	/* Up the vector numbers; IRQ_SPREAD_POOL_NONE, the end, is above all. */
	list = &pool->by_first[vec->first];
	prev = IRQ_SPREAD_POOL_NONE;
	for (next = list->head; next < v; next = pool->vec[next].next)
		prev = next;
	vec->prev = prev;
	vec->next = next;
	if (prev != IRQ_SPREAD_POOL_NONE)
		pool->vec[prev].next = v;
	else
		list->head = v;
	if (next != IRQ_SPREAD_POOL_NONE)
		pool->vec[next].prev = v;
	irq_spread_pool_list_lower(list, v, users);
	__set_bit(vec->first, pool->firsts);
}

/* Vector @v, of @users users, leaves the index: its CPUs change, or it goes. */
static void irq_spread_pool_unindex(struct irq_spread_pool *pool,
				    unsigned int v, unsigned int users)
{
	struct irq_spread_pool_vec *vec = &pool->vec[v];
	struct irq_spread_pool_list *list = &pool->by_first[vec->first];

	if (vec->node >= 0) {
		irq_spread_pool_bucket_del(pool, v, users);
	} else {
		__clear_bit(v, pool->spanning);
		pool->nr_spanning--;
	}
	if (list->start == v)
		list->start = vec->next;
	if (vec->prev != IRQ_SPREAD_POOL_NONE)
		pool->vec[vec->prev].next = vec->next;
	else
		list->head = vec->next;
	if (vec->next != IRQ_SPREAD_POOL_NONE)
		pool->vec[vec->next].prev = vec->prev;
	if (list->head == IRQ_SPREAD_POOL_NONE)
		irq_spread_pool_list_init(pool, vec->first);
}

/*
 * Vector @v has one user more: its first puts it in the index; a walk of
 * its list need not start at it any more.
 */
static __always_inline void
irq_spread_pool_add_user(struct irq_spread_pool *pool, unsigned int v)
{
	struct irq_spread_pool_vec *vec = &pool->vec[v];
	unsigned int users = vec->users;
	struct irq_spread_pool_list *list;

	if (!users) {
		irq_spread_pool_index(pool, v, 1);
	} else {
		list = &pool->by_first[vec->first];
		if (list->start == v)
			irq_spread_pool_list_pass(pool, list, v);
		if (vec->node >= 0 && users < IRQ_SPREAD_POOL_BUCKETS)
			irq_spread_pool_bucket_up(pool, v, users);
	}
	vec->users = users + 1;
	pool->users++;
}

/*
 * The count of puts wrapped: it goes on from 1, and every list takes 0,
 * which the count is not again, so that each is walked whole once more.
 */
static noinline void irq_spread_pool_puts_wrapped(struct irq_spread_pool *pool)
{
	unsigned int cpu;

	pool->puts = 1;
	for (cpu = 0; cpu < pool->topo->nr_cpus; cpu++)
		pool->by_first[cpu].walked_at = 0;
}

/*
 * Vector @v, which has a user, has one less: its last takes it out.  No
 * list is touched: the count of puts tells them their least may be lower.
 */
static __always_inline void
irq_spread_pool_del_user(struct irq_spread_pool *pool, unsigned int v)
{
	struct irq_spread_pool_vec *vec = &pool->vec[v];
	unsigned int users = vec->users;

	if (users == 1)
		irq_spread_pool_unindex(pool, v, 1);
	else if (vec->node >= 0 && users <= IRQ_SPREAD_POOL_BUCKETS)
		irq_spread_pool_bucket_down(pool, vec->node, v, users);
	vec->users = users - 1;
	pool->users--;
	if (unlikely(!++pool->puts))
		irq_spread_pool_puts_wrapped(pool);
}

/*
 * Vector @v's users and number as one key: the least used vector, lowest
 * number among equals, has the lowest key.
 */
static u64 irq_spread_pool_key(const struct irq_spread_pool *pool,
			       unsigned int v)
{
	return (u64)pool->vec[v].users << 32 | v;
}

/* Whether vector @a is less used than @b (-1: none), or as used and lower. */
static bool irq_spread_pool_less(const struct irq_spread_pool *pool, int a,
				 int b)
{
	return b < 0 || irq_spread_pool_key(pool, a) < irq_spread_pool_key(pool, b);
}

/*
 * The least used vector all on node @node with fewer than @cap users, not
 * in @skip (%NULL: none), lowest number among equals; -ENOSPC if none.
 * Its least bucket holds the answer unless @skip holds all of it, or it is
 * the last bucket, whose vectors are compared one by one.  Empty buckets
 * at the bottom raise the node's bound.
 */
static int irq_spread_pool_node_least(struct irq_spread_pool *pool,
				      unsigned int node, unsigned int cap,
				      const unsigned long *skip)
{
	unsigned int k, w, v;
	unsigned long bits, any;
	bool below = true;
	int best = -ENOSPC;

	for (k = max(pool->least[node], 1U);
	     k <= IRQ_SPREAD_POOL_BUCKETS && k < cap; k++) {
		any = 0;
		for (w = 0; w < pool->words; w++) {
			bits = *irq_spread_pool_bucket_word(pool, node,
							    w * BITS_PER_LONG, k);
			any |= bits;
			if (skip)
				bits &= ~skip[w];
			while (bits) {
				v = w * BITS_PER_LONG + __ffs(bits);
				bits &= bits - 1;
				if (k < IRQ_SPREAD_POOL_BUCKETS)
					return v;
				if (pool->vec[v].users < cap &&
				    irq_spread_pool_less(pool, v, best))
					best = v;
			}
		}
		if (any)
			below = false;
		else if (below)
			pool->least[node] = k + 1;
	}
	return best;
}

/*
 * Whether a get for @cpus, which hold vector @v's first CPU, may take it:
 * it is not in @skip (%NULL: none), and all its CPUs are in @cpus.
 */
static __always_inline bool
irq_spread_pool_may_take(const struct irq_spread_pool *pool, unsigned int v,
			 const unsigned long *cpus, const unsigned long *skip)
{
	const struct irq_spread_pool_vec *vec = &pool->vec[v];
	const unsigned long *mask;
	unsigned int w;

	if (skip && test_bit(v, skip))
		return false;
	if (vec->first == vec->last)
		return true;
	mask = irq_spread_pool_mask(pool, v);
	for (w = vec->first / BITS_PER_LONG; w <= vec->last / BITS_PER_LONG; w++)
		if (mask[w] & ~cpus[w])
			return false;
	return true;
}

/*
 * Whether @list's start, not put since the list was last walked whole, is
 * its answer to a get for @cpus, not taking @skip: it has the list's least
 * users and the get may take it.  Those before the start have more users,
 * those after it as many are numbered higher.
 */
static __always_inline bool
irq_spread_pool_start_answers(const struct irq_spread_pool *pool,
			      const struct irq_spread_pool_list *list,
			      const unsigned long *cpus,
			      const unsigned long *skip)
{
	unsigned int v = list->start;

	return v != IRQ_SPREAD_POOL_NONE &&
	       pool->vec[v].users == list->least &&
	       irq_spread_pool_may_take(pool, v, cpus, skip);
}

/*
 * The key of the vector of @list with the lowest key below @limit that a
 * get for @cpus, not taking @skip, may take; @limit if there is none.
 * The walk starts at the list's start, unless a put came since the list
 * was last walked whole; it stops at the first vector it may take that
 * has the list's least users.  If it finds none, the whole list is walked,
 * and its least users, their start and @walked_at are set anew.
 */
static noinline u64 irq_spread_pool_list_walk(struct irq_spread_pool *pool,
					      struct irq_spread_pool_list *list,
					      const unsigned long *cpus,
					      const unsigned long *skip,
					      u64 limit)
{
	unsigned int least = UINT_MAX, start = IRQ_SPREAD_POOL_NONE, v;
	u64 key;

	if (list->walked_at == pool->puts) {
		for (v = list->start; v != IRQ_SPREAD_POOL_NONE;
		     v = pool->vec[v].next) {
			key = irq_spread_pool_key(pool, v);
			if (key >= limit ||
			    !irq_spread_pool_may_take(pool, v, cpus, skip))
				continue;
			limit = key;
			if (pool->vec[v].users == list->least)
				return limit;
		}
	}

	for (v = list->head; v != IRQ_SPREAD_POOL_NONE; v = pool->vec[v].next) {
		if (pool->vec[v].users < least) {
			least = pool->vec[v].users;
			start = v;
		}
		key = irq_spread_pool_key(pool, v);
		if (key < limit && irq_spread_pool_may_take(pool, v, cpus, skip))
			limit = key;
	}
	list->least = least;
	list->start = start;
	list->walked_at = pool->puts;
	return limit;
}

/*
 * The least used requested vector with fewer than @cap users whose CPUs
 * are all in @cpus, not in @skip (%NULL: none), lowest number among
 * equals; -ENOSPC if there is none.  Only the lists of the CPUs of @cpus
 * are walked, a word of CPUs at a time.  A list not put since its last
 * whole walk usually has its answer at its start, which is all a get for
 * one CPU looks at; else irq_spread_pool_list_walk() walks it.
 */
static __always_inline int
irq_spread_pool_walk(struct irq_spread_pool *pool, const unsigned long *cpus,
		     unsigned int cap, const unsigned long *skip)
{
	unsigned int words = BITS_TO_LONGS(pool->topo->nr_cpus), w;
	u64 none = (u64)cap << 32, limit = none;
	struct irq_spread_pool_list *list;
	unsigned long bits;

	for (w = 0; w < words; w++) {
		for (bits = cpus[w] & pool->firsts[w]; bits; bits &= bits - 1) {
			list = &pool->by_first[w * BITS_PER_LONG + __ffs(bits)];
			if (list->walked_at == pool->puts) {
				/* No vector of the list is below its least. */
				if (limit <= (u64)list->least << 32)
					continue;
				if (irq_spread_pool_start_answers(pool, list, cpus,
								  skip)) {
					limit = min(limit,
						    irq_spread_pool_key(pool,
									list->start));
					continue;
				}
			}
			limit = irq_spread_pool_list_walk(pool, list, cpus, skip,
							  limit);
		}
	}
	return limit < none ? (int)(u32)limit : -ENOSPC;
}

/*
 * The least used requested vector anywhere with fewer than @cap users,
 * not in @skip (%NULL: none), lowest number among equals; -ENOSPC if
 * there is none.  Gets for some CPUs walk their lists instead
 * (irq_spread_pool_walk()).
 */
static int irq_spread_pool_least_used(struct irq_spread_pool *pool,
				      unsigned int cap,
				      const unsigned long *skip)
{
	unsigned int node, v;
	int best = -ENOSPC, c;

	lockdep_assert_held(&pool->lock);
	for (node = 0; node < pool->topo->nr_nodes; node++) {
		c = irq_spread_pool_node_least(pool, node, cap, skip);
		if (c >= 0 && irq_spread_pool_less(pool, c, best))
			best = c;
	}
	for_each_set_bit(v, pool->spanning, pool->info.nr_vectors) {
		if (pool->vec[v].users < cap && !(skip && test_bit(v, skip)) &&
		    irq_spread_pool_less(pool, v, best))
			best = v;
	}
	return best;
}

/*
 * The next NUMA hop level of the nodes of @pool->nodes into @pool->level:
 * each node's hop after the one whose distance @pool->hop_limit holds (-1
 * before its first), the nodes with CPUs at most the next distinct
 * distance away.  That distance goes into @pool->hop_limit.  False if no
 * node has another hop.
 */
static bool irq_spread_pool_level(struct irq_spread_pool *pool)
{
	struct irq_spread_topology *topo = pool->topo;
	int node, k, d, next;
	bool found = false;

	bitmap_zero(pool->level, topo->nr_nodes);
	for_each_set_bit(node, pool->nodes, topo->nr_nodes) {
		next = INT_MAX;
		for (k = 0; k < topo->nr_nodes; k++) {
			if (!topo->ops->node_cpus(topo, k))
				continue;
			d = topo->ops->distance(topo, node, k);
			if (d > pool->hop_limit[node] && d < next)
				next = d;
		}
		if (next == INT_MAX)
			continue;
		pool->hop_limit[node] = next;
		found = true;
		for (k = 0; k < topo->nr_nodes; k++) {
			if (topo->ops->node_cpus(topo, k) &&
			    topo->ops->distance(topo, node, k) <= next)
				__set_bit(k, pool->level);
		}
	}
	return found;
}

/*
 * The least used vector with fewer than @cap users, not in @skip, whose
 * CPUs are all in @pool->near or on the nodes of @pool->level, given
 * @near, that of @pool->near: the least of it, of each node's, and of the
 * vectors on more than one node, checked against the level's CPUs;
 * -ENOSPC if none.
 */
static int irq_spread_pool_level_least(struct irq_spread_pool *pool,
				       unsigned int cap,
				       const unsigned long *skip, int near)
{
	struct irq_spread_topology *topo = pool->topo;
	unsigned int n = topo->nr_cpus, v;
	int best = near, node, c;

	for_each_set_bit(node, pool->level, topo->nr_nodes) {
		c = irq_spread_pool_node_least(pool, node, cap, skip);
		if (c >= 0 && irq_spread_pool_less(pool, c, best))
			best = c;
	}
	if (!pool->nr_spanning)
		return best;

	bitmap_copy(pool->hop, pool->near, n);
	for_each_set_bit(node, pool->level, topo->nr_nodes)
		bitmap_or(pool->hop, pool->hop, topo->ops->node_cpus(topo, node),
			  n);
	for_each_set_bit(v, pool->spanning, pool->info.nr_vectors) {
		if (pool->vec[v].users >= cap || (skip && test_bit(v, skip)) ||
		    !irq_spread_pool_less(pool, v, best) ||
		    !bitmap_subset(irq_spread_pool_mask(pool, v), pool->hop, n))
			continue;
		best = v;
	}
	return best;
}

/*
 * Step 3: the nearest vector with room, not in @skip, or -ENOSPC; @share
 * is the pool's, irq_spread_pool_share().
 * @pool->near holds @cpus and their siblings; a NUMA hop level adds the
 * nodes within that many hops of theirs, and includes the levels before it.
 */
static int irq_spread_pool_nearest(struct irq_spread_pool *pool,
				   const unsigned long *cpus, unsigned int share,
				   const unsigned long *skip)
{
	struct irq_spread_topology *topo = pool->topo;
	unsigned int n = topo->nr_cpus, cpu, hop;
	unsigned int cap = pool->info.max_users ?: UINT_MAX;
	int v, near, node;

	if (!cpus)
		return irq_spread_pool_least_used(pool, share, skip);

	/*
	 * The least used vector near, under the cap of the hop levels, is
	 * this level's answer if it has fewer users than the share; else
	 * none here has, and it is every hop level's vector near.
	 */
	bitmap_copy(pool->near, cpus, n);
	for_each_set_bit(cpu, cpus, n)
		bitmap_or(pool->near, pool->near,
			  topo->ops->sibling_cpus(topo, cpu), n);
	near = irq_spread_pool_walk(pool, pool->near, cap, skip);
	if (near >= 0 && pool->vec[near].users < share)
		return near;

	/* The hop levels start from the nodes of @cpus, before their first. */
	bitmap_zero(pool->nodes, topo->nr_nodes);
	for_each_set_bit(cpu, cpus, n) {
		node = topo->ops->cpu_node(topo, cpu);
		if (node >= 0 && node < topo->nr_nodes) {
			__set_bit(node, pool->nodes);
			pool->hop_limit[node] = -1;
		}
	}
	for (hop = 0; hop < IRQ_SPREAD_MAX_HOPS; hop++) {
		if (!irq_spread_pool_level(pool))
			break;
		/*
		 * The cap within a hop level is the share of the level's
		 * vectors, if above the pool's: ceil((S + 1) / nr) for S
		 * users of nr vectors.  The least used of them has at most
		 * S / nr users, below it, so only max_users can stop it.
		 */
		v = irq_spread_pool_level_least(pool, cap, skip, near);
		if (v >= 0)
			return v;
	}
	return irq_spread_pool_least_used(pool, share, skip);
}

/*
 * The policy and CPUs of the pool's owner, which the administrator may
 * have written since the pool last read them.
 */
static void irq_spread_pool_sync(struct irq_spread_pool *pool)
{
	lockdep_assert_held(&pool->lock);
	if (pool->owner)
		irq_spread_dev_owner_state(pool->owner, &pool->policy,
					   &pool->restricted, pool->exclude);
}

/*
 * Place vector @v, one vector under the pool's policy, within @cpus
 * (%NULL: anywhere) and the CPUs the owner may use; if they have none in
 * common, within the owner's.  Counted in the load.
 */
static int irq_spread_pool_place(struct irq_spread_pool *pool, unsigned int v,
				 const unsigned long *cpus)
{
	struct irq_spread_topology *topo = pool->topo;
	const unsigned long *exclude = pool->restricted ? pool->exclude : NULL;
	unsigned int n = topo->nr_cpus;

	if (cpus) {
		bitmap_complement(pool->avoid, cpus, n);
		if (exclude)
			bitmap_or(pool->avoid, pool->avoid, exclude, n);
		if (bitmap_weight(pool->avoid, n) < n)
			exclude = pool->avoid;
	}
	return irq_spread_topo_cpus(topo, pool->info.node, 1, pool->policy,
				    exclude, irq_spread_pool_mask(pool, v),
				    pool->stride);
}

/* Set vector @v's interrupt on its CPUs. */
static int irq_spread_pool_apply(struct irq_spread_pool *pool, unsigned int v)
{
	int ret;

	ret = irq_spread_irq_place(pool->vec[v].irq,
				   to_cpumask(irq_spread_pool_mask(pool, v)));
	if (ret)
		pr_warn_ratelimited("pool %s: affinity of IRQ %u not set: %d\n",
				    pool->info.name, pool->vec[v].irq, ret);
	return ret;
}

/*
 * Vector @v has new CPUs: its interrupt goes there, and the devices whose
 * vectors it serves have them.
 */
static void irq_spread_pool_moved(struct irq_spread_pool *pool, unsigned int v)
{
	lockdep_assert_held(&pool->lock);
	irq_spread_pool_apply(pool, v);
	irq_spread_links_serve(&pool->links[v], irq_spread_pool_mask(pool, v));
}

/*
 * Step 2: place the first vector not requested within @cpus and have the
 * driver request it.  On error, nothing is changed.
 */
static int irq_spread_pool_request(struct irq_spread_pool *pool,
				   const unsigned long *cpus)
{
	unsigned long *mask;
	unsigned int v;
	int ret;

	lockdep_assert_held(&pool->lock);
	v = find_first_bit(pool->free, pool->info.nr_vectors);
	irq_spread_pool_sync(pool);
	ret = irq_spread_pool_place(pool, v, cpus);
	if (ret)
		return ret;

	mask = irq_spread_pool_mask(pool, v);
	ret = pool->info.ops->request(pool->info.priv,
				      pool->info.first_vector + v,
				      to_cpumask(mask));
	if (ret >= 0 && irq_spread_irq_managed(ret)) {
		pr_warn("pool %s: IRQ %d of vector %u is managed by the interrupt core, not placed\n",
			pool->info.name, ret, pool->info.first_vector + v);
		pool->info.ops->release(pool->info.priv,
					pool->info.first_vector + v, ret);
		ret = -EINVAL;
	} else if (ret >= 0) {
		pool->vec[v].irq = ret;
		ret = irq_spread_pool_apply(pool, v);
		if (ret)
			pool->info.ops->release(pool->info.priv,
						pool->info.first_vector + v,
						pool->vec[v].irq);
	}
	if (ret < 0) {
		irq_spread_topo_release(pool->topo, 1, mask, pool->stride);
		bitmap_zero(mask, pool->stride * BITS_PER_LONG);
		pool->vec[v].irq = 0;
		return ret;
	}
	pool->vec[v].displaced = false;
	__clear_bit(v, pool->free);
	pool->nr_requested++;
	return v;
}

/* The devices whose vectors vector @v serves lose it. */
static void irq_spread_pool_unlink(struct irq_spread_pool *pool, unsigned int v)
{
	lockdep_assert_held(&pool->lock);
	irq_spread_links_unserve(&pool->links[v]);
}

/* The last user is gone: have the driver release the vector. */
static void irq_spread_pool_release(struct irq_spread_pool *pool,
				    unsigned int v)
{
	unsigned long *mask = irq_spread_pool_mask(pool, v);

	lockdep_assert_held(&pool->lock);
	irq_spread_pool_unlink(pool, v);
	pool->info.ops->release(pool->info.priv, pool->info.first_vector + v,
				pool->vec[v].irq);
	irq_spread_topo_release(pool->topo, 1, mask, pool->stride);
	bitmap_zero(mask, pool->stride * BITS_PER_LONG);
	pool->vec[v].irq = 0;
	pool->vec[v].displaced = false;
	__set_bit(v, pool->free);
	pool->nr_requested--;
}

/* Give back a user of vector @v, which has one. */
static __always_inline void
irq_spread_pool_drop(struct irq_spread_pool *pool, unsigned int v)
{
	lockdep_assert_held(&pool->lock);
	irq_spread_pool_del_user(pool, v);
	if (!pool->vec[v].users)
		irq_spread_pool_release(pool, v);
}

/*
 * A vector for a consumer of @cpus (%NULL: any CPU), none of @skip while
 * another has room, one more user of it; its index, or an error: -EINVAL
 * if @cpus is empty, which only a get that finds no vector in step 1 need
 * check, as it takes a vector within @cpus.  Out of line: the usual get
 * (irq_spread_pool_take_start()) keeps fewer registers without it.
 */
static noinline int
irq_spread_pool_take(struct irq_spread_pool *pool, const unsigned long *cpus,
		     const unsigned long *skip)
{
	unsigned int share;
	int v;

	lockdep_assert_held(&pool->lock);
	share = irq_spread_pool_share(pool);
	if (cpus)
		v = irq_spread_pool_walk(pool, cpus, share, skip);
	else
		v = irq_spread_pool_least_used(pool, share, skip);
	if (v < 0 && cpus && bitmap_empty(cpus, pool->topo->nr_cpus))
		return -EINVAL;
	if (v < 0 && pool->nr_requested < pool->info.nr_vectors)
		v = irq_spread_pool_request(pool, cpus);
	else if (v < 0)
		v = irq_spread_pool_nearest(pool, cpus, share, skip);
	if (v == -ENOSPC && skip)
		v = irq_spread_pool_nearest(pool, cpus, share, NULL);
	if (v >= 0)
		irq_spread_pool_add_user(pool, v);
	return v;
}

/*
 * For a vector of a placement-only device (device_pool.c): take a user of
 * a vector, as irq_spread_pool_take(), or give one back, as
 * irq_spread_pool_drop(), which stay private to this file.
 */
int irq_spread_pool_take_for(struct irq_spread_pool *pool,
			     const unsigned long *cpus,
			     const unsigned long *skip)
{
	return irq_spread_pool_take(pool, cpus, skip);
}

void irq_spread_pool_give_back(struct irq_spread_pool *pool, unsigned int v)
{
	irq_spread_pool_drop(pool, v);
}

/*
 * The usual get: of the CPUs of @cpus, only one has a list (the first CPU
 * of requested vectors), which no put came to since it was last walked
 * whole, and the list's start has its least users, fewer than the share,
 * and all its CPUs in @cpus.  Every vector within @cpus is on that list,
 * none has fewer users, and those before the start have more: the start
 * is step 1's answer.  Take it and return its index; else -EAGAIN, with
 * nothing changed.
 */
static __always_inline int
irq_spread_pool_take_start(struct irq_spread_pool *pool,
			   const unsigned long *cpus)
{
	unsigned int words = BITS_TO_LONGS(pool->topo->nr_cpus), w, v, least;
	struct irq_spread_pool_list *list = NULL;
	struct irq_spread_pool_vec *vec;
	unsigned long bits;

	lockdep_assert_held(&pool->lock);
	for (w = 0; w < words; w++) {
		bits = cpus[w] & pool->firsts[w];
		if (!bits)
			continue;
		if (list || bits & (bits - 1))
			return -EAGAIN;
		list = &pool->by_first[w * BITS_PER_LONG + __ffs(bits)];
	}
	if (!list || list->walked_at != pool->puts ||
	    list->least >= irq_spread_pool_share(pool) ||
	    !irq_spread_pool_start_answers(pool, list, cpus, NULL))
		return -EAGAIN;
	v = list->start;
	least = list->least;
	vec = &pool->vec[v];

	irq_spread_pool_list_pass(pool, list, v);
	if (vec->node >= 0 && least < IRQ_SPREAD_POOL_BUCKETS)
		irq_spread_pool_bucket_up(pool, v, least);
	vec->users = least + 1;
	pool->users++;
	return v;
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

	if (!pool)
		return -EINVAL;

	mutex_lock(&pool->lock);
	v = cpus ? irq_spread_pool_take_start(pool, cpus) : -EAGAIN;
	if (v == -EAGAIN)
		v = irq_spread_pool_take(pool, cpus, NULL);
	mutex_unlock(&pool->lock);
	return v < 0 ? v : v + pool->info.first_vector;
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
 * vector already has &irq_spread_pool_info.max_users users; -ENOMEM; the
 * request callback's error, or the interrupt core's if it refuses the
 * new vector's affinity.  On error, nothing is changed.
 */
int irq_spread_pool_get(struct irq_spread_pool *pool,
			const struct cpumask *mask)
{
	return irq_spread_pool_topo_get(pool, mask ? cpumask_bits(mask) : NULL);
}
EXPORT_SYMBOL_GPL(irq_spread_pool_get);

/*
 * A put of vector @v, which has at most one user: the last, or -EINVAL.
 * Out of line, as irq_spread_pool_take() is: the usual put keeps fewer
 * registers without it.
 */
static noinline int irq_spread_pool_put_last(struct irq_spread_pool *pool,
					     unsigned int v)
{
	if (!pool->vec[v].users)
		return -EINVAL;
	irq_spread_pool_drop(pool, v);
	return 0;
}

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

	if (!pool)
		return -EINVAL;
	/* Below the first vector, the difference wraps past the last. */
	v = vector - pool->info.first_vector;
	if (v >= pool->info.nr_vectors)
		return -EINVAL;

	mutex_lock(&pool->lock);
	if (pool->vec[v].users > 1)
		irq_spread_pool_del_user(pool, v);
	else
		ret = irq_spread_pool_put_last(pool, v);
	mutex_unlock(&pool->lock);
	return ret;
}
EXPORT_SYMBOL_GPL(irq_spread_pool_put);

/*
 * Call @fn(pool, @cpu) for every pool on @topo, or only those of @owner
 * if it is not %NULL, with the pool's lock held, once it has read its
 * owner's policy and CPUs.
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
		fn(pool, cpu);
		mutex_unlock(&pool->lock);
	}
	mutex_unlock(&topo->pools_lock);
}

/* Place every requested vector afresh, in vector order, and move them. */
static void irq_spread_pool_respread(struct irq_spread_pool *pool,
				     unsigned int unused)
{
	unsigned int nr = pool->nr_requested, n = pool->topo->nr_cpus, v, i = 0;
	const unsigned long *exclude;
	unsigned long *fresh, *mask;
	int ret;

	lockdep_assert_held(&pool->lock);
	if (!nr)
		return;
	fresh = kvcalloc(array_size(nr, pool->stride), sizeof(long), GFP_KERNEL);
	if (!fresh) {
		pr_warn("pool %s: vectors not placed again: %d\n",
			pool->info.name, -ENOMEM);
		return;
	}
	for (v = 0; v < pool->info.nr_vectors; v++) {
		if (pool->vec[v].users)
			irq_spread_topo_release(pool->topo, 1,
						irq_spread_pool_mask(pool, v),
						pool->stride);
	}
	exclude = pool->restricted ? pool->exclude : NULL;
	ret = irq_spread_topo_cpus(pool->topo, pool->info.node, nr,
				   pool->policy, exclude, fresh, pool->stride);
	for (v = 0; v < pool->info.nr_vectors; v++) {
		if (!pool->vec[v].users)
			continue;
		mask = irq_spread_pool_mask(pool, v);
		if (ret) {
			irq_spread_topo_hold(pool->topo, 1, mask, pool->stride);
			continue;
		}
		pool->vec[v].displaced = false;
		if (!bitmap_equal(mask, fresh + i * pool->stride, n)) {
			irq_spread_pool_unindex(pool, v, pool->vec[v].users);
			bitmap_copy(mask, fresh + i * pool->stride,
				    pool->stride * BITS_PER_LONG);
			irq_spread_pool_index(pool, v, pool->vec[v].users);
			irq_spread_pool_moved(pool, v);
		}
		i++;
	}
	if (ret)
		pr_warn("pool %s: vectors not placed again: %d\n",
			pool->info.name, ret);
	kvfree(fresh);
}

/**
 * irq_spread_pools_follow - the pools of a device follow its policy and CPUs
 * @topo: the device's machine
 * @owner: the device, whose policy or CPUs the administrator just wrote
 *
 * Every pool @owner has (&irq_spread_pool_info.owner) takes its policy and
 * CPUs and places its requested vectors afresh under them, nearest the
 * pool's node first, in vector order, its own load out of the way.
 *
 * Context: process context, may sleep; @owner's lock not held.
 */
void irq_spread_pools_follow(struct irq_spread_topology *topo,
			     struct irq_spread_dev *owner)
{
	irq_spread_pools_each(topo, owner, irq_spread_pool_respread, 0);
}

/* @cpu is leaving: move the vectors of @pool whose mask holds it, only. */
static void irq_spread_pool_cpu_offline(struct irq_spread_pool *pool,
					unsigned int cpu)
{
	unsigned int n = pool->topo->nr_cpus, v;
	unsigned long *mask;

	for (v = 0; v < pool->info.nr_vectors; v++) {
		mask = irq_spread_pool_mask(pool, v);
		if (!pool->vec[v].users || !test_bit(cpu, mask))
			continue;
		if (!pool->vec[v].displaced) {
			bitmap_copy(irq_spread_pool_before_hotplug(pool, v), mask,
				    pool->stride * BITS_PER_LONG);
			pool->vec[v].displaced = true;
		}
		irq_spread_pool_unindex(pool, v, pool->vec[v].users);
		irq_spread_topo_release(pool->topo, 1, mask, pool->stride);
		__clear_bit(cpu, mask);
		if (!bitmap_empty(mask, n)) {
			irq_spread_topo_hold(pool->topo, 1, mask, pool->stride);
		} else if (irq_spread_pool_place(pool, v, NULL)) {
			/* Nowhere else: the interrupt core moves it. */
			__set_bit(cpu, mask);
			irq_spread_topo_hold(pool->topo, 1, mask, pool->stride);
			irq_spread_pool_index(pool, v, pool->vec[v].users);
			continue;
		}
		irq_spread_pool_index(pool, v, pool->vec[v].users);
		irq_spread_pool_moved(pool, v);
	}
}

/**
 * irq_spread_pools_cpu_offline - a CPU of a topology is going offline
 * @topo: the machine
 * @cpu: the CPU, still online and marked leaving
 *
 * Every requested vector of every pool whose CPUs hold @cpu loses it; one
 * left with no CPU is placed again as a new vector of its pool would be,
 * and remembers its home.  Nothing else moves.
 *
 * Context: process context, may sleep; from a CPU hotplug callback.
 */
void irq_spread_pools_cpu_offline(struct irq_spread_topology *topo,
				  unsigned int cpu)
{
	irq_spread_pools_each(topo, NULL, irq_spread_pool_cpu_offline, cpu);
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
		    !bitmap_subset(irq_spread_pool_before_hotplug(pool, v), pool->near, n))
			continue;
		mask = irq_spread_pool_mask(pool, v);
		irq_spread_pool_unindex(pool, v, pool->vec[v].users);
		irq_spread_topo_release(pool->topo, 1, mask, pool->stride);
		bitmap_copy(mask, irq_spread_pool_before_hotplug(pool, v),
			    pool->stride * BITS_PER_LONG);
		irq_spread_topo_hold(pool->topo, 1, mask, pool->stride);
		irq_spread_pool_index(pool, v, pool->vec[v].users);
		pool->vec[v].displaced = false;
		irq_spread_pool_moved(pool, v);
	}
}

/**
 * irq_spread_pools_cpu_online - a CPU of a topology came online
 * @topo: the machine
 * @cpu: the CPU
 *
 * The inverse of irq_spread_pools_cpu_offline(): every vector that CPU
 * hotplug moved goes back to where it was, once all the CPUs it had are
 * online again, and only those vectors move.
 *
 * Context: process context, may sleep; from a CPU hotplug callback.
 */
void irq_spread_pools_cpu_online(struct irq_spread_topology *topo,
				 unsigned int cpu)
{
	irq_spread_pools_each(topo, NULL, irq_spread_pool_cpu_back, cpu);
}

/* The pool's owner goes: the pool keeps its last policy and CPUs. */
static void irq_spread_pool_disown(struct irq_spread_pool *pool,
				   unsigned int unused)
{
	pool->owner = NULL;
}

/**
 * irq_spread_pools_disown - a device that owns pools is being unregistered
 * @topo: the device's machine
 * @owner: the device
 *
 * The pools @owner owns keep its last policy and CPUs, owned by nobody.
 *
 * Context: process context, may sleep; @owner's lock not held.
 */
void irq_spread_pools_disown(struct irq_spread_topology *topo,
			     struct irq_spread_dev *owner)
{
	irq_spread_pools_each(topo, owner, irq_spread_pool_disown, 0);
}

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
		   info->node, irq_spread_policy_name(pool->policy),
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

DEFINE_SHOW_ATTRIBUTE(irq_spread_pool);

static bool irq_spread_pool_info_valid(const struct irq_spread_topology *topo,
				       const struct irq_spread_pool_info *info)
{
	if (!info || !info->name || !info->ops || !info->ops->request ||
	    !info->ops->release || !topo->ops->cpu_node)
		return false;
	if ((unsigned int)info->policy >= IRQ_SPREAD_NR_POLICIES)
		return false;
	if (info->owner && !irq_spread_dev_on(info->owner, topo))
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
	kvfree(pool->least);
	kvfree(pool->buckets);
	bitmap_free(pool->spanning);
	bitmap_free(pool->firsts);
	kvfree(pool->by_first);
	bitmap_free(pool->free);
	bitmap_free(pool->level);
	bitmap_free(pool->skip);
	bitmap_free(pool->nodes);
	bitmap_free(pool->hop);
	bitmap_free(pool->near);
	bitmap_free(pool->asked);
	bitmap_free(pool->avoid);
	bitmap_free(pool->exclude);
	kvfree(pool->before_hotplug);
	kvfree(pool->masks);
	kvfree(pool->links);
	kvfree(pool->vec);
	kfree(pool->info.name);
	kfree(pool);
}

/* A pool of @info on @topo, with nothing requested; %NULL for no memory. */
static struct irq_spread_pool *
irq_spread_pool_alloc(struct irq_spread_topology *topo,
		      const struct irq_spread_pool_info *info)
{
	unsigned int n = topo->nr_cpus, nodes = max(topo->nr_nodes, 1U), v;
	struct irq_spread_pool *pool;

	pool = kzalloc_obj(*pool);
	if (!pool)
		return NULL;

	pool->topo = topo;
	pool->info = *info;
	pool->policy = info->policy;
	/* The masks are handed to the driver as struct cpumask. */
	pool->stride = max_t(size_t, BITS_TO_LONGS(n),
			     cpumask_size() / sizeof(long));
	pool->info.name = kstrdup(info->name, GFP_KERNEL);
	pool->vec = kvcalloc(info->nr_vectors, sizeof(*pool->vec), GFP_KERNEL);
	pool->links = kvcalloc(info->nr_vectors, sizeof(*pool->links), GFP_KERNEL);
	pool->masks = kvcalloc(array_size(info->nr_vectors, pool->stride),
			       sizeof(long), GFP_KERNEL);
	pool->before_hotplug = kvcalloc(array_size(info->nr_vectors,
						   pool->stride),
					sizeof(long), GFP_KERNEL);
	pool->exclude = bitmap_zalloc(n, GFP_KERNEL);
	pool->avoid = bitmap_zalloc(n, GFP_KERNEL);
	pool->asked = bitmap_zalloc(n, GFP_KERNEL);
	pool->near = bitmap_zalloc(n, GFP_KERNEL);
	pool->hop = bitmap_zalloc(n, GFP_KERNEL);
	pool->nodes = bitmap_zalloc(max(topo->nr_nodes, 1U), GFP_KERNEL);
	pool->skip = bitmap_zalloc(info->nr_vectors, GFP_KERNEL);
	pool->level = bitmap_zalloc(max(topo->nr_nodes, 1U), GFP_KERNEL);
	pool->free = bitmap_zalloc(info->nr_vectors, GFP_KERNEL);
	pool->by_first = kvmalloc_array(n, sizeof(*pool->by_first), GFP_KERNEL);
	pool->firsts = bitmap_zalloc(n, GFP_KERNEL);
	pool->spanning = bitmap_zalloc(info->nr_vectors, GFP_KERNEL);
	pool->words = BITS_TO_LONGS(info->nr_vectors);
	pool->buckets = kvcalloc(array3_size(nodes, IRQ_SPREAD_POOL_BUCKETS + 1,
					     pool->words),
				 sizeof(long), GFP_KERNEL);
	pool->least = kvcalloc(nodes, sizeof(*pool->least), GFP_KERNEL);
	pool->hop_limit = kvcalloc(nodes, sizeof(*pool->hop_limit), GFP_KERNEL);
	if (!pool->info.name || !pool->vec || !pool->links || !pool->masks ||
	    !pool->before_hotplug || !pool->exclude || !pool->avoid ||
	    !pool->asked || !pool->near || !pool->hop || !pool->nodes ||
	    !pool->skip || !pool->level || !pool->free || !pool->by_first ||
	    !pool->firsts || !pool->spanning || !pool->buckets ||
	    !pool->least || !pool->hop_limit) {
		irq_spread_pool_free(pool);
		return NULL;
	}
	for (v = 0; v < info->nr_vectors; v++) {
		INIT_LIST_HEAD(&pool->links[v]);
		__set_bit(v, pool->free);
	}
	for (v = 0; v < n; v++)
		irq_spread_pool_list_init(pool, v);
	mutex_init(&pool->lock);

	return pool;
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

	if (!irq_spread_pool_info_valid(topo, info))
		return ERR_PTR(-EINVAL);
	pool = irq_spread_pool_alloc(topo, info);
	if (!pool)
		return ERR_PTR(-ENOMEM);

	mutex_lock(&topo->pools_lock);
	mutex_lock(&pool->lock);
	pool->owner = info->owner;
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
 * @info: the pool: its name, the device's node and policy (or the
 *	registration it belongs to), its vectors, the bound of users per
 *	vector, the driver's callbacks
 *
 * No vector is requested yet: irq_spread_pool_get() requests each when a
 * consumer first needs it.  The pool's state is in
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
 * Releases, through the driver's release callback, every vector still
 * requested: consumers may still hold vectors, as when a driver tears the
 * device down at once (mlx5's fast teardown frees every interrupt of the
 * device while its event queues still hold them).  The placement-only
 * devices whose vectors it served have their placement's CPUs again.  No
 * get or put of @pool may run or follow, nor any irq_spread_dev_pool_put()
 * of a vector it served.
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
	for (v = 0; v < pool->info.nr_vectors; v++) {
		if (!pool->vec[v].users)
			continue;
		pool->users -= pool->vec[v].users;
		pool->vec[v].users = 0;
		irq_spread_pool_release(pool, v);
	}
	mutex_unlock(&pool->lock);
	mutex_destroy(&pool->lock);
	irq_spread_pool_free(pool);
}
EXPORT_SYMBOL_GPL(irq_spread_pool_destroy);
