// SPDX-License-Identifier: GPL-2.0
/*
 * irq_spread preview: pictures of a placement, an SVG and a terminal map.
 *
 * Both group the machine's present CPUs the same way: by package, node, L3
 * domain and physical core.  Each group is drawn inside the group of the
 * level above that holds its first CPU: a core in the L3 domain of its first
 * thread, an L3 domain that spans nodes in the node of its first CPU, a node
 * that spans packages in the package of its first CPU.  Packages and nodes
 * come in number order (CPUs of no package or node last), L3 domains and
 * cores in order of their first CPU, threads in CPU order.
 *
 * Device d's vector v is written "d:v" (both from 0, d in the order of
 * @devs); when a CPU holds more vectors than its cell has room for, the
 * cell gives counts instead.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "render.h"

enum { LV_PKG, LV_NODE, LV_L3, LV_CORE, NR_LV };

/**
 * struct box - one package, node, L3 domain or core of a picture
 * @first: its first child: a box of the next level, or for a core the
 *	index of its first thread in &struct layout.order
 * @nr: number of children
 * @id: package or node number, dense L3 index (-1 and below: none), or
 *	for a core its first CPU
 * @cols: columns of its children's grid
 * @x: left, from the parent box's left (SVG)
 * @y: top, from the parent box's top (SVG)
 * @w: width (SVG)
 * @h: height (SVG)
 */
struct box {
	unsigned int first;
	unsigned int nr;
	int id;
	unsigned int cols;
	int x, y, w, h;
};

struct vref {
	unsigned int dev;
	unsigned int vec;
};

/**
 * struct layout - a machine grouped for drawing
 * @m: the machine
 * @devs: the devices
 * @nr: number of devices
 * @order: present CPUs in drawing order
 * @n: number of present CPUs
 * @key: per level, per CPU, its group there: package or node number, or
 *	the first CPU of its L3 domain or core
 * @box: per level, its groups in drawing order
 * @nbox: per level, number of groups
 * @vstart: per CPU, its vectors are @vref[@vstart[cpu] .. @vstart[cpu + 1]]
 * @vref: the vectors of every CPU, in device then vector order
 * @max_threads: most threads of one core
 */
struct layout {
	const struct machine *m;
	const struct preview_dev *devs;
	unsigned int nr;
	unsigned int *order;
	unsigned int n;
	int *key[NR_LV];
	struct box *box[NR_LV];
	unsigned int nbox[NR_LV];
	unsigned int *vstart;
	struct vref *vref;
	unsigned int max_threads;
};

static int cmp_by_key(const void *a, const void *b, void *arg)
{
	unsigned int x = *(const unsigned int *)a, y = *(const unsigned int *)b;
	const int *key = arg;

	if (key[x] != key[y])
		return key[x] < key[y] ? -1 : 1;
	return x < y ? -1 : x > y;
}

/* For each of the @n CPUs @cpus, into @first: the lowest of them with its key. */
static int first_of(const unsigned int *cpus, unsigned int n, int *key,
		    int *first)
{
	unsigned int *idx = malloc((n ? n : 1) * sizeof(*idx));
	unsigned int i, j, k;

	if (!idx)
		return -1;
	memcpy(idx, cpus, n * sizeof(*idx));
	qsort_r(idx, n, sizeof(*idx), cmp_by_key, key);
	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n && key[idx[j]] == key[idx[i]]; j++)
			;
		for (k = i; k < j; k++)
			first[idx[k]] = idx[i];
	}
	free(idx);
	return 0;
}

static int cmp_cpu(const void *a, const void *b, void *arg)
{
	unsigned int x = *(const unsigned int *)a, y = *(const unsigned int *)b;
	struct layout *l = arg;
	unsigned int lv;

	for (lv = 0; lv < NR_LV; lv++) {
		/* As unsigned: no package or node (-1) comes last. */
		unsigned int kx = l->key[lv][x], ky = l->key[lv][y];

		if (kx != ky)
			return kx < ky ? -1 : 1;
	}
	return x < y ? -1 : x > y;
}

static void layout_free(struct layout *l)
{
	unsigned int lv;

	free(l->order);
	for (lv = 0; lv < NR_LV; lv++) {
		free(l->key[lv]);
		free(l->box[lv]);
	}
	free(l->vstart);
	free(l->vref);
}

static int layout_vectors(struct layout *l)
{
	const struct machine *m = l->m;
	unsigned int d, v, cpu, total = 0;
	unsigned int *fill;

	l->vstart = calloc(m->nr_cpus + 1, sizeof(*l->vstart));
	if (!l->vstart)
		return -1;
	for (d = 0; d < l->nr; d++)
		for (v = 0; v < l->devs[d].nvec; v++)
			for_each_set_bit(cpu, l->devs[d].masks +
					 v * l->devs[d].stride, m->nr_cpus) {
				l->vstart[cpu + 1]++;
				total++;
			}
	for (cpu = 0; cpu < m->nr_cpus; cpu++)
		l->vstart[cpu + 1] += l->vstart[cpu];
	l->vref = malloc((total ? total : 1) * sizeof(*l->vref));
	fill = malloc((m->nr_cpus ? m->nr_cpus : 1) * sizeof(*fill));
	if (!l->vref || !fill) {
		free(fill);
		return -1;
	}
	memcpy(fill, l->vstart, m->nr_cpus * sizeof(*fill));
	for (d = 0; d < l->nr; d++)
		for (v = 0; v < l->devs[d].nvec; v++)
			for_each_set_bit(cpu, l->devs[d].masks +
					 v * l->devs[d].stride, m->nr_cpus) {
				l->vref[fill[cpu]].dev = d;
				l->vref[fill[cpu]].vec = v;
				fill[cpu]++;
			}
	free(fill);
	return 0;
}

/* Group the present CPUs of @m into boxes, see the top of this file. */
static int layout_init(struct layout *l, const struct machine *m,
		       const struct preview_dev *devs, unsigned int nr)
{
	unsigned int n = m->nr_cpus, i, j, lv, cpu, threads = 0;
	int *first = malloc((n ? n : 1) * sizeof(int));

	memset(l, 0, sizeof(*l));
	l->m = m;
	l->devs = devs;
	l->nr = nr;
	l->order = malloc((n ? n : 1) * sizeof(*l->order));
	for (lv = 0; lv < NR_LV; lv++) {
		l->key[lv] = malloc((n ? n : 1) * sizeof(int));
		l->box[lv] = calloc(n ? n : 1, sizeof(struct box));
		if (!l->key[lv] || !l->box[lv])
			goto fail;
	}
	if (!first || !l->order || layout_vectors(l))
		goto fail;
	for_each_set_bit(cpu, m->present, n)
		l->order[l->n++] = cpu;

	/* The core, its L3 domain, that one's node, that one's package. */
	for (i = 0; i < l->n; i++)
		first[l->order[i]] = m->core[l->order[i]];
	if (first_of(l->order, l->n, first, l->key[LV_CORE]))
		goto fail;
	for (i = 0; i < l->n; i++)
		first[l->order[i]] = m->l3[l->key[LV_CORE][l->order[i]]];
	if (first_of(l->order, l->n, first, l->key[LV_L3]))
		goto fail;
	for (i = 0; i < l->n; i++)
		l->key[LV_NODE][l->order[i]] =
			m->cpu_node[l->key[LV_L3][l->order[i]]];
	if (first_of(l->order, l->n, l->key[LV_NODE], first))
		goto fail;
	for (i = 0; i < l->n; i++)
		l->key[LV_PKG][l->order[i]] = m->package[first[l->order[i]]];

	qsort_r(l->order, l->n, sizeof(*l->order), cmp_cpu, l);

	/*
	 * Walk the order once: a CPU opens a new box at the first level whose
	 * key differs from the CPU before it, and at every level below.
	 */
	for (i = 0; i < l->n; i++) {
		unsigned int open = NR_LV;

		cpu = l->order[i];
		for (lv = 0; lv < NR_LV && open == NR_LV; lv++)
			if (!i || l->key[lv][cpu] != l->key[lv][l->order[i - 1]])
				open = lv;
		for (lv = open; lv < NR_LV; lv++) {
			struct box *b = &l->box[lv][l->nbox[lv]++];

			b->first = lv + 1 < NR_LV ? l->nbox[lv + 1] : i;
			b->id = lv == LV_L3 ? m->l3[l->key[LV_L3][cpu]] :
				l->key[lv][cpu];
			if (lv)
				l->box[lv - 1][l->nbox[lv - 1] - 1].nr++;
		}
		l->box[LV_CORE][l->nbox[LV_CORE] - 1].nr++;
	}
	for (j = 0; j < l->nbox[LV_CORE]; j++)
		threads = l->box[LV_CORE][j].nr > threads ?
			  l->box[LV_CORE][j].nr : threads;
	l->max_threads = threads;
	free(first);
	return 0;
fail:
	free(first);
	layout_free(l);
	return -1;
}

/*
 * The node box a device on @node is marked on: @node's, or if @node's CPUs
 * are drawn in another node's box (their L3 domain starts there), that
 * one; -2 if none of its CPUs is drawn (or @node is -1).
 */
static int dev_box(const struct layout *l, int node)
{
	const struct machine *m = l->m;
	unsigned int cpu;

	if (node < 0 || (unsigned int)node >= m->nr_nodes ||
	    !m->node_cpus[node])
		return -2;
	for_each_set_bit(cpu, m->node_cpus[node], m->nr_cpus)
		if (test_bit(cpu, m->present))
			return l->key[LV_NODE][cpu];
	return -2;
}

/*
 * The name of L3 domain @b into @buf: "L3 k", and the nodes its CPUs are
 * on if more than one ("L3 k, nodes 0-1"): it is drawn in the first one.
 */
static void l3_name(const struct layout *l, const struct box *b, char *buf,
		    size_t size)
{
	unsigned int nr_nodes = l->m->nr_nodes, i, j;
	unsigned long *nodes = calloc(BITS_TO_LONGS(nr_nodes) + 1,
				      sizeof(long));
	const struct box *c;
	int len, node;

	len = snprintf(buf, size, b->id < 0 ? "L3 ?" : "L3 %d", b->id);
	for (i = 0; nodes && i < b->nr; i++) {
		c = &l->box[LV_CORE][b->first + i];
		for (j = 0; j < c->nr; j++) {
			node = l->m->cpu_node[l->order[c->first + j]];
			if (node >= 0 && (unsigned int)node < nr_nodes)
				__set_bit(node, nodes);
		}
	}
	if (nodes && bitmap_weight(nodes, nr_nodes) > 1 && len > 0 &&
	    (size_t)len + 8 < size) {
		len += snprintf(buf + len, size - len, ", nodes ");
		machine_format_list(buf + len, size - len, nodes, nr_nodes);
	}
	free(nodes);
}

/* Output helpers, for both pictures. */

/*
 * The length of the valid UTF-8 sequence at @s (1 to 4), or 0 if @s does
 * not start one that XML 1.0 allows (control characters, surrogates,
 * U+FFFE and U+FFFF, overlong forms).
 */
static unsigned int utf8_len(const unsigned char *s)
{
	unsigned int len, i;

	if (*s >= 0x20 && *s < 0x7f)
		return 1;
	if (*s < 0xc2 || *s > 0xf4)
		return 0;
	len = *s < 0xe0 ? 2 : *s < 0xf0 ? 3 : 4;
	for (i = 1; i < len; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	if ((*s == 0xe0 && s[1] < 0xa0) || (*s == 0xed && s[1] > 0x9f) ||
	    (*s == 0xf0 && s[1] < 0x90) || (*s == 0xf4 && s[1] > 0x8f))
		return 0;
	if (*s == 0xef && s[1] == 0xbf && s[2] >= 0xbe)
		return 0;
	return len;
}

/* Characters @s takes on screen: an invalid byte is one '?'. */
static unsigned int text_len(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	unsigned int n = 0, len;

	while (*p) {
		len = utf8_len(p);
		p += len ? len : 1;
		n++;
	}
	return n;
}

/* @s as XML character data or attribute value; what XML cannot hold as '?'. */
static void xml_puts(FILE *f, const char *s)
{
	static const char special[] = "&<>\"'";
	static const char * const entity[] = {
		"&amp;", "&lt;", "&gt;", "&quot;", "&apos;",
	};
	const unsigned char *p = (const unsigned char *)s;
	const char *c;
	unsigned int len;

	while (*p) {
		len = utf8_len(p);
		if (!len) {
			fputc('?', f);
			p++;
			continue;
		}
		c = strchr(special, *p);
		if (c)
			fputs(entity[c - special], f);
		else
			fwrite(p, 1, len, f);
		p += len;
	}
}

static unsigned int digits(unsigned int v)
{
	unsigned int n = 1;

	while (v >= 10) {
		v /= 10;
		n++;
	}
	return n;
}

/* Number of distinct devices among @nv vectors @vr, in device order. */
static unsigned int nr_devs_of(const struct vref *vr, unsigned int nv)
{
	unsigned int i, n = 0;

	for (i = 0; i < nv; i++)
		if (!i || vr[i].dev != vr[i - 1].dev)
			n++;
	return n;
}

/* "@what: N CPUs (N online), N packages, ..." into @buf. */
static void summary(const struct layout *l, const char *what, char *buf,
		    size_t size)
{
	static const char * const name[] = {
		"package", "node", "L3 domain", "core",
	};
	unsigned int lv;
	int len;

	len = snprintf(buf, size, "%s: %u CPU%s (%u online)", what, l->n,
		       l->n == 1 ? "" : "s",
		       bitmap_weight(l->m->online, l->m->nr_cpus));
	for (lv = 0; lv < NR_LV && len > 0 && (size_t)len < size; lv++)
		len += snprintf(buf + len, size - len, ", %u %s%s",
				l->nbox[lv], name[lv],
				l->nbox[lv] == 1 ? "" : "s");
}

static const char *node_text(int node, char *buf, size_t size)
{
	if (node < 0)
		return "none";
	snprintf(buf, size, "%d", node);
	return buf;
}

/* The SVG picture. */

/* Tableau 10: distinct, readable on white, and in a colour-blind palette. */
static const unsigned int palette[] = {
	0x4e79a7, 0xf28e2b, 0xe15759, 0x76b7b2, 0x59a14f,
	0xedc948, 0xb07aa1, 0xff9da7, 0x9c755f, 0xbab0ac,
};

/* @rgb mixed with white (@white of 100 parts), or with black if negative. */
static unsigned int mix(unsigned int rgb, int white)
{
	unsigned int out = 0, shift, c;

	for (shift = 0; shift < 24; shift += 8) {
		c = (rgb >> shift) & 0xff;
		if (white >= 0)
			c = c + (255 - c) * white / 100;
		else
			c = c * (100 + white) / 100;
		out |= c << shift;
	}
	return out;
}

static unsigned int dev_rgb(unsigned int d)
{
	return palette[d % ARRAY_SIZE(palette)];
}

#define MAX_LINES	3	/* vector lines in a CPU cell */
#define PAGE_WIDTH	1500	/* what packages and nodes wrap at */
#define MARGIN		12
#define CPU_TOP		12	/* a cell's CPU number line */
#define LINE		11	/* a cell's vector line */
#define BADGE_H		13
#define NODE_RGB	0x666666	/* a node box with no device on it */
#define THIN		"stroke=\"#999\" stroke-width=\"0.5\""
#define BOLD		"font-weight=\"bold\""
#define FONTS		"DejaVu Sans Mono, Menlo, Consolas, monospace"
#define TIMES		"\xc3\x97"	/* U+00D7, multiplication sign */

/* The CPU states a cell is hatched for, each its class and pattern. */
static const struct {
	const char *name;
} cpu_state[] = { { "offline" }, { "isolated" }, { "nohz_full" } };

static bool cpu_in_state(const struct machine *m, unsigned int state,
			 unsigned int cpu)
{
	switch (state) {
	case 0:
		return !test_bit(cpu, m->online);
	case 1:
		return test_bit(cpu, m->isolated);
	default:
		return test_bit(cpu, m->nohz_full);
	}
}

/* Width of @n characters of the 10px monospace font (0.6 em), rounded up. */
static int chars_w(unsigned int n, unsigned int px)
{
	return (int)((n * px * 6 + 9) / 10);
}

struct svg {
	struct layout l;
	FILE *f;
	unsigned int lines;	/* vector lines per cell */
	int cw, ch;		/* cell size */
	unsigned int tcols;	/* thread columns in a core */
};

/*
 * Lay @nr children @kids (all of one size at most @cw x @ch, or the size
 * of the largest) out in a grid in @b, below a label row of @top: as wide
 * as fits in @limit if @limit, else as near the aspect @aspect10 / 10 as
 * can be.
 */
static void grid(struct box *b, struct box *kids, unsigned int nr, int cw,
		 int ch, int pad, int top, int gap, int limit, int aspect10,
		 int minw)
{
	unsigned int cols = 1, rows, c, i;
	long best = -1, w, h, score;

	for (i = 0; kids && i < nr; i++) {
		cw = kids[i].w > cw ? kids[i].w : cw;
		ch = kids[i].h > ch ? kids[i].h : ch;
	}
	if (limit) {
		cols = (limit - 2 * pad + gap) / (cw + gap);
		cols = cols < 1 ? 1 : cols > nr ? nr : cols;
	} else {
		for (c = 1; c <= nr; c++) {
			rows = (nr + c - 1) / c;
			w = (long)c * cw + (c - 1) * gap;
			h = (long)rows * ch + (rows - 1) * gap;
			/* How far w / h is from the aspect, as a ratio >= 1. */
			score = w * 10 > h * aspect10 ?
				w * 10 * 1000 / (h * aspect10) :
				h * aspect10 * 1000 / (w * 10);
			if (best < 0 || score < best) {
				best = score;
				cols = c;
			}
		}
	}
	rows = nr ? (nr + cols - 1) / cols : 1;
	if (nr)
		cols = (nr + rows - 1) / rows;
	b->cols = cols;
	for (i = 0; kids && i < nr; i++) {
		kids[i].x = pad + (int)(i % cols) * (cw + gap);
		kids[i].y = top + pad + (int)(i / cols) * (ch + gap);
	}
	b->w = 2 * pad + (int)cols * cw + ((int)cols - 1) * gap;
	b->w = b->w > minw ? b->w : minw;
	b->h = top + 2 * pad + (int)rows * ch + ((int)rows - 1) * gap;
}

static void svg_attrs(FILE *f, const char *fmt, va_list ap)
{
	if (!fmt)
		return;
	fputc(' ', f);
	vfprintf(f, fmt, ap);
}

/* A rectangle, with the further attributes @fmt. */
static __printf(6, 7) void svg_rect(FILE *f, int x, int y, int w, int h,
				    const char *fmt, ...)
{
	va_list ap;

	fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\"",
		x, y, w, h);
	va_start(ap, fmt);
	svg_attrs(f, fmt, ap);
	va_end(ap);
	fputs("/>", f);
}

/* The start of a text element, with the further attributes @fmt. */
static __printf(4, 5) void svg_text(FILE *f, int x, int y, const char *fmt,
				    ...)
{
	va_list ap;

	fprintf(f, "<text x=\"%d\" y=\"%d\"", x, y);
	va_start(ap, fmt);
	svg_attrs(f, fmt, ap);
	va_end(ap);
	fputc('>', f);
}

/* Devices on node @node, and the width their badges take. */
static int badges_w(const struct svg *s, int node)
{
	unsigned int d;
	int w = 0;

	for (d = 0; node >= 0 && d < s->l.nr; d++)
		if (dev_box(&s->l, s->l.devs[d].node) == node)
			w += chars_w(1 + digits(d), 10) + 10;
	return w;
}

/* Sizes of every cell and box, bottom up. */
static void svg_measure(struct svg *s, struct box *page)
{
	struct layout *l = &s->l;
	unsigned int i, j, k, nv, nd, maxv = 0, maxch = 3;
	const struct vref *vr;
	struct box *b;
	char buf[32], name[64];

	for (i = 0; i < l->n; i++) {
		nv = l->vstart[l->order[i] + 1] - l->vstart[l->order[i]];
		maxv = nv > maxv ? nv : maxv;
		k = digits(l->order[i]);
		maxch = k > maxch ? k : maxch;
	}
	s->lines = maxv < 1 ? 1 : maxv > MAX_LINES ? MAX_LINES : maxv;
	for (i = 0; i < l->n; i++) {
		vr = l->vref + l->vstart[l->order[i]];
		nv = l->vstart[l->order[i] + 1] - l->vstart[l->order[i]];
		nd = nr_devs_of(vr, nv);
		for (j = 0; j < nv; j++) {
			if (nv <= s->lines)
				k = digits(vr[j].dev) + 1 + digits(vr[j].vec);
			else if (nd <= s->lines)
				k = 2 + digits(vr[j].dev) + digits(nv);
			else
				k = digits(nv) + 4;
			maxch = k > maxch ? k : maxch;
		}
	}
	s->cw = chars_w(maxch, 10) + 6;
	s->ch = CPU_TOP + (int)s->lines * LINE + 3;
	s->tcols = l->max_threads <= 3 ? l->max_threads : 2;
	while (s->tcols * s->tcols < l->max_threads)
		s->tcols++;

	for (i = 0; i < l->nbox[LV_CORE]; i++) {
		b = &l->box[LV_CORE][i];
		k = (b->nr + s->tcols - 1) / s->tcols;
		b->cols = b->nr < s->tcols ? b->nr : s->tcols;
		b->w = 4 + (int)b->cols * s->cw + ((int)b->cols - 1);
		b->h = 4 + (int)k * s->ch + ((int)k - 1);
	}
	for (i = 0; i < l->nbox[LV_L3]; i++) {
		b = &l->box[LV_L3][i];
		l3_name(l, b, name, sizeof(name));
		grid(b, l->box[LV_CORE] + b->first, b->nr, 0, 0, 3, 12, 3, 0,
		     16, chars_w(strlen(name), 9) + 8);
	}
	for (i = 0; i < l->nbox[LV_NODE]; i++) {
		b = &l->box[LV_NODE][i];
		snprintf(buf, sizeof(buf), "node %d", b->id);
		grid(b, l->box[LV_L3] + b->first, b->nr, 0, 0, 4, 17, 4, 0, 16,
		     chars_w(strlen(buf), 11) + 16 + badges_w(s, b->id));
	}
	for (i = 0; i < l->nbox[LV_PKG]; i++) {
		b = &l->box[LV_PKG][i];
		grid(b, l->box[LV_NODE] + b->first, b->nr, 0, 0, 6, 18, 8,
		     PAGE_WIDTH, 0, chars_w(12, 12) + 12);
	}
	memset(page, 0, sizeof(*page));
	grid(page, l->box[LV_PKG], l->nbox[LV_PKG], 0, 0, 0, 0, 12,
	     PAGE_WIDTH, 0, 0);
}

static void svg_badges(struct svg *s, int node, int x, int y)
{
	unsigned int d;
	int w;

	for (d = 0; node >= 0 && d < s->l.nr; d++) {
		if (dev_box(&s->l, s->l.devs[d].node) != node)
			continue;
		w = chars_w(1 + digits(d), 10) + 8;
		fprintf(s->f, "<g class=\"devmark\"><title>device d%u (", d);
		xml_puts(s->f, s->l.devs[d].label);
		fputs(") is on this node</title>", s->f);
		svg_rect(s->f, x, y, w, BADGE_H, "rx=\"3\" fill=\"#%06x\"",
			 dev_rgb(d));
		svg_text(s->f, x + 4, y + 10, "fill=\"#fff\" %s", BOLD);
		fprintf(s->f, "d%u</text></g>\n", d);
		x += w + 2;
	}
}

static void svg_cpu(struct svg *s, unsigned int cpu, int x, int y)
{
	const struct machine *m = s->l.m;
	const struct vref *vr = s->l.vref + s->l.vstart[cpu];
	unsigned int nv = s->l.vstart[cpu + 1] - s->l.vstart[cpu];
	unsigned int nd = nr_devs_of(vr, nv), i, j, line = 0, fill;
	FILE *f = s->f;

	fill = !nv ? 0xffffff : nd == 1 ? mix(dev_rgb(vr[0].dev), 75) :
	       0xe8e8e8;
	fprintf(f, "<g class=\"cpu\" id=\"cpu%u\">", cpu);
	if (nv > s->lines) {
		/* The cell gives counts: the list is its tooltip. */
		fprintf(f, "<title>cpu %u:", cpu);
		for (i = 0; i < nv && i < 64; i++)
			fprintf(f, " %u:%u", vr[i].dev, vr[i].vec);
		fprintf(f, "%s</title>", nv > 64 ? " ..." : "");
	}
	svg_rect(f, x, y, s->cw, s->ch, "fill=\"#%06x\" %s", fill, THIN);
	for (i = 0; i < ARRAY_SIZE(cpu_state); i++)
		if (cpu_in_state(m, i, cpu))
			svg_rect(f, x, y, s->cw, s->ch,
				 "class=\"%s\" fill=\"url(#%s)\"",
				 cpu_state[i].name, cpu_state[i].name);
	svg_text(f, x + 2, y + 9, "class=\"num\" font-size=\"9\" fill=\"#555\"");
	fprintf(f, "%u</text>", cpu);
	for (i = 0; i < nv; i = j) {
		int ty = y + CPU_TOP + (int)(line + 1) * LINE - 2;
		unsigned int color = mix(dev_rgb(vr[i].dev), -45);

		if (nv <= s->lines) {
			svg_text(f, x + 3, ty, "class=\"vec\" fill=\"#%06x\"",
				 color);
			fprintf(f, "%u:%u</text>", vr[i].dev, vr[i].vec);
			j = i + 1;
		} else if (nd <= s->lines) {
			for (j = i; j < nv && vr[j].dev == vr[i].dev; j++)
				;
			svg_text(f, x + 3, ty, "class=\"count\" fill=\"#%06x\"",
				 color);
			fprintf(f, "d%u" TIMES "%u</text>", vr[i].dev, j - i);
		} else {
			svg_text(f, x + 3, ty, "class=\"count\" fill=\"#333\"");
			fprintf(f, "%u vec</text>", nv);
			j = nv;
		}
		line++;
	}
	fputs("</g>\n", f);
}

/* A node box's outline: the colour of the first device on it. */
static unsigned int node_rgb(const struct layout *l, int node)
{
	unsigned int d;

	for (d = 0; node >= 0 && d < l->nr; d++)
		if (dev_box(l, l->devs[d].node) == node)
			return dev_rgb(d);
	return NODE_RGB;
}

static void svg_box(struct svg *s, unsigned int lv, const struct box *b,
		    int ox, int oy)
{
	static const char * const cls[] = { "package", "node", "l3", "core" };
	const struct layout *l = &s->l;
	int x = ox + b->x, y = oy + b->y;
	unsigned int i;
	FILE *f = s->f;
	char name[64];

	if (lv == LV_CORE) {
		fputs("<g class=\"core\">", f);
		svg_rect(f, x, y, b->w, b->h,
			 "rx=\"2\" fill=\"#fff\" stroke=\"#777\"");
		fputc('\n', f);
		for (i = 0; i < b->nr; i++)
			svg_cpu(s, l->order[b->first + i],
				x + 2 + (int)(i % b->cols) * (s->cw + 1),
				y + 2 + (int)(i / b->cols) * (s->ch + 1));
		fputs("</g>\n", f);
		return;
	}
	if (lv == LV_PKG)
		snprintf(name, sizeof(name), b->id < 0 ? "package ?" :
			 "package %d", b->id);
	else if (lv == LV_NODE)
		snprintf(name, sizeof(name), b->id < 0 ? "no node" :
			 "node %d", b->id);
	else
		l3_name(l, b, name, sizeof(name));
	if (lv == LV_L3) {
		fputs("<g class=\"l3\">", f);
		svg_rect(f, x, y, b->w, b->h,
			 "rx=\"3\" fill=\"#eef2f7\" stroke=\"#9ab\" stroke-dasharray=\"3,2\"");
		svg_text(f, x + 4, y + 10, "font-size=\"9\" fill=\"#567\"");
	} else if (lv == LV_NODE) {
		fprintf(f, "<g class=\"node\" id=\"node%d\">", b->id);
		svg_rect(f, x, y, b->w, b->h,
			 "rx=\"4\" fill=\"#fff\" stroke=\"#%06x\" stroke-width=\"%s\"",
			 node_rgb(l, b->id),
			 node_rgb(l, b->id) == NODE_RGB ? "1.2" : "2.5");
		svg_text(f, x + 5, y + 13, "font-size=\"11\" %s", BOLD);
	} else {
		fprintf(f, "<g class=\"%s\">", cls[lv]);
		svg_rect(f, x, y, b->w, b->h,
			 "rx=\"6\" fill=\"#f4f4f4\" stroke=\"#333\" stroke-width=\"1.5\"");
		svg_text(f, x + 6, y + 14, "font-size=\"12\" %s", BOLD);
	}
	fprintf(f, "%s</text>\n", name);
	if (lv == LV_NODE)
		svg_badges(s, b->id, x + 10 + chars_w(strlen(name), 11),
			   y + 3);
	for (i = 0; i < b->nr; i++)
		svg_box(s, lv + 1, &l->box[lv + 1][b->first + i], x, y);
	fputs("</g>\n", f);
}

#define LEGEND_COLS	11
#define ROW		16

/* Column @c of device @d's legend row (-1: the header) into @buf. */
static const char *legend_cell(const struct layout *l, int d, unsigned int c,
			       char *buf, size_t size)
{
	static const char * const head[LEGEND_COLS] = {
		"", "device", "node", "policy", "vectors", "mean distance",
		"lower bound", "cores shared", "max per CPU", "L3 domains",
		"ineligible",
	};
	const struct preview_dev *dev = &l->devs[d < 0 ? 0 : d];
	const struct quality *q = &dev->q;
	int box;

	if (d < 0)
		return head[c];
	switch (c) {
	case 0:
		snprintf(buf, size, "d%d", d);
		break;
	case 1:
		return dev->label ? dev->label : "";
	case 2:
		box = dev_box(l, dev->node);
		if (dev->node >= 0 && box == -2)
			snprintf(buf, size, "%d (no CPUs)", dev->node);
		else if (dev->node >= 0 && box != dev->node)
			snprintf(buf, size, "%d (in node %d)", dev->node, box);
		else
			return node_text(dev->node, buf, size);
		break;
	case 3:
		return irq_spread_policy_name(dev->policy);
	case 4:
		snprintf(buf, size, "%u", dev->nvec);
		break;
	case 5:
	case 6:
		if (dev->node < 0)
			return "-";
		snprintf(buf, size, "%.2f",
			 c == 5 ? q->mean_distance : q->lower_bound);
		break;
	case 7:
		snprintf(buf, size, "%u", q->core_shared);
		break;
	case 8:
		snprintf(buf, size, "%u", q->max_per_cpu);
		break;
	case 9:
		snprintf(buf, size, "%u", q->l3_used);
		break;
	default:
		snprintf(buf, size, "%u", q->ineligible);
	}
	return buf;
}

static const char * const key_text[] = {
	"offline", "isolated", "nohz_full",
	"one device's vectors", "several devices' vectors",
};

#define KEY_LINE	"d:v  device d's vector v    dN" TIMES "k  k vectors of device N    " \
			"k vec  k vectors (hover a cell for its list)"

/* Draw the legend at @y if @f, else only measure it; return its width. */
static int svg_legend(struct svg *s, FILE *f, int y, int *height)
{
	const struct layout *l = &s->l;
	int colx[LEGEND_COLS + 1], w, x, i;
	unsigned int c;
	char buf[64];

	colx[0] = MARGIN;
	for (c = 0; c < LEGEND_COLS; c++) {
		w = 0;
		for (i = -1; i < (int)l->nr; i++) {
			int t = chars_w(text_len(legend_cell(l, i, c, buf,
							     sizeof(buf))), 11);

			w = t > w ? t : w;
		}
		colx[c + 1] = colx[c] + w + (c ? 16 : 22);
	}
	*height = ROW * ((int)l->nr + 1) + 10 + 2 * ROW;
	if (!f)
		goto out;
	fputs("<g class=\"legend\" font-size=\"11\">\n", f);
	for (i = -1; i < (int)l->nr; i++) {
		int ty = y + ROW * (i + 1) + 12;

		if (i >= 0)
			svg_rect(f, colx[0], ty - 10, 11, 11, "fill=\"#%06x\"",
				 dev_rgb(i));
		for (c = 0; c < LEGEND_COLS; c++) {
			x = colx[c] + (c ? 0 : 16);
			svg_text(f, x, ty, i < 0 ? BOLD : NULL);
			xml_puts(f, legend_cell(l, i, c, buf, sizeof(buf)));
			fputs("</text>", f);
		}
		fputc('\n', f);
	}
	y += ROW * ((int)l->nr + 1) + 10;
	x = MARGIN;
	for (c = 0; c < ARRAY_SIZE(key_text); c++) {
		static const char * const fill[] = {
			"url(#offline)", "url(#isolated)", "url(#nohz_full)",
			"#c9d6e5", "#e8e8e8",
		};

		svg_rect(f, x, y + 2, 22, 12, "fill=\"%s\" %s", fill[c], THIN);
		svg_text(f, x + 27, y + 12, NULL);
		fprintf(f, "%s</text>\n", key_text[c]);
		x += 27 + chars_w(strlen(key_text[c]), 11) + 18;
	}
	svg_text(f, MARGIN, y + ROW + 12, "xml:space=\"preserve\"");
	fprintf(f, "%s</text>\n</g>\n", KEY_LINE);
out:
	w = colx[LEGEND_COLS];
	x = MARGIN;
	for (c = 0; c < ARRAY_SIZE(key_text); c++)
		x += 27 + chars_w(strlen(key_text[c]), 11) + 18;
	w = x > w ? x : w;
	x = MARGIN + chars_w(text_len(KEY_LINE), 11);
	return x > w ? x : w;
}

/* The hatches of cpu_state[], each a line on a 6 x 6 tile. */
static const struct {
	int angle;
	const char *ground;	/* the tile's background, or NULL */
	const char *line;	/* the line's attributes */
} hatch[] = {
	{ 45, "#d4d4d4", "stroke=\"#999\" stroke-width=\"3\"" },
	{ 45, NULL, "stroke=\"#d08020\" stroke-width=\"1.5\" stroke-opacity=\"0.6\"" },
	{ -45, NULL, "stroke=\"#8040b0\" stroke-width=\"1.5\" stroke-opacity=\"0.6\"" },
};

static void svg_defs(FILE *f)
{
	unsigned int i;

	fputs("<defs>\n", f);
	for (i = 0; i < ARRAY_SIZE(hatch); i++) {
		fprintf(f, "<pattern id=\"%s\" width=\"6\" height=\"6\" ",
			cpu_state[i].name);
		fprintf(f, "patternUnits=\"userSpaceOnUse\" patternTransform=\"rotate(%d)\">",
			hatch[i].angle);
		if (hatch[i].ground)
			svg_rect(f, 0, 0, 6, 6, "fill=\"%s\"", hatch[i].ground);
		fprintf(f, "<line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"6\" %s/></pattern>\n",
			hatch[i].line);
	}
	fputs("</defs>\n", f);
}

int render_svg(FILE *f, const struct machine *m,
	       const struct preview_dev *devs, unsigned int nr)
{
	struct svg s = { .f = f };
	int lw, lh, w, h, top = MARGIN + 26;
	struct box page;
	unsigned int i;
	char title[160];

	if (layout_init(&s.l, m, devs, nr))
		return -1;
	svg_measure(&s, &page);
	summary(&s.l, "irq_spread preview", title, sizeof(title));
	lw = svg_legend(&s, NULL, 0, &lh);
	w = page.w + MARGIN > lw ? page.w + MARGIN : lw;
	i = MARGIN + chars_w(strlen(title), 13);
	w = (int)i > w ? (int)i : w;
	w += MARGIN;
	h = top + page.h + 16 + lh + MARGIN;

	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", f);
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%d\" height=\"%d\"",
		w, h);
	fprintf(f, " viewBox=\"0 0 %d %d\" font-family=\"%s\" font-size=\"10\">\n",
		w, h, FONTS);
	fprintf(f, "<title>%s</title>\n", title);
	svg_defs(f);
	svg_rect(f, 0, 0, w, h, "fill=\"#fff\"");
	svg_text(f, MARGIN, MARGIN + 13, "font-size=\"13\" %s", BOLD);
	fprintf(f, "%s</text>\n", title);
	for (i = 0; i < s.l.nbox[LV_PKG]; i++)
		svg_box(&s, LV_PKG, &s.l.box[LV_PKG][i], MARGIN, top);
	svg_legend(&s, f, top + page.h + 16, &lh);
	fputs("</svg>\n", f);
	layout_free(&s.l);
	return fflush(f) || ferror(f) ? -1 : 0;
}

/* The terminal map. */

#define MAP_COLS	100
#define MAP_INDENT	3	/* of a line of cores */
#define MAP_FIELD_MAX	9	/* a thread's field, at most */
#define MAP_LABEL_MAX	24	/* a device label, at most */

/* ANSI foreground colours of the devices, in turn. */
static const unsigned int ansi[] = { 34, 33, 31, 36, 32, 35, 94, 93, 91, 96 };

struct map {
	struct layout l;
	FILE *f;
	bool color;
	int col;		/* of the cursor on the current line */
	unsigned int w;		/* of a thread's field */
	unsigned int threads;	/* fields in a core's cell */
};

/* Colour @code from here, 0 to reset, or nothing if negative. */
static void map_color(struct map *p, int code)
{
	if (!p->color || code < 0)
		return;
	if (code)
		fprintf(p->f, "\033[%dm", code);
	else
		fputs("\033[0m", p->f);
}

static void map_newline(struct map *p, int indent)
{
	fputc('\n', p->f);
	fprintf(p->f, "%*s", indent, "");
	p->col = indent;
}

/*
 * @s (printable ASCII) in colour @code (0: none), on a new line at @indent
 * if it would not fit on this one.
 */
static void map_put(struct map *p, const char *s, int code, int indent)
{
	int len = (int)strlen(s);

	if (p->col > indent && p->col + len > MAP_COLS) {
		map_newline(p, indent);
		if (*s == ' ') {
			s++;
			len--;
		}
	}
	map_color(p, code ? code : -1);
	fputs(s, p->f);
	map_color(p, code ? 0 : -1);
	p->col += len;
}

/* @label as printable ASCII, shortened to MAP_LABEL_MAX characters. */
static void map_label(char *buf, const char *label)
{
	unsigned int i;

	for (i = 0; label && label[i] && i < MAP_LABEL_MAX; i++)
		buf[i] = label[i] >= 0x20 && label[i] < 0x7f ? label[i] : '?';
	if (label && i == MAP_LABEL_MAX && label[i])
		memcpy(buf + i - 3, "...", 3);
	buf[i] = '\0';
}

static int dev_ansi(unsigned int d)
{
	return (int)ansi[d % ARRAY_SIZE(ansi)];
}

/* Length of @cpu's vectors as "d:v,d:v,...". */
static unsigned int map_joined(const struct layout *l, unsigned int cpu)
{
	const struct vref *vr = l->vref + l->vstart[cpu];
	unsigned int nv = l->vstart[cpu + 1] - l->vstart[cpu], i, len = 0;

	for (i = 0; i < nv; i++)
		len += (i ? 1 : 0) + digits(vr[i].dev) + 1 + digits(vr[i].vec);
	return len;
}

/* The width of the fields if none is wider than @wmax. */
static unsigned int map_width(const struct layout *l, unsigned int wmax)
{
	unsigned int i, nv, len, w = 1;

	for (i = 0; i < l->n; i++) {
		nv = l->vstart[l->order[i] + 1] - l->vstart[l->order[i]];
		len = map_joined(l, l->order[i]);
		if (len > wmax)
			len = digits(nv) + 1;
		w = len > w ? len : w;
	}
	return w;
}

/* Lines of cores the map takes with fields of @w. */
static unsigned int map_lines(const struct map *p, unsigned int w)
{
	unsigned int cell = 2 + p->threads * w + p->threads - 1;
	unsigned int per_line = (MAP_COLS - MAP_INDENT + 1) / (cell + 1), i;
	unsigned int lines = 0;

	per_line = per_line ? per_line : 1;
	for (i = 0; i < p->l.nbox[LV_L3]; i++)
		lines += (p->l.box[LV_L3][i].nr + per_line - 1) / per_line;
	return lines;
}

/*
 * The width of the fields: every thread's whole list of vectors if each
 * core still fits on a line and the map is no more than 24 lines of cores
 * (or 2 per L3 domain), else at most MAP_FIELD_MAX, with counts for the
 * lists that do not fit.
 */
static void map_measure(struct map *p)
{
	const struct layout *l = &p->l;
	int room = MAP_COLS - MAP_INDENT - 2 - ((int)l->max_threads - 1);
	unsigned int wmax, w;

	p->threads = l->max_threads ? l->max_threads : 1;
	wmax = room > 0 ? (unsigned int)room / p->threads : 1;
	wmax = wmax < 2 ? 2 : wmax;
	w = map_width(l, wmax);
	if (w > MAP_FIELD_MAX &&
	    map_lines(p, w) > max(24u, 2 * l->nbox[LV_L3]))
		w = map_width(l, MAP_FIELD_MAX);
	p->w = w;
}

/* One thread's field: its vectors, or their count, or its state. */
static void map_field(struct map *p, unsigned int cpu)
{
	const struct machine *m = p->l.m;
	const struct vref *vr = p->l.vref + p->l.vstart[cpu];
	unsigned int nv = p->l.vstart[cpu + 1] - p->l.vstart[cpu];
	unsigned int len = map_joined(&p->l, cpu), i;
	const char *state = ".";

	if (!nv) {
		if (!test_bit(cpu, m->online))
			state = "x";
		else if (test_bit(cpu, m->isolated))
			state = "i";
		else if (test_bit(cpu, m->nohz_full))
			state = "n";
		map_color(p, *state == '.' ? -1 : 2);
		fprintf(p->f, "%-*s", (int)p->w, state);
		map_color(p, *state == '.' ? -1 : 0);
		return;
	}
	if (len > p->w) {
		len = digits(nv) + 1;
		map_color(p, nr_devs_of(vr, nv) == 1 ? dev_ansi(vr[0].dev) : 1);
		fprintf(p->f, "%uv", nv);
		map_color(p, 0);
	} else {
		for (i = 0; i < nv; i++) {
			if (i)
				fputc(',', p->f);
			map_color(p, dev_ansi(vr[i].dev));
			fprintf(p->f, "%u:%u", vr[i].dev, vr[i].vec);
			map_color(p, 0);
		}
	}
	fprintf(p->f, "%*s", (int)(p->w - len), "");
}

static void map_l3(struct map *p, const struct box *b)
{
	const struct layout *l = &p->l;
	int cell = 2 + (int)(p->threads * p->w + p->threads - 1);
	unsigned long *cpus = machine_bitmap(l->m);
	unsigned int i, j;
	char list[MAP_COLS + 8], head[80], name[64];
	const struct box *c;
	int len, room;

	if (cpus)
		for (i = 0; i < b->nr; i++) {
			c = &l->box[LV_CORE][b->first + i];
			for (j = 0; j < c->nr; j++)
				__set_bit(l->order[c->first + j], cpus);
		}
	len = cpus ? machine_format_list(list, sizeof(list), cpus,
					 l->m->nr_cpus) : 0;
	free(cpus);
	l3_name(l, b, name, sizeof(name));
	room = MAP_COLS - snprintf(head, sizeof(head), "  %s: cpus ", name);
	if (!cpus)
		memcpy(list, "?", 2);
	if (len > room || len >= (int)sizeof(list) - 1)
		fprintf(p->f, "%s%.*s...\n", head, room > 3 ? room - 3 : 0,
			list);
	else
		fprintf(p->f, "%s%s\n", head, list);
	p->col = 0;
	for (i = 0; i < b->nr; i++) {
		c = &l->box[LV_CORE][b->first + i];
		if (!i || p->col + 1 + cell > MAP_COLS) {
			if (i)
				fputc('\n', p->f);
			fprintf(p->f, "%*s", MAP_INDENT, "");
			p->col = MAP_INDENT;
		} else {
			fputc(' ', p->f);
			p->col++;
		}
		fputc('[', p->f);
		for (j = 0; j < p->threads; j++) {
			if (j)
				fputc(' ', p->f);
			if (j < c->nr)
				map_field(p, l->order[c->first + j]);
			else
				fprintf(p->f, "%*s", (int)p->w, "");
		}
		fputc(']', p->f);
		p->col += cell;
	}
	fputc('\n', p->f);
	p->col = 0;
}

static void map_legend(struct map *p)
{
	const struct layout *l = &p->l;
	unsigned int d, c;
	char buf[64], label[MAP_LABEL_MAX + 1];

	fputs("[ ] a core, a field per thread in CPU order:\n", p->f);
	fputs("    d:v device d's vector v, kv k vectors,", p->f);
	fputs(" . none, x offline, i isolated, n nohz_full\n", p->f);
	for (d = 0; d < l->nr; d++) {
		p->col = 0;
		snprintf(buf, sizeof(buf), "d%u", d);
		map_put(p, buf, dev_ansi(d), 4);
		map_label(label, l->devs[d].label);
		snprintf(buf, sizeof(buf), " %s:", label);
		map_put(p, buf, 0, 4);
		for (c = 2; c < LEGEND_COLS; c++) {
			static const char * const name[LEGEND_COLS] = {
				[2] = "node", [3] = "policy", [4] = "vectors",
				[5] = "distance", [6] = "bound",
				[7] = "cores shared", [8] = "max/CPU",
				[9] = "L3", [10] = "ineligible",
			};
			char val[32], item[64];

			snprintf(item, sizeof(item), " %s %s%s",
				 name[c], legend_cell(l, d, c, val, sizeof(val)),
				 c + 1 < LEGEND_COLS ? "," : "");
			map_put(p, item, 0, 4);
		}
		fputc('\n', p->f);
	}
}

int render_map(FILE *f, const struct machine *m,
	       const struct preview_dev *devs, unsigned int nr, bool color)
{
	struct map p = { .f = f, .color = color };
	const struct box *pkg, *node;
	unsigned int i, j, k, d;
	char buf[160];

	if (layout_init(&p.l, m, devs, nr))
		return -1;
	map_measure(&p);
	summary(&p.l, "irq_spread map", buf, sizeof(buf));
	fprintf(f, "%s\n", buf);
	map_legend(&p);
	for (i = 0; i < p.l.nbox[LV_PKG]; i++) {
		pkg = &p.l.box[LV_PKG][i];
		if (pkg->id < 0)
			fputs("package ?\n", f);
		else
			fprintf(f, "package %d\n", pkg->id);
		for (j = 0; j < pkg->nr; j++) {
			node = &p.l.box[LV_NODE][pkg->first + j];
			p.col = 0;
			if (node->id < 0)
				snprintf(buf, sizeof(buf), " no node");
			else
				snprintf(buf, sizeof(buf), " node %d",
					 node->id);
			map_put(&p, buf, 0, 2);
			for (d = 0; node->id >= 0 && d < nr; d++) {
				if (dev_box(&p.l, devs[d].node) != node->id)
					continue;
				map_put(&p, " <-", 0, 2);
				snprintf(buf, sizeof(buf), " d%u", d);
				map_put(&p, buf, dev_ansi(d), 2);
			}
			fputc('\n', f);
			for (k = 0; k < node->nr; k++)
				map_l3(&p, &p.l.box[LV_L3][node->first + k]);
		}
	}
	layout_free(&p.l);
	return fflush(f) || ferror(f) ? -1 : 0;
}
