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
 * Placement: a port lets net core place its IRQs, as a NIC driver does
 * (netif_set_affinity_auto()): each RX queue's NAPI is added with its
 * queue as index and linked with the queue's IRQ when the port is opened,
 * and net core keeps the IRQs, the aRFS reverse map (netif_enable_cpu_rmap(),
 * shown in the port's debugfs rx_cpu_rmap) and the XPS maps
 * (netif_set_xps_auto()) in step.
 *
 * Pool mode: if the device's debugfs knob irq_pool is set to a number of
 * vectors before a port is created, the port's queues take their IRQs from
 * an irq_spread pool of that many vectors of the device (its own domain),
 * shared by the queues of all such ports (IRQF_SHARED), instead of having
 * IRQs of their own; the pool places them, not net core.
 *
 * Lifetime: the IRQs are requested when the port's netdev is created and
 * freed after it is unregistered, when no peer can raise them any more and
 * its NAPIs are gone.  The pool lives until the device is removed.
 */

#include <linux/cpu_rmap.h>
#include <linux/cpumask.h>
#include <linux/debugfs.h>
#include <linux/interrupt.h>
#include <linux/irq.h>
#include <linux/irq_spread.h>
#include <linux/irq_work.h>
#include <linux/irqdomain.h>
#include <linux/netdevice.h>
#include <linux/nodemask.h>
#include <linux/seq_file.h>
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
 * @rmap_file: the port's debugfs rx_cpu_rmap, or NULL
 * @nvec: number of vectors: the netdev's num_rx_queues
 * @vec: the vectors
 */
struct nsim_irqs {
	struct nsim_irq_dom *dom;
	struct nsim_irq_pool *pool;
	struct dentry *rmap_file;
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
 * nsim_rq_irq() - the IRQ that schedules an RX queue's NAPI
 * @rq: the queue
 *
 * Return: its IRQ, for netif_napi_set_irq(); -1 for a port without IRQs.
 */
int nsim_rq_irq(struct nsim_rq *rq)
{
	struct nsim_irq_vec *vec = nsim_rq_vec(rq);

	return vec ? vec->irq : -1;
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

/* The pool sets the IRQ's affinity, and moves it with CPU hotplug. */
static int nsim_irq_pool_request(void *priv, unsigned int vector,
				 const struct cpumask *mask)
{
	return nsim_irq_dom_map(priv, vector);
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

#ifdef CONFIG_RFS_ACCEL
/*
 * The port's aRFS reverse map, as net core keeps it: for each possible CPU,
 * the RX queue whose IRQ is nearest.
 */
static int nsim_irqs_rmap_show(struct seq_file *m, void *data)
{
	struct cpu_rmap *rmap = ((struct netdevsim *)m->private)->netdev->rx_cpu_rmap;
	unsigned int cpu;

	for_each_possible_cpu(cpu)
		seq_printf(m, "%s%u", cpu ? " " : "",
			   cpu_rmap_lookup_index(rmap, cpu));
	seq_putc(m, '\n');
	return 0;
}

DEFINE_SHOW_ATTRIBUTE(nsim_irqs_rmap);

static struct dentry *nsim_irqs_rmap_debugfs(struct netdevsim *ns)
{
	return debugfs_create_file("rx_cpu_rmap", 0400, ns->nsim_dev_port->ddir,
				   ns, &nsim_irqs_rmap_fops);
}
#else
static struct dentry *nsim_irqs_rmap_debugfs(struct netdevsim *ns)
{
	return NULL;
}
#endif

/**
 * nsim_irqs_init() - give a port one IRQ per RX queue
 * @ns: the port, with its RX queues allocated, not registered yet
 *
 * The IRQs are the port's own, placed by net core, or, if the device's
 * irq_pool debugfs knob was set to a number of vectors, taken from the
 * device's pool: then queues of several ports may share an IRQ, which the
 * pool places.
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
		err = netif_enable_cpu_rmap(ns->netdev, nvec);
		if (err)
			goto err_free;
		netif_set_affinity_auto(ns->netdev);
		netif_set_xps_auto(ns->netdev);
	}

	for (i = 0; i < nvec; i++) {
		err = nsim_irq_vec_init(irqs, ns, i);
		if (err)
			goto err_free;
	}

	if (!pool)
		irqs->rmap_file = nsim_irqs_rmap_debugfs(ns);
	ns->irqs = irqs;
	return 0;

err_free:
	nsim_irqs_free(irqs);
	return err;
}

/**
 * nsim_irqs_fini() - free a port's IRQs
 * @ns: the port, unregistered, its NAPIs deleted: no peer can raise its
 *	IRQs any more
 *
 * Does nothing for a port without IRQs (a VF).
 */
void nsim_irqs_fini(struct netdevsim *ns)
{
	if (!ns->irqs)
		return;
	debugfs_remove(ns->irqs->rmap_file);
	nsim_irqs_free(ns->irqs);
	ns->irqs = NULL;
}

/**
 * struct nsim_irq_events - a device's event IRQs, which no NAPI owns
 * @dom: one line per event IRQ
 * @spread: their registration with irq_spread's device layer
 * @nr: how many
 * @irq: for each, its Linux IRQ (@irq.irq) and its action name, nsim<ID>-ev<N>
 *	(@irq.name)
 */
struct nsim_irq_events {
	struct nsim_irq_dom *dom;
	struct irq_spread_dev *spread;
	unsigned int nr;
	struct {
		unsigned int irq;
		char name[24];
	} irq[] __counted_by(nr);
};

/* An event IRQ fires only when the test raises it: nothing to do. */
static irqreturn_t nsim_irq_event_handler(int irq, void *data)
{
	return IRQ_HANDLED;
}

static void nsim_irq_events_free(struct nsim_irq_events *ev)
{
	unsigned int i;

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

/**
 * nsim_irq_events_init() - give a device its event IRQs
 * @nsim_dev: the device, being created or reloaded
 *
 * As many as its debugfs event_irqs says, 0 for none: each is requested
 * and registered with irq_spread on the bus device, as a NIC's event
 * queues are, under numa on the device's node.  What the administrator
 * set on them (in /sys/class/irq_spread/netdevsim:netdevsim<ID>/ and
 * /proc/irq/N/smp_affinity) survives a reload: the library keeps it on the
 * bus device until the driver is unbound.
 *
 * Context: the devlink instance lock held.
 * Return: 0 or a negative errno, with nothing left behind.
 */
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
	ev->dom = nsim_irq_dom_create(name, ev->nr);
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

/**
 * nsim_irq_events_fini() - free a device's event IRQs
 * @nsim_dev: the device, being reloaded or removed
 *
 * Unregisters them from irq_spread, which takes their hints and notifiers
 * away, before they are freed.  Nothing for a device without any.
 *
 * Context: the devlink instance lock held.
 */
void nsim_irq_events_fini(struct nsim_dev *nsim_dev)
{
	if (!nsim_dev->events)
		return;
	nsim_irq_events_free(nsim_dev->events);
	nsim_dev->events = NULL;
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
