/* SPDX-License-Identifier: GPL-2.0 */
/*
 * NAPI IRQ affinity: what net core's own files call (napi_affinity.c).
 */
#ifndef _NET_CORE_NAPI_AFFINITY_H
#define _NET_CORE_NAPI_AFFINITY_H

#include <linux/cpumask.h>
#include <linux/irq_spread.h>
#include <linux/mutex.h>
#include <linux/types.h>
#include <linux/workqueue.h>

struct attribute_group;
struct irq_spread_dev;
struct napi_struct;
struct net_device;
struct sk_buff;

/**
 * struct netdev_napi_affinity - the IRQ placement of a netdev's NAPIs
 * @dev: the netdev
 * @sd: its registration with irq_spread: spread vector k is NAPI index k,
 *	vector @nr + k the TX side of index k (netif_napi_add_tx_config()),
 *	which follows it
 * @nr: number of NAPI indexes, &net_device.napi_config entries
 * @list: in the list of netdevs whose XPS maps net core keeps
 * @lock: protects the NAPIs of the configs, @xps_txq, @xps_off and the
 *	administrator's XPS maps; serialises the XPS updates
 * @xps_work: brings the XPS maps in step with the IRQs
 * @xps_txq: the number of TX queues XPS maps are kept for
 * @rmap_rxq: the number of RX queues in the aRFS reverse map
 * @xps_off: the netdev is going: no XPS map is set any more
 * @xps_admin: the TX queues whose XPS map the administrator wrote
 * @xps_admin_mask: those maps, one per TX queue of the netdev
 * @reserved: for @sd: TX side k follows spread vector k
 */
struct netdev_napi_affinity {
	struct net_device *dev;
	struct irq_spread_dev *sd;
	unsigned int nr;
	struct list_head list;
	struct mutex lock;	/* NAPIs of the configs, XPS state */
	struct work_struct xps_work;
	unsigned int xps_txq;
	unsigned int rmap_rxq;
	bool xps_off;
	unsigned long *xps_admin;
	cpumask_var_t *xps_admin_mask;
	int reserved[] __counted_by(nr);
};

int netdev_napi_config_alloc(struct net_device *dev);
void netdev_napi_affinity_register(struct net_device *dev);
void netdev_napi_affinity_unregister(struct net_device *dev);
void netdev_napi_affinity_free(struct net_device *dev);
void netdev_napi_affinity_queues(struct net_device *dev, unsigned int rxq,
				 unsigned int txq);
void napi_affinity_del(struct napi_struct *napi);
void napi_affinity_thread(struct napi_struct *napi);
int napi_affinity_mask(struct napi_struct *napi, struct cpumask *mask);
bool napi_affinity_admin(struct napi_struct *napi);
void netdev_xps_admin(struct net_device *dev, unsigned int queue,
		      const struct cpumask *mask);
void netdev_xps_partition(struct netdev_napi_affinity *na);
int netdev_napi_affinity_set_policy(struct netdev_napi_affinity *na,
				    enum irq_spread_policy policy);

/* The netdev netlink family's attributes (napi_affinity_genl.c). */
size_t napi_affinity_nl_size(void);
int napi_affinity_nl_dev_fill(struct sk_buff *rsp, struct net_device *netdev);
int napi_affinity_nl_napi_fill(struct sk_buff *rsp, struct napi_struct *napi);

extern const struct attribute_group netdev_irq_spread_group;

#endif /* _NET_CORE_NAPI_AFFINITY_H */
