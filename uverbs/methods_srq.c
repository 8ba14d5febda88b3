// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Shared receive queues.
 *
 * libibverbs 44 creates an SRQ with the ioctl method
 * UVERBS_METHOD_SRQ_CREATE and destroys it with UVERBS_METHOD_SRQ_DESTROY,
 * falling back to CREATE_SRQ (CREATE_XSRQ for the XRC and tag-matching
 * types) and DESTROY_SRQ only when those methods are missing.  MODIFY_SRQ,
 * QUERY_SRQ and POST_SRQ_RECV exist as write commands only.  MODIFY_SRQ
 * carries driver data (librxe: where to write the new ring's mmap info
 * when max_wr changes).
 *
 * Only basic SRQs can exist: no XRC domain can be created here (an XRC
 * SRQ is -EINVAL, as in-tree when the domain is not found) and no driver
 * does tag matching (-EOPNOTSUPP, what such a driver answers).
 *
 * An SRQ counts in its PD's usecnt; the QPs that use it count in its own
 * and it refuses destruction (-EBUSY) until they are gone.  Its async
 * events (SRQ_LIMIT_REACHED, SRQ_ERR) go to the async event file it was
 * created with, counted for DESTROY_SRQ as for QPs.
 *
 * Receive WQEs are written by librxe into the ring it shares with the
 * driver, so POST_SRQ_RECV takes none (-EINVAL with the first reported
 * bad) and without WRs has nothing to do.
 */
#include <linux/slab.h>
#include "uverbs.h"

static void usrq_event_handler(struct ib_event *event, void *srq_context)
{
	struct ib_uobject *uobj = event->srq->uobject;

	uverbs_uevent_report(uverbs_uevent_of(uobj), uobj->user_handle,
			     event->event);
}

static int srq_destroy(struct ib_uobject *uobj, enum uverbs_remove_reason why,
		       struct uverbs_attr_bundle *attrs)
{
	struct ib_udata udata = { .uctx = uobj->context };
	int ret;

	/* -EBUSY while a QP uses it: teardown retries after those. */
	ret = ib_destroy_srq_user(uobj->object, &udata);
	if (ret)
		return ret;
	/* The driver calls the event handler no more. */
	uverbs_uevent_release(uverbs_uevent_of(uobj));
	return 0;
}

const struct uverbs_obj_type uverbs_srq_type = {
	.id = UVERBS_OBJECT_SRQ,
	.size = sizeof(struct uverbs_uevent_uobj),
	.destroy = srq_destroy,
};

/*
 * Create the basic SRQ of the new object @uobj in @pd (a lookup the
 * caller holds); @init->attr comes back as the driver made it.  @async is
 * a referenced async file or NULL, whose reference passes to the SRQ (or
 * is dropped on failure).  The caller aborts @uobj on failure.
 */
static int usrq_create(struct uverbs_attr_bundle *attrs,
		       struct ib_uobject *uobj, struct ib_srq_init_attr *init,
		       u64 user_handle, struct ib_pd *pd,
		       struct ib_uobject *async)
{
	struct ib_srq *srq;

	uverbs_uevent_init(uverbs_uevent_of(uobj), async);
	uobj->user_handle = user_handle;
	init->event_handler = usrq_event_handler;
	init->srq_context = uobj;
	attrs->driver_udata.uctx = uobj->context;
	srq = ib_create_srq_user(pd, init, uobj, &attrs->driver_udata);
	if (IS_ERR(srq)) {
		uverbs_uevent_release(uverbs_uevent_of(uobj));
		return PTR_ERR(srq);
	}
	uobj->object = srq;
	return 0;
}

/* CREATE_SRQ and CREATE_XSRQ; the new SRQ is left in attrs->uobject. */
static int create_srq_write(struct uverbs_attr_bundle *attrs,
			    const struct ib_uverbs_create_xsrq *cmd)
{
	struct ib_uverbs_create_srq_resp resp = {};
	struct ib_srq_init_attr init = {
		.attr = {
			.max_wr = cmd->max_wr,
			.max_sge = cmd->max_sge,
			.srq_limit = cmd->srq_limit,
		},
		.srq_type = IB_SRQT_BASIC,
	};
	struct ib_uobject *uobj, *pd_uobj, *cq_uobj;
	int ret;

	uobj = uverbs_uobj_alloc(&uverbs_srq_type, attrs);
	if (IS_ERR(uobj))
		return PTR_ERR(uobj);
	switch (cmd->srq_type) {
	case IB_SRQT_BASIC:
		break;
	case IB_SRQT_XRC:
		ret = -EINVAL;		/* no XRC domain can exist */
		goto err_abort;
	case IB_SRQT_TM:
		cq_uobj = uverbs_uobj_lookup(&uverbs_cq_type, cmd->cq_handle,
					     UV_ACCESS_READ, attrs);
		if (IS_ERR(cq_uobj)) {
			ret = PTR_ERR(cq_uobj);
			goto err_abort;
		}
		uverbs_uobj_lookup_put(cq_uobj, UV_ACCESS_READ);
		fallthrough;
	default:
		ret = -EOPNOTSUPP;
		goto err_abort;
	}
	pd_uobj = uverbs_uobj_lookup(&uverbs_pd_type, cmd->pd_handle,
				     UV_ACCESS_READ, attrs);
	if (IS_ERR(pd_uobj)) {
		ret = PTR_ERR(pd_uobj);
		goto err_abort;
	}
	ret = usrq_create(attrs, uobj, &init, cmd->user_handle,
			  pd_uobj->object,
			  uverbs_get_async_file(attrs->ufile, NULL));
	uverbs_uobj_lookup_put(pd_uobj, UV_ACCESS_READ);
	if (ret)
		goto err_abort;

	/* The dispatcher commits it, or destroys it if the reply fails. */
	attrs->uobject = uobj;
	resp.srq_handle = uobj->id;
	resp.max_wr = init.attr.max_wr;
	resp.max_sge = init.attr.max_sge;
	return uverbs_response(attrs, &resp, sizeof(resp));

err_abort:
	uverbs_uobj_abort(uobj, false, attrs);
	return ret;
}

int uverbs_cmd_create_srq(struct uverbs_attr_bundle *attrs)
{
	struct ib_uverbs_create_xsrq xcmd = {};
	struct ib_uverbs_create_srq cmd;
	int ret;

	ret = uverbs_request(attrs, &cmd, sizeof(cmd));
	if (ret)
		return ret;
	xcmd.user_handle = cmd.user_handle;
	xcmd.srq_type = IB_SRQT_BASIC;
	xcmd.pd_handle = cmd.pd_handle;
	xcmd.max_wr = cmd.max_wr;
	xcmd.max_sge = cmd.max_sge;
	xcmd.srq_limit = cmd.srq_limit;
	return create_srq_write(attrs, &xcmd);
}

int uverbs_cmd_create_xsrq(struct uverbs_attr_bundle *attrs)
{
	struct ib_uverbs_create_xsrq cmd;
	int ret;

	ret = uverbs_request(attrs, &cmd, sizeof(cmd));
	if (ret)
		return ret;
	return create_srq_write(attrs, &cmd);
}

int uverbs_cmd_modify_srq(struct uverbs_attr_bundle *attrs)
{
	struct ib_uverbs_modify_srq cmd;
	struct ib_srq_attr attr = {};
	struct ib_uobject *uobj;
	struct ib_srq *srq;
	int ret;

	if (!attrs->ibdev->ops.modify_srq)
		return -EOPNOTSUPP;
	ret = uverbs_request(attrs, &cmd, sizeof(cmd));
	if (ret)
		return ret;
	/* Shared: the driver serializes changes of an SRQ. */
	uobj = uverbs_uobj_lookup(&uverbs_srq_type, cmd.srq_handle,
				  UV_ACCESS_READ, attrs);
	if (IS_ERR(uobj))
		return PTR_ERR(uobj);
	srq = uobj->object;
	attr.max_wr = cmd.max_wr;
	attr.srq_limit = cmd.srq_limit;
	attrs->driver_udata.uctx = uobj->context;
	/* Other bits mean nothing to an SRQ: ignored, as by in-tree rxe. */
	ret = srq->device->ops.modify_srq(srq, &attr,
					  cmd.attr_mask &
					  (IB_SRQ_MAX_WR | IB_SRQ_LIMIT),
					  &attrs->driver_udata);
	uverbs_uobj_lookup_put(uobj, UV_ACCESS_READ);
	return ret;
}

int uverbs_cmd_query_srq(struct uverbs_attr_bundle *attrs)
{
	struct ib_uverbs_query_srq_resp resp = {};
	struct ib_uverbs_query_srq cmd;
	struct ib_srq_attr attr = {};
	struct ib_uobject *uobj;
	struct ib_srq *srq;
	int ret;

	if (!attrs->ibdev->ops.query_srq)
		return -EOPNOTSUPP;
	ret = uverbs_request(attrs, &cmd, sizeof(cmd));
	if (ret)
		return ret;
	uobj = uverbs_uobj_lookup(&uverbs_srq_type, cmd.srq_handle,
				  UV_ACCESS_READ, attrs);
	if (IS_ERR(uobj))
		return PTR_ERR(uobj);
	srq = uobj->object;
	ret = srq->device->ops.query_srq(srq, &attr);
	uverbs_uobj_lookup_put(uobj, UV_ACCESS_READ);
	if (ret)
		return ret;
	resp.max_wr = attr.max_wr;
	resp.max_sge = attr.max_sge;
	resp.srq_limit = attr.srq_limit;
	return uverbs_response(attrs, &resp, sizeof(resp));
}

int uverbs_cmd_destroy_srq(struct uverbs_attr_bundle *attrs)
{
	return uverbs_destroy_uevent_cmd(attrs, &uverbs_srq_type);
}

int uverbs_cmd_post_srq_recv(struct uverbs_attr_bundle *attrs)
{
	return uverbs_post_wrs(attrs, &uverbs_srq_type,
			       sizeof(struct ib_uverbs_recv_wr), NULL);
}

/* ------------------------------------------------------------------ */
/* ioctl methods                                                       */
/* ------------------------------------------------------------------ */

static int srq_create_method(struct uverbs_attr_bundle *attrs)
{
	struct ib_uobject *uobj =
		uverbs_attr_get_uobject(attrs, UVERBS_ATTR_CREATE_SRQ_HANDLE);
	struct ib_uobject *pd = uverbs_attr_get_uobject(attrs,
					UVERBS_ATTR_CREATE_SRQ_PD_HANDLE);
	struct ib_srq_init_attr init = { .srq_type = IB_SRQT_BASIC };
	struct ib_uobject *cq;
	u64 user_handle, type;
	u32 max_num_tags;
	int ret;

	ret = uverbs_copy_from(&init.attr.max_sge, attrs,
			       UVERBS_ATTR_CREATE_SRQ_MAX_SGE,
			       sizeof(init.attr.max_sge));
	if (!ret)
		ret = uverbs_copy_from(&init.attr.max_wr, attrs,
				       UVERBS_ATTR_CREATE_SRQ_MAX_WR,
				       sizeof(init.attr.max_wr));
	if (!ret)
		ret = uverbs_copy_from(&init.attr.srq_limit, attrs,
				       UVERBS_ATTR_CREATE_SRQ_LIMIT,
				       sizeof(init.attr.srq_limit));
	if (!ret)
		ret = uverbs_copy_from(&user_handle, attrs,
				       UVERBS_ATTR_CREATE_SRQ_USER_HANDLE,
				       sizeof(user_handle));
	if (!ret)
		ret = uverbs_get_const(attrs, UVERBS_ATTR_CREATE_SRQ_TYPE,
				       &type);
	if (ret)
		return ret;

	switch (type) {
	case IB_UVERBS_SRQT_BASIC:
		break;
	case IB_UVERBS_SRQT_XRC:
	case IB_UVERBS_SRQT_TM:
		/* Both kinds complete on a CQ, which must be given. */
		cq = uverbs_attr_get_uobject(attrs,
					     UVERBS_ATTR_CREATE_SRQ_CQ_HANDLE);
		if (IS_ERR(cq))
			return PTR_ERR(cq);
		if (type == IB_UVERBS_SRQT_XRC)
			return -EINVAL;	/* no XRC domain can exist */
		ret = uverbs_copy_from(&max_num_tags, attrs,
				       UVERBS_ATTR_CREATE_SRQ_MAX_NUM_TAGS,
				       sizeof(max_num_tags));
		return ret ?: -EOPNOTSUPP;
	default:
		return -EINVAL;
	}

	ret = usrq_create(attrs, uobj, &init, user_handle, pd->object,
			  uverbs_get_async_file(attrs->ufile,
				uverbs_attr_get_uobject(attrs,
					UVERBS_ATTR_CREATE_SRQ_EVENT_FD)));
	if (ret)
		return ret;
	uverbs_finalize_uobj_create(attrs, UVERBS_ATTR_CREATE_SRQ_HANDLE);

	ret = uverbs_copy_to(attrs, UVERBS_ATTR_CREATE_SRQ_RESP_MAX_WR,
			     &init.attr.max_wr, sizeof(init.attr.max_wr));
	if (!ret)
		ret = uverbs_copy_to(attrs, UVERBS_ATTR_CREATE_SRQ_RESP_MAX_SGE,
				     &init.attr.max_sge,
				     sizeof(init.attr.max_sge));
	return ret;
}

/* The framework destroyed the SRQ before calling this. */
static int srq_destroy_method(struct uverbs_attr_bundle *attrs)
{
	return uverbs_destroy_uevent_resp(attrs, UVERBS_ATTR_DESTROY_SRQ_HANDLE,
					  UVERBS_ATTR_DESTROY_SRQ_RESP);
}

/* No XRCD attribute: a method naming one is not supported (see top). */
static const struct uv_method_def srq_methods[] = {
	UV_METHOD(UVERBS_OBJECT_SRQ, UVERBS_METHOD_SRQ_CREATE,
		  srq_create_method,
		  UV_IDR(UVERBS_ATTR_CREATE_SRQ_HANDLE, UVERBS_OBJECT_SRQ,
			 UV_ACCESS_NEW, UV_MANDATORY),
		  UV_IDR(UVERBS_ATTR_CREATE_SRQ_PD_HANDLE, UVERBS_OBJECT_PD,
			 UV_ACCESS_READ, UV_MANDATORY),
		  UV_CONST_IN(UVERBS_ATTR_CREATE_SRQ_TYPE, U32_MAX,
			      UV_MANDATORY),
		  UV_PTR_IN_TYPE(UVERBS_ATTR_CREATE_SRQ_USER_HANDLE, u64,
				 UV_MANDATORY),
		  UV_PTR_IN_TYPE(UVERBS_ATTR_CREATE_SRQ_MAX_WR, u32,
				 UV_MANDATORY),
		  UV_PTR_IN_TYPE(UVERBS_ATTR_CREATE_SRQ_MAX_SGE, u32,
				 UV_MANDATORY),
		  UV_PTR_IN_TYPE(UVERBS_ATTR_CREATE_SRQ_LIMIT, u32,
				 UV_MANDATORY),
		  UV_IDR(UVERBS_ATTR_CREATE_SRQ_CQ_HANDLE, UVERBS_OBJECT_CQ,
			 UV_ACCESS_READ, UV_OPTIONAL),
		  UV_PTR_IN_TYPE(UVERBS_ATTR_CREATE_SRQ_MAX_NUM_TAGS, u32,
				 UV_OPTIONAL),
		  UV_FD(UVERBS_ATTR_CREATE_SRQ_EVENT_FD,
			UVERBS_OBJECT_ASYNC_EVENT, UV_ACCESS_READ,
			UV_OPTIONAL),
		  UV_PTR_OUT(UVERBS_ATTR_CREATE_SRQ_RESP_MAX_WR,
			     UV_SIZE_OF(u32), UV_MANDATORY),
		  UV_PTR_OUT(UVERBS_ATTR_CREATE_SRQ_RESP_MAX_SGE,
			     UV_SIZE_OF(u32), UV_MANDATORY),
		  UV_PTR_OUT(UVERBS_ATTR_CREATE_SRQ_RESP_SRQ_NUM,
			     UV_SIZE_OF(u32), UV_OPTIONAL),
		  UV_UHW()),
	UV_METHOD(UVERBS_OBJECT_SRQ, UVERBS_METHOD_SRQ_DESTROY,
		  srq_destroy_method,
		  UV_IDR(UVERBS_ATTR_DESTROY_SRQ_HANDLE, UVERBS_OBJECT_SRQ,
			 UV_ACCESS_DESTROY, UV_MANDATORY),
		  UV_PTR_OUT(UVERBS_ATTR_DESTROY_SRQ_RESP,
			     UV_SIZE_OF(struct ib_uverbs_destroy_srq_resp),
			     UV_MANDATORY)),
};

const struct uv_method_table uverbs_srq_methods = UV_METHOD_TABLE(srq_methods);
