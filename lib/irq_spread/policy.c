// SPDX-License-Identifier: GPL-2.0
/*
 * irq_spread policy names: the strings user space reads and writes.
 */
#include <linux/array_size.h>
#include <linux/errno.h>
#include <linux/export.h>
#include <linux/irq_spread.h>
#include <linux/sprintf.h>
#include <linux/string.h>

#include <kunit/visibility.h>

#include "engine.h"

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
EXPORT_SYMBOL_IF_KUNIT(irq_spread_policy_name);

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
EXPORT_SYMBOL_IF_KUNIT(irq_spread_policy_parse);

/**
 * irq_spread_policy_list - write every policy name, the active one marked
 * @buf: where to write
 * @size: size of @buf
 * @active: the policy to put in brackets
 *
 * Writes the names in &enum irq_spread_policy order, separated by spaces,
 * @active in brackets, and a newline: ``numa [numa-core] core``, the format
 * of ``/sys/block/<disk>/queue/scheduler``.  Used by every file that shows
 * a policy, so that they all read alike.
 *
 * Return: the number of characters written, without the terminating NUL.
 */
int irq_spread_policy_list(char *buf, size_t size,
			   enum irq_spread_policy active)
{
	enum irq_spread_policy p;
	int len = 0;

	for (p = 0; p < IRQ_SPREAD_NR_POLICIES; p++)
		len += scnprintf(buf + len, size - len,
				 p == active ? "%s[%s]" : "%s%s",
				 p ? " " : "", irq_spread_policy_names[p]);
	len += scnprintf(buf + len, size - len, "\n");
	return len;
}
EXPORT_SYMBOL_IF_KUNIT(irq_spread_policy_list);
