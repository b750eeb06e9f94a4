// SPDX-License-Identifier: GPL-2.0
/*
 * The administrator's knobs of a registered device: its policy and the
 * CPUs it may use, set by the calls below (net core makes them for a
 * netdev, from netlink) or through the device's class device.
 *
 * irq_spread class devices: each device registered without
 * %IRQ_SPREAD_DEV_NO_CLASS gets /sys/class/irq_spread/<bus>:<device>, a
 * child of the registered device (so its "device" link leads there), with
 * the administrator's files (Documentation/ABI/testing/sysfs-irq-spread):
 *
 *	policy	(0644) the policies, the device's in brackets; write a name
 *		to switch the device to it and place its vectors afresh
 *	cpus	(0644) the CPUs the device may use, a CPU list; write one
 *		to place the vectors within it
 *
 * and the class itself has one file:
 *
 *	irqs	(0444) the Linux interrupts the library places now, a list of
 *		numbers and ranges (irq_spread_irqs_list()), for a policy
 *		script of irqbalance to leave them alone
 *		(tools/irq_spread/irqbalance/irqbalance-policy)
 *
 * A class device of the library's own, as hwmon has, rather than files in
 * the driver's device: the library owns the files, so they come and go
 * with the registration, and udev sees them with the class device's own
 * events (SUBSYSTEM=="irq_spread").  Netdevs, whose knobs net core shows,
 * have none.
 *
 * Writing needs CAP_NET_ADMIN in the initial user namespace: the files
 * place interrupts of the whole machine.  The files' show and store take
 * the device's lock; the class device is removed, which waits for them,
 * before the registration goes.
 */
#include <linux/bitmap.h>
#include <linux/capability.h>
#include <linux/device.h>
#include <linux/init.h>
#include <linux/irq_spread.h>
#include <linux/irqnr.h>
#include <linux/slab.h>
#include <linux/sprintf.h>
#include <linux/sysfs.h>

#include <asm/page.h>

#include <kunit/static_stub.h>
#include <kunit/visibility.h>

#include "device.h"
#include "pool.h"

/*
 * Switch @sd to @policy (or keep its own) and, unless @cpus is %NULL, to
 * the CPUs @cpus (@sd->topo->nr_cpus bits), as one change: the vectors in
 * use are placed afresh once, all or nothing.  A new policy hands the
 * administrator's vectors back to it.  Asking for what the device has
 * changes nothing, unless the interrupt core refused the driver's last
 * change of the vectors in use (irq_spread_dev_set_vectors()) or a move
 * of CPU hotplug: then those are placed now.  Returns 1 if the policy or the CPUs changed, 0 if
 * not, or a negative errno.
 */
static int irq_spread_dev_configure(struct irq_spread_dev *sd,
				    enum irq_spread_policy policy,
				    const unsigned long *cpus)
{
	unsigned int n = sd->topo->nr_cpus, bits = sd->stride * BITS_PER_LONG;
	unsigned int flags = IRQ_SPREAD_COMMIT_UNDO;
	bool restricted, same, placed = false;
	unsigned long *old;
	int ret = 0;

	old = bitmap_zalloc(bits, GFP_KERNEL);
	if (!old)
		return -ENOMEM;
	mutex_lock(&sd->lock);
	if (policy == IRQ_SPREAD_KEEP_POLICY)
		policy = sd->policy;
	bitmap_copy(old, sd->exclude, bits);
	restricted = sd->restricted;
	if (cpus) {
		/* Only a set that can take an interrupt now: no silent fallback. */
		irq_spread_topo_eligible(sd->topo, sd->scratch);
		if (!bitmap_intersects(cpus, sd->scratch, n)) {
			ret = -EINVAL;
			goto unlock;
		}
		bitmap_complement(sd->exclude, cpus, n);
		bitmap_clear(sd->exclude, n, bits - n);
		sd->restricted = !bitmap_empty(sd->exclude, n);
	}
	same = policy == sd->policy && bitmap_equal(old, sd->exclude, bits);
	if (same && sd->nr_active == sd->nr_asked && !sd->refused)
		goto unlock;
	if (policy != sd->policy)
		flags |= IRQ_SPREAD_COMMIT_RESET;
	ret = irq_spread_dev_respread(sd, sd->nr_asked, policy, flags);
	if (ret) {
		bitmap_copy(sd->exclude, old, bits);
		sd->restricted = restricted;
		goto unlock;
	}
	if (flags & IRQ_SPREAD_COMMIT_RESET)
		sd->policy_set = true;
	placed = true;
	ret = !same;
unlock:
	mutex_unlock(&sd->lock);
	bitmap_free(old);
	if (placed)
		irq_spread_pools_owner_changed(sd->topo, sd, false);
	return ret;
}

/**
 * irq_spread_dev_set_policy - switch a device to a policy, as the admin does
 * @sd: the device
 * @policy: the policy
 *
 * What a write of the device's policy file does: places the vectors in
 * use afresh under @policy, within the CPUs the device may use, all of
 * them applied, the vectors the administrator set handed back to the
 * policy.  The device's own policy changes nothing (but places the
 * vectors in use if the interrupt core refused the driver's last change
 * of them).  The pools @sd owns
 * (&irq_spread_pool_info.owner) then place their requested vectors afresh
 * under @policy.  For a caller that shows the policy itself
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
	ret = irq_spread_dev_configure(sd, policy, NULL);
	return min(ret, 0);
}
EXPORT_SYMBOL_IF_KUNIT(irq_spread_dev_set_policy);

/**
 * irq_spread_dev_set - switch a device to a policy and to the CPUs it may use
 * @sd: the device
 * @policy: the policy; %IRQ_SPREAD_KEEP_POLICY keeps the device's own
 * @cpus: the CPUs, all of them for no restriction; %NULL keeps the CPUs
 *	the device has
 *
 * irq_spread_dev_set_cpus() and irq_spread_dev_set_policy() as one change:
 * the vectors in use are placed afresh once, both take effect or neither
 * does.  Asking for the policy and the CPUs the device has changes
 * nothing, and says so: for a caller that tells others of a change.
 *
 * Context: process context, may sleep.
 * Return: 1 if the policy or the CPUs changed, 0 if the device had them
 * already; -EINVAL if @sd is %NULL, @policy is neither a policy nor
 * %IRQ_SPREAD_KEEP_POLICY, or no CPU of @cpus can take an interrupt now;
 * -ENOMEM; or the interrupt core's error for a vector it refused to move.
 * On error nothing changed.
 */
int irq_spread_dev_set(struct irq_spread_dev *sd, enum irq_spread_policy policy,
		       const struct cpumask *cpus)
{
	if (!sd || (policy != IRQ_SPREAD_KEEP_POLICY &&
		    (unsigned int)policy >= IRQ_SPREAD_NR_POLICIES))
		return -EINVAL;
	return irq_spread_dev_configure(sd, policy,
					cpus ? cpumask_bits(cpus) : NULL);
}
EXPORT_SYMBOL_IF_KUNIT(irq_spread_dev_set);

/**
 * irq_spread_dev_vector_to_policy - hand a vector the administrator set back
 * @sd: the device
 * @vector: the device vector number
 *
 * A vector whose interrupt affinity the administrator set
 * (irq_spread_dev_vector_admin()) goes where the device's policy places
 * it, and follows the policy from now on; the other vectors stay where they
 * are.  Nothing changes for a vector the administrator did not set.
 *
 * Context: process context, may sleep.
 * Return: 0; -EINVAL if @sd is %NULL or @vector is not a vector of @sd;
 * -ENOMEM; or the interrupt core's error if it refused the move: the
 * vector is still the administrator's then, its interrupt as it was.
 */
int irq_spread_dev_vector_to_policy(struct irq_spread_dev *sd,
				    unsigned int vector)
{
	struct irq_spread_vec *vec;
	int ret = 0;

	if (!sd)
		return -EINVAL;
	mutex_lock(&sd->lock);
	if (vector >= irq_spread_dev_nvec(sd)) {
		ret = -EINVAL;
		goto unlock;
	}
	vec = sd->vec[vector];
	if (!vec->admin)
		goto unlock;
	vec->admin = false;
	ret = irq_spread_dev_commit(sd, sd->placed, sd->nr_active,
				    IRQ_SPREAD_COMMIT_UNDO);
	if (ret)
		vec->admin = true;
	else
		irq_spread_dev_committed(sd);
unlock:
	mutex_unlock(&sd->lock);
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(irq_spread_dev_vector_to_policy);

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
	int ret = irq_spread_dev_configure(sd, IRQ_SPREAD_KEEP_POLICY, cpus);

	return min(ret, 0);
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
 * vectors afresh within @cpus.  The CPUs the device may use already change
 * nothing.  For a caller that shows the CPUs itself
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
 * (``/proc/irq/N/smp_affinity``) since it was last handed back to the
 * policy: the vector keeps it; false otherwise or for an invalid @vector.
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

/*
 * Set in @irqs, a bitmap of @nr_irqs bits, the interrupt of every vector
 * of every device registered on @topo that has one, and of every vector a
 * pool on @topo requested, below @nr_irqs.
 */
static void irq_spread_topo_irqs(struct irq_spread_topology *topo,
				 unsigned long *irqs, unsigned int nr_irqs)
{
	struct irq_spread_pool *pool;
	struct irq_spread_dev *sd;
	unsigned int v, irq;

	mutex_lock(&topo->devs_lock);
	list_for_each_entry(sd, &topo->devs, list) {
		mutex_lock(&sd->lock);
		for (v = 0; v < irq_spread_dev_nvec(sd); v++) {
			irq = sd->vec[v]->irq;
			if (irq && irq < nr_irqs)
				__set_bit(irq, irqs);
		}
		mutex_unlock(&sd->lock);
	}
	mutex_unlock(&topo->devs_lock);

	mutex_lock(&topo->pools_lock);
	list_for_each_entry(pool, &topo->pools, list) {
		mutex_lock(&pool->lock);
		for (v = 0; v < pool->info.nr_vectors; v++) {
			irq = pool->vec[v].irq;
			if (pool->vec[v].users && irq < nr_irqs)
				__set_bit(irq, irqs);
		}
		mutex_unlock(&pool->lock);
	}
	mutex_unlock(&topo->pools_lock);
}

static ssize_t policy_show(struct device *cdev, struct device_attribute *attr,
			   char *buf)
{
	struct irq_spread_dev *sd = dev_get_drvdata(cdev);

	return irq_spread_policy_list(buf, PAGE_SIZE, irq_spread_dev_policy(sd));
}

/*
 * Any policy name: a new one also hands the vectors the administrator set
 * back to the policy, the device's own changes nothing.  Anything else
 * changes nothing either.
 */
static ssize_t policy_store(struct device *cdev, struct device_attribute *attr,
			    const char *buf, size_t count)
{
	int policy = irq_spread_policy_parse(buf);
	int ret;

	if (!capable(CAP_NET_ADMIN))
		return -EPERM;
	if (policy < 0)
		return policy;
	ret = irq_spread_dev_set_policy(dev_get_drvdata(cdev), policy);
	return ret ?: count;
}

static DEVICE_ATTR_RW(policy);

static ssize_t cpus_show(struct device *cdev, struct device_attribute *attr,
			 char *buf)
{
	struct irq_spread_dev *sd = dev_get_drvdata(cdev);
	unsigned int n = sd->topo->nr_cpus;
	unsigned long *cpus;
	int len;

	cpus = bitmap_zalloc(n, GFP_KERNEL);
	if (!cpus)
		return -ENOMEM;
	mutex_lock(&sd->lock);
	bitmap_complement(cpus, sd->exclude, n);
	mutex_unlock(&sd->lock);
	len = sysfs_emit(buf, "%*pbl\n", n, cpus);
	bitmap_free(cpus);
	return len;
}

/*
 * A CPU list of the machine's CPUs, at least one of which can take an
 * interrupt now.
 */
static ssize_t cpus_store(struct device *cdev, struct device_attribute *attr,
			  const char *buf, size_t count)
{
	struct irq_spread_dev *sd = dev_get_drvdata(cdev);
	unsigned int n = sd->topo->nr_cpus;
	unsigned long *cpus;
	int ret;

	if (!capable(CAP_NET_ADMIN))
		return -EPERM;
	cpus = bitmap_zalloc(n, GFP_KERNEL);
	if (!cpus)
		return -ENOMEM;
	ret = bitmap_parselist(buf, cpus, n);
	if (!ret && bitmap_empty(cpus, n))
		ret = -EINVAL;
	if (!ret)
		ret = irq_spread_dev_set_cpu_bits(sd, cpus);
	bitmap_free(cpus);
	/* A CPU the machine does not have is a bad value, as any other. */
	if (ret == -ERANGE || ret == -EOVERFLOW)
		ret = -EINVAL;
	return ret ?: count;
}

static DEVICE_ATTR_RW(cpus);

static struct attribute *irq_spread_dev_attrs[] = {
	&dev_attr_policy.attr,
	&dev_attr_cpus.attr,
	NULL,
};

static const struct attribute_group irq_spread_dev_group = {
	.attrs	= irq_spread_dev_attrs,
};

const struct attribute_group *irq_spread_dev_groups[] = {
	&irq_spread_dev_group,
	NULL,
};

/**
 * irq_spread_irqs_list - write the interrupts the library places on a machine
 * @topo: the machine
 * @nr_irqs: interrupt numbers below this are looked for: the machine's
 *	interrupts are all below it
 * @buf: where to write the list
 * @size: the size of @buf
 *
 * One line: the Linux interrupt numbers attached to a vector of a device
 * registered on @topo (irq_spread_dev_attach()) or requested by a pool on
 * @topo and not released yet, in increasing order, as a list of numbers
 * and ranges separated by commas ("45-48,52,60-61"), as CPU lists are
 * written; an empty line for none.  Each device and pool is read under its
 * own lock, one after the other.  Changes nothing.
 *
 * Context: process context, may sleep: takes @topo->devs_lock and each
 * device's lock, then the pools' list mutex and each pool's.
 * Return: the length written, without the terminating NUL; -EFBIG if the
 * line does not fit in @size bytes (nothing is written then); -ENOMEM.
 */
int irq_spread_irqs_list(struct irq_spread_topology *topo,
			 unsigned int nr_irqs, char *buf, size_t size)
{
	unsigned long *irqs;
	int len;

	irqs = bitmap_zalloc(nr_irqs, GFP_KERNEL);
	if (!irqs)
		return -ENOMEM;
	irq_spread_topo_irqs(topo, irqs, nr_irqs);
	len = snprintf(NULL, 0, "%*pbl\n", nr_irqs, irqs);
	if (len < size)
		len = scnprintf(buf, size, "%*pbl\n", nr_irqs, irqs);
	else
		len = -EFBIG;
	bitmap_free(irqs);
	return len;
}
EXPORT_SYMBOL_IF_KUNIT(irq_spread_irqs_list);

static ssize_t irqs_show(const struct class *class,
			 const struct class_attribute *attr, char *buf)
{
	return irq_spread_irqs_list(&irq_spread_system, irq_get_nr_irqs(), buf,
				    PAGE_SIZE);
}

static CLASS_ATTR_RO(irqs);

static struct attribute *irq_spread_class_attrs[] = {
	&class_attr_irqs.attr,
	NULL,
};

static const struct attribute_group irq_spread_class_group = {
	.attrs	= irq_spread_class_attrs,
};

const struct attribute_group *irq_spread_class_groups[] = {
	&irq_spread_class_group,
	NULL,
};

static const struct class irq_spread_class = {
	.name		= "irq_spread",
	.class_groups	= irq_spread_class_groups,
	.dev_groups	= irq_spread_dev_groups,
};

/**
 * irq_spread_dev_class_add - give a registered device its class device
 * @sd: the device, listed
 *
 * Nothing for a device registered with %IRQ_SPREAD_DEV_NO_CLASS.
 *
 * Context: process context, the device's lock not held.
 * Return: 0 or the error of its creation.
 */
int irq_spread_dev_class_add(struct irq_spread_dev *sd)
{
	struct device *cdev;

	KUNIT_STATIC_STUB_REDIRECT(irq_spread_dev_class_add, sd);
	if (sd->flags & IRQ_SPREAD_DEV_NO_CLASS)
		return 0;
	cdev = device_create(&irq_spread_class, sd->dev, 0, sd,
			     "%s:%s", dev_bus_name(sd->dev), dev_name(sd->dev));
	if (IS_ERR(cdev))
		return PTR_ERR(cdev);
	sd->cdev = cdev;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(irq_spread_dev_class_add);

/**
 * irq_spread_dev_class_del - remove a registered device's class device
 * @sd: the device
 *
 * Waits for its files' show and store in progress.
 *
 * Context: process context, the device's lock not held.
 */
void irq_spread_dev_class_del(struct irq_spread_dev *sd)
{
	if (!sd->cdev)
		return;
	device_unregister(sd->cdev);
	sd->cdev = NULL;
}

static int __init irq_spread_class_init(void)
{
	return class_register(&irq_spread_class);
}
postcore_initcall(irq_spread_class_init);
