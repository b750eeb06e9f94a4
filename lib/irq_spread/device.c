// SPDX-License-Identifier: GPL-2.0
/*
 * irq_spread devices: a driver registers its vectors once, and the library
 * keeps them placed under the device's policy: when the driver changes the
 * number of vectors in use, when the administrator writes a policy to
 * <device>/irq_spread/policy, and when a CPU goes offline or online.
 *
 * The administrator has the last word on an interrupt: the library
 * remembers the mask it applied to each vector, and a vector whose
 * interrupt's affinity differs from it when the library looks again (before
 * every re-spread and every read of the vectors file) was set through
 * /proc/irq/N/smp_affinity.  It is marked, and no re-spread touches it
 * until the administrator writes a policy to the device's policy file.  A
 * re-spread still places all active vectors, marked ones included, so that
 * a vector's CPUs do not depend on which others the administrator moved;
 * it applies the placement to the unmarked ones only.
 *
 * Locking, outermost first:
 *
 *  - the CPU hotplug lock: cpus_read_lock() in every re-spread but CPU
 *    hotplug's, whose callbacks run with the lock held for writing, so
 *    that a re-spread sees the CPUs online and no CPU comes or goes before
 *    it is applied;
 *  - irq_spread_dev_lock, a mutex: the list of devices and the state of
 *    every device;
 *  - the topology lock (inside the engine), then the interrupt descriptor
 *    locks (inside the interrupt core).
 *
 * Never take the CPU hotplug lock with irq_spread_dev_lock held.  Sysfs
 * files are removed without irq_spread_dev_lock held: removal waits for
 * the reads and writes in progress, which take it.
 */
#define pr_fmt(fmt) "irq_spread: " fmt

#include <linux/bitmap.h>
#include <linux/cpu.h>
#include <linux/cpuhotplug.h>
#include <linux/cpumask.h>
#include <linux/device.h>
#include <linux/err.h>
#include <linux/export.h>
#include <linux/init.h>
#include <linux/interrupt.h>
#include <linux/irq.h>
#include <linux/irq_spread.h>
#include <linux/kobject.h>
#include <linux/list.h>
#include <linux/lockdep.h>
#include <linux/minmax.h>
#include <linux/mutex.h>
#include <linux/numa.h>
#include <linux/overflow.h>
#include <linux/printk.h>
#include <linux/slab.h>
#include <linux/string.h>

#include <kunit/visibility.h>

#include "irq_spread_internal.h"

/* Protects irq_spread_devs and the state of every device. */
DEFINE_MUTEX(irq_spread_dev_lock);

static LIST_HEAD(irq_spread_devs);

static int irq_spread_system_set(void *priv, unsigned int irq,
				 const struct cpumask *mask)
{
	return irq_set_affinity_and_hint(irq, mask);
}

static void irq_spread_system_clear(void *priv, unsigned int irq)
{
	irq_update_affinity_hint(irq, NULL);
}

/*
 * Unlocked, as /proc/irq/N/smp_affinity reads it: a mask torn by a write
 * in progress differs from what the library applied, and so does the
 * administrator's write.  While a move is pending (an interrupt that only
 * moves when it next fires), the new mask is in the interrupt core's
 * pending mask, which is not ours to read: the affinity is then unknown,
 * rather than taken for the administrator's.
 */
static bool irq_spread_system_get(void *priv, unsigned int irq,
				  unsigned long *dst, unsigned int nr_cpus)
{
	struct irq_data *data = irq_get_irq_data(irq);
	const struct cpumask *mask;

	if (!data || irqd_is_setaffinity_pending(data))
		return false;
	mask = irq_data_get_affinity_mask(data);
	bitmap_copy(dst, cpumask_bits(mask), nr_cpus);
	return true;
}

static const struct irq_spread_irq_ops irq_spread_system_irq_ops = {
	.set	= irq_spread_system_set,
	.clear	= irq_spread_system_clear,
	.get	= irq_spread_system_get,
};

/**
 * irq_spread_dev_free - free a device that has no sysfs directory
 * @sd: the device, off the list, its placement released
 *
 * The release of @sd->kobj, and the error path of a registration that did
 * not get as far as initialising it.
 */
void irq_spread_dev_free(struct irq_spread_dev *sd)
{
	kvfree(sd->cur);
	kvfree(sd->spare);
	kvfree(sd->applied);
	kvfree(sd->placed);
	bitmap_free(sd->admin);
	kfree(sd->irqs);
	kfree(sd);
}

static struct irq_spread_dev *
irq_spread_dev_alloc(struct irq_spread_topology *topo, unsigned int nvec)
{
	struct irq_spread_dev *sd = kzalloc(sizeof(*sd), GFP_KERNEL);
	size_t longs;

	if (!sd)
		return NULL;
	/* The interrupt core reads the hints as struct cpumask. */
	sd->stride = max_t(size_t, BITS_TO_LONGS(topo->nr_cpus),
			   cpumask_size() / sizeof(long));
	longs = array_size(nvec, sd->stride);
	sd->irqs = kcalloc(nvec, sizeof(*sd->irqs), GFP_KERNEL);
	sd->admin = bitmap_zalloc(nvec, GFP_KERNEL);
	sd->placed = kvcalloc(longs, sizeof(long), GFP_KERNEL);
	sd->applied = kvcalloc(longs, sizeof(long), GFP_KERNEL);
	sd->spare = kvcalloc(longs, sizeof(long), GFP_KERNEL);
	sd->cur = kvcalloc(sd->stride, sizeof(long), GFP_KERNEL);
	if (!sd->irqs || !sd->admin || !sd->placed || !sd->applied ||
	    !sd->spare || !sd->cur) {
		irq_spread_dev_free(sd);
		return NULL;
	}
	return sd;
}

/*
 * Place the first @n vectors under @policy, in place of the current
 * placement.  The current one is released first, so that the device's own
 * load does not push its vectors off their CPUs; if the new one cannot be
 * made, the current one stays and counts again.
 */
static int irq_spread_dev_place(struct irq_spread_dev *sd, unsigned int n,
				enum irq_spread_policy policy,
				const unsigned long *exclude)
{
	int ret;

	lockdep_assert_held(&irq_spread_dev_lock);
	irq_spread_topo_release(sd->topo, sd->nr_active, sd->placed,
				sd->stride);
	ret = irq_spread_topo_cpus(sd->topo, sd->node, n, policy, exclude,
				   sd->spare, sd->stride);
	if (ret) {
		irq_spread_topo_hold(sd->topo, sd->nr_active, sd->placed,
				     sd->stride);
		return ret;
	}
	swap(sd->placed, sd->spare);
	sd->nr_active = n;
	return 0;
}

/* Take the device's vectors out of the load, and their hints away. */
static void irq_spread_dev_unplace(struct irq_spread_dev *sd)
{
	unsigned int i;

	lockdep_assert_held(&irq_spread_dev_lock);
	for (i = 0; i < sd->nvec; i++)
		sd->irq_ops->clear(sd->irq_priv, sd->irqs[i]);
	irq_spread_topo_release(sd->topo, sd->nr_active, sd->placed,
				sd->stride);
	sd->nr_active = 0;
}

/**
 * irq_spread_dev_find_admin - mark the vectors the administrator moved
 * @sd: the device
 *
 * A vector whose interrupt's affinity is not the mask the library last
 * applied to it was set by the administrator.
 *
 * Context: irq_spread_dev_lock held.
 */
void irq_spread_dev_find_admin(struct irq_spread_dev *sd)
{
	unsigned int n = sd->topo->nr_cpus, i;

	lockdep_assert_held(&irq_spread_dev_lock);
	for (i = 0; i < sd->nvec; i++) {
		if (test_bit(i, sd->admin) ||
		    !sd->irq_ops->get(sd->irq_priv, sd->irqs[i], sd->cur, n))
			continue;
		if (!bitmap_equal(sd->cur, irq_spread_dev_mask(sd, sd->applied, i),
				  n))
			__set_bit(i, sd->admin);
	}
}

/*
 * Apply vector @i's placement to its interrupt.  If the interrupt core
 * refuses it, the interrupt keeps its affinity, and so does the record of
 * what was applied: otherwise the next look would take the old affinity
 * for the administrator's.
 */
static int irq_spread_dev_apply_one(struct irq_spread_dev *sd, unsigned int i)
{
	unsigned long *applied = irq_spread_dev_mask(sd, sd->applied, i);
	unsigned int bits = sd->stride * BITS_PER_LONG;
	int ret;

	bitmap_copy(sd->cur, applied, bits);
	bitmap_copy(applied, irq_spread_dev_mask(sd, sd->placed, i), bits);
	ret = sd->irq_ops->set(sd->irq_priv, sd->irqs[i], to_cpumask(applied));
	if (ret) {
		bitmap_copy(applied, sd->cur, bits);
		dev_warn_ratelimited(sd->dev,
				     "irq_spread: affinity of IRQ %u not set: %d\n",
				     sd->irqs[i], ret);
	}
	return ret;
}

/*
 * Apply the placement to the active vectors the administrator did not
 * move, and take the hints of the inactive ones away.
 */
static int irq_spread_dev_apply(struct irq_spread_dev *sd)
{
	unsigned int i;
	int ret = 0, err;

	lockdep_assert_held(&irq_spread_dev_lock);
	for (i = 0; i < sd->nvec; i++) {
		if (i >= sd->nr_active) {
			sd->irq_ops->clear(sd->irq_priv, sd->irqs[i]);
			continue;
		}
		if (test_bit(i, sd->admin))
			continue;
		err = irq_spread_dev_apply_one(sd, i);
		if (!ret)
			ret = err;
	}
	return ret;
}

/*
 * Place the first @n vectors under @policy and apply the placement.  With
 * @reset, the administrator's marks go and every active vector is applied;
 * without, the marked vectors are left alone.
 */
static int irq_spread_dev_respread(struct irq_spread_dev *sd, unsigned int n,
				   enum irq_spread_policy policy, bool reset,
				   const unsigned long *exclude)
{
	int ret;

	lockdep_assert_held(&irq_spread_dev_lock);
	irq_spread_dev_find_admin(sd);
	ret = irq_spread_dev_place(sd, n, policy, exclude);
	if (ret)
		return ret;
	sd->policy = policy;
	if (reset)
		bitmap_zero(sd->admin, sd->nvec);
	return irq_spread_dev_apply(sd);
}

static struct irq_spread_dev *irq_spread_dev_find(const struct device *dev)
{
	struct irq_spread_dev *sd;

	lockdep_assert_held(&irq_spread_dev_lock);
	list_for_each_entry(sd, &irq_spread_devs, list) {
		if (sd->dev == dev)
			return sd;
	}
	return NULL;
}

/* Place and apply a new device's vectors and list it. */
static int irq_spread_dev_add(struct irq_spread_dev *sd)
{
	int ret;

	cpus_read_lock();
	mutex_lock(&irq_spread_dev_lock);
	if (irq_spread_dev_find(sd->dev)) {
		ret = -EBUSY;
		goto unlock;
	}
	ret = irq_spread_dev_place(sd, sd->nvec, sd->policy, NULL);
	if (ret)
		goto unlock;
	ret = irq_spread_dev_apply(sd);
	if (ret) {
		irq_spread_dev_unplace(sd);
		goto unlock;
	}
	list_add_tail(&sd->list, &irq_spread_devs);
unlock:
	mutex_unlock(&irq_spread_dev_lock);
	cpus_read_unlock();
	return ret;
}

static void irq_spread_dev_remove(struct irq_spread_dev *sd)
{
	mutex_lock(&irq_spread_dev_lock);
	list_del(&sd->list);
	irq_spread_dev_unplace(sd);
	mutex_unlock(&irq_spread_dev_lock);
}

/**
 * irq_spread_dev_topo_register - register a device's vectors on a topology
 * @topo: the machine
 * @irq_ops: how to reach the interrupts
 * @irq_priv: for @irq_ops
 * @dev: the device, in sysfs
 * @node: the device's NUMA node, or NUMA_NO_NODE
 * @irqs: the vectors' Linux interrupt numbers (copied)
 * @nvec: number of vectors
 *
 * See irq_spread_dev_register().
 *
 * Context: process context, may sleep; not with the CPU hotplug lock held.
 * Return: the registered device, or an ERR_PTR(): -EINVAL for bad
 * arguments, -EBUSY if @dev is registered already, -ENOMEM, or the error
 * of the engine, of @irq_ops->set or of the sysfs directory's creation.
 */
struct irq_spread_dev *
irq_spread_dev_topo_register(struct irq_spread_topology *topo,
			     const struct irq_spread_irq_ops *irq_ops,
			     void *irq_priv, struct device *dev, int node,
			     const unsigned int *irqs, unsigned int nvec)
{
	struct irq_spread_dev *sd;
	int ret;

	if (!dev || !irqs || !nvec)
		return ERR_PTR(-EINVAL);
	if (node != NUMA_NO_NODE && (node < 0 || node >= topo->nr_nodes))
		return ERR_PTR(-EINVAL);
	sd = irq_spread_dev_alloc(topo, nvec);
	if (!sd)
		return ERR_PTR(-ENOMEM);

	memcpy(sd->irqs, irqs, nvec * sizeof(*irqs));
	sd->topo = topo;
	sd->irq_ops = irq_ops;
	sd->irq_priv = irq_priv;
	sd->dev = dev;
	sd->node = node;
	sd->nvec = nvec;
	sd->policy = irq_spread_default_policy();
	ret = irq_spread_dev_add(sd);
	if (ret) {
		irq_spread_dev_free(sd);
		return ERR_PTR(ret);
	}

	/* Last: the files' writes expect a placed device. */
	kobject_init(&sd->kobj, &irq_spread_dev_ktype);
	ret = kobject_add(&sd->kobj, &dev->kobj, "irq_spread");
	if (ret) {
		irq_spread_dev_remove(sd);
		kobject_put(&sd->kobj);
		return ERR_PTR(ret);
	}
	return sd;
}
EXPORT_SYMBOL_IF_KUNIT(irq_spread_dev_topo_register);

/**
 * irq_spread_dev_register - place a device's vectors, and keep them placed
 * @dev: the device; already added (device_add()), as its sysfs directory
 *	gets an ``irq_spread`` directory
 * @node: the device's NUMA node (dev_to_node()), or NUMA_NO_NODE
 * @irqs: the Linux interrupt numbers of the device's vectors (copied);
 *	allocated, and normally requested, by the driver
 * @nvec: number of vectors
 *
 * Spreads all @nvec vectors under the system default policy
 * (irq_spread_default_policy()) with irq_spread_cpus(), and sets each
 * interrupt's affinity and affinity hint.  From then on the library keeps
 * them placed: it re-spreads them when the driver changes the number of
 * vectors in use (irq_spread_dev_set_vectors()), when the administrator
 * writes a policy to ``<dev>/irq_spread/policy``, and when a CPU goes
 * offline or comes online.  A vector whose affinity the administrator sets
 * in ``/proc/irq/N/smp_affinity`` keeps it until a policy is written.
 * ``<dev>/irq_spread/vectors`` lists the vectors, their interrupts and
 * CPUs.  See Documentation/core-api/irq_spread.rst.
 *
 * Call irq_spread_dev_unregister() before the interrupts are freed and
 * before @dev is deleted.
 *
 * Context: process context, may sleep; takes the CPU hotplug lock, so not
 * with it held (not from a CPU hotplug callback).
 * Return: the registered device, or an ERR_PTR(): -EINVAL if @dev or @irqs
 * is %NULL, @nvec is 0 or @node is no valid node; -EBUSY if @dev is
 * registered already; -ENOMEM; the error of irq_set_affinity_and_hint() for
 * an interrupt that takes no affinity.  On error nothing is left registered,
 * counted or hinted.
 */
struct irq_spread_dev *irq_spread_dev_register(struct device *dev, int node,
					       const unsigned int *irqs,
					       unsigned int nvec)
{
	return irq_spread_dev_topo_register(&irq_spread_system,
					    &irq_spread_system_irq_ops, NULL,
					    dev, node, irqs, nvec);
}
EXPORT_SYMBOL_GPL(irq_spread_dev_register);

/**
 * irq_spread_dev_unregister - stop placing a device's vectors
 * @sd: what irq_spread_dev_register() returned; nothing happens for %NULL
 *	or an ERR_PTR()
 *
 * Removes ``<dev>/irq_spread``, takes the affinity hints of the vectors'
 * interrupts away and their CPUs out of the per-CPU load.  The interrupts
 * keep their affinity.  Call it before the interrupts are freed
 * (free_irq() warns about a hint left set).
 *
 * Context: process context, may sleep: waits for reads and writes of the
 * device's sysfs files in progress, so not with the CPU hotplug lock held.
 */
void irq_spread_dev_unregister(struct irq_spread_dev *sd)
{
	if (IS_ERR_OR_NULL(sd))
		return;
	/* Waits for show and store, which take irq_spread_dev_lock. */
	kobject_del(&sd->kobj);
	irq_spread_dev_remove(sd);
	kobject_put(&sd->kobj);
}
EXPORT_SYMBOL_GPL(irq_spread_dev_unregister);

/**
 * irq_spread_dev_set_vectors - change the number of vectors in use
 * @sd: the device
 * @nvec: number of vectors now in use, the first @nvec registered ones:
 *	1 to the number registered
 *
 * For a driver that changes its number of queues (``ethtool -L``): spreads
 * the first @nvec vectors again under the device's policy and applies the
 * placement to those the administrator did not set.  The vectors beyond
 * @nvec keep their interrupt and affinity, but lose their affinity hint
 * and leave the per-CPU load.
 *
 * Context: process context, may sleep; takes the CPU hotplug lock, so not
 * with it held.
 * Return: 0 on success; -EINVAL if @sd is %NULL or @nvec is out of range;
 * -ENOMEM, leaving the placement as it was; or the first error of
 * irq_set_affinity_and_hint(), after the other vectors are placed.
 */
int irq_spread_dev_set_vectors(struct irq_spread_dev *sd, unsigned int nvec)
{
	int ret;

	if (!sd || !nvec || nvec > sd->nvec)
		return -EINVAL;
	cpus_read_lock();
	mutex_lock(&irq_spread_dev_lock);
	ret = irq_spread_dev_respread(sd, nvec, sd->policy, false, NULL);
	mutex_unlock(&irq_spread_dev_lock);
	cpus_read_unlock();
	return ret;
}
EXPORT_SYMBOL_GPL(irq_spread_dev_set_vectors);

/**
 * irq_spread_dev_set_policy - switch a device to a policy, as the admin does
 * @sd: the device
 * @policy: the policy, valid
 *
 * Forgets which vectors the administrator set and spreads the active
 * vectors again under @policy, all of them applied.
 *
 * Context: process context, may sleep; takes the CPU hotplug lock.
 * Return: 0; -ENOMEM, changing nothing; or the first error of applying a
 * vector, after the others are applied.
 */
int irq_spread_dev_set_policy(struct irq_spread_dev *sd,
			      enum irq_spread_policy policy)
{
	int ret;

	cpus_read_lock();
	mutex_lock(&irq_spread_dev_lock);
	ret = irq_spread_dev_respread(sd, sd->nr_active, policy, true, NULL);
	mutex_unlock(&irq_spread_dev_lock);
	cpus_read_unlock();
	return ret;
}

/**
 * irq_spread_devs_respread - spread every device of a topology again
 * @topo: the machine whose CPUs changed
 * @exclude: CPUs not to use (one going offline), @topo->nr_cpus bits, or
 *	%NULL
 *
 * Vectors the administrator set are left alone.  Failures are logged: a
 * device that cannot be re-spread keeps its placement.
 *
 * Context: process context, may sleep; the CPU hotplug lock held.
 */
void irq_spread_devs_respread(struct irq_spread_topology *topo,
			      const unsigned long *exclude)
{
	struct irq_spread_dev *sd;
	int ret;

	mutex_lock(&irq_spread_dev_lock);
	list_for_each_entry(sd, &irq_spread_devs, list) {
		if (sd->topo != topo)
			continue;
		ret = irq_spread_dev_respread(sd, sd->nr_active, sd->policy,
					      false, exclude);
		if (ret)
			dev_warn(sd->dev, "irq_spread: vectors not re-spread: %d\n",
				 ret);
	}
	mutex_unlock(&irq_spread_dev_lock);
}
EXPORT_SYMBOL_IF_KUNIT(irq_spread_devs_respread);

/* The CPU is online: spread over it too. */
static int irq_spread_cpu_online(unsigned int cpu)
{
	irq_spread_devs_respread(&irq_spread_system, NULL);
	return 0;
}

/*
 * The CPU is still online, and its interrupts move off it later: move the
 * vectors first, so that the interrupt core does not break their affinity
 * (which would look like the administrator's doing).
 */
static int irq_spread_cpu_offline(unsigned int cpu)
{
	irq_spread_devs_respread(&irq_spread_system,
				 cpumask_bits(cpumask_of(cpu)));
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
