// SPDX-License-Identifier: GPL-2.0
/*
 * irq_spread devices and CPU hotplug: when a CPU goes offline, only the
 * vectors whose mask holds it move: each loses the CPU, and one left
 * without a CPU takes a mask of a fresh placement without the CPU that
 * the device's other vectors do not hold, and remembers its home.  When a
 * CPU comes online, the vectors CPU hotplug moved go back home, once every
 * CPU of their home is online; a device last placed while the CPU could
 * not be used is placed afresh.  As cpuhotplug.c does for the interrupt
 * core, nothing a CPU does not affect is touched: a device placed around
 * another is not placed again because a CPU neither of them used came
 * and went.  The library places; the interrupt core moves the interrupts
 * that have the library's placer, asking it where (irq.c), and brings
 * them home.
 *
 * The library takes no CPU hotplug lock: a CPU going offline is marked
 * leaving, under the machine's devs_lock and before any device's vectors
 * move, and no spread uses a leaving CPU.  The callbacks then take each
 * device's lock in turn, so a spread of a device racing with them either
 * ran before they reached the device, and is moved by them, or runs after
 * and sees the CPU gone; a device being added is placed and listed under
 * the same lock, before the callbacks or after them.
 */
#define pr_fmt(fmt) "irq_spread: " fmt

#include <linux/bitmap.h>
#include <linux/cpu.h>
#include <linux/cpuhotplug.h>
#include <linux/cpumask.h>
#include <linux/device.h>
#include <linux/export.h>
#include <linux/init.h>
#include <linux/list.h>
#include <linux/lockdep.h>
#include <linux/mutex.h>
#include <linux/overflow.h>
#include <linux/printk.h>
#include <linux/slab.h>
#include <linux/string.h>

#include <kunit/visibility.h>

#include "device.h"
#include "pool.h"

/* Spread vector @k's mask in @masks, @placed or @staged of @sd. */
static unsigned long *irq_spread_dev_mask(const struct irq_spread_dev *sd,
					  unsigned long *masks,
					  unsigned int k)
{
	return masks + k * sd->stride;
}

/*
 * Spread vector @k of @sd, left without a CPU: the slot its policy gives
 * among the CPUs not leaving, with every other vector counted; a
 * numa-core vector alone on its core gets the whole core.
 */
static int irq_spread_dev_repair_slot(struct irq_spread_dev *sd, unsigned int k)
{
	struct irq_spread_topology *topo = sd->topo;
	unsigned long *mask = irq_spread_dev_mask(sd, sd->staged, k);
	unsigned int n = topo->nr_cpus, j, slot;
	const unsigned long *sibs;
	int ret;

	ret = irq_spread_dev_spread(sd, 1, sd->policy, mask,
				    IRQ_SPREAD_SLOT_ONLY);
	if (ret || sd->policy != IRQ_SPREAD_NUMA_CORE)
		return ret;

	slot = find_first_bit(mask, n);
	sibs = topo->ops->sibling_cpus(topo, slot);
	for (j = 0; j < sd->nr_active; j++) {
		if (j != k && bitmap_intersects(irq_spread_dev_mask(sd, sd->staged, j),
						sibs, n))
			return 0;
	}
	irq_spread_dev_release(sd, 1, mask);
	irq_spread_dev_eligible(sd, sd->scratch);
	bitmap_and(mask, sibs, sd->scratch, n);
	__set_bit(slot, mask);
	irq_spread_dev_hold(sd, 1, mask);
	return 0;
}

/*
 * Whether mask @i of the fresh placement @fresh is one no other vector
 * has: not among the vectors of @sd->staged that keep a CPU (each of which
 * takes one equal mask of @fresh, marked in @used), and on no CPU of
 * theirs.
 */
static bool irq_spread_dev_fresh_free(const struct irq_spread_dev *sd,
				      const unsigned long *fresh,
				      const unsigned long *empty,
				      unsigned long *used, unsigned int i)
{
	const unsigned long *m = fresh + i * sd->stride;
	unsigned int n = sd->topo->nr_cpus, j;

	if (test_bit(i, used))
		return false;
	for (j = 0; j < sd->nr_active; j++) {
		if (!test_bit(j, empty) &&
		    bitmap_intersects(irq_spread_dev_mask(sd, sd->staged, j), m, n))
			return false;
	}
	return true;
}

/*
 * Each vector in @empty takes, in order, the next mask of @fresh that is
 * irq_spread_dev_fresh_free(), and leaves @empty.
 */
static void irq_spread_dev_take_fresh(struct irq_spread_dev *sd,
				      const unsigned long *fresh,
				      unsigned long *empty, unsigned long *used)
{
	unsigned int nr = sd->nr_active, i = 0, k;

	for_each_set_bit(k, empty, nr) {
		while (i < nr &&
		       !irq_spread_dev_fresh_free(sd, fresh, empty, used, i))
			i++;
		if (i == nr)
			return;
		bitmap_copy(irq_spread_dev_mask(sd, sd->staged, k),
			    fresh + i * sd->stride, sd->stride * BITS_PER_LONG);
		__set_bit(i, used);
		__clear_bit(k, empty);
	}
}

/* Whether a mask of @fresh that a kept vector took (in @used) is @mask. */
static bool irq_spread_dev_has_equal(const struct irq_spread_dev *sd,
				     const unsigned long *fresh,
				     const unsigned long *used,
				     const unsigned long *mask)
{
	unsigned int i;

	for_each_set_bit(i, used, sd->nr_active) {
		if (bitmap_equal(fresh + i * sd->stride, mask, sd->topo->nr_cpus))
			return true;
	}
	return false;
}

/*
 * No mask of @fresh is free for some vector in @empty: a vector keeping
 * CPUs that has no equal in @fresh may hold more than its mask there (a
 * numa-core vector alone on its core has the whole core, and is no longer
 * alone once the vector that lost its CPU belongs on the other thread).
 * Each such vector whose mask holds an unused mask of @fresh narrows to
 * it, the CPUs it keeps being among those it had, and remembers its home
 * to go back to with the others.  Returns whether one narrowed.
 */
static bool irq_spread_dev_narrow(struct irq_spread_dev *sd,
				  const unsigned long *fresh,
				  const unsigned long *empty, unsigned long *used)
{
	unsigned int n = sd->topo->nr_cpus, nr = sd->nr_active, i, j;
	struct irq_spread_vec *vec;
	unsigned long *mask;
	bool narrowed = false;

	for (j = 0; j < nr; j++) {
		mask = irq_spread_dev_mask(sd, sd->staged, j);
		if (test_bit(j, empty) ||
		    irq_spread_dev_has_equal(sd, fresh, used, mask))
			continue;
		for (i = 0; i < nr; i++) {
			if (test_bit(i, used) ||
			    !bitmap_subset(fresh + i * sd->stride, mask, n))
				continue;
			vec = sd->vec[sd->pre + j];
			if (!vec->displaced) {
				bitmap_copy(vec->before_hotplug, mask,
					    sd->stride * BITS_PER_LONG);
				vec->displaced = true;
			}
			bitmap_copy(mask, fresh + i * sd->stride,
				    sd->stride * BITS_PER_LONG);
			__set_bit(i, used);
			narrowed = true;
			break;
		}
	}
	return narrowed;
}

/*
 * The vectors in @empty lost their last CPU.  A fresh placement without
 * the leaving CPUs says where the device's vectors belong now: each
 * vector in @empty takes, nearest first, a mask of it that the vectors
 * keeping a CPU do not have and do not touch; so the device's vectors
 * still keep every rule of the policy (floor and ceiling per CPU, one per
 * core before a sibling), and no other vector moves.  If that leaves a
 * vector without a mask, the vectors that hold more CPUs than their mask
 * of @fresh narrow to it (irq_spread_dev_narrow()), keeping CPUs they
 * had, and the vectors left try again.  A vector for which there is still
 * none takes its best slot alone (irq_spread_dev_repair_slot()).
 * The vectors keeping a CPU are counted in the load; those in @empty are
 * not, and are when this returns (but one that could not be placed).
 */
static void irq_spread_dev_repair(struct irq_spread_dev *sd,
				  unsigned long *empty)
{
	struct irq_spread_topology *topo = sd->topo;
	unsigned int n = topo->nr_cpus, nr = sd->nr_active, i, j, k;
	unsigned long *fresh, *used;
	int ret;

	fresh = kvcalloc(array_size(nr, sd->stride), sizeof(long), GFP_KERNEL);
	used = bitmap_zalloc(nr, GFP_KERNEL);
	if (!fresh || !used)
		goto slots;
	/* The fresh placement, with none of the device's own load. */
	irq_spread_dev_release(sd, nr, sd->staged);
	ret = irq_spread_dev_spread(sd, nr, sd->policy, fresh, 0);
	if (ret)
		goto hold;
	irq_spread_dev_release(sd, nr, fresh);

	/* Each vector keeping a CPU has its equal, if any, in @fresh. */
	for (j = 0; j < nr; j++) {
		if (test_bit(j, empty))
			continue;
		for (i = 0; i < nr; i++) {
			if (!test_bit(i, used) &&
			    bitmap_equal(fresh + i * sd->stride,
					 irq_spread_dev_mask(sd, sd->staged, j), n)) {
				__set_bit(i, used);
				break;
			}
		}
	}
	irq_spread_dev_take_fresh(sd, fresh, empty, used);
	if (!bitmap_empty(empty, nr) && irq_spread_dev_narrow(sd, fresh, empty, used))
		irq_spread_dev_take_fresh(sd, fresh, empty, used);
hold:
	/* The vectors keeping a CPU, and those just placed, count again. */
	for (j = 0; j < nr; j++) {
		if (!test_bit(j, empty))
			irq_spread_dev_hold(sd, 1, irq_spread_dev_mask(sd, sd->staged, j));
	}
slots:
	for_each_set_bit(k, empty, nr) {
		ret = irq_spread_dev_repair_slot(sd, k);
		if (ret)
			dev_warn(sd->dev, "irq_spread: vector %u not placed: %d\n",
				 sd->pre + k, ret);
	}
	bitmap_free(used);
	kvfree(fresh);
}

/*
 * Apply @sd->staged, the placement after a CPU went or came, if a spread
 * vector @moved or the device has a reserved vector on every CPU, which
 * follows every CPU; apply only what changed, and keep going past a
 * vector the interrupt core refuses, which the next set of the device's
 * policy places (irq_spread_dev_set()).
 */
static void irq_spread_dev_hotplug_commit(struct irq_spread_dev *sd, bool moved)
{
	unsigned int k;

	for (k = 0; !moved && k < sd->pre + sd->post; k++)
		moved = sd->reserved[k] == IRQ_SPREAD_ALL_CPUS;
	if (!moved)
		return;
	if (irq_spread_dev_commit(sd, sd->staged, sd->nr_active, 0))
		sd->refused = true;
	swap(sd->placed, sd->staged);
	irq_spread_dev_committed(sd);
}

/* @cpu is leaving: move only the vectors of @sd whose mask holds it. */
static void irq_spread_dev_cpu_offline(struct irq_spread_dev *sd,
				       unsigned int cpu)
{
	size_t longs = array_size(sd->nr_active, sd->stride);
	unsigned int n = sd->topo->nr_cpus, k;
	struct irq_spread_vec *vec;
	unsigned long *mask, *empty;
	bool moved = false;

	lockdep_assert_held(&sd->lock);
	empty = sd->empty;
	bitmap_zero(empty, sd->nr_active);
	irq_spread_dev_load(sd, false, true);
	memcpy(sd->staged, sd->placed, longs * sizeof(long));
	for (k = 0; k < sd->nr_active; k++) {
		mask = irq_spread_dev_mask(sd, sd->staged, k);
		if (!test_bit(cpu, mask))
			continue;
		/* Where it goes back to: its first home, if moved before. */
		vec = sd->vec[sd->pre + k];
		if (!vec->displaced) {
			bitmap_copy(vec->before_hotplug, mask, sd->stride * BITS_PER_LONG);
			vec->displaced = true;
		}
		/* A vector with other CPUs keeps them. */
		irq_spread_dev_release(sd, 1, mask);
		__clear_bit(cpu, mask);
		if (bitmap_empty(mask, n))
			__set_bit(k, empty);
		else
			irq_spread_dev_hold(sd, 1, mask);
		moved = true;
	}
	if (!bitmap_empty(empty, sd->nr_active))
		irq_spread_dev_repair(sd, empty);
	/* The interrupts on @cpu: the interrupt core moves them after this. */
	sd->going = cpu;
	irq_spread_dev_hotplug_commit(sd, moved);
	sd->going = -1;
	irq_spread_dev_load(sd, false, false);
}

/**
 * irq_spread_devs_cpu_offline - a CPU of a topology is going offline
 * @topo: the machine
 * @cpu: the CPU, still online
 *
 * Marks @cpu leaving, so that no spread uses it any more, and moves off it
 * the vectors of every device whose mask holds it, except those the
 * administrator set (the interrupt core moves them if it must).  Nothing
 * else moves.
 *
 * Context: process context, may sleep; from a CPU hotplug callback, with
 * the CPU hotplug lock held.
 */
void irq_spread_devs_cpu_offline(struct irq_spread_topology *topo,
				 unsigned int cpu)
{
	struct irq_spread_dev *sd;

	mutex_lock(&topo->devs_lock);
	if (topo->leaving)
		set_bit(cpu, topo->leaving);
	list_for_each_entry(sd, &topo->devs, list) {
		mutex_lock(&sd->lock);
		irq_spread_dev_cpu_offline(sd, cpu);
		mutex_unlock(&sd->lock);
	}
	mutex_unlock(&topo->devs_lock);
	irq_spread_pools_cpu_offline(topo, cpu);
}
EXPORT_SYMBOL_IF_KUNIT(irq_spread_devs_cpu_offline);

/*
 * @cpu came back: the vectors that CPU hotplug displaced go back home, if
 * every CPU of their home is there again; nothing else moves.
 */
static void irq_spread_dev_cpu_back(struct irq_spread_dev *sd)
{
	struct irq_spread_topology *topo = sd->topo;
	size_t longs = array_size(sd->nr_active, sd->stride);
	unsigned int n = topo->nr_cpus, k;
	struct irq_spread_vec *vec;
	unsigned long *mask;
	bool moved = false;

	lockdep_assert_held(&sd->lock);
	irq_spread_dev_load(sd, false, true);
	irq_spread_dev_eligible(sd, sd->scratch);
	memcpy(sd->staged, sd->placed, longs * sizeof(long));
	for (k = 0; k < sd->nr_active; k++) {
		vec = sd->vec[sd->pre + k];
		if (!vec->displaced || !bitmap_subset(vec->before_hotplug, sd->scratch, n))
			continue;
		mask = irq_spread_dev_mask(sd, sd->staged, k);
		irq_spread_dev_release(sd, 1, mask);
		bitmap_copy(mask, vec->before_hotplug, sd->stride * BITS_PER_LONG);
		irq_spread_dev_hold(sd, 1, mask);
		vec->displaced = false;
		moved = true;
	}
	irq_spread_dev_hotplug_commit(sd, moved);
	irq_spread_dev_load(sd, false, false);
}

/**
 * irq_spread_devs_cpu_online - a CPU of a topology came online
 * @topo: the machine
 * @cpu: the CPU, online; or one that went offline, to undo its marking
 *	when taking it offline failed
 *
 * The inverse of irq_spread_devs_cpu_offline(): every vector that CPU
 * hotplug moved goes back to where it was before, once all the CPUs it
 * had are online, and only those vectors move.  A device last placed
 * while @cpu could not be used (registered, or written a policy, while it
 * was offline) is placed afresh instead, so that it uses @cpu too; only
 * its vectors whose mask changed are applied.  Failures are logged: a
 * device that cannot be placed keeps its placement.
 *
 * Context: process context, may sleep; from a CPU hotplug callback, with
 * the CPU hotplug lock held.
 */
void irq_spread_devs_cpu_online(struct irq_spread_topology *topo,
				unsigned int cpu)
{
	struct irq_spread_dev *sd;
	int ret;

	mutex_lock(&topo->devs_lock);
	if (topo->leaving)
		clear_bit(cpu, topo->leaving);
	list_for_each_entry(sd, &topo->devs, list) {
		mutex_lock(&sd->lock);
		if (test_bit(cpu, sd->placed_within)) {
			irq_spread_dev_cpu_back(sd);
		} else {
			ret = irq_spread_dev_respread(sd, sd->nr_asked,
						      sd->policy, 0);
			if (ret)
				dev_warn(sd->dev, "irq_spread: vectors not placed again: %d\n",
					 ret);
		}
		mutex_unlock(&sd->lock);
	}
	mutex_unlock(&topo->devs_lock);
	irq_spread_pools_cpu_online(topo, cpu);
}
EXPORT_SYMBOL_IF_KUNIT(irq_spread_devs_cpu_online);

/*
 * While the system suspends and resumes (cpuhp_tasks_frozen), the devices'
 * placement stays: the interrupt core moves their interrupts off each CPU
 * and brings them home with it.  Pools follow their own placement.
 */
static int irq_spread_cpu_online(unsigned int cpu)
{
	if (cpuhp_tasks_frozen)
		irq_spread_pools_cpu_online(&irq_spread_system, cpu);
	else
		irq_spread_devs_cpu_online(&irq_spread_system, cpu);
	return 0;
}

/*
 * The CPU is still online, and its interrupts move off it later: place
 * the vectors first, so that the interrupt core finds where they go.
 */
static int irq_spread_cpu_offline(unsigned int cpu)
{
	if (cpuhp_tasks_frozen)
		irq_spread_pools_cpu_offline(&irq_spread_system, cpu);
	else
		irq_spread_devs_cpu_offline(&irq_spread_system, cpu);
	return 0;
}

static int __init irq_spread_dev_init(void)
{
	int ret;

	ret = cpuhp_setup_state_nocalls(CPUHP_AP_ONLINE_DYN,
					"lib/irq_spread:online",
					irq_spread_cpu_online,
					irq_spread_cpu_offline);
	if (ret < 0)
		pr_err("no CPU hotplug state, vectors will not follow CPUs: %d\n",
		       ret);
	return 0;
}
core_initcall(irq_spread_dev_init);
