// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Received CM messages: one handler per attribute, looked up in a table.
 *
 * A handler finds the id the message is for (REQ and SIDR_REQ: the
 * listen, which spawns a new id; everything else: our local comm ID in
 * the message's remote comm ID field), checks the message fits the id's
 * state, moves the state on under the id's lock, cancels the message
 * this one answers and queues the event.  A message that fits no state
 * is a duplicate (answered again where the protocol says so, counted
 * in cm_rx_duplicates) or stale (dropped).
 *
 *   REQ       listen -> new id REQ_RCVD      | no listen: REJ invalid SID
 *             (dropped unless its primary GID is the one it came from;
 *             dropped while the listen has CM_LISTEN_MAX_UNANSWERED ids
 *             its consumer has not answered; the REJs to unknown
 *             messages, DREPs and SIDR_REPs too, at most
 *             CM_ANSWERS_PER_SEC a second per port)
 *   REP       REQ_SENT/MRA_REQ_RCVD -> REP_RCVD   | ESTABLISHED: RTU again |
 *             from a peer ID another id has: REJ stale, REP dropped
 *   RTU       REP_SENT/MRA_REP_RCVD -> ESTABLISHED
 *   MRA       REQ_SENT -> MRA_REQ_RCVD, REP_SENT -> MRA_REP_RCVD
 *   REJ       any connecting state -> IDLE
 *   DREQ      ESTABLISHED/DREQ_SENT/REP_SENT -> DREQ_RCVD | TIMEWAIT or
 *             unknown: DREP again | naming another QP of ours: dropped
 *   DREP      DREQ_SENT -> TIMEWAIT
 *   SIDR_REQ  listen -> new id SIDR_REQ_RCVD | no listen: UNSUPPORTED |
 *             repeated once answered: the same SIDR_REP again
 *   SIDR_REP  SIDR_REQ_SENT -> IDLE
 */
#include <linux/random.h>
#include <linux/slab.h>
#include "cm_priv.h"

struct cm_rx {
	struct cm_port *port;
	struct ib_mad_recv_wc *wc;
	const u8 *msg;
	u16 attr;
};

static void cm_dup(struct cm_rx *rx)
{
	cm_count(rx->port, CM_RECV_DUPLICATES, rx->attr);
}

/*
 * Whether the port may answer one more message no id owns
 * (CM_ANSWERS_PER_SEC); the answer left out is counted.
 */
static bool cm_answer_allowed(struct cm_port *port)
{
	if (__ratelimit(&port->answers))
		return true;
	cm_count_drop(port, CM_DROP_ANSWER_RATELIMITED);
	return false;
}

/*
 * Answer a message no id owns: REJ, DREP or SIDR_REP straight back to its
 * sender, at most CM_ANSWERS_PER_SEC a second.
 */
static void cm_answer_unknown(struct cm_rx *rx, u16 attr,
			      enum ib_cm_rej_reason reason, u8 answers)
{
	struct ib_mad_send_buf *buf;
	u8 *m;

	if (!cm_answer_allowed(rx->port))
		return;
	buf = cm_alloc_response(rx->port, rx->wc, attr);
	if (IS_ERR(buf))
		return;
	m = cm_msg_data(buf);
	if (attr == CM_ATTR_REJ) {
		struct cm_rej rej = {
			.local_comm_id = cm_get32(rx->msg, 4),
			.remote_comm_id = cm_get32(rx->msg, 0),
			.message_rejected = answers,
			.reason = reason,
		};

		if (rx->attr == CM_ATTR_REQ)
			rej.local_comm_id = 0;
		cm_rej_pack(m, &rej);
	} else if (attr == CM_ATTR_DREP) {
		struct cm_ids ids = {
			.local_comm_id = cm_get32(rx->msg, 4),
			.remote_comm_id = cm_get32(rx->msg, 0),
		};

		cm_ids_pack(m, &ids);
	} else {	/* SIDR_REP */
		struct cm_sidr_req q;
		struct cm_sidr_rep r = {};

		cm_sidr_req_unpack(rx->msg, &q);
		r.request_id = q.request_id;
		r.status = IB_SIDR_UNSUPPORTED;
		r.service_id = q.service_id;
		cm_sidr_rep_pack(m, &r);
	}
	cm_post(rx->port, buf);
}

/*
 * The message fits none of the id's states: let go of priv->lock, taken
 * by the caller, and of the event; @dup if it repeats one we handled.
 */
static void cm_rx_drop(struct cm_rx *rx, struct cm_id_priv *priv,
		       struct cm_event_work *ev, bool dup)
	__releases(&priv->lock)
{
	spin_unlock_irq(&priv->lock);
	if (dup)
		cm_dup(rx);
	else
		cm_count_drop(rx->port, CM_DROP_STALE);
	kfree(ev);
}

/* Hand @ev, its private data at @pdata_off, to the id's handler. */
static void cm_rx_deliver(struct cm_id_priv *priv, struct cm_event_work *ev,
			  unsigned int pdata_off)
{
	ev->event.private_data = ev->msg + pdata_off;
	cm_queue_event(priv, ev);
}

/* The id our comm ID (at @off of the message) names, referenced. */
static struct cm_id_priv *cm_rx_id(struct cm_rx *rx, unsigned int off)
{
	return cm_find_local(cpu_to_be32(cm_get32(rx->msg, off)));
}

/*
 * A new id spawned by @listen for a REQ or SIDR_REQ (@service_id, the
 * sender's @remote_id), with the @type event that will report it in
 * *@evp.  NULL if memory is short or CM_LISTEN_MAX_UNANSWERED of the
 * listener's ids wait for their consumer already (dropped and counted,
 * no answer); then the caller's reference on @listen is dropped too.
 * The id holds its slot until answered.
 */
static struct cm_id_priv *cm_spawn(struct cm_rx *rx, struct cm_id_priv *listen,
				   enum ib_cm_event_type type,
				   __be64 service_id, __be32 remote_id,
				   struct cm_event_work **evp)
{
	const struct ib_gid_attr *ref;
	struct cm_id_priv *priv;
	struct cm_event_work *ev;

	ev = cm_alloc_event(type, rx->msg);
	if (!ev)
		goto err;
	if (!cm_listen_take_slot(listen)) {
		cm_count_drop(rx->port, CM_DROP_LISTEN_FULL);
		goto err;
	}
	ref = rdma_get_gid_attr(rx->port->cm_dev->ibdev, rx->port->port_num,
				rx->wc->ah_attr.sgid_index);
	if (IS_ERR(ref))
		goto err_slot;
	priv = cm_alloc_id(listen->id.device, listen->id.cm_handler,
			   listen->id.context);
	if (IS_ERR(priv)) {
		rdma_put_gid_attr(ref);
		goto err_slot;
	}
	cm_get(listen);
	priv->unanswered_on = listen;
	priv->port = rx->port;
	priv->av = rx->wc->ah_attr;
	priv->av.port_num = rx->port->port_num;
	priv->av.sgid_attr = ref;
	priv->sgid_attr = ref;
	priv->tid = rx->wc->mad->mad_hdr.tid;
	priv->id.service_id = service_id;
	priv->id.service_mask = cpu_to_be64(~0ULL);
	priv->id.remote_id = remote_id;
	*evp = ev;
	return priv;

err_slot:
	cm_listen_put_slot(listen);
err:
	if (ev)
		cm_free_event(ev);
	cm_put(listen);
	return NULL;
}

/* Undo cm_spawn() for a duplicate found after all: nobody saw the id. */
static void cm_unspawn(struct cm_rx *rx, struct cm_id_priv *priv,
		       struct cm_id_priv *listen, struct cm_event_work *ev)
{
	cm_dup(rx);
	cm_free_event(ev);
	priv->destroyed = true;
	priv->id.state = IB_CM_IDLE;
	xa_erase(&cm.local_ids, priv->xa_index);
	cm_req_answered(priv);
	cm_put(priv);
	cm_put(listen);
}

static void cm_rx_req(struct cm_rx *rx)
{
	struct cm_id_priv *listen, *priv, *dup;
	struct cm_event_work *ev;
	struct ib_cm_req_event_param *p;
	struct cm_req req;

	cm_req_unpack(rx->msg, &req);

	dup = cm_find_remote(cpu_to_be32(req.local_comm_id),
			     req.local_ca_guid);
	if (dup) {
		struct ib_mad_send_buf *spare = cm_alloc_msg(dup);

		cm_dup(rx);
		spin_lock_irq(&dup->lock);
		if (dup->id.state == IB_CM_MRA_REQ_SENT)
			cm_resend_last(dup, &spare);
		else if (dup->id.state == IB_CM_TIMEWAIT)
			cm_send_rej_locked(dup, &spare, IB_CM_REJ_STALE_CONN,
					   NULL, 0, NULL, 0);
		spin_unlock_irq(&dup->lock);
		ib_free_send_mad(spare);
		cm_put(dup);
		return;
	}

	/*
	 * The body is the sender's to write: a REQ claiming another host's
	 * GID could name that host's QP below and have us end its live
	 * connection.  The GID the packet came from is the network's word;
	 * a REQ must speak for that GID (ours always do: the path's source
	 * GID is the one we send from).
	 */
	if (memcmp(req.primary.local_gid, rx->wc->ah_attr.dgid.raw, 16)) {
		cm_count_drop(rx->port, CM_DROP_FOREIGN_GID);
		return;
	}

	/*
	 * The peer's QP already has a connection with us: the peer lost it
	 * (a restart).  Reject the REQ as stale and end the old connection,
	 * whose consumer learns it from the DREQ exchange.
	 */
	if (req.transport == CM_TRANSPORT_RC || req.transport == CM_TRANSPORT_UC)
		dup = cm_find_remote_qpn(req.local_qpn, req.primary.local_gid);
	if (dup) {
		cm_answer_unknown(rx, CM_ATTR_REJ, IB_CM_REJ_STALE_CONN,
				  CM_ANSWERS_REQ);
		ib_send_cm_dreq(&dup->id, NULL, 0);	/* if established */
		cm_put(dup);
		return;
	}

	listen = cm_find_listen(rx->port->cm_dev->ibdev,
				cpu_to_be64(req.service_id));
	if (!listen) {
		cm_answer_unknown(rx, CM_ATTR_REJ,
				  IB_CM_REJ_INVALID_SERVICE_ID,
				  CM_ANSWERS_REQ);
		return;
	}
	if (req.transport != CM_TRANSPORT_RC &&
	    req.transport != CM_TRANSPORT_UC) {
		cm_answer_unknown(rx, CM_ATTR_REJ,
				  IB_CM_REJ_INVALID_TRANSPORT_TYPE,
				  CM_ANSWERS_REQ);
		cm_put(listen);
		return;
	}

	priv = cm_spawn(rx, listen, IB_CM_REQ_RECEIVED,
			cpu_to_be64(req.service_id),
			cpu_to_be32(req.local_comm_id), &ev);
	if (!priv)
		return;
	priv->remote_ca_guid = req.local_ca_guid;
	priv->qp_type = req.transport == CM_TRANSPORT_UC ? IB_QPT_UC :
							     IB_QPT_RC;
	priv->remote_qpn = req.local_qpn;
	priv->sq_psn = req.starting_psn;	/* see ib_send_cm_req() */
	/* ours, unless the REP names one before the QP reaches RTR */
	priv->rq_psn = get_random_u32() & 0xffffff;
	priv->initiator_depth = req.responder_resources;
	priv->responder_resources = req.initiator_depth;
	priv->retry_count = req.retry_count;
	priv->rnr_retry_count = req.rnr_retry_count;
	priv->max_cm_retries = req.max_cm_retries;
	priv->local_ack_timeout = req.primary.local_ack_timeout;
	priv->remote_cm_response_timeout = req.local_cm_response_timeout;
	priv->local_cm_response_timeout = req.remote_cm_response_timeout;
	priv->srq = req.srq;
	priv->flow_control = req.flow_control;
	/* the path as we see it: their local GID is our destination */
	memcpy(priv->path.sgid.raw, req.primary.remote_gid, 16);
	memcpy(priv->path.dgid.raw, req.primary.local_gid, 16);
	priv->path.sgid_attr = priv->sgid_attr;
	priv->path.flow_label = req.primary.flow_label;
	priv->path.hop_limit = req.primary.hop_limit;
	priv->path.traffic_class = req.primary.traffic_class;
	priv->path.sl = req.primary.sl;
	priv->path.mtu = req.path_mtu;
	priv->path.rate = req.primary.packet_rate;
	priv->path.packet_life_time = req.primary.local_ack_timeout ?
				      req.primary.local_ack_timeout - 1 : 0;
	priv->path.pkey = req.pkey;
	priv->id.state = IB_CM_REQ_RCVD;

	if (cm_insert_remote(priv)) {	/* lost a race with a duplicate */
		cm_unspawn(rx, priv, listen, ev);
		return;
	}

	ev->listen = listen;
	ev->path = priv->path;
	p = &ev->event.param.req_rcvd;
	p->listen_id = &listen->id;
	p->port = rx->port->port_num;
	p->bth_pkey = req.pkey;
	p->primary_path = &ev->path;
	p->ppath_sgid_attr = priv->sgid_attr;
	p->remote_ca_guid = cpu_to_be64(req.local_ca_guid);
	p->remote_qkey = req.local_qkey;
	p->remote_qpn = req.local_qpn;
	p->qp_type = priv->qp_type;
	p->starting_psn = req.starting_psn;
	p->responder_resources = req.responder_resources;
	p->initiator_depth = req.initiator_depth;
	p->local_cm_response_timeout = req.local_cm_response_timeout;
	p->flow_control = req.flow_control;
	p->remote_cm_response_timeout = req.remote_cm_response_timeout;
	p->retry_count = req.retry_count;
	p->rnr_retry_count = req.rnr_retry_count;
	p->srq = req.srq;
	cm_rx_deliver(priv, ev, CM_REQ_PDATA_OFF);
}

/*
 * A REP naming a peer (comm ID, CA GUID) that another of our ids already
 * talks to: either that connection is stale on the peer's side or the REP
 * is forged.  Tell the sender it is stale, and leave both our ids as they
 * are: the waiting one still expects its real REP.
 */
static bool cm_rep_collides(struct cm_rx *rx, struct cm_id_priv *priv,
			    const struct cm_rep *rep)
{
	struct cm_id_priv *other;

	other = cm_find_remote(cpu_to_be32(rep->local_comm_id),
			       rep->local_ca_guid);
	if (!other)
		return false;
	cm_put(other);
	if (other == priv)
		return false;	/* our own peer, a repeated REP */
	cm_count_drop(rx->port, CM_DROP_STALE);
	cm_answer_unknown(rx, CM_ATTR_REJ, IB_CM_REJ_STALE_CONN,
			  CM_ANSWERS_REP);
	return true;
}

static void cm_rx_rep(struct cm_rx *rx)
{
	struct cm_id_priv *priv = cm_rx_id(rx, 4);
	struct ib_mad_send_buf *spare = NULL;
	struct ib_cm_rep_event_param *p;
	struct cm_event_work *ev;
	struct cm_rep rep;

	if (!priv)
		return;
	cm_rep_unpack(rx->msg, &rep);
	if (cm_rep_collides(rx, priv, &rep))
		goto out;
	ev = cm_alloc_event(IB_CM_REP_RECEIVED, rx->msg);
	if (!ev)
		goto out;
	if (priv->id.state == IB_CM_ESTABLISHED)
		spare = cm_alloc_msg(priv);

	spin_lock_irq(&priv->lock);
	switch (priv->id.state) {
	case IB_CM_REQ_SENT:
	case IB_CM_MRA_REQ_RCVD:
		break;
	case IB_CM_ESTABLISHED:
		if (priv->id.remote_id == cpu_to_be32(rep.local_comm_id))
			cm_resend_last(priv, &spare); /* our RTU got lost */
		fallthrough;
	case IB_CM_REP_RCVD:
	case IB_CM_MRA_REP_SENT:
		cm_rx_drop(rx, priv, ev, true);
		goto out;
	default:
		cm_rx_drop(rx, priv, ev, false);
		goto out;
	}
	cm_cancel_msg_locked(priv);
	priv->id.remote_id = cpu_to_be32(rep.local_comm_id);
	priv->remote_ca_guid = rep.local_ca_guid;
	priv->remote_qpn = rep.local_qpn;
	priv->sq_psn = rep.starting_psn;	/* see ib_send_cm_req() */
	/* what they accept to answer is what we may ask, and back */
	priv->initiator_depth = rep.responder_resources;
	priv->responder_resources = rep.initiator_depth;
	priv->rnr_retry_count = rep.rnr_retry_count;
	priv->id.state = IB_CM_REP_RCVD;
	spin_unlock_irq(&priv->lock);
	/* (cm_rep_collides() has sent away all but a racing twin) */
	if (cm_insert_remote(priv))
		pr_debug("ib_cm: REP from a peer id already in use\n");

	p = &ev->event.param.rep_rcvd;
	p->remote_ca_guid = cpu_to_be64(rep.local_ca_guid);
	p->remote_qkey = rep.local_qkey;
	p->remote_qpn = rep.local_qpn;
	p->starting_psn = rep.starting_psn;
	p->responder_resources = rep.responder_resources;
	p->initiator_depth = rep.initiator_depth;
	p->target_ack_delay = rep.target_ack_delay;
	p->failover_accepted = rep.failover_accepted;
	p->flow_control = rep.flow_control;
	p->rnr_retry_count = rep.rnr_retry_count;
	p->srq = rep.srq;
	cm_rx_deliver(priv, ev, CM_REP_PDATA_OFF);
out:
	ib_free_send_mad(spare);
	cm_put(priv);
}

/* Messages that name both IDs: the id, if the peer's ID matches too. */
static struct cm_id_priv *cm_rx_pair(struct cm_rx *rx)
{
	struct cm_id_priv *priv = cm_rx_id(rx, 4);

	if (priv && priv->id.remote_id != cpu_to_be32(cm_get32(rx->msg, 0))) {
		cm_put(priv);
		return NULL;
	}
	return priv;
}

/*
 * RTU and DREP answer the message we are repeating (REP, DREQ): taken in
 * state @s1 or @s2, they end it and move the id to @next (TIMEWAIT by
 * way of its timer); in any other state they are duplicates.
 */
static void cm_rx_final(struct cm_rx *rx, enum ib_cm_event_type type,
			enum ib_cm_state s1, enum ib_cm_state s2,
			enum ib_cm_state next, unsigned int pdata_off)
{
	struct cm_id_priv *priv = cm_rx_pair(rx);
	struct cm_event_work *ev;

	if (!priv)
		return;
	ev = cm_alloc_event(type, rx->msg);
	if (!ev)
		goto out;
	spin_lock_irq(&priv->lock);
	if (priv->id.state != s1 && priv->id.state != s2) {
		cm_rx_drop(rx, priv, ev, true);
		goto out;
	}
	cm_cancel_msg_locked(priv);
	if (next == IB_CM_TIMEWAIT)
		cm_enter_timewait(priv);
	else
		priv->id.state = next;
	spin_unlock_irq(&priv->lock);
	cm_rx_deliver(priv, ev, pdata_off);
out:
	cm_put(priv);
}

static void cm_rx_rtu(struct cm_rx *rx)
{
	cm_rx_final(rx, IB_CM_RTU_RECEIVED, IB_CM_REP_SENT,
		    IB_CM_MRA_REP_RCVD, IB_CM_ESTABLISHED, CM_RTU_PDATA_OFF);
}

static void cm_rx_mra(struct cm_rx *rx)
{
	struct cm_id_priv *priv = cm_rx_id(rx, 4);
	struct cm_event_work *ev;
	struct cm_mra mra;
	u32 ms;

	if (!priv)
		return;
	cm_mra_unpack(rx->msg, &mra);
	ev = cm_alloc_event(IB_CM_MRA_RECEIVED, rx->msg);
	if (!ev)
		goto out;
	ms = cm_wait_ms(priv, mra.service_timeout);
	spin_lock_irq(&priv->lock);
	if (priv->id.state == IB_CM_REQ_SENT &&
	    mra.message_mraed == CM_ANSWERS_REQ) {
		priv->id.state = IB_CM_MRA_REQ_RCVD;
	} else if (priv->id.state == IB_CM_REP_SENT &&
		   mra.message_mraed == CM_ANSWERS_REP &&
		   priv->id.remote_id == cpu_to_be32(mra.local_comm_id)) {
		priv->id.state = IB_CM_MRA_REP_RCVD;
	} else {
		cm_rx_drop(rx, priv, ev, true);
		goto out;
	}
	if (priv->msg)
		ib_modify_mad(priv->msg, ms);
	spin_unlock_irq(&priv->lock);
	ev->event.param.mra_rcvd.service_timeout = mra.service_timeout;
	cm_rx_deliver(priv, ev, CM_MRA_PDATA_OFF);
out:
	cm_put(priv);
}

static void cm_rx_rej(struct cm_rx *rx)
{
	struct cm_id_priv *priv;
	struct cm_event_work *ev;
	struct cm_rej rej;
	bool ok = true;

	cm_rej_unpack(rx->msg, &rej);
	if (rej.reason == IB_CM_REJ_TIMEOUT && rej.ari_length >= 8)
		/* a peer that timed out may not know our ID: its GUID + ID */
		priv = cm_find_remote(cpu_to_be32(rej.local_comm_id),
				      cm_get64(rx->msg, CM_REJ_ARI_OFF));
	else
		priv = cm_rx_id(rx, 4);
	if (!priv)
		return;
	ev = cm_alloc_event(IB_CM_REJ_RECEIVED, rx->msg);
	if (!ev)
		goto out;
	spin_lock_irq(&priv->lock);
	switch (priv->id.state) {
	case IB_CM_REQ_SENT:
	case IB_CM_MRA_REQ_RCVD:
		break;	/* they never learned who we are talking to */
	case IB_CM_REQ_RCVD:
	case IB_CM_MRA_REQ_SENT:
	case IB_CM_REP_SENT:
	case IB_CM_MRA_REP_RCVD:
	case IB_CM_REP_RCVD:
	case IB_CM_MRA_REP_SENT:
	case IB_CM_ESTABLISHED:
		ok = priv->id.remote_id == cpu_to_be32(rej.local_comm_id);
		break;
	default:
		ok = false;
	}
	if (!ok) {
		cm_rx_drop(rx, priv, ev, false);
		goto out;
	}
	cm_cancel_msg_locked(priv);
	if (priv->id.state == IB_CM_ESTABLISHED)
		cm_enter_timewait(priv);
	else
		priv->id.state = IB_CM_IDLE;
	spin_unlock_irq(&priv->lock);
	cm_remove_remote(priv);
	cm_req_answered(priv);	/* (a REQ its sender gave up on) */
	ev->event.param.rej_rcvd.reason = rej.reason;
	ev->event.param.rej_rcvd.ari = ev->msg + CM_REJ_ARI_OFF;
	ev->event.param.rej_rcvd.ari_length = rej.ari_length;
	cm_rx_deliver(priv, ev, CM_REJ_PDATA_OFF);
out:
	cm_put(priv);
}

static void cm_rx_dreq(struct cm_rx *rx)
{
	struct cm_id_priv *priv = cm_rx_pair(rx);
	struct ib_mad_send_buf *spare = NULL;
	struct cm_event_work *ev;
	struct cm_ids d;

	if (!priv) {
		/* the connection is gone here: agree with the peer */
		cm_answer_unknown(rx, CM_ATTR_DREP, 0, 0);
		return;
	}
	/*
	 * The comm IDs may be guessed or seen; the peer also knows which
	 * of our QPs it is connected to.  A DREQ naming another is not
	 * from our peer.
	 */
	cm_dreq_unpack(rx->msg, &d);
	if (d.remote_qpn != READ_ONCE(priv->local_qpn)) {
		cm_count_drop(rx->port, CM_DROP_BAD_QPN);
		cm_put(priv);
		return;
	}
	ev = cm_alloc_event(IB_CM_DREQ_RECEIVED, rx->msg);
	if (!ev)
		goto out;
	if (priv->id.state == IB_CM_TIMEWAIT)
		spare = cm_alloc_msg(priv);
	spin_lock_irq(&priv->lock);
	switch (priv->id.state) {
	case IB_CM_REP_SENT:
	case IB_CM_MRA_REP_RCVD:
	case IB_CM_ESTABLISHED:
	case IB_CM_DREQ_SENT:
		cm_cancel_msg_locked(priv);
		break;
	case IB_CM_TIMEWAIT:
		priv->tid = rx->wc->mad->mad_hdr.tid;
		cm_resend_last(priv, &spare);
		fallthrough;
	case IB_CM_DREQ_RCVD:
		cm_rx_drop(rx, priv, ev, true);
		goto out;
	default:
		cm_rx_drop(rx, priv, ev, false);
		goto out;
	}
	priv->tid = rx->wc->mad->mad_hdr.tid;
	priv->id.state = IB_CM_DREQ_RCVD;
	spin_unlock_irq(&priv->lock);
	cm_rx_deliver(priv, ev, CM_DREQ_PDATA_OFF);
out:
	ib_free_send_mad(spare);
	cm_put(priv);
}

static void cm_rx_drep(struct cm_rx *rx)
{
	cm_rx_final(rx, IB_CM_DREP_RECEIVED, IB_CM_DREQ_SENT,
		    IB_CM_DREQ_RCVD, IB_CM_TIMEWAIT, CM_DREP_PDATA_OFF);
}

/*
 * SIDR_REQs carry no CA GUID: their senders are told apart by GID, folded
 * into the remote table's GUID slot (bit 0 set, so as not to be mistaken
 * for a connection's EUI-64 GUID, whose bit 0 is clear).
 */
static u64 cm_sidr_sender(const struct cm_rx *rx)
{
	const union ib_gid *g = &rx->wc->ah_attr.dgid;

	return (be64_to_cpu(g->global.subnet_prefix) ^
		be64_to_cpu(g->global.interface_id)) | 1;
}

/*
 * A SIDR_REQ we have seen: while the consumer is on it, the answer is
 * yet to come; once answered, the sender repeating itself means our
 * SIDR_REP was lost, and it gets that same answer again (one per
 * repeat, as long as the id lives: what its consumer keeps).
 */
static void cm_sidr_req_again(struct cm_rx *rx, struct cm_id_priv *priv)
{
	struct ib_mad_send_buf *spare = NULL;

	cm_dup(rx);
	if (READ_ONCE(priv->id.state) == IB_CM_IDLE)
		spare = cm_alloc_msg(priv);
	spin_lock_irq(&priv->lock);
	if (priv->id.state == IB_CM_IDLE &&
	    priv->last_attr == CM_ATTR_SIDR_REP) {
		priv->tid = rx->wc->mad->mad_hdr.tid;
		cm_resend_last(priv, &spare);
	}
	spin_unlock_irq(&priv->lock);
	ib_free_send_mad(spare);
	cm_put(priv);
}

static void cm_rx_sidr_req(struct cm_rx *rx)
{
	struct ib_cm_sidr_req_event_param *p;
	struct cm_id_priv *listen, *priv;
	struct cm_event_work *ev;
	struct cm_sidr_req q;

	cm_sidr_req_unpack(rx->msg, &q);
	priv = cm_find_remote(cpu_to_be32(q.request_id), cm_sidr_sender(rx));
	if (priv) {	/* a retransmission */
		cm_sidr_req_again(rx, priv);
		return;
	}
	listen = cm_find_listen(rx->port->cm_dev->ibdev,
				cpu_to_be64(q.service_id));
	if (!listen) {
		cm_answer_unknown(rx, CM_ATTR_SIDR_REP, 0, 0);
		return;
	}
	priv = cm_spawn(rx, listen, IB_CM_SIDR_REQ_RECEIVED,
			cpu_to_be64(q.service_id), cpu_to_be32(q.request_id),
			&ev);
	if (!priv)
		return;
	priv->remote_ca_guid = cm_sidr_sender(rx);
	priv->id.state = IB_CM_SIDR_REQ_RCVD;
	if (cm_insert_remote(priv)) {	/* lost a race with a duplicate */
		cm_unspawn(rx, priv, listen, ev);
		return;
	}
	priv->path.dgid = rx->wc->ah_attr.dgid;
	priv->path.sgid = priv->sgid_attr->gid;
	priv->path.sgid_attr = priv->sgid_attr;
	priv->path.pkey = q.pkey;

	ev->listen = listen;
	ev->ah_attr = priv->av;
	p = &ev->event.param.sidr_req_rcvd;
	p->listen_id = &listen->id;
	p->service_id = cpu_to_be64(q.service_id);
	p->sgid_attr = priv->sgid_attr;
	p->reply_ah_attr = &ev->ah_attr;
	p->bth_pkey = q.pkey;
	p->port = rx->port->port_num;
	p->pkey = q.pkey;
	cm_rx_deliver(priv, ev, CM_SIDR_REQ_PDATA_OFF);
}

static void cm_rx_sidr_rep(struct cm_rx *rx)
{
	struct cm_id_priv *priv = cm_rx_id(rx, 0);
	struct ib_cm_sidr_rep_event_param *p;
	struct cm_event_work *ev;
	struct cm_sidr_rep r;

	if (!priv)
		return;
	cm_sidr_rep_unpack(rx->msg, &r);
	ev = cm_alloc_event(IB_CM_SIDR_REP_RECEIVED, rx->msg);
	if (!ev)
		goto out;
	spin_lock_irq(&priv->lock);
	if (priv->id.state != IB_CM_SIDR_REQ_SENT) {
		cm_rx_drop(rx, priv, ev, true);
		goto out;
	}
	cm_cancel_msg_locked(priv);
	priv->id.state = IB_CM_IDLE;
	spin_unlock_irq(&priv->lock);
	p = &ev->event.param.sidr_rep_rcvd;
	p->status = r.status;
	p->qkey = r.qkey;
	p->qpn = r.qpn;
	p->info = ev->msg + CM_SIDR_REP_INFO_OFF;
	p->info_len = min_t(u8, r.info_length, CM_SIDR_REP_INFO_LEN);
	p->sgid_attr = priv->sgid_attr;
	cm_rx_deliver(priv, ev, CM_SIDR_REP_PDATA_OFF);
out:
	cm_put(priv);
}

static void (*const cm_rx_handlers[CM_NR_ATTRS])(struct cm_rx *rx) = {
	[CM_ATTR_REQ - CM_ATTR_REQ]		= cm_rx_req,
	[CM_ATTR_MRA - CM_ATTR_REQ]		= cm_rx_mra,
	[CM_ATTR_REJ - CM_ATTR_REQ]		= cm_rx_rej,
	[CM_ATTR_REP - CM_ATTR_REQ]		= cm_rx_rep,
	[CM_ATTR_RTU - CM_ATTR_REQ]		= cm_rx_rtu,
	[CM_ATTR_DREQ - CM_ATTR_REQ]		= cm_rx_dreq,
	[CM_ATTR_DREP - CM_ATTR_REQ]		= cm_rx_drep,
	[CM_ATTR_SIDR_REQ - CM_ATTR_REQ]	= cm_rx_sidr_req,
	[CM_ATTR_SIDR_REP - CM_ATTR_REQ]	= cm_rx_sidr_rep,
	/* LAP and APR (path migration) are counted and dropped */
};

void cm_recv_handler(struct ib_mad_agent *agent,
		     struct ib_mad_send_buf *send_buf,
		     struct ib_mad_recv_wc *recv_wc)
{
	struct cm_port *port = agent->context;
	const struct ib_mad_hdr *hdr = &recv_wc->mad->mad_hdr;
	struct cm_rx rx = {
		.port = port,
		.wc = recv_wc,
		.msg = recv_wc->mad->data,
		.attr = be16_to_cpu(hdr->attr_id),
	};
	int i = cm_attr_index(rx.attr);

	if (hdr->mgmt_class == CM_MGMT_CLASS &&
	    hdr->class_version == CM_CLASS_VERSION &&
	    hdr->method == CM_METHOD_SEND && i >= 0) {
		cm_count(port, CM_RECV, rx.attr);
		if (cm_rx_handlers[i])
			cm_rx_handlers[i](&rx);
	} else {
		/* (the MAD layer delivers only class 7 v2 SENDs to us) */
		cm_count_drop(port, CM_DROP_BAD_ATTR);
	}
	ib_free_recv_mad(recv_wc);
}

/*
 * A waiting message ended: answered, cancelled, or failed (retries used
 * up, or flushed by a QP1 in error); a failure is the id's error event.
 */
void cm_send_handler(struct ib_mad_agent *agent,
		     struct ib_mad_send_wc *send_wc)
{
	struct ib_mad_send_buf *buf = send_wc->send_buf;
	struct cm_id_priv *priv = buf->context[0];
	struct ib_mad_send_buf *spare = NULL;
	struct cm_event_work *ev = NULL;
	enum ib_cm_event_type type;
	bool cancelled;

	/* ports/N/cm_tx_retries/<msg>: the retransmissions the MAD layer made */
	cm_count_n(agent->context, CM_XMIT_RETRIES,
		   be16_to_cpu(((struct ib_mad_hdr *)buf->mad)->attr_id),
		   buf->retried);
	if (!priv) {
		ib_free_send_mad(buf);
		return;
	}
	/* (a cancel flushes too: most of these are freed unused) */
	if (send_wc->status != IB_WC_SUCCESS) {
		ev = cm_alloc_event(IB_CM_REQ_ERROR, NULL);
		spare = cm_alloc_msg(priv);
	}

	spin_lock_irq(&priv->lock);
	if (priv->msg != buf) {
		spin_unlock_irq(&priv->lock);
		goto drop;
	}
	priv->msg = NULL;
	cancelled = priv->msg_cancelled;
	priv->msg_cancelled = false;
	if (!ev || (cancelled && send_wc->status == IB_WC_WR_FLUSH_ERR)) {
		spin_unlock_irq(&priv->lock);
		goto drop;
	}
	switch (priv->id.state) {
	case IB_CM_REQ_SENT:
	case IB_CM_MRA_REQ_RCVD:
		type = IB_CM_REQ_ERROR;
		priv->id.state = IB_CM_IDLE;
		break;
	case IB_CM_REP_SENT:
	case IB_CM_MRA_REP_RCVD:
		type = IB_CM_REP_ERROR;
		cm_send_rej_locked(priv, &spare, IB_CM_REJ_TIMEOUT, NULL, 0,
				   NULL, 0);
		priv->id.state = IB_CM_IDLE;
		break;
	case IB_CM_DREQ_SENT:
		type = IB_CM_DREQ_ERROR;
		cm_enter_timewait(priv);
		break;
	case IB_CM_SIDR_REQ_SENT:
		type = IB_CM_SIDR_REQ_ERROR;
		priv->id.state = IB_CM_IDLE;
		break;
	default:
		spin_unlock_irq(&priv->lock);
		goto drop;
	}
	spin_unlock_irq(&priv->lock);
	if (type == IB_CM_REP_ERROR)
		cm_remove_remote(priv);
	ev->event.event = type;
	ev->event.param.send_status = send_wc->status;
	cm_queue_event(priv, ev);
	ev = NULL;
drop:
	kfree(ev);
	ib_free_send_mad(spare);
	cm_put(priv);
	ib_free_send_mad(buf);
}
