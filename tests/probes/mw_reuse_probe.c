// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * A type 2 memory window is bound through one QP, and only that QP may
 * be reached through it (IBTA 10.6.7.2.2).  QP numbers are reused once
 * the allocator has gone round, so the MW must remember the QP, not its
 * number: a new QP that happens to get the old number must be refused.
 *
 *   mw_reuse_probe GID_INDEX
 *
 * QP A and its peer P; a type 2 MW bound through A; P writes through it
 * (must succeed).  A is destroyed, QPs are created and destroyed until
 * one gets A's number, and that one is connected to P, which writes
 * through the MW again.  Prints
 *   "mw2_reused_qpn first=STATUS again=STATUS"
 * ("again" should be "remote access error"), or "... not reached" when
 * the number did not come back within the loop's bound.
 */
#include <infiniband/verbs.h>
#include "probe.h"
#include "rc_loop.h"
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define MAX_CYCLES 300000

static void die(const char *what)
{
	fprintf(stderr, "mw_reuse_probe: %s failed\n", what);
	exit(1);
}

/* The next completion of @cq; no completion in 10 s ends the probe. */
static struct ibv_wc poll_one(struct ibv_cq *cq)
{
	struct ibv_wc wc;

	if (!probe_poll(cq, &wc, 10))
		die("a completion within 10 s");
	return wc;
}

static const char *write_through(struct ibv_qp *p, struct ibv_cq *cq,
				 struct ibv_mr *mr, char *src, uint64_t dst,
				 uint32_t rkey)
{
	struct ibv_sge sge = {
		.addr = (uintptr_t)src, .length = 8, .lkey = mr->lkey,
	};
	struct ibv_send_wr wr = {
		.wr_id = 7, .sg_list = &sge, .num_sge = 1,
		.opcode = IBV_WR_RDMA_WRITE, .send_flags = IBV_SEND_SIGNALED,
		.wr.rdma = { .remote_addr = dst, .rkey = rkey },
	}, *bad;

	if (ibv_post_send(p, &wr, &bad))
		die("post the write");
	return ibv_wc_status_str(poll_one(cq).status);
}

static struct ibv_qp *rc_qp(struct ibv_pd *pd, struct ibv_cq *cq)
{
	struct ibv_qp_init_attr qa = {
		.send_cq = cq, .recv_cq = cq, .qp_type = IBV_QPT_RC,
		.cap = { .max_send_wr = 2, .max_recv_wr = 1,
			 .max_send_sge = 1, .max_recv_sge = 1 },
	};

	return ibv_create_qp(pd, &qa);
}

int main(int argc, char **argv)
{
	int sgid = argc > 1 ? atoi(argv[1]) : 1;
	struct ibv_device **devs = ibv_get_device_list(NULL);
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	struct ibv_cq *acq, *pcq, *tcq;
	struct ibv_qp *a, *p, *q;
	struct ibv_mr *mr;
	struct ibv_mw *mw;
	union ibv_gid gid;
	const char *first;
	uint32_t a_num, rkey;
	char *buf;
	long n;

	if (!devs || !devs[0] || !(ctx = ibv_open_device(devs[0])))
		die("open device");
	if (ibv_query_gid(ctx, 1, sgid, &gid))
		die("query gid");
	pd = ibv_alloc_pd(ctx);
	acq = ibv_create_cq(ctx, 16, NULL, NULL, 0);
	pcq = ibv_create_cq(ctx, 16, NULL, NULL, 0);
	tcq = ibv_create_cq(ctx, 4, NULL, NULL, 0);
	if (!pd || !acq || !pcq || !tcq)
		die("pd/cq");
	buf = calloc(1, 4096);
	mr = ibv_reg_mr(pd, buf, 4096, IBV_ACCESS_LOCAL_WRITE |
			IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_MW_BIND);
	if (!mr)
		die("reg mr");
	a = rc_qp(pd, acq);
	p = rc_qp(pd, pcq);
	if (!a || !p)
		die("create qp");
	if (rc_loop_connect(a, p->qp_num, sgid, &gid) ||
	    rc_loop_connect(p, a->qp_num, sgid, &gid))
		die("connect A and P");

	mw = ibv_alloc_mw(pd, IBV_MW_TYPE_2);
	if (!mw)
		die("alloc type 2 mw");
	rkey = ibv_inc_rkey(mw->rkey);
	struct ibv_send_wr bw = {
		.wr_id = 1, .opcode = IBV_WR_BIND_MW,
		.send_flags = IBV_SEND_SIGNALED,
		.bind_mw = { .mw = mw, .rkey = rkey, .bind_info = {
			.mr = mr, .addr = (uintptr_t)buf, .length = 1024,
			.mw_access_flags = IBV_ACCESS_REMOTE_WRITE } },
	}, *bad;

	if (ibv_post_send(a, &bw, &bad) ||
	    poll_one(acq).status != IBV_WC_SUCCESS)
		die("bind the MW through A");
	first = write_through(p, pcq, mr, buf + 2048, (uintptr_t)buf, rkey);

	a_num = a->qp_num;
	if (ibv_destroy_qp(a))
		die("destroy A");
	for (n = 0; n < MAX_CYCLES; n++) {
		q = rc_qp(pd, tcq);
		if (!q)
			die("create a QP in the loop");
		if (q->qp_num == a_num)
			break;
		if (ibv_destroy_qp(q))
			die("destroy a QP in the loop");
	}
	if (n == MAX_CYCLES) {
		printf("mw2_reused_qpn first=%s not reached\n", first);
		return 0;
	}
	struct ibv_qp_attr reset = { .qp_state = IBV_QPS_RESET };

	if (ibv_modify_qp(p, &reset, IBV_QP_STATE) ||
	    rc_loop_connect(q, p->qp_num, sgid, &gid) ||
	    rc_loop_connect(p, q->qp_num, sgid, &gid))
		die("connect the QP with A's number and P");
	printf("mw2_reused_qpn first=%s again=%s\n", first,
	       write_through(p, pcq, mr, buf + 2048, (uintptr_t)buf, rkey));
	fprintf(stderr, "mw_reuse_probe: QPN %u back after %ld QPs\n", a_num,
		n + 1);
	return 0;
}
