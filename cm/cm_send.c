// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Sending CM messages, and the ib_send_cm_*() API.
 *
 * Messages that wait for an answer (REQ, REP, DREQ, SIDR_REQ) go out with
 * a timeout and a retry count; the MAD layer resends them until the CM
 * cancels them on the answer (cm_recv.c) or gives up, which the send
 * handler turns into an *_ERROR event.  Every other message is one-shot.
 * An id has at most one waiting message (priv->msg); one-shot answers
 * are remembered (priv->last_msg) to be resent when the peer repeats
 * itself.  A send buffer is made before the id's lock is taken (making
 * its AH may sleep) and filled and posted under it (post, cancel and
 * modify do not sleep); the *_locked helpers consume such a "spare"
 * buffer and leave NULL behind, and the caller frees what is left.
 */
#include <linux/slab.h>
#include <ordma/test_pause.h>
#include "cm_priv.h"

u8 *cm_msg_data(struct ib_mad_send_buf *buf)
{
	return ((struct ib_mad *)buf->mad)->data;
}

static void cm_fill_hdr(struct ib_mad_send_buf *buf, u16 attr_id,
			__be64 tid)
{
	struct ib_mad_hdr *hdr = buf->mad;

	hdr->base_version = IB_MGMT_BASE_VERSION;
	hdr->mgmt_class = CM_MGMT_CLASS;
	hdr->class_version = CM_CLASS_VERSION;
	hdr->method = CM_METHOD_SEND;
	hdr->tid = tid;
	hdr->attr_id = cpu_to_be16(attr_id);
}

/*
 * A buffer on @port's agent, or ERR_PTR(-ENODEV) once the device is gone
 * (see cm_port.agent_lock); may sleep.
 */
static struct ib_mad_send_buf *cm_create_buf(struct cm_port *port,
					     u32 remote_qpn, u16 pkey_index,
					     const struct ib_ah_attr *ah_attr)
{
	struct ib_mad_send_buf *buf = ERR_PTR(-ENODEV);

	down_read(&port->agent_lock);
	/* (test-only: hold a sender here, see tests/guest/removal_pause.sh) */
	ib_test_pause(IB_TEST_PAUSE_CM_MAKE_BUF);
	if (port->agent)
		buf = ib_create_send_mad(port->agent, remote_qpn, pkey_index,
					 ah_attr, GFP_KERNEL);
	up_read(&port->agent_lock);
	return buf;
}

/* A buffer toward the id's peer, or NULL; may sleep. */
struct ib_mad_send_buf *cm_alloc_msg(struct cm_id_priv *priv)
{
	struct ib_mad_send_buf *buf;

	if (!priv->port)
		return NULL;
	buf = cm_create_buf(priv->port, 1, 0, &priv->av);
	return IS_ERR(buf) ? NULL : buf;
}

/* Take the spare buffer and make it an @attr_id message; NULL if none. */
static struct ib_mad_send_buf *cm_take(struct ib_mad_send_buf **spare,
				       u16 attr_id, __be64 tid)
{
	struct ib_mad_send_buf *buf = *spare;

	*spare = NULL;
	if (!buf)
		return NULL;
	memset(buf->mad, 0, IB_MGMT_MAD_SIZE);
	cm_fill_hdr(buf, attr_id, tid);
	buf->timeout_ms = 0;
	buf->retries = 0;
	buf->context[0] = NULL;
	buf->context[1] = (void *)(uintptr_t)attr_id;
	return buf;
}

struct ib_mad_send_buf *cm_alloc_response(struct cm_port *port,
					  struct ib_mad_recv_wc *recv_wc,
					  u16 attr_id)
{
	struct ib_mad_send_buf *buf;

	buf = cm_create_buf(port, recv_wc->wc->src_qp,
			    recv_wc->wc->pkey_index, &recv_wc->ah_attr);
	if (IS_ERR(buf))
		return buf;
	cm_fill_hdr(buf, attr_id, recv_wc->mad->mad_hdr.tid);
	buf->context[0] = NULL;
	buf->context[1] = (void *)(uintptr_t)attr_id;
	return buf;
}

int cm_post(struct cm_port *port, struct ib_mad_send_buf *buf)
{
	u16 attr = (u16)(uintptr_t)buf->context[1];
	int ret;

	ret = ib_post_send_mad(buf);
	if (ret) {
		if (buf->context[0])
			cm_put(buf->context[0]);
		ib_free_send_mad(buf);
		return ret;
	}
	cm_count(port, CM_XMIT, attr);
	return 0;
}

/*
 * Post @buf as the id's waiting message (answered, cancelled or failed)
 * and, once it is out, move the id to @next.
 */
static int cm_post_waiting(struct cm_id_priv *priv, struct ib_mad_send_buf *buf,
			   u32 timeout_ms, u8 retries, enum ib_cm_state next)
{
	buf->timeout_ms = timeout_ms;
	buf->retries = retries;
	buf->context[0] = priv;
	cm_get(priv);
	priv->msg = buf;
	priv->msg_cancelled = false;
	if (cm_post(priv->port, buf)) {
		priv->msg = NULL;
		return -EIO;
	}
	priv->id.state = next;
	return 0;
}

/* A one-shot message, remembered for resending. */
static int cm_post_oneshot(struct cm_id_priv *priv,
			   struct ib_mad_send_buf *buf)
{
	u16 attr = (u16)(uintptr_t)buf->context[1];

	memcpy(priv->last_msg, cm_msg_data(buf), CM_MSG_SIZE);
	priv->last_attr = attr;
	return cm_post(priv->port, buf);
}

void cm_resend_last(struct cm_id_priv *priv, struct ib_mad_send_buf **spare)
{
	struct ib_mad_send_buf *buf;

	if (!priv->last_attr)
		return;
	buf = cm_take(spare, priv->last_attr, priv->tid);
	if (!buf)
		return;
	memcpy(cm_msg_data(buf), priv->last_msg, CM_MSG_SIZE);
	cm_post(priv->port, buf);
}

void cm_cancel_msg_locked(struct cm_id_priv *priv)
{
	if (priv->msg) {
		priv->msg_cancelled = true;
		ib_cancel_mad(priv->msg);
	}
	/* the send handler clears priv->msg when the cancel completes */
}

static u8 cm_pdata_copy(u8 *dst, unsigned int max, const void *src,
			u8 len)
{
	if (src && len)
		memcpy(dst, src, min_t(unsigned int, len, max));
	return len;
}

/* Where each message keeps its private data (none for LAP and APR). */
#define CM_PDATA(attr, o, l) \
	[(attr) - CM_ATTR_REQ] = { .off = (o), .len = (l) }
static const struct {
	u8 off;
	u8 len;
} cm_pdata_area[CM_NR_ATTRS] = {
	CM_PDATA(CM_ATTR_REQ, CM_REQ_PDATA_OFF, CM_REQ_PDATA_LEN),
	CM_PDATA(CM_ATTR_MRA, CM_MRA_PDATA_OFF, CM_MRA_PDATA_LEN),
	CM_PDATA(CM_ATTR_REJ, CM_REJ_PDATA_OFF, CM_REJ_PDATA_LEN),
	CM_PDATA(CM_ATTR_REP, CM_REP_PDATA_OFF, CM_REP_PDATA_LEN),
	CM_PDATA(CM_ATTR_RTU, CM_RTU_PDATA_OFF, CM_RTU_PDATA_LEN),
	CM_PDATA(CM_ATTR_DREQ, CM_DREQ_PDATA_OFF, CM_DREQ_PDATA_LEN),
	CM_PDATA(CM_ATTR_DREP, CM_DREP_PDATA_OFF, CM_DREP_PDATA_LEN),
	CM_PDATA(CM_ATTR_SIDR_REQ, CM_SIDR_REQ_PDATA_OFF,
		 CM_SIDR_REQ_PDATA_LEN),
	CM_PDATA(CM_ATTR_SIDR_REP, CM_SIDR_REP_PDATA_OFF,
		 CM_SIDR_REP_PDATA_LEN),
};
#undef CM_PDATA

/*
 * cm_take() with the private data already in place: the packers write
 * only the fixed fields before it, so the order does not matter.
 */
static struct ib_mad_send_buf *cm_take_pdata(struct ib_mad_send_buf **spare,
					     u16 attr_id, __be64 tid,
					     const void *pdata, u8 pdata_len)
{
	struct ib_mad_send_buf *buf = cm_take(spare, attr_id, tid);
	int i = cm_attr_index(attr_id);

	if (buf && i >= 0)
		cm_pdata_copy(cm_msg_data(buf) + cm_pdata_area[i].off,
			      cm_pdata_area[i].len, pdata, pdata_len);
	return buf;
}

/* Our side's and the peer's communication IDs, as the messages carry them. */
static struct cm_ids cm_comm_ids(struct cm_id_priv *priv)
{
	struct cm_ids ids = {
		.local_comm_id = be32_to_cpu(priv->id.local_id),
		.remote_comm_id = be32_to_cpu(priv->id.remote_id),
	};

	return ids;
}

/* A fresh transaction ID for a request we start. */
static __be64 cm_new_tid(struct cm_id_priv *priv)
{
	return cpu_to_be64((u64)priv->port->hi_tid << 32 |
			   be32_to_cpu(priv->id.local_id));
}

void cm_send_rej_locked(struct cm_id_priv *priv,
			struct ib_mad_send_buf **spare,
			enum ib_cm_rej_reason reason, const void *ari,
			u8 ari_len, const void *pdata, u8 pdata_len)
{
	struct ib_mad_send_buf *buf;
	struct cm_ids ids = cm_comm_ids(priv);
	struct cm_rej rej = {
		.local_comm_id = ids.local_comm_id,
		.remote_comm_id = ids.remote_comm_id,
		.reason = reason,
	};
	u8 *m;

	switch (priv->id.state) {
	case IB_CM_REQ_SENT:
	case IB_CM_MRA_REQ_RCVD:
	case IB_CM_REQ_RCVD:
	case IB_CM_MRA_REQ_SENT:
		rej.message_rejected = CM_ANSWERS_REQ;
		break;
	case IB_CM_REP_RCVD:
	case IB_CM_MRA_REP_SENT:
		rej.message_rejected = CM_ANSWERS_REP;
		break;
	default:
		rej.message_rejected = CM_ANSWERS_OTHER;
	}
	if (priv->id.state == IB_CM_REQ_SENT ||
	    priv->id.state == IB_CM_MRA_REQ_RCVD)
		rej.remote_comm_id = 0;
	if (priv->id.state == IB_CM_REQ_RCVD)	/* as the in-tree CM does */
		rej.local_comm_id = 0;
	buf = cm_take_pdata(spare, CM_ATTR_REJ, priv->tid, pdata, pdata_len);
	if (!buf)
		return;
	m = cm_msg_data(buf);
	if (reason == IB_CM_REJ_TIMEOUT && !ari) {
		/* the peer finds its id by our CA GUID and our comm ID */
		rej.ari_length = sizeof(__be64);
		memcpy(m + CM_REJ_ARI_OFF, &priv->id.device->node_guid,
		       sizeof(__be64));
	} else if (ari && ari_len) {
		rej.ari_length = min_t(u8, ari_len, CM_REJ_ARI_LEN);
		memcpy(m + CM_REJ_ARI_OFF, ari, rej.ari_length);
	}
	cm_rej_pack(m, &rej);
	cm_post_oneshot(priv, buf);
}

bool cm_reject_locked(struct cm_id_priv *priv, struct ib_mad_send_buf **spare,
		      enum ib_cm_rej_reason reason, const void *ari,
		      u8 ari_len, const void *pdata, u8 pdata_len)
{
	switch (priv->id.state) {
	case IB_CM_REQ_SENT:
	case IB_CM_MRA_REQ_RCVD:
	case IB_CM_REQ_RCVD:
	case IB_CM_MRA_REQ_SENT:
	case IB_CM_REP_RCVD:
	case IB_CM_MRA_REP_SENT:
	case IB_CM_REP_SENT:
	case IB_CM_MRA_REP_RCVD:
		break;
	default:
		return false;
	}
	cm_cancel_msg_locked(priv);
	cm_send_rej_locked(priv, spare, reason, ari, ari_len, pdata,
			   pdata_len);
	return true;
}

void cm_send_dreq_oneshot(struct cm_id_priv *priv,
			  struct ib_mad_send_buf **spare)
{
	struct ib_mad_send_buf *buf;
	struct cm_ids d = cm_comm_ids(priv);

	d.remote_qpn = priv->remote_qpn;
	buf = cm_take(spare, CM_ATTR_DREQ, cm_new_tid(priv));
	if (!buf)
		return;
	cm_dreq_pack(cm_msg_data(buf), &d);
	cm_post(priv->port, buf);
}

void cm_send_drep_locked(struct cm_id_priv *priv,
			 struct ib_mad_send_buf **spare, const void *pdata,
			 u8 pdata_len)
{
	struct ib_mad_send_buf *buf;
	struct cm_ids d = cm_comm_ids(priv);

	buf = cm_take_pdata(spare, CM_ATTR_DREP, priv->tid, pdata, pdata_len);
	if (!buf)
		return;
	cm_ids_pack(cm_msg_data(buf), &d);
	cm_post_oneshot(priv, buf);
}

void cm_send_sidr_status(struct cm_id_priv *priv,
			 struct ib_mad_send_buf **spare,
			 enum ib_cm_sidr_status status)
{
	struct ib_mad_send_buf *buf;
	struct cm_sidr_rep r = {
		.request_id = be32_to_cpu(priv->id.remote_id),
		.status = status,
		.service_id = be64_to_cpu(priv->id.service_id),
	};

	buf = cm_take(spare, CM_ATTR_SIDR_REP, priv->tid);
	if (!buf)
		return;
	cm_sidr_rep_pack(cm_msg_data(buf), &r);
	cm_post(priv->port, buf);
}

/* ------------------------------------------------------------------ */
/* The API                                                             */
/* ------------------------------------------------------------------ */

/*
 * Every call makes its spare buffer first, as making its AH may sleep,
 * then takes the id's lock; it drops the lock before freeing what is
 * left of the spare.
 */
static struct ib_mad_send_buf *cm_lock_with_spare(struct cm_id_priv *priv)
	__acquires(&priv->lock)
{
	struct ib_mad_send_buf *spare = cm_alloc_msg(priv);

	spin_lock_irq(&priv->lock);
	return spare;
}

static void cm_unlock_free_spare(struct cm_id_priv *priv,
				 struct ib_mad_send_buf *spare)
	__releases(&priv->lock)
{
	spin_unlock_irq(&priv->lock);
	ib_free_send_mad(spare);
}

/* A waiting message allows the peer its own time plus a round trip. */
static int cm_post_awaiting_peer(struct cm_id_priv *priv,
				 struct ib_mad_send_buf *buf,
				 enum ib_cm_state next)
{
	return cm_post_waiting(priv, buf,
			       cm_wait_ms(priv,
					  priv->remote_cm_response_timeout),
			       priv->max_cm_retries, next);
}

/* A one-shot answer that, once out, moves the id to @next. */
static int cm_post_answer(struct cm_id_priv *priv, struct ib_mad_send_buf *buf,
			  enum ib_cm_state next)
{
	int ret = cm_post_oneshot(priv, buf);

	if (!ret)
		priv->id.state = next;
	return ret;
}

int ib_send_cm_req(struct ib_cm_id *cm_id, struct ib_cm_req_param *param)
{
	struct cm_id_priv *priv = to_priv(cm_id);
	struct ib_mad_send_buf *spare = NULL;
	struct ib_cm_path *p = param->primary_path;
	struct ib_mad_send_buf *buf;
	struct cm_req req = {};
	int ret;

	if (!p || param->private_data_len > IB_CM_REQ_PRIVATE_DATA_SIZE ||
	    (param->qp_type != IB_QPT_RC && param->qp_type != IB_QPT_UC))
		return -EINVAL;
	if (cm_id->state != IB_CM_IDLE)
		return -EINVAL;
	ret = cm_set_av_from_path(priv, p);
	if (ret)
		return ret;

	spare = cm_lock_with_spare(priv);
	if (cm_id->state != IB_CM_IDLE) {
		ret = -EINVAL;
		goto out;
	}
	cm_id->service_id = param->service_id;
	cm_id->service_mask = cpu_to_be64(~0ULL);
	priv->qp_type = param->qp_type;
	priv->local_qpn = param->qp_num & 0xffffff;
	/*
	 * As the in-tree CM (and so every peer we meet) reads it: the
	 * starting PSN of a REQ is where the active side receives, that of
	 * the REP where the passive side receives.
	 */
	priv->rq_psn = param->starting_psn & 0xffffff;
	priv->responder_resources = param->responder_resources;
	priv->initiator_depth = param->initiator_depth;
	priv->retry_count = param->retry_count & 7;
	priv->rnr_retry_count = param->rnr_retry_count & 7;
	priv->max_cm_retries = param->max_cm_retries & 15;
	priv->remote_cm_response_timeout = param->remote_cm_response_timeout;
	priv->local_cm_response_timeout = param->local_cm_response_timeout;
	priv->local_ack_timeout = min_t(u8, p->packet_life_time + 1, 31);
	priv->srq = param->srq;
	priv->flow_control = param->flow_control;
	priv->tid = cm_new_tid(priv);

	req.local_comm_id = be32_to_cpu(cm_id->local_id);
	req.service_id = be64_to_cpu(param->service_id);
	req.local_ca_guid = be64_to_cpu(cm_id->device->node_guid);
	req.local_qpn = priv->local_qpn;
	req.responder_resources = param->responder_resources;
	req.initiator_depth = param->initiator_depth;
	req.remote_cm_response_timeout = param->remote_cm_response_timeout;
	req.transport = param->qp_type == IB_QPT_UC ? CM_TRANSPORT_UC :
						      CM_TRANSPORT_RC;
	req.flow_control = param->flow_control;
	req.starting_psn = priv->rq_psn;
	req.local_cm_response_timeout = param->local_cm_response_timeout;
	req.retry_count = priv->retry_count;
	req.pkey = p->pkey ? p->pkey : 0xffff;
	req.path_mtu = p->mtu;
	req.rnr_retry_count = priv->rnr_retry_count;
	req.max_cm_retries = priv->max_cm_retries;
	req.srq = param->srq;
	/* RoCE: LIDs mean nothing; permissive unless the path is local */
	req.primary.local_lid = p->hop_limit > 1 ? 0xffff : 0;
	req.primary.remote_lid = p->hop_limit > 1 ? 0xffff : 0;
	memcpy(req.primary.local_gid, p->sgid.raw, 16);
	memcpy(req.primary.remote_gid, p->dgid.raw, 16);
	req.primary.flow_label = p->flow_label;
	req.primary.packet_rate = p->rate;
	req.primary.traffic_class = p->traffic_class;
	req.primary.hop_limit = p->hop_limit;
	req.primary.sl = p->sl;
	req.primary.subnet_local = p->hop_limit <= 1;
	req.primary.local_ack_timeout = priv->local_ack_timeout;

	buf = cm_take_pdata(&spare, CM_ATTR_REQ, priv->tid,
			    param->private_data, param->private_data_len);
	if (!buf) {
		ret = -ENOMEM;
		goto out;
	}
	cm_req_pack(cm_msg_data(buf), &req);
	ret = cm_post_awaiting_peer(priv, buf, IB_CM_REQ_SENT);
out:
	cm_unlock_free_spare(priv, spare);
	return ret;
}
EXPORT_SYMBOL(ib_send_cm_req);

int ib_send_cm_rep(struct ib_cm_id *cm_id, struct ib_cm_rep_param *param)
{
	struct cm_id_priv *priv = to_priv(cm_id);
	struct ib_mad_send_buf *spare = NULL;
	struct ib_mad_send_buf *buf;
	struct cm_rep rep = {};
	int ret;

	if (param->private_data_len > IB_CM_REP_PRIVATE_DATA_SIZE)
		return -EINVAL;
	spare = cm_lock_with_spare(priv);
	if (cm_id->state != IB_CM_REQ_RCVD &&
	    cm_id->state != IB_CM_MRA_REQ_SENT) {
		ret = -EINVAL;
		goto out;
	}
	priv->local_qpn = param->qp_num & 0xffffff;
	if (!priv->rq_psn_fixed)
		priv->rq_psn = param->starting_psn & 0xffffff;
	priv->responder_resources = param->responder_resources;
	priv->initiator_depth = param->initiator_depth;
	priv->srq = param->srq;

	rep.local_comm_id = be32_to_cpu(cm_id->local_id);
	rep.remote_comm_id = be32_to_cpu(cm_id->remote_id);
	rep.local_qpn = priv->local_qpn;
	rep.starting_psn = priv->rq_psn;
	rep.responder_resources = param->responder_resources;
	rep.initiator_depth = param->initiator_depth;
	rep.target_ack_delay = 0;
	rep.failover_accepted = param->failover_accepted;
	rep.flow_control = param->flow_control;
	rep.rnr_retry_count = param->rnr_retry_count;
	rep.srq = param->srq;
	rep.local_ca_guid = be64_to_cpu(cm_id->device->node_guid);

	buf = cm_take_pdata(&spare, CM_ATTR_REP, priv->tid,
			    param->private_data, param->private_data_len);
	if (!buf) {
		ret = -ENOMEM;
		goto out;
	}
	cm_rep_pack(cm_msg_data(buf), &rep);
	ret = cm_post_awaiting_peer(priv, buf, IB_CM_REP_SENT);
out:
	cm_unlock_free_spare(priv, spare);
	if (!ret)
		cm_req_answered(priv);
	return ret;
}
EXPORT_SYMBOL(ib_send_cm_rep);

int ib_send_cm_rtu(struct ib_cm_id *cm_id, const void *private_data,
		   u8 private_data_len)
{
	struct cm_id_priv *priv = to_priv(cm_id);
	struct ib_mad_send_buf *spare = NULL;
	struct ib_mad_send_buf *buf;
	struct cm_ids ids;
	int ret = 0;

	if (private_data_len > IB_CM_RTU_PRIVATE_DATA_SIZE)
		return -EINVAL;
	spare = cm_lock_with_spare(priv);
	if (cm_id->state != IB_CM_REP_RCVD &&
	    cm_id->state != IB_CM_MRA_REP_SENT) {
		ret = -EINVAL;
		goto out;
	}
	buf = cm_take_pdata(&spare, CM_ATTR_RTU, priv->tid, private_data,
			    private_data_len);
	if (!buf) {
		ret = -ENOMEM;
		goto out;
	}
	ids = cm_comm_ids(priv);
	cm_ids_pack(cm_msg_data(buf), &ids);
	ret = cm_post_answer(priv, buf, IB_CM_ESTABLISHED);
out:
	cm_unlock_free_spare(priv, spare);
	return ret;
}
EXPORT_SYMBOL(ib_send_cm_rtu);

int ib_send_cm_dreq(struct ib_cm_id *cm_id, const void *private_data,
		    u8 private_data_len)
{
	struct cm_id_priv *priv = to_priv(cm_id);
	struct ib_mad_send_buf *spare = NULL;
	struct ib_mad_send_buf *buf;
	struct cm_ids d;
	int ret;

	if (private_data_len > IB_CM_DREQ_PRIVATE_DATA_SIZE)
		return -EINVAL;
	spare = cm_lock_with_spare(priv);
	if (cm_id->state != IB_CM_ESTABLISHED) {
		ret = -EINVAL;
		goto out;
	}
	priv->tid = cm_new_tid(priv);
	buf = cm_take_pdata(&spare, CM_ATTR_DREQ, priv->tid, private_data,
			    private_data_len);
	if (!buf) {
		ret = -ENOMEM;
		goto out;
	}
	d = cm_comm_ids(priv);
	d.remote_qpn = priv->remote_qpn;
	cm_dreq_pack(cm_msg_data(buf), &d);
	ret = cm_post_awaiting_peer(priv, buf, IB_CM_DREQ_SENT);
	if (ret)
		cm_enter_timewait(priv);
out:
	cm_unlock_free_spare(priv, spare);
	return ret;
}
EXPORT_SYMBOL(ib_send_cm_dreq);

int ib_send_cm_drep(struct ib_cm_id *cm_id, const void *private_data,
		    u8 private_data_len)
{
	struct cm_id_priv *priv = to_priv(cm_id);
	struct ib_mad_send_buf *spare = NULL;
	int ret = 0;

	if (private_data_len > IB_CM_DREP_PRIVATE_DATA_SIZE)
		return -EINVAL;
	spare = cm_lock_with_spare(priv);
	if (cm_id->state != IB_CM_DREQ_RCVD) {
		ret = -EINVAL;
		goto out;
	}
	cm_send_drep_locked(priv, &spare, private_data,
			    private_data_len);
	cm_enter_timewait(priv);
out:
	cm_unlock_free_spare(priv, spare);
	return ret;
}
EXPORT_SYMBOL(ib_send_cm_drep);

int ib_send_cm_rej(struct ib_cm_id *cm_id, enum ib_cm_rej_reason reason,
		   void *ari, u8 ari_length, const void *private_data,
		   u8 private_data_len)
{
	struct cm_id_priv *priv = to_priv(cm_id);
	struct ib_mad_send_buf *spare = NULL;
	int ret = 0;

	if (private_data_len > IB_CM_REJ_PRIVATE_DATA_SIZE ||
	    (ari && ari_length > IB_CM_REJ_ARI_LENGTH))
		return -EINVAL;
	spare = cm_lock_with_spare(priv);
	if (cm_reject_locked(priv, &spare, reason, ari, ari_length,
			     private_data, private_data_len))
		cm_id->state = IB_CM_IDLE;
	else
		ret = -EINVAL;
	cm_unlock_free_spare(priv, spare);
	if (!ret) {
		cm_remove_remote(priv);
		cm_req_answered(priv);
	}
	return ret;
}
EXPORT_SYMBOL(ib_send_cm_rej);

int ib_send_cm_mra(struct ib_cm_id *cm_id, u8 service_timeout,
		   const void *private_data, u8 private_data_len)
{
	struct cm_id_priv *priv = to_priv(cm_id);
	struct ib_mad_send_buf *spare = NULL;
	struct ib_mad_send_buf *buf;
	struct cm_mra mra = {};
	enum ib_cm_state next;
	int ret = 0;

	if (private_data_len > IB_CM_MRA_PRIVATE_DATA_SIZE)
		return -EINVAL;
	spare = cm_lock_with_spare(priv);
	switch (cm_id->state) {
	case IB_CM_REQ_RCVD:
		mra.message_mraed = CM_ANSWERS_REQ;
		next = IB_CM_MRA_REQ_SENT;
		break;
	case IB_CM_REP_RCVD:
		mra.message_mraed = CM_ANSWERS_REP;
		next = IB_CM_MRA_REP_SENT;
		break;
	default:
		ret = -EINVAL;
		goto out;
	}
	buf = cm_take_pdata(&spare, CM_ATTR_MRA, priv->tid, private_data,
			    private_data_len);
	if (!buf) {
		ret = -ENOMEM;
		goto out;
	}
	mra.local_comm_id = be32_to_cpu(cm_id->local_id);
	mra.remote_comm_id = be32_to_cpu(cm_id->remote_id);
	mra.service_timeout = service_timeout & 31;
	cm_mra_pack(cm_msg_data(buf), &mra);
	ret = cm_post_answer(priv, buf, next);
out:
	cm_unlock_free_spare(priv, spare);
	return ret;
}
EXPORT_SYMBOL(ib_send_cm_mra);

int ib_send_cm_sidr_req(struct ib_cm_id *cm_id,
			struct ib_cm_sidr_req_param *param)
{
	struct cm_id_priv *priv = to_priv(cm_id);
	struct ib_mad_send_buf *spare = NULL;
	struct ib_mad_send_buf *buf;
	struct cm_sidr_req r = {};
	int ret;

	if (!param->path ||
	    param->private_data_len > IB_CM_SIDR_REQ_PRIVATE_DATA_SIZE)
		return -EINVAL;
	if (cm_id->state != IB_CM_IDLE)
		return -EINVAL;
	ret = cm_set_av_from_path(priv, param->path);
	if (ret)
		return ret;
	spare = cm_lock_with_spare(priv);
	if (cm_id->state != IB_CM_IDLE) {
		ret = -EINVAL;
		goto out;
	}
	cm_id->service_id = param->service_id;
	cm_id->service_mask = cpu_to_be64(~0ULL);
	priv->tid = cm_new_tid(priv);
	buf = cm_take_pdata(&spare, CM_ATTR_SIDR_REQ, priv->tid,
			    param->private_data, param->private_data_len);
	if (!buf) {
		ret = -ENOMEM;
		goto out;
	}
	r.request_id = be32_to_cpu(cm_id->local_id);
	r.pkey = param->path->pkey ? param->path->pkey : 0xffff;
	r.service_id = be64_to_cpu(param->service_id);
	cm_sidr_req_pack(cm_msg_data(buf), &r);
	ret = cm_post_waiting(priv, buf, param->timeout_ms ?: 1000,
			      param->max_cm_retries, IB_CM_SIDR_REQ_SENT);
out:
	cm_unlock_free_spare(priv, spare);
	return ret;
}
EXPORT_SYMBOL(ib_send_cm_sidr_req);

int ib_send_cm_sidr_rep(struct ib_cm_id *cm_id,
			struct ib_cm_sidr_rep_param *param)
{
	struct cm_id_priv *priv = to_priv(cm_id);
	struct ib_mad_send_buf *spare = NULL;
	struct ib_mad_send_buf *buf;
	struct cm_sidr_rep r = {};
	u8 *m;
	int ret = 0;

	if (param->private_data_len > IB_CM_SIDR_REP_PRIVATE_DATA_SIZE ||
	    (param->info && param->info_length > IB_CM_SIDR_REP_INFO_LENGTH))
		return -EINVAL;
	spare = cm_lock_with_spare(priv);
	if (cm_id->state != IB_CM_SIDR_REQ_RCVD) {
		ret = -EINVAL;
		goto out;
	}
	buf = cm_take_pdata(&spare, CM_ATTR_SIDR_REP, priv->tid,
			    param->private_data, param->private_data_len);
	if (!buf) {
		ret = -ENOMEM;
		goto out;
	}
	r.request_id = be32_to_cpu(cm_id->remote_id);
	r.status = param->status;
	r.qpn = param->qp_num & 0xffffff;
	r.qkey = param->qkey;
	r.service_id = be64_to_cpu(cm_id->service_id);
	m = cm_msg_data(buf);
	if (param->info && param->info_length) {
		r.info_length = param->info_length;
		memcpy(m + CM_SIDR_REP_INFO_OFF, param->info,
		       param->info_length);
	}
	cm_sidr_rep_pack(m, &r);
	/* kept: a repeated SIDR_REQ means this one was lost */
	ret = cm_post_oneshot(priv, buf);
	cm_id->state = IB_CM_IDLE;
out:
	cm_unlock_free_spare(priv, spare);
	if (!ret)
		cm_req_answered(priv);
	return ret;
}
EXPORT_SYMBOL(ib_send_cm_sidr_rep);
