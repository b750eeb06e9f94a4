// SPDX-License-Identifier: GPL-2.0
/*
 * Net core's XPS maps on the CPUs of the queues' IRQs (netif_set_xps_auto())
 * as a driver opts in: ports/<n>/xps_auto, 0 (the default) or 1.  Each TX
 * queue is linked to the NAPI of its channel, the RX queue of its number
 * (netdev.c), whose IRQ net core is notified of unless the device takes
 * its IRQs from a pool.
 */

#include <linux/debugfs.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>

#include "netdevsim.h"

static int nsim_xps_auto_get(void *data, u64 *val)
{
	struct netdevsim *ns = data;

	*val = READ_ONCE(ns->netdev->xps_auto);
	return 0;
}

static int nsim_xps_auto_set(void *data, u64 val)
{
	struct netdevsim *ns = data;

	if (val > 1)
		return -EINVAL;
	rtnl_lock();
	netif_set_xps_auto(ns->netdev, val);
	rtnl_unlock();
	return 0;
}

DEFINE_DEBUGFS_ATTRIBUTE(nsim_xps_auto_fops, nsim_xps_auto_get,
			 nsim_xps_auto_set, "%llu\n");

/* The knob, removed before the netdev goes (nsim_destroy()); none without
 * XPS.
 */
struct dentry *nsim_xps_debugfs(struct netdevsim *ns)
{
	if (!IS_ENABLED(CONFIG_XPS))
		return NULL;
	return debugfs_create_file_unsafe("xps_auto", 0600,
					  ns->nsim_dev_port->ddir, ns,
					  &nsim_xps_auto_fops);
}
