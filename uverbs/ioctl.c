// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * RDMA_VERBS_IOCTL: a struct ib_uverbs_ioctl_hdr naming (object, method),
 * followed by an array of struct ib_uverbs_attr.  The method's definition
 * (uapi.c) says which attributes exist; each is checked against its spec
 * and collected into a struct uverbs_attr_bundle for the handler.
 *
 * Errors follow the in-tree dispatcher of the target kernel, because
 * libibverbs acts on them: -EPROTONOSUPPORT means "this kernel cannot run
 * that" (unknown object or method, unknown attribute flagged mandatory,
 * reserved header fields set) and makes libibverbs fall back to write();
 * every other malformation is -EINVAL, except a PTR_IN longer than the
 * kernel knows with non-zero excess and an ENUM_IN element out of range,
 * which are -EOPNOTSUPP.  Unknown attributes not flagged mandatory are
 * ignored, which is how newer userspace stays compatible.
 */
#include <linux/bitops.h>
#include <linux/overflow.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include "uverbs.h"

/* Whether @len user bytes at @p are all zero (false if unreadable). */
bool uverbs_user_is_zero(const void __user *p, size_t len)
{
	u8 buf[64];

	while (len) {
		size_t n = min(len, sizeof(buf));

		if (copy_from_user(buf, p, n) || memchr_inv(buf, 0, n))
			return false;
		p += n;
		len -= n;
	}
	return true;
}

static int find_spec(const struct uv_method_def *method, u16 id)
{
	unsigned int i;

	for (i = 0; i < method->num_attrs; i++)
		if (method->attrs[i].id == id)
			return i;
	return -1;
}

const struct uv_attr *uverbs_attr_get(const struct uverbs_attr_bundle *attrs,
				      u16 id)
{
	int i;

	if (!attrs->method)
		return ERR_PTR(-ENOENT);
	i = find_spec(attrs->method, id);
	if (i < 0 || !test_bit(i, &attrs->present))
		return ERR_PTR(-ENOENT);
	return &attrs->attrs[i];
}

bool uverbs_attr_is_valid(const struct uverbs_attr_bundle *attrs, u16 id)
{
	return !IS_ERR(uverbs_attr_get(attrs, id));
}

int uverbs_attr_get_len(const struct uverbs_attr_bundle *attrs, u16 id)
{
	const struct uv_attr *a = uverbs_attr_get(attrs, id);

	return IS_ERR(a) ? PTR_ERR(a) : a->len;
}

struct ib_uobject *uverbs_attr_get_uobject(const struct uverbs_attr_bundle *attrs,
					   u16 id)
{
	const struct uv_attr *a = uverbs_attr_get(attrs, id);

	return IS_ERR(a) ? ERR_CAST(a) : a->uobj;
}

/* The value of a CONST_IN; its range was checked before the handler ran. */
int uverbs_get_const(const struct uverbs_attr_bundle *attrs, u16 id, u64 *val)
{
	const struct uv_attr *a = uverbs_attr_get(attrs, id);

	if (IS_ERR(a))
		return PTR_ERR(a);
	*val = a->data;
	return 0;
}

/* The value of a FLAGS_IN, 0 when absent; checked before the handler ran. */
int uverbs_get_flags(const struct uverbs_attr_bundle *attrs, u16 id, u64 *val)
{
	const struct uv_attr *a = uverbs_attr_get(attrs, id);

	*val = IS_ERR(a) ? 0 : a->data;
	return 0;
}

/* Tell userspace an output attribute was written. */
int uverbs_output_written(const struct uverbs_attr_bundle *attrs, u16 id)
{
	const struct uv_attr *a = uverbs_attr_get(attrs, id);
	u16 flags;

	if (IS_ERR(a))
		return PTR_ERR(a);
	flags = attrs->uattrs[a->uattr_idx].flags | UVERBS_ATTR_F_VALID_OUTPUT;
	if (put_user(flags, &attrs->user_attrs[a->uattr_idx].flags))
		return -EFAULT;
	return 0;
}

/*
 * Copy @size bytes to an output attribute, truncated to the user's buffer:
 * an older userspace gets the part of a grown structure it knows.
 */
int uverbs_copy_to(const struct uverbs_attr_bundle *attrs, u16 id,
		   const void *from, size_t size)
{
	const struct uv_attr *a = uverbs_attr_get(attrs, id);

	if (IS_ERR(a))
		return PTR_ERR(a);
	if (copy_to_user(u64_to_user_ptr(a->data), from, min_t(size_t, a->len, size)))
		return -EFAULT;
	return uverbs_output_written(attrs, id);
}

/* As uverbs_copy_to(), zeroing what the user's buffer has beyond @size. */
int uverbs_copy_to_struct_or_zero(const struct uverbs_attr_bundle *attrs,
				  u16 id, const void *from, size_t size)
{
	const struct uv_attr *a = uverbs_attr_get(attrs, id);

	if (IS_ERR(a))
		return PTR_ERR(a);
	if (a->len > size &&
	    clear_user(u64_to_user_ptr(a->data) + size, a->len - size))
		return -EFAULT;
	return uverbs_copy_to(attrs, id, from, size);
}

static bool attr_is_inline(const struct uv_attr *a)
{
	return a->len <= sizeof(a->data);
}

/*
 * The value of a PTR_IN attribute of exactly @size bytes (fixed by its
 * spec, so a present attribute has that length).
 */
int uverbs_copy_from(void *to, const struct uverbs_attr_bundle *attrs, u16 id,
		     size_t size)
{
	const struct uv_attr *a = uverbs_attr_get(attrs, id);

	if (IS_ERR(a))
		return PTR_ERR(a);
	if (a->len != size)
		return -EINVAL;
	if (attr_is_inline(a)) {
		memcpy(to, &a->data, size);
		return 0;
	}
	return copy_from_user(to, u64_to_user_ptr(a->data), size) ? -EFAULT : 0;
}

/* An ib_udata from an in and an out attribute, either may be absent. */
void uverbs_fill_udata(const struct uverbs_attr_bundle *attrs,
		       struct ib_udata *udata, u16 in_id, u16 out_id)
{
	const struct uv_attr *in = uverbs_attr_get(attrs, in_id);
	const struct uv_attr *out = uverbs_attr_get(attrs, out_id);

	*udata = (struct ib_udata){};
	if (!IS_ERR(in)) {
		/* Inline data is read where userspace put it: in its array. */
		udata->inbuf = attr_is_inline(in) ?
			(const void __user *)&attrs->user_attrs[in->uattr_idx].data :
			u64_to_user_ptr(in->data);
		udata->inlen = in->len;
	}
	if (!IS_ERR(out)) {
		udata->outbuf = u64_to_user_ptr(out->data);
		udata->outlen = out->len;
	}
}

/*
 * Copy the request in.  A shorter request is zero-extended (the minimum was
 * checked by the dispatcher); a longer one must be zero past what we know.
 */
int uverbs_request(struct uverbs_attr_bundle *attrs, void *req, size_t len)
{
	size_t inlen = attrs->ucore.inlen;

	if (copy_from_user(req, attrs->ucore.inbuf, min(inlen, len)))
		return -EFAULT;
	if (inlen < len)
		memset(req + inlen, 0, len - inlen);
	else if (inlen > len &&
		 !uverbs_user_is_zero(attrs->ucore.inbuf + len, inlen - len))
		return -EOPNOTSUPP;
	return 0;
}

/* Copy the response out, truncated or zero-filled to the user's size. */
int uverbs_response(struct uverbs_attr_bundle *attrs, const void *resp,
		    size_t len)
{
	size_t outlen = attrs->ucore.outlen;

	if (uverbs_attr_is_valid(attrs, UVERBS_ATTR_CORE_OUT))
		return uverbs_copy_to_struct_or_zero(attrs, UVERBS_ATTR_CORE_OUT,
						     resp, len);
	if (copy_to_user(attrs->ucore.outbuf, resp, min(outlen, len)))
		return -EFAULT;
	if (outlen > len && clear_user(attrs->ucore.outbuf + len, outlen - len))
		return -EFAULT;
	return 0;
}

/* The handler created the driver object of its NEW attribute @id. */
void uverbs_finalize_uobj_create(struct uverbs_attr_bundle *attrs, u16 id)
{
	int i = find_spec(attrs->method, id);

	if (i >= 0)
		__set_bit(i, &attrs->obj_valid);
}

/* Bytes [known, len) of an attribute, inline or not, are zero. */
static bool attr_tail_is_zero(const struct ib_uverbs_attr *uattr, u16 known)
{
	if (uattr->len > sizeof(uattr->data))
		return uverbs_user_is_zero(u64_to_user_ptr(uattr->data) + known,
					   uattr->len - known);
	return !memchr_inv((const u8 *)&uattr->data + known, 0,
			   uattr->len - known);
}

static int parse_ptr(const struct uv_attr_spec *spec,
		     const struct ib_uverbs_attr *uattr, bool check_reserved,
		     struct uv_attr *a)
{
	u16 min_len = sizeof(u64), len = sizeof(u64);
	bool extensible = false;

	switch (spec->kind) {
	case UV_ATTR_PTR_IN:
	case UV_ATTR_PTR_OUT:
		min_len = spec->u.ptr.min_len;
		len = spec->u.ptr.len;
		extensible = spec->zero_trailing;
		break;
	case UV_ATTR_FLAGS_IN:	/* a u32 or a u64 */
		min_len = sizeof(u32);
		break;
	default:		/* CONST_IN: exactly a u64 */
		break;
	}
	/* Longer than known is fine only if the excess is zero. */
	if (spec->kind == UV_ATTR_PTR_IN && extensible && uattr->len > len &&
	    !attr_tail_is_zero(uattr, len))
		return -EOPNOTSUPP;
	if (uattr->len < min_len || (!extensible && uattr->len > len))
		return -EINVAL;
	if (check_reserved && uattr->attr_data.reserved)
		return -EINVAL;
	a->data = uattr->data;
	a->len = uattr->len;
	return 0;
}

static int parse_obj(struct uverbs_attr_bundle *attrs,
		     const struct uv_attr_spec *spec,
		     const struct ib_uverbs_attr *uattr, unsigned int i)
{
	const struct uverbs_obj_type *type = uverbs_find_type(spec->u.obj.type);
	struct uv_attr *a = &attrs->attrs[i];
	struct ib_uobject *uobj;

	if (uattr->attr_data.reserved || uattr->len)
		return -EINVAL;
	uobj = uverbs_uobj_lookup(type, uattr->data_s64, spec->u.obj.access,
				  attrs);
	if (IS_ERR(uobj))
		return PTR_ERR(uobj);
	a->uobj = uobj;
	__set_bit(i, &attrs->held);

	/* The new object's name goes back in the attribute's data. */
	if (spec->u.obj.access == UV_ACCESS_NEW &&
	    put_user((u64)uobj->id, &attrs->user_attrs[a->uattr_idx].data))
		return -EFAULT;
	return 0;
}

static int parse_attr(struct uverbs_attr_bundle *attrs, unsigned int i,
		      const struct ib_uverbs_attr *uattr)
{
	const struct uv_attr_spec *spec = &attrs->method->attrs[i];
	struct uv_attr *a = &attrs->attrs[i];
	u8 elem;

	switch (spec->kind) {
	case UV_ATTR_PTR_IN:
	case UV_ATTR_PTR_OUT:
	case UV_ATTR_CONST_IN:
	case UV_ATTR_FLAGS_IN:
		return parse_ptr(spec, uattr, true, a);
	case UV_ATTR_ENUM_IN:
		elem = uattr->attr_data.enum_data.elem_id;
		if (elem >= spec->u.en.num_elems)
			return -EOPNOTSUPP;
		if (uattr->attr_data.enum_data.reserved)
			return -EINVAL;
		a->enum_id = elem;
		return parse_ptr(&spec->u.en.elems[elem], uattr, false, a);
	case UV_ATTR_IDR:
	case UV_ATTR_FD:
		return parse_obj(attrs, spec, uattr, i);
	}
	return -EINVAL;
}

static int set_attr(struct uverbs_attr_bundle *attrs, u16 idx)
{
	const struct ib_uverbs_attr *uattr = &attrs->uattrs[idx];
	int i = find_spec(attrs->method, uattr->attr_id);
	int ret;

	if (i < 0)	/* newer userspace: fine unless it insists */
		return uattr->flags & UVERBS_ATTR_F_MANDATORY ?
			-EPROTONOSUPPORT : 0;
	if (test_bit(i, &attrs->present))
		return -EINVAL;
	attrs->attrs[i].uattr_idx = idx;
	ret = parse_attr(attrs, i, uattr);
	if (ret)
		return ret;
	__set_bit(i, &attrs->present);
	return 0;
}

/* Value checks of the scalar kinds, once all attributes are in. */
static int check_values(struct uverbs_attr_bundle *attrs)
{
	const struct uv_method_def *method = attrs->method;
	unsigned int i;

	for_each_set_bit(i, &attrs->present, method->num_attrs) {
		const struct uv_attr_spec *spec = &method->attrs[i];
		struct uv_attr *a = &attrs->attrs[i];
		u32 flags32;

		switch (spec->kind) {
		case UV_ATTR_CONST_IN:
			if (a->data > spec->u.max)
				return -EINVAL;
			break;
		case UV_ATTR_FLAGS_IN:
			if (a->len == sizeof(u32)) {
				/* the first four bytes of the inline data */
				memcpy(&flags32, &a->data, sizeof(flags32));
				a->data = flags32;
			} else if (a->len != sizeof(u64)) {
				return -EINVAL;
			}
			if (a->data & ~spec->u.allowed)
				return -EINVAL;
			break;
		default:
			break;
		}
	}
	return 0;
}

static bool method_has_udata(const struct uv_method_def *method)
{
	unsigned int i;

	for (i = 0; i < method->num_attrs; i++)
		if (method->attrs[i].is_udata)
			return true;
	return false;
}

/* Run the object destruction a method is about, before its handler. */
static int destroy_attr_uobj(struct uverbs_attr_bundle *attrs)
{
	const struct uv_method_def *method = attrs->method;
	unsigned int i;

	for_each_set_bit(i, &attrs->held, method->num_attrs)
		if (method->attrs[i].u.obj.access == UV_ACCESS_DESTROY)
			return uverbs_uobj_destroy(attrs->attrs[i].uobj, attrs);
	return 0;
}

/* Release the objects the attributes hold; commit new ones on success. */
static void finalize_uobjs(struct uverbs_attr_bundle *attrs, bool commit)
{
	const struct uv_method_def *method = attrs->method;
	unsigned int i;

	for_each_set_bit(i, &attrs->held, method->num_attrs) {
		struct ib_uobject *uobj = attrs->attrs[i].uobj;
		u8 access = method->attrs[i].u.obj.access;

		if (access != UV_ACCESS_NEW)
			uverbs_uobj_lookup_put(uobj, access);
		else if (commit)
			uverbs_uobj_commit(uobj);
		else
			uverbs_uobj_abort(uobj, test_bit(i, &attrs->obj_valid),
					  attrs);
	}
}

static int run_method(struct uverbs_attr_bundle *attrs, u16 num_attrs)
{
	const struct uv_method_def *method = attrs->method;
	struct ib_uverbs_attr *uattrs;
	bool has_udata = method_has_udata(method);
	unsigned int i;
	int ret;

	uattrs = memdup_user(attrs->user_attrs, array_size(num_attrs,
							   sizeof(*uattrs)));
	if (IS_ERR(uattrs))
		return PTR_ERR(uattrs);
	attrs->uattrs = uattrs;

	for (i = 0; i < num_attrs; i++) {
		ret = set_attr(attrs, i);
		if (ret)
			goto out;
	}
	for (i = 0; i < method->num_attrs; i++) {
		if (method->attrs[i].mandatory &&
		    !test_bit(i, &attrs->present)) {
			ret = -EINVAL;
			goto out;
		}
	}
	ret = check_values(attrs);
	if (ret)
		goto out;

	if (has_udata)
		uverbs_fill_udata(attrs, &attrs->driver_udata,
				  UVERBS_ATTR_UHW_IN, UVERBS_ATTR_UHW_OUT);
	ret = destroy_attr_uobj(attrs);
	if (ret)
		goto out;

	ret = method->handler(attrs);
	/* Drivers write their output directly: flag it for userspace. */
	if (!ret && has_udata && uverbs_attr_is_valid(attrs, UVERBS_ATTR_UHW_OUT))
		ret = uverbs_output_written(attrs, UVERBS_ATTR_UHW_OUT);
	/* Reserved for "the dispatcher cannot run this", see above. */
	if (ret == -EPROTONOSUPPORT)
		ret = -EINVAL;
out:
	finalize_uobjs(attrs, !ret);
	kfree(uattrs);
	return ret;
}

long uverbs_ioctl(struct file *filp, unsigned int cmd, unsigned long arg)
{
	struct ib_uverbs_file *ufile = filp->private_data;
	struct uverbs_device *udev = ufile->udev;
	struct ib_uverbs_ioctl_hdr __user *uhdr = (void __user *)arg;
	struct uverbs_attr_bundle attrs;
	struct ib_uverbs_ioctl_hdr hdr;
	const struct uv_method_def *method;
	struct ib_device *ibdev;
	long ret;
	int srcu;

	if (cmd != RDMA_VERBS_IOCTL)
		return -ENOIOCTLCMD;
	if (copy_from_user(&hdr, uhdr, sizeof(hdr)))
		return -EFAULT;
	if (hdr.length > PAGE_SIZE ||
	    hdr.length != struct_size(&hdr, attrs, hdr.num_attrs))
		return -EINVAL;
	if (hdr.reserved1 || hdr.reserved2)
		return -EPROTONOSUPPORT;

	srcu = srcu_read_lock(&udev->srcu);
	ibdev = srcu_dereference(udev->ibdev, &udev->srcu);
	if (!ibdev) {
		ret = -EIO;
		goto out;
	}
	if (hdr.driver_id != ibdev->ops.driver_id) {
		ret = -EINVAL;
		goto out;
	}
	method = uverbs_find_method(hdr.object_id, hdr.method_id);
	if (!method) {
		ret = -EPROTONOSUPPORT;
		goto out;
	}

	memset(&attrs, 0, sizeof(attrs));
	attrs.ufile = ufile;
	attrs.ibdev = ibdev;
	attrs.method = method;
	attrs.user_attrs = uhdr->attrs;
	ret = run_method(&attrs, hdr.num_attrs);
out:
	srcu_read_unlock(&udev->srcu, srcu);
	return ret;
}
