// SPDX-License-Identifier: GPL-2.0
/* A simulated interrupt controller, whose lines netdevsim raises itself. */

#include <linux/cpumask.h>
#include <linux/irq.h>
#include <linux/irqdomain.h>
#include <linux/slab.h>

#include "netdevsim.h"
#include "irq.h"

static int nsim_irq_set_affinity(struct irq_data *d,
				 const struct cpumask *mask, bool force)
{
	struct nsim_irq_line *line = irq_data_get_irq_chip_data(d);
	int cpu;

	/* Refused as x86 refuses when the mask's CPUs have no vector left. */
	cpu = nsim_irq_fail_cpu(line->fail, mask, force);
	if (cpu < 0)
		return cpu;

	WRITE_ONCE(line->cpu, cpu);
	irq_data_update_effective_affinity(d, cpumask_of(cpu));
	return IRQ_SET_MASK_OK;
}

static struct irq_chip nsim_irq_chip = {
	.name			= DRV_NAME,
	.irq_set_affinity	= nsim_irq_set_affinity,
	.flags			= IRQCHIP_SKIP_SET_WAKE,
};

static int nsim_irq_domain_map(struct irq_domain *domain, unsigned int virq,
			       irq_hw_number_t hwirq)
{
	struct nsim_irq_dom *dom = domain->host_data;

	irq_set_chip_data(virq, &dom->line[hwirq]);
	irq_set_chip_and_handler(virq, &nsim_irq_chip, handle_simple_irq);
	return 0;
}

static const struct irq_domain_ops nsim_irq_domain_ops = {
	.map	= nsim_irq_domain_map,
};

void nsim_irq_dom_destroy(struct nsim_irq_dom *dom)
{
	if (!dom)
		return;
	if (dom->domain)
		irq_domain_remove(dom->domain);
	if (dom->fwnode)
		irq_domain_free_fwnode(dom->fwnode);
	kfree(dom);
}

struct nsim_irq_dom *nsim_irq_dom_create(const char *name, unsigned int nr,
					 struct nsim_irq_fail *fail)
{
	struct nsim_irq_dom *dom;
	unsigned int i;

	dom = kzalloc(struct_size(dom, line, nr), GFP_KERNEL);
	if (!dom)
		return NULL;
	dom->nr = nr;
	for (i = 0; i < nr; i++) {
		dom->line[i].cpu = cpumask_first(cpu_online_mask);
		dom->line[i].fail = fail;
	}

	dom->fwnode = irq_domain_alloc_named_fwnode(name);
	if (dom->fwnode)
		dom->domain = irq_domain_create_linear(dom->fwnode, nr,
						       &nsim_irq_domain_ops,
						       dom);
	if (!dom->domain) {
		nsim_irq_dom_destroy(dom);
		return NULL;
	}
	return dom;
}

int nsim_irq_dom_map(struct nsim_irq_dom *dom, unsigned int hwirq)
{
	unsigned int irq = irq_create_mapping(dom->domain, hwirq);

	if (!irq)
		return -ENOMEM;
	dom->line[hwirq].irq = irq;
	return irq;
}

void nsim_irq_dom_unmap(struct nsim_irq_dom *dom, unsigned int hwirq)
{
	if (!dom->line[hwirq].irq)
		return;
	irq_dispose_mapping(dom->line[hwirq].irq);
	dom->line[hwirq].irq = 0;
}
