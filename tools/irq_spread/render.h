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
 * An SVG picture of @m: packages, nodes, L3 domains and cores, each present
 * CPU a cell holding the vectors whose masks hold it (device d's vector v
 * drawn as "d:v", d and v from 0, d in the order of @devs; one colour per
 * device), the devices' nodes marked, offline, isolated and nohz_full CPUs
 * hatched, and a legend with each device's figures.  Each group is drawn
 * in the group above it that holds its first CPU: an L3 domain that spans
 * nodes in its first CPU's node, named with all its nodes ("L3 2, nodes
 * 0-1"); a device whose node's CPUs are all drawn in another node's box is
 * marked on that box, and the legend says so.  A cell has up to three lines of
 * vectors; one with more vectors than lines gives counts instead ("dN" and
 * a multiplication sign and k per device, or "k vec"), its list as a
 * tooltip.  Labels are escaped for XML, bytes that are not UTF-8 become
 * '?'.  Self-contained SVG 1.1: no script, no external font or style.
 * Return 0, or -1 if writing @f failed (checked after a flush) or memory
 * ran out; @f may then hold part of a picture.
 */
int render_svg(FILE *f, const struct machine *m,
	       const struct preview_dev *devs, unsigned int nr);

/*
 * The same for a terminal, in at most 100 columns: each device's legend
 * (wrapped to a second line if need be), then one block per L3 domain
 * (grouped by node and package; its cores wrap to more lines when they do
 * not fit), one cell per core with a
 * field per thread: its vectors ("d:v,d:v"), or "kv" for k vectors when
 * they do not fit, or '.' for none, 'x' offline, 'i' isolated, 'n'
 * nohz_full.  Printable ASCII only (other bytes of labels become '?'),
 * with ANSI colours per device if @color.  Return 0, or -1 if writing @f
 * failed (checked after a flush) or memory ran out.
 */
int render_map(FILE *f, const struct machine *m,
	       const struct preview_dev *devs, unsigned int nr, bool color);

#endif /* _IRQ_SPREAD_TOOL_RENDER_H */
