// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * A plain UD QP with the well-known rdma_cm Q_Key (0x01234567), the kind
 * any peer can address once it has guessed the QPN, with small receive
 * buffers posted: what becomes of it when a datagram bigger than its
 * buffers arrives (tests/guest/cmsec/10-qp1.sh sends them with mad_inject).
 *
 *   ud_sink DEV SECS
 *
 * Prints "qpn 0xN" once the QP is in RTS with 8 receives of 40 + 256 bytes
 * posted, then for SECS seconds one line per receive completion,
 *   "recv STATUS byte_len=N"
 * (a successful one is replaced by a fresh receive), and at the end the QP's
 * state: "state RTS" (or ERR, ...).  Exits 0 when it got that far.
 */
#include <infiniband/verbs.h>
#include <stdio.h>
#include <stdlib.h>
#include "probe.h"

#define RDMA_CM_QKEY 0x01234567u
#define NRECV 8
#define RECV_LEN (40 + 256)	/* GRH slot + a MAD's worth */

static const char *state_name(enum ibv_qp_state s)
{
	static const char *const names[] = {
		[IBV_QPS_RESET] = "RESET", [IBV_QPS_INIT] = "INIT",
		[IBV_QPS_RTR] = "RTR", [IBV_QPS_RTS] = "RTS",
		[IBV_QPS_SQD] = "SQD", [IBV_QPS_SQE] = "SQE",
		[IBV_QPS_ERR] = "ERR",
	};

	return (unsigned int)s < sizeof(names) / sizeof(names[0]) && names[s] ?
		       names[s] : "?";
}

static int post_recv(struct ibv_qp *qp, struct ibv_mr *mr, char *buf, int i)
{
	struct ibv_sge sge = {
		.addr = (uintptr_t)(buf + i * RECV_LEN),
		.length = RECV_LEN,
		.lkey = mr->lkey,
	};
	struct ibv_recv_wr wr = { .wr_id = i, .sg_list = &sge, .num_sge = 1 };
	struct ibv_recv_wr *bad;

	return ibv_post_recv(qp, &wr, &bad);
}

int main(int argc, char **argv)
{
	struct ibv_qp_init_attr init = {0};
	struct ibv_qp_attr attr = {0};
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	struct ibv_cq *cq;
	struct ibv_qp *qp;
	struct ibv_mr *mr;
	double secs, t0;
	char *buf;
	int i;

	if (argc != 3) {
		fprintf(stderr, "usage: ud_sink DEV SECS\n");
		return 2;
	}
	secs = atof(argv[2]);
	ctx = probe_open_device(argv[1]);
	pd = ctx ? ibv_alloc_pd(ctx) : NULL;
	cq = pd ? ibv_create_cq(ctx, 2 * NRECV, NULL, NULL, 0) : NULL;
	buf = calloc(NRECV, RECV_LEN);
	mr = cq && buf ? ibv_reg_mr(pd, buf, NRECV * RECV_LEN,
				    IBV_ACCESS_LOCAL_WRITE) : NULL;
	if (!mr) {
		perror("ud_sink: device/pd/cq/mr");
		return 1;
	}
	init.send_cq = cq;
	init.recv_cq = cq;
	init.qp_type = IBV_QPT_UD;
	init.cap.max_send_wr = 1;
	init.cap.max_recv_wr = NRECV;
	init.cap.max_send_sge = 1;
	init.cap.max_recv_sge = 1;
	qp = ibv_create_qp(pd, &init);
	if (!qp) {
		perror("ud_sink: create_qp");
		return 1;
	}
	attr.qp_state = IBV_QPS_INIT;
	attr.port_num = 1;
	attr.qkey = RDMA_CM_QKEY;
	if (ibv_modify_qp(qp, &attr, IBV_QP_STATE | IBV_QP_PKEY_INDEX |
					     IBV_QP_PORT | IBV_QP_QKEY)) {
		perror("ud_sink: to INIT");
		return 1;
	}
	attr.qp_state = IBV_QPS_RTR;
	if (ibv_modify_qp(qp, &attr, IBV_QP_STATE)) {
		perror("ud_sink: to RTR");
		return 1;
	}
	attr.qp_state = IBV_QPS_RTS;
	attr.sq_psn = 0;
	if (ibv_modify_qp(qp, &attr, IBV_QP_STATE | IBV_QP_SQ_PSN)) {
		perror("ud_sink: to RTS");
		return 1;
	}
	for (i = 0; i < NRECV; i++)
		if (post_recv(qp, mr, buf, i)) {
			perror("ud_sink: post_recv");
			return 1;
		}
	printf("qpn 0x%x\n", qp->qp_num);
	fflush(stdout);

	t0 = probe_now();
	while (probe_now() - t0 < secs) {
		struct ibv_wc wc;

		if (!probe_poll(cq, &wc, 0.2))
			continue;
		printf("recv %s byte_len=%u\n", ibv_wc_status_str(wc.status),
		       wc.byte_len);
		fflush(stdout);
		/* a receive that completed, even in error, is the QP's to
		 * replace only if it is still usable */
		if (wc.status != IBV_WC_WR_FLUSH_ERR && wc.wr_id < NRECV)
			post_recv(qp, mr, buf, (int)wc.wr_id);
	}

	{
		struct ibv_qp_init_attr qi;

		if (ibv_query_qp(qp, &attr, IBV_QP_STATE, &qi)) {
			perror("ud_sink: query_qp");
			return 1;
		}
		printf("state %s\n", state_name(attr.qp_state));
	}
	ibv_destroy_qp(qp);
	ibv_dereg_mr(mr);
	ibv_destroy_cq(cq);
	ibv_dealloc_pd(pd);
	ibv_close_device(ctx);
	free(buf);
	return 0;
}
