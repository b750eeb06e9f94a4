// SPDX-License-Identifier: GPL-2.0
/*
 * Tests of the preview's pictures (render.h): a hand-made machine and
 * placement, and rules checked on the SVG and the terminal map.
 *
 * The machine: machine_synthetic(4 nodes, 2 cores, SMT2, siblings
 * adjacent, 2 nodes per package, one L3 per node): core g is CPUs 2g and
 * 2g + 1, node n CPUs 4n .. 4n + 3, package n / 2, L3 domain n.  CPU 15 is
 * made offline, 14 isolated, 13 nohz_full.
 *
 * The placement, by hand (device: node, vectors' CPUs):
 *
 *	d0 "eth<0>&\"x\"'":	node 1, {4} {6} {5,7}
 *	d1 "mlx\xff" (not UTF-8): no node, {0} {4}
 *	d2 "nic2":		node 3, {12} {12}
 *
 * so CPU 0 holds 1:0, 4 holds 0:0 and 1:1, 5 and 7 hold 0:2, 6 holds 0:1,
 * 12 holds 2:0 and 2:1, and no other CPU holds a vector.
 *
 * Usage: render_test [SVG-FILE]: also writes the SVG there, for an XML
 * parser to check (make test does, with python3's xml.dom.minidom).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render.h"

#define TEST_CPUS	16
#define SEEN_CPUS	128	/* the most CPUs of a machine here */
#define MAX_LABELS	8
#define COUNT5		"d0\303\2275"	/* "d0", U+00D7 (multiplication), "5" */

static int failures;

/* A failed check: a KTAP diagnostic line before the one result line. */
static __printf(1, 2) void fail(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("# render_test: ", stdout);
	vprintf(fmt, ap);
	fputc('\n', stdout);
	va_end(ap);
	failures++;
}

/* What each CPU holds, from the placement above. */
static const char * const expect_vec[TEST_CPUS][MAX_LABELS] = {
	[0] = { "1:0" },
	[4] = { "0:0", "1:1" },
	[5] = { "0:2" },
	[6] = { "0:1" },
	[7] = { "0:2" },
	[12] = { "2:0", "2:1" },
};

/* What an SVG reading found. */
struct seen {
	unsigned int cells;			/* elements of class "cpu" */
	unsigned int cell_of[SEEN_CPUS];	/* of class "cpu", id cpuN */
	char vec[SEEN_CPUS][MAX_LABELS][16];	/* class "vec" texts per CPU */
	unsigned int nvec[SEEN_CPUS];
	char count[SEEN_CPUS][16];		/* class "count" text */
	unsigned int state[SEEN_CPUS];		/* STATE_* classes inside */
	char mark[4][8][8];			/* devmark texts per node */
	unsigned int nmark[4];
	unsigned int stray;			/* vec or mark text elsewhere */
	int node_of[SEEN_CPUS];			/* node box a cell is in */
	unsigned int nodes;			/* elements of class "node" */
	unsigned int l3s;			/* elements of class "l3" */
};

#define STATE_OFFLINE	1
#define STATE_ISOLATED	2
#define STATE_NOHZ	4

struct elem {
	char name[16];
	char cls[16];
	char id[16];
};

/* The value of attribute @attr in the tag text [@s, @end) into @buf. */
static void attr(const char *s, const char *end, const char *attr,
		 char *buf, size_t size)
{
	size_t n = strlen(attr);
	const char *p, *q;

	buf[0] = '\0';
	for (p = s + 1; p + n + 2 < end; p++) {
		if (p[-1] != ' ' || strncmp(p, attr, n) || p[n] != '=' ||
		    p[n + 1] != '"')
			continue;
		q = memchr(p + n + 2, '"', end - (p + n + 2));
		if (q && (size_t)(q - (p + n + 2)) < size) {
			memcpy(buf, p + n + 2, q - (p + n + 2));
			buf[q - (p + n + 2)] = '\0';
		}
		return;
	}
}

/* A text element's content at @text, up to the next tag, into @dst. */
static void copy_text(char *dst, size_t size, const char *text)
{
	size_t n = strcspn(text, "<");

	n = n < size ? n : size - 1;
	memcpy(dst, text, n);
	dst[n] = '\0';
}

/* The CPU of the innermost "cpu" element of @st[0 .. @depth), or -1. */
static int in_cpu(const struct elem *st, int depth)
{
	while (--depth >= 0)
		if (!strcmp(st[depth].cls, "cpu"))
			return atoi(st[depth].id + 3);
	return -1;
}

static const struct elem *in_class(const struct elem *st, int depth,
				   const char *cls)
{
	while (--depth >= 0)
		if (!strcmp(st[depth].cls, cls))
			return &st[depth];
	return NULL;
}

/*
 * Read @svg as XML far enough to check that its tags balance, and note
 * what the cells and node marks hold.  Return -1 if it is not well formed.
 */
static int read_svg(const char *svg, struct seen *sn)
{
	struct elem st[64];
	const char *p = svg, *end, *text;
	int depth = 0, cpu;
	struct elem e;

	memset(sn, 0, sizeof(*sn));
	while ((p = strchr(p, '<'))) {
		if (!strncmp(p, "<?", 2) || !strncmp(p, "<!--", 4)) {
			end = strstr(p, p[1] == '?' ? "?>" : "-->");
			if (!end)
				return -1;
			p = end + 2;
			continue;
		}
		end = strchr(p, '>');
		if (!end)
			return -1;
		if (p[1] == '/') {
			size_t n = strcspn(p + 2, " >");

			if (!depth || n != strlen(st[depth - 1].name) ||
			    strncmp(p + 2, st[depth - 1].name, n)) {
				fail("svg: </%.*s> does not close <%s>",
				     (int)n, p + 2,
				     depth ? st[depth - 1].name : "nothing");
				return -1;
			}
			depth--;
			p = end + 1;
			continue;
		}
		memset(&e, 0, sizeof(e));
		snprintf(e.name, sizeof(e.name), "%.*s",
			 (int)strcspn(p + 1, " />"), p + 1);
		attr(p, end, "class", e.cls, sizeof(e.cls));
		attr(p, end, "id", e.id, sizeof(e.id));
		cpu = in_cpu(st, depth);
		sn->nodes += !strcmp(e.cls, "node");
		sn->l3s += !strcmp(e.cls, "l3");
		if (!strcmp(e.cls, "cpu")) {
			const struct elem *node = in_class(st, depth, "node");

			sn->cells++;
			cpu = !strncmp(e.id, "cpu", 3) ? atoi(e.id + 3) : -1;
			if (cpu >= 0 && cpu < SEEN_CPUS) {
				sn->cell_of[cpu]++;
				sn->node_of[cpu] = node && !strncmp(node->id,
								    "node", 4) ?
						   atoi(node->id + 4) : -1;
			}
		}
		if (cpu >= 0 && cpu < SEEN_CPUS) {
			if (!strcmp(e.cls, "offline"))
				sn->state[cpu] |= STATE_OFFLINE;
			if (!strcmp(e.cls, "isolated"))
				sn->state[cpu] |= STATE_ISOLATED;
			if (!strcmp(e.cls, "nohz_full"))
				sn->state[cpu] |= STATE_NOHZ;
		}
		text = end + 1;
		if (end[-1] != '/') {
			if (depth == (int)ARRAY_SIZE(st))
				return -1;
			st[depth++] = e;
		}
		p = end + 1;
		if (end[-1] == '/' || strcmp(e.name, "text"))
			continue;
		if (!strcmp(e.cls, "vec") || !strcmp(e.cls, "count")) {
			if (cpu < 0 || cpu >= SEEN_CPUS) {
				sn->stray++;
			} else if (!strcmp(e.cls, "count")) {
				copy_text(sn->count[cpu], 16, text);
			} else if (sn->nvec[cpu] < MAX_LABELS) {
				copy_text(sn->vec[cpu][sn->nvec[cpu]++], 16,
					  text);
			}
		} else if (in_class(st, depth, "devmark")) {
			const struct elem *node = in_class(st, depth, "node");
			int n = node && !strncmp(node->id, "node", 4) ?
				atoi(node->id + 4) : -1;

			if (n < 0 || n >= 4 || sn->nmark[n] >= 8)
				sn->stray++;
			else
				copy_text(sn->mark[n][sn->nmark[n]++], 8,
					  text);
		}
	}
	if (depth) {
		fail("svg: <%s> not closed", st[depth - 1].name);
		return -1;
	}
	return 0;
}

/* Render into a string: @svg, or the map in @color. */
static char *render(const struct machine *m, const struct preview_dev *devs,
		    unsigned int nr, bool svg, bool color)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int ret;

	if (!f)
		return NULL;
	ret = svg ? render_svg(f, m, devs, nr) :
		    render_map(f, m, devs, nr, color);
	fclose(f);
	if (ret) {
		fail("%s: returned %d writing to memory",
		     svg ? "render_svg" : "render_map", ret);
		free(buf);
		return NULL;
	}
	return buf;
}

static void check_svg(const char *svg)
{
	struct seen *sn = calloc(1, sizeof(*sn));
	unsigned int cpu, i, j, n;
	unsigned int state;

	if (!sn || read_svg(svg, sn)) {
		fail("svg: not well formed");
		free(sn);
		return;
	}
	if (sn->cells != TEST_CPUS)
		fail("svg: %u cells, want one per CPU, %u", sn->cells,
		     TEST_CPUS);
	for (cpu = 0; cpu < TEST_CPUS; cpu++) {
		if (sn->cell_of[cpu] != 1)
			fail("svg: cpu%u has %u cells", cpu, sn->cell_of[cpu]);
		for (n = 0; n < MAX_LABELS && expect_vec[cpu][n]; n++)
			;
		if (sn->nvec[cpu] != n)
			fail("svg: cpu%u shows %u vectors, want %u", cpu,
			     sn->nvec[cpu], n);
		/* Each expected label once (the lists are short). */
		for (i = 0; i < n; i++) {
			unsigned int times = 0;

			for (j = 0; j < sn->nvec[cpu]; j++)
				times += !strcmp(sn->vec[cpu][j],
						 expect_vec[cpu][i]);
			if (times != 1)
				fail("svg: cpu%u shows %s %u times", cpu,
				     expect_vec[cpu][i], times);
		}
		if (sn->count[cpu][0])
			fail("svg: cpu%u shows a count \"%s\"", cpu,
			     sn->count[cpu]);
		state = cpu == 15 ? STATE_OFFLINE : cpu == 14 ?
			STATE_ISOLATED : cpu == 13 ? STATE_NOHZ : 0;
		if (sn->state[cpu] != state)
			fail("svg: cpu%u marked %#x, want %#x", cpu,
			     sn->state[cpu], state);
	}
	for (n = 0; n < 4; n++) {
		const char *want = n == 1 ? "d0" : n == 3 ? "d2" : NULL;

		if (sn->nmark[n] != (want ? 1 : 0) ||
		    (want && strcmp(sn->mark[n][0], want)))
			fail("svg: node %u has %u device marks (%s), want %s",
			     n, sn->nmark[n], sn->nmark[n] ? sn->mark[n][0] :
			     "none", want ? want : "none");
	}
	if (sn->stray)
		fail("svg: %u vector or device marks outside cells and nodes",
		     sn->stray);
	if (!strstr(svg, "eth&lt;0&gt;&amp;&quot;x&quot;&apos;"))
		fail("svg: d0's label not escaped for XML");
	if (!strstr(svg, ">none</text>"))
		fail("svg: the legend does not give d1's node as none");
	if (!strstr(svg, "mlx?"))
		fail("svg: d1's label byte that is not UTF-8 not replaced");
	free(sn);
}

/* Whether @s holds @label with no digit or ':' either side. */
static bool has_label(const char *s, const char *label)
{
	size_t n = strlen(label);
	const char *p;

	for (p = strstr(s, label); p; p = strstr(p + 1, label))
		if ((p == s || !strchr("0123456789:", p[-1])) &&
		    !strchr("0123456789:", p[n]))
			return true;
	return false;
}

/* @map without its ANSI colour sequences. */
static char *strip_ansi(const char *map)
{
	char *out = malloc(strlen(map) + 1), *q = out;
	const char *p;

	for (p = map; out && *p; p++) {
		if (*p == '\033' && p[1] == '[') {
			p += 2 + strspn(p + 2, "0123456789;");
			continue;
		}
		*q++ = *p;
	}
	if (out)
		*q = '\0';
	return out;
}

static void check_map(const char *map, bool color)
{
	const char *name = color ? "map (colour)" : "map";
	char *plain = color ? strip_ansi(map) : strdup(map);
	const char *line, *nl;
	unsigned int cpu, i, nr = 0;
	const unsigned char *p;

	if (!plain) {
		fail("%s: out of memory", name);
		return;
	}
	if (color && !strchr(map, '\033'))
		fail("%s: no colour", name);
	if (!color && strchr(map, '\033'))
		fail("%s: an ESC byte without colour", name);
	for (p = (const unsigned char *)plain; !color && *p; p++)
		if ((*p < 0x20 && *p != '\n') || *p > 0x7e) {
			fail("%s: byte %#x is not plain ASCII", name, *p);
			break;
		}
	for (line = plain; *line; line = nl + 1) {
		nl = strchr(line, '\n');
		if (!nl) {
			fail("%s: last line without a newline", name);
			break;
		}
		if (nl - line > 100)
			fail("%s: line of %d columns: %.*s", name,
			     (int)(nl - line), (int)(nl - line), line);
		for (i = 0; i < 3; i++) {
			static const char * const want[] = {
				"d0 eth<0>&\"x\"': node 1, policy numa,",
				"d1 mlx?: node none, policy core,",
				"d2 nic2: node 3, policy numa-core,",
			};

			if (!strncmp(line, want[i], 3) &&
			    strncmp(line, want[i], strlen(want[i])))
				fail("%s: legend of d%u: %.*s, want %s...",
				     name, i, (int)(nl - line), line, want[i]);
		}
		if (!strncmp(line, " node 1", 7) && !strstr(line, "d0"))
			fail("%s: node 1 does not name d0: %.*s", name,
			     (int)(nl - line), line);
		nr++;
	}
	for (cpu = 0; cpu < TEST_CPUS; cpu++)
		for (i = 0; i < MAX_LABELS && expect_vec[cpu][i]; i++)
			if (!has_label(plain, expect_vec[cpu][i]))
				fail("%s: no %s", name, expect_vec[cpu][i]);
	for (i = 0; i < 2; i++) {
		char want[16];

		snprintf(want, sizeof(want), "package %u\n", i);
		if (!strstr(plain, want))
			fail("%s: no \"package %u\"", name, i);
	}
	for (i = 0; i < 4; i++) {
		char want[16];

		snprintf(want, sizeof(want), "\n node %u", i);
		if (!strstr(plain, want))
			fail("%s: no \"node %u\"", name, i);
		snprintf(want, sizeof(want), "\n  L3 %u:", i);
		if (!strstr(plain, want))
			fail("%s: no \"L3 %u\"", name, i);
	}
	if (nr < 4 + 2 + 4 + 4)
		fail("%s: only %u lines", name, nr);
	free(plain);
}

static void set(struct preview_dev *dev, unsigned int vec, const int *cpus)
{
	for (; *cpus >= 0; cpus++)
		__set_bit(*cpus, dev->masks + vec * dev->stride);
}

/*
 * An L3 domain over two nodes: node 0 is CPUs 0-1, node 1 CPUs 2-3, one
 * package, no SMT, one L3 domain over all four.  By render.h, it is drawn
 * in the node of its first CPU, node 0, once, and named with both nodes;
 * node 1 has no box, so the mark of a device on node 1 goes on node 0's
 * and the legend says so.
 */
static void test_spanning_l3(void)
{
	static const int c3[] = { 3, -1 };
	struct preview_dev dev;
	unsigned int cpu, n;
	struct machine m;
	struct seen *sn;
	char err[128];
	char *svg, *map;

	if (machine_alloc(&m, 4, 2)) {
		fail("machine_alloc() failed");
		return;
	}
	for (n = 0; n < 2; n++) {
		m.node_cpus[n] = machine_bitmap(&m);
		m.distance[n * 2] = n ? 20 : 10;
		m.distance[n * 2 + 1] = n ? 10 : 20;
	}
	for (cpu = 0; cpu < 4; cpu++) {
		if (m.node_cpus[cpu / 2])
			__set_bit(cpu, m.node_cpus[cpu / 2]);
		__set_bit(cpu, m.online);
		__set_bit(cpu, m.siblings[cpu]);
		m.package[cpu] = 0;
		m.l3[cpu] = 7;
	}
	if (machine_finish(&m, err, sizeof(err))) {
		fail("machine_finish(): %s", err);
		machine_free(&m);
		return;
	}
	memset(&dev, 0, sizeof(dev));
	dev.label = "eth1";
	dev.node = 1;
	dev.nvec = 1;
	dev.stride = m.longs;
	dev.masks = calloc(m.longs, sizeof(long));
	sn = calloc(1, sizeof(*sn));
	if (!dev.masks || !sn) {
		fail("out of memory");
		goto out;
	}
	set(&dev, 0, c3);
	svg = render(&m, &dev, 1, true, false);
	if (svg && !read_svg(svg, sn)) {
		if (sn->cells != 4 || sn->nodes != 1 || sn->l3s != 1)
			fail("spanning L3: %u cells, %u node boxes, %u L3 boxes, want 4, 1, 1",
			     sn->cells, sn->nodes, sn->l3s);
		for (cpu = 0; cpu < 4; cpu++)
			if (sn->node_of[cpu] != 0)
				fail("spanning L3: cpu%u in node %d's box, want 0",
				     cpu, sn->node_of[cpu]);
		if (sn->nvec[3] != 1 || strcmp(sn->vec[3][0], "0:0"))
			fail("spanning L3: cpu3 does not show 0:0 alone");
		if (sn->nmark[0] != 1 || strcmp(sn->mark[0][0], "d0"))
			fail("spanning L3: node 0's box does not mark d0");
		if (!strstr(svg, ">L3 0, nodes 0-1</text>"))
			fail("spanning L3: the L3 box does not name both nodes");
		if (!strstr(svg, ">1 (in node 0)</text>"))
			fail("spanning L3: the legend does not say where node 1 is");
	} else {
		fail("spanning L3: svg not well formed");
	}
	free(svg);
	map = render(&m, &dev, 1, false, false);
	if (map && (!strstr(map, "\n  L3 0, nodes 0-1: cpus 0-3\n") ||
		    strstr(map, "\n node 1") ||
		    !strstr(map, "\n node 0 <- d0\n") ||
		    !has_label(map, "0:0")))
		fail("spanning L3: map wrong:\n%s", map);
	free(map);
out:
	free(sn);
	free(dev.masks);
	machine_free(&m);
}

/*
 * A wide machine: 2 nodes of 16 SMT4 cores (siblings adjacent, core g is
 * CPUs 4g .. 4g + 3), one device of 128 vectors, vector v on CPU v alone,
 * and a label of 200 characters.  Each CPU shows its one label, the map's
 * lines (cores of 4 fields of "0:127") still fit 100 columns and name
 * every vector, and the label is cut short in the map.
 */
static void test_wide(void)
{
	struct preview_dev dev;
	char label[201], want[16];
	unsigned int cpu, v;
	struct machine m;
	struct seen *sn = calloc(1, sizeof(*sn));
	char *svg = NULL, *map = NULL;
	const char *line, *nl;

	memset(&dev, 0, sizeof(dev));
	if (!sn || machine_synthetic(&m, 2, 16, 4, false, 1, 0, 10, 20) ||
	    m.nr_cpus != SEEN_CPUS) {
		fail("wide: no machine");
		free(sn);
		return;
	}
	memset(label, 'x', 200);
	label[200] = '\0';
	dev.label = label;
	dev.node = 0;
	dev.nvec = SEEN_CPUS;
	dev.stride = m.longs;
	dev.masks = calloc(SEEN_CPUS * m.longs, sizeof(long));
	if (!dev.masks)
		goto out;
	for (v = 0; v < SEEN_CPUS; v++)
		__set_bit(v, dev.masks + v * dev.stride);
	svg = render(&m, &dev, 1, true, false);
	if (!svg || read_svg(svg, sn)) {
		fail("wide: svg not well formed");
		goto out;
	}
	if (sn->cells != SEEN_CPUS)
		fail("wide: %u cells, want %u", sn->cells, SEEN_CPUS);
	for (cpu = 0; cpu < SEEN_CPUS; cpu++) {
		snprintf(want, sizeof(want), "0:%u", cpu);
		if (sn->nvec[cpu] != 1 || strcmp(sn->vec[cpu][0], want))
			fail("wide: cpu%u shows %u labels (%s), want %s", cpu,
			     sn->nvec[cpu], sn->nvec[cpu] ? sn->vec[cpu][0] :
			     "none", want);
	}
	map = render(&m, &dev, 1, false, false);
	if (!map)
		goto out;
	for (line = map; (nl = strchr(line, '\n')); line = nl + 1)
		if (nl - line > 100)
			fail("wide: map line of %d columns", (int)(nl - line));
	for (v = 0; v < SEEN_CPUS; v++) {
		snprintf(want, sizeof(want), "0:%u", v);
		if (!has_label(map, want))
			fail("wide: map has no %s", want);
	}
	if (strstr(map, label + 200 - 30))
		fail("wide: map has the whole 200-character label");
out:
	free(svg);
	free(map);
	free(sn);
	free(dev.masks);
	machine_free(&m);
}

int main(int argc, char **argv)
{
	static const int c0[] = { 0, -1 }, c4[] = { 4, -1 }, c6[] = { 6, -1 };
	static const int c57[] = { 5, 7, -1 }, c12[] = { 12, -1 };
	static const int c8[] = { 8, -1 };
	struct preview_dev devs[3], many;
	struct machine m;
	char *svg, *map;
	unsigned int d, v;
	FILE *f;

	if (machine_synthetic(&m, 4, 2, 2, false, 2, 0, 20, 30) ||
	    m.nr_cpus != TEST_CPUS) {
		fail("machine_synthetic() failed");
		return 1;
	}
	__clear_bit(15, m.online);
	__set_bit(14, m.isolated);
	__set_bit(13, m.nohz_full);

	memset(devs, 0, sizeof(devs));
	devs[0].label = "eth<0>&\"x\"'";
	devs[0].node = 1;
	devs[0].policy = IRQ_SPREAD_NUMA;
	devs[0].nvec = 3;
	devs[1].label = "mlx\xff";
	devs[1].node = -1;
	devs[1].policy = IRQ_SPREAD_CORE;
	devs[1].nvec = 2;
	devs[2].label = "nic2";
	devs[2].node = 3;
	devs[2].policy = IRQ_SPREAD_NUMA_CORE;
	devs[2].nvec = 2;
	for (d = 0; d < 3; d++) {
		devs[d].stride = m.longs + 1;	/* more than needed: allowed */
		devs[d].masks = calloc(devs[d].nvec * devs[d].stride,
				       sizeof(long));
		if (!devs[d].masks)
			return 1;
	}
	set(&devs[0], 0, c4);
	set(&devs[0], 1, c6);
	set(&devs[0], 2, c57);
	set(&devs[1], 0, c0);
	set(&devs[1], 1, c4);
	set(&devs[2], 0, c12);
	set(&devs[2], 1, c12);

	svg = render(&m, devs, 3, true, false);
	if (svg) {
		check_svg(svg);
		if (argc > 1) {
			f = fopen(argv[1], "w");
			if (!f || fputs(svg, f) < 0 || fclose(f))
				fail("cannot write %s", argv[1]);
		}
	}
	map = render(&m, devs, 3, false, false);
	if (map)
		check_map(map, false);
	free(map);
	map = render(&m, devs, 3, false, true);
	if (map)
		check_map(map, true);
	free(map);

	/*
	 * Five vectors on one CPU are more than a cell's lines (at most
	 * three): the cell shows the count, "d0x5" with a multiplication
	 * sign, and no label.
	 */
	memset(&many, 0, sizeof(many));
	many.label = "many";
	many.node = 2;
	many.nvec = 5;
	many.stride = m.longs;
	many.masks = calloc(5 * m.longs, sizeof(long));
	if (!many.masks)
		return 1;
	for (v = 0; v < 5; v++)
		set(&many, v, c8);
	free(svg);
	svg = render(&m, &many, 1, true, false);
	if (svg) {
		struct seen *sn = calloc(1, sizeof(*sn));

		if (!sn || read_svg(svg, sn))
			fail("svg of 5 vectors on cpu8: not well formed");
		else if (sn->nvec[8] || strcmp(sn->count[8], COUNT5))
			fail("svg: cpu8 shows %u labels and count \"%s\", want none and %s",
			     sn->nvec[8], sn->count[8], COUNT5);
		free(sn);
	}
	free(svg);

	/* A write error is reported. */
	f = fopen("/dev/full", "w");
	if (f) {
		if (render_svg(f, &m, devs, 3) != -1)
			fail("render_svg to /dev/full did not return -1");
		clearerr(f);
		if (render_map(f, &m, devs, 3, false) != -1)
			fail("render_map to /dev/full did not return -1");
		fclose(f);
	}

	test_spanning_l3();
	test_wide();

	for (d = 0; d < 3; d++)
		free(devs[d].masks);
	free(many.masks);
	machine_free(&m);
	printf("KTAP version 1\n1..1\n%sok 1 render_test\n",
	       failures ? "not " : "");
	return failures ? 1 : 0;
}
