// SPDX-License-Identifier: GPL-2.0
/* Takes pages from an RX queue's page pool and gives them back. */

#include <linux/debugfs.h>
#include <linux/netdevice.h>
#include <linux/topology.h>
#include <net/page_pool/helpers.h>

#include "netdevsim.h"
#include "irq.h"

/* The node of the CPU the queue's IRQ points to: the first poll's. */
int nsim_queue_page_pool_nid(struct netdevsim *ns, unsigned int queue)
{
	int cpu = nsim_queue_irq_cpu(ns, queue);

	return cpu < 0 ? NUMA_NO_NODE : cpu_to_mem(cpu);
}

/* A netpoll poll (budget 0) may run with interrupts off: no pages then. */
void nsim_rq_poll_done(struct nsim_rq *rq, int done, int budget)
{
	struct nsim_rx_consumer *rx = nsim_rq_consumer(rq);
	struct page_pool *pool = rq->page_pool;
	struct page *page;
	int nid, i;

	if (!budget || !rx || !pool)
		return;

	nid = pool->p.nid;
	spin_lock(&rx->lock);
	for (i = 0; i < done; i++) {
		page = page_pool_dev_alloc_pages(pool);
		if (!page)
			break;
		WRITE_ONCE(rx->page_nid, page_to_nid(page));
		if (rx->nheld < NSIM_RX_HELD)
			rx->held[rx->nheld++] = page;
		else
			page_pool_recycle_direct(pool, page);
	}
	spin_unlock(&rx->lock);

	if (pool->p.nid != nid)
		WRITE_ONCE(rx->retargets, rx->retargets + 1);
	if (i)
		schedule_work(&rx->work);
}

static void nsim_rx_consumer_work(struct work_struct *work)
{
	struct nsim_rx_consumer *rx = container_of(work, struct nsim_rx_consumer,
						   work);
	struct page *held[NSIM_RX_HELD];
	unsigned int i, n;

	spin_lock_bh(&rx->lock);
	n = rx->nheld;
	memcpy(held, rx->held, n * sizeof(*held));
	rx->nheld = 0;
	spin_unlock_bh(&rx->lock);

	for (i = 0; i < n; i++)
		page_pool_put_full_page(pp_page_to_nmdesc(held[i])->pp,
					held[i], false);
}

void nsim_rx_consumer_init(struct nsim_rx_consumer *rx)
{
	spin_lock_init(&rx->lock);
	INIT_WORK(&rx->work, nsim_rx_consumer_work);
	rx->page_nid = NUMA_NO_NODE;
}

/* NAPI is gone: give back what the consumer still holds. */
void nsim_rx_consumer_fini(struct nsim_rx_consumer *rx)
{
	cancel_work_sync(&rx->work);
	nsim_rx_consumer_work(&rx->work);
}

static int nsim_rx_page_nid_get(void *data, u64 *val)
{
	struct nsim_rx_consumer *rx = data;

	*val = (s64)READ_ONCE(rx->page_nid);
	return 0;
}

DEFINE_DEBUGFS_ATTRIBUTE(nsim_rx_page_nid_fops, nsim_rx_page_nid_get, NULL,
			 "%lld\n");

void nsim_rx_consumer_debugfs(struct nsim_rx_consumer *rx, struct dentry *dir)
{
	debugfs_create_u64("retargets", 0400, dir, &rx->retargets);
	debugfs_create_file_unsafe("page_nid", 0400, dir, rx,
				   &nsim_rx_page_nid_fops);
}
