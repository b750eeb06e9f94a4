// SPDX-License-Identifier: GPL-2.0
/*
 * The netdev netlink family's view of irq_spread: the IRQ policy and CPUs
 * of a netdev whose NAPIs' IRQs irq_spread places (dev-get, dev-set), and
 * per NAPI whether its IRQ's mask is the policy's or the user's (napi-get,
 * napi-set).  Documentation/netlink/specs/netdev.yaml describes the
 * attributes.
 *
 * Locking: every call here runs with the netdev's instance lock held, as
 * netdev-genl.c's handlers take it; irq_spread takes its own locks inside.
 */

#include <linux/bitmap.h>
#include <linux/cpumask.h>
#include <linux/irq_spread.h>
#include <linux/netdevice.h>
#include <net/genetlink.h>
#include <net/netdev_lock.h>
#include <net/netlink.h>
#include <uapi/linux/netdev.h>

#include <kunit/visibility.h>

#include "napi_irq_spread.h"
#include "napi_irq_spread_nl.h"

static_assert((int)NETDEV_IRQ_POLICY_NUMA == (int)IRQ_SPREAD_NUMA);
static_assert((int)NETDEV_IRQ_POLICY_NUMA_CORE == (int)IRQ_SPREAD_NUMA_CORE);
static_assert((int)NETDEV_IRQ_POLICY_CORE == (int)IRQ_SPREAD_CORE);

/* The u32 words of a bitmap of @nbits bits. */
#define NETDEV_IRQ_CPUS_WORDS(nbits)	DIV_ROUND_UP(nbits, 32)

static int netdev_irq_spread_put_cpus(struct sk_buff *rsp,
				      struct irq_spread_dev *sd)
{
	unsigned int words = NETDEV_IRQ_CPUS_WORDS(nr_cpu_ids);
	cpumask_var_t cpus;
	struct nlattr *attr;
	int err = 0;

	if (!zalloc_cpumask_var(&cpus, GFP_KERNEL))
		return -ENOMEM;
	irq_spread_dev_cpus(sd, cpus);
	attr = nla_reserve(rsp, NETDEV_A_DEV_IRQ_CPUS, words * sizeof(u32));
	if (attr)
		bitmap_to_arr32(nla_data(attr), cpumask_bits(cpus), nr_cpu_ids);
	else
		err = -EMSGSIZE;
	free_cpumask_var(cpus);
	return err;
}

/**
 * netdev_irq_spread_fill - put a netdev's IRQ policy and CPUs in a message
 * @rsp: the message
 * @dev: the netdev
 *
 * Nothing for a netdev whose NAPIs' IRQs irq_spread does not place.
 *
 * Context: process context, the netdev's instance lock held.
 * Return: 0, -EMSGSIZE or -ENOMEM.
 */
int netdev_irq_spread_fill(struct sk_buff *rsp, struct net_device *dev)
{
	struct irq_spread_dev *sd = dev->napi_irq_spread;

	netdev_assert_locked(dev);
	if (!sd)
		return 0;
	if (nla_put_u32(rsp, NETDEV_A_DEV_IRQ_POLICY, irq_spread_dev_policy(sd)))
		return -EMSGSIZE;
	return netdev_irq_spread_put_cpus(rsp, sd);
}
EXPORT_SYMBOL_IF_KUNIT(netdev_irq_spread_fill);

/*
 * Read the bitmap of @attr into @cpus: u32 words, bit i of word w CPU
 * 32 * w + i, as long as the sender likes, every CPU it names below
 * nr_cpu_ids, at least one of them.
 */
static int netdev_irq_spread_get_cpus(const struct nlattr *attr,
				      struct cpumask *cpus,
				      struct netlink_ext_ack *extack)
{
	unsigned int words = nla_len(attr) / sizeof(u32), w;
	const u32 *arr = nla_data(attr);
	u32 high;

	if (nla_len(attr) % sizeof(u32)) {
		NL_SET_ERR_MSG_ATTR(extack, attr,
				    "irq-cpus is a bitmap of u32 words");
		return -EINVAL;
	}
	/* The bits at or above nr_cpu_ids: part of one word, then whole words. */
	for (w = nr_cpu_ids / 32; w < words; w++) {
		high = w == nr_cpu_ids / 32 ? GENMASK(31, nr_cpu_ids % 32) :
					      U32_MAX;
		if (arr[w] & high) {
			NL_SET_ERR_MSG_ATTR_FMT(extack, attr,
						"irq-cpus names a CPU at or above %u, the number of CPU ids",
						nr_cpu_ids);
			return -EINVAL;
		}
	}
	cpumask_clear(cpus);
	bitmap_from_arr32(cpumask_bits(cpus), arr, min(words * 32, nr_cpu_ids));
	if (cpumask_empty(cpus)) {
		NL_SET_ERR_MSG_ATTR(extack, attr, "irq-cpus names no CPU");
		return -EINVAL;
	}
	return 0;
}

/* irq_spread_dev_set() of @policy and the CPUs of @attr. */
static int netdev_irq_spread_set_cpus(struct irq_spread_dev *sd,
				      enum irq_spread_policy policy,
				      const struct nlattr *attr,
				      struct netlink_ext_ack *extack)
{
	cpumask_var_t cpus;
	int ret;

	if (!zalloc_cpumask_var(&cpus, GFP_KERNEL))
		return -ENOMEM;
	ret = netdev_irq_spread_get_cpus(attr, cpus, extack);
	if (ret)
		goto out;
	ret = irq_spread_dev_set(sd, policy, cpus);
	if (ret == -EINVAL)
		NL_SET_ERR_MSG_ATTR(extack, attr,
				    "no CPU of irq-cpus can take an interrupt now");
out:
	free_cpumask_var(cpus);
	return ret;
}

/**
 * netdev_irq_spread_set - set a netdev's IRQ policy and CPUs from dev-set
 * @dev: the netdev
 * @info: the request: %NETDEV_A_DEV_IRQ_POLICY, %NETDEV_A_DEV_IRQ_CPUS or
 *	both, which take effect together or not at all
 * @changed: set to true if the netdev's policy or CPUs changed
 *
 * Asking for the policy and CPUs the netdev has changes nothing (but
 * places the queues in use if the interrupt core refused the driver's
 * last change of their number), and @changed stays false.
 *
 * Context: process context, the netdev's instance lock held.
 * Return: 0; -EINVAL for a request without either attribute or with a bad
 * CPU bitmap, or CPUs none of which can take an interrupt now;
 * -EOPNOTSUPP for a netdev whose IRQs irq_spread does not place; -ENOMEM;
 * or the interrupt core's error for an IRQ it refused to move.  On error
 * nothing changed; @info's extack says why.
 */
int netdev_irq_spread_set(struct net_device *dev, const struct genl_info *info,
			  bool *changed)
{
	struct nlattr *policy_attr = info->attrs[NETDEV_A_DEV_IRQ_POLICY];
	struct nlattr *cpus_attr = info->attrs[NETDEV_A_DEV_IRQ_CPUS];
	enum irq_spread_policy policy = IRQ_SPREAD_KEEP_POLICY;
	struct irq_spread_dev *sd = dev->napi_irq_spread;
	int ret;

	netdev_assert_locked(dev);
	*changed = false;
	if (!policy_attr && !cpus_attr) {
		NL_SET_ERR_MSG(info->extack, "no irq-policy or irq-cpus to set");
		return -EINVAL;
	}
	if (!sd) {
		NL_SET_ERR_MSG(info->extack,
			       "the netdev's IRQs are not placed by irq_spread");
		return -EOPNOTSUPP;
	}
	if (policy_attr)
		policy = nla_get_u32(policy_attr);
	if (cpus_attr)
		ret = netdev_irq_spread_set_cpus(sd, policy, cpus_attr,
						 info->extack);
	else
		ret = irq_spread_dev_set(sd, policy, NULL);
	if (ret < 0 && ret != -EINVAL && ret != -ENOMEM)
		NL_SET_ERR_MSG(info->extack,
			       "an IRQ could not be moved, nothing changed");
	*changed = ret > 0;
	return min(ret, 0);
}

/**
 * napi_irq_spread_fill - put where a NAPI's IRQ mask comes from in a message
 * @rsp: the message
 * @napi: the NAPI
 *
 * %NETDEV_IRQ_AFFINITY_SOURCE_USER if user space set the IRQ's affinity
 * (/proc/irq/N/smp_affinity), %NETDEV_IRQ_AFFINITY_SOURCE_POLICY if the
 * netdev's policy placed it; nothing for a NAPI whose IRQ irq_spread does
 * not place.
 *
 * Context: process context, the netdev's instance lock held.
 * Return: 0 or -EMSGSIZE.
 */
int napi_irq_spread_fill(struct sk_buff *rsp, struct napi_struct *napi)
{
	u32 source = NETDEV_IRQ_AFFINITY_SOURCE_POLICY;

	if (!napi_irq_spread_placed(napi))
		return 0;
	if (irq_spread_dev_vector_admin(napi->dev->napi_irq_spread,
					napi->index))
		source = NETDEV_IRQ_AFFINITY_SOURCE_USER;
	return nla_put_u32(rsp, NETDEV_A_NAPI_IRQ_AFFINITY_SOURCE, source);
}
EXPORT_SYMBOL_IF_KUNIT(napi_irq_spread_fill);

/**
 * napi_irq_spread_set - hand a NAPI's IRQ back to the policy from napi-set
 * @napi: the NAPI
 * @info: the request; %NETDEV_A_NAPI_IRQ_AFFINITY_SOURCE, if present, must
 *	be %NETDEV_IRQ_AFFINITY_SOURCE_POLICY
 *
 * An IRQ whose affinity user space set goes where the netdev's policy
 * places it, and follows the policy from now on; the IRQ of a NAPI whose
 * mask is the policy's already stays as it is.
 *
 * Context: process context, the netdev's instance lock held.
 * Return: 0; -EINVAL for %NETDEV_IRQ_AFFINITY_SOURCE_USER (an IRQ becomes
 * the user's by a write of its smp_affinity); -EOPNOTSUPP for a NAPI whose
 * IRQ irq_spread does not place; -ENOMEM; or the interrupt core's error if
 * it refused the move.  On error nothing changed.
 */
int napi_irq_spread_set(struct napi_struct *napi, const struct genl_info *info)
{
	struct nlattr *attr = info->attrs[NETDEV_A_NAPI_IRQ_AFFINITY_SOURCE];
	int err;

	if (!attr)
		return 0;
	if (!napi_irq_spread_placed(napi)) {
		NL_SET_ERR_MSG_ATTR(info->extack, attr,
				    "the NAPI's IRQ is not placed by irq_spread");
		return -EOPNOTSUPP;
	}
	if (nla_get_u32(attr) != NETDEV_IRQ_AFFINITY_SOURCE_POLICY) {
		NL_SET_ERR_MSG_ATTR(info->extack, attr,
				    "an IRQ becomes the user's by a write of /proc/irq/N/smp_affinity");
		return -EINVAL;
	}
	err = irq_spread_dev_vector_to_policy(napi->dev->napi_irq_spread,
					      napi->index);
	if (err)
		NL_SET_ERR_MSG_ATTR(info->extack, attr,
				    "the IRQ could not be moved, nothing changed");
	return err;
}
