// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target over the irq_spread engine and pools (issue 14).
 *
 * The input is a machine (nodes, distances, cores, SMT numbering, offline,
 * isolated and nohz_full CPUs, L3 domains) and a sequence of operations on
 * its topology: spreads of devices, releases, CPUs leaving, pools and their
 * gets and puts.  Every output is checked against the rules the engine's
 * and the pool's comments state (lib/irq_spread/spread.c, pool.c), worked
 * out here from the machine's description, never by running the engine's
 * algorithm again:
 *
 *  - arguments: a bad node, policy, flag, stride, no vector or no masks is
 *    -EINVAL; no usable CPU at all is -ENODEV; an error writes no mask and
 *    changes no load;
 *  - usable CPUs: eligible, not leaving, not excluded; eligible and not
 *    leaving when the exclusion leaves none; every online CPU not
 *    leaving when no eligible CPU is left, every online CPU when that
 *    leaves none;
 *  - slots: vector i takes slot i modulo the number of slots, so the first
 *    round visits distinct CPUs and every CPU gets floor or ceil of
 *    nvec / slots vectors;
 *  - order: the first round is the usable CPUs sorted by the policy's keys
 *    (numa: tier, load, round, domain load, CPU; numa-core: tier, rank,
 *    core load, load, round, domain load, CPU; core: rank, tier, core
 *    load, load, round, domain load, CPU; round and domain load over the
 *    machine's L3 domains), with tiers by the hop rule
 *    (the distinct distances from the device node to the usable CPUs'
 *    nodes, nearest first; CPUs of no node last) and the loads of the
 *    earlier devices; and, named on their own: nearest tier first, a core
 *    wholly in a tier gets its second slot of that tier only once every
 *    such core of the tier has one (numa-core), a core gets a second slot
 *    only once every usable core has one (core);
 *  - masks: the slot's CPU alone, but for numa-core without
 *    IRQ_SPREAD_SLOT_ONLY: the core's usable threads when the spread puts a
 *    single vector on that core (the slots are learnt from the same spread
 *    with IRQ_SPREAD_SLOT_ONLY, which only changes the masks); the bits
 *    past the machine's CPUs of each stride cleared;
 *  - load: the topology's load is the sum of every live placement's masks
 *    (this file's own count), before and after every operation; a spread
 *    with IRQ_SPREAD_NO_HOLD is placed the same and counts in none;
 *  - pools: creation rejects bad info; a get takes step 1, 2 or 3 of
 *    pool.c as its comment orders them (least used with room among the
 *    asked CPUs, else the first vector not requested, placed by the engine
 *    within the asked CPUs, else the least used with room at the nearest
 *    level); the request and release callbacks come exactly when a vector
 *    gains its first user and loses its last, the mask unchanged in
 *    between; no vector gets more users than the driver's bound; a failed
 *    request changes nothing.
 *
 * Any broken rule, and any WARN_ON() of the engine, aborts.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "machine.h"
#include "pool.h"

#define MAX_CPUS	300
#define MAX_NODES	8
#define MAX_HELD	6
#define MAX_OPS		24
#define MAX_POOL_VECS	48
#define FILL		0xa5a5a5a5a5a5a5a5UL

struct input {
	const uint8_t *p;
	size_t n;
};

static unsigned int in8(struct input *in)
{
	if (!in->n)
		return 0;
	in->n--;
	return *in->p++;
}

static unsigned int in16(struct input *in)
{
	unsigned int lo = in8(in);

	return lo | in8(in) << 8;
}

/* A spread still counted in the load. */
struct held {
	unsigned int nvec;
	size_t stride;
	unsigned long *masks;
};

/* A pool and what this file knows of it. */
struct pool_model {
	struct irq_spread_pool *pool;
	struct irq_spread_pool_info info;
	unsigned int users[MAX_POOL_VECS];
	int irq[MAX_POOL_VECS];
	unsigned long *mask[MAX_POOL_VECS];	/* copy, while requested */
	const unsigned long *given[MAX_POOL_VECS]; /* the request's mask */
	int fail;		/* the next request's error, or 0 */
	unsigned int nr_req;	/* request calls in this operation */
	unsigned int req_vec;
	unsigned int nr_rel;	/* release calls in this operation */
	unsigned int rel_vec;
};

struct fuzz {
	struct machine m;
	unsigned int n;
	size_t longs;
	unsigned int op;
	struct held held[MAX_HELD];
	unsigned int nr_held;
	unsigned long *leaving;	/* topo.leaving when set */
	struct pool_model pm;
	/* scratch */
	unsigned int *load;
	unsigned int *tier;
	unsigned int *rank;
	unsigned int *core_load;
	unsigned int *round;
	unsigned int *dload;
	unsigned int *count;
	unsigned int *slots;
	unsigned long *usable;
	unsigned long *tmp;
	unsigned long *tmp2;
	unsigned long *exclude;
	unsigned long *asked;
};

static struct fuzz *cur;

static __printf(1, 2) __noreturn void broken(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "fuzz_engine: operation %u: rule violated: ",
		cur ? cur->op : 0);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	abort();
}

static unsigned long *fz_bitmap(struct fuzz *f)
{
	return calloc(f->longs, sizeof(unsigned long));
}

/*
 * A CPU set: mostly empty, else all, a few CPUs, a range, every k-th or
 * bit by bit.  @allow_null: one mode gives %NULL.
 */
static unsigned long *decode_mask(struct fuzz *f, struct input *in,
				  unsigned long *dst, bool allow_null)
{
	unsigned int n = f->n, mode = in8(in) % 10, k, i, a, b;

	bitmap_zero(dst, n);
	switch (mode) {
	case 0:
	case 1:
	case 2:
		return allow_null && mode == 2 ? NULL : dst;
	case 3:
		for (i = 0; i < n; i++)
			__set_bit(i, dst);
		break;
	case 4:
	case 5:
		k = 1 + in8(in) % 8;
		for (i = 0; i < k; i++)
			__set_bit(in16(in) % n, dst);
		break;
	case 6:
		a = in16(in) % n;
		b = a + in16(in) % n;
		for (i = a; i <= b && i < n; i++)
			__set_bit(i, dst);
		break;
	case 7:
		a = in8(in) % n;
		k = 1 + in8(in) % 8;
		for (i = a; i < n; i += k)
			__set_bit(i, dst);
		break;
	default:
		for (i = 0; i < n; i += 8) {
			b = in8(in);
			for (k = 0; k < 8 && i + k < n; k++)
				if (b & (1 << k))
					__set_bit(i + k, dst);
		}
		break;
	}
	return dst;
}

/*
 * The machine: 1..8 nodes, some without CPUs; SMT 1..4, siblings adjacent
 * or numbered as Intel firmware does; cores on nodes in blocks or at random,
 * optionally a core's threads on different nodes or CPUs of no node.
 */
static int build_machine(struct fuzz *f, struct input *in)
{
	struct machine *m = &f->m;
	unsigned int nodes = 1 + in8(in) % MAX_NODES;
	unsigned int smt = 1 + in8(in) % 4;
	unsigned int cores = 1 + in16(in) % (MAX_CPUS / smt);
	unsigned int fl = in8(in), used, off, l3div, g, t, i, j, cpu, node;
	bool interleave = fl & 1, sym = fl & 2, at_random = fl & 4;
	bool any_dist = fl & 8, online_sibs = fl & 16, split = fl & 32;
	bool strays = fl & 64, offline_sibs = fl & 128;
	unsigned long *off_mask;
	char err[256];
	int d;

	if (machine_alloc(m, cores * smt, nodes))
		return -1;
	f->n = m->nr_cpus;
	f->longs = m->longs;
	for (i = 0; i < nodes; i++) {
		for (j = 0; j < nodes; j++) {
			if (i == j)
				d = 10;
			else if (sym && j < i)
				d = machine_distance(m, j, i);
			else if (any_dist)
				d = 1 + in8(in) % 255;
			else
				d = 10 + in8(in) % 246;
			m->distance[i * nodes + j] = d;
		}
	}
	used = 1 + in8(in) % nodes;
	off = in8(in) % nodes;
	l3div = 1 + in8(in) % 8;
	off_mask = fz_bitmap(f);
	if (!off_mask)
		return -1;
	decode_mask(f, in, off_mask, false);
	decode_mask(f, in, m->isolated, false);
	decode_mask(f, in, m->nohz_full, false);
	for (cpu = 0; cpu < f->n; cpu++)
		if (!test_bit(cpu, off_mask))
			__set_bit(cpu, m->online);
	for (g = 0; g < cores; g++) {
		node = at_random ? in8(in) % nodes : g * used / cores;
		node = (node + off) % nodes;
		for (t = 0; t < smt; t++) {
			cpu = interleave ? t * cores + g : g * smt + t;
			m->package[cpu] = node / 2;
			m->l3[cpu] = g / l3div;
			/* The last core of a stray machine is in no node. */
			if (strays && g == cores - 1 && cores > 1)
				continue;
			i = split ? (node + t) % nodes : node;
			if (!m->node_cpus[i]) {
				m->node_cpus[i] = machine_bitmap(m);
				if (!m->node_cpus[i])
					goto fail;
			}
			__set_bit(cpu, m->node_cpus[i]);
		}
		for (t = 0; t < smt; t++) {
			cpu = interleave ? t * cores + g : g * smt + t;
			if (!test_bit(cpu, m->online) && !offline_sibs)
				continue;
			for (i = 0; i < smt; i++) {
				j = interleave ? i * cores + g : g * smt + i;
				if (!online_sibs || test_bit(j, m->online) ||
				    j == cpu)
					__set_bit(j, m->siblings[cpu]);
			}
		}
	}
	free(off_mask);
	off_mask = NULL;
	if (machine_finish(m, err, sizeof(err))) {
		fprintf(stderr, "fuzz_engine: machine_finish: %s\n", err);
		abort();
	}
	return 0;
fail:
	free(off_mask);
	return -1;
}

/* The load this file expects: every held spread and requested pool vector. */
static void expected_load(struct fuzz *f)
{
	unsigned int i, v, cpu;
	struct held *h;

	memset(f->load, 0, f->n * sizeof(*f->load));
	for (i = 0; i < f->nr_held; i++) {
		h = &f->held[i];
		for (v = 0; v < h->nvec; v++)
			for_each_set_bit(cpu, h->masks + v * h->stride, f->n)
				f->load[cpu]++;
	}
	if (!f->pm.pool)
		return;
	for (v = 0; v < f->pm.info.nr_vectors; v++) {
		if (!f->pm.users[v])
			continue;
		for_each_set_bit(cpu, f->pm.mask[v], f->n)
			f->load[cpu]++;
	}
}

static void check_load(struct fuzz *f, const char *when)
{
	const unsigned int *load = f->m.topo.load;
	unsigned int cpu;

	expected_load(f);
	for (cpu = 0; cpu < f->n; cpu++)
		if ((load ? load[cpu] : 0) != f->load[cpu])
			broken("load: %s: cpu%u has load %u, the live placements put %u vectors on it",
			       when, cpu, load ? load[cpu] : 0, f->load[cpu]);
}

/*
 * The usable CPUs: eligible, not leaving, not in @exclude; without
 * @exclude if that leaves none; every online CPU not leaving if no
 * eligible CPU is left, every online CPU if no other is.  False if there
 * is none at all.
 */
static bool usable_cpus(struct fuzz *f, const unsigned long *exclude,
			unsigned long *dst)
{
	const unsigned long *leaving = f->m.topo.leaving;

	bitmap_copy(dst, f->m.eligible, f->n);
	if (leaving)
		bitmap_andnot(dst, dst, leaving, f->n);
	if (exclude && !bitmap_subset(dst, exclude, f->n))
		bitmap_andnot(dst, dst, exclude, f->n);
	if (!bitmap_empty(dst, f->n))
		return true;
	bitmap_copy(dst, f->m.online, f->n);
	if (leaving && !bitmap_subset(dst, leaving, f->n))
		bitmap_andnot(dst, dst, leaving, f->n);
	return !bitmap_empty(dst, f->n);
}

/*
 * Tiers by the hop rule: hop h holds the nodes with CPUs at the h-th
 * smallest distinct distance from @node or nearer, and only hops that add
 * usable CPUs count; so a usable CPU's tier is the position of its node's
 * distance among the distinct distances of the usable CPUs' nodes.  CPUs
 * of no node come after every hop; with NUMA_NO_NODE all are in tier 0.
 */
static void assign_tiers(struct fuzz *f, int node, const unsigned long *u)
{
	const struct machine *m = &f->m;
	bool seen[256] = { false };
	unsigned int cpu, d, below[257] = { 0 }, nr = 0;

	for_each_set_bit(cpu, u, f->n) {
		if (node == NUMA_NO_NODE || m->cpu_node[cpu] < 0)
			continue;
		seen[machine_distance(m, node, m->cpu_node[cpu])] = true;
	}
	for (d = 0; d < 256; d++) {
		below[d] = nr;
		nr += seen[d];
	}
	for_each_set_bit(cpu, u, f->n) {
		if (node == NUMA_NO_NODE)
			f->tier[cpu] = 0;
		else if (m->cpu_node[cpu] < 0)
			f->tier[cpu] = nr;
		else
			f->tier[cpu] =
				below[machine_distance(m, node, m->cpu_node[cpu])];
	}
}

/*
 * Rank and core load over the usable threads of each core: rank is the
 * number of the core's usable threads less loaded, or as loaded and of a
 * lower number; core load the sum of their loads.  @f->load is the load
 * before the spread.
 */
static void assign_ranks(struct fuzz *f, const unsigned long *u)
{
	const struct machine *m = &f->m;
	unsigned int cpu, s, r, sum;

	for_each_set_bit(cpu, u, f->n) {
		r = 0;
		sum = 0;
		for_each_set_bit(s, m->siblings[cpu], f->n) {
			if (!test_bit(s, u))
				continue;
			sum += f->load[s];
			r += f->load[s] < f->load[cpu] ||
			     (f->load[s] == f->load[cpu] && s < cpu);
		}
		f->rank[cpu] = r;
		f->core_load[cpu] = sum;
	}
}

#define NR_KEYS	7

static void slot_key(struct fuzz *f, enum irq_spread_policy policy,
		     unsigned int cpu, unsigned int key[NR_KEYS]);

/*
 * Round and domain load over the machine's L3 domains (@f->m.l3, every
 * CPU's): a usable CPU's round is the number of usable CPUs of its L3 of
 * a lower number and equal on the four keys before round; its domain load
 * the sum of the loads of its L3's usable CPUs in its tier.  @f->tier,
 * @f->rank and @f->core_load set.
 */
static void assign_rounds(struct fuzz *f, enum irq_spread_policy policy,
			  const unsigned long *u)
{
	const struct machine *m = &f->m;
	unsigned int cpu, c, ka[NR_KEYS], kc[NR_KEYS];

	for_each_set_bit(cpu, u, f->n) {
		f->round[cpu] = 0;
		f->dload[cpu] = 0;
	}
	for_each_set_bit(cpu, u, f->n) {
		slot_key(f, policy, cpu, ka);
		for_each_set_bit(c, u, f->n) {
			if (m->l3[c] != m->l3[cpu])
				continue;
			if (f->tier[c] == f->tier[cpu])
				f->dload[cpu] += f->load[c];
			if (c >= cpu)
				continue;
			slot_key(f, policy, c, kc);
			if (!memcmp(ka, kc, 4 * sizeof(*ka)))
				f->round[cpu]++;
		}
	}
}

/* The policy's sort key of @cpu, most significant first. */
static void slot_key(struct fuzz *f, enum irq_spread_policy policy,
		     unsigned int cpu, unsigned int key[NR_KEYS])
{
	unsigned int tier = f->tier[cpu], rank = f->rank[cpu];

	switch (policy) {
	case IRQ_SPREAD_NUMA:
		key[0] = tier;
		key[1] = 0;
		key[2] = 0;
		break;
	case IRQ_SPREAD_NUMA_CORE:
		key[0] = tier;
		key[1] = rank;
		key[2] = f->core_load[cpu];
		break;
	default:
		key[0] = rank;
		key[1] = tier;
		key[2] = f->core_load[cpu];
		break;
	}
	key[3] = f->load[cpu];
	key[4] = f->round[cpu];
	key[5] = f->dload[cpu];
	key[6] = cpu;
}

static int key_cmp(const unsigned int a[NR_KEYS], const unsigned int b[NR_KEYS])
{
	unsigned int i;

	for (i = 0; i < NR_KEYS; i++)
		if (a[i] != b[i])
			return a[i] < b[i] ? -1 : 1;
	return 0;
}

static const char *const key_names[3][NR_KEYS] = {
	{ "tier", "-", "-", "load", "round", "domain load", "CPU number" },
	{ "tier", "rank", "core load", "load", "round", "domain load",
	  "CPU number" },
	{ "rank", "tier", "core load", "load", "round", "domain load",
	  "CPU number" },
};

/* The first key where @a and @b differ, and their values there. */
static const char *key_why(enum irq_spread_policy policy,
			   const unsigned int a[NR_KEYS],
			   const unsigned int b[NR_KEYS])
{
	static char why[80];
	unsigned int i;

	for (i = 0; i < NR_KEYS && a[i] == b[i]; i++)
		;
	if (i == NR_KEYS)
		return "equal keys";
	snprintf(why, sizeof(why), "%s (%u against %u)",
		 key_names[policy][i], b[i], a[i]);
	return why;
}

/*
 * One slot per core before any core gets a second, in the first round of
 * @first slots: over all tiers for core; for numa-core within a tier, for
 * the cores whose usable threads all are in that tier.
 */
static void check_one_per_core(struct fuzz *f, enum irq_spread_policy policy,
			       unsigned int first, const unsigned long *u)
{
	const struct machine *m = &f->m;
	unsigned int nc = m->nr_cores, i, cpu, c, t, all = 0, seen = 0;
	unsigned int *slots = calloc(nc, sizeof(int));
	unsigned int *tier = calloc(nc, sizeof(int));
	unsigned int *total = calloc(f->n + 1, sizeof(int));
	unsigned int *got = calloc(f->n + 1, sizeof(int));
	bool *whole = calloc(nc, sizeof(bool));
	bool *has = calloc(nc, sizeof(bool));

	if (!slots || !tier || !total || !got || !whole || !has)
		abort();
	for_each_set_bit(cpu, u, f->n) {
		c = m->core[cpu];
		if (!has[c]) {
			has[c] = true;
			whole[c] = true;
			tier[c] = f->tier[cpu];
			all++;
		} else if (tier[c] != f->tier[cpu]) {
			whole[c] = false;
		}
	}
	for (c = 0; c < nc; c++)
		if (has[c] && whole[c])
			total[tier[c]]++;
	for (i = 0; i < first; i++) {
		cpu = f->slots[i];
		c = m->core[cpu];
		t = f->tier[cpu];
		if (policy == IRQ_SPREAD_CORE) {
			if (slots[c]++ == 0)
				seen++;
			else if (seen < all)
				broken("one per core: vector %u is the second of cpu%u's core while %u of %u usable cores have none",
				       i, cpu, all - seen, all);
			continue;
		}
		if (!whole[c])
			continue;
		if (slots[c]++ == 0)
			got[t]++;
		else if (got[t] < total[t])
			broken("one per core: vector %u is the second of cpu%u's core in tier %u while %u of its %u cores have none",
			       i, cpu, t, total[t] - got[t], total[t]);
	}
	free(slots);
	free(tier);
	free(total);
	free(got);
	free(whole);
	free(has);
}

/*
 * The slots of one spread, @f->slots[0..nvec - 1], over the usable CPUs
 * @u, with @f->load the load before it and tiers, ranks assigned.
 */
static void check_slots(struct fuzz *f, enum irq_spread_policy policy,
			unsigned int nvec, const unsigned long *u)
{
	unsigned int nr = bitmap_weight(u, f->n), first = min(nvec, nr);
	unsigned int i, cpu, ka[NR_KEYS], kb[NR_KEYS], lo = nvec / nr;
	unsigned int *slots = f->slots;

	assign_rounds(f, policy, u);

	memset(f->count, 0, f->n * sizeof(*f->count));
	for (i = 0; i < nvec; i++) {
		if (!test_bit(slots[i], u))
			broken("usable: vector %u is on cpu%u, which is not usable",
			       i, slots[i]);
		if (i < first && f->count[slots[i]])
			broken("round robin: vector %u is cpu%u's second in the first round of %u slots",
			       i, slots[i], nr);
		if (i >= nr && slots[i] != slots[i - nr])
			broken("round robin: vector %u is on cpu%u, vector %u of the round before on cpu%u",
			       i, slots[i], i - nr, slots[i - nr]);
		f->count[slots[i]]++;
	}
	for_each_set_bit(cpu, u, f->n)
		if (f->count[cpu] < lo || f->count[cpu] > lo + !!(nvec % nr))
			broken("round robin: cpu%u has %u of %u vectors over %u slots",
			       cpu, f->count[cpu], nvec, nr);

	/* The first round follows the order. */
	for (i = 1; i < first; i++) {
		slot_key(f, policy, slots[i - 1], ka);
		slot_key(f, policy, slots[i], kb);
		if (policy != IRQ_SPREAD_CORE &&
		    f->tier[slots[i]] < f->tier[slots[i - 1]])
			broken("nearest first: vector %u on cpu%u (tier %u) after vector %u on cpu%u (tier %u)",
			       i, slots[i], f->tier[slots[i]], i - 1,
			       slots[i - 1], f->tier[slots[i - 1]]);
		if (key_cmp(ka, kb) >= 0)
			broken("order: vector %u on cpu%u comes after vector %u on cpu%u but precedes it by %s",
			       i, slots[i], i - 1, slots[i - 1],
			       key_why(policy, ka, kb));
	}
	if (first) {
		slot_key(f, policy, slots[first - 1], ka);
		for_each_set_bit(cpu, u, f->n) {
			if (f->count[cpu])
				continue;
			slot_key(f, policy, cpu, kb);
			if (key_cmp(kb, ka) < 0)
				broken("order: cpu%u got no vector of %u, yet goes before cpu%u (vector %u) by %s",
				       cpu, nvec, slots[first - 1], first - 1,
				       key_why(policy, ka, kb));
		}
	}

	if (policy != IRQ_SPREAD_NUMA)
		check_one_per_core(f, policy, first, u);
}

static unsigned long *alloc_masks(unsigned int nvec, size_t stride)
{
	size_t nr = (size_t)max(nvec, 1U) * max(stride, (size_t)1);
	unsigned long *p = malloc(nr * sizeof(long));
	size_t i;

	if (p)
		for (i = 0; i < nr; i++)
			p[i] = FILL;
	return p;
}

static bool untouched(const unsigned long *p, unsigned int nvec,
		      size_t stride)
{
	size_t nr = (size_t)max(nvec, 1U) * max(stride, (size_t)1), i;

	for (i = 0; i < nr; i++)
		if (p[i] != FILL)
			return false;
	return true;
}

/* Each mask holds one usable CPU and no bit past the machine's. */
static void masks_to_slots(struct fuzz *f, const unsigned long *masks,
			   unsigned int nvec, size_t stride, bool single)
{
	unsigned int i, b, n = f->n;
	const unsigned long *mask;

	for (i = 0; i < nvec; i++) {
		mask = masks + i * stride;
		for (b = n; b < stride * BITS_PER_LONG; b++)
			if (test_bit(b, mask))
				broken("masks: vector %u has bit %u set, past the %u CPUs",
				       i, b, n);
		if (bitmap_empty(mask, n))
			broken("masks: vector %u has an empty mask", i);
		if (!bitmap_subset(mask, f->usable, n))
			broken("usable: vector %u has a CPU that is not usable", i);
		f->slots[i] = find_first_bit(mask, n);
		if (single && bitmap_weight(mask, n) != 1)
			broken("masks: vector %u has %u CPUs, not its slot's alone",
			       i, bitmap_weight(mask, n));
	}
}

static void hold(struct fuzz *f, unsigned int nvec, size_t stride,
		 unsigned long *masks)
{
	struct held *h;

	if (f->nr_held == MAX_HELD) {
		h = &f->held[0];
		irq_spread_topo_release(&f->m.topo, h->nvec, h->masks,
					h->stride);
		free(h->masks);
		memmove(f->held, f->held + 1, --f->nr_held * sizeof(*h));
	}
	f->held[f->nr_held++] = (struct held){ nvec, stride, masks };
}

static int decode_node(struct fuzz *f, struct input *in)
{
	static const int odd[] = { 1, 2, -2, INT_MIN, INT_MAX, 255, -1000, 7 };
	unsigned int b = in8(in), nodes = f->m.nr_nodes;

	if (b < 224)
		return (int)(b % (nodes + 1)) - 1;
	b &= 7;
	return odd[b] > 0 && odd[b] < 8 ? (int)nodes + odd[b] - 1 : odd[b];
}

static bool node_valid(struct fuzz *f, int node)
{
	return node == NUMA_NO_NODE ||
	       (node >= 0 && (unsigned int)node < f->m.nr_nodes);
}

static enum irq_spread_policy decode_policy(struct input *in)
{
	unsigned int b = in8(in);

	if (b < 240)
		return b % 3;
	return b == 255 ? 0x7fffffff : 3 + (b & 15);
}

/*
 * A numa-core spread with whole cores, @masks, made on the load before:
 * the slots are those of the same spread with IRQ_SPREAD_SLOT_ONLY, which
 * only changes the masks; each of them must follow the rules, and a vector
 * has its core's usable threads where it is the spread's only vector on
 * that core, its slot alone elsewhere.  The same spread on the same load
 * gives the same masks (the order is total), which lets it be released
 * for its twin and made again.  @nohold: IRQ_SPREAD_NO_HOLD, or 0 for a
 * spread held in the load.
 */
static void check_whole(struct fuzz *f, int node, unsigned int nvec,
			const unsigned long *exclude, unsigned long *masks,
			size_t stride, unsigned int nohold)
{
	struct irq_spread_topology *topo = &f->m.topo;
	const struct machine *m = &f->m;
	unsigned long *twin = alloc_masks(nvec, stride), *mask;
	unsigned int i, cpu, nr;
	int ret;

	if (!twin)
		abort();
	if (!nohold) {
		irq_spread_topo_release(topo, nvec, masks, stride);
		check_load(f, "after releasing a numa-core spread");
	}
	ret = irq_spread_topo_spread(topo, node, nvec, IRQ_SPREAD_NUMA_CORE,
				     exclude, twin, stride,
				     IRQ_SPREAD_SLOT_ONLY | nohold);
	if (ret)
		broken("spread: the numa-core spread with IRQ_SPREAD_SLOT_ONLY failed: %d",
		       ret);
	masks_to_slots(f, twin, nvec, stride, true);
	check_slots(f, IRQ_SPREAD_NUMA_CORE, nvec, f->usable);
	if (!nohold)
		irq_spread_topo_release(topo, nvec, twin, stride);
	check_load(f, "after releasing the slot-only twin");

	for (i = 0; i < nvec * stride; i++)
		twin[i] = FILL;
	ret = irq_spread_topo_spread(topo, node, nvec, IRQ_SPREAD_NUMA_CORE,
				     exclude, twin, stride, nohold);
	if (ret || memcmp(twin, masks, nvec * stride * sizeof(long)))
		broken("spread: the same spread on the same load gave other masks (%d)",
		       ret);
	free(twin);

	memset(f->count, 0, f->n * sizeof(*f->count));
	for (i = 0; i < nvec; i++)
		f->count[m->core[f->slots[i]]]++;
	for (i = 0; i < nvec; i++) {
		mask = masks + i * stride;
		cpu = f->slots[i];
		nr = f->count[m->core[cpu]];
		for (cpu = f->n; cpu < stride * BITS_PER_LONG; cpu++)
			if (test_bit(cpu, mask))
				broken("masks: vector %u has bit %u set, past the %u CPUs",
				       i, cpu, f->n);
		cpu = f->slots[i];
		if (nr == 1)
			bitmap_and(f->tmp, m->siblings[cpu], f->usable, f->n);
		else
			bitmap_zero(f->tmp, f->n);
		__set_bit(cpu, f->tmp);
		if (!bitmap_subset(mask, m->siblings[cpu], f->n))
			broken("numa-core: vector %u's mask is not within one core",
			       i);
		if (!bitmap_equal(mask, f->tmp, f->n))
			broken("numa-core: vector %u (slot cpu%u, %u vectors on its core) does not have %s",
			       i, cpu, nr, nr == 1 ? "its core's usable threads" :
			       "its slot's CPU alone");
	}
}

/* One device: a spread, checked, then held in the load. */
static void op_spread(struct fuzz *f, struct input *in)
{
	static const unsigned int flag_vals[] = {
		0, 0, 0, IRQ_SPREAD_NO_HOLD, IRQ_SPREAD_SLOT_ONLY,
		IRQ_SPREAD_SLOT_ONLY | IRQ_SPREAD_NO_HOLD, 4, 0x80000001u,
	};
	struct irq_spread_topology *topo = &f->m.topo;
	int node = decode_node(f, in), ret, want;
	unsigned int b = in16(in), nvec, flags, smode;
	enum irq_spread_policy policy = decode_policy(in);
	const unsigned long *exclude;
	unsigned long *masks;
	size_t stride;
	bool null_masks, whole, any;

	nvec = b % 16 ? 1 + (b >> 4) % (3 * f->n) : 0;
	exclude = decode_mask(f, in, f->exclude, true);
	flags = flag_vals[in8(in) % 8];
	smode = in8(in) % 10;
	stride = f->longs + (smode == 5) + 3 * (smode == 6) - (smode == 7);
	null_masks = smode == 8;

	any = usable_cpus(f, exclude, f->usable);
	want = 0;
	if ((flags & ~(IRQ_SPREAD_SLOT_ONLY | IRQ_SPREAD_NO_HOLD)) ||
	    (unsigned int)policy >= 3 ||
	    !nvec || null_masks || !node_valid(f, node) || stride < f->longs)
		want = -EINVAL;
	else if (!any)
		want = -ENODEV;

	expected_load(f);
	masks = alloc_masks(nvec, stride);
	if (!masks)
		return;
	whole = policy == IRQ_SPREAD_NUMA_CORE && !(flags & IRQ_SPREAD_SLOT_ONLY);
	ret = irq_spread_topo_spread(topo, node, nvec, policy, exclude,
				     null_masks ? NULL : masks, stride, flags);
	if (want && ret != want && !(want == -EINVAL && !any && ret == -ENODEV))
		broken("arguments: node %d nvec %u policy %u flags %#x stride %zu%s: got %d, want %d",
		       node, nvec, policy, flags, stride,
		       null_masks ? " no masks" : "", ret, want);
	if (ret) {
		if (!want)
			broken("spread: node %d nvec %u policy %u failed with %d",
			       node, nvec, policy, ret);
		if (!untouched(masks, nvec, stride))
			broken("errors: the failed spread (%d) wrote a mask", ret);
		check_load(f, "after a failed spread");
		free(masks);
		return;
	}

	assign_tiers(f, node, f->usable);
	assign_ranks(f, f->usable);
	if (!whole) {
		masks_to_slots(f, masks, nvec, stride, true);
		check_slots(f, policy, nvec, f->usable);
	} else {
		check_whole(f, node, nvec, exclude, masks, stride,
			    flags & IRQ_SPREAD_NO_HOLD);
	}
	if (flags & IRQ_SPREAD_NO_HOLD) {
		/* Placed on the load, not counted in it. */
		check_load(f, "after a spread not held");
		free(masks);
		return;
	}
	hold(f, nvec, stride, masks);
	check_load(f, "after a spread");
}

/* Release a held spread; or release and hold it again, which is no change. */
static void op_release(struct fuzz *f, struct input *in, bool again)
{
	struct irq_spread_topology *topo = &f->m.topo;
	unsigned int i = in8(in);
	struct held h;

	if (!f->nr_held)
		return;
	i %= f->nr_held;
	h = f->held[i];
	irq_spread_topo_release(topo, h.nvec, h.masks, h.stride);
	if (again) {
		irq_spread_topo_hold(topo, h.nvec, h.masks, h.stride);
		check_load(f, "after a release and a hold");
		return;
	}
	memmove(f->held + i, f->held + i + 1,
		(f->nr_held - i - 1) * sizeof(h));
	f->nr_held--;
	free(h.masks);
	check_load(f, "after a release");
}

/* CPUs on their way offline, as the device layer's hotplug sets them. */
static void op_leaving(struct fuzz *f, struct input *in)
{
	f->m.topo.leaving = decode_mask(f, in, f->leaving, true);
	/* What a vector that may go anywhere gets: the usable CPUs. */
	usable_cpus(f, NULL, f->usable);
	irq_spread_topo_eligible(&f->m.topo, f->tmp);
	if (!bitmap_equal(f->tmp, f->usable, f->n))
		broken("usable: irq_spread_topo_eligible() is not the eligible CPUs not leaving, or all online ones");
}

/* The pool's callbacks: the fake driver, which checks when it is called. */
static int pool_request(void *priv, unsigned int vector,
			const struct cpumask *mask)
{
	struct pool_model *pm = priv;
	unsigned int v = vector - pm->info.first_vector;
	int ret;

	if (vector < pm->info.first_vector || v >= pm->info.nr_vectors)
		broken("pool: request of vector %u, not the pool's", vector);
	if (pm->users[v])
		broken("pool: request of vector %u, which has %u users",
		       vector, pm->users[v]);
	pm->nr_req++;
	pm->req_vec = v;
	if (pm->fail) {
		ret = pm->fail;
		pm->fail = 0;
		return ret;
	}
	bitmap_copy(pm->mask[v], cpumask_bits(mask), cur->n);
	pm->given[v] = cpumask_bits(mask);
	pm->irq[v] = (int)((vector * 7 + 3) & 0x3fffffff);
	return pm->irq[v];
}

static void pool_release(void *priv, unsigned int vector, unsigned int irq)
{
	struct pool_model *pm = priv;
	unsigned int v = vector - pm->info.first_vector;

	if (vector < pm->info.first_vector || v >= pm->info.nr_vectors)
		broken("pool: release of vector %u, not the pool's", vector);
	if (pm->users[v] != 1)
		broken("pool: release of vector %u, which has %u users",
		       vector, pm->users[v]);
	if (irq != (unsigned int)pm->irq[v])
		broken("pool: release of vector %u with irq %u, not %d", vector,
		       irq, pm->irq[v]);
	if (!bitmap_equal(pm->given[v], pm->mask[v], cur->n))
		broken("pool: vector %u's mask changed between its request and its release",
		       vector);
	pm->nr_rel++;
	pm->rel_vec = v;
}

static const struct irq_spread_pool_ops pool_ops = {
	.request	= pool_request,
	.release	= pool_release,
};

static const struct irq_spread_pool_ops pool_ops_half = {
	.request	= pool_request,
};

static void op_pool_create(struct fuzz *f, struct input *in)
{
	struct pool_model *pm = &f->pm;
	struct irq_spread_pool_info *info = &pm->info;
	unsigned int b = in8(in), v;
	bool valid;

	if (pm->pool)
		return;
	memset(info, 0, sizeof(*info));
	info->name = b % 16 ? "fuzz" : NULL;
	info->node = decode_node(f, in);
	info->policy = decode_policy(in);
	info->nr_vectors = in8(in) % (MAX_POOL_VECS + 1);
	info->max_users = in8(in) % 6;
	b = in8(in);
	info->first_vector = b < 192 ? b % 64 :
			     b < 224 ? INT_MAX - info->nr_vectors + 1 :
			     b < 240 ? INT_MAX - info->nr_vectors + 2 :
			     0x80000000u + b;
	b = in8(in) % 16;
	info->ops = b == 0 ? NULL : b == 1 ? &pool_ops_half : &pool_ops;
	info->priv = pm;
	valid = info->name && info->ops == &pool_ops &&
		(unsigned int)info->policy < 3 && node_valid(f, info->node) &&
		info->nr_vectors && info->first_vector <= INT_MAX &&
		info->nr_vectors - 1 <= INT_MAX - info->first_vector;
	pm->pool = irq_spread_pool_topo_create(&f->m.topo, info);
	if (!valid) {
		if (pm->pool != ERR_PTR(-EINVAL))
			broken("pool: created from bad info (node %d policy %u first %u nr %u): %p",
			       info->node, info->policy, info->first_vector,
			       info->nr_vectors, (void *)pm->pool);
		pm->pool = NULL;
		return;
	}
	if (IS_ERR_OR_NULL(pm->pool))
		broken("pool: creation failed: %ld", PTR_ERR(pm->pool));
	for (v = 0; v < info->nr_vectors; v++) {
		pm->users[v] = 0;
		pm->mask[v] = fz_bitmap(f);
		if (!pm->mask[v])
			abort();
	}
	if (irq_spread_pool_get(NULL, NULL) != -EINVAL ||
	    irq_spread_pool_put(NULL, info->first_vector) != -EINVAL)
		broken("pool: a NULL pool is not -EINVAL");
}

static unsigned int pool_total(const struct pool_model *pm)
{
	unsigned int v, u = 0;

	for (v = 0; v < pm->info.nr_vectors; v++)
		u += pm->users[v];
	return u;
}

/*
 * The least used requested vector, lowest number among equals, with fewer
 * than @cap users and its CPUs within @within (%NULL: anywhere); -1 if none.
 */
static int pool_least_used(struct fuzz *f, const unsigned long *within,
			   unsigned int cap)
{
	const struct pool_model *pm = &f->pm;
	unsigned int v;
	int best = -1;

	for (v = 0; v < pm->info.nr_vectors; v++) {
		if (!pm->users[v] || pm->users[v] >= cap)
			continue;
		if (within && !bitmap_subset(pm->mask[v], within, f->n))
			continue;
		if (best < 0 || pm->users[v] < pm->users[best])
			best = v;
	}
	return best;
}

/*
 * Step 3 of a get for @cpus: the least used vector with room at the
 * nearest level.  Room: fewer users than the share ceil((U + 1) / V) and
 * the driver's bound on @cpus and their siblings; at a NUMA level, fewer
 * than the driver's bound.  The levels: @cpus, their siblings and their
 * nodes, then each distance from these nodes (a node's, from the nearest
 * of them) in turn, each adding the nodes with CPUs at that distance.
 */
static int pool_nearest(struct fuzz *f, const unsigned long *cpus,
			unsigned int share)
{
	const struct pool_model *pm = &f->pm;
	const struct machine *m = &f->m;
	unsigned int cpu, k, a, bound = pm->info.max_users ?: UINT_MAX;
	int dist[MAX_NODES], d, best;

	bitmap_copy(f->tmp, cpus, f->n);
	for_each_set_bit(cpu, cpus, f->n)
		bitmap_or(f->tmp, f->tmp, f->m.siblings[cpu], f->n);
	best = pool_least_used(f, f->tmp, share);
	if (best >= 0)
		return best;
	for (k = 0; k < m->nr_nodes; k++)
		dist[k] = INT_MAX;
	for_each_set_bit(cpu, cpus, f->n)
		if (m->cpu_node[cpu] >= 0)
			dist[m->cpu_node[cpu]] = -1;
	for (k = 0; k < m->nr_nodes; k++)
		for (a = 0; dist[k] != -1 && a < m->nr_nodes; a++)
			if (dist[a] == -1 &&
			    machine_distance(m, a, k) < dist[k])
				dist[k] = machine_distance(m, a, k);
	for (d = -1; d <= 255; d++) {
		for (k = 0; k < m->nr_nodes; k++)
			if (m->node_cpus[k] && dist[k] == d)
				break;
		if (k == m->nr_nodes && d != -1)
			continue;
		for (k = 0; k < m->nr_nodes; k++)
			if (m->node_cpus[k] && dist[k] == d)
				bitmap_or(f->tmp, f->tmp, m->node_cpus[k], f->n);
		best = pool_least_used(f, f->tmp, bound);
		if (best >= 0)
			return best;
	}
	return pool_least_used(f, NULL, share);
}

/*
 * The engine's one-vector spread for a new pool vector, within @cpus: the
 * first slot of the order over the usable CPUs, its core's usable threads
 * under numa-core.
 */
static void pool_check_placed(struct fuzz *f, const unsigned long *cpus,
			      unsigned int v)
{
	const struct pool_model *pm = &f->pm;
	enum irq_spread_policy policy = pm->info.policy;
	unsigned int cpu, best = f->n, kb[NR_KEYS], kc[NR_KEYS];

	if (cpus)
		bitmap_complement(f->exclude, cpus, f->n);
	usable_cpus(f, cpus ? f->exclude : NULL, f->usable);
	assign_tiers(f, pm->info.node, f->usable);
	assign_ranks(f, f->usable);
	assign_rounds(f, policy, f->usable);
	for_each_set_bit(cpu, f->usable, f->n) {
		slot_key(f, policy, cpu, kc);
		if (best == f->n || key_cmp(kc, kb) < 0) {
			best = cpu;
			memcpy(kb, kc, sizeof(kb));
		}
	}
	bitmap_zero(f->tmp, f->n);
	if (policy == IRQ_SPREAD_NUMA_CORE)
		bitmap_and(f->tmp, f->m.siblings[best], f->usable, f->n);
	__set_bit(best, f->tmp);
	if (!bitmap_equal(pm->mask[v], f->tmp, f->n))
		broken("pool: new vector %u is not on the first slot cpu%u%s",
		       v, best, policy == IRQ_SPREAD_NUMA_CORE ?
		       " and its core's usable threads" : "");
}

static void pool_expect_calls(struct fuzz *f, unsigned int req, int req_vec,
			      unsigned int rel, int rel_vec, const char *what)
{
	const struct pool_model *pm = &f->pm;

	if (pm->nr_req != req || (req && (int)pm->req_vec != req_vec))
		broken("pool: %s: %u request calls (vector %u), want %u (vector %d)",
		       what, pm->nr_req, pm->req_vec, req, req_vec);
	if (pm->nr_rel != rel || (rel && (int)pm->rel_vec != rel_vec))
		broken("pool: %s: %u release calls (vector %u), want %u (vector %d)",
		       what, pm->nr_rel, pm->rel_vec, rel, rel_vec);
}

static void pool_check_state(struct fuzz *f)
{
	const struct pool_model *pm = &f->pm;
	unsigned int v, nr = 0;

	for (v = 0; v < pm->info.nr_vectors; v++) {
		if (pm->info.max_users && pm->users[v] > pm->info.max_users)
			broken("pool: vector %u has %u users, above the bound %u",
			       v, pm->users[v], pm->info.max_users);
		nr += !!pm->users[v];
	}
	if (pm->pool->users != pool_total(pm) || pm->pool->nr_requested != nr)
		broken("pool: counts %u users, %u requested; want %u, %u",
		       pm->pool->users, pm->pool->nr_requested, pool_total(pm),
		       nr);
}

static void op_pool_get(struct fuzz *f, struct input *in)
{
	static const int errs[] = { -EIO, -ENOSPC, -EBUSY, -ENOMEM };
	struct pool_model *pm = &f->pm;
	unsigned int nv = pm->info.nr_vectors, total, share, b, v;
	const unsigned long *cpus;
	int ret, want, fresh = -1, fail;
	bool none;

	if (!pm->pool)
		return;
	cpus = decode_mask(f, in, f->asked, true);
	b = in8(in);
	pm->fail = b >= 224 ? errs[b & 3] : 0;
	total = pool_total(pm);
	share = DIV_ROUND_UP(total + 1, nv);
	if (pm->info.max_users)
		share = min(share, pm->info.max_users);

	/* What the comment of pool.c says the get gives. */
	want = -ENOSPC;
	if (cpus && bitmap_empty(cpus, f->n)) {
		want = -EINVAL;
		pm->fail = 0;
	} else {
		want = pool_least_used(f, cpus, share);
		if (want < 0) {
			for (v = 0; v < nv && pm->users[v]; v++)
				;
			if (v < nv) {
				fresh = v;
				want = v;
			} else if (cpus) {
				want = pool_nearest(f, cpus, share);
			}
			if (want < 0)
				want = -ENOSPC;
		}
	}
	none = bitmap_empty(f->m.online, f->n);
	if (fresh < 0 || none)
		pm->fail = 0;
	fail = pm->fail;
	expected_load(f);
	pm->nr_req = 0;
	pm->nr_rel = 0;
	ret = irq_spread_pool_get(pm->pool, cpus ? to_cpumask(cpus) : NULL);
	if (fresh >= 0 && none) {
		/* No CPU online at all: the engine's -ENODEV. */
		if (ret != -ENODEV)
			broken("pool: a new vector without any online CPU: %d",
			       ret);
		pool_expect_calls(f, 0, 0, 0, 0, "a get without CPUs");
	} else if (fresh >= 0 && fail) {
		if (ret != fail)
			broken("pool: the failed request's %d came back as %d",
			       fail, ret);
		pool_expect_calls(f, 1, fresh, 0, 0, "a failed request");
	} else if (want < 0) {
		if (ret != want)
			broken("pool: get gave %d, want %d", ret, want);
		pool_expect_calls(f, 0, 0, 0, 0, "a failed get");
	} else {
		if (ret != (int)(pm->info.first_vector + want))
			broken("pool: get gave vector %d, want %u (%s)", ret,
			       pm->info.first_vector + want,
			       fresh >= 0 ? "the first not requested" :
			       "the least used with room, nearest first");
		pool_expect_calls(f, fresh >= 0, fresh, 0, 0, "a get");
		if (fresh >= 0)
			pool_check_placed(f, cpus, fresh);
		pm->users[want]++;
		if (!cpus && pm->users[want] > DIV_ROUND_UP(total + 1, nv))
			broken("pool: a get for any CPU left vector %u with %u users, above ceil(%u / %u)",
			       want, pm->users[want], total + 1, nv);
	}
	pm->fail = 0;
	pool_check_state(f);
	check_load(f, "after a pool get");
}

static void op_pool_put(struct fuzz *f, struct input *in)
{
	struct pool_model *pm = &f->pm;
	unsigned int b = in8(in), vector, v, first = pm->info.first_vector;
	bool valid;
	int ret;

	if (!pm->pool)
		return;
	vector = b < 240 ? first + (b & 0x7f) % (pm->info.nr_vectors + 2) - 1 :
		 b < 248 ? UINT_MAX - (b & 7) : (unsigned int)INT_MAX + b;
	v = vector - first;
	valid = vector >= first && v < pm->info.nr_vectors && pm->users[v];
	pm->nr_req = 0;
	pm->nr_rel = 0;
	if (valid && pm->pool->vec[v].irq != (unsigned int)pm->irq[v])
		broken("pool: irq of vector %u is %u, want %d", vector,
		       pm->pool->vec[v].irq, pm->irq[v]);
	ret = irq_spread_pool_put(pm->pool, vector);
	if (ret != (valid ? 0 : -EINVAL))
		broken("pool: put of vector %u gave %d, want %d", vector, ret,
		       valid ? 0 : -EINVAL);
	pool_expect_calls(f, 0, 0, valid && pm->users[v] == 1, v, "a put");
	if (valid)
		pm->users[v]--;
	pool_check_state(f);
	check_load(f, "after a pool put");
}

/* Every user puts its vectors, then the pool goes. */
static void op_pool_destroy(struct fuzz *f)
{
	struct pool_model *pm = &f->pm;
	unsigned int v;

	if (!pm->pool)
		return;
	for (v = 0; v < pm->info.nr_vectors; v++) {
		while (pm->users[v]) {
			pm->nr_req = 0;
			pm->nr_rel = 0;
			if (irq_spread_pool_put(pm->pool,
						pm->info.first_vector + v))
				broken("pool: put of held vector %u failed", v);
			pool_expect_calls(f, 0, 0, pm->users[v] == 1, v,
					  "a put");
			pm->users[v]--;
		}
	}
	check_load(f, "after putting every pool vector");
	pm->nr_req = 0;
	pm->nr_rel = 0;
	irq_spread_pool_destroy(pm->pool);
	pool_expect_calls(f, 0, 0, 0, 0, "destroying an unused pool");
	pm->pool = NULL;
	for (v = 0; v < pm->info.nr_vectors; v++) {
		free(pm->mask[v]);
		pm->mask[v] = NULL;
	}
	check_load(f, "after destroying a pool");
}

static void fuzz_free(struct fuzz *f)
{
	free(f->load);
	free(f->tier);
	free(f->rank);
	free(f->core_load);
	free(f->round);
	free(f->dload);
	free(f->count);
	free(f->slots);
	free(f->usable);
	free(f->tmp);
	free(f->tmp2);
	free(f->exclude);
	free(f->leaving);
	free(f->asked);
	machine_free(&f->m);
}

static int fuzz_alloc(struct fuzz *f)
{
	unsigned int n = f->n;

	f->load = calloc(n, sizeof(*f->load));
	f->tier = calloc(n, sizeof(*f->tier));
	f->rank = calloc(n, sizeof(*f->rank));
	f->core_load = calloc(n, sizeof(*f->core_load));
	f->round = calloc(n, sizeof(*f->round));
	f->dload = calloc(n, sizeof(*f->dload));
	f->count = calloc(n, sizeof(*f->count));
	f->slots = calloc(3 * n, sizeof(*f->slots));
	f->usable = fz_bitmap(f);
	f->tmp = fz_bitmap(f);
	f->tmp2 = fz_bitmap(f);
	f->exclude = fz_bitmap(f);
	f->leaving = fz_bitmap(f);
	f->asked = fz_bitmap(f);
	return f->load && f->tier && f->rank && f->core_load && f->round &&
	       f->dload && f->count &&
	       f->slots && f->usable && f->tmp && f->tmp2 && f->exclude &&
	       f->leaving && f->asked ? 0 : -1;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	irq_spread_compat_warn_fatal = true;
	irq_spread_compat_quiet = true;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct input in = { data, size };
	struct fuzz f = { 0 };
	unsigned int kind, i;

	cur = &f;
	if (build_machine(&f, &in) || fuzz_alloc(&f)) {
		fuzz_free(&f);
		cur = NULL;
		return 0;
	}
	check_load(&f, "before any spread");
	for (f.op = 1; f.op <= MAX_OPS && in.n; f.op++) {
		kind = in8(&in) % 16;
		if (kind < 7)
			op_spread(&f, &in);
		else if (kind < 9)
			op_release(&f, &in, kind == 8);
		else if (kind == 9)
			op_leaving(&f, &in);
		else if (kind == 10)
			op_pool_create(&f, &in);
		else if (kind < 13)
			op_pool_get(&f, &in);
		else if (kind < 15)
			op_pool_put(&f, &in);
		else
			op_pool_destroy(&f);
	}
	op_pool_destroy(&f);
	while (f.nr_held) {
		struct held *h = &f.held[--f.nr_held];

		irq_spread_topo_release(&f.m.topo, h->nvec, h->masks,
					h->stride);
		free(h->masks);
	}
	check_load(&f, "after every release");
	for (i = 0; f.m.topo.load && i < f.n; i++)
		if (f.m.topo.load[i])
			broken("load: cpu%u keeps %u after every release", i,
			       f.m.topo.load[i]);
	fuzz_free(&f);
	cur = NULL;
	return 0;
}
