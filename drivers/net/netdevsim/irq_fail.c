// SPDX-License-Identifier: GPL-2.0
/*
 * The fail_irq_affinity debugfs knob: CPUs whose vectors are all taken, as
 * x86's vector allocator sees them when narrow housekeeping funnels many
 * interrupts onto few CPUs.  The device's interrupt lines refuse a mask
 * whose usable CPUs are all listed with -ENOSPC, and use the first CPU not
 * listed otherwise.  Writes take a CPU list (smp_affinity_list's format),
 * empty to clear; reads give it.
 */

#include <linux/cpumask.h>
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/slab.h>
#include <linux/spinlock.h>

#include "netdevsim.h"
#include "irq.h"

static ssize_t nsim_irq_fail_read(struct file *file, char __user *data,
				  size_t count, loff_t *ppos)
{
	struct nsim_irq_fail *fail = file->private_data;
	cpumask_var_t cpus;
	unsigned long flags;
	ssize_t ret;
	char *buf;

	if (!alloc_cpumask_var(&cpus, GFP_KERNEL))
		return -ENOMEM;
	raw_spin_lock_irqsave(&fail->lock, flags);
	cpumask_copy(cpus, fail->cpus);
	raw_spin_unlock_irqrestore(&fail->lock, flags);
	buf = kasprintf(GFP_KERNEL, "%*pbl\n", cpumask_pr_args(cpus));
	free_cpumask_var(cpus);
	if (!buf)
		return -ENOMEM;
	ret = simple_read_from_buffer(data, count, ppos, buf, strlen(buf));
	kfree(buf);
	return ret;
}

static ssize_t nsim_irq_fail_write(struct file *file, const char __user *data,
				   size_t count, loff_t *ppos)
{
	struct nsim_irq_fail *fail = file->private_data;
	cpumask_var_t cpus;
	unsigned long flags;
	int err;

	if (*ppos)
		return -EINVAL;
	if (!zalloc_cpumask_var(&cpus, GFP_KERNEL))
		return -ENOMEM;
	err = cpumask_parselist_user(data, count, cpus);
	if (!err) {
		raw_spin_lock_irqsave(&fail->lock, flags);
		cpumask_copy(fail->cpus, cpus);
		raw_spin_unlock_irqrestore(&fail->lock, flags);
	}
	free_cpumask_var(cpus);
	return err ?: count;
}

static const struct file_operations nsim_irq_fail_fops = {
	.open	= simple_open,
	.read	= nsim_irq_fail_read,
	.write	= nsim_irq_fail_write,
	.llseek	= generic_file_llseek,
	.owner	= THIS_MODULE,
};

/**
 * nsim_irq_fail_cpu - the CPU an interrupt line of the device goes to
 * @fail: the device's knob, or %NULL
 * @mask: the affinity asked for
 * @force: CPUs coming online count, not yet in cpu_online_mask
 *
 * Return: the first usable CPU of @mask not listed in the knob; -EINVAL if
 * @mask has no usable CPU, -ENOSPC if all of them are listed.
 */
int nsim_irq_fail_cpu(struct nsim_irq_fail *fail, const struct cpumask *mask,
		      bool force)
{
	const struct cpumask *usable = force ? cpu_possible_mask : cpu_online_mask;
	unsigned int cpu;

	if (!cpumask_intersects(mask, usable))
		return -EINVAL;
	if (!fail)
		return cpumask_first_and(mask, usable);
	guard(raw_spinlock_irqsave)(&fail->lock);
	for_each_cpu_and(cpu, mask, usable)
		if (!cpumask_test_cpu(cpu, fail->cpus))
			return cpu;
	return -ENOSPC;
}

int nsim_irq_fail_init(struct nsim_dev *nsim_dev)
{
	struct nsim_irq_fail *fail;

	fail = kzalloc_obj(*fail);
	if (!fail)
		return -ENOMEM;
	if (!zalloc_cpumask_var(&fail->cpus, GFP_KERNEL)) {
		kfree(fail);
		return -ENOMEM;
	}
	raw_spin_lock_init(&fail->lock);
	nsim_dev->irq_fail = fail;
	debugfs_create_file("fail_irq_affinity", 0600, nsim_dev->ddir, fail,
			    &nsim_irq_fail_fops);
	return 0;
}

/* After the device's interrupt lines and its debugfs directory are gone. */
void nsim_irq_fail_fini(struct nsim_dev *nsim_dev)
{
	if (!nsim_dev->irq_fail)
		return;
	free_cpumask_var(nsim_dev->irq_fail->cpus);
	kfree(nsim_dev->irq_fail);
	nsim_dev->irq_fail = NULL;
}
