/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A page pool whose memory follows its NAPI instance to the node it polls on.
 *
 * When the administrator or an IRQ placement policy (irq_spread) moves an RX
 * queue's interrupt to a CPU of another node, NAPI follows the interrupt,
 * but a page pool created for the old node keeps allocating there: every
 * packet then crosses the interconnect.  Drivers called
 * page_pool_nid_changed() before refilling their rings; a pool created with
 * %PP_FLAG_NAPI_NODE has page_pool.c do it for them, where the node is
 * used: when the allocation cache is empty and the pool refills from its
 * ring or from the page allocator.
 */
#ifndef _NET_CORE_PAGE_POOL_NAPI_H
#define _NET_CORE_PAGE_POOL_NAPI_H

#include <linux/compiler.h>
#include <linux/netdevice.h>
#include <linux/preempt.h>
#include <linux/smp.h>
#include <linux/topology.h>
#include <net/page_pool/types.h>

/**
 * page_pool_napi_node() - move a pool to the node its NAPI polls on
 * @pool: a page pool whose allocation cache is empty
 *
 * If @pool was created with %PP_FLAG_NAPI_NODE, its NAPI instance
 * (&page_pool_params.napi) is being polled on this CPU and this CPU's
 * memory node is not the pool's, make the pool allocate from this node from
 * now on, as page_pool_update_nid() does: pages of the old node found in the
 * ring are given back to the page allocator instead of being reused, new
 * pages come from this node.  A pool created with %NUMA_NO_NODE and the flag
 * gets the node of its NAPI the first time it refills there, so that later
 * refills from other contexts (the driver filling its ring at open) stay on
 * that node.
 *
 * The node is left alone when the pool allocates outside its NAPI: from
 * process context, from another CPU, in busy polling or threaded NAPI, as
 * page_pool_napi_local() allows no direct recycling there either: the CPU
 * that happens to allocate says nothing about where the queue is polled.
 *
 * Cost when nothing changed: a per-CPU read and a compare, on the refill
 * path only; the allocation fast path (a page from the cache) does not
 * change.  Without CONFIG_NUMA it compiles to nothing.
 *
 * Context: the pool's allocation side, which the caller owns (page_pool.c's
 * refill of the allocation cache, with the cache empty).
 */
static inline void page_pool_napi_node(struct page_pool *pool)
{
	const struct napi_struct *napi;
	int nid;

	if (!IS_ENABLED(CONFIG_NUMA))
		return;
	nid = numa_mem_id();
	if (likely(pool->p.nid == nid))
		return;
	if (!(pool->slow.flags & PP_FLAG_NAPI_NODE) || !in_softirq())
		return;
	napi = READ_ONCE(pool->p.napi);
	if (!napi || READ_ONCE(napi->list_owner) != smp_processor_id())
		return;
	/* The cache is empty: this only sets the node and traces it. */
	page_pool_update_nid(pool, nid);
}

#endif /* _NET_CORE_PAGE_POOL_NAPI_H */
