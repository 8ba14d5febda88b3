/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * nvme-rdma on our stack: the NVMe over Fabrics host transport for RDMA,
 * registered with the distribution's nvme-fabrics (whose fabrics.h and
 * nvme-core's nvme.h the top-level ABI gate vouched for).  A controller
 * is one admin queue and up to one I/O queue per CPU; a queue is one
 * rdma_cm connection whose RC QP carries command capsules (SEND) one way
 * and response capsules (RECV) the other, with the data moved by the
 * target through a keyed SGL: a fast-registered MR per command, valid
 * from the REG_MR posted ahead of the capsule until the target's
 * SEND_WITH_INV or our LOCAL_INV.  A small write on an I/O queue goes
 * in the capsule instead (the target's IOCCSZ says how much fits).
 *
 * A request completes when both its capsule SEND and its response have
 * completed (and its MR is invalid again): a reference for each.
 * Everything in a response is the target's word: the command id is
 * looked up within the tag set (nvme_find_rq() bounds it and checks its
 * generation), a second response for one command or an invalidation of
 * a key that is not the command's is a protocol error, which, like every
 * failed work completion, starts error recovery: the queues are torn
 * down (outstanding commands are cancelled) and the controller reconnects
 * every reconnect_delay seconds until ctrl_loss_tmo.
 */
#ifndef NVME_RDMA_H
#define NVME_RDMA_H

#include <linux/blk-mq.h>
#include <linux/nvme-rdma.h>
#include <linux/scatterlist.h>
#include <ordma/rdma_cm.h>
#include "nvme.h"
#include "fabrics.h"

/* Pages one command's MR maps: 256 of 4 KiB, 1 MiB per command. */
#define NRDMA_MAX_SEGMENTS	256
/* Scatterlist entries in the request itself; more are chained. */
#define NRDMA_INLINE_SG		2
/* In-capsule data: at most this many SGEs behind the command's. */
#define NRDMA_MAX_INLINE_SGES	4
/* Each rdma_cm step (address, route, connection). */
#define NRDMA_CM_TIMEOUT_MS	3000
/* The I/O queue size we accept: fabrics allows up to 1024. */
#define NRDMA_MAX_QUEUE_SIZE	1024
/* WRs one command may have on the send queue: REG_MR, SEND, LOCAL_INV. */
#define NRDMA_SEND_WRS_PER_CMD	3

struct nrdma_ctrl;

/* One posted receive of a response capsule. */
struct nrdma_rsp {
	struct ib_cqe cqe;
	struct nrdma_queue *queue;
	struct nvme_completion *buf;
	u64 dma;
	struct ib_sge sge;
	struct ib_recv_wr wr;
};

enum nrdma_queue_flag {
	NRDMA_Q_ALLOCATED,	/* cm id and verbs exist */
	NRDMA_Q_CONNECTED,	/* the RDMA connection is up: posting allowed */
	NRDMA_Q_LIVE,		/* Fabrics Connect succeeded */
};

struct nrdma_queue {
	struct nrdma_ctrl *ctrl;
	struct rdma_cm_id *cm_id;
	struct ib_pd *pd;
	struct ib_cq *cq;
	unsigned int cq_size;
	u16 qid;
	u16 size;		/* command slots: hsqsize + 1 */
	u32 inline_sges;	/* data SGEs a capsule may carry */
	unsigned long flags;
	bool qp_created;
	bool mr_pool_ready;
	bool drained;		/* no completion of the QP runs any more */
	struct nrdma_rsp *rsps;
	struct mutex stop_lock;	/* one disconnect-and-drain at a time */

	/* The rdma_cm step being waited for, and how it ended. */
	struct completion cm_done;
	enum rdma_cm_event_type cm_event;
	int cm_error;
};

/* The blk-mq payload of a request. */
struct nrdma_request {
	struct nvme_request nreq;	/* first: nvme_req() */
	struct nvme_command sqe;	/* the capsule, DMA-mapped when sent */
	u64 sqe_dma;
	struct nrdma_queue *queue;
	struct ib_device *dev;		/* what the data and sqe are mapped on */
	struct ib_sge sge[1 + NRDMA_MAX_INLINE_SGES];
	struct ib_cqe send_cqe;
	struct ib_cqe reg_cqe;
	struct ib_cqe inv_cqe;
	struct ib_send_wr send_wr;
	struct ib_send_wr inv_wr;
	struct ib_reg_wr reg_wr;
	struct ib_mr *mr;		/* from the QP's pool, or NULL */
	bool mr_valid;			/* registered, not yet invalidated */
	bool rsp_seen;
	bool data_mapped;
	atomic_t ref;			/* SEND + response */
	__le16 status;
	union nvme_result result;
	struct sg_table sgt;
	struct scatterlist first_sgl[];	/* NRDMA_INLINE_SG of them */
};

struct nrdma_ctrl {
	struct nvme_ctrl ctrl;
	struct list_head entry;		/* nrdma_ctrls, once created */
	bool listed;
	struct nrdma_queue *queues;
	u32 queues_alloc;		/* entries of @queues */
	struct blk_mq_tag_set admin_tag_set;
	struct blk_mq_tag_set tag_set;
	bool admin_tags_live;
	bool io_tags_live;
	u32 io_queue_size;		/* slots per I/O queue, fixed at creation */
	u32 max_fr_pages;
	u32 inline_bytes;		/* in-capsule data the target takes */
	struct sockaddr_storage addr;
	struct sockaddr_storage src_addr;
	bool has_src;
	struct ib_device *ibdev;	/* of the admin queue, compared only */

	struct nvme_command *aen_sqe;
	u64 aen_dma;
	struct ib_cqe aen_cqe;

	struct work_struct err_work;
	struct delayed_work reconnect_work;
};

static inline struct nrdma_ctrl *to_nrdma_ctrl(struct nvme_ctrl *ctrl)
{
	return container_of(ctrl, struct nrdma_ctrl, ctrl);
}

/* main.c */
void nrdma_error_recovery(struct nrdma_ctrl *ctrl);

/* queue.c */
int nrdma_alloc_queue(struct nrdma_ctrl *ctrl, u16 qid, u16 size);
void nrdma_stop_queue(struct nrdma_queue *queue);
void nrdma_free_queue(struct nrdma_queue *queue);
int nrdma_post_recv(struct nrdma_rsp *rsp);

/* io.c */
extern const struct blk_mq_ops nrdma_admin_mq_ops;
extern const struct blk_mq_ops nrdma_mq_ops;
void nrdma_recv_done(struct ib_cq *cq, struct ib_wc *wc);
void nrdma_aen_send_done(struct ib_cq *cq, struct ib_wc *wc);
void nrdma_submit_async_event(struct nvme_ctrl *nctrl);

#define NRDMA_CMD_SIZE \
	(sizeof(struct nrdma_request) + NRDMA_INLINE_SG * sizeof(struct scatterlist))

#endif /* NVME_RDMA_H */
