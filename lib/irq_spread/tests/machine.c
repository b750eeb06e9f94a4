// SPDX-License-Identifier: GPL-2.0
/*
 * Injected machines for the irq_spread KUnit suites (see
 * machine.h).  Everything is allocated with the test's
 * resources and freed when the test ends.
 */
#include <kunit/device.h>
#include <kunit/test.h>
#include <kunit/visibility.h>
#include <linux/array_size.h>
#include <linux/bitmap.h>
#include <linux/container_of.h>
#include <linux/cpumask.h>
#include <linux/err.h>
#include <linux/irq_spread.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/sprintf.h>

#include "../device.h"
#include "machine.h"

static int epyc_distance(int a, int b)
{
	if (a == b)
		return 10;
	if (a / 8 != b / 8)
		return 32;
	return a / 2 == b / 2 ? 11 : 12;
}

static const char * const epyc_nodes[] = {
	"0-7,128-135",		"8-15,136-143",		"16-23,144-151",
	"24-31,152-159",	"32-39,160-167",	"40-47,168-175",
	"48-55,176-183",	"56-63,184-191",	"64-71,192-199",
	"72-79,200-207",	"80-87,208-215",	"88-95,216-223",
	"96-103,224-231",	"104-111,232-239",	"112-119,240-247",
	"120-127,248-255",
};

const struct test_machine irq_spread_test_epyc = {
	.name = "EPYC 7763 2S 16N", .nr_cpus = 256, .nr_nodes = 16,
	.node_cpus = epyc_nodes, .distance = epyc_distance,
	.smt = 2, .smt_stride = 128,
};
EXPORT_SYMBOL_IF_KUNIT(irq_spread_test_epyc);

/* The seed's L3 domains are its nodes: one CCX per CCD, a CCD per node. */
const struct test_machine irq_spread_test_epyc_l3 = {
	.name = "EPYC 7763 2S 16N, L3 per CCX", .nr_cpus = 256, .nr_nodes = 16,
	.node_cpus = epyc_nodes, .distance = epyc_distance,
	.smt = 2, .smt_stride = 128,
	.l3_cpus = epyc_nodes, .nr_l3 = ARRAY_SIZE(epyc_nodes),
};
EXPORT_SYMBOL_IF_KUNIT(irq_spread_test_epyc_l3);

static const char * const epyc_nps1_nodes[] = {
	"0-63,128-191", "64-127,192-255",
};

/* The CCXs of NPS1 are the nodes of the 16-node layout above. */
const struct test_machine irq_spread_test_epyc_nps1 = {
	.name = "EPYC 7763 2S NPS1, L3 per CCX", .nr_cpus = 256, .nr_nodes = 2,
	.node_cpus = epyc_nps1_nodes, .remote = 32,
	.smt = 2, .smt_stride = 128,
	.l3_cpus = epyc_nodes, .nr_l3 = ARRAY_SIZE(epyc_nodes),
};
EXPORT_SYMBOL_IF_KUNIT(irq_spread_test_epyc_nps1);

static const char * const mana_nodes[] = { "0-7" };

const struct test_machine irq_spread_test_mana_vm = {
	.name = "MANA VM 4C SMT2", .nr_cpus = 8, .nr_nodes = 1,
	.node_cpus = mana_nodes, .smt = 2,
};
EXPORT_SYMBOL_IF_KUNIT(irq_spread_test_mana_vm);

static const char * const vm96_nodes[] = { "0-47", "48-95" };

const struct test_machine irq_spread_test_vm96 = {
	.name = "VM 96 vCPU 2N", .nr_cpus = 96, .nr_nodes = 2,
	.node_cpus = vm96_nodes, .remote = 20, .smt = 2,
};
EXPORT_SYMBOL_IF_KUNIT(irq_spread_test_vm96);

static const char * const xeon_nodes[] = { "0-13,28-41", "14-27,42-55" };

const struct test_machine irq_spread_test_xeon = {
	.name = "Xeon E5-2697 v3 2S", .nr_cpus = 56, .nr_nodes = 2,
	.node_cpus = xeon_nodes, .remote = 21,
	.smt = 2, .smt_stride = 28,
};
EXPORT_SYMBOL_IF_KUNIT(irq_spread_test_xeon);

/**
 * irq_spread_test_distance - the distance between two nodes of a machine
 * @m: the machine
 * @from: a node of @m
 * @to: a node of @m
 *
 * Return: the SLIT distance from @from to @to.
 */
int irq_spread_test_distance(const struct test_machine *m,
			     int from, int to)
{
	if (m->distance)
		return m->distance(from, to);
	return from == to ? 10 : m->remote;
}
EXPORT_SYMBOL_IF_KUNIT(irq_spread_test_distance);

static struct test_topo *to_test_topo(const struct irq_spread_topology *topo)
{
	return container_of(topo, struct test_topo, topo);
}

static int test_distance(const struct irq_spread_topology *topo, int from,
			 int to)
{
	return irq_spread_test_distance(to_test_topo(topo)->m, from, to);
}

static const unsigned long *test_node_cpus(const struct irq_spread_topology *topo,
					   int node)
{
	struct test_topo *t = to_test_topo(topo);

	/* A node without CPUs has none. */
	return bitmap_empty(t->node_cpus[node], t->m->nr_cpus) ?
		NULL : t->node_cpus[node];
}

static const unsigned long *test_sibling_cpus(const struct irq_spread_topology *topo,
					      unsigned int cpu)
{
	return to_test_topo(topo)->siblings[cpu];
}

static const unsigned long *test_llc_cpus(const struct irq_spread_topology *topo,
					  unsigned int cpu)
{
	return to_test_topo(topo)->llc[cpu];
}

static void test_eligible_cpus(const struct irq_spread_topology *topo,
			       unsigned long *dst)
{
	struct test_topo *t = to_test_topo(topo);

	bitmap_and(dst, t->online, t->housekeeping, topo->nr_cpus);
}

static void test_online_cpus(const struct irq_spread_topology *topo,
			     unsigned long *dst)
{
	bitmap_copy(dst, to_test_topo(topo)->online, topo->nr_cpus);
}

static int test_cpu_node(const struct irq_spread_topology *topo,
			 unsigned int cpu)
{
	return to_test_topo(topo)->cpu_node[cpu];
}

static const struct irq_spread_topology_ops test_topo_ops = {
	.distance	= test_distance,
	.node_cpus	= test_node_cpus,
	.sibling_cpus	= test_sibling_cpus,
	.eligible_cpus	= test_eligible_cpus,
	.online_cpus	= test_online_cpus,
	.cpu_node	= test_cpu_node,
};

/* A machine with its L3 domains. */
static const struct irq_spread_topology_ops test_topo_l3_ops = {
	.distance	= test_distance,
	.node_cpus	= test_node_cpus,
	.sibling_cpus	= test_sibling_cpus,
	.llc_cpus	= test_llc_cpus,
	.eligible_cpus	= test_eligible_cpus,
	.online_cpus	= test_online_cpus,
	.cpu_node	= test_cpu_node,
};

/**
 * irq_spread_test_bitmap - an empty bitmap of a machine's CPUs
 * @test: the test, which owns the bitmap
 * @t: the machine
 *
 * Fails @test if there is no memory.
 *
 * Return: the bitmap.
 */
unsigned long *irq_spread_test_bitmap(struct kunit *test,
				      const struct test_topo *t)
{
	unsigned long *b = kunit_kcalloc(test, t->longs, sizeof(long),
					 GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, b);
	return b;
}
EXPORT_SYMBOL_IF_KUNIT(irq_spread_test_bitmap);

/**
 * irq_spread_test_cpus - a bitmap of a machine's CPUs from a CPU list
 * @test: the test, which owns the bitmap
 * @t: the machine
 * @list: a CPU list as in sysfs ("0-3,8"); %NULL or "" for no CPU
 *
 * Fails @test if there is no memory or @list does not parse.
 *
 * Return: the bitmap.
 */
unsigned long *irq_spread_test_cpus(struct kunit *test,
				    const struct test_topo *t,
				    const char *list)
{
	unsigned long *b = irq_spread_test_bitmap(test, t);

	if (list)
		KUNIT_ASSERT_EQ(test, bitmap_parselist(list, b, t->m->nr_cpus), 0);
	return b;
}
EXPORT_SYMBOL_IF_KUNIT(irq_spread_test_cpus);

/**
 * irq_spread_test_load_sum - the vectors placed on a topology
 * @topo: an injected machine's topology, or the running system's
 *
 * Context: takes @topo's lock.
 * Return: the sum of the per-CPU load of every device and pool on @topo.
 */
unsigned int irq_spread_test_load_sum(struct irq_spread_topology *topo)
{
	unsigned int cpu, sum = 0;

	mutex_lock(&topo->lock);
	for (cpu = 0; topo->load && cpu < topo->nr_cpus; cpu++)
		sum += topo->load[cpu];
	mutex_unlock(&topo->lock);
	return sum;
}
EXPORT_SYMBOL_IF_KUNIT(irq_spread_test_load_sum);

static void test_kvfree(void *p)
{
	kvfree(p);
}

static void test_topo_siblings(struct kunit *test,
			       struct test_topo *t)
{
	const struct test_machine *m = t->m;
	unsigned int cpu, first, step, i;
	unsigned long *all;

	/* One allocation: a test's resources are few, its stubs found fast. */
	t->siblings = kunit_kcalloc(test, m->nr_cpus, sizeof(*t->siblings),
				    GFP_KERNEL);
	all = kvcalloc(array_size(m->nr_cpus, t->longs), sizeof(long),
		       GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, t->siblings);
	KUNIT_ASSERT_NOT_NULL(test, all);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, test_kvfree, all),
			0);
	for (cpu = 0; cpu < m->nr_cpus; cpu++) {
		if (m->smt_stride) {
			first = cpu % m->smt_stride;
			step = m->smt_stride;
		} else {
			first = cpu - cpu % m->smt;
			step = 1;
		}
		t->siblings[cpu] = all + cpu * t->longs;
		for (i = 0; i < m->smt; i++)
			__set_bit(first + i * step, t->siblings[cpu]);
	}
}

/* Each CPU's L3 domain, from @t->m->l3_cpus: every CPU in exactly one. */
static void test_topo_llc(struct kunit *test, struct test_topo *t)
{
	const struct test_machine *m = t->m;
	unsigned int k, cpu;
	unsigned long *l3;

	if (!m->l3_cpus)
		return;
	t->llc = kunit_kcalloc(test, m->nr_cpus, sizeof(*t->llc), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, t->llc);
	for (k = 0; k < m->nr_l3; k++) {
		l3 = irq_spread_test_cpus(test, t, m->l3_cpus[k]);
		for_each_set_bit(cpu, l3, m->nr_cpus) {
			KUNIT_ASSERT_NULL(test, t->llc[cpu]);
			t->llc[cpu] = l3;
		}
	}
	for (cpu = 0; cpu < m->nr_cpus; cpu++)
		KUNIT_ASSERT_NOT_NULL(test, t->llc[cpu]);
}

static void test_topo_destroy(void *topo)
{
	irq_spread_topology_destroy(topo);
}

/**
 * irq_spread_test_topo_new - build the topology of an injected machine
 * @test: the test, which owns the topology and destroys it when it ends
 * @m: the machine, which must outlive the test
 *
 * All of @m's CPUs are online and housekeeping, none is leaving, and no
 * vector is placed.
 * Fails @test if there is no memory or @m's CPU lists do not parse.
 *
 * Return: the machine's topology and state.
 */
struct test_topo *
irq_spread_test_topo_new(struct kunit *test,
			 const struct test_machine *m)
{
	struct test_topo *t;
	unsigned int node, cpu;

	t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, t);
	t->m = m;
	t->longs = BITS_TO_LONGS(m->nr_cpus);

	t->node_cpus = kunit_kcalloc(test, m->nr_nodes, sizeof(*t->node_cpus),
				     GFP_KERNEL);
	t->cpu_node = kunit_kcalloc(test, m->nr_cpus, sizeof(*t->cpu_node),
				    GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, t->node_cpus);
	KUNIT_ASSERT_NOT_NULL(test, t->cpu_node);
	for (node = 0; node < m->nr_nodes; node++) {
		t->node_cpus[node] = irq_spread_test_cpus(test, t,
							  m->node_cpus[node]);
		for_each_set_bit(cpu, t->node_cpus[node], m->nr_cpus)
			t->cpu_node[cpu] = node;
	}
	test_topo_siblings(test, t);
	test_topo_llc(test, t);

	t->online = irq_spread_test_bitmap(test, t);
	bitmap_fill(t->online, m->nr_cpus);
	t->housekeeping = irq_spread_test_bitmap(test, t);
	bitmap_fill(t->housekeeping, m->nr_cpus);

	KUNIT_ASSERT_EQ(test, irq_spread_topology_init(&t->topo,
						       m->l3_cpus ? &test_topo_l3_ops :
								    &test_topo_ops,
						       m->nr_cpus, m->nr_nodes,
						       t), 0);
	/* The device layer marks CPUs going offline here, as on the system. */
	t->topo.leaving = irq_spread_test_bitmap(test, t);
	t->topo.frozen = irq_spread_test_bitmap(test, t);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, test_topo_destroy,
							&t->topo), 0);
	return t;
}
EXPORT_SYMBOL_IF_KUNIT(irq_spread_test_topo_new);

MODULE_DESCRIPTION("Injected machines for the irq_spread KUnit suites");
MODULE_LICENSE("GPL");

static void test_unregister(void *sd)
{
	irq_spread_dev_unregister(sd);
}

/**
 * irq_spread_test_register - register a device for a test
 * @test: the test
 * @topo: the machine
 * @info: the registration; @info->dev is set to a new KUnit device
 * @name: the device's name, unique within the test
 *
 * The device is unregistered when the test ends, or sooner by
 * irq_spread_test_unregister().
 *
 * Return: the registered device; the test aborts on failure.
 */
struct irq_spread_dev *
irq_spread_test_register(struct kunit *test, struct irq_spread_topology *topo,
			 struct irq_spread_dev_info *info, const char *name)
{
	struct irq_spread_dev *sd;

	info->dev = kunit_device_register(test, name);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, info->dev);
	sd = irq_spread_dev_topo_register(topo, info);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, sd);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, test_unregister,
							sd), 0);
	return sd;
}
EXPORT_SYMBOL_IF_KUNIT(irq_spread_test_register);

/**
 * irq_spread_test_unregister - unregister a test's device now
 * @test: the test
 * @sd: what irq_spread_test_register() returned
 */
void irq_spread_test_unregister(struct kunit *test, struct irq_spread_dev *sd)
{
	kunit_release_action(test, test_unregister, sd);
}
EXPORT_SYMBOL_IF_KUNIT(irq_spread_test_unregister);

/**
 * irq_spread_test_vector_masks - a registered device's vectors' CPUs
 * @test: the test
 * @sd: the device
 * @nvec: how many of its vectors, from 0
 *
 * Return: irq_spread_dev_vector_mask() of each, ";" between them, "-" for a
 * vector without CPUs; test-managed memory.
 */
const char *irq_spread_test_vector_masks(struct kunit *test,
					 struct irq_spread_dev *sd,
					 unsigned int nvec)
{
	unsigned int n = sd->topo->nr_cpus, i;
	size_t size = nvec * 32 + 1;
	cpumask_var_t mask;
	char *buf;
	int len = 0;

	buf = kunit_kzalloc(test, size, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	KUNIT_ASSERT_TRUE(test, zalloc_cpumask_var(&mask, GFP_KERNEL));
	for (i = 0; i < nvec; i++) {
		if (irq_spread_dev_vector_mask(sd, i, mask))
			len += scnprintf(buf + len, size - len, "%s-",
					 i ? ";" : "");
		else
			len += scnprintf(buf + len, size - len, "%s%*pbl",
					 i ? ";" : "", n, cpumask_bits(mask));
	}
	free_cpumask_var(mask);
	return buf;
}
EXPORT_SYMBOL_IF_KUNIT(irq_spread_test_vector_masks);

/**
 * irq_spread_test_fail_nth - arm the kernel's fault injection for this task
 * @n: fail the @n-th allocation from now (as a write of @n to
 *	/proc/thread-self/fail-nth); 0 for none
 *
 * Context: the test's own task.
 */
void irq_spread_test_fail_nth(unsigned int n)
{
#ifdef CONFIG_FAULT_INJECTION
	current->fail_nth = n;
#endif
}
EXPORT_SYMBOL_IF_KUNIT(irq_spread_test_fail_nth);

/**
 * irq_spread_test_fail_nth_fired - whether the armed failure happened
 *
 * Disarms what is left of it.
 *
 * Return: true if the allocation irq_spread_test_fail_nth() armed failed.
 */
bool irq_spread_test_fail_nth_fired(void)
{
#ifdef CONFIG_FAULT_INJECTION
	unsigned int left = current->fail_nth;

	current->fail_nth = 0;
	return !left;
#else
	return false;
#endif
}
EXPORT_SYMBOL_IF_KUNIT(irq_spread_test_fail_nth_fired);

/**
 * irq_spread_test_fault_ready - skip unless allocations can be made to fail
 * @test: the test
 *
 * fail-nth fails only what failslab lets fail: with its ignore-gfp-wait
 * at its default, Y (and at boot, before user space can set it), no
 * GFP_KERNEL allocation.  Skips the test then, and on a kernel without
 * fault injection.
 */
void irq_spread_test_fault_ready(struct kunit *test)
{
	bool fired;
	long *p;

	if (!IS_ENABLED(CONFIG_FAULT_INJECTION))
		kunit_skip(test, "kernel without CONFIG_FAULT_INJECTION");
	irq_spread_test_fail_nth(1);
	p = kmalloc_obj(*p);
	fired = irq_spread_test_fail_nth_fired();
	kfree(p);
	if (!fired)
		kunit_skip(test, "GFP_KERNEL allocations cannot fail (failslab/ignore-gfp-wait)");
}
EXPORT_SYMBOL_IF_KUNIT(irq_spread_test_fault_ready);
