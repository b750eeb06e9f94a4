// SPDX-License-Identifier: GPL-2.0
/*
 * irq_spread devices and their interrupts: what the library applies to a
 * registered device's interrupts, how it tells the administrator's masks
 * from its own, and how it tells the driver.
 *
 * Application.  The spread vectors in use are placed by the engine;
 * reserved vectors follow the spread vector the driver named, or take
 * every eligible CPU, and are never counted in the load.  Each attached
 * vector's interrupt is given its mask as affinity and hint; whatever is
 * applied, only the vectors whose mask changed are touched.  A commit
 * with undo (a policy write, irq_spread_dev_set_vectors()) is all or
 * nothing: if the interrupt core refuses one vector, the ones already
 * moved are moved back.
 *
 * The administrator.  Each attached interrupt has the library's affinity
 * notifier.  The interrupt core calls it, from a work item, after every
 * irq_set_affinity() of the interrupt: the library's own, and a write to
 * /proc/irq/N/smp_affinity.  The notifier compares what the interrupt has
 * when it runs, not the copy the work took earlier, with the mask the
 * library set last (or, after a failed apply, the one the interrupt kept):
 * anything else is the administrator's, the vector is marked, and no
 * re-spread applies anything to it until a policy is written.  A copy
 * the interrupt no longer has is stale, however the work and the
 * library's applies interleave.  The interrupt core's own moves (CPU
 * hotplug migrating an interrupt off a dying CPU, startup) do not notify,
 * and a vector not in use cannot be marked.  A re-spread still places the
 * marked vectors, so that a vector's CPUs do not depend on which others
 * the administrator moved.  The notifier also keeps the driver's aRFS
 * reverse map in step, as there is only one notifier per interrupt.
 *
 * The driver's callback.  Every change of a vector's mask after
 * registration is told to the driver's &irq_spread_dev_ops.changed, from
 * a work item with no lock held, so that it may take the locks XPS needs
 * (netif_set_xps_queue() takes the CPU hotplug lock, which a CPU hotplug
 * callback holds).
 *
 * The interrupt core is reached through KUnit static stubs, so that KUnit
 * can test all of it without interrupts and play the administrator.
 */
#define pr_fmt(fmt) "irq_spread: " fmt

#include <linux/bitmap.h>
#include <linux/cpu_rmap.h>
#include <linux/cpumask.h>
#include <linux/device.h>
#include <linux/export.h>
#include <linux/interrupt.h>
#include <linux/irq.h>
#include <linux/irqdesc.h>
#include <linux/irq_spread.h>
#include <linux/lockdep.h>
#include <linux/mutex.h>
#include <linux/printk.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>

#include <kunit/static_stub.h>
#include <kunit/visibility.h>

#include "irq_spread_internal.h"

/**
 * irq_spread_irq_apply - set an interrupt's affinity and affinity hint
 * @irq: the interrupt
 * @mask: both; stays valid and unchanged until the next apply or hint
 *
 * Return: 0 or the interrupt core's error.  Without SMP there is nothing
 * to place, and nothing fails.
 */
int irq_spread_irq_apply(unsigned int irq, const struct cpumask *mask)
{
	KUNIT_STATIC_STUB_REDIRECT(irq_spread_irq_apply, irq, mask);
	if (!IS_ENABLED(CONFIG_SMP))
		return 0;
	return irq_set_affinity_and_hint(irq, mask);
}
EXPORT_SYMBOL_IF_KUNIT(irq_spread_irq_apply);

/**
 * irq_spread_irq_affinity - set an interrupt's affinity, not its hint
 * @irq: the interrupt
 * @mask: the affinity
 *
 * Return: 0 or the interrupt core's error.
 */
int irq_spread_irq_affinity(unsigned int irq, const struct cpumask *mask)
{
	KUNIT_STATIC_STUB_REDIRECT(irq_spread_irq_affinity, irq, mask);
	if (!IS_ENABLED(CONFIG_SMP))
		return 0;
	return irq_set_affinity(irq, mask);
}
EXPORT_SYMBOL_IF_KUNIT(irq_spread_irq_affinity);

/**
 * irq_spread_irq_hint - set or remove an interrupt's affinity hint
 * @irq: the interrupt
 * @hint: the hint, valid until the next one; %NULL to remove it
 */
void irq_spread_irq_hint(unsigned int irq, const struct cpumask *hint)
{
	KUNIT_STATIC_STUB_REDIRECT(irq_spread_irq_hint, irq, hint);
	if (IS_ENABLED(CONFIG_SMP))
		irq_update_affinity_hint(irq, hint);
}
EXPORT_SYMBOL_IF_KUNIT(irq_spread_irq_hint);

/**
 * irq_spread_irq_get - read an interrupt's affinity
 * @irq: the interrupt
 * @dst: where to write it
 *
 * The mask the interrupt core's affinity notification would report now:
 * while a move is pending (an interrupt that moves when it next fires),
 * the pending mask, else the affinity.
 *
 * Return: false, leaving @dst alone, if @irq has no descriptor.
 */
bool irq_spread_irq_get(unsigned int irq, struct cpumask *dst)
{
	struct irq_desc *desc;
	unsigned long flags;

	KUNIT_STATIC_STUB_REDIRECT(irq_spread_irq_get, irq, dst);
	desc = irq_to_desc(irq);
	if (!desc)
		return false;
	raw_spin_lock_irqsave(&desc->lock, flags);
#ifdef CONFIG_GENERIC_PENDING_IRQ
	if (irqd_is_setaffinity_pending(&desc->irq_data))
		cpumask_copy(dst, desc->pending_mask);
	else
#endif
		cpumask_copy(dst, irq_data_get_affinity_mask(&desc->irq_data));
	raw_spin_unlock_irqrestore(&desc->lock, flags);
	return true;
}
EXPORT_SYMBOL_IF_KUNIT(irq_spread_irq_get);

/**
 * irq_spread_irq_notifier - install or remove an interrupt's notifier
 * @irq: the interrupt
 * @notify: the library's notifier, or %NULL to remove it
 *
 * An interrupt has one affinity notifier; the library refuses to replace
 * another's (irq_cpu_rmap_add()'s, for one), which would silently stop it.
 *
 * Context: process context, the device's lock not held: removal waits
 * for a notification in progress, which takes it.
 * Return: 0; -EBUSY if @irq has another notifier; -EINVAL if it has no
 * descriptor.
 */
int irq_spread_irq_notifier(unsigned int irq,
			    struct irq_affinity_notify *notify)
{
	KUNIT_STATIC_STUB_REDIRECT(irq_spread_irq_notifier, irq, notify);
#ifdef CONFIG_SMP
	if (notify) {
		struct irq_desc *desc = irq_to_desc(irq);

		if (!desc)
			return -EINVAL;
		if (READ_ONCE(desc->affinity_notify)) {
			pr_warn("IRQ %u has an affinity notifier already (irq_cpu_rmap_add()?): give the rmap to irq_spread instead\n",
				irq);
			return -EBUSY;
		}
	}
#endif
	return irq_set_affinity_notifier(irq, notify);
}
EXPORT_SYMBOL_IF_KUNIT(irq_spread_irq_notifier);

/**
 * irq_spread_vec_notifier - whose affinity notifier a vector's interrupt has
 * @vec: the vector, attached
 *
 * Return: "irq_spread" for the vector's own, "other" for anyone else's,
 * "none".  For debugfs: read without the descriptor's lock.
 */
const char *irq_spread_vec_notifier(const struct irq_spread_vec *vec)
{
#ifdef CONFIG_SMP
	const struct irq_desc *desc = irq_to_desc(vec->irq);
	const struct irq_affinity_notify *notify;

	notify = desc ? READ_ONCE(desc->affinity_notify) : NULL;
	if (notify)
		return notify == &vec->notify ? "irq_spread" : "other";
#endif
	return "none";
}

/*
 * Vector @v's mask under the placement @masks of @nr_active vectors, into
 * @dst: a spread vector's own, a reserved vector's from the spread vector
 * it follows (modulo the ones in use) or @sd->eligible.  Return false for
 * a spread vector not in use, which has none.
 */
bool irq_spread_dev_want(const struct irq_spread_dev *sd,
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
 * A change of vectors' @now and @has_now, which irq_spread_dev_vector_mask()
 * and irq_spread_dev_vector_cpu() read without a lock: between these two,
 * with @sd->lock held.  Interrupts off, so that a reader in an interrupt
 * handler never spins on a write it interrupted.
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

/* Vector @v's CPUs, as the driver sees them, into @dst; false if none. */
bool irq_spread_dev_current(const struct irq_spread_dev *sd,
			    unsigned int v, unsigned long *dst)
{
	const struct irq_spread_vec *vec = sd->vec[v];

	lockdep_assert_held(&sd->lock);
	if (vec->has_now)
		bitmap_copy(dst, vec->now, sd->stride * BITS_PER_LONG);
	return vec->has_now;
}

/*
 * Vector @v's CPUs under the placement @masks of @nr_active spread
 * vectors, into @vec->now: the administrator's if the vector is in use and
 * the administrator's, else those of the placement.
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
	vec->has_now = irq_spread_dev_want(sd, masks, nr_active, v, vec->now);
	if (vec->has_now && vec->admin)
		bitmap_copy(vec->now, vec->admin_mask,
			    sd->stride * BITS_PER_LONG);
	irq_spread_vec_write_end(sd, flags);
}

/**
 * irq_spread_dev_rmap - make a device's aRFS reverse map again
 * @sd: the device
 *
 * From the spread vectors in use that have an interrupt: every CPU to the
 * nearest of them, object k for spread vector k (cpu_rmap_update()'s
 * siblings, package, node), else to the first of them.  So
 * cpu_rmap_lookup_index() never names a vector without an interrupt, as
 * irq_cpu_rmap_add() named only the interrupts requested.  Readers
 * (set_rps_cpu()) take entries without a lock: each names such a vector,
 * or the first, at every moment.
 *
 * Context: the device's lock held.
 */
void irq_spread_dev_rmap(struct irq_spread_dev *sd)
{
#ifdef CONFIG_CPU_RMAP
	const struct irq_spread_vec *vec;
	unsigned int cpu, k, first = 0;
	int err;

	lockdep_assert_held(&sd->lock);
	if (!sd->rmap)
		return;
	while (first < sd->nr_active && !sd->vec[sd->pre + first]->irq)
		first++;
	for_each_possible_cpu(cpu) {
		WRITE_ONCE(sd->rmap->near[cpu].index,
			   first < sd->nr_active ? first : 0);
		WRITE_ONCE(sd->rmap->near[cpu].dist, CPU_RMAP_DIST_INF);
	}
	for (k = first; k < sd->nr_active; k++) {
		vec = sd->vec[sd->pre + k];
		if (!vec->irq || !vec->has_now)
			continue;
		err = cpu_rmap_update(sd->rmap, k, to_cpumask(vec->now));
		if (err)
			dev_warn(sd->dev, "irq_spread: aRFS map of vector %u not updated: %d\n",
				 vec->index, err);
	}
#endif
}

/* Vector @vec's @now is @mask from now on: a change for the driver? */
static void irq_spread_vec_set_now(struct irq_spread_vec *vec,
				   const unsigned long *mask)
{
	struct irq_spread_dev *sd = vec->sd;
	unsigned int n = sd->topo->nr_cpus;
	unsigned long flags;

	if (vec->has_now && bitmap_equal(vec->now, mask, n))
		return;
	irq_spread_vec_write_begin(sd, &flags);
	bitmap_copy(vec->now, mask, sd->stride * BITS_PER_LONG);
	vec->has_now = true;
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
	irq_spread_vec_set_now(vec, mask);
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
	if (irq_spread_dev_want(sd, sd->placed, sd->nr_active, vec->index,
				sd->want)) {
		irq_spread_vec_set_now(vec, sd->want);
		return;
	}
	/* A spread vector not in use has no CPUs. */
	irq_spread_vec_write_begin(sd, &flags);
	vec->has_now = false;
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
		have = irq_spread_dev_current(sd, v, sd->report);
		mutex_unlock(&sd->lock);
		if (have)
			sd->ops->changed(sd->priv, v, to_cpumask(sd->report));
	}
}

/**
 * irq_spread_dev_flush - wait until the driver is told of every change
 * @sd: the device
 *
 * For KUnit, which checks the calls of &irq_spread_dev_ops.changed.
 *
 * Context: process context, the device's lock not held.
 */
void irq_spread_dev_flush(struct irq_spread_dev *sd)
{
	flush_work(&sd->work);
}
EXPORT_SYMBOL_IF_KUNIT(irq_spread_dev_flush);

/**
 * irq_spread_vec_seen - tell whether the administrator moved a vector's IRQ
 * @sd: the device, its lock held
 * @vec: a vector of @sd with an interrupt
 * @mask: the mask a notification copied, which counts only if the
 *	interrupt still has it; %NULL to read what it has without one
 *
 * What the interrupt has, when it is not what the library set last, is the
 * administrator's: the vector takes it and keeps it until a policy write
 * hands it back, and the driver is told.
 */
void irq_spread_vec_seen(struct irq_spread_dev *sd, struct irq_spread_vec *vec,
			 const cpumask_t *mask)
{
	unsigned int n = sd->topo->nr_cpus, k;
	unsigned long *now = sd->want;
	unsigned long flags;

	lockdep_assert_held(&sd->lock);
	if (!irq_spread_irq_get(vec->irq, to_cpumask(now)) ||
	    (mask && !bitmap_equal(cpumask_bits(mask), now, n)) ||
	    bitmap_equal(now, vec->seen, n))
		return;
	/* Only a vector in use can be the administrator's. */
	if (irq_spread_dev_spread_index(sd, vec->index, &k) &&
	    k >= sd->nr_active)
		return;

	vec->admin = true;
	bitmap_zero(vec->admin_mask, sd->stride * BITS_PER_LONG);
	bitmap_copy(vec->admin_mask, now, n);
	bitmap_copy(vec->seen, vec->admin_mask, sd->stride * BITS_PER_LONG);
	irq_spread_vec_write_begin(sd, &flags);
	bitmap_copy(vec->now, vec->admin_mask, sd->stride * BITS_PER_LONG);
	vec->has_now = true;
	irq_spread_vec_write_end(sd, flags);
	irq_spread_dev_rmap(sd);
	bitmap_zero(sd->changed, irq_spread_dev_nvec(sd));
	__set_bit(vec->index, sd->changed);
	irq_spread_dev_report(sd, sd->changed);
}

/*
 * The interrupt core's notification that @notify's interrupt has @mask: the
 * library's own apply, or the administrator's write.
 *
 * The interrupt core copies the mask when its work runs, and this waits
 * for the device's lock after that: an apply of the library's in between
 * makes the copy stale.  So the copy counts only if the interrupt still
 * has it; a stale one is followed by the notification of whatever changed
 * the interrupt since.
 */
void irq_spread_vec_notify(struct irq_affinity_notify *notify,
			   const cpumask_t *mask)
{
	struct irq_spread_vec *vec = container_of(notify, struct irq_spread_vec,
						  notify);
	struct irq_spread_dev *sd = vec->sd;

	mutex_lock(&sd->lock);
	if (!sd->dead && vec->irq)
		irq_spread_vec_seen(sd, vec, mask);
	mutex_unlock(&sd->lock);
}

/* The notifier's memory is the vector's, freed after its removal. */
void irq_spread_vec_notify_release(struct kref *ref)
{
}

/* What the interrupt has now, after an apply it refused. */
void irq_spread_vec_reseen(struct irq_spread_dev *sd,
			   struct irq_spread_vec *vec)
{
	if (!irq_spread_irq_get(vec->irq, to_cpumask(vec->seen)))
		bitmap_copy(vec->seen, vec->hint[vec->cur],
			    sd->stride * BITS_PER_LONG);
}

/*
 * Apply @mask to vector @vec's interrupt, through the hint buffer not in
 * use, which becomes the one in use.  On failure the interrupt keeps its
 * affinity and hint; what the library knows it to have is read again.
 */
int irq_spread_vec_apply(struct irq_spread_dev *sd,
			 struct irq_spread_vec *vec,
			 const unsigned long *mask)
{
	unsigned int bits = sd->stride * BITS_PER_LONG;
	unsigned long *next = vec->hint[!vec->cur];
	int ret;

	bitmap_copy(next, mask, bits);
	ret = irq_spread_irq_apply(vec->irq, to_cpumask(next));
	if (ret) {
		/* The refused mask is the hint now: put the old one back. */
		irq_spread_irq_hint(vec->irq, vec->hinted ?
				    to_cpumask(vec->hint[vec->cur]) : NULL);
		irq_spread_vec_reseen(sd, vec);
		dev_warn_ratelimited(sd->dev,
				     "irq_spread: affinity of IRQ %u not set: %d\n",
				     vec->irq, ret);
		return ret;
	}
	vec->cur = !vec->cur;
	vec->hinted = true;
	bitmap_copy(vec->seen, next, bits);
	return 0;
}

/* A vector's state before a commit, to undo what the commit did to it. */
struct irq_spread_vec_undo {
	bool admin;
	bool hinted;
	bool touched;
};

/*
 * Undo what a commit did to vector @vec's interrupt: its hint and affinity
 * back to what they were (the administrator's affinity for a vector the
 * commit handed back).
 */
static void irq_spread_vec_undo(struct irq_spread_dev *sd,
				struct irq_spread_vec *vec,
				const struct irq_spread_vec_undo *old)
{
	unsigned int bits = sd->stride * BITS_PER_LONG;
	int ret = 0;

	if (!old->hinted) {
		/* The commit gave it its first hint. */
		irq_spread_irq_hint(vec->irq, NULL);
		vec->hinted = false;
	} else if (vec->hinted) {
		ret = irq_spread_irq_apply(vec->irq,
					   to_cpumask(vec->hint[!vec->cur]));
		if (!ret)
			vec->cur = !vec->cur;
	} else {
		/* The commit took the hint of a vector no longer in use. */
		irq_spread_irq_hint(vec->irq, to_cpumask(vec->hint[vec->cur]));
		vec->hinted = true;
	}
	if (!ret)
		bitmap_copy(vec->seen, vec->hint[vec->cur], bits);
	if (!ret && old->admin) {
		ret = irq_spread_irq_affinity(vec->irq,
					      to_cpumask(vec->admin_mask));
		bitmap_copy(vec->seen, vec->admin_mask, bits);
	}
	if (ret) {
		irq_spread_vec_reseen(sd, vec);
		dev_warn(sd->dev, "irq_spread: IRQ %u not moved back: %d\n",
			 vec->irq, ret);
	}
}

/*
 * Make vector @v's interrupt follow its mask under the placement @masks of
 * @nr_active spread vectors (in @sd->want): apply it if the interrupt has
 * anything else (with @all, in any case), unless the administrator's;
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
	if (!irq_spread_dev_want(sd, masks, nr_active, v, sd->want)) {
		if (vec->hinted) {
			irq_spread_irq_hint(vec->irq, NULL);
			old->touched = true;
		}
		vec->hinted = false;
		return 0;
	}
	if (vec->admin)
		return 0;
	if (!all && vec->hinted && !old->admin &&
	    bitmap_equal(vec->hint[vec->cur], sd->want, n) &&
	    bitmap_equal(vec->seen, sd->want, n))
		return 0;
	ret = irq_spread_vec_apply(sd, vec, sd->want);
	if (!ret)
		old->touched = true;
	return ret;
}

/*
 * Make the attached vectors follow the placement @masks of @nr_active
 * spread vectors, which is about to replace @sd->placed, and give every
 * vector its new CPUs (&irq_spread_vec.now).  The administrator's vectors
 * are left alone, unless @reset hands them back and applies every vector
 * in use, changed or not.  Note in @sd->changed the vectors whose CPUs
 * change for the driver.
 *
 * With @undo, on the first refusal, undo everything and return the error:
 * nothing changed.  Without, go on with the others and return the first
 * error.
 */
int irq_spread_dev_commit(struct irq_spread_dev *sd,
			  const unsigned long *masks,
			  unsigned int nr_active, bool reset, bool undo)
{
	unsigned int nvec = irq_spread_dev_nvec(sd), n = sd->topo->nr_cpus;
	struct irq_spread_vec_undo *old;
	struct irq_spread_vec *vec;
	unsigned int v, u;
	bool want;
	int ret = 0, err;

	lockdep_assert_held(&sd->lock);
	old = kcalloc(nvec, sizeof(*old), GFP_KERNEL);
	if (!old)
		return -ENOMEM;
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
		want = irq_spread_dev_want(sd, masks, nr_active, v, sd->want);
		if (want && vec->admin)
			bitmap_copy(sd->want, vec->admin_mask, n);
		if (want != vec->has_now ||
		    (want && !bitmap_equal(sd->want, vec->now, n)))
			__set_bit(v, sd->changed);

		err = irq_spread_dev_commit_one(sd, v, masks, nr_active, reset,
						&old[v]);
		if (!err)
			continue;
		if (!ret)
			ret = err;
		if (!undo)
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
	kfree(old);
	return ret;
}

/**
 * irq_spread_dev_placed_afresh - note that a device was placed afresh
 * @sd: the device, whose placement now reflects every CPU it may use
 *
 * No vector is displaced by CPU hotplug any more, and the CPUs the
 * placement could use are remembered, so that a CPU coming online that
 * was not among them, and that the device may use, places the device
 * afresh again.
 *
 * Context: the device's lock held.
 */
void irq_spread_dev_placed_afresh(struct irq_spread_dev *sd)
{
	unsigned int v;

	lockdep_assert_held(&sd->lock);
	irq_spread_dev_eligible(sd, sd->usable);
	if (sd->restricted)
		bitmap_or(sd->usable, sd->usable, sd->exclude,
			  sd->topo->nr_cpus);
	for (v = 0; v < irq_spread_dev_nvec(sd); v++)
		sd->vec[v]->displaced = false;
}

/* After a commit: the aRFS map and the driver follow the changed vectors. */
void irq_spread_dev_committed(struct irq_spread_dev *sd)
{
	lockdep_assert_held(&sd->lock);
	if (!bitmap_empty(sd->changed, irq_spread_dev_nvec(sd)))
		irq_spread_dev_rmap(sd);
	irq_spread_dev_report(sd, sd->changed);
}

/*
 * Place the first @nr_active spread vectors afresh under @policy, the
 * device's own vectors out of the load, and apply the placement.  With
 * @reset, the administrator's vectors are handed back.  With @undo, all or
 * nothing: on error the placement, the load and the interrupts are as they
 * were.
 */
int irq_spread_dev_respread(struct irq_spread_dev *sd,
			    unsigned int nr_active,
			    enum irq_spread_policy policy, bool reset,
			    bool undo)
{
	int ret;

	lockdep_assert_held(&sd->lock);
	irq_spread_dev_release(sd, sd->nr_active, sd->placed);
	ret = irq_spread_dev_spread(sd, nr_active, policy, sd->spare, 0);
	if (ret)
		goto hold;
	ret = irq_spread_dev_commit(sd, sd->spare, nr_active, reset, undo);
	if (ret && undo) {
		irq_spread_dev_release(sd, nr_active, sd->spare);
		goto hold;
	}
	swap(sd->placed, sd->spare);
	sd->nr_active = nr_active;
	sd->policy = policy;
	irq_spread_dev_placed_afresh(sd);
	irq_spread_dev_committed(sd);
	return ret;

hold:
	irq_spread_dev_hold(sd, sd->nr_active, sd->placed);
	return ret;
}
