// SPDX-License-Identifier: GPL-2.0
/*
 * irq_spread: preview where the kernel library would place a device's
 * interrupt vectors on a machine, from the machine's sysfs (or a copy of
 * one), with the library's own engine.
 *
 *	irq_spread [--sysfs DIR] [-j | --map] [--svg FILE]
 *		   [--node N | --dev PCI-ADDRESS|IFNAME] [--vectors N]
 *		   [--policy numa|numa-core|core] ...
 *
 * Each --node or --dev starts a device; --vectors and --policy set the
 * current device's, and start a new one when it has them already.  The
 * devices are placed in turn on the same machine, each seeing the load of
 * those before it, as drivers probing one after another would.  Without a
 * device, every network interface of the tree whose device has a NUMA node
 * is previewed with as many vectors as it has RX queues; without one of
 * those, one device on the first eligible CPU's node.
 *
 * Everything is read and placed before anything is written: an error
 * (a malformed or missing file, a bad argument) prints one message naming
 * what is wrong on stderr, writes nothing else, and exits non-zero (1 for
 * the machine, 2 for the command line).
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "machine.h"
#include "quality.h"
#include "render.h"

#define MAX_DEVS	64
#define EXIT_MACHINE	1
#define EXIT_USAGE	2

struct dev_arg {
	char label[256];
	int node;
	bool has_node;
	unsigned int nvec;
	bool has_nvec;
	int policy;
	bool has_policy;
};

static const char usage[] =
"usage: irq_spread [--sysfs DIR] [-j | --map] [--svg FILE]\n"
"                  [--node N | --dev PCI-ADDRESS|IFNAME] [--vectors N]\n"
"                  [--policy numa|numa-core|core] ...\n"
"\n"
"Preview where irq_spread places a device's vectors on the machine that\n"
"DIR (default /sys) describes.  Each --node or --dev starts a device,\n"
"placed after the ones before it (their load counts).  Defaults: the\n"
"network devices of DIR with a NUMA node, their RX queue count of vectors,\n"
"policy numa.\n"
"\n"
"  --sysfs DIR     read the machine from DIR (devices/system/{cpu,node})\n"
"  --node N        a device on NUMA node N; -1 for none\n"
"  --dev X         a device whose numa_node sysfs gives: a PCI address\n"
"                  (bus/pci/devices/X) or a network interface (class/net/X)\n"
"  --vectors N     its number of vectors (default: one per eligible CPU)\n"
"  --policy P      numa (default), numa-core or core\n"
"  -j, --json      JSON instead of the table (schema: irq_spread.rst)\n"
"  --map           a map of the machine for a terminal, after the table\n"
"  --svg FILE      write an SVG picture of the placement to FILE\n"
"  --color WHEN    colours in --map: auto (default), always, never\n"
"  -h, --help      this text\n";

static void die_usage(const char *fmt, const char *arg)
{
	fprintf(stderr, "irq_spread: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\n(irq_spread --help for usage)\n");
	exit(EXIT_USAGE);
}

static bool parse_uint(const char *s, unsigned long lo, unsigned long hi,
		       unsigned long *val)
{
	char *end;

	if (!isdigit((unsigned char)*s))
		return false;
	errno = 0;
	*val = strtoul(s, &end, 10);
	return !errno && !*end && *val >= lo && *val <= hi;
}

/* The device to set a field of: the current one, or a new one. */
static struct dev_arg *dev_for(struct dev_arg *devs, unsigned int *nr,
			       bool taken)
{
	if (*nr && !taken)
		return &devs[*nr - 1];
	if (*nr == MAX_DEVS)
		die_usage("more than %s devices", "64");
	memset(&devs[*nr], 0, sizeof(devs[*nr]));
	return &devs[(*nr)++];
}

/* Read a numa_node file of the tree: -1 or a node. */
static int read_numa_node(const char *root, const char *rel, int *node,
			  char *err, size_t errlen)
{
	char path[4096], buf[64], *end;
	size_t n;
	long v;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	f = fopen(path, "r");
	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	errno = 0;
	v = strtol(buf, &end, 10);
	if (end == buf || errno || (*end && strcmp(end, "\n")) || v < -1 ||
	    v > INT_MAX) {
		snprintf(err, errlen, "%s: not a NUMA node: \"%.20s\"", path,
			 strtok(buf, "\n") ? buf : "");
		return -1;
	}
	*node = v;
	return 0;
}

static bool is_pci_address(const char *s)
{
	unsigned int d, b, s2, f;
	char tail;

	return sscanf(s, "%x:%x:%x.%x%c", &d, &b, &s2, &f, &tail) == 4;
}

static int resolve_dev(const char *root, struct dev_arg *d, const char *name,
		       char *err, size_t errlen)
{
	char rel[512];

	if (strchr(name, '/') || !*name || !strcmp(name, ".") ||
	    !strcmp(name, "..")) {
		snprintf(err, errlen, "--dev %s: not a PCI address or interface name",
			 name);
		return -1;
	}
	if (is_pci_address(name))
		snprintf(rel, sizeof(rel), "bus/pci/devices/%s/numa_node", name);
	else
		snprintf(rel, sizeof(rel), "class/net/%s/device/numa_node", name);
	return read_numa_node(root, rel, &d->node, err, errlen);
}

/* Number of RX queues of a network interface: its queues/rx-N. */
static unsigned int count_rx_queues(const char *root, const char *ifname)
{
	char path[4096];
	struct dirent *e;
	unsigned int n = 0;
	DIR *dir;

	snprintf(path, sizeof(path), "%s/class/net/%s/queues", root, ifname);
	dir = opendir(path);
	if (!dir)
		return 0;
	while ((e = readdir(dir)))
		n += !strncmp(e->d_name, "rx-", 3);
	closedir(dir);
	return n;
}

/*
 * Without a device on the command line: the network interfaces with a
 * NUMA node (PCI or platform devices), sorted by name.  A numa_node file
 * that is there and malformed is an error as anywhere else.
 */
static int default_devs(const char *root, struct dev_arg *devs,
			unsigned int *nr, char *err, size_t errlen)
{
	struct dirent **names;
	char path[4096], rel[512];
	int i, n, ret = 0;

	snprintf(path, sizeof(path), "%s/class/net", root);
	n = scandir(path, &names, NULL, alphasort);
	if (n < 0)
		return 0;
	for (i = 0; i < n; i++) {
		struct dev_arg *d;

		if (names[i]->d_name[0] == '.' || ret || *nr == MAX_DEVS)
			continue;
		snprintf(rel, sizeof(rel), "%s/class/net/%s/device/numa_node",
			 root, names[i]->d_name);
		if (access(rel, F_OK))
			continue;
		d = &devs[(*nr)++];
		memset(d, 0, sizeof(*d));
		snprintf(d->label, sizeof(d->label), "%s", names[i]->d_name);
		snprintf(rel, sizeof(rel), "class/net/%s/device/numa_node",
			 names[i]->d_name);
		ret = read_numa_node(root, rel, &d->node, err, errlen);
		d->has_node = true;
		d->nvec = count_rx_queues(root, names[i]->d_name);
		d->has_nvec = d->nvec > 0;
	}
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return ret;
}

static int check_node(const struct machine *m, const struct dev_arg *d,
		      char *err, size_t errlen)
{
	if (d->node == -1 ||
	    ((unsigned int)d->node < m->nr_nodes &&
	     test_bit(d->node, m->node_online)))
		return 0;
	snprintf(err, errlen, "%s: node %d is not a node of the machine",
		 d->label, d->node);
	return -1;
}

static void print_quality(FILE *f, const struct preview_dev *p)
{
	if (p->node >= 0)
		fprintf(f, "mean distance %.2f (lower bound %.2f), ",
			p->q.mean_distance, p->q.lower_bound);
	else
		fprintf(f, "no node, ");
	fprintf(f, "vectors sharing a core %u, max vectors per CPU %u, L3 domains %u",
		p->q.core_shared, p->q.max_per_cpu, p->q.l3_used);
	if (p->q.ineligible)
		fprintf(f, ", on ineligible CPUs %u", p->q.ineligible);
	fprintf(f, "\n");
}

static void print_header(FILE *f, const char *root, const struct machine *m)
{
	unsigned int nodes = bitmap_weight(m->node_online, m->nr_nodes);

	fprintf(f, "%s: %u CPUs (%u online, %u eligible), %u node%s, %u cores, %u L3 domain%s\n",
		root, bitmap_weight(m->present, m->nr_cpus),
		bitmap_weight(m->online, m->nr_cpus),
		bitmap_weight(m->eligible, m->nr_cpus), nodes,
		nodes == 1 ? "" : "s", m->nr_cores, m->nr_l3,
		m->nr_l3 == 1 ? "" : "s");
}

/* Mean distance from the device's node to a vector's CPUs. */
static double vector_distance(const struct machine *m, int node,
			      const unsigned long *mask)
{
	double mean = 0;

	quality_mask_distance(m, node, mask, &mean);
	return mean;
}

/* The nodes of a vector's CPUs, as a list. */
static void vector_nodes(const struct machine *m, const unsigned long *mask,
			 char *buf, size_t size)
{
	unsigned long nodes[BITS_TO_LONGS(1024)] = { 0 };
	unsigned int cpu;

	for_each_set_bit(cpu, mask, m->nr_cpus)
		if (m->cpu_node[cpu] >= 0)
			__set_bit(m->cpu_node[cpu], nodes);
	machine_format_list(buf, size, nodes, m->nr_nodes);
}

static void print_table(FILE *f, const char *root, const struct machine *m,
			const struct preview_dev *devs, unsigned int nr)
{
	char cpus[4096], nodes[1024];
	unsigned int i, v;

	print_header(f, root, m);
	for (i = 0; i < nr; i++) {
		const struct preview_dev *p = &devs[i];

		fprintf(f, "\ndevice %u: ", i);
		if (strncmp(p->label, "node ", 5))
			fprintf(f, "%s, ", p->label);
		fprintf(f, "node %d, %u vector%s, policy %s\n", p->node,
			p->nvec, p->nvec == 1 ? "" : "s",
			irq_spread_policy_name(p->policy));
		fprintf(f, "%6s  %-24s %-8s %s\n", "vector", "cpus", "nodes",
			"distance");
		for (v = 0; v < p->nvec; v++) {
			const unsigned long *mask = p->masks + v * p->stride;

			machine_format_list(cpus, sizeof(cpus), mask,
					    m->nr_cpus);
			vector_nodes(m, mask, nodes, sizeof(nodes));
			fprintf(f, "%6u  %-24s %-8s ", v, cpus, nodes);
			if (p->node >= 0)
				fprintf(f, "%.1f\n",
					vector_distance(m, p->node, mask));
			else
				fprintf(f, "-\n");
		}
		print_quality(f, p);
	}
}

static void json_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = *s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

static void json_list(FILE *f, const unsigned long *mask, unsigned int nbits)
{
	unsigned int cpu;
	bool first = true;

	fputc('[', f);
	for_each_set_bit(cpu, mask, nbits) {
		fprintf(f, "%s%u", first ? "" : ", ", cpu);
		first = false;
	}
	fputc(']', f);
}

static void json_vectors(FILE *f, const struct machine *m,
			 const struct preview_dev *p, const char *indent)
{
	unsigned int v;

	fprintf(f, "[\n");
	for (v = 0; v < p->nvec; v++) {
		const unsigned long *mask = p->masks + v * p->stride;

		fprintf(f, "%s  {\"cpus\": ", indent);
		json_list(f, mask, m->nr_cpus);
		if (p->node >= 0)
			fprintf(f, ", \"distance\": %.2f",
				vector_distance(m, p->node, mask));
		fprintf(f, "}%s\n", v + 1 < p->nvec ? "," : "");
	}
	fprintf(f, "%s]", indent);
}

static void json_quality(FILE *f, const struct preview_dev *p)
{
	fprintf(f, "{\"mean_distance\": ");
	if (p->node >= 0)
		fprintf(f, "%.4f, \"lower_bound\": %.4f", p->q.mean_distance,
			p->q.lower_bound);
	else
		fprintf(f, "null, \"lower_bound\": null");
	fprintf(f, ", \"core_shared\": %u, \"max_per_cpu\": %u", p->q.core_shared,
		p->q.max_per_cpu);
	fprintf(f, ", \"l3_used\": %u, \"ineligible\": %u}", p->q.l3_used,
		p->q.ineligible);
}

static void print_json(FILE *f, const char *root, const struct machine *m,
		       const struct preview_dev *devs, unsigned int nr)
{
	unsigned int i;

	fprintf(f, "{\n  \"sysfs\": ");
	json_string(f, root);
	fprintf(f, ",\n  \"machine\": {\"cpus\": ");
	json_list(f, m->present, m->nr_cpus);
	fprintf(f, ", \"online\": ");
	json_list(f, m->online, m->nr_cpus);
	fprintf(f, ", \"eligible\": ");
	json_list(f, m->eligible, m->nr_cpus);
	fprintf(f, ", \"nodes\": ");
	json_list(f, m->node_online, m->nr_nodes);
	fprintf(f, ", \"cores\": %u, \"l3_domains\": %u},\n", m->nr_cores,
		m->nr_l3);
	fprintf(f, "  \"devices\": [\n");
	for (i = 0; i < nr; i++) {
		const struct preview_dev *p = &devs[i];

		fprintf(f, "    {\"label\": ");
		json_string(f, p->label);
		fprintf(f, ", \"node\": %d, \"policy\": \"%s\",\n", p->node,
			irq_spread_policy_name(p->policy));
		fprintf(f, "     \"quality\": ");
		json_quality(f, p);
		fprintf(f, ",\n     \"vectors\": ");
		json_vectors(f, m, p, "     ");
		fprintf(f, "}%s\n", i + 1 < nr ? "," : "");
	}
	fprintf(f, "  ]");
	/* One device: its vectors at the top level too. */
	if (nr == 1) {
		fprintf(f, ",\n  \"quality\": ");
		json_quality(f, &devs[0]);
		fprintf(f, ",\n  \"vectors\": ");
		json_vectors(f, m, &devs[0], "  ");
	}
	fprintf(f, "\n}\n");
}

/* Write the SVG to @path through a temporary file: all of it or nothing. */
static int write_svg(const char *path, const struct machine *m,
		     const struct preview_dev *devs, unsigned int nr)
{
	char tmp[4096];
	FILE *f;
	int ret;

	snprintf(tmp, sizeof(tmp), "%s.tmp.%d", path, (int)getpid());
	f = fopen(tmp, "w");
	if (!f) {
		fprintf(stderr, "irq_spread: %s: %s\n", tmp, strerror(errno));
		return -1;
	}
	ret = render_svg(f, m, devs, nr);
	if (fclose(f) || ret || rename(tmp, path)) {
		fprintf(stderr, "irq_spread: %s: %s\n", path,
			strerror(errno ? errno : EIO));
		unlink(tmp);
		return -1;
	}
	return 0;
}

static bool want_color(const char *when)
{
	const char *term = getenv("TERM");

	if (!strcmp(when, "always"))
		return true;
	if (!strcmp(when, "never"))
		return false;
	return isatty(STDOUT_FILENO) && !getenv("NO_COLOR") && term &&
	       strcmp(term, "dumb");
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "sysfs",	required_argument,	NULL, 's' },
		{ "node",	required_argument,	NULL, 'n' },
		{ "dev",	required_argument,	NULL, 'd' },
		{ "vectors",	required_argument,	NULL, 'v' },
		{ "policy",	required_argument,	NULL, 'p' },
		{ "json",	no_argument,		NULL, 'j' },
		{ "map",	no_argument,		NULL, 'm' },
		{ "svg",	required_argument,	NULL, 'S' },
		{ "color",	required_argument,	NULL, 'c' },
		{ "help",	no_argument,		NULL, 'h' },
		{ }
	};
	static struct dev_arg args[MAX_DEVS];
	static struct preview_dev devs[MAX_DEVS];
	const char *root = "/sys", *svg = NULL, *color = "auto";
	bool json = false, map = false;
	unsigned int nr = 0, i, eligible;
	struct machine m;
	char err[1024];
	unsigned long val;
	struct dev_arg *d;
	int c, ret;

	while ((c = getopt_long(argc, argv, "jh", opts, NULL)) != -1) {
		switch (c) {
		case 's':
			root = optarg;
			break;
		case 'n':
			d = dev_for(args, &nr, nr && args[nr - 1].has_node);
			if (!strcmp(optarg, "-1"))
				d->node = -1;
			else if (parse_uint(optarg, 0, INT_MAX, &val))
				d->node = val;
			else
				die_usage("--node %s: not a node number or -1",
					  optarg);
			d->has_node = true;
			snprintf(d->label, sizeof(d->label), "node %d", d->node);
			break;
		case 'd':
			d = dev_for(args, &nr, nr && args[nr - 1].has_node);
			snprintf(d->label, sizeof(d->label), "%s", optarg);
			d->has_node = true;
			/* Resolved once the tree is known to be readable. */
			d->node = INT_MIN;
			break;
		case 'v':
			d = dev_for(args, &nr, nr && args[nr - 1].has_nvec);
			if (!parse_uint(optarg, 1, IRQ_SPREAD_MAX_VECTORS, &val))
				die_usage("--vectors %s: not a number from 1 to 65535",
					  optarg);
			d->nvec = val;
			d->has_nvec = true;
			break;
		case 'p':
			d = dev_for(args, &nr, nr && args[nr - 1].has_policy);
			d->policy = irq_spread_policy_parse(optarg);
			if (d->policy < 0)
				die_usage("--policy %s: not numa, numa-core or core",
					  optarg);
			d->has_policy = true;
			break;
		case 'j':
			json = true;
			break;
		case 'm':
			map = true;
			break;
		case 'S':
			svg = optarg;
			break;
		case 'c':
			if (strcmp(optarg, "auto") && strcmp(optarg, "always") &&
			    strcmp(optarg, "never"))
				die_usage("--color %s: not auto, always or never",
					  optarg);
			color = optarg;
			break;
		case 'h':
			fputs(usage, stdout);
			return 0;
		default:
			fprintf(stderr, "(irq_spread --help for usage)\n");
			return EXIT_USAGE;
		}
	}
	if (optind < argc)
		die_usage("%s: unexpected argument", argv[optind]);
	if (json && map)
		die_usage("%s", "-j and --map do not go together");

	if (machine_read_sysfs(&m, root, err, sizeof(err))) {
		fprintf(stderr, "irq_spread: %s\n", err);
		return EXIT_MACHINE;
	}
	ret = 0;
	for (i = 0; i < nr && !ret; i++)
		if (args[i].node == INT_MIN)
			ret = resolve_dev(root, &args[i], args[i].label, err,
					  sizeof(err));
	if (!ret && !nr)
		ret = default_devs(root, args, &nr, err, sizeof(err));
	eligible = bitmap_weight(m.eligible, m.nr_cpus);
	if (!ret && !nr) {
		/* No device at all: one on the first eligible CPU's node. */
		d = &args[nr++];
		memset(d, 0, sizeof(*d));
		d->node = eligible ? m.cpu_node[find_first_bit(m.eligible,
							       m.nr_cpus)] : -1;
		snprintf(d->label, sizeof(d->label), "node %d", d->node);
	}
	for (i = 0; i < nr && !ret; i++) {
		struct preview_dev *p = &devs[i];

		d = &args[i];
		if (!d->has_node) {
			d->node = eligible ? m.cpu_node[find_first_bit(m.eligible,
								       m.nr_cpus)] : -1;
			snprintf(d->label, sizeof(d->label), "node %d", d->node);
		}
		ret = check_node(&m, d, err, sizeof(err));
		if (ret)
			break;
		p->label = d->label;
		p->node = d->node;
		p->policy = d->has_policy ? d->policy : IRQ_SPREAD_NUMA;
		p->nvec = d->has_nvec ? d->nvec : (eligible ? eligible : 1);
		p->stride = m.longs;
		p->masks = calloc((size_t)p->nvec * p->stride, sizeof(long));
		if (!p->masks) {
			snprintf(err, sizeof(err), "out of memory");
			ret = -1;
			break;
		}
		ret = irq_spread_topo_cpus(&m.topo, p->node, p->nvec, p->policy,
					   NULL, p->masks, p->stride);
		if (ret) {
			snprintf(err, sizeof(err), "%s: the engine failed: %s",
				 p->label, strerror(-ret));
			break;
		}
		quality_of(&m, p->node, p->nvec, p->masks, p->stride, &p->q);
	}
	if (ret) {
		fprintf(stderr, "irq_spread: %s\n", err);
		ret = EXIT_MACHINE;
		goto out;
	}

	if (svg && write_svg(svg, &m, devs, nr)) {
		ret = EXIT_MACHINE;
		goto out;
	}
	if (json) {
		print_json(stdout, root, &m, devs, nr);
	} else {
		print_table(stdout, root, &m, devs, nr);
		if (map) {
			fputc('\n', stdout);
			render_map(stdout, &m, devs, nr, want_color(color));
		}
	}
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "irq_spread: writing the output: %s\n",
			strerror(errno));
		ret = EXIT_MACHINE;
	}
out:
	for (i = 0; i < nr; i++)
		free(devs[i].masks);
	machine_free(&m);
	return ret;
}
