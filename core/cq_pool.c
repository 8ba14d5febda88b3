// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Shared CQs: a storage consumer opens a few queues per CPU per
 * controller, and a CQ (with its polling work) per queue would multiply
 * interrupts and work items for nothing.  Each device keeps, per poll
 * context, a list of big CQs; a queue takes room for its completions on
 * one of them (ib_cq_pool_get) and gives it back (ib_cq_pool_put).  The
 * room is bookkeeping only: the CQ stays until the device is unregistered
 * (ib_cq_pool_cleanup), when its consumers are gone.  The lists and each
 * cq->cqe_used are under dev->cq_pools_lock.
 */
#include <linux/cpumask.h>
#include <linux/list.h>
#include <linux/minmax.h>
#include <linux/module.h>
#include "core_priv.h"

/* Capacity of a pool CQ, unless the device allows less or a queue asks more. */
#define IB_CQ_POOL_CQE		4096

/* Where the next queue without a preference goes. */
static atomic_t ib_cq_pool_next_vector = ATOMIC_INIT(0);

static unsigned int ib_cq_pool_vectors(const struct ib_device *dev)
{
	return max(1U, min_t(unsigned int, dev->num_comp_vectors,
			     num_online_cpus()));
}

/* A CQ of @pool on @vector with room for @nr_cqe, that room taken. */
static struct ib_cq *ib_cq_pool_take(struct ib_device *dev,
				     struct list_head *pool, u32 vector,
				     unsigned int nr_cqe)
{
	struct ib_cq *cq, *found = NULL;
	unsigned long flags;

	spin_lock_irqsave(&dev->cq_pools_lock, flags);
	list_for_each_entry(cq, pool, pool_entry) {
		if (cq->comp_vector == vector &&
		    cq->cqe_used + nr_cqe <= (unsigned int)cq->cqe) {
			cq->cqe_used += nr_cqe;
			found = cq;
			break;
		}
	}
	spin_unlock_irqrestore(&dev->cq_pools_lock, flags);
	return found;
}

/* One more CQ per vector in @pool, big enough for @nr_cqe at least. */
static int ib_cq_pool_grow(struct ib_device *dev, struct list_head *pool,
			   unsigned int nr_cqe, enum ib_poll_context poll_ctx)
{
	unsigned int vectors = ib_cq_pool_vectors(dev), i;
	int cqe = max_t(int, nr_cqe,
			min_t(int, dev->attrs.max_cqe, IB_CQ_POOL_CQE));
	struct ib_cq *cq, *next;
	unsigned long flags;
	LIST_HEAD(fresh);

	for (i = 0; i < vectors; i++) {
		cq = ib_alloc_cq(dev, NULL, cqe, i, poll_ctx);
		if (IS_ERR(cq))
			goto err;
		cq->comp_vector = i;
		cq->shared = true;
		list_add_tail(&cq->pool_entry, &fresh);
	}
	spin_lock_irqsave(&dev->cq_pools_lock, flags);
	list_splice_tail(&fresh, pool);
	spin_unlock_irqrestore(&dev->cq_pools_lock, flags);
	return 0;

err:
	list_for_each_entry_safe(cq, next, &fresh, pool_entry) {
		cq->shared = false;
		ib_free_cq(cq);
	}
	return PTR_ERR(cq);
}

struct ib_cq *ib_cq_pool_get(struct ib_device *dev, unsigned int nr_cqe,
			     int comp_vector_hint,
			     enum ib_poll_context poll_ctx)
{
	struct list_head *pool;
	struct ib_cq *cq;
	u32 vector;
	int ret;

	if (poll_ctx < IB_POLL_SOFTIRQ || poll_ctx > IB_POLL_UNBOUND_WORKQUEUE ||
	    !nr_cqe)
		return ERR_PTR(-EINVAL);
	pool = &dev->cq_pools[IB_CQ_POOL_INDEX(poll_ctx)];
	if (comp_vector_hint < 0)
		comp_vector_hint = atomic_inc_return(&ib_cq_pool_next_vector) &
				   INT_MAX;
	vector = comp_vector_hint % ib_cq_pool_vectors(dev);

	/* Another get may take the room we grew first: then grow again. */
	while (!(cq = ib_cq_pool_take(dev, pool, vector, nr_cqe))) {
		ret = ib_cq_pool_grow(dev, pool, nr_cqe, poll_ctx);
		if (ret)
			return ERR_PTR(ret);
	}
	return cq;
}
EXPORT_SYMBOL(ib_cq_pool_get);

void ib_cq_pool_put(struct ib_cq *cq, unsigned int nr_cqe)
{
	unsigned long flags;

	spin_lock_irqsave(&cq->device->cq_pools_lock, flags);
	if (!WARN_ONCE(nr_cqe > cq->cqe_used, "%s: CQ pool put of %u, %u used\n",
		       ib_device_name(cq->device), nr_cqe, cq->cqe_used))
		cq->cqe_used -= nr_cqe;
	spin_unlock_irqrestore(&cq->device->cq_pools_lock, flags);
}
EXPORT_SYMBOL(ib_cq_pool_put);

void ib_cq_pools_init(struct ib_device *dev)
{
	int i;

	spin_lock_init(&dev->cq_pools_lock);
	for (i = 0; i < IB_CQ_POOLS; i++)
		INIT_LIST_HEAD(&dev->cq_pools[i]);
}

/* Unregistration, after the clients: nobody uses the pools any more. */
void ib_cq_pool_cleanup(struct ib_device *dev)
{
	struct ib_cq *cq, *next;
	LIST_HEAD(all);
	int i;

	spin_lock_irq(&dev->cq_pools_lock);
	for (i = 0; i < IB_CQ_POOLS; i++)
		list_splice_init(&dev->cq_pools[i], &all);
	spin_unlock_irq(&dev->cq_pools_lock);
	list_for_each_entry_safe(cq, next, &all, pool_entry) {
		WARN_ONCE(cq->cqe_used, "%s: pool CQ freed with %u CQEs taken\n",
			  ib_device_name(dev), cq->cqe_used);
		list_del(&cq->pool_entry);
		cq->shared = false;
		ib_free_cq(cq);
	}
}
