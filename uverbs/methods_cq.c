// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Completion queues and completion channels.
 *
 * libibverbs 44 creates a CQ with the ioctl method UVERBS_METHOD_CQ_CREATE
 * and destroys it with UVERBS_METHOD_CQ_DESTROY, falling back to the
 * CREATE_CQ (or extended CREATE_CQ) and DESTROY_CQ write commands only when
 * those methods are missing; RESIZE_CQ, REQ_NOTIFY_CQ and
 * CREATE_COMP_CHANNEL exist only as write commands.
 *
 * A completion channel is an fd from which userspace reads one struct
 * ib_uverbs_comp_event_desc (the CQ's user_handle) per completion event:
 * the driver calls cq->comp_handler when an armed CQ gets a completion,
 * and we queue the event on the CQ's channel.  CQ errors go to the async
 * event file the CQ was created with.  Each CQ counts the events of each
 * kind userspace has read; DESTROY_CQ reports both counts so that
 * libibverbs waits for the matching acks, and takes back the unread ones.
 *
 * A CQ holds references on its channel and async file objects (not on
 * their fds: closing a channel in use just stops its events, as in-tree).
 */
#include <linux/fs.h>
#include <linux/slab.h>
#include "uverbs.h"

struct uverbs_comp_channel {
	struct ib_uobject uobj;		/* first: freed through it */
	struct uverbs_event_queue queue;
};
static_assert(offsetof(struct uverbs_comp_channel, uobj) == 0);

struct uverbs_ucq {
	struct ib_uobject uobj;		/* first: freed through it */
	struct ib_uobject *channel;	/* held, or NULL */
	struct ib_uobject *async;	/* held, or NULL */
	struct list_head comp_events;	/* unread, on @channel's queue */
	struct list_head async_events;	/* unread, on @async's queue */
	u32 comp_events_reported;	/* read by userspace */
	u32 async_events_reported;
};
static_assert(offsetof(struct uverbs_ucq, uobj) == 0);

static struct uverbs_comp_channel *to_channel(struct ib_uobject *uobj)
{
	return container_of(uobj, struct uverbs_comp_channel, uobj);
}

static struct uverbs_ucq *to_ucq(struct ib_uobject *uobj)
{
	return container_of(uobj, struct uverbs_ucq, uobj);
}

/* ------------------------------------------------------------------ */
/* Completion channels                                                 */
/* ------------------------------------------------------------------ */

static ssize_t channel_read(struct file *filp, char __user *buf, size_t count,
			    loff_t *pos)
{
	struct uverbs_comp_channel *ch = to_channel(filp->private_data);

	return uverbs_event_read(&ch->queue, filp, buf, count,
				 sizeof(struct ib_uverbs_comp_event_desc));
}

static __poll_t channel_poll(struct file *filp, struct poll_table_struct *wait)
{
	struct uverbs_comp_channel *ch = to_channel(filp->private_data);

	return uverbs_event_poll(&ch->queue, filp, wait);
}

static int channel_fasync(int fd, struct file *filp, int on)
{
	struct uverbs_comp_channel *ch = to_channel(filp->private_data);

	return fasync_helper(fd, filp, on, &ch->queue.fasync);
}

static int channel_release(struct inode *inode, struct file *filp)
{
	struct ib_uobject *uobj = filp->private_data;

	if (!uobj)
		return uverbs_fd_uobj_release(inode, filp);
	/* CQs may still point at the queue: it lives with the object. */
	uverbs_uobj_get(uobj);
	uverbs_fd_uobj_release(inode, filp);
	uverbs_event_drain(&to_channel(uobj)->queue);
	uverbs_uobj_put(uobj);
	return 0;
}

static const struct file_operations channel_fops = {
	.owner = THIS_MODULE,
	.read = channel_read,
	.poll = channel_poll,
	.fasync = channel_fasync,
	.release = channel_release,
};

/* Whatever the reason: no more events, readers get -EIO. */
static int channel_destroy(struct ib_uobject *uobj,
			   enum uverbs_remove_reason why,
			   struct uverbs_attr_bundle *attrs)
{
	uverbs_event_drain(&to_channel(uobj)->queue);
	return 0;
}

const struct uverbs_obj_type uverbs_comp_channel_type = {
	.id = UVERBS_OBJECT_COMP_CHANNEL,
	.is_fd = true,
	.size = sizeof(struct uverbs_comp_channel),
	.destroy = channel_destroy,
	.fops = &channel_fops,
	.name = "[infinibandevent]",
	.flags = O_RDONLY,
};

int uverbs_cmd_create_comp_channel(struct uverbs_attr_bundle *attrs)
{
	struct ib_uverbs_create_comp_channel_resp resp = {};
	struct ib_uverbs_create_comp_channel cmd;
	struct ib_uobject *uobj;
	int ret;

	ret = uverbs_request(attrs, &cmd, sizeof(cmd));
	if (ret)
		return ret;
	uobj = uverbs_uobj_alloc(&uverbs_comp_channel_type, attrs);
	if (IS_ERR(uobj))
		return PTR_ERR(uobj);
	uverbs_event_queue_init(&to_channel(uobj)->queue);
	/* The fd is reserved; the dispatcher installs it on success. */
	attrs->uobject = uobj;
	resp.fd = uobj->id;
	return uverbs_response(attrs, &resp, sizeof(resp));
}

/* ------------------------------------------------------------------ */
/* CQs                                                                 */
/* ------------------------------------------------------------------ */

/* The driver's completion notification: may run in any context. */
static void ucq_comp_handler(struct ib_cq *cq, void *cq_context)
{
	struct uverbs_ucq *ucq = to_ucq(cq->uobject);
	struct ib_uverbs_comp_event_desc desc = {
		.cq_handle = ucq->uobj.user_handle,
	};

	if (cq_context)
		uverbs_event_add(cq_context, &desc, sizeof(desc),
				 &ucq->comp_events, &ucq->comp_events_reported);
}

static void ucq_event_handler(struct ib_event *event, void *cq_context)
{
	struct uverbs_ucq *ucq = to_ucq(event->cq->uobject);
	struct ib_uverbs_async_event_desc desc = {
		.element = ucq->uobj.user_handle,
		.event_type = event->event,
	};

	if (ucq->async)
		uverbs_event_add(uverbs_async_queue(ucq->async), &desc,
				 sizeof(desc), &ucq->async_events,
				 &ucq->async_events_reported);
}

/* Unread events go, and with them the references on their queues. */
static void ucq_release_events(struct uverbs_ucq *ucq)
{
	if (ucq->channel) {
		uverbs_event_forget(&to_channel(ucq->channel)->queue,
				    &ucq->comp_events);
		uverbs_uobj_put(ucq->channel);
		ucq->channel = NULL;
	}
	if (ucq->async) {
		uverbs_event_forget(uverbs_async_queue(ucq->async),
				    &ucq->async_events);
		uverbs_uobj_put(ucq->async);
		ucq->async = NULL;
	}
}

static int cq_destroy(struct ib_uobject *uobj, enum uverbs_remove_reason why,
		      struct uverbs_attr_bundle *attrs)
{
	struct ib_udata udata = { .uctx = uobj->context };
	int ret;

	/* -EBUSY while a QP or SRQ uses it: teardown retries after those. */
	ret = ib_destroy_cq_user(uobj->object, &udata);
	if (ret)
		return ret;
	/* The driver calls neither handler any more. */
	ucq_release_events(to_ucq(uobj));
	return 0;
}

const struct uverbs_obj_type uverbs_cq_type = {
	.id = UVERBS_OBJECT_CQ,
	.size = sizeof(struct uverbs_ucq),
	.destroy = cq_destroy,
};

struct ucq_params {
	u64 user_handle;
	u32 cqe;
	u32 comp_vector;
	u32 flags;
};

/*
 * Create the CQ of the new object @uobj.  @channel is the caller's lookup
 * of a completion channel or NULL; @async a referenced async file or NULL,
 * whose reference passes to the CQ (or is dropped on failure).  The caller
 * aborts @uobj on failure.
 */
static int ucq_create(struct uverbs_attr_bundle *attrs, struct ib_uobject *uobj,
		      const struct ucq_params *p, struct ib_uobject *channel,
		      struct ib_uobject *async)
{
	struct ib_device *ibdev = uobj->context->device;
	struct uverbs_ucq *ucq = to_ucq(uobj);
	struct ib_cq_init_attr init = {
		.cqe = p->cqe,
		.comp_vector = p->comp_vector,
		.flags = p->flags,
	};
	struct ib_cq *cq;

	INIT_LIST_HEAD(&ucq->comp_events);
	INIT_LIST_HEAD(&ucq->async_events);
	ucq->async = async;
	if (channel) {
		uverbs_uobj_get(channel);
		ucq->channel = channel;
	}
	uobj->user_handle = p->user_handle;
	attrs->driver_udata.uctx = uobj->context;
	cq = ib_create_cq_user(ibdev, ucq_comp_handler, ucq_event_handler,
			       channel ? &to_channel(channel)->queue : NULL,
			       &init, uobj, &attrs->driver_udata);
	if (IS_ERR(cq)) {
		ucq_release_events(ucq);
		return PTR_ERR(cq);
	}
	uobj->object = cq;
	return 0;
}

/* CREATE_CQ and its extended form; the new CQ is left in attrs->uobject. */
static int create_cq_write(struct uverbs_attr_bundle *attrs,
			   const struct ib_uverbs_ex_create_cq *cmd,
			   struct ib_uverbs_create_cq_resp *resp)
{
	const struct ucq_params p = {
		.user_handle = cmd->user_handle,
		.cqe = cmd->cqe,
		.comp_vector = cmd->comp_vector,
		.flags = cmd->flags,
	};
	struct ib_uobject *uobj, *channel = NULL;
	int ret;

	if (cmd->comp_vector >= attrs->ibdev->num_comp_vectors)
		return -EINVAL;
	uobj = uverbs_uobj_alloc(&uverbs_cq_type, attrs);
	if (IS_ERR(uobj))
		return PTR_ERR(uobj);
	if (cmd->comp_channel >= 0) {
		channel = uverbs_uobj_lookup(&uverbs_comp_channel_type,
					     cmd->comp_channel, UV_ACCESS_READ,
					     attrs);
		if (IS_ERR(channel)) {
			ret = PTR_ERR(channel);
			goto err_abort;
		}
	}
	ret = ucq_create(attrs, uobj, &p, channel,
			 uverbs_get_async_file(attrs->ufile, NULL));
	if (channel)
		uverbs_uobj_lookup_put(channel, UV_ACCESS_READ);
	if (ret)
		goto err_abort;

	/* The dispatcher commits it, or destroys it if the reply fails. */
	attrs->uobject = uobj;
	resp->cq_handle = uobj->id;
	resp->cqe = ((struct ib_cq *)uobj->object)->cqe;
	return 0;

err_abort:
	uverbs_uobj_abort(uobj, false, attrs);
	return ret;
}

int uverbs_cmd_create_cq(struct uverbs_attr_bundle *attrs)
{
	struct ib_uverbs_create_cq_resp resp = {};
	struct ib_uverbs_ex_create_cq ex = {};
	struct ib_uverbs_create_cq cmd;
	int ret;

	ret = uverbs_request(attrs, &cmd, sizeof(cmd));
	if (ret)
		return ret;
	ex.user_handle = cmd.user_handle;
	ex.cqe = cmd.cqe;
	ex.comp_vector = cmd.comp_vector;
	ex.comp_channel = cmd.comp_channel;
	ret = create_cq_write(attrs, &ex, &resp);
	if (ret)
		return ret;
	return uverbs_response(attrs, &resp, sizeof(resp));
}

int uverbs_cmd_ex_create_cq(struct uverbs_attr_bundle *attrs)
{
	struct ib_uverbs_ex_create_cq_resp resp = {};
	struct ib_uverbs_ex_create_cq cmd;
	int ret;

	ret = uverbs_request(attrs, &cmd, sizeof(cmd));
	if (ret)
		return ret;
	if (cmd.comp_mask || cmd.reserved)
		return -EINVAL;
	ret = create_cq_write(attrs, &cmd, &resp.base);
	if (ret)
		return ret;
	resp.response_length = min_t(size_t, attrs->ucore.outlen, sizeof(resp));
	return uverbs_response(attrs, &resp, sizeof(resp));
}

int uverbs_cmd_resize_cq(struct uverbs_attr_bundle *attrs)
{
	struct ib_uverbs_resize_cq_resp resp = {};
	struct ib_uverbs_resize_cq cmd;
	struct ib_uobject *uobj;
	struct ib_cq *cq;
	int ret;

	ret = uverbs_request(attrs, &cmd, sizeof(cmd));
	if (ret)
		return ret;
	/* Shared: the driver serializes resizes against its producers. */
	uobj = uverbs_uobj_lookup(&uverbs_cq_type, cmd.cq_handle,
				  UV_ACCESS_READ, attrs);
	if (IS_ERR(uobj))
		return PTR_ERR(uobj);
	cq = uobj->object;
	if (!cq->device->ops.resize_cq) {
		ret = -EOPNOTSUPP;
		goto out;
	}
	attrs->driver_udata.uctx = uobj->context;
	ret = cq->device->ops.resize_cq(cq, cmd.cqe, &attrs->driver_udata);
	if (ret)
		goto out;
	resp.cqe = cq->cqe;
	ret = uverbs_response(attrs, &resp, sizeof(resp));
out:
	uverbs_uobj_lookup_put(uobj, UV_ACCESS_READ);
	return ret;
}

int uverbs_cmd_req_notify_cq(struct uverbs_attr_bundle *attrs)
{
	struct ib_uverbs_req_notify_cq cmd;
	struct ib_uobject *uobj;
	struct ib_cq *cq;
	int ret;

	ret = uverbs_request(attrs, &cmd, sizeof(cmd));
	if (ret)
		return ret;
	uobj = uverbs_uobj_lookup(&uverbs_cq_type, cmd.cq_handle,
				  UV_ACCESS_READ, attrs);
	if (IS_ERR(uobj))
		return PTR_ERR(uobj);
	cq = uobj->object;
	/* Whether completions were missed is of no use to userspace here. */
	if (cq->device->ops.req_notify_cq)
		cq->device->ops.req_notify_cq(cq, cmd.solicited_only ?
					      IB_CQ_SOLICITED :
					      IB_CQ_NEXT_COMP);
	else
		ret = -EOPNOTSUPP;
	uverbs_uobj_lookup_put(uobj, UV_ACCESS_READ);
	return ret;
}

static void destroy_cq_resp(struct ib_uobject *uobj,
			    struct ib_uverbs_destroy_cq_resp *resp)
{
	struct uverbs_ucq *ucq = to_ucq(uobj);

	resp->comp_events_reported = ucq->comp_events_reported;
	resp->async_events_reported = ucq->async_events_reported;
}

int uverbs_cmd_destroy_cq(struct uverbs_attr_bundle *attrs)
{
	struct ib_uverbs_destroy_cq_resp resp = {};
	struct ib_uverbs_destroy_cq cmd;
	struct ib_uobject *uobj;
	int ret;

	ret = uverbs_request(attrs, &cmd, sizeof(cmd));
	if (ret)
		return ret;
	uobj = uverbs_uobj_lookup(&uverbs_cq_type, cmd.cq_handle,
				  UV_ACCESS_DESTROY, attrs);
	if (IS_ERR(uobj))
		return PTR_ERR(uobj);
	ret = uverbs_uobj_destroy(uobj, attrs);
	/* Destroyed: no event can be added to the counts any more. */
	if (!ret)
		destroy_cq_resp(uobj, &resp);
	uverbs_uobj_lookup_put(uobj, UV_ACCESS_DESTROY);
	if (ret)
		return ret;
	return uverbs_response(attrs, &resp, sizeof(resp));
}

/* ------------------------------------------------------------------ */
/* ioctl methods                                                       */
/* ------------------------------------------------------------------ */

static int cq_create_method(struct uverbs_attr_bundle *attrs)
{
	struct ib_uobject *uobj =
		uverbs_attr_get_uobject(attrs, UVERBS_ATTR_CREATE_CQ_HANDLE);
	struct ib_uobject *channel =
		uverbs_attr_get_uobject(attrs, UVERBS_ATTR_CREATE_CQ_COMP_CHANNEL);
	struct ucq_params p = {};
	struct ib_cq *cq;
	u64 flags;
	int ret;

	ret = uverbs_copy_from(&p.cqe, attrs, UVERBS_ATTR_CREATE_CQ_CQE,
			       sizeof(p.cqe));
	if (!ret)
		ret = uverbs_copy_from(&p.user_handle, attrs,
				       UVERBS_ATTR_CREATE_CQ_USER_HANDLE,
				       sizeof(p.user_handle));
	if (!ret)
		ret = uverbs_copy_from(&p.comp_vector, attrs,
				       UVERBS_ATTR_CREATE_CQ_COMP_VECTOR,
				       sizeof(p.comp_vector));
	if (!ret)
		ret = uverbs_get_flags(attrs, UVERBS_ATTR_CREATE_CQ_FLAGS,
				       &flags);
	if (ret)
		return ret;
	p.flags = flags;

	ret = ucq_create(attrs, uobj, &p, IS_ERR(channel) ? NULL : channel,
			 uverbs_get_async_file(attrs->ufile,
				uverbs_attr_get_uobject(attrs,
					UVERBS_ATTR_CREATE_CQ_EVENT_FD)));
	if (ret)
		return ret;
	uverbs_finalize_uobj_create(attrs, UVERBS_ATTR_CREATE_CQ_HANDLE);
	cq = uobj->object;
	return uverbs_copy_to(attrs, UVERBS_ATTR_CREATE_CQ_RESP_CQE, &cq->cqe,
			      sizeof(u32));
}

/* The framework destroyed the CQ before calling this. */
static int cq_destroy_method(struct uverbs_attr_bundle *attrs)
{
	struct ib_uverbs_destroy_cq_resp resp = {};

	destroy_cq_resp(uverbs_attr_get_uobject(attrs,
						UVERBS_ATTR_DESTROY_CQ_HANDLE),
			&resp);
	return uverbs_copy_to(attrs, UVERBS_ATTR_DESTROY_CQ_RESP, &resp,
			      sizeof(resp));
}

static const struct uv_method_def cq_methods[] = {
	UV_METHOD(UVERBS_OBJECT_CQ, UVERBS_METHOD_CQ_CREATE, cq_create_method,
		  UV_IDR(UVERBS_ATTR_CREATE_CQ_HANDLE, UVERBS_OBJECT_CQ,
			 UV_ACCESS_NEW, UV_MANDATORY),
		  UV_PTR_IN_TYPE(UVERBS_ATTR_CREATE_CQ_CQE, u32, UV_MANDATORY),
		  UV_PTR_IN_TYPE(UVERBS_ATTR_CREATE_CQ_USER_HANDLE, u64,
				 UV_MANDATORY),
		  UV_FD(UVERBS_ATTR_CREATE_CQ_COMP_CHANNEL,
			UVERBS_OBJECT_COMP_CHANNEL, UV_ACCESS_READ,
			UV_OPTIONAL),
		  UV_PTR_IN_TYPE(UVERBS_ATTR_CREATE_CQ_COMP_VECTOR, u32,
				 UV_MANDATORY),
		  UV_FLAGS_IN(UVERBS_ATTR_CREATE_CQ_FLAGS,
			      IB_UVERBS_CQ_FLAGS_TIMESTAMP_COMPLETION |
			      IB_UVERBS_CQ_FLAGS_IGNORE_OVERRUN,
			      UV_OPTIONAL),
		  UV_PTR_OUT(UVERBS_ATTR_CREATE_CQ_RESP_CQE, UV_SIZE_OF(u32),
			     UV_MANDATORY),
		  UV_FD(UVERBS_ATTR_CREATE_CQ_EVENT_FD,
			UVERBS_OBJECT_ASYNC_EVENT, UV_ACCESS_READ,
			UV_OPTIONAL),
		  UV_UHW()),
	UV_METHOD(UVERBS_OBJECT_CQ, UVERBS_METHOD_CQ_DESTROY,
		  cq_destroy_method,
		  UV_IDR(UVERBS_ATTR_DESTROY_CQ_HANDLE, UVERBS_OBJECT_CQ,
			 UV_ACCESS_DESTROY, UV_MANDATORY),
		  UV_PTR_OUT(UVERBS_ATTR_DESTROY_CQ_RESP,
			     UV_SIZE_OF(struct ib_uverbs_destroy_cq_resp),
			     UV_MANDATORY)),
};

const struct uv_method_table uverbs_cq_methods = UV_METHOD_TABLE(cq_methods);
