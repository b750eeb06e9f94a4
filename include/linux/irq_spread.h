/* SPDX-License-Identifier: GPL-2.0 */
/*
 * irq_spread: place a device's interrupt vectors on CPUs by NUMA distance
 * and physical core, under a named policy.
 */
#ifndef _LINUX_IRQ_SPREAD_H
#define _LINUX_IRQ_SPREAD_H

#include <linux/bits.h>
#include <linux/cpumask.h>

struct cpu_rmap;
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
 * @IRQ_SPREAD_KEEP_POLICY: for irq_spread_dev_set(): the device's own
 *	policy, whichever it is; not a policy.
 *
 * The names user space sees ("numa", "numa-core", "core") are given by
 * irq_spread_policy_name().
 */
enum irq_spread_policy {
	IRQ_SPREAD_NUMA,
	IRQ_SPREAD_NUMA_CORE,
	IRQ_SPREAD_CORE,
	IRQ_SPREAD_NR_POLICIES,
	IRQ_SPREAD_KEEP_POLICY = -1,
};

const char *irq_spread_policy_name(enum irq_spread_policy policy);
int irq_spread_policy_parse(const char *buf);
int irq_spread_policy_list(char *buf, size_t size,
			   enum irq_spread_policy active);

#ifdef CONFIG_IRQ_SPREAD
unsigned int irq_spread_local_cpu(unsigned int i, int node,
				  enum irq_spread_policy policy);
#else
/* A driver converted by irq_spread.cocci builds without the library too. */
static inline unsigned int irq_spread_local_cpu(unsigned int i, int node,
						enum irq_spread_policy policy)
{
	return cpumask_local_spread(i, node);
}
#endif

/**
 * IRQ_SPREAD_MAX_VECTORS - the most vectors a registered device may have
 *
 * Reserved and spread vectors together; an aRFS reverse map indexes its
 * objects with 16 bits, and MSI-X has at most 2048 vectors per function.
 */
#define IRQ_SPREAD_MAX_VECTORS	65535

/**
 * IRQ_SPREAD_ALL_CPUS - a reserved vector that goes on every eligible CPU
 *
 * For &irq_spread_dev_info.reserved: the vector's mask is every CPU a
 * vector may use (online, housekeeping, in the default IRQ affinity), as a
 * control or asynchronous event vector that no queue owns.
 */
#define IRQ_SPREAD_ALL_CPUS	(-1)

/**
 * struct irq_spread_dev_ops - what a registered device's driver is told
 * @changed: vector @vector (a device vector number, see
 *	&irq_spread_dev_info) now has the CPUs in @mask: the library placed it
 *	there (a policy write, CPU hotplug, the administrator's vectors handed
 *	back, irq_spread_dev_set_vectors()), or the administrator wrote
 *	``/proc/irq/N/smp_affinity``.  For a driver to keep what follows the
 *	vector in step: its XPS map, its channel's CPU, its ring memory node.
 *	Called in process context from a work item, with no lock of the
 *	library's and not the CPU hotplug lock held: may sleep, may take the
 *	RTNL lock or the driver's own, may call irq_spread_dev_vector_mask()
 *	and irq_spread_dev_vector_cpu(); must not unregister the device.
 *	Calls for one device never run concurrently, and each reports the
 *	vector's mask at the time of the call: several changes in a row may
 *	be reported once, with the last mask.  @mask is valid only during the
 *	call.
 * @apply: for a caller that keeps the masks of the device's interrupts
 *	itself and holds their affinity notifiers, as net core does for the
 *	IRQs of NAPIs (&napi_config.affinity_mask): set the affinity of
 *	vector @vector's interrupt @irq to @mask, as the library would: with
 *	irq_set_affinity_placed(@irq, @mask, 0) if @placed, else (the
 *	administrator's mask, given back) irq_set_affinity(); return 0 or
 *	the interrupt core's error.
 *	With it the library sets no affinity hint and installs no affinity
 *	notifier on an attached interrupt: the caller passes each
 *	notification of its own notifier to irq_spread_dev_notify().  Called
 *	with the device's lock held, in process context: must not call into
 *	the library, nor take a lock held around calls into it.  %NULL for
 *	the library to set the affinity and hint, and hold the notifier.
 */
struct irq_spread_dev_ops {
	void (*changed)(void *priv, unsigned int vector,
			const struct cpumask *mask);
	int (*apply)(void *priv, unsigned int vector, unsigned int irq,
		     const struct cpumask *mask, bool placed);
};

/**
 * IRQ_SPREAD_DEV_NO_CLASS - the caller shows the device's knobs itself
 *
 * For &irq_spread_dev_info.flags.  Without it, a registration gets a class
 * device, ``/sys/class/irq_spread/<bus>:<device>``, whose files set the
 * policy and the CPUs the device may use, and what the administrator set
 * there (and in ``/proc/irq/N/smp_affinity``) is kept on @dev from one
 * registration to the next, until the driver is unbound.  With it, the
 * caller offers the administrator irq_spread_dev_set_policy() and
 * irq_spread_dev_set_cpus() itself and keeps the registration for as long
 * as that state should last: net core does so for a netdev.
 */
#define IRQ_SPREAD_DEV_NO_CLASS	BIT(0)

/**
 * IRQ_SPREAD_DEV_PLACE_ONLY - a device whose vectors a pool serves
 *
 * For &irq_spread_dev_info.flags.  The registration places its vectors
 * (distinct CPUs under its policy, on the load of every other device) but
 * is never counted in the per-CPU load, has no class device (no knob that
 * would move nothing) and attaches no interrupt: a pool's vectors serve it
 * (irq_spread_dev_pool_get()), and those are counted.  Before a pool
 * vector serves one of its vectors, the vector's placement answers
 * irq_spread_dev_vector_mask(); after, the pool vector's CPUs.  For a
 * sub-function whose queues take interrupts of its parent's pool, as
 * mlx5's SFs do.  Implies %IRQ_SPREAD_DEV_NO_CLASS; takes no @rmap.
 */
#define IRQ_SPREAD_DEV_PLACE_ONLY	BIT(1)

/**
 * struct irq_spread_dev_info - a device to register with irq_spread
 * @dev: the device, added already (device_add()): the parent of the
 *	registration's class device
 * @node: the device's NUMA node (dev_to_node()), or NUMA_NO_NODE
 * @nr_vectors: number of spread vectors: the vectors of the device's
 *	queues, which the policy places; at least 1
 * @pre_vectors: number of reserved vectors before the spread ones
 * @post_vectors: number of reserved vectors after the spread ones
 * @reserved: for each reserved vector, the @pre_vectors ones first, then
 *	the @post_vectors ones: the index, among the spread vectors, of the
 *	spread vector whose CPUs it shares (0 for the first spread vector),
 *	or %IRQ_SPREAD_ALL_CPUS; %NULL for %IRQ_SPREAD_ALL_CPUS for all
 * @policy: the driver's preferred policy; the device gets the system
 *	default instead if the administrator set one (irq_spread.policy=,
 *	/sys/module/irq_spread/parameters/policy)
 * @ops: the driver's callbacks, or %NULL
 * @priv: for @ops
 * @flags: %IRQ_SPREAD_DEV_NO_CLASS, %IRQ_SPREAD_DEV_PLACE_ONLY, or 0
 * @rmap: the aRFS reverse map of the device's RX queues
 *	(&net_device.rx_cpu_rmap), or %NULL: index k is spread vector k.
 *	The library updates it as irq_cpu_rmap_add()'s notifier would:
 *	cpu_rmap_update() of a spread vector in use with an interrupt, when
 *	the interrupt is attached and whenever the vector moves.  CPUs of
 *	nodes without such a vector keep the index alloc_cpu_rmap() gave
 *	them; a detached vector keeps its CPUs.  Allocate it
 *	with alloc_cpu_rmap() and free it with cpu_rmap_put() after
 *	irq_spread_dev_unregister(), not with alloc_irq_cpu_rmap() and
 *	irq_cpu_rmap_add(): an interrupt has a single affinity notifier, and
 *	the library's updates the map.  Room for @nr_vectors indexes; the
 *	library adds no object to it.
 *
 * Device vector numbers, used by every call, are 0 to @pre_vectors - 1 for
 * the reserved vectors before, @pre_vectors to @pre_vectors + @nr_vectors
 * - 1 for the spread ones, then the reserved vectors after.  A reserved
 * vector is never counted in the per-CPU load, so one that shares a
 * spread vector's CPUs does not push other vectors away twice.
 */
struct irq_spread_dev_info {
	struct device *dev;
	int node;
	unsigned int nr_vectors;
	unsigned int pre_vectors;
	unsigned int post_vectors;
	const int *reserved;
	enum irq_spread_policy policy;
	const struct irq_spread_dev_ops *ops;
	void *priv;
	unsigned int flags;
	struct cpu_rmap *rmap;
};

struct irq_spread_dev *irq_spread_dev_register(const struct irq_spread_dev_info *info);
void irq_spread_dev_unregister(struct irq_spread_dev *sd);
int irq_spread_dev_attach(struct irq_spread_dev *sd, unsigned int vector,
			  unsigned int irq);
void irq_spread_dev_detach(struct irq_spread_dev *sd, unsigned int vector);
void irq_spread_dev_notify(struct irq_spread_dev *sd, unsigned int vector,
			   const struct cpumask *mask);
int irq_spread_dev_vector_mask(struct irq_spread_dev *sd, unsigned int vector,
			       struct cpumask *mask);
int irq_spread_dev_vector_cpu(struct irq_spread_dev *sd, unsigned int vector);
int irq_spread_dev_set_vectors(struct irq_spread_dev *sd, unsigned int nvec);
bool irq_spread_dev_vector_admin(struct irq_spread_dev *sd,
				 unsigned int vector);
int irq_spread_dev_vector_to_policy(struct irq_spread_dev *sd,
				    unsigned int vector);
int irq_spread_dev_set_policy(struct irq_spread_dev *sd,
			      enum irq_spread_policy policy);
int irq_spread_dev_set(struct irq_spread_dev *sd, enum irq_spread_policy policy,
		       const struct cpumask *cpus);
enum irq_spread_policy irq_spread_dev_policy(struct irq_spread_dev *sd);
int irq_spread_dev_set_cpus(struct irq_spread_dev *sd,
			    const struct cpumask *cpus);
void irq_spread_dev_cpus(struct irq_spread_dev *sd, struct cpumask *cpus);
enum irq_spread_policy irq_spread_default_policy(void);

/**
 * struct irq_spread_pool_ops - how a pool has its driver set vectors up
 * @request: make vector @vector of the device ready for use (allocate and
 *	request the interrupt, ...), and return its Linux interrupt number,
 *	or a negative errno.  @mask, the CPUs the pool places it on, is valid
 *	during the call only (for an allocation near them): the pool sets the
 *	interrupt's affinity itself once @request returns, and again
 *	whenever it moves the vector (its owner's policy or CPUs written),
 *	and installs its placer on the interrupt (irq_set_affinity_placer(),
 *	for CPU hotplug), so the driver sets neither the affinity, a hint nor
 *	a placer.  Called with the pool lock held: may sleep, must not call
 *	back into the pool.
 * @release: undo @request for vector @vector, whose Linux interrupt number
 *	@request returned as @irq; the pool removed its placer, so @release
 *	may free_irq().  Called with the pool lock held when the vector's last
 *	user puts it (or the pool is destroyed): may sleep, must not call back
 *	into the pool, cannot fail.
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
 * @policy: how new vectors are placed within the CPUs a consumer asks for,
 *	if the pool has no @owner
 * @owner: the registered device the pool's vectors belong to (a PF whose
 *	SFs share them), or %NULL: the pool places its vectors under the
 *	owner's policy, within the CPUs the owner may use, and places every
 *	requested vector afresh when the administrator writes either.  The
 *	owner may be unregistered before the pool is destroyed: the pool then
 *	keeps the owner's last policy and CPUs.
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
	struct irq_spread_dev *owner;
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
int irq_spread_pool_put(struct irq_spread_pool *pool, unsigned int vector);
int irq_spread_dev_pool_get(struct irq_spread_dev *sd, unsigned int vector,
			    struct irq_spread_pool *pool);
int irq_spread_dev_pool_put(struct irq_spread_dev *sd, unsigned int vector);

#endif /* _LINUX_IRQ_SPREAD_H */
