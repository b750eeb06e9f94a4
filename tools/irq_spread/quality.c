// SPDX-License-Identifier: GPL-2.0
/*
 * irq_spread preview: the figures of a placement (quality.h).
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include <linux/bitmap.h>

#include "quality.h"

static void *quality_zalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size);

	if (!p) {
		fprintf(stderr, "quality: out of memory\n");
		exit(1);
	}
	return p;
}

bool quality_mask_distance(const struct machine *m, int node,
			   const unsigned long *mask, double *mean)
{
	unsigned int cpu, n = 0;
	double sum = 0;

	for_each_set_bit(cpu, mask, m->nr_cpus) {
		if (m->cpu_node[cpu] < 0)
			continue;
		sum += machine_distance(m, node, m->cpu_node[cpu]);
		n++;
	}
	if (!n)
		return false;
	*mean = sum / n;
	return true;
}

static int quality_cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return x < y ? -1 : x > y;
}

/*
 * The least mean distance of @nvec vectors, one CPU each, no CPU taking
 * more than ceil(@nvec / eligible CPUs): the eligible CPUs nearest first,
 * each up to that cap.  The engine's own fallback applies: with no
 * eligible CPU, the online ones.  CPUs without a node do not count.
 */
static double quality_lower_bound(const struct machine *m, int node,
				  unsigned int nvec)
{
	const unsigned long *cpus = m->eligible;
	unsigned int cpu, n = 0, cap, i, left = nvec;
	int *dist;
	double sum = 0;

	if (bitmap_empty(cpus, m->nr_cpus))
		cpus = m->online;
	dist = quality_zalloc(m->nr_cpus, sizeof(*dist));
	for_each_set_bit(cpu, cpus, m->nr_cpus)
		if (m->cpu_node[cpu] >= 0)
			dist[n++] = machine_distance(m, node, m->cpu_node[cpu]);
	if (!n) {
		free(dist);
		return 0;
	}
	qsort(dist, n, sizeof(*dist), quality_cmp_int);
	cap = (nvec + n - 1) / n;
	for (i = 0; i < n && left; i++) {
		unsigned int take = left < cap ? left : cap;

		sum += (double)take * dist[i];
		left -= take;
	}
	free(dist);
	return sum / nvec;
}

/* An L3 number for @cpu: its L3 domain, or one of its own. */
static unsigned int quality_l3(const struct machine *m, unsigned int cpu)
{
	return m->l3[cpu] >= 0 && (unsigned int)m->l3[cpu] < m->nr_l3 ?
	       (unsigned int)m->l3[cpu] : m->nr_l3 + cpu;
}

/* The distance from @node to @cpu: 0 for no node or a CPU of no node. */
static int quality_cpu_distance(const struct machine *m, int node,
				unsigned int cpu)
{
	if (node < 0 || m->cpu_node[cpu] < 0)
		return 0;
	return machine_distance(m, node, m->cpu_node[cpu]);
}

/*
 * The vectors that share an L3 with an earlier one while one as near was
 * free (quality.h): per L3, whether a vector's first CPU is in it and the
 * least distance of its eligible CPUs (INT_MAX for none), then each
 * vector against every L3.
 */
static unsigned int quality_l3_crowded(const struct machine *m, int node,
				       unsigned int nvec,
				       const unsigned long *masks,
				       size_t stride)
{
	unsigned int nr = m->nr_l3 + m->nr_cpus, i, k, cpu, l3, crowded = 0;
	const unsigned long *cpus = m->eligible;
	bool *hit = quality_zalloc(nr, sizeof(*hit));
	int *near = quality_zalloc(nr, sizeof(*near)), d;

	if (bitmap_empty(cpus, m->nr_cpus))
		cpus = m->online;
	for (k = 0; k < nr; k++)
		near[k] = INT_MAX;
	for_each_set_bit(cpu, cpus, m->nr_cpus) {
		l3 = quality_l3(m, cpu);
		d = quality_cpu_distance(m, node, cpu);
		if (d < near[l3])
			near[l3] = d;
	}
	for (i = 0; i < nvec; i++) {
		cpu = find_first_bit(masks + i * stride, m->nr_cpus);
		if (cpu >= m->nr_cpus)
			continue;
		l3 = quality_l3(m, cpu);
		d = quality_cpu_distance(m, node, cpu);
		for (k = 0; hit[l3] && k < nr; k++) {
			if (!hit[k] && near[k] <= d) {
				crowded++;
				break;
			}
		}
		hit[l3] = true;
	}
	free(hit);
	free(near);
	return crowded;
}

/* A core number for @cpu: its physical core, or one of its own. */
static unsigned int quality_core(const struct machine *m, unsigned int cpu)
{
	return m->core[cpu] >= 0 ? (unsigned int)m->core[cpu] :
				   m->nr_cores + cpu;
}

void quality_of(const struct machine *m, int node, unsigned int nvec,
		const unsigned long *masks, size_t stride, struct quality *q)
{
	unsigned int nr_core_ids = m->nr_cores + m->nr_cpus;
	unsigned int *per_cpu = quality_zalloc(m->nr_cpus, sizeof(*per_cpu));
	bool *core_seen = quality_zalloc(nr_core_ids, sizeof(*core_seen));
	bool *l3_seen = quality_zalloc(m->nr_l3 + 1, sizeof(*l3_seen));
	unsigned int i, cpu, counted = 0;
	double sum = 0, mean;

	q->mean_distance = 0;
	q->lower_bound = 0;
	q->core_shared = 0;
	q->max_per_cpu = 0;
	q->l3_used = 0;
	q->l3_crowded = quality_l3_crowded(m, node, nvec, masks, stride);
	q->ineligible = 0;

	for (i = 0; i < nvec; i++) {
		const unsigned long *mask = masks + i * stride;
		bool shared = false, bad = false;

		if (node >= 0 && quality_mask_distance(m, node, mask, &mean)) {
			sum += mean;
			counted++;
		}
		for_each_set_bit(cpu, mask, m->nr_cpus) {
			unsigned int c = quality_core(m, cpu);

			if (core_seen[c])
				shared = true;
			if (++per_cpu[cpu] > q->max_per_cpu)
				q->max_per_cpu = per_cpu[cpu];
			if (m->l3[cpu] >= 0 && (unsigned int)m->l3[cpu] <= m->nr_l3 &&
			    !l3_seen[m->l3[cpu]]) {
				l3_seen[m->l3[cpu]] = true;
				q->l3_used++;
			}
			if (!test_bit(cpu, m->eligible))
				bad = true;
		}
		/* Only now: a vector's own threads share nothing. */
		for_each_set_bit(cpu, mask, m->nr_cpus)
			core_seen[quality_core(m, cpu)] = true;
		q->core_shared += shared;
		q->ineligible += bad;
	}
	if (node >= 0 && nvec) {
		q->mean_distance = counted ? sum / counted : 0;
		q->lower_bound = quality_lower_bound(m, node, nvec);
	}
	free(per_cpu);
	free(core_seen);
	free(l3_seen);
}
