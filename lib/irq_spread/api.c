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
