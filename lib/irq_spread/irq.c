// SPDX-License-Identifier: GPL-2.0
/*
 * irq_spread and the interrupt core: a vector's interrupt, attached and
 * detached by the driver; the library's affinity notifier on it; the
 * driver's aRFS reverse map.
 *
 * Each attached interrupt has the library's affinity notifier.  The
 * interrupt core calls it, from a work item, after every
 * irq_set_affinity() of the interrupt: the library's own, and a write to
 * /proc/irq/N/smp_affinity.  The notifier compares what the interrupt has
 * when it runs, not the copy the work took earlier, with the mask the
 * library set last (or, after a failed apply, the one the interrupt kept):
 * anything else is the administrator's, the vector is marked, and no
 * re-spread applies anything to it until a policy is written.  A copy
 * the interrupt no longer has is stale, however the work and the
 * library's applies interleave.  The interrupt core notifies its own
 * fallback when CPU hotplug takes the last online CPU of an interrupt's
 * mask (every online CPU): a mask the library set with no online CPU
 * left is not the administrator's.  A vector not in use cannot be
 * marked.  A re-spread still places the marked vectors, so that a
 * vector's CPUs do not depend on which others the administrator moved.
 * The notifier also keeps the driver's aRFS reverse map in step, as there
 * is only one notifier per interrupt.
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
#include <linux/spinlock.h>

#include <kunit/static_stub.h>
#include <kunit/visibility.h>

#include "device.h"

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

/*
 * Set vector @vec's interrupt to @mask: through the caller's
 * &irq_spread_dev_ops.apply, or the interrupt core's calls, with @mask as
 * the hint too if @hint.  @mask stays valid and unchanged until the next.
 */
int irq_spread_vec_set(struct irq_spread_dev *sd, struct irq_spread_vec *vec,
		       const unsigned long *mask, bool hint)
{
	if (irq_spread_dev_caller_applies(sd))
		return sd->ops->apply(sd->priv, vec->index, vec->irq,
				      to_cpumask(mask));
	if (hint)
		return irq_spread_irq_apply(vec->irq, to_cpumask(mask));
	return irq_spread_irq_affinity(vec->irq, to_cpumask(mask));
}

/* Set or remove vector @vec's hint, unless its caller sets the interrupt. */
void irq_spread_vec_hint(struct irq_spread_dev *sd, struct irq_spread_vec *vec,
			 const unsigned long *hint)
{
	if (!irq_spread_dev_caller_applies(sd))
		irq_spread_irq_hint(vec->irq, hint ? to_cpumask(hint) : NULL);
}

/*
 * Install the library's notifier on @irq (@notify), or remove it (%NULL),
 * unless the caller holds the interrupt's notifier.
 */
int irq_spread_vec_watch(struct irq_spread_dev *sd, unsigned int irq,
			 struct irq_affinity_notify *notify)
{
	if (irq_spread_dev_caller_applies(sd))
		return 0;
	return irq_spread_irq_notifier(irq, notify);
}

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

/**
 * irq_spread_vec_rmap - tell the aRFS reverse map where a vector is now
 * @sd: the device
 * @vec: one of its vectors, whose CPUs changed or whose interrupt came
 *
 * What irq_cpu_rmap_add()'s notifier does for an interrupt that moves:
 * cpu_rmap_update() of the one object, spread vector k's index k, for a
 * spread vector in use with an interrupt.  CPUs near no such vector keep
 * the index alloc_cpu_rmap() gave them, and a vector detached or no longer
 * in use keeps its CPUs in the map, as irq_cpu_rmap_remove() leaves them.
 *
 * Context: the device's lock held.
 */
void irq_spread_vec_rmap(struct irq_spread_dev *sd,
			 const struct irq_spread_vec *vec)
{
#ifdef CONFIG_CPU_RMAP
	unsigned int k;
	int err;

	lockdep_assert_held(&sd->lock);
	if (!sd->rmap || !vec->irq || !vec->has_cpus ||
	    !irq_spread_dev_spread_index(sd, vec->index, &k) ||
	    k >= sd->nr_active)
		return;
	err = cpu_rmap_update(sd->rmap, k, to_cpumask(vec->cpus));
	if (err)
		dev_warn(sd->dev, "irq_spread: aRFS map of vector %u not updated: %d\n",
			 vec->index, err);
#endif
}

/*
 * Whether the administrator moved vector @vec's interrupt, @sd's lock
 * held: what the interrupt has, when it is not what the library set last,
 * is the administrator's: the vector takes it and keeps it until a policy
 * write hands it back, and the driver is told.  @mask is the mask a
 * notification copied, which counts only if the interrupt still has it;
 * %NULL to read what it has without one.
 */
static void irq_spread_vec_check_admin(struct irq_spread_dev *sd,
				       struct irq_spread_vec *vec,
				       const cpumask_t *mask)
{
	unsigned int n = sd->topo->nr_cpus, k;
	unsigned long *has = sd->scratch;
	unsigned long flags;

	lockdep_assert_held(&sd->lock);
	if (!irq_spread_irq_get(vec->irq, to_cpumask(has)) ||
	    (mask && !bitmap_equal(cpumask_bits(mask), has, n)) ||
	    bitmap_equal(has, vec->applied, n))
		return;
	/*
	 * CPU hotplug took the last online CPU of the library's mask: the
	 * interrupt core fell back to every online CPU and notified it.
	 */
	sd->topo->ops->online_cpus(sd->topo, sd->online);
	if (!bitmap_intersects(vec->applied, sd->online, n))
		return;
	/* Only a vector in use can be the administrator's. */
	if (irq_spread_dev_spread_index(sd, vec->index, &k) &&
	    k >= sd->nr_active)
		return;

	vec->admin = true;
	bitmap_zero(vec->admin_mask, sd->stride * BITS_PER_LONG);
	bitmap_copy(vec->admin_mask, has, n);
	bitmap_copy(vec->applied, vec->admin_mask, sd->stride * BITS_PER_LONG);
	irq_spread_vec_write_begin(sd, &flags);
	bitmap_copy(vec->cpus, vec->admin_mask, sd->stride * BITS_PER_LONG);
	vec->has_cpus = true;
	irq_spread_vec_write_end(sd, flags);
	irq_spread_vec_rmap(sd, vec);
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
		irq_spread_vec_check_admin(sd, vec, mask);
	mutex_unlock(&sd->lock);
}

/**
 * irq_spread_dev_notify - the affinity of a vector's interrupt changed
 * @sd: the device, whose &irq_spread_dev_ops.apply sets its interrupts
 * @vector: the device vector number
 * @mask: the mask the caller's affinity notifier was given
 *
 * What the library's own notifier does, for a caller that holds the
 * interrupt's notifier: the library's own apply, or the administrator's
 * write, which the vector then keeps (see irq_spread_dev_attach()).
 * Nothing happens for a vector without an interrupt.
 *
 * Context: process context, may sleep; not with a lock held that
 * &irq_spread_dev_ops.apply takes.
 */
void irq_spread_dev_notify(struct irq_spread_dev *sd, unsigned int vector,
			   const struct cpumask *mask)
{
	if (!sd || !irq_spread_dev_caller_applies(sd))
		return;
	mutex_lock(&sd->lock);
	if (!sd->dead && vector < irq_spread_dev_nvec(sd) &&
	    sd->vec[vector]->irq)
		irq_spread_vec_check_admin(sd, sd->vec[vector], mask);
	mutex_unlock(&sd->lock);
}
EXPORT_SYMBOL_GPL(irq_spread_dev_notify);

/* Nothing to free: the notifier is part of the vector, freed with it. */
void irq_spread_vec_notify_release(struct kref *ref)
{
}

/* Read again what the interrupt has, after it refused an apply. */
void irq_spread_vec_read_affinity(struct irq_spread_dev *sd,
				  struct irq_spread_vec *vec)
{
	if (!irq_spread_irq_get(vec->irq, to_cpumask(vec->applied)))
		bitmap_copy(vec->applied, vec->hint[vec->cur],
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
	ret = irq_spread_vec_set(sd, vec, next, true);
	if (ret) {
		/* The refused mask is the hint now: put the old one back. */
		irq_spread_vec_hint(sd, vec, vec->hinted ? vec->hint[vec->cur] :
						       NULL);
		irq_spread_vec_read_affinity(sd, vec);
		dev_warn_ratelimited(sd->dev,
				     "irq_spread: affinity of IRQ %u not set: %d\n",
				     vec->irq, ret);
		return ret;
	}
	vec->cur = !vec->cur;
	vec->hinted = true;
	bitmap_copy(vec->applied, next, bits);
	return 0;
}

/**
 * irq_spread_dev_attach - give a vector its interrupt
 * @sd: the device
 * @vector: the device vector number
 * @irq: its Linux interrupt number (pci_irq_vector() and the like),
 *	allocated; normally requested
 *
 * Sets the vector's mask as the interrupt's affinity and affinity hint if
 * the vector is in use (a spread vector beyond irq_spread_dev_set_vectors()
 * only gets it once it is); the affinity alone, the administrator's, for
 * a vector the administrator set before it was detached, unless the
 * interrupt core refuses it (its CPUs all went offline meanwhile): then
 * the interrupt keeps its affinity, as one whose CPUs all go offline while
 * attached does, and the vector stays the administrator's.  Installs the
 * library's affinity notifier on the interrupt, which tells the
 * administrator's writes from the library's and keeps the device's aRFS
 * map in step.  The interrupt must have no other affinity notifier: see
 * &irq_spread_dev_info.rmap.  The driver must not set the interrupt's
 * affinity itself while it is attached: that would count as the
 * administrator's.  A spread vector in use counts in the per-CPU load from
 * its attach to its detach.
 *
 * Context: process context, may sleep.
 * Return: 0; -EINVAL if @sd is %NULL or placement-only
 * (%IRQ_SPREAD_DEV_PLACE_ONLY: a pool's vectors serve it), @vector out of
 * range or @irq 0; -EBUSY if the vector has an interrupt already or the
 * interrupt has
 * another affinity notifier; the interrupt core's error if it refuses the
 * notifier or the mask of a vector not the administrator's.  On error the
 * vector is left without an interrupt and the interrupt as it was.
 */
int irq_spread_dev_attach(struct irq_spread_dev *sd, unsigned int vector,
			  unsigned int irq)
{
	struct irq_spread_vec *vec;
	int ret;

	if (!sd || !irq || (sd->flags & IRQ_SPREAD_DEV_PLACE_ONLY))
		return -EINVAL;
	mutex_lock(&sd->lock);
	if (vector >= irq_spread_dev_nvec(sd)) {
		mutex_unlock(&sd->lock);
		return -EINVAL;
	}
	vec = sd->vec[vector];
	if (vec->irq) {
		mutex_unlock(&sd->lock);
		return -EBUSY;
	}
	/* Until the notifier is in, nothing tells the administrator's. */
	vec->irq = irq;
	irq_spread_vec_load(sd, vec, true);
	vec->hinted = false;
	bitmap_zero(vec->applied, sd->stride * BITS_PER_LONG);
	irq_spread_vec_read_affinity(sd, vec);
	mutex_unlock(&sd->lock);

	ret = irq_spread_vec_watch(sd, irq, &vec->notify);
	if (ret)
		goto err;

	/*
	 * The administrator's mask, kept while detached, has no hint.  One
	 * the interrupt core refuses (none of its CPUs online) leaves the
	 * interrupt as it is, attached: failing would leave it unplaced,
	 * without a notifier, until it is attached again.
	 */
	mutex_lock(&sd->lock);
	ret = 0;
	if (vec->has_cpus && vec->admin) {
		if (irq_spread_vec_set(sd, vec, vec->admin_mask, false))
			irq_spread_vec_read_affinity(sd, vec);
		else
			bitmap_copy(vec->applied, vec->admin_mask,
				    sd->stride * BITS_PER_LONG);
	} else if (vec->has_cpus) {
		ret = irq_spread_vec_apply(sd, vec, vec->cpus);
	}
	if (!ret)
		irq_spread_vec_rmap(sd, vec);
	mutex_unlock(&sd->lock);
	if (!ret)
		return 0;
	irq_spread_vec_watch(sd, irq, NULL);
err:
	mutex_lock(&sd->lock);
	irq_spread_vec_load(sd, vec, false);
	vec->irq = 0;
	mutex_unlock(&sd->lock);
	return ret;
}
EXPORT_SYMBOL_GPL(irq_spread_dev_attach);

/**
 * irq_spread_dev_detach - take a vector's interrupt away
 * @sd: the device
 * @vector: the device vector number
 *
 * Removes the interrupt's affinity hint and the library's notifier; the
 * interrupt keeps its affinity, the vector its placement.  A vector the
 * administrator had set stays the administrator's, and so does one whose
 * interrupt the administrator set without the notification being
 * delivered yet: the next interrupt attached to it gets the
 * administrator's mask.  Call it before free_irq().  Does nothing for a
 * vector without an interrupt.
 *
 * Context: process context, may sleep (waits for a notification in
 * progress).
 */
void irq_spread_dev_detach(struct irq_spread_dev *sd, unsigned int vector)
{
	struct irq_spread_vec *vec;
	unsigned int irq;

	if (!sd)
		return;
	mutex_lock(&sd->lock);
	if (vector >= irq_spread_dev_nvec(sd) || !sd->vec[vector]->irq) {
		mutex_unlock(&sd->lock);
		return;
	}
	vec = sd->vec[vector];
	irq = vec->irq;
	mutex_unlock(&sd->lock);

	/*
	 * Removing the notifier cancels a notification not delivered yet: an
	 * administrator's write just before would be lost, and the next
	 * interrupt attached would get the policy's CPUs.  Look at what the
	 * interrupt has instead, once nothing is notified any more.
	 */
	irq_spread_vec_watch(sd, irq, NULL);
	mutex_lock(&sd->lock);
	if (vec->irq == irq) {
		irq_spread_vec_check_admin(sd, vec, NULL);
		if (vec->hinted)
			irq_spread_vec_hint(sd, vec, NULL);
		vec->hinted = false;
		irq_spread_vec_load(sd, vec, false);
		vec->irq = 0;
	}
	mutex_unlock(&sd->lock);
}
EXPORT_SYMBOL_GPL(irq_spread_dev_detach);
