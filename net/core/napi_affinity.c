// SPDX-License-Identifier: GPL-2.0
/*
 * NAPI IRQ affinity, with irq_spread as its engine.
 *
 * A driver opts in with netif_set_affinity_auto() before it registers the
 * netdev, adds its NAPIs with netif_napi_add_config() (one index per queue)
 * and links each NAPI with its IRQ with netif_napi_set_irq(), then with -1
 * (or netif_napi_del()) before free_irq().  Net core then:
 *
 *  - registers the netdev with irq_spread when it registers it: spread
 *    vector k is NAPI index k, placed under the netdev's policy near the
 *    node of its parent device, with the load of every other device of
 *    the system counted; the TX side of index k, where the driver has a
 *    NAPI and an IRQ of its own for it (netif_napi_add_tx_config()), is a
 *    vector that follows index k and is not counted again;
 *  - attaches each linked NAPI's IRQ to its vector: irq_spread sets the
 *    IRQ's affinity and hint, holds the IRQ's one affinity notifier, keeps
 *    the administrator's /proc/irq/N/smp_affinity writes apart from its
 *    own, and moves the vectors on CPU hotplug;
 *  - hands irq_spread the number of indexes in use, the larger of the
 *    real numbers of RX and TX queues, whenever the driver changes them;
 *  - keeps what follows an IRQ in step with it: the aRFS reverse map
 *    (netif_enable_cpu_rmap()), made again from the IRQs of the RX queues
 *    in use whenever one moves or the number of RX queues changes, the XPS
 *    maps of a driver that opts in (netif_set_xps_auto(),
 *    napi_affinity_xps.c) and the kthread of a threaded NAPI.
 *
 * The placement and the administrator's masks belong to the netdev: they
 * outlive NAPI delete and add, IRQ free and request, channel changes, XDP
 * and a driver reset that keeps the netdev, and go with free_netdev().
 * The administrator sets the policy and the CPUs the netdev may use in
 * /sys/class/net/<dev>/irq_spread/ and with the netdev netlink family
 * (napi_affinity_genl.c).
 *
 * Locking: the RTNL lock, which the callers that add and delete NAPIs,
 * link IRQs and change queue counts hold once the netdev is registered,
 * orders the calls; na->lock protects which NAPI each config has, so that
 * irq_spread's changed callback, which runs from a work item, finds them.
 */
#define pr_fmt(fmt) "napi_affinity: " fmt

#include <linux/bitmap.h>
#include <linux/cpuhotplug.h>
#include <linux/cpu_rmap.h>
#include <linux/cpumask.h>
#include <linux/device.h>
#include <linux/err.h>
#include <linux/init.h>
#include <linux/irq_spread.h>
#include <linux/list.h>
#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/netdevice.h>
#include <linux/overflow.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/sysfs.h>

#include "napi_affinity.h"

/* The netdevs whose XPS maps net core keeps, for CPU hotplug. */
static LIST_HEAD(napi_affinity_xps_list);
static DEFINE_MUTEX(napi_affinity_xps_lock);

/**
 * netif_set_affinity_auto - let net core place the IRQs of a netdev's NAPIs
 * @dev: the netdev, not registered yet
 *
 * From registration on, each NAPI added with netif_napi_add_config() and
 * linked with an IRQ by netif_napi_set_irq() gets its IRQ placed by
 * irq_spread under the netdev's policy (``numa`` unless the administrator
 * set a system default), near the node of the netdev's parent device; the
 * administrator's writes to the IRQ's ``smp_affinity`` are kept per NAPI
 * index for as long as the netdev exists.  The driver must not set the
 * affinity or hint of such an IRQ, nor install an affinity notifier on it.
 *
 * Context: any context.
 */
void netif_set_affinity_auto(struct net_device *dev)
{
	dev->irq_affinity_auto = true;
}
EXPORT_SYMBOL(netif_set_affinity_auto);

/**
 * netif_set_xps_auto - let net core keep a netdev's XPS maps
 * @dev: the netdev, not registered yet, with netif_set_affinity_auto()
 *
 * Net core then keeps the XPS maps of the TX queues in use as a partition
 * of the online CPUs: each CPU maps to one TX queue, the one whose NAPI
 * index has its IRQ nearest the CPU (see
 * Documentation/core-api/irq_spread.rst), in step with every move of the
 * IRQs and every CPU coming online.  A map the administrator writes to
 * ``xps_cpus`` stays as written until the netdev's policy is written.
 *
 * Context: any context.
 */
void netif_set_xps_auto(struct net_device *dev)
{
	dev->xps_auto = true;
}
EXPORT_SYMBOL(netif_set_xps_auto);

#ifdef CONFIG_RFS_ACCEL
/**
 * netif_enable_cpu_rmap - let net core keep a netdev's aRFS reverse map
 * @dev: the netdev, not registered yet
 * @num_irqs: number of RX IRQs the map is for (unused: the map has one
 *	object per RX queue the netdev may have)
 *
 * Allocates &net_device.rx_cpu_rmap, which net core keeps in step with the
 * IRQs it places: only the RX queues in use (the first real_num_rx_queues)
 * are objects of it, object k for NAPI index k, so that set_rps_cpu() never
 * steers a flow to a queue not in use.  Placing the IRQs is what keeps the
 * map: enabling it enables netif_set_affinity_auto() too.  Net core frees
 * the map with the netdev.
 *
 * Context: process context, may sleep.
 * Return: 0; -EBUSY if the netdev has a reverse map or is registered;
 * -ENOMEM.
 */
int netif_enable_cpu_rmap(struct net_device *dev, unsigned int num_irqs)
{
	if (dev->rx_cpu_rmap || dev->napi_affinity)
		return -EBUSY;
	dev->rx_cpu_rmap = alloc_cpu_rmap(dev->num_rx_queues, GFP_KERNEL);
	if (!dev->rx_cpu_rmap)
		return -ENOMEM;
	dev->rx_cpu_rmap_auto = true;
	dev->irq_affinity_auto = true;
	return 0;
}
EXPORT_SYMBOL(netif_enable_cpu_rmap);
#endif

/**
 * netdev_napi_config_alloc - give a new netdev its NAPI configs
 * @dev: the netdev, its queue numbers set
 *
 * One &struct napi_config per index, as many as the netdev has RX or TX
 * queues.
 *
 * Return: 0 or -ENOMEM.
 */
int netdev_napi_config_alloc(struct net_device *dev)
{
	unsigned int nr = max(dev->num_rx_queues, dev->num_tx_queues);

	dev->napi_config = kvcalloc(nr, sizeof(*dev->napi_config),
				    GFP_KERNEL_ACCOUNT);
	return dev->napi_config ? 0 : -ENOMEM;
}

/* The irq_spread vector of a NAPI with a config. */
static unsigned int napi_affinity_vector(const struct netdev_napi_affinity *na,
					 const struct napi_struct *napi)
{
	unsigned int k = napi->config - na->dev->napi_config;

	return napi->config_tx ? na->nr + k : k;
}

/* Where the config of a NAPI records it, while its IRQ is attached. */
static struct napi_struct **napi_affinity_slot(struct napi_struct *napi)
{
	return napi->config_tx ? &napi->config->tx_napi : &napi->config->napi;
}

/* The NAPI whose IRQ is attached to vector @v, or %NULL. */
static struct napi_struct *
napi_affinity_vector_napi(const struct netdev_napi_affinity *na,
			  unsigned int v)
{
	const struct napi_config *config;

	lockdep_assert_held(&na->lock);
	if (v < na->nr)
		return na->dev->napi_config[v].napi;
	config = &na->dev->napi_config[v - na->nr];
	return config->tx_napi;
}

#ifdef CONFIG_RFS_ACCEL
/*
 * Make the aRFS reverse map again from the CPUs of the first @rxq RX
 * queues: every CPU to the nearest of them (cpu_rmap_update()'s siblings,
 * package, node), else to queue 0.  Readers (set_rps_cpu()) take entries
 * without a lock: each is a queue below @rxq at every moment.
 */
static void napi_affinity_rmap(struct netdev_napi_affinity *na,
			       unsigned int rxq)
{
	struct cpu_rmap *rmap = na->dev->rx_cpu_rmap;
	unsigned int cpu, k;
	cpumask_var_t mask;

	lockdep_assert_held(&na->lock);
	if (!na->dev->rx_cpu_rmap_auto || !zalloc_cpumask_var(&mask, GFP_KERNEL))
		return;
	for_each_possible_cpu(cpu) {
		WRITE_ONCE(rmap->near[cpu].index, 0);
		WRITE_ONCE(rmap->near[cpu].dist, CPU_RMAP_DIST_INF);
	}
	for (k = 0; k < min_t(unsigned int, rxq, rmap->size); k++) {
		if (!irq_spread_dev_vector_mask(na->sd, k, mask))
			cpu_rmap_update(rmap, k, mask);
	}
	free_cpumask_var(mask);
}
#else
static void napi_affinity_rmap(struct netdev_napi_affinity *na,
			       unsigned int rxq)
{
}
#endif

/* A threaded NAPI's kthread runs where its IRQ goes. */
static void napi_affinity_set_thread(struct napi_struct *napi,
				     const struct cpumask *mask)
{
	struct task_struct *thread = READ_ONCE(napi->thread);
	int err;

	if (!thread)
		return;
	err = set_cpus_allowed_ptr(thread, mask);
	if (err)
		netdev_warn_once(napi->dev, "NAPI kthread %s not moved to %*pbl: %d\n",
				 thread->comm, cpumask_pr_args(mask), err);
}

/*
 * irq_spread moved vector @vector (a policy or CPU list write, CPU hotplug,
 * a channel change, the administrator): what follows its IRQ follows.
 * From a work item, no lock held.
 */
static void napi_affinity_changed(void *priv, unsigned int vector,
				  const struct cpumask *mask)
{
	struct netdev_napi_affinity *na = priv;
	struct napi_struct *napi;

	mutex_lock(&na->lock);
	napi = napi_affinity_vector_napi(na, vector);
	if (napi)
		napi_affinity_set_thread(napi, mask);
	if (vector < na->rmap_rxq)
		napi_affinity_rmap(na, na->rmap_rxq);
	mutex_unlock(&na->lock);
	if (na->dev->xps_auto)
		schedule_work(&na->xps_work);
}

static const struct irq_spread_dev_ops napi_affinity_ops = {
	.changed	= napi_affinity_changed,
};

static void napi_affinity_xps_work(struct work_struct *work)
{
	struct netdev_napi_affinity *na =
		container_of(work, struct netdev_napi_affinity, xps_work);

	mutex_lock(&na->lock);
	if (!na->xps_off)
		netdev_xps_partition(na);
	mutex_unlock(&na->lock);
}

/* Attach the IRQ of @napi, which has a config, to its vector. */
static void napi_affinity_attach(struct netdev_napi_affinity *na,
				 struct napi_struct *napi)
{
	struct napi_struct **slot = napi_affinity_slot(napi);
	int err = -EBUSY;

	mutex_lock(&na->lock);
	if (!*slot) {
		err = irq_spread_dev_attach(na->sd, napi_affinity_vector(na, napi),
					    napi->irq);
		if (!err)
			*slot = napi;
	}
	mutex_unlock(&na->lock);
	if (err) {
		netdev_warn(napi->dev, "IRQ %d of NAPI index %td not placed: %d\n",
			    napi->irq, napi->config - napi->dev->napi_config,
			    err);
		return;
	}
	napi_affinity_thread(napi);
}

static void napi_affinity_detach(struct netdev_napi_affinity *na,
				 struct napi_struct *napi)
{
	struct napi_struct **slot;

	if (!napi->config)
		return;
	slot = napi_affinity_slot(napi);
	mutex_lock(&na->lock);
	if (*slot == napi) {
		irq_spread_dev_detach(na->sd, napi_affinity_vector(na, napi));
		*slot = NULL;
	}
	mutex_unlock(&na->lock);
}

/**
 * netif_napi_set_irq - link a NAPI with the IRQ that schedules it
 * @napi: the NAPI, added
 * @irq: its IRQ, requested or about to be; -1 to unlink it, before the
 *	IRQ is freed
 *
 * The IRQ is reported in the netdev netlink family's NAPI objects.  With
 * netif_set_affinity_auto() and a NAPI added with netif_napi_add_config(),
 * net core places the IRQ from then on (at registration, for a netdev not
 * registered yet) and takes its affinity hint and notifier away when the
 * NAPI is unlinked or deleted.
 *
 * Context: process context, may sleep; the RTNL lock held once the netdev
 * is registered.
 */
void netif_napi_set_irq(struct napi_struct *napi, int irq)
{
	struct netdev_napi_affinity *na = napi->dev->napi_affinity;

	if (napi->irq == irq)
		return;
	if (na)
		napi_affinity_detach(na, napi);
	napi->irq = irq;
	if (!na || irq <= 0)
		return;
	if (!napi->config) {
		WARN_ONCE(napi->dev->irq_affinity_auto,
			  "%s: NAPI without a config: IRQ %d not placed\n",
			  netdev_name(napi->dev), irq);
		return;
	}
	napi_affinity_attach(na, napi);
}
EXPORT_SYMBOL(netif_napi_set_irq);

/**
 * napi_affinity_del - a NAPI is deleted
 * @napi: the NAPI, its kthread still there
 *
 * Its IRQ is detached; its index keeps its placement and the
 * administrator's mask for the next NAPI of the index.
 */
void napi_affinity_del(struct napi_struct *napi)
{
	struct netdev_napi_affinity *na = napi->dev->napi_affinity;

	if (na)
		napi_affinity_detach(na, napi);
	napi->config = NULL;
	napi->config_tx = false;
	napi->index = -1;
}

/**
 * napi_affinity_thread - a NAPI's kthread was created
 * @napi: the NAPI
 *
 * The kthread of a NAPI whose IRQ net core places runs on the IRQ's CPUs.
 */
void napi_affinity_thread(struct napi_struct *napi)
{
	struct netdev_napi_affinity *na = napi->dev->napi_affinity;
	cpumask_var_t mask;

	if (!na || !napi->config || !READ_ONCE(napi->thread))
		return;
	if (!zalloc_cpumask_var(&mask, GFP_KERNEL))
		return;
	mutex_lock(&na->lock);
	if (*napi_affinity_slot(napi) == napi &&
	    !irq_spread_dev_vector_mask(na->sd, napi_affinity_vector(na, napi),
					mask))
		napi_affinity_set_thread(napi, mask);
	mutex_unlock(&na->lock);
	free_cpumask_var(mask);
}

/**
 * napi_affinity_mask - the CPUs of a NAPI's IRQ, as net core places it
 * @napi: the NAPI
 * @mask: where to write them
 *
 * Context: process context, may sleep.
 * Return: 0; -ENODATA if net core does not place the NAPI's IRQ, or its
 * index is not in use.
 */
int napi_affinity_mask(struct napi_struct *napi, struct cpumask *mask)
{
	struct netdev_napi_affinity *na = napi->dev->napi_affinity;
	int ret = -ENODATA;

	if (!na || !napi->config)
		return ret;
	mutex_lock(&na->lock);
	if (*napi_affinity_slot(napi) == napi)
		ret = irq_spread_dev_vector_mask(na->sd,
						 napi_affinity_vector(na, napi),
						 mask);
	mutex_unlock(&na->lock);
	return ret;
}

/**
 * napi_affinity_admin - whether the administrator set a NAPI's IRQ
 * @napi: the NAPI
 *
 * Context: process context, may sleep.
 * Return: true if net core places the NAPI's IRQ and the administrator
 * wrote its affinity, which it keeps.
 */
bool napi_affinity_admin(struct napi_struct *napi)
{
	struct netdev_napi_affinity *na = napi->dev->napi_affinity;
	bool admin = false;

	if (!na || !napi->config)
		return false;
	mutex_lock(&na->lock);
	if (*napi_affinity_slot(napi) == napi)
		admin = irq_spread_dev_vector_admin(na->sd,
						    napi_affinity_vector(na, napi));
	mutex_unlock(&na->lock);
	return admin;
}

static void netdev_napi_affinity_destroy(struct netdev_napi_affinity *na)
{
	unsigned int q;

	if (na->xps_admin_mask) {
		for (q = 0; q < na->dev->num_tx_queues; q++)
			free_cpumask_var(na->xps_admin_mask[q]);
	}
	kfree(na->xps_admin_mask);
	bitmap_free(na->xps_admin);
	kfree(na);
}

/* The number of indexes in use for @rxq RX and @txq TX queues. */
static unsigned int netdev_napi_active(const struct netdev_napi_affinity *na,
				       unsigned int rxq, unsigned int txq)
{
	return clamp(max(rxq, txq), 1U, na->nr);
}

/* @dev's state, for @nr indexes; %NULL for no memory. */
static struct netdev_napi_affinity *
netdev_napi_affinity_alloc(struct net_device *dev, unsigned int nr)
{
	struct netdev_napi_affinity *na;
	unsigned int k;

	na = kzalloc(struct_size(na, reserved, nr), GFP_KERNEL);
	if (!na)
		return NULL;
	na->nr = nr;
	na->dev = dev;
	INIT_LIST_HEAD(&na->list);
	mutex_init(&na->lock);
	INIT_WORK(&na->xps_work, napi_affinity_xps_work);
	na->xps_txq = dev->real_num_tx_queues;
	na->rmap_rxq = dev->real_num_rx_queues;
	na->xps_admin = bitmap_zalloc(dev->num_tx_queues, GFP_KERNEL);
	if (!na->xps_admin) {
		netdev_napi_affinity_destroy(na);
		return NULL;
	}
	for (k = 0; k < nr; k++)
		na->reserved[k] = k;
	return na;
}

/**
 * netdev_napi_affinity_register - a netdev is being registered
 * @dev: the netdev, its name chosen, its kobject not added yet
 *
 * For a netdev with netif_set_affinity_auto(): register it with irq_spread
 * and attach the IRQs of the NAPIs linked already.  A failure is logged:
 * the netdev works, its IRQs where the interrupt core put them.
 *
 * Context: the RTNL lock held.
 */
void netdev_napi_affinity_register(struct net_device *dev)
{
	unsigned int nr = max(dev->num_rx_queues, dev->num_tx_queues), k;
	struct device *parent = dev->dev.parent;
	struct irq_spread_dev_info info = {
		.dev		= &dev->dev,
		.node		= dev_to_node(parent ?: &dev->dev),
		.policy		= IRQ_SPREAD_NUMA,
		.ops		= &napi_affinity_ops,
		.flags		= IRQ_SPREAD_DEV_NO_CLASS,
	};
	struct netdev_napi_affinity *na;
	struct napi_struct *napi;
	struct irq_spread_dev *sd;
	int err;

	if (!dev->irq_affinity_auto || dev->napi_affinity)
		return;
	na = netdev_napi_affinity_alloc(dev, nr);
	if (!na) {
		err = -ENOMEM;
		goto fail;
	}
	info.nr_vectors = nr;
	info.post_vectors = nr;
	info.reserved = na->reserved;
	info.priv = na;
	sd = irq_spread_dev_register(&info);
	if (IS_ERR(sd)) {
		err = PTR_ERR(sd);
		goto fail_err;
	}
	na->sd = sd;
	k = netdev_napi_active(na, dev->real_num_rx_queues,
			       dev->real_num_tx_queues);
	err = irq_spread_dev_set_vectors(sd, k);
	if (err)
		netdev_warn(dev, "IRQ placement for %u queues: %d\n",
			    dev->real_num_rx_queues, err);
	dev->napi_affinity = na;
	mutex_lock(&na->lock);
	napi_affinity_rmap(na, na->rmap_rxq);
	mutex_unlock(&na->lock);

	list_for_each_entry(napi, &dev->napi_list, dev_list) {
		if (napi->config && napi->irq > 0)
			napi_affinity_attach(na, napi);
	}
	if (dev->xps_auto) {
		mutex_lock(&napi_affinity_xps_lock);
		list_add_tail(&na->list, &napi_affinity_xps_list);
		mutex_unlock(&napi_affinity_xps_lock);
		schedule_work(&na->xps_work);
	}
	return;

fail_err:
	netdev_napi_affinity_destroy(na);
fail:
	netdev_warn(dev, "IRQs of the NAPIs not placed: %d\n", err);
}

/**
 * netdev_napi_affinity_queues - a netdev changes its number of queues
 * @dev: the netdev, registered
 * @rxq: the real number of RX queues from now on
 * @txq: the real number of TX queues from now on
 *
 * Called before the new numbers are set: no XPS map is set from here on
 * for a TX queue beyond @txq, so that the removal of those maps that
 * follows is final, and the aRFS map names no RX queue beyond @rxq any
 * more once fewer are in use.
 *
 * Context: the RTNL lock held.
 */
void netdev_napi_affinity_queues(struct net_device *dev, unsigned int rxq,
				 unsigned int txq)
{
	struct netdev_napi_affinity *na = dev->napi_affinity;
	int err;

	if (!na)
		return;
	mutex_lock(&na->lock);
	na->xps_txq = txq;
	/* Fewer RX queues: out of the map before they go out of use. */
	na->rmap_rxq = min(na->rmap_rxq, rxq);
	napi_affinity_rmap(na, na->rmap_rxq);
	mutex_unlock(&na->lock);
	err = irq_spread_dev_set_vectors(na->sd, netdev_napi_active(na, rxq,
								    txq));
	if (err)
		netdev_warn(dev, "IRQs not placed for %u RX and %u TX queues: %d\n",
			    rxq, txq, err);
	mutex_lock(&na->lock);
	na->rmap_rxq = rxq;
	napi_affinity_rmap(na, rxq);
	mutex_unlock(&na->lock);
	if (dev->xps_auto)
		schedule_work(&na->xps_work);
}

/**
 * netdev_napi_affinity_unregister - a netdev is being unregistered
 * @dev: the netdev
 *
 * No XPS map is set any more: the netdev's maps are about to be freed.
 *
 * Context: the RTNL lock held.
 */
void netdev_napi_affinity_unregister(struct net_device *dev)
{
	struct netdev_napi_affinity *na = dev->napi_affinity;

	if (!na)
		return;
	mutex_lock(&napi_affinity_xps_lock);
	list_del_init(&na->list);
	mutex_unlock(&napi_affinity_xps_lock);
	mutex_lock(&na->lock);
	na->xps_off = true;
	mutex_unlock(&na->lock);
	cancel_work_sync(&na->xps_work);
}

/**
 * netdev_napi_affinity_free - a netdev is being freed
 * @dev: the netdev, its NAPIs deleted
 *
 * Unregisters it from irq_spread and frees its NAPI configs and its
 * reverse map: the placement and the administrator's masks go with it.
 *
 * Context: process context, may sleep; not holding a lock the changed
 * callback takes (none but the netdev's own).
 */
void netdev_napi_affinity_free(struct net_device *dev)
{
	struct netdev_napi_affinity *na = dev->napi_affinity;

	if (na) {
		/* Unregistered already, unless registration failed after us. */
		mutex_lock(&napi_affinity_xps_lock);
		list_del_init(&na->list);
		mutex_unlock(&napi_affinity_xps_lock);
		irq_spread_dev_unregister(na->sd);
		cancel_work_sync(&na->xps_work);
		dev->napi_affinity = NULL;
		netdev_napi_affinity_destroy(na);
	}
#ifdef CONFIG_RFS_ACCEL
	if (dev->rx_cpu_rmap_auto) {
		cpu_rmap_put(dev->rx_cpu_rmap);
		dev->rx_cpu_rmap = NULL;
		dev->rx_cpu_rmap_auto = false;
	}
#endif
	kvfree(dev->napi_config);
	dev->napi_config = NULL;
}

/**
 * netdev_xps_admin - the administrator writes a TX queue's XPS map
 * @dev: the netdev
 * @queue: the TX queue
 * @mask: the map about to be set
 *
 * With netif_set_xps_auto(), net core keeps the map as the administrator
 * wrote it, through channel changes, until the netdev's policy is written,
 * and shares the CPUs among the other queues.
 *
 * Context: the RTNL lock held.
 */
void netdev_xps_admin(struct net_device *dev, unsigned int queue,
		      const struct cpumask *mask)
{
	struct netdev_napi_affinity *na = dev->napi_affinity;
	unsigned int q;

	if (!na || !dev->xps_auto || queue >= dev->num_tx_queues)
		return;
	mutex_lock(&na->lock);
	if (!na->xps_admin_mask) {
		na->xps_admin_mask = kcalloc(dev->num_tx_queues,
					     sizeof(*na->xps_admin_mask),
					     GFP_KERNEL);
		for (q = 0; na->xps_admin_mask && q < dev->num_tx_queues; q++) {
			if (!zalloc_cpumask_var(&na->xps_admin_mask[q],
						GFP_KERNEL))
				break;
		}
		if (na->xps_admin_mask && q < dev->num_tx_queues) {
			while (q--)
				free_cpumask_var(na->xps_admin_mask[q]);
			kfree(na->xps_admin_mask);
			na->xps_admin_mask = NULL;
		}
	}
	if (na->xps_admin_mask) {
		cpumask_copy(na->xps_admin_mask[queue], mask);
		__set_bit(queue, na->xps_admin);
	}
	mutex_unlock(&na->lock);
	/* The other queues share the CPUs this one no longer takes. */
	schedule_work(&na->xps_work);
}

/*
 * A CPU came online: XPS maps hold online CPUs only, so the partition is
 * made again for it.  From a CPU hotplug callback: the work waits for the
 * CPU hotplug lock.
 */
static int napi_affinity_cpu_online(unsigned int cpu)
{
	struct netdev_napi_affinity *na;

	mutex_lock(&napi_affinity_xps_lock);
	list_for_each_entry(na, &napi_affinity_xps_list, list)
		schedule_work(&na->xps_work);
	mutex_unlock(&napi_affinity_xps_lock);
	return 0;
}

static int __init napi_affinity_init(void)
{
	int ret;

	ret = cpuhp_setup_state_nocalls(CPUHP_AP_ONLINE_DYN,
					"net/napi_affinity:online",
					napi_affinity_cpu_online, NULL);
	if (ret < 0)
		pr_err("no CPU hotplug state: XPS maps miss CPUs coming online: %d\n",
		       ret);
	return 0;
}
subsys_initcall(napi_affinity_init);

/* Hand the administrator's XPS maps back, as a policy write does. */
static void netdev_xps_admin_reset(struct netdev_napi_affinity *na)
{
	mutex_lock(&na->lock);
	bitmap_zero(na->xps_admin, na->dev->num_tx_queues);
	mutex_unlock(&na->lock);
	if (na->dev->xps_auto)
		schedule_work(&na->xps_work);
}

/**
 * netdev_napi_affinity_set_policy - the administrator writes a netdev's policy
 * @na: the netdev's placement
 * @policy: the policy
 *
 * Places the IRQs of the NAPIs afresh under @policy and hands the IRQ masks
 * and the XPS maps the administrator wrote back to it: what a write of
 * /sys/class/net/<dev>/irq_spread/policy and the netdev netlink family's
 * dev-set do.
 *
 * Context: process context, may sleep.
 * Return: 0, or irq_spread_dev_set_policy()'s error, nothing changed.
 */
int netdev_napi_affinity_set_policy(struct netdev_napi_affinity *na,
				    enum irq_spread_policy policy)
{
	int err = irq_spread_dev_set_policy(na->sd, policy);

	if (!err)
		netdev_xps_admin_reset(na);
	return err;
}

/*
 * /sys/class/net/<dev>/irq_spread/: the policy and the CPUs of a netdev
 * whose NAPIs' IRQs net core places.  The files go with the netdev's
 * kobject, before free_netdev() takes the placement away.
 */
static struct netdev_napi_affinity *napi_affinity_of(struct device *d)
{
	return READ_ONCE(to_net_dev(d)->napi_affinity);
}

static ssize_t policy_show(struct device *d, struct device_attribute *attr,
			   char *buf)
{
	struct netdev_napi_affinity *na = napi_affinity_of(d);

	if (!na)
		return -ENODEV;
	return irq_spread_policy_list(buf, PAGE_SIZE,
				      irq_spread_dev_policy(na->sd));
}

static ssize_t policy_store(struct device *d, struct device_attribute *attr,
			    const char *buf, size_t count)
{
	struct netdev_napi_affinity *na = napi_affinity_of(d);
	int policy = irq_spread_policy_parse(buf);
	int err;

	if (!na)
		return -ENODEV;
	if (policy < 0)
		return policy;
	err = netdev_napi_affinity_set_policy(na, policy);
	return err ?: count;
}

static DEVICE_ATTR_RW(policy);

static ssize_t cpus_show(struct device *d, struct device_attribute *attr,
			 char *buf)
{
	struct netdev_napi_affinity *na = napi_affinity_of(d);
	cpumask_var_t cpus;
	ssize_t len;

	if (!na)
		return -ENODEV;
	if (!zalloc_cpumask_var(&cpus, GFP_KERNEL))
		return -ENOMEM;
	irq_spread_dev_cpus(na->sd, cpus);
	len = sysfs_emit(buf, "%*pbl\n", cpumask_pr_args(cpus));
	free_cpumask_var(cpus);
	return len;
}

static ssize_t cpus_store(struct device *d, struct device_attribute *attr,
			  const char *buf, size_t count)
{
	struct netdev_napi_affinity *na = napi_affinity_of(d);
	cpumask_var_t cpus;
	int err;

	if (!na)
		return -ENODEV;
	if (!zalloc_cpumask_var(&cpus, GFP_KERNEL))
		return -ENOMEM;
	err = cpulist_parse(buf, cpus);
	if (err || cpumask_empty(cpus))
		err = -EINVAL;
	else
		err = irq_spread_dev_set_cpus(na->sd, cpus);
	free_cpumask_var(cpus);
	return err ?: count;
}

static DEVICE_ATTR_RW(cpus);

static struct attribute *netdev_irq_spread_attrs[] = {
	&dev_attr_policy.attr,
	&dev_attr_cpus.attr,
	NULL,
};

/* Only netdevs whose NAPIs' IRQs net core places have the directory. */
static bool netdev_irq_spread_group_visible(struct kobject *kobj)
{
	return to_net_dev(kobj_to_dev(kobj))->irq_affinity_auto;
}

DEFINE_SIMPLE_SYSFS_GROUP_VISIBLE(netdev_irq_spread);

const struct attribute_group netdev_irq_spread_group = {
	.name		= "irq_spread",
	.attrs		= netdev_irq_spread_attrs,
	.is_visible	= SYSFS_GROUP_VISIBLE(netdev_irq_spread),
};
