// SPDX-License-Identifier: GPL-2.0
/*
 * irq_spread's stateless query: the CPU of one vector of a device, in place
 * of cpumask_local_spread(), for a driver that does not register.
 */
#include <linux/cpumask.h>
#include <linux/errno.h>
#include <linux/export.h>
#include <linux/irq_spread.h>
#include <linux/nodemask.h>
#include <linux/numa.h>

#include "engine.h"

/**
 * irq_spread_local_cpu - a vector's CPU, in place of cpumask_local_spread()
 * @i: the vector's index among the device's vectors, from 0
 * @node: the device's NUMA node (dev_to_node()), or NUMA_NO_NODE
 * @policy: how the device's vectors are placed
 *
 * The CPU vector @i of a device on @node takes under @policy on an idle
 * machine: nearest NUMA hop first, only CPUs eligible for interrupts
 * (online, not in isolcpus=managed_irq or nohz_full), and under
 * %IRQ_SPREAD_NUMA_CORE and %IRQ_SPREAD_CORE one vector per physical core
 * before SMT siblings get one; with more vectors than eligible CPUs, round
 * robin.  Under %IRQ_SPREAD_NUMA, on a machine where every online CPU is
 * eligible, that is cpumask_local_spread(@i, @node)'s CPU.
 *
 * A stateless query, as cpumask_local_spread() is: nothing is counted in
 * the per-CPU load, so there is nothing to give back, and two devices on
 * one node get the same CPUs.  It is what scripts/coccinelle/api/irq_spread.cocci
 * puts in place of cpumask_local_spread() in a driver's placement loop; a
 * driver that registers its device (irq_spread_dev_register()) gets the
 * load across devices, the administrator's policy and CPU hotplug too.
 *
 * The answer comes from a cache of the order, per node and policy, kept
 * for the CPUs eligible when it was built (checked on each call); a call
 * the cache cannot answer builds the first slots of the order, at least
 * twice as many as it held, so a driver's calls for its vectors in turn
 * cost about as much as its cpumask_local_spread() calls.
 *
 * Context: process context, may sleep (a driver's probe or open, where its
 * cpumask_local_spread() calls are): the order is built under a mutex, its
 * cost linear in the CPUs; allocates nothing.
 * Return: the CPU.  If the library cannot answer (an invalid @policy or
 * @node, no memory for its cache at boot), cpumask_local_spread(@i, @node),
 * with NUMA_NO_NODE for an invalid @node: a drop-in replacement never
 * fails.
 */
unsigned int irq_spread_local_cpu(unsigned int i, int node,
				  enum irq_spread_policy policy)
{
	int cpu = irq_spread_topo_nth_cpu(&irq_spread_system, node, i, policy);

	if (cpu >= 0)
		return cpu;
	if (node < 0 || node >= nr_node_ids)
		node = NUMA_NO_NODE;
	return cpumask_local_spread(i, node);
}
EXPORT_SYMBOL_GPL(irq_spread_local_cpu);
