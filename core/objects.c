// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The life of a verbs object, written once for every caller: ib_uverbs
 * passes the new object's uobject and the command's driver data, kernel
 * consumers (core/verbs.c) pass NULL for both.
 *
 *   create:  allocate the driver's structure, which embeds ours first
 *            (ib_device_ops.size_ib_*), charged to the caller's memory
 *            cgroup when userspace asks; fill the core's fields; call the
 *            driver; on failure free it and return the driver's errno.
 *            Success takes a use of every object the new one names (its
 *            PD, CQs, SRQ) and counts it in `rdma res`.
 *   destroy: an object others still use is refused (-EBUSY; uverbs'
 *            teardown retries after them); else the driver lets go of it,
 *            the uses it took are given back, it leaves `rdma res` and is
 *            freed.  A driver's refusal leaves everything as it was.
 *
 * What only one kind of caller needs stays with it: the uobject, async
 * event files and ABI structs in ib_uverbs; the PD's DMA MR, CQ polling
 * and a kernel AH's GID resolution in verbs.c.
 */
#include <linux/slab.h>
#include "core_priv.h"

/* Userspace makes us allocate: charge it (see the top). */
#define ib_zalloc_obj(ibdev, type, udata)				\
	kzalloc(max_t(size_t, (ibdev)->ops.size_##type, sizeof(struct type)), \
		(udata) ? GFP_KERNEL_ACCOUNT : GFP_KERNEL)

static void ib_res_count(struct ib_device *ibdev, enum ib_res_kind kind,
			 int delta)
{
	atomic_add(delta, &ibdev->res_count[kind]);
}

struct ib_pd *ib_alloc_pd_user(struct ib_device *ibdev,
			       struct ib_uobject *uobj, struct ib_udata *udata)
{
	struct ib_pd *pd;
	int ret;

	if (!ibdev->ops.alloc_pd)
		return ERR_PTR(-EOPNOTSUPP);
	pd = ib_zalloc_obj(ibdev, ib_pd, udata);
	if (!pd)
		return ERR_PTR(-ENOMEM);
	pd->device = ibdev;
	pd->uobject = uobj;
	atomic_set(&pd->usecnt, 0);
	ret = ibdev->ops.alloc_pd(pd, udata);
	if (ret) {
		kfree(pd);
		return ERR_PTR(ret);
	}
	ib_res_count(ibdev, IB_RES_PD, 1);
	return pd;
}
EXPORT_SYMBOL(ib_alloc_pd_user);

int ib_dealloc_pd_user(struct ib_pd *pd, struct ib_udata *udata)
{
	struct ib_device *ibdev = pd->device;
	int ret;

	if (atomic_read(&pd->usecnt))
		return -EBUSY;
	if (ibdev->ops.dealloc_pd) {
		ret = ibdev->ops.dealloc_pd(pd, udata);
		if (ret)
			return ret;
	}
	ib_res_count(ibdev, IB_RES_PD, -1);
	kfree(pd);
	return 0;
}
EXPORT_SYMBOL(ib_dealloc_pd_user);

struct ib_cq *ib_create_cq_user(struct ib_device *ibdev,
				ib_comp_handler comp_handler,
				void (*event_handler)(struct ib_event *, void *),
				void *cq_context,
				const struct ib_cq_init_attr *attr,
				struct ib_uobject *uobj, struct ib_udata *udata)
{
	struct ib_cq *cq;
	int ret;

	if (!ibdev->ops.create_cq || !ibdev->ops.destroy_cq)
		return ERR_PTR(-EOPNOTSUPP);
	if (attr->comp_vector >= ibdev->num_comp_vectors)
		return ERR_PTR(-EINVAL);
	cq = ib_zalloc_obj(ibdev, ib_cq, udata);
	if (!cq)
		return ERR_PTR(-ENOMEM);
	cq->device = ibdev;
	cq->uobject = uobj;
	cq->comp_handler = comp_handler;
	cq->event_handler = event_handler;
	cq->cq_context = cq_context;
	cq->poll_ctx = IB_POLL_DIRECT;
	atomic_set(&cq->usecnt, 0);
	ret = ibdev->ops.create_cq(cq, attr, udata);
	if (ret) {
		kfree(cq);
		return ERR_PTR(ret);
	}
	ib_res_count(ibdev, IB_RES_CQ, 1);
	return cq;
}
EXPORT_SYMBOL(ib_create_cq_user);

int ib_destroy_cq_user(struct ib_cq *cq, struct ib_udata *udata)
{
	struct ib_device *ibdev = cq->device;
	int ret;

	/* Still the CQ of a QP or SRQ. */
	if (atomic_read(&cq->usecnt))
		return -EBUSY;
	ret = ibdev->ops.destroy_cq(cq, udata);
	if (ret)
		return ret;
	/* The driver calls neither handler any more. */
	ib_res_count(ibdev, IB_RES_CQ, -1);
	kfree(cq->poll_wc);
	kfree(cq);
	return 0;
}
EXPORT_SYMBOL(ib_destroy_cq_user);

struct ib_srq *ib_create_srq_user(struct ib_pd *pd,
				  struct ib_srq_init_attr *init,
				  struct ib_uobject *uobj, struct ib_udata *udata)
{
	struct ib_device *ibdev = pd->device;
	struct ib_srq *srq;
	int ret;

	if (!ibdev->ops.create_srq || !ibdev->ops.destroy_srq)
		return ERR_PTR(-EOPNOTSUPP);
	srq = ib_zalloc_obj(ibdev, ib_srq, udata);
	if (!srq)
		return ERR_PTR(-ENOMEM);
	srq->device = ibdev;
	srq->pd = pd;
	srq->uobject = uobj;
	srq->event_handler = init->event_handler;
	srq->srq_context = init->srq_context;
	srq->srq_type = init->srq_type;
	atomic_set(&srq->usecnt, 0);
	ret = ibdev->ops.create_srq(srq, init, udata);
	if (ret) {
		kfree(srq);
		return ERR_PTR(ret);
	}
	atomic_inc(&pd->usecnt);
	ib_res_count(ibdev, IB_RES_SRQ, 1);
	return srq;
}
EXPORT_SYMBOL(ib_create_srq_user);

int ib_destroy_srq_user(struct ib_srq *srq, struct ib_udata *udata)
{
	struct ib_device *ibdev = srq->device;
	struct ib_pd *pd = srq->pd;
	int ret;

	/* Still the SRQ of a QP. */
	if (atomic_read(&srq->usecnt))
		return -EBUSY;
	ret = ibdev->ops.destroy_srq(srq, udata);
	if (ret)
		return ret;
	/* The driver calls the event handler no more. */
	atomic_dec(&pd->usecnt);
	ib_res_count(ibdev, IB_RES_SRQ, -1);
	kfree(srq);
	return 0;
}
EXPORT_SYMBOL(ib_destroy_srq_user);

struct ib_qp *ib_create_qp_user(struct ib_pd *pd,
				struct ib_qp_init_attr *init,
				struct ib_uobject *uobj, struct ib_udata *udata)
{
	struct ib_device *ibdev = pd->device;
	struct ib_qp *qp;
	int ret;

	if (!ibdev->ops.create_qp || !ibdev->ops.destroy_qp)
		return ERR_PTR(-EOPNOTSUPP);
	qp = ib_zalloc_obj(ibdev, ib_qp, udata);
	if (!qp)
		return ERR_PTR(-ENOMEM);
	qp->device = ibdev;
	qp->pd = pd;
	qp->send_cq = init->send_cq;
	qp->recv_cq = init->recv_cq;
	qp->srq = init->srq;
	qp->uobject = uobj;
	qp->event_handler = init->event_handler;
	qp->qp_context = init->qp_context;
	qp->qp_type = init->qp_type;
	qp->port_num = init->port_num;
	spin_lock_init(&qp->mr_lock);
	INIT_LIST_HEAD(&qp->rdma_mrs);
	INIT_LIST_HEAD(&qp->sig_mrs);
	ret = ibdev->ops.create_qp(qp, init, udata);
	if (ret) {
		kfree(qp);
		return ERR_PTR(ret);
	}
	/* A READ's SGEs are bounded by the device as well as by the QP. */
	qp->max_write_sge = init->cap.max_send_sge;
	qp->max_read_sge = min_t(u32, init->cap.max_send_sge,
				 max(ibdev->attrs.max_sge_rd, 0));
	/* Twice when both are one CQ, as in-tree: destroy gives both back. */
	atomic_inc(&pd->usecnt);
	atomic_inc(&qp->send_cq->usecnt);
	atomic_inc(&qp->recv_cq->usecnt);
	if (qp->srq)
		atomic_inc(&qp->srq->usecnt);
	ib_res_count(ibdev, IB_RES_QP, 1);
	return qp;
}
EXPORT_SYMBOL(ib_create_qp_user);

int ib_destroy_qp_user(struct ib_qp *qp, struct ib_udata *udata)
{
	struct ib_device *ibdev = qp->device;
	int ret;

	ret = ibdev->ops.destroy_qp(qp, udata);
	if (ret)
		return ret;
	/* The driver calls the event handler no more. */
	atomic_dec(&qp->pd->usecnt);
	atomic_dec(&qp->send_cq->usecnt);
	atomic_dec(&qp->recv_cq->usecnt);
	if (qp->srq)
		atomic_dec(&qp->srq->usecnt);
	ib_res_count(ibdev, IB_RES_QP, -1);
	kfree(qp);
	return 0;
}
EXPORT_SYMBOL(ib_destroy_qp_user);

struct ib_ah *ib_create_ah_user(struct ib_pd *pd, struct ib_ah_attr *attr,
				struct ib_uobject *uobj, struct ib_udata *udata)
{
	struct ib_device *ibdev = pd->device;
	struct ib_ah *ah;
	int ret;

	if (!ibdev->ops.create_ah || !ibdev->ops.destroy_ah)
		return ERR_PTR(-EOPNOTSUPP);
	ah = ib_zalloc_obj(ibdev, ib_ah, udata);
	if (!ah)
		return ERR_PTR(-ENOMEM);
	ah->device = ibdev;
	ah->pd = pd;
	ah->uobject = uobj;
	ah->attr = *attr;
	ah->attr.sgid_attr = NULL;	/* the caller holds it for the call */
	ret = ibdev->ops.create_ah(ah, attr, udata);
	if (ret) {
		kfree(ah);
		return ERR_PTR(ret);
	}
	atomic_inc(&pd->usecnt);
	return ah;
}
EXPORT_SYMBOL(ib_create_ah_user);

int ib_destroy_ah_user(struct ib_ah *ah)
{
	struct ib_pd *pd = ah->pd;
	int ret;

	ret = ah->device->ops.destroy_ah(ah);
	if (ret)
		return ret;
	atomic_dec(&pd->usecnt);
	kfree(ah);
	return 0;
}
EXPORT_SYMBOL(ib_destroy_ah_user);

/* The checks of every MR's rights, as in-tree; no device pages on demand. */
int ib_check_mr_access(int access)
{
	if ((access & (IB_ACCESS_REMOTE_WRITE | IB_ACCESS_REMOTE_ATOMIC)) &&
	    !(access & IB_ACCESS_LOCAL_WRITE))
		return -EINVAL;
	if (access & ~IB_ACCESS_SUPPORTED)
		return -EINVAL;
	if (access & IB_ACCESS_ON_DEMAND)
		return -EINVAL;
	return 0;
}
EXPORT_SYMBOL(ib_check_mr_access);

/*
 * The rights only some devices give: a flush placement type the device
 * does not offer is refused as in-tree does, with -EOPNOTSUPP.
 */
int ib_check_mr_device_access(const struct ib_device *dev, int access)
{
	u64 caps = dev->attrs.device_cap_flags;

	if (((access & IB_ACCESS_FLUSH_GLOBAL) &&
	     !(caps & IB_DEVICE_FLUSH_GLOBAL)) ||
	    ((access & IB_ACCESS_FLUSH_PERSISTENT) &&
	     !(caps & IB_DEVICE_FLUSH_PERSISTENT)))
		return -EOPNOTSUPP;
	return 0;
}
EXPORT_SYMBOL(ib_check_mr_device_access);

/* See core_priv.h: the PD's own DMA MR is made by this alone. */
struct ib_mr *ib_mr_make(struct ib_pd *pd, struct ib_uobject *uobj,
			 const struct ib_mr_source *src,
			 struct ib_udata *udata)
{
	struct ib_device *ibdev = pd->device;
	struct ib_mr *mr;
	int ret;

	if (!ibdev->ops.dereg_mr)
		return ERR_PTR(-EOPNOTSUPP);
	if (src->fast_reg ? !ibdev->ops.alloc_mr || !ibdev->ops.map_mr_sg :
	    src->user ? !ibdev->ops.reg_user_mr : !ibdev->ops.get_dma_mr)
		return ERR_PTR(-EOPNOTSUPP);
	ret = ib_check_mr_device_access(ibdev, src->access);
	if (ret)
		return ERR_PTR(ret);
	mr = ib_zalloc_obj(ibdev, ib_mr, udata);
	if (!mr)
		return ERR_PTR(-ENOMEM);
	mr->device = ibdev;
	mr->pd = pd;
	mr->uobject = uobj;
	if (src->fast_reg) {
		mr->type = IB_MR_TYPE_MEM_REG;
		ret = ibdev->ops.alloc_mr(mr, mr->type, src->max_num_sg);
	} else if (src->user) {
		mr->type = IB_MR_TYPE_USER;
		ret = ibdev->ops.reg_user_mr(mr, src->start, src->length,
					     src->iova, src->access, udata);
	} else {
		mr->type = IB_MR_TYPE_DMA;
		ret = ibdev->ops.get_dma_mr(mr, src->access);
	}
	if (ret) {
		kfree(mr);
		return ERR_PTR(ret);
	}
	return mr;
}

void ib_mr_unmake(struct ib_mr *mr)
{
	int ret = mr->device->ops.dereg_mr(mr, NULL);

	if (ret)
		dev_warn(&mr->device->dev, "MR dereg failed: %d\n", ret);
	else
		kfree(mr);
}

struct ib_mr *ib_reg_mr_user(struct ib_pd *pd, const struct ib_mr_source *src,
			     struct ib_uobject *uobj, struct ib_udata *udata)
{
	struct ib_mr *mr;
	int ret;

	ret = ib_check_mr_access(src->access);
	if (ret)
		return ERR_PTR(ret);
	mr = ib_mr_make(pd, uobj, src, udata);
	if (IS_ERR(mr))
		return mr;
	atomic_inc(&pd->usecnt);
	ib_res_count(pd->device, IB_RES_MR, 1);
	return mr;
}
EXPORT_SYMBOL(ib_reg_mr_user);

int ib_dereg_mr_user(struct ib_mr *mr, struct ib_udata *udata)
{
	struct ib_device *ibdev = mr->device;
	struct ib_pd *pd = mr->pd;
	int ret;

	ret = ibdev->ops.dereg_mr(mr, udata);
	if (ret)
		return ret;
	atomic_dec(&pd->usecnt);
	ib_res_count(ibdev, IB_RES_MR, -1);
	kfree(mr);
	return 0;
}
EXPORT_SYMBOL(ib_dereg_mr_user);

struct ib_mw *ib_alloc_mw_user(struct ib_pd *pd, enum ib_mw_type type,
			       struct ib_uobject *uobj, struct ib_udata *udata)
{
	struct ib_device *ibdev = pd->device;
	struct ib_mw *mw;
	int ret;

	if (!ibdev->ops.alloc_mw || !ibdev->ops.dealloc_mw)
		return ERR_PTR(-EOPNOTSUPP);
	if (type != IB_MW_TYPE_1 && type != IB_MW_TYPE_2)
		return ERR_PTR(-EINVAL);
	mw = ib_zalloc_obj(ibdev, ib_mw, udata);
	if (!mw)
		return ERR_PTR(-ENOMEM);
	mw->device = ibdev;
	mw->pd = pd;
	mw->uobject = uobj;
	mw->type = type;
	ret = ibdev->ops.alloc_mw(mw, udata);
	if (ret) {
		kfree(mw);
		return ERR_PTR(ret);
	}
	atomic_inc(&pd->usecnt);
	return mw;
}
EXPORT_SYMBOL(ib_alloc_mw_user);

int ib_dealloc_mw_user(struct ib_mw *mw)
{
	struct ib_pd *pd = mw->pd;
	int ret;

	ret = mw->device->ops.dealloc_mw(mw);
	if (ret)
		return ret;
	atomic_dec(&pd->usecnt);
	kfree(mw);
	return 0;
}
EXPORT_SYMBOL(ib_dealloc_mw_user);
