// SPDX-License-Identifier: GPL-2.0
/*
 * irq_spread devices: a driver registers a device by its number of vectors,
 * attaches each vector's interrupt when it requests it, and the library
 * keeps the vectors placed under the device's policy: when the driver
 * changes the number of vectors in use, when the administrator writes a
 * policy or a CPU list to the registration's class device (or, through
 * net core, a netdev's files), and when a CPU goes offline or online.
 * This file holds the driver API and the devices' state;
 * device_irq.c what is applied to the interrupts, the administrator's
 * masks and the driver's callback; device_hotplug.c CPU hotplug; sysfs.c
 * the class device with the administrator's files.
 *
 * What the administrator set (a policy, the CPUs a device may use, an
 * interrupt's affinity) lasts as long as the registration, through a
 * detach and attach of the vector's interrupt; without
 * %IRQ_SPREAD_DEV_NO_CLASS it is also kept on the device, in a devres
 * entry, for the next registration of the same device (a driver that
 * re-registers on reset), until the driver is unbound.
 *
 * Locking, outermost first:
 *
 *  - the CPU hotplug lock, held for writing by the CPU hotplug callbacks
 *    (the library never takes it, so any call may be made with it held,
 *    but irq_spread_dev_unregister(), which waits for the driver's
 *    callback, which may take it);
 *  - irq_spread_devs_lock, a mutex: the list of devices.  Held to add a
 *    device (its first placement and its entry, so that a CPU hotplug
 *    callback sees it placed or not at all), to remove one, and by the
 *    CPU hotplug callbacks, the debugfs files and the class's irqs file
 *    (irq_spread_devs_irqs()), which visit every device in turn; or,
 *    never with it, the pools' locks (pool.c), a pool's taken before the
 *    lock of a device it belongs to or serves;
 *  - &irq_spread_dev.lock, a mutex per device: the device's state.  Its
 *    calls, its files, its affinity notifications and its report work
 *    take it, and no other device's: two devices are placed, applied and
 *    written to at the same time.  No code holds two devices' locks;
 *  - the topology lock (inside the engine), which makes each spread and
 *    release of any device one step of the per-CPU load; then
 *    &irq_spread_dev.seq_lock, a raw spinlock held only to write the
 *    vectors' CPUs that irq_spread_dev_vector_mask() and
 *    irq_spread_dev_vector_cpu() read without a lock, under the sequence
 *    count &irq_spread_dev.seq; then the interrupt descriptor locks
 *    (inside the interrupt core).
 *
 * Nothing waits for the affinity notifier, the driver's callback or the
 * sysfs files with a device's lock held, as each of them takes it.
 *
 * Pools (pool.c) have their own locks, a mutex for the list of pools and
 * one per pool, which the library never takes with irq_spread_devs_lock or
 * a device's lock held: the irqs file reads the devices, then the pools.
 */
#define pr_fmt(fmt) "irq_spread: " fmt

#include <linux/bitmap.h>
#include <linux/cpu_rmap.h>
#include <linux/cpumask.h>
#include <linux/device.h>
#include <linux/err.h>
#include <linux/export.h>
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
#include <linux/seqlock.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/sysfs.h>
#include <linux/workqueue.h>

#include <kunit/visibility.h>

#include "irq_spread_internal.h"

/* Protects irq_spread_devs; taken before any device's lock. */
DEFINE_MUTEX(irq_spread_devs_lock);

LIST_HEAD(irq_spread_devs);

static void irq_spread_vec_free(struct irq_spread_vec *vec)
{
	kfree(vec);
}

static struct irq_spread_vec *irq_spread_vec_alloc(struct irq_spread_dev *sd,
						   unsigned int index)
{
	struct irq_spread_vec *vec;

	vec = kzalloc(struct_size(vec, masks, 6 * sd->stride), GFP_KERNEL);
	if (!vec)
		return NULL;
	vec->sd = sd;
	vec->index = index;
	INIT_LIST_HEAD(&vec->pool_link);
	vec->hint[0] = vec->masks;
	vec->hint[1] = vec->masks + sd->stride;
	vec->seen = vec->masks + 2 * sd->stride;
	vec->admin_mask = vec->masks + 3 * sd->stride;
	vec->now = vec->masks + 4 * sd->stride;
	vec->home = vec->masks + 5 * sd->stride;
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
	kfree(sd->usable);
	kfree(sd->exclude);
	kfree(sd->want);
	kfree(sd->report);
	bitmap_free(sd->changed);
	bitmap_free(sd->pending);
	kfree(sd->reserved);
	mutex_destroy(&sd->lock);
	kfree(sd);
}

/* The arrays sized by the number of vectors, for @nr spread vectors. */
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
	mutex_init(&sd->lock);
	raw_spin_lock_init(&sd->seq_lock);
	seqcount_raw_spinlock_init(&sd->seq, &sd->seq_lock);
	sd->topo = topo;
	sd->pre = info->pre_vectors;
	sd->post = info->post_vectors;
	/* The interrupt core reads the hints as struct cpumask. */
	sd->stride = max_t(size_t, BITS_TO_LONGS(topo->nr_cpus),
			   cpumask_size() / sizeof(long));
	sd->reserved = kcalloc(max(nres, 1U), sizeof(*sd->reserved), GFP_KERNEL);
	sd->eligible = kcalloc(sd->stride, sizeof(long), GFP_KERNEL);
	sd->usable = kcalloc(sd->stride, sizeof(long), GFP_KERNEL);
	sd->exclude = kcalloc(sd->stride, sizeof(long), GFP_KERNEL);
	sd->want = kcalloc(sd->stride, sizeof(long), GFP_KERNEL);
	sd->report = kcalloc(sd->stride, sizeof(long), GFP_KERNEL);
	if (!sd->reserved || !sd->eligible || !sd->usable || !sd->exclude ||
	    !sd->want || !sd->report ||
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
	    (unsigned int)info->policy >= IRQ_SPREAD_NR_POLICIES ||
	    (info->flags & ~(IRQ_SPREAD_DEV_NO_CLASS | IRQ_SPREAD_DEV_PLACE_ONLY)))
		return false;
	/* A placement-only device has no interrupt to keep a map of. */
	if (info->rmap && (info->flags & IRQ_SPREAD_DEV_PLACE_ONLY))
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

/**
 * irq_spread_dev_find - the registration of a device
 * @dev: the device
 *
 * Context: irq_spread_devs_lock held.
 * Return: its &struct irq_spread_dev, or %NULL if it is not registered.
 */
struct irq_spread_dev *irq_spread_dev_find(const struct device *dev)
{
	struct irq_spread_dev *sd;

	lockdep_assert_held(&irq_spread_devs_lock);
	list_for_each_entry(sd, &irq_spread_devs, list) {
		if (sd->dev == dev)
			return sd;
	}
	return NULL;
}
EXPORT_SYMBOL_IF_KUNIT(irq_spread_dev_find);

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

/**
 * struct irq_spread_kept - what the administrator set on a device
 * @topo: the machine of the registration it comes from
 * @stride: the size of its masks, in longs
 * @policy: the policy, if @policy_set
 * @policy_set: the administrator chose the policy
 * @restricted: @exclude holds the CPUs the device may not use
 * @nvec: number of vectors of the registration
 * @exclude: as &irq_spread_dev.exclude
 * @admin: the vectors whose affinity the administrator set, @nvec bits
 * @masks: their masks, @stride longs per vector
 *
 * A devres entry of the device between two registrations: freed when its
 * driver is unbound.
 */
struct irq_spread_kept {
	struct irq_spread_topology *topo;
	size_t stride;
	enum irq_spread_policy policy;
	bool policy_set;
	bool restricted;
	unsigned int nvec;
	unsigned long *exclude;
	unsigned long *admin;
	unsigned long *masks;
};

static void irq_spread_kept_free(struct irq_spread_kept *k)
{
	kfree(k->exclude);
	bitmap_free(k->admin);
	kvfree(k->masks);
}

static void irq_spread_kept_release(struct device *dev, void *res)
{
	irq_spread_kept_free(res);
}

/* Keep what the administrator set on @sd, which goes, on its device. */
static void irq_spread_dev_keep(struct irq_spread_dev *sd)
{
	unsigned int nvec = irq_spread_dev_nvec(sd), bits, v;
	struct irq_spread_kept *k;

	if (sd->flags & IRQ_SPREAD_DEV_NO_CLASS)
		return;
	k = devres_alloc(irq_spread_kept_release, sizeof(*k), GFP_KERNEL);
	if (!k)
		goto fail;
	k->exclude = kcalloc(sd->stride, sizeof(long), GFP_KERNEL);
	k->admin = bitmap_zalloc(nvec, GFP_KERNEL);
	k->masks = kvcalloc(array_size(nvec, sd->stride), sizeof(long),
			    GFP_KERNEL);
	if (!k->exclude || !k->admin || !k->masks) {
		irq_spread_kept_free(k);
		devres_free(k);
		goto fail;
	}
	bits = sd->stride * BITS_PER_LONG;
	mutex_lock(&sd->lock);
	k->topo = sd->topo;
	k->stride = sd->stride;
	k->policy = sd->policy;
	k->policy_set = sd->policy_set;
	k->restricted = sd->restricted;
	k->nvec = nvec;
	bitmap_copy(k->exclude, sd->exclude, bits);
	for (v = 0; v < nvec; v++) {
		if (!sd->vec[v]->admin)
			continue;
		__set_bit(v, k->admin);
		bitmap_copy(k->masks + v * sd->stride, sd->vec[v]->admin_mask,
			    bits);
	}
	mutex_unlock(&sd->lock);
	devres_add(sd->dev, k);
	return;
fail:
	dev_warn(sd->dev, "irq_spread: the administrator's settings not kept\n");
}

/*
 * A new registration of a device gets what the administrator set on its
 * last one: the policy chosen, the CPUs allowed, and the affinity of each
 * vector the administrator set, by device vector number.
 */
static void irq_spread_dev_restore(struct irq_spread_dev *sd)
{
	unsigned int nvec, bits = sd->stride * BITS_PER_LONG, v;
	struct irq_spread_kept *k;

	if (sd->flags & IRQ_SPREAD_DEV_NO_CLASS)
		return;
	k = devres_remove(sd->dev, irq_spread_kept_release, NULL, NULL);
	if (!k)
		return;
	if (k->topo == sd->topo && k->stride == sd->stride) {
		if (k->policy_set) {
			sd->policy = k->policy;
			sd->policy_set = true;
		}
		sd->restricted = k->restricted;
		bitmap_copy(sd->exclude, k->exclude, bits);
		nvec = min(k->nvec, irq_spread_dev_nvec(sd));
		for_each_set_bit(v, k->admin, nvec) {
			sd->vec[v]->admin = true;
			bitmap_copy(sd->vec[v]->admin_mask,
				    k->masks + v * sd->stride, bits);
		}
	}
	irq_spread_kept_free(k);
	devres_free(k);
}

/* Place a new device's vectors and list it. */
static int irq_spread_dev_add(struct irq_spread_dev *sd)
{
	unsigned int v;
	int ret;

	mutex_lock(&irq_spread_devs_lock);
	mutex_lock(&sd->lock);
	if (irq_spread_dev_find(sd->dev)) {
		ret = -EBUSY;
		goto unlock;
	}
	ret = irq_spread_dev_spread(sd, sd->nr, sd->policy, sd->placed, 0);
	if (ret)
		goto unlock;
	sd->nr_active = sd->nr;
	irq_spread_dev_eligible(sd, sd->eligible);
	for (v = 0; v < irq_spread_dev_nvec(sd); v++)
		irq_spread_vec_refresh(sd, v, sd->placed, sd->nr_active);
	irq_spread_dev_rmap(sd);
	irq_spread_dev_placed_afresh(sd);
	list_add_tail(&sd->list, &irq_spread_devs);
unlock:
	mutex_unlock(&sd->lock);
	mutex_unlock(&irq_spread_devs_lock);
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

	mutex_lock(&irq_spread_devs_lock);
	list_del(&sd->list);
	mutex_lock(&sd->lock);
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
	irq_spread_dev_release(sd, sd->nr_active, sd->placed);
	mutex_unlock(&sd->lock);
	mutex_unlock(&irq_spread_devs_lock);
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
	sd->flags = info->flags;
	/* Nothing to show the administrator: no interrupt to move. */
	if (sd->flags & IRQ_SPREAD_DEV_PLACE_ONLY)
		sd->flags |= IRQ_SPREAD_DEV_NO_CLASS;
	INIT_WORK(&sd->work, irq_spread_dev_work);

	mutex_lock(&irq_spread_devs_lock);
	ret = irq_spread_dev_find(sd->dev) ? -EBUSY : 0;
	mutex_unlock(&irq_spread_devs_lock);
	if (ret)
		goto err_free;
	irq_spread_dev_restore(sd);
	ret = irq_spread_dev_add(sd);
	if (ret)
		goto err_free;

	/* Last: the files expect a listed device. */
	ret = irq_spread_dev_class_add(sd);
	if (ret)
		goto err_remove;
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
 * number of vectors in use (irq_spread_dev_set_vectors()), when the
 * administrator writes a policy or the
 * CPUs the device may use to ``/sys/class/irq_spread/<bus>:<dev>/``
 * (without %IRQ_SPREAD_DEV_NO_CLASS), and when a CPU goes offline or
 * comes online; a vector whose affinity the administrator writes in
 * ``/proc/irq/N/smp_affinity`` keeps it, detached or not, until a policy
 * is written.  Each change after registration is told to @info->ops.
 *
 * The device gets the system default policy if the administrator set one,
 * else @info->policy; all its spread vectors are in use.  Without
 * %IRQ_SPREAD_DEV_NO_CLASS, what the administrator set on the device's
 * last registration (policy, CPUs, hand-set vectors) applies again.  A
 * placement-only device (%IRQ_SPREAD_DEV_PLACE_ONLY) is placed but never
 * counted in the load, and has no class device.
 *
 * Context: process context, may sleep.  May be called with the CPU hotplug
 * lock held (cpus_read_lock(), or from a CPU hotplug callback), as every
 * call of the device API but irq_spread_dev_unregister() may.
 * Return: the registered device, or an ERR_PTR(): -EINVAL if @info is
 * %NULL, has no device, no spread vector, more than
 * %IRQ_SPREAD_MAX_VECTORS vectors, a bad node, policy, flag or reserved
 * entry, an rmap with less room than @info->nr_vectors or for a
 * placement-only device; -EBUSY if the
 * device is registered already; -ENOMEM; -ENODEV if no CPU is online; or
 * the error of the class device's creation.  On error nothing is left
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
 * Removes the registration's class device, keeps what the administrator
 * set on the device for its next registration (without
 * %IRQ_SPREAD_DEV_NO_CLASS), detaches the interrupts still attached (they
 * keep their affinity, lose the hint and the library's notifier) and
 * takes the vectors out of the per-CPU load.  A placement-only device
 * gives back the pool vectors that serve it; a pool the device owns keeps
 * its last policy and CPUs.  Call it before the interrupts are freed:
 * free_irq() warns about a hint or a notifier left set.  Waits for a call
 * of &irq_spread_dev_ops.changed in progress and cancels those not
 * started.
 *
 * Context: process context, may sleep; not from
 * &irq_spread_dev_ops.changed, and not holding a lock that callback takes:
 * not the CPU hotplug lock if it calls netif_set_xps_queue().
 */
void irq_spread_dev_unregister(struct irq_spread_dev *sd)
{
	unsigned int v, *irqs;

	if (IS_ERR_OR_NULL(sd))
		return;
	irq_spread_pools_dev_gone(sd);
	/* Waits for the files' show and store, which take the lock. */
	irq_spread_dev_class_del(sd);
	irq_spread_dev_keep(sd);
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
 * administrator's.
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
	vec->hinted = false;
	bitmap_zero(vec->seen, sd->stride * BITS_PER_LONG);
	irq_spread_vec_reseen(sd, vec);
	mutex_unlock(&sd->lock);

	ret = irq_spread_irq_notifier(irq, &vec->notify);
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
	if (vec->has_now && vec->admin) {
		if (irq_spread_irq_affinity(irq, to_cpumask(vec->admin_mask)))
			irq_spread_vec_reseen(sd, vec);
		else
			bitmap_copy(vec->seen, vec->admin_mask,
				    sd->stride * BITS_PER_LONG);
	} else if (vec->has_now) {
		ret = irq_spread_vec_apply(sd, vec, vec->now);
	}
	if (!ret)
		irq_spread_dev_rmap(sd);
	mutex_unlock(&sd->lock);
	if (!ret)
		return 0;
	irq_spread_irq_notifier(irq, NULL);
err:
	mutex_lock(&sd->lock);
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
	irq_spread_irq_notifier(irq, NULL);
	mutex_lock(&sd->lock);
	if (vec->irq == irq) {
		irq_spread_vec_seen(sd, vec, NULL);
		if (vec->hinted)
			irq_spread_irq_hint(irq, NULL);
		vec->hinted = false;
		vec->irq = 0;
		irq_spread_dev_rmap(sd);
	}
	mutex_unlock(&sd->lock);
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
 * else its placement.  The same state gives the same answer.  Read without
 * a lock: a placement being changed meanwhile gives the vector's CPUs
 * before the change or after it, never a mix.
 *
 * Context: any context, hard interrupt too; does not sleep and takes no
 * lock of the library's.
 * Return: 0; -EINVAL if @sd or @mask is %NULL or @vector is out of range;
 * -ENODATA for a spread vector not in use (irq_spread_dev_set_vectors()),
 * which has no CPUs: @mask is then empty.
 */
int irq_spread_dev_vector_mask(struct irq_spread_dev *sd, unsigned int vector,
			       struct cpumask *mask)
{
	const struct irq_spread_vec *vec;
	unsigned int seq;
	bool has;

	if (!sd || !mask || vector >= irq_spread_dev_nvec(sd))
		return -EINVAL;
	vec = sd->vec[vector];
	cpumask_clear(mask);
	do {
		seq = read_seqcount_begin(&sd->seq);
		has = vec->has_now;
		if (has)
			bitmap_copy(cpumask_bits(mask), vec->now,
				    sd->topo->nr_cpus);
	} while (read_seqcount_retry(&sd->seq, seq));
	if (!has)
		cpumask_clear(mask);
	return has ? 0 : -ENODATA;
}
EXPORT_SYMBOL_GPL(irq_spread_dev_vector_mask);

/**
 * irq_spread_dev_vector_cpu - the first CPU of a vector
 * @sd: the device
 * @vector: the device vector number
 *
 * The lowest-numbered CPU of irq_spread_dev_vector_mask(): for a driver
 * that opens a queue on its vector's CPU (cpu_to_node() of it for the
 * queue's memory), as mlx5_comp_vector_get_cpu() does.  Read without a
 * lock, as irq_spread_dev_vector_mask() is.
 *
 * Context: any context, hard interrupt too; does not sleep and takes no
 * lock of the library's.
 * Return: the CPU, or the error of irq_spread_dev_vector_mask().
 */
int irq_spread_dev_vector_cpu(struct irq_spread_dev *sd, unsigned int vector)
{
	const struct irq_spread_vec *vec;
	unsigned int seq;
	int cpu;

	if (!sd || vector >= irq_spread_dev_nvec(sd))
		return -EINVAL;
	vec = sd->vec[vector];
	do {
		seq = read_seqcount_begin(&sd->seq);
		cpu = vec->has_now ? find_first_bit(vec->now, sd->topo->nr_cpus) :
				     -ENODATA;
	} while (read_seqcount_retry(&sd->seq, seq));
	return cpu;
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
	mutex_lock(&sd->lock);
	if (!nvec || nvec > sd->nr) {
		ret = -EINVAL;
		goto unlock;
	}
	ret = irq_spread_dev_respread(sd, nvec, sd->policy, false, true);
unlock:
	mutex_unlock(&sd->lock);
	return ret;
}
EXPORT_SYMBOL_GPL(irq_spread_dev_set_vectors);

/**
 * irq_spread_dev_set_policy - switch a device to a policy, as the admin does
 * @sd: the device
 * @policy: the policy
 *
 * What a write of the device's policy file does: hands the vectors the
 * administrator set back to the policy and places the vectors in use
 * afresh under @policy, within the CPUs the device may use, all of them
 * applied.  The same policy again only hands the vectors back.  The pools
 * @sd owns (&irq_spread_pool_info.owner) then place their requested
 * vectors afresh under @policy.  For a caller that shows the policy itself
 * (%IRQ_SPREAD_DEV_NO_CLASS).
 *
 * Context: process context, may sleep.
 * Return: 0; -EINVAL if @sd is %NULL or @policy is no policy; -ENOMEM; or
 * the interrupt core's error for a vector it refused to move.  On error
 * nothing changed: the policy, the placement, the interrupts and the
 * administrator's vectors are as they were.
 */
int irq_spread_dev_set_policy(struct irq_spread_dev *sd,
			      enum irq_spread_policy policy)
{
	int ret;

	if (!sd || (unsigned int)policy >= IRQ_SPREAD_NR_POLICIES)
		return -EINVAL;
	mutex_lock(&sd->lock);
	ret = irq_spread_dev_respread(sd, sd->nr_active, policy, true, true);
	if (!ret)
		sd->policy_set = true;
	mutex_unlock(&sd->lock);
	if (!ret)
		irq_spread_pools_follow(sd);
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(irq_spread_dev_set_policy);

/**
 * irq_spread_dev_policy - a device's policy
 * @sd: the device
 *
 * Context: process context, may sleep.
 * Return: the policy the device's vectors are placed under.
 */
enum irq_spread_policy irq_spread_dev_policy(struct irq_spread_dev *sd)
{
	enum irq_spread_policy policy;

	mutex_lock(&sd->lock);
	policy = sd->policy;
	mutex_unlock(&sd->lock);
	return policy;
}
EXPORT_SYMBOL_IF_KUNIT(irq_spread_dev_policy);

/**
 * irq_spread_dev_set_cpu_bits - the CPUs a device may use, as a bitmap
 * @sd: the device
 * @cpus: the CPUs, @sd->topo->nr_cpus bits
 *
 * See irq_spread_dev_set_cpus(), which this is for any topology.
 *
 * Context: process context, may sleep.
 * Return: as irq_spread_dev_set_cpus().
 */
int irq_spread_dev_set_cpu_bits(struct irq_spread_dev *sd,
				const unsigned long *cpus)
{
	unsigned int n = sd->topo->nr_cpus, bits = sd->stride * BITS_PER_LONG;
	unsigned long *old;
	bool restricted;
	int ret;

	old = bitmap_zalloc(bits, GFP_KERNEL);
	if (!old)
		return -ENOMEM;
	mutex_lock(&sd->lock);
	/* Only a set that can take an interrupt now: no silent fallback. */
	irq_spread_topo_eligible(sd->topo, sd->want);
	ret = -EINVAL;
	if (!bitmap_intersects(cpus, sd->want, n))
		goto unlock;
	bitmap_copy(old, sd->exclude, bits);
	restricted = sd->restricted;
	bitmap_complement(sd->exclude, cpus, n);
	bitmap_clear(sd->exclude, n, bits - n);
	sd->restricted = !bitmap_empty(sd->exclude, n);
	ret = irq_spread_dev_respread(sd, sd->nr_active, sd->policy, false,
				      true);
	if (ret) {
		bitmap_copy(sd->exclude, old, bits);
		sd->restricted = restricted;
	}
unlock:
	mutex_unlock(&sd->lock);
	bitmap_free(old);
	if (!ret)
		irq_spread_pools_follow(sd);
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(irq_spread_dev_set_cpu_bits);

/**
 * irq_spread_dev_set_cpus - the CPUs a device may use
 * @sd: the device
 * @cpus: the CPUs; all of them for no restriction
 *
 * The administrator's choice of the CPUs the device's vectors go on, as
 * a write of the device's ``cpus`` file makes it: the vectors in use are
 * placed afresh under the device's policy within @cpus, the load of every
 * device still counted; the administrator's vectors stay as they are, and
 * CPU hotplug moves vectors within @cpus.  Should none of @cpus be able to
 * take an interrupt later (all offline), the vectors go on the eligible
 * CPUs until one is back.  The pools @sd owns place their requested
 * vectors afresh within @cpus.  For a caller that shows the CPUs itself
 * (%IRQ_SPREAD_DEV_NO_CLASS).
 *
 * Context: process context, may sleep.
 * Return: 0; -EINVAL if @sd or @cpus is %NULL or no CPU of @cpus can take
 * an interrupt now (none is online and a housekeeping CPU); -ENOMEM; or
 * the interrupt core's error for a vector it refused to move.  On error
 * nothing changed.
 */
int irq_spread_dev_set_cpus(struct irq_spread_dev *sd,
			    const struct cpumask *cpus)
{
	if (!sd || !cpus)
		return -EINVAL;
	return irq_spread_dev_set_cpu_bits(sd, cpumask_bits(cpus));
}
EXPORT_SYMBOL_IF_KUNIT(irq_spread_dev_set_cpus);

/**
 * irq_spread_dev_cpus - the CPUs a device may use
 * @sd: the device
 * @cpus: where to write them: every CPU, unless the administrator
 *	restricted the device (irq_spread_dev_set_cpus())
 *
 * Context: process context, may sleep.
 */
void irq_spread_dev_cpus(struct irq_spread_dev *sd, struct cpumask *cpus)
{
	unsigned int n = sd->topo->nr_cpus;

	n = min_t(unsigned int, n, nr_cpumask_bits);
	cpumask_clear(cpus);
	mutex_lock(&sd->lock);
	/* bitmap_complement() sets the bits past @n of its last word too. */
	bitmap_complement(cpumask_bits(cpus), sd->exclude, n);
	mutex_unlock(&sd->lock);
	bitmap_clear(cpumask_bits(cpus), n, nr_cpumask_bits - n);
}
EXPORT_SYMBOL_IF_KUNIT(irq_spread_dev_cpus);

/**
 * irq_spread_dev_vector_admin - whether the administrator set a vector
 * @sd: the device
 * @vector: the device vector number
 *
 * Context: process context, may sleep.
 * Return: true if the administrator set the vector's interrupt affinity
 * (``/proc/irq/N/smp_affinity``) since the last policy write: the vector
 * keeps it; false otherwise or for an invalid @vector.
 */
bool irq_spread_dev_vector_admin(struct irq_spread_dev *sd,
				 unsigned int vector)
{
	bool admin = false;

	if (!sd)
		return false;
	mutex_lock(&sd->lock);
	if (vector < irq_spread_dev_nvec(sd))
		admin = sd->vec[vector]->admin;
	mutex_unlock(&sd->lock);
	return admin;
}
EXPORT_SYMBOL_IF_KUNIT(irq_spread_dev_vector_admin);

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
		if (vec->pool)
			state = "pool";
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
 * spread vector not in use, "pool" for one a pool vector serves) and its
 * CPUs (irq_spread_dev_vector_mask(), or "-").  Changes nothing.
 *
 * Return: 0.
 */
int irq_spread_devs_show(struct seq_file *m, void *v)
{
	struct irq_spread_dev *sd;

	seq_puts(m, "device policy vector irq kind state cpus\n");
	mutex_lock(&irq_spread_devs_lock);
	list_for_each_entry(sd, &irq_spread_devs, list) {
		mutex_lock(&sd->lock);
		irq_spread_dev_show(m, sd);
		mutex_unlock(&sd->lock);
	}
	mutex_unlock(&irq_spread_devs_lock);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(irq_spread_devs_show);

/**
 * irq_spread_notifiers_show - write whose affinity notifier each attached
 *	interrupt has
 * @m: the seq_file of ``/sys/kernel/debug/irq_spread/notifiers``
 * @v: unused
 *
 * A header, then one line per attached vector of every device of the
 * system: its Linux interrupt, the device's sysfs path, the device vector
 * number, and the owner of the interrupt's one affinity notifier:
 * "irq_spread" for the vector's own, "other" for anyone else's, "none".
 * Changes nothing.
 *
 * Return: 0.
 */
int irq_spread_notifiers_show(struct seq_file *m, void *v)
{
	const struct irq_spread_vec *vec;
	struct irq_spread_dev *sd;
	unsigned int i;
	char *path;

	seq_puts(m, "irq device vector notifier\n");
	mutex_lock(&irq_spread_devs_lock);
	list_for_each_entry(sd, &irq_spread_devs, list) {
		if (sd->topo != &irq_spread_system)
			continue;
		mutex_lock(&sd->lock);
		path = kobject_get_path(&sd->dev->kobj, GFP_KERNEL);
		for (i = 0; i < irq_spread_dev_nvec(sd); i++) {
			vec = sd->vec[i];
			if (vec->irq)
				seq_printf(m, "%u %s %u %s\n", vec->irq,
					   path ?: "?", i,
					   irq_spread_vec_notifier(vec));
		}
		kfree(path);
		mutex_unlock(&sd->lock);
	}
	mutex_unlock(&irq_spread_devs_lock);
	return 0;
}

/**
 * irq_spread_devs_irqs - mark the interrupts attached to a machine's devices
 * @topo: the machine
 * @irqs: a bitmap of Linux interrupt numbers, @nr_irqs bits, where the
 *	interrupt of every vector of every device registered on @topo that
 *	has one (irq_spread_dev_attach()) is set
 * @nr_irqs: the size of @irqs; interrupts at or above it are left out
 *
 * Sets bits only, and changes nothing of the devices.
 *
 * Context: process context, may sleep: takes irq_spread_devs_lock, then
 * each device's lock in turn.
 */
void irq_spread_devs_irqs(const struct irq_spread_topology *topo,
			  unsigned long *irqs, unsigned int nr_irqs)
{
	struct irq_spread_dev *sd;
	unsigned int v, irq;

	mutex_lock(&irq_spread_devs_lock);
	list_for_each_entry(sd, &irq_spread_devs, list) {
		if (sd->topo != topo)
			continue;
		mutex_lock(&sd->lock);
		for (v = 0; v < irq_spread_dev_nvec(sd); v++) {
			irq = sd->vec[v]->irq;
			if (irq && irq < nr_irqs)
				__set_bit(irq, irqs);
		}
		mutex_unlock(&sd->lock);
	}
	mutex_unlock(&irq_spread_devs_lock);
}
