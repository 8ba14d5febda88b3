// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * kverbs_selftest: the kernel verbs of ib_core on a live device (rxe0 by
 * default), run once at module load.  Flow:
 *
 *   PD, CQs (direct, workqueue, softirq)
 *   -> two RC QPs, connected through INIT/RTR/RTS over the port's RoCEv2
 *      GID of its IPv4 address (both ends on this device: loopback);
 *      SEND, RDMA WRITE and RDMA READ, each checked byte for byte
 *   -> two UD QPs: SEND through an AH; the receive's GRH slot, source QPN
 *      and network type, and the AH built back from it
 *   -> the GSI QP: created here if no MAD layer holds it (then a second
 *      one must fail with -EBUSY, and QP1 sends to itself), else -EBUSY
 *   -> moving a QP to ERR flushes its receive queue
 *   -> fast registration of three separate pages (512 bytes into the
 *      first): map checks, REG_MR, RDMA WRITE/READ through the rkey,
 *      LOCAL_INV and SEND_WITH_INV then refuse the rkey; key variants
 *   -> read/write contexts (rdma_rw_ctx_*) on a pair with 2 SGEs per WR:
 *      3-, 7- and 1-entry lists at odd offsets written to b_buf and read
 *      back into other lists byte for byte, WR counts ceil(entries / 2),
 *      sg_offset into and past the first entry, a context chained to a
 *      SEND, and the sizes a wire peer could send refused with -EINVAL
 *   -> ib_drain_sq/rq/qp on QPs whose WRs wait for a peer that is not
 *      there: every WR flushed when the drain returns (direct, workqueue
 *      and softirq CQs)
 *   -> everything destroyed; `rdma res` counters back where they were.
 *
 * Prints "kverbs_selftest: N passed, M failed"; fails the load (-EINVAL)
 * when anything failed, so insmod's status is the verdict.
 */
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/module.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>
#include <net/ipv6.h>
#include <ordma/ib_core.h>
#include <ordma/rw.h>

#include "kselftest.h"

static char *dev_name_param = "rxe0";
module_param_named(dev, dev_name_param, charp, 0444);
MODULE_PARM_DESC(dev, "the RDMA device to test (default rxe0)");

#define QP1_QKEY	0x80010000
#define UD_QKEY		0x11111111
#define BUF_SIZE	16384
#define GRH_BYTES	40



struct kt {
	struct ib_device *dev;
	union ib_gid gid;
	u8 gid_index;
	struct ib_pd *pd;
	struct ib_cq *cq;	/* IB_POLL_DIRECT: sends, A's receives */
	struct ib_cq *wq_cq;	/* IB_POLL_WORKQUEUE: B's receives */
	struct ib_cq *sirq_cq;	/* IB_POLL_SOFTIRQ: UD receives */
	struct ib_mr *mr;	/* remote-access DMA MR */
	int pool_cqs;		/* shared CQs made: they outlive the test */
	u8 *a_buf, *b_buf;
};

/* A receive whose completion arrives through ->done(). */
struct kt_rx {
	struct ib_cqe cqe;
	struct completion done;
	struct ib_wc wc;
	bool in_softirq;
};

static void kt_rx_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct kt_rx *rx = container_of(wc->wr_cqe, struct kt_rx, cqe);

	rx->wc = *wc;
	rx->in_softirq = in_softirq();
	complete(&rx->done);
}

static void kt_rx_init(struct kt_rx *rx)
{
	rx->cqe.done = kt_rx_done;
	init_completion(&rx->done);
	memset(&rx->wc, 0, sizeof(rx->wc));
}

/* Poll a direct CQ for one completion, up to 10 s (TCG is slow). */
static int kt_poll_one(struct ib_cq *cq, struct ib_wc *wc)
{
	return kst_poll_cq(cq, wc, 10000);
}

static bool kt_wait_rx(struct kt_rx *rx)
{
	return wait_for_completion_timeout(&rx->done, 10 * HZ) != 0;
}

static void kt_fill(u8 *p, size_t n, u8 seed)
{
	size_t i;

	for (i = 0; i < n; i++)
		p[i] = (u8)(i * 7 + seed);
}

static bool kt_find_ipv4_gid(struct kt *t)
{
	const struct ib_gid_attr *attr = kst_find_roce_v4_gid(t->dev, 1);

	if (!attr)
		return false;
	t->gid = attr->gid;
	t->gid_index = attr->index;
	rdma_put_gid_attr(attr);
	return true;
}

static struct ib_qp *kt_qp(struct kt *t, enum ib_qp_type type,
			   struct ib_cq *scq, struct ib_cq *rcq)
{
	struct ib_qp_init_attr init = {
		.send_cq = scq,
		.recv_cq = rcq,
		.cap = {
			.max_send_wr = 16,
			.max_recv_wr = 16,
			.max_send_sge = 2,
			.max_recv_sge = 2,
			.max_inline_data = 64,
		},
		.sq_sig_type = IB_SIGNAL_REQ_WR,
		.qp_type = type,
		.port_num = 1,
	};

	return ib_create_qp(t->pd, &init);
}

static void kt_av(struct kt *t, struct ib_ah_attr *ah)
{
	memset(ah, 0, sizeof(*ah));
	ah->is_global = 1;
	ah->dgid = t->gid;
	ah->sgid_index = t->gid_index;
	ah->hop_limit = 64;
	ah->port_num = 1;
}

static int kt_rc_connect(struct kt *t, struct ib_qp *qp, u32 dest, u32 psn)
{
	struct ib_qp_attr a = {};
	int ret;

	a.qp_state = IB_QPS_INIT;
	a.pkey_index = 0;
	a.port_num = 1;
	a.qp_access_flags = IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_WRITE |
			    IB_ACCESS_REMOTE_READ;
	ret = ib_modify_qp(qp, &a, IB_QP_STATE | IB_QP_PKEY_INDEX |
			   IB_QP_PORT | IB_QP_ACCESS_FLAGS);
	if (ret)
		return ret;

	memset(&a, 0, sizeof(a));
	a.qp_state = IB_QPS_RTR;
	kt_av(t, &a.ah_attr);
	a.path_mtu = IB_MTU_1024;
	a.dest_qp_num = dest;
	a.rq_psn = psn;
	a.max_dest_rd_atomic = 1;
	a.min_rnr_timer = 12;
	ret = ib_modify_qp(qp, &a, IB_QP_STATE | IB_QP_AV | IB_QP_PATH_MTU |
			   IB_QP_DEST_QPN | IB_QP_RQ_PSN |
			   IB_QP_MAX_DEST_RD_ATOMIC | IB_QP_MIN_RNR_TIMER);
	if (ret)
		return ret;

	memset(&a, 0, sizeof(a));
	a.qp_state = IB_QPS_RTS;
	a.timeout = 14;
	a.retry_cnt = 7;
	a.rnr_retry = 7;
	a.sq_psn = psn;
	a.max_rd_atomic = 1;
	return ib_modify_qp(qp, &a, IB_QP_STATE | IB_QP_TIMEOUT |
			    IB_QP_RETRY_CNT | IB_QP_RNR_RETRY | IB_QP_SQ_PSN |
			    IB_QP_MAX_QP_RD_ATOMIC);
}

static int kt_ud_ready(struct ib_qp *qp, u32 qkey, bool gsi)
{
	struct ib_qp_attr a = {};
	int mask = IB_QP_STATE | IB_QP_PKEY_INDEX | IB_QP_QKEY;
	int ret;

	a.qp_state = IB_QPS_INIT;
	a.pkey_index = 0;
	a.port_num = 1;
	a.qkey = qkey;
	ret = ib_modify_qp(qp, &a, gsi ? mask : mask | IB_QP_PORT);
	if (ret)
		return ret;
	memset(&a, 0, sizeof(a));
	a.qp_state = IB_QPS_RTR;
	ret = ib_modify_qp(qp, &a, IB_QP_STATE);
	if (ret)
		return ret;
	a.qp_state = IB_QPS_RTS;
	a.sq_psn = 0x1234;
	return ib_modify_qp(qp, &a, IB_QP_STATE | IB_QP_SQ_PSN);
}

static int kt_post_recv(struct ib_qp *qp, struct kt_rx *rx, u64 wr_id,
			void *buf, u32 len, u32 lkey)
{
	struct ib_sge sge = {
		.addr = ib_dma_map_single(qp->device, buf, len,
					  DMA_FROM_DEVICE),
		.length = len,
		.lkey = lkey,
	};
	struct ib_recv_wr wr = {
		.sg_list = &sge,
		.num_sge = 1,
	};
	const struct ib_recv_wr *bad;

	if (rx)
		wr.wr_cqe = &rx->cqe;
	else
		wr.wr_id = wr_id;
	return ib_post_recv(qp, &wr, &bad);
}

/* ---- RC: send, RDMA write, RDMA read ------------------------------- */

/*
 * IB_SEND_INLINE: the data is copied at post time from plain kernel
 * addresses (two SGEs, no valid lkey), so the buffer may change at once;
 * more than the QP's max_inline_data fails the post naming the WR.
 */
static void kt_rc_inline(struct kt *t, struct ib_qp *a, struct ib_qp *b)
{
	struct ib_qp_init_attr qi;
	struct ib_qp_attr qa;
	const struct ib_send_wr *bad;
	struct ib_send_wr swr = {};
	struct ib_sge sge[2];
	struct kt_rx rx;
	struct ib_wc wc;
	u8 head[20], tail[28], want[48];
	int ret;

	kt_fill(head, sizeof(head), 7);
	kt_fill(tail, sizeof(tail), 8);
	memcpy(want, head, sizeof(head));
	memcpy(want + sizeof(head), tail, sizeof(tail));
	memset(t->b_buf, 0, BUF_SIZE);
	kt_rx_init(&rx);
	ret = kt_post_recv(b, &rx, 0, t->b_buf, BUF_SIZE, t->pd->local_dma_lkey);
	CHECK(!ret, "inline: post recv: %d", ret);
	sge[0] = (struct ib_sge){ (uintptr_t)head, sizeof(head), 0xdead };
	sge[1] = (struct ib_sge){ (uintptr_t)tail, sizeof(tail), 0xbeef };
	swr.wr_id = 0x1a1e;
	swr.sg_list = sge;
	swr.num_sge = 2;
	swr.opcode = IB_WR_SEND;
	swr.send_flags = IB_SEND_SIGNALED | IB_SEND_INLINE;
	ret = ib_post_send(a, &swr, &bad);
	CHECK(!ret, "inline: post send of 48 bytes: %d", ret);
	memset(head, 0xee, sizeof(head));	/* copied already */
	if (CHECK(kt_poll_one(t->cq, &wc) == 1, "inline: send completion"))
		CHECK(wc.status == IB_WC_SUCCESS && wc.wr_id == 0x1a1e,
		      "inline: send wc status %d", wc.status);
	if (CHECK(kt_wait_rx(&rx), "inline: recv completion"))
		CHECK(rx.wc.status == IB_WC_SUCCESS && rx.wc.byte_len == 48 &&
		      !memcmp(t->b_buf, want, 48) && !t->b_buf[48],
		      "inline: received 48 bytes byte-exact (status %d len %u)",
		      rx.wc.status, rx.wc.byte_len);

	ret = ib_query_qp(a, &qa, IB_QP_CAP, &qi);
	if (!CHECK(!ret && qi.cap.max_inline_data >= 48 &&
		   qi.cap.max_inline_data < BUF_SIZE,
		   "inline: query max_inline_data: %d, %u", ret,
		   qi.cap.max_inline_data))
		return;
	sge[0] = (struct ib_sge){ (uintptr_t)t->a_buf,
				  qi.cap.max_inline_data + 1, 0 };
	swr.num_sge = 1;
	ret = ib_post_send(a, &swr, &bad);
	CHECK(ret == -EINVAL && bad == &swr,
	      "inline: %u bytes over max_inline_data %u refused: %d",
	      qi.cap.max_inline_data + 1, qi.cap.max_inline_data, ret);
	CHECK(ib_poll_cq(t->cq, 1, &wc) == 0,
	      "inline: the refused WR left no completion");
}

static void kt_rc(struct kt *t)
{
	struct ib_qp *a, *b;
	struct kt_rx rx;
	struct ib_wc wc;
	struct ib_sge sge;
	struct ib_rdma_wr rwr = {};
	struct ib_send_wr swr = {};
	const struct ib_send_wr *bad;
	int ret;

	a = kt_qp(t, IB_QPT_RC, t->cq, t->cq);
	if (!CHECK(!IS_ERR(a), "create RC QP a: %ld", PTR_ERR(a)))
		return;
	b = kt_qp(t, IB_QPT_RC, t->cq, t->wq_cq);
	if (!CHECK(!IS_ERR(b), "create RC QP b: %ld", PTR_ERR(b)))
		goto out_a;
	CHECK(a->qp_num >= 16 && b->qp_num >= 16 && a->qp_num != b->qp_num,
	      "QP numbers %u %u", a->qp_num, b->qp_num);

	/* posting before RTS fails cleanly, naming the first WR */
	swr.opcode = IB_WR_SEND;
	ret = ib_post_send(a, &swr, &bad);
	CHECK(ret == -EINVAL && bad == &swr, "send in RESET: %d", ret);

	ret = kt_rc_connect(t, a, b->qp_num, 100);
	if (!CHECK(!ret, "connect a: %d", ret))
		goto out_b;
	ret = kt_rc_connect(t, b, a->qp_num, 100);
	if (!CHECK(!ret, "connect b: %d", ret))
		goto out_b;

	/* SEND of 3000 bytes (3 packets at MTU 1024) */
	kt_fill(t->a_buf, BUF_SIZE, 1);
	memset(t->b_buf, 0, BUF_SIZE);
	kt_rx_init(&rx);
	ret = kt_post_recv(b, &rx, 0, t->b_buf, BUF_SIZE, t->pd->local_dma_lkey);
	CHECK(!ret, "post recv b: %d", ret);
	sge.addr = ib_dma_map_single(t->dev, t->a_buf, 3000, DMA_TO_DEVICE);
	sge.length = 3000;
	sge.lkey = t->pd->local_dma_lkey;
	swr.wr_id = 0x5e0d;
	swr.sg_list = &sge;
	swr.num_sge = 1;
	swr.opcode = IB_WR_SEND;
	swr.send_flags = IB_SEND_SIGNALED;
	ret = ib_post_send(a, &swr, &bad);
	CHECK(!ret, "post send: %d", ret);
	if (CHECK(kt_poll_one(t->cq, &wc) == 1, "send completion")) {
		CHECK(wc.status == IB_WC_SUCCESS && wc.wr_id == 0x5e0d &&
		      wc.opcode == IB_WC_SEND && wc.qp == a,
		      "send wc: status %d wr_id %llx opcode %d", wc.status,
		      wc.wr_id, wc.opcode);
	}
	if (CHECK(kt_wait_rx(&rx), "recv completion via ->done()")) {
		CHECK(rx.wc.status == IB_WC_SUCCESS && rx.wc.byte_len == 3000 &&
		      rx.wc.opcode == IB_WC_RECV && rx.wc.qp == b &&
		      !rx.in_softirq,
		      "recv wc: status %d len %u opcode %d", rx.wc.status,
		      rx.wc.byte_len, rx.wc.opcode);
		CHECK(!memcmp(t->a_buf, t->b_buf, 3000) && !t->b_buf[3000],
		      "sent data byte-exact");
	}

	/* RDMA WRITE of 5000 bytes into b_buf + 100 through the DMA MR */
	kt_fill(t->a_buf, BUF_SIZE, 2);
	memset(t->b_buf, 0, BUF_SIZE);
	sge.addr = (uintptr_t)t->a_buf;
	sge.length = 5000;
	rwr.wr.wr_id = 0x3717e;
	rwr.wr.sg_list = &sge;
	rwr.wr.num_sge = 1;
	rwr.wr.opcode = IB_WR_RDMA_WRITE;
	rwr.wr.send_flags = IB_SEND_SIGNALED;
	rwr.remote_addr = (uintptr_t)t->b_buf + 100;
	rwr.rkey = t->mr->rkey;
	ret = ib_post_send(a, &rwr.wr, &bad);
	CHECK(!ret, "post write: %d", ret);
	if (CHECK(kt_poll_one(t->cq, &wc) == 1, "write completion"))
		CHECK(wc.status == IB_WC_SUCCESS && wc.wr_id == 0x3717e &&
		      wc.opcode == IB_WC_RDMA_WRITE,
		      "write wc: status %d opcode %d", wc.status, wc.opcode);
	CHECK(!memcmp(t->a_buf, t->b_buf + 100, 5000) && !t->b_buf[99] &&
	      !t->b_buf[5100], "written data byte-exact");

	/* RDMA READ it back into a_buf + 4096 */
	memset(t->a_buf + 4096, 0, 4096);
	sge.addr = (uintptr_t)t->a_buf + 4096;
	sge.length = 2000;
	sge.lkey = t->pd->local_dma_lkey;
	rwr.wr.wr_id = 0x7ead;
	rwr.wr.opcode = IB_WR_RDMA_READ;
	rwr.remote_addr = (uintptr_t)t->b_buf + 100;
	ret = ib_post_send(a, &rwr.wr, &bad);
	CHECK(!ret, "post read: %d", ret);
	if (CHECK(kt_poll_one(t->cq, &wc) == 1, "read completion"))
		CHECK(wc.status == IB_WC_SUCCESS && wc.opcode == IB_WC_RDMA_READ,
		      "read wc: status %d opcode %d", wc.status, wc.opcode);
	CHECK(!memcmp(t->a_buf + 4096, t->b_buf + 100, 2000),
	      "read data byte-exact");

	kt_rc_inline(t, a, b);

	/* a bad lkey fails the WR, not the post: the QP goes to error */
	sge.addr = (uintptr_t)t->a_buf;
	sge.length = 16;
	sge.lkey = t->pd->local_dma_lkey ^ 0x5a;
	swr.wr_id = 0xbad;
	ret = ib_post_send(a, &swr, &bad);
	CHECK(!ret, "post send with bad lkey: %d", ret);
	if (CHECK(kt_poll_one(t->cq, &wc) == 1, "bad lkey completion"))
		CHECK(wc.status == IB_WC_LOC_PROT_ERR && wc.wr_id == 0xbad,
		      "bad lkey wc: status %d", wc.status);

	/* ERR flushes b's posted receives */
	kt_rx_init(&rx);
	ret = kt_post_recv(b, &rx, 0, t->b_buf, 64, t->pd->local_dma_lkey);
	CHECK(!ret, "post recv before flush: %d", ret);
	{
		struct ib_qp_attr qa = { .qp_state = IB_QPS_ERR };
		struct ib_qp_init_attr qi;

		ret = ib_modify_qp(b, &qa, IB_QP_STATE);
		CHECK(!ret, "b to ERR: %d", ret);
		if (CHECK(kt_wait_rx(&rx), "flush completion"))
			CHECK(rx.wc.status == IB_WC_WR_FLUSH_ERR,
			      "flush status %d", rx.wc.status);
		ret = ib_query_qp(b, &qa, IB_QP_STATE, &qi);
		CHECK(!ret && qa.qp_state == IB_QPS_ERR &&
		      qi.recv_cq == t->wq_cq, "query b: %d state %d", ret,
		      qa.qp_state);
	}
	CHECK(ib_destroy_cq(t->cq) == -EBUSY, "CQ in use refuses destroy");

out_b:
	ret = ib_destroy_qp(b);
	CHECK(!ret, "destroy b: %d", ret);
out_a:
	ret = ib_destroy_qp(a);
	CHECK(!ret, "destroy a: %d", ret);
}

/* ---- drain ---------------------------------------------------------- */

/* Completions of many WRs sharing one ib_cqe: how many, how many flushed. */
struct kt_count {
	struct ib_cqe cqe;
	atomic_t seen;
	atomic_t flushed;
};

static void kt_count_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct kt_count *c = container_of(wc->wr_cqe, struct kt_count, cqe);

	atomic_inc(&c->seen);
	if (wc->status == IB_WC_WR_FLUSH_ERR)
		atomic_inc(&c->flushed);
}

static void kt_count_init(struct kt_count *c)
{
	c->cqe.done = kt_count_done;
	atomic_set(&c->seen, 0);
	atomic_set(&c->flushed, 0);
}

/* @n empty signaled SENDs and @n receives on @qp, counted in @sq / @rq. */
static void kt_post_counted(struct kt *t, struct ib_qp *qp, int n,
			    struct kt_count *sq, struct kt_count *rq)
{
	struct ib_send_wr swr = {
		.wr_cqe = &sq->cqe,
		.opcode = IB_WR_SEND,
		.send_flags = IB_SEND_SIGNALED,
	};
	struct ib_recv_wr rwr = { .wr_cqe = &rq->cqe };
	int i, ret;

	for (i = 0; i < n; i++) {
		ret = ib_post_send(qp, &swr, NULL);
		CHECK(!ret, "post send %d before drain: %d", i, ret);
		ret = ib_post_recv(qp, &rwr, NULL);
		CHECK(!ret, "post recv %d before drain: %d", i, ret);
	}
}

/*
 * QPs connected to a QPN nobody has: their sends wait for an ACK that
 * never comes, their receives for a packet, until a drain flushes them.
 * x: SQ on the direct CQ (drain polls it), RQ on the workqueue CQ;
 * y: both on the softirq CQ, drained with ib_drain_qp().
 */
static void kt_drain(struct kt *t)
{
	struct kt_count xs, xr, ys, yr;
	struct ib_qp *x, *y;
	struct ib_wc wc;
	int ret;

	x = kt_qp(t, IB_QPT_RC, t->cq, t->wq_cq);
	if (!CHECK(!IS_ERR(x), "create drain QP x: %ld", PTR_ERR(x)))
		return;
	y = kt_qp(t, IB_QPT_RC, t->sirq_cq, t->sirq_cq);
	if (!CHECK(!IS_ERR(y), "create drain QP y: %ld", PTR_ERR(y)))
		goto out_x;
	ret = kt_rc_connect(t, x, 0xfff0, 300);
	CHECK(!ret, "connect x to nobody: %d", ret);
	ret = kt_rc_connect(t, y, 0xfff1, 400);
	CHECK(!ret, "connect y to nobody: %d", ret);

	kt_count_init(&xs);
	kt_count_init(&xr);
	kt_count_init(&ys);
	kt_count_init(&yr);
	kt_post_counted(t, x, 3, &xs, &xr);
	kt_post_counted(t, y, 2, &ys, &yr);
	CHECK(!atomic_read(&xs.seen) && !atomic_read(&xr.seen),
	      "nothing completes before the drain: %d %d",
	      atomic_read(&xs.seen), atomic_read(&xr.seen));

	ib_drain_sq(x);
	CHECK(atomic_read(&xs.seen) == 3 && atomic_read(&xs.flushed) == 3,
	      "drain_sq (direct CQ): %d seen, %d flushed of 3",
	      atomic_read(&xs.seen), atomic_read(&xs.flushed));
	CHECK(ib_poll_cq(t->cq, 1, &wc) == 0, "direct CQ empty after drain");
	ib_drain_rq(x);
	CHECK(atomic_read(&xr.seen) == 3 && atomic_read(&xr.flushed) == 3,
	      "drain_rq (workqueue CQ): %d seen, %d flushed of 3",
	      atomic_read(&xr.seen), atomic_read(&xr.flushed));
	ib_drain_qp(y);
	CHECK(atomic_read(&ys.seen) == 2 && atomic_read(&ys.flushed) == 2 &&
	      atomic_read(&yr.seen) == 2 && atomic_read(&yr.flushed) == 2,
	      "drain_qp (softirq CQ): sq %d/%d rq %d/%d flushed of 2",
	      atomic_read(&ys.flushed), atomic_read(&ys.seen),
	      atomic_read(&yr.flushed), atomic_read(&yr.seen));
	/* drained twice: the QP is in ERR already, the marker still flushes */
	ib_drain_qp(y);
	CHECK(atomic_read(&ys.seen) == 2 && atomic_read(&yr.seen) == 2,
	      "second drain completes nothing of the consumer's");

	ret = ib_destroy_qp(y);
	CHECK(!ret, "destroy drain y: %d", ret);
out_x:
	ret = ib_destroy_qp(x);
	CHECK(!ret, "destroy drain x: %d", ret);
}

/* ---- fast registration ----------------------------------------------- */

#define FR_OFFSET	512		/* into the first page */
#define FR_TAIL		1000		/* bytes of the last page */
#define FR_LEN		(PAGE_SIZE - FR_OFFSET + PAGE_SIZE + FR_TAIL)
#define FR_ACCESS	(IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_WRITE | \
			 IB_ACCESS_REMOTE_READ)

/* Three separate pages, so the MR's page list is what joins them. */
struct kt_fr {
	struct page *pages[3];
	struct scatterlist sg[3];
	struct ib_mr *mr;
};

/* The MR's bytes in order, for comparing with what was written. */
static void kt_fr_gather(struct kt_fr *f, u8 *out)
{
	u8 *p0 = page_address(f->pages[0]), *p1 = page_address(f->pages[1]);

	memcpy(out, p0 + FR_OFFSET, PAGE_SIZE - FR_OFFSET);
	memcpy(out + PAGE_SIZE - FR_OFFSET, p1, PAGE_SIZE);
	memcpy(out + 2 * PAGE_SIZE - FR_OFFSET, page_address(f->pages[2]),
	       FR_TAIL);
}

/* Map the 3-entry list starting FR_OFFSET into the first page. */
static int kt_fr_map(struct kt *t, struct kt_fr *f, struct ib_mr *mr,
		     unsigned int *off)
{
	*off = FR_OFFSET;
	return ib_map_mr_sg(mr, f->sg, 3, off, PAGE_SIZE);
}

/* Post a REG_MR of f->mr under @key on @qp and check its completion. */
static void kt_fr_reg(struct kt *t, struct kt_fr *f, struct ib_qp *qp,
		      u32 key)
{
	struct ib_reg_wr reg = {
		.wr = {
			.wr_id = 0x4e6,
			.opcode = IB_WR_REG_MR,
			.send_flags = IB_SEND_SIGNALED,
		},
		.mr = f->mr,
		.key = key,
		.access = FR_ACCESS,
	};
	struct ib_wc wc;
	int ret;

	ret = ib_post_send(qp, &reg.wr, NULL);
	CHECK(!ret, "post REG_MR: %d", ret);
	if (CHECK(kt_poll_one(t->cq, &wc) == 1, "REG_MR completion"))
		CHECK(wc.status == IB_WC_SUCCESS && wc.opcode == IB_WC_REG_MR &&
		      wc.wr_id == 0x4e6, "REG_MR wc: status %d opcode %d",
		      wc.status, wc.opcode);
}

/* An RDMA @op of @len bytes between a_buf + @a_off and @r_off (an iova). */
static int kt_fr_rdma(struct kt *t, struct ib_qp *a, enum ib_wr_opcode op,
		      u32 a_off, u64 r_off, u32 len, u32 rkey, struct ib_wc *wc)
{
	struct ib_sge sge = {
		.addr = (uintptr_t)t->a_buf + a_off,
		.length = len,
		.lkey = t->pd->local_dma_lkey,
	};
	struct ib_rdma_wr rwr = {
		.wr = {
			.wr_id = op,
			.sg_list = &sge,
			.num_sge = 1,
			.opcode = op,
			.send_flags = IB_SEND_SIGNALED,
		},
		.rkey = rkey,
	};
	int ret;

	rwr.remote_addr = r_off;
	ret = ib_post_send(a, &rwr.wr, NULL);
	if (ret)
		return ret;
	return kt_poll_one(t->cq, wc) == 1 ? 0 : -ETIMEDOUT;
}

static void kt_fr_unpair(struct ib_qp **a, struct ib_qp **b)
{
	if (*b)
		ib_destroy_qp(*b);
	if (*a)
		ib_destroy_qp(*a);
	*a = *b = NULL;
}

/*
 * A fresh connected pair in place of *@a / *@b: a QP that saw an access
 * error is in ERR, so every refused op takes a new pair.
 */
static bool kt_fr_pair(struct kt *t, struct ib_qp **a, struct ib_qp **b,
		       u32 psn)
{
	int ret;

	kt_fr_unpair(a, b);
	*a = kt_qp(t, IB_QPT_RC, t->cq, t->cq);
	*b = kt_qp(t, IB_QPT_RC, t->cq, t->wq_cq);
	ret = IS_ERR(*a) ? PTR_ERR(*a) : IS_ERR(*b) ? PTR_ERR(*b) : 0;
	if (!ret)
		ret = kt_rc_connect(t, *a, (*b)->qp_num, psn);
	if (!ret)
		ret = kt_rc_connect(t, *b, (*a)->qp_num, psn);
	if (IS_ERR(*a))
		*a = NULL;
	if (IS_ERR(*b))
		*b = NULL;
	if (CHECK(!ret, "fast-reg pair psn %u: %d", psn, ret))
		return true;
	kt_fr_unpair(a, b);
	return false;
}

/* Map and key checks without a QP: the list, a partial map, the key. */
static void kt_fr_map_checks(struct kt *t, struct kt_fr *f)
{
	struct ib_mr *small;
	unsigned int off;
	u32 old, next;
	int ret;

	CHECK(f->mr->type == IB_MR_TYPE_MEM_REG && f->mr->lkey == f->mr->rkey,
	      "fast-reg MR: type %d lkey %x rkey %x", f->mr->type,
	      f->mr->lkey, f->mr->rkey);
	ret = kt_fr_map(t, f, f->mr, &off);
	CHECK(ret == 3 && off == 0 &&
	      f->mr->iova == (uintptr_t)page_address(f->pages[0]) + FR_OFFSET &&
	      f->mr->length == FR_LEN && f->mr->page_size == PAGE_SIZE,
	      "map 3 entries at offset %d: %d, iova %s, length %llu, off %u",
	      FR_OFFSET, ret, f->mr->iova ==
	      (uintptr_t)page_address(f->pages[0]) + FR_OFFSET ? "ok" : "bad",
	      f->mr->length, off);

	/* room for 2 pages: 2 entries mapped, the third to go on with */
	small = ib_alloc_mr(t->pd, IB_MR_TYPE_MEM_REG, 2);
	if (CHECK(!IS_ERR(small), "alloc 2-page MR: %ld", PTR_ERR(small))) {
		ret = kt_fr_map(t, f, small, &off);
		CHECK(ret == 2 && off == 0 &&
		      small->length == PAGE_SIZE - FR_OFFSET + PAGE_SIZE,
		      "partial map: %d entries, length %llu, off %u", ret,
		      small->length, off);
		ret = ib_dereg_mr(small);
		CHECK(!ret, "dereg 2-page MR: %d", ret);
	}
	small = ib_alloc_mr(t->pd, IB_MR_TYPE_SG_GAPS, 2);
	CHECK(IS_ERR(small) && PTR_ERR(small) == -EOPNOTSUPP,
	      "SG_GAPS MR refused: %ld", PTR_ERR(small));

	old = f->mr->rkey;
	next = ib_inc_rkey(old);
	ib_update_fast_reg_key(f->mr, next & 0xff);
	CHECK(f->mr->rkey == next && f->mr->lkey == next &&
	      (next >> 8) == (old >> 8) && (next & 0xff) == ((old + 1) & 0xff),
	      "ib_inc_rkey %x -> %x, MR keys %x/%x", old, next, f->mr->lkey,
	      f->mr->rkey);
}

static void kt_fastreg(struct kt *t)
{
	u8 *seen = kzalloc(FR_LEN, GFP_KERNEL);
	struct kt_fr f = {};
	struct ib_qp *a = NULL, *b = NULL;
	const struct ib_send_wr *bad;
	struct ib_send_wr inv = {};
	struct ib_sge sge;
	struct kt_rx rx;
	struct ib_wc wc;
	u32 key1, key2;
	unsigned int off;
	int i, ret;

	for (i = 0; i < 3; i++) {
		f.pages[i] = alloc_page(GFP_KERNEL | __GFP_ZERO);
		if (!CHECK(f.pages[i], "page %d", i))
			goto out_pages;
	}
	sg_init_table(f.sg, 3);
	sg_set_page(&f.sg[0], f.pages[0], PAGE_SIZE, 0);
	sg_set_page(&f.sg[1], f.pages[1], PAGE_SIZE, 0);
	sg_set_page(&f.sg[2], f.pages[2], FR_TAIL, 0);
	CHECK(ib_dma_map_sg(t->dev, f.sg, 3, DMA_BIDIRECTIONAL) == 3,
	      "map sg");
	f.mr = ib_alloc_mr(t->pd, IB_MR_TYPE_MEM_REG, 4);
	if (!CHECK(!IS_ERR(f.mr), "alloc MEM_REG MR: %ld", PTR_ERR(f.mr)) ||
	    !seen)
		goto out_pages;
	kt_fr_map_checks(t, &f);
	key1 = f.mr->rkey;

	/* not valid before its REG_MR */
	if (!kt_fr_pair(t, &a, &b, 500))
		goto out_mr;
	ret = kt_fr_rdma(t, a, IB_WR_RDMA_WRITE, 0, f.mr->iova, 64, key1, &wc);
	CHECK(!ret && wc.status == IB_WC_REM_ACCESS_ERR,
	      "write before REG_MR: %d status %d", ret, wc.status);
	/* REG_MR, then RDMA WRITE and READ through the rkey */
	if (!kt_fr_pair(t, &a, &b, 600))
		goto out_mr;
	kt_fr_reg(t, &f, b, key1);
	kt_fill(t->a_buf, BUF_SIZE, 9);
	ret = kt_fr_rdma(t, a, IB_WR_RDMA_WRITE, 0, f.mr->iova, FR_LEN, key1,
			 &wc);
	CHECK(!ret && wc.status == IB_WC_SUCCESS,
	      "write %lu bytes through the fast-reg rkey: %d status %d",
	      FR_LEN, ret, wc.status);
	kt_fr_gather(&f, seen);
	CHECK(!memcmp(seen, t->a_buf, FR_LEN), "fast-reg write byte-exact");
	CHECK(!((u8 *)page_address(f.pages[0]))[FR_OFFSET - 1] &&
	      !((u8 *)page_address(f.pages[2]))[FR_TAIL],
	      "nothing written outside the mapping");
	memset(t->a_buf + 12000, 0, 3000);
	ret = kt_fr_rdma(t, a, IB_WR_RDMA_READ, 12000, f.mr->iova + 3000, 3000,
			 key1, &wc);
	CHECK(!ret && wc.status == IB_WC_SUCCESS &&
	      !memcmp(t->a_buf + 12000, seen + 3000, 3000),
	      "read across a page seam through the fast-reg rkey: %d status %d",
	      ret, wc.status);
	ret = kt_fr_rdma(t, a, IB_WR_RDMA_WRITE, 0, f.mr->iova + FR_LEN - 8,
			 16, key1, &wc);
	CHECK(!ret && wc.status == IB_WC_REM_ACCESS_ERR,
	      "write past the mapping: status %d", wc.status);

	/* LOCAL_INV on the owner's QP: the rkey is refused */
	if (!kt_fr_pair(t, &a, &b, 700))
		goto out_mr;
	inv.wr_id = 0x1e7;
	inv.opcode = IB_WR_LOCAL_INV;
	inv.send_flags = IB_SEND_SIGNALED;
	inv.ex.invalidate_rkey = key1;
	ret = ib_post_send(b, &inv, &bad);
	CHECK(!ret, "post LOCAL_INV: %d", ret);
	if (CHECK(kt_poll_one(t->cq, &wc) == 1, "LOCAL_INV completion"))
		CHECK(wc.status == IB_WC_SUCCESS && wc.opcode == IB_WC_LOCAL_INV,
		      "LOCAL_INV wc: status %d opcode %d", wc.status, wc.opcode);
	ret = kt_fr_rdma(t, a, IB_WR_RDMA_READ, 12000, f.mr->iova, 16, key1,
			 &wc);
	CHECK(!ret && wc.status == IB_WC_REM_ACCESS_ERR,
	      "read after LOCAL_INV: %d status %d", ret, wc.status);

	/* the next key variant; invalidated by the peer's SEND_WITH_INV */
	key2 = ib_inc_rkey(key1);
	ib_update_fast_reg_key(f.mr, key2 & 0xff);
	ret = kt_fr_map(t, &f, f.mr, &off);
	CHECK(ret == 3, "map again after invalidation: %d", ret);
	if (!kt_fr_pair(t, &a, &b, 800))
		goto out_mr;
	kt_fr_reg(t, &f, b, key2);
	ret = kt_fr_rdma(t, a, IB_WR_RDMA_READ, 12000, f.mr->iova, 16, key1,
			 &wc);
	CHECK(!ret && wc.status == IB_WC_REM_ACCESS_ERR,
	      "read with the old key variant: status %d", wc.status);
	if (!kt_fr_pair(t, &a, &b, 900))
		goto out_mr;
	ret = kt_fr_rdma(t, a, IB_WR_RDMA_READ, 12000, f.mr->iova, 64, key2,
			 &wc);
	CHECK(!ret && wc.status == IB_WC_SUCCESS &&
	      !memcmp(t->a_buf + 12000, seen, 64),
	      "read with the new key variant: status %d", wc.status);
	kt_rx_init(&rx);
	ret = kt_post_recv(b, &rx, 0, t->b_buf, 64, t->pd->local_dma_lkey);
	CHECK(!ret, "post recv for SEND_WITH_INV: %d", ret);
	sge.addr = (uintptr_t)t->a_buf;
	sge.length = 32;
	sge.lkey = t->pd->local_dma_lkey;
	inv.wr_id = 0x5171;
	inv.sg_list = &sge;
	inv.num_sge = 1;
	inv.opcode = IB_WR_SEND_WITH_INV;
	inv.ex.invalidate_rkey = key2;
	ret = ib_post_send(a, &inv, &bad);
	CHECK(!ret, "post SEND_WITH_INV: %d", ret);
	if (CHECK(kt_poll_one(t->cq, &wc) == 1, "SEND_WITH_INV completion"))
		CHECK(wc.status == IB_WC_SUCCESS && wc.wr_id == 0x5171,
		      "SEND_WITH_INV wc: status %d", wc.status);
	if (CHECK(kt_wait_rx(&rx), "SEND_WITH_INV receive"))
		CHECK(rx.wc.status == IB_WC_SUCCESS && rx.wc.byte_len == 32 &&
		      (rx.wc.wc_flags & IB_WC_WITH_INVALIDATE) &&
		      rx.wc.ex.invalidate_rkey == key2,
		      "receive: status %d flags %x invalidated %x (key %x)",
		      rx.wc.status, rx.wc.wc_flags, rx.wc.ex.invalidate_rkey,
		      key2);
	ret = kt_fr_rdma(t, a, IB_WR_RDMA_WRITE, 0, f.mr->iova, 16, key2, &wc);
	CHECK(!ret && wc.status == IB_WC_REM_ACCESS_ERR,
	      "write after remote invalidation: %d status %d", ret, wc.status);
out_mr:
	kt_fr_unpair(&a, &b);
	ret = ib_dereg_mr(f.mr);
	CHECK(!ret, "dereg fast-reg MR: %d", ret);
out_pages:
	for (i = 0; i < 3; i++)
		if (f.pages[i])
			__free_page(f.pages[i]);
	kfree(seen);
}

/* What `rdma res` counts on @dev, per kind. */
static void kt_res(struct ib_device *dev, int *res)
{
	int i;

	for (i = 0; i < IB_RES_MAX; i++)
		res[i] = atomic_read(&dev->res_count[i]);
}

/* ---- MR pools ------------------------------------------------------- */

#define POOL_NR		4

/*
 * A pool of POOL_NR on a QP: get hands out distinct MRs until it is
 * empty, mrs_used follows, put makes exactly that MR available again, and
 * destroy deregisters all of them (`rdma res` MR count back; slub_debug
 * would see a leak or a use after free).  A pool that cannot be filled
 * leaves nothing behind.
 */
static void kt_mr_pool(struct kt *t)
{
	struct ib_mr *got[POOL_NR + 1] = {};
	int before[IB_RES_MAX], during[IB_RES_MAX], after[IB_RES_MAX];
	u32 too_many = t->dev->attrs.max_fast_reg_page_list_len + 1;
	struct ib_qp *qp;
	struct ib_mr *again;
	int i, j, ret;

	qp = kt_qp(t, IB_QPT_RC, t->cq, t->cq);
	if (!CHECK(!IS_ERR(qp), "pool QP: %ld", PTR_ERR(qp)))
		return;
	ST_CHECK(list_empty(&qp->rdma_mrs) && list_empty(&qp->sig_mrs) &&
		 qp->mrs_used == 0);
	kt_res(t->dev, before);

	ret = ib_mr_pool_init(qp, &qp->rdma_mrs, POOL_NR, IB_MR_TYPE_MEM_REG,
			      too_many, 0);
	kt_res(t->dev, during);
	CHECK(ret == -EINVAL && list_empty(&qp->rdma_mrs) &&
	      during[IB_RES_MR] == before[IB_RES_MR],
	      "pool of unmakeable MRs: %d, MRs %d -> %d", ret,
	      before[IB_RES_MR], during[IB_RES_MR]);
	ret = ib_mr_pool_init(qp, &qp->sig_mrs, 1, IB_MR_TYPE_INTEGRITY, 2, 2);
	CHECK(ret == -EOPNOTSUPP && list_empty(&qp->sig_mrs),
	      "integrity pool: %d", ret);

	ret = ib_mr_pool_init(qp, &qp->rdma_mrs, POOL_NR, IB_MR_TYPE_MEM_REG,
			      2, 0);
	kt_res(t->dev, during);
	if (!CHECK(!ret && during[IB_RES_MR] == before[IB_RES_MR] + POOL_NR,
		   "pool init: %d, MRs %d -> %d", ret, before[IB_RES_MR],
		   during[IB_RES_MR]))
		goto out_qp;

	for (i = 0; i <= POOL_NR; i++)
		got[i] = ib_mr_pool_get(qp, &qp->rdma_mrs);
	for (i = 0; i < POOL_NR; i++) {
		CHECK(got[i] && got[i]->type == IB_MR_TYPE_MEM_REG &&
		      got[i]->pd == t->pd, "pool MR %d: %p", i, got[i]);
		for (j = 0; j < i; j++)
			CHECK(got[i] != got[j], "pool MRs %d and %d the same",
			      j, i);
	}
	CHECK(!got[POOL_NR], "get from an empty pool: %p", got[POOL_NR]);
	CHECK(qp->mrs_used == POOL_NR && list_empty(&qp->rdma_mrs),
	      "all taken: mrs_used %d", qp->mrs_used);

	ib_mr_pool_put(qp, &qp->rdma_mrs, got[1]);
	CHECK(qp->mrs_used == POOL_NR - 1, "one put: mrs_used %d",
	      qp->mrs_used);
	again = ib_mr_pool_get(qp, &qp->rdma_mrs);
	CHECK(again == got[1], "get after put: %p, put %p", again, got[1]);
	CHECK(!ib_mr_pool_get(qp, &qp->rdma_mrs) && qp->mrs_used == POOL_NR,
	      "empty again: mrs_used %d", qp->mrs_used);

	for (i = 0; i < POOL_NR; i++)
		if (got[i])
			ib_mr_pool_put(qp, &qp->rdma_mrs, got[i]);
	ST_CHECK(qp->mrs_used == 0);
	ib_mr_pool_destroy(qp, &qp->rdma_mrs);
	kt_res(t->dev, after);
	CHECK(list_empty(&qp->rdma_mrs) &&
	      after[IB_RES_MR] == before[IB_RES_MR],
	      "pool destroyed: MRs %d -> %d", before[IB_RES_MR],
	      after[IB_RES_MR]);
	ib_mr_pool_destroy(qp, &qp->rdma_mrs);	/* empty: nothing to do */
out_qp:
	ret = ib_destroy_qp(qp);
	CHECK(!ret, "destroy pool QP: %d", ret);
}

/* ---- shared CQs ----------------------------------------------------- */

#define CQP_NR		16	/* CQEs each queue asks of the pool */

/* A signaled SEND of @len bytes of @buf whose completion goes to @tx. */
static int kt_send_to_cqe(struct kt *t, struct ib_qp *qp, struct kt_rx *tx,
			  void *buf, u32 len)
{
	struct ib_sge sge = {
		.addr = ib_dma_map_single(t->dev, buf, len, DMA_TO_DEVICE),
		.length = len,
		.lkey = t->pd->local_dma_lkey,
	};
	struct ib_send_wr wr = {
		.wr_cqe = &tx->cqe,
		.sg_list = &sge,
		.num_sge = 1,
		.opcode = IB_WR_SEND,
		.send_flags = IB_SEND_SIGNALED,
	};

	kt_rx_init(tx);
	return ib_post_send(qp, &wr, NULL);
}

/* @wc of @qp: successful, @opcode, @len bytes (receives), in softirq. */
static void kt_check_pool_wc(struct kt_rx *c, const char *what,
			     struct ib_qp *qp, int opcode, u32 len)
{
	if (!CHECK(kt_wait_rx(c), "%s: ->done() called", what))
		return;
	CHECK(c->wc.status == IB_WC_SUCCESS && c->wc.qp == qp &&
	      c->wc.opcode == opcode && (!len || c->wc.byte_len == len) &&
	      c->in_softirq,
	      "%s: status %d qp %u opcode %d len %u softirq %d", what,
	      c->wc.status, c->wc.qp ? c->wc.qp->qp_num : 0, c->wc.opcode,
	      c->wc.byte_len, c->in_softirq);
}

/*
 * Two RC QPs on one pool CQ, each sending to the other: every completion
 * reaches its own WR's ->done() with the right QP.
 */
static void kt_cq_pool_xfer(struct kt *t, struct ib_cq *cq)
{
	struct kt_rx rx_a, rx_b, tx_a, tx_b;
	u8 *a_rx = t->a_buf + BUF_SIZE / 2, *b_rx = t->b_buf + BUF_SIZE / 2;
	struct ib_qp *qa, *qb;
	int ret;

	qa = kt_qp(t, IB_QPT_RC, cq, cq);
	if (!CHECK(!IS_ERR(qa), "pool CQ QP a: %ld", PTR_ERR(qa)))
		return;
	qb = kt_qp(t, IB_QPT_RC, cq, cq);
	if (!CHECK(!IS_ERR(qb), "pool CQ QP b: %ld", PTR_ERR(qb)))
		goto out_a;
	ret = kt_rc_connect(t, qa, qb->qp_num, 300);
	if (!ret)
		ret = kt_rc_connect(t, qb, qa->qp_num, 300);
	if (!CHECK(!ret, "connect pool CQ QPs: %d", ret))
		goto out_b;

	kt_fill(t->a_buf, BUF_SIZE / 2, 5);
	kt_fill(t->b_buf, BUF_SIZE / 2, 6);
	memset(a_rx, 0, BUF_SIZE / 2);
	memset(b_rx, 0, BUF_SIZE / 2);
	kt_rx_init(&rx_a);
	kt_rx_init(&rx_b);
	ret = kt_post_recv(qa, &rx_a, 0, a_rx, BUF_SIZE / 2,
			   t->pd->local_dma_lkey);
	ret = ret ?: kt_post_recv(qb, &rx_b, 0, b_rx, BUF_SIZE / 2,
				  t->pd->local_dma_lkey);
	ret = ret ?: kt_send_to_cqe(t, qa, &tx_a, t->a_buf, 2000);
	ret = ret ?: kt_send_to_cqe(t, qb, &tx_b, t->b_buf, 1500);
	if (!CHECK(!ret, "post on pool CQ QPs: %d", ret))
		goto out_b;

	kt_check_pool_wc(&tx_a, "a's send", qa, IB_WC_SEND, 0);
	kt_check_pool_wc(&tx_b, "b's send", qb, IB_WC_SEND, 0);
	kt_check_pool_wc(&rx_b, "b's recv", qb, IB_WC_RECV, 2000);
	kt_check_pool_wc(&rx_a, "a's recv", qa, IB_WC_RECV, 1500);
	CHECK(!memcmp(b_rx, t->a_buf, 2000) && !memcmp(a_rx, t->b_buf, 1500),
	      "data both ways over the pool CQ");
out_b:
	ret = ib_destroy_qp(qb);
	CHECK(!ret, "destroy pool CQ QP b: %d", ret);
out_a:
	ret = ib_destroy_qp(qa);
	CHECK(!ret, "destroy pool CQ QP a: %d", ret);
}

/*
 * The softirq pool: two gets share a CQ while it has room, one that does
 * not fit gets another, put gives room back, other contexts have their
 * own pool and DIRECT none.  The pool CQs stay (counted in t->pool_cqs)
 * until rxe0 is deleted: the guest script unloads ib_core after that.
 */
static void kt_cq_pool(struct kt *t)
{
	int before[IB_RES_MAX], after[IB_RES_MAX];
	struct ib_cq *a, *b, *big, *wq, *again;
	unsigned int used, n_big;

	kt_res(t->dev, before);
	CHECK(PTR_ERR(ib_cq_pool_get(t->dev, CQP_NR, 0, IB_POLL_DIRECT)) ==
	      -EINVAL, "no DIRECT pool");
	a = ib_cq_pool_get(t->dev, CQP_NR, 0, IB_POLL_SOFTIRQ);
	if (!CHECK(!IS_ERR(a), "pool get: %ld", PTR_ERR(a)))
		return;
	used = a->cqe_used;
	b = ib_cq_pool_get(t->dev, CQP_NR, 0, IB_POLL_SOFTIRQ);
	if (!CHECK(b == a, "second get shares the CQ: %p, %p", b, a)) {
		if (!IS_ERR(b))
			ib_cq_pool_put(b, CQP_NR);
		goto out_a;
	}
	CHECK(a->shared && a->poll_ctx == IB_POLL_SOFTIRQ &&
	      used >= CQP_NR && a->cqe_used == used + CQP_NR,
	      "shared CQ: cqe %d used %u then %u", a->cqe, used, a->cqe_used);

	n_big = a->cqe - a->cqe_used + 1;
	big = ib_cq_pool_get(t->dev, n_big, 0, IB_POLL_SOFTIRQ);
	if (CHECK(!IS_ERR(big) && big != a && big->cqe >= n_big,
		  "get of %u, more than the room left: %p", n_big, big)) {
		ib_cq_pool_put(big, n_big);
		ST_CHECK(big->cqe_used == 0);
	}
	wq = ib_cq_pool_get(t->dev, CQP_NR, 0, IB_POLL_WORKQUEUE);
	if (CHECK(!IS_ERR(wq) && wq != a && wq->poll_ctx == IB_POLL_WORKQUEUE,
		  "workqueue pool: %p", wq))
		ib_cq_pool_put(wq, CQP_NR);

	kt_cq_pool_xfer(t, a);

	ib_cq_pool_put(b, CQP_NR);
	CHECK(a->cqe_used == used, "put gives room back: %u, was %u",
	      a->cqe_used, used);
	again = ib_cq_pool_get(t->dev, a->cqe - a->cqe_used, 0,
			       IB_POLL_SOFTIRQ);
	if (CHECK(again == a, "get of exactly the room left: %p", again))
		ib_cq_pool_put(again, a->cqe - used);
out_a:
	ib_cq_pool_put(a, CQP_NR);
	kt_res(t->dev, after);
	t->pool_cqs = after[IB_RES_CQ] - before[IB_RES_CQ];
	CHECK(t->pool_cqs >= 3, "pool CQs made: %d", t->pool_cqs);
	/* tests/guest/kverbs.sh expects them in `rdma res` until rxe0 goes */
	pr_info(KBUILD_MODNAME ": %d pool CQs stay until the device goes\n",
		t->pool_cqs);
}

/* ---- UD (and the GSI QP) -------------------------------------------- */

/* Send @len bytes from @from to @to (qkey @qkey) and check the receive. */
static void kt_ud_xfer(struct kt *t, struct ib_qp *from, struct ib_qp *to,
		       u32 qkey, u32 len)
{
	struct ib_ah_attr ah_attr, back;
	struct ib_ud_wr uwr = {};
	const struct ib_send_wr *bad;
	struct ib_sge sge;
	struct kt_rx rx;
	struct ib_wc wc;
	struct ib_ah *ah;
	int ret;

	kt_av(t, &ah_attr);
	ah = ib_create_ah(t->pd, &ah_attr);
	if (!CHECK(!IS_ERR(ah), "create AH: %ld", PTR_ERR(ah)))
		return;

	kt_fill(t->a_buf, BUF_SIZE, (u8)len);
	memset(t->b_buf, 0, BUF_SIZE);
	kt_rx_init(&rx);
	ret = kt_post_recv(to, &rx, 0, t->b_buf, GRH_BYTES + len,
			   t->pd->local_dma_lkey);
	CHECK(!ret, "post UD recv: %d", ret);

	sge.addr = (uintptr_t)t->a_buf;
	sge.length = len;
	sge.lkey = t->pd->local_dma_lkey;
	uwr.wr.wr_id = 0x0d;
	uwr.wr.sg_list = &sge;
	uwr.wr.num_sge = 1;
	uwr.wr.opcode = IB_WR_SEND;
	uwr.wr.send_flags = IB_SEND_SIGNALED;
	uwr.ah = ah;
	uwr.remote_qpn = to->qp_num;
	uwr.remote_qkey = qkey;
	ret = ib_post_send(from, &uwr.wr, &bad);
	CHECK(!ret, "post UD send: %d", ret);
	if (CHECK(kt_poll_one(t->cq, &wc) == 1, "UD send completion"))
		CHECK(wc.status == IB_WC_SUCCESS && wc.qp == from,
		      "UD send wc: status %d", wc.status);
	if (!CHECK(kt_wait_rx(&rx), "UD recv completion"))
		goto out;
	CHECK(rx.wc.status == IB_WC_SUCCESS &&
	      rx.wc.byte_len == GRH_BYTES + len &&
	      (rx.wc.wc_flags & IB_WC_GRH) && rx.wc.src_qp == from->qp_num &&
	      rx.wc.qp == to,
	      "UD recv wc: status %d len %u flags %x src_qp %u",
	      rx.wc.status, rx.wc.byte_len, rx.wc.wc_flags, rx.wc.src_qp);
	CHECK((rx.wc.wc_flags & IB_WC_WITH_NETWORK_HDR_TYPE) &&
	      rx.wc.network_hdr_type == RDMA_NETWORK_IPV4,
	      "network type %d", rx.wc.network_hdr_type);
	CHECK(rx.in_softirq, "softirq CQ calls ->done() in softirq context");
	CHECK(!memcmp(t->b_buf + GRH_BYTES, t->a_buf, len),
	      "UD data byte-exact");
	ret = ib_init_ah_attr_from_wc(t->dev, 1, &rx.wc, t->b_buf, &back);
	CHECK(!ret && back.is_global &&
	      !memcmp(back.dgid.raw, t->gid.raw, 16) &&
	      back.sgid_index == t->gid_index,
	      "AH from wc: %d index %u", ret, back.sgid_index);
out:
	ret = ib_destroy_ah(ah);
	CHECK(!ret, "destroy AH: %d", ret);
}

static void kt_ud(struct kt *t)
{
	struct ib_qp *a, *b;
	int ret;

	a = kt_qp(t, IB_QPT_UD, t->cq, t->cq);
	if (!CHECK(!IS_ERR(a), "create UD QP a: %ld", PTR_ERR(a)))
		return;
	b = kt_qp(t, IB_QPT_UD, t->cq, t->sirq_cq);
	if (!CHECK(!IS_ERR(b), "create UD QP b: %ld", PTR_ERR(b)))
		goto out_a;
	ret = kt_ud_ready(a, UD_QKEY, false);
	CHECK(!ret, "UD a to RTS: %d", ret);
	ret = kt_ud_ready(b, UD_QKEY, false);
	CHECK(!ret, "UD b to RTS: %d", ret);
	kt_ud_xfer(t, a, b, UD_QKEY, 512);
	ret = ib_destroy_qp(b);
	CHECK(!ret, "destroy UD b: %d", ret);
out_a:
	ret = ib_destroy_qp(a);
	CHECK(!ret, "destroy UD a: %d", ret);
}

static void kt_gsi(struct kt *t)
{
	struct ib_qp *gsi, *again;
	struct ib_qp_attr qa = {};
	int ret;

	gsi = kt_qp(t, IB_QPT_GSI, t->cq, t->sirq_cq);
	if (IS_ERR(gsi)) {
		/* the MAD layer has QP1 already: a second one is refused */
		CHECK(PTR_ERR(gsi) == -EBUSY, "GSI QP: %ld", PTR_ERR(gsi));
		pr_info("kverbs_selftest: QP1 is held (MAD layer), skipping the GSI loopback\n");
		return;
	}
	CHECK(gsi->qp_num == 1, "GSI qp_num %u", gsi->qp_num);
	again = kt_qp(t, IB_QPT_GSI, t->cq, t->cq);
	CHECK(IS_ERR(again) && PTR_ERR(again) == -EBUSY,
	      "second GSI QP: %ld", PTR_ERR(again));
	if (!IS_ERR(again))
		ib_destroy_qp(again);

	/* QP1 only takes the well-known Q_Key */
	qa.qp_state = IB_QPS_INIT;
	qa.qkey = UD_QKEY;
	ret = ib_modify_qp(gsi, &qa, IB_QP_STATE | IB_QP_PKEY_INDEX |
			   IB_QP_QKEY);
	CHECK(ret == -EINVAL, "GSI with another Q_Key: %d", ret);

	ret = kt_ud_ready(gsi, QP1_QKEY, true);
	if (CHECK(!ret, "GSI to RTS: %d", ret))
		kt_ud_xfer(t, gsi, gsi, QP1_QKEY, 256);
	ret = ib_destroy_qp(gsi);
	CHECK(!ret, "destroy GSI: %d", ret);
}

/* ---- read/write contexts ------------------------------------------- */

#define RW_PAGES	8
#define RW_MARK		0xee	/* remote bytes no WR may touch */
#define RW_SGES		2	/* SGEs per WR of the test's send queue */

/* One scatterlist entry: which of the test's pages, where, how long. */
struct kt_rw_ent {
	u8 page;
	u16 off;
	u16 len;
};

/* 3 entries with odd offsets and sizes: 1000 + 4096 + 37 = 5133 bytes */
static const struct kt_rw_ent kt_rw_three[] = {
	{ 0, 100, 1000 }, { 1, 0, 4096 }, { 2, 3001, 37 },
};
/* the same 5133 bytes laid out differently, to read them back into */
static const struct kt_rw_ent kt_rw_three_back[] = {
	{ 3, 7, 2000 }, { 4, 1, 3096 }, { 5, 4000, 37 },
};
/* 7 entries, more than the QP's 2 SGEs per WR: 7749 bytes in 4 WRs */
static const struct kt_rw_ent kt_rw_seven[] = {
	{ 0, 5, 300 }, { 0, 400, 511 }, { 1, 17, 1 }, { 1, 100, 2000 },
	{ 2, 0, 4096 }, { 3, 333, 777 }, { 3, 2000, 64 },
};
/* one entry: the context's own WR, nothing allocated */
static const struct kt_rw_ent kt_rw_one[] = { { 2, 50, 3000 } };
static const struct kt_rw_ent kt_rw_one_back[] = { { 6, 1000, 3000 } };
static const struct kt_rw_ent kt_rw_seven_back[] = {
	{ 4, 9, 300 }, { 4, 1000, 511 }, { 5, 3, 1 }, { 5, 2000, 2000 },
	{ 6, 0, 4096 }, { 7, 11, 777 }, { 7, 3000, 64 },
};

struct kt_rw {
	struct kt *t;
	struct ib_qp *a, *b;	/* a posts, b's memory is the remote */
	struct page *pages[RW_PAGES];
	struct scatterlist sg[8];
	u8 *seen;		/* a list's bytes gathered in order */
};

static u32 kt_rw_set(struct kt_rw *r, const struct kt_rw_ent *e, u32 n)
{
	u32 i, total = 0;

	sg_init_table(r->sg, n);
	for (i = 0; i < n; i++) {
		sg_set_page(&r->sg[i], r->pages[e[i].page], e[i].len,
			    e[i].off);
		total += e[i].len;
	}
	return total;
}

static void kt_rw_gather(struct kt_rw *r, const struct kt_rw_ent *e, u32 n)
{
	u8 *out = r->seen;
	u32 i;

	for (i = 0; i < n; i++) {
		memcpy(out, (u8 *)page_address(r->pages[e[i].page]) + e[i].off,
		       e[i].len);
		out += e[i].len;
	}
}

/*
 * One context over @e: init (its WR count must be @want_wrs), post, one
 * completion through @cqe for the whole context, destroy.
 */
static void kt_rw_move(struct kt_rw *r, const struct kt_rw_ent *e, u32 n,
		       u32 sg_offset, u64 remote, enum dma_data_direction dir,
		       int want_wrs, const char *what)
{
	struct kt *t = r->t;
	struct rdma_rw_ctx ctx;
	struct kt_rx done;
	struct ib_wc wc;
	int ret;

	kt_rw_set(r, e, n);
	ret = rdma_rw_ctx_init(&ctx, r->a, 1, r->sg, n, sg_offset, remote,
			       t->mr->rkey, dir);
	if (!CHECK(ret == want_wrs, "%s: init %d, want %d WRs", what, ret,
		   want_wrs))
		return;
	kt_rx_init(&done);
	ret = rdma_rw_ctx_post(&ctx, r->a, 1, &done.cqe, NULL);
	CHECK(!ret, "%s: post %d", what, ret);
	if (CHECK(kt_poll_one(t->cq, &wc) == 1, "%s: completion", what))
		CHECK(wc.status == IB_WC_SUCCESS && wc.wr_cqe == &done.cqe &&
		      wc.opcode == (dir == DMA_TO_DEVICE ? IB_WC_RDMA_WRITE :
				    IB_WC_RDMA_READ),
		      "%s: wc status %d opcode %d", what, wc.status, wc.opcode);
	CHECK(kst_poll_cq(t->cq, &wc, 50) == 0,
	      "%s: one completion per context", what);
	rdma_rw_ctx_destroy(&ctx, r->a, 1, r->sg, n, dir);
}

/* Write @e to b_buf + @at, check it there, read it back into @back. */
static void kt_rw_round_trip(struct kt_rw *r, const struct kt_rw_ent *e,
			     const struct kt_rw_ent *back, u32 n, u32 at,
			     int want_wrs, const char *what)
{
	struct kt *t = r->t;
	u32 total = 0, i;
	bool ok;

	for (i = 0; i < RW_PAGES; i++)
		kt_fill(page_address(r->pages[i]), PAGE_SIZE, 31 * i + at);
	for (i = 0; i < n; i++) {
		total += e[i].len;
		memset((u8 *)page_address(r->pages[back[i].page]) +
		       back[i].off, 0, back[i].len);
	}
	memset(t->b_buf, RW_MARK, BUF_SIZE);
	kt_rw_gather(r, e, n);

	kt_rw_move(r, e, n, 0, (uintptr_t)t->b_buf + at, DMA_TO_DEVICE,
		   want_wrs, what);
	ok = !memcmp(t->b_buf + at, r->seen, total);
	CHECK(ok && t->b_buf[at - 1] == RW_MARK &&
	      t->b_buf[at + total] == RW_MARK,
	      "%s: %u bytes written byte-exact, nothing around", what, total);

	kt_rw_move(r, back, n, 0, (uintptr_t)t->b_buf + at, DMA_FROM_DEVICE,
		   want_wrs, what);
	memset(r->seen, 0, total);
	kt_rw_gather(r, back, n);
	CHECK(!memcmp(t->b_buf + at, r->seen, total),
	      "%s: %u bytes read back byte-exact", what, total);
}

/* sg_offset into the first entry, and past it into the second. */
static void kt_rw_offsets(struct kt_rw *r)
{
	struct kt *t = r->t;
	const u32 n = ARRAY_SIZE(kt_rw_three);
	u32 i, skip;

	for (skip = 10; skip <= 1005; skip += 995) {
		for (i = 0; i < RW_PAGES; i++)
			kt_fill(page_address(r->pages[i]), PAGE_SIZE, 3 + i);
		memset(t->b_buf, RW_MARK, BUF_SIZE);
		kt_rw_gather(r, kt_rw_three, n);
		/* 3 entries left at 10 bytes in (2 WRs), 2 at 1005 (1 WR) */
		kt_rw_move(r, kt_rw_three, n, skip, (uintptr_t)t->b_buf + 64,
			   DMA_TO_DEVICE, skip < 1000 ? 2 : 1, "offset write");
		CHECK(!memcmp(t->b_buf + 64, r->seen + skip, 5133 - skip) &&
		      t->b_buf[63] == RW_MARK &&
		      t->b_buf[64 + 5133 - skip] == RW_MARK,
		      "sg_offset %u: bytes %u.. of the list written", skip,
		      skip);
	}
}

/* What must be refused before anything is posted, and the sizing calls. */
static void kt_rw_errors(struct kt_rw *r)
{
	struct kt *t = r->t;
	struct ib_qp_init_attr attr = {};
	struct rdma_rw_ctx ctx;
	u64 remote = (uintptr_t)t->b_buf;
	u32 n = ARRAY_SIZE(kt_rw_three), rkey = t->mr->rkey;
	int ret;

	kt_rw_set(r, kt_rw_three, n);
	ret = rdma_rw_ctx_init(&ctx, r->a, 1, r->sg, 0, 0, remote, rkey,
			       DMA_TO_DEVICE);
	CHECK(ret == -EINVAL, "empty list: %d", ret);
	ret = rdma_rw_ctx_init(&ctx, r->a, 1, r->sg, n, 5133, remote, rkey,
			       DMA_TO_DEVICE);
	CHECK(ret == -EINVAL, "sg_offset at the end: %d", ret);
	ret = rdma_rw_ctx_init(&ctx, r->a, 1, r->sg, n, U32_MAX, remote, rkey,
			       DMA_FROM_DEVICE);
	CHECK(ret == -EINVAL, "sg_offset U32_MAX: %d", ret);
	ret = rdma_rw_ctx_init(&ctx, r->a, 1, r->sg, n, 0, U64_MAX - 100, rkey,
			       DMA_TO_DEVICE);
	CHECK(ret == -EINVAL, "remote range wraps: %d", ret);
	ret = rdma_rw_ctx_init(&ctx, r->a, 1, r->sg, n, 0, remote, rkey,
			       DMA_BIDIRECTIONAL);
	CHECK(ret == -EINVAL, "bidirectional: %d", ret);
	/* 2 x 2 GiB: never touched, the length check comes first */
	sg_init_table(r->sg, 2);
	sg_set_page(&r->sg[0], r->pages[0], 0x80000000u, 0);
	sg_set_page(&r->sg[1], r->pages[0], 0x80000000u, 0);
	ret = rdma_rw_ctx_init(&ctx, r->a, 1, r->sg, 2, 0, remote, rkey,
			       DMA_TO_DEVICE);
	CHECK(ret == -EINVAL, "4 GiB transfer: %d", ret);

	CHECK(rdma_rw_mr_factor(t->dev, 1, 64) ==
	      DIV_ROUND_UP(64, t->dev->attrs.max_sge_rd) &&
	      rdma_rw_mr_factor(t->dev, 1, 1) == 1,
	      "mr_factor(64) %u, max_sge_rd %d",
	      rdma_rw_mr_factor(t->dev, 1, 64), t->dev->attrs.max_sge_rd);
	attr.cap.max_send_wr = 16;
	attr.cap.max_rdma_ctxs = 8;
	rdma_rw_init_qp(t->dev, &attr);
	CHECK(attr.cap.max_send_wr == 24, "16 WRs + 8 contexts: %u",
	      attr.cap.max_send_wr);
	attr.cap.max_rdma_ctxs = U32_MAX;
	rdma_rw_init_qp(t->dev, &attr);
	CHECK(attr.cap.max_send_wr == t->dev->attrs.max_qp_wr,
	      "U32_MAX contexts: %u WRs, max_qp_wr %d", attr.cap.max_send_wr,
	      t->dev->attrs.max_qp_wr);
}

/* A context chained to a SEND: the SEND alone completes, after the data. */
static void kt_rw_chain(struct kt_rw *r)
{
	struct kt *t = r->t;
	const u32 n = ARRAY_SIZE(kt_rw_seven);
	struct ib_sge sge = {
		.addr = (uintptr_t)t->a_buf,
		.length = 16,
		.lkey = t->pd->local_dma_lkey,
	};
	struct ib_send_wr send = {
		.wr_id = 0xc4a1,
		.sg_list = &sge,
		.num_sge = 1,
		.opcode = IB_WR_SEND,
		.send_flags = IB_SEND_SIGNALED,
	};
	struct ib_send_wr *first, *w;
	struct rdma_rw_ctx ctx;
	struct kt_rx rx;
	struct ib_cqe unused = {};
	struct ib_wc wc;
	int ret, hops = 0;
	u32 total;

	memset(t->b_buf, RW_MARK, BUF_SIZE);
	total = kt_rw_set(r, kt_rw_seven, n);
	kt_rw_gather(r, kt_rw_seven, n);
	ret = rdma_rw_ctx_init(&ctx, r->a, 1, r->sg, n, 0,
			       (uintptr_t)t->b_buf + 4096, t->mr->rkey,
			       DMA_TO_DEVICE);
	if (!CHECK(ret == 4, "chained context: %d WRs", ret))
		return;
	first = rdma_rw_ctx_wrs(&ctx, r->a, 1, &unused, &send);
	for (w = first; w && w != &send && hops < 10; w = w->next, hops++)
		CHECK(w->opcode == IB_WR_RDMA_WRITE &&
		      !(w->send_flags & IB_SEND_SIGNALED) && !w->wr_cqe,
		      "chained WR %d: opcode %d flags %x", hops, w->opcode,
		      w->send_flags);
	CHECK(hops == 4 && w == &send, "chain: %d WRs then the SEND", hops);

	kt_rx_init(&rx);
	ret = kt_post_recv(r->b, &rx, 0, t->b_buf, 64, t->pd->local_dma_lkey);
	CHECK(!ret, "chain: post recv %d", ret);
	ret = ib_post_send(r->a, first, NULL);
	CHECK(!ret, "chain: post %d", ret);
	if (CHECK(kt_poll_one(t->cq, &wc) == 1, "chain: completion"))
		CHECK(wc.status == IB_WC_SUCCESS && wc.wr_id == 0xc4a1 &&
		      wc.opcode == IB_WC_SEND, "chain: wc status %d opcode %d",
		      wc.status, wc.opcode);
	CHECK(kt_wait_rx(&rx) && rx.wc.status == IB_WC_SUCCESS,
	      "chain: SEND received, status %d", rx.wc.status);
	CHECK(!memcmp(t->b_buf + 4096, r->seen, total),
	      "chain: data in place when the SEND arrived");
	CHECK(kst_poll_cq(t->cq, &wc, 200) == 0, "chain: no other completion");
	rdma_rw_ctx_destroy(&ctx, r->a, 1, r->sg, n, DMA_TO_DEVICE);
}

/*
 * A pair whose send queue takes 2 SGEs per WR (no inline area to round
 * it up), so the 7-entry list needs DIV_ROUND_UP(7, 2) = 4 WRs.
 */
static void kt_rw(struct kt *t)
{
	struct ib_qp_init_attr init = {
		.send_cq = t->cq,
		.recv_cq = t->cq,
		.cap = {
			.max_send_wr = 16,
			.max_recv_wr = 4,
			.max_send_sge = RW_SGES,
			.max_recv_sge = 1,
			.max_rdma_ctxs = 4,
		},
		.sq_sig_type = IB_SIGNAL_REQ_WR,
		.qp_type = IB_QPT_RC,
	};
	struct kt_rw r = { .t = t };
	int i, ret;

	r.seen = kzalloc(RW_PAGES * PAGE_SIZE, GFP_KERNEL);
	for (i = 0; i < RW_PAGES; i++)
		r.pages[i] = alloc_page(GFP_KERNEL);
	r.a = ib_create_qp(t->pd, &init);
	if (!CHECK(!IS_ERR(r.a), "rw QP a: %ld", PTR_ERR(r.a)))
		goto out_pages;
	CHECK(init.cap.max_send_wr >= 20 && r.a->max_write_sge == RW_SGES &&
	      r.a->max_read_sge == RW_SGES, "rw QP: %u WRs, write/read SGEs %u/%u",
	      init.cap.max_send_wr, r.a->max_write_sge, r.a->max_read_sge);
	r.b = kt_qp(t, IB_QPT_RC, t->cq, t->wq_cq);
	if (!CHECK(!IS_ERR(r.b), "rw QP b: %ld", PTR_ERR(r.b)))
		goto out_a;
	ret = kt_rc_connect(t, r.a, r.b->qp_num, 1100);
	if (!ret)
		ret = kt_rc_connect(t, r.b, r.a->qp_num, 1100);
	if (!CHECK(!ret, "rw pair: %d", ret) || !r.seen)
		goto out_b;
	for (i = 0; i < RW_PAGES; i++)
		if (!CHECK(r.pages[i], "rw page %d", i))
			goto out_b;

	kt_rw_round_trip(&r, kt_rw_three, kt_rw_three_back,
			 ARRAY_SIZE(kt_rw_three), 100,
			 DIV_ROUND_UP(ARRAY_SIZE(kt_rw_three), RW_SGES), "3 entries");
	kt_rw_round_trip(&r, kt_rw_seven, kt_rw_seven_back,
			 ARRAY_SIZE(kt_rw_seven), 6000,
			 DIV_ROUND_UP(ARRAY_SIZE(kt_rw_seven), RW_SGES), "7 entries");
	kt_rw_round_trip(&r, kt_rw_one, kt_rw_one_back, 1, 8, 1, "1 entry");
	kt_rw_offsets(&r);
	kt_rw_chain(&r);
	kt_rw_errors(&r);
out_b:
	if (!IS_ERR(r.b))
		CHECK(!ib_destroy_qp(r.b), "destroy rw QP b");
out_a:
	CHECK(!ib_destroy_qp(r.a), "destroy rw QP a");
out_pages:
	for (i = 0; i < RW_PAGES; i++)
		if (r.pages[i])
			__free_page(r.pages[i]);
	kfree(r.seen);
}

/* ---- the run -------------------------------------------------------- */

static void kt_run(struct kt *t)
{
	int before[IB_RES_MAX], during[IB_RES_MAX], after[IB_RES_MAX];
	int ret;

	kt_res(t->dev, before);
	if (!CHECK(kt_find_ipv4_gid(t), "an IPv4 RoCEv2 GID on port 1"))
		return;

	t->pd = ib_alloc_pd(t->dev, 0);
	if (!CHECK(!IS_ERR(t->pd), "alloc PD: %ld", PTR_ERR(t->pd)))
		return;
	CHECK(t->pd->local_dma_lkey != 0, "local_dma_lkey set");
	t->mr = ib_get_dma_mr(t->pd, IB_ACCESS_LOCAL_WRITE |
			      IB_ACCESS_REMOTE_WRITE | IB_ACCESS_REMOTE_READ);
	if (!CHECK(!IS_ERR(t->mr), "DMA MR: %ld", PTR_ERR(t->mr)))
		goto out_pd;
	CHECK(t->mr->rkey != 0, "DMA MR rkey");

	t->cq = ib_alloc_cq(t->dev, t, 64, 0, IB_POLL_DIRECT);
	if (!CHECK(!IS_ERR(t->cq), "alloc direct CQ: %ld", PTR_ERR(t->cq)))
		goto out_mr;
	t->wq_cq = ib_alloc_cq(t->dev, t, 64, 0, IB_POLL_WORKQUEUE);
	if (!CHECK(!IS_ERR(t->wq_cq), "alloc wq CQ: %ld", PTR_ERR(t->wq_cq)))
		goto out_cq;
	t->sirq_cq = ib_alloc_cq(t->dev, t, 64, 0, IB_POLL_SOFTIRQ);
	if (!CHECK(!IS_ERR(t->sirq_cq), "alloc softirq CQ: %ld",
		   PTR_ERR(t->sirq_cq)))
		goto out_wq_cq;
	CHECK(t->cq->cqe >= 64 && t->cq->cq_context == t, "CQ attributes");

	kt_res(t->dev, during);
	CHECK(during[IB_RES_PD] == before[IB_RES_PD] + 1 &&
	      during[IB_RES_CQ] == before[IB_RES_CQ] + 3 &&
	      during[IB_RES_MR] == before[IB_RES_MR] + 1,
	      "res counts: pd %d cq %d mr %d", during[IB_RES_PD],
	      during[IB_RES_CQ], during[IB_RES_MR]);

	kt_rc(t);
	kt_drain(t);
	kt_fastreg(t);
	kt_mr_pool(t);
	kt_rw(t);
	kt_cq_pool(t);
	kt_ud(t);
	kt_gsi(t);

	ib_free_cq(t->sirq_cq);
out_wq_cq:
	ib_free_cq(t->wq_cq);
out_cq:
	ib_free_cq(t->cq);
out_mr:
	ret = ib_dereg_mr(t->mr);
	CHECK(!ret, "dereg DMA MR: %d", ret);
out_pd:
	ib_dealloc_pd(t->pd);
	kt_res(t->dev, after);
	after[IB_RES_CQ] -= t->pool_cqs;	/* freed with the device */
	CHECK(!memcmp(before, after, sizeof(before)),
	      "res counts back: pd %d cq %d qp %d mr %d", after[IB_RES_PD],
	      after[IB_RES_CQ], after[IB_RES_QP], after[IB_RES_MR]);
}

static int __init kverbs_selftest_init(void)
{
	struct kt t = {};

	t.dev = ib_device_get_by_name(dev_name_param);
	if (!t.dev) {
		pr_err("kverbs_selftest: no device %s\n", dev_name_param);
		return -ENODEV;
	}
	t.a_buf = kzalloc(BUF_SIZE, GFP_KERNEL);
	t.b_buf = kzalloc(BUF_SIZE, GFP_KERNEL);
	if (t.a_buf && t.b_buf)
		kt_run(&t);
	else
		CHECK(false, "buffers");
	kfree(t.a_buf);
	kfree(t.b_buf);
	ib_device_put(t.dev);
	kst_report();
	return kst_failed ? -EINVAL : 0;
}

static void __exit kverbs_selftest_exit(void)
{
}

module_init(kverbs_selftest_init);
module_exit(kverbs_selftest_exit);
MODULE_DESCRIPTION("Self test of the kernel verbs of ib_core");
MODULE_LICENSE("Dual BSD/GPL");
