// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of page_pool_napi_node() (net/core/page_pool_napi.h), through
 * the page pool API, and a benchmark of its cost per NAPI poll.
 *
 * A pool here serves a dummy NAPI instance, never registered: only its
 * list_owner, the CPU whose poll list holds it (-1 when none does), is set,
 * as ____napi_schedule() sets it.  The first allocation from a new pool
 * finds its allocation cache empty, refills it, and so runs the hook; the
 * test then reads the pool's node (page_pool_params.nid) and that of the
 * page it got.  The expected outcome of each case is worked out from the
 * rules of the hook's kernel-doc: a pool created with %PP_FLAG_NAPI_NODE
 * takes this CPU's memory node when it refills inside its NAPI (in softirq
 * context, on the CPU that owns the NAPI), and in no other case.
 *
 * The cases need a second memory node to start a pool on: they skip
 * without CONFIG_NUMA or on a machine of one node.  The benchmark, a slow
 * case, prints figures and asserts nothing about time.
 */
#include <kunit/test.h>
#include <linux/bottom_half.h>
#include <linux/cpumask.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/moduleparam.h>
#include <linux/netdevice.h>
#include <linux/nodemask.h>
#include <linux/numa.h>
#include <linux/preempt.h>
#include <linux/sched.h>
#include <linux/smp.h>
#include <linux/sort.h>
#include <linux/string.h>
#include <linux/topology.h>
#include <net/page_pool/helpers.h>
#include <net/page_pool/types.h>

#include "page_pool_napi.h"

/* Where the dummy NAPI instance is, when the pool allocates. */
enum pp_napi_owner {
	PP_NAPI_HERE,	/* on this CPU's poll list */
	PP_NAPI_OTHER,	/* on another CPU's poll list */
	PP_NAPI_NONE,	/* on none: idle, threaded, or busy polled */
};

/* Where the pool starts. */
enum pp_napi_start {
	PP_START_FAR,	/* a memory node other than this CPU's */
	PP_START_NONE,	/* NUMA_NO_NODE */
};

/**
 * struct pp_napi_case - one refill of a new pool, and where it must leave it
 * @desc: what the case is
 * @napi_node: the pool has %PP_FLAG_NAPI_NODE
 * @start: the pool's node at creation
 * @owner: where its NAPI instance is polled when it refills
 * @softirq: it refills in softirq context (else with preemption disabled)
 * @follows: the pool must be on this CPU's node after the refill; else on
 *	its node at creation
 */
struct pp_napi_case {
	const char *desc;
	bool napi_node;
	enum pp_napi_start start;
	enum pp_napi_owner owner;
	bool softirq;
	bool follows;
};

static const struct pp_napi_case pp_napi_cases[] = {
	{ "flag, own NAPI, softirq: follows", true, PP_START_FAR,
	  PP_NAPI_HERE, true, true },
	{ "flag, no node, own NAPI, softirq: follows", true, PP_START_NONE,
	  PP_NAPI_HERE, true, true },
	{ "no flag, own NAPI, softirq: stays", false, PP_START_FAR,
	  PP_NAPI_HERE, true, false },
	{ "no flag, no node, own NAPI, softirq: stays", false, PP_START_NONE,
	  PP_NAPI_HERE, true, false },
	{ "flag, NAPI of another CPU, softirq: stays", true, PP_START_FAR,
	  PP_NAPI_OTHER, true, false },
	{ "flag, NAPI on no poll list, softirq: stays", true, PP_START_FAR,
	  PP_NAPI_NONE, true, false },
	{ "flag, own NAPI, process context: stays", true, PP_START_FAR,
	  PP_NAPI_HERE, false, false },
	{ "flag, no node, own NAPI, process context: stays", true,
	  PP_START_NONE, PP_NAPI_HERE, false, false },
};

static void pp_napi_case_desc(const struct pp_napi_case *c, char *desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(pp_napi, pp_napi_cases, pp_napi_case_desc);

/* A memory node other than @nid, or NUMA_NO_NODE if there is none. */
static int pp_napi_far_node(int nid)
{
	int n;

	for_each_node_state(n, N_MEMORY)
		if (n != nid)
			return n;
	return NUMA_NO_NODE;
}

/**
 * struct pp_napi_result - what one case saw, checked once it is done
 * @skip: why the case could not run on this machine, or %NULL
 * @err: the error of page_pool_create(), or 0
 * @local: this CPU's memory node
 * @start: the pool's node at creation
 * @nid: the pool's node after the refill
 * @page_nid: the node of the page the refill gave, or NUMA_NO_NODE for none
 */
struct pp_napi_result {
	const char *skip;
	int err;
	int local;
	int start;
	int nid;
	int page_nid;
};

/*
 * Run case @c on this CPU, which the caller keeps: create the pool, take
 * one page from it in the case's context, give it back, destroy the pool.
 * Nothing here may end the test early (the caller disabled migration), so
 * the checks wait for the caller.
 */
static void pp_napi_run(const struct pp_napi_case *c,
			struct napi_struct *napi, struct pp_napi_result *r)
{
	struct page_pool_params pp = {
		.pool_size = 64,
		.napi = napi,
		.flags = c->napi_node ? PP_FLAG_NAPI_NODE : 0,
	};
	int cpu = smp_processor_id();
	struct page_pool *pool;
	struct page *page;
	int owner;

	r->local = numa_mem_id();
	r->start = NUMA_NO_NODE;
	if (c->start == PP_START_FAR) {
		r->start = pp_napi_far_node(r->local);
		if (r->start == NUMA_NO_NODE) {
			r->skip = "needs a second memory node";
			return;
		}
	}
	switch (c->owner) {
	case PP_NAPI_HERE:
		owner = cpu;
		break;
	case PP_NAPI_OTHER:
		owner = cpumask_any_but(cpu_online_mask, cpu);
		if (owner >= nr_cpu_ids) {
			r->skip = "needs a second CPU";
			return;
		}
		break;
	default:
		owner = -1;
		break;
	}

	pp.nid = r->start;
	pool = page_pool_create(&pp);
	if (IS_ERR(pool)) {
		r->err = PTR_ERR(pool);
		return;
	}
	WRITE_ONCE(napi->list_owner, owner);
	if (c->softirq)
		local_bh_disable();
	else
		preempt_disable();
	page = page_pool_dev_alloc_pages(pool);
	if (c->softirq)
		local_bh_enable();
	else
		preempt_enable();
	WRITE_ONCE(napi->list_owner, -1);

	r->nid = pool->p.nid;
	r->page_nid = page ? page_to_nid(page) : NUMA_NO_NODE;
	if (page)
		page_pool_put_full_page(pool, page, false);
	page_pool_destroy(pool);
}

static void pp_napi_test_refill(struct kunit *test)
{
	const struct pp_napi_case *c = test->param_value;
	struct pp_napi_result r = {};
	struct napi_struct *napi;
	int want;

	if (!IS_ENABLED(CONFIG_NUMA))
		kunit_skip(test, "needs CONFIG_NUMA: without it the hook is empty");
	napi = kunit_kzalloc(test, sizeof(*napi), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, napi);
	napi->list_owner = -1;

	migrate_disable();
	pp_napi_run(c, napi, &r);
	migrate_enable();

	if (r.skip)
		kunit_skip(test, "%s", r.skip);
	KUNIT_ASSERT_EQ_MSG(test, r.err, 0, "page_pool_create() failed");
	want = c->follows ? r.local : r.start;
	KUNIT_EXPECT_EQ_MSG(test, r.nid, want,
			    "pool started on node %d, this CPU's node is %d",
			    r.start, r.local);
	KUNIT_ASSERT_NE_MSG(test, r.page_nid, NUMA_NO_NODE,
			    "the pool gave no page");
	/*
	 * The refill allocated from the pool's node: this CPU's after it
	 * followed, the one it started on when that was a node.
	 */
	if (want != NUMA_NO_NODE)
		KUNIT_EXPECT_EQ_MSG(test, r.page_nid, want,
				    "page from node %d for a pool on node %d",
				    r.page_nid, want);
}

/*
 * The benchmark.  A simulated NAPI poll is one softirq section (as
 * net_rx_action() runs a poll) that refills an RX ring of
 * PP_NAPI_BENCH_BUDGET buffers from the pool, the driver's side of a
 * poll, in one of two ways:
 *
 * - direct: each page is recycled within the poll (XDP_DROP), straight
 *   into the allocation cache, which then never runs empty: the hook is
 *   never reached, so that the pool with the flag runs the same code as
 *   the pool without it, and their ratio shows the noise of the run;
 * - ring: the pages come back after the poll, from process context (as
 *   when the stack frees an skb after recvmsg()), into the pool's ring:
 *   each poll empties the cache once and refills it from the ring once,
 *   which runs the hook once.
 *
 * Each is timed on a pool with %PP_FLAG_NAPI_NODE against the same pool
 * without it, both on this CPU's node, polled by their NAPI on this CPU:
 * the steady state after an IRQ has moved and the pool has followed.  The
 * hook itself is timed alone against an empty poll (a softirq section
 * with nothing in it): on a pool at home (the per-CPU read and compare
 * every refill pays), on a pool without the flag whose node is another
 * (a pool a driver put on its device's node), and the retarget itself (a
 * pool put back on another node before each call, so that each call moves
 * it as page_pool_update_nid() does).  Every figure of a round is measured
 * in that round, next to its baseline; each time per poll printed is the
 * median of the rounds' times, each ratio the median of their ratios: the
 * guest's speed on a shared host drifts by tens of percent within
 * seconds, which the lowest or the sum of long runs does not cancel, but
 * a ratio of two runs of a few milliseconds side by side mostly does.
 */
#define PP_NAPI_BENCH_BUDGET	64

static unsigned int bench_polls = 16;
module_param(bench_polls, uint, 0444);
MODULE_PARM_DESC(bench_polls, "simulated NAPI polls per round of a pool benchmark (default 16)");

static unsigned int bench_checks = 2000;
module_param(bench_checks, uint, 0444);
MODULE_PARM_DESC(bench_checks, "calls per round of a benchmark of the hook alone (default 2000)");

static unsigned int bench_rounds = 201;
module_param(bench_rounds, uint, 0444);
MODULE_PARM_DESC(bench_rounds, "rounds of the benchmark, each figure is the median of its rounds (default 201)");

enum pp_napi_bench {
	PP_BENCH_EMPTY,
	PP_BENCH_CHECK,
	PP_BENCH_CHECK_OTHER,
	PP_BENCH_RETARGET,
	PP_BENCH_DIRECT_FLAG,
	PP_BENCH_DIRECT,
	PP_BENCH_RING_FLAG,
	PP_BENCH_RING,
	PP_BENCH_NR,
};

/**
 * struct pp_napi_bench_ctx - the pools and figures of the benchmark
 * @napi: the NAPI instance of every pool, on this CPU's poll list
 * @flag: a pool with %PP_FLAG_NAPI_NODE on this CPU's node
 * @plain: the same pool without the flag
 * @other: a pool without the flag on another node, never allocated from
 * @moved: a pool with the flag, never allocated from, moved to @far
 *	before each call of the hook
 * @far: a memory node other than this CPU's, or NUMA_NO_NODE
 * @pages: the RX ring being refilled
 * @rounds: rounds of the benchmark
 * @ns: per round, then per figure, the time it took, in ns
 * @err: the first error of page_pool_create(), or 0
 */
struct pp_napi_bench_ctx {
	struct napi_struct *napi;
	struct page_pool *flag;
	struct page_pool *plain;
	struct page_pool *other;
	struct page_pool *moved;
	int far;
	struct page *pages[PP_NAPI_BENCH_BUDGET];
	unsigned int rounds;
	u64 *ns;
	int err;
};

static struct page_pool *pp_napi_bench_pool(struct pp_napi_bench_ctx *b,
					    int nid, bool napi_node)
{
	struct page_pool_params pp = {
		.pool_size = 4 * PP_NAPI_BENCH_BUDGET,
		.nid = nid,
		.napi = b->napi,
		.flags = napi_node ? PP_FLAG_NAPI_NODE : 0,
	};
	struct page_pool *pool;

	pool = page_pool_create(&pp);
	if (IS_ERR(pool)) {
		if (!b->err)
			b->err = PTR_ERR(pool);
		return NULL;
	}
	return pool;
}

static u64 pp_napi_bench_empty(unsigned int n)
{
	u64 t = ktime_get_ns();
	unsigned int i;

	for (i = 0; i < n; i++) {
		local_bh_disable();
		barrier();
		local_bh_enable();
	}
	return ktime_get_ns() - t;
}

static u64 pp_napi_bench_check(struct page_pool *pool, unsigned int n)
{
	u64 t = ktime_get_ns();
	unsigned int i;

	for (i = 0; i < n; i++) {
		local_bh_disable();
		page_pool_napi_node(pool);
		barrier();
		local_bh_enable();
	}
	return ktime_get_ns() - t;
}

static u64 pp_napi_bench_retarget(struct pp_napi_bench_ctx *b, unsigned int n)
{
	u64 t = ktime_get_ns();
	unsigned int i;

	for (i = 0; i < n; i++) {
		local_bh_disable();
		b->moved->p.nid = b->far;
		page_pool_napi_node(b->moved);
		barrier();
		local_bh_enable();
	}
	return ktime_get_ns() - t;
}

/* One poll of the direct kind; false if the pool ran out of pages. */
static bool pp_napi_poll_direct(struct page_pool *pool)
{
	struct page *page;
	unsigned int i;
	bool ok = true;

	local_bh_disable();
	for (i = 0; i < PP_NAPI_BENCH_BUDGET; i++) {
		page = page_pool_dev_alloc_pages(pool);
		if (!page) {
			ok = false;
			break;
		}
		page_pool_recycle_direct(pool, page);
	}
	local_bh_enable();
	return ok;
}

/* One poll of the ring kind, pages back from process context after it. */
static bool pp_napi_poll_ring(struct pp_napi_bench_ctx *b,
			      struct page_pool *pool)
{
	unsigned int i, got;

	local_bh_disable();
	for (got = 0; got < PP_NAPI_BENCH_BUDGET; got++) {
		b->pages[got] = page_pool_dev_alloc_pages(pool);
		if (!b->pages[got])
			break;
	}
	local_bh_enable();
	for (i = 0; i < got; i++)
		page_pool_put_full_page(pool, b->pages[i], false);
	return got == PP_NAPI_BENCH_BUDGET;
}

static u64 pp_napi_bench_direct(struct page_pool *pool, unsigned int n,
				bool *ok)
{
	u64 t = ktime_get_ns();
	unsigned int i;

	for (i = 0; i < n; i++)
		*ok &= pp_napi_poll_direct(pool);
	return ktime_get_ns() - t;
}

static u64 pp_napi_bench_ring(struct pp_napi_bench_ctx *b,
			      struct page_pool *pool, unsigned int n, bool *ok)
{
	u64 t = ktime_get_ns();
	unsigned int i;

	for (i = 0; i < n; i++)
		*ok &= pp_napi_poll_ring(b, pool);
	return ktime_get_ns() - t;
}

/*
 * Time figure @what in round @r, with @checks calls of the hook or @polls
 * polls.  False if a pool gave no page.
 */
static bool pp_napi_bench_one(struct pp_napi_bench_ctx *b, unsigned int r,
			      enum pp_napi_bench what, unsigned int checks,
			      unsigned int polls)
{
	bool ok = true;
	u64 ns;

	switch (what) {
	case PP_BENCH_EMPTY:
		ns = pp_napi_bench_empty(checks);
		break;
	case PP_BENCH_CHECK:
		ns = pp_napi_bench_check(b->flag, checks);
		break;
	case PP_BENCH_CHECK_OTHER:
		if (!b->other)
			return true;
		ns = pp_napi_bench_check(b->other, checks);
		break;
	case PP_BENCH_RETARGET:
		if (!b->moved)
			return true;
		ns = pp_napi_bench_retarget(b, checks);
		break;
	case PP_BENCH_DIRECT_FLAG:
		ns = pp_napi_bench_direct(b->flag, polls, &ok);
		break;
	case PP_BENCH_DIRECT:
		ns = pp_napi_bench_direct(b->plain, polls, &ok);
		break;
	case PP_BENCH_RING_FLAG:
		ns = pp_napi_bench_ring(b, b->flag, polls, &ok);
		break;
	default:
		ns = pp_napi_bench_ring(b, b->plain, polls, &ok);
		break;
	}
	b->ns[r * PP_BENCH_NR + what] = ns;
	return ok;
}

/*
 * All rounds, on this CPU, which the caller keeps: every figure once per
 * round, in the order of enum pp_napi_bench in even rounds and in the
 * reverse order in odd ones, so that no figure always follows the same
 * one.  False if a pool gave no page.
 */
static bool pp_napi_bench_rounds(struct pp_napi_bench_ctx *b)
{
	unsigned int polls = max(bench_polls, 1U);
	unsigned int checks = max(bench_checks, 1U);
	unsigned int r, i;
	bool ok = true;

	/* Fill each pool's cache and ring as a running queue has them. */
	pp_napi_bench_direct(b->flag, 2, &ok);
	pp_napi_bench_direct(b->plain, 2, &ok);
	pp_napi_bench_ring(b, b->flag, 2, &ok);
	pp_napi_bench_ring(b, b->plain, 2, &ok);
	for (r = 0; r < b->rounds; r++)
		for (i = 0; i < PP_BENCH_NR; i++)
			ok &= pp_napi_bench_one(b, r,
						r & 1 ? PP_BENCH_NR - 1 - i : i,
						checks, polls);
	return ok;
}

/* @ns / @n in hundredths, rounded. */
static u64 pp_napi_centi(u64 ns, u64 n)
{
	return div64_u64(ns * 100 + n / 2, max(n, 1ULL));
}

static int pp_napi_cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

/* The median of the @n values of @v, which it sorts. */
static u64 pp_napi_median(u64 *v, unsigned int n)
{
	sort(v, n, sizeof(*v), pp_napi_cmp_u64, NULL);
	return v[n / 2];
}

/*
 * One line: "page_pool_napi bench: WHAT NS ns/poll ratio X.XX vs BASE",
 * the median time per poll of figure @i (@n polls or calls a round) and
 * the median of its rounds' ratios to figure @j (@m a round).  @v has room
 * for a value per round.
 */
static void pp_napi_bench_print(struct kunit *test,
				const struct pp_napi_bench_ctx *b, u64 *v,
				const char *what, enum pp_napi_bench i,
				unsigned int n, const char *base,
				enum pp_napi_bench j, unsigned int m)
{
	const u64 *ns = b->ns;
	unsigned int r;
	u64 cns, ratio;

	for (r = 0; r < b->rounds; r++)
		v[r] = pp_napi_centi(ns[r * PP_BENCH_NR + i], n);
	cns = pp_napi_median(v, b->rounds);
	for (r = 0; r < b->rounds; r++)
		v[r] = pp_napi_centi(pp_napi_centi(ns[r * PP_BENCH_NR + i], n),
				     pp_napi_centi(ns[r * PP_BENCH_NR + j], m));
	ratio = pp_napi_median(v, b->rounds);

	kunit_info(test, "page_pool_napi bench: %s %llu.%02llu ns/poll ratio %llu.%02llu vs %s\n",
		   what, cns / 100, cns % 100, ratio / 100, ratio % 100, base);
}

static void pp_napi_bench_destroy(struct pp_napi_bench_ctx *b)
{
	WRITE_ONCE(b->napi->list_owner, -1);
	page_pool_destroy(b->flag);
	page_pool_destroy(b->plain);
	page_pool_destroy(b->other);
	page_pool_destroy(b->moved);
}

static void pp_napi_bench(struct kunit *test)
{
	unsigned int polls = max(bench_polls, 1U);
	unsigned int checks = max(bench_checks, 1U);
	struct pp_napi_bench_ctx *b;
	bool ok = false;
	int local;
	u64 *v;

	b = kunit_kzalloc(test, sizeof(*b), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, b);
	b->napi = kunit_kzalloc(test, sizeof(*b->napi), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, b->napi);
	b->rounds = max(bench_rounds, 1U);
	b->ns = kunit_kcalloc(test, b->rounds * PP_BENCH_NR, sizeof(*b->ns),
			      GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, b->ns);
	v = kunit_kcalloc(test, b->rounds, sizeof(*v), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, v);

	migrate_disable();
	local = numa_mem_id();
	b->far = IS_ENABLED(CONFIG_NUMA) ? pp_napi_far_node(local) :
		 NUMA_NO_NODE;
	WRITE_ONCE(b->napi->list_owner, smp_processor_id());
	b->flag = pp_napi_bench_pool(b, local, true);
	b->plain = pp_napi_bench_pool(b, local, false);
	if (b->far != NUMA_NO_NODE) {
		b->other = pp_napi_bench_pool(b, b->far, false);
		b->moved = pp_napi_bench_pool(b, b->far, true);
	}
	if (!b->err)
		ok = pp_napi_bench_rounds(b);
	pp_napi_bench_destroy(b);
	migrate_enable();

	KUNIT_ASSERT_EQ_MSG(test, b->err, 0, "page_pool_create() failed");
	KUNIT_ASSERT_TRUE_MSG(test, ok, "a pool gave no page");

	kunit_info(test, "page_pool_napi bench: medians of %u rounds of %u calls of the hook, %u polls of %u pages; node %d, far node %d\n",
		   b->rounds, checks, polls, PP_NAPI_BENCH_BUDGET, local,
		   b->far);
	pp_napi_bench_print(test, b, v, "empty", PP_BENCH_EMPTY, checks,
			    "empty", PP_BENCH_EMPTY, checks);
	pp_napi_bench_print(test, b, v, "check", PP_BENCH_CHECK, checks,
			    "empty", PP_BENCH_EMPTY, checks);
	if (b->other) {
		pp_napi_bench_print(test, b, v, "check-other-node",
				    PP_BENCH_CHECK_OTHER, checks,
				    "empty", PP_BENCH_EMPTY, checks);
		pp_napi_bench_print(test, b, v, "retarget", PP_BENCH_RETARGET,
				    checks, "empty", PP_BENCH_EMPTY, checks);
	} else {
		kunit_info(test, "page_pool_napi bench: no second memory node: check-other-node and retarget not run\n");
	}
	pp_napi_bench_print(test, b, v, "direct-noflag", PP_BENCH_DIRECT, polls,
			    "empty", PP_BENCH_EMPTY, checks);
	pp_napi_bench_print(test, b, v, "direct-flag", PP_BENCH_DIRECT_FLAG,
			    polls, "direct-noflag", PP_BENCH_DIRECT, polls);
	pp_napi_bench_print(test, b, v, "ring-noflag", PP_BENCH_RING, polls,
			    "empty", PP_BENCH_EMPTY, checks);
	pp_napi_bench_print(test, b, v, "ring-flag", PP_BENCH_RING_FLAG, polls,
			    "ring-noflag", PP_BENCH_RING, polls);
}

static struct kunit_case pp_napi_test_cases[] = {
	KUNIT_CASE_PARAM(pp_napi_test_refill, pp_napi_gen_params),
	KUNIT_CASE_SLOW(pp_napi_bench),
	{}
};

static struct kunit_suite pp_napi_test_suite = {
	.name = "page_pool_napi",
	.test_cases = pp_napi_test_cases,
};

kunit_test_suite(pp_napi_test_suite);

MODULE_DESCRIPTION("KUnit tests and benchmark of page pools following their NAPI's node");
MODULE_LICENSE("GPL");
