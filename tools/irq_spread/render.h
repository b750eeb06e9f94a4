/* SPDX-License-Identifier: GPL-2.0 */
/*
 * irq_spread preview: pictures of a placement, an SVG and a terminal map.
 */
#ifndef _IRQ_SPREAD_TOOL_RENDER_H
#define _IRQ_SPREAD_TOOL_RENDER_H

#include <stdbool.h>
#include <stdio.h>

#include "machine.h"
#include "quality.h"

/**
 * struct preview_dev - one device of a preview, placed
 * @label: how the device was named: "eth0", "0000:41:00.0", "node 2", ...
 * @node: its NUMA node, or -1
 * @policy: the policy it was placed under
 * @nvec: number of vectors
 * @masks: the vectors' CPUs, vector i's at @masks + i * @stride
 * @stride: in longs, at least @m->longs
 * @q: the placement's figures
 */
struct preview_dev {
	const char *label;
	int node;
	enum irq_spread_policy policy;
	unsigned int nvec;
	unsigned long *masks;
	size_t stride;
	struct quality q;
};

/*
 * An SVG picture of @m: packages, nodes, L3 domains and cores, each CPU a
 * cell holding the vectors whose masks hold it (device d's vector v drawn
 * as "d:v", one colour per device), the devices' nodes marked, offline,
 * isolated and nohz_full CPUs marked, and a legend with each device's
 * figures.  Return 0, or -1 if writing @f failed.
 */
int render_svg(FILE *f, const struct machine *m,
	       const struct preview_dev *devs, unsigned int nr);

/*
 * The same for a terminal, in at most 100 columns: one line per L3 domain
 * (grouped by node and package), one cell per core with its threads'
 * vectors; ANSI colours per device if @color.  Return 0, or -1 if writing
 * @f failed.
 */
int render_map(FILE *f, const struct machine *m,
	       const struct preview_dev *devs, unsigned int nr, bool color);

#endif /* _IRQ_SPREAD_TOOL_RENDER_H */
