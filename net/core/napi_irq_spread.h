/* SPDX-License-Identifier: GPL-2.0 */
/*
 * NAPI IRQ affinity from irq_spread: net core's hooks (napi_irq_spread.c).
 * Without CONFIG_IRQ_SPREAD they do nothing, and netif_set_affinity_auto()
 * keeps its cpumask_local_spread() masks.
 */
#ifndef _NET_CORE_NAPI_IRQ_SPREAD_H
#define _NET_CORE_NAPI_IRQ_SPREAD_H

#include <linux/cpumask.h>

struct napi_struct;
struct net_device;

#ifdef CONFIG_IRQ_SPREAD
void netdev_irq_spread_register(struct net_device *dev);
void netdev_irq_spread_queues(struct net_device *dev);
void netdev_irq_spread_unregister(struct net_device *dev);
void napi_irq_spread_attach(struct napi_struct *napi);
void napi_irq_spread_detach(struct napi_struct *napi);
void napi_irq_spread_notify(struct napi_struct *napi, const cpumask_t *mask);
bool napi_irq_spread_placed(const struct napi_struct *napi);
#else
static inline void netdev_irq_spread_register(struct net_device *dev)
{
}

static inline void netdev_irq_spread_queues(struct net_device *dev)
{
}

static inline void netdev_irq_spread_unregister(struct net_device *dev)
{
}

static inline void napi_irq_spread_attach(struct napi_struct *napi)
{
}

static inline void napi_irq_spread_detach(struct napi_struct *napi)
{
}

static inline void napi_irq_spread_notify(struct napi_struct *napi,
					  const cpumask_t *mask)
{
}
#endif

#endif /* _NET_CORE_NAPI_IRQ_SPREAD_H */
