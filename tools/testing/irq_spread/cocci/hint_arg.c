// SPDX-License-Identifier: GPL-2.0
/* The CPU straight into the hint, in a while loop: High. */
#include <linux/interrupt.h>
#include <linux/irq_spread.h>

static void qux_hints(const unsigned int *irqs, unsigned int n, int node)
{
	unsigned int i = 0;

	while (i < n) {
		irq_set_affinity_and_hint(irqs[i], cpumask_of(cpumask_local_spread(i, node)));
		i++;
	}
}
