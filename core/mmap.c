// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Kernel buffers mapped into userspace through mmap() of the command fd,
 * the way rxe shares its queues with librxe.
 *
 * A driver allocates a buffer for a ucontext with ib_mmap_buf_alloc(); it
 * gets an offset unique within that ucontext (a page index in the
 * ucontext's mmap_xa, shifted by PAGE_SHIFT), which the driver returns to
 * userspace in a command's response.  mmap() at that offset maps the
 * buffer (its pages are inserted one by one); the offset only names the
 * buffer until the driver removes it, the memory lives on until the last
 * mapping of it is gone.
 *
 * Userspace picks the sizes (a QP's ring at max_qp_wr is hundreds of MiB),
 * and any user may open the device: the memory is charged to the memory
 * cgroup of the process that asks for it, and an allocation over that
 * cgroup's limit fails with -ENOMEM instead of calling the OOM killer.
 * vmalloc_user() can do neither (it takes no gfp flags), hence __vmalloc()
 * and a mapping that does not need the area's VM_USERMAP.
 *
 * References: the exporter's one, dropped by ib_mmap_buf_remove(), and one
 * per VMA.  A VMA holds the command file (vm_file), so the file's struct
 * ib_mmap_file (in ib_uverbs's per-file state) outlives every mapping.
 * The service lives in ib_core, as in-tree, so that drivers need not
 * depend on ib_uverbs.
 *
 * Disassociation (the device goes away under open files) must leave no
 * process able to reach driver state through old mappings: the file is
 * marked revoked and every mapping of the command fd's inode is zapped;
 * later faults of a revoked file get SIGBUS.  Zapping the whole inode may
 * hit other files that share it; their mappings are simply faulted in
 * again (the fault handler serves any page of a live buffer), so this is
 * harmless.
 */
#include <linux/mm.h>
#include <linux/pfn_t.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <ordma/compat.h>
#include "core_priv.h"

static void mmap_buf_free(struct kref *ref)
{
	struct ib_mmap_buf *mb = container_of(ref, struct ib_mmap_buf, ref);

	vfree(mb->vaddr);
	kfree(mb);
}

/*
 * A zeroed buffer of @size bytes (rounded up to pages) for @uctx, with a
 * fresh mmap offset.  Returns an ERR_PTR: -EINVAL, -ENOMEM, -ENOSPC (the
 * ucontext has used every offset).
 */
struct ib_mmap_buf *ib_mmap_buf_alloc(struct ib_ucontext *uctx, size_t size)
{
	struct ib_mmap_buf *mb;
	u32 index;
	int ret;

	if (!uctx || !uctx->mmap_file || !size || size > INT_MAX)
		return ERR_PTR(-EINVAL);
	mb = kzalloc(sizeof(*mb), IB_USER_GFP);
	if (!mb)
		return ERR_PTR(-ENOMEM);
	mb->size = PAGE_ALIGN(size);
	mb->vaddr = __vmalloc(mb->size, IB_USER_GFP | __GFP_ZERO);
	if (!mb->vaddr) {
		kfree(mb);
		return ERR_PTR(-ENOMEM);
	}
	kref_init(&mb->ref);
	mb->uctx = uctx;
	mb->mfile = uctx->mmap_file;

	/* Offset 0 is never handed out: it is what a zeroed response says. */
	ret = xa_alloc(&uctx->mmap_xa, &index, mb, XA_LIMIT(1, U32_MAX),
		       GFP_KERNEL_ACCOUNT);
	if (ret) {
		vfree(mb->vaddr);
		kfree(mb);
		return ERR_PTR(ret == -EBUSY ? -ENOSPC : ret);
	}
	mb->offset = (u64)index << PAGE_SHIFT;
	return mb;
}
EXPORT_SYMBOL(ib_mmap_buf_alloc);

/*
 * The exporter is done with @mb: new mmap() calls no longer find it, and
 * the memory is freed once no mapping uses it.  @mb may be NULL.
 */
void ib_mmap_buf_remove(struct ib_mmap_buf *mb)
{
	if (!mb)
		return;
	if (mb->uctx)
		xa_erase(&mb->uctx->mmap_xa, mb->offset >> PAGE_SHIFT);
	mb->uctx = NULL;
	kref_put(&mb->ref, mmap_buf_free);
}
EXPORT_SYMBOL(ib_mmap_buf_remove);

/* fork() copies the VMA, munmap() or mprotect() of a part splits it. */
static void mmap_buf_vm_open(struct vm_area_struct *vma)
{
	struct ib_mmap_buf *mb = vma->vm_private_data;

	kref_get(&mb->ref);
}

static void mmap_buf_vm_close(struct vm_area_struct *vma)
{
	struct ib_mmap_buf *mb = vma->vm_private_data;

	kref_put(&mb->ref, mmap_buf_free);
}

/*
 * Pages are mapped at mmap() time; a fault means they were zapped (by the
 * disassociation of another file of the same inode) or never copied (a
 * child after fork()).  Serve the buffer's page unless this file was
 * revoked.  The check and the insertion are one step with respect to
 * ib_mmap_file_revoke(), so no page is mapped after its zap.
 */
static vm_fault_t mmap_buf_vm_fault(struct vm_fault *vmf)
{
	struct ib_mmap_buf *mb = vmf->vma->vm_private_data;
	struct ib_mmap_file *mf = mb->mfile;
	unsigned long first = mb->offset >> PAGE_SHIFT;
	vm_fault_t ret = VM_FAULT_SIGBUS;
	struct page *page;

	if (vmf->pgoff < first || vmf->pgoff - first >= mb->size >> PAGE_SHIFT)
		return VM_FAULT_SIGBUS;
	page = vmalloc_to_page(mb->vaddr +
			       ((vmf->pgoff - first) << PAGE_SHIFT));

	down_read(&mf->rwsem);
	/* VM_MIXEDMAP (set by vm_insert_page()) allows this here. */
	if (!mf->revoked)
		ret = vmf_insert_mixed(vmf->vma, vmf->address,
				       page_to_pfn_t(page));
	up_read(&mf->rwsem);
	return ret;
}

/*
 * Map every page of the buffer into @vma at once, what
 * remap_vmalloc_range() would do if the area had VM_USERMAP.  On an error
 * the caller's mmap() fails and the pages already inserted are unmapped
 * with the VMA.
 */
static int mmap_buf_insert(struct vm_area_struct *vma, struct ib_mmap_buf *mb)
{
	unsigned long off;
	int ret;

	for (off = 0; off < vma->vm_end - vma->vm_start; off += PAGE_SIZE) {
		ret = vm_insert_page(vma, vma->vm_start + off,
				     vmalloc_to_page(mb->vaddr + off));
		if (ret)
			return ret;
		cond_resched();
	}
	/* not to be grown by mremap(), nor dumped (kernel memory) */
	ordma_vm_flags_set(vma, VM_DONTEXPAND | VM_DONTDUMP);
	return 0;
}

static const struct vm_operations_struct mmap_buf_vm_ops = {
	.open = mmap_buf_vm_open,
	.close = mmap_buf_vm_close,
	.fault = mmap_buf_vm_fault,
};

/*
 * Map the buffer whose offset is @vma's.  The mapping must be shared, not
 * executable (nor made so later by mprotect()), and no larger than the
 * buffer.  Errors: -EINVAL (no such buffer, too large, private), -EPERM
 * (executable).
 */
int ib_mmap_buf_map(struct ib_ucontext *uctx, struct vm_area_struct *vma)
{
	unsigned long len = vma->vm_end - vma->vm_start;
	struct ib_mmap_buf *mb;
	int ret;

	if (!(vma->vm_flags & VM_SHARED))
		return -EINVAL;
	if (vma->vm_flags & VM_EXEC)
		return -EPERM;
	if (vma->vm_pgoff > U32_MAX)
		return -EINVAL;

	/* An entry in the xarray still has the exporter's reference. */
	xa_lock(&uctx->mmap_xa);
	mb = xa_load(&uctx->mmap_xa, vma->vm_pgoff);
	if (mb)
		kref_get(&mb->ref);
	xa_unlock(&uctx->mmap_xa);
	if (!mb)
		return -EINVAL;

	ret = len > mb->size ? -EINVAL : mmap_buf_insert(vma, mb);
	if (ret) {
		kref_put(&mb->ref, mmap_buf_free);
		return ret;
	}
	ordma_vm_flags_clear(vma, VM_MAYEXEC);
	vma->vm_private_data = mb;
	vma->vm_ops = &mmap_buf_vm_ops;
	return 0;
}
EXPORT_SYMBOL(ib_mmap_buf_map);

/*
 * The ucontext goes: a buffer its driver did not remove (a driver bug)
 * must not point at it.  Nothing else runs on the ucontext now.
 */
void ib_mmap_forget(struct ib_ucontext *uctx)
{
	struct ib_mmap_buf *mb;
	unsigned long index;

	xa_for_each(&uctx->mmap_xa, index, mb)
		mb->uctx = NULL;
	xa_destroy(&uctx->mmap_xa);
}
EXPORT_SYMBOL(ib_mmap_forget);

void ib_mmap_file_init(struct ib_mmap_file *mf, struct address_space *mapping)
{
	init_rwsem(&mf->rwsem);
	mf->revoked = false;
	mf->mapping = mapping;
}
EXPORT_SYMBOL(ib_mmap_file_init);

/*
 * Disassociation: no mapping of the file may reach its buffers any more.
 * ib_uverbs calls it before the objects (and their buffers) are
 * destroyed.
 */
void ib_mmap_file_revoke(struct ib_mmap_file *mf)
{
	down_write(&mf->rwsem);
	mf->revoked = true;
	up_write(&mf->rwsem);
	/* Once closed, the file has no mapping, and its inode may be gone. */
	if (mf->mapping)
		unmap_mapping_range(mf->mapping, 0, 0, 1);
}
EXPORT_SYMBOL(ib_mmap_file_revoke);
