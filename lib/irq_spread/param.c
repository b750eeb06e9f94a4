// SPDX-License-Identifier: GPL-2.0
/*
 * irq_spread system default policy: the policy a device gets when it
 * registers, once the administrator set it with the boot parameter
 * irq_spread.policy= or at run time in
 * /sys/module/irq_spread/parameters/policy; until then each device gets
 * its driver's preferred policy.  Devices already registered keep theirs.
 */
#define pr_fmt(fmt) "irq_spread: " fmt

#include <linux/capability.h>
#include <linux/compiler.h>
#include <linux/export.h>
#include <linux/irq_spread.h>
#include <linux/kernel.h>
#include <linux/moduleparam.h>
#include <linux/printk.h>
#include <linux/string.h>

#include <asm/page.h>

#include <kunit/visibility.h>

#include "device.h"

/* The library is built in: name the parameter after it, not after this file. */
#undef MODULE_PARAM_PREFIX
#define MODULE_PARAM_PREFIX "irq_spread."

/**
 * irq_spread_default_policy - the policy devices get when they register
 *
 * The built-in default is %IRQ_SPREAD_NUMA; the administrator sets another
 * with ``irq_spread.policy=`` on the kernel command line or in
 * ``/sys/module/irq_spread/parameters/policy``.  Once set, it is the
 * policy of every device registered afterwards, whatever its driver
 * prefers (&irq_spread_dev_info.policy); each registered device has its
 * own policy, in its class device's ``policy`` file or a netdev's
 * ``irq_spread/policy``.
 *
 * Context: any.
 * Return: the system default policy.
 */
enum irq_spread_policy irq_spread_default_policy(void)
{
	return READ_ONCE(irq_spread_system.default_policy);
}
EXPORT_SYMBOL_GPL(irq_spread_default_policy);

/* Long enough for any policy name; a longer value is shown cut. */
#define IRQ_SPREAD_BAD_VALUE_LEN	32

/**
 * irq_spread_default_policy_set - set a machine's default policy by name
 * @topo: the machine: irq_spread_system, or one of KUnit's
 * @val: the policy's name; one trailing newline is ignored
 * @booting: @val comes from the kernel command line
 *
 * A bad value at boot is logged and ignored, keeping the default: failing
 * it would make parse_args() drop the arguments meant for init.  A bad value
 * at run time is refused.
 *
 * Context: any; the module parameter's writes are serialised by the
 * kernel_param lock, and the default is read anywhere.
 * Return: 0; or -EINVAL, changing nothing, if @val names no policy and
 * @booting is false.
 */
int irq_spread_default_policy_set(struct irq_spread_topology *topo,
				  const char *val, bool booting)
{
	int policy = irq_spread_policy_parse(val);

	if (policy >= 0) {
		WRITE_ONCE(topo->default_policy, policy);
		WRITE_ONCE(topo->default_policy_set, true);
		return 0;
	}
	if (!booting)
		return policy;
	pr_warn("unknown policy \"%.*s%s\" on the command line, keeping %s\n",
		IRQ_SPREAD_BAD_VALUE_LEN, val ?: "",
		val && strlen(val) > IRQ_SPREAD_BAD_VALUE_LEN ? "..." : "",
		irq_spread_policy_name(READ_ONCE(topo->default_policy)));
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(irq_spread_default_policy_set);

/*
 * Built-in parameters are parsed before the scheduler runs, at boot only;
 * a write at run time needs CAP_NET_ADMIN in the initial user namespace.
 */
static int irq_spread_policy_param_set(const char *val,
				       const struct kernel_param *kp)
{
	bool booting = system_state == SYSTEM_BOOTING;

	if (!booting && !capable(CAP_NET_ADMIN))
		return -EPERM;
	return irq_spread_default_policy_set(&irq_spread_system, val, booting);
}

static int irq_spread_policy_param_get(char *buf, const struct kernel_param *kp)
{
	return irq_spread_policy_list(buf, PAGE_SIZE,
				      irq_spread_default_policy());
}

static const struct kernel_param_ops irq_spread_policy_param_ops = {
	.set	= irq_spread_policy_param_set,
	.get	= irq_spread_policy_param_get,
};

/*
 * No MODULE_PARM_DESC(): its built-in modinfo would name this object's
 * module ("param"), not irq_spread.  The parameter is described in
 * Documentation/admin-guide/kernel-parameters.txt.
 */
module_param_cb(policy, &irq_spread_policy_param_ops, NULL, 0644);
