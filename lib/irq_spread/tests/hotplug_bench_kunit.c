// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit benchmark of irq_spread and CPU hotplug at 1024 to 8192 CPUs: 64
 * devices of 64 vectors, each with an interrupt, on a machine of 16 nodes
 * in two sockets, SMT2.  Prints, per machine size, the cost of one CPU
 * going offline and coming back (the library's callbacks), and its growth
 * per doubling of the CPUs; and the cost of a suspend and resume of every
 * CPU but the first against the cost of placing every vector once, on the
 * same machine in the same run.  Asserts nothing but that the devices
 * register and end where they began.
 *
 * The interrupt core is played by static stubs that take every affinity:
 * what is timed is the library's work, not the interrupts' moves.
 */
#include <kunit/static_stub.h>
#include <kunit/test.h>
#include <linux/device.h>
#include <linux/err.h>
#include <linux/irq_spread.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/slab.h>

#include "../device.h"
#include "machine.h"

MODULE_IMPORT_NS("EXPORTED_FOR_KUNIT_TESTING");

#define BENCH_NODES	16
#define BENCH_DEVICES	64
#define BENCH_VECTORS	64
#define BENCH_SIZES	4
#define BENCH_CPUS	8	/* CPUs taken offline and back, per round */
#define BENCH_ROUNDS	5	/* the fastest round counts */
#define BENCH_IRQ_BASE	10000

static const unsigned int bench_sizes[BENCH_SIZES] = { 1024, 2048, 4096, 8192 };

/* Two sockets of 8 nodes: 10 local, 12 within a socket, 32 across. */
static int bench_distance(int from, int to)
{
	if (from == to)
		return 10;
	return from / 8 == to / 8 ? 12 : 32;
}

/*
 * Each interrupt's affinity, as the library last set it: the mask it
 * gives stays valid and unchanged until its next (irq_spread_vec_set()).
 */
static const struct cpumask *bench_aff[BENCH_DEVICES * BENCH_VECTORS];
static unsigned int bench_nr_cpus;

static int bench_apply(unsigned int irq, const struct cpumask *mask)
{
	bench_aff[irq - BENCH_IRQ_BASE] = mask;
	return 0;
}

static void bench_hint(unsigned int irq, const struct cpumask *hint)
{
}

/* Every interrupt has the affinity the library gave it, placed. */
static int bench_get(unsigned int irq, struct cpumask *dst)
{
	const struct cpumask *aff = bench_aff[irq - BENCH_IRQ_BASE];

	if (!aff)
		return IRQ_PLACEMENT_NONE;
	bitmap_copy(cpumask_bits(dst), cpumask_bits(aff), bench_nr_cpus);
	return IRQ_PLACEMENT_PLACED;
}

static int bench_notifier(unsigned int irq, struct irq_affinity_notify *notify)
{
	return 0;
}

static int bench_placer(unsigned int irq, struct irq_affinity_placer *placer)
{
	return 0;
}

static void bench_unplace(unsigned int irq)
{
}

static bool bench_managed(unsigned int irq)
{
	return false;
}

/**
 * struct bench_run - one machine size and its devices
 * @t: the machine
 * @m: its description
 * @sds: their registrations
 */
struct bench_run {
	struct test_topo *t;
	struct test_machine m;
	struct irq_spread_dev *sds[BENCH_DEVICES];
};

/* Node n: cores n * c .. (n + 1) * c - 1 and their siblings, + cpus / 2. */
static void bench_machine(struct kunit *test, struct bench_run *r,
			  unsigned int cpus)
{
	unsigned int c = cpus / 2 / BENCH_NODES, n;
	char **lists;

	lists = kunit_kcalloc(test, BENCH_NODES, sizeof(*lists), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, lists);
	for (n = 0; n < BENCH_NODES; n++) {
		lists[n] = kunit_kzalloc(test, 32, GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, lists[n]);
		snprintf(lists[n], 32, "%u-%u,%u-%u", n * c, (n + 1) * c - 1,
			 cpus / 2 + n * c, cpus / 2 + (n + 1) * c - 1);
	}
	r->m = (struct test_machine){
		.name = "bench", .nr_cpus = cpus, .nr_nodes = BENCH_NODES,
		.node_cpus = (const char * const *)lists,
		.distance = bench_distance, .smt = 2, .smt_stride = cpus / 2,
	};
	r->t = irq_spread_test_topo_new(test, &r->m);
}

/* 64 devices of 64 vectors, device i on node i % 16, every vector attached. */
static void bench_devices(struct kunit *test, struct bench_run *r)
{
	static const enum irq_spread_policy policies[] = {
		IRQ_SPREAD_NUMA, IRQ_SPREAD_NUMA_CORE, IRQ_SPREAD_CORE,
	};
	struct irq_spread_dev_info info = { .nr_vectors = BENCH_VECTORS };
	unsigned int i, v, irq;
	char *name;

	for (i = 0; i < BENCH_DEVICES; i++) {
		/* kunit_device_register() keeps the name. */
		name = kunit_kzalloc(test, 40, GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, name);
		snprintf(name, 40, "irq_spread_hotplug_bench.%u.%u",
			 r->m.nr_cpus, i);
		info.node = i % BENCH_NODES;
		info.policy = policies[i % ARRAY_SIZE(policies)];
		r->sds[i] = irq_spread_test_register(test, &r->t->topo, &info,
						     name);
		for (v = 0; v < BENCH_VECTORS; v++) {
			irq = BENCH_IRQ_BASE + i * BENCH_VECTORS + v;
			KUNIT_ASSERT_EQ(test,
					irq_spread_dev_attach(r->sds[i], v, irq), 0);
		}
	}
}

/* The CPUs of every device's vectors, to compare before and after. */
static const char *bench_masks(struct kunit *test, struct bench_run *r)
{
	size_t size = BENCH_DEVICES * BENCH_VECTORS * 8, len = 0;
	char *buf = kunit_kzalloc(test, size, GFP_KERNEL);
	unsigned long *mask = irq_spread_test_bitmap(test, r->t);
	unsigned int i, v;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	for (i = 0; i < BENCH_DEVICES; i++) {
		for (v = 0; v < BENCH_VECTORS && len + 8 < size; v++) {
			irq_spread_dev_vector_mask(r->sds[i], v, to_cpumask(mask));
			len += scnprintf(buf + len, size - len, "%x ",
					 (unsigned int)find_first_bit(mask,
								      r->m.nr_cpus));
		}
	}
	return buf;
}

/* One CPU goes offline and comes back, as the hotplug callbacks run. */
static void bench_cpu_cycle(struct bench_run *r, unsigned int cpu)
{
	irq_spread_devs_cpu_offline(&r->t->topo, cpu);
	__clear_bit(cpu, r->t->online);
	__set_bit(cpu, r->t->online);
	irq_spread_devs_cpu_online(&r->t->topo, cpu);
}

/* The first CPU of every other node, each offline and back: ns per CPU. */
static u64 bench_hotplug(struct bench_run *r)
{
	unsigned int i, cpu, c = r->m.nr_cpus / 2 / BENCH_NODES;
	u64 ns = ktime_get_ns();

	for (i = 0; i < BENCH_CPUS; i++) {
		cpu = 2 * i * c;
		bench_cpu_cycle(r, cpu);
	}
	return div_u64(ktime_get_ns() - ns, BENCH_CPUS);
}

/*
 * A suspend and resume: every CPU but the first goes offline and comes
 * back while the system suspends, as the hotplug callbacks run; then the
 * system resumed.
 */
static u64 bench_suspend(struct bench_run *r)
{
	struct irq_spread_topology *topo = &r->t->topo;
	unsigned int cpu, n = r->m.nr_cpus;
	u64 ns = ktime_get_ns();

	for (cpu = n - 1; cpu > 0; cpu--) {
		irq_spread_devs_cpu_frozen(topo, cpu, true);
		__clear_bit(cpu, r->t->online);
	}
	for (cpu = 1; cpu < n; cpu++) {
		__set_bit(cpu, r->t->online);
		irq_spread_devs_cpu_frozen(topo, cpu, false);
	}
	irq_spread_devs_resumed(topo);
	return ktime_get_ns() - ns;
}

/* Every vector placed once: each device's spread by the engine, and released. */
static u64 bench_place_all(struct kunit *test, struct bench_run *r)
{
	size_t stride = BITS_TO_LONGS(r->m.nr_cpus);
	unsigned long *masks;
	unsigned int i;
	int ret;
	u64 ns;

	masks = kunit_kcalloc(test, BENCH_VECTORS * stride, sizeof(long),
			      GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, masks);
	ns = ktime_get_ns();
	for (i = 0; i < BENCH_DEVICES; i++) {
		ret = irq_spread_topo_spread(&r->t->topo, i % BENCH_NODES,
					     BENCH_VECTORS, r->sds[i]->policy,
					     NULL, masks, stride, 0);
		KUNIT_ASSERT_EQ(test, ret, 0);
		irq_spread_topo_release(&r->t->topo, BENCH_VECTORS, masks,
					stride);
	}
	return ktime_get_ns() - ns;
}

/*
 * The stubs, activated again: a stubbed call finds its stub among the
 * test's resources, newest first, so they go after the devices' before
 * anything is timed.
 */
static void bench_stubs(struct kunit *test, bool again)
{
	if (again) {
		kunit_deactivate_static_stub(test, irq_spread_irq_apply);
		kunit_deactivate_static_stub(test, irq_spread_irq_affinity);
		kunit_deactivate_static_stub(test, irq_spread_irq_place);
		kunit_deactivate_static_stub(test, irq_spread_irq_hint);
		kunit_deactivate_static_stub(test, irq_spread_irq_get);
		kunit_deactivate_static_stub(test, irq_spread_irq_notifier);
		kunit_deactivate_static_stub(test, irq_spread_irq_placer);
		kunit_deactivate_static_stub(test, irq_spread_irq_unplace);
		kunit_deactivate_static_stub(test, irq_spread_irq_managed);
	}
	kunit_activate_static_stub(test, irq_spread_irq_apply, bench_apply);
	kunit_activate_static_stub(test, irq_spread_irq_affinity, bench_apply);
	kunit_activate_static_stub(test, irq_spread_irq_place, bench_apply);
	kunit_activate_static_stub(test, irq_spread_irq_hint, bench_hint);
	kunit_activate_static_stub(test, irq_spread_irq_get, bench_get);
	kunit_activate_static_stub(test, irq_spread_irq_notifier, bench_notifier);
	kunit_activate_static_stub(test, irq_spread_irq_placer, bench_placer);
	kunit_activate_static_stub(test, irq_spread_irq_unplace, bench_unplace);
	kunit_activate_static_stub(test, irq_spread_irq_managed, bench_managed);
}

static void irq_spread_bench_hotplug(struct kunit *test)
{
	u64 cycle[BENCH_SIZES], place, suspend;
	struct bench_run *r;
	const char *before;
	unsigned int s, i;

	bench_stubs(test, false);
	for (s = 0; s < BENCH_SIZES; s++) {
		r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, r);
		memset(bench_aff, 0, sizeof(bench_aff));
		bench_nr_cpus = bench_sizes[s];
		bench_machine(test, r, bench_sizes[s]);
		bench_devices(test, r);
		before = bench_masks(test, r);
		bench_stubs(test, true);

		cycle[s] = U64_MAX;
		for (i = 0; i < BENCH_ROUNDS; i++)
			cycle[s] = min(cycle[s], bench_hotplug(r));
		KUNIT_EXPECT_STREQ(test, bench_masks(test, r), before);
		kunit_info(test, "%u CPUs, %u devices x %u vectors: one CPU offline and online %llu us",
			   bench_sizes[s], BENCH_DEVICES, BENCH_VECTORS,
			   div_u64(cycle[s], 1000));
		if (s)
			kunit_info(test, "  growth x%llu.%02llu from %u CPUs",
				   div64_u64(cycle[s], max(cycle[s - 1], 1ULL)),
				   div64_u64(cycle[s] * 100, max(cycle[s - 1], 1ULL)) % 100,
				   bench_sizes[s - 1]);
		if (s != BENCH_SIZES - 1)
			continue;

		place = bench_place_all(test, r);
		suspend = bench_suspend(r);
		KUNIT_EXPECT_STREQ(test, bench_masks(test, r), before);
		kunit_info(test, "%u CPUs: placing every vector once %llu us; suspend and resume of %u CPUs %llu us, ratio %llu.%02llu",
			   bench_sizes[s], div_u64(place, 1000), bench_sizes[s] - 1,
			   div_u64(suspend, 1000),
			   div64_u64(suspend, max(place, 1ULL)),
			   div64_u64(suspend * 100, max(place, 1ULL)) % 100);
	}
}

static struct kunit_case irq_spread_hotplug_bench_cases[] = {
	KUNIT_CASE_SLOW(irq_spread_bench_hotplug),
	{}
};

static struct kunit_suite irq_spread_hotplug_bench_suite = {
	.name = "irq_spread_hotplug_bench",
	.test_cases = irq_spread_hotplug_bench_cases,
};

kunit_test_suite(irq_spread_hotplug_bench_suite);

MODULE_DESCRIPTION("KUnit benchmark of irq_spread devices and CPU hotplug");
MODULE_LICENSE("GPL");
