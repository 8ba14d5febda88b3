// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Protection domains.  Created by the ALLOC_PD write command (libibverbs
 * has no ioctl method for it), destroyed by DEALLOC_PD or, as libibverbs 44
 * tries first, by the ioctl method UVERBS_METHOD_PD_DESTROY.
 *
 * pd->usecnt counts objects that use the PD; while it is non-zero the PD
 * refuses destruction with -EBUSY, and teardown destroys it after them.
 */
#include "uverbs.h"

static int pd_destroy(struct ib_uobject *uobj, enum uverbs_remove_reason why,
		      struct uverbs_attr_bundle *attrs)
{
	struct ib_udata no_udata = {};

	return ib_dealloc_pd_user(uobj->object, &no_udata);
}

const struct uverbs_obj_type uverbs_pd_type = {
	.id = UVERBS_OBJECT_PD,
	.size = sizeof(struct ib_uobject),
	.destroy = pd_destroy,
};

/*
 * Create a PD with the request's driver data.  On success the new object
 * is left in attrs->uobject: the write dispatcher commits it if the rest
 * of the command succeeds and destroys it otherwise.
 */
static int uverbs_pd_create(struct uverbs_attr_bundle *attrs, u32 *handle)
{
	struct ib_uobject *uobj;
	struct ib_pd *pd;

	uobj = uverbs_uobj_alloc(&uverbs_pd_type, attrs);
	if (IS_ERR(uobj))
		return PTR_ERR(uobj);
	pd = ib_alloc_pd_user(uobj->context->device, uobj,
			      &attrs->driver_udata);
	if (IS_ERR(pd)) {
		uverbs_uobj_abort(uobj, false, attrs);
		return PTR_ERR(pd);
	}
	uobj->object = pd;
	attrs->uobject = uobj;
	*handle = uobj->id;
	return 0;
}

int uverbs_cmd_alloc_pd(struct uverbs_attr_bundle *attrs)
{
	struct ib_uverbs_alloc_pd_resp resp = {};
	struct ib_uverbs_alloc_pd cmd;
	int ret;

	ret = uverbs_request(attrs, &cmd, sizeof(cmd));
	if (ret)
		return ret;
	ret = uverbs_pd_create(attrs, &resp.pd_handle);
	if (ret)
		return ret;
	/* The dispatcher commits the PD, or destroys it if this fails. */
	return uverbs_response(attrs, &resp, sizeof(resp));
}

int uverbs_cmd_dealloc_pd(struct uverbs_attr_bundle *attrs)
{
	struct ib_uverbs_dealloc_pd cmd;
	int ret;

	ret = uverbs_request(attrs, &cmd, sizeof(cmd));
	if (ret)
		return ret;
	return uverbs_uobj_destroy_by_id(&uverbs_pd_type, cmd.pd_handle, attrs);
}

/* The framework destroyed the PD before calling this. */
static int pd_destroy_method(struct uverbs_attr_bundle *attrs)
{
	return 0;
}

static const struct uv_method_def pd_methods[] = {
	UV_METHOD(UVERBS_OBJECT_PD, UVERBS_METHOD_PD_DESTROY, pd_destroy_method,
		  UV_IDR(UVERBS_ATTR_DESTROY_PD_HANDLE, UVERBS_OBJECT_PD,
			 UV_ACCESS_DESTROY, UV_MANDATORY)),
};

const struct uv_method_table uverbs_pd_methods = UV_METHOD_TABLE(pd_methods);
