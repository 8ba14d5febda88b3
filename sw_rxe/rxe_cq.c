// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Completion queues.  The ring of struct ib_uverbs_wc is shared with
 * librxe, which polls it without entering the kernel: we produce, it
 * consumes (rxe_queue.h).  CQs of kernel consumers (udata NULL) have the
 * same ring, not exported, and rxe_poll_cq() consumes it; their
 * completions name the QP by number and are dropped at poll time if that
 * QP is gone (no completion of a destroyed QP reaches its owner).
 *
 * Arming: req_notify_cq sets @notify; the next completion (or solicited
 * completion) that rxe_cq_post() writes disarms it and calls the CQ's
 * comp_handler, which ib_uverbs turns into an event on the completion
 * channel.  A completion that finds the ring full is lost, counted in the
 * hw counter cq_overflow_drops, and reported as IB_EVENT_CQ_ERR, once per
 * overflow: until a completion finds room again, the lost ones raise no
 * further event (in-tree rxe raises one for each, and ib_uverbs queues
 * each, allocated, on the owner's async file).
 *
 * Limits and errnos are in-tree rxe's: cqe in [1, max_cqe] (-EINVAL), no
 * creation flags (-EOPNOTSUPP), a resize must leave room for what the
 * ring holds (-EINVAL), more than max_cq CQs -EINVAL.
 */
#include <linux/slab.h>
#include <linux/uaccess.h>
#include "rxe_loc.h"

static int rxe_cq_check_cqe(struct rxe_dev *rxe, int cqe)
{
	return cqe <= 0 || cqe > rxe->attr.max_cqe ? -EINVAL : 0;
}

int rxe_create_cq(struct ib_cq *ibcq, const struct ib_cq_init_attr *attr,
		  struct ib_udata *udata)
{
	struct rxe_dev *rxe = to_rdev(ibcq->device);
	struct rxe_cq *cq = to_rcq(ibcq);
	struct rxe_create_cq_resp resp = {};
	unsigned int cqe = attr->cqe;
	int ret;

	if (udata && (!udata->uctx || udata->outlen < sizeof(resp)))
		return -EINVAL;
	if (attr->flags)
		return -EOPNOTSUPP;
	ret = rxe_cq_check_cqe(rxe, attr->cqe);
	if (ret)
		return ret;

	cq->is_kernel = !udata;
	spin_lock_init(&cq->lock);
	spin_lock_init(&cq->poll_lock);
	mutex_init(&cq->resize_mutex);
	refcount_set(&cq->ref, 1);
	init_completion(&cq->released);
	ret = rxe_table_alloc(&rxe->cq_table, &cq->index);
	if (ret) {
		ret = -EINVAL;
		goto err_mutex;
	}
	cq->queue = rxe_queue_alloc(udata ? udata->uctx : NULL, &cqe,
				    sizeof(struct ib_uverbs_wc),
				    RXE_QUEUE_TO_USER);
	if (IS_ERR(cq->queue)) {
		ret = PTR_ERR(cq->queue);
		goto err_index;
	}
	rxe_queue_mminfo(cq->queue, &resp.mi);
	if (udata && copy_to_user(udata->outbuf, &resp, sizeof(resp))) {
		ret = -EFAULT;
		goto err_queue;
	}
	ibcq->cqe = cqe;
	rxe_table_publish(&rxe->cq_table, cq->index, cq);
	return 0;

err_queue:
	rxe_queue_free(cq->queue);
err_index:
	rxe_table_remove(&rxe->cq_table, cq->index);
err_mutex:
	mutex_destroy(&cq->resize_mutex);
	return ret;
}

/*
 * Called when no QP uses the CQ any more (ib_uverbs checks the usecnt).
 * Returns once nobody can post to it or call its handlers.
 */
int rxe_destroy_cq(struct ib_cq *ibcq, struct ib_udata *udata)
{
	struct rxe_dev *rxe = to_rdev(ibcq->device);
	struct rxe_cq *cq = to_rcq(ibcq);

	rxe_table_remove(&rxe->cq_table, cq->index);
	spin_lock_irq(&cq->lock);
	cq->dying = true;
	spin_unlock_irq(&cq->lock);
	if (!refcount_dec_and_test(&cq->ref))
		wait_for_completion(&cq->released);

	rxe_queue_free(cq->queue);
	mutex_destroy(&cq->resize_mutex);
	return 0;
}

struct rxe_cq *rxe_cq_get(struct rxe_dev *rxe, u32 index)
{
	struct rxe_cq *cq;
	unsigned long flags;

	xa_lock_irqsave(&rxe->cq_table.xa, flags);
	cq = xa_load(&rxe->cq_table.xa, index);
	if (cq && !refcount_inc_not_zero(&cq->ref))
		cq = NULL;
	xa_unlock_irqrestore(&rxe->cq_table.xa, flags);
	return cq;
}

void rxe_cq_put(struct rxe_cq *cq)
{
	if (refcount_dec_and_test(&cq->ref))
		complete(&cq->released);
}

/*
 * The new ring gets what the old one holds and userspace has not polled;
 * librxe holds its CQ lock across the command, so it polls neither ring
 * meanwhile, then unmaps the old one and maps the new one.
 */
int rxe_resize_cq(struct ib_cq *ibcq, int cqe, struct ib_udata *udata)
{
	struct rxe_dev *rxe = to_rdev(ibcq->device);
	struct rxe_cq *cq = to_rcq(ibcq);
	struct rxe_resize_cq_resp resp = {};
	struct rxe_queue *q, *old;
	unsigned int n = cqe;
	int ret;

	if (!udata || !udata->uctx || udata->outlen < sizeof(resp))
		return -EINVAL;
	ret = rxe_cq_check_cqe(rxe, cqe);
	if (ret)
		return ret;

	mutex_lock(&cq->resize_mutex);
	/* Checked early as in-tree; checked again when moving. */
	spin_lock_irq(&cq->lock);
	ret = cqe < rxe_queue_count(cq->queue) ? -EINVAL : 0;
	spin_unlock_irq(&cq->lock);
	if (ret)
		goto out;

	q = rxe_queue_alloc(udata->uctx, &n, sizeof(struct ib_uverbs_wc),
			    RXE_QUEUE_TO_USER);
	if (IS_ERR(q)) {
		ret = PTR_ERR(q);
		goto out;
	}
	rxe_queue_mminfo(q, &resp.mi);
	if (copy_to_user(udata->outbuf, &resp, sizeof(resp))) {
		ret = -EFAULT;
		rxe_queue_free(q);
		goto out;
	}

	spin_lock_irq(&cq->lock);
	ret = rxe_queue_move(q, cq->queue);
	old = cq->queue;
	if (!ret) {
		cq->queue = q;
		ibcq->cqe = n;
	}
	spin_unlock_irq(&cq->lock);
	rxe_queue_free(ret ? q : old);
out:
	mutex_unlock(&cq->resize_mutex);
	return ret;
}

/*
 * Returns 1 when asked to report missed events and completions wait.
 * Interrupts off, so that a consumer may arm with its own interrupt-
 * disabling lock held; a hard interrupt may not arm a CQ of ours, as
 * rxe_cq_post() holds the lock with only BHs off (our comp_handler calls
 * come from the engine, never from an interrupt handler).
 */
int rxe_req_notify_cq(struct ib_cq *ibcq, enum ib_cq_notify_flags flags)
{
	struct rxe_cq *cq = to_rcq(ibcq);
	unsigned long irqflags;
	int ret = 0;

	spin_lock_irqsave(&cq->lock, irqflags);
	/* Armed for any completion stays so, whatever else is asked. */
	if (cq->notify != IB_CQ_NEXT_COMP)
		cq->notify = flags & IB_CQ_SOLICITED_MASK;
	if ((flags & IB_CQ_REPORT_MISSED_EVENTS) &&
	    !rxe_queue_empty(cq->queue))
		ret = 1;
	spin_unlock_irqrestore(&cq->lock, irqflags);
	return ret;
}

int rxe_cq_post(struct rxe_cq *cq, const struct ib_uverbs_wc *wc,
		bool solicited)
{
	struct ib_event ev = {
		.device = cq->ibcq.device,
		.event = IB_EVENT_CQ_ERR,
		.cq = &cq->ibcq,
	};
	bool notify, first;

	/*
	 * The engine posts from the receive softirq, its work items and
	 * the doorbell syscall: never from a hard interrupt, so keeping
	 * BHs out is enough.  Re-enabling interrupts is dear under
	 * emulation, and this runs twice per message.
	 */
	spin_lock_bh(&cq->lock);
	if (cq->dying) {
		spin_unlock_bh(&cq->lock);
		return -EIO;
	}
	if (unlikely(rxe_queue_full(cq->queue))) {
		/*
		 * One event per overflow: a producer that outruns its
		 * consumer (or a consumer that stopped polling) must not
		 * cost an event, and the allocation behind it, per lost
		 * completion.
		 */
		first = !cq->overflow;
		cq->overflow = true;
		spin_unlock_bh(&cq->lock);
		rxe_counter_inc(to_rdev(cq->ibcq.device), RXE_CNT_CQ_OVERFLOW);
		if (first && cq->ibcq.event_handler)
			cq->ibcq.event_handler(&ev, cq->ibcq.cq_context);
		return -EBUSY;
	}
	/* the consumer made room: a later overflow is a new one */
	cq->overflow = false;
	memcpy(rxe_queue_producer_addr(cq->queue), wc, sizeof(*wc));
	if (!cq->is_kernel)
		((struct ib_uverbs_wc *)
		 rxe_queue_producer_addr(cq->queue))->reserved = 0;
	rxe_queue_advance_producer(cq->queue);

	notify = cq->notify == IB_CQ_NEXT_COMP ||
		 (cq->notify == IB_CQ_SOLICITED && solicited);
	if (notify)
		cq->notify = 0;
	spin_unlock_bh(&cq->lock);

	if (notify && cq->ibcq.comp_handler)
		cq->ibcq.comp_handler(&cq->ibcq, cq->ibcq.cq_context);
	return 0;
}

/* One ring element to the kernel's form; false if its QP is gone. */
static bool rxe_cq_kwc(struct rxe_dev *rxe, const struct ib_uverbs_wc *u,
		       struct ib_wc *wc)
{
	struct rxe_qp *qp = rxe_qp_get(rxe, u->qp_num);

	if (!qp)
		return false;
	memset(wc, 0, sizeof(*wc));
	wc->wr_id = u->wr_id;
	wc->status = u->status;
	wc->opcode = u->opcode;
	wc->vendor_err = u->vendor_err;
	wc->byte_len = u->byte_len;
	wc->qp = &qp->ibqp;
	wc->ex.imm_data = u->ex.imm_data;
	wc->src_qp = u->src_qp;
	wc->slid = u->slid;
	wc->wc_flags = u->wc_flags;
	wc->pkey_index = u->pkey_index;
	wc->sl = u->sl;
	wc->dlid_path_bits = u->dlid_path_bits;
	wc->port_num = u->port_num;
	if (u->reserved) {
		wc->network_hdr_type = u->reserved;
		wc->wc_flags |= IB_WC_WITH_NETWORK_HDR_TYPE;
	}
	/* the owner destroys its QP only after it stopped polling for it */
	rxe_qp_put(qp);
	return true;
}

int rxe_poll_cq(struct ib_cq *ibcq, int num, struct ib_wc *wc)
{
	struct rxe_dev *rxe = to_rdev(ibcq->device);
	struct rxe_cq *cq = to_rcq(ibcq);
	const struct ib_uverbs_wc *u;
	unsigned long flags;
	int n = 0;

	if (!cq->is_kernel)
		return -EINVAL;
	spin_lock_irqsave(&cq->poll_lock, flags);
	while (n < num) {
		u = rxe_queue_kcons_head(cq->queue);
		if (!u)
			break;
		if (rxe_cq_kwc(rxe, u, &wc[n]))
			n++;
		rxe_queue_kcons_advance(cq->queue);
	}
	spin_unlock_irqrestore(&cq->poll_lock, flags);
	return n;
}
