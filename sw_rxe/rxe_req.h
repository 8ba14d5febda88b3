/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * State of the send side of a QP: the requester (rxe_req.c) and the
 * completer (rxe_comp.c).  Included by rxe_qp.h; owned by those files.
 *
 * Send WQEs are worked on in the kernel's copy (qp->sq.shadow), whose
 * state field says how far each one is (enum rxe_wqe_state) and whose
 * mask field what kind of operation it is (enum rxe_wqe_kind, 0 until
 * checked).  Ring indices, in ring order:
 *
 *   consumer        the oldest WQE not completed (the completer's)
 *   req.cur_index   the WQE the requester works on
 *   req.wqe_index   one past the last WQE started (sent from, executed
 *                   or failed): what the completer has to retire
 *   req.shadow_index one past the last WQE copied from the ring
 *
 * The requester and the completer of a QP run as two work items; every
 * step of either holds req.lock, so they see each other's updates whole.
 * The timers only set a bit in req.events and kick a task.
 */
#ifndef RXE_REQ_H
#define RXE_REQ_H

#include <linux/mutex.h>
#include <linux/timer.h>
#include <linux/types.h>

struct rxe_qp;
struct rxe_send_wqe;

/* rxe_send_wqe.state in the kernel's copy */
enum rxe_wqe_state {
	RXE_WQE_POSTED,		/* taken from the ring, nothing sent */
	RXE_WQE_PROCESSING,	/* some of its packets are sent */
	RXE_WQE_PENDING,	/* all sent; RC waits for the response */
	RXE_WQE_DONE,		/* nothing to wait for: complete it */
	RXE_WQE_ERROR,		/* failed: complete it with its status */
};

/* rxe_send_wqe.mask in the kernel's copy */
enum rxe_wqe_kind {
	RXE_WQE_CHECKED	= 1 << 0,	/* validated: the rest is meaningful */
	RXE_WQE_SEND	= 1 << 1,
	RXE_WQE_WRITE	= 1 << 2,
	RXE_WQE_READ	= 1 << 3,
	RXE_WQE_ATOMIC	= 1 << 4,
	RXE_WQE_LOCAL	= 1 << 5,	/* bind MW, local invalidate */
	RXE_WQE_IMM	= 1 << 6,	/* carries immediate data */
	RXE_WQE_INV	= 1 << 7,	/* send with invalidate */
	RXE_WQE_INLINE	= 1 << 8,	/* payload in dma.inline_data */
	RXE_WQE_AWRITE	= 1 << 9,	/* atomic write: 8 bytes inline */
	/* FLUSH: also RXE_WQE_READ, a read of nothing as far as this side
	 * goes (one PSN, a zero-length read response completes it)
	 */
	RXE_WQE_FLUSH	= 1 << 10,
};

/* bits of rxe_req_info.events */
enum {
	RXE_REQ_EV_TIMEOUT,	/* the retransmit timer fired */
	RXE_REQ_EV_RNR,		/* the RNR NAK timer fired */
};

struct rxe_req_info {
	struct rxe_task task;
	spinlock_t lock;	/* one step of the requester or completer (BH off) */
	u32 psn;		/* next PSN to send; modify_qp sets it (SQ_PSN) */
	/*
	 * One past the highest PSN ever sent (req.psn before a go-back
	 * rewound it): the peer may acknowledge anything before it.
	 */
	u32 sent_psn;
	u32 wqe_index;		/* one past the last WQE started */
	u32 cur_index;		/* the WQE being worked on */
	u32 shadow_index;	/* one past the last WQE copied */
	int opcode;		/* of the last packet sent, -1: none */
	/* set by modify_qp, unused: the limit is attr.max_rd_atomic */
	atomic_t rd_atomic;
	u32 rd_out;		/* reads/atomics started, not completed */
	u32 noack_pkts;		/* packets since the last ACK request */
	bool need_retry;	/* send again from comp.psn */
	/* RC FLUSH goes out with the in-tree rxe's ICRC (req_flush_retry()) */
	bool flush_icrc_intree;
	bool wait_rnr_timer;	/* RNR NAKed: nothing is sent until it fires */
	/* waits for the completer (fence, credits, PSN window) */
	bool blocked;
	unsigned long events;	/* RXE_REQ_EV_* */
	struct timer_list retrans_timer;
	struct timer_list rnr_nak_timer;
	unsigned long qp_timeout_jiffies;	/* from attr.timeout, 0: none */
	/*
	 * The retransmit timeout runs from here: the last send that found
	 * everything answered, or the last progress (rxe_comp.c).
	 */
	unsigned long progress_jiffies;
	/*
	 * The packet a step built, sent by rxe_requester() after it let go
	 * of @lock (a response from our own host may come back inside the
	 * send, and its completer needs the lock), and its destination.
	 */
	struct sk_buff *tx_skb;
	struct rxe_av tx_av;
	bool tx_complete;	/* UC/UD: the completer retires it after */
};

struct rxe_comp_info {
	struct rxe_task task;
	u32 psn;		/* next PSN expected in a response */
	int opcode;		/* of the last read response, -1: none */
	bool started_retry;	/* a retry is under way since the last ACK */
	u32 retry_cnt;		/* left, reloaded from attr.retry_cnt */
	u32 rnr_retry;		/* left, reloaded from attr.rnr_retry */
	/*
	 * An ACK from a responder of this host, handed over without a
	 * packet (rxe_comp_put_ack()): it stands in the place of the
	 * first packet of qp->resp_pkts, so it is only put there while
	 * that queue is empty, and taken before the queue's head.  Under
	 * the queue's lock.
	 */
	bool ack_held;
	u8 ack_syn;
	u32 ack_psn;
};

/*
 * The most send WQEs taken from the ring and not retired, the size of the
 * kernel's copy (qp->sq.shadow) of a ring larger than that.  RC has at most
 * RXE_MAX_UNACKED_PSNS (128) PSNs in flight, one or more per WQE; the rest
 * is room for local operations and completions not yet reaped, so that a
 * full shadow is rare and only ever waits for the completer.
 */
#define RXE_SQ_SHADOW_SLOTS	512

/* Between rxe_req.c and rxe_comp.c only. */
struct rxe_send_wqe *rxe_sq_wqe(struct rxe_qp *qp, u32 index);
bool rxe_sq_shadow_full(const struct rxe_qp *qp);
bool rxe_sq_take(struct rxe_qp *qp);
int rxe_completer(struct rxe_qp *qp);
void rxe_retrans_timer(struct timer_list *t);

#endif /* RXE_REQ_H */
