// SPDX-License-Identifier: GPL-2.0
/*
 * One IRQ per RX queue, placed by net core, or taken from the device's
 * irq_spread pool when irq_pool is set.  See "Testing without hardware"
 * in Documentation/core-api/irq_spread.rst.
 */

#include <linux/cpu_rmap.h>
#include <linux/debugfs.h>
#include <linux/hrtimer.h>
#include <linux/interrupt.h>
#include <linux/irq_spread.h>
#include <linux/irq_work.h>
#include <linux/irq.h>
#include <linux/netdevice.h>
#include <linux/nodemask.h>
#include <linux/seq_file.h>
#include <linux/slab.h>

#include "netdevsim.h"
#include "irq.h"

struct nsim_irq_pool {
	struct nsim_irq_dom *dom;
	struct irq_spread_pool *pool;
};

struct nsim_irq_vec {
	struct netdevsim *ns;
	unsigned int queue;
	struct nsim_irq_line *line;
	unsigned int irq;
	int pool_vector;
	bool requested;
	struct irq_work work;
	struct nsim_rx_consumer rx;
	struct dentry *ddir;
	char name[48];
};

struct nsim_irqs {
	struct nsim_irq_dom *dom;	/* NULL in pool mode */
	struct nsim_irq_pool *pool;
	struct dentry *rmap_file;
	unsigned int nvec;
	struct nsim_irq_vec vec[] __counted_by(nvec);
};

static irqreturn_t nsim_irq_handler(int irq, void *data)
{
	struct nsim_irq_vec *vec = data;
	struct nsim_rq *rq = READ_ONCE(vec->ns->rq[vec->queue]);

	/*
	 * A pool IRQ runs the handlers of all the queues sharing it: only
	 * those with packets have work, and a port never opened has no NAPI.
	 * A queue restart replaces the rq: nsim_queue_irq_sync().
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

/* From poll and the rq's timer: its NAPI is added, with the queue's index. */
static struct nsim_irq_vec *nsim_rq_vec(struct nsim_rq *rq)
{
	struct netdevsim *ns = netdev_priv(rq->napi.dev);

	if (!ns->irqs || rq->napi.index < 0)
		return NULL;
	return &ns->irqs->vec[rq->napi.index];
}

/* From the rq's timer, with interrupts off: the CPU cannot go offline. */
void nsim_irq_raise_rq(struct nsim_rq *rq)
{
	struct nsim_irq_vec *vec = nsim_rq_vec(rq);
	unsigned int cpu;

	if (!vec) {
		napi_schedule(&rq->napi);
		return;
	}

	cpu = READ_ONCE(vec->line->cpu);
	if (!cpu_online(cpu))
		cpu = smp_processor_id();
	irq_work_queue_on(&vec->work, cpu);
}

/*
 * By queue index, for an rq whose NAPI is not added yet (open, queue
 * restart): -1 without IRQs.
 */
int nsim_queue_irq(struct netdevsim *ns, unsigned int queue)
{
	return ns->irqs ? ns->irqs->vec[queue].irq : -1;
}

int nsim_queue_irq_cpu(struct netdevsim *ns, unsigned int queue)
{
	return ns->irqs ? READ_ONCE(ns->irqs->vec[queue].line->cpu) : -1;
}

/* ns->rq[queue] was replaced: once this returns, no handler has the old. */
void nsim_queue_irq_sync(struct netdevsim *ns, unsigned int queue)
{
	if (ns->irqs)
		synchronize_irq(ns->irqs->vec[queue].irq);
}

struct nsim_rx_consumer *nsim_rq_consumer(struct nsim_rq *rq)
{
	struct nsim_irq_vec *vec = nsim_rq_vec(rq);

	return vec ? &vec->rx : NULL;
}

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
	char name[16];
	int err;

	vec->ns = ns;
	vec->queue = queue;
	nsim_rx_consumer_init(&vec->rx);
	vec->pool_vector = -1;
	vec->work = IRQ_WORK_INIT_HARD(nsim_irq_work);
	snprintf(vec->name, sizeof(vec->name), "nsim%up%u-rx%u",
		 ns->nsim_bus_dev->dev.id, ns->nsim_dev_port->port_index,
		 queue);

	err = nsim_irq_vec_get_line(irqs, vec);
	if (err)
		return err;
	vec->irq = vec->line->irq;

	err = request_irq(vec->irq, nsim_irq_handler,
			  irqs->pool ? IRQF_SHARED : 0, vec->name, vec);
	if (err)
		return err;
	vec->requested = true;

	snprintf(name, sizeof(name), "rq%u", vec->queue);
	vec->ddir = debugfs_create_dir(name, ns->nsim_dev_port->ddir);
	debugfs_create_u32("irq", 0400, vec->ddir, &vec->irq);
	nsim_rx_consumer_debugfs(&vec->rx, vec->ddir);
	return 0;
}

static void nsim_irq_vec_fini(struct nsim_irqs *irqs, struct nsim_irq_vec *vec)
{
	debugfs_remove(vec->ddir);
	if (vec->ns)
		nsim_rx_consumer_fini(&vec->rx);
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

/* Created by the first port after irq_pool is set; its size stays. */
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

	pool = kzalloc_obj(*pool);
	if (!pool)
		return ERR_PTR(-ENOMEM);
	snprintf(name, sizeof(name), "nsim%upool",
		 nsim_dev->nsim_bus_dev->dev.id);
	pool->dom = nsim_irq_dom_create(name, info.nr_vectors,
					nsim_dev->irq_fail);
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
/* For each possible CPU, the RX queue net core's aRFS map names. */
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
		irqs->dom = nsim_irq_dom_create(name, nvec,
						ns->nsim_dev->irq_fail);
		if (!irqs->dom) {
			err = -ENOMEM;
			goto err_free;
		}
		err = netif_enable_cpu_rmap(ns->netdev, nvec);
		if (err)
			goto err_free;
		netif_set_affinity_auto(ns->netdev);
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

void nsim_irqs_fini(struct netdevsim *ns)
{
	unsigned int i;

	if (!ns->irqs)
		return;
	/* The queues' timers raise the IRQs: let those in flight end. */
	for (i = 0; i < ns->irqs->nvec; i++)
		hrtimer_cancel(&ns->rq[i]->napi_timer);
	debugfs_remove(ns->irqs->rmap_file);
	nsim_irqs_free(ns->irqs);
	ns->irqs = NULL;
}

bool nsim_dev_node_valid(int node)
{
	if (node == NUMA_NO_NODE)
		return true;
	return node >= 0 && node < nr_node_ids && node_online(node);
}
