// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The responder: the receive side of a QP.  It takes the request packets
 * rxe_rcv() queued on qp->req_pkts, one per call, checks them (PSN,
 * opcode order, rights, keys, lengths), executes them against the
 * receive queue and memory, completes receive WQEs into the receive CQ
 * and, for RC, answers: ACKs and NAKs, RDMA read response data, atomic
 * ACKs.
 *
 * RDMA reads and atomics leave a responder resource behind (a ring of
 * them), so that a duplicate of the request (its response was lost) is
 * answered again without executing it twice: a read is sent again from
 * memory, an atomic's original value is sent again from the resource.
 *
 * Read responses go out one packet per call, so that a long read does not
 * hold up the QP's other work (or other QPs: the task requeues itself).
 * Requests are taken in order, and a new one only once the read before it
 * is answered.
 */
#include <linux/highmem.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/skbuff.h>
#include <linux/slab.h>
#include "rxe_loc.h"

/* ACK requests answered by one coalesced ACK at most. */
#define RXE_RESP_ACK_COALESCE	16
/* The GRH area at the start of a UD receive buffer. */
#define RXE_GRH_BYTES		40

/* Outcome of the checks and the execution of one request packet. */
enum resp_err {
	RESP_OK,
	RESP_DROP,		/* discard silently */
	RESP_RNR,		/* no receive WQE posted */
	RESP_INV_REQ,		/* bad request: opcode, order, rights, length */
	RESP_ACCESS,		/* bad R_Key or range */
	RESP_OP_ERR,		/* malformed receive WQE */
	RESP_LEN,		/* message longer than the receive buffer */
	RESP_PROT,		/* bad lkey in the receive WQE */
};

/* What each error becomes: the NAK code (RC) and the WQE status. */
static const u8 resp_nak_code[] = {
	[RESP_INV_REQ]	= RXE_NAK_INVALID_REQ,
	[RESP_ACCESS]	= RXE_NAK_REM_ACCESS_ERR,
	[RESP_OP_ERR]	= RXE_NAK_REM_OP_ERR,
	[RESP_LEN]	= RXE_NAK_INVALID_REQ,
	[RESP_PROT]	= RXE_NAK_REM_OP_ERR,
};

static const u8 resp_wc_status[] = {
	[RESP_INV_REQ]	= IB_WC_REM_INV_REQ_ERR,
	[RESP_ACCESS]	= IB_WC_REM_ACCESS_ERR,
	[RESP_OP_ERR]	= IB_WC_LOC_QP_OP_ERR,
	[RESP_LEN]	= IB_WC_LOC_LEN_ERR,
	[RESP_PROT]	= IB_WC_LOC_PROT_ERR,
};

static struct rxe_recv_wqe *resp_wqe(struct rxe_qp *qp)
{
	return (struct rxe_recv_wqe *)qp->resp.wqe_buf;
}

static u8 resp_transport(const struct rxe_qp *qp)
{
	switch (rxe_qp_type(qp)) {
	case IB_QPT_RC:
		return RXE_TRANSPORT_RC;
	case IB_QPT_UC:
		return RXE_TRANSPORT_UC;
	default:
		return RXE_TRANSPORT_UD;
	}
}

static unsigned int resp_mtu(const struct rxe_qp *qp)
{
	return qp->mtu ? qp->mtu : 256;
}

/* RETH lengths beyond the port's max_msg_sz are invalid requests. */
static bool resp_len_ok(const struct rxe_qp *qp, u32 len)
{
	return len <= qp->rxe->port_attr.max_msg_sz;
}

static u8 resp_prev_opcode(const struct rxe_qp *qp)
{
	return qp->resp.opcode < 0 ? RXE_OPCODE_NONE : (u8)qp->resp.opcode;
}

/* ------------------------------------------------------------------ */
/* Answers (RC)                                                         */
/* ------------------------------------------------------------------ */

/*
 * A response packet for @payload bytes, AETH filled if any: with room
 * for them, or (@by_ref) with headers only, for rxe_mr_frags() and
 * rxe_pkt_add_trailer() to complete.
 */
static struct sk_buff *resp_pkt_new(struct rxe_qp *qp, u8 opcode, u32 psn,
				    u32 payload, u8 syn, bool by_ref)
{
	struct rxe_bth_fields bth = {
		.opcode = opcode,
		.pad = rxe_pad_len(payload),
		.tver = RXE_TVER,
		.pkey = RXE_DEFAULT_PKEY,
		.qpn = qp->attr.dest_qp_num,
		.psn = psn,
	};
	struct rxe_pkt_info *pkt;
	struct sk_buff *skb;
	u8 *aeth;

	/* a read response's data is copied in whole by the caller */
	skb = rxe_pkt_alloc(qp, &qp->pri_av, rxe_opcode_hdr_len(opcode) +
			    (by_ref ? 0 : payload + bth.pad + RXE_ICRC_BYTES),
			    by_ref ? 0 : payload);
	if (!skb)
		return NULL;
	pkt = rxe_skb_pkt(skb);
	pkt->opcode = opcode;
	pkt->psn = psn;
	pkt->mask = rxe_opcode_mask(opcode);
	rxe_bth_encode(pkt->hdr, &bth);
	if (pkt->mask & RXE_AETH_MASK) {
		aeth = rxe_pkt_hdr(pkt, RXE_AETH);
		rxe_aeth_set_syn(aeth, syn);
		rxe_aeth_set_msn(aeth, qp->resp.msn);
	}
	return skb;
}

/* Losses are the requester's to recover from: its timer retries. */
static void resp_ack_now(struct rxe_qp *qp, u8 syn, u32 psn)
{
	struct sk_buff *skb;

	/* to this host, without a packet; NAKs are rare and keep theirs */
	if (qp->path_local && rxe_aeth_syn_type(syn) == RXE_AETH_ACK &&
	    rxe_local_ack(qp, psn, syn))
		return;
	skb = resp_pkt_new(qp, RXE_OPCODE_RC_ACKNOWLEDGE, psn, 0, syn, false);
	if (skb)
		rxe_pkt_xmit(qp, &qp->pri_av, skb);
}

/* Send the coalesced ACK, if one is due. */
static void resp_ack_flush(struct rxe_qp *qp)
{
	struct rxe_resp_info *r = &qp->resp;

	if (!r->ack_pending)
		return;
	r->ack_pending = false;
	r->ack_count = 0;
	resp_ack_now(qp, rxe_aeth_syn_ack(RXE_AETH_CREDITS_UNLIMITED),
		     r->ack_pending_psn);
}

/*
 * A packet asked for an ACK.  ACKs are cumulative, so one ACK answers a
 * burst: it goes out when the request queue runs empty, before any other
 * answer (PSN order), or after RXE_RESP_ACK_COALESCE requests.
 */
static void resp_ack_req(struct rxe_qp *qp, u32 psn)
{
	struct rxe_resp_info *r = &qp->resp;

	r->ack_pending = true;
	r->ack_pending_psn = psn;
	if (++r->ack_count >= RXE_RESP_ACK_COALESCE)
		resp_ack_flush(qp);
}

static void resp_send_ack(struct rxe_qp *qp, u8 syn, u32 psn)
{
	resp_ack_flush(qp);
	resp_ack_now(qp, syn, psn);
}

static void resp_send_nak(struct rxe_qp *qp, u8 code, u32 psn)
{
	resp_send_ack(qp, rxe_aeth_syn_nak(code), psn);
}

static void resp_send_atomic_ack(struct rxe_qp *qp, u32 psn, u64 orig)
{
	struct sk_buff *skb;

	resp_ack_flush(qp);
	skb = resp_pkt_new(qp, RXE_OPCODE_RC_ATOMIC_ACKNOWLEDGE, psn, 0,
			   rxe_aeth_syn_ack(RXE_AETH_CREDITS_UNLIMITED), false);
	if (!skb)
		return;
	rxe_atmack_set_orig(rxe_pkt_hdr(rxe_skb_pkt(skb), RXE_ATMACK), orig);
	rxe_pkt_xmit(qp, &qp->pri_av, skb);
}

/* ------------------------------------------------------------------ */
/* Receive WQEs                                                         */
/* ------------------------------------------------------------------ */

static void resp_wqe_rewind(struct rxe_recv_wqe *wqe)
{
	wqe->dma.resid = wqe->dma.length;
	wqe->dma.cur_sge = 0;
	wqe->dma.sge_offset = 0;
}

/*
 * Copy the next receive WQE into qp->resp.  Only the SGE list is taken
 * from userspace; the DMA state is recomputed from it.  A WQE with too
 * many SGEs is kept (its wr_id) to be completed in error.
 */
static int resp_get_wqe(struct rxe_qp *qp)
{
	struct rxe_recv_wqe *wqe = resp_wqe(qp);
	struct rxe_recv_wqe *uwqe;
	u32 num_sge, max_sge, i;
	u64 len = 0;
	int err;

	if (qp->srq) {
		/*
		 * A WQE with more SGEs than the SRQ allows comes without
		 * them: only its header was copied, and the SGEs in our
		 * buffer are an earlier receive's, so the SRQ's own limit
		 * decides here, not the buffer's.
		 */
		err = rxe_srq_take(qp->srq, wqe, sizeof(qp->resp.wqe_buf));
		if (err)
			return err == -ENOENT ? RESP_RNR : RESP_OP_ERR;
		num_sge = wqe->dma.num_sge;
		max_sge = min_t(u32, qp->srq->max_sge, RXE_RESP_MAX_SGE);
	} else {
		if (!qp->rq.queue)
			return RESP_DROP;
		uwqe = rxe_queue_head(qp->rq.queue);
		if (!uwqe)
			return RESP_RNR;
		num_sge = READ_ONCE(uwqe->dma.num_sge);
		max_sge = min_t(u32, qp->rq.max_sge, RXE_RESP_MAX_SGE);
		if (num_sge <= max_sge)
			memcpy(wqe, uwqe, sizeof(*wqe) +
			       num_sge * sizeof(wqe->dma.sge[0]));
		else
			wqe->wr_id = READ_ONCE(uwqe->wr_id);
	}
	qp->resp.has_wqe = true;
	if (num_sge > max_sge)
		return RESP_OP_ERR;

	wqe->dma.num_sge = num_sge;
	for (i = 0; i < num_sge; i++)
		len += wqe->dma.sge[i].length;
	wqe->dma.length = min_t(u64, len, U32_MAX);
	resp_wqe_rewind(wqe);
	return RESP_OK;
}

/*
 * Retire the WQE in qp->resp into the receive CQ: @pkt is the last packet
 * of its message when @status is IB_WC_SUCCESS.
 */
static void resp_complete(struct rxe_qp *qp, const struct rxe_pkt_info *pkt,
			  enum ib_wc_status status)
{
	struct rxe_recv_wqe *wqe = resp_wqe(qp);
	struct ib_uverbs_wc wc = {
		.wr_id = wqe->wr_id,
		.status = status,
		.opcode = IB_WC_RECV,
		.qp_num = rxe_qp_num(qp),
		.port_num = 1,
	};
	bool solicited = true;	/* errors always notify */
	u32 mask;

	if (pkt && status == IB_WC_SUCCESS) {
		mask = rxe_opcode_mask(pkt->opcode);
		if (mask & RXE_WRITE_MASK) {
			wc.opcode = IB_WC_RECV_RDMA_WITH_IMM;
			wc.byte_len = qp->resp.wr_length;
		} else {
			wc.byte_len = wqe->dma.length - wqe->dma.resid;
		}
		if (mask & RXE_IMMDT_MASK) {
			wc.wc_flags |= IB_WC_WITH_IMM;
			wc.ex.imm_data =
				rxe_immdt_imm(rxe_pkt_hdr(pkt, RXE_IMMDT));
		}
		if (mask & RXE_IETH_MASK) {
			wc.wc_flags |= IB_WC_WITH_INVALIDATE;
			wc.ex.invalidate_rkey =
				rxe_ieth_rkey(rxe_pkt_hdr(pkt, RXE_IETH));
		}
		if (mask & RXE_DETH_MASK) {
			wc.wc_flags |= IB_WC_GRH;
			wc.src_qp = rxe_deth_sqp(rxe_pkt_hdr(pkt, RXE_DETH));
			/* kernel CQs only: what the GRH slot holds */
			wc.reserved = rxe_pkt_skb((struct rxe_pkt_info *)pkt)
					      ->protocol == htons(ETH_P_IPV6) ?
				      RDMA_NETWORK_IPV6 : RDMA_NETWORK_IPV4;
		}
		solicited = rxe_bth_se(pkt->hdr);
		rxe_counter_inc(qp->rxe, RXE_CNT_RDMA_RECV);
	}

	qp->resp.has_wqe = false;
	if (!qp->srq)
		rxe_queue_advance_consumer(qp->rq.queue);
	/* A lost completion (CQ overrun) is fatal to the QP. */
	if (rxe_cq_post(qp->rcq, &wc, solicited) &&
	    rxe_qp_state(qp) != IB_QPS_ERR)
		rxe_qp_error(qp);
}

/* Drop the message in progress; its receive WQE serves the next one. */
static void resp_abandon(struct rxe_qp *qp)
{
	if (qp->resp.has_wqe)
		resp_wqe_rewind(resp_wqe(qp));
	qp->resp.opcode = -1;
}

/* An error that ends the QP: the WQE in progress reports it. */
static void resp_fail(struct rxe_qp *qp, int err)
{
	if (qp->resp.has_wqe)
		resp_complete(qp, NULL, resp_wc_status[err]);
	rxe_qp_error(qp);
}

static int resp_recv_copy(struct rxe_qp *qp, void *buf, u32 len)
{
	int err;

	if (!len)
		return RESP_OK;
	err = rxe_dma_copy(qp->rxe, qp->ibqp.pd, IB_ACCESS_LOCAL_WRITE,
			   &resp_wqe(qp)->dma, buf, len, RXE_COPY_TO_MR);
	if (!err)
		return RESP_OK;
	if (err == -ENOSPC)
		return RESP_LEN;
	if (err == -EACCES)
		return RESP_PROT;
	return RESP_OP_ERR;
}

static int resp_recv_piece(void *qp, void *buf, u32 len)
{
	return resp_recv_copy(qp, buf, len);
}

/* The payload of @pkt into the receive WQE, whatever its layout. */
static int resp_recv_payload(struct rxe_qp *qp,
			     const struct rxe_pkt_info *pkt)
{
	return rxe_pkt_payload_walk(pkt, resp_recv_piece, qp);
}

/*
 * UD receive buffers start with 40 bytes for the GRH: the IPv6 header,
 * or for IPv4 20 zero bytes and then the IPv4 header.
 */
static int resp_ud_grh(struct rxe_qp *qp, struct sk_buff *skb)
{
	u8 grh[RXE_GRH_BYTES] = {};

	BUILD_BUG_ON(sizeof(struct ipv6hdr) != RXE_GRH_BYTES);
	if (skb->protocol == htons(ETH_P_IPV6))
		memcpy(grh, ipv6_hdr(skb), sizeof(struct ipv6hdr));
	else
		memcpy(grh + RXE_GRH_BYTES - sizeof(struct iphdr), ip_hdr(skb),
		       sizeof(struct iphdr));
	return resp_recv_copy(qp, grh, sizeof(grh));
}

/* ------------------------------------------------------------------ */
/* RDMA write, read, atomics                                            */
/* ------------------------------------------------------------------ */

/*
 * ATOMIC WRITE: its 8 bytes land in one store, never torn, so the
 * address must be aligned (in memory too, hence within one page).
 */
static int resp_atomic_write(struct rxe_qp *qp, const struct rxe_pkt_info *pkt)
{
	const u8 *reth = rxe_pkt_hdr(pkt, RXE_RETH);
	u64 va = rxe_reth_va(reth);
	struct rxe_mr *mr;
	struct page *page;
	u64 off, val;
	void *kva;

	if (rxe_reth_len(reth) != sizeof(u64) ||
	    rxe_pkt_payload_len(pkt) != sizeof(u64) || (va & 7))
		return RESP_INV_REQ;
	mr = rxe_rkey_mr(qp, rxe_reth_rkey(reth), IB_ACCESS_REMOTE_WRITE, va,
			 sizeof(u64));
	if (IS_ERR(mr))
		return RESP_ACCESS;
	off = va - mr->ibmr.iova + ib_umem_offset(mr->umem);
	if (off & 7) {
		rxe_mr_put(mr);
		return RESP_INV_REQ;
	}
	if (skb_copy_bits(rxe_pkt_skb((struct rxe_pkt_info *)pkt),
			  rxe_pkt_payload(pkt) - pkt->hdr, &val, sizeof(val))) {
		rxe_mr_put(mr);
		return RESP_INV_REQ;
	}
	page = mr->umem->pages[off >> PAGE_SHIFT];
	kva = kmap_local_page(page);
	WRITE_ONCE(*(u64 *)(kva + (off & ~PAGE_MASK)), val);
	flush_dcache_page(page);
	kunmap_local(kva);
	rxe_mr_put(mr);
	return RESP_OK;
}

struct resp_write_ctx {
	struct rxe_mr *mr;
	u64 va;
};

/* A piece of a write's payload into the checked MR range. */
static int resp_write_piece(void *ctx, void *buf, u32 n)
{
	struct resp_write_ctx *c = ctx;

	rxe_mr_copy(c->mr, c->va, buf, n, RXE_COPY_TO_MR);
	c->va += n;
	return 0;
}

static int resp_write(struct rxe_qp *qp, const struct rxe_pkt_info *pkt,
		      u32 mask)
{
	struct rxe_resp_info *r = &qp->resp;
	u32 n = rxe_pkt_payload_len(pkt);
	struct rxe_mr *mr;
	const u8 *reth;
	u32 check;

	if (mask & RXE_RETH_MASK) {
		reth = rxe_pkt_hdr(pkt, RXE_RETH);
		r->wr_va = rxe_reth_va(reth);
		r->wr_rkey = rxe_reth_rkey(reth);
		r->wr_length = rxe_reth_len(reth);
		r->wr_resid = r->wr_length;
		if (!resp_len_ok(qp, r->wr_length))
			return RESP_INV_REQ;
	}
	/* The packets must carry exactly the length the RETH announced. */
	if (n > r->wr_resid || ((mask & RXE_LAST_MASK) && n != r->wr_resid))
		return RESP_INV_REQ;

	/* The whole range is checked at the first packet; an empty write
	 * names no memory, its R_Key is not checked.
	 */
	check = (mask & RXE_RETH_MASK) ? r->wr_length : n;
	if (!check)
		return RESP_OK;
	mr = rxe_rkey_mr(qp, r->wr_rkey, IB_ACCESS_REMOTE_WRITE, r->wr_va,
			 check);
	if (IS_ERR(mr))
		return RESP_ACCESS;
	if (n) {
		struct resp_write_ctx c = { .mr = mr, .va = r->wr_va };

		rxe_pkt_payload_walk(pkt, resp_write_piece, &c);
	}
	rxe_mr_put(mr);
	r->wr_va += n;
	r->wr_resid -= n;
	return RESP_OK;
}

/* The next responder resource, recycled in turn (max_dest_rd_atomic). */
static struct rxe_resp_res *resp_new_res(struct rxe_qp *qp, u8 type,
					 u32 first_psn, u32 last_psn)
{
	struct rxe_resp_info *r = &qp->resp;
	unsigned int n = clamp_t(unsigned int, qp->attr.max_dest_rd_atomic,
				 1, r->num_res);
	struct rxe_resp_res *res = &r->res[r->res_next % n];

	r->res_next = (r->res_next + 1) % n;
	memset(res, 0, sizeof(*res));
	res->type = type;
	res->first_psn = first_psn;
	res->last_psn = last_psn;
	return res;
}

static struct rxe_resp_res *resp_find_res(struct rxe_qp *qp, u32 psn,
					  u8 type)
{
	struct rxe_resp_info *r = &qp->resp;
	struct rxe_resp_res *res;
	unsigned int i;

	for (i = 0; i < r->num_res; i++) {
		res = &r->res[i];
		if (res->type == type &&
		    rxe_psn_cmp(psn, res->first_psn) >= 0 &&
		    rxe_psn_cmp(psn, res->last_psn) <= 0)
			return res;
	}
	return NULL;
}

static void resp_read_begin(struct rxe_qp *qp, u32 psn, u64 va, u32 rkey,
			    u32 len, bool first)
{
	struct rxe_resp_info *r = &qp->resp;

	r->rd_active = true;
	r->rd_first = first;
	r->rd_psn = psn;
	r->rd_va = va;
	r->rd_rkey = rkey;
	r->rd_resid = len;
}

/* Send the next read response packet. */
static void resp_read_step(struct rxe_qp *qp)
{
	struct rxe_resp_info *r = &qp->resp;
	unsigned int mtu = resp_mtu(qp);
	bool last = r->rd_resid <= mtu;
	u32 n = min(r->rd_resid, mtu);
	u8 syn = rxe_aeth_syn_ack(RXE_AETH_CREDITS_UNLIMITED);
	struct rxe_mr *mr = NULL;
	struct sk_buff *skb;
	u8 opcode;

	if (r->rd_first)
		opcode = last ? RXE_OPCODE_RC_READ_RESPONSE_ONLY :
				RXE_OPCODE_RC_READ_RESPONSE_FIRST;
	else
		opcode = last ? RXE_OPCODE_RC_READ_RESPONSE_LAST :
				RXE_OPCODE_RC_READ_RESPONSE_MIDDLE;

	/* The key is looked up again: it may be gone since the request. */
	if (n) {
		mr = rxe_rkey_mr(qp, r->rd_rkey, IB_ACCESS_REMOTE_READ,
				 r->rd_va, n);
		if (IS_ERR(mr)) {
			r->rd_active = false;
			resp_send_nak(qp, RXE_NAK_REM_ACCESS_ERR, r->rd_psn);
			rxe_qp_error(qp);
			return;
		}
	}

	/* to this host: the data by reference, else a copy */
	skb = NULL;
	if (n >= RXE_PAYLOAD_BY_REF_MIN && qp->path_local) {
		skb = resp_pkt_new(qp, opcode, r->rd_psn, n, syn, true);
		if (skb && (rxe_mr_frags(mr, r->rd_va, skb, n) ||
			    rxe_pkt_add_trailer(skb, rxe_pad_len(n)))) {
			kfree_skb(skb);
			skb = NULL;
		}
	}
	if (!skb) {
		skb = resp_pkt_new(qp, opcode, r->rd_psn, n, syn, false);
		if (skb && n)
			rxe_mr_copy(mr, r->rd_va,
				    rxe_pkt_payload(rxe_skb_pkt(skb)), n,
				    RXE_COPY_FROM_MR);
	}
	if (skb)
		rxe_pkt_xmit(qp, &qp->pri_av, skb);
	else
		r->rd_active = false;	/* the requester asks again */
	if (mr)
		rxe_mr_put(mr);

	r->rd_first = false;
	r->rd_psn = rxe_psn_add(r->rd_psn, 1);
	r->rd_va += n;
	r->rd_resid -= n;
	if (last)
		r->rd_active = false;
}

static bool resp_rd_atomic_ok(const struct rxe_qp *qp)
{
	return qp->resp.res && qp->attr.max_dest_rd_atomic;
}

static int resp_read(struct rxe_qp *qp, const struct rxe_pkt_info *pkt)
{
	struct rxe_resp_info *r = &qp->resp;
	const u8 *reth = rxe_pkt_hdr(pkt, RXE_RETH);
	u64 va = rxe_reth_va(reth);
	u32 rkey = rxe_reth_rkey(reth);
	u32 len = rxe_reth_len(reth);
	struct rxe_resp_res *res;
	struct rxe_mr *mr;
	u32 npkts;

	if (!resp_rd_atomic_ok(qp) || !resp_len_ok(qp, len))
		return RESP_INV_REQ;
	if (len) {
		mr = rxe_rkey_mr(qp, rkey, IB_ACCESS_REMOTE_READ, va, len);
		if (IS_ERR(mr))
			return RESP_ACCESS;
		rxe_mr_put(mr);
	}
	npkts = len ? DIV_ROUND_UP(len, resp_mtu(qp)) : 1;

	resp_ack_flush(qp);
	res = resp_new_res(qp, RXE_RES_READ, pkt->psn,
			   rxe_psn_add(pkt->psn, npkts - 1));
	res->va = va;
	res->rkey = rkey;
	res->length = len;

	/* The responses take the PSNs up to last_psn; C9-148: a read
	 * counts as a message when it is accepted.
	 */
	r->psn = rxe_psn_add(res->last_psn, 1);
	r->msn++;
	r->opcode = pkt->opcode;
	resp_read_begin(qp, pkt->psn, va, rkey, len, true);
	return RESP_OK;
}

/*
 * The MR a FLUSH names, referenced: the RETH's range of it, or all of it
 * (selectivity "MR", where the range means nothing).  Windows carry no
 * flush rights, so an MR-wide flush through one is refused.
 */
static struct rxe_mr *resp_flush_mr(struct rxe_qp *qp, u32 rkey, int access,
				    u64 va, u32 len, u8 sel)
{
	struct rxe_mr *mr;

	if (sel == RXE_FETH_SEL_RANGE)
		return rxe_rkey_mr(qp, rkey, access, va, len);
	if (rxe_key_is_mw(rkey))
		return ERR_PTR(-EACCES);
	mr = rxe_mr_get(qp->rxe, rkey, RXE_LOOKUP_REMOTE);
	if (!mr)
		return ERR_PTR(-EINVAL);
	if (rxe_mr_check(mr, qp->ibqp.pd, access, mr->ibmr.iova,
			 mr->ibmr.length)) {
		rxe_mr_put(mr);
		return ERR_PTR(-EACCES);
	}
	return mr;
}

/*
 * FLUSH (IBTA 1.5): what was written before it is to be visible to all
 * (placement "global") or persistent.  Writes here are CPU stores into
 * pinned pages, done by the time this runs in PSN order, so global
 * visibility is a store barrier; persistent memory is never registered
 * (rxe_mr.c), so a persistent flush fails its MR's rights check.  The
 * answer is a zero-length RDMA read response, which a duplicate gets again.
 */
static int resp_rdma_flush(struct rxe_qp *qp, const struct rxe_pkt_info *pkt)
{
	struct rxe_resp_info *r = &qp->resp;
	const u8 *feth = rxe_pkt_hdr(pkt, RXE_FETH);
	const u8 *reth = rxe_pkt_hdr(pkt, RXE_RETH);
	u8 plt = rxe_feth_placement(feth);
	u8 sel = rxe_feth_selectivity(feth);
	int qp_acc = qp->attr.qp_access_flags;
	struct rxe_mr *mr;
	int access = 0;

	if (plt & RXE_FETH_PLT_GLOBAL)
		access |= IB_ACCESS_FLUSH_GLOBAL;
	if (plt & RXE_FETH_PLT_PERSISTENT)
		access |= IB_ACCESS_FLUSH_PERSISTENT;
	/*
	 * Reserved placement bits or level, a right the QP withholds, or
	 * a length past the largest message (in-tree too, whatever the level)
	 */
	if (!access || (plt & ~(RXE_FETH_PLT_GLOBAL | RXE_FETH_PLT_PERSISTENT)) ||
	    sel > RXE_FETH_SEL_MR || (access & ~qp_acc) ||
	    !resp_len_ok(qp, rxe_reth_len(reth)) || !resp_rd_atomic_ok(qp))
		return RESP_INV_REQ;
	mr = resp_flush_mr(qp, rxe_reth_rkey(reth), access, rxe_reth_va(reth),
			   rxe_reth_len(reth), sel);
	if (IS_ERR(mr))
		return RESP_ACCESS;
	rxe_mr_put(mr);
	wmb();	/* the writes before this FLUSH, visible before its answer */

	resp_ack_flush(qp);
	resp_new_res(qp, RXE_RES_FLUSH, pkt->psn, pkt->psn);
	r->psn = rxe_psn_add(pkt->psn, 1);
	r->msn++;
	r->opcode = pkt->opcode;
	resp_read_begin(qp, pkt->psn, 0, 0, 0, true);
	return RESP_OK;
}

/*
 * Atomics are done with the CPU's own atomic instructions on the pinned
 * page, so they are atomic against other responders (and local CPU
 * atomics) without any lock.
 */
static u64 resp_fetch_add(u64 *p, u64 add)
{
	u64 old = READ_ONCE(*p);

	while (!try_cmpxchg64(p, &old, old + add))
		;
	return old;
}

static int resp_atomic(struct rxe_qp *qp, const struct rxe_pkt_info *pkt)
{
	struct rxe_resp_info *r = &qp->resp;
	const u8 *atm = rxe_pkt_hdr(pkt, RXE_ATMETH);
	u64 va = rxe_atmeth_va(atm);
	struct rxe_resp_res *res;
	struct rxe_mr *mr;
	struct page *page;
	u64 off, orig;
	void *kva;
	u64 *p;

	if (!resp_rd_atomic_ok(qp) || (va & 7))
		return RESP_INV_REQ;
	mr = rxe_rkey_mr(qp, rxe_atmeth_rkey(atm), IB_ACCESS_REMOTE_ATOMIC,
			 va, sizeof(u64));
	if (IS_ERR(mr))
		return RESP_ACCESS;
	/* Aligned in memory too, so within one page. */
	off = va - mr->ibmr.iova + ib_umem_offset(mr->umem);
	if (off & 7) {
		rxe_mr_put(mr);
		return RESP_INV_REQ;
	}
	page = mr->umem->pages[off >> PAGE_SHIFT];
	kva = kmap_local_page(page);
	p = kva + (off & ~PAGE_MASK);
	if (pkt->opcode == RXE_OPCODE_RC_COMPARE_SWAP)
		orig = cmpxchg64(p, rxe_atmeth_comp(atm),
				 rxe_atmeth_swap_add(atm));
	else
		orig = resp_fetch_add(p, rxe_atmeth_swap_add(atm));
	flush_dcache_page(page);
	kunmap_local(kva);
	rxe_mr_put(mr);

	resp_ack_flush(qp);
	res = resp_new_res(qp, RXE_RES_ATOMIC, pkt->psn, pkt->psn);
	res->orig = orig;
	r->psn = rxe_psn_add(pkt->psn, 1);
	r->msn++;
	r->opcode = pkt->opcode;
	r->ack_psn = pkt->psn;
	r->acked_any = true;
	resp_send_atomic_ack(qp, pkt->psn, orig);
	return RESP_OK;
}

/* ------------------------------------------------------------------ */
/* Requests                                                             */
/* ------------------------------------------------------------------ */

/* Execute the request in @pkt, which passed the PSN and order checks. */
static int resp_execute(struct rxe_qp *qp, struct sk_buff *skb,
			const struct rxe_pkt_info *pkt, u32 mask)
{
	int err;

	if (mask & RXE_FLUSH_MASK)
		return resp_rdma_flush(qp, pkt);
	if (mask & RXE_READ_MASK)
		return resp_read(qp, pkt);
	if (mask & RXE_ATOMIC_MASK)
		return resp_atomic(qp, pkt);

	if ((mask & RXE_RWR_MASK) && !qp->resp.has_wqe) {
		err = resp_get_wqe(qp);
		if (err)
			return err;
	}
	if (mask & RXE_ATOMIC_WRITE_MASK) {
		err = resp_atomic_write(qp, pkt);
	} else if (mask & RXE_WRITE_MASK) {
		err = resp_write(qp, pkt, mask);
	} else {
		if (!qp->resp.has_wqe)
			return RESP_INV_REQ;
		if (mask & RXE_DETH_MASK) {
			err = resp_ud_grh(qp, skb);
			if (err)
				return err;
		}
		err = resp_recv_payload(qp, pkt);
	}
	if (err)
		return err;

	if ((mask & RXE_IETH_MASK) &&
	    rxe_invalidate_rkey(qp, rxe_ieth_rkey(rxe_pkt_hdr(pkt, RXE_IETH))))
		return RESP_INV_REQ;
	return RESP_OK;
}

/* A send or write packet was executed: move on (RC and UC). */
static void resp_accept(struct rxe_qp *qp, const struct rxe_pkt_info *pkt,
			u32 mask)
{
	struct rxe_resp_info *r = &qp->resp;

	r->psn = rxe_psn_add(pkt->psn, 1);
	r->opcode = pkt->opcode;
	if (mask & RXE_LAST_MASK)
		r->msn++;
	r->ack_psn = pkt->psn;
	r->acked_any = true;
	if (mask & RXE_COMP_MASK)
		resp_complete(qp, pkt, IB_WC_SUCCESS);
}

/* A request before the expected PSN: its answer was lost (RC). */
static void resp_duplicate(struct rxe_qp *qp, const struct rxe_pkt_info *pkt,
			   u32 mask)
{
	struct rxe_resp_info *r = &qp->resp;
	struct rxe_resp_res *res;
	const u8 *reth;
	u32 len, rkey;
	s32 room;
	u64 va;

	if (mask & RXE_WRITE_OR_SEND_MASK) {
		/* Done already; say so again (C9-105). */
		if (r->acked_any)
			resp_send_ack(qp,
				rxe_aeth_syn_ack(RXE_AETH_CREDITS_UNLIMITED),
				r->ack_psn);
		return;
	}
	if (mask & RXE_ATOMIC_MASK) {
		/* Never twice: the result is sent again. */
		res = resp_find_res(qp, pkt->psn, RXE_RES_ATOMIC);
		if (res)
			resp_send_atomic_ack(qp, pkt->psn, res->orig);
		return;
	}
	if (mask & RXE_FLUSH_MASK) {
		/* Done: its empty read response again (oA19-14). */
		if (resp_find_res(qp, pkt->psn, RXE_RES_FLUSH)) {
			resp_ack_flush(qp);
			resp_read_begin(qp, pkt->psn, 0, 0, 0, true);
		}
		return;
	}

	/*
	 * A read, maybe the rest of one (from a PSN inside it): read the
	 * memory again if it asks for part of what the resource recorded.
	 * Unknown ones are dropped (class D).
	 */
	res = resp_find_res(qp, pkt->psn, RXE_RES_READ);
	if (!res)
		return;
	reth = rxe_pkt_hdr(pkt, RXE_RETH);
	va = rxe_reth_va(reth);
	rkey = rxe_reth_rkey(reth);
	len = rxe_reth_len(reth);
	room = rxe_psn_cmp(res->last_psn, pkt->psn) + 1;
	if (rkey != res->rkey || va < res->va || len > res->length ||
	    va - res->va > res->length - len ||
	    (len ? DIV_ROUND_UP(len, resp_mtu(qp)) : 1) > (u32)room)
		return;
	resp_ack_flush(qp);
	resp_read_begin(qp, pkt->psn, va, rkey, len,
			pkt->psn == res->first_psn);
}

static bool resp_allowed(const struct rxe_qp *qp, u32 mask)
{
	int acc = qp->attr.qp_access_flags;

	if ((mask & RXE_READ_MASK) && !(acc & IB_ACCESS_REMOTE_READ))
		return false;
	if ((mask & RXE_WRITE_MASK) && !(acc & IB_ACCESS_REMOTE_WRITE))
		return false;
	if ((mask & RXE_ATOMIC_MASK) && !(acc & IB_ACCESS_REMOTE_ATOMIC))
		return false;
	return true;
}

static void resp_rc(struct rxe_qp *qp, struct sk_buff *skb,
		    const struct rxe_pkt_info *pkt, u32 mask)
{
	struct rxe_resp_info *r = &qp->resp;
	s32 diff = rxe_psn_cmp(pkt->psn, r->psn);
	int err;

	if (diff > 0) {
		/* Lost packets: one NAK, then silence until they come. */
		if (!r->nak_sent) {
			r->nak_sent = true;
			rxe_counter_inc(qp->rxe, RXE_CNT_OUT_OF_SEQ_REQ);
			resp_send_nak(qp, RXE_NAK_PSN_SEQ_ERR, r->psn);
		}
		return;
	}
	if (diff < 0) {
		rxe_counter_inc(qp->rxe, RXE_CNT_DUP_REQ);
		resp_duplicate(qp, pkt, mask);
		return;
	}
	r->nak_sent = false;

	if (!rxe_opcode_may_follow(resp_prev_opcode(qp), pkt->opcode) ||
	    !resp_allowed(qp, mask))
		err = RESP_INV_REQ;
	else
		err = resp_execute(qp, skb, pkt, mask);

	switch (err) {
	case RESP_OK:
		break;
	case RESP_DROP:
		return;
	case RESP_RNR:
		/* Class B: the requester retries this PSN later. */
		rxe_counter_inc(qp->rxe, RXE_CNT_SND_RNR);
		r->nak_sent = true;
		resp_send_ack(qp, rxe_aeth_syn_rnr_nak(qp->attr.min_rnr_timer),
			      pkt->psn);
		return;
	default:
		/* Classes A and C: NAK, and the QP is done. */
		resp_send_nak(qp, resp_nak_code[err], pkt->psn);
		resp_fail(qp, err);
		return;
	}

	/* Reads, atomics and flushes answered and moved on themselves. */
	if (mask & (RXE_READ_OR_ATOMIC_MASK | RXE_FLUSH_MASK))
		return;
	resp_accept(qp, pkt, mask);
	if (rxe_bth_ackreq(pkt->hdr))
		resp_ack_req(qp, pkt->psn);
}

/*
 * UC: no answers.  A gap in PSNs or in the packets of a message loses
 * the message in progress; the next first packet starts afresh.
 */
static void resp_uc(struct rxe_qp *qp, struct sk_buff *skb,
		    const struct rxe_pkt_info *pkt, u32 mask)
{
	struct rxe_resp_info *r = &qp->resp;
	int err;

	if (r->drop_msg || pkt->psn != r->psn ||
	    !rxe_opcode_may_follow(resp_prev_opcode(qp), pkt->opcode)) {
		resp_abandon(qp);
		if (!(mask & RXE_FIRST_MASK)) {
			r->drop_msg = true;
			return;
		}
		r->drop_msg = false;
	}

	if (!resp_allowed(qp, mask))
		err = RESP_ACCESS;
	else
		err = resp_execute(qp, skb, pkt, mask);

	switch (err) {
	case RESP_OK:
		resp_accept(qp, pkt, mask);
		break;
	case RESP_LEN:
	case RESP_PROT:
	case RESP_OP_ERR:
		resp_fail(qp, err);
		break;
	default:
		resp_abandon(qp);
		r->drop_msg = true;
		break;
	}
}

/* UD: every message is one packet, nothing is answered. */
static void resp_ud(struct rxe_qp *qp, struct sk_buff *skb,
		    const struct rxe_pkt_info *pkt, u32 mask)
{
	int err;

	err = resp_execute(qp, skb, pkt, mask);
	switch (err) {
	case RESP_OK:
		resp_complete(qp, pkt, IB_WC_SUCCESS);
		break;
	case RESP_LEN:
		/*
		 * The sender chose the length: anyone who can guess a QPN and
		 * its Q_Key could otherwise end the QP (QP1 among them) with
		 * one datagram.  The WQE reports it; the QP carries on.
		 */
		rxe_counter_inc(qp->rxe, RXE_CNT_RCV_UD_LEN_ERR);
		resp_complete(qp, NULL, IB_WC_LOC_LEN_ERR);
		break;
	case RESP_PROT:
	case RESP_OP_ERR:
		resp_fail(qp, err);
		break;
	default:
		resp_abandon(qp);
		break;
	}
}

static void resp_one(struct rxe_qp *qp, struct sk_buff *skb)
{
	struct rxe_pkt_info *pkt = rxe_skb_pkt(skb);
	u8 transport = resp_transport(qp);
	u32 mask = rxe_opcode_mask(pkt->opcode);

	/* rxe_rcv() checked these; what follows relies on them. */
	if (!(mask & RXE_REQ_MASK) ||
	    !rxe_opcode_legal(pkt->opcode, transport) ||
	    pkt->paylen < rxe_opcode_hdr_len(pkt->opcode) +
			  rxe_bth_pad(pkt->hdr) + RXE_ICRC_BYTES)
		return;

	if (transport != RXE_TRANSPORT_UD && !qp->resp.comm_est &&
	    rxe_qp_state(qp) == IB_QPS_RTR) {
		qp->resp.comm_est = true;
		rxe_qp_event(qp, IB_EVENT_COMM_EST);
	}

	switch (transport) {
	case RXE_TRANSPORT_RC:
		resp_rc(qp, skb, pkt, mask);
		break;
	case RXE_TRANSPORT_UC:
		resp_uc(qp, skb, pkt, mask);
		break;
	default:
		resp_ud(qp, skb, pkt, mask);
		break;
	}
}

/*
 * In the error state: drop requests, complete the receive WQE in
 * progress and then every posted one with IB_WC_WR_FLUSH_ERR, one per
 * call.  (WQEs left in an SRQ belong to the SRQ, not to this QP.)
 */
static int resp_flush(struct rxe_qp *qp)
{
	struct rxe_resp_info *r = &qp->resp;
	struct rxe_recv_wqe *uwqe;

	skb_queue_purge(&qp->req_pkts);
	r->rd_active = false;
	/*
	 * A coalesced ACK still owed for messages completed before the
	 * error goes out: their sender must not time out and report a
	 * failure for what our consumer saw arrive (a librdmacm peer moves
	 * its QP to ERR as soon as its last receive is in).
	 */
	resp_ack_flush(qp);

	if (!r->has_wqe) {
		if (qp->srq) {
			/* IBTA 11.6.3: no more WQEs from the SRQ for it */
			if (!r->last_wqe) {
				r->last_wqe = true;
				rxe_qp_event(qp, IB_EVENT_QP_LAST_WQE_REACHED);
			}
			return 1;
		}
		uwqe = qp->rq.queue ? rxe_queue_head(qp->rq.queue) : NULL;
		if (!uwqe)
			return 1;
		resp_wqe(qp)->wr_id = READ_ONCE(uwqe->wr_id);
		r->has_wqe = true;
	}
	resp_complete(qp, NULL, IB_WC_WR_FLUSH_ERR);
	return 0;
}

/* The task: one request packet, read response or flushed WQE a call. */
static int rxe_responder(struct rxe_qp *qp)
{
	enum ib_qp_state state = rxe_qp_state(qp);
	struct sk_buff *skb;

	if (state == IB_QPS_ERR)
		return resp_flush(qp);
	if (qp->resp.rd_active) {
		/* rxe_net.c kicks us when enough of them are freed */
		if (atomic_read(&qp->resp.rd_skb_out) >
		    RXE_INFLIGHT_SKBS_PER_QP_HIGH)
			return 1;
		resp_read_step(qp);
		return 0;
	}
	skb = rxe_pkt_dequeue(&qp->req_pkts);
	if (!skb) {
		resp_ack_flush(qp);
		return 1;
	}
	/* Before RTR (RESET, INIT) requests are discarded. */
	if (state >= IB_QPS_RTR)
		resp_one(qp, skb);
	consume_skb(skb);
	return 0;
}

/* ------------------------------------------------------------------ */
/* Lifetime                                                             */
/* ------------------------------------------------------------------ */

void rxe_resp_init(struct rxe_qp *qp)
{
	struct rxe_dev *rxe = to_rdev(qp->ibqp.device);
	unsigned int n = max(rxe->attr.max_qp_rd_atom, 1);
	struct rxe_resp_info *r = &qp->resp;

	rxe_task_init(&r->task, qp, rxe_responder);
	/* Without resources the QP refuses reads and atomics (NAK). */
	r->res = kcalloc(n, sizeof(*r->res),
			 qp->is_kernel ? GFP_KERNEL : IB_USER_GFP);
	r->num_res = r->res ? n : 0;
	r->res_next = 0;
	r->opcode = -1;
	atomic_set(&r->rd_skb_out, 0);
}

void rxe_resp_stop(struct rxe_qp *qp)
{
	rxe_task_stop(&qp->resp.task);
}

/* To RESET, the task stopped: forget everything (rxe_qp.c empties the RQ). */
void rxe_resp_reset(struct rxe_qp *qp)
{
	struct rxe_resp_info *r = &qp->resp;

	skb_queue_purge(&qp->req_pkts);
	r->psn = qp->attr.rq_psn & RXE_PSN_MASK;
	r->msn = 0;
	r->ack_psn = 0;
	r->opcode = -1;
	r->acked_any = false;
	r->nak_sent = false;
	r->drop_msg = false;
	r->comm_est = false;
	r->last_wqe = false;
	r->ack_pending = false;
	r->ack_count = 0;
	r->rd_active = false;
	r->has_wqe = false;
	r->res_next = 0;
	if (r->res)
		memset(r->res, 0, r->num_res * sizeof(*r->res));
}

void rxe_resp_start(struct rxe_qp *qp)
{
	rxe_task_start(&qp->resp.task);
}

void rxe_resp_run(struct rxe_qp *qp)
{
	rxe_task_run(&qp->resp.task);
}

/*
 * From the receive softirq.  A lone request that is not a read (whose
 * responses may be many packets) is executed right here, as in-tree rxe
 * does; a backlog goes to the work item so the softirq stays short.
 */
void rxe_resp_queue_pkt(struct rxe_qp *qp, struct sk_buff *skb)
{
	bool inline_ok = !(rxe_skb_pkt(skb)->mask & RXE_READ_MASK);
	u32 len = rxe_pkt_enqueue(qp, &qp->req_pkts, &qp->resp.task,
				  skb);

	if (!len)
		return;
	if (inline_ok && len == 1)
		rxe_task_run_inline(&qp->resp.task);
	else
		rxe_task_run(&qp->resp.task);
}

void rxe_resp_fini(struct rxe_qp *qp)
{
	kfree(qp->resp.res);
	qp->resp.res = NULL;
	qp->resp.num_res = 0;
}
