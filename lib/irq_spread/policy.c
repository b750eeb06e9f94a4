// SPDX-License-Identifier: GPL-2.0
/*
 * irq_spread policy names: the strings user space reads and writes.
 */
#include <linux/array_size.h>
#include <linux/errno.h>
#include <linux/export.h>
#include <linux/irq_spread.h>
#include <linux/string.h>

static const char * const irq_spread_policy_names[] = {
	[IRQ_SPREAD_NUMA]	= "numa",
	[IRQ_SPREAD_NUMA_CORE]	= "numa-core",
	[IRQ_SPREAD_CORE]	= "core",
};

static_assert(ARRAY_SIZE(irq_spread_policy_names) == IRQ_SPREAD_NR_POLICIES);

/**
 * irq_spread_policy_name - the user-visible name of a policy
 * @policy: the policy
 *
 * Return: the name, or %NULL if @policy is not a valid policy.
 */
const char *irq_spread_policy_name(enum irq_spread_policy policy)
{
	if ((unsigned int)policy >= IRQ_SPREAD_NR_POLICIES)
		return NULL;
	return irq_spread_policy_names[policy];
}
EXPORT_SYMBOL_GPL(irq_spread_policy_name);

/**
 * irq_spread_policy_parse - look up a policy by name
 * @buf: the name, as written to a sysfs file or given on the command line
 *
 * Matching is exact and case-sensitive; one trailing newline is ignored, as
 * sysfs_streq() does, so that ``echo numa > policy`` works.
 *
 * Return: the policy (an &enum irq_spread_policy), or -EINVAL if @buf is
 * %NULL, empty or names no policy.
 */
int irq_spread_policy_parse(const char *buf)
{
	if (!buf)
		return -EINVAL;
	return sysfs_match_string(irq_spread_policy_names, buf);
}
EXPORT_SYMBOL_GPL(irq_spread_policy_parse);
