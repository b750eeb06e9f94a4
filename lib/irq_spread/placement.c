// SPDX-License-Identifier: GPL-2.0
/*
 * irq_spread placements: where a device's vectors go, and how a new
 * placement reaches the interrupts.
 *
 * The spread vectors in use are placed by the engine; reserved vectors
 * follow the spread vector the driver named, or take every eligible CPU,
 * and are never counted in the load.  A commit gives each attached
 * vector's interrupt its mask as affinity and hint, touching only the
 * vectors whose mask changed and never one the administrator set.  With
 * %IRQ_SPREAD_COMMIT_UNDO (a policy write, irq_spread_dev_set_vectors())
 * it is all or nothing: if the interrupt core refuses one vector, the ones
 * already moved are moved back, and the placement and the load are as
 * they were.
 *
 * Every change of a vector's CPUs after registration is told to the
 * driver's &irq_spread_dev_ops.changed, from a work item with no lock
 * held, so that it may take the locks XPS needs (netif_set_xps_queue()
 * takes the CPU hotplug lock, which a CPU hotplug callback holds).
 */
#define pr_fmt(fmt) "irq_spread: " fmt

#include <linux/bitmap.h>
#include <linux/cpumask.h>
#include <linux/device.h>
#include <linux/irq_spread.h>
#include <linux/lockdep.h>
#include <linux/minmax.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>

#include "device.h"

/**
 * irq_spread_dev_spread - place some of a device's vectors
 * @sd: the device
 * @nvec: number of vectors
 * @policy: under this policy
 * @masks: where to write their masks, @sd->stride longs each
 * @flags: for irq_spread_topo_spread()
 *
 * Within the CPUs the device may use, counted in the load but for a
 * placement-only device, whose vectors are placed on the load of the
 * others and never counted: irq_spread_dev_release() and
 * irq_spread_dev_hold() then do nothing either.
 *
 * Context: process context, may sleep.
 * Return: as irq_spread_topo_spread().
 */
int irq_spread_dev_spread(struct irq_spread_dev *sd, unsigned int nvec,
			  enum irq_spread_policy policy, unsigned long *masks,
			  unsigned int flags)
{
	if (sd->flags & IRQ_SPREAD_DEV_PLACE_ONLY)
		flags |= IRQ_SPREAD_NO_HOLD;
	return irq_spread_topo_spread(sd->topo, sd->node, nvec, policy,
				      irq_spread_dev_exclude(sd), masks,
				      sd->stride, flags);
}

/* Take @nvec masks of @sd out of the load, as irq_spread_topo_release(). */
void irq_spread_dev_release(struct irq_spread_dev *sd, unsigned int nvec,
			    const unsigned long *masks)
{
	if (!(sd->flags & IRQ_SPREAD_DEV_PLACE_ONLY))
		irq_spread_topo_release(sd->topo, nvec, masks, sd->stride);
}

/* Count @nvec masks of @sd in the load again, as irq_spread_topo_hold(). */
void irq_spread_dev_hold(struct irq_spread_dev *sd, unsigned int nvec,
			 const unsigned long *masks)
{
	if (!(sd->flags & IRQ_SPREAD_DEV_PLACE_ONLY))
		irq_spread_topo_hold(sd->topo, nvec, masks, sd->stride);
}

/* Count placed mask @k of @sd in the load (@hold) or take it out. */
static void irq_spread_dev_load_one(struct irq_spread_dev *sd, unsigned int k,
				    bool hold)
{
	const unsigned long *mask = sd->placed + k * sd->stride;

	if (hold)
		irq_spread_dev_hold(sd, 1, mask);
	else
		irq_spread_dev_release(sd, 1, mask);
}

/*
 * Count in the load (@hold) or take out of it the placed masks of @sd's
 * spread vectors in use that have an interrupt (@with_irq), or of those
 * that have none.  The load counts the first only: an operation that
 * places the device holds the others too while it runs, as the engine's
 * callers expect every vector in use counted, and takes them out after.
 */
void irq_spread_dev_load(struct irq_spread_dev *sd, bool with_irq, bool hold)
{
	unsigned int k;

	lockdep_assert_held(&sd->lock);
	for (k = 0; k < sd->nr_active; k++) {
		if (!!sd->vec[sd->pre + k]->irq == with_irq)
			irq_spread_dev_load_one(sd, k, hold);
	}
}

/*
 * Vector @vec of @sd got an interrupt (@hold) or lost it: a spread vector
 * in use counts in the load while it has one.
 */
void irq_spread_vec_load(struct irq_spread_dev *sd,
			 const struct irq_spread_vec *vec, bool hold)
{
	unsigned int k;

	lockdep_assert_held(&sd->lock);
	if (irq_spread_dev_spread_index(sd, vec->index, &k) &&
	    k < sd->nr_active)
		irq_spread_dev_load_one(sd, k, hold);
}

/**
 * irq_spread_dev_eligible - the CPUs a device's vectors may use now
 * @sd: the device
 * @dst: where to write them, @sd->stride longs
 *
 * The topology's eligible CPUs (irq_spread_topo_eligible()) that the
 * administrator allowed the device; all of them if none is.
 *
 * Context: @sd->lock held, or @sd not listed yet.
 */
void irq_spread_dev_eligible(const struct irq_spread_dev *sd,
			     unsigned long *dst)
{
	unsigned int n = sd->topo->nr_cpus;

	irq_spread_topo_eligible(sd->topo, dst);
	if (sd->restricted && !bitmap_subset(dst, sd->exclude, n))
		bitmap_andnot(dst, dst, sd->exclude, n);
}

/* Where reserved vector @v of @sd goes: an entry of @sd->reserved. */
static int irq_spread_dev_reserved(const struct irq_spread_dev *sd,
				   unsigned int v)
{
	return sd->reserved[v < sd->pre ? v : v - sd->nr];
}

/*
 * Write to @dst vector @v's mask under the placement @masks of @nr_active
 * spread vectors: for a spread vector, its own mask; for a reserved
 * vector, the mask of the spread vector it follows (modulo the ones in
 * use), or @sd->eligible.  Return false for a spread vector not in use,
 * which has no mask.
 */
static bool irq_spread_dev_vector_placement(const struct irq_spread_dev *sd,
					    const unsigned long *masks,
					    unsigned int nr_active, unsigned int v,
					    unsigned long *dst)
{
	unsigned int bits = sd->stride * BITS_PER_LONG, k;
	int with;

	if (irq_spread_dev_spread_index(sd, v, &k)) {
		if (k >= nr_active)
			return false;
	} else {
		with = irq_spread_dev_reserved(sd, v);
		if (with == IRQ_SPREAD_ALL_CPUS) {
			bitmap_copy(dst, sd->eligible, bits);
			return true;
		}
		k = with % nr_active;
	}
	bitmap_copy(dst, masks + k * sd->stride, bits);
	return true;
}

/*
 * A change of a vector's @cpus and @has_cpus goes between these two, with
 * @sd->lock held: irq_spread_dev_vector_mask() and
 * irq_spread_dev_vector_cpu() read them without a lock.  Interrupts are
 * off, so that a reader in an interrupt handler never spins on a write it
 * interrupted.
 */
void irq_spread_vec_write_begin(struct irq_spread_dev *sd, unsigned long *flags)
{
	lockdep_assert_held(&sd->lock);
	raw_spin_lock_irqsave(&sd->seq_lock, *flags);
	write_seqcount_begin(&sd->seq);
}

void irq_spread_vec_write_end(struct irq_spread_dev *sd, unsigned long flags)
{
	write_seqcount_end(&sd->seq);
	raw_spin_unlock_irqrestore(&sd->seq_lock, flags);
}

/* Copy vector @v's CPUs, as the driver sees them, to @dst; false if none. */
bool irq_spread_vec_cpus(const struct irq_spread_dev *sd,
			 unsigned int v, unsigned long *dst)
{
	const struct irq_spread_vec *vec = sd->vec[v];

	lockdep_assert_held(&sd->lock);
	if (vec->has_cpus)
		bitmap_copy(dst, vec->cpus, sd->stride * BITS_PER_LONG);
	return vec->has_cpus;
}

/*
 * Set vector @v's CPUs from the placement @masks of @nr_active spread
 * vectors: the administrator's mask if the administrator set the vector
 * and it is in use, else its mask in the placement.
 */
void irq_spread_vec_refresh(struct irq_spread_dev *sd, unsigned int v,
			    const unsigned long *masks,
			    unsigned int nr_active)
{
	struct irq_spread_vec *vec = sd->vec[v];
	unsigned long flags;

	/* A pool vector serves it: it has that vector's CPUs. */
	if (vec->pool)
		return;
	irq_spread_vec_write_begin(sd, &flags);
	vec->has_cpus = irq_spread_dev_vector_placement(sd, masks, nr_active,
							v, vec->cpus);
	if (vec->has_cpus && vec->admin)
		bitmap_copy(vec->cpus, vec->admin_mask,
			    sd->stride * BITS_PER_LONG);
	irq_spread_vec_write_end(sd, flags);
}

/* Give vector @vec the CPUs @mask, and tell the driver if they changed. */
static void irq_spread_vec_set_cpus(struct irq_spread_vec *vec,
				    const unsigned long *mask)
{
	struct irq_spread_dev *sd = vec->sd;
	unsigned int n = sd->topo->nr_cpus;
	unsigned long flags;

	if (vec->has_cpus && bitmap_equal(vec->cpus, mask, n))
		return;
	irq_spread_vec_write_begin(sd, &flags);
	bitmap_copy(vec->cpus, mask, sd->stride * BITS_PER_LONG);
	vec->has_cpus = true;
	irq_spread_vec_write_end(sd, flags);
	bitmap_zero(sd->changed, irq_spread_dev_nvec(sd));
	__set_bit(vec->index, sd->changed);
	irq_spread_dev_report(sd, sd->changed);
}

/**
 * irq_spread_vec_serve - a pool vector serves a placement-only device's vector
 * @vec: the vector, whose @pool is set
 * @mask: the pool vector's CPUs, @vec->sd->stride longs
 *
 * The vector has the pool vector's CPUs, from now on and whenever they
 * change; the driver is told if they differ from what it had.
 *
 * Context: the vector's device's lock held (inside the pool's lock).
 */
void irq_spread_vec_serve(struct irq_spread_vec *vec, const unsigned long *mask)
{
	lockdep_assert_held(&vec->sd->lock);
	irq_spread_vec_set_cpus(vec, mask);
}

/**
 * irq_spread_vec_unserve - no pool vector serves a vector any more
 * @vec: the vector, whose @pool was just cleared
 *
 * The vector has the CPUs of its device's placement again; the driver is
 * told if they differ from the pool vector's.
 *
 * Context: the vector's device's lock held (inside the pool's lock).
 */
void irq_spread_vec_unserve(struct irq_spread_vec *vec)
{
	struct irq_spread_dev *sd = vec->sd;
	unsigned long flags;

	lockdep_assert_held(&sd->lock);
	if (irq_spread_dev_vector_placement(sd, sd->placed, sd->nr_active,
					    vec->index, sd->scratch)) {
		irq_spread_vec_set_cpus(vec, sd->scratch);
		return;
	}
	/* A spread vector not in use has no CPUs. */
	irq_spread_vec_write_begin(sd, &flags);
	vec->has_cpus = false;
	irq_spread_vec_write_end(sd, flags);
}

/* Tell the driver, later and without locks, of the vectors in @changed. */
void irq_spread_dev_report(struct irq_spread_dev *sd,
			   const unsigned long *changed)
{
	unsigned int nvec = irq_spread_dev_nvec(sd);

	lockdep_assert_held(&sd->lock);
	if (!sd->ops || !sd->ops->changed || sd->dead ||
	    bitmap_empty(changed, nvec))
		return;
	bitmap_or(sd->pending, sd->pending, changed, nvec);
	schedule_work(&sd->work);
}

void irq_spread_dev_work(struct work_struct *work)
{
	struct irq_spread_dev *sd = container_of(work, struct irq_spread_dev,
						 work);
	unsigned int v;
	bool have;

	for (;;) {
		mutex_lock(&sd->lock);
		v = find_first_bit(sd->pending, irq_spread_dev_nvec(sd));
		if (sd->dead || v >= irq_spread_dev_nvec(sd)) {
			mutex_unlock(&sd->lock);
			return;
		}
		__clear_bit(v, sd->pending);
		have = irq_spread_vec_cpus(sd, v, sd->report);
		mutex_unlock(&sd->lock);
		if (have)
			sd->ops->changed(sd->priv, v, to_cpumask(sd->report));
	}
}

/*
 * Undo what a commit did to vector @vec's interrupt: its hint and affinity
 * back to what they were (the administrator's affinity for a vector the
 * commit handed back).
 */
static void irq_spread_vec_undo(struct irq_spread_dev *sd,
				struct irq_spread_vec *vec,
				const struct irq_spread_vec_undo *old)
{
	int ret = 0;

	if (!old->hinted) {
		/* The commit gave it its first hint. */
		irq_spread_vec_hint(sd, vec, NULL);
		vec->hinted = false;
	} else if (vec->hinted) {
		ret = irq_spread_vec_set(sd, vec, vec->hint[!vec->cur], true);
		if (!ret)
			vec->cur = !vec->cur;
	} else {
		/* The commit took the hint of a vector no longer in use. */
		irq_spread_vec_hint(sd, vec, vec->hint[vec->cur]);
		vec->hinted = true;
	}
	if (!ret && old->admin)
		ret = irq_spread_vec_set(sd, vec, vec->admin_mask, false);
	if (ret) {
		dev_warn(sd->dev, "irq_spread: IRQ %u not moved back: %d\n",
			 vec->irq, ret);
	}
}

/*
 * Make vector @v's interrupt follow its mask under the placement @masks of
 * @nr_active spread vectors (in @sd->scratch): apply it if the interrupt has
 * anything else (with @all, in any case), unless the administrator's, or
 * the interrupt core moves it off the CPU going offline (it asks where);
 * take the hint of a vector not in use away.  Record in @old what was
 * touched.
 */
static int irq_spread_dev_commit_one(struct irq_spread_dev *sd, unsigned int v,
				     const unsigned long *masks,
				     unsigned int nr_active, bool all,
				     struct irq_spread_vec_undo *old)
{
	struct irq_spread_vec *vec = sd->vec[v];
	unsigned int n = sd->topo->nr_cpus;
	int ret;

	if (!vec->irq)
		return 0;
	if (!irq_spread_dev_vector_placement(sd, masks, nr_active, v, sd->scratch)) {
		if (vec->hinted) {
			irq_spread_vec_hint(sd, vec, NULL);
			old->touched = true;
		}
		vec->hinted = false;
		return 0;
	}
	if (vec->admin || irq_spread_vec_core_moves(sd, vec))
		return 0;
	if (!all && vec->hinted && !old->admin &&
	    bitmap_equal(vec->hint[vec->cur], sd->scratch, n) &&
	    irq_spread_vec_placed_at(sd, vec, sd->scratch))
		return 0;
	ret = irq_spread_vec_apply(sd, vec, sd->scratch);
	if (!ret)
		old->touched = true;
	return ret;
}

/*
 * Make the attached vectors follow the placement @masks of @nr_active
 * spread vectors, which is about to replace @sd->placed, and give every
 * vector its new CPUs (&irq_spread_vec.cpus).  The administrator's vectors
 * are left alone, unless %IRQ_SPREAD_COMMIT_RESET in @flags hands them
 * back and applies every vector in use, changed or not.  Note in
 * @sd->changed the vectors whose CPUs change for the driver.
 *
 * With %IRQ_SPREAD_COMMIT_UNDO, on the first refusal, undo everything and
 * return the error: nothing changed.  Without, go on with the others and
 * return the first error.
 */
int irq_spread_dev_commit(struct irq_spread_dev *sd,
			  const unsigned long *masks,
			  unsigned int nr_active, unsigned int flags)
{
	bool reset = flags & IRQ_SPREAD_COMMIT_RESET;
	unsigned int nvec = irq_spread_dev_nvec(sd), n = sd->topo->nr_cpus;
	struct irq_spread_vec_undo *old;
	struct irq_spread_vec *vec;
	unsigned int v, u;
	bool want;
	int ret = 0, err;

	lockdep_assert_held(&sd->lock);
	old = sd->undo;
	memset(old, 0, array_size(nvec, sizeof(*old)));
	irq_spread_dev_eligible(sd, sd->eligible);
	bitmap_zero(sd->changed, nvec);

	for (v = 0; v < nvec; v++) {
		vec = sd->vec[v];
		old[v].admin = vec->admin;
		old[v].hinted = vec->hinted;
		/* A pool vector serves it, which its placement does not move. */
		if (vec->pool)
			continue;
		if (reset)
			vec->admin = false;
		want = irq_spread_dev_vector_placement(sd, masks, nr_active, v,
						       sd->scratch);
		if (want && vec->admin)
			bitmap_copy(sd->scratch, vec->admin_mask, n);
		if (want != vec->has_cpus ||
		    (want && !bitmap_equal(sd->scratch, vec->cpus, n)))
			__set_bit(v, sd->changed);

		err = irq_spread_dev_commit_one(sd, v, masks, nr_active, reset,
						&old[v]);
		if (!err)
			continue;
		if (!ret)
			ret = err;
		if (!(flags & IRQ_SPREAD_COMMIT_UNDO))
			continue;
		/* This one changed nothing; the ones before it go back. */
		for (u = v + 1; u-- > 0;) {
			if (old[u].touched)
				irq_spread_vec_undo(sd, sd->vec[u], &old[u]);
			sd->vec[u]->admin = old[u].admin;
		}
		bitmap_zero(sd->changed, nvec);
		goto out;
	}
	for (v = 0; v < nvec; v++)
		irq_spread_vec_refresh(sd, v, masks, nr_active);
out:
	return ret;
}

/**
 * irq_spread_dev_note_fresh - note that a device was placed afresh
 * @sd: the device, whose placement now reflects every CPU it may use
 *
 * No vector is displaced by CPU hotplug any more, and the CPUs the
 * placement could use are remembered, so that a CPU coming online that
 * was not among them, and that the device may use, places the device
 * afresh again.
 *
 * Context: the device's lock held.
 */
void irq_spread_dev_note_fresh(struct irq_spread_dev *sd)
{
	unsigned int v;

	lockdep_assert_held(&sd->lock);
	irq_spread_dev_eligible(sd, sd->placed_within);
	if (sd->restricted)
		bitmap_or(sd->placed_within, sd->placed_within, sd->exclude,
			  sd->topo->nr_cpus);
	for (v = 0; v < irq_spread_dev_nvec(sd); v++)
		sd->vec[v]->displaced = false;
}

/* After a commit: the aRFS map and the driver follow the changed vectors. */
void irq_spread_dev_committed(struct irq_spread_dev *sd)
{
	unsigned int v;

	lockdep_assert_held(&sd->lock);
	for_each_set_bit(v, sd->changed, irq_spread_dev_nvec(sd))
		irq_spread_vec_rmap(sd, sd->vec[v]);
	irq_spread_dev_report(sd, sd->changed);
}

/*
 * Place the first @nr_active spread vectors afresh under @policy, the
 * device's own vectors out of the load, and apply the placement (those
 * with an interrupt count in the load again), as
 * irq_spread_dev_commit() with @flags.  With %IRQ_SPREAD_COMMIT_UNDO, on
 * error the placement, the load and the interrupts are as they were.
 */
int irq_spread_dev_respread(struct irq_spread_dev *sd,
			    unsigned int nr_active,
			    enum irq_spread_policy policy, unsigned int flags)
{
	int ret;

	lockdep_assert_held(&sd->lock);
	irq_spread_dev_load(sd, true, false);
	ret = irq_spread_dev_spread(sd, nr_active, policy, sd->staged, 0);
	if (ret)
		goto hold;
	ret = irq_spread_dev_commit(sd, sd->staged, nr_active, flags);
	if (ret && (flags & IRQ_SPREAD_COMMIT_UNDO)) {
		irq_spread_dev_release(sd, nr_active, sd->staged);
		goto hold;
	}
	swap(sd->placed, sd->staged);
	sd->nr_active = nr_active;
	sd->policy = policy;
	sd->refused = ret < 0;
	irq_spread_dev_load(sd, false, false);
	irq_spread_dev_note_fresh(sd);
	irq_spread_dev_committed(sd);
	return ret;

hold:
	irq_spread_dev_load(sd, true, true);
	return ret;
}
