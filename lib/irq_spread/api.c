// SPDX-License-Identifier: GPL-2.0
/*
 * irq_spread driver API: spread a device's vectors on the running system,
 * apply the result as affinity hints, and give it back.
 */
#include <linux/cpumask.h>
#include <linux/errno.h>
#include <linux/export.h>
#include <linux/interrupt.h>
#include <linux/irq_spread.h>
#include <linux/nodemask.h>
#include <linux/numa.h>

#include "irq_spread_internal.h"

/* struct cpumask arrays are bitmaps of NR_CPUS bits, back to back. */
#define IRQ_SPREAD_CPUMASK_LONGS	(sizeof(struct cpumask) / sizeof(unsigned long))

/**
 * irq_spread_cpus - choose the CPUs of a device's interrupt vectors
 * @node: the device's NUMA node (dev_to_node()), or NUMA_NO_NODE
 * @nvec: number of vectors
 * @policy: how to place them
 * @exclude: CPUs the vectors must not use, or %NULL
 * @masks: array of @nvec masks, one per vector, written by this function
 *
 * Places the vectors on online CPUs that are housekeeping CPUs for managed
 * interrupts and for the tick (not in isolcpus=managed_irq or nohz_full),
 * and not in @exclude: nearest NUMA hop first, and under
 * %IRQ_SPREAD_NUMA_CORE and %IRQ_SPREAD_CORE one vector per physical core
 * before SMT siblings get one (see Documentation/core-api/irq_spread.rst).
 * Among equally good CPUs, those with the fewest vectors of all devices
 * come first.  With more vectors than CPUs, each CPU gets the floor or the
 * ceiling of their ratio.  If no CPU is eligible, all online CPUs are used
 * and a warning is printed once.
 *
 * The vectors count in the per-CPU load until irq_spread_release().
 *
 * Context: process context, may sleep (GFP_KERNEL allocations, and a mutex
 * that serialises all spreads and releases).  Does not take the CPU hotplug
 * lock: the result reflects the CPUs online at one moment.
 * Return: 0 on success; -EINVAL if @policy or @node is invalid, @nvec is 0
 * or @masks is %NULL; -ENOMEM.  On error, nothing is changed.
 */
int irq_spread_cpus(int node, unsigned int nvec, enum irq_spread_policy policy,
		    const struct cpumask *exclude, struct cpumask *masks)
{
	if (!masks)
		return -EINVAL;
	return irq_spread_topo_cpus(&irq_spread_system, node, nvec, policy,
				    exclude ? cpumask_bits(exclude) : NULL,
				    cpumask_bits(masks), IRQ_SPREAD_CPUMASK_LONGS);
}
EXPORT_SYMBOL_GPL(irq_spread_cpus);

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
 * Context: process context, may sleep (GFP_KERNEL allocations).  Costs an
 * ordering of all eligible CPUs per call.
 * Return: the CPU.  If the library cannot answer (an invalid @policy or
 * @node, no memory), cpumask_local_spread(@i, @node), with NUMA_NO_NODE for
 * an invalid @node: a drop-in replacement never fails.
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

/**
 * irq_spread_release - give back the CPUs irq_spread_cpus() chose
 * @nvec: number of vectors, as given to irq_spread_cpus()
 * @masks: the masks irq_spread_cpus() wrote, unchanged
 *
 * Takes the vectors out of the per-CPU load, so that later spreads see the
 * CPUs as free again.  Call it once for each successful irq_spread_cpus(),
 * after the vectors are freed.  Does nothing if @masks is %NULL.
 *
 * Context: process context, may sleep (takes the irq_spread mutex).
 */
void irq_spread_release(unsigned int nvec, const struct cpumask *masks)
{
	if (!masks)
		return;
	irq_spread_topo_release(&irq_spread_system, nvec, cpumask_bits(masks),
				IRQ_SPREAD_CPUMASK_LONGS);
}
EXPORT_SYMBOL_GPL(irq_spread_release);

/**
 * irq_spread_clear - remove the affinity hints irq_spread_apply() set
 * @irqs: Linux interrupt numbers
 * @nvec: number of entries in @irqs
 *
 * Must be called before the interrupts are freed (free_irq() warns about a
 * hint left set) and before the masks the hints point to are.
 *
 * Context: process context.
 */
void irq_spread_clear(const unsigned int *irqs, unsigned int nvec)
{
	unsigned int i;

	if (!irqs)
		return;
	for (i = 0; i < nvec; i++)
		irq_update_affinity_hint(irqs[i], NULL);
}
EXPORT_SYMBOL_GPL(irq_spread_clear);

/**
 * irq_spread_apply - set each vector's mask as its interrupt's affinity
 * @irqs: Linux interrupt numbers (pci_irq_vector() and the like), one per
 *	vector
 * @nvec: number of vectors
 * @masks: the masks irq_spread_cpus() wrote
 *
 * Sets the affinity and the affinity hint (irq_set_affinity_and_hint()) of
 * interrupt @irqs[i] to @masks[i].  The hints point into @masks, which must
 * therefore live until irq_spread_clear().
 *
 * Context: process context.
 * Return: 0 on success; -EINVAL if @irqs or @masks is %NULL or @nvec is 0;
 * else the first error of irq_set_affinity_and_hint(), in which case the
 * hints set so far are removed again.
 */
int irq_spread_apply(const unsigned int *irqs, unsigned int nvec,
		     const struct cpumask *masks)
{
	unsigned int i;
	int ret;

	if (!irqs || !nvec || !masks)
		return -EINVAL;
	for (i = 0; i < nvec; i++) {
		ret = irq_set_affinity_and_hint(irqs[i], &masks[i]);
		if (ret) {
			irq_spread_clear(irqs, i);
			return ret;
		}
	}
	return 0;
}
EXPORT_SYMBOL_GPL(irq_spread_apply);
