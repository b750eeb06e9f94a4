// SPDX-License-Identifier: GPL-2.0
/*
 * irq_spread preview: the placement figures (quality.h) on small machines,
 * with the expected values worked out by hand from quality.h's definitions.
 */
#include <stdio.h>
#include <stdlib.h>

#include <linux/bitmap.h>

#include "machine.h"
#include "quality.h"
#include "check.h"

#define MAX_VEC	16

static unsigned long *masks;

/* Vector i's mask is the CPU list lists[i]. */
static void set_masks(const struct machine *m, unsigned int nvec,
		      const char *const *lists)
{
	unsigned int i;

	for (i = 0; i < nvec; i++)
		if (machine_parse_list(lists[i], masks + i * m->longs,
				       m->nr_cpus))
			CHECK(0, "bad list %s", lists[i]);
}

/* The expected figures of one placement; @crowded 0 when left out. */
struct want {
	double mean, bound;
	unsigned int shared, max, l3, ineligible, crowded;
};

/* quality_of() the masks @lists for a device on @node against @w. */
static void figures(const struct machine *m, int node, unsigned int nvec,
		    const char *const *lists, const struct want *w)
{
	struct quality q;

	set_masks(m, nvec, lists);
	quality_of(m, node, nvec, masks, m->longs, &q);
	CHECK_NEAR(q.mean_distance, w->mean);
	CHECK_NEAR(q.lower_bound, w->bound);
	CHECK_UINT(q.core_shared, w->shared);
	CHECK_UINT(q.max_per_cpu, w->max);
	CHECK_UINT(q.l3_used, w->l3);
	CHECK_UINT(q.ineligible, w->ineligible);
	CHECK_UINT(q.l3_crowded, w->crowded);
}

/*
 * Machine A: 2 nodes of 2 cores of 2 threads, CPUs numbered as Intel
 * does: first threads 0-3 (node 0: 0, 1; node 1: 2, 3), second threads
 * 4-7, so the cores are {0,4} {1,5} (node 0) and {2,6} {3,7} (node 1);
 * one L3 per node; distance 10 local, 20 to the other node.
 */
static void test_machine_a(void)
{
	static const char *const three[] = { "0", "4", "2" };
	static const char *const twelve[] = {
		"0", "1", "2", "3", "4", "5", "6", "7", "0", "1", "2", "3",
	};
	static const char *const all[] = { "0-7" };
	static const char *const cores[] = { "0,4", "4" };
	static const char *const apart[] = { "0,4", "1,5" };
	static const char *const empty[] = { "", "2" };
	static const char *const two[] = { "0", "1" };
	static const char *const eight[] = {
		"1", "4", "5", "1", "4", "5", "2", "3",
	};
	struct machine m;

	CHECK(!machine_synthetic(&m, 2, 2, 2, true, 1, 0, 20, 20),
	      "machine A");
	masks = calloc(MAX_VEC * m.longs, sizeof(*masks));

	/*
	 * Node 0, CPUs 0, 4, 2: distances 10, 10, 20: mean 40 / 3.  Three
	 * vectors on 8 CPUs: at most one each, the three nearest are at 10:
	 * bound 10.  CPU 4 is CPU 0's sibling: one vector shares a core.
	 * Both L3 domains, no CPU twice.
	 */
	figures(&m, 0, 3, three,
		&(struct want){ 40.0 / 3, 10, 1, 1, 2, 0 });

	/*
	 * Node 1, twelve vectors on CPUs 0-7 then 0-3: node 0's CPUs (0, 1,
	 * 4, 5) are at 20, node 1's at 10: 20 20 10 10 20 20 10 10 20 20 10
	 * 10, sum 180, mean 15.  Bound: ceil(12 / 8) = 2 per CPU, node 1's
	 * four CPUs twice (8 x 10), four more at 20: 160 / 12.  Vectors 0-3
	 * take the four cores, 4-11 come back to them: 8 share.  CPUs 0-3
	 * hold two vectors.  Vector 1 (CPU 1) joins vector 0 in node 0's L3
	 * at 20 while node 1's, at 10, is free: one crowded; from vector 2
	 * on both L3s hold one.
	 */
	figures(&m, 1, 12, twelve,
		&(struct want){ 15, 160.0 / 12, 8, 2, 2, 0, 1 });

	/*
	 * One vector on every CPU, node 0: its mean distance is that of its
	 * CPUs, (4 x 10 + 4 x 20) / 8 = 15; the bound is one CPU at 10.  A
	 * vector's own threads are no sharing.
	 */
	figures(&m, 0, 1, all, &(struct want){ 15, 10, 0, 1, 2, 0 });

	/*
	 * {0,4} then {4}, node 0: all at 10, bound 10; the second is on the
	 * first's core, CPU 4 twice, node 0's L3 alone.
	 */
	figures(&m, 0, 2, cores, &(struct want){ 10, 10, 1, 2, 1, 0 });
	/* {0,4} then {1,5}: two cores, nothing shared. */
	figures(&m, 0, 2, apart, &(struct want){ 10, 10, 0, 1, 1, 0 });

	/*
	 * No node: no distance figures, the others as ever; every L3 is as
	 * near, so CPU 4 joining CPU 0's L3 while node 1's is free is
	 * crowded.  (With node 0, above, node 1's L3 is farther: not.)
	 */
	figures(&m, -1, 3, three, &(struct want){ 0, 0, 1, 1, 2, 0, 1 });

	/*
	 * An empty mask has no distance: the mean is the other one's, 20; the
	 * bound is that of two vectors, 10.
	 */
	figures(&m, 0, 2, empty, &(struct want){ 20, 10, 0, 1, 1, 0 });

	/*
	 * CPU 0 isolated: not eligible (the figures read m.eligible).
	 * Vectors on 0 and 1: one ineligible.  Bound for two vectors on the
	 * 7 eligible CPUs: 1 and 4 at 10: 10.  For eight vectors: ceil(8 /
	 * 7) = 2 each, node 0's eligible 1, 4, 5 twice (6 x 10), two more at
	 * 20: 100 / 8 = 12.5, whatever the masks (here all eligible).
	 */
	__set_bit(0, m.isolated);
	__clear_bit(0, m.eligible);
	figures(&m, 0, 2, two, &(struct want){ 10, 10, 0, 1, 1, 1 });
	/*
	 * 1 4 5 1 4 5 2 3: 6 x 10 + 2 x 20, the bound exactly; 5 is on 1's
	 * core {1,5}, and the second 1 4 5 come back: 4 share; both L3s.
	 */
	figures(&m, 0, 8, eight, &(struct want){ 12.5, 12.5, 4, 2, 2, 0 });

	free(masks);
	machine_free(&m);
}

/*
 * Machine B: 4 nodes of one core of 2 threads, siblings adjacent (node n:
 * CPUs 2n, 2n+1), nodes 0-1 and 2-3 in one package each: distance 10
 * local, 15 in the package, 30 across.  From node 3 the nearest 5 CPUs,
 * one vector each: 6, 7 at 10, 4, 5 at 15, one of node 0-1's at 30:
 * (20 + 30 + 30) / 5 = 16.
 */
static void test_machine_b(void)
{
	static const char *const five[] = { "0", "2", "4", "6", "1" };
	struct machine m;

	CHECK(!machine_synthetic(&m, 4, 1, 2, false, 2, 0, 15, 30),
	      "machine B");
	masks = calloc(MAX_VEC * m.longs, sizeof(*masks));
	/* CPUs 0 2 4 6 1 from node 3: 30 30 15 10 30: mean 115 / 5 = 23. */
	figures(&m, 3, 5, five, &(struct want){ 23, 16, 1, 1, 4, 0 });
	free(masks);
	machine_free(&m);
}

/*
 * Machine C: one node of 4 cores without SMT, an L3 per 2 cores: L3 0 =
 * CPUs 0-1, L3 1 = 2-3, all at distance 10.
 */
static void test_machine_c(void)
{
	static const char *const packed[] = { "0", "1", "2" };
	static const char *const apart[] = { "0", "2", "1", "3" };
	static const char *const pair[] = { "0", "1" };
	struct machine m;

	CHECK(!machine_synthetic(&m, 1, 4, 1, false, 1, 2, 20, 20),
	      "machine C");
	masks = calloc(MAX_VEC * m.longs, sizeof(*masks));
	/* 1 joins 0's L3 while L3 1 is free: crowded; 2 opens L3 1. */
	figures(&m, 0, 3, packed, &(struct want){ 10, 10, 0, 1, 2, 0, 1 });
	/* One per L3, then the second of each: nothing crowded. */
	figures(&m, 0, 4, apart, &(struct want){ 10, 10, 0, 1, 2, 0, 0 });
	/* L3 1 with no eligible CPU is not free: 0 and 1 are not crowded. */
	__set_bit(2, m.isolated);
	__set_bit(3, m.isolated);
	__clear_bit(2, m.eligible);
	__clear_bit(3, m.eligible);
	figures(&m, 0, 2, pair, &(struct want){ 10, 10, 0, 1, 1, 0, 0 });
	free(masks);
	machine_free(&m);
}

int main(void)
{
	CHECK_CASE(test_machine_a);
	CHECK_CASE(test_machine_b);
	CHECK_CASE(test_machine_c);
	return check_done("quality_test");
}
