// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The rdma_ucm commands.  ucma_write() has checked the sizes (ucma_abi.c)
 * and copied the request; each handler here validates the fields the
 * in-tree module validates, looks up the id (ENOENT: no such id, EINVAL:
 * another file's), calls the rdma_cm under the id's mutex and writes its
 * response.  Errnos from the rdma_cm pass through unchanged.
 */
#include <linux/file.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <rdma/ib.h>
#include <ordma/test_pause.h>
#include "ucma.h"

/* The in-tree default of net.rdma_ucm.max_backlog. */
#define UCMA_MAX_BACKLOG	1024
/* Longest SET_OPTION value copied in (a few path records at most). */
#define UCMA_MAX_OPTLEN		4096

static size_t ucma_addr_size(const void *addr)
{
	switch (((const struct sockaddr *)addr)->sa_family) {
	case AF_INET:
		return sizeof(struct sockaddr_in);
	case AF_INET6:
		return sizeof(struct sockaddr_in6);
	case AF_IB:
		return sizeof(struct sockaddr_ib);
	default:
		return 0;
	}
}

/* The legacy commands carry a sockaddr_in6-sized IP address. */
static bool ucma_ip_addr_ok(const struct sockaddr_in6 *addr)
{
	sa_family_t family = addr->sin6_family;

	return family == AF_INET || family == AF_INET6;
}

/*
 * Most commands act on one id under its mutex.  The lookup takes a
 * reference, so DESTROY_ID waits for us rather than freeing the id under
 * the rdma_cm call; the mutex orders us against the id's event handler.
 * @need_dev: the command makes sense only once the id has a device
 * (EINVAL before, as in-tree).
 */
static struct ucma_context *ucma_lock_ctx(struct ucma_file *file, u32 id,
					  bool need_dev)
{
	struct ucma_context *ctx;

	ctx = need_dev ? ucma_get_ctx_dev(file, id) : ucma_get_ctx(file, id);
	if (!IS_ERR(ctx))
		mutex_lock(&ctx->mutex);
	return ctx;
}

static void ucma_unlock_ctx(struct ucma_context *ctx)
{
	mutex_unlock(&ctx->mutex);
	ucma_put_ctx(ctx);
}

static int ucma_create_id_cmd(struct ucma_file *file, const void *req,
			      u16 out_len)
{
	const struct rdma_ucm_create_id *cmd = req;
	enum ib_qp_type qp_type;

	switch (cmd->ps) {
	case RDMA_PS_TCP:
		qp_type = IB_QPT_RC;
		break;
	case RDMA_PS_UDP:
	case RDMA_PS_IPOIB:
		qp_type = IB_QPT_UD;
		break;
	case RDMA_PS_IB:
		qp_type = cmd->qp_type;
		break;
	default:
		return -EINVAL;
	}
	return ucma_create_ctx(file, cmd->uid, cmd->ps, qp_type,
			       u64_to_user_ptr(cmd->response));
}

static int ucma_destroy_id_cmd(struct ucma_file *file, const void *req,
			       u16 out_len)
{
	const struct rdma_ucm_destroy_id *cmd = req;
	struct rdma_ucm_destroy_id_resp resp = {};
	int ret;

	ret = ucma_destroy_id(file, cmd->id);
	if (ret < 0)
		return ret;
	resp.events_reported = ret;
	if (copy_to_user(u64_to_user_ptr(cmd->response), &resp, sizeof(resp)))
		return -EFAULT;
	return 0;
}

static int ucma_bind_addr(struct ucma_file *file, u32 id, const void *addr)
{
	struct ucma_context *ctx;
	int ret;

	ctx = ucma_lock_ctx(file, id, false);
	if (IS_ERR(ctx))
		return PTR_ERR(ctx);
	ret = rdma_bind_addr(ctx->cm_id, (struct sockaddr *)addr);
	ucma_unlock_ctx(ctx);
	return ret;
}

static int ucma_bind_ip_cmd(struct ucma_file *file, const void *req,
			    u16 out_len)
{
	const struct rdma_ucm_bind_ip *cmd = req;

	if (!ucma_ip_addr_ok(&cmd->addr))
		return -EINVAL;
	return ucma_bind_addr(file, cmd->id, &cmd->addr);
}

static int ucma_bind_cmd(struct ucma_file *file, const void *req,
			 u16 out_len)
{
	const struct rdma_ucm_bind *cmd = req;

	if (cmd->reserved || !cmd->addr_size ||
	    cmd->addr_size != ucma_addr_size(&cmd->addr))
		return -EINVAL;
	return ucma_bind_addr(file, cmd->id, &cmd->addr);
}

static int ucma_resolve(struct ucma_file *file, u32 id, const void *src,
			const void *dst, u32 timeout_ms)
{
	struct ucma_context *ctx;
	int ret;

	ctx = ucma_lock_ctx(file, id, false);
	if (IS_ERR(ctx))
		return PTR_ERR(ctx);
	ret = rdma_resolve_addr(ctx->cm_id, (struct sockaddr *)src,
				(const struct sockaddr *)dst, timeout_ms);
	ucma_unlock_ctx(ctx);
	return ret;
}

static int ucma_resolve_ip_cmd(struct ucma_file *file, const void *req,
			       u16 out_len)
{
	const struct rdma_ucm_resolve_ip *cmd = req;

	if ((cmd->src_addr.sin6_family && !ucma_ip_addr_ok(&cmd->src_addr)) ||
	    !ucma_ip_addr_ok(&cmd->dst_addr))
		return -EINVAL;
	return ucma_resolve(file, cmd->id, &cmd->src_addr, &cmd->dst_addr,
			    cmd->timeout_ms);
}

static int ucma_resolve_addr_cmd(struct ucma_file *file, const void *req,
				 u16 out_len)
{
	const struct rdma_ucm_resolve_addr *cmd = req;

	if (cmd->reserved ||
	    (cmd->src_size && cmd->src_size != ucma_addr_size(&cmd->src_addr)) ||
	    !cmd->dst_size || cmd->dst_size != ucma_addr_size(&cmd->dst_addr))
		return -EINVAL;
	return ucma_resolve(file, cmd->id, &cmd->src_addr, &cmd->dst_addr,
			    cmd->timeout_ms);
}

static int ucma_resolve_route_cmd(struct ucma_file *file, const void *req,
				  u16 out_len)
{
	const struct rdma_ucm_resolve_route *cmd = req;
	struct ucma_context *ctx;
	int ret;

	ctx = ucma_lock_ctx(file, cmd->id, true);
	if (IS_ERR(ctx))
		return PTR_ERR(ctx);
	ret = rdma_resolve_route(ctx->cm_id, cmd->timeout_ms);
	ucma_unlock_ctx(ctx);
	return ret;
}

static void ucma_roce_path(struct ucma_roce_path *dst,
			   const struct ib_cm_path *src)
{
	memcpy(dst->sgid, src->sgid.raw, 16);
	memcpy(dst->dgid, src->dgid.raw, 16);
	dst->flow_label = src->flow_label;
	dst->hop_limit = src->hop_limit;
	dst->traffic_class = src->traffic_class;
	dst->sl = src->sl;
	dst->mtu = src->mtu;
	dst->rate = src->rate;
	dst->packet_life_time = src->packet_life_time;
	dst->pkey = src->pkey;
}

static size_t ucma_copy_addr(void *dst, const struct sockaddr_storage *src)
{
	size_t size = ucma_addr_size(src);

	memcpy(dst, src, size);
	return size;
}

/* In the legacy route response, addresses are sockaddr_in6 sized. */
static void ucma_copy_ip_addr(struct sockaddr_in6 *dst,
			      const struct sockaddr_storage *src)
{
	if (src->ss_family == AF_INET || src->ss_family == AF_INET6)
		ucma_copy_addr(dst, src);
}

static int ucma_query_route_cmd(struct ucma_file *file, const void *req,
				u16 out_len)
{
	const struct rdma_ucm_query *cmd = req;
	struct rdma_ucm_query_route_resp resp = {};
	struct ucma_roce_path path;
	struct ucma_context *ctx;
	struct rdma_cm_id *cm_id;
	union ib_gid sgid, dgid;
	int i, ret = 0;

	ctx = ucma_lock_ctx(file, cmd->id, false);
	if (IS_ERR(ctx))
		return PTR_ERR(ctx);
	cm_id = ctx->cm_id;
	ucma_copy_ip_addr(&resp.src_addr, &cm_id->route.addr.src_addr);
	ucma_copy_ip_addr(&resp.dst_addr, &cm_id->route.addr.dst_addr);
	/* Removal detaches the id from its device: not while we read it. */
	rdma_lock_id_device(cm_id);
	if (cm_id->device) {
		/* (test-only: hold a query here, tests/guest/removal_pause.sh) */
		ib_test_pause(IB_TEST_PAUSE_UCMA_QUERY);
		resp.node_guid = (__force u64)cm_id->device->node_guid;
		resp.ibdev_index = cm_id->device->index;
		resp.port_num = cm_id->port_num;
		resp.num_paths = cm_id->route.path_rec ?
				 min(cm_id->route.num_pri_alt_paths, 2) : 0;
		for (i = 0; i < resp.num_paths; i++) {
			ucma_roce_path(&path, &cm_id->route.path_rec[i]);
			ucma_path_to_user(&resp.ib_route[i], &path);
		}
		if (!resp.num_paths) {
			rdma_read_gids(cm_id, &sgid, &dgid);
			ucma_route_gids_to_user(&resp.ib_route[0], sgid.raw,
						dgid.raw);
		}
	}
	rdma_unlock_id_device(cm_id);
	ucma_unlock_ctx(ctx);
	if (copy_to_user(u64_to_user_ptr(cmd->response), &resp,
			 min_t(size_t, out_len, sizeof(resp))))
		ret = -EFAULT;
	return ret;
}

/* The P_Key a RoCE id reports: its path's, else the default. */
static u16 ucma_pkey(struct rdma_cm_id *cm_id)
{
	if (cm_id->route.path_rec && cm_id->route.num_pri_alt_paths)
		return cm_id->route.path_rec[0].pkey;
	return 0xffff;
}

static void ucma_query_device(struct rdma_cm_id *cm_id,
			      struct rdma_ucm_query_addr_resp *resp)
{
	if (!cm_id->device)
		return;
	/* (test-only: hold a query here, tests/guest/removal_pause.sh) */
	ib_test_pause(IB_TEST_PAUSE_UCMA_QUERY);
	resp->node_guid = (__force u64)cm_id->device->node_guid;
	resp->ibdev_index = cm_id->device->index;
	resp->port_num = cm_id->port_num;
	resp->pkey = (__force u16)cpu_to_be16(ucma_pkey(cm_id));
}

static int ucma_query_addr(struct ucma_context *ctx,
			   struct rdma_ucm_query_addr_resp *resp)
{
	struct rdma_cm_id *cm_id = ctx->cm_id;

	resp->src_size = ucma_copy_addr(&resp->src_addr,
					&cm_id->route.addr.src_addr);
	resp->dst_size = ucma_copy_addr(&resp->dst_addr,
					&cm_id->route.addr.dst_addr);
	ucma_query_device(cm_id, resp);
	return 0;
}

/* The id's addresses as AF_IB: GID, P_Key and service id. */
static int ucma_query_gid(struct ucma_context *ctx,
			  struct rdma_ucm_query_addr_resp *resp)
{
	struct rdma_cm_id *cm_id = ctx->cm_id;
	struct sockaddr_ib *src = (struct sockaddr_ib *)&resp->src_addr;
	struct sockaddr_ib *dst = (struct sockaddr_ib *)&resp->dst_addr;
	union ib_gid sgid = {}, dgid = {};

	ucma_query_device(cm_id, resp);
	if (cm_id->device)
		rdma_read_gids(cm_id, &sgid, &dgid);
	resp->src_size = sizeof(*src);
	src->sib_family = AF_IB;
	src->sib_pkey = (__force __be16)resp->pkey;
	memcpy(&src->sib_addr, sgid.raw, sizeof(src->sib_addr));
	src->sib_sid = rdma_get_service_id(cm_id, (struct sockaddr *)
					   &cm_id->route.addr.src_addr);
	resp->dst_size = sizeof(*dst);
	dst->sib_family = AF_IB;
	dst->sib_pkey = (__force __be16)resp->pkey;
	memcpy(&dst->sib_addr, dgid.raw, sizeof(dst->sib_addr));
	dst->sib_sid = rdma_get_service_id(cm_id, (struct sockaddr *)
					   &cm_id->route.addr.dst_addr);
	return 0;
}

static int ucma_query_path(struct ucma_context *ctx, void __user *response,
			   u16 out_len)
{
	struct rdma_cm_id *cm_id = ctx->cm_id;
	struct rdma_ucm_query_path_resp head = {};
	struct ib_path_rec_data data;
	struct ucma_roce_path path;
	u32 i, room;

	if (cm_id->route.path_rec)
		head.num_paths = min(cm_id->route.num_pri_alt_paths, 2);
	room = (out_len - sizeof(head)) / sizeof(data);
	for (i = 0; i < head.num_paths && i < room; i++) {
		ucma_roce_path(&path, &cm_id->route.path_rec[i]);
		ucma_path_pack(&data, &path);
		if (copy_to_user(response + sizeof(head) + i * sizeof(data),
				 &data, sizeof(data)))
			return -EFAULT;
	}
	if (copy_to_user(response, &head, sizeof(head)))
		return -EFAULT;
	return 0;
}

static int ucma_query_cmd(struct ucma_file *file, const void *req,
			  u16 out_len)
{
	const struct rdma_ucm_query *cmd = req;
	void __user *response = u64_to_user_ptr(cmd->response);
	struct rdma_ucm_query_addr_resp resp = {};
	struct ucma_context *ctx;
	int ret;

	switch (cmd->option) {
	case RDMA_USER_CM_QUERY_ADDR:
	case RDMA_USER_CM_QUERY_GID:
		if (out_len < offsetof(struct rdma_ucm_query_addr_resp,
				       ibdev_index))
			return -ENOSPC;
		break;
	case RDMA_USER_CM_QUERY_PATH:
		if (out_len < sizeof(struct rdma_ucm_query_path_resp))
			return -ENOSPC;
		break;
	default:
		return -ENOSYS;
	}

	ctx = ucma_lock_ctx(file, cmd->id, false);
	if (IS_ERR(ctx))
		return PTR_ERR(ctx);
	if (cmd->option == RDMA_USER_CM_QUERY_PATH) {
		/* (the id's own path records: no device, and copies to user) */
		ret = ucma_query_path(ctx, response, out_len);
	} else {
		/* Removal detaches the id from its device: not meanwhile. */
		rdma_lock_id_device(ctx->cm_id);
		if (cmd->option == RDMA_USER_CM_QUERY_ADDR)
			ret = ucma_query_addr(ctx, &resp);
		else
			ret = ucma_query_gid(ctx, &resp);
		rdma_unlock_id_device(ctx->cm_id);
	}
	ucma_unlock_ctx(ctx);
	if (!ret && cmd->option != RDMA_USER_CM_QUERY_PATH &&
	    copy_to_user(response, &resp,
			 min_t(size_t, out_len, sizeof(resp))))
		ret = -EFAULT;
	return ret;
}

static void ucma_conn_param(struct rdma_cm_id *cm_id,
			    struct rdma_conn_param *dst,
			    const struct rdma_ucm_conn_param *src)
{
	dst->private_data = src->private_data;
	dst->private_data_len = src->private_data_len;
	dst->responder_resources = src->responder_resources;
	dst->initiator_depth = src->initiator_depth;
	dst->flow_control = src->flow_control;
	dst->retry_count = src->retry_count;
	dst->rnr_retry_count = src->rnr_retry_count;
	dst->srq = src->srq;
	dst->qp_num = src->qp_num & 0xffffff;
	/* IP port spaces use the well-known Q_Key; only AF_IB picks one. */
	dst->qkey = cm_id->route.addr.src_addr.ss_family == AF_IB ?
		    src->qkey : 0;
}

static int ucma_connect_cmd(struct ucma_file *file, const void *req,
			    u16 out_len)
{
	const struct rdma_ucm_connect *cmd = req;
	struct rdma_conn_param param;
	struct ucma_context *ctx;
	int ret;

	if (!cmd->conn_param.valid)
		return -EINVAL;
	ctx = ucma_lock_ctx(file, cmd->id, true);
	if (IS_ERR(ctx))
		return PTR_ERR(ctx);
	ucma_conn_param(ctx->cm_id, &param, &cmd->conn_param);
	ret = rdma_connect(ctx->cm_id, &param);
	ucma_unlock_ctx(ctx);
	return ret;
}

static int ucma_listen_cmd(struct ucma_file *file, const void *req,
			   u16 out_len)
{
	const struct rdma_ucm_listen *cmd = req;
	struct ucma_context *ctx;
	int backlog = cmd->backlog;
	int ret;

	if (backlog <= 0 || backlog > UCMA_MAX_BACKLOG)
		backlog = UCMA_MAX_BACKLOG;
	ctx = ucma_lock_ctx(file, cmd->id, false);
	if (IS_ERR(ctx))
		return PTR_ERR(ctx);
	atomic_set(&ctx->backlog, backlog);
	ret = rdma_listen(ctx->cm_id, backlog);
	ucma_unlock_ctx(ctx);
	return ret;
}

static int ucma_accept_cmd(struct ucma_file *file, const void *req,
			   u16 out_len)
{
	const struct rdma_ucm_accept *cmd = req;
	struct rdma_conn_param param;
	struct ucma_context *ctx;
	int ret;

	ctx = ucma_lock_ctx(file, cmd->id, true);
	if (IS_ERR(ctx))
		return PTR_ERR(ctx);
	if (cmd->conn_param.valid) {
		/*
		 * The passive side: from now on the new id's events reach
		 * userspace, under this uid.
		 */
		ctx->uid = cmd->uid;
		/* pairs with ucma_event_handler()'s acquire: it sees the uid */
		smp_store_release(&ctx->reporting, true);
		ucma_conn_param(ctx->cm_id, &param, &cmd->conn_param);
		ret = rdma_accept(ctx->cm_id, &param);
	} else {
		/* The active side after its REP: the RTU, nothing else. */
		ret = rdma_accept(ctx->cm_id, NULL);
	}
	ucma_unlock_ctx(ctx);
	return ret;
}

static int ucma_reject_cmd(struct ucma_file *file, const void *req,
			   u16 out_len)
{
	const struct rdma_ucm_reject *cmd = req;
	struct ucma_context *ctx;
	u8 reason = cmd->reason ? cmd->reason : IB_CM_REJ_CONSUMER_DEFINED;
	int ret;

	if (reason != IB_CM_REJ_CONSUMER_DEFINED &&
	    reason != IB_CM_REJ_VENDOR_OPTION_NOT_SUPPORTED)
		return -EINVAL;
	ctx = ucma_lock_ctx(file, cmd->id, true);
	if (IS_ERR(ctx))
		return PTR_ERR(ctx);
	ret = rdma_reject(ctx->cm_id, cmd->private_data, cmd->private_data_len,
			  reason);
	ucma_unlock_ctx(ctx);
	return ret;
}

static int ucma_disconnect_cmd(struct ucma_file *file, const void *req,
			       u16 out_len)
{
	const struct rdma_ucm_disconnect *cmd = req;
	struct ucma_context *ctx;
	int ret;

	ctx = ucma_lock_ctx(file, cmd->id, true);
	if (IS_ERR(ctx))
		return PTR_ERR(ctx);
	ret = rdma_disconnect(ctx->cm_id);
	ucma_unlock_ctx(ctx);
	return ret;
}

static void ucma_qp_attr_to_user(struct ib_uverbs_qp_attr *dst,
				 const struct ib_qp_attr *src, int mask)
{
	dst->qp_attr_mask = mask;
	dst->qp_state = src->qp_state;
	dst->cur_qp_state = src->cur_qp_state;
	dst->path_mtu = src->path_mtu;
	dst->path_mig_state = src->path_mig_state;
	dst->qkey = src->qkey;
	dst->rq_psn = src->rq_psn;
	dst->sq_psn = src->sq_psn;
	dst->dest_qp_num = src->dest_qp_num;
	dst->qp_access_flags = src->qp_access_flags;
	dst->max_send_wr = src->cap.max_send_wr;
	dst->max_recv_wr = src->cap.max_recv_wr;
	dst->max_send_sge = src->cap.max_send_sge;
	dst->max_recv_sge = src->cap.max_recv_sge;
	dst->max_inline_data = src->cap.max_inline_data;
	if (mask & IB_QP_AV)
		ucma_ah_attr_to_user(&dst->ah_attr, &src->ah_attr);
	if (mask & IB_QP_ALT_PATH)
		ucma_ah_attr_to_user(&dst->alt_ah_attr, &src->alt_ah_attr);
	dst->pkey_index = src->pkey_index;
	dst->alt_pkey_index = src->alt_pkey_index;
	dst->en_sqd_async_notify = src->en_sqd_async_notify;
	dst->sq_draining = src->sq_draining;
	dst->max_rd_atomic = src->max_rd_atomic;
	dst->max_dest_rd_atomic = src->max_dest_rd_atomic;
	dst->min_rnr_timer = src->min_rnr_timer;
	dst->port_num = src->port_num;
	dst->timeout = src->timeout;
	dst->retry_cnt = src->retry_cnt;
	dst->rnr_retry = src->rnr_retry;
	dst->alt_port_num = src->alt_port_num;
	dst->alt_timeout = src->alt_timeout;
}

static int ucma_init_qp_attr_cmd(struct ucma_file *file, const void *req,
				 u16 out_len)
{
	const struct rdma_ucm_init_qp_attr *cmd = req;
	struct ib_uverbs_qp_attr resp = {};
	struct ucma_context *ctx;
	struct ib_qp_attr *attr;
	int mask, ret;

	if (cmd->qp_state > IB_QPS_ERR)
		return -EINVAL;
	attr = kzalloc(sizeof(*attr), GFP_KERNEL);
	if (!attr)
		return -ENOMEM;
	attr->qp_state = cmd->qp_state;
	ctx = ucma_lock_ctx(file, cmd->id, true);
	if (IS_ERR(ctx)) {
		ret = PTR_ERR(ctx);
		goto out;
	}
	ret = rdma_init_qp_attr(ctx->cm_id, attr, &mask);
	ucma_unlock_ctx(ctx);
	if (ret)
		goto out;
	ucma_qp_attr_to_user(&resp, attr, mask);
	if (copy_to_user(u64_to_user_ptr(cmd->response), &resp, sizeof(resp)))
		ret = -EFAULT;
out:
	kfree(attr);
	return ret;
}

static int ucma_get_event_cmd(struct ucma_file *file, const void *req,
			      u16 out_len)
{
	const struct rdma_ucm_get_event *cmd = req;

	return ucma_get_event(file, u64_to_user_ptr(cmd->response), out_len);
}

static int ucma_set_option_id(struct rdma_cm_id *cm_id, u32 optname,
			      const void *optval, u32 optlen)
{
	switch (optname) {
	case RDMA_OPTION_ID_TOS:
		if (optlen != sizeof(u8))
			return -EINVAL;
		rdma_set_service_type(cm_id, *(const u8 *)optval);
		return 0;
	case RDMA_OPTION_ID_REUSEADDR:
		if (optlen != sizeof(int))
			return -EINVAL;
		return rdma_set_reuseaddr(cm_id, !!*(const int *)optval);
	case RDMA_OPTION_ID_AFONLY:
		if (optlen != sizeof(int))
			return -EINVAL;
		return rdma_set_afonly(cm_id, !!*(const int *)optval);
	case RDMA_OPTION_ID_ACK_TIMEOUT:
		if (optlen != sizeof(u8))
			return -EINVAL;
		return rdma_set_ack_timeout(cm_id, *(const u8 *)optval);
	default:
		return -ENOSYS;
	}
}

static int ucma_set_option_cmd(struct ucma_file *file, const void *req,
			       u16 out_len)
{
	const struct rdma_ucm_set_option *cmd = req;
	struct ucma_context *ctx;
	void *optval;
	int ret;

	/* RoCE paths come from the route, not from userspace. */
	if (cmd->level != RDMA_OPTION_ID)
		return -ENOSYS;
	if (cmd->optlen > UCMA_MAX_OPTLEN)
		return -EINVAL;
	ctx = ucma_get_ctx(file, cmd->id);
	if (IS_ERR(ctx))
		return PTR_ERR(ctx);
	optval = memdup_user(u64_to_user_ptr(cmd->optval), cmd->optlen);
	if (IS_ERR(optval)) {
		ret = PTR_ERR(optval);
		goto out;
	}
	mutex_lock(&ctx->mutex);
	ret = ucma_set_option_id(ctx->cm_id, cmd->optname, optval,
				 cmd->optlen);
	mutex_unlock(&ctx->mutex);
	kfree(optval);
out:
	ucma_put_ctx(ctx);
	return ret;
}

static int ucma_notify_cmd(struct ucma_file *file, const void *req,
			   u16 out_len)
{
	const struct rdma_ucm_notify *cmd = req;
	struct ucma_context *ctx;
	int ret;

	ctx = ucma_lock_ctx(file, cmd->id, false);
	if (IS_ERR(ctx))
		return PTR_ERR(ctx);
	ret = ctx->cm_id->device ?
	      rdma_notify(ctx->cm_id, (enum ib_event_type)cmd->event) : -EINVAL;
	ucma_unlock_ctx(ctx);
	return ret;
}

static int ucma_join(struct ucma_file *file, u32 id, u64 uid,
		     const void *addr, size_t addr_size, u16 join_flags,
		     void __user *response)
{
	struct rdma_ucm_create_id_resp resp = {};
	struct ucma_context *ctx;
	struct ucma_mcast *mc;
	u8 join_state;
	int ret;

	if (!addr_size || addr_size != ucma_addr_size(addr))
		return -EINVAL;
	if (join_flags == RDMA_MC_JOIN_FLAG_FULLMEMBER)
		join_state = RDMA_MC_JOIN_FULLMEMBER;
	else if (join_flags == RDMA_MC_JOIN_FLAG_SENDONLY_FULLMEMBER)
		join_state = RDMA_MC_JOIN_SENDONLY_FULLMEMBER;
	else
		return -EINVAL;

	ctx = ucma_lock_ctx(file, id, true);
	if (IS_ERR(ctx))
		return PTR_ERR(ctx);
	ret = ucma_charge_id(ctx->file);
	if (ret)
		goto err_unlock;
	ret = -ENOMEM;
	mc = kzalloc(sizeof(*mc), GFP_KERNEL_ACCOUNT);
	if (!mc)
		goto err_uncharge;
	mc->ctx = ctx;
	mc->uid = uid;
	mc->join_state = join_state;
	memcpy(&mc->addr, addr, addr_size);
	/* Numbered now, findable (stored) only once joined. */
	ret = xa_alloc(&ucma_mcasts, &mc->id, NULL, xa_limit_32b,
		       GFP_KERNEL_ACCOUNT);
	if (ret)
		goto err_free;
	ret = rdma_join_multicast(ctx->cm_id, (struct sockaddr *)&mc->addr,
				  join_state, mc);
	if (ret)
		goto err_erase;
	resp.id = mc->id;
	if (copy_to_user(response, &resp, sizeof(resp))) {
		ret = -EFAULT;
		goto err_leave;
	}
	list_add_tail(&mc->list, &ctx->mc_list);
	xa_store(&ucma_mcasts, mc->id, mc, GFP_KERNEL);
	ucma_unlock_ctx(ctx);
	return 0;

err_leave:
	rdma_leave_multicast(ctx->cm_id, (struct sockaddr *)&mc->addr);
	ucma_purge_mc_events(mc);
err_erase:
	xa_erase(&ucma_mcasts, mc->id);
err_free:
	kfree(mc);
err_uncharge:
	ucma_uncharge_id(ctx->file);
err_unlock:
	ucma_unlock_ctx(ctx);
	return ret;
}

static int ucma_join_ip_mcast_cmd(struct ucma_file *file, const void *req,
				  u16 out_len)
{
	const struct rdma_ucm_join_ip_mcast *cmd = req;

	return ucma_join(file, cmd->id, cmd->uid, &cmd->addr,
			 ucma_ip_addr_ok(&cmd->addr) ?
			 ucma_addr_size(&cmd->addr) : 0,
			 RDMA_MC_JOIN_FLAG_FULLMEMBER,
			 u64_to_user_ptr(cmd->response));
}

static int ucma_join_mcast_cmd(struct ucma_file *file, const void *req,
			       u16 out_len)
{
	const struct rdma_ucm_join_mcast *cmd = req;

	return ucma_join(file, cmd->id, cmd->uid, &cmd->addr, cmd->addr_size,
			 cmd->join_flags, u64_to_user_ptr(cmd->response));
}

static int ucma_leave_mcast_cmd(struct ucma_file *file, const void *req,
				u16 out_len)
{
	const struct rdma_ucm_destroy_id *cmd = req;
	struct rdma_ucm_destroy_id_resp resp = {};
	struct ucma_context *ctx;
	struct ucma_mcast *mc;

	xa_lock(&ucma_mcasts);
	mc = xa_load(&ucma_mcasts, cmd->id);
	if (!mc)
		mc = ERR_PTR(-ENOENT);
	else if (READ_ONCE(mc->ctx->file) != file)
		mc = ERR_PTR(-EINVAL);
	else if (!refcount_inc_not_zero(&mc->ctx->ref))
		mc = ERR_PTR(-ENOENT);	/* its id is going away */
	else
		__xa_erase(&ucma_mcasts, cmd->id);
	xa_unlock(&ucma_mcasts);
	if (IS_ERR(mc))
		return PTR_ERR(mc);

	ctx = mc->ctx;
	mutex_lock(&ctx->mutex);
	rdma_leave_multicast(ctx->cm_id, (struct sockaddr *)&mc->addr);
	list_del(&mc->list);
	/* Under the mutex: MIGRATE_ID cannot move the events meanwhile. */
	resp.events_reported = ucma_purge_mc_events(mc);
	ucma_uncharge_id(ctx->file);
	mutex_unlock(&ctx->mutex);
	kfree(mc);
	ucma_put_ctx(ctx);
	if (copy_to_user(u64_to_user_ptr(cmd->response), &resp, sizeof(resp)))
		return -EFAULT;
	return 0;
}

static int ucma_migrate_id_cmd(struct ucma_file *new_file, const void *req,
			       u16 out_len)
{
	const struct rdma_ucm_migrate_id *cmd = req;
	struct rdma_ucm_migrate_resp resp = {};
	struct ucma_context *ctx;
	struct file *f;
	int ret;

	/*
	 * @fd is the file the id belongs to now; the write names the new.
	 * fget() rather than fdget(): struct fd changed shape in 6.12 and
	 * this command is too rare for the saved reference to matter.
	 */
	f = fget(cmd->fd);
	if (!f)
		return -ENOENT;
	if (f->f_op != &ucma_fops) {
		ret = -EINVAL;
		goto out_fd;
	}
	ctx = ucma_lock_ctx(f->private_data, cmd->id, false);
	if (IS_ERR(ctx)) {
		ret = PTR_ERR(ctx);
		goto out_fd;
	}
	ret = ucma_migrate(new_file, ctx, &resp.events_reported);
	ucma_unlock_ctx(ctx);
	if (!ret && copy_to_user(u64_to_user_ptr(cmd->response), &resp,
				 sizeof(resp)))
		ret = -EFAULT;
out_fd:
	fput(f);
	return ret;
}

const ucma_cmd_fn ucma_cmd_handlers[UCMA_CMD_COUNT] = {
	[RDMA_USER_CM_CMD_CREATE_ID] = ucma_create_id_cmd,
	[RDMA_USER_CM_CMD_DESTROY_ID] = ucma_destroy_id_cmd,
	[RDMA_USER_CM_CMD_BIND_IP] = ucma_bind_ip_cmd,
	[RDMA_USER_CM_CMD_RESOLVE_IP] = ucma_resolve_ip_cmd,
	[RDMA_USER_CM_CMD_RESOLVE_ROUTE] = ucma_resolve_route_cmd,
	[RDMA_USER_CM_CMD_QUERY_ROUTE] = ucma_query_route_cmd,
	[RDMA_USER_CM_CMD_CONNECT] = ucma_connect_cmd,
	[RDMA_USER_CM_CMD_LISTEN] = ucma_listen_cmd,
	[RDMA_USER_CM_CMD_ACCEPT] = ucma_accept_cmd,
	[RDMA_USER_CM_CMD_REJECT] = ucma_reject_cmd,
	[RDMA_USER_CM_CMD_DISCONNECT] = ucma_disconnect_cmd,
	[RDMA_USER_CM_CMD_INIT_QP_ATTR] = ucma_init_qp_attr_cmd,
	[RDMA_USER_CM_CMD_GET_EVENT] = ucma_get_event_cmd,
	[RDMA_USER_CM_CMD_SET_OPTION] = ucma_set_option_cmd,
	[RDMA_USER_CM_CMD_NOTIFY] = ucma_notify_cmd,
	[RDMA_USER_CM_CMD_JOIN_IP_MCAST] = ucma_join_ip_mcast_cmd,
	[RDMA_USER_CM_CMD_LEAVE_MCAST] = ucma_leave_mcast_cmd,
	[RDMA_USER_CM_CMD_MIGRATE_ID] = ucma_migrate_id_cmd,
	[RDMA_USER_CM_CMD_QUERY] = ucma_query_cmd,
	[RDMA_USER_CM_CMD_BIND] = ucma_bind_cmd,
	[RDMA_USER_CM_CMD_RESOLVE_ADDR] = ucma_resolve_addr_cmd,
	[RDMA_USER_CM_CMD_JOIN_MCAST] = ucma_join_mcast_cmd,
};
