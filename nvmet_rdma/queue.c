// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Queues: one per accepted connection.  A CONNECT_REQUEST carries the
 * NVMe/RDMA private data (recfmt 0, the queue id, hrqsize, hsqsize);
 * anything else is rejected with the NVMe/RDMA reject status.  The queue
 * gets its own PD, room on a pooled CQ, an RC QP sized for its slots and
 * for the RDMA READ/WRITE work requests of a full queue of MDTS-sized
 * transfers, and every slot's receive posted before the accept.
 *
 * Teardown is claimed once (NVMET_RDMA_Q_CLOSING) by whoever sees the end
 * first: a CM event, a failed completion, nvmet (delete_ctrl), port
 * removal or module exit.  It runs on nvmet's own nvmet_wq, never in a CM
 * handler, because it destroys the cm id; DEVICE_REMOVAL is the
 * exception: the id is detached from its device when that handler
 * returns, so the handler frees the queue's verbs objects itself.
 * nvmet_wq because nvmet flushes it before it frees a port (configfs
 * rmdir, no lock held): remove_port runs under nvmet_config_sem, which a
 * Connect being executed takes, so it must not wait for a release that
 * waits for that Connect.  The order is: the QP to ERR (nothing more
 * reaches the wire, every WR posted flushes), destroy nvmet's SQ (waits
 * for the commands still executing; a response that raced with the
 * closing is posted to the dead QP and flushes), drain (every flush has
 * been handled), release what slots still hold while the QP (their rw
 * contexts' device) exists, then the QP, the CQ room, the buffers, the PD.
 */
#include <linux/slab.h>
#include "nvmet_rdma.h"

static DEFINE_MUTEX(nvmet_rdma_queue_mutex);
static LIST_HEAD(nvmet_rdma_queues);
static unsigned int nvmet_rdma_queue_count;

static void nvmet_rdma_free_slots(struct nvmet_rdma_queue *queue)
{
	struct ib_device *dev = queue->pd->device;
	u32 i, j;

	if (!queue->slots)
		return;
	for (i = 0; i < queue->size; i++) {
		struct nvmet_rdma_slot *slot = &queue->slots[i];

		if (slot->capsule_dma)
			ib_dma_unmap_single(dev, slot->capsule_dma,
					    sizeof(*slot->capsule),
					    DMA_FROM_DEVICE);
		kfree(slot->capsule);
		if (slot->cqe_dma)
			ib_dma_unmap_single(dev, slot->cqe_dma,
					    sizeof(*slot->cqe), DMA_TO_DEVICE);
		kfree(slot->cqe);
		for (j = 0; j < queue->inline_pages; j++) {
			if (slot->inline_dma[j])
				ib_dma_unmap_single(dev, slot->inline_dma[j],
						    PAGE_SIZE, DMA_FROM_DEVICE);
			if (slot->inline_pages[j])
				__free_page(slot->inline_pages[j]);
		}
	}
	kvfree(queue->slots);
	queue->slots = NULL;
}

static int nvmet_rdma_map_buf(struct ib_device *dev, void *buf, size_t len,
			      enum dma_data_direction dir, u64 *dma)
{
	*dma = ib_dma_map_single(dev, buf, len, dir);
	if (ib_dma_mapping_error(dev, *dma)) {
		*dma = 0;
		return -ENOMEM;
	}
	return 0;
}

static int nvmet_rdma_alloc_slots(struct nvmet_rdma_queue *queue)
{
	struct ib_device *dev = queue->pd->device;
	u32 i, j;

	queue->slots = kvcalloc(queue->size, sizeof(*queue->slots), GFP_KERNEL);
	if (!queue->slots)
		return -ENOMEM;
	for (i = 0; i < queue->size; i++) {
		struct nvmet_rdma_slot *slot = &queue->slots[i];

		slot->queue = queue;
		slot->capsule = kzalloc(sizeof(*slot->capsule), GFP_KERNEL);
		slot->cqe = kzalloc(sizeof(*slot->cqe), GFP_KERNEL);
		if (!slot->capsule || !slot->cqe)
			return -ENOMEM;
		if (nvmet_rdma_map_buf(dev, slot->capsule,
				       sizeof(*slot->capsule), DMA_FROM_DEVICE,
				       &slot->capsule_dma) ||
		    nvmet_rdma_map_buf(dev, slot->cqe, sizeof(*slot->cqe),
				       DMA_TO_DEVICE, &slot->cqe_dma))
			return -ENOMEM;
		for (j = 0; j < queue->inline_pages; j++) {
			slot->inline_pages[j] = alloc_page(GFP_KERNEL);
			if (!slot->inline_pages[j] ||
			    nvmet_rdma_map_buf(dev,
					       page_address(slot->inline_pages[j]),
					       PAGE_SIZE, DMA_FROM_DEVICE,
					       &slot->inline_dma[j]))
				return -ENOMEM;
		}
		nvmet_rdma_slot_setup(slot);
	}
	return 0;
}

/* WRs one command may need on the send queue beyond its response SEND. */
static u32 nvmet_rdma_rw_wrs_per_cmd(struct ib_device *dev, u32 port)
{
	u32 pages = 1U << NVMET_RDMA_MDTS;
	u32 send_sge = max(dev->attrs.max_send_sge, 1);

	/* +1: a transfer that does not start on a page boundary. */
	return max(rdma_rw_mr_factor(dev, port, pages + 1),
		   DIV_ROUND_UP(pages + 1, send_sge));
}

/* Every verbs object of the queue, in the reverse order of creation. */
static void nvmet_rdma_free_verbs(struct nvmet_rdma_queue *queue)
{
	u32 i;

	/* Drained: no completion runs any more; release what a lost post left. */
	for (i = 0; queue->slots && i < queue->size; i++)
		if (queue->slots[i].busy || queue->slots[i].rw_live ||
		    queue->slots[i].sgls_allocated)
			nvmet_rdma_slot_release(&queue->slots[i]);
	if (queue->qp_created) {
		rdma_destroy_qp(queue->cm_id);
		queue->qp_created = false;
	}
	if (queue->cq) {
		ib_cq_pool_put(queue->cq, queue->cq_size);
		queue->cq = NULL;
	}
	if (queue->pd) {
		nvmet_rdma_free_slots(queue);
		ib_dealloc_pd(queue->pd);
		queue->pd = NULL;
	}
}

static int nvmet_rdma_create_verbs(struct nvmet_rdma_queue *queue)
{
	struct rdma_cm_id *id = queue->cm_id;
	struct ib_device *dev = id->device;
	struct ib_qp_init_attr init = {};
	u32 rw_wrs, i;
	int ret;

	queue->pd = ib_alloc_pd(dev, 0);
	if (IS_ERR(queue->pd)) {
		ret = PTR_ERR(queue->pd);
		queue->pd = NULL;
		return ret;
	}
	ret = nvmet_rdma_alloc_slots(queue);
	if (ret)
		return ret;

	rw_wrs = nvmet_rdma_rw_wrs_per_cmd(dev, id->port_num);
	/*
	 * A slot has at most its receive, or its RDMA READs, or its RDMA
	 * WRITEs and response SEND posted; unsignalled WRs complete too when
	 * the QP flushes them.  +2 for the drain's WRs.
	 */
	queue->cq_size = queue->size * (rw_wrs + 1) + 2;
	queue->cq = ib_cq_pool_get(dev, queue->cq_size,
				   dev->num_comp_vectors > 0 ?
				   queue->qid % dev->num_comp_vectors : -1,
				   IB_POLL_WORKQUEUE);
	if (IS_ERR(queue->cq)) {
		ret = PTR_ERR(queue->cq);
		queue->cq = NULL;
		return ret;
	}

	init.send_cq = queue->cq;
	init.recv_cq = queue->cq;
	init.qp_type = IB_QPT_RC;
	init.sq_sig_type = IB_SIGNAL_REQ_WR;
	init.cap.max_send_wr = queue->size + 1;
	init.cap.max_recv_wr = queue->size + 1;
	init.cap.max_rdma_ctxs = queue->size * rw_wrs;
	init.cap.max_send_sge = max(dev->attrs.max_send_sge, 1);
	init.cap.max_recv_sge = 1 + queue->inline_pages;
	init.qp_context = queue;
	ret = rdma_create_qp(id, queue->pd, &init);
	if (ret)
		return ret;
	queue->qp_created = true;

	for (i = 0; i < queue->size; i++) {
		ret = nvmet_rdma_post_recv(&queue->slots[i]);
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * The verbs side of teardown: after it, no completion of the queue runs.
 * @drained is completed before the first call that takes the cm id's
 * handler lock (rdma_destroy_qp()), which a DEVICE_REMOVAL handler
 * waiting for the drain holds.
 */
static void nvmet_rdma_queue_quiesce(struct nvmet_rdma_queue *queue,
				     bool sq_live, struct completion *drained)
{
	struct ib_qp_attr err = { .qp_state = IB_QPS_ERR };

	cancel_delayed_work_sync(&queue->connect_timeout);
	clear_bit(NVMET_RDMA_Q_LIVE, &queue->flags);
	if (queue->qp_created &&
	    ib_modify_qp(queue->cm_id->qp, &err, IB_QP_STATE))
		pr_warn_ratelimited("nvmet_rdma: queue %u: QP not moved to ERR\n",
				    queue->qid);
	if (sq_live)
		nvmet_sq_destroy(&queue->nvme_sq);
	if (queue->qp_created)
		ib_drain_qp(queue->cm_id->qp);
	if (drained)
		complete(drained);
	nvmet_rdma_free_verbs(queue);
}

static void nvmet_rdma_queue_unlist(struct nvmet_rdma_queue *queue)
{
	mutex_lock(&nvmet_rdma_queue_mutex);
	list_del(&queue->entry);
	nvmet_rdma_queue_count--;
	mutex_unlock(&nvmet_rdma_queue_mutex);
}

static void nvmet_rdma_release_work(struct work_struct *work)
{
	struct nvmet_rdma_queue *queue =
		container_of(work, struct nvmet_rdma_queue, release_work);

	nvmet_rdma_queue_quiesce(queue, true, &queue->drained);
	rdma_disconnect(queue->cm_id);
	nvmet_rdma_queue_unlist(queue);
	rdma_destroy_id(queue->cm_id);
	kfree(queue);
}

/* A queue nvmet never saw a Connect on would hold its slots forever. */
static void nvmet_rdma_connect_timeout(struct work_struct *work)
{
	struct nvmet_rdma_queue *queue = container_of(to_delayed_work(work),
			struct nvmet_rdma_queue, connect_timeout);

	if (READ_ONCE(queue->nvme_sq.ctrl))
		return;
	pr_info_ratelimited("nvmet_rdma: queue %u: no Connect in %u s: closing\n",
			    queue->qid, NVMET_RDMA_CONNECT_TIMEOUT / HZ);
	nvmet_rdma_queue_close(queue);
}

void nvmet_rdma_queue_close(struct nvmet_rdma_queue *queue)
{
	if (test_and_set_bit(NVMET_RDMA_Q_CLOSING, &queue->flags))
		return;
	queue_work(nvmet_wq, &queue->release_work);
}

/* Close the queues of @port, or of @ctrl, or (both NULL) all of them. */
void nvmet_rdma_close_queues(struct nvmet_rdma_port *port,
			     struct nvmet_ctrl *ctrl)
{
	struct nvmet_rdma_queue *queue;

	mutex_lock(&nvmet_rdma_queue_mutex);
	list_for_each_entry(queue, &nvmet_rdma_queues, entry) {
		if (port && queue->port != port)
			continue;
		if (ctrl && queue->nvme_sq.ctrl != ctrl)
			continue;
		nvmet_rdma_queue_close(queue);
	}
	mutex_unlock(&nvmet_rdma_queue_mutex);
}

void nvmet_rdma_queues_exit(void)
{
	nvmet_rdma_close_queues(NULL, NULL);
	flush_workqueue(nvmet_wq);
}

static int nvmet_rdma_queue_cm_handler(struct rdma_cm_id *id,
				       struct rdma_cm_event *ev);

static void nvmet_rdma_reject(struct rdma_cm_id *id, u16 sts)
{
	struct nvme_rdma_cm_rej rej = {
		.recfmt = cpu_to_le16(NVME_RDMA_CM_FMT_1_0),
		.sts = cpu_to_le16(sts),
	};

	rdma_reject(id, &rej, sizeof(rej), IB_CM_REJ_CONSUMER_DEFINED);
}

/* What the host asked for, checked; 0 or an NVMe/RDMA reject status. */
static u16 nvmet_rdma_parse_req(const struct rdma_conn_param *param,
				u16 *qid, u16 *size)
{
	const struct nvme_rdma_cm_req *req = param->private_data;
	u32 sq;

	if (!req || param->private_data_len < sizeof(*req))
		return NVME_RDMA_CM_INVALID_LEN;
	if (le16_to_cpu(req->recfmt) != NVME_RDMA_CM_FMT_1_0)
		return NVME_RDMA_CM_INVALID_RECFMT;
	*qid = le16_to_cpu(req->qid);
	sq = le16_to_cpu(req->hsqsize) + 1U;
	if (sq < 2 || sq > (*qid ? NVMET_RDMA_MAX_QUEUE_SIZE : NVME_AQ_DEPTH))
		return NVME_RDMA_CM_INVALID_HSQSIZE;
	/* The host must be able to take a response to every command. */
	if (le16_to_cpu(req->hrqsize) < sq - 1)
		return NVME_RDMA_CM_INVALID_HRQSIZE;
	*size = sq;
	return 0;
}

int nvmet_rdma_queue_connect(struct rdma_cm_id *id,
			     struct nvmet_rdma_port *port,
			     const struct rdma_cm_event *ev)
{
	struct nvme_rdma_cm_rep rep = {
		.recfmt = cpu_to_le16(NVME_RDMA_CM_FMT_1_0),
	};
	struct rdma_conn_param accept = {};
	struct ib_device *dev = id->device;
	struct nvmet_rdma_queue *queue;
	bool sq_live = false;
	u16 sts, qid, size;
	int ret;

	sts = nvmet_rdma_parse_req(&ev->param.conn, &qid, &size);
	if (sts)
		goto reject;

	queue = kzalloc(sizeof(*queue), GFP_KERNEL);
	if (!queue) {
		sts = NVME_RDMA_CM_NO_RSC;
		goto reject;
	}
	mutex_lock(&nvmet_rdma_queue_mutex);
	if (nvmet_rdma_queue_count >= NVMET_RDMA_MAX_QUEUES) {
		mutex_unlock(&nvmet_rdma_queue_mutex);
		kfree(queue);
		sts = NVME_RDMA_CM_NO_RSC;
		goto reject;
	}
	nvmet_rdma_queue_count++;
	INIT_LIST_HEAD(&queue->entry);
	mutex_unlock(&nvmet_rdma_queue_mutex);

	queue->cm_id = id;
	queue->port = port;
	queue->nport = port->nport;
	queue->qid = qid;
	queue->size = size;
	/* The admin queue's commands carry no data in the capsule. */
	queue->inline_size = qid ? queue->nport->inline_data_size : 0;
	queue->inline_pages = DIV_ROUND_UP(queue->inline_size, PAGE_SIZE);
	INIT_WORK(&queue->release_work, nvmet_rdma_release_work);
	INIT_DELAYED_WORK(&queue->connect_timeout, nvmet_rdma_connect_timeout);
	init_completion(&queue->drained);
	/*
	 * Closed until accepted: a failed receive before that must not
	 * start the release work under our feet (this function owns the
	 * teardown until then).
	 */
	set_bit(NVMET_RDMA_Q_CLOSING, &queue->flags);

	ret = nvmet_rdma_create_verbs(queue);
	if (ret)
		goto fail;
	ret = nvmet_sq_init(&queue->nvme_sq);
	if (ret)
		goto fail;
	sq_live = true;

	/* From now on the id's events are the queue's (handler lock held). */
	id->context = queue;
	id->event_handler = nvmet_rdma_queue_cm_handler;
	mutex_lock(&nvmet_rdma_queue_mutex);
	list_add_tail(&queue->entry, &nvmet_rdma_queues);
	mutex_unlock(&nvmet_rdma_queue_mutex);

	rep.crqsize = cpu_to_le16(size);
	accept.private_data = &rep;
	accept.private_data_len = sizeof(rep);
	accept.flow_control = 1;
	accept.rnr_retry_count = 7;
	/* We read from the host: as deep as both ends allow. */
	accept.initiator_depth = min_t(int, ev->param.conn.responder_resources,
				       dev->attrs.max_qp_init_rd_atom);
	accept.responder_resources = 0;
	/* Armed while we own the teardown: every teardown cancels it. */
	queue_delayed_work(nvmet_wq, &queue->connect_timeout,
			   NVMET_RDMA_CONNECT_TIMEOUT);
	clear_bit(NVMET_RDMA_Q_CLOSING, &queue->flags);
	ret = rdma_accept(id, &accept);
	if (ret && !test_and_set_bit(NVMET_RDMA_Q_CLOSING, &queue->flags)) {
		/* Our return value has the CM destroy the id. */
		nvmet_rdma_queue_quiesce(queue, true, NULL);
		nvmet_rdma_queue_unlist(queue);
		kfree(queue);
		return ret;
	}
	/* (A failure that claimed it first has queued the release work.) */
	return 0;

fail:
	pr_warn_ratelimited("nvmet_rdma: queue %u of %u slots not created: %d\n",
			    qid, size, ret);
	nvmet_rdma_queue_quiesce(queue, sq_live, NULL);
	mutex_lock(&nvmet_rdma_queue_mutex);
	nvmet_rdma_queue_count--;
	mutex_unlock(&nvmet_rdma_queue_mutex);
	kfree(queue);
	sts = NVME_RDMA_CM_NO_RSC;
reject:
	nvmet_rdma_reject(id, sts);
	return -ECONNREFUSED;
}

/* A CM event of an accepted queue's id; non-zero destroys the id. */
static int nvmet_rdma_queue_cm_handler(struct rdma_cm_id *id,
				       struct rdma_cm_event *ev)
{
	struct nvmet_rdma_queue *queue = id->context;

	switch (ev->event) {
	case RDMA_CM_EVENT_ESTABLISHED:
		set_bit(NVMET_RDMA_Q_LIVE, &queue->flags);
		return 0;
	case RDMA_CM_EVENT_DEVICE_REMOVAL:
		if (test_and_set_bit(NVMET_RDMA_Q_CLOSING, &queue->flags)) {
			/*
			 * The release work has it: wait for its drain, which
			 * takes no CM lock; it destroys the QP once we return.
			 */
			wait_for_completion(&queue->drained);
			return 0;
		}
		nvmet_rdma_queue_quiesce(queue, true, NULL);
		nvmet_rdma_queue_unlist(queue);
		kfree(queue);
		return 1;
	case RDMA_CM_EVENT_DISCONNECTED:
	case RDMA_CM_EVENT_TIMEWAIT_EXIT:
	case RDMA_CM_EVENT_ADDR_CHANGE:
	case RDMA_CM_EVENT_CONNECT_ERROR:
	case RDMA_CM_EVENT_UNREACHABLE:
	case RDMA_CM_EVENT_REJECTED:
		nvmet_rdma_queue_close(queue);
		return 0;
	default:
		return 0;
	}
}
