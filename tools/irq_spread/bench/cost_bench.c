// SPDX-License-Identifier: GPL-2.0
/*
 * irq_spread cost benchmark: what a spread of 256 vectors costs on large
 * synthetic machines, against what a driver pays calling
 * cpumask_local_spread() once per vector, and what a pool get and put cost
 * in seed 004's scenario, against the array lookup mlx5 did before its SF
 * pool.  Every ratio is of two figures measured in the same run.  Prints
 * markdown: a paragraph on the host and the reference, then one "###"
 * section per table (pipeline/bench.sh puts them under its "## Cost");
 * asserts nothing about time.
 *
 * Usage: cost_bench [-t SECONDS] [-s CPUS] [-S SHAPE] [-m METHOD]
 *	-t	time each figure is measured for at least (default 0.2)
 *	-s, -S, -m	only one machine size, shape or method, for a
 *		profiler's run of one configuration (the pool is left out)
 *
 * The library is the engine's own code (lib/irq_spread/spread.c, pool.c),
 * built in user space by tools/irq_spread: its mutexes are no-ops there and
 * its allocations malloc(), so a kernel spread costs a little more.  The
 * peers are re-derived from the kernel source below, on hop masks
 * precomputed as the scheduler keeps them; their bit counts use the popcnt
 * instruction where the Makefile finds it, as x86 kernels do.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "machine.h"

#define NVEC		256
#define NR_SIZES	4
#define MIN_SAMPLES	21
#define MAX_SAMPLES	20000

static const unsigned int sizes[NR_SIZES] = { 256, 1024, 4096, 8192 };
static double min_time = 0.2;
/* Only these, if set (-s, -S, -m): 0 for all; a method is its index + 1. */
static unsigned int only_cpus, only_shape, only_method;

/*
 * barrier_data() of include/linux/compiler.h: the memory @p points to
 * counts as read, so that the compiler keeps what wrote it, and is to be
 * read again.
 */
static inline void keep(const void *p)
{
	asm volatile("" : : "r"(p) : "memory");
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1000000000.0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/**
 * struct timed - something to time
 * @fn: called with @arg, once per run
 * @arg: for @fn
 * @batch: runs per sample: enough for the clock (>= 100 us)
 * @n: samples taken
 * @sample: seconds per run, of each batch
 */
struct timed {
	void (*fn)(void *arg);
	void *arg;
	unsigned int batch;
	unsigned int n;
	double sample[MAX_SAMPLES];
};

/*
 * A batch of runs, after one untimed run: the caches hold what the last
 * runs of this thing left, not another's.
 */
static double time_batch(struct timed *x)
{
	unsigned int i;
	double t;

	x->fn(x->arg);
	t = now();
	for (i = 0; i < x->batch; i++)
		x->fn(x->arg);
	return now() - t;
}

/*
 * The median time of one run of each of @nr things in @x, in @t: rounds
 * of one batch of each in turn, so that they all see the same load of the
 * machine, for at least min_time each and MIN_SAMPLES rounds.
 */
static void measure(struct timed **x, unsigned int nr, double *t)
{
	unsigned int k, n;
	double start;

	for (k = 0; k < nr; k++) {
		x[k]->n = 0;
		for (x[k]->batch = 1; x[k]->batch < 1U << 20; x[k]->batch *= 2)
			if (time_batch(x[k]) >= 0.0001)
				break;
	}
	start = now();
	for (n = 0; n < MAX_SAMPLES &&
	     (n < MIN_SAMPLES || now() - start < min_time * nr); n++)
		for (k = 0; k < nr; k++)
			x[k]->sample[x[k]->n++] = time_batch(x[k]) / x[k]->batch;
	for (k = 0; k < nr; k++) {
		qsort(x[k]->sample, n, sizeof(double), cmp_double);
		t[k] = x[k]->sample[n / 2];
	}
}

/*
 * The kernel's bitmap primitives the peers use, word by word as in
 * lib/bitmap.c (BITMAP_WEIGHT()) and lib/find_bit.c (FIND_NTH_BIT(),
 * FIND_NEXT_BIT()), with include/linux/bitops.h's fns().
 */
static unsigned int k_hweight(unsigned long w)
{
	return __builtin_popcountl(w);
}

static unsigned int k_weight_and(const unsigned long *a, const unsigned long *b,
				 unsigned int bits)
{
	unsigned int idx, w = 0;

	for (idx = 0; idx < bits / BITS_PER_LONG; idx++)
		w += k_hweight(a[idx] & b[idx]);
	if (bits % BITS_PER_LONG)
		w += k_hweight(a[idx] & b[idx] & BITMAP_LAST_WORD_MASK(bits));
	return w;
}

static unsigned int k_fns(unsigned long word, unsigned int n)
{
	while (word && n--)
		word &= word - 1;
	return word ? __builtin_ctzl(word) : BITS_PER_LONG;
}

/* FIND_NTH_BIT(), fetching a & b, or a & b & ~c if @c. */
static unsigned int k_find_nth(const unsigned long *a, const unsigned long *b,
			       const unsigned long *c, unsigned int size,
			       unsigned int nr)
{
	unsigned long idx, w, tmp;

	if (nr >= size)
		return size;
	for (idx = 0; (idx + 1) * BITS_PER_LONG <= size; idx++) {
		if (idx * BITS_PER_LONG + nr >= size)
			return size;
		tmp = a[idx] & b[idx] & (c ? ~c[idx] : ~0UL);
		w = k_hweight(tmp);
		if (w > nr)
			goto found;
		nr -= w;
	}
	if (!(size % BITS_PER_LONG))
		return size;
	tmp = a[idx] & b[idx] & (c ? ~c[idx] : ~0UL) &
	      BITMAP_LAST_WORD_MASK(size);
found:
	return idx * BITS_PER_LONG + k_fns(tmp, nr);
}

/* FIND_NEXT_BIT(), fetching a, or a & b if @b. */
static unsigned int k_find_next(const unsigned long *a, const unsigned long *b,
				unsigned int size, unsigned int start)
{
	unsigned long idx, tmp;

	if (start >= size)
		return size;
	idx = start / BITS_PER_LONG;
	tmp = (a[idx] & (b ? b[idx] : ~0UL)) & (~0UL << (start % BITS_PER_LONG));
	while (!tmp) {
		if (++idx * BITS_PER_LONG >= size)
			return size;
		tmp = a[idx] & (b ? b[idx] : ~0UL);
	}
	start = idx * BITS_PER_LONG + __builtin_ctzl(tmp);
	return start < size ? start : size;
}

/**
 * struct peer - what the kernel keeps that cpumask_local_spread() reads
 * @nbits: nr_cpu_ids
 * @nr_online: num_online_cpus()
 * @online: cpu_online_mask
 * @node_cpus: cpumask_of_node()
 * @levels: sched_domains_numa_levels: the distinct node distances
 * @masks: sched_domains_numa_masks[level][node]: the CPUs of the nodes at
 *	most the level's distance away, as sched_init_numa() builds them
 */
struct peer {
	unsigned int nbits;
	unsigned int nr_online;
	const unsigned long *online;
	unsigned long *const *node_cpus;
	unsigned int levels;
	unsigned long ***masks;
};

static int peer_init(struct peer *p, const struct machine *m)
{
	int dist[IRQ_SPREAD_MAX_HOPS], d, t;
	unsigned int i, j, k, l;

	p->nbits = m->nr_cpus;
	p->online = m->online;
	p->nr_online = bitmap_weight(m->online, m->nr_cpus);
	p->node_cpus = m->node_cpus;
	/* sched_init_numa(): the distinct distances, ascending. */
	p->levels = 0;
	for (i = 0; i < m->nr_nodes; i++) {
		for (j = 0; j < m->nr_nodes; j++) {
			d = machine_distance(m, i, j);
			for (l = 0; l < p->levels && dist[l] != d; l++)
				;
			if (l < p->levels)
				continue;
			if (p->levels == IRQ_SPREAD_MAX_HOPS)
				return -1;
			dist[p->levels++] = d;
			for (l = p->levels - 1; l && dist[l - 1] > dist[l]; l--) {
				t = dist[l];
				dist[l] = dist[l - 1];
				dist[l - 1] = t;
			}
		}
	}
	p->masks = calloc(p->levels, sizeof(*p->masks));
	if (!p->masks)
		return -1;
	for (l = 0; l < p->levels; l++) {
		p->masks[l] = calloc(m->nr_nodes, sizeof(**p->masks));
		if (!p->masks[l])
			return -1;
		for (j = 0; j < m->nr_nodes; j++) {
			p->masks[l][j] = machine_bitmap(m);
			if (!p->masks[l][j])
				return -1;
			for (k = 0; k < m->nr_nodes; k++) {
				if (m->node_cpus[k] &&
				    machine_distance(m, j, k) <= dist[l])
					bitmap_or(p->masks[l][j],
						  p->masks[l][j],
						  m->node_cpus[k], m->nr_cpus);
			}
			/* Only online CPUs are in the masks. */
			bitmap_and(p->masks[l][j], p->masks[l][j], m->online,
				   m->nr_cpus);
		}
	}
	return 0;
}

static void peer_free(struct peer *p, unsigned int nr_nodes)
{
	unsigned int l, j;

	for (l = 0; p->masks && l < p->levels; l++) {
		for (j = 0; p->masks[l] && j < nr_nodes; j++)
			free(p->masks[l][j]);
		free(p->masks[l]);
	}
	free(p->masks);
}

/* struct __cmp_key of kernel/sched/topology.c */
struct cmp_key {
	const struct peer *p;
	const unsigned long *cpus;
	unsigned int cpu;
	unsigned int w;
	int node;
};

/*
 * hop_cmp() of kernel/sched/topology.c (6.12): 0 for the first hop whose
 * CPUs in @cpus outnumber k->cpu, k->w set to those of the hop before it.
 */
static int hop_cmp(const void *a, const void *b)
{
	struct cmp_key *k = (struct cmp_key *)a;
	unsigned long **const *cur = b;
	const struct peer *p = k->p;

	if (k_weight_and(k->cpus, (*cur)[k->node], p->nbits) <= k->cpu)
		return 1;
	if (cur == p->masks) {
		k->w = 0;
		return 0;
	}
	k->w = k_weight_and(k->cpus, cur[-1][k->node], p->nbits);
	if (k->w <= k->cpu)
		return 0;
	return -1;
}

/*
 * lib/bsearch.c's bsearch().  The kernel's is out of line and calls its
 * comparison through a pointer; the compiler may inline both here, which
 * if anything makes the peer faster.
 */
static void *k_bsearch(const void *key, const void *base, size_t num, size_t size,
		       int (*cmp)(const void *key, const void *elt))
{
	const char *pivot;
	int result;

	while (num > 0) {
		pivot = (const char *)base + (num >> 1) * size;
		result = cmp(key, pivot);
		if (result == 0)
			return (void *)pivot;
		if (result > 0) {
			base = pivot + size;
			num--;
		}
		num >>= 1;
	}
	return NULL;
}

/*
 * sched_numa_find_nth_cpu() of kernel/sched/topology.c (6.12), for a node
 * with CPUs: binary search over the hops for the first whose CPUs in
 * @cpus outnumber @cpu, then the (@cpu - k.w)-th CPU of @cpus in that hop
 * and not in the hop before (cpumask_nth_and_andnot()).
 */
static unsigned int k_find_nth_cpu(const struct peer *p,
				   const unsigned long *cpus, unsigned int cpu,
				   int node)
{
	struct cmp_key k = { .p = p, .cpus = cpus, .cpu = cpu, .node = node };
	unsigned long ***hop_masks;
	unsigned int hop;

	hop_masks = k_bsearch(&k, p->masks, p->levels, sizeof(p->masks[0]),
			      hop_cmp);
	if (!hop_masks)
		return p->nbits;
	hop = hop_masks - p->masks;
	return hop ? k_find_nth(cpus, p->masks[hop][node],
				p->masks[hop - 1][node], p->nbits, cpu - k.w) :
		     k_find_nth(cpus, p->masks[0][node], NULL, p->nbits, cpu);
}

/* cpumask_local_spread() of lib/cpumask.c (6.3 to 6.12). */
static unsigned int local_spread(const struct peer *p, unsigned int i,
				 int node)
{
	i %= p->nr_online;
	return k_find_nth_cpu(p, p->online, i, node);
}

/*
 * cpumask_local_spread() as it was before 6.3, in its original form
 * (lib/cpumask.c, v4.1): the node's online CPUs by number, then every
 * other online CPU by number, counting one by one.
 */
static unsigned int local_spread_old(const struct peer *p, unsigned int i,
				     int node)
{
	const unsigned long *local = p->node_cpus[node];
	unsigned int cpu, n = p->nbits;

	i %= p->nr_online;
	for (cpu = k_find_next(local, p->online, n, 0); cpu < n;
	     cpu = k_find_next(local, p->online, n, cpu + 1))
		if (i-- == 0)
			return cpu;
	for (cpu = k_find_next(p->online, NULL, n, 0); cpu < n;
	     cpu = k_find_next(p->online, NULL, n, cpu + 1)) {
		if (test_bit(cpu, local))
			continue;
		if (i-- == 0)
			return cpu;
	}
	return n;
}

/**
 * struct spread_run - one spread to time
 * @m: the machine
 * @peer: the kernel's view of it
 * @policy: the library's policy
 * @node: the device's node
 * @masks: NVEC masks of @m->longs longs
 * @local_spread: the peer's cpumask_local_spread()
 * @cpus: NVEC CPUs, the peer's result
 */
struct spread_run {
	struct machine *m;
	struct peer *peer;
	enum irq_spread_policy policy;
	int node;
	unsigned long *masks;
	unsigned int (*local_spread)(const struct peer *p, unsigned int i,
				     int node);
	unsigned int cpus[NVEC];
};

static void run_library(void *arg)
{
	struct spread_run *r = arg;

	if (irq_spread_topo_cpus(&r->m->topo, r->node, NVEC, r->policy, NULL,
				 r->masks, r->m->longs)) {
		fprintf(stderr, "cost_bench: irq_spread_topo_cpus() failed\n");
		exit(1);
	}
	irq_spread_topo_release(&r->m->topo, NVEC, r->masks, r->m->longs);
}

/*
 * A driver's loop: one CPU per vector, as its affinity hint, each from a
 * call of r->local_spread (out of line, as the kernel exports it).
 */
static void run_peer(void *arg)
{
	struct spread_run *r = arg;
	unsigned int i;

	for (i = 0; i < NVEC; i++) {
		keep(r);
		r->cpus[i] = r->local_spread(r->peer, i, r->node);
	}
	keep(r->cpus);
}

/*
 * Not a test of the peers, only a guard against timing something broken:
 * both give NVEC distinct CPUs, and the same ones while the device node
 * has CPUs left (hop 0 is the node alone, by CPU number in both).  The
 * library gives every vector a CPU.
 */
static int check_run(struct spread_run *r)
{
	unsigned int n = r->m->nr_cpus, local, i;
	unsigned int nth[NVEC];
	unsigned long *seen = machine_bitmap(r->m);
	int ret = 0;

	if (!seen)
		return -1;
	local = bitmap_weight(r->m->node_cpus[r->node], n);
	r->local_spread = local_spread;
	run_peer(r);
	memcpy(nth, r->cpus, sizeof(nth));
	r->local_spread = local_spread_old;
	run_peer(r);
	for (i = 0; i < NVEC; i++) {
		if (nth[i] >= n || r->cpus[i] >= n || test_bit(nth[i], seen) ||
		    (i < local && nth[i] != r->cpus[i]))
			ret = -1;
		else
			__set_bit(nth[i], seen);
	}
	if (irq_spread_topo_cpus(&r->m->topo, r->node, NVEC, r->policy, NULL,
				 r->masks, r->m->longs))
		ret = -1;
	for (i = 0; !ret && i < NVEC; i++)
		if (bitmap_empty(r->masks + i * r->m->longs, n))
			ret = -1;
	irq_spread_topo_release(&r->m->topo, NVEC, r->masks, r->m->longs);
	free(seen);
	return ret;
}

#define NR_METHODS	(IRQ_SPREAD_NR_POLICIES + 2)
#define M_NTH		IRQ_SPREAD_NR_POLICIES
#define M_OLD		(IRQ_SPREAD_NR_POLICIES + 1)

static const char * const method_name[NR_METHODS] = {
	"numa", "numa-core", "core", "6.3+ nth search", "pre-6.3 linear",
};

/**
 * struct shape - how a synthetic machine grows
 * @name: for the table
 * @nodes: number of nodes for @cpus CPUs
 * @cores: cores per node for @cpus CPUs
 */
struct shape {
	const char *name;
	unsigned int (*nodes)(unsigned int cpus);
	unsigned int (*cores)(unsigned int cpus);
};

#define SMT		2
#define NEAR		12
#define FAR		32

static unsigned int fixed_nodes(unsigned int cpus __always_unused)
{
	return 16;
}

static unsigned int fixed_nodes_cores(unsigned int cpus)
{
	return cpus / 16 / SMT;
}

static unsigned int growing_nodes(unsigned int cpus)
{
	return cpus / 16 / SMT;
}

static unsigned int growing_nodes_cores(unsigned int cpus __always_unused)
{
	return 16;
}

static const struct shape shapes[] = {
	{ "16 nodes (8 per socket), cores per node grow",
	  fixed_nodes, fixed_nodes_cores },
	{ "nodes of 16 cores (32 CPUs), nodes grow (half per socket)",
	  growing_nodes, growing_nodes_cores },
};

/* A table cell: @v by @fmt, or "-" if it was not measured. */
static void cell(const char *fmt, double v)
{
	if (v > 0)
		printf(fmt, v);
	else
		printf(" - |");
}

static bool wanted(unsigned int method)
{
	return !only_method || only_method == method + 1;
}

static int bench_shape(const struct shape *s)
{
	static struct timed timed[NR_METHODS];
	struct spread_run run[NR_METHODS];
	double t[NR_SIZES][NR_METHODS] = {}, got[NR_METHODS];
	unsigned int z, k, nodes, cores, nr, which[NR_METHODS];
	struct timed *x[NR_METHODS];
	struct spread_run r = { .node = 0 };
	struct machine m;
	struct peer p;

	printf("\n### Spreading %u vectors: %s\n\n", NVEC, s->name);
	printf("2 sockets, SMT%u, siblings interleaved as Intel and AMD\n"
	       "firmware number them (cpu, cpu + CPUs / 2), one L3 per node,\n"
	       "distances 10 / %u within a socket / %u across, device on\n"
	       "node 0, every CPU online.  Median time per whole spread of\n"
	       "%u vectors: the library's irq_spread_topo_cpus() then\n"
	       "irq_spread_topo_release(), or cpumask_local_spread() for\n"
	       "each vector.\n\n", SMT, NEAR, FAR, NVEC);
	printf("| CPUs | nodes x cores x SMT |");
	for (k = 0; k < NR_METHODS; k++)
		printf(" %s (us) |", method_name[k]);
	for (k = 0; k < IRQ_SPREAD_NR_POLICIES; k++)
		printf(" %s / nth |", method_name[k]);
	printf(" pre-6.3 / nth |\n|---:|:---|");
	for (k = 0; k < NR_METHODS + IRQ_SPREAD_NR_POLICIES + 1; k++)
		printf("---:|");
	printf("\n");

	for (z = 0; z < NR_SIZES; z++) {
		if (only_cpus && only_cpus != sizes[z])
			continue;
		nodes = s->nodes(sizes[z]);
		cores = s->cores(sizes[z]);
		if (machine_synthetic(&m, nodes, cores, SMT, true, nodes / 2,
				      0, NEAR, FAR)) {
			fprintf(stderr, "cost_bench: cannot build %u x %u x %u\n",
				nodes, cores, SMT);
			return -1;
		}
		memset(&p, 0, sizeof(p));
		r.m = &m;
		r.peer = &p;
		r.policy = IRQ_SPREAD_NUMA;
		r.masks = calloc(NVEC * m.longs, sizeof(long));
		if (!r.masks || peer_init(&p, &m) || check_run(&r)) {
			fprintf(stderr, "cost_bench: %u CPUs: setup or sanity check failed\n",
				m.nr_cpus);
			return -1;
		}
		nr = 0;
		for (k = 0; k < NR_METHODS; k++) {
			if (!wanted(k))
				continue;
			run[k] = r;
			run[k].policy = k < M_NTH ? k : 0;
			run[k].local_spread = k == M_OLD ? local_spread_old :
						       local_spread;
			timed[k].fn = k < M_NTH ? run_library : run_peer;
			timed[k].arg = &run[k];
			which[nr] = k;
			x[nr++] = &timed[k];
		}
		measure(x, nr, got);
		for (k = 0; k < nr; k++)
			t[z][which[k]] = got[k];

		printf("| %u | %u x %u x %u |", m.nr_cpus, nodes, cores, SMT);
		for (k = 0; k < NR_METHODS; k++)
			cell(" %.1f |", t[z][k] * 1e6);
		for (k = 0; k < NR_METHODS; k++)
			if (k != M_NTH)
				cell(" %.2f |", t[z][M_NTH] > 0 ?
				     t[z][k] / t[z][M_NTH] : 0);
		printf("\n");
		fflush(stdout);
		peer_free(&p, m.nr_nodes);
		free(r.masks);
		machine_free(&m);
	}

	printf("\nGrowth: t(CPUs) / t(previous CPUs), with the size factor.\n\n");
	printf("| CPUs | size factor |");
	for (k = 0; k < NR_METHODS; k++)
		printf(" %s |", method_name[k]);
	printf("\n|---:|---:|");
	for (k = 0; k < NR_METHODS; k++)
		printf("---:|");
	printf("\n");
	for (z = 1; z < NR_SIZES; z++) {
		printf("| %u | x%u |", sizes[z], sizes[z] / sizes[z - 1]);
		for (k = 0; k < NR_METHODS; k++)
			cell(" x%.2f |", t[z - 1][k] > 0 ?
			     t[z][k] / t[z - 1][k] : 0);
		printf("\n");
	}
	return 0;
}

/*
 * Seed 004 (mlx5 SF pool, 2021-06-14 pull request): 250 sub-functions of
 * 11 vectors each, 2750 users, over a pool of 255 vectors after the PF's
 * 56, on the 56-CPU 2-socket Xeon E5-2697 v3 (siblings i, i + 28).  User
 * i asks for CPU seed_cpu(i), as irq_spread_pool_bench_seed004 does.
 */
#define SEED_CONSUMERS	250
#define SEED_VECS	11
#define SEED_USERS	(SEED_CONSUMERS * SEED_VECS)
#define SEED_POOL	255
#define SEED_FIRST	56

static unsigned int seed_cpu(unsigned int user, unsigned int n)
{
	unsigned int k = user / SEED_VECS, j = user % SEED_VECS;

	return (k + j * n / SEED_VECS) % n;
}

/* The fake driver: hands out irq 1000 + vector, releases anything. */
static int fake_request(void *priv, unsigned int vector,
			const struct cpumask *mask __always_unused)
{
	unsigned long *requests = priv;

	(*requests)++;
	return 1000 + vector;
}

static void fake_release(void *priv __always_unused,
			 unsigned int vector __always_unused,
			 unsigned int irq __always_unused)
{
}

static const struct irq_spread_pool_ops fake_ops = {
	.request	= fake_request,
	.release	= fake_release,
};

/**
 * struct consumers - how the scenario's users get and put vectors
 * @get: a vector for the user on @cpu (@cpus holds it alone)
 * @put: give @vector back
 * @ctx: for both
 * @block: gets are timed by blocks of this many
 *
 * Both sides are called through these pointers, which the compiler must
 * load (keep()), as a module calls the pool.
 */
struct consumers {
	int (*get)(void *ctx, const unsigned long *cpus, unsigned int cpu);
	int (*put)(void *ctx, unsigned int vector);
	void *ctx;
	unsigned int block;
};

static int pool_get(void *ctx, const unsigned long *cpus,
		    unsigned int cpu __always_unused)
{
	return irq_spread_pool_topo_get(ctx, cpus);
}

static int pool_put(void *ctx, unsigned int vector)
{
	return irq_spread_pool_put(ctx, vector);
}

/*
 * The baseline: mlx5 before its SF pool, every consumer on the PF's
 * vectors, one per CPU: a get is the vector of the consumer's CPU (an
 * array lookup) and a reference, a put drops it.
 */
struct old_pf {
	unsigned int vec_of_cpu[SEED_FIRST];
	unsigned int users[SEED_FIRST];
};

static int old_get(void *ctx, const unsigned long *cpus __always_unused,
		   unsigned int cpu)
{
	struct old_pf *pf = ctx;
	unsigned int v = pf->vec_of_cpu[cpu];

	pf->users[v]++;
	return v;
}

static int old_put(void *ctx, unsigned int vector)
{
	struct old_pf *pf = ctx;

	pf->users[vector]--;
	return 0;
}

/*
 * The phases of a round: its first SEED_POOL gets, each requesting a
 * vector; the other gets, each sharing one; its puts.
 */
enum {
	P_REQUEST,
	P_SHARE,
	P_PUT,
	NR_PHASES,
};

/* The phases, then all gets. */
static const char * const phase_name[NR_PHASES + 1] = {
	"get, requesting a vector (first 255)",
	"get, sharing one (other 2495)",
	"put, all 2750",
	"get, all 2750",
};

static const unsigned int phase_order[] = {
	P_REQUEST, P_SHARE, NR_PHASES, P_PUT,
};

#define MAX_ROUNDS	1000
#define POOL_SAMPLES	50000

/**
 * struct samples - per-call times of one phase, in seconds
 * @v: the times
 * @n: how many there are
 */
struct samples {
	double v[POOL_SAMPLES];
	unsigned int n;
};

static void add_sample(struct samples *s, double t)
{
	if (s->n < POOL_SAMPLES)
		s->v[s->n++] = t;
}

static double median(struct samples *s)
{
	qsort(s->v, s->n, sizeof(*s->v), cmp_double);
	return s->v[s->n / 2];
}

/*
 * Users @from to @to - 1 of the scenario get their vectors, into @vecs,
 * timed by blocks of @block users: one sample per block.
 */
static void seed_gets(const struct consumers *c, unsigned long *want,
		      unsigned int n, int *vecs, unsigned int from,
		      unsigned int to, struct samples *out)
{
	unsigned int i, end, cpu;
	double t;

	for (; from < to; from = end) {
		end = min(from + c->block, to);
		t = now();
		for (i = from; i < end; i++) {
			cpu = seed_cpu(i, n);
			__set_bit(cpu, want);
			keep(c);
			vecs[i] = c->get(c->ctx, want, cpu);
			__clear_bit(cpu, want);
		}
		add_sample(out, (now() - t) / (end - from));
	}
}

/*
 * One round of the scenario: 2750 gets, then 2750 puts in the same order
 * (timed as one block).  Return -1 if a get gave no vector.
 */
static int seed_round(const struct consumers *c, unsigned long *want,
		      unsigned int n, int *vecs, struct samples *out)
{
	unsigned int i;
	double t;

	seed_gets(c, want, n, vecs, 0, SEED_POOL, &out[P_REQUEST]);
	seed_gets(c, want, n, vecs, SEED_POOL, SEED_USERS, &out[P_SHARE]);
	t = now();
	for (i = 0; i < SEED_USERS; i++) {
		keep(c);
		c->put(c->ctx, vecs[i]);
	}
	add_sample(&out[P_PUT], (now() - t) / SEED_USERS);
	for (i = 0; i < SEED_USERS; i++)
		if (vecs[i] < 0)
			return -1;
	return 0;
}

static int bench_pool(void)
{
	static struct samples out[2][NR_PHASES];
	double med[2][NR_PHASES + 1], start;
	unsigned long requests = 0, *want;
	struct irq_spread_pool_info info = {
		.name = "seed004", .node = 0, .policy = IRQ_SPREAD_NUMA,
		.first_vector = SEED_FIRST, .nr_vectors = SEED_POOL,
		.ops = &fake_ops, .priv = &requests,
	};
	struct consumers side[2] = {
		{ .get = pool_get, .put = pool_put, .block = 51 },
		{ .get = old_get, .put = old_put, .block = SEED_USERS },
	};
	struct irq_spread_pool *pool;
	struct old_pf pf = {};
	unsigned int n, k, s, ph, cpu, i;
	int *vecs;
	struct machine m;

	/* 2 nodes of 14 cores SMT2, one L3 each, distance 21 across. */
	if (machine_synthetic(&m, 2, 14, 2, true, 1, 14, 21, 21) ||
	    m.nr_cpus != SEED_FIRST) {
		fprintf(stderr, "cost_bench: cannot build the Xeon E5-2697 v3\n");
		return -1;
	}
	n = m.nr_cpus;
	want = machine_bitmap(&m);
	vecs = calloc(SEED_USERS, sizeof(*vecs));
	pool = irq_spread_pool_topo_create(&m.topo, &info);
	if (!want || !vecs || IS_ERR(pool)) {
		fprintf(stderr, "cost_bench: cannot create the pool\n");
		return -1;
	}
	for (cpu = 0; cpu < n; cpu++)
		pf.vec_of_cpu[cpu] = cpu;
	side[0].ctx = pool;
	side[1].ctx = &pf;

	/*
	 * Rounds of the pool's, each followed by one of the baseline's.
	 * The puts of a round release every vector, so each round's first
	 * 255 gets request them again.
	 */
	start = now();
	for (k = 0; k < MAX_ROUNDS && out[0][P_SHARE].n < POOL_SAMPLES &&
	     (k < MIN_SAMPLES || now() - start < 2 * min_time); k++) {
		for (s = 0; s < 2; s++) {
			if (seed_round(&side[s], want, n, vecs, out[s])) {
				fprintf(stderr, "cost_bench: a seed 004 get failed\n");
				return -1;
			}
		}
	}
	for (s = 0; s < 2; s++) {
		for (ph = 0; ph < NR_PHASES; ph++)
			med[s][ph] = median(&out[s][ph]);
		/* All gets: the two kinds, weighted by their number. */
		med[s][NR_PHASES] = (med[s][P_REQUEST] * SEED_POOL +
				     med[s][P_SHARE] * (SEED_USERS - SEED_POOL)) /
				    SEED_USERS;
	}

	printf("\n### Pool get and put: seed 004\n\n");
	printf("Xeon E5-2697 v3, 2 sockets = 2 nodes of 14 cores SMT2,\n"
	       "siblings i and i + 28, 56 CPUs, distance 21 across\n"
	       "(machine_synthetic(2, 14, 2, true, 1, 14, 21, 21)).  Pool of\n"
	       "%u vectors from vector %u, numa policy, no max_users, fake\n"
	       "request and release callbacks; %u consumers x %u vectors =\n"
	       "%u users, user i asking for CPU\n"
	       "(i / 11 + (i %% 11) * 56 / 11) %% 56 alone.  %u rounds of\n"
	       "%u gets then %u puts; each round requests and releases all\n"
	       "%u vectors.  Baseline, in the same rounds: mlx5 before its SF\n"
	       "pool, the PF's vector of the consumer's CPU (an array lookup\n"
	       "and a reference count).  Medians per call: of blocks of %u\n"
	       "gets for the pool, of whole phases for its puts and for the\n"
	       "baseline; all gets weighted from the two kinds.\n\n",
	       SEED_POOL, SEED_FIRST, SEED_CONSUMERS, SEED_VECS, SEED_USERS,
	       k, SEED_USERS, SEED_USERS, SEED_POOL, side[0].block);
	printf("| operation | pool (ns) | mlx5 old (ns) | pool / old |\n");
	printf("|:---|---:|---:|---:|\n");
	for (i = 0; i < ARRAY_SIZE(phase_order); i++) {
		ph = phase_order[i];
		printf("| %s | %.1f | %.1f | %.1f |\n", phase_name[ph],
		       med[0][ph] * 1e9, med[1][ph] * 1e9,
		       med[0][ph] / med[1][ph]);
	}
	printf("\nRequests made: %lu, %u per round.\n", requests, SEED_POOL);

	irq_spread_pool_destroy(pool);
	free(vecs);
	free(want);
	machine_free(&m);
	return 0;
}

/* The host's CPU model, from /proc/cpuinfo, into @buf. */
static void host_model(char *buf, size_t size)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[256], *p;

	snprintf(buf, size, "unknown CPU");
	while (f && fgets(line, sizeof(line), f)) {
		p = strchr(line, ':');
		if (strncmp(line, "model name", 10) || !p)
			continue;
		snprintf(buf, size, "%s", p + 2);
		buf[strcspn(buf, "\n")] = 0;
		break;
	}
	if (f)
		fclose(f);
}

static const char * const method_opt[NR_METHODS] = {
	"numa", "numa-core", "core", "nth", "linear",
};

/* Option @c with @arg; -1 with a message if @arg is not one it takes. */
static int parse_option(int c, const char *arg)
{
	unsigned int i;
	char *end;

	errno = 0;
	switch (c) {
	case 't':
		min_time = strtod(arg, &end);
		if (!errno && !*end && min_time >= 0 && min_time <= 60)
			return 0;
		break;
	case 's':
		only_cpus = strtoul(arg, &end, 10);
		for (i = 0; !errno && !*end && i < NR_SIZES; i++)
			if (sizes[i] == only_cpus)
				return 0;
		break;
	case 'S':
		only_shape = strtoul(arg, &end, 10);
		if (!errno && !*end && only_shape >= 1 &&
		    only_shape <= ARRAY_SIZE(shapes))
			return 0;
		break;
	case 'm':
		for (i = 0; i < NR_METHODS; i++) {
			if (!strcmp(arg, method_opt[i])) {
				only_method = i + 1;
				return 0;
			}
		}
		break;
	default:
		return -1;
	}
	fprintf(stderr, "cost_bench: -%c %s: not a value it takes\n", c, arg);
	return -1;
}

int main(int argc, char **argv)
{
	char model[256];
	unsigned int i;
	int c;

	while ((c = getopt(argc, argv, "t:s:S:m:")) != -1) {
		if (parse_option(c, optarg))
			goto usage;
	}
	if (optind != argc)
		goto usage;

	host_model(model, sizeof(model));
	printf("Host: %s, %ld CPUs online.  Reference: a driver calling\n"
	       "cpumask_local_spread() for each vector, as Linux 6.12 has it\n"
	       "(sched_numa_find_nth_cpu() over sched_domains_numa_masks,\n"
	       "re-derived from kernel/sched/topology.c), and its linear scan\n"
	       "from before 6.3.  Each figure is a median over batches of\n"
	       "runs (>= 100 us each, after one untimed run), taken in\n"
	       "rounds of one batch of each\n"
	       "method of a row in turn for at least %.2f s per method; each\n"
	       "ratio is of two figures of this run.\n",
	       model, sysconf(_SC_NPROCESSORS_ONLN), min_time);
	for (i = 0; i < ARRAY_SIZE(shapes); i++)
		if ((!only_shape || only_shape == i + 1) &&
		    bench_shape(&shapes[i]))
			return 1;
	if (!only_cpus && !only_shape && !only_method && bench_pool())
		return 1;
	return 0;
usage:
	fprintf(stderr,
		"usage: cost_bench [-t SECONDS] [-s CPUS] [-S SHAPE] [-m METHOD]\n"
		"  -t  measure each figure for at least SECONDS (0 to 60, default 0.2)\n"
		"  -s  only the machines of CPUS CPUs (256, 1024, 4096, 8192)\n"
		"  -S  only shape SHAPE (1 or 2)\n"
		"  -m  only METHOD (numa, numa-core, core, nth, linear)\n"
		"any of -s, -S, -m leaves the pool out\n");
	return 2;
}
