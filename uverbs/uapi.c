// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The registry the ioctl dispatcher looks methods up in.  Each source file
 * that implements methods contributes a const table (see UV_METHOD() in
 * uverbs.h); at module init every definition is checked and indexed in an
 * xarray by (object id, method id).  The registry is read-only afterwards,
 * so lookups need no locking.
 */
#include <linux/bitops.h>
#include <linux/xarray.h>
#include "uverbs.h"

static const struct uv_method_table *const uverbs_method_tables[] = {
	&uverbs_write_methods,
	&uverbs_device_methods,
	&uverbs_async_methods,
	&uverbs_pd_methods,
	&uverbs_cq_methods,
	&uverbs_mr_methods,
	&uverbs_qp_methods,
	&uverbs_srq_methods,
	&uverbs_ah_methods,
};

/* Object types that can have instances, by UVERBS_OBJECT_* id. */
static const struct uverbs_obj_type *const uverbs_types[] = {
	&uverbs_pd_type,
	&uverbs_async_event_type,
	&uverbs_comp_channel_type,
	&uverbs_cq_type,
	&uverbs_mr_type,
	&uverbs_mw_type,
	&uverbs_qp_type,
	&uverbs_srq_type,
	&uverbs_ah_type,
};

static DEFINE_XARRAY(uverbs_methods);

static unsigned long method_key(u16 object_id, u16 method_id)
{
	return (unsigned long)object_id << 16 | method_id;
}

const struct uv_method_def *uverbs_find_method(u16 object_id, u16 method_id)
{
	return xa_load(&uverbs_methods, method_key(object_id, method_id));
}

const struct uverbs_obj_type *uverbs_find_type(u16 object_id)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(uverbs_types); i++)
		if (uverbs_types[i]->id == object_id)
			return uverbs_types[i];
	return NULL;
}

/* Attribute kinds that name an object. */
static bool spec_is_object(const struct uv_attr_spec *spec)
{
	return spec->kind == UV_ATTR_IDR || spec->kind == UV_ATTR_FD;
}

static int check_spec(const struct uv_attr_spec *spec)
{
	const struct uverbs_obj_type *type;
	unsigned int i;

	switch (spec->kind) {
	case UV_ATTR_PTR_IN:
	case UV_ATTR_PTR_OUT:
		if (spec->u.ptr.min_len > spec->u.ptr.len)
			return -EINVAL;
		return 0;
	case UV_ATTR_CONST_IN:
	case UV_ATTR_FLAGS_IN:
		return 0;
	case UV_ATTR_ENUM_IN:
		for (i = 0; i < spec->u.en.num_elems; i++)
			if (spec->u.en.elems[i].kind != UV_ATTR_PTR_IN)
				return -EINVAL;
		return 0;
	case UV_ATTR_IDR:
	case UV_ATTR_FD:
		type = uverbs_find_type(spec->u.obj.type);
		if (!type || type->is_fd != (spec->kind == UV_ATTR_FD))
			return -EINVAL;
		/* Creation and destruction cannot be optional. */
		if ((spec->u.obj.access == UV_ACCESS_NEW ||
		     spec->u.obj.access == UV_ACCESS_DESTROY) &&
		    !spec->mandatory)
			return -EINVAL;
		/* An fd object can only be created or read by a method. */
		if (type->is_fd && spec->u.obj.access != UV_ACCESS_NEW &&
		    spec->u.obj.access != UV_ACCESS_READ)
			return -EINVAL;
		return 0;
	}
	return -EINVAL;
}

static int check_method(const struct uv_method_def *def)
{
	unsigned int i, j, lifecycle = 0;
	int ret;

	if (!def->handler || def->num_attrs > UV_MAX_METHOD_ATTRS ||
	    def->num_attrs > BITS_PER_LONG)
		return -EINVAL;
	for (i = 0; i < def->num_attrs; i++) {
		const struct uv_attr_spec *spec = &def->attrs[i];

		ret = check_spec(spec);
		if (ret)
			return ret;
		for (j = 0; j < i; j++)
			if (def->attrs[j].id == spec->id)
				return -EINVAL;
		/*
		 * A failing command undoes at most one creation or
		 * destruction, so a method may have only one.
		 */
		if (spec_is_object(spec) &&
		    (spec->u.obj.access == UV_ACCESS_NEW ||
		     spec->u.obj.access == UV_ACCESS_DESTROY))
			lifecycle++;
	}
	return lifecycle > 1 ? -EINVAL : 0;
}

int uverbs_uapi_init(void)
{
	const struct uv_method_def *def;
	unsigned int t, m;
	int ret;

	for (t = 0; t < ARRAY_SIZE(uverbs_method_tables); t++) {
		for (m = 0; m < uverbs_method_tables[t]->count; m++) {
			def = &uverbs_method_tables[t]->defs[m];
			ret = check_method(def);
			if (!ret)
				ret = xa_insert(&uverbs_methods,
						method_key(def->object_id,
							   def->method_id),
						(void *)def, GFP_KERNEL);
			if (ret) {
				pr_err("ib_uverbs: bad definition of method %u of object %u: %d\n",
				       def->method_id, def->object_id, ret);
				xa_destroy(&uverbs_methods);
				return ret;
			}
		}
	}
	return 0;
}

void uverbs_uapi_exit(void)
{
	xa_destroy(&uverbs_methods);
}
