// SPDX-License-Identifier: GPL-2.0
/*
 * irq_spread in debugfs, /sys/kernel/debug/irq_spread/:
 *
 *	devices	every registered device's vectors, a line each
 *		(irq_spread_devs_show())
 *	notifiers	whose affinity notifier each attached interrupt has
 *		(irq_spread_notifiers_show())
 *	pools/	a file per pool (irq_spread_pool_show())
 *
 * Not an ABI: for people and the project's selftests.
 */
#include <linux/debugfs.h>
#include <linux/init.h>
#include <linux/seq_file.h>

#include "irq_spread_internal.h"

DEFINE_SHOW_ATTRIBUTE(irq_spread_devs);
DEFINE_SHOW_ATTRIBUTE(irq_spread_notifiers);

struct dentry *irq_spread_pool_dir;

static int __init irq_spread_debugfs_init(void)
{
	struct dentry *dir = debugfs_create_dir("irq_spread", NULL);

	debugfs_create_file("devices", 0400, dir, NULL, &irq_spread_devs_fops);
	debugfs_create_file("notifiers", 0400, dir, NULL,
			    &irq_spread_notifiers_fops);
	irq_spread_pool_dir = debugfs_create_dir("pools", dir);
	return 0;
}
fs_initcall(irq_spread_debugfs_init);
