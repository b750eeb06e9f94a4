// SPDX-License-Identifier: GPL-2.0
/*
 * irq_spread cost benchmark (make bench, pipeline/bench.sh): what the
 * library costs on large synthetic machines, against what it replaces, like
 * for like.  Every ratio is of two figures measured in the same run.
 * Prints markdown: a paragraph on the host and the reference, then "###"
 * sections (pipeline/bench.sh puts them under its "## Cost"); asserts
 * nothing about time.  Per machine shape (16 nodes, cores per node growing;
 * nodes of 16 cores, nodes growing to 256) and size (256 to 8192 CPUs):
 *
 *  - spread: one irq_spread_topo_cpus() of 256 vectors per policy, its
 *    release untimed, against a driver's 256 cpumask_local_spread() calls
 *    (6.3+ nth search, and the pre-6.3 linear scan) each zeroing a mask of
 *    nr_cpu_ids bits and setting the CPU in it, as a spread writes masks;
 *  - release: irq_spread_topo_release() of such a spread, the spread
 *    untimed;
 *  - per-index query: 256 irq_spread_topo_nth_cpu() (what
 *    irq_spread_local_cpu() calls) per policy, the first 256 on a freshly
 *    initialised topology (whatever the first call builds, built in them;
 *    the topology's init timed apart) and 256 warm, against 256
 *    cpumask_local_spread() calls;
 *  - growth: each figure over the previous size's;
 *  - instructions per spread at 8192 CPUs, as callgrind counted them in
 *    bench.sh's runs of -n (given with -i), beside the times;
 *
 * then a pool's get and put in seed 004's scenario against mlx5 7.3's own
 * SF pool (irq_affinity.c's search), built from its source in the same
 * make (mlx5_sf.c), both timed in the same blocks (whole phases); and the
 * acceptance ratios of issues 25 and 39.
 *
 * Usage: cost_bench [-t SECONDS] [-s CPUS] [-S SHAPE] [-m METHOD]
 *		     [-i FILE] [-n RUNS]
 *	-t	time each figure is measured for at least (default 0.2)
 *	-s, -S, -m	only one machine size, shape or method, for a
 *		profiler's run of one configuration (the pool is left out)
 *	-i	instruction counts per run to print beside the times: lines of
 *		"CPUS SHAPE METHOD INSTRUCTIONS"
 *	-n	with -s, -S and -m: run that method RUNS times, untimed, and
 *		print nothing; what a run times is in a function named
 *		timed_*, for valgrind --tool=callgrind --toggle-collect=timed_*
 *
 * The library is the engine's own code (lib/irq_spread/spread.c, pool.c),
 * built in user space by tools/irq_spread: its mutexes are no-ops there and
 * its allocations malloc(), so a kernel spread costs a little more; mlx5's
 * pool is built the same way (include/mlx5_shim.h).  The
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
#include "mlx5_sf.h"
#include "pool.h"

#define NVEC		256
#define NR_SIZES	4
#define NR_SHAPES	2
#define MIN_SAMPLES	21
#define FEW_SAMPLES	5
#define SLOW_FACTOR	5
#define MAX_SAMPLES	20000
#define WARMUP_MAX	0.01

static const unsigned int sizes[NR_SIZES] = { 256, 1024, 4096, 8192 };
static double min_time = 0.2;
/* Only these, if set (-s, -S, -m): 0 for all; a method is its index + 1. */
static unsigned int only_cpus, only_shape, only_method;
static bool only_pool;
/* -n: run the one method this many times, untimed. */
static unsigned int profile_runs;

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
 * @fn: called with @arg, once per run: what is timed
 * @prep: called with @arg before each run, untimed; or %NULL
 * @post: called with @arg after each run, untimed; or %NULL
 * @arg: for the three
 * @batch: runs per sample: enough for the clock (>= 100 us)
 * @warmup: one untimed run before each batch (runs under WARMUP_MAX s)
 * @n: samples taken
 * @sample: seconds per run, of each batch
 */
struct timed {
	void (*fn)(void *arg);
	void (*prep)(void *arg);
	void (*post)(void *arg);
	void *arg;
	unsigned int batch;
	bool warmup;
	unsigned int n;
	double sample[MAX_SAMPLES];
};

/* One run, untimed but for @x->fn; its time. */
static double time_run(struct timed *x)
{
	double t;

	if (x->prep)
		x->prep(x->arg);
	t = now();
	x->fn(x->arg);
	t = now() - t;
	if (x->post)
		x->post(x->arg);
	return t;
}

/*
 * A batch of runs, after one untimed run if @x->warmup: the caches hold
 * what the last runs of this thing left, not another's.  Runs with a
 * @prep or @post are timed one by one, and the times added up.
 */
static double time_batch(struct timed *x)
{
	unsigned int i;
	double t = 0;

	if (x->warmup)
		time_run(x);
	if (x->prep || x->post) {
		for (i = 0; i < x->batch; i++)
			t += time_run(x);
		return t;
	}
	t = now();
	for (i = 0; i < x->batch; i++)
		x->fn(x->arg);
	return now() - t;
}

/*
 * The median time of one run of each of @nr things in @x, in @t: rounds
 * of one batch of each in turn, so that they all see the same load of the
 * machine, for at least min_time each and MIN_SAMPLES rounds; but after
 * SLOW_FACTOR times that time, FEW_SAMPLES rounds do (a per-index query
 * of an engine that orders all CPUs per call takes 0.2 s at 8192 CPUs).
 */
static void measure(struct timed **x, unsigned int nr, double *t)
{
	unsigned int k, n;
	double start, el, t1;

	for (k = 0; k < nr; k++) {
		x[k]->n = 0;
		x[k]->warmup = true;
		for (x[k]->batch = 1; x[k]->batch < 1U << 20; x[k]->batch *= 2) {
			t1 = time_batch(x[k]);
			if (x[k]->batch == 1 && t1 >= WARMUP_MAX)
				x[k]->warmup = false;
			if (t1 >= 0.0001)
				break;
		}
	}
	start = now();
	for (n = 0; n < MAX_SAMPLES; n++) {
		el = now() - start;
		if (n >= MIN_SAMPLES && el >= min_time * nr)
			break;
		if (n >= FEW_SAMPLES && el >= SLOW_FACTOR * min_time * nr)
			break;
		for (k = 0; k < nr; k++)
			x[k]->sample[x[k]->n++] = time_batch(x[k]) / x[k]->batch;
	}
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
 * struct spread_run - one thing to time on a machine
 * @m: the machine
 * @peer: the kernel's view of it
 * @topo: the topology the library works on: @m's, or a fresh one
 * @policy: the library's policy
 * @node: the device's node
 * @masks: NVEC masks of @m->longs longs, where spreads write
 * @local_spread: the peer's cpumask_local_spread()
 * @cpus: NVEC CPUs, where per-index queries write
 */
struct spread_run {
	struct machine *m;
	struct peer *peer;
	struct irq_spread_topology *topo;
	enum irq_spread_policy policy;
	int node;
	unsigned long *masks;
	unsigned int (*local_spread)(const struct peer *p, unsigned int i,
				     int node);
	unsigned int cpus[NVEC];
};

static void spread(void *arg)
{
	struct spread_run *r = arg;

	if (irq_spread_topo_cpus(r->topo, r->node, NVEC, r->policy, NULL,
				 r->masks, r->m->longs)) {
		fprintf(stderr, "cost_bench: irq_spread_topo_cpus() failed\n");
		exit(1);
	}
}

static void release(void *arg)
{
	struct spread_run *r = arg;

	irq_spread_topo_release(r->topo, NVEC, r->masks, r->m->longs);
}

/*
 * A driver's loop: one CPU per vector, each from a call of r->local_spread
 * (out of line, as the kernel exports it), written as a spread writes its
 * vector's mask: all nr_cpu_ids bits zeroed, the CPU set.
 */
static void peer_spread(struct spread_run *r)
{
	unsigned int i, n = r->m->nr_cpus;
	unsigned long *mask;

	for (i = 0; i < NVEC; i++) {
		keep(r);
		mask = r->masks + i * r->m->longs;
		bitmap_zero(mask, n);
		__set_bit(r->local_spread(r->peer, i, r->node), mask);
	}
	keep(r->masks);
}

/* A driver's 256 calls of irq_spread_local_cpu(), on r->topo. */
static void lib_queries(struct spread_run *r)
{
	unsigned int i;
	int cpu;

	for (i = 0; i < NVEC; i++) {
		cpu = irq_spread_topo_nth_cpu(r->topo, r->node, i, r->policy);
		if (cpu < 0) {
			fprintf(stderr, "cost_bench: irq_spread_topo_nth_cpu() failed: %d\n",
				cpu);
			exit(1);
		}
		r->cpus[i] = cpu;
	}
	keep(r->cpus);
}

/* A driver's 256 calls of cpumask_local_spread(). */
static void peer_queries(struct spread_run *r)
{
	unsigned int i;

	for (i = 0; i < NVEC; i++) {
		keep(r);
		r->cpus[i] = r->local_spread(r->peer, i, r->node);
	}
	keep(r->cpus);
}

/*
 * A fresh topology over r->m, as machine_finish() sets one up: the
 * machine's ops, on a struct of its own (r->topo), so that the machine's
 * keeps what it built.
 */
static void topo_init(struct spread_run *r)
{
	if (irq_spread_topology_init(r->topo, r->m->topo.ops, r->m->nr_cpus,
				     r->m->nr_nodes, r->m)) {
		fprintf(stderr, "cost_bench: no memory for a topology\n");
		exit(1);
	}
}

static void topo_destroy(void *arg)
{
	struct spread_run *r = arg;

	irq_spread_topology_destroy(r->topo);
}

static void topo_refresh(void *arg)
{
	topo_destroy(arg);
	topo_init(arg);
}

/*
 * What is timed, each in a function of its own named timed_*, which
 * callgrind's --toggle-collect='timed_*' counts alone: the untimed halves
 * (spread() and release() above, the topology's reset) and the sanity
 * checks call the functions above, never these.
 */
static noinline void timed_lib_spread(void *arg)
{
	spread(arg);
}

static noinline void timed_lib_release(void *arg)
{
	release(arg);
}

static noinline void timed_peer_spread(void *arg)
{
	peer_spread(arg);
}

static noinline void timed_lib_queries(void *arg)
{
	lib_queries(arg);
}

static noinline void timed_peer_queries(void *arg)
{
	peer_queries(arg);
}

static noinline void timed_topo_init(void *arg)
{
	topo_init(arg);
}

/*
 * What is timed per machine: the three policies' spreads, the peers',
 * the releases (+ policy); then the per-index queries: the peer's, the
 * topology's init, the first 256 on a fresh topology and 256 warm (+
 * policy).  Spreads and releases are measured together, the queries
 * apart: the rounds of measure() go at the pace of the slowest.
 */
enum {
	T_NTH = IRQ_SPREAD_NR_POLICIES,
	T_LINEAR,
	T_REL,
	T_LOCAL = T_REL + IRQ_SPREAD_NR_POLICIES,
	T_INIT,
	T_FIRST,
	T_WARM = T_FIRST + IRQ_SPREAD_NR_POLICIES,
	NR_THINGS = T_WARM + IRQ_SPREAD_NR_POLICIES,
};

/* -m's names. */
static const char * const thing_opt[NR_THINGS] = {
	"numa", "numa-core", "core", "nth", "linear",
	"release-numa", "release-numa-core", "release-core",
	"local-spread", "init",
	"first-numa", "first-numa-core", "first-core",
	"warm-numa", "warm-numa-core", "warm-core",
};

static const char * const policy_name[IRQ_SPREAD_NR_POLICIES] = {
	"numa", "numa-core", "core",
};

/* @r, a copy of @base, and @x for thing @k. */
static void setup_thing(unsigned int k, const struct spread_run *base,
			struct irq_spread_topology *fresh,
			struct spread_run *r, struct timed *x)
{
	unsigned long *masks = r->masks;

	*r = *base;
	r->masks = masks;
	memset(x, 0, sizeof(*x) - sizeof(x->sample));
	x->arg = r;
	if (k < T_NTH) {
		r->policy = k;
		x->fn = timed_lib_spread;
		x->post = release;
	} else if (k < T_REL) {
		r->local_spread = k == T_LINEAR ? local_spread_old :
						  local_spread;
		x->fn = timed_peer_spread;
	} else if (k < T_LOCAL) {
		r->policy = k - T_REL;
		x->prep = spread;
		x->fn = timed_lib_release;
	} else if (k == T_LOCAL) {
		r->local_spread = local_spread;
		x->fn = timed_peer_queries;
	} else if (k == T_INIT) {
		r->topo = fresh;
		x->prep = topo_destroy;
		x->fn = timed_topo_init;
	} else if (k < T_WARM) {
		r->topo = fresh;
		r->policy = k - T_FIRST;
		x->prep = topo_refresh;
		x->fn = timed_lib_queries;
	} else {
		r->policy = k - T_WARM;
		x->fn = timed_lib_queries;
	}
}

/*
 * Not a test of the peers nor of the library, only a guard against timing
 * something broken: both peers give NVEC distinct CPUs, the same ones
 * while the device node has CPUs left (hop 0 is the node alone, by CPU
 * number in both); every policy's spread gives every vector a CPU, and
 * its slots on an idle topology are what the per-index query answers;
 * the numa policy's are cpumask_local_spread()'s while the device node
 * has CPUs left, every CPU being eligible (the node is one L3 domain;
 * past it a hop of several nodes goes one per L3 in turn, which
 * cpumask_local_spread() does not).  @r is a copy of the machine's base
 * run.
 */
static int check_run(struct spread_run *r)
{
	static const unsigned int some[] = { 0, 1, NVEC / 2 - 1, NVEC - 1 };
	unsigned int n = r->m->nr_cpus, local, i, j, p, slot;
	unsigned int nth[NVEC];
	unsigned long *seen = machine_bitmap(r->m);
	int ret = 0, cpu;

	if (!seen)
		return -1;
	local = bitmap_weight(r->m->node_cpus[r->node], n);
	r->local_spread = local_spread;
	peer_queries(r);
	memcpy(nth, r->cpus, sizeof(nth));
	r->local_spread = local_spread_old;
	peer_queries(r);
	for (i = 0; i < NVEC; i++) {
		if (nth[i] >= n || r->cpus[i] >= n || test_bit(nth[i], seen) ||
		    (i < local && nth[i] != r->cpus[i]))
			ret = -1;
		else
			__set_bit(nth[i], seen);
	}
	for (p = 0; !ret && p < IRQ_SPREAD_NR_POLICIES; p++) {
		if (irq_spread_topo_spread(r->topo, r->node, NVEC, p, NULL,
					   r->masks, r->m->longs,
					   IRQ_SPREAD_SLOT_ONLY |
					   IRQ_SPREAD_NO_HOLD))
			ret = -1;
		for (j = 0; !ret && j < ARRAY_SIZE(some); j++) {
			i = some[j];
			slot = find_first_bit(r->masks + i * r->m->longs, n);
			cpu = irq_spread_topo_nth_cpu(r->topo, r->node, i, p);
			if (slot >= n || cpu != (int)slot ||
			    (p == IRQ_SPREAD_NUMA && i < local &&
			     slot != nth[i]))
				ret = -1;
		}
		r->policy = p;
		spread(r);
		for (i = 0; !ret && i < NVEC; i++)
			if (bitmap_empty(r->masks + i * r->m->longs, n))
				ret = -1;
		release(r);
	}
	free(seen);
	return ret;
}

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

static const struct shape shapes[NR_SHAPES] = {
	{ "16 nodes (8 per socket), cores per node grow",
	  fixed_nodes, fixed_nodes_cores },
	{ "nodes of 16 cores (32 CPUs), nodes grow to 256 (half per socket)",
	  growing_nodes, growing_nodes_cores },
};

/* Seconds per run, by shape, size and thing; 0 if not measured. */
static double res[NR_SHAPES][NR_SIZES][NR_THINGS];
/* Instructions per run (-i); 0 if not given. */
static double instr[NR_SHAPES][NR_SIZES][NR_THINGS];

static double ratio(double a, double b)
{
	return a > 0 && b > 0 ? a / b : 0;
}

/* A table cell: @v by @fmt, or "-" if it was not measured. */
static void cell(const char *fmt, double v)
{
	if (v > 0)
		printf(fmt, v);
	else
		printf(" - |");
}

static bool wanted(unsigned int thing)
{
	return !only_method || only_method == thing + 1;
}

/*
 * The header line of a table and its alignment line: the CPUs, the
 * machine if @machine, then @cols.
 */
static void table_head(bool machine, const char * const *cols,
		       unsigned int nr)
{
	unsigned int k;

	printf("| CPUs |%s", machine ? " nodes x cores x SMT |" : "");
	for (k = 0; k < nr; k++)
		printf(" %s |", cols[k]);
	printf("\n|---:|%s", machine ? ":---|" : "");
	for (k = 0; k < nr; k++)
		printf("---:|");
	printf("\n");
}

/* Whether any of @t[@from..@to - 1] was measured. */
static bool measured(const double *t, unsigned int from, unsigned int to)
{
	for (; from < to; from++)
		if (t[from] > 0)
			return true;
	return false;
}

static void print_shape(unsigned int si)
{
	static const char * const spread_cols[] = {
		"numa (us)", "numa-core (us)", "core (us)",
		"6.3+ nth search (us)", "pre-6.3 linear (us)",
		"numa / nth", "numa-core / nth", "core / nth",
		"pre-6.3 / nth", "numa-core / numa",
	};
	static const char * const release_cols[] = {
		"numa (us)", "numa-core (us)", "core (us)",
		"numa / its spread", "numa-core / its spread",
		"core / its spread",
	};
	static const char * const query_cols[] = {
		"cpumask_local_spread (us)", "topology init (us)",
		"numa first (us)", "numa warm (us)",
		"numa-core first (us)", "numa-core warm (us)",
		"core first (us)", "core warm (us)",
		"numa first / ls", "numa warm / ls",
		"numa-core first / ls", "numa-core warm / ls",
		"core first / ls", "core warm / ls",
	};
	static const char * const growth_cols[] = {
		"size factor", "numa", "numa-core", "core", "nth", "pre-6.3",
		"local_spread", "first numa", "first numa-core", "first core",
		"warm numa", "warm numa-core", "warm core",
	};
	static const unsigned int growth_things[] = {
		0, 1, 2, T_NTH, T_LINEAR, T_LOCAL, T_FIRST, T_FIRST + 1,
		T_FIRST + 2, T_WARM, T_WARM + 1, T_WARM + 2,
	};
	const struct shape *s = &shapes[si];
	unsigned int z, k, p, c;
	double (*t)[NR_THINGS] = res[si], first, warm;
	bool any_instr = false;

	printf("\n### Spreading %u vectors: %s\n\n", NVEC, s->name);
	printf("2 sockets, SMT%u, siblings interleaved as Intel and AMD\n"
	       "firmware number them (cpu, cpu + CPUs / 2), one L3 per node,\n"
	       "distances 10 / %u within a socket / %u across, device on\n"
	       "node 0, every CPU online.  Median time per whole spread of\n"
	       "%u vectors: the library's irq_spread_topo_cpus() (its\n"
	       "release untimed), or cpumask_local_spread() for each vector;\n"
	       "both write %u masks of nr_cpu_ids bits (the peers zero one\n"
	       "and set the CPU).\n\n", SMT, NEAR, FAR, NVEC, NVEC);
	table_head(true, spread_cols, ARRAY_SIZE(spread_cols));
	for (z = 0; z < NR_SIZES; z++) {
		if (!measured(t[z], 0, T_REL))
			continue;
		printf("| %u | %u x %u x %u |", sizes[z], s->nodes(sizes[z]),
		       s->cores(sizes[z]), SMT);
		for (k = 0; k < T_REL; k++)
			cell(" %.1f |", t[z][k] * 1e6);
		for (k = 0; k < T_REL; k++)
			if (k != T_NTH)
				cell(" %.2f |", ratio(t[z][k], t[z][T_NTH]));
		cell(" %.2f |", ratio(t[z][IRQ_SPREAD_NUMA_CORE],
				      t[z][IRQ_SPREAD_NUMA]));
		printf("\n");
	}

	printf("\nRelease of such a spread, irq_spread_topo_release(), the\n"
	       "spread untimed:\n\n");
	table_head(false, release_cols, ARRAY_SIZE(release_cols));
	for (z = 0; z < NR_SIZES; z++) {
		if (!measured(t[z], T_REL, T_LOCAL))
			continue;
		printf("| %u |", sizes[z]);
		for (p = 0; p < IRQ_SPREAD_NR_POLICIES; p++)
			cell(" %.1f |", t[z][T_REL + p] * 1e6);
		for (p = 0; p < IRQ_SPREAD_NR_POLICIES; p++)
			cell(" %.2f |", ratio(t[z][T_REL + p], t[z][p]));
		printf("\n");
	}

	printf("\nPer-index query: a driver's %u calls, one per vector, of\n"
	       "irq_spread_local_cpu() (irq_spread_topo_nth_cpu() on the\n"
	       "machine's topology) against its %u calls of\n"
	       "cpumask_local_spread() (ls).  First: the first %u calls on a\n"
	       "freshly initialised topology, so whatever the first call\n"
	       "builds; warm: %u calls after those.  The topology's init is\n"
	       "timed apart, and counted in \"first / ls\".\n\n",
	       NVEC, NVEC, NVEC, NVEC);
	table_head(false, query_cols, ARRAY_SIZE(query_cols));
	for (z = 0; z < NR_SIZES; z++) {
		if (!measured(t[z], T_LOCAL, NR_THINGS))
			continue;
		printf("| %u |", sizes[z]);
		cell(" %.1f |", t[z][T_LOCAL] * 1e6);
		cell(" %.2f |", t[z][T_INIT] * 1e6);
		for (p = 0; p < IRQ_SPREAD_NR_POLICIES; p++) {
			cell(" %.1f |", t[z][T_FIRST + p] * 1e6);
			cell(" %.1f |", t[z][T_WARM + p] * 1e6);
		}
		for (p = 0; p < IRQ_SPREAD_NR_POLICIES; p++) {
			first = t[z][T_FIRST + p] > 0 ?
				t[z][T_FIRST + p] + t[z][T_INIT] : 0;
			warm = t[z][T_WARM + p];
			cell(" %.2f |", ratio(first, t[z][T_LOCAL]));
			cell(" %.2f |", ratio(warm, t[z][T_LOCAL]));
		}
		printf("\n");
	}

	printf("\nGrowth: each time over the previous size's (a linear cost\n"
	       "grows by the size factor).\n\n");
	table_head(false, growth_cols, ARRAY_SIZE(growth_cols));
	for (z = 1; z < NR_SIZES; z++) {
		if (!measured(t[z], 0, NR_THINGS) ||
		    !measured(t[z - 1], 0, NR_THINGS))
			continue;
		printf("| %u | x%u |", sizes[z], sizes[z] / sizes[z - 1]);
		for (c = 0; c < ARRAY_SIZE(growth_things); c++) {
			k = growth_things[c];
			cell(" x%.2f |", ratio(t[z][k], t[z - 1][k]));
		}
		printf("\n");
	}

	for (z = 0; z < NR_SIZES; z++)
		for (k = 0; k < NR_THINGS; k++)
			any_instr |= instr[si][z][k] > 0;
	if (!any_instr)
		return;
	printf("\nInstructions per run, as callgrind counts them\n"
	       "(pipeline/bench.sh: cost_bench -n under\n"
	       "valgrind --tool=callgrind --toggle-collect='timed_*'), beside\n"
	       "this run's times; growth: over the previous size's count.\n\n");
	printf("| CPUs | method | instructions (M) | / nth's | growth | time (us) |\n");
	printf("|---:|:---|---:|---:|---:|---:|\n");
	for (z = 0; z < NR_SIZES; z++) {
		for (k = 0; k < NR_THINGS; k++) {
			if (!(instr[si][z][k] > 0))
				continue;
			printf("| %u | %s | %.3f |", sizes[z], thing_opt[k],
			       instr[si][z][k] / 1e6);
			cell(" %.2f |", ratio(instr[si][z][k],
					      instr[si][z][T_NTH]));
			cell(" x%.2f |", z ? ratio(instr[si][z][k],
						   instr[si][z - 1][k]) : 0);
			cell(" %.1f |", t[z][k] * 1e6);
			printf("\n");
		}
	}
}

/* Measure the wanted things among @from..@to - 1 of @run, into @t. */
static void measure_things(struct spread_run *run, struct timed *timed,
			   unsigned int from, unsigned int to, double *t)
{
	struct timed *x[NR_THINGS];
	unsigned int k, nr = 0, which[NR_THINGS];
	double got[NR_THINGS];

	for (k = from; k < to; k++) {
		if (!wanted(k))
			continue;
		which[nr] = k;
		x[nr++] = &timed[k];
	}
	if (!nr)
		return;
	measure(x, nr, got);
	for (k = 0; k < nr; k++)
		t[which[k]] = got[k];
}

static int bench_shape(unsigned int si)
{
	static struct timed timed[NR_THINGS];
	const struct shape *s = &shapes[si];
	struct spread_run run[NR_THINGS], base = { .node = 0 };
	struct irq_spread_topology fresh;
	unsigned int z, k, nodes, cores;
	struct machine m;
	struct peer p;
	int ret = 0;

	for (z = 0; z < NR_SIZES && !ret; z++) {
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
		memset(run, 0, sizeof(run));
		base.m = &m;
		base.peer = &p;
		base.topo = &m.topo;
		base.masks = calloc(NVEC * m.longs, sizeof(long));
		for (k = 0; k < T_LOCAL; k++)
			run[k].masks = calloc(NVEC * m.longs, sizeof(long));
		for (k = 0; k < NR_THINGS; k++)
			setup_thing(k, &base, &fresh, &run[k], &timed[k]);
		/* The fresh topology, for the first queries. */
		topo_init(&run[T_INIT]);
		ret = !base.masks || !run[T_LOCAL - 1].masks ||
		      peer_init(&p, &m) || check_run(&base);
		if (ret) {
			fprintf(stderr, "cost_bench: %u CPUs: setup or sanity check failed\n",
				m.nr_cpus);
		} else if (profile_runs) {
			for (k = 0; k < profile_runs; k++)
				time_run(&timed[only_method - 1]);
		} else {
			measure_things(run, timed, 0, T_LOCAL, res[si][z]);
			measure_things(run, timed, T_LOCAL, NR_THINGS,
				       res[si][z]);
		}
		irq_spread_topology_destroy(&fresh);
		peer_free(&p, m.nr_nodes);
		for (k = 0; k < T_LOCAL; k++)
			free(run[k].masks);
		free(base.masks);
		machine_free(&m);
	}
	if (!ret && !profile_runs)
		print_shape(si);
	return ret ? -1 : 0;
}

/* -i: "CPUS SHAPE METHOD INSTRUCTIONS" lines, into instr[][][]. */
static int read_instr(const char *path)
{
	char line[256], method[64];
	unsigned int cpus, shape, z, k;
	double count;
	FILE *f = fopen(path, "r");

	if (!f) {
		fprintf(stderr, "cost_bench: %s: %s\n", path, strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%u %u %63s %lf", &cpus, &shape, method,
			   &count) != 4)
			goto bad;
		for (z = 0; z < NR_SIZES && sizes[z] != cpus; z++)
			;
		for (k = 0; k < NR_THINGS && strcmp(thing_opt[k], method); k++)
			;
		if (z == NR_SIZES || k == NR_THINGS || shape < 1 ||
		    shape > NR_SHAPES)
			goto bad;
		instr[shape - 1][z][k] = count;
	}
	fclose(f);
	return 0;
bad:
	fprintf(stderr, "cost_bench: %s: not \"CPUS SHAPE METHOD INSTRUCTIONS\": %s",
		path, line);
	fclose(f);
	return -1;
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

/**
 * struct fake_driver - the pool's driver: makes its IRQ object as mlx5 does
 * @irq: per vector, the object, while requested
 * @requests: requests made
 */
struct fake_driver {
	void *irq[SEED_POOL];
	unsigned long requests;
};

/* Hands out irq 1000 + vector, with an IRQ object as mlx5_sf.c makes one. */
static int fake_request(void *priv, unsigned int vector,
			const struct cpumask *mask)
{
	struct fake_driver *drv = priv;

	drv->irq[vector - SEED_FIRST] = mlx5_sf_bench_irq_new(cpumask_bits(mask));
	if (!drv->irq[vector - SEED_FIRST])
		return -ENOMEM;
	drv->requests++;
	return 1000 + vector;
}

static void fake_release(void *priv, unsigned int vector,
			 unsigned int irq __always_unused)
{
	struct fake_driver *drv = priv;

	mlx5_sf_bench_irq_free(drv->irq[vector - SEED_FIRST]);
}

static const struct irq_spread_pool_ops fake_ops = {
	.request	= fake_request,
	.release	= fake_release,
};

/**
 * struct consumers - how the scenario's users get and put vectors
 * @get: a vector for the user on @cpu (@cpus holds it alone): its handle,
 *	negative or 0 if none
 * @put: give back the vector of handle @h
 * @ctx: for both
 *
 * Both sides are called through these pointers, which the compiler must
 * load (keep()), as a module calls the pool.
 */
struct consumers {
	long (*get)(void *ctx, const unsigned long *cpus, unsigned int cpu);
	void (*put)(void *ctx, long h);
	void *ctx;
};

/* The pool's handle is the vector number, which is never 0 here. */
static long pool_get(void *ctx, const unsigned long *cpus,
		     unsigned int cpu __always_unused)
{
	return irq_spread_pool_get(ctx, cpus ? to_cpumask(cpus) : NULL);
}

static void pool_put(void *ctx, long h)
{
	irq_spread_pool_put(ctx, h);
}

/*
 * mlx5 7.3: an SF event queue's IRQ for the CPU, from the SF completion
 * pool (mlx5_irq_affinity_request() and the event queue's reference), and
 * its release; the handle is the IRQ.
 */
static long mlx5_get(void *ctx, const unsigned long *cpus __always_unused,
		     unsigned int cpu)
{
	return (long)mlx5_sf_bench_get(ctx, cpu);
}

static void mlx5_put(void *ctx, long h)
{
	mlx5_sf_bench_put(ctx, (void *)h);
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
 * timed as one block: one sample, per get.  Both sides are timed by the
 * same blocks, whole phases.
 */
static void seed_gets(const struct consumers *c, unsigned long *want,
		      unsigned int n, long *vecs, unsigned int from,
		      unsigned int to, struct samples *out)
{
	unsigned int i, cpu;
	double t;

	t = now();
	for (i = from; i < to; i++) {
		cpu = seed_cpu(i, n);
		__set_bit(cpu, want);
		keep(c);
		vecs[i] = c->get(c->ctx, want, cpu);
		__clear_bit(cpu, want);
	}
	add_sample(out, (now() - t) / (to - from));
}

/*
 * One round of the scenario: 255 gets, 2495 gets, then 2750 puts in the
 * same order, each phase timed as one block.  Return -1 if a get gave no vector.
 */
static int seed_round(const struct consumers *c, unsigned long *want,
		      unsigned int n, long *vecs, struct samples *out)
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
		if (vecs[i] <= 0)
			return -1;
	return 0;
}

/* Per call, pool's [0] and mlx5's [1], by phase, then all gets. */
static double pool_med[2][NR_PHASES + 1];

static int bench_pool(void)
{
	static struct samples out[2][NR_PHASES];
	static struct fake_driver drv;
	double (*med)[NR_PHASES + 1] = pool_med, start;
	unsigned long *want, allocs;
	struct irq_spread_pool_info info = {
		.name = "seed004", .node = 0, .policy = IRQ_SPREAD_NUMA,
		.first_vector = SEED_FIRST, .nr_vectors = SEED_POOL,
		.ops = &fake_ops, .priv = &drv,
	};
	struct consumers side[2] = {
		{ .get = pool_get, .put = pool_put },
		{ .get = mlx5_get, .put = mlx5_put },
	};
	struct irq_spread_pool *pool;
	struct mlx5_sf_bench *sf;
	unsigned int n, k, s, ph, i;
	struct machine m;
	long *vecs;

	/* 2 nodes of 14 cores SMT2, one L3 each, distance 21 across. */
	if (machine_synthetic(&m, 2, 14, 2, true, 1, 14, 21, 21) ||
	    m.nr_cpus != SEED_FIRST) {
		fprintf(stderr, "cost_bench: cannot build the Xeon E5-2697 v3\n");
		return -1;
	}
	n = m.nr_cpus;
	want = machine_bitmap(&m);
	vecs = calloc(SEED_USERS, sizeof(*vecs));
	sf = mlx5_sf_bench_create(n, SEED_FIRST, SEED_POOL);
	pool = irq_spread_pool_topo_create(&m.topo, &info);
	if (!want || !vecs || IS_ERR(pool)) {
		fprintf(stderr, "cost_bench: cannot create the pool\n");
		return -1;
	}
	side[0].ctx = pool;
	side[1].ctx = sf;

	/*
	 * Rounds of the pool's, each followed by one of mlx5's.  The puts of
	 * a round release every vector, so each round's first 255 gets
	 * request them again.
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
	allocs = mlx5_sf_bench_allocs(sf);

	printf("\n### Pool get and put: seed 004, against mlx5 7.3\n\n");
	printf("Xeon E5-2697 v3, 2 sockets = 2 nodes of 14 cores SMT2,\n"
	       "siblings i and i + 28, 56 CPUs, distance 21 across\n"
	       "(machine_synthetic(2, 14, 2, true, 1, 14, 21, 21)).  %u SFs x\n"
	       "%u vectors = %u users over %u vectors from vector %u, user i\n"
	       "asking for CPU (i / 11 + (i %% 11) * 56 / 11) %% 56 alone.\n"
	       "%u rounds of %u gets then %u puts, each round requesting and\n"
	       "releasing every vector.  Pool: numa policy, no max_users.\n"
	       "mlx5: its SF completion pool (mlx5_sf_comp, thresholds 1 and 8\n"
	       "event queues per IRQ), irq_affinity.c and the IRQ functions of\n"
	       "pci_irq.c built from the 7.3 source in this make; a get is\n"
	       "mlx5_irq_affinity_request() and the event queue's reference\n"
	       "(mlx5_irq_attach_nb()), a put mlx5_irq_detach_nb() and\n"
	       "mlx5_irq_affinity_irq_release().  Both drivers make the same\n"
	       "IRQ object per request and request nothing of the interrupt\n"
	       "core.  Both timed by the same blocks, one per phase (%u, %u\n"
	       "and %u operations), a round of the pool's then one of mlx5's;\n"
	       "medians per call; all gets weighted from the two kinds.\n\n",
	       SEED_CONSUMERS, SEED_VECS, SEED_USERS, SEED_POOL, SEED_FIRST,
	       k, SEED_USERS, SEED_USERS, SEED_POOL, SEED_USERS - SEED_POOL,
	       SEED_USERS);
	printf("| operation | pool (ns) | mlx5 7.3 (ns) | pool / mlx5 |\n");
	printf("|:---|---:|---:|---:|\n");
	for (i = 0; i < ARRAY_SIZE(phase_order); i++) {
		ph = phase_order[i];
		printf("| %s | %.1f | %.1f | %.2f |\n", phase_name[ph],
		       med[0][ph] * 1e9, med[1][ph] * 1e9,
		       med[0][ph] / med[1][ph]);
	}
	printf("\nIRQs requested: pool %lu, mlx5 %lu; %u rounds.\n",
	       drv.requests, allocs, k);

	irq_spread_pool_destroy(pool);
	mlx5_sf_bench_destroy(sf);
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

/* One row of the acceptance table: @v against @target (@le: at most). */
static void accept_row(const char *what, const char *fmt, double v,
		       double target, bool le)
{
	char buf[64];

	if (!(v > 0)) {
		printf("| %s | - | %s %g | - |\n", what, le ? "<=" : "<",
		       target);
		return;
	}
	snprintf(buf, sizeof(buf), fmt, v);
	printf("| %s | %s | %s %g | %s |\n", what, buf, le ? "<=" : "<",
	       target, (le ? v <= target : v < target) ? "yes" : "no");
}

/* The growth of policy @p's spread from 4096 to 8192 CPUs in @v. */
static void accept_growth(double (*v)[NR_THINGS], unsigned int si,
			  unsigned int p, const char *how)
{
	char what[160];

	snprintf(what, sizeof(what),
		 "%s spread growth%s, 4096 to 8192 CPUs, %s", policy_name[p],
		 how, si ? "128 to 256 nodes" : "16 nodes");
	accept_row(what, "x%.2f", ratio(v[NR_SIZES - 1][p], v[NR_SIZES - 2][p]),
		   2.1, true);
}

/*
 * Issues 25's and 39's acceptance, from this run's figures: 8192 CPUs,
 * 16 nodes unless said.  Printed, not asserted: they are one noisy run's.
 */
static void print_acceptance(void)
{
	const unsigned int z = NR_SIZES - 1;
	double (*t)[NR_THINGS] = res[0], first;
	char what[160];
	unsigned int p, si;

	printf("\n### Issues 25 and 39 acceptance, from this run\n\n");
	printf("8192 CPUs, 16 nodes unless said; times of this run's tables\n"
	       "(\"met\" is this one run's word: the figures are noisy).\n\n");
	printf("| figure | this run | target | met |\n|:---|---:|---:|:---|\n");
	for (p = 0; p < IRQ_SPREAD_NR_POLICIES; p++) {
		snprintf(what, sizeof(what), "%s spread / 256 nth searches",
			 policy_name[p]);
		accept_row(what, "%.2f", ratio(t[z][p], t[z][T_NTH]),
			   p == IRQ_SPREAD_NUMA ? 0.8 : 1.0, true);
	}
	accept_row("numa-core spread / numa spread", "%.2f",
		   ratio(t[z][IRQ_SPREAD_NUMA_CORE], t[z][IRQ_SPREAD_NUMA]),
		   1.3, true);
	for (si = 0; si < NR_SHAPES; si++) {
		for (p = 0; p < IRQ_SPREAD_NR_POLICIES; p++) {
			accept_growth(res[si], si, p, "");
			/* The same in instructions: no noise. */
			if (instr[si][z][p] > 0)
				accept_growth(instr[si], si, p,
					      " in instructions");
		}
	}
	accept_row("numa-core spread, instructions (M)", "%.3f",
		   instr[0][z][IRQ_SPREAD_NUMA_CORE] / 1e6, 0.8, false);
	for (p = 0; p < IRQ_SPREAD_NR_POLICIES; p++) {
		first = t[z][T_FIRST + p] > 0 ?
			t[z][T_FIRST + p] + t[z][T_INIT] : 0;
		snprintf(what, sizeof(what),
			 "256 x local_cpu %s, first on a fresh topology (init included) / 256 x cpumask_local_spread",
			 policy_name[p]);
		accept_row(what, "%.2f", ratio(first, t[z][T_LOCAL]), 1.0,
			   true);
		snprintf(what, sizeof(what),
			 "256 x local_cpu %s, warm / 256 x cpumask_local_spread",
			 policy_name[p]);
		accept_row(what, "%.2f", ratio(t[z][T_WARM + p], t[z][T_LOCAL]),
			   1.0, true);
	}
	accept_row("pool get, all 2750 / mlx5 7.3's (issue 39)", "%.2f",
		   ratio(pool_med[0][NR_PHASES], pool_med[1][NR_PHASES]), 1.0,
		   true);
	accept_row("pool put, all 2750 / mlx5 7.3's (issue 39)", "%.2f",
		   ratio(pool_med[0][P_PUT], pool_med[1][P_PUT]), 1.0, true);
}

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
		    only_shape <= NR_SHAPES)
			return 0;
		break;
	case 'm':
		for (i = 0; i < NR_THINGS; i++) {
			if (!strcmp(arg, thing_opt[i])) {
				only_method = i + 1;
				return 0;
			}
		}
		break;
	case 'P':
		only_pool = true;
		return 0;
	case 'n':
		profile_runs = strtoul(arg, &end, 10);
		if (!errno && !*end && profile_runs >= 1 &&
		    profile_runs <= 1000000)
			return 0;
		break;
	case 'i':
		return read_instr(arg);
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

	while ((c = getopt(argc, argv, "t:s:S:m:i:n:P")) != -1) {
		if (parse_option(c, optarg))
			goto usage;
	}
	if (optind != argc ||
	    (profile_runs && (!only_cpus || !only_shape || !only_method)) ||
	    (only_pool && (only_cpus || only_shape || only_method)))
		goto usage;

	if (!profile_runs) {
		host_model(model, sizeof(model));
		printf("Host: %s, %ld CPUs online.  Reference: a driver calling\n"
		       "cpumask_local_spread() for each vector, as Linux 6.12 has it\n"
		       "(sched_numa_find_nth_cpu() over sched_domains_numa_masks,\n"
		       "re-derived from kernel/sched/topology.c), and its linear scan\n"
		       "from before 6.3.  Each figure is a median over batches of\n"
		       "runs (>= 100 us each, after one untimed run unless a run\n"
		       "takes 10 ms), taken in rounds of one batch of each method\n"
		       "of a table row in turn, for at least %.2f s per method and\n"
		       "%u rounds, or %u rounds past %u times that time; each ratio\n"
		       "is of two figures of this run.\n",
		       model, sysconf(_SC_NPROCESSORS_ONLN), min_time,
		       MIN_SAMPLES, FEW_SAMPLES, SLOW_FACTOR);
	}
	for (i = 0; !only_pool && i < NR_SHAPES; i++)
		if ((!only_shape || only_shape == i + 1) && bench_shape(i))
			return 1;
	if (profile_runs)
		return 0;
	if (!only_cpus && !only_shape && !only_method && bench_pool())
		return 1;
	if (only_pool)
		return 0;
	print_acceptance();
	return 0;
usage:
	fprintf(stderr,
		"usage: cost_bench [-t SECONDS] [-s CPUS] [-S SHAPE] [-m METHOD] [-i FILE] [-n RUNS] [-P]\n"
		"  -t  measure each figure for at least SECONDS (0 to 60, default 0.2)\n"
		"  -s  only the machines of CPUS CPUs (256, 1024, 4096, 8192)\n"
		"  -S  only shape SHAPE (1: 16 nodes, 2: nodes grow)\n"
		"  -m  only METHOD: numa, numa-core, core, nth, linear (spreads),\n"
		"      release-POLICY, local-spread, init, first-POLICY, warm-POLICY\n"
		"      (256 per-index queries)\n"
		"  -i  instructions per run to print beside the times: lines of\n"
		"      \"CPUS SHAPE METHOD INSTRUCTIONS\"\n"
		"  -n  with -s, -S and -m: run that method RUNS times untimed, print\n"
		"      nothing (for valgrind --tool=callgrind --toggle-collect='timed_*')\n"
		"  -P  only the pool's get and put\n"
		"any of -s, -S, -m leaves the pool out\n");
	return 2;
}
