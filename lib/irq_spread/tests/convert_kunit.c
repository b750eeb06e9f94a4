// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests: mlx5 and MANA converted to irq_spread place their vectors
 * where their old code did, vector by vector.
 *
 * Each case registers a device on an injected machine exactly as the
 * converted driver does, under the driver's default policy, and compares
 * every device vector, as irq_spread_dev_vector_mask() and
 * irq_spread_dev_vector_cpu() give it and as attaching its (fake)
 * interrupt applies it, with the old driver's placement:
 *
 * mlx5 (PF): policy numa; device vector 0, the control/async vector, is
 *	reserved on every CPU (IRQ_SPREAD_ALL_CPUS), where the old
 *	mlx5_ctrl_irq_request() put it (cpu_online_mask); completion vector i
 *	is device vector 1 + i, where the old comp_irq_request_pci() put it:
 *	cpumask_of(cpumask_local_spread(i, node)).
 * mlx5 PF/VF with a single IRQ, which control and completion share: one
 *	spread vector, no reserved one.  The old mlx5_ctrl_irq_request()
 *	requested it first, on the first online CPU, and completion vector 0
 *	took that IRQ as it was; the library places it as completion vector
 *	0, cpumask_local_spread(0, node): the same CPU on node 0, the node's
 *	first CPU elsewhere (differing on purpose, nearer the device).
 * mlx5 SFs: irq_spread_test_convert_sf() below.
 * MANA: policy numa-core.  With nvec MSI-X vectors and nvec <= online
 *	CPUs, nvec spread vectors, the hardware channel (HWC) being the first
 *	one, as the old irq_setup() of all nvec; with nvec == online CPUs + 1,
 *	the HWC is reserved vector 0 following spread vector 0 and the nvec - 1
 *	queue vectors are spread, where the old mana_gd_setup_irqs() put the
 *	HWC on cpumask_of(cpumask_local_spread(0, node)) and irq_setup() the
 *	others.
 *
 * The old placements are, for the small machines, worked out by hand and
 * written in the cases; for the seed machines (EPYC, the 96-vCPU VM, the
 * Xeon), derived by old_local_spread() and old_irq_setup() below, which
 * follow the old code's description over the injected machine (not the
 * library's code: they use only the machine's description).  On the small
 * machines the test also checks that these references give the hand
 * tables.
 *
 * The library differs on purpose in one way, its numa-core rule: where the
 * old irq_setup() gave two vectors the same whole core (it walks a hop's
 * cores once per pass, as many passes as the hop has threads per core),
 * the library gives each vector of a core holding more than one of the
 * device's vectors one thread of it: the core's threads in CPU order, in
 * the order the old code handed out the core
 * (Documentation/core-api/irq_spread.rst, "Differences from the drivers'
 * old placement").  The expected library placement is the old one with
 * that rule applied; each case gives, counted by hand, how many vectors
 * differ from the old code, and its name says so.
 */
#include <kunit/device.h>
#include <kunit/static_stub.h>
#include <kunit/test.h>
#include <linux/bitmap.h>
#include <linux/cpumask.h>
#include <linux/device.h>
#include <linux/err.h>
#include <linux/find.h>
#include <linux/irq_spread.h>
#include <linux/kstrtox.h>
#include <linux/minmax.h>
#include <linux/numa.h>
#include <linux/slab.h>
#include <linux/sprintf.h>
#include <linux/string.h>

#include "../device.h"
#include "../pool.h"
#include "machine.h"

MODULE_IMPORT_NS("EXPORTED_FOR_KUNIT_TESTING");

#define CONV_IRQ_BASE	1000

/*
 * A MANA VM with few vCPUs: one node, 2 cores SMT2, siblings 2k, 2k+1.
 */
static const char * const vm4_nodes[] = { "0-3" };

static const struct test_machine vm4 = {
	.name = "VM 4 vCPU 2C SMT2", .nr_cpus = 4, .nr_nodes = 1,
	.node_cpus = vm4_nodes, .smt = 2,
};

/*
 * A small VM that a dual-port mlx5 gives more completion vectors than CPUs
 * (2 per CPU): two nodes of two SMT2 cores, node 0 CPUs 0-3, node 1 CPUs
 * 4-7, siblings 2k, 2k+1, distances 10 and 20.
 */
static const char * const vm8_nodes[] = { "0-3", "4-7" };

static const struct test_machine vm8 = {
	.name = "VM 8 vCPU 2N SMT2", .nr_cpus = 8, .nr_nodes = 2,
	.node_cpus = vm8_nodes, .remote = 20, .smt = 2,
};

enum conv_driver {
	CONV_MLX5,
	CONV_MLX5_ONE,
	CONV_MANA,
};

/**
 * struct conv_case - a driver's device on a machine
 * @desc: what it is; says "differs" when some vector differs on purpose
 * @m: the machine
 * @drv: the driver
 * @node: the device's node
 * @nvec: mlx5: completion vectors (num_ports * online CPUs for every
 *	port's channels); mlx5 with a single IRQ: 1; MANA: MSI-X vectors, the
 *	HWC's included (at most online CPUs + 1, as mana_gd_setup_irqs() asks)
 * @old: the old driver's placement, by device vector, ";" between vectors,
 *	worked out by hand; %NULL: old_placement() derives it
 * @want: the library's, by hand, where it differs; %NULL: the old one
 *	with the numa-core rule applied (lib_placement())
 * @differs: number of vectors on which the library differs on purpose,
 *	counted by hand
 * @table: print the first @table vectors, old and library, for the notes
 */
struct conv_case {
	const char *desc;
	const struct test_machine *m;
	enum conv_driver drv;
	int node;
	unsigned int nvec;
	const char *old;
	const char *want;
	unsigned int differs;
	unsigned int table;
};

static const struct conv_case conv_cases[] = {
	/*
	 * MANA's VM, 8 vCPUs, cores 0-1, 2-3, 4-5, 6-7.  mlx5: the control
	 * vector on CPUs 0-7, completion vector i on cpumask_local_spread(i,
	 * 0) = CPU i % 8 (one node: CPU number order, wrapping).
	 */
	{ "mlx5 mana-vm 8 comp", &irq_spread_test_mana_vm, CONV_MLX5, 0, 8,
	  .old = "0-7;0;1;2;3;4;5;6;7" },
	{ "mlx5 mana-vm 16 comp (dual port, > CPUs)", &irq_spread_test_mana_vm,
	  CONV_MLX5, 0, 16,
	  .old = "0-7;0;1;2;3;4;5;6;7;0;1;2;3;4;5;6;7" },
	/*
	 * MANA, 9 vectors: the HWC on cpumask_local_spread(0, 0) = 0;
	 * irq_setup() of 8: hop 0 (CPUs 0-7) has weight 8; each pass hands
	 * out the 4 cores once (weight 8 - 4 = 4, then 0): 0-1, 2-3, 4-5,
	 * 6-7 twice.  The library: every core holds two queue vectors, so a
	 * thread each, first threads on the first pass: 0;2;4;6;1;3;5;7;
	 * the HWC follows spread vector 0: CPU 0, as before.
	 */
	{ "mana mana-vm 9 (HWC + 8; differs: a thread each)",
	  &irq_spread_test_mana_vm, CONV_MANA, 0, 9,
	  .old = "0;0-1;2-3;4-5;6-7;0-1;2-3;4-5;6-7",
	  .want = "0;0;2;4;6;1;3;5;7", .differs = 8 },
	/* 8 vectors, none reserved: the same without the HWC in front. */
	{ "mana mana-vm 8 (differs: a thread each)", &irq_spread_test_mana_vm,
	  CONV_MANA, 0, 8,
	  .old = "0-1;2-3;4-5;6-7;0-1;2-3;4-5;6-7",
	  .want = "0;2;4;6;1;3;5;7", .differs = 8 },
	/*
	 * 6: the second pass stops after cores 0-1 and 2-3, which hold two
	 * vectors each and get a thread per vector; 4-5 and 6-7 stay whole.
	 */
	{ "mana mana-vm 6 (differs: 2 cores a thread each)",
	  &irq_spread_test_mana_vm, CONV_MANA, 0, 6,
	  .old = "0-1;2-3;4-5;6-7;0-1;2-3",
	  .want = "0;2;4-5;6-7;1;3", .differs = 4 },
	/* 4: one vector per core, whole cores: the same (seed 002, case 1). */
	{ "mana mana-vm 4", &irq_spread_test_mana_vm, CONV_MANA, 0, 4,
	  .old = "0-1;2-3;4-5;6-7" },

	/*
	 * A 4-vCPU VM, cores 0-1 and 2-3.  MANA, 5 vectors: the HWC on
	 * CPU 0, irq_setup() of 4 gives the 2 cores twice: 0-1, 2-3, 0-1,
	 * 2-3; the library one IRQ per vCPU, 0, 2, 1, 3, the HWC with
	 * queue 0 on CPU 0.
	 */
	{ "mana vm4 5 (HWC + 4; differs: one IRQ per vCPU)", &vm4, CONV_MANA,
	  0, 5, .old = "0;0-1;2-3;0-1;2-3", .want = "0;0;2;1;3",
	  .differs = 4 },
	{ "mana vm4 2", &vm4, CONV_MANA, 0, 2, .old = "0-1;2-3" },
	{ "mlx5 vm4 8 comp (dual port, > CPUs)", &vm4, CONV_MLX5, 0, 8,
	  .old = "0-3;0;1;2;3;0;1;2;3" },

	/*
	 * A PF/VF with a single IRQ: the old control IRQ on the first online
	 * CPU, 0; the library's completion vector 0 on its node's first CPU:
	 * 0 for node 0, 4 for node 1 of the 2-node VM, 40 for the EPYC's node
	 * 5 (CPUs 40-47, 168-175).
	 */
	{ "mlx5 single IRQ vm8 node 0", &vm8, CONV_MLX5_ONE, 0, 1, .old = "0" },
	{ "mlx5 single IRQ vm8 node 1 (differs: on its node)", &vm8,
	  CONV_MLX5_ONE, 1, 1, .old = "0", .want = "4", .differs = 1 },
	{ "mlx5 single IRQ epyc node 5 (differs: on its node)",
	  &irq_spread_test_epyc, CONV_MLX5_ONE, 5, 1, .old = "0", .want = "40",
	  .differs = 1 },

	/*
	 * The 8-vCPU 2-node VM, device on node 1.  mlx5, 16 completion
	 * vectors: node 1's CPUs 4-7 first, then node 0's 0-3, twice
	 * (cpumask_local_spread() wraps i modulo 8).
	 */
	{ "mlx5 vm8 node 1 16 comp (dual port, > CPUs)", &vm8, CONV_MLX5, 1,
	  16, .old = "0-7;4;5;6;7;0;1;2;3;4;5;6;7;0;1;2;3" },
	/*
	 * MANA, 9 vectors: the HWC on cpumask_local_spread(0, 1) = 4;
	 * irq_setup() of 8: hop 0 (4-7) gives 4-5, 6-7 twice, hop 1 (0-3)
	 * 0-1, 2-3 twice.  The library: a thread each, per hop first
	 * threads first: 4;6;5;7, then 0;2;1;3; the HWC follows: 4.
	 */
	{ "mana vm8 node 1 9 (HWC + 8; differs: a thread each)", &vm8,
	  CONV_MANA, 1, 9,
	  .old = "4;4-5;6-7;4-5;6-7;0-1;2-3;0-1;2-3",
	  .want = "4;4;6;5;7;0;2;1;3", .differs = 8 },
	/*
	 * 3: 4-5, 6-7, then the second pass's 4-5.  The library: core 4-5
	 * holds two vectors, a thread each (4, then 5); 6-7 stays whole.
	 */
	{ "mana vm8 node 1 3 (differs: core 4-5 a thread each)", &vm8,
	  CONV_MANA, 1, 3, .old = "4-5;6-7;4-5", .want = "4;6-7;5",
	  .differs = 2 },

	/*
	 * EPYC, node 0: hop 0 node 0 (0-7, 128-135), hop 1 its quadrant
	 * partner node 1 (8-15, 136-143), hop 2 nodes 2-7, hop 3 8-15.
	 * mlx5: the CPUs in that order; MANA: node 0's 8 cores twice (16
	 * vectors, a thread each in the library), then node 1's cores.
	 */
	{ "mlx5 epyc node 0 20 comp", &irq_spread_test_epyc, CONV_MLX5, 0, 20,
	  .old = "0-255;0;1;2;3;4;5;6;7;128;129;130;131;132;133;134;135;"
		 "8;9;10;11" },
	{ "mana epyc node 0 20 (differs: node 0 a thread each)",
	  &irq_spread_test_epyc, CONV_MANA, 0, 20,
	  .old = "0,128;1,129;2,130;3,131;4,132;5,133;6,134;7,135;"
		 "0,128;1,129;2,130;3,131;4,132;5,133;6,134;7,135;"
		 "8,136;9,137;10,138;11,139",
	  .want = "0;1;2;3;4;5;6;7;128;129;130;131;132;133;134;135;"
		  "8,136;9,137;10,138;11,139", .differs = 16 },
	/* mlx5 on all 256 CPUs (single port: 257 vectors), the table. */
	{ "mlx5 epyc node 0 256 comp", &irq_spread_test_epyc, CONV_MLX5, 0,
	  256, .table = 21 },
	{ "mlx5 epyc node 5 512 comp (dual port, > CPUs)",
	  &irq_spread_test_epyc, CONV_MLX5, 5, 512 },
	{ "mlx5 epyc node 12 100 comp", &irq_spread_test_epyc, CONV_MLX5, 12,
	  100 },
	/*
	 * MANA on 256 CPUs: at most 64 queues, 65 vectors, so no HWC
	 * reserved (65 <= 256).  Hops 0 and 1: 16 cores twice, 32 vectors a
	 * thread each; hop 2: 33 of its 48 cores, whole, as before.
	 */
	{ "mana epyc node 0 65 (differs: nodes 0-1 a thread each)",
	  &irq_spread_test_epyc, CONV_MANA, 0, 65, .differs = 32,
	  .table = 20 },
	{ "mana epyc node 9 16 (differs: node 9 a thread each)",
	  &irq_spread_test_epyc, CONV_MANA, 9, 16, .differs = 16 },
	{ "mana epyc node 3 8", &irq_spread_test_epyc, CONV_MANA, 3, 8 },

	/*
	 * The 96-vCPU VM: mlx5 on 96 CPUs; MANA 65 vectors (64 queues <
	 * 96): node 0's 24 cores twice (48 vectors, a thread each), then 17
	 * of node 1's cores, whole.  Without a node, one hop of 48 cores:
	 * all once, then the first 17 again (34 vectors a thread each).
	 */
	{ "mlx5 vm96 node 1 96 comp", &irq_spread_test_vm96, CONV_MLX5, 1, 96 },
	{ "mlx5 vm96 no node 20 comp", &irq_spread_test_vm96, CONV_MLX5,
	  NUMA_NO_NODE, 20 },
	{ "mana vm96 node 0 65 (differs: node 0 a thread each)",
	  &irq_spread_test_vm96, CONV_MANA, 0, 65, .differs = 48 },
	{ "mana vm96 no node 65 (differs: 17 cores a thread each)",
	  &irq_spread_test_vm96, CONV_MANA, NUMA_NO_NODE, 65, .differs = 34 },

	/*
	 * The Xeon, 56 CPUs: mlx5 single and dual port; MANA 57 vectors
	 * (HWC + 56 queues, every core twice: 56 a thread each, the HWC on
	 * CPU 0 as before), and 20 on node 1 (its 14 cores, then 6 again:
	 * 12 a thread each).
	 */
	{ "mlx5 xeon node 1 56 comp", &irq_spread_test_xeon, CONV_MLX5, 1, 56 },
	{ "mlx5 xeon node 0 112 comp (dual port, > CPUs)",
	  &irq_spread_test_xeon, CONV_MLX5, 0, 112 },
	{ "mana xeon node 0 57 (HWC + 56; differs: a thread each)",
	  &irq_spread_test_xeon, CONV_MANA, 0, 57, .differs = 56 },
	{ "mana xeon node 1 20 (differs: 6 cores a thread each)",
	  &irq_spread_test_xeon, CONV_MANA, 1, 20, .differs = 12 },
};

static void conv_case_desc(const struct conv_case *c, char *desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(conv, conv_cases, conv_case_desc);

/**
 * struct conv_test - a case's machine and placements
 * @c: the case
 * @t: the machine
 * @n: its number of CPUs
 * @nvec: device vectors
 * @old: the old placement, by device vector
 * @want: the library's expected placement, by device vector
 * @applied: the mask attaching each vector's interrupt applied
 * @levels: the machine's distinct node distances, ascending
 * @nr_levels: how many
 * @scratch: three bitmaps of @n CPUs
 */
struct conv_test {
	const struct conv_case *c;
	struct test_topo *t;
	unsigned int n;
	unsigned int nvec;
	unsigned long *old;
	unsigned long *want;
	unsigned long *applied;
	int *levels;
	unsigned int nr_levels;
	unsigned long *scratch[3];
};

static unsigned long *conv_mask(const struct conv_test *ct,
				unsigned long *masks, unsigned int v)
{
	return masks + v * ct->t->longs;
}

/*
 * The scheduler's NUMA levels (sched_init_numa()): the distinct distances
 * of the SLIT, ascending.  Hop h of a node holds the nodes at most
 * levels[h] from it.
 */
static void old_levels(struct kunit *test, struct conv_test *ct)
{
	const struct test_machine *m = ct->c->m;
	unsigned int a, b, i, j;
	int d;

	ct->levels = kunit_kcalloc(test, m->nr_nodes * m->nr_nodes,
				   sizeof(*ct->levels), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ct->levels);
	for (a = 0; a < m->nr_nodes; a++) {
		for (b = 0; b < m->nr_nodes; b++) {
			d = irq_spread_test_distance(m, a, b);
			for (i = 0; i < ct->nr_levels && ct->levels[i] < d; i++)
				;
			if (i < ct->nr_levels && ct->levels[i] == d)
				continue;
			for (j = ct->nr_levels++; j > i; j--)
				ct->levels[j] = ct->levels[j - 1];
			ct->levels[i] = d;
		}
	}
}

/*
 * for_each_numa_hop_mask(mask, node) of the machine: hop @hop's mask,
 * sched_numa_hop_mask(node, hop), the online CPUs of the nodes at most
 * levels[hop] from @node; for NUMA_NO_NODE a single hop, cpu_online_mask.
 * False when there is no such hop.
 */
static bool old_hop_mask(const struct conv_test *ct, int node,
			 unsigned int hop, unsigned long *dst)
{
	const struct test_topo *t = ct->t;
	unsigned int cpu;

	if (node == NUMA_NO_NODE ? hop > 0 : hop >= ct->nr_levels)
		return false;
	bitmap_zero(dst, ct->n);
	for_each_set_bit(cpu, t->online, ct->n)
		if (node == NUMA_NO_NODE ||
		    irq_spread_test_distance(t->m, node, t->cpu_node[cpu]) <=
		    ct->levels[hop])
			__set_bit(cpu, dst);
	return true;
}

/*
 * The old cpumask_local_spread(i, node): i modulo the online CPUs, then
 * sched_numa_find_nth_cpu(cpu_online_mask, i, node): the i-th online CPU
 * with NUMA_NO_NODE; else the first hop holding more than i CPUs, and in
 * it the (i - CPUs of the hop before)-th of the CPUs new at that hop, in
 * CPU number order.  Counting from 0.
 */
static unsigned int old_local_spread(struct kunit *test,
				     const struct conv_test *ct,
				     unsigned int i, int node)
{
	unsigned long *prev = ct->scratch[0], *cur = ct->scratch[1];
	unsigned int hop, w = 0;

	i %= bitmap_weight(ct->t->online, ct->n);
	if (node == NUMA_NO_NODE)
		return find_nth_bit(ct->t->online, ct->n, i);
	bitmap_zero(prev, ct->n);
	for (hop = 0; old_hop_mask(ct, node, hop, cur); hop++) {
		if (bitmap_weight(cur, ct->n) > i) {
			bitmap_andnot(cur, cur, prev, ct->n);
			return find_nth_bit(cur, ct->n, i - w);
		}
		w = bitmap_weight(cur, ct->n);
		bitmap_copy(prev, cur, ct->n);
	}
	KUNIT_FAIL(test, "no CPU %u from node %d", i, node);
	return 0;
}

/*
 * The old MANA irq_setup(irqs, len, node), into @masks: for each hop, with
 * weight its number of new CPUs, passes over the hop's new CPUs while
 * weight > 0; a pass gives each core met (in CPU number order) its whole
 * sibling mask, drops the core's threads from the pass and counts the
 * weight down by one, so a hop of SMT2 cores hands out its cores twice.
 * Stops after @len vectors.  Return the number of vectors placed.
 */
static unsigned int old_irq_setup(const struct conv_test *ct,
				  unsigned long *masks, unsigned int len,
				  int node)
{
	unsigned long *prev = ct->scratch[0], *next = ct->scratch[1];
	unsigned long *cpus = ct->scratch[2];
	const struct test_topo *t = ct->t;
	unsigned int hop, cpu, k = 0;
	int weight;

	bitmap_zero(prev, ct->n);
	for (hop = 0; old_hop_mask(ct, node, hop, next); hop++) {
		bitmap_andnot(cpus, next, prev, ct->n);
		weight = bitmap_weight(cpus, ct->n);
		while (weight > 0) {
			bitmap_andnot(cpus, next, prev, ct->n);
			for_each_set_bit(cpu, cpus, ct->n) {
				if (len-- == 0)
					return k;
				bitmap_and(conv_mask(ct, masks, k++),
					   t->siblings[cpu], t->online, ct->n);
				bitmap_andnot(cpus, cpus, t->siblings[cpu],
					      ct->n);
				--weight;
			}
		}
		bitmap_copy(prev, next, ct->n);
	}
	return k;
}

/* The old driver's placement of the case's device, by device vector. */
static void old_placement(struct kunit *test, struct conv_test *ct,
			  unsigned long *masks)
{
	const struct conv_case *c = ct->c;
	unsigned int online = bitmap_weight(ct->t->online, ct->n), i, start;

	if (c->drv == CONV_MLX5) {
		bitmap_copy(conv_mask(ct, masks, 0), ct->t->online, ct->n);
		for (i = 0; i < c->nvec; i++)
			__set_bit(old_local_spread(test, ct, i, c->node),
				  conv_mask(ct, masks, 1 + i));
		return;
	}
	/* mlx5_ctrl_irq_request() of a single IRQ: the first online CPU. */
	if (c->drv == CONV_MLX5_ONE) {
		__set_bit(find_first_bit(ct->t->online, ct->n),
			  conv_mask(ct, masks, 0));
		return;
	}
	/* mana_gd_setup_irqs(): the HWC apart with one vector per CPU. */
	start = c->nvec <= online ? 0 : 1;
	if (start)
		__set_bit(old_local_spread(test, ct, 0, c->node),
			  conv_mask(ct, masks, 0));
	KUNIT_ASSERT_EQ(test, old_irq_setup(ct, conv_mask(ct, masks, start),
					    c->nvec - start, c->node),
			c->nvec - start);
}

/*
 * The library's expected placement: the old one, but under numa-core a
 * core that holds several of the spread vectors gives the r-th of them
 * (in vector order) its r-th online thread alone; the HWC reserved vector
 * follows spread vector 0; mlx5's single IRQ is completion vector 0.
 */
static void lib_placement(struct kunit *test, struct conv_test *ct)
{
	unsigned int pre = 0, nr = ct->nvec, k, j, r, held;
	unsigned long *mk, *mj;

	bitmap_copy(ct->want, ct->old, ct->nvec * ct->t->longs * BITS_PER_LONG);
	/* A single IRQ: completion vector 0's CPU, not the first online. */
	if (ct->c->drv == CONV_MLX5_ONE) {
		bitmap_zero(ct->want, ct->n);
		__set_bit(old_local_spread(test, ct, 0, ct->c->node), ct->want);
	}
	if (ct->c->drv != CONV_MANA)
		return;
	if (ct->c->nvec > bitmap_weight(ct->t->online, ct->n)) {
		pre = 1;
		nr--;
	}
	for (k = 0; k < nr; k++) {
		mk = conv_mask(ct, ct->old, pre + k);
		held = 0;
		r = 0;
		for (j = 0; j < nr; j++) {
			mj = conv_mask(ct, ct->old, pre + j);
			if (!bitmap_equal(mj, mk, ct->n))
				continue;
			held++;
			r += j < k;
		}
		if (held < 2)
			continue;
		KUNIT_ASSERT_LT(test, r, bitmap_weight(mk, ct->n));
		mj = conv_mask(ct, ct->want, pre + k);
		bitmap_zero(mj, ct->n);
		__set_bit(find_nth_bit(mk, ct->n, r), mj);
	}
	if (pre)
		bitmap_copy(conv_mask(ct, ct->want, 0),
			    conv_mask(ct, ct->want, pre), ct->n);
}

/* The placement @masks as a string, ";" between vectors. */
static const char *conv_str(struct kunit *test, const struct conv_test *ct,
			    unsigned long *masks)
{
	size_t size = ct->nvec * 32 + 1, len = 0;
	unsigned int v;
	char *buf;

	buf = kunit_kzalloc(test, size, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	for (v = 0; v < ct->nvec; v++)
		len += scnprintf(buf + len, size - len, "%s%*pbl", v ? ";" : "",
				 ct->n, conv_mask(ct, masks, v));
	return buf;
}

/* Parse a hand-worked placement into @masks. */
static void conv_parse(struct kunit *test, const struct conv_test *ct,
		       const char *str, unsigned long *masks)
{
	char *s = kunit_kstrdup(test, str, GFP_KERNEL), *tok;
	unsigned int v = 0;

	KUNIT_ASSERT_NOT_NULL(test, s);
	while ((tok = strsep(&s, ";"))) {
		KUNIT_ASSERT_LT(test, v, ct->nvec);
		KUNIT_ASSERT_EQ(test, bitmap_parselist(tok, conv_mask(ct, masks, v),
						       ct->n), 0);
		v++;
	}
	KUNIT_ASSERT_EQ(test, v, ct->nvec);
}

static unsigned long *conv_masks(struct kunit *test, const struct conv_test *ct)
{
	unsigned long *masks = kunit_kcalloc(test, ct->nvec * ct->t->longs,
					     sizeof(long), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, masks);
	return masks;
}

/* The fake interrupts: record what the library applies. */
static int conv_apply(unsigned int irq, const struct cpumask *mask)
{
	struct kunit *test = kunit_get_current_test();
	struct conv_test *ct = test->priv;

	if (irq < CONV_IRQ_BASE || irq - CONV_IRQ_BASE >= ct->nvec) {
		KUNIT_FAIL(test, "IRQ %u is no fake one", irq);
		return -EINVAL;
	}
	bitmap_copy(conv_mask(ct, ct->applied, irq - CONV_IRQ_BASE),
		    cpumask_bits(mask), ct->n);
	return 0;
}

static void conv_hint(unsigned int irq, const struct cpumask *hint)
{
}

/* No descriptor: the library takes its hint for the current affinity. */
static int conv_get(unsigned int irq, struct cpumask *dst)
{
	return -EINVAL;
}

static int conv_notifier(unsigned int irq, struct irq_affinity_notify *notify)
{
	return 0;
}

static bool conv_managed(unsigned int irq)
{
	return false;
}

/* Installed and removed; no CPU hotplug here calls one. */
static int conv_placer(unsigned int irq, struct irq_affinity_placer *placer)
{
	return 0;
}

static void conv_unplace(unsigned int irq)
{
}

/* Register the device as the converted driver does, under its default. */
static struct irq_spread_dev *conv_register(struct kunit *test,
					    struct conv_test *ct)
{
	static const int mlx5_ctrl[] = { IRQ_SPREAD_ALL_CPUS };
	static const int mana_hwc[] = { 0 };
	const struct conv_case *c = ct->c;
	struct irq_spread_dev_info info = {
		.node = c->node,
	};

	/* The case's own machine has no default set: the driver's applies. */
	if (c->drv == CONV_MLX5) {
		info.policy = IRQ_SPREAD_NUMA;
		info.pre_vectors = 1;
		info.reserved = mlx5_ctrl;
		info.nr_vectors = c->nvec;
	} else if (c->drv == CONV_MLX5_ONE) {
		info.policy = IRQ_SPREAD_NUMA;
		info.nr_vectors = 1;
	} else {
		info.policy = IRQ_SPREAD_NUMA_CORE;
		if (c->nvec > bitmap_weight(ct->t->online, ct->n)) {
			info.pre_vectors = 1;
			info.reserved = mana_hwc;
		}
		info.nr_vectors = c->nvec - info.pre_vectors;
	}
	return irq_spread_test_register(test, &ct->t->topo, &info,
					"irq_spread_conv");
}

/* The first @rows vectors, old and library, for the notes. */
static void conv_table(struct kunit *test, const struct conv_test *ct,
		       unsigned long *lib)
{
	unsigned int v, rows = min(ct->c->table, ct->nvec);

	kunit_info(test, "%s: vector: old | library\n", ct->c->desc);
	for (v = 0; v < rows; v++)
		kunit_info(test, "%3u: %*pbl | %*pbl\n", v, ct->n,
			   conv_mask(ct, ct->old, v), ct->n,
			   conv_mask(ct, lib, v));
}

static void irq_spread_test_convert(struct kunit *test)
{
	const struct conv_case *c = test->param_value;
	struct conv_test *ct = kunit_kzalloc(test, sizeof(*ct), GFP_KERNEL);
	unsigned long *lib, *mask, *ref, *want;
	unsigned int v, i, differ = 0, bad = 0;
	struct irq_spread_dev *sd;
	size_t longs;
	int cpu;

	KUNIT_ASSERT_NOT_NULL(test, ct);
	test->priv = ct;
	ct->c = c;
	ct->t = irq_spread_test_topo_new(test, c->m);
	ct->n = c->m->nr_cpus;
	ct->nvec = c->drv == CONV_MLX5 ? 1 + c->nvec : c->nvec;
	KUNIT_ASSERT_TRUE(test, c->drv == CONV_MLX5 || c->nvec <= ct->n + 1);
	for (i = 0; i < ARRAY_SIZE(ct->scratch); i++)
		ct->scratch[i] = irq_spread_test_bitmap(test, ct->t);
	old_levels(test, ct);

	/* The old placement: by hand, which the reference must agree with. */
	ct->old = conv_masks(test, ct);
	ref = conv_masks(test, ct);
	old_placement(test, ct, ref);
	if (c->old) {
		conv_parse(test, ct, c->old, ct->old);
		KUNIT_EXPECT_STREQ_MSG(test, conv_str(test, ct, ref), c->old,
				       "reference of the old code");
	} else {
		memcpy(ct->old, ref, ct->nvec * ct->t->longs * sizeof(long));
	}

	/* The library's: the old one, but where it differs on purpose. */
	ct->want = conv_masks(test, ct);
	lib_placement(test, ct);
	if (c->want) {
		KUNIT_EXPECT_STREQ_MSG(test, conv_str(test, ct, ct->want),
				       c->want, "the library's rules");
		conv_parse(test, ct, c->want, ct->want);
	}
	for (v = 0; v < ct->nvec; v++)
		differ += !bitmap_equal(conv_mask(ct, ct->want, v),
					conv_mask(ct, ct->old, v), ct->n);
	KUNIT_EXPECT_EQ_MSG(test, differ, c->differs,
			    "vectors that differ from the old code on purpose");

	kunit_activate_static_stub(test, irq_spread_irq_apply, conv_apply);
	kunit_activate_static_stub(test, irq_spread_irq_affinity, conv_apply);
	kunit_activate_static_stub(test, irq_spread_irq_place, conv_apply);
	kunit_activate_static_stub(test, irq_spread_irq_hint, conv_hint);
	kunit_activate_static_stub(test, irq_spread_irq_get, conv_get);
	kunit_activate_static_stub(test, irq_spread_irq_notifier, conv_notifier);
	kunit_activate_static_stub(test, irq_spread_irq_managed, conv_managed);
	kunit_activate_static_stub(test, irq_spread_irq_placer, conv_placer);
	kunit_activate_static_stub(test, irq_spread_irq_unplace, conv_unplace);
	sd = conv_register(test, ct);

	/* For irq_spread_dev_vector_mask(): a cpumask, and the machine's CPUs. */
	longs = max(ct->t->longs, sizeof(struct cpumask) / sizeof(long));
	mask = kunit_kcalloc(test, longs, sizeof(long), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, mask);
	lib = conv_masks(test, ct);
	ct->applied = conv_masks(test, ct);
	for (v = 0; v < ct->nvec; v++) {
		want = conv_mask(ct, ct->want, v);
		KUNIT_ASSERT_EQ(test, irq_spread_dev_vector_mask(sd, v,
								 to_cpumask(mask)),
				0);
		bitmap_copy(conv_mask(ct, lib, v), mask, ct->n);
		/* mlx5_comp_vector_get_cpu(): the first CPU of the vector. */
		cpu = irq_spread_dev_vector_cpu(sd, v);
		KUNIT_ASSERT_EQ(test, irq_spread_dev_attach(sd, v,
							    CONV_IRQ_BASE + v), 0);
		if (bitmap_equal(mask, want, ct->n) &&
		    cpu == (int)find_first_bit(want, ct->n) &&
		    bitmap_equal(conv_mask(ct, ct->applied, v), want, ct->n))
			continue;
		/* The first few in full: a console can lose a flood. */
		if (bad++ >= 4)
			continue;
		KUNIT_FAIL(test, "vector %u: %*pbl, CPU %d, IRQ %*pbl; want %*pbl (old %*pbl)",
			   v, ct->n, mask, cpu, ct->n, conv_mask(ct, ct->applied, v),
			   ct->n, want, ct->n, conv_mask(ct, ct->old, v));
	}
	KUNIT_EXPECT_EQ_MSG(test, bad, 0, "vectors placed otherwise");
	if (c->table)
		conv_table(test, ct, lib);
}

/**
 * struct conv_sf_case - mlx5 SFs taking their EQs' IRQs from the SF pool
 * @desc: what it is; says "differs" when some EQ differs on purpose
 * @m: the machine
 * @node: the PF's node, its SFs' too
 * @pool: the SF completion pool's IRQs
 * @sfs: SFs, probed in order, each creating its EQs in order
 * @eqs: completion EQs of each SF
 * @old: the CPU of each EQ's IRQ under the old SF pool, ";" between SFs,
 *	"," between EQs, worked out by hand
 * @want: the library's, where it differs; %NULL: @old
 * @differs: EQs on which the library differs on purpose, counted by hand
 */
struct conv_sf_case {
	const char *desc;
	const struct test_machine *m;
	int node;
	unsigned int pool;
	unsigned int sfs;
	unsigned int eqs;
	const char *old;
	const char *want;
	unsigned int differs;
};

/*
 * The PF has a completion vector per CPU (numa: CPU k each, from its node)
 * and the SF pool's IRQs follow its vectors'.  mlx5 requests the PF's IRQs
 * at probe, attached as soon as it is registered: its completion vectors
 * count in the load, 1 on every CPU, before any SF.  The old rules
 * (irq_affinity.c): an SF asks for the online CPUs its other EQs' IRQs do
 * not have; the pool gives the least used IRQ within them if it has fewer
 * than 2 references (none: an EQ holds 2), else a new IRQ while it has a
 * free index, on the CPU of the request its own IRQs load least (lowest
 * number first, nodes ignored), else the least used IRQ within the
 * request, the lowest index first.
 */
static const struct conv_sf_case conv_sf_cases[] = {
	/*
	 * MANA's VM, one node, pool of 4, 3 SFs of 2 EQs.  Old: SF 0 gets
	 * new IRQs on 0, then 1 (not its 0); SF 1 new ones on 2, 3 (the
	 * least loaded); SF 2, the pool full, the least used IRQ, 0, then
	 * the least used not on CPU 0, 1.  The library: the same, the
	 * PF's load being 1 on every CPU.
	 */
	{ "SFs mana-vm pool 4, 3 SFs of 2", &irq_spread_test_mana_vm, 0, 4,
	  3, 2, .old = "0,1;2,3;0,1" },
	/*
	 * The 2-node VM, PF on node 1 (CPUs 4-7): old, CPU number order
	 * whatever the node, 0, 1 and 2, 3; the library new IRQs on the
	 * PF's node first: 4, 5 and 6, 7.
	 */
	{ "SFs vm8 node 1 pool 4, 2 SFs of 2 (differs: on the PF's node)",
	  &vm8, 1, 4, 2, 2, .old = "0,1;2,3", .want = "4,5;6,7", .differs = 4 },
	/*
	 * A pool of 3 for 2 SFs of 3 EQs on MANA's VM: old, SF 0 new IRQs on
	 * 0, 1, 2; SF 1, the pool full, the least used IRQ outside its own
	 * CPUs each time: 0, 1, 2 (distinct).  The library the same.
	 */
	{ "SFs mana-vm pool 3, 2 SFs of 3", &irq_spread_test_mana_vm, 0, 3,
	  2, 3, .old = "0,1,2;0,1,2" },
};

static void conv_sf_case_desc(const struct conv_sf_case *c, char *desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(conv_sf, conv_sf_cases, conv_sf_case_desc);

/* The @i-th CPU of a list like conv_sf_case.old. */
static int conv_sf_cpu(struct kunit *test, const char *list, unsigned int i)
{
	char *s = kunit_kstrdup(test, list, GFP_KERNEL), *tok;
	int cpu = -1;

	KUNIT_ASSERT_NOT_NULL(test, s);
	while ((tok = strsep(&s, ",;")) && i--)
		;
	KUNIT_ASSERT_NOT_NULL(test, tok);
	KUNIT_ASSERT_EQ(test, kstrtoint(tok, 10, &cpu), 0);
	return cpu;
}

static int conv_sf_affinity(unsigned int irq, const struct cpumask *mask)
{
	return 0;
}

static int conv_sf_request(void *priv, unsigned int vector,
			   const struct cpumask *mask)
{
	return CONV_IRQ_BASE + vector;
}

static void conv_sf_release(void *priv, unsigned int vector, unsigned int irq)
{
}

static const struct irq_spread_pool_ops conv_sf_pool_ops = {
	.request	= conv_sf_request,
	.release	= conv_sf_release,
};

static void conv_sf_destroy(void *pool)
{
	irq_spread_pool_destroy(pool);
}

/* Register an mlx5 function as eq.c does: a PF, or a placement-only SF. */
static struct irq_spread_dev *conv_sf_register(struct kunit *test,
					       struct test_topo *t, int node,
					       unsigned int ncomp,
					       unsigned int flags,
					       const char *name)
{
	static const int mlx5_ctrl[] = { IRQ_SPREAD_ALL_CPUS };
	struct irq_spread_dev_info info = {
		.node = node, .nr_vectors = ncomp, .pre_vectors = 1,
		.reserved = mlx5_ctrl, .policy = IRQ_SPREAD_NUMA, .flags = flags,
	};

	return irq_spread_test_register(test, &t->topo, &info, name);
}

/*
 * mlx5's SFs with the SF pool as eq.c has them: each a placement-only
 * registration, each completion EQ an irq_spread_dev_pool_get() of the
 * pool that belongs to the PF.  Each EQ's IRQ is where the old rules put
 * it (but where the library differs on purpose); one SF's EQs are on
 * distinct IRQs, as many as the pool has; and the load is the PF's
 * completion vectors (attached) and the pool's IRQs, each counted once, no
 * SF's.  The PF's fake IRQs are CONV_IRQ_BASE + device vector, which
 * conv_apply() records; the pool's follow them.
 */
static void irq_spread_test_convert_sf(struct kunit *test)
{
	const struct conv_sf_case *c = test->param_value;
	struct test_topo *t = irq_spread_test_topo_new(test, c->m);
	struct irq_spread_pool_info info = {
		.name = "irq_spread_conv_sf", .node = c->node,
		.ops = &conv_sf_pool_ops,
	};
	unsigned int n = c->m->nr_cpus, s, k, j, differ = 0;
	struct conv_test *ct = kunit_kzalloc(test, sizeof(*ct), GFP_KERNEL);
	const char *want = c->want ?: c->old;
	struct irq_spread_dev *pf, *sf;
	struct irq_spread_pool *pool;
	int v[8], cpu, len = 0;
	char got[128], name[32];

	KUNIT_ASSERT_LE(test, c->eqs, ARRAY_SIZE(v));
	KUNIT_ASSERT_NOT_NULL(test, ct);
	/* The PF's control vector and completion vectors, for conv_apply(). */
	ct->t = t;
	ct->n = n;
	ct->nvec = 1 + n;
	ct->applied = conv_masks(test, ct);
	test->priv = ct;
	kunit_activate_static_stub(test, irq_spread_irq_affinity,
				   conv_sf_affinity);
	kunit_activate_static_stub(test, irq_spread_irq_place, conv_sf_affinity);
	kunit_activate_static_stub(test, irq_spread_irq_apply, conv_apply);
	kunit_activate_static_stub(test, irq_spread_irq_hint, conv_hint);
	kunit_activate_static_stub(test, irq_spread_irq_get, conv_get);
	kunit_activate_static_stub(test, irq_spread_irq_notifier, conv_notifier);
	kunit_activate_static_stub(test, irq_spread_irq_managed, conv_managed);
	kunit_activate_static_stub(test, irq_spread_irq_placer, conv_placer);
	kunit_activate_static_stub(test, irq_spread_irq_unplace, conv_unplace);
	pf = conv_sf_register(test, t, c->node, n, 0, "irq_spread_conv_pf");
	for (k = 0; k < ct->nvec; k++)
		KUNIT_ASSERT_EQ(test, irq_spread_dev_attach(pf, k,
							    CONV_IRQ_BASE + k), 0);
	info.owner = pf;
	info.first_vector = 1 + n;
	info.nr_vectors = c->pool;
	pool = irq_spread_pool_topo_create(&t->topo, &info);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, pool);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, conv_sf_destroy,
							pool), 0);

	for (s = 0; s < c->sfs; s++) {
		snprintf(name, sizeof(name), "irq_spread_conv_sf%u", s);
		sf = conv_sf_register(test, t, c->node, c->eqs,
				      IRQ_SPREAD_DEV_PLACE_ONLY, name);
		for (k = 0; k < c->eqs; k++) {
			v[k] = irq_spread_dev_pool_get(sf, 1 + k, pool);
			KUNIT_ASSERT_GE(test, v[k], (int)info.first_vector);
			/* mlx5_comp_vector_get_cpu(): the IRQ's CPU. */
			cpu = irq_spread_dev_vector_cpu(sf, 1 + k);
			KUNIT_EXPECT_EQ(test, bitmap_weight(pool->masks +
							    (v[k] - info.first_vector) *
							    pool->stride, n), 1);
			KUNIT_EXPECT_TRUE(test, test_bit(cpu, pool->masks +
							 (v[k] - info.first_vector) *
							 pool->stride));
			len += scnprintf(got + len, sizeof(got) - len, "%s%d",
					 k ? "," : s ? ";" : "", cpu);
			for (j = 0; j < k && k < c->pool; j++)
				KUNIT_EXPECT_NE_MSG(test, v[j], v[k],
						    "SF %u: EQs %u and %u share an IRQ",
						    s, j, k);
		}
	}
	KUNIT_EXPECT_STREQ(test, got, want);
	for (k = 0; k < c->sfs * c->eqs; k++)
		differ += conv_sf_cpu(test, c->old, k) != conv_sf_cpu(test, want, k);
	KUNIT_EXPECT_EQ_MSG(test, differ, c->differs,
			    "EQs that differ from the old code on purpose");
	/* The PF's completion vectors and the pool's IRQs, once each. */
	KUNIT_EXPECT_EQ(test, irq_spread_test_load_sum(&t->topo),
			n + min(c->pool, c->sfs * c->eqs));
}

static struct kunit_case irq_spread_convert_test_cases[] = {
	KUNIT_CASE_PARAM(irq_spread_test_convert, conv_gen_params),
	KUNIT_CASE_PARAM(irq_spread_test_convert_sf, conv_sf_gen_params),
	{}
};

static struct kunit_suite irq_spread_convert_test_suite = {
	.name = "irq_spread_convert",
	.test_cases = irq_spread_convert_test_cases,
};

kunit_test_suite(irq_spread_convert_test_suite);

MODULE_DESCRIPTION("KUnit tests: mlx5 and MANA placements under irq_spread");
MODULE_LICENSE("GPL");
