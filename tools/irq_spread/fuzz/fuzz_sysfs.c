// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target over the preview tool's sysfs reader (issue 14).
 *
 * The input is a small sysfs-shaped tree: a first byte for the root (255:
 * a regular file, 254: a missing path, else a directory), then records of
 * (kind, index, length, content), each writing one of the files
 * machine_read_sysfs() reads (machine.c's header comment), with the index
 * as the CPU or node number, or making a node directory of an odd name, or
 * making a directory where a file is expected.  A length of 255 writes a
 * file larger than the reader takes.  The tree lives in one directory on
 * tmpfs ($FUZZ_SYSFS_DIR, else /dev/shm), removed after each input;
 * $FUZZ_VERBOSE prints what each input read to.
 *
 * Rules, from machine.h and machine.c's comments:
 *  - a tree is either read into a consistent machine: at least one CPU and
 *    one node, online within present, eligible is online without isolated
 *    and nohz_full, every online CPU its own sibling and sharing its
 *    sibling list with its online siblings, in a core and only if present,
 *    two CPUs of the same core in each other's siblings and the other way
 *    round, core and L3 indices dense (or -1), node masks disjoint,
 *    non-empty, of online nodes and agreeing with each CPU's node,
 *    distances 1 to 255, the engine's topology as wide; and a
 *    spread on it succeeds, on usable CPUs, and its release leaves no load;
 *  - or it fails with a message that starts with the root's path, and the
 *    machine is left empty;
 *  - either way nothing leaks (LeakSanitizer);
 *  - every CPU list that parses formats back to a list that parses to the
 *    same CPUs.
 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "machine.h"

/* Wider machines are valid, but too slow to read to fuzz. */
#define MAX_FUZZ_CPUS	256
#define LIST_BITS	1024

static char base[4096];		/* this process's directory */
static char root[4200];		/* the tree's root */
static bool verbose;		/* $FUZZ_VERBOSE: say what each input gave */

static const char *const kinds[] = {
	"devices/system/cpu/possible",
	"devices/system/cpu/online",
	"devices/system/cpu/isolated",
	"devices/system/cpu/nohz_full",
	"devices/system/cpu/cpu%u/topology/thread_siblings_list",
	"devices/system/cpu/cpu%u/topology/physical_package_id",
	"devices/system/cpu/cpu%u/cache/index3/shared_cpu_list",
	"devices/system/node/node%u/cpulist",
	"devices/system/node/node%u/distance",
	"devices/system/cpu/present",
};

#define NR_FILES	ARRAY_SIZE(kinds)
#define KIND_NODEDIR	NR_FILES
#define KIND_DIR	(NR_FILES + 1)
#define NR_KINDS	(NR_FILES + 2)

static const char *const odd_nodes[] = {
	"node01", "node1x", "node99999", "nodeX", "node-1", "node1024",
	"node 1", "node4294967297",
};

static __printf(1, 2) __noreturn void broken(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "fuzz_sysfs: rule violated: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	abort();
}

static int rm_one(const char *path, const struct stat *st, int flag,
		  struct FTW *ftw)
{
	return remove(path);
}

static void empty_tree(void)
{
	char path[4300];

	snprintf(path, sizeof(path), "%s/root", base);
	nftw(path, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

static void make_dirs(const char *path)
{
	char tmp[4300], *p;

	snprintf(tmp, sizeof(tmp), "%s", path);
	for (p = tmp + strlen(base) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		mkdir(tmp, 0755);
		*p = '/';
	}
}

static void write_file(const char *path, const uint8_t *data, size_t len)
{
	int fd;

	make_dirs(path);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		return;
	if (write(fd, data, len) != (ssize_t)len)
		broken("%s: short write", path);
	close(fd);
}

/* A CPU list formats back to one that parses to the same CPUs. */
static void check_list(const uint8_t *data, size_t len)
{
	unsigned long a[BITS_TO_LONGS(LIST_BITS)], b[BITS_TO_LONGS(LIST_BITS)];
	char s[512], out[8192];

	if (len >= sizeof(s))
		return;
	memcpy(s, data, len);
	s[len] = '\0';
	if (machine_parse_list(s, a, LIST_BITS))
		return;
	machine_format_list(out, sizeof(out), a, LIST_BITS);
	if (machine_parse_list(out, b, LIST_BITS) ||
	    !bitmap_equal(a, b, LIST_BITS))
		broken("list \"%s\" formats as \"%s\", which parses otherwise",
		       s, out);
}

/* Write the tree of the input; false if it is too wide to read fast. */
static bool build_tree(const uint8_t *data, size_t size)
{
	static uint8_t big[70000];
	static char buf[70000];
	unsigned long *wide;
	char rel[256], path[4600];
	unsigned int kind, idx, len, cpu, width = 0;
	size_t i = 1;
	FILE *f;

	mkdir(base, 0755);
	snprintf(root, sizeof(root), "%s/root", base);
	mkdir(root, 0755);
	if (size && data[0] == 255) {
		/* The root is a regular file. */
		snprintf(root, sizeof(root), "%s/root/file", base);
		write_file(root, (const uint8_t *)"x", 1);
		return true;
	}
	if (size && data[0] == 254) {
		snprintf(root, sizeof(root), "%s/root/missing", base);
		return true;
	}
	while (i + 3 <= size) {
		kind = data[i] % NR_KINDS;
		idx = data[i + 1];
		len = data[i + 2];
		i += 3;
		if (len == 255) {
			if (!big[0])
				for (cpu = 0; cpu < sizeof(big); cpu++)
					big[cpu] = cpu & 1 ? ',' : '0';
		} else {
			len = min(len, (unsigned int)(size - i));
			check_list(data + i, len);
		}
		if (kind == KIND_NODEDIR) {
			if (idx < 200)
				snprintf(rel, sizeof(rel), "node%u", idx);
			else
				snprintf(rel, sizeof(rel), "%s",
					 odd_nodes[idx % ARRAY_SIZE(odd_nodes)]);
			snprintf(path, sizeof(path), "%s/devices/system/node/%s/x",
				 root, rel);
			make_dirs(path);
		} else if (kind == KIND_DIR) {
			snprintf(rel, sizeof(rel), kinds[idx % NR_FILES],
				 idx / NR_FILES);
			snprintf(path, sizeof(path), "%s/%s/x", root, rel);
			make_dirs(path);
		} else {
			snprintf(rel, sizeof(rel), kinds[kind], idx);
			snprintf(path, sizeof(path), "%s/%s", root, rel);
			if (len == 255)
				write_file(path, big, sizeof(big));
			else
				write_file(path, data + i, len);
		}
		if (len != 255)
			i += len;
	}

	/* possible gives the width: skip trees too wide to fuzz fast. */
	snprintf(path, sizeof(path), "%s/devices/system/cpu/possible", root);
	f = fopen(path, "r");
	if (!f)
		return true;
	len = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[len] = '\0';
	wide = calloc(BITS_TO_LONGS(65536), sizeof(long));
	if (!wide)
		return false;
	if (strlen(buf) == len && !machine_parse_list(buf, wide, 65536))
		for_each_set_bit(cpu, wide, 65536)
			width = cpu + 1;
	free(wide);
	return width <= MAX_FUZZ_CPUS;
}

/* Every field of a machine that failed to read is zero. */
static void check_empty(const struct machine *m)
{
	const unsigned char *p = (const unsigned char *)m;
	size_t i;

	for (i = 0; i < sizeof(*m); i++)
		if (p[i])
			broken("failed read left the machine with byte %zu set", i);
}

/* Indices 0..nr - 1, every one used, or -1; -1 for none of @need. */
static void check_dense(const int *id, const unsigned long *need,
			unsigned int n, unsigned int nr, const char *what)
{
	unsigned int cpu, used = 0;
	bool *seen = calloc(nr + 1, 1);

	if (!seen)
		abort();
	for (cpu = 0; cpu < n; cpu++) {
		if (id[cpu] < -1 || (id[cpu] >= 0 && (unsigned int)id[cpu] >= nr))
			broken("cpu%u: %s %d, not below %u", cpu, what, id[cpu],
			       nr);
		if (need && test_bit(cpu, need) && id[cpu] < 0)
			broken("cpu%u: online without a %s", cpu, what);
		if (id[cpu] >= 0 && !seen[id[cpu]]) {
			seen[id[cpu]] = true;
			used++;
		}
	}
	if (used != nr)
		broken("%u %s indices used of %u", used, what, nr);
	free(seen);
}

static void check_machine(struct machine *m)
{
	unsigned int n = m->nr_cpus, cpu, s, node, k, nvec;
	unsigned long *all = machine_bitmap(m), *tmp = machine_bitmap(m);
	unsigned long *masks;
	int d, ret;

	if (!all || !tmp)
		abort();
	if (!n || !m->nr_nodes || n > MAX_FUZZ_CPUS)
		broken("%u CPUs, %u nodes", n, m->nr_nodes);
	if (m->topo.nr_cpus != n || m->topo.nr_nodes != m->nr_nodes)
		broken("topology of %u CPUs, %u nodes for a machine of %u, %u",
		       m->topo.nr_cpus, m->topo.nr_nodes, n, m->nr_nodes);
	if (!bitmap_subset(m->online, m->present, n))
		broken("online CPUs that are not present");
	bitmap_andnot(tmp, m->online, m->isolated, n);
	bitmap_andnot(tmp, tmp, m->nohz_full, n);
	if (!bitmap_equal(tmp, m->eligible, n))
		broken("eligible is not online without isolated and nohz_full");
	for_each_set_bit(cpu, m->online, n) {
		if (!test_bit(cpu, m->siblings[cpu]))
			broken("cpu%u: online, not its own sibling", cpu);
		for_each_set_bit(s, m->siblings[cpu], n)
			if (test_bit(s, m->online) &&
			    !bitmap_equal(m->siblings[s], m->siblings[cpu], n))
				broken("cpu%u and its sibling cpu%u: other siblings",
				       cpu, s);
	}
	check_dense(m->core, m->online, n, m->nr_cores, "core");
	check_dense(m->l3, NULL, n, m->nr_l3, "L3 domain");
	for (cpu = 0; cpu < n; cpu++)
		if (m->core[cpu] >= 0 && !test_bit(cpu, m->present))
			broken("cpu%u: in core %d, not present", cpu,
			       m->core[cpu]);
	for (cpu = 0; cpu < n; cpu++)
		for (s = 0; s < n && m->core[cpu] >= 0; s++)
			if (m->core[s] >= 0 && m->core[cpu] == m->core[s] !=
			    (test_bit(s, m->siblings[cpu]) &&
			     test_bit(cpu, m->siblings[s])))
				broken("cpu%u and cpu%u: core %d and %d, yet%s in each other's siblings",
				       cpu, s, m->core[cpu], m->core[s],
				       m->core[cpu] == m->core[s] ? " not" : "");
	for (node = 0; node < m->nr_nodes; node++) {
		for (k = 0; k < m->nr_nodes; k++) {
			d = machine_distance(m, node, k);
			if (d < 1 || d > 255)
				broken("node%u: distance %d to node%u", node, d,
				       k);
		}
		if (!m->node_cpus[node])
			continue;
		if (!test_bit(node, m->node_online))
			broken("node%u: has CPUs, not online", node);
		if (bitmap_empty(m->node_cpus[node], n))
			broken("node%u: an empty CPU mask, not NULL", node);
		if (bitmap_intersects(all, m->node_cpus[node], n))
			broken("node%u: CPUs of another node", node);
		bitmap_or(all, all, m->node_cpus[node], n);
	}
	for (cpu = 0; cpu < n; cpu++) {
		node = m->cpu_node[cpu];
		if (m->cpu_node[cpu] < 0 ? test_bit(cpu, all) :
		    m->cpu_node[cpu] >= (int)m->nr_nodes ||
		    !m->node_cpus[node] || !test_bit(cpu, m->node_cpus[node]))
			broken("cpu%u: node %d, not the node whose mask holds it",
			       cpu, m->cpu_node[cpu]);
	}

	/* The engine places on it, on usable CPUs, and releases. */
	nvec = min(n, 64U);
	masks = calloc((size_t)nvec * m->longs, sizeof(long));
	if (!masks)
		abort();
	ret = irq_spread_topo_spread(&m->topo, 0, nvec, IRQ_SPREAD_NUMA_CORE,
				     NULL, masks, m->longs, 0);
	if (bitmap_empty(m->online, n) ? ret != -ENODEV : ret != 0)
		broken("spread of %u vectors: %d", nvec, ret);
	irq_spread_topo_eligible(&m->topo, tmp);
	if (bitmap_empty(tmp, n))
		bitmap_copy(tmp, m->online, n);
	for (k = 0; !ret && k < nvec; k++)
		if (bitmap_empty(masks + k * m->longs, n) ||
		    !bitmap_subset(masks + k * m->longs, tmp, n))
			broken("spread: vector %u is not on usable CPUs", k);
	if (!ret)
		irq_spread_topo_release(&m->topo, nvec, masks, m->longs);
	for (cpu = 0; m->topo.load && cpu < n; cpu++)
		if (m->topo.load[cpu])
			broken("cpu%u: load %u after the release", cpu,
			       m->topo.load[cpu]);
	free(masks);
	free(all);
	free(tmp);
}

static void cleanup(void)
{
	empty_tree();
	rmdir(base);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *dir = getenv("FUZZ_SYSFS_DIR");

	irq_spread_compat_warn_fatal = true;
	irq_spread_compat_quiet = true;
	verbose = getenv("FUZZ_VERBOSE");
	snprintf(base, sizeof(base), "%s/fuzz_sysfs.%d",
		 dir && *dir ? dir : "/dev/shm", (int)getpid());
	if (mkdir(base, 0755) && errno != EEXIST) {
		perror(base);
		exit(1);
	}
	atexit(cleanup);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct machine m;
	char err[1024] = "";
	size_t rl;
	int ret;

	if (!build_tree(data, size)) {
		cleanup();
		return 0;
	}
	ret = machine_read_sysfs(&m, root, err, sizeof(err));
	cleanup();
	if (!ret) {
		if (verbose)
			fprintf(stderr, "fuzz_sysfs: read %u CPUs, %u nodes, %u cores, %u L3 domains\n",
				m.nr_cpus, m.nr_nodes, m.nr_cores, m.nr_l3);
		check_machine(&m);
		machine_free(&m);
		return 0;
	}
	check_empty(&m);
	if (verbose)
		fprintf(stderr, "fuzz_sysfs: %s\n", err);
	rl = strlen(root);
	if (!err[0])
		broken("a failed read without a message");
	if (strncmp(err, root, rl) ||
	    (err[rl] && err[rl] != '/' && err[rl] != ':'))
		broken("message \"%s\" does not name a path under %s", err,
		       root);
	return 0;
}
