// SPDX-License-Identifier: GPL-2.0
/* Hop by hop, a CPU per vector, as MANA's irq_setup() did: High. */
#include <linux/interrupt.h>
#include <linux/topology.h>

static void hop_setup(unsigned int *irqs, unsigned int len, int node)
{
	const struct cpumask *next, *prev = cpu_none_mask;
	int cpu;

	rcu_read_lock();
	for_each_numa_hop_mask(next, node) {
		for_each_cpu_andnot(cpu, next, prev) {
			irq_set_affinity_and_hint(*irqs++, cpumask_of(cpu));
			if (!--len)
				goto done;
		}
		prev = next;
	}
done:
	rcu_read_unlock();
}
