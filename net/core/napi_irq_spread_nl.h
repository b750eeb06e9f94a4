/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The netdev netlink family's view of irq_spread (napi_irq_spread_nl.c).
 * Without CONFIG_IRQ_SPREAD a netdev has no IRQ policy: nothing is
 * reported, and setting one fails.
 */
#ifndef _NET_CORE_NAPI_IRQ_SPREAD_NL_H
#define _NET_CORE_NAPI_IRQ_SPREAD_NL_H

#include <linux/errno.h>
#include <linux/types.h>
#include <net/genetlink.h>
#include <uapi/linux/netdev.h>

struct napi_struct;
struct net_device;
struct sk_buff;

#ifdef CONFIG_IRQ_SPREAD
int netdev_irq_spread_fill(struct sk_buff *rsp, struct net_device *dev);
int netdev_irq_spread_set(struct net_device *dev, const struct genl_info *info,
			  bool *changed);
int napi_irq_spread_fill(struct sk_buff *rsp, struct napi_struct *napi);
int napi_irq_spread_set(struct napi_struct *napi, const struct genl_info *info);
#else
static inline int netdev_irq_spread_fill(struct sk_buff *rsp,
					 struct net_device *dev)
{
	return 0;
}

static inline int netdev_irq_spread_set(struct net_device *dev,
					const struct genl_info *info,
					bool *changed)
{
	*changed = false;
	NL_SET_ERR_MSG(info->extack, "the kernel has no irq_spread");
	return -EOPNOTSUPP;
}

static inline int napi_irq_spread_fill(struct sk_buff *rsp,
				       struct napi_struct *napi)
{
	return 0;
}

static inline int napi_irq_spread_set(struct napi_struct *napi,
				      const struct genl_info *info)
{
	if (!info->attrs[NETDEV_A_NAPI_IRQ_AFFINITY_SOURCE])
		return 0;
	NL_SET_ERR_MSG(info->extack, "the kernel has no irq_spread");
	return -EOPNOTSUPP;
}
#endif

#endif /* _NET_CORE_NAPI_IRQ_SPREAD_NL_H */
