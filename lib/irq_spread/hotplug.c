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
 * them home.  Pools have no part here: the interrupt core asks them
 * (pool.c).
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
#include <linux/notifier.h>
#include <linux/overflow.h>
#include <linux/printk.h>
#include <linux/slab.h>
#include <linux/suspend.h>
#include <linux/string.h>

#include <kunit/visibility.h>

#include "device.h"

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

/* No mask: the end of a chain of &irq_spread_repair.next. */
#define IRQ_SPREAD_REPAIR_NONE	UINT_MAX

/**
 * struct irq_spread_repair - a fresh placement, and where its masks are
 * @fresh: the masks of the fresh placement, one per vector in use
 * @used: the masks of @fresh a vector has: one of those keeping their CPUs
 *	that equals it, or one that took it
 * @kept: the CPUs of the vectors that have a mask
 * @first: per CPU, the lowest numbered mask of @fresh that holds it, or
 *	IRQ_SPREAD_REPAIR_NONE
 * @next: per mask of @fresh, the next one equal to it, or
 *	IRQ_SPREAD_REPAIR_NONE
 *
 * Two masks of one spread are equal or share no CPU: a slot's CPU alone,
 * or the threads of a core no other vector of the spread is on.  So the
 * masks of @fresh that equal a mask, or lie within it, are found from its
 * CPUs' @first and the chains of @next, not by comparing every two.
 */
struct irq_spread_repair {
	unsigned long *fresh;
	unsigned long *used;
	unsigned long *kept;
	unsigned int *first;
	unsigned int *next;
};

static void irq_spread_repair_free(struct irq_spread_repair *r)
{
	kvfree(r->fresh);
	bitmap_free(r->used);
	bitmap_free(r->kept);
	kvfree(r->first);
	kfree(r->next);
}

static int irq_spread_repair_alloc(struct irq_spread_dev *sd,
				   struct irq_spread_repair *r)
{
	unsigned int n = sd->topo->nr_cpus, nr = sd->nr_active;

	r->fresh = kvcalloc(array_size(nr, sd->stride), sizeof(long), GFP_KERNEL);
	r->used = bitmap_zalloc(nr, GFP_KERNEL);
	r->kept = bitmap_zalloc(n, GFP_KERNEL);
	r->first = kvmalloc_array(n, sizeof(*r->first), GFP_KERNEL);
	r->next = kmalloc_array(nr, sizeof(*r->next), GFP_KERNEL);
	if (!r->fresh || !r->used || !r->kept || !r->first || !r->next) {
		irq_spread_repair_free(r);
		return -ENOMEM;
	}
	return 0;
}

/* Mask @i of @r->fresh. */
static unsigned long *irq_spread_repair_mask(const struct irq_spread_dev *sd,
					     const struct irq_spread_repair *r,
					     unsigned int i)
{
	return r->fresh + i * sd->stride;
}

/*
 * Fill @r->first and @r->next from @r->fresh, the highest numbered mask
 * first: each mask goes before those equal to it in its CPUs' chain.
 */
static void irq_spread_repair_index(const struct irq_spread_dev *sd,
				    struct irq_spread_repair *r)
{
	unsigned int n = sd->topo->nr_cpus, i, c;
	const unsigned long *m;

	memset(r->first, 0xff, array_size(n, sizeof(*r->first)));
	for (i = sd->nr_active; i-- > 0;) {
		m = irq_spread_repair_mask(sd, r, i);
		c = find_first_bit(m, n);
		r->next[i] = c < n ? r->first[c] : IRQ_SPREAD_REPAIR_NONE;
		for_each_set_bit(c, m, n)
			r->first[c] = i;
	}
}

/*
 * The lowest numbered mask of @r->fresh that no vector has and that
 * equals @mask, or lies within it (@within); IRQ_SPREAD_REPAIR_NONE if
 * there is none.  With @used, the lowest such mask a vector has instead.
 */
static unsigned int irq_spread_repair_find(const struct irq_spread_dev *sd,
					   const struct irq_spread_repair *r,
					   const unsigned long *mask,
					   bool within, bool used)
{
	unsigned int n = sd->topo->nr_cpus, best = IRQ_SPREAD_REPAIR_NONE;
	unsigned int c, i;
	const unsigned long *m;

	/* An equal mask has @mask's first CPU: look no further. */
	for_each_set_bit(c, mask, n) {
		i = r->first[c];
		m = i < best ? irq_spread_repair_mask(sd, r, i) : NULL;
		if (m && (within ? bitmap_subset(m, mask, n) :
			  bitmap_equal(m, mask, n))) {
			while (i != IRQ_SPREAD_REPAIR_NONE &&
			       test_bit(i, r->used) != used)
				i = r->next[i];
			best = min(best, i);
		}
		if (!within)
			break;
	}
	return best;
}

/* The CPUs of the vectors not in @empty, in @r->kept. */
static void irq_spread_repair_kept(const struct irq_spread_dev *sd,
				   struct irq_spread_repair *r,
				   const unsigned long *empty)
{
	unsigned int n = sd->topo->nr_cpus, j;

	bitmap_zero(r->kept, n);
	for (j = 0; j < sd->nr_active; j++) {
		if (!test_bit(j, empty))
			bitmap_or(r->kept, r->kept,
				  irq_spread_dev_mask(sd, sd->staged, j), n);
	}
}

/*
 * Each vector in @empty takes, in order, the next mask of @r->fresh that
 * no vector has and that holds none of the CPUs of the vectors that have
 * a mask, and leaves @empty.
 */
static void irq_spread_repair_take(struct irq_spread_dev *sd,
				   struct irq_spread_repair *r,
				   unsigned long *empty)
{
	unsigned int n = sd->topo->nr_cpus, nr = sd->nr_active, i = 0, k;
	const unsigned long *m;

	for_each_set_bit(k, empty, nr) {
		while (i < nr &&
		       (test_bit(i, r->used) ||
			bitmap_intersects(irq_spread_repair_mask(sd, r, i),
					  r->kept, n)))
			i++;
		if (i == nr)
			return;
		m = irq_spread_repair_mask(sd, r, i);
		bitmap_copy(irq_spread_dev_mask(sd, sd->staged, k), m,
			    sd->stride * BITS_PER_LONG);
		bitmap_or(r->kept, r->kept, m, n);
		__set_bit(i, r->used);
		__clear_bit(k, empty);
	}
}

/*
 * No mask of @r->fresh is free for some vector in @empty: a vector keeping
 * CPUs that has no equal in @r->fresh may hold more than its mask there (a
 * numa-core vector alone on its core has the whole core, and is no longer
 * alone once the vector that lost its CPU belongs on the other thread).
 * Each such vector whose mask holds a mask of @r->fresh no vector has
 * narrows to the lowest numbered, the CPUs it keeps being among those it
 * had, and remembers its home to go back to with the others.  Returns
 * whether one narrowed.
 */
static bool irq_spread_repair_narrow(struct irq_spread_dev *sd,
				     struct irq_spread_repair *r,
				     const unsigned long *empty)
{
	struct irq_spread_vec *vec;
	bool narrowed = false;
	unsigned long *mask;
	unsigned int i, j;

	for (j = 0; j < sd->nr_active; j++) {
		mask = irq_spread_dev_mask(sd, sd->staged, j);
		if (test_bit(j, empty) ||
		    irq_spread_repair_find(sd, r, mask, false, true) !=
		    IRQ_SPREAD_REPAIR_NONE)
			continue;
		i = irq_spread_repair_find(sd, r, mask, true, false);
		if (i == IRQ_SPREAD_REPAIR_NONE)
			continue;
		vec = sd->vec[sd->pre + j];
		if (!vec->displaced) {
			bitmap_copy(vec->before_hotplug, mask,
				    sd->stride * BITS_PER_LONG);
			vec->displaced = true;
		}
		bitmap_copy(mask, irq_spread_repair_mask(sd, r, i),
			    sd->stride * BITS_PER_LONG);
		__set_bit(i, r->used);
		narrowed = true;
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
 * of the fresh placement narrow to it (irq_spread_repair_narrow()),
 * keeping CPUs they had, and the vectors left try again.  A vector for
 * which there is still none takes its best slot alone
 * (irq_spread_dev_repair_slot()).  Besides the fresh placement, this is
 * linear in the vectors and their masks.
 * The vectors keeping a CPU are counted in the load; those in @empty are
 * not, and are when this returns (but one that could not be placed).
 */
static void irq_spread_dev_repair(struct irq_spread_dev *sd,
				  unsigned long *empty)
{
	unsigned int nr = sd->nr_active, i, j, k;
	struct irq_spread_repair r;
	int ret;

	if (irq_spread_repair_alloc(sd, &r))
		goto slots;
	/* The fresh placement, with none of the device's own load. */
	irq_spread_dev_release(sd, nr, sd->staged);
	ret = irq_spread_dev_spread(sd, nr, sd->policy, r.fresh, 0);
	if (ret)
		goto hold;
	irq_spread_dev_release(sd, nr, r.fresh);
	irq_spread_repair_index(sd, &r);

	/* Each vector keeping a CPU has its equal, if any, in @r.fresh. */
	for (j = 0; j < nr; j++) {
		if (test_bit(j, empty))
			continue;
		i = irq_spread_repair_find(sd, &r,
					   irq_spread_dev_mask(sd, sd->staged, j),
					   false, false);
		if (i != IRQ_SPREAD_REPAIR_NONE)
			__set_bit(i, r.used);
	}
	irq_spread_repair_kept(sd, &r, empty);
	irq_spread_repair_take(sd, &r, empty);
	if (!bitmap_empty(empty, nr) && irq_spread_repair_narrow(sd, &r, empty)) {
		irq_spread_repair_kept(sd, &r, empty);
		irq_spread_repair_take(sd, &r, empty);
	}
hold:
	/* The vectors keeping a CPU, and those just placed, count again. */
	for (j = 0; j < nr; j++) {
		if (!test_bit(j, empty))
			irq_spread_dev_hold(sd, 1, irq_spread_dev_mask(sd, sd->staged, j));
	}
	irq_spread_repair_free(&r);
slots:
	for_each_set_bit(k, empty, nr) {
		ret = irq_spread_dev_repair_slot(sd, k);
		if (ret)
			dev_warn(sd->dev, "irq_spread: vector %u not placed: %d\n",
				 sd->pre + k, ret);
	}
}

/* Whether @sd has a reserved vector on every CPU, which follows every CPU. */
static bool irq_spread_dev_follows_all(const struct irq_spread_dev *sd)
{
	unsigned int k;

	for (k = 0; k < sd->pre + sd->post; k++) {
		if (sd->reserved[k] == IRQ_SPREAD_ALL_CPUS)
			return true;
	}
	return false;
}

/*
 * Whether CPU hotplug of @cpu may move a vector of @sd: one of its spread
 * vectors is on @cpu (@back: was displaced), or it has a reserved vector
 * on every CPU.  The devices it may not are not touched at all.
 */
static bool irq_spread_dev_affected(const struct irq_spread_dev *sd,
				    unsigned int cpu, bool back)
{
	unsigned int k;

	for (k = 0; k < sd->nr_active; k++) {
		if (back ? sd->vec[sd->pre + k]->displaced :
		    test_bit(cpu, irq_spread_dev_mask(sd, sd->placed, k)))
			return true;
	}
	return irq_spread_dev_follows_all(sd);
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
	if (!moved && !irq_spread_dev_follows_all(sd))
		return;
	if (irq_spread_dev_commit(sd, sd->staged, sd->nr_active, 0))
		sd->refused = true;
	swap(sd->placed, sd->staged);
	irq_spread_dev_committed(sd);
}

/*
 * @cpu is leaving, or is gone (@gone: it went while the system suspended):
 * move only the vectors of @sd whose mask holds it.
 */
static void irq_spread_dev_cpu_offline(struct irq_spread_dev *sd,
				       unsigned int cpu, bool gone)
{
	size_t longs = array_size(sd->nr_active, sd->stride);
	unsigned int n = sd->topo->nr_cpus, k;
	struct irq_spread_vec *vec;
	unsigned long *mask, *empty;
	bool moved = false;

	lockdep_assert_held(&sd->lock);
	if (!irq_spread_dev_affected(sd, cpu, false))
		return;
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
	/*
	 * The interrupts on @cpu: the interrupt core moves them after this;
	 * those of a CPU gone, it moved already, and they are applied.
	 */
	sd->going = gone ? -1 : cpu;
	irq_spread_dev_hotplug_commit(sd, moved);
	sd->going = -1;
	irq_spread_dev_load(sd, false, false);
}

/* @cpu is leaving, or gone (@gone): the devices' vectors move. */
static void irq_spread_devs_leave(struct irq_spread_topology *topo,
				  unsigned int cpu, bool gone)
{
	struct irq_spread_dev *sd;

	mutex_lock(&topo->devs_lock);
	if (topo->leaving)
		set_bit(cpu, topo->leaving);
	list_for_each_entry(sd, &topo->devs, list) {
		mutex_lock(&sd->lock);
		irq_spread_dev_cpu_offline(sd, cpu, gone);
		mutex_unlock(&sd->lock);
	}
	mutex_unlock(&topo->devs_lock);
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
	irq_spread_devs_leave(topo, cpu, false);
}
EXPORT_SYMBOL_IF_KUNIT(irq_spread_devs_cpu_offline);

/*
 * @cpu came back: the vectors that CPU hotplug displaced go back home, if
 * every CPU of their home is there again; nothing else moves.
 */
static void irq_spread_dev_cpu_back(struct irq_spread_dev *sd,
				    unsigned int cpu)
{
	struct irq_spread_topology *topo = sd->topo;
	size_t longs = array_size(sd->nr_active, sd->stride);
	unsigned int n = topo->nr_cpus, k;
	struct irq_spread_vec *vec;
	unsigned long *mask;
	bool moved = false;

	lockdep_assert_held(&sd->lock);
	if (!irq_spread_dev_affected(sd, cpu, true))
		return;
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
			irq_spread_dev_cpu_back(sd, cpu);
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
}
EXPORT_SYMBOL_IF_KUNIT(irq_spread_devs_cpu_online);

/**
 * irq_spread_devs_cpu_frozen - a CPU went or came while the system suspends
 * @topo: the machine
 * @cpu: the CPU
 * @gone: it went offline; else it came back
 *
 * While the system suspends and resumes (cpuhp_tasks_frozen), nothing is
 * placed: the interrupt core moves the interrupts of every CPU but the
 * boot one off it and brings them home with it, as their placement
 * stays.  The CPUs that went are only noted, for irq_spread_devs_resumed().
 *
 * Context: any context; from a CPU hotplug callback.
 */
void irq_spread_devs_cpu_frozen(struct irq_spread_topology *topo,
				unsigned int cpu, bool gone)
{
	if (!topo->frozen)
		return;
	if (gone)
		set_bit(cpu, topo->frozen);
	else
		clear_bit(cpu, topo->frozen);
}
EXPORT_SYMBOL_IF_KUNIT(irq_spread_devs_cpu_frozen);

/**
 * irq_spread_devs_resumed - the system resumed
 * @topo: the machine
 *
 * A CPU that went offline while the system suspended and did not come
 * back is now taken offline as irq_spread_devs_cpu_offline() does, once:
 * its vectors move off it, where the interrupt core had moved their
 * interrupts for the time being.  For every other CPU nothing happens.
 *
 * Context: process context, may sleep.
 */
void irq_spread_devs_resumed(struct irq_spread_topology *topo)
{
	unsigned int cpu;

	if (!topo->frozen)
		return;
	for_each_set_bit(cpu, topo->frozen, topo->nr_cpus) {
		clear_bit(cpu, topo->frozen);
		irq_spread_devs_leave(topo, cpu, true);
	}
}
EXPORT_SYMBOL_IF_KUNIT(irq_spread_devs_resumed);

static int irq_spread_cpu_online(unsigned int cpu)
{
	if (cpuhp_tasks_frozen)
		irq_spread_devs_cpu_frozen(&irq_spread_system, cpu, false);
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
		irq_spread_devs_cpu_frozen(&irq_spread_system, cpu, true);
	else
		irq_spread_devs_cpu_offline(&irq_spread_system, cpu);
	return 0;
}

static int irq_spread_pm_notify(struct notifier_block *nb,
				unsigned long action, void *data)
{
	switch (action) {
	case PM_POST_SUSPEND:
	case PM_POST_HIBERNATION:
	case PM_POST_RESTORE:
		irq_spread_devs_resumed(&irq_spread_system);
		break;
	}
	return NOTIFY_DONE;
}

static struct notifier_block irq_spread_pm_nb = {
	.notifier_call = irq_spread_pm_notify,
};

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
	ret = register_pm_notifier(&irq_spread_pm_nb);
	if (ret)
		pr_err("no PM notifier, a CPU not back after resume keeps its vectors: %d\n",
		       ret);
	return 0;
}
core_initcall(irq_spread_dev_init);
