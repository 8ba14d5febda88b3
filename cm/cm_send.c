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

/* A buffer toward the id's peer, or NULL; may sleep. */
struct ib_mad_send_buf *cm_alloc_msg(struct cm_id_priv *priv)
{
	struct ib_mad_send_buf *buf;

	if (!priv->port || !priv->port->agent)
		return NULL;
	buf = ib_create_send_mad(priv->port->agent, 1, 0, &priv->av,
				 GFP_KERNEL);
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

	buf = ib_create_send_mad(port->agent, recv_wc->wc->src_qp,
				 recv_wc->wc->pkey_index, &recv_wc->ah_attr,
				 GFP_KERNEL);
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

/* Post @buf as the id's waiting message: answered, cancelled or failed. */
static int cm_post_waiting(struct cm_id_priv *priv, struct ib_mad_send_buf *buf,
			   u32 timeout_ms, u8 retries)
{
	buf->timeout_ms = timeout_ms;
	buf->retries = retries;
	buf->context[0] = priv;
	cm_get(priv);
	priv->msg = buf;
	if (cm_post(priv->port, buf)) {
		priv->msg = NULL;
		return -EIO;
	}
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
	if (priv->msg)
		ib_cancel_mad(priv->msg);
	/* the send handler clears priv->msg when the cancel completes */
}

static u8 cm_pdata_copy(u8 *dst, unsigned int max, const void *src,
			u8 len)
{
	if (src && len)
		memcpy(dst, src, min_t(unsigned int, len, max));
	return len;
}

/* How long until an answer is due: the peer's time plus a round trip. */
static u32 cm_wait_ms(struct cm_id_priv *priv, u8 peer_timeout)
{
	return 2 * cm_timeout_ms(priv->path.packet_life_time) +
	       cm_timeout_ms(peer_timeout);
}

void cm_send_rej_locked(struct cm_id_priv *priv,
			struct ib_mad_send_buf **spare,
			enum ib_cm_rej_reason reason, const void *ari,
			u8 ari_len, const void *pdata, u8 pdata_len)
{
	struct ib_mad_send_buf *buf;
	struct cm_rej rej = {
		.local_comm_id = be32_to_cpu(priv->id.local_id),
		.remote_comm_id = be32_to_cpu(priv->id.remote_id),
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
	buf = cm_take(spare, CM_ATTR_REJ, priv->tid);
	if (!buf)
		return;
	m = cm_msg_data(buf);
	if (ari && ari_len) {
		rej.ari_length = min_t(u8, ari_len, CM_REJ_ARI_LEN);
		memcpy(m + CM_REJ_ARI_OFF, ari, rej.ari_length);
	}
	cm_rej_pack(m, &rej);
	cm_pdata_copy(m + CM_REJ_PDATA_OFF, CM_REJ_PDATA_LEN, pdata,
		      pdata_len);
	cm_post_oneshot(priv, buf);
}

void cm_send_dreq_oneshot(struct cm_id_priv *priv,
			  struct ib_mad_send_buf **spare)
{
	struct ib_mad_send_buf *buf;
	struct cm_ids d = {
		.local_comm_id = be32_to_cpu(priv->id.local_id),
		.remote_comm_id = be32_to_cpu(priv->id.remote_id),
		.remote_qpn = priv->remote_qpn,
	};

	buf = cm_take(spare, CM_ATTR_DREQ,
		      cpu_to_be64((u64)priv->port->agent->hi_tid << 32 |
				  be32_to_cpu(priv->id.local_id)));
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
	struct cm_ids d = {
		.local_comm_id = be32_to_cpu(priv->id.local_id),
		.remote_comm_id = be32_to_cpu(priv->id.remote_id),
	};
	u8 *m;

	buf = cm_take(spare, CM_ATTR_DREP, priv->tid);
	if (!buf)
		return;
	m = cm_msg_data(buf);
	cm_ids_pack(m, &d);
	cm_pdata_copy(m + CM_DREP_PDATA_OFF, CM_DREP_PDATA_LEN, pdata,
		      pdata_len);
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

static __be64 cm_new_tid(struct cm_id_priv *priv)
{
	return cpu_to_be64((u64)priv->port->agent->hi_tid << 32 |
			   be32_to_cpu(priv->id.local_id));
}

int ib_send_cm_req(struct ib_cm_id *cm_id, struct ib_cm_req_param *param)
{
	struct cm_id_priv *priv = to_priv(cm_id);
	struct ib_mad_send_buf *spare = NULL;
	struct ib_cm_path *p = param->primary_path;
	struct ib_mad_send_buf *buf;
	struct cm_req req = {};
	u8 *m;
	int ret;

	if (!p || param->private_data_len > IB_CM_REQ_PRIVATE_DATA_SIZE ||
	    (param->qp_type != IB_QPT_RC && param->qp_type != IB_QPT_UC))
		return -EINVAL;
	if (cm_id->state != IB_CM_IDLE)
		return -EINVAL;
	ret = cm_set_av_from_path(priv, p);
	if (ret)
		return ret;

	spare = cm_alloc_msg(priv);
	spin_lock_irq(&priv->lock);
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

	buf = cm_take(&spare, CM_ATTR_REQ, priv->tid);
	if (!buf) {
		ret = -ENOMEM;
		goto out;
	}
	m = cm_msg_data(buf);
	cm_req_pack(m, &req);
	cm_pdata_copy(m + CM_REQ_PDATA_OFF, CM_REQ_PDATA_LEN,
		      param->private_data, param->private_data_len);
	ret = cm_post_waiting(priv, buf,
			      cm_wait_ms(priv,
					 param->remote_cm_response_timeout),
			      priv->max_cm_retries);
	if (!ret)
		cm_id->state = IB_CM_REQ_SENT;
out:
	spin_unlock_irq(&priv->lock);
	ib_free_send_mad(spare);
	return ret;
}
EXPORT_SYMBOL(ib_send_cm_req);

int ib_send_cm_rep(struct ib_cm_id *cm_id, struct ib_cm_rep_param *param)
{
	struct cm_id_priv *priv = to_priv(cm_id);
	struct ib_mad_send_buf *spare = NULL;
	struct ib_mad_send_buf *buf;
	struct cm_rep rep = {};
	u8 *m;
	int ret;

	if (param->private_data_len > IB_CM_REP_PRIVATE_DATA_SIZE)
		return -EINVAL;
	spare = cm_alloc_msg(priv);
	spin_lock_irq(&priv->lock);
	if (cm_id->state != IB_CM_REQ_RCVD &&
	    cm_id->state != IB_CM_MRA_REQ_SENT) {
		ret = -EINVAL;
		goto out;
	}
	priv->local_qpn = param->qp_num & 0xffffff;
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

	buf = cm_take(&spare, CM_ATTR_REP, priv->tid);
	if (!buf) {
		ret = -ENOMEM;
		goto out;
	}
	m = cm_msg_data(buf);
	cm_rep_pack(m, &rep);
	cm_pdata_copy(m + CM_REP_PDATA_OFF, CM_REP_PDATA_LEN,
		      param->private_data, param->private_data_len);
	ret = cm_post_waiting(priv, buf,
			      cm_wait_ms(priv,
					 priv->remote_cm_response_timeout),
			      priv->max_cm_retries);
	if (!ret)
		cm_id->state = IB_CM_REP_SENT;
out:
	spin_unlock_irq(&priv->lock);
	ib_free_send_mad(spare);
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
	u8 *m;
	int ret = 0;

	if (private_data_len > IB_CM_RTU_PRIVATE_DATA_SIZE)
		return -EINVAL;
	spare = cm_alloc_msg(priv);
	spin_lock_irq(&priv->lock);
	if (cm_id->state != IB_CM_REP_RCVD &&
	    cm_id->state != IB_CM_MRA_REP_SENT) {
		ret = -EINVAL;
		goto out;
	}
	buf = cm_take(&spare, CM_ATTR_RTU, priv->tid);
	if (!buf) {
		ret = -ENOMEM;
		goto out;
	}
	ids.local_comm_id = be32_to_cpu(cm_id->local_id);
	ids.remote_comm_id = be32_to_cpu(cm_id->remote_id);
	m = cm_msg_data(buf);
	cm_ids_pack(m, &ids);
	cm_pdata_copy(m + CM_RTU_PDATA_OFF, CM_RTU_PDATA_LEN, private_data,
		      private_data_len);
	ret = cm_post_oneshot(priv, buf);
	if (!ret)
		cm_id->state = IB_CM_ESTABLISHED;
out:
	spin_unlock_irq(&priv->lock);
	ib_free_send_mad(spare);
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
	u8 *m;
	int ret;

	if (private_data_len > IB_CM_DREQ_PRIVATE_DATA_SIZE)
		return -EINVAL;
	spare = cm_alloc_msg(priv);
	spin_lock_irq(&priv->lock);
	if (cm_id->state != IB_CM_ESTABLISHED) {
		ret = -EINVAL;
		goto out;
	}
	priv->tid = cm_new_tid(priv);
	buf = cm_take(&spare, CM_ATTR_DREQ, priv->tid);
	if (!buf) {
		ret = -ENOMEM;
		goto out;
	}
	d.local_comm_id = be32_to_cpu(cm_id->local_id);
	d.remote_comm_id = be32_to_cpu(cm_id->remote_id);
	d.remote_qpn = priv->remote_qpn;
	m = cm_msg_data(buf);
	cm_dreq_pack(m, &d);
	cm_pdata_copy(m + CM_DREQ_PDATA_OFF, CM_DREQ_PDATA_LEN, private_data,
		      private_data_len);
	ret = cm_post_waiting(priv, buf,
			      cm_wait_ms(priv,
					 priv->remote_cm_response_timeout),
			      priv->max_cm_retries);
	if (!ret)
		cm_id->state = IB_CM_DREQ_SENT;
	else
		cm_enter_timewait(priv);
out:
	spin_unlock_irq(&priv->lock);
	ib_free_send_mad(spare);
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
	spare = cm_alloc_msg(priv);
	spin_lock_irq(&priv->lock);
	if (cm_id->state != IB_CM_DREQ_RCVD) {
		ret = -EINVAL;
		goto out;
	}
	cm_send_drep_locked(priv, &spare, private_data,
			    private_data_len);
	cm_enter_timewait(priv);
out:
	spin_unlock_irq(&priv->lock);
	ib_free_send_mad(spare);
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
	spare = cm_alloc_msg(priv);
	spin_lock_irq(&priv->lock);
	switch (cm_id->state) {
	case IB_CM_REQ_SENT:
	case IB_CM_MRA_REQ_RCVD:
	case IB_CM_REQ_RCVD:
	case IB_CM_MRA_REQ_SENT:
	case IB_CM_REP_RCVD:
	case IB_CM_MRA_REP_SENT:
	case IB_CM_REP_SENT:
	case IB_CM_MRA_REP_RCVD:
		cm_cancel_msg_locked(priv);
		cm_send_rej_locked(priv, &spare, reason, ari, ari_length,
				   private_data, private_data_len);
		cm_id->state = IB_CM_IDLE;
		break;
	default:
		ret = -EINVAL;
	}
	spin_unlock_irq(&priv->lock);
	ib_free_send_mad(spare);
	if (!ret)
		cm_remove_remote(priv);
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
	u8 *m;
	int ret = 0;

	if (private_data_len > IB_CM_MRA_PRIVATE_DATA_SIZE)
		return -EINVAL;
	spare = cm_alloc_msg(priv);
	spin_lock_irq(&priv->lock);
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
	buf = cm_take(&spare, CM_ATTR_MRA, priv->tid);
	if (!buf) {
		ret = -ENOMEM;
		goto out;
	}
	mra.local_comm_id = be32_to_cpu(cm_id->local_id);
	mra.remote_comm_id = be32_to_cpu(cm_id->remote_id);
	mra.service_timeout = service_timeout & 31;
	m = cm_msg_data(buf);
	cm_mra_pack(m, &mra);
	cm_pdata_copy(m + CM_MRA_PDATA_OFF, CM_MRA_PDATA_LEN, private_data,
		      private_data_len);
	ret = cm_post_oneshot(priv, buf);
	if (!ret)
		cm_id->state = next;
out:
	spin_unlock_irq(&priv->lock);
	ib_free_send_mad(spare);
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
	u8 *m;
	int ret;

	if (!param->path ||
	    param->private_data_len > IB_CM_SIDR_REQ_PRIVATE_DATA_SIZE)
		return -EINVAL;
	if (cm_id->state != IB_CM_IDLE)
		return -EINVAL;
	ret = cm_set_av_from_path(priv, param->path);
	if (ret)
		return ret;
	spare = cm_alloc_msg(priv);
	spin_lock_irq(&priv->lock);
	if (cm_id->state != IB_CM_IDLE) {
		ret = -EINVAL;
		goto out;
	}
	cm_id->service_id = param->service_id;
	cm_id->service_mask = cpu_to_be64(~0ULL);
	priv->tid = cm_new_tid(priv);
	buf = cm_take(&spare, CM_ATTR_SIDR_REQ, priv->tid);
	if (!buf) {
		ret = -ENOMEM;
		goto out;
	}
	r.request_id = be32_to_cpu(cm_id->local_id);
	r.pkey = param->path->pkey ? param->path->pkey : 0xffff;
	r.service_id = be64_to_cpu(param->service_id);
	m = cm_msg_data(buf);
	cm_sidr_req_pack(m, &r);
	cm_pdata_copy(m + CM_SIDR_REQ_PDATA_OFF, CM_SIDR_REQ_PDATA_LEN,
		      param->private_data, param->private_data_len);
	ret = cm_post_waiting(priv, buf, param->timeout_ms ?: 1000,
			      param->max_cm_retries);
	if (!ret)
		cm_id->state = IB_CM_SIDR_REQ_SENT;
out:
	spin_unlock_irq(&priv->lock);
	ib_free_send_mad(spare);
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
	spare = cm_alloc_msg(priv);
	spin_lock_irq(&priv->lock);
	if (cm_id->state != IB_CM_SIDR_REQ_RCVD) {
		ret = -EINVAL;
		goto out;
	}
	buf = cm_take(&spare, CM_ATTR_SIDR_REP, priv->tid);
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
	cm_pdata_copy(m + CM_SIDR_REP_PDATA_OFF, CM_SIDR_REP_PDATA_LEN,
		      param->private_data, param->private_data_len);
	ret = cm_post(priv->port, buf);
	cm_id->state = IB_CM_IDLE;
out:
	spin_unlock_irq(&priv->lock);
	ib_free_send_mad(spare);
	return ret;
}
EXPORT_SYMBOL(ib_send_cm_sidr_rep);
