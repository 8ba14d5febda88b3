// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * uobjects: the handles userspace holds on kernel objects through one open
 * command file.
 *
 * Two kinds exist.  idr types (PD, later CQ, QP...) are named by a u32
 * handle allocated in the file's xarray; fd types (the async event file)
 * are anon-inode files named by their fd.
 *
 * Creation is two-phase.  uverbs_uobj_alloc() reserves the name and takes
 * hw_destroy_rwsem for read; the command then creates the driver object
 * and either commits (the name becomes visible) or aborts.  Until commit
 * the object is locked exclusively, so nothing else can use it.
 *
 * Commands lock the objects they name: shared for READ (usecnt > 0),
 * exclusive for WRITE and for the destruction of DESTROY (usecnt == -1).
 * A destroyed object stays exclusively locked, so lookups that raced with
 * its destruction fail with -EBUSY instead of finding a dead object.
 *
 * Teardown (close, device disassociation) takes hw_destroy_rwsem for write,
 * which waits for creations in progress, and destroys every object newest
 * first.  Objects others still depend on refuse with -EBUSY and are
 * retried once those are gone, so a PD is destroyed after what uses it.
 */
#include <linux/anon_inodes.h>
#include <linux/file.h>
#include <linux/slab.h>
#include "uverbs.h"

void uverbs_ufile_init(struct ib_uverbs_file *ufile)
{
	kref_init(&ufile->ref);
	INIT_LIST_HEAD(&ufile->list);
	init_rwsem(&ufile->hw_destroy_rwsem);
	mutex_init(&ufile->ucontext_lock);
	xa_init_flags(&ufile->idr, XA_FLAGS_ALLOC);
	spin_lock_init(&ufile->uobjects_lock);
	INIT_LIST_HEAD(&ufile->uobjects);
	ib_mmap_file_init(&ufile->mmap, NULL);
}

/* The last reference to the file is gone; its objects were torn down. */
void uverbs_ufile_fini(struct ib_uverbs_file *ufile)
{
	xa_destroy(&ufile->idr);
	if (ufile->default_async)
		uverbs_uobj_put(ufile->default_async);
	mutex_destroy(&ufile->ucontext_lock);
}

static void uobj_free(struct kref *ref)
{
	struct ib_uobject *uobj = container_of(ref, struct ib_uobject, ref);

	/* idr lookups may still be looking at it under rcu_read_lock() */
	kfree_rcu(uobj, rcu);
}

void uverbs_uobj_get(struct ib_uobject *uobj)
{
	kref_get(&uobj->ref);
}

void uverbs_uobj_put(struct ib_uobject *uobj)
{
	kref_put(&uobj->ref, uobj_free);
}

struct ib_ucontext *uverbs_get_ucontext(const struct uverbs_attr_bundle *attrs)
{
	/* Pairs with the release in the creation of the ucontext. */
	struct ib_ucontext *uctx = smp_load_acquire(&attrs->ufile->ucontext);

	return uctx ?: ERR_PTR(-EINVAL);
}

/*
 * A ucontext is created in two steps so that GET_CONTEXT can prepare its
 * reply (and the async event file) before the driver commits to it.
 */
struct ib_ucontext *uverbs_ucontext_alloc(struct uverbs_attr_bundle *attrs)
{
	struct ib_device *ibdev = attrs->ibdev;
	struct ib_ucontext *uctx;

	if (!ibdev->ops.alloc_ucontext)
		return ERR_PTR(-EOPNOTSUPP);
	/* The driver's structure embeds ours first (see ib_device_ops). */
	uctx = kzalloc(max(ibdev->ops.size_ib_ucontext, sizeof(*uctx)),
		       GFP_KERNEL_ACCOUNT);
	if (!uctx)
		return ERR_PTR(-ENOMEM);
	uctx->device = ibdev;
	uctx->ufile = attrs->ufile;
	uctx->mmap_file = &attrs->ufile->mmap;
	xa_init_flags(&uctx->mmap_xa, XA_FLAGS_ALLOC);
	return uctx;
}

/*
 * Have the driver set up @uctx and make it the file's.  A file has one
 * ucontext for its whole life: a second GET_CONTEXT fails with -EINVAL.
 * On failure the caller still owns (and frees) @uctx.
 */
int uverbs_ucontext_activate(struct uverbs_attr_bundle *attrs,
			     struct ib_ucontext *uctx)
{
	struct ib_uverbs_file *ufile = attrs->ufile;
	int ret;

	if (!down_read_trylock(&ufile->hw_destroy_rwsem))
		return -EIO;
	mutex_lock(&ufile->ucontext_lock);
	if (ufile->ucontext) {
		ret = -EINVAL;
	} else {
		ret = uctx->device->ops.alloc_ucontext(uctx,
						       &attrs->driver_udata);
		if (!ret) {
			atomic_inc(&uctx->device->res_count[IB_RES_CTX]);
			/*
			 * Set up before it is seen: pairs with the acquire in
			 * uverbs_get_ucontext() and uverbs_mmap().
			 */
			smp_store_release(&ufile->ucontext, uctx);
		}
	}
	mutex_unlock(&ufile->ucontext_lock);
	up_read(&ufile->hw_destroy_rwsem);
	return ret;
}

static int alloc_fd_name(struct ib_uobject *uobj)
{
	const struct uverbs_obj_type *type = uobj->type;
	struct file *filp;
	int fd;

	fd = get_unused_fd_flags(O_CLOEXEC);
	if (fd < 0)
		return fd;
	/* private_data stays NULL until commit: release ignores such files */
	filp = anon_inode_getfile(type->name, type->fops, NULL, type->flags);
	if (IS_ERR(filp)) {
		put_unused_fd(fd);
		return PTR_ERR(filp);
	}
	uobj->object = filp;
	uobj->id = fd;
	return 0;
}

/*
 * Begin creating an object of @type: on success it holds a reserved name
 * and hw_destroy_rwsem for read, both released by commit or abort.
 */
struct ib_uobject *uverbs_uobj_alloc(const struct uverbs_obj_type *type,
				     struct uverbs_attr_bundle *attrs)
{
	struct ib_uverbs_file *ufile = attrs->ufile;
	struct ib_ucontext *uctx = attrs->context;
	struct ib_uobject *uobj;
	int ret;

	if (!uctx) {
		uctx = uverbs_get_ucontext(attrs);
		if (IS_ERR(uctx))
			return ERR_CAST(uctx);
	}
	/* A writer means the file is being torn down. */
	if (!down_read_trylock(&ufile->hw_destroy_rwsem))
		return ERR_PTR(-EIO);

	uobj = kzalloc(type->size, GFP_KERNEL_ACCOUNT);
	if (!uobj) {
		ret = -ENOMEM;
		goto err_unlock;
	}
	uobj->ufile = ufile;
	uobj->context = uctx;
	uobj->type = type;
	INIT_LIST_HEAD(&uobj->list);
	atomic_set(&uobj->usecnt, -1);
	kref_init(&uobj->ref);

	if (type->is_fd)
		ret = alloc_fd_name(uobj);
	else	/* a NULL entry reserves the handle; lookups see nothing */
		ret = xa_alloc(&ufile->idr, &uobj->id, NULL, xa_limit_32b,
			       GFP_KERNEL);
	if (ret)
		goto err_free;
	return uobj;

err_free:
	kfree(uobj);	/* never visible to anyone */
err_unlock:
	up_read(&ufile->hw_destroy_rwsem);
	return ERR_PTR(ret);
}

/* Make a new object visible.  The creator's reference goes to its name. */
void uverbs_uobj_commit(struct ib_uobject *uobj)
{
	struct ib_uverbs_file *ufile = uobj->ufile;
	unsigned long flags;

	uverbs_uobj_get(uobj);	/* for the uobjects list */
	spin_lock_irqsave(&ufile->uobjects_lock, flags);
	list_add(&uobj->list, &ufile->uobjects);
	spin_unlock_irqrestore(&ufile->uobjects_lock, flags);
	atomic_set(&uobj->usecnt, 0);

	if (uobj->type->is_fd) {
		struct file *filp = uobj->object;
		int fd = uobj->id;

		kref_get(&ufile->ref);	/* dropped when the file is released */
		uobj->id = 0;		/* the fd may be closed or dup'ed */
		filp->private_data = uobj;
		fd_install(fd, filp);
	} else {
		/* The slot exists since xa_alloc(): this cannot fail. */
		xa_store(&ufile->idr, uobj->id, uobj, GFP_KERNEL);
	}
	up_read(&ufile->hw_destroy_rwsem);
}

/*
 * Undo uverbs_uobj_alloc().  @hw_valid says the driver object exists and
 * must be destroyed first; if the driver refuses, the object is committed
 * instead and goes away when the file is torn down.
 */
void uverbs_uobj_abort(struct ib_uobject *uobj, bool hw_valid,
		       struct uverbs_attr_bundle *attrs)
{
	struct ib_uverbs_file *ufile = uobj->ufile;

	if (hw_valid &&
	    uobj->type->destroy(uobj, UVERBS_REMOVE_ABORT, attrs)) {
		uverbs_uobj_commit(uobj);
		return;
	}
	if (uobj->type->is_fd) {
		fput(uobj->object);
		put_unused_fd(uobj->id);
	} else {
		xa_erase(&ufile->idr, uobj->id);
	}
	up_read(&ufile->hw_destroy_rwsem);
	uverbs_uobj_put(uobj);
}

static struct ib_uobject *lookup_idr(const struct uverbs_obj_type *type,
				     struct ib_uverbs_file *ufile, s64 id)
{
	struct ib_uobject *uobj;

	if (id < 0)
		return ERR_PTR(-EINVAL);
	rcu_read_lock();
	uobj = xa_load(&ufile->idr, id);
	if (!uobj || !kref_get_unless_zero(&uobj->ref))
		uobj = ERR_PTR(-ENOENT);
	rcu_read_unlock();
	if (!IS_ERR(uobj) && uobj->type != type) {
		uverbs_uobj_put(uobj);
		uobj = ERR_PTR(-EINVAL);
	}
	return uobj;
}

/* On success the file reference is kept until uverbs_uobj_lookup_put(). */
static struct ib_uobject *lookup_fd(const struct uverbs_obj_type *type,
				    struct ib_uverbs_file *ufile, s64 id,
				    enum uv_access access)
{
	struct ib_uobject *uobj;
	struct file *filp;
	int fd = id;

	if (fd != id)
		return ERR_PTR(-EINVAL);
	if (access != UV_ACCESS_READ)
		return ERR_PTR(-EOPNOTSUPP);
	filp = fget(fd);
	if (!filp)
		return ERR_PTR(-EBADF);
	uobj = filp->private_data;
	if (filp->f_op != type->fops || !uobj || uobj->ufile != ufile) {
		fput(filp);
		return ERR_PTR(-EBADF);
	}
	uverbs_uobj_get(uobj);
	return uobj;
}

static int lock_uobj(struct ib_uobject *uobj, enum uv_access access)
{
	switch (access) {
	case UV_ACCESS_READ:
		return atomic_fetch_add_unless(&uobj->usecnt, 1, -1) == -1 ?
			-EBUSY : 0;
	case UV_ACCESS_WRITE:
		return atomic_cmpxchg(&uobj->usecnt, 0, -1) ? -EBUSY : 0;
	default:	/* DESTROY locks when it destroys */
		return 0;
	}
}

static void unlock_uobj(struct ib_uobject *uobj, enum uv_access access)
{
	switch (access) {
	case UV_ACCESS_READ:
		atomic_dec(&uobj->usecnt);
		break;
	case UV_ACCESS_WRITE:
		atomic_set(&uobj->usecnt, 0);
		break;
	default:
		break;
	}
}

/*
 * Find the object @id of @type for a command and lock it for @access; NEW
 * allocates instead.  Errors: -EINVAL (bad id, wrong type), -ENOENT (no
 * such handle), -EBADF (not such an fd), -EBUSY (locked by someone else).
 */
struct ib_uobject *uverbs_uobj_lookup(const struct uverbs_obj_type *type,
				      s64 id, enum uv_access access,
				      struct uverbs_attr_bundle *attrs)
{
	struct ib_uobject *uobj;
	int ret;

	if (access == UV_ACCESS_NEW)
		return uverbs_uobj_alloc(type, attrs);

	if (type->is_fd)
		uobj = lookup_fd(type, attrs->ufile, id, access);
	else
		uobj = lookup_idr(type, attrs->ufile, id);
	if (IS_ERR(uobj))
		return uobj;

	ret = lock_uobj(uobj, access);
	if (ret) {
		if (type->is_fd)
			fput(uobj->object);
		uverbs_uobj_put(uobj);
		return ERR_PTR(ret);
	}
	return uobj;
}

void uverbs_uobj_lookup_put(struct ib_uobject *uobj, enum uv_access access)
{
	unlock_uobj(uobj, access);
	if (uobj->type->is_fd)
		fput(uobj->object);
	uverbs_uobj_put(uobj);
}

/*
 * Destroy an exclusively locked, committed object and drop its names.
 * Called with hw_destroy_rwsem held.  @attrs is NULL outside commands.
 */
static int destroy_locked(struct ib_uobject *uobj,
			  enum uverbs_remove_reason why,
			  struct uverbs_attr_bundle *attrs)
{
	struct ib_uverbs_file *ufile = uobj->ufile;
	unsigned long flags;
	int ret;

	ret = uobj->type->destroy(uobj, why, attrs);
	if (ret)
		return ret;

	if (!uobj->type->is_fd) {
		uobj->object = NULL;
		xa_erase(&ufile->idr, uobj->id);
		uverbs_uobj_put(uobj);	/* the handle's reference */
	}
	spin_lock_irqsave(&ufile->uobjects_lock, flags);
	list_del_init(&uobj->list);
	spin_unlock_irqrestore(&ufile->uobjects_lock, flags);
	uverbs_uobj_put(uobj);		/* the list's reference */
	return 0;
}

/*
 * The destruction a destroy command asks for, on an object it looked up
 * with UV_ACCESS_DESTROY.  The object is left locked: lookups that raced
 * with it fail.  The caller still drops its lookup reference.
 */
int uverbs_uobj_destroy(struct ib_uobject *uobj,
			struct uverbs_attr_bundle *attrs)
{
	struct ib_uverbs_file *ufile = attrs->ufile;
	int ret;

	if (!down_read_trylock(&ufile->hw_destroy_rwsem))
		return -EIO;
	if (atomic_cmpxchg(&uobj->usecnt, 0, -1)) {
		ret = -EBUSY;
	} else {
		ret = destroy_locked(uobj, UVERBS_REMOVE_DESTROY, attrs);
		if (ret)
			atomic_set(&uobj->usecnt, 0);
	}
	up_read(&ufile->hw_destroy_rwsem);
	return ret;
}

int uverbs_uobj_destroy_by_id(const struct uverbs_obj_type *type, u32 id,
			      struct uverbs_attr_bundle *attrs)
{
	struct ib_uobject *uobj;
	int ret;

	uobj = uverbs_uobj_lookup(type, id, UV_ACCESS_DESTROY, attrs);
	if (IS_ERR(uobj))
		return PTR_ERR(uobj);
	ret = uverbs_uobj_destroy(uobj, attrs);
	uverbs_uobj_lookup_put(uobj, UV_ACCESS_DESTROY);
	return ret;
}

/*
 * The release() of fd-type objects (types may wrap it).  Closing the file
 * destroys the object unless the command file's teardown is running, which
 * then takes care of it.
 */
int uverbs_fd_uobj_release(struct inode *inode, struct file *filp)
{
	struct ib_uobject *uobj = filp->private_data;
	struct ib_uverbs_file *ufile;

	if (!uobj)		/* aborted before it was installed */
		return 0;
	ufile = uobj->ufile;
	if (down_read_trylock(&ufile->hw_destroy_rwsem)) {
		/* Only teardown empties the list, and it is excluded here. */
		if (!list_empty(&uobj->list) &&
		    !atomic_cmpxchg(&uobj->usecnt, 0, -1) &&
		    destroy_locked(uobj, UVERBS_REMOVE_CLOSE, NULL))
			atomic_set(&uobj->usecnt, 0);
		up_read(&ufile->hw_destroy_rwsem);
	}
	kref_put(&ufile->ref, uverbs_release_file);
	uverbs_uobj_put(uobj);	/* the reference private_data held */
	return 0;
}

/*
 * Forget an object the driver refused to destroy.  Its driver object is
 * leaked; this only happens if a driver fails a destroy it must not fail.
 */
static void detach_uobj(struct ib_uverbs_file *ufile, struct ib_uobject *uobj)
{
	unsigned long flags;

	pr_warn_ratelimited("ib_uverbs: driver did not destroy an object of type %u; leaking it\n",
			    uobj->type->id);
	if (!uobj->type->is_fd) {
		uobj->object = NULL;
		xa_erase(&ufile->idr, uobj->id);
		uverbs_uobj_put(uobj);
	}
	spin_lock_irqsave(&ufile->uobjects_lock, flags);
	list_del_init(&uobj->list);
	spin_unlock_irqrestore(&ufile->uobjects_lock, flags);
	uverbs_uobj_put(uobj);
}

static void destroy_all_uobjects(struct ib_uverbs_file *ufile,
				 enum uverbs_remove_reason why)
{
	struct ib_uobject *uobj, *next;
	bool progress;

	/*
	 * Newest first, as dependents are created after what they depend
	 * on; whatever refuses (-EBUSY: still in use) is retried after the
	 * others, until a pass destroys nothing.
	 */
	do {
		progress = false;
		list_for_each_entry_safe(uobj, next, &ufile->uobjects, list) {
			/* No command runs now: nothing can hold a lock. */
			if (atomic_cmpxchg(&uobj->usecnt, 0, -1))
				continue;
			if (destroy_locked(uobj, why, NULL)) {
				atomic_set(&uobj->usecnt, 0);
				continue;
			}
			progress = true;
		}
	} while (progress && !list_empty(&ufile->uobjects));

	list_for_each_entry_safe(uobj, next, &ufile->uobjects, list)
		detach_uobj(ufile, uobj);
}

/*
 * The driver has removed every buffer it exported (ib_mmap_buf_remove())
 * when its objects were destroyed; mappings still open keep theirs.
 */
static void destroy_ucontext(struct ib_uverbs_file *ufile)
{
	struct ib_ucontext *uctx = ufile->ucontext;
	struct ib_device *ibdev = uctx->device;

	if (ibdev->ops.dealloc_ucontext)
		ibdev->ops.dealloc_ucontext(uctx);
	atomic_dec(&ibdev->res_count[IB_RES_CTX]);
	ib_mmap_forget(uctx);
	/*
	 * Commands that read it without hw_destroy_rwsem run under the
	 * device's SRCU, which disassociation waited for; unpublish it first
	 * all the same, so nothing can find it freed.
	 */
	WRITE_ONCE(ufile->ucontext, NULL);
	kfree(uctx);
}

/*
 * Destroy every object of @ufile and its ucontext: on close, and for every
 * open file when the device is disassociated.  Safe to call more than once
 * and concurrently: later calls find nothing left.
 */
void uverbs_destroy_ufile_hw(struct ib_uverbs_file *ufile,
			     enum uverbs_remove_reason why)
{
	down_write(&ufile->hw_destroy_rwsem);
	/*
	 * Mappings must not reach what is destroyed below while the process
	 * goes on.  A closing file has none (each would hold the file).
	 */
	if (why == UVERBS_REMOVE_DISASSOCIATE)
		ib_mmap_file_revoke(&ufile->mmap);
	else if (why == UVERBS_REMOVE_CLOSE)
		ufile->mmap.mapping = NULL;
	/* Without a ucontext no object can have been created. */
	if (ufile->ucontext) {
		destroy_all_uobjects(ufile, why);
		destroy_ucontext(ufile);
	}
	up_write(&ufile->hw_destroy_rwsem);
}
