// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for irq_spread: policy names, and the engine and
 * irq_spread_local_cpu() on the running system (UML under make kunit, the
 * NUMA guest under make guest).
 */
#include <kunit/test.h>
#include <linux/cpumask.h>
#include <linux/irq_spread.h>
#include <linux/numa.h>
#include <linux/sched/isolation.h>
#include <linux/slab.h>
#include <linux/sprintf.h>
#include <linux/topology.h>

#include "../engine.h"

MODULE_IMPORT_NS("EXPORTED_FOR_KUNIT_TESTING");

struct policy_parse_case {
	const char *desc;
	const char *buf;
	int want;
};

/* The names are the ABI (Documentation/ABI), so they are spelled out here. */
static const struct policy_parse_case policy_parse_cases[] = {
	{ "numa",			"numa",		IRQ_SPREAD_NUMA },
	{ "numa-core",			"numa-core",	IRQ_SPREAD_NUMA_CORE },
	{ "core",			"core",		IRQ_SPREAD_CORE },
	{ "trailing newline",		"numa-core\n",	IRQ_SPREAD_NUMA_CORE },
	{ "two trailing newlines",	"core\n\n",	-EINVAL },
	{ "empty",			"",		-EINVAL },
	{ "newline only",		"\n",		-EINVAL },
	{ "upper case",			"NUMA",		-EINVAL },
	{ "prefix of a name",		"numa-",	-EINVAL },
	{ "name with suffix",		"cores",	-EINVAL },
	{ "leading space",		" numa",	-EINVAL },
	{ "unknown",			"round-robin",	-EINVAL },
	{ "NULL",			NULL,		-EINVAL },
};

static void policy_parse_case_desc(const struct policy_parse_case *c,
				   char *desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(policy_parse, policy_parse_cases, policy_parse_case_desc);

static void irq_spread_test_policy_parse(struct kunit *test)
{
	const struct policy_parse_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, irq_spread_policy_parse(c->buf), c->want);
}

static void irq_spread_test_policy_name(struct kunit *test)
{
	KUNIT_EXPECT_STREQ(test, irq_spread_policy_name(IRQ_SPREAD_NUMA), "numa");
	KUNIT_EXPECT_STREQ(test, irq_spread_policy_name(IRQ_SPREAD_NUMA_CORE),
			   "numa-core");
	KUNIT_EXPECT_STREQ(test, irq_spread_policy_name(IRQ_SPREAD_CORE), "core");
	KUNIT_EXPECT_NULL(test, irq_spread_policy_name(IRQ_SPREAD_NR_POLICIES));
	KUNIT_EXPECT_NULL(test, irq_spread_policy_name(-1));
}

static void irq_spread_test_policy_round_trip(struct kunit *test)
{
	int p;

	for (p = 0; p < IRQ_SPREAD_NR_POLICIES; p++)
		KUNIT_EXPECT_EQ(test,
				irq_spread_policy_parse(irq_spread_policy_name(p)),
				p);
}

static struct kunit_case irq_spread_test_cases[] = {
	KUNIT_CASE_PARAM(irq_spread_test_policy_parse, policy_parse_gen_params),
	KUNIT_CASE(irq_spread_test_policy_name),
	KUNIT_CASE(irq_spread_test_policy_round_trip),
	{}
};

static struct kunit_suite irq_spread_test_suite = {
	.name = "irq_spread",
	.test_cases = irq_spread_test_cases,
};

static struct cpumask *system_masks(struct kunit *test, unsigned int nvec)
{
	struct cpumask *masks = kunit_kcalloc(test, nvec, sizeof(*masks),
					      GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, masks);
	return masks;
}

/*
 * The CPUs a vector may use, as the documentation defines them: online,
 * housekeeping for managed interrupts and for the tick.  Returns how many.
 */
static unsigned int system_eligible(struct kunit *test, struct cpumask *eligible)
{
	unsigned int slots;

	cpumask_and(eligible, cpu_online_mask,
		    housekeeping_cpumask(HK_TYPE_MANAGED_IRQ));
	cpumask_and(eligible, eligible, housekeeping_cpumask(HK_TYPE_TICK));
	slots = cpumask_weight(eligible);
	KUNIT_ASSERT_GT(test, slots, 0);
	return slots;
}

/* struct cpumask arrays are bitmaps of NR_CPUS bits, back to back. */
#define SYSTEM_STRIDE	(sizeof(struct cpumask) / sizeof(unsigned long))

/* A spread of @nvec vectors of a device on @node, on the running system. */
static int system_cpus(int node, unsigned int nvec, int policy,
		       struct cpumask *masks)
{
	return irq_spread_topo_cpus(&irq_spread_system, node, nvec, policy,
				    NULL, cpumask_bits(masks), SYSTEM_STRIDE);
}

static void system_release(unsigned int nvec, struct cpumask *masks)
{
	irq_spread_topo_release(&irq_spread_system, nvec, cpumask_bits(masks),
				SYSTEM_STRIDE);
}

/* Bad arguments: -EINVAL, and the masks untouched. */
static void irq_spread_test_system_invalid(struct kunit *test)
{
	struct cpumask *masks = system_masks(test, 2);
	struct cpumask *orig = system_masks(test, 2);

	memset(masks, 0x5a, 2 * sizeof(*masks));
	memcpy(orig, masks, 2 * sizeof(*masks));
	KUNIT_EXPECT_EQ(test, system_cpus(NUMA_NO_NODE, 2,
					  IRQ_SPREAD_NR_POLICIES, masks),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, system_cpus(NUMA_NO_NODE, 0, IRQ_SPREAD_NUMA,
					  masks), -EINVAL);
	KUNIT_EXPECT_EQ(test, system_cpus(nr_node_ids, 2, IRQ_SPREAD_NUMA,
					  masks), -EINVAL);
	KUNIT_EXPECT_MEMEQ(test, masks, orig, 2 * sizeof(*masks));
}

/*
 * On whatever machine runs the test: only eligible CPUs, each one taking
 * the floor or the ceiling of its share, for every policy.
 */
static void irq_spread_test_system_spread(struct kunit *test)
{
	unsigned int nvec = 2 * num_online_cpus() + 1, i, cpu, slots;
	struct cpumask *masks = system_masks(test, nvec);
	struct cpumask *eligible = system_masks(test, 1);
	unsigned int *count;
	int p;

	count = kunit_kcalloc(test, nr_cpu_ids, sizeof(*count), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, count);
	slots = system_eligible(test, eligible);

	for (p = 0; p < IRQ_SPREAD_NR_POLICIES; p++) {
		KUNIT_ASSERT_EQ(test, system_cpus(NUMA_NO_NODE, nvec, p, masks), 0);
		memset(count, 0, nr_cpu_ids * sizeof(*count));
		for (i = 0; i < nvec; i++) {
			KUNIT_EXPECT_TRUE(test, cpumask_subset(&masks[i], eligible));
			KUNIT_ASSERT_FALSE(test, cpumask_empty(&masks[i]));
			if (p != IRQ_SPREAD_NUMA_CORE)
				count[cpumask_first(&masks[i])]++;
		}
		system_release(nvec, masks);
		if (p == IRQ_SPREAD_NUMA_CORE)
			continue;
		for_each_cpu(cpu, eligible) {
			KUNIT_EXPECT_GE(test, count[cpu], nvec / slots);
			KUNIT_EXPECT_LE(test, count[cpu], DIV_ROUND_UP(nvec, slots));
		}
	}

	/* Every valid node is a valid device node. */
	KUNIT_EXPECT_EQ(test, system_cpus(0, 1, IRQ_SPREAD_NUMA, masks),
			0);
	system_release(1, masks);
}

/* The vectors' CPU lists, ";" between vectors. */
static const char *system_placement(struct kunit *test,
				    const struct cpumask *masks,
				    unsigned int nvec)
{
	size_t size = nvec * 16 + 1, len = 0;
	unsigned int i;
	char *buf;

	buf = kunit_kzalloc(test, size, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	for (i = 0; i < nvec; i++)
		len += scnprintf(buf + len, size - len, "%s%*pbl", i ? ";" : "",
				 cpumask_pr_args(&masks[i]));
	return buf;
}

/*
 * The NUMA guest of make guest (pipeline/run-guest.sh): 16 CPUs, node n =
 * CPUs 4n..4n+3, SMT siblings 2k and 2k+1, distances 10 local, 12 within a
 * socket (nodes 0-1, 2-3), 32 across.  Anything else: skip.
 */
static bool system_is_test_guest(void)
{
	unsigned int cpu;
	int a, b, want;

	if (nr_cpu_ids != 16 || num_online_cpus() != 16 || nr_node_ids != 4 ||
	    housekeeping_enabled(HK_TYPE_MANAGED_IRQ) ||
	    housekeeping_enabled(HK_TYPE_TICK))
		return false;
	for (cpu = 0; cpu < 16; cpu++) {
		if (cpu_to_node(cpu) != cpu / 4 ||
		    cpumask_weight(topology_sibling_cpumask(cpu)) != 2 ||
		    !cpumask_test_cpu(cpu ^ 1, topology_sibling_cpumask(cpu)))
			return false;
	}
	for (a = 0; a < 4; a++) {
		for (b = 0; b < 4; b++) {
			want = a == b ? 10 : a / 2 == b / 2 ? 12 : 32;
			if (node_distance(a, b) != want)
				return false;
		}
	}
	return true;
}

/* The hop order the guest must give, worked out by hand. */
static void irq_spread_test_system_guest(struct kunit *test)
{
	struct cpumask *masks = system_masks(test, 16);

	if (!system_is_test_guest())
		kunit_skip(test, "not the 16-CPU 4-node SMT2 test guest");

	KUNIT_ASSERT_EQ(test, system_cpus(0, 16, IRQ_SPREAD_NUMA, masks),
			0);
	KUNIT_EXPECT_STREQ(test, system_placement(test, masks, 16),
			   "0;1;2;3;4;5;6;7;8;9;10;11;12;13;14;15");
	system_release(16, masks);

	KUNIT_ASSERT_EQ(test, system_cpus(2, 8, IRQ_SPREAD_CORE, masks),
			0);
	KUNIT_EXPECT_STREQ(test, system_placement(test, masks, 8),
			   "8;10;12;14;0;2;4;6");
	system_release(8, masks);

	KUNIT_ASSERT_EQ(test, system_cpus(3, 4, IRQ_SPREAD_NUMA_CORE, masks), 0);
	/* Node 3's two cores hold two vectors each: a thread each. */
	KUNIT_EXPECT_STREQ(test, system_placement(test, masks, 4),
			   "12;14;13;15");
	system_release(4, masks);
}

/*
 * irq_spread_local_cpu() on the guest, worked out by hand: the first round
 * of a spread on an idle machine, whatever the devices at boot hold.
 */
static void irq_spread_test_system_guest_local_cpu(struct kunit *test)
{
	static const unsigned int numa0[] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
					      11, 12, 13, 14, 15, 0 };
	static const unsigned int core2[] = { 8, 10, 12, 14, 0, 2, 4, 6, 9 };
	static const unsigned int numa_core3[] = { 12, 14, 13, 15, 8, 10, 9 };
	unsigned int i;

	if (!system_is_test_guest())
		kunit_skip(test, "not the 16-CPU 4-node SMT2 test guest");

	for (i = 0; i < ARRAY_SIZE(numa0); i++)
		KUNIT_EXPECT_EQ_MSG(test, irq_spread_local_cpu(i, 0, IRQ_SPREAD_NUMA),
				    numa0[i], "index %u", i);
	for (i = 0; i < ARRAY_SIZE(core2); i++)
		KUNIT_EXPECT_EQ_MSG(test, irq_spread_local_cpu(i, 2, IRQ_SPREAD_CORE),
				    core2[i], "index %u", i);
	for (i = 0; i < ARRAY_SIZE(numa_core3); i++)
		KUNIT_EXPECT_EQ_MSG(test, irq_spread_local_cpu(i, 3,
							       IRQ_SPREAD_NUMA_CORE),
				    numa_core3[i], "index %u", i);
}

/*
 * irq_spread_local_cpu() on whatever machine runs the test: the first
 * round of indices takes every eligible CPU once, under every policy and
 * from every node, then the order starts again.
 */
static void irq_spread_test_system_local_cpu(struct kunit *test)
{
	struct cpumask *eligible = system_masks(test, 1);
	struct cpumask *seen = system_masks(test, 1);
	unsigned int i, cpu, slots;
	int p, node;

	slots = system_eligible(test, eligible);

	for (p = 0; p < IRQ_SPREAD_NR_POLICIES; p++) {
		for (node = NUMA_NO_NODE; node < (int)nr_node_ids; node++) {
			cpumask_clear(seen);
			for (i = 0; i < slots; i++) {
				cpu = irq_spread_local_cpu(i, node, p);
				KUNIT_EXPECT_TRUE_MSG(test, cpumask_test_cpu(cpu, eligible),
						      "policy %d node %d index %u: CPU %u",
						      p, node, i, cpu);
				KUNIT_EXPECT_FALSE_MSG(test, cpumask_test_and_set_cpu(cpu, seen),
						       "policy %d node %d index %u: CPU %u twice",
						       p, node, i, cpu);
			}
			KUNIT_EXPECT_EQ(test, irq_spread_local_cpu(slots, node, p),
					irq_spread_local_cpu(0, node, p));
		}
	}
}

/* Bad arguments: cpumask_local_spread()'s answer, as documented. */
static void irq_spread_test_system_local_cpu_invalid(struct kunit *test)
{
	unsigned int i;

	for (i = 0; i < 2 * num_online_cpus(); i++) {
		KUNIT_EXPECT_EQ(test, irq_spread_local_cpu(i, NUMA_NO_NODE,
							   IRQ_SPREAD_NR_POLICIES),
				cpumask_local_spread(i, NUMA_NO_NODE));
		KUNIT_EXPECT_EQ(test, irq_spread_local_cpu(i, nr_node_ids,
							   IRQ_SPREAD_NUMA),
				cpumask_local_spread(i, NUMA_NO_NODE));
		KUNIT_EXPECT_EQ(test, irq_spread_local_cpu(i, -2, IRQ_SPREAD_NUMA),
				cpumask_local_spread(i, NUMA_NO_NODE));
	}
}

static struct kunit_case irq_spread_system_test_cases[] = {
	KUNIT_CASE(irq_spread_test_system_invalid),
	KUNIT_CASE(irq_spread_test_system_local_cpu),
	KUNIT_CASE(irq_spread_test_system_local_cpu_invalid),
	KUNIT_CASE(irq_spread_test_system_spread),
	KUNIT_CASE(irq_spread_test_system_guest),
	KUNIT_CASE(irq_spread_test_system_guest_local_cpu),
	{}
};

static struct kunit_suite irq_spread_system_test_suite = {
	.name = "irq_spread_system",
	.test_cases = irq_spread_system_test_cases,
};

kunit_test_suites(&irq_spread_test_suite, &irq_spread_system_test_suite);

MODULE_DESCRIPTION("KUnit tests for irq_spread");
MODULE_LICENSE("GPL");
