// SPDX-License-Identifier: GPL-2.0
/*
 * irq_spread preview: read a machine from a sysfs-shaped tree, or build one,
 * and give the engine a topology over it.
 *
 * What is read, under the root (/sys by default):
 *
 *	devices/system/cpu/possible		required: the CPUs
 *	devices/system/cpu/online		required
 *	devices/system/cpu/present		optional: the CPUs there are
 *	devices/system/cpu/{isolated,nohz_full}	optional: CPUs no vector gets
 *	devices/system/cpu/cpuN/topology/thread_siblings_list
 *						required for online CPUs
 *	devices/system/cpu/cpuN/topology/physical_package_id	optional
 *	devices/system/cpu/cpuN/cache/index3/shared_cpu_list	optional: the
 *		L3 domains, which the engine spreads across (llc_cpus)
 *	devices/system/cpu/cpuN/topology/cluster_cpus_list	optional: a
 *		CPU's cache domain where it has no index3, if the cluster
 *		holds more than its core (arm64 without a shared L3, as
 *		cpu_coregroup_mask() takes the cluster there)
 *	devices/system/node/nodeN/{cpulist,distance}
 *		required for every nodeN directory; a tree without
 *		devices/system/node is one node holding every CPU
 *
 * Any file that is there but malformed is an error naming it, as is a
 * required file that is missing; nothing is half read.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "machine.h"

#define MAX_CPUS	65536
#define MAX_NODES	1024
#define MAX_FILE	65536
/* Raw L3 ids: CPUs (index3), then packages, then clusters (read_cpus()). */
#define MAX_PACKAGES	65536
#define MACHINE_CLUSTER_IDS	(MAX_CPUS + MAX_PACKAGES)

static __printf(3, 4) void seterr(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
}

unsigned long *machine_bitmap(const struct machine *m)
{
	return calloc(m->longs ? m->longs : 1, sizeof(unsigned long));
}

/*
 * Parse a CPU list as the kernel prints one (bitmap_print_to_pagebuf(),
 * bitmap_parselist() without the ":used/group" syntax): "N" or "N-M"
 * separated by commas, an optional newline at the end, empty for none.
 */
int machine_parse_list(const char *s, unsigned long *dst, unsigned int nbits)
{
	unsigned long a, b, i;
	char *end;

	bitmap_zero(dst, nbits);
	if (*s == '\n' && !s[1])
		return 0;
	if (!*s)
		return 0;
	for (;;) {
		if (!isdigit((unsigned char)*s))
			return -1;
		errno = 0;
		a = strtoul(s, &end, 10);
		if (errno || a >= nbits)
			return -1;
		s = end;
		b = a;
		if (*s == '-') {
			s++;
			if (!isdigit((unsigned char)*s))
				return -1;
			b = strtoul(s, &end, 10);
			if (errno || b >= nbits || b < a)
				return -1;
			s = end;
		}
		for (i = a; i <= b; i++)
			__set_bit(i, dst);
		if (*s == ',') {
			s++;
			continue;
		}
		if (!*s || (*s == '\n' && !s[1]))
			return 0;
		return -1;
	}
}

int machine_format_list(char *buf, size_t size, const unsigned long *src,
			unsigned int nbits)
{
	unsigned int a, b;
	int len = 0;

	if (size)
		buf[0] = '\0';
	a = find_first_bit(src, nbits);
	while (a < nbits) {
		b = a;
		while (b + 1 < nbits && test_bit(b + 1, src))
			b++;
		if (b == a)
			len += scnprintf(buf + len, size - len, "%s%u",
					 len ? "," : "", a);
		else
			len += scnprintf(buf + len, size - len, "%s%u-%u",
					 len ? "," : "", a, b);
		a = find_next_bit(src, nbits, b + 1);
	}
	return len;
}

/* Read a whole small file; -1 if missing (errno ENOENT) or unreadable. */
static int read_file(const char *root, const char *rel, char *buf,
		     size_t size, char *path, size_t plen)
{
	size_t n;
	FILE *f;

	snprintf(path, plen, "%s/%s", root, rel);
	f = fopen(path, "r");
	if (!f)
		return -1;
	n = fread(buf, 1, size - 1, f);
	if (ferror(f) || !feof(f)) {
		int e = ferror(f) ? EIO : EFBIG;

		fclose(f);
		errno = e;
		return -1;
	}
	fclose(f);
	buf[n] = '\0';
	if (strlen(buf) != n) {
		errno = EINVAL;
		return -1;
	}
	return 0;
}

/* One unsigned or signed decimal number and an optional newline. */
static int parse_int(const char *s, long lo, long hi, long *val)
{
	char *end;

	errno = 0;
	if (!*s || isspace((unsigned char)*s))
		return -1;
	*val = strtol(s, &end, 10);
	if (errno || end == s || *val < lo || *val > hi)
		return -1;
	return (!*end || (*end == '\n' && !end[1])) ? 0 : -1;
}

struct reader {
	const char *root;
	char *err;
	size_t errlen;
	char buf[MAX_FILE];
	char path[4096];
};

/* Read @rel; missing is fine if @optional (return 1). */
static int reader_file(struct reader *r, const char *rel, bool optional)
{
	if (!read_file(r->root, rel, r->buf, sizeof(r->buf), r->path,
		       sizeof(r->path)))
		return 0;
	if (optional && errno == ENOENT)
		return 1;
	seterr(r->err, r->errlen, "%s: %s", r->path,
	       errno == EFBIG ? "file too large" :
	       errno == EINVAL ? "holds a NUL byte" : strerror(errno));
	return -1;
}

static int reader_list(struct reader *r, const char *rel, bool optional,
		       unsigned long *dst, unsigned int nbits)
{
	int ret = reader_file(r, rel, optional);

	if (ret)
		return ret;
	/* nohz_full reads "(null)" when the kernel has no nohz_full CPUs. */
	if (!strcmp(r->buf, "(null)\n")) {
		bitmap_zero(dst, nbits);
		return 0;
	}
	if (machine_parse_list(r->buf, dst, nbits)) {
		seterr(r->err, r->errlen,
		       "%s: not a list of CPUs below %u: \"%.40s\"", r->path,
		       nbits, strtok(r->buf, "\n") ? r->buf : "");
		return -1;
	}
	return 0;
}

static int reader_int(struct reader *r, const char *rel, long lo, long hi,
		      long *val)
{
	int ret = reader_file(r, rel, true);

	if (ret)
		return ret;
	if (parse_int(r->buf, lo, hi, val)) {
		seterr(r->err, r->errlen, "%s: not a number from %ld to %ld",
		       r->path, lo, hi);
		return -1;
	}
	return 0;
}

/* The node directories: their numbers, in @nodes (a bitmap of MAX_NODES). */
static int read_node_dirs(struct reader *r, unsigned long *nodes,
			  unsigned int *nr)
{
	struct dirent *d;
	long n;
	DIR *dir;

	snprintf(r->path, sizeof(r->path), "%s/devices/system/node", r->root);
	dir = opendir(r->path);
	*nr = 0;
	if (!dir) {
		if (errno == ENOENT)
			return 0;
		seterr(r->err, r->errlen, "%s: %s", r->path, strerror(errno));
		return -1;
	}
	while ((d = readdir(dir))) {
		if (strncmp(d->d_name, "node", 4) ||
		    !isdigit((unsigned char)d->d_name[4]))
			continue;
		if (parse_int(d->d_name + 4, 0, MAX_NODES - 1, &n)) {
			seterr(r->err, r->errlen, "%s/%s: not a node below %d",
			       r->path, d->d_name, MAX_NODES);
			closedir(dir);
			return -1;
		}
		__set_bit(n, nodes);
		*nr = max(*nr, (unsigned int)n + 1);
	}
	closedir(dir);
	return 0;
}

int machine_alloc(struct machine *m, unsigned int nr_cpus,
		  unsigned int nr_nodes)
{
	unsigned int i;

	memset(m, 0, sizeof(*m));
	m->nr_cpus = nr_cpus;
	m->nr_nodes = nr_nodes;
	m->longs = BITS_TO_LONGS(nr_cpus);
	m->distance = calloc((size_t)nr_nodes * nr_nodes, sizeof(int));
	m->node_cpus = calloc(nr_nodes, sizeof(*m->node_cpus));
	m->node_online = calloc(BITS_TO_LONGS(nr_nodes), sizeof(long));
	m->siblings = calloc(nr_cpus, sizeof(*m->siblings));
	m->cpu_node = malloc(nr_cpus * sizeof(int));
	m->core = malloc(nr_cpus * sizeof(int));
	m->package = malloc(nr_cpus * sizeof(int));
	m->l3 = malloc(nr_cpus * sizeof(int));
	m->llc = calloc(nr_cpus, sizeof(*m->llc));
	m->present = machine_bitmap(m);
	m->online = machine_bitmap(m);
	m->isolated = machine_bitmap(m);
	m->nohz_full = machine_bitmap(m);
	m->eligible = machine_bitmap(m);
	if (!m->distance || !m->node_cpus || !m->node_online || !m->siblings ||
	    !m->cpu_node || !m->core || !m->package || !m->l3 || !m->llc ||
	    !m->present ||
	    !m->online || !m->isolated || !m->nohz_full || !m->eligible)
		goto fail;
	for (i = 0; i < nr_cpus; i++) {
		m->siblings[i] = machine_bitmap(m);
		if (!m->siblings[i])
			goto fail;
		m->cpu_node[i] = -1;
		m->core[i] = -1;
		m->package[i] = -1;
		m->l3[i] = -1;
	}
	return 0;
fail:
	machine_free(m);
	return -1;
}

void machine_free(struct machine *m)
{
	unsigned int i;

	if (m->node_cpus)
		for (i = 0; i < m->nr_nodes; i++)
			free(m->node_cpus[i]);
	if (m->siblings)
		for (i = 0; i < m->nr_cpus; i++)
			free(m->siblings[i]);
	if (m->llc_masks)
		for (i = 0; i < m->nr_l3; i++)
			free(m->llc_masks[i]);
	if (m->topo.ops)
		irq_spread_topology_destroy(&m->topo);
	free(m->distance);
	free(m->node_online);
	free(m->node_cpus);
	free(m->siblings);
	free(m->cpu_node);
	free(m->core);
	free(m->package);
	free(m->l3);
	free(m->llc);
	free(m->llc_masks);
	free(m->present);
	free(m->online);
	free(m->isolated);
	free(m->nohz_full);
	free(m->eligible);
	memset(m, 0, sizeof(*m));
}

/* The engine's view of the machine: as the running system's, from m. */
static int machine_topo_distance(const struct irq_spread_topology *topo,
				 int from, int to)
{
	return machine_distance(topo->priv, from, to);
}

static const unsigned long *
machine_topo_node_cpus(const struct irq_spread_topology *topo, int node)
{
	const struct machine *m = topo->priv;

	return m->node_cpus[node];
}

static const unsigned long *
machine_sibling_cpus(const struct irq_spread_topology *topo, unsigned int cpu)
{
	const struct machine *m = topo->priv;

	return m->siblings[cpu];
}

static const unsigned long *
machine_llc_cpus(const struct irq_spread_topology *topo, unsigned int cpu)
{
	const struct machine *m = topo->priv;

	return m->llc[cpu];
}

static void machine_eligible_cpus(const struct irq_spread_topology *topo,
				  unsigned long *dst)
{
	const struct machine *m = topo->priv;

	bitmap_copy(dst, m->eligible, m->nr_cpus);
}

static void machine_online_cpus(const struct irq_spread_topology *topo,
				unsigned long *dst)
{
	const struct machine *m = topo->priv;

	bitmap_copy(dst, m->online, m->nr_cpus);
}

static int machine_cpu_node(const struct irq_spread_topology *topo,
			    unsigned int cpu)
{
	const struct machine *m = topo->priv;

	return m->cpu_node[cpu];
}

static const struct irq_spread_topology_ops machine_ops = {
	.distance	= machine_topo_distance,
	.node_cpus	= machine_topo_node_cpus,
	.sibling_cpus	= machine_sibling_cpus,
	.eligible_cpus	= machine_eligible_cpus,
	.online_cpus	= machine_online_cpus,
	.cpu_node	= machine_cpu_node,
};

/* A machine with L3 domains: the engine spreads across them. */
static const struct irq_spread_topology_ops machine_llc_ops = {
	.distance	= machine_topo_distance,
	.node_cpus	= machine_topo_node_cpus,
	.sibling_cpus	= machine_sibling_cpus,
	.llc_cpus	= machine_llc_cpus,
	.eligible_cpus	= machine_eligible_cpus,
	.online_cpus	= machine_online_cpus,
	.cpu_node	= machine_cpu_node,
};

/* Map the raw ids in @id (-1: none) to 0..n-1 in order of first CPU. */
static unsigned int densify(int *id, unsigned int nr_cpus)
{
	unsigned int i, j, n = 0;
	int *seen = malloc(nr_cpus * sizeof(int));
	int *dense = malloc(nr_cpus * sizeof(int));

	for (i = 0; i < nr_cpus; i++) {
		if (id[i] < 0 || !seen || !dense)
			continue;
		for (j = 0; j < n && seen[j] != id[i]; j++)
			;
		if (j == n) {
			seen[n] = id[i];
			dense[n] = n;
			n++;
		}
		id[i] = dense[j];
	}
	free(seen);
	free(dense);
	return n;
}

/* The CPUs whose siblings are known: present, and online or with a list. */
static void known_siblings(const struct machine *m, unsigned long *dst)
{
	unsigned int n = m->nr_cpus, cpu;

	bitmap_zero(dst, n);
	for_each_set_bit(cpu, m->present, n)
		if (test_bit(cpu, m->online) ||
		    !bitmap_empty(m->siblings[cpu], n))
			__set_bit(cpu, dst);
}

/*
 * Whether every CPU of @known is in its own sibling list and agrees with
 * the CPUs of @known that list names; if not, the first CPU that is not
 * (@cpu, and @sib the same CPU, or the CPU it disagrees with).
 */
static bool siblings_agree(const struct machine *m, const unsigned long *known,
			   unsigned int *cpu, unsigned int *sib)
{
	unsigned int n = m->nr_cpus;

	for_each_set_bit(*cpu, known, n) {
		*sib = *cpu;
		if (!test_bit(*cpu, m->siblings[*cpu]))
			return false;
		for_each_set_bit(*sib, m->siblings[*cpu], n) {
			if (*sib != *cpu && test_bit(*sib, known) &&
			    !bitmap_equal(m->siblings[*sib], m->siblings[*cpu],
					  n))
				return false;
		}
	}
	return true;
}

/* The lowest CPU in both @a and @b; @n if none. */
static int first_and(const unsigned long *a, const unsigned long *b,
		     unsigned int n)
{
	unsigned int cpu;

	for_each_set_bit(cpu, a, n)
		if (test_bit(cpu, b))
			return cpu;
	return n;
}

/*
 * The L3 domain masks of the CPUs of @has_l3 (those with an index3 of
 * their own, by their dense @m->l3), into @m->llc; false if out of memory.
 */
static bool machine_llc(struct machine *m, const unsigned long *has_l3)
{
	unsigned int n = m->nr_cpus, cpu, k;

	m->llc_masks = calloc(m->nr_l3 ? m->nr_l3 : 1, sizeof(*m->llc_masks));
	if (!m->llc_masks)
		return false;
	for (k = 0; k < m->nr_l3; k++) {
		m->llc_masks[k] = machine_bitmap(m);
		if (!m->llc_masks[k])
			return false;
	}
	for_each_set_bit(cpu, has_l3, n)
		__set_bit(cpu, m->llc_masks[m->l3[cpu]]);
	for_each_set_bit(cpu, has_l3, n)
		m->llc[cpu] = m->llc_masks[m->l3[cpu]];
	return true;
}

int machine_finish(struct machine *m, char *err, size_t errlen)
{
	unsigned int n = m->nr_cpus, cpu, sib, node, other;
	unsigned long *seen = machine_bitmap(m);
	bool llc = false;
	int d;

	if (!seen) {
		seterr(err, errlen, "out of memory");
		return -1;
	}
	for (node = 0; node < m->nr_nodes; node++) {
		for (other = 0; other < m->nr_nodes; other++) {
			d = machine_distance(m, node, other);
			if (d < 1 || d > 255) {
				seterr(err, errlen,
				       "node %u: distance %d to node %u is not 1 to 255",
				       node, d, other);
				goto fail;
			}
		}
		if (!m->node_cpus[node])
			continue;
		__set_bit(node, m->node_online);
		if (bitmap_intersects(seen, m->node_cpus[node], n)) {
			seterr(err, errlen, "node %u: has CPUs of another node",
			       node);
			goto fail;
		}
		bitmap_or(seen, seen, m->node_cpus[node], n);
		for_each_set_bit(cpu, m->node_cpus[node], n)
			m->cpu_node[cpu] = node;
	}
	bitmap_or(m->present, m->present, m->online, n);
	/*
	 * The CPUs with a sibling list: the online ones, and the offline ones
	 * that have one.  Each must be in its list and agree with the other
	 * listed CPUs it names; its core is then the lowest listed CPU of its
	 * list, so that two CPUs share a core iff they are in each other's
	 * lists, even when a list names an offline CPU first.
	 */
	known_siblings(m, seen);
	if (!siblings_agree(m, seen, &cpu, &sib)) {
		if (sib == cpu)
			seterr(err, errlen, "cpu%u: not among its own siblings",
			       cpu);
		else
			seterr(err, errlen,
			       "cpu%u and cpu%u: disagree on their siblings",
			       cpu, sib);
		goto fail;
	}
	/*
	 * A CPU whose siblings are unknown (offline on x86, which removes its
	 * topology directory) is in no core, and its own sibling for the
	 * engine, which never gives it a vector.
	 */
	for (cpu = 0; cpu < n; cpu++) {
		m->core[cpu] = -1;
		if (test_bit(cpu, seen))
			m->core[cpu] = first_and(m->siblings[cpu], seen, n);
		if (bitmap_empty(m->siblings[cpu], n))
			__set_bit(cpu, m->siblings[cpu]);
	}
	m->nr_cores = densify(m->core, n);
	/*
	 * Without an L3 of its own, a CPU's domain is its package: ids past
	 * the CPU numbers, which name the L3 domains read from sysfs.  Only
	 * the L3s read are the engine's cache domains.
	 */
	bitmap_zero(seen, n);
	for (cpu = 0; cpu < n; cpu++) {
		if (m->l3[cpu] >= 0) {
			__set_bit(cpu, seen);
			llc = true;
		} else if (m->package[cpu] >= 0 && test_bit(cpu, m->present)) {
			m->l3[cpu] = n + m->package[cpu];
		}
	}
	m->nr_l3 = densify(m->l3, n);
	if (!machine_llc(m, seen)) {
		seterr(err, errlen, "out of memory");
		goto fail;
	}

	bitmap_andnot(m->eligible, m->online, m->isolated, n);
	bitmap_andnot(m->eligible, m->eligible, m->nohz_full, n);
	if (irq_spread_topology_init(&m->topo, llc ? &machine_llc_ops :
				     &machine_ops, n, m->nr_nodes, m))
		goto fail;
	free(seen);
	return 0;
fail:
	free(seen);
	return -1;
}

int machine_synthetic(struct machine *m, unsigned int nr_nodes,
		      unsigned int cores, unsigned int smt, bool interleave,
		      unsigned int nodes_per_package, unsigned int l3_cores,
		      int near, int far)
{
	unsigned int total = nr_nodes * cores, g, t, cpu, i, j;
	char err[256];

	if (!nr_nodes || !cores || !smt || !nodes_per_package ||
	    machine_alloc(m, total * smt, nr_nodes))
		return -1;
	for (i = 0; i < nr_nodes; i++) {
		m->node_cpus[i] = machine_bitmap(m);
		if (!m->node_cpus[i])
			goto fail;
		for (j = 0; j < nr_nodes; j++)
			m->distance[i * nr_nodes + j] = i == j ? 10 :
				i / nodes_per_package == j / nodes_per_package ?
				near : far;
	}
	for (g = 0; g < total; g++) {
		for (t = 0; t < smt; t++) {
			cpu = interleave ? t * total + g : g * smt + t;
			__set_bit(cpu, m->node_cpus[g / cores]);
			__set_bit(cpu, m->online);
			m->package[cpu] = g / cores / nodes_per_package;
			m->l3[cpu] = l3_cores ? (int)(g / l3_cores) :
				     (int)(g / cores);
			for (i = 0; i < smt; i++)
				__set_bit(interleave ? i * total + g : g * smt + i,
					  m->siblings[cpu]);
		}
	}
	if (!machine_finish(m, err, sizeof(err)))
		return 0;
fail:
	machine_free(m);
	return -1;
}

/* "possible" gives the width: the highest CPU + 1. */
static int read_width(struct reader *r, unsigned int *nr_cpus)
{
	unsigned long *all = calloc(BITS_TO_LONGS(MAX_CPUS), sizeof(long));
	int ret;

	if (!all) {
		seterr(r->err, r->errlen, "out of memory");
		return -1;
	}
	ret = reader_list(r, "devices/system/cpu/possible", false, all,
			  MAX_CPUS);
	if (!ret) {
		*nr_cpus = 0;
		for (unsigned int c = 0; c < MAX_CPUS; c++)
			if (test_bit(c, all))
				*nr_cpus = c + 1;
		if (!*nr_cpus) {
			seterr(r->err, r->errlen, "%s: no CPU", r->path);
			ret = -1;
		}
	}
	free(all);
	return ret;
}

/*
 * Two CPUs that list each other must list the same siblings: the check of
 * machine_finish(), here to name the files.
 */
static int check_siblings(struct reader *r, const struct machine *m)
{
	unsigned long *known = machine_bitmap(m);
	unsigned int cpu, sib;
	bool ok;

	if (!known) {
		seterr(r->err, r->errlen, "out of memory");
		return -1;
	}
	known_siblings(m, known);
	ok = siblings_agree(m, known, &cpu, &sib) || sib == cpu;
	free(known);
	if (ok)
		return 0;
	seterr(r->err, r->errlen,
	       "%s/devices/system/cpu/cpu%u/topology/thread_siblings_list and cpu%u's: list different siblings",
	       r->root, cpu, sib);
	return -1;
}

static int read_cpus(struct reader *r, struct machine *m)
{
	unsigned long *possible = machine_bitmap(m), *l3 = machine_bitmap(m);
	unsigned int n = m->nr_cpus, cpu, c, cluster;
	char rel[256];
	long val;
	int ret = -1, got;

	if (!possible || !l3) {
		seterr(r->err, r->errlen, "out of memory");
		goto out;
	}
	if (reader_list(r, "devices/system/cpu/possible", false, possible, n) ||
	    reader_list(r, "devices/system/cpu/present", true, m->present,
			n) < 0 ||
	    reader_list(r, "devices/system/cpu/online", false, m->online, n) ||
	    reader_list(r, "devices/system/cpu/isolated", true, m->isolated,
			n) < 0 ||
	    reader_list(r, "devices/system/cpu/nohz_full", true, m->nohz_full,
			n) < 0)
		goto out;
	if (bitmap_empty(m->online, n)) {
		seterr(r->err, r->errlen,
		       "%s/devices/system/cpu/online: no CPU online", r->root);
		goto out;
	}
	if (!bitmap_subset(m->online, possible, n)) {
		seterr(r->err, r->errlen,
		       "%s/devices/system/cpu/online: CPUs that are not possible",
		       r->root);
		goto out;
	}
	for_each_set_bit(cpu, possible, n) {
		snprintf(rel, sizeof(rel),
			 "devices/system/cpu/cpu%u/topology/thread_siblings_list",
			 cpu);
		got = reader_list(r, rel, !test_bit(cpu, m->online),
				  m->siblings[cpu], n);
		if (got < 0)
			goto out;
		if (!got && !test_bit(cpu, m->siblings[cpu])) {
			seterr(r->err, r->errlen, "%s: does not hold cpu%u",
			       r->path, cpu);
			goto out;
		}
		if (!got)
			__set_bit(cpu, m->present);
		snprintf(rel, sizeof(rel),
			 "devices/system/cpu/cpu%u/topology/physical_package_id",
			 cpu);
		got = reader_int(r, rel, -1, 65535, &val);
		if (got < 0)
			goto out;
		if (!got)
			m->package[cpu] = val;
		snprintf(rel, sizeof(rel),
			 "devices/system/cpu/cpu%u/cache/index3/shared_cpu_list",
			 cpu);
		got = reader_list(r, rel, true, l3, n);
		if (got < 0)
			goto out;
		cluster = 0;
		if (got) {
			snprintf(rel, sizeof(rel),
				 "devices/system/cpu/cpu%u/topology/cluster_cpus_list",
				 cpu);
			cluster = MACHINE_CLUSTER_IDS;
			got = reader_list(r, rel, true, l3, n);
			if (got < 0)
				goto out;
			/* A cluster of one core is no cache domain. */
			if (!got && bitmap_subset(l3, m->siblings[cpu], n))
				got = 1;
		}
		if (!got) {
			if (!test_bit(cpu, l3)) {
				seterr(r->err, r->errlen,
				       "%s: does not hold cpu%u", r->path, cpu);
				goto out;
			}
			/*
			 * An L3 domain is named by its first CPU, a cluster
			 * by its first past the ids of packages.
			 */
			c = find_first_bit(l3, n);
			m->l3[cpu] = c + cluster;
		}
	}
	ret = check_siblings(r, m);
out:
	free(possible);
	free(l3);
	return ret;
}

static int read_nodes(struct reader *r, struct machine *m,
		      const unsigned long *dirs)
{
	unsigned int node, k, j;
	char rel[256], *s, *end;
	long d;

	if (!m->nr_nodes)
		return 0;
	for (node = 0; node < m->nr_nodes; node++)
		for (k = 0; k < m->nr_nodes; k++)
			m->distance[node * m->nr_nodes + k] =
				node == k ? 10 : 255;
	bitmap_copy(m->node_online, dirs, m->nr_nodes);
	for_each_set_bit(node, dirs, m->nr_nodes) {
		m->node_cpus[node] = machine_bitmap(m);
		if (!m->node_cpus[node]) {
			seterr(r->err, r->errlen, "out of memory");
			return -1;
		}
		snprintf(rel, sizeof(rel), "devices/system/node/node%u/cpulist",
			 node);
		if (reader_list(r, rel, false, m->node_cpus[node], m->nr_cpus))
			return -1;
		for (k = 0; k < node; k++) {
			if (!m->node_cpus[k] ||
			    !bitmap_intersects(m->node_cpus[k], m->node_cpus[node],
					       m->nr_cpus))
				continue;
			seterr(r->err, r->errlen,
			       "%s: has CPUs of node%u's cpulist", r->path, k);
			return -1;
		}
		if (bitmap_empty(m->node_cpus[node], m->nr_cpus)) {
			free(m->node_cpus[node]);
			m->node_cpus[node] = NULL;
		}
		/* One distance per node directory, in node order. */
		snprintf(rel, sizeof(rel), "devices/system/node/node%u/distance",
			 node);
		if (reader_file(r, rel, false))
			return -1;
		s = r->buf;
		j = 0;
		for_each_set_bit(k, dirs, m->nr_nodes) {
			while (*s == ' ')
				s++;
			errno = 0;
			d = strtol(s, &end, 10);
			if (end == s || errno || d < 1 || d > 255 ||
			    (*end && *end != ' ' && *end != '\n')) {
				seterr(r->err, r->errlen,
				       "%s: entry %u is not a distance from 1 to 255",
				       r->path, j);
				return -1;
			}
			m->distance[node * m->nr_nodes + k] = d;
			s = end;
			j++;
		}
		while (*s == ' ')
			s++;
		if (*s && strcmp(s, "\n")) {
			seterr(r->err, r->errlen,
			       "%s: more than the %u distances of the nodes",
			       r->path, j);
			return -1;
		}
	}
	return 0;
}

int machine_read_sysfs(struct machine *m, const char *root, char *err,
		       size_t errlen)
{
	unsigned long dirs[BITS_TO_LONGS(MAX_NODES)] = { 0 };
	struct reader *r = calloc(1, sizeof(*r));
	unsigned int nr_cpus, nr_nodes;
	struct stat st;

	memset(m, 0, sizeof(*m));
	if (!r) {
		seterr(err, errlen, "out of memory");
		return -1;
	}
	r->root = root;
	r->err = err;
	r->errlen = errlen;
	if (stat(root, &st) || !S_ISDIR(st.st_mode)) {
		seterr(err, errlen, "%s: not a directory", root);
		goto fail;
	}
	if (read_width(r, &nr_cpus) || read_node_dirs(r, dirs, &nr_nodes))
		goto fail;
	if (machine_alloc(m, nr_cpus, nr_nodes ? nr_nodes : 1)) {
		seterr(err, errlen, "out of memory");
		goto fail;
	}
	if (read_cpus(r, m))
		goto fail;
	if (nr_nodes) {
		if (read_nodes(r, m, dirs))
			goto fail;
	} else {
		/* No NUMA: one node, every CPU. */
		m->node_cpus[0] = machine_bitmap(m);
		if (!m->node_cpus[0]) {
			seterr(err, errlen, "out of memory");
			goto fail;
		}
		bitmap_or(m->node_cpus[0], m->present, m->online, nr_cpus);
		m->distance[0] = 10;
	}
	if (machine_finish(m, err, errlen)) {
		char msg[512];

		snprintf(msg, sizeof(msg), "%s: %s", root, err);
		snprintf(err, errlen, "%s", msg);
		goto fail;
	}
	free(r);
	return 0;
fail:
	free(r);
	machine_free(m);
	return -1;
}
