// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Commands: blk-mq's queue_rq builds the capsule (nvme_setup_cmd), maps
 * the data and describes it in the capsule's SGL, then posts
 *   [REG_MR ->] SEND of the capsule [+ in-capsule data SGEs]
 * and the response comes back as a receive.  The data descriptor:
 *   no data:           a keyed data block of length 0;
 *   in-capsule write:  an offset data block (offset 0: the target's
 *                      ICDOFF must be 0), I/O queues only;
 *   otherwise:         a keyed data block naming the MR's iova and rkey,
 *                      with the "invalidate" subtype, so that the target
 *                      may answer with SEND_WITH_INV.
 * A response that did not invalidate the MR gets a LOCAL_INV, and the
 * request completes once that has.
 */
#include <linux/blk-mq.h>
#include "nvme_rdma.h"

static void nrdma_wr_error(struct nrdma_queue *queue, struct ib_wc *wc,
			   const char *what)
{
	if (wc->status != IB_WC_WR_FLUSH_ERR)
		pr_err_ratelimited("nvme_rdma: queue %u: %s failed: status %d\n",
				   queue->qid, what, wc->status);
	nrdma_error_recovery(queue->ctrl);
}

static struct blk_mq_tags *nrdma_tags(struct nrdma_queue *queue)
{
	struct nrdma_ctrl *ctrl = queue->ctrl;

	if (queue->qid == 0)
		return ctrl->admin_tag_set.tags[0];
	return ctrl->tag_set.tags[queue->qid - 1];
}

static void nrdma_complete_rq(struct request *rq);

static void nrdma_put_ref(struct nrdma_request *req)
{
	struct request *rq = blk_mq_rq_from_pdu(req);

	if (!atomic_dec_and_test(&req->ref))
		return;
	/* false: not handed to another CPU, ours to complete here. */
	if (!nvme_try_complete_req(rq, req->status, req->result))
		nrdma_complete_rq(rq);
}

static void nrdma_send_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct nrdma_request *req =
		container_of(wc->wr_cqe, struct nrdma_request, send_cqe);

	/* A failed SEND leaves the request to the teardown's cancel. */
	if (wc->status != IB_WC_SUCCESS) {
		nrdma_wr_error(req->queue, wc, "SEND");
		return;
	}
	nrdma_put_ref(req);
}

/* Unsignalled: only a failure (or a flush) reaches this. */
static void nrdma_reg_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct nrdma_request *req =
		container_of(wc->wr_cqe, struct nrdma_request, reg_cqe);

	if (wc->status != IB_WC_SUCCESS)
		nrdma_wr_error(req->queue, wc, "REG_MR");
}

static void nrdma_inv_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct nrdma_request *req =
		container_of(wc->wr_cqe, struct nrdma_request, inv_cqe);

	if (wc->status != IB_WC_SUCCESS) {
		nrdma_wr_error(req->queue, wc, "LOCAL_INV");
		return;
	}
	req->mr_valid = false;
	nrdma_put_ref(req);
}

void nrdma_aen_send_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct nrdma_ctrl *ctrl =
		container_of(wc->wr_cqe, struct nrdma_ctrl, aen_cqe);

	if (wc->status != IB_WC_SUCCESS)
		nrdma_wr_error(&ctrl->queues[0], wc, "AEN SEND");
}

static int nrdma_post_local_inv(struct nrdma_request *req)
{
	struct ib_send_wr *wr = &req->inv_wr;

	memset(wr, 0, sizeof(*wr));
	req->inv_cqe.done = nrdma_inv_done;
	wr->wr_cqe = &req->inv_cqe;
	wr->opcode = IB_WR_LOCAL_INV;
	wr->send_flags = IB_SEND_SIGNALED;
	wr->ex.invalidate_rkey = req->mr->rkey;
	return ib_post_send(req->queue->cm_id->qp, wr, NULL);
}

/* One response capsule, already copied out of the receive buffer. */
static void nrdma_process_rsp(struct nrdma_queue *queue,
			      struct nvme_completion *cqe,
			      const struct ib_wc *wc)
{
	struct nrdma_ctrl *ctrl = queue->ctrl;
	struct nrdma_request *req;
	struct request *rq;

	if (nvme_is_aen_req(queue->qid, cqe->command_id)) {
		if (wc->wc_flags & IB_WC_WITH_INVALIDATE) {
			pr_err_ratelimited("nvme_rdma: AEN response invalidated a key\n");
			nrdma_error_recovery(ctrl);
			return;
		}
		nvme_complete_async_event(&ctrl->ctrl, cqe->status,
					  &cqe->result);
		return;
	}
	rq = nvme_find_rq(nrdma_tags(queue), cqe->command_id);
	if (!rq) {
		pr_err_ratelimited("nvme_rdma: queue %u: response for unknown command id %#x\n",
				   queue->qid, cqe->command_id);
		nrdma_error_recovery(ctrl);
		return;
	}
	req = blk_mq_rq_to_pdu(rq);
	if (req->rsp_seen || req->queue != queue) {
		pr_err_ratelimited("nvme_rdma: queue %u: unexpected response for command id %#x\n",
				   queue->qid, cqe->command_id);
		nrdma_error_recovery(ctrl);
		return;
	}
	req->rsp_seen = true;
	req->status = cqe->status;
	req->result = cqe->result;

	if (wc->wc_flags & IB_WC_WITH_INVALIDATE) {
		if (!req->mr || !req->mr_valid ||
		    wc->ex.invalidate_rkey != req->mr->rkey) {
			pr_err_ratelimited("nvme_rdma: queue %u: command id %#x: bogus remote invalidation of key %#x\n",
					   queue->qid, cqe->command_id,
					   wc->ex.invalidate_rkey);
			nrdma_error_recovery(ctrl);
			return;
		}
		req->mr_valid = false;
	} else if (req->mr_valid) {
		if (nrdma_post_local_inv(req)) {
			pr_err_ratelimited("nvme_rdma: queue %u: cannot post LOCAL_INV\n",
					   queue->qid);
			nrdma_error_recovery(ctrl);
		}
		/* inv_done drops the response's reference. */
		return;
	}
	nrdma_put_ref(req);
}

void nrdma_recv_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct nrdma_rsp *rsp = container_of(wc->wr_cqe, struct nrdma_rsp, cqe);
	struct nrdma_queue *queue = rsp->queue;
	struct nvme_completion cqe;

	if (wc->status != IB_WC_SUCCESS) {
		nrdma_wr_error(queue, wc, "RECV");
		return;
	}
	ib_dma_sync_single_for_cpu(queue->pd->device, rsp->dma,
				   sizeof(*rsp->buf), DMA_FROM_DEVICE);
	if (wc->byte_len < sizeof(cqe)) {
		pr_err_ratelimited("nvme_rdma: queue %u: response of %u bytes\n",
				   queue->qid, wc->byte_len);
		nrdma_error_recovery(queue->ctrl);
		return;
	}
	/* The buffer is the target's again once reposted. */
	memcpy(&cqe, rsp->buf, sizeof(cqe));
	if (nrdma_post_recv(rsp)) {
		pr_err_ratelimited("nvme_rdma: queue %u: cannot repost a receive\n",
				   queue->qid);
		nrdma_error_recovery(queue->ctrl);
	}
	nrdma_process_rsp(queue, &cqe, wc);
}

static void nrdma_set_keyed_sgl(struct nvme_command *c, u64 addr, u32 len,
				u32 key, u8 subtype)
{
	struct nvme_keyed_sgl_desc *sg = &c->common.dptr.ksgl;

	sg->addr = cpu_to_le64(addr);
	put_unaligned_le24(len, sg->length);
	put_unaligned_le32(key, sg->key);
	sg->type = (NVME_KEY_SGL_FMT_DATA_DESC << 4) | subtype;
}

static void nrdma_unmap_data(struct nrdma_request *req, struct request *rq)
{
	struct nrdma_queue *queue = req->queue;

	if (!req->data_mapped)
		return;
	if (req->mr) {
		ib_mr_pool_put(queue->cm_id->qp, &queue->cm_id->qp->rdma_mrs,
			       req->mr);
		req->mr = NULL;
	}
	ib_dma_unmap_sg(req->dev, req->sgt.sgl, req->sgt.nents, rq_dma_dir(rq));
	sg_free_table_chained(&req->sgt, NRDMA_INLINE_SG);
	req->data_mapped = false;
}

/* The data of @rq, described in the capsule; fills req->sge[1..]. */
static int nrdma_map_data(struct nrdma_queue *queue, struct request *rq,
			  struct nrdma_request *req, u32 *num_sge)
{
	struct nrdma_ctrl *ctrl = queue->ctrl;
	struct nvme_command *c = &req->sqe;
	struct ib_device *dev = req->dev;
	struct scatterlist *sg;
	int count, n, i, ret;
	u32 bytes;

	*num_sge = 1;
	c->common.flags |= NVME_CMD_SGL_METABUF;
	if (!blk_rq_nr_phys_segments(rq)) {
		nrdma_set_keyed_sgl(c, 0, 0, 0, 0);
		return 0;
	}

	req->sgt.sgl = req->first_sgl;
	ret = sg_alloc_table_chained(&req->sgt, blk_rq_nr_phys_segments(rq),
				     req->first_sgl, NRDMA_INLINE_SG);
	if (ret)
		return -ENOMEM;
	req->sgt.nents = blk_rq_map_sg(rq->q, rq, req->sgt.sgl);
	count = ib_dma_map_sg(dev, req->sgt.sgl, req->sgt.nents,
			      rq_dma_dir(rq));
	if (count <= 0) {
		sg_free_table_chained(&req->sgt, NRDMA_INLINE_SG);
		return -EIO;
	}
	req->data_mapped = true;

	bytes = blk_rq_payload_bytes(rq);
	if (rq_data_dir(rq) == WRITE && queue->qid &&
	    bytes <= ctrl->inline_bytes && count <= queue->inline_sges) {
		struct nvme_sgl_desc *d = &c->common.dptr.sgl;

		for_each_sg(req->sgt.sgl, sg, count, i) {
			req->sge[1 + i].addr = sg_dma_address(sg);
			req->sge[1 + i].length = sg_dma_len(sg);
			req->sge[1 + i].lkey = queue->pd->local_dma_lkey;
		}
		*num_sge = 1 + count;
		d->addr = cpu_to_le64(ctrl->ctrl.icdoff);
		d->length = cpu_to_le32(bytes);
		d->type = (NVME_SGL_FMT_DATA_DESC << 4) | NVME_SGL_FMT_OFFSET;
		return 0;
	}

	req->mr = ib_mr_pool_get(queue->cm_id->qp, &queue->cm_id->qp->rdma_mrs);
	if (!req->mr)
		return -EAGAIN;
	n = ib_map_mr_sg(req->mr, req->sgt.sgl, count, NULL, SZ_4K);
	if (n != count) {
		pr_err_ratelimited("nvme_rdma: queue %u: %d of %d entries fit the MR\n",
				   queue->qid, n, count);
		return n < 0 ? n : -EINVAL;
	}
	ib_update_fast_reg_key(req->mr, ib_inc_rkey(req->mr->rkey));

	memset(&req->reg_wr, 0, sizeof(req->reg_wr));
	req->reg_cqe.done = nrdma_reg_done;
	req->reg_wr.wr.wr_cqe = &req->reg_cqe;
	req->reg_wr.wr.opcode = IB_WR_REG_MR;
	req->reg_wr.mr = req->mr;
	req->reg_wr.key = req->mr->rkey;
	/* The target reads what we write, writes what we read: no more. */
	req->reg_wr.access = rq_data_dir(rq) == WRITE ?
		IB_ACCESS_REMOTE_READ :
		IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_WRITE;
	req->mr_valid = true;

	nrdma_set_keyed_sgl(c, req->mr->iova, req->mr->length, req->mr->rkey,
			    NVME_SGL_FMT_INVALIDATE);
	return 0;
}

static blk_status_t nrdma_queue_rq(struct blk_mq_hw_ctx *hctx,
				   const struct blk_mq_queue_data *bd)
{
	struct nrdma_queue *queue = hctx->driver_data;
	struct nrdma_ctrl *ctrl = queue->ctrl;
	struct nvme_ns *ns = hctx->queue->queuedata;
	struct request *rq = bd->rq;
	struct nrdma_request *req = blk_mq_rq_to_pdu(rq);
	struct ib_send_wr *first;
	blk_status_t sts;
	u32 num_sge;
	u64 dma;
	int ret;

	if (!test_bit(NRDMA_Q_CONNECTED, &queue->flags) ||
	    !nvme_check_ready(&ctrl->ctrl, rq,
			      test_bit(NRDMA_Q_LIVE, &queue->flags)))
		return nvme_fail_nonready_command(&ctrl->ctrl, rq);

	req->queue = queue;
	req->dev = queue->pd->device;
	req->mr = NULL;
	req->mr_valid = false;
	req->rsp_seen = false;
	req->data_mapped = false;
	req->sqe_dma = 0;
	atomic_set(&req->ref, 2);

	sts = nvme_setup_cmd(ns, rq);
	if (sts)
		return sts;
	nvme_start_request(rq);

	ret = nrdma_map_data(queue, rq, req, &num_sge);
	if (ret)
		goto fail;

	dma = ib_dma_map_single(req->dev, &req->sqe, sizeof(req->sqe),
				DMA_TO_DEVICE);
	if (ib_dma_mapping_error(req->dev, dma)) {
		ret = -ENOMEM;
		goto fail;
	}
	req->sqe_dma = dma;
	req->sge[0].addr = dma;
	req->sge[0].length = sizeof(req->sqe);
	req->sge[0].lkey = queue->pd->local_dma_lkey;

	memset(&req->send_wr, 0, sizeof(req->send_wr));
	req->send_cqe.done = nrdma_send_done;
	req->send_wr.wr_cqe = &req->send_cqe;
	req->send_wr.sg_list = req->sge;
	req->send_wr.num_sge = num_sge;
	req->send_wr.opcode = IB_WR_SEND;
	req->send_wr.send_flags = IB_SEND_SIGNALED;
	first = &req->send_wr;
	if (req->mr) {
		req->reg_wr.wr.next = &req->send_wr;
		first = &req->reg_wr.wr;
	}
	ret = ib_post_send(queue->cm_id->qp, first, NULL);
	if (ret) {
		pr_err_ratelimited("nvme_rdma: queue %u: post of a command failed: %d\n",
				   queue->qid, ret);
		goto fail;
	}
	return BLK_STS_OK;

fail:
	if (req->sqe_dma) {
		ib_dma_unmap_single(req->dev, req->sqe_dma, sizeof(req->sqe),
				    DMA_TO_DEVICE);
		req->sqe_dma = 0;
	}
	req->mr_valid = false;
	nrdma_unmap_data(req, rq);
	nvme_cleanup_cmd(rq);
	if (ret == -ENOMEM || ret == -EAGAIN)
		return BLK_STS_RESOURCE;
	if (ret == -EIO)
		return nvme_host_path_error(rq);
	return BLK_STS_IOERR;
}

static void nrdma_complete_rq(struct request *rq)
{
	struct nrdma_request *req = blk_mq_rq_to_pdu(rq);

	nrdma_unmap_data(req, rq);
	if (req->sqe_dma) {
		ib_dma_unmap_single(req->dev, req->sqe_dma, sizeof(req->sqe),
				    DMA_TO_DEVICE);
		req->sqe_dma = 0;
	}
	nvme_complete_rq(rq);
}

static enum blk_eh_timer_return nrdma_timeout(struct request *rq)
{
	struct nrdma_request *req = blk_mq_rq_to_pdu(rq);
	struct nrdma_queue *queue = req->queue;
	struct nrdma_ctrl *ctrl = queue->ctrl;

	pr_warn_ratelimited("nvme_rdma: queue %u: command id %#x (opcode %#x) timed out\n",
			    queue->qid, rq->tag, req->sqe.common.opcode);
	if (nvme_ctrl_state(&ctrl->ctrl) != NVME_CTRL_LIVE) {
		/*
		 * Connecting or being torn down: whoever waits for this
		 * command fails it.  Stopping the queue first means no
		 * completion of it can run any more.
		 */
		nrdma_stop_queue(queue);
		nvmf_complete_timed_out_request(rq);
		return BLK_EH_DONE;
	}
	nrdma_error_recovery(ctrl);
	return BLK_EH_RESET_TIMER;
}

static int nrdma_init_request(struct blk_mq_tag_set *set, struct request *rq,
			      unsigned int hctx_idx, unsigned int numa_node)
{
	struct nrdma_ctrl *ctrl = to_nrdma_ctrl(set->driver_data);
	struct nrdma_request *req = blk_mq_rq_to_pdu(rq);

	nvme_req(rq)->ctrl = &ctrl->ctrl;
	nvme_req(rq)->cmd = &req->sqe;
	return 0;
}

static int nrdma_init_hctx(struct blk_mq_hw_ctx *hctx, void *data,
			   unsigned int hctx_idx)
{
	struct nrdma_ctrl *ctrl = to_nrdma_ctrl(data);

	if (hctx_idx + 1 >= ctrl->queues_alloc)
		return -EINVAL;
	hctx->driver_data = &ctrl->queues[hctx_idx + 1];
	return 0;
}

static int nrdma_init_admin_hctx(struct blk_mq_hw_ctx *hctx, void *data,
				 unsigned int hctx_idx)
{
	struct nrdma_ctrl *ctrl = to_nrdma_ctrl(data);

	hctx->driver_data = &ctrl->queues[0];
	return 0;
}

const struct blk_mq_ops nrdma_mq_ops = {
	.queue_rq = nrdma_queue_rq,
	.complete = nrdma_complete_rq,
	.init_request = nrdma_init_request,
	.init_hctx = nrdma_init_hctx,
	.timeout = nrdma_timeout,
};

const struct blk_mq_ops nrdma_admin_mq_ops = {
	.queue_rq = nrdma_queue_rq,
	.complete = nrdma_complete_rq,
	.init_request = nrdma_init_request,
	.init_hctx = nrdma_init_admin_hctx,
	.timeout = nrdma_timeout,
};

void nrdma_submit_async_event(struct nvme_ctrl *nctrl)
{
	struct nrdma_ctrl *ctrl = to_nrdma_ctrl(nctrl);
	struct nrdma_queue *queue = &ctrl->queues[0];
	struct nvme_command *c = ctrl->aen_sqe;
	struct ib_send_wr wr = {};
	struct ib_sge sge;
	int ret;

	if (!test_bit(NRDMA_Q_LIVE, &queue->flags) || !ctrl->aen_dma)
		return;
	ib_dma_sync_single_for_cpu(queue->pd->device, ctrl->aen_dma,
				   sizeof(*c), DMA_TO_DEVICE);
	memset(c, 0, sizeof(*c));
	c->common.opcode = nvme_admin_async_event;
	c->common.command_id = NVME_AQ_BLK_MQ_DEPTH;
	c->common.flags |= NVME_CMD_SGL_METABUF;
	nrdma_set_keyed_sgl(c, 0, 0, 0, 0);
	ib_dma_sync_single_for_device(queue->pd->device, ctrl->aen_dma,
				      sizeof(*c), DMA_TO_DEVICE);

	sge.addr = ctrl->aen_dma;
	sge.length = sizeof(*c);
	sge.lkey = queue->pd->local_dma_lkey;
	ctrl->aen_cqe.done = nrdma_aen_send_done;
	wr.wr_cqe = &ctrl->aen_cqe;
	wr.sg_list = &sge;
	wr.num_sge = 1;
	wr.opcode = IB_WR_SEND;
	wr.send_flags = IB_SEND_SIGNALED;
	ret = ib_post_send(queue->cm_id->qp, &wr, NULL);
	if (ret)
		pr_err_ratelimited("nvme_rdma: AEN post failed: %d\n", ret);
}
