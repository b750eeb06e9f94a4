// SPDX-License-Identifier: GPL-2.0
/*
 * irq_spread engine: place a device's vectors on the CPUs of a topology.
 *
 * Every eligible CPU is a slot.  The policy puts the slots in one order and
 * vector i takes slot (i modulo the number of slots): no slot gets a second
 * vector before every slot has one, and the first round follows the order.
 * The order sorts the slots by
 *
 *	numa:		tier, load, round, domain load, CPU number
 *	numa-core:	tier, rank, core load, load, round, domain load, CPU number
 *	core:		rank, tier, core load, load, round, domain load, CPU number
 *
 * where
 *
 *  - tier is the NUMA hop the CPU is first found in, counting only hops
 *    that add eligible CPUs: 0 for the device node, 1 for the nearest
 *    other nodes, and so on.  Hop h holds the CPUs of the nodes whose
 *    distance from the device node is at most the h-th smallest distance
 *    to a node with CPUs.  CPUs that no hop reaches come last; with
 *    NUMA_NO_NODE every CPU is in tier 0.
 *  - load is the number of vectors already placed on the CPU, for every
 *    device spread on the same topology; core load is the sum of the loads
 *    of the eligible threads of the CPU's physical core.
 *  - rank is the CPU's position among the eligible threads of its core,
 *    least loaded first, lower CPU number among equals: 0 for the thread a
 *    device's first vector on that core takes, 1 for the next, ...
 *  - a cache domain is the CPUs that share a last-level cache: an L3 (one
 *    per CCX on AMD, one per socket or sub-NUMA cluster on Intel), or a
 *    cluster where the architecture groups cores so (the topology's
 *    llc_cpus).  round is the number of slots of the CPU's cache domain
 *    before it, in CPU order, among the slots equal to it on every key
 *    before round; domain load is the sum of the loads of the slots of its
 *    cache domain in its tier.
 *
 * In words: under numa and numa-core, the nearest NUMA hop first; within
 * a hop, the least loaded CPUs first (numa-core: one thread of every core
 * before a second thread of any, the least loaded cores first); and among
 * the CPUs equal on all of that, one in every cache domain (an L3) before a
 * second in any, the least loaded domain first, then in CPU order.  core
 * does the same with the rank first: every core's first thread, hop by hop,
 * before any second thread.  The rank 0 slots are a core each, so under
 * numa-core and core a hop's cores go one per L3 domain in turn, then its
 * second threads the same way; under numa a hop's CPUs go one per domain in
 * turn, in CPU order within each domain.
 *
 * A tier whose slots are all of one cache domain (a machine with no cache
 * information, or a hop of one node with one L3) gives each slot the round
 * of its place in CPU order among its equals and one domain load: there the
 * order is exactly that of the keys before round, as it was before cache
 * domains.
 *
 * A numa-core vector gets every eligible thread of its slot's core, as
 * MANA's irq_setup() did, when it is the only vector of the spread on that
 * core; when the spread puts more than one vector on a core, each of them
 * gets its slot's thread alone, so that the interrupts of one core's
 * vectors end on different threads rather than all on the first.  numa and
 * core vectors get the slot's CPU alone.
 *
 * Only the first slots of the order are ever used: a spread of N vectors
 * needs N of them (all, when N is above the number of slots), a query for
 * index i the first i + 1.  So the order is built tier by tier, nearest
 * first, and stops at the first tier that completes the slots needed: under
 * numa and numa-core the tiers hold the first slots in turn; under core the
 * rank 0 slots of every tier come before any rank 1 slot, so it stops once
 * the tiers gathered hold N rank 0 slots.  With a load, the tier that
 * completes them is gathered whole, as its load may reorder it, and so is
 * a tier of more than one cache domain, whose rounds reorder it; a spread
 * on a topology with no vector counted orders as a query does, with none,
 * and stops within that tier.  The slots gathered are sorted by
 * one stable counting sort on a key packing tier and rank, core load and
 * load (in up to three passes, or a comparison sort, when the loads are too
 * far apart to pack); with tiers of more than one cache domain, a walk of
 * the sorted slots counts each slot's round, and a second stable counting
 * sort orders each run of equal keys by round and domain load (up to three
 * passes again).  A tier costs word-wise bitmap operations on the masks of
 * its nodes and a visit of each of its CPUs; a CPU's rank and core load
 * walk the eligible threads of its core on a ring of the threads of each
 * core, linked once and again only when the online CPUs change, and its
 * cache domain is the lowest online CPU of its llc_cpus mask, found once
 * and again only when the online CPUs change.  The cost is linear in the
 * CPUs of the tiers gathered and the vectors placed, with nothing
 * allocated: the scratch space belongs to the topology.
 *
 * irq_spread_topo_nth_cpu() answers from a cache of the orders it built,
 * a few (node, policy) entries each holding the first slots of the order
 * with no load, for the eligible CPUs it was built for, under a mutex of
 * its own: building an order is linear in the CPUs, which is work for
 * process context, not for a section with interrupts or preemption off.
 */
#define pr_fmt(fmt) "irq_spread: " fmt

#include <linux/bitmap.h>
#include <linux/bug.h>
#include <linux/errno.h>
#include <linux/export.h>
#include <linux/find.h>
#include <linux/limits.h>
#include <linux/lockdep.h>
#include <linux/minmax.h>
#include <linux/mutex.h>
#include <linux/numa.h>
#include <linux/printk.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/string.h>

#include <kunit/visibility.h>

#include "engine.h"

/*
 * Entries of the query cache, and the fewest slots an entry is built with:
 * a driver asks for its vectors' indexes in turn, so the entry grows by
 * doubling rather than by one slot per call.
 */
#define IRQ_SPREAD_QUERY_ENTRIES	2
#define IRQ_SPREAD_QUERY_MIN		256

/*
 * Runs of words a node's CPUs are found in.  Siblings numbered i and
 * i + CPUs / 2 put a node's CPUs in two runs far apart, and SMT4 in four;
 * a node in more runs has its last run stretched over the rest.
 */
#define IRQ_SPREAD_RUNS			4

/**
 * struct irq_spread_runs - the words of a node's CPU mask that hold CPUs
 * @nr: number of runs; UINT_MAX until found
 * @w: each run, its first word and one past its last
 */
struct irq_spread_runs {
	unsigned int nr;
	unsigned int w[IRQ_SPREAD_RUNS][2];
};

/**
 * struct irq_spread_order - scratch space of the order of the slots
 * @usable: the slots
 * @covered: CPUs given a tier
 * @tier: the CPUs of one tier
 * @online: the online CPUs @ring, @linked and @span were made for
 * @linked: the CPUs whose core is linked on @ring
 * @in_llc: the CPUs whose @llc is set
 * @ring: per CPU of @linked, the next thread of its core among @online,
 *	in CPU order and back to the first
 * @slots: the slots gathered, in order once sorted
 * @tmp: the other buffer of each sort; while gathering, each slot's rank
 * @key: per CPU: its tier, then its sort key, then its run (a run of slots
 *	equal on every key before round)
 * @core_load: per CPU, its core load; %NULL for a query, with no load
 * @llc: per CPU of @in_llc, its cache domain: the lowest online CPU of its
 *	llc_cpus mask
 * @dcount: per cache domain (indexed by @llc), its load, then a count of
 *	its slots in a run
 * @round: per CPU, its round, then its sort key within its run
 * @dload: per CPU, its cache domain's load; %NULL for a query
 * @count: a counting sort's counts, @nr_count entries
 * @dist: per node, its distance from the device node, or INT_MIN for a
 *	node with no CPUs
 * @span: per node, the words of its CPU mask that hold its CPUs
 * @nr_count: entries of @count
 * @nr_usable: number of slots
 * @nr: number of slots gathered
 * @valid: @slots[0 .. @valid - 1] are the first slots of the whole order
 * @nr_tiers: tiers gathered
 * @nr_ranks: above every rank gathered
 * @nr_rank0: slots of rank 0 gathered
 * @split: a tier gathered has slots of more than one cache domain
 * @made: @online is set
 */
struct irq_spread_order {
	unsigned long *usable;
	unsigned long *covered;
	unsigned long *tier;
	unsigned long *online;
	unsigned long *linked;
	unsigned long *in_llc;
	unsigned int *ring;
	unsigned int *slots;
	unsigned int *tmp;
	unsigned int *key;
	unsigned int *core_load;
	unsigned int *llc;
	unsigned int *dcount;
	unsigned int *round;
	unsigned int *dload;
	unsigned int *count;
	int *dist;
	struct irq_spread_runs *span;
	unsigned int nr_count;
	unsigned int nr_usable;
	unsigned int nr;
	unsigned int valid;
	unsigned int nr_tiers;
	unsigned int nr_ranks;
	unsigned int nr_rank0;
	bool split;
	bool made;
};

/**
 * struct irq_spread_query_entry - one order the query cache holds
 * @usable: the slots it was built for
 * @order: its first @valid slots, in order
 * @node: the device node it was built for
 * @policy: the policy it was built for
 * @nr_usable: number of slots
 * @valid: number of slots in @order; 0 for an empty entry
 * @used: when it last answered, for replacing the least recently used
 */
struct irq_spread_query_entry {
	unsigned long *usable;
	unsigned int *order;
	int node;
	enum irq_spread_policy policy;
	unsigned int nr_usable;
	unsigned int valid;
	unsigned long used;
};

/**
 * struct irq_spread_query - the query cache of a topology
 * @o: scratch space for building an order
 * @entry: the orders
 * @clock: counts the answers, for &irq_spread_query_entry.used
 */
struct irq_spread_query {
	struct irq_spread_order o;
	struct irq_spread_query_entry entry[IRQ_SPREAD_QUERY_ENTRIES];
	unsigned long clock;
};

static void irq_spread_order_free(struct irq_spread_order *o)
{
	bitmap_free(o->usable);
	bitmap_free(o->covered);
	bitmap_free(o->tier);
	bitmap_free(o->online);
	bitmap_free(o->linked);
	bitmap_free(o->in_llc);
	kvfree(o->ring);
	kvfree(o->slots);
	kvfree(o->tmp);
	kvfree(o->key);
	kvfree(o->core_load);
	kvfree(o->llc);
	kvfree(o->dcount);
	kvfree(o->round);
	kvfree(o->dload);
	kvfree(o->count);
	kfree(o->dist);
	kfree(o->span);
}

/*
 * @with_load: room for core loads, domain loads and load keys, which only
 * spreads have.
 */
static int irq_spread_order_alloc(struct irq_spread_order *o,
				  unsigned int nr_cpus, unsigned int nr_nodes,
				  bool with_load)
{
	memset(o, 0, sizeof(*o));
	/*
	 * A sort key is below the number of slots, or packs loads too.  A
	 * query's are tier and rank, then run and round: no more than 1024
	 * counts or the slots'.
	 */
	o->nr_count = with_load ? max(nr_cpus, 64U) + 1 : max(nr_cpus + 1, 1024U);
	o->usable = bitmap_zalloc(nr_cpus, GFP_KERNEL);
	o->covered = bitmap_zalloc(nr_cpus, GFP_KERNEL);
	o->tier = bitmap_zalloc(nr_cpus, GFP_KERNEL);
	o->online = bitmap_zalloc(nr_cpus, GFP_KERNEL);
	o->linked = bitmap_zalloc(nr_cpus, GFP_KERNEL);
	o->in_llc = bitmap_zalloc(nr_cpus, GFP_KERNEL);
	o->ring = kvmalloc_array(nr_cpus, sizeof(*o->ring), GFP_KERNEL);
	o->slots = kvmalloc_array(nr_cpus, sizeof(*o->slots), GFP_KERNEL);
	o->tmp = kvmalloc_array(nr_cpus, sizeof(*o->tmp), GFP_KERNEL);
	o->key = kvmalloc_array(nr_cpus, sizeof(*o->key), GFP_KERNEL);
	o->llc = kvmalloc_array(nr_cpus, sizeof(*o->llc), GFP_KERNEL);
	o->dcount = kvmalloc_array(nr_cpus, sizeof(*o->dcount), GFP_KERNEL);
	o->round = kvmalloc_array(nr_cpus, sizeof(*o->round), GFP_KERNEL);
	if (with_load) {
		o->core_load = kvmalloc_array(nr_cpus, sizeof(*o->core_load),
					      GFP_KERNEL);
		o->dload = kvmalloc_array(nr_cpus, sizeof(*o->dload),
					  GFP_KERNEL);
	}
	o->count = kvmalloc_array(o->nr_count, sizeof(*o->count), GFP_KERNEL);
	o->dist = kmalloc_array(max(nr_nodes, 1U), sizeof(*o->dist),
				GFP_KERNEL);
	o->span = kmalloc_array(max(nr_nodes, 1U), sizeof(*o->span),
				GFP_KERNEL);
	if (!o->usable || !o->covered || !o->tier || !o->online ||
	    !o->linked || !o->in_llc || !o->ring || !o->slots || !o->tmp ||
	    !o->key || !o->llc || !o->dcount || !o->round ||
	    (with_load && (!o->core_load || !o->dload)) || !o->count ||
	    !o->dist || !o->span) {
		irq_spread_order_free(o);
		return -ENOMEM;
	}
	return 0;
}

static void irq_spread_query_free(struct irq_spread_query *q)
{
	unsigned int i;

	if (!q)
		return;
	for (i = 0; i < IRQ_SPREAD_QUERY_ENTRIES; i++) {
		bitmap_free(q->entry[i].usable);
		kvfree(q->entry[i].order);
	}
	irq_spread_order_free(&q->o);
	kfree(q);
}

static struct irq_spread_query *irq_spread_query_alloc(unsigned int nr_cpus,
						       unsigned int nr_nodes)
{
	struct irq_spread_query *q = kzalloc(sizeof(*q), GFP_KERNEL);
	struct irq_spread_query_entry *e;
	unsigned int i;

	if (!q)
		return NULL;
	if (irq_spread_order_alloc(&q->o, nr_cpus, nr_nodes, false)) {
		kfree(q);
		return NULL;
	}
	for (i = 0; i < IRQ_SPREAD_QUERY_ENTRIES; i++) {
		e = &q->entry[i];
		e->usable = bitmap_zalloc(nr_cpus, GFP_KERNEL);
		e->order = kvmalloc_array(nr_cpus, sizeof(*e->order),
					  GFP_KERNEL);
		if (!e->usable || !e->order) {
			irq_spread_query_free(q);
			return NULL;
		}
	}
	return q;
}

/*
 * The CPUs a vector may use: eligible, not on their way offline, and not
 * in @exclude.  A device must get interrupts somewhere: when @exclude
 * leaves nothing, every eligible CPU not leaving; when no eligible CPU is
 * left, every online CPU not leaving, or the leaving one if it is the
 * last.  Return false if there is none.
 */
static bool irq_spread_usable(const struct irq_spread_topology *topo,
			      const unsigned long *exclude, unsigned long *dst)
{
	unsigned int n = topo->nr_cpus;

	topo->ops->eligible_cpus(topo, dst);
	if (topo->leaving)
		bitmap_andnot(dst, dst, topo->leaving, n);
	if (exclude && !bitmap_subset(dst, exclude, n))
		bitmap_andnot(dst, dst, exclude, n);
	if (!bitmap_empty(dst, n))
		return true;
	pr_warn_once("no eligible CPU for a device, using all online CPUs\n");
	topo->ops->online_cpus(topo, dst);
	if (topo->leaving && !bitmap_subset(dst, topo->leaving, n))
		bitmap_andnot(dst, dst, topo->leaving, n);
	return !bitmap_empty(dst, n);
}

/**
 * irq_spread_topo_eligible - the CPUs a vector of a topology may use
 * @topo: the machine
 * @dst: where to write them, @topo->nr_cpus bits
 *
 * Eligible CPUs not on their way offline, or every online CPU if there is
 * none: what the slots of a spread are, and the mask of a vector that may
 * go anywhere.  Empty only if no CPU is online.
 */
void irq_spread_topo_eligible(const struct irq_spread_topology *topo,
			      unsigned long *dst)
{
	irq_spread_usable(topo, NULL, dst);
}

/*
 * Start the indexes afresh when the online CPUs changed since they were
 * made, which is when sibling, cache and node masks change: the cores are
 * linked again, and the cache domains and the spans of the nodes found
 * again, as they are used.
 */
static void irq_spread_order_check(const struct irq_spread_topology *topo,
				   struct irq_spread_order *o)
{
	unsigned int n = topo->nr_cpus, k;

	topo->ops->online_cpus(topo, o->tier);
	if (o->made && bitmap_equal(o->tier, o->online, n))
		return;
	bitmap_copy(o->online, o->tier, n);
	bitmap_zero(o->linked, n);
	bitmap_zero(o->in_llc, n);
	for (k = 0; k < topo->nr_nodes; k++)
		o->span[k].nr = UINT_MAX;
	o->made = true;
}

/*
 * Link the online threads of the core of @cpu in a ring, in CPU order,
 * from its sibling mask, scanned once.  Every slot is online (eligible
 * CPUs are), so a slot's eligible siblings are on its ring.
 */
static void irq_spread_order_link(const struct irq_spread_topology *topo,
				  struct irq_spread_order *o, unsigned int cpu)
{
	const unsigned long *sibs = topo->ops->sibling_cpus(topo, cpu);
	unsigned int n = topo->nr_cpus, prev = cpu, sib;

	__set_bit(cpu, o->linked);
	for_each_set_bit(sib, sibs, n) {
		if (sib == cpu || !test_bit(sib, o->online) ||
		    __test_and_set_bit(sib, o->linked))
			continue;
		o->ring[prev] = sib;
		prev = sib;
	}
	o->ring[prev] = cpu;
}

/*
 * The rank of slot @cpu among the slots of its core (see the top of this
 * file), and in @sum their load; @load is %NULL for no load.
 */
static unsigned int irq_spread_order_rank(const struct irq_spread_topology *topo,
					  struct irq_spread_order *o,
					  const unsigned int *load,
					  unsigned int cpu, unsigned int *sum)
{
	unsigned int l = load ? load[cpu] : 0, r = 0, s, ls;

	*sum = l;
	if (!test_bit(cpu, o->linked))
		irq_spread_order_link(topo, o, cpu);
	for (s = o->ring[cpu]; s != cpu; s = o->ring[s]) {
		if (!test_bit(s, o->usable))
			continue;
		ls = load ? load[s] : 0;
		*sum += ls;
		r += ls < l || (ls == l && s < cpu);
	}
	return r;
}

/* The lowest slot of the core of slot @cpu. */
static unsigned int irq_spread_order_lead(const struct irq_spread_order *o,
					  unsigned int cpu)
{
	unsigned int s, lead = cpu;

	for (s = o->ring[cpu]; s != cpu; s = o->ring[s])
		if (s < lead && test_bit(s, o->usable))
			lead = s;
	return lead;
}

/*
 * The cache domain of online CPU @cpu: the lowest online CPU of its
 * llc_cpus mask, or @cpu itself if the mask does not hold it.
 */
static unsigned int irq_spread_order_llc(const struct irq_spread_topology *topo,
					 struct irq_spread_order *o,
					 unsigned int cpu)
{
	const unsigned long *llc;
	unsigned int c;

	if (test_bit(cpu, o->in_llc))
		return o->llc[cpu];
	llc = topo->ops->llc_cpus(topo, cpu);
	if (!llc || !test_bit(cpu, llc)) {
		c = cpu;
	} else {
		/* @cpu, which is online, if no CPU below it is. */
		for_each_set_bit(c, llc, cpu)
			if (test_bit(c, o->online))
				break;
	}
	o->llc[cpu] = c;
	__set_bit(cpu, o->in_llc);
	return c;
}

/*
 * Whether the CPUs of @o->tier are all of one cache domain: in the
 * llc_cpus mask of the first, as the masks of the online CPUs partition
 * them; always, with no cache domains known.
 */
static bool irq_spread_order_one_domain(const struct irq_spread_topology *topo,
					const struct irq_spread_order *o)
{
	const unsigned long *llc;
	unsigned int n = topo->nr_cpus;

	if (!topo->ops->llc_cpus)
		return true;
	llc = topo->ops->llc_cpus(topo, find_first_bit(o->tier, n));
	return llc && bitmap_subset(o->tier, llc, n);
}

/* Whether the slots gathered hold the first @need of the order. */
static bool irq_spread_order_enough(const struct irq_spread_order *o,
				    enum irq_spread_policy policy,
				    unsigned int need)
{
	if (policy == IRQ_SPREAD_CORE)
		return o->nr_rank0 >= need;
	return o->nr >= need;
}

/*
 * Gather the slots of @o->tier as the next tier, in CPU order.  With no
 * load and one cache domain, a tier's own order is by rank then CPU number
 * (by CPU number under numa), so the gathering stops as soon as the slots
 * that go first are the @need ones: return true then, the first @need
 * slots being all that is known.
 */
static bool irq_spread_order_add_tier(struct irq_spread_order *o,
				      const struct irq_spread_topology *topo,
				      enum irq_spread_policy policy,
				      const unsigned int *load,
				      unsigned int need)
{
	unsigned int n = topo->nr_cpus, tier = o->nr_tiers++, before = o->nr;
	unsigned int cpu, rank, sum, first = 0;
	bool one = irq_spread_order_one_domain(topo, o);

	o->split |= !one;
	for_each_set_bit(cpu, o->tier, n) {
		o->key[cpu] = tier;
		if (policy != IRQ_SPREAD_NUMA) {
			rank = irq_spread_order_rank(topo, o, load, cpu, &sum);
			if (o->core_load)
				o->core_load[cpu] = sum;
			o->tmp[o->nr] = rank;
			o->nr_ranks = max(o->nr_ranks, rank + 1);
			if (!rank) {
				o->nr_rank0++;
				first++;
			}
		} else {
			first++;
		}
		o->slots[o->nr++] = cpu;
		if (load || !one)
			continue;
		if ((policy == IRQ_SPREAD_CORE && o->nr_rank0 >= need) ||
		    (policy != IRQ_SPREAD_CORE && before + first >= need)) {
			o->valid = need;
			return true;
		}
	}
	return false;
}

/*
 * The smallest distance above @last from the device node to a node with
 * CPUs, in @d; false if there is none.  A node at a negative distance, or
 * at INT_MAX, is in no hop.
 */
static bool irq_spread_order_next_hop(const struct irq_spread_order *o,
				      unsigned int nr_nodes, int last, int *d)
{
	unsigned int k;

	*d = INT_MAX;
	for (k = 0; k < nr_nodes; k++)
		if (o->dist[k] > last && o->dist[k] < *d)
			*d = o->dist[k];
	return *d != INT_MAX;
}

/* The runs of words of @cpus, @words long, that hold CPUs, into @runs. */
static void irq_spread_runs_find(struct irq_spread_runs *runs,
				 const unsigned long *cpus, unsigned int words)
{
	unsigned int w, nr = 0;

	for (w = 0; w < words; w++) {
		if (!cpus[w])
			continue;
		/* Next to the last run, or no run left: the last grows. */
		if (nr && (runs->w[nr - 1][1] == w || nr == IRQ_SPREAD_RUNS)) {
			runs->w[nr - 1][1] = w + 1;
			continue;
		}
		runs->w[nr][0] = w;
		runs->w[nr][1] = w + 1;
		nr++;
	}
	runs->nr = nr;
}

/*
 * Add the CPUs of node @k, @cpus, to @o->tier: only the words that hold
 * them, found once.
 */
static void irq_spread_order_add_node(struct irq_spread_order *o,
				      unsigned int nr_cpus, unsigned int k,
				      const unsigned long *cpus)
{
	struct irq_spread_runs *runs = &o->span[k];
	unsigned int r, w;

	if (runs->nr == UINT_MAX)
		irq_spread_runs_find(runs, cpus, BITS_TO_LONGS(nr_cpus));
	for (r = 0; r < runs->nr; r++)
		for (w = runs->w[r][0]; w < runs->w[r][1]; w++)
			o->tier[w] |= cpus[w];
}

/*
 * Gather the slots, tier by tier, until they hold the first @need of the
 * order; set @o->valid to how many of the first slots are known.
 */
static void irq_spread_order_gather(struct irq_spread_order *o,
				    const struct irq_spread_topology *topo,
				    int node, enum irq_spread_policy policy,
				    const unsigned int *load, unsigned int need)
{
	unsigned int n = topo->nr_cpus, hop, k;
	const unsigned long *cpus;
	int last = -1, d;

	o->nr = 0;
	o->nr_tiers = 0;
	o->nr_ranks = 1;
	o->nr_rank0 = 0;
	o->split = false;
	bitmap_zero(o->covered, n);
	if (node != NUMA_NO_NODE) {
		for (k = 0; k < topo->nr_nodes; k++)
			o->dist[k] = topo->ops->node_cpus(topo, k) ?
				     topo->ops->distance(topo, node, k) :
				     INT_MIN;
		for (hop = 0; hop < IRQ_SPREAD_MAX_HOPS; hop++) {
			if (irq_spread_order_enough(o, policy, need))
				goto some;
			/* Farther hops cannot add a slot. */
			if (bitmap_subset(o->usable, o->covered, n))
				goto all;
			if (!irq_spread_order_next_hop(o, topo->nr_nodes, last, &d))
				break;
			last = d;
			bitmap_zero(o->tier, n);
			for (k = 0; k < topo->nr_nodes; k++) {
				/* Hop 0 holds what is nearer too (below 0). */
				cpus = o->dist[k] == d ||
				       (!hop && o->dist[k] != INT_MIN &&
					o->dist[k] < d) ?
				       topo->ops->node_cpus(topo, k) : NULL;
				if (cpus)
					irq_spread_order_add_node(o, n, k, cpus);
			}
			bitmap_and(o->tier, o->tier, o->usable, n);
			/* A hop that adds no eligible CPU is no tier. */
			if (!bitmap_andnot(o->tier, o->tier, o->covered, n))
				continue;
			bitmap_or(o->covered, o->covered, o->tier, n);
			if (irq_spread_order_add_tier(o, topo, policy, load, need))
				return;
		}
		if (irq_spread_order_enough(o, policy, need))
			goto some;
	}
	/* What no hop reaches (everything, for NUMA_NO_NODE) comes last. */
	if (bitmap_andnot(o->tier, o->usable, o->covered, n) &&
	    irq_spread_order_add_tier(o, topo, policy, load, need))
		return;
all:
	o->valid = o->nr;
	return;
some:
	/* Under core, the rank 1 slots of the tiers gathered are not next. */
	o->valid = policy == IRQ_SPREAD_CORE ? o->nr_rank0 : o->nr;
}

/*
 * Stable counting sort of the @n CPUs in @src into @dst by @key[cpu], which
 * is below @nr_keys, at most @o->nr_count.
 */
static void irq_spread_count_sort(struct irq_spread_order *o,
				  const unsigned int *src, unsigned int *dst,
				  unsigned int n, const unsigned int *key,
				  unsigned int base, unsigned int nr_keys)
{
	unsigned int *count = o->count, i, k, c, sum = 0;

	memset(count, 0, nr_keys * sizeof(*count));
	for (i = 0; i < n; i++)
		count[key[src[i]] - base]++;
	/* Each key's first position in @dst. */
	for (k = 0; k < nr_keys; k++) {
		c = count[k];
		count[k] = sum;
		sum += c;
	}
	for (i = 0; i < n; i++)
		dst[count[key[src[i]] - base]++] = src[i];
}

/* The smallest and largest of @key[cpu] over the slots gathered. */
static void irq_spread_key_range(const struct irq_spread_order *o,
				 const unsigned int *key, unsigned int *lo,
				 unsigned int *hi)
{
	unsigned int i;

	*lo = UINT_MAX;
	*hi = 0;
	for (i = 0; i < o->nr; i++) {
		*lo = min(*lo, key[o->slots[i]]);
		*hi = max(*hi, key[o->slots[i]]);
	}
}

/* For the comparison sort: the keys, core loads and loads, or %NULL. */
struct irq_spread_cmp {
	const unsigned int *key;
	const unsigned int *core_load;
	const unsigned int *load;
};

static int irq_spread_cmp_slots(const void *a, const void *b, const void *priv)
{
	const struct irq_spread_cmp *c = priv;
	unsigned int x = *(const unsigned int *)a, y = *(const unsigned int *)b;

	if (c->key[x] != c->key[y])
		return c->key[x] < c->key[y] ? -1 : 1;
	if (c->core_load && c->core_load[x] != c->core_load[y])
		return c->core_load[x] < c->core_load[y] ? -1 : 1;
	if (c->load && c->load[x] != c->load[y])
		return c->load[x] < c->load[y] ? -1 : 1;
	return x < y ? -1 : x > y;
}

/*
 * Sort the slots gathered by bucket (tier and rank), core load (core
 * policies), load, then CPU number: the slots of one bucket are of one
 * tier, gathered in CPU order, so each sort being stable gives the last
 * key.  One counting sort on the three keys packed when their ranges allow,
 * else one per key, least significant first; a comparison sort when a key's
 * range is above @o->nr_count (loads far apart, or cores and tiers many
 * enough).
 */
static void irq_spread_order_sort(struct irq_spread_order *o,
				  enum irq_spread_policy policy,
				  const unsigned int *load)
{
	unsigned int i, cpu, nb, lo = 0, hi = 0, clo = 0, chi = 0, nl, nc;
	bool by_core = policy != IRQ_SPREAD_NUMA;
	struct irq_spread_cmp cmp = {
		.key = o->key,
		.core_load = load && by_core ? o->core_load : NULL,
		.load = load,
	};
	u64 packed;

	nb = by_core ? o->nr_tiers * o->nr_ranks : o->nr_tiers;
	/* With every rank 0, the bucket is the tier. */
	for (i = 0; by_core && o->nr_ranks > 1 && i < o->nr; i++) {
		cpu = o->slots[i];
		if (policy == IRQ_SPREAD_NUMA_CORE)
			o->key[cpu] = o->key[cpu] * o->nr_ranks + o->tmp[i];
		else
			o->key[cpu] = o->tmp[i] * o->nr_tiers + o->key[cpu];
	}
	if (load) {
		irq_spread_key_range(o, load, &lo, &hi);
		if (by_core)
			irq_spread_key_range(o, o->core_load, &clo, &chi);
	}
	nl = hi - lo + 1;
	nc = chi - clo + 1;
	packed = (u64)nb * nc * nl;
	if (packed <= o->nr_count) {
		for (i = 0; load && packed > nb && i < o->nr; i++) {
			cpu = o->slots[i];
			o->key[cpu] = ((o->key[cpu] * nc) +
				       (by_core ? o->core_load[cpu] - clo : 0)) *
				      nl + load[cpu] - lo;
		}
		irq_spread_count_sort(o, o->slots, o->tmp, o->nr, o->key, 0,
				      packed);
		swap(o->slots, o->tmp);
	} else if (load && max3(nb, nc, nl) <= o->nr_count) {
		irq_spread_count_sort(o, o->slots, o->tmp, o->nr, load, lo, nl);
		if (by_core) {
			irq_spread_count_sort(o, o->tmp, o->slots, o->nr,
					      o->core_load, clo, nc);
			swap(o->slots, o->tmp);
		}
		irq_spread_count_sort(o, o->tmp, o->slots, o->nr, o->key, 0,
				      nb);
	} else {
		sort_r(o->slots, o->nr, sizeof(*o->slots), irq_spread_cmp_slots,
		       NULL, &cmp);
	}
}

/*
 * With tiers of more than one cache domain, each slot's cache domain, and
 * with a load each slot's domain load: the loads of its domain's slots in
 * its tier, summed in @o->dcount over each tier's slots, which are still
 * in gathering order, one tier after the other, with their tier as key.
 */
static void irq_spread_order_domains(struct irq_spread_order *o,
				     const struct irq_spread_topology *topo,
				     const unsigned int *load)
{
	unsigned int i, j, start, cpu;

	if (!o->split)
		return;
	for (i = 0; i < o->nr; i++)
		irq_spread_order_llc(topo, o, o->slots[i]);
	for (start = 0; load && start < o->nr; start = i) {
		for (i = start; i < o->nr &&
		     o->key[o->slots[i]] == o->key[o->slots[start]]; i++)
			o->dcount[o->llc[o->slots[i]]] = 0;
		for (j = start; j < i; j++) {
			cpu = o->slots[j];
			o->dcount[o->llc[cpu]] += load[cpu];
		}
		for (j = start; j < i; j++) {
			cpu = o->slots[j];
			o->dload[cpu] = o->dcount[o->llc[cpu]];
		}
	}
}

/* For the comparison sort of rounds: runs, rounds and domain loads. */
struct irq_spread_cmp_round {
	const unsigned int *run;
	const unsigned int *round;
	const unsigned int *dload;
};

static int irq_spread_cmp_rounds(const void *a, const void *b,
				 const void *priv)
{
	const struct irq_spread_cmp_round *c = priv;
	unsigned int x = *(const unsigned int *)a, y = *(const unsigned int *)b;

	if (c->run[x] != c->run[y])
		return c->run[x] < c->run[y] ? -1 : 1;
	if (c->round[x] != c->round[y])
		return c->round[x] < c->round[y] ? -1 : 1;
	if (c->dload && c->dload[x] != c->dload[y])
		return c->dload[x] < c->dload[y] ? -1 : 1;
	return x < y ? -1 : x > y;
}

/* Whether slots @a and @b are equal on every key before round. */
static bool irq_spread_same_run(const struct irq_spread_order *o,
				const unsigned int *core_load,
				const unsigned int *load, unsigned int ka,
				unsigned int a, unsigned int b)
{
	return ka == o->key[b] && (!load || load[a] == load[b]) &&
	       (!core_load || core_load[a] == core_load[b]);
}

/*
 * With tiers of more than one cache domain, order each run of sorted slots
 * equal on every key before round by round, domain load, then CPU number:
 * the slots of a run are in CPU order, so each sort being stable gives the
 * last key.  A walk of the runs counts each slot's round in @o->dcount (the
 * number of slots of its domain before it in its run) and writes its run
 * to @o->key; then one counting sort on round and domain load packed, or
 * one per key, and one on the run; a comparison sort when the domain loads
 * are too far apart.
 */
static void irq_spread_order_rounds(struct irq_spread_order *o,
				    enum irq_spread_policy policy,
				    const unsigned int *load)
{
	const unsigned int *core_load = load && policy != IRQ_SPREAD_NUMA ?
					o->core_load : NULL;
	unsigned int i, cpu, prev = 0, k = 0, run = 0, start = 0, rounds = 1;
	unsigned int lo = 0, hi = 0, nl;
	struct irq_spread_cmp_round cmp = {
		.run = o->key,
		.round = o->round,
		.dload = load ? o->dload : NULL,
	};

	if (!o->split)
		return;
	if (load)
		irq_spread_key_range(o, o->dload, &lo, &hi);
	for (i = 0; i < o->nr; i++)
		o->dcount[o->llc[o->slots[i]]] = 0;
	for (i = 0; i < o->nr; i++) {
		cpu = o->slots[i];
		if (i && !irq_spread_same_run(o, core_load, load, k, prev, cpu)) {
			for (; start < i; start++)
				o->dcount[o->llc[o->slots[start]]] = 0;
			run++;
		}
		k = o->key[cpu];
		prev = cpu;
		o->key[cpu] = run;
		o->round[cpu] = o->dcount[o->llc[cpu]]++;
		rounds = max(rounds, o->round[cpu] + 1);
	}

	nl = hi - lo + 1;
	if ((u64)rounds * nl <= o->nr_count) {
		for (i = 0; load && nl > 1 && i < o->nr; i++) {
			cpu = o->slots[i];
			o->round[cpu] = o->round[cpu] * nl + o->dload[cpu] - lo;
		}
		irq_spread_count_sort(o, o->slots, o->tmp, o->nr, o->round, 0,
				      rounds * nl);
		irq_spread_count_sort(o, o->tmp, o->slots, o->nr, o->key, 0,
				      run + 1);
	} else if (nl <= o->nr_count) {
		irq_spread_count_sort(o, o->slots, o->tmp, o->nr, o->dload, lo,
				      nl);
		irq_spread_count_sort(o, o->tmp, o->slots, o->nr, o->round, 0,
				      rounds);
		irq_spread_count_sort(o, o->slots, o->tmp, o->nr, o->key, 0,
				      run + 1);
		swap(o->slots, o->tmp);
	} else {
		sort_r(o->slots, o->nr, sizeof(*o->slots),
		       irq_spread_cmp_rounds, NULL, &cmp);
	}
}

/*
 * The first slots of the order for a device on @node under @policy, at
 * least @need of them unless there are fewer slots: @o->slots[0 ..
 * @o->valid - 1].  @o->usable holds the slots; @load is the topology's,
 * under its lock, or %NULL for no load.
 */
static void irq_spread_order_build(struct irq_spread_order *o,
				   const struct irq_spread_topology *topo,
				   int node, enum irq_spread_policy policy,
				   const unsigned int *load, unsigned int need)
{
	o->nr_usable = bitmap_weight(o->usable, topo->nr_cpus);
	need = min(need, o->nr_usable);
	irq_spread_order_check(topo, o);
	irq_spread_order_gather(o, topo, node, policy, load, need);
	irq_spread_order_domains(o, topo, load);
	irq_spread_order_sort(o, policy, load);
	irq_spread_order_rounds(o, policy, load);
}

/*
 * Under numa-core, count in @o->tmp (free after the sort) the vectors on
 * each core, at the index of its lowest slot; return whether any core gets
 * more than one.  Slots all of rank 0 are on distinct cores: then none
 * does if there are as many slots as vectors, and nothing is counted.
 */
static bool irq_spread_count_cores(unsigned int nvec, struct irq_spread_order *o)
{
	unsigned int i, s = 0, used = min(nvec, o->valid);
	bool shared = false;

	if (o->nr_ranks == 1 && nvec <= o->valid)
		return false;

	for (i = 0; i < used; i++)
		o->tmp[irq_spread_order_lead(o, o->slots[i])] = 0;
	for (i = 0; i < nvec; i++) {
		shared |= ++o->tmp[irq_spread_order_lead(o, o->slots[s])] > 1;
		if (++s == o->valid)
			s = 0;
	}
	return shared;
}

/* One vector more on CPU @cpu, in its load and in the topology's. */
static void irq_spread_hold_cpu(struct irq_spread_topology *topo,
				unsigned int cpu)
{
	topo->load[cpu]++;
	topo->held++;
}

/* One vector less on CPU @cpu, which has one. */
static void irq_spread_unhold_cpu(struct irq_spread_topology *topo,
				  unsigned int cpu)
{
	topo->load[cpu]--;
	topo->held--;
}

/* Write the vectors' masks and count them in the load, unless NO_HOLD. */
static void irq_spread_place(struct irq_spread_topology *topo,
			     enum irq_spread_policy policy, unsigned int nvec,
			     unsigned int flags, struct irq_spread_order *o,
			     unsigned long *masks, size_t stride)
{
	unsigned int i, s = 0, cpu, c;
	bool whole = policy == IRQ_SPREAD_NUMA_CORE &&
		     !(flags & IRQ_SPREAD_SLOT_ONLY);
	bool shared = whole && irq_spread_count_cores(nvec, o);
	unsigned long *mask;

	lockdep_assert_held(&topo->lock);
	for (i = 0; i < nvec; i++) {
		mask = masks + i * stride;
		cpu = o->slots[s];
		if (++s == o->valid)
			s = 0;

		bitmap_zero(mask, stride * BITS_PER_LONG);
		__set_bit(cpu, mask);
		if (!(flags & IRQ_SPREAD_NO_HOLD))
			irq_spread_hold_cpu(topo, cpu);
		/* A core with one vector gives it all its eligible threads. */
		if (!whole || (shared &&
			       o->tmp[irq_spread_order_lead(o, cpu)] != 1))
			continue;
		for (c = o->ring[cpu]; c != cpu; c = o->ring[c]) {
			if (!test_bit(c, o->usable))
				continue;
			__set_bit(c, mask);
			if (!(flags & IRQ_SPREAD_NO_HOLD))
				irq_spread_hold_cpu(topo, c);
		}
	}
}

/*
 * Allocate what @topo's spreads and queries use, @topo->nr_cpus and
 * @topo->nr_nodes set: the scratch space of spreads, under @topo->lock, and
 * the query cache, under @topo->query_lock, each with its own indexes (the
 * ring of each core's threads, each CPU's cache domain, the words of each
 * node's mask): each 28 bytes per CPU for the ring, the order, its sort,
 * the keys, the cache domains, their counts and the rounds, six bitmaps
 * and 12 bytes per node; spreads 12 bytes per CPU more for the core loads,
 * the domain loads and the counts of a sort, the query cache 4 bytes per
 * CPU of counts (4 KB at least) and IRQ_SPREAD_QUERY_ENTRIES orders of 4
 * bytes per CPU and a bitmap.  About 650 KB at 8192 CPUs.  Done once, so
 * that no spread allocates and no query sleeps.  Return 0 or -ENOMEM, with
 * nothing allocated.
 */
static int irq_spread_topology_alloc(struct irq_spread_topology *topo)
{
	struct irq_spread_order *o = kzalloc(sizeof(*o), GFP_KERNEL);
	struct irq_spread_query *q;

	if (!o)
		return -ENOMEM;
	if (irq_spread_order_alloc(o, topo->nr_cpus, topo->nr_nodes, true)) {
		kfree(o);
		return -ENOMEM;
	}
	q = irq_spread_query_alloc(topo->nr_cpus, topo->nr_nodes);
	if (!q) {
		irq_spread_order_free(o);
		kfree(o);
		return -ENOMEM;
	}
	topo->order = o;
	topo->query = q;
	return 0;
}

/**
 * irq_spread_topology_init - set up a topology
 * @topo: the topology
 * @ops: how to read the machine
 * @nr_cpus: number of CPUs, the width of every bitmap
 * @nr_nodes: number of NUMA nodes
 * @priv: for @ops
 *
 * Allocates the topology's scratch space and query cache; the per-CPU
 * load is allocated by the first spread.  The topology is zeroed before
 * (KUnit's machines, the tool's), or it is irq_spread_system, whose
 * locks and lists nobody has used yet: @topo->leaving and the default
 * policy are left as they are (the boot parameter irq_spread.policy= may
 * have set the system's already).
 *
 * Context: process context, may sleep.
 * Return: 0, or -ENOMEM with nothing to destroy.
 */
int irq_spread_topology_init(struct irq_spread_topology *topo,
			     const struct irq_spread_topology_ops *ops,
			     unsigned int nr_cpus, unsigned int nr_nodes,
			     void *priv)
{
	topo->ops = ops;
	topo->nr_cpus = nr_cpus;
	topo->nr_nodes = nr_nodes;
	topo->priv = priv;
	topo->load = NULL;
	topo->held = 0;
	mutex_init(&topo->lock);
	mutex_init(&topo->query_lock);
	mutex_init(&topo->devs_lock);
	INIT_LIST_HEAD(&topo->devs);
	mutex_init(&topo->pools_lock);
	INIT_LIST_HEAD(&topo->pools);
	return irq_spread_topology_alloc(topo);
}
EXPORT_SYMBOL_IF_KUNIT(irq_spread_topology_init);

/**
 * irq_spread_topology_destroy - free what a topology allocated
 * @topo: the topology, which nothing spreads on any more
 */
void irq_spread_topology_destroy(struct irq_spread_topology *topo)
{
	kfree(topo->load);
	topo->load = NULL;
	topo->held = 0;
	if (topo->order)
		irq_spread_order_free(topo->order);
	kfree(topo->order);
	topo->order = NULL;
	irq_spread_query_free(topo->query);
	topo->query = NULL;
	mutex_destroy(&topo->lock);
}
EXPORT_SYMBOL_IF_KUNIT(irq_spread_topology_destroy);

/* A policy and a node to place on @topo: those of a spread or a query. */
static int irq_spread_check_query(const struct irq_spread_topology *topo,
				  int node, enum irq_spread_policy policy)
{
	if ((unsigned int)policy >= IRQ_SPREAD_NR_POLICIES)
		return -EINVAL;
	if (node != NUMA_NO_NODE && (node < 0 || node >= topo->nr_nodes))
		return -EINVAL;
	if (!topo->nr_cpus)
		return -ENODEV;
	return 0;
}

static int irq_spread_check_args(const struct irq_spread_topology *topo,
				 int node, unsigned int nvec,
				 enum irq_spread_policy policy,
				 const unsigned long *masks, size_t stride)
{
	if (!nvec || !masks || stride < BITS_TO_LONGS(topo->nr_cpus))
		return -EINVAL;
	return irq_spread_check_query(topo, node, policy);
}

/* The first spread on a topology allocates its load counts. */
static int irq_spread_load_alloc(struct irq_spread_topology *topo)
{
	lockdep_assert_held(&topo->lock);
	if (!topo->order)
		return -ENOMEM;
	if (!topo->load)
		topo->load = kcalloc(topo->nr_cpus, sizeof(*topo->load),
				     GFP_KERNEL);
	return topo->load ? 0 : -ENOMEM;
}

/**
 * irq_spread_topo_spread - place a device's vectors on a topology's CPUs
 * @topo: the machine
 * @node: the device's NUMA node, or NUMA_NO_NODE
 * @nvec: number of vectors
 * @policy: how to place them
 * @exclude: CPUs not to use, a bitmap of @topo->nr_cpus bits, or %NULL
 * @masks: the vectors' masks: vector i's is the bitmap at @masks + i * @stride
 * @stride: distance between two masks in @masks, in longs; at least
 *	BITS_TO_LONGS(@topo->nr_cpus)
 * @flags: 0, or %IRQ_SPREAD_SLOT_ONLY and %IRQ_SPREAD_NO_HOLD
 *
 * See the comment at the top of this file for the placement.  The whole
 * @stride of each mask is written, bits past @topo->nr_cpus cleared.  The
 * placed vectors count in the load of @topo until irq_spread_topo_release(),
 * unless %IRQ_SPREAD_NO_HOLD.
 *
 * Context: process context, may sleep: takes @topo->lock (the first spread
 * on a topology allocates its load).
 * Return: 0 on success; -EINVAL for a bad @policy, @node, @stride, a zero
 * @nvec or a %NULL @masks; -ENOMEM; -ENODEV if no CPU is online.  On error,
 * nothing is changed.
 */
int irq_spread_topo_spread(struct irq_spread_topology *topo, int node,
			   unsigned int nvec, enum irq_spread_policy policy,
			   const unsigned long *exclude, unsigned long *masks,
			   size_t stride, unsigned int flags)
{
	struct irq_spread_order *o;
	int ret;

	if (flags & ~(IRQ_SPREAD_SLOT_ONLY | IRQ_SPREAD_NO_HOLD))
		return -EINVAL;
	ret = irq_spread_check_args(topo, node, nvec, policy, masks, stride);
	if (ret)
		return ret;

	mutex_lock(&topo->lock);
	ret = irq_spread_load_alloc(topo);
	if (ret)
		goto unlock;
	o = topo->order;
	if (!irq_spread_usable(topo, exclude, o->usable)) {
		ret = -ENODEV;
		goto unlock;
	}
	/* No load at all orders as none: the first tier may be cut short. */
	irq_spread_order_build(o, topo, node, policy,
			       topo->held ? topo->load : NULL, nvec);
	irq_spread_place(topo, policy, nvec, flags, o, masks, stride);
unlock:
	mutex_unlock(&topo->lock);
	return ret;
}

/**
 * irq_spread_topo_cpus - place a device's vectors on a topology's CPUs
 * @topo: the machine
 * @node: the device's NUMA node, or NUMA_NO_NODE
 * @nvec: number of vectors
 * @policy: how to place them
 * @exclude: CPUs not to use, a bitmap of @topo->nr_cpus bits, or %NULL
 * @masks: the vectors' masks: vector i's is the bitmap at @masks + i * @stride
 * @stride: distance between two masks in @masks, in longs
 *
 * irq_spread_topo_spread() without flags.
 *
 * Context: process context, may sleep.
 * Return: as irq_spread_topo_spread().
 */
int irq_spread_topo_cpus(struct irq_spread_topology *topo, int node,
			 unsigned int nvec, enum irq_spread_policy policy,
			 const unsigned long *exclude, unsigned long *masks,
			 size_t stride)
{
	return irq_spread_topo_spread(topo, node, nvec, policy, exclude, masks,
				      stride, 0);
}
EXPORT_SYMBOL_IF_KUNIT(irq_spread_topo_cpus);

/*
 * The cache entry for @node and @policy built for the slots in @usable, or
 * the least recently used entry emptied for them.
 */
static struct irq_spread_query_entry *
irq_spread_query_entry(struct irq_spread_query *q, unsigned int nr_cpus,
		       int node, enum irq_spread_policy policy,
		       const unsigned long *usable)
{
	struct irq_spread_query_entry *e, *old = &q->entry[0];
	unsigned int i;

	for (i = 0; i < IRQ_SPREAD_QUERY_ENTRIES; i++) {
		e = &q->entry[i];
		if (e->valid && e->node == node && e->policy == policy &&
		    bitmap_equal(e->usable, usable, nr_cpus))
			return e;
		if (!e->valid || (old->valid && e->used < old->used))
			old = e;
	}
	old->node = node;
	old->policy = policy;
	old->valid = 0;
	bitmap_copy(old->usable, usable, nr_cpus);
	old->nr_usable = bitmap_weight(usable, nr_cpus);
	return old;
}

/**
 * irq_spread_topo_nth_cpu - the CPU of one vector of a spread on an idle machine
 * @topo: the machine
 * @node: the device's NUMA node, or NUMA_NO_NODE
 * @index: the vector's index in the spread, from 0
 * @policy: how the spread places vectors
 *
 * The CPU vector @index would take in a spread of more than @index vectors
 * with no vector placed on @topo yet: its slot's CPU (see the comment at
 * the top of this file), slot @index modulo the number of slots, in the
 * order a spread makes with every load zero.  A stateless query, as
 * sched_numa_find_nth_cpu() is: it neither reads nor changes the load, so
 * asking for each index in turn gives the order one spread would, whatever
 * other devices hold.
 *
 * The answer comes from the topology's query cache when it holds the order
 * for @node and @policy, built for the CPUs eligible now (compared on each
 * call, a few word operations per 64 CPUs); else the order's first slots
 * are built into it, at least twice as many as the cache held, as a spread
 * of that many vectors would build them.
 *
 * Context: process context, may sleep: takes @topo->query_lock, a mutex;
 * allocates nothing.
 * Return: the CPU; -EINVAL for a bad @policy or @node; -ENOMEM if the
 * topology's cache could not be allocated; -ENODEV if no CPU is online.
 */
int irq_spread_topo_nth_cpu(struct irq_spread_topology *topo, int node,
			    unsigned int index, enum irq_spread_policy policy)
{
	struct irq_spread_query *q = topo->query;
	struct irq_spread_query_entry *e;
	struct irq_spread_order *o;
	unsigned int i, need;
	int ret;

	ret = irq_spread_check_query(topo, node, policy);
	if (ret)
		return ret;
	if (!q)
		return -ENOMEM;

	mutex_lock(&topo->query_lock);
	o = &q->o;
	if (!irq_spread_usable(topo, NULL, o->usable)) {
		ret = -ENODEV;
		goto unlock;
	}
	e = irq_spread_query_entry(q, topo->nr_cpus, node, policy, o->usable);
	i = index % e->nr_usable;
	if (i >= e->valid) {
		need = max3(i + 1, 2 * e->valid, IRQ_SPREAD_QUERY_MIN);
		irq_spread_order_build(o, topo, node, policy, NULL, need);
		e->valid = o->valid;
		memcpy(e->order, o->slots, o->valid * sizeof(*e->order));
	}
	e->used = ++q->clock;
	ret = e->order[i];
unlock:
	mutex_unlock(&topo->query_lock);
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(irq_spread_topo_nth_cpu);

/* Count @nvec placed masks in the load (@add), or take them out of it. */
static void irq_spread_topo_account(struct irq_spread_topology *topo,
				    unsigned int nvec, const unsigned long *masks,
				    size_t stride, bool add)
{
	unsigned int i, cpu;

	if (!masks || !nvec)
		return;
	mutex_lock(&topo->lock);
	/* Only a spread allocates the load, and every caller follows one. */
	if (WARN_ON_ONCE(!topo->load))
		goto unlock;
	for (i = 0; i < nvec; i++) {
		for_each_set_bit(cpu, masks + i * stride, topo->nr_cpus) {
			if (add)
				irq_spread_hold_cpu(topo, cpu);
			/* Releasing what was not placed: keep the rest right. */
			else if (!WARN_ON_ONCE(!topo->load[cpu]))
				irq_spread_unhold_cpu(topo, cpu);
		}
	}
unlock:
	mutex_unlock(&topo->lock);
}

/**
 * irq_spread_topo_release - take a device's vectors out of a topology's load
 * @topo: the machine
 * @nvec: number of vectors, as given to irq_spread_topo_cpus()
 * @masks: the masks irq_spread_topo_cpus() wrote, unchanged
 * @stride: as given to irq_spread_topo_cpus()
 *
 * Context: process context, may sleep: takes @topo->lock.
 */
void irq_spread_topo_release(struct irq_spread_topology *topo,
			     unsigned int nvec, const unsigned long *masks,
			     size_t stride)
{
	irq_spread_topo_account(topo, nvec, masks, stride, false);
}
EXPORT_SYMBOL_IF_KUNIT(irq_spread_topo_release);

/**
 * irq_spread_topo_hold - count a placement in a topology's load again
 * @topo: the machine
 * @nvec: number of vectors
 * @masks: masks that irq_spread_topo_cpus() wrote and that were released
 *	with irq_spread_topo_release()
 * @stride: as given to irq_spread_topo_cpus()
 *
 * Undoes irq_spread_topo_release(), for a caller that released a placement
 * to make the next one without its own load in the way and could not make
 * it: the old placement stays, and counts again.
 *
 * Context: process context, may sleep: takes @topo->lock.
 */
void irq_spread_topo_hold(struct irq_spread_topology *topo, unsigned int nvec,
			  const unsigned long *masks, size_t stride)
{
	irq_spread_topo_account(topo, nvec, masks, stride, true);
}
