// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Address handles.
 *
 * libibverbs 44 creates an AH with the CREATE_AH write command only; the
 * provider's response (librxe: the AH's number, which its UD send WQEs
 * carry) follows ours as driver data.  It destroys one with the ioctl
 * method UVERBS_METHOD_AH_DESTROY, falling back to DESTROY_AH.
 *
 * The address vector a command gives is checked by the core, for AHs and
 * for the paths of MODIFY_QP alike (rdma_ah_attr_resolve(): the port
 * must exist, a RoCE port needs the GRH, the source GID entry is held for
 * the driver call, errnos as in-tree).  The destination MAC is left to
 * the driver, which sends through the IP stack.  The AH itself is made
 * and destroyed by the core (ib_create_ah_user(); it holds its PD).
 */
#include "uverbs.h"

void uverbs_put_sgid_attr(const struct ib_gid_attr *sgid_attr)
{
	if (sgid_attr)
		rdma_put_gid_attr(sgid_attr);
}

static int ah_destroy(struct ib_uobject *uobj, enum uverbs_remove_reason why,
		      struct uverbs_attr_bundle *attrs)
{
	return ib_destroy_ah_user(uobj->object);
}

const struct uverbs_obj_type uverbs_ah_type = {
	.id = UVERBS_OBJECT_AH,
	.size = sizeof(struct ib_uobject),
	.destroy = ah_destroy,
};

int uverbs_cmd_create_ah(struct uverbs_attr_bundle *attrs)
{
	struct ib_uverbs_create_ah_resp resp = {};
	struct ib_uobject *uobj, *pd_uobj;
	struct ib_uverbs_create_ah cmd;
	const struct ib_gid_attr *sgid_attr;
	struct ib_ah_attr attr = {};
	struct ib_device *ibdev;
	struct ib_ah *ah;
	struct ib_pd *pd;
	int ret;

	if (!attrs->ibdev->ops.create_ah || !attrs->ibdev->ops.destroy_ah)
		return -EOPNOTSUPP;
	ret = uverbs_request(attrs, &cmd, sizeof(cmd));
	if (ret)
		return ret;
	uobj = uverbs_uobj_alloc(&uverbs_ah_type, attrs);
	if (IS_ERR(uobj))
		return PTR_ERR(uobj);
	ibdev = uobj->context->device;
	if (!rdma_is_port_valid(ibdev, cmd.attr.port_num)) {
		ret = -EINVAL;
		goto err_abort;
	}
	pd_uobj = uverbs_uobj_lookup(&uverbs_pd_type, cmd.pd_handle,
				     UV_ACCESS_READ, attrs);
	if (IS_ERR(pd_uobj)) {
		ret = PTR_ERR(pd_uobj);
		goto err_abort;
	}
	pd = pd_uobj->object;

	attr.dlid = cmd.attr.dlid;
	attr.sl = cmd.attr.sl;
	attr.src_path_bits = cmd.attr.src_path_bits;
	attr.static_rate = cmd.attr.static_rate;
	attr.port_num = cmd.attr.port_num;
	attr.is_global = !!cmd.attr.is_global;
	if (attr.is_global) {
		memcpy(attr.dgid.raw, cmd.attr.grh.dgid, sizeof(attr.dgid.raw));
		attr.flow_label = cmd.attr.grh.flow_label;
		attr.sgid_index = cmd.attr.grh.sgid_index;
		attr.hop_limit = cmd.attr.grh.hop_limit;
		attr.traffic_class = cmd.attr.grh.traffic_class;
	}
	ret = rdma_ah_attr_resolve(ibdev, &attr);
	if (ret)
		goto err_pd;
	/* Put what we got, whatever the driver does with @attr. */
	sgid_attr = attr.sgid_attr;
	attrs->driver_udata.uctx = uobj->context;
	ah = ib_create_ah_user(pd, &attr, uobj, &attrs->driver_udata);
	uverbs_put_sgid_attr(sgid_attr);
	if (IS_ERR(ah)) {
		ret = PTR_ERR(ah);
		goto err_pd;
	}
	uverbs_uobj_lookup_put(pd_uobj, UV_ACCESS_READ);
	uobj->user_handle = cmd.user_handle;
	uobj->object = ah;
	/* The dispatcher commits it, or destroys it if the reply fails. */
	attrs->uobject = uobj;

	resp.ah_handle = uobj->id;
	return uverbs_response(attrs, &resp, sizeof(resp));

err_pd:
	uverbs_uobj_lookup_put(pd_uobj, UV_ACCESS_READ);
err_abort:
	uverbs_uobj_abort(uobj, false, attrs);
	return ret;
}

int uverbs_cmd_destroy_ah(struct uverbs_attr_bundle *attrs)
{
	struct ib_uverbs_destroy_ah cmd;
	int ret;

	ret = uverbs_request(attrs, &cmd, sizeof(cmd));
	if (ret)
		return ret;
	return uverbs_uobj_destroy_by_id(&uverbs_ah_type, cmd.ah_handle, attrs);
}

/* The framework destroyed the AH before calling this. */
static int ah_destroy_method(struct uverbs_attr_bundle *attrs)
{
	return 0;
}

static const struct uv_method_def ah_methods[] = {
	UV_METHOD(UVERBS_OBJECT_AH, UVERBS_METHOD_AH_DESTROY, ah_destroy_method,
		  UV_IDR(UVERBS_ATTR_DESTROY_AH_HANDLE, UVERBS_OBJECT_AH,
			 UV_ACCESS_DESTROY, UV_MANDATORY)),
};

const struct uv_method_table uverbs_ah_methods = UV_METHOD_TABLE(ah_methods);
