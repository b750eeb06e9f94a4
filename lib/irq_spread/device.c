// SPDX-License-Identifier: GPL-2.0
/*
 * irq_spread devices: a driver registers a device by its number of vectors,
 * attaches each vector's interrupt when it requests it, and the library
 * keeps the vectors placed under the device's policy: when the driver
 * changes the number of vectors in use, when the administrator writes a
 * policy or a CPU list to the registration's class device (or, through
 * net core, a netdev's files), and when a CPU goes offline or online.
 *
 * The device layer, one concern per file: this one holds registration,
 * and the driver's calls that read or resize the placement;
 *
 *	placement.c	a placement made and applied to the interrupts all or
 *			nothing, and the driver told of what changed
 *	irq.c		the interrupt core: attaching an interrupt, its
 *			affinity notifier (which tells the administrator's
 *			writes from the library's), the aRFS map
 *	device_pool.c	vectors a pool's vectors serve, and a pool's owner
 *	hotplug.c	CPUs going offline and coming online
 *	sysfs.c		the administrator's knobs: policy and CPUs per device
 *	param.c		the system default policy, irq_spread.policy=
 *	debugfs.c	/sys/kernel/debug/irq_spread/
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
 *  - &irq_spread_topology.devs_lock, a mutex: the machine's list of
 *    devices.  Held to add a device (its first placement and its entry, so
 *    that a CPU hotplug callback sees it placed or not at all), to remove
 *    one, and by the CPU hotplug callbacks, the debugfs files and the
 *    class's irqs file, which visit every device in turn; or, never with
 *    it, the pools' locks (pool.c), a pool's taken before the lock of a
 *    device it belongs to or serves;
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
 * Pools (pool.c) have their own locks, a mutex for the machine's list of
 * pools and one per pool, which the library never takes with the list of
 * devices' lock or a device's lock held: the irqs file reads the devices,
 * then the pools.
 */
#define pr_fmt(fmt) "irq_spread: " fmt

#include <linux/bitmap.h>
#include <linux/cpu_rmap.h>
#include <linux/cpumask.h>
#include <linux/device.h>
#include <linux/err.h>
#include <linux/export.h>
#include <linux/irq_spread.h>
#include <linux/list.h>
#include <linux/lockdep.h>
#include <linux/minmax.h>
#include <linux/mutex.h>
#include <linux/numa.h>
#include <linux/overflow.h>
#include <linux/slab.h>
#include <linux/workqueue.h>

#include <kunit/static_stub.h>
#include <kunit/visibility.h>

#include "device.h"
#include "pool.h"

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
	vec->irq_mask = vec->masks + 2 * sd->stride;
	vec->admin_mask = vec->masks + 3 * sd->stride;
	vec->cpus = vec->masks + 4 * sd->stride;
	vec->before_hotplug = vec->masks + 5 * sd->stride;
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
	kvfree(sd->staged);
	kfree(sd->eligible);
	kfree(sd->placed_within);
	kfree(sd->exclude);
	kfree(sd->scratch);
	kfree(sd->online);
	kfree(sd->report);
	kfree(sd->undo);
	bitmap_free(sd->empty);
	bitmap_free(sd->changed);
	bitmap_free(sd->pending);
	kfree(sd->reserved);
	mutex_destroy(&sd->lock);
	kfree(sd);
}

/* The arrays of a device whose size depends on its number of vectors. */
struct irq_spread_dev_arrays {
	struct irq_spread_vec **vec;
	unsigned long *placed;
	unsigned long *staged;
	unsigned long *changed;
	unsigned long *pending;
	struct irq_spread_vec_undo *undo;
	unsigned long *empty;
};

static void irq_spread_dev_arrays_free(struct irq_spread_dev_arrays *a)
{
	kfree(a->vec);
	kvfree(a->placed);
	kvfree(a->staged);
	bitmap_free(a->changed);
	bitmap_free(a->pending);
	kfree(a->undo);
	bitmap_free(a->empty);
}

static int irq_spread_dev_arrays_alloc(struct irq_spread_dev *sd,
				       unsigned int nr,
				       struct irq_spread_dev_arrays *a)
{
	unsigned int nvec = sd->pre + nr + sd->post;
	size_t longs = array_size(nr, sd->stride);

	a->vec = kcalloc(nvec, sizeof(*a->vec), GFP_KERNEL);
	a->placed = kvcalloc(longs, sizeof(long), GFP_KERNEL);
	a->staged = kvcalloc(longs, sizeof(long), GFP_KERNEL);
	a->changed = bitmap_zalloc(nvec, GFP_KERNEL);
	a->pending = bitmap_zalloc(nvec, GFP_KERNEL);
	a->undo = kcalloc(nvec, sizeof(*a->undo), GFP_KERNEL);
	a->empty = bitmap_zalloc(nr, GFP_KERNEL);
	if (!a->vec || !a->placed || !a->staged || !a->changed || !a->pending ||
	    !a->undo || !a->empty) {
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

	sd = kzalloc_obj(*sd);
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
	sd->placed_within = kcalloc(sd->stride, sizeof(long), GFP_KERNEL);
	sd->exclude = kcalloc(sd->stride, sizeof(long), GFP_KERNEL);
	sd->scratch = kcalloc(sd->stride, sizeof(long), GFP_KERNEL);
	sd->online = kcalloc(sd->stride, sizeof(long), GFP_KERNEL);
	sd->report = kcalloc(sd->stride, sizeof(long), GFP_KERNEL);
	if (!sd->reserved || !sd->eligible || !sd->placed_within || !sd->exclude ||
	    !sd->scratch || !sd->online || !sd->report ||
	    irq_spread_dev_arrays_alloc(sd, info->nr_vectors, &a))
		goto err;
	sd->vec = a.vec;
	sd->placed = a.placed;
	sd->staged = a.staged;
	sd->changed = a.changed;
	sd->pending = a.pending;
	sd->undo = a.undo;
	sd->empty = a.empty;
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
 * irq_spread_dev_find - the registration of a device on a machine
 * @topo: the machine
 * @dev: the device
 *
 * Context: @topo->devs_lock held.
 * Return: its &struct irq_spread_dev, or %NULL if it is not registered.
 */
struct irq_spread_dev *irq_spread_dev_find(struct irq_spread_topology *topo,
					   const struct device *dev)
{
	struct irq_spread_dev *sd;

	lockdep_assert_held(&topo->devs_lock);
	list_for_each_entry(sd, &topo->devs, list) {
		if (sd->dev == dev)
			return sd;
	}
	return NULL;
}
EXPORT_SYMBOL_IF_KUNIT(irq_spread_dev_find);

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

/* Keep on @sd's device what the administrator set, as @sd goes away. */
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

	mutex_lock(&sd->topo->devs_lock);
	mutex_lock(&sd->lock);
	if (irq_spread_dev_find(sd->topo, sd->dev)) {
		ret = -EBUSY;
		goto unlock;
	}
	ret = irq_spread_dev_spread(sd, sd->nr, sd->policy, sd->placed, 0);
	if (ret)
		goto unlock;
	sd->nr_active = sd->nr;
	sd->nr_asked = sd->nr;
	sd->going = -1;
	/* No vector has an interrupt yet: none counts in the load. */
	irq_spread_dev_load(sd, false, false);
	irq_spread_dev_eligible(sd, sd->eligible);
	for (v = 0; v < irq_spread_dev_nvec(sd); v++)
		irq_spread_vec_refresh(sd, v, sd->placed, sd->nr_active);
	irq_spread_dev_note_fresh(sd);
	list_add_tail(&sd->list, &sd->topo->devs);
unlock:
	mutex_unlock(&sd->lock);
	mutex_unlock(&sd->topo->devs_lock);
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

	mutex_lock(&sd->topo->devs_lock);
	list_del(&sd->list);
	mutex_lock(&sd->lock);
	sd->dead = true;
	irq_spread_dev_load(sd, true, false);
	for (v = 0; v < irq_spread_dev_nvec(sd); v++) {
		vec = sd->vec[v];
		if (irqs)
			irqs[v] = vec->irq;
		if (vec->irq && vec->hinted)
			irq_spread_vec_hint(sd, vec, NULL);
		vec->hinted = false;
		vec->irq = 0;
	}
	mutex_unlock(&sd->lock);
	mutex_unlock(&sd->topo->devs_lock);
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
	sd->policy = READ_ONCE(topo->default_policy_set) ?
		     READ_ONCE(topo->default_policy) : info->policy;
	sd->ops = info->ops;
	sd->priv = info->priv;
	sd->rmap = info->rmap;
	sd->flags = info->flags;
	/* Nothing to show the administrator: no interrupt to move. */
	if (sd->flags & IRQ_SPREAD_DEV_PLACE_ONLY)
		sd->flags |= IRQ_SPREAD_DEV_NO_CLASS;
	INIT_WORK(&sd->work, irq_spread_dev_work);

	mutex_lock(&topo->devs_lock);
	ret = irq_spread_dev_find(topo, sd->dev) ? -EBUSY : 0;
	mutex_unlock(&topo->devs_lock);
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
	/*
	 * No interrupt can be attached yet; a CPU hotplug or policy change
	 * while the device was listed may have a call of
	 * &irq_spread_dev_ops.changed queued or running.
	 */
	irq_spread_dev_remove(sd, NULL);
	cancel_work_sync(&sd->work);
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
 * else @info->policy; all its spread vectors are in use.  A spread vector
 * counts in the per-CPU load, which places every other device, while it
 * is in use and has an interrupt attached.  Without
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
	KUNIT_STATIC_STUB_REDIRECT(irq_spread_dev_register, info);
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
	irq_spread_dev_pool_put_all(sd);
	irq_spread_pools_owner_changed(sd->topo, sd, true);
	/* Waits for the files' show and store, which take the lock. */
	irq_spread_dev_class_del(sd);
	irq_spread_dev_keep(sd);
	irqs = kcalloc(irq_spread_dev_nvec(sd), sizeof(*irqs),
		       GFP_KERNEL | __GFP_NOFAIL);
	irq_spread_dev_remove(sd, irqs);
	for (v = 0; v < irq_spread_dev_nvec(sd); v++) {
		if (!irqs[v])
			continue;
		irq_spread_vec_unwatch(sd, irqs[v], sd->vec[v]->has_placer);
		sd->vec[v]->has_placer = false;
		irq_spread_irq_unplace(irqs[v]);
	}
	kfree(irqs);
	cancel_work_sync(&sd->work);
	irq_spread_dev_free(sd);
}
EXPORT_SYMBOL_GPL(irq_spread_dev_unregister);

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
		has = vec->has_cpus;
		if (has)
			bitmap_copy(cpumask_bits(mask), vec->cpus,
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
		cpu = vec->has_cpus ? find_first_bit(vec->cpus, sd->topo->nr_cpus) :
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
 * vectors in use are as they were, until a placement of @nvec vectors is
 * applied: the next policy or CPUs write, or a CPU coming online that
 * places the device afresh.
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
	sd->nr_asked = nvec;
	ret = irq_spread_dev_respread(sd, nvec, sd->policy,
				      IRQ_SPREAD_COMMIT_UNDO);
unlock:
	mutex_unlock(&sd->lock);
	return ret;
}
EXPORT_SYMBOL_GPL(irq_spread_dev_set_vectors);
