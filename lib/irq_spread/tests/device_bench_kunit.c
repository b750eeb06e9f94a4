// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit benchmark of irq_spread device registration: 250 devices of 8
 * vectors each (mlx5 SFs probing at once), registered by one thread, then
 * by four at the same time, on the injected 56-CPU Xeon.  Prints the times
 * and their ratio; asserts nothing but that every registration works.
 * With one lock per device, four threads share only the list's lock (a
 * first placement and a list entry per device) and the engine's (the
 * per-CPU load): on a machine with four CPUs to spare the ratio shows how
 * much of a registration runs in parallel.  Under UML, one CPU, it is
 * about 1.
 */
#include <kunit/device.h>
#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/device.h>
#include <linux/err.h>
#include <linux/irq_spread.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/minmax.h>

#include "../device.h"
#include "../pool.h"
#include "machine.h"

MODULE_IMPORT_NS("EXPORTED_FOR_KUNIT_TESTING");

#define BENCH_DEVICES	250
#define BENCH_VECTORS	8
#define BENCH_THREADS	4
#define BENCH_ROUNDS	3

/**
 * struct bench_part - the devices one thread registers
 * @topo: the machine
 * @devs: every device
 * @sds: their registrations
 * @first: the first device of the part
 * @last: one past its last
 * @err: the first registration's error, or 0
 * @done: the part is registered
 */
struct bench_part {
	struct irq_spread_topology *topo;
	struct device **devs;
	struct irq_spread_dev **sds;
	unsigned int first;
	unsigned int last;
	int err;
	struct completion done;
};

static int bench_register(void *data)
{
	struct bench_part *p = data;
	struct irq_spread_dev_info info = {
		.nr_vectors = BENCH_VECTORS,
		.policy = IRQ_SPREAD_NUMA,
	};
	struct irq_spread_dev *sd;
	unsigned int i;

	for (i = p->first; i < p->last; i++) {
		info.dev = p->devs[i];
		info.node = i % 2;
		sd = irq_spread_dev_topo_register(p->topo, &info);
		if (IS_ERR(sd)) {
			p->err = PTR_ERR(sd);
			break;
		}
		p->sds[i] = sd;
	}
	complete(&p->done);
	return 0;
}

/* Register every device with @nr_threads threads; the time it took, in ns. */
static u64 bench_round(struct kunit *test, struct irq_spread_topology *topo,
		       struct device **devs, struct irq_spread_dev **sds,
		       unsigned int nr_threads)
{
	struct bench_part part[BENCH_THREADS];
	struct task_struct *task;
	unsigned int i;
	u64 ns;

	for (i = 0; i < nr_threads; i++) {
		part[i] = (struct bench_part){
			.topo = topo, .devs = devs, .sds = sds,
			.first = BENCH_DEVICES * i / nr_threads,
			.last = BENCH_DEVICES * (i + 1) / nr_threads,
		};
		init_completion(&part[i].done);
	}
	ns = ktime_get_ns();
	for (i = 0; i < nr_threads; i++) {
		task = kthread_run(bench_register, &part[i], "irq_spread_bench/%u",
				   i);
		if (IS_ERR(task))
			bench_register(&part[i]);
	}
	for (i = 0; i < nr_threads; i++)
		wait_for_completion(&part[i].done);
	ns = ktime_get_ns() - ns;

	for (i = 0; i < nr_threads; i++)
		KUNIT_EXPECT_EQ(test, part[i].err, 0);
	for (i = 0; i < BENCH_DEVICES; i++) {
		irq_spread_dev_unregister(sds[i]);
		sds[i] = NULL;
	}
	return ns;
}

static void irq_spread_dev_bench_register(struct kunit *test)
{
	struct test_topo *t = irq_spread_test_topo_new(test, &irq_spread_test_xeon);
	u64 serial = U64_MAX, threads = U64_MAX;
	struct irq_spread_dev **sds;
	struct device **devs;
	unsigned int i, r;
	char name[32];

	devs = kunit_kcalloc(test, BENCH_DEVICES, sizeof(*devs), GFP_KERNEL);
	sds = kunit_kcalloc(test, BENCH_DEVICES, sizeof(*sds), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, devs);
	KUNIT_ASSERT_NOT_NULL(test, sds);
	for (i = 0; i < BENCH_DEVICES; i++) {
		snprintf(name, sizeof(name), "irq_spread_bench.%u", i);
		devs[i] = kunit_device_register(test, name);
		KUNIT_ASSERT_NOT_ERR_OR_NULL(test, devs[i]);
	}

	/* Best of a few rounds each, taken in turn. */
	for (r = 0; r < BENCH_ROUNDS; r++) {
		serial = min(serial, bench_round(test, &t->topo, devs, sds, 1));
		threads = min(threads, bench_round(test, &t->topo, devs, sds,
						   BENCH_THREADS));
	}
	KUNIT_EXPECT_EQ(test, irq_spread_test_load_sum(&t->topo), 0);

	kunit_info(test, "%u devices x %u vectors, %u CPUs: 1 thread %llu us, %u threads %llu us, ratio %llu.%02llu, %u CPUs online\n",
		   BENCH_DEVICES, BENCH_VECTORS, irq_spread_test_xeon.nr_cpus,
		   div_u64(serial, 1000), BENCH_THREADS, div_u64(threads, 1000),
		   div64_u64(serial, max(threads, 1ULL)),
		   div64_u64(serial * 100, max(threads, 1ULL)) % 100,
		   num_online_cpus());
}

static struct kunit_case irq_spread_dev_bench_cases[] = {
	KUNIT_CASE_SLOW(irq_spread_dev_bench_register),
	{}
};

static struct kunit_suite irq_spread_dev_bench_suite = {
	.name = "irq_spread_device_bench",
	.test_cases = irq_spread_dev_bench_cases,
};

kunit_test_suite(irq_spread_dev_bench_suite);

MODULE_DESCRIPTION("KUnit benchmark of irq_spread device registration");
MODULE_LICENSE("GPL");
