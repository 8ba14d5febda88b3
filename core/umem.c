// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * User memory pinned for a device: the pages behind a memory region stay
 * in place and resident for as long as the region exists, whatever the
 * process does with its mappings meanwhile (FOLL_LONGTERM also moves them
 * out of movable zones and CMA first).
 *
 * Pinned pages are counted in the owning mm's pinned_vm, which
 * /proc/PID/status shows as VmPin, against RLIMIT_MEMLOCK unless the
 * caller has CAP_IPC_LOCK, as the in-tree stack counts them.  The count
 * is taken back at release, from whatever context and process that runs
 * in, so the mm is kept (mmgrab(), not its address space) until then.
 */
#include <linux/mm.h>
#include <linux/sched/mm.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <ordma/compat.h>
#include "core_priv.h"

/* Pages pinned per call: bounds the time between checks for signals. */
#define UMEM_PIN_BATCH	512UL

static void umem_unpin(struct ib_umem *umem, unsigned long npages)
{
	unsigned long done, n;

	for (done = 0; done < npages; done += n) {
		n = min(npages - done, UMEM_PIN_BATCH);
		unpin_user_pages_dirty_lock(umem->pages + done, n,
					    umem->writable);
		cond_resched();
	}
}

/*
 * The flags of a long-term pin.  Before 6.2 a read-only long-term pin of
 * a private mapping may pin the shared zero page, or a page the process
 * later replaces by copy-on-write, and the device would not see what the
 * process writes there; those kernels need the write fault (forced for
 * read-only mappings), which is what the in-tree 6.1 stack does
 * (ORDMA_FOLL_RO_LONGTERM: none from 6.2 on).
 */
static unsigned int umem_gup_flags(bool writable)
{
	unsigned int flags = FOLL_LONGTERM;

	if (writable)
		flags |= FOLL_WRITE;
	else
		flags |= ORDMA_FOLL_RO_LONGTERM;
	return flags;
}

struct ib_umem *ib_umem_get(struct ib_device *ibdev, unsigned long addr,
			    size_t length, int access)
{
	unsigned long first, end, npages, pinned, limit;
	struct mm_struct *mm = current->mm;
	struct ib_umem *umem;
	unsigned int gup_flags;
	long n;
	int ret;

	if (!mm)
		return ERR_PTR(-EINVAL);
	if (access & IB_ACCESS_ON_DEMAND)
		return ERR_PTR(-EOPNOTSUPP);
	if (!length || addr + length < addr ||
	    PAGE_ALIGN(addr + length) < addr + length)
		return ERR_PTR(-EINVAL);
	if (!can_do_mlock())
		return ERR_PTR(-EPERM);

	first = addr & PAGE_MASK;
	end = PAGE_ALIGN(addr + length);
	npages = (end - first) >> PAGE_SHIFT;
	if (npages > UINT_MAX)
		return ERR_PTR(-EINVAL);

	/* Counted first, so that nothing is allocated past the limit. */
	limit = rlimit(RLIMIT_MEMLOCK) >> PAGE_SHIFT;
	if (atomic64_add_return(npages, &mm->pinned_vm) > limit &&
	    !capable(CAP_IPC_LOCK)) {
		ret = -ENOMEM;
		goto err_count;
	}

	umem = kzalloc(sizeof(*umem), GFP_KERNEL_ACCOUNT);
	if (!umem) {
		ret = -ENOMEM;
		goto err_count;
	}
	umem->ibdev = ibdev;
	umem->address = addr;
	umem->length = length;
	umem->npages = npages;
	umem->writable = ib_access_writable(access);
	/* Huge requests by privileged users fail quietly. */
	umem->pages = kvmalloc_array(npages, sizeof(*umem->pages),
				     IB_USER_GFP);
	if (!umem->pages) {
		ret = -ENOMEM;
		goto err_free;
	}

	gup_flags = umem_gup_flags(umem->writable);
	for (pinned = 0; pinned < npages; pinned += n) {
		if (fatal_signal_pending(current)) {
			ret = -EINTR;
			goto err_unpin;
		}
		n = pin_user_pages_fast(first + (pinned << PAGE_SHIFT),
					min(npages - pinned, UMEM_PIN_BATCH),
					gup_flags, umem->pages + pinned);
		if (n <= 0) {
			ret = n ? n : -EFAULT;
			goto err_unpin;
		}
		cond_resched();
	}

	mmgrab(mm);
	umem->owning_mm = mm;
	return umem;

err_unpin:
	umem_unpin(umem, pinned);
	kvfree(umem->pages);
err_free:
	kfree(umem);
err_count:
	atomic64_sub(npages, &mm->pinned_vm);
	return ERR_PTR(ret);
}
EXPORT_SYMBOL(ib_umem_get);

void ib_umem_release(struct ib_umem *umem)
{
	if (!umem)
		return;
	umem_unpin(umem, umem->npages);
	atomic64_sub(umem->npages, &umem->owning_mm->pinned_vm);
	mmdrop(umem->owning_mm);
	kvfree(umem->pages);
	kfree(umem);
}
EXPORT_SYMBOL(ib_umem_release);
