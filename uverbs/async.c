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

struct uverbs_async_event {
	struct list_head list;
	struct ib_uverbs_async_event_desc desc;
};

struct uverbs_async_file {
	struct ib_uobject uobj;		/* first: freed through it */
	spinlock_t lock;		/* protects @events and @closed */
	struct list_head events;
	bool closed;			/* device gone: -EIO once drained */
	wait_queue_head_t wait;
	struct fasync_struct *fasync;
	struct ib_event_handler handler;
	bool registered;		/* @handler is with ib_core */
};
static_assert(offsetof(struct uverbs_async_file, uobj) == 0);

static struct uverbs_async_file *to_async_file(struct ib_uobject *uobj)
{
	return container_of(uobj, struct uverbs_async_file, uobj);
}

static void async_queue(struct uverbs_async_file *af, u64 element, u32 type)
{
	struct uverbs_async_event *ev;
	unsigned long flags;

	/* Event handlers may run in atomic context. */
	ev = kmalloc(sizeof(*ev), GFP_ATOMIC);
	if (!ev)
		return;
	ev->desc = (struct ib_uverbs_async_event_desc){
		.element = element,
		.event_type = type,
	};
	spin_lock_irqsave(&af->lock, flags);
	if (af->closed) {
		spin_unlock_irqrestore(&af->lock, flags);
		kfree(ev);
		return;
	}
	list_add_tail(&ev->list, &af->events);
	spin_unlock_irqrestore(&af->lock, flags);

	wake_up_interruptible(&af->wait);
	kill_fasync(&af->fasync, SIGIO, POLL_IN);
}

/* No more events: readers drain what is queued, then get -EIO. */
static void async_close(struct uverbs_async_file *af)
{
	spin_lock_irq(&af->lock);
	af->closed = true;
	spin_unlock_irq(&af->lock);
	wake_up_interruptible(&af->wait);
	kill_fasync(&af->fasync, SIGIO, POLL_IN);
}

static void async_drain(struct uverbs_async_file *af)
{
	struct uverbs_async_event *ev, *tmp;
	LIST_HEAD(events);

	spin_lock_irq(&af->lock);
	af->closed = true;
	list_splice_init(&af->events, &events);
	spin_unlock_irq(&af->lock);
	list_for_each_entry_safe(ev, tmp, &events, list)
		kfree(ev);
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
	struct uverbs_async_event *ev;
	ssize_t ret;

	spin_lock_irq(&af->lock);
	while (list_empty(&af->events)) {
		if (af->closed) {
			spin_unlock_irq(&af->lock);
			return -EIO;
		}
		spin_unlock_irq(&af->lock);
		if (filp->f_flags & O_NONBLOCK)
			return -EAGAIN;
		if (wait_event_interruptible(af->wait,
					     !list_empty(&af->events) ||
					     READ_ONCE(af->closed)))
			return -ERESTARTSYS;
		spin_lock_irq(&af->lock);
	}
	/* One whole event per read; a short buffer takes none. */
	if (count < sizeof(ev->desc)) {
		spin_unlock_irq(&af->lock);
		return -EINVAL;
	}
	ev = list_first_entry(&af->events, struct uverbs_async_event, list);
	list_del(&ev->list);
	spin_unlock_irq(&af->lock);

	ret = copy_to_user(buf, &ev->desc, sizeof(ev->desc)) ?
		-EFAULT : sizeof(ev->desc);
	kfree(ev);
	return ret;
}

static __poll_t async_poll(struct file *filp, struct poll_table_struct *wait)
{
	struct uverbs_async_file *af = to_async_file(filp->private_data);
	__poll_t mask = 0;

	poll_wait(filp, &af->wait, wait);
	spin_lock_irq(&af->lock);
	if (!list_empty(&af->events))
		mask = EPOLLIN | EPOLLRDNORM;
	else if (af->closed)
		mask = EPOLLERR;
	spin_unlock_irq(&af->lock);
	return mask;
}

static int async_fasync(int fd, struct file *filp, int on)
{
	struct uverbs_async_file *af = to_async_file(filp->private_data);

	return fasync_helper(fd, filp, on, &af->fasync);
}

static int async_release(struct inode *inode, struct file *filp)
{
	struct ib_uobject *uobj = filp->private_data;

	if (!uobj)
		return uverbs_fd_uobj_release(inode, filp);
	/* The queue outlives the object's destruction until here. */
	uverbs_uobj_get(uobj);
	uverbs_fd_uobj_release(inode, filp);
	async_drain(to_async_file(uobj));
	uverbs_uobj_put(uobj);
	return 0;
}

static const struct file_operations async_fops = {
	.owner = THIS_MODULE,
	.read = async_read,
	.poll = async_poll,
	.fasync = async_fasync,
	.release = async_release,
	.llseek = no_llseek,
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

	spin_lock_init(&af->lock);
	INIT_LIST_HEAD(&af->events);
	init_waitqueue_head(&af->wait);

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
		async_close(af);
	} else if (why == UVERBS_REMOVE_ABORT) {
		async_drain(af);
	}
	return 0;
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
