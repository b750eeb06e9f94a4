// SPDX-License-Identifier: GPL-2.0
/*
 * XPS maps that follow the NAPI IRQs (netif_set_xps_auto()).
 *
 * The maps of the TX queues in use are a partition of the online CPUs:
 * each CPU is in the map of exactly one TX queue, the nearest one, by
 * these rules in order, where a queue's CPUs are those of its NAPI
 * index's IRQ (its TX side's, where it has one):
 *
 *  1. a queue whose IRQ has the CPU itself;
 *  2. one whose IRQ has an SMT sibling of the CPU;
 *  3. one whose IRQ has CPUs on the nearest node, by node_distance();
 *
 * and among equally near queues, the one with the fewest CPUs so far, the
 * lower index first, going through the online CPUs in ascending order.
 * With fewer queues than CPUs every CPU still transmits on a queue near
 * it, without the driver's help.  The maps hold online CPUs only
 * (netif_set_xps_queue() sets no other), so they are made again when a
 * CPU comes online (napi_affinity.c).  A queue the
 * administrator wrote the map of keeps that map and takes no CPU.
 */
#include <linux/cpumask.h>
#include <linux/irq_spread.h>
#include <linux/netdevice.h>
#include <linux/nodemask.h>
#include <linux/slab.h>
#include <linux/topology.h>

#include "napi_affinity.h"

#ifdef CONFIG_XPS
/* How near queue @q, whose IRQ has @mask on @nodes, is to @cpu: lower is nearer. */
static unsigned int netdev_xps_distance(unsigned int cpu,
					const struct cpumask *mask,
					const nodemask_t *nodes)
{
	unsigned int sib, node, best = UINT_MAX;
	int from = cpu_to_node(cpu);

	if (cpumask_test_cpu(cpu, mask))
		return 0;
	for_each_cpu(sib, topology_sibling_cpumask(cpu)) {
		if (cpumask_test_cpu(sib, mask))
			return 1;
	}
	for_each_node_mask(node, *nodes)
		best = min_t(unsigned int, best,
			     from == NUMA_NO_NODE ? 0 : node_distance(from, node));
	return best == UINT_MAX ? UINT_MAX : 2 + best;
}

/* The CPUs of TX queue @q's IRQ, into @mask: its TX side's if attached. */
static bool netdev_xps_queue_cpus(struct netdev_napi_affinity *na,
				  unsigned int q, struct cpumask *mask)
{
	unsigned int v = na->dev->napi_config[q].tx_napi ? na->nr + q : q;

	return !irq_spread_dev_vector_mask(na->sd, v, mask);
}

/*
 * Give each online CPU to the nearest of the @txq TX queues in @have, whose
 * IRQs are on @irq and their nodes @nodes, into @map: among the nearest,
 * the queue given the fewest CPUs so far (@given), then the lowest.
 */
static void netdev_xps_assign(unsigned int txq, cpumask_var_t *irq,
			      const nodemask_t *nodes,
			      const unsigned long *have, unsigned int *given,
			      cpumask_var_t *map)
{
	unsigned int cpu, q, best, d, bestd;

	for_each_online_cpu(cpu) {
		best = txq;
		bestd = UINT_MAX;
		for_each_set_bit(q, have, txq) {
			d = netdev_xps_distance(cpu, irq[q], &nodes[q]);
			if (best == txq || d < bestd ||
			    (d == bestd && given[q] < given[best])) {
				best = q;
				bestd = d;
			}
		}
		if (best < txq) {
			cpumask_set_cpu(cpu, map[best]);
			given[best]++;
		}
	}
}

/**
 * netdev_xps_partition - set the XPS maps of a netdev's TX queues in use
 * @na: the netdev's placement
 *
 * See the top of this file.  Failures are logged; the maps set stay.
 *
 * Context: process context, @na->lock held.
 */
void netdev_xps_partition(struct netdev_napi_affinity *na)
{
	struct net_device *dev = na->dev;
	unsigned int txq = min(na->xps_txq, dev->num_tx_queues);
	unsigned int q, cpu, *given;
	cpumask_var_t *irq, *map;
	nodemask_t *nodes;
	unsigned long *have;
	int err;

	lockdep_assert_held(&na->lock);
	irq = kcalloc(txq, sizeof(*irq), GFP_KERNEL);
	map = kcalloc(txq, sizeof(*map), GFP_KERNEL);
	nodes = kcalloc(txq, sizeof(*nodes), GFP_KERNEL);
	given = kcalloc(txq, sizeof(*given), GFP_KERNEL);
	have = bitmap_zalloc(txq, GFP_KERNEL);
	if (!irq || !map || !nodes || !given || !have)
		goto out;
	for (q = 0; q < txq; q++) {
		if (!zalloc_cpumask_var(&irq[q], GFP_KERNEL) ||
		    !zalloc_cpumask_var(&map[q], GFP_KERNEL))
			goto out;
	}

	for (q = 0; q < txq; q++) {
		if (test_bit(q, na->xps_admin) ||
		    !netdev_xps_queue_cpus(na, q, irq[q]))
			continue;
		__set_bit(q, have);
		nodes_clear(nodes[q]);
		for_each_cpu(cpu, irq[q])
			node_set(cpu_to_node(cpu), nodes[q]);
	}
	netdev_xps_assign(txq, irq, nodes, have, given, map);

	for (q = 0; q < txq; q++) {
		if (test_bit(q, na->xps_admin))
			err = netif_set_xps_queue(dev, na->xps_admin_mask[q], q);
		else
			err = netif_set_xps_queue(dev, map[q], q);
		if (err)
			netdev_warn(dev, "XPS map of TX queue %u not set: %d\n",
				    q, err);
	}
out:
	for (q = 0; q < txq; q++) {
		if (irq)
			free_cpumask_var(irq[q]);
		if (map)
			free_cpumask_var(map[q]);
	}
	bitmap_free(have);
	kfree(given);
	kfree(nodes);
	kfree(map);
	kfree(irq);
}
#else
void netdev_xps_partition(struct netdev_napi_affinity *na)
{
}
#endif
