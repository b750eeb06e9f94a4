// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the irq_spread engine, on injected machines.
 *
 * A machine is its nodes' CPUs, its node distances and its SMT layout.  The
 * placements the tables expect are worked out by hand from the policy
 * definitions (lib/irq_spread/spread.c, Documentation/core-api/irq_spread.rst)
 * and written as the vectors' CPU lists, ";" between vectors.  Every case is
 * also checked for the rules every policy keeps: only eligible CPUs, floor
 * or ceiling of nvec / slots per slot, counted by the CPU each interrupt
 * ends on, even within a hop, nearest first, exact load accounting and the
 * same placement again after a release.
 */
#include <kunit/test.h>
#include <linux/bitmap.h>
#include <linux/irq_spread.h>
#include <linux/numa.h>
#include <linux/slab.h>
#include <linux/sprintf.h>
#include <linux/string.h>

#include "../engine.h"
#include "machine.h"

MODULE_IMPORT_NS("EXPORTED_FOR_KUNIT_TESTING");

/*
 * The seed machines are irq_spread_test_epyc, irq_spread_test_mana_vm,
 * irq_spread_test_vm96 and irq_spread_test_xeon (machine.h),
 * which other suites use too.
 */

/* Two nodes of four cores without SMT. */
static const char * const nosmt_nodes[] = { "0-3", "4-7" };

static const struct test_machine nosmt = {
	.name = "2N no SMT", .nr_cpus = 8, .nr_nodes = 2,
	.node_cpus = nosmt_nodes, .remote = 20, .smt = 1,
};

/* Two nodes of two SMT4 cores (POWER-like), siblings 4k..4k+3, SLIT 10/40. */
static const char * const smt4_nodes[] = { "0-7", "8-15" };

static const struct test_machine smt4 = {
	.name = "2N SMT4", .nr_cpus = 16, .nr_nodes = 2,
	.node_cpus = smt4_nodes, .remote = 40, .smt = 4,
};

/*
 * Nodes without memory or without CPUs, SMT2 siblings 2k, 2k+1: node 0 has
 * CPUs 0-3 and memory, node 1 CPUs 4-7 and no memory, node 2 memory (or a
 * device) and no CPUs, node 3 CPUs 8-11.  The distances do not follow the
 * node numbers, so that hop order shows: from node 2, node 3 is nearest,
 * then 1, then 0.
 */
static const u8 holes_slit[4][4] = {
	{ 10, 16, 25, 30 },
	{ 16, 10, 20, 22 },
	{ 25, 20, 10, 15 },
	{ 30, 22, 15, 10 },
};

static int holes_distance(int a, int b)
{
	return holes_slit[a][b];
}

static const char * const holes_nodes[] = { "0-3", "4-7", "", "8-11" };

static const struct test_machine holes = {
	.name = "memoryless and CPU-less nodes", .nr_cpus = 12, .nr_nodes = 4,
	.node_cpus = holes_nodes, .distance = holes_distance, .smt = 2,
};

/*
 * Two nodes of 320 CPUs without SMT, whose CPUs alternate by 64: node 0
 * has words 0, 2, 4, 6 and 8 of a CPU mask, node 1 the odd ones, so that
 * each node's CPUs lie in five runs of words apart.
 */
static const char * const striped_nodes[] = {
	"0-63,128-191,256-319,384-447,512-575",
	"64-127,192-255,320-383,448-511,576-639",
};

static const struct test_machine striped = {
	.name = "2N striped by 64 CPUs", .nr_cpus = 640, .nr_nodes = 2,
	.node_cpus = striped_nodes, .remote = 20, .smt = 1,
};

static unsigned long *test_masks(struct kunit *test, const struct test_topo *t,
				 unsigned int nvec)
{
	unsigned long *masks = kunit_kcalloc(test, nvec * t->longs,
					     sizeof(long), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, masks);
	return masks;
}

static unsigned long *test_mask(const struct test_topo *t,
				unsigned long *masks, unsigned int i)
{
	return masks + i * t->longs;
}

/* The vectors' CPU lists, ";" between vectors. */
static const char *test_placement(struct kunit *test, const struct test_topo *t,
				  unsigned long *masks, unsigned int nvec)
{
	size_t size = nvec * 32 + 1, len = 0;
	unsigned int i;
	char *buf;

	buf = kunit_kzalloc(test, size, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	for (i = 0; i < nvec; i++)
		len += scnprintf(buf + len, size - len, "%s%*pbl", i ? ";" : "",
				 t->m->nr_cpus, test_mask(t, masks, i));
	return buf;
}

static const char *test_spread(struct kunit *test, struct test_topo *t,
			       int node, enum irq_spread_policy policy,
			       unsigned int nvec, unsigned long *masks)
{
	KUNIT_ASSERT_EQ(test, irq_spread_topo_cpus(&t->topo, node, nvec, policy,
						   NULL, masks, t->longs), 0);
	return test_placement(test, t, masks, nvec);
}

/**
 * struct spread_case - one spread, and the placement it must give
 * @desc: what it tests
 * @m: the machine
 * @node: the device's node
 * @policy: the policy
 * @nvec: number of vectors
 * @offline: CPUs offline, or NULL
 * @isolated: CPUs not housekeeping for managed interrupts, or NULL
 * @exclude: CPUs the caller excludes, or NULL
 * @want: the placement, worked out by hand; NULL to check only the rules
 */
struct spread_case {
	const char *desc;
	const struct test_machine *m;
	int node;
	enum irq_spread_policy policy;
	unsigned int nvec;
	const char *offline;
	const char *isolated;
	const char *exclude;
	const char *want;
};

#define POL_NUMA	IRQ_SPREAD_NUMA
#define POL_NUMA_CORE	IRQ_SPREAD_NUMA_CORE
#define POL_CORE	IRQ_SPREAD_CORE

static const struct spread_case spread_cases[] = {
	/* MANA's VM: cpumask_local_spread() order vs one vector per core. */
	{ "mana numa 4", &irq_spread_test_mana_vm, 0, POL_NUMA, 4, .want = "0;1;2;3" },
	{ "mana numa-core 4", &irq_spread_test_mana_vm, 0, POL_NUMA_CORE, 4,
	  .want = "0-1;2-3;4-5;6-7" },
	{ "mana core 4", &irq_spread_test_mana_vm, 0, POL_CORE, 4, .want = "0;2;4;6" },
	{ "mana numa 1", &irq_spread_test_mana_vm, 0, POL_NUMA, 1, .want = "0" },
	{ "mana numa-core 1", &irq_spread_test_mana_vm, 0, POL_NUMA_CORE, 1, .want = "0-1" },
	{ "mana numa 8 = slots", &irq_spread_test_mana_vm, 0, POL_NUMA, 8,
	  .want = "0;1;2;3;4;5;6;7" },
	{ "mana core 8 = slots", &irq_spread_test_mana_vm, 0, POL_CORE, 8,
	  .want = "0;2;4;6;1;3;5;7" },
	/* Two vectors on every core: a thread each, as MANA needs. */
	{ "mana numa-core 8 = slots", &irq_spread_test_mana_vm, 0, POL_NUMA_CORE, 8,
	  .want = "0;2;4;6;1;3;5;7" },
	{ "mana numa 12 > slots", &irq_spread_test_mana_vm, 0, POL_NUMA, 12,
	  .want = "0;1;2;3;4;5;6;7;0;1;2;3" },
	{ "mana core 20 >> slots", &irq_spread_test_mana_vm, 0, POL_CORE, 20,
	  .want = "0;2;4;6;1;3;5;7;0;2;4;6;1;3;5;7;0;2;4;6" },
	{ "mana no node numa-core 3", &irq_spread_test_mana_vm, NUMA_NO_NODE, POL_NUMA_CORE, 3,
	  .want = "0-1;2-3;4-5" },
	{ "mana offline isolated excluded numa", &irq_spread_test_mana_vm, 0, POL_NUMA, 5,
	  "2", "5", "0", .want = "1;3;4;6;7" },
	{ "mana offline isolated excluded numa-core", &irq_spread_test_mana_vm, 0, POL_NUMA_CORE, 5,
	  "2", "5", "0", .want = "1;3;4;6;7" },
	{ "mana offline isolated excluded core", &irq_spread_test_mana_vm, 0, POL_CORE, 5,
	  "2", "5", "0", .want = "1;3;4;6;7" },
	{ "mana all excluded: online", &irq_spread_test_mana_vm, 0, POL_NUMA, 2,
	  NULL, NULL, "0-7", .want = "0;1" },
	{ "mana rest offline, all excluded: online", &irq_spread_test_mana_vm, 0, POL_NUMA_CORE, 3,
	  "4-7", NULL, "0-3", .want = "0;2-3;1" },
	{ "mana all isolated: online", &irq_spread_test_mana_vm, 0, POL_CORE, 2,
	  NULL, "0-7", NULL, .want = "0;2" },
	/* Excluded where eligible: the eligible CPUs, never an isolated one. */
	{ "mana eligible all excluded, 0-1 isolated: eligible", &irq_spread_test_mana_vm,
	  0, POL_NUMA, 2, NULL, "0-1", "2-7", .want = "2;3" },

	/* EPYC: node 0, its quadrant partner 1, its socket 2-7, 8-15. */
	{ "epyc node 0 numa 16", &irq_spread_test_epyc, 0, POL_NUMA, 16,
	  .want = "0;1;2;3;4;5;6;7;128;129;130;131;132;133;134;135" },
	{ "epyc node 0 numa 20", &irq_spread_test_epyc, 0, POL_NUMA, 20,
	  .want = "0;1;2;3;4;5;6;7;128;129;130;131;132;133;134;135;8;9;10;11" },
	{ "epyc node 0 numa-core 20", &irq_spread_test_epyc, 0, POL_NUMA_CORE, 20,
	  .want = "0;1;2;3;4;5;6;7;128;129;130;131;132;133;134;135;"
		  "8,136;9,137;10,138;11,139" },
	{ "epyc node 0 core 20", &irq_spread_test_epyc, 0, POL_CORE, 20,
	  .want = "0;1;2;3;4;5;6;7;8;9;10;11;12;13;14;15;16;17;18;19" },
	{ "epyc node 5 numa 20", &irq_spread_test_epyc, 5, POL_NUMA, 20,
	  .want = "40;41;42;43;44;45;46;47;168;169;170;171;172;173;174;175;"
		  "32;33;34;35" },
	{ "epyc node 5 core 20", &irq_spread_test_epyc, 5, POL_CORE, 20,
	  .want = "40;41;42;43;44;45;46;47;32;33;34;35;36;37;38;39;0;1;2;3" },
	{ "epyc node 9 numa-core 4", &irq_spread_test_epyc, 9, POL_NUMA_CORE, 4,
	  .want = "72,200;73,201;74,202;75,203" },
	{ "epyc node 14 core 10", &irq_spread_test_epyc, 14, POL_CORE, 10,
	  .want = "112;113;114;115;116;117;118;119;120;121" },
	{ "epyc node 8 numa 4", &irq_spread_test_epyc, 8, POL_NUMA, 4, .want = "64;65;66;67" },
	{ "epyc node 3 numa 1", &irq_spread_test_epyc, 3, POL_NUMA, 1, .want = "24" },
	{ "epyc node 3 numa-core 1", &irq_spread_test_epyc, 3, POL_NUMA_CORE, 1, .want = "24,152" },
	{ "epyc node 3 core 1", &irq_spread_test_epyc, 3, POL_CORE, 1, .want = "24" },
	{ "epyc no node numa 4", &irq_spread_test_epyc, NUMA_NO_NODE, POL_NUMA, 4,
	  .want = "0;1;2;3" },
	{ "epyc no node numa-core 3", &irq_spread_test_epyc, NUMA_NO_NODE, POL_NUMA_CORE, 3,
	  .want = "0,128;1,129;2,130" },
	{ "epyc node 0 excluded isolated numa-core", &irq_spread_test_epyc, 0, POL_NUMA_CORE, 6,
	  NULL, "4", "0-3,128-131",
	  .want = "5;6;7,135;132;133;134" },
	{ "epyc node 0, node 1 half offline, numa 18", &irq_spread_test_epyc, 0, POL_NUMA, 18,
	  "8-15", NULL, NULL,
	  .want = "0;1;2;3;4;5;6;7;128;129;130;131;132;133;134;135;136;137" },
	{ "epyc node 3 numa 256 = slots", &irq_spread_test_epyc, 3, POL_NUMA, 256 },
	{ "epyc node 3 numa-core 1000", &irq_spread_test_epyc, 3, POL_NUMA_CORE, 1000 },
	{ "epyc node 12 core 300", &irq_spread_test_epyc, 12, POL_CORE, 300 },
	{ "epyc no node numa-core 257", &irq_spread_test_epyc, NUMA_NO_NODE, POL_NUMA_CORE, 257 },
	{ "epyc node 7 core 70, holes", &irq_spread_test_epyc, 7, POL_CORE, 70,
	  "60-63", "56,190", "184-187" },

	/*
	 * Cache domains.  The seed EPYC with its L3 per CCX, one per node: a
	 * hop of one node is one domain and orders as without cache domains;
	 * hop 2 of node 0 (nodes 2-7, distance 12) is six, the first CPU of
	 * each in turn (16, 24, ..., 56), then the second (17, 25, ...).
	 */
	{ "epyc-l3 node 0 numa 20: one L3 per hop as before", &irq_spread_test_epyc_l3,
	  0, POL_NUMA, 20,
	  .want = "0;1;2;3;4;5;6;7;128;129;130;131;132;133;134;135;8;9;10;11" },
	{ "epyc-l3 node 0 numa 40: hop 2 one per L3", &irq_spread_test_epyc_l3,
	  0, POL_NUMA, 40,
	  .want = "0;1;2;3;4;5;6;7;128;129;130;131;132;133;134;135;"
		  "8;9;10;11;12;13;14;15;136;137;138;139;140;141;142;143;"
		  "16;24;32;40;48;56;17;25" },
	/* Node 5: hop 1 node 4, hop 2 nodes 0-3, 6, 7: cores 0, 8, 16, 24. */
	{ "epyc-l3 node 5 core 20: hop 2 one core per L3", &irq_spread_test_epyc_l3,
	  5, POL_CORE, 20,
	  .want = "40;41;42;43;44;45;46;47;32;33;34;35;36;37;38;39;0;8;16;24" },
	/*
	 * numa-core 44: hops 0 and 1 a thread each (two vectors per core),
	 * hop 2's first 12 cores one per L3 in turn, alone, so whole.
	 */
	{ "epyc-l3 node 0 numa-core 44: hop 2 cores per L3", &irq_spread_test_epyc_l3,
	  0, POL_NUMA_CORE, 44,
	  .want = "0;1;2;3;4;5;6;7;128;129;130;131;132;133;134;135;"
		  "8;9;10;11;12;13;14;15;136;137;138;139;140;141;142;143;"
		  "16,144;24,152;32,160;40,168;48,176;56,184;"
		  "17,145;25,153;33,161;41,169;49,177;57,185" },
	{ "epyc-l3 node 3 numa-core 1000", &irq_spread_test_epyc_l3, 3, POL_NUMA_CORE, 1000 },
	{ "epyc-l3 node 12 core 300", &irq_spread_test_epyc_l3, 12, POL_CORE, 300 },
	/*
	 * NPS1: node 0 is 8 L3s, 0-7, 8-15, ... 56-63 and their siblings
	 * +128.  numa: the first CPU of each L3, then the second, ...
	 */
	{ "nps1 node 0 numa 12", &irq_spread_test_epyc_nps1, 0, POL_NUMA, 12,
	  .want = "0;8;16;24;32;40;48;56;1;9;17;25" },
	/* numa-core 20 on node 1: 20 cores, 8 L3s in turn, each core whole. */
	{ "nps1 node 1 numa-core 20", &irq_spread_test_epyc_nps1, 1, POL_NUMA_CORE, 20,
	  .want = "64,192;72,200;80,208;88,216;96,224;104,232;112,240;120,248;"
		  "65,193;73,201;81,209;89,217;97,225;105,233;113,241;121,249;"
		  "66,194;74,202;82,210;90,218" },
	/* core 70: node 0's 64 cores L3 by L3 in turn, then node 1's. */
	{ "nps1 node 0 core 70", &irq_spread_test_epyc_nps1, 0, POL_CORE, 70,
	  .want = "0;8;16;24;32;40;48;56;1;9;17;25;33;41;49;57;"
		  "2;10;18;26;34;42;50;58;3;11;19;27;35;43;51;59;"
		  "4;12;20;28;36;44;52;60;5;13;21;29;37;45;53;61;"
		  "6;14;22;30;38;46;54;62;7;15;23;31;39;47;55;63;"
		  "64;72;80;88;96;104" },
	/*
	 * numa-core 72 on node 0: the 64 cores once (rank 0), then the
	 * second threads of the first 8 cores in order, one per L3; cores
	 * 0, 8, ... 56 hold two vectors, a thread each, the rest are whole.
	 */
	{ "nps1 node 0 numa-core 72", &irq_spread_test_epyc_nps1, 0, POL_NUMA_CORE, 72,
	  .want = "0;8;16;24;32;40;48;56;"
		  "1,129;9,137;17,145;25,153;33,161;41,169;49,177;57,185;"
		  "2,130;10,138;18,146;26,154;34,162;42,170;50,178;58,186;"
		  "3,131;11,139;19,147;27,155;35,163;43,171;51,179;59,187;"
		  "4,132;12,140;20,148;28,156;36,164;44,172;52,180;60,188;"
		  "5,133;13,141;21,149;29,157;37,165;45,173;53,181;61,189;"
		  "6,134;14,142;22,150;30,158;38,166;46,174;54,182;62,190;"
		  "7,135;15,143;23,151;31,159;39,167;47,175;55,183;63,191;"
		  "128;136;144;152;160;168;176;184" },
	/*
	 * CPU 8 offline, 16 excluded: L3 1's first slot is 9, L3 2's 17;
	 * the other L3s as before.
	 */
	{ "nps1 node 0 numa 10, 8 offline, 16 excluded", &irq_spread_test_epyc_nps1,
	  0, POL_NUMA, 10, "8", NULL, "16",
	  .want = "0;9;17;24;32;40;48;56;1;10" },
	{ "nps1 no node numa-core 257", &irq_spread_test_epyc_nps1, NUMA_NO_NODE,
	  POL_NUMA_CORE, 257 },

	/* Xeon: siblings i and i + 28. */
	{ "xeon node 1 numa 4", &irq_spread_test_xeon, 1, POL_NUMA, 4, .want = "14;15;16;17" },
	{ "xeon node 0 numa 30", &irq_spread_test_xeon, 0, POL_NUMA, 30,
	  .want = "0;1;2;3;4;5;6;7;8;9;10;11;12;13;"
		  "28;29;30;31;32;33;34;35;36;37;38;39;40;41;14;15" },
	{ "xeon node 0 core 30", &irq_spread_test_xeon, 0, POL_CORE, 30,
	  .want = "0;1;2;3;4;5;6;7;8;9;10;11;12;13;14;15;16;17;18;19;"
		  "20;21;22;23;24;25;26;27;28;29" },
	{ "xeon node 1 numa-core 16", &irq_spread_test_xeon, 1, POL_NUMA_CORE, 16,
	  .want = "14;15;16,44;17,45;18,46;19,47;20,48;21,49;22,50;"
		  "23,51;24,52;25,53;26,54;27,55;42;43" },
	{ "xeon no node core 3", &irq_spread_test_xeon, NUMA_NO_NODE, POL_CORE, 3,
	  .want = "0;1;2" },
	{ "xeon node 0 numa-core 57", &irq_spread_test_xeon, 0, POL_NUMA_CORE, 57 },

	/* The 96-vCPU VM of the MANA review: 64 vectors. */
	{ "vm96 node 0 numa 64", &irq_spread_test_vm96, 0, POL_NUMA, 64,
	  .want = "0;1;2;3;4;5;6;7;8;9;10;11;12;13;14;15;16;17;18;19;20;21;"
		  "22;23;24;25;26;27;28;29;30;31;32;33;34;35;36;37;38;39;40;"
		  "41;42;43;44;45;46;47;48;49;50;51;52;53;54;55;56;57;58;59;"
		  "60;61;62;63" },
	{ "vm96 node 0 numa-core 64", &irq_spread_test_vm96, 0, POL_NUMA_CORE, 64,
	  .want = "0;2;4;6;8;10;12;14;16;18;20;22;24;26;28;30;32;34;36;38;"
		  "40;42;44;46;"
		  "1;3;5;7;9;11;13;15;17;19;21;23;25;27;29;31;33;35;37;39;"
		  "41;43;45;47;"
		  "48-49;50-51;52-53;54-55;56-57;58-59;60-61;62-63;64-65;"
		  "66-67;68-69;70-71;72-73;74-75;76-77;78-79" },
	{ "vm96 node 1 core 64", &irq_spread_test_vm96, 1, POL_CORE, 64,
	  .want = "48;50;52;54;56;58;60;62;64;66;68;70;72;74;76;78;80;82;84;"
		  "86;88;90;92;94;0;2;4;6;8;10;12;14;16;18;20;22;24;26;28;30;"
		  "32;34;36;38;40;42;44;46;49;51;53;55;57;59;61;63;65;67;69;"
		  "71;73;75;77;79" },
	{ "vm96 node 1 numa 200", &irq_spread_test_vm96, 1, POL_NUMA, 200 },

	/* No SMT: the three policies agree. */
	{ "nosmt node 1 numa 6", &nosmt, 1, POL_NUMA, 6, .want = "4;5;6;7;0;1" },
	{ "nosmt node 1 numa-core 6", &nosmt, 1, POL_NUMA_CORE, 6,
	  .want = "4;5;6;7;0;1" },
	{ "nosmt node 1 core 6", &nosmt, 1, POL_CORE, 6, .want = "4;5;6;7;0;1" },
	{ "nosmt node 0 core 10", &nosmt, 0, POL_CORE, 10,
	  .want = "0;1;2;3;4;5;6;7;0;1" },

	/* SMT4. */
	{ "smt4 node 1 numa-core 4", &smt4, 1, POL_NUMA_CORE, 4,
	  .want = "8;12;9;13" },
	{ "smt4 node 1 numa-core 10", &smt4, 1, POL_NUMA_CORE, 10,
	  .want = "8;12;9;13;10;14;11;15;0-3;4-7" },
	{ "smt4 node 1 core 6", &smt4, 1, POL_CORE, 6,
	  .want = "8;12;0;4;9;13" },
	{ "smt4 node 0 core 16 = slots", &smt4, 0, POL_CORE, 16,
	  .want = "0;4;8;12;1;5;9;13;2;6;10;14;3;7;11;15" },
	{ "smt4 node 0 numa 10", &smt4, 0, POL_NUMA, 10,
	  .want = "0;1;2;3;4;5;6;7;8;9" },
	{ "smt4 node 1 core 33", &smt4, 1, POL_CORE, 33 },

	/* Memoryless node 1, CPU-less node 2. */
	{ "cpu-less node numa 6", &holes, 2, POL_NUMA, 6,
	  .want = "8;9;10;11;4;5" },
	{ "cpu-less node core 6", &holes, 2, POL_CORE, 6,
	  .want = "8;10;4;6;0;2" },
	{ "cpu-less node numa-core 3", &holes, 2, POL_NUMA_CORE, 3,
	  .want = "8;10-11;9" },
	{ "cpu-less node, nearest offline, numa 4", &holes, 2, POL_NUMA, 4,
	  "8-11", NULL, NULL, .want = "4;5;6;7" },
	{ "memoryless node numa 6", &holes, 1, POL_NUMA, 6,
	  .want = "4;5;6;7;0;1" },
	{ "memoryless node core 6", &holes, 1, POL_CORE, 6,
	  .want = "4;6;0;2;8;10" },
	{ "holes node 0 numa 12", &holes, 0, POL_NUMA, 12,
	  .want = "0;1;2;3;4;5;6;7;8;9;10;11" },
	{ "holes no node numa 3", &holes, NUMA_NO_NODE, POL_NUMA, 3,
	  .want = "0;1;2" },
};

static void spread_case_desc(const struct spread_case *c, char *desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(spread, spread_cases, spread_case_desc);

/*
 * What a case's vectors may use: eligible CPUs not excluded, else eligible
 * ones, else online ones.
 */
static unsigned long *test_allowed(struct kunit *test, const struct test_topo *t,
				   const unsigned long *exclude)
{
	unsigned int n = t->m->nr_cpus;
	unsigned long *allowed = irq_spread_test_bitmap(test, t);

	bitmap_and(allowed, t->online, t->housekeeping, n);
	if (!bitmap_subset(allowed, exclude, n))
		bitmap_andnot(allowed, allowed, exclude, n);
	if (bitmap_empty(allowed, n))
		bitmap_copy(allowed, t->online, n);
	return allowed;
}

static unsigned int core_of(const struct test_topo *t, unsigned int cpu,
			    const unsigned long *allowed)
{
	return find_first_and_bit(t->siblings[cpu], allowed, t->m->nr_cpus);
}

/* The first allowed thread of @cpu's core, which stands for the core. */
static unsigned int core_of(const struct test_topo *t, unsigned int cpu,
			    const unsigned long *allowed);

/*
 * Only allowed CPUs; one CPU per vector, but for numa-core a whole core
 * for a vector alone on its core, one thread of it for the vectors of a
 * core that holds more than one.
 */
static void check_masks(struct kunit *test, const struct test_topo *t,
			const struct spread_case *c, unsigned long *masks,
			const unsigned long *allowed)
{
	unsigned int n = t->m->nr_cpus, i, first, *on_core;
	unsigned long *core = irq_spread_test_bitmap(test, t);
	unsigned long *mask;

	on_core = kunit_kcalloc(test, n, sizeof(*on_core), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, on_core);
	for (i = 0; i < c->nvec; i++) {
		mask = test_mask(t, masks, i);
		KUNIT_ASSERT_FALSE_MSG(test, bitmap_empty(mask, n),
				       "vector %u has no CPU", i);
		on_core[core_of(t, find_first_bit(mask, n), allowed)]++;
	}
	for (i = 0; i < c->nvec; i++) {
		mask = test_mask(t, masks, i);
		KUNIT_EXPECT_TRUE_MSG(test, bitmap_subset(mask, allowed, n),
				      "vector %u: %*pbl not allowed", i, n, mask);
		first = find_first_bit(mask, n);
		if (c->policy != IRQ_SPREAD_NUMA_CORE ||
		    on_core[core_of(t, first, allowed)] > 1) {
			KUNIT_EXPECT_EQ_MSG(test, bitmap_weight(mask, n), 1,
					    "vector %u: %*pbl", i, n, mask);
			continue;
		}
		bitmap_and(core, t->siblings[first], allowed, n);
		KUNIT_EXPECT_TRUE_MSG(test, bitmap_equal(mask, core, n),
				      "vector %u: %*pbl is not a core", i, n,
				      mask);
	}
}

/*
 * Per CPU, the vectors whose interrupt would end on it: a vector's first
 * CPU, as an interrupt controller picking the first of a mask does.
 */
static unsigned int *count_first(struct kunit *test, const struct test_topo *t,
				 const struct spread_case *c, unsigned long *masks)
{
	unsigned int n = t->m->nr_cpus, *count, i;

	count = kunit_kcalloc(test, n, sizeof(*count), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, count);
	for (i = 0; i < c->nvec; i++)
		count[find_first_bit(test_mask(t, masks, i), n)]++;
	return count;
}

/*
 * Every slot (an allowed CPU) gets the floor or the ceiling of nvec /
 * slots, counted by the CPU each vector's interrupt ends on: a numa-core
 * vector with a whole core too, so two vectors never end on one thread
 * while another has none.
 */
static void check_balance(struct kunit *test, const struct test_topo *t,
			  const struct spread_case *c, unsigned long *masks,
			  const unsigned long *allowed)
{
	unsigned int n = t->m->nr_cpus, slots = bitmap_weight(allowed, n);
	unsigned int lo = c->nvec / slots, hi = DIV_ROUND_UP(c->nvec, slots);
	unsigned int *count = count_first(test, t, c, masks), cpu;

	for_each_set_bit(cpu, allowed, n) {
		KUNIT_EXPECT_GE_MSG(test, count[cpu], lo, "CPU %u", cpu);
		KUNIT_EXPECT_LE_MSG(test, count[cpu], hi, "CPU %u", cpu);
	}
}

/*
 * Even per hardware thread within a hop: the CPUs at one distance from
 * the device take numbers of vectors (counted as check_balance() does)
 * that differ by at most one.
 */
static void check_tier_even(struct kunit *test, const struct test_topo *t,
			    const struct spread_case *c, unsigned long *masks,
			    const unsigned long *allowed)
{
	unsigned int n = t->m->nr_cpus, *count = count_first(test, t, c, masks);
	unsigned int cpu, other;
	int d;

	for_each_set_bit(cpu, allowed, n) {
		d = c->node == NUMA_NO_NODE ? 0 :
		    irq_spread_test_distance(t->m, c->node, t->cpu_node[cpu]);
		for_each_set_bit(other, allowed, n) {
			if (c->node != NUMA_NO_NODE &&
			    irq_spread_test_distance(t->m, c->node,
						     t->cpu_node[other]) != d)
				continue;
			KUNIT_EXPECT_LE_MSG(test, count[cpu], count[other] + 1,
					    "CPUs %u and %u at distance %d",
					    cpu, other, d);
		}
	}
}

static int vector_distance(const struct test_topo *t, int node,
			   unsigned long *mask)
{
	unsigned int cpu = find_first_bit(mask, t->m->nr_cpus);

	return irq_spread_test_distance(t->m, node, t->cpu_node[cpu]);
}

/*
 * Nearest first: in the first round, vector i is never farther from the
 * device than vector j > i.  A round is every slot once, except for core,
 * whose first round is one vector on each core.
 */
static void check_nearest_first(struct kunit *test, const struct test_topo *t,
				const struct spread_case *c,
				unsigned long *masks,
				const unsigned long *allowed)
{
	unsigned int n = t->m->nr_cpus, i, j, cores = 0, round, cpu;
	int di, dj;

	for_each_set_bit(cpu, allowed, n)
		cores += core_of(t, cpu, allowed) == cpu;
	round = c->policy == IRQ_SPREAD_CORE ? cores : bitmap_weight(allowed, n);
	round = min(round, c->nvec);
	if (c->node == NUMA_NO_NODE)
		return;

	for (j = 1; j < round; j++) {
		dj = vector_distance(t, c->node, test_mask(t, masks, j));
		for (i = 0; i < j; i++) {
			di = vector_distance(t, c->node, test_mask(t, masks, i));
			KUNIT_EXPECT_LE_MSG(test, di, dj, "vectors %u and %u",
					    i, j);
		}
	}
}

static int vector_distance_or_0(const struct test_topo *t, int node,
				unsigned long *mask)
{
	return node == NUMA_NO_NODE ? 0 : vector_distance(t, node, mask);
}

/* Allowed cores (at distance @d from @node, if @d >= 0). */
static unsigned int count_cores(const struct test_topo *t, int node, int d,
				const unsigned long *allowed)
{
	unsigned int cpu, cores = 0;

	for_each_set_bit(cpu, allowed, t->m->nr_cpus) {
		if (core_of(t, cpu, allowed) != cpu)
			continue;
		if (d < 0 || node == NUMA_NO_NODE ||
		    irq_spread_test_distance(t->m, node, t->cpu_node[cpu]) == d)
			cores++;
	}
	return cores;
}

/*
 * One vector per physical core before a sibling gets one: for core, the
 * first vectors, one per core, are on different cores; for numa-core, so
 * are the first vectors at each distance, one per core at that distance.
 */
static void check_cores_first(struct kunit *test, const struct test_topo *t,
			      const struct spread_case *c, unsigned long *masks,
			      const unsigned long *allowed)
{
	unsigned int n = t->m->nr_cpus, i, j, pos, cores, round, ci, cj;
	bool by_distance = c->policy == IRQ_SPREAD_NUMA_CORE;
	unsigned long *mi, *mj;
	int d;

	if (c->policy == IRQ_SPREAD_NUMA)
		return;
	round = by_distance ? bitmap_weight(allowed, n) :
			      count_cores(t, c->node, -1, allowed);
	for (j = 1; j < min(round, c->nvec); j++) {
		mj = test_mask(t, masks, j);
		d = vector_distance_or_0(t, c->node, mj);
		cores = count_cores(t, c->node, by_distance ? d : -1, allowed);
		cj = core_of(t, find_first_bit(mj, n), allowed);
		for (i = 0, pos = 0; i < j; i++) {
			mi = test_mask(t, masks, i);
			if (by_distance && vector_distance_or_0(t, c->node, mi) != d)
				continue;
			pos++;
		}
		if (pos >= cores)
			continue;
		for (i = 0; i < j; i++) {
			mi = test_mask(t, masks, i);
			if (by_distance && vector_distance_or_0(t, c->node, mi) != d)
				continue;
			ci = core_of(t, find_first_bit(mi, n), allowed);
			KUNIT_EXPECT_NE_MSG(test, ci, cj,
					    "vectors %u and %u on one core", i, j);
		}
	}
}

static void check_load(struct kunit *test, const struct test_topo *t,
		       unsigned int nvec, unsigned long *masks)
{
	unsigned int n = t->m->nr_cpus, i, cpu, want;

	KUNIT_ASSERT_NOT_NULL(test, t->topo.load);
	for (cpu = 0; cpu < n; cpu++) {
		want = 0;
		for (i = 0; i < nvec; i++)
			want += test_bit(cpu, test_mask(t, masks, i));
		KUNIT_EXPECT_EQ_MSG(test, t->topo.load[cpu], want, "CPU %u", cpu);
	}
}

static void irq_spread_test_spread(struct kunit *test)
{
	const struct spread_case *c = test->param_value;
	struct test_topo *t = irq_spread_test_topo_new(test, c->m);
	unsigned long *exclude, *allowed, *masks, *again;
	unsigned int n = c->m->nr_cpus;

	bitmap_andnot(t->online, t->online, irq_spread_test_cpus(test, t, c->offline), n);
	bitmap_andnot(t->housekeeping, t->housekeeping,
		      irq_spread_test_cpus(test, t, c->isolated), n);
	exclude = irq_spread_test_cpus(test, t, c->exclude);
	allowed = test_allowed(test, t, exclude);
	masks = test_masks(test, t, c->nvec);

	KUNIT_ASSERT_EQ(test, irq_spread_topo_cpus(&t->topo, c->node, c->nvec,
						   c->policy, exclude, masks,
						   t->longs), 0);
	if (c->want)
		KUNIT_EXPECT_STREQ(test, test_placement(test, t, masks, c->nvec),
				   c->want);
	check_masks(test, t, c, masks, allowed);
	check_balance(test, t, c, masks, allowed);
	check_tier_even(test, t, c, masks, allowed);
	check_nearest_first(test, t, c, masks, allowed);
	check_cores_first(test, t, c, masks, allowed);
	check_load(test, t, c->nvec, masks);

	/* A release leaves no load behind, and the same spread again ... */
	irq_spread_topo_release(&t->topo, c->nvec, masks, t->longs);
	check_load(test, t, 0, masks);

	/* ... gives the same placement. */
	again = test_masks(test, t, c->nvec);
	KUNIT_ASSERT_EQ(test, irq_spread_topo_cpus(&t->topo, c->node, c->nvec,
						   c->policy, exclude, again,
						   t->longs), 0);
	KUNIT_EXPECT_MEMEQ(test, again, masks,
			   c->nvec * t->longs * sizeof(long));
}

/**
 * struct load_case - two devices, the second spread after the first
 * @desc: what it tests
 * @m: the machine
 * @node1: the first device's node
 * @policy1: its policy
 * @nvec1: its number of vectors
 * @want1: its placement
 * @node2: the second device's node
 * @policy2: its policy
 * @nvec2: its number of vectors
 * @want2: its placement, worked out by hand
 */
struct load_case {
	const char *desc;
	const struct test_machine *m;
	int node1;
	enum irq_spread_policy policy1;
	unsigned int nvec1;
	const char *want1;
	int node2;
	enum irq_spread_policy policy2;
	unsigned int nvec2;
	const char *want2;
};

static const struct load_case load_cases[] = {
	{ "epyc two numa NICs on 8 cores", &irq_spread_test_epyc,
	  0, POL_NUMA, 4, "0;1;2;3",
	  0, POL_NUMA, 4, "4;5;6;7" },
	{ "epyc two numa-core NICs on 8 cores", &irq_spread_test_epyc,
	  0, POL_NUMA_CORE, 4, "0,128;1,129;2,130;3,131",
	  0, POL_NUMA_CORE, 4, "4,132;5,133;6,134;7,135" },
	{ "epyc two core NICs on 8 cores", &irq_spread_test_epyc,
	  0, POL_CORE, 4, "0;1;2;3",
	  0, POL_CORE, 4, "4;5;6;7" },
	{ "epyc numa-core NIC then numa NIC", &irq_spread_test_epyc,
	  0, POL_NUMA_CORE, 4, "0,128;1,129;2,130;3,131",
	  0, POL_NUMA, 4, "4;5;6;7" },
	{ "epyc load never beats distance", &irq_spread_test_epyc,
	  0, POL_NUMA, 16, "0;1;2;3;4;5;6;7;128;129;130;131;132;133;134;135",
	  0, POL_NUMA, 2, "0;1" },
	{ "epyc partly loaded node", &irq_spread_test_epyc,
	  0, POL_NUMA, 12, "0;1;2;3;4;5;6;7;128;129;130;131",
	  0, POL_NUMA, 6, "132;133;134;135;0;1" },
	{ "mana two numa NICs", &irq_spread_test_mana_vm,
	  0, POL_NUMA, 4, "0;1;2;3",
	  0, POL_NUMA, 4, "4;5;6;7" },
	{ "mana numa NIC then numa-core NIC", &irq_spread_test_mana_vm,
	  0, POL_NUMA, 4, "0;1;2;3",
	  0, POL_NUMA_CORE, 2, "4-5;6-7" },
	{ "mana two core NICs", &irq_spread_test_mana_vm,
	  0, POL_CORE, 3, "0;2;4",
	  0, POL_CORE, 3, "6;1;3" },
	/*
	 * NPS1, two numa-core NICs on node 0: the first takes a core in L3s
	 * 0-3, whole; for the second, the unloaded cores' first slots, one
	 * per L3 in turn, the least loaded L3 first: 4-7 (no vector) before
	 * 0-3 (two CPUs loaded each), so cores 32, 40, 48, 56.
	 */
	{ "nps1 two numa-core NICs: the free L3s first", &irq_spread_test_epyc_nps1,
	  0, POL_NUMA_CORE, 4, "0,128;8,136;16,144;24,152",
	  0, POL_NUMA_CORE, 4, "32,160;40,168;48,176;56,184" },
	/*
	 * numa: 12 vectors take the first CPU of every L3 and the second of
	 * L3s 0-3; the second NIC's 6 go to the unloaded CPUs, one per L3,
	 * L3s 4-7 (one CPU loaded) before 0-3 (two): 33, 41, 49, 57, 2, 10.
	 */
	{ "nps1 two numa NICs: least loaded L3 first", &irq_spread_test_epyc_nps1,
	  0, POL_NUMA, 12, "0;8;16;24;32;40;48;56;1;9;17;25",
	  0, POL_NUMA, 6, "33;41;49;57;2;10" },
	{ "xeon NICs on both nodes", &irq_spread_test_xeon,
	  1, POL_NUMA, 14, "14;15;16;17;18;19;20;21;22;23;24;25;26;27",
	  0, POL_NUMA, 3, "0;1;2" },
};

static void load_case_desc(const struct load_case *c, char *desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(load, load_cases, load_case_desc);

static void irq_spread_test_load(struct kunit *test)
{
	const struct load_case *c = test->param_value;
	struct test_topo *t = irq_spread_test_topo_new(test, c->m);
	unsigned long *first = test_masks(test, t, c->nvec1);
	unsigned long *second = test_masks(test, t, c->nvec2);
	unsigned long *again = test_masks(test, t, c->nvec1);

	KUNIT_EXPECT_STREQ(test, test_spread(test, t, c->node1, c->policy1,
					     c->nvec1, first), c->want1);
	KUNIT_EXPECT_STREQ(test, test_spread(test, t, c->node2, c->policy2,
					     c->nvec2, second), c->want2);

	/* Each release takes out exactly its device's vectors. */
	irq_spread_topo_release(&t->topo, c->nvec1, first, t->longs);
	check_load(test, t, c->nvec2, second);
	irq_spread_topo_release(&t->topo, c->nvec2, second, t->longs);
	check_load(test, t, 0, second);

	/* With nothing placed, the first device gets its CPUs back. */
	KUNIT_EXPECT_STREQ(test, test_spread(test, t, c->node1, c->policy1,
					     c->nvec1, again), c->want1);
}

/* Bad arguments: -EINVAL, the masks and the load untouched. */
static void irq_spread_test_invalid(struct kunit *test)
{
	struct test_topo *t = irq_spread_test_topo_new(test, &irq_spread_test_mana_vm);
	unsigned long *masks = test_masks(test, t, 2);
	unsigned long *orig = test_masks(test, t, 2);
	struct irq_spread_topology *topo = &t->topo;
	size_t longs = t->longs;

	memset(masks, 0xa5, 2 * longs * sizeof(long));
	memcpy(orig, masks, 2 * longs * sizeof(long));

	KUNIT_EXPECT_EQ(test, irq_spread_topo_cpus(topo, 0, 2, IRQ_SPREAD_NR_POLICIES,
						   NULL, masks, longs), -EINVAL);
	KUNIT_EXPECT_EQ(test, irq_spread_topo_cpus(topo, 0, 2, -1, NULL, masks,
						   longs), -EINVAL);
	KUNIT_EXPECT_EQ(test, irq_spread_topo_cpus(topo, 0, 0, IRQ_SPREAD_NUMA,
						   NULL, masks, longs), -EINVAL);
	KUNIT_EXPECT_EQ(test, irq_spread_topo_cpus(topo, 0, 2, IRQ_SPREAD_NUMA,
						   NULL, NULL, longs), -EINVAL);
	KUNIT_EXPECT_EQ(test, irq_spread_topo_cpus(topo, 1, 2, IRQ_SPREAD_NUMA,
						   NULL, masks, longs), -EINVAL);
	KUNIT_EXPECT_EQ(test, irq_spread_topo_cpus(topo, -2, 2, IRQ_SPREAD_NUMA,
						   NULL, masks, longs), -EINVAL);
	KUNIT_EXPECT_EQ(test, irq_spread_topo_cpus(topo, 0, 2, IRQ_SPREAD_NUMA,
						   NULL, masks, 0), -EINVAL);
	KUNIT_EXPECT_MEMEQ(test, masks, orig, 2 * longs * sizeof(long));
	KUNIT_EXPECT_NULL(test, topo->load);
}

/*
 * A node whose CPUs lie in words far apart is still a whole hop: 320
 * vectors of a device on it take its 320 CPUs, one each, on an idle
 * machine.
 */
static void irq_spread_test_node_runs(struct kunit *test)
{
	struct test_topo *t = irq_spread_test_topo_new(test, &striped);
	unsigned long *masks = test_masks(test, t, 320);
	unsigned long *seen = irq_spread_test_bitmap(test, t);
	unsigned int n = striped.nr_cpus, node, i;

	for (node = 0; node < striped.nr_nodes; node++) {
		KUNIT_ASSERT_EQ(test, irq_spread_topo_cpus(&t->topo, node, 320,
							   IRQ_SPREAD_NUMA, NULL,
							   masks, t->longs), 0);
		bitmap_zero(seen, n);
		for (i = 0; i < 320; i++) {
			KUNIT_EXPECT_EQ(test, bitmap_weight(test_mask(t, masks, i), n),
					1);
			bitmap_or(seen, seen, test_mask(t, masks, i), n);
		}
		KUNIT_EXPECT_TRUE_MSG(test, bitmap_equal(seen, t->node_cpus[node], n),
				      "node %u: vectors on %*pbl", node, n, seen);
		irq_spread_topo_release(&t->topo, 320, masks, t->longs);
	}
}

/* No CPU online at all: an error, never an empty mask. */
static void irq_spread_test_no_cpu(struct kunit *test)
{
	struct test_topo *t = irq_spread_test_topo_new(test, &irq_spread_test_mana_vm);
	unsigned long *masks = test_masks(test, t, 1);

	bitmap_zero(t->online, irq_spread_test_mana_vm.nr_cpus);
	KUNIT_EXPECT_EQ(test, irq_spread_topo_cpus(&t->topo, 0, 1, IRQ_SPREAD_NUMA,
						   NULL, masks, t->longs), -ENODEV);
	KUNIT_EXPECT_TRUE(test, bitmap_empty(masks, irq_spread_test_mana_vm.nr_cpus));
}

/*
 * A machine of no CPU: every spread and query -ENODEV, nothing placed.  A
 * copy of MANA's VM, its topology set up for 0 CPUs.
 */
static void irq_spread_test_no_cpus(struct kunit *test)
{
	struct test_topo *t = irq_spread_test_topo_new(test, &irq_spread_test_mana_vm);
	struct test_topo *copy = kunit_kmalloc(test, sizeof(*copy), GFP_KERNEL);
	struct irq_spread_topology *topo;
	unsigned long mask = 0;

	KUNIT_ASSERT_NOT_NULL(test, copy);
	*copy = *t;
	topo = &copy->topo;
	memset(topo, 0, sizeof(*topo));
	topo->leaving = t->topo.leaving;
	KUNIT_ASSERT_EQ(test, irq_spread_topology_init(topo, t->topo.ops, 0, 1,
						       copy), 0);
	KUNIT_EXPECT_EQ(test, irq_spread_topo_cpus(topo, 0, 1, POL_NUMA, NULL,
						   &mask, 1), -ENODEV);
	KUNIT_EXPECT_EQ(test, irq_spread_topo_nth_cpu(topo, 0, 0, POL_NUMA),
			-ENODEV);
	KUNIT_EXPECT_EQ(test, mask, 0);
	KUNIT_EXPECT_NULL(test, topo->load);
	irq_spread_topology_destroy(topo);
}

/*
 * The last eligible CPU on its way offline: the fallback to online CPUs
 * leaves it out too.  MANA's VM, CPUs 1-7 isolated, CPU 0 leaving: numa, 2
 * vectors on the online CPUs but 0, in order: 1;2.
 */
static void irq_spread_test_fallback_not_leaving(struct kunit *test)
{
	struct test_topo *t = irq_spread_test_topo_new(test, &irq_spread_test_mana_vm);
	unsigned long *masks = test_masks(test, t, 2);

	bitmap_andnot(t->housekeeping, t->housekeeping,
		      irq_spread_test_cpus(test, t, "1-7"), t->m->nr_cpus);
	__set_bit(0, t->topo.leaving);
	KUNIT_ASSERT_EQ(test, irq_spread_topo_cpus(&t->topo, 0, 2, IRQ_SPREAD_NUMA,
						   NULL, masks, t->longs), 0);
	KUNIT_EXPECT_STREQ(test, test_placement(test, t, masks, 2), "1;2");
}

/**
 * struct nth_case - the CPUs irq_spread_topo_nth_cpu() gives index by index
 * @desc: what it tests
 * @m: the machine
 * @node: the device's node
 * @policy: the policy
 * @offline: CPUs offline, or NULL
 * @isolated: CPUs not housekeeping, or NULL
 * @want: the CPUs of indices 0, 1, ..., ";" between them, worked out by
 *	hand: the slot order of a spread with no load
 */
struct nth_case {
	const char *desc;
	const struct test_machine *m;
	int node;
	enum irq_spread_policy policy;
	const char *offline;
	const char *isolated;
	const char *want;
};

static const struct nth_case nth_cases[] = {
	{ "mana numa, wraps", &irq_spread_test_mana_vm, 0, POL_NUMA, .want = "0;1;2;3;4;5;6;7;0" },
	{ "mana numa-core: cores, then siblings, wraps", &irq_spread_test_mana_vm, 0,
	  POL_NUMA_CORE, .want = "0;2;4;6;1;3;5;7;0;2" },
	{ "mana numa-core, 2 offline, 5 isolated", &irq_spread_test_mana_vm, 0,
	  POL_NUMA_CORE, "2", "5", .want = "0;3;4;6;1;7;0" },
	{ "mana core, all isolated: online", &irq_spread_test_mana_vm, 0, POL_CORE,
	  NULL, "0-7", .want = "0;2;4;6;1" },
	{ "epyc node 5 core", &irq_spread_test_epyc, 5, POL_CORE,
	  .want = "40;41;42;43;44;45;46;47;32;33;34;35;36;37;38;39;0;1;2;3" },
	{ "epyc node 9 numa-core", &irq_spread_test_epyc, 9, POL_NUMA_CORE,
	  .want = "72;73;74;75;76;77;78;79;200;201;202;203;204;205;206;207;64" },
	{ "epyc node 0 numa", &irq_spread_test_epyc, 0, POL_NUMA,
	  .want = "0;1;2;3;4;5;6;7;128;129;130;131;132;133;134;135;8;9" },
	{ "epyc no node numa-core", &irq_spread_test_epyc, NUMA_NO_NODE, POL_NUMA_CORE,
	  .want = "0;1;2" },
	{ "epyc-l3 node 5 core", &irq_spread_test_epyc_l3, 5, POL_CORE,
	  .want = "40;41;42;43;44;45;46;47;32;33;34;35;36;37;38;39;0;8;16;24" },
	{ "nps1 node 0 numa-core", &irq_spread_test_epyc_nps1, 0, POL_NUMA_CORE,
	  .want = "0;8;16;24;32;40;48;56;1;9" },
	{ "nps1 no node numa", &irq_spread_test_epyc_nps1, NUMA_NO_NODE, POL_NUMA,
	  .want = "0;8;16;24;32;40;48;56;64;72;80;88;96;104;112;120;1" },
	{ "xeon node 1 numa-core", &irq_spread_test_xeon, 1, POL_NUMA_CORE,
	  .want = "14;15;16;17;18;19;20;21;22;23;24;25;26;27;42;43" },
	{ "cpu-less node core", &holes, 2, POL_CORE, .want = "8;10;4;6;0;2;9" },
	{ "smt4 node 1 numa-core", &smt4, 1, POL_NUMA_CORE, .want = "8;12;9;13;10;14;11;15;0;4" },
};

static void nth_case_desc(const struct nth_case *c, char *desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(nth, nth_cases, nth_case_desc);

/* The hand-worked order, index by index, and the load never touched. */
static void irq_spread_test_nth(struct kunit *test)
{
	const struct nth_case *c = test->param_value;
	struct test_topo *t = irq_spread_test_topo_new(test, c->m);
	unsigned int n = c->m->nr_cpus, i, nr = 1;
	size_t size, len = 0;
	const char *p;
	char *buf;
	int cpu;

	bitmap_andnot(t->online, t->online, irq_spread_test_cpus(test, t, c->offline), n);
	bitmap_andnot(t->housekeeping, t->housekeeping,
		      irq_spread_test_cpus(test, t, c->isolated), n);
	for (p = c->want; *p; p++)
		nr += *p == ';';
	size = nr * 8 + 1;
	buf = kunit_kzalloc(test, size, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	for (i = 0; i < nr; i++) {
		cpu = irq_spread_topo_nth_cpu(&t->topo, c->node, i, c->policy);
		KUNIT_ASSERT_GE(test, cpu, 0);
		len += scnprintf(buf + len, size - len, "%s%d", i ? ";" : "", cpu);
	}
	KUNIT_EXPECT_STREQ(test, buf, c->want);
	KUNIT_EXPECT_NULL(test, t->topo.load);
}

/*
 * Other devices' vectors do not move the answer, which stays that of an
 * idle machine, and the answer counts nothing; index i is a CPU of vector
 * i of a spread on an idle machine, under every policy.
 */
static void irq_spread_test_nth_stateless(struct kunit *test)
{
	struct test_topo *t = irq_spread_test_topo_new(test, &irq_spread_test_epyc);
	struct test_topo *idle = irq_spread_test_topo_new(test, &irq_spread_test_epyc);
	unsigned long *held = test_masks(test, t, 8), *masks;
	unsigned int i, nvec = 300;
	int p, cpu;

	KUNIT_ASSERT_EQ(test, irq_spread_topo_cpus(&t->topo, 6, 8, POL_NUMA, NULL,
						   held, t->longs), 0);
	KUNIT_EXPECT_STREQ(test, test_placement(test, t, held, 8),
			   "48;49;50;51;52;53;54;55");
	for (i = 0; i < 8; i++)
		KUNIT_EXPECT_EQ(test, irq_spread_topo_nth_cpu(&t->topo, 6, i, POL_NUMA),
				48 + i);
	KUNIT_EXPECT_EQ(test, irq_spread_test_load_sum(&t->topo), 8);

	masks = test_masks(test, idle, nvec);
	for (p = 0; p < IRQ_SPREAD_NR_POLICIES; p++) {
		KUNIT_ASSERT_EQ(test, irq_spread_topo_cpus(&idle->topo, 6, nvec, p,
							   NULL, masks, idle->longs), 0);
		for (i = 0; i < nvec; i++) {
			cpu = irq_spread_topo_nth_cpu(&t->topo, 6, i, p);
			KUNIT_ASSERT_GE(test, cpu, 0);
			KUNIT_EXPECT_TRUE_MSG(test, test_bit(cpu, test_mask(idle, masks, i)),
					      "policy %d index %u: CPU %d", p, i, cpu);
		}
		irq_spread_topo_release(&idle->topo, nvec, masks, idle->longs);
	}
	KUNIT_EXPECT_EQ(test, irq_spread_test_load_sum(&t->topo), 8);
}

#define TEST_NTH_LIST	96

/*
 * @nr answers of irq_spread_topo_nth_cpu() from index 0, as nth_cases'
 * want, into @buf of TEST_NTH_LIST bytes: allocates nothing.
 */
static const char *test_nth_list(char *buf, struct test_topo *t, int node,
				 enum irq_spread_policy policy, unsigned int nr)
{
	size_t size = TEST_NTH_LIST, len = 0;
	unsigned int i;

	for (i = 0; i < nr; i++)
		len += scnprintf(buf + len, size - len, "%s%d", i ? ";" : "",
				 irq_spread_topo_nth_cpu(&t->topo, node, i, policy));
	return buf;
}

/*
 * The answers of nth_cases, again after the eligible CPUs change (the
 * cached order must follow them) and after they change back;
 * irq_spread_local_cpu() on the system gives an online CPU.
 */
static void irq_spread_test_nth_eligible(struct kunit *test)
{
	struct test_topo *t = irq_spread_test_topo_new(test, &irq_spread_test_mana_vm);
	unsigned int n = irq_spread_test_mana_vm.nr_cpus, cpu[3];
	const char *got[4];
	char *buf;
	int p;

	buf = kunit_kzalloc(test, 4 * TEST_NTH_LIST, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	got[0] = test_nth_list(buf, t, 0, POL_NUMA_CORE, 10);
	__clear_bit(2, t->online);
	__clear_bit(5, t->housekeeping);
	got[1] = test_nth_list(buf + TEST_NTH_LIST, t, 0, POL_NUMA_CORE, 7);
	bitmap_fill(t->online, n);
	bitmap_fill(t->housekeeping, n);
	got[2] = test_nth_list(buf + 2 * TEST_NTH_LIST, t, 0, POL_NUMA_CORE, 10);
	got[3] = test_nth_list(buf + 3 * TEST_NTH_LIST, t, 0, POL_NUMA, 9);
	for (p = 0; p < IRQ_SPREAD_NR_POLICIES; p++)
		cpu[p] = irq_spread_local_cpu(0, NUMA_NO_NODE, p);

	KUNIT_EXPECT_STREQ(test, got[0], "0;2;4;6;1;3;5;7;0;2");
	KUNIT_EXPECT_STREQ(test, got[1], "0;3;4;6;1;7;0");
	KUNIT_EXPECT_STREQ(test, got[2], "0;2;4;6;1;3;5;7;0;2");
	KUNIT_EXPECT_STREQ(test, got[3], "0;1;2;3;4;5;6;7;0");
	for (p = 0; p < IRQ_SPREAD_NR_POLICIES; p++)
		KUNIT_EXPECT_TRUE_MSG(test, cpu[p] < nr_cpu_ids && cpu_online(cpu[p]),
				      "policy %d: CPU %u", p, cpu[p]);
}

/* Bad arguments: -EINVAL; no CPU online: -ENODEV; no load either way. */
static void irq_spread_test_nth_invalid(struct kunit *test)
{
	struct test_topo *t = irq_spread_test_topo_new(test, &irq_spread_test_mana_vm);
	struct irq_spread_topology *topo = &t->topo;

	KUNIT_EXPECT_EQ(test, irq_spread_topo_nth_cpu(topo, 0, 0, IRQ_SPREAD_NR_POLICIES),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, irq_spread_topo_nth_cpu(topo, 0, 0, -1), -EINVAL);
	KUNIT_EXPECT_EQ(test, irq_spread_topo_nth_cpu(topo, 1, 0, POL_NUMA), -EINVAL);
	KUNIT_EXPECT_EQ(test, irq_spread_topo_nth_cpu(topo, -2, 0, POL_NUMA), -EINVAL);
	bitmap_zero(t->online, irq_spread_test_mana_vm.nr_cpus);
	KUNIT_EXPECT_EQ(test, irq_spread_topo_nth_cpu(topo, 0, 0, POL_NUMA_CORE),
			-ENODEV);
	KUNIT_EXPECT_NULL(test, topo->load);
}

static struct kunit_case irq_spread_engine_test_cases[] = {
	KUNIT_CASE_PARAM(irq_spread_test_nth, nth_gen_params),
	KUNIT_CASE(irq_spread_test_nth_stateless),
	KUNIT_CASE(irq_spread_test_nth_invalid),
	KUNIT_CASE(irq_spread_test_nth_eligible),
	KUNIT_CASE_PARAM(irq_spread_test_spread, spread_gen_params),
	KUNIT_CASE_PARAM(irq_spread_test_load, load_gen_params),
	KUNIT_CASE(irq_spread_test_invalid),
	KUNIT_CASE(irq_spread_test_no_cpu),
	KUNIT_CASE(irq_spread_test_no_cpus),
	KUNIT_CASE(irq_spread_test_fallback_not_leaving),
	KUNIT_CASE(irq_spread_test_node_runs),
	{}
};

static struct kunit_suite irq_spread_engine_test_suite = {
	.name = "irq_spread_engine",
	.test_cases = irq_spread_engine_test_cases,
};

kunit_test_suite(irq_spread_engine_test_suite);

MODULE_DESCRIPTION("KUnit tests for the irq_spread engine on injected machines");
MODULE_LICENSE("GPL");
