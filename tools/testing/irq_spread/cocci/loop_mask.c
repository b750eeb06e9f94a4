// SPDX-License-Identifier: GPL-2.0
/* A loop fills each vector's mask, another function hints it: High. */
#include <linux/interrupt.h>
#include <linux/module.h>

struct foo_vec {
	unsigned int irq;
	struct cpumask affinity_mask;
};

static void foo_init_affinity(struct foo_vec *vecs, int n, int node)
{
	int i;

	for (i = 0; i < n; i++)
		cpumask_set_cpu(cpumask_local_spread(i, node), &vecs[i].affinity_mask);
}

static void foo_set_hints(struct foo_vec *vecs, int n)
{
	int i;

	for (i = 0; i < n; i++)
		irq_set_affinity_hint(vecs[i].irq, &vecs[i].affinity_mask);
}
