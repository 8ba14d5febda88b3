/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The read/write context of kernel consumers (core/rw.c), with the
 * in-tree names: a storage target moves a request's scatterlist to or
 * from the initiator's buffer (remote_addr, rkey) with one context, which
 * turns the list into as many RDMA READs (DMA_FROM_DEVICE: the peer's
 * bytes land in the list) or RDMA WRITEs (DMA_TO_DEVICE) as the QP's SGE
 * limits need.  Only the SGE path exists: no fast registration (the
 * in-tree MR path for iWARP reads), no signature offload.
 *
 * Life of a context: rdma_rw_ctx_init() maps the list and builds the WRs
 * (returns how many, or -errno with nothing left mapped);
 * rdma_rw_ctx_post() posts them (or rdma_rw_ctx_wrs() hands the chain to
 * a caller that posts it with more); after the completion,
 * rdma_rw_ctx_destroy() with the same list, count and direction.
 */
#ifndef ORDMA_RW_H
#define ORDMA_RW_H

#include <linux/dma-direction.h>
#include <linux/scatterlist.h>
#include <ordma/ib_verbs.h>

struct rdma_rw_ctx {
	u32 nr_ops;		/* RDMA WRs built */
	u8 type;		/* enum in core/rw.c: which union member */
	union {
		/* one SGE: nothing to allocate */
		struct {
			struct ib_sge sge;
			struct ib_rdma_wr wr;
		} single;
		/* several: nr_ops WRs sharing one SGE array, in order */
		struct {
			struct ib_sge *sges;
			struct ib_rdma_wr *wrs;
		} map;
	};
};

/*
 * Build the WRs moving @sg_cnt entries of @sg, from @sg_offset bytes into
 * the list on, to (DMA_TO_DEVICE) or from (DMA_FROM_DEVICE) @remote_addr
 * under @rkey.  -EINVAL for an empty list, an offset at or past its end,
 * more than U32_MAX bytes or a remote range that wraps; -ENOMEM.
 */
int rdma_rw_ctx_init(struct rdma_rw_ctx *ctx, struct ib_qp *qp, u32 port_num,
		     struct scatterlist *sg, u32 sg_cnt, u32 sg_offset,
		     u64 remote_addr, u32 rkey, enum dma_data_direction dir);
/*
 * The context's first WR.  The last one links to @chain_wr if given (the
 * chain's own last WR then reports the completion, as in-tree); without
 * it the last RDMA WR is signaled with @cqe.  Only that WR carries a cqe,
 * so a consumer's ->done() runs once per context even on a flush.
 */
struct ib_send_wr *rdma_rw_ctx_wrs(struct rdma_rw_ctx *ctx, struct ib_qp *qp,
				   u32 port_num, struct ib_cqe *cqe,
				   struct ib_send_wr *chain_wr);
/* rdma_rw_ctx_wrs() and ib_post_send() of the result. */
int rdma_rw_ctx_post(struct rdma_rw_ctx *ctx, struct ib_qp *qp, u32 port_num,
		     struct ib_cqe *cqe, struct ib_send_wr *chain_wr);
/* Free the WRs and unmap @sg (what rdma_rw_ctx_init() was given). */
void rdma_rw_ctx_destroy(struct rdma_rw_ctx *ctx, struct ib_qp *qp,
			 u32 port_num, struct scatterlist *sg, u32 sg_cnt,
			 enum dma_data_direction dir);

/*
 * How many registrations (here: READ WRs of max_sge_rd SGEs each) a
 * transfer of @maxpages pages needs: what a consumer sizes its send
 * queue by.
 */
unsigned int rdma_rw_mr_factor(struct ib_device *device, u32 port_num,
			       unsigned int maxpages);
/*
 * Called by ib_create_qp(): room on the send queue for
 * @attr->cap.max_rdma_ctxs contexts, within the device's max_qp_wr.
 */
void rdma_rw_init_qp(struct ib_device *dev, struct ib_qp_init_attr *attr);

#endif /* ORDMA_RW_H */
