// SPDX-License-Identifier: GPL-2.0
/*
 * NAPI IRQ affinity from irq_spread.
 *
 * A driver that lets net core keep the affinity of its NAPIs' IRQs
 * (netif_set_affinity_auto()) gets each NAPI index's mask,
 * &napi_config.affinity_mask, from irq_spread once the netdev is
 * registered: NAPI index k is spread vector k of the netdev's
 * registration, placed under the netdev's policy near the node of its
 * parent device, with the vectors of every other device counted.  The rest
 * is net core's, as without irq_spread: napi_enable() applies the index's
 * mask to its IRQ, and net core's affinity notifier keeps what user space
 * writes to /proc/irq/N/smp_affinity in the index's config and the aRFS
 * map in step.
 *
 * What irq_spread adds: it places the indexes in use again when the driver
 * changes its number of queues, when a CPU goes offline or comes online,
 * and when the administrator sets the netdev's policy or CPUs (netdev
 * netlink, napi_irq_spread_nl.c); it writes each new mask to the
 * index's config and, for an index whose NAPI has an IRQ, to the IRQ.  An
 * index whose IRQ user space set keeps that mask until a new policy is
 * set or the administrator hands the index back to the policy: net core's
 * notifier passes every notification on to irq_spread, which tells its
 * own masks from the others.
 *
 * Locking: the hooks run with the netdev's instance lock held (NAPI IRQ
 * changes) or the RTNL lock (registration, queue counts), as their callers
 * do; irq_spread takes its own locks inside them and calls
 * napi_irq_spread_apply() and napi_irq_spread_changed() with no lock of
 * net core's held.
 */

#include <linux/cpumask.h>
#include <linux/device.h>
#include <linux/err.h>
#include <linux/interrupt.h>
#include <linux/irq_spread.h>
#include <linux/minmax.h>
#include <linux/netdevice.h>
#include <net/netdev_lock.h>

#include "napi_irq_spread.h"

/*
 * The library moves index @k: the config first, which napi_enable() may
 * apply meanwhile.  A mask the interrupt core refuses stays in the config:
 * napi_enable() then applies it in vain, as the library did.  The IRQ is
 * placed, or given back the user's mask.
 */
static int napi_irq_spread_apply(void *priv, unsigned int k, unsigned int irq,
				 const struct cpumask *mask, bool placed)
{
	struct net_device *dev = priv;

	cpumask_copy(&dev->napi_config[k].affinity_mask, mask);
	/* Without SMP there is nothing to place, and nothing fails. */
	if (!IS_ENABLED(CONFIG_SMP))
		return 0;
	if (placed)
		return irq_set_affinity_placed(irq, mask, 0);
	return irq_set_affinity(irq, mask);
}

/* Index @k has a new mask: its next IRQ gets it at napi_enable(). */
static void napi_irq_spread_changed(void *priv, unsigned int k,
				    const struct cpumask *mask)
{
	struct net_device *dev = priv;

	cpumask_copy(&dev->napi_config[k].affinity_mask, mask);
}

static const struct irq_spread_dev_ops napi_irq_spread_ops = {
	.changed	= napi_irq_spread_changed,
	.apply		= napi_irq_spread_apply,
};

/* The number of NAPI indexes in use: one per queue (pair). */
static unsigned int netdev_irq_spread_active(const struct net_device *dev)
{
	return max(dev->real_num_rx_queues, dev->real_num_tx_queues);
}

/* The configs of the indexes in use take their placement. */
static void netdev_irq_spread_configs(struct net_device *dev)
{
	unsigned int k;

	for (k = 0; k < netdev_irq_spread_active(dev); k++)
		irq_spread_dev_vector_mask(dev->napi_irq_spread, k,
					   &dev->napi_config[k].affinity_mask);
}

/**
 * napi_irq_spread_placed - whether irq_spread places a NAPI's IRQ
 * @napi: the NAPI
 *
 * Context: the netdev's instance lock held.
 * Return: true if @napi's netdev is registered with irq_spread and @napi
 * has an IRQ with net core's affinity notifier.
 */
bool napi_irq_spread_placed(const struct napi_struct *napi)
{
	return napi->dev->napi_irq_spread && napi->config && napi->irq > 0 &&
	       test_bit(NAPI_STATE_HAS_NOTIFIER, &napi->state);
}

/**
 * napi_irq_spread_attach - a NAPI's IRQ got net core's affinity notifier
 * @napi: the NAPI
 *
 * Places the IRQ at its index's mask and counts it in the load.
 *
 * Context: the netdev's instance lock held, or the netdev not registered.
 */
void napi_irq_spread_attach(struct napi_struct *napi)
{
	int err;

	if (!napi_irq_spread_placed(napi))
		return;
	err = irq_spread_dev_attach(napi->dev->napi_irq_spread, napi->index,
				    napi->irq);
	if (err)
		netdev_warn(napi->dev, "IRQ %d of NAPI index %d not placed: %d\n",
			    napi->irq, napi->index, err);
}

/**
 * napi_irq_spread_detach - a NAPI's IRQ is about to lose net core's notifier
 * @napi: the NAPI
 *
 * Context: the netdev's instance lock held, or the netdev not registered.
 */
void napi_irq_spread_detach(struct napi_struct *napi)
{
	if (napi_irq_spread_placed(napi))
		irq_spread_dev_detach(napi->dev->napi_irq_spread, napi->index);
}

/**
 * napi_irq_spread_notify - net core's affinity notifier was called
 * @napi: the NAPI
 * @mask: the IRQ's new affinity
 *
 * Context: process context, from the notifier's work.
 */
void napi_irq_spread_notify(struct napi_struct *napi, const cpumask_t *mask)
{
	struct irq_spread_dev *sd = READ_ONCE(napi->dev->napi_irq_spread);

	if (sd && napi->config)
		irq_spread_dev_notify(sd, napi->index, mask);
}

/**
 * netdev_irq_spread_register - a netdev was registered
 * @dev: the netdev, its device added
 *
 * For a netdev with netif_set_affinity_auto(): registers it with irq_spread
 * and gives the configs of the indexes in use their placement, and the IRQs
 * of the NAPIs that have one already.  On failure the netdev keeps
 * netif_set_affinity_auto()'s spread, and says so.
 *
 * Context: the RTNL lock held.
 */
void netdev_irq_spread_register(struct net_device *dev)
{
	struct irq_spread_dev_info info = {
		.dev		= &dev->dev,
		.node		= dev_to_node(&dev->dev),
		.nr_vectors	= dev->num_napi_configs,
		.policy		= IRQ_SPREAD_NUMA,
		.ops		= &napi_irq_spread_ops,
		.priv		= dev,
		.flags		= IRQ_SPREAD_DEV_NO_CLASS,
	};
	struct irq_spread_dev *sd;
	struct napi_struct *napi;
	int err;

	if (!dev->irq_affinity_auto)
		return;
	sd = irq_spread_dev_register(&info);
	if (IS_ERR(sd)) {
		netdev_warn(dev, "IRQs of the NAPIs not placed by irq_spread: %pe\n",
			    sd);
		return;
	}
	err = irq_spread_dev_set_vectors(sd, netdev_irq_spread_active(dev));
	if (err)
		netdev_warn(dev, "IRQ placement of %u queues: %d\n",
			    netdev_irq_spread_active(dev), err);

	netdev_lock(dev);
	WRITE_ONCE(dev->napi_irq_spread, sd);
	netdev_irq_spread_configs(dev);
	list_for_each_entry(napi, &dev->napi_list, dev_list)
		napi_irq_spread_attach(napi);
	netdev_unlock(dev);
}

/**
 * netdev_irq_spread_queues - a registered netdev changed its queue counts
 * @dev: the netdev
 *
 * Places the indexes now in use afresh.
 *
 * Context: the netdev's instance lock or the RTNL lock held, as
 * netif_set_real_num_rx_queues() and netif_set_real_num_tx_queues() have.
 */
void netdev_irq_spread_queues(struct net_device *dev)
{
	int err;

	if (!dev->napi_irq_spread)
		return;
	err = irq_spread_dev_set_vectors(dev->napi_irq_spread,
					 netdev_irq_spread_active(dev));
	if (err)
		netdev_warn(dev, "IRQ placement of %u queues: %d\n",
			    netdev_irq_spread_active(dev), err);
	netdev_irq_spread_configs(dev);
}

/**
 * netdev_irq_spread_unregister - a netdev's NAPIs are all gone
 * @dev: the netdev, being freed
 *
 * Context: process context, may sleep.
 */
void netdev_irq_spread_unregister(struct net_device *dev)
{
	irq_spread_dev_unregister(dev->napi_irq_spread);
	dev->napi_irq_spread = NULL;
}
