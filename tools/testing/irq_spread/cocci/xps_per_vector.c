// SPDX-License-Identifier: GPL-2.0
/* One ring's XPS map, from a function called per ring: Medium, no rewrite. */
#include <linux/netdevice.h>

struct baz_ring {
	struct net_device *netdev;
	u16 queue_index;
	int node;
};

static void baz_config_xps(struct baz_ring *ring)
{
	int cpu;

	cpu = cpumask_local_spread(ring->queue_index, ring->node);
	netif_set_xps_queue(ring->netdev, cpumask_of(cpu), ring->queue_index);
}
