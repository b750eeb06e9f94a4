// SPDX-License-Identifier: GPL-2.0
/*
 * irq_spread sysfs files of a registered device: the attribute group
 * "irq_spread" of the device (Documentation/ABI/testing/sysfs-irq-spread),
 * one value per file:
 *
 *	policy	(0644) the policies, the device's in brackets; write a name
 *		to switch the device to it and place its vectors afresh
 *
 * A named group of the device rather than a kobject of the library's: the
 * files are the device's attributes, which udev rules match as
 * ATTR{irq_spread/policy} and set with the device's own event.  The group
 * comes after the device's "add" event (drivers register with irq_spread
 * once their device is added), so registration sends a "change" event.
 *
 * The vectors of every device are in debugfs (debugfs.c).
 *
 * Reads and writes take irq_spread_dev_lock, so the group is removed
 * without it held.
 */
#include <linux/device.h>
#include <linux/irq_spread.h>
#include <linux/mutex.h>
#include <linux/sysfs.h>

#include <asm/page.h>

#include "irq_spread_internal.h"

static ssize_t policy_show(struct device *dev, struct device_attribute *attr,
			   char *buf)
{
	struct irq_spread_dev *sd;
	enum irq_spread_policy policy;

	mutex_lock(&irq_spread_dev_lock);
	sd = irq_spread_dev_find(dev);
	if (sd)
		policy = sd->policy;
	mutex_unlock(&irq_spread_dev_lock);
	/* The group goes before the device does: never seen. */
	if (!sd)
		return -ENODEV;
	return irq_spread_policy_list(buf, PAGE_SIZE, policy);
}

/*
 * Any policy name, the device's own too: it also hands the vectors the
 * administrator set back to the policy.  Anything else changes nothing.
 * The group is removed before the device is unregistered, and removal
 * waits for this write: the device found stays.
 */
static ssize_t policy_store(struct device *dev, struct device_attribute *attr,
			    const char *buf, size_t count)
{
	int policy = irq_spread_policy_parse(buf);
	struct irq_spread_dev *sd;
	int ret;

	if (policy < 0)
		return policy;
	mutex_lock(&irq_spread_dev_lock);
	sd = irq_spread_dev_find(dev);
	mutex_unlock(&irq_spread_dev_lock);
	if (!sd)
		return -ENODEV;
	ret = irq_spread_dev_set_policy(sd, policy);
	return ret ?: count;
}

static DEVICE_ATTR_RW(policy);

static struct attribute *irq_spread_dev_attrs[] = {
	&dev_attr_policy.attr,
	NULL,
};

/* <device>/irq_spread/: the files of a registered device. */
const struct attribute_group irq_spread_dev_group = {
	.name	= "irq_spread",
	.attrs	= irq_spread_dev_attrs,
};
