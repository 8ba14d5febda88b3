// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The legacy write() interface: a struct ib_uverbs_cmd_hdr (plus, for
 * extended commands, a struct ib_uverbs_ex_cmd_hdr) followed by the
 * command's request.  The same handlers serve UVERBS_METHOD_INVOKE_WRITE,
 * through which libibverbs sends these commands when ioctl() is available.
 *
 * Sizes: a request or response longer than the kernel's structure is
 * accepted (the excess of a request must be zero); a plain command too
 * short for its fixed part is rejected with -ENOSPC, an extended one is
 * zero-extended; responses are truncated to, or zero-filled up to, the
 * size userspace gave, so that older and newer libraries both work.
 * Errnos follow the in-tree module.
 *
 * This file is the dispatcher only: each command's handler lives with its
 * object (methods_*.c), the request and response copies in ioctl.c.
 */
#include <linux/cred.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include "uverbs.h"

/* One write() command. */
struct uverbs_write_def {
	int (*handler)(struct uverbs_attr_bundle *attrs);
	u16 req_size;		/* the least request accepted (plain only) */
	u16 resp_size;		/* the least response buffer (plain only) */
	u8 is_ex:1;		/* IB_USER_VERBS_CMD_FLAG_EXTENDED */
	u8 has_resp:1;		/* the request starts with the response address */
	u8 has_udata:1;		/* driver data follows request and response */
};

/* Request and response, no driver data. */
#define UV_WRITE_IO(_handler, _req, _resp)				\
	{ .handler = (_handler), .has_resp = 1,				\
	  .req_size = sizeof(_req) +					\
		BUILD_BUG_ON_ZERO(offsetof(_req, response) != 0),	\
	  .resp_size = sizeof(_resp) }

/* Request and response, each followed by the driver's part. */
#define UV_WRITE_UDATA_IO(_handler, _req, _resp)			\
	{ .handler = (_handler), .has_resp = 1, .has_udata = 1,		\
	  .req_size = sizeof(_req) +					\
		BUILD_BUG_ON_ZERO(offsetof(_req, response) != 0) +	\
		BUILD_BUG_ON_ZERO(offsetof(_req, driver_data) != sizeof(_req)), \
	  .resp_size = sizeof(_resp) +					\
		BUILD_BUG_ON_ZERO(offsetof(_resp, driver_data) != sizeof(_resp)) }

/* Request only. */
#define UV_WRITE_I(_handler, _req)					\
	{ .handler = (_handler), .req_size = sizeof(_req) }

/*
 * Extended: no minimum sizes are enforced, as in-tree: the handler
 * zero-extends a short request and truncates the response, whose
 * response_length field tells userspace how much it got.
 */
#define UV_WRITE_EX(_handler)						\
	{ .handler = (_handler), .is_ex = 1, .has_resp = 1 }

/*
 * Indexed by command.  In-tree, a device's tables end at the highest
 * command it supports; these end where they do for rxe (CREATE_XSRQ and
 * the extended MODIFY_QP), so that malformed commands get rxe's errnos.
 * A command within a table that is not implemented passes the header
 * checks of a plain command, then fails with -EOPNOTSUPP; one beyond fails
 * with -EOPNOTSUPP at once.  Grow them when a driver supports more.
 */
static const struct uverbs_write_def write_cmds[IB_USER_VERBS_CMD_CREATE_XSRQ + 1] = {
	[IB_USER_VERBS_CMD_GET_CONTEXT] =
		UV_WRITE_UDATA_IO(uverbs_cmd_get_context, struct ib_uverbs_get_context,
				  struct ib_uverbs_get_context_resp),
	[IB_USER_VERBS_CMD_QUERY_DEVICE] =
		UV_WRITE_IO(uverbs_cmd_query_device, struct ib_uverbs_query_device,
			    struct ib_uverbs_query_device_resp),
	[IB_USER_VERBS_CMD_QUERY_PORT] =
		UV_WRITE_IO(uverbs_cmd_query_port, struct ib_uverbs_query_port,
			    struct ib_uverbs_query_port_resp),
	[IB_USER_VERBS_CMD_ALLOC_PD] =
		UV_WRITE_UDATA_IO(uverbs_cmd_alloc_pd, struct ib_uverbs_alloc_pd,
				  struct ib_uverbs_alloc_pd_resp),
	[IB_USER_VERBS_CMD_DEALLOC_PD] =
		UV_WRITE_I(uverbs_cmd_dealloc_pd, struct ib_uverbs_dealloc_pd),
	[IB_USER_VERBS_CMD_REG_MR] =
		UV_WRITE_UDATA_IO(uverbs_cmd_reg_mr, struct ib_uverbs_reg_mr,
				  struct ib_uverbs_reg_mr_resp),
	[IB_USER_VERBS_CMD_REREG_MR] =
		UV_WRITE_UDATA_IO(uverbs_cmd_rereg_mr,
				  struct ib_uverbs_rereg_mr,
				  struct ib_uverbs_rereg_mr_resp),
	[IB_USER_VERBS_CMD_DEREG_MR] =
		UV_WRITE_I(uverbs_cmd_dereg_mr, struct ib_uverbs_dereg_mr),
	[IB_USER_VERBS_CMD_ALLOC_MW] =
		UV_WRITE_UDATA_IO(uverbs_cmd_alloc_mw, struct ib_uverbs_alloc_mw,
				  struct ib_uverbs_alloc_mw_resp),
	[IB_USER_VERBS_CMD_DEALLOC_MW] =
		UV_WRITE_I(uverbs_cmd_dealloc_mw, struct ib_uverbs_dealloc_mw),
	[IB_USER_VERBS_CMD_CREATE_COMP_CHANNEL] =
		UV_WRITE_IO(uverbs_cmd_create_comp_channel,
			    struct ib_uverbs_create_comp_channel,
			    struct ib_uverbs_create_comp_channel_resp),
	[IB_USER_VERBS_CMD_CREATE_CQ] =
		UV_WRITE_UDATA_IO(uverbs_cmd_create_cq,
				  struct ib_uverbs_create_cq,
				  struct ib_uverbs_create_cq_resp),
	[IB_USER_VERBS_CMD_RESIZE_CQ] =
		UV_WRITE_UDATA_IO(uverbs_cmd_resize_cq,
				  struct ib_uverbs_resize_cq,
				  struct ib_uverbs_resize_cq_resp),
	[IB_USER_VERBS_CMD_REQ_NOTIFY_CQ] =
		UV_WRITE_I(uverbs_cmd_req_notify_cq,
			   struct ib_uverbs_req_notify_cq),
	[IB_USER_VERBS_CMD_DESTROY_CQ] =
		UV_WRITE_IO(uverbs_cmd_destroy_cq, struct ib_uverbs_destroy_cq,
			    struct ib_uverbs_destroy_cq_resp),
	[IB_USER_VERBS_CMD_CREATE_AH] =
		UV_WRITE_UDATA_IO(uverbs_cmd_create_ah,
				  struct ib_uverbs_create_ah,
				  struct ib_uverbs_create_ah_resp),
	[IB_USER_VERBS_CMD_DESTROY_AH] =
		UV_WRITE_I(uverbs_cmd_destroy_ah, struct ib_uverbs_destroy_ah),
	[IB_USER_VERBS_CMD_CREATE_QP] =
		UV_WRITE_UDATA_IO(uverbs_cmd_create_qp,
				  struct ib_uverbs_create_qp,
				  struct ib_uverbs_create_qp_resp),
	[IB_USER_VERBS_CMD_QUERY_QP] =
		UV_WRITE_IO(uverbs_cmd_query_qp, struct ib_uverbs_query_qp,
			    struct ib_uverbs_query_qp_resp),
	[IB_USER_VERBS_CMD_MODIFY_QP] =
		UV_WRITE_I(uverbs_cmd_modify_qp, struct ib_uverbs_modify_qp),
	[IB_USER_VERBS_CMD_DESTROY_QP] =
		UV_WRITE_IO(uverbs_cmd_destroy_qp, struct ib_uverbs_destroy_qp,
			    struct ib_uverbs_destroy_qp_resp),
	/* The WRs follow in the request: the handlers check their sizes. */
	[IB_USER_VERBS_CMD_POST_SEND] =
		UV_WRITE_IO(uverbs_cmd_post_send, struct ib_uverbs_post_send,
			    struct ib_uverbs_post_send_resp),
	[IB_USER_VERBS_CMD_POST_RECV] =
		UV_WRITE_IO(uverbs_cmd_post_recv, struct ib_uverbs_post_recv,
			    struct ib_uverbs_post_recv_resp),
	[IB_USER_VERBS_CMD_ATTACH_MCAST] =
		UV_WRITE_I(uverbs_cmd_attach_mcast,
			   struct ib_uverbs_attach_mcast),
	[IB_USER_VERBS_CMD_DETACH_MCAST] =
		UV_WRITE_I(uverbs_cmd_detach_mcast,
			   struct ib_uverbs_detach_mcast),
	[IB_USER_VERBS_CMD_CREATE_SRQ] =
		UV_WRITE_UDATA_IO(uverbs_cmd_create_srq,
				  struct ib_uverbs_create_srq,
				  struct ib_uverbs_create_srq_resp),
	/* Request and driver data, no response. */
	[IB_USER_VERBS_CMD_MODIFY_SRQ] = {
		.handler = uverbs_cmd_modify_srq, .has_udata = 1,
		.req_size = sizeof(struct ib_uverbs_modify_srq) +
			BUILD_BUG_ON_ZERO(offsetof(struct ib_uverbs_modify_srq,
						   driver_data) !=
					  sizeof(struct ib_uverbs_modify_srq)),
	},
	[IB_USER_VERBS_CMD_QUERY_SRQ] =
		UV_WRITE_IO(uverbs_cmd_query_srq, struct ib_uverbs_query_srq,
			    struct ib_uverbs_query_srq_resp),
	[IB_USER_VERBS_CMD_DESTROY_SRQ] =
		UV_WRITE_IO(uverbs_cmd_destroy_srq,
			    struct ib_uverbs_destroy_srq,
			    struct ib_uverbs_destroy_srq_resp),
	[IB_USER_VERBS_CMD_POST_SRQ_RECV] =
		UV_WRITE_IO(uverbs_cmd_post_srq_recv,
			    struct ib_uverbs_post_srq_recv,
			    struct ib_uverbs_post_srq_recv_resp),
	[IB_USER_VERBS_CMD_CREATE_XSRQ] =
		UV_WRITE_UDATA_IO(uverbs_cmd_create_xsrq,
				  struct ib_uverbs_create_xsrq,
				  struct ib_uverbs_create_srq_resp),
};

static const struct uverbs_write_def write_ex_cmds[IB_USER_VERBS_EX_CMD_MODIFY_QP + 1] = {
	[IB_USER_VERBS_EX_CMD_QUERY_DEVICE] = UV_WRITE_EX(uverbs_cmd_ex_query_device),
	[IB_USER_VERBS_EX_CMD_CREATE_CQ] = UV_WRITE_EX(uverbs_cmd_ex_create_cq),
	/* As in-tree: at least the fields up to these members. */
	[IB_USER_VERBS_EX_CMD_CREATE_QP] = {
		.handler = uverbs_cmd_ex_create_qp, .is_ex = 1, .has_resp = 1,
		.req_size = offsetofend(struct ib_uverbs_ex_create_qp,
					comp_mask),
		.resp_size = offsetofend(struct ib_uverbs_ex_create_qp_resp,
					 response_length),
	},
	[IB_USER_VERBS_EX_CMD_MODIFY_QP] = {
		.handler = uverbs_cmd_ex_modify_qp, .is_ex = 1, .has_resp = 1,
		.req_size = offsetofend(struct ib_uverbs_ex_modify_qp, base),
		.resp_size = offsetofend(struct ib_uverbs_ex_modify_qp_resp,
					 response_length),
	},
};

static int cmd_not_supported(struct uverbs_attr_bundle *attrs)
{
	return -EOPNOTSUPP;
}

static const struct uverbs_write_def write_not_supported = {
	.handler = cmd_not_supported,
};

static const struct uverbs_write_def *write_lookup(u32 command)
{
	u32 idx = command & IB_USER_VERBS_CMD_COMMAND_MASK;
	const struct uverbs_write_def *def;

	if (command & ~(IB_USER_VERBS_CMD_FLAG_EXTENDED |
			IB_USER_VERBS_CMD_COMMAND_MASK))
		return ERR_PTR(-EINVAL);
	if (command & IB_USER_VERBS_CMD_FLAG_EXTENDED) {
		if (idx >= ARRAY_SIZE(write_ex_cmds))
			return ERR_PTR(-EOPNOTSUPP);
		def = &write_ex_cmds[idx];
	} else {
		if (idx >= ARRAY_SIZE(write_cmds))
			return ERR_PTR(-EOPNOTSUPP);
		def = &write_cmds[idx];
	}
	return def->handler ? def : &write_not_supported;
}

/* Header checks of write(); @count includes the headers. */
static int verify_hdr(struct ib_uverbs_cmd_hdr *hdr,
		      const struct ib_uverbs_ex_cmd_hdr *ex_hdr, size_t count,
		      const struct uverbs_write_def *def)
{
	size_t out_len;

	if (!def->is_ex) {
		/* in_words counts the header too, in 4-byte words */
		if (hdr->in_words * 4 != count)
			return -EINVAL;
		if (count < def->req_size + sizeof(*hdr)) {
			/*
			 * rdma-core v18 and v19 wrote DESTROY_CQ as 16 bytes
			 * and kernels of their time read 24: keep taking it.
			 */
			if (hdr->command == IB_USER_VERBS_CMD_DESTROY_CQ &&
			    count == 16) {
				hdr->in_words = 6;
				return 0;
			}
			return -ENOSPC;
		}
		if (hdr->out_words * 4 < def->resp_size)
			return -ENOSPC;
		return 0;
	}

	/* extended: 8-byte words, headers excluded, driver data separate */
	count -= sizeof(*hdr) + sizeof(*ex_hdr);
	if ((hdr->in_words + ex_hdr->provider_in_words) * 8 != count)
		return -EINVAL;
	if (hdr->in_words * 8 < def->req_size)
		return -ENOSPC;
	if (ex_hdr->cmd_hdr_reserved)
		return -EINVAL;
	if (!ex_hdr->response)
		return hdr->out_words || ex_hdr->provider_out_words ?
			-EINVAL : 0;
	if (!hdr->out_words && !ex_hdr->provider_out_words)
		return -EINVAL;
	if (hdr->out_words * 8 < def->resp_size)
		return -ENOSPC;
	out_len = (hdr->out_words + ex_hdr->provider_out_words) * 8;
	if (!access_ok(u64_to_user_ptr(ex_hdr->response), out_len))
		return -EFAULT;
	return 0;
}

/* Run a write handler; commit the object it created only if it succeeded. */
static int run_write(struct uverbs_attr_bundle *attrs,
		     const struct uverbs_write_def *def)
{
	int ret;

	attrs->uobject = NULL;
	ret = def->handler(attrs);
	if (attrs->uobject) {
		if (ret)
			uverbs_uobj_abort(attrs->uobject, true, attrs);
		else
			uverbs_uobj_commit(attrs->uobject);
		attrs->uobject = NULL;
	}
	return ret;
}

/* Split a plain command's request and response into core and driver parts. */
static int setup_plain(struct uverbs_attr_bundle *attrs,
		       const struct uverbs_write_def *def,
		       const struct ib_uverbs_cmd_hdr *hdr,
		       const char __user *buf)
{
	size_t in_len = hdr->in_words * 4 - sizeof(*hdr);
	size_t out_len = hdr->out_words * 4;
	struct ib_udata *drv = &attrs->driver_udata;
	u64 response = 0;

	if (def->has_udata) {
		drv->inlen = in_len - def->req_size;
		drv->inbuf = drv->inlen ? buf + def->req_size : NULL;
		in_len = def->req_size;
	}
	if (def->has_resp) {
		if (get_user(response, (const u64 __user *)buf))
			return -EFAULT;
		if (def->has_udata) {
			drv->outlen = out_len - def->resp_size;
			drv->outbuf = drv->outlen ?
				u64_to_user_ptr(response + def->resp_size) : NULL;
			out_len = def->resp_size;
		}
	}
	attrs->ucore = (struct ib_udata){
		.inbuf = in_len ? buf : NULL,
		.inlen = in_len,
		.outbuf = out_len ? u64_to_user_ptr(response) : NULL,
		.outlen = out_len,
	};
	return 0;
}

static void setup_ex(struct uverbs_attr_bundle *attrs,
		     const struct ib_uverbs_cmd_hdr *hdr,
		     const struct ib_uverbs_ex_cmd_hdr *ex_hdr,
		     const char __user *buf)
{
	void __user *response = u64_to_user_ptr(ex_hdr->response);
	size_t in_len = hdr->in_words * 8, out_len = hdr->out_words * 8;
	size_t drv_in = ex_hdr->provider_in_words * 8;
	size_t drv_out = ex_hdr->provider_out_words * 8;

	attrs->ucore = (struct ib_udata){
		.inbuf = in_len ? buf : NULL,
		.inlen = in_len,
		.outbuf = out_len ? response : NULL,
		.outlen = out_len,
	};
	attrs->driver_udata = (struct ib_udata){
		.inbuf = drv_in ? buf + in_len : NULL,
		.inlen = drv_in,
		.outbuf = drv_out ? response + out_len : NULL,
		.outlen = drv_out,
	};
}

ssize_t uverbs_write(struct file *filp, const char __user *buf, size_t count,
		     loff_t *pos)
{
	struct ib_uverbs_file *ufile = filp->private_data;
	struct uverbs_device *udev = ufile->udev;
	struct ib_uverbs_ex_cmd_hdr ex_hdr = {};
	const struct uverbs_write_def *def;
	struct uverbs_attr_bundle attrs;
	struct ib_uverbs_cmd_hdr hdr;
	struct ib_device *ibdev;
	int srcu, ret;

	/*
	 * Commands act with the opener's rights: a descriptor handed to a
	 * process with other credentials (e.g. through a setuid helper's
	 * write()) must not be driven by it.
	 */
	if (filp->f_cred != current_cred()) {
		pr_err_once("ib_uverbs: write() by pid %d (%s) with credentials other than the opener's refused\n",
			    task_tgid_vnr(current), current->comm);
		return -EACCES;
	}
	if (count < sizeof(hdr))
		return -EINVAL;
	if (copy_from_user(&hdr, buf, sizeof(hdr)))
		return -EFAULT;
	def = write_lookup(hdr.command);
	if (IS_ERR(def))
		return PTR_ERR(def);
	if (def->is_ex) {
		if (count < sizeof(hdr) + sizeof(ex_hdr))
			return -EINVAL;
		if (copy_from_user(&ex_hdr, buf + sizeof(hdr), sizeof(ex_hdr)))
			return -EFAULT;
	}
	ret = verify_hdr(&hdr, &ex_hdr, count, def);
	if (ret)
		return ret;

	srcu = srcu_read_lock(&udev->srcu);
	ibdev = srcu_dereference(udev->ibdev, &udev->srcu);
	if (!ibdev) {
		ret = -EIO;
		goto out;
	}
	/*
	 * attrs[] is the ioctl() methods' (read only when ->method is set):
	 * clearing the head is enough, and the doorbells of the data path
	 * (post_send, post_recv) come this way for every batch.
	 */
	memset(&attrs, 0, offsetof(struct uverbs_attr_bundle, attrs));
	attrs.ufile = ufile;
	attrs.ibdev = ibdev;
	buf += sizeof(hdr);
	if (def->is_ex) {
		setup_ex(&attrs, &hdr, &ex_hdr, buf + sizeof(ex_hdr));
	} else {
		ret = setup_plain(&attrs, def, &hdr, buf);
		if (ret)
			goto out;
	}
	ret = run_write(&attrs, def);
out:
	srcu_read_unlock(&udev->srcu, srcu);
	return ret ? ret : (ssize_t)count;
}

/*
 * UVERBS_METHOD_INVOKE_WRITE: a write command carried by ioctl(), its
 * request and response in the CORE_IN/CORE_OUT attributes.
 */
static int write_invoke_method(struct uverbs_attr_bundle *attrs)
{
	const struct uverbs_write_def *def;
	u64 cmd;
	int ret;

	ret = uverbs_get_const(attrs, UVERBS_ATTR_WRITE_CMD, &cmd);
	if (ret)
		return ret;
	def = write_lookup(cmd);
	if (IS_ERR(def))
		return PTR_ERR(def);
	uverbs_fill_udata(attrs, &attrs->ucore, UVERBS_ATTR_CORE_IN,
			  UVERBS_ATTR_CORE_OUT);
	if (attrs->ucore.inlen < def->req_size ||
	    attrs->ucore.outlen < def->resp_size)
		return -ENOSPC;
	return run_write(attrs, def);
}

static const struct uv_method_def write_methods[] = {
	UV_METHOD(UVERBS_OBJECT_DEVICE, UVERBS_METHOD_INVOKE_WRITE,
		  write_invoke_method,
		  UV_CONST_IN(UVERBS_ATTR_WRITE_CMD, U32_MAX, UV_MANDATORY),
		  UV_PTR_IN(UVERBS_ATTR_CORE_IN, UV_MIN_SIZE(sizeof(u32)),
			    UV_OPTIONAL),
		  UV_PTR_OUT(UVERBS_ATTR_CORE_OUT, UV_MIN_SIZE(0), UV_OPTIONAL),
		  UV_UHW()),
};

const struct uv_method_table uverbs_write_methods = UV_METHOD_TABLE(write_methods);
