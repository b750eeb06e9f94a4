// SPDX-License-Identifier: GPL-2.0
/*
 * mlx5 7.3's SF completion pool for cost_bench, from its own source: the
 * Makefile copies irq_affinity.c (the search: mlx5_irq_affinity_request()
 * and its release) and the IRQ functions of pci_irq.c it calls, with
 * struct mlx5_irq, into the build directory (mlx5-extract.awk), and this
 * file builds the latter with the stand-ins of include/mlx5_shim.h.
 * Nothing of mlx5 is copied into the tree.
 *
 * What mlx5_irq_alloc() asks of the PCI and interrupt cores (an MSI-X
 * vector, request_irq(), the IRQ's name) is the driver's request of an
 * interrupt, which the pool's fake driver in cost_bench leaves out too:
 * here it makes the IRQ object, as the fake driver does, gives it its
 * affinity and stores it in the pool's xarray, as mlx5_irq_alloc() does.
 */
#include "mlx5_shim.h"
#include "pci_irq.h"
#include "mlx5_irq.h"
#include "mlx5_sf.h"

#include "pci_irq-extract.c"

unsigned int nr_cpu_ids;
static struct cpumask online;
const struct cpumask *const cpu_online_mask = &online;

/* lib/bitmap.c, lib/find_bit.c, lib/cpumask.c */
noinline unsigned int __bitmap_weight(const unsigned long *src,
				      unsigned int nbits)
{
	unsigned int k, w = 0;

	for (k = 0; k < nbits / BITS_PER_LONG; k++)
		w += __builtin_popcountl(src[k]);
	if (nbits % BITS_PER_LONG)
		w += __builtin_popcountl(src[k] &
					 (~0UL >> (-nbits % BITS_PER_LONG)));
	return w;
}

noinline bool __bitmap_subset(const unsigned long *a, const unsigned long *b,
			      unsigned int nbits)
{
	unsigned int k, lim = nbits / BITS_PER_LONG;

	for (k = 0; k < lim; k++)
		if (a[k] & ~b[k])
			return false;
	if (nbits % BITS_PER_LONG)
		if ((a[k] & ~b[k]) & (~0UL >> (-nbits % BITS_PER_LONG)))
			return false;
	return true;
}

noinline unsigned long _find_first_bit(const unsigned long *addr,
				       unsigned long size)
{
	unsigned long i;

	for (i = 0; i * BITS_PER_LONG < size; i++)
		if (addr[i])
			return min_t(unsigned long, size,
				     i * BITS_PER_LONG + __builtin_ctzl(addr[i]));
	return size;
}

noinline unsigned long _find_next_and_bit(const unsigned long *a,
					  const unsigned long *b,
					  unsigned long size,
					  unsigned long start)
{
	unsigned long i, w;

	if (start >= size)
		return size;
	i = start / BITS_PER_LONG;
	w = a[i] & b[i] & (~0UL << (start % BITS_PER_LONG));
	while (!w) {
		if (++i * BITS_PER_LONG >= size)
			return size;
		w = a[i] & b[i];
	}
	return min_t(unsigned long, size, i * BITS_PER_LONG + __builtin_ctzl(w));
}

/* cpumask_size(): nr_cpu_ids bits, NR_CPUS being above 256 */
noinline bool zalloc_cpumask_var(cpumask_var_t *mask, gfp_t flags)
{
	*mask = calloc(BITS_TO_LONGS(nr_cpu_ids), sizeof(long));
	return *mask;
}

noinline void free_cpumask_var(cpumask_var_t mask)
{
	free(mask);
}

/* lib/xarray.c: a reserved entry (xa_alloc() of NULL) is skipped by a walk */
static char xa_zero;

noinline void xa_init_flags(struct xarray *xa, unsigned int flags)
{
	memset(xa, 0, sizeof(*xa));
}

noinline int xa_alloc(struct xarray *xa, u32 *id, void *entry,
		      struct xa_limit limit, gfp_t gfp)
{
	u32 i;

	for (i = limit.min; i <= limit.max && i < XA_SLOTS; i++) {
		if (!xa->slot[i]) {
			xa->slot[i] = entry ?: &xa_zero;
			*id = i;
			return 0;
		}
	}
	return -EBUSY;
}

noinline void *xa_store(struct xarray *xa, unsigned long index, void *entry,
			gfp_t gfp)
{
	void *old = xa->slot[index];

	xa->slot[index] = entry;
	return old == &xa_zero ? NULL : old;
}

noinline void *xa_erase(struct xarray *xa, unsigned long index)
{
	return xa_store(xa, index, NULL, 0);
}

noinline void *xa_find(struct xarray *xa, unsigned long *index,
		       unsigned long max)
{
	unsigned long i;

	for (i = *index; i <= max && i < XA_SLOTS; i++) {
		if (xa->slot[i] && xa->slot[i] != &xa_zero) {
			*index = i;
			return xa->slot[i];
		}
	}
	return NULL;
}

noinline void *xa_find_after(struct xarray *xa, unsigned long *index,
			     unsigned long max)
{
	unsigned long i = *index + 1;
	void *entry;

	if (!i)
		return NULL;
	entry = xa_find(xa, &i, max);
	if (entry)
		*index = i;
	return entry;
}

/* The interrupt core: an IRQ's effective affinity is the mask it was given. */
#define VIRQ_BASE	1000
static const struct cpumask *effective[VIRQ_BASE + XA_SLOTS];

noinline const struct cpumask *irq_get_effective_affinity_mask(unsigned int irq)
{
	return irq < VIRQ_BASE + XA_SLOTS ? effective[irq] : NULL;
}

noinline int irq_set_affinity_and_hint(unsigned int irq,
				       const struct cpumask *m)
{
	effective[irq] = m;
	return 0;
}

noinline int irq_update_affinity_hint(unsigned int irq,
				      const struct cpumask *m)
{
	return 0;
}

noinline void synchronize_irq(unsigned int irq)
{
}

noinline void free_irq(unsigned int irq, void *dev_id)
{
	effective[irq] = NULL;
}

noinline int pci_irq_vector(struct pci_dev *dev, unsigned int nr)
{
	return VIRQ_BASE + nr;
}

noinline bool pci_msix_can_alloc_dyn(struct pci_dev *dev)
{
	return true;
}

noinline void pci_msix_free_irq(struct pci_dev *dev, struct msi_map map)
{
}

noinline int atomic_notifier_chain_register(struct atomic_notifier_head *nh,
					    struct notifier_block *nb)
{
	return 0;
}

noinline int atomic_notifier_chain_unregister(struct atomic_notifier_head *nh,
					      struct notifier_block *nb)
{
	return 0;
}

noinline struct auxiliary_device *mlx5_sf_coredev_to_adev(struct mlx5_core_dev *dev)
{
	return NULL;
}

noinline int auxiliary_device_sysfs_irq_add(struct auxiliary_device *auxdev,
					    int irq)
{
	return 0;
}

noinline void auxiliary_device_sysfs_irq_remove(struct auxiliary_device *auxdev,
						int irq)
{
}

/* The driver's IRQ object, the same for mlx5 and the pool's fake driver. */
noinline void *mlx5_sf_bench_irq_new(const unsigned long *mask)
{
	struct mlx5_irq *irq = kzalloc_obj(*irq);

	if (!irq || !zalloc_cpumask_var(&irq->mask, GFP_KERNEL)) {
		kfree(irq);
		return NULL;
	}
	if (mask)
		memcpy(cpumask_bits(irq->mask), mask,
		       BITS_TO_LONGS(nr_cpu_ids) * sizeof(long));
	return irq;
}

noinline void mlx5_sf_bench_irq_free(void *p)
{
	struct mlx5_irq *irq = p;

	free_cpumask_var(irq->mask);
	kfree(irq);
}

static unsigned long allocs;

/* mlx5_irq_alloc() with the interrupt requested and named by nobody. */
struct mlx5_irq *mlx5_irq_alloc(struct mlx5_irq_pool *pool, int i,
				struct irq_affinity_desc *af_desc,
				struct cpu_rmap **rmap)
{
	struct mlx5_irq *irq;

	irq = mlx5_sf_bench_irq_new(af_desc ? cpumask_bits(&af_desc->mask) :
					      NULL);
	if (!irq)
		return ERR_PTR(-ENOMEM);
	irq->map.index = i;
	irq->map.virq = pci_irq_vector(pool->dev->pdev, i);
	if (af_desc)
		irq_set_affinity_and_hint(irq->map.virq, irq->mask);
	irq->pool = pool;
	irq->refcount = 1;
	irq->pool_index = i;
	xa_store(&pool->irqs, irq->pool_index, irq, GFP_KERNEL);
	allocs++;
	return irq;
}

/**
 * struct mlx5_sf_bench - an SF completion pool and what its users pass
 * @dev: the parent device
 * @pool: the pool, as irq_pools_init() sets up mlx5_sf_comp
 * @af_desc: the affinity of the next request, one CPU
 * @cpu: that CPU
 */
struct mlx5_sf_bench {
	struct mlx5_core_dev dev;
	struct mlx5_irq_pool *pool;
	struct irq_affinity_desc *af_desc;
	unsigned int cpu;
};

struct mlx5_sf_bench *mlx5_sf_bench_create(unsigned int nr_cpus,
					   unsigned int first,
					   unsigned int size)
{
	struct mlx5_sf_bench *b = calloc(1, sizeof(*b));
	unsigned int cpu;

	if (!b || nr_cpus > 8 * sizeof(online) || first + size > XA_SLOTS)
		goto err;
	nr_cpu_ids = nr_cpus;
	for (cpu = 0; cpu < nr_cpus; cpu++)
		cpumask_set_cpu(cpu, &online);
	b->af_desc = kvzalloc_obj(*b->af_desc);
	b->pool = irq_pool_alloc(&b->dev, first, size, "mlx5_sf_comp",
				 MLX5_EQ_SHARE_IRQ_MIN_COMP,
				 MLX5_EQ_SHARE_IRQ_MAX_COMP);
	if (!b->af_desc || IS_ERR(b->pool))
		goto err;
	b->pool->irqs_per_cpu = kcalloc(nr_cpu_ids, sizeof(u16), GFP_KERNEL);
	if (!b->pool->irqs_per_cpu)
		goto err;
	return b;
err:
	fprintf(stderr, "mlx5_sf: cannot create the pool\n");
	exit(1);
}

void mlx5_sf_bench_destroy(struct mlx5_sf_bench *b)
{
	struct mlx5_irq *irq;
	unsigned long index;

	xa_for_each_range(&b->pool->irqs, index, irq, 0, XA_SLOTS - 1)
		irq_release(irq);
	free(b->pool->irqs_per_cpu);
	free(b->pool);
	free(b->af_desc);
	free(b);
}

void *mlx5_sf_bench_get(struct mlx5_sf_bench *b, unsigned int cpu)
{
	struct mlx5_irq *irq;
	unsigned long *bits = cpumask_bits(&b->af_desc->mask);

	bits[b->cpu / BITS_PER_LONG] = 0;
	b->cpu = cpu;
	cpumask_set_cpu(cpu, &b->af_desc->mask);
	irq = mlx5_irq_affinity_request(&b->dev, b->pool, b->af_desc);
	if (IS_ERR(irq))
		return NULL;
	if (mlx5_irq_attach_nb(irq, NULL)) {
		mlx5_irq_affinity_irq_release(&b->dev, irq);
		return NULL;
	}
	return irq;
}

void mlx5_sf_bench_put(struct mlx5_sf_bench *b, void *irq)
{
	mlx5_irq_detach_nb(irq, NULL);
	mlx5_irq_affinity_irq_release(&b->dev, irq);
}

unsigned long mlx5_sf_bench_allocs(const struct mlx5_sf_bench *b)
{
	return allocs;
}
