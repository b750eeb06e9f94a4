// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for irq_spread devices: the system default policy, and
 * registered devices with their sysfs files, the administrator's
 * overrides and CPU hotplug.
 *
 * A device is a kunit_device_register() device on an injected machine, with
 * fake interrupts: irq FAKE_IRQ_BASE + i has an affinity and a hint the
 * test reads, and writes to play the administrator.  UML has no interrupt
 * that takes an affinity, so only registration failing on real interrupts
 * is tested on the running system.  The placements are worked out by hand
 * from Documentation/core-api/irq_spread.rst.
 */
#include <kunit/device.h>
#include <kunit/test.h>
#include <kunit/test-bug.h>
#include <linux/bitmap.h>
#include <linux/bits.h>
#include <linux/cpumask.h>
#include <linux/device.h>
#include <linux/err.h>
#include <linux/irq_spread.h>
#include <linux/kernfs.h>
#include <linux/kobject.h>
#include <linux/limits.h>
#include <linux/numa.h>
#include <linux/slab.h>
#include <linux/sprintf.h>
#include <linux/string.h>
#include <linux/sysfs.h>
#include <linux/types.h>

#include <asm/page.h>

#include "irq_spread_internal.h"
#include "irq_spread_kunit_machine.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

#define FAKE_IRQ_BASE	100
#define FAKE_NR_IRQS	4
#define FAKE_MAX_IRQS	512
#define FAKE_NR_CPUS	8

/* Two nodes of two SMT2 cores, siblings 2k and 2k + 1, distances 10, 20. */
static const char * const two_nodes[] = { "0-3", "4-7" };

static const struct test_machine two_node = {
	.name = "2N SMT2", .nr_cpus = FAKE_NR_CPUS, .nr_nodes = 2,
	.node_cpus = two_nodes, .remote = 20, .smt = 2,
};

/**
 * struct fake_irqs - the device's interrupts
 * @aff: each interrupt's affinity
 * @hint: each interrupt's affinity hint
 * @sets: number of affinities set
 * @fail_irq: the interrupt whose affinity cannot be set, or 0
 */
struct fake_irqs {
	unsigned long aff[FAKE_MAX_IRQS];
	const struct cpumask *hint[FAKE_MAX_IRQS];
	unsigned int sets;
	unsigned int fail_irq;
};

/*
 * A test's device: @m is the machine it is on, whose CPUs the hotplug tests
 * take offline.
 */
struct dev_test {
	struct test_topo *m;
	struct fake_irqs irqs;
	unsigned int irq_nrs[FAKE_MAX_IRQS];
	struct device *dev;
};

/* No assertion: the callers hold irq_spread_dev_lock. */
static unsigned int fake_index(unsigned int irq)
{
	if (irq - FAKE_IRQ_BASE < FAKE_MAX_IRQS)
		return irq - FAKE_IRQ_BASE;
	kunit_fail_current_test("IRQ %u is none of the device's", irq);
	return 0;
}

static int fake_set(void *priv, unsigned int irq, const struct cpumask *mask)
{
	struct fake_irqs *irqs = priv;
	unsigned int i = fake_index(irq);

	irqs->hint[i] = mask;
	if (irq == irqs->fail_irq)
		return -EIO;
	irqs->aff[i] = cpumask_bits(mask)[0];
	irqs->sets++;
	return 0;
}

static void fake_clear(void *priv, unsigned int irq)
{
	struct fake_irqs *irqs = priv;

	irqs->hint[fake_index(irq)] = NULL;
}

static bool fake_get(void *priv, unsigned int irq, unsigned long *dst,
		     unsigned int nr_cpus)
{
	struct fake_irqs *irqs = priv;

	*dst = irqs->aff[fake_index(irq)];
	return true;
}

static const struct irq_spread_irq_ops fake_irq_ops = {
	.set	= fake_set,
	.clear	= fake_clear,
	.get	= fake_get,
};

static void dev_test_restore_default(void *policy)
{
	irq_spread_default_policy_set(irq_spread_policy_name((uintptr_t)policy),
				      false);
}

/* Keep the system default as the test found it. */
static void dev_test_keep_default(struct kunit *test)
{
	uintptr_t policy = irq_spread_default_policy();

	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test,
							dev_test_restore_default,
							(void *)policy), 0);
}

static int dev_test_init(struct kunit *test)
{
	struct dev_test *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, t);
	t->m = irq_spread_test_topo_new(test, &two_node);
	for (i = 0; i < FAKE_MAX_IRQS; i++)
		t->irq_nrs[i] = FAKE_IRQ_BASE + i;

	/* Registrations take the system default: make it known. */
	dev_test_keep_default(test);
	KUNIT_ASSERT_EQ(test, irq_spread_default_policy_set("numa", false), 0);

	t->dev = kunit_device_register(test, "irq_spread_test");
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, t->dev);
	test->priv = t;
	return 0;
}

static void dev_test_unregister(void *sd)
{
	irq_spread_dev_unregister(sd);
}

static struct irq_spread_dev *dev_test_register_n(struct kunit *test,
						  struct dev_test *t, int node,
						  unsigned int nvec)
{
	return irq_spread_dev_topo_register(&t->m->topo, &fake_irq_ops,
					    &t->irqs, t->dev, node, t->irq_nrs,
					    nvec);
}

/* Register the 4 vectors on node 0, unregistered when the test ends. */
static struct irq_spread_dev *dev_test_register(struct kunit *test)
{
	struct dev_test *t = test->priv;
	struct irq_spread_dev *sd = dev_test_register_n(test, t, 0, FAKE_NR_IRQS);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, sd);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, dev_test_unregister,
							sd), 0);
	return sd;
}

static struct kobj_attribute *dev_attr(struct kunit *test,
				       struct irq_spread_dev *sd,
				       const char *name)
{
	const struct attribute_group *const *g;
	struct attribute *const *a;

	for (g = sd->kobj.ktype->default_groups; *g; g++) {
		for (a = (*g)->attrs; *a; a++) {
			if (!strcmp((*a)->name, name))
				return container_of(*a, struct kobj_attribute,
						    attr);
		}
	}
	KUNIT_FAIL_AND_ABORT(test, "no attribute %s", name);
	return NULL;
}

/* Read a file of <dev>/irq_spread as sysfs does. */
static const char *dev_show(struct kunit *test, struct irq_spread_dev *sd,
			    const char *name)
{
	struct kobj_attribute *attr = dev_attr(test, sd, name);
	char *buf = kunit_kzalloc(test, PAGE_SIZE, GFP_KERNEL);
	ssize_t len;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	len = attr->show(&sd->kobj, attr, buf);
	KUNIT_ASSERT_GE(test, len, 0);
	KUNIT_EXPECT_EQ(test, len, strlen(buf));
	return buf;
}

static ssize_t dev_store(struct kunit *test, struct irq_spread_dev *sd,
			 const char *name, const char *val)
{
	struct kobj_attribute *attr = dev_attr(test, sd, name);

	return attr->store(&sd->kobj, attr, val, strlen(val));
}

/* The fake interrupts' affinities, ";" between vectors. */
static const char *fake_affinity(struct kunit *test)
{
	struct dev_test *t = test->priv;
	char *buf = kunit_kzalloc(test, 128, GFP_KERNEL);
	unsigned int i;
	int len = 0;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	for (i = 0; i < FAKE_NR_IRQS; i++)
		len += scnprintf(buf + len, 128 - len, "%s%*pbl", i ? ";" : "",
				 FAKE_NR_CPUS, &t->irqs.aff[i]);
	return buf;
}

/* The mode of <dev>/irq_spread/@file (@file NULL: of the directory), or -1. */
static int sysfs_mode(struct device *dev, const char *file)
{
	struct kernfs_node *dir, *kn;
	int mode;

	dir = kernfs_find_and_get(dev->kobj.sd, "irq_spread");
	if (!dir)
		return -1;
	kn = file ? kernfs_find_and_get(dir, file) : dir;
	mode = kn ? kn->mode & 0777 : -1;
	if (file && kn)
		kernfs_put(kn);
	kernfs_put(dir);
	return mode;
}

/* Play the administrator: write @cpus to vector @i's smp_affinity. */
static void admin_set(struct kunit *test, unsigned int i, unsigned long cpus)
{
	struct dev_test *t = test->priv;

	t->irqs.aff[i] = cpus;
}

/* Over-long: one page, the most sysfs passes, that starts with a name. */
static const char *long_value(struct kunit *test)
{
	char *buf = kunit_kzalloc(test, PAGE_SIZE, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, buf);
	memset(buf, 'a', PAGE_SIZE - 1);
	memcpy(buf, "numa", 4);
	return buf;
}

/**
 * struct param_case - a value for the system default policy
 * @desc: what the case tests
 * @val: the value; %NULL for long_value()
 * @booting: given on the kernel command line
 * @ret: the expected return
 * @want: the expected default after, or -1 for unchanged
 */
struct param_case {
	const char *desc;
	const char *val;
	bool booting;
	int ret;
	int want;
};

static const struct param_case param_cases[] = {
	{ "numa-core",			"numa-core",	false, 0, IRQ_SPREAD_NUMA_CORE },
	{ "core, newline",		"core\n",	false, 0, IRQ_SPREAD_CORE },
	{ "numa",			"numa",		false, 0, IRQ_SPREAD_NUMA },
	{ "unknown",			"round-robin",	false, -EINVAL, -1 },
	{ "empty",			"",		false, -EINVAL, -1 },
	{ "newline only",		"\n",		false, -EINVAL, -1 },
	{ "trailing garbage",		"numa x",	false, -EINVAL, -1 },
	{ "two newlines",		"numa\n\n",	false, -EINVAL, -1 },
	{ "leading space",		" core",	false, -EINVAL, -1 },
	{ "upper case",			"CORE",		false, -EINVAL, -1 },
	{ "over-long",			NULL,		false, -EINVAL, -1 },
	{ "boot: core",			"core",		true, 0, IRQ_SPREAD_CORE },
	{ "boot: unknown, kept",	"round-robin",	true, 0, -1 },
	{ "boot: empty, kept",		"",		true, 0, -1 },
	{ "boot: garbage, kept",	"numa x",	true, 0, -1 },
	{ "boot: over-long, kept",	NULL,		true, 0, -1 },
};

static void param_case_desc(const struct param_case *c, char *desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(param, param_cases, param_case_desc);

/*
 * Start from a policy that is neither the built-in default nor the one
 * wanted, so that "unchanged" and "reset" differ from "changed".
 */
static void irq_spread_test_param_set(struct kunit *test)
{
	const struct param_case *c = test->param_value;
	enum irq_spread_policy start = IRQ_SPREAD_NUMA_CORE;
	const char *val = c->val ?: long_value(test);

	if (c->want == IRQ_SPREAD_NUMA_CORE)
		start = IRQ_SPREAD_CORE;
	dev_test_keep_default(test);
	KUNIT_ASSERT_EQ(test, irq_spread_default_policy_set(irq_spread_policy_name(start),
							    false), 0);

	KUNIT_EXPECT_EQ(test, irq_spread_default_policy_set(val, c->booting),
			c->ret);
	KUNIT_EXPECT_EQ(test, irq_spread_default_policy(),
			c->want < 0 ? start : c->want);
}

static void irq_spread_test_policy_list(struct kunit *test)
{
	static const char * const want[] = {
		[IRQ_SPREAD_NUMA]	= "[numa] numa-core core\n",
		[IRQ_SPREAD_NUMA_CORE]	= "numa [numa-core] core\n",
		[IRQ_SPREAD_CORE]	= "numa numa-core [core]\n",
	};
	char buf[32];
	int p;

	for (p = 0; p < IRQ_SPREAD_NR_POLICIES; p++) {
		KUNIT_EXPECT_EQ(test, irq_spread_policy_list(buf, sizeof(buf), p),
				strlen(want[p]));
		KUNIT_EXPECT_STREQ(test, buf, want[p]);
	}
	/* Cut, never overrun. */
	KUNIT_EXPECT_EQ(test, irq_spread_policy_list(buf, 8, IRQ_SPREAD_CORE), 7);
	KUNIT_EXPECT_STREQ(test, buf, "numa nu");
}

static struct kunit_case irq_spread_param_test_cases[] = {
	KUNIT_CASE_PARAM(irq_spread_test_param_set, param_gen_params),
	KUNIT_CASE(irq_spread_test_policy_list),
	{}
};

static struct kunit_suite irq_spread_param_test_suite = {
	.name = "irq_spread_param",
	.test_cases = irq_spread_param_test_cases,
};

/* The files, their modes, and what a new device shows. */
static void irq_spread_test_dev_register(struct kunit *test)
{
	struct dev_test *t = test->priv;
	struct irq_spread_dev *sd;
	unsigned int i;

	KUNIT_EXPECT_EQ(test, sysfs_mode(t->dev, NULL), -1);
	sd = dev_test_register(test);

	KUNIT_EXPECT_EQ(test, sysfs_mode(t->dev, "policy"), 0644);
	KUNIT_EXPECT_EQ(test, sysfs_mode(t->dev, "vectors"), 0444);
	KUNIT_EXPECT_STREQ(test, dev_show(test, sd, "policy"),
			   "[numa] numa-core core\n");
	KUNIT_EXPECT_STREQ(test, dev_show(test, sd, "vectors"),
			   "vector irq cpus\n0 100 0\n1 101 1\n2 102 2\n3 103 3\n");
	KUNIT_EXPECT_STREQ(test, fake_affinity(test), "0;1;2;3");
	for (i = 0; i < FAKE_NR_IRQS; i++)
		KUNIT_EXPECT_NOT_NULL(test, t->irqs.hint[i]);
	KUNIT_EXPECT_EQ(test, irq_spread_test_load_sum(&t->m->topo), 4);

	/* The default at registration is the device's policy. */
	irq_spread_dev_unregister(sd);
	kunit_remove_action(test, dev_test_unregister, sd);
	KUNIT_EXPECT_EQ(test, sysfs_mode(t->dev, NULL), -1);
	for (i = 0; i < FAKE_NR_IRQS; i++)
		KUNIT_EXPECT_NULL(test, t->irqs.hint[i]);
	KUNIT_EXPECT_EQ(test, irq_spread_test_load_sum(&t->m->topo), 0);

	KUNIT_ASSERT_EQ(test, irq_spread_default_policy_set("core", false), 0);
	sd = dev_test_register(test);
	KUNIT_EXPECT_STREQ(test, dev_show(test, sd, "policy"),
			   "numa numa-core [core]\n");
	KUNIT_EXPECT_STREQ(test, fake_affinity(test), "0;2;4;6");
}

struct register_case {
	const char *desc;
	bool no_dev;
	bool no_irqs;
	unsigned int nvec;
	int node;
	unsigned int fail_irq;
	int ret;
};

static const struct register_case register_cases[] = {
	{ "no device",		true,  false, 4, 0, 0, -EINVAL },
	{ "no irqs",		false, true,  4, 0, 0, -EINVAL },
	{ "no vectors",		false, false, 0, 0, 0, -EINVAL },
	{ "negative node",	false, false, 4, -2, 0, -EINVAL },
	{ "node past the last",	false, false, 4, 2, 0, -EINVAL },
	{ "first irq fails",	false, false, 4, 0, 100, -EIO },
	{ "third irq fails",	false, false, 4, 0, 102, -EIO },
};

static void register_case_desc(const struct register_case *c, char *desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(register, register_cases, register_case_desc);

/* A registration that fails leaves nothing behind. */
static void irq_spread_test_dev_register_bad(struct kunit *test)
{
	const struct register_case *c = test->param_value;
	struct dev_test *t = test->priv;
	struct irq_spread_dev *sd;
	unsigned int i;

	t->irqs.fail_irq = c->fail_irq;
	sd = irq_spread_dev_topo_register(&t->m->topo, &fake_irq_ops, &t->irqs,
					  c->no_dev ? NULL : t->dev, c->node,
					  c->no_irqs ? NULL : t->irq_nrs,
					  c->nvec);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(sd), c->ret);
	if (!IS_ERR(sd)) {
		irq_spread_dev_unregister(sd);
		return;
	}
	KUNIT_EXPECT_EQ(test, sysfs_mode(t->dev, NULL), -1);
	KUNIT_EXPECT_EQ(test, irq_spread_test_load_sum(&t->m->topo), 0);
	for (i = 0; i < FAKE_NR_IRQS; i++)
		KUNIT_EXPECT_NULL(test, t->irqs.hint[i]);

	/* Nothing stayed listed either: the device registers fine now. */
	t->irqs.fail_irq = 0;
	dev_test_register(test);
	KUNIT_EXPECT_STREQ(test, fake_affinity(test), "0;1;2;3");
}

static void irq_spread_test_dev_register_busy(struct kunit *test)
{
	struct dev_test *t = test->priv;
	struct irq_spread_dev *sd = dev_test_register(test);
	unsigned int sets = t->irqs.sets;

	KUNIT_EXPECT_EQ(test, PTR_ERR(dev_test_register_n(test, t, 1, 2)),
			-EBUSY);
	KUNIT_EXPECT_EQ(test, t->irqs.sets, sets);
	KUNIT_EXPECT_EQ(test, irq_spread_test_load_sum(&t->m->topo), 4);
	KUNIT_EXPECT_STREQ(test, dev_show(test, sd, "policy"),
			   "[numa] numa-core core\n");
}

/*
 * On the running system with an interrupt that takes no affinity (none
 * under UML, which has no SMP; no descriptor elsewhere): the error, and
 * nothing left behind.
 */
static void irq_spread_test_dev_register_system(struct kunit *test)
{
	struct dev_test *t = test->priv;
	unsigned int irq = UINT_MAX;
	unsigned int load = irq_spread_test_load_sum(&irq_spread_system);

	KUNIT_EXPECT_EQ(test, PTR_ERR(irq_spread_dev_register(t->dev,
							      NUMA_NO_NODE,
							      &irq, 1)),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, sysfs_mode(t->dev, NULL), -1);
	KUNIT_EXPECT_EQ(test, irq_spread_test_load_sum(&irq_spread_system), load);
	KUNIT_EXPECT_EQ(test, PTR_ERR(irq_spread_dev_register(NULL,
							      NUMA_NO_NODE,
							      &irq, 1)),
			-EINVAL);

	/* Harmless on nothing. */
	irq_spread_dev_unregister(NULL);
	irq_spread_dev_unregister(ERR_PTR(-EINVAL));
	KUNIT_EXPECT_EQ(test, irq_spread_dev_set_vectors(NULL, 1), -EINVAL);
}

struct store_case {
	const char *desc;
	const char *val;
	enum irq_spread_policy policy;
	const char *show;
	const char *aff;
};

/* From numa, with vector 1 moved to CPU 7 by the administrator. */
static const struct store_case store_cases[] = {
	{ "numa-core",	"numa-core",	IRQ_SPREAD_NUMA_CORE,
	  "numa [numa-core] core\n",	"0-1;2-3;0-1;2-3" },
	{ "core",	"core\n",	IRQ_SPREAD_CORE,
	  "numa numa-core [core]\n",	"0;2;4;6" },
	{ "numa again",	"numa",		IRQ_SPREAD_NUMA,
	  "[numa] numa-core core\n",	"0;1;2;3" },
};

static void store_case_desc(const struct store_case *c, char *desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(store, store_cases, store_case_desc);

/* Writing a policy applies it to every vector, the administrator's too. */
static void irq_spread_test_dev_store(struct kunit *test)
{
	const struct store_case *c = test->param_value;
	struct irq_spread_dev *sd = dev_test_register(test);
	struct dev_test *t = test->priv;

	admin_set(test, 1, BIT(7));
	KUNIT_ASSERT_EQ(test, irq_spread_dev_set_vectors(sd, FAKE_NR_IRQS), 0);
	KUNIT_ASSERT_STREQ(test, fake_affinity(test), "0;7;2;3");

	KUNIT_EXPECT_EQ(test, dev_store(test, sd, "policy", c->val),
			strlen(c->val));
	KUNIT_EXPECT_EQ(test, sd->policy, c->policy);
	KUNIT_EXPECT_STREQ(test, dev_show(test, sd, "policy"), c->show);
	KUNIT_EXPECT_STREQ(test, fake_affinity(test), c->aff);
	KUNIT_EXPECT_TRUE(test, bitmap_empty(sd->admin, sd->nvec));
	KUNIT_EXPECT_EQ(test, irq_spread_test_load_sum(&t->m->topo),
			c->policy == IRQ_SPREAD_NUMA_CORE ? 8 : 4);
}

static const char * const store_bad_cases[] = {
	"", "\n", "round-robin", "numa x", "numa\n\n", " numa", "NUMA",
	"numa-", "cores", NULL,
};

static void store_bad_case_desc(const char * const *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "\"%s\"", *c ?: "over-long");
	strreplace(desc, '\n', '|');
}

KUNIT_ARRAY_PARAM(store_bad, store_bad_cases, store_bad_case_desc);

/* A bad write: -EINVAL, and the policy, masks and marks as they were. */
static void irq_spread_test_dev_store_bad(struct kunit *test)
{
	const char *val = *(const char * const *)test->param_value;
	struct irq_spread_dev *sd = dev_test_register(test);
	struct dev_test *t = test->priv;
	const char *vectors;
	unsigned int sets;

	KUNIT_ASSERT_EQ(test, dev_store(test, sd, "policy", "numa-core"), 9);
	admin_set(test, 1, BIT(7));
	KUNIT_ASSERT_EQ(test, irq_spread_dev_set_vectors(sd, FAKE_NR_IRQS), 0);
	vectors = dev_show(test, sd, "vectors");
	KUNIT_ASSERT_STREQ(test, vectors,
			   "vector irq cpus\n0 100 0-1\n1 101 7 admin\n2 102 0-1\n3 103 2-3\n");
	sets = t->irqs.sets;

	KUNIT_EXPECT_EQ(test, dev_store(test, sd, "policy", val ?: long_value(test)),
			-EINVAL);
	KUNIT_EXPECT_STREQ(test, dev_show(test, sd, "policy"),
			   "numa [numa-core] core\n");
	KUNIT_EXPECT_STREQ(test, dev_show(test, sd, "vectors"), vectors);
	KUNIT_EXPECT_EQ(test, t->irqs.sets, sets);
	KUNIT_EXPECT_EQ(test, irq_spread_test_load_sum(&t->m->topo), 8);
}

/*
 * The administrator's mask survives channel changes, active or not, until
 * a policy is written; the others follow the policy.
 */
static void irq_spread_test_dev_admin(struct kunit *test)
{
	struct irq_spread_dev *sd = dev_test_register(test);
	struct dev_test *t = test->priv;

	admin_set(test, 1, BIT(7));
	KUNIT_EXPECT_EQ(test, irq_spread_dev_set_vectors(sd, 4), 0);
	KUNIT_EXPECT_STREQ(test, fake_affinity(test), "0;7;2;3");

	KUNIT_EXPECT_EQ(test, irq_spread_dev_set_vectors(sd, 2), 0);
	KUNIT_EXPECT_STREQ(test, dev_show(test, sd, "vectors"),
			   "vector irq cpus\n0 100 0\n1 101 7 admin\n2 102 2 inactive\n3 103 3 inactive\n");
	KUNIT_EXPECT_NULL(test, t->irqs.hint[2]);
	KUNIT_EXPECT_NULL(test, t->irqs.hint[3]);
	KUNIT_EXPECT_EQ(test, irq_spread_test_load_sum(&t->m->topo), 2);

	/* Moved while inactive: kept when it comes back. */
	admin_set(test, 3, BIT(5) | BIT(6));
	KUNIT_EXPECT_EQ(test, irq_spread_dev_set_vectors(sd, 4), 0);
	KUNIT_EXPECT_STREQ(test, fake_affinity(test), "0;7;2;5-6");
	KUNIT_EXPECT_STREQ(test, dev_show(test, sd, "vectors"),
			   "vector irq cpus\n0 100 0\n1 101 7 admin\n2 102 2\n3 103 5-6 admin\n");
	KUNIT_EXPECT_NOT_NULL(test, t->irqs.hint[2]);
	KUNIT_EXPECT_EQ(test, irq_spread_test_load_sum(&t->m->topo), 4);

	/* The same policy again hands them back. */
	KUNIT_EXPECT_EQ(test, dev_store(test, sd, "policy", "numa\n"), 5);
	KUNIT_EXPECT_STREQ(test, fake_affinity(test), "0;1;2;3");
	KUNIT_EXPECT_STREQ(test, dev_show(test, sd, "vectors"),
			   "vector irq cpus\n0 100 0\n1 101 1\n2 102 2\n3 103 3\n");
}

static void irq_spread_test_dev_set_vectors_bad(struct kunit *test)
{
	struct irq_spread_dev *sd = dev_test_register(test);
	struct dev_test *t = test->priv;
	unsigned int sets = t->irqs.sets;

	KUNIT_EXPECT_EQ(test, irq_spread_dev_set_vectors(sd, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, irq_spread_dev_set_vectors(sd, FAKE_NR_IRQS + 1),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, irq_spread_dev_set_vectors(sd, UINT_MAX), -EINVAL);
	KUNIT_EXPECT_EQ(test, t->irqs.sets, sets);
	KUNIT_EXPECT_EQ(test, sd->nr_active, FAKE_NR_IRQS);
	KUNIT_EXPECT_EQ(test, irq_spread_test_load_sum(&t->m->topo), 4);
}

/*
 * An interrupt that refuses its placement keeps its affinity and is not
 * taken for the administrator's; the others are placed.
 */
static void irq_spread_test_dev_apply_fails(struct kunit *test)
{
	struct irq_spread_dev *sd = dev_test_register(test);
	struct dev_test *t = test->priv;

	t->irqs.fail_irq = 102;
	KUNIT_EXPECT_EQ(test, dev_store(test, sd, "policy", "core"), -EIO);
	KUNIT_EXPECT_STREQ(test, fake_affinity(test), "0;2;2;6");
	KUNIT_EXPECT_STREQ(test, dev_show(test, sd, "policy"),
			   "numa numa-core [core]\n");

	t->irqs.fail_irq = 0;
	KUNIT_EXPECT_EQ(test, irq_spread_dev_set_vectors(sd, 4), 0);
	KUNIT_EXPECT_STREQ(test, dev_show(test, sd, "vectors"),
			   "vector irq cpus\n0 100 0\n1 101 2\n2 102 4\n3 103 6\n");
}

/*
 * A CPU going offline (still online, excluded) and coming back: the
 * vectors leave it and return, the administrator's stays where it is.
 */
static void irq_spread_test_dev_hotplug(struct kunit *test)
{
	struct irq_spread_dev *sd = dev_test_register(test);
	struct dev_test *t = test->priv;
	unsigned long cpu2 = BIT(2);

	admin_set(test, 3, BIT(6));
	irq_spread_devs_respread(&t->m->topo, &cpu2);
	KUNIT_EXPECT_STREQ(test, fake_affinity(test), "0;1;3;6");
	__clear_bit(2, t->m->online);
	KUNIT_EXPECT_EQ(test, irq_spread_test_load_sum(&t->m->topo), 4);

	__set_bit(2, t->m->online);
	irq_spread_devs_respread(&t->m->topo, NULL);
	KUNIT_EXPECT_STREQ(test, fake_affinity(test), "0;1;2;6");
	KUNIT_EXPECT_STREQ(test, dev_show(test, sd, "vectors"),
			   "vector irq cpus\n0 100 0\n1 101 1\n2 102 2\n3 103 6 admin\n");

	/* Other machines' CPUs are not this one's. */
	irq_spread_devs_respread(&irq_spread_system, NULL);
	KUNIT_EXPECT_STREQ(test, fake_affinity(test), "0;1;2;6");
}

/* More vectors than a page holds lines for: whole lines, the first ones. */
static void irq_spread_test_dev_vectors_page(struct kunit *test)
{
	struct dev_test *t = test->priv;
	struct irq_spread_dev *sd;
	const char *buf, *last;
	unsigned int v, irq, cpu;
	int fields;
	size_t len;

	sd = dev_test_register_n(test, t, 0, FAKE_MAX_IRQS);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, sd);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, dev_test_unregister,
							sd), 0);
	buf = dev_show(test, sd, "vectors");
	len = strlen(buf);
	KUNIT_EXPECT_LT(test, len, PAGE_SIZE - 1);
	KUNIT_EXPECT_GT(test, len, PAGE_SIZE / 2);
	KUNIT_ASSERT_EQ(test, buf[len - 1], '\n');

	/* Under numa, vector v is on CPU v mod 8: so is the last shown. */
	last = buf + len - 2;
	while (last > buf && last[-1] != '\n')
		last--;
	fields = sscanf(last, "%u %u %u\n", &v, &irq, &cpu);
	KUNIT_ASSERT_EQ(test, fields, 3);
	KUNIT_EXPECT_LT(test, v, FAKE_MAX_IRQS - 1);
	KUNIT_EXPECT_EQ(test, irq, FAKE_IRQ_BASE + v);
	KUNIT_EXPECT_EQ(test, cpu, v % FAKE_NR_CPUS);
}

static struct kunit_case irq_spread_dev_test_cases[] = {
	KUNIT_CASE(irq_spread_test_dev_register),
	KUNIT_CASE_PARAM(irq_spread_test_dev_register_bad,
			 register_gen_params),
	KUNIT_CASE(irq_spread_test_dev_register_busy),
	KUNIT_CASE(irq_spread_test_dev_register_system),
	KUNIT_CASE_PARAM(irq_spread_test_dev_store, store_gen_params),
	KUNIT_CASE_PARAM(irq_spread_test_dev_store_bad, store_bad_gen_params),
	KUNIT_CASE(irq_spread_test_dev_admin),
	KUNIT_CASE(irq_spread_test_dev_set_vectors_bad),
	KUNIT_CASE(irq_spread_test_dev_apply_fails),
	KUNIT_CASE(irq_spread_test_dev_hotplug),
	KUNIT_CASE(irq_spread_test_dev_vectors_page),
	{}
};

static struct kunit_suite irq_spread_dev_test_suite = {
	.name = "irq_spread_device",
	.init = dev_test_init,
	.test_cases = irq_spread_dev_test_cases,
};

kunit_test_suites(&irq_spread_param_test_suite, &irq_spread_dev_test_suite);

MODULE_DESCRIPTION("KUnit tests for irq_spread devices");
MODULE_LICENSE("GPL");
