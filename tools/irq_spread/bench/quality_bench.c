// SPDX-License-Identifier: GPL-2.0
/*
 * irq_spread quality benchmark: how close each policy and each peer comes
 * to the best placement, on each machine given (sysfs-shaped trees such as
 * tools/testing/irq_spread/machines/NAME/), or on a synthetic machine with
 * no argument.  Prints one markdown table per machine:
 *
 *   vectors: 1, cores / 2, cores, threads and 3 x threads (online cores
 *	and CPUs), and each count given with -v N; repeats dropped;
 *   node: the device's node: the first node with CPUs, the node with CPUs
 *	farthest from it (the lowest numbered among equals; none on a
 *	one-node machine), the first node the machine has without CPUs if
 *	there is one (a memory or I/O node), and no node (-1); each peer treats a node
 *	without CPUs and no node as its own code does;
 *   placement: the policies numa, numa-core and core (the engine, each
 *	device from an empty load: its placement is released before the
 *	next), then the peers of peers.c;
 *   columns: the mean distance above the lower bound (quality.h), the
 *	vectors sharing a core with an earlier one, the most vectors on one
 *	CPU, the L3 domains used, the vectors sharing an L3 with an earlier
 *	one while an L3 as near was free (L3 crowded), and the vectors on a
 *	CPU that is not eligible (offline, isolated or nohz_full).
 *
 * Then a table of two NICs on the first node, half its CPUs and the
 * machine's cores in vectors each, placed one after the other: the
 * policies see the first NIC's load when they place the second; the peers
 * keep no state, so the second gets what the first got.  The figures are
 * those of both NICs' vectors taken as one placement (the second's after
 * the first's).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/bitmap.h>

#include "../machine.h"
#include "../quality.h"
#include "peers.h"

#define NR_COUNTS	5
#define MAX_EXTRA	8
#define NR_DEV_NODES	4

/* The vector counts given with -v. */
static unsigned int extra[MAX_EXTRA], nr_extra;

static const char *const policy_names[] = { "numa", "numa-core", "core" };

static void print_row(const char *name, bool first, unsigned int nvec,
		      int node, const struct quality *q)
{
	if (first)
		printf("| %u | %d | ", nvec, node);
	else
		printf("| | | ");
	printf("%s | ", name);
	if (node < 0)
		printf("- | ");
	else
		printf("%.2f | ", q->mean_distance - q->lower_bound);
	printf("%u | %u | %u | %u | %u |\n", q->core_shared, q->max_per_cpu,
	       q->l3_used, q->l3_crowded, q->ineligible);
}

/*
 * The vector counts of @m: 1, cores / 2, cores, threads, 3 x threads and
 * the -v ones, ascending.
 */
static unsigned int vector_counts(const struct machine *m,
				  unsigned int *count)
{
	unsigned int threads = bitmap_weight(m->online, m->nr_cpus);
	unsigned int want[NR_COUNTS + MAX_EXTRA], nr_want = NR_COUNTS;
	unsigned int cores = 0, cpu, n = 0, i, j;
	bool *seen = calloc(m->nr_cores + 1, sizeof(*seen));

	if (!seen)
		return 0;
	for_each_set_bit(cpu, m->online, m->nr_cpus) {
		if (m->core[cpu] < 0 || (unsigned int)m->core[cpu] >= m->nr_cores) {
			cores++;
		} else if (!seen[m->core[cpu]]) {
			seen[m->core[cpu]] = true;
			cores++;
		}
	}
	free(seen);
	want[0] = 1;
	want[1] = cores / 2;
	want[2] = cores;
	want[3] = threads;
	want[4] = 3 * threads;
	for (i = 0; i < nr_extra; i++)
		want[nr_want++] = extra[i];
	/* Insert each new count in order. */
	for (i = 0; i < nr_want; i++) {
		for (j = 0; j < n && count[j] < want[i]; j++)
			;
		if (!want[i] || (j < n && count[j] == want[i]))
			continue;
		memmove(count + j + 1, count + j, (n - j) * sizeof(*count));
		count[j] = want[i];
		n++;
	}
	return n;
}

static bool node_has_cpus(const struct machine *m, unsigned int node)
{
	return m->node_cpus[node] &&
	       bitmap_intersects(m->node_cpus[node], m->online, m->nr_cpus);
}

/*
 * The device nodes: the first node with CPUs, the farthest from it, the
 * first without CPUs, and -1.
 */
static unsigned int device_nodes(const struct machine *m, int *nodes)
{
	int first = -1, far = -1, none = -1, k;
	unsigned int n = 0;

	for (k = 0; k < (int)m->nr_nodes; k++) {
		if (!node_has_cpus(m, k)) {
			if (none < 0 && test_bit(k, m->node_online))
				none = k;
			continue;
		}
		if (first < 0)
			first = k;
		else if (far < 0 || machine_distance(m, first, k) >
				    machine_distance(m, first, far))
			far = k;
	}
	if (first >= 0)
		nodes[n++] = first;
	if (far >= 0)
		nodes[n++] = far;
	if (none >= 0)
		nodes[n++] = none;
	nodes[n++] = -1;
	return n;
}

/* Two NICs on @node, @nvec vectors each, into @masks (2 * @nvec masks). */
static int bench_two(struct machine *m, const char *name, int node,
		     unsigned int nvec, unsigned long *masks)
{
	unsigned long *second = masks + (size_t)nvec * m->longs;
	struct quality q;
	unsigned int p;
	bool first = true;

	for (p = 0; p < IRQ_SPREAD_NR_POLICIES; p++) {
		if (irq_spread_topo_cpus(&m->topo, node, nvec, p, NULL, masks,
					 m->longs))
			return -1;
		if (irq_spread_topo_cpus(&m->topo, node, nvec, p, NULL, second,
					 m->longs)) {
			irq_spread_topo_release(&m->topo, nvec, masks,
						m->longs);
			return -1;
		}
		quality_of(m, node, 2 * nvec, masks, m->longs, &q);
		irq_spread_topo_release(&m->topo, 2 * nvec, masks, m->longs);
		print_row(policy_names[p], first, nvec, node, &q);
		first = false;
	}
	for (p = 0; p < nr_peers; p++) {
		peers[p].place(m, node, nvec, masks, m->longs);
		peers[p].place(m, node, nvec, second, m->longs);
		quality_of(m, node, 2 * nvec, masks, m->longs, &q);
		print_row(peers[p].name, false, nvec, node, &q);
	}
	return 0;
}

static int bench_two_nics(struct machine *m, const char *name, int node)
{
	unsigned int local = node >= 0 && m->node_cpus[node] ?
		bitmap_weight(m->node_cpus[node], m->nr_cpus) : m->nr_cpus;
	unsigned int counts[2] = { max(local / 2, 1u), m->nr_cores }, c;
	unsigned long *masks = calloc((size_t)2 * counts[1] * m->longs,
				      sizeof(*masks));

	if (!masks) {
		fprintf(stderr, "quality_bench: out of memory\n");
		return -1;
	}
	printf("Two NICs on node %d, one after the other ", node);
	printf("(vectors: each NIC's; figures of both):\n\n");
	printf("| vectors | node | placement | distance above bound ");
	printf("| core shared | max per CPU | L3 used | L3 crowded | ineligible |\n");
	printf("|---:|---:|:---|---:|---:|---:|---:|---:|---:|\n");
	for (c = 0; c < 2; c++) {
		if (c && counts[1] == counts[0])
			break;
		if (bench_two(m, name, node, counts[c], masks)) {
			fprintf(stderr, "quality_bench: %s: two NICs of %u vectors: error\n",
				name, counts[c]);
			free(masks);
			return -1;
		}
	}
	printf("\n");
	free(masks);
	return 0;
}

static int bench_machine(struct machine *m, const char *name)
{
	unsigned int counts[NR_COUNTS + MAX_EXTRA], nr_counts, nr_nodes, c, d, p;
	unsigned long *masks;
	int nodes[NR_DEV_NODES];
	struct quality q;

	nr_counts = vector_counts(m, counts);
	nr_nodes = device_nodes(m, nodes);
	masks = calloc((size_t)counts[nr_counts - 1] * m->longs,
		       sizeof(*masks));
	if (!nr_counts || !masks) {
		fprintf(stderr, "quality_bench: out of memory\n");
		free(masks);
		return -1;
	}

	printf("### %s: %u CPUs online, %u cores, %u nodes, %u L3 domains\n\n",
	       name, bitmap_weight(m->online, m->nr_cpus), m->nr_cores,
	       m->nr_nodes, m->nr_l3);
	printf("| vectors | node | placement | distance above bound ");
	printf("| core shared | max per CPU | L3 used | L3 crowded | ineligible |\n");
	printf("|---:|---:|:---|---:|---:|---:|---:|---:|---:|\n");
	for (c = 0; c < nr_counts; c++) {
		for (d = 0; d < nr_nodes; d++) {
			bool first = true;

			for (p = 0; p < IRQ_SPREAD_NR_POLICIES; p++) {
				int err = irq_spread_topo_cpus(&m->topo,
							       nodes[d],
							       counts[c], p,
							       NULL, masks,
							       m->longs);

				if (err) {
					fprintf(stderr,
						"quality_bench: %s: %s of %u vectors on node %d: error %d\n",
						name, policy_names[p],
						counts[c], nodes[d], err);
					free(masks);
					return -1;
				}
				quality_of(m, nodes[d], counts[c], masks,
					   m->longs, &q);
				irq_spread_topo_release(&m->topo, counts[c],
							masks, m->longs);
				print_row(policy_names[p], first, counts[c],
					  nodes[d], &q);
				first = false;
			}
			for (p = 0; p < nr_peers; p++) {
				peers[p].place(m, nodes[d], counts[c], masks,
					       m->longs);
				quality_of(m, nodes[d], counts[c], masks,
					   m->longs, &q);
				print_row(peers[p].name, false, counts[c],
					  nodes[d], &q);
			}
		}
	}
	printf("\n");
	free(masks);
	return bench_two_nics(m, name, nodes[0]);
}

static int print_usage(void)
{
	fprintf(stderr,
		"usage: quality_bench [-v VECTORS]... [MACHINE_DIR]...\n");
	return 2;
}

/* The name of a machine directory: its last component. */
static const char *machine_name(const char *dir, char *buf, size_t size)
{
	size_t len;
	char *base;

	snprintf(buf, size, "%s", dir);
	len = strlen(buf);
	while (len > 1 && buf[len - 1] == '/')
		buf[--len] = '\0';
	base = strrchr(buf, '/');
	return base ? base + 1 : buf;
}

int main(int argc, char **argv)
{
	char err[512], *end;
	struct machine *m;
	int i, nr, ret = 0;

	for (i = 1; i < argc && !strcmp(argv[i], "-v"); i += 2) {
		unsigned long v;

		if (i + 1 >= argc || nr_extra == MAX_EXTRA)
			return print_usage();
		v = strtoul(argv[i + 1], &end, 10);
		if (!*argv[i + 1] || *end || !v || v > 65536) {
			fprintf(stderr, "quality_bench: -v %s: not a vector count (1 to 65536)\n",
				argv[i + 1]);
			return 2;
		}
		extra[nr_extra++] = v;
	}
	argc -= i - 1;
	argv += i - 1;

	/* Every machine read before any output: a bad one prints nothing. */
	nr = argc > 1 ? argc - 1 : 1;
	m = calloc(nr, sizeof(*m));
	if (!m)
		return 1;
	for (i = 0; i < nr && !ret; i++) {
		if (argc < 2)
			ret = machine_synthetic(&m[i], 2, 8, 2, true, 1, 0, 21,
						21);
		else
			ret = machine_read_sysfs(&m[i], argv[i + 1], err,
						 sizeof(err));
		if (ret)
			fprintf(stderr, "quality_bench: %s\n", argc < 2 ?
				"the synthetic machine cannot be built" : err);
	}
	if (!ret) {
		printf("## Placement quality: policies and peers\n\n");
		printf("Distance: the mean NUMA distance from the device's node ");
		printf("above the lower bound (the nearest CPUs first, at most ");
		printf("ceil(vectors / eligible CPUs) on each); - for no node.\n\n");
	}
	for (i = 0; i < nr && !ret; i++) {
		char buf[256];

		ret = bench_machine(&m[i], argc < 2 ?
				    "synthetic: 2 nodes x 8 cores x 2 threads" :
				    machine_name(argv[i + 1], buf, sizeof(buf)));
	}
	for (i = 0; i < nr; i++)
		machine_free(&m[i]);
	free(m);
	return ret ? 1 : 0;
}
