/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Queue pairs, shared receive queues, address handles, and the queues
 * the data path passes packets (rxe_pkt.h) on between its parts.
 *
 * Who does what on one QP (each part a work item on rxe_wq, so a part
 * never runs twice at once, and parts of different QPs run in parallel):
 *
 *   requester (rxe_req.c)   reads the send queue, builds request packets,
 *                           runs local operations (bind MW, invalidate)
 *   completer (rxe_comp.c)  takes responses (ACK/NAK, read data, atomic
 *                           ACK), retires send WQEs into the send CQ,
 *                           runs the retransmit and RNR timers
 *   responder (rxe_resp.c)  takes requests, executes them against the
 *                           receive queue (or SRQ) and memory, answers
 *
 * rxe_recv.c hands received packets to the completer or the responder;
 * rxe_net.c owns the UDP sockets and puts packets on the wire.
 *
 * Send WQEs live in a ring userspace writes (librxe); the requester copies
 * each WQE into qp->sq.shadow when it first takes it and from then on
 * only the kernel's copy is used, so userspace changing the ring under us
 * cannot change a request in flight.  The same holds for receive WQEs
 * (the responder's copy in qp->resp).
 */
#ifndef RXE_QP_H
#define RXE_QP_H

#include <linux/mutex.h>
#include <linux/skbuff.h>
#include <linux/timer.h>
#include <linux/workqueue.h>
#include <net/dst_cache.h>
#include "rxe.h"
#include "rxe_hdr.h"
#include "rxe_opcode.h"
#include "rxe_pkt.h"
#include "rxe_psn.h"

/* ------------------------------------------------------------------ */
/* Tasks: one part of a QP's work, run on rxe_wq                        */
/* ------------------------------------------------------------------ */

/*
 * @fn does one unit of work and returns 0 if it wants to be called again
 * at once, non-zero when there is nothing more to do for now.  The work
 * item calls it in a loop (a bounded number of times, then requeues
 * itself so that other QPs get the CPU).  rxe_task_run() may be called
 * from any context, also while the task runs: it then runs once more.
 */
struct rxe_task {
	struct work_struct work;
	struct rxe_qp *qp;
	int (*fn)(struct rxe_qp *qp);
	unsigned long flags;		/* RXE_TASK_* bits, rxe_task.c */
	bool stopped;			/* rxe_task_stop() was called */
};

void rxe_task_init(struct rxe_task *task, struct rxe_qp *qp,
		   int (*fn)(struct rxe_qp *qp));
void rxe_task_run(struct rxe_task *task);
/*
 * Run the task in the caller's context if no one else runs it (else the
 * runner goes on): for callers that may do the task's work where they
 * are.  No part sleeps: each runs with BHs off under its own lock.
 */
void rxe_task_run_inline(struct rxe_task *task);
/* From the task's own fn, which cannot go on here: run it again later. */
void rxe_task_defer(struct rxe_task *task);
/* No more runs after this returns (waits for a running one). */
void rxe_task_stop(struct rxe_task *task);
/* Allow runs again (after a stop for a reset). */
void rxe_task_start(struct rxe_task *task);

/* ------------------------------------------------------------------ */
/* Address vectors and handles                                          */
/* ------------------------------------------------------------------ */

/* An AH: its address vector, in the UAPI's struct rxe_av form. */
struct rxe_ah {
	struct ib_ah ibah;		/* first: the core allocates us */
	struct rxe_av av;
	u32 index;			/* librxe's ah_num */
	refcount_t ref;
	struct completion released;
};

static inline struct rxe_ah *to_rah(struct ib_ah *ibah)
{
	return container_of(ibah, struct rxe_ah, ibah);
}

/* ------------------------------------------------------------------ */
/* Shared receive queues                                                */
/* ------------------------------------------------------------------ */

struct rxe_srq {
	struct ib_srq ibsrq;		/* first: the core allocates us */
	struct rxe_dev *rxe;
	struct rxe_queue *queue;	/* of struct rxe_recv_wqe, FROM_USER */
	spinlock_t lock;		/* consumers of @queue (responders) */
	int max_wr;
	int max_sge;
	u32 limit;			/* armed SRQ limit, 0: not armed */
	u32 index;			/* srq_num */
	refcount_t ref;
	struct completion released;
};

static inline struct rxe_srq *to_rsrq(struct ib_srq *ibsrq)
{
	return container_of(ibsrq, struct rxe_srq, ibsrq);
}

/* ------------------------------------------------------------------ */
/* Queue pairs                                                          */
/* ------------------------------------------------------------------ */

#include "rxe_req.h"
#include "rxe_resp.h"

struct rxe_sq {
	struct rxe_queue *queue;	/* of struct rxe_send_wqe, FROM_USER */
	/*
	 * Kernel copies of the WQEs between the consumer index (advanced by
	 * the completer) and the requester's position: slot i & shadow_mask
	 * holds the WQE of ring slot i, at the ring's stride.  It has at
	 * most RXE_SQ_SHADOW_SLOTS slots, however large the ring: it only
	 * holds WQEs in flight (rxe_req.c waits for the completer when it
	 * is full).
	 */
	void *shadow;
	u32 shadow_mask;
	int max_wr;
	int max_sge;
	int max_inline;
};

struct rxe_rq {
	struct rxe_queue *queue;	/* NULL if the QP uses an SRQ */
	int max_wr;
	int max_sge;
};

struct rxe_qp {
	struct ib_qp ibqp;		/* first: the core allocates us */
	struct rxe_dev *rxe;
	refcount_t ref;			/* the table's, lookups', sent skbs' */
	struct completion released;
	bool valid;			/* false once destroy began */
	/*
	 * Never the same for two QPs of this module's life, unlike the
	 * QPN, which is reused: what a type 2 MW remembers its QP by.
	 */
	u64 serial;

	/*
	 * @attr is the QP's current attributes, @attr.qp_state its state.
	 * Written under @state_lock (modify_qp, errors from the engine);
	 * the engine reads the state with rxe_qp_state().
	 */
	spinlock_t state_lock;
	/*
	 * One modify_qp of this QP at a time (ib_uverbs lets them run
	 * concurrently): a modify validates against the current state and
	 * may sleep stopping the tasks.  Other QPs' modifies do not wait.
	 */
	struct mutex modify_mutex;
	struct ib_qp_attr attr;
	unsigned int mtu;		/* path MTU in bytes (256..4096) */
	struct rxe_av pri_av;		/* RC/UC: the destination */
	u16 src_port;			/* UDP source port: flow entropy */
	/*
	 * RC/UC: the route to @pri_av, so that a packet costs no route
	 * lookup (rxe_net.c); reset when the path changes.
	 */
	struct dst_cache dst_cache;
	/*
	 * RC: @pri_av is an address of this host, so requests and read
	 * responses carry their payload by reference (rxe_net.c).
	 */
	bool path_local;

	struct rxe_pd *pd;
	struct rxe_cq *scq;
	struct rxe_cq *rcq;
	struct rxe_srq *srq;		/* or NULL */
	enum ib_sig_type sq_sig_type;

	struct rxe_sq sq;
	struct rxe_rq rq;
	/*
	 * Kernel QPs (udata NULL at creation): the kernel also produces
	 * into the rings, serialized by these (rxe_kverbs.c).
	 */
	bool is_kernel;
	spinlock_t sq_post_lock;
	spinlock_t rq_post_lock;

	/* received packets waiting for the responder / the completer */
	struct sk_buff_head req_pkts;
	struct sk_buff_head resp_pkts;

	struct rxe_req_info req;	/* requester and its timers */
	struct rxe_comp_info comp;	/* completer */
	struct rxe_resp_info resp;	/* responder */

	atomic_t ssn;			/* send sequence number */
	/* request skbs the stack has not freed: too many pause the requester */
	atomic_t skb_out;
	atomic_t mcg_num;		/* multicast groups attached */
};

static inline struct rxe_qp *to_rqp(struct ib_qp *ibqp)
{
	return container_of(ibqp, struct rxe_qp, ibqp);
}

static inline enum ib_qp_state rxe_qp_state(const struct rxe_qp *qp)
{
	return READ_ONCE(qp->attr.qp_state);
}

static inline u32 rxe_qp_num(const struct rxe_qp *qp)
{
	return qp->ibqp.qp_num;
}

static inline enum ib_qp_type rxe_qp_type(const struct rxe_qp *qp)
{
	return qp->ibqp.qp_type;
}

/* The opcode transport (enum rxe_transport) of the QP's service. */
u8 rxe_qp_transport(const struct rxe_qp *qp);

/*
 * A QP's queues of received packets (req_pkts, resp_pkts).  Only process
 * and softirq context use them, so their lock is taken with BHs off, not
 * interrupts (which under emulation costs a trip out of the translated
 * code each time).  A queue holds at most RXE_MAX_QUEUED_PKTS: beyond
 * that a sender is flooding us, and a packet is dropped like one lost on
 * the wire.
 */
#define RXE_MAX_QUEUED_PKTS	4096

/*
 * The queue's new length, or 0 when it was full: then @skb is dropped
 * and counted in the hw counter rcvd_queue_drops.
 *
 * Also 0 when @consumer, the task that empties @q, is stopped (RESET, a
 * destroy): nothing would take the packet, and a request skb from this
 * host holds a reference on its sender, whose destroy waits for it.  So
 * a QP whose task stopped queues nothing new, and whoever stops it
 * purges the queue after the stop: either the purge finds an skb queued
 * before it, or the enqueue, taking the lock after the purge, sees the
 * stop (rxe_task_stop() wrote it before the purge took the lock).
 */
static inline u32 rxe_pkt_enqueue(struct rxe_qp *qp, struct sk_buff_head *q,
				  const struct rxe_task *consumer,
				  struct sk_buff *skb)
{
	bool stopped;
	u32 len = 0;

	spin_lock_bh(&q->lock);
	stopped = READ_ONCE(consumer->stopped);
	if (!stopped && skb_queue_len(q) < RXE_MAX_QUEUED_PKTS) {
		__skb_queue_tail(q, skb);
		len = skb_queue_len(q);
	}
	spin_unlock_bh(&q->lock);
	if (unlikely(!len)) {
		if (!stopped)
			rxe_counter_inc(qp->rxe, RXE_CNT_RCV_QUEUE_DROP);
		kfree_skb(skb);
	}
	return len;
}

static inline struct sk_buff *rxe_pkt_dequeue(struct sk_buff_head *q)
{
	struct sk_buff *skb;

	spin_lock_bh(&q->lock);
	skb = __skb_dequeue(q);
	spin_unlock_bh(&q->lock);
	return skb;
}

/* The most request skbs one QP may have in the stack before it pauses. */
#define RXE_INFLIGHT_SKBS_PER_QP_HIGH	64
#define RXE_INFLIGHT_SKBS_PER_QP_LOW	16

#endif /* RXE_QP_H */
