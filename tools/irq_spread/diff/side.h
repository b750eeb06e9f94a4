/* SPDX-License-Identifier: GPL-2.0 */
/*
 * irq_spread differential run: one side, an engine built from one tree
 * (tools/irq_spread/diff/run.sh).  side.c is compiled against each tree
 * and linked with that tree's libirq_spread.a; run.sh then renames every
 * symbol the side defines to old_NAME or new_NAME, so that both engines
 * live in one program, each with its own machine, topology and compat
 * state.  The driver (diff_engine.c) reaches a side through its
 * side_api alone, old_side_api or new_side_api, in plain C types.
 */
#ifndef _IRQ_SPREAD_DIFF_SIDE_H
#define _IRQ_SPREAD_DIFF_SIDE_H

#include <stdbool.h>
#include <stddef.h>

/* Flags of &side_api.spread, mapped to the engine's IRQ_SPREAD_* ones. */
#define SIDE_SLOT_ONLY		1U	/* IRQ_SPREAD_SLOT_ONLY */
#define SIDE_NO_HOLD		2U	/* IRQ_SPREAD_NO_HOLD */
#define SIDE_UNKNOWN_FLAG	4U	/* a flag no engine knows */

struct side;

/**
 * struct side_api - what the driver may ask of a side
 * @create: the machine the fuzzer's generator (build_machine() of the
 *	side's fuzz/fuzz_engine.c) makes of @bytes, through the side's
 *	machine.c, and its topology; %NULL if it cannot
 * @destroy: free what @create made
 * @nr_cpus: the machine's CPUs
 * @nr_nodes: the machine's nodes
 * @describe: the machine as text, malloc()ed: both sides' must be equal
 * @spread: irq_spread_topo_spread(), with SIDE_* @flags
 * @nth_cpu: irq_spread_topo_nth_cpu()
 * @release: irq_spread_topo_release()
 * @hold: irq_spread_topo_hold()
 * @set_leaving: the CPUs on their way offline (the topology's leaving
 *	mask, copied); %NULL for none
 * @load: the topology's load of @cpu (0 before the first spread)
 * @set_online: take @cpu offline or bring it online, as CPU hotplug does:
 *	the eligible CPUs follow, and the sibling masks of its core's CPUs
 *	hold the core's online CPUs (an offline CPU's, itself alone); a CPU
 *	of no known core stays as it is
 * @pool_create: irq_spread_pool_topo_create() of the side's one pool, of
 *	vectors 0 to @nr_vectors - 1, whose request callback gives interrupt
 *	1000 + vector; 0 or its error
 * @pool_destroy: irq_spread_pool_destroy() of it, if there is one
 * @pool_get: irq_spread_pool_get() of it
 * @pool_put: irq_spread_pool_put() of it
 * @pool_vector: vector @v of it: its users, its CPUs into @mask
 * @pool_cpu: CPU hotplug as the device layer sees it: going offline, @cpu
 *	leaving, then @set_online; coming online, @set_online (pools are not
 *	told: the interrupt core asks them)
 */
struct side_api {
	struct side *(*create)(const unsigned char *bytes, size_t len);
	void (*destroy)(struct side *s);
	unsigned int (*nr_cpus)(const struct side *s);
	unsigned int (*nr_nodes)(const struct side *s);
	char *(*describe)(const struct side *s);
	int (*spread)(struct side *s, int node, unsigned int nvec, int policy,
		      const unsigned long *exclude, unsigned long *masks,
		      size_t stride, unsigned int flags);
	int (*nth_cpu)(struct side *s, int node, unsigned int index,
		       int policy);
	void (*release)(struct side *s, unsigned int nvec,
			const unsigned long *masks, size_t stride);
	void (*hold)(struct side *s, unsigned int nvec,
		     const unsigned long *masks, size_t stride);
	void (*set_leaving)(struct side *s, const unsigned long *leaving);
	unsigned int (*load)(const struct side *s, unsigned int cpu);
	void (*set_online)(struct side *s, unsigned int cpu, bool online);
	int (*pool_create)(struct side *s, int node, int policy,
			   unsigned int nr_vectors, unsigned int max_users);
	void (*pool_destroy)(struct side *s);
	int (*pool_get)(struct side *s, const unsigned long *cpus);
	int (*pool_put)(struct side *s, unsigned int vector);
	unsigned int (*pool_vector)(const struct side *s, unsigned int v,
				    unsigned long *mask);
	void (*pool_cpu)(struct side *s, unsigned int cpu, bool online);
};

/* side.c's; old_side_api and new_side_api once run.sh renamed them. */
extern const struct side_api side_api;
extern const struct side_api old_side_api, new_side_api;

#endif /* _IRQ_SPREAD_DIFF_SIDE_H */
