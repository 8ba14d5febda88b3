// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The requester: takes send WQEs from the ring librxe fills, checks them,
 * and turns them into request packets, one packet (or one local
 * operation) per step.  A WQE goes
 *
 *   POSTED -> PROCESSING -> PENDING (RC: until the completer sees its
 *                                    ACK, read data or atomic ACK)
 *                        -> DONE    (UC, UD: once its last packet left;
 *                                    local operations once executed)
 *   any    -> ERROR                 (bad WQE, bad local key, ...)
 *
 * and the completer retires it.  When the completer asks for a retry
 * (timeout, NAK, RNR NAK), the requester goes back to the oldest WQE not
 * completed and to comp.psn and sends everything from there again: the
 * part of a send or write that was acknowledged is skipped, and a read
 * asks only for the data that has not arrived.
 *
 * A packet that cannot be allocated, or that the network drops, counts
 * as lost on the wire: RC gets it back through the retransmit timer.
 */
#include <linux/jiffies.h>
#include "rxe_loc.h"

/* RC: the most PSNs out and not acknowledged. */
#define RXE_MAX_UNACKED_PSNS	128
/* RC: ask for an ACK at least this often within a long message. */
#define RXE_MAX_PKT_PER_ACK	64
/* IBTA: the longest message. */
#define RXE_MAX_MSG_SIZE	(1ULL << 31)

/*
 * A FLUSH WR's fields, the flush member of the send WR's union since
 * 6.2's UAPI.  6.1's header lacks the member, but librxe writes it there
 * whatever the kernel (compat.h), so every line reads the same bytes
 * through this ABI layout (one path, which 6.12's lanes test for 6.1
 * too); the 6.2+ builds check it against the member.
 */
struct rxe_flush_wr_abi {
	__aligned_u64 remote_addr;
	__u32 length;
	__u32 rkey;
	__u8 type;	/* placement type: FETH's bits */
	__u8 level;	/* selectivity level: FETH's value */
};

#ifdef ORDMA_UAPI_HAS_FLUSH
#define RXE_FLUSH_ABI_AT(field) \
	(offsetof(struct rxe_send_wr, wr) + \
	 offsetof(struct rxe_flush_wr_abi, field) == \
	 offsetof(struct rxe_send_wr, wr.flush.field))
static_assert(RXE_FLUSH_ABI_AT(remote_addr) && RXE_FLUSH_ABI_AT(length) &&
	      RXE_FLUSH_ABI_AT(rkey) && RXE_FLUSH_ABI_AT(type) &&
	      RXE_FLUSH_ABI_AT(level) &&
	      sizeof(struct rxe_flush_wr_abi) ==
	      sizeof_field(struct rxe_send_wr, wr.flush));
/* the UAPI's placement types and levels are the wire's */
static_assert(IB_FLUSH_GLOBAL == RXE_FETH_PLT_GLOBAL &&
	      IB_FLUSH_PERSISTENT == RXE_FETH_PLT_PERSISTENT &&
	      IB_FLUSH_RANGE == RXE_FETH_SEL_RANGE &&
	      IB_FLUSH_MR == RXE_FETH_SEL_MR);
#endif
static_assert(sizeof(struct rxe_flush_wr_abi) <=
	      sizeof_field(struct rxe_send_wr, wr));
#define rxe_wr_flush(swr)	((struct rxe_flush_wr_abi *)&(swr)->wr)

static u32 rxe_sq_next(const struct rxe_qp *qp, u32 index)
{
	return (index + 1) & qp->sq.queue->index_mask;
}

/* The kernel's copy of ring slot @index (rxe_qp.c: the ring's stride). */
struct rxe_send_wqe *rxe_sq_wqe(struct rxe_qp *qp, u32 index)
{
	const struct rxe_queue *q = qp->sq.queue;

	return qp->sq.shadow +
	       ((size_t)(index & qp->sq.shadow_mask) << q->log2_elem_size);
}

/* Every slot of the shadow holds a WQE taken and not retired. */
bool rxe_sq_shadow_full(const struct rxe_qp *qp)
{
	const struct rxe_queue *q = qp->sq.queue;

	return ((qp->req.shadow_index - rxe_queue_consumer(q)) &
		q->index_mask) > qp->sq.shadow_mask;
}

/*
 * Copy the next ring slot into the shadow, if userspace produced it and
 * the shadow has room.  Userspace may write its index at will: the copies
 * never lap the consumer.  Only the copy is looked at from now on.
 */
bool rxe_sq_take(struct rxe_qp *qp)
{
	struct rxe_queue *q = qp->sq.queue;
	u32 idx = qp->req.shadow_index;
	struct rxe_send_wqe *wqe;

	if (((idx - rxe_queue_consumer(q)) & q->index_mask) >=
	    rxe_queue_count(q) || rxe_sq_shadow_full(qp))
		return false;
	wqe = rxe_sq_wqe(qp, idx);
	memcpy(wqe, rxe_queue_addr(q, idx), q->elem_size);
	wqe->state = RXE_WQE_POSTED;
	wqe->status = IB_WC_SUCCESS;
	wqe->mask = 0;
	wqe->has_rd_atomic = 0;
	wqe->first_psn = 0;
	wqe->last_psn = 0;
	qp->req.shadow_index = rxe_sq_next(qp, idx);
	return true;
}

static u32 req_mtu(const struct rxe_qp *qp)
{
	return qp->mtu ? qp->mtu : 256;
}

static bool req_is_rc(const struct rxe_qp *qp)
{
	return rxe_qp_transport(qp) == RXE_TRANSPORT_RC;
}

/* What a WR opcode is on this QP's service; 0: not allowed there. */
static u32 req_wqe_kind(const struct rxe_qp *qp, u32 opcode)
{
	u8 t = rxe_qp_transport(qp);
	bool rc = t == RXE_TRANSPORT_RC;
	bool conn = t != RXE_TRANSPORT_UD;

	switch (opcode) {
	case IB_UVERBS_WR_SEND:
		return RXE_WQE_SEND;
	case IB_UVERBS_WR_SEND_WITH_IMM:
		return RXE_WQE_SEND | RXE_WQE_IMM;
	case IB_UVERBS_WR_SEND_WITH_INV:	/* no UC opcode for it */
		return rc ? RXE_WQE_SEND | RXE_WQE_INV : 0;
	case IB_UVERBS_WR_RDMA_WRITE:
		return conn ? RXE_WQE_WRITE : 0;
	case IB_UVERBS_WR_RDMA_WRITE_WITH_IMM:
		return conn ? RXE_WQE_WRITE | RXE_WQE_IMM : 0;
	case IB_UVERBS_WR_RDMA_READ:
		return rc ? RXE_WQE_READ : 0;
	case IB_UVERBS_WR_ATOMIC_CMP_AND_SWP:
	case IB_UVERBS_WR_ATOMIC_FETCH_AND_ADD:
		return rc ? RXE_WQE_ATOMIC : 0;
	case IB_UVERBS_WR_LOCAL_INV:
	case IB_UVERBS_WR_BIND_MW:
		return conn ? RXE_WQE_LOCAL : 0;
	case IB_WR_REG_MR:	/* not from a user ring: names a kernel MR */
		return conn && qp->is_kernel ? RXE_WQE_LOCAL : 0;
	case RXE_WR_ATOMIC_WRITE:
		return rc ? RXE_WQE_WRITE | RXE_WQE_AWRITE : 0;
	case IB_UVERBS_WR_FLUSH:
		return rc ? RXE_WQE_READ | RXE_WQE_FLUSH : 0;
	default:	/* TSO, ...: not offered */
		return 0;
	}
}

/*
 * Check a newly taken WQE and set up its buffer position: 0 or the
 * completion status it fails with.  The length comes from the SGEs (or
 * the inline data), whatever librxe wrote into dma.length.
 */
static u32 req_check_wqe(struct rxe_qp *qp, struct rxe_send_wqe *wqe)
{
	size_t room = qp->sq.queue->elem_size - sizeof(*wqe);
	u32 kind = req_wqe_kind(qp, wqe->wr.opcode);
	struct rxe_dma_info *dma = &wqe->dma;
	u64 len = 0;
	u32 i;

	wqe->mask = kind | RXE_WQE_CHECKED;
	if (!kind)
		return IB_WC_LOC_QP_OP_ERR;
	if (kind & RXE_WQE_LOCAL) {
		dma->length = 0;
		dma->resid = 0;
		dma->num_sge = 0;
		return 0;
	}
	if (kind & RXE_WQE_FLUSH) {
		/*
		 * librxe writes the remote range's length into dma.length and
		 * no SGE: it goes into the RETH, and nothing moves here.
		 */
		rxe_wr_flush(&wqe->wr)->length = dma->length;
		dma->num_sge = 0;
		dma->length = 0;
		dma->resid = 0;
		dma->cur_sge = 0;
		dma->sge_offset = 0;
		return 0;
	}
	if (kind & RXE_WQE_AWRITE) {
		/* librxe puts the 8 bytes where inline data goes */
		wqe->mask |= RXE_WQE_INLINE;
		len = sizeof(u64);
		if (wqe->wr.wr.rdma.remote_addr & 7)
			return IB_WC_LOC_QP_OP_ERR;
	} else if (wqe->wr.send_flags & IB_SEND_INLINE) {
		/* librxe put the data over the SGE list */
		if (!(kind & (RXE_WQE_SEND | RXE_WQE_WRITE)))
			return IB_WC_LOC_QP_OP_ERR;
		wqe->mask |= RXE_WQE_INLINE;
		len = dma->length;
		if (len > (u64)qp->sq.max_inline || len > room)
			return IB_WC_LOC_LEN_ERR;
	} else {
		if (dma->num_sge > qp->sq.max_sge ||
		    dma->num_sge * sizeof(struct rxe_sge) > room)
			return IB_WC_LOC_QP_OP_ERR;
		for (i = 0; i < dma->num_sge; i++)
			len += dma->sge[i].length;
		if (len > RXE_MAX_MSG_SIZE)
			return IB_WC_LOC_LEN_ERR;
	}
	/* the original value comes back into the first 8 bytes */
	if ((kind & RXE_WQE_ATOMIC) && len < sizeof(u64))
		return IB_WC_LOC_LEN_ERR;
	if (rxe_qp_transport(qp) == RXE_TRANSPORT_UD &&
	    !wqe->wr.wr.ud.ah_num &&
	    !rxe_wqe_av_rebuild(qp, &wqe->wr.wr.ud.av))
		return IB_WC_LOC_QP_OP_ERR;
	dma->length = len;
	dma->resid = len;
	dma->cur_sge = 0;
	dma->sge_offset = 0;
	return 0;
}

/* The WQE at cur_index is started: the completer will retire it. */
static void req_started(struct rxe_qp *qp)
{
	struct rxe_req_info *req = &qp->req;

	if (req->wqe_index == req->cur_index)
		WRITE_ONCE(req->wqe_index, rxe_sq_next(qp, req->cur_index));
}

/*
 * The WQE at cur_index failed: the requester stays on it, the completer
 * completes it (after the ones before it) and moves the QP to ERR.
 */
static int req_fail(struct rxe_qp *qp, struct rxe_send_wqe *wqe, u32 status)
{
	wqe->status = status;
	wqe->state = RXE_WQE_ERROR;
	req_started(qp);
	rxe_comp_run(qp);
	return 1;
}

static int req_block(struct rxe_qp *qp)
{
	qp->req.blocked = true;
	return 1;
}

/* Move the buffer position of @wqe @n bytes on without copying. */
static void req_dma_skip(struct rxe_send_wqe *wqe, u32 n)
{
	struct rxe_dma_info *dma = &wqe->dma;

	n = min(n, dma->resid);
	dma->resid -= n;
	if (wqe->mask & RXE_WQE_INLINE)
		return;		/* its position is length - resid */
	while (n && dma->cur_sge < dma->num_sge) {
		u32 left = dma->sge[dma->cur_sge].length - dma->sge_offset;

		if (n < left) {
			dma->sge_offset += n;
			return;
		}
		n -= left;
		dma->cur_sge++;
		dma->sge_offset = 0;
	}
}

/* Prepare a started WQE to be sent again; @head: the oldest one. */
static void req_restart(struct rxe_qp *qp, struct rxe_send_wqe *wqe,
			bool head)
{
	u32 done = 0;

	if (head && rxe_psn_cmp(qp->comp.psn, wqe->first_psn) > 0)
		done = (qp->comp.psn - wqe->first_psn) & RXE_PSN_MASK;
	if (done && (wqe->mask & RXE_WQE_READ)) {
		/* keep the data that arrived, ask for the rest */
		wqe->state = RXE_WQE_PROCESSING;
		return;
	}
	wqe->dma.resid = wqe->dma.length;
	wqe->dma.cur_sge = 0;
	wqe->dma.sge_offset = 0;
	wqe->state = RXE_WQE_POSTED;
	if (done && (wqe->mask & (RXE_WQE_SEND | RXE_WQE_WRITE))) {
		/* the packets before comp.psn were acknowledged */
		req_dma_skip(wqe, min_t(u64, (u64)done * req_mtu(qp),
					wqe->dma.length));
		wqe->state = RXE_WQE_PROCESSING;
	}
}

/*
 * A retry that starts with a FLUSH: the in-tree rxe drops a FLUSH sealed
 * with the IBTA's ICRC unanswered, and an IBTA peer one with the in-tree
 * form (rxe_icrc.h), so the FLUSH is sent again in the other form.  The
 * form that was answered stays the QP's for its later FLUSHes; towards an
 * IBTA peer it changes only after a loss, and back at the next retry.
 */
static void req_flush_retry(struct rxe_qp *qp)
{
	struct rxe_req_info *req = &qp->req;
	struct rxe_send_wqe *wqe;

	if (req->cur_index == req->wqe_index)
		return;
	wqe = rxe_sq_wqe(qp, req->cur_index);
	if ((wqe->mask & RXE_WQE_FLUSH) && wqe->state != RXE_WQE_DONE)
		WRITE_ONCE(req->flush_icrc_intree, !req->flush_icrc_intree);
}

/* Go back to the oldest WQE not completed, and to comp.psn. */
static void req_rewind(struct rxe_qp *qp)
{
	struct rxe_req_info *req = &qp->req;
	u32 idx = rxe_queue_consumer(qp->sq.queue);
	bool head = true;

	req->cur_index = idx;
	req->psn = qp->comp.psn;
	req->opcode = -1;
	req->noack_pkts = 0;
	for (; idx != req->wqe_index; idx = rxe_sq_next(qp, idx)) {
		struct rxe_send_wqe *wqe = rxe_sq_wqe(qp, idx);

		if (wqe->state == RXE_WQE_DONE)
			continue;	/* local operations run once */
		/*
		 * A POSTED one here was started and reset by an earlier
		 * go-back: it too may be acknowledged in part now.
		 */
		if (wqe->state == RXE_WQE_ERROR)
			break;
		req_restart(qp, wqe, head);
		head = false;
	}
}

/* The BTH opcode of the next packet of @wqe. */
static u8 req_opcode(const struct rxe_qp *qp, const struct rxe_send_wqe *wqe,
		     bool first, bool last)
{
	u32 kind = wqe->mask;
	u8 op;

	if (kind & RXE_WQE_FLUSH) {
		op = RXE_OP_FLUSH;
	} else if (kind & RXE_WQE_READ) {
		op = RXE_OP_READ_REQUEST;
	} else if (kind & RXE_WQE_ATOMIC) {
		op = wqe->wr.opcode == IB_UVERBS_WR_ATOMIC_CMP_AND_SWP ?
		     RXE_OP_COMPARE_SWAP : RXE_OP_FETCH_ADD;
	} else if (kind & RXE_WQE_AWRITE) {
		op = RXE_OP_ATOMIC_WRITE;
	} else if (kind & RXE_WQE_WRITE) {
		op = first ? (last ? RXE_OP_WRITE_ONLY : RXE_OP_WRITE_FIRST) :
			     (last ? RXE_OP_WRITE_LAST : RXE_OP_WRITE_MIDDLE);
		/* each _IMM opcode follows its plain one */
		if (last && (kind & RXE_WQE_IMM))
			op++;
	} else {
		op = first ? (last ? RXE_OP_SEND_ONLY : RXE_OP_SEND_FIRST) :
			     (last ? RXE_OP_SEND_LAST : RXE_OP_SEND_MIDDLE);
		if (last && (kind & RXE_WQE_IMM))
			op++;
		else if (last && (kind & RXE_WQE_INV))
			op = first ? RXE_OP_SEND_ONLY_INV : RXE_OP_SEND_LAST_INV;
	}
	return rxe_qp_transport(qp) | op;
}

/* The headers of a request packet (the payload area stays as it is). */
static void req_build_hdrs(struct rxe_qp *qp, struct rxe_send_wqe *wqe,
			   struct sk_buff *skb, u8 opcode, u32 payload,
			   bool last, bool ackreq)
{
	struct rxe_pkt_info *pkt = rxe_skb_pkt(skb);
	const struct rxe_send_wr *wr = &wqe->wr;
	const struct rxe_flush_wr_abi *flush = rxe_wr_flush(wr);
	struct rxe_dma_info *dma = &wqe->dma;
	bool ud = rxe_qp_transport(qp) == RXE_TRANSPORT_UD;
	struct rxe_bth_fields bth = {
		.opcode = opcode,
		/* on the last packet of a send or of a write with imm */
		.se = last && (wr->send_flags & IB_SEND_SOLICITED) &&
		      (wqe->mask & (RXE_WQE_SEND | RXE_WQE_IMM)),
		.ackreq = ackreq,
		.pad = rxe_pad_len(payload),
		.tver = RXE_TVER,
		.pkey = RXE_DEFAULT_PKEY,
		.qpn = ud ? wr->wr.ud.remote_qpn & RXE_QPN_MASK :
			    qp->attr.dest_qp_num,
		.psn = qp->req.psn,
	};
	u8 *p;

	pkt->opcode = opcode;
	pkt->psn = qp->req.psn;
	pkt->mask = rxe_opcode_mask(opcode);
	rxe_bth_encode(pkt->hdr, &bth);

	if (pkt->mask & RXE_FETH_MASK) {
		/* librxe writes the wire's placement types and levels */
		rxe_feth_set(rxe_pkt_hdr(pkt, RXE_FETH), flush->type,
			     flush->level);
		p = rxe_pkt_hdr(pkt, RXE_RETH);
		rxe_reth_set_va(p, flush->remote_addr);
		rxe_reth_set_rkey(p, flush->rkey);
		rxe_reth_set_len(p, flush->length);
	} else
	if (pkt->mask & RXE_RETH_MASK) {
		/* a write's first packet, or a read of what is missing */
		p = rxe_pkt_hdr(pkt, RXE_RETH);
		rxe_reth_set_va(p, wr->wr.rdma.remote_addr +
				   (dma->length - dma->resid));
		rxe_reth_set_rkey(p, wr->wr.rdma.rkey);
		rxe_reth_set_len(p, dma->resid);
	}
	if (pkt->mask & RXE_ATMETH_MASK) {
		p = rxe_pkt_hdr(pkt, RXE_ATMETH);
		rxe_atmeth_set_va(p, wr->wr.atomic.remote_addr);
		rxe_atmeth_set_rkey(p, wr->wr.atomic.rkey);
		if (wr->opcode == IB_UVERBS_WR_ATOMIC_CMP_AND_SWP) {
			rxe_atmeth_set_swap_add(p, wr->wr.atomic.swap);
			rxe_atmeth_set_comp(p, wr->wr.atomic.compare_add);
		} else {
			rxe_atmeth_set_swap_add(p, wr->wr.atomic.compare_add);
		}
	}
	if (pkt->mask & RXE_IMMDT_MASK)
		rxe_immdt_set_imm(rxe_pkt_hdr(pkt, RXE_IMMDT), wr->ex.imm_data);
	if (pkt->mask & RXE_IETH_MASK)
		rxe_ieth_set_rkey(rxe_pkt_hdr(pkt, RXE_IETH),
				  wr->ex.invalidate_rkey);
	if (pkt->mask & RXE_DETH_MASK) {
		u32 qkey = wr->wr.ud.remote_qkey;

		/* QP1 uses the well-known Q_Key; a "controlled" one (MSB
		 * set) means the QP's own
		 */
		if (rxe_qp_num(qp) == 1)
			qkey = RXE_GSI_QKEY;
		else if (qkey & RXE_QKEY_CONTROLLED)
			qkey = qp->attr.qkey;
		p = rxe_pkt_hdr(pkt, RXE_DETH);
		rxe_deth_set_qkey(p, qkey);
		rxe_deth_set_sqp(p, rxe_qp_num(qp));
	}
}

/* The payload copied into the packet: 0 or a completion status. */
static u32 req_copy_payload(struct rxe_qp *qp, struct rxe_send_wqe *wqe,
			    struct sk_buff *skb, u32 payload)
{
	struct rxe_dma_info *dma = &wqe->dma;
	/* all of it is written here: rxe_pkt_alloc() left it as it was */
	u8 *p = rxe_pkt_payload(rxe_skb_pkt(skb));
	int err;

	if (!payload)
		return 0;
	if (wqe->mask & RXE_WQE_INLINE) {
		memcpy(p, dma->inline_data + (dma->length - dma->resid),
		       payload);
		dma->resid -= payload;
		return 0;
	}
	err = rxe_dma_copy(qp->rxe, &qp->pd->ibpd, 0, dma, p, payload,
			   RXE_COPY_FROM_MR);
	if (err)
		return err == -ENOSPC ? IB_WC_LOC_LEN_ERR : IB_WC_LOC_PROT_ERR;
	return 0;
}

/*
 * RC to this host: the payload by reference to the sender's pages (the
 * WQE completes only once the responder has copied it and ACKed).  NULL
 * when that does not work out (too many fragments, a kernel MR, a bad
 * SGE: the copy finds out which), with the WQE's position unchanged.
 */
static struct sk_buff *req_ref_pkt(struct rxe_qp *qp,
				   struct rxe_send_wqe *wqe,
				   const struct rxe_av *av, u8 opcode,
				   u32 payload, bool last, bool ackreq)
{
	struct rxe_dma_info *dma = &wqe->dma;
	u32 cur_sge = dma->cur_sge, sge_offset = dma->sge_offset;
	u32 resid = dma->resid;
	struct sk_buff *skb;

	skb = rxe_pkt_alloc(qp, av, rxe_opcode_hdr_len(opcode), 0);
	if (!skb)
		return NULL;
	req_build_hdrs(qp, wqe, skb, opcode, payload, last, ackreq);
	if (!rxe_dma_frags(qp->rxe, &qp->pd->ibpd, dma, skb, payload) &&
	    !rxe_pkt_add_trailer(skb, rxe_pad_len(payload)))
		return skb;
	dma->cur_sge = cur_sge;
	dma->sge_offset = sge_offset;
	dma->resid = resid;
	kfree_skb(skb);
	return NULL;
}

/* Send the next packet of @wqe (the one at cur_index). */
static int req_send(struct rxe_qp *qp, struct rxe_send_wqe *wqe)
{
	struct rxe_req_info *req = &qp->req;
	struct rxe_dma_info *dma = &wqe->dma;
	bool rc = req_is_rc(qp);
	u32 mtu = req_mtu(qp);
	struct rxe_ah *ah = NULL;
	const struct rxe_av *av;
	u32 payload = 0, npsn = 1, status;
	bool first = true, last = true, ackreq;
	struct sk_buff *skb;
	u8 opcode;

	if (wqe->mask & (RXE_WQE_SEND | RXE_WQE_WRITE)) {
		first = dma->resid == dma->length;
		last = dma->resid <= mtu;
		payload = last ? dma->resid : mtu;
	} else if (wqe->mask & RXE_WQE_READ) {
		/* the responses take one PSN each */
		npsn = max_t(u32, DIV_ROUND_UP(dma->resid, mtu), 1);
	}
	opcode = req_opcode(qp, wqe, first, last);

	if (rxe_qp_transport(qp) == RXE_TRANSPORT_UD) {
		av = rxe_wqe_av(qp, wqe, &ah);
		if (!av)
			return req_fail(qp, wqe, IB_WC_LOC_QP_OP_ERR);
	} else {
		av = &qp->pri_av;
	}

	if (wqe->state == RXE_WQE_POSTED) {
		u32 n = npsn;

		if (wqe->mask & (RXE_WQE_SEND | RXE_WQE_WRITE))
			n = max_t(u32, DIV_ROUND_UP(dma->length, mtu), 1);
		wqe->first_psn = req->psn;
		wqe->last_psn = rxe_psn_add(req->psn, n - 1);
		wqe->state = RXE_WQE_PROCESSING;
		req_started(qp);
	}

	/* RC: ask for an ACK at the end and every so often within */
	ackreq = rc && (last || req->noack_pkts + 1 >= RXE_MAX_PKT_PER_ACK);
	skb = NULL;
	if (payload >= RXE_PAYLOAD_BY_REF_MIN && qp->path_local &&
	    !(wqe->mask & RXE_WQE_INLINE))
		skb = req_ref_pkt(qp, wqe, av, opcode, payload, last, ackreq);
	if (!skb) {
		skb = rxe_pkt_alloc(qp, av, rxe_opcode_hdr_len(opcode) +
					    payload + rxe_pad_len(payload) +
					    RXE_ICRC_BYTES, payload);
		if (skb) {
			req_build_hdrs(qp, wqe, skb, opcode, payload, last,
				       ackreq);
			status = req_copy_payload(qp, wqe, skb, payload);
			if (status) {
				kfree_skb(skb);
				if (ah)
					rxe_ah_put(ah);
				return req_fail(qp, wqe, status);
			}
		} else {
			/* as if lost on the wire */
			req_dma_skip(wqe, payload);
		}
	}
	if (rc)
		req->noack_pkts = ackreq ? 0 : req->noack_pkts + 1;

	/* nothing was unanswered: the retransmit timeout starts now */
	if (rc && rxe_psn_cmp(req->psn, qp->comp.psn) <= 0)
		req->progress_jiffies = jiffies;
	req->psn = rxe_psn_add(req->psn, npsn);
	req->sent_psn = rxe_psn_max(req->sent_psn, req->psn);
	req->opcode = opcode;
	if (last) {
		wqe->state = rc ? RXE_WQE_PENDING : RXE_WQE_DONE;
		req->cur_index = rxe_sq_next(qp, req->cur_index);
	}
	/* armed before the packet leaves: its response may come at once */
	if (rc && req->qp_timeout_jiffies &&
	    !timer_pending(&req->retrans_timer))
		mod_timer(&req->retrans_timer,
			  jiffies + req->qp_timeout_jiffies);
	/* sent by rxe_requester() once the lock is released */
	if (skb) {
		req->tx_av = *av;
		req->tx_skb = skb;
	}
	if (ah)
		rxe_ah_put(ah);
	/* UC/UD: done once sent; the completer runs right after the send */
	if (!rc && last)
		req->tx_complete = true;
	return 0;
}

/*
 * Bind MW, local invalidate or fast registration, in order with the rest
 * of the queue.
 */
static int req_local(struct rxe_qp *qp, struct rxe_send_wqe *wqe)
{
	u32 status = 0;

	if (wqe->wr.opcode == IB_UVERBS_WR_LOCAL_INV) {
		/* local invalidate fence: what comes before must be done */
		if (qp->req.cur_index != rxe_queue_consumer(qp->sq.queue))
			return req_block(qp);
		if (rxe_invalidate_rkey(qp, wqe->wr.ex.invalidate_rkey))
			status = IB_WC_LOC_QP_OP_ERR;
	} else if (wqe->wr.opcode == IB_WR_REG_MR) {
		if (rxe_mr_fast_reg(qp, wqe->wr.wr.mw.mr_lkey,
				    wqe->wr.wr.mw.rkey, wqe->wr.wr.mw.access))
			status = IB_WC_LOC_QP_OP_ERR;
	} else {
		status = rxe_mw_bind(qp, wqe);
	}
	if (status)
		return req_fail(qp, wqe, status);
	req_started(qp);
	wqe->state = RXE_WQE_DONE;
	qp->req.cur_index = rxe_sq_next(qp, qp->req.cur_index);
	rxe_comp_run(qp);
	return 0;
}

static int req_step(struct rxe_qp *qp)
{
	enum ib_qp_state state = rxe_qp_state(qp);
	struct rxe_req_info *req = &qp->req;
	struct rxe_send_wqe *wqe;
	u32 status;

	if (state == IB_QPS_ERR || state == IB_QPS_SQE) {
		rxe_comp_run(qp);	/* which flushes the queue */
		return 1;
	}
	if (state != IB_QPS_RTS && state != IB_QPS_SQD)
		return 1;

	if (test_and_clear_bit(RXE_REQ_EV_RNR, &req->events)) {
		req->wait_rnr_timer = false;
		req->need_retry = true;
	}
	if (req->wait_rnr_timer)
		return 1;	/* the responder asked us to wait */
	if (req->need_retry) {
		req->need_retry = false;
		req_rewind(qp);
		req_flush_retry(qp);
	} else if (req_is_rc(qp) &&
		   rxe_psn_cmp(qp->comp.psn, req->psn) > 0) {
		/*
		 * The peer acknowledged PSNs this go-back has not re-sent
		 * yet (it had them from before): skip ahead to comp.psn,
		 * past what is complete and the acknowledged part of the
		 * oldest WQE, as a retry from there would.
		 */
		req_rewind(qp);
	}
	/* rxe_net kicks us when enough of them are freed */
	if (atomic_read(&qp->skb_out) > RXE_INFLIGHT_SKBS_PER_QP_HIGH)
		return 1;
	if (req_is_rc(qp) &&
	    rxe_psn_cmp(req->psn, rxe_psn_add(qp->comp.psn,
					      RXE_MAX_UNACKED_PSNS)) > 0)
		return req_block(qp);

	if (req->cur_index == req->shadow_index) {
		/* the completer kicks us when it retires the oldest */
		if (rxe_sq_shadow_full(qp))
			return req_block(qp);
		if (!rxe_sq_take(qp))
			return 1;
	}
	wqe = rxe_sq_wqe(qp, req->cur_index);
	switch (wqe->state) {
	case RXE_WQE_POSTED:
		break;
	case RXE_WQE_PROCESSING:
		return req_send(qp, wqe);
	case RXE_WQE_ERROR:
		rxe_comp_run(qp);
		return 1;
	default:	/* done before a retry went back over it */
		req->cur_index = rxe_sq_next(qp, req->cur_index);
		return 0;
	}

	/* SQD: finish what was started, start nothing new */
	if (state == IB_QPS_SQD && req->cur_index == req->wqe_index)
		return 1;
	if (!wqe->mask) {
		status = req_check_wqe(qp, wqe);
		if (status)
			return req_fail(qp, wqe, status);
	}
	/*
	 * fence: the reads and atomics before must be complete.  Only for
	 * a WQE not started yet: one a go-back re-sends passed its fence
	 * the first time, and rd_out may now count reads after it, which
	 * cannot complete before it is re-sent.
	 */
	if ((wqe->wr.send_flags & IB_SEND_FENCE) && req->rd_out &&
	    req->cur_index == req->wqe_index)
		return req_block(qp);
	if (wqe->mask & RXE_WQE_LOCAL)
		return req_local(qp, wqe);
	if ((wqe->mask & (RXE_WQE_READ | RXE_WQE_ATOMIC)) &&
	    !wqe->has_rd_atomic) {
		/* 0 lets one through, as hardware does */
		if (req->rd_out >= max_t(u32, qp->attr.max_rd_atomic, 1))
			return req_block(qp);
		req->rd_out++;
		wqe->has_rd_atomic = 1;
	}
	if (rxe_qp_transport(qp) == RXE_TRANSPORT_UD &&
	    wqe->dma.length > req_mtu(qp)) {
		/* C10-93.1.1: too long for UD: send nothing, report no error */
		req_started(qp);
		wqe->state = RXE_WQE_DONE;
		req->cur_index = rxe_sq_next(qp, req->cur_index);
		rxe_comp_run(qp);
		return 0;
	}
	return req_send(qp, wqe);
}

static int rxe_requester(struct rxe_qp *qp)
{
	struct sk_buff *skb;
	struct rxe_av av;
	bool complete;
	int ret;

	spin_lock_bh(&qp->req.lock);
	ret = req_step(qp);
	skb = qp->req.tx_skb;
	if (skb) {
		qp->req.tx_skb = NULL;
		av = qp->req.tx_av;
	}
	complete = qp->req.tx_complete;
	qp->req.tx_complete = false;
	spin_unlock_bh(&qp->req.lock);
	/* a drop is counted there, and is a loss like any other */
	if (skb)
		rxe_pkt_xmit(qp, &av, skb);
	if (complete)
		rxe_task_run_inline(&qp->comp.task);
	return ret;
}

static void rxe_rnr_timer(struct timer_list *t)
{
	struct rxe_qp *qp = from_timer(qp, t, req.rnr_nak_timer);

	set_bit(RXE_REQ_EV_RNR, &qp->req.events);
	rxe_req_run(qp);
}

void rxe_req_init(struct rxe_qp *qp)
{
	spin_lock_init(&qp->req.lock);
	rxe_task_init(&qp->req.task, qp, rxe_requester);
	rxe_task_init(&qp->comp.task, qp, rxe_completer);
	timer_setup(&qp->req.retrans_timer, rxe_retrans_timer, 0);
	timer_setup(&qp->req.rnr_nak_timer, rxe_rnr_timer, 0);
	/* a new QP is in RESET: no runs until rxe_req_start() */
	rxe_req_stop(qp);
	rxe_req_reset(qp);
}

void rxe_req_stop(struct rxe_qp *qp)
{
	rxe_task_stop(&qp->req.task);
	rxe_task_stop(&qp->comp.task);
	/* nothing arms the timers now; wait for a running handler */
	del_timer_sync(&qp->req.retrans_timer);
	del_timer_sync(&qp->req.rnr_nak_timer);
	/* and cancel a run it may have queued just before the stop */
	rxe_task_stop(&qp->req.task);
	rxe_task_stop(&qp->comp.task);
}

/* The tasks are stopped; the SQ ring holds nothing (rxe_qp.c). */
void rxe_req_reset(struct rxe_qp *qp)
{
	struct rxe_req_info *req = &qp->req;
	u32 cons = rxe_queue_consumer(qp->sq.queue);

	req->wqe_index = cons;
	req->cur_index = cons;
	req->shadow_index = cons;
	req->opcode = -1;
	req->rd_out = 0;
	req->noack_pkts = 0;
	req->need_retry = false;
	req->flush_icrc_intree = false;	/* the next peer may be another */
	req->wait_rnr_timer = false;
	req->blocked = false;
	req->events = 0;
	qp->comp.opcode = -1;
	qp->comp.started_retry = false;
	rxe_comp_purge(qp);
}

void rxe_req_start(struct rxe_qp *qp)
{
	rxe_task_start(&qp->req.task);
	rxe_task_start(&qp->comp.task);
}

void rxe_req_run(struct rxe_qp *qp)
{
	rxe_task_run(&qp->req.task);
}

void rxe_req_run_inline(struct rxe_qp *qp)
{
	rxe_task_run_inline(&qp->req.task);
}
