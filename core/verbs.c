// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Kernel verbs: PDs, CQs, QPs, AHs and MRs owned by in-kernel consumers
 * (the MAD layer, ib_cm, rdma_cm), made through the same driver ops as
 * ib_uverbs uses, with udata NULL and no uobject.  Objects made here count
 * in the device's res_count, so `rdma res` shows them as it shows
 * userspace's.
 *
 * Usage counts follow ib_uverbs: a QP holds its PD, CQs and SRQ, an AH
 * and an MR their PD; destroying an object still in use is refused with
 * -EBUSY (the consumer has a bug; it is logged once).
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
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/module.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <net/ipv6.h>
#include "core_priv.h"

/* Completions handled per batch, and batches per run of the work. */
#define IB_POLL_BATCH		16
#define IB_POLL_BUDGET		(4 * IB_POLL_BATCH)


/* Driver structures embed ours first (see struct ib_device_ops). */
static void *ib_obj_alloc(size_t drv_size, size_t core_size)
{
	return kzalloc(max(drv_size, core_size), GFP_KERNEL);
}

static void ib_res_add(struct ib_device *ibdev, enum ib_res_kind kind,
		       int delta)
{
	atomic_add(delta, &ibdev->res_count[kind]);
}

/* ------------------------------------------------------------------ */
/* Protection domains and DMA MRs                                       */
/* ------------------------------------------------------------------ */

static struct ib_mr *ib_dma_mr_make(struct ib_pd *pd, int access)
{
	struct ib_device *ibdev = pd->device;
	struct ib_mr *mr;
	int ret;

	if (!ibdev->ops.get_dma_mr)
		return ERR_PTR(-EOPNOTSUPP);
	mr = ib_obj_alloc(ibdev->ops.size_ib_mr, sizeof(*mr));
	if (!mr)
		return ERR_PTR(-ENOMEM);
	mr->device = ibdev;
	mr->pd = pd;
	ret = ibdev->ops.get_dma_mr(mr, access);
	if (ret) {
		kfree(mr);
		return ERR_PTR(ret);
	}
	return mr;
}

static void ib_dma_mr_free(struct ib_mr *mr)
{
	int ret = mr->device->ops.dereg_mr(mr, NULL);

	if (ret)
		dev_warn(&mr->device->dev, "DMA MR dereg failed: %d\n", ret);
	else
		kfree(mr);
}

struct ib_pd *ib_alloc_pd(struct ib_device *ibdev, unsigned int flags)
{
	struct ib_mr *mr;
	struct ib_pd *pd;
	int ret;

	if (flags)
		return ERR_PTR(-EINVAL);
	if (!ibdev->ops.alloc_pd)
		return ERR_PTR(-EOPNOTSUPP);
	pd = ib_obj_alloc(ibdev->ops.size_ib_pd, sizeof(*pd));
	if (!pd)
		return ERR_PTR(-ENOMEM);
	pd->device = ibdev;
	atomic_set(&pd->usecnt, 0);
	ret = ibdev->ops.alloc_pd(pd, NULL);
	if (ret) {
		kfree(pd);
		return ERR_PTR(ret);
	}
	/* Not counted: stock keeps its internal MR out of `rdma res` too. */
	if (ibdev->ops.get_dma_mr) {
		mr = ib_dma_mr_make(pd, IB_ACCESS_LOCAL_WRITE);
		if (IS_ERR(mr)) {
			if (ibdev->ops.dealloc_pd)
				ibdev->ops.dealloc_pd(pd, NULL);
			kfree(pd);
			return ERR_CAST(mr);
		}
		pd->internal_mr = mr;
		pd->local_dma_lkey = mr->lkey;
	}
	ib_res_add(ibdev, IB_RES_PD, 1);
	return pd;
}
EXPORT_SYMBOL(ib_alloc_pd);

void ib_dealloc_pd(struct ib_pd *pd)
{
	struct ib_device *ibdev = pd->device;

	if (pd->internal_mr) {
		ib_dma_mr_free(pd->internal_mr);
		pd->internal_mr = NULL;
	}
	WARN_ONCE(atomic_read(&pd->usecnt), "%s: PD still in use (%d)\n",
		  ib_device_name(ibdev), atomic_read(&pd->usecnt));
	if (ibdev->ops.dealloc_pd)
		ibdev->ops.dealloc_pd(pd, NULL);
	ib_res_add(ibdev, IB_RES_PD, -1);
	kfree(pd);
}
EXPORT_SYMBOL(ib_dealloc_pd);

struct ib_mr *ib_get_dma_mr(struct ib_pd *pd, int access)
{
	struct ib_mr *mr;

	if (access & ~IB_ACCESS_SUPPORTED)
		return ERR_PTR(-EINVAL);
	/* IBTA: remote write or atomic needs local write */
	if ((access & (IB_ACCESS_REMOTE_WRITE | IB_ACCESS_REMOTE_ATOMIC)) &&
	    !(access & IB_ACCESS_LOCAL_WRITE))
		return ERR_PTR(-EINVAL);
	mr = ib_dma_mr_make(pd, access);
	if (IS_ERR(mr))
		return mr;
	atomic_inc(&pd->usecnt);
	ib_res_add(pd->device, IB_RES_MR, 1);
	return mr;
}
EXPORT_SYMBOL(ib_get_dma_mr);

int ib_dereg_mr(struct ib_mr *mr)
{
	struct ib_device *ibdev = mr->device;
	struct ib_pd *pd = mr->pd;
	int ret;

	ret = ibdev->ops.dereg_mr(mr, NULL);
	if (ret)
		return ret;
	atomic_dec(&pd->usecnt);
	ib_res_add(ibdev, IB_RES_MR, -1);
	kfree(mr);
	return 0;
}
EXPORT_SYMBOL(ib_dereg_mr);

/* ------------------------------------------------------------------ */
/* Completion queues                                                    */
/* ------------------------------------------------------------------ */

struct ib_cq *ib_create_cq(struct ib_device *ibdev,
			   ib_comp_handler comp_handler,
			   void (*event_handler)(struct ib_event *, void *),
			   void *cq_context,
			   const struct ib_cq_init_attr *cq_attr)
{
	struct ib_cq *cq;
	int ret;

	if (!ibdev->ops.create_cq || !ibdev->ops.poll_cq)
		return ERR_PTR(-EOPNOTSUPP);
	if (!cq_attr || !cq_attr->cqe)
		return ERR_PTR(-EINVAL);
	cq = ib_obj_alloc(ibdev->ops.size_ib_cq, sizeof(*cq));
	if (!cq)
		return ERR_PTR(-ENOMEM);
	cq->device = ibdev;
	cq->comp_handler = comp_handler;
	cq->event_handler = event_handler;
	cq->cq_context = cq_context;
	cq->poll_ctx = IB_POLL_DIRECT;
	atomic_set(&cq->usecnt, 0);
	ret = ibdev->ops.create_cq(cq, cq_attr, NULL);
	if (ret) {
		kfree(cq);
		return ERR_PTR(ret);
	}
	ib_res_add(ibdev, IB_RES_CQ, 1);
	return cq;
}
EXPORT_SYMBOL(ib_create_cq);

int ib_destroy_cq(struct ib_cq *cq)
{
	struct ib_device *ibdev = cq->device;
	int ret;

	if (atomic_read(&cq->usecnt))
		return -EBUSY;
	ret = ibdev->ops.destroy_cq(cq, NULL);
	if (ret)
		return ret;
	ib_res_add(ibdev, IB_RES_CQ, -1);
	kfree(cq->poll_wc);
	kfree(cq);
	return 0;
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

	if (cq->poll_ctx != IB_POLL_DIRECT) {
		WRITE_ONCE(cq->poll_stopping, true);
		/* a handler that saw the flag clear has queued by now */
		synchronize_rcu();
		cancel_work_sync(&cq->poll_work);
	}
	ret = ib_destroy_cq(cq);
	WARN_ONCE(ret, "%s: ib_free_cq: %d\n", ib_device_name(cq->device),
		  ret);
}
EXPORT_SYMBOL(ib_free_cq);

/* ------------------------------------------------------------------ */
/* Queue pairs                                                          */
/* ------------------------------------------------------------------ */

struct ib_qp *ib_create_qp(struct ib_pd *pd, struct ib_qp_init_attr *init)
{
	struct ib_device *ibdev = pd->device;
	struct ib_qp *qp;
	int ret;

	if (!ibdev->ops.create_qp || !ibdev->ops.post_send_wrs)
		return ERR_PTR(-EOPNOTSUPP);
	if (!init->send_cq || !init->recv_cq)
		return ERR_PTR(-EINVAL);
	if ((init->qp_type == IB_QPT_GSI || init->qp_type == IB_QPT_SMI) &&
	    !rdma_is_port_valid(ibdev, init->port_num))
		return ERR_PTR(-EINVAL);
	qp = ib_obj_alloc(ibdev->ops.size_ib_qp, sizeof(*qp));
	if (!qp)
		return ERR_PTR(-ENOMEM);
	qp->device = ibdev;
	qp->pd = pd;
	qp->send_cq = init->send_cq;
	qp->recv_cq = init->recv_cq;
	qp->srq = init->srq;
	qp->event_handler = init->event_handler;
	qp->qp_context = init->qp_context;
	qp->qp_type = init->qp_type;
	qp->port_num = init->port_num;
	ret = ibdev->ops.create_qp(qp, init, NULL);
	if (ret) {
		kfree(qp);
		return ERR_PTR(ret);
	}
	atomic_inc(&pd->usecnt);
	atomic_inc(&qp->send_cq->usecnt);
	atomic_inc(&qp->recv_cq->usecnt);
	if (qp->srq)
		atomic_inc(&qp->srq->usecnt);
	ib_res_add(ibdev, IB_RES_QP, 1);
	return qp;
}
EXPORT_SYMBOL(ib_create_qp);

/*
 * Resolve @attr->sgid_index to its GID entry, referenced into
 * attr->sgid_attr.  A port of 0 means @def_port.
 */
static int ib_ah_attr_resolve(struct ib_device *ibdev,
			      struct ib_ah_attr *attr, u32 def_port)
{
	const struct ib_gid_attr *sgid_attr;

	attr->sgid_attr = NULL;
	if (!attr->port_num)
		attr->port_num = def_port;
	if (!rdma_is_port_valid(ibdev, attr->port_num))
		return -EINVAL;
	if (!attr->is_global)
		return rdma_port_get_link_layer(ibdev, attr->port_num) ==
		       IB_LINK_LAYER_ETHERNET ? -EINVAL : 0;
	sgid_attr = rdma_get_gid_attr(ibdev, attr->port_num, attr->sgid_index);
	if (IS_ERR(sgid_attr))
		return PTR_ERR(sgid_attr);
	attr->sgid_attr = sgid_attr;
	return 0;
}

static void ib_ah_attr_put(struct ib_ah_attr *attr)
{
	if (attr->sgid_attr)
		rdma_put_gid_attr(attr->sgid_attr);
	attr->sgid_attr = NULL;
}

int ib_modify_qp(struct ib_qp *qp, struct ib_qp_attr *attr, int mask)
{
	struct ib_device *ibdev = qp->device;
	u32 port = mask & IB_QP_PORT ? attr->port_num : qp->port_num;
	int ret;

	if (mask & IB_QP_PORT && !rdma_is_port_valid(ibdev, attr->port_num))
		return -EINVAL;
	if (!port)
		port = 1;
	if (mask & IB_QP_AV) {
		ret = ib_ah_attr_resolve(ibdev, &attr->ah_attr, port);
		if (ret)
			return ret;
	}
	if (mask & IB_QP_ALT_PATH) {
		ret = ib_ah_attr_resolve(ibdev, &attr->alt_ah_attr, port);
		if (ret)
			goto out;
	}
	ret = ibdev->ops.modify_qp(qp, attr, mask, NULL);
	if (!ret && (mask & IB_QP_PORT))
		qp->port_num = attr->port_num;
out:
	if (mask & IB_QP_ALT_PATH)
		ib_ah_attr_put(&attr->alt_ah_attr);
	if (mask & IB_QP_AV)
		ib_ah_attr_put(&attr->ah_attr);
	return ret;
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
	struct ib_device *ibdev = qp->device;
	int ret;

	ret = ibdev->ops.destroy_qp(qp, NULL);
	if (ret)
		return ret;
	atomic_dec(&qp->pd->usecnt);
	atomic_dec(&qp->send_cq->usecnt);
	atomic_dec(&qp->recv_cq->usecnt);
	if (qp->srq)
		atomic_dec(&qp->srq->usecnt);
	ib_res_add(ibdev, IB_RES_QP, -1);
	kfree(qp);
	return 0;
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

/* ------------------------------------------------------------------ */
/* Address handles                                                      */
/* ------------------------------------------------------------------ */

struct ib_ah *ib_create_ah(struct ib_pd *pd, struct ib_ah_attr *ah_attr)
{
	struct ib_device *ibdev = pd->device;
	struct ib_ah *ah;
	int ret;

	if (!ibdev->ops.create_ah)
		return ERR_PTR(-EOPNOTSUPP);
	ret = ib_ah_attr_resolve(ibdev, ah_attr, 1);
	if (ret)
		return ERR_PTR(ret);
	ah = ib_obj_alloc(ibdev->ops.size_ib_ah, sizeof(*ah));
	if (!ah) {
		ret = -ENOMEM;
		goto out;
	}
	ah->device = ibdev;
	ah->pd = pd;
	ah->attr = *ah_attr;
	ah->attr.sgid_attr = NULL;	/* only held during the call */
	ret = ibdev->ops.create_ah(ah, ah_attr, NULL);
	if (ret) {
		kfree(ah);
		goto out;
	}
	atomic_inc(&pd->usecnt);
out:
	ib_ah_attr_put(ah_attr);
	return ret ? ERR_PTR(ret) : ah;
}
EXPORT_SYMBOL(ib_create_ah);

int ib_destroy_ah(struct ib_ah *ah)
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
