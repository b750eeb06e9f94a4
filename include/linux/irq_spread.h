/* SPDX-License-Identifier: GPL-2.0 */
/*
 * irq_spread: place a device's interrupt vectors on CPUs by NUMA distance
 * and physical core, under a named policy.
 */
#ifndef _LINUX_IRQ_SPREAD_H
#define _LINUX_IRQ_SPREAD_H

struct cpumask;

/**
 * enum irq_spread_policy - how a device's vectors are placed on CPUs
 * @IRQ_SPREAD_NUMA: nearest NUMA hop first; every hardware thread is a slot.
 * @IRQ_SPREAD_NUMA_CORE: nearest NUMA hop first; within a hop, one vector per
 *	physical core before any SMT sibling gets one.
 * @IRQ_SPREAD_CORE: one vector per physical core over all hops, nearest hop
 *	first, before any SMT sibling gets one.
 * @IRQ_SPREAD_NR_POLICIES: number of policies; not a policy.
 *
 * The names user space sees ("numa", "numa-core", "core") are given by
 * irq_spread_policy_name().
 */
enum irq_spread_policy {
	IRQ_SPREAD_NUMA,
	IRQ_SPREAD_NUMA_CORE,
	IRQ_SPREAD_CORE,
	IRQ_SPREAD_NR_POLICIES,
};

const char *irq_spread_policy_name(enum irq_spread_policy policy);
int irq_spread_policy_parse(const char *buf);

int irq_spread_cpus(int node, unsigned int nvec, enum irq_spread_policy policy,
		    const struct cpumask *exclude, struct cpumask *masks);
void irq_spread_release(unsigned int nvec, const struct cpumask *masks);
int irq_spread_apply(const unsigned int *irqs, unsigned int nvec,
		     const struct cpumask *masks);
void irq_spread_clear(const unsigned int *irqs, unsigned int nvec);

#endif /* _LINUX_IRQ_SPREAD_H */
