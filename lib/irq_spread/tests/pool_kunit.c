// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for irq_spread pools, on injected machines, and a benchmark.
 *
 * A pool's device is a fake one: its request callback hands out interrupt
 * numbers TEST_IRQ_BASE + vector and records what it is asked, its release
 * callback checks that it is given back what it handed out.  The tables
 * give a sequence of gets and the vector and CPUs each must get, worked
 * out by hand from the rules in lib/irq_spread/pool.c and
 * Documentation/core-api/irq_spread.rst.  The seed 004 scenario, 2750
 * gets, is too long for that: each of its gets is checked against those
 * rules instead.
 *
 * A registered device whose driver requests its interrupts (a pool's
 * owner) has them attached to fake ones too, CONSUMER_IRQ_BASE + vector,
 * recorded apart from the pool's: the pool's affinities and counts stay
 * its own.
 */
#include <kunit/device.h>
#include <kunit/static_stub.h>
#include <kunit/test.h>
#include <linux/atomic.h>
#include <linux/bitmap.h>
#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/err.h>
#include <linux/irq_spread.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/list.h>
#include <linux/math.h>
#include <linux/mutex.h>
#include <linux/numa.h>
#include <linux/panic.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/sprintf.h>
#include <linux/string.h>

#include "../device.h"
#include "../pool.h"
#include "machine.h"

MODULE_IMPORT_NS("EXPORTED_FOR_KUNIT_TESTING");

#define TEST_IRQ_BASE	1000
#define POOL_TEST_IRQS	64

/* A registered device's fake interrupts, apart from the pools'. */
#define CONSUMER_IRQ_BASE	2000
#define CONSUMER_IRQS		8

/*
 * The machines: seed 004's 2-socket Xeon (irq_spread_test_xeon), and two
 * sockets of two nodes of two CPUs, no SMT: hops 10, 12, 20.
 */
static int quad_distance(int a, int b)
{
	if (a == b)
		return 10;
	return a / 2 == b / 2 ? 12 : 20;
}

static const char * const quad_nodes[] = { "0-1", "2-3", "4-5", "6-7" };

static const struct test_machine quad = {
	.name = "2S 4N no SMT", .nr_cpus = 8, .nr_nodes = 4,
	.node_cpus = quad_nodes, .distance = quad_distance, .smt = 1,
};

/*
 * Four nodes of two CPUs, as quad's, whose hops differ by node: node 1 is
 * at 12 from node 0 and node 3 at 16; node 2 is at 30 from every other.
 */
static const int uneven_distances[4][4] = {
	{ 10, 12, 30, 16 },
	{ 12, 10, 30, 30 },
	{ 30, 30, 10, 30 },
	{ 16, 30, 30, 10 },
};

static int uneven_distance(int a, int b)
{
	return uneven_distances[a][b];
}

static const struct test_machine uneven = {
	.name = "4N uneven hops", .nr_cpus = 8, .nr_nodes = 4,
	.node_cpus = quad_nodes, .distance = uneven_distance, .smt = 1,
};

/**
 * struct pool_dev - the fake device behind a pool
 * @t: its machine
 * @first: the pool's first vector
 * @requested: the vectors requested and not released, by the callbacks
 * @requests: calls of the request callback that succeeded
 * @vector: the vector of the last of them
 * @mask: the CPUs it was given
 * @releases: calls of the release callback
 * @errors: callbacks given something they did not expect
 * @fail: what the request callback returns instead of requesting, if not 0
 * @sleep: whether the request callback sleeps, to let other threads run
 */
struct pool_dev {
	struct test_topo *t;
	unsigned int first;
	unsigned long *requested;
	atomic_t requests;
	unsigned int vector;
	unsigned long *mask;
	atomic_t releases;
	atomic_t errors;
	int fail;
	bool sleep;
};

/**
 * struct consumer_irq - a fake interrupt of a registered device
 * @aff: its affinity
 * @notify: its affinity notifier, or %NULL
 */
struct consumer_irq {
	unsigned long aff;
	struct irq_affinity_notify *notify;
};

/**
 * struct pool_test - what the fake interrupt core saw in a test
 * @aff: the affinity the pool set last on each of the first
 *	%POOL_TEST_IRQS interrupts from TEST_IRQ_BASE, on a machine of at
 *	most BITS_PER_LONG CPUs
 * @placer: the placer installed on each of them, or %NULL
 * @sets: affinities the pool set on them
 * @consumer: the %CONSUMER_IRQS interrupts from CONSUMER_IRQ_BASE, which
 *	registered devices' vectors are attached to; not counted in @sets
 * @managed_irq: the interrupt the interrupt core manages, or 0
 */
struct pool_test {
	unsigned long aff[POOL_TEST_IRQS];
	struct irq_affinity_placer *placer[POOL_TEST_IRQS];
	unsigned int sets;
	struct consumer_irq consumer[CONSUMER_IRQS];
	unsigned int managed_irq;
};

/* Fake interrupt @irq of a registered device; %NULL if it is none. */
static struct consumer_irq *consumer_irq(unsigned int irq)
{
	struct kunit *test = kunit_get_current_test();
	struct pool_test *pt = test->priv;

	if (irq - CONSUMER_IRQ_BASE < CONSUMER_IRQS)
		return &pt->consumer[irq - CONSUMER_IRQ_BASE];
	KUNIT_FAIL(test, "IRQ %u is no device's fake one", irq);
	return NULL;
}

/* As irq_set_affinity_and_hint(), on a device's fake interrupt. */
static int consumer_apply(unsigned int irq, const struct cpumask *mask)
{
	struct consumer_irq *f = consumer_irq(irq);

	if (!f)
		return -EINVAL;
	f->aff = cpumask_bits(mask)[0];
	return 0;
}

/* Nothing here reads the hint. */
static void consumer_hint(unsigned int irq, const struct cpumask *hint)
{
}

/*
 * The affinity set last, as irq_spread_irq_get() reads it; no test here
 * plays the administrator, so the library placed it.
 */
static int consumer_get(unsigned int irq, struct cpumask *dst)
{
	struct consumer_irq *f = consumer_irq(irq);

	if (!f)
		return -EINVAL;
	cpumask_clear(dst);
	cpumask_bits(dst)[0] = f->aff;
	return IRQ_PLACEMENT_PLACED;
}

/* Installs or removes the notifier; no test here delivers one. */
static int consumer_notifier(unsigned int irq,
			     struct irq_affinity_notify *notify)
{
	struct consumer_irq *f = consumer_irq(irq);

	if (!f)
		return -EINVAL;
	f->notify = notify;
	return 0;
}

/*
 * The pool sets its interrupts' affinity; these are fake, and recorded.
 * A device's vector may be set here too (the administrator's mask, an
 * undo): recorded as the device's, not counted.
 */
static int pool_test_affinity(unsigned int irq, const struct cpumask *mask)
{
	struct pool_test *pt = kunit_get_current_test()->priv;

	if (irq - TEST_IRQ_BASE < POOL_TEST_IRQS) {
		pt->aff[irq - TEST_IRQ_BASE] = cpumask_bits(mask)[0];
		pt->sets++;
	} else if (irq - CONSUMER_IRQ_BASE < CONSUMER_IRQS) {
		return consumer_apply(irq, mask);
	}
	return 0;
}

/* The one fake interrupt the interrupt core manages, if any. */
static bool pool_test_managed(unsigned int irq)
{
	struct pool_test *pt = kunit_get_current_test()->priv;

	return irq && irq == pt->managed_irq;
}

/*
 * As irq_set_affinity_placer() on a pool's interrupt: one placer at a
 * time (those past the first %POOL_TEST_IRQS are not recorded), none on a
 * managed interrupt.  No placer on the registered devices' interrupts, as
 * when the interrupt core cannot allocate one: the library moves them on
 * CPU hotplug itself.
 */
static int pool_test_placer(unsigned int irq, struct irq_affinity_placer *placer)
{
	struct pool_test *pt = kunit_get_current_test()->priv;
	unsigned int i = irq - TEST_IRQ_BASE;

	if (irq - CONSUMER_IRQ_BASE < CONSUMER_IRQS)
		return placer ? -ENOMEM : 0;
	if (placer && pool_test_managed(irq))
		return -EINVAL;
	if (i >= POOL_TEST_IRQS)
		return 0;
	if (placer && pt->placer[i])
		return -EBUSY;
	pt->placer[i] = placer;
	return 0;
}

/* The placed state is not read here. */
static void consumer_unplace(unsigned int irq)
{
}

static int pool_test_init(struct kunit *test)
{
	test->priv = kunit_kzalloc(test, sizeof(struct pool_test), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, test->priv);
	kunit_activate_static_stub(test, irq_spread_irq_affinity,
				   pool_test_affinity);
	kunit_activate_static_stub(test, irq_spread_irq_place,
				   pool_test_affinity);
	kunit_activate_static_stub(test, irq_spread_irq_managed,
				   pool_test_managed);
	kunit_activate_static_stub(test, irq_spread_irq_placer, pool_test_placer);
	kunit_activate_static_stub(test, irq_spread_irq_unplace, consumer_unplace);
	/* Before any device is registered: undone after its unregistration. */
	kunit_activate_static_stub(test, irq_spread_irq_apply, consumer_apply);
	kunit_activate_static_stub(test, irq_spread_irq_hint, consumer_hint);
	kunit_activate_static_stub(test, irq_spread_irq_get, consumer_get);
	kunit_activate_static_stub(test, irq_spread_irq_notifier,
				   consumer_notifier);
	return 0;
}

/* The affinity the pool set last on interrupt @irq. */
static unsigned long pool_aff(struct kunit *test, unsigned int irq)
{
	struct pool_test *pt = test->priv;

	KUNIT_ASSERT_LT(test, irq - TEST_IRQ_BASE, POOL_TEST_IRQS);
	return pt->aff[irq - TEST_IRQ_BASE];
}

/* Test-managed: it outlives the pool, whose destruction releases vectors. */
static struct pool_dev *pool_dev_new(struct kunit *test)
{
	struct pool_dev *dev = kunit_kzalloc(test, sizeof(*dev), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, dev);
	return dev;
}

static int pool_dev_request(void *priv, unsigned int vector,
			    const struct cpumask *mask)
{
	struct pool_dev *dev = priv;
	unsigned int n = dev->t->m->nr_cpus;

	if (dev->fail)
		return dev->fail;
	if (dev->sleep)
		usleep_range(10, 50);
	/* Requested twice, or given no CPU. */
	if (test_and_set_bit(vector - dev->first, dev->requested) ||
	    bitmap_empty(cpumask_bits(mask), n))
		atomic_inc(&dev->errors);
	dev->vector = vector;
	bitmap_copy(dev->mask, cpumask_bits(mask), n);
	atomic_inc(&dev->requests);
	return TEST_IRQ_BASE + vector;
}

/* As the driver's free_irq(), which warns if the placer is still there. */
static void pool_dev_release(void *priv, unsigned int vector, unsigned int irq)
{
	struct pool_test *pt = kunit_get_current_test()->priv;
	struct pool_dev *dev = priv;

	if (!test_and_clear_bit(vector - dev->first, dev->requested) ||
	    irq != TEST_IRQ_BASE + vector ||
	    (vector < POOL_TEST_IRQS && pt->placer[vector]))
		atomic_inc(&dev->errors);
	atomic_inc(&dev->releases);
}

static const struct irq_spread_pool_ops pool_dev_ops = {
	.request	= pool_dev_request,
	.release	= pool_dev_release,
};

static void pool_destroy(void *pool)
{
	irq_spread_pool_destroy(pool);
}

/**
 * struct pool_params - a pool to create
 * @node: the device's node
 * @policy: its policy
 * @nvec: its number of vectors
 * @max_users: the driver's bound
 */
struct pool_params {
	int node;
	enum irq_spread_policy policy;
	unsigned int nvec;
	unsigned int max_users;
};

/*
 * Create the pool @info describes on @t, its fake device @dev; destroyed
 * when the test ends if @managed.
 */
static struct irq_spread_pool *pool_create(struct kunit *test,
					   struct test_topo *t,
					   struct pool_dev *dev,
					   struct irq_spread_pool_info *info,
					   bool managed)
{
	struct irq_spread_pool *pool;

	info->name = test->name;
	info->ops = &pool_dev_ops;
	info->priv = dev;
	dev->t = t;
	dev->first = info->first_vector;
	dev->requested = kunit_kcalloc(test, BITS_TO_LONGS(info->nr_vectors),
				       sizeof(long), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, dev->requested);
	dev->mask = irq_spread_test_bitmap(test, t);

	pool = irq_spread_pool_topo_create(&t->topo, info);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, pool);
	if (managed)
		KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, pool_destroy,
								pool), 0);
	return pool;
}

static struct irq_spread_pool *pool_new(struct kunit *test, struct test_topo *t,
					struct pool_dev *dev, unsigned int first,
					const struct pool_params *p)
{
	struct irq_spread_pool_info info = {
		.node = p->node, .policy = p->policy, .first_vector = first,
		.nr_vectors = p->nvec, .max_users = p->max_users,
	};

	return pool_create(test, t, dev, &info, true);
}

/* A pool as pool_new() makes, from vector 0, on the Xeon, into *@t. */
static struct irq_spread_pool *pool_on_xeon(struct kunit *test,
					    const struct pool_params *p,
					    struct test_topo **t)
{
	*t = irq_spread_test_topo_new(test, &irq_spread_test_xeon);
	return pool_new(test, *t, pool_dev_new(test), 0, p);
}

/* The CPUs of @pool's vector @v, counted from the pool's first. */
static const unsigned long *pool_mask(const struct irq_spread_pool *pool,
				      unsigned int v)
{
	return pool->masks + v * pool->stride;
}

/* What the pool's debugfs file shows. */
static const char *pool_show(struct kunit *test, struct irq_spread_pool *pool)
{
	struct seq_file m = { .size = PAGE_SIZE, .private = pool };

	m.buf = kunit_kzalloc(test, m.size, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, m.buf);
	KUNIT_EXPECT_EQ(test, irq_spread_pool_show(&m, NULL), 0);
	KUNIT_ASSERT_LT(test, m.count, m.size);
	return m.buf;
}

/* irq_spread_pool_get() for @cpus, a bitmap of the machine's CPUs or %NULL. */
static int pool_cpus_get(struct irq_spread_pool *pool, const unsigned long *cpus)
{
	return irq_spread_pool_get(pool, cpus ? to_cpumask(cpus) : NULL);
}

/*
 * Get a vector for @cpus, a CPU list ("*" for any CPU), and describe the
 * result as "vector:CPUs", or the error number.
 */
static int pool_get(struct kunit *test, struct test_topo *t,
		    struct irq_spread_pool *pool, const char *cpus,
		    char *buf, size_t size)
{
	unsigned int n = t->m->nr_cpus;
	unsigned long *want = NULL;
	int vec;

	if (strcmp(cpus, "*")) {
		want = irq_spread_test_bitmap(test, t);
		KUNIT_ASSERT_EQ(test, bitmap_parselist(cpus, want, n), 0);
	}
	vec = pool_cpus_get(pool, want);
	if (vec < 0)
		scnprintf(buf, size, "%d", vec);
	else
		scnprintf(buf, size, "%d:%*pbl", vec, n,
			  pool_mask(pool, vec - pool->info.first_vector));
	return vec;
}

/* Vectors 0 to @nr - 1 of @pool have @users[0] to @users[@nr - 1] users. */
static void pool_expect_users(struct kunit *test,
			      const struct irq_spread_pool *pool,
			      const unsigned int *users, unsigned int nr)
{
	unsigned int v;

	for (v = 0; v < nr; v++)
		KUNIT_EXPECT_EQ_MSG(test, pool->vec[v].users, users[v],
				    "vector %u", v);
}

/* Put every vector in @vecs, then check that nothing is left. */
static void pool_put_all(struct kunit *test, struct test_topo *t,
			 struct pool_dev *dev, struct irq_spread_pool *pool,
			 const int *vecs, unsigned int nr)
{
	unsigned int i;

	for (i = 0; i < nr; i++) {
		if (vecs[i] >= 0)
			KUNIT_EXPECT_EQ(test, irq_spread_pool_put(pool, vecs[i]), 0);
	}
	KUNIT_EXPECT_EQ(test, pool->users, 0);
	KUNIT_EXPECT_EQ(test, pool->nr_requested, 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&dev->releases),
			atomic_read(&dev->requests));
	KUNIT_EXPECT_EQ(test, atomic_read(&dev->errors), 0);
	KUNIT_EXPECT_EQ(test, irq_spread_test_load_sum(&t->topo), 0);
}

/**
 * struct get_case - gets in a row, and what each must give
 * @desc: what it tests
 * @m: the machine
 * @p: the pool
 * @gets: the CPUs of each get, ";" between gets, "*" for any CPU
 * @want: each get's "vector:CPUs" or error number, ";" between gets
 * @requests: how many vectors the gets request
 */
struct get_case {
	const char *desc;
	const struct test_machine *m;
	struct pool_params p;
	const char *gets;
	const char *want;
	unsigned int requests;
};

#define NUMA		IRQ_SPREAD_NUMA
#define NUMA_CORE	IRQ_SPREAD_NUMA_CORE
#define CORE		IRQ_SPREAD_CORE

static const struct get_case get_cases[] = {
	/* While users are fewer than vectors, every get requests one. */
	{ "lazy: a new vector until all are used", &irq_spread_test_xeon,
	  { 0, NUMA, 4 }, "0;0;0;0;0", "0:0;1:0;2:0;3:0;0:0", 4 },
	{ "a vector on the CPU first", &irq_spread_test_xeon, { 0, NUMA, 2 },
	  "0;1;1;0", "0:0;1:1;1:1;0:0", 2 },
	{ "the SMT sibling before the node", &irq_spread_test_xeon,
	  { 0, NUMA, 2 }, "5;0;28", "0:5;1:0;1:0", 2 },
	/*
	 * Shares ceil((U + 1) / 3) of 1, 1, 1, 2, 2, 2, 3: three new
	 * vectors; then CPU 0's two, the lower first, up to the share of 2;
	 * then its sibling 28's, below it; then CPU 0's again at 3.
	 */
	{ "the CPU's vectors up to the share, then its core's",
	  &irq_spread_test_xeon, { 0, NUMA, 3 }, "0;28;0;0;0;0;0",
	  "0:0;1:28;2:0;0:0;2:0;1:28;0:0", 3 },
	{ "the node before the other node", &irq_spread_test_xeon,
	  { 0, NUMA, 2 }, "14;1;2", "0:14;1:1;1:1", 2 },
	{ "balance before nearness", &irq_spread_test_xeon, { 0, NUMA, 2 },
	  "0;1;0;0", "0:0;1:1;0:0;1:1", 2 },
	{ "a node's vectors past the share before the other node",
	  &irq_spread_test_xeon, { 0, NUMA, 2 },
	  "0;14;1;2", "0:0;1:14;0:0;0:0", 2 },
	{ "the nearest hop with room", &quad, { 0, NUMA, 2 },
	  "4;0;2", "0:4;1:0;1:0", 2 },
	{ "the farther hop when the nearer are full", &quad, { 0, NUMA, 2, 2 },
	  "4;0;1;2", "0:4;1:0;1:0;0:4", 2 },
	/*
	 * Vectors on 6 (node 3) and 2 (node 1, two users).  CPUs 0 and 4
	 * (nodes 0 and 2) have none: node 1 is at 12 from node 0, node 3 at
	 * 16, both at 30 from node 2: node 1's vector, the more used.
	 */
	{ "several nodes asked for: the nearest distance from any", &uneven,
	  { 0, NUMA, 2 }, "6;2;2;0,4", "0:6;1:2;1:2;1:2", 2 },
	/*
	 * Three new vectors, on 0, 14 and 1; CPU 0's to 2 users; CPU 2
	 * has none, its node's least used is 1's; CPU 0's node then has 2
	 * users on each of its vectors, the bound, so the other node's;
	 * then none has room.
	 */
	{ "the other node only when the node's vectors have the bound",
	  &irq_spread_test_xeon, { 0, NUMA, 3, 2 }, "0;14;1;0;2;0;0",
	  "0:0;1:14;2:1;0:0;2:1;1:14;-28", 3 },
	{ "driver bound: no vector has room", &irq_spread_test_xeon,
	  { 0, NUMA, 2, 1 }, "0;0;0", "0:0;1:0;-28", 2 },
	{ "driver bound below the balance", &irq_spread_test_xeon,
	  { 0, NUMA, 1, 2 }, "0;3;20;0", "0:0;0:0;-28;-28", 1 },
	/* New vectors follow the pool's policy within the CPUs asked for. */
	{ "numa-core: any CPU", &irq_spread_test_xeon, { 1, NUMA_CORE, 3 },
	  "*;*;*;*", "0:14,42;1:15,43;2:16,44;0:14,42", 3 },
	{ "numa-core: one CPU asked for", &irq_spread_test_xeon,
	  { 0, NUMA_CORE, 2 }, "3;31", "0:3;1:31", 2 },
	{ "core: any CPU", &irq_spread_test_xeon, { 0, CORE, 3 },
	  "*;*;*", "0:0;1:1;2:2", 3 },
	{ "numa: any CPU, no node", &irq_spread_test_xeon,
	  { NUMA_NO_NODE, NUMA, 2 }, "*;*;*", "0:0;1:1;0:0", 2 },
	{ "a node: its least loaded CPU", &irq_spread_test_xeon, { 0, NUMA, 4 },
	  "3;0-13", "0:3;1:0", 2 },
	{ "the other node", &irq_spread_test_xeon, { 0, NUMA, 2 },
	  "14-27,42-55;14-27,42-55", "0:14;1:15", 2 },
	{ "a vector within a node asked for", &irq_spread_test_xeon,
	  { 0, NUMA, 2 }, "3;20;0-13", "0:3;1:20;0:3", 2 },
};

static void get_case_desc(const struct get_case *c, char *desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(get, get_cases, get_case_desc);

static void irq_spread_pool_test_gets(struct kunit *test)
{
	const struct get_case *c = test->param_value;
	struct test_topo *t = irq_spread_test_topo_new(test, c->m);
	struct pool_dev *dev = pool_dev_new(test);
	struct irq_spread_pool *pool = pool_new(test, t, dev, 0, &c->p);
	size_t size = strlen(c->want) + 64, len = 0;
	char *gets, *cpus, *got, one[64];
	int vecs[16];
	unsigned int nr = 0;

	gets = kunit_kstrdup(test, c->gets, GFP_KERNEL);
	got = kunit_kzalloc(test, size, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, gets);
	KUNIT_ASSERT_NOT_NULL(test, got);
	while ((cpus = strsep(&gets, ";"))) {
		KUNIT_ASSERT_LT(test, nr, ARRAY_SIZE(vecs));
		vecs[nr++] = pool_get(test, t, pool, cpus, one, sizeof(one));
		len += scnprintf(got + len, size - len, "%s%s", len ? ";" : "",
				 one);
	}
	KUNIT_EXPECT_STREQ(test, got, c->want);
	KUNIT_EXPECT_EQ(test, atomic_read(&dev->requests), c->requests);
	pool_put_all(test, t, dev, pool, vecs, nr);
}

/* What an empty pool of @nvec vectors on node 0 shows. */
#define EMPTY_POOL_SHOW(nvec) \
	"# node 0 policy numa max_users 0 requested 0/" #nvec " users 0\n" \
	"vector\tirq\tusers\tcpus\n"

/*
 * Vectors are requested when first needed, not when the pool is made, nor
 * while one that has room would do.
 */
static void irq_spread_pool_test_lazy(struct kunit *test)
{
	static const struct pool_params p = { 0, NUMA, 3 };
	struct test_topo *t = irq_spread_test_topo_new(test, &irq_spread_test_xeon);
	struct pool_dev *dev = pool_dev_new(test);
	struct irq_spread_pool *pool = pool_new(test, t, dev, 8, &p);
	char buf[64];
	int vecs[5];

	KUNIT_EXPECT_EQ(test, atomic_read(&dev->requests), 0);
	KUNIT_EXPECT_STREQ(test, pool_show(test, pool), EMPTY_POOL_SHOW(3));
	KUNIT_EXPECT_EQ(test, irq_spread_test_load_sum(&t->topo), 0);

	vecs[0] = pool_get(test, t, pool, "0", buf, sizeof(buf));
	KUNIT_EXPECT_STREQ(test, buf, "8:0");
	KUNIT_EXPECT_EQ(test, atomic_read(&dev->requests), 1);
	KUNIT_EXPECT_EQ(test, pool_aff(test, TEST_IRQ_BASE + 8), BIT(0));

	/* Users fewer than vectors: a vector each. */
	vecs[1] = pool_get(test, t, pool, "1", buf, sizeof(buf));
	KUNIT_EXPECT_STREQ(test, buf, "9:1");
	vecs[2] = pool_get(test, t, pool, "2", buf, sizeof(buf));
	KUNIT_EXPECT_STREQ(test, buf, "10:2");
	KUNIT_EXPECT_EQ(test, atomic_read(&dev->requests), 3);

	/* All requested, and one in the node asked for has room. */
	vecs[3] = pool_get(test, t, pool, "0-13", buf, sizeof(buf));
	KUNIT_EXPECT_STREQ(test, buf, "8:0");
	KUNIT_EXPECT_EQ(test, atomic_read(&dev->requests), 3);

	/* One released: still, one that has room comes first. */
	KUNIT_EXPECT_EQ(test, irq_spread_pool_put(pool, vecs[2]), 0);
	vecs[2] = -1;
	vecs[4] = pool_get(test, t, pool, "0-13", buf, sizeof(buf));
	KUNIT_EXPECT_STREQ(test, buf, "9:1");
	KUNIT_EXPECT_EQ(test, atomic_read(&dev->requests), 3);
	pool_put_all(test, t, dev, pool, vecs, ARRAY_SIZE(vecs));
}

/* A vector is released when its last user puts it, and only then. */
static void irq_spread_pool_test_release(struct kunit *test)
{
	static const struct pool_params p = { 0, NUMA, 1 };
	struct test_topo *t = irq_spread_test_topo_new(test, &irq_spread_test_xeon);
	struct pool_dev *dev = pool_dev_new(test);
	struct irq_spread_pool *pool = pool_new(test, t, dev, 8, &p);
	char buf[64];
	int vec;

	KUNIT_EXPECT_EQ(test, pool_get(test, t, pool, "0", buf, sizeof(buf)), 8);
	KUNIT_EXPECT_EQ(test, pool_get(test, t, pool, "0", buf, sizeof(buf)), 8);
	KUNIT_EXPECT_EQ(test, atomic_read(&dev->requests), 1);
	KUNIT_EXPECT_NE(test, irq_spread_test_load_sum(&t->topo), 0);

	KUNIT_EXPECT_EQ(test, irq_spread_pool_put(pool, 8), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&dev->releases), 0);
	KUNIT_EXPECT_NE(test, irq_spread_test_load_sum(&t->topo), 0);

	KUNIT_EXPECT_EQ(test, irq_spread_pool_put(pool, 8), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&dev->releases), 1);
	KUNIT_EXPECT_EQ(test, pool->nr_requested, 0);
	KUNIT_EXPECT_EQ(test, irq_spread_test_load_sum(&t->topo), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&dev->errors), 0);

	/* Needed again, it is requested again, placed for its new user. */
	vec = pool_get(test, t, pool, "20", buf, sizeof(buf));
	KUNIT_EXPECT_STREQ(test, buf, "8:20");
	KUNIT_EXPECT_EQ(test, atomic_read(&dev->requests), 2);
	pool_put_all(test, t, dev, pool, &vec, 1);
}

/* A request the driver fails: its error, and the pool as it was. */
static void irq_spread_pool_test_request_fails(struct kunit *test)
{
	static const struct pool_params p = { 0, NUMA, 4 };
	struct pool_test *pt = test->priv;
	struct test_topo *t = irq_spread_test_topo_new(test, &irq_spread_test_xeon);
	struct pool_dev *dev = pool_dev_new(test);
	struct irq_spread_pool *pool = pool_new(test, t, dev, 0, &p);
	size_t size = t->topo.nr_cpus * sizeof(*t->topo.load);
	unsigned int *load;
	const char *before;
	char buf[64];
	int vecs[2];

	/* The first get: nothing placed, nothing requested. */
	dev->fail = -EIO;
	KUNIT_EXPECT_EQ(test, pool_get(test, t, pool, "0", buf, sizeof(buf)), -EIO);
	KUNIT_EXPECT_STREQ(test, pool_show(test, pool), EMPTY_POOL_SHOW(4));
	KUNIT_EXPECT_EQ(test, irq_spread_test_load_sum(&t->topo), 0);

	dev->fail = 0;
	vecs[0] = pool_get(test, t, pool, "0", buf, sizeof(buf));
	KUNIT_EXPECT_STREQ(test, buf, "0:0");

	/* A later one: the other vectors and the load as they were. */
	before = pool_show(test, pool);
	load = kunit_kmalloc(test, size, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, load);
	memcpy(load, t->topo.load, size);
	dev->fail = -ENXIO;
	KUNIT_EXPECT_EQ(test, pool_get(test, t, pool, "14", buf, sizeof(buf)),
			-ENXIO);
	KUNIT_EXPECT_STREQ(test, pool_show(test, pool), before);
	KUNIT_EXPECT_MEMEQ(test, t->topo.load, load, size);
	KUNIT_EXPECT_EQ(test, pool->users, 1);
	KUNIT_EXPECT_EQ(test, pool->nr_requested, 1);
	KUNIT_EXPECT_TRUE(test, bitmap_empty(pool_mask(pool, 1),
					     t->topo.nr_cpus));

	/* A managed interrupt: released at once, the pool as it was. */
	dev->fail = 0;
	pt->managed_irq = TEST_IRQ_BASE + 1;
	KUNIT_EXPECT_EQ(test, pool_get(test, t, pool, "14", buf, sizeof(buf)),
			-EINVAL);
	KUNIT_EXPECT_STREQ(test, pool_show(test, pool), before);
	KUNIT_EXPECT_MEMEQ(test, t->topo.load, load, size);
	KUNIT_EXPECT_EQ(test, atomic_read(&dev->releases), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&dev->errors), 0);
	pt->managed_irq = 0;

	vecs[1] = pool_get(test, t, pool, "14", buf, sizeof(buf));
	KUNIT_EXPECT_STREQ(test, buf, "1:14");
	KUNIT_EXPECT_EQ(test, atomic_read(&dev->requests), 3);
	pool_put_all(test, t, dev, pool, vecs, ARRAY_SIZE(vecs));
}

/* The driver's bound holds for consumers that take any CPU. */
static void irq_spread_pool_test_bound(struct kunit *test)
{
	static const struct pool_params p = { 0, NUMA, 3, 2 };
	struct test_topo *t = irq_spread_test_topo_new(test, &irq_spread_test_xeon);
	struct pool_dev *dev = pool_dev_new(test);
	struct irq_spread_pool *pool = pool_new(test, t, dev, 0, &p);
	unsigned int i, v;
	const char *before;
	char buf[64];
	int vecs[6];

	for (i = 0; i < ARRAY_SIZE(vecs); i++)
		vecs[i] = pool_get(test, t, pool, "*", buf, sizeof(buf));
	for (v = 0; v < p.nvec; v++)
		KUNIT_EXPECT_EQ_MSG(test, pool->vec[v].users, 2, "vector %u", v);

	before = pool_show(test, pool);
	KUNIT_EXPECT_EQ(test, pool_get(test, t, pool, "*", buf, sizeof(buf)),
			-ENOSPC);
	KUNIT_EXPECT_EQ(test, pool_get(test, t, pool, "5", buf, sizeof(buf)),
			-ENOSPC);
	KUNIT_EXPECT_STREQ(test, pool_show(test, pool), before);

	/* Room on one vector: that one, wherever it is. */
	KUNIT_EXPECT_EQ(test, irq_spread_pool_put(pool, 1), 0);
	vecs[1] = pool_get(test, t, pool, "20", buf, sizeof(buf));
	KUNIT_EXPECT_EQ(test, vecs[1], 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&dev->requests), 3);
	pool_put_all(test, t, dev, pool, vecs, ARRAY_SIZE(vecs));
}

/*
 * Vectors with many users are still given least used first, lowest
 * number among equals.
 */
static void irq_spread_pool_test_many_users(struct kunit *test)
{
	static const struct pool_params p = { 0, NUMA, 3, 0 };
	/* 40, 39, 38 users: 2 (38), 1 (39, below 2's 39), 2, then 0. */
	static const int next[] = { 2, 1, 2, 0 };
	static const unsigned int after[] = { 41, 40, 40 };
	struct test_topo *t = irq_spread_test_topo_new(test, &irq_spread_test_xeon);
	struct pool_dev *dev = pool_dev_new(test);
	struct irq_spread_pool *pool = pool_new(test, t, dev, 0, &p);
	unsigned int i, v;
	char buf[64];

	/* Gets for any CPU leave no vector above ceil(120 / 3) = 40. */
	for (i = 0; i < 120; i++)
		KUNIT_ASSERT_GE(test, pool_get(test, t, pool, "*", buf,
					       sizeof(buf)), 0);
	for (v = 0; v < p.nvec; v++)
		KUNIT_ASSERT_EQ_MSG(test, pool->vec[v].users, 40, "vector %u", v);

	KUNIT_ASSERT_EQ(test, irq_spread_pool_put(pool, 2), 0);
	KUNIT_ASSERT_EQ(test, irq_spread_pool_put(pool, 2), 0);
	KUNIT_ASSERT_EQ(test, irq_spread_pool_put(pool, 1), 0);
	for (i = 0; i < ARRAY_SIZE(next); i++)
		KUNIT_EXPECT_EQ_MSG(test, pool_get(test, t, pool, "*", buf,
						   sizeof(buf)),
				    next[i], "get %u after the puts", i);
	for (v = 0; v < p.nvec; v++) {
		KUNIT_EXPECT_EQ_MSG(test, pool->vec[v].users, after[v],
				    "vector %u", v);
		while (pool->vec[v].users)
			KUNIT_ASSERT_EQ(test, irq_spread_pool_put(pool, v), 0);
	}
	KUNIT_EXPECT_EQ(test, pool->users, 0);
	KUNIT_EXPECT_EQ(test, pool->nr_requested, 0);
	KUNIT_EXPECT_EQ(test, irq_spread_test_load_sum(&t->topo), 0);
}

/*
 * A put lowers a vector below others: the next get takes the least used,
 * lowest number among equals, and so again after another put.
 */
static void irq_spread_pool_test_put_then_get(struct kunit *test)
{
	static const struct pool_params p = { 0, NUMA, 3, 0 };
	/*
	 * CPU 0 alone: vectors 0, 1 and 2 are requested there, 1 user
	 * each; the share is then 2, and the next gets take 0, then 1.
	 */
	static const int first[] = { 0, 1, 2, 0, 1 };
	static const unsigned int after[] = { 2, 2, 1 };
	struct test_topo *t;
	struct irq_spread_pool *pool = pool_on_xeon(test, &p, &t);
	unsigned int i;
	char buf[64];

	for (i = 0; i < ARRAY_SIZE(first); i++)
		KUNIT_ASSERT_EQ_MSG(test, pool_get(test, t, pool, "0", buf,
						   sizeof(buf)),
				    first[i], "get %u", i);

	/* 1, 2, 1 users: vectors 0 and 2 have the least, 0 is lower. */
	KUNIT_ASSERT_EQ(test, irq_spread_pool_put(pool, 0), 0);
	KUNIT_EXPECT_EQ(test, pool_get(test, t, pool, "0", buf, sizeof(buf)), 0);

	/* Again: 1, 2, 1 users, and 0 is taken. */
	KUNIT_ASSERT_EQ(test, irq_spread_pool_put(pool, 0), 0);
	KUNIT_EXPECT_EQ(test, pool_get(test, t, pool, "0", buf, sizeof(buf)), 0);
	pool_expect_users(test, pool, after, ARRAY_SIZE(after));
}

/*
 * Gets for CPUs 0 and 1, each with a list: the least used of both lists,
 * not the start of the first.
 */
static void irq_spread_pool_test_two_lists(struct kunit *test)
{
	static const struct pool_params p = { 0, NUMA, 3, 0 };
	struct test_topo *t;
	struct irq_spread_pool *pool = pool_on_xeon(test, &p, &t);
	static const char * const cpu[] = { "0", "1", "2" };
	static const unsigned int after[] = { 3, 3, 5 };
	unsigned int r, i;
	char buf[64];

	/*
	 * Vector i is requested on CPU i, then each gets a user in turn:
	 * with 3k + i users, the share is k + 1 and vector i has k.
	 */
	for (r = 0; r < 5; r++)
		for (i = 0; i < ARRAY_SIZE(cpu); i++)
			KUNIT_ASSERT_EQ_MSG(test, pool_get(test, t, pool, cpu[i],
							   buf, sizeof(buf)),
					    i, "round %u", r);
	/* 3, 1 and 5 users: 9, a share of 4. */
	for (i = 0; i < 2; i++)
		KUNIT_ASSERT_EQ(test, irq_spread_pool_put(pool, 0), 0);
	for (i = 0; i < 4; i++)
		KUNIT_ASSERT_EQ(test, irq_spread_pool_put(pool, 1), 0);

	/* Vector 1 has the fewest users of the two lists, then 2. */
	KUNIT_EXPECT_EQ(test, pool_get(test, t, pool, "0-1", buf, sizeof(buf)), 1);
	/* 3, 2 and 5: still 1, though 0 starts its list and is below 4. */
	KUNIT_EXPECT_EQ(test, pool_get(test, t, pool, "0-1", buf, sizeof(buf)), 1);
	pool_expect_users(test, pool, after, ARRAY_SIZE(after));
}

/*
 * A vector with a CPU the get does not ask for is not taken, though it
 * starts the list of the one it asks for.
 */
static void irq_spread_pool_test_start_too_wide(struct kunit *test)
{
	static const struct pool_params p = { 0, NUMA_CORE, 2, 0 };
	struct test_topo *t;
	struct irq_spread_pool *pool = pool_on_xeon(test, &p, &t);
	char buf[64];

	/* numa-core: vector 0 has its whole core, CPUs 0 and 28. */
	KUNIT_ASSERT_EQ(test, pool_get(test, t, pool, "0,28", buf, sizeof(buf)), 0);
	KUNIT_EXPECT_STREQ(test, buf, "0:0,28");
	/* Vector 0 is not within CPU 0: vector 1 is requested there. */
	KUNIT_ASSERT_EQ(test, pool_get(test, t, pool, "0", buf, sizeof(buf)), 1);
	KUNIT_EXPECT_STREQ(test, buf, "1:0");
	/* Both have 1 user, the share is 2: vector 1, the one within CPU 0. */
	KUNIT_EXPECT_EQ(test, pool_get(test, t, pool, "0", buf, sizeof(buf)), 1);
	pool_expect_users(test, pool, (const unsigned int []){ 1, 2 }, 2);
}

/*
 * Where a walk of a list would start has more users than the list had
 * when it was walked whole: a lower numbered vector with as many is taken.
 */
static void irq_spread_pool_test_start_more_used(struct kunit *test)
{
	static const struct pool_params p = { 0, NUMA, 2, 0 };
	/*
	 * CPU 0 alone: 0 and 1 are requested (the share is 1 at the
	 * second get), then 0 and 1 have 2 users each.
	 */
	static const int first[] = { 0, 1, 0, 1 };
	static const unsigned int after[] = { 3, 2 };
	struct test_topo *t;
	struct irq_spread_pool *pool = pool_on_xeon(test, &p, &t);
	unsigned int i;
	char buf[64];

	for (i = 0; i < ARRAY_SIZE(first); i++)
		KUNIT_ASSERT_EQ_MSG(test, pool_get(test, t, pool, "0", buf,
						   sizeof(buf)),
				    first[i], "get %u", i);
	/* 1 and 2 users: the next get takes 0, the least used. */
	KUNIT_ASSERT_EQ(test, irq_spread_pool_put(pool, 0), 0);
	KUNIT_ASSERT_EQ(test, pool_get(test, t, pool, "0", buf, sizeof(buf)), 0);
	/*
	 * 2 and 2, with a share of 3: 0, the lower, though the list found
	 * its least at 1 user and its walk would start at 1.
	 */
	KUNIT_EXPECT_EQ(test, pool_get(test, t, pool, "0", buf, sizeof(buf)), 0);
	pool_expect_users(test, pool, after, ARRAY_SIZE(after));
}

/**
 * struct create_case - pool settings that are not valid
 * @desc: what is wrong
 * @info: the settings
 */
struct create_case {
	const char *desc;
	struct irq_spread_pool_info info;
};

static const struct irq_spread_pool_ops pool_no_request_ops = {
	.release	= pool_dev_release,
};

static const struct irq_spread_pool_ops pool_no_release_ops = {
	.request	= pool_dev_request,
};

static const struct create_case create_cases[] = {
	{ "no name", { .ops = &pool_dev_ops, .nr_vectors = 2 } },
	{ "no callbacks", { .name = "p", .nr_vectors = 2 } },
	{ "no request callback",
	  { .name = "p", .ops = &pool_no_request_ops, .nr_vectors = 2 } },
	{ "no release callback",
	  { .name = "p", .ops = &pool_no_release_ops, .nr_vectors = 2 } },
	{ "no vector", { .name = "p", .ops = &pool_dev_ops } },
	{ "bad policy", { .name = "p", .ops = &pool_dev_ops, .nr_vectors = 2,
			  .policy = IRQ_SPREAD_NR_POLICIES } },
	{ "negative policy", { .name = "p", .ops = &pool_dev_ops,
			       .nr_vectors = 2, .policy = -1 } },
	{ "node past the last", { .name = "p", .ops = &pool_dev_ops,
				  .nr_vectors = 2, .node = 2 } },
	{ "negative node", { .name = "p", .ops = &pool_dev_ops,
			     .nr_vectors = 2, .node = -2 } },
	{ "vectors past INT_MAX", { .name = "p", .ops = &pool_dev_ops,
				    .nr_vectors = 2, .first_vector = INT_MAX } },
	{ "first vector past INT_MAX",
	  { .name = "p", .ops = &pool_dev_ops, .nr_vectors = 1,
	    .first_vector = 1U + INT_MAX } },
	{ "vectors past UINT_MAX",
	  { .name = "p", .ops = &pool_dev_ops, .nr_vectors = UINT_MAX,
	    .first_vector = 2 } },
};

static void create_case_desc(const struct create_case *c, char *desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(create, create_cases, create_case_desc);

static void irq_spread_pool_test_create_invalid(struct kunit *test)
{
	const struct create_case *c = test->param_value;
	struct test_topo *t = irq_spread_test_topo_new(test, &irq_spread_test_xeon);

	KUNIT_EXPECT_PTR_EQ(test, irq_spread_pool_topo_create(&t->topo, &c->info),
			    ERR_PTR(-EINVAL));
	KUNIT_EXPECT_PTR_EQ(test, irq_spread_pool_topo_create(&t->topo, NULL),
			    ERR_PTR(-EINVAL));
	KUNIT_EXPECT_NULL(test, t->topo.load);
}

/* Bad gets and puts: -EINVAL, and nothing changed. */
static void irq_spread_pool_test_invalid(struct kunit *test)
{
	static const struct pool_params p = { 0, NUMA, 2 };
	struct test_topo *t = irq_spread_test_topo_new(test, &irq_spread_test_xeon);
	struct pool_dev *dev = pool_dev_new(test);
	struct irq_spread_pool *pool = pool_new(test, t, dev, 8, &p);
	unsigned long *none = irq_spread_test_bitmap(test, t);
	const char *before;
	char buf[64];
	int vec;

	vec = pool_get(test, t, pool, "0", buf, sizeof(buf));
	KUNIT_EXPECT_EQ(test, vec, 8);
	before = pool_show(test, pool);

	KUNIT_EXPECT_EQ(test, irq_spread_pool_get(NULL, NULL), -EINVAL);
	KUNIT_EXPECT_EQ(test, pool_cpus_get(pool, none), -EINVAL);
	KUNIT_EXPECT_EQ(test, irq_spread_pool_put(NULL, 8), -EINVAL);
	KUNIT_EXPECT_EQ(test, irq_spread_pool_put(pool, 7), -EINVAL);
	KUNIT_EXPECT_EQ(test, irq_spread_pool_put(pool, 9), -EINVAL);
	KUNIT_EXPECT_EQ(test, irq_spread_pool_put(pool, 10), -EINVAL);
	KUNIT_EXPECT_EQ(test, irq_spread_pool_put(pool, UINT_MAX), -EINVAL);

	KUNIT_EXPECT_STREQ(test, pool_show(test, pool), before);
	KUNIT_EXPECT_EQ(test, atomic_read(&dev->requests), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&dev->releases), 0);
	pool_put_all(test, t, dev, pool, &vec, 1);
}

/* The debugfs file: the pool, then each requested vector. */
static void irq_spread_pool_test_show(struct kunit *test)
{
	static const struct pool_params p = { 1, NUMA_CORE, 3 };
	struct test_topo *t = irq_spread_test_topo_new(test, &irq_spread_test_xeon);
	struct pool_dev *dev = pool_dev_new(test);
	struct irq_spread_pool *pool = pool_new(test, t, dev, 56, &p);
	char buf[64];
	int vecs[4];

	vecs[0] = pool_get(test, t, pool, "*", buf, sizeof(buf));
	vecs[1] = pool_get(test, t, pool, "*", buf, sizeof(buf));
	vecs[2] = pool_get(test, t, pool, "14", buf, sizeof(buf));
	KUNIT_EXPECT_STREQ(test, pool_show(test, pool),
			   "# node 1 policy numa-core max_users 0 requested 3/3 users 3\n"
			   "vector\tirq\tusers\tcpus\n"
			   "56\t1056\t1\t14,42\n"
			   "57\t1057\t1\t15,43\n"
			   "58\t1058\t1\t14\n");

	/* 42's core: vectors 56 and 58, as little used; the lower first. */
	vecs[3] = pool_get(test, t, pool, "42", buf, sizeof(buf));
	KUNIT_EXPECT_STREQ(test, pool_show(test, pool),
			   "# node 1 policy numa-core max_users 0 requested 3/3 users 4\n"
			   "vector\tirq\tusers\tcpus\n"
			   "56\t1056\t2\t14,42\n"
			   "57\t1057\t1\t15,43\n"
			   "58\t1058\t1\t14\n");
	pool_put_all(test, t, dev, pool, vecs, ARRAY_SIZE(vecs));
}

/**
 * struct sys_dev - a fake device on the running system
 * @mask: the CPUs of the last vector requested
 * @requests: calls of the request callback
 * @releases: calls of the release callback
 */
struct sys_dev {
	cpumask_var_t mask;
	unsigned int requests;
	unsigned int releases;
};

static int sys_dev_request(void *priv, unsigned int vector,
			   const struct cpumask *mask)
{
	struct sys_dev *dev = priv;

	cpumask_copy(dev->mask, mask);
	dev->requests++;
	return TEST_IRQ_BASE + vector;
}

static void sys_dev_release(void *priv, unsigned int vector, unsigned int irq)
{
	struct sys_dev *dev = priv;

	dev->releases++;
}

static const struct irq_spread_pool_ops sys_dev_ops = {
	.request	= sys_dev_request,
	.release	= sys_dev_release,
};

static void sys_dev_free(void *mask)
{
	free_cpumask_var(mask);
}

/* The driver API on the running system (one CPU under UML). */
static void irq_spread_pool_test_system(struct kunit *test)
{
	struct irq_spread_pool_info info = {
		.name = "irq_spread_pool_test_system", .node = NUMA_NO_NODE,
		.policy = IRQ_SPREAD_NUMA, .nr_vectors = 2, .ops = &sys_dev_ops,
	};
	unsigned int cpu = cpumask_first(cpu_online_mask);
	struct irq_spread_pool *pool;
	struct sys_dev *dev;
	cpumask_var_t empty;

	/* Test-managed: the pool's destruction may still call back. */
	dev = kunit_kzalloc(test, sizeof(*dev), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, dev);
	info.priv = dev;
	KUNIT_ASSERT_TRUE(test, zalloc_cpumask_var(&dev->mask, GFP_KERNEL));
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, sys_dev_free,
							dev->mask), 0);
	KUNIT_ASSERT_TRUE(test, zalloc_cpumask_var(&empty, GFP_KERNEL));
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, sys_dev_free,
							empty), 0);

	KUNIT_EXPECT_PTR_EQ(test, irq_spread_pool_create(NULL), ERR_PTR(-EINVAL));
	irq_spread_pool_destroy(NULL);
	pool = irq_spread_pool_create(&info);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, pool);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, pool_destroy,
							pool), 0);

	KUNIT_EXPECT_EQ(test, irq_spread_pool_get(NULL, NULL), -EINVAL);
	KUNIT_EXPECT_EQ(test, irq_spread_pool_get(pool, empty), -EINVAL);
	KUNIT_EXPECT_EQ(test, dev->requests, 0);

	KUNIT_EXPECT_EQ(test, irq_spread_pool_get(pool, cpumask_of(cpu)), 0);
	KUNIT_EXPECT_EQ(test, dev->requests, 1);
	KUNIT_EXPECT_TRUE(test, cpumask_equal(dev->mask, cpumask_of(cpu)));
	KUNIT_EXPECT_EQ(test, irq_spread_pool_get(pool, NULL), 1);
	KUNIT_EXPECT_EQ(test, dev->requests, 2);

	KUNIT_EXPECT_EQ(test, irq_spread_pool_put(pool, 0), 0);
	KUNIT_EXPECT_EQ(test, irq_spread_pool_put(pool, 1), 0);
	KUNIT_EXPECT_EQ(test, irq_spread_pool_put(pool, 1), -EINVAL);
	KUNIT_EXPECT_EQ(test, dev->releases, 2);
}

/*
 * Two nodes of two SMT2 cores: node 0 CPUs 0-3, node 1 CPUs 4-7, siblings
 * 2k and 2k + 1, distances 10 and 20.
 */
static const char * const smt2_nodes[] = { "0-3", "4-7" };

static const struct test_machine smt2 = {
	.name = "2N SMT2", .nr_cpus = 8, .nr_nodes = 2,
	.node_cpus = smt2_nodes, .remote = 20, .smt = 2,
};

/* Take @cpu offline, or bring it back, as the CPU hotplug callbacks do. */
static void pool_cpu(struct test_topo *t, unsigned int cpu, bool online)
{
	if (online) {
		__set_bit(cpu, t->online);
		irq_spread_devs_cpu_online(&t->topo, cpu);
	} else {
		irq_spread_devs_cpu_offline(&t->topo, cpu);
		__clear_bit(cpu, t->online);
	}
}

/* The pool's vectors as its debugfs file lists them, without the header. */
static const char *pool_rows(struct kunit *test, struct irq_spread_pool *pool)
{
	const char *show = pool_show(test, pool);

	show = strchr(show, '\n');
	KUNIT_ASSERT_NOT_NULL(test, show);
	show = strchr(show + 1, '\n');
	KUNIT_ASSERT_NOT_NULL(test, show);
	return show + 1;
}

/*
 * CPU hotplug: the pool's own state never moves.  Each requested vector's
 * interrupt has the pool's placer while it is requested, which the
 * interrupt core asks where the interrupt goes while a CPU of it is
 * offline: the eligible CPUs but that one, those of its node if any.  The
 * core brings it home itself (irq_test.c tests that).  On the 2-socket
 * 4-node machine, pool on node 0, numa: gets for CPUs 0, 2 and 4 give
 * vectors on 0, 2 and 4.
 */
static void irq_spread_pool_test_hotplug(struct kunit *test)
{
	static const struct pool_params p = { 0, NUMA, 4 };
	struct test_topo *t = irq_spread_test_topo_new(test, &quad);
	struct pool_dev *dev = pool_dev_new(test);
	struct irq_spread_pool *pool = pool_new(test, t, dev, 0, &p);
	struct pool_test *pt = test->priv;
	struct irq_affinity_placer *placer;
	unsigned long *mask = irq_spread_test_bitmap(test, t);
	const char *rows;
	char buf[64];
	int vecs[3];

	vecs[0] = pool_get(test, t, pool, "0", buf, sizeof(buf));
	vecs[1] = pool_get(test, t, pool, "2", buf, sizeof(buf));
	vecs[2] = pool_get(test, t, pool, "4", buf, sizeof(buf));
	rows = "0\t1000\t1\t0\n1\t1001\t1\t2\n2\t1002\t1\t4\n";
	KUNIT_ASSERT_STREQ(test, pool_rows(test, pool), rows);
	KUNIT_EXPECT_NULL(test, pt->placer[3]);

	/* CPUs 2 and 0 go and come back: the pool sets nothing. */
	pt->sets = 0;
	pool_cpu(t, 2, false);
	pool_cpu(t, 0, false);
	KUNIT_EXPECT_STREQ(test, pool_rows(test, pool), rows);
	pool_cpu(t, 0, true);
	pool_cpu(t, 2, true);
	KUNIT_EXPECT_EQ(test, pt->sets, 0);
	KUNIT_EXPECT_EQ(test, irq_spread_test_load_sum(&t->topo), 3);

	/* Vector 1 (CPU 2, node 1): node 1's CPUs, 2-3. */
	placer = pt->placer[1];
	KUNIT_ASSERT_NOT_NULL(test, placer);
	KUNIT_EXPECT_EQ(test, placer->cpu_offline(placer, 1001, 2, to_cpumask(mask)), 0);
	KUNIT_EXPECT_EQ(test, mask[0], BIT(3));
	/* Asked for CPU 1 instead: node 0's other, 0; the pool's state is not read. */
	placer = pt->placer[0];
	KUNIT_ASSERT_NOT_NULL(test, placer);
	KUNIT_EXPECT_EQ(test, placer->cpu_offline(placer, 1000, 1, to_cpumask(mask)), 0);
	KUNIT_EXPECT_EQ(test, mask[0], BIT(0));
	/* CPU 3 offline: node 1 has no other eligible CPU, so every one but 2. */
	pool_cpu(t, 3, false);
	placer = pt->placer[1];
	KUNIT_EXPECT_EQ(test, placer->cpu_offline(placer, 1001, 2, to_cpumask(mask)), 0);
	KUNIT_EXPECT_EQ(test, mask[0], 0xf3);
	pool_cpu(t, 3, true);
	KUNIT_EXPECT_STREQ(test, pool_rows(test, pool), rows);

	/* The last user's put removes the placer before the release. */
	pool_put_all(test, t, dev, pool, vecs, ARRAY_SIZE(vecs));
	KUNIT_EXPECT_NULL(test, pt->placer[0]);
	KUNIT_EXPECT_NULL(test, pt->placer[1]);
	KUNIT_EXPECT_NULL(test, pt->placer[2]);
}

/**
 * struct pool_consumer - a registered device in a pool test
 * @sd: its registration
 * @calls: its changed callback's calls, "vector:CPUs" each, in order
 * @len: the length of @calls
 */
struct pool_consumer {
	struct irq_spread_dev *sd;
	char calls[128];
	int len;
};

static void pool_consumer_changed(void *priv, unsigned int vector,
				  const struct cpumask *mask)
{
	struct pool_consumer *c = priv;

	c->len += scnprintf(c->calls + c->len, sizeof(c->calls) - c->len,
			    "%s%u:%*pbl", c->len ? " " : "", vector,
			    BITS_PER_LONG, cpumask_bits(mask));
}

static const struct irq_spread_dev_ops pool_consumer_ops = {
	.changed	= pool_consumer_changed,
};

/* Register a device of @nvec vectors on node 0 under @policy. */
static struct pool_consumer *pool_register(struct kunit *test,
					   struct test_topo *t,
					   const char *name, unsigned int nvec,
					   enum irq_spread_policy policy,
					   unsigned int flags)
{
	struct pool_consumer *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	struct irq_spread_dev_info info = {
		.node = 0, .nr_vectors = nvec, .policy = policy,
		.ops = &pool_consumer_ops, .flags = flags,
	};

	KUNIT_ASSERT_NOT_NULL(test, c);
	info.priv = c;
	c->sd = irq_spread_test_register(test, &t->topo, &info, name);
	return c;
}

/*
 * @c's driver requests the interrupts of its first @nvec vectors at once
 * and attaches them, fake ones from CONSUMER_IRQ_BASE: its spread vectors
 * count in the load from then on.
 */
static void pool_attach(struct kunit *test, struct pool_consumer *c,
			unsigned int nvec)
{
	unsigned int i;

	KUNIT_ASSERT_LE(test, nvec, CONSUMER_IRQS);
	for (i = 0; i < nvec; i++)
		KUNIT_ASSERT_EQ(test, irq_spread_dev_attach(c->sd, i,
							    CONSUMER_IRQ_BASE + i), 0);
}

/* The calls of @c's changed callback since the last look. */
static const char *pool_calls(struct kunit *test, struct pool_consumer *c)
{
	char *buf = kunit_kzalloc(test, sizeof(c->calls), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, buf);
	flush_work(&c->sd->work);
	strscpy(buf, c->calls, sizeof(c->calls));
	c->len = 0;
	c->calls[0] = '\0';
	return buf;
}

/* @c's vectors' CPUs, as irq_spread_dev_vector_mask() gives them. */
static const char *pool_dev_masks(struct kunit *test, struct pool_consumer *c,
				  unsigned int nvec)
{
	return irq_spread_test_vector_masks(test, c->sd, nvec);
}

/*
 * As pool_put_all(), for a pool whose owner counts @load in the load (its
 * interrupts attached; its registration outlives the pool).
 */
static void pool_put_owned(struct kunit *test, struct test_topo *t,
			   struct pool_dev *dev, struct irq_spread_pool *pool,
			   const int *vecs, unsigned int nr, unsigned int load)
{
	unsigned int i;

	for (i = 0; i < nr; i++)
		KUNIT_EXPECT_EQ(test, irq_spread_pool_put(pool, vecs[i]), 0);
	KUNIT_EXPECT_EQ(test, pool->users, 0);
	KUNIT_EXPECT_EQ(test, pool->nr_requested, 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&dev->releases),
			atomic_read(&dev->requests));
	KUNIT_EXPECT_EQ(test, atomic_read(&dev->errors), 0);
	KUNIT_EXPECT_EQ(test, irq_spread_test_load_sum(&t->topo), load);
}

/* A pool that belongs to @owner, on node 0, @nvec vectors from 0. */
static struct irq_spread_pool *pool_owned(struct kunit *test,
					  struct test_topo *t,
					  struct pool_dev *dev,
					  struct irq_spread_dev *owner,
					  unsigned int nvec)
{
	struct irq_spread_pool_info info = {
		.node = 0, .policy = IRQ_SPREAD_CORE, .owner = owner,
		.nr_vectors = nvec,
	};

	return pool_create(test, t, dev, &info, true);
}

/*
 * A pool that belongs to a registered device takes its policy, not its
 * own (core), and places its requested vectors afresh, its own load out
 * of the way, when the administrator writes the owner's policy or CPUs.
 * Worked by hand on the 2-node SMT2 machine, everything on node 0:
 *
 *  - the owner, 1 vector, numa: CPU 0; its driver attaches its interrupt
 *    at once, so it counts in the load from the start;
 *  - two gets for any CPU, each a new vector under numa on the least
 *    loaded CPU of node 0: 1, then 2;
 *  - numa-core written: the owner, its load out, alone on core {0,1}
 *    (load 1, as {2,3}; the lower core), thread 0, whole: 0-1.  The
 *    pool, its load out: core {2,3} (load 0) before {0,1} (2), each
 *    alone: vector 0 gets 2-3, vector 1 0-1;
 *  - CPUs 4-7 written: the owner on node 1's core {4,5}, whole; the
 *    pool's on {6,7} (load 0) then {4,5}: 6-7, 4-5.  A new vector: core
 *    {6,7} (load 2) before {4,5} (4): 6-7.
 */
static void irq_spread_pool_test_owner(struct kunit *test)
{
	struct test_topo *t = irq_spread_test_topo_new(test, &smt2);
	unsigned long *mask = irq_spread_test_bitmap(test, t);
	struct pool_dev *dev = pool_dev_new(test);
	struct pool_test *pt = test->priv;
	struct irq_affinity_placer *placer;
	struct irq_spread_pool *pool;
	struct pool_consumer *owner;
	char buf[64];
	int vecs[3];

	owner = pool_register(test, t, "irq_spread_pool_owner", 1,
			      IRQ_SPREAD_NUMA, IRQ_SPREAD_DEV_NO_CLASS);
	pool_attach(test, owner, 1);
	pool = pool_owned(test, t, dev, owner->sd, 4);
	vecs[0] = pool_get(test, t, pool, "*", buf, sizeof(buf));
	KUNIT_EXPECT_STREQ(test, buf, "0:1");
	vecs[1] = pool_get(test, t, pool, "*", buf, sizeof(buf));
	KUNIT_EXPECT_STREQ(test, buf, "1:2");

	KUNIT_ASSERT_EQ(test, irq_spread_dev_set_policy(owner->sd,
							IRQ_SPREAD_NUMA_CORE), 0);
	KUNIT_EXPECT_STREQ(test, pool_dev_masks(test, owner, 1), "0-1");
	KUNIT_EXPECT_STREQ(test, pool_show(test, pool),
			   "# node 0 policy numa-core max_users 0 requested 2/4 users 2\n"
			   "vector\tirq\tusers\tcpus\n"
			   "0\t1000\t1\t2-3\n"
			   "1\t1001\t1\t0-1\n");
	KUNIT_EXPECT_EQ(test, pool_aff(test, 1000), 0x0c);
	KUNIT_EXPECT_EQ(test, pool_aff(test, 1001), 0x03);

	KUNIT_ASSERT_EQ(test, irq_spread_dev_set_cpu_bits(owner->sd,
							  irq_spread_test_cpus(test, t, "4-7")),
			0);
	KUNIT_EXPECT_STREQ(test, pool_dev_masks(test, owner, 1), "4-5");
	KUNIT_EXPECT_STREQ(test, pool_rows(test, pool),
			   "0\t1000\t1\t6-7\n1\t1001\t1\t4-5\n");
	KUNIT_EXPECT_EQ(test, pool_aff(test, 1000), 0xc0);
	/* Vector 0's placer, CPU 6 going: the owner's CPUs of node 1 but 6. */
	placer = pt->placer[0];
	KUNIT_ASSERT_NOT_NULL(test, placer);
	KUNIT_EXPECT_EQ(test, placer->cpu_offline(placer, 1000, 6, to_cpumask(mask)), 0);
	KUNIT_EXPECT_EQ(test, mask[0], 0xb0);
	vecs[2] = pool_get(test, t, pool, "*", buf, sizeof(buf));
	KUNIT_EXPECT_STREQ(test, buf, "2:6-7");
	KUNIT_EXPECT_EQ(test, irq_spread_test_load_sum(&t->topo), 2 + 6);
	pool_put_owned(test, t, dev, pool, vecs, ARRAY_SIZE(vecs), 2);
}

/*
 * Placement-only devices (mlx5's SFs) take their vectors from a pool that
 * belongs to their parent: the pool's vectors are the load, counted once;
 * a device's vectors get distinct pool vectors; and each device vector
 * has its pool vector's CPUs, through its moves.  MANA's VM (one node,
 * cores {0,1} .. {6,7}): the parent, 4 vectors, numa, on CPUs 0-3, its
 * interrupts attached as soon as it is registered (as mlx5's PF requests
 * its completion IRQs), load 1 each; a pool of 4; three devices of 2
 * vectors, numa.
 */
/*
 * A device of another machine than @t, @pool's, gets no vector of @pool,
 * and a pool of @t whose owner is that device is not made: -EINVAL, and
 * nothing changed.
 */
static void place_only_other_machine(struct kunit *test, struct test_topo *t,
				     struct irq_spread_pool *pool)
{
	struct test_topo *t2 = irq_spread_test_topo_new(test, &irq_spread_test_mana_vm);
	struct irq_spread_pool_info info = {
		.name = "irq_spread_pool_other", .ops = &pool_dev_ops,
		.node = 0, .policy = IRQ_SPREAD_CORE, .nr_vectors = 4,
	};
	const char *before = pool_show(test, pool);
	struct pool_consumer *other;

	other = pool_register(test, t2, "irq_spread_pool_other", 2,
			      IRQ_SPREAD_NUMA, IRQ_SPREAD_DEV_PLACE_ONLY);
	KUNIT_EXPECT_EQ(test, irq_spread_dev_pool_get(other->sd, 0, pool), -EINVAL);
	KUNIT_EXPECT_EQ(test, irq_spread_dev_pool_put(other->sd, 0), -EINVAL);
	KUNIT_EXPECT_STREQ(test, pool_show(test, pool), before);
	info.owner = other->sd;
	KUNIT_EXPECT_PTR_EQ(test, irq_spread_pool_topo_create(&t->topo, &info),
			    ERR_PTR(-EINVAL));
}

static void irq_spread_pool_test_place_only(struct kunit *test)
{
	struct test_topo *t = irq_spread_test_topo_new(test, &irq_spread_test_mana_vm);
	struct pool_dev *dev = pool_dev_new(test);
	struct pool_consumer *pf, *sf[3];
	struct irq_spread_pool *pool;
	unsigned int i;

	pf = pool_register(test, t, "irq_spread_pool_pf", 4, IRQ_SPREAD_NUMA,
			   IRQ_SPREAD_DEV_NO_CLASS);
	pool_attach(test, pf, 4);
	pool = pool_owned(test, t, dev, pf->sd, 4);
	for (i = 0; i < ARRAY_SIZE(sf); i++) {
		char name[32];

		snprintf(name, sizeof(name), "irq_spread_pool_sf%u", i);
		sf[i] = pool_register(test, t, name, 2, IRQ_SPREAD_NUMA,
				      IRQ_SPREAD_DEV_PLACE_ONLY);
		/* On the load (CPUs 0-3 have 1), not in it: 4;5 each. */
		KUNIT_EXPECT_STREQ(test, pool_dev_masks(test, sf[i], 2), "4;5");
		KUNIT_EXPECT_NULL(test, sf[i]->sd->cdev);
	}
	KUNIT_EXPECT_EQ(test, irq_spread_test_load_sum(&t->topo), 4);
	KUNIT_EXPECT_EQ(test, irq_spread_dev_attach(sf[0]->sd, 0, 1), -EINVAL);
	KUNIT_EXPECT_EQ(test, irq_spread_dev_pool_get(pf->sd, 0, pool), -EINVAL);
	KUNIT_EXPECT_EQ(test, irq_spread_dev_pool_get(sf[0]->sd, 2, pool), -EINVAL);
	KUNIT_EXPECT_EQ(test, irq_spread_dev_pool_get(NULL, 0, pool), -EINVAL);
	KUNIT_EXPECT_EQ(test, irq_spread_dev_pool_get(sf[0]->sd, 0, NULL), -EINVAL);
	KUNIT_EXPECT_EQ(test, irq_spread_dev_pool_put(NULL, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, irq_spread_dev_pool_put(sf[0]->sd, 2), -EINVAL);
	place_only_other_machine(test, t, pool);

	/* The driver cannot request a vector: its error, nothing served. */
	dev->fail = -EIO;
	KUNIT_EXPECT_EQ(test, irq_spread_dev_pool_get(sf[0]->sd, 0, pool), -EIO);
	dev->fail = 0;
	KUNIT_EXPECT_STREQ(test, pool_dev_masks(test, sf[0], 2), "4;5");
	KUNIT_EXPECT_STREQ(test, pool_calls(test, sf[0]), "");
	KUNIT_EXPECT_EQ(test, irq_spread_test_load_sum(&t->topo), 4);

	/*
	 * SF 0's vector 0, any CPU: a new pool vector on the least loaded
	 * CPU of the node, 4; its vector 1, not on 4: 5.  SF 1's, each on
	 * the least loaded CPU its other does not have: 6, 7.  SF 2, the pool
	 * full (4 users of 4: ceil(5 / 4) = 2): the least used vector, 0
	 * (CPU 4), then the least used not its own and not on CPU 4: 1.
	 */
	KUNIT_EXPECT_EQ(test, irq_spread_dev_pool_get(sf[0]->sd, 0, pool), 0);
	KUNIT_EXPECT_EQ(test, irq_spread_dev_pool_get(sf[0]->sd, 1, pool), 1);
	KUNIT_EXPECT_EQ(test, irq_spread_dev_pool_get(sf[1]->sd, 0, pool), 2);
	KUNIT_EXPECT_EQ(test, irq_spread_dev_pool_get(sf[1]->sd, 1, pool), 3);
	KUNIT_EXPECT_EQ(test, irq_spread_dev_pool_get(sf[2]->sd, 0, pool), 0);
	KUNIT_EXPECT_EQ(test, irq_spread_dev_pool_get(sf[2]->sd, 1, pool), 1);
	KUNIT_EXPECT_EQ(test, irq_spread_dev_pool_get(sf[2]->sd, 1, pool), -EBUSY);
	KUNIT_EXPECT_STREQ(test, pool_dev_masks(test, sf[1], 2), "6;7");
	KUNIT_EXPECT_STREQ(test, pool_calls(test, sf[1]), "0:6 1:7");
	KUNIT_EXPECT_STREQ(test, pool_calls(test, sf[0]), "");
	KUNIT_EXPECT_STREQ(test, pool_dev_masks(test, sf[2], 2), "4;5");
	/* Counted once: the parent's 4 and the pool's 4, no device's. */
	KUNIT_EXPECT_EQ(test, irq_spread_test_load_sum(&t->topo), 4 + 4);

	/*
	 * CPU 6, which only pool vector 2 has, goes and comes back: the
	 * interrupt core moves the interrupt (asking the pool's placer), the
	 * pool nothing, so SF 1 keeps 6;7 and is told nothing.
	 */
	pool_cpu(t, 6, false);
	KUNIT_EXPECT_STREQ(test, pool_dev_masks(test, sf[1], 2), "6;7");
	KUNIT_EXPECT_EQ(test, pool_aff(test, 1002), BIT(6));
	pool_cpu(t, 6, true);
	KUNIT_EXPECT_STREQ(test, pool_dev_masks(test, sf[1], 2), "6;7");
	KUNIT_EXPECT_STREQ(test, pool_calls(test, sf[1]), "");
	KUNIT_EXPECT_STREQ(test, pool_calls(test, sf[0]), "");

	/*
	 * Given back, a vector has its placement again (SF 1's: 4;5, told),
	 * the pool vector its other users.  Unregistering gives back the
	 * rest: SF 2's was the last user of vector 0, which is released.
	 */
	KUNIT_EXPECT_EQ(test, irq_spread_dev_pool_put(sf[1]->sd, 0), 0);
	KUNIT_EXPECT_EQ(test, irq_spread_dev_pool_put(sf[1]->sd, 0), -EINVAL);
	KUNIT_EXPECT_STREQ(test, pool_dev_masks(test, sf[1], 2), "4;7");
	KUNIT_EXPECT_STREQ(test, pool_calls(test, sf[1]), "0:4");
	KUNIT_EXPECT_EQ(test, irq_spread_dev_pool_put(sf[0]->sd, 0), 0);
	KUNIT_EXPECT_EQ(test, pool->vec[0].users, 1);
	irq_spread_test_unregister(test, sf[2]->sd);
	KUNIT_EXPECT_EQ(test, pool->vec[0].users, 0);
	KUNIT_EXPECT_EQ(test, pool->vec[1].users, 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&dev->releases), 2);
	KUNIT_EXPECT_EQ(test, irq_spread_dev_pool_put(sf[0]->sd, 1), 0);
	KUNIT_EXPECT_EQ(test, irq_spread_dev_pool_put(sf[1]->sd, 1), 0);
	pool_put_owned(test, t, dev, pool, NULL, 0, 4);
}

/*
 * A device's vectors on distinct pool vectors while another has room,
 * even a busier one; with none, its own again.  A pool of 2 on node 0 of
 * the 2-node SMT2 machine: gets for CPUs 1, 4, 1, 1 give vector 0 (CPU 1)
 * 3 users (the last within node 0, vector 1 being on node 1), vector 1
 * (CPU 4) 1.  A placement-only device's vector 0, any CPU: the least
 * used, 1.  Its vector 1, not 1 nor on CPU 4: vector 0, at the pool's
 * share (ceil(6 / 2) = 3), still has room within its node without a
 * bound: 0.  With a bound of 3 users it has none: its own vector 1 again.
 */
static void irq_spread_pool_test_distinct(struct kunit *test)
{
	struct pool_params p = { 0, NUMA, 2 };
	struct test_topo *t = irq_spread_test_topo_new(test, &smt2);
	struct pool_consumer *sf;
	struct irq_spread_pool *pool;
	struct pool_dev *dev;
	unsigned int bound;
	char buf[64];
	int vecs[4];

	sf = pool_register(test, t, "irq_spread_pool_sf", 2, IRQ_SPREAD_NUMA,
			   IRQ_SPREAD_DEV_PLACE_ONLY);
	for (bound = 0; bound <= 3; bound += 3) {
		p.max_users = bound;
		dev = pool_dev_new(test);
		pool = pool_new(test, t, dev, 0, &p);
		vecs[0] = pool_get(test, t, pool, "1", buf, sizeof(buf));
		vecs[1] = pool_get(test, t, pool, "4", buf, sizeof(buf));
		vecs[2] = pool_get(test, t, pool, "1", buf, sizeof(buf));
		vecs[3] = pool_get(test, t, pool, "1", buf, sizeof(buf));
		KUNIT_ASSERT_STREQ(test, pool_rows(test, pool),
				   "0\t1000\t3\t1\n1\t1001\t1\t4\n");
		KUNIT_EXPECT_EQ(test, irq_spread_dev_pool_get(sf->sd, 0, pool), 1);
		KUNIT_EXPECT_EQ_MSG(test, irq_spread_dev_pool_get(sf->sd, 1, pool),
				    bound ? 1 : 0, "bound %u", bound);
		KUNIT_EXPECT_EQ(test, irq_spread_dev_pool_put(sf->sd, 0), 0);
		KUNIT_EXPECT_EQ(test, irq_spread_dev_pool_put(sf->sd, 1), 0);
		pool_put_all(test, t, dev, pool, vecs, ARRAY_SIZE(vecs));
	}
}

/*
 * A pool destroyed with users left, as mlx5's fast teardown does: every
 * requested vector released, the load as before, the vectors it served
 * back on their placement, and no warning.
 */
static void irq_spread_pool_test_destroy_users(struct kunit *test)
{
	struct test_topo *t = irq_spread_test_topo_new(test, &irq_spread_test_mana_vm);
	struct pool_dev *dev = pool_dev_new(test);
	struct irq_spread_pool_info info = {
		.node = 0, .policy = IRQ_SPREAD_NUMA, .nr_vectors = 3,
	};
	bool warned = test_taint(TAINT_WARN);
	struct irq_spread_pool *pool;
	struct pool_consumer *sf;
	char buf[64];

	sf = pool_register(test, t, "irq_spread_pool_sf", 2, IRQ_SPREAD_NUMA,
			   IRQ_SPREAD_DEV_PLACE_ONLY);
	pool = pool_create(test, t, dev, &info, false);

	KUNIT_EXPECT_GE(test, pool_get(test, t, pool, "*", buf, sizeof(buf)), 0);
	KUNIT_EXPECT_GE(test, pool_get(test, t, pool, "*", buf, sizeof(buf)), 0);
	KUNIT_EXPECT_EQ(test, irq_spread_dev_pool_get(sf->sd, 0, pool), 2);
	KUNIT_EXPECT_STREQ(test, pool_dev_masks(test, sf, 2), "2;1");
	irq_spread_pool_destroy(pool);

	KUNIT_EXPECT_EQ(test, atomic_read(&dev->releases), 3);
	KUNIT_EXPECT_EQ(test, atomic_read(&dev->errors), 0);
	KUNIT_EXPECT_EQ(test, irq_spread_test_load_sum(&t->topo), 0);
	KUNIT_EXPECT_STREQ(test, pool_dev_masks(test, sf, 2), "0;1");
	KUNIT_EXPECT_EQ(test, irq_spread_dev_pool_put(sf->sd, 0), -EINVAL);
	/* UML's PCI warns at boot: the guest, which must not, checks it. */
	if (warned)
		kunit_info(test, "the kernel warned before: no warning checked\n");
	else
		KUNIT_EXPECT_FALSE(test, test_taint(TAINT_WARN));
}

/*
 * Seed 004: 250 sub-functions of a 56-CPU machine, each with 11 vectors,
 * share a pool of 255.  Consumer k's vector j is for CPU
 * (k + j * 56 / 11) mod 56, so that each spreads over both sockets.
 */
#define SEED_CONSUMERS	250
#define SEED_VECS	11
#define SEED_USERS	(SEED_CONSUMERS * SEED_VECS)
#define SEED_POOL	255
#define SEED_FIRST	56	/* the PF keeps vectors 0-55 */

static unsigned int seed_cpu(unsigned int user)
{
	unsigned int k = user / SEED_VECS, j = user % SEED_VECS;
	unsigned int n = irq_spread_test_xeon.nr_cpus;

	return (k + j * n / SEED_VECS) % n;
}

/* Where a vector's CPUs lie, from a user's CPU; each holds those before. */
enum seed_where {
	SEED_ON_CPU,		/* on the CPU alone */
	SEED_ON_CORE,		/* within its core */
	SEED_ON_NODE,		/* within its node */
	SEED_AWAY,		/* elsewhere: on this machine, one hop */
	SEED_NR_WHERE,
};

static enum seed_where seed_where(const struct test_topo *t,
				  const unsigned long *mask, unsigned int cpu)
{
	unsigned int n = t->m->nr_cpus;

	if (bitmap_weight(mask, n) == 1 && test_bit(cpu, mask))
		return SEED_ON_CPU;
	if (bitmap_subset(mask, t->siblings[cpu], n))
		return SEED_ON_CORE;
	if (bitmap_subset(mask, t->node_cpus[t->cpu_node[cpu]], n))
		return SEED_ON_NODE;
	return SEED_AWAY;
}

/*
 * The rules of Documentation/core-api/irq_spread.rst, "Pools", that each
 * get of the seed scenario is checked against, on the pool after the get.
 */
enum seed_rule {
	SEED_LAZY,
	SEED_NEW_ON_CPU,
	SEED_OWN_NODE,
	SEED_CPU_FIRST,
	SEED_CORE_NEXT,
	SEED_LEAST_USED,
	SEED_ROOM,
	SEED_FULL,
	SEED_NR_RULES,
};

static const char * const seed_rules[SEED_NR_RULES] = {
	[SEED_LAZY]		= "min(U, V) vectors requested",
	[SEED_NEW_ON_CPU]	= "a new vector on the user's CPU alone",
	[SEED_OWN_NODE]		= "off its node only if the node's are full",
	[SEED_CPU_FIRST]	= "on the CPU while one there has room",
	[SEED_CORE_NEXT]	= "else on the core while one there has room",
	[SEED_LEAST_USED]	= "none as near with fewer users",
	[SEED_ROOM]		= "within the share of its level",
	[SEED_FULL]		= "-ENOSPC only when all have max_users",
};

/**
 * struct seed_check - the seed scenario's gets and the rules they broke
 * @users: the gets that gave a vector so far
 * @broken: for each &enum seed_rule, how many gets broke it
 */
struct seed_check {
	unsigned int users;
	unsigned int broken[SEED_NR_RULES];
};

/*
 * Check the get of user @i, which gave vector @vec (or an error) and made
 * a request if @fresh, against each rule.  U users of V vectors are
 * counted after the get, so a vector had room if it had fewer than
 * ceil(U / V) users, the doc's ceil((U' + 1) / V) for the U' = U - 1
 * before it, and fewer than max_users; a vector's users before the get
 * are its users now, less the one the get gave.
 */
static void seed_check_get(struct kunit *test, const struct test_topo *t,
			   const struct irq_spread_pool *pool,
			   const struct pool_dev *dev, unsigned int i, int vec,
			   bool fresh, struct seed_check *c)
{
	unsigned int nvec = pool->info.nr_vectors, bound = pool->info.max_users;
	unsigned int cpu = seed_cpu(i), g = vec - pool->info.first_vector;
	unsigned int share, level_users = 0, level_vecs = 0, had, before, v, r;
	bool room[SEED_NR_WHERE] = {}, broke[SEED_NR_RULES] = {};
	bool node_full = true, full = true;
	enum seed_where at, level, w;

	if (vec < 0) {
		for (v = 0; v < nvec; v++)
			full &= bound && pool->vec[v].users == bound;
		broke[SEED_FULL] = vec != -ENOSPC || !full || fresh;
		goto report;
	}

	c->users++;
	share = DIV_ROUND_UP(c->users, nvec);
	if (bound)
		share = min(share, bound);
	at = seed_where(t, pool_mask(pool, g), cpu);
	/*
	 * The level that gave it: where it lies, but past the pool's share
	 * only a NUMA hop level has room, at the hop's share.
	 */
	had = pool->vec[g].users - 1;
	level = had >= share && at < SEED_ON_NODE ? SEED_ON_NODE : at;
	for (v = 0; v < nvec; v++) {
		if (!pool->vec[v].users)
			continue;
		w = seed_where(t, pool_mask(pool, v), cpu);
		before = pool->vec[v].users - (v == g);
		if (w <= level) {
			level_users += pool->vec[v].users;
			level_vecs++;
		}
		if (w <= SEED_ON_NODE)
			node_full &= bound && before == bound;
		if (!before)
			continue;
		room[w] |= before < share;
		broke[SEED_LEAST_USED] |= !fresh && w <= level && before < had;
	}

	/* While users are fewer than vectors, every get requests one. */
	broke[SEED_LAZY] = atomic_read(&dev->requests) != min(c->users, nvec);
	/* The engine places a new one within the CPUs asked for: the user's. */
	broke[SEED_NEW_ON_CPU] = fresh &&
		(had || at != SEED_ON_CPU ||
		 dev->vector != pool->info.first_vector + g ||
		 seed_where(t, dev->mask, cpu) != SEED_ON_CPU);
	/* Off its node only if every vector of the node had max_users. */
	broke[SEED_OWN_NODE] = at == SEED_AWAY && !node_full;
	/* Its CPU, then its core, while a vector there has room. */
	broke[SEED_CPU_FIRST] = room[SEED_ON_CPU] && at != SEED_ON_CPU;
	broke[SEED_CORE_NEXT] = !room[SEED_ON_CPU] && room[SEED_ON_CORE] &&
				at > SEED_ON_CORE;
	/* Room: the pool's share, at a hop level the hop's if higher. */
	if (level >= SEED_ON_NODE) {
		share = max(share, DIV_ROUND_UP(level_users, level_vecs));
		if (bound)
			share = min(share, bound);
	}
	broke[SEED_ROOM] = had >= share;

report:
	for (r = 0; r < SEED_NR_RULES; r++) {
		if (broke[r] && !c->broken[r]++)
			kunit_err(test, "max_users %u, user %u, CPU %u, vector %d: not \"%s\"\n",
				  bound, i, cpu, vec, seed_rules[r]);
	}
}

/*
 * Every user of the seed scenario gets its vector into @vecs; each get is
 * checked against the rules into @c if it is not %NULL.
 */
static void seed_get(struct kunit *test, struct test_topo *t,
		     struct irq_spread_pool *pool, struct pool_dev *dev,
		     int *vecs, struct seed_check *c)
{
	unsigned long *want = irq_spread_test_bitmap(test, t);
	unsigned int i, cpu;
	int requests;

	for (i = 0; i < SEED_USERS; i++) {
		cpu = seed_cpu(i);
		requests = atomic_read(&dev->requests);
		__set_bit(cpu, want);
		vecs[i] = pool_cpus_get(pool, want);
		__clear_bit(cpu, want);
		if (c)
			seed_check_get(test, t, pool, dev, i, vecs[i],
				       atomic_read(&dev->requests) != requests,
				       c);
	}
}

static struct irq_spread_pool *seed_pool(struct kunit *test,
					 struct test_topo *t,
					 struct pool_dev *dev,
					 unsigned int max_users, int **vecs)
{
	const struct pool_params p = { 0, NUMA, SEED_POOL, max_users };

	*vecs = kunit_kcalloc(test, SEED_USERS, sizeof(**vecs), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, *vecs);
	return pool_new(test, t, dev, SEED_FIRST, &p);
}

/* Count the users whose vector lies at each place from their CPU. */
static void seed_at(const struct test_topo *t,
		    const struct irq_spread_pool *pool, const int *vecs,
		    unsigned int *at)
{
	unsigned int i;

	memset(at, 0, SEED_NR_WHERE * sizeof(*at));
	for (i = 0; i < SEED_USERS; i++) {
		if (vecs[i] >= 0)
			at[seed_where(t, pool_mask(pool, vecs[i] - SEED_FIRST),
				      seed_cpu(i))]++;
	}
}

/**
 * struct seed_case - the seed scenario with a driver's bound
 * @desc: the bound
 * @max_users: the bound, 0 for none
 * @most: the most users a vector may have at the end
 * @users: the gets that must give a vector
 */
struct seed_case {
	const char *desc;
	unsigned int max_users;
	unsigned int most;
	unsigned int users;
};

/*
 * With no bound, every get gives a vector, and at the end no vector has
 * more than ceil(2750 / 255) = 11 users.  With a bound of 10, gets fail
 * only once every vector has 10 users: 255 * 10 = 2550 gets give one.
 */
static const struct seed_case seed_cases[] = {
	{ "no max_users", 0, 11, SEED_USERS },
	{ "max_users 10", 10, 10, SEED_POOL * 10 },
};

static void seed_case_desc(const struct seed_case *c, char *desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(seed, seed_cases, seed_case_desc);

/*
 * Seed 004, each get checked against the rules; at the end all 255
 * vectors requested, and with no bound every user on its own node: the
 * two nodes have as many users each but 255 vectors cannot split evenly,
 * and the node with fewer must load them more, not spill.
 */
static void irq_spread_pool_test_seed004(struct kunit *test)
{
	const struct seed_case *sc = test->param_value;
	struct test_topo *t = irq_spread_test_topo_new(test, &irq_spread_test_xeon);
	unsigned int v, r, most = 0, at[SEED_NR_WHERE];
	struct pool_dev *dev = pool_dev_new(test);
	struct seed_check c = {};
	struct irq_spread_pool *pool;
	int *vecs;

	pool = seed_pool(test, t, dev, sc->max_users, &vecs);
	seed_get(test, t, pool, dev, vecs, &c);
	for (r = 0; r < SEED_NR_RULES; r++)
		KUNIT_EXPECT_EQ_MSG(test, c.broken[r], 0,
				    "max_users %u: gets not \"%s\"",
				    sc->max_users, seed_rules[r]);
	KUNIT_EXPECT_EQ(test, c.users, sc->users);
	KUNIT_EXPECT_EQ(test, pool->users, sc->users);
	KUNIT_EXPECT_EQ(test, atomic_read(&dev->requests), SEED_POOL);

	for (v = 0; v < SEED_POOL; v++)
		most = max(most, pool->vec[v].users);
	KUNIT_EXPECT_LE(test, most, sc->most);
	seed_at(t, pool, vecs, at);
	kunit_info(test, "max_users %u: most users of a vector %u; users on their CPU %u, its core %u, its node %u, the other node %u\n",
		   sc->max_users, most, at[SEED_ON_CPU], at[SEED_ON_CORE],
		   at[SEED_ON_NODE], at[SEED_AWAY]);
	if (!sc->max_users)
		KUNIT_EXPECT_EQ(test, at[SEED_AWAY], 0);

	pool_put_all(test, t, dev, pool, vecs, SEED_USERS);
	KUNIT_EXPECT_EQ(test, atomic_read(&dev->releases), SEED_POOL);
}

/* Users per vector: how many vectors have each number of users. */
static unsigned int *seed_histogram(struct kunit *test, const unsigned int *users,
				    unsigned int nvec, unsigned int size)
{
	unsigned int *hist = kunit_kcalloc(test, size, sizeof(*hist), GFP_KERNEL);
	unsigned int v;

	KUNIT_ASSERT_NOT_NULL(test, hist);
	for (v = 0; v < nvec; v++)
		hist[min(users[v], size - 1)]++;
	return hist;
}

/*
 * The seed 004 scenario, against what mlx5 did before its SF pool: every
 * consumer on the PF's 56 vectors, one per CPU, the vector of its CPU.
 * Prints the histograms and the pool's time per get and put; asserts
 * nothing but that the gets succeed.
 */
static void irq_spread_pool_bench_seed004(struct kunit *test)
{
	struct test_topo *t = irq_spread_test_topo_new(test, &irq_spread_test_xeon);
	unsigned int n = irq_spread_test_xeon.nr_cpus, i, u, size = SEED_USERS + 1;
	unsigned int *old, *new, *old_hist, *new_hist, at[SEED_NR_WHERE];
	struct pool_dev *dev = pool_dev_new(test);
	struct irq_spread_pool *pool;
	u64 get_ns, put_ns;
	int *vecs;

	old = kunit_kcalloc(test, n, sizeof(*old), GFP_KERNEL);
	new = kunit_kcalloc(test, SEED_POOL, sizeof(*new), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, old);
	KUNIT_ASSERT_NOT_NULL(test, new);
	for (i = 0; i < SEED_USERS; i++)
		old[seed_cpu(i)]++;

	pool = seed_pool(test, t, dev, 0, &vecs);
	get_ns = ktime_get_ns();
	seed_get(test, t, pool, dev, vecs, NULL);
	get_ns = ktime_get_ns() - get_ns;
	for (i = 0; i < SEED_USERS; i++) {
		KUNIT_ASSERT_GE(test, vecs[i], SEED_FIRST);
		new[vecs[i] - SEED_FIRST]++;
	}
	seed_at(t, pool, vecs, at);

	old_hist = seed_histogram(test, old, n, size);
	new_hist = seed_histogram(test, new, SEED_POOL, size);
	kunit_info(test, "seed 004: %u consumers x %u vectors = %u users, %u CPUs, 2 sockets\n",
		   SEED_CONSUMERS, SEED_VECS, SEED_USERS, n);
	kunit_info(test, "users/vector  old: PF's %u vectors  pool: %u vectors\n",
		   n, SEED_POOL);
	for (u = 0; u < size; u++) {
		if (old_hist[u] || new_hist[u])
			kunit_info(test, "%12u  %22u  %14u\n", u, old_hist[u],
				   new_hist[u]);
	}
	kunit_info(test, "pool users on their CPU %u, its core %u, its node %u, the other node %u\n",
		   at[SEED_ON_CPU], at[SEED_ON_CORE], at[SEED_ON_NODE],
		   at[SEED_AWAY]);

	put_ns = ktime_get_ns();
	for (i = 0; i < SEED_USERS; i++)
		irq_spread_pool_put(pool, vecs[i]);
	put_ns = ktime_get_ns() - put_ns;
	kunit_info(test, "pool: %llu ns per get, %llu ns per put, %u of each (figures, not asserted)\n",
		   get_ns / SEED_USERS, put_ns / SEED_USERS, SEED_USERS);
}

#define STRESS_THREADS	4
#define STRESS_ROUNDS	300
#define STRESS_HELD	3

/**
 * struct stress_thread - one consumer thread of the stress test
 * @test: the test, whose stub of the interrupt core the thread uses
 * @t: the machine
 * @pool: the pool
 * @want: the CPUs of its next get
 * @seed: its pseudo-random state
 * @errors: what went wrong, over all threads
 * @done: completed when it has put everything
 */
struct stress_thread {
	struct kunit *test;
	struct test_topo *t;
	struct irq_spread_pool *pool;
	unsigned long *want;
	u32 seed;
	atomic_t *errors;
	struct completion done;
};

/* A get for one CPU, a node or any CPU; then check the vector's users. */
static int stress_get(struct stress_thread *s)
{
	struct irq_spread_pool *pool = s->pool;
	unsigned int n = s->t->m->nr_cpus, cpu;
	const unsigned long *want = s->want;
	int vec;

	s->seed = s->seed * 1664525 + 1013904223;
	cpu = (s->seed >> 16) % n;
	bitmap_zero(s->want, n);
	if (s->seed % 4 == 0)
		want = NULL;
	else if (s->seed % 4 == 1)
		bitmap_copy(s->want, s->t->node_cpus[s->t->cpu_node[cpu]], n);
	else
		__set_bit(cpu, s->want);

	/* The pool's first vector is 0. */
	vec = pool_cpus_get(pool, want);
	if (vec < 0) {
		atomic_inc(s->errors);
		return vec;
	}
	mutex_lock(&pool->lock);
	if (pool->vec[vec].users > pool->info.max_users)
		atomic_inc(s->errors);
	mutex_unlock(&pool->lock);
	return vec;
}

static int stress_fn(void *data)
{
	struct stress_thread *s = data;
	int held[STRESS_HELD], vec;
	unsigned int i, nr = 0;

	/* The test's stub of the interrupt core, in this thread too. */
	current->kunit_test = s->test;
	for (i = 0; i < STRESS_ROUNDS; i++) {
		if (nr == STRESS_HELD) {
			if (irq_spread_pool_put(s->pool, held[0]))
				atomic_inc(s->errors);
			memmove(held, held + 1, --nr * sizeof(*held));
		}
		vec = stress_get(s);
		if (vec >= 0)
			held[nr++] = vec;
		if (i % 8)
			cond_resched();
		else
			usleep_range(5, 20);
	}
	while (nr) {
		if (irq_spread_pool_put(s->pool, held[--nr]))
			atomic_inc(s->errors);
	}
	complete(&s->done);
	return 0;
}

/*
 * Threads get and put concurrently, the request callback sleeping with the
 * pool lock held: no vector requested twice or released unrequested,
 * never more users than the bound, nothing left at the end.
 */
static void irq_spread_pool_test_stress(struct kunit *test)
{
	static const struct pool_params p = { 0, NUMA, 6, 3 };
	struct test_topo *t = irq_spread_test_topo_new(test, &irq_spread_test_xeon);
	struct pool_dev *dev = pool_dev_new(test);
	struct irq_spread_pool *pool = pool_new(test, t, dev, 0, &p);
	struct task_struct *task;
	struct stress_thread *s;
	unsigned int i, started;
	atomic_t errors = ATOMIC_INIT(0);

	dev->sleep = true;
	s = kunit_kcalloc(test, STRESS_THREADS, sizeof(*s), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, s);
	for (i = 0; i < STRESS_THREADS; i++) {
		s[i].test = test;
		s[i].t = t;
		s[i].pool = pool;
		s[i].want = irq_spread_test_bitmap(test, t);
		s[i].seed = i;
		s[i].errors = &errors;
		init_completion(&s[i].done);
	}
	for (started = 0; started < STRESS_THREADS; started++) {
		task = kthread_run(stress_fn, &s[started], "irq_spread_stress/%u",
				   started);
		if (IS_ERR(task))
			break;
	}
	for (i = 0; i < started; i++)
		wait_for_completion(&s[i].done);

	KUNIT_EXPECT_EQ(test, started, STRESS_THREADS);
	KUNIT_EXPECT_EQ(test, atomic_read(&errors), 0);
	/* Vectors came and went: each get needing one requested it. */
	KUNIT_EXPECT_GT(test, atomic_read(&dev->requests), p.nvec);
	pool_put_all(test, t, dev, pool, NULL, 0);
}

static struct kunit_case irq_spread_pool_test_cases[] = {
	KUNIT_CASE_PARAM(irq_spread_pool_test_gets, get_gen_params),
	KUNIT_CASE(irq_spread_pool_test_lazy),
	KUNIT_CASE(irq_spread_pool_test_release),
	KUNIT_CASE(irq_spread_pool_test_request_fails),
	KUNIT_CASE(irq_spread_pool_test_bound),
	KUNIT_CASE(irq_spread_pool_test_many_users),
	KUNIT_CASE(irq_spread_pool_test_put_then_get),
	KUNIT_CASE(irq_spread_pool_test_two_lists),
	KUNIT_CASE(irq_spread_pool_test_start_too_wide),
	KUNIT_CASE(irq_spread_pool_test_start_more_used),
	KUNIT_CASE_PARAM(irq_spread_pool_test_create_invalid, create_gen_params),
	KUNIT_CASE(irq_spread_pool_test_invalid),
	KUNIT_CASE(irq_spread_pool_test_show),
	KUNIT_CASE(irq_spread_pool_test_system),
	KUNIT_CASE(irq_spread_pool_test_hotplug),
	KUNIT_CASE(irq_spread_pool_test_owner),
	KUNIT_CASE(irq_spread_pool_test_place_only),
	KUNIT_CASE(irq_spread_pool_test_distinct),
	KUNIT_CASE(irq_spread_pool_test_destroy_users),
	KUNIT_CASE_PARAM(irq_spread_pool_test_seed004, seed_gen_params),
	KUNIT_CASE(irq_spread_pool_test_stress),
	KUNIT_CASE_SLOW(irq_spread_pool_bench_seed004),
	{}
};

static struct kunit_suite irq_spread_pool_test_suite = {
	.name = "irq_spread_pool",
	.init = pool_test_init,
	.test_cases = irq_spread_pool_test_cases,
};

/*
 * Allocation failures, each in turn, as the irq_spread_fault suite of
 * device_kunit.c fails them: a pool's creation and gets, the 1st, 2nd, ...
 * allocation failing until the call runs through.  A call that fails
 * returns -ENOMEM, and the pool, its device's requested vectors and the
 * machine's load are as before.
 */
static int pool_fault_init(struct kunit *test)
{
	irq_spread_test_fault_ready(test);
	return pool_test_init(test);
}

/* One vector, two users: a first get requests it, a second shares it. */
static const struct pool_params pool_fault_params = {
	.node = 0, .policy = IRQ_SPREAD_NUMA, .nvec = 1, .max_users = 2,
};

static void irq_spread_pool_test_fault_create(struct kunit *test)
{
	struct test_topo *t = irq_spread_test_topo_new(test, &quad);
	struct pool_dev *dev = pool_dev_new(test);
	struct irq_spread_pool_info info = {
		.node = 0, .policy = IRQ_SPREAD_NUMA, .nr_vectors = 4,
		.max_users = 2, .name = test->name, .ops = &pool_dev_ops,
		.priv = dev,
	};
	struct irq_spread_pool *pool;
	unsigned int n;

	dev->t = t;
	for (n = 1;; n++) {
		irq_spread_test_fail_nth(n);
		pool = irq_spread_pool_topo_create(&t->topo, &info);
		if (!irq_spread_test_fail_nth_fired())
			break;
		if (!IS_ERR(pool)) {
			irq_spread_pool_destroy(pool);
			continue;
		}
		KUNIT_EXPECT_EQ_MSG(test, PTR_ERR(pool), -ENOMEM, "allocation %u", n);
		KUNIT_EXPECT_EQ(test, irq_spread_test_load_sum(&t->topo), 0);
		mutex_lock(&t->topo.pools_lock);
		KUNIT_EXPECT_TRUE_MSG(test, list_empty(&t->topo.pools),
				      "allocation %u failed: pool listed", n);
		mutex_unlock(&t->topo.pools_lock);
	}
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, pool);
	irq_spread_pool_destroy(pool);
	KUNIT_EXPECT_EQ(test, atomic_read(&dev->requests), 0);
	kunit_info(test, "create: %u allocations failed in turn", n - 1);
}

/*
 * The pool as its debugfs file shows it, the vectors its device holds
 * (one requested and released again is not held), the load.
 */
static const char *pool_fault_state(struct kunit *test, struct test_topo *t,
				    struct pool_dev *dev,
				    struct irq_spread_pool *pool)
{
	char *buf = kunit_kzalloc(test, PAGE_SIZE, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, buf);
	scnprintf(buf, PAGE_SIZE, "%s requested %*pbl, %d held, load %u",
		  pool_show(test, pool), pool_fault_params.nvec, dev->requested,
		  atomic_read(&dev->requests) - atomic_read(&dev->releases),
		  irq_spread_test_load_sum(&t->topo));
	return buf;
}

/*
 * Gets, each allocation failing in turn: the first of a vector (which
 * requests it), and one that shares a requested vector.
 */
static void irq_spread_pool_test_fault_get(struct kunit *test)
{
	struct test_topo *t = irq_spread_test_topo_new(test, &quad);
	struct pool_dev *dev = pool_dev_new(test);
	struct irq_spread_pool *pool = pool_new(test, t, dev, 0,
						&pool_fault_params);
	unsigned int n, get, failed[2] = {};
	const char *before;
	int vec;

	for (get = 0; get < 2; get++) {
		before = pool_fault_state(test, t, dev, pool);
		for (n = 1;; n++) {
			irq_spread_test_fail_nth(n);
			vec = irq_spread_pool_get(pool, NULL);
			if (!irq_spread_test_fail_nth_fired())
				break;
			if (vec >= 0) {
				KUNIT_ASSERT_EQ(test, irq_spread_pool_put(pool, vec), 0);
			} else {
				KUNIT_EXPECT_EQ_MSG(test, vec, -ENOMEM,
						    "get %u, allocation %u", get, n);
				failed[get]++;
			}
			KUNIT_ASSERT_STREQ_MSG(test, pool_fault_state(test, t, dev, pool),
					       before, "get %u, allocation %u", get, n);
		}
		KUNIT_ASSERT_GE(test, vec, 0);
		KUNIT_EXPECT_EQ(test, vec, 0);
	}
	KUNIT_EXPECT_EQ(test, atomic_read(&dev->requests) -
			atomic_read(&dev->releases), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&dev->errors), 0);
	kunit_info(test, "get: %u allocations failed in turn for a vector's first user, %u for its second",
		   failed[0], failed[1]);
}

/*
 * The owner's policy written (irq_spread_pool_test_owner()'s first
 * write), each allocation failing in turn: -ENOMEM, and the owner and
 * the pool as they were; or the owner's policy taken, and the pool moved
 * with it, or, its own placement's allocation failing (logged), kept
 * where it was.  Whether a sweep reaches that last one is not checked:
 * fail-nth also counts the pages KASAN's stack depot takes now and then,
 * which can move the one failure past it.
 */
static void irq_spread_pool_test_fault_owner(struct kunit *test)
{
	static const char * const before = "0\t1000\t1\t1\n1\t1001\t1\t2\n";
	static const char * const moved = "0\t1000\t1\t2-3\n1\t1001\t1\t0-1\n";
	struct test_topo *t = irq_spread_test_topo_new(test, &smt2);
	struct pool_dev *dev = pool_dev_new(test);
	unsigned int n, kept = 0, failed = 0;
	struct irq_spread_pool *pool;
	struct pool_consumer *owner;
	const char *rows;
	char buf[64];
	int vecs[2], ret;

	owner = pool_register(test, t, "irq_spread_pool_owner", 1,
			      IRQ_SPREAD_NUMA, IRQ_SPREAD_DEV_NO_CLASS);
	pool_attach(test, owner, 1);
	pool = pool_owned(test, t, dev, owner->sd, 4);
	vecs[0] = pool_get(test, t, pool, "*", buf, sizeof(buf));
	vecs[1] = pool_get(test, t, pool, "*", buf, sizeof(buf));
	KUNIT_ASSERT_STREQ(test, pool_rows(test, pool), before);

	for (n = 1;; n++) {
		irq_spread_test_fail_nth(n);
		ret = irq_spread_dev_set_policy(owner->sd, IRQ_SPREAD_NUMA_CORE);
		if (!irq_spread_test_fail_nth_fired())
			break;
		rows = pool_rows(test, pool);
		if (ret) {
			KUNIT_EXPECT_EQ_MSG(test, ret, -ENOMEM, "allocation %u", n);
			KUNIT_ASSERT_STREQ_MSG(test, pool_dev_masks(test, owner, 1),
					       "0", "allocation %u", n);
			KUNIT_ASSERT_STREQ_MSG(test, rows, before, "allocation %u", n);
			failed++;
			continue;
		}
		KUNIT_ASSERT_STREQ_MSG(test, pool_dev_masks(test, owner, 1), "0-1",
				       "allocation %u", n);
		if (!strcmp(rows, before))
			kept++;
		else
			KUNIT_ASSERT_STREQ_MSG(test, rows, moved, "allocation %u", n);
		KUNIT_ASSERT_EQ(test, irq_spread_dev_set_policy(owner->sd,
								IRQ_SPREAD_NUMA), 0);
		KUNIT_ASSERT_STREQ(test, pool_rows(test, pool), before);
	}
	KUNIT_EXPECT_EQ(test, ret, 0);
	KUNIT_EXPECT_STREQ(test, pool_rows(test, pool), moved);
	KUNIT_EXPECT_EQ(test, irq_spread_test_load_sum(&t->topo), 2 + 4);
	kunit_info(test, "owner's policy: %u allocations failed in turn: %u -ENOMEM, %u with the pool kept where it was",
		   n - 1, failed, kept);
	pool_put_owned(test, t, dev, pool, vecs, ARRAY_SIZE(vecs), 2);
}

static struct kunit_case irq_spread_pool_fault_test_cases[] = {
	KUNIT_CASE(irq_spread_pool_test_fault_create),
	KUNIT_CASE(irq_spread_pool_test_fault_get),
	KUNIT_CASE(irq_spread_pool_test_fault_owner),
	{}
};

static struct kunit_suite irq_spread_pool_fault_test_suite = {
	.name = "irq_spread_pool_fault",
	.init = pool_fault_init,
	.test_cases = irq_spread_pool_fault_test_cases,
};

kunit_test_suites(&irq_spread_pool_test_suite, &irq_spread_pool_fault_test_suite);

MODULE_DESCRIPTION("KUnit tests for irq_spread pools");
MODULE_LICENSE("GPL");
