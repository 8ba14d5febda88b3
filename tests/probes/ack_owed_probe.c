// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * A receiver that moves its QP to ERR right after it saw a receive
 * complete still owes the sender the ACK of that message: the data was
 * placed and reported, so the sender must see its SEND succeed, not time
 * out and report IBV_WC_RETRY_EXC_ERR.  This is what a librdmacm server
 * and client do at the end of every exchange (rdma_disconnect() moves the
 * QP to ERR as soon as the last receive is in), and the sender, still
 * waiting for its completion, hangs or fails when the ACK is lost.
 *
 * Two RC QPs of this process over this host's address: the main thread
 * sends from A; a second thread waits for B's receive completion as
 * librdmacm's rdma_get_recv_comp() does (armed CQ, completion channel)
 * and moves B to ERR the moment it shows.  Each round uses fresh QPs.
 * Prints the count of each status A's SEND completed with:
 *
 *   ack_owed rounds=N success=S retry_exc=R other=O none=Z
 *
 *   ack_owed_probe DEV GID_INDEX [ROUNDS]
 *
 * With ACK_OWED_DEBUG set, a round whose SEND does not complete in 5 s
 * prints rxe's debugfs view of the QPs, twice, 30 s apart (mounted
 * debugfs needed): a lost ACK shows as A in RTS with its head WQE
 * pending and B in ERR.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <infiniband/verbs.h>
#include "probe.h"
#include "rc_loop.h"

#define MSG	64

static struct ibv_pd *pd;
static struct ibv_cq *acq, *bcq;
static struct ibv_comp_channel *bchan;
static struct ibv_qp *qa, *qb;
static atomic_int round_armed;	/* the poller may take B's completion */
static atomic_int round_done;	/* the poller moved B to ERR */
static atomic_int quit;

static void die(const char *what)
{
	perror(what);
	exit(2);
}

static struct ibv_qp *make_qp(struct ibv_cq *cq)
{
	struct ibv_qp_init_attr a = {
		.send_cq = cq, .recv_cq = cq, .qp_type = IBV_QPT_RC,
		.cap = { .max_send_wr = 2, .max_recv_wr = 2,
			 .max_send_sge = 1, .max_recv_sge = 1 },
	};
	struct ibv_qp *qp = ibv_create_qp(pd, &a);

	if (!qp)
		die("ibv_create_qp");
	return qp;
}

/* Spin on B's CQ; on its receive completion, B goes to ERR at once. */
static void *poller(void *unused)
{
	struct ibv_qp_attr err = { .qp_state = IBV_QPS_ERR };
	struct ibv_wc wc;

	(void)unused;
	while (!atomic_load(&quit)) {
		struct ibv_cq *cq;
		void *cq_ctx;

		if (!atomic_load(&round_armed))
			continue;
		if (ibv_poll_cq(bcq, 1, &wc) <= 0) {
			if (ibv_req_notify_cq(bcq, 0))
				die("ibv_req_notify_cq");
			if (ibv_poll_cq(bcq, 1, &wc) <= 0) {
				if (ibv_get_cq_event(bchan, &cq, &cq_ctx))
					die("ibv_get_cq_event");
				ibv_ack_cq_events(bcq, 1);
				continue;
			}
		}
		if (ibv_modify_qp(qb, &err, IBV_QP_STATE))
			die("modify B to ERR");
		atomic_store(&round_armed, 0);
		atomic_store(&round_done, 1);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	int rounds = argc > 3 ? atoi(argv[3]) : 200;
	int success = 0, retry_exc = 0, other = 0, none = 0;
	static char sbuf[MSG], rbuf[MSG];
	struct ibv_context *ctx;
	struct ibv_mr *smr, *rmr;
	union ibv_gid gid;
	pthread_t thr;
	int gid_index;

	if (argc < 3) {
		fprintf(stderr, "usage: %s DEV GID_INDEX [ROUNDS]\n", argv[0]);
		return 2;
	}
	gid_index = atoi(argv[2]);
	ctx = probe_open_device(argv[1]);
	if (!ctx)
		die("ibv_open_device");
	if (ibv_query_gid(ctx, 1, gid_index, &gid))
		die("ibv_query_gid");
	pd = ibv_alloc_pd(ctx);
	if (!pd)
		die("ibv_alloc_pd");
	smr = ibv_reg_mr(pd, sbuf, MSG, 0);
	rmr = ibv_reg_mr(pd, rbuf, MSG, IBV_ACCESS_LOCAL_WRITE);
	if (!smr || !rmr)
		die("ibv_reg_mr");
	acq = ibv_create_cq(ctx, 4, NULL, NULL, 0);
	bchan = ibv_create_comp_channel(ctx);
	if (!bchan)
		die("ibv_create_comp_channel");
	bcq = ibv_create_cq(ctx, 4, NULL, bchan, 0);
	if (!acq || !bcq)
		die("ibv_create_cq");
	if (pthread_create(&thr, NULL, poller, NULL))
		die("pthread_create");

	for (int r = 0; r < rounds; r++) {
		struct ibv_sge rs = { (uintptr_t)rbuf, MSG, rmr->lkey };
		struct ibv_sge ss = { (uintptr_t)sbuf, MSG, smr->lkey };
		struct ibv_recv_wr rwr = { .sg_list = &rs, .num_sge = 1 };
		struct ibv_send_wr swr = {
			.wr_id = r, .sg_list = &ss, .num_sge = 1,
			.opcode = IBV_WR_SEND, .send_flags = IBV_SEND_SIGNALED,
		};
		struct ibv_recv_wr *rbad;
		struct ibv_send_wr *sbad;
		const char *step;
		struct ibv_wc wc;

		qa = make_qp(acq);
		qb = make_qp(bcq);
		/* ACK timeout 10 (4 ms): a lost ACK ends in ~40 ms */
		step = rc_loop_connect_timeout(qa, qb->qp_num, gid_index, &gid,
					       10);
		if (!step)
			step = rc_loop_connect_timeout(qb, qa->qp_num,
						       gid_index, &gid, 10);
		if (step) {
			fprintf(stderr, "connect: %s\n", step);
			return 2;
		}
		if (ibv_post_recv(qb, &rwr, &rbad))
			die("ibv_post_recv");
		atomic_store(&round_done, 0);
		atomic_store(&round_armed, 1);
		if (ibv_post_send(qa, &swr, &sbad))
			die("ibv_post_send");
		if (!probe_poll(acq, &wc, 5)) {
			none++;
			if (getenv("ACK_OWED_DEBUG")) {
				fprintf(stderr, "round %d: A %u B %u no completion in 5s\n",
					r, qa->qp_num, qb->qp_num);
				system("cat /sys/kernel/debug/rdma_rxe/*/qps >&2");
				if (probe_poll(acq, &wc, 30))
					fprintf(stderr, "late: status %d\n", wc.status);
				system("cat /sys/kernel/debug/rdma_rxe/*/qps >&2");
			}
		}
		else if (wc.status == IBV_WC_SUCCESS)
			success++;
		else if (wc.status == IBV_WC_RETRY_EXC_ERR)
			retry_exc++;
		else
			other++;
		/* B's completion is in by now (or never comes) */
		for (double t0 = probe_now(); !atomic_load(&round_done) &&
		     probe_now() - t0 < 5;)
			;
		atomic_store(&round_armed, 0);
		while (ibv_poll_cq(acq, 1, &wc) > 0 || ibv_poll_cq(bcq, 1, &wc) > 0)
			;
		if (ibv_destroy_qp(qa) || ibv_destroy_qp(qb))
			die("ibv_destroy_qp");
	}
	atomic_store(&quit, 1);
	pthread_join(thr, NULL);
	printf("ack_owed rounds=%d success=%d retry_exc=%d other=%d none=%d\n",
	       rounds, success, retry_exc, other, none);
	return 0;
}
