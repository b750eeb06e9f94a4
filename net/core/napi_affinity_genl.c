// SPDX-License-Identifier: GPL-2.0
/*
 * NAPI IRQ affinity in the netdev netlink family: a netdev's irq-policy and
 * irq-cpus in dev-get and dev-set, a NAPI's irq-affinity and irq-admin in
 * napi-get (Documentation/netlink/specs/netdev.yaml).
 *
 * The attributes exist only where net core places the IRQs of the NAPIs
 * (net/core/napi_affinity.c): a netdev with &net_device.napi_affinity, and
 * those of its NAPIs whose IRQ is attached to their index's vector.  The
 * values are the ones /sys/class/net/<dev>/irq_spread/{policy,cpus} and
 * /proc/irq/N/smp_affinity_list show, and dev-set writes them as those
 * sysfs files do.
 *
 * CPUs are one u32 attribute per CPU number (multi-attr), the netlink way
 * of a list of numbers: no string to parse in the kernel, and YNL renders
 * them as a list of numbers ("irq-cpus": [8, 9, 10, 11]).  A reply may hold
 * nr_cpu_ids of them: napi_affinity_nl_size() is the room it needs.
 *
 * Locking: every caller holds the RTNL lock, which keeps the netdev and its
 * placement and serialises dev-set requests; the placement's own locks
 * (&netdev_napi_affinity.lock, the library's) nest inside it.
 */

#include <linux/build_bug.h>
#include <linux/cpumask.h>
#include <linux/irq_spread.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <net/genetlink.h>
#include <net/netlink.h>

#include "napi_affinity.h"
#include "netdev-genl-gen.h"

static_assert(NETDEV_IRQ_POLICY_NUMA == (int)IRQ_SPREAD_NUMA);
static_assert(NETDEV_IRQ_POLICY_NUMA_CORE == (int)IRQ_SPREAD_NUMA_CORE);
static_assert(NETDEV_IRQ_POLICY_CORE == (int)IRQ_SPREAD_CORE);
static_assert(NETDEV_IRQ_POLICY_CORE + 1 == (int)IRQ_SPREAD_NR_POLICIES);

/**
 * napi_affinity_nl_size - room for the IRQ placement in a netlink reply
 *
 * Return: the most the attributes of napi_affinity_nl_dev_fill() or of
 * napi_affinity_nl_napi_fill() take in one message: a CPU list of every
 * CPU and one more attribute.
 */
size_t napi_affinity_nl_size(void)
{
	return nla_total_size(sizeof(u32)) * (nr_cpu_ids + 1);
}

/*
 * One @type attribute per CPU of @cpus below nr_cpu_ids, ascending, as
 * "%*pbl" with cpumask_pr_args() lists them: a mask may have bits set up
 * to NR_CPUS.
 */
static int napi_affinity_nl_put_cpus(struct sk_buff *rsp, int type,
				     const struct cpumask *cpus)
{
	unsigned int cpu;

	for_each_cpu(cpu, cpus) {
		if (cpu >= nr_cpu_ids)
			break;
		if (nla_put_u32(rsp, type, cpu))
			return -EMSGSIZE;
	}
	return 0;
}

/**
 * napi_affinity_nl_dev_fill - a netdev's IRQ placement in a dev message
 * @rsp: the message being filled
 * @netdev: the netdev
 *
 * Puts irq-policy and irq-cpus for a netdev whose NAPIs' IRQs net core
 * places; nothing for another.
 *
 * Context: process context, may sleep; the RTNL lock held.
 * Return: 0, -EMSGSIZE or -ENOMEM.
 */
int napi_affinity_nl_dev_fill(struct sk_buff *rsp, struct net_device *netdev)
{
	struct netdev_napi_affinity *na = netdev->napi_affinity;
	cpumask_var_t cpus;
	int err;

	ASSERT_RTNL();
	if (!na)
		return 0;
	if (!zalloc_cpumask_var(&cpus, GFP_KERNEL))
		return -ENOMEM;
	irq_spread_dev_cpus(na->sd, cpus);
	err = nla_put_u32(rsp, NETDEV_A_DEV_IRQ_POLICY,
			  irq_spread_dev_policy(na->sd));
	if (!err)
		err = napi_affinity_nl_put_cpus(rsp, NETDEV_A_DEV_IRQ_CPUS, cpus);
	free_cpumask_var(cpus);
	return err;
}

/**
 * napi_affinity_nl_napi_fill - a NAPI's IRQ placement in a napi message
 * @rsp: the message being filled
 * @napi: the NAPI
 *
 * Puts irq-affinity (napi_affinity_mask()) and, if the administrator wrote
 * the IRQ's affinity, irq-admin for a NAPI whose IRQ net core places;
 * nothing for another.
 *
 * Context: process context, may sleep (not in an RCU read-side section);
 * the RTNL lock held.
 * Return: 0, -EMSGSIZE or -ENOMEM.
 */
int napi_affinity_nl_napi_fill(struct sk_buff *rsp, struct napi_struct *napi)
{
	cpumask_var_t mask;
	int err = 0;

	ASSERT_RTNL();
	if (!napi->dev->napi_affinity)
		return 0;
	if (!zalloc_cpumask_var(&mask, GFP_KERNEL))
		return -ENOMEM;
	/* -ENODATA: net core does not place this NAPI's IRQ. */
	if (!napi_affinity_mask(napi, mask)) {
		err = napi_affinity_nl_put_cpus(rsp, NETDEV_A_NAPI_IRQ_AFFINITY,
						mask);
		if (!err && napi_affinity_admin(napi))
			err = nla_put_flag(rsp, NETDEV_A_NAPI_IRQ_ADMIN);
	}
	free_cpumask_var(mask);
	return err;
}

/*
 * The CPUs of the request's irq-cpus attributes into @cpus; the first of
 * them into @first, NULL if there is none.
 */
static int napi_affinity_nl_parse_cpus(struct genl_info *info,
				       struct cpumask *cpus,
				       const struct nlattr **first)
{
	const struct nlattr *attr;
	int rem;
	u32 cpu;

	*first = NULL;
	nla_for_each_attr_type(attr, NETDEV_A_DEV_IRQ_CPUS,
			       genlmsg_data(info->genlhdr),
			       genlmsg_len(info->genlhdr), rem) {
		cpu = nla_get_u32(attr);
		if (cpu >= nr_cpu_ids) {
			NL_SET_ERR_MSG_ATTR_FMT(info->extack, attr,
						"no CPU %u: CPUs are 0 to %u",
						cpu, nr_cpu_ids - 1);
			return -EINVAL;
		}
		cpumask_set_cpu(cpu, cpus);
		if (!*first)
			*first = attr;
	}
	return 0;
}

/*
 * Set the CPUs, then the policy; should the policy fail, set the CPUs
 * back.  In that order because a policy write cannot be undone: it hands
 * the administrator's IRQ masks and XPS maps back to the policy.  Each
 * write that fails changes nothing by itself.
 */
static int napi_affinity_nl_set(struct netdev_napi_affinity *na,
				const struct nlattr *policy_attr,
				const struct nlattr *cpus_attr,
				const struct cpumask *cpus,
				struct cpumask *old,
				struct netlink_ext_ack *extack)
{
	int err;

	if (cpus_attr) {
		irq_spread_dev_cpus(na->sd, old);
		err = irq_spread_dev_set_cpus(na->sd, cpus);
		if (err == -EINVAL) {
			NL_SET_ERR_MSG_ATTR(extack, cpus_attr,
					    "none of the CPUs can take an interrupt now (online, housekeeping, in the default IRQ affinity)");
			return err;
		}
		if (err) {
			NL_SET_ERR_MSG_ATTR(extack, cpus_attr,
					    "the IRQs could not be placed on these CPUs");
			return err;
		}
	}
	if (!policy_attr)
		return 0;
	err = netdev_napi_affinity_set_policy(na, nla_get_u32(policy_attr));
	if (!err)
		return 0;
	NL_SET_ERR_MSG_ATTR(extack, policy_attr,
			    "the IRQs could not be placed under this policy");
	if (cpus_attr && irq_spread_dev_set_cpus(na->sd, old)) {
		netdev_warn(na->dev, "IRQ CPUs not set back to %*pbl\n",
			    cpumask_pr_args(old));
		NL_SET_ERR_MSG_ATTR(extack, policy_attr,
				    "the IRQs could not be placed under this policy, and the CPUs could not be set back");
	}
	return err;
}

/**
 * netdev_nl_dev_set_doit - the netdev family's dev-set
 * @skb: the request
 * @info: its attributes: ifindex, irq-policy and/or irq-cpus
 *
 * Sets the CPUs a netdev's NAPI IRQs may use and its policy, as writes of
 * /sys/class/net/<dev>/irq_spread/cpus and then policy do, both or
 * neither: a policy that fails after the CPUs were set sets them back.
 *
 * Context: process context; takes the RTNL lock.
 * Return: 0; -EINVAL for a request with neither attribute, a CPU that does
 * not exist, or CPUs none of which can take an interrupt now; -ENODEV for
 * no such netdev; -EOPNOTSUPP for a netdev whose NAPIs' IRQs net core does
 * not place; -ENOMEM; or the interrupt core's error for an IRQ it refused
 * to move.  The netlink policy refuses an unknown irq-policy (-ERANGE).
 * An error message says which attribute and why.
 */
int netdev_nl_dev_set_doit(struct sk_buff *skb, struct genl_info *info)
{
	const struct nlattr *policy_attr = info->attrs[NETDEV_A_DEV_IRQ_POLICY];
	const struct nlattr *ifindex_attr, *cpus_attr;
	struct net_device *netdev;
	cpumask_var_t cpus, old;
	int err;

	if (GENL_REQ_ATTR_CHECK(info, NETDEV_A_DEV_IFINDEX))
		return -EINVAL;
	ifindex_attr = info->attrs[NETDEV_A_DEV_IFINDEX];
	if (!zalloc_cpumask_var(&cpus, GFP_KERNEL))
		return -ENOMEM;
	if (!zalloc_cpumask_var(&old, GFP_KERNEL)) {
		err = -ENOMEM;
		goto free_cpus;
	}
	err = napi_affinity_nl_parse_cpus(info, cpus, &cpus_attr);
	if (err)
		goto free_old;
	if (!policy_attr && !cpus_attr) {
		NL_SET_ERR_MSG(info->extack,
			       "nothing to set: no irq-policy and no irq-cpus (an empty CPU list sends none)");
		err = -EINVAL;
		goto free_old;
	}

	rtnl_lock();
	netdev = __dev_get_by_index(genl_info_net(info),
				    nla_get_u32(ifindex_attr));
	if (!netdev) {
		NL_SET_ERR_MSG_ATTR(info->extack, ifindex_attr, "no such netdev");
		err = -ENODEV;
	} else if (!netdev->napi_affinity) {
		NL_SET_ERR_MSG_ATTR(info->extack, ifindex_attr,
				    "net core does not place the IRQs of this netdev's NAPIs");
		err = -EOPNOTSUPP;
	} else {
		err = napi_affinity_nl_set(netdev->napi_affinity, policy_attr,
					   cpus_attr, cpus, old, info->extack);
	}
	rtnl_unlock();

free_old:
	free_cpumask_var(old);
free_cpus:
	free_cpumask_var(cpus);
	return err;
}
