// SPDX-License-Identifier: GPL-2.0
/*
 * irq_spread preview: what drivers and tools do instead of irq_spread,
 * re-derived from their sources (named at each peer) for the quality
 * benchmark.  Kernel sources are those of the 6.12 base unless a peer says
 * otherwise.
 *
 * The kernel's NUMA hop masks (sched_domains_numa_masks[][], built by
 * sched_init_numa() in kernel/sched/topology.c) hold, for a node with CPUs,
 * the CPUs of the nodes at most the hop's distance away, with one hop per
 * distinct distance between nodes with CPUs; hops that add no CPU to a
 * node's mask change nothing below, so a node's hops are taken here as the
 * distinct distances from it to the nodes with online CPUs, ascending.
 * A node without CPUs has no hop masks at all (sched_init_numa() only
 * fills them for N_CPU nodes).  The scheduler keeps its masks to online
 * CPUs (sched_domains_numa_masks_set() and _clear() on hotplug), and
 * topology_sibling_cpumask() holds a CPU's online siblings, so the peers
 * read both through the machine's online CPUs.  None of the kernel peers
 * looks at isolcpus or nohz_full: they place on every online CPU.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/array_size.h>
#include <linux/bitmap.h>

#include "peers.h"

static void *peer_zalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size);

	if (!p) {
		fprintf(stderr, "peers: out of memory\n");
		exit(1);
	}
	return p;
}

static unsigned long *peer_mask(unsigned long *masks, size_t stride,
				unsigned int i)
{
	return masks + i * stride;
}

static void peer_one_cpu(const struct machine *m, unsigned long *mask,
			 unsigned int cpu)
{
	bitmap_zero(mask, m->nr_cpus);
	__set_bit(cpu, mask);
}

/* The lowest CPU of @mask, or m->nr_cpus if it is empty. */
static unsigned int peer_first(const struct machine *m,
			       const unsigned long *mask)
{
	unsigned int cpu;

	for_each_set_bit(cpu, mask, m->nr_cpus)
		return cpu;
	return m->nr_cpus;
}

static unsigned long *peer_bitmap(const struct machine *m)
{
	unsigned long *p = machine_bitmap(m);

	if (!p) {
		fprintf(stderr, "peers: out of memory\n");
		exit(1);
	}
	return p;
}

/* A vector whose affinity nobody sets: the interrupt core's default. */
static void peer_left_alone(const struct machine *m, unsigned long *mask)
{
	bitmap_copy(mask, m->online, m->nr_cpus);
}

static bool peer_node_has_cpus(const struct machine *m, int node)
{
	unsigned int cpu;

	if (!m->node_cpus[node])
		return false;
	for_each_set_bit(cpu, m->node_cpus[node], m->nr_cpus)
		if (test_bit(cpu, m->online))
			return true;
	return false;
}

/* The distance from @node to the node of @cpu; -1 for a CPU of no node. */
static int peer_cpu_distance(const struct machine *m, int node,
			     unsigned int cpu)
{
	if (m->cpu_node[cpu] < 0)
		return -1;
	return machine_distance(m, node, m->cpu_node[cpu]);
}

/*
 * The distinct distances from @node to the nodes with online CPUs,
 * ascending, in @dist (m->nr_nodes entries): @node's NUMA hops.
 */
static unsigned int peer_hops(const struct machine *m, int node, int *dist)
{
	unsigned int n = 0, i, j, k;
	int d;

	for (k = 0; k < m->nr_nodes; k++) {
		if (!peer_node_has_cpus(m, k))
			continue;
		d = machine_distance(m, node, k);
		for (i = 0; i < n && dist[i] < d; i++)
			;
		if (i < n && dist[i] == d)
			continue;
		for (j = n; j > i; j--)
			dist[j] = dist[j - 1];
		dist[i] = d;
		n++;
	}
	return n;
}

/*
 * The online CPUs in NUMA hop order from @node, CPU numbers ascending
 * within the CPUs a hop adds, into @order; online CPUs of no node last.
 * Return their number.
 */
static unsigned int peer_hop_order(const struct machine *m, int node,
				   unsigned int *order)
{
	int *dist = peer_zalloc(m->nr_nodes, sizeof(*dist));
	unsigned int nr_hops, h, cpu, n = 0;

	nr_hops = peer_hops(m, node, dist);
	for (h = 0; h < nr_hops; h++)
		for_each_set_bit(cpu, m->online, m->nr_cpus)
			if (peer_cpu_distance(m, node, cpu) == dist[h])
				order[n++] = cpu;
	for_each_set_bit(cpu, m->online, m->nr_cpus)
		if (m->cpu_node[cpu] < 0)
			order[n++] = cpu;
	free(dist);
	return n;
}

/* Vector i gets the CPU @order[i modulo @n]; @order is freed. */
static void peer_by_order(const struct machine *m, unsigned int nvec,
			  unsigned long *masks, size_t stride,
			  unsigned int *order, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < nvec; i++)
		peer_one_cpu(m, peer_mask(masks, stride, i), order[i % n]);
	free(order);
}

/*
 * Linux before v6.3, cpumask_local_spread(i, node) in lib/cpumask.c (as
 * v4.1 to v6.2 have it; found with the search tool in a public backport of
 * it, mlnx-ofed's compat/compat-4.1.c): i is taken modulo the number of
 * online CPUs; the i-th online CPU of @node by CPU number, and past those
 * the other online CPUs by CPU number, whatever their distance.  For no
 * node, the i-th online CPU.  One CPU per vector, no state: mlx5, i40e
 * and others called it once per vector.
 */
static void peer_local_spread_pre63(const struct machine *m, int node,
				    unsigned int nvec, unsigned long *masks,
				    size_t stride)
{
	unsigned int *order = peer_zalloc(m->nr_cpus, sizeof(*order));
	unsigned int n = 0, cpu;

	if (node >= 0 && m->node_cpus[node])
		for_each_set_bit(cpu, m->online, m->nr_cpus)
			if (test_bit(cpu, m->node_cpus[node]))
				order[n++] = cpu;
	for_each_set_bit(cpu, m->online, m->nr_cpus)
		if (node < 0 || !m->node_cpus[node] ||
		    !test_bit(cpu, m->node_cpus[node]))
			order[n++] = cpu;
	peer_by_order(m, nvec, masks, stride, order, n);
}

/*
 * numa_nearest_node(node, N_CPU) in mm/mempolicy.c: @node if it has CPUs,
 * else the nearest node that has, the lowest numbered among equals.
 */
static int peer_nearest_cpu_node(const struct machine *m, int node)
{
	int best = node, best_dist = 0x7fffffff;
	unsigned int k;

	if (peer_node_has_cpus(m, node))
		return node;
	for (k = 0; k < m->nr_nodes; k++) {
		if (peer_node_has_cpus(m, k) &&
		    machine_distance(m, node, k) < best_dist) {
			best = k;
			best_dist = machine_distance(m, node, k);
		}
	}
	return best;
}

/*
 * Linux v6.3 and later, cpumask_local_spread(i, node) in lib/cpumask.c:
 * i modulo the number of online CPUs, then sched_numa_find_nth_cpu(
 * cpu_online_mask, i, node) in kernel/sched/topology.c: for no node the
 * i-th online CPU; else, from numa_nearest_node(node, N_CPU), the i-th
 * online CPU in hop order, CPU numbers ascending within the CPUs a hop
 * adds, every hardware thread counting.  One CPU per vector, no state.
 * mlx5 (mlx5_cpumask_default_spread()), iavf, enic and others call it per
 * vector; 6.15's core NAPI affinity (netif_set_affinity_auto()) defaults
 * each NAPI's mask to it.
 */
static void peer_local_spread(const struct machine *m, int node,
			      unsigned int nvec, unsigned long *masks,
			      size_t stride)
{
	unsigned int *order = peer_zalloc(m->nr_cpus, sizeof(*order));
	unsigned int n = 0, cpu;

	if (node < 0)
		for_each_set_bit(cpu, m->online, m->nr_cpus)
			order[n++] = cpu;
	else
		n = peer_hop_order(m, peer_nearest_cpu_node(m, node), order);
	peer_by_order(m, nvec, masks, stride, order, n);
}

/*
 * Hop mask of @node at distance @limit: the online CPUs of the nodes at
 * most @limit away; for no node, every online CPU.
 */
static void peer_hop_mask(const struct machine *m, int node, int limit,
			  unsigned long *dst)
{
	unsigned int k;

	bitmap_zero(dst, m->nr_cpus);
	for (k = 0; k < m->nr_nodes; k++)
		if (m->node_cpus[k] &&
		    (node < 0 || machine_distance(m, node, k) <= limit))
			bitmap_or(dst, dst, m->node_cpus[k], m->nr_cpus);
	bitmap_and(dst, dst, m->online, m->nr_cpus);
}

/*
 * MANA, irq_setup() in drivers/net/ethernet/microsoft/mana/gdma_main.c of
 * 6.12 (the base's own copy, before patches/ replace it), called with
 * every vector the driver spreads.  For each hop mask from @node (for no node, one hop:
 * every online CPU; for a node without CPUs, none), it takes the CPUs
 * the hop adds and a weight of their number; then, while the weight is
 * above 0, one round: a working copy of the hop's added CPUs, and for
 * each CPU left in it by number, the next vector gets the CPU's whole
 * sibling mask (topology_sibling_cpumask(), online siblings included
 * whatever their hop), the siblings leave the working copy and the weight drops by one.
 * So a hop of c cores of t threads gets t rounds of one vector per core
 * (the weight counts threads but drops once per core).  Once the hops
 * are used up the function returns: the vectors past them keep the
 * interrupt core's default affinity (every online CPU).
 *
 * mana_gd_setup_irqs() gives it every vector, the hardware channel's
 * first, when there are at most as many as online CPUs; with one more,
 * the hardware channel's goes to cpumask_local_spread(0, node) and
 * irq_setup() gets the others.  The benchmark's vectors are queue
 * vectors, so all of them go through irq_setup() here.
 */
static void peer_mana_irq_setup(const struct machine *m, int node,
				unsigned int nvec, unsigned long *masks,
				size_t stride)
{
	unsigned long *prev = peer_bitmap(m);
	unsigned long *next = peer_bitmap(m);
	unsigned long *cpus = peer_bitmap(m);
	unsigned long *sib = peer_bitmap(m);
	int *dist = peer_zalloc(m->nr_nodes, sizeof(*dist));
	unsigned int nr_hops, h, cpu, v = 0;
	int weight;

	if (node < 0)
		nr_hops = 1;
	else if (!peer_node_has_cpus(m, node))
		nr_hops = 0;
	else
		nr_hops = peer_hops(m, node, dist);
	for (h = 0; h < nr_hops && v < nvec; h++) {
		peer_hop_mask(m, node, node < 0 ? 0 : dist[h], next);
		bitmap_andnot(cpus, next, prev, m->nr_cpus);
		weight = bitmap_weight(cpus, m->nr_cpus);
		while (weight > 0 && v < nvec) {
			bitmap_andnot(cpus, next, prev, m->nr_cpus);
			for (cpu = 0; cpu < m->nr_cpus && v < nvec; cpu++) {
				if (!test_bit(cpu, cpus))
					continue;
				bitmap_and(sib, m->siblings[cpu], m->online,
					   m->nr_cpus);
				bitmap_copy(peer_mask(masks, stride, v++), sib,
					    m->nr_cpus);
				bitmap_andnot(cpus, cpus, sib, m->nr_cpus);
				weight--;
			}
		}
		bitmap_copy(prev, next, m->nr_cpus);
	}
	for (; v < nvec; v++)
		peer_left_alone(m, peer_mask(masks, stride, v));
	free(dist);
	free(prev);
	free(next);
	free(cpus);
	free(sib);
}

/*
 * systemd-udevd's IRQAffinityPolicy=spread (v261), select_spread_cpus()
 * and its helpers in systemd's src/udev/net/link-config.c (read with the
 * search tool):
 *  - the online CPUs (those with a topology directory), each in a domain:
 *    its L3 (cache/index3/shared_cpu_list), domains numbered in the order
 *    their lowest numbered online CPU comes, or, for a CPU without an L3,
 *    its package id.  Here the domains are the machine's @l3 (which falls
 *    back to the package too), numbered by lowest online CPU in both
 *    cases: the same order as udevd's where package ids grow with CPU
 *    numbers, and where a machine does not mix CPUs with and without L3;
 *  - only first threads: a CPU that is the first of its
 *    thread_siblings_list, which holds online siblings only;
 *  - per domain its first threads by core_id, then CPU number (here by CPU
 *    number, which follows core_id within a domain on the machines we
 *    model), put in "equidistant" order: split the list in halves (the
 *    first one the larger), order each half so recursively, then
 *    interleave them starting with the first half ([0,1,2,3] ->
 *    [0,2,1,3]); the domains, by number, are ordered the same way;
 *  - rounds over the domains in that order, one core from each domain
 *    that has one left per round; once every domain's cores are used up,
 *    all start again from their first;
 *  - one CPU per MSI-X vector of the device, distance and device node
 *    ignored.
 * udevd sorts the device's IRQ numbers as strings before it hands out the
 * CPUs (so IRQ 100 comes before IRQ 99); vector i here gets pick i.  With
 * no domain at all (no online CPU) vectors are left alone.
 */
static void peer_equidist(unsigned int *idx, unsigned int n)
{
	unsigned int left = (n + 1) / 2, right = n - left, i;
	unsigned int *tmp;

	if (n <= 1)
		return;
	tmp = peer_zalloc(n, sizeof(*tmp));
	memcpy(tmp, idx, n * sizeof(*tmp));
	peer_equidist(tmp, left);
	peer_equidist(tmp + left, right);
	/* Interleave: tmp[0], tmp[left], tmp[1], tmp[left + 1], ... */
	for (i = 0; i < n; i++) {
		if (i % 2 == 0)
			idx[i] = tmp[i / 2];
		else
			idx[i] = tmp[left + i / 2];
	}
	free(tmp);
}

static void peer_udev_spread(const struct machine *m, int node,
			     unsigned int nvec, unsigned long *masks,
			     size_t stride)
{
	unsigned int nr_dom = 0, d, cpu, first, v, picked;
	unsigned int *dom_of_l3, *dom_order, *count, *next, **cores;
	unsigned long *sib = peer_bitmap(m);

	(void)node;
	dom_of_l3 = peer_zalloc(m->nr_cpus + 1, sizeof(*dom_of_l3));
	dom_order = peer_zalloc(m->nr_cpus, sizeof(*dom_order));
	count = peer_zalloc(m->nr_cpus, sizeof(*count));
	next = peer_zalloc(m->nr_cpus, sizeof(*next));
	cores = peer_zalloc(m->nr_cpus, sizeof(*cores));

	/* Domains numbered by their lowest online CPU; first threads in. */
	for (d = 0; d <= m->nr_cpus; d++)
		dom_of_l3[d] = -1U;
	for_each_set_bit(cpu, m->online, m->nr_cpus) {
		unsigned int l3 = m->l3[cpu] < 0 ? m->nr_cpus :
				  (unsigned int)m->l3[cpu];

		if (dom_of_l3[l3] == -1U) {
			dom_of_l3[l3] = nr_dom;
			cores[nr_dom] = peer_zalloc(m->nr_cpus,
						    sizeof(*cores[0]));
			nr_dom++;
		}
		/* No sibling list: udevd takes the CPU for a first thread. */
		bitmap_and(sib, m->siblings[cpu], m->online, m->nr_cpus);
		first = peer_first(m, sib);
		if (first < m->nr_cpus && first != cpu)
			continue;
		d = dom_of_l3[l3];
		cores[d][count[d]++] = cpu;
	}
	for (d = 0; d < nr_dom; d++) {
		peer_equidist(cores[d], count[d]);
		dom_order[d] = d;
	}
	peer_equidist(dom_order, nr_dom);

	for (v = 0; v < nvec && nr_dom; ) {
		picked = 0;
		for (d = 0; d < nr_dom && v < nvec; d++) {
			unsigned int k = dom_order[d];

			if (next[k] >= count[k])
				continue;
			peer_one_cpu(m, peer_mask(masks, stride, v++),
				     cores[k][next[k]++]);
			picked++;
		}
		if (!picked)
			memset(next, 0, nr_dom * sizeof(*next));
	}
	for (; v < nvec; v++)
		peer_left_alone(m, peer_mask(masks, stride, v));

	for (d = 0; d < nr_dom; d++)
		free(cores[d]);
	free(cores);
	free(next);
	free(count);
	free(dom_order);
	free(dom_of_l3);
	free(sib);
}

/*
 * blk-mq's group_cpus_evenly(numgrps) in lib/group_cpus.c: groups of the
 * possible CPUs (here: present or online) for managed interrupts, whatever
 * the device's node.  __group_cpus_evenly() over the present CPUs (the
 * second stage, possible but not present CPUs, has none here):
 *  - the nodes whose CPUs meet the mask; with no more groups than such
 *    nodes, group g (wrapping) gets every such node's CPUs in turn;
 *  - else alloc_nodes_groups(): the number of groups is cut to the number
 *    of CPUs; the nodes, sorted by CPU count with the kernel's heapsort
 *    (lib/sort.c; ties end where it leaves them, and nodes without CPUs
 *    compare as smaller than any), get max(1, groups * cpus / remaining
 *    cpus) groups each, in that order, taking their share off the
 *    remaining groups and CPUs;
 *  - in the same order, each node's groups get ncpus / ngroups CPUs each,
 *    the first (ncpus mod ngroups) of them one more, by
 *    grp_spread_init_one(): the node's first CPU left, then its siblings
 *    still left in the node, until the group is full.
 * Vector i gets group i.  Past the groups made (more vectors than CPUs,
 * which the PCI core would not allocate for a managed interrupt), vectors
 * are left alone.
 */
struct peer_node_groups {
	unsigned int id;
	unsigned int n;		/* CPUs, then groups; -1U for no CPU */
};

static int peer_ng_cmp(const struct peer_node_groups *l,
		       const struct peer_node_groups *r)
{
	/* ncpus_cmp_func(): an unsigned difference read as int */
	return (int)(l->n - r->n);
}

static void peer_ng_swap(struct peer_node_groups *a, size_t i, size_t j)
{
	struct peer_node_groups t = a[i];

	a[i] = a[j];
	a[j] = t;
}

/*
 * sort_r() in lib/sort.c, in element indices: a bottom-up heapsort that
 * extracts two elements per pass; only its tie order matters here.
 */
static void peer_ng_sort(struct peer_node_groups *a, size_t num)
{
	size_t n = num, top = num / 2, shift = 0, b, c, d;

	if (!top)
		return;
	for (;;) {
		if (top) {
			top -= (size_t)1 << shift;
		} else if (n > 3) {
			n--;
			peer_ng_swap(a, 0, n);
			shift = peer_ng_cmp(&a[1], &a[2]) <= 0;
			top = (size_t)1 << shift;
			n--;
			peer_ng_swap(a, top, n);
		} else {
			break;
		}
		/* Sift a[top] down: find the path of larger children... */
		for (b = top; c = 2 * b + 1, (d = c + 1) < n;)
			b = peer_ng_cmp(&a[c], &a[d]) > 0 ? c : d;
		if (d == n)
			b = c;
		/* ...back up to where a[top] belongs, and rotate it in. */
		while (b != top && peer_ng_cmp(&a[top], &a[b]) >= 0)
			b = (b - 1) / 2;
		c = b;
		while (b != top) {
			b = (b - 1) / 2;
			peer_ng_swap(a, b, c);
		}
	}
	n--;
	peer_ng_swap(a, 0, n);
	if (n == 2 && peer_ng_cmp(&a[0], &a[1]) > 0)
		peer_ng_swap(a, 0, 1);
}

/* grp_spread_init_one(): @per CPUs of @nmsk into @grp, siblings first. */
static void peer_group_one(const struct machine *m, unsigned long *grp,
			   unsigned long *nmsk, unsigned int per)
{
	unsigned int cpu, sibl;

	while (per > 0) {
		cpu = peer_first(m, nmsk);
		if (cpu >= m->nr_cpus)
			return;
		__clear_bit(cpu, nmsk);
		__set_bit(cpu, grp);
		per--;
		if (!test_bit(cpu, m->online))
			continue;	/* an offline CPU has no siblings */
		for (sibl = 0; sibl < m->nr_cpus && per > 0; sibl++) {
			if (!test_bit(sibl, m->siblings[cpu]) ||
			    !test_bit(sibl, m->online) || !test_bit(sibl, nmsk))
				continue;
			__clear_bit(sibl, nmsk);
			__set_bit(sibl, grp);
			per--;
		}
	}
}

static void peer_group_cpus_evenly(const struct machine *m, int node,
				   unsigned int nvec, unsigned long *masks,
				   size_t stride)
{
	struct peer_node_groups *ng;
	unsigned long *cpus = peer_bitmap(m);
	unsigned long *nmsk = peer_bitmap(m);
	unsigned int numgrps = nvec, remaining = 0, nodes = 0, made = 0;
	unsigned int k, cur = 0, g, ncpus, per, extra;

	(void)node;
	for (g = 0; g < nvec; g++)
		bitmap_zero(peer_mask(masks, stride, g), m->nr_cpus);
	bitmap_or(cpus, m->present, m->online, m->nr_cpus);
	ng = peer_zalloc(m->nr_nodes, sizeof(*ng));
	for (k = 0; k < m->nr_nodes; k++) {
		ng[k].id = k;
		ng[k].n = -1U;
		if (!m->node_cpus[k])
			continue;
		bitmap_and(nmsk, cpus, m->node_cpus[k], m->nr_cpus);
		ncpus = bitmap_weight(nmsk, m->nr_cpus);
		if (!ncpus)
			continue;
		nodes++;
		remaining += ncpus;
		ng[k].n = ncpus;
	}

	if (numgrps <= nodes) {
		for (k = 0; k < m->nr_nodes; k++) {
			if (ng[k].n == -1U)
				continue;
			bitmap_and(nmsk, cpus, m->node_cpus[k], m->nr_cpus);
			bitmap_or(peer_mask(masks, stride, cur),
				  peer_mask(masks, stride, cur), nmsk,
				  m->nr_cpus);
			if (++cur == numgrps)
				cur = 0;
		}
		made = numgrps;
		goto out;
	}

	if (numgrps > remaining)
		numgrps = remaining;
	peer_ng_sort(ng, m->nr_nodes);
	for (k = 0; k < m->nr_nodes; k++) {
		if (ng[k].n == -1U)
			continue;
		ncpus = ng[k].n;
		ng[k].n = numgrps * ncpus / remaining;
		if (!ng[k].n)
			ng[k].n = 1;
		remaining -= ncpus;
		numgrps -= ng[k].n;
	}
	for (k = 0; k < m->nr_nodes; k++) {
		if (ng[k].n == -1U)
			continue;
		bitmap_and(nmsk, cpus, m->node_cpus[ng[k].id], m->nr_cpus);
		ncpus = bitmap_weight(nmsk, m->nr_cpus);
		extra = ncpus - ng[k].n * (ncpus / ng[k].n);
		for (g = 0; g < ng[k].n; g++, cur++) {
			per = ncpus / ng[k].n;
			if (extra) {
				per++;
				extra--;
			}
			if (cur >= nvec)
				cur = 0;
			peer_group_one(m, peer_mask(masks, stride, cur), nmsk,
				       per);
		}
		made += ng[k].n;
	}
out:
	for (g = made; g < nvec; g++)
		peer_left_alone(m, peer_mask(masks, stride, g));
	free(ng);
	free(cpus);
	free(nmsk);
}

const struct peer peers[] = {
	{ "local_spread_pre63", peer_local_spread_pre63 },
	{ "local_spread", peer_local_spread },
	{ "mana_irq_setup", peer_mana_irq_setup },
	{ "udev_spread", peer_udev_spread },
	{ "group_cpus_evenly", peer_group_cpus_evenly },
};

const unsigned int nr_peers = ARRAY_SIZE(peers);
