// SPDX-License-Identifier: GPL-2.0
/*
 * irq_spread engine: place a device's vectors on the CPUs of a topology.
 *
 * Every eligible CPU is a slot.  The policy puts the slots in one order and
 * vector i takes slot (i modulo the number of slots): no slot gets a second
 * vector before every slot has one, and the first round follows the order.
 * The order sorts the slots by
 *
 *	numa:		tier, load, CPU number
 *	numa-core:	tier, rank, core load, load, CPU number
 *	core:		rank, tier, core load, load, CPU number
 *
 * where
 *
 *  - tier is the NUMA hop the CPU is first found in, counting only hops
 *    that add eligible CPUs: 0 for the device node, 1 for the nearest
 *    other nodes, and so on.  CPUs that no hop reaches come last; with
 *    NUMA_NO_NODE every CPU is in tier 0.
 *  - load is the number of vectors already placed on the CPU, for every
 *    device spread on the same topology; core load is the sum of the loads
 *    of the eligible threads of the CPU's physical core.
 *  - rank is the CPU's position among the eligible threads of its core,
 *    least loaded first, lower CPU number among equals: 0 for the thread a
 *    device's first vector on that core takes, 1 for the next, ...
 *
 * A numa-core vector gets every eligible thread of its slot's core, as
 * MANA's irq_setup() did, when it is the only vector of the spread on that
 * core; when the spread puts more than one vector on a core, each of them
 * gets its slot's thread alone, so that the interrupts of one core's
 * vectors end on different threads rather than all on the first (MANA's
 * 2026 low-vCPU fix: 15.65 against 7.73 Gbps).  numa and core vectors get
 * the slot's CPU alone.
 *
 * The order is made by stable counting sorts of the slots (CPU numbers
 * ascending): by load, by core load, then by (tier, rank) bucket.  The cost
 * is linear in the number of CPUs and vectors, plus word-wise bitmap
 * operations on each hop mask and on each core's sibling mask, plus the
 * square of the SMT width per core; nothing is allocated or rescanned per
 * vector.
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
#include <linux/string.h>

#include <kunit/visibility.h>

#include "irq_spread_internal.h"

/* Scratch state of one spread, allocated before the topology lock is taken. */
struct irq_spread_work {
	unsigned int nr_cpus;
	unsigned long *eligible;	/* the slots */
	unsigned long *covered;		/* CPUs given a tier, then a rank */
	unsigned long *hop;		/* one hop mask at a time */
	unsigned int *bucket;		/* per CPU: tier, then sort bucket */
	unsigned int *rank;		/* per CPU */
	unsigned int *core_load;	/* per CPU */
	unsigned int *lead;		/* per CPU: its core's first slot */
	unsigned int *slots;		/* eligible CPUs, finally in order */
	unsigned int *tmp;		/* the other buffer of each sort */
	unsigned int nr_slots;
	unsigned int nr_tiers;
	unsigned int nr_ranks;
	unsigned int nr_buckets;
};

static void irq_spread_work_free(struct irq_spread_work *w)
{
	bitmap_free(w->eligible);
	bitmap_free(w->covered);
	bitmap_free(w->hop);
	kvfree(w->bucket);
	kvfree(w->rank);
	kvfree(w->core_load);
	kvfree(w->lead);
	kvfree(w->slots);
	kvfree(w->tmp);
}

static int irq_spread_work_alloc(struct irq_spread_work *w,
				 unsigned int nr_cpus)
{
	memset(w, 0, sizeof(*w));
	w->nr_cpus = nr_cpus;
	w->eligible = bitmap_zalloc(nr_cpus, GFP_KERNEL);
	w->covered = bitmap_zalloc(nr_cpus, GFP_KERNEL);
	w->hop = bitmap_zalloc(nr_cpus, GFP_KERNEL);
	w->bucket = kvmalloc_array(nr_cpus, sizeof(*w->bucket), GFP_KERNEL);
	w->rank = kvmalloc_array(nr_cpus, sizeof(*w->rank), GFP_KERNEL);
	w->core_load = kvmalloc_array(nr_cpus, sizeof(*w->core_load),
				      GFP_KERNEL);
	w->lead = kvmalloc_array(nr_cpus, sizeof(*w->lead), GFP_KERNEL);
	w->slots = kvmalloc_array(nr_cpus, sizeof(*w->slots), GFP_KERNEL);
	w->tmp = kvmalloc_array(nr_cpus, sizeof(*w->tmp), GFP_KERNEL);
	if (!w->eligible || !w->covered || !w->hop || !w->bucket ||
	    !w->rank || !w->core_load || !w->lead || !w->slots || !w->tmp) {
		irq_spread_work_free(w);
		return -ENOMEM;
	}
	return 0;
}

/*
 * The CPUs a vector may use: eligible, not on their way offline, and not
 * in @exclude.  A device must get interrupts somewhere, so when that
 * leaves nothing, every online CPU.  Return false if there is none.
 */
static bool irq_spread_usable(const struct irq_spread_topology *topo,
			      const unsigned long *exclude, unsigned long *dst)
{
	unsigned int n = topo->nr_cpus;

	topo->ops->eligible_cpus(topo, dst);
	if (topo->leaving)
		bitmap_andnot(dst, dst, topo->leaving, n);
	if (exclude)
		bitmap_andnot(dst, dst, exclude, n);
	if (!bitmap_empty(dst, n))
		return true;
	pr_warn_once("no eligible CPU for a device, using all online CPUs\n");
	topo->ops->online_cpus(topo, dst);
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
EXPORT_SYMBOL_IF_KUNIT(irq_spread_topo_eligible);

/* The slots: the usable CPUs, not excluded by the caller. */
static int irq_spread_find_slots(const struct irq_spread_topology *topo,
				 const unsigned long *exclude,
				 struct irq_spread_work *w)
{
	unsigned int n = w->nr_cpus, cpu;

	if (!irq_spread_usable(topo, exclude, w->eligible))
		return -ENODEV;

	w->nr_slots = 0;
	for_each_set_bit(cpu, w->eligible, n)
		w->slots[w->nr_slots++] = cpu;
	return 0;
}

/* Give the CPUs in @w->hop, not in an earlier tier, the next tier. */
static void irq_spread_add_tier(struct irq_spread_work *w)
{
	unsigned int n = w->nr_cpus, cpu;

	bitmap_and(w->hop, w->hop, w->eligible, n);
	/* A hop that adds no eligible CPU is no tier. */
	if (!bitmap_andnot(w->hop, w->hop, w->covered, n))
		return;
	for_each_set_bit(cpu, w->hop, n)
		w->bucket[cpu] = w->nr_tiers;
	bitmap_or(w->covered, w->covered, w->hop, n);
	w->nr_tiers++;
}

static void irq_spread_assign_tiers(const struct irq_spread_topology *topo,
				    int node, struct irq_spread_work *w)
{
	unsigned int n = w->nr_cpus, hop;

	w->nr_tiers = 0;
	bitmap_zero(w->covered, n);
	if (node != NUMA_NO_NODE) {
		for (hop = 0; hop < IRQ_SPREAD_MAX_HOPS; hop++) {
			/* Farther hops cannot add a slot. */
			if (bitmap_subset(w->eligible, w->covered, n))
				break;
			if (!topo->ops->hop_cpus(topo, node, hop, w->hop))
				break;
			irq_spread_add_tier(w);
		}
	}
	/* What no hop reaches (everything, for NUMA_NO_NODE) comes last. */
	bitmap_copy(w->hop, w->eligible, n);
	irq_spread_add_tier(w);
}

/*
 * Rank the @nr eligible threads @thr of one core, which are in CPU order:
 * least loaded first, lower CPU number among equals.  SMT is a few threads
 * wide, so counting the ones that go first is cheap enough.
 */
static void irq_spread_rank_core(const unsigned int *load,
				 const unsigned int *thr, unsigned int nr,
				 struct irq_spread_work *w)
{
	unsigned int i, j, r, sum = 0;

	for (i = 0; i < nr; i++)
		sum += load[thr[i]];
	for (i = 0; i < nr; i++) {
		r = 0;
		for (j = 0; j < nr; j++)
			r += load[thr[j]] < load[thr[i]] ||
			     (load[thr[j]] == load[thr[i]] && j < i);
		w->rank[thr[i]] = r;
		w->core_load[thr[i]] = sum;
		w->lead[thr[i]] = thr[0];
	}
	w->nr_ranks = max(w->nr_ranks, nr);
}

/*
 * Slots are visited in CPU order, so the first one seen of a core is its
 * lowest eligible thread: it gathers the eligible siblings above it, once,
 * into @w->tmp (free until the sorts).  @load is the topology's, under its
 * lock, or all zero.
 */
static void irq_spread_assign_ranks(const struct irq_spread_topology *topo,
				    const unsigned int *load,
				    struct irq_spread_work *w)
{
	unsigned int n = w->nr_cpus, cpu, sib, nr;
	const unsigned long *sibs;

	w->nr_ranks = 1;
	bitmap_zero(w->covered, n);
	for_each_set_bit(cpu, w->eligible, n) {
		if (test_bit(cpu, w->covered))
			continue;
		__set_bit(cpu, w->covered);
		nr = 0;
		w->tmp[nr++] = cpu;
		sibs = topo->ops->sibling_cpus(topo, cpu);
		sib = cpu + 1;
		for_each_set_bit_from(sib, sibs, n) {
			if (test_bit(sib, w->eligible) &&
			    !__test_and_set_bit(sib, w->covered))
				w->tmp[nr++] = sib;
		}
		irq_spread_rank_core(load, w->tmp, nr, w);
	}
}

/* Turn each slot's tier into its sort bucket under @policy. */
static void irq_spread_assign_buckets(enum irq_spread_policy policy,
				      struct irq_spread_work *w)
{
	unsigned int i, cpu;

	if (policy == IRQ_SPREAD_NUMA) {
		w->nr_buckets = w->nr_tiers;
		return;
	}
	w->nr_buckets = w->nr_tiers * w->nr_ranks;
	for (i = 0; i < w->nr_slots; i++) {
		cpu = w->slots[i];
		if (policy == IRQ_SPREAD_NUMA_CORE)
			w->bucket[cpu] = w->bucket[cpu] * w->nr_ranks +
					 w->rank[cpu];
		else
			w->bucket[cpu] = w->rank[cpu] * w->nr_tiers +
					 w->bucket[cpu];
	}
}

/*
 * Stable counting sort of the @n CPUs in @src into @dst by @key[cpu] - @base,
 * which is below @nr_keys; @count has room for @nr_keys entries.
 */
static void irq_spread_count_sort(const unsigned int *src, unsigned int *dst,
				  unsigned int n, const unsigned int *key,
				  unsigned int base, unsigned int *count,
				  unsigned int nr_keys)
{
	unsigned int i, k, c, sum = 0;

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

/* The smallest and largest of @key[cpu] over the slots. */
static void irq_spread_key_range(const struct irq_spread_work *w,
				 const unsigned int *key, unsigned int *lo,
				 unsigned int *hi)
{
	unsigned int i;

	*lo = UINT_MAX;
	*hi = 0;
	for (i = 0; i < w->nr_slots; i++) {
		*lo = min(*lo, key[w->slots[i]]);
		*hi = max(*hi, key[w->slots[i]]);
	}
}

/*
 * Sort the slots by bucket, then core load (core policies), then @load,
 * then CPU number: least significant key first, each sort stable.  @load
 * is the topology's, only stable under its lock, which the caller holds
 * (so is the allocation of the counts, sized by the spread of the loads),
 * or all zero.
 */
static int irq_spread_order_slots(const unsigned int *load,
				  enum irq_spread_policy policy,
				  struct irq_spread_work *w)
{
	unsigned int lo, hi, clo = 0, chi = 0, *count;
	bool by_core = policy != IRQ_SPREAD_NUMA;

	irq_spread_key_range(w, load, &lo, &hi);
	if (by_core)
		irq_spread_key_range(w, w->core_load, &clo, &chi);
	count = kvmalloc_array(max3(hi - lo, chi - clo, w->nr_buckets) + 1,
			       sizeof(*count), GFP_KERNEL);
	if (!count)
		return -ENOMEM;

	irq_spread_count_sort(w->slots, w->tmp, w->nr_slots, load, lo,
			      count, hi - lo + 1);
	if (by_core) {
		irq_spread_count_sort(w->tmp, w->slots, w->nr_slots,
				      w->core_load, clo, count, chi - clo + 1);
		swap(w->slots, w->tmp);
	}
	irq_spread_count_sort(w->tmp, w->slots, w->nr_slots, w->bucket, 0,
			      count, w->nr_buckets);
	kvfree(count);
	return 0;
}

/*
 * Under numa-core, count in @w->tmp (free after the sorts) the vectors on
 * each core, at the index of its first slot; return whether any core gets
 * more than one.
 */
static bool irq_spread_count_cores(unsigned int nvec, struct irq_spread_work *w)
{
	unsigned int i, s = 0;
	bool shared = false;

	for (i = 0; i < w->nr_slots; i++)
		w->tmp[w->lead[w->slots[i]]] = 0;
	for (i = 0; i < nvec; i++) {
		shared |= ++w->tmp[w->lead[w->slots[s]]] > 1;
		if (++s == w->nr_slots)
			s = 0;
	}
	return shared;
}

/* Write the vectors' masks and count them in the load, unless NO_HOLD. */
static void irq_spread_place(struct irq_spread_topology *topo,
			     enum irq_spread_policy policy, unsigned int nvec,
			     unsigned int flags, struct irq_spread_work *w,
			     unsigned long *masks, size_t stride)
{
	unsigned int n = w->nr_cpus, i, s = 0, cpu, c;
	bool whole = policy == IRQ_SPREAD_NUMA_CORE &&
		     !(flags & IRQ_SPREAD_SLOT_ONLY);
	bool shared = whole && irq_spread_count_cores(nvec, w);
	unsigned long *mask;

	lockdep_assert_held(&topo->lock);
	for (i = 0; i < nvec; i++) {
		mask = masks + i * stride;
		cpu = w->slots[s];
		if (++s == w->nr_slots)
			s = 0;

		bitmap_zero(mask, stride * BITS_PER_LONG);
		/* A core with one vector gives it all its threads. */
		if (whole && (!shared || w->tmp[w->lead[cpu]] == 1))
			bitmap_and(mask, topo->ops->sibling_cpus(topo, cpu),
				   w->eligible, n);
		__set_bit(cpu, mask);
		if (flags & IRQ_SPREAD_NO_HOLD)
			continue;
		for_each_set_bit(c, mask, n)
			topo->load[c]++;
	}
}

/**
 * irq_spread_topology_init - set up a topology
 * @topo: the topology
 * @ops: how to read the machine
 * @nr_cpus: number of CPUs, the width of every bitmap
 * @nr_nodes: number of NUMA nodes
 * @priv: for @ops
 *
 * The per-CPU load is allocated by the first spread.
 */
void irq_spread_topology_init(struct irq_spread_topology *topo,
			      const struct irq_spread_topology_ops *ops,
			      unsigned int nr_cpus, unsigned int nr_nodes,
			      void *priv)
{
	topo->ops = ops;
	topo->nr_cpus = nr_cpus;
	topo->nr_nodes = nr_nodes;
	topo->priv = priv;
	topo->load = NULL;
	mutex_init(&topo->lock);
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
 * Context: process context, may sleep: allocates with GFP_KERNEL and takes
 * @topo->lock.
 * Return: 0 on success; -EINVAL for a bad @policy, @node, @stride, a zero
 * @nvec or a %NULL @masks; -ENOMEM; -ENODEV if no CPU is online.  On error,
 * nothing is changed.
 */
int irq_spread_topo_spread(struct irq_spread_topology *topo, int node,
			   unsigned int nvec, enum irq_spread_policy policy,
			   const unsigned long *exclude, unsigned long *masks,
			   size_t stride, unsigned int flags)
{
	struct irq_spread_work w;
	int ret;

	if (flags & ~(IRQ_SPREAD_SLOT_ONLY | IRQ_SPREAD_NO_HOLD))
		return -EINVAL;
	ret = irq_spread_check_args(topo, node, nvec, policy, masks, stride);
	if (ret)
		return ret;
	ret = irq_spread_work_alloc(&w, topo->nr_cpus);
	if (ret)
		return ret;

	ret = irq_spread_find_slots(topo, exclude, &w);
	if (ret)
		goto out;
	irq_spread_assign_tiers(topo, node, &w);

	mutex_lock(&topo->lock);
	ret = irq_spread_load_alloc(topo);
	if (ret)
		goto unlock;
	if (policy != IRQ_SPREAD_NUMA)
		irq_spread_assign_ranks(topo, topo->load, &w);
	irq_spread_assign_buckets(policy, &w);
	ret = irq_spread_order_slots(topo->load, policy, &w);
	if (!ret)
		irq_spread_place(topo, policy, nvec, flags, &w, masks, stride);
unlock:
	mutex_unlock(&topo->lock);
out:
	irq_spread_work_free(&w);
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(irq_spread_topo_spread);

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
 * order a spread makes with every load zero.  A
 * stateless query, as sched_numa_find_nth_cpu() is: it neither reads nor
 * changes the load, so asking for each index in turn gives the order one
 * spread would, whatever other devices hold.  The cost is that of a
 * spread's order, linear in the CPUs, per call.
 *
 * Context: process context, may sleep: allocates with GFP_KERNEL.
 * Return: the CPU; -EINVAL for a bad @policy or @node; -ENOMEM; -ENODEV if
 * no CPU is online.
 */
int irq_spread_topo_nth_cpu(struct irq_spread_topology *topo, int node,
			    unsigned int index, enum irq_spread_policy policy)
{
	struct irq_spread_work w;
	unsigned int *zero;
	int ret;

	ret = irq_spread_check_query(topo, node, policy);
	if (ret)
		return ret;
	ret = irq_spread_work_alloc(&w, topo->nr_cpus);
	if (ret)
		return ret;
	zero = kvcalloc(topo->nr_cpus, sizeof(*zero), GFP_KERNEL);
	if (!zero) {
		ret = -ENOMEM;
		goto out;
	}
	ret = irq_spread_find_slots(topo, NULL, &w);
	if (ret)
		goto out;
	irq_spread_assign_tiers(topo, node, &w);
	if (policy != IRQ_SPREAD_NUMA)
		irq_spread_assign_ranks(topo, zero, &w);
	irq_spread_assign_buckets(policy, &w);
	ret = irq_spread_order_slots(zero, policy, &w);
	if (!ret)
		ret = w.slots[index % w.nr_slots];
out:
	kvfree(zero);
	irq_spread_work_free(&w);
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
				topo->load[cpu]++;
			/* Releasing what was not placed: keep the rest right. */
			else if (!WARN_ON_ONCE(!topo->load[cpu]))
				topo->load[cpu]--;
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
EXPORT_SYMBOL_IF_KUNIT(irq_spread_topo_hold);
