// SPDX-License-Identifier: GPL-2.0
/*
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
 * The files' show and store take the device's lock; the class device is
 * removed, which waits for them, before the registration goes.
 */
#include <linux/bitmap.h>
#include <linux/device.h>
#include <linux/init.h>
#include <linux/irq_spread.h>
#include <linux/irqnr.h>
#include <linux/slab.h>
#include <linux/sprintf.h>
#include <linux/sysfs.h>

#include <asm/page.h>

#include <kunit/visibility.h>

#include "irq_spread_internal.h"

static ssize_t policy_show(struct device *cdev, struct device_attribute *attr,
			   char *buf)
{
	struct irq_spread_dev *sd = dev_get_drvdata(cdev);

	return irq_spread_policy_list(buf, PAGE_SIZE, irq_spread_dev_policy(sd));
}

/*
 * Any policy name, the device's own too: it also hands the vectors the
 * administrator set back to the policy.  Anything else changes nothing.
 */
static ssize_t policy_store(struct device *cdev, struct device_attribute *attr,
			    const char *buf, size_t count)
{
	int policy = irq_spread_policy_parse(buf);
	int ret;

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

/* A CPU list of the machine's CPUs, at least one of them able to take one. */
static ssize_t cpus_store(struct device *cdev, struct device_attribute *attr,
			  const char *buf, size_t count)
{
	struct irq_spread_dev *sd = dev_get_drvdata(cdev);
	unsigned int n = sd->topo->nr_cpus;
	unsigned long *cpus;
	int ret;

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
 * Context: process context, may sleep: takes irq_spread_devs_lock and each
 * device's lock, then the pools' list mutex and each pool's.
 * Return: the length written, without the terminating NUL; -EFBIG if the
 * line does not fit in @size bytes (nothing is written then); -ENOMEM.
 */
int irq_spread_irqs_list(const struct irq_spread_topology *topo,
			 unsigned int nr_irqs, char *buf, size_t size)
{
	unsigned long *irqs;
	int len;

	irqs = bitmap_zalloc(nr_irqs, GFP_KERNEL);
	if (!irqs)
		return -ENOMEM;
	irq_spread_devs_irqs(topo, irqs, nr_irqs);
	irq_spread_pools_irqs(topo, irqs, nr_irqs);
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
	return irq_spread_irqs_list(&irq_spread_system, READ_ONCE(nr_irqs), buf,
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

	if (sd->flags & IRQ_SPREAD_DEV_NO_CLASS)
		return 0;
	cdev = device_create(&irq_spread_class, sd->dev, 0, sd,
			     "%s:%s", dev_bus_name(sd->dev), dev_name(sd->dev));
	if (IS_ERR(cdev))
		return PTR_ERR(cdev);
	sd->cdev = cdev;
	return 0;
}

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
