// SPDX-License-Identifier: GPL-2.0
/*
 * irq_spread preview: the benchmark's peers (bench/peers.h) on small
 * machines, each expected placement worked out by hand from the peer's
 * source as bench/peers.c describes it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/bitmap.h>

#include "machine.h"
#include "bench/peers.h"
#include "check.h"

#define MAX_VEC	16

static const struct peer *find_peer(const char *name)
{
	unsigned int i;

	for (i = 0; i < nr_peers; i++)
		if (!strcmp(peers[i].name, name))
			return &peers[i];
	fprintf(stderr, "no peer %s\n", name);
	exit(1);
}

/*
 * Place @nvec vectors with peer @name for a device on @node, and check
 * vector i's mask against the CPU list want[i].
 */
static void expect(const struct machine *m, const char *name, int node,
		   unsigned int nvec, const char *const *want)
{
	unsigned long *masks = calloc(MAX_VEC * m->longs, sizeof(*masks));
	char got[64];
	unsigned int i;

	find_peer(name)->place(m, node, nvec, masks, m->longs);
	for (i = 0; i < nvec; i++) {
		machine_format_list(got, sizeof(got), masks + i * m->longs,
				    m->nr_cpus);
		CHECK(!strcmp(got, want[i]),
		      "%s node %d, %u vectors: vector %u on %s, expected %s",
		      name, node, nvec, i, got, want[i]);
	}
	free(masks);
}

/*
 * Machine A: 2 nodes of 2 cores of 2 threads, CPUs numbered as Intel
 * does: cores {0,4} {1,5} on node 0, {2,6} {3,7} on node 1; one L3 per
 * node; distance 10 local, 20 remote.
 */
static void test_machine_a(void)
{
	/*
	 * MANA, node 0.  Hop 0 adds node 0's CPUs 0 1 4 5, weight 4.  Round
	 * 1: CPU 0 takes core {0,4} (weight 3, 4 leaves the round), CPU 1
	 * takes {1,5} (weight 2); round 2 the same (weight 0).  Hop 1: node
	 * 1 likewise, twice {2,6} {3,7}.  The loop ends there: vectors 8 and
	 * 9 keep every online CPU.
	 */
	static const char *const mana0[] = {
		"0,4", "1,5", "0,4", "1,5", "2,6", "3,7", "2,6", "3,7",
		"0-7", "0-7",
	};
	/* No node: one hop, every online CPU, weight 8: two rounds of 4. */
	static const char *const mana_none[] = {
		"0,4", "1,5", "2,6", "3,7", "0,4", "1,5", "2,6", "3,7",
		"0-7",
	};
	/* Node 1: its cores first, then node 0's. */
	static const char *const mana1[] = { "2,6", "3,7", "2,6" };
	/*
	 * 6.3+ local spread, node 1: hop 0 is node 1's CPUs by number
	 * (2 3 6 7), hop 1 node 0's (0 1 4 5); vector 8 wraps to the first.
	 */
	static const char *const local1[] = {
		"2", "3", "6", "7", "0", "1", "4", "5", "2",
	};
	/* No node: online CPUs by number. */
	static const char *const local_none[] = { "0", "1", "2" };
	/*
	 * group_cpus_evenly(1): no more groups (1) than nodes (2): group 0
	 * gets every node's CPUs.  (2): one node each, node 0's first.
	 */
	static const char *const gce1[] = { "0-7" };
	static const char *const gce2[] = { "0-1,4-5", "2-3,6-7" };
	/*
	 * (4): nodes of 4 CPUs each; sort() of the two equal entries swaps
	 * them (sift-down leaves [n0, n1], the final swap of the heapsort
	 * makes it [n1, n0]), so node 1 comes first: 4 * 4 / 8 = 2 groups,
	 * then node 0 the remaining 2 * 4 / 4 = 2.  Groups of 2: first CPU
	 * left, then its sibling: node 1 {2,6} {3,7}, node 0 {0,4} {1,5}.
	 */
	static const char *const gce4[] = { "2,6", "3,7", "0,4", "1,5" };
	/*
	 * (3): node 1 first gets max(1, 3 * 4 / 8) = 1 group of its 4 CPUs
	 * (2, its sibling 6, then 3, 7), node 0 the other 2 * 4 / 4 = 2.
	 */
	static const char *const gce3[] = { "2-3,6-7", "0,4", "1,5" };
	/*
	 * (10): cut to 8 groups, 4 per node, one CPU each by number, node 1
	 * first; vectors 8 and 9 have no group: left alone.
	 */
	static const char *const gce10[] = {
		"2", "3", "6", "7", "0", "1", "4", "5", "0-7", "0-7",
	};
	/*
	 * udev spread: L3 domains are the nodes: domain 0's first threads
	 * 0 1, domain 1's 2 3; in equidistant order [0,1] stays; domains
	 * alternate 0 1: CPUs 0 2 1 3, then all start again: 0 2.  The
	 * node does not matter.
	 */
	static const char *const udev[] = { "0", "2", "1", "3", "0", "2" };
	struct machine m;

	CHECK(!machine_synthetic(&m, 2, 2, 2, true, 1, 0, 20, 20),
	      "machine A");
	expect(&m, "mana_irq_setup", 0, 10, mana0);
	expect(&m, "mana_irq_setup", -1, 9, mana_none);
	expect(&m, "mana_irq_setup", 1, 3, mana1);
	expect(&m, "local_spread", 1, 9, local1);
	expect(&m, "local_spread", -1, 3, local_none);
	expect(&m, "local_spread_pre63", -1, 3, local_none);
	expect(&m, "group_cpus_evenly", 0, 1, gce1);
	expect(&m, "group_cpus_evenly", 0, 2, gce2);
	expect(&m, "group_cpus_evenly", 1, 2, gce2);
	expect(&m, "group_cpus_evenly", 0, 4, gce4);
	expect(&m, "group_cpus_evenly", 0, 3, gce3);
	expect(&m, "group_cpus_evenly", -1, 10, gce10);
	expect(&m, "udev_spread", 0, 6, udev);
	expect(&m, "udev_spread", 1, 6, udev);
	expect(&m, "udev_spread", -1, 6, udev);

	/*
	 * CPU 1 isolated: no peer looks at isolation, the kernel ones place
	 * on online CPUs and udevd reads online ones: local spread from node
	 * 0 still starts 0 1, udev 0 2 1.
	 */
	__set_bit(1, m.isolated);
	__clear_bit(1, m.eligible);
	{
		static const char *const local_iso[] = { "0", "1" };

		expect(&m, "local_spread", 0, 2, local_iso);
		expect(&m, "udev_spread", 0, 3, udev);
	}

	/*
	 * CPU 4 offline: it leaves every sibling mask (MANA's {0}), and the
	 * online count is 7 (local spread wraps after 7: vector 7 is the
	 * first again).  MANA node 0: hop 0 adds 0 1 5, weight 3: round 1
	 * {0} {1,5} (weight 1), round 2 {0} {1,5} (weight -1).
	 */
	__clear_bit(4, m.online);
	{
		static const char *const mana_off[] = {
			"0", "1,5", "0", "1,5", "2,6",
		};
		static const char *const local_off[] = {
			"0", "1", "5", "2", "3", "6", "7", "0",
		};

		expect(&m, "mana_irq_setup", 0, 5, mana_off);
		expect(&m, "local_spread", 0, 8, local_off);
	}
	machine_free(&m);
}

/*
 * Machine B: 4 nodes of one core of 2 threads, siblings adjacent (node n:
 * CPUs 2n, 2n+1), nodes 0-1 and 2-3 in one package each: distance 10
 * local, 15 in the package, 30 across.
 */
static void test_machine_b(void)
{
	/*
	 * Pre-6.3, node 2: its CPUs 4 5, then the other online CPUs by number,
	 * 0 1 2 3 6 7, whatever their distance; vector 8 wraps.
	 */
	static const char *const pre2[] = {
		"4", "5", "0", "1", "2", "3", "6", "7", "4",
	};
	/* 6.3+, node 2: 4 5 (10), 6 7 (node 3, 15), 0 1 2 3 (30). */
	static const char *const local2[] = {
		"4", "5", "6", "7", "0", "1", "2", "3", "4",
	};
	/*
	 * MANA, node 2: hop 0 adds 4 5, one core, weight 2: two rounds of
	 * {4,5}; hop 1 (15) adds node 3: two of {6,7}; hop 2 (30) adds
	 * nodes 0 and 1: weight 4, one round {0,1} {2,3}, a second the same.
	 */
	static const char *const mana2[] = {
		"4-5", "4-5", "6-7", "6-7", "0-1", "2-3", "0-1", "2-3", "0-7",
	};
	/*
	 * group_cpus_evenly(8): four nodes of 2 CPUs; the kernel's heapsort
	 * of four equal entries [n0 n1 n2 n3] (by hand: the heap build
	 * changes nothing; the first extraction swaps n0 and n3 and picks
	 * the right child; then the final swap) ends [n1 n3 n2 n0]: 2
	 * groups each (8 * 2 / 8, 6 * 2 / 6, ...), one CPU per group.
	 */
	static const char *const gce8[] = {
		"2", "3", "6", "7", "4", "5", "0", "1",
	};
	/*
	 * (4): no more groups than nodes: group g gets node g's CPUs, by
	 * node number; no sort.
	 */
	static const char *const gce4[] = { "0-1", "2-3", "4-5", "6-7" };
	/*
	 * udev: four L3 domains (the nodes) of one first thread each (0 2 4
	 * 6); domains in equidistant order 0 2 1 3: CPUs 0 4 2 6, then 0.
	 */
	static const char *const udev[] = { "0", "4", "2", "6", "0" };
	struct machine m;

	CHECK(!machine_synthetic(&m, 4, 1, 2, false, 2, 0, 15, 30),
	      "machine B");
	expect(&m, "local_spread_pre63", 2, 9, pre2);
	expect(&m, "local_spread", 2, 9, local2);
	expect(&m, "mana_irq_setup", 2, 9, mana2);
	expect(&m, "group_cpus_evenly", 2, 8, gce8);
	expect(&m, "group_cpus_evenly", 2, 4, gce4);
	expect(&m, "udev_spread", 3, 5, udev);
	machine_free(&m);
}

/*
 * Machine C: one node of 5 cores, one thread each, one L3: udev's
 * equidistant order of [0 1 2 3 4]: halves [0 1 2] and [3 4]; [0 1 2]
 * gives [0 1] -> [0 1] and [2]: [0 2 1]; [3 4] stays; interleaved:
 * 0 3 2 4 1.
 */
static void test_machine_c(void)
{
	static const char *const udev[] = { "0", "3", "2", "4", "1", "0" };
	struct machine m;

	CHECK(!machine_synthetic(&m, 1, 5, 1, false, 1, 0, 10, 10),
	      "machine C");
	expect(&m, "udev_spread", 0, 6, udev);
	machine_free(&m);
}

/*
 * Machine D: one node of 8 cores of 2 threads, Intel numbering (core g:
 * CPUs g and 8 + g), one L3 per 2 cores: domains {0,1} {2,3} {4,5} {6,7}
 * by first thread.  Domain order [0 1 2 3] -> [0 2 1 3]; each domain's
 * [a b] stays.  Round 1: 0 4 2 6, round 2: 1 5 3 7, then again 0 4.
 */
static void test_machine_d(void)
{
	static const char *const udev[] = {
		"0", "4", "2", "6", "1", "5", "3", "7", "0", "4",
	};
	struct machine m;

	CHECK(!machine_synthetic(&m, 1, 8, 2, true, 1, 2, 10, 10),
	      "machine D");
	expect(&m, "udev_spread", 0, 10, udev);
	machine_free(&m);
}

int main(void)
{
	CHECK_CASE(test_machine_a);
	CHECK_CASE(test_machine_b);
	CHECK_CASE(test_machine_c);
	CHECK_CASE(test_machine_d);
	return check_done("peers_test");
}
