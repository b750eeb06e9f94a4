/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Keep an RX queue's page pool on the NUMA node its NAPI instance polls on.
 *
 * When the administrator or an IRQ placement policy moves a queue's interrupt
 * to a CPU of another node, NAPI follows the interrupt, but the page pool
 * keeps handing out pages of the old node: every received packet then
 * crosses the interconnect.  Drivers open-coded the check before each poll;
 * this is the one shared copy.
 */
#ifndef _NET_PAGE_POOL_NAPI_RETARGET_H
#define _NET_PAGE_POOL_NAPI_RETARGET_H

#include <linux/compiler.h>
#include <linux/lockdep.h>
#include <linux/topology.h>
#include <net/page_pool/types.h>

/**
 * page_pool_napi_retarget() - move a page pool to the node NAPI runs on
 * @pool: the page pool of the RX queue being polled
 *
 * Call once at the start of each NAPI poll of the queue that owns @pool.
 * When the CPU running the poll belongs to another memory node than the one
 * @pool allocates from, make @pool allocate from the local node from now on
 * (page_pool_update_nid(): the pages in its allocation cache are released,
 * recycled pages of the old node are not reused).  When nothing changed,
 * this costs a per-CPU read and a compare.
 *
 * A pool created with %NUMA_NO_NODE is retargeted on its first poll, so that
 * later moves of the interrupt are seen as changes too.  Do not call it from
 * a netpoll poll (budget 0), which may run with hard interrupts disabled.
 *
 * Context: NAPI poll, or any context that owns the pool's allocation side
 * with bottom halves disabled (page_pool_update_nid() requires it).
 * Return: true if @pool was retargeted, false if it already allocated from
 * the local node.
 */
static inline bool page_pool_napi_retarget(struct page_pool *pool)
{
	int nid = numa_mem_id();

	if (likely(pool->p.nid == nid))
		return false;

	lockdep_assert_in_softirq();
	page_pool_update_nid(pool, nid);
	return true;
}

#endif /* _NET_PAGE_POOL_NAPI_RETARGET_H */
