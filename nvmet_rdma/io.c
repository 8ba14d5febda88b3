// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The data path of a queue's slot (nvmet_rdma.h draws a command's life):
 * the capsule's receive, the SGL that says where the data is, the RDMA
 * READs of a host write, and the response (RDMA WRITEs of a host read,
 * then the SEND of the completion).  Everything in the capsule comes from
 * the host and is checked before it is used: the descriptor's kind, its
 * length against MDTS and the capsule, its offset.  A failed completion
 * that is not a flush means the connection is broken: the queue closes.
 */
#include <ordma/compat.h>
#include "nvmet_rdma.h"

#define NVMET_RDMA_MAX_TRANSFER	((1U << NVMET_RDMA_MDTS) * SZ_4K)

static u32 nvmet_rdma_port_num(struct nvmet_rdma_slot *slot)
{
	return slot->queue->cm_id->port_num;
}

static struct ib_device *nvmet_rdma_dev(struct nvmet_rdma_slot *slot)
{
	return slot->queue->cm_id->device;
}

static void nvmet_rdma_fatal(struct nvmet_rdma_queue *queue, const char *what,
			     struct ib_wc *wc)
{
	if (wc->status != IB_WC_WR_FLUSH_ERR)
		pr_warn_ratelimited("nvmet_rdma: queue %u: %s failed, status %d: closing\n",
				    queue->qid, what, wc->status);
	nvmet_rdma_queue_close(queue);
}

int nvmet_rdma_post_recv(struct nvmet_rdma_slot *slot)
{
	struct ib_device *dev = nvmet_rdma_dev(slot);
	u32 i;

	ib_dma_sync_single_for_device(dev, slot->capsule_dma,
				      sizeof(*slot->capsule), DMA_FROM_DEVICE);
	for (i = 0; i < slot->queue->inline_pages; i++)
		ib_dma_sync_single_for_device(dev, slot->inline_dma[i],
					      PAGE_SIZE, DMA_FROM_DEVICE);
	return ib_post_recv(slot->queue->cm_id->qp, &slot->recv_wr, NULL);
}

/* Undo what mapping the command's data set up; the slot is idle after. */
void nvmet_rdma_slot_release(struct nvmet_rdma_slot *slot)
{
	struct nvmet_req *req = &slot->req;

	if (slot->rw_live) {
		rdma_rw_ctx_destroy(&slot->rw, slot->queue->cm_id->qp,
				    nvmet_rdma_port_num(slot), req->sg,
				    req->sg_cnt, nvmet_data_dir(req));
		slot->rw_live = false;
	}
	if (slot->sgls_allocated) {
		nvmet_req_free_sgls(req);
		slot->sgls_allocated = false;
	}
	req->sg = NULL;
	req->sg_cnt = 0;
	slot->busy = false;
}

/*
 * In-capsule data: @len bytes the host sent behind the command, in the
 * slot's own pages.  The Linux host only uses offset 0; another one is
 * refused rather than trusted.
 */
static u16 nvmet_rdma_map_inline(struct nvmet_rdma_slot *slot, u32 received)
{
	struct nvmet_req *req = &slot->req;
	struct nvme_sgl_desc *sgl = &req->cmd->common.dptr.sgl;
	u32 len = le32_to_cpu(sgl->length);
	u32 left, i;

	if (!nvme_is_write(req->cmd))
		return NVME_SC_INVALID_FIELD | NVME_STATUS_DNR;
	if (le64_to_cpu(sgl->addr))
		return NVME_SC_SGL_INVALID_OFFSET | NVME_STATUS_DNR;
	if (!len || len > slot->queue->inline_size ||
	    len > received - sizeof(struct nvme_command))
		return NVME_SC_SGL_INVALID_DATA | NVME_STATUS_DNR;

	sg_init_table(slot->inline_sg, slot->queue->inline_pages);
	for (i = 0, left = len; left; i++) {
		u32 chunk = min_t(u32, left, PAGE_SIZE);

		sg_set_page(&slot->inline_sg[i], slot->inline_pages[i], chunk, 0);
		left -= chunk;
	}
	sg_mark_end(&slot->inline_sg[i - 1]);
	req->sg = slot->inline_sg;
	req->sg_cnt = i;
	req->transfer_len = len;
	return 0;
}

/* A keyed SGL: the host's buffer, moved with RDMA READ or WRITE. */
static u16 nvmet_rdma_map_keyed(struct nvmet_rdma_slot *slot)
{
	struct nvmet_req *req = &slot->req;
	struct nvme_keyed_sgl_desc *ksgl = &req->cmd->common.dptr.ksgl;
	u64 addr = le64_to_cpu(ksgl->addr);
	u32 len = get_unaligned_le24(ksgl->length);
	u32 key = get_unaligned_le32(ksgl->key);
	int ret;

	if (!len)
		return 0;
	if (len > NVMET_RDMA_MAX_TRANSFER)
		return NVME_SC_SGL_INVALID_DATA | NVME_STATUS_DNR;
	req->transfer_len = len;
	if (nvmet_req_alloc_sgls(req))
		return NVME_SC_INTERNAL;
	slot->sgls_allocated = true;
	ret = rdma_rw_ctx_init(&slot->rw, slot->queue->cm_id->qp,
			       nvmet_rdma_port_num(slot), req->sg, req->sg_cnt,
			       0, addr, key, nvmet_data_dir(req));
	if (ret < 0) {
		nvmet_req_free_sgls(req);
		slot->sgls_allocated = false;
		return NVME_SC_INTERNAL;
	}
	slot->rw_live = true;
	if (ksgl->type == ((NVME_KEY_SGL_FMT_DATA_DESC << 4) |
			   NVME_SGL_FMT_INVALIDATE)) {
		slot->send_wr.opcode = IB_WR_SEND_WITH_INV;
		slot->send_wr.ex.invalidate_rkey = key;
	}
	return 0;
}

static u16 nvmet_rdma_map_data(struct nvmet_rdma_slot *slot, u32 received)
{
	struct nvme_command *cmd = slot->req.cmd;
	u8 type = cmd->common.dptr.sgl.type;

	switch (type >> 4) {
	case NVME_SGL_FMT_DATA_DESC:
		if ((type & 0xf) == NVME_SGL_FMT_OFFSET)
			return nvmet_rdma_map_inline(slot, received);
		break;
	case NVME_KEY_SGL_FMT_DATA_DESC:
		switch (type & 0xf) {
		case NVME_SGL_FMT_ADDRESS:
		case NVME_SGL_FMT_INVALIDATE:
			return nvmet_rdma_map_keyed(slot);
		}
		break;
	}
	return NVME_SC_SGL_INVALID_TYPE | NVME_STATUS_DNR;
}

static void nvmet_rdma_read_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct nvmet_rdma_slot *slot =
		container_of(wc->wr_cqe, struct nvmet_rdma_slot, read_cqe);

	if (wc->status != IB_WC_SUCCESS) {
		/* The host's data never arrived: no response can follow. */
		nvmet_req_uninit(&slot->req);
		nvmet_rdma_slot_release(slot);
		nvmet_rdma_fatal(slot->queue, "RDMA READ", wc);
		return;
	}
	slot->req.execute(&slot->req);
}

static void nvmet_rdma_recv_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct nvmet_rdma_slot *slot =
		container_of(wc->wr_cqe, struct nvmet_rdma_slot, recv_cqe);
	struct nvmet_rdma_queue *queue = slot->queue;
	struct ib_device *dev = nvmet_rdma_dev(slot);
	struct nvmet_req *req = &slot->req;
	u16 status;
	u32 i;

	if (wc->status != IB_WC_SUCCESS) {
		nvmet_rdma_fatal(queue, "receive", wc);
		return;
	}
	/* Teardown has begun: the port may be going, no new command. */
	if (test_bit(NVMET_RDMA_Q_CLOSING, &queue->flags))
		return;
	if (wc->byte_len < sizeof(struct nvme_command)) {
		pr_warn_ratelimited("nvmet_rdma: queue %u: capsule of %u bytes: closing\n",
				    queue->qid, wc->byte_len);
		nvmet_rdma_queue_close(queue);
		return;
	}
	ib_dma_sync_single_for_cpu(dev, slot->capsule_dma,
				   sizeof(*slot->capsule), DMA_FROM_DEVICE);
	for (i = 0; i < queue->inline_pages; i++)
		ib_dma_sync_single_for_cpu(dev, slot->inline_dma[i], PAGE_SIZE,
					   DMA_FROM_DEVICE);

	slot->busy = true;
	slot->send_wr.opcode = IB_WR_SEND;
	slot->send_wr.ex.invalidate_rkey = 0;
	req->cmd = slot->capsule;
	req->cqe = slot->cqe;
	req->port = queue->nport;
	req->sg = NULL;
	req->sg_cnt = 0;
	/* On failure nvmet has already answered through queue_response. */
	if (!nvmet_req_init(req, &queue->nvme_cq, &queue->nvme_sq,
			    &nvmet_rdma_ops))
		return;

	status = nvmet_rdma_map_data(slot, wc->byte_len);
	if (status) {
		nvmet_req_complete(req, status);
		return;
	}
	if (slot->rw_live && nvmet_data_dir(req) == DMA_FROM_DEVICE) {
		int ret = rdma_rw_ctx_post(&slot->rw, queue->cm_id->qp,
					   nvmet_rdma_port_num(slot),
					   &slot->read_cqe, NULL);

		if (ret) {
			nvmet_req_uninit(req);
			nvmet_rdma_slot_release(slot);
			pr_warn_ratelimited("nvmet_rdma: queue %u: RDMA READ post: %d\n",
					    queue->qid, ret);
			nvmet_rdma_queue_close(queue);
		}
		return;
	}
	req->execute(req);
}

static void nvmet_rdma_send_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct nvmet_rdma_slot *slot =
		container_of(wc->wr_cqe, struct nvmet_rdma_slot, send_cqe);
	struct nvmet_rdma_queue *queue = slot->queue;

	nvmet_rdma_slot_release(slot);
	if (wc->status != IB_WC_SUCCESS) {
		nvmet_rdma_fatal(queue, "response SEND", wc);
		return;
	}
	if (test_bit(NVMET_RDMA_Q_CLOSING, &queue->flags))
		return;
	if (nvmet_rdma_post_recv(slot))
		nvmet_rdma_queue_close(queue);
}

void nvmet_rdma_queue_response(struct nvmet_req *req)
{
	struct nvmet_rdma_slot *slot =
		container_of(req, struct nvmet_rdma_slot, req);
	struct nvmet_rdma_queue *queue = slot->queue;
	struct ib_send_wr *first = &slot->send_wr;
	int ret;

	if (test_bit(NVMET_RDMA_Q_CLOSING, &queue->flags)) {
		/* The QP is drained or going: nothing will complete a post. */
		nvmet_rdma_slot_release(slot);
		return;
	}
	if (slot->rw_live && nvmet_data_dir(req) == DMA_TO_DEVICE &&
	    !req->cqe->status)
		first = rdma_rw_ctx_wrs(&slot->rw, queue->cm_id->qp,
					nvmet_rdma_port_num(slot), NULL,
					&slot->send_wr);
	ib_dma_sync_single_for_device(nvmet_rdma_dev(slot), slot->cqe_dma,
				      sizeof(*slot->cqe), DMA_TO_DEVICE);
	ret = ib_post_send(queue->cm_id->qp, first, NULL);
	if (ret) {
		pr_warn_ratelimited("nvmet_rdma: queue %u: response post: %d\n",
				    queue->qid, ret);
		nvmet_rdma_slot_release(slot);
		nvmet_rdma_queue_close(queue);
	}
}

/* The WRs of a slot whose buffers are mapped; called once per queue. */
void nvmet_rdma_slot_setup(struct nvmet_rdma_slot *slot)
{
	struct nvmet_rdma_queue *queue = slot->queue;
	u32 i;

	slot->recv_cqe.done = nvmet_rdma_recv_done;
	slot->send_cqe.done = nvmet_rdma_send_done;
	slot->read_cqe.done = nvmet_rdma_read_done;

	slot->recv_sge[0].addr = slot->capsule_dma;
	slot->recv_sge[0].length = sizeof(*slot->capsule);
	slot->recv_sge[0].lkey = queue->pd->local_dma_lkey;
	for (i = 0; i < queue->inline_pages; i++) {
		slot->recv_sge[1 + i].addr = slot->inline_dma[i];
		slot->recv_sge[1 + i].length = PAGE_SIZE;
		slot->recv_sge[1 + i].lkey = queue->pd->local_dma_lkey;
	}
	slot->recv_wr.wr_cqe = &slot->recv_cqe;
	slot->recv_wr.sg_list = slot->recv_sge;
	slot->recv_wr.num_sge = 1 + queue->inline_pages;

	slot->send_sge.addr = slot->cqe_dma;
	slot->send_sge.length = sizeof(*slot->cqe);
	slot->send_sge.lkey = queue->pd->local_dma_lkey;
	slot->send_wr.wr_cqe = &slot->send_cqe;
	slot->send_wr.sg_list = &slot->send_sge;
	slot->send_wr.num_sge = 1;
	slot->send_wr.opcode = IB_WR_SEND;
	slot->send_wr.send_flags = IB_SEND_SIGNALED;
}
