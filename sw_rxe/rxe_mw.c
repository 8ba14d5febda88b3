// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Memory windows and the resolution of remote keys.
 *
 * Both window types are bound by a BIND_MW work request (librxe turns
 * ibv_bind_mw() for type 1 into one too): type 1 windows are always
 * valid and may be rebound at will, a zero-length bind leaving them
 * grant nothing; type 2 (2B) windows go FREE -> VALID by a bind through
 * a QP of their PD, are then usable only through that QP, and go back to
 * FREE by LOCAL_INV or SEND_WITH_INV.  A bind changes the low 8 bits of
 * the rkey to those of the rkey the request carries.
 *
 * The request names the window by its rkey; only the index part is used
 * to find it, since librxe never learns the key of a type 2 window's
 * later binds.  The PD checks keep windows of other PDs (processes) out
 * of reach.
 *
 * Zero-based windows are refused: the responder addresses the MR with
 * the packet's virtual address as is (rxe_rkey_mr() returns only the
 * MR), and librxe refuses them for type 1 anyway.
 *
 * A type 2 window remembers the number of the QP it was bound through,
 * not a reference to it, so that destroying the QP is not held up by
 * its windows; a later QP with the same number (numbers are handed out
 * cyclically) would inherit access, which invalidation prevents.
 */
#include "rxe_loc.h"

int rxe_alloc_mw(struct ib_mw *ibmw, struct ib_udata *udata)
{
	struct rxe_dev *rxe = to_rdev(ibmw->device);
	struct rxe_mw *mw = to_rmw(ibmw);

	if (ibmw->type != IB_MW_TYPE_1 && ibmw->type != IB_MW_TYPE_2)
		return -EINVAL;
	if (rxe_table_alloc(&rxe->mw_table, &mw->index))
		return -EINVAL;
	refcount_set(&mw->ref, 1);
	init_completion(&mw->released);
	spin_lock_init(&mw->lock);
	mw->state = ibmw->type == IB_MW_TYPE_2 ? RXE_MW_STATE_FREE :
						 RXE_MW_STATE_VALID;
	ibmw->rkey = mw->index << 8 | rxe_new_key(-1);
	rxe_table_publish(&rxe->mw_table, mw->index, mw);
	return 0;
}

/* The window numbered @index, referenced, or NULL. */
static struct rxe_mw *rxe_mw_get(struct rxe_dev *rxe, u32 index)
{
	struct rxe_mw *mw;
	unsigned long flags;

	xa_lock_irqsave(&rxe->mw_table.xa, flags);
	mw = xa_load(&rxe->mw_table.xa, index);
	if (mw && !refcount_inc_not_zero(&mw->ref))
		mw = NULL;
	xa_unlock_irqrestore(&rxe->mw_table.xa, flags);
	return mw;
}

static void rxe_mw_put(struct rxe_mw *mw)
{
	if (refcount_dec_and_test(&mw->ref))
		complete(&mw->released);
}

/* Forget the binding (under mw->lock). */
static void rxe_mw_unbind(struct rxe_mw *mw, enum rxe_mw_state state)
{
	if (mw->mr)
		atomic_dec(&mw->mr->num_mw);
	mw->mr = NULL;
	mw->addr = 0;
	mw->length = 0;
	mw->access = 0;
	mw->qp_serial = 0;
	mw->state = state;
}

int rxe_dealloc_mw(struct ib_mw *ibmw)
{
	struct rxe_dev *rxe = to_rdev(ibmw->device);
	struct rxe_mw *mw = to_rmw(ibmw);
	unsigned long flags;

	rxe_table_remove(&rxe->mw_table, mw->index);
	if (!refcount_dec_and_test(&mw->ref))
		wait_for_completion(&mw->released);
	spin_lock_irqsave(&mw->lock, flags);
	rxe_mw_unbind(mw, RXE_MW_STATE_INVALID);
	spin_unlock_irqrestore(&mw->lock, flags);
	return 0;
}

/* The rights an MR needs for a window granting @access on it (C10-74). */
static int rxe_mw_mr_access(int access)
{
	int need = IB_ACCESS_MW_BIND;

	if (access & (IB_ACCESS_REMOTE_WRITE | IB_ACCESS_REMOTE_ATOMIC))
		need |= IB_ACCESS_LOCAL_WRITE;
	return need;
}

/* Whether @qp may bind @mw to @mr as @wqe asks (under mw->lock). */
static bool rxe_mw_bind_ok(struct rxe_qp *qp, const struct rxe_send_wqe *wqe,
			   struct rxe_mw *mw, struct rxe_mr *mr)
{
	const struct ib_mw *ibmw = &mw->ibmw;
	u32 rkey = wqe->wr.wr.mw.rkey;
	int access = wqe->wr.wr.mw.access;

	if (ibmw->pd != qp->ibqp.pd)
		return false;				/* C10-72 */
	if (ibmw->type == IB_MW_TYPE_1 ?
	    mw->state != RXE_MW_STATE_VALID :
	    mw->state != RXE_MW_STATE_FREE)		/* o10-37.2.30 */
		return false;
	/* Only the 8-bit key may change. */
	if (rkey >> 8 != mw->index)
		return false;
	if (access & IB_ACCESS_ZERO_BASED)
		return false;
	if (!mr)	/* zero length: type 1 only (o10-37.2.40) */
		return ibmw->type == IB_MW_TYPE_1;
	if (mr->ibmr.access & IB_ACCESS_ZERO_BASED)
		return false;
	/* Same PD, bind right (C10-73), rights (C10-74), range (C10-75). */
	return !rxe_mr_check(mr, ibmw->pd, rxe_mw_mr_access(access),
			     wqe->wr.wr.mw.addr, wqe->wr.wr.mw.length);
}

/* Install the binding (under mw->lock); @mr is NULL for zero length. */
static void rxe_mw_do_bind(struct rxe_qp *qp, const struct rxe_send_wqe *wqe,
			   struct rxe_mw *mw, struct rxe_mr *mr)
{
	/* The new MR first: rebinding to the same MR keeps it counted. */
	if (mr)
		atomic_inc(&mr->num_mw);
	rxe_mw_unbind(mw, RXE_MW_STATE_VALID);
	mw->mr = mr;
	if (mr) {
		mw->addr = wqe->wr.wr.mw.addr;
		mw->length = wqe->wr.wr.mw.length;
		mw->access = wqe->wr.wr.mw.access & IB_ACCESS_REMOTE;
	}
	if (mw->ibmw.type == IB_MW_TYPE_2)
		mw->qp_serial = qp->serial;
	mw->ibmw.rkey = (mw->ibmw.rkey & ~0xffu) | (wqe->wr.wr.mw.rkey & 0xff);
}

int rxe_mw_bind(struct rxe_qp *qp, const struct rxe_send_wqe *wqe)
{
	struct rxe_dev *rxe = to_rdev(qp->ibqp.device);
	struct rxe_mr *mr = NULL;
	struct rxe_mw *mw;
	unsigned long flags;
	bool ok;

	if (!rxe_key_is_mw(wqe->wr.wr.mw.mw_rkey))
		return IB_WC_MW_BIND_ERR;
	mw = rxe_mw_get(rxe, wqe->wr.wr.mw.mw_rkey >> 8);
	if (!mw)
		return IB_WC_MW_BIND_ERR;
	if (wqe->wr.wr.mw.length) {
		mr = rxe_mr_get(rxe, wqe->wr.wr.mw.mr_lkey, RXE_LOOKUP_LOCAL);
		if (!mr) {
			rxe_mw_put(mw);
			return IB_WC_MW_BIND_ERR;
		}
	}

	spin_lock_irqsave(&mw->lock, flags);
	ok = rxe_mw_bind_ok(qp, wqe, mw, mr);
	if (ok)
		rxe_mw_do_bind(qp, wqe, mw, mr);
	spin_unlock_irqrestore(&mw->lock, flags);

	if (mr)
		rxe_mr_put(mr);
	rxe_mw_put(mw);
	return ok ? IB_WC_SUCCESS : IB_WC_MW_BIND_ERR;
}

/*
 * Of the MRs only fast-registration ones can be invalidated: IBA does not
 * let LOCAL_INV or SEND_WITH_INV touch user or DMA MRs.  Type 1 windows
 * cannot be invalidated either (o10-37.2.26).
 */
int rxe_invalidate_rkey(struct rxe_qp *qp, u32 rkey)
{
	struct rxe_mw *mw;
	unsigned long flags;
	int ret = -EINVAL;

	if (!rxe_key_is_mw(rkey))
		return rxe_mr_invalidate(qp, rkey);
	mw = rxe_mw_get(to_rdev(qp->ibqp.device), rkey >> 8);
	if (!mw)
		return -EINVAL;

	spin_lock_irqsave(&mw->lock, flags);
	if (mw->ibmw.rkey == rkey && mw->ibmw.type == IB_MW_TYPE_2 &&
	    mw->state == RXE_MW_STATE_VALID && mw->ibmw.pd == qp->ibqp.pd) {
		rxe_mw_unbind(mw, RXE_MW_STATE_FREE);
		ret = 0;
	}
	spin_unlock_irqrestore(&mw->lock, flags);

	rxe_mw_put(mw);
	return ret;
}

/* Whether @mw grants @qp @access on [@iova, @iova + @length) (locked). */
static bool rxe_mw_grants(const struct rxe_mw *mw, struct rxe_qp *qp,
			  u32 rkey, int access, u64 iova, u64 length)
{
	if (mw->ibmw.rkey != rkey || mw->state != RXE_MW_STATE_VALID ||
	    !mw->mr || mw->ibmw.pd != qp->ibqp.pd)
		return false;
	/* the QP itself, not its number: a new QP may reuse that */
	if (mw->ibmw.type == IB_MW_TYPE_2 && mw->qp_serial != qp->serial)
		return false;
	if (access & ~mw->access)
		return false;
	return iova >= mw->addr && length <= mw->length &&
	       iova - mw->addr <= mw->length - length;
}

static struct rxe_mr *rxe_mw_rkey_mr(struct rxe_qp *qp, u32 rkey, int access,
				     u64 iova, u64 length)
{
	struct rxe_mr *mr = ERR_PTR(-EACCES);
	struct rxe_mw *mw;
	unsigned long flags;

	mw = rxe_mw_get(to_rdev(qp->ibqp.device), rkey >> 8);
	if (!mw)
		return ERR_PTR(-EINVAL);
	spin_lock_irqsave(&mw->lock, flags);
	/*
	 * The binding keeps the MR registered (num_mw); its ref is zero
	 * only while a reregistration drains, which then fails.
	 */
	if (rxe_mw_grants(mw, qp, rkey, access, iova, length) &&
	    refcount_inc_not_zero(&mw->mr->ref))
		mr = mw->mr;
	spin_unlock_irqrestore(&mw->lock, flags);
	rxe_mw_put(mw);
	return mr;
}

struct rxe_mr *rxe_rkey_mr(struct rxe_qp *qp, u32 rkey, int access,
			   u64 iova, u64 length)
{
	struct rxe_mr *mr;

	if (rxe_key_is_mw(rkey))
		return rxe_mw_rkey_mr(qp, rkey, access, iova, length);

	mr = rxe_mr_get(to_rdev(qp->ibqp.device), rkey, RXE_LOOKUP_REMOTE);
	if (!mr)
		return ERR_PTR(-EINVAL);
	if (rxe_mr_check(mr, qp->ibqp.pd, access, iova, length)) {
		rxe_mr_put(mr);
		return ERR_PTR(-EACCES);
	}
	return mr;
}
