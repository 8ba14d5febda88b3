// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Shared receive queues.  The ring of receive WQEs is shared with librxe,
 * which produces into it; the responders of every QP attached to the SRQ
 * consume from it with rxe_srq_take(), serialized by srq->lock.
 *
 * The limit: once armed (modify_srq IB_SRQ_LIMIT, or srq_limit at create)
 * the take that leaves fewer than @limit WQEs disarms it and raises
 * IB_EVENT_SRQ_LIMIT_REACHED.
 *
 * Resize (IB_SRQ_MAX_WR): librxe holds its producer lock across the
 * command and passes, in struct rxe_modify_srq_cmd, the address where we
 * write the new ring's struct mminfo; it then unmaps the old ring and
 * maps the new one.  The unconsumed WQEs move to the new ring.
 *
 * Limits and errnos follow in-tree rxe: max_wr in [1, max_srq_wr] and
 * max_sge up to max_srq_sge (-EINVAL), types other than basic
 * (-EOPNOTSUPP), a limit above the ring's capacity (-EINVAL).
 */
#include <linux/uaccess.h>
#include "rxe_loc.h"

static size_t rxe_srq_wqe_size(unsigned int max_sge)
{
	return sizeof(struct rxe_recv_wqe) + max_sge * sizeof(struct rxe_sge);
}

int rxe_create_srq(struct ib_srq *ibsrq, struct ib_srq_init_attr *init,
		   struct ib_udata *udata)
{
	struct rxe_dev *rxe = to_rdev(ibsrq->device);
	struct rxe_srq *srq = to_rsrq(ibsrq);
	struct ib_srq_attr *attr = &init->attr;
	struct rxe_create_srq_resp resp = {};
	unsigned int num;
	int ret;

	/* nobody in the kernel could post to a kernel SRQ */
	if (!udata || !udata->uctx)
		return -EOPNOTSUPP;
	if (udata->outlen < sizeof(resp))
		return -EINVAL;
	if (init->srq_type != IB_SRQT_BASIC)
		return -EOPNOTSUPP;
	if (!attr->max_wr || attr->max_wr > rxe->attr.max_srq_wr ||
	    attr->max_sge > rxe->attr.max_srq_sge ||
	    attr->srq_limit > attr->max_wr)
		return -EINVAL;

	srq->rxe = rxe;
	spin_lock_init(&srq->lock);
	refcount_set(&srq->ref, 1);
	init_completion(&srq->released);
	srq->max_sge = max_t(u32, attr->max_sge, 1);
	srq->limit = attr->srq_limit;

	if (rxe_table_alloc(&rxe->srq_table, &srq->index))
		return -EINVAL;	/* in-tree's errno for "too many" */

	num = attr->max_wr;
	srq->queue = rxe_queue_alloc(udata->uctx, &num,
				     rxe_srq_wqe_size(srq->max_sge),
				     RXE_QUEUE_FROM_USER);
	if (IS_ERR(srq->queue)) {
		ret = PTR_ERR(srq->queue);
		srq->queue = NULL;
		goto err_index;
	}
	srq->max_wr = num;

	rxe_queue_mminfo(srq->queue, &resp.mi);
	resp.srq_num = srq->index;
	if (copy_to_user(udata->outbuf, &resp, sizeof(resp))) {
		ret = -EFAULT;
		goto err_queue;
	}

	/* what was really made */
	attr->max_wr = srq->max_wr;
	attr->max_sge = srq->max_sge;

	rxe_table_publish(&rxe->srq_table, srq->index, srq);
	return 0;

err_queue:
	rxe_queue_free(srq->queue);
	srq->queue = NULL;
err_index:
	rxe_table_remove(&rxe->srq_table, srq->index);
	return ret;
}

/*
 * Resize: the new ring is made and its place told to librxe (a
 * copy_to_user() that may fault, and wait, for as long as userspace
 * likes) before any lock is taken; then, under the SRQ's own lock, the
 * checks against the SRQ as it is now, the move of the waiting WQEs and
 * the swap, all or nothing.  That lock is all the SRQ's state has (the
 * responders take WQEs under it), so modifies of one SRQ need no other
 * and those of different SRQs never wait for each other.  A modify that
 * fails after the copy leaves the SRQ as it was: librxe maps the new ring
 * only when the command succeeds.
 */
int rxe_modify_srq(struct ib_srq *ibsrq, struct ib_srq_attr *attr, int mask,
		   struct ib_udata *udata)
{
	struct rxe_dev *rxe = to_rdev(ibsrq->device);
	struct rxe_srq *srq = to_rsrq(ibsrq);
	struct rxe_modify_srq_cmd cmd = {};
	struct rxe_queue *q = NULL;
	unsigned int num = 0;
	unsigned long flags;
	struct mminfo mi;
	u32 limit;
	int ret;

	if (mask & ~(IB_SRQ_MAX_WR | IB_SRQ_LIMIT))
		return -EINVAL;
	if (udata && udata->inlen) {
		if (udata->inlen < sizeof(cmd))
			return -EINVAL;
		if (copy_from_user(&cmd, udata->inbuf, sizeof(cmd)))
			return -EFAULT;
	}
	if (mask & IB_SRQ_MAX_WR) {
		if (!attr->max_wr || attr->max_wr > rxe->attr.max_srq_wr)
			return -EINVAL;
		/* without librxe's command there is nowhere to say where */
		if (!udata || !udata->uctx || !cmd.mmap_info_addr)
			return -EINVAL;
	}
	if ((mask & IB_SRQ_LIMIT) && attr->srq_limit > rxe->attr.max_srq_wr)
		return -EINVAL;

	if (mask & IB_SRQ_MAX_WR) {
		/* max_sge, hence the slot size, is the SRQ's for life */
		num = attr->max_wr;
		q = rxe_queue_alloc(udata->uctx, &num,
				    rxe_srq_wqe_size(srq->max_sge),
				    RXE_QUEUE_FROM_USER);
		if (IS_ERR(q))
			return PTR_ERR(q);
		/* librxe's ABI: the new ring's place goes to this address */
		rxe_queue_mminfo(q, &mi);
		if (copy_to_user(u64_to_user_ptr(cmd.mmap_info_addr), &mi,
				 sizeof(mi))) {
			rxe_queue_free(q);
			return -EFAULT;
		}
	}

	ret = -EINVAL;
	spin_lock_irqsave(&srq->lock, flags);
	limit = mask & IB_SRQ_LIMIT ? attr->srq_limit : srq->limit;
	if (q) {
		/* the new ring must still hold the armed limit */
		if (limit && attr->max_wr < limit)
			goto unlock;
		/* and the WQEs waiting */
		if (rxe_queue_move(q, srq->queue))
			goto unlock;
		swap(q, srq->queue);	/* the old one is freed below */
		srq->max_wr = num;
	} else if (limit > srq->max_wr) {
		goto unlock;
	}
	srq->limit = limit;
	ret = 0;
unlock:
	spin_unlock_irqrestore(&srq->lock, flags);

	rxe_queue_free(q);
	if (!ret && (mask & IB_SRQ_MAX_WR))
		attr->max_wr = num;
	return ret;
}

int rxe_query_srq(struct ib_srq *ibsrq, struct ib_srq_attr *attr)
{
	struct rxe_srq *srq = to_rsrq(ibsrq);
	unsigned long flags;

	spin_lock_irqsave(&srq->lock, flags);
	attr->max_wr = srq->max_wr;
	attr->max_sge = srq->max_sge;
	attr->srq_limit = srq->limit;
	spin_unlock_irqrestore(&srq->lock, flags);
	return 0;
}

int rxe_destroy_srq(struct ib_srq *ibsrq, struct ib_udata *udata)
{
	struct rxe_srq *srq = to_rsrq(ibsrq);

	/* the core checks this too; QPs take WQEs from it while attached */
	if (atomic_read(&ibsrq->usecnt))
		return -EBUSY;

	rxe_table_remove(&srq->rxe->srq_table, srq->index);
	if (!refcount_dec_and_test(&srq->ref))
		wait_for_completion(&srq->released);
	rxe_queue_free(srq->queue);
	srq->queue = NULL;
	return 0;
}

int rxe_srq_take(struct rxe_srq *srq, struct rxe_recv_wqe *wqe,
		 size_t max_len)
{
	struct ib_event ev = {
		.device = srq->ibsrq.device,
		.event = IB_EVENT_SRQ_LIMIT_REACHED,
		.srq = &srq->ibsrq,
	};
	const struct rxe_recv_wqe *head;
	bool limit_reached = false;
	unsigned long flags;
	u32 num_sge;
	size_t len;

	if (max_len < sizeof(*wqe))
		return -EINVAL;

	spin_lock_irqsave(&srq->lock, flags);
	head = rxe_queue_head(srq->queue);
	if (!head) {
		spin_unlock_irqrestore(&srq->lock, flags);
		return -ENOENT;
	}
	/*
	 * Userspace may rewrite the slot meanwhile: check the count once
	 * and copy only what it covers, then make the copy say the same.
	 * A WQE with too many SGEs is taken all the same, without its
	 * SGEs: the responder sees num_sge > max_sge and completes it (its
	 * wr_id) in error, instead of finding it at the head forever.
	 */
	num_sge = READ_ONCE(head->dma.num_sge);
	if (num_sge > srq->max_sge) {
		len = sizeof(*wqe);
	} else {
		len = rxe_srq_wqe_size(num_sge);
		/* the caller's buffer is too small for this SRQ */
		if (len > max_len) {
			spin_unlock_irqrestore(&srq->lock, flags);
			return -EINVAL;
		}
	}
	memcpy(wqe, head, len);
	wqe->dma.num_sge = num_sge;
	rxe_queue_advance_consumer(srq->queue);

	if (srq->limit && rxe_queue_count(srq->queue) < srq->limit) {
		srq->limit = 0;
		limit_reached = true;
	}
	spin_unlock_irqrestore(&srq->lock, flags);

	if (limit_reached && srq->ibsrq.event_handler)
		srq->ibsrq.event_handler(&ev, srq->ibsrq.srq_context);
	return 0;
}
