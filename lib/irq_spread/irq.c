// SPDX-License-Identifier: GPL-2.0
/*
 * irq_spread and the interrupt core: a vector's interrupt, attached and
 * detached by the driver; the library's affinity notifier on it; the
 * driver's aRFS reverse map.
 *
 * The library places an interrupt with irq_set_affinity_placed(): the
 * interrupt core sets the affinity, then the hint, and marks the interrupt
 * as placed; a refusal changes nothing.  A write to
 * /proc/irq/N/smp_affinity makes the interrupt the user's, in the core,
 * under its lock.  Each attached interrupt has the library's affinity
 * notifier, called from a work item after every change; it reads the
 * state the core keeps, and an interrupt that is the user's makes its
 * vector the administrator's: no re-spread applies anything to it until a
 * new policy or irq_spread_dev_vector_to_policy() hands it back.  CPU
 * hotplug and the library's own placements leave the interrupt placed.  A
 * vector not in use cannot be marked.  A re-spread still places the
 * marked vectors, so that a vector's CPUs do not depend on which others
 * the administrator moved.  The notifier also keeps the driver's aRFS
 * reverse map in step, as there is only one notifier per interrupt.
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
#include <linux/irq_spread.h>
#include <linux/lockdep.h>
#include <linux/mutex.h>
#include <linux/printk.h>
#include <linux/spinlock.h>

#include <kunit/static_stub.h>
#include <kunit/visibility.h>

#include "device.h"

/**
 * irq_spread_irq_apply - place an interrupt, with its affinity hint
 * @irq: the interrupt
 * @mask: the affinity and hint; stays valid and unchanged until the next
 *	apply or hint
 *
 * Return: 0 or the interrupt core's error, which leaves affinity, hint
 * and state as they were.  Without SMP there is nothing to place, and
 * nothing fails.
 */
int irq_spread_irq_apply(unsigned int irq, const struct cpumask *mask)
{
	KUNIT_STATIC_STUB_REDIRECT(irq_spread_irq_apply, irq, mask);
	if (!IS_ENABLED(CONFIG_SMP))
		return 0;
	return irq_set_affinity_placed(irq, mask, IRQ_PLACE_HINT);
}
EXPORT_SYMBOL_IF_KUNIT(irq_spread_irq_apply);

/**
 * irq_spread_irq_place - place an interrupt, without a hint
 * @irq: the interrupt
 * @mask: the affinity
 *
 * Return: 0 or the interrupt core's error, which leaves it as it was.
 */
int irq_spread_irq_place(unsigned int irq, const struct cpumask *mask)
{
	KUNIT_STATIC_STUB_REDIRECT(irq_spread_irq_place, irq, mask);
	if (!IS_ENABLED(CONFIG_SMP))
		return 0;
	return irq_set_affinity_placed(irq, mask, 0);
}
EXPORT_SYMBOL_IF_KUNIT(irq_spread_irq_place);

/**
 * irq_spread_irq_affinity - give an interrupt the administrator's mask
 * @irq: the interrupt
 * @mask: the affinity, which the interrupt does not count as placed
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
 * irq_spread_irq_get - read who set an interrupt's affinity, and to what
 * @irq: the interrupt
 * @dst: where to write the affinity: the mask the interrupt core's
 *	notification would report now
 *
 * Return: the interrupt's &enum irq_affinity_placement, or -EINVAL,
 * leaving @dst alone, if @irq has no descriptor.
 */
int irq_spread_irq_get(unsigned int irq, struct cpumask *dst)
{
	KUNIT_STATIC_STUB_REDIRECT(irq_spread_irq_get, irq, dst);
	return irq_get_affinity_placement(irq, dst);
}
EXPORT_SYMBOL_IF_KUNIT(irq_spread_irq_get);

/**
 * irq_spread_irq_unplace - the library stops placing an interrupt
 * @irq: the interrupt, which keeps its affinity
 */
void irq_spread_irq_unplace(unsigned int irq)
{
	KUNIT_STATIC_STUB_REDIRECT(irq_spread_irq_unplace, irq);
	irq_clear_affinity_placed(irq);
}
EXPORT_SYMBOL_IF_KUNIT(irq_spread_irq_unplace);

/**
 * irq_spread_irq_managed - whether the interrupt core manages an interrupt's
 *	affinity
 * @irq: the interrupt
 *
 * Return: true for a managed interrupt (pci_alloc_irq_vectors_affinity()),
 * whose affinity is fixed at allocation and moved by the core on hotplug.
 */
bool irq_spread_irq_managed(unsigned int irq)
{
	struct irq_data *data;

	KUNIT_STATIC_STUB_REDIRECT(irq_spread_irq_managed, irq);
	data = irq_get_irq_data(irq);
	return data && irqd_affinity_is_managed(data);
}
EXPORT_SYMBOL_IF_KUNIT(irq_spread_irq_managed);

/**
 * irq_spread_irq_notifier - install or remove an interrupt's notifier
 * @irq: the interrupt
 * @notify: the library's notifier, or %NULL to remove it
 *
 * An interrupt has one affinity notifier; the library does not replace
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
	int ret;

	KUNIT_STATIC_STUB_REDIRECT(irq_spread_irq_notifier, irq, notify);
	if (!notify)
		return irq_set_affinity_notifier(irq, NULL);
	ret = irq_add_affinity_notifier(irq, notify);
	if (ret == -EBUSY)
		pr_warn("IRQ %u has an affinity notifier already (irq_cpu_rmap_add()?): give the rmap to irq_spread instead\n",
			irq);
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(irq_spread_irq_notifier);

/**
 * irq_spread_irq_placer - install or remove an interrupt's placer
 * @irq: the interrupt
 * @placer: the vector's placer, or %NULL to remove it
 *
 * Context: process context, the device's lock not held: removal waits
 * for a call of the placer in progress, which takes it.
 * Return: 0 or the interrupt core's error.
 */
int irq_spread_irq_placer(unsigned int irq, struct irq_affinity_placer *placer)
{
	KUNIT_STATIC_STUB_REDIRECT(irq_spread_irq_placer, irq, placer);
	return irq_set_affinity_placer(irq, placer);
}
EXPORT_SYMBOL_IF_KUNIT(irq_spread_irq_placer);

/*
 * The interrupt core asks where vector @vec's interrupt @irq goes as @cpu
 * goes offline: the library's CPU hotplug callback, which runs first,
 * placed the vector without @cpu already (hotplug.c); an administrator's
 * vector, or one still on @cpu, is left to the core's fallback.
 */
static int irq_spread_vec_cpu_offline(struct irq_affinity_placer *placer,
				      unsigned int irq, unsigned int cpu,
				      struct cpumask *mask)
{
	struct irq_spread_vec *vec = container_of(placer, struct irq_spread_vec,
						  placer);
	struct irq_spread_dev *sd = vec->sd;
	int ret = -ENOENT;

	mutex_lock(&sd->lock);
	if (!sd->dead && vec->irq == irq && vec->has_cpus && !vec->admin &&
	    !test_bit(cpu, vec->cpus)) {
		bitmap_copy(cpumask_bits(mask), vec->cpus, sd->topo->nr_cpus);
		ret = 0;
	}
	mutex_unlock(&sd->lock);
	return ret;
}

/*
 * Set vector @vec's interrupt to @mask: through the caller's
 * &irq_spread_dev_ops.apply, or the interrupt core's calls; placed, with
 * @mask as the hint too, if @placed, else the administrator's.  @mask
 * stays valid and unchanged until the next.
 */
int irq_spread_vec_set(struct irq_spread_dev *sd, struct irq_spread_vec *vec,
		       const unsigned long *mask, bool placed)
{
	int ret;

	if (irq_spread_dev_caller_applies(sd))
		ret = sd->ops->apply(sd->priv, vec->index, vec->irq,
				     to_cpumask(mask), placed);
	else if (placed)
		ret = irq_spread_irq_apply(vec->irq, to_cpumask(mask));
	else
		ret = irq_spread_irq_affinity(vec->irq, to_cpumask(mask));
	/* The interrupt core notifies a change it made, not one it refused. */
	if (!ret)
		vec->notify_due = true;
	return ret;
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

/*
 * Stop the interrupt core asking the library where @irq goes (@placer: the
 * library had installed itself as its placer) and telling it of changes.
 * Both detach and unregistration do this before the interrupt is freed.
 */
void irq_spread_vec_unwatch(struct irq_spread_dev *sd, unsigned int irq,
			    bool placer)
{
	if (placer)
		irq_spread_irq_placer(irq, NULL);
	irq_spread_vec_watch(sd, irq, NULL);
}

/**
 * irq_spread_vec_notifier - who holds the affinity notifier of a vector's
 *	interrupt
 * @sd: the device
 * @vec: the vector, attached
 *
 * Return: "irq_spread" for the library's own, "other" for a caller that
 * holds it (&irq_spread_dev_ops.apply).
 */
const char *irq_spread_vec_notifier(const struct irq_spread_dev *sd,
				    const struct irq_spread_vec *vec)
{
	return irq_spread_dev_caller_applies(sd) ? "other" : "irq_spread";
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
 * held: an interrupt the interrupt core counts as the user's makes the
 * vector the administrator's, with the mask it has, until a new policy or
 * irq_spread_dev_vector_to_policy() hands it back; the driver is told.
 */
static void irq_spread_vec_check_admin(struct irq_spread_dev *sd,
				       struct irq_spread_vec *vec)
{
	unsigned int n = sd->topo->nr_cpus, k;
	unsigned long *has = sd->scratch;
	unsigned long flags;

	lockdep_assert_held(&sd->lock);
	if (irq_spread_irq_get(vec->irq, to_cpumask(has)) != IRQ_PLACEMENT_USER ||
	    (vec->admin && bitmap_equal(has, vec->admin_mask, n)))
		return;
	/* Only a vector in use can be the administrator's. */
	if (irq_spread_dev_spread_index(sd, vec->index, &k) &&
	    k >= sd->nr_active)
		return;

	vec->admin = true;
	bitmap_zero(vec->admin_mask, sd->stride * BITS_PER_LONG);
	bitmap_copy(vec->admin_mask, has, n);
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
 * A notification of vector @vec's interrupt, handled: see whose the new
 * affinity is, and count it for debugfs ``notifiers``.
 */
static void irq_spread_vec_notified(struct irq_spread_dev *sd,
				    struct irq_spread_vec *vec)
{
	irq_spread_vec_check_admin(sd, vec);
	vec->notified++;
	vec->notify_due = false;
}

/*
 * The interrupt core's notification that @notify's interrupt changed: the
 * library's own apply, CPU hotplug, or the administrator's write.  The
 * state the core keeps tells which, when this runs.
 */
void irq_spread_vec_notify(struct irq_affinity_notify *notify,
			   const cpumask_t *mask)
{
	struct irq_spread_vec *vec = container_of(notify, struct irq_spread_vec,
						  notify);
	struct irq_spread_dev *sd = vec->sd;

	mutex_lock(&sd->lock);
	if (!sd->dead && vec->irq)
		irq_spread_vec_notified(sd, vec);
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
		irq_spread_vec_notified(sd, sd->vec[vector]);
	mutex_unlock(&sd->lock);
}
EXPORT_SYMBOL_GPL(irq_spread_dev_notify);

/* Nothing to free: the notifier is part of the vector, freed with it. */
void irq_spread_vec_notify_release(struct kref *ref)
{
}

/*
 * Apply @mask to vector @vec's interrupt, through the hint buffer not in
 * use, which becomes the one in use.  On failure the interrupt core left
 * the interrupt's affinity, hint and state as they were.
 */
int irq_spread_vec_apply(struct irq_spread_dev *sd,
			 struct irq_spread_vec *vec,
			 const unsigned long *mask)
{
	unsigned long *next = vec->hint[!vec->cur];
	int ret;

	bitmap_copy(next, mask, sd->stride * BITS_PER_LONG);
	ret = irq_spread_vec_set(sd, vec, next, true);
	if (ret) {
		dev_warn_ratelimited(sd->dev,
				     "irq_spread: affinity of IRQ %u not set: %d\n",
				     vec->irq, ret);
		return ret;
	}
	vec->cur = !vec->cur;
	vec->hinted = true;
	return 0;
}

/*
 * Whether vector @vec's interrupt is placed, with @mask as its affinity,
 * as the interrupt core has it now (CPU hotplug may have moved it).
 */
bool irq_spread_vec_placed_at(struct irq_spread_dev *sd,
			      struct irq_spread_vec *vec,
			      const unsigned long *mask)
{
	unsigned long *has = vec->irq_mask;

	lockdep_assert_held(&sd->lock);
	return irq_spread_irq_get(vec->irq, to_cpumask(has)) ==
	       IRQ_PLACEMENT_PLACED &&
	       bitmap_equal(has, mask, sd->topo->nr_cpus);
}

/*
 * Whether the interrupt core moves vector @vec's interrupt off the CPU
 * going offline (@sd->going), asking the library where: the interrupt has
 * the library's placer and is placed on that CPU.
 */
bool irq_spread_vec_core_moves(struct irq_spread_dev *sd,
			       struct irq_spread_vec *vec)
{
	unsigned long *has = vec->irq_mask;

	lockdep_assert_held(&sd->lock);
	return sd->going >= 0 && vec->has_placer &&
	       irq_spread_irq_get(vec->irq, to_cpumask(has)) ==
	       IRQ_PLACEMENT_PLACED && test_bit(sd->going, has);
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
 * range, @irq 0 or managed by the interrupt core (its affinity is fixed
 * at allocation); -EBUSY if the vector has an interrupt already or the
 * interrupt has another affinity notifier; the interrupt core's error if
 * it refuses the notifier or the mask of a vector not the administrator's.
 * On error the vector is left without an interrupt and the interrupt as
 * it was.
 */
int irq_spread_dev_attach(struct irq_spread_dev *sd, unsigned int vector,
			  unsigned int irq)
{
	struct irq_spread_vec *vec;
	bool placer;
	int ret;

	if (!sd || !irq || (sd->flags & IRQ_SPREAD_DEV_PLACE_ONLY))
		return -EINVAL;
	if (irq_spread_irq_managed(irq)) {
		dev_warn(sd->dev, "irq_spread: IRQ %u of vector %u is managed by the interrupt core, not placed\n",
			 irq, vector);
		return -EINVAL;
	}
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
	vec->notified = 0;
	vec->notify_due = false;
	irq_spread_vec_load(sd, vec, true);
	vec->hinted = false;
	mutex_unlock(&sd->lock);

	ret = irq_spread_vec_watch(sd, irq, &vec->notify);
	if (ret)
		goto err;
	/* Without it, the library moves the interrupt on CPU hotplug itself. */
	vec->placer.cpu_offline = irq_spread_vec_cpu_offline;
	placer = !irq_spread_irq_placer(irq, &vec->placer);

	/*
	 * The administrator's mask, kept while detached, has no hint.  One
	 * the interrupt core refuses (none of its CPUs online) leaves the
	 * interrupt as it is, attached: failing would leave it unplaced,
	 * without a notifier, until it is attached again.
	 */
	mutex_lock(&sd->lock);
	vec->has_placer = placer;
	ret = 0;
	if (vec->has_cpus && vec->admin)
		irq_spread_vec_set(sd, vec, vec->admin_mask, false);
	else if (vec->has_cpus)
		ret = irq_spread_vec_apply(sd, vec, vec->cpus);
	if (!ret)
		irq_spread_vec_rmap(sd, vec);
	mutex_unlock(&sd->lock);
	if (!ret)
		return 0;
	if (placer)
		irq_spread_irq_placer(irq, NULL);
	irq_spread_vec_watch(sd, irq, NULL);
err:
	mutex_lock(&sd->lock);
	irq_spread_vec_load(sd, vec, false);
	vec->has_placer = false;
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
 * Removes the interrupt's affinity hint and the library's notifier, and
 * the interrupt is no longer placed; it keeps its affinity, the vector
 * its placement.  A vector the
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
	bool placer;

	if (!sd)
		return;
	mutex_lock(&sd->lock);
	if (vector >= irq_spread_dev_nvec(sd) || !sd->vec[vector]->irq) {
		mutex_unlock(&sd->lock);
		return;
	}
	vec = sd->vec[vector];
	irq = vec->irq;
	placer = vec->has_placer;
	mutex_unlock(&sd->lock);

	/*
	 * Removing the notifier cancels a notification not delivered yet: an
	 * administrator's write just before would be lost, and the next
	 * interrupt attached would get the policy's CPUs.  Look at what the
	 * interrupt has instead, once nothing is notified any more.
	 */
	irq_spread_vec_unwatch(sd, irq, placer);
	mutex_lock(&sd->lock);
	if (vec->irq == irq) {
		irq_spread_vec_check_admin(sd, vec);
		if (vec->hinted)
			irq_spread_vec_hint(sd, vec, NULL);
		irq_spread_irq_unplace(irq);
		vec->has_placer = false;
		vec->hinted = false;
		irq_spread_vec_load(sd, vec, false);
		vec->irq = 0;
	}
	mutex_unlock(&sd->lock);
}
EXPORT_SYMBOL_GPL(irq_spread_dev_detach);
