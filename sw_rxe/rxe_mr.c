// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Memory regions of user memory and memory windows.  Registration pins the
 * pages (ib_umem_get(), which also counts them against RLIMIT_MEMLOCK) and
 * publishes the MR under its keys; the page list stays with the MR for the
 * data path (rxe_mr_copy()).
 *
 * Reregistration, which in-tree 6.1 rxe lacks, changes the MR in place:
 * whatever may fail (pinning a new range, or the old one again for
 * writing) is done first; then the MR leaves the table, lookups drain,
 * the new translation, rights and PD are installed and the MR returns
 * under the same keys (the rkey follows the remote rights).
 */
#include <linux/highmem.h>
#include <linux/random.h>
#include "rxe_mr.h"

/* A random 8-bit key, other than @old's when @old >= 0. */
static u8 rxe_new_key(int old)
{
	u8 key;

	do {
		key = get_random_u8();
	} while (old >= 0 && key == (u8)old);
	return key;
}

static u32 rxe_mr_rkey(const struct ib_mr *ibmr, int access)
{
	return access & IB_ACCESS_REMOTE ? ibmr->lkey : 0;
}

/* Out of the table, no lookup left: the MR can be changed or freed. */
static void rxe_mr_quiesce(struct rxe_mr *mr)
{
	if (!refcount_dec_and_test(&mr->ref))
		wait_for_completion(&mr->released);
}

int rxe_reg_user_mr(struct ib_mr *ibmr, u64 start, u64 length, u64 iova,
		    int access, struct ib_udata *udata)
{
	struct rxe_dev *rxe = to_rdev(ibmr->device);
	struct rxe_mr *mr = to_rmr(ibmr);
	struct ib_umem *umem;
	int ret;

	if (start != (unsigned long)start || length != (size_t)length)
		return -EINVAL;
	if (rxe_table_alloc(&rxe->mr_table, &mr->index))
		return -ENOMEM;
	umem = ib_umem_get(ibmr->device, start, length, access);
	if (IS_ERR(umem)) {
		ret = PTR_ERR(umem);
		rxe_table_remove(&rxe->mr_table, mr->index);
		return ret;
	}
	mr->umem = umem;
	refcount_set(&mr->ref, 1);
	init_completion(&mr->released);
	atomic_set(&mr->num_mw, 0);

	ibmr->lkey = mr->index << 8 | rxe_new_key(-1);
	ibmr->rkey = rxe_mr_rkey(ibmr, access);
	ibmr->iova = iova;
	ibmr->length = length;
	ibmr->access = access;
	rxe_table_publish(&rxe->mr_table, mr->index, mr);
	return 0;
}

int rxe_rereg_user_mr(struct ib_mr *ibmr, int flags, u64 start, u64 length,
		      u64 iova, int access, struct ib_pd *pd,
		      struct ib_udata *udata)
{
	struct rxe_dev *rxe = to_rdev(ibmr->device);
	struct rxe_mr *mr = to_rmr(ibmr);
	int new_access = flags & IB_MR_REREG_ACCESS ? access : ibmr->access;
	struct ib_umem *umem = NULL, *old = NULL;

	if (flags & IB_MR_REREG_TRANS) {
		if (start != (unsigned long)start ||
		    length != (size_t)length)
			return -EINVAL;
		umem = ib_umem_get(ibmr->device, start, length, new_access);
	} else if (ib_access_writable(new_access) && !mr->umem->writable) {
		/* The same pages, now pinned for writing. */
		umem = ib_umem_get(ibmr->device, mr->umem->address,
				   mr->umem->length, new_access);
	}
	if (IS_ERR(umem))
		return PTR_ERR(umem);

	/* The index stays reserved while the MR is away. */
	xa_store_irq(&rxe->mr_table.xa, mr->index, NULL, GFP_KERNEL);
	rxe_mr_quiesce(mr);

	if (umem) {
		old = mr->umem;
		mr->umem = umem;
	}
	if (flags & IB_MR_REREG_TRANS) {
		ibmr->iova = iova;
		ibmr->length = length;
	}
	if (flags & IB_MR_REREG_ACCESS) {
		ibmr->access = access;
		ibmr->rkey = rxe_mr_rkey(ibmr, access);
	}
	if (flags & IB_MR_REREG_PD)
		ibmr->pd = pd;

	refcount_set(&mr->ref, 1);
	reinit_completion(&mr->released);
	rxe_table_publish(&rxe->mr_table, mr->index, mr);
	ib_umem_release(old);
	return 0;
}

int rxe_dereg_mr(struct ib_mr *ibmr, struct ib_udata *udata)
{
	struct rxe_dev *rxe = to_rdev(ibmr->device);
	struct rxe_mr *mr = to_rmr(ibmr);

	/* IBA 10.6.7.2.6: not while windows are bound to it. */
	if (atomic_read(&mr->num_mw))
		return -EINVAL;
	rxe_table_remove(&rxe->mr_table, mr->index);
	rxe_mr_quiesce(mr);
	ib_umem_release(mr->umem);
	mr->umem = NULL;
	return 0;
}

/* Windows are allocated here; binding them is the data path's work. */
int rxe_alloc_mw(struct ib_mw *ibmw, struct ib_udata *udata)
{
	struct rxe_dev *rxe = to_rdev(ibmw->device);
	struct rxe_mw *mw = to_rmw(ibmw);

	if (rxe_table_alloc(&rxe->mw_table, &mw->index))
		return -EINVAL;
	refcount_set(&mw->ref, 1);
	init_completion(&mw->released);
	mw->state = ibmw->type == IB_MW_TYPE_2 ? RXE_MW_STATE_FREE :
						 RXE_MW_STATE_VALID;
	ibmw->rkey = mw->index << 8 | rxe_new_key(-1);
	rxe_table_publish(&rxe->mw_table, mw->index, mw);
	return 0;
}

int rxe_dealloc_mw(struct ib_mw *ibmw)
{
	struct rxe_dev *rxe = to_rdev(ibmw->device);
	struct rxe_mw *mw = to_rmw(ibmw);

	rxe_table_remove(&rxe->mw_table, mw->index);
	if (!refcount_dec_and_test(&mw->ref))
		wait_for_completion(&mw->released);
	return 0;
}

struct rxe_mr *rxe_mr_get(struct rxe_dev *rxe, u32 key,
			  enum rxe_mr_lookup type)
{
	struct rxe_mr *mr;
	unsigned long flags;
	u32 want;

	xa_lock_irqsave(&rxe->mr_table.xa, flags);
	mr = xa_load(&rxe->mr_table.xa, key >> 8);
	if (mr) {
		want = type == RXE_LOOKUP_LOCAL ? mr->ibmr.lkey : mr->ibmr.rkey;
		if (want != key || !refcount_inc_not_zero(&mr->ref))
			mr = NULL;
	}
	xa_unlock_irqrestore(&rxe->mr_table.xa, flags);
	return mr;
}

void rxe_mr_put(struct rxe_mr *mr)
{
	if (refcount_dec_and_test(&mr->ref))
		complete(&mr->released);
}

int rxe_mr_check(struct rxe_mr *mr, struct ib_pd *pd, int access, u64 iova,
		 u64 length)
{
	const struct ib_mr *ibmr = &mr->ibmr;

	if (ibmr->pd != pd)
		return -EACCES;
	if (access & ~ibmr->access)
		return -EACCES;
	if (iova < ibmr->iova || length > ibmr->length ||
	    iova - ibmr->iova > ibmr->length - length)
		return -EFAULT;
	return 0;
}

void rxe_mr_copy(struct rxe_mr *mr, u64 iova, void *buf, u64 length,
		 enum rxe_copy_dir dir)
{
	/* Byte offset from the start of the first pinned page. */
	u64 off = iova - mr->ibmr.iova + ib_umem_offset(mr->umem);

	while (length) {
		struct page *page = mr->umem->pages[off >> PAGE_SHIFT];
		unsigned int in_page = off & ~PAGE_MASK;
		unsigned int n = min_t(u64, length, PAGE_SIZE - in_page);
		void *va = kmap_local_page(page);

		if (dir == RXE_COPY_TO_MR) {
			memcpy(va + in_page, buf, n);
			flush_dcache_page(page);
		} else {
			memcpy(buf, va + in_page, n);
		}
		kunmap_local(va);
		buf += n;
		off += n;
		length -= n;
	}
}
