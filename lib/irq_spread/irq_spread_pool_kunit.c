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
 */
#include <kunit/test.h>
#include <linux/atomic.h>
#include <linux/bitmap.h>
#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/irq_spread.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/math.h>
#include <linux/numa.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/sprintf.h>
#include <linux/string.h>

#include "irq_spread_internal.h"
#include "irq_spread_kunit_machine.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

#define TEST_IRQ_BASE	1000

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

static void pool_dev_release(void *priv, unsigned int vector, unsigned int irq)
{
	struct pool_dev *dev = priv;

	if (!test_and_clear_bit(vector - dev->first, dev->requested) ||
	    irq != TEST_IRQ_BASE + vector)
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

static struct irq_spread_pool *pool_new(struct kunit *test, struct test_topo *t,
					struct pool_dev *dev, unsigned int first,
					const struct pool_params *p)
{
	struct irq_spread_pool_info info = {
		.name = test->name, .node = p->node, .policy = p->policy,
		.first_vector = first, .nr_vectors = p->nvec,
		.max_users = p->max_users, .ops = &pool_dev_ops, .priv = dev,
	};
	struct irq_spread_pool *pool;

	dev->t = t;
	dev->first = first;
	dev->requested = kunit_kcalloc(test, BITS_TO_LONGS(p->nvec),
				       sizeof(long), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, dev->requested);
	dev->mask = irq_spread_test_bitmap(test, t);

	pool = irq_spread_pool_topo_create(&t->topo, &info);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, pool);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, pool_destroy,
							pool), 0);
	return pool;
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
	vec = irq_spread_pool_topo_get(pool, want);
	if (vec < 0)
		scnprintf(buf, size, "%d", vec);
	else
		scnprintf(buf, size, "%d:%*pbl", vec, n,
			  pool_mask(pool, vec - pool->info.first_vector));
	return vec;
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
	KUNIT_EXPECT_EQ(test, irq_spread_pool_irq(pool, 8), TEST_IRQ_BASE + 8);

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
	KUNIT_EXPECT_EQ(test, irq_spread_pool_irq(pool, 8), TEST_IRQ_BASE + 8);
	KUNIT_EXPECT_NE(test, irq_spread_test_load_sum(&t->topo), 0);

	KUNIT_EXPECT_EQ(test, irq_spread_pool_put(pool, 8), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&dev->releases), 1);
	KUNIT_EXPECT_EQ(test, pool->nr_requested, 0);
	KUNIT_EXPECT_EQ(test, irq_spread_pool_irq(pool, 8), -EINVAL);
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

	dev->fail = 0;
	vecs[1] = pool_get(test, t, pool, "14", buf, sizeof(buf));
	KUNIT_EXPECT_STREQ(test, buf, "1:14");
	KUNIT_EXPECT_EQ(test, atomic_read(&dev->requests), 2);
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

/* Bad gets, puts and lookups: -EINVAL, and nothing changed. */
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

	KUNIT_EXPECT_EQ(test, irq_spread_pool_topo_get(NULL, NULL), -EINVAL);
	KUNIT_EXPECT_EQ(test, irq_spread_pool_topo_get(pool, none), -EINVAL);
	KUNIT_EXPECT_EQ(test, irq_spread_pool_put(NULL, 8), -EINVAL);
	KUNIT_EXPECT_EQ(test, irq_spread_pool_put(pool, 7), -EINVAL);
	KUNIT_EXPECT_EQ(test, irq_spread_pool_put(pool, 9), -EINVAL);
	KUNIT_EXPECT_EQ(test, irq_spread_pool_put(pool, 10), -EINVAL);
	KUNIT_EXPECT_EQ(test, irq_spread_pool_put(pool, UINT_MAX), -EINVAL);
	KUNIT_EXPECT_EQ(test, irq_spread_pool_irq(NULL, 8), -EINVAL);
	KUNIT_EXPECT_EQ(test, irq_spread_pool_irq(pool, 9), -EINVAL);
	KUNIT_EXPECT_EQ(test, irq_spread_pool_irq(pool, 10), -EINVAL);

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
	KUNIT_EXPECT_EQ(test, irq_spread_pool_get_cpu(pool, nr_cpu_ids), -EINVAL);
	KUNIT_EXPECT_EQ(test, dev->requests, 0);

	KUNIT_EXPECT_EQ(test, irq_spread_pool_get_cpu(pool, cpu), 0);
	KUNIT_EXPECT_EQ(test, dev->requests, 1);
	KUNIT_EXPECT_TRUE(test, cpumask_equal(dev->mask, cpumask_of(cpu)));
	KUNIT_EXPECT_EQ(test, irq_spread_pool_irq(pool, 0), TEST_IRQ_BASE);
	KUNIT_EXPECT_EQ(test, irq_spread_pool_get(pool, NULL), 1);
	KUNIT_EXPECT_EQ(test, dev->requests, 2);

	KUNIT_EXPECT_EQ(test, irq_spread_pool_put(pool, 0), 0);
	KUNIT_EXPECT_EQ(test, irq_spread_pool_put(pool, 1), 0);
	KUNIT_EXPECT_EQ(test, irq_spread_pool_put(pool, 1), -EINVAL);
	KUNIT_EXPECT_EQ(test, dev->releases, 2);
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
		vecs[i] = irq_spread_pool_topo_get(pool, want);
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
 * @t: the machine
 * @pool: the pool
 * @want: the CPUs of its next get
 * @seed: its pseudo-random state
 * @errors: what went wrong, over all threads
 * @done: completed when it has put everything
 */
struct stress_thread {
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
	vec = irq_spread_pool_topo_get(pool, want);
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
	KUNIT_CASE_PARAM(irq_spread_pool_test_create_invalid, create_gen_params),
	KUNIT_CASE(irq_spread_pool_test_invalid),
	KUNIT_CASE(irq_spread_pool_test_show),
	KUNIT_CASE(irq_spread_pool_test_system),
	KUNIT_CASE_PARAM(irq_spread_pool_test_seed004, seed_gen_params),
	KUNIT_CASE(irq_spread_pool_test_stress),
	KUNIT_CASE_SLOW(irq_spread_pool_bench_seed004),
	{}
};

static struct kunit_suite irq_spread_pool_test_suite = {
	.name = "irq_spread_pool",
	.test_cases = irq_spread_pool_test_cases,
};

kunit_test_suite(irq_spread_pool_test_suite);

MODULE_DESCRIPTION("KUnit tests for irq_spread pools");
MODULE_LICENSE("GPL");
