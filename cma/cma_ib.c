// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The rdma_cm over ib_cm: connections (REQ/REP/RTU, REJ, DREQ/DREP) and,
 * for UD port spaces, SIDR.
 *
 * Active:  ROUTE_RESOLVED -rdma_connect-> CONNECT (REQ with the cma
 *          header, or SIDR_REQ); REP -> CONNECT_RESPONSE (or, with a
 *          kernel QP: RTR/RTS, RTU, ESTABLISHED); REJ -> REJECTED;
 *          timeouts -> UNREACHABLE; SIDR_REP -> ESTABLISHED / UNREACHABLE.
 * Passive: one ib_cm listen per (device, service ID), shared by all ids
 *          listening there; a REQ finds its listener by the port space
 *          and port in the service ID and the addresses in the cma
 *          header, and a new id (CONNECT) gets CONNECT_REQUEST.
 *          rdma_accept sends REP (SIDR_REP), RTU -> ESTABLISHED.
 * Close:   CONNECT -DREQ/DREP-> DISCONNECT (DISCONNECTED), then
 *          TIMEWAIT_EXIT.
 */
#include <linux/slab.h>
#include <net/ipv6.h>
#include "cma_priv.h"

__be64 rdma_get_service_id(struct rdma_cm_id *id, struct sockaddr *addr)
{
	return cpu_to_be64(cma_service_id(id->ps, be16_to_cpu(cma_port(addr))));
}
EXPORT_SYMBOL(rdma_get_service_id);

static void cma_format_hdr(struct cma_hdr *hdr, struct rdma_id_private *p)
{
	struct sockaddr *src = cma_src_addr(p), *dst = cma_dst_addr(p);

	memset(hdr, 0, sizeof(*hdr));
	hdr->cma_version = CMA_HDR_VERSION;
	if (cma_family(p) == AF_INET) {
		cma_hdr_set_ip_ver(hdr, 4);
		memcpy(hdr->src_addr + 12,
		       &((struct sockaddr_in *)src)->sin_addr.s_addr, 4);
		memcpy(hdr->dst_addr + 12,
		       &((struct sockaddr_in *)dst)->sin_addr.s_addr, 4);
	} else {
		cma_hdr_set_ip_ver(hdr, 6);
		memcpy(hdr->src_addr, &((struct sockaddr_in6 *)src)->sin6_addr,
		       16);
		memcpy(hdr->dst_addr, &((struct sockaddr_in6 *)dst)->sin6_addr,
		       16);
	}
	hdr->port = cma_port(src);
}

/* Our side's addresses from a peer's header: we are its destination. */
static void cma_save_addrs(struct rdma_id_private *p,
			   const struct cma_hdr *hdr, __be16 local_port)
{
	struct rdma_addr *a = &p->id.route.addr;

	if (cma_hdr_ip_ver(hdr) == 4) {
		struct sockaddr_in *s = (struct sockaddr_in *)&a->src_addr;
		struct sockaddr_in *d = (struct sockaddr_in *)&a->dst_addr;

		s->sin_family = AF_INET;
		memcpy(&s->sin_addr.s_addr, hdr->dst_addr + 12, 4);
		s->sin_port = local_port;
		d->sin_family = AF_INET;
		memcpy(&d->sin_addr.s_addr, hdr->src_addr + 12, 4);
		d->sin_port = hdr->port;
	} else {
		struct sockaddr_in6 *s = (struct sockaddr_in6 *)&a->src_addr;
		struct sockaddr_in6 *d = (struct sockaddr_in6 *)&a->dst_addr;

		s->sin6_family = AF_INET6;
		memcpy(&s->sin6_addr, hdr->dst_addr, 16);
		s->sin6_port = local_port;
		d->sin6_family = AF_INET6;
		memcpy(&d->sin6_addr, hdr->src_addr, 16);
		d->sin6_port = hdr->port;
	}
}

/* Does listener @p take a request for the header's destination? */
static bool cma_match_hdr(struct rdma_id_private *p, const struct cma_hdr *hdr)
{
	struct sockaddr *addr = cma_src_addr(p);

	if (cma_any_addr(addr) && !p->afonly)
		return true;
	if (addr->sa_family == AF_INET) {
		if (cma_hdr_ip_ver(hdr) != 4)
			return false;
		return cma_any_addr(addr) ||
		       !memcmp(hdr->dst_addr + 12,
			       &((struct sockaddr_in *)addr)->sin_addr.s_addr, 4);
	}
	if (cma_hdr_ip_ver(hdr) != 6)
		return false;
	return cma_any_addr(addr) ||
	       !memcmp(hdr->dst_addr, &((struct sockaddr_in6 *)addr)->sin6_addr,
		       16);
}

/* ------------------------------------------------------------------ */
/* Shared ib_cm listens                                                */
/* ------------------------------------------------------------------ */

static int cma_req_handler(struct ib_cm_id *cm_id,
			   const struct ib_cm_event *ev);

/* Under cma_lock: @p (attached to a device) listens on its service ID. */
int cma_ib_listen(struct rdma_id_private *p)
{
	__be64 sid = rdma_get_service_id(&p->id, cma_src_addr(p));
	struct cma_device *cma_dev = p->cma_dev;
	struct cma_ib_listen *l;
	struct ib_cm_id *cm_id;
	int ret;

	lockdep_assert_held(&cma_lock);
	list_for_each_entry(l, &cma_dev->ib_listens, list) {
		if (l->service_id == sid) {
			l->users++;
			p->ib_listen = l;
			return 0;
		}
	}
	l = kzalloc(sizeof(*l), GFP_KERNEL);
	if (!l)
		return -ENOMEM;
	cm_id = ib_create_cm_id(cma_dev->device, cma_req_handler, NULL);
	if (IS_ERR(cm_id)) {
		kfree(l);
		return PTR_ERR(cm_id);
	}
	ret = ib_cm_listen(cm_id, sid);
	if (ret) {
		ib_destroy_cm_id(cm_id);
		kfree(l);
		return ret;
	}
	l->cm_id = cm_id;
	l->service_id = sid;
	l->users = 1;
	list_add_tail(&l->list, &cma_dev->ib_listens);
	p->ib_listen = l;
	return 0;
}

void cma_ib_unlisten(struct rdma_id_private *p)
{
	struct cma_ib_listen *l;
	struct ib_cm_id *cm_id = NULL;

	mutex_lock(&cma_lock);
	l = p->ib_listen;
	p->ib_listen = NULL;
	if (l && !--l->users) {
		list_del(&l->list);
		cm_id = l->cm_id;
		kfree(l);
	}
	mutex_unlock(&cma_lock);
	if (cm_id)
		ib_destroy_cm_id(cm_id);
}

/* ------------------------------------------------------------------ */
/* Passive side                                                        */
/* ------------------------------------------------------------------ */

static int cma_ib_handler(struct ib_cm_id *cm_id,
			  const struct ib_cm_event *ev);

/* The listener for a request, referenced, or NULL. */
static struct rdma_id_private *cma_find_listener(struct net *net,
						 struct ib_device *device,
						 __be64 sid,
						 const struct cma_hdr *hdr)
{
	u64 s = be64_to_cpu(sid);
	struct rdma_id_private *p, *c, *found = NULL;
	struct cma_bind_list *bl;

	mutex_lock(&cma_lock);
	bl = cma_ps_find(net, cma_sid_ps(s), cma_sid_port(s));
	if (!bl)
		goto out;
	hlist_for_each_entry(p, &bl->owners, bind_node) {
		if (READ_ONCE(p->state) != RDMA_CM_LISTEN ||
		    !cma_match_hdr(p, hdr))
			continue;
		if (p->id.device == device) {
			found = p;
			break;
		}
		list_for_each_entry(c, &p->listen_list, listen_item) {
			if (c->id.device == device) {
				found = c;
				break;
			}
		}
		if (found)
			break;
	}
	if (found)
		cma_id_get(found);
out:
	mutex_unlock(&cma_lock);
	return found;
}

static struct net *cma_net_of_attr(const struct ib_gid_attr *attr)
{
	struct net_device *ndev;
	struct net *net = &init_net;

	if (!attr)
		return net;
	rcu_read_lock();
	ndev = rcu_dereference(attr->ndev);
	if (ndev)
		net = dev_net(ndev);
	rcu_read_unlock();
	return net;
}

/*
 * Fill the new id's device side: the GID entry the request came to, the
 * L2 addresses of its netdev.
 */
static int cma_attach_conn(struct rdma_id_private *c, struct ib_device *device,
			   u32 port, const struct ib_gid_attr *attr)
{
	struct rdma_dev_addr *da = &c->id.route.addr.dev_addr;
	const struct ib_gid_attr *ours;
	struct cma_device *cma_dev;
	struct net_device *ndev;
	int ret = -ENODEV;

	if (!attr)
		return -EINVAL;
	ours = rdma_get_gid_attr(device, port, attr->index);
	if (IS_ERR(ours))
		return PTR_ERR(ours);
	rcu_read_lock();
	ndev = rcu_dereference(ours->ndev);
	if (ndev)
		cma_copy_l2(da, ndev);
	rcu_read_unlock();
	da->sgid = ours->gid;
	da->network = cma_family(c) == AF_INET ? RDMA_NETWORK_IPV4 :
						 RDMA_NETWORK_IPV6;
	mutex_lock(&cma_lock);
	list_for_each_entry(cma_dev, &cma_dev_list, list) {
		if (cma_dev->device == device) {
			cma_attach(c, cma_dev, port, ours);
			ret = 0;
			break;
		}
	}
	mutex_unlock(&cma_lock);
	if (ret)
		rdma_put_gid_attr(ours);
	return ret;
}

static int cma_req_handler(struct ib_cm_id *cm_id,
			   const struct ib_cm_event *ev)
{
	const struct cma_hdr *hdr = ev->private_data;
	struct rdma_cm_event event = {};
	const struct ib_gid_attr *attr;
	struct rdma_id_private *l, *c;
	struct ib_cm_id *listen_cm;
	enum ib_qp_type qp_type;
	bool sidr;
	u32 port;
	int ret;

	sidr = ev->event == IB_CM_SIDR_REQ_RECEIVED;
	if (!sidr && ev->event != IB_CM_REQ_RECEIVED)
		return 0;
	if (!hdr || !cma_hdr_valid(hdr))
		return -EINVAL;
	if (sidr) {
		listen_cm = ev->param.sidr_req_rcvd.listen_id;
		attr = ev->param.sidr_req_rcvd.sgid_attr;
		port = ev->param.sidr_req_rcvd.port;
		qp_type = IB_QPT_UD;
	} else {
		listen_cm = ev->param.req_rcvd.listen_id;
		attr = ev->param.req_rcvd.ppath_sgid_attr;
		port = ev->param.req_rcvd.port;
		qp_type = ev->param.req_rcvd.qp_type;
	}
	if (!listen_cm)
		return -EINVAL;

	l = cma_find_listener(cma_net_of_attr(attr), cm_id->device,
			      listen_cm->service_id, hdr);
	if (!l)
		return -EINVAL;
	if (l->id.qp_type && l->id.qp_type != qp_type) {
		cma_id_put(l);
		return -EINVAL;
	}

	mutex_lock(&l->handler_mutex);
	if (READ_ONCE(l->state) != RDMA_CM_LISTEN) {
		ret = -ECONNABORTED;
		goto err_unlock;
	}
	c = cma_alloc_id(cma_net(l), l->id.event_handler, l->id.context,
			 l->id.ps, qp_type);
	if (!c) {
		ret = -ENOMEM;
		goto err_unlock;
	}
	cma_inherit_owner(c, l);
	cma_save_addrs(c, hdr, cma_port(cma_src_addr(l)));
	cma_ip_to_gid(cma_dst_addr(c), &c->id.route.addr.dev_addr.dgid);
	mutex_lock_nested(&c->handler_mutex, SINGLE_DEPTH_NESTING);
	ret = cma_attach_conn(c, cm_id->device, port, attr);
	if (ret) {
		cma_destroy_locked(c);
		goto err_unlock;
	}
	if (!sidr) {
		c->path = *ev->param.req_rcvd.primary_path;
		c->path.sgid_attr = c->sgid_attr;
		c->id.route.path_rec = kmemdup(&c->path, sizeof(c->path),
					       GFP_KERNEL);
		if (!c->id.route.path_rec) {
			ret = -ENOMEM;
			cma_destroy_locked(c);
			goto err_unlock;
		}
		c->id.route.num_pri_alt_paths = 1;
		c->id.route.addr.dev_addr.hoplimit = c->path.hop_limit;
	}
	c->state = RDMA_CM_CONNECT;
	c->cm_id = cm_id;
	cm_id->context = c;
	cm_id->cm_handler = cma_ib_handler;

	event.event = RDMA_CM_EVENT_CONNECT_REQUEST;
	if (sidr) {
		event.param.ud.private_data = (u8 *)ev->private_data +
					      CMA_HDR_SIZE;
		event.param.ud.private_data_len =
			IB_CM_SIDR_REQ_PRIVATE_DATA_SIZE - CMA_HDR_SIZE;
	} else {
		const struct ib_cm_req_event_param *r = &ev->param.req_rcvd;

		event.param.conn.private_data = (u8 *)ev->private_data +
						CMA_HDR_SIZE;
		event.param.conn.private_data_len =
			IB_CM_REQ_PRIVATE_DATA_SIZE - CMA_HDR_SIZE;
		event.param.conn.responder_resources = r->responder_resources;
		event.param.conn.initiator_depth = r->initiator_depth;
		event.param.conn.flow_control = r->flow_control;
		event.param.conn.retry_count = r->retry_count;
		event.param.conn.rnr_retry_count = r->rnr_retry_count;
		event.param.conn.srq = r->srq;
		event.param.conn.qp_num = r->remote_qpn;
	}
	ret = cma_deliver(c, &event);
	if (ret) {
		/* ib_cm destroys (and rejects) its id on our non-zero. */
		c->cm_id = NULL;
		mutex_unlock(&l->handler_mutex);
		cma_id_put(l);
		cma_destroy_locked(c);
		return ret;
	}
	mutex_unlock(&c->handler_mutex);
	mutex_unlock(&l->handler_mutex);
	cma_id_put(l);
	return 0;

err_unlock:
	mutex_unlock(&l->handler_mutex);
	cma_id_put(l);
	return ret;
}

/* ------------------------------------------------------------------ */
/* Connection events                                                   */
/* ------------------------------------------------------------------ */

/* The REP arrived and we own the QP: RTR, RTS, RTU. */
static int cma_rep_recv(struct rdma_id_private *p)
{
	int ret = cma_modify_qp_rtr_rts(p, NULL);

	if (!ret)
		ret = ib_send_cm_rtu(p->cm_id, NULL, 0);
	if (ret) {
		cma_modify_qp_err(p);
		ib_send_cm_rej(p->cm_id, IB_CM_REJ_CONSUMER_DEFINED, NULL, 0,
			       NULL, 0);
	}
	return ret;
}

static int cma_sidr_rep_event(struct rdma_id_private *p,
			      const struct ib_cm_event *ev,
			      struct rdma_cm_event *event)
{
	const struct ib_cm_sidr_rep_event_param *rep = &ev->param.sidr_rep_rcvd;

	if (ev->event == IB_CM_SIDR_REQ_ERROR) {
		event->event = RDMA_CM_EVENT_UNREACHABLE;
		event->status = -ETIMEDOUT;
		return 0;
	}
	event->param.ud.private_data = ev->private_data;
	event->param.ud.private_data_len = IB_CM_SIDR_REP_PRIVATE_DATA_SIZE;
	if (rep->status != IB_SIDR_SUCCESS) {
		event->event = RDMA_CM_EVENT_UNREACHABLE;
		event->status = rep->status;
		return 0;
	}
	if (p->qkey && p->qkey != rep->qkey) {
		event->event = RDMA_CM_EVENT_ADDR_ERROR;
		event->status = -EINVAL;
		return 0;
	}
	p->qkey = rep->qkey;
	ib_cm_path_to_ah_attr(&p->path, p->id.port_num,
			      &event->param.ud.ah_attr);
	event->param.ud.qp_num = rep->qpn;
	event->param.ud.qkey = rep->qkey;
	event->event = RDMA_CM_EVENT_ESTABLISHED;
	return 0;
}

static int cma_ib_handler(struct ib_cm_id *cm_id,
			  const struct ib_cm_event *ev)
{
	struct rdma_id_private *p = cm_id->context;
	struct rdma_cm_event event = {};
	enum rdma_cm_state st;
	int ret;

	mutex_lock(&p->handler_mutex);
	st = READ_ONCE(p->state);
	if (p->cm_id != cm_id)
		goto out;
	if ((ev->event == IB_CM_TIMEWAIT_EXIT && st != RDMA_CM_DISCONNECT) ||
	    (ev->event != IB_CM_TIMEWAIT_EXIT && st != RDMA_CM_CONNECT))
		goto out;

	switch (ev->event) {
	case IB_CM_REQ_ERROR:
	case IB_CM_REP_ERROR:
		event.event = RDMA_CM_EVENT_UNREACHABLE;
		event.status = -ETIMEDOUT;
		break;
	case IB_CM_REP_RECEIVED: {
		const struct ib_cm_rep_event_param *r = &ev->param.rep_rcvd;

		if (p->id.qp) {
			event.status = cma_rep_recv(p);
			event.event = event.status ? RDMA_CM_EVENT_CONNECT_ERROR :
						     RDMA_CM_EVENT_ESTABLISHED;
		} else {
			event.event = RDMA_CM_EVENT_CONNECT_RESPONSE;
		}
		event.param.conn.private_data = ev->private_data;
		event.param.conn.private_data_len = IB_CM_REP_PRIVATE_DATA_SIZE;
		event.param.conn.responder_resources = r->responder_resources;
		event.param.conn.initiator_depth = r->initiator_depth;
		event.param.conn.flow_control = r->flow_control;
		event.param.conn.rnr_retry_count = r->rnr_retry_count;
		event.param.conn.srq = r->srq;
		event.param.conn.qp_num = r->remote_qpn;
		break;
	}
	case IB_CM_RTU_RECEIVED:
	case IB_CM_USER_ESTABLISHED:
		event.status = cma_modify_qp_rts(p);
		event.event = event.status ? RDMA_CM_EVENT_CONNECT_ERROR :
					     RDMA_CM_EVENT_ESTABLISHED;
		break;
	case IB_CM_DREQ_ERROR:
		event.status = -ETIMEDOUT;
		fallthrough;
	case IB_CM_DREQ_RECEIVED:
	case IB_CM_DREP_RECEIVED:
		if (!cma_comp_exch(p, RDMA_CM_CONNECT, RDMA_CM_DISCONNECT))
			goto out;
		cma_modify_qp_err(p);
		event.event = RDMA_CM_EVENT_DISCONNECTED;
		break;
	case IB_CM_TIMEWAIT_EXIT:
		event.event = RDMA_CM_EVENT_TIMEWAIT_EXIT;
		break;
	case IB_CM_REJ_RECEIVED:
		cma_modify_qp_err(p);
		event.event = RDMA_CM_EVENT_REJECTED;
		event.status = ev->param.rej_rcvd.reason;
		event.param.conn.private_data = ev->private_data;
		event.param.conn.private_data_len = IB_CM_REJ_PRIVATE_DATA_SIZE;
		break;
	case IB_CM_SIDR_REQ_ERROR:
	case IB_CM_SIDR_REP_RECEIVED:
		if (p->id.qp_type != IB_QPT_UD)
			goto out;
		cma_sidr_rep_event(p, ev, &event);
		break;
	default:
		goto out;
	}

	ret = cma_deliver(p, &event);
	if (ret) {
		p->cm_id = NULL;
		cma_destroy_locked(p);
		return ret;
	}
out:
	mutex_unlock(&p->handler_mutex);
	return 0;
}

/* ------------------------------------------------------------------ */
/* Active side and the calls                                           */
/* ------------------------------------------------------------------ */

static void *cma_private_data(struct rdma_id_private *p,
			      const struct rdma_conn_param *param,
			      size_t max, u8 *len)
{
	size_t n = CMA_HDR_SIZE + (param->private_data ?
				   param->private_data_len : 0);
	u8 *buf;

	if (n > max)
		return ERR_PTR(-EINVAL);
	buf = kzalloc(n, GFP_KERNEL);
	if (!buf)
		return ERR_PTR(-ENOMEM);
	cma_format_hdr((struct cma_hdr *)buf, p);
	if (n > CMA_HDR_SIZE)
		memcpy(buf + CMA_HDR_SIZE, param->private_data,
		       param->private_data_len);
	*len = (u8)n;
	return buf;
}

/*
 * Both active-side requests (REQ and SIDR REQ) start alike: the private
 * data with our header in front (at most @max bytes on the wire) and an
 * ib_cm id whose events reach cma_ib_handler().  The caller sends, then
 * hands the outcome to cma_sent_req().
 */
static void *cma_start_req(struct rdma_id_private *p,
			   const struct rdma_conn_param *param, size_t max,
			   u8 *len)
{
	struct ib_cm_id *cm_id;
	void *pd;

	pd = cma_private_data(p, param, max, len);
	if (IS_ERR(pd))
		return pd;
	cm_id = ib_create_cm_id(p->id.device, cma_ib_handler, p);
	if (IS_ERR(cm_id)) {
		kfree(pd);
		return ERR_CAST(cm_id);
	}
	p->cm_id = cm_id;
	return pd;
}

/*
 * The ib_cm copied the private data while sending.  A request it did not
 * send leaves the id without an ib_cm id, so a later connect may retry.
 */
static int cma_sent_req(struct rdma_id_private *p, void *pd, int ret)
{
	struct ib_cm_id *cm_id = p->cm_id;

	kfree(pd);
	if (ret) {
		p->cm_id = NULL;
		ib_destroy_cm_id(cm_id);
	}
	return ret;
}

static int cma_connect_ib(struct rdma_id_private *p,
			  const struct rdma_conn_param *param)
{
	struct ib_cm_req_param req = {};
	void *pd;

	pd = cma_start_req(p, param, IB_CM_REQ_PRIVATE_DATA_SIZE,
			   &req.private_data_len);
	if (IS_ERR(pd))
		return PTR_ERR(pd);
	req.private_data = pd;
	req.primary_path = &p->path;
	req.service_id = rdma_get_service_id(&p->id, cma_dst_addr(p));
	req.qp_num = p->qp_num;
	req.qp_type = p->id.qp_type;
	req.starting_psn = p->seq_num;
	req.responder_resources = param->responder_resources;
	req.initiator_depth = param->initiator_depth;
	req.flow_control = param->flow_control;
	req.retry_count = min_t(u8, 7, param->retry_count);
	req.rnr_retry_count = min_t(u8, 7, param->rnr_retry_count);
	req.remote_cm_response_timeout = CMA_CM_RESPONSE_TIMEOUT;
	req.local_cm_response_timeout = CMA_CM_RESPONSE_TIMEOUT;
	req.max_cm_retries = CMA_MAX_CM_RETRIES;
	req.srq = p->srq;
	return cma_sent_req(p, pd, ib_send_cm_req(p->cm_id, &req));
}

static int cma_connect_sidr(struct rdma_id_private *p,
			    const struct rdma_conn_param *param)
{
	struct ib_cm_sidr_req_param req = {};
	void *pd;

	pd = cma_start_req(p, param, IB_CM_SIDR_REQ_PRIVATE_DATA_SIZE,
			   &req.private_data_len);
	if (IS_ERR(pd))
		return PTR_ERR(pd);
	req.private_data = pd;
	req.path = &p->path;
	req.service_id = rdma_get_service_id(&p->id, cma_dst_addr(p));
	req.timeout_ms = 1 << (CMA_CM_RESPONSE_TIMEOUT - 8);
	req.max_cm_retries = CMA_MAX_CM_RETRIES;
	return cma_sent_req(p, pd, ib_send_cm_sidr_req(p->cm_id, &req));
}

int rdma_connect(struct rdma_cm_id *id, struct rdma_conn_param *param)
{
	struct rdma_id_private *p = to_id_priv(id);
	bool locked = cma_lock_handler(p);
	int ret;

	if (!param || !cma_comp_exch(p, RDMA_CM_ROUTE_RESOLVED,
				     RDMA_CM_CONNECT)) {
		ret = -EINVAL;
		goto out;
	}
	if (!id->qp) {
		p->qp_num = param->qp_num;
		p->srq = param->srq;
	}
	if (!id->device)
		ret = -ENODEV;
	else if (id->qp_type == IB_QPT_UD)
		ret = cma_connect_sidr(p, param);
	else
		ret = cma_connect_ib(p, param);
	if (ret)
		cma_comp_exch(p, RDMA_CM_CONNECT, RDMA_CM_ROUTE_RESOLVED);
out:
	cma_unlock_handler(p, locked);
	return ret;
}
EXPORT_SYMBOL(rdma_connect);

/*
 * The in-tree name for a connect from within the id's own handler
 * (ROUTE_RESOLVED, as nvme-rdma does).  rdma_connect() tells that case
 * apart itself (cma_lock_handler()), so both are the same call here.
 */
int rdma_connect_locked(struct rdma_cm_id *id,
			struct rdma_conn_param *conn_param)
{
	return rdma_connect(id, conn_param);
}
EXPORT_SYMBOL(rdma_connect_locked);

static int cma_send_sidr_rep(struct rdma_id_private *p,
			     enum ib_cm_sidr_status status, u32 qkey,
			     const void *private_data, u8 len)
{
	struct ib_cm_sidr_rep_param rep = {};

	rep.status = status;
	if (status == IB_SIDR_SUCCESS) {
		if (qkey)
			p->qkey = qkey;
		else if (!p->qkey)
			p->qkey = RDMA_UDP_QKEY;
		rep.qp_num = p->qp_num;
		rep.qkey = p->qkey;
	}
	rep.private_data = private_data;
	rep.private_data_len = len;
	return ib_send_cm_sidr_rep(p->cm_id, &rep);
}

static int cma_accept_ib(struct rdma_id_private *p,
			 const struct rdma_conn_param *param)
{
	struct ib_cm_rep_param rep = {};
	int ret;

	ret = cma_modify_qp_rtr_rts(p, param);
	if (ret)
		return ret;
	rep.qp_num = p->qp_num;
	rep.starting_psn = p->seq_num;
	rep.private_data = param->private_data;
	rep.private_data_len = param->private_data_len;
	rep.responder_resources = param->responder_resources;
	rep.initiator_depth = param->initiator_depth;
	rep.flow_control = param->flow_control;
	rep.rnr_retry_count = min_t(u8, 7, param->rnr_retry_count);
	rep.srq = p->srq;
	return ib_send_cm_rep(p->cm_id, &rep);
}

int rdma_accept(struct rdma_cm_id *id, struct rdma_conn_param *param)
{
	struct rdma_id_private *p = to_id_priv(id);
	bool locked = cma_lock_handler(p);
	int ret;

	if (READ_ONCE(p->state) != RDMA_CM_CONNECT || !p->cm_id) {
		ret = -EINVAL;
		goto out;
	}
	if (!id->qp && param) {
		p->qp_num = param->qp_num;
		p->srq = param->srq;
	}
	if (id->qp_type == IB_QPT_UD)
		ret = cma_send_sidr_rep(p, IB_SIDR_SUCCESS,
					param ? param->qkey : 0,
					param ? param->private_data : NULL,
					param ? param->private_data_len : 0);
	else if (param)
		ret = cma_accept_ib(p, param);
	else
		ret = cma_rep_recv(p);
	if (ret) {
		cma_modify_qp_err(p);
		if (id->qp_type == IB_QPT_UD)
			cma_send_sidr_rep(p, IB_SIDR_REJECT, 0, NULL, 0);
		else
			ib_send_cm_rej(p->cm_id, IB_CM_REJ_CONSUMER_DEFINED,
				       NULL, 0, NULL, 0);
	}
out:
	cma_unlock_handler(p, locked);
	return ret;
}
EXPORT_SYMBOL(rdma_accept);

int rdma_reject(struct rdma_cm_id *id, const void *private_data,
		u8 private_data_len, u8 reason)
{
	struct rdma_id_private *p = to_id_priv(id);
	bool locked = cma_lock_handler(p);
	int ret;

	if (!p->cm_id)
		ret = -EINVAL;
	else if (id->qp_type == IB_QPT_UD)
		ret = cma_send_sidr_rep(p, IB_SIDR_REJECT, 0, private_data,
					private_data_len);
	else
		ret = ib_send_cm_rej(p->cm_id, reason, NULL, 0, private_data,
				     private_data_len);
	cma_unlock_handler(p, locked);
	return ret;
}
EXPORT_SYMBOL(rdma_reject);

/*
 * What a REJECTED event says, for kernel consumers (nvme-rdma reads its
 * target's NVMe reject record this way).  On RoCE the status is the REJ's
 * ib_cm reason; only a consumer's own reject (reason 28) carries private
 * data that means something to the consumer.
 */
bool rdma_is_consumer_reject(struct rdma_cm_id *id, int reason)
{
	return reason == IB_CM_REJ_CONSUMER_DEFINED;
}
EXPORT_SYMBOL(rdma_is_consumer_reject);

const void *rdma_consumer_reject_data(struct rdma_cm_id *id,
				      struct rdma_cm_event *ev, u8 *data_len)
{
	if (ev->event != RDMA_CM_EVENT_REJECTED ||
	    !rdma_is_consumer_reject(id, ev->status) ||
	    !ev->param.conn.private_data) {
		*data_len = 0;
		return NULL;
	}
	*data_len = ev->param.conn.private_data_len;
	return ev->param.conn.private_data;
}
EXPORT_SYMBOL(rdma_consumer_reject_data);

const char *rdma_reject_msg(struct rdma_cm_id *id, int reason)
{
	return ibcm_reject_msg(reason);
}
EXPORT_SYMBOL(rdma_reject_msg);

int rdma_disconnect(struct rdma_cm_id *id)
{
	struct rdma_id_private *p = to_id_priv(id);
	bool locked = cma_lock_handler(p);
	int ret = 0;

	if (p->cm_id) {
		cma_modify_qp_err(p);
		/* Start the disconnection, or answer the peer's. */
		if (ib_send_cm_dreq(p->cm_id, NULL, 0))
			ib_send_cm_drep(p->cm_id, NULL, 0);
	} else {
		ret = -EINVAL;
	}
	cma_unlock_handler(p, locked);
	return ret;
}
EXPORT_SYMBOL(rdma_disconnect);

int rdma_notify(struct rdma_cm_id *id, enum ib_event_type event)
{
	struct rdma_id_private *p = to_id_priv(id);
	bool locked = cma_lock_handler(p);
	int ret = p->cm_id ? ib_cm_notify(p->cm_id, event) : -EINVAL;

	cma_unlock_handler(p, locked);
	return ret;
}
EXPORT_SYMBOL(rdma_notify);
