// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdma_ucm: the userspace face of the rdma_cm, the misc device
 * /dev/infiniband/rdma_cm that librdmacm drives with write() commands
 * (ABI 4, <uapi/rdma/rdma_user_cm.h>).
 *
 * Flow: a write() names a command; ucma_write() checks it against the
 * size table (ucma_abi.c), copies the request and calls its handler
 * (ucma_cmd.c).  The rdma_cm calls ucma_event_handler() for every event
 * of an id; the event is converted to struct rdma_ucm_event_resp and
 * queued on the file that owns the id, where GET_EVENT (blocking unless
 * O_NONBLOCK) and poll() find it.  A CONNECT_REQUEST brings a new id:
 * its number is reserved at once, but the id is stored in the table (and
 * listed on the listener's file) only when GET_EVENT hands the request
 * out.  Until then numbers are guessable but lead nowhere: no command can
 * reach, migrate or destroy the new id, whose only owner is the queued
 * request.  It reports events only after ACCEPT names its user context.
 *
 * An id dies by DESTROY_ID or when its file closes: it leaves the id
 * table, waits for commands in flight, destroys the rdma_cm id (after
 * which no handler runs), then drops its queued events, including the
 * new ids of CONNECT_REQUESTs never read.  Each file holds at most
 * UCMA_MAX_IDS ids and joins and UCMA_MAX_EVENTS queued events; past
 * that, new listen children are rejected and other events dropped.
 */
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/nospec.h>
#include <linux/poll.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <ordma/ib_core.h>
#include <ordma/version.h>
#include "ucma.h"

DEFINE_XARRAY_ALLOC(ucma_ids);
DEFINE_XARRAY_ALLOC(ucma_mcasts);

/* --- ids ------------------------------------------------------------------ */

/*
 * The id numbered @id, if @file owns it: ENOENT for no such id, EINVAL
 * for another file's (as in-tree).  Called under the table's lock, which
 * keeps the id in the table (and so alive) while the caller takes a
 * reference or erases it.
 */
static struct ucma_context *ucma_find_ctx(struct ucma_file *file, u32 id)
{
	struct ucma_context *ctx;

	lockdep_assert_held(&ucma_ids.xa_lock);
	ctx = xa_load(&ucma_ids, id);
	if (!ctx)
		return ERR_PTR(-ENOENT);
	if (READ_ONCE(ctx->file) != file)
		return ERR_PTR(-EINVAL);
	return ctx;
}

struct ucma_context *ucma_get_ctx(struct ucma_file *file, u32 id)
{
	struct ucma_context *ctx;

	xa_lock(&ucma_ids);
	ctx = ucma_find_ctx(file, id);
	if (!IS_ERR(ctx))
		refcount_inc(&ctx->ref);	/* the table holds one */
	xa_unlock(&ucma_ids);
	return ctx;
}

/* For commands that need the id bound to a device. */
struct ucma_context *ucma_get_ctx_dev(struct ucma_file *file, u32 id)
{
	struct ucma_context *ctx = ucma_get_ctx(file, id);

	if (!IS_ERR(ctx) && !ctx->cm_id->device) {
		ucma_put_ctx(ctx);
		return ERR_PTR(-EINVAL);
	}
	return ctx;
}

void ucma_put_ctx(struct ucma_context *ctx)
{
	if (refcount_dec_and_test(&ctx->ref))
		complete(&ctx->comp);
}

int ucma_charge_id(struct ucma_file *file)
{
	int ret = 0;

	mutex_lock(&file->mut);
	if (file->nr_ids >= UCMA_MAX_IDS)
		ret = -EMFILE;
	else
		file->nr_ids++;
	mutex_unlock(&file->mut);
	return ret;
}

void ucma_uncharge_id(struct ucma_file *file)
{
	mutex_lock(&file->mut);
	file->nr_ids--;
	mutex_unlock(&file->mut);
}

static struct ucma_context *ucma_alloc_ctx(void)
{
	struct ucma_context *ctx;

	ctx = kzalloc(sizeof(*ctx), GFP_KERNEL_ACCOUNT);
	if (!ctx)
		return NULL;
	refcount_set(&ctx->ref, 1);
	init_completion(&ctx->comp);
	mutex_init(&ctx->mutex);
	mutex_init(&ctx->event_lock);
	INIT_LIST_HEAD(&ctx->list);
	INIT_LIST_HEAD(&ctx->mc_list);
	return ctx;
}

static void ucma_free_ctx(struct ucma_context *ctx)
{
	mutex_destroy(&ctx->mutex);
	mutex_destroy(&ctx->event_lock);
	kfree(ctx);
}

static int ucma_event_handler(struct rdma_cm_id *cm_id,
			      struct rdma_cm_event *event);

/*
 * CREATE_ID: the number is reserved, written to @response, and only then
 * is the id stored: a number guessed meanwhile finds nothing, and a
 * failed copy takes down an id nobody else could have used.
 */
int ucma_create_ctx(struct ucma_file *file, u64 uid,
		    enum rdma_ucm_port_space ps, enum ib_qp_type qp_type,
		    void __user *response)
{
	struct rdma_ucm_create_id_resp resp = {};
	struct ucma_context *ctx;
	struct rdma_cm_id *cm_id;
	int ret;

	ret = ucma_charge_id(file);
	if (ret)
		return ret;
	ret = -ENOMEM;
	ctx = ucma_alloc_ctx();
	if (!ctx)
		goto err_uncharge;
	ctx->file = file;
	ctx->uid = uid;
	ctx->reporting = true;
	cm_id = rdma_create_user_id(ucma_event_handler, ctx, ps, qp_type);
	if (IS_ERR(cm_id)) {
		ret = PTR_ERR(cm_id);
		goto err_free;
	}
	ctx->cm_id = cm_id;

	ret = xa_alloc(&ucma_ids, &ctx->id, NULL, xa_limit_32b,
		       GFP_KERNEL_ACCOUNT);
	if (ret)
		goto err_destroy;
	resp.id = ctx->id;
	if (copy_to_user(response, &resp, sizeof(resp))) {
		ret = -EFAULT;
		goto err_erase;
	}
	mutex_lock(&file->mut);
	list_add_tail(&ctx->list, &file->ctx_list);
	xa_store(&ucma_ids, ctx->id, ctx, GFP_KERNEL);
	mutex_unlock(&file->mut);
	return 0;

err_erase:
	xa_erase(&ucma_ids, ctx->id);
err_destroy:
	rdma_destroy_id(cm_id);
err_free:
	ucma_free_ctx(ctx);
err_uncharge:
	ucma_uncharge_id(file);
	return ret;
}

/*
 * @ctx has left ucma_ids (its caller erased it), or was never stored
 * there (the new id of a request nobody read).  Returns the number of
 * events userspace read for it.
 *
 * Every queued event that refers to @ctx is on ctx->file: its own (the
 * handler and MIGRATE_ID agree on the file under ctx->event_lock), its
 * joins' (uev->ctx is the join's id) and, for a listener, the unread
 * requests (MIGRATE_ID refuses to move a listener that has any).  A new
 * id is never the conn_req_ctx of a queued event once it can be destroyed
 * by number, since it is stored only when its request leaves the queue.
 */
static u32 ucma_destroy_ctx(struct ucma_context *ctx)
{
	struct ucma_event *uev, *tmp;
	struct ucma_mcast *mc, *mc_tmp;
	struct ucma_file *file;
	LIST_HEAD(orphans);
	u32 events_reported;

	ucma_put_ctx(ctx);
	wait_for_completion(&ctx->comp);
	/* From here on nothing else uses ctx: no command, no handler. */
	rdma_destroy_id(ctx->cm_id);

	file = ctx->file;
	mutex_lock(&file->mut);
	list_for_each_entry_safe(uev, tmp, &file->event_list, list) {
		if (uev->ctx != ctx)
			continue;
		list_del(&uev->list);
		file->nr_events--;
		if (uev->conn_req_ctx) {
			/*
			 * A request never read: its new id, unreachable
			 * by number, goes too; free its reserved number.
			 */
			xa_erase(&ucma_ids, uev->conn_req_ctx->id);
			list_add_tail(&uev->list, &orphans);
			continue;
		}
		kfree(uev);
	}
	list_for_each_entry_safe(mc, mc_tmp, &ctx->mc_list, list) {
		xa_erase(&ucma_mcasts, mc->id);
		file->nr_ids--;
		kfree(mc);
	}
	list_del_init(&ctx->list);	/* an orphan was never listed */
	file->nr_ids--;
	events_reported = ctx->events_reported;
	mutex_unlock(&file->mut);

	list_for_each_entry_safe(uev, tmp, &orphans, list) {
		ucma_destroy_ctx(uev->conn_req_ctx);
		kfree(uev);
	}
	ucma_free_ctx(ctx);
	return events_reported;
}

int ucma_destroy_id(struct ucma_file *file, u32 id)
{
	struct ucma_context *ctx;

	xa_lock(&ucma_ids);
	ctx = ucma_find_ctx(file, id);
	if (!IS_ERR(ctx))
		__xa_erase(&ucma_ids, id);
	xa_unlock(&ucma_ids);
	if (IS_ERR(ctx))
		return PTR_ERR(ctx);
	return ucma_destroy_ctx(ctx);
}

u32 ucma_purge_mc_events(struct ucma_mcast *mc)
{
	struct ucma_file *file = mc->ctx->file;
	struct ucma_event *uev, *tmp;
	u32 events_reported;

	mutex_lock(&file->mut);
	list_for_each_entry_safe(uev, tmp, &file->event_list, list) {
		if (uev->mc != mc)
			continue;
		list_del(&uev->list);
		file->nr_events--;
		kfree(uev);
	}
	events_reported = mc->events_reported;
	mutex_unlock(&file->mut);
	return events_reported;
}

/* --- events --------------------------------------------------------------- */

void ucma_ah_attr_to_user(struct ib_uverbs_ah_attr *dst,
			  const struct ib_ah_attr *src)
{
	memset(dst, 0, sizeof(*dst));
	memcpy(dst->grh.dgid, src->dgid.raw, sizeof(dst->grh.dgid));
	dst->grh.flow_label = src->flow_label;
	dst->grh.sgid_index = src->sgid_attr ? src->sgid_attr->index :
					       src->sgid_index;
	dst->grh.hop_limit = src->hop_limit;
	dst->grh.traffic_class = src->traffic_class;
	dst->dlid = src->dlid;
	dst->sl = src->sl;
	dst->src_path_bits = src->src_path_bits;
	dst->static_rate = src->static_rate;
	dst->is_global = src->is_global;
	dst->port_num = src->port_num;
}

static void ucma_copy_private_data(u8 *dst, u8 *dst_len, const void *src,
				   u8 len)
{
	if (!src)
		len = 0;
	memcpy(dst, src, len);
	*dst_len = len;
}

static void ucma_fill_event(struct ucma_event *uev, struct rdma_cm_id *cm_id,
			    const struct rdma_cm_event *event)
{
	struct rdma_ucm_event_resp *resp = &uev->resp;

	resp->event = event->event;
	resp->status = event->status;
	if (cm_id->qp_type == IB_QPT_UD) {
		const struct rdma_ud_param *ud = &event->param.ud;

		/* Multicast events carry the join there, not data. */
		if (!uev->mc)
			ucma_copy_private_data(resp->param.ud.private_data,
					       &resp->param.ud.private_data_len,
					       ud->private_data,
					       ud->private_data_len);
		ucma_ah_attr_to_user(&resp->param.ud.ah_attr, &ud->ah_attr);
		resp->param.ud.qp_num = ud->qp_num;
		resp->param.ud.qkey = ud->qkey;
	} else {
		const struct rdma_conn_param *conn = &event->param.conn;

		ucma_copy_private_data(resp->param.conn.private_data,
				       &resp->param.conn.private_data_len,
				       conn->private_data,
				       conn->private_data_len);
		resp->param.conn.responder_resources = conn->responder_resources;
		resp->param.conn.initiator_depth = conn->initiator_depth;
		resp->param.conn.flow_control = conn->flow_control;
		resp->param.conn.retry_count = conn->retry_count;
		resp->param.conn.rnr_retry_count = conn->rnr_retry_count;
		resp->param.conn.srq = conn->srq;
		resp->param.conn.qp_num = conn->qp_num;
		resp->param.conn.qkey = conn->qkey;
	}
	resp->ece = event->ece;
}

/* Under file->mut. */
static bool ucma_queue_event(struct ucma_file *file, struct ucma_event *uev)
{
	if (file->nr_events >= UCMA_MAX_EVENTS)
		return false;
	list_add_tail(&uev->list, &file->event_list);
	file->nr_events++;
	wake_up_interruptible(&file->poll_wait);
	return true;
}

/*
 * A request on a listening id: reserve the new id's number, charge it to
 * the listener's file and queue the request; GET_EVENT stores and lists
 * the id.  Non-zero rejects it (the rdma_cm destroys the new rdma_cm id).
 */
static int ucma_connect_request(struct ucma_context *listen,
				struct rdma_cm_id *cm_id,
				struct rdma_cm_event *event)
{
	struct ucma_context *ctx;
	struct ucma_event *uev;
	struct ucma_file *file;
	int ret = -ENOMEM;

	if (!atomic_add_unless(&listen->backlog, -1, 0))
		return -ENOMEM;
	ctx = ucma_alloc_ctx();
	uev = kzalloc(sizeof(*uev), GFP_KERNEL_ACCOUNT);
	if (!ctx || !uev)
		goto err;
	ctx->cm_id = cm_id;
	uev->ctx = listen;
	uev->conn_req_ctx = ctx;
	uev->resp.uid = listen->uid;
	ucma_fill_event(uev, cm_id, event);

	mutex_lock(&listen->event_lock);
	file = listen->file;
	mutex_lock(&file->mut);
	if (file->closing || file->nr_ids >= UCMA_MAX_IDS ||
	    file->nr_events >= UCMA_MAX_EVENTS)
		goto err_unlock;
	ctx->file = file;
	cm_id->context = ctx;
	ret = xa_alloc(&ucma_ids, &ctx->id, NULL, xa_limit_32b,
		       GFP_KERNEL_ACCOUNT);
	if (ret) {
		cm_id->context = listen;
		goto err_unlock;
	}
	file->nr_ids++;
	uev->resp.id = ctx->id;
	ucma_queue_event(file, uev);
	mutex_unlock(&file->mut);
	mutex_unlock(&listen->event_lock);
	return 0;

err_unlock:
	mutex_unlock(&file->mut);
	mutex_unlock(&listen->event_lock);
err:
	kfree(uev);
	if (ctx)
		ucma_free_ctx(ctx);
	atomic_inc(&listen->backlog);
	return ret ? ret : -ENOMEM;
}

static int ucma_event_handler(struct rdma_cm_id *cm_id,
			      struct rdma_cm_event *event)
{
	struct ucma_context *ctx = cm_id->context;
	struct ucma_mcast *mc = NULL;
	struct ucma_event *uev;
	struct ucma_file *file;

	if (event->event == RDMA_CM_EVENT_CONNECT_REQUEST)
		return ucma_connect_request(ctx, cm_id, event);

	if (event->event == RDMA_CM_EVENT_MULTICAST_JOIN ||
	    event->event == RDMA_CM_EVENT_MULTICAST_ERROR)
		mc = (struct ucma_mcast *)event->param.ud.private_data;
	/* A new id reports nothing until ACCEPT names its user context. */
	if (!mc && !smp_load_acquire(&ctx->reporting))
		return 0;

	uev = kzalloc(sizeof(*uev), GFP_KERNEL_ACCOUNT);
	if (!uev)
		return 0;
	uev->ctx = ctx;
	uev->mc = mc;
	uev->resp.uid = mc ? mc->uid : ctx->uid;
	uev->resp.id = mc ? mc->id : ctx->id;
	ucma_fill_event(uev, cm_id, event);

	mutex_lock(&ctx->event_lock);
	file = ctx->file;
	mutex_lock(&file->mut);
	if (!ucma_queue_event(file, uev)) {
		pr_warn_ratelimited("rdma_ucm: event queue full, %s dropped\n",
				    rdma_event_msg(event->event));
		kfree(uev);
	}
	mutex_unlock(&file->mut);
	mutex_unlock(&ctx->event_lock);
	return 0;
}

int ucma_get_event(struct ucma_file *file, void __user *response, u16 out_len)
{
	struct ucma_event *uev;

	mutex_lock(&file->mut);
	while (list_empty(&file->event_list)) {
		mutex_unlock(&file->mut);
		if (file->filp->f_flags & O_NONBLOCK)
			return -EAGAIN;
		if (wait_event_interruptible(file->poll_wait,
					     !list_empty(&file->event_list)))
			return -ERESTARTSYS;
		mutex_lock(&file->mut);
	}
	uev = list_first_entry(&file->event_list, struct ucma_event, list);
	if (copy_to_user(response, &uev->resp,
			 min_t(size_t, out_len, sizeof(uev->resp)))) {
		mutex_unlock(&file->mut);
		return -EFAULT;
	}
	list_del(&uev->list);
	file->nr_events--;
	uev->ctx->events_reported++;
	if (uev->mc)
		uev->mc->events_reported++;
	/*
	 * The new id is the user's now: reachable by the number just
	 * returned, and the file's to destroy on close (it has been its
	 * file since the request: a listener with unread requests does not
	 * migrate).  The slot was reserved, so storing needs no memory.
	 * The listener may take another request.
	 */
	if (uev->conn_req_ctx) {
		list_add_tail(&uev->conn_req_ctx->list, &file->ctx_list);
		xa_store(&ucma_ids, uev->conn_req_ctx->id, uev->conn_req_ctx,
			 GFP_KERNEL);
		atomic_inc(&uev->ctx->backlog);
	}
	mutex_unlock(&file->mut);
	kfree(uev);
	return 0;
}

static void ucma_lock_files(struct ucma_file *a, struct ucma_file *b)
{
	if (a > b)
		swap(a, b);
	mutex_lock(&a->mut);
	mutex_lock_nested(&b->mut, SINGLE_DEPTH_NESTING);
}

/*
 * Move @ctx (its mutex held), its joins and its queued events to
 * @new_file.  An id with unread connection requests stays: their new ids
 * belong to its current file.
 */
int ucma_migrate(struct ucma_file *new_file, struct ucma_context *ctx,
		 u32 *events_reported)
{
	struct ucma_file *old_file;
	struct ucma_event *uev, *tmp;
	unsigned int nr_events = 0, nr_ids = 1;
	struct ucma_mcast *mc;
	LIST_HEAD(moving);
	int ret = 0;

	list_for_each_entry(mc, &ctx->mc_list, list)
		nr_ids++;

	mutex_lock(&ctx->event_lock);
	old_file = ctx->file;
	if (old_file == new_file) {
		mutex_lock(&old_file->mut);
		*events_reported = ctx->events_reported;
		mutex_unlock(&old_file->mut);
		goto out;
	}
	ucma_lock_files(old_file, new_file);
	if (xa_load(&ucma_ids, ctx->id) != ctx) {
		ret = -ENOENT;		/* being destroyed */
		goto out_unlock;
	}
	list_for_each_entry(uev, &old_file->event_list, list) {
		if (uev->ctx != ctx)
			continue;
		if (uev->conn_req_ctx) {
			ret = -EBUSY;
			goto out_unlock;
		}
		nr_events++;
	}
	if (new_file->closing || new_file->nr_ids + nr_ids > UCMA_MAX_IDS ||
	    new_file->nr_events + nr_events > UCMA_MAX_EVENTS) {
		ret = -EMFILE;
		goto out_unlock;
	}
	list_for_each_entry_safe(uev, tmp, &old_file->event_list, list)
		if (uev->ctx == ctx)
			list_move_tail(&uev->list, &moving);
	list_splice_tail(&moving, &new_file->event_list);
	old_file->nr_events -= nr_events;
	new_file->nr_events += nr_events;
	old_file->nr_ids -= nr_ids;
	new_file->nr_ids += nr_ids;
	list_move_tail(&ctx->list, &new_file->ctx_list);
	WRITE_ONCE(ctx->file, new_file);
	*events_reported = ctx->events_reported;
	if (nr_events)
		wake_up_interruptible(&new_file->poll_wait);
out_unlock:
	mutex_unlock(&old_file->mut);
	mutex_unlock(&new_file->mut);
out:
	mutex_unlock(&ctx->event_lock);
	return ret;
}

/* --- the character device ------------------------------------------------- */

union ucma_cmd_any {
	struct rdma_ucm_create_id create_id;
	struct rdma_ucm_destroy_id destroy_id;
	struct rdma_ucm_bind_ip bind_ip;
	struct rdma_ucm_bind bind;
	struct rdma_ucm_resolve_ip resolve_ip;
	struct rdma_ucm_resolve_addr resolve_addr;
	struct rdma_ucm_resolve_route resolve_route;
	struct rdma_ucm_query query;
	struct rdma_ucm_connect connect;
	struct rdma_ucm_listen listen;
	struct rdma_ucm_accept accept;
	struct rdma_ucm_reject reject;
	struct rdma_ucm_disconnect disconnect;
	struct rdma_ucm_init_qp_attr init_qp_attr;
	struct rdma_ucm_get_event get_event;
	struct rdma_ucm_set_option set_option;
	struct rdma_ucm_notify notify;
	struct rdma_ucm_join_ip_mcast join_ip_mcast;
	struct rdma_ucm_join_mcast join_mcast;
	struct rdma_ucm_migrate_id migrate_id;
};

static ssize_t ucma_write(struct file *filp, const char __user *buf,
			  size_t len, loff_t *pos)
{
	struct ucma_file *file = filp->private_data;
	const struct ucma_cmd_size *size;
	struct rdma_ucm_cmd_hdr hdr;
	union ucma_cmd_any cmd;
	u32 index;
	int ret;

	/* The opener's credentials, not a setuid writer's (as in-tree). */
	if (filp->f_cred != current_cred())
		return -EACCES;
	if (len < sizeof(hdr))
		return -EINVAL;
	if (copy_from_user(&hdr, buf, sizeof(hdr)))
		return -EFAULT;
	ret = ucma_cmd_check(&hdr, len);
	if (ret)
		return ret;
	index = array_index_nospec(hdr.cmd, UCMA_CMD_COUNT);
	size = &ucma_cmd_sizes[index];
	if (WARN_ON_ONCE(size->in > sizeof(cmd) || !ucma_cmd_handlers[index]))
		return -ENOSYS;

	memset(&cmd, 0, size->in);
	if (copy_from_user(&cmd, buf + sizeof(hdr), min(hdr.in, size->in)))
		return -EFAULT;
	ret = ucma_cmd_handlers[index](file, &cmd, hdr.out);
	return ret ? ret : len;
}

static __poll_t ucma_poll(struct file *filp, struct poll_table_struct *wait)
{
	struct ucma_file *file = filp->private_data;

	poll_wait(filp, &file->poll_wait, wait);
	return list_empty_careful(&file->event_list) ? 0 : EPOLLIN | EPOLLRDNORM;
}

static int ucma_open(struct inode *inode, struct file *filp)
{
	struct ucma_file *file;

	file = kzalloc(sizeof(*file), GFP_KERNEL_ACCOUNT);
	if (!file)
		return -ENOMEM;
	mutex_init(&file->mut);
	INIT_LIST_HEAD(&file->ctx_list);
	INIT_LIST_HEAD(&file->event_list);
	init_waitqueue_head(&file->poll_wait);
	file->filp = filp;
	filp->private_data = file;
	return stream_open(inode, filp);
}

static int ucma_close(struct inode *inode, struct file *filp)
{
	struct ucma_file *file = filp->private_data;
	struct ucma_context *ctx;
	struct ucma_event *uev, *tmp;

	mutex_lock(&file->mut);
	file->closing = true;
	mutex_unlock(&file->mut);

	for (;;) {
		mutex_lock(&file->mut);
		ctx = list_first_entry_or_null(&file->ctx_list,
					       struct ucma_context, list);
		/* Only this file's ids are listed; nobody else erases them. */
		if (ctx && xa_erase(&ucma_ids, ctx->id) != ctx) {
			list_del_init(&ctx->list);
			file->nr_ids--;
			ctx = NULL;
			mutex_unlock(&file->mut);
			continue;
		}
		mutex_unlock(&file->mut);
		if (!ctx)
			break;
		ucma_destroy_ctx(ctx);
	}

	/* Every event belonged to an id; none should remain. */
	list_for_each_entry_safe(uev, tmp, &file->event_list, list)
		kfree(uev);
	mutex_destroy(&file->mut);
	kfree(file);
	return 0;
}

const struct file_operations ucma_fops = {
	.owner = THIS_MODULE,
	.open = ucma_open,
	.release = ucma_close,
	.write = ucma_write,
	.poll = ucma_poll,
};

static ssize_t abi_version_show(struct device *dev,
				struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%d\n", RDMA_USER_CM_ABI_VERSION);
}
static DEVICE_ATTR_RO(abi_version);

static struct attribute *ucma_attrs[] = {
	&dev_attr_abi_version.attr,
	NULL,
};
ATTRIBUTE_GROUPS(ucma);

static struct miscdevice ucma_misc = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = "rdma_cm",
	.nodename = "infiniband/rdma_cm",
	.mode = 0666,
	.fops = &ucma_fops,
	.groups = ucma_groups,
};

/* GET_CHARDEV "rdma_cm": one device for all RDMA devices. */
static int ucma_get_global_nl_info(struct ib_client_nl_info *res)
{
	res->abi = RDMA_USER_CM_ABI_VERSION;
	res->cdev = ucma_misc.this_device;
	return 0;
}

static struct ib_client ucma_client = {
	.name = "rdma_cm",
	.get_global_nl_info = ucma_get_global_nl_info,
};

static int __init ucma_init(void)
{
	int ret;

	ret = misc_register(&ucma_misc);
	if (ret)
		return ret;
	ret = ib_register_client(&ucma_client);
	if (ret)
		misc_deregister(&ucma_misc);
	return ret;
}

static void __exit ucma_exit(void)
{
	ib_unregister_client(&ucma_client);
	misc_deregister(&ucma_misc);
}

module_init(ucma_init);
module_exit(ucma_exit);

MODULE_DESCRIPTION("RDMA connection manager userspace access (out-of-tree)");
MODULE_LICENSE("Dual BSD/GPL");
MODULE_VERSION(ORDMA_VERSION);
MODULE_ALIAS_MISCDEV(MISC_DYNAMIC_MINOR);
MODULE_ALIAS("devname:infiniband/rdma_cm");
MODULE_ALIAS("rdma-client-rdma_cm");
