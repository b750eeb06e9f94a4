// SPDX-License-Identifier: GPL-2.0
/*
 * irq_spread devices: a driver registers a device by its number of vectors,
 * attaches each vector's interrupt when it requests it, and the library
 * keeps the vectors placed under the device's policy: when the driver
 * changes the number of vectors in use, when the administrator writes a
 * policy to <device>/irq_spread/policy, and when a CPU goes offline or
 * online.
 *
 * Placement and application.  The spread vectors in use are placed by the
 * engine; reserved vectors follow the spread vector the driver named, or
 * take every eligible CPU, and are never counted in the load.  Each
 * attached vector's interrupt is given its mask as affinity and hint;
 * whatever is applied, only the vectors whose mask changed are touched.
 * A policy write, irq_spread_dev_set_vectors() and irq_spread_dev_resize()
 * apply all or nothing: if the interrupt core refuses one vector, the ones
 * already moved are moved back and the device keeps its policy, placement
 * and vector count.
 *
 * The administrator.  Each attached interrupt has the library's affinity
 * notifier.  The interrupt core calls it, from a work item, after every
 * irq_set_affinity() of the interrupt: the library's own, and a write to
 * /proc/irq/N/smp_affinity.  A mask that is not the one the library set
 * last (nor, after a failed apply, the one the interrupt kept) is the
 * administrator's: the vector is marked, and no re-spread applies anything
 * to it until a policy is written.  The interrupt core's own moves (CPU
 * hotplug migrating an interrupt off a dying CPU, startup) do not notify,
 * and a vector not in use cannot be marked.  A re-spread still places the
 * marked vectors, so that a vector's CPUs do not depend on which others
 * the administrator moved.  The notifier also keeps the driver's aRFS
 * reverse map in step, as there is only one notifier per interrupt.
 *
 * CPU hotplug.  When a CPU goes offline, only the vectors whose mask holds
 * it move: each loses the CPU, and one left without a CPU takes the best
 * slot its policy gives among the others, with the device's own vectors
 * counted.  When a CPU comes online, each device is placed afresh (with
 * the other devices' load), and only the vectors whose mask differs are
 * applied.  The library takes no CPU hotplug lock: a CPU going offline is
 * marked leaving, under irq_spread_dev_lock and before its vectors move,
 * and no spread uses a leaving CPU, so a spread racing with the hotplug
 * callbacks is either moved by them or sees the CPU gone.
 *
 * The driver's callback.  Every change of a vector's mask after
 * registration is told to the driver's &irq_spread_dev_ops.changed, from
 * a work item with no lock held, so that it may take the locks XPS needs
 * (netif_set_xps_queue() takes the CPU hotplug lock, which a CPU hotplug
 * callback holds).
 *
 * Locking, outermost first:
 *
 *  - the CPU hotplug lock, held for writing by the CPU hotplug callbacks
 *    (the library never takes it, so any call may be made with it held);
 *  - irq_spread_dev_lock, a mutex: the list of devices and the state of
 *    every device;
 *  - the topology lock (inside the engine), then the interrupt descriptor
 *    locks (inside the interrupt core).
 *
 * Nothing waits for the affinity notifier, the driver's callback or the
 * sysfs files with irq_spread_dev_lock held, as each of them takes it.
 */
#define pr_fmt(fmt) "irq_spread: " fmt

#include <linux/bitmap.h>
#include <linux/cpu_rmap.h>
#include <linux/cpuhotplug.h>
#include <linux/cpumask.h>
#include <linux/device.h>
#include <linux/err.h>
#include <linux/export.h>
#include <linux/init.h>
#include <linux/interrupt.h>
#include <linux/irq.h>
#include <linux/irqdesc.h>
#include <linux/irq_spread.h>
#include <linux/kobject.h>
#include <linux/list.h>
#include <linux/lockdep.h>
#include <linux/minmax.h>
#include <linux/mutex.h>
#include <linux/numa.h>
#include <linux/overflow.h>
#include <linux/printk.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/sysfs.h>
#include <linux/workqueue.h>

#include <kunit/static_stub.h>
#include <kunit/visibility.h>

#include "irq_spread_internal.h"

/* Protects irq_spread_devs and the state of every device. */
DEFINE_MUTEX(irq_spread_dev_lock);

static LIST_HEAD(irq_spread_devs);

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
 * While a move is pending (an interrupt that moves when it next fires),
 * the affinity is the old one.
 *
 * Return: false, leaving @dst alone, if @irq has no descriptor.
 */
bool irq_spread_irq_get(unsigned int irq, struct cpumask *dst)
{
	struct irq_data *data;

	KUNIT_STATIC_STUB_REDIRECT(irq_spread_irq_get, irq, dst);
	data = irq_get_irq_data(irq);
	if (!data)
		return false;
	cpumask_copy(dst, irq_data_get_affinity_mask(data));
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
 * Context: process context, irq_spread_dev_lock not held: removal waits
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

static unsigned int irq_spread_dev_nvec(const struct irq_spread_dev *sd)
{
	return sd->pre + sd->nr + sd->post;
}

/* Whether device vector @v is a spread one, and which (@k). */
static bool irq_spread_dev_spread_index(const struct irq_spread_dev *sd,
					unsigned int v, unsigned int *k)
{
	if (v < sd->pre || v >= sd->pre + sd->nr)
		return false;
	*k = v - sd->pre;
	return true;
}

/* Where reserved vector @v goes: an entry of @sd->reserved. */
static int irq_spread_dev_reserved(const struct irq_spread_dev *sd,
				   unsigned int v)
{
	return sd->reserved[v < sd->pre ? v : v - sd->nr];
}

/*
 * Vector @v's mask under the placement @masks of @nr_active vectors, into
 * @dst: a spread vector's own, a reserved vector's from the spread vector
 * it follows (modulo the ones in use) or @sd->eligible.  Return false for
 * a spread vector not in use, which has none.
 */
static bool irq_spread_dev_want(const struct irq_spread_dev *sd,
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

/* Vector @v's CPUs, as the driver sees them, into @dst; false if none. */
static bool irq_spread_dev_current(const struct irq_spread_dev *sd,
				   unsigned int v, unsigned long *dst)
{
	const struct irq_spread_vec *vec = sd->vec[v];

	lockdep_assert_held(&irq_spread_dev_lock);
	if (vec->has_now)
		bitmap_copy(dst, vec->now, sd->stride * BITS_PER_LONG);
	return vec->has_now;
}

/*
 * Vector @v's CPUs under the placement @masks of @nr_active spread
 * vectors, into @vec->now: the administrator's if the vector is in use and
 * the administrator's, else those of the placement.
 */
static void irq_spread_vec_refresh(struct irq_spread_dev *sd, unsigned int v,
				   const unsigned long *masks,
				   unsigned int nr_active)
{
	struct irq_spread_vec *vec = sd->vec[v];

	vec->has_now = irq_spread_dev_want(sd, masks, nr_active, v, vec->now);
	if (vec->has_now && vec->admin)
		bitmap_copy(vec->now, vec->admin_mask,
			    sd->stride * BITS_PER_LONG);
}

/* Point the device's aRFS reverse map's object of vector @vec at @mask. */
static void irq_spread_vec_rmap(const struct irq_spread_dev *sd,
				const struct irq_spread_vec *vec,
				const unsigned long *mask)
{
#ifdef CONFIG_CPU_RMAP
	int err;

	if (!sd->rmap || vec->rmap_index < 0)
		return;
	err = cpu_rmap_update(sd->rmap, vec->rmap_index, to_cpumask(mask));
	if (err)
		dev_warn(sd->dev, "irq_spread: aRFS map of vector %u not updated: %d\n",
			 vec->index, err);
#endif
}

/* Tell the driver, later and without locks, of the vectors in @changed. */
static void irq_spread_dev_report(struct irq_spread_dev *sd,
				  const unsigned long *changed)
{
	unsigned int nvec = irq_spread_dev_nvec(sd);

	lockdep_assert_held(&irq_spread_dev_lock);
	if (!sd->ops || !sd->ops->changed || sd->dead ||
	    bitmap_empty(changed, nvec))
		return;
	bitmap_or(sd->pending, sd->pending, changed, nvec);
	schedule_work(&sd->work);
}

static void irq_spread_dev_work(struct work_struct *work)
{
	struct irq_spread_dev *sd = container_of(work, struct irq_spread_dev,
						 work);
	unsigned int v;
	bool have;

	for (;;) {
		mutex_lock(&irq_spread_dev_lock);
		v = find_first_bit(sd->pending, irq_spread_dev_nvec(sd));
		if (sd->dead || v >= irq_spread_dev_nvec(sd)) {
			mutex_unlock(&irq_spread_dev_lock);
			return;
		}
		__clear_bit(v, sd->pending);
		have = irq_spread_dev_current(sd, v, sd->report);
		mutex_unlock(&irq_spread_dev_lock);
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
 * Context: process context, irq_spread_dev_lock not held.
 */
void irq_spread_dev_flush(struct irq_spread_dev *sd)
{
	flush_work(&sd->work);
}
EXPORT_SYMBOL_IF_KUNIT(irq_spread_dev_flush);

/*
 * The interrupt core's notification that @notify's interrupt has @mask: the
 * library's own apply, or the administrator's write.
 */
static void irq_spread_vec_notify(struct irq_affinity_notify *notify,
				  const cpumask_t *mask)
{
	struct irq_spread_vec *vec = container_of(notify, struct irq_spread_vec,
						  notify);
	struct irq_spread_dev *sd = vec->sd;
	const unsigned long *bits = cpumask_bits(mask);
	unsigned int n = sd->topo->nr_cpus, k;

	mutex_lock(&irq_spread_dev_lock);
	if (sd->dead || !vec->irq || bitmap_equal(bits, vec->seen, n))
		goto unlock;
	/* Only a vector in use can be the administrator's. */
	if (irq_spread_dev_spread_index(sd, vec->index, &k) &&
	    k >= sd->nr_active)
		goto unlock;

	vec->admin = true;
	bitmap_zero(vec->admin_mask, sd->stride * BITS_PER_LONG);
	bitmap_copy(vec->admin_mask, bits, n);
	bitmap_copy(vec->seen, vec->admin_mask, sd->stride * BITS_PER_LONG);
	bitmap_copy(vec->now, vec->admin_mask, sd->stride * BITS_PER_LONG);
	vec->has_now = true;
	irq_spread_vec_rmap(sd, vec, vec->admin_mask);
	bitmap_zero(sd->changed, irq_spread_dev_nvec(sd));
	__set_bit(vec->index, sd->changed);
	irq_spread_dev_report(sd, sd->changed);
unlock:
	mutex_unlock(&irq_spread_dev_lock);
}

/* The notifier's memory is the vector's, freed after its removal. */
static void irq_spread_vec_notify_release(struct kref *ref)
{
}

/* What the interrupt has now, after an apply it refused. */
static void irq_spread_vec_reseen(struct irq_spread_dev *sd,
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
static int irq_spread_vec_apply(struct irq_spread_dev *sd,
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
static int irq_spread_dev_commit(struct irq_spread_dev *sd,
				 const unsigned long *masks,
				 unsigned int nr_active, bool reset, bool undo)
{
	unsigned int nvec = irq_spread_dev_nvec(sd), n = sd->topo->nr_cpus;
	struct irq_spread_vec_undo *old;
	struct irq_spread_vec *vec;
	unsigned int v, u;
	bool want;
	int ret = 0, err;

	lockdep_assert_held(&irq_spread_dev_lock);
	old = kcalloc(nvec, sizeof(*old), GFP_KERNEL);
	if (!old)
		return -ENOMEM;
	irq_spread_topo_eligible(sd->topo, sd->eligible);
	bitmap_zero(sd->changed, nvec);

	for (v = 0; v < nvec; v++) {
		vec = sd->vec[v];
		old[v].admin = vec->admin;
		old[v].hinted = vec->hinted;
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

/* After a commit: the aRFS map and the driver follow the changed vectors. */
static void irq_spread_dev_committed(struct irq_spread_dev *sd)
{
	struct irq_spread_vec *vec;
	unsigned int v;

	lockdep_assert_held(&irq_spread_dev_lock);
	for_each_set_bit(v, sd->changed, irq_spread_dev_nvec(sd)) {
		vec = sd->vec[v];
		if (vec->has_now)
			irq_spread_vec_rmap(sd, vec, vec->now);
	}
	irq_spread_dev_report(sd, sd->changed);
}

/*
 * Place the first @nr_active spread vectors afresh under @policy, the
 * device's own vectors out of the load, and apply the placement.  With
 * @reset, the administrator's vectors are handed back.  With @undo, all or
 * nothing: on error the placement, the load and the interrupts are as they
 * were.
 */
static int irq_spread_dev_respread(struct irq_spread_dev *sd,
				   unsigned int nr_active,
				   enum irq_spread_policy policy, bool reset,
				   bool undo)
{
	struct irq_spread_topology *topo = sd->topo;
	int ret;

	lockdep_assert_held(&irq_spread_dev_lock);
	irq_spread_topo_release(topo, sd->nr_active, sd->placed, sd->stride);
	ret = irq_spread_topo_cpus(topo, sd->node, nr_active, policy, NULL,
				   sd->spare, sd->stride);
	if (ret)
		goto hold;
	ret = irq_spread_dev_commit(sd, sd->spare, nr_active, reset, undo);
	if (ret && undo) {
		irq_spread_topo_release(topo, nr_active, sd->spare, sd->stride);
		goto hold;
	}
	swap(sd->placed, sd->spare);
	sd->nr_active = nr_active;
	sd->policy = policy;
	irq_spread_dev_committed(sd);
	return ret;

hold:
	irq_spread_topo_hold(topo, sd->nr_active, sd->placed, sd->stride);
	return ret;
}

static void irq_spread_vec_free(struct irq_spread_vec *vec)
{
	kfree(vec);
}

static struct irq_spread_vec *irq_spread_vec_alloc(struct irq_spread_dev *sd,
						   unsigned int index)
{
	struct irq_spread_vec *vec;

	vec = kzalloc(struct_size(vec, masks, 5 * sd->stride), GFP_KERNEL);
	if (!vec)
		return NULL;
	vec->sd = sd;
	vec->index = index;
	vec->rmap_index = -1;
	vec->hint[0] = vec->masks;
	vec->hint[1] = vec->masks + sd->stride;
	vec->seen = vec->masks + 2 * sd->stride;
	vec->admin_mask = vec->masks + 3 * sd->stride;
	vec->now = vec->masks + 4 * sd->stride;
	vec->notify.notify = irq_spread_vec_notify;
	vec->notify.release = irq_spread_vec_notify_release;
	return vec;
}

static void irq_spread_dev_free(struct irq_spread_dev *sd)
{
	unsigned int v;

	if (sd->vec) {
		for (v = 0; v < irq_spread_dev_nvec(sd); v++)
			irq_spread_vec_free(sd->vec[v]);
	}
	kfree(sd->vec);
	kvfree(sd->placed);
	kvfree(sd->spare);
	kfree(sd->eligible);
	kfree(sd->want);
	kfree(sd->report);
	bitmap_free(sd->changed);
	bitmap_free(sd->pending);
	kfree(sd->reserved);
	kfree(sd);
}

/*
 * The arrays sized by the number of vectors, for @nr spread vectors:
 * allocated all before any is replaced, so that a failure changes nothing.
 */
struct irq_spread_dev_arrays {
	struct irq_spread_vec **vec;
	unsigned long *placed;
	unsigned long *spare;
	unsigned long *changed;
	unsigned long *pending;
};

static void irq_spread_dev_arrays_free(struct irq_spread_dev_arrays *a)
{
	kfree(a->vec);
	kvfree(a->placed);
	kvfree(a->spare);
	bitmap_free(a->changed);
	bitmap_free(a->pending);
}

static int irq_spread_dev_arrays_alloc(struct irq_spread_dev *sd,
				       unsigned int nr,
				       struct irq_spread_dev_arrays *a)
{
	unsigned int nvec = sd->pre + nr + sd->post;
	size_t longs = array_size(nr, sd->stride);

	a->vec = kcalloc(nvec, sizeof(*a->vec), GFP_KERNEL);
	a->placed = kvcalloc(longs, sizeof(long), GFP_KERNEL);
	a->spare = kvcalloc(longs, sizeof(long), GFP_KERNEL);
	a->changed = bitmap_zalloc(nvec, GFP_KERNEL);
	a->pending = bitmap_zalloc(nvec, GFP_KERNEL);
	if (!a->vec || !a->placed || !a->spare || !a->changed || !a->pending) {
		irq_spread_dev_arrays_free(a);
		return -ENOMEM;
	}
	return 0;
}

static struct irq_spread_dev *
irq_spread_dev_alloc(struct irq_spread_topology *topo,
		     const struct irq_spread_dev_info *info)
{
	unsigned int nres = info->pre_vectors + info->post_vectors, v;
	struct irq_spread_dev_arrays a;
	struct irq_spread_dev *sd;

	sd = kzalloc(sizeof(*sd), GFP_KERNEL);
	if (!sd)
		return NULL;
	sd->topo = topo;
	sd->pre = info->pre_vectors;
	sd->post = info->post_vectors;
	/* The interrupt core reads the hints as struct cpumask. */
	sd->stride = max_t(size_t, BITS_TO_LONGS(topo->nr_cpus),
			   cpumask_size() / sizeof(long));
	sd->reserved = kcalloc(max(nres, 1U), sizeof(*sd->reserved), GFP_KERNEL);
	sd->eligible = kcalloc(sd->stride, sizeof(long), GFP_KERNEL);
	sd->want = kcalloc(sd->stride, sizeof(long), GFP_KERNEL);
	sd->report = kcalloc(sd->stride, sizeof(long), GFP_KERNEL);
	if (!sd->reserved || !sd->eligible || !sd->want || !sd->report ||
	    irq_spread_dev_arrays_alloc(sd, info->nr_vectors, &a))
		goto err;
	sd->vec = a.vec;
	sd->placed = a.placed;
	sd->spare = a.spare;
	sd->changed = a.changed;
	sd->pending = a.pending;
	sd->nr = info->nr_vectors;
	for (v = 0; v < irq_spread_dev_nvec(sd); v++) {
		sd->vec[v] = irq_spread_vec_alloc(sd, v);
		if (!sd->vec[v])
			goto err;
	}
	for (v = 0; v < nres; v++)
		sd->reserved[v] = info->reserved ? info->reserved[v] :
						   IRQ_SPREAD_ALL_CPUS;
	return sd;
err:
	irq_spread_dev_free(sd);
	return NULL;
}

static bool irq_spread_dev_info_valid(const struct irq_spread_topology *topo,
				      const struct irq_spread_dev_info *info)
{
	unsigned int nres, v, total;

	if (!info || !info->dev || !info->nr_vectors ||
	    (unsigned int)info->policy >= IRQ_SPREAD_NR_POLICIES)
		return false;
	if (info->node != NUMA_NO_NODE &&
	    (info->node < 0 || info->node >= topo->nr_nodes))
		return false;
	if (check_add_overflow(info->pre_vectors, info->post_vectors, &nres) ||
	    check_add_overflow(nres, info->nr_vectors, &total) ||
	    total > IRQ_SPREAD_MAX_VECTORS)
		return false;
	for (v = 0; info->reserved && v < nres; v++) {
		if (info->reserved[v] != IRQ_SPREAD_ALL_CPUS &&
		    (info->reserved[v] < 0 ||
		     info->reserved[v] >= info->nr_vectors))
			return false;
	}
#ifdef CONFIG_CPU_RMAP
	if (info->rmap && info->rmap->size < info->nr_vectors)
		return false;
#endif
	return true;
}

/* Give spread vectors @from to @sd->nr - 1 their objects in the aRFS map. */
static int irq_spread_dev_rmap_add(struct irq_spread_dev *sd, unsigned int from)
{
#ifdef CONFIG_CPU_RMAP
	struct irq_spread_vec *vec;
	unsigned int k;
	int idx;

	if (!sd->rmap)
		return 0;
	for (k = from; k < sd->nr; k++) {
		vec = sd->vec[sd->pre + k];
		idx = cpu_rmap_add(sd->rmap, vec);
		if (idx < 0)
			return idx;
		vec->rmap_index = idx;
	}
#endif
	return 0;
}

/* Take a vector's object out of the aRFS map: nobody's from now on. */
static void irq_spread_vec_rmap_del(struct irq_spread_dev *sd,
				    struct irq_spread_vec *vec)
{
#ifdef CONFIG_CPU_RMAP
	if (sd->rmap && vec->rmap_index >= 0)
		sd->rmap->obj[vec->rmap_index] = NULL;
#endif
	vec->rmap_index = -1;
}

/* Take spread vectors @from on out of the aRFS map. */
static void irq_spread_dev_rmap_del(struct irq_spread_dev *sd, unsigned int from)
{
	unsigned int k;

	for (k = from; k < sd->nr; k++)
		irq_spread_vec_rmap_del(sd, sd->vec[sd->pre + k]);
}

/**
 * irq_spread_dev_find - the registration of a device
 * @dev: the device
 *
 * Context: irq_spread_dev_lock held.
 * Return: its &struct irq_spread_dev, or %NULL if it is not registered.
 */
struct irq_spread_dev *irq_spread_dev_find(const struct device *dev)
{
	struct irq_spread_dev *sd;

	lockdep_assert_held(&irq_spread_dev_lock);
	list_for_each_entry(sd, &irq_spread_devs, list) {
		if (sd->dev == dev)
			return sd;
	}
	return NULL;
}
EXPORT_SYMBOL_IF_KUNIT(irq_spread_dev_find);

/* Place a new device's vectors and list it. */
static int irq_spread_dev_add(struct irq_spread_dev *sd)
{
	unsigned int v;
	int ret;

	mutex_lock(&irq_spread_dev_lock);
	if (irq_spread_dev_find(sd->dev)) {
		ret = -EBUSY;
		goto unlock;
	}
	ret = irq_spread_topo_cpus(sd->topo, sd->node, sd->nr, sd->policy, NULL,
				   sd->placed, sd->stride);
	if (ret)
		goto unlock;
	sd->nr_active = sd->nr;
	ret = irq_spread_dev_rmap_add(sd, 0);
	if (ret) {
		irq_spread_dev_rmap_del(sd, 0);
		irq_spread_topo_release(sd->topo, sd->nr_active, sd->placed,
					sd->stride);
		goto unlock;
	}
	irq_spread_topo_eligible(sd->topo, sd->eligible);
	for (v = 0; v < irq_spread_dev_nvec(sd); v++) {
		irq_spread_vec_refresh(sd, v, sd->placed, sd->nr_active);
		irq_spread_vec_rmap(sd, sd->vec[v], sd->vec[v]->now);
	}
	list_add_tail(&sd->list, &irq_spread_devs);
unlock:
	mutex_unlock(&irq_spread_dev_lock);
	return ret;
}

/*
 * Off the list and out of the load, nothing applied or reported any more;
 * return the interrupts still attached in @irqs (if not %NULL), their
 * hints taken away.
 */
static void irq_spread_dev_remove(struct irq_spread_dev *sd, unsigned int *irqs)
{
	struct irq_spread_vec *vec;
	unsigned int v;

	mutex_lock(&irq_spread_dev_lock);
	list_del(&sd->list);
	sd->dead = true;
	for (v = 0; v < irq_spread_dev_nvec(sd); v++) {
		vec = sd->vec[v];
		if (irqs)
			irqs[v] = vec->irq;
		if (vec->irq && vec->hinted)
			irq_spread_irq_hint(vec->irq, NULL);
		vec->hinted = false;
		vec->irq = 0;
	}
	irq_spread_topo_release(sd->topo, sd->nr_active, sd->placed, sd->stride);
	irq_spread_dev_rmap_del(sd, 0);
	mutex_unlock(&irq_spread_dev_lock);
}

/**
 * irq_spread_dev_topo_register - register a device on a topology
 * @topo: the machine
 * @info: the device
 *
 * See irq_spread_dev_register().
 *
 * Context: process context, may sleep.
 * Return: the registered device, or an ERR_PTR().
 */
struct irq_spread_dev *
irq_spread_dev_topo_register(struct irq_spread_topology *topo,
			     const struct irq_spread_dev_info *info)
{
	struct irq_spread_dev *sd;
	int ret;

	if (!irq_spread_dev_info_valid(topo, info))
		return ERR_PTR(-EINVAL);
	sd = irq_spread_dev_alloc(topo, info);
	if (!sd)
		return ERR_PTR(-ENOMEM);
	sd->dev = info->dev;
	sd->node = info->node;
	sd->policy = irq_spread_default_policy_is_set() ?
		     irq_spread_default_policy() : info->policy;
	sd->ops = info->ops;
	sd->priv = info->priv;
	sd->rmap = info->rmap;
	INIT_WORK(&sd->work, irq_spread_dev_work);

	ret = irq_spread_dev_add(sd);
	if (ret)
		goto err_free;

	/* Last: the policy file expects a listed device. */
	ret = sysfs_create_group(&sd->dev->kobj, &irq_spread_dev_group);
	if (ret)
		goto err_remove;
	/* The group came after the device's "add": let udev see it. */
	kobject_uevent(&sd->dev->kobj, KOBJ_CHANGE);
	return sd;

err_remove:
	/* No interrupt can be attached yet. */
	irq_spread_dev_remove(sd, NULL);
err_free:
	irq_spread_dev_free(sd);
	return ERR_PTR(ret);
}
EXPORT_SYMBOL_IF_KUNIT(irq_spread_dev_topo_register);

/**
 * irq_spread_dev_register - register a device's vectors with irq_spread
 * @info: the device: its vectors, its node, the driver's callbacks
 *
 * Places the device's spread vectors under its policy, before any of their
 * interrupts exists: irq_spread_dev_vector_mask() and
 * irq_spread_dev_vector_cpu() answer at once, so that a driver can create
 * a queue on its vector's node before it requests the interrupt.  The
 * driver then attaches each vector's interrupt when it has one
 * (irq_spread_dev_attach()), in any order, and detaches it before it frees
 * it.  From then on the library keeps the vectors placed (see
 * Documentation/core-api/irq_spread.rst): when the driver changes the
 * number of vectors in use (irq_spread_dev_set_vectors(),
 * irq_spread_dev_resize()), when the administrator writes a policy to
 * ``<dev>/irq_spread/policy``, and when a CPU goes offline or comes
 * online; a vector whose affinity the administrator writes in
 * ``/proc/irq/N/smp_affinity`` keeps it until a policy is written.  Each
 * change after registration is told to @info->ops.
 *
 * The device gets the system default policy if the administrator set one,
 * else @info->policy; all its spread vectors are in use.
 *
 * Context: process context, may sleep.  May be called with the CPU hotplug
 * lock held (cpus_read_lock()), as every call of the device API may.
 * Return: the registered device, or an ERR_PTR(): -EINVAL if @info is
 * %NULL, has no device, no spread vector, more than
 * %IRQ_SPREAD_MAX_VECTORS vectors, a bad node, policy or reserved entry, or
 * an rmap with less room than @info->nr_vectors; -EBUSY if the
 * device is registered already; -ENOMEM; -ENODEV if no CPU is online; or
 * the error of the sysfs group's creation.  On error nothing is left
 * registered or counted.
 */
struct irq_spread_dev *irq_spread_dev_register(const struct irq_spread_dev_info *info)
{
	return irq_spread_dev_topo_register(&irq_spread_system, info);
}
EXPORT_SYMBOL_GPL(irq_spread_dev_register);

/**
 * irq_spread_dev_unregister - stop placing a device's vectors
 * @sd: what irq_spread_dev_register() returned; nothing happens for %NULL
 *	or an ERR_PTR()
 *
 * Removes ``<dev>/irq_spread``, detaches the interrupts still attached
 * (they keep their affinity, lose the hint and the library's notifier)
 * and takes the vectors out of the per-CPU load.  Call it before the
 * interrupts are freed: free_irq() warns about a hint or a notifier left
 * set.  Waits for a call of &irq_spread_dev_ops.changed in progress and
 * cancels those not started.
 *
 * Context: process context, may sleep; not from
 * &irq_spread_dev_ops.changed, and not holding a lock that callback takes.
 */
void irq_spread_dev_unregister(struct irq_spread_dev *sd)
{
	unsigned int v, *irqs;

	if (IS_ERR_OR_NULL(sd))
		return;
	/* Waits for the policy file's show and store, which take the lock. */
	sysfs_remove_group(&sd->dev->kobj, &irq_spread_dev_group);
	irqs = kcalloc(irq_spread_dev_nvec(sd), sizeof(*irqs),
		       GFP_KERNEL | __GFP_NOFAIL);
	irq_spread_dev_remove(sd, irqs);
	for (v = 0; v < irq_spread_dev_nvec(sd); v++) {
		if (irqs[v])
			irq_spread_irq_notifier(irqs[v], NULL);
	}
	kfree(irqs);
	cancel_work_sync(&sd->work);
	irq_spread_dev_free(sd);
}
EXPORT_SYMBOL_GPL(irq_spread_dev_unregister);

/**
 * irq_spread_dev_attach - give a vector its interrupt
 * @sd: the device
 * @vector: the device vector number
 * @irq: its Linux interrupt number (pci_irq_vector() and the like),
 *	allocated; normally requested
 *
 * Sets the vector's mask as the interrupt's affinity and affinity hint if
 * the vector is in use (a spread vector beyond irq_spread_dev_set_vectors()
 * only gets it once it is), and installs the library's affinity notifier
 * on the interrupt, which tells the administrator's writes from the
 * library's and keeps the device's aRFS map in step.  The interrupt must
 * have no other affinity notifier: see &irq_spread_dev_info.rmap.  The
 * driver must not set the interrupt's affinity itself while it is
 * attached: that would count as the administrator's.
 *
 * Context: process context, may sleep.
 * Return: 0; -EINVAL if @sd is %NULL, @vector out of range or @irq 0;
 * -EBUSY if the vector has an interrupt already or the interrupt has
 * another affinity notifier; the interrupt core's error if it refuses the
 * affinity or the notifier.  On error the vector is left without an
 * interrupt and the interrupt as it was.
 */
int irq_spread_dev_attach(struct irq_spread_dev *sd, unsigned int vector,
			  unsigned int irq)
{
	struct irq_spread_vec *vec;
	int ret;

	if (!sd || !irq)
		return -EINVAL;
	mutex_lock(&irq_spread_dev_lock);
	if (vector >= irq_spread_dev_nvec(sd)) {
		mutex_unlock(&irq_spread_dev_lock);
		return -EINVAL;
	}
	vec = sd->vec[vector];
	if (vec->irq) {
		mutex_unlock(&irq_spread_dev_lock);
		return -EBUSY;
	}
	/* Until the notifier is in, nothing tells the administrator's. */
	vec->irq = irq;
	vec->hinted = false;
	bitmap_zero(vec->seen, sd->stride * BITS_PER_LONG);
	irq_spread_vec_reseen(sd, vec);
	mutex_unlock(&irq_spread_dev_lock);

	ret = irq_spread_irq_notifier(irq, &vec->notify);
	if (ret)
		goto err;

	/* A detached vector is nobody's but the placement's. */
	mutex_lock(&irq_spread_dev_lock);
	ret = 0;
	if (vec->has_now) {
		ret = irq_spread_vec_apply(sd, vec, vec->now);
		if (!ret)
			irq_spread_vec_rmap(sd, vec, vec->now);
	}
	mutex_unlock(&irq_spread_dev_lock);
	if (!ret)
		return 0;
	irq_spread_irq_notifier(irq, NULL);
err:
	mutex_lock(&irq_spread_dev_lock);
	vec->irq = 0;
	mutex_unlock(&irq_spread_dev_lock);
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
 * administrator had set goes back to its placement.  Call it before
 * free_irq().  Does nothing for a vector without an interrupt.
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
	mutex_lock(&irq_spread_dev_lock);
	if (vector >= irq_spread_dev_nvec(sd) || !sd->vec[vector]->irq) {
		mutex_unlock(&irq_spread_dev_lock);
		return;
	}
	vec = sd->vec[vector];
	irq = vec->irq;
	if (vec->hinted)
		irq_spread_irq_hint(irq, NULL);
	vec->hinted = false;
	vec->irq = 0;
	if (vec->admin) {
		vec->admin = false;
		irq_spread_topo_eligible(sd->topo, sd->eligible);
		irq_spread_vec_refresh(sd, vector, sd->placed, sd->nr_active);
		bitmap_zero(sd->changed, irq_spread_dev_nvec(sd));
		__set_bit(vector, sd->changed);
		irq_spread_dev_committed(sd);
	}
	mutex_unlock(&irq_spread_dev_lock);
	irq_spread_irq_notifier(irq, NULL);
}
EXPORT_SYMBOL_GPL(irq_spread_dev_detach);

/**
 * irq_spread_dev_vector_mask - the CPUs of a vector
 * @sd: the device
 * @vector: the device vector number
 * @mask: where to write them
 *
 * The CPUs the library gives the vector now, whether or not it has an
 * interrupt: the administrator's, if the administrator set its affinity;
 * else its placement.  The same state gives the same answer.
 *
 * Context: process context, may sleep.
 * Return: 0; -EINVAL if @sd or @mask is %NULL or @vector is out of range;
 * -ENODATA for a spread vector not in use (irq_spread_dev_set_vectors()),
 * which has no CPUs.
 */
int irq_spread_dev_vector_mask(struct irq_spread_dev *sd, unsigned int vector,
			       struct cpumask *mask)
{
	int ret = 0;

	if (!sd || !mask)
		return -EINVAL;
	mutex_lock(&irq_spread_dev_lock);
	if (vector >= irq_spread_dev_nvec(sd)) {
		ret = -EINVAL;
		goto unlock;
	}
	if (!irq_spread_dev_current(sd, vector, sd->want)) {
		ret = -ENODATA;
		goto unlock;
	}
	cpumask_clear(mask);
	bitmap_copy(cpumask_bits(mask), sd->want, sd->topo->nr_cpus);
unlock:
	mutex_unlock(&irq_spread_dev_lock);
	return ret;
}
EXPORT_SYMBOL_GPL(irq_spread_dev_vector_mask);

/**
 * irq_spread_dev_vector_cpu - the first CPU of a vector
 * @sd: the device
 * @vector: the device vector number
 *
 * The lowest-numbered CPU of irq_spread_dev_vector_mask(): for a driver
 * that opens a queue on its vector's CPU (cpu_to_node() of it for the
 * queue's memory), as mlx5_comp_vector_get_cpu() does.
 *
 * Context: process context, may sleep.
 * Return: the CPU, or the error of irq_spread_dev_vector_mask().
 */
int irq_spread_dev_vector_cpu(struct irq_spread_dev *sd, unsigned int vector)
{
	int ret = 0;

	if (!sd)
		return -EINVAL;
	mutex_lock(&irq_spread_dev_lock);
	if (vector >= irq_spread_dev_nvec(sd)) {
		ret = -EINVAL;
		goto unlock;
	}
	if (!irq_spread_dev_current(sd, vector, sd->want))
		ret = -ENODATA;
	else
		ret = find_first_bit(sd->want, sd->topo->nr_cpus);
unlock:
	mutex_unlock(&irq_spread_dev_lock);
	return ret;
}
EXPORT_SYMBOL_GPL(irq_spread_dev_vector_cpu);

/**
 * irq_spread_dev_set_vectors - change the number of spread vectors in use
 * @sd: the device
 * @nvec: number of spread vectors now in use, the first @nvec of them: 1
 *	to the number registered
 *
 * For a driver that changes its number of queues (``ethtool -L``): places
 * the first @nvec spread vectors afresh under the device's policy and
 * applies the placement to the vectors whose mask changed, except those
 * the administrator set.  The spread vectors beyond @nvec keep their
 * interrupt and its affinity, but lose their affinity hint and their
 * place in the per-CPU load; one the administrator had set is the
 * administrator's again when it is back in use.  Reserved vectors that
 * follow a spread vector beyond @nvec follow the one @nvec below.
 *
 * Context: process context, may sleep.
 * Return: 0; -EINVAL if @sd is %NULL or @nvec is out of range; -ENOMEM; or
 * the interrupt core's error for a vector it refused to move, in which
 * case nothing changed: the placement, the interrupts and the number of
 * vectors in use are as they were.
 */
int irq_spread_dev_set_vectors(struct irq_spread_dev *sd, unsigned int nvec)
{
	int ret;

	if (!sd)
		return -EINVAL;
	mutex_lock(&irq_spread_dev_lock);
	if (!nvec || nvec > sd->nr) {
		ret = -EINVAL;
		goto unlock;
	}
	ret = irq_spread_dev_respread(sd, nvec, sd->policy, false, true);
unlock:
	mutex_unlock(&irq_spread_dev_lock);
	return ret;
}
EXPORT_SYMBOL_GPL(irq_spread_dev_set_vectors);

/*
 * The vectors of a device with @nr spread vectors, in @a: the reserved
 * ones after the spread ones move to their new numbers, new spread ones
 * are allocated, and dropped ones freed once the change is certain.
 */
static int irq_spread_dev_resize_vecs(struct irq_spread_dev *sd,
				      unsigned int nr,
				      struct irq_spread_dev_arrays *a)
{
	unsigned int keep = min(nr, sd->nr), v;

	for (v = 0; v < sd->pre + keep; v++)
		a->vec[v] = sd->vec[v];
	for (v = 0; v < sd->post; v++) {
		a->vec[sd->pre + nr + v] = sd->vec[sd->pre + sd->nr + v];
		a->vec[sd->pre + nr + v]->index = sd->pre + nr + v;
	}
	for (v = sd->pre + keep; v < sd->pre + nr; v++) {
		a->vec[v] = irq_spread_vec_alloc(sd, v);
		if (!a->vec[v])
			goto err;
	}
	return 0;
err:
	while (v-- > sd->pre + keep)
		irq_spread_vec_free(a->vec[v]);
	for (v = 0; v < sd->post; v++)
		sd->vec[sd->pre + sd->nr + v]->index = sd->pre + sd->nr + v;
	return -ENOMEM;
}

/**
 * irq_spread_dev_resize - change the number of spread vectors registered
 * @sd: the device
 * @nr_vectors: the new number of spread vectors, at least 1
 *
 * For a driver that allocates or frees vectors at run time (dynamic
 * MSI-X, pci_msix_alloc_irq_at()): the device now has @nr_vectors spread
 * vectors, all in use, placed afresh and applied as
 * irq_spread_dev_set_vectors() does.  Vectors beyond the new count must
 * have no interrupt attached.  Reserved vectors after the spread ones
 * keep their interrupts and move to their new device vector numbers.  New
 * spread vectors get their objects in the device's aRFS map.
 *
 * Context: process context, may sleep.
 * Return: 0; -EINVAL if @sd is %NULL, @nr_vectors is 0, a reserved vector
 * follows a spread vector that would go, or the device would have more
 * than %IRQ_SPREAD_MAX_VECTORS vectors;
 * -EBUSY if a vector that would go has an interrupt attached; -ENOSPC if
 * the aRFS map has no room for the new ones; -ENOMEM; or the interrupt
 * core's error for a vector it refused to move.  On error nothing changed.
 */
int irq_spread_dev_resize(struct irq_spread_dev *sd, unsigned int nr_vectors)
{
	struct irq_spread_dev_arrays a, old;
	unsigned int v, k, nr_old, nres, total;
	int ret;

	if (!sd || !nr_vectors)
		return -EINVAL;
	mutex_lock(&irq_spread_dev_lock);
	nr_old = sd->nr;
	nres = sd->pre + sd->post;
	ret = -EINVAL;
	if (check_add_overflow(nres, nr_vectors, &total) ||
	    total > IRQ_SPREAD_MAX_VECTORS)
		goto unlock;
	for (v = 0; v < nres; v++) {
		if (sd->reserved[v] >= (int)nr_vectors)
			goto unlock;
	}
	ret = -EBUSY;
	for (k = nr_vectors; k < nr_old; k++) {
		if (sd->vec[sd->pre + k]->irq)
			goto unlock;
	}
#ifdef CONFIG_CPU_RMAP
	ret = -ENOSPC;
	if (sd->rmap && nr_vectors > nr_old &&
	    sd->rmap->size < nr_vectors)
		goto unlock;
#endif
	ret = irq_spread_dev_arrays_alloc(sd, nr_vectors, &a);
	if (ret)
		goto unlock;
	ret = irq_spread_dev_resize_vecs(sd, nr_vectors, &a);
	if (ret) {
		irq_spread_dev_arrays_free(&a);
		goto unlock;
	}

	/* Place the new vectors: the old ones stay until it works. */
	irq_spread_topo_release(sd->topo, sd->nr_active, sd->placed,
				sd->stride);
	ret = irq_spread_topo_cpus(sd->topo, sd->node, nr_vectors, sd->policy,
				   NULL, a.placed, sd->stride);
	if (ret)
		goto undo;
	old = (struct irq_spread_dev_arrays){ sd->vec, sd->placed, sd->spare,
					      sd->changed, sd->pending };
	sd->vec = a.vec;
	sd->nr = nr_vectors;
	sd->spare = a.spare;
	sd->changed = a.changed;
	sd->pending = a.pending;
	/* The placement made, kept until the commit went through. */
	ret = irq_spread_dev_commit(sd, a.placed, nr_vectors, false, true);
	if (ret) {
		irq_spread_topo_release(sd->topo, nr_vectors, a.placed,
					sd->stride);
		sd->vec = old.vec;
		sd->nr = nr_old;
		sd->spare = old.spare;
		sd->changed = old.changed;
		sd->pending = old.pending;
		goto undo;
	}
	sd->placed = a.placed;
	sd->nr_active = nr_vectors;
	bitmap_copy(sd->pending, old.pending,
		    min(irq_spread_dev_nvec(sd), sd->pre + nr_old + sd->post));
	if (nr_vectors < nr_old) {
		for (v = sd->pre + nr_vectors; v < sd->pre + nr_old; v++) {
			irq_spread_vec_rmap_del(sd, old.vec[v]);
			irq_spread_vec_free(old.vec[v]);
		}
	} else {
		irq_spread_dev_rmap_add(sd, nr_old);
	}
	old.vec = NULL;
	irq_spread_dev_arrays_free(&old);
	irq_spread_dev_committed(sd);
	goto unlock;

undo:
	irq_spread_topo_hold(sd->topo, sd->nr_active, sd->placed, sd->stride);
	for (v = sd->pre + min(nr_vectors, nr_old); v < sd->pre + nr_vectors; v++)
		irq_spread_vec_free(a.vec[v]);
	for (v = 0; v < sd->post; v++)
		sd->vec[sd->pre + nr_old + v]->index = sd->pre + nr_old + v;
	irq_spread_dev_arrays_free(&a);
unlock:
	mutex_unlock(&irq_spread_dev_lock);
	return ret;
}
EXPORT_SYMBOL_GPL(irq_spread_dev_resize);

/**
 * irq_spread_dev_set_policy - switch a device to a policy, as the admin does
 * @sd: the device
 * @policy: the policy, valid
 *
 * Hands the vectors the administrator set back to the policy and places
 * the vectors in use afresh under @policy, all of them applied.
 *
 * Context: process context, may sleep.
 * Return: 0; -ENOMEM; or the interrupt core's error for a vector it
 * refused to move.  On error nothing changed: the policy, the placement,
 * the interrupts and the administrator's vectors are as they were.
 */
int irq_spread_dev_set_policy(struct irq_spread_dev *sd,
			      enum irq_spread_policy policy)
{
	int ret;

	mutex_lock(&irq_spread_dev_lock);
	ret = irq_spread_dev_respread(sd, sd->nr_active, policy, true, true);
	mutex_unlock(&irq_spread_dev_lock);
	return ret;
}

/*
 * Spread vector @k of @sd, left without a CPU: the slot its policy gives
 * among the CPUs not leaving, with every other vector counted; a
 * numa-core vector alone on its core gets the whole core.
 */
static int irq_spread_dev_repair_slot(struct irq_spread_dev *sd, unsigned int k)
{
	struct irq_spread_topology *topo = sd->topo;
	unsigned long *mask = irq_spread_dev_mask(sd, sd->spare, k);
	unsigned int n = topo->nr_cpus, j, slot;
	const unsigned long *sibs;
	int ret;

	ret = irq_spread_topo_spread(topo, sd->node, 1, sd->policy, NULL, mask,
				     sd->stride, IRQ_SPREAD_SLOT_ONLY);
	if (ret || sd->policy != IRQ_SPREAD_NUMA_CORE)
		return ret;

	slot = find_first_bit(mask, n);
	sibs = topo->ops->sibling_cpus(topo, slot);
	for (j = 0; j < sd->nr_active; j++) {
		if (j != k && bitmap_intersects(irq_spread_dev_mask(sd, sd->spare, j),
						sibs, n))
			return 0;
	}
	irq_spread_topo_release(topo, 1, mask, sd->stride);
	irq_spread_topo_eligible(topo, sd->want);
	bitmap_and(mask, sibs, sd->want, n);
	__set_bit(slot, mask);
	irq_spread_topo_hold(topo, 1, mask, sd->stride);
	return 0;
}

/*
 * Whether mask @i of the fresh placement @fresh is one no other vector
 * has: not among the vectors of @sd->spare that keep a CPU (each of which
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
		    bitmap_intersects(irq_spread_dev_mask(sd, sd->spare, j), m, n))
			return false;
	}
	return true;
}

/*
 * The vectors in @empty lost their last CPU.  A fresh placement without
 * the leaving CPUs says where the device's vectors belong now: each
 * vector in @empty takes, nearest first, a mask of it that the vectors
 * keeping a CPU do not have and do not touch; so the device's vectors
 * still keep every rule of the policy (floor and ceiling per CPU, one per
 * core before a sibling), and no other vector moves.  A vector for which
 * there is none takes its best slot alone (irq_spread_dev_repair_slot()).
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
	irq_spread_topo_release(topo, nr, sd->spare, sd->stride);
	ret = irq_spread_topo_cpus(topo, sd->node, nr, sd->policy, NULL, fresh,
				   sd->stride);
	if (ret)
		goto hold;
	irq_spread_topo_release(topo, nr, fresh, sd->stride);

	/* Each vector keeping a CPU has its equal, if any, in @fresh. */
	for (j = 0; j < nr; j++) {
		if (test_bit(j, empty))
			continue;
		for (i = 0; i < nr; i++) {
			if (!test_bit(i, used) &&
			    bitmap_equal(fresh + i * sd->stride,
					 irq_spread_dev_mask(sd, sd->spare, j), n)) {
				__set_bit(i, used);
				break;
			}
		}
	}
	i = 0;
	for_each_set_bit(k, empty, nr) {
		while (i < nr &&
		       !irq_spread_dev_fresh_free(sd, fresh, empty, used, i))
			i++;
		if (i == nr)
			break;
		bitmap_copy(irq_spread_dev_mask(sd, sd->spare, k),
			    fresh + i * sd->stride, sd->stride * BITS_PER_LONG);
		__set_bit(i, used);
		__clear_bit(k, empty);
	}
hold:
	/* The vectors keeping a CPU, and those just placed, count again. */
	for (j = 0; j < nr; j++) {
		if (!test_bit(j, empty))
			irq_spread_topo_hold(topo, 1, irq_spread_dev_mask(sd, sd->spare, j),
					     sd->stride);
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

/* @cpu is leaving: move the vectors of @sd whose mask holds it, only. */
static void irq_spread_dev_cpu_offline(struct irq_spread_dev *sd,
				       unsigned int cpu)
{
	size_t longs = array_size(sd->nr_active, sd->stride);
	unsigned int n = sd->topo->nr_cpus, k;
	unsigned long *mask, *empty;
	bool moved = false;

	lockdep_assert_held(&irq_spread_dev_lock);
	empty = bitmap_zalloc(sd->nr_active, GFP_KERNEL);
	if (!empty) {
		dev_warn(sd->dev, "irq_spread: vectors left on CPU %u\n", cpu);
		return;
	}
	memcpy(sd->spare, sd->placed, longs * sizeof(long));
	for (k = 0; k < sd->nr_active; k++) {
		mask = irq_spread_dev_mask(sd, sd->spare, k);
		if (!test_bit(cpu, mask))
			continue;
		/* A vector with other CPUs keeps them. */
		irq_spread_topo_release(sd->topo, 1, mask, sd->stride);
		__clear_bit(cpu, mask);
		if (bitmap_empty(mask, n))
			__set_bit(k, empty);
		else
			irq_spread_topo_hold(sd->topo, 1, mask, sd->stride);
		moved = true;
	}
	if (!bitmap_empty(empty, sd->nr_active))
		irq_spread_dev_repair(sd, empty);
	bitmap_free(empty);
	/* Reserved vectors on every CPU lose this one too. */
	for (k = 0; !moved && k < sd->pre + sd->post; k++)
		moved = sd->reserved[k] == IRQ_SPREAD_ALL_CPUS;
	if (!moved)
		return;
	irq_spread_dev_commit(sd, sd->spare, sd->nr_active, false, false);
	swap(sd->placed, sd->spare);
	irq_spread_dev_committed(sd);
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

	mutex_lock(&irq_spread_dev_lock);
	if (topo->leaving)
		set_bit(cpu, topo->leaving);
	list_for_each_entry(sd, &irq_spread_devs, list) {
		if (sd->topo == topo)
			irq_spread_dev_cpu_offline(sd, cpu);
	}
	mutex_unlock(&irq_spread_dev_lock);
}
EXPORT_SYMBOL_IF_KUNIT(irq_spread_devs_cpu_offline);

/**
 * irq_spread_devs_cpu_online - a CPU of a topology came online
 * @topo: the machine
 * @cpu: the CPU, online; or one that went offline, to undo its marking
 *	when taking it offline failed
 *
 * Places every device afresh, in registration order, each with the other
 * devices' load, and applies only the vectors whose mask changed: after a
 * CPU went offline and came back, that is what moved when it went.
 * Failures are logged: a device that cannot be placed keeps its placement.
 *
 * Context: process context, may sleep; from a CPU hotplug callback, with
 * the CPU hotplug lock held.
 */
void irq_spread_devs_cpu_online(struct irq_spread_topology *topo,
				unsigned int cpu)
{
	struct irq_spread_dev *sd;
	int ret;

	mutex_lock(&irq_spread_dev_lock);
	if (topo->leaving)
		clear_bit(cpu, topo->leaving);
	list_for_each_entry(sd, &irq_spread_devs, list) {
		if (sd->topo != topo)
			continue;
		ret = irq_spread_dev_respread(sd, sd->nr_active, sd->policy,
					      false, false);
		if (ret)
			dev_warn(sd->dev, "irq_spread: vectors not placed again: %d\n",
				 ret);
	}
	mutex_unlock(&irq_spread_dev_lock);
}
EXPORT_SYMBOL_IF_KUNIT(irq_spread_devs_cpu_online);

static int irq_spread_cpu_online(unsigned int cpu)
{
	irq_spread_devs_cpu_online(&irq_spread_system, cpu);
	return 0;
}

/*
 * The CPU is still online, and its interrupts move off it later: move the
 * vectors first, so that the interrupt core need not break their affinity.
 */
static int irq_spread_cpu_offline(unsigned int cpu)
{
	irq_spread_devs_cpu_offline(&irq_spread_system, cpu);
	return 0;
}

static const char * const irq_spread_vec_kinds[] = { "pre", "spread", "post" };

/* One line per vector of @sd. */
static void irq_spread_dev_show(struct seq_file *m, struct irq_spread_dev *sd)
{
	unsigned int n = sd->topo->nr_cpus, v, k, kind;
	const struct irq_spread_vec *vec;
	const char *state;
	char *path;

	path = kobject_get_path(&sd->dev->kobj, GFP_KERNEL);
	for (v = 0; v < irq_spread_dev_nvec(sd); v++) {
		vec = sd->vec[v];
		kind = v < sd->pre ? 0 : v < sd->pre + sd->nr ? 1 : 2;
		state = vec->admin ? "admin" : "active";
		if (irq_spread_dev_spread_index(sd, v, &k) && k >= sd->nr_active)
			state = "inactive";
		seq_printf(m, "%s %s %u ", path ?: "?",
			   irq_spread_policy_name(sd->policy), v);
		if (vec->irq)
			seq_printf(m, "%u", vec->irq);
		else
			seq_puts(m, "-");
		seq_printf(m, " %s %s ", irq_spread_vec_kinds[kind], state);
		if (irq_spread_dev_current(sd, v, sd->want))
			seq_printf(m, "%*pbl\n", n, sd->want);
		else
			seq_puts(m, "-\n");
	}
	kfree(path);
}

/**
 * irq_spread_devs_show - write every registered device's vectors
 * @m: the seq_file of ``/sys/kernel/debug/irq_spread/devices``
 * @v: unused
 *
 * A header, then one line per vector of every device: the device's sysfs
 * path (without /sys), its policy, the device vector number, its Linux
 * interrupt or "-", its kind ("pre", "spread" or "post"), its state
 * ("active", "admin" for one the administrator set, "inactive" for a
 * spread vector not in use) and its CPUs (irq_spread_dev_vector_mask(), or
 * "-").  Changes nothing.
 *
 * Return: 0.
 */
int irq_spread_devs_show(struct seq_file *m, void *v)
{
	struct irq_spread_dev *sd;

	seq_puts(m, "device policy vector irq kind state cpus\n");
	mutex_lock(&irq_spread_dev_lock);
	list_for_each_entry(sd, &irq_spread_devs, list)
		irq_spread_dev_show(m, sd);
	mutex_unlock(&irq_spread_dev_lock);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(irq_spread_devs_show);

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
