// SPDX-License-Identifier: GPL-2.0
/*
 * Event IRQs, which no NAPI owns: the device registers them with
 * irq_spread itself, as a NIC does for its event queues.
 */

#include <linux/interrupt.h>
#include <linux/irq_spread.h>
#include <linux/slab.h>

#include "netdevsim.h"
#include "irq.h"

struct nsim_irq_events {
	struct nsim_irq_dom *dom;
	struct irq_spread_dev *spread;
	unsigned int nr;
	struct {
		unsigned int irq;
		char name[24];
	} irq[] __counted_by(nr);
};

static irqreturn_t nsim_irq_event_handler(int irq, void *data)
{
	return IRQ_HANDLED;
}

static void nsim_irq_events_free(struct nsim_irq_events *ev)
{
	unsigned int i;

	/* Takes the hints and notifiers away before the IRQs are freed. */
	irq_spread_dev_unregister(ev->spread);
	for (i = 0; i < ev->nr; i++) {
		if (!ev->irq[i].irq)
			continue;
		free_irq(ev->irq[i].irq, ev);
		nsim_irq_dom_unmap(ev->dom, i);
	}
	nsim_irq_dom_destroy(ev->dom);
	kfree(ev);
}

int nsim_irq_events_init(struct nsim_dev *nsim_dev)
{
	struct nsim_bus_dev *bus_dev = nsim_dev->nsim_bus_dev;
	struct irq_spread_dev_info info = {
		.dev		= &bus_dev->dev,
		.node		= dev_to_node(&bus_dev->dev),
		.nr_vectors	= nsim_dev->event_irqs,
		.policy		= IRQ_SPREAD_NUMA,
	};
	struct nsim_irq_events *ev;
	unsigned int i;
	char name[32];
	int irq, err;

	if (!info.nr_vectors)
		return 0;
	ev = kzalloc(struct_size(ev, irq, info.nr_vectors), GFP_KERNEL);
	if (!ev)
		return -ENOMEM;
	ev->nr = info.nr_vectors;
	snprintf(name, sizeof(name), "nsim%uev", bus_dev->dev.id);
	ev->dom = nsim_irq_dom_create(name, ev->nr, nsim_dev->irq_fail);
	if (!ev->dom) {
		err = -ENOMEM;
		goto err_free;
	}
	ev->spread = irq_spread_dev_register(&info);
	if (IS_ERR(ev->spread)) {
		err = PTR_ERR(ev->spread);
		ev->spread = NULL;
		goto err_free;
	}
	for (i = 0; i < ev->nr; i++) {
		irq = nsim_irq_dom_map(ev->dom, i);
		if (irq < 0) {
			err = irq;
			goto err_free;
		}
		snprintf(ev->irq[i].name, sizeof(ev->irq[i].name),
			 "nsim%u-ev%u", bus_dev->dev.id, i);
		err = request_irq(irq, nsim_irq_event_handler, 0,
				  ev->irq[i].name, ev);
		if (err) {
			nsim_irq_dom_unmap(ev->dom, i);
			goto err_free;
		}
		ev->irq[i].irq = irq;
		err = irq_spread_dev_attach(ev->spread, i, irq);
		if (err)
			goto err_free;
	}
	nsim_dev->events = ev;
	return 0;

err_free:
	nsim_irq_events_free(ev);
	return err;
}

void nsim_irq_events_fini(struct nsim_dev *nsim_dev)
{
	if (!nsim_dev->events)
		return;
	nsim_irq_events_free(nsim_dev->events);
	nsim_dev->events = NULL;
}
