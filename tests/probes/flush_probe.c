// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * RDMA FLUSH (IBTA 1.5) on one device, posted through librxe's ring
 * whatever rdma-core's version (flush_ring.h says how).
 *
 * Two RC QPs of one process, A -> B over this host's address; B allows
 * flushes (FLUSH_GLOBAL set on the QP with an RTS -> RTS modify).  The
 * cases that fail get a pair each (a failed FLUSH leaves A in error).
 * Each case prints
 *
 *   NAME status=STATUS[ opcode=N]
 *
 * with the FLUSH's completion status and, when it succeeded, its opcode
 * (8: IBV_WC_FLUSH), or "NAME status=none" when none came; and
 *   caps flush_global=0|1 flush_persistent=0|1
 *   reg_persistent errno=NAME       (registering FLUSH_PERSISTENT memory)
 *   write_then_flush data=ok|bad    (the WRITE's bytes at B after FLUSH)
 * Exit status 0 unless the probe could not run.
 *
 *   flush_probe DEV GID_INDEX
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <infiniband/verbs.h>
#include "flush_ring.h"
#include "probe.h"
#include "rc_loop.h"

#define BUF_LEN		65536

static struct ibv_context *ctx;
static struct ibv_pd *pd;
static int gid_index;
static union ibv_gid gid;
static uint8_t *src, *dst;
static struct ibv_mr *src_mr;

struct pair {
	struct ibv_cq *cq;
	struct ibv_qp *a, *b;
	struct rxe_queue_buf *ring;	/* A's send ring */
	struct ibv_mr *dst_mr;
};

static void die(const char *what)
{
	fprintf(stderr, "flush_probe: %s failed (errno %d)\n", what, errno);
	exit(2);
}

static struct ibv_qp *make_qp(struct ibv_cq *cq)
{
	struct ibv_qp_init_attr a = {
		.send_cq = cq, .recv_cq = cq, .qp_type = IBV_QPT_RC,
		.cap = { .max_send_wr = 8, .max_recv_wr = 8,
			 .max_send_sge = 1, .max_recv_sge = 1 },
	};
	struct ibv_qp *qp = ibv_create_qp(pd, &a);

	if (!qp)
		die("ibv_create_qp");
	return qp;
}

/* An 8-byte RDMA WRITE from src to dst at @off, signaled. */
static void post_write(struct pair *p, uint64_t wr_id, size_t off)
{
	struct ibv_sge s = {
		.addr = (uintptr_t)src + off, .length = 8,
		.lkey = src_mr->lkey,
	};
	struct ibv_send_wr wr = {
		.wr_id = wr_id, .sg_list = &s, .num_sge = 1,
		.opcode = IBV_WR_RDMA_WRITE, .send_flags = IBV_SEND_SIGNALED,
		.wr.rdma = { .remote_addr = (uintptr_t)dst + off,
			     .rkey = p->dst_mr->rkey },
	}, *bad;

	if (ibv_post_send(p->a, &wr, &bad))
		die("ibv_post_send");
}

/*
 * A connected pair whose B side registers dst with @dst_access; A's send
 * ring found by a first WRITE.
 */
static void pair_up(struct pair *p, int dst_access)
{
	struct flush_ring_snap snap;
	struct ibv_wc wc;

	memset(p, 0, sizeof(*p));
	p->cq = ibv_create_cq(ctx, 16, NULL, NULL, 0);
	if (!p->cq)
		die("ibv_create_cq");
	p->dst_mr = ibv_reg_mr(pd, dst, BUF_LEN, dst_access);
	if (!p->dst_mr)
		die("ibv_reg_mr dst");
	if (flush_ring_snap(&snap))
		die("read /proc/self/maps");
	p->a = make_qp(p->cq);
	p->b = make_qp(p->cq);
	if (rc_loop_connect(p->a, p->b->qp_num, gid_index, &gid) ||
	    rc_loop_connect(p->b, p->a->qp_num, gid_index, &gid))
		die("connect");
	if (flush_qp_allow(p->b))
		die("RTS -> RTS with FLUSH_GLOBAL");
	post_write(p, 1, 0);
	p->ring = flush_ring_find(&snap);
	if (!p->ring)
		die("find A's send ring");
	if (!probe_poll(p->cq, &wc, 10) || wc.status != IBV_WC_SUCCESS)
		die("the first WRITE");
}

static void pair_down(struct pair *p)
{
	ibv_destroy_qp(p->a);
	ibv_destroy_qp(p->b);
	ibv_dereg_mr(p->dst_mr);
	ibv_destroy_cq(p->cq);
}

/*
 * Post FLUSH (wr_id 2) of [@va, +@len) under @rkey, then a WRITE (wr_id 3)
 * that rings the doorbell; print the FLUSH's completion.
 */
static void flush(struct pair *p, const char *name, uint64_t va,
		  uint32_t len, uint32_t rkey, uint8_t type, uint8_t level)
{
	struct ibv_wc wc;
	int i, seen = 0;

	flush_ring_put(p->ring, 2, va, len, rkey, type, level);
	post_write(p, 3, 8);
	/* up to the doorbell's WRITE, the last; a WRITE before may come */
	for (i = 0; i < 4 && probe_poll(p->cq, &wc, 10); i++) {
		if (wc.wr_id == 2) {
			printf("%s status=%s", name,
			       ibv_wc_status_str(wc.status));
			/* a failed completion's opcode is undefined */
			if (wc.status == IBV_WC_SUCCESS)
				printf(" opcode=%d", (int)wc.opcode);
			printf("\n");
			seen = 1;
		}
		if (wc.wr_id == 3)
			break;
	}
	if (!seen)
		printf("%s status=none\n", name);
}

int main(int argc, char **argv)
{
	const int rw = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE;
	struct ibv_device_attr_ex dev = {};
	struct ibv_mr *mr;
	struct pair p;

	if (argc != 3) {
		fprintf(stderr, "usage: flush_probe DEV GID_INDEX\n");
		return 2;
	}
	gid_index = atoi(argv[2]);
	ctx = probe_open_device(argv[1]);
	if (!ctx)
		die("ibv_open_device");
	if (ibv_query_gid(ctx, 1, gid_index, &gid))
		die("ibv_query_gid");
	if (ibv_query_device_ex(ctx, NULL, &dev))
		die("ibv_query_device_ex");
	printf("caps flush_global=%d flush_persistent=%d\n",
	       !!(dev.device_cap_flags_ex & ABI_DEVICE_FLUSH_GLOBAL),
	       !!(dev.device_cap_flags_ex & ABI_DEVICE_FLUSH_PERSISTENT));
	pd = ibv_alloc_pd(ctx);
	src = calloc(1, BUF_LEN);
	dst = calloc(1, BUF_LEN);
	if (!pd || !src || !dst)
		die("pd/buffers");
	src_mr = ibv_reg_mr(pd, src, BUF_LEN, IBV_ACCESS_LOCAL_WRITE);
	if (!src_mr)
		die("ibv_reg_mr src");

	/* rxe has no persistent memory: such an MR is refused */
	errno = 0;
	mr = ibv_reg_mr(pd, dst, BUF_LEN, rw | ABI_ACCESS_FLUSH_PERSISTENT);
	printf("reg_persistent errno=%s\n", mr ? "none" :
	       errno == EINVAL ? "EINVAL" : strerror(errno));
	if (mr)
		ibv_dereg_mr(mr);

	/* a range, then the whole MR (the range then means nothing) */
	pair_up(&p, rw | ABI_ACCESS_FLUSH_GLOBAL);
	flush(&p, "range", (uintptr_t)dst, 64, p.dst_mr->rkey,
	      ABI_FLUSH_GLOBAL, ABI_FLUSH_RANGE);
	flush(&p, "whole_mr", 0, 0x7ffffff0, p.dst_mr->rkey,
	      ABI_FLUSH_GLOBAL, ABI_FLUSH_MR);
	/* data written before a FLUSH is there once it completes */
	for (int i = 0; i < 8; i++)
		src[16 + i] = 0xa0 + i;
	post_write(&p, 4, 16);
	flush(&p, "after_write", (uintptr_t)dst + 16, 8, p.dst_mr->rkey,
	      ABI_FLUSH_GLOBAL, ABI_FLUSH_RANGE);
	printf("write_then_flush data=%s\n",
	       memcmp(dst + 16, src + 16, 8) ? "bad" : "ok");
	pair_down(&p);

	/* past the largest message (2^31), at either level */
	pair_up(&p, rw | ABI_ACCESS_FLUSH_GLOBAL);
	flush(&p, "longer_than_a_message", 0, 0xfffffff0, p.dst_mr->rkey,
	      ABI_FLUSH_GLOBAL, ABI_FLUSH_MR);
	pair_down(&p);

	pair_up(&p, rw | ABI_ACCESS_FLUSH_GLOBAL);
	flush(&p, "bad_rkey", (uintptr_t)dst, 64, p.dst_mr->rkey + 0x100,
	      ABI_FLUSH_GLOBAL, ABI_FLUSH_RANGE);
	pair_down(&p);

	pair_up(&p, rw | ABI_ACCESS_FLUSH_GLOBAL);
	flush(&p, "range_past_mr", (uintptr_t)dst + BUF_LEN - 1, 2,
	      p.dst_mr->rkey, ABI_FLUSH_GLOBAL, ABI_FLUSH_RANGE);
	pair_down(&p);

	/* an MR without the flush right */
	pair_up(&p, rw);
	flush(&p, "mr_without_flush_right", (uintptr_t)dst, 64,
	      p.dst_mr->rkey, ABI_FLUSH_GLOBAL, ABI_FLUSH_RANGE);
	pair_down(&p);

	/* a reserved placement type bit */
	pair_up(&p, rw | ABI_ACCESS_FLUSH_GLOBAL);
	flush(&p, "reserved_placement_type", (uintptr_t)dst, 64,
	      p.dst_mr->rkey, 0x4, ABI_FLUSH_RANGE);
	pair_down(&p);
	return 0;
}
