// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Methods of UVERBS_OBJECT_DEVICE, the object without instances that
 * stands for the device itself: context creation and the device, port
 * and GID queries libibverbs makes through ioctl(), then the write()
 * commands of the same (GET_CONTEXT, QUERY_DEVICE and its extended form,
 * QUERY_PORT).
 */
#include <linux/netdevice.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include "uverbs.h"

/*
 * Port capability bits (of ib_port_immutable.core_cap_flags) for which
 * userspace must put a GRH on every packet: RoCE in both flavours, and IB
 * ports that ask for it.  ib_verbs.h defines only the RoCEv2 one; the other
 * two are the in-tree values.  TODO(core): define them in ib_verbs.h.
 */
#define UVERBS_CAP_IB_GRH_REQUIRED	0x00008000
#define UVERBS_CAP_PROT_ROCE		0x00200000
#define UVERBS_GRH_REQUIRED_CAPS	(UVERBS_CAP_IB_GRH_REQUIRED |	\
					 UVERBS_CAP_PROT_ROCE |		\
					 RDMA_CORE_CAP_PROT_ROCE_UDP_ENCAP)

/* The reply to QUERY_PORT, in both its write() and ioctl() forms. */
void uverbs_fill_port_resp(struct ib_device *ibdev, u32 port,
			   const struct ib_port_attr *attr,
			   struct ib_uverbs_query_port_resp *resp)
{
	const struct ib_port_immutable *imm = ib_port_immutable(ibdev, port);

	resp->state = attr->state;
	resp->max_mtu = attr->max_mtu;
	resp->active_mtu = attr->active_mtu;
	resp->gid_tbl_len = attr->gid_tbl_len;
	/* The kernel says itself whether GIDs are IP based: none are here. */
	resp->port_cap_flags = attr->port_cap_flags &
			       ~(u32)IB_UVERBS_PCF_IP_BASED_GIDS;
	resp->max_msg_sz = attr->max_msg_sz;
	resp->bad_pkey_cntr = attr->bad_pkey_cntr;
	resp->qkey_viol_cntr = attr->qkey_viol_cntr;
	resp->pkey_tbl_len = attr->pkey_tbl_len;
	if (imm && (imm->core_cap_flags & UVERBS_GRH_REQUIRED_CAPS))
		resp->flags |= IB_UVERBS_QPF_GRH_REQUIRED;
	/* IB LIDs are 16 bits; the wider fields exist for OPA only */
	resp->lid = (u16)attr->lid;
	resp->sm_lid = (u16)attr->sm_lid;
	resp->lmc = attr->lmc;
	resp->max_vl_num = attr->max_vl_num;
	resp->sm_sl = attr->sm_sl;
	resp->subnet_timeout = attr->subnet_timeout;
	resp->init_type_reply = attr->init_type_reply;
	resp->active_width = attr->active_width;
	/* The field has room for speeds up to NDR only. */
	resp->active_speed = min_t(u16, attr->active_speed, IB_SPEED_NDR);
	resp->phys_state = attr->phys_state;
	resp->link_layer = rdma_port_get_link_layer(ibdev, port);
}

static int device_info_handles(struct uverbs_attr_bundle *attrs)
{
	struct ib_uverbs_file *ufile = attrs->ufile;
	const struct uverbs_obj_type *type;
	struct ib_uobject *uobj;
	u32 *handles, count = 0;
	int len, ret;
	u64 object_id;

	len = uverbs_attr_get_len(attrs, UVERBS_ATTR_INFO_HANDLES_LIST);
	if (len <= 0 || len % sizeof(u32))
		return -EINVAL;
	ret = uverbs_get_const(attrs, UVERBS_ATTR_INFO_OBJECT_ID, &object_id);
	if (ret)
		return ret;
	type = uverbs_find_type(object_id);
	/* The device object exists but has no instances. */
	if (!type && object_id != UVERBS_OBJECT_DEVICE)
		return -ENOENT;

	handles = kvcalloc(len / sizeof(u32), sizeof(u32), IB_USER_GFP);
	if (!handles)
		return -ENOMEM;
	spin_lock_irq(&ufile->uobjects_lock);
	list_for_each_entry(uobj, &ufile->uobjects, list) {
		if (uobj->type != type)
			continue;
		if (count == len / sizeof(u32))
			break;
		handles[count++] = uobj->id;
	}
	spin_unlock_irq(&ufile->uobjects_lock);

	ret = uverbs_copy_to(attrs, UVERBS_ATTR_INFO_HANDLES_LIST, handles,
			     count * sizeof(u32));
	if (!ret)
		ret = uverbs_copy_to(attrs, UVERBS_ATTR_INFO_TOTAL_HANDLES,
				     &count, sizeof(count));
	kvfree(handles);
	return ret;
}

static int device_query_port(struct uverbs_attr_bundle *attrs)
{
	struct ib_uverbs_query_port_resp_ex resp = {};
	struct ib_port_attr attr;
	struct ib_ucontext *uctx;
	struct ib_device *ibdev;
	u64 port;
	int ret;

	uctx = uverbs_get_ucontext(attrs);
	if (IS_ERR(uctx))
		return PTR_ERR(uctx);
	ibdev = uctx->device;
	if (!ibdev->ops.query_port)
		return -EOPNOTSUPP;
	ret = uverbs_get_const(attrs, UVERBS_ATTR_QUERY_PORT_PORT_NUM, &port);
	if (ret)
		return ret;
	if (!rdma_is_port_valid(ibdev, port))
		return -EINVAL;
	ret = ib_query_port(ibdev, port, &attr);
	if (ret)
		return ret;
	uverbs_fill_port_resp(ibdev, port, &attr, &resp.legacy_resp);
	resp.port_cap_flags2 = attr.port_cap_flags2;
	return uverbs_copy_to_struct_or_zero(attrs, UVERBS_ATTR_QUERY_PORT_RESP,
					     &resp, sizeof(resp));
}

/* What the core supports beyond the base ABI. */
static const u64 uverbs_core_support = IB_UVERBS_CORE_SUPPORT_OPTIONAL_MR_ACCESS;

/*
 * Creates the ucontext only; libibverbs then asks for the async event
 * file with ASYNC_EVENT_ALLOC.  The outputs are optional.
 */
static int device_get_context(struct uverbs_attr_bundle *attrs)
{
	u32 num_comp = attrs->ibdev->num_comp_vectors;
	struct ib_ucontext *uctx;
	int ret;

	ret = uverbs_copy_to(attrs, UVERBS_ATTR_GET_CONTEXT_NUM_COMP_VECTORS,
			     &num_comp, sizeof(num_comp));
	if (UVERBS_COPY_FAILED(ret))
		return ret;
	ret = uverbs_copy_to(attrs, UVERBS_ATTR_GET_CONTEXT_CORE_SUPPORT,
			     &uverbs_core_support, sizeof(uverbs_core_support));
	if (UVERBS_COPY_FAILED(ret))
		return ret;

	uctx = uverbs_ucontext_alloc(attrs);
	if (IS_ERR(uctx))
		return PTR_ERR(uctx);
	ret = uverbs_ucontext_activate(attrs, uctx);
	if (ret)
		kfree(uctx);
	return ret;
}

/*
 * Describes a ucontext to providers that import one (mlx5).  In-tree it
 * answers only for drivers with a query_ucontext op, after checking for
 * the ucontext; ib_device_ops has no such op, so this answers as in-tree
 * does for rxe.  TODO(core): ops.query_ucontext, when a driver needs
 * import; then fill NUM_COMP_VECTORS and CORE_SUPPORT as GET_CONTEXT does
 * and call it.
 */
static int device_query_context(struct uverbs_attr_bundle *attrs)
{
	struct ib_ucontext *uctx = uverbs_get_ucontext(attrs);

	return IS_ERR(uctx) ? PTR_ERR(uctx) : -EOPNOTSUPP;
}

/* Entries of @entry_size bytes: ours truncated, or zero-extended. */
static int copy_gid_entries(struct uverbs_attr_bundle *attrs,
			    const struct ib_uverbs_gid_entry *entries,
			    size_t count, size_t entry_size)
{
	u16 id = UVERBS_ATTR_QUERY_GID_TABLE_RESP_ENTRIES;
	size_t n = min(entry_size, sizeof(*entries));
	const struct uv_attr *a;
	void __user *dst;
	size_t i;

	if (entry_size == sizeof(*entries))
		return uverbs_copy_to(attrs, id, entries,
				      count * sizeof(*entries));

	a = uverbs_attr_get(attrs, id);
	if (IS_ERR(a))
		return PTR_ERR(a);
	dst = u64_to_user_ptr(a->data);
	for (i = 0; i < count; i++, dst += entry_size) {
		if (copy_to_user(dst, &entries[i], n))
			return -EFAULT;
		if (entry_size > n && clear_user(dst + n, entry_size - n))
			return -EFAULT;
	}
	return uverbs_output_written(attrs, id);
}

static int device_query_gid_table(struct uverbs_attr_bundle *attrs)
{
	struct ib_uverbs_gid_entry *entries;
	struct ib_ucontext *uctx;
	struct ib_device *ibdev;
	u64 entry_size, count;
	size_t max_entries, table_size = 0;
	ssize_t n;
	int len, ret;
	u32 port;

	ret = uverbs_get_const(attrs, UVERBS_ATTR_QUERY_GID_TABLE_ENTRY_SIZE,
			       &entry_size);
	if (ret)
		return ret;
	if (!entry_size)
		return -EINVAL;
	len = uverbs_attr_get_len(attrs,
				  UVERBS_ATTR_QUERY_GID_TABLE_RESP_ENTRIES);
	if (len < 0)
		return len;
	if (len % entry_size)
		return -EINVAL;
	max_entries = len / entry_size;
	if (!max_entries)
		return -EINVAL;

	uctx = uverbs_get_ucontext(attrs);
	if (IS_ERR(uctx))
		return PTR_ERR(uctx);
	ibdev = uctx->device;

	/* No more than the table holds, however large the user's buffer. */
	rdma_for_each_port(ibdev, port) {
		const struct ib_port_immutable *imm =
			ib_port_immutable(ibdev, port);

		if (imm && imm->gid_tbl_len > 0)
			table_size += imm->gid_tbl_len;
	}
	max_entries = min(max_entries, table_size);

	count = 0;
	entries = NULL;
	if (max_entries) {
		entries = kvcalloc(max_entries, sizeof(*entries), IB_USER_GFP);
		if (!entries)
			return -ENOMEM;
		n = rdma_query_gid_table(ibdev, entries, max_entries);
		/* the only failure: more valid entries than room */
		if (n < 0) {
			ret = -EINVAL;
			goto out;
		}
		count = n;
	}
	ret = copy_gid_entries(attrs, entries, count, entry_size);
	if (!ret)
		ret = uverbs_copy_to(attrs,
				     UVERBS_ATTR_QUERY_GID_TABLE_RESP_NUM_ENTRIES,
				     &count, sizeof(count));
out:
	kvfree(entries);
	return ret;
}

static int device_query_gid_entry(struct uverbs_attr_bundle *attrs)
{
	struct ib_uverbs_gid_entry entry = {};
	const struct ib_gid_attr *gid_attr;
	struct net_device *ndev;
	struct ib_ucontext *uctx;
	struct ib_device *ibdev;
	u64 port, index;
	int ret;

	ret = uverbs_get_const(attrs, UVERBS_ATTR_QUERY_GID_ENTRY_PORT, &port);
	if (ret)
		return ret;
	ret = uverbs_get_const(attrs, UVERBS_ATTR_QUERY_GID_ENTRY_GID_INDEX,
			       &index);
	if (ret)
		return ret;
	uctx = uverbs_get_ucontext(attrs);
	if (IS_ERR(uctx))
		return PTR_ERR(uctx);
	ibdev = uctx->device;
	if (!rdma_is_port_valid(ibdev, port))
		return -EINVAL;

	/* -EINVAL beyond the table, -ENODATA for an empty slot */
	gid_attr = rdma_get_gid_attr(ibdev, port, index);
	if (IS_ERR(gid_attr))
		return PTR_ERR(gid_attr);
	if (!gid_attr)
		return -ENODATA;
	memcpy(entry.gid, gid_attr->gid.raw, sizeof(entry.gid));
	entry.gid_index = gid_attr->index;
	entry.port_num = gid_attr->port_num;
	entry.gid_type = gid_attr->gid_type;
	rcu_read_lock();
	ndev = rcu_dereference(gid_attr->ndev);
	if (ndev)
		entry.netdev_ifindex = ndev->ifindex;
	rcu_read_unlock();
	rdma_put_gid_attr(gid_attr);

	return uverbs_copy_to_struct_or_zero(attrs,
					     UVERBS_ATTR_QUERY_GID_ENTRY_RESP_ENTRY,
					     &entry, sizeof(entry));
}

static const struct uv_method_def device_methods[] = {
	UV_METHOD(UVERBS_OBJECT_DEVICE, UVERBS_METHOD_INFO_HANDLES,
		  device_info_handles,
		  UV_CONST_IN(UVERBS_ATTR_INFO_OBJECT_ID, U16_MAX, UV_MANDATORY),
		  UV_PTR_OUT(UVERBS_ATTR_INFO_TOTAL_HANDLES, UV_SIZE_OF(u32),
			     UV_OPTIONAL),
		  UV_PTR_OUT(UVERBS_ATTR_INFO_HANDLES_LIST,
			     UV_MIN_SIZE(sizeof(u32)), UV_OPTIONAL)),
	UV_METHOD(UVERBS_OBJECT_DEVICE, UVERBS_METHOD_QUERY_PORT,
		  device_query_port,
		  UV_CONST_IN(UVERBS_ATTR_QUERY_PORT_PORT_NUM, U8_MAX,
			      UV_MANDATORY),
		  UV_PTR_OUT(UVERBS_ATTR_QUERY_PORT_RESP,
			     UV_STRUCT(struct ib_uverbs_query_port_resp_ex,
				       reserved),
			     UV_MANDATORY)),
	UV_METHOD(UVERBS_OBJECT_DEVICE, UVERBS_METHOD_GET_CONTEXT,
		  device_get_context,
		  UV_PTR_OUT(UVERBS_ATTR_GET_CONTEXT_NUM_COMP_VECTORS,
			     UV_SIZE_OF(u32), UV_OPTIONAL),
		  UV_PTR_OUT(UVERBS_ATTR_GET_CONTEXT_CORE_SUPPORT,
			     UV_SIZE_OF(u64), UV_OPTIONAL),
		  UV_UHW()),
	UV_METHOD(UVERBS_OBJECT_DEVICE, UVERBS_METHOD_QUERY_CONTEXT,
		  device_query_context,
		  UV_PTR_OUT(UVERBS_ATTR_QUERY_CONTEXT_NUM_COMP_VECTORS,
			     UV_SIZE_OF(u32), UV_OPTIONAL),
		  UV_PTR_OUT(UVERBS_ATTR_QUERY_CONTEXT_CORE_SUPPORT,
			     UV_SIZE_OF(u64), UV_OPTIONAL)),
	UV_METHOD(UVERBS_OBJECT_DEVICE, UVERBS_METHOD_QUERY_GID_TABLE,
		  device_query_gid_table,
		  UV_CONST_IN(UVERBS_ATTR_QUERY_GID_TABLE_ENTRY_SIZE, U64_MAX,
			      UV_MANDATORY),
		  UV_FLAGS_IN(UVERBS_ATTR_QUERY_GID_TABLE_FLAGS, 0,
			      UV_OPTIONAL),
		  UV_PTR_OUT(UVERBS_ATTR_QUERY_GID_TABLE_RESP_ENTRIES,
			     UV_MIN_SIZE(0), UV_MANDATORY),
		  UV_PTR_OUT(UVERBS_ATTR_QUERY_GID_TABLE_RESP_NUM_ENTRIES,
			     UV_SIZE_OF(u64), UV_MANDATORY)),
	UV_METHOD(UVERBS_OBJECT_DEVICE, UVERBS_METHOD_QUERY_GID_ENTRY,
		  device_query_gid_entry,
		  UV_CONST_IN(UVERBS_ATTR_QUERY_GID_ENTRY_PORT, U32_MAX,
			      UV_MANDATORY),
		  UV_CONST_IN(UVERBS_ATTR_QUERY_GID_ENTRY_GID_INDEX, U32_MAX,
			      UV_MANDATORY),
		  UV_FLAGS_IN(UVERBS_ATTR_QUERY_GID_ENTRY_FLAGS, 0,
			      UV_MANDATORY),
		  UV_PTR_OUT(UVERBS_ATTR_QUERY_GID_ENTRY_RESP_ENTRY,
			     UV_STRUCT(struct ib_uverbs_gid_entry,
				       netdev_ifindex),
			     UV_MANDATORY)),
};

const struct uv_method_table uverbs_device_methods = UV_METHOD_TABLE(device_methods);

static void fill_query_device_resp(struct ib_device *ibdev,
				   const struct ib_device_attr *attr,
				   struct ib_uverbs_query_device_resp *resp)
{
	resp->fw_ver = attr->fw_ver;
	resp->node_guid = ibdev->node_guid;
	resp->sys_image_guid = attr->sys_image_guid;
	resp->max_mr_size = attr->max_mr_size;
	resp->page_size_cap = attr->page_size_cap;
	resp->vendor_id = attr->vendor_id;
	resp->vendor_part_id = attr->vendor_part_id;
	resp->hw_ver = attr->hw_ver;
	resp->max_qp = attr->max_qp;
	resp->max_qp_wr = attr->max_qp_wr;
	/* the upper half only fits device_cap_flags_ex of the ex reply */
	resp->device_cap_flags = lower_32_bits(attr->device_cap_flags);
	/* one number for both directions: what both support */
	resp->max_sge = min(attr->max_send_sge, attr->max_recv_sge);
	resp->max_sge_rd = attr->max_sge_rd;
	resp->max_cq = attr->max_cq;
	resp->max_cqe = attr->max_cqe;
	resp->max_mr = attr->max_mr;
	resp->max_pd = attr->max_pd;
	resp->max_qp_rd_atom = attr->max_qp_rd_atom;
	resp->max_ee_rd_atom = attr->max_ee_rd_atom;
	resp->max_res_rd_atom = attr->max_res_rd_atom;
	resp->max_qp_init_rd_atom = attr->max_qp_init_rd_atom;
	resp->max_ee_init_rd_atom = attr->max_ee_init_rd_atom;
	resp->atomic_cap = attr->atomic_cap;
	resp->max_ee = attr->max_ee;
	resp->max_rdd = attr->max_rdd;
	resp->max_mw = attr->max_mw;
	resp->max_raw_ipv6_qp = attr->max_raw_ipv6_qp;
	resp->max_raw_ethy_qp = attr->max_raw_ethy_qp;
	resp->max_mcast_grp = attr->max_mcast_grp;
	resp->max_mcast_qp_attach = attr->max_mcast_qp_attach;
	resp->max_total_mcast_qp_attach = attr->max_total_mcast_qp_attach;
	resp->max_ah = attr->max_ah;
	resp->max_srq = attr->max_srq;
	resp->max_srq_wr = attr->max_srq_wr;
	resp->max_srq_sge = attr->max_srq_sge;
	resp->max_pkeys = attr->max_pkeys;
	resp->local_ca_ack_delay = attr->local_ca_ack_delay;
	resp->phys_port_cnt = min_t(u32, ibdev->phys_port_cnt, U8_MAX);
}

int uverbs_cmd_get_context(struct uverbs_attr_bundle *attrs)
{
	struct ib_uverbs_get_context_resp resp;
	struct ib_uverbs_get_context cmd;
	struct ib_ucontext *uctx;
	struct ib_uobject *uobj;
	int ret;

	ret = uverbs_request(attrs, &cmd, sizeof(cmd));
	if (ret)
		return ret;
	uctx = uverbs_ucontext_alloc(attrs);
	if (IS_ERR(uctx))
		return PTR_ERR(uctx);
	/* The async event file belongs to the ucontext being created. */
	attrs->context = uctx;
	uobj = uverbs_uobj_alloc(&uverbs_async_event_type, attrs);
	if (IS_ERR(uobj)) {
		ret = PTR_ERR(uobj);
		goto err_free;
	}

	resp = (struct ib_uverbs_get_context_resp){
		.async_fd = uobj->id,
		.num_comp_vectors = attrs->ibdev->num_comp_vectors,
	};
	ret = uverbs_response(attrs, &resp, sizeof(resp));
	if (ret)
		goto err_abort;
	ret = uverbs_ucontext_activate(attrs, uctx);
	if (ret)
		goto err_abort;

	uverbs_async_file_init(uobj);
	uverbs_uobj_commit(uobj);
	attrs->context = NULL;
	return 0;

err_abort:
	uverbs_uobj_abort(uobj, false, attrs);
err_free:
	attrs->context = NULL;
	kfree(uctx);
	return ret;
}

int uverbs_cmd_query_device(struct uverbs_attr_bundle *attrs)
{
	struct ib_uverbs_query_device_resp resp = {};
	struct ib_uverbs_query_device cmd;
	struct ib_ucontext *uctx;
	int ret;

	uctx = uverbs_get_ucontext(attrs);
	if (IS_ERR(uctx))
		return PTR_ERR(uctx);
	ret = uverbs_request(attrs, &cmd, sizeof(cmd));
	if (ret)
		return ret;
	fill_query_device_resp(uctx->device, &uctx->device->attrs, &resp);
	return uverbs_response(attrs, &resp, sizeof(resp));
}

int uverbs_cmd_query_port(struct uverbs_attr_bundle *attrs)
{
	struct ib_uverbs_query_port_resp resp = {};
	struct ib_uverbs_query_port cmd;
	struct ib_port_attr attr;
	struct ib_ucontext *uctx;
	struct ib_device *ibdev;
	int ret;

	uctx = uverbs_get_ucontext(attrs);
	if (IS_ERR(uctx))
		return PTR_ERR(uctx);
	ibdev = uctx->device;
	ret = uverbs_request(attrs, &cmd, sizeof(cmd));
	if (ret)
		return ret;
	if (!ibdev->ops.query_port)
		return -EOPNOTSUPP;
	if (!rdma_is_port_valid(ibdev, cmd.port_num))
		return -EINVAL;
	ret = ib_query_port(ibdev, cmd.port_num, &attr);
	if (ret)
		return ret;
	uverbs_fill_port_resp(ibdev, cmd.port_num, &attr, &resp);
	return uverbs_response(attrs, &resp, sizeof(resp));
}

int uverbs_cmd_ex_query_device(struct uverbs_attr_bundle *attrs)
{
	struct ib_uverbs_ex_query_device_resp resp = {};
	struct ib_uverbs_ex_query_device cmd;
	struct ib_device_attr attr = {};
	struct ib_ucontext *uctx;
	struct ib_device *ibdev;
	int ret;

	uctx = uverbs_get_ucontext(attrs);
	if (IS_ERR(uctx))
		return PTR_ERR(uctx);
	ibdev = uctx->device;
	ret = uverbs_request(attrs, &cmd, sizeof(cmd));
	if (ret)
		return ret;
	if (cmd.comp_mask || cmd.reserved)
		return -EINVAL;
	if (!ibdev->ops.query_device)
		return -EOPNOTSUPP;
	/* Asked afresh, with the driver's part of the request. */
	ret = ibdev->ops.query_device(ibdev, &attr, &attrs->driver_udata);
	if (ret)
		return ret;

	fill_query_device_resp(ibdev, &attr, &resp.base);
	resp.timestamp_mask = attr.timestamp_mask;
	resp.hca_core_clock = attr.hca_core_clock;
	resp.device_cap_flags_ex = attr.device_cap_flags;
	resp.cq_moderation_caps.max_cq_moderation_count =
		min_t(u32, attr.max_cq_moderation_count, U16_MAX);
	resp.cq_moderation_caps.max_cq_moderation_period =
		min_t(u32, attr.max_cq_moderation_period, U16_MAX);
	/*
	 * ODP, RSS, WQ, raw packet, tag matching, device memory and XRC ODP
	 * capabilities stay zero: the device model has none of them.
	 */
	resp.response_length = min_t(size_t, attrs->ucore.outlen, sizeof(resp));
	return uverbs_response(attrs, &resp, sizeof(resp));
}
