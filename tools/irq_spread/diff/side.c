// SPDX-License-Identifier: GPL-2.0
/*
 * irq_spread differential run: one side (see side.h).  Compiled by
 * run.sh against one tree (its shim, compat header, lib/irq_spread and
 * tools/irq_spread), linked with that tree's libirq_spread.a, then every
 * symbol renamed old_NAME or new_NAME.
 *
 * It uses of its tree: the fuzzer's machine generator, build_machine()
 * of fuzz/fuzz_engine.c, included whole (its checks come along unused);
 * machine.c's struct machine and machine_format_list(); the topology's
 * leaving and load fields; the engine entry points
 * irq_spread_topo_spread(), irq_spread_topo_nth_cpu(),
 * irq_spread_topo_release() and irq_spread_topo_hold(); and the pool's
 * irq_spread_pool_topo_create(), irq_spread_pool_get(),
 * irq_spread_pool_put() and irq_spread_pool_destroy(), with struct
 * irq_spread_pool's masks, stride and vec[].users.  Pools take no part in
 * CPU hotplug (the interrupt core asks them where an interrupt goes), so
 * a CPU going or coming changes only the machine.  If a tree
 * changes one of those, this file adapts (by #if on something the tree
 * defines, or a -D of run.sh's OLD_CFLAGS / NEW_CFLAGS) so that it still
 * builds against both; side.h stays as it is.
 */
#include "fuzz/fuzz_engine.c"

#include "side.h"

/* The fuzzer's state: its machine, the leaving mask's storage, a pool. */
struct side {
	struct fuzz f;
	unsigned long *leaving;
	struct irq_spread_pool *pool;
};

static void side_pool_destroy(struct side *s)
{
	irq_spread_pool_destroy(s->pool);
	s->pool = NULL;
}

static void side_destroy(struct side *s)
{
	if (!s)
		return;
	side_pool_destroy(s);
	s->f.m.topo.leaving = NULL;
	machine_free(&s->f.m);
	free(s->leaving);
	free(s);
}

static struct side *side_create(const unsigned char *bytes, size_t len)
{
	struct input in = { bytes, len };
	struct side *s = calloc(1, sizeof(*s));

	/* Any WARN_ON() of the engine aborts: the driver says where. */
	irq_spread_compat_warn_fatal = true;
	irq_spread_compat_quiet = true;
	if (!s)
		return NULL;
	if (build_machine(&s->f, &in)) {
		machine_free(&s->f.m);
		free(s);
		return NULL;
	}
	s->leaving = calloc(s->f.longs, sizeof(long));
	if (!s->leaving) {
		side_destroy(s);
		return NULL;
	}
	return s;
}

static unsigned int side_nr_cpus(const struct side *s)
{
	return s->f.m.nr_cpus;
}

static unsigned int side_nr_nodes(const struct side *s)
{
	return s->f.m.nr_nodes;
}

/* Append "name list" of @bits to @buf at @len. */
static size_t describe_list(char *buf, size_t size, size_t len,
			    const char *name, const unsigned long *bits,
			    unsigned int n)
{
	len += scnprintf(buf + len, size - len, "%s ", name);
	len += machine_format_list(buf + len, size - len, bits, n);
	len += scnprintf(buf + len, size - len, "\n");
	return len;
}

static char *side_describe(const struct side *s)
{
	const struct machine *m = &s->f.m;
	unsigned int n = m->nr_cpus, i, j, cpu;
	size_t size = 64 * 1024 + (size_t)n * 2048, len = 0;
	char *buf = malloc(size), name[64];

	if (!buf)
		return NULL;
	len += scnprintf(buf + len, size - len, "cpus %u nodes %u\n", n,
			 m->nr_nodes);
	for (i = 0; i < m->nr_nodes; i++) {
		len += scnprintf(buf + len, size - len, "node%u distances", i);
		for (j = 0; j < m->nr_nodes; j++)
			len += scnprintf(buf + len, size - len, " %d",
					 machine_distance(m, i, j));
		len += scnprintf(buf + len, size - len, "\n");
		snprintf(name, sizeof(name), "node%u cpus", i);
		if (m->node_cpus[i])
			len = describe_list(buf, size, len, name,
					    m->node_cpus[i], n);
	}
	len = describe_list(buf, size, len, "online", m->online, n);
	len = describe_list(buf, size, len, "isolated", m->isolated, n);
	len = describe_list(buf, size, len, "nohz_full", m->nohz_full, n);
	len = describe_list(buf, size, len, "eligible", m->eligible, n);
	for (cpu = 0; cpu < n; cpu++) {
		snprintf(name, sizeof(name), "cpu%u node %d siblings", cpu,
			 m->cpu_node[cpu]);
		len = describe_list(buf, size, len, name, m->siblings[cpu], n);
	}
	return buf;
}

/*
 * A tree from before IRQ_SPREAD_NO_HOLD (3062ef4) gets the flag as the
 * unknown one it is to that engine: an example of adapting to a tree.
 */
#ifndef IRQ_SPREAD_NO_HOLD
#define IRQ_SPREAD_NO_HOLD	BIT(15)
#endif

static unsigned int side_flags(unsigned int flags)
{
	return (flags & SIDE_SLOT_ONLY ? IRQ_SPREAD_SLOT_ONLY : 0) |
	       (flags & SIDE_NO_HOLD ? IRQ_SPREAD_NO_HOLD : 0) |
	       (flags & SIDE_UNKNOWN_FLAG ? BIT(15) : 0);
}

static int side_spread(struct side *s, int node, unsigned int nvec,
		       int policy, const unsigned long *exclude,
		       unsigned long *masks, size_t stride, unsigned int flags)
{
	return irq_spread_topo_spread(&s->f.m.topo, node, nvec, policy,
				      exclude, masks, stride,
				      side_flags(flags));
}

static int side_nth_cpu(struct side *s, int node, unsigned int index,
			int policy)
{
	return irq_spread_topo_nth_cpu(&s->f.m.topo, node, index, policy);
}

static void side_release(struct side *s, unsigned int nvec,
			 const unsigned long *masks, size_t stride)
{
	irq_spread_topo_release(&s->f.m.topo, nvec, masks, stride);
}

static void side_hold(struct side *s, unsigned int nvec,
		      const unsigned long *masks, size_t stride)
{
	irq_spread_topo_hold(&s->f.m.topo, nvec, masks, stride);
}

static void side_set_leaving(struct side *s, const unsigned long *leaving)
{
	if (!leaving) {
		s->f.m.topo.leaving = NULL;
		return;
	}
	bitmap_copy(s->leaving, leaving, s->f.n);
	s->f.m.topo.leaving = s->leaving;
}

static unsigned int side_load(const struct side *s, unsigned int cpu)
{
	const unsigned int *load = s->f.m.topo.load;

	return load ? load[cpu] : 0;
}

static void side_set_online(struct side *s, unsigned int cpu, bool online)
{
	struct machine *m = &s->f.m;
	unsigned int n = s->f.n, c;

	/* Without a core, its siblings are unknown: it stays as it is. */
	if (m->core[cpu] < 0)
		return;
	if (online)
		__set_bit(cpu, m->online);
	else
		__clear_bit(cpu, m->online);
	bitmap_andnot(m->eligible, m->online, m->isolated, n);
	bitmap_andnot(m->eligible, m->eligible, m->nohz_full, n);
	for (c = 0; c < n; c++) {
		if (m->core[c] != m->core[cpu])
			continue;
		bitmap_zero(m->siblings[c], n);
		__set_bit(c, m->siblings[c]);
	}
	for (c = 0; c < n; c++) {
		unsigned int d;

		if (m->core[c] != m->core[cpu] || !test_bit(c, m->online))
			continue;
		for (d = 0; d < n; d++)
			if (m->core[d] == m->core[cpu] && test_bit(d, m->online))
				__set_bit(d, m->siblings[c]);
	}
}

/* The pool's driver: interrupt 1000 + vector, released without a trace. */
static int side_pool_request(void *priv, unsigned int vector,
			     const struct cpumask *mask)
{
	return 1000 + vector;
}

static void side_pool_release(void *priv, unsigned int vector,
			      unsigned int irq)
{
}

static const struct irq_spread_pool_ops side_pool_ops = {
	.request	= side_pool_request,
	.release	= side_pool_release,
};

static int side_pool_create(struct side *s, int node, int policy,
			    unsigned int nr_vectors, unsigned int max_users)
{
	struct irq_spread_pool_info info = {
		.name		= "diff",
		.node		= node,
		.policy		= policy,
		.nr_vectors	= nr_vectors,
		.max_users	= max_users,
		.ops		= &side_pool_ops,
	};
	struct irq_spread_pool *pool;

	side_pool_destroy(s);
	pool = irq_spread_pool_topo_create(&s->f.m.topo, &info);
	if (IS_ERR(pool))
		return PTR_ERR(pool);
	s->pool = pool;
	return 0;
}

static int side_pool_get(struct side *s, const unsigned long *cpus)
{
	return irq_spread_pool_get(s->pool, cpus ? to_cpumask(cpus) : NULL);
}

static int side_pool_put(struct side *s, unsigned int vector)
{
	return irq_spread_pool_put(s->pool, vector);
}

static unsigned int side_pool_vector(const struct side *s, unsigned int v,
				     unsigned long *mask)
{
	const struct irq_spread_pool *pool = s->pool;

	bitmap_copy(mask, pool->masks + v * pool->stride, s->f.n);
	return pool->vec[v].users;
}

static void side_pool_cpu(struct side *s, unsigned int cpu, bool online)
{
	side_set_online(s, cpu, online);
}

const struct side_api side_api = {
	.create		= side_create,
	.destroy	= side_destroy,
	.nr_cpus	= side_nr_cpus,
	.nr_nodes	= side_nr_nodes,
	.describe	= side_describe,
	.spread		= side_spread,
	.nth_cpu	= side_nth_cpu,
	.release	= side_release,
	.hold		= side_hold,
	.set_leaving	= side_set_leaving,
	.load		= side_load,
	.set_online	= side_set_online,
	.pool_create	= side_pool_create,
	.pool_destroy	= side_pool_destroy,
	.pool_get	= side_pool_get,
	.pool_put	= side_pool_put,
	.pool_vector	= side_pool_vector,
	.pool_cpu	= side_pool_cpu,
};
