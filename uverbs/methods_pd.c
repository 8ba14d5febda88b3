// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Protection domains.  Created by the ALLOC_PD write command (libibverbs
 * has no ioctl method for it), destroyed by DEALLOC_PD or, as libibverbs 44
 * tries first, by the ioctl method UVERBS_METHOD_PD_DESTROY.
 *
 * pd->usecnt counts objects that use the PD; while it is non-zero the PD
 * refuses destruction with -EBUSY, and teardown destroys it after them.
 */
#include <linux/slab.h>
#include "uverbs.h"

static int pd_destroy(struct ib_uobject *uobj, enum uverbs_remove_reason why,
		      struct uverbs_attr_bundle *attrs)
{
	struct ib_pd *pd = uobj->object;
	struct ib_udata no_udata = {};
	int ret;

	if (atomic_read(&pd->usecnt))
		return -EBUSY;
	if (pd->device->ops.dealloc_pd) {
		ret = pd->device->ops.dealloc_pd(pd, &no_udata);
		if (ret)
			return ret;
	}
	kfree(pd);
	return 0;
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
int uverbs_pd_create(struct uverbs_attr_bundle *attrs, u32 *handle)
{
	struct ib_uobject *uobj;
	struct ib_device *ibdev;
	struct ib_pd *pd;
	int ret;

	uobj = uverbs_uobj_alloc(&uverbs_pd_type, attrs);
	if (IS_ERR(uobj))
		return PTR_ERR(uobj);
	ibdev = uobj->context->device;
	if (!ibdev->ops.alloc_pd) {
		ret = -EOPNOTSUPP;
		goto err_abort;
	}
	/* The driver's structure embeds ours first (see ib_device_ops). */
	pd = kzalloc(max(ibdev->ops.size_ib_pd, sizeof(*pd)),
		     GFP_KERNEL_ACCOUNT);
	if (!pd) {
		ret = -ENOMEM;
		goto err_abort;
	}
	pd->device = ibdev;
	pd->uobject = uobj;
	atomic_set(&pd->usecnt, 0);
	ret = ibdev->ops.alloc_pd(pd, &attrs->driver_udata);
	if (ret) {
		kfree(pd);
		goto err_abort;
	}
	uobj->object = pd;
	attrs->uobject = uobj;
	*handle = uobj->id;
	return 0;

err_abort:
	uverbs_uobj_abort(uobj, false, attrs);
	return ret;
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
