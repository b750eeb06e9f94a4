// SPDX-License-Identifier: GPL-2.0
/*
 * netdevsim interrupts: one Linux IRQ per RX queue, so that IRQ placement
 * (irq_spread, /proc/irq/N/smp_affinity) can be tested without hardware.
 *
 * Each port has an irq domain of its own, whose hwirq N is RX queue N.  The
 * irq_chip can set affinity: it picks one online CPU of the requested mask
 * and reports it as the effective affinity, as an APIC does.  When the peer
 * transmits to a queue, the queue's IRQ is raised on that CPU with an
 * irq_work (a self-IPI or an IPI there), whose callback runs the flow
 * handler in hard interrupt context; the handler schedules the queue's NAPI,
 * which therefore polls on the CPU the IRQ points to, as on a NIC.
 *
 * Page pool: each poll takes one RX buffer from the queue's page pool per
 * packet received and hands it to a consumer, a work item that gives it back
 * to the pool from process context, as a socket reader frees the pages of
 * the packets it read: they go through the pool's ring and the pool refills
 * its allocation cache from there.  The pool is created with
 * PP_FLAG_NAPI_NODE, so net core moves it to the node NAPI polls on when it
 * refills; nothing here calls into it.  debugfs shows how many polls saw
 * the pool's node change and the node of the last page allocated.
 *
 * Pool mode: if the device's debugfs knob irq_pool is set to a number of
 * vectors before a port is created, the port's queues take their IRQs from
 * an irq_spread pool of that many vectors of the device (its own domain),
 * shared by the queues of all such ports (IRQF_SHARED), instead of having
 * IRQs of their own; the pool places them and the port does not register
 * with irq_spread.
 *
 * XPS: each TX queue's map is its queue pair's IRQ CPUs, kept in step by
 * irq_spread's change callback (policy writes, CPU hotplug, the
 * administrator's /proc/irq/N/smp_affinity) and set again after ethtool -L.
 *
 * Lifetime: the IRQs are requested when the port's netdev is created and
 * freed after it is unregistered, when no peer can raise them any more.
 * The port registers with irq_spread after register_netdevice() and
 * attaches every queue's IRQ, and unregisters before unregister_netdevice(),
 * which detaches them, all under RTNL.  The pool lives until the device is
 * removed.
 */

#include <linux/cpumask.h>
#include <linux/debugfs.h>
#include <linux/interrupt.h>
#include <linux/irq.h>
#include <linux/irq_spread.h>
#include <linux/irq_work.h>
#include <linux/irqdomain.h>
#include <linux/nodemask.h>
#include <linux/slab.h>
#include <linux/topology.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>
#include <net/page_pool/helpers.h>

#include "netdevsim.h"

/* RX buffers a queue's consumer holds at most; more are recycled at once. */
#define NSIM_RX_HELD	64

/**
 * struct nsim_irq_line - one interrupt line of a domain
 * @irq: the Linux IRQ, 0 while not mapped
 * @cpu: the CPU the IRQ is raised on: its effective affinity
 */
struct nsim_irq_line {
	unsigned int irq;
	unsigned int cpu;
};

/**
 * struct nsim_irq_dom - an irq domain of netdevsim and its lines
 * @fwnode: names @domain
 * @domain: maps hwirq N to the Linux IRQ of @line[N]
 * @nr: number of lines
 * @line: the lines, the irq_chip data of their IRQs
 */
struct nsim_irq_dom {
	struct fwnode_handle *fwnode;
	struct irq_domain *domain;
	unsigned int nr;
	struct nsim_irq_line line[] __counted_by(nr);
};

/**
 * struct nsim_irq_pool - the vectors a device shares among its ports' queues
 * @dom: one line per vector
 * @pool: gives the lines to queues and places them
 */
struct nsim_irq_pool {
	struct nsim_irq_dom *dom;
	struct irq_spread_pool *pool;
};

/**
 * struct nsim_irq_vec - the interrupt of one RX queue
 * @ns: the port
 * @queue: the RX queue, also the hwirq in the port's domain
 * @line: the queue's line: of the port's domain or of the device's pool
 * @irq: @line's Linux IRQ, for debugfs
 * @pool_vector: the pool vector the queue holds, or -1
 * @requested: whether the queue's handler is requested on @line
 * @work: raises @line's IRQ on its CPU
 * @held_lock: protects @nheld and @held
 * @nheld: number of RX buffers in @held
 * @held: RX buffers the consumer has yet to give back to their page pool
 * @free_work: the consumer: gives @held back from process context
 * @retargets: how many polls saw the queue's page pool change node
 * @page_nid: node of the last RX page taken from the pool, or %NUMA_NO_NODE
 * @ddir: the queue's debugfs directory
 * @name: the action name shown in /proc/interrupts
 */
struct nsim_irq_vec {
	struct netdevsim *ns;
	unsigned int queue;
	struct nsim_irq_line *line;
	unsigned int irq;
	int pool_vector;
	bool requested;
	struct irq_work work;
	spinlock_t held_lock; /* protects nheld and held */
	unsigned int nheld;
	struct page *held[NSIM_RX_HELD];
	struct work_struct free_work;
	u64 retargets;
	int page_nid;
	struct dentry *ddir;
	char name[48];
};

/**
 * struct nsim_irqs - the interrupts of a port
 * @dom: the port's own lines, one per RX queue; NULL in pool mode
 * @pool: the device's pool the queues take their lines from, or NULL
 * @spread: the port's registration with irq_spread, or NULL
 * @nvec: number of vectors: the netdev's num_rx_queues
 * @vec: the vectors
 */
struct nsim_irqs {
	struct nsim_irq_dom *dom;
	struct nsim_irq_pool *pool;
	struct irq_spread_dev *spread;
	unsigned int nvec;
	struct nsim_irq_vec vec[] __counted_by(nvec);
};

static int nsim_irq_set_affinity(struct irq_data *d,
				 const struct cpumask *mask, bool force)
{
	struct nsim_irq_line *line = irq_data_get_irq_chip_data(d);
	unsigned int cpu;

	/* force is for CPUs coming online, not yet in cpu_online_mask. */
	if (force)
		cpu = cpumask_first(mask);
	else
		cpu = cpumask_first_and(mask, cpu_online_mask);
	if (cpu >= nr_cpu_ids)
		return -EINVAL;

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
	/*
	 * Without this, x86 (GENERIC_PENDING_IRQ) defers an affinity change
	 * to the next ack, which handle_simple_irq() never does.
	 */
	irq_set_status_flags(virq, IRQ_MOVE_PCNTXT);
	return 0;
}

static const struct irq_domain_ops nsim_irq_domain_ops = {
	.map	= nsim_irq_domain_map,
};

static void nsim_irq_dom_destroy(struct nsim_irq_dom *dom)
{
	if (!dom)
		return;
	if (dom->domain)
		irq_domain_remove(dom->domain);
	if (dom->fwnode)
		irq_domain_free_fwnode(dom->fwnode);
	kfree(dom);
}

static struct nsim_irq_dom *nsim_irq_dom_create(const char *name,
						unsigned int nr)
{
	struct nsim_irq_dom *dom;
	unsigned int i;

	dom = kzalloc(struct_size(dom, line, nr), GFP_KERNEL);
	if (!dom)
		return NULL;
	dom->nr = nr;
	for (i = 0; i < nr; i++)
		dom->line[i].cpu = cpumask_first(cpu_online_mask);

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

static int nsim_irq_dom_map(struct nsim_irq_dom *dom, unsigned int hwirq)
{
	unsigned int irq = irq_create_mapping(dom->domain, hwirq);

	if (!irq)
		return -ENOMEM;
	dom->line[hwirq].irq = irq;
	return irq;
}

static void nsim_irq_dom_unmap(struct nsim_irq_dom *dom, unsigned int hwirq)
{
	if (!dom->line[hwirq].irq)
		return;
	irq_dispose_mapping(dom->line[hwirq].irq);
	dom->line[hwirq].irq = 0;
}

static irqreturn_t nsim_irq_handler(int irq, void *data)
{
	struct nsim_irq_vec *vec = data;
	struct nsim_rq *rq = &vec->ns->rq[vec->queue];

	/*
	 * A pool IRQ runs the handlers of all queues sharing it: only those
	 * with packets have work, and a port never opened has no NAPI yet.
	 * Still IRQ_HANDLED: a raise whose packet an earlier poll took is
	 * not spurious.
	 */
	if (!skb_queue_empty_lockless(&rq->skb_queue))
		napi_schedule_irqoff(&rq->napi);
	return IRQ_HANDLED;
}

static void nsim_irq_work(struct irq_work *work)
{
	struct nsim_irq_vec *vec = container_of(work, struct nsim_irq_vec,
						work);

	generic_handle_irq(vec->line->irq);
}

/**
 * nsim_irq_raise() - raise the interrupt of an RX queue
 * @ns: the receiving port
 * @queue: its RX queue that got a packet
 *
 * Raise it on the CPU of its effective affinity, or here if that CPU is
 * offline.  If the IRQ is already pending, the pending one covers the
 * packet: it was queued before.
 *
 * Context: bottom halves disabled (transmit path of the peer), so that the
 * CPU chosen cannot go offline before the work is queued.
 */
void nsim_irq_raise(struct netdevsim *ns, unsigned int queue)
{
	struct nsim_irq_vec *vec;
	unsigned int cpu;

	if (!ns->irqs) {
		napi_schedule(&ns->rq[queue].napi);
		return;
	}

	vec = &ns->irqs->vec[queue];
	cpu = READ_ONCE(vec->line->cpu);
	if (!cpu_online(cpu))
		cpu = smp_processor_id();
	irq_work_queue_on(&vec->work, cpu);
}

static struct nsim_irq_vec *nsim_rq_vec(struct nsim_rq *rq)
{
	struct netdevsim *ns = netdev_priv(rq->napi.dev);

	if (!ns->irqs)
		return NULL;
	return &ns->irqs->vec[rq - ns->rq];
}

/**
 * nsim_rq_page_pool_nid() - the node to create an RX queue's page pool on
 * @rq: the queue, with its NAPI added
 *
 * Return: the node of the CPU the queue's IRQ points to, so that the first
 * poll does not count as a retarget; %NUMA_NO_NODE without IRQs.
 */
int nsim_rq_page_pool_nid(struct nsim_rq *rq)
{
	struct nsim_irq_vec *vec = nsim_rq_vec(rq);

	if (!vec)
		return NUMA_NO_NODE;
	return cpu_to_mem(READ_ONCE(vec->line->cpu));
}

/**
 * nsim_rq_poll_done() - page pool work of one NAPI poll
 * @rq: the polled queue
 * @done: packets received by the poll
 * @budget: the poll's budget
 *
 * Take one RX buffer per packet from the page pool, as a NIC refilling its
 * ring would, and hand it to the queue's consumer: the node of the last one
 * shows where new pages come from.  When the pool refills its allocation
 * cache here, net core moves it to this CPU's node if it is another
 * (PP_FLAG_NAPI_NODE); count the polls that saw that happen.  A netpoll
 * poll (budget 0) may run with hard interrupts off and must not touch the
 * page pool.
 *
 * Context: NAPI poll.
 */
void nsim_rq_poll_done(struct nsim_rq *rq, int done, int budget)
{
	struct nsim_irq_vec *vec = nsim_rq_vec(rq);
	struct page_pool *pool = rq->page_pool;
	struct page *page;
	int nid, i;

	if (!budget || !vec || !pool)
		return;

	nid = pool->p.nid;
	spin_lock(&vec->held_lock);
	for (i = 0; i < done; i++) {
		page = page_pool_dev_alloc_pages(pool);
		if (!page)
			break;
		WRITE_ONCE(vec->page_nid, page_to_nid(page));
		if (vec->nheld < NSIM_RX_HELD)
			vec->held[vec->nheld++] = page;
		else
			page_pool_recycle_direct(pool, page);
	}
	spin_unlock(&vec->held_lock);

	if (pool->p.nid != nid)
		WRITE_ONCE(vec->retargets, vec->retargets + 1);
	if (i)
		schedule_work(&vec->free_work);
}

/*
 * The consumer of a queue's RX buffers: it gives them back to their page
 * pool outside NAPI, so they land in the pool's ring, not in its
 * allocation cache.
 */
static void nsim_rx_free_work(struct work_struct *work)
{
	struct nsim_irq_vec *vec = container_of(work, struct nsim_irq_vec,
						free_work);
	struct page *held[NSIM_RX_HELD];
	unsigned int i, n;

	spin_lock_bh(&vec->held_lock);
	n = vec->nheld;
	memcpy(held, vec->held, n * sizeof(*held));
	vec->nheld = 0;
	spin_unlock_bh(&vec->held_lock);

	for (i = 0; i < n; i++)
		page_pool_put_full_page(held[i]->pp, held[i], false);
}

static int nsim_irq_page_nid_get(void *data, u64 *val)
{
	struct nsim_irq_vec *vec = data;

	*val = (s64)READ_ONCE(vec->page_nid);
	return 0;
}

DEFINE_DEBUGFS_ATTRIBUTE(nsim_irq_page_nid_fops, nsim_irq_page_nid_get, NULL,
			 "%lld\n");

static void nsim_irq_debugfs_init(struct nsim_irq_vec *vec,
				  struct dentry *parent)
{
	char name[16];

	snprintf(name, sizeof(name), "rq%u", vec->queue);
	vec->ddir = debugfs_create_dir(name, parent);
	debugfs_create_u32("irq", 0400, vec->ddir, &vec->irq);
	debugfs_create_u64("retargets", 0400, vec->ddir, &vec->retargets);
	debugfs_create_file_unsafe("page_nid", 0400, vec->ddir, vec,
				   &nsim_irq_page_nid_fops);
}

/* Give the queue a line: its own, or one of the device's pool. */
static int nsim_irq_vec_get_line(struct nsim_irqs *irqs,
				 struct nsim_irq_vec *vec)
{
	struct nsim_irq_pool *pool = irqs->pool;
	int ret;

	if (!pool) {
		ret = nsim_irq_dom_map(irqs->dom, vec->queue);
		if (ret < 0)
			return ret;
		vec->line = &irqs->dom->line[vec->queue];
		return 0;
	}

	/* Any CPU: the pool places new vectors near the device's node. */
	ret = irq_spread_pool_get(pool->pool, NULL);
	if (ret < 0)
		return ret;
	vec->pool_vector = ret;
	vec->line = &pool->dom->line[ret];
	return 0;
}

static void nsim_irq_vec_put_line(struct nsim_irqs *irqs,
				  struct nsim_irq_vec *vec)
{
	if (vec->pool_vector >= 0)
		irq_spread_pool_put(irqs->pool->pool, vec->pool_vector);
	else if (vec->line)
		nsim_irq_dom_unmap(irqs->dom, vec->queue);
	vec->pool_vector = -1;
	vec->line = NULL;
}

static int nsim_irq_vec_init(struct nsim_irqs *irqs, struct netdevsim *ns,
			     unsigned int queue)
{
	struct nsim_irq_vec *vec = &irqs->vec[queue];
	int err;

	vec->ns = ns;
	vec->queue = queue;
	spin_lock_init(&vec->held_lock);
	INIT_WORK(&vec->free_work, nsim_rx_free_work);
	vec->pool_vector = -1;
	vec->page_nid = NUMA_NO_NODE;
	vec->work = IRQ_WORK_INIT_HARD(nsim_irq_work);
	snprintf(vec->name, sizeof(vec->name), "nsim%up%u-rx%u",
		 ns->nsim_bus_dev->dev.id, ns->nsim_dev_port->port_index,
		 queue);

	err = nsim_irq_vec_get_line(irqs, vec);
	if (err)
		return err;
	vec->irq = vec->line->irq;

	/* Queues of several ports may share a pool vector. */
	err = request_irq(vec->irq, nsim_irq_handler,
			  irqs->pool ? IRQF_SHARED : 0, vec->name, vec);
	if (err)
		return err;
	vec->requested = true;

	nsim_irq_debugfs_init(vec, ns->nsim_dev_port->ddir);
	return 0;
}

static void nsim_irq_vec_fini(struct nsim_irqs *irqs, struct nsim_irq_vec *vec)
{
	debugfs_remove(vec->ddir);
	/* NAPI is gone: give back what the consumer still holds. */
	if (vec->ns) {
		cancel_work_sync(&vec->free_work);
		nsim_rx_free_work(&vec->free_work);
	}
	/* The work names the IRQ: let a raise in flight end first. */
	irq_work_sync(&vec->work);
	if (vec->requested)
		free_irq(vec->irq, vec);
	vec->requested = false;
	nsim_irq_vec_put_line(irqs, vec);
}

static void nsim_irqs_free(struct nsim_irqs *irqs)
{
	unsigned int i;

	for (i = 0; i < irqs->nvec; i++)
		nsim_irq_vec_fini(irqs, &irqs->vec[i]);
	nsim_irq_dom_destroy(irqs->dom);
	kfree(irqs);
}

static int nsim_irq_pool_request(void *priv, unsigned int vector,
				 const struct cpumask *mask)
{
	struct nsim_irq_dom *dom = priv;
	int irq, err;

	irq = nsim_irq_dom_map(dom, vector);
	if (irq < 0)
		return irq;
	/*
	 * No affinity hint: the queues sharing the IRQ free it one by one,
	 * and free_irq() warns about a hint still set.  Without SMP there is
	 * nothing to place and irq_set_affinity() always fails.
	 */
	err = IS_ENABLED(CONFIG_SMP) ? irq_set_affinity(irq, mask) : 0;
	if (err) {
		nsim_irq_dom_unmap(dom, vector);
		return err;
	}
	return irq;
}

static void nsim_irq_pool_release(void *priv, unsigned int vector,
				  unsigned int irq)
{
	nsim_irq_dom_unmap(priv, vector);
}

static const struct irq_spread_pool_ops nsim_irq_pool_ops = {
	.request	= nsim_irq_pool_request,
	.release	= nsim_irq_pool_release,
};

/*
 * The device's pool, created when the first port after a write to the
 * irq_pool debugfs knob needs it; its size is fixed from then on.
 */
static struct nsim_irq_pool *nsim_irq_pool_get(struct nsim_dev *nsim_dev)
{
	struct irq_spread_pool_info info = {
		.node		= dev_to_node(&nsim_dev->nsim_bus_dev->dev),
		.policy		= irq_spread_default_policy(),
		.nr_vectors	= nsim_dev->irq_pool_size,
		.ops		= &nsim_irq_pool_ops,
	};
	struct nsim_irq_pool *pool;
	char name[32];
	int err;

	if (nsim_dev->irq_pool || !info.nr_vectors)
		return nsim_dev->irq_pool;

	pool = kzalloc(sizeof(*pool), GFP_KERNEL);
	if (!pool)
		return ERR_PTR(-ENOMEM);
	snprintf(name, sizeof(name), "nsim%upool",
		 nsim_dev->nsim_bus_dev->dev.id);
	pool->dom = nsim_irq_dom_create(name, info.nr_vectors);
	if (!pool->dom) {
		err = -ENOMEM;
		goto err_free;
	}

	snprintf(name, sizeof(name), DRV_NAME "%u",
		 nsim_dev->nsim_bus_dev->dev.id);
	info.name = name;
	info.priv = pool->dom;
	pool->pool = irq_spread_pool_create(&info);
	if (IS_ERR(pool->pool)) {
		err = PTR_ERR(pool->pool);
		goto err_dom;
	}

	nsim_dev->irq_pool = pool;
	return pool;

err_dom:
	nsim_irq_dom_destroy(pool->dom);
err_free:
	kfree(pool);
	return ERR_PTR(err);
}

/**
 * nsim_irq_pool_destroy() - destroy a device's pool of vectors
 * @nsim_dev: the device, whose ports are all destroyed
 *
 * Does nothing if the device has no pool.
 */
void nsim_irq_pool_destroy(struct nsim_dev *nsim_dev)
{
	struct nsim_irq_pool *pool = nsim_dev->irq_pool;

	if (!pool)
		return;
	irq_spread_pool_destroy(pool->pool);
	nsim_irq_dom_destroy(pool->dom);
	kfree(pool);
	nsim_dev->irq_pool = NULL;
}

/**
 * nsim_irqs_init() - give a port one IRQ per RX queue
 * @ns: the port, with its RX queues allocated, not registered yet
 *
 * The IRQs are the port's own, or, if the device's irq_pool debugfs knob
 * was set to a number of vectors, taken from the device's pool: then
 * queues of several ports may share an IRQ, which the pool places.
 *
 * Context: the devlink instance lock held (port creation).
 * Return: 0 or a negative errno, with nothing left behind.
 */
int nsim_irqs_init(struct netdevsim *ns)
{
	unsigned int nvec = ns->netdev->num_rx_queues;
	struct nsim_irq_pool *pool;
	struct nsim_irqs *irqs;
	char name[32];
	unsigned int i;
	int err;

	pool = nsim_irq_pool_get(ns->nsim_dev);
	if (IS_ERR(pool))
		return PTR_ERR(pool);

	irqs = kzalloc(struct_size(irqs, vec, nvec), GFP_KERNEL);
	if (!irqs)
		return -ENOMEM;
	irqs->nvec = nvec;
	irqs->pool = pool;
	for (i = 0; i < nvec; i++)
		irqs->vec[i].pool_vector = -1;

	if (!pool) {
		snprintf(name, sizeof(name), "nsim%up%u",
			 ns->nsim_bus_dev->dev.id,
			 ns->nsim_dev_port->port_index);
		irqs->dom = nsim_irq_dom_create(name, nvec);
		if (!irqs->dom) {
			err = -ENOMEM;
			goto err_free;
		}
	}

	for (i = 0; i < nvec; i++) {
		err = nsim_irq_vec_init(irqs, ns, i);
		if (err)
			goto err_free;
	}

	ns->irqs = irqs;
	return 0;

err_free:
	nsim_irqs_free(irqs);
	return err;
}

/**
 * nsim_irqs_fini() - free a port's IRQs
 * @ns: the port, unregistered: no peer can raise its IRQs any more
 *
 * Does nothing for a port without IRQs (a VF).
 */
void nsim_irqs_fini(struct netdevsim *ns)
{
	if (!ns->irqs)
		return;
	nsim_irqs_free(ns->irqs);
	ns->irqs = NULL;
}

/* XPS of a queue pair's TX queue follows its IRQ's CPUs. */
static void nsim_irqs_set_xps(struct netdevsim *ns, unsigned int queue,
			      const struct cpumask *mask)
{
	int err;

	if (!IS_ENABLED(CONFIG_XPS) || queue >= ns->netdev->real_num_tx_queues)
		return;
	err = netif_set_xps_queue(ns->netdev, mask, queue);
	if (err)
		netdev_warn(ns->netdev, "XPS of TX queue %u not set: %d\n",
			    queue, err);
}

/* Every TX queue in use gets its queue pair's IRQ CPUs. */
static void nsim_irqs_sync_xps(struct netdevsim *ns)
{
	struct irq_spread_dev *sd = ns->irqs->spread;
	unsigned int q, n = min(ns->netdev->real_num_tx_queues, ns->irqs->nvec);
	cpumask_var_t mask;

	if (!IS_ENABLED(CONFIG_XPS) || !zalloc_cpumask_var(&mask, GFP_KERNEL))
		return;
	for (q = 0; q < n; q++) {
		if (!irq_spread_dev_vector_mask(sd, q, mask))
			nsim_irqs_set_xps(ns, q, mask);
	}
	free_cpumask_var(mask);
}

/*
 * irq_spread moved a vector (policy write, CPU hotplug, the administrator):
 * its TX queue's XPS map follows.  Called from a work item without RTNL;
 * unregistration waits for it, before the netdev goes.
 */
static void nsim_irqs_changed(void *priv, unsigned int vector,
			      const struct cpumask *mask)
{
	nsim_irqs_set_xps(priv, vector, mask);
}

static const struct irq_spread_dev_ops nsim_irqs_spread_ops = {
	.changed	= nsim_irqs_changed,
};

/**
 * nsim_irqs_register() - have irq_spread place a port's IRQs
 * @ns: the port, its netdev just registered
 *
 * Every RX queue's IRQ is a vector, the first real_num_rx_queues of them
 * in use; the TX queues' XPS maps follow them.  The device's node is the
 * bus device's (4th field of new_device).
 *
 * Context: RTNL held.
 * Return: 0 or a negative errno, with nothing registered.
 */
int nsim_irqs_register(struct netdevsim *ns)
{
	struct nsim_irqs *irqs = ns->irqs;
	struct irq_spread_dev_info info = {
		.dev		= &ns->netdev->dev,
		.node		= dev_to_node(&ns->nsim_bus_dev->dev),
		.policy		= IRQ_SPREAD_NUMA,
		.ops		= &nsim_irqs_spread_ops,
		.priv		= ns,
	};
	struct irq_spread_dev *sd;
	unsigned int active, i;
	int err;

	/* The pool places its vectors itself. */
	if (!irqs || irqs->pool)
		return 0;

	info.nr_vectors = irqs->nvec;
	sd = irq_spread_dev_register(&info);
	if (IS_ERR(sd))
		return PTR_ERR(sd);

	active = ns->netdev->real_num_rx_queues;
	if (active < irqs->nvec) {
		err = irq_spread_dev_set_vectors(sd, active);
		if (err)
			goto err_unregister;
	}
	for (i = 0; i < irqs->nvec; i++) {
		err = irq_spread_dev_attach(sd, i, irqs->vec[i].irq);
		if (err)
			goto err_unregister;
	}

	irqs->spread = sd;
	nsim_irqs_sync_xps(ns);
	return 0;

err_unregister:
	irq_spread_dev_unregister(sd);
	return err;
}

/**
 * nsim_irqs_unregister() - stop irq_spread placing a port's IRQs
 * @ns: the port, its netdev still registered
 *
 * Does nothing for a port without IRQs or not registered.
 *
 * Context: RTNL held.
 */
void nsim_irqs_unregister(struct netdevsim *ns)
{
	if (!ns->irqs || !ns->irqs->spread)
		return;
	irq_spread_dev_unregister(ns->irqs->spread);
	ns->irqs->spread = NULL;
}

/**
 * nsim_irqs_set_channels() - re-place a port's IRQs for a new channel count
 * @ns: the port
 * @count: the new number of combined channels
 *
 * A failure only leaves the previous placement: the channels are set.  The
 * TX queues in use get their XPS maps again, which a smaller count reset.
 *
 * Context: RTNL held (ethtool).
 */
void nsim_irqs_set_channels(struct netdevsim *ns, unsigned int count)
{
	int err;

	if (!ns->irqs || !ns->irqs->spread)
		return;
	err = irq_spread_dev_set_vectors(ns->irqs->spread,
					 min(count, ns->irqs->nvec));
	if (err)
		netdev_warn(ns->netdev, "IRQs not re-spread for %u channels: %d\n",
			    count, err);
	nsim_irqs_sync_xps(ns);
}

/**
 * nsim_dev_node_valid() - whether a device may be created on a NUMA node
 * @node: the node asked for in new_device
 *
 * Return: true for %NUMA_NO_NODE and for online nodes.
 */
bool nsim_dev_node_valid(int node)
{
	if (node == NUMA_NO_NODE)
		return true;
	return node >= 0 && node < nr_node_ids && node_online(node);
}
