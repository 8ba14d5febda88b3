// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * cm_ids: their tables, lifetime and event delivery, the timewait state
 * and the QP attributes a connection implies.
 *
 * Tables: local IDs in an xarray (the wire's local comm ID is the index
 * XORed with a random word, so IDs are not guessable and not reused
 * soon), listens in a list matched by (device, service ID & mask), and
 * the peers' (remote comm ID, CA GUID) in a hash so that a repeated REQ
 * finds the id it already made.
 *
 * Events: the MAD handlers change an id's state under its lock and queue
 * an event; the id's work item hands events to the handler one at a
 * time.  A handler that returns non-zero has the id destroyed right
 * there, after it returns.
 */
#include <linux/module.h>
#include <linux/random.h>
#include <linux/slab.h>
#include "cm_priv.h"

void cm_get(struct cm_id_priv *priv)
{
	refcount_inc(&priv->refcount);
}

void cm_put(struct cm_id_priv *priv)
{
	if (!refcount_dec_and_test(&priv->refcount))
		return;
	if (priv->sgid_attr)
		rdma_put_gid_attr(priv->sgid_attr);
	kfree(priv);
}

static void cm_event_work_fn(struct work_struct *work);
static void cm_timewait_fn(struct work_struct *work);

struct cm_id_priv *cm_alloc_id(struct ib_device *device,
			       ib_cm_handler handler, void *context)
{
	struct cm_id_priv *priv;
	u32 index;
	int ret;

	priv = kzalloc(sizeof(*priv), GFP_KERNEL);
	if (!priv)
		return ERR_PTR(-ENOMEM);
	priv->id.device = device;
	priv->id.cm_handler = handler;
	priv->id.context = context;
	priv->id.state = IB_CM_IDLE;
	priv->id.remote_cm_qpn = 1;
	spin_lock_init(&priv->lock);
	refcount_set(&priv->refcount, 1);
	INIT_LIST_HEAD(&priv->listen_entry);
	INIT_HLIST_NODE(&priv->remote_entry);
	INIT_LIST_HEAD(&priv->events);
	INIT_WORK(&priv->event_work, cm_event_work_fn);
	INIT_DELAYED_WORK(&priv->timewait_work, cm_timewait_fn);

	ret = xa_alloc_cyclic(&cm.local_ids, &index, priv, xa_limit_31b,
			      &cm.local_id_next, GFP_KERNEL);
	if (ret < 0) {
		kfree(priv);
		return ERR_PTR(ret);
	}
	priv->xa_index = index;
	priv->id.local_id = cpu_to_be32(index ^ cm.random_xor);
	return priv;
}

/* Referenced, or NULL. */
struct cm_id_priv *cm_find_local(__be32 local_id)
{
	struct cm_id_priv *priv;
	u32 index = be32_to_cpu(local_id) ^ cm.random_xor;

	xa_lock(&cm.local_ids);
	priv = xa_load(&cm.local_ids, index);
	if (priv && priv->id.local_id == local_id &&
	    refcount_inc_not_zero(&priv->refcount)) {
		xa_unlock(&cm.local_ids);
		return priv;
	}
	xa_unlock(&cm.local_ids);
	return NULL;
}

static bool cm_sid_match(const struct cm_id_priv *l, __be64 sid)
{
	return !((l->id.service_id ^ sid) & l->id.service_mask);
}

/* The listen for @sid on @device, referenced, or NULL. */
struct cm_id_priv *cm_find_listen(struct ib_device *device, __be64 sid)
{
	struct cm_id_priv *l, *found = NULL;

	spin_lock(&cm.lock);
	list_for_each_entry(l, &cm.listens, listen_entry) {
		if (l->id.device == device && cm_sid_match(l, sid)) {
			found = l;
			cm_get(found);
			break;
		}
	}
	spin_unlock(&cm.lock);
	return found;
}

static u32 cm_remote_hash(__be32 remote_id, u64 guid)
{
	return be32_to_cpu(remote_id) ^ (u32)guid ^ (u32)(guid >> 32);
}

static struct cm_id_priv *cm_lookup_remote(__be32 remote_id, u64 guid)
{
	struct cm_id_priv *p;

	hash_for_each_possible(cm.remote_ids, p, remote_entry,
			       cm_remote_hash(remote_id, guid))
		if (p->id.remote_id == remote_id && p->remote_ca_guid == guid)
			return p;
	return NULL;
}

struct cm_id_priv *cm_find_remote(__be32 remote_id, u64 remote_ca_guid)
{
	struct cm_id_priv *p;

	spin_lock(&cm.lock);
	p = cm_lookup_remote(remote_id, remote_ca_guid);
	if (p)
		cm_get(p);
	spin_unlock(&cm.lock);
	return p;
}

/*
 * The peer's QP of a connection (or one in timewait): a REQ from the same
 * QP under another communication ID means the peer lost that connection
 * (IBTA 12.4: stale connection).
 */
static struct cm_id_priv *cm_lookup_remote_qpn(u32 qpn, const u8 *gid)
{
	struct cm_id_priv *p;

	hash_for_each_possible(cm.remote_qpns, p, qpn_entry, qpn)
		if (p->remote_qpn == qpn && !memcmp(p->path.dgid.raw, gid, 16))
			return p;
	return NULL;
}

struct cm_id_priv *cm_find_remote_qpn(u32 remote_qpn, const u8 *gid)
{
	struct cm_id_priv *p;

	spin_lock(&cm.lock);
	p = cm_lookup_remote_qpn(remote_qpn, gid);
	if (p)
		cm_get(p);
	spin_unlock(&cm.lock);
	return p;
}

/*
 * -EEXIST when the peer's ID is taken (a duplicate); RC/UC ids also
 * enter the peer-QP table unless another id has that QP already.
 */
int cm_insert_remote(struct cm_id_priv *priv)
{
	bool connected = priv->qp_type == IB_QPT_RC ||
			 priv->qp_type == IB_QPT_UC;
	int ret = 0;

	spin_lock(&cm.lock);
	if (cm_lookup_remote(priv->id.remote_id, priv->remote_ca_guid)) {
		ret = -EEXIST;
	} else if (!priv->in_remote_table) {
		hash_add(cm.remote_ids, &priv->remote_entry,
			 cm_remote_hash(priv->id.remote_id,
					priv->remote_ca_guid));
		priv->in_remote_table = true;
	}
	if (!ret && connected && !priv->in_qpn_table &&
	    !cm_lookup_remote_qpn(priv->remote_qpn, priv->path.dgid.raw)) {
		hash_add(cm.remote_qpns, &priv->qpn_entry, priv->remote_qpn);
		priv->in_qpn_table = true;
	}
	spin_unlock(&cm.lock);
	return ret;
}

void cm_remove_remote(struct cm_id_priv *priv)
{
	spin_lock(&cm.lock);
	if (priv->in_remote_table) {
		hash_del(&priv->remote_entry);
		priv->in_remote_table = false;
	}
	if (priv->in_qpn_table) {
		hash_del(&priv->qpn_entry);
		priv->in_qpn_table = false;
	}
	spin_unlock(&cm.lock);
}

struct cm_port *cm_get_port(struct ib_device *ibdev, u32 port_num)
{
	struct cm_device *cm_dev;
	struct cm_port *port = NULL;

	mutex_lock(&cm.devices_lock);
	list_for_each_entry(cm_dev, &cm.devices, list)
		if (cm_dev->ibdev == ibdev && rdma_is_port_valid(ibdev,
								 port_num)) {
			port = cm_dev->ports[port_num - 1];
			break;
		}
	mutex_unlock(&cm.devices_lock);
	return port;
}

void ib_cm_path_to_ah_attr(const struct ib_cm_path *path, u32 port_num,
			   struct ib_ah_attr *ah)
{
	memset(ah, 0, sizeof(*ah));
	ah->dgid = path->dgid;
	ah->flow_label = path->flow_label;
	ah->sgid_index = path->sgid_attr ? path->sgid_attr->index : 0;
	ah->hop_limit = path->hop_limit;
	ah->traffic_class = path->traffic_class;
	ah->sl = path->sl;
	ah->static_rate = path->rate;
	ah->is_global = 1;
	ah->port_num = port_num;
	ah->sgid_attr = path->sgid_attr;
}
EXPORT_SYMBOL(ib_cm_path_to_ah_attr);

/* The address vector toward the peer, and our GID entry, from @path. */
int cm_set_av_from_path(struct cm_id_priv *priv, struct ib_cm_path *path)
{
	const struct ib_gid_attr *sattr = path->sgid_attr;
	const struct ib_gid_attr *ref;
	struct cm_port *port;

	if (!sattr || sattr->device != priv->id.device)
		return -EINVAL;
	port = cm_get_port(priv->id.device, sattr->port_num);
	if (!port || !READ_ONCE(port->agent))
		return -ENODEV;
	ref = rdma_get_gid_attr(priv->id.device, sattr->port_num,
				sattr->index);
	if (IS_ERR(ref))
		return PTR_ERR(ref);
	if (priv->sgid_attr)
		rdma_put_gid_attr(priv->sgid_attr);
	priv->sgid_attr = ref;
	priv->port = port;
	priv->path = *path;
	priv->path.sgid_attr = ref;
	ib_cm_path_to_ah_attr(&priv->path, sattr->port_num, &priv->av);
	return 0;
}

/* ------------------------------------------------------------------ */
/* Listens: the bound on unanswered requests                           */
/* ------------------------------------------------------------------ */

bool cm_listen_take_slot(struct cm_id_priv *listen)
{
	/* only ever raised here, one at a time: it never passes the bound */
	return atomic_add_unless(&listen->unanswered, 1,
				 CM_LISTEN_MAX_UNANSWERED);
}

void cm_listen_put_slot(struct cm_id_priv *listen)
{
	atomic_dec(&listen->unanswered);
}

/* Idempotent: called from every way an id leaves REQ_RCVD and the like. */
void cm_req_answered(struct cm_id_priv *priv)
{
	struct cm_id_priv *listen = xchg(&priv->unanswered_on, NULL);

	if (!listen)
		return;
	cm_listen_put_slot(listen);
	cm_put(listen);
}

/* ------------------------------------------------------------------ */
/* Events                                                              */
/* ------------------------------------------------------------------ */

struct cm_event_work *cm_alloc_event(enum ib_cm_event_type type,
				     const u8 *msg)
{
	struct cm_event_work *ev = kzalloc(sizeof(*ev), GFP_KERNEL);

	if (!ev)
		return NULL;
	ev->event.event = type;
	if (msg)
		memcpy(ev->msg, msg, CM_MSG_SIZE);
	return ev;
}

void cm_free_event(struct cm_event_work *ev)
{
	if (ev->listen)
		cm_put(ev->listen);
	kfree(ev);
}

/* Takes @ev; drops it if the id is being destroyed. */
void cm_queue_event(struct cm_id_priv *priv, struct cm_event_work *ev)
{
	unsigned long flags;

	spin_lock_irqsave(&priv->lock, flags);
	if (priv->destroyed) {
		spin_unlock_irqrestore(&priv->lock, flags);
		cm_free_event(ev);
		return;
	}
	list_add_tail(&ev->list, &priv->events);
	cm_get(priv);
	if (!queue_work(cm.wq, &priv->event_work))
		refcount_dec(&priv->refcount);	/* already pending */
	spin_unlock_irqrestore(&priv->lock, flags);
}

static void cm_destroy(struct cm_id_priv *priv, bool from_handler);

static void cm_event_work_fn(struct work_struct *work)
{
	struct cm_id_priv *priv = container_of(work, struct cm_id_priv,
					       event_work);
	struct cm_event_work *ev;
	unsigned long flags;
	int ret;

	for (;;) {
		spin_lock_irqsave(&priv->lock, flags);
		ev = list_first_entry_or_null(&priv->events,
					      struct cm_event_work, list);
		if (ev)
			list_del(&ev->list);
		if (priv->destroyed && ev) {
			spin_unlock_irqrestore(&priv->lock, flags);
			cm_free_event(ev);
			continue;
		}
		spin_unlock_irqrestore(&priv->lock, flags);
		if (!ev)
			break;
		ret = priv->id.cm_handler(&priv->id, &ev->event);
		cm_free_event(ev);
		if (ret) {
			cm_destroy(priv, true);
			break;
		}
	}
	cm_put(priv);
}

/* Under priv->lock. */
void cm_enter_timewait(struct cm_id_priv *priv)
{
	unsigned long ms;

	priv->id.state = IB_CM_TIMEWAIT;
	if (priv->destroyed || priv->timewait_pending)
		return;
	ms = cm_wait_ms(priv, priv->local_ack_timeout);
	priv->timewait_pending = true;
	cm_get(priv);
	queue_delayed_work(cm.wq, &priv->timewait_work,
			   msecs_to_jiffies(ms));
}

static void cm_timewait_fn(struct work_struct *work)
{
	struct cm_id_priv *priv = container_of(to_delayed_work(work),
					       struct cm_id_priv,
					       timewait_work);
	struct cm_event_work *ev = cm_alloc_event(IB_CM_TIMEWAIT_EXIT, NULL);
	bool exit = false;

	spin_lock_irq(&priv->lock);
	priv->timewait_pending = false;
	if (priv->id.state == IB_CM_TIMEWAIT) {
		priv->id.state = IB_CM_IDLE;
		exit = true;
	}
	spin_unlock_irq(&priv->lock);
	if (exit) {
		cm_remove_remote(priv);
		if (ev)
			cm_queue_event(priv, ev);
	} else {
		kfree(ev);
	}
	cm_put(priv);
}

/* ------------------------------------------------------------------ */
/* The cm_id API                                                       */
/* ------------------------------------------------------------------ */

struct ib_cm_id *ib_create_cm_id(struct ib_device *device,
				 ib_cm_handler cm_handler, void *context)
{
	struct cm_id_priv *priv;

	if (!device || !cm_handler)
		return ERR_PTR(-EINVAL);
	priv = cm_alloc_id(device, cm_handler, context);
	if (IS_ERR(priv))
		return ERR_CAST(priv);
	return &priv->id;
}
EXPORT_SYMBOL(ib_create_cm_id);

/* Tell the peer we are going, as the state requires.  Under priv->lock. */
static void cm_farewell_locked(struct cm_id_priv *priv,
			       struct ib_mad_send_buf **spare)
{
	/* unanswered, the peer finds us only by what a timeout REJ carries */
	bool unanswered = priv->id.state == IB_CM_REQ_SENT ||
			  priv->id.state == IB_CM_MRA_REQ_RCVD;

	switch (priv->id.state) {
	case IB_CM_ESTABLISHED:
		cm_send_dreq_oneshot(priv, spare);
		break;
	case IB_CM_DREQ_RCVD:
		cm_send_drep_locked(priv, spare, NULL, 0);
		break;
	case IB_CM_SIDR_REQ_RCVD:
		cm_send_sidr_status(priv, spare, IB_SIDR_REJECT);
		break;
	default:
		/* a handshake is rejected; anything else stops repeating */
		if (!cm_reject_locked(priv, spare,
				      unanswered ? IB_CM_REJ_TIMEOUT :
						   IB_CM_REJ_CONSUMER_DEFINED,
				      NULL, 0, NULL, 0))
			cm_cancel_msg_locked(priv);
	}
	priv->id.state = IB_CM_IDLE;
}

static void cm_destroy(struct cm_id_priv *priv, bool from_handler)
{
	struct ib_mad_send_buf *spare = cm_alloc_msg(priv);
	struct cm_event_work *ev, *tmp;
	LIST_HEAD(dropped);

	spin_lock(&cm.lock);
	if (priv->listening) {
		list_del_init(&priv->listen_entry);
		priv->listening = false;
	}
	spin_unlock(&cm.lock);

	spin_lock_irq(&priv->lock);
	priv->destroyed = true;
	cm_farewell_locked(priv, &spare);
	list_splice_init(&priv->events, &dropped);
	spin_unlock_irq(&priv->lock);
	ib_free_send_mad(spare);
	cm_req_answered(priv);

	cm_remove_remote(priv);
	xa_erase(&cm.local_ids, priv->xa_index);

	list_for_each_entry_safe(ev, tmp, &dropped, list)
		cm_free_event(ev);
	if (cancel_delayed_work_sync(&priv->timewait_work))
		cm_put(priv);
	if (!from_handler && cancel_work_sync(&priv->event_work))
		cm_put(priv);
	cm_put(priv);	/* the creator's */
}

void ib_destroy_cm_id(struct ib_cm_id *cm_id)
{
	cm_destroy(to_priv(cm_id), false);
}
EXPORT_SYMBOL(ib_destroy_cm_id);

int ib_cm_listen(struct ib_cm_id *cm_id, __be64 service_id)
{
	struct cm_id_priv *priv = to_priv(cm_id), *l;
	int ret = 0;

	spin_lock(&cm.lock);
	if (cm_id->state != IB_CM_IDLE || priv->listening) {
		ret = -EINVAL;
		goto out;
	}
	list_for_each_entry(l, &cm.listens, listen_entry) {
		if (l->id.device == cm_id->device &&
		    l->id.service_id == service_id) {
			ret = -EBUSY;
			goto out;
		}
	}
	cm_id->service_id = service_id;
	cm_id->service_mask = cpu_to_be64(~0ULL);
	cm_id->state = IB_CM_LISTEN;
	priv->listening = true;
	list_add_tail(&priv->listen_entry, &cm.listens);
out:
	spin_unlock(&cm.lock);
	return ret;
}
EXPORT_SYMBOL(ib_cm_listen);

int ib_cm_notify(struct ib_cm_id *cm_id, enum ib_event_type event)
{
	struct cm_id_priv *priv = to_priv(cm_id);
	struct cm_event_work *ev;
	bool established = false;

	if (event != IB_EVENT_COMM_EST)
		return 0;
	ev = cm_alloc_event(IB_CM_USER_ESTABLISHED, NULL);
	if (!ev)
		return -ENOMEM;
	spin_lock_irq(&priv->lock);
	if (cm_id->state == IB_CM_REP_SENT ||
	    cm_id->state == IB_CM_MRA_REP_RCVD) {
		cm_cancel_msg_locked(priv);
		cm_id->state = IB_CM_ESTABLISHED;
		established = true;
	}
	spin_unlock_irq(&priv->lock);
	if (!established) {
		kfree(ev);
		return cm_id->state == IB_CM_ESTABLISHED ? 0 : -EINVAL;
	}
	cm_queue_event(priv, ev);
	return 0;
}
EXPORT_SYMBOL(ib_cm_notify);

int ib_cm_init_qp_attr(struct ib_cm_id *cm_id, struct ib_qp_attr *qp_attr,
		       int *qp_attr_mask)
{
	struct cm_id_priv *priv = to_priv(cm_id);
	enum ib_cm_state s;
	int ret = 0, mask;

	spin_lock_irq(&priv->lock);
	s = cm_id->state;
	switch (qp_attr->qp_state) {
	case IB_QPS_INIT:
		if (s < IB_CM_REQ_SENT || s > IB_CM_DREQ_RCVD) {
			ret = -EINVAL;
			break;
		}
		mask = IB_QP_STATE | IB_QP_ACCESS_FLAGS | IB_QP_PKEY_INDEX |
		       IB_QP_PORT;
		qp_attr->qp_access_flags = IB_ACCESS_REMOTE_WRITE;
		if (priv->responder_resources)
			qp_attr->qp_access_flags |= IB_ACCESS_REMOTE_READ |
						    IB_ACCESS_REMOTE_ATOMIC;
		qp_attr->pkey_index = 0;
		qp_attr->port_num = priv->av.port_num;
		*qp_attr_mask = mask;
		break;
	case IB_QPS_RTR:
		if (s < IB_CM_REQ_RCVD || s > IB_CM_ESTABLISHED ||
		    s == IB_CM_MRA_REQ_RCVD) {
			ret = -EINVAL;
			break;
		}
		mask = IB_QP_STATE | IB_QP_AV | IB_QP_PATH_MTU |
		       IB_QP_DEST_QPN | IB_QP_RQ_PSN;
		ib_cm_path_to_ah_attr(&priv->path, priv->av.port_num,
				      &qp_attr->ah_attr);
		qp_attr->path_mtu = priv->path.mtu;
		qp_attr->dest_qp_num = priv->remote_qpn;
		qp_attr->rq_psn = priv->rq_psn;
		if (s == IB_CM_REQ_RCVD || s == IB_CM_MRA_REQ_SENT)
			priv->rq_psn_fixed = true;	/* the REP says it */
		if (priv->qp_type == IB_QPT_RC) {
			mask |= IB_QP_MAX_DEST_RD_ATOMIC | IB_QP_MIN_RNR_TIMER;
			qp_attr->max_dest_rd_atomic =
				priv->responder_resources;
			qp_attr->min_rnr_timer = 0;
		}
		*qp_attr_mask = mask;
		break;
	case IB_QPS_RTS:
		/* the passive side may go to RTS before sending its REP */
		if (s < IB_CM_REQ_RCVD || s > IB_CM_ESTABLISHED ||
		    s == IB_CM_MRA_REQ_RCVD) {
			ret = -EINVAL;
			break;
		}
		mask = IB_QP_STATE | IB_QP_SQ_PSN;
		qp_attr->sq_psn = priv->sq_psn;
		if (priv->qp_type == IB_QPT_RC) {
			mask |= IB_QP_TIMEOUT | IB_QP_RETRY_CNT |
				IB_QP_RNR_RETRY | IB_QP_MAX_QP_RD_ATOMIC;
			qp_attr->timeout = priv->local_ack_timeout;
			qp_attr->retry_cnt = priv->retry_count;
			qp_attr->rnr_retry = priv->rnr_retry_count;
			qp_attr->max_rd_atomic = priv->initiator_depth;
		}
		*qp_attr_mask = mask;
		break;
	default:
		ret = -EINVAL;
	}
	spin_unlock_irq(&priv->lock);
	return ret;
}
EXPORT_SYMBOL(ib_cm_init_qp_attr);

static const char * const cm_rej_reasons[] = {
	[IB_CM_REJ_NO_QP]			= "no QP",
	[IB_CM_REJ_NO_EEC]			= "no EEC",
	[IB_CM_REJ_NO_RESOURCES]		= "no resources",
	[IB_CM_REJ_TIMEOUT]			= "timeout",
	[IB_CM_REJ_UNSUPPORTED]			= "unsupported",
	[IB_CM_REJ_INVALID_COMM_ID]		= "invalid comm ID",
	[IB_CM_REJ_INVALID_COMM_INSTANCE]	= "invalid comm instance",
	[IB_CM_REJ_INVALID_SERVICE_ID]		= "invalid service ID",
	[IB_CM_REJ_INVALID_TRANSPORT_TYPE]	= "invalid transport type",
	[IB_CM_REJ_STALE_CONN]			= "stale conn",
	[IB_CM_REJ_RDC_NOT_EXIST]		= "RDC not exist",
	[IB_CM_REJ_INVALID_GID]			= "invalid GID",
	[IB_CM_REJ_INVALID_LID]			= "invalid LID",
	[IB_CM_REJ_INVALID_SL]			= "invalid SL",
	[IB_CM_REJ_INVALID_TRAFFIC_CLASS]	= "invalid traffic class",
	[IB_CM_REJ_INVALID_HOP_LIMIT]		= "invalid hop limit",
	[IB_CM_REJ_INVALID_PACKET_RATE]		= "invalid packet rate",
	[IB_CM_REJ_PORT_CM_REDIRECT]		= "port CM redirect",
	[IB_CM_REJ_PORT_REDIRECT]		= "port redirect",
	[IB_CM_REJ_INVALID_MTU]			= "invalid MTU",
	[IB_CM_REJ_INSUFFICIENT_RESP_RESOURCES]	= "insufficient resp resources",
	[IB_CM_REJ_CONSUMER_DEFINED]		= "consumer defined",
	[IB_CM_REJ_INVALID_RNR_RETRY]		= "invalid RNR retry",
	[IB_CM_REJ_DUPLICATE_LOCAL_COMM_ID]	= "duplicate local comm ID",
	[IB_CM_REJ_INVALID_CLASS_VERSION]	= "invalid class version",
	[IB_CM_REJ_INVALID_FLOW_LABEL]		= "invalid flow label",
	[IB_CM_REJ_VENDOR_OPTION_NOT_SUPPORTED]	= "vendor option is not supported",
};

const char *ibcm_reject_msg(int reason)
{
	if (reason >= 0 && reason < (int)ARRAY_SIZE(cm_rej_reasons) &&
	    cm_rej_reasons[reason])
		return cm_rej_reasons[reason];
	return "unrecognized reason";
}
EXPORT_SYMBOL(ibcm_reject_msg);
