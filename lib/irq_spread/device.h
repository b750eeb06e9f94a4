/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The irq_spread device layer: a registered device, its vectors, and what
 * its files share.  Read device.c's top comment first: it says what each
 * file does and the locking of them all.
 */
#ifndef _LIB_IRQ_SPREAD_DEVICE_H
#define _LIB_IRQ_SPREAD_DEVICE_H

#include <linux/bits.h>
#include <linux/interrupt.h>
#include <linux/irq_spread.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/seqlock.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/workqueue.h>

#include "engine.h"
#include "pool.h"

struct cpumask;
struct cpu_rmap;
struct dentry;
struct device;
struct seq_file;
struct irq_spread_pool;

/**
 * struct irq_spread_vec - one vector of a registered device
 * @sd: its device
 * @index: its device vector number
 * @notify: the interrupt core's affinity notifier, while attached
 * @placer: what the interrupt core asks where the interrupt goes when its
 *	CPU goes offline, while @has_placer
 * @irq: its Linux interrupt, 0 while no interrupt is attached
 * @notified: how many of the interrupt core's affinity notifications the
 *	library handled for the vector since it was attached
 * @notify_due: the library set the interrupt's affinity since the last
 *	notification it handled, whose own notification is yet to come;
 *	with @notified, under @sd->lock and what debugfs ``notifiers``
 *	shows a test, which waits for them rather than for a time
 * @admin: the administrator set the interrupt's affinity (@admin_mask):
 *	no re-spread applies anything to it until a policy is written
 * @has_cpus: the vector has CPUs (@cpus): it is in use
 * @has_placer: the interrupt has @placer: the interrupt core moves it on
 *	CPU hotplug, asking the library where
 * @displaced: CPU hotplug moved the spread vector off @before_hotplug,
 *	where it goes back once every CPU of it is online again
 * @hinted: the interrupt's affinity hint is @hint[@cur]
 * @cur: which of @hint was applied last
 * @pool: the pool whose vector serves this vector of a placement-only
 *	device (irq_spread_dev_pool_get()), or %NULL; written under the
 *	pool's lock and @sd->lock
 * @pool_vector: while @pool, the index of that vector in the pool
 * @pool_link: while @pool, in the pool vector's list in &irq_spread_pool.links
 * @hint: two masks, used in turn: the one applied last, which is the
 *	interrupt's affinity hint, and the next one, so that the hint never
 *	changes under the interrupt core
 * @irq_mask: the interrupt's affinity, as last read from the interrupt core
 *	(irq_spread_vec_placed_at())
 * @admin_mask: the administrator's mask, while @admin
 * @cpus: the vector's CPUs, as irq_spread_dev_vector_mask() gives them: the
 *	administrator's, those of the pool vector that serves it, or those of
 *	the placement; with @has_cpus, written
 *	under &irq_spread_dev.seq (irq_spread_vec_write_begin())
 * @before_hotplug: while @displaced, the spread vector's placement before
 *	CPU hotplug took a CPU of it away
 * @masks: the memory of the masks above
 *
 * The masks are @sd->stride longs each, in @masks.
 */
struct irq_spread_vec {
	struct irq_spread_dev *sd;
	unsigned int index;
	struct irq_affinity_notify notify;
	struct irq_affinity_placer placer;
	unsigned int irq;
	unsigned long notified;
	bool notify_due;
	bool admin;
	bool has_cpus;
	bool has_placer;
	bool displaced;
	bool hinted;
	u8 cur;
	struct irq_spread_pool *pool;
	unsigned int pool_vector;
	struct list_head pool_link;
	unsigned long *hint[2];
	unsigned long *irq_mask;
	unsigned long *admin_mask;
	unsigned long *cpus;
	unsigned long *before_hotplug;
	unsigned long masks[];
};

/**
 * struct irq_spread_vec_undo - a vector's state before a commit, to undo
 *	what the commit did to it
 * @admin: it was the administrator's
 * @hinted: its interrupt had the library's hint
 * @touched: the commit set its interrupt's affinity or hint
 */
struct irq_spread_vec_undo {
	bool admin;
	bool hinted;
	bool touched;
};

/**
 * struct irq_spread_dev - a device registered with irq_spread
 * @list: in &irq_spread_topology.devs of @topo, under its devs_lock
 * @lock: protects the device's state
 * @seq_lock: serialises the writes under @seq, inside @lock
 * @seq: lets irq_spread_dev_vector_mask() and irq_spread_dev_vector_cpu()
 *	read the vectors' @cpus and @has_cpus without @lock
 * @topo: the machine
 * @dev: the device
 * @node: the device's NUMA node, or NUMA_NO_NODE
 * @policy: how the device's vectors are placed
 * @pre: number of reserved vectors before the spread ones
 * @nr: number of spread vectors registered
 * @post: number of reserved vectors after them
 * @nr_active: number of spread vectors in use, the first ones
 * @nr_asked: the number the driver has in use (irq_spread_dev_set_vectors()),
 *	which @nr_active becomes once a placement of that many is applied
 * @going: while the placement without it is committed, the CPU going
 *	offline, whose interrupts the interrupt core moves; else -1
 * @reserved: @pre + @post entries: where each reserved vector goes, as
 *	&irq_spread_dev_info.reserved
 * @ops: the driver's callbacks, or %NULL
 * @priv: for @ops
 * @rmap: the driver's aRFS reverse map, or %NULL
 * @stride: size of every mask of the device, in longs: enough for
 *	@topo->nr_cpus bits and for a struct cpumask
 * @vec: the @pre + @nr + @post vectors, by device vector number
 * @placed: the placement of the @nr spread vectors, the first @nr_active
 *	of them counted in the load of @topo (but for a placement-only
 *	device, %IRQ_SPREAD_DEV_PLACE_ONLY, which is never counted)
 * @staged: where a new placement is made, @nr masks: swapped with @placed
 *	once the new one is applied
 * @eligible: the CPUs a %IRQ_SPREAD_ALL_CPUS vector gets
 * @placed_within: the CPUs its last fresh placement could use: a CPU
 *	coming online that was not among them places the device afresh
 * @exclude: the CPUs the device may not use, the complement of those the
 *	administrator allowed it (irq_spread_dev_set_cpus()), while
 *	@restricted
 * @restricted: the device may use some CPUs only
 * @policy_set: the administrator chose @policy
 * @flags: &irq_spread_dev_info.flags
 * @cdev: the device's class device, which holds its files, or %NULL
 * @scratch: one vector's mask, for the holder of @lock
 * @online: the online CPUs, for the holder of @lock
 * @changed: scratch: the vectors a commit changed, a bitmap of all vectors
 * @pending: the vectors whose change @ops has not been told of yet
 * @report: the mask @work reports, used by @work alone
 * @undo: scratch of irq_spread_dev_commit(), each vector's state before
 *	it, so that a commit allocates nothing
 * @empty: scratch of CPU hotplug: the spread vectors that lost their last
 *	CPU
 * @work: tells @ops->changed() of the vectors in @pending
 * @refused: the interrupt core refused to move a vector as CPU hotplug
 *	placed it: a set of what the device has places it again
 * @dead: unregistering: nothing is applied or reported any more
 *
 * Everything but @topo, @dev, @node, @pre, @nr, @post, @reserved, @ops,
 * @priv, @rmap, @stride, @vec (the array), @flags, @cdev, @report and
 * @work, which do not change while the device is registered, is
 * protected by @lock.
 */
struct irq_spread_dev {
	struct list_head list;
	struct mutex lock;		/* the device's state */
	raw_spinlock_t seq_lock;	/* the writes under @seq */
	seqcount_raw_spinlock_t seq;
	struct irq_spread_topology *topo;
	struct device *dev;
	int node;
	enum irq_spread_policy policy;
	unsigned int pre;
	unsigned int nr;
	unsigned int post;
	unsigned int nr_active;
	unsigned int nr_asked;
	int going;
	int *reserved;
	const struct irq_spread_dev_ops *ops;
	void *priv;
	struct cpu_rmap *rmap;
	size_t stride;
	struct irq_spread_vec **vec;
	unsigned long *placed;
	unsigned long *staged;
	unsigned long *eligible;
	unsigned long *placed_within;
	unsigned long *exclude;
	bool restricted;
	bool policy_set;
	unsigned int flags;
	struct device *cdev;
	unsigned long *scratch;
	unsigned long *online;
	unsigned long *changed;
	unsigned long *pending;
	unsigned long *report;
	struct irq_spread_vec_undo *undo;
	unsigned long *empty;
	struct work_struct work;
	bool refused;
	bool dead;
};

/* device.c: registration and the driver's calls */
struct irq_spread_dev *
irq_spread_dev_topo_register(struct irq_spread_topology *topo,
			     const struct irq_spread_dev_info *info);
struct irq_spread_dev *irq_spread_dev_find(struct irq_spread_topology *topo,
					   const struct device *dev);

/* placement.c: a placement, applied to the interrupts all or nothing */

/*
 * Flags of irq_spread_dev_commit() and irq_spread_dev_respread().
 * IRQ_SPREAD_COMMIT_RESET: hand the administrator's vectors back to the
 * policy, and apply every vector in use, changed or not.
 * IRQ_SPREAD_COMMIT_UNDO: all or nothing: on the first vector the
 * interrupt core refuses, undo the others and fail.  Without it, go on
 * past a refused vector and return the first error.
 */
#define IRQ_SPREAD_COMMIT_RESET	BIT(0)
#define IRQ_SPREAD_COMMIT_UNDO	BIT(1)

int irq_spread_dev_spread(struct irq_spread_dev *sd, unsigned int nvec,
			  enum irq_spread_policy policy, unsigned long *masks,
			  unsigned int flags);
void irq_spread_dev_release(struct irq_spread_dev *sd, unsigned int nvec,
			    const unsigned long *masks);
void irq_spread_dev_load(struct irq_spread_dev *sd, bool with_irq, bool hold);
void irq_spread_vec_load(struct irq_spread_dev *sd,
			 const struct irq_spread_vec *vec, bool hold);
void irq_spread_dev_hold(struct irq_spread_dev *sd, unsigned int nvec,
			 const unsigned long *masks);
void irq_spread_dev_eligible(const struct irq_spread_dev *sd,
			     unsigned long *dst);
bool irq_spread_vec_cpus(const struct irq_spread_dev *sd, unsigned int v,
			 unsigned long *dst);
void irq_spread_vec_write_begin(struct irq_spread_dev *sd,
				unsigned long *flags);
void irq_spread_vec_write_end(struct irq_spread_dev *sd, unsigned long flags);
void irq_spread_vec_refresh(struct irq_spread_dev *sd, unsigned int v,
			    const unsigned long *masks, unsigned int nr_active);
void irq_spread_vec_serve(struct irq_spread_vec *vec,
			  const unsigned long *mask);
void irq_spread_vec_unserve(struct irq_spread_vec *vec);
void irq_spread_dev_report(struct irq_spread_dev *sd,
			   const unsigned long *changed);
void irq_spread_dev_work(struct work_struct *work);
int irq_spread_dev_commit(struct irq_spread_dev *sd, const unsigned long *masks,
			  unsigned int nr_active, unsigned int flags);
void irq_spread_dev_committed(struct irq_spread_dev *sd);
void irq_spread_dev_note_fresh(struct irq_spread_dev *sd);
int irq_spread_dev_respread(struct irq_spread_dev *sd, unsigned int nr_active,
			    enum irq_spread_policy policy, unsigned int flags);

/*
 * irq.c: the interrupt core's functions, behind KUnit static stubs
 * (KUNIT_STATIC_STUB_REDIRECT()), so that KUnit can test the device layer
 * without interrupts (UML has none that take an affinity) and play the
 * administrator; the affinity notifier, and the aRFS map it keeps.
 * irq_spread_irq_place() and irq_spread_irq_placer() are in pool.h, as
 * pools use them too.
 */
int irq_spread_irq_apply(unsigned int irq, const struct cpumask *mask);
bool irq_spread_irq_managed(unsigned int irq);
int irq_spread_irq_affinity(unsigned int irq, const struct cpumask *mask);
void irq_spread_irq_hint(unsigned int irq, const struct cpumask *hint);
int irq_spread_irq_get(unsigned int irq, struct cpumask *dst);
void irq_spread_irq_unplace(unsigned int irq);
int irq_spread_irq_notifier(unsigned int irq,
			    struct irq_affinity_notify *notify);
void irq_spread_vec_notify(struct irq_affinity_notify *notify,
			   const cpumask_t *mask);
void irq_spread_vec_notify_release(struct kref *ref);
const char *irq_spread_vec_notifier(const struct irq_spread_dev *sd,
				    const struct irq_spread_vec *vec);
int irq_spread_vec_set(struct irq_spread_dev *sd, struct irq_spread_vec *vec,
		       const unsigned long *mask, bool placed);
void irq_spread_vec_hint(struct irq_spread_dev *sd, struct irq_spread_vec *vec,
			 const unsigned long *hint);
int irq_spread_vec_watch(struct irq_spread_dev *sd, unsigned int irq,
			 struct irq_affinity_notify *notify);
void irq_spread_vec_unwatch(struct irq_spread_dev *sd, unsigned int irq,
			    bool placer);
int irq_spread_vec_apply(struct irq_spread_dev *sd, struct irq_spread_vec *vec,
			 const unsigned long *mask);
bool irq_spread_vec_placed_at(struct irq_spread_dev *sd,
			      struct irq_spread_vec *vec,
			      const unsigned long *mask);
bool irq_spread_vec_core_moves(struct irq_spread_dev *sd,
			       struct irq_spread_vec *vec);
void irq_spread_vec_rmap(struct irq_spread_dev *sd,
			 const struct irq_spread_vec *vec);

/* device_pool.c: vectors a pool's vectors serve */
void irq_spread_dev_pool_put_all(struct irq_spread_dev *sd);

/* hotplug.c */
void irq_spread_devs_cpu_offline(struct irq_spread_topology *topo,
				 unsigned int cpu);
void irq_spread_devs_cpu_online(struct irq_spread_topology *topo,
				unsigned int cpu);
void irq_spread_devs_cpu_frozen(struct irq_spread_topology *topo,
				unsigned int cpu, bool gone);
void irq_spread_devs_resumed(struct irq_spread_topology *topo);

/* sysfs.c and param.c: the administrator's knobs */
extern const struct attribute_group *irq_spread_dev_groups[];
extern const struct attribute_group *irq_spread_class_groups[];
int irq_spread_dev_class_add(struct irq_spread_dev *sd);
void irq_spread_dev_class_del(struct irq_spread_dev *sd);
int irq_spread_dev_set_cpu_bits(struct irq_spread_dev *sd,
				const unsigned long *cpus);
int irq_spread_irqs_list(struct irq_spread_topology *topo,
			 unsigned int nr_irqs, char *buf, size_t size);
int irq_spread_default_policy_set(struct irq_spread_topology *topo,
				  const char *val, bool booting);

/* debugfs.c */
int irq_spread_devs_show(struct seq_file *m, void *v);

/* Number of vectors of @sd: reserved before, spread, reserved after. */
static inline unsigned int irq_spread_dev_nvec(const struct irq_spread_dev *sd)
{
	return sd->pre + sd->nr + sd->post;
}

/* Whether device vector @v of @sd is a spread one, and which (@k). */
static inline bool irq_spread_dev_spread_index(const struct irq_spread_dev *sd,
					       unsigned int v, unsigned int *k)
{
	if (v < sd->pre || v >= sd->pre + sd->nr)
		return false;
	*k = v - sd->pre;
	return true;
}

/* Whether @sd's caller sets its interrupts and holds their notifiers. */
static inline bool irq_spread_dev_caller_applies(const struct irq_spread_dev *sd)
{
	return sd->ops && sd->ops->apply;
}

/* The CPUs @sd may not use, for the engine's @exclude; %NULL for none. */
static inline const unsigned long *
irq_spread_dev_exclude(const struct irq_spread_dev *sd)
{
	return sd->restricted ? sd->exclude : NULL;
}

#endif /* _LIB_IRQ_SPREAD_DEVICE_H */
