// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for irq_spread.
 */
#include <kunit/test.h>
#include <linux/irq_spread.h>

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

kunit_test_suite(irq_spread_test_suite);

MODULE_DESCRIPTION("KUnit tests for irq_spread");
MODULE_LICENSE("GPL");
