// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Queue pairs: creation, the IBTA state machine (modify / query), the
 * doorbells and the QP's lifetime.  The send and receive queues of a
 * userspace QP are rings librxe writes (rxe_queue.h); a kernel QP (udata
 * NULL) has the same rings, unexported, which rxe_kverbs.c fills from
 * work requests.  The GSI QP of the port (one, qp_num 1, kernel only) is
 * a UD QP that takes only the well-known Q_Key.
 *
 * Lifetime.  The QP table holds one reference (qp->ref); the data path
 * finds a QP by number with rxe_qp_get() and request skbs in the stack
 * hold one each.  Destroy takes the QP out of the table and out of its
 * multicast groups, stops the three tasks (so nothing new can reference
 * it), then drops the table's reference and waits for the others.  A
 * request skb sent to an address of this host waits in the receiving
 * QP's queue (rxe_net.c's loopback), holding its sender: so a QP whose
 * tasks are stopped queues nothing (rxe_pkt_enqueue()) and purges what it
 * had at once, and a destroy never waits on a queue nobody empties (its
 * own included: a QP may be connected to itself).
 *
 * Engine parts.  The requester and completer (rxe_req.c, rxe_comp.c) and
 * the responder (rxe_resp.c) own their state; this file only sets what
 * modify_qp hands them (PSNs, retry counts, credits, timeouts) and
 * starts, stops and resets them around the RESET state: the tasks are
 * stopped whenever the QP is in RESET and started when it leaves it.
 *
 * Limits and errnos follow in-tree rxe: caps beyond the device's
 * (-EINVAL), types other than RC/UC/UD or create flags (-EOPNOTSUPP),
 * transitions and masks IBTA does not allow (-EINVAL, from ib_core's
 * table: ib_modify_qp_is_ok()), attribute bits beyond the standard ones
 * (-EOPNOTSUPP).
 */
#include <linux/hash.h>
#include <linux/jiffies.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include "rxe_loc.h"

/* Most SGEs of a send or receive WQE (the device's max_send/recv_sge). */
#define RXE_QP_MAX_SGE		32
/*
 * Inline data shares the WQE's SGE area, so at most what the largest SGE
 * list takes (in-tree rxe's limit too).
 */
#define RXE_QP_MAX_INLINE	(RXE_QP_MAX_SGE * sizeof(struct rxe_sge))

/* UDP source ports come from the dynamic range, as RoCEv2 asks. */
#define RXE_QP_SPORT_BASE	0xc000
#define RXE_QP_SPORT_BITS	14

/* The attribute bits a modify may carry (IB_QP_RATE_LIMIT is not ours). */
#define RXE_QP_ATTR_STANDARD	((IB_QP_DEST_QPN << 1) - 1)

/* Handed out to QPs as they are created; see struct rxe_qp's serial. */
static atomic64_t rxe_qp_serials = ATOMIC64_INIT(0);

u8 rxe_qp_transport(const struct rxe_qp *qp)
{
	switch (rxe_qp_type(qp)) {
	case IB_QPT_UC:
		return RXE_TRANSPORT_UC;
	case IB_QPT_UD:
	case IB_QPT_GSI:
		return RXE_TRANSPORT_UD;
	default:
		return RXE_TRANSPORT_RC;
	}
}

/* ------------------------------------------------------------------ */
/* Lookup and references                                                */
/* ------------------------------------------------------------------ */

struct rxe_qp *rxe_qp_get(struct rxe_dev *rxe, u32 qpn)
{
	struct rxe_qp *qp;
	bool bh;

	/* once per received packet */
	bh = rxe_table_lookup_begin(&rxe->qp_table);
	qp = xa_load(&rxe->qp_table.xa, qpn);
	if (qp && (!READ_ONCE(qp->valid) || !refcount_inc_not_zero(&qp->ref)))
		qp = NULL;
	rxe_table_lookup_end(&rxe->qp_table, bh);
	return qp;
}

void rxe_qp_get_ref(struct rxe_qp *qp)
{
	refcount_inc(&qp->ref);
}

void rxe_qp_put(struct rxe_qp *qp)
{
	if (refcount_dec_and_test(&qp->ref))
		complete(&qp->released);
}

/* ------------------------------------------------------------------ */
/* Events, errors, doorbells                                            */
/* ------------------------------------------------------------------ */

void rxe_qp_event(struct rxe_qp *qp, enum ib_event_type type)
{
	struct ib_event ev = {
		.device = qp->ibqp.device,
		.event = type,
		.port_num = 1,
		.qp = &qp->ibqp,
	};

	if (qp->ibqp.event_handler)
		qp->ibqp.event_handler(&ev, qp->ibqp.qp_context);
}

void rxe_qp_error(struct rxe_qp *qp)
{
	unsigned long flags;

	spin_lock_irqsave(&qp->state_lock, flags);
	/* In RESET the tasks are stopped and there is nothing to flush. */
	if (qp->attr.qp_state == IB_QPS_RESET) {
		spin_unlock_irqrestore(&qp->state_lock, flags);
		return;
	}
	WRITE_ONCE(qp->attr.qp_state, IB_QPS_ERR);
	spin_unlock_irqrestore(&qp->state_lock, flags);

	/* completer flushes the SQ, responder the RQ */
	rxe_req_run(qp);
	rxe_comp_run(qp);
	rxe_resp_run(qp);
}

int rxe_post_send(struct ib_qp *ibqp)
{
	struct rxe_qp *qp = to_rqp(ibqp);
	enum ib_qp_state state = rxe_qp_state(qp);

	/* IBTA: posting to the SQ before RTS is an immediate error */
	if (state < IB_QPS_RTS)
		return -EINVAL;
	/* the doorbell's syscall does the sending: no wakeup on the way */
	rxe_req_run_inline(qp);
	if (state == IB_QPS_ERR)
		rxe_comp_run(qp);
	return 0;
}

int rxe_post_recv(struct ib_qp *ibqp)
{
	struct rxe_qp *qp = to_rqp(ibqp);
	enum ib_qp_state state = rxe_qp_state(qp);

	if (state == IB_QPS_RESET || qp->srq)
		return -EINVAL;
	/* in ERR new receive WQEs complete as flushed */
	if (state == IB_QPS_ERR)
		rxe_resp_run(qp);
	return 0;
}

/* ------------------------------------------------------------------ */
/* Create                                                               */
/* ------------------------------------------------------------------ */

static int rxe_qp_check_cap(struct rxe_dev *rxe, const struct ib_qp_cap *cap,
			    bool has_srq)
{
	if (cap->max_send_wr > rxe->attr.max_qp_wr ||
	    cap->max_send_sge > rxe->attr.max_send_sge ||
	    cap->max_inline_data > RXE_QP_MAX_INLINE)
		return -EINVAL;
	if (!has_srq && (cap->max_recv_wr > rxe->attr.max_qp_wr ||
			 cap->max_recv_sge > rxe->attr.max_recv_sge))
		return -EINVAL;
	return 0;
}

static enum ib_mtu rxe_port_active_mtu(struct rxe_dev *rxe)
{
	enum ib_mtu mtu;

	mutex_lock(&rxe->port_lock);
	mtu = rxe->port_attr.active_mtu;
	mutex_unlock(&rxe->port_lock);
	return mtu;
}

/*
 * The send queue.  Inline data and the SGE list share the area behind
 * the WQE, so a slot is sized for the larger of the two and each cap is
 * raised to what fits (as in-tree rxe reports them).
 */
static int rxe_qp_alloc_sq(struct rxe_qp *qp, struct ib_qp_init_attr *init,
			   struct ib_ucontext *uctx)
{
	size_t area = max_t(size_t,
			    init->cap.max_send_sge * sizeof(struct rxe_sge),
			    init->cap.max_inline_data);
	unsigned int num = init->cap.max_send_wr;
	struct rxe_queue *q;
	u32 slots;

	q = rxe_queue_alloc(uctx, &num, sizeof(struct rxe_send_wqe) + area,
			    RXE_QUEUE_FROM_USER);
	if (IS_ERR(q))
		return PTR_ERR(q);
	/*
	 * Kernel copies of the WQEs in flight, at the ring's stride: at most
	 * RXE_SQ_SHADOW_SLOTS (512 KiB at the largest slot), not one per
	 * ring slot, so a deep ring costs its own pages only.
	 */
	slots = min_t(u32, q->index_mask + 1, RXE_SQ_SHADOW_SLOTS);
	qp->sq.shadow_mask = slots - 1;
	qp->sq.shadow = kvcalloc(slots, (size_t)1 << q->log2_elem_size,
				 uctx ? IB_USER_GFP : GFP_KERNEL);
	if (!qp->sq.shadow) {
		rxe_queue_free(q);
		return -ENOMEM;
	}
	qp->sq.queue = q;
	qp->sq.max_wr = num;
	qp->sq.max_sge = area / sizeof(struct rxe_sge);
	qp->sq.max_inline = area;
	return 0;
}

static int rxe_qp_alloc_rq(struct rxe_qp *qp, struct ib_qp_init_attr *init,
			   struct ib_ucontext *uctx)
{
	unsigned int num = init->cap.max_recv_wr;
	struct rxe_queue *q;

	q = rxe_queue_alloc(uctx, &num, sizeof(struct rxe_recv_wqe) +
			    init->cap.max_recv_sge * sizeof(struct rxe_sge),
			    RXE_QUEUE_FROM_USER);
	if (IS_ERR(q))
		return PTR_ERR(q);
	qp->rq.queue = q;
	qp->rq.max_wr = num;
	qp->rq.max_sge = init->cap.max_recv_sge;
	return 0;
}

static void rxe_qp_free_queues(struct rxe_qp *qp)
{
	rxe_queue_free(qp->rq.queue);
	qp->rq.queue = NULL;
	rxe_queue_free(qp->sq.queue);
	qp->sq.queue = NULL;
	kvfree(qp->sq.shadow);
	qp->sq.shadow = NULL;
}

/* Attributes of a new QP (in RESET), before the engine parts init. */
static void rxe_qp_init_attr(struct rxe_dev *rxe, struct rxe_qp *qp,
			     struct ib_qp_init_attr *init)
{
	struct ib_qp *ibqp = &qp->ibqp;
	enum ib_mtu mtu = rxe_port_active_mtu(rxe);

	qp->rxe = rxe;
	qp->pd = to_rpd(ibqp->pd);
	qp->scq = to_rcq(init->send_cq);
	qp->rcq = to_rcq(init->recv_cq);
	qp->srq = init->srq ? to_rsrq(init->srq) : NULL;
	qp->sq_sig_type = init->sq_sig_type;

	/* flow entropy: spread QPs over the receivers' queues */
	qp->src_port = RXE_QP_SPORT_BASE +
		       hash_32(ibqp->qp_num, RXE_QP_SPORT_BITS);

	spin_lock_init(&qp->state_lock);
	mutex_init(&qp->modify_mutex);
	skb_queue_head_init(&qp->req_pkts);
	skb_queue_head_init(&qp->resp_pkts);
	atomic_set(&qp->ssn, 0);
	atomic_set(&qp->skb_out, 0);
	atomic_set(&qp->mcg_num, 0);

	memset(&qp->attr, 0, sizeof(qp->attr));
	qp->attr.qp_state = IB_QPS_RESET;
	qp->attr.path_mtu = mtu;
	qp->attr.path_mig_state = IB_MIG_MIGRATED;
	qp->attr.port_num = 1;
	qp->mtu = ib_mtu_enum_to_int(mtu);
}

int rxe_create_qp(struct ib_qp *ibqp, struct ib_qp_init_attr *init,
		  struct ib_udata *udata)
{
	struct rxe_dev *rxe = to_rdev(ibqp->device);
	struct rxe_qp *qp = to_rqp(ibqp);
	struct rxe_create_qp_resp resp = {};
	int ret;

	struct ib_ucontext *uctx = udata ? udata->uctx : NULL;

	if (udata && (!udata->uctx || udata->outlen < sizeof(resp)))
		return -EINVAL;
	if (init->create_flags)
		return -EOPNOTSUPP;
	switch (init->qp_type) {
	case IB_QPT_RC:
	case IB_QPT_UC:
	case IB_QPT_UD:
		break;
	case IB_QPT_GSI:
		/* the kernel's MAD layer owns it, one per port */
		if (udata)
			return -EOPNOTSUPP;
		if (init->port_num != 1)
			return -EINVAL;
		break;
	default:
		return -EOPNOTSUPP;
	}
	if (!init->send_cq || !init->recv_cq)
		return -EINVAL;
	ret = rxe_qp_check_cap(rxe, &init->cap, init->srq);
	if (ret)
		return ret;
	/* librxe sends no driver data with CREATE_QP */
	if (udata && udata->inlen)
		return -EINVAL;

	refcount_set(&qp->ref, 1);
	init_completion(&qp->released);
	if (init->qp_type == IB_QPT_GSI) {
		ret = rxe_table_insert(&rxe->qp_table, RXE_GSI_QPN);
		if (ret)
			return ret;	/* -EBUSY: the port has one */
		ibqp->qp_num = RXE_GSI_QPN;
	} else if (rxe_table_alloc(&rxe->qp_table, &ibqp->qp_num)) {
		return -EINVAL;	/* in-tree's errno for "too many" */
	}

	rxe_qp_init_attr(rxe, qp, init);
	qp->serial = atomic64_inc_return(&rxe_qp_serials);
	qp->is_kernel = !udata;
	spin_lock_init(&qp->sq_post_lock);
	spin_lock_init(&qp->rq_post_lock);

	ret = dst_cache_init(&qp->dst_cache, GFP_KERNEL_ACCOUNT);
	if (ret)
		goto err_index;
	ret = rxe_qp_alloc_sq(qp, init, uctx);
	if (ret)
		goto err_dst;
	if (!qp->srq) {
		ret = rxe_qp_alloc_rq(qp, init, uctx);
		if (ret)
			goto err_queues;
	}

	rxe_queue_mminfo(qp->sq.queue, &resp.sq_mi);
	if (qp->rq.queue)
		rxe_queue_mminfo(qp->rq.queue, &resp.rq_mi);
	if (udata && copy_to_user(udata->outbuf, &resp, sizeof(resp))) {
		ret = -EFAULT;
		goto err_queues;
	}

	/* what was really made */
	init->cap.max_send_wr = qp->sq.max_wr;
	init->cap.max_send_sge = qp->sq.max_sge;
	init->cap.max_inline_data = qp->sq.max_inline;
	init->cap.max_recv_wr = qp->rq.max_wr;
	init->cap.max_recv_sge = qp->rq.max_sge;

	/* cannot fail: nothing to undo past this point */
	rxe_req_init(qp);
	rxe_resp_init(qp);

	WRITE_ONCE(qp->valid, true);
	rxe_table_publish(&rxe->qp_table, ibqp->qp_num, qp);
	return 0;

err_queues:
	rxe_qp_free_queues(qp);
err_dst:
	dst_cache_destroy(&qp->dst_cache);
err_index:
	rxe_table_remove(&rxe->qp_table, ibqp->qp_num);
	return ret;
}

/* ------------------------------------------------------------------ */
/* Destroy                                                              */
/* ------------------------------------------------------------------ */

int rxe_destroy_qp(struct ib_qp *ibqp, struct ib_udata *udata)
{
	struct rxe_dev *rxe = to_rdev(ibqp->device);
	struct rxe_qp *qp = to_rqp(ibqp);

	WRITE_ONCE(qp->valid, false);
	rxe_mcast_detach_all(qp);
	rxe_table_remove(&rxe->qp_table, ibqp->qp_num);

	/*
	 * No task runs after these, so nothing takes a new reference (the
	 * requester's skbs) or queues new work; only then can the count
	 * reach zero for good.
	 */
	rxe_req_stop(qp);
	rxe_resp_stop(qp);
	/*
	 * Nobody empties our queues any more, and what waits there can hold
	 * up others: a request skb from this host holds a reference on its
	 * sender (this QP too, if it is its own peer), and a responder of
	 * this host pauses its read stream until our completer took enough
	 * of it.  Free what waits here before waiting for our own skbs.
	 */
	skb_queue_purge(&qp->req_pkts);
	rxe_comp_purge(qp);

	/* the table's reference; then lookups and in-flight skbs drain */
	if (!refcount_dec_and_test(&qp->ref))
		wait_for_completion(&qp->released);
	/*
	 * A kick that raced with the stops above (an skb destructor, a
	 * receive) may have queued a run after them: cancel it for good.
	 */
	rxe_req_stop(qp);
	rxe_resp_stop(qp);

	/* empty since the purge above (rxe_pkt_enqueue()); cheap to be sure */
	skb_queue_purge(&qp->req_pkts);
	rxe_comp_purge(qp);
	rxe_resp_fini(qp);
	rxe_qp_free_queues(qp);
	dst_cache_destroy(&qp->dst_cache);
	mutex_destroy(&qp->modify_mutex);
	return 0;
}

/* ------------------------------------------------------------------ */
/* Modify: the state machine                                            */
/* ------------------------------------------------------------------ */

/*
 * The transition and its mask against ib_core's table, with one
 * exception kept from before the table moved there: RESET -> ERR, which
 * IBTA allows, stays refused, since a QP in RESET has its tasks stopped
 * and nothing here would start them to flush what is posted in ERR.
 */
static bool rxe_qp_transition_ok(const struct rxe_qp *qp,
				 enum ib_qp_state cur, enum ib_qp_state next,
				 int mask)
{
	if (cur == IB_QPS_RESET && next == IB_QPS_ERR)
		return false;
	return ib_modify_qp_is_ok(cur, next, rxe_qp_type(qp), mask);
}

/* Send WQEs taken by the requester and not yet retired by the completer. */
static bool rxe_qp_sq_busy(const struct rxe_qp *qp)
{
	const struct rxe_queue *q = qp->sq.queue;

	return ((READ_ONCE(qp->req.wqe_index) ^ READ_ONCE(q->index)) &
		q->index_mask) != 0;
}

/* The IBTA local ACK timeout: 4.096 us * 2^timeout, 0 meaning none. */
static unsigned long rxe_qp_timeout_jiffies(u8 timeout)
{
	unsigned long j;

	if (!timeout)
		return 0;
	j = nsecs_to_jiffies(4096ULL << timeout);
	return j ? j : 1;
}

/*
 * The UDP source port of a connected QP, from the flow label of its path
 * or, without one, from both QP numbers, folded into the dynamic range
 * (the same ports in-tree RoCE drivers pick for the same path).
 */
static u16 rxe_qp_path_sport(u32 flow_label, u32 lqpn, u32 rqpn)
{
	u32 fl = flow_label & 0xfffff;

	if (!fl) {
		u64 v = (u64)lqpn * rqpn;

		v ^= v >> 20;
		v ^= v >> 40;
		fl = v & 0xfffff;
	}
	return RXE_QP_SPORT_BASE | ((fl & 0x3fff) ^ (fl >> RXE_QP_SPORT_BITS));
}

/*
 * Check the values of what @mask sets (the transition and the mask are
 * checked already).  The address vectors are converted here so that the
 * modify either applies completely or not at all.
 */
static int rxe_qp_check_attr(struct rxe_dev *rxe,
			     const struct ib_qp_attr *attr, int mask,
			     struct rxe_av *av)
{
	struct rxe_av alt;
	int ret;

	if ((mask & IB_QP_PORT) && attr->port_num != 1)
		return -EINVAL;
	if ((mask & IB_QP_PKEY_INDEX) &&
	    attr->pkey_index >= rxe->attr.max_pkeys)
		return -EINVAL;
	if ((mask & IB_QP_PATH_MTU) &&
	    (attr->path_mtu < IB_MTU_256 || attr->path_mtu > IB_MTU_4096))
		return -EINVAL;
	if ((mask & IB_QP_MAX_QP_RD_ATOMIC) &&
	    attr->max_rd_atomic > rxe->attr.max_qp_init_rd_atom)
		return -EINVAL;
	if ((mask & IB_QP_MAX_DEST_RD_ATOMIC) &&
	    attr->max_dest_rd_atomic > rxe->attr.max_qp_rd_atom)
		return -EINVAL;
	/* 5-bit and 3-bit fields of the IBTA */
	if ((mask & IB_QP_TIMEOUT) && attr->timeout > 31)
		return -EINVAL;
	if ((mask & IB_QP_MIN_RNR_TIMER) && attr->min_rnr_timer > 31)
		return -EINVAL;
	if ((mask & IB_QP_RETRY_CNT) && attr->retry_cnt > 7)
		return -EINVAL;
	if ((mask & IB_QP_RNR_RETRY) && attr->rnr_retry > 7)
		return -EINVAL;
	if ((mask & IB_QP_DEST_QPN) && attr->dest_qp_num > RXE_PSN_MASK)
		return -EINVAL;
	if ((mask & IB_QP_PATH_MIG_STATE) &&
	    attr->path_mig_state > IB_MIG_ARMED)
		return -EINVAL;
	if (mask & IB_QP_AV) {
		ret = rxe_av_from_attr(rxe, av, &attr->ah_attr);
		if (ret)
			return ret;
	}
	if (mask & IB_QP_ALT_PATH) {
		/* checked and kept for query; there is one path only */
		if (attr->alt_port_num != 1 || attr->alt_timeout > 31 ||
		    attr->alt_pkey_index >= rxe->attr.max_pkeys)
			return -EINVAL;
		ret = rxe_av_from_attr(rxe, &alt, &attr->alt_ah_attr);
		if (ret)
			return ret;
	}
	return 0;
}

/* Everything but the state; under state_lock. */
static void rxe_qp_apply_attr(struct rxe_qp *qp, const struct ib_qp_attr *attr,
			      int mask, const struct rxe_av *av,
			      enum ib_mtu active_mtu)
{
	if (mask & IB_QP_EN_SQD_ASYNC_NOTIFY)
		qp->attr.en_sqd_async_notify = attr->en_sqd_async_notify;
	if (mask & IB_QP_ACCESS_FLAGS)
		qp->attr.qp_access_flags = attr->qp_access_flags;
	if (mask & IB_QP_PKEY_INDEX)
		qp->attr.pkey_index = attr->pkey_index;
	if (mask & IB_QP_PORT)
		qp->attr.port_num = attr->port_num;
	if (mask & IB_QP_QKEY)
		qp->attr.qkey = attr->qkey;
	if (mask & IB_QP_DEST_QPN)
		qp->attr.dest_qp_num = attr->dest_qp_num;
	if (mask & IB_QP_AV) {
		qp->pri_av = *av;
		dst_cache_reset(&qp->dst_cache);
		qp->path_local = rxe_qp_type(qp) == IB_QPT_RC &&
				 rxe_av_dest_local(qp->rxe, av);
		qp->src_port = rxe_qp_path_sport(attr->ah_attr.flow_label,
						 rxe_qp_num(qp),
						 qp->attr.dest_qp_num);
	}
	if (mask & IB_QP_ALT_PATH) {
		qp->attr.alt_ah_attr = attr->alt_ah_attr;
		/* only valid during the call that passed it */
		qp->attr.alt_ah_attr.sgid_attr = NULL;
		qp->attr.alt_port_num = attr->alt_port_num;
		qp->attr.alt_pkey_index = attr->alt_pkey_index;
		qp->attr.alt_timeout = attr->alt_timeout;
	}
	if (mask & IB_QP_PATH_MTU) {
		qp->attr.path_mtu = attr->path_mtu;
		/* packets must fit the link whatever the path claims */
		qp->mtu = ib_mtu_enum_to_int(min(attr->path_mtu, active_mtu));
	}
	if (mask & IB_QP_TIMEOUT) {
		qp->attr.timeout = attr->timeout;
		qp->req.qp_timeout_jiffies =
			rxe_qp_timeout_jiffies(attr->timeout);
	}
	if (mask & IB_QP_RETRY_CNT) {
		qp->attr.retry_cnt = attr->retry_cnt;
		qp->comp.retry_cnt = attr->retry_cnt;
	}
	if (mask & IB_QP_RNR_RETRY) {
		qp->attr.rnr_retry = attr->rnr_retry;
		qp->comp.rnr_retry = attr->rnr_retry;
	}
	if (mask & IB_QP_MIN_RNR_TIMER)
		qp->attr.min_rnr_timer = attr->min_rnr_timer;
	if (mask & IB_QP_RQ_PSN) {
		qp->attr.rq_psn = attr->rq_psn & RXE_PSN_MASK;
		qp->resp.psn = qp->attr.rq_psn;
	}
	if (mask & IB_QP_SQ_PSN) {
		qp->attr.sq_psn = attr->sq_psn & RXE_PSN_MASK;
		qp->req.psn = qp->attr.sq_psn;
		qp->req.sent_psn = qp->attr.sq_psn;
		qp->comp.psn = qp->attr.sq_psn;
	}
	if (mask & IB_QP_MAX_QP_RD_ATOMIC) {
		qp->attr.max_rd_atomic = attr->max_rd_atomic;
		atomic_set(&qp->req.rd_atomic, attr->max_rd_atomic);
	}
	if (mask & IB_QP_MAX_DEST_RD_ATOMIC)
		qp->attr.max_dest_rd_atomic = attr->max_dest_rd_atomic;
	if (mask & IB_QP_PATH_MIG_STATE)
		qp->attr.path_mig_state = attr->path_mig_state;
}

/*
 * RESET discards every WQE: the kernel consumes whatever userspace
 * produced (its own index is the only one it may move).
 */
static void rxe_qp_ring_discard(struct rxe_queue *q)
{
	if (!q)
		return;
	q->index = rxe_queue_producer(q);
	/* publish as rxe_queue_advance_consumer() does: librxe acquires it */
	smp_store_release(&q->buf->consumer_index, q->index);
}

/*
 * A modify to RESET stopped the tasks and then failed: the QP goes on as
 * it was.  A kick that came meanwhile (a doorbell, a packet, the engine
 * moving it to ERR) found them stopped, so run them once each.
 */
static void rxe_qp_restart(struct rxe_qp *qp)
{
	rxe_req_start(qp);
	rxe_resp_start(qp);
	rxe_req_run(qp);
	rxe_comp_run(qp);
	rxe_resp_run(qp);
}

/* To RESET: the tasks are stopped by the caller and stay stopped. */
static void rxe_qp_reset(struct rxe_qp *qp)
{
	rxe_qp_ring_discard(qp->sq.queue);
	rxe_qp_ring_discard(qp->rq.queue);
	rxe_req_reset(qp);
	rxe_resp_reset(qp);
	skb_queue_purge(&qp->req_pkts);
	rxe_comp_purge(qp);
	atomic_set(&qp->ssn, 0);
}

int rxe_modify_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr, int mask,
		  struct ib_udata *udata)
{
	struct rxe_dev *rxe = to_rdev(ibqp->device);
	struct rxe_qp *qp = to_rqp(ibqp);
	enum ib_qp_state cur, next;
	enum ib_mtu active_mtu;
	struct rxe_av av;
	bool sqd_event = false;
	unsigned long flags;
	int ret;

	if (mask & ~RXE_QP_ATTR_STANDARD)
		return -EOPNOTSUPP;

	mutex_lock(&qp->modify_mutex);
	cur = rxe_qp_state(qp);
	next = mask & IB_QP_STATE ? attr->qp_state : cur;
	ret = -EINVAL;
	if ((mask & IB_QP_CUR_STATE) && attr->cur_qp_state != cur)
		goto out;
	if (!rxe_qp_transition_ok(qp, cur, next, mask))
		goto out;
	ret = rxe_qp_check_attr(rxe, attr, mask, &av);
	if (ret)
		goto out;
	/* QP1 speaks with the well-known Q_Key only */
	if (rxe_qp_type(qp) == IB_QPT_GSI && (mask & IB_QP_QKEY) &&
	    attr->qkey != RXE_GSI_QKEY) {
		ret = -EINVAL;
		goto out;
	}
	active_mtu = rxe_port_active_mtu(rxe);

	/*
	 * Quiesce before the state says RESET; nothing runs in RESET.
	 * What can fail a modify was checked above; only the engine moving
	 * the QP on meanwhile is checked again below.
	 */
	if (next == IB_QPS_RESET) {
		rxe_req_stop(qp);
		rxe_resp_stop(qp);
	}

	/*
	 * Between two steps of the requester and completer (they hold
	 * req.lock for each), so that they never see a half-written path,
	 * timeout or retry count (SQD -> SQD may change them).
	 */
	spin_lock_bh(&qp->req.lock);
	spin_lock_irqsave(&qp->state_lock, flags);
	/*
	 * The engine may have moved the QP to ERR since we looked (other
	 * modifies wait for modify_mutex): the transition must still be
	 * legal from there, and a stale IB_QP_CUR_STATE fails.  Every
	 * state may go to RESET and IB_QP_CUR_STATE is never legal with
	 * it, so a modify to RESET, which stopped the tasks above, cannot
	 * fail here; were that to change, the tasks are restarted: a
	 * failed modify leaves the QP as it was.
	 */
	if (qp->attr.qp_state != cur) {
		cur = qp->attr.qp_state;
		if (!rxe_qp_transition_ok(qp, cur, next,
					  mask & ~IB_QP_CUR_STATE) ||
		    (mask & IB_QP_CUR_STATE)) {
			spin_unlock_irqrestore(&qp->state_lock, flags);
			spin_unlock_bh(&qp->req.lock);
			if (next == IB_QPS_RESET)
				rxe_qp_restart(qp);
			goto out;	/* -EINVAL */
		}
	}
	rxe_qp_apply_attr(qp, attr, mask, &av, active_mtu);
	/* UD has no path MTU attribute: it follows the port */
	if ((rxe_qp_type(qp) == IB_QPT_UD || rxe_qp_type(qp) == IB_QPT_GSI) &&
	    next != cur) {
		qp->attr.path_mtu = active_mtu;
		qp->mtu = ib_mtu_enum_to_int(active_mtu);
	}
	/* ERR goes through rxe_qp_error() below */
	if (next != IB_QPS_ERR)
		WRITE_ONCE(qp->attr.qp_state, next);
	spin_unlock_irqrestore(&qp->state_lock, flags);
	spin_unlock_bh(&qp->req.lock);

	switch (next) {
	case IB_QPS_RESET:
		rxe_qp_reset(qp);
		break;
	case IB_QPS_INIT:
		if (cur == IB_QPS_RESET) {
			/* whatever arrived while in RESET is stale */
			skb_queue_purge(&qp->req_pkts);
			rxe_comp_purge(qp);
			rxe_req_start(qp);
			rxe_resp_start(qp);
		}
		break;
	case IB_QPS_RTR:
		rxe_resp_run(qp);
		break;
	case IB_QPS_RTS:
		rxe_resp_run(qp);
		rxe_req_run(qp);
		rxe_comp_run(qp);
		break;
	case IB_QPS_SQD:
		/* the requester starts no new WQE from now on */
		rxe_req_run(qp);
		rxe_comp_run(qp);
		sqd_event = cur != IB_QPS_SQD &&
			    qp->attr.en_sqd_async_notify &&
			    !rxe_qp_sq_busy(qp);
		break;
	case IB_QPS_ERR:
		rxe_qp_error(qp);
		break;
	default:
		break;
	}
	if (sqd_event)
		rxe_qp_event(qp, IB_EVENT_SQ_DRAINED);
	ret = 0;
out:
	mutex_unlock(&qp->modify_mutex);
	return ret;
}

/* ------------------------------------------------------------------ */
/* Query                                                                */
/* ------------------------------------------------------------------ */

int rxe_query_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr, int mask,
		 struct ib_qp_init_attr *init)
{
	struct rxe_qp *qp = to_rqp(ibqp);
	unsigned long flags;

	spin_lock_irqsave(&qp->state_lock, flags);
	*attr = qp->attr;
	spin_unlock_irqrestore(&qp->state_lock, flags);
	attr->cur_qp_state = attr->qp_state;

	/* where the engine is now, as in-tree rxe reports them */
	attr->sq_psn = READ_ONCE(qp->req.psn);
	attr->rq_psn = READ_ONCE(qp->resp.psn);

	attr->cap.max_send_wr = qp->sq.max_wr;
	attr->cap.max_send_sge = qp->sq.max_sge;
	attr->cap.max_inline_data = qp->sq.max_inline;
	attr->cap.max_recv_wr = qp->rq.max_wr;
	attr->cap.max_recv_sge = qp->rq.max_sge;

	memset(&attr->ah_attr, 0, sizeof(attr->ah_attr));
	if (rxe_qp_type(qp) != IB_QPT_UD && rxe_qp_type(qp) != IB_QPT_GSI)
		rxe_av_to_attr(&qp->pri_av, &attr->ah_attr);

	attr->sq_draining = attr->qp_state == IB_QPS_SQD &&
			    rxe_qp_sq_busy(qp);
	if (attr->sq_draining)
		cond_resched();	/* callers tend to spin on this */

	memset(init, 0, sizeof(*init));
	init->send_cq = ibqp->send_cq;
	init->recv_cq = ibqp->recv_cq;
	init->srq = ibqp->srq;
	init->cap = attr->cap;
	init->sq_sig_type = qp->sq_sig_type;
	init->qp_type = rxe_qp_type(qp);
	init->port_num = 1;
	init->event_handler = ibqp->event_handler;
	init->qp_context = ibqp->qp_context;
	return 0;
}
