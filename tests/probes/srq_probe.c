// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * An SRQ receive WQE that claims more SGEs than the SRQ allows must be
 * completed in error, and no byte of the message may land anywhere: not in
 * the SGE the WQE carries, not in the buffers of an earlier receive.
 *
 * librxe refuses such a WQE in ibv_post_srq_recv(), so the probe writes it
 * into the SRQ ring itself, as any process sharing that mapping can: the
 * ring is the one uverbs mapping that ibv_create_srq() adds to
 * /proc/self/maps, its layout is rdma_user_rxe.h's.
 *
 *   srq_probe [GID_INDEX]
 *
 * One RC QP pair on the first device, the receiver on an SRQ of max_sge 1:
 *   1. a proper receive into X takes the first message (this leaves X's
 *      SGE in the receiver's copy of the WQE);
 *   2. a raw receive with num_sge 2 and its SGE pointing at Y takes the
 *      second message.
 * Prints "srq_oversized_wqe wr_id=N status=STR x=same|changed
 * y=same|changed" for the second receive's completion.
 */
#include <infiniband/verbs.h>
#include "probe.h"
#include "rc_loop.h"
#include <rdma/rdma_user_rxe.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MSG_LEN 32
#define BUF_LEN 64

static void die(const char *what)
{
	fprintf(stderr, "srq_probe: %s failed\n", what);
	exit(1);
}

static int send_msg(struct ibv_qp *qp, struct ibv_mr *mr, char *src, char c)
{
	struct ibv_sge sge = {
		.addr = (uintptr_t)src, .length = MSG_LEN, .lkey = mr->lkey,
	};
	struct ibv_send_wr wr = {
		.wr_id = 100, .sg_list = &sge, .num_sge = 1,
		.opcode = IBV_WR_SEND, .send_flags = IBV_SEND_SIGNALED,
	}, *bad;

	memset(src, c, MSG_LEN);
	return ibv_post_send(qp, &wr, &bad);
}

int main(int argc, char **argv)
{
	int sgid = argc > 1 ? atoi(argv[1]) : 1;
	unsigned long before[64], after[64], ring_at = 0;
	int nb, na, i, j, ndev;
	struct ibv_device **devs = ibv_get_device_list(&ndev);
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	struct ibv_cq *scq, *rcq;
	struct ibv_srq *srq;
	struct ibv_qp *sqp, *rqp;
	struct ibv_mr *mr;
	struct ibv_wc wc;
	union ibv_gid gid;
	char *mem, *x, *y, *src;
	struct rxe_queue_buf *ring;
	struct rxe_recv_wqe *slot;
	uint32_t prod;

	if (!devs || ndev < 1 || !(ctx = ibv_open_device(devs[0])))
		die("open device");
	if (ibv_query_gid(ctx, 1, sgid, &gid))
		die("query gid");
	pd = ibv_alloc_pd(ctx);
	scq = ibv_create_cq(ctx, 16, NULL, NULL, 0);
	rcq = ibv_create_cq(ctx, 16, NULL, NULL, 0);
	if (!pd || !scq || !rcq)
		die("pd/cq");

	nb = uverbs_maps(before, 64);
	if (nb < 0)
		die("read /proc/self/maps");
	struct ibv_srq_init_attr sa = { .attr = { .max_wr = 8, .max_sge = 1 } };

	srq = ibv_create_srq(pd, &sa);
	if (!srq)
		die("create srq");
	na = uverbs_maps(after, 64);
	for (i = 0; i < na; i++) {
		for (j = 0; j < nb && before[j] != after[i]; j++)
			;
		if (j == nb) {
			if (ring_at)
				die("find the one new SRQ mapping");
			ring_at = after[i];
		}
	}
	if (!ring_at)
		die("find the SRQ mapping");
	ring = (struct rxe_queue_buf *)ring_at;

	struct ibv_qp_init_attr qa = {
		.send_cq = scq, .recv_cq = rcq, .qp_type = IBV_QPT_RC,
		.cap = { .max_send_wr = 8, .max_recv_wr = 8,
			 .max_send_sge = 1, .max_recv_sge = 1 },
	};
	sqp = ibv_create_qp(pd, &qa);
	qa.srq = srq;
	rqp = ibv_create_qp(pd, &qa);
	if (!sqp || !rqp)
		die("create qp");
	if (rc_loop_connect(sqp, rqp->qp_num, sgid, &gid) ||
	    rc_loop_connect(rqp, sqp->qp_num, sgid, &gid))
		die("connect the QPs");

	mem = calloc(1, 4 * BUF_LEN);
	x = mem;
	y = mem + BUF_LEN;
	src = mem + 2 * BUF_LEN;
	mr = ibv_reg_mr(pd, mem, 4 * BUF_LEN, IBV_ACCESS_LOCAL_WRITE);
	if (!mr)
		die("reg mr");

	/* 1: a proper receive into X. */
	struct ibv_sge rs = {
		.addr = (uintptr_t)x, .length = BUF_LEN, .lkey = mr->lkey,
	};
	struct ibv_recv_wr rw = { .wr_id = 1, .sg_list = &rs, .num_sge = 1 },
		*rbad;

	if (ibv_post_srq_recv(srq, &rw, &rbad))
		die("post srq recv");
	if (send_msg(sqp, mr, src, 'F') || !probe_poll(rcq, &wc, 10) ||
	    wc.wr_id != 1 || wc.status != IBV_WC_SUCCESS || x[0] != 'F')
		die("the first message");
	probe_poll(scq, &wc, 10);

	/* 2: num_sge 2 on an SRQ of max_sge 1, its one SGE on Y. */
	memset(x, 0xaa, BUF_LEN);
	memset(y, 0xbb, BUF_LEN);
	prod = atomic_load_explicit((_Atomic uint32_t *)&ring->producer_index,
				    memory_order_acquire);
	slot = (struct rxe_recv_wqe *)(ring->data +
		((size_t)(prod & ring->index_mask) << ring->log2_elem_size));
	memset(slot, 0, sizeof(*slot));
	slot->wr_id = 2;
	slot->dma.num_sge = 2;
	slot->dma.length = BUF_LEN;
	slot->dma.resid = BUF_LEN;
	if ((1u << ring->log2_elem_size) >= sizeof(*slot) + sizeof(slot->dma.sge[0])) {
		slot->dma.sge[0].addr = (uintptr_t)y;
		slot->dma.sge[0].length = BUF_LEN;
		slot->dma.sge[0].lkey = mr->lkey;
	}
	atomic_store_explicit((_Atomic uint32_t *)&ring->producer_index,
			      (prod + 1) & ring->index_mask, memory_order_release);

	if (send_msg(sqp, mr, src, 'S'))
		die("post the second send");
	if (!probe_poll(rcq, &wc, 10)) {
		printf("srq_oversized_wqe no completion x=%s y=%s\n",
		       x[0] == (char)0xaa ? "same" : "changed",
		       y[0] == (char)0xbb ? "same" : "changed");
		return 0;
	}
	printf("srq_oversized_wqe wr_id=%llu status=%s x=%s y=%s\n",
	       (unsigned long long)wc.wr_id, ibv_wc_status_str(wc.status),
	       memchr(x, 'S', BUF_LEN) ? "changed" : "same",
	       memchr(y, 'S', BUF_LEN) ? "changed" : "same");
	return 0;
}
