/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * nvmet-rdma on our stack: the NVMe over Fabrics target transport for
 * RDMA, registered with the distribution's nvmet (whose nvmet.h the
 * top-level ABI gate vouched for).  A port is one rdma_cm listener; every
 * CONNECT_REQUEST on it becomes a queue: one RC QP whose slots pair a
 * posted receive (a command capsule, with in-capsule data) with the
 * response that answers it.  A slot's receive is posted again only when
 * its response SEND has completed, so a host can never have more
 * commands in flight than the queue size it was granted, and the send
 * queue is sized so that they always fit.
 *
 * A command's life in its slot:
 *   recv_done -> nvmet_req_init -> map the data (in-capsule pages, or a
 *   keyed SGL: nvmet_req_alloc_sgls + an rdma_rw context)
 *     host write, keyed: RDMA READs -> read_done -> execute
 *     otherwise:                       execute
 *   nvmet completes -> queue_response: [RDMA WRITEs ->] SEND of the CQE
 *   send_done -> release the data, post the receive again
 */
#ifndef NVMET_RDMA_H
#define NVMET_RDMA_H

#include <linux/nvme-rdma.h>
#include <linux/workqueue.h>
#include <ordma/rdma_cm.h>
#include <ordma/rw.h>
#include "nvmet.h"

/* The most a host may ask for: queue slots, queues, data per command. */
#define NVMET_RDMA_MAX_QUEUE_SIZE	128
#define NVMET_RDMA_MAX_QUEUES		256
#define NVMET_RDMA_MDTS			8	/* 2^8 pages of 4 KiB: 1 MiB */
#define NVMET_RDMA_MAX_INLINE_PAGES	4
#define NVMET_RDMA_BACKLOG		128
/* An accepted queue whose host sends no Connect in this time is closed. */
#define NVMET_RDMA_CONNECT_TIMEOUT	(30 * HZ)

/* One listener per configfs port (port->priv). */
struct nvmet_rdma_port {
	struct nvmet_port *nport;
	struct sockaddr_storage addr;
	struct rdma_cm_id *listener;	/* NULL once its device went away */
};

struct nvmet_rdma_queue;

/* A command slot: its capsule receive and its response. */
struct nvmet_rdma_slot {
	struct nvmet_rdma_queue *queue;

	struct nvme_command *capsule;
	u64 capsule_dma;
	struct page *inline_pages[NVMET_RDMA_MAX_INLINE_PAGES];
	u64 inline_dma[NVMET_RDMA_MAX_INLINE_PAGES];
	struct scatterlist inline_sg[NVMET_RDMA_MAX_INLINE_PAGES];
	struct ib_sge recv_sge[1 + NVMET_RDMA_MAX_INLINE_PAGES];
	struct ib_recv_wr recv_wr;
	struct ib_cqe recv_cqe;

	struct nvme_completion *cqe;
	u64 cqe_dma;
	struct ib_sge send_sge;
	struct ib_send_wr send_wr;
	struct ib_cqe send_cqe;

	struct rdma_rw_ctx rw;
	struct ib_cqe read_cqe;
	bool rw_live;		/* rw holds a mapping of req.sg */
	bool sgls_allocated;	/* req.sg from nvmet_req_alloc_sgls() */
	bool busy;		/* a response is posted or being built */

	struct nvmet_req req;
};

enum nvmet_rdma_queue_flag {
	NVMET_RDMA_Q_LIVE,		/* responses may be posted */
	NVMET_RDMA_Q_CLOSING,		/* teardown claimed (once) */
};

struct nvmet_rdma_queue {
	struct list_head entry;		/* nvmet_rdma_queues */
	struct rdma_cm_id *cm_id;
	struct nvmet_rdma_port *port;	/* compared only: may be gone */
	struct nvmet_port *nport;	/* lives until nvmet_wq is flushed */
	struct ib_pd *pd;
	struct ib_cq *cq;
	unsigned int cq_size;
	unsigned long flags;
	u16 qid;
	u16 size;			/* slots: the host's hsqsize + 1 */
	u32 inline_size;		/* in-capsule bytes per slot */
	u32 inline_pages;
	bool qp_created;
	struct nvmet_rdma_slot *slots;

	struct nvmet_sq nvme_sq;
	struct nvmet_cq nvme_cq;

	struct work_struct release_work;	/* on nvmet_wq */
	struct delayed_work connect_timeout;	/* on nvmet_wq */
	struct completion drained;	/* DEVICE_REMOVAL waits for it */
};

extern const struct nvmet_fabrics_ops nvmet_rdma_ops;

/* queue.c */
int nvmet_rdma_queue_connect(struct rdma_cm_id *id,
			     struct nvmet_rdma_port *port,
			     const struct rdma_cm_event *ev);
void nvmet_rdma_queue_close(struct nvmet_rdma_queue *queue);
void nvmet_rdma_close_queues(struct nvmet_rdma_port *port,
			     struct nvmet_ctrl *ctrl);
void nvmet_rdma_queues_exit(void);

/* io.c */
int nvmet_rdma_post_recv(struct nvmet_rdma_slot *slot);
void nvmet_rdma_queue_response(struct nvmet_req *req);
void nvmet_rdma_slot_release(struct nvmet_rdma_slot *slot);
void nvmet_rdma_slot_setup(struct nvmet_rdma_slot *slot);

#endif /* NVMET_RDMA_H */
