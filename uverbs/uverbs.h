/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * ib_uverbs internals: the per-device and per-open-file state, the
 * uobject framework (handles userspace holds on kernel objects), the
 * attribute bundle every command handler receives, and the declarative
 * method definitions the ioctl dispatcher is built from.
 *
 * Layout of the module:
 *   main.c            module, char devices, file operations, disassociation
 *   uobj.c            uobjects: allocation, lookup/locking, destruction
 *   uapi.c            the (object, method) registry built at module init
 *   ioctl.c           RDMA_VERBS_IOCTL: attribute parsing and validation
 *   cmd_write.c       write(): the legacy command table and its handlers
 *   methods_device.c  methods of UVERBS_OBJECT_DEVICE
 *   methods_pd.c      the PD object type and its ioctl methods
 *   methods_cq.c      CQs and completion channels, write and ioctl
 *   methods_mr.c      MRs and MWs, write and ioctl
 *   methods_qp.c      QPs (and their multicast attachments), write and ioctl
 *   methods_srq.c     SRQs, write and ioctl
 *   methods_ah.c      address handles, write and ioctl
 *   event.c           the event queue behind async and completion files
 *   async.c           the async event file
 * (pinned user memory and the mmap service for drivers are ib_core's:
 * core/umem.c, core/mmap.c)
 */
#ifndef ORDMA_UVERBS_H
#define ORDMA_UVERBS_H

#include <linux/atomic.h>
#include <linux/cdev.h>
#include <linux/device.h>
#include <linux/err.h>
#include <linux/fs.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/poll.h>
#include <linux/rwsem.h>
#include <linux/spinlock.h>
#include <linux/srcu.h>
#include <linux/types.h>
#include <linux/wait.h>
#include <linux/xarray.h>
#include <uapi/rdma/ib_user_ioctl_cmds.h>
#include <uapi/rdma/ib_user_ioctl_verbs.h>
#include <uapi/rdma/ib_user_verbs.h>
#include <uapi/rdma/rdma_user_ioctl_cmds.h>
#include <ordma/ib_core.h>

/*
 * One per RDMA device: the char device and what its open files share.
 *
 * @ibdev is the device while it is registered; ib_core's remove() callback
 * clears it and waits for @srcu, so every syscall that reads it under
 * srcu_read_lock() either completed before the device went away or sees
 * NULL and fails with -EIO ("disassociation").
 */
struct uverbs_device {
	struct device dev;		/* class infiniband_verbs, "uverbsN" */
	struct cdev cdev;
	struct ib_device __rcu *ibdev;
	struct srcu_struct srcu;
	struct mutex files_lock;	/* protects @files */
	struct list_head files;		/* ib_uverbs_file.list */
	int devnum;
};

/*
 * One open /dev/infiniband/uverbsN.  Referenced by the struct file and by
 * each fd-type object (async event files) created through it.
 */
struct ib_uverbs_file {
	struct uverbs_device *udev;	/* holds a reference on udev->dev */
	struct kref ref;
	struct list_head list;		/* in udev->files until released */

	/*
	 * Held for read while an object is being created or destroyed, for
	 * write while everything is torn down (close, disassociation).
	 */
	struct rw_semaphore hw_destroy_rwsem;
	struct mutex ucontext_lock;	/* serializes ucontext creation */
	struct ib_ucontext *ucontext;	/* published with release semantics */
	struct ib_uobject *default_async; /* first async event file, held */

	struct xarray idr;		/* handle -> ib_uobject (idr types) */
	spinlock_t uobjects_lock;	/* protects @uobjects */
	struct list_head uobjects;	/* committed objects, newest first */

	/* Mappings of the file (ib_core's core/mmap.c serves them). */
	struct ib_mmap_file mmap;
};

/* Why an object is being destroyed. */
enum uverbs_remove_reason {
	UVERBS_REMOVE_DESTROY,		/* a destroy command */
	UVERBS_REMOVE_CLOSE,		/* its command file was closed */
	UVERBS_REMOVE_DISASSOCIATE,	/* the device is going away */
	UVERBS_REMOVE_ABORT,		/* the creating command failed */
};

/* How a command uses an object it names. */
enum uv_access {
	UV_ACCESS_READ,		/* shared */
	UV_ACCESS_WRITE,	/* exclusive */
	UV_ACCESS_NEW,		/* created by the command */
	UV_ACCESS_DESTROY,	/* destroyed by the command */
};

struct uverbs_attr_bundle;
struct ib_uobject;

/* What ib_uverbs knows about one object type (UVERBS_OBJECT_*). */
struct uverbs_obj_type {
	u16 id;
	bool is_fd;		/* an anon-inode file rather than a handle */
	size_t size;		/* of the structure embedding struct ib_uobject */
	/*
	 * Release what the object owns.  A non-zero return leaves the object
	 * alive: a destroy command reports it, teardown retries after the
	 * other objects are gone (-EBUSY while something still uses it).
	 */
	int (*destroy)(struct ib_uobject *uobj, enum uverbs_remove_reason why,
		       struct uverbs_attr_bundle *attrs);
	/* fd types only */
	const struct file_operations *fops;
	const char *name;
	int flags;
};

/*
 * A userspace handle on a kernel object.  Lifetime: @ref counts the
 * creator (until commit hands it to the xarray slot or to the file), the
 * uobjects list, and lookups; the memory is freed after an RCU grace
 * period because idr lookups run under rcu_read_lock().
 */
struct ib_uobject {
	u64 user_handle;
	struct ib_uverbs_file *ufile;
	struct ib_ucontext *context;
	void *object;			/* driver object, or the struct file */
	const struct uverbs_obj_type *type;
	struct list_head list;		/* ufile->uobjects once committed */
	atomic_t usecnt;		/* >0: shared users, -1: exclusive */
	struct kref ref;
	u32 id;				/* handle, or fd number before install */
	struct rcu_head rcu;
};

/* ------------------------------------------------------------------ */
/* Method definitions                                                  */
/* ------------------------------------------------------------------ */

enum uv_attr_kind {
	UV_ATTR_PTR_IN = 1,	/* bytes in, inline when len <= 8 */
	UV_ATTR_PTR_OUT,	/* bytes out, always a user pointer */
	UV_ATTR_CONST_IN,	/* a u64 value in [0, max] */
	UV_ATTR_FLAGS_IN,	/* a u32 or u64 bit mask within @allowed */
	UV_ATTR_ENUM_IN,	/* elem_id selects one of several PTR_IN specs */
	UV_ATTR_IDR,		/* an object handle */
	UV_ATTR_FD,		/* an fd-type object */
};

/* One attribute a method accepts. */
struct uv_attr_spec {
	u16 id;
	u8 kind;			/* enum uv_attr_kind */
	u8 mandatory:1;
	/*
	 * PTR_IN: input longer than ptr.len is accepted when the excess is
	 * zero.  PTR_OUT: any buffer of at least ptr.min_len is accepted.
	 */
	u8 zero_trailing:1;
	u8 is_udata:1;			/* UVERBS_ATTR_UHW_IN/OUT */
	union {
		struct {
			u16 min_len;
			/* what the kernel knows; the maximum unless zero_trailing */
			u16 len;
		} ptr;
		u64 max;		/* CONST_IN */
		u64 allowed;		/* FLAGS_IN */
		struct {
			const struct uv_attr_spec *elems;	/* PTR_IN specs */
			u8 num_elems;
		} en;			/* ENUM_IN */
		struct {
			u16 type;	/* UVERBS_OBJECT_* */
			u8 access;	/* enum uv_access */
		} obj;			/* IDR, FD */
	} u;
};

/* Per-attribute modifiers for the UV_* spec macros below. */
#define UV_MANDATORY	.mandatory = 1
#define UV_OPTIONAL	.mandatory = 0

/*
 * Sizes of PTR_IN/PTR_OUT attributes, the _size argument of UV_PTR_*:
 *   UV_SIZE_OF(type)       exactly sizeof(type)
 *   UV_MIN_SIZE(n)         at least n bytes, up to the 16-bit protocol limit
 *   UV_STRUCT(type, last)  an extensible structure: at least up to and
 *                          including member @last; in, bytes past the
 *                          structure must be zero; out, they are zeroed
 */
#define UV_SIZE(_min, _len)	.u.ptr = { .min_len = (_min), .len = (_len) }
#define UV_SIZE_OF(_type)	UV_SIZE(sizeof(_type), sizeof(_type))
#define UV_MIN_SIZE(_min)	UV_SIZE(_min, U16_MAX)
#define UV_STRUCT(_type, _last)						\
	.zero_trailing = 1,						\
	UV_SIZE(offsetofend(_type, _last), sizeof(_type))

#define UV_PTR_IN(_id, _size, ...)					\
	{ .id = (_id), .kind = UV_ATTR_PTR_IN, _size, __VA_ARGS__ }

#define UV_PTR_OUT(_id, _size, ...)					\
	{ .id = (_id), .kind = UV_ATTR_PTR_OUT, _size, __VA_ARGS__ }

#define UV_CONST_IN(_id, _max, ...)					\
	{ .id = (_id), .kind = UV_ATTR_CONST_IN, .u.max = (_max), __VA_ARGS__ }

#define UV_FLAGS_IN(_id, _allowed, ...)					\
	{ .id = (_id), .kind = UV_ATTR_FLAGS_IN,			\
	  .u.allowed = (_allowed), __VA_ARGS__ }

#define UV_ENUM_IN(_id, _elems, ...)					\
	{ .id = (_id), .kind = UV_ATTR_ENUM_IN,				\
	  .u.en = { .elems = (_elems), .num_elems = ARRAY_SIZE(_elems) }, \
	  __VA_ARGS__ }

#define UV_IDR(_id, _type, _access, ...)				\
	{ .id = (_id), .kind = UV_ATTR_IDR,				\
	  .u.obj = { .type = (_type), .access = (_access) }, __VA_ARGS__ }

#define UV_FD(_id, _type, _access, ...)					\
	{ .id = (_id), .kind = UV_ATTR_FD,				\
	  .u.obj = { .type = (_type), .access = (_access) }, __VA_ARGS__ }

/* The driver's private in/out data, handed to it as struct ib_udata. */
#define UV_UHW()							\
	UV_PTR_IN(UVERBS_ATTR_UHW_IN, UV_MIN_SIZE(0), UV_OPTIONAL,	\
		  .is_udata = 1),					\
	UV_PTR_OUT(UVERBS_ATTR_UHW_OUT, UV_MIN_SIZE(0), UV_OPTIONAL,	\
		   .is_udata = 1)

/* Fixed-size scalars in PTR_IN form (libibverbs' fill_attr_in_uint32()). */
#define UV_PTR_IN_TYPE(_id, _type, ...)					\
	UV_PTR_IN(_id, UV_SIZE_OF(_type), __VA_ARGS__)

/* The most attributes one method may declare. */
#define UV_MAX_METHOD_ATTRS	16

/* One ioctl method: (object, method) -> handler and attribute specs. */
struct uv_method_def {
	u16 object_id;
	u16 method_id;
	int (*handler)(struct uverbs_attr_bundle *attrs);
	const struct uv_attr_spec *attrs;
	unsigned int num_attrs;
};

#define UV_METHOD(_obj, _method, _handler, ...)				\
	{ .object_id = (_obj), .method_id = (_method),			\
	  .handler = (_handler),					\
	  .attrs = (const struct uv_attr_spec[]){ __VA_ARGS__ },	\
	  .num_attrs = ARRAY_SIZE(((const struct uv_attr_spec[]){ __VA_ARGS__ })) }

/* A table of methods some file contributes to the registry. */
struct uv_method_table {
	const struct uv_method_def *defs;
	unsigned int count;
};

#define UV_METHOD_TABLE(_defs) { .defs = (_defs), .count = ARRAY_SIZE(_defs) }

/* ------------------------------------------------------------------ */
/* The bundle a handler receives                                       */
/* ------------------------------------------------------------------ */

/* One parsed attribute. */
struct uv_attr {
	u64 data;		/* inline value, or the user address */
	u16 len;
	u16 uattr_idx;		/* position in the user's array */
	u8 enum_id;		/* ENUM_IN: the element chosen */
	struct ib_uobject *uobj; /* IDR, FD */
};

struct uverbs_attr_bundle {
	struct ib_uverbs_file *ufile;
	struct ib_device *ibdev;	/* stable for the whole call (SRCU) */
	struct ib_udata ucore;		/* write commands: core request/reply */
	struct ib_udata driver_udata;	/* the driver's part of both */
	/*
	 * The ucontext new objects belong to: normally the file's, set by
	 * GET_CONTEXT to the one it is creating.
	 */
	struct ib_ucontext *context;
	/* write commands: a new object to commit when the handler succeeds */
	struct ib_uobject *uobject;

	/* ioctl methods only (method is NULL for write()) */
	const struct uv_method_def *method;
	struct ib_uverbs_attr __user *user_attrs;
	const struct ib_uverbs_attr *uattrs;	/* kernel copy */
	unsigned long present;		/* bit i: method->attrs[i] was given */
	unsigned long held;		/* bit i: attrs[i].uobj to finalize */
	unsigned long obj_valid;	/* bit i: NEW object has its HW part */
	struct uv_attr attrs[UV_MAX_METHOD_ATTRS];
};

/* ------------------------------------------------------------------ */
/* Functions                                                           */
/* ------------------------------------------------------------------ */

/* main.c */
void uverbs_release_file(struct kref *ref);

/* uapi.c */
int uverbs_uapi_init(void);
void uverbs_uapi_exit(void);
const struct uv_method_def *uverbs_find_method(u16 object_id, u16 method_id);
const struct uverbs_obj_type *uverbs_find_type(u16 object_id);

/* uobj.c */
void uverbs_ufile_init(struct ib_uverbs_file *ufile);
void uverbs_ufile_fini(struct ib_uverbs_file *ufile);
struct ib_ucontext *uverbs_get_ucontext(const struct uverbs_attr_bundle *attrs);
struct ib_ucontext *uverbs_ucontext_alloc(struct uverbs_attr_bundle *attrs);
int uverbs_ucontext_activate(struct uverbs_attr_bundle *attrs,
			     struct ib_ucontext *uctx);
struct ib_uobject *uverbs_uobj_alloc(const struct uverbs_obj_type *type,
				     struct uverbs_attr_bundle *attrs);
void uverbs_uobj_commit(struct ib_uobject *uobj);
void uverbs_uobj_abort(struct ib_uobject *uobj, bool hw_valid,
		       struct uverbs_attr_bundle *attrs);
struct ib_uobject *uverbs_uobj_lookup(const struct uverbs_obj_type *type,
				      s64 id, enum uv_access access,
				      struct uverbs_attr_bundle *attrs);
void uverbs_uobj_lookup_put(struct ib_uobject *uobj, enum uv_access access);
int uverbs_uobj_destroy(struct ib_uobject *uobj,
			struct uverbs_attr_bundle *attrs);
int uverbs_uobj_destroy_by_id(const struct uverbs_obj_type *type, u32 id,
			      struct uverbs_attr_bundle *attrs);
void uverbs_uobj_get(struct ib_uobject *uobj);
void uverbs_uobj_put(struct ib_uobject *uobj);
int uverbs_fd_uobj_release(struct inode *inode, struct file *filp);
void uverbs_destroy_ufile_hw(struct ib_uverbs_file *ufile,
			     enum uverbs_remove_reason why);

/* ioctl.c */
long uverbs_ioctl(struct file *filp, unsigned int cmd, unsigned long arg);
const struct uv_attr *uverbs_attr_get(const struct uverbs_attr_bundle *attrs,
				      u16 id);
bool uverbs_attr_is_valid(const struct uverbs_attr_bundle *attrs, u16 id);
int uverbs_attr_get_len(const struct uverbs_attr_bundle *attrs, u16 id);
struct ib_uobject *uverbs_attr_get_uobject(const struct uverbs_attr_bundle *attrs,
					   u16 id);
int uverbs_get_const(const struct uverbs_attr_bundle *attrs, u16 id, u64 *val);
int uverbs_get_flags(const struct uverbs_attr_bundle *attrs, u16 id, u64 *val);
int uverbs_copy_to(const struct uverbs_attr_bundle *attrs, u16 id,
		   const void *from, size_t size);
int uverbs_copy_to_struct_or_zero(const struct uverbs_attr_bundle *attrs,
				  u16 id, const void *from, size_t size);
int uverbs_output_written(const struct uverbs_attr_bundle *attrs, u16 id);
int uverbs_copy_from(void *to, const struct uverbs_attr_bundle *attrs, u16 id,
		     size_t size);
void uverbs_fill_udata(const struct uverbs_attr_bundle *attrs,
		       struct ib_udata *udata, u16 in_id, u16 out_id);
void uverbs_finalize_uobj_create(struct uverbs_attr_bundle *attrs, u16 id);
bool uverbs_user_is_zero(const void __user *p, size_t len);
/* A write command's request in, its response out (also by INVOKE_WRITE). */
int uverbs_request(struct uverbs_attr_bundle *attrs, void *req, size_t len);
int uverbs_response(struct uverbs_attr_bundle *attrs, const void *resp,
		    size_t len);

/* A missing optional output is not an error for handlers that fill many. */
#define UVERBS_COPY_FAILED(_ret) ((_ret) && (_ret) != -ENOENT)

/* cmd_write.c */
ssize_t uverbs_write(struct file *filp, const char __user *buf, size_t count,
		     loff_t *pos);
extern const struct uv_method_table uverbs_write_methods;

/* event.c: what async event files and completion channels queue */
struct uverbs_event_queue {
	spinlock_t lock;		/* everything here, and the obj lists */
	struct list_head events;
	bool closed;			/* no more events; -EIO once drained */
	wait_queue_head_t wait;
	struct fasync_struct *fasync;
};

void uverbs_event_queue_init(struct uverbs_event_queue *q);
/*
 * Queue one event (@desc is @len bytes).  An event about an object is
 * linked into @obj_list (under q->lock) so that the object's destruction
 * can take back what is unread, and bumps *@counter when it is read.
 */
void uverbs_event_add(struct uverbs_event_queue *q, const void *desc,
		      size_t len, struct list_head *obj_list, u32 *counter);
ssize_t uverbs_event_read(struct uverbs_event_queue *q, struct file *filp,
			  char __user *buf, size_t count, size_t desc_len);
__poll_t uverbs_event_poll(struct uverbs_event_queue *q, struct file *filp,
			   struct poll_table_struct *wait);
/* No more events: readers drain what is queued, then get -EIO. */
void uverbs_event_close(struct uverbs_event_queue *q);
/* Close and discard whatever is queued. */
void uverbs_event_drain(struct uverbs_event_queue *q);
/* Discard the unread events of one object. */
void uverbs_event_forget(struct uverbs_event_queue *q,
			 struct list_head *obj_list);

/* async.c */
extern const struct uverbs_obj_type uverbs_async_event_type;
extern const struct uv_method_table uverbs_async_methods;
void uverbs_async_file_init(struct ib_uobject *uobj);
struct uverbs_event_queue *uverbs_async_queue(struct ib_uobject *uobj);
struct ib_uobject *uverbs_get_async_file(struct ib_uverbs_file *ufile,
					 struct ib_uobject *named);


/* methods_cq.c */
extern const struct uverbs_obj_type uverbs_cq_type;
extern const struct uverbs_obj_type uverbs_comp_channel_type;
extern const struct uv_method_table uverbs_cq_methods;
int uverbs_cmd_create_comp_channel(struct uverbs_attr_bundle *attrs);
int uverbs_cmd_create_cq(struct uverbs_attr_bundle *attrs);
int uverbs_cmd_ex_create_cq(struct uverbs_attr_bundle *attrs);
int uverbs_cmd_resize_cq(struct uverbs_attr_bundle *attrs);
int uverbs_cmd_req_notify_cq(struct uverbs_attr_bundle *attrs);
int uverbs_cmd_destroy_cq(struct uverbs_attr_bundle *attrs);

/* methods_mr.c */
extern const struct uverbs_obj_type uverbs_mr_type;
extern const struct uverbs_obj_type uverbs_mw_type;
extern const struct uv_method_table uverbs_mr_methods;
int uverbs_cmd_reg_mr(struct uverbs_attr_bundle *attrs);
int uverbs_cmd_rereg_mr(struct uverbs_attr_bundle *attrs);
int uverbs_cmd_dereg_mr(struct uverbs_attr_bundle *attrs);
int uverbs_cmd_alloc_mw(struct uverbs_attr_bundle *attrs);
int uverbs_cmd_dealloc_mw(struct uverbs_attr_bundle *attrs);

/*
 * The async events of one QP or SRQ: queued on the async event file it
 * was created with, counted when read (for its destroy command) and taken
 * back unread when it is destroyed.
 */
struct uverbs_uevent {
	struct ib_uobject *async;	/* held, or NULL */
	struct list_head events;	/* unread, on @async's queue */
	u32 events_reported;		/* read by userspace */
};

/*
 * The uobject of a QP or an SRQ (a QP's continues with its own fields):
 * one shape, so that their destroy commands answer through one helper.
 */
struct uverbs_uevent_uobj {
	struct ib_uobject uobj;		/* first: freed through it */
	struct uverbs_uevent ev;
};
static_assert(offsetof(struct uverbs_uevent_uobj, uobj) == 0);

static inline struct uverbs_uevent *uverbs_uevent_of(struct ib_uobject *uobj)
{
	return &container_of(uobj, struct uverbs_uevent_uobj, uobj)->ev;
}

/* methods_qp.c */
extern const struct uverbs_obj_type uverbs_qp_type;
extern const struct uv_method_table uverbs_qp_methods;
/* @async's reference passes to @ue. */
void uverbs_uevent_init(struct uverbs_uevent *ue, struct ib_uobject *async);
void uverbs_uevent_report(struct uverbs_uevent *ue, u64 element, u32 type);
void uverbs_uevent_release(struct uverbs_uevent *ue);
/*
 * DESTROY_QP and DESTROY_SRQ (write), and the same methods' answer
 * (ioctl): how many async events of the object userspace has read.
 */
int uverbs_destroy_uevent_cmd(struct uverbs_attr_bundle *attrs,
			      const struct uverbs_obj_type *type);
int uverbs_destroy_uevent_resp(struct uverbs_attr_bundle *attrs,
			       u16 handle_id, u16 resp_id);
/* POST_SEND, POST_RECV and POST_SRQ_RECV, whose layouts are one. */
int uverbs_post_wrs(struct uverbs_attr_bundle *attrs,
		    const struct uverbs_obj_type *type, size_t wqe_min,
		    int (*doorbell)(struct ib_qp *qp));
int uverbs_cmd_create_qp(struct uverbs_attr_bundle *attrs);
int uverbs_cmd_ex_create_qp(struct uverbs_attr_bundle *attrs);
int uverbs_cmd_query_qp(struct uverbs_attr_bundle *attrs);
int uverbs_cmd_modify_qp(struct uverbs_attr_bundle *attrs);
int uverbs_cmd_ex_modify_qp(struct uverbs_attr_bundle *attrs);
int uverbs_cmd_destroy_qp(struct uverbs_attr_bundle *attrs);
int uverbs_cmd_post_send(struct uverbs_attr_bundle *attrs);
int uverbs_cmd_post_recv(struct uverbs_attr_bundle *attrs);
int uverbs_cmd_attach_mcast(struct uverbs_attr_bundle *attrs);
int uverbs_cmd_detach_mcast(struct uverbs_attr_bundle *attrs);

/* methods_srq.c */
extern const struct uverbs_obj_type uverbs_srq_type;
extern const struct uv_method_table uverbs_srq_methods;
int uverbs_cmd_create_srq(struct uverbs_attr_bundle *attrs);
int uverbs_cmd_create_xsrq(struct uverbs_attr_bundle *attrs);
int uverbs_cmd_modify_srq(struct uverbs_attr_bundle *attrs);
int uverbs_cmd_query_srq(struct uverbs_attr_bundle *attrs);
int uverbs_cmd_destroy_srq(struct uverbs_attr_bundle *attrs);
int uverbs_cmd_post_srq_recv(struct uverbs_attr_bundle *attrs);

/* methods_ah.c */
extern const struct uverbs_obj_type uverbs_ah_type;
extern const struct uv_method_table uverbs_ah_methods;
/* A source GID entry rdma_ah_attr_resolve() held, or NULL: put it. */
void uverbs_put_sgid_attr(const struct ib_gid_attr *sgid_attr);
int uverbs_cmd_create_ah(struct uverbs_attr_bundle *attrs);
int uverbs_cmd_destroy_ah(struct uverbs_attr_bundle *attrs);

/* methods_device.c */
extern const struct uv_method_table uverbs_device_methods;
void uverbs_fill_port_resp(struct ib_device *ibdev, u32 port,
			   const struct ib_port_attr *attr,
			   struct ib_uverbs_query_port_resp *resp);
int uverbs_cmd_get_context(struct uverbs_attr_bundle *attrs);
int uverbs_cmd_query_device(struct uverbs_attr_bundle *attrs);
int uverbs_cmd_ex_query_device(struct uverbs_attr_bundle *attrs);
int uverbs_cmd_query_port(struct uverbs_attr_bundle *attrs);

/* methods_pd.c */
extern const struct uverbs_obj_type uverbs_pd_type;
extern const struct uv_method_table uverbs_pd_methods;
int uverbs_cmd_alloc_pd(struct uverbs_attr_bundle *attrs);
int uverbs_cmd_dealloc_pd(struct uverbs_attr_bundle *attrs);

#endif
