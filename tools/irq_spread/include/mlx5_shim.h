/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What mlx5's SF pool search (drivers/net/ethernet/mellanox/mlx5/core/
 * irq_affinity.c, and the IRQ functions of pci_irq.c it calls) needs of
 * the kernel, for building that very source in user space beside the
 * pool (cost_bench).  The Makefile copies the files from the 7.3 tree
 * without their #include lines and compiles them with this header first.
 *
 * Each stand-in does what the kernel's call does to the state the search
 * reads, no more: cpumask operations over nr_cpu_ids bits of an NR_CPUS
 * mask (as Debian's amd64 kernels, NR_CPUS 8192, have them); an xarray
 * that is a flat array of entries, with xa_alloc()'s reserved entries
 * skipped by its walk as the kernel's are; an interrupt's effective
 * affinity as the mask it was last given; a mutex as the pool's own in
 * user space (irq_spread_compat.h), a flag, but no lockdep_assert_held().
 * The flat array and the table of affinities are cheaper than the
 * kernel's radix tree and maple tree, which, if anything, favours mlx5.
 * The calls the kernel makes out of line are out of line here too
 * (mlx5_sf.c); the interrupt and PCI core's (request, free, synchronize,
 * sysfs) do nothing, as the pool's fake driver's do.
 */
#ifndef _MLX5_SHIM_H
#define _MLX5_SHIM_H

#include <assert.h>
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef unsigned int gfp_t;

#define GFP_KERNEL		0u
#define NR_CPUS			8192
#define BITS_PER_LONG		(8 * (int)sizeof(long))
#define BITS_TO_LONGS(nr)	(((nr) + BITS_PER_LONG - 1) / BITS_PER_LONG)
#define __always_unused		__attribute__((unused))
#define noinline		__attribute__((noinline))
#define unlikely(x)		__builtin_expect(!!(x), 0)
#define min_t(t, a, b)		((t)(a) < (t)(b) ? (t)(a) : (t)(b))
#define WARN_ON_ONCE(cond)	unlikely(cond)

/* err.h */
#define MAX_ERRNO	4095
#define ERR_PTR(err)	((void *)(long)(err))
#define PTR_ERR(ptr)	((long)(ptr))
#define IS_ERR(ptr)	unlikely((unsigned long)(ptr) >= (unsigned long)-MAX_ERRNO)

/* slab: the pool's own allocator in user space, malloc() */
#define kzalloc_obj(p, ...)	((typeof(p) *)calloc(1, sizeof(p)))
#define kvzalloc_obj(p, ...)	((typeof(p) *)calloc(1, sizeof(p)))
#define kcalloc(n, s, g)	calloc(n, s)
#define kfree(p)		free(p)
#define kvfree(p)		free(p)

/* mutex: as irq_spread_compat.h has the pool's */
struct mutex {
	bool held;
};

#define mutex_init(m)		((m)->held = false)
#define mutex_lock(m)		do { assert(!(m)->held); (m)->held = true; } while (0)
#define mutex_unlock(m)		do { assert((m)->held); (m)->held = false; } while (0)
/* Without lockdep, as distribution kernels: the pool's own keeps its check. */
#define lockdep_assert_held(m)	((void)(m))

/* cpumask: NR_CPUS bits, operated on over nr_cpu_ids (NR_CPUS > 256) */
struct cpumask {
	unsigned long bits[BITS_TO_LONGS(NR_CPUS)];
};

typedef struct cpumask *cpumask_var_t;

extern unsigned int nr_cpu_ids;
extern const struct cpumask *const cpu_online_mask;

#define cpumask_bits(maskp)	((maskp)->bits)
#define cpumask_pr_args(maskp)	nr_cpu_ids, cpumask_bits(maskp)

/* lib/bitmap.c and lib/find_bit.c, out of line for nr_cpu_ids bits */
unsigned int __bitmap_weight(const unsigned long *src, unsigned int nbits);
bool __bitmap_subset(const unsigned long *a, const unsigned long *b,
		     unsigned int nbits);
unsigned long _find_first_bit(const unsigned long *addr, unsigned long size);
unsigned long _find_next_and_bit(const unsigned long *a, const unsigned long *b,
				 unsigned long size, unsigned long start);
bool zalloc_cpumask_var(cpumask_var_t *mask, gfp_t flags);
void free_cpumask_var(cpumask_var_t mask);

static inline unsigned int cpumask_weight(const struct cpumask *m)
{
	return __bitmap_weight(m->bits, nr_cpu_ids);
}

static inline unsigned int cpumask_first(const struct cpumask *m)
{
	return _find_first_bit(m->bits, nr_cpu_ids);
}

static inline bool cpumask_empty(const struct cpumask *m)
{
	return cpumask_first(m) >= nr_cpu_ids;
}

static inline bool cpumask_subset(const struct cpumask *a,
				  const struct cpumask *b)
{
	return __bitmap_subset(a->bits, b->bits, nr_cpu_ids);
}

static inline void cpumask_set_cpu(unsigned int cpu, struct cpumask *m)
{
	m->bits[cpu / BITS_PER_LONG] |= 1UL << (cpu % BITS_PER_LONG);
}

static inline void cpumask_copy(struct cpumask *dst, const struct cpumask *src)
{
	memcpy(dst->bits, src->bits, BITS_TO_LONGS(nr_cpu_ids) * sizeof(long));
}

#define for_each_cpu_and(cpu, a, b) \
	for ((cpu) = _find_next_and_bit((a)->bits, (b)->bits, nr_cpu_ids, 0); \
	     (cpu) < nr_cpu_ids; \
	     (cpu) = _find_next_and_bit((a)->bits, (b)->bits, nr_cpu_ids, \
					(cpu) + 1))

/* xarray: entries of a flat array; xa_alloc()'s reservations are skipped */
#define XA_FLAGS_ALLOC	1u
#define XA_SLOTS	2048

struct xarray {
	void *slot[XA_SLOTS];
};

struct xa_limit {
	u32 max;
	u32 min;
};

void xa_init_flags(struct xarray *xa, unsigned int flags);
int xa_alloc(struct xarray *xa, u32 *id, void *entry, struct xa_limit limit,
	     gfp_t gfp);
void *xa_store(struct xarray *xa, unsigned long index, void *entry, gfp_t gfp);
void *xa_erase(struct xarray *xa, unsigned long index);
void *xa_find(struct xarray *xa, unsigned long *index, unsigned long max);
void *xa_find_after(struct xarray *xa, unsigned long *index, unsigned long max);

static inline int xa_err(void *entry)
{
	return 0;
}

#define xa_for_each_range(xa, index, entry, start, last) \
	for ((index) = (start), (entry) = xa_find(xa, &(index), last); \
	     (entry); (entry) = xa_find_after(xa, &(index), last))

/* The interrupt and PCI cores, and mlx5's own elsewhere */
struct irq_affinity_desc {
	struct cpumask mask;
	unsigned int is_managed : 1;
};

struct atomic_notifier_head {
	void *head;
};

struct notifier_block;
struct pci_dev;
struct auxiliary_device;
struct cpu_rmap;
struct mlx5_irq_table;

struct msi_map {
	int index;
	int virq;
};

struct mlx5_core_dev {
	struct pci_dev *pdev;
};

const struct cpumask *irq_get_effective_affinity_mask(unsigned int irq);
int irq_set_affinity_and_hint(unsigned int irq, const struct cpumask *m);
int irq_update_affinity_hint(unsigned int irq, const struct cpumask *m);
void synchronize_irq(unsigned int irq);
void free_irq(unsigned int irq, void *dev_id);
int pci_irq_vector(struct pci_dev *dev, unsigned int nr);
bool pci_msix_can_alloc_dyn(struct pci_dev *dev);
void pci_msix_free_irq(struct pci_dev *dev, struct msi_map map);
int atomic_notifier_chain_register(struct atomic_notifier_head *nh,
				   struct notifier_block *nb);
int atomic_notifier_chain_unregister(struct atomic_notifier_head *nh,
				     struct notifier_block *nb);
struct auxiliary_device *mlx5_sf_coredev_to_adev(struct mlx5_core_dev *dev);
int auxiliary_device_sysfs_irq_add(struct auxiliary_device *auxdev, int irq);
void auxiliary_device_sysfs_irq_remove(struct auxiliary_device *auxdev,
				       int irq);

/* Messages: dynamic debug off, errors never reached in the bench */
#define mlx5_core_err(dev, ...)	((void)(dev))
#define mlx5_core_dbg(dev, ...)	((void)(dev))

#define CONFIG_MLX5_SF	1

#endif /* _MLX5_SHIM_H */
