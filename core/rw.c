// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Read/write contexts (<ordma/rw.h>): a storage target's data path.  One
 * context turns a scatterlist into RDMA READs or WRITEs against one
 * remote buffer.  A WR carries at most the QP's SGE limit for its kind
 * (max_write_sge, or max_read_sge which the device's max_sge_rd also
 * bounds), so the mapped entries are cut into consecutive groups of that
 * many; each WR's remote address starts where the previous WR's bytes
 * ended.  A one-entry transfer lives in the context itself, so the
 * commonest small I/O allocates nothing.
 *
 * The sizes come from a consumer that got them off the wire (an NVMe
 * command's SGL): an empty list, an offset past the list, a transfer over
 * U32_MAX bytes or a wrapping remote range are refused with -EINVAL, not
 * warned about.
 */
#include <linux/module.h>
#include <linux/overflow.h>
#include <linux/slab.h>
#include <ordma/rw.h>
#include "core_priv.h"

enum rdma_rw_ctx_type {
	RDMA_RW_SINGLE_WR,
	RDMA_RW_MULTI_WR,
};

static u32 rdma_rw_max_sge(struct ib_qp *qp, enum dma_data_direction dir)
{
	return dir == DMA_TO_DEVICE ? qp->max_write_sge : qp->max_read_sge;
}

static enum ib_wr_opcode rdma_rw_opcode(enum dma_data_direction dir)
{
	return dir == DMA_TO_DEVICE ? IB_WR_RDMA_WRITE : IB_WR_RDMA_READ;
}

/*
 * Step past @*offset bytes of the mapped list: the entry the transfer
 * starts in (@*offset becomes the bytes to skip in it) and how many
 * entries are left, counting that one.  0 when the list ends first.
 */
static u32 rdma_rw_skip(struct scatterlist **sg, u32 nents, u32 *offset)
{
	while (nents && *offset >= sg_dma_len(*sg)) {
		*offset -= sg_dma_len(*sg);
		*sg = sg_next(*sg);
		nents--;
	}
	return nents;
}

/* Bytes from @offset into @sg over @nents entries; -EINVAL past U32_MAX. */
static int rdma_rw_total(struct scatterlist *sg, u32 nents, u32 offset,
			 u32 *total)
{
	struct scatterlist *s;
	u64 sum = 0;
	u32 i;

	for_each_sg(sg, s, nents, i)
		sum += sg_dma_len(s);
	sum -= offset;
	if (sum > U32_MAX)
		return -EINVAL;
	*total = sum;
	return 0;
}

static void rdma_rw_fill_sge(struct ib_sge *sge, struct ib_qp *qp,
			     struct scatterlist *s, u32 skip)
{
	sge->addr = sg_dma_address(s) + skip;
	sge->length = sg_dma_len(s) - skip;
	sge->lkey = qp->pd->local_dma_lkey;
}

static void rdma_rw_fill_wr(struct ib_rdma_wr *wr, struct ib_sge *sges,
			    int num_sge, enum dma_data_direction dir,
			    u64 remote_addr, u32 rkey)
{
	memset(wr, 0, sizeof(*wr));
	wr->wr.opcode = rdma_rw_opcode(dir);
	wr->wr.sg_list = sges;
	wr->wr.num_sge = num_sge;
	wr->remote_addr = remote_addr;
	wr->rkey = rkey;
}

/* @nents entries from @sg (@skip bytes into the first) in groups. */
static int rdma_rw_build_multi(struct rdma_rw_ctx *ctx, struct ib_qp *qp,
			       struct scatterlist *sg, u32 nents, u32 skip,
			       u32 max_sge, u64 remote_addr, u32 rkey,
			       enum dma_data_direction dir)
{
	u32 nr_ops = DIV_ROUND_UP(nents, max_sge);
	struct ib_sge *sges;
	struct ib_rdma_wr *wrs;
	u32 op, i;

	sges = kcalloc(nents, sizeof(*sges), GFP_KERNEL);
	if (!sges)
		return -ENOMEM;
	wrs = kcalloc(nr_ops, sizeof(*wrs), GFP_KERNEL);
	if (!wrs) {
		kfree(sges);
		return -ENOMEM;
	}
	for (i = 0; i < nents; i++, sg = sg_next(sg), skip = 0)
		rdma_rw_fill_sge(&sges[i], qp, sg, skip);
	for (op = 0; op < nr_ops; op++) {
		u32 first = op * max_sge;
		u32 num = min(max_sge, nents - first);

		rdma_rw_fill_wr(&wrs[op], &sges[first], num, dir, remote_addr,
				rkey);
		for (i = first; i < first + num; i++)
			remote_addr += sges[i].length;
		if (op + 1 < nr_ops)
			wrs[op].wr.next = &wrs[op + 1].wr;
	}
	ctx->type = RDMA_RW_MULTI_WR;
	ctx->map.sges = sges;
	ctx->map.wrs = wrs;
	ctx->nr_ops = nr_ops;
	return nr_ops;
}

int rdma_rw_ctx_init(struct rdma_rw_ctx *ctx, struct ib_qp *qp, u32 port_num,
		     struct scatterlist *sg, u32 sg_cnt, u32 sg_offset,
		     u64 remote_addr, u32 rkey, enum dma_data_direction dir)
{
	struct ib_device *dev = qp->device;
	u32 max_sge = rdma_rw_max_sge(qp, dir);
	struct scatterlist *first = sg;
	u32 skip = sg_offset, nents, total;
	u64 remote_end;
	int mapped, ret;

	if (!sg_cnt || sg_cnt > INT_MAX || !max_sge ||
	    (dir != DMA_TO_DEVICE && dir != DMA_FROM_DEVICE))
		return -EINVAL;
	mapped = ib_dma_map_sg(dev, sg, sg_cnt, dir);
	if (mapped <= 0)
		return -ENOMEM;

	nents = rdma_rw_skip(&first, mapped, &skip);
	ret = -EINVAL;
	if (!nents)
		goto out_unmap;
	ret = rdma_rw_total(first, nents, skip, &total);
	if (ret)
		goto out_unmap;
	ret = -EINVAL;
	if (check_add_overflow(remote_addr, (u64)total, &remote_end))
		goto out_unmap;

	if (nents == 1) {
		rdma_rw_fill_sge(&ctx->single.sge, qp, first, skip);
		rdma_rw_fill_wr(&ctx->single.wr, &ctx->single.sge, 1, dir,
				remote_addr, rkey);
		ctx->type = RDMA_RW_SINGLE_WR;
		ctx->nr_ops = 1;
		return 1;
	}
	ret = rdma_rw_build_multi(ctx, qp, first, nents, skip, max_sge,
				  remote_addr, rkey, dir);
	if (ret > 0)
		return ret;
out_unmap:
	ib_dma_unmap_sg(dev, sg, sg_cnt, dir);
	return ret;
}
EXPORT_SYMBOL(rdma_rw_ctx_init);

static struct ib_rdma_wr *rdma_rw_wr(struct rdma_rw_ctx *ctx, u32 op)
{
	return ctx->type == RDMA_RW_SINGLE_WR ? &ctx->single.wr :
						&ctx->map.wrs[op];
}

struct ib_send_wr *rdma_rw_ctx_wrs(struct rdma_rw_ctx *ctx, struct ib_qp *qp,
				   u32 port_num, struct ib_cqe *cqe,
				   struct ib_send_wr *chain_wr)
{
	struct ib_rdma_wr *last = rdma_rw_wr(ctx, ctx->nr_ops - 1);

	/* A context may be posted again (a retried request): start clean. */
	last->wr.wr_cqe = NULL;
	last->wr.send_flags &= ~IB_SEND_SIGNALED;
	last->wr.next = chain_wr;
	if (!chain_wr) {
		last->wr.wr_cqe = cqe;
		last->wr.send_flags |= IB_SEND_SIGNALED;
	}
	return &rdma_rw_wr(ctx, 0)->wr;
}
EXPORT_SYMBOL(rdma_rw_ctx_wrs);

int rdma_rw_ctx_post(struct rdma_rw_ctx *ctx, struct ib_qp *qp, u32 port_num,
		     struct ib_cqe *cqe, struct ib_send_wr *chain_wr)
{
	struct ib_send_wr *first = rdma_rw_ctx_wrs(ctx, qp, port_num, cqe,
						   chain_wr);

	return ib_post_send(qp, first, NULL);
}
EXPORT_SYMBOL(rdma_rw_ctx_post);

void rdma_rw_ctx_destroy(struct rdma_rw_ctx *ctx, struct ib_qp *qp,
			 u32 port_num, struct scatterlist *sg, u32 sg_cnt,
			 enum dma_data_direction dir)
{
	if (ctx->type == RDMA_RW_MULTI_WR) {
		kfree(ctx->map.wrs);
		kfree(ctx->map.sges);
	}
	ctx->nr_ops = 0;
	ib_dma_unmap_sg(qp->device, sg, sg_cnt, dir);
}
EXPORT_SYMBOL(rdma_rw_ctx_destroy);

unsigned int rdma_rw_mr_factor(struct ib_device *device, u32 port_num,
			       unsigned int maxpages)
{
	unsigned int per_wr = max(device->attrs.max_sge_rd, 1);

	return DIV_ROUND_UP(maxpages, per_wr);
}
EXPORT_SYMBOL(rdma_rw_mr_factor);

void rdma_rw_init_qp(struct ib_device *dev, struct ib_qp_init_attr *attr)
{
	u32 wrs;

	if (!attr->cap.max_rdma_ctxs)
		return;
	/* One WR per context, as in-tree's SGE path counts them. */
	if (check_add_overflow(attr->cap.max_send_wr, attr->cap.max_rdma_ctxs,
			       &wrs))
		wrs = U32_MAX;
	attr->cap.max_send_wr = min_t(u32, wrs, max(dev->attrs.max_qp_wr, 0));
}
EXPORT_SYMBOL(rdma_rw_init_qp);
