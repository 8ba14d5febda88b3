// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The completer: retires send WQEs into the send CQ, in order, from the
 * ring's consumer index.  One step handles one response packet, one
 * retransmit timeout, one WQE that needs no response (UC, UD, local
 * operations, failed ones), or in ERR one flushed WQE.
 *
 * Responses come as packets on qp->resp_pkts, or, for a plain ACK from a
 * responder of this host, as a held ACK (rxe_comp_put_ack()) that stands
 * where the packet would have queued.
 *
 * RC responses are matched against the oldest WQE with PSNs: a response
 * for a later PSN acknowledges the send/write WQEs before it (coalesced
 * ACKs), while a read or atomic WQE it passes over must have lost its
 * response, which calls for a retry.  Responses for PSNs already
 * acknowledged, or never sent, are dropped.
 *
 * After a go-back the peer answers each duplicate with the last PSN it
 * holds, one the requester may not have re-sent yet (req.psn rewound,
 * req.sent_psn not).  Such an acknowledgement is as good as any: what it
 * covers completes, and comp.psn passing req.psn makes the requester skip
 * ahead (rxe_req.c) instead of re-sending what the peer has.  Data stays
 * strict: read response data and atomic results are taken only in PSN
 * order and for a request re-sent since the go-back.
 *
 * Retries: a PSN sequence NAK or the retransmit timer asks the requester
 * to go back to comp.psn (at most one retry per loss, counted against
 * retry_cnt, which progress reloads; 7 means forever, as in-tree rxe
 * has it); an RNR NAK holds the requester until the RNR timer fires
 * (rnr_retry 7 meaning forever).
 */
#include <linux/jiffies.h>
#include "rxe_loc.h"

/* The oldest WQE taken and not completed, or NULL. */
static struct rxe_send_wqe *comp_head(struct rxe_qp *qp)
{
	u32 cons = rxe_queue_consumer(qp->sq.queue);

	return cons == qp->req.shadow_index ? NULL : rxe_sq_wqe(qp, cons);
}

/*
 * The oldest WQE was started (its PSNs are assigned), even if a go-back
 * has reset it to POSTED since.
 */
static bool comp_head_started(struct rxe_qp *qp)
{
	return rxe_queue_consumer(qp->sq.queue) != qp->req.wqe_index;
}

static u32 comp_wc_opcode(u32 wr_opcode)
{
	switch (wr_opcode) {
	case IB_UVERBS_WR_RDMA_WRITE:
	case IB_UVERBS_WR_RDMA_WRITE_WITH_IMM:
		return IB_UVERBS_WC_RDMA_WRITE;
	case IB_UVERBS_WR_RDMA_READ:
		return IB_UVERBS_WC_RDMA_READ;
	case IB_UVERBS_WR_ATOMIC_CMP_AND_SWP:
		return IB_UVERBS_WC_COMP_SWAP;
	case IB_UVERBS_WR_ATOMIC_FETCH_AND_ADD:
		return IB_UVERBS_WC_FETCH_ADD;
	case IB_UVERBS_WR_BIND_MW:
		return IB_UVERBS_WC_BIND_MW;
	case IB_UVERBS_WR_LOCAL_INV:
		return IB_UVERBS_WC_LOCAL_INV;
	case IB_WR_REG_MR:
		return IB_WC_REG_MR;
	case RXE_WR_ATOMIC_WRITE:
		return RXE_WC_ATOMIC_WRITE;
	case IB_UVERBS_WR_FLUSH:
		return IB_UVERBS_WC_FLUSH;
	default:
		return IB_UVERBS_WC_SEND;
	}
}

static void comp_kick_req(struct rxe_qp *qp)
{
	if (qp->req.blocked) {
		qp->req.blocked = false;
		rxe_req_run(qp);
	}
}

/* Retire the head WQE with @status, CQE if signaled or failed. */
static void comp_complete(struct rxe_qp *qp, struct rxe_send_wqe *wqe,
			  u32 status)
{
	struct rxe_req_info *req = &qp->req;
	struct rxe_queue *q = qp->sq.queue;
	u32 old = rxe_queue_consumer(q);
	bool busy = old != req->wqe_index;
	struct ib_uverbs_wc wc;
	bool post = status != IB_WC_SUCCESS ||
		    qp->sq_sig_type == IB_SIGNAL_ALL_WR ||
		    (wqe->wr.send_flags & IB_SEND_SIGNALED);

	if (wqe->has_rd_atomic) {
		wqe->has_rd_atomic = 0;
		req->rd_out--;
	}
	/* an RC WQE fully sent is answered up to its last PSN */
	if (wqe->state == RXE_WQE_PENDING &&
	    rxe_psn_cmp(wqe->last_psn, qp->comp.psn) >= 0)
		qp->comp.psn = rxe_psn_add(wqe->last_psn, 1);
	if (post) {
		memset(&wc, 0, sizeof(wc));
		wc.wr_id = wqe->wr.wr_id;
		wc.status = status;
		wc.opcode = comp_wc_opcode(wqe->wr.opcode);
		wc.byte_len = wqe->dma.length;
		wc.qp_num = rxe_qp_num(qp);
		if (wqe->mask & RXE_WQE_IMM)
			wc.wc_flags = IB_WC_WITH_IMM;
	}
	if (status == IB_WC_SUCCESS && (wqe->mask & RXE_WQE_SEND))
		rxe_counter_inc(qp->rxe, RXE_CNT_RDMA_SEND);

	/* the slot is free for userspace before the completion shows */
	rxe_queue_advance_consumer(q);
	if (req->cur_index == old)
		req->cur_index = rxe_queue_consumer(q);
	if (req->wqe_index == old)
		WRITE_ONCE(req->wqe_index, rxe_queue_consumer(q));
	if (post)
		rxe_cq_post(qp->scq, &wc, false);

	comp_kick_req(qp);	/* fences, credits, the PSN window */
	/* the last started WQE is retired: drained */
	if (busy && rxe_queue_consumer(q) == req->wqe_index &&
	    rxe_qp_state(qp) == IB_QPS_SQD && qp->attr.en_sqd_async_notify)
		rxe_qp_event(qp, IB_EVENT_SQ_DRAINED);
}

/* Complete @wqe with an error: the QP goes to ERR, the rest is flushed. */
static void comp_error(struct rxe_qp *qp, struct rxe_send_wqe *wqe,
		       u32 status)
{
	comp_complete(qp, wqe, status);
	rxe_qp_error(qp);
}

/* Fail the oldest outstanding WQE (retry limits), after the done ones. */
static void comp_fail_head(struct rxe_qp *qp, u32 status)
{
	struct rxe_send_wqe *wqe;

	while ((wqe = comp_head(qp)) && wqe->state == RXE_WQE_DONE)
		comp_complete(qp, wqe, IB_WC_SUCCESS);
	if (wqe && wqe->state != RXE_WQE_POSTED)
		comp_complete(qp, wqe, wqe->state == RXE_WQE_ERROR ?
				       wqe->status : status);
	rxe_qp_error(qp);
}

/* Responses came for PSNs up to @psn: progress, the counters reload. */
static void comp_ack(struct rxe_qp *qp, u32 psn)
{
	psn = rxe_psn_add(psn, 1);
	if (rxe_psn_cmp(psn, qp->comp.psn) > 0)
		qp->comp.psn = psn;
	qp->comp.retry_cnt = qp->attr.retry_cnt;
	qp->comp.rnr_retry = qp->attr.rnr_retry;
	qp->comp.started_retry = false;
	comp_kick_req(qp);
}

/* Ask the requester to send again from comp.psn. */
static void comp_retry(struct rxe_qp *qp, bool timeout)
{
	struct rxe_req_info *req = &qp->req;

	/* the RNR timer restarts it anyway; one retry per loss */
	if (req->wait_rnr_timer || req->need_retry)
		return;
	if (qp->comp.started_retry && !timeout)
		return;
	if (!qp->comp.retry_cnt) {
		rxe_counter_inc(qp->rxe, RXE_CNT_RETRY_EXCEEDED);
		comp_fail_head(qp, IB_WC_RETRY_EXC_ERR);
		return;
	}
	/* 7 retries forever, as in-tree rxe (and its peers) expect */
	if (qp->attr.retry_cnt != 7)
		qp->comp.retry_cnt--;
	qp->comp.started_retry = true;
	rxe_counter_inc(qp->rxe, RXE_CNT_COMP_RETRY);
	req->need_retry = true;
	rxe_req_run(qp);
}

static void comp_rnr(struct rxe_qp *qp, u8 syn)
{
	struct rxe_req_info *req = &qp->req;
	unsigned long delay;

	if (req->wait_rnr_timer)
		return;
	if (!qp->comp.rnr_retry) {
		rxe_counter_inc(qp->rxe, RXE_CNT_RNR_RETRY_EXCEEDED);
		comp_fail_head(qp, IB_WC_RNR_RETRY_EXC_ERR);
		return;
	}
	if (qp->comp.rnr_retry != 7)
		qp->comp.rnr_retry--;
	req->wait_rnr_timer = true;
	delay = usecs_to_jiffies(rxe_rnr_timer_usecs(rxe_aeth_syn_value(syn)));
	mod_timer(&req->rnr_nak_timer, jiffies + max(delay, 1UL));
}

/* An ACKNOWLEDGE packet for @wqe, the oldest WQE, with @psn in it. */
static void comp_aeth(struct rxe_qp *qp, struct rxe_send_wqe *wqe, u32 psn,
		      u8 syn)
{
	u32 status;

	switch (rxe_aeth_syn_type(syn)) {
	case RXE_AETH_ACK:
		/* PSNs of reads and atomics are answered with data */
		if (wqe->mask & (RXE_WQE_READ | RXE_WQE_ATOMIC))
			return;
		comp_ack(qp, psn);
		/* all of it arrived, though a go-back may not have re-sent it */
		if (psn == wqe->last_psn)
			comp_complete(qp, wqe, IB_WC_SUCCESS);
		return;
	case RXE_AETH_RNR_NAK:
		/* for @psn; what came before it was received */
		rxe_counter_inc(qp->rxe, RXE_CNT_RCV_RNR);
		if (rxe_psn_cmp(psn, qp->comp.psn) > 0)
			qp->comp.psn = psn;
		comp_rnr(qp, syn);
		return;
	case RXE_AETH_NAK:
		break;
	default:
		return;
	}
	switch (rxe_aeth_syn_value(syn)) {
	case RXE_NAK_PSN_SEQ_ERR:
		/* the responder expects @psn: everything before arrived */
		rxe_counter_inc(qp->rxe, RXE_CNT_RCV_SEQ_ERR);
		if (rxe_psn_cmp(psn, qp->comp.psn) > 0) {
			/* progress: this is a new loss, with a full budget */
			qp->comp.psn = psn;
			qp->comp.retry_cnt = qp->attr.retry_cnt;
			qp->comp.started_retry = false;
			comp_kick_req(qp);
		}
		comp_retry(qp, false);
		return;
	case RXE_NAK_INVALID_REQ:
		status = IB_WC_REM_INV_REQ_ERR;
		break;
	case RXE_NAK_REM_ACCESS_ERR:
		status = IB_WC_REM_ACCESS_ERR;
		break;
	default:
		status = IB_WC_REM_OP_ERR;
		break;
	}
	comp_error(qp, wqe, status);
}

struct comp_read_ctx {
	struct rxe_qp *qp;
	struct rxe_send_wqe *wqe;
};

/* A piece of read response data into the WQE's SGEs. */
static int comp_read_piece(void *ctx, void *buf, u32 n)
{
	struct comp_read_ctx *c = ctx;

	return rxe_dma_copy(c->qp->rxe, &c->qp->pd->ibpd,
			    IB_ACCESS_LOCAL_WRITE, &c->wqe->dma, buf, n,
			    RXE_COPY_TO_MR);
}

static void comp_read(struct rxe_qp *qp, struct rxe_send_wqe *wqe,
		      struct rxe_pkt_info *pkt, u8 syn)
{
	struct comp_read_ctx c = { .qp = qp, .wqe = wqe };
	u32 len = rxe_pkt_payload_len(pkt);
	bool last = pkt->mask & RXE_LAST_MASK;
	int err;

	if (!(wqe->mask & RXE_WQE_READ))
		return;
	/*
	 * The responses of a read come in PSN order: one past comp.psn
	 * means those before it were lost, on the wire or to a full queue
	 * (rxe_pkt_enqueue()).  Ask again from comp.psn now instead of when
	 * the retransmit timer fires (never, with timeout 0); the rest of
	 * the interrupted stream is dropped here meanwhile (one retry per
	 * loss).
	 */
	if (pkt->psn != qp->comp.psn) {
		comp_retry(qp, false);
		return;
	}
	/* a FIRST or ONLY may restart after a retry */
	if (!(pkt->mask & RXE_FIRST_MASK) &&
	    qp->comp.opcode != RXE_OPCODE_RC_READ_RESPONSE_FIRST &&
	    qp->comp.opcode != RXE_OPCODE_RC_READ_RESPONSE_MIDDLE)
		return;
	if ((pkt->mask & RXE_AETH_MASK) &&
	    rxe_aeth_syn_type(syn) != RXE_AETH_ACK)
		return;
	if (len > wqe->dma.resid || (last && len != wqe->dma.resid)) {
		comp_error(qp, wqe, IB_WC_BAD_RESP_ERR);
		return;
	}
	err = rxe_pkt_payload_walk(pkt, comp_read_piece, &c);
	if (err) {
		comp_error(qp, wqe, err == -ENOSPC ? IB_WC_LOC_LEN_ERR :
						     IB_WC_LOC_PROT_ERR);
		return;
	}
	comp_ack(qp, pkt->psn);
	qp->comp.opcode = last ? -1 : pkt->opcode;
	if (last)
		comp_complete(qp, wqe, IB_WC_SUCCESS);
}

static void comp_atomic(struct rxe_qp *qp, struct rxe_send_wqe *wqe,
			struct rxe_pkt_info *pkt, u8 syn)
{
	u64 orig;
	int err;

	if (!(wqe->mask & RXE_WQE_ATOMIC) || wqe->state != RXE_WQE_PENDING ||
	    rxe_aeth_syn_type(syn) != RXE_AETH_ACK)
		return;
	/* the original remote value, in host order, into the first SGE */
	orig = rxe_atmack_orig(rxe_pkt_hdr(pkt, RXE_ATMACK));
	err = rxe_dma_copy(qp->rxe, &qp->pd->ibpd, IB_ACCESS_LOCAL_WRITE,
			   &wqe->dma, &orig, sizeof(orig), RXE_COPY_TO_MR);
	if (err) {
		comp_error(qp, wqe, err == -ENOSPC ? IB_WC_LOC_LEN_ERR :
						     IB_WC_LOC_PROT_ERR);
		return;
	}
	comp_ack(qp, pkt->psn);
	comp_complete(qp, wqe, IB_WC_SUCCESS);
}

/*
 * One RC response: @opcode for @psn with AETH @syn (0 without one); @pkt
 * is the packet, or NULL for an ACK handed over without one
 * (rxe_comp_put_ack()), which needs nothing but these.
 */
static void comp_response(struct rxe_qp *qp, u8 opcode, u32 psn, u8 syn,
			  struct rxe_pkt_info *pkt)
{
	struct rxe_send_wqe *wqe;

	if (rxe_qp_transport(qp) != RXE_TRANSPORT_RC)
		return;
	if (!rxe_psn_in(psn, qp->comp.psn, qp->req.sent_psn))
		return;		/* answered already, or never sent */

	for (;;) {
		wqe = comp_head(qp);
		if (!wqe || !comp_head_started(qp))
			return;
		if (wqe->state == RXE_WQE_DONE) {
			comp_complete(qp, wqe, IB_WC_SUCCESS);
			continue;
		}
		if (wqe->state == RXE_WQE_ERROR) {
			comp_error(qp, wqe, wqe->status);
			return;
		}
		if (rxe_psn_cmp(psn, wqe->last_psn) <= 0)
			break;
		/*
		 * The response is for a later WQE: all of this one was sent
		 * (maybe before a go-back) and arrived.
		 */
		if (wqe->mask & (RXE_WQE_READ | RXE_WQE_ATOMIC)) {
			comp_retry(qp, false);	/* its response was lost */
			return;
		}
		comp_ack(qp, wqe->last_psn);
		comp_complete(qp, wqe, IB_WC_SUCCESS);
	}
	if (rxe_psn_cmp(psn, wqe->first_psn) < 0)
		return;
	/* data only for a request sent since the last go-back */
	if (opcode != RXE_OPCODE_RC_ACKNOWLEDGE &&
	    rxe_psn_cmp(psn, qp->req.psn) >= 0)
		return;

	if (opcode == RXE_OPCODE_RC_ACKNOWLEDGE) {
		comp_aeth(qp, wqe, psn, syn);
		return;
	}
	if (!pkt)
		return;
	switch (opcode) {
	case RXE_OPCODE_RC_READ_RESPONSE_FIRST:
	case RXE_OPCODE_RC_READ_RESPONSE_MIDDLE:
	case RXE_OPCODE_RC_READ_RESPONSE_LAST:
	case RXE_OPCODE_RC_READ_RESPONSE_ONLY:
		comp_read(qp, wqe, pkt, syn);
		break;
	case RXE_OPCODE_RC_ATOMIC_ACKNOWLEDGE:
		comp_atomic(qp, wqe, pkt, syn);
		break;
	default:
		break;
	}
}

static void comp_rcv(struct rxe_qp *qp, struct rxe_pkt_info *pkt)
{
	u8 syn = 0;

	if (!(pkt->mask & RXE_RESP_MASK))
		return;
	if (pkt->mask & RXE_AETH_MASK)
		syn = rxe_aeth_syn(rxe_pkt_hdr(pkt, RXE_AETH));
	comp_response(qp, pkt->opcode, pkt->psn, syn, pkt);
}

/*
 * The retransmit timer is lazy: the requester arms it when it sends and
 * it is not pending, progress (or an answer that shows the peer alive,
 * comp_step()) only moves the time the timeout counts from, and nobody
 * stops it when everything is answered: it then expires
 * with nothing to do.  A timer that fires before the timeout has passed
 * since the last progress is pushed back (comp_timeout()).  A message
 * exchange costs no timer operation this way instead of two.
 */
static void comp_update_timer(struct rxe_qp *qp)
{
	qp->req.progress_jiffies = jiffies;
}

/*
 * The timer stays armed as long as a PSN sent is unanswered, whatever the
 * requester is doing: a go-back it has not re-sent from yet (held by its
 * in-flight skbs, or waiting to run) must time out again if it never gets
 * anywhere.  The RNR timer stands in for it while the peer asked us to
 * wait.
 */
static void comp_timeout(struct rxe_qp *qp)
{
	struct rxe_req_info *req = &qp->req;
	unsigned long deadline;

	if (rxe_qp_transport(qp) != RXE_TRANSPORT_RC ||
	    !req->qp_timeout_jiffies || req->wait_rnr_timer ||
	    !comp_head(qp) || !comp_head_started(qp) ||
	    rxe_psn_cmp(qp->comp.psn, req->sent_psn) >= 0)
		return;		/* nothing unanswered: a stale timer */
	deadline = req->progress_jiffies + req->qp_timeout_jiffies;
	if (time_before(jiffies, deadline)) {
		mod_timer(&req->retrans_timer, deadline);
		return;
	}
	comp_retry(qp, true);
	/* the requester's next send would arm it, if it sends */
	if (rxe_qp_state(qp) != IB_QPS_ERR && !req->wait_rnr_timer)
		mod_timer(&req->retrans_timer,
			  jiffies + req->qp_timeout_jiffies);
}

/* ERR (or SQE): every WQE completes, as flushed unless it had ended. */
static int comp_flush(struct rxe_qp *qp)
{
	struct rxe_req_info *req = &qp->req;
	struct rxe_send_wqe *wqe;
	u32 status;

	rxe_comp_purge(qp);
	del_timer(&req->retrans_timer);
	del_timer(&req->rnr_nak_timer);
	wqe = comp_head(qp);
	if (!wqe && rxe_sq_take(qp))
		wqe = comp_head(qp);
	if (!wqe) {
		req->need_retry = false;
		req->wait_rnr_timer = false;
		req->blocked = false;
		req->events = 0;
		return 1;
	}
	if (wqe->state == RXE_WQE_DONE)
		status = IB_WC_SUCCESS;
	else if (wqe->state == RXE_WQE_ERROR)
		status = wqe->status;
	else
		status = IB_WC_WR_FLUSH_ERR;
	comp_complete(qp, wqe, status);
	return 0;
}

static int comp_step(struct rxe_qp *qp)
{
	enum ib_qp_state state = rxe_qp_state(qp);
	struct rxe_req_info *req = &qp->req;
	struct rxe_send_wqe *wqe;
	struct rxe_comp_info *c = &qp->comp;
	struct sk_buff *skb = NULL;
	bool ack, live;
	u32 psn;
	u8 syn;

	if (state == IB_QPS_ERR || state == IB_QPS_SQE)
		return comp_flush(qp);
	if (state != IB_QPS_RTS && state != IB_QPS_SQD) {
		rxe_comp_purge(qp);	/* nothing was sent */
		return 1;
	}
	if (test_and_clear_bit(RXE_REQ_EV_TIMEOUT, &req->events)) {
		comp_timeout(qp);
		return 0;
	}
	/* a held ACK came before everything queued (rxe_comp_put_ack()) */
	spin_lock_bh(&qp->resp_pkts.lock);
	ack = c->ack_held;
	if (ack) {
		c->ack_held = false;
		psn = c->ack_psn;
		syn = c->ack_syn;
	} else {
		skb = __skb_dequeue(&qp->resp_pkts);
	}
	spin_unlock_bh(&qp->resp_pkts.lock);
	if (ack || skb) {
		u32 old = c->psn;

		if (!ack)
			psn = rxe_skb_pkt(skb)->psn;
		/*
		 * An answer for a PSN sent and not acknowledged yet shows
		 * the peer alive even when it is no progress (a read
		 * response past a lost one, a NAK repeated while we
		 * re-send): timing out in the middle of re-sending the
		 * window would only go back over it again.  Not one for a
		 * PSN never sent, which no live peer of this QP makes.
		 */
		live = rxe_psn_in(psn, old, req->sent_psn);
		if (ack) {
			comp_response(qp, RXE_OPCODE_RC_ACKNOWLEDGE, psn, syn,
				      NULL);
		} else {
			comp_rcv(qp, rxe_skb_pkt(skb));
			consume_skb(skb);
		}
		if (live || old != c->psn || req->wait_rnr_timer)
			comp_update_timer(qp);
		/* acknowledged past a go-back's re-sending: it skips ahead */
		if (rxe_psn_cmp(qp->comp.psn, req->psn) > 0)
			rxe_req_run(qp);
		return 0;
	}
	wqe = comp_head(qp);
	if (wqe && wqe->state == RXE_WQE_DONE) {
		comp_complete(qp, wqe, IB_WC_SUCCESS);
		return 0;
	}
	if (wqe && wqe->state == RXE_WQE_ERROR) {
		comp_error(qp, wqe, wqe->status);
		return 0;
	}
	return 1;
}

int rxe_completer(struct rxe_qp *qp)
{
	int ret;

	/*
	 * A response to our own host arrives synchronously, inside the
	 * requester's step that sent the request (rxe_loopback()): the
	 * lock is then ours already.  Let the work item do it after.
	 */
	if (!spin_trylock_bh(&qp->req.lock)) {
		rxe_task_defer(&qp->comp.task);
		return 1;
	}
	ret = comp_step(qp);
	spin_unlock_bh(&qp->req.lock);
	return ret;
}

void rxe_retrans_timer(struct timer_list *t)
{
	struct rxe_qp *qp = from_timer(qp, t, req.retrans_timer);

	set_bit(RXE_REQ_EV_TIMEOUT, &qp->req.events);
	rxe_comp_run(qp);
}

void rxe_comp_run(struct rxe_qp *qp)
{
	rxe_task_run(&qp->comp.task);
}

bool rxe_comp_put_ack(struct rxe_qp *qp, u32 psn, u8 syn)
{
	struct rxe_comp_info *c = &qp->comp;
	bool held = false;

	/*
	 * Only in front of an empty queue, so that the completer, which
	 * takes it first, keeps the order the responder answered in (read
	 * responses and earlier ACKs before it); and one at a time.  A
	 * stopped completer takes nothing, as rxe_pkt_enqueue().
	 */
	spin_lock_bh(&qp->resp_pkts.lock);
	if (!c->ack_held && skb_queue_empty(&qp->resp_pkts) &&
	    !READ_ONCE(c->task.stopped)) {
		c->ack_held = true;
		c->ack_psn = psn;
		c->ack_syn = syn;
		held = true;
	}
	spin_unlock_bh(&qp->resp_pkts.lock);
	return held;
}

void rxe_comp_run_inline(struct rxe_qp *qp)
{
	rxe_task_run_inline(&qp->comp.task);
}

void rxe_comp_purge(struct rxe_qp *qp)
{
	spin_lock_bh(&qp->resp_pkts.lock);
	qp->comp.ack_held = false;
	spin_unlock_bh(&qp->resp_pkts.lock);
	skb_queue_purge(&qp->resp_pkts);
}

void rxe_comp_queue_pkt(struct rxe_qp *qp, struct sk_buff *skb)
{
	u32 len = rxe_pkt_enqueue(qp, &qp->resp_pkts, &qp->comp.task,
				  skb);

	if (!len)
		return;
	if (len > 1)
		rxe_counter_inc(qp->rxe, RXE_CNT_COMPLETER_SCHED);
	/* from the receive softirq: a lone response is handled right here */
	if (len == 1)
		rxe_task_run_inline(&qp->comp.task);
	else
		rxe_comp_run(qp);
}
