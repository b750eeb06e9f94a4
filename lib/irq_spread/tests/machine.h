/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Injected machines for the irq_spread KUnit suites: a machine described by
 * its nodes' CPUs, node distances and SMT layout, built into the topology
 * the engine, pools and devices are given instead of the running system's.
 */
#ifndef _IRQ_SPREAD_KUNIT_MACHINE_H
#define _IRQ_SPREAD_KUNIT_MACHINE_H

#include <kunit/test.h>
#include <linux/types.h>

#include "../engine.h"

/**
 * struct test_machine - a machine to inject
 * @name: what it is
 * @nr_cpus: number of CPUs
 * @nr_nodes: number of NUMA nodes
 * @node_cpus: each node's CPU list, "" for a node without CPUs
 * @distance: node distance, as the firmware's SLIT gives it; %NULL for 10
 *	local and @remote between any two nodes
 * @remote: see @distance
 * @smt: threads per core
 * @smt_stride: 0 if a core's threads are adjacent CPU numbers, else the
 *	distance between them (thread siblings i, i + @smt_stride, ...)
 * @l3_cpus: each L3 (last-level cache) domain's CPU list, @nr_l3 of them,
 *	covering every CPU once; %NULL for a machine whose cache domains are
 *	not known (its topology has no llc_cpus)
 * @nr_l3: see @l3_cpus
 */
struct test_machine {
	const char *name;
	unsigned int nr_cpus;
	unsigned int nr_nodes;
	const char * const *node_cpus;
	int (*distance)(int from, int to);
	int remote;
	unsigned int smt;
	unsigned int smt_stride;
	const char * const *l3_cpus;
	unsigned int nr_l3;
};

/**
 * struct test_topo - an injected machine and its state
 * @topo: the topology given to the engine, pools and devices
 * @m: the machine
 * @node_cpus: each node's CPUs
 * @siblings: each CPU's SMT siblings, itself included
 * @llc: each CPU's L3 domain, itself included; %NULL without @m->l3_cpus
 * @cpu_node: each CPU's node
 * @online: the CPUs @topo reports online, all of them at first
 * @housekeeping: the housekeeping CPUs, all of them at first; @topo reports
 *	those also online as eligible
 * @longs: the longs in a bitmap of @m's CPUs
 *
 * A test may change @online and @housekeeping between spreads.
 */
struct test_topo {
	struct irq_spread_topology topo;
	const struct test_machine *m;
	unsigned long **node_cpus;
	unsigned long **siblings;
	unsigned long **llc;
	int *cpu_node;
	unsigned long *online;
	unsigned long *housekeeping;
	size_t longs;
};

/*
 * Seed 000: 2-socket AMD EPYC 7763, 64 cores per socket, SMT2, 16 nodes (one
 * per CCD, "L3 as NUMA"): node n = CPUs 8n..8n+7 and their siblings
 * 128+8n..128+8n+7.  SLIT: 10 local; within a socket, 11 between the two
 * nodes of a quadrant (nodes 2k and 2k+1), 12 otherwise; 32 across sockets.
 */
extern const struct test_machine irq_spread_test_epyc;

/*
 * Seed 000 with its cache domains: irq_spread_test_epyc and an L3 per CCX,
 * which on Zen 3 is the CCD, so one per node: L3 k = node k's CPUs.
 */
extern const struct test_machine irq_spread_test_epyc_l3;

/*
 * The seed's EPYC in NPS1: a node per socket, node 0 = CPUs 0-63 and their
 * siblings 128-191, node 1 = 64-127 and 192-255, SLIT 10 / 32; still an
 * L3 per CCX, eight per node: L3 k = CPUs 8k..8k+7 and 128+8k..128+8k+7.
 */
extern const struct test_machine irq_spread_test_epyc_nps1;

/* Seed 002: MANA's Hyper-V VM, one node, 4 cores SMT2, siblings 2k, 2k+1. */
extern const struct test_machine irq_spread_test_mana_vm;

/*
 * Seed 002: the 2-node 96-vCPU Hyper-V VM of the MANA review, 24 cores SMT2
 * per node, siblings 2k, 2k+1; no SLIT, so the ACPI defaults 10 and 20.
 */
extern const struct test_machine irq_spread_test_vm96;

/*
 * Seed 004: 2-socket Xeon E5-2697 v3, 14 cores SMT2 per socket, 56 CPUs,
 * numbered as Intel firmware does: the first thread of every core (socket
 * 0, then 1), then the second threads, so siblings are i and i + 28.
 * SLIT 10 / 21.
 */
extern const struct test_machine irq_spread_test_xeon;

struct test_topo *
irq_spread_test_topo_new(struct kunit *test,
			 const struct test_machine *m);
int irq_spread_test_distance(const struct test_machine *m,
			     int from, int to);
unsigned long *irq_spread_test_bitmap(struct kunit *test,
				      const struct test_topo *t);
unsigned long *irq_spread_test_cpus(struct kunit *test,
				    const struct test_topo *t,
				    const char *list);
unsigned int irq_spread_test_load_sum(struct irq_spread_topology *topo);
struct irq_spread_dev *
irq_spread_test_register(struct kunit *test, struct irq_spread_topology *topo,
			 struct irq_spread_dev_info *info, const char *name);
void irq_spread_test_unregister(struct kunit *test, struct irq_spread_dev *sd);
const char *irq_spread_test_vector_masks(struct kunit *test,
					 struct irq_spread_dev *sd,
					 unsigned int nvec);
void irq_spread_test_fail_nth(unsigned int n);
bool irq_spread_test_fail_nth_fired(void);
void irq_spread_test_fault_ready(struct kunit *test);

#endif /* _IRQ_SPREAD_KUNIT_MACHINE_H */
