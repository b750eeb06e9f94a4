// SPDX-License-Identifier: GPL-2.0
/*
 * irq_spread in debugfs, /sys/kernel/debug/irq_spread/:
 *
 *	devices	every device registered on the system, a line per vector
 *		(irq_spread_devs_show())
 *	notifiers	whose affinity notifier each attached interrupt has
 *		(irq_spread_notifiers_show())
 *	pools/	a file per pool (irq_spread_pool_show())
 *
 * Only the system's devices and pools: not those of the machines KUnit
 * makes.  Not an ABI: for people and the project's selftests.
 */
#include <linux/debugfs.h>
#include <linux/device.h>
#include <linux/export.h>
#include <linux/init.h>
#include <linux/kobject.h>
#include <linux/mutex.h>
#include <linux/seq_file.h>
#include <linux/slab.h>

#include <kunit/visibility.h>

#include "device.h"
#include "pool.h"

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
		if (irq_spread_vec_cpus(sd, v, sd->scratch))
			seq_printf(m, "%*pbl\n", n, sd->scratch);
		else
			seq_puts(m, "-\n");
	}
	kfree(path);
}

/**
 * irq_spread_devs_show - write every registered device's vectors
 * @m: the seq_file of ``/sys/kernel/debug/irq_spread/devices``, whose
 *	private data is the machine (irq_spread_system for that file)
 * @v: unused
 *
 * A header, then one line per vector of every device of the machine: the
 * device's sysfs
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
	struct irq_spread_topology *topo = m->private;
	struct irq_spread_dev *sd;

	seq_puts(m, "device policy vector irq kind state cpus\n");
	mutex_lock(&topo->devs_lock);
	list_for_each_entry(sd, &topo->devs, list) {
		mutex_lock(&sd->lock);
		irq_spread_dev_show(m, sd);
		mutex_unlock(&sd->lock);
	}
	mutex_unlock(&topo->devs_lock);
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
 * number, who holds the interrupt's one affinity notifier ("irq_spread"
 * for the library, "other" for a caller that holds it: net core,
 * &irq_spread_dev_ops.apply), how many of the interrupt core's
 * notifications the library handled for the vector since it was attached
 * (through its notifier or irq_spread_dev_notify()), and whether the
 * notification of a change the library made is yet to be handled (1) or
 * not (0).  A test that made the interrupt core notify waits for these,
 * not for a time.  Changes nothing.
 *
 * Return: 0.
 */
static int irq_spread_notifiers_show(struct seq_file *m, void *v)
{
	const struct irq_spread_vec *vec;
	struct irq_spread_dev *sd;
	unsigned int i;
	char *path;

	seq_puts(m, "irq device vector notifier notified due\n");
	mutex_lock(&irq_spread_system.devs_lock);
	list_for_each_entry(sd, &irq_spread_system.devs, list) {
		mutex_lock(&sd->lock);
		path = kobject_get_path(&sd->dev->kobj, GFP_KERNEL);
		for (i = 0; i < irq_spread_dev_nvec(sd); i++) {
			vec = sd->vec[i];
			if (vec->irq)
				seq_printf(m, "%u %s %u %s %lu %u\n", vec->irq,
					   path ?: "?", i,
					   irq_spread_vec_notifier(sd, vec),
					   vec->notified, vec->notify_due);
		}
		kfree(path);
		mutex_unlock(&sd->lock);
	}
	mutex_unlock(&irq_spread_system.devs_lock);
	return 0;
}

/**
 * irq_spread_pool_show - write a pool's state, as its debugfs file shows it
 * @m: the seq_file; @m->private is the pool
 * @v: unused
 *
 * The pool's settings and totals, then per requested vector its number,
 * interrupt, users and CPUs.  Changes nothing.
 *
 * Return: 0.
 */
int irq_spread_pool_show(struct seq_file *m, void *v)
{
	struct irq_spread_pool *pool = m->private;
	const struct irq_spread_pool_info *info = &pool->info;
	unsigned int i;

	mutex_lock(&pool->lock);
	seq_printf(m, "# node %d policy %s max_users %u requested %u/%u users %u\n",
		   info->node, irq_spread_policy_name(pool->policy),
		   info->max_users, pool->nr_requested, info->nr_vectors,
		   pool->users);
	seq_puts(m, "vector\tirq\tusers\tcpus\n");
	for (i = 0; i < info->nr_vectors; i++)
		if (pool->vec[i].users)
			seq_printf(m, "%u\t%u\t%u\t%*pbl\n",
				   info->first_vector + i, pool->vec[i].irq,
				   pool->vec[i].users, pool->topo->nr_cpus,
				   irq_spread_pool_mask(pool, i));
	mutex_unlock(&pool->lock);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(irq_spread_pool_show);

DEFINE_SHOW_ATTRIBUTE(irq_spread_devs);

DEFINE_SHOW_ATTRIBUTE(irq_spread_notifiers);

DEFINE_SHOW_ATTRIBUTE(irq_spread_pool);

static struct dentry *irq_spread_pool_dir;

/* The debugfs file of a pool of the system, named after it; KUnit's, none. */
struct dentry *irq_spread_pool_debugfs(struct irq_spread_pool *pool)
{
	if (pool->topo != &irq_spread_system)
		return NULL;
	return debugfs_create_file(pool->info.name, 0400, irq_spread_pool_dir,
				   pool, &irq_spread_pool_fops);
}

static int __init irq_spread_debugfs_init(void)
{
	struct dentry *dir = debugfs_create_dir("irq_spread", NULL);

	debugfs_create_file("devices", 0400, dir, &irq_spread_system,
			    &irq_spread_devs_fops);
	debugfs_create_file("notifiers", 0400, dir, NULL,
			    &irq_spread_notifiers_fops);
	irq_spread_pool_dir = debugfs_create_dir("pools", dir);
	return 0;
}
fs_initcall(irq_spread_debugfs_init);
