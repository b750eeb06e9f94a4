// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit benchmark of irq_spread_local_cpu() on the running system: a
 * driver's 256 calls, one per vector, against the same driver's 256 calls
 * of cpumask_local_spread(), for each node with CPUs and NUMA_NO_NODE and
 * each policy.  Prints the first round (the one that may build what the
 * query keeps) and the best of the others, and their ratios to the best
 * round of cpumask_local_spread(); asserts nothing about time, only that
 * every answer is an online CPU.  A slow case: make check skips it, make
 * bench boots a guest to run it.
 */
#include <kunit/test.h>
#include <linux/cpumask.h>
#include <linux/irq_spread.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/nodemask.h>
#include <linux/numa.h>
#include <linux/topology.h>

#define BENCH_CALLS	256
#define BENCH_ROUNDS	20

/* One round of the library's calls; whether each answer is online. */
static u64 bench_library(int node, enum irq_spread_policy policy, bool *ok)
{
	unsigned int i, cpu;
	u64 t0 = ktime_get_ns();

	for (i = 0; i < BENCH_CALLS; i++) {
		cpu = irq_spread_local_cpu(i, node, policy);
		*ok &= cpu < nr_cpu_ids && cpu_online(cpu);
	}
	return ktime_get_ns() - t0;
}

static u64 bench_local_spread(int node, bool *ok)
{
	unsigned int i, cpu;
	u64 t0 = ktime_get_ns();

	for (i = 0; i < BENCH_CALLS; i++) {
		cpu = cpumask_local_spread(i, node);
		*ok &= cpu < nr_cpu_ids && cpu_online(cpu);
	}
	return ktime_get_ns() - t0;
}

/*
 * @a / @b as a decimal with two places, in @buf; "n/a" when the clock saw
 * no time for @b (a coarse clock, as UML's can be).
 */
static const char *bench_ratio(char *buf, size_t size, u64 a, u64 b)
{
	u64 r;

	if (!b)
		return "n/a";
	r = div64_u64(a * 100, b);

	snprintf(buf, size, "%llu.%02llu", div_u64(r, 100), r % 100);
	return buf;
}

static void bench_node(struct kunit *test, int node)
{
	u64 first, best, base = U64_MAX;
	char r1[24], r2[24];
	unsigned int p, r;
	bool ok = true;

	for (r = 0; r < BENCH_ROUNDS; r++)
		base = min(base, bench_local_spread(node, &ok));
	for (p = 0; p < IRQ_SPREAD_NR_POLICIES; p++) {
		first = bench_library(node, p, &ok);
		best = first;
		for (r = 1; r < BENCH_ROUNDS; r++)
			best = min(best, bench_library(node, p, &ok));
		kunit_info(test, "irq_spread_local_cpu bench: node %d %s, %u calls: first %llu ns (%s x), best %llu ns (%s x), cpumask_local_spread %llu ns\n",
			   node, irq_spread_policy_name(p), BENCH_CALLS, first,
			   bench_ratio(r1, sizeof(r1), first, base), best,
			   bench_ratio(r2, sizeof(r2), best, base), base);
	}
	KUNIT_EXPECT_TRUE_MSG(test, ok, "node %d: a CPU that is not online", node);
}

static void irq_spread_local_cpu_bench_nodes(struct kunit *test)
{
	int node;

	bench_node(test, NUMA_NO_NODE);
	for_each_node_with_cpus(node)
		bench_node(test, node);
}

static struct kunit_case irq_spread_local_cpu_bench_cases[] = {
	KUNIT_CASE_SLOW(irq_spread_local_cpu_bench_nodes),
	{}
};

static struct kunit_suite irq_spread_local_cpu_bench_suite = {
	.name = "irq_spread_local_cpu_bench",
	.test_cases = irq_spread_local_cpu_bench_cases,
};

kunit_test_suite(irq_spread_local_cpu_bench_suite);

MODULE_DESCRIPTION("KUnit benchmark of irq_spread_local_cpu()");
MODULE_LICENSE("GPL");
