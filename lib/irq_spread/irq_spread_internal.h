/* SPDX-License-Identifier: GPL-2.0 */
/*
 * irq_spread internals: the abstract topology the engine works on, so that
 * KUnit can inject any machine, and the engine entry points.
 *
 * Everything here works on plain bitmaps of topo->nr_cpus bits rather than
 * on struct cpumask: cpumask operations stop at nr_cpu_ids, which is 1 under
 * UML, where an injected 256-CPU machine must still fit.  The system topology
 * uses nr_cpus == nr_cpu_ids, so its bitmaps are cpumask_bits().
 */
#ifndef _LIB_IRQ_SPREAD_INTERNAL_H
#define _LIB_IRQ_SPREAD_INTERNAL_H

#include <linux/bits.h>
#include <linux/interrupt.h>
#include <linux/irq_spread.h>
#include <linux/limits.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/seqlock.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/workqueue.h>

struct cpumask;
struct cpu_rmap;
struct dentry;
struct device;
struct seq_file;
struct irq_spread_topology;
struct irq_spread_order;
struct irq_spread_query;

/*
 * Firmware distances are one byte (ACPI SLIT), so no machine has more
 * distinct hops than this; it bounds the hops a spread or a pool counts.
 */
#define IRQ_SPREAD_MAX_HOPS	256

/**
 * struct irq_spread_topology_ops - what the engine asks of a machine
 * @distance: the distance from node @from to node @to, as node_distance().
 *	The hops of a node follow from it (see irq_spread_hop_by_distance()).
 * @node_cpus: the CPUs of @node, a bitmap of nr_cpus bits, or %NULL if the
 *	node has none.
 * @sibling_cpus: the SMT siblings of @cpu, @cpu included, as a bitmap of
 *	nr_cpus bits that stays valid for the duration of a spread.  Sibling
 *	masks change only when the online CPUs do: the engine links each
 *	core's threads again then, and only then.
 * @eligible_cpus: write to @dst the CPUs that may take an interrupt: online
 *	and housekeeping for managed interrupts and for the tick.
 * @online_cpus: write to @dst the online CPUs, the fallback when no CPU is
 *	eligible.
 * @cpu_node: the NUMA node of @cpu, or NUMA_NO_NODE.  Only pools ask for it
 *	(to find the nodes near a consumer's CPUs); the engine does not.
 *
 * None of these may sleep.
 */
struct irq_spread_topology_ops {
	int (*distance)(const struct irq_spread_topology *topo, int from,
			int to);
	const unsigned long *(*node_cpus)(const struct irq_spread_topology *topo,
					  int node);
	const unsigned long *(*sibling_cpus)(const struct irq_spread_topology *topo,
					     unsigned int cpu);
	void (*eligible_cpus)(const struct irq_spread_topology *topo,
			      unsigned long *dst);
	void (*online_cpus)(const struct irq_spread_topology *topo,
			    unsigned long *dst);
	int (*cpu_node)(const struct irq_spread_topology *topo,
			unsigned int cpu);
};

/**
 * struct irq_spread_topology - a machine, and the vectors placed on it
 * @ops: how to read the machine
 * @nr_cpus: number of CPUs, the width of every bitmap the engine handles
 * @nr_nodes: number of NUMA nodes; valid device nodes are 0..@nr_nodes - 1
 * @priv: for @ops
 * @lock: serialises spreads and releases on this topology; protects @load
 * @load: per CPU, the number of placed vectors whose mask holds that CPU;
 *	allocated by the first spread, @nr_cpus entries
 * @held: the sum of @load: while it is 0, a spread orders the CPUs as on
 *	an idle machine, and stops within a tier
 * @leaving: CPUs on their way offline, which no spread uses although
 *	@ops still reports them online; %NULL for none.  Set and cleared by
 *	the device layer's CPU hotplug callbacks with atomic bit operations.
 * @order: scratch space of spreads, under @lock
 * @query_lock: protects @query; a raw spinlock, so that a query may be
 *	made from any context
 * @query: irq_spread_topo_nth_cpu()'s cache of orders, and its scratch
 *	space
 *
 * Each topology counts its own load, so that KUnit cases do not see each
 * other's vectors; the system has a single instance.  Lock order: @lock,
 * then @query_lock (never both taken by the engine).
 */
struct irq_spread_topology {
	const struct irq_spread_topology_ops *ops;
	unsigned int nr_cpus;
	unsigned int nr_nodes;
	void *priv;
	struct mutex lock;	/* serialises spreads, protects @load */
	unsigned int *load;
	unsigned long held;
	unsigned long *leaving;
	struct irq_spread_order *order;
	raw_spinlock_t query_lock;	/* protects @query */
	struct irq_spread_query *query;
};

int irq_spread_topology_init(struct irq_spread_topology *topo,
			     const struct irq_spread_topology_ops *ops,
			     unsigned int nr_cpus, unsigned int nr_nodes,
			     void *priv);
int irq_spread_topology_alloc(struct irq_spread_topology *topo);
void irq_spread_topology_destroy(struct irq_spread_topology *topo);

/*
 * Flags of irq_spread_topo_spread().  IRQ_SPREAD_SLOT_ONLY: every vector
 * gets its slot's CPU alone, even a numa-core vector that would get its
 * whole core.  IRQ_SPREAD_NO_HOLD: the placement is made on the load but
 * not counted in it, as for a placement-only device's vectors.
 */
#define IRQ_SPREAD_SLOT_ONLY	BIT(0)
#define IRQ_SPREAD_NO_HOLD	BIT(1)

int irq_spread_topo_spread(struct irq_spread_topology *topo, int node,
			   unsigned int nvec, enum irq_spread_policy policy,
			   const unsigned long *exclude, unsigned long *masks,
			   size_t stride, unsigned int flags);
int irq_spread_topo_nth_cpu(struct irq_spread_topology *topo, int node,
			    unsigned int index, enum irq_spread_policy policy);
int irq_spread_topo_cpus(struct irq_spread_topology *topo, int node,
			 unsigned int nvec, enum irq_spread_policy policy,
			 const unsigned long *exclude, unsigned long *masks,
			 size_t stride);
void irq_spread_topo_eligible(const struct irq_spread_topology *topo,
			      unsigned long *dst);
void irq_spread_topo_release(struct irq_spread_topology *topo,
			     unsigned int nvec, const unsigned long *masks,
			     size_t stride);
void irq_spread_topo_hold(struct irq_spread_topology *topo, unsigned int nvec,
			  const unsigned long *masks, size_t stride);

/**
 * struct irq_spread_nodes - a machine described by node distances
 * @nr_nodes: number of nodes
 * @distance: distance from node @from to node @to, as node_distance()
 * @node_cpus: the CPUs of @node, or %NULL if it has none
 * @priv: for the callbacks
 */
struct irq_spread_nodes {
	unsigned int nr_nodes;
	int (*distance)(const void *priv, int from, int to);
	const unsigned long *(*node_cpus)(const void *priv, int node);
	const void *priv;
};

extern struct irq_spread_topology irq_spread_system;

bool irq_spread_hop_by_distance(const struct irq_spread_nodes *nodes,
				int node, unsigned int hop, unsigned long *dst,
				unsigned int nr_cpus);

/**
 * struct irq_spread_pool_vec - one vector of a pool
 * @users: number of consumers holding the vector; 0 if it is not requested
 * @next: while requested, the next vector in the list of the vectors of
 *	its first CPU (&irq_spread_pool.by_first), or IRQ_SPREAD_POOL_NONE
 * @first: while requested, the first CPU of its mask
 * @last: while requested, the last CPU of its mask
 * @node: while requested, the node all its CPUs are on, or -1 if they are
 *	not all on one node
 * @prev: the vector before it in that list, or IRQ_SPREAD_POOL_NONE
 * @buckets: while requested and all on @node, its word of @node's
 *	bucket 0 in &irq_spread_pool.buckets; its word of bucket k follows
 *	k longs on
 * @irq: its Linux interrupt number, as the request callback returned it
 * @displaced: CPU hotplug moved it off its home mask, where it goes back
 *	once every CPU of it is online again
 *
 * The fields a get reads for each vector it looks at come first; the
 * vectors of placement-only devices it serves are in &irq_spread_pool.links,
 * away from the fields gets and puts read.
 */
struct irq_spread_pool_vec {
	unsigned int users;
	unsigned int next;
	unsigned int first;
	unsigned int last;
	int node;
	unsigned int prev;
	unsigned long *buckets;
	unsigned int irq;
	bool displaced;
};

/* No vector: the end of a list of &irq_spread_pool.by_first. */
#define IRQ_SPREAD_POOL_NONE	UINT_MAX

/**
 * struct irq_spread_pool_list - the requested vectors whose first CPU is one CPU
 * @head: the lowest numbered, or IRQ_SPREAD_POOL_NONE; the list runs up
 *	the vector numbers, through &irq_spread_pool_vec.next
 * @start: a vector of the list, or IRQ_SPREAD_POOL_NONE: every vector
 *	before it in the list has more than @least users
 * @least: no vector of the list has fewer users, unless a put came since
 *	@least was found
 * @seen: &irq_spread_pool.puts when @least was found
 *
 * A get walks the list from @start: the first vector it may take that has
 * @least users is the list's answer, as none before it has as few and
 * none after it is numbered lower.  A put does not touch the lists: after
 * one (@seen is not &irq_spread_pool.puts), or if the walk from @start
 * finds no such vector, the get walks the whole list, and sets @least,
 * @start and @seen anew.
 */
struct irq_spread_pool_list {
	unsigned int head;
	unsigned int start;
	unsigned int least;
	unsigned int seen;
};

/*
 * User counts a pool tells apart in O(1): vectors with more users share
 * the last bucket, and are compared one by one.
 */
#define IRQ_SPREAD_POOL_BUCKETS	32

/**
 * struct irq_spread_pool - vectors of one device, shared by its consumers
 * @list: in irq_spread_pools, under irq_spread_pools_lock
 * @topo: the machine
 * @info: as given at creation; @info.name is a copy
 * @owner: the registration whose policy and CPUs the pool follows
 *	(&irq_spread_pool_info.owner), or %NULL; written under
 *	irq_spread_pools_lock and @lock
 * @policy: the policy new and re-placed vectors are placed under: the
 *	owner's, else @info.policy
 * @restricted: @exclude holds the CPUs the owner may not use
 * @stride: distance between two masks in @masks, in longs: enough for
 *	@topo->nr_cpus bits and for a struct cpumask
 * @lock: serialises gets, puts, moves and the driver's callbacks; protects
 *	the fields below, @policy and @restricted
 * @users: users of all vectors
 * @nr_requested: number of requested vectors
 * @vec: the @info.nr_vectors vectors
 * @links: per vector, the vectors of placement-only devices it serves
 *	(&irq_spread_vec.pool_link)
 * @masks: the vectors' CPUs: vector i's is the bitmap at @masks + i * @stride,
 *	empty while it is not requested
 * @homes: while a vector is displaced, its mask before CPU hotplug moved it,
 *	laid out as @masks
 * @exclude: see @restricted
 * @want: scratch: the CPUs a consumer excludes
 * @asked: scratch: the CPUs a placement-only device's vector asks for
 * @near: scratch: the CPUs near the consumer's, at one nearness level
 * @hop: scratch: one hop mask
 * @nodes: scratch: the nodes of the consumer's CPUs, @topo->nr_nodes bits
 * @skip: scratch: the vectors a consumer holds already, @info.nr_vectors
 *	bits
 * @level: scratch: the nodes of one NUMA hop level, @topo->nr_nodes bits
 * @free: the vectors not requested, @info.nr_vectors bits
 * @puts: puts since the pool was created, never 0 again once it wraps;
 *	apart from @users, which a put changes with it: two counters side by
 *	side are updated as one vector, which costs a put more
 * @by_first: per CPU, the list of the requested vectors whose first CPU
 *	it is
 * @firsts: the CPUs whose list in @by_first is not empty
 * @spanning: the requested vectors whose CPUs are on more than one node
 * @nr_spanning: how many there are
 * @words: longs in a bitmap of @info.nr_vectors bits
 * @buckets: per node, per user count k from 0 to IRQ_SPREAD_POOL_BUCKETS,
 *	the bitmap of the requested vectors all on the node with k users (the
 *	last, with k or more), @words longs; word w of bucket k of node n is
 *	at (n * @words + w) * (IRQ_SPREAD_POOL_BUCKETS + 1) + k
 * @least: per node, a user count below which its buckets are empty
 * @hop_limit: scratch: per node of @nodes, the distance of the NUMA hop
 *	level step 3 of a get is at
 * @debugfs: the pool's debugfs file
 *
 * Lock order: irq_spread_pools_lock, @lock, then the lock of a device
 * (its owner's, or a device whose vectors it serves), then the topology's.
 */
struct irq_spread_pool {
	struct list_head list;
	struct irq_spread_topology *topo;
	struct irq_spread_pool_info info;
	struct irq_spread_dev *owner;
	enum irq_spread_policy policy;
	bool restricted;
	size_t stride;
	struct mutex lock;	/* gets, puts, moves and callbacks */
	unsigned int users;
	unsigned int nr_requested;
	struct irq_spread_pool_vec *vec;
	struct list_head *links;
	unsigned long *masks;
	unsigned long *homes;
	unsigned long *exclude;
	unsigned long *want;
	unsigned long *asked;
	unsigned long *near;
	unsigned long *hop;
	unsigned long *nodes;
	unsigned long *skip;
	unsigned long *level;
	unsigned long *free;
	unsigned int puts;
	struct irq_spread_pool_list *by_first;
	unsigned long *firsts;
	unsigned long *spanning;
	unsigned int nr_spanning;
	unsigned int words;
	unsigned long *buckets;
	unsigned int *least;
	int *hop_limit;
	struct dentry *debugfs;
};

extern struct mutex irq_spread_pools_lock;
extern struct list_head irq_spread_pools;

struct irq_spread_pool *
irq_spread_pool_topo_create(struct irq_spread_topology *topo,
			    const struct irq_spread_pool_info *info);
int irq_spread_pool_topo_get(struct irq_spread_pool *pool,
			     const unsigned long *cpus);
int irq_spread_pool_show(struct seq_file *m, void *v);
void irq_spread_pools_irqs(const struct irq_spread_topology *topo,
			   unsigned long *irqs, unsigned int nr_irqs);
void irq_spread_pools_cpu_offline(struct irq_spread_topology *topo,
				  unsigned int cpu);
void irq_spread_pools_cpu_online(struct irq_spread_topology *topo,
				 unsigned int cpu);
void irq_spread_pools_follow(struct irq_spread_dev *owner);
void irq_spread_pools_dev_gone(struct irq_spread_dev *sd);

/*
 * How registered devices reach their interrupts: the interrupt core's
 * functions, behind KUnit static stubs (KUNIT_STATIC_STUB_REDIRECT()), so
 * that KUnit can test the device layer without interrupts (UML has none
 * that take an affinity) and play the administrator.  Called with the
 * device's lock held, but for irq_spread_irq_notifier().
 */
int irq_spread_irq_apply(unsigned int irq, const struct cpumask *mask);
int irq_spread_irq_affinity(unsigned int irq, const struct cpumask *mask);
void irq_spread_irq_hint(unsigned int irq, const struct cpumask *hint);
bool irq_spread_irq_get(unsigned int irq, struct cpumask *dst);
int irq_spread_irq_notifier(unsigned int irq,
			    struct irq_affinity_notify *notify);

/**
 * struct irq_spread_vec - one vector of a registered device
 * @sd: its device
 * @index: its device vector number
 * @notify: the interrupt core's affinity notifier, while attached
 * @irq: its Linux interrupt, 0 while no interrupt is attached
 * @admin: the administrator set the interrupt's affinity (@admin_mask):
 *	no re-spread applies anything to it until a policy is written
 * @has_now: the vector has CPUs (@now): it is in use
 * @displaced: CPU hotplug moved the spread vector off @home, where it goes
 *	back once every CPU of @home is online again
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
 * @seen: the affinity the library set last, or the one a failed apply
 *	left: a notification of any other mask is the administrator's
 * @admin_mask: the administrator's mask, while @admin
 * @now: the vector's CPUs, as irq_spread_dev_vector_mask() gives them: the
 *	administrator's, those of the pool vector that serves it, or those of
 *	the placement; with @has_now, written
 *	under &irq_spread_dev.seq (irq_spread_vec_write_begin())
 * @home: while @displaced, the spread vector's placement before CPU hotplug
 *	took a CPU of it away
 * @masks: the memory of the masks above
 *
 * The masks are @sd->stride longs each, in @masks.
 */
struct irq_spread_vec {
	struct irq_spread_dev *sd;
	unsigned int index;
	struct irq_affinity_notify notify;
	unsigned int irq;
	bool admin;
	bool has_now;
	bool displaced;
	bool hinted;
	u8 cur;
	struct irq_spread_pool *pool;
	unsigned int pool_vector;
	struct list_head pool_link;
	unsigned long *hint[2];
	unsigned long *seen;
	unsigned long *admin_mask;
	unsigned long *now;
	unsigned long *home;
	unsigned long masks[];
};

/**
 * struct irq_spread_dev - a device registered with irq_spread
 * @list: in the list of registered devices, under irq_spread_devs_lock
 * @lock: protects the device's state
 * @seq_lock: serialises the writes under @seq, inside @lock
 * @seq: lets irq_spread_dev_vector_mask() and irq_spread_dev_vector_cpu()
 *	read the vectors' @now and @has_now without @lock
 * @topo: the machine
 * @dev: the device
 * @node: the device's NUMA node, or NUMA_NO_NODE
 * @policy: how the device's vectors are placed
 * @pre: number of reserved vectors before the spread ones
 * @nr: number of spread vectors registered
 * @post: number of reserved vectors after them
 * @nr_active: number of spread vectors in use, the first ones
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
 * @spare: where the next placement is made, @nr masks
 * @eligible: the CPUs a %IRQ_SPREAD_ALL_CPUS vector gets
 * @usable: the CPUs its last fresh placement could use: a CPU coming
 *	online that was not among them places the device afresh
 * @exclude: the CPUs the device may not use, the complement of those the
 *	administrator allowed it (irq_spread_dev_set_cpus()), while
 *	@restricted
 * @restricted: the device may use some CPUs only
 * @policy_set: the administrator chose @policy
 * @flags: &irq_spread_dev_info.flags
 * @cdev: the device's class device, which holds its files, or %NULL
 * @want: scratch: one vector's mask
 * @changed: scratch: the vectors a commit changed, a bitmap of all vectors
 * @pending: the vectors whose change @ops has not been told of yet
 * @report: the mask @work reports, used by @work alone
 * @work: tells @ops->changed() of the vectors in @pending
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
	int *reserved;
	const struct irq_spread_dev_ops *ops;
	void *priv;
	struct cpu_rmap *rmap;
	size_t stride;
	struct irq_spread_vec **vec;
	unsigned long *placed;
	unsigned long *spare;
	unsigned long *eligible;
	unsigned long *usable;
	unsigned long *exclude;
	bool restricted;
	bool policy_set;
	unsigned int flags;
	struct device *cdev;
	unsigned long *want;
	unsigned long *changed;
	unsigned long *pending;
	unsigned long *report;
	struct work_struct work;
	bool dead;
};

extern struct mutex irq_spread_devs_lock;
extern struct list_head irq_spread_devs;
extern const struct attribute_group *irq_spread_dev_groups[];
extern const struct attribute_group *irq_spread_class_groups[];
extern struct dentry *irq_spread_pool_dir;

int irq_spread_dev_class_add(struct irq_spread_dev *sd);
void irq_spread_dev_class_del(struct irq_spread_dev *sd);

int irq_spread_default_policy_set(const char *val, bool booting);
bool irq_spread_default_policy_is_set(void);
void irq_spread_default_policy_restore(enum irq_spread_policy policy,
				       bool set);

struct irq_spread_dev *
irq_spread_dev_topo_register(struct irq_spread_topology *topo,
			     const struct irq_spread_dev_info *info);
struct irq_spread_dev *irq_spread_dev_find(const struct device *dev);
void irq_spread_dev_eligible(const struct irq_spread_dev *sd,
			     unsigned long *dst);
int irq_spread_dev_set_cpu_bits(struct irq_spread_dev *sd,
				const unsigned long *cpus);
void irq_spread_devs_cpu_offline(struct irq_spread_topology *topo,
				 unsigned int cpu);
void irq_spread_devs_cpu_online(struct irq_spread_topology *topo,
				unsigned int cpu);
void irq_spread_dev_flush(struct irq_spread_dev *sd);
int irq_spread_devs_show(struct seq_file *m, void *v);
int irq_spread_notifiers_show(struct seq_file *m, void *v);
void irq_spread_devs_irqs(const struct irq_spread_topology *topo,
			  unsigned long *irqs, unsigned int nr_irqs);
int irq_spread_irqs_list(const struct irq_spread_topology *topo,
			 unsigned int nr_irqs, char *buf, size_t size);

bool irq_spread_dev_want(const struct irq_spread_dev *sd,
			 const unsigned long *masks, unsigned int nr_active,
			 unsigned int v, unsigned long *dst);
bool irq_spread_dev_current(const struct irq_spread_dev *sd, unsigned int v,
			    unsigned long *dst);
void irq_spread_vec_write_begin(struct irq_spread_dev *sd,
				unsigned long *flags);
void irq_spread_vec_write_end(struct irq_spread_dev *sd, unsigned long flags);
void irq_spread_vec_refresh(struct irq_spread_dev *sd, unsigned int v,
			    const unsigned long *masks, unsigned int nr_active);
void irq_spread_dev_rmap(struct irq_spread_dev *sd);
void irq_spread_vec_serve(struct irq_spread_vec *vec,
			  const unsigned long *mask);
void irq_spread_vec_unserve(struct irq_spread_vec *vec);
int irq_spread_dev_spread(struct irq_spread_dev *sd, unsigned int nvec,
			  enum irq_spread_policy policy, unsigned long *masks,
			  unsigned int flags);
void irq_spread_dev_release(struct irq_spread_dev *sd, unsigned int nvec,
			    const unsigned long *masks);
void irq_spread_dev_hold(struct irq_spread_dev *sd, unsigned int nvec,
			 const unsigned long *masks);
void irq_spread_vec_reseen(struct irq_spread_dev *sd,
			   struct irq_spread_vec *vec);
int irq_spread_vec_apply(struct irq_spread_dev *sd, struct irq_spread_vec *vec,
			 const unsigned long *mask);
void irq_spread_vec_seen(struct irq_spread_dev *sd, struct irq_spread_vec *vec,
			 const cpumask_t *mask);
void irq_spread_vec_notify(struct irq_affinity_notify *notify,
			   const cpumask_t *mask);
void irq_spread_vec_notify_release(struct kref *ref);
const char *irq_spread_vec_notifier(const struct irq_spread_vec *vec);
void irq_spread_dev_report(struct irq_spread_dev *sd,
			   const unsigned long *changed);
void irq_spread_dev_work(struct work_struct *work);
int irq_spread_dev_commit(struct irq_spread_dev *sd, const unsigned long *masks,
			  unsigned int nr_active, bool reset, bool undo);
void irq_spread_dev_committed(struct irq_spread_dev *sd);
void irq_spread_dev_placed_afresh(struct irq_spread_dev *sd);
int irq_spread_dev_respread(struct irq_spread_dev *sd, unsigned int nr_active,
			    enum irq_spread_policy policy, bool reset,
			    bool undo);

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

/* Where reserved vector @v of @sd goes: an entry of @sd->reserved. */
static inline int irq_spread_dev_reserved(const struct irq_spread_dev *sd,
					  unsigned int v)
{
	return sd->reserved[v < sd->pre ? v : v - sd->nr];
}

/* The CPUs @sd may not use, for the engine's @exclude; %NULL for none. */
static inline const unsigned long *
irq_spread_dev_exclude(const struct irq_spread_dev *sd)
{
	return sd->restricted ? sd->exclude : NULL;
}

/* Spread vector @k's mask in @masks, @placed or @spare of @sd. */
static inline unsigned long *irq_spread_dev_mask(const struct irq_spread_dev *sd,
						 unsigned long *masks,
						 unsigned int k)
{
	return masks + k * sd->stride;
}

#endif /* _LIB_IRQ_SPREAD_INTERNAL_H */
