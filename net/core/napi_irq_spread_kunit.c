// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of net core's NAPI IRQ affinity (netif_set_affinity_auto())
 * on a registered netdev whose parent device is on a node of its own: the
 * masks irq_spread gives, and those net core keeps where irq_spread does
 * not place the netdev (its registration failed): near the parent's node,
 * and the mask CPU hotplug falls back to never stored as the user's.
 *
 * The parent is on node 2 if it has CPUs, else on the last node with CPUs:
 * on the guest of make check (4 nodes of 4 CPUs), node 2, CPUs 8-11,
 * where 7.3 put the 4 queues on CPUs 0-3, node 0.
 */

#include <kunit/device.h>
#include <kunit/static_stub.h>
#include <kunit/test.h>
#include <linux/cpu.h>
#include <linux/cpumask.h>
#include <linux/err.h>
#include <linux/etherdevice.h>
#include <linux/irqdomain.h>
#include <linux/irq_sim.h>
#include <linux/irq_spread.h>
#include <linux/module.h>
#include <linux/netdevice.h>
#include <linux/nodemask.h>
#include <linux/skbuff.h>
#include <linux/topology.h>
#include <net/netdev_lock.h>
#include <net/netlink.h>

#include "napi_irq_spread_nl.h"

MODULE_IMPORT_NS("EXPORTED_FOR_KUNIT_TESTING");

#define NAPI_TEST_QUEUES	4

struct napi_test {
	struct net_device *dev;
	struct napi_struct napi;
	struct irq_domain *domain;
	int irq;
	int node;
	bool registered;
};

static const struct net_device_ops napi_test_ops = {};

/* irq_spread refusing the netdev, as on an allocation failure. */
static struct irq_spread_dev *
napi_test_register_fails(const struct irq_spread_dev_info *info)
{
	return ERR_PTR(-ENOMEM);
}

/* Node 2, where make demo puts its NIC, else the last node with CPUs. */
static int napi_test_node(void)
{
	int node, last = 0;

	if (node_state(2, N_CPU))
		return 2;
	for_each_node_with_cpus(node)
		last = node;
	return last;
}

static int napi_test_init(struct kunit *test)
{
	struct napi_test *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	struct device *parent;

	KUNIT_ASSERT_NOT_NULL(test, t);
	test->priv = t;
	t->node = napi_test_node();
	KUNIT_ASSERT_GE_MSG(test, cpumask_weight(cpumask_of_node(t->node)),
			    NAPI_TEST_QUEUES, "node %d has too few CPUs for the test",
			    t->node);
	parent = kunit_device_register(test, "irq_spread_napi");
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, parent);
	set_dev_node(parent, t->node);

	/* As a driver's probe: the netdev's node reads 0 until registration. */
	t->dev = alloc_netdev_mqs(0, "irqsp%d", NET_NAME_ENUM, ether_setup,
				  NAPI_TEST_QUEUES, NAPI_TEST_QUEUES);
	KUNIT_ASSERT_NOT_NULL(test, t->dev);
	t->dev->netdev_ops = &napi_test_ops;
	SET_NETDEV_DEV(t->dev, parent);
	netif_set_affinity_auto(t->dev);
	return 0;
}

static void napi_test_exit(struct kunit *test)
{
	struct napi_test *t = test->priv;

	if (!t || !t->dev)
		return;
	if (t->napi.dev)
		netif_napi_del(&t->napi);
	if (t->registered)
		unregister_netdev(t->dev);
	free_netdev(t->dev);
	if (t->irq > 0)
		irq_dispose_mapping(t->irq);
	if (!IS_ERR_OR_NULL(t->domain))
		irq_domain_remove_sim(t->domain);
}

static void napi_test_register(struct kunit *test)
{
	struct napi_test *t = test->priv;

	KUNIT_ASSERT_EQ(test, register_netdev(t->dev), 0);
	t->registered = true;
}

/* Each index's mask is one CPU of the parent's node, none twice. */
static void napi_test_expect_near(struct kunit *test)
{
	struct napi_test *t = test->priv;
	const struct cpumask *mask, *before;
	unsigned int i, j;

	for (i = 0; i < NAPI_TEST_QUEUES; i++) {
		mask = &t->dev->napi_config[i].affinity_mask;
		KUNIT_EXPECT_EQ_MSG(test, cpumask_weight(mask), 1,
				    "index %u: %*pbl", i, cpumask_pr_args(mask));
		KUNIT_EXPECT_TRUE_MSG(test,
				      cpumask_subset(mask, cpumask_of_node(t->node)),
				      "index %u: %*pbl, not on node %d", i,
				      cpumask_pr_args(mask), t->node);
		for (j = 0; j < i; j++) {
			before = &t->dev->napi_config[j].affinity_mask;
			KUNIT_EXPECT_FALSE_MSG(test, cpumask_equal(mask, before),
					       "indexes %u and %u", j, i);
		}
	}
}

/* With irq_spread: its placement, near the parent's node. */
static void irq_spread_test_napi_placed(struct kunit *test)
{
	struct napi_test *t = test->priv;

	napi_test_register(test);
	KUNIT_EXPECT_NOT_NULL(test, t->dev->napi_irq_spread);
	napi_test_expect_near(test);
}

/* Without it, net core's own spread: near the parent's node too. */
static void irq_spread_test_napi_fallback_node(struct kunit *test)
{
	struct napi_test *t = test->priv;

	kunit_activate_static_stub(test, irq_spread_dev_register,
				   napi_test_register_fails);
	napi_test_register(test);
	KUNIT_EXPECT_NULL(test, t->dev->napi_irq_spread);
	napi_test_expect_near(test);
}

static int napi_test_poll(struct napi_struct *napi, int budget)
{
	return 0;
}

/* A NAPI of index 0 with an interrupt, before registration. */
static void napi_test_add_irq(struct kunit *test)
{
	struct napi_test *t = test->priv;

	t->domain = irq_domain_create_sim(NULL, 1);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, t->domain);
	t->irq = irq_create_mapping(t->domain, 0);
	KUNIT_ASSERT_GT(test, t->irq, 0);
	netif_napi_add_config(t->dev, &t->napi, napi_test_poll, 0);
	netif_napi_set_irq(&t->napi, t->irq);
	KUNIT_ASSERT_TRUE(test, test_bit(NAPI_STATE_HAS_NOTIFIER,
					 &t->napi.state));
}

/*
 * netdev netlink's fills of a placed netdev and NAPI into a message
 * without room: -EMSGSIZE, nothing put; with room for the policy alone,
 * the netdev's fails on its CPUs (the caller cancels the message).
 */
static void irq_spread_test_napi_fill_no_room(struct kunit *test)
{
	struct napi_test *t = test->priv;
	struct sk_buff *skb;
	unsigned int len;

	napi_test_add_irq(test);
	napi_test_register(test);
	KUNIT_ASSERT_NOT_NULL(test, t->dev->napi_irq_spread);
	skb = alloc_skb(NLMSG_GOODSIZE, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, skb);
	skb_put(skb, skb_tailroom(skb));
	len = skb->len;

	netdev_lock(t->dev);
	KUNIT_EXPECT_EQ(test, netdev_irq_spread_fill(skb, t->dev), -EMSGSIZE);
	KUNIT_EXPECT_EQ(test, napi_irq_spread_fill(skb, &t->napi), -EMSGSIZE);
	KUNIT_EXPECT_EQ(test, skb->len, len);
	skb_trim(skb, len - nla_total_size(sizeof(u32)));
	KUNIT_EXPECT_EQ(test, netdev_irq_spread_fill(skb, t->dev), -EMSGSIZE);
	KUNIT_EXPECT_EQ(test, skb->len, len);
	netdev_unlock(t->dev);
	kfree_skb(skb);
}

#ifdef CONFIG_HOTPLUG_CPU

/*
 * Without irq_spread, the interrupt core's notification that CPU hotplug
 * broke index 0's affinity (its CPU went offline; the interrupt fell back
 * to every online CPU, and the notification's reason is CPU hotplug)
 * leaves the stored mask alone, and the CPU's return finds it; a user's
 * write is stored.
 */
static void irq_spread_test_napi_hotplug_fallback(struct kunit *test)
{
	struct cpumask *stored;
	struct napi_test *t = test->priv;
	unsigned int cpu, other;

	kunit_activate_static_stub(test, irq_spread_dev_register,
				   napi_test_register_fails);
	napi_test_add_irq(test);
	napi_test_register(test);

	stored = &t->dev->napi_config[0].affinity_mask;
	cpu = cpumask_first(stored);
	other = cpumask_first(&t->dev->napi_config[1].affinity_mask);
	KUNIT_ASSERT_NE(test, cpu, 0);
	KUNIT_ASSERT_EQ(test, remove_cpu(cpu), 0);
	/* What the interrupt core notifies when hotplug breaks the mask. */
	t->napi.notify.reasons = BIT(IRQ_AFFINITY_HOTPLUG);
	t->napi.notify.notify(&t->napi.notify, cpu_online_mask);
	KUNIT_EXPECT_TRUE_MSG(test, cpumask_equal(stored, cpumask_of(cpu)),
			      "stored %*pbl, CPU %u offline",
			      cpumask_pr_args(stored), cpu);
	KUNIT_ASSERT_EQ(test, add_cpu(cpu), 0);
	KUNIT_EXPECT_TRUE(test, cpumask_equal(stored, cpumask_of(cpu)));

	/* And after a write of the user's. */
	t->napi.notify.reasons = BIT(IRQ_AFFINITY_USER);
	t->napi.notify.notify(&t->napi.notify, cpumask_of(other));
	KUNIT_EXPECT_TRUE_MSG(test, cpumask_equal(stored, cpumask_of(other)),
			      "stored %*pbl, written %u",
			      cpumask_pr_args(stored), other);
}
#endif

static struct kunit_case irq_spread_napi_cases[] = {
	KUNIT_CASE(irq_spread_test_napi_placed),
	KUNIT_CASE(irq_spread_test_napi_fallback_node),
	KUNIT_CASE(irq_spread_test_napi_fill_no_room),
#ifdef CONFIG_HOTPLUG_CPU
	KUNIT_CASE(irq_spread_test_napi_hotplug_fallback),
#endif
	{}
};

static struct kunit_suite irq_spread_napi_suite = {
	.name		= "irq_spread_napi",
	.init		= napi_test_init,
	.exit		= napi_test_exit,
	.test_cases	= irq_spread_napi_cases,
};

kunit_test_suite(irq_spread_napi_suite);

MODULE_DESCRIPTION("KUnit tests of net core's NAPI IRQ affinity with and without irq_spread");
MODULE_LICENSE("GPL");
