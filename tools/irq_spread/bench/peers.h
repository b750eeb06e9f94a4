/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What drivers and tools do instead of irq_spread, re-derived from their
 * public descriptions (each function names its source), for the quality
 * benchmark.  Each writes @nvec masks, vector i's at @masks + i * @stride,
 * for a device on @node (-1 for none) of @m; a peer that leaves a vector's
 * affinity alone writes every online CPU, the interrupt core's default.
 */
#ifndef _IRQ_SPREAD_TOOL_PEERS_H
#define _IRQ_SPREAD_TOOL_PEERS_H

#include "../machine.h"

struct peer {
	const char *name;
	void (*place)(const struct machine *m, int node, unsigned int nvec,
		      unsigned long *masks, size_t stride);
};

extern const struct peer peers[];
extern const unsigned int nr_peers;

#endif /* _IRQ_SPREAD_TOOL_PEERS_H */
