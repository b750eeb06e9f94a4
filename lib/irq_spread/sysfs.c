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
#include <linux/slab.h>
#include <linux/sysfs.h>

#include <asm/page.h>

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

static const struct class irq_spread_class = {
	.name		= "irq_spread",
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
