/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * State of the receive side of a QP: the responder (rxe_resp.c).
 * Included by rxe_qp.h; owned by rxe_resp.c.  Other files only set @psn
 * (modify_qp, from RQ_PSN) and read it back (query_qp).
 */
#ifndef RXE_RESP_H
#define RXE_RESP_H

#include <linux/types.h>
#include <uapi/rdma/rdma_user_rxe.h>

/* The most SGEs of a receive WQE the responder accepts (max_recv_sge). */
#define RXE_RESP_MAX_SGE	32

enum rxe_resp_res_type {
	RXE_RES_NONE,
	RXE_RES_READ,
	RXE_RES_ATOMIC,
	RXE_RES_FLUSH,
};

/*
 * A responder resource: what is needed to answer a duplicate RDMA read
 * (the request, to read the memory again), atomic (the result, never
 * executed twice) or FLUSH (only its PSN: done, it is answered again).  A ring of them, reused in turn.
 */
struct rxe_resp_res {
	u8 type;		/* enum rxe_resp_res_type */
	u32 first_psn;
	u32 last_psn;		/* of the last response packet */
	u32 rkey;		/* read */
	u32 length;		/* read */
	u64 va;			/* read */
	u64 orig;		/* atomic: the original remote value */
};

struct rxe_resp_info {
	struct rxe_task task;
	u32 psn;		/* next PSN expected; modify_qp sets it (RQ_PSN) */
	u32 msn;		/* message sequence number */
	u32 ack_psn;		/* last send/write/atomic PSN accepted (RC) */
	int opcode;		/* of the last request accepted, -1: none */

	bool acked_any;		/* @ack_psn is meaningful */
	bool nak_sent;		/* RC: a NAK is out, drop until @psn comes */
	bool drop_msg;		/* UC: drop up to the next first packet */
	bool comm_est;		/* IB_EVENT_COMM_EST raised */
	bool last_wqe;		/* IB_EVENT_QP_LAST_WQE_REACHED raised */

	/* a coalesced ACK not sent yet (RC) */
	bool ack_pending;
	u8 ack_count;
	u32 ack_pending_psn;

	/* the RDMA write in progress */
	u64 wr_va;
	u32 wr_rkey;
	u32 wr_resid;
	u32 wr_length;

	/* read responses being sent: one packet per responder call */
	bool rd_active;
	bool rd_first;		/* the next one is the response's first */
	u32 rd_psn;
	u32 rd_rkey;
	u32 rd_resid;
	u64 rd_va;
	/*
	 * Read responses to this host not yet freed: they wait in the
	 * requester's queue (rxe_net.c), so the stream pauses while many
	 * do rather than fill that queue to its cap.
	 */
	atomic_t rd_skb_out;

	/* responder resources (NULL if their allocation failed) */
	struct rxe_resp_res *res;
	unsigned int num_res;
	unsigned int res_next;

	/*
	 * The receive WQE of the message in progress: a kernel copy, taken
	 * from the RQ head (which stays in the ring until completion) or
	 * out of the SRQ.
	 */
	bool has_wqe;
	u8 wqe_buf[sizeof(struct rxe_recv_wqe) +
		   RXE_RESP_MAX_SGE * sizeof(struct rxe_sge)] __aligned(8);
};

#endif /* RXE_RESP_H */
