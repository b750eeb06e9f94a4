/* SPDX-License-Identifier: GPL-2.0 */
/*
 * irq_spread pools (pool.c): a device's vectors shared by its consumers,
 * requested when first asked for and released by their last user.  What
 * the device layer, the pool's KUnit suite and the user-space tool need of
 * a pool; drivers use the API of <linux/irq_spread.h>.
 */
#ifndef _LIB_IRQ_SPREAD_POOL_H
#define _LIB_IRQ_SPREAD_POOL_H

#include <linux/limits.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/types.h>

#include "engine.h"

struct cpumask;
struct dentry;
struct seq_file;
struct irq_spread_dev;

/**
 * struct irq_spread_pool_vec - one vector of a pool
 * @users: number of consumers holding the vector; 0 if it is not requested
 * @next: while requested, the next vector in the list of the vectors of
 *	its first CPU (&irq_spread_pool.by_first), or IRQ_SPREAD_POOL_NONE
 * @first: while requested, the first CPU of its mask
 * @last: while requested, the last CPU of its mask
 * @node: while requested, the node all its CPUs are on, or -1 if they are
 *	not all on one node
 * @prev: the vector before it in that list, or IRQ_SPREAD_POOL_NONE
 * @buckets: while requested and all on @node, its word of @node's
 *	bucket 0 in &irq_spread_pool.buckets; its word of bucket k follows
 *	k longs on
 * @irq: its Linux interrupt number, as the request callback returned it
 * @displaced: CPU hotplug moved it off its mask before, where it goes back
 *	once every CPU of it is online again
 *
 * The fields a get reads for each vector it looks at come first; the
 * vectors of placement-only devices it serves are in &irq_spread_pool.links,
 * away from the fields gets and puts read.
 */
struct irq_spread_pool_vec {
	unsigned int users;
	unsigned int next;
	unsigned int first;
	unsigned int last;
	int node;
	unsigned int prev;
	unsigned long *buckets;
	unsigned int irq;
	bool displaced;
};

/* No vector: the end of a list of &irq_spread_pool.by_first. */
#define IRQ_SPREAD_POOL_NONE	UINT_MAX

/**
 * struct irq_spread_pool_list - the requested vectors whose first CPU is one CPU
 * @head: the lowest numbered, or IRQ_SPREAD_POOL_NONE; the list runs up
 *	the vector numbers, through &irq_spread_pool_vec.next
 * @start: a vector of the list, or IRQ_SPREAD_POOL_NONE: every vector
 *	before it in the list has more than @least users
 * @least: no vector of the list has fewer users, unless a put came since
 *	@least was found
 * @walked_at: &irq_spread_pool.puts when @least was found
 *
 * A get walks the list from @start: the first vector it may take that has
 * @least users is the list's answer, as none before it has as few and
 * none after it is numbered lower.  A put does not touch the lists: after
 * one (@walked_at is not &irq_spread_pool.puts), or if the walk from @start
 * finds no such vector, the get walks the whole list, and sets @least,
 * @start and @walked_at anew.
 */
struct irq_spread_pool_list {
	unsigned int head;
	unsigned int start;
	unsigned int least;
	unsigned int walked_at;
};

/*
 * User counts a pool tells apart in O(1): vectors with more users share
 * the last bucket, and are compared one by one.
 */
#define IRQ_SPREAD_POOL_BUCKETS	32

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
 * @restricted: @exclude holds the CPUs the owner may not use
 * @stride: distance between two masks in @masks, in longs: enough for
 *	@topo->nr_cpus bits and for a struct cpumask
 * @lock: serialises gets, puts, moves and the driver's callbacks; protects
 *	the fields below, @policy and @restricted
 * @users: users of all vectors
 * @nr_requested: number of requested vectors
 * @vec: the @info.nr_vectors vectors
 * @links: per vector, the vectors of placement-only devices it serves
 *	(&irq_spread_vec.pool_link)
 * @masks: the vectors' CPUs: vector i's is the bitmap at @masks + i * @stride,
 *	empty while it is not requested
 * @before_hotplug: while a vector is displaced, its mask before CPU
 *	hotplug moved it, laid out as @masks
 * @exclude: see @restricted
 * @avoid: scratch: the CPUs a consumer excludes
 * @asked: scratch: the CPUs a placement-only device's vector asks for
 * @near: scratch: the CPUs near the consumer's, at one nearness level
 * @hop: scratch: one hop mask
 * @nodes: scratch: the nodes of the consumer's CPUs, @topo->nr_nodes bits
 * @skip: scratch: the vectors a consumer holds already, @info.nr_vectors
 *	bits
 * @level: scratch: the nodes of one NUMA hop level, @topo->nr_nodes bits
 * @free: the vectors not requested, @info.nr_vectors bits
 * @puts: puts since the pool was created, never 0 again once it wraps;
 *	apart from @users, which a put changes with it: two counters side by
 *	side are updated as one vector, which costs a put more
 * @by_first: per CPU, the list of the requested vectors whose first CPU
 *	it is
 * @firsts: the CPUs whose list in @by_first is not empty
 * @spanning: the requested vectors whose CPUs are on more than one node
 * @nr_spanning: how many there are
 * @words: longs in a bitmap of @info.nr_vectors bits
 * @buckets: per node, per user count k from 0 to IRQ_SPREAD_POOL_BUCKETS,
 *	the bitmap of the requested vectors all on the node with k users (the
 *	last, with k or more), @words longs; word w of bucket k of node n is
 *	at (n * @words + w) * (IRQ_SPREAD_POOL_BUCKETS + 1) + k
 * @least: per node, a user count below which its buckets are empty
 * @hop_limit: scratch: per node of @nodes, the distance of the NUMA hop
 *	level step 3 of a get is at
 * @debugfs: the pool's debugfs file
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
	bool restricted;
	size_t stride;
	struct mutex lock;	/* gets, puts, moves and callbacks */
	unsigned int users;
	unsigned int nr_requested;
	struct irq_spread_pool_vec *vec;
	struct list_head *links;
	unsigned long *masks;
	unsigned long *before_hotplug;
	unsigned long *exclude;
	unsigned long *avoid;
	unsigned long *asked;
	unsigned long *near;
	unsigned long *hop;
	unsigned long *nodes;
	unsigned long *skip;
	unsigned long *level;
	unsigned long *free;
	unsigned int puts;
	struct irq_spread_pool_list *by_first;
	unsigned long *firsts;
	unsigned long *spanning;
	unsigned int nr_spanning;
	unsigned int words;
	unsigned long *buckets;
	unsigned int *least;
	int *hop_limit;
	struct dentry *debugfs;
};

/* The CPUs of vector @v of @pool: empty while it is not requested. */
static inline unsigned long *irq_spread_pool_mask(const struct irq_spread_pool *pool,
						  unsigned int v)
{
	return pool->masks + v * pool->stride;
}

extern struct dentry *irq_spread_pool_dir;

struct irq_spread_pool *
irq_spread_pool_topo_create(struct irq_spread_topology *topo,
			    const struct irq_spread_pool_info *info);
int irq_spread_pool_topo_get(struct irq_spread_pool *pool,
			     const unsigned long *cpus);
int irq_spread_pool_show(struct seq_file *m, void *v);
void irq_spread_pools_irqs(struct irq_spread_topology *topo,
			   unsigned long *irqs, unsigned int nr_irqs);
void irq_spread_pools_cpu_offline(struct irq_spread_topology *topo,
				  unsigned int cpu);
void irq_spread_pools_cpu_online(struct irq_spread_topology *topo,
				 unsigned int cpu);
void irq_spread_pools_follow(struct irq_spread_topology *topo,
			     struct irq_spread_dev *owner);
void irq_spread_pools_disown(struct irq_spread_topology *topo,
			     struct irq_spread_dev *owner);
int irq_spread_pool_take_for(struct irq_spread_pool *pool,
			     const unsigned long *cpus,
			     const unsigned long *skip);
void irq_spread_pool_give_back(struct irq_spread_pool *pool, unsigned int v);

/*
 * What pool.c asks of the rest of the library, which the user-space tool
 * stubs: the interrupt core (irq.c), and the devices that own a pool or
 * whose vectors a pool serves (device_pool.c).  A pool sees a device
 * only through these: it never takes a device's lock itself.
 */
int irq_spread_irq_place(unsigned int irq, const struct cpumask *mask);
bool irq_spread_irq_managed(unsigned int irq);
bool irq_spread_dev_on(const struct irq_spread_dev *sd,
		       const struct irq_spread_topology *topo);
void irq_spread_dev_owner_state(struct irq_spread_dev *owner,
				enum irq_spread_policy *policy,
				bool *restricted, unsigned long *exclude);
void irq_spread_links_serve(struct list_head *links, const unsigned long *mask);
void irq_spread_links_unserve(struct list_head *links);

#endif /* _LIB_IRQ_SPREAD_POOL_H */
