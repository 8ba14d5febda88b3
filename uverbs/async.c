// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The async event file: an anon-inode fd (created by GET_CONTEXT or by the
 * ASYNC_EVENT_ALLOC method) from which userspace read()s one struct
 * ib_uverbs_async_event_desc per call.  Each file listens to its device's
 * port and device events through an ib_core event handler.
 *
 * When the device is disassociated the file gets IB_EVENT_DEVICE_FATAL,
 * the last event it will ever see: once that is read, read() fails with
 * -EIO and poll() reports EPOLLERR rather than leaving readers blocked
 * forever.  Closing the command file only stops further events, as
 * in-tree: reads then block (or fail with -EAGAIN).
 */
#include <linux/build_bug.h>
#include <linux/fs.h>
#include <linux/poll.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/wait.h>
#include "uverbs.h"

struct uverbs_async_file {
	struct ib_uobject uobj;		/* first: freed through it */
	struct uverbs_event_queue queue;
	struct ib_event_handler handler;
	bool registered;		/* @handler is with ib_core */
};
static_assert(offsetof(struct uverbs_async_file, uobj) == 0);

static struct uverbs_async_file *to_async_file(struct ib_uobject *uobj)
{
	return container_of(uobj, struct uverbs_async_file, uobj);
}

struct uverbs_event_queue *uverbs_async_queue(struct ib_uobject *uobj)
{
	return &to_async_file(uobj)->queue;
}

static void async_queue(struct uverbs_async_file *af, u64 element, u32 type)
{
	struct ib_uverbs_async_event_desc desc = {
		.element = element,
		.event_type = type,
	};

	uverbs_event_add(&af->queue, &desc, sizeof(desc), NULL, NULL);
}

/*
 * Device-level events only: per-object events (QP, CQ, SRQ...) are
 * reported with the object's handle by the object's own handler.
 */
static bool async_is_device_event(enum ib_event_type type)
{
	switch (type) {
	case IB_EVENT_DEVICE_FATAL:
	case IB_EVENT_PORT_ACTIVE:
	case IB_EVENT_PORT_ERR:
	case IB_EVENT_LID_CHANGE:
	case IB_EVENT_PKEY_CHANGE:
	case IB_EVENT_SM_CHANGE:
	case IB_EVENT_CLIENT_REREGISTER:
	case IB_EVENT_GID_CHANGE:
		return true;
	default:
		return false;
	}
}

static void async_event_handler(struct ib_event_handler *handler,
				struct ib_event *event)
{
	struct uverbs_async_file *af =
		container_of(handler, struct uverbs_async_file, handler);

	if (async_is_device_event(event->event))
		async_queue(af, event->port_num, event->event);
}

static ssize_t async_read(struct file *filp, char __user *buf, size_t count,
			  loff_t *pos)
{
	struct uverbs_async_file *af = to_async_file(filp->private_data);

	return uverbs_event_read(&af->queue, filp, buf, count,
				 sizeof(struct ib_uverbs_async_event_desc));
}

static __poll_t async_poll(struct file *filp, struct poll_table_struct *wait)
{
	struct uverbs_async_file *af = to_async_file(filp->private_data);

	return uverbs_event_poll(&af->queue, filp, wait);
}

static int async_fasync(int fd, struct file *filp, int on)
{
	struct uverbs_async_file *af = to_async_file(filp->private_data);

	return fasync_helper(fd, filp, on, &af->queue.fasync);
}

static int async_release(struct inode *inode, struct file *filp)
{
	struct ib_uobject *uobj = filp->private_data;

	if (!uobj)
		return uverbs_fd_uobj_release(inode, filp);
	/* The queue outlives the object's destruction until here. */
	uverbs_uobj_get(uobj);
	uverbs_fd_uobj_release(inode, filp);
	uverbs_event_drain(&to_async_file(uobj)->queue);
	uverbs_uobj_put(uobj);
	return 0;
}

static const struct file_operations async_fops = {
	.owner = THIS_MODULE,
	.read = async_read,
	.poll = async_poll,
	.fasync = async_fasync,
	.release = async_release,
};

/*
 * Start delivering events: called by the creating command before it
 * commits the object.  The first async file of a command file becomes its
 * default one, where events of objects created later are reported.
 */
void uverbs_async_file_init(struct ib_uobject *uobj)
{
	struct uverbs_async_file *af = to_async_file(uobj);
	struct ib_uverbs_file *ufile = uobj->ufile;

	uverbs_event_queue_init(&af->queue);

	mutex_lock(&ufile->ucontext_lock);
	if (!ufile->default_async) {
		uverbs_uobj_get(uobj);	/* dropped with the command file */
		ufile->default_async = uobj;
	}
	mutex_unlock(&ufile->ucontext_lock);

	af->handler.device = uobj->context->device;
	af->handler.handler = async_event_handler;
	ib_register_event_handler(&af->handler);
	af->registered = true;
}

static int async_destroy(struct ib_uobject *uobj,
			 enum uverbs_remove_reason why,
			 struct uverbs_attr_bundle *attrs)
{
	struct uverbs_async_file *af = to_async_file(uobj);

	/* After this no handler runs: ib_core waits for those running. */
	if (af->registered) {
		ib_unregister_event_handler(&af->handler);
		af->registered = false;
	}
	if (why == UVERBS_REMOVE_DISASSOCIATE) {
		async_queue(af, 0, IB_EVENT_DEVICE_FATAL);
		uverbs_event_close(&af->queue);
	} else if (why == UVERBS_REMOVE_ABORT) {
		uverbs_event_drain(&af->queue);
	}
	return 0;
}

/*
 * The async file an object reports its events to: @named (an ioctl
 * attribute's object, may be NULL or an ERR_PTR), else the command file's
 * first one.  Returns it with a reference, or NULL if there is none.
 */
struct ib_uobject *uverbs_get_async_file(struct ib_uverbs_file *ufile,
					 struct ib_uobject *named)
{
	struct ib_uobject *uobj = named;

	if (IS_ERR_OR_NULL(uobj)) {
		mutex_lock(&ufile->ucontext_lock);
		uobj = ufile->default_async;
		if (uobj)
			uverbs_uobj_get(uobj);
		mutex_unlock(&ufile->ucontext_lock);
		return uobj;
	}
	uverbs_uobj_get(uobj);
	return uobj;
}

const struct uverbs_obj_type uverbs_async_event_type = {
	.id = UVERBS_OBJECT_ASYNC_EVENT,
	.is_fd = true,
	.size = sizeof(struct uverbs_async_file),
	.destroy = async_destroy,
	.fops = &async_fops,
	.name = "[infinibandevent]",
	.flags = O_RDONLY,
};

static int async_event_alloc(struct uverbs_attr_bundle *attrs)
{
	struct ib_uobject *uobj = uverbs_attr_get_uobject(attrs,
		UVERBS_ATTR_ASYNC_EVENT_ALLOC_FD_HANDLE);

	uverbs_async_file_init(uobj);
	uverbs_finalize_uobj_create(attrs,
				    UVERBS_ATTR_ASYNC_EVENT_ALLOC_FD_HANDLE);
	return 0;
}

static const struct uv_method_def async_methods[] = {
	UV_METHOD(UVERBS_OBJECT_ASYNC_EVENT, UVERBS_METHOD_ASYNC_EVENT_ALLOC,
		  async_event_alloc,
		  UV_FD(UVERBS_ATTR_ASYNC_EVENT_ALLOC_FD_HANDLE,
			UVERBS_OBJECT_ASYNC_EVENT, UV_ACCESS_NEW,
			UV_MANDATORY)),
};

const struct uv_method_table uverbs_async_methods = UV_METHOD_TABLE(async_methods);
