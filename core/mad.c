// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The MAD layer: management datagrams over each port's GSI QP (QP1).
 *
 * ib_core registers the "mad" client at load, before any driver can
 * register a device, so it is added to every device first and removed
 * last.  Per port it owns a PD, a CQ (polled from a workqueue) and the GSI
 * QP with MAD_QP_RECV_DEPTH receive buffers posted; each completed
 * receive is replaced before it is looked at, so the ring stays full.
 *
 * A send goes IDLE -> ON_WIRE (posted; or on the port's backlog while the
 * send queue is full) -> [its completion] -> WAITING (if it has a timeout)
 * -> DONE, and DONE is handed to the agent's handler work, which calls
 * send_handler() and makes the send IDLE again.  From WAITING the agent's
 * timeout work either reposts it (ON_WIRE again, one retry used) or ends
 * it with IB_WC_RESP_TIMEOUT_ERR.  A matching response or ib_cancel_mad()
 * ends it too; while ON_WIRE that waits for the QP's completion
 * (finish_on_wc), so a consumer never frees a buffer the QP still reads.
 *
 * A receive is checked (length, base version), given the address back
 * (ib_init_ah_attr_from_wc()), then dispatched: a response to the agent
 * its TID's upper half names, matched to a send by TID and class; a
 * request to the agent holding its (class, version, method).  What no
 * agent takes is dropped and counted (a Get or Set is answered with a
 * GetResp of status "bad version" or "unsupported method/attribute"
 * first); the per-port counters are in debugfs, ib_mad/<device>-<port>.
 *
 * What a peer can make the layer hold is bounded (mad_priv.h has the
 * numbers and why): requests queued for an agent, sends on the port's
 * backlog, and the rate of answers to unclaimed Get/Set; each drop is
 * counted (rx_dropped_agent_busy, tx_dropped_backlog_full,
 * tx_unclaimed_ratelimited).
 *
 * Handlers run from the agent's handler work, one at a time per agent,
 * in the order the events were queued (a matched response's recv_handler
 * before that send's send_handler).
 */
#include <linux/debugfs.h>
#include <linux/llist.h>
#include <linux/module.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <ordma/ib_core.h>
#include <ordma/mad_wire.h>
#include <ordma/test_pause.h>
#include "core_priv.h"
#include "mad_priv.h"

struct mad_device {
	u32 nports;
	struct mad_port *port[];	/* [port_num - 1] */
};

static struct workqueue_struct *ib_mad_wq;
static struct dentry *ib_mad_debugfs;
static struct ib_client mad_client;

/*
 * Test-only fault injection, debugfs ib_mad/flush_sends: the next N
 * agent sends (any port) end with IB_WC_WR_FLUSH_ERR without reaching
 * the QP, as a QP1 in error ends them.  A consumer's handling of a
 * flushed send can be tested on demand instead of by breaking QP1 at the
 * right moment; 0 (the default) costs one atomic read per send.  Written
 * through write_iter so that a kernel selftest can arm it with
 * kernel_write() right before the send it is for.
 */
static atomic_t mad_flush_sends = ATOMIC_INIT(0);

static ssize_t mad_flush_sends_write(struct kiocb *iocb, struct iov_iter *from)
{
	size_t len = iov_iter_count(from);
	char buf[12] = {};
	unsigned int n;

	if (len >= sizeof(buf))
		return -EINVAL;
	if (copy_from_iter(buf, len, from) != len)
		return -EFAULT;
	if (kstrtouint(strim(buf), 0, &n) || n > INT_MAX)
		return -EINVAL;
	atomic_set(&mad_flush_sends, n);
	return len;
}

static const struct file_operations mad_flush_sends_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write_iter = mad_flush_sends_write,
};

static const char *const mad_counter_names[MAD_CNT_MAX] = {
	[MAD_CNT_RX_DELIVERED] = "rx_delivered",
	[MAD_CNT_RX_SHORT] = "rx_dropped_short",
	[MAD_CNT_RX_BAD_VERSION] = "rx_dropped_bad_base_version",
	[MAD_CNT_RX_UNCLAIMED] = "rx_dropped_unclaimed",
	[MAD_CNT_RX_NO_ROUTE] = "rx_dropped_no_route",
	[MAD_CNT_RX_ERROR] = "rx_errors",
	[MAD_CNT_RX_NO_BUFFER] = "rx_dropped_no_buffer",
	[MAD_CNT_TX_SENT] = "tx_sent",
	[MAD_CNT_TX_RETRIES] = "tx_retries",
	[MAD_CNT_TX_TIMEOUTS] = "tx_timeouts",
	[MAD_CNT_TX_ERROR] = "tx_errors",
	[MAD_CNT_TX_ANSWERED] = "tx_unclaimed_answered",
	[MAD_CNT_RX_FLUSHED] = "rx_flushed",
	[MAD_CNT_QP_RECOVERED] = "qp_recoveries",
	[MAD_CNT_QP_RECOVERY_FAILED] = "qp_recovery_failures",
	[MAD_CNT_RX_AGENT_BUSY] = "rx_dropped_agent_busy",
	[MAD_CNT_TX_BACKLOG_FULL] = "tx_dropped_backlog_full",
	[MAD_CNT_TX_UNCLAIMED_RATELIMITED] = "tx_unclaimed_ratelimited",
};

static void mad_count(struct mad_port *port, enum mad_port_counter c)
{
	atomic64_inc(&port->counters[c]);
}

/* ---------------------------------------------------------------- */
/* Agents: references and the handler work                          */
/* ---------------------------------------------------------------- */

static void mad_agent_put(struct mad_agent *ma)
{
	if (refcount_dec_and_test(&ma->refcount))
		complete(&ma->released);
}

/* Queue @ev for the handlers; the caller's agent reference goes with it. */
static void mad_queue_event(struct mad_agent *ma, struct mad_event *ev)
{
	lockdep_assert_held(&ma->lock);
	list_add_tail(&ev->list, &ma->events);
	queue_work(ib_mad_wq, &ma->handler_work);
}

/* End a posted send with @status (unless already failed); agent lock held. */
static void mad_send_finish(struct mad_agent *ma, struct mad_send *s,
			    enum ib_wc_status status)
{
	if (s->status == IB_WC_SUCCESS)
		s->status = status;
	list_del(&s->list);
	s->state = MAD_SEND_DONE;
	s->event.kind = MAD_EVENT_SEND_DONE;
	mad_queue_event(ma, &s->event);
}

static void mad_handler_work(struct work_struct *work)
{
	struct mad_agent *ma = container_of(work, struct mad_agent,
					    handler_work);
	struct mad_event *ev;
	unsigned long flags;

	spin_lock_irqsave(&ma->lock, flags);
	while ((ev = list_first_entry_or_null(&ma->events, struct mad_event,
					      list))) {
		list_del(&ev->list);
		if (ev->kind == MAD_EVENT_RECV) {
			struct mad_recv *r = container_of(ev, struct mad_recv,
							  event);
			bool dead = ma->dead;

			if (r->is_request)
				ma->queued_requests--;

			spin_unlock_irqrestore(&ma->lock, flags);
			if (dead)
				ib_free_recv_mad(&r->recv_wc);
			else
				ma->recv_handler(&ma->agent,
						 r->matched ?
						 &r->matched->send_buf : NULL,
						 &r->recv_wc);
		} else {
			struct mad_send *s = container_of(ev, struct mad_send,
							  event);
			struct ib_mad_send_wc wc = {
				.send_buf = &s->send_buf,
				.status = s->status,
			};

			s->state = MAD_SEND_IDLE;
			spin_unlock_irqrestore(&ma->lock, flags);
			ma->send_handler(&ma->agent, &wc);
		}
		mad_agent_put(ma);
		spin_lock_irqsave(&ma->lock, flags);
	}
	spin_unlock_irqrestore(&ma->lock, flags);
}

/* ---------------------------------------------------------------- */
/* Sending                                                          */
/* ---------------------------------------------------------------- */

/*
 * Queue @s on the port's backlog, unless MAD_PORT_MAX_BACKLOG sends wait
 * there already: then -ENOBUFS (counted), and the caller ends the send
 * with an error.  Port lock held.
 */
static int mad_backlog_add_locked(struct mad_port *port, struct mad_send *s)
{
	if (port->backlog_len >= MAD_PORT_MAX_BACKLOG) {
		mad_count(port, MAD_CNT_TX_BACKLOG_FULL);
		return -ENOBUFS;
	}
	list_add_tail(&s->backlog, &port->send_backlog);
	port->backlog_len++;
	return 0;
}

/*
 * Hand @s to the QP, or to the backlog while the send queue is full or
 * QP1 is being recovered; -ENOBUFS if the backlog is full too.
 */
static int mad_send_to_wire(struct mad_port *port, struct mad_send *s)
{
	const struct ib_send_wr *bad_wr;
	unsigned long flags;
	int ret;

	spin_lock_irqsave(&port->lock, flags);
	if (!port->qp_down && port->sends_posted < MAD_QP_SEND_DEPTH &&
	    list_empty(&port->send_backlog)) {
		ret = ib_post_send(port->qp, &s->wr.wr, &bad_wr);
		if (!ret)
			port->sends_posted++;
	} else {
		ret = mad_backlog_add_locked(port, s);
	}
	spin_unlock_irqrestore(&port->lock, flags);
	return ret;
}

/* Post from the backlog while there is room and the QP is up; lock held. */
static void mad_post_backlog_locked(struct mad_port *port,
				    struct list_head *refused)
{
	const struct ib_send_wr *bad_wr;
	struct mad_send *s;

	while (!port->qp_down && port->sends_posted < MAD_QP_SEND_DEPTH &&
	       (s = list_first_entry_or_null(&port->send_backlog,
					     struct mad_send, backlog))) {
		port->backlog_len--;
		if (ib_post_send(port->qp, &s->wr.wr, &bad_wr)) {
			list_move_tail(&s->backlog, refused);
		} else {
			list_del_init(&s->backlog);
			port->sends_posted++;
		}
	}
}

/* End the backlogged sends the QP refused with IB_WC_GENERAL_ERR. */
static void mad_fail_refused(struct mad_port *port, struct list_head *refused)
{
	struct mad_send *s, *tmp;
	unsigned long flags;

	list_for_each_entry_safe(s, tmp, refused, backlog) {
		struct mad_agent *ma = s->agent;

		list_del_init(&s->backlog);
		mad_count(port, MAD_CNT_TX_ERROR);
		spin_lock_irqsave(&ma->lock, flags);
		if (s->state == MAD_SEND_ON_WIRE)
			mad_send_finish(ma, s, IB_WC_GENERAL_ERR);
		spin_unlock_irqrestore(&ma->lock, flags);
	}
}

/*
 * A WR completed with IB_WC_WR_FLUSH_ERR: the QP is in ERR.  Once the last
 * posted WR is back, recover_work resets it; lock held.
 */
static void mad_qp_down_locked(struct mad_port *port, bool flushed)
{
	if (port->closing)
		return;
	if (flushed)
		port->qp_down = true;
	if (port->qp_down && !port->sends_posted &&
	    list_empty(&port->recvs_posted))
		mod_delayed_work(ib_mad_wq, &port->recover_work, 0);
}

/*
 * A send queue slot is free again (@flushed: its WR was flushed): post
 * from the backlog.  A backlogged send the QP refuses ends with
 * IB_WC_GENERAL_ERR.
 */
static void mad_send_slot_freed(struct mad_port *port, bool flushed)
{
	LIST_HEAD(refused);
	unsigned long flags;

	spin_lock_irqsave(&port->lock, flags);
	port->sends_posted--;
	mad_qp_down_locked(port, flushed);
	mad_post_backlog_locked(port, &refused);
	spin_unlock_irqrestore(&port->lock, flags);
	mad_fail_refused(port, &refused);
}

/* Make sure the timeout work runs by @deadline; agent lock held. */
static void mad_arm_timeout(struct mad_agent *ma, unsigned long deadline)
{
	unsigned long now = jiffies;

	if (ma->dead)
		return;
	if (delayed_work_pending(&ma->timeout_work) &&
	    !time_before(deadline, ma->timeout_at))
		return;
	ma->timeout_at = deadline;
	mod_delayed_work(ib_mad_wq, &ma->timeout_work,
			 time_after(deadline, now) ? deadline - now : 0);
}

static void mad_send_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct mad_send *s = container_of(wc->wr_cqe, struct mad_send, cqe);
	struct mad_agent *ma = s->agent;
	struct mad_port *port = ma->port;
	unsigned long flags;

	mad_send_slot_freed(port, wc->status == IB_WC_WR_FLUSH_ERR);
	if (wc->status == IB_WC_SUCCESS)
		mad_count(port, MAD_CNT_TX_SENT);
	else if (wc->status != IB_WC_WR_FLUSH_ERR)
		mad_count(port, MAD_CNT_TX_ERROR);

	spin_lock_irqsave(&ma->lock, flags);
	if (s->state != MAD_SEND_ON_WIRE) {
		/* Not ours to judge: a completion we did not post. */
	} else if (s->finish_on_wc) {
		mad_send_finish(ma, s, IB_WC_SUCCESS);
	} else if (wc->status != IB_WC_SUCCESS) {
		mad_send_finish(ma, s, wc->status);
	} else if (!s->send_buf.timeout_ms) {
		mad_send_finish(ma, s, IB_WC_SUCCESS);
	} else {
		s->state = MAD_SEND_WAITING;
		s->deadline = jiffies + msecs_to_jiffies(s->send_buf.timeout_ms);
		mad_arm_timeout(ma, s->deadline);
	}
	spin_unlock_irqrestore(&ma->lock, flags);
}

/* Retransmit or time out what is due; re-arm for the next deadline. */
static void mad_timeout_work(struct work_struct *work)
{
	struct mad_agent *ma = container_of(to_delayed_work(work),
					    struct mad_agent, timeout_work);
	struct mad_port *port = ma->port;
	unsigned long now = jiffies, next = 0;
	struct mad_send *s, *tmp;
	bool have_next = false;
	unsigned long flags;

	spin_lock_irqsave(&ma->lock, flags);
	if (ma->dead)
		goto out;
	list_for_each_entry_safe(s, tmp, &ma->sends, list) {
		if (s->state != MAD_SEND_WAITING)
			continue;
		if (time_before(now, s->deadline)) {
			if (!have_next || time_before(s->deadline, next))
				next = s->deadline;
			have_next = true;
			continue;
		}
		if (s->retries_left <= 0) {
			mad_count(port, MAD_CNT_TX_TIMEOUTS);
			mad_send_finish(ma, s, IB_WC_RESP_TIMEOUT_ERR);
			continue;
		}
		s->retries_left--;
		s->send_buf.retried++;
		mad_count(port, MAD_CNT_TX_RETRIES);
		s->state = MAD_SEND_ON_WIRE;
		if (mad_send_to_wire(port, s))
			mad_send_finish(ma, s, IB_WC_GENERAL_ERR);
	}
	if (have_next) {
		ma->timeout_at = next;
		mod_delayed_work(ib_mad_wq, &ma->timeout_work,
				 time_after(next, now) ? next - now : 0);
	}
out:
	spin_unlock_irqrestore(&ma->lock, flags);
}

/*
 * One MAD-sized UD send from @port's GSI QP to @remote_qpn through @ah:
 * the shape shared by agents' sends and the layer's own answers.
 */
static void mad_prep_ud_send(struct mad_port *port, struct ib_mad *mad,
			     struct ib_cqe *cqe, struct ib_sge *sge,
			     struct ib_ud_wr *wr, struct ib_ah *ah,
			     u32 remote_qpn, u16 pkey_index)
{
	sge->addr = ib_dma_map_single(port->device, mad, IB_MGMT_MAD_SIZE,
				      DMA_TO_DEVICE);
	sge->length = IB_MGMT_MAD_SIZE;
	sge->lkey = port->pd->local_dma_lkey;
	wr->wr.wr_cqe = cqe;
	wr->wr.sg_list = sge;
	wr->wr.num_sge = 1;
	wr->wr.opcode = IB_WR_SEND;
	wr->wr.send_flags = IB_SEND_SIGNALED;
	wr->ah = ah;
	wr->remote_qpn = remote_qpn;
	wr->remote_qkey = IB_QP1_QKEY;
	wr->pkey_index = pkey_index;
}

struct ib_mad_send_buf *ib_create_send_mad(struct ib_mad_agent *agent,
					   u32 remote_qpn, u16 pkey_index,
					   const struct ib_ah_attr *ah_attr,
					   gfp_t gfp)
{
	struct mad_agent *ma = container_of(agent, struct mad_agent, agent);
	struct mad_port *port = ma->port;
	struct ib_ah_attr attr = *ah_attr;
	struct mad_send *s;

	s = kzalloc(sizeof(*s), gfp);
	if (!s)
		return ERR_PTR(-ENOMEM);
	attr.port_num = port->port_num;
	attr.is_global = 1;
	attr.sgid_attr = NULL;
	s->ah = ib_create_ah(port->pd, &attr);
	if (IS_ERR(s->ah)) {
		struct ib_ah *ah = s->ah;

		kfree(s);
		return ERR_CAST(ah);
	}

	/* Dropped by ib_free_send_mad(): unregistering waits for it. */
	refcount_inc(&ma->refcount);
	s->agent = ma;
	s->send_buf.mad_agent = agent;
	s->send_buf.mad = &s->mad;
	s->state = MAD_SEND_IDLE;
	INIT_LIST_HEAD(&s->list);
	INIT_LIST_HEAD(&s->backlog);
	s->cqe.done = mad_send_done;
	mad_prep_ud_send(port, &s->mad, &s->cqe, &s->sge, &s->wr, s->ah,
			 remote_qpn, pkey_index);
	return &s->send_buf;
}
EXPORT_SYMBOL(ib_create_send_mad);

int ib_post_send_mad(struct ib_mad_send_buf *send_buf)
{
	struct mad_send *s = container_of(send_buf, struct mad_send, send_buf);
	struct mad_agent *ma = s->agent;
	unsigned long flags;
	int ret;

	if (send_buf->timeout_ms < 0 || send_buf->retries < 0)
		return -EINVAL;
	spin_lock_irqsave(&ma->lock, flags);
	if (ma->dead) {
		ret = -ESHUTDOWN;
		goto out;
	}
	if (s->state != MAD_SEND_IDLE) {
		ret = -EBUSY;
		goto out;
	}
	s->tid = be64_to_cpu(s->mad.mad_hdr.tid);
	s->mgmt_class = s->mad.mad_hdr.mgmt_class;
	s->status = IB_WC_SUCCESS;
	s->finish_on_wc = false;
	s->retries_left = send_buf->retries;
	send_buf->retried = 0;
	s->state = MAD_SEND_ON_WIRE;
	list_add_tail(&s->list, &ma->sends);
	refcount_inc(&ma->refcount);	/* until send_handler() returned */
	if (unlikely(atomic_read(&mad_flush_sends)) &&
	    atomic_dec_if_positive(&mad_flush_sends) >= 0) {
		/* what mad_send_done() makes of a flushed send */
		mad_send_finish(ma, s, IB_WC_WR_FLUSH_ERR);
		ret = 0;
		goto out;
	}
	ret = mad_send_to_wire(ma->port, s);
	if (ret == -ENOBUFS) {
		/* as if the QP had refused it: the agent hears of it */
		mad_send_finish(ma, s, IB_WC_GENERAL_ERR);
		ret = 0;
	} else if (ret) {
		list_del_init(&s->list);
		s->state = MAD_SEND_IDLE;
		mad_agent_put(ma);	/* never the last: registration's */
	}
out:
	spin_unlock_irqrestore(&ma->lock, flags);
	return ret;
}
EXPORT_SYMBOL(ib_post_send_mad);

/*
 * End @s with WR_FLUSH_ERR: now if it waits for an answer, once its
 * completion is back if it is on the wire.  Under the agent's lock.
 */
static void mad_send_flush(struct mad_agent *ma, struct mad_send *s)
{
	if (s->state == MAD_SEND_WAITING) {
		mad_send_finish(ma, s, IB_WC_WR_FLUSH_ERR);
	} else if (s->state == MAD_SEND_ON_WIRE && !s->finish_on_wc) {
		s->status = IB_WC_WR_FLUSH_ERR;
		s->finish_on_wc = true;
	}
}

void ib_cancel_mad(struct ib_mad_send_buf *send_buf)
{
	struct mad_send *s = container_of(send_buf, struct mad_send, send_buf);
	struct mad_agent *ma = s->agent;
	unsigned long flags;

	spin_lock_irqsave(&ma->lock, flags);
	mad_send_flush(ma, s);
	spin_unlock_irqrestore(&ma->lock, flags);
}
EXPORT_SYMBOL(ib_cancel_mad);

int ib_modify_mad(struct ib_mad_send_buf *send_buf, u32 timeout_ms)
{
	struct mad_send *s = container_of(send_buf, struct mad_send, send_buf);
	struct mad_agent *ma = s->agent;
	unsigned long flags;
	int ret = 0;

	if (!timeout_ms) {
		ib_cancel_mad(send_buf);
		return 0;
	}
	spin_lock_irqsave(&ma->lock, flags);
	if (s->state == MAD_SEND_WAITING) {
		s->deadline = jiffies + msecs_to_jiffies(timeout_ms);
		mad_arm_timeout(ma, s->deadline);
	} else if (s->state == MAD_SEND_ON_WIRE && !s->finish_on_wc) {
		send_buf->timeout_ms = timeout_ms;
	} else {
		ret = -EINVAL;
	}
	spin_unlock_irqrestore(&ma->lock, flags);
	return ret;
}
EXPORT_SYMBOL(ib_modify_mad);

/* AHs may need a sleeping context: destroy them from the port's work. */
static void mad_free_work(struct work_struct *work)
{
	struct mad_port *port = container_of(work, struct mad_port,
					     free_work);
	struct llist_node *list = llist_del_all(&port->free_sends);
	struct mad_send *s, *tmp;

	llist_for_each_entry_safe(s, tmp, list, free_node) {
		ib_destroy_ah(s->ah);
		kfree(s);
	}
}

void ib_free_send_mad(struct ib_mad_send_buf *send_buf)
{
	struct mad_send *s;
	struct mad_agent *ma;
	struct mad_port *port;

	if (!send_buf)
		return;
	s = container_of(send_buf, struct mad_send, send_buf);
	ma = s->agent;
	port = ma->port;
	llist_add(&s->free_node, &port->free_sends);
	queue_work(ib_mad_wq, &port->free_work);
	/*
	 * The buffer's agent reference goes last: the port outlives its
	 * agents and flushes free_work before it goes.
	 */
	mad_agent_put(ma);
}
EXPORT_SYMBOL(ib_free_send_mad);

/* ---------------------------------------------------------------- */
/* Receiving                                                        */
/* ---------------------------------------------------------------- */

static void mad_recv_done(struct ib_cq *cq, struct ib_wc *wc);

static int mad_recv_post(struct mad_port *port, struct mad_recv *r)
{
	const struct ib_recv_wr *bad_wr;
	unsigned long flags;
	int ret;

	r->port = port;
	r->matched = NULL;
	r->is_request = false;
	r->cqe.done = mad_recv_done;
	r->sge.addr = ib_dma_map_single(port->device, r->buf, sizeof(r->buf),
					DMA_FROM_DEVICE);
	r->sge.length = sizeof(r->buf);
	r->sge.lkey = port->pd->local_dma_lkey;
	r->wr.next = NULL;
	r->wr.wr_cqe = &r->cqe;
	r->wr.sg_list = &r->sge;
	r->wr.num_sge = 1;

	spin_lock_irqsave(&port->lock, flags);
	if (port->closing) {
		ret = -ESHUTDOWN;
	} else if (port->qp_down) {
		/* posted into ERR, it would only come back flushed */
		list_add_tail(&r->list, &port->recvs_parked);
		ret = 0;
	} else {
		list_add_tail(&r->list, &port->recvs_posted);
		ret = ib_post_recv(port->qp, &r->wr, &bad_wr);
		if (ret)
			list_del(&r->list);
	}
	spin_unlock_irqrestore(&port->lock, flags);
	return ret;
}

void ib_free_recv_mad(struct ib_mad_recv_wc *recv_wc)
{
	if (recv_wc)
		kfree(container_of(recv_wc, struct mad_recv, recv_wc));
}
EXPORT_SYMBOL(ib_free_recv_mad);

/* The agent a response's TID names, referenced, or NULL. */
static struct mad_agent *mad_agent_by_tid(struct mad_port *port, u64 tid)
{
	struct mad_agent *ma;

	xa_lock(&port->agents);
	ma = xa_load(&port->agents, mad_wire_tid_agent(tid));
	if (ma)
		refcount_inc(&ma->refcount);
	xa_unlock(&port->agents);
	return ma;
}

/* The agent registered for a request's class/version/method, or NULL. */
static struct mad_agent *mad_agent_by_method(struct mad_port *port,
					     const struct mad_wire_hdr *h)
{
	struct mad_method_table *table;
	struct mad_agent *ma = NULL;
	unsigned long flags;

	spin_lock_irqsave(&port->lock, flags);
	table = xa_load(&port->classes, h->mgmt_class << 8 | h->class_version);
	if (table)
		ma = table->agent[mad_wire_method_index(h->method)];
	if (ma)
		refcount_inc(&ma->refcount);
	spin_unlock_irqrestore(&port->lock, flags);
	return ma;
}

static struct mad_send *mad_find_send(struct mad_agent *ma,
				      const struct mad_wire_hdr *h)
{
	struct mad_send *s;

	/* Only a send that waits for a response can get one. */
	list_for_each_entry(s, &ma->sends, list)
		if (s->tid == h->tid && s->mgmt_class == h->mgmt_class &&
		    s->send_buf.timeout_ms > 0 && !s->finish_on_wc &&
		    (s->state == MAD_SEND_WAITING ||
		     s->state == MAD_SEND_ON_WIRE))
			return s;
	return NULL;
}

/*
 * Room for one more request on @ma's queue (MAD_AGENT_MAX_QUEUED_REQUESTS);
 * taken if so.  Agent lock held.
 */
static bool mad_agent_take_request_slot(struct mad_agent *ma)
{
	if (ma->queued_requests >= MAD_AGENT_MAX_QUEUED_REQUESTS)
		return false;
	ma->queued_requests++;
	return true;
}

/*
 * Give @r to @ma (whose reference the caller passes in); a response ends
 * the send it matches.  Returns 0 if taken, -ENOENT if nobody took it,
 * -EBUSY for a request the agent has no room for.
 */
static int mad_deliver(struct mad_agent *ma, struct mad_recv *r,
		       const struct mad_wire_hdr *h, bool response)
{
	struct mad_send *s = NULL;
	unsigned long flags;
	int ret = -ENOENT;

	spin_lock_irqsave(&ma->lock, flags);
	if (ma->dead)
		goto out;
	if (response) {
		s = mad_find_send(ma, h);
		if (!s)
			goto out;
		r->matched = s;
	}
	if (ma->recv_handler) {
		r->is_request = !response;
		if (r->is_request && !mad_agent_take_request_slot(ma)) {
			ret = -EBUSY;
			goto out;
		}
		r->event.kind = MAD_EVENT_RECV;
		mad_queue_event(ma, &r->event);
		ret = 0;
	}
	if (s) {
		if (s->state == MAD_SEND_WAITING)
			mad_send_finish(ma, s, IB_WC_SUCCESS);
		else
			s->finish_on_wc = true;
	}
out:
	spin_unlock_irqrestore(&ma->lock, flags);
	if (ret)
		mad_agent_put(ma);
	return ret;
}

/*
 * The status for a Get/Set nobody takes: the class is served at another
 * version only, or not this method.  Port lock held.
 */
static u16 mad_unclaimed_status(struct mad_port *port,
				const struct mad_wire_hdr *h)
{
	unsigned long first = h->mgmt_class << 8, index;
	struct mad_method_table *table;
	bool other_version = false;
	unsigned int m;

	xa_for_each_range(&port->classes, index, table, first, first | 0xff) {
		for (m = 0; m < IB_MGMT_MAX_METHODS; m++)
			if (table->agent[m])
				break;
		if (m == IB_MGMT_MAX_METHODS)
			continue;		/* nobody left at this version */
		if (index == (first | h->class_version))
			return IB_MGMT_MAD_STATUS_UNSUPPORTED_METHOD_ATTRIB;
		other_version = true;
	}
	return other_version ? IB_MGMT_MAD_STATUS_BAD_VERSION :
			       IB_MGMT_MAD_STATUS_UNSUPPORTED_METHOD_ATTRIB;
}

static void mad_reply_free(struct mad_reply *rp)
{
	ib_destroy_ah(rp->ah);
	kfree(rp);
}

static void mad_reply_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct mad_reply *rp = container_of(wc->wr_cqe, struct mad_reply, cqe);
	struct mad_port *port = cq->cq_context;
	unsigned long flags;

	spin_lock_irqsave(&port->lock, flags);
	list_del(&rp->list);
	spin_unlock_irqrestore(&port->lock, flags);
	mad_send_slot_freed(port, wc->status == IB_WC_WR_FLUSH_ERR);
	if (wc->status != IB_WC_SUCCESS && wc->status != IB_WC_WR_FLUSH_ERR)
		mad_count(port, MAD_CNT_TX_ERROR);
	mad_reply_free(rp);
}

/*
 * A Get or Set that no agent takes is answered as GetResp with a status
 * (IBTA 13.4.9), so that the requester need not time out; nothing else
 * is, and a response never is.  Best effort: over the answer rate
 * (MAD_UNCLAIMED_ANSWERS_PER_SEC, counted), no memory or no room in the
 * send queue, no answer.
 */
static void mad_answer_unclaimed(struct mad_port *port, struct mad_recv *r,
				 const struct mad_wire_hdr *h)
{
	const struct ib_send_wr *bad_wr;
	struct mad_reply *rp;
	unsigned long flags;
	int ret = -ENOSPC;

	if (h->method != IB_MGMT_METHOD_GET && h->method != IB_MGMT_METHOD_SET)
		return;
	if (!__ratelimit(&port->unclaimed_answers)) {
		mad_count(port, MAD_CNT_TX_UNCLAIMED_RATELIMITED);
		return;
	}
	rp = kzalloc(sizeof(*rp), GFP_KERNEL);
	if (!rp)
		return;
	rp->ah = ib_create_ah(port->pd, &r->recv_wc.ah_attr);
	if (IS_ERR(rp->ah)) {
		kfree(rp);
		return;
	}
	rp->mad = *r->recv_wc.mad;
	rp->mad.mad_hdr.method = IB_MGMT_METHOD_GET_RESP;
	rp->cqe.done = mad_reply_done;
	mad_prep_ud_send(port, &rp->mad, &rp->cqe, &rp->sge, &rp->wr, rp->ah,
			 r->wc.src_qp, r->wc.pkey_index);

	spin_lock_irqsave(&port->lock, flags);
	rp->mad.mad_hdr.status = cpu_to_be16(mad_unclaimed_status(port, h));
	if (!port->closing && !port->qp_down &&
	    port->sends_posted < MAD_QP_SEND_DEPTH) {
		list_add_tail(&rp->list, &port->replies);
		ret = ib_post_send(port->qp, &rp->wr.wr, &bad_wr);
		if (ret)
			list_del(&rp->list);
		else
			port->sends_posted++;
	}
	spin_unlock_irqrestore(&port->lock, flags);
	if (ret)
		mad_reply_free(rp);
	else
		mad_count(port, MAD_CNT_TX_ANSWERED);
}

static void mad_dispatch(struct mad_port *port, struct mad_recv *r)
{
	const u8 *mad = r->buf + MAD_GRH_SIZE;
	u32 len = r->wc.byte_len;
	struct mad_wire_hdr h;
	struct mad_agent *ma;
	bool response;
	int ret;

	len = len > MAD_GRH_SIZE ? len - MAD_GRH_SIZE : 0;
	switch (mad_wire_check(mad, len)) {
	case MAD_WIRE_SHORT:
		mad_count(port, MAD_CNT_RX_SHORT);
		goto drop;
	case MAD_WIRE_BAD_BASE_VERSION:
		mad_count(port, MAD_CNT_RX_BAD_VERSION);
		goto drop;
	case MAD_WIRE_OK:
		break;
	}

	r->recv_wc.wc = &r->wc;
	r->recv_wc.mad = (struct ib_mad *)mad;
	r->recv_wc.grh = r->buf;
	r->recv_wc.port_num = port->port_num;
	if (ib_init_ah_attr_from_wc(port->device, port->port_num, &r->wc,
				    r->buf, &r->recv_wc.ah_attr)) {
		mad_count(port, MAD_CNT_RX_NO_ROUTE);
		goto drop;
	}

	mad_wire_unpack(&h, mad);
	response = mad_wire_is_response(h.method);
	ma = response ? mad_agent_by_tid(port, h.tid) :
			mad_agent_by_method(port, &h);
	ret = ma ? mad_deliver(ma, r, &h, response) : -ENOENT;
	if (ret == -EBUSY) {
		mad_count(port, MAD_CNT_RX_AGENT_BUSY);
		goto drop;
	}
	if (ret) {
		mad_count(port, MAD_CNT_RX_UNCLAIMED);
		if (!response)
			mad_answer_unclaimed(port, r, &h);
		goto drop;
	}
	mad_count(port, MAD_CNT_RX_DELIVERED);
	return;

drop:
	kfree(r);
}

static void mad_recv_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct mad_recv *r = container_of(wc->wr_cqe, struct mad_recv, cqe);
	struct mad_port *port = r->port;
	struct mad_recv *fresh;
	unsigned long flags;

	if (wc->status == IB_WC_WR_FLUSH_ERR) {
		/*
		 * Reposting it would only flush it again, round and round:
		 * it waits for the QP's recovery instead (or teardown).
		 */
		mad_count(port, MAD_CNT_RX_FLUSHED);
		spin_lock_irqsave(&port->lock, flags);
		if (port->closing) {
			list_del(&r->list);
			kfree(r);
		} else {
			list_move_tail(&r->list, &port->recvs_parked);
			mad_qp_down_locked(port, true);
		}
		spin_unlock_irqrestore(&port->lock, flags);
		return;
	}

	spin_lock_irqsave(&port->lock, flags);
	list_del(&r->list);
	spin_unlock_irqrestore(&port->lock, flags);

	if (wc->status != IB_WC_SUCCESS) {
		/*
		 * E.g. a datagram longer than the buffer (IB_WC_LOC_LEN_ERR):
		 * the sender's doing, it costs that datagram only.  Were the
		 * QP in ERR after all, the repost comes back flushed, once.
		 */
		mad_count(port, MAD_CNT_RX_ERROR);
		if (mad_recv_post(port, r))
			kfree(r);
		return;
	}
	r->wc = *wc;

	/* Keep the ring full first; without memory, this MAD is the loss. */
	fresh = kmalloc(sizeof(*fresh), GFP_KERNEL);
	if (!fresh) {
		mad_count(port, MAD_CNT_RX_NO_BUFFER);
		if (mad_recv_post(port, r))
			kfree(r);
		return;
	}
	if (mad_recv_post(port, fresh))
		kfree(fresh);
	mad_dispatch(port, r);
}

/* ---------------------------------------------------------------- */
/* Agent registration                                               */
/* ---------------------------------------------------------------- */

static struct mad_port *mad_port_get(struct ib_device *device, u32 port_num)
{
	struct mad_device *mdev = ib_get_client_data(device, &mad_client);

	if (!mdev || !port_num || port_num > mdev->nports)
		return NULL;
	return mdev->port[port_num - 1];
}

static int mad_claim_methods(struct mad_port *port, struct mad_agent *ma)
{
	const struct ib_mad_reg_req *req = &ma->reg;
	unsigned long key = req->mgmt_class << 8 | req->mgmt_class_version;
	struct mad_method_table *table;
	unsigned long flags;
	unsigned int m;
	int ret = 0;

	mutex_lock(&port->reg_mutex);
	table = xa_load(&port->classes, key);
	if (!table) {
		table = kzalloc(sizeof(*table), GFP_KERNEL);
		if (!table) {
			ret = -ENOMEM;
			goto out;
		}
		ret = xa_err(xa_store(&port->classes, key, table, GFP_KERNEL));
		if (ret) {
			kfree(table);
			goto out;
		}
	}
	spin_lock_irqsave(&port->lock, flags);
	for_each_set_bit(m, req->method_mask, IB_MGMT_MAX_METHODS)
		if (table->agent[m])
			ret = -EBUSY;
	if (!ret)
		for_each_set_bit(m, req->method_mask, IB_MGMT_MAX_METHODS)
			table->agent[m] = ma;
	spin_unlock_irqrestore(&port->lock, flags);
out:
	mutex_unlock(&port->reg_mutex);
	return ret;
}

static void mad_release_methods(struct mad_port *port, struct mad_agent *ma)
{
	const struct ib_mad_reg_req *req = &ma->reg;
	struct mad_method_table *table;
	unsigned long flags;
	unsigned int m;

	mutex_lock(&port->reg_mutex);
	table = xa_load(&port->classes,
			req->mgmt_class << 8 | req->mgmt_class_version);
	spin_lock_irqsave(&port->lock, flags);
	for (m = 0; table && m < IB_MGMT_MAX_METHODS; m++)
		if (table->agent[m] == ma)
			table->agent[m] = NULL;
	spin_unlock_irqrestore(&port->lock, flags);
	mutex_unlock(&port->reg_mutex);
}

struct ib_mad_agent *ib_register_mad_agent(struct ib_device *device,
					   u32 port_num,
					   const struct ib_mad_reg_req *reg_req,
					   ib_mad_send_handler send_handler,
					   ib_mad_recv_handler recv_handler,
					   void *context)
{
	struct mad_port *port;
	struct mad_agent *ma;
	int ret;

	if (!rdma_is_port_valid(device, port_num) || !send_handler)
		return ERR_PTR(-EINVAL);
	if (reg_req &&
	    (!reg_req->mgmt_class || !recv_handler ||
	     bitmap_empty(reg_req->method_mask, IB_MGMT_MAX_METHODS)))
		return ERR_PTR(-EINVAL);
	port = mad_port_get(device, port_num);
	if (!port)
		return ERR_PTR(-ENODEV);

	ma = kzalloc(sizeof(*ma), GFP_KERNEL);
	if (!ma)
		return ERR_PTR(-ENOMEM);
	ma->agent.device = device;
	ma->agent.port_num = port_num;
	ma->agent.context = context;
	ma->port = port;
	ma->send_handler = send_handler;
	ma->recv_handler = recv_handler;
	if (reg_req) {
		ma->has_reg = true;
		ma->reg = *reg_req;
		ma->agent.mgmt_class = reg_req->mgmt_class;
		ma->agent.class_version = reg_req->mgmt_class_version;
	}
	refcount_set(&ma->refcount, 1);
	init_completion(&ma->released);
	spin_lock_init(&ma->lock);
	INIT_LIST_HEAD(&ma->sends);
	INIT_LIST_HEAD(&ma->events);
	INIT_WORK(&ma->handler_work, mad_handler_work);
	INIT_DELAYED_WORK(&ma->timeout_work, mad_timeout_work);

	ret = xa_alloc_cyclic(&port->agents, &ma->agent.hi_tid, ma,
			      XA_LIMIT(1, U32_MAX), &port->next_hi_tid,
			      GFP_KERNEL);
	if (ret < 0)
		goto err_free;
	if (reg_req) {
		ret = mad_claim_methods(port, ma);
		if (ret)
			goto err_tid;
	}
	return &ma->agent;

err_tid:
	xa_erase(&port->agents, ma->agent.hi_tid);
err_free:
	kfree(ma);
	return ERR_PTR(ret);
}
EXPORT_SYMBOL(ib_register_mad_agent);

void ib_unregister_mad_agent(struct ib_mad_agent *agent)
{
	struct mad_agent *ma = container_of(agent, struct mad_agent, agent);
	struct mad_port *port = ma->port;
	struct mad_send *s, *tmp;
	unsigned long flags;

	/* No new receives, posts or timers; then nothing can find it. */
	spin_lock_irqsave(&ma->lock, flags);
	ma->dead = true;
	spin_unlock_irqrestore(&ma->lock, flags);
	if (ma->has_reg)
		mad_release_methods(port, ma);
	xa_erase(&port->agents, agent->hi_tid);
	cancel_delayed_work_sync(&ma->timeout_work);

	/* Every send ends with WR_FLUSH_ERR, those on the wire once back. */
	spin_lock_irqsave(&ma->lock, flags);
	list_for_each_entry_safe(s, tmp, &ma->sends, list)
		mad_send_flush(ma, s);
	spin_unlock_irqrestore(&ma->lock, flags);

	/*
	 * Then wait for every reference: sends until their send_handler()
	 * returned, queued events, and every send buffer of the agent until
	 * the consumer freed it (a buffer names its agent to the end).
	 */
	mad_agent_put(ma);
	wait_for_completion(&ma->released);
	flush_work(&ma->handler_work);
	cancel_delayed_work_sync(&ma->timeout_work);
	kfree(ma);
}
EXPORT_SYMBOL(ib_unregister_mad_agent);

/* ---------------------------------------------------------------- */
/* Ports: the GSI QP and its resources                              */
/* ---------------------------------------------------------------- */

static int mad_counters_show(struct seq_file *m, void *unused)
{
	static const char *const state_names[] = {
		[IB_QPS_RESET] = "RESET", [IB_QPS_INIT] = "INIT",
		[IB_QPS_RTR] = "RTR", [IB_QPS_RTS] = "RTS",
		[IB_QPS_SQD] = "SQD", [IB_QPS_SQE] = "SQE",
		[IB_QPS_ERR] = "ERR",
	};
	struct mad_port *port = m->private;
	struct ib_qp_init_attr init;
	struct ib_qp_attr attr;
	int i;

	for (i = 0; i < MAD_CNT_MAX; i++)
		seq_printf(m, "%s %lld\n", mad_counter_names[i],
			   (long long)atomic64_read(&port->counters[i]));
	/* whether the port still has a working GSI QP */
	if (!ib_query_qp(port->qp, &attr, IB_QP_STATE, &init) &&
	    attr.qp_state < ARRAY_SIZE(state_names))
		seq_printf(m, "qp_state %s\n", state_names[attr.qp_state]);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(mad_counters);

static int mad_qp_to_rts(struct ib_qp *qp)
{
	struct ib_qp_attr attr = {};
	int ret;

	attr.qp_state = IB_QPS_INIT;
	attr.pkey_index = 0;
	attr.qkey = IB_QP1_QKEY;
	ret = ib_modify_qp(qp, &attr,
			   IB_QP_STATE | IB_QP_PKEY_INDEX | IB_QP_QKEY);
	if (ret)
		return ret;
	attr.qp_state = IB_QPS_RTR;
	ret = ib_modify_qp(qp, &attr, IB_QP_STATE);
	if (ret)
		return ret;
	attr.qp_state = IB_QPS_RTS;
	attr.sq_psn = 0;
	return ib_modify_qp(qp, &attr, IB_QP_STATE | IB_QP_SQ_PSN);
}

/*
 * QP1 went to ERR (a flush said so) and every WR it held is back: take it
 * through RESET to RTS again, repost the parked receive buffers and send
 * the backlog.  The in-tree MAD layer gets over send errors similarly; a
 * port without its GSI QP would be cut off until the device is re-added.
 */
static void mad_recover_work(struct work_struct *work)
{
	struct mad_port *port = container_of(to_delayed_work(work),
					     struct mad_port, recover_work);
	struct ib_qp_attr attr = { .qp_state = IB_QPS_RESET };
	struct mad_recv *r, *tmp;
	LIST_HEAD(parked);
	LIST_HEAD(refused);
	unsigned long flags;
	int ret;

	spin_lock_irqsave(&port->lock, flags);
	ret = port->closing || !port->qp_down || port->sends_posted ||
	      !list_empty(&port->recvs_posted);
	spin_unlock_irqrestore(&port->lock, flags);
	if (ret)
		return;

	/* (test-only: keep QP1 down here, see mad_selftest in_recovery=1) */
	ib_test_pause(IB_TEST_PAUSE_MAD_RECOVER);
	ret = ib_modify_qp(port->qp, &attr, IB_QP_STATE);
	if (!ret)
		ret = mad_qp_to_rts(port->qp);
	if (ret) {
		mad_count(port, MAD_CNT_QP_RECOVERY_FAILED);
		dev_warn_ratelimited(&port->device->dev,
				     "MAD: port %u: GSI QP stuck in error: %d\n",
				     port->port_num, ret);
		/* still down: try again later, not in a tight loop */
		spin_lock_irqsave(&port->lock, flags);
		if (!port->closing)
			mod_delayed_work(ib_mad_wq, &port->recover_work, HZ);
		spin_unlock_irqrestore(&port->lock, flags);
		return;
	}
	mad_count(port, MAD_CNT_QP_RECOVERED);
	dev_info_ratelimited(&port->device->dev,
			     "MAD: port %u: GSI QP recovered from error\n",
			     port->port_num);

	spin_lock_irqsave(&port->lock, flags);
	port->qp_down = false;
	list_splice_init(&port->recvs_parked, &parked);
	mad_post_backlog_locked(port, &refused);
	spin_unlock_irqrestore(&port->lock, flags);
	mad_fail_refused(port, &refused);
	list_for_each_entry_safe(r, tmp, &parked, list) {
		list_del(&r->list);
		if (mad_recv_post(port, r))
			kfree(r);
	}
}

static void mad_port_close(struct mad_port *port)
{
	struct ib_qp_attr attr = { .qp_state = IB_QPS_ERR };
	struct mad_method_table *table;
	struct mad_reply *rp, *rtmp;
	struct mad_recv *r, *tmp;
	unsigned long index;
	unsigned long flags;

	debugfs_remove(port->debugfs);
	if (port->qp) {
		spin_lock_irqsave(&port->lock, flags);
		port->closing = true;
		spin_unlock_irqrestore(&port->lock, flags);
		/* closing keeps it from being queued again */
		cancel_delayed_work_sync(&port->recover_work);
		ib_modify_qp(port->qp, &attr, IB_QP_STATE);
		ib_destroy_qp(port->qp);
	}
	if (port->cq)
		ib_free_cq(port->cq);
	/* Whatever the flush did not hand back, the QP is gone now. */
	list_for_each_entry_safe(r, tmp, &port->recvs_posted, list) {
		list_del(&r->list);
		kfree(r);
	}
	list_for_each_entry_safe(r, tmp, &port->recvs_parked, list) {
		list_del(&r->list);
		kfree(r);
	}
	list_for_each_entry_safe(rp, rtmp, &port->replies, list) {
		list_del(&rp->list);
		mad_reply_free(rp);
	}
	flush_work(&port->free_work);
	mad_free_work(&port->free_work);
	xa_for_each(&port->classes, index, table)
		kfree(table);
	xa_destroy(&port->classes);
	xa_destroy(&port->agents);
	if (port->pd)
		ib_dealloc_pd(port->pd);
	kfree(port);
}

static struct mad_port *mad_port_open(struct ib_device *device, u32 port_num)
{
	struct ib_qp_init_attr init = {};
	struct mad_port *port;
	char name[IB_DEVICE_NAME_MAX + 16];
	int ret, i;

	port = kzalloc(sizeof(*port), GFP_KERNEL);
	if (!port)
		return ERR_PTR(-ENOMEM);
	port->device = device;
	port->port_num = port_num;
	spin_lock_init(&port->lock);
	xa_init(&port->classes);
	mutex_init(&port->reg_mutex);
	xa_init_flags(&port->agents, XA_FLAGS_ALLOC1);
	INIT_LIST_HEAD(&port->send_backlog);
	ratelimit_state_init(&port->unclaimed_answers, HZ,
			     MAD_UNCLAIMED_ANSWERS_PER_SEC);
	/* counted in debugfs, not reported as "callbacks suppressed" */
	ratelimit_set_flags(&port->unclaimed_answers,
			    RATELIMIT_MSG_ON_RELEASE);
	INIT_LIST_HEAD(&port->recvs_posted);
	INIT_LIST_HEAD(&port->recvs_parked);
	INIT_DELAYED_WORK(&port->recover_work, mad_recover_work);
	INIT_LIST_HEAD(&port->replies);
	init_llist_head(&port->free_sends);
	INIT_WORK(&port->free_work, mad_free_work);

	port->pd = ib_alloc_pd(device, 0);
	if (IS_ERR(port->pd)) {
		ret = PTR_ERR(port->pd);
		port->pd = NULL;
		goto err;
	}
	port->cq = ib_alloc_cq(device, port,
			       MAD_QP_SEND_DEPTH + MAD_QP_RECV_DEPTH, 0,
			       IB_POLL_WORKQUEUE);
	if (IS_ERR(port->cq)) {
		ret = PTR_ERR(port->cq);
		port->cq = NULL;
		goto err;
	}
	init.send_cq = port->cq;
	init.recv_cq = port->cq;
	init.cap.max_send_wr = MAD_QP_SEND_DEPTH;
	init.cap.max_recv_wr = MAD_QP_RECV_DEPTH;
	init.cap.max_send_sge = 1;
	init.cap.max_recv_sge = 1;
	init.sq_sig_type = IB_SIGNAL_ALL_WR;
	init.qp_type = IB_QPT_GSI;
	init.port_num = port_num;
	init.qp_context = port;
	port->qp = ib_create_qp(port->pd, &init);
	if (IS_ERR(port->qp)) {
		ret = PTR_ERR(port->qp);
		port->qp = NULL;
		goto err;
	}
	ret = mad_qp_to_rts(port->qp);
	if (ret)
		goto err;

	for (i = 0; i < MAD_QP_RECV_DEPTH; i++) {
		struct mad_recv *r = kmalloc(sizeof(*r), GFP_KERNEL);

		if (!r) {
			ret = -ENOMEM;
			goto err;
		}
		ret = mad_recv_post(port, r);
		if (ret) {
			kfree(r);
			goto err;
		}
	}

	snprintf(name, sizeof(name), "%s-%u", ib_device_name(device),
		 port_num);
	port->debugfs = debugfs_create_file(name, 0400, ib_mad_debugfs, port,
					    &mad_counters_fops);
	return port;

err:
	dev_warn(&device->dev, "MAD: port %u without GSI QP: %d\n", port_num,
		 ret);
	mad_port_close(port);
	return ERR_PTR(ret);
}

static int mad_add_device(struct ib_device *device)
{
	struct mad_device *mdev;
	u32 p;

	mdev = kzalloc(struct_size(mdev, port, device->phys_port_cnt),
		       GFP_KERNEL);
	if (!mdev)
		return -ENOMEM;
	mdev->nports = device->phys_port_cnt;
	rdma_for_each_port(device, p) {
		struct mad_port *port = mad_port_open(device, p);

		if (IS_ERR(port)) {
			while (--p)
				mad_port_close(mdev->port[p - 1]);
			kfree(mdev);
			return PTR_ERR(port);
		}
		mdev->port[p - 1] = port;
	}
	ib_set_client_data(device, &mad_client, mdev);
	return 0;
}

static void mad_remove_device(struct ib_device *device, void *client_data)
{
	struct mad_device *mdev = client_data;
	u32 p;

	if (!mdev)
		return;
	for (p = 0; p < mdev->nports; p++)
		mad_port_close(mdev->port[p]);
	kfree(mdev);
}

static struct ib_client mad_client = {
	.name = "mad",
	.add = mad_add_device,
	.remove = mad_remove_device,
};

int ib_mad_init(void)
{
	int ret;

	ib_mad_wq = alloc_workqueue("ib_mad", WQ_MEM_RECLAIM, 0);
	if (!ib_mad_wq)
		return -ENOMEM;
	ib_mad_debugfs = debugfs_create_dir("ib_mad", NULL);
	/* _unsafe: the file only sets a global, which outlives it */
	debugfs_create_file_unsafe("flush_sends", 0200, ib_mad_debugfs, NULL,
				   &mad_flush_sends_fops);
	ret = ib_register_client(&mad_client);
	if (ret) {
		debugfs_remove(ib_mad_debugfs);
		destroy_workqueue(ib_mad_wq);
	}
	return ret;
}

void ib_mad_exit(void)
{
	ib_unregister_client(&mad_client);
	debugfs_remove(ib_mad_debugfs);
	destroy_workqueue(ib_mad_wq);
}
