// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Queues: one rdma_cm connection each, made step by step by the thread
 * that needs it (resolve the address, create the verbs objects on the
 * device it resolved to, resolve the route, connect with the NVMe/RDMA
 * private data: recfmt 0, the queue id, hrqsize and hsqsize), each step
 * waited for with a timeout.  The CM handler only reports how a step
 * ended, and after the connection turns a disconnect into error
 * recovery, so no verbs object is made or freed in it.
 *
 * Teardown is two calls.  nrdma_stop_queue(): disconnect, then drain the
 * QP (every posted WR has completed, flushed; no completion runs after
 * it), so that the controller can cancel what is outstanding while the
 * MRs and mappings are still there.  nrdma_free_queue(): the MR pool,
 * the QP, the CQ room, the receive buffers, the PD and the cm id.
 */
#include <linux/slab.h>
#include "nvme_rdma.h"

static int nrdma_cm_handler(struct rdma_cm_id *id, struct rdma_cm_event *ev)
{
	struct nrdma_queue *queue = id->context;
	u8 len = 0;

	switch (ev->event) {
	case RDMA_CM_EVENT_ADDR_RESOLVED:
	case RDMA_CM_EVENT_ROUTE_RESOLVED:
	case RDMA_CM_EVENT_ESTABLISHED:
		queue->cm_event = ev->event;
		queue->cm_error = 0;
		complete(&queue->cm_done);
		break;
	case RDMA_CM_EVENT_REJECTED:
		if (rdma_is_consumer_reject(id, ev->status)) {
			const struct nvme_rdma_cm_rej *rej =
				rdma_consumer_reject_data(id, ev, &len);

			if (rej && len >= sizeof(*rej))
				pr_err("nvme_rdma: queue %u rejected by the target: %s (%u)\n",
				       queue->qid,
				       nvme_rdma_cm_msg(le16_to_cpu(rej->sts)),
				       le16_to_cpu(rej->sts));
			else
				pr_err("nvme_rdma: queue %u rejected by the target\n",
				       queue->qid);
		} else {
			pr_err("nvme_rdma: queue %u rejected: %s\n", queue->qid,
			       rdma_reject_msg(id, ev->status));
		}
		queue->cm_event = ev->event;
		queue->cm_error = -ECONNREFUSED;
		complete(&queue->cm_done);
		break;
	case RDMA_CM_EVENT_ADDR_ERROR:
	case RDMA_CM_EVENT_ROUTE_ERROR:
	case RDMA_CM_EVENT_CONNECT_ERROR:
	case RDMA_CM_EVENT_UNREACHABLE:
		pr_err("nvme_rdma: queue %u: %s (%d)\n", queue->qid,
		       rdma_event_msg(ev->event), ev->status);
		queue->cm_event = ev->event;
		queue->cm_error = -ECONNRESET;
		complete(&queue->cm_done);
		break;
	case RDMA_CM_EVENT_DEVICE_REMOVAL:
		/*
		 * Our ib_client's remove() deleted every controller on the
		 * device before rdma_cm (registered earlier, removed later)
		 * got here; only a controller still being created can see
		 * this, and its waiting step ends with the error.
		 */
		queue->cm_event = ev->event;
		queue->cm_error = -ENODEV;
		complete(&queue->cm_done);
		break;
	case RDMA_CM_EVENT_DISCONNECTED:
	case RDMA_CM_EVENT_ADDR_CHANGE:
		pr_info("nvme_rdma: queue %u: %s\n", queue->qid,
			rdma_event_msg(ev->event));
		nrdma_error_recovery(queue->ctrl);
		break;
	default:
		break;
	}
	return 0;
}

/* Issue one step (@start, with cm_done re-armed) and wait for @expect. */
static int nrdma_cm_step(struct nrdma_queue *queue, int start,
			 enum rdma_cm_event_type expect)
{
	unsigned long left;

	if (start)
		return start;
	left = wait_for_completion_timeout(&queue->cm_done,
			msecs_to_jiffies(NRDMA_CM_TIMEOUT_MS) + HZ);
	if (!left) {
		pr_err("nvme_rdma: queue %u: no %s in time\n", queue->qid,
		       rdma_event_msg(expect));
		return -ETIMEDOUT;
	}
	if (queue->cm_error)
		return queue->cm_error;
	return queue->cm_event == expect ? 0 : -ECONNRESET;
}

int nrdma_post_recv(struct nrdma_rsp *rsp)
{
	struct nrdma_queue *queue = rsp->queue;

	ib_dma_sync_single_for_device(queue->pd->device, rsp->dma,
				      sizeof(*rsp->buf), DMA_FROM_DEVICE);
	return ib_post_recv(queue->cm_id->qp, &rsp->wr, NULL);
}

static void nrdma_free_rsps(struct nrdma_queue *queue)
{
	u32 i;

	if (!queue->rsps)
		return;
	for (i = 0; i < queue->size; i++) {
		struct nrdma_rsp *rsp = &queue->rsps[i];

		if (rsp->dma)
			ib_dma_unmap_single(queue->pd->device, rsp->dma,
					    sizeof(*rsp->buf), DMA_FROM_DEVICE);
		kfree(rsp->buf);
	}
	kfree(queue->rsps);
	queue->rsps = NULL;
}

static int nrdma_alloc_rsps(struct nrdma_queue *queue)
{
	struct ib_device *dev = queue->pd->device;
	u32 i;

	queue->rsps = kcalloc(queue->size, sizeof(*queue->rsps), GFP_KERNEL);
	if (!queue->rsps)
		return -ENOMEM;
	for (i = 0; i < queue->size; i++) {
		struct nrdma_rsp *rsp = &queue->rsps[i];
		u64 dma;

		rsp->queue = queue;
		rsp->buf = kzalloc(sizeof(*rsp->buf), GFP_KERNEL);
		if (!rsp->buf)
			return -ENOMEM;
		dma = ib_dma_map_single(dev, rsp->buf, sizeof(*rsp->buf),
					DMA_FROM_DEVICE);
		if (ib_dma_mapping_error(dev, dma))
			return -ENOMEM;
		rsp->dma = dma;
		rsp->cqe.done = nrdma_recv_done;
		rsp->sge.addr = dma;
		rsp->sge.length = sizeof(*rsp->buf);
		rsp->sge.lkey = queue->pd->local_dma_lkey;
		rsp->wr.wr_cqe = &rsp->cqe;
		rsp->wr.sg_list = &rsp->sge;
		rsp->wr.num_sge = 1;
	}
	return 0;
}

/* The verbs objects, on the device the address resolved to. */
static int nrdma_create_verbs(struct nrdma_queue *queue)
{
	struct nrdma_ctrl *ctrl = queue->ctrl;
	struct rdma_cm_id *id = queue->cm_id;
	struct ib_device *dev = id->device;
	struct ib_qp_init_attr init = {};
	u32 send_wrs, i;
	int ret;

	if (!(dev->attrs.device_cap_flags & IB_DEVICE_MEM_MGT_EXTENSIONS) ||
	    dev->attrs.max_fast_reg_page_list_len < 2) {
		pr_err("nvme_rdma: %s has no fast registration\n",
		       ib_device_name(dev));
		return -EOPNOTSUPP;
	}
	if (queue->qid == 0)
		ctrl->max_fr_pages = min_t(u32, NRDMA_MAX_SEGMENTS,
				dev->attrs.max_fast_reg_page_list_len - 1);

	queue->pd = ib_alloc_pd(dev, 0);
	if (IS_ERR(queue->pd)) {
		ret = PTR_ERR(queue->pd);
		queue->pd = NULL;
		return ret;
	}

	/* +1 each: the drain's marker WRs. */
	send_wrs = queue->size * NRDMA_SEND_WRS_PER_CMD + 1;
	queue->cq_size = send_wrs + queue->size + 1;
	queue->cq = ib_cq_pool_get(dev, queue->cq_size,
				   dev->num_comp_vectors > 0 ?
				   queue->qid % dev->num_comp_vectors : -1,
				   IB_POLL_WORKQUEUE);
	if (IS_ERR(queue->cq)) {
		ret = PTR_ERR(queue->cq);
		queue->cq = NULL;
		return ret;
	}

	queue->inline_sges = min_t(u32, NRDMA_MAX_INLINE_SGES,
				   max(dev->attrs.max_send_sge, 1) - 1);
	init.send_cq = queue->cq;
	init.recv_cq = queue->cq;
	init.qp_type = IB_QPT_RC;
	init.sq_sig_type = IB_SIGNAL_REQ_WR;
	init.cap.max_send_wr = send_wrs;
	init.cap.max_recv_wr = queue->size + 1;
	init.cap.max_send_sge = 1 + queue->inline_sges;
	init.cap.max_recv_sge = 1;
	init.qp_context = queue;
	ret = rdma_create_qp(id, queue->pd, &init);
	if (ret)
		return ret;
	queue->qp_created = true;

	ret = ib_mr_pool_init(id->qp, &id->qp->rdma_mrs, queue->size,
			      IB_MR_TYPE_MEM_REG, ctrl->max_fr_pages + 1, 0);
	if (ret)
		return ret;
	queue->mr_pool_ready = true;

	ret = nrdma_alloc_rsps(queue);
	if (ret)
		return ret;
	for (i = 0; i < queue->size; i++) {
		ret = nrdma_post_recv(&queue->rsps[i]);
		if (ret)
			return ret;
	}

	if (queue->qid == 0) {
		u64 dma = ib_dma_map_single(dev, ctrl->aen_sqe,
					    sizeof(*ctrl->aen_sqe),
					    DMA_TO_DEVICE);

		if (ib_dma_mapping_error(dev, dma))
			return -ENOMEM;
		ctrl->aen_dma = dma;
	}
	return 0;
}

static int nrdma_connect(struct nrdma_queue *queue)
{
	struct ib_device *dev = queue->cm_id->device;
	struct nvme_rdma_cm_req priv = {
		.recfmt = cpu_to_le16(NVME_RDMA_CM_FMT_1_0),
		.qid = cpu_to_le16(queue->qid),
		.hrqsize = cpu_to_le16(queue->size),
		.hsqsize = cpu_to_le16(queue->size - 1),
	};
	struct rdma_conn_param param = {
		.private_data = &priv,
		.private_data_len = sizeof(priv),
		.flow_control = 1,
		.retry_count = 7,
		.rnr_retry_count = 7,
		/* The target reads and writes us: we answer its reads. */
		.responder_resources = min_t(int, dev->attrs.max_qp_rd_atom,
					     U8_MAX),
		.initiator_depth = 0,
	};

	reinit_completion(&queue->cm_done);
	return nrdma_cm_step(queue, rdma_connect(queue->cm_id, &param),
			     RDMA_CM_EVENT_ESTABLISHED);
}

int nrdma_alloc_queue(struct nrdma_ctrl *ctrl, u16 qid, u16 size)
{
	struct nrdma_queue *queue = &ctrl->queues[qid];
	struct nvmf_ctrl_options *opts = ctrl->ctrl.opts;
	struct rdma_cm_id *id;
	int ret;

	memset(queue, 0, sizeof(*queue));
	queue->ctrl = ctrl;
	queue->qid = qid;
	queue->size = size;
	mutex_init(&queue->stop_lock);
	init_completion(&queue->cm_done);

	id = rdma_create_id(&init_net, nrdma_cm_handler, queue, RDMA_PS_TCP,
			    IB_QPT_RC);
	if (IS_ERR(id))
		return PTR_ERR(id);
	queue->cm_id = id;
	set_bit(NRDMA_Q_ALLOCATED, &queue->flags);
	if (opts->tos >= 0)
		rdma_set_service_type(id, opts->tos);

	ret = nrdma_cm_step(queue,
			    rdma_resolve_addr(id, ctrl->has_src ?
					      (struct sockaddr *)&ctrl->src_addr : NULL,
					      (struct sockaddr *)&ctrl->addr,
					      NRDMA_CM_TIMEOUT_MS),
			    RDMA_CM_EVENT_ADDR_RESOLVED);
	if (ret)
		goto fail;
	ret = nrdma_create_verbs(queue);
	if (ret)
		goto fail;
	reinit_completion(&queue->cm_done);
	ret = nrdma_cm_step(queue, rdma_resolve_route(id, NRDMA_CM_TIMEOUT_MS),
			    RDMA_CM_EVENT_ROUTE_RESOLVED);
	if (ret)
		goto fail;
	ret = nrdma_connect(queue);
	if (ret)
		goto fail;
	set_bit(NRDMA_Q_CONNECTED, &queue->flags);
	return 0;
fail:
	pr_err("nvme_rdma: queue %u to %pISpc: %d\n", qid, &ctrl->addr, ret);
	nrdma_free_queue(queue);
	return ret;
}

void nrdma_stop_queue(struct nrdma_queue *queue)
{
	if (!test_bit(NRDMA_Q_ALLOCATED, &queue->flags))
		return;
	mutex_lock(&queue->stop_lock);
	clear_bit(NRDMA_Q_LIVE, &queue->flags);
	if (test_and_clear_bit(NRDMA_Q_CONNECTED, &queue->flags)) {
		rdma_disconnect(queue->cm_id);
		ib_drain_qp(queue->cm_id->qp);
		queue->drained = true;
	}
	mutex_unlock(&queue->stop_lock);
}

void nrdma_free_queue(struct nrdma_queue *queue)
{
	struct nrdma_ctrl *ctrl = queue->ctrl;
	struct rdma_cm_id *id = queue->cm_id;

	if (!test_and_clear_bit(NRDMA_Q_ALLOCATED, &queue->flags))
		return;
	/* A queue that failed half-way may have posted receives: drain. */
	if (queue->qp_created && !queue->drained) {
		ib_drain_qp(id->qp);
		queue->drained = true;
	}
	clear_bit(NRDMA_Q_CONNECTED, &queue->flags);
	if (queue->qid == 0 && ctrl->aen_dma) {
		ib_dma_unmap_single(queue->pd->device, ctrl->aen_dma,
				    sizeof(*ctrl->aen_sqe), DMA_TO_DEVICE);
		ctrl->aen_dma = 0;
	}
	if (queue->mr_pool_ready) {
		ib_mr_pool_destroy(id->qp, &id->qp->rdma_mrs);
		queue->mr_pool_ready = false;
	}
	if (queue->qp_created) {
		rdma_destroy_qp(id);
		queue->qp_created = false;
	}
	if (queue->cq) {
		ib_cq_pool_put(queue->cq, queue->cq_size);
		queue->cq = NULL;
	}
	if (queue->pd) {
		nrdma_free_rsps(queue);
		ib_dealloc_pd(queue->pd);
		queue->pd = NULL;
	}
	rdma_destroy_id(id);
	queue->cm_id = NULL;
}
