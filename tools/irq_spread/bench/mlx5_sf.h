/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mlx5's SF completion pool, built from the 7.3 source (mlx5_sf.c), as
 * cost_bench calls it: what one sub-function's event queue does with its
 * IRQ when it is created and destroyed.
 */
#ifndef _MLX5_SF_H
#define _MLX5_SF_H

struct mlx5_sf_bench;

/* An SF completion pool of @size IRQs from index @first, on @nr_cpus CPUs. */
struct mlx5_sf_bench *mlx5_sf_bench_create(unsigned int nr_cpus,
					   unsigned int first,
					   unsigned int size);
void mlx5_sf_bench_destroy(struct mlx5_sf_bench *b);

/*
 * An event queue's IRQ for CPU @cpu alone: mlx5_irq_affinity_request()
 * then mlx5_irq_attach_nb(), as eq.c's comp_irq_request_sf() and
 * create_map_eq() do; the IRQ, or NULL.
 */
void *mlx5_sf_bench_get(struct mlx5_sf_bench *b, unsigned int cpu);

/*
 * Its release: mlx5_irq_detach_nb() then mlx5_irq_affinity_irq_release(),
 * as destroying the event queue and comp_irq_release_sf() do.
 */
void mlx5_sf_bench_put(struct mlx5_sf_bench *b, void *irq);

/* The IRQs allocated since the pool was created. */
unsigned long mlx5_sf_bench_allocs(const struct mlx5_sf_bench *b);

/*
 * The driver's own IRQ object, as mlx5_irq_alloc() makes one outside the
 * pool's bookkeeping: the pool's fake driver in cost_bench makes the same.
 */
void *mlx5_sf_bench_irq_new(const unsigned long *mask);
void mlx5_sf_bench_irq_free(void *irq);

#endif /* _MLX5_SF_H */
