/* SPDX-License-Identifier: GPL-2.0 */
/*
 * irq_spread preview: how good a placement is, by the figures of
 * Documentation/admin-guide/irq_spread.rst ("Previewing a placement").
 */
#ifndef _IRQ_SPREAD_TOOL_QUALITY_H
#define _IRQ_SPREAD_TOOL_QUALITY_H

#include "machine.h"

/**
 * struct quality - figures of one device's placement
 * @mean_distance: mean over the vectors of the mean NUMA distance from the
 *	device's node to the vector's CPUs (10 = all local); CPUs of no node
 *	do not count, nor vectors without a CPU that has one; 0 for no node
 * @lower_bound: the least @mean_distance any placement of that many vectors
 *	on the eligible CPUs (the online ones if none is eligible, as the
 *	engine falls back) can have with no CPU taking more than
 *	ceil(vectors / eligible CPUs) vectors, one CPU per vector: the
 *	eligible CPUs nearest first, each up to that cap; 0 for no node
 * @core_shared: vectors that share a physical core with an earlier vector
 *	(a CPU of the same core in both masks; a vector's own threads share
 *	nothing; a CPU of no known core is a core of its own)
 * @max_per_cpu: the most vectors whose masks hold one CPU
 * @l3_used: L3 domains (the machine's @l3) that hold a CPU of some vector
 * @l3_crowded: vectors whose interrupt shares an L3 domain with an earlier
 *	vector's while an L3 domain as near was free: a vector's interrupt
 *	ends on the first CPU of its mask; vector i counts if that CPU's L3
 *	holds the first CPU of a vector before i and some other L3 domain
 *	holds none, with an eligible CPU (online if none is) at a distance
 *	from the device's node no greater than that CPU's (any, for no
 *	node); a CPU of no L3 is an L3 of its own
 * @ineligible: vectors with a CPU that is not eligible (offline, isolated,
 *	nohz_full)
 */
struct quality {
	double mean_distance;
	double lower_bound;
	unsigned int core_shared;
	unsigned int max_per_cpu;
	unsigned int l3_used;
	unsigned int l3_crowded;
	unsigned int ineligible;
};

/*
 * The figures of @nvec masks (vector i's at @masks + i * @stride) placed for
 * a device on @node (-1 for none) on @m.
 */
void quality_of(const struct machine *m, int node, unsigned int nvec,
		const unsigned long *masks, size_t stride, struct quality *q);

/*
 * The mean distance from @node to the CPUs of @mask that have a node, in
 * @mean; false, leaving @mean alone, if none has.
 */
bool quality_mask_distance(const struct machine *m, int node,
			   const unsigned long *mask, double *mean);

#endif /* _IRQ_SPREAD_TOOL_QUALITY_H */
