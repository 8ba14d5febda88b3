// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Memory regions and memory windows.
 *
 * libibverbs 44 registers with the REG_MR write command (REREG_MR and
 * ALLOC_MW are write-only too) and deregisters with the ioctl methods
 * UVERBS_METHOD_MR_DESTROY and UVERBS_METHOD_MW_DESTROY, falling back to
 * DEREG_MR and DEALLOC_MW only when those are missing.  QUERY_MR (keys,
 * length and iova of an MR by handle) exists as an ioctl method only.
 *
 * An MR or MW counts in its PD's usecnt, so the PD refuses destruction
 * (-EBUSY) while it has any.  Access rights are checked here as in-tree:
 * remote write or atomic without local write, or unknown bits, are
 * -EINVAL; the driver pins the memory (ib_umem_get()).
 */
#include <linux/mm.h>
#include <linux/slab.h>
#include "uverbs.h"

static int mr_destroy(struct ib_uobject *uobj, enum uverbs_remove_reason why,
		      struct uverbs_attr_bundle *attrs)
{
	struct ib_udata udata = { .uctx = uobj->context };

	return ib_dereg_mr_user(uobj->object, &udata);
}

const struct uverbs_obj_type uverbs_mr_type = {
	.id = UVERBS_OBJECT_MR,
	.size = sizeof(struct ib_uobject),
	.destroy = mr_destroy,
};

static int mw_destroy(struct ib_uobject *uobj, enum uverbs_remove_reason why,
		      struct uverbs_attr_bundle *attrs)
{
	return ib_dealloc_mw_user(uobj->object);
}

const struct uverbs_obj_type uverbs_mw_type = {
	.id = UVERBS_OBJECT_MW,
	.size = sizeof(struct ib_uobject),
	.destroy = mw_destroy,
};

int uverbs_cmd_reg_mr(struct uverbs_attr_bundle *attrs)
{
	struct ib_uverbs_reg_mr_resp resp = {};
	struct ib_mr_source src = { .user = true };
	struct ib_uobject *uobj, *pd_uobj;
	struct ib_uverbs_reg_mr cmd;
	struct ib_mr *mr;
	int ret;

	ret = uverbs_request(attrs, &cmd, sizeof(cmd));
	if (ret)
		return ret;
	/* The device sees the memory at hca_va: same offset in the page. */
	if ((cmd.start ^ cmd.hca_va) & ~PAGE_MASK)
		return -EINVAL;
	uobj = uverbs_uobj_alloc(&uverbs_mr_type, attrs);
	if (IS_ERR(uobj))
		return PTR_ERR(uobj);
	/* Checked again by the core; here for in-tree's errno order. */
	ret = ib_check_mr_access(cmd.access_flags);
	if (ret)
		goto err_abort;
	pd_uobj = uverbs_uobj_lookup(&uverbs_pd_type, cmd.pd_handle,
				     UV_ACCESS_READ, attrs);
	if (IS_ERR(pd_uobj)) {
		ret = PTR_ERR(pd_uobj);
		goto err_abort;
	}
	src.start = cmd.start;
	src.length = cmd.length;
	src.iova = cmd.hca_va;
	src.access = cmd.access_flags;
	attrs->driver_udata.uctx = uobj->context;
	mr = ib_reg_mr_user(pd_uobj->object, &src, uobj, &attrs->driver_udata);
	uverbs_uobj_lookup_put(pd_uobj, UV_ACCESS_READ);
	if (IS_ERR(mr)) {
		ret = PTR_ERR(mr);
		goto err_abort;
	}
	uobj->object = mr;
	/* The dispatcher commits it, or destroys it if the reply fails. */
	attrs->uobject = uobj;

	resp.mr_handle = uobj->id;
	resp.lkey = mr->lkey;
	resp.rkey = mr->rkey;
	return uverbs_response(attrs, &resp, sizeof(resp));

err_abort:
	uverbs_uobj_abort(uobj, false, attrs);
	return ret;
}

/*
 * Change the translation, access rights and/or PD of an MR in place.  The
 * MR is locked exclusively meanwhile: other commands naming it get -EBUSY.
 * Stock 6.1 rxe has no rereg (-EOPNOTSUPP); errnos otherwise follow the
 * in-tree core: no flag or TRANS with mismatched page offsets -EINVAL,
 * unknown flags -EOPNOTSUPP.
 */
int uverbs_cmd_rereg_mr(struct uverbs_attr_bundle *attrs)
{
	struct ib_uverbs_rereg_mr_resp resp = {};
	struct ib_uobject *uobj, *pd_uobj = NULL;
	struct ib_uverbs_rereg_mr cmd;
	struct ib_pd *old_pd, *new_pd;
	struct ib_mr *mr;
	u32 flags;
	int ret;

	if (!attrs->ibdev->ops.rereg_user_mr)
		return -EOPNOTSUPP;
	ret = uverbs_request(attrs, &cmd, sizeof(cmd));
	if (ret)
		return ret;
	flags = cmd.flags;
	if (!flags)
		return -EINVAL;
	if (flags & ~IB_MR_REREG_SUPPORTED)
		return -EOPNOTSUPP;
	if ((flags & IB_MR_REREG_TRANS) &&
	    ((cmd.start ^ cmd.hca_va) & ~PAGE_MASK))
		return -EINVAL;

	uobj = uverbs_uobj_lookup(&uverbs_mr_type, cmd.mr_handle,
				  UV_ACCESS_WRITE, attrs);
	if (IS_ERR(uobj))
		return PTR_ERR(uobj);
	mr = uobj->object;
	if (flags & IB_MR_REREG_ACCESS) {
		ret = ib_check_mr_access(cmd.access_flags) ?:
		      ib_check_mr_device_access(mr->device, cmd.access_flags);
		if (ret)
			goto out;
	}
	old_pd = mr->pd;
	new_pd = old_pd;
	if (flags & IB_MR_REREG_PD) {
		pd_uobj = uverbs_uobj_lookup(&uverbs_pd_type, cmd.pd_handle,
					     UV_ACCESS_READ, attrs);
		if (IS_ERR(pd_uobj)) {
			ret = PTR_ERR(pd_uobj);
			pd_uobj = NULL;
			goto out;
		}
		new_pd = pd_uobj->object;
		if (new_pd == old_pd)
			flags &= ~IB_MR_REREG_PD;
	}

	attrs->driver_udata.uctx = uobj->context;
	ret = mr->device->ops.rereg_user_mr(mr, flags, cmd.start, cmd.length,
					    cmd.hca_va, cmd.access_flags,
					    new_pd, &attrs->driver_udata);
	if (ret)
		goto out;
	if (flags & IB_MR_REREG_PD) {
		atomic_inc(&new_pd->usecnt);
		atomic_dec(&old_pd->usecnt);
	}
	resp.lkey = mr->lkey;
	resp.rkey = mr->rkey;
	ret = uverbs_response(attrs, &resp, sizeof(resp));
out:
	if (pd_uobj)
		uverbs_uobj_lookup_put(pd_uobj, UV_ACCESS_READ);
	uverbs_uobj_lookup_put(uobj, UV_ACCESS_WRITE);
	return ret;
}

int uverbs_cmd_dereg_mr(struct uverbs_attr_bundle *attrs)
{
	struct ib_uverbs_dereg_mr cmd;
	int ret;

	ret = uverbs_request(attrs, &cmd, sizeof(cmd));
	if (ret)
		return ret;
	return uverbs_uobj_destroy_by_id(&uverbs_mr_type, cmd.mr_handle, attrs);
}

int uverbs_cmd_alloc_mw(struct uverbs_attr_bundle *attrs)
{
	struct ib_uverbs_alloc_mw_resp resp = {};
	struct ib_uobject *uobj, *pd_uobj;
	struct ib_uverbs_alloc_mw cmd;
	struct ib_mw *mw;
	int ret;

	if (!attrs->ibdev->ops.alloc_mw || !attrs->ibdev->ops.dealloc_mw)
		return -EOPNOTSUPP;
	ret = uverbs_request(attrs, &cmd, sizeof(cmd));
	if (ret)
		return ret;
	uobj = uverbs_uobj_alloc(&uverbs_mw_type, attrs);
	if (IS_ERR(uobj))
		return PTR_ERR(uobj);
	pd_uobj = uverbs_uobj_lookup(&uverbs_pd_type, cmd.pd_handle,
				     UV_ACCESS_READ, attrs);
	if (IS_ERR(pd_uobj)) {
		ret = PTR_ERR(pd_uobj);
		goto err_abort;
	}
	attrs->driver_udata.uctx = uobj->context;
	mw = ib_alloc_mw_user(pd_uobj->object, cmd.mw_type, uobj,
			      &attrs->driver_udata);
	uverbs_uobj_lookup_put(pd_uobj, UV_ACCESS_READ);
	if (IS_ERR(mw)) {
		ret = PTR_ERR(mw);
		goto err_abort;
	}
	uobj->object = mw;
	attrs->uobject = uobj;

	resp.mw_handle = uobj->id;
	resp.rkey = mw->rkey;
	return uverbs_response(attrs, &resp, sizeof(resp));

err_abort:
	uverbs_uobj_abort(uobj, false, attrs);
	return ret;
}

int uverbs_cmd_dealloc_mw(struct uverbs_attr_bundle *attrs)
{
	struct ib_uverbs_dealloc_mw cmd;
	int ret;

	ret = uverbs_request(attrs, &cmd, sizeof(cmd));
	if (ret)
		return ret;
	return uverbs_uobj_destroy_by_id(&uverbs_mw_type, cmd.mw_handle, attrs);
}

/* The framework destroyed the object before calling this. */
static int destroy_method(struct uverbs_attr_bundle *attrs)
{
	return 0;
}

/* Read-locked: no rereg changes the MR meanwhile. */
static int query_mr_method(struct uverbs_attr_bundle *attrs)
{
	struct ib_mr *mr =
		uverbs_attr_get_uobject(attrs, UVERBS_ATTR_QUERY_MR_HANDLE)->object;
	int ret;

	ret = uverbs_copy_to(attrs, UVERBS_ATTR_QUERY_MR_RESP_LKEY, &mr->lkey,
			     sizeof(mr->lkey));
	if (!ret)
		ret = uverbs_copy_to(attrs, UVERBS_ATTR_QUERY_MR_RESP_RKEY,
				     &mr->rkey, sizeof(mr->rkey));
	if (!ret)
		ret = uverbs_copy_to(attrs, UVERBS_ATTR_QUERY_MR_RESP_LENGTH,
				     &mr->length, sizeof(mr->length));
	if (!ret)
		ret = uverbs_copy_to(attrs, UVERBS_ATTR_QUERY_MR_RESP_IOVA,
				     &mr->iova, sizeof(mr->iova));
	return UVERBS_COPY_FAILED(ret) ? ret : 0;
}

static const struct uv_method_def mr_methods[] = {
	UV_METHOD(UVERBS_OBJECT_MR, UVERBS_METHOD_MR_DESTROY, destroy_method,
		  UV_IDR(UVERBS_ATTR_DESTROY_MR_HANDLE, UVERBS_OBJECT_MR,
			 UV_ACCESS_DESTROY, UV_MANDATORY)),
	UV_METHOD(UVERBS_OBJECT_MR, UVERBS_METHOD_QUERY_MR, query_mr_method,
		  UV_IDR(UVERBS_ATTR_QUERY_MR_HANDLE, UVERBS_OBJECT_MR,
			 UV_ACCESS_READ, UV_MANDATORY),
		  UV_PTR_OUT(UVERBS_ATTR_QUERY_MR_RESP_LKEY, UV_SIZE_OF(u32),
			     UV_MANDATORY),
		  UV_PTR_OUT(UVERBS_ATTR_QUERY_MR_RESP_RKEY, UV_SIZE_OF(u32),
			     UV_MANDATORY),
		  UV_PTR_OUT(UVERBS_ATTR_QUERY_MR_RESP_LENGTH, UV_SIZE_OF(u64),
			     UV_MANDATORY),
		  UV_PTR_OUT(UVERBS_ATTR_QUERY_MR_RESP_IOVA, UV_SIZE_OF(u64),
			     UV_OPTIONAL)),
	UV_METHOD(UVERBS_OBJECT_MW, UVERBS_METHOD_MW_DESTROY, destroy_method,
		  UV_IDR(UVERBS_ATTR_DESTROY_MW_HANDLE, UVERBS_OBJECT_MW,
			 UV_ACCESS_DESTROY, UV_MANDATORY)),
};

const struct uv_method_table uverbs_mr_methods = UV_METHOD_TABLE(mr_methods);
