/* SPDX-License-Identifier: GPL-2.0 */
/* What netdevsim's interrupt files (irq*.c, page_pool.c) share. */
#ifndef _NETDEVSIM_IRQ_H
#define _NETDEVSIM_IRQ_H

#include <linux/cpumask.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/workqueue.h>

struct dentry;
struct fwnode_handle;
struct irq_domain;
struct netdevsim;
struct nsim_rq;
struct page;

/* irq_fail.c: the fail_irq_affinity knob of a device */
struct nsim_irq_fail {
	raw_spinlock_t lock;	/* protects cpus, taken under desc->lock */
	cpumask_var_t cpus;	/* CPUs that have no vector left */
};

int nsim_irq_fail_cpu(struct nsim_irq_fail *fail, const struct cpumask *mask,
		      bool force);

/* irqchip.c: interrupt lines of a simulated irq domain */
struct nsim_irq_line {
	unsigned int irq;	/* the Linux IRQ, 0 while not mapped */
	unsigned int cpu;	/* the CPU it is raised on */
	struct nsim_irq_fail *fail;	/* the device's knob */
};

struct nsim_irq_dom {
	struct fwnode_handle *fwnode;
	struct irq_domain *domain;
	unsigned int nr;
	struct nsim_irq_line line[] __counted_by(nr);
};

struct nsim_irq_dom *nsim_irq_dom_create(const char *name, unsigned int nr,
					 struct nsim_irq_fail *fail);
void nsim_irq_dom_destroy(struct nsim_irq_dom *dom);
int nsim_irq_dom_map(struct nsim_irq_dom *dom, unsigned int hwirq);
void nsim_irq_dom_unmap(struct nsim_irq_dom *dom, unsigned int hwirq);

/* page_pool.c: the consumer of an RX queue's pages */
#define NSIM_RX_HELD	64

struct nsim_rx_consumer {
	spinlock_t lock; /* protects nheld and held */
	unsigned int nheld;
	struct page *held[NSIM_RX_HELD];
	struct work_struct work;
	u64 retargets;
	int page_nid;
};

void nsim_rx_consumer_init(struct nsim_rx_consumer *rx);
void nsim_rx_consumer_debugfs(struct nsim_rx_consumer *rx, struct dentry *dir);
void nsim_rx_consumer_fini(struct nsim_rx_consumer *rx);

/* irq.c */
struct nsim_rx_consumer *nsim_rq_consumer(struct nsim_rq *rq);
int nsim_queue_irq_cpu(struct netdevsim *ns, unsigned int queue);

#endif /* _NETDEVSIM_IRQ_H */
