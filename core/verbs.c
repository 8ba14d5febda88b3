// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Kernel verbs: PDs, CQs, QPs, AHs and MRs owned by in-kernel consumers
 * (the MAD layer, ib_cm, rdma_cm).  They are made and destroyed by the
 * same entry points as ib_uverbs' (core/objects.c), with udata NULL and no
 * uobject, so they count in `rdma res` and hold their PD, CQs and SRQ as
 * userspace's do.  What is added here is what only kernel consumers have:
 * a PD's DMA MR (pd->local_dma_lkey), CQs the core polls, and AHs whose
 * source GID the core resolves.  A consumer that frees a PD or CQ still
 * in use has a bug: it is logged once and the object is left allocated.
 *
 * CQs of ib_alloc_cq() are polled by the core.  The flow of a completion:
 *
 *   driver: completion on an armed CQ -> cq->comp_handler (any context)
 *   core:   ib_cq_poll_kick() queues cq->poll_work (unless stopping)
 *   work:   polls batches, calls wc->wr_cqe->done() for each; when the CQ
 *           is empty it re-arms it and, if completions slipped in meanwhile
 *           (IB_CQ_REPORT_MISSED_EVENTS), queues itself again.
 *
 * IB_POLL_SOFTIRQ runs the same work with bottom halves disabled, so the
 * callbacks run in softirq context as the name promises; the WORKQUEUE
 * kinds run in process context on the system's high-priority (bound)
 * or unbound workqueue.
 * ib_free_cq() stops the kicks (RCU makes sure no handler still queues
 * after it looked), cancels the work and only then destroys the CQ.
 */
#include <linux/completion.h>
#include <linux/in.h>
#include <linux/log2.h>
#include <linux/sizes.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/module.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <net/ipv6.h>
#include <ordma/rw.h>
#include "core_priv.h"

/* Completions handled per batch, and batches per run of the work. */
#define IB_POLL_BATCH		16
#define IB_POLL_BUDGET		(4 * IB_POLL_BATCH)


/* ------------------------------------------------------------------ */
/* Protection domains and DMA MRs                                       */
/* ------------------------------------------------------------------ */

struct ib_pd *ib_alloc_pd(struct ib_device *ibdev, unsigned int flags)
{
	const struct ib_mr_source dma = { .access = IB_ACCESS_LOCAL_WRITE };
	struct ib_mr *mr;
	struct ib_pd *pd;

	if (flags)
		return ERR_PTR(-EINVAL);
	pd = ib_alloc_pd_user(ibdev, NULL, NULL);
	if (IS_ERR(pd) || !ibdev->ops.get_dma_mr)
		return pd;
	/* Not counted: stock keeps its internal MR out of `rdma res` too. */
	mr = ib_mr_make(pd, NULL, &dma, NULL);
	if (IS_ERR(mr)) {
		ib_dealloc_pd_user(pd, NULL);
		return ERR_CAST(mr);
	}
	pd->internal_mr = mr;
	pd->local_dma_lkey = mr->lkey;
	return pd;
}
EXPORT_SYMBOL(ib_alloc_pd);

void ib_dealloc_pd(struct ib_pd *pd)
{
	int ret;

	if (pd->internal_mr) {
		ib_mr_unmake(pd->internal_mr);
		pd->internal_mr = NULL;
	}
	ret = ib_dealloc_pd_user(pd, NULL);
	WARN_ONCE(ret, "%s: %s: %d (uses %d)\n", ib_device_name(pd->device),
		  __func__, ret, atomic_read(&pd->usecnt));
}
EXPORT_SYMBOL(ib_dealloc_pd);

struct ib_mr *ib_get_dma_mr(struct ib_pd *pd, int access)
{
	const struct ib_mr_source dma = { .access = access };

	return ib_reg_mr_user(pd, &dma, NULL, NULL);
}
EXPORT_SYMBOL(ib_get_dma_mr);

int ib_dereg_mr(struct ib_mr *mr)
{
	return ib_dereg_mr_user(mr, NULL);
}
EXPORT_SYMBOL(ib_dereg_mr);

/* ------------------------------------------------------------------ */
/* Fast registration                                                    */
/* ------------------------------------------------------------------ */

struct ib_mr *ib_alloc_mr(struct ib_pd *pd, enum ib_mr_type mr_type,
			  u32 max_num_sg)
{
	const struct ib_mr_source fr = {
		.fast_reg = true,
		.max_num_sg = max_num_sg,
	};

	if (mr_type != IB_MR_TYPE_MEM_REG)
		return ERR_PTR(-EOPNOTSUPP);
	if (!max_num_sg ||
	    max_num_sg > pd->device->attrs.max_fast_reg_page_list_len)
		return ERR_PTR(-EINVAL);
	return ib_reg_mr_user(pd, &fr, NULL, NULL);
}
EXPORT_SYMBOL(ib_alloc_mr);

int ib_map_mr_sg(struct ib_mr *mr, struct scatterlist *sg, int sg_nents,
		 unsigned int *sg_offset, unsigned int page_size)
{
	if (mr->type != IB_MR_TYPE_MEM_REG || !mr->device->ops.map_mr_sg)
		return -EOPNOTSUPP;
	if (!is_power_of_2(page_size) || page_size < SZ_4K)
		return -EINVAL;
	mr->page_size = page_size;
	return mr->device->ops.map_mr_sg(mr, sg, sg_nents, sg_offset);
}
EXPORT_SYMBOL(ib_map_mr_sg);

/*
 * The page list is one run of pages with no holes: an entry may follow
 * the previous one only where that ended on a page boundary and it
 * starts on one, or where it starts exactly where that ended (then both
 * share the page already listed).  The first stop ends the mapping.
 */
int ib_sg_to_pages(struct ib_mr *mr, struct scatterlist *sgl, int sg_nents,
		   unsigned int *sg_offset_p, int (*set_page)(struct ib_mr *, u64))
{
	const u64 page_mask = ~((u64)mr->page_size - 1);
	unsigned int offset = sg_offset_p ? *sg_offset_p : 0;
	u64 prev_end = 0;
	struct scatterlist *sg;
	int i;

	mr->iova = sg_dma_address(sgl) + offset;
	mr->length = 0;
	for_each_sg(sgl, sg, sg_nents, i) {
		u64 start = sg_dma_address(sg) + offset;
		u64 end = sg_dma_address(sg) + sg_dma_len(sg);
		u64 page = start & page_mask;
		int ret;

		if (i && (prev_end & ~page_mask || start & ~page_mask)) {
			if (start != prev_end)
				break;		/* a hole: the MR ends here */
			page += mr->page_size;	/* that page is listed */
		}
		for (; page < end; page += mr->page_size) {
			ret = set_page(mr, page);
			if (ret >= 0)
				continue;
			/* full: the pages listed so far are the mapping */
			if (page > start) {
				mr->length += page - start;
				offset = page - sg_dma_address(sg);
			}
			if (sg_offset_p)
				*sg_offset_p = offset;
			return i || page > start ? i : ret;
		}
		mr->length += end - start;
		prev_end = end;
		offset = 0;
	}
	if (sg_offset_p)
		*sg_offset_p = 0;
	return i;
}
EXPORT_SYMBOL(ib_sg_to_pages);

/* ------------------------------------------------------------------ */
/* Completion queues                                                    */
/* ------------------------------------------------------------------ */

struct ib_cq *ib_create_cq(struct ib_device *ibdev,
			   ib_comp_handler comp_handler,
			   void (*event_handler)(struct ib_event *, void *),
			   void *cq_context,
			   const struct ib_cq_init_attr *cq_attr)
{
	if (!ibdev->ops.poll_cq)
		return ERR_PTR(-EOPNOTSUPP);
	if (!cq_attr || !cq_attr->cqe)
		return ERR_PTR(-EINVAL);
	return ib_create_cq_user(ibdev, comp_handler, event_handler,
				 cq_context, cq_attr, NULL, NULL);
}
EXPORT_SYMBOL(ib_create_cq);

int ib_destroy_cq(struct ib_cq *cq)
{
	return ib_destroy_cq_user(cq, NULL);
}
EXPORT_SYMBOL(ib_destroy_cq);

int ib_poll_cq(struct ib_cq *cq, int num_entries, struct ib_wc *wc)
{
	if (num_entries <= 0)
		return 0;
	return cq->device->ops.poll_cq(cq, num_entries, wc);
}
EXPORT_SYMBOL(ib_poll_cq);

int ib_req_notify_cq(struct ib_cq *cq, enum ib_cq_notify_flags flags)
{
	if (!cq->device->ops.req_notify_cq)
		return -EOPNOTSUPP;
	return cq->device->ops.req_notify_cq(cq, flags);
}
EXPORT_SYMBOL(ib_req_notify_cq);

static struct workqueue_struct *ib_cq_wq(const struct ib_cq *cq)
{
	return cq->poll_ctx == IB_POLL_UNBOUND_WORKQUEUE ? system_unbound_wq :
							  system_highpri_wq;
}

/* The CQ's comp_handler: any context. */
static void ib_cq_poll_kick(struct ib_cq *cq, void *private)
{
	rcu_read_lock();
	if (!READ_ONCE(cq->poll_stopping))
		queue_work(ib_cq_wq(cq), &cq->poll_work);
	rcu_read_unlock();
}

/* Up to @budget completions to their ->done(); returns how many. */
static int ib_cq_process(struct ib_cq *cq, int budget)
{
	int done = 0, n, i;

	while (done < budget) {
		n = ib_poll_cq(cq, min(IB_POLL_BATCH, budget - done),
			       cq->poll_wc);
		if (n <= 0)
			break;
		for (i = 0; i < n; i++) {
			struct ib_wc *wc = &cq->poll_wc[i];

			if (wc->wr_cqe && wc->wr_cqe->done)
				wc->wr_cqe->done(cq, wc);
		}
		done += n;
		if (n < IB_POLL_BATCH)
			break;
	}
	return done;
}

static void ib_cq_poll_work(struct work_struct *work)
{
	struct ib_cq *cq = container_of(work, struct ib_cq, poll_work);
	bool again;
	int n;

	if (cq->poll_ctx == IB_POLL_SOFTIRQ)
		local_bh_disable();
	n = ib_cq_process(cq, IB_POLL_BUDGET);
	if (cq->poll_ctx == IB_POLL_SOFTIRQ)
		local_bh_enable();

	/* More waiting, or some slipped in before we re-armed: go again. */
	again = n >= IB_POLL_BUDGET ||
		ib_req_notify_cq(cq, IB_CQ_NEXT_COMP |
				 IB_CQ_REPORT_MISSED_EVENTS) > 0;
	if (again && !READ_ONCE(cq->poll_stopping))
		queue_work(ib_cq_wq(cq), &cq->poll_work);
}

struct ib_cq *ib_alloc_cq(struct ib_device *ibdev, void *private, int nr_cqe,
			  int comp_vector, enum ib_poll_context poll_ctx)
{
	struct ib_cq_init_attr attr = {
		.cqe = nr_cqe,
		.comp_vector = comp_vector,
	};
	struct ib_wc *wcs;
	struct ib_cq *cq;

	if (nr_cqe <= 0 || poll_ctx > IB_POLL_UNBOUND_WORKQUEUE)
		return ERR_PTR(-EINVAL);
	wcs = kcalloc(IB_POLL_BATCH, sizeof(*wcs), GFP_KERNEL);
	if (!wcs)
		return ERR_PTR(-ENOMEM);
	cq = ib_create_cq(ibdev, poll_ctx == IB_POLL_DIRECT ? NULL :
			  ib_cq_poll_kick, NULL, private, &attr);
	if (IS_ERR(cq)) {
		kfree(wcs);
		return cq;
	}
	cq->poll_wc = wcs;
	cq->poll_ctx = poll_ctx;
	INIT_WORK(&cq->poll_work, ib_cq_poll_work);
	if (poll_ctx != IB_POLL_DIRECT)
		ib_req_notify_cq(cq, IB_CQ_NEXT_COMP);
	return cq;
}
EXPORT_SYMBOL(ib_alloc_cq);

void ib_free_cq(struct ib_cq *cq)
{
	int ret;

	if (WARN_ONCE(cq->shared, "%s: ib_free_cq() of a pool CQ\n",
		      ib_device_name(cq->device)))
		return;

	if (cq->poll_ctx != IB_POLL_DIRECT) {
		WRITE_ONCE(cq->poll_stopping, true);
		/* a handler that saw the flag clear has queued by now */
		synchronize_rcu();
		cancel_work_sync(&cq->poll_work);
	}
	ret = ib_destroy_cq(cq);
	WARN_ONCE(ret, "%s: %s: %d\n", ib_device_name(cq->device), __func__,
		  ret);
}
EXPORT_SYMBOL(ib_free_cq);

/* ------------------------------------------------------------------ */
/* Queue pairs                                                          */
/* ------------------------------------------------------------------ */

struct ib_qp *ib_create_qp(struct ib_pd *pd, struct ib_qp_init_attr *init)
{
	struct ib_device *ibdev = pd->device;

	if (!ibdev->ops.post_send_wrs)
		return ERR_PTR(-EOPNOTSUPP);
	if (!init->send_cq || !init->recv_cq)
		return ERR_PTR(-EINVAL);
	if ((init->qp_type == IB_QPT_GSI || init->qp_type == IB_QPT_SMI) &&
	    !rdma_is_port_valid(ibdev, init->port_num))
		return ERR_PTR(-EINVAL);
	rdma_rw_init_qp(ibdev, init);
	return ib_create_qp_user(pd, init, NULL, NULL);
}
EXPORT_SYMBOL(ib_create_qp);

int rdma_ah_attr_resolve(struct ib_device *ibdev, struct ib_ah_attr *attr)
{
	const struct ib_gid_attr *sgid_attr;

	attr->sgid_attr = NULL;
	if (!rdma_is_port_valid(ibdev, attr->port_num))
		return -EINVAL;
	/* RoCE GIDs are IP addresses: no route without them. */
	if (!attr->is_global)
		return rdma_port_get_link_layer(ibdev, attr->port_num) ==
		       IB_LINK_LAYER_ETHERNET ? -EINVAL : 0;
	sgid_attr = rdma_get_gid_attr(ibdev, attr->port_num, attr->sgid_index);
	if (IS_ERR(sgid_attr))
		return PTR_ERR(sgid_attr);
	attr->sgid_attr = sgid_attr;
	return 0;
}
EXPORT_SYMBOL(rdma_ah_attr_resolve);

/* A kernel consumer's port 0 means @def_port. */
static int ib_ah_attr_resolve(struct ib_device *ibdev,
			      struct ib_ah_attr *attr, u32 def_port)
{
	if (!attr->port_num)
		attr->port_num = def_port;
	return rdma_ah_attr_resolve(ibdev, attr);
}

static void ib_ah_attr_put(struct ib_ah_attr *attr)
{
	if (attr->sgid_attr)
		rdma_put_gid_attr(attr->sgid_attr);
	attr->sgid_attr = NULL;
}

static bool ib_port_is_ib(struct ib_device *ibdev, u32 port)
{
	return rdma_is_port_valid(ibdev, port) &&
	       rdma_port_get_link_layer(ibdev, port) == IB_LINK_LAYER_INFINIBAND;
}

int ib_modify_qp_user(struct ib_qp *qp, struct ib_qp_attr *attr, int mask,
		      struct ib_udata *udata)
{
	const struct ib_gid_attr *av_sgid = NULL, *alt_sgid = NULL;
	struct ib_device *ibdev = qp->device;
	u32 port = mask & IB_QP_PORT ? attr->port_num : READ_ONCE(qp->port_num);
	int ret;

	if (!ibdev->ops.modify_qp)
		return -EOPNOTSUPP;
	if (mask & IB_QP_PORT && !rdma_is_port_valid(ibdev, attr->port_num))
		return -EINVAL;
	/* Put what we got, whatever the driver does with @attr. */
	if (mask & IB_QP_AV) {
		ret = rdma_ah_attr_resolve(ibdev, &attr->ah_attr);
		if (ret)
			return ret;
		av_sgid = attr->ah_attr.sgid_attr;
	}
	if (mask & IB_QP_ALT_PATH) {
		ret = rdma_ah_attr_resolve(ibdev, &attr->alt_ah_attr);
		if (ret)
			goto out;
		alt_sgid = attr->alt_ah_attr.sgid_attr;
		/* Path migration is an IB feature: not on RoCE, as in-tree. */
		if (!ib_port_is_ib(ibdev, attr->alt_ah_attr.port_num) ||
		    !ib_port_is_ib(ibdev, port)) {
			ret = -EINVAL;
			goto out;
		}
	}
	ret = ibdev->ops.modify_qp(qp, attr, mask, udata);
	/* The port later modifies and address checks compare with. */
	if (!ret && (mask & IB_QP_PORT))
		WRITE_ONCE(qp->port_num, port);
out:
	if (alt_sgid)
		rdma_put_gid_attr(alt_sgid);
	if (av_sgid)
		rdma_put_gid_attr(av_sgid);
	return ret;
}
EXPORT_SYMBOL(ib_modify_qp_user);

int ib_modify_qp(struct ib_qp *qp, struct ib_qp_attr *attr, int mask)
{
	u32 port = mask & IB_QP_PORT ? attr->port_num : qp->port_num;

	/* A kernel consumer's address port 0 means the QP's, else port 1. */
	if (!port)
		port = 1;
	if ((mask & IB_QP_AV) && !attr->ah_attr.port_num)
		attr->ah_attr.port_num = port;
	if ((mask & IB_QP_ALT_PATH) && !attr->alt_ah_attr.port_num)
		attr->alt_ah_attr.port_num = port;
	return ib_modify_qp_user(qp, attr, mask, NULL);
}
EXPORT_SYMBOL(ib_modify_qp);

int ib_query_qp(struct ib_qp *qp, struct ib_qp_attr *attr, int mask,
		struct ib_qp_init_attr *init)
{
	if (!qp->device->ops.query_qp)
		return -EOPNOTSUPP;
	return qp->device->ops.query_qp(qp, attr, mask, init);
}
EXPORT_SYMBOL(ib_query_qp);

int ib_destroy_qp(struct ib_qp *qp)
{
	/* A taken MR would be deregistered by nobody. */
	WARN_ONCE(qp->mrs_used, "%s: QP %u destroyed with %d pool MRs taken\n",
		  ib_device_name(qp->device), qp->qp_num, qp->mrs_used);
	return ib_destroy_qp_user(qp, NULL);
}
EXPORT_SYMBOL(ib_destroy_qp);

int ib_post_send(struct ib_qp *qp, const struct ib_send_wr *wr,
		 const struct ib_send_wr **bad_wr)
{
	const struct ib_send_wr *dummy;

	return qp->device->ops.post_send_wrs(qp, wr, bad_wr ? : &dummy);
}
EXPORT_SYMBOL(ib_post_send);

int ib_post_recv(struct ib_qp *qp, const struct ib_recv_wr *wr,
		 const struct ib_recv_wr **bad_wr)
{
	const struct ib_recv_wr *dummy;

	if (!qp->device->ops.post_recv_wrs) {
		if (bad_wr)
			*bad_wr = wr;
		return -EOPNOTSUPP;
	}
	return qp->device->ops.post_recv_wrs(qp, wr, bad_wr ? : &dummy);
}
EXPORT_SYMBOL(ib_post_recv);

/*
 * Draining: after the move to ERR the device flushes in order, so once a
 * marker WR posted last has completed, so has everything before it.  The
 * marker is an empty RDMA WRITE on the SQ (no remote access: it is never
 * sent, only flushed) and an empty receive on the RQ.
 */
struct ib_drain_marker {
	struct ib_cqe cqe;
	struct completion done;
};

static void ib_drain_marker_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct ib_drain_marker *m = container_of(wc->wr_cqe,
						 struct ib_drain_marker, cqe);

	complete(&m->done);
}

/* Wait for @m; a DIRECT CQ has nobody else to poll it, so we do. */
static void ib_drain_wait(struct ib_cq *cq, struct ib_drain_marker *m)
{
	if (cq->poll_ctx != IB_POLL_DIRECT) {
		wait_for_completion(&m->done);
		return;
	}
	while (!wait_for_completion_timeout(&m->done, HZ / 10))
		ib_cq_process(cq, IB_POLL_BUDGET);
}

static int ib_drain_to_err(struct ib_qp *qp)
{
	struct ib_qp_attr attr = { .qp_state = IB_QPS_ERR };

	return ib_modify_qp(qp, &attr, IB_QP_STATE);
}

static void ib_drain_sq_generic(struct ib_qp *qp)
{
	struct ib_drain_marker m = { .cqe.done = ib_drain_marker_done };
	struct ib_rdma_wr marker = {
		.wr = {
			.wr_cqe = &m.cqe,
			.opcode = IB_WR_RDMA_WRITE,
			.send_flags = IB_SEND_SIGNALED,
		},
	};
	int ret;

	init_completion(&m.done);
	ret = ib_drain_to_err(qp);
	if (ret) {
		WARN_ONCE(1, "%s: QP %u to ERR: %d\n", __func__, qp->qp_num, ret);
		return;
	}
	ret = ib_post_send(qp, &marker.wr, NULL);
	if (ret) {
		WARN_ONCE(1, "%s: QP %u marker: %d\n", __func__, qp->qp_num, ret);
		return;
	}
	ib_drain_wait(qp->send_cq, &m);
}

static void ib_drain_rq_generic(struct ib_qp *qp)
{
	struct ib_drain_marker m = { .cqe.done = ib_drain_marker_done };
	struct ib_recv_wr marker = { .wr_cqe = &m.cqe };
	int ret;

	init_completion(&m.done);
	ret = ib_drain_to_err(qp);
	if (ret) {
		WARN_ONCE(1, "%s: QP %u to ERR: %d\n", __func__, qp->qp_num, ret);
		return;
	}
	ret = ib_post_recv(qp, &marker, NULL);
	if (ret) {
		WARN_ONCE(1, "%s: QP %u marker: %d\n", __func__, qp->qp_num, ret);
		return;
	}
	ib_drain_wait(qp->recv_cq, &m);
}

void ib_drain_sq(struct ib_qp *qp)
{
	if (qp->device->ops.drain_sq)
		qp->device->ops.drain_sq(qp);
	else
		ib_drain_sq_generic(qp);
}
EXPORT_SYMBOL(ib_drain_sq);

void ib_drain_rq(struct ib_qp *qp)
{
	if (qp->srq)
		return;
	if (qp->device->ops.drain_rq)
		qp->device->ops.drain_rq(qp);
	else
		ib_drain_rq_generic(qp);
}
EXPORT_SYMBOL(ib_drain_rq);

void ib_drain_qp(struct ib_qp *qp)
{
	ib_drain_sq(qp);
	ib_drain_rq(qp);
}
EXPORT_SYMBOL(ib_drain_qp);

/* ------------------------------------------------------------------ */
/* Address handles                                                      */
/* ------------------------------------------------------------------ */

struct ib_ah *ib_create_ah(struct ib_pd *pd, struct ib_ah_attr *ah_attr)
{
	struct ib_ah *ah;
	int ret;

	ret = ib_ah_attr_resolve(pd->device, ah_attr, 1);
	if (ret)
		return ERR_PTR(ret);
	ah = ib_create_ah_user(pd, ah_attr, NULL, NULL);
	ib_ah_attr_put(ah_attr);
	return ah;
}
EXPORT_SYMBOL(ib_create_ah);

int ib_destroy_ah(struct ib_ah *ah)
{
	return ib_destroy_ah_user(ah);
}
EXPORT_SYMBOL(ib_destroy_ah);

/*
 * The GRH slot: an IPv6 header, or 20 bytes then an IPv4 header.  Which
 * one the driver says with network_hdr_type; without it, the IP version
 * nibbles tell.
 */
static int ib_grh_network_type(const struct ib_wc *wc, const u8 *grh)
{
	if (wc->wc_flags & IB_WC_WITH_NETWORK_HDR_TYPE)
		return wc->network_hdr_type;
	if ((grh[0] >> 4) == 6)
		return RDMA_NETWORK_IPV6;
	if ((grh[20] >> 4) == 4)
		return RDMA_NETWORK_IPV4;
	return RDMA_NETWORK_IB;
}

int ib_init_ah_attr_from_wc(struct ib_device *ibdev, u32 port_num,
			    const struct ib_wc *wc, const void *grh,
			    struct ib_ah_attr *ah_attr)
{
	const struct ib_gid_attr *sgid_attr;
	union ib_gid sgid;

	if (!(wc->wc_flags & IB_WC_GRH) || !grh ||
	    !rdma_is_port_valid(ibdev, port_num))
		return -EINVAL;
	memset(ah_attr, 0, sizeof(*ah_attr));
	switch (ib_grh_network_type(wc, grh)) {
	case RDMA_NETWORK_IPV4: {
		const struct iphdr *iph = grh + 20;

		ipv6_addr_set_v4mapped(iph->saddr,
				       (struct in6_addr *)ah_attr->dgid.raw);
		ipv6_addr_set_v4mapped(iph->daddr, (struct in6_addr *)sgid.raw);
		ah_attr->traffic_class = iph->tos;
		break;
	}
	case RDMA_NETWORK_IPV6: {
		const struct ipv6hdr *ip6h = grh;

		memcpy(ah_attr->dgid.raw, &ip6h->saddr, 16);
		memcpy(sgid.raw, &ip6h->daddr, 16);
		ah_attr->flow_label = ntohl(ip6_flowinfo(ip6h)) & 0xfffff;
		ah_attr->traffic_class = ip6_tclass(ip6_flowinfo(ip6h));
		break;
	}
	default:
		return -EINVAL;
	}
	sgid_attr = rdma_find_gid_by_port(ibdev, &sgid,
					  IB_UVERBS_GID_TYPE_ROCE_V2,
					  port_num, NULL);
	if (IS_ERR(sgid_attr))
		return -ENOENT;
	ah_attr->sgid_index = sgid_attr->index;
	rdma_put_gid_attr(sgid_attr);
	ah_attr->is_global = 1;
	/* a reply starts afresh: the hop count the sender used is spent */
	ah_attr->hop_limit = 64;
	ah_attr->sl = wc->sl;
	ah_attr->port_num = port_num;
	return 0;
}
EXPORT_SYMBOL(ib_init_ah_attr_from_wc);

/* ------------------------------------------------------------------ */
/* GID lookups                                                          */
/* ------------------------------------------------------------------ */

struct net_device *rdma_read_gid_attr_ndev(const struct ib_gid_attr *attr)
{
	struct net_device *ndev;

	rcu_read_lock();
	ndev = rcu_dereference(attr->ndev);
	if (ndev)
		dev_hold(ndev);
	rcu_read_unlock();
	return ndev;
}
EXPORT_SYMBOL(rdma_read_gid_attr_ndev);

const struct ib_gid_attr *rdma_find_gid_by_port(struct ib_device *ibdev,
						const union ib_gid *gid,
						enum ib_uverbs_gid_type gid_type,
						u32 port,
						struct net_device *ndev)
{
	const struct ib_port_immutable *imm;
	const struct ib_gid_attr *attr;
	bool match;
	int i;

	if (!rdma_is_port_valid(ibdev, port))
		return ERR_PTR(-EINVAL);
	imm = ib_port_immutable(ibdev, port);
	for (i = 0; i < imm->gid_tbl_len; i++) {
		attr = rdma_get_gid_attr(ibdev, port, i);
		if (IS_ERR(attr))
			continue;
		match = attr->gid_type == gid_type &&
			!memcmp(attr->gid.raw, gid->raw, sizeof(gid->raw));
		if (match && ndev) {
			rcu_read_lock();
			match = rcu_access_pointer(attr->ndev) == ndev;
			rcu_read_unlock();
		}
		if (match)
			return attr;
		rdma_put_gid_attr(attr);
	}
	return ERR_PTR(-ENOENT);
}
EXPORT_SYMBOL(rdma_find_gid_by_port);

const struct ib_gid_attr *rdma_find_gid(const union ib_gid *gid,
					enum ib_uverbs_gid_type gid_type,
					struct net_device *ndev)
{
	const struct ib_gid_attr *attr = ERR_PTR(-ENOENT);
	unsigned long index = 0;
	struct ib_device *ibdev;
	u32 port;

	while ((ibdev = ib_device_get_next(&index))) {
		rdma_for_each_port(ibdev, port) {
			attr = rdma_find_gid_by_port(ibdev, gid, gid_type,
						     port, ndev);
			if (!IS_ERR(attr))
				break;
		}
		ib_device_put(ibdev);
		if (!IS_ERR(attr))
			return attr;
	}
	return ERR_PTR(-ENOENT);
}
EXPORT_SYMBOL(rdma_find_gid);
