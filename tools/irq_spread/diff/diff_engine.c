// SPDX-License-Identifier: GPL-2.0
/*
 * irq_spread differential run, the driver (built and started by run.sh):
 * the same random machines and the same random operations on two
 * engines, old and new, in lockstep, every answer compared.
 *
 * Each machine is the fuzzer's: random bytes given to the generator of
 * fuzz/fuzz_engine.c (1 to 8 nodes, some without CPUs, random distances,
 * SMT 1 to 4 adjacent or interleaved, offline, isolated and nohz_full
 * CPUs, CPUs in no node, cores split across nodes), built by each side's
 * own machine.c into that side's own topology; both sides must describe
 * the same machine.  On it, a random sequence of:
 *
 *  - spreads: each policy (and invalid ones), NUMA_NO_NODE, each node
 *    (and invalid ones), 1 vector to three times the CPUs (and none),
 *    with or without an exclude mask, IRQ_SPREAD_SLOT_ONLY,
 *    IRQ_SPREAD_NO_HOLD (and an unknown flag), strides wider than needed
 *    (and too narrow), masks prefilled with a pattern: the return value
 *    and every word of the masks compared; held spreads stay in the load;
 *  - releases of held spreads and holds of released ones, so that the
 *    loads vary;
 *  - CPUs on their way offline (the topology's leaving mask) set and
 *    cleared;
 *  - CPUs taken offline and brought online, their core's sibling masks
 *    following, as CPU hotplug does;
 *  - irq_spread_topo_nth_cpu() queries, single or a sweep of every index
 *    of a node and policy: the answers compared;
 *
 * then, on the same machine with what those left held, a random sequence
 * of pool operations: pools created (each policy, each node and
 * NUMA_NO_NODE, 1 to 40 vectors, a bound of users or none), gets for
 * random CPUs or any CPU, puts of vectors held, and CPU hotplug told to
 * the pools: every return value, and every vector's users and CPUs,
 * compared.  The load of every CPU is compared after each operation.  The first
 * mismatch of a machine ends that machine; the first of the run is
 * printed in detail with the command that replays its machine alone.
 * Exit: 0 without a mismatch, 1 with one.  An engine's WARN_ON() aborts
 * (the compat layer's fatal warnings); the driver then says where.
 */
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "side.h"

/* The two sides: [0] old, [1] new. */
static const struct side_api *const api[2] = { &old_side_api, &new_side_api };

#define BITS_PER_LONG	(8 * sizeof(long))
#define LONGS(n)	(((n) + BITS_PER_LONG - 1) / BITS_PER_LONG)
#define MACHINE_BYTES	4096
#define MAX_HELD	8
#define MAX_POOL_USERS	512
#define FILL		0xa5a5a5a5a5a5a5a5UL
#define NUMA_NO_NODE	(-1)

static uint64_t rng;

/* splitmix64 */
static uint64_t next(void)
{
	uint64_t z = (rng += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Uniform below @n (n > 0). */
static unsigned int below(unsigned int n)
{
	return next() % n;
}

static void set_bit(unsigned int b, unsigned long *map)
{
	map[b / BITS_PER_LONG] |= 1UL << (b % BITS_PER_LONG);
}

static bool test_bit(unsigned int b, const unsigned long *map)
{
	return map[b / BITS_PER_LONG] >> (b % BITS_PER_LONG) & 1;
}

/* @map's bits below @nbits as a CPU list, into @buf. */
static const char *list(char *buf, size_t size, const unsigned long *map,
			unsigned int nbits)
{
	unsigned int a = 0, b;
	size_t len = 0;

	buf[0] = 0;
	while (a < nbits) {
		if (!test_bit(a, map)) {
			a++;
			continue;
		}
		for (b = a; b + 1 < nbits && test_bit(b + 1, map); b++)
			;
		len += snprintf(buf + len, len < size ? size - len : 0,
				a == b ? "%s%u" : "%s%u-%u", len ? "," : "",
				a, b);
		a = b + 1;
	}
	if (!len)
		snprintf(buf, size, "(none)");
	return buf;
}

/* A spread both sides hold: its arguments and each side's masks. */
struct placement {
	unsigned int nvec;
	size_t stride;
	unsigned long *masks[2];
};

/**
 * struct run - the state of the run
 * @seed: of the run: machine i is made from seed and i alone
 * @machine: the machine's number
 * @op: the operation's number on it, from 1
 * @what: the operation, as text
 * @s: the two sides' machines, old and new
 * @n: CPUs of the machine
 * @nodes: nodes of the machine
 * @held: spreads counted in both loads
 * @released: spreads released, that may be held again
 * @leaving: the leaving mask set on both, or none
 * @nr_held: spreads in @held
 * @nr_released: spreads in @released
 * @exclude: scratch
 * @pool: a pool exists on both sides
 * @nr_pool_vectors: its vectors
 * @pool_users: the vector numbers both sides' gets gave, not put yet
 * @nr_pool_users: how many
 * @pool_mask: scratch, per side
 */
struct run {
	uint64_t seed;
	unsigned int machine;
	unsigned int op;
	char what[512];
	struct side *s[2];
	unsigned int n, nodes;
	struct placement held[MAX_HELD], released[MAX_HELD];
	unsigned int nr_held, nr_released;
	unsigned long *leaving, *exclude;
	bool pool;
	unsigned int nr_pool_vectors;
	int pool_users[MAX_POOL_USERS];
	unsigned int nr_pool_users;
	unsigned long *pool_mask[2];
};

static struct {
	unsigned long machines, spreads, queries, releases, holds, leaving;
	unsigned long online, loads, mismatches;
	unsigned long pools, pool_gets, pool_puts, pool_hotplug, pool_full;
	/* Errors both sides returned: -EINVAL (22), -ENODEV (19), other. */
	unsigned long spread_err[3], query_err[3];
} count;

static void count_error(unsigned long *err, int ret)
{
	if (ret < 0)
		err[ret == -22 ? 0 : ret == -19 ? 1 : 2]++;
}

static struct run *cur;
static char *first;		/* the first mismatch, in detail */
static const char *self;

static uint64_t machine_seed(uint64_t seed, unsigned int i)
{
	uint64_t save = rng, s;

	rng = seed ^ ((uint64_t)i * 0xd1342543de82ef95ULL);
	s = next();
	rng = save;
	return s;
}

static void describe(struct run *r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(r->what, sizeof(r->what), fmt, ap);
	va_end(ap);
}

/*
 * A mismatch: count it, and keep the first one's detail (@fmt) with the
 * machine and the command that replays it.  Return false, for the caller
 * to end the machine.
 */
static bool mismatch(struct run *r, const char *fmt, ...)
{
	char *machine, *detail;
	size_t size;
	va_list ap;

	count.mismatches++;
	if (first)
		return false;
	size = 1 << 20;
	detail = malloc(size);
	first = malloc(size);
	if (!detail || !first)
		abort();
	va_start(ap, fmt);
	vsnprintf(detail, size, fmt, ap);
	va_end(ap);
	machine = api[1]->describe(r->s[1]);
	snprintf(first, size,
		 "machine %u, operation %u: %s\n%s\n"
		 "replay: %s -s %llu -f %u -n 1\n"
		 "the machine (new side's description):\n%s",
		 r->machine, r->op, r->what, detail, self,
		 (unsigned long long)r->seed, r->machine,
		 machine ? machine : "(no memory)\n");
	free(machine);
	free(detail);
	return false;
}

static void on_abort(int sig)
{
	fprintf(stderr,
		"diff_engine: aborted (an engine's WARN_ON() or a fuzzer generator's abort: see above) at machine %u, operation %u: %s\nreplay: %s -s %llu -f %u -n 1\n",
		cur ? cur->machine : 0, cur ? cur->op : 0,
		cur ? cur->what : "(none)", self,
		cur ? (unsigned long long)cur->seed : 0ULL,
		cur ? cur->machine : 0);
	signal(sig, SIG_DFL);
	raise(sig);
}

/* Masks of @nvec x @stride longs (at least one), all FILL. */
static unsigned long *masks_alloc(unsigned int nvec, size_t stride)
{
	size_t nr = (size_t)(nvec ? nvec : 1) * (stride ? stride : 1), i;
	unsigned long *p = malloc(nr * sizeof(long));

	if (!p)
		abort();
	for (i = 0; i < nr; i++)
		p[i] = FILL;
	return p;
}

/* A random CPU set of the machine, as the fuzzer's decode_mask() makes. */
static void random_mask(struct run *r, unsigned long *dst)
{
	unsigned int n = r->n, i, k, a;

	memset(dst, 0, LONGS(n) * sizeof(long));
	switch (below(6)) {
	case 0:
		for (i = 0; i < n; i++)
			set_bit(i, dst);
		break;
	case 1:
	case 2:
		for (k = 1 + below(8); k; k--)
			set_bit(below(n), dst);
		break;
	case 3:
		a = below(n);
		for (i = a, k = below(n) + 1; i < n && k; i++, k--)
			set_bit(i, dst);
		break;
	case 4:
		for (i = below(n), k = 1 + below(8); i < n; i += k)
			set_bit(i, dst);
		break;
	default:
		for (i = 0; i < n; i++)
			if (next() & 1)
				set_bit(i, dst);
		break;
	}
}

/* Both loads, CPU by CPU. */
static bool compare_loads(struct run *r)
{
	unsigned int cpu, a, b;

	count.loads++;
	for (cpu = 0; cpu < r->n; cpu++) {
		a = api[0]->load(r->s[0], cpu);
		b = api[1]->load(r->s[1], cpu);
		if (a != b)
			return mismatch(r, "cpu%u: load %u (old) against %u (new)",
					cpu, a, b);
	}
	return true;
}

static int random_node(struct run *r)
{
	static const int odd[] = { -2, INT_MIN, INT_MAX, 255 };
	unsigned int k = below(64);

	if (k < 16)
		return NUMA_NO_NODE;
	if (k < 62)
		return below(r->nodes);
	if (k == 62)
		return r->nodes;
	return odd[below(4)];
}

static int random_policy(void)
{
	static const int odd[] = { 3, -1, INT_MAX, 7 };

	return below(64) ? (int)below(3) : odd[below(4)];
}

static void drop(struct placement *p)
{
	free(p->masks[0]);
	free(p->masks[1]);
}

/* Release held spread @i on both sides; keep it for a hold again. */
static void release(struct run *r, unsigned int i)
{
	struct placement p = r->held[i];
	unsigned int k;

	for (k = 0; k < 2; k++)
		api[k]->release(r->s[k], p.nvec, p.masks[k], p.stride);
	count.releases++;
	memmove(&r->held[i], &r->held[i + 1],
		(--r->nr_held - i) * sizeof(p));
	if (r->nr_released == MAX_HELD) {
		drop(&r->released[0]);
		memmove(&r->released[0], &r->released[1],
			--r->nr_released * sizeof(p));
	}
	r->released[r->nr_released++] = p;
}

static bool op_spread(struct run *r)
{
	unsigned int n = r->n, nvec, flags, k, v, w;
	size_t longs = LONGS(n), stride, nr;
	const unsigned long *exclude = NULL;
	unsigned long *a, *b;
	int node = random_node(r), policy = random_policy(), ra, rb;
	bool no_masks = !below(64);
	char la[4096], lb[4096], le[4096] = "none", fl[64];

	k = below(10);
	nvec = k < 4 ? 1 + below(8) : k < 7 ? 1 + below(n) :
	       k < 9 ? n + below(2 * n + 1) : below(4) ? 1 + below(300) : 0;
	k = below(32);
	stride = k < 24 ? longs : k < 31 ? longs + 1 + below(2) :
		 longs - 1;
	flags = below(4);
	if (!below(64))
		flags |= SIDE_UNKNOWN_FLAG;
	if (below(2)) {
		random_mask(r, r->exclude);
		exclude = r->exclude;
		list(le, sizeof(le), exclude, n);
	}
	snprintf(fl, sizeof(fl), "%s%s%s%s",
		 flags & SIDE_SLOT_ONLY ? " SLOT_ONLY" : "",
		 flags & SIDE_NO_HOLD ? " NO_HOLD" : "",
		 flags & SIDE_UNKNOWN_FLAG ? " unknown" : "", flags ? "" : " 0");
	describe(r, "spread node %d, %u vectors, policy %d, stride %zu/%zu, flags%s, exclude %s%s",
		 node, nvec, policy, stride, longs, fl, le,
		 no_masks ? ", no masks" : "");
	a = masks_alloc(nvec, stride);
	b = masks_alloc(nvec, stride);
	ra = api[0]->spread(r->s[0], node, nvec, policy, exclude,
			    no_masks ? NULL : a, stride, flags);
	rb = api[1]->spread(r->s[1], node, nvec, policy, exclude,
			    no_masks ? NULL : b, stride, flags);
	count.spreads++;
	count_error(count.spread_err, ra);
	if (ra != rb) {
		free(a);
		free(b);
		return mismatch(r, "returned %d (old) against %d (new)", ra,
				rb);
	}
	nr = (size_t)(nvec ? nvec : 1) * (stride ? stride : 1);
	if (memcmp(a, b, nr * sizeof(long))) {
		for (w = 0; w < nr && a[w] == b[w]; w++)
			;
		v = stride ? w / stride : 0;
		mismatch(r, "returned %d; vector %u's mask (word %zu of its %zu): old %s, new %s",
			 ra, v, stride ? w % stride : 0, stride,
			 list(la, sizeof(la), a + v * stride,
			      stride * BITS_PER_LONG),
			 list(lb, sizeof(lb), b + v * stride,
			      stride * BITS_PER_LONG));
		free(a);
		free(b);
		return false;
	}
	if (ra < 0 || no_masks || (flags & SIDE_NO_HOLD)) {
		free(a);
		free(b);
		return true;
	}
	if (r->nr_held == MAX_HELD)
		release(r, 0);
	r->held[r->nr_held++] = (struct placement){ nvec, stride, { a, b } };
	return true;
}

static bool op_query(struct run *r)
{
	int node = random_node(r), policy = random_policy(), a, b;
	unsigned int index, i, last, k = below(8);

	if (k < 2) {
		/* A sweep: every slot of a node and policy, and round again. */
		index = 0;
		last = r->n + 2;
	} else {
		index = k < 6 ? below(r->n) : k < 7 ? below(4 * r->n) :
			UINT_MAX - below(4);
		last = index;
	}
	for (i = index; ; i++) {
		describe(r, "nth_cpu node %d, index %u, policy %d", node, i,
			 policy);
		a = api[0]->nth_cpu(r->s[0], node, i, policy);
		b = api[1]->nth_cpu(r->s[1], node, i, policy);
		count.queries++;
		count_error(count.query_err, a);
		if (a != b)
			return mismatch(r, "returned %d (old) against %d (new)",
					a, b);
		if (i == last)
			break;
	}
	return true;
}

static void op_leaving(struct run *r)
{
	const unsigned long *leaving = NULL;
	char l[4096] = "none";
	unsigned int k;

	if (below(2)) {
		random_mask(r, r->leaving);
		leaving = r->leaving;
		list(l, sizeof(l), leaving, r->n);
	}
	describe(r, "leaving %s", l);
	for (k = 0; k < 2; k++)
		api[k]->set_leaving(r->s[k], leaving);
	count.leaving++;
}

/* CPU hotplug: a CPU goes offline or comes online, on both sides. */
static void op_online(struct run *r)
{
	unsigned int cpu = below(r->n), k;
	bool online = below(2);

	describe(r, "cpu%u %s", cpu, online ? "online" : "offline");
	for (k = 0; k < 2; k++)
		api[k]->set_online(r->s[k], cpu, online);
	count.online++;
}

static void op_release(struct run *r)
{
	if (!r->nr_held)
		return;
	describe(r, "release");
	release(r, below(r->nr_held));
}

static void op_hold(struct run *r)
{
	struct placement p;
	unsigned int k;

	if (!r->nr_released || r->nr_held == MAX_HELD)
		return;
	p = r->released[--r->nr_released];
	describe(r, "hold again a released spread of %u vectors", p.nvec);
	for (k = 0; k < 2; k++)
		api[k]->hold(r->s[k], p.nvec, p.masks[k], p.stride);
	count.holds++;
	r->held[r->nr_held++] = p;
}

/* Every vector of both pools: users and CPUs. */
static bool compare_pool(struct run *r)
{
	unsigned int v, u[2], k;
	char a[4096], b[4096];

	if (!r->pool)
		return true;
	for (v = 0; v < r->nr_pool_vectors; v++) {
		for (k = 0; k < 2; k++)
			u[k] = api[k]->pool_vector(r->s[k], v, r->pool_mask[k]);
		if (u[0] == u[1] &&
		    !memcmp(r->pool_mask[0], r->pool_mask[1],
			    LONGS(r->n) * sizeof(long)))
			continue;
		return mismatch(r, "pool vector %u: %u users on %s (old) against %u on %s (new)",
				v, u[0], list(a, sizeof(a), r->pool_mask[0], r->n),
				u[1], list(b, sizeof(b), r->pool_mask[1], r->n));
	}
	return true;
}

static bool op_pool_create(struct run *r)
{
	unsigned int nr = 1 + below(40), max_users = below(2) ? 0 : 1 + below(6);
	int node = below(4) ? (int)below(r->nodes) : NUMA_NO_NODE;
	int policy = below(3), ret[2], k;

	describe(r, "pool of %u vectors, node %d, policy %d, max_users %u",
		 nr, node, policy, max_users);
	for (k = 0; k < 2; k++)
		ret[k] = api[k]->pool_create(r->s[k], node, policy, nr,
					     max_users);
	if (ret[0] != ret[1])
		return mismatch(r, "create: %d (old) against %d (new)", ret[0],
				ret[1]);
	count.pools++;
	r->pool = !ret[0];
	r->nr_pool_vectors = nr;
	r->nr_pool_users = 0;
	return true;
}

static bool op_pool_get(struct run *r)
{
	const unsigned long *cpus = NULL;
	char c[4096] = "any";
	int ret[2], k;

	if (r->nr_pool_users == MAX_POOL_USERS)
		return true;
	if (below(8)) {
		random_mask(r, r->exclude);
		cpus = r->exclude;
		list(c, sizeof(c), cpus, r->n);
	}
	describe(r, "pool get for %s", c);
	for (k = 0; k < 2; k++)
		ret[k] = api[k]->pool_get(r->s[k], cpus);
	if (ret[0] != ret[1])
		return mismatch(r, "get: %d (old) against %d (new)", ret[0],
				ret[1]);
	count.pool_gets++;
	if (ret[0] >= 0)
		r->pool_users[r->nr_pool_users++] = ret[0];
	else
		count.pool_full++;
	return true;
}

static bool op_pool_put(struct run *r)
{
	unsigned int i;
	int ret[2], k, v;

	if (!r->nr_pool_users)
		return true;
	i = below(r->nr_pool_users);
	v = r->pool_users[i];
	r->pool_users[i] = r->pool_users[--r->nr_pool_users];
	describe(r, "pool put of vector %d", v);
	for (k = 0; k < 2; k++)
		ret[k] = api[k]->pool_put(r->s[k], v);
	if (ret[0] != ret[1] || ret[0])
		return mismatch(r, "put: %d (old) against %d (new)", ret[0],
				ret[1]);
	count.pool_puts++;
	return true;
}

static void op_pool_cpu(struct run *r)
{
	unsigned int cpu = below(r->n), k;
	bool online = below(2);

	describe(r, "cpu%u %s, the pools told", cpu,
		 online ? "online" : "offline");
	for (k = 0; k < 2; k++)
		api[k]->pool_cpu(r->s[k], cpu, online);
	count.pool_hotplug++;
}

/* @ops pool operations on machine @r: false on a mismatch. */
static bool pool_ops(struct run *r, unsigned int ops)
{
	unsigned int i, k;
	bool ok = true;

	for (k = 0; k < 2; k++) {
		r->pool_mask[k] = calloc(LONGS(r->n), sizeof(long));
		if (!r->pool_mask[k])
			abort();
	}
	r->pool = false;
	for (i = 0; ok && i < ops; i++, r->op++) {
		k = below(100);
		if (!r->pool || k < 2)
			ok = op_pool_create(r);
		else if (k < 60)
			ok = op_pool_get(r);
		else if (k < 92)
			ok = op_pool_put(r);
		else
			op_pool_cpu(r);
		ok = ok && compare_pool(r) && compare_loads(r);
	}
	if (r->pool) {
		for (k = 0; k < 2; k++)
			api[k]->pool_destroy(r->s[k]);
		ok = ok && compare_loads(r);
	}
	free(r->pool_mask[0]);
	free(r->pool_mask[1]);
	return ok;
}

/* Machine @i of the run: false on a mismatch. */
static bool one_machine(struct run *r, unsigned int i, unsigned int ops,
			unsigned int nr_pool_ops)
{
	unsigned char bytes[MACHINE_BYTES];
	char *text[2];
	unsigned int k;
	bool ok = true;

	r->machine = i;
	r->op = 0;
	describe(r, "building the machine");
	rng = machine_seed(r->seed, i);
	for (k = 0; k < MACHINE_BYTES; k++)
		bytes[k] = next();
	for (k = 0; k < 2; k++) {
		r->s[k] = api[k]->create(bytes, sizeof(bytes));
		if (!r->s[k]) {
			fprintf(stderr, "diff_engine: machine %u: the %s side could not build it\n",
				i, k ? "new" : "old");
			exit(2);
		}
		text[k] = api[k]->describe(r->s[k]);
		if (!text[k])
			abort();
	}
	count.machines++;
	r->n = api[1]->nr_cpus(r->s[1]);
	r->nodes = api[1]->nr_nodes(r->s[1]);
	/* The generators differ, or a side's machine.c reads them otherwise. */
	if (strcmp(text[0], text[1]))
		ok = mismatch(r, "the sides built different machines; the old one:\n%s",
			      text[0]);
	free(text[0]);
	free(text[1]);
	r->leaving = calloc(LONGS(r->n), sizeof(long));
	r->exclude = calloc(LONGS(r->n), sizeof(long));
	if (!r->leaving || !r->exclude)
		abort();

	for (r->op = 1; ok && r->op <= ops; r->op++) {
		k = below(100);
		if (k < 45)
			ok = op_spread(r);
		else if (k < 75)
			ok = op_query(r);
		else if (k < 87)
			op_release(r);
		else if (k < 93)
			op_hold(r);
		else if (k < 97)
			op_leaving(r);
		else
			op_online(r);
		ok = ok && compare_loads(r);
	}
	ok = ok && pool_ops(r, nr_pool_ops);
	if (ok) {
		describe(r, "releasing every spread held");
		while (r->nr_held)
			release(r, r->nr_held - 1);
		ok = compare_loads(r);
	}
	while (r->nr_held)
		drop(&r->held[--r->nr_held]);
	while (r->nr_released)
		drop(&r->released[--r->nr_released]);
	for (k = 0; k < 2; k++)
		api[k]->destroy(r->s[k]);
	free(r->leaving);
	free(r->exclude);
	return ok;
}

static void print_usage(void)
{
	fprintf(stderr,
		"usage: diff_engine [-n MACHINES] [-o OPS] [-p OPS] [-s SEED] [-f FIRST]\n"
		"  -n  machines (default 1000)\n"
		"  -o  operations per machine (default 60)\n"
		"  -p  pool operations per machine, after those (default 60)\n"
		"  -s  seed of the run (default: from the clock; printed)\n"
		"  -f  number of the first machine (default 0): -s S -f I -n 1\n"
		"      replays machine I of a run of seed S\n");
	exit(2);
}

int main(int argc, char **argv)
{
	unsigned long machines = 1000, ops = 60, nr_pool_ops = 60, from = 0, i;
	unsigned long bad = 0;
	struct run r = { .seed = (uint64_t)time(NULL) };
	double t0;
	char *end;
	int c;

	self = argv[0];
	while ((c = getopt(argc, argv, "n:o:p:s:f:h")) != -1) {
		switch (c) {
		case 'n':
			machines = strtoul(optarg, &end, 10);
			break;
		case 'o':
			ops = strtoul(optarg, &end, 10);
			break;
		case 'p':
			nr_pool_ops = strtoul(optarg, &end, 10);
			break;
		case 's':
			r.seed = strtoull(optarg, &end, 10);
			break;
		case 'f':
			from = strtoul(optarg, &end, 10);
			break;
		default:
			print_usage();
		}
		if (*end)
			print_usage();
	}
	if (optind != argc || from + machines > UINT_MAX)
		print_usage();
	cur = &r;
	signal(SIGABRT, on_abort);
	t0 = clock() / (double)CLOCKS_PER_SEC;
	for (i = from; i < from + machines; i++)
		bad += !one_machine(&r, i, ops, nr_pool_ops);
	printf("diff: seed %llu, machines %lu to %lu: %lu machines,\n",
	       (unsigned long long)r.seed, from, from + machines - 1,
	       count.machines);
	printf("  %lu spreads (errors: %lu -EINVAL, %lu -ENODEV, %lu other),\n",
	       count.spreads, count.spread_err[0], count.spread_err[1],
	       count.spread_err[2]);
	printf("  %lu queries (errors: %lu -EINVAL, %lu -ENODEV, %lu other),\n",
	       count.queries, count.query_err[0], count.query_err[1],
	       count.query_err[2]);
	printf("  %lu releases, %lu holds, %lu leaving masks, %lu CPU hotplug steps,\n",
	       count.releases, count.holds, count.leaving, count.online);
	printf("  %lu pools, %lu pool gets (%lu with no vector), %lu puts,\n",
	       count.pools, count.pool_gets, count.pool_full, count.pool_puts);
	printf("  %lu CPU hotplug steps told to pools,\n", count.pool_hotplug);
	printf("  %lu load comparisons:\n", count.loads);
	printf("  %lu mismatches, on %lu machines; %.1f s of CPU\n",
	       count.mismatches, bad, clock() / (double)CLOCKS_PER_SEC - t0);
	if (first) {
		printf("first mismatch: %s", first);
		return 1;
	}
	return 0;
}
