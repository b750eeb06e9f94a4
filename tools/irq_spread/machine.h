/* SPDX-License-Identifier: GPL-2.0 */
/*
 * irq_spread preview: a machine as sysfs describes it, and the engine's
 * topology over it.
 */
#ifndef _IRQ_SPREAD_TOOL_MACHINE_H
#define _IRQ_SPREAD_TOOL_MACHINE_H

#include <stdbool.h>
#include <stddef.h>

#include "engine.h"

/**
 * struct machine - a machine, read from a sysfs-shaped tree or built
 * @nr_cpus: highest CPU number + 1: the width of every bitmap
 * @nr_nodes: highest node number + 1
 * @longs: longs in a bitmap of @nr_cpus bits
 * @distance: @nr_nodes * @nr_nodes node distances, from * @nr_nodes + to
 * @node_online: the nodes the machine has (a nodeN directory), @nr_nodes
 *	bits; a node may have no CPUs
 * @node_cpus: per node, its CPUs; %NULL for a node without any
 * @present: CPUs the machine has (a topology directory in sysfs)
 * @online: online CPUs
 * @isolated: CPUs in devices/system/cpu/isolated
 * @nohz_full: CPUs in devices/system/cpu/nohz_full
 * @eligible: @online without @isolated and @nohz_full: where a vector may go
 * @siblings: per CPU, its SMT siblings, itself included (empty if absent)
 * @cpu_node: per CPU, its node, or -1
 * @core: per CPU, a dense physical core index (0..@nr_cores - 1), or -1;
 *	two CPUs share a core iff they are in each other's @siblings
 * @package: per CPU, physical_package_id, or -1
 * @l3: per CPU, a dense L3 domain index (0..@nr_l3 - 1): CPUs with the same
 *	cache/index3/shared_cpu_list, or where a CPU has none the same
 *	topology/cluster_cpus_list if its cluster holds more than its core;
 *	the package when a CPU has neither
 * @llc: per CPU with a cache/index3 (or a cluster for one), the CPUs of
 *	its L3 domain (those of @l3 with the same; shared between them),
 *	which the engine orders by; %NULL for a CPU without one (the engine
 *	has no cache domains if no CPU has one)
 * @llc_masks: the @nr_l3 masks @llc points to
 * @nr_cores: number of physical cores
 * @nr_l3: number of L3 domains
 * @topo: the engine's topology over this machine (machine_topology())
 */
struct machine {
	unsigned int nr_cpus;
	unsigned int nr_nodes;
	size_t longs;
	int *distance;
	unsigned long *node_online;
	unsigned long **node_cpus;
	unsigned long *present;
	unsigned long *online;
	unsigned long *isolated;
	unsigned long *nohz_full;
	unsigned long *eligible;
	unsigned long **siblings;
	int *cpu_node;
	int *core;
	int *package;
	int *l3;
	unsigned long **llc;
	unsigned long **llc_masks;
	unsigned int nr_cores;
	unsigned int nr_l3;
	struct irq_spread_topology topo;
};

/* Distance from node @from to node @to. */
static inline int machine_distance(const struct machine *m, int from, int to)
{
	return m->distance[from * m->nr_nodes + to];
}

/*
 * Read the machine under @root (a directory holding devices/system/...).
 * On error return -1 with a message naming the file in @err and @m empty.
 */
int machine_read_sysfs(struct machine *m, const char *root, char *err,
		       size_t errlen);

/*
 * A machine of @nr_nodes nodes, each with @cores cores of @smt threads, CPUs
 * numbered as Intel firmware does (every core's first thread, node by node,
 * then the second threads, ...) if @interleave, else siblings adjacent;
 * node n is package n / @nodes_per_package, one L3 per @l3_cores cores
 * (0: one per node); distance 10 local, @near within a package, @far across.
 */
int machine_synthetic(struct machine *m, unsigned int nr_nodes,
		      unsigned int cores, unsigned int smt, bool interleave,
		      unsigned int nodes_per_package, unsigned int l3_cores,
		      int near, int far);

/*
 * Build a machine by hand: machine_alloc(), then fill @distance,
 * @node_online (machine_finish() adds every node with CPUs),
 * @node_cpus (allocate with machine_bitmap()), @online, @isolated,
 * @nohz_full, @siblings, @cpu_node, @package, @l3 (raw ids: ints from 0 below @nr_cpus, -1 for
 * none), then machine_finish(), which derives @eligible, @core and
 * @nr_cores, makes @l3 dense and sets up @topo.  machine_finish() returns
 * -1 with a message in @err if the description is inconsistent (a CPU
 * that is not its own sibling, siblings that disagree, a node distance
 * out of range, ...).
 */
int machine_alloc(struct machine *m, unsigned int nr_cpus,
		  unsigned int nr_nodes);
unsigned long *machine_bitmap(const struct machine *m);
int machine_finish(struct machine *m, char *err, size_t errlen);
void machine_free(struct machine *m);

/* Parse a kernel CPU list ("0-3,8,10-11") into @dst; -1 if malformed. */
int machine_parse_list(const char *s, unsigned long *dst, unsigned int nbits);
/* Format @src as a kernel CPU list into @buf. */
int machine_format_list(char *buf, size_t size, const unsigned long *src,
			unsigned int nbits);

#endif /* _IRQ_SPREAD_TOOL_MACHINE_H */
