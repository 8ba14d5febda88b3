// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Work requests of kernel consumers, and the DMA MR behind their
 * pd->local_dma_lkey.  IB_WR_REG_MR exists only here: user rings cannot
 * name a kernel MR (the requester refuses the opcode on their QPs).
 *
 * A kernel QP has the same rings as a userspace one, only not exported:
 * posting writes WQEs into them exactly as librxe would (the kernel plays
 * the producer through the shared indices, rxe_queue.h) and then kicks
 * the engine, which takes them like any other.  So the requester, the
 * completer and the responder know nothing of who posted.  Posting runs
 * in any context: each ring's producer side has its own spinlock.
 *
 * The DMA MR has no pages: its iova is the kernel virtual address itself
 * (what ib_dma_map_single() hands out for software devices) over the
 * whole address space, and rxe_mr_copy() copies straight from and to it.
 * Only kernel PDs get one, so userspace QPs can never name it (keys are
 * checked against the QP's PD).
 */
#include "rxe_loc.h"

/* ------------------------------------------------------------------ */
/* Send                                                                 */
/* ------------------------------------------------------------------ */

/* The SGEs, or for IB_SEND_INLINE the data they point at. */
static int rxe_kwqe_dma(struct rxe_qp *qp, const struct ib_send_wr *wr,
			struct rxe_send_wqe *wqe)
{
	struct rxe_dma_info *dma = &wqe->dma;
	u64 len = 0;
	int i;

	if (wr->num_sge < 0)
		return -EINVAL;
	if (wr->send_flags & IB_SEND_INLINE) {
		for (i = 0; i < wr->num_sge; i++)
			len += wr->sg_list[i].length;
		if (len > qp->sq.max_inline)
			return -EINVAL;
		len = 0;
		for (i = 0; i < wr->num_sge; i++) {
			memcpy(dma->inline_data + len,
			       (void *)(uintptr_t)wr->sg_list[i].addr,
			       wr->sg_list[i].length);
			len += wr->sg_list[i].length;
		}
		dma->length = len;
		return 0;
	}
	if (wr->num_sge > qp->sq.max_sge)
		return -EINVAL;
	for (i = 0; i < wr->num_sge; i++) {
		dma->sge[i].addr = wr->sg_list[i].addr;
		dma->sge[i].length = wr->sg_list[i].length;
		dma->sge[i].lkey = wr->sg_list[i].lkey;
		len += wr->sg_list[i].length;
	}
	dma->num_sge = wr->num_sge;
	dma->length = min_t(u64, len, U32_MAX);
	return 0;
}

static int rxe_kwqe_build(struct rxe_qp *qp, const struct ib_send_wr *wr,
			  struct rxe_send_wqe *wqe)
{
	bool ud = rxe_qp_transport(qp) == RXE_TRANSPORT_UD;
	const struct ib_ud_wr *uwr;

	memset(wqe, 0, sizeof(*wqe));
	wqe->wr.wr_id = wr->wr_id;
	wqe->wr.opcode = wr->opcode;
	wqe->wr.send_flags = wr->send_flags;
	switch (wr->opcode) {
	case IB_WR_SEND_WITH_IMM:
	case IB_WR_RDMA_WRITE_WITH_IMM:
		wqe->wr.ex.imm_data = wr->ex.imm_data;
		break;
	case IB_WR_SEND_WITH_INV:
	case IB_WR_LOCAL_INV:
		wqe->wr.ex.invalidate_rkey = wr->ex.invalidate_rkey;
		break;
	case IB_WR_REG_MR:
		/* the MW fields: the 6.1 UAPI's WQE has no slot of its own */
		wqe->wr.wr.mw.mr_lkey = reg_wr(wr)->mr->lkey;
		wqe->wr.wr.mw.rkey = reg_wr(wr)->key;
		wqe->wr.wr.mw.access = reg_wr(wr)->access;
		return ud ? -EINVAL : 0;
	case IB_WR_SEND:
	case IB_WR_RDMA_WRITE:
	case IB_WR_RDMA_READ:
		break;
	default:	/* atomics need a WR shape the contract lacks */
		return -EINVAL;
	}
	switch (wr->opcode) {
	case IB_WR_RDMA_WRITE:
	case IB_WR_RDMA_WRITE_WITH_IMM:
	case IB_WR_RDMA_READ:
		if (ud)
			return -EINVAL;
		wqe->wr.wr.rdma.remote_addr = rdma_wr(wr)->remote_addr;
		wqe->wr.wr.rdma.rkey = rdma_wr(wr)->rkey;
		break;
	default:
		break;
	}
	if (ud) {
		uwr = ud_wr(wr);
		if (!uwr->ah || uwr->ah->pd != qp->ibqp.pd)
			return -EINVAL;
		wqe->wr.wr.ud.remote_qpn = uwr->remote_qpn;
		wqe->wr.wr.ud.remote_qkey = uwr->remote_qkey;
		wqe->wr.wr.ud.pkey_index = uwr->pkey_index;
		wqe->wr.wr.ud.ah_num = to_rah(uwr->ah)->index;
	}
	return rxe_kwqe_dma(qp, wr, wqe);
}

int rxe_post_send_wrs(struct ib_qp *ibqp, const struct ib_send_wr *wr,
		      const struct ib_send_wr **bad_wr)
{
	struct rxe_qp *qp = to_rqp(ibqp);
	enum ib_qp_state state = rxe_qp_state(qp);
	struct rxe_send_wqe *wqe;
	unsigned long flags;
	int ret = 0;

	if (!qp->is_kernel) {
		*bad_wr = wr;
		return -EINVAL;
	}
	/* IBTA: posting to the SQ before RTS is an immediate error */
	if (state < IB_QPS_RTS) {
		*bad_wr = wr;
		return -EINVAL;
	}
	spin_lock_irqsave(&qp->sq_post_lock, flags);
	for (; wr; wr = wr->next) {
		wqe = rxe_queue_kprod_addr(qp->sq.queue);
		if (!wqe) {
			ret = -ENOMEM;
			break;
		}
		ret = rxe_kwqe_build(qp, wr, wqe);
		if (ret)
			break;
		rxe_queue_kprod_advance(qp->sq.queue);
	}
	spin_unlock_irqrestore(&qp->sq_post_lock, flags);
	if (ret)
		*bad_wr = wr;

	rxe_req_run(qp);
	if (rxe_qp_state(qp) == IB_QPS_ERR)
		rxe_comp_run(qp);	/* flushes what was just posted */
	return ret;
}

/* ------------------------------------------------------------------ */
/* Receive                                                              */
/* ------------------------------------------------------------------ */

int rxe_post_recv_wrs(struct ib_qp *ibqp, const struct ib_recv_wr *wr,
		      const struct ib_recv_wr **bad_wr)
{
	struct rxe_qp *qp = to_rqp(ibqp);
	struct rxe_recv_wqe *wqe;
	unsigned long flags;
	u64 len;
	int ret = 0, i;

	if (!qp->is_kernel || qp->srq || !qp->rq.queue ||
	    rxe_qp_state(qp) == IB_QPS_RESET) {
		*bad_wr = wr;
		return -EINVAL;
	}
	spin_lock_irqsave(&qp->rq_post_lock, flags);
	for (; wr; wr = wr->next) {
		if (wr->num_sge < 0 || wr->num_sge > qp->rq.max_sge) {
			ret = -EINVAL;
			break;
		}
		wqe = rxe_queue_kprod_addr(qp->rq.queue);
		if (!wqe) {
			ret = -ENOMEM;
			break;
		}
		memset(wqe, 0, sizeof(*wqe));
		wqe->wr_id = wr->wr_id;
		len = 0;
		for (i = 0; i < wr->num_sge; i++) {
			wqe->dma.sge[i].addr = wr->sg_list[i].addr;
			wqe->dma.sge[i].length = wr->sg_list[i].length;
			wqe->dma.sge[i].lkey = wr->sg_list[i].lkey;
			len += wr->sg_list[i].length;
		}
		wqe->dma.num_sge = wr->num_sge;
		wqe->dma.length = min_t(u64, len, U32_MAX);
		wqe->dma.resid = wqe->dma.length;
		rxe_queue_kprod_advance(qp->rq.queue);
	}
	spin_unlock_irqrestore(&qp->rq_post_lock, flags);
	if (ret)
		*bad_wr = wr;

	/* in ERR new receive WQEs complete as flushed; else RNR waits */
	rxe_resp_run(qp);
	return ret;
}

/* ------------------------------------------------------------------ */
/* The DMA MR                                                           */
/* ------------------------------------------------------------------ */

int rxe_get_dma_mr(struct ib_mr *ibmr, int access)
{
	struct rxe_dev *rxe = to_rdev(ibmr->device);
	struct rxe_mr *mr = to_rmr(ibmr);

	if (ibmr->pd->uobject)
		return -EINVAL;
	if (rxe_table_alloc(&rxe->mr_table, &mr->index))
		return -ENOMEM;
	mr->umem = NULL;
	refcount_set(&mr->ref, 1);
	init_completion(&mr->released);
	atomic_set(&mr->num_mw, 0);

	ibmr->lkey = mr->index << 8 | rxe_new_key(-1);
	ibmr->rkey = access & IB_ACCESS_REMOTE ? ibmr->lkey : 0;
	ibmr->iova = 0;
	ibmr->length = U64_MAX;
	ibmr->access = access;
	rxe_table_publish(&rxe->mr_table, mr->index, mr);
	return 0;
}
