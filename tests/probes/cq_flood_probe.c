// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * A send CQ that overflows: how many IBV_EVENT_CQ_ERR does its owner get,
 * and are the lost completions counted?
 *
 *   cq_flood_probe DEV [GID_INDEX]
 *
 * One RC QP pair of this process over the port's own address; the sender's
 * send CQ has cqe 1 and is never polled, so of SENDS signaled sends all
 * but the CQ's capacity find it full.  Once the receiver has every
 * message (and the sender its ACKs), the async events are drained with a
 * nonblocking fd until none came for half a second.  Prints
 *   "cq_overflow events=N dropped_counter=M"
 * N: CQ_ERR events for the sender's CQ; M: how much the hw counter
 * cq_overflow_drops rose, or "none" when the device has no such counter.
 */
#include <infiniband/verbs.h>
#include "probe.h"
#include "rc_loop.h"
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define SENDS	32
#define MSG_LEN	8

static void die(const char *what)
{
	fprintf(stderr, "cq_flood_probe: %s failed\n", what);
	exit(1);
}

int main(int argc, char **argv)
{
	struct ibv_context *ctx = NULL;
	struct ibv_qp_init_attr qa = {
		.qp_type = IBV_QPT_RC,
		.cap = { .max_send_wr = SENDS, .max_recv_wr = SENDS,
			 .max_send_sge = 1, .max_recv_sge = 1 },
	};
	struct ibv_cq *small, *big;
	struct ibv_qp *tx, *rx;
	struct ibv_pd *pd;
	struct ibv_mr *mr;
	union ibv_gid gid;
	struct ibv_wc wc[SENDS];
	struct ibv_async_event ev;
	int gi = argc > 2 ? atoi(argv[2]) : 0;
	long long c0, c1;
	int i, got = 0, events = 0, others = 0;
	const char *err;
	double t0;
	char *buf;

	if (argc < 2)
		die("usage: cq_flood_probe DEV [GID_INDEX]; argument check");
	ctx = probe_open_device(argv[1]);
	if (!ctx)
		die("open device");
	if (fcntl(ctx->async_fd, F_SETFL,
		  fcntl(ctx->async_fd, F_GETFL) | O_NONBLOCK))
		die("nonblocking async fd");
	if (ibv_query_gid(ctx, 1, gi, &gid))
		die("query gid");
	pd = ibv_alloc_pd(ctx);
	small = ibv_create_cq(ctx, 1, NULL, NULL, 0);
	big = ibv_create_cq(ctx, 4 * SENDS, NULL, NULL, 0);
	buf = calloc(2 * SENDS, MSG_LEN);
	if (!pd || !small || !big || !buf)
		die("pd/cq/buffer");
	mr = ibv_reg_mr(pd, buf, 2 * SENDS * MSG_LEN, IBV_ACCESS_LOCAL_WRITE);
	if (!mr)
		die("reg mr");
	qa.send_cq = small;
	qa.recv_cq = big;
	tx = ibv_create_qp(pd, &qa);
	qa.send_cq = big;
	rx = ibv_create_qp(pd, &qa);
	if (!tx || !rx)
		die("create qp");
	err = rc_loop_connect(tx, rx->qp_num, gi, &gid);
	if (!err)
		err = rc_loop_connect(rx, tx->qp_num, gi, &gid);
	if (err)
		die(err);

	for (i = 0; i < SENDS; i++) {
		struct ibv_sge sge = {
			.addr = (uintptr_t)(buf + (SENDS + i) * MSG_LEN),
			.length = MSG_LEN, .lkey = mr->lkey,
		};
		struct ibv_recv_wr wr = {
			.wr_id = i, .sg_list = &sge, .num_sge = 1,
		}, *bad;

		if (ibv_post_recv(rx, &wr, &bad))
			die("post recv");
	}
	c0 = probe_hw_counter(argv[1], "cq_overflow_drops");
	for (i = 0; i < SENDS; i++) {
		struct ibv_sge sge = {
			.addr = (uintptr_t)(buf + i * MSG_LEN),
			.length = MSG_LEN, .lkey = mr->lkey,
		};
		struct ibv_send_wr wr = {
			.wr_id = i, .sg_list = &sge, .num_sge = 1,
			.opcode = IBV_WR_SEND, .send_flags = IBV_SEND_SIGNALED,
		}, *bad;

		if (ibv_post_send(tx, &wr, &bad))
			die("post send");
	}

	/* every message received, so every send was acknowledged or soon */
	t0 = probe_now();
	while (got < SENDS && probe_now() - t0 < 20) {
		int n = ibv_poll_cq(big, SENDS, wc);

		if (n < 0)
			die("poll cq");
		for (i = 0; i < n; i++)
			if (wc[i].status != IBV_WC_SUCCESS)
				die("receive completion status");
		got += n;
	}
	if (got < SENDS)
		die("receive every message");

	/* drain the async events until the fd stays quiet for 0.5 s */
	for (;;) {
		struct pollfd p = { .fd = ctx->async_fd, .events = POLLIN };

		if (poll(&p, 1, 500) <= 0)
			break;
		while (!ibv_get_async_event(ctx, &ev)) {
			if (ev.event_type == IBV_EVENT_CQ_ERR &&
			    ev.element.cq == small)
				events++;
			else
				others++;
			ibv_ack_async_event(&ev);
		}
	}
	c1 = probe_hw_counter(argv[1], "cq_overflow_drops");
	if (others)
		fprintf(stderr, "cq_flood_probe: %d other async events\n",
			others);
	if (c0 < 0 || c1 < 0)
		printf("cq_overflow events=%d dropped_counter=none\n", events);
	else
		printf("cq_overflow events=%d dropped_counter=%lld\n", events,
		       c1 - c0);

	/* events acknowledged above: the objects can go */
	ibv_destroy_qp(tx);
	ibv_destroy_qp(rx);
	ibv_dereg_mr(mr);
	ibv_destroy_cq(small);
	ibv_destroy_cq(big);
	ibv_dealloc_pd(pd);
	ibv_close_device(ctx);
	free(buf);
	return 0;
}
