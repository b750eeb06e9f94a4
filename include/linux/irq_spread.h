/* SPDX-License-Identifier: GPL-2.0 */
/*
 * irq_spread: place a device's interrupt vectors on CPUs by NUMA distance
 * and physical core, under a named policy.
 */
#ifndef _LINUX_IRQ_SPREAD_H
#define _LINUX_IRQ_SPREAD_H

struct cpumask;
struct device;
struct irq_spread_dev;
struct irq_spread_pool;

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

struct irq_spread_dev *irq_spread_dev_register(struct device *dev, int node,
					       const unsigned int *irqs,
					       unsigned int nvec);
void irq_spread_dev_unregister(struct irq_spread_dev *sd);
int irq_spread_dev_set_vectors(struct irq_spread_dev *sd, unsigned int nvec);
enum irq_spread_policy irq_spread_default_policy(void);

/**
 * struct irq_spread_pool_ops - how a pool has its driver set vectors up
 * @request: make vector @vector of the device ready for use on the CPUs in
 *	@mask (allocate and request the interrupt, set its affinity, ...), and
 *	return its Linux interrupt number, or a negative errno.  @mask stays
 *	valid and unchanged until @release returns, so it may be used as the
 *	affinity hint.  Called with the pool lock held: may sleep, must not
 *	call back into the pool.
 * @release: undo @request for vector @vector, whose Linux interrupt number
 *	@request returned as @irq.  Called with the pool lock held when the
 *	vector's last user puts it (or the pool is destroyed): may sleep, must
 *	not call back into the pool, cannot fail.
 *
 * @priv is &irq_spread_pool_info.priv.  The pool never programs hardware
 * itself: everything device-specific happens in these callbacks.
 */
struct irq_spread_pool_ops {
	int (*request)(void *priv, unsigned int vector,
		       const struct cpumask *mask);
	void (*release)(void *priv, unsigned int vector, unsigned int irq);
};

/**
 * struct irq_spread_pool_info - what a pool is made of
 * @name: the pool's name, unique among pools: the name of its debugfs file
 *	(copied)
 * @node: the device's NUMA node (dev_to_node()), or NUMA_NO_NODE
 * @policy: how new vectors are placed within the CPUs a consumer asks for
 * @first_vector: the device's first vector that the pool owns
 * @nr_vectors: number of vectors the pool owns, from @first_vector on
 * @max_users: at most this many users per vector; 0 for no bound other than
 *	the pool's balance (see irq_spread_pool_get())
 * @ops: the driver's callbacks
 * @priv: passed to @ops
 */
struct irq_spread_pool_info {
	const char *name;
	int node;
	enum irq_spread_policy policy;
	unsigned int first_vector;
	unsigned int nr_vectors;
	unsigned int max_users;
	const struct irq_spread_pool_ops *ops;
	void *priv;
};

struct irq_spread_pool *irq_spread_pool_create(const struct irq_spread_pool_info *info);
void irq_spread_pool_destroy(struct irq_spread_pool *pool);
int irq_spread_pool_get(struct irq_spread_pool *pool,
			const struct cpumask *mask);
int irq_spread_pool_get_cpu(struct irq_spread_pool *pool, unsigned int cpu);
int irq_spread_pool_put(struct irq_spread_pool *pool, unsigned int vector);
int irq_spread_pool_irq(struct irq_spread_pool *pool, unsigned int vector);

#endif /* _LINUX_IRQ_SPREAD_H */
