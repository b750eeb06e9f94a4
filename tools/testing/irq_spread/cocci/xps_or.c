// SPDX-License-Identifier: GPL-2.0
/* CPUs or-ed into per-queue masks, then each queue's XPS map: High. */
#include <linux/netdevice.h>

static int quux_xps(struct net_device *dev, struct cpumask *q_map,
		    unsigned int nr_queues, int node)
{
	const struct cpumask *one;
	unsigned int i;
	int cpu, err;

	for (i = 0; i < num_online_cpus(); i++) {
		cpu = cpumask_local_spread(i, node);
		one = get_cpu_mask(cpu);
		cpumask_or(&q_map[i % nr_queues], &q_map[i % nr_queues], one);
	}
	for (i = 0; i < nr_queues; i++) {
		err = netif_set_xps_queue(dev, &q_map[i], i);
		if (err)
			return err;
	}
	return 0;
}
