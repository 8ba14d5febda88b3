// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdma_cm ids: creation, the state word, event delivery, destruction,
 * the devices they attach to, listening, options and QP attributes.
 *
 * An id is created IDLE with no device; binding to a specific address or
 * resolving one attaches it to the ib_device behind the address's netdev
 * (counted as a cm_id in `rdma res`).  Events are delivered from process
 * context (ib_cm handlers, or cma_wq work) under the id's handler_mutex,
 * one at a time.  Destruction sets DESTROYING under the handler_mutex, so
 * no handler runs after it, then tears down with no lock held: the ib_cm
 * id (which waits for its handler), the port binding, the device, and
 * last waits for every reference (queued work, REQ lookups) to go.
 *
 * Device removal (the ib_client's remove()): every id attached to the
 * device gets DEVICE_REMOVAL once and is detached (device NULL); per-
 * device children of wildcard listeners are simply destroyed.  Nothing
 * waits for an id's owner, but an id already being destroyed is waited
 * for until its destroyer detached it: up to then its teardown still
 * uses the device (ib_cm id, multicast, port binding).  Readers of
 * id->device outside the rdma_cm take cma_lock (rdma_lock_id_device()),
 * under which ids are detached.
 */
#include <linux/module.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <linux/sched.h>
#include <linux/wait.h>
#include <net/netlink.h>
#include <ordma/test_pause.h>
#include "cma_priv.h"

DEFINE_MUTEX(cma_lock);
/* Woken whenever an id is detached from its device (cma_detach()). */
static DECLARE_WAIT_QUEUE_HEAD(cma_detach_wq);
LIST_HEAD(cma_dev_list);
LIST_HEAD(cma_listen_any);
struct workqueue_struct *cma_wq;

static const char * const cma_events[] = {
	[RDMA_CM_EVENT_ADDR_RESOLVED]	= "address resolved",
	[RDMA_CM_EVENT_ADDR_ERROR]	= "address error",
	[RDMA_CM_EVENT_ROUTE_RESOLVED]	= "route resolved",
	[RDMA_CM_EVENT_ROUTE_ERROR]	= "route error",
	[RDMA_CM_EVENT_CONNECT_REQUEST]	= "connect request",
	[RDMA_CM_EVENT_CONNECT_RESPONSE] = "connect response",
	[RDMA_CM_EVENT_CONNECT_ERROR]	= "connect error",
	[RDMA_CM_EVENT_UNREACHABLE]	= "unreachable",
	[RDMA_CM_EVENT_REJECTED]	= "rejected",
	[RDMA_CM_EVENT_ESTABLISHED]	= "established",
	[RDMA_CM_EVENT_DISCONNECTED]	= "disconnected",
	[RDMA_CM_EVENT_DEVICE_REMOVAL]	= "device removal",
	[RDMA_CM_EVENT_MULTICAST_JOIN]	= "multicast join",
	[RDMA_CM_EVENT_MULTICAST_ERROR]	= "multicast error",
	[RDMA_CM_EVENT_ADDR_CHANGE]	= "address change",
	[RDMA_CM_EVENT_TIMEWAIT_EXIT]	= "timewait exit",
};

const char *rdma_event_msg(enum rdma_cm_event_type event)
{
	size_t i = event;

	return i < ARRAY_SIZE(cma_events) && cma_events[i] ?
	       cma_events[i] : "unrecognized event";
}
EXPORT_SYMBOL(rdma_event_msg);

/* ------------------------------------------------------------------ */
/* State and handler lock                                              */
/* ------------------------------------------------------------------ */

bool cma_comp_exch(struct rdma_id_private *p, enum rdma_cm_state comp,
		   enum rdma_cm_state exch)
{
	unsigned long flags;
	bool ret;

	spin_lock_irqsave(&p->lock, flags);
	ret = p->state == comp;
	if (ret)
		p->state = exch;
	spin_unlock_irqrestore(&p->lock, flags);
	return ret;
}

enum rdma_cm_state cma_exch(struct rdma_id_private *p, enum rdma_cm_state exch)
{
	enum rdma_cm_state old;
	unsigned long flags;

	spin_lock_irqsave(&p->lock, flags);
	old = p->state;
	p->state = exch;
	spin_unlock_irqrestore(&p->lock, flags);
	return old;
}

enum rdma_cm_state rdma_get_state(struct rdma_cm_id *id)
{
	return READ_ONCE(to_id_priv(id)->state);
}
EXPORT_SYMBOL(rdma_get_state);

/*
 * Take the handler lock unless this task is running the id's handler
 * (which holds it): then the call is part of the handler's work.
 */
bool cma_lock_handler(struct rdma_id_private *p)
{
	if (READ_ONCE(p->handler_task) == current)
		return false;
	mutex_lock(&p->handler_mutex);
	return true;
}

void cma_unlock_handler(struct rdma_id_private *p, bool locked)
{
	if (locked)
		mutex_unlock(&p->handler_mutex);
}

/* With handler_mutex held: run the handler, report its verdict. */
int cma_deliver(struct rdma_id_private *p, struct rdma_cm_event *ev)
{
	struct task_struct *prev = p->handler_task;
	int ret;

	lockdep_assert_held(&p->handler_mutex);
	if (!p->id.event_handler)
		return 0;
	WRITE_ONCE(p->handler_task, current);
	ret = p->id.event_handler(&p->id, ev);
	WRITE_ONCE(p->handler_task, prev);
	return ret;
}

/* ------------------------------------------------------------------ */
/* Creation, references, destruction                                   */
/* ------------------------------------------------------------------ */

void cma_id_get(struct rdma_id_private *p)
{
	refcount_inc(&p->refcount);
}

void cma_id_put(struct rdma_id_private *p)
{
	if (refcount_dec_and_test(&p->refcount))
		complete(&p->comp);
}

struct rdma_id_private *cma_alloc_id(struct net *net,
				     rdma_cm_event_handler handler,
				     void *context,
				     enum rdma_ucm_port_space ps,
				     enum ib_qp_type qp_type)
{
	struct rdma_id_private *p;

	p = kzalloc(sizeof(*p), GFP_KERNEL);
	if (!p)
		return NULL;
	p->id.event_handler = handler;
	p->id.context = context;
	p->id.ps = ps;
	p->id.qp_type = qp_type;
	p->id.route.addr.dev_addr.net = get_net(net);
	p->state = RDMA_CM_IDLE;
	spin_lock_init(&p->lock);
	mutex_init(&p->handler_mutex);
	refcount_set(&p->refcount, 1);
	init_completion(&p->comp);
	INIT_LIST_HEAD(&p->device_item);
	INIT_LIST_HEAD(&p->listen_list);
	INIT_LIST_HEAD(&p->listen_item);
	INIT_LIST_HEAD(&p->listen_any_item);
	INIT_LIST_HEAD(&p->mc_list);
	INIT_DELAYED_WORK(&p->addr_work, cma_addr_work);
	p->seq_num = get_random_u32() & 0xffffff;
	p->tos = 0;
	return p;
}

static bool cma_ps_valid(enum rdma_ucm_port_space ps)
{
	return ps == RDMA_PS_TCP || ps == RDMA_PS_UDP || ps == RDMA_PS_IPOIB ||
	       ps == RDMA_PS_IB;
}

struct rdma_cm_id *__rdma_create_kernel_id(struct net *net,
					   rdma_cm_event_handler event_handler,
					   void *context,
					   enum rdma_ucm_port_space ps,
					   enum ib_qp_type qp_type,
					   const char *caller)
{
	struct rdma_id_private *p;

	if (!cma_ps_valid(ps) || !event_handler)
		return ERR_PTR(-EINVAL);
	p = cma_alloc_id(net, event_handler, context, ps, qp_type);
	if (!p)
		return ERR_PTR(-ENOMEM);
	p->kern_name = caller;
	return &p->id;
}
EXPORT_SYMBOL(__rdma_create_kernel_id);

struct rdma_cm_id *rdma_create_user_id(rdma_cm_event_handler event_handler,
				       void *context,
				       enum rdma_ucm_port_space ps,
				       enum ib_qp_type qp_type)
{
	struct rdma_cm_id *id;

	id = __rdma_create_kernel_id(current->nsproxy->net_ns, event_handler,
				     context, ps, qp_type, NULL);
	if (!IS_ERR(id))
		to_id_priv(id)->owner = get_task_pid(current, PIDTYPE_TGID);
	return id;
}
EXPORT_SYMBOL(rdma_create_user_id);

/* A child (of a listener) belongs to whoever owns its parent. */
void cma_inherit_owner(struct rdma_id_private *c,
		       const struct rdma_id_private *parent)
{
	c->owner = get_pid(parent->owner);
	c->kern_name = parent->kern_name;
}

static void cma_cdev_release(struct kref *kref)
{
	kfree(container_of(kref, struct cma_device, kref));
}

/* Under cma_lock. */
void cma_attach(struct rdma_id_private *p, struct cma_device *cma_dev,
		u32 port, const struct ib_gid_attr *sgid_attr)
{
	lockdep_assert_held(&cma_lock);
	kref_get(&cma_dev->kref);
	p->cma_dev = cma_dev;
	p->id.device = cma_dev->device;
	p->id.port_num = port;
	p->sgid_attr = sgid_attr;
	p->res_id = cma_dev->next_res_id++;
	list_add_tail(&p->device_item, &cma_dev->id_list);
	atomic_inc(&cma_dev->device->res_count[IB_RES_CM_ID]);
}

/* Idempotent; takes cma_lock. */
void cma_detach(struct rdma_id_private *p)
{
	struct cma_device *cma_dev;
	const struct ib_gid_attr *attr;

	mutex_lock(&cma_lock);
	cma_dev = p->cma_dev;
	attr = p->sgid_attr;
	if (cma_dev) {
		list_del_init(&p->device_item);
		atomic_dec(&cma_dev->device->res_count[IB_RES_CM_ID]);
		p->cma_dev = NULL;
		p->id.device = NULL;
		p->sgid_attr = NULL;
		p->path.sgid_attr = NULL;
	}
	mutex_unlock(&cma_lock);
	if (attr)
		rdma_put_gid_attr(attr);
	if (cma_dev) {
		kref_put(&cma_dev->kref, cma_cdev_release);
		wake_up_all(&cma_detach_wq);
	}
}

/*
 * For readers of @id->device outside the rdma_cm (ucma's queries): until
 * rdma_unlock_id_device(), the id stays attached to the device it has,
 * and so the device stays registered (removal detaches every id first).
 * Short sections only: the lock is the rdma_cm's global one.
 */
void rdma_lock_id_device(struct rdma_cm_id *id)
{
	mutex_lock(&cma_lock);
}
EXPORT_SYMBOL(rdma_lock_id_device);

void rdma_unlock_id_device(struct rdma_cm_id *id)
{
	mutex_unlock(&cma_lock);
}
EXPORT_SYMBOL(rdma_unlock_id_device);

/* A listener stops: its children go, its ib_cm listen is released. */
static void cma_cancel_listen(struct rdma_id_private *p)
{
	struct rdma_id_private *child;

	mutex_lock(&cma_lock);
	list_del_init(&p->listen_any_item);
	while ((child = list_first_entry_or_null(&p->listen_list,
						 struct rdma_id_private,
						 listen_item))) {
		list_del_init(&child->listen_item);
		mutex_unlock(&cma_lock);
		mutex_lock(&child->handler_mutex);
		cma_destroy_locked(child);
		mutex_lock(&cma_lock);
	}
	mutex_unlock(&cma_lock);
	cma_ib_unlisten(p);
}

static void cma_teardown(struct rdma_id_private *p, enum rdma_cm_state old,
			 struct ib_cm_id *cm_id)
{
	/* (test-only: hold a destroyer here, see tests/guest/removal_pause.sh) */
	ib_test_pause(IB_TEST_PAUSE_CMA_DESTROY);
	cancel_delayed_work_sync(&p->addr_work);
	if (old == RDMA_CM_LISTEN || p->ib_listen ||
	    !list_empty(&p->listen_list))
		cma_cancel_listen(p);
	if (p->internal) {
		mutex_lock(&cma_lock);
		list_del_init(&p->listen_item);
		mutex_unlock(&cma_lock);
	}
	cma_leave_all(p);
	if (cm_id)
		ib_destroy_cm_id(cm_id);
	cma_release_port(p);
	cma_detach(p);

	cma_id_put(p);
	wait_for_completion(&p->comp);

	kfree(p->id.route.path_rec);
	put_net(p->id.route.addr.dev_addr.net);
	put_pid(p->owner);
	kfree(p);
}

/*
 * Called with handler_mutex held (and released here): no handler of the
 * id runs after this, and the id is gone when it returns.
 */
void cma_destroy_locked(struct rdma_id_private *p)
{
	enum rdma_cm_state old;
	struct ib_cm_id *cm_id;

	lockdep_assert_held(&p->handler_mutex);
	old = cma_exch(p, RDMA_CM_DESTROYING);
	cm_id = p->cm_id;
	p->cm_id = NULL;
	mutex_unlock(&p->handler_mutex);
	cma_teardown(p, old, cm_id);
}

void rdma_destroy_id(struct rdma_cm_id *id)
{
	struct rdma_id_private *p = to_id_priv(id);

	if (WARN_ON_ONCE(READ_ONCE(p->handler_task) == current))
		return;
	mutex_lock(&p->handler_mutex);
	cma_destroy_locked(p);
}
EXPORT_SYMBOL(rdma_destroy_id);

/* ------------------------------------------------------------------ */
/* Deferred events                                                     */
/* ------------------------------------------------------------------ */

struct cma_event_work {
	struct work_struct work;
	struct rdma_id_private *p;
	enum rdma_cm_state old;		/* RDMA_CM_DESTROYING: any live state */
	enum rdma_cm_state new;
	struct rdma_cm_event event;
};

static void cma_event_work_fn(struct work_struct *work)
{
	struct cma_event_work *w = container_of(work, struct cma_event_work,
						work);
	struct rdma_id_private *p = w->p;
	enum rdma_cm_state st;

	mutex_lock(&p->handler_mutex);
	st = READ_ONCE(p->state);
	if (w->old == RDMA_CM_DESTROYING) {
		if (st == RDMA_CM_DESTROYING || st == RDMA_CM_DEVICE_REMOVAL)
			goto out;
	} else if (!cma_comp_exch(p, w->old, w->new)) {
		goto out;
	}
	if (cma_deliver(p, &w->event)) {
		cma_id_put(p);
		cma_destroy_locked(p);
		kfree(w);
		return;
	}
out:
	mutex_unlock(&p->handler_mutex);
	cma_id_put(p);
	kfree(w);
}

/*
 * Deliver @ev from cma_wq if the id is still in @old (then moved to
 * @new); @old == RDMA_CM_DESTROYING means "in any live state".
 */
int cma_queue_event(struct rdma_id_private *p, enum rdma_cm_state old,
		    enum rdma_cm_state new, const struct rdma_cm_event *ev)
{
	struct cma_event_work *w = kzalloc(sizeof(*w), GFP_KERNEL);

	if (!w)
		return -ENOMEM;
	INIT_WORK(&w->work, cma_event_work_fn);
	w->p = p;
	w->old = old;
	w->new = new;
	w->event = *ev;
	cma_id_get(p);
	queue_work(cma_wq, &w->work);
	return 0;
}

/* ------------------------------------------------------------------ */
/* Listening                                                           */
/* ------------------------------------------------------------------ */

/* Under cma_lock: a child of wildcard listener @p on @cma_dev. */
static int cma_listen_on_dev(struct rdma_id_private *p,
			     struct cma_device *cma_dev)
{
	struct rdma_id_private *c;
	int ret;

	c = cma_alloc_id(cma_net(p), p->id.event_handler, p->id.context,
			 p->id.ps, p->id.qp_type);
	if (!c)
		return -ENOMEM;
	cma_inherit_owner(c, p);
	c->internal = true;
	c->state = RDMA_CM_LISTEN;
	c->afonly = p->afonly;
	memcpy(&c->id.route.addr.src_addr, &p->id.route.addr.src_addr,
	       sizeof(c->id.route.addr.src_addr));
	cma_attach(c, cma_dev, 0, NULL);
	list_add_tail(&c->listen_item, &p->listen_list);
	ret = cma_ib_listen(c);
	if (ret)
		dev_warn(&cma_dev->device->dev,
			 "rdma_cm: listen on service %llx failed: %d\n",
			 be64_to_cpu(rdma_get_service_id(&p->id,
							 cma_src_addr(p))),
			 ret);
	return 0;
}

int rdma_listen(struct rdma_cm_id *id, int backlog)
{
	struct rdma_id_private *p = to_id_priv(id);
	struct cma_device *cma_dev;
	bool locked = cma_lock_handler(p);
	int ret;

	if (!cma_comp_exch(p, RDMA_CM_ADDR_BOUND, RDMA_CM_LISTEN)) {
		struct sockaddr_in any = { .sin_family = AF_INET };

		if (READ_ONCE(p->state) != RDMA_CM_IDLE) {
			ret = -EINVAL;
			goto out;
		}
		ret = cma_bind_locked(p, (struct sockaddr *)&any);
		if (ret)
			goto out;
		if (!cma_comp_exch(p, RDMA_CM_ADDR_BOUND, RDMA_CM_LISTEN)) {
			ret = -EINVAL;
			goto out;
		}
	}

	mutex_lock(&cma_lock);
	if (p->reuseaddr) {
		ret = cma_check_port(p->bind_list, p, false);
		if (ret) {
			mutex_unlock(&cma_lock);
			goto err;
		}
		p->reuseaddr = 0;
	}
	p->backlog = backlog;
	if (p->cma_dev) {
		ret = cma_ib_listen(p);
		if (ret) {
			mutex_unlock(&cma_lock);
			goto err;
		}
	} else {
		list_add_tail(&p->listen_any_item, &cma_listen_any);
		list_for_each_entry(cma_dev, &cma_dev_list, list)
			cma_listen_on_dev(p, cma_dev);
	}
	mutex_unlock(&cma_lock);
	ret = 0;
	goto out;
err:
	cma_comp_exch(p, RDMA_CM_LISTEN, RDMA_CM_ADDR_BOUND);
out:
	cma_unlock_handler(p, locked);
	return ret;
}
EXPORT_SYMBOL(rdma_listen);

/* ------------------------------------------------------------------ */
/* Options                                                             */
/* ------------------------------------------------------------------ */

void rdma_set_service_type(struct rdma_cm_id *id, int tos)
{
	struct rdma_id_private *p = to_id_priv(id);

	p->tos = (u8)tos;
	p->tos_set = 1;
}
EXPORT_SYMBOL(rdma_set_service_type);

int rdma_set_reuseaddr(struct rdma_cm_id *id, int reuse)
{
	struct rdma_id_private *p = to_id_priv(id);
	unsigned long flags;
	int ret = 0;

	spin_lock_irqsave(&p->lock, flags);
	if ((reuse && p->state != RDMA_CM_LISTEN) || p->state == RDMA_CM_IDLE)
		p->reuseaddr = !!reuse;
	else
		ret = -EINVAL;
	spin_unlock_irqrestore(&p->lock, flags);
	return ret;
}
EXPORT_SYMBOL(rdma_set_reuseaddr);

int rdma_set_afonly(struct rdma_cm_id *id, int afonly)
{
	struct rdma_id_private *p = to_id_priv(id);
	unsigned long flags;
	int ret = 0;

	spin_lock_irqsave(&p->lock, flags);
	if (p->state == RDMA_CM_IDLE || p->state == RDMA_CM_ADDR_BOUND) {
		p->afonly = !!afonly;
		p->afonly_set = 1;
	} else {
		ret = -EINVAL;
	}
	spin_unlock_irqrestore(&p->lock, flags);
	return ret;
}
EXPORT_SYMBOL(rdma_set_afonly);

int rdma_set_ack_timeout(struct rdma_cm_id *id, u8 timeout)
{
	struct rdma_id_private *p = to_id_priv(id);

	if (id->qp_type != IB_QPT_RC && id->qp_type != IB_QPT_XRC_INI)
		return -EINVAL;
	p->timeout = timeout;
	p->timeout_set = 1;
	return 0;
}
EXPORT_SYMBOL(rdma_set_ack_timeout);

int rdma_set_min_rnr_timer(struct rdma_cm_id *id, u8 min_rnr_timer)
{
	struct rdma_id_private *p = to_id_priv(id);

	if (id->qp_type != IB_QPT_RC && id->qp_type != IB_QPT_XRC_TGT)
		return -EINVAL;
	p->min_rnr_timer = min_rnr_timer;
	p->min_rnr_timer_set = 1;
	return 0;
}
EXPORT_SYMBOL(rdma_set_min_rnr_timer);

/* ------------------------------------------------------------------ */
/* QP attributes and kernel QPs                                        */
/* ------------------------------------------------------------------ */

static int cma_init_qp_attr_locked(struct rdma_id_private *p,
				   struct ib_qp_attr *attr, int *mask)
{
	int ret = 0;

	if (!p->id.device)
		return -EINVAL;
	if (p->cm_id && p->id.qp_type != IB_QPT_UD) {
		/*
		 * The PSNs are ib_cm's: each side's message carries the
		 * starting PSN that ib_cm gives the QP attributes.
		 */
		ret = ib_cm_init_qp_attr(p->cm_id, attr, mask);
	} else {
		if (attr->qp_state != IB_QPS_INIT && p->id.qp_type != IB_QPT_UD)
			return -EINVAL;
		attr->pkey_index = 0;
		attr->port_num = p->id.port_num ?: 1;
		*mask = IB_QP_STATE | IB_QP_PKEY_INDEX | IB_QP_PORT;
		if (p->id.qp_type == IB_QPT_UD) {
			if (!p->qkey)
				p->qkey = RDMA_UDP_QKEY;
			attr->qkey = p->qkey;
			*mask |= IB_QP_QKEY;
		} else {
			attr->qp_access_flags = 0;
			*mask |= IB_QP_ACCESS_FLAGS;
		}
	}
	if (ret)
		return ret;
	if ((*mask & IB_QP_TIMEOUT) && p->timeout_set)
		attr->timeout = p->timeout;
	if ((*mask & IB_QP_MIN_RNR_TIMER) && p->min_rnr_timer_set)
		attr->min_rnr_timer = p->min_rnr_timer;
	return 0;
}

int rdma_init_qp_attr(struct rdma_cm_id *id, struct ib_qp_attr *qp_attr,
		      int *qp_attr_mask)
{
	struct rdma_id_private *p = to_id_priv(id);
	bool locked = cma_lock_handler(p);
	int ret = cma_init_qp_attr_locked(p, qp_attr, qp_attr_mask);

	cma_unlock_handler(p, locked);
	return ret;
}
EXPORT_SYMBOL(rdma_init_qp_attr);

static int cma_modify_qp(struct rdma_id_private *p, enum ib_qp_state state,
			 const struct rdma_conn_param *param)
{
	struct ib_qp_attr attr = { .qp_state = state };
	int mask, ret;

	if (!p->id.qp)
		return 0;
	ret = cma_init_qp_attr_locked(p, &attr, &mask);
	if (ret)
		return ret;
	if (param && state == IB_QPS_RTR)
		attr.max_dest_rd_atomic = param->responder_resources;
	if (param && state == IB_QPS_RTS)
		attr.max_rd_atomic = param->initiator_depth;
	return ib_modify_qp(p->id.qp, &attr, mask);
}

/*
 * The kernel QP through INIT, RTR, RTS as the connection negotiated.  A
 * passive side whose ib_cm gives RTS attributes only once the REP is
 * out finishes with cma_modify_qp_rts() at ESTABLISHED.
 */
int cma_modify_qp_rtr_rts(struct rdma_id_private *p,
			  const struct rdma_conn_param *param)
{
	int ret;

	if (!p->id.qp)
		return 0;
	ret = cma_modify_qp(p, IB_QPS_INIT, NULL);
	if (!ret)
		ret = cma_modify_qp(p, IB_QPS_RTR, param);
	if (!ret) {
		ret = cma_modify_qp(p, IB_QPS_RTS, param);
		p->rts_pending = ret == -EINVAL;
		if (p->rts_pending) {
			p->initiator_depth = param ? param->initiator_depth : 0;
			ret = 0;
		}
	}
	return ret;
}

int cma_modify_qp_rts(struct rdma_id_private *p)
{
	struct rdma_conn_param param = { .initiator_depth = p->initiator_depth };

	if (!p->rts_pending)
		return 0;
	p->rts_pending = 0;
	return cma_modify_qp(p, IB_QPS_RTS, &param);
}

int cma_modify_qp_err(struct rdma_id_private *p)
{
	struct ib_qp_attr attr = { .qp_state = IB_QPS_ERR };

	if (!p->id.qp)
		return 0;
	return ib_modify_qp(p->id.qp, &attr, IB_QP_STATE);
}

int rdma_create_qp(struct rdma_cm_id *id, struct ib_pd *pd,
		   struct ib_qp_init_attr *init)
{
	struct rdma_id_private *p = to_id_priv(id);
	struct ib_qp_attr attr = { .qp_state = IB_QPS_INIT };
	bool locked = cma_lock_handler(p);
	struct ib_qp *qp;
	int mask, ret;

	if (!id->device || id->device != pd->device || id->qp) {
		ret = -EINVAL;
		goto out;
	}
	init->port_num = id->port_num;
	qp = ib_create_qp(pd, init);
	if (IS_ERR(qp)) {
		ret = PTR_ERR(qp);
		goto out;
	}
	ret = cma_init_qp_attr_locked(p, &attr, &mask);
	if (!ret)
		ret = ib_modify_qp(qp, &attr, mask);
	if (!ret && id->qp_type == IB_QPT_UD) {
		attr.qp_state = IB_QPS_RTR;
		ret = ib_modify_qp(qp, &attr, IB_QP_STATE);
		if (!ret) {
			attr.qp_state = IB_QPS_RTS;
			attr.sq_psn = 0;
			ret = ib_modify_qp(qp, &attr,
					   IB_QP_STATE | IB_QP_SQ_PSN);
		}
	}
	if (ret) {
		ib_destroy_qp(qp);
		goto out;
	}
	id->qp = qp;
	p->qp_num = qp->qp_num;
	p->srq = !!qp->srq;
out:
	cma_unlock_handler(p, locked);
	return ret;
}
EXPORT_SYMBOL(rdma_create_qp);

void rdma_destroy_qp(struct rdma_cm_id *id)
{
	struct rdma_id_private *p = to_id_priv(id);
	bool locked = cma_lock_handler(p);

	if (id->qp)
		ib_destroy_qp(id->qp);
	id->qp = NULL;
	cma_unlock_handler(p, locked);
}
EXPORT_SYMBOL(rdma_destroy_qp);

/* ------------------------------------------------------------------ */
/* Devices                                                             */
/* ------------------------------------------------------------------ */

static int cma_add_one(struct ib_device *device)
{
	struct cma_device *cma_dev;
	struct rdma_id_private *p;

	cma_dev = kzalloc(sizeof(*cma_dev), GFP_KERNEL);
	if (!cma_dev)
		return -ENOMEM;
	cma_dev->device = device;
	INIT_LIST_HEAD(&cma_dev->id_list);
	INIT_LIST_HEAD(&cma_dev->ib_listens);
	kref_init(&cma_dev->kref);

	mutex_lock(&cma_lock);
	list_add_tail(&cma_dev->list, &cma_dev_list);
	list_for_each_entry(p, &cma_listen_any, listen_any_item)
		cma_listen_on_dev(p, cma_dev);
	mutex_unlock(&cma_lock);
	ib_set_client_data(device, &cma_client, cma_dev);
	return 0;
}

/*
 * One id of a device going away; called with a reference, which it
 * drops (before destroying the id, whose teardown waits for them all).
 */
static void cma_remove_id(struct rdma_id_private *p)
{
	struct rdma_cm_event ev = { .event = RDMA_CM_EVENT_DEVICE_REMOVAL };
	enum rdma_cm_state old;
	struct ib_cm_id *cm_id;
	bool ours;

	mutex_lock(&p->handler_mutex);
	old = READ_ONCE(p->state);
	if (p->internal && old != RDMA_CM_DESTROYING) {
		/* Ours to destroy unless its parent took it already. */
		mutex_lock(&cma_lock);
		ours = !list_empty(&p->listen_item);
		list_del_init(&p->listen_item);
		mutex_unlock(&cma_lock);
		if (ours) {
			cma_id_put(p);
			cma_destroy_locked(p);
			return;
		}
		old = RDMA_CM_DESTROYING;
	}
	if (old == RDMA_CM_DESTROYING) {
		/*
		 * Its destroyer still tears down what it holds on the device
		 * and detaches it last; the device must outlive that.  (The
		 * destroyer waits for our reference only after detaching.)
		 */
		mutex_unlock(&p->handler_mutex);
		wait_event(cma_detach_wq, !READ_ONCE(p->cma_dev));
		cma_id_put(p);
		return;
	}
	if (old == RDMA_CM_DEVICE_REMOVAL) {
		mutex_unlock(&p->handler_mutex);
		cma_detach(p);
		cma_id_put(p);
		return;
	}
	cma_exch(p, RDMA_CM_DEVICE_REMOVAL);
	cma_modify_qp_err(p);
	if (cma_deliver(p, &ev)) {
		cma_id_put(p);
		cma_destroy_locked(p);
		return;
	}
	cm_id = p->cm_id;
	p->cm_id = NULL;
	mutex_unlock(&p->handler_mutex);
	if (cm_id)
		ib_destroy_cm_id(cm_id);
	if (old == RDMA_CM_LISTEN)
		cma_ib_unlisten(p);
	cma_leave_all(p);
	cma_detach(p);
	cma_id_put(p);
}

static void cma_remove_one(struct ib_device *device, void *client_data)
{
	struct cma_device *cma_dev = client_data;
	struct rdma_id_private *p;

	if (!cma_dev)
		return;
	mutex_lock(&cma_lock);
	list_del(&cma_dev->list);
	while ((p = list_first_entry_or_null(&cma_dev->id_list,
					     struct rdma_id_private,
					     device_item))) {
		/* Off the list now so that the loop moves on. */
		list_del_init(&p->device_item);
		cma_id_get(p);
		mutex_unlock(&cma_lock);
		cma_remove_id(p);
		mutex_lock(&cma_lock);
	}
	mutex_unlock(&cma_lock);
	kref_put(&cma_dev->kref, cma_cdev_release);
}

/* ------------------------------------------------------------------ */
/* `rdma res show cm_id`                                               */
/* ------------------------------------------------------------------ */

/* The attributes of one id, as in-tree nldev puts them. */
static int cma_fill_res_entry(struct sk_buff *msg, struct rdma_id_private *p)
{
	struct rdma_addr *addr = &p->id.route.addr;
	pid_t pid = p->owner ? pid_vnr(p->owner) : 0;

	if (p->id.port_num &&
	    nla_put_u32(msg, RDMA_NLDEV_ATTR_PORT_INDEX, p->id.port_num))
		return -EMSGSIZE;
	if (p->qp_num &&
	    (nla_put_u32(msg, RDMA_NLDEV_ATTR_RES_LQPN, p->qp_num) ||
	     nla_put_u8(msg, RDMA_NLDEV_ATTR_RES_TYPE, p->id.qp_type)))
		return -EMSGSIZE;
	if (nla_put_u32(msg, RDMA_NLDEV_ATTR_RES_PS, p->id.ps) ||
	    nla_put_u8(msg, RDMA_NLDEV_ATTR_RES_STATE, READ_ONCE(p->state)))
		return -EMSGSIZE;
	if (addr->src_addr.ss_family &&
	    nla_put(msg, RDMA_NLDEV_ATTR_RES_SRC_ADDR, sizeof(addr->src_addr),
		    &addr->src_addr))
		return -EMSGSIZE;
	if (addr->dst_addr.ss_family &&
	    nla_put(msg, RDMA_NLDEV_ATTR_RES_DST_ADDR, sizeof(addr->dst_addr),
		    &addr->dst_addr))
		return -EMSGSIZE;
	if (nla_put_u32(msg, RDMA_NLDEV_ATTR_RES_CM_IDN, p->res_id))
		return -EMSGSIZE;
	/* (a process that has exited leaves no pid, as in-tree) */
	if (pid)
		return nla_put_u32(msg, RDMA_NLDEV_ATTR_RES_PID, pid);
	if (!p->owner && p->kern_name)
		return nla_put_string(msg, RDMA_NLDEV_ATTR_RES_KERN_NAME,
				      p->kern_name);
	return 0;
}

static int cma_fill_res_cm_ids(struct ib_device *ibdev, void *client_data,
			       u32 port, struct sk_buff *msg,
			       unsigned long *pos)
{
	struct cma_device *cma_dev = client_data;
	struct rdma_id_private *p;
	unsigned long i = 0;
	int ret = 0;

	if (!cma_dev)
		return 0;
	mutex_lock(&cma_lock);
	list_for_each_entry(p, &cma_dev->id_list, device_item) {
		struct nlattr *e;

		if (i++ < *pos || (port && p->id.port_num != port))
			continue;
		e = nla_nest_start(msg, RDMA_NLDEV_ATTR_RES_CM_ID_ENTRY);
		if (!e || cma_fill_res_entry(msg, p)) {
			if (e)
				nla_nest_cancel(msg, e);
			ret = -EMSGSIZE;
			break;
		}
		nla_nest_end(msg, e);
		*pos = i;
	}
	mutex_unlock(&cma_lock);
	return ret;
}

/* Registered by the module's init (cma_main.c) once cma_wq exists. */
struct ib_client cma_client = {
	.name = "cma",
	.add = cma_add_one,
	.remove = cma_remove_one,
	.fill_res_cm_ids = cma_fill_res_cm_ids,
};
