// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * MR pools of a QP: a storage consumer registers each request's pages
 * with a fast-registration MR, and allocating one per request would put a
 * driver round trip on its data path.  It allocates a QP's worth up front
 * onto one of the QP's lists (qp->rdma_mrs, qp->sig_mrs), takes one per
 * request and gives it back on completion.  The lists and qp->mrs_used are
 * under qp->mr_lock, taken with interrupts off: gets and puts come from
 * completion handlers in any context.
 */
#include <linux/list.h>
#include <linux/module.h>
#include "core_priv.h"

struct ib_mr *ib_mr_pool_get(struct ib_qp *qp, struct list_head *list)
{
	struct ib_mr *mr;
	unsigned long flags;

	spin_lock_irqsave(&qp->mr_lock, flags);
	mr = list_first_entry_or_null(list, struct ib_mr, qp_entry);
	if (mr) {
		list_del(&mr->qp_entry);
		qp->mrs_used++;
	}
	spin_unlock_irqrestore(&qp->mr_lock, flags);
	return mr;
}
EXPORT_SYMBOL(ib_mr_pool_get);

void ib_mr_pool_put(struct ib_qp *qp, struct list_head *list,
		    struct ib_mr *mr)
{
	unsigned long flags;

	spin_lock_irqsave(&qp->mr_lock, flags);
	list_add(&mr->qp_entry, list);
	qp->mrs_used--;
	spin_unlock_irqrestore(&qp->mr_lock, flags);
}
EXPORT_SYMBOL(ib_mr_pool_put);

/* Deregistration may sleep: each MR leaves the list under the lock first. */
void ib_mr_pool_destroy(struct ib_qp *qp, struct list_head *list)
{
	struct ib_mr *mr;
	unsigned long flags;
	int ret;

	for (;;) {
		spin_lock_irqsave(&qp->mr_lock, flags);
		mr = list_first_entry_or_null(list, struct ib_mr, qp_entry);
		if (mr)
			list_del(&mr->qp_entry);
		spin_unlock_irqrestore(&qp->mr_lock, flags);
		if (!mr)
			break;
		ret = ib_dereg_mr(mr);
		WARN_ONCE(ret, "%s: %s: %d\n", ib_device_name(qp->device),
			  __func__, ret);
	}
}
EXPORT_SYMBOL(ib_mr_pool_destroy);

int ib_mr_pool_init(struct ib_qp *qp, struct list_head *list, int nr,
		    enum ib_mr_type type, u32 max_num_sg, u32 max_num_meta_sg)
{
	struct ib_mr *mr;
	unsigned long flags;
	int i;

	if (type == IB_MR_TYPE_INTEGRITY)
		return -EOPNOTSUPP;	/* no signature offload here */
	for (i = 0; i < nr; i++) {
		mr = ib_alloc_mr(qp->pd, type, max_num_sg);
		if (IS_ERR(mr)) {
			ib_mr_pool_destroy(qp, list);
			return PTR_ERR(mr);
		}
		spin_lock_irqsave(&qp->mr_lock, flags);
		list_add_tail(&mr->qp_entry, list);
		spin_unlock_irqrestore(&qp->mr_lock, flags);
	}
	return 0;
}
EXPORT_SYMBOL(ib_mr_pool_init);
