// SPDX-License-Identifier: GPL-2.0
/*
 * Not a placement: a PMU's context CPU, which its interrupt follows with
 * irq_set_affinity(); and a loop whose CPUs only pick memory nodes.
 */
#include <linux/interrupt.h>
#include <linux/topology.h>

struct pmu_dev {
	struct device *dev;
	unsigned int cpu;
	int irq;
};

struct ring {
	int node;
	struct cpumask mask;
};

static void pmu_pick_cpu(struct pmu_dev *pmu)
{
	pmu->cpu = cpumask_local_spread(0, dev_to_node(pmu->dev));
	irq_set_affinity(pmu->irq, cpumask_of(pmu->cpu));
}

static void rings_alloc(struct ring *rings, int n, int node)
{
	int i, cpu;

	for (i = 0; i < n; i++) {
		cpu = cpumask_local_spread(i, node);
		rings[i].node = cpu_to_node(cpu);
	}
}

static void rings_hint(struct ring *rings, int n, const unsigned int *irqs)
{
	int i;

	for (i = 0; i < n; i++)
		irq_set_affinity_hint(irqs[i], &rings[i].mask);
}
