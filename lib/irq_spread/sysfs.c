// SPDX-License-Identifier: GPL-2.0
/*
 * irq_spread sysfs files of a registered device, in <device>/irq_spread/
 * (Documentation/ABI/testing/sysfs-irq-spread):
 *
 *	policy	(0644) the policies, the device's in brackets; write a name
 *		to switch the device to it and re-spread its vectors
 *	vectors	(0444) vector, Linux IRQ and CPUs of each vector
 *
 * Reads and writes take irq_spread_dev_lock (writes the CPU hotplug lock
 * first), so the directory is removed without it held.
 */
#include <linux/bitmap.h>
#include <linux/irq_spread.h>
#include <linux/kobject.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/sysfs.h>

#include <asm/page.h>

#include "irq_spread_internal.h"

static struct irq_spread_dev *to_irq_spread_dev(struct kobject *kobj)
{
	return container_of(kobj, struct irq_spread_dev, kobj);
}

static ssize_t policy_show(struct kobject *kobj, struct kobj_attribute *attr,
			   char *buf)
{
	struct irq_spread_dev *sd = to_irq_spread_dev(kobj);
	enum irq_spread_policy policy;

	mutex_lock(&irq_spread_dev_lock);
	policy = sd->policy;
	mutex_unlock(&irq_spread_dev_lock);
	return irq_spread_policy_list(buf, PAGE_SIZE, policy);
}

/*
 * Any policy name, the device's own too: it also hands the vectors the
 * administrator set back to the policy.  Anything else changes nothing.
 */
static ssize_t policy_store(struct kobject *kobj, struct kobj_attribute *attr,
			    const char *buf, size_t count)
{
	int policy = irq_spread_policy_parse(buf);
	int ret;

	if (policy < 0)
		return policy;
	ret = irq_spread_dev_set_policy(to_irq_spread_dev(kobj), policy);
	return ret ?: count;
}

static struct kobj_attribute irq_spread_policy_attr = __ATTR_RW(policy);

/* Cut at the last whole line if the page is full. */
static int irq_spread_vectors_cut(char *buf, int len)
{
	char *nl;

	if (len < PAGE_SIZE - 1)
		return len;
	buf[len] = '\0';
	nl = strrchr(buf, '\n');
	len = nl ? nl - buf + 1 : 0;
	buf[len] = '\0';
	return len;
}

/*
 * A header, then per vector: vector number, Linux IRQ, the CPUs its
 * affinity holds, and "admin" if the administrator set it, "inactive" if
 * it is beyond the vectors in use.
 */
static ssize_t vectors_show(struct kobject *kobj, struct kobj_attribute *attr,
			    char *buf)
{
	struct irq_spread_dev *sd = to_irq_spread_dev(kobj);
	unsigned int n = sd->topo->nr_cpus, i;
	const unsigned long *cpus;
	int len;

	mutex_lock(&irq_spread_dev_lock);
	irq_spread_dev_find_admin(sd);
	len = sysfs_emit(buf, "vector irq cpus\n");
	for (i = 0; i < sd->nvec; i++) {
		cpus = irq_spread_dev_mask(sd, sd->applied, i);
		if (sd->irq_ops->get(sd->irq_priv, sd->irqs[i], sd->cur, n))
			cpus = sd->cur;
		len += sysfs_emit_at(buf, len, "%u %u %*pbl%s%s\n", i,
				     sd->irqs[i], n, cpus,
				     test_bit(i, sd->admin) ? " admin" : "",
				     i >= sd->nr_active ? " inactive" : "");
	}
	mutex_unlock(&irq_spread_dev_lock);
	return irq_spread_vectors_cut(buf, len);
}

static struct kobj_attribute irq_spread_vectors_attr = __ATTR_RO(vectors);

static struct attribute *irq_spread_dev_attrs[] = {
	&irq_spread_policy_attr.attr,
	&irq_spread_vectors_attr.attr,
	NULL,
};
ATTRIBUTE_GROUPS(irq_spread_dev);

static void irq_spread_dev_release(struct kobject *kobj)
{
	irq_spread_dev_free(to_irq_spread_dev(kobj));
}

/* The type of <device>/irq_spread: its files, and the device's release. */
const struct kobj_type irq_spread_dev_ktype = {
	.release	= irq_spread_dev_release,
	.sysfs_ops	= &kobj_sysfs_ops,
	.default_groups	= irq_spread_dev_groups,
};
