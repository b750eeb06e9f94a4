// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for irq_spread devices: the system default policy, and
 * registered devices with their vectors, sysfs file, debugfs table, the
 * administrator's overrides, CPU hotplug and the driver's callback.
 *
 * A device is a kunit_device_register() device on an injected machine.
 * Its interrupts are fake, behind the library's static stubs: fake IRQ
 * FAKE_IRQ_BASE + i has an affinity, a hint and an affinity notifier the
 * test reads.  As the interrupt core does, every affinity set it takes
 * queues a notification that the test delivers with
 * fake_notify(), and the test plays the administrator by writing an
 * affinity and notifying, or the interrupt core's CPU hotplug migration by
 * writing one without.  UML has no interrupt that takes an affinity, so
 * only registration on the running system is tested without fakes.
 *
 * The machine: two nodes of two SMT2 cores, node 0 CPUs 0-3, node 1 CPUs
 * 4-7, siblings 2k and 2k + 1, distances 10 and 20.  The placements are
 * worked out by hand from Documentation/core-api/irq_spread.rst; on node 0:
 *
 *	numa	   4 vectors: 0;1;2;3	(node 0's threads in order)
 *	numa-core  4 vectors: 0;2;1;3	(each core holds two: a thread each)
 *	numa-core  3 vectors: 0;2-3;1	(core {2,3} holds one: the whole core)
 *	numa-core  2 vectors: 0-1;2-3
 *	core	   4 vectors: 0;2;4;6	(first threads, node 0 then node 1)
 */
#include <kunit/device.h>
#include <kunit/static_stub.h>
#include <kunit/test.h>
#include <linux/bitmap.h>
#include <linux/bits.h>
#include <linux/capability.h>
#include <linux/completion.h>
#include <linux/cpu.h>
#include <linux/cpu_rmap.h>
#include <linux/cpumask.h>
#include <linux/cred.h>
#include <linux/device.h>
#include <linux/err.h>
#include <linux/interrupt.h>
#include <linux/irqnr.h>
#include <linux/irqflags.h>
#include <linux/irq_spread.h>
#include <linux/jiffies.h>
#include <linux/kernfs.h>
#include <linux/kthread.h>
#include <linux/limits.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/numa.h>
#include <linux/panic.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/sprintf.h>
#include <linux/string.h>
#include <linux/sysfs.h>
#include <linux/topology.h>
#include <linux/types.h>
#include <linux/workqueue.h>

#include <asm/page.h>

#include "../device.h"
#include "../pool.h"
#include "machine.h"

MODULE_IMPORT_NS("EXPORTED_FOR_KUNIT_TESTING");

#define FAKE_IRQ_BASE	100
#define FAKE_MAX_IRQS	16
#define FAKE_NR_CPUS	8
#define FAKE_CALLS	64

/* Two nodes of two SMT2 cores, siblings 2k and 2k + 1, distances 10, 20. */
static const char * const two_nodes[] = { "0-3", "4-7" };

static const struct test_machine two_node = {
	.name = "2N SMT2", .nr_cpus = FAKE_NR_CPUS, .nr_nodes = 2,
	.node_cpus = two_nodes, .remote = 20, .smt = 2,
};

/**
 * struct fake_irq - one fake interrupt
 * @aff: its affinity
 * @hint: its affinity hint
 * @notify: its affinity notifier
 * @pending: a notification is due (an affinity was set)
 * @sets: affinities set on it, refused ones not counted
 * @foreign: it has an affinity notifier that is not the library's
 * @state: who set its affinity last, an &enum irq_affinity_placement
 * @placer: its placer, or %NULL
 * @home: the placement CPU hotplug moved it off, while @displaced
 * @displaced: @home is set
 */
struct fake_irq {
	unsigned long aff;
	const struct cpumask *hint;
	struct irq_affinity_notify *notify;
	bool pending;
	unsigned int sets;
	bool foreign;
	int state;
	struct irq_affinity_placer *placer;
	unsigned long home;
	bool displaced;
};

/**
 * struct fake_call - a call of the driver's changed callback
 * @vector: the vector
 * @mask: its mask
 */
struct fake_call {
	unsigned int vector;
	unsigned long mask;
};

/**
 * struct dev_test - a test's machine, device and fake interrupts
 * @m: the machine, whose CPUs the hotplug tests take offline
 * @dev: the device
 * @irq: the fake interrupts
 * @fail_irq: the interrupt whose affinity cannot be set, or 0
 * @managed_irq: the interrupt the interrupt core manages, or 0
 * @alias_irq: an interrupt number of the running machine that stands for
 *	the last fake interrupt, or 0
 * @calls: the calls of the changed callback, in order
 * @nr_calls: how many
 * @applies: the calls of a caller's apply callback
 */
struct dev_test {
	struct test_topo *m;
	struct device *dev;
	struct fake_irq irq[FAKE_MAX_IRQS];
	unsigned int fail_irq;
	unsigned int managed_irq;
	unsigned int alias_irq;
	struct fake_call calls[FAKE_CALLS];
	unsigned int nr_calls;
	unsigned int applies;
};

static struct dev_test *cur_test(void)
{
	return kunit_get_current_test()->priv;
}

static struct fake_irq *fake_irq(unsigned int irq)
{
	struct kunit *test = kunit_get_current_test();

	if (irq - FAKE_IRQ_BASE < FAKE_MAX_IRQS)
		return &cur_test()->irq[irq - FAKE_IRQ_BASE];
	if (irq && irq == cur_test()->alias_irq)
		return &cur_test()->irq[FAKE_MAX_IRQS - 1];
	KUNIT_FAIL(test, "IRQ %u is no fake one", irq);
	return &cur_test()->irq[0];
}

/*
 * As irq_set_affinity(): a refusal changes nothing and is not notified;
 * the state of the interrupt stays as it is.
 */
static int fake_affinity(unsigned int irq, const struct cpumask *mask)
{
	struct fake_irq *f = fake_irq(irq);

	if (irq == cur_test()->fail_irq)
		return -EIO;
	f->pending = true;
	f->aff = cpumask_bits(mask)[0];
	f->sets++;
	return 0;
}

/* As irq_set_affinity_placer(). */
static int fake_placer(unsigned int irq, struct irq_affinity_placer *placer)
{
	struct fake_irq *f = fake_irq(irq);

	if (placer && f->placer)
		return -EBUSY;
	f->placer = placer;
	f->displaced = false;
	return 0;
}

/*
 * As irq_set_affinity_placed(..., IRQ_PLACE_HINT): the affinity, and only
 * if it was set, the hint and the placed state.
 */
static int fake_apply(unsigned int irq, const struct cpumask *mask)
{
	int ret = fake_affinity(irq, mask);

	if (!ret) {
		fake_irq(irq)->hint = mask;
		fake_irq(irq)->state = IRQ_PLACEMENT_PLACED;
		fake_irq(irq)->displaced = false;
	}
	return ret;
}

/* As irq_set_affinity_placed(..., 0). */
static int fake_place(unsigned int irq, const struct cpumask *mask)
{
	int ret = fake_affinity(irq, mask);

	if (!ret) {
		fake_irq(irq)->state = IRQ_PLACEMENT_PLACED;
		fake_irq(irq)->displaced = false;
	}
	return ret;
}

/* As irq_clear_affinity_placed(). */
static void fake_unplace(unsigned int irq)
{
	struct fake_irq *f = fake_irq(irq);

	if (f->state == IRQ_PLACEMENT_PLACED)
		f->state = IRQ_PLACEMENT_NONE;
}

static bool fake_managed(unsigned int irq)
{
	return irq == cur_test()->managed_irq;
}

static void fake_hint(unsigned int irq, const struct cpumask *hint)
{
	fake_irq(irq)->hint = hint;
}

static int fake_get(unsigned int irq, struct cpumask *dst)
{
	cpumask_clear(dst);
	cpumask_bits(dst)[0] = fake_irq(irq)->aff;
	return fake_irq(irq)->state;
}

static int fake_notifier(unsigned int irq, struct irq_affinity_notify *notify)
{
	struct fake_irq *f = fake_irq(irq);

	if (notify && f->foreign)
		return -EBUSY;
	f->notify = notify;
	if (!notify)
		f->pending = false;
	return 0;
}

/* Deliver the notifications due, as the interrupt core's work does. */
static void fake_notify(struct kunit *test)
{
	struct dev_test *t = test->priv;
	struct fake_irq *f;
	cpumask_var_t mask;
	unsigned int i;

	KUNIT_ASSERT_TRUE(test, zalloc_cpumask_var(&mask, GFP_KERNEL));
	for (i = 0; i < FAKE_MAX_IRQS; i++) {
		f = &t->irq[i];
		if (!f->pending || !f->notify)
			continue;
		f->pending = false;
		cpumask_clear(mask);
		cpumask_bits(mask)[0] = f->aff;
		f->notify->notify(f->notify, mask);
	}
	free_cpumask_var(mask);
}

/* Play the administrator: write @cpus to IRQ @i's smp_affinity. */
static void admin_set(struct kunit *test, unsigned int i, unsigned long cpus)
{
	struct dev_test *t = test->priv;

	fake_notify(test);
	t->irq[i].aff = cpus;
	t->irq[i].state = IRQ_PLACEMENT_USER;
	t->irq[i].displaced = false;
	t->irq[i].pending = true;
	fake_notify(test);
}

/*
 * Play the interrupt core's part of @cpu going offline, after the
 * library's CPU hotplug callback (irq_spread_devs_cpu_offline(), which
 * runs first): as irq_affinity_offline_cpu(), ask the placer of each
 * placed interrupt on @cpu where it goes, move it there and keep its home.
 */
static void core_cpu_offline(struct kunit *test, unsigned int cpu)
{
	struct dev_test *t = test->priv;
	struct fake_irq *f;
	cpumask_var_t mask;
	unsigned int i;

	KUNIT_ASSERT_TRUE(test, zalloc_cpumask_var(&mask, GFP_KERNEL));
	for (i = 0; i < FAKE_MAX_IRQS; i++) {
		f = &t->irq[i];
		if (!f->placer || f->state != IRQ_PLACEMENT_PLACED ||
		    !(f->aff & BIT(cpu)))
			continue;
		cpumask_clear(mask);
		if (f->placer->cpu_offline(f->placer, FAKE_IRQ_BASE + i, cpu, mask))
			continue;
		cpumask_clear_cpu(cpu, mask);
		if (!(cpumask_bits(mask)[0] & t->m->online[0]))
			continue;
		if (!f->displaced)
			f->home = f->aff;
		f->displaced = true;
		f->aff = cpumask_bits(mask)[0];
		f->sets++;
		f->pending = true;
	}
	free_cpumask_var(mask);
}

/*
 * Play the interrupt core's part of @cpu coming back, before the
 * library's callback: as irq_affinity_online_cpu(), a placed interrupt it
 * moved whose home holds @cpu goes home.
 */
static void core_cpu_online(struct kunit *test, unsigned int cpu)
{
	struct dev_test *t = test->priv;
	struct fake_irq *f;
	unsigned int i;

	for (i = 0; i < FAKE_MAX_IRQS; i++) {
		f = &t->irq[i];
		if (!f->placer || !f->displaced ||
		    f->state != IRQ_PLACEMENT_PLACED || !(f->home & BIT(cpu)))
			continue;
		f->displaced = false;
		f->aff = f->home;
		f->sets++;
		f->pending = true;
	}
}

/* @cpu goes offline: the library's callback, then the interrupt core's. */
static void play_cpu_offline(struct kunit *test, unsigned int cpu)
{
	struct dev_test *t = test->priv;

	irq_spread_devs_cpu_offline(&t->m->topo, cpu);
	core_cpu_offline(test, cpu);
}

/* @cpu came back: the interrupt core's callback, then the library's. */
static void play_cpu_online(struct kunit *test, unsigned int cpu)
{
	struct dev_test *t = test->priv;

	core_cpu_online(test, cpu);
	irq_spread_devs_cpu_online(&t->m->topo, cpu);
}

/* Play CPU hotplug's migration: the interrupt core moves IRQ @i, silently. */
static void kernel_move(struct kunit *test, unsigned int i, unsigned long cpus)
{
	struct dev_test *t = test->priv;

	t->irq[i].aff = cpus;
}

static void fake_changed(void *priv, unsigned int vector,
			 const struct cpumask *mask)
{
	struct dev_test *t = priv;

	if (t->nr_calls < FAKE_CALLS) {
		t->calls[t->nr_calls].vector = vector;
		t->calls[t->nr_calls].mask = cpumask_bits(mask)[0];
	}
	t->nr_calls++;
}

static const struct irq_spread_dev_ops fake_ops = {
	.changed	= fake_changed,
};

/* The changed callback's calls since the last look, "v:cpus" each. */
static const char *dev_calls(struct kunit *test, struct irq_spread_dev *sd)
{
	struct dev_test *t = test->priv;
	char *buf = kunit_kzalloc(test, 256, GFP_KERNEL);
	unsigned int i;
	int len = 0;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	flush_work(&sd->work);
	KUNIT_ASSERT_LE(test, t->nr_calls, FAKE_CALLS);
	for (i = 0; i < t->nr_calls; i++)
		len += scnprintf(buf + len, 256 - len, "%s%u:%*pbl", i ? " " : "",
				 t->calls[i].vector, FAKE_NR_CPUS,
				 &t->calls[i].mask);
	t->nr_calls = 0;
	return buf;
}

static int dev_test_init(struct kunit *test)
{
	struct dev_test *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, t);
	test->priv = t;
	/* A machine of its own, whose default policy nobody set. */
	t->m = irq_spread_test_topo_new(test, &two_node);

	t->dev = kunit_device_register(test, "irq_spread_test");
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, t->dev);

	kunit_activate_static_stub(test, irq_spread_irq_apply, fake_apply);
	kunit_activate_static_stub(test, irq_spread_irq_affinity, fake_affinity);
	kunit_activate_static_stub(test, irq_spread_irq_hint, fake_hint);
	kunit_activate_static_stub(test, irq_spread_irq_get, fake_get);
	kunit_activate_static_stub(test, irq_spread_irq_notifier, fake_notifier);
	kunit_activate_static_stub(test, irq_spread_irq_place, fake_place);
	kunit_activate_static_stub(test, irq_spread_irq_unplace, fake_unplace);
	kunit_activate_static_stub(test, irq_spread_irq_managed, fake_managed);
	kunit_activate_static_stub(test, irq_spread_irq_placer, fake_placer);
	return 0;
}

static void dev_test_unregister(void *sd)
{
	irq_spread_dev_unregister(sd);
}

/* @nvec spread vectors on @node under @policy, the test's callback. */
static struct irq_spread_dev_info spread_info(struct dev_test *t, int node,
					      enum irq_spread_policy policy,
					      unsigned int nvec)
{
	return (struct irq_spread_dev_info){
		.dev = t->dev, .node = node, .nr_vectors = nvec,
		.policy = policy, .ops = &fake_ops, .priv = t,
	};
}

/* Register @info, unregistered when the test ends. */
static struct irq_spread_dev *dev_register_info(struct kunit *test,
						const struct irq_spread_dev_info *info)
{
	struct dev_test *t = test->priv;
	struct irq_spread_dev *sd;

	sd = irq_spread_dev_topo_register(&t->m->topo, info);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, sd);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, dev_test_unregister,
							sd), 0);
	return sd;
}

static void dev_attach_all(struct kunit *test, struct irq_spread_dev *sd,
			   unsigned int nvec)
{
	unsigned int i;

	for (i = 0; i < nvec; i++)
		KUNIT_ASSERT_EQ(test, irq_spread_dev_attach(sd, i,
							    FAKE_IRQ_BASE + i), 0);
	fake_notify(test);
}

/* @nvec vectors on node 0 under @policy, all attached. */
static struct irq_spread_dev *dev_register(struct kunit *test,
					   enum irq_spread_policy policy,
					   unsigned int nvec)
{
	struct irq_spread_dev_info info = spread_info(test->priv, 0, policy, nvec);
	struct irq_spread_dev *sd = dev_register_info(test, &info);

	dev_attach_all(test, sd, nvec);
	return sd;
}

/* The fake interrupts' affinities, ";" between them. */
static const char *fake_affinities(struct kunit *test, unsigned int nr)
{
	struct dev_test *t = test->priv;
	char *buf = kunit_kzalloc(test, 128, GFP_KERNEL);
	unsigned int i;
	int len = 0;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	for (i = 0; i < nr; i++)
		len += scnprintf(buf + len, 128 - len, "%s%*pbl", i ? ";" : "",
				 FAKE_NR_CPUS, &t->irq[i].aff);
	return buf;
}

/* The vectors' masks as the device gives them, "-" for none. */
static const char *dev_masks(struct kunit *test, struct irq_spread_dev *sd,
			     unsigned int nvec)
{
	return irq_spread_test_vector_masks(test, sd, nvec);
}

static unsigned int fake_sets(struct kunit *test, unsigned int nr)
{
	struct dev_test *t = test->priv;
	unsigned int i, sets = 0;

	for (i = 0; i < nr; i++)
		sets += t->irq[i].sets;
	return sets;
}

static void fake_sets_zero(struct kunit *test)
{
	struct dev_test *t = test->priv;
	unsigned int i;

	for (i = 0; i < FAKE_MAX_IRQS; i++)
		t->irq[i].sets = 0;
}

/* The class device of the test's device's registration, or %NULL. */
static struct device *class_dev(struct kunit *test)
{
	struct dev_test *t = test->priv;
	struct irq_spread_dev *sd;
	struct device *cdev;

	mutex_lock(&t->m->topo.devs_lock);
	sd = irq_spread_dev_find(&t->m->topo, t->dev);
	cdev = sd ? sd->cdev : NULL;
	mutex_unlock(&t->m->topo.devs_lock);
	return cdev;
}

/*
 * The mode of the class device's file @file, or -1; with @file NULL,
 * whether the class device is in sysfs, as /sys/class/irq_spread/ lists
 * it, by the name "kunit:" and the device's name (0 for yes, -1 for no).
 */
static int sysfs_mode(struct kunit *test, const char *file)
{
	struct dev_test *t = test->priv;
	struct kernfs_node *kn;
	struct device *cdev;
	char name[64];
	int mode;

	cdev = class_dev(test);
	if (!cdev)
		return -1;
	if (!file) {
		snprintf(name, sizeof(name), "kunit:%s", dev_name(t->dev));
		KUNIT_EXPECT_STREQ(test, dev_name(cdev), name);
		KUNIT_EXPECT_PTR_EQ(test, cdev->parent, t->dev);
		return 0;
	}
	kn = kernfs_find_and_get(cdev->kobj.sd, file);
	mode = kn ? kn->mode & 0777 : -1;
	kernfs_put(kn);
	return mode;
}

/* Attribute @name of the first group of @groups; the test ends without. */
static struct attribute *group_attr(struct kunit *test,
				    const struct attribute_group **groups,
				    const char *name)
{
	struct attribute *const *a;

	for (a = groups[0]->attrs; *a; a++) {
		if (!strcmp((*a)->name, name))
			return *a;
	}
	KUNIT_FAIL_AND_ABORT(test, "no attribute %s", name);
	return NULL;
}

static struct device_attribute *dev_attr(struct kunit *test, const char *name)
{
	return container_of(group_attr(test, irq_spread_dev_groups, name),
			    struct device_attribute, attr);
}

/* Read the class device's file @name as sysfs does. */
static const char *dev_show(struct kunit *test, const char *name)
{
	struct device_attribute *attr = dev_attr(test, name);
	struct device *cdev = class_dev(test);
	char *buf = kunit_kzalloc(test, PAGE_SIZE, GFP_KERNEL);
	ssize_t len;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	KUNIT_ASSERT_NOT_NULL(test, cdev);
	len = attr->show(cdev, attr, buf);
	KUNIT_ASSERT_GE(test, len, 0);
	KUNIT_EXPECT_EQ(test, len, strlen(buf));
	return buf;
}

static ssize_t dev_store(struct kunit *test, const char *name, const char *val)
{
	struct device_attribute *attr = dev_attr(test, name);
	struct device *cdev = class_dev(test);

	KUNIT_ASSERT_NOT_NULL(test, cdev);
	return attr->store(cdev, attr, val, strlen(val));
}

/*
 * The lines of the test's device in the debugfs table of @topo's devices,
 * without its path.
 */
static const char *dev_debugfs_of(struct kunit *test,
				  struct irq_spread_topology *topo)
{
	struct dev_test *t = test->priv;
	struct seq_file m = { .size = PAGE_SIZE, .private = topo };
	char *path, *out, *line, *next;
	size_t plen, len = 0;

	m.buf = kunit_kzalloc(test, PAGE_SIZE, GFP_KERNEL);
	out = kunit_kzalloc(test, PAGE_SIZE, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, m.buf);
	KUNIT_ASSERT_NOT_NULL(test, out);
	KUNIT_ASSERT_EQ(test, irq_spread_devs_show(&m, NULL), 0);
	KUNIT_ASSERT_LT(test, m.count, m.size);
	m.buf[m.count] = '\0';
	KUNIT_EXPECT_TRUE(test, str_has_prefix(m.buf,
					       "device policy vector irq kind state cpus\n"));

	path = kobject_get_path(&t->dev->kobj, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, path);
	plen = strlen(path);
	for (line = m.buf; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (strncmp(line, path, plen) || line[plen] != ' ')
			continue;
		len += scnprintf(out + len, PAGE_SIZE - len, "%s\n",
				 line + plen + 1);
	}
	kfree(path);
	return out;
}

/* The debugfs table's lines of the test's device, without its path. */
static const char *dev_debugfs(struct kunit *test)
{
	struct dev_test *t = test->priv;

	return dev_debugfs_of(test, &t->m->topo);
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
 * Start from a default that the administrator has not set, which is
 * neither the built-in default nor the one wanted, so that "unchanged"
 * and "reset" differ from "changed"; a good value also makes it set.
 */
static void irq_spread_test_param_set(struct kunit *test)
{
	const struct param_case *c = test->param_value;
	enum irq_spread_policy start = IRQ_SPREAD_NUMA_CORE;
	const char *val = c->val ?: long_value(test);
	struct irq_spread_topology *topo;

	/* A machine of its own: the system's default stays as it is. */
	topo = &irq_spread_test_topo_new(test, &two_node)->topo;
	if (c->want == IRQ_SPREAD_NUMA_CORE)
		start = IRQ_SPREAD_CORE;
	topo->default_policy = start;

	KUNIT_EXPECT_EQ(test, irq_spread_default_policy_set(topo, val,
							    c->booting),
			c->ret);
	KUNIT_EXPECT_EQ(test, topo->default_policy,
			c->want < 0 ? start : c->want);
	KUNIT_EXPECT_EQ(test, topo->default_policy_set, c->want >= 0);
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

/*
 * Registration: placed before any interrupt exists, one file in a named
 * group of the device, vectors applied as they are attached; and all of it
 * gone again after unregistration.
 */
static void irq_spread_test_dev_register(struct kunit *test)
{
	struct irq_spread_dev_info info = spread_info(test->priv, 0,
						   IRQ_SPREAD_NUMA_CORE, 4);
	struct dev_test *t = test->priv;
	struct irq_spread_dev *sd;
	unsigned int i;

	KUNIT_EXPECT_EQ(test, sysfs_mode(test, NULL), -1);
	sd = irq_spread_dev_topo_register(&t->m->topo, &info);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, sd);

	KUNIT_EXPECT_EQ(test, sysfs_mode(test, NULL), 0);
	KUNIT_EXPECT_EQ(test, sysfs_mode(test, "policy"), 0644);
	KUNIT_EXPECT_EQ(test, sysfs_mode(test, "cpus"), 0644);
	KUNIT_EXPECT_EQ(test, sysfs_mode(test, "vectors"), -1);
	KUNIT_EXPECT_STREQ(test, dev_show(test, "cpus"), "0-7\n");
	KUNIT_EXPECT_STREQ(test, dev_show(test, "policy"),
			   "numa [numa-core] core\n");
	/* No interrupt yet: nothing counted in the load. */
	KUNIT_EXPECT_EQ(test, irq_spread_test_load_sum(&t->m->topo), 0);

	/* Known before the interrupts: each core holds two, a thread each. */
	KUNIT_EXPECT_STREQ(test, dev_masks(test, sd, 4), "0;2;1;3");
	KUNIT_EXPECT_EQ(test, irq_spread_dev_vector_cpu(sd, 3), 3);
	KUNIT_EXPECT_STREQ(test, dev_debugfs(test),
			   "numa-core 0 - spread active 0\n"
			   "numa-core 1 - spread active 2\n"
			   "numa-core 2 - spread active 1\n"
			   "numa-core 3 - spread active 3\n");
	KUNIT_EXPECT_EQ(test, fake_sets(test, 4), 0);

	/* Attached in any order; each applied once, hinted, notified. */
	for (i = 4; i-- > 0;)
		KUNIT_ASSERT_EQ(test, irq_spread_dev_attach(sd, i,
							    FAKE_IRQ_BASE + i), 0);
	KUNIT_EXPECT_STREQ(test, fake_affinities(test, 4), "0;2;1;3");
	KUNIT_EXPECT_EQ(test, fake_sets(test, 4), 4);
	KUNIT_EXPECT_EQ(test, irq_spread_test_load_sum(&t->m->topo), 4);
	for (i = 0; i < 4; i++) {
		KUNIT_EXPECT_NOT_NULL(test, t->irq[i].hint);
		KUNIT_EXPECT_PTR_EQ(test, t->irq[i].notify, &sd->vec[i]->notify);
	}
	/* The library's own applies are not the administrator's. */
	fake_notify(test);
	KUNIT_EXPECT_STREQ(test, dev_debugfs(test),
			   "numa-core 0 100 spread active 0\n"
			   "numa-core 1 101 spread active 2\n"
			   "numa-core 2 102 spread active 1\n"
			   "numa-core 3 103 spread active 3\n");
	KUNIT_EXPECT_STREQ(test, dev_calls(test, sd), "");

	irq_spread_dev_unregister(sd);
	KUNIT_EXPECT_EQ(test, sysfs_mode(test, NULL), -1);
	for (i = 0; i < 4; i++) {
		KUNIT_EXPECT_NULL(test, t->irq[i].hint);
		KUNIT_EXPECT_NULL(test, t->irq[i].notify);
	}
	KUNIT_EXPECT_STREQ(test, fake_affinities(test, 4), "0;2;1;3");
	KUNIT_EXPECT_EQ(test, irq_spread_test_load_sum(&t->m->topo), 0);
	KUNIT_EXPECT_STREQ(test, dev_debugfs(test), "");
}

/* The device's policy: its driver's, unless the administrator set one. */
static void irq_spread_test_dev_policy_default(struct kunit *test)
{
	struct irq_spread_dev_info info = spread_info(test->priv, 0,
						   IRQ_SPREAD_CORE, 4);
	struct dev_test *t = test->priv;
	struct irq_spread_dev *sd;

	sd = irq_spread_dev_topo_register(&t->m->topo, &info);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, sd);
	KUNIT_EXPECT_STREQ(test, dev_show(test, "policy"), "numa numa-core [core]\n");
	KUNIT_EXPECT_STREQ(test, dev_masks(test, sd, 4), "0;2;4;6");
	irq_spread_dev_unregister(sd);

	/* Set to the built-in default, still set. */
	KUNIT_ASSERT_EQ(test, irq_spread_default_policy_set(&t->m->topo, "numa",
							    false), 0);
	sd = dev_register_info(test, &info);
	KUNIT_EXPECT_STREQ(test, dev_show(test, "policy"), "[numa] numa-core core\n");
	KUNIT_EXPECT_STREQ(test, dev_masks(test, sd, 4), "0;1;2;3");
}

/**
 * struct register_case - a bad registration
 * @desc: what the case tests
 * @info: the device, but for its struct device, which the test fills in
 *	unless @no_dev
 * @no_info: register %NULL
 * @no_dev: no struct device
 */
struct register_case {
	const char *desc;
	struct irq_spread_dev_info info;
	bool no_info;
	bool no_dev;
};

static const int bad_with[] = { 4 };
/* Never read: a placement-only device with a map is refused first. */
static struct cpu_rmap unused_rmap;
static const int bad_all[] = { -2 };

static const struct register_case register_cases[] = {
	{ "no info", .no_info = true },
	{ "no device", { .nr_vectors = 4 }, .no_dev = true },
	{ "no vectors", { .nr_vectors = 0 } },
	{ "negative node", { .node = -2, .nr_vectors = 4 } },
	{ "node past the last", { .node = 2, .nr_vectors = 4 } },
	{ "no such policy", { .nr_vectors = 4, .policy = IRQ_SPREAD_NR_POLICIES } },
	{ "reserved with no such vector",
	  { .nr_vectors = 4, .pre_vectors = 1, .reserved = bad_with } },
	{ "reserved below all CPUs",
	  { .nr_vectors = 4, .post_vectors = 1, .reserved = bad_all } },
	{ "vector count overflows",
	  { .nr_vectors = 4, .pre_vectors = UINT_MAX - 2, .post_vectors = 1 } },
	{ "more vectors than the most",
	  { .nr_vectors = IRQ_SPREAD_MAX_VECTORS, .post_vectors = 1 } },
	{ "unknown flag", { .nr_vectors = 4, .flags = BIT(5) } },
	{ "aRFS map of a placement-only device",
	  { .nr_vectors = 4, .flags = IRQ_SPREAD_DEV_PLACE_ONLY,
	    .rmap = &unused_rmap } },
};

static void register_case_desc(const struct register_case *c, char *desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(register, register_cases, register_case_desc);

/* A bad registration: -EINVAL, and nothing left behind. */
static void irq_spread_test_dev_register_bad(struct kunit *test)
{
	const struct register_case *c = test->param_value;
	struct irq_spread_dev_info info = c->info;
	struct dev_test *t = test->priv;

	if (!c->no_dev)
		info.dev = t->dev;
	KUNIT_EXPECT_EQ(test, PTR_ERR(irq_spread_dev_topo_register(&t->m->topo,
								   c->no_info ? NULL : &info)),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, sysfs_mode(test, NULL), -1);
	KUNIT_EXPECT_EQ(test, irq_spread_test_load_sum(&t->m->topo), 0);
	KUNIT_EXPECT_STREQ(test, dev_debugfs(test), "");

	/* Nothing stayed listed either: the device registers fine now. */
	dev_register(test, IRQ_SPREAD_NUMA, 4);
	KUNIT_EXPECT_STREQ(test, fake_affinities(test, 4), "0;1;2;3");
}

static void irq_spread_test_dev_register_busy(struct kunit *test)
{
	struct irq_spread_dev_info info = spread_info(test->priv, 1,
						   IRQ_SPREAD_CORE, 2);
	struct dev_test *t = test->priv;

	dev_register(test, IRQ_SPREAD_NUMA, 4);
	fake_sets_zero(test);
	KUNIT_EXPECT_EQ(test, PTR_ERR(irq_spread_dev_topo_register(&t->m->topo,
								   &info)),
			-EBUSY);
	KUNIT_EXPECT_EQ(test, fake_sets(test, 4), 0);
	KUNIT_EXPECT_EQ(test, irq_spread_test_load_sum(&t->m->topo), 4);
	KUNIT_EXPECT_STREQ(test, dev_show(test, "policy"), "[numa] numa-core core\n");
}

/*
 * On the running system: with SMP, an interrupt without a descriptor is
 * refused and nothing is left behind; without SMP (UML), there is nothing
 * to place and every call succeeds, so drivers work unchanged.
 */
static void irq_spread_test_dev_register_system(struct kunit *test)
{
	struct irq_spread_dev_info info = spread_info(test->priv, NUMA_NO_NODE,
						   IRQ_SPREAD_NUMA, 1);
	unsigned int load = irq_spread_test_load_sum(&irq_spread_system);
	struct irq_spread_dev *sd;

	/* The real interrupt core, not the fakes. */
	kunit_deactivate_static_stub(test, irq_spread_irq_apply);
	kunit_deactivate_static_stub(test, irq_spread_irq_affinity);
	kunit_deactivate_static_stub(test, irq_spread_irq_hint);
	kunit_deactivate_static_stub(test, irq_spread_irq_get);
	kunit_deactivate_static_stub(test, irq_spread_irq_notifier);
	kunit_deactivate_static_stub(test, irq_spread_irq_place);
	kunit_deactivate_static_stub(test, irq_spread_irq_unplace);
	kunit_deactivate_static_stub(test, irq_spread_irq_managed);
	kunit_deactivate_static_stub(test, irq_spread_irq_placer);
	sd = irq_spread_dev_register(&info);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, sd);
	/* Counted once an interrupt is attached. */
	KUNIT_EXPECT_EQ(test, irq_spread_test_load_sum(&irq_spread_system),
			load);
	/* With no load, the first CPU; other devices' load moves it. */
	if (!load)
		KUNIT_EXPECT_EQ(test, irq_spread_dev_vector_cpu(sd, 0),
				cpumask_first(cpu_online_mask));
	else
		kunit_info(test, "the running machine has a load of %u: first CPU not checked\n",
			   load);
	KUNIT_EXPECT_EQ(test, irq_spread_dev_attach(sd, 0, UINT_MAX),
			IS_ENABLED(CONFIG_SMP) ? -EINVAL : 0);
	irq_spread_dev_unregister(sd);
	KUNIT_EXPECT_EQ(test, sysfs_mode(test, NULL), -1);
	KUNIT_EXPECT_EQ(test, irq_spread_test_load_sum(&irq_spread_system), load);

	/* Harmless on nothing. */
	irq_spread_dev_unregister(NULL);
	irq_spread_dev_unregister(ERR_PTR(-EINVAL));
	irq_spread_dev_detach(NULL, 0);
	KUNIT_EXPECT_EQ(test, PTR_ERR(irq_spread_dev_register(NULL)), -EINVAL);
}

/* Every call but unregistration may be made with the hotplug lock held. */
static void irq_spread_test_dev_cpus_locked(struct kunit *test)
{
	struct irq_spread_dev_info info = spread_info(test->priv, 0,
						   IRQ_SPREAD_NUMA, 4);
	struct dev_test *t = test->priv;
	struct irq_spread_dev *sd;

	cpus_read_lock();
	sd = irq_spread_dev_topo_register(&t->m->topo, &info);
	if (!IS_ERR(sd)) {
		irq_spread_dev_attach(sd, 0, FAKE_IRQ_BASE);
		irq_spread_dev_set_vectors(sd, 2);
		irq_spread_dev_set_vectors(sd, 3);
		irq_spread_dev_set_policy(sd, IRQ_SPREAD_CORE);
		irq_spread_dev_vector_cpu(sd, 1);
		irq_spread_dev_detach(sd, 0);
	}
	cpus_read_unlock();
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, sd);
	KUNIT_EXPECT_STREQ(test, dev_masks(test, sd, 3), "0;2;4");
	irq_spread_dev_unregister(sd);
}

/**
 * struct lookup_run - vector lookups made by another thread
 * @sd: the device
 * @cpu: irq_spread_dev_vector_cpu() of its vectors 0 to 3
 * @done: the lookups are made
 */
struct lookup_run {
	struct irq_spread_dev *sd;
	int cpu[4];
	struct completion done;
};

static int lookup_thread(void *data)
{
	struct lookup_run *run = data;
	unsigned int v;

	for (v = 0; v < ARRAY_SIZE(run->cpu); v++)
		run->cpu[v] = irq_spread_dev_vector_cpu(run->sd, v);
	complete(&run->done);
	return 0;
}

/*
 * The vector lookups take no lock and do not sleep, so a driver may call
 * them in atomic context and while the device is being placed.  Numa-core,
 * 4 vectors on node 0: 0;2;1;3.
 *
 * With interrupts off they give what they give in process context, and
 * the kernel's might_sleep() check (CONFIG_DEBUG_ATOMIC_SLEEP), which
 * reports a sleeping lock taken there (and taints the kernel, which this
 * case checks when nothing tainted it before), stays quiet.  Then another
 * thread looks the vectors up while this one holds every lock of the
 * library a placement takes (the list's, the device's, the topology's):
 * the lookups end, with the same answers.  A lookup that took one of them
 * would wait until they are let go, after the generous bound below.
 */
/* Mask @v of @masks, cpumask_size() bytes each, not a struct cpumask. */
static struct cpumask *lookup_mask(struct cpumask *masks, unsigned int v)
{
	return (void *)masks + v * cpumask_size();
}

static void irq_spread_test_dev_lookup_atomic(struct kunit *test)
{
	static const unsigned int want[] = { 0, 2, 1, 3 };
	struct dev_test *t = test->priv;
	struct irq_spread_dev_info info = spread_info(t, 0,
						   IRQ_SPREAD_NUMA_CORE, 4);
	struct irq_spread_dev *sd = dev_register_info(test, &info);
	struct lookup_run run = { .sd = sd };
	bool tainted = test_taint(TAINT_WARN);
	struct task_struct *task;
	struct cpumask *masks;
	unsigned long flags;
	int cpu[4], ret[4];
	unsigned int v;
	bool ended;

	masks = kunit_kcalloc(test, 4, cpumask_size(), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, masks);

	local_irq_save(flags);
	for (v = 0; v < 4; v++) {
		cpu[v] = irq_spread_dev_vector_cpu(sd, v);
		ret[v] = irq_spread_dev_vector_mask(sd, v, lookup_mask(masks, v));
	}
	local_irq_restore(flags);
	if (IS_ENABLED(CONFIG_DEBUG_ATOMIC_SLEEP) && !tainted)
		KUNIT_EXPECT_FALSE_MSG(test, test_taint(TAINT_WARN),
				       "a lookup slept or warned with interrupts off");
	for (v = 0; v < 4; v++) {
		KUNIT_EXPECT_EQ(test, cpu[v], want[v]);
		KUNIT_EXPECT_EQ(test, ret[v], 0);
		KUNIT_EXPECT_TRUE(test, cpumask_equal(lookup_mask(masks, v),
						      cpumask_of(want[v])));
	}

	init_completion(&run.done);
	mutex_lock(&t->m->topo.devs_lock);
	mutex_lock(&sd->lock);
	mutex_lock(&t->m->topo.lock);
	task = kthread_run(lookup_thread, &run, "irq_spread_lookup");
	ended = !IS_ERR(task) &&
		wait_for_completion_timeout(&run.done, 10 * HZ);
	mutex_unlock(&t->m->topo.lock);
	mutex_unlock(&sd->lock);
	mutex_unlock(&t->m->topo.devs_lock);
	KUNIT_ASSERT_FALSE(test, IS_ERR(task));
	if (!ended)
		wait_for_completion(&run.done);
	KUNIT_EXPECT_TRUE_MSG(test, ended,
			      "a lookup waited for a lock a placement holds");
	for (v = 0; v < 4; v++)
		KUNIT_EXPECT_EQ(test, run.cpu[v], want[v]);
}

/* Bad arguments of the vector calls: an error, nothing changed. */
static void irq_spread_test_dev_calls_bad(struct kunit *test)
{
	struct irq_spread_dev_info info = spread_info(test->priv, 0,
						   IRQ_SPREAD_NUMA, 4);
	struct dev_test *t = test->priv;
	struct irq_spread_dev *sd = dev_register_info(test, &info);
	cpumask_var_t mask;

	KUNIT_ASSERT_TRUE(test, zalloc_cpumask_var(&mask, GFP_KERNEL));
	KUNIT_EXPECT_EQ(test, irq_spread_dev_attach(NULL, 0, FAKE_IRQ_BASE), -EINVAL);
	KUNIT_EXPECT_EQ(test, irq_spread_dev_attach(sd, 4, FAKE_IRQ_BASE), -EINVAL);
	KUNIT_EXPECT_EQ(test, irq_spread_dev_attach(sd, 0, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, irq_spread_dev_vector_mask(NULL, 0, mask), -EINVAL);
	KUNIT_EXPECT_EQ(test, irq_spread_dev_vector_mask(sd, 0, NULL), -EINVAL);
	KUNIT_EXPECT_EQ(test, irq_spread_dev_vector_mask(sd, 4, mask), -EINVAL);
	KUNIT_EXPECT_EQ(test, irq_spread_dev_vector_cpu(NULL, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, irq_spread_dev_vector_cpu(sd, UINT_MAX), -EINVAL);
	KUNIT_EXPECT_EQ(test, irq_spread_dev_set_vectors(NULL, 1), -EINVAL);
	KUNIT_EXPECT_EQ(test, irq_spread_dev_set_vectors(sd, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, irq_spread_dev_set_vectors(sd, 5), -EINVAL);
	KUNIT_EXPECT_EQ(test, irq_spread_dev_set_vectors(sd, UINT_MAX), -EINVAL);
	/* A detach of what is not attached is nothing. */
	irq_spread_dev_detach(sd, 1);
	irq_spread_dev_detach(sd, 9);

	KUNIT_EXPECT_EQ(test, irq_spread_dev_attach(sd, 0, FAKE_IRQ_BASE), 0);
	KUNIT_EXPECT_EQ(test, irq_spread_dev_attach(sd, 0, FAKE_IRQ_BASE + 1), -EBUSY);
	/* Someone's notifier is in: the library does not replace it. */
	t->irq[1].foreign = true;
	KUNIT_EXPECT_EQ(test, irq_spread_dev_attach(sd, 1, FAKE_IRQ_BASE + 1), -EBUSY);
	KUNIT_EXPECT_NULL(test, t->irq[1].hint);
	KUNIT_EXPECT_EQ(test, t->irq[1].sets, 0);
	/* An interrupt that takes no affinity: left as it was. */
	t->fail_irq = FAKE_IRQ_BASE + 2;
	KUNIT_EXPECT_EQ(test, irq_spread_dev_attach(sd, 2, FAKE_IRQ_BASE + 2), -EIO);
	KUNIT_EXPECT_NULL(test, t->irq[2].hint);
	KUNIT_EXPECT_NULL(test, t->irq[2].notify);
	t->fail_irq = 0;
	/* A managed interrupt is the interrupt core's: refused, untouched. */
	t->managed_irq = FAKE_IRQ_BASE + 3;
	KUNIT_EXPECT_EQ(test, irq_spread_dev_attach(sd, 3, FAKE_IRQ_BASE + 3), -EINVAL);
	KUNIT_EXPECT_EQ(test, t->irq[3].sets, 0);
	KUNIT_EXPECT_NULL(test, t->irq[3].hint);
	KUNIT_EXPECT_NULL(test, t->irq[3].notify);
	t->managed_irq = 0;
	KUNIT_EXPECT_EQ(test, irq_spread_dev_attach(sd, 2, FAKE_IRQ_BASE + 2), 0);

	KUNIT_EXPECT_EQ(test, sd->nr_active, 4);
	KUNIT_EXPECT_EQ(test, sd->nr, 4);
	KUNIT_EXPECT_STREQ(test, dev_masks(test, sd, 4), "0;1;2;3");
	/*
	 * Only a vector with an interrupt counts: 0 (CPU 0) and 2 (CPU 2),
	 * 1 each.  The refused attaches (0's second, 1's, 2's first) count
	 * nothing, and 3 has none: 2.
	 */
	KUNIT_EXPECT_EQ(test, irq_spread_test_load_sum(&t->m->topo), 2);
	/* The others attached too: the 4 vectors, 1 on each of CPUs 0-3. */
	t->irq[1].foreign = false;
	KUNIT_EXPECT_EQ(test, irq_spread_dev_attach(sd, 1, FAKE_IRQ_BASE + 1), 0);
	KUNIT_EXPECT_EQ(test, irq_spread_dev_attach(sd, 3, FAKE_IRQ_BASE + 3), 0);
	KUNIT_EXPECT_EQ(test, irq_spread_test_load_sum(&t->m->topo), 4);
	free_cpumask_var(mask);
}

/*
 * Reserved vectors: one before, with spread vector 0 (MANA's HWC sharing
 * queue 0's CPU), one after on every CPU (a control vector): never in the
 * load, following what they follow.
 */
static void irq_spread_test_dev_reserved(struct kunit *test)
{
	static const int reserved[] = { 0, IRQ_SPREAD_ALL_CPUS };
	struct irq_spread_dev_info info = spread_info(test->priv, 0,
						   IRQ_SPREAD_NUMA, 3);
	struct dev_test *t = test->priv;
	struct irq_spread_dev *sd;

	info.pre_vectors = 1;
	info.post_vectors = 1;
	info.reserved = reserved;
	sd = dev_register_info(test, &info);
	dev_attach_all(test, sd, 5);
	KUNIT_EXPECT_STREQ(test, fake_affinities(test, 5), "0;0;1;2;0-7");
	KUNIT_EXPECT_EQ(test, irq_spread_test_load_sum(&t->m->topo), 3);
	KUNIT_EXPECT_STREQ(test, dev_debugfs(test),
			   "numa 0 100 pre active 0\n"
			   "numa 1 101 spread active 0\n"
			   "numa 2 102 spread active 1\n"
			   "numa 3 103 spread active 2\n"
			   "numa 4 104 post active 0-7\n");

	/* Spread vector 0 moves: the HWC vector with it. */
	KUNIT_EXPECT_EQ(test, dev_store(test, "policy", "core"), 4);
	KUNIT_EXPECT_STREQ(test, fake_affinities(test, 5), "0;0;2;4;0-7");
	KUNIT_EXPECT_STREQ(test, dev_calls(test, sd), "2:2 3:4");
	fake_notify(test);
	play_cpu_offline(test, 0);
	KUNIT_EXPECT_STREQ(test, fake_affinities(test, 5), "1;1;2;4;1-7");
	KUNIT_EXPECT_EQ(test, irq_spread_test_load_sum(&t->m->topo), 3);
	KUNIT_EXPECT_STREQ(test, dev_calls(test, sd), "0:1 1:1 4:1-7");
	play_cpu_online(test, 0);
	KUNIT_EXPECT_STREQ(test, fake_affinities(test, 5), "0;0;2;4;0-7");

	/* The administrator may set a reserved vector too. */
	fake_notify(test);
	admin_set(test, 4, BIT(5));
	KUNIT_EXPECT_STREQ(test, dev_masks(test, sd, 5), "0;0;2;4;5");
}

/*
 * ethtool -L: only vectors whose mask changes are applied, the unused
 * ones lose their hint and leave the load; back up, they are applied.
 */
static void irq_spread_test_dev_set_vectors(struct kunit *test)
{
	struct irq_spread_dev *sd = dev_register(test, IRQ_SPREAD_NUMA_CORE, 4);
	struct dev_test *t = test->priv;

	fake_sets_zero(test);
	KUNIT_EXPECT_EQ(test, irq_spread_dev_set_vectors(sd, 2), 0);
	/* Two vectors on two cores: each its whole core. */
	KUNIT_EXPECT_STREQ(test, fake_affinities(test, 4), "0-1;2-3;1;3");
	KUNIT_EXPECT_STREQ(test, dev_masks(test, sd, 4), "0-1;2-3;-;-");
	KUNIT_EXPECT_EQ(test, fake_sets(test, 4), 2);
	KUNIT_EXPECT_NULL(test, t->irq[2].hint);
	KUNIT_EXPECT_NULL(test, t->irq[3].hint);
	KUNIT_EXPECT_EQ(test, irq_spread_test_load_sum(&t->m->topo), 4);
	KUNIT_EXPECT_STREQ(test, dev_calls(test, sd), "0:0-1 1:2-3");
	KUNIT_EXPECT_STREQ(test, dev_debugfs(test),
			   "numa-core 0 100 spread active 0-1\n"
			   "numa-core 1 101 spread active 2-3\n"
			   "numa-core 2 102 spread inactive -\n"
			   "numa-core 3 103 spread inactive -\n");

	/* The same count again: nothing to do. */
	fake_notify(test);
	fake_sets_zero(test);
	KUNIT_EXPECT_EQ(test, irq_spread_dev_set_vectors(sd, 2), 0);
	KUNIT_EXPECT_EQ(test, fake_sets(test, 4), 0);

	KUNIT_EXPECT_EQ(test, irq_spread_dev_set_vectors(sd, 3), 0);
	KUNIT_EXPECT_STREQ(test, fake_affinities(test, 4), "0;2-3;1;3");
	KUNIT_EXPECT_EQ(test, fake_sets(test, 4), 2);
	KUNIT_EXPECT_NOT_NULL(test, t->irq[2].hint);
	KUNIT_EXPECT_NULL(test, t->irq[3].hint);
	KUNIT_EXPECT_STREQ(test, dev_calls(test, sd), "0:0 2:1");
	fake_notify(test);
	KUNIT_EXPECT_STREQ(test, dev_calls(test, sd), "");
}

/* A refused vector: all or nothing, as it was before the call. */
static void irq_spread_test_dev_set_vectors_fails(struct kunit *test)
{
	struct irq_spread_dev *sd = dev_register(test, IRQ_SPREAD_NUMA_CORE, 4);
	struct dev_test *t = test->priv;

	t->fail_irq = FAKE_IRQ_BASE + 1;
	KUNIT_EXPECT_EQ(test, irq_spread_dev_set_vectors(sd, 2), -EIO);
	KUNIT_EXPECT_STREQ(test, fake_affinities(test, 4), "0;2;1;3");
	KUNIT_EXPECT_STREQ(test, dev_masks(test, sd, 4), "0;2;1;3");
	KUNIT_EXPECT_EQ(test, sd->nr_active, 4);
	KUNIT_EXPECT_EQ(test, irq_spread_test_load_sum(&t->m->topo), 4);
	/* The refused one's hint is its old mask again. */
	KUNIT_ASSERT_NOT_NULL(test, t->irq[1].hint);
	KUNIT_EXPECT_EQ(test, cpumask_bits(t->irq[1].hint)[0], BIT(2));
	KUNIT_EXPECT_NOT_NULL(test, t->irq[3].hint);
	/* The refusals' notifications are not the administrator's. */
	fake_notify(test);
	KUNIT_EXPECT_STREQ(test, dev_calls(test, sd), "");
	KUNIT_EXPECT_FALSE(test, sd->vec[0]->admin);
	KUNIT_EXPECT_FALSE(test, sd->vec[1]->admin);

	/* The next policy write places the 2 the driver has in use. */
	t->fail_irq = 0;
	KUNIT_EXPECT_EQ(test, dev_store(test, "policy", "numa-core"), 9);
	KUNIT_EXPECT_EQ(test, sd->nr_active, 2);
	KUNIT_EXPECT_STREQ(test, fake_affinities(test, 2), "0-1;2-3");
	KUNIT_EXPECT_STREQ(test, dev_debugfs(test),
			   "numa-core 0 100 spread active 0-1\n"
			   "numa-core 1 101 spread active 2-3\n"
			   "numa-core 2 102 spread inactive -\n"
			   "numa-core 3 103 spread inactive -\n");
	KUNIT_EXPECT_EQ(test, irq_spread_dev_set_vectors(sd, 2), 0);
	KUNIT_EXPECT_STREQ(test, fake_affinities(test, 2), "0-1;2-3");
}

/**
 * struct store_case - a policy written to a device
 * @desc: what the case tests
 * @val: what is written
 * @policy: the device's policy after
 * @show: the policy file after
 * @aff: the vectors' affinities after
 * @admin: vector 1 is still the administrator's after
 */
struct store_case {
	const char *desc;
	const char *val;
	enum irq_spread_policy policy;
	const char *show;
	const char *aff;
	bool admin;
};

/* From numa, with vector 1 moved to CPU 7 by the administrator. */
static const struct store_case store_cases[] = {
	{ "numa-core",	"numa-core",	IRQ_SPREAD_NUMA_CORE,
	  "numa [numa-core] core\n",	"0;2;1;3",	false },
	{ "core",	"core\n",	IRQ_SPREAD_CORE,
	  "numa numa-core [core]\n",	"0;2;4;6",	false },
	{ "numa again",	"numa",		IRQ_SPREAD_NUMA,
	  "[numa] numa-core core\n",	"0;7;2;3",	true },
};

static void store_case_desc(const struct store_case *c, char *desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(store, store_cases, store_case_desc);

/*
 * Writing a new policy applies it to every vector, the administrator's
 * too; writing the device's own changes nothing.
 */
static void irq_spread_test_dev_store(struct kunit *test)
{
	const struct store_case *c = test->param_value;
	struct irq_spread_dev *sd = dev_register(test, IRQ_SPREAD_NUMA, 4);
	struct dev_test *t = test->priv;

	admin_set(test, 1, BIT(7));
	KUNIT_ASSERT_STREQ(test, fake_affinities(test, 4), "0;7;2;3");
	KUNIT_ASSERT_STREQ(test, dev_calls(test, sd), "1:7");

	KUNIT_EXPECT_EQ(test, dev_store(test, "policy", c->val), strlen(c->val));
	KUNIT_EXPECT_EQ(test, sd->policy, c->policy);
	KUNIT_EXPECT_STREQ(test, dev_show(test, "policy"), c->show);
	KUNIT_EXPECT_STREQ(test, fake_affinities(test, 4), c->aff);
	KUNIT_EXPECT_STREQ(test, dev_masks(test, sd, 4), c->aff);
	KUNIT_EXPECT_EQ(test, sd->vec[1]->admin, c->admin);
	KUNIT_EXPECT_EQ(test, irq_spread_test_load_sum(&t->m->topo), 4);
	fake_notify(test);
	KUNIT_EXPECT_EQ(test, sd->vec[1]->admin, c->admin);
	if (c->admin)
		KUNIT_EXPECT_STREQ(test, dev_calls(test, sd), "");
}

/*
 * Writing the policy or the CPUs a device has changes nothing: no
 * interrupt is set, the driver hears of nothing.
 */
static void irq_spread_test_dev_store_same(struct kunit *test)
{
	struct irq_spread_dev *sd = dev_register(test, IRQ_SPREAD_NUMA, 4);
	unsigned int sets;

	KUNIT_ASSERT_EQ(test, dev_store(test, "cpus", "2-5"), 3);
	KUNIT_ASSERT_STREQ(test, fake_affinities(test, 4), "2;3;4;5");
	KUNIT_ASSERT_STREQ(test, dev_calls(test, sd), "0:2 1:3 2:4 3:5");
	admin_set(test, 1, BIT(7));
	KUNIT_ASSERT_STREQ(test, dev_calls(test, sd), "1:7");
	sets = fake_sets(test, 4);

	KUNIT_EXPECT_EQ(test, dev_store(test, "policy", "numa"), 4);
	KUNIT_EXPECT_EQ(test, dev_store(test, "cpus", "2-5\n"), 4);
	KUNIT_EXPECT_EQ(test, fake_sets(test, 4), sets);
	KUNIT_EXPECT_STREQ(test, fake_affinities(test, 4), "2;7;4;5");
	KUNIT_EXPECT_TRUE(test, sd->vec[1]->admin);
	KUNIT_EXPECT_STREQ(test, dev_calls(test, sd), "");

	/* Only CPU 2: every vector there but the administrator's. */
	KUNIT_EXPECT_EQ(test, irq_spread_dev_set(sd, IRQ_SPREAD_NUMA,
						 cpumask_of(2)), 1);
	KUNIT_EXPECT_STREQ(test, fake_affinities(test, 4), "2;7;2;2");
	sets = fake_sets(test, 4);
	KUNIT_EXPECT_EQ(test, irq_spread_dev_set(sd, IRQ_SPREAD_NUMA,
						 cpumask_of(2)), 0);
	KUNIT_EXPECT_EQ(test, fake_sets(test, 4), sets);
	KUNIT_EXPECT_STREQ(test, fake_affinities(test, 4), "2;7;2;2");
	KUNIT_EXPECT_TRUE(test, sd->vec[1]->admin);
}

/*
 * irq_spread_dev_set(): the policy and the CPUs as one change, both or
 * neither; a new policy hands the administrator's vector back.
 */
static void irq_spread_test_dev_set_both(struct kunit *test)
{
	struct irq_spread_dev *sd = dev_register(test, IRQ_SPREAD_NUMA, 4);
	struct dev_test *t = test->priv;
	struct cpumask *cpus;
	const char *table;

	cpus = kunit_kzalloc(test, cpumask_size(), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, cpus);
	admin_set(test, 1, BIT(7));
	KUNIT_ASSERT_STREQ(test, dev_calls(test, sd), "1:7");
	table = dev_debugfs(test);

	/* CPUs 2-7 under core: one vector per core, cores 1, 2 and 3 first. */
	cpumask_clear(cpus);
	bitmap_set(cpumask_bits(cpus), 2, 6);
	t->fail_irq = FAKE_IRQ_BASE + 3;
	KUNIT_EXPECT_EQ(test, irq_spread_dev_set(sd, IRQ_SPREAD_CORE, cpus),
			-EIO);
	KUNIT_EXPECT_STREQ(test, dev_show(test, "policy"), "[numa] numa-core core\n");
	KUNIT_EXPECT_STREQ(test, dev_show(test, "cpus"), "0-7\n");
	KUNIT_EXPECT_STREQ(test, fake_affinities(test, 4), "0;7;2;3");
	KUNIT_EXPECT_STREQ(test, dev_debugfs(test), table);
	KUNIT_EXPECT_TRUE(test, sd->vec[1]->admin);

	t->fail_irq = 0;
	KUNIT_EXPECT_EQ(test, irq_spread_dev_set(sd, IRQ_SPREAD_CORE, cpus), 1);
	KUNIT_EXPECT_STREQ(test, dev_show(test, "policy"), "numa numa-core [core]\n");
	KUNIT_EXPECT_STREQ(test, dev_show(test, "cpus"), "2-7\n");
	KUNIT_EXPECT_STREQ(test, fake_affinities(test, 4), "2;4;6;3");
	KUNIT_EXPECT_FALSE(test, sd->vec[1]->admin);

	KUNIT_EXPECT_EQ(test, irq_spread_dev_set(NULL, IRQ_SPREAD_CORE, cpus),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, irq_spread_dev_set(sd, IRQ_SPREAD_NR_POLICIES,
						 cpus), -EINVAL);
	KUNIT_EXPECT_STREQ(test, dev_show(test, "policy"), "numa numa-core [core]\n");

	/* No CPUs: the device keeps its own; what it has changes nothing. */
	KUNIT_EXPECT_EQ(test, irq_spread_dev_set(sd, IRQ_SPREAD_CORE, NULL), 0);
	KUNIT_EXPECT_STREQ(test, fake_affinities(test, 4), "2;4;6;3");
	KUNIT_EXPECT_EQ(test, irq_spread_dev_set(sd, IRQ_SPREAD_NUMA, NULL), 1);
	KUNIT_EXPECT_STREQ(test, dev_show(test, "policy"), "[numa] numa-core core\n");
	KUNIT_EXPECT_STREQ(test, dev_show(test, "cpus"), "2-7\n");

	/* The device's own policy, whichever it is, on all CPUs: numa, 0-3. */
	cpumask_clear(cpus);
	bitmap_set(cpumask_bits(cpus), 0, 8);
	KUNIT_EXPECT_EQ(test, irq_spread_dev_set(sd, IRQ_SPREAD_KEEP_POLICY,
						 cpus), 1);
	KUNIT_EXPECT_STREQ(test, dev_show(test, "policy"), "[numa] numa-core core\n");
	KUNIT_EXPECT_STREQ(test, dev_show(test, "cpus"), "0-7\n");
	KUNIT_EXPECT_STREQ(test, fake_affinities(test, 4), "0;1;2;3");
	KUNIT_EXPECT_EQ(test, irq_spread_dev_set(sd, IRQ_SPREAD_KEEP_POLICY,
						 NULL), 0);
}

/*
 * A vector the administrator set goes back to where the policy places it
 * when asked, and only then; the others stay where they are.
 */
static void irq_spread_test_dev_to_policy(struct kunit *test)
{
	struct irq_spread_dev *sd = dev_register(test, IRQ_SPREAD_NUMA, 4);
	struct dev_test *t = test->priv;
	unsigned int sets;

	admin_set(test, 1, BIT(7));
	admin_set(test, 2, BIT(6));
	KUNIT_ASSERT_STREQ(test, fake_affinities(test, 4), "0;7;6;3");
	KUNIT_ASSERT_STREQ(test, dev_calls(test, sd), "1:7 2:6");

	sets = fake_sets(test, 4);
	KUNIT_EXPECT_EQ(test, irq_spread_dev_vector_to_policy(sd, 0), 0);
	KUNIT_EXPECT_EQ(test, fake_sets(test, 4), sets);

	t->fail_irq = FAKE_IRQ_BASE + 1;
	KUNIT_EXPECT_EQ(test, irq_spread_dev_vector_to_policy(sd, 1), -EIO);
	KUNIT_EXPECT_STREQ(test, fake_affinities(test, 4), "0;7;6;3");
	KUNIT_EXPECT_TRUE(test, irq_spread_dev_vector_admin(sd, 1));
	KUNIT_EXPECT_STREQ(test, dev_calls(test, sd), "");

	t->fail_irq = 0;
	KUNIT_EXPECT_EQ(test, irq_spread_dev_vector_to_policy(sd, 1), 0);
	KUNIT_EXPECT_STREQ(test, fake_affinities(test, 4), "0;1;6;3");
	KUNIT_EXPECT_FALSE(test, irq_spread_dev_vector_admin(sd, 1));
	KUNIT_EXPECT_TRUE(test, irq_spread_dev_vector_admin(sd, 2));
	KUNIT_EXPECT_STREQ(test, dev_calls(test, sd), "1:1");
	fake_notify(test);
	KUNIT_EXPECT_FALSE(test, irq_spread_dev_vector_admin(sd, 1));

	KUNIT_EXPECT_EQ(test, irq_spread_dev_vector_to_policy(sd, 4), -EINVAL);
	KUNIT_EXPECT_EQ(test, irq_spread_dev_vector_to_policy(NULL, 1), -EINVAL);
	KUNIT_EXPECT_STREQ(test, fake_affinities(test, 4), "0;1;6;3");
}

/*
 * Writes need CAP_NET_ADMIN in the initial user namespace: without it they
 * fail with EPERM and change nothing; reading needs nothing.
 */
static void irq_spread_test_dev_store_perm(struct kunit *test)
{
	struct irq_spread_dev *sd = dev_register(test, IRQ_SPREAD_NUMA, 4);
	struct cred *cred = prepare_creds();
	const struct cred *old;

	KUNIT_ASSERT_NOT_NULL(test, cred);
	cap_lower(cred->cap_effective, CAP_NET_ADMIN);
	old = override_creds(cred);
	KUNIT_EXPECT_EQ(test, dev_store(test, "policy", "core"), -EPERM);
	KUNIT_EXPECT_EQ(test, dev_store(test, "cpus", "4-7"), -EPERM);
	KUNIT_EXPECT_STREQ(test, dev_show(test, "policy"), "[numa] numa-core core\n");
	KUNIT_EXPECT_STREQ(test, dev_show(test, "cpus"), "0-7\n");
	revert_creds(old);
	put_cred(cred);
	KUNIT_EXPECT_STREQ(test, fake_affinities(test, 4), "0;1;2;3");
	KUNIT_EXPECT_EQ(test, sd->policy, IRQ_SPREAD_NUMA);
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
	struct irq_spread_dev *sd = dev_register(test, IRQ_SPREAD_NUMA_CORE, 4);
	const char *table;

	admin_set(test, 1, BIT(7));
	table = dev_debugfs(test);
	KUNIT_ASSERT_STREQ(test, table,
			   "numa-core 0 100 spread active 0\n"
			   "numa-core 1 101 spread admin 7\n"
			   "numa-core 2 102 spread active 1\n"
			   "numa-core 3 103 spread active 3\n");
	fake_sets_zero(test);

	KUNIT_EXPECT_EQ(test, dev_store(test, "policy", val ?: long_value(test)),
			-EINVAL);
	KUNIT_EXPECT_STREQ(test, dev_show(test, "policy"), "numa [numa-core] core\n");
	KUNIT_EXPECT_STREQ(test, dev_debugfs(test), table);
	KUNIT_EXPECT_EQ(test, fake_sets(test, 4), 0);
	KUNIT_EXPECT_EQ(test, irq_spread_test_load_sum(sd->topo), 4);
}

/*
 * A policy write the interrupt core refuses for one vector: the policy,
 * the placement, the interrupts and the administrator's vector are as
 * they were, and the driver hears of nothing.
 */
static void irq_spread_test_dev_store_fails(struct kunit *test)
{
	struct irq_spread_dev *sd = dev_register(test, IRQ_SPREAD_NUMA, 4);
	struct dev_test *t = test->priv;
	const char *table;

	admin_set(test, 1, BIT(7));
	KUNIT_ASSERT_STREQ(test, dev_calls(test, sd), "1:7");
	table = dev_debugfs(test);

	t->fail_irq = FAKE_IRQ_BASE + 3;
	KUNIT_EXPECT_EQ(test, dev_store(test, "policy", "core"), -EIO);
	KUNIT_EXPECT_STREQ(test, dev_show(test, "policy"), "[numa] numa-core core\n");
	KUNIT_EXPECT_STREQ(test, fake_affinities(test, 4), "0;7;2;3");
	KUNIT_EXPECT_STREQ(test, dev_debugfs(test), table);
	KUNIT_EXPECT_EQ(test, irq_spread_test_load_sum(&t->m->topo), 4);
	KUNIT_EXPECT_EQ(test, sd->topo->load[1], 1);
	fake_notify(test);
	KUNIT_EXPECT_STREQ(test, dev_debugfs(test), table);
	KUNIT_EXPECT_STREQ(test, dev_calls(test, sd), "");

	t->fail_irq = 0;
	KUNIT_EXPECT_EQ(test, dev_store(test, "policy", "core"), 4);
	KUNIT_EXPECT_STREQ(test, fake_affinities(test, 4), "0;2;4;6");
}

/*
 * The administrator's mask, from the notifier: it survives channel
 * changes, the CPU hotplug of another CPU and reads of every file, until
 * a policy is written; the others follow the policy as if it were not.
 */
static void irq_spread_test_dev_admin(struct kunit *test)
{
	struct irq_spread_dev *sd = dev_register(test, IRQ_SPREAD_NUMA, 4);
	struct dev_test *t = test->priv;

	admin_set(test, 1, BIT(7));
	KUNIT_EXPECT_STREQ(test, dev_calls(test, sd), "1:7");
	KUNIT_EXPECT_EQ(test, irq_spread_dev_vector_cpu(sd, 1), 7);
	KUNIT_EXPECT_EQ(test, irq_spread_dev_set_vectors(sd, 4), 0);
	KUNIT_EXPECT_STREQ(test, fake_affinities(test, 4), "0;7;2;3");

	KUNIT_EXPECT_EQ(test, irq_spread_dev_set_vectors(sd, 2), 0);
	KUNIT_EXPECT_STREQ(test, dev_debugfs(test),
			   "numa 0 100 spread active 0\n"
			   "numa 1 101 spread admin 7\n"
			   "numa 2 102 spread inactive -\n"
			   "numa 3 103 spread inactive -\n");
	KUNIT_EXPECT_EQ(test, irq_spread_dev_vector_cpu(sd, 3), -ENODATA);
	KUNIT_EXPECT_TRUE(test, irq_spread_dev_vector_admin(sd, 1));
	KUNIT_EXPECT_FALSE(test, irq_spread_dev_vector_admin(sd, 0));
	KUNIT_EXPECT_FALSE(test, irq_spread_dev_vector_admin(NULL, 1));
	KUNIT_EXPECT_NULL(test, t->irq[2].hint);
	KUNIT_EXPECT_EQ(test, irq_spread_test_load_sum(&t->m->topo), 2);
	KUNIT_EXPECT_STREQ(test, dev_calls(test, sd), "");

	/* Set while not in use: not the administrator's; placed when back. */
	fake_notify(test);
	admin_set(test, 3, BIT(5) | BIT(6));
	KUNIT_EXPECT_EQ(test, irq_spread_dev_set_vectors(sd, 4), 0);
	KUNIT_EXPECT_STREQ(test, fake_affinities(test, 4), "0;7;2;3");
	KUNIT_EXPECT_STREQ(test, dev_masks(test, sd, 4), "0;7;2;3");
	KUNIT_EXPECT_STREQ(test, dev_calls(test, sd), "2:2 3:3");

	/*
	 * Another CPU comes and goes: vector 2 alone moves, to where a fresh
	 * placement without CPU 2 has a vector and this one has none; the
	 * administrator's stays.
	 */
	fake_notify(test);
	play_cpu_offline(test, 2);
	__clear_bit(2, t->m->online);
	KUNIT_EXPECT_STREQ(test, fake_affinities(test, 4), "0;7;4;3");
	KUNIT_EXPECT_STREQ(test, dev_calls(test, sd), "2:4");
	__set_bit(2, t->m->online);
	play_cpu_online(test, 2);
	KUNIT_EXPECT_STREQ(test, fake_affinities(test, 4), "0;7;2;3");
	fake_notify(test);
	KUNIT_EXPECT_STREQ(test, dev_calls(test, sd), "2:2");

	/* The same policy again changes nothing; handing it back does. */
	KUNIT_EXPECT_EQ(test, dev_store(test, "policy", "numa\n"), 5);
	KUNIT_EXPECT_STREQ(test, fake_affinities(test, 4), "0;7;2;3");
	KUNIT_EXPECT_STREQ(test, dev_calls(test, sd), "");
	KUNIT_EXPECT_EQ(test, irq_spread_dev_vector_to_policy(sd, 1), 0);
	KUNIT_EXPECT_STREQ(test, fake_affinities(test, 4), "0;1;2;3");
	KUNIT_EXPECT_STREQ(test, dev_calls(test, sd), "1:1");
	fake_notify(test);
	KUNIT_EXPECT_STREQ(test, dev_debugfs(test),
			   "numa 0 100 spread active 0\n"
			   "numa 1 101 spread active 1\n"
			   "numa 2 102 spread active 2\n"
			   "numa 3 103 spread active 3\n");
}

/*
 * A CPU comes online that a device was placed without: the device is
 * placed afresh, applying only what changed, and a vector the interrupt
 * core refuses does not stop the others (no undo on CPU hotplug); the
 * refused one keeps its interrupt's affinity, until a set of the policy
 * the device has places it.  Registered with CPU 1 offline, numa: node
 * 0's threads 0, 2, 3, then node 1's first, 4; with CPU 1 back: 0;1;2;3,
 * vectors 1-3 move, vector 2's interrupt refuses.
 */
static void irq_spread_test_dev_online_refused(struct kunit *test)
{
	struct dev_test *t = test->priv;
	struct irq_spread_dev *sd;

	__clear_bit(1, t->m->online);
	sd = dev_register(test, IRQ_SPREAD_NUMA, 4);
	KUNIT_EXPECT_STREQ(test, fake_affinities(test, 4), "0;2;3;4");
	fake_sets_zero(test);

	t->fail_irq = FAKE_IRQ_BASE + 2;
	__set_bit(1, t->m->online);
	play_cpu_online(test, 1);
	t->fail_irq = 0;
	KUNIT_EXPECT_STREQ(test, fake_affinities(test, 4), "0;1;3;3");
	KUNIT_EXPECT_EQ(test, fake_sets(test, 4), 2);
	KUNIT_EXPECT_EQ(test, irq_spread_test_load_sum(&t->m->topo), 4);

	fake_sets_zero(test);
	KUNIT_EXPECT_EQ(test, irq_spread_dev_set_policy(sd, IRQ_SPREAD_NUMA), 0);
	KUNIT_EXPECT_STREQ(test, fake_affinities(test, 4), "0;1;2;3");
	KUNIT_EXPECT_EQ(test, fake_sets(test, 4), 1);
	KUNIT_EXPECT_EQ(test, irq_spread_dev_set_policy(sd, IRQ_SPREAD_NUMA), 0);
	KUNIT_EXPECT_EQ(test, fake_sets(test, 4), 1);
	KUNIT_EXPECT_EQ(test, irq_spread_test_load_sum(&t->m->topo), 4);
}

/*
 * What debugfs notifiers shows a test that waits: a set of the library's
 * is due until a notification is handled after it; the administrator's
 * write and a refused set make nothing due; each handled notification
 * counts once, and a vector counts from 0 again when attached again.
 */
static void irq_spread_test_dev_notified(struct kunit *test)
{
	struct irq_spread_dev *sd = dev_register(test, IRQ_SPREAD_NUMA, 2);
	struct dev_test *t = test->priv;
	struct irq_spread_vec *v0 = sd->vec[0], *v1 = sd->vec[1];
	unsigned long n1;

	/* Placed at attach, the notifications delivered: 0;1. */
	KUNIT_EXPECT_FALSE(test, v0->notify_due);
	KUNIT_EXPECT_FALSE(test, v1->notify_due);
	KUNIT_EXPECT_EQ(test, v0->notified, 1);
	KUNIT_EXPECT_EQ(test, v1->notified, 1);

	/* numa-core, 0-1;2-3: vector 0 refused, nothing set, nothing due. */
	t->fail_irq = FAKE_IRQ_BASE;
	KUNIT_EXPECT_LT(test, dev_store(test, "policy", "numa-core\n"), 0);
	t->fail_irq = 0;
	KUNIT_EXPECT_FALSE(test, v0->notify_due);
	fake_notify(test);
	KUNIT_EXPECT_EQ(test, v0->notified, 1);

	KUNIT_EXPECT_EQ(test, irq_spread_dev_set_policy(sd, IRQ_SPREAD_NUMA_CORE),
			0);
	KUNIT_EXPECT_STREQ(test, fake_affinities(test, 2), "0-1;2-3");
	KUNIT_EXPECT_TRUE(test, v0->notify_due);
	KUNIT_EXPECT_TRUE(test, v1->notify_due);
	fake_notify(test);
	KUNIT_EXPECT_FALSE(test, v0->notify_due);
	KUNIT_EXPECT_FALSE(test, v1->notify_due);
	KUNIT_EXPECT_EQ(test, v0->notified, 2);

	/* The administrator's write is counted, and makes nothing due. */
	n1 = v1->notified;
	admin_set(test, 1, BIT(3));
	KUNIT_EXPECT_FALSE(test, v1->notify_due);
	KUNIT_EXPECT_EQ(test, v1->notified, n1 + 1);
	KUNIT_EXPECT_EQ(test, v0->notified, 2);

	irq_spread_dev_detach(sd, 0);
	KUNIT_EXPECT_EQ(test, irq_spread_dev_attach(sd, 0, FAKE_IRQ_BASE), 0);
	KUNIT_EXPECT_EQ(test, v0->notified, 0);
	KUNIT_EXPECT_TRUE(test, v0->notify_due);
}

/*
 * CPU hotplug takes the last online CPU of a vector's mask without the
 * library moving it first (a CPU the library's callbacks did not see
 * leave): the interrupt core falls back to every online CPU and notifies
 * that.  It is not the administrator's.  numa, 4 vectors on node 0:
 * 0;1;2;3, CPU 2 goes.
 */
static void irq_spread_test_dev_hotplug_fallback(struct kunit *test)
{
	struct irq_spread_dev *sd = dev_register(test, IRQ_SPREAD_NUMA, 4);
	struct dev_test *t = test->priv;

	__clear_bit(2, t->m->online);
	t->irq[2].aff = BIT(0) | BIT(1) | BIT(3) | BIT(4) | BIT(5) | BIT(6) |
			BIT(7);
	t->irq[2].pending = true;
	fake_notify(test);
	__set_bit(2, t->m->online);
	KUNIT_EXPECT_FALSE(test, sd->vec[2]->admin);
	KUNIT_EXPECT_STREQ(test, dev_calls(test, sd), "");
	/* A write with the CPU back is the administrator's. */
	admin_set(test, 2, BIT(5));
	KUNIT_EXPECT_TRUE(test, sd->vec[2]->admin);
}

/*
 * A registration whose class device cannot be created, while the driver
 * is being told of a change that came in the meantime (a CPU going
 * offline): the error comes back only once the driver has heard the last
 * of the device, whose memory goes with the error.
 */
static struct {
	struct completion in_changed, release;
	struct delayed_work later;
	bool done;
} reg_fail;

static void reg_fail_changed(void *priv, unsigned int vector,
			     const struct cpumask *mask)
{
	complete(&reg_fail.in_changed);
	wait_for_completion(&reg_fail.release);
	WRITE_ONCE(reg_fail.done, true);
}

static const struct irq_spread_dev_ops reg_fail_ops = {
	.changed	= reg_fail_changed,
};

static void reg_fail_release(struct work_struct *work)
{
	complete(&reg_fail.release);
}

/* The device is listed: take its vector 0's CPU offline, then fail. */
static int reg_fail_class_add(struct irq_spread_dev *sd)
{
	struct kunit *test = kunit_get_current_test();
	int cpu = irq_spread_dev_vector_cpu(sd, 0);

	KUNIT_ASSERT_GE(test, cpu, 0);
	irq_spread_devs_cpu_offline(&cur_test()->m->topo, cpu);
	KUNIT_ASSERT_GT(test, wait_for_completion_timeout(&reg_fail.in_changed,
							  10 * HZ), 0);
	/* Long after a registration that did not wait would be back. */
	schedule_delayed_work(&reg_fail.later, HZ);
	return -ENOMEM;
}

static void irq_spread_test_dev_register_class_fails(struct kunit *test)
{
	struct irq_spread_dev_info info = spread_info(test->priv, 0,
						   IRQ_SPREAD_NUMA, 4);

	init_completion(&reg_fail.in_changed);
	init_completion(&reg_fail.release);
	INIT_DELAYED_WORK(&reg_fail.later, reg_fail_release);
	reg_fail.done = false;
	info.ops = &reg_fail_ops;
	kunit_activate_static_stub(test, irq_spread_dev_class_add,
				   reg_fail_class_add);
	KUNIT_EXPECT_EQ(test, PTR_ERR(irq_spread_dev_topo_register(&cur_test()->m->topo,
								   &info)),
			-ENOMEM);
	KUNIT_EXPECT_TRUE(test, READ_ONCE(reg_fail.done));
	flush_delayed_work(&reg_fail.later);
	/* Nothing left listed: the same device registers again. */
	kunit_deactivate_static_stub(test, irq_spread_dev_class_add);
	info.ops = &fake_ops;
	dev_register_info(test, &info);
}

/* As net core: set the interrupt as irq_set_affinity() does, count it. */
static int fake_caller_apply(void *priv, unsigned int vector, unsigned int irq,
			     const struct cpumask *mask, bool placed)
{
	struct dev_test *t = priv;

	t->applies++;
	return placed ? fake_place(irq, mask) : fake_affinity(irq, mask);
}

static const struct irq_spread_dev_ops fake_caller_ops = {
	.changed	= fake_changed,
	.apply		= fake_caller_apply,
};

/* Pass IRQ @i's notification on, as net core's notifier does. */
static void caller_notify(struct kunit *test, struct irq_spread_dev *sd,
			  unsigned int i)
{
	struct dev_test *t = test->priv;
	cpumask_var_t mask;

	KUNIT_ASSERT_TRUE(test, zalloc_cpumask_var(&mask, GFP_KERNEL));
	cpumask_bits(mask)[0] = t->irq[i].aff;
	t->irq[i].pending = false;
	irq_spread_dev_notify(sd, i, mask);
	free_cpumask_var(mask);
}

/*
 * irq_spread_dev_notify() passes on a caller's notification: for no
 * device, or one whose interrupts the library sets itself (no
 * &irq_spread_dev_ops.apply), it does nothing.  The administrator's write
 * of CPU 6 to vector 1's interrupt, passed on so, is not taken: the vector
 * is not the administrator's, the driver is told of no change.
 */
static void irq_spread_test_dev_notify_misuse(struct kunit *test)
{
	struct dev_test *t = test->priv;
	struct irq_spread_dev *sd = dev_register(test, IRQ_SPREAD_NUMA, 2);

	fake_notify(test);
	dev_calls(test, sd);
	t->irq[1].aff = BIT(6);
	t->irq[1].state = IRQ_PLACEMENT_USER;
	caller_notify(test, NULL, 1);
	caller_notify(test, sd, 1);
	KUNIT_EXPECT_FALSE(test, irq_spread_dev_vector_admin(sd, 1));
	KUNIT_EXPECT_STREQ(test, dev_calls(test, sd), "");
}

/*
 * A caller that sets the interrupts and holds their one notifier (net
 * core, &irq_spread_dev_ops.apply): the library sets them through it
 * alone, with no hint and no notifier of its own, and tells the
 * administrator's writes in the notifications the caller passes on from
 * its own and from CPU hotplug's fallback.  numa, 4 vectors on node 0:
 * 0;1;2;3.
 */
static void irq_spread_test_dev_caller_applies(struct kunit *test)
{
	struct dev_test *t = test->priv;
	struct irq_spread_dev_info info = spread_info(t, 0, IRQ_SPREAD_NUMA, 4);
	struct irq_spread_dev *sd;
	unsigned int i;

	info.ops = &fake_caller_ops;
	sd = dev_register_info(test, &info);
	for (i = 0; i < 4; i++)
		KUNIT_ASSERT_EQ(test, irq_spread_dev_attach(sd, i,
							    FAKE_IRQ_BASE + i), 0);
	KUNIT_EXPECT_STREQ(test, fake_affinities(test, 4), "0;1;2;3");
	KUNIT_EXPECT_EQ(test, t->applies, 4);
	for (i = 0; i < 4; i++) {
		KUNIT_EXPECT_NULL(test, t->irq[i].hint);
		KUNIT_EXPECT_NULL(test, t->irq[i].notify);
	}

	/* Its own sets, passed on: nobody's but the library's. */
	for (i = 0; i < 4; i++)
		caller_notify(test, sd, i);
	KUNIT_EXPECT_FALSE(test, irq_spread_dev_vector_admin(sd, 0));

	/* The administrator writes CPU 6 to vector 1's interrupt. */
	t->irq[1].aff = BIT(6);
	t->irq[1].state = IRQ_PLACEMENT_USER;
	caller_notify(test, sd, 1);
	KUNIT_EXPECT_TRUE(test, irq_spread_dev_vector_admin(sd, 1));
	KUNIT_EXPECT_STREQ(test, dev_calls(test, sd), "1:6");

	/* CPU 2 goes unseen: the fallback is not the administrator's. */
	__clear_bit(2, t->m->online);
	t->irq[2].aff = 0xfb;
	caller_notify(test, sd, 2);
	__set_bit(2, t->m->online);
	KUNIT_EXPECT_FALSE(test, irq_spread_dev_vector_admin(sd, 2));

	/*
	 * Vector 1 handed back, through the caller; vector 2, which the
	 * fallback left on other CPUs, goes home with it; 0 and 3 are not
	 * touched.
	 */
	t->applies = 0;
	KUNIT_EXPECT_EQ(test, irq_spread_dev_vector_to_policy(sd, 1), 0);
	KUNIT_EXPECT_STREQ(test, fake_affinities(test, 4), "0;1;2;3");
	KUNIT_EXPECT_EQ(test, t->applies, 2);
	KUNIT_EXPECT_FALSE(test, irq_spread_dev_vector_admin(sd, 1));

	/* Detached, the interrupt keeps no hint and no notifier either. */
	irq_spread_dev_detach(sd, 3);
	KUNIT_EXPECT_NULL(test, t->irq[3].hint);
	KUNIT_EXPECT_NULL(test, t->irq[3].notify);
	KUNIT_EXPECT_STREQ(test, dev_debugfs(test),
			   "numa 0 100 spread active 0\n"
			   "numa 1 101 spread active 1\n"
			   "numa 2 102 spread active 2\n"
			   "numa 3 - spread active 3\n");
}

/*
 * An administrator's write not notified yet when the vector's interrupt is
 * detached (removing the notifier, at link down say, cancels the
 * notification) is the administrator's all the same: the vector keeps it,
 * and the interrupt attached next gets it.  A detach with nothing written
 * leaves the vector the policy's.  numa, 4 vectors on node 0: 0;1;2;3;
 * the administrator writes CPU 6 to vector 1's interrupt.
 */
static void irq_spread_test_dev_detach_unnotified(struct kunit *test)
{
	struct irq_spread_dev *sd = dev_register(test, IRQ_SPREAD_NUMA, 4);
	struct dev_test *t = test->priv;

	fake_notify(test);
	dev_calls(test, sd);
	t->irq[1].aff = BIT(6);
	t->irq[1].state = IRQ_PLACEMENT_USER;
	t->irq[1].pending = true;
	irq_spread_dev_detach(sd, 1);
	irq_spread_dev_detach(sd, 2);
	KUNIT_EXPECT_NULL(test, t->irq[1].notify);
	KUNIT_EXPECT_NULL(test, t->irq[1].hint);
	KUNIT_EXPECT_TRUE(test, irq_spread_dev_vector_admin(sd, 1));
	KUNIT_EXPECT_EQ(test, irq_spread_dev_vector_cpu(sd, 1), 6);
	KUNIT_EXPECT_FALSE(test, irq_spread_dev_vector_admin(sd, 2));
	KUNIT_EXPECT_EQ(test, irq_spread_dev_vector_cpu(sd, 2), 2);
	KUNIT_EXPECT_STREQ(test, dev_calls(test, sd), "1:6");

	/*
	 * Freed and requested again, on every CPU and nobody's: the
	 * administrator's CPU for 1.
	 */
	t->irq[1].aff = GENMASK(FAKE_NR_CPUS - 1, 0);
	t->irq[2].aff = GENMASK(FAKE_NR_CPUS - 1, 0);
	t->irq[1].state = IRQ_PLACEMENT_NONE;
	t->irq[2].state = IRQ_PLACEMENT_NONE;
	KUNIT_EXPECT_EQ(test, irq_spread_dev_attach(sd, 1, FAKE_IRQ_BASE + 1), 0);
	KUNIT_EXPECT_EQ(test, irq_spread_dev_attach(sd, 2, FAKE_IRQ_BASE + 2), 0);
	fake_notify(test);
	KUNIT_EXPECT_STREQ(test, fake_affinities(test, 4), "0;6;2;3");
	KUNIT_EXPECT_STREQ(test, dev_debugfs(test),
			   "numa 0 100 spread active 0\n"
			   "numa 1 101 spread admin 6\n"
			   "numa 2 102 spread active 2\n"
			   "numa 3 103 spread active 3\n");
}

/*
 * Masks the kernel set are never the administrator's: CPU hotplug's
 * migration of an unused vector (which notifies nobody), and reads of the
 * files, which change nothing.
 */
static void irq_spread_test_dev_kernel_moves(struct kunit *test)
{
	struct irq_spread_dev *sd = dev_register(test, IRQ_SPREAD_NUMA, 4);
	struct dev_test *t = test->priv;
	const char *table;

	KUNIT_EXPECT_EQ(test, irq_spread_dev_set_vectors(sd, 3), 0);
	fake_notify(test);
	/* Vector 3's CPU goes: the interrupt core moves it. */
	play_cpu_offline(test, 3);
	kernel_move(test, 3, BIT(0));
	__clear_bit(3, t->m->online);
	/* An active vector the interrupt core moved, as if it broke it. */
	kernel_move(test, 2, BIT(6));
	fake_sets_zero(test);
	table = dev_debugfs(test);
	KUNIT_EXPECT_STREQ(test, table,
			   "numa 0 100 spread active 0\n"
			   "numa 1 101 spread active 1\n"
			   "numa 2 102 spread active 2\n"
			   "numa 3 103 spread inactive -\n");
	dev_show(test, "policy");
	KUNIT_EXPECT_STREQ(test, dev_debugfs(test), table);
	KUNIT_EXPECT_EQ(test, fake_sets(test, 4), 0);

	__set_bit(3, t->m->online);
	play_cpu_online(test, 3);
	KUNIT_EXPECT_EQ(test, irq_spread_dev_set_vectors(sd, 4), 0);
	fake_notify(test);
	/*
	 * Vector 3 back in use, placed.  Vector 2's move was the interrupt
	 * core's, which the library did not take for the administrator's:
	 * the placement compares with what the interrupt has, and puts it
	 * back.
	 */
	KUNIT_EXPECT_STREQ(test, fake_affinities(test, 4), "0;1;2;3");
	KUNIT_EXPECT_FALSE(test, sd->vec[2]->admin);
	KUNIT_EXPECT_EQ(test, dev_store(test, "policy", "numa"), 4);
	KUNIT_EXPECT_STREQ(test, fake_affinities(test, 4), "0;1;2;3");
	KUNIT_EXPECT_STREQ(test, dev_calls(test, sd), "3:3");
}

/**
 * struct hotplug_case - a CPU going offline and coming back
 * @desc: what the case tests
 * @policy: the device's policy, 4 vectors on node 0
 * @cpu: the CPU
 * @before: the affinities before
 * @during: the affinities while @cpu is offline
 * @moves: the vectors applied when it goes, and as many when it returns
 */
struct hotplug_case {
	const char *desc;
	enum irq_spread_policy policy;
	unsigned int cpu;
	const char *before;
	const char *during;
	unsigned int moves;
};

/*
 * Without the CPU, a fresh placement would be: numa 0;2;3;4 (node 0 has
 * three threads left, then node 1), numa-core 0;2;3;4-5 (core {0} and core
 * {2,3} hold one and two, core {4,5} one) for CPU 1; core 0;2;4;7 for CPU
 * 6 (7 is core {6,7}'s first thread left).  The vector that lost its CPU
 * takes the mask the others do not have.
 */
static const struct hotplug_case hotplug_cases[] = {
	{ "numa, a CPU with a vector", IRQ_SPREAD_NUMA, 1,
	  "0;1;2;3", "0;4;2;3", 1 },
	{ "numa, a CPU without", IRQ_SPREAD_NUMA, 5, "0;1;2;3", "0;1;2;3", 0 },
	{ "numa-core, a CPU with a vector", IRQ_SPREAD_NUMA_CORE, 1,
	  "0;2;1;3", "0;2;4-5;3", 1 },
	{ "numa-core, a CPU without", IRQ_SPREAD_NUMA_CORE, 6,
	  "0;2;1;3", "0;2;1;3", 0 },
	{ "core, a CPU with a vector", IRQ_SPREAD_CORE, 6,
	  "0;2;4;6", "0;2;4;7", 1 },
};

static void hotplug_case_desc(const struct hotplug_case *c, char *desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(hotplug, hotplug_cases, hotplug_case_desc);

/* A spread while @cpu is leaving uses every CPU but @cpu, still online. */
static void irq_spread_test_no_leaving(struct kunit *test, struct test_topo *t,
				       unsigned int cpu)
{
	unsigned long *masks = kunit_kcalloc(test, FAKE_NR_CPUS, t->longs *
					     sizeof(long), GFP_KERNEL);
	unsigned long all = 0;
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, masks);
	KUNIT_ASSERT_TRUE(test, test_bit(cpu, t->online));
	KUNIT_ASSERT_EQ(test, irq_spread_topo_cpus(&t->topo, 0, FAKE_NR_CPUS - 1,
						   IRQ_SPREAD_NUMA, NULL, masks,
						   t->longs), 0);
	for (i = 0; i < FAKE_NR_CPUS - 1; i++)
		all |= masks[i * t->longs];
	irq_spread_topo_release(&t->topo, FAKE_NR_CPUS - 1, masks, t->longs);
	KUNIT_EXPECT_EQ(test, all, GENMASK(FAKE_NR_CPUS - 1, 0) & ~BIT(cpu));
}

/* Hotplug moves the minimum, and moves it back. */
static void irq_spread_test_dev_hotplug(struct kunit *test)
{
	const struct hotplug_case *c = test->param_value;
	struct irq_spread_dev *sd = dev_register(test, c->policy, 4);
	struct dev_test *t = test->priv;
	bool listed;

	KUNIT_ASSERT_STREQ(test, fake_affinities(test, 4), c->before);
	fake_sets_zero(test);
	play_cpu_offline(test, c->cpu);
	KUNIT_EXPECT_STREQ(test, fake_affinities(test, 4), c->during);
	KUNIT_EXPECT_EQ(test, fake_sets(test, 4), c->moves);
	KUNIT_EXPECT_EQ(test, irq_spread_test_load_sum(&t->m->topo),
			c->policy == IRQ_SPREAD_NUMA_CORE && c->moves ? 5 : 4);
	irq_spread_test_no_leaving(test, t->m, c->cpu);
	__clear_bit(c->cpu, t->m->online);

	fake_sets_zero(test);
	__set_bit(c->cpu, t->m->online);
	play_cpu_online(test, c->cpu);
	KUNIT_EXPECT_STREQ(test, fake_affinities(test, 4), c->before);
	KUNIT_EXPECT_EQ(test, fake_sets(test, 4), c->moves);
	KUNIT_EXPECT_EQ(test, irq_spread_test_load_sum(&t->m->topo), 4);
	fake_notify(test);
	KUNIT_EXPECT_FALSE(test, sd->vec[0]->admin || sd->vec[1]->admin ||
			   sd->vec[2]->admin || sd->vec[3]->admin);

	/*
	 * Other machines' CPUs are not this one's: the running machine's,
	 * unless a driver's device is registered there, whose real
	 * interrupts the handlers would move.  A device counts in the load
	 * only once an interrupt is attached, so the list of devices is
	 * looked at too; a pool's requested vectors are in the load.
	 */
	mutex_lock(&irq_spread_system.devs_lock);
	listed = !list_empty(&irq_spread_system.devs);
	mutex_unlock(&irq_spread_system.devs_lock);
	if (listed || irq_spread_test_load_sum(&irq_spread_system)) {
		kunit_info(test, "the running machine has irq_spread devices: its hotplug not played\n");
		return;
	}
	irq_spread_devs_cpu_offline(&irq_spread_system, c->cpu);
	irq_spread_devs_cpu_online(&irq_spread_system, c->cpu);
	KUNIT_EXPECT_STREQ(test, fake_affinities(test, 4), c->before);
}

/*
 * While the system suspends, CPUs going and coming place nothing: the
 * interrupt core brings every interrupt home with its CPU.  A CPU that
 * does not come back is taken offline once the system resumed, as CPU
 * hotplug does ("numa, a CPU with a vector" of hotplug_cases: vector 1
 * to CPU 4), and its vector goes home when it comes online.
 */
static void irq_spread_test_dev_suspend(struct kunit *test)
{
	struct irq_spread_dev *sd = dev_register(test, IRQ_SPREAD_NUMA, 4);
	struct dev_test *t = test->priv;
	struct irq_spread_topology *topo = &t->m->topo;
	unsigned int cpu;

	KUNIT_ASSERT_STREQ(test, fake_affinities(test, 4), "0;1;2;3");
	fake_sets_zero(test);
	for (cpu = FAKE_NR_CPUS - 1; cpu > 0; cpu--) {
		irq_spread_devs_cpu_frozen(topo, cpu, true);
		__clear_bit(cpu, t->m->online);
	}
	KUNIT_EXPECT_EQ(test, fake_sets(test, 4), 0);
	KUNIT_EXPECT_STREQ(test, irq_spread_test_vector_masks(test, sd, 4),
			   "0;1;2;3");
	for (cpu = 1; cpu < FAKE_NR_CPUS; cpu++) {
		__set_bit(cpu, t->m->online);
		irq_spread_devs_cpu_frozen(topo, cpu, false);
	}
	irq_spread_devs_resumed(topo);
	KUNIT_EXPECT_EQ(test, fake_sets(test, 4), 0);
	KUNIT_EXPECT_STREQ(test, irq_spread_test_vector_masks(test, sd, 4),
			   "0;1;2;3");

	irq_spread_devs_cpu_frozen(topo, 1, true);
	__clear_bit(1, t->m->online);
	KUNIT_EXPECT_EQ(test, fake_sets(test, 4), 0);
	irq_spread_devs_resumed(topo);
	KUNIT_EXPECT_STREQ(test, fake_affinities(test, 4), "0;4;2;3");
	KUNIT_EXPECT_EQ(test, fake_sets(test, 4), 1);
	KUNIT_EXPECT_EQ(test, irq_spread_test_load_sum(topo), 4);

	fake_sets_zero(test);
	__set_bit(1, t->m->online);
	play_cpu_online(test, 1);
	KUNIT_EXPECT_STREQ(test, fake_affinities(test, 4), "0;1;2;3");
	KUNIT_EXPECT_EQ(test, fake_sets(test, 4), 1);
	KUNIT_EXPECT_EQ(test, irq_spread_test_load_sum(topo), 4);
}

/* Register another device like @info on @name, its IRQs from @irq on. */
static struct irq_spread_dev *dev_register_other(struct kunit *test,
						 struct irq_spread_dev_info *info,
						 const char *name,
						 unsigned int irq)
{
	struct irq_spread_dev *sd;
	unsigned int i;

	info->dev = kunit_device_register(test, name);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, info->dev);
	sd = dev_register_info(test, info);
	for (i = 0; i < info->nr_vectors; i++)
		KUNIT_ASSERT_EQ(test, irq_spread_dev_attach(sd, i, irq + i), 0);
	fake_notify(test);
	return sd;
}

/*
 * Only a vector with an interrupt counts in the load: a device registered
 * with none attached (a link down, a driver that requests its interrupts
 * as its queues open) pushes no other device away.  numa on node 0 of the
 * 2-node machine, least loaded CPU first, lower numbers on ties:
 *   A, 2 vectors, none attached: 0;1, nothing counted.
 *   B, 2 vectors, attached: 0;1 too (old rule: 2;3).       load 2
 *   A's vector 0 attached, on CPU 0.                       load 3
 *   C, 1 vector: loads 2 1 0 0 on CPUs 0-3: CPU 2.         load 4
 *   A down to 1 vector, itself out: loads 1 1 1 0: CPU 3.  load 4
 *   A's vector 0 detached.                                 load 3
 */
static void irq_spread_test_dev_load_attached(struct kunit *test)
{
	struct irq_spread_dev_info a = spread_info(test->priv, 0,
						   IRQ_SPREAD_NUMA, 2);
	struct irq_spread_dev_info b = a, c = a;
	struct dev_test *t = test->priv;
	struct irq_spread_dev *sa, *sb, *sc;

	c.nr_vectors = 1;
	a.dev = kunit_device_register(test, "irq_spread_test_a");
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, a.dev);
	sa = dev_register_info(test, &a);
	KUNIT_EXPECT_STREQ(test, dev_masks(test, sa, 2), "0;1");
	KUNIT_EXPECT_EQ(test, irq_spread_test_load_sum(&t->m->topo), 0);

	sb = dev_register_other(test, &b, "irq_spread_test_b", FAKE_IRQ_BASE + 2);
	KUNIT_EXPECT_STREQ(test, dev_masks(test, sb, 2), "0;1");
	KUNIT_EXPECT_EQ(test, irq_spread_test_load_sum(&t->m->topo), 2);

	KUNIT_ASSERT_EQ(test, irq_spread_dev_attach(sa, 0, FAKE_IRQ_BASE), 0);
	KUNIT_EXPECT_EQ(test, irq_spread_test_load_sum(&t->m->topo), 3);
	sc = dev_register_other(test, &c, "irq_spread_test_c", FAKE_IRQ_BASE + 4);
	KUNIT_EXPECT_STREQ(test, dev_masks(test, sc, 1), "2");
	KUNIT_EXPECT_EQ(test, irq_spread_test_load_sum(&t->m->topo), 4);

	KUNIT_EXPECT_EQ(test, irq_spread_dev_set_vectors(sa, 1), 0);
	KUNIT_EXPECT_STREQ(test, dev_masks(test, sa, 1), "3");
	KUNIT_EXPECT_EQ(test, irq_spread_test_load_sum(&t->m->topo), 4);
	irq_spread_dev_detach(sa, 0);
	KUNIT_EXPECT_EQ(test, irq_spread_test_load_sum(&t->m->topo), 3);
}

/* CPU @cpu goes offline, then (@back) comes online again. */
static void cpu_cycle(struct kunit *test, unsigned int cpu, bool back)
{
	struct dev_test *t = test->priv;

	if (!test_bit(cpu, t->m->online)) {
		__set_bit(cpu, t->m->online);
		play_cpu_online(test, cpu);
		return;
	}
	play_cpu_offline(test, cpu);
	__clear_bit(cpu, t->m->online);
	if (back) {
		__set_bit(cpu, t->m->online);
		play_cpu_online(test, cpu);
	}
}

/*
 * Devices placed around each other: a CPU coming back moves only what
 * went when it left.  A, no node, numa, 4 vectors: one tier, 0;1;2;3.  B,
 * node 0, numa, 4 vectors: node 0 first whatever its load, 0;1;2;3.
 */
static void irq_spread_test_dev_hotplug_others(struct kunit *test)
{
	struct irq_spread_dev_info a = spread_info(test->priv, NUMA_NO_NODE,
						   IRQ_SPREAD_NUMA, 4);
	struct irq_spread_dev_info b = spread_info(test->priv, 0,
						   IRQ_SPREAD_NUMA, 4);
	struct irq_spread_dev_info c = spread_info(test->priv, 1,
						   IRQ_SPREAD_NUMA, 4);

	dev_register_other(test, &a, "irq_spread_test_a", FAKE_IRQ_BASE);
	dev_register_other(test, &b, "irq_spread_test_b", FAKE_IRQ_BASE + 4);
	KUNIT_ASSERT_STREQ(test, fake_affinities(test, 8), "0;1;2;3;0;1;2;3");

	/* CPU 5, which neither uses: nothing moves, either way. */
	fake_sets_zero(test);
	cpu_cycle(test, 5, true);
	KUNIT_EXPECT_STREQ(test, fake_affinities(test, 8), "0;1;2;3;0;1;2;3");
	KUNIT_EXPECT_EQ(test, fake_sets(test, 8), 0);

	/*
	 * CPU 1, which both use.  A, without CPU 1 and with B's load on 0-3,
	 * would be 4;5;6;7: its vector 1 takes 4, which its others do not
	 * hold.  B, without CPU 1 and with A's load on 0, 2-4, would be
	 * 0;2;3 then node 1's least loaded, 5: its vector 1 takes 5.  Back,
	 * both return, and nothing else moves.
	 */
	cpu_cycle(test, 1, false);
	KUNIT_EXPECT_STREQ(test, fake_affinities(test, 8), "0;4;2;3;0;5;2;3");
	KUNIT_EXPECT_EQ(test, fake_sets(test, 8), 2);
	fake_sets_zero(test);
	cpu_cycle(test, 1, false);
	KUNIT_EXPECT_STREQ(test, fake_affinities(test, 8), "0;1;2;3;0;1;2;3");
	KUNIT_EXPECT_EQ(test, fake_sets(test, 8), 2);
	KUNIT_EXPECT_EQ(test, irq_spread_test_load_sum(&cur_test()->m->topo), 8);

	/*
	 * C, node 1, registered while CPU 6 is offline: 4;5;7 on node 1,
	 * then node 0, whose CPUs hold 2 each: 0.  When CPU 6 comes back, C
	 * was placed without it and is placed afresh: 4;5;6;7.  A and B stay.
	 */
	cpu_cycle(test, 6, false);
	dev_register_other(test, &c, "irq_spread_test_c", FAKE_IRQ_BASE + 8);
	KUNIT_EXPECT_STREQ(test, fake_affinities(test, 12),
			   "0;1;2;3;0;1;2;3;4;5;7;0");
	fake_sets_zero(test);
	cpu_cycle(test, 6, false);
	KUNIT_EXPECT_STREQ(test, fake_affinities(test, 12),
			   "0;1;2;3;0;1;2;3;4;5;6;7");
	KUNIT_EXPECT_EQ(test, fake_sets(test, 12), 2);
}

/* Two nodes of three SMT2 cores, siblings 2k and 2k + 1, distances 10, 20. */
static const char * const three_core_nodes[] = { "0-5", "6-11" };

static const struct test_machine three_core = {
	.name = "2N 3C SMT2", .nr_cpus = 12, .nr_nodes = 2,
	.node_cpus = three_core_nodes, .remote = 20, .smt = 2,
};

/* The first four fake interrupts' affinities are @want, @when. */
static void expect_affinities(struct kunit *test, const unsigned long *want,
			      const char *when)
{
	struct dev_test *t = test->priv;
	unsigned int i;

	for (i = 0; i < 4; i++)
		KUNIT_EXPECT_EQ_MSG(test, t->irq[i].aff, want[i], "vector %u, %s",
				    i, when);
}

/*
 * numa-core, 4 vectors on node 0 of three cores {0,1} {2,3} {4,5}: one a
 * core first, 0, 2, 4, then the first core's other thread, 1; a vector
 * alone on its core has the whole core: 0;2-3;4-5;1.  CPU 1 goes.  Its
 * core keeps one thread, 0, which holds a vector, while CPUs 3 and 5 hold
 * none.  The rules (one vector a core before a second, at most one more
 * vector on a CPU than on another of the node) send the vector to a free
 * thread of another core, the first in CPU order, 3; the vector on 2-3
 * is no longer alone on its core and keeps 2: 0;2;4-5;3.  Not 0, the
 * thread left of CPU 1's core, which would hold two vectors while 3 and 5
 * hold none.  CPU 1 back: both go home, nothing else moves.
 */
static void irq_spread_test_dev_hotplug_three_cores(struct kunit *test)
{
	static const unsigned long before[] = { 0x01, 0x0c, 0x30, 0x02 };
	static const unsigned long during[] = { 0x01, 0x04, 0x30, 0x08 };
	struct dev_test *t = test->priv;

	t->m = irq_spread_test_topo_new(test, &three_core);
	dev_register(test, IRQ_SPREAD_NUMA_CORE, 4);
	expect_affinities(test, before, "registered");

	fake_sets_zero(test);
	cpu_cycle(test, 1, false);
	expect_affinities(test, during, "CPU 1 offline");
	KUNIT_EXPECT_EQ(test, fake_sets(test, 4), 2);
	KUNIT_EXPECT_EQ(test, irq_spread_test_load_sum(&t->m->topo), 5);

	fake_sets_zero(test);
	cpu_cycle(test, 1, false);
	expect_affinities(test, before, "CPU 1 back");
	KUNIT_EXPECT_EQ(test, fake_sets(test, 4), 2);
	KUNIT_EXPECT_EQ(test, irq_spread_test_load_sum(&t->m->topo), 6);
}

/*
 * The interrupt core's notify work copies the interrupt's mask, then the
 * notifier waits for the library's lock: a copy taken before one of the
 * library's own applies arrives after it.  Replayed here, such a copy is
 * stale, not the administrator's, and the vector keeps following the
 * policy.  numa puts 4 vectors on 0;1;2;3, numa-core on 0;2;1;3 and 2
 * vectors on 0-1;2-3.
 */
static void irq_spread_test_dev_stale_notify(struct kunit *test)
{
	struct irq_spread_dev *sd = dev_register(test, IRQ_SPREAD_NUMA, 4);
	struct dev_test *t = test->priv;
	cpumask_var_t copy;
	unsigned int i;

	KUNIT_ASSERT_TRUE(test, zalloc_cpumask_var(&copy, GFP_KERNEL));
	KUNIT_EXPECT_EQ(test, dev_store(test, "policy", "numa-core"), 9);
	KUNIT_EXPECT_STREQ(test, fake_affinities(test, 4), "0;2;1;3");
	/* The copies of IRQs 1 and 2, taken before the write, arrive now. */
	for (i = 1; i <= 2; i++) {
		cpumask_clear(copy);
		cpumask_set_cpu(i, copy);
		t->irq[i].notify->notify(t->irq[i].notify, copy);
	}
	free_cpumask_var(copy);
	fake_notify(test);
	KUNIT_EXPECT_STREQ(test, dev_debugfs(test),
			   "numa-core 0 100 spread active 0\n"
			   "numa-core 1 101 spread active 2\n"
			   "numa-core 2 102 spread active 1\n"
			   "numa-core 3 103 spread active 3\n");
	KUNIT_EXPECT_STREQ(test, dev_calls(test, sd), "1:2 2:1");

	/* Not the administrator's: a channel change moves them. */
	KUNIT_EXPECT_EQ(test, irq_spread_dev_set_vectors(sd, 2), 0);
	KUNIT_EXPECT_STREQ(test, fake_affinities(test, 2), "0-1;2-3");
	KUNIT_EXPECT_STREQ(test, dev_calls(test, sd), "0:0-1 1:2-3");
}

/* numa, 4 vectors, vector 1 the administrator's (7), then detached. */
static struct irq_spread_dev *dev_admin_detached(struct kunit *test)
{
	struct irq_spread_dev *sd = dev_register(test, IRQ_SPREAD_NUMA, 4);

	admin_set(test, 1, BIT(7));
	KUNIT_EXPECT_STREQ(test, dev_calls(test, sd), "1:7");
	irq_spread_dev_detach(sd, 1);
	return sd;
}

/*
 * A vector keeps the administrator's mask while its interrupt is detached
 * (a driver reset frees and requests it again): the next interrupt gets
 * the mask, as affinity without a hint, and is not handed back until a
 * policy is written.
 */
static void irq_spread_test_dev_detach_keeps(struct kunit *test)
{
	struct irq_spread_dev *sd = dev_admin_detached(test);
	struct dev_test *t = test->priv;

	KUNIT_EXPECT_NULL(test, t->irq[1].notify);
	KUNIT_EXPECT_NULL(test, t->irq[1].hint);
	KUNIT_EXPECT_EQ(test, irq_spread_dev_set_vectors(sd, 4), 0);
	KUNIT_EXPECT_STREQ(test, dev_debugfs(test),
			   "numa 0 100 spread active 0\n"
			   "numa 1 - spread admin 7\n"
			   "numa 2 102 spread active 2\n"
			   "numa 3 103 spread active 3\n");

	/* Its next interrupt: the administrator's mask, no hint. */
	t->irq[5].aff = BIT(0);
	KUNIT_EXPECT_EQ(test, irq_spread_dev_attach(sd, 1, FAKE_IRQ_BASE + 5), 0);
	KUNIT_EXPECT_EQ(test, t->irq[5].aff, BIT(7));
	KUNIT_EXPECT_NULL(test, t->irq[5].hint);
	fake_notify(test);
	KUNIT_EXPECT_TRUE(test, irq_spread_dev_vector_admin(sd, 1));
	KUNIT_EXPECT_STREQ(test, dev_calls(test, sd), "");

	KUNIT_EXPECT_EQ(test, irq_spread_dev_vector_to_policy(sd, 1), 0);
	KUNIT_EXPECT_EQ(test, t->irq[5].aff, BIT(1));
	KUNIT_EXPECT_NOT_NULL(test, t->irq[5].hint);
	KUNIT_EXPECT_FALSE(test, irq_spread_dev_vector_admin(sd, 1));
	KUNIT_EXPECT_STREQ(test, dev_calls(test, sd), "1:1");
}

/*
 * The administrator's mask refused when the vector's next interrupt is
 * attached (its CPUs all went offline while the interrupt was detached,
 * a link down and up): the interrupt is attached all the same, its
 * affinity as it was, the vector still the administrator's, until it is
 * handed back.
 */
static void irq_spread_test_dev_attach_admin_refused(struct kunit *test)
{
	struct irq_spread_dev *sd = dev_admin_detached(test);
	struct dev_test *t = test->priv;

	t->irq[5].aff = BIT(0);
	t->fail_irq = FAKE_IRQ_BASE + 5;
	KUNIT_EXPECT_EQ(test, irq_spread_dev_attach(sd, 1, FAKE_IRQ_BASE + 5), 0);
	KUNIT_EXPECT_EQ(test, t->irq[5].aff, BIT(0));
	KUNIT_EXPECT_NULL(test, t->irq[5].hint);
	KUNIT_EXPECT_NOT_NULL(test, t->irq[5].notify);
	/* The refused set's notification: the kept affinity, not taken. */
	fake_notify(test);
	KUNIT_EXPECT_TRUE(test, irq_spread_dev_vector_admin(sd, 1));
	KUNIT_EXPECT_STREQ(test, dev_debugfs(test),
			   "numa 0 100 spread active 0\n"
			   "numa 1 105 spread admin 7\n"
			   "numa 2 102 spread active 2\n"
			   "numa 3 103 spread active 3\n");
	KUNIT_EXPECT_STREQ(test, dev_calls(test, sd), "");

	t->fail_irq = 0;
	KUNIT_EXPECT_EQ(test, irq_spread_dev_vector_to_policy(sd, 1), 0);
	KUNIT_EXPECT_EQ(test, t->irq[5].aff, BIT(1));
	KUNIT_EXPECT_NOT_NULL(test, t->irq[5].hint);
	KUNIT_EXPECT_FALSE(test, irq_spread_dev_vector_admin(sd, 1));
	KUNIT_EXPECT_STREQ(test, dev_calls(test, sd), "1:1");
}

/**
 * struct cpus_case - a CPU list written to a device's cpus file
 * @desc: what the case tests
 * @val: what is written
 * @ret: what the write returns: its length, or the error
 * @show: the file after
 * @aff: the affinities of the device's 4 vectors after
 */
struct cpus_case {
	const char *desc;
	const char *val;
	int ret;
	const char *show;
	const char *aff;
};

/*
 * numa, 4 vectors, node 0, CPU 5 offline (it may be named, as long as a
 * CPU of the list can take interrupts); vector 1 is the administrator's
 * (7) throughout, still placed.  Within 4-7, node 0 adds no slot: the
 * slots are 4, 6, 7 and vector 3 wraps to the first.  Within 2-5: 2, 3 of
 * node 0, then 4.  Within 0 or 1, every vector on it.
 */
static const struct cpus_case cpus_cases[] = {
	{ "node 1",		"4-7",		3, "4-7\n",	"4;7;7;4" },
	{ "node 1, newline",	"4-7\n",	4, "4-7\n",	"4;7;7;4" },
	{ "both nodes",		"2-5",		3, "2-5\n",	"2;7;4;2" },
	{ "one CPU",		"0",		1, "0\n",	"0;7;0;0" },
	{ "trailing comma",	"1,",		2, "1\n",	"1;7;1;1" },
	{ "every CPU",		"0-7",		3, "0-7\n",	"0;7;2;3" },
	{ "offline only",	"5",		-EINVAL, "0-7\n", "0;7;2;3" },
	{ "empty",		"",		-EINVAL, "0-7\n", "0;7;2;3" },
	{ "newline only",	"\n",		-EINVAL, "0-7\n", "0;7;2;3" },
	{ "past the last CPU",	"6-8",		-EINVAL, "0-7\n", "0;7;2;3" },
	{ "reversed range",	"3-1",		-EINVAL, "0-7\n", "0;7;2;3" },
	{ "negative",		"-1",		-EINVAL, "0-7\n", "0;7;2;3" },
	{ "not a list",		"any",		-EINVAL, "0-7\n", "0;7;2;3" },
	{ "a mask, not a list",	"f0",		-EINVAL, "0-7\n", "0;7;2;3" },
};

static void cpus_case_desc(const struct cpus_case *c, char *desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(cpus, cpus_cases, cpus_case_desc);

/*
 * The CPUs a device may use: the vectors in use are placed within them,
 * the administrator's stays; a bad list changes nothing.
 */
static void irq_spread_test_dev_cpus(struct kunit *test)
{
	const struct cpus_case *c = test->param_value;
	struct irq_spread_dev *sd = dev_register(test, IRQ_SPREAD_NUMA, 4);
	struct dev_test *t = test->priv;
	const char *table;

	admin_set(test, 1, BIT(7));
	play_cpu_offline(test, 5);
	__clear_bit(5, t->m->online);
	fake_notify(test);
	table = dev_debugfs(test);
	dev_calls(test, sd);
	fake_sets_zero(test);

	KUNIT_EXPECT_EQ(test, dev_store(test, "cpus", c->val), c->ret);
	KUNIT_EXPECT_STREQ(test, dev_show(test, "cpus"), c->show);
	KUNIT_EXPECT_STREQ(test, fake_affinities(test, 4), c->aff);
	KUNIT_EXPECT_TRUE(test, irq_spread_dev_vector_admin(sd, 1));
	KUNIT_EXPECT_EQ(test, irq_spread_test_load_sum(&t->m->topo), 4);
	if (c->ret < 0) {
		KUNIT_EXPECT_STREQ(test, dev_debugfs(test), table);
		KUNIT_EXPECT_EQ(test, fake_sets(test, 4), 0);
		KUNIT_EXPECT_STREQ(test, dev_calls(test, sd), "");
	}
	/* The library's applies are not the administrator's. */
	fake_notify(test);
	KUNIT_EXPECT_FALSE(test, irq_spread_dev_vector_admin(sd, 0));
	KUNIT_EXPECT_FALSE(test, irq_spread_dev_vector_admin(sd, 2));
}

/*
 * CPU hotplug within the CPUs a device may use.  numa, 2 vectors, node 0,
 * CPUs 2-5: 2;3.  Without CPU 3 a fresh placement is 2;4 (node 0 has 2
 * left, then node 1): vector 1 takes 4.  Back, it returns to 3.
 */
static void irq_spread_test_dev_cpus_hotplug(struct kunit *test)
{
	struct irq_spread_dev *sd = dev_register(test, IRQ_SPREAD_NUMA, 2);
	cpumask_var_t cpus;

	KUNIT_EXPECT_EQ(test, dev_store(test, "cpus", "2-5"), 3);
	KUNIT_EXPECT_STREQ(test, fake_affinities(test, 2), "2;3");
	cpu_cycle(test, 3, false);
	KUNIT_EXPECT_STREQ(test, fake_affinities(test, 2), "2;4");
	cpu_cycle(test, 3, false);
	KUNIT_EXPECT_STREQ(test, fake_affinities(test, 2), "2;3");
	/* A CPU it may not use comes and goes: nothing moves. */
	fake_sets_zero(test);
	cpu_cycle(test, 0, true);
	KUNIT_EXPECT_EQ(test, fake_sets(test, 2), 0);
	fake_notify(test);
	KUNIT_EXPECT_FALSE(test, irq_spread_dev_vector_admin(sd, 1));

	/*
	 * The API beside the file (irq_spread_dev_cpus() is for the system's
	 * CPUs, which a cpumask holds: the netdev files test it).
	 */
	KUNIT_ASSERT_TRUE(test, zalloc_cpumask_var(&cpus, GFP_KERNEL));
	KUNIT_EXPECT_EQ(test, irq_spread_dev_set_cpus(sd, NULL), -EINVAL);
	KUNIT_EXPECT_EQ(test, irq_spread_dev_set_cpus(NULL, cpus), -EINVAL);
	free_cpumask_var(cpus);
	KUNIT_EXPECT_EQ(test, irq_spread_dev_set_policy(sd, IRQ_SPREAD_NR_POLICIES),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, irq_spread_dev_set_policy(NULL, IRQ_SPREAD_NUMA),
			-EINVAL);
	KUNIT_EXPECT_FALSE(test, irq_spread_dev_vector_admin(sd, 2));
	KUNIT_EXPECT_FALSE(test, irq_spread_dev_vector_admin(NULL, 0));
	KUNIT_EXPECT_STREQ(test, fake_affinities(test, 2), "2;3");
}

/*
 * A driver that registers its device again (a reset) finds what the
 * administrator set: the policy written, the CPUs allowed, the affinity
 * set per vector.  numa-core, 4 vectors, node 0, CPUs 0-1,4-7: node 0's
 * 0 and 1 share a core, a thread each; node 1's cores hold one each, the
 * whole core: 0;1;4-5;6-7.  numa within them: 0;1;4;5.
 */
static void irq_spread_test_dev_kept(struct kunit *test)
{
	struct irq_spread_dev_info info = spread_info(test->priv, 0,
						   IRQ_SPREAD_NUMA, 4);
	struct dev_test *t = test->priv;
	struct irq_spread_dev *sd;

	sd = irq_spread_dev_topo_register(&t->m->topo, &info);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, sd);
	dev_attach_all(test, sd, 4);
	KUNIT_EXPECT_EQ(test, dev_store(test, "policy", "numa-core"), 9);
	KUNIT_EXPECT_EQ(test, dev_store(test, "cpus", "0-1,4-7"), 7);
	KUNIT_EXPECT_STREQ(test, fake_affinities(test, 4), "0;1;4-5;6-7");
	admin_set(test, 2, BIT(3));
	irq_spread_dev_unregister(sd);
	KUNIT_EXPECT_EQ(test, irq_spread_test_load_sum(&t->m->topo), 0);

	sd = dev_register_info(test, &info);
	KUNIT_EXPECT_STREQ(test, dev_show(test, "policy"), "numa [numa-core] core\n");
	KUNIT_EXPECT_STREQ(test, dev_show(test, "cpus"), "0-1,4-7\n");
	KUNIT_EXPECT_STREQ(test, dev_masks(test, sd, 4), "0;1;3;6-7");
	KUNIT_EXPECT_TRUE(test, irq_spread_dev_vector_admin(sd, 2));
	dev_attach_all(test, sd, 4);
	KUNIT_EXPECT_STREQ(test, fake_affinities(test, 4), "0;1;3;6-7");
	KUNIT_EXPECT_NULL(test, t->irq[2].hint);
	KUNIT_EXPECT_TRUE(test, irq_spread_dev_vector_admin(sd, 2));

	/* A new policy hands the vector back, as before. */
	KUNIT_EXPECT_EQ(test, dev_store(test, "policy", "numa"), 4);
	KUNIT_EXPECT_STREQ(test, fake_affinities(test, 4), "0;1;4;5");
	KUNIT_EXPECT_FALSE(test, irq_spread_dev_vector_admin(sd, 2));
}

/*
 * With IRQ_SPREAD_DEV_NO_CLASS the caller shows the knobs: no class
 * device, and nothing kept for the next registration.
 */
static void irq_spread_test_dev_no_class(struct kunit *test)
{
	struct irq_spread_dev_info info = spread_info(test->priv, 0,
						   IRQ_SPREAD_NUMA, 4);
	struct dev_test *t = test->priv;
	struct irq_spread_dev *sd;

	info.flags = IRQ_SPREAD_DEV_NO_CLASS;
	sd = irq_spread_dev_topo_register(&t->m->topo, &info);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, sd);
	KUNIT_EXPECT_EQ(test, sysfs_mode(test, NULL), -1);
	dev_attach_all(test, sd, 4);
	KUNIT_EXPECT_EQ(test, irq_spread_dev_set_policy(sd, IRQ_SPREAD_CORE), 0);
	KUNIT_EXPECT_EQ(test, irq_spread_dev_policy(sd), IRQ_SPREAD_CORE);
	admin_set(test, 0, BIT(5));
	KUNIT_EXPECT_TRUE(test, irq_spread_dev_vector_admin(sd, 0));
	irq_spread_dev_unregister(sd);

	info.flags = 0;
	sd = dev_register_info(test, &info);
	KUNIT_EXPECT_EQ(test, irq_spread_dev_policy(sd), IRQ_SPREAD_NUMA);
	KUNIT_EXPECT_FALSE(test, irq_spread_dev_vector_admin(sd, 0));
	KUNIT_EXPECT_STREQ(test, dev_masks(test, sd, 4), "0;1;2;3");
}

/* The driver hears of every change of a vector's CPUs, and of no other. */
static void irq_spread_test_dev_changed(struct kunit *test)
{
	struct irq_spread_dev *sd = dev_register(test, IRQ_SPREAD_NUMA, 4);

	KUNIT_EXPECT_STREQ(test, dev_calls(test, sd), "");
	KUNIT_EXPECT_EQ(test, dev_store(test, "policy", "numa-core"), 9);
	KUNIT_EXPECT_STREQ(test, dev_calls(test, sd), "1:2 2:1");
	fake_notify(test);
	KUNIT_EXPECT_STREQ(test, dev_calls(test, sd), "");
	/* Without CPU 3, the fresh placement has 0;2;1;4-5. */
	play_cpu_offline(test, 3);
	KUNIT_EXPECT_STREQ(test, dev_calls(test, sd), "3:4-5");
	admin_set(test, 0, BIT(4));
	KUNIT_EXPECT_STREQ(test, dev_calls(test, sd), "0:4");
	/* The same mask again is no change. */
	admin_set(test, 0, BIT(4));
	KUNIT_EXPECT_STREQ(test, dev_calls(test, sd), "");
	play_cpu_online(test, 3);
	KUNIT_EXPECT_STREQ(test, dev_calls(test, sd), "3:3");
	/* A detach keeps the administrator's mask: nothing changes. */
	irq_spread_dev_detach(sd, 0);
	KUNIT_EXPECT_STREQ(test, dev_calls(test, sd), "");
}

#ifdef CONFIG_CPU_RMAP
/* aRFS: the reverse map follows every vector, the administrator's too. */
static void irq_spread_test_dev_rmap(struct kunit *test)
{
	struct irq_spread_dev_info info = spread_info(test->priv, 0,
						   IRQ_SPREAD_CORE, 4);
	struct cpu_rmap *rmap = alloc_cpu_rmap(4, GFP_KERNEL);
	struct irq_spread_dev *sd;

	KUNIT_ASSERT_NOT_NULL(test, rmap);
	info.rmap = rmap;
	info.nr_vectors = 5;
	KUNIT_EXPECT_EQ(test, PTR_ERR(irq_spread_dev_topo_register(&cur_test()->m->topo,
								   &info)),
			-EINVAL);
	info.nr_vectors = 4;
	sd = dev_register_info(test, &info);
	dev_attach_all(test, sd, 4);
	KUNIT_EXPECT_STREQ(test, fake_affinities(test, 4), "0;2;4;6");
	KUNIT_EXPECT_EQ(test, cpu_rmap_lookup_index(rmap, 0), 0);
	KUNIT_EXPECT_EQ(test, cpu_rmap_lookup_index(rmap, 2), 1);
	KUNIT_EXPECT_EQ(test, cpu_rmap_lookup_index(rmap, 4), 2);
	KUNIT_EXPECT_EQ(test, cpu_rmap_lookup_index(rmap, 6), 3);
	KUNIT_EXPECT_NULL(test, rmap->obj[3]);

	admin_set(test, 3, BIT(7));
	KUNIT_EXPECT_EQ(test, cpu_rmap_lookup_index(rmap, 7), 3);
	KUNIT_EXPECT_EQ(test, dev_store(test, "policy", "numa"), 4);
	KUNIT_EXPECT_EQ(test, cpu_rmap_lookup_index(rmap, 1), 1);
	KUNIT_EXPECT_EQ(test, cpu_rmap_lookup_index(rmap, 3), 3);

	/* Detached, vector 3 keeps CPU 3, as irq_cpu_rmap_remove() leaves it. */
	irq_spread_dev_detach(sd, 3);
	KUNIT_EXPECT_EQ(test, cpu_rmap_lookup_index(rmap, 3), 3);
	irq_spread_dev_unregister(sd);
	kunit_remove_action(test, dev_test_unregister, sd);
	cpu_rmap_put(rmap);
}

/*
 * The guest of make check: 2 sockets of 2 nodes of 2 SMT2 cores, node n
 * CPUs 4n..4n+3, siblings 2k and 2k + 1; SLIT 10, 12 within a socket, 32
 * across.
 */
static int guest_distance(int a, int b)
{
	if (a == b)
		return 10;
	return a / 2 == b / 2 ? 12 : 32;
}

static const char * const guest_nodes[] = { "0-3", "4-7", "8-11", "12-15" };

static const struct test_machine guest16 = {
	.name = "guest 2S 4N SMT2", .nr_cpus = 16, .nr_nodes = 4,
	.node_cpus = guest_nodes, .distance = guest_distance, .smt = 2,
};

/*
 * Whether cpu_rmap_update() of a vector on @cpus (CPUs of the fake machine)
 * looks at @cpu of the machine running the test: it does for the CPUs of
 * the nodes of @cpus, and maps each to the nearest vector.
 */
static bool rmap_near(unsigned int cpu, const struct cpumask *cpus)
{
	return cpumask_intersects(cpumask_of_node(cpu_to_node(cpu)), cpus);
}

/*
 * aRFS with fewer queues than vectors (mlx5 after ethtool -L, or
 * requesting its completion interrupts as queues open), as
 * irq_cpu_rmap_add() kept it: each attached vector's CPU maps to it, a
 * CPU of the same node maps to one, and a CPU of a node without one keeps
 * the index alloc_cpu_rmap() gave it, its number modulo the map's size.
 * mlx5 on the 4-node machine: 16 completion vectors, numa from node 0,
 * vector k on CPU k; the first 4 attached, on CPUs 0-3, which leaves the
 * other nodes of the guest of make check (CPUs 4-15) without one.
 */
static void irq_spread_test_dev_rmap_attached(struct kunit *test)
{
	struct dev_test *t = test->priv;
	struct irq_spread_dev_info info;
	struct irq_spread_dev *sd;
	struct test_topo *topo;
	struct cpu_rmap *rmap;
	cpumask_var_t attached;
	unsigned int cpu, k, far = 0;

	KUNIT_ASSERT_TRUE(test, alloc_cpumask_var(&attached, GFP_KERNEL));
	topo = irq_spread_test_topo_new(test, &guest16);
	rmap = alloc_cpu_rmap(16, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, rmap);
	info = spread_info(t, 0, IRQ_SPREAD_NUMA, 16);
	info.rmap = rmap;
	sd = irq_spread_dev_topo_register(&topo->topo, &info);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, sd);
	cpumask_clear(attached);
	for (k = 0; k < 4; k++) {
		KUNIT_ASSERT_EQ(test, irq_spread_dev_attach(sd, k,
							    FAKE_IRQ_BASE + k), 0);
		cpumask_set_cpu(k, attached);
	}
	fake_notify(test);

	for_each_possible_cpu(cpu) {
		k = cpu_rmap_lookup_index(rmap, cpu);
		if (cpumask_test_cpu(cpu, attached))
			KUNIT_EXPECT_EQ_MSG(test, k, cpu, "CPU %u", cpu);
		else if (rmap_near(cpu, attached))
			KUNIT_EXPECT_TRUE_MSG(test, cpumask_test_cpu(k, attached),
					      "CPU %u maps to %u", cpu, k);
		else
			KUNIT_EXPECT_EQ_MSG(test, k, cpu % 16, "CPU %u", cpu);
		far += !rmap_near(cpu, attached);
	}
	kunit_info(test, "4 of 16 vectors attached: %u of %u CPUs in nodes without one\n",
		   far, nr_cpu_ids);
	/* Else the rule that matters was not tried: not the guest's machine. */
	KUNIT_EXPECT_GT(test, far, 0);
	irq_spread_dev_unregister(sd);
	cpu_rmap_put(rmap);
	free_cpumask_var(attached);
	memset(t->irq, 0, sizeof(t->irq));
}
#endif

/* Pool vectors of the list tests: vector v's interrupt is POOL_IRQ_BASE + v. */
#define POOL_IRQ_BASE	108
#define LIST_NR_IRQS	128

static int list_pool_request(void *priv, unsigned int vector,
			     const struct cpumask *mask)
{
	return POOL_IRQ_BASE + vector;
}

static void list_pool_release(void *priv, unsigned int vector,
			      unsigned int irq)
{
}

static const struct irq_spread_pool_ops list_pool_ops = {
	.request	= list_pool_request,
	.release	= list_pool_release,
};

static void list_pool_destroy(void *pool)
{
	irq_spread_pool_destroy(pool);
}

/* irq_spread_irqs_list() of @topo below @nr_irqs, in a buffer of 64 bytes. */
static const char *irqs_list(struct kunit *test,
			     struct irq_spread_topology *topo,
			     unsigned int nr_irqs)
{
	char *buf = kunit_kzalloc(test, 64, GFP_KERNEL);
	int len;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	len = irq_spread_irqs_list(topo, nr_irqs, buf, 64);
	KUNIT_ASSERT_GE(test, len, 0);
	KUNIT_EXPECT_EQ(test, len, strlen(buf));
	return buf;
}

/*
 * A machine KUnit makes keeps its devices and pools to itself: a device
 * registered on it is not in the system's list of devices (so CPU hotplug
 * and the system's debugfs table do not see it), and a pool on it is not
 * in the system's list of pools and has no debugfs file.
 */
static void irq_spread_test_own_machine(struct kunit *test)
{
	struct dev_test *t = test->priv;
	struct irq_spread_pool_info pinfo = {
		.name = "irq_spread_test_own", .node = 0,
		.policy = IRQ_SPREAD_NUMA, .nr_vectors = 2,
		.ops = &list_pool_ops,
	};
	struct irq_spread_topology *topo = &t->m->topo;
	struct irq_spread_pool *pool, *p;
	struct irq_spread_dev *sd;
	bool listed = false;

	sd = dev_register(test, IRQ_SPREAD_NUMA, 2);
	mutex_lock(&topo->devs_lock);
	KUNIT_EXPECT_PTR_EQ(test, irq_spread_dev_find(topo, t->dev), sd);
	mutex_unlock(&topo->devs_lock);
	mutex_lock(&irq_spread_system.devs_lock);
	KUNIT_EXPECT_NULL(test, irq_spread_dev_find(&irq_spread_system, t->dev));
	mutex_unlock(&irq_spread_system.devs_lock);
	KUNIT_EXPECT_STREQ(test, dev_debugfs(test),
			   "numa 0 100 spread active 0\n"
			   "numa 1 101 spread active 1\n");
	KUNIT_EXPECT_STREQ(test, dev_debugfs_of(test, &irq_spread_system), "");

	pool = irq_spread_pool_topo_create(topo, &pinfo);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, pool);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, list_pool_destroy,
							pool), 0);
	KUNIT_EXPECT_NULL(test, pool->debugfs);
	mutex_lock(&irq_spread_system.pools_lock);
	list_for_each_entry(p, &irq_spread_system.pools, list)
		listed |= p == pool;
	mutex_unlock(&irq_spread_system.pools_lock);
	KUNIT_EXPECT_FALSE(test, listed);
	KUNIT_EXPECT_TRUE(test, list_is_singular(&topo->pools));
}

/*
 * The interrupts the library places on a machine: attached vectors of its
 * devices, requested vectors of its pools, nothing of another machine's.
 * By hand: a 4-vector device attached to 100-103; vector 1 detached; a
 * 3-vector pool whose first get requests vector 0 (108), whose second
 * requests vector 1 (109: vector 0 has the share of 2 users over 3
 * vectors, ceil(2 / 3) = 1, already), then vector 0 put (its last user)
 * and released; after the devices go, vector 1 put too.
 */
static void irq_spread_test_irqs_list(struct kunit *test)
{
	struct dev_test *t = test->priv;
	struct irq_spread_pool_info pinfo = {
		.name = "irq_spread_test_list", .node = 0,
		.policy = IRQ_SPREAD_NUMA, .nr_vectors = 3,
		.ops = &list_pool_ops,
	};
	struct irq_spread_topology *topo = &t->m->topo;
	struct irq_spread_dev_info info;
	struct irq_spread_dev *sd, *other;
	struct irq_spread_pool *pool;
	struct test_topo *m2;
	struct device *dev2;
	const char *before;
	char buf[20];

	KUNIT_EXPECT_STREQ(test, irqs_list(test, topo, LIST_NR_IRQS), "\n");
	sd = dev_register(test, IRQ_SPREAD_NUMA, 4);
	KUNIT_EXPECT_STREQ(test, irqs_list(test, topo, LIST_NR_IRQS),
			   "100-103\n");
	irq_spread_dev_detach(sd, 1);
	KUNIT_EXPECT_STREQ(test, irqs_list(test, topo, LIST_NR_IRQS),
			   "100,102-103\n");

	pool = irq_spread_pool_topo_create(topo, &pinfo);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, pool);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, list_pool_destroy,
							pool), 0);
	KUNIT_EXPECT_STREQ(test, irqs_list(test, topo, LIST_NR_IRQS),
			   "100,102-103\n");
	KUNIT_EXPECT_EQ(test, irq_spread_pool_get(pool, NULL), 0);
	KUNIT_EXPECT_STREQ(test, irqs_list(test, topo, LIST_NR_IRQS),
			   "100,102-103,108\n");
	KUNIT_EXPECT_EQ(test, irq_spread_pool_get(pool, NULL), 1);
	KUNIT_EXPECT_STREQ(test, irqs_list(test, topo, LIST_NR_IRQS),
			   "100,102-103,108-109\n");
	KUNIT_EXPECT_EQ(test, irq_spread_pool_put(pool, 0), 0);
	KUNIT_EXPECT_STREQ(test, irqs_list(test, topo, LIST_NR_IRQS),
			   "100,102-103,109\n");

	/* Another machine's device is not this one's, nor the reverse. */
	m2 = irq_spread_test_topo_new(test, &two_node);
	dev2 = kunit_device_register(test, "irq_spread_test_other");
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, dev2);
	info = spread_info(t, 1, IRQ_SPREAD_NUMA, 1);
	info.dev = dev2;
	other = irq_spread_dev_topo_register(&m2->topo, &info);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, other);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, dev_test_unregister,
							other), 0);
	KUNIT_EXPECT_EQ(test, irq_spread_dev_attach(other, 0, 104), 0);
	fake_notify(test);
	KUNIT_EXPECT_STREQ(test, irqs_list(test, topo, LIST_NR_IRQS),
			   "100,102-103,109\n");
	KUNIT_EXPECT_STREQ(test, irqs_list(test, &m2->topo, LIST_NR_IRQS),
			   "104\n");

	/* Numbers at or above the bound are left out. */
	KUNIT_EXPECT_STREQ(test, irqs_list(test, topo, 102), "100\n");
	KUNIT_EXPECT_STREQ(test, irqs_list(test, topo, 100), "\n");

	/* A line longer than the buffer: EFBIG, nothing written. */
	memset(buf, 'x', sizeof(buf));
	KUNIT_EXPECT_EQ(test, irq_spread_irqs_list(topo, LIST_NR_IRQS, buf, 16),
			-EFBIG);
	KUNIT_EXPECT_NULL(test, memchr_inv(buf, 'x', sizeof(buf)));
	KUNIT_EXPECT_EQ(test, irq_spread_irqs_list(topo, LIST_NR_IRQS, buf, 17),
			16);
	KUNIT_EXPECT_STREQ(test, buf, "100,102-103,109\n");

	/* Reading changes nothing: placements, interrupts, debugfs. */
	fake_sets_zero(test);
	before = dev_debugfs(test);
	irqs_list(test, topo, LIST_NR_IRQS);
	irqs_list(test, &m2->topo, LIST_NR_IRQS);
	fake_notify(test);
	KUNIT_EXPECT_EQ(test, fake_sets(test, FAKE_MAX_IRQS), 0);
	KUNIT_EXPECT_STREQ(test, dev_debugfs(test), before);
	KUNIT_EXPECT_STREQ(test, dev_masks(test, sd, 4), "0;1;2;3");

	kunit_release_action(test, dev_test_unregister, other);
	KUNIT_EXPECT_STREQ(test, irqs_list(test, &m2->topo, LIST_NR_IRQS), "\n");
	kunit_release_action(test, dev_test_unregister, sd);
	KUNIT_EXPECT_STREQ(test, irqs_list(test, topo, LIST_NR_IRQS), "109\n");
	KUNIT_EXPECT_EQ(test, irq_spread_pool_put(pool, 1), 0);
	KUNIT_EXPECT_STREQ(test, irqs_list(test, topo, LIST_NR_IRQS), "\n");
	kunit_release_action(test, list_pool_destroy, pool);
	KUNIT_EXPECT_STREQ(test, irqs_list(test, topo, LIST_NR_IRQS), "\n");
}

static struct class_attribute *class_attr(struct kunit *test, const char *name)
{
	return container_of(group_attr(test, irq_spread_class_groups, name),
			    struct class_attribute, attr);
}

/* /sys/class/irq_spread/irqs, parsed: whether it lists @irq. */
static bool class_irqs_has(struct kunit *test, unsigned int irq)
{
	struct class_attribute *attr = class_attr(test, "irqs");
	char *buf = kunit_kzalloc(test, PAGE_SIZE, GFP_KERNEL);
	unsigned int nr = irq_get_nr_irqs();
	unsigned long *irqs = kunit_kcalloc(test, BITS_TO_LONGS(nr),
					    sizeof(long), GFP_KERNEL);
	ssize_t len;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	KUNIT_ASSERT_NOT_NULL(test, irqs);
	len = attr->show(NULL, attr, buf);
	KUNIT_ASSERT_GT(test, len, 0);
	KUNIT_ASSERT_LT(test, len, PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, buf[len - 1], '\n');
	KUNIT_ASSERT_EQ(test, bitmap_parselist(buf, irqs, nr), 0);
	return test_bit(irq, irqs);
}

/*
 * The class's file lists the running machine's interrupts: a device
 * registered on it, its vector attached to an interrupt number (the
 * highest the machine may have, behind the fakes), is listed until the
 * vector is detached; a device of an injected machine with the same
 * number attached is not.  Read only.
 */
static void irq_spread_test_irqs_file(struct kunit *test)
{
	struct class_attribute *attr = class_attr(test, "irqs");
	struct dev_test *t = test->priv;
	struct irq_spread_dev_info info;
	struct irq_spread_dev *sd;

	KUNIT_EXPECT_EQ(test, attr->attr.mode, 0444);
	KUNIT_EXPECT_NULL(test, attr->store);

	t->alias_irq = irq_get_nr_irqs() - 1;
	if (class_irqs_has(test, t->alias_irq))
		kunit_skip(test, "IRQ %u is placed by irq_spread already",
			   t->alias_irq);

	sd = dev_register(test, IRQ_SPREAD_NUMA, 1);
	irq_spread_dev_detach(sd, 0);
	KUNIT_ASSERT_EQ(test, irq_spread_dev_attach(sd, 0, t->alias_irq), 0);
	fake_notify(test);
	KUNIT_EXPECT_FALSE(test, class_irqs_has(test, t->alias_irq));
	kunit_release_action(test, dev_test_unregister, sd);

	info = spread_info(t, NUMA_NO_NODE, IRQ_SPREAD_NUMA, 1);
	sd = irq_spread_dev_register(&info);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, sd);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, dev_test_unregister,
							sd), 0);
	KUNIT_EXPECT_FALSE(test, class_irqs_has(test, t->alias_irq));
	KUNIT_ASSERT_EQ(test, irq_spread_dev_attach(sd, 0, t->alias_irq), 0);
	fake_notify(test);
	KUNIT_EXPECT_TRUE(test, class_irqs_has(test, t->alias_irq));
	irq_spread_dev_detach(sd, 0);
	KUNIT_EXPECT_FALSE(test, class_irqs_has(test, t->alias_irq));
}

static struct kunit_case irq_spread_dev_test_cases[] = {
	KUNIT_CASE(irq_spread_test_dev_register),
	KUNIT_CASE(irq_spread_test_dev_policy_default),
	KUNIT_CASE_PARAM(irq_spread_test_dev_register_bad, register_gen_params),
	KUNIT_CASE(irq_spread_test_dev_register_busy),
	KUNIT_CASE(irq_spread_test_dev_register_system),
	KUNIT_CASE(irq_spread_test_dev_cpus_locked),
	KUNIT_CASE(irq_spread_test_dev_calls_bad),
	KUNIT_CASE(irq_spread_test_dev_lookup_atomic),
	KUNIT_CASE(irq_spread_test_dev_reserved),
	KUNIT_CASE(irq_spread_test_dev_set_vectors),
	KUNIT_CASE(irq_spread_test_dev_set_vectors_fails),
	KUNIT_CASE_PARAM(irq_spread_test_dev_store, store_gen_params),
	KUNIT_CASE_PARAM(irq_spread_test_dev_store_bad, store_bad_gen_params),
	KUNIT_CASE(irq_spread_test_dev_store_fails),
	KUNIT_CASE(irq_spread_test_dev_store_same),
	KUNIT_CASE(irq_spread_test_dev_set_both),
	KUNIT_CASE(irq_spread_test_dev_to_policy),
	KUNIT_CASE(irq_spread_test_dev_store_perm),
	KUNIT_CASE(irq_spread_test_dev_admin),
	KUNIT_CASE(irq_spread_test_dev_notified),
	KUNIT_CASE(irq_spread_test_dev_online_refused),
	KUNIT_CASE(irq_spread_test_dev_notify_misuse),
	KUNIT_CASE(irq_spread_test_dev_hotplug_fallback),
	KUNIT_CASE(irq_spread_test_dev_register_class_fails),
	KUNIT_CASE(irq_spread_test_dev_caller_applies),
	KUNIT_CASE(irq_spread_test_dev_detach_unnotified),
	KUNIT_CASE(irq_spread_test_dev_kernel_moves),
	KUNIT_CASE(irq_spread_test_dev_stale_notify),
	KUNIT_CASE(irq_spread_test_dev_hotplug_three_cores),
	KUNIT_CASE(irq_spread_test_dev_detach_keeps),
	KUNIT_CASE(irq_spread_test_dev_attach_admin_refused),
	KUNIT_CASE_PARAM(irq_spread_test_dev_cpus, cpus_gen_params),
	KUNIT_CASE(irq_spread_test_dev_cpus_hotplug),
	KUNIT_CASE(irq_spread_test_dev_kept),
	KUNIT_CASE(irq_spread_test_dev_no_class),
	KUNIT_CASE_PARAM(irq_spread_test_dev_hotplug, hotplug_gen_params),
	KUNIT_CASE(irq_spread_test_dev_hotplug_others),
	KUNIT_CASE(irq_spread_test_dev_suspend),
	KUNIT_CASE(irq_spread_test_dev_load_attached),
	KUNIT_CASE(irq_spread_test_dev_changed),
	KUNIT_CASE(irq_spread_test_irqs_list),
	KUNIT_CASE(irq_spread_test_own_machine),
	KUNIT_CASE(irq_spread_test_irqs_file),
#ifdef CONFIG_CPU_RMAP
	KUNIT_CASE(irq_spread_test_dev_rmap),
	KUNIT_CASE(irq_spread_test_dev_rmap_attached),
#endif
	{}
};

static struct kunit_suite irq_spread_dev_test_suite = {
	.name = "irq_spread_device",
	.init = dev_test_init,
	.test_cases = irq_spread_dev_test_cases,
};

/*
 * Allocation failures, each in turn.  The kernel's fault injection fails
 * the 1st, 2nd, ... allocation of one library call (current->fail_nth, as
 * /proc/thread-self/fail-nth arms it for a task) until the call runs
 * through without one failing.  After each failure the call returned
 * -ENOMEM and nothing changed: the vectors' CPUs, the interrupts'
 * affinities, hints, placed state, notifiers and placers, the device's
 * policy and CPUs, the machine's per-CPU load.  A call that returns 0
 * did its whole work; but for one whose failure is only logged (CPU
 * hotplug's), whose placement may be another that holds: each vector on
 * its interrupt's CPUs, all online, each counted in the load once.
 *
 * fail-nth reaches only what failslab and fail_page_alloc let fail: with
 * their ignore-gfp-wait at its default, Y, no GFP_KERNEL allocation fails,
 * and the cases skip (as at boot); the pipeline's main guest sets it to N
 * and runs the suite again from debugfs (pipeline/guest/fault-kunit.sh).
 */
static int fault_test_init(struct kunit *test)
{
	irq_spread_test_fault_ready(test);
	return dev_test_init(test);
}

#define FAULT_NVEC	4
#define FAULT_STATE	768

/* The machine's per-CPU load, "," between CPUs. */
static int fault_load(struct dev_test *t, char *buf, int size)
{
	struct irq_spread_topology *topo = &t->m->topo;
	unsigned int cpu;
	int len = 0;

	mutex_lock(&topo->lock);
	for (cpu = 0; topo->load && cpu < topo->nr_cpus; cpu++)
		len += scnprintf(buf + len, size - len, "%s%u", cpu ? "," : "",
				 topo->load[cpu]);
	mutex_unlock(&topo->lock);
	return len;
}

/*
 * Everything a call may change: per vector its CPUs and whether it is the
 * administrator's; per interrupt its affinity, hint, placed state,
 * notifier and placer; the device's policy and CPUs; the load.
 */
static const char *fault_state(struct kunit *test, struct irq_spread_dev *sd)
{
	struct dev_test *t = test->priv;
	char *buf = kunit_kzalloc(test, FAULT_STATE, GFP_KERNEL);
	struct fake_irq *f;
	cpumask_var_t cpus;
	unsigned int i;
	int len;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	KUNIT_ASSERT_TRUE(test, zalloc_cpumask_var(&cpus, GFP_KERNEL));
	irq_spread_dev_cpus(sd, cpus);
	len = scnprintf(buf, FAULT_STATE, "%s cpus %*pbl masks %s load ",
			irq_spread_policy_name(irq_spread_dev_policy(sd)),
			cpumask_pr_args(cpus), dev_masks(test, sd, FAULT_NVEC));
	free_cpumask_var(cpus);
	len += fault_load(t, buf + len, FAULT_STATE - len);
	for (i = 0; i < FAULT_NVEC; i++) {
		f = &t->irq[i];
		len += scnprintf(buf + len, FAULT_STATE - len,
				 "; %u: %*pbl hint %*pbl state %d%s%s%s", i,
				 FAKE_NR_CPUS, &f->aff,
				 f->hint ? FAKE_NR_CPUS : 0,
				 f->hint ? cpumask_bits(f->hint) : &f->aff,
				 f->state, f->notify ? " notifier" : "",
				 f->placer ? " placer" : "",
				 irq_spread_dev_vector_admin(sd, i) ? " admin" : "");
	}
	KUNIT_ASSERT_LT(test, len, FAULT_STATE - 1);
	return buf;
}

/*
 * What must hold after a call whose failure is only logged, if it did not
 * do its whole work: each vector's CPUs are its interrupt's affinity, all
 * online, and each CPU's load is the number of the device's vectors on it
 * (one CPU each, under numa).  NULL if so, else what does not.
 */
static const char *fault_inconsistent(struct kunit *test,
				      struct irq_spread_dev *sd)
{
	struct dev_test *t = test->priv;
	struct irq_spread_topology *topo = &t->m->topo;
	unsigned int on[FAKE_NR_CPUS] = {}, v, cpu;
	char *buf = kunit_kzalloc(test, 128, GFP_KERNEL);
	cpumask_var_t mask;
	unsigned long cpus;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	KUNIT_ASSERT_TRUE(test, zalloc_cpumask_var(&mask, GFP_KERNEL));
	for (v = 0; v < FAULT_NVEC; v++) {
		cpus = irq_spread_dev_vector_mask(sd, v, mask) ? 0 :
		       cpumask_bits(mask)[0];
		if (!cpus || cpus != t->irq[v].aff || (cpus & ~t->m->online[0])) {
			scnprintf(buf, 128, "vector %u on %*pbl, its interrupt on %*pbl",
				  v, FAKE_NR_CPUS, &cpus, FAKE_NR_CPUS,
				  &t->irq[v].aff);
			break;
		}
		on[__ffs(cpus)]++;
	}
	free_cpumask_var(mask);
	if (v < FAULT_NVEC)
		return buf;
	mutex_lock(&topo->lock);
	for (cpu = 0; cpu < FAKE_NR_CPUS; cpu++) {
		if (topo->load[cpu] != on[cpu]) {
			scnprintf(buf, 128, "CPU %u: load %u, %u vectors", cpu,
				  topo->load[cpu], on[cpu]);
			break;
		}
	}
	mutex_unlock(&topo->lock);
	return cpu < FAKE_NR_CPUS ? buf : NULL;
}

/**
 * struct fault_op - a library call under fault injection
 * @desc: what it is
 * @prepare: puts the device where the call starts from, or %NULL
 * @before: what happens before the call (the interrupt core's part), or
 *	%NULL
 * @run: the call
 * @after: what happens after it, or %NULL
 * @undo: takes the device back to where the call started from
 * @logged: a failure is logged, not returned
 */
struct fault_op {
	const char *desc;
	void (*prepare)(struct kunit *test, struct irq_spread_dev *sd);
	void (*before)(struct kunit *test, struct irq_spread_dev *sd);
	int (*run)(struct kunit *test, struct irq_spread_dev *sd);
	void (*after)(struct kunit *test, struct irq_spread_dev *sd);
	void (*undo)(struct kunit *test, struct irq_spread_dev *sd);
	bool logged;
};

#define FAULT_CPU	1

static void fault_detach(struct kunit *test, struct irq_spread_dev *sd)
{
	irq_spread_dev_detach(sd, FAULT_NVEC - 1);
}

static int fault_attach(struct kunit *test, struct irq_spread_dev *sd)
{
	return irq_spread_dev_attach(sd, FAULT_NVEC - 1,
				     FAKE_IRQ_BASE + FAULT_NVEC - 1);
}

static int fault_set_vectors(struct kunit *test, struct irq_spread_dev *sd)
{
	return irq_spread_dev_set_vectors(sd, 2);
}

static void fault_set_vectors_back(struct kunit *test, struct irq_spread_dev *sd)
{
	KUNIT_ASSERT_EQ(test, irq_spread_dev_set_vectors(sd, FAULT_NVEC), 0);
}

static int fault_set_policy(struct kunit *test, struct irq_spread_dev *sd)
{
	return irq_spread_dev_set_policy(sd, IRQ_SPREAD_CORE);
}

static void fault_set_policy_back(struct kunit *test, struct irq_spread_dev *sd)
{
	KUNIT_ASSERT_EQ(test, irq_spread_dev_set_policy(sd, IRQ_SPREAD_NUMA), 0);
}

/* CPUs 4-7 and 0-7 of the machine: nothing to allocate while armed. */
static const unsigned long fault_node1 = GENMASK(7, 4);
static const unsigned long fault_all = GENMASK(FAKE_NR_CPUS - 1, 0);

static int fault_set_cpus(struct kunit *test, struct irq_spread_dev *sd)
{
	return irq_spread_dev_set_cpus(sd, to_cpumask(&fault_node1));
}

static void fault_set_cpus_back(struct kunit *test, struct irq_spread_dev *sd)
{
	KUNIT_ASSERT_EQ(test, irq_spread_dev_set_cpus(sd, to_cpumask(&fault_all)), 0);
}

static void fault_admin(struct kunit *test, struct irq_spread_dev *sd)
{
	admin_set(test, 1, BIT(7));
}

static int fault_to_policy(struct kunit *test, struct irq_spread_dev *sd)
{
	return irq_spread_dev_vector_to_policy(sd, 1);
}

static int fault_offline(struct kunit *test, struct irq_spread_dev *sd)
{
	struct dev_test *t = test->priv;

	irq_spread_devs_cpu_offline(&t->m->topo, FAULT_CPU);
	return 0;
}

static void fault_offline_after(struct kunit *test, struct irq_spread_dev *sd)
{
	struct dev_test *t = test->priv;

	core_cpu_offline(test, FAULT_CPU);
	__clear_bit(FAULT_CPU, t->m->online);
}

static void fault_offline_back(struct kunit *test, struct irq_spread_dev *sd)
{
	struct dev_test *t = test->priv;

	__set_bit(FAULT_CPU, t->m->online);
	play_cpu_online(test, FAULT_CPU);
}

static void fault_offline_all(struct kunit *test, struct irq_spread_dev *sd)
{
	fault_offline(test, sd);
	fault_offline_after(test, sd);
	fake_notify(test);
}

static void fault_online_before(struct kunit *test, struct irq_spread_dev *sd)
{
	struct dev_test *t = test->priv;

	__set_bit(FAULT_CPU, t->m->online);
	core_cpu_online(test, FAULT_CPU);
}

static int fault_online(struct kunit *test, struct irq_spread_dev *sd)
{
	struct dev_test *t = test->priv;

	irq_spread_devs_cpu_online(&t->m->topo, FAULT_CPU);
	return 0;
}

static const struct fault_op fault_ops[] = {
	{ "attach", fault_detach, NULL, fault_attach, NULL, fault_detach },
	{ "set_vectors", NULL, NULL, fault_set_vectors, NULL,
	  fault_set_vectors_back },
	{ "set_policy", NULL, NULL, fault_set_policy, NULL,
	  fault_set_policy_back },
	{ "set_cpus", NULL, NULL, fault_set_cpus, NULL, fault_set_cpus_back },
	{ "vector_to_policy", fault_admin, NULL, fault_to_policy, NULL,
	  fault_admin },
	{ "CPU offline", NULL, NULL, fault_offline, fault_offline_after,
	  fault_offline_back, true },
	{ "CPU online", fault_offline_all, fault_online_before, fault_online,
	  NULL, fault_offline_all, true },
};

static void fault_op_desc(const struct fault_op *op, char *desc)
{
	strscpy(desc, op->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(fault_op, fault_ops, fault_op_desc);

/*
 * Run @op with its @n-th allocation failing (none for 0), then what
 * follows it, its notifications delivered.  Return what the call returned;
 * *@fired: whether the failure happened.
 */
static int fault_run(struct kunit *test, const struct fault_op *op,
		     struct irq_spread_dev *sd, unsigned int n, bool *fired)
{
	int ret;

	if (op->before)
		op->before(test, sd);
	irq_spread_test_fail_nth(n);
	ret = op->run(test, sd);
	*fired = irq_spread_test_fail_nth_fired();
	if (op->after)
		op->after(test, sd);
	fake_notify(test);
	return ret;
}

/* Each allocation of a call fails in turn: -ENOMEM and nothing changed. */
static void irq_spread_test_fault_op(struct kunit *test)
{
	const struct fault_op *op = test->param_value;
	struct irq_spread_dev *sd = dev_register(test, IRQ_SPREAD_NUMA, FAULT_NVEC);
	const char *start, *done, *now, *problem;
	unsigned int n, absorbed = 0, degraded = 0;
	bool fired;
	int ret;

	if (op->prepare)
		op->prepare(test, sd);
	fake_notify(test);
	start = fault_state(test, sd);
	KUNIT_ASSERT_EQ(test, fault_run(test, op, sd, 0, &fired), 0);
	done = fault_state(test, sd);
	KUNIT_ASSERT_STRNEQ(test, done, start);
	op->undo(test, sd);
	fake_notify(test);
	KUNIT_ASSERT_STREQ(test, fault_state(test, sd), start);

	for (n = 1;; n++) {
		ret = fault_run(test, op, sd, n, &fired);
		if (!fired)
			break;
		now = fault_state(test, sd);
		if (ret) {
			KUNIT_EXPECT_EQ_MSG(test, ret, -ENOMEM, "allocation %u", n);
			KUNIT_ASSERT_STREQ_MSG(test, now, start,
					       "allocation %u failed: changed", n);
			continue;
		}
		if (op->logged && strcmp(now, done)) {
			problem = fault_inconsistent(test, sd);
			KUNIT_ASSERT_FALSE_MSG(test, problem, "allocation %u failed: %s",
					       n, problem);
			degraded++;
		} else {
			KUNIT_ASSERT_STREQ_MSG(test, now, done,
					       "allocation %u failed, the call returned 0", n);
			absorbed++;
		}
		op->undo(test, sd);
		fake_notify(test);
		KUNIT_ASSERT_STREQ(test, fault_state(test, sd), start);
	}
	KUNIT_EXPECT_EQ(test, ret, 0);
	KUNIT_EXPECT_STREQ(test, fault_state(test, sd), done);
	kunit_info(test, "%s: %u allocations failed in turn: %u -ENOMEM, %u absorbed, %u logged with a placement that holds",
		   op->desc, n - 1, n - 1 - absorbed - degraded, absorbed,
		   degraded);
}

/* Registering, each allocation failing in turn: an error, nothing held. */
static void irq_spread_test_fault_register(struct kunit *test)
{
	struct dev_test *t = test->priv;
	struct irq_spread_dev_info info = spread_info(t, 0, IRQ_SPREAD_NUMA,
						      FAULT_NVEC);
	struct irq_spread_dev *sd;
	unsigned int n;
	bool fired;

	for (n = 1;; n++) {
		irq_spread_test_fail_nth(n);
		sd = irq_spread_dev_topo_register(&t->m->topo, &info);
		fired = irq_spread_test_fail_nth_fired();
		if (!fired)
			break;
		if (!IS_ERR(sd)) {
			irq_spread_dev_unregister(sd);
			continue;
		}
		KUNIT_EXPECT_EQ_MSG(test, PTR_ERR(sd), -ENOMEM, "allocation %u", n);
		KUNIT_ASSERT_EQ_MSG(test, irq_spread_test_load_sum(&t->m->topo), 0,
				    "allocation %u failed: load held", n);
		mutex_lock(&t->m->topo.devs_lock);
		KUNIT_EXPECT_TRUE_MSG(test, list_empty(&t->m->topo.devs),
				      "allocation %u failed: device listed", n);
		mutex_unlock(&t->m->topo.devs_lock);
	}
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, sd);
	mutex_lock(&t->m->topo.devs_lock);
	KUNIT_EXPECT_TRUE(test, list_is_singular(&t->m->topo.devs));
	mutex_unlock(&t->m->topo.devs_lock);
	irq_spread_dev_unregister(sd);
	kunit_info(test, "register: %u allocations failed in turn", n - 1);
}

/*
 * A topology set up with each allocation failing in turn: -ENOMEM and
 * nothing to destroy, or, for an allocation with a fallback (kvmalloc()'s
 * vmalloc()), 0.  A topology left so, as the system's is after that
 * failure at boot, answers a spread and a query with -ENOMEM.  The
 * topology is a copy of the test's machine, which has its own.
 */
static void irq_spread_test_fault_topology(struct kunit *test)
{
	struct dev_test *t = test->priv;
	unsigned int nr_cpus = t->m->topo.nr_cpus, n, absorbed = 0;
	struct irq_spread_topology *topo;
	struct test_topo *copy;
	unsigned long *masks;
	bool fired;
	int ret;

	copy = kunit_kmalloc(test, sizeof(*copy), GFP_KERNEL);
	masks = kunit_kcalloc(test, BITS_TO_LONGS(nr_cpus), sizeof(long),
			      GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, copy);
	KUNIT_ASSERT_NOT_NULL(test, masks);
	*copy = *t->m;
	topo = &copy->topo;
	memset(topo, 0, sizeof(*topo));
	topo->leaving = t->m->topo.leaving;
	for (n = 1;; n++) {
		irq_spread_test_fail_nth(n);
		ret = irq_spread_topology_init(topo, t->m->topo.ops, nr_cpus,
					       t->m->topo.nr_nodes, copy);
		fired = irq_spread_test_fail_nth_fired();
		if (!fired)
			break;
		if (!ret) {
			irq_spread_topology_destroy(topo);
			absorbed++;
			continue;
		}
		KUNIT_EXPECT_EQ_MSG(test, ret, -ENOMEM, "allocation %u", n);
		KUNIT_EXPECT_TRUE_MSG(test, !topo->order && !topo->query,
				      "allocation %u failed: something kept", n);
		if (n > 1)
			continue;
		KUNIT_EXPECT_EQ(test, irq_spread_topo_cpus(topo, 0, 1,
							   IRQ_SPREAD_NUMA, NULL,
							   masks, BITS_TO_LONGS(nr_cpus)),
				-ENOMEM);
		KUNIT_EXPECT_EQ(test, irq_spread_topo_nth_cpu(topo, 0, 0,
							      IRQ_SPREAD_NUMA),
				-ENOMEM);
		KUNIT_EXPECT_NULL(test, topo->load);
	}
	KUNIT_ASSERT_EQ(test, ret, 0);
	KUNIT_EXPECT_EQ(test, irq_spread_topo_nth_cpu(topo, 0, 0, IRQ_SPREAD_NUMA),
			0);
	irq_spread_topology_destroy(topo);
	kunit_info(test, "topology: %u allocations failed in turn: %u -ENOMEM, %u absorbed",
		   n - 1, n - 1 - absorbed, absorbed);
}

/*
 * Unregistering with each allocation failing in turn: the device goes all
 * the same, and what the administrator set is kept for the next
 * registration (irq_spread_test_dev_kept()), or, its allocation failing,
 * not (logged): the next registration has the driver's policy.
 */
static void irq_spread_test_fault_unregister(struct kunit *test)
{
	struct dev_test *t = test->priv;
	struct irq_spread_dev_info info = spread_info(t, 0, IRQ_SPREAD_NUMA, 4);
	enum irq_spread_policy policy;
	struct irq_spread_dev *sd;
	unsigned int n, lost = 0;
	bool fired;

	for (n = 1;; n++) {
		sd = irq_spread_dev_topo_register(&t->m->topo, &info);
		KUNIT_ASSERT_NOT_ERR_OR_NULL(test, sd);
		KUNIT_ASSERT_EQ(test, irq_spread_dev_set_policy(sd, IRQ_SPREAD_NUMA_CORE),
				0);
		irq_spread_test_fail_nth(n);
		irq_spread_dev_unregister(sd);
		fired = irq_spread_test_fail_nth_fired();
		KUNIT_ASSERT_EQ(test, irq_spread_test_load_sum(&t->m->topo), 0);

		sd = irq_spread_dev_topo_register(&t->m->topo, &info);
		KUNIT_ASSERT_NOT_ERR_OR_NULL(test, sd);
		policy = irq_spread_dev_policy(sd);
		irq_spread_dev_unregister(sd);
		if (!fired)
			break;
		if (policy == IRQ_SPREAD_NUMA)
			lost++;
		else
			KUNIT_EXPECT_EQ_MSG(test, policy, IRQ_SPREAD_NUMA_CORE,
					    "allocation %u", n);
	}
	KUNIT_EXPECT_EQ(test, policy, IRQ_SPREAD_NUMA_CORE);
	KUNIT_EXPECT_GT(test, lost, 0);
	kunit_info(test, "unregister: %u allocations failed in turn, %u lost the administrator's settings",
		   n - 1, lost);
}

#ifdef CONFIG_CPU_RMAP
/* Whether the aRFS map leads CPUs 0-3 to vectors 0-3, numa's placement. */
static bool fault_rmap_numa(struct cpu_rmap *rmap)
{
	unsigned int cpu;

	for (cpu = 0; cpu < 4; cpu++)
		if (cpu_rmap_lookup_index(rmap, cpu) != cpu)
			return false;
	return true;
}

/*
 * A policy write with each allocation failing in turn, on a device with
 * an aRFS map, core 0;2;4;6 to numa 0;1;2;3: -ENOMEM and nothing changed;
 * or done, and where the map's update failed (cpu_rmap_update()
 * allocates with CPUMASK_OFFSTACK), the map not updated, logged.
 */
static void irq_spread_test_fault_rmap(struct kunit *test)
{
	struct irq_spread_dev_info info = spread_info(test->priv, 0,
						   IRQ_SPREAD_CORE, 4);
	struct cpu_rmap *rmap = alloc_cpu_rmap(4, GFP_KERNEL);
	unsigned int n, stale = 0;
	struct irq_spread_dev *sd;
	int ret;

	KUNIT_ASSERT_NOT_NULL(test, rmap);
	info.rmap = rmap;
	sd = dev_register_info(test, &info);
	dev_attach_all(test, sd, 4);
	for (n = 1;; n++) {
		irq_spread_test_fail_nth(n);
		ret = irq_spread_dev_set_policy(sd, IRQ_SPREAD_NUMA);
		if (!irq_spread_test_fail_nth_fired())
			break;
		if (ret) {
			KUNIT_EXPECT_EQ_MSG(test, ret, -ENOMEM, "allocation %u", n);
			KUNIT_ASSERT_STREQ_MSG(test, fake_affinities(test, 4),
					       "0;2;4;6", "allocation %u", n);
			KUNIT_EXPECT_EQ(test, cpu_rmap_lookup_index(rmap, 2), 1);
			continue;
		}
		KUNIT_ASSERT_STREQ_MSG(test, fake_affinities(test, 4), "0;1;2;3",
				       "allocation %u", n);
		if (!fault_rmap_numa(rmap))
			stale++;
		KUNIT_ASSERT_EQ(test, irq_spread_dev_set_policy(sd, IRQ_SPREAD_CORE), 0);
	}
	KUNIT_EXPECT_EQ(test, ret, 0);
	KUNIT_EXPECT_TRUE(test, fault_rmap_numa(rmap));
	if (IS_ENABLED(CONFIG_CPUMASK_OFFSTACK))
		KUNIT_EXPECT_GT(test, stale, 0);
	kunit_info(test, "policy with an aRFS map: %u allocations failed in turn, %u left the map not updated",
		   n - 1, stale);
	irq_spread_dev_unregister(sd);
	kunit_remove_action(test, dev_test_unregister, sd);
	cpu_rmap_put(rmap);
}
#endif

static struct kunit_case irq_spread_fault_test_cases[] = {
	KUNIT_CASE(irq_spread_test_fault_register),
	KUNIT_CASE(irq_spread_test_fault_topology),
	KUNIT_CASE(irq_spread_test_fault_unregister),
#ifdef CONFIG_CPU_RMAP
	KUNIT_CASE(irq_spread_test_fault_rmap),
#endif
	KUNIT_CASE_PARAM(irq_spread_test_fault_op, fault_op_gen_params),
	{}
};

static struct kunit_suite irq_spread_fault_test_suite = {
	.name = "irq_spread_fault",
	.init = fault_test_init,
	.test_cases = irq_spread_fault_test_cases,
};

kunit_test_suites(&irq_spread_param_test_suite, &irq_spread_dev_test_suite,
		  &irq_spread_fault_test_suite);

MODULE_DESCRIPTION("KUnit tests for irq_spread devices");
MODULE_LICENSE("GPL");
