// SPDX-License-Identifier: GPL-2.0
/* The request loop hints a static mask of the CPU: High. */
#include <linux/cpumask.h>
#include <linux/interrupt.h>

static int bar_request_irqs(const unsigned int *irqs, int n, void *priv)
{
	int v, cpu, err;

	for (v = 0; v < n; v++) {
		err = request_irq(irqs[v], NULL, 0, "bar", priv);
		if (err)
			return err;
		cpu = cpumask_local_spread(v, -1);
		irq_update_affinity_hint(irqs[v], get_cpu_mask(cpu));
	}
	return 0;
}
