// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The event queue shared by the two kinds of event file: async event
 * files (struct ib_uverbs_async_event_desc) and completion channels
 * (struct ib_uverbs_comp_event_desc).  read() returns one whole event,
 * poll() says whether one is waiting, fasync signals new ones.
 *
 * Events about an object (a CQ's completions and errors) are also linked
 * into a list of that object, under the queue's lock, so that destroying
 * the object takes back what userspace has not read; reading one bumps the
 * object's counter, which the destroy command reports so that libibverbs
 * can wait for the acks of exactly those events.
 *
 * Producers may run in any context, hard interrupts included.
 */
#include <linux/fs.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include "uverbs.h"

struct uverbs_event {
	struct list_head list;		/* in the queue */
	struct list_head obj_list;	/* in the object's list, or empty */
	u32 *counter;			/* the object's count of reads */
	union {
		struct ib_uverbs_async_event_desc async;
		struct ib_uverbs_comp_event_desc comp;
	} desc;
};

void uverbs_event_queue_init(struct uverbs_event_queue *q)
{
	spin_lock_init(&q->lock);
	INIT_LIST_HEAD(&q->events);
	init_waitqueue_head(&q->wait);
	q->closed = false;
	q->fasync = NULL;
}

static void event_wake(struct uverbs_event_queue *q)
{
	wake_up_interruptible(&q->wait);
	kill_fasync(&q->fasync, SIGIO, POLL_IN);
}

void uverbs_event_add(struct uverbs_event_queue *q, const void *desc,
		      size_t len, struct list_head *obj_list, u32 *counter)
{
	struct uverbs_event *ev;
	unsigned long flags;

	if (len > sizeof(ev->desc))
		return;
	ev = kzalloc(sizeof(*ev), GFP_ATOMIC);
	if (!ev)
		return;		/* lost, as any event of a full device */
	memcpy(&ev->desc, desc, len);
	INIT_LIST_HEAD(&ev->obj_list);

	spin_lock_irqsave(&q->lock, flags);
	if (q->closed) {
		spin_unlock_irqrestore(&q->lock, flags);
		kfree(ev);
		return;
	}
	list_add_tail(&ev->list, &q->events);
	if (obj_list) {
		list_add_tail(&ev->obj_list, obj_list);
		ev->counter = counter;
	}
	spin_unlock_irqrestore(&q->lock, flags);
	event_wake(q);
}

/* Unlink @ev from everything; called with q->lock held. */
static void event_unlink(struct uverbs_event *ev)
{
	list_del(&ev->list);
	list_del_init(&ev->obj_list);
}

ssize_t uverbs_event_read(struct uverbs_event_queue *q, struct file *filp,
			  char __user *buf, size_t count, size_t desc_len)
{
	struct uverbs_event *ev;
	ssize_t ret;

	spin_lock_irq(&q->lock);
	while (list_empty(&q->events)) {
		if (q->closed) {
			spin_unlock_irq(&q->lock);
			return -EIO;
		}
		spin_unlock_irq(&q->lock);
		if (filp->f_flags & O_NONBLOCK)
			return -EAGAIN;
		if (wait_event_interruptible(q->wait,
					     !list_empty(&q->events) ||
					     READ_ONCE(q->closed)))
			return -ERESTARTSYS;
		spin_lock_irq(&q->lock);
	}
	/* One whole event per read; a short buffer takes none. */
	if (count < desc_len) {
		spin_unlock_irq(&q->lock);
		return -EINVAL;
	}
	ev = list_first_entry(&q->events, struct uverbs_event, list);
	if (ev->counter)
		(*ev->counter)++;
	event_unlink(ev);
	spin_unlock_irq(&q->lock);

	ret = copy_to_user(buf, &ev->desc, desc_len) ? -EFAULT : desc_len;
	kfree(ev);
	return ret;
}

__poll_t uverbs_event_poll(struct uverbs_event_queue *q, struct file *filp,
			   struct poll_table_struct *wait)
{
	__poll_t mask = 0;

	poll_wait(filp, &q->wait, wait);
	spin_lock_irq(&q->lock);
	if (!list_empty(&q->events))
		mask = EPOLLIN | EPOLLRDNORM;
	else if (q->closed)
		mask = EPOLLERR;
	spin_unlock_irq(&q->lock);
	return mask;
}

void uverbs_event_close(struct uverbs_event_queue *q)
{
	spin_lock_irq(&q->lock);
	q->closed = true;
	spin_unlock_irq(&q->lock);
	event_wake(q);
}

static void event_free_list(struct list_head *events)
{
	struct uverbs_event *ev, *tmp;

	list_for_each_entry_safe(ev, tmp, events, list)
		kfree(ev);
}

void uverbs_event_drain(struct uverbs_event_queue *q)
{
	struct uverbs_event *ev, *tmp;
	LIST_HEAD(events);

	spin_lock_irq(&q->lock);
	q->closed = true;
	list_for_each_entry_safe(ev, tmp, &q->events, list) {
		event_unlink(ev);
		list_add_tail(&ev->list, &events);
	}
	spin_unlock_irq(&q->lock);
	event_free_list(&events);
	event_wake(q);
}

void uverbs_event_forget(struct uverbs_event_queue *q,
			 struct list_head *obj_list)
{
	struct uverbs_event *ev, *tmp;
	LIST_HEAD(events);

	spin_lock_irq(&q->lock);
	list_for_each_entry_safe(ev, tmp, obj_list, obj_list) {
		event_unlink(ev);
		list_add_tail(&ev->list, &events);
	}
	spin_unlock_irq(&q->lock);
	event_free_list(&events);
}
