// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Queue pairs.
 *
 * libibverbs 44 creates a QP with the ioctl method UVERBS_METHOD_QP_CREATE
 * and destroys it with UVERBS_METHOD_QP_DESTROY, falling back to the
 * CREATE_QP (or extended CREATE_QP) and DESTROY_QP write commands only
 * when those methods are missing.  QUERY_QP, MODIFY_QP (plain and
 * extended), POST_SEND, POST_RECV, ATTACH_MCAST and DETACH_MCAST exist as
 * write commands only.
 *
 * Userspace may create RC, UC and UD QPs (the types a device here can
 * have); RAW_PACKET needs CAP_NET_RAW and then, like XRC initiators and
 * driver QPs, gets the -EOPNOTSUPP a driver without them answers; XRC
 * targets (no XRC domain can exist) and unknown types are -EINVAL.
 *
 * A QP counts in the usecnt of its PD, of its send and receive CQs (twice
 * when they are the same CQ, as in-tree) and of its SRQ, which therefore
 * refuse destruction while it lives and are torn down after it.
 *
 * The QP's async events go to the async event file it was created with
 * (the ioctl's EVENT_FD, else the command file's first one); DESTROY_QP
 * reports how many of them userspace has read, so that libibverbs waits
 * for the matching acks, and takes back the unread ones.
 *
 * Work requests: librxe writes WQEs into rings shared with the driver
 * and uses POST_SEND with no WR as a doorbell; receive WQEs need none.
 * The commands therefore take no WR (-EINVAL with the first WR reported
 * bad); a WR-less POST_SEND / POST_RECV rings the driver's doorbell.
 *
 * Multicast: each QP keeps the (GID, LID) pairs it is attached to.  An
 * attachment that exists already succeeds without the driver, detaching
 * one that does not is -EINVAL, and DESTROY_QP is refused (-EBUSY) while
 * any remain; closing the command file or losing the device detaches
 * them first.
 */
#include <linux/capability.h>
#include <linux/in.h>
#include <linux/overflow.h>
#include <linux/slab.h>
#include <net/ipv6.h>
#include "uverbs.h"

/* The attribute bits of the original interface (IB_QP_STATE...DEST_QPN). */
#define UQP_STANDARD_BITS	GENMASK(20, 0)

/* A Q_Key with this bit set is controlled: privileged users only. */
#define UQP_CONTROLLED_QKEY	0x80000000U

/* Kernel-only create flags the extended write command may carry. */
#define UQP_CREATE_CROSS_CHANNEL	(1U << 2)
#define UQP_CREATE_MANAGED_SEND		(1U << 3)
#define UQP_CREATE_MANAGED_RECV		(1U << 4)
#define UQP_CREATE_SOURCE_QPN		(1U << 10)

/* What the uverbs create flags may ask of a driver (ib_qp_init_attr). */
#define UQP_CREATE_DRIVER_FLAGS					\
	(IB_UVERBS_QP_CREATE_BLOCK_MULTICAST_LOOPBACK |			\
	 IB_UVERBS_QP_CREATE_SCATTER_FCS |				\
	 IB_UVERBS_QP_CREATE_CVLAN_STRIPPING |				\
	 IB_UVERBS_QP_CREATE_PCI_WRITE_END_PADDING)

/* Multicast LIDs (IBTA 4.1.1): what an IB port may be attached with. */
#define UQP_MULTICAST_LID_BASE	0xC000
#define UQP_LID_PERMISSIVE	0xFFFF

struct uqp_mcast {
	struct list_head list;
	union ib_gid gid;
	u16 lid;
};

struct uverbs_uqp {
	struct uverbs_uevent_uobj ue;	/* first: freed through it */
	struct mutex mcast_lock;	/* protects @mcast_list */
	struct list_head mcast_list;	/* struct uqp_mcast */
};
static_assert(offsetof(struct uverbs_uqp, ue) == 0);

static struct uverbs_uqp *to_uqp(struct ib_uobject *uobj)
{
	return container_of(uobj, struct uverbs_uqp, ue.uobj);
}

/* ------------------------------------------------------------------ */
/* Per-object async events (QPs and SRQs)                              */
/* ------------------------------------------------------------------ */

void uverbs_uevent_init(struct uverbs_uevent *ue, struct ib_uobject *async)
{
	ue->async = async;
	INIT_LIST_HEAD(&ue->events);
	ue->events_reported = 0;
}

/* From the driver's event handler: any context. */
void uverbs_uevent_report(struct uverbs_uevent *ue, u64 element, u32 type)
{
	struct ib_uverbs_async_event_desc desc = {
		.element = element,
		.event_type = type,
	};

	if (ue->async)
		uverbs_event_add(uverbs_async_queue(ue->async), &desc,
				 sizeof(desc), &ue->events,
				 &ue->events_reported);
}

/* Once the driver reports no more: unread events go, and the file. */
void uverbs_uevent_release(struct uverbs_uevent *ue)
{
	if (ue->async) {
		uverbs_event_forget(uverbs_async_queue(ue->async), &ue->events);
		uverbs_uobj_put(ue->async);
		ue->async = NULL;
	}
}

/* ------------------------------------------------------------------ */
/* The QP object                                                       */
/* ------------------------------------------------------------------ */

static void uqp_event_handler(struct ib_event *event, void *qp_context)
{
	struct ib_uobject *uobj = event->qp->uobject;

	uverbs_uevent_report(uverbs_uevent_of(uobj), uobj->user_handle,
			     event->event);
}

/* Drop every multicast attachment; errors cannot stop a teardown. */
static void uqp_detach_all(struct uverbs_uqp *uqp, struct ib_qp *qp)
{
	struct uqp_mcast *m, *tmp;

	mutex_lock(&uqp->mcast_lock);
	list_for_each_entry_safe(m, tmp, &uqp->mcast_list, list) {
		if (qp->device->ops.detach_mcast)
			qp->device->ops.detach_mcast(qp, &m->gid);
		list_del(&m->list);
		kfree(m);
	}
	mutex_unlock(&uqp->mcast_lock);
}

static int qp_destroy(struct ib_uobject *uobj, enum uverbs_remove_reason why,
		      struct uverbs_attr_bundle *attrs)
{
	struct ib_udata udata = { .uctx = uobj->context };
	struct uverbs_uqp *uqp = to_uqp(uobj);
	struct ib_qp *qp = uobj->object;
	int ret;

	/*
	 * Userspace detaches what it attached before destroying; other
	 * reasons cannot wait for that.  Nothing else can use the QP now
	 * (it is locked exclusively), so the list is stable.
	 */
	if (why == UVERBS_REMOVE_DESTROY) {
		if (!list_empty(&uqp->mcast_list))
			return -EBUSY;
	} else {
		uqp_detach_all(uqp, qp);
	}
	ret = ib_destroy_qp_user(qp, &udata);
	if (ret)
		return ret;
	/* The driver calls the event handler no more. */
	uverbs_uevent_release(&uqp->ue.ev);
	return 0;
}

const struct uverbs_obj_type uverbs_qp_type = {
	.id = UVERBS_OBJECT_QP,
	.size = sizeof(struct uverbs_uqp),
	.destroy = qp_destroy,
};

/* Whether userspace may create a QP of @type here (see the top). */
static int check_qp_type(u64 type)
{
	switch (type) {
	case IB_UVERBS_QPT_RC:
	case IB_UVERBS_QPT_UC:
	case IB_UVERBS_QPT_UD:
		return 0;
	case IB_UVERBS_QPT_RAW_PACKET:
		return capable(CAP_NET_RAW) ? -EOPNOTSUPP : -EPERM;
	case IB_UVERBS_QPT_XRC_INI:
	case IB_UVERBS_QPT_DRIVER:
		return -EOPNOTSUPP;
	default:
		return -EINVAL;
	}
}

struct uqp_params {
	u64 user_handle;
	struct ib_qp_cap cap;		/* in: asked; out: made */
	enum ib_qp_type qp_type;
	bool sq_sig_all;
	u32 create_flags;		/* UQP_CREATE_DRIVER_FLAGS */
};

/*
 * Create the QP of the new object @uobj.  The caller holds lookups of
 * @pd, the CQs and @srq (or NULL); @async is a referenced async file or
 * NULL, whose reference passes to the QP (or is dropped on failure).  The
 * caller aborts @uobj on failure.
 */
static int uqp_create(struct uverbs_attr_bundle *attrs, struct ib_uobject *uobj,
		      struct uqp_params *p, struct ib_pd *pd,
		      struct ib_cq *send_cq, struct ib_cq *recv_cq,
		      struct ib_srq *srq, struct ib_uobject *async)
{
	struct uverbs_uqp *uqp = to_uqp(uobj);
	struct ib_qp_init_attr init = {
		.event_handler = uqp_event_handler,
		.qp_context = uqp,
		.send_cq = send_cq,
		.recv_cq = recv_cq,
		.srq = srq,
		.cap = p->cap,
		.sq_sig_type = p->sq_sig_all ? IB_SIGNAL_ALL_WR :
					       IB_SIGNAL_REQ_WR,
		.qp_type = p->qp_type,
		.create_flags = p->create_flags,
	};
	struct ib_qp *qp;

	uverbs_uevent_init(&uqp->ue.ev, async);
	mutex_init(&uqp->mcast_lock);
	INIT_LIST_HEAD(&uqp->mcast_list);
	uobj->user_handle = p->user_handle;
	/* init.port_num 0: the QP has no port until a MODIFY_QP names one */
	attrs->driver_udata.uctx = uobj->context;
	qp = ib_create_qp_user(pd, &init, uobj, &attrs->driver_udata);
	if (IS_ERR(qp)) {
		uverbs_uevent_release(&uqp->ue.ev);
		return PTR_ERR(qp);
	}
	uobj->object = qp;
	p->cap = init.cap;
	return 0;
}

static void put_read(struct ib_uobject *uobj)
{
	if (uobj)
		uverbs_uobj_lookup_put(uobj, UV_ACCESS_READ);
}

/*
 * The create flags of the extended write command: in-tree's checks, then
 * what no driver here implements (the kernel-only flags) is -EOPNOTSUPP.
 */
static int check_ex_create_flags(u32 flags)
{
	if (flags & ~(IB_UVERBS_QP_CREATE_BLOCK_MULTICAST_LOOPBACK |
		      UQP_CREATE_CROSS_CHANNEL | UQP_CREATE_MANAGED_SEND |
		      UQP_CREATE_MANAGED_RECV |
		      IB_UVERBS_QP_CREATE_SCATTER_FCS |
		      IB_UVERBS_QP_CREATE_CVLAN_STRIPPING |
		      UQP_CREATE_SOURCE_QPN |
		      IB_UVERBS_QP_CREATE_PCI_WRITE_END_PADDING))
		return -EINVAL;
	if ((flags & UQP_CREATE_SOURCE_QPN) && !capable(CAP_NET_RAW))
		return -EPERM;
	if (flags & ~UQP_CREATE_DRIVER_FLAGS)
		return -EOPNOTSUPP;
	return 0;
}

/* CREATE_QP and its extended form; the new QP is left in attrs->uobject. */
static int create_qp_write(struct uverbs_attr_bundle *attrs,
			   const struct ib_uverbs_ex_create_qp *cmd,
			   struct ib_uverbs_create_qp_resp *resp)
{
	struct ib_uobject *uobj, *pd_uobj = NULL, *scq_uobj = NULL;
	struct ib_uobject *rcq_uobj = NULL, *srq_uobj = NULL;
	struct ib_srq *srq = NULL;
	struct uqp_params p = {
		.user_handle = cmd->user_handle,
		.cap = {
			.max_send_wr = cmd->max_send_wr,
			.max_recv_wr = cmd->max_recv_wr,
			.max_send_sge = cmd->max_send_sge,
			.max_recv_sge = cmd->max_recv_sge,
			.max_inline_data = cmd->max_inline_data,
		},
		.qp_type = cmd->qp_type,
		.sq_sig_all = cmd->sq_sig_all,
		.create_flags = cmd->create_flags,
	};
	struct ib_uobject *tmp;
	int ret;

	ret = check_qp_type(cmd->qp_type);
	if (ret)
		return ret;
	uobj = uverbs_uobj_alloc(&uverbs_qp_type, attrs);
	if (IS_ERR(uobj))
		return PTR_ERR(uobj);
	/* No device here has receive WQ indirection tables. */
	if (cmd->comp_mask & IB_UVERBS_CREATE_QP_MASK_IND_TABLE) {
		ret = -EOPNOTSUPP;
		goto err_abort;
	}
	if (cmd->is_srq) {
		tmp = uverbs_uobj_lookup(&uverbs_srq_type, cmd->srq_handle,
					 UV_ACCESS_READ, attrs);
		if (IS_ERR(tmp)) {
			ret = PTR_ERR(tmp);
			goto err_put;
		}
		srq_uobj = tmp;
		srq = srq_uobj->object;
		if (srq->srq_type == IB_SRQT_XRC) {
			ret = -EINVAL;
			goto err_put;
		}
	}
	if (cmd->recv_cq_handle != cmd->send_cq_handle) {
		tmp = uverbs_uobj_lookup(&uverbs_cq_type, cmd->recv_cq_handle,
					 UV_ACCESS_READ, attrs);
		if (IS_ERR(tmp)) {
			ret = PTR_ERR(tmp);
			goto err_put;
		}
		rcq_uobj = tmp;
	}
	tmp = uverbs_uobj_lookup(&uverbs_cq_type, cmd->send_cq_handle,
				 UV_ACCESS_READ, attrs);
	if (IS_ERR(tmp)) {
		ret = PTR_ERR(tmp);
		goto err_put;
	}
	scq_uobj = tmp;
	tmp = uverbs_uobj_lookup(&uverbs_pd_type, cmd->pd_handle,
				 UV_ACCESS_READ, attrs);
	if (IS_ERR(tmp)) {
		ret = PTR_ERR(tmp);
		goto err_put;
	}
	pd_uobj = tmp;
	ret = check_ex_create_flags(cmd->create_flags);
	if (ret)
		goto err_put;

	ret = uqp_create(attrs, uobj, &p, pd_uobj->object, scq_uobj->object,
			 (rcq_uobj ?: scq_uobj)->object, srq,
			 uverbs_get_async_file(attrs->ufile, NULL));
	if (ret)
		goto err_put;
	put_read(pd_uobj);
	put_read(scq_uobj);
	put_read(rcq_uobj);
	put_read(srq_uobj);

	/* The dispatcher commits it, or destroys it if the reply fails. */
	attrs->uobject = uobj;
	resp->qp_handle = uobj->id;
	resp->qpn = ((struct ib_qp *)uobj->object)->qp_num;
	resp->max_send_wr = p.cap.max_send_wr;
	resp->max_recv_wr = p.cap.max_recv_wr;
	resp->max_send_sge = p.cap.max_send_sge;
	resp->max_recv_sge = p.cap.max_recv_sge;
	resp->max_inline_data = p.cap.max_inline_data;
	return 0;

err_put:
	put_read(pd_uobj);
	put_read(scq_uobj);
	put_read(rcq_uobj);
	put_read(srq_uobj);
err_abort:
	uverbs_uobj_abort(uobj, false, attrs);
	return ret;
}

int uverbs_cmd_create_qp(struct uverbs_attr_bundle *attrs)
{
	struct ib_uverbs_create_qp_resp resp = {};
	struct ib_uverbs_ex_create_qp ex = {};
	struct ib_uverbs_create_qp cmd;
	int ret;

	ret = uverbs_request(attrs, &cmd, sizeof(cmd));
	if (ret)
		return ret;
	ex.user_handle = cmd.user_handle;
	ex.pd_handle = cmd.pd_handle;
	ex.send_cq_handle = cmd.send_cq_handle;
	ex.recv_cq_handle = cmd.recv_cq_handle;
	ex.srq_handle = cmd.srq_handle;
	ex.max_send_wr = cmd.max_send_wr;
	ex.max_recv_wr = cmd.max_recv_wr;
	ex.max_send_sge = cmd.max_send_sge;
	ex.max_recv_sge = cmd.max_recv_sge;
	ex.max_inline_data = cmd.max_inline_data;
	ex.sq_sig_all = cmd.sq_sig_all;
	ex.qp_type = cmd.qp_type;
	ex.is_srq = cmd.is_srq;
	ret = create_qp_write(attrs, &ex, &resp);
	if (ret)
		return ret;
	return uverbs_response(attrs, &resp, sizeof(resp));
}

int uverbs_cmd_ex_create_qp(struct uverbs_attr_bundle *attrs)
{
	struct ib_uverbs_ex_create_qp_resp resp = {};
	struct ib_uverbs_ex_create_qp cmd;
	int ret;

	ret = uverbs_request(attrs, &cmd, sizeof(cmd));
	if (ret)
		return ret;
	if (cmd.comp_mask & ~IB_UVERBS_CREATE_QP_SUP_COMP_MASK)
		return -EINVAL;
	if (cmd.reserved)
		return -EINVAL;
	ret = create_qp_write(attrs, &cmd, &resp.base);
	if (ret)
		return ret;
	resp.response_length = min_t(size_t, attrs->ucore.outlen, sizeof(resp));
	return uverbs_response(attrs, &resp, sizeof(resp));
}

/* ------------------------------------------------------------------ */
/* QUERY_QP and MODIFY_QP                                              */
/* ------------------------------------------------------------------ */

static void ah_attr_to_dest(const struct ib_ah_attr *attr,
			    struct ib_uverbs_qp_dest *dest)
{
	dest->dlid = attr->dlid;
	dest->sl = attr->sl;
	dest->src_path_bits = attr->src_path_bits;
	dest->static_rate = attr->static_rate;
	dest->is_global = !!attr->is_global;
	if (dest->is_global) {
		memcpy(dest->dgid, attr->dgid.raw, sizeof(dest->dgid));
		dest->flow_label = attr->flow_label;
		dest->sgid_index = attr->sgid_index;
		dest->hop_limit = attr->hop_limit;
		dest->traffic_class = attr->traffic_class;
	}
	dest->port_num = attr->port_num;
}

static void dest_to_ah_attr(const struct ib_uverbs_qp_dest *dest,
			    struct ib_ah_attr *attr)
{
	attr->is_global = !!dest->is_global;
	if (attr->is_global) {
		memcpy(attr->dgid.raw, dest->dgid, sizeof(attr->dgid.raw));
		attr->flow_label = dest->flow_label;
		attr->sgid_index = dest->sgid_index;
		attr->hop_limit = dest->hop_limit;
		attr->traffic_class = dest->traffic_class;
	}
	attr->dlid = dest->dlid;
	attr->sl = dest->sl;
	attr->src_path_bits = dest->src_path_bits;
	attr->static_rate = dest->static_rate;
	attr->port_num = dest->port_num;
}

int uverbs_cmd_query_qp(struct uverbs_attr_bundle *attrs)
{
	struct ib_uverbs_query_qp_resp resp = {};
	struct ib_qp_init_attr init = {};
	struct ib_uverbs_query_qp cmd;
	struct ib_qp_attr attr = {};
	struct ib_uobject *uobj;
	struct ib_qp *qp;
	int ret;

	if (!attrs->ibdev->ops.query_qp)
		return -EOPNOTSUPP;
	ret = uverbs_request(attrs, &cmd, sizeof(cmd));
	if (ret)
		return ret;
	uobj = uverbs_uobj_lookup(&uverbs_qp_type, cmd.qp_handle,
				  UV_ACCESS_READ, attrs);
	if (IS_ERR(uobj))
		return PTR_ERR(uobj);
	qp = uobj->object;
	ret = qp->device->ops.query_qp(qp, &attr, cmd.attr_mask, &init);
	uverbs_uobj_lookup_put(uobj, UV_ACCESS_READ);
	if (ret)
		return ret;

	resp.qp_state = attr.qp_state;
	resp.cur_qp_state = attr.cur_qp_state;
	resp.path_mtu = attr.path_mtu;
	resp.path_mig_state = attr.path_mig_state;
	resp.qkey = attr.qkey;
	resp.rq_psn = attr.rq_psn;
	resp.sq_psn = attr.sq_psn;
	resp.dest_qp_num = attr.dest_qp_num;
	resp.qp_access_flags = attr.qp_access_flags;
	resp.pkey_index = attr.pkey_index;
	resp.alt_pkey_index = attr.alt_pkey_index;
	resp.sq_draining = attr.sq_draining;
	resp.max_rd_atomic = attr.max_rd_atomic;
	resp.max_dest_rd_atomic = attr.max_dest_rd_atomic;
	resp.min_rnr_timer = attr.min_rnr_timer;
	resp.port_num = attr.port_num;
	resp.timeout = attr.timeout;
	resp.retry_cnt = attr.retry_cnt;
	resp.rnr_retry = attr.rnr_retry;
	resp.alt_port_num = attr.alt_port_num;
	resp.alt_timeout = attr.alt_timeout;
	ah_attr_to_dest(&attr.ah_attr, &resp.dest);
	ah_attr_to_dest(&attr.alt_ah_attr, &resp.alt_dest);
	resp.max_send_wr = init.cap.max_send_wr;
	resp.max_recv_wr = init.cap.max_recv_wr;
	resp.max_send_sge = init.cap.max_send_sge;
	resp.max_recv_sge = init.cap.max_recv_sge;
	resp.max_inline_data = init.cap.max_inline_data;
	resp.sq_sig_all = init.sq_sig_type == IB_SIGNAL_ALL_WR;
	return uverbs_response(attrs, &resp, sizeof(resp));
}

/* An IB port (not RoCE): the only kind alternate paths are possible on. */
/*
 * The port checks of in-tree's uverbs, on the command as userspace sent
 * it; may add IB_QP_PORT to the mask (a new primary AV outside INIT->RTR
 * moves the QP to that AV's port).
 */
static int check_modify_ports(struct ib_qp *qp, struct ib_uverbs_modify_qp *b)
{
	struct ib_device *ibdev = qp->device;

	if ((b->attr_mask & IB_QP_PORT) &&
	    !rdma_is_port_valid(ibdev, b->port_num))
		return -EINVAL;
	if (b->attr_mask & IB_QP_AV) {
		if (!rdma_is_port_valid(ibdev, b->dest.port_num))
			return -EINVAL;
		if ((b->attr_mask & IB_QP_STATE) &&
		    b->qp_state == IB_QPS_RTR) {
			/* RTR cannot change the port INIT gave the QP */
			if (b->dest.port_num != READ_ONCE(qp->port_num))
				return -EINVAL;
		} else {
			/* SQD->SQD: the AV and the port move together */
			if ((b->attr_mask & IB_QP_PORT) &&
			    b->port_num != b->dest.port_num)
				return -EINVAL;
			if (!(b->attr_mask & IB_QP_PORT)) {
				b->attr_mask |= IB_QP_PORT;
				b->port_num = b->dest.port_num;
			}
		}
	}
	if ((b->attr_mask & IB_QP_ALT_PATH) &&
	    (!rdma_is_port_valid(ibdev, b->alt_port_num) ||
	     !rdma_is_port_valid(ibdev, b->alt_dest.port_num) ||
	     b->alt_port_num != b->alt_dest.port_num))
		return -EINVAL;
	return 0;
}

static void modify_cmd_to_attr(const struct ib_uverbs_ex_modify_qp *cmd,
			       struct ib_qp_attr *attr)
{
	const struct ib_uverbs_modify_qp *b = &cmd->base;
	u32 mask = b->attr_mask;

	if (mask & IB_QP_STATE)
		attr->qp_state = b->qp_state;
	if (mask & IB_QP_CUR_STATE)
		attr->cur_qp_state = b->cur_qp_state;
	if (mask & IB_QP_PATH_MTU)
		attr->path_mtu = b->path_mtu;
	if (mask & IB_QP_PATH_MIG_STATE)
		attr->path_mig_state = b->path_mig_state;
	if (mask & IB_QP_QKEY)
		attr->qkey = b->qkey;
	/* PSNs are 24 bits on IB and RoCE: the excess is dropped. */
	if (mask & IB_QP_RQ_PSN)
		attr->rq_psn = b->rq_psn & 0xffffff;
	if (mask & IB_QP_SQ_PSN)
		attr->sq_psn = b->sq_psn & 0xffffff;
	if (mask & IB_QP_DEST_QPN)
		attr->dest_qp_num = b->dest_qp_num;
	if (mask & IB_QP_ACCESS_FLAGS)
		attr->qp_access_flags = b->qp_access_flags;
	if (mask & IB_QP_PKEY_INDEX)
		attr->pkey_index = b->pkey_index;
	if (mask & IB_QP_EN_SQD_ASYNC_NOTIFY)
		attr->en_sqd_async_notify = b->en_sqd_async_notify;
	if (mask & IB_QP_MAX_QP_RD_ATOMIC)
		attr->max_rd_atomic = b->max_rd_atomic;
	if (mask & IB_QP_MAX_DEST_RD_ATOMIC)
		attr->max_dest_rd_atomic = b->max_dest_rd_atomic;
	if (mask & IB_QP_MIN_RNR_TIMER)
		attr->min_rnr_timer = b->min_rnr_timer;
	if (mask & IB_QP_PORT)
		attr->port_num = b->port_num;
	if (mask & IB_QP_TIMEOUT)
		attr->timeout = b->timeout;
	if (mask & IB_QP_RETRY_CNT)
		attr->retry_cnt = b->retry_cnt;
	if (mask & IB_QP_RNR_RETRY)
		attr->rnr_retry = b->rnr_retry;
	if (mask & IB_QP_ALT_PATH) {
		attr->alt_port_num = b->alt_port_num;
		attr->alt_timeout = b->alt_timeout;
		attr->alt_pkey_index = b->alt_pkey_index;
		dest_to_ah_attr(&b->alt_dest, &attr->alt_ah_attr);
	}
	if (mask & IB_QP_AV)
		dest_to_ah_attr(&b->dest, &attr->ah_attr);
	if (mask & IB_QP_RATE_LIMIT)
		attr->rate_limit = cmd->rate_limit;
}

/* MODIFY_QP and its extended form, whose mask the callers checked. */
static int modify_qp(struct uverbs_attr_bundle *attrs,
		     struct ib_uverbs_ex_modify_qp *cmd)
{
	struct ib_uverbs_modify_qp *b = &cmd->base;
	struct ib_qp_attr attr = {};
	struct ib_uobject *uobj;
	struct ib_qp *qp;
	u32 mask;
	int ret;

	/* Shared: the driver serializes modifications of a QP. */
	uobj = uverbs_uobj_lookup(&uverbs_qp_type, b->qp_handle,
				  UV_ACCESS_READ, attrs);
	if (IS_ERR(uobj))
		return PTR_ERR(uobj);
	qp = uobj->object;
	ret = check_modify_ports(qp, b);
	if (ret)
		goto out;
	mask = b->attr_mask;
	if (((mask & IB_QP_CUR_STATE) && b->cur_qp_state > IB_QPS_ERR) ||
	    ((mask & IB_QP_STATE) && b->qp_state > IB_QPS_ERR)) {
		ret = -EINVAL;
		goto out;
	}
	if ((mask & IB_QP_QKEY) && (b->qkey & UQP_CONTROLLED_QKEY) &&
	    !ib_privileged_qkey_allowed()) {
		ret = -EPERM;
		goto out;
	}
	modify_cmd_to_attr(cmd, &attr);
	attrs->driver_udata.uctx = uobj->context;
	ret = ib_modify_qp_user(qp, &attr, mask, &attrs->driver_udata);
out:
	uverbs_uobj_lookup_put(uobj, UV_ACCESS_READ);
	return ret;
}

int uverbs_cmd_modify_qp(struct uverbs_attr_bundle *attrs)
{
	struct ib_uverbs_ex_modify_qp cmd = {};
	int ret;

	if (!attrs->ibdev->ops.modify_qp)
		return -EOPNOTSUPP;
	ret = uverbs_request(attrs, &cmd.base, sizeof(cmd.base));
	if (ret)
		return ret;
	if (cmd.base.attr_mask & ~UQP_STANDARD_BITS)
		return -EOPNOTSUPP;
	return modify_qp(attrs, &cmd);
}

int uverbs_cmd_ex_modify_qp(struct uverbs_attr_bundle *attrs)
{
	struct ib_uverbs_ex_modify_qp_resp resp = {};
	struct ib_uverbs_ex_modify_qp cmd;
	int ret;

	if (!attrs->ibdev->ops.modify_qp)
		return -EOPNOTSUPP;
	ret = uverbs_request(attrs, &cmd, sizeof(cmd));
	if (ret)
		return ret;
	/* The last bit is reserved for a second mask. */
	if (cmd.base.attr_mask & ~(UQP_STANDARD_BITS | IB_QP_RATE_LIMIT))
		return -EOPNOTSUPP;
	ret = modify_qp(attrs, &cmd);
	if (ret)
		return ret;
	resp.response_length = min_t(size_t, attrs->ucore.outlen, sizeof(resp));
	return uverbs_response(attrs, &resp, sizeof(resp));
}

/* ------------------------------------------------------------------ */
/* DESTROY_QP                                                          */
/* ------------------------------------------------------------------ */

/* The two destroy commands have one layout, and so have their answers. */
static_assert(sizeof(struct ib_uverbs_destroy_qp) ==
	      sizeof(struct ib_uverbs_destroy_srq));
static_assert(offsetof(struct ib_uverbs_destroy_qp, qp_handle) ==
	      offsetof(struct ib_uverbs_destroy_srq, srq_handle));
static_assert(sizeof(struct ib_uverbs_destroy_qp_resp) ==
	      sizeof(struct ib_uverbs_destroy_srq_resp));

int uverbs_destroy_uevent_cmd(struct uverbs_attr_bundle *attrs,
			      const struct uverbs_obj_type *type)
{
	struct ib_uverbs_destroy_qp_resp resp = {};
	struct ib_uverbs_destroy_qp cmd;
	struct ib_uobject *uobj;
	int ret;

	ret = uverbs_request(attrs, &cmd, sizeof(cmd));
	if (ret)
		return ret;
	uobj = uverbs_uobj_lookup(type, cmd.qp_handle, UV_ACCESS_DESTROY,
				  attrs);
	if (IS_ERR(uobj))
		return PTR_ERR(uobj);
	ret = uverbs_uobj_destroy(uobj, attrs);
	/* Destroyed: no event can be added to the count any more. */
	if (!ret)
		resp.events_reported = uverbs_uevent_of(uobj)->events_reported;
	uverbs_uobj_lookup_put(uobj, UV_ACCESS_DESTROY);
	if (ret)
		return ret;
	return uverbs_response(attrs, &resp, sizeof(resp));
}

/* The framework destroyed the object before calling this. */
int uverbs_destroy_uevent_resp(struct uverbs_attr_bundle *attrs,
			       u16 handle_id, u16 resp_id)
{
	struct ib_uobject *uobj = uverbs_attr_get_uobject(attrs, handle_id);
	struct ib_uverbs_destroy_qp_resp resp = {
		.events_reported = uverbs_uevent_of(uobj)->events_reported,
	};

	return uverbs_copy_to(attrs, resp_id, &resp, sizeof(resp));
}

int uverbs_cmd_destroy_qp(struct uverbs_attr_bundle *attrs)
{
	return uverbs_destroy_uevent_cmd(attrs, &uverbs_qp_type);
}

/* ------------------------------------------------------------------ */
/* Posting work requests                                               */
/* ------------------------------------------------------------------ */

/*
 * The WRs and SGEs that follow the fixed part (@hdr_len bytes) of a post
 * command: they must fit in what was written (-ENOSPC) and anything after
 * them must be zero (-EOPNOTSUPP), as in-tree.
 */
static int uverbs_check_wr_payload(const struct uverbs_attr_bundle *attrs,
				   size_t hdr_len, u32 wr_count, u32 wqe_size,
				   u32 sge_count)
{
	size_t avail = attrs->ucore.inlen - hdr_len;
	size_t wqes = size_mul(wqe_size, wr_count);
	size_t sges = size_mul(sge_count, sizeof(struct ib_uverbs_sge));

	if (wqes > avail)
		return -ENOSPC;
	avail -= wqes;
	if (sges > avail)
		return -ENOSPC;
	avail -= sges;
	if (avail && !uverbs_user_is_zero(attrs->ucore.inbuf + hdr_len +
					  wqes + sges, avail))
		return -EOPNOTSUPP;
	return 0;
}

/*
 * The three post commands have one layout: the response address, the
 * QP's or SRQ's handle, the counts, then the WRs; each answers with the
 * index of the first bad WR.  They are read as POST_RECV's.
 */
static_assert(sizeof(struct ib_uverbs_post_send) ==
	      sizeof(struct ib_uverbs_post_recv));
static_assert(sizeof(struct ib_uverbs_post_srq_recv) ==
	      sizeof(struct ib_uverbs_post_recv));
static_assert(offsetof(struct ib_uverbs_post_send, wqe_size) ==
	      offsetof(struct ib_uverbs_post_recv, wqe_size));
static_assert(offsetof(struct ib_uverbs_post_srq_recv, srq_handle) ==
	      offsetof(struct ib_uverbs_post_recv, qp_handle));
static_assert(offsetof(struct ib_uverbs_post_srq_recv, wqe_size) ==
	      offsetof(struct ib_uverbs_post_recv, wqe_size));
static_assert(sizeof(struct ib_uverbs_post_send_resp) ==
	      sizeof(struct ib_uverbs_post_recv_resp));
static_assert(sizeof(struct ib_uverbs_post_srq_recv_resp) ==
	      sizeof(struct ib_uverbs_post_recv_resp));

/*
 * POST_SEND, POST_RECV and POST_SRQ_RECV: the WRs must fit the command,
 * and each WR at least @wqe_min; any WR is refused, the first reported
 * bad, since WQEs come through the rings shared with the driver; without
 * WRs, @doorbell tells the driver to look at the QP's ring (NULL for an
 * SRQ, whose receive WQEs need none).
 */
int uverbs_post_wrs(struct uverbs_attr_bundle *attrs,
		    const struct uverbs_obj_type *type, size_t wqe_min,
		    int (*doorbell)(struct ib_qp *qp))
{
	struct ib_uverbs_post_recv_resp resp = {};
	struct ib_uverbs_post_recv cmd;
	struct ib_uobject *uobj;
	int ret, ret2;

	/* The dispatcher checked the fixed part's size. */
	if (copy_from_user(&cmd, attrs->ucore.inbuf, sizeof(cmd)))
		return -EFAULT;
	ret = uverbs_check_wr_payload(attrs, sizeof(cmd), cmd.wr_count,
				      cmd.wqe_size, cmd.sge_count);
	if (ret)
		return ret;
	if (cmd.wqe_size < wqe_min)
		return -EINVAL;
	uobj = uverbs_uobj_lookup(type, cmd.qp_handle, UV_ACCESS_READ, attrs);
	if (IS_ERR(uobj))
		return PTR_ERR(uobj);
	if (cmd.wr_count) {
		resp.bad_wr = 1;
		ret = -EINVAL;
	} else if (doorbell) {
		ret = doorbell(uobj->object);
	}
	uverbs_uobj_lookup_put(uobj, UV_ACCESS_READ);
	ret2 = uverbs_response(attrs, &resp, sizeof(resp));
	return ret ?: ret2;
}

int uverbs_cmd_post_send(struct uverbs_attr_bundle *attrs)
{
	if (!attrs->ibdev->ops.post_send)
		return -EOPNOTSUPP;
	return uverbs_post_wrs(attrs, &uverbs_qp_type,
			       sizeof(struct ib_uverbs_send_wr),
			       attrs->ibdev->ops.post_send);
}

int uverbs_cmd_post_recv(struct uverbs_attr_bundle *attrs)
{
	if (!attrs->ibdev->ops.post_recv)
		return -EOPNOTSUPP;
	return uverbs_post_wrs(attrs, &uverbs_qp_type,
			       sizeof(struct ib_uverbs_recv_wr),
			       attrs->ibdev->ops.post_recv);
}

/* ------------------------------------------------------------------ */
/* Multicast                                                           */
/* ------------------------------------------------------------------ */

/* An IPv6 multicast GID, or an IPv4-mapped one of a multicast address. */
static bool gid_is_multicast(const union ib_gid *gid)
{
	const struct in6_addr *a = (const struct in6_addr *)gid->raw;

	return a->s6_addr[0] == 0xff ||
	       (ipv6_addr_v4mapped(a) && ipv4_is_multicast(a->s6_addr32[3]));
}

/*
 * RoCE ignores the multicast LID; an IB port needs one in the multicast
 * range.  The QP's port decides once it has one, else any RoCE port.
 */
static bool mcast_lid_is_valid(struct ib_qp *qp, u16 lid)
{
	struct ib_device *ibdev = qp->device;
	u32 port = READ_ONCE(qp->port_num);

	if (rdma_is_port_valid(ibdev, port)) {
		if (rdma_port_get_link_layer(ibdev, port) !=
		    IB_LINK_LAYER_INFINIBAND)
			return true;
	} else {
		rdma_for_each_port(ibdev, port)
			if (rdma_port_get_link_layer(ibdev, port) !=
			    IB_LINK_LAYER_INFINIBAND)
				return true;
	}
	return lid >= UQP_MULTICAST_LID_BASE && lid != UQP_LID_PERMISSIVE;
}

static int check_mcast(struct ib_qp *qp, const union ib_gid *gid, u16 lid)
{
	if (!gid_is_multicast(gid) || qp->qp_type != IB_QPT_UD ||
	    !mcast_lid_is_valid(qp, lid))
		return -EINVAL;
	return 0;
}

static struct uqp_mcast *find_mcast(struct uverbs_uqp *uqp,
				    const union ib_gid *gid, u16 lid)
{
	struct uqp_mcast *m;

	list_for_each_entry(m, &uqp->mcast_list, list)
		if (m->lid == lid && !memcmp(m->gid.raw, gid->raw,
					     sizeof(gid->raw)))
			return m;
	return NULL;
}

int uverbs_cmd_attach_mcast(struct uverbs_attr_bundle *attrs)
{
	struct ib_uverbs_attach_mcast cmd;
	struct ib_uobject *uobj;
	struct uverbs_uqp *uqp;
	struct uqp_mcast *m;
	union ib_gid gid;
	struct ib_qp *qp;
	int ret;

	if (!attrs->ibdev->ops.attach_mcast || !attrs->ibdev->ops.detach_mcast)
		return -EOPNOTSUPP;
	ret = uverbs_request(attrs, &cmd, sizeof(cmd));
	if (ret)
		return ret;
	memcpy(gid.raw, cmd.gid, sizeof(gid.raw));
	uobj = uverbs_uobj_lookup(&uverbs_qp_type, cmd.qp_handle,
				  UV_ACCESS_READ, attrs);
	if (IS_ERR(uobj))
		return PTR_ERR(uobj);
	uqp = to_uqp(uobj);
	qp = uobj->object;

	mutex_lock(&uqp->mcast_lock);
	/* Attached already: nothing to do. */
	if (find_mcast(uqp, &gid, cmd.mlid))
		goto out;
	m = kmalloc(sizeof(*m), GFP_KERNEL_ACCOUNT);
	if (!m) {
		ret = -ENOMEM;
		goto out;
	}
	m->gid = gid;
	m->lid = cmd.mlid;
	ret = check_mcast(qp, &m->gid, m->lid);
	if (!ret)
		ret = qp->device->ops.attach_mcast(qp, &m->gid);
	if (ret)
		kfree(m);
	else
		list_add_tail(&m->list, &uqp->mcast_list);
out:
	mutex_unlock(&uqp->mcast_lock);
	uverbs_uobj_lookup_put(uobj, UV_ACCESS_READ);
	return ret;
}

int uverbs_cmd_detach_mcast(struct uverbs_attr_bundle *attrs)
{
	struct ib_uverbs_detach_mcast cmd;
	struct ib_uobject *uobj;
	struct uverbs_uqp *uqp;
	struct uqp_mcast *m;
	union ib_gid gid;
	struct ib_qp *qp;
	int ret;

	if (!attrs->ibdev->ops.detach_mcast)
		return -EOPNOTSUPP;
	ret = uverbs_request(attrs, &cmd, sizeof(cmd));
	if (ret)
		return ret;
	memcpy(gid.raw, cmd.gid, sizeof(gid.raw));
	uobj = uverbs_uobj_lookup(&uverbs_qp_type, cmd.qp_handle,
				  UV_ACCESS_READ, attrs);
	if (IS_ERR(uobj))
		return PTR_ERR(uobj);
	uqp = to_uqp(uobj);
	qp = uobj->object;

	mutex_lock(&uqp->mcast_lock);
	m = find_mcast(uqp, &gid, cmd.mlid);
	if (!m) {
		ret = -EINVAL;
		goto out;
	}
	/* Forgotten even if the driver fails, as in-tree. */
	list_del(&m->list);
	ret = check_mcast(qp, &m->gid, m->lid);
	if (!ret)
		ret = qp->device->ops.detach_mcast(qp, &m->gid);
	kfree(m);
out:
	mutex_unlock(&uqp->mcast_lock);
	uverbs_uobj_lookup_put(uobj, UV_ACCESS_READ);
	return ret;
}

/* ------------------------------------------------------------------ */
/* ioctl methods                                                       */
/* ------------------------------------------------------------------ */

/*
 * An extensible PTR_IN structure: what userspace gave, zero-extended (its
 * spec guarantees at least the known part and a zero excess).
 */
static int copy_struct_in(void *to, size_t size,
			  const struct uverbs_attr_bundle *attrs, u16 id)
{
	const struct uv_attr *a = uverbs_attr_get(attrs, id);
	size_t len;

	if (IS_ERR(a))
		return PTR_ERR(a);
	len = min_t(size_t, a->len, size);
	memset(to, 0, size);
	if (a->len <= sizeof(a->data)) {
		memcpy(to, &a->data, len);
		return 0;
	}
	return copy_from_user(to, u64_to_user_ptr(a->data), len) ? -EFAULT : 0;
}

/* As in-tree: only UD and raw packet QPs take creation flags. */
static int check_ioctl_create_flags(u64 type, u64 flags)
{
	flags &= ~(u64)IB_UVERBS_QP_CREATE_SQ_SIG_ALL;
	if (!flags)
		return 0;
	if (type != IB_UVERBS_QPT_RAW_PACKET && type != IB_UVERBS_QPT_UD)
		return -EINVAL;
	if ((flags & (IB_UVERBS_QP_CREATE_SCATTER_FCS |
		      IB_UVERBS_QP_CREATE_CVLAN_STRIPPING)) &&
	    type != IB_UVERBS_QPT_RAW_PACKET)
		return -EINVAL;
	return 0;
}

static int qp_create_method(struct uverbs_attr_bundle *attrs)
{
	struct ib_uobject *uobj =
		uverbs_attr_get_uobject(attrs, UVERBS_ATTR_CREATE_QP_HANDLE);
	struct ib_uobject *pd, *scq, *rcq, *srq_uobj;
	struct ib_uverbs_qp_cap cap;
	struct ib_srq *srq = NULL;
	struct uqp_params p = {};
	u64 type, flags;
	u32 qp_num;
	int ret;

	ret = copy_struct_in(&cap, sizeof(cap), attrs,
			     UVERBS_ATTR_CREATE_QP_CAP);
	if (!ret)
		ret = uverbs_copy_from(&p.user_handle, attrs,
				       UVERBS_ATTR_CREATE_QP_USER_HANDLE,
				       sizeof(p.user_handle));
	if (!ret)
		ret = uverbs_get_const(attrs, UVERBS_ATTR_CREATE_QP_TYPE,
				       &type);
	if (ret)
		return ret;
	ret = check_qp_type(type);
	if (ret)
		return ret;
	pd = uverbs_attr_get_uobject(attrs, UVERBS_ATTR_CREATE_QP_PD_HANDLE);
	if (IS_ERR(pd))
		return PTR_ERR(pd);
	scq = uverbs_attr_get_uobject(attrs,
				      UVERBS_ATTR_CREATE_QP_SEND_CQ_HANDLE);
	if (IS_ERR(scq))
		return PTR_ERR(scq);
	rcq = uverbs_attr_get_uobject(attrs,
				      UVERBS_ATTR_CREATE_QP_RECV_CQ_HANDLE);
	if (IS_ERR(rcq))
		return PTR_ERR(rcq);
	uverbs_get_flags(attrs, UVERBS_ATTR_CREATE_QP_FLAGS, &flags);
	ret = check_ioctl_create_flags(type, flags);
	if (ret)
		return ret;
	/* A source QPN is a raw packet / IPoIB feature no driver has here. */
	if (uverbs_attr_is_valid(attrs, UVERBS_ATTR_CREATE_QP_SOURCE_QPN))
		return -EOPNOTSUPP;
	srq_uobj = uverbs_attr_get_uobject(attrs,
					   UVERBS_ATTR_CREATE_QP_SRQ_HANDLE);
	if (!IS_ERR(srq_uobj)) {
		srq = srq_uobj->object;
		if (srq->srq_type == IB_SRQT_XRC)
			return -EINVAL;
	}

	p.cap.max_send_wr = cap.max_send_wr;
	p.cap.max_recv_wr = cap.max_recv_wr;
	p.cap.max_send_sge = cap.max_send_sge;
	p.cap.max_recv_sge = cap.max_recv_sge;
	p.cap.max_inline_data = cap.max_inline_data;
	p.qp_type = type;
	p.sq_sig_all = flags & IB_UVERBS_QP_CREATE_SQ_SIG_ALL;
	p.create_flags = flags & UQP_CREATE_DRIVER_FLAGS;
	ret = uqp_create(attrs, uobj, &p, pd->object, scq->object, rcq->object,
			 srq, uverbs_get_async_file(attrs->ufile,
				uverbs_attr_get_uobject(attrs,
					UVERBS_ATTR_CREATE_QP_EVENT_FD)));
	if (ret)
		return ret;
	uverbs_finalize_uobj_create(attrs, UVERBS_ATTR_CREATE_QP_HANDLE);

	cap = (struct ib_uverbs_qp_cap){
		.max_send_wr = p.cap.max_send_wr,
		.max_recv_wr = p.cap.max_recv_wr,
		.max_send_sge = p.cap.max_send_sge,
		.max_recv_sge = p.cap.max_recv_sge,
		.max_inline_data = p.cap.max_inline_data,
	};
	ret = uverbs_copy_to_struct_or_zero(attrs,
					    UVERBS_ATTR_CREATE_QP_RESP_CAP,
					    &cap, sizeof(cap));
	if (ret)
		return ret;
	qp_num = ((struct ib_qp *)uobj->object)->qp_num;
	return uverbs_copy_to(attrs, UVERBS_ATTR_CREATE_QP_RESP_QP_NUM,
			      &qp_num, sizeof(qp_num));
}

/* The framework destroyed the QP before calling this. */
static int qp_destroy_method(struct uverbs_attr_bundle *attrs)
{
	return uverbs_destroy_uevent_resp(attrs, UVERBS_ATTR_DESTROY_QP_HANDLE,
					  UVERBS_ATTR_DESTROY_QP_RESP);
}

/*
 * XRC domains and WQ indirection tables do not exist here: a method
 * naming one (mandatory, as libibverbs sends them) is not supported.
 */
static const struct uv_method_def qp_methods[] = {
	UV_METHOD(UVERBS_OBJECT_QP, UVERBS_METHOD_QP_CREATE, qp_create_method,
		  UV_IDR(UVERBS_ATTR_CREATE_QP_HANDLE, UVERBS_OBJECT_QP,
			 UV_ACCESS_NEW, UV_MANDATORY),
		  UV_IDR(UVERBS_ATTR_CREATE_QP_PD_HANDLE, UVERBS_OBJECT_PD,
			 UV_ACCESS_READ, UV_OPTIONAL),
		  UV_IDR(UVERBS_ATTR_CREATE_QP_SRQ_HANDLE, UVERBS_OBJECT_SRQ,
			 UV_ACCESS_READ, UV_OPTIONAL),
		  UV_IDR(UVERBS_ATTR_CREATE_QP_SEND_CQ_HANDLE, UVERBS_OBJECT_CQ,
			 UV_ACCESS_READ, UV_OPTIONAL),
		  UV_IDR(UVERBS_ATTR_CREATE_QP_RECV_CQ_HANDLE, UVERBS_OBJECT_CQ,
			 UV_ACCESS_READ, UV_OPTIONAL),
		  UV_PTR_IN_TYPE(UVERBS_ATTR_CREATE_QP_USER_HANDLE, u64,
				 UV_MANDATORY),
		  UV_PTR_IN(UVERBS_ATTR_CREATE_QP_CAP,
			    UV_STRUCT(struct ib_uverbs_qp_cap, max_inline_data),
			    UV_MANDATORY),
		  UV_CONST_IN(UVERBS_ATTR_CREATE_QP_TYPE, U32_MAX,
			      UV_MANDATORY),
		  UV_FLAGS_IN(UVERBS_ATTR_CREATE_QP_FLAGS,
			      IB_UVERBS_QP_CREATE_BLOCK_MULTICAST_LOOPBACK |
			      IB_UVERBS_QP_CREATE_SCATTER_FCS |
			      IB_UVERBS_QP_CREATE_CVLAN_STRIPPING |
			      IB_UVERBS_QP_CREATE_PCI_WRITE_END_PADDING |
			      IB_UVERBS_QP_CREATE_SQ_SIG_ALL,
			      UV_OPTIONAL),
		  UV_PTR_IN_TYPE(UVERBS_ATTR_CREATE_QP_SOURCE_QPN, u32,
				 UV_OPTIONAL),
		  UV_FD(UVERBS_ATTR_CREATE_QP_EVENT_FD,
			UVERBS_OBJECT_ASYNC_EVENT, UV_ACCESS_READ,
			UV_OPTIONAL),
		  UV_PTR_OUT(UVERBS_ATTR_CREATE_QP_RESP_CAP,
			     UV_STRUCT(struct ib_uverbs_qp_cap,
				       max_inline_data),
			     UV_MANDATORY),
		  UV_PTR_OUT(UVERBS_ATTR_CREATE_QP_RESP_QP_NUM,
			     UV_SIZE_OF(u32), UV_MANDATORY),
		  UV_UHW()),
	UV_METHOD(UVERBS_OBJECT_QP, UVERBS_METHOD_QP_DESTROY,
		  qp_destroy_method,
		  UV_IDR(UVERBS_ATTR_DESTROY_QP_HANDLE, UVERBS_OBJECT_QP,
			 UV_ACCESS_DESTROY, UV_MANDATORY),
		  UV_PTR_OUT(UVERBS_ATTR_DESTROY_QP_RESP,
			     UV_SIZE_OF(struct ib_uverbs_destroy_qp_resp),
			     UV_MANDATORY)),
};

const struct uv_method_table uverbs_qp_methods = UV_METHOD_TABLE(qp_methods);
