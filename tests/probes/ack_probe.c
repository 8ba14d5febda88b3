// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ACKs against read responses on the local path: an RC QP connected to a
 * second QP of the same process (over this host's own address, where ours
 * hands an ACK to the requester's completer without a packet), sending
 * batches that mix RDMA reads (whose responses queue for that completer)
 * with writes and sends (answered by ACKs, coalesced).  The completer
 * must take them in the order the responder answered: an ACK taken ahead
 * of the read responses before it looks like a lost read response, and
 * the read is retried.  So besides the completions (all successful, in
 * order, the data right), the device's hw counters must show no retry,
 * no sequence NAK and no duplicate on this loss-free path, and as many
 * packets received as sent.  Prints:
 *
 *   ack_order wqes=N status=... order=ok|bad@I data=ok|bad@I
 *   ack_counters retries=R seq_naks=S duplicates=D sent_eq_rcvd=yes|no
 *
 *   ack_probe DEV GID_INDEX [BATCHES]
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <infiniband/verbs.h>
#include "probe.h"
#include "rc_loop.h"

#define CHAIN		6	/* WQEs of one chain: read, write, send, ... */
#define CHAINS		4	/* chains posted before the batch is polled */
#define BATCH		(CHAIN * CHAINS)
#define SLOT		8192	/* bytes of each WQE's buffer */
#define AREA		(BATCH * SLOT)

static struct ibv_pd *pd;
static struct ibv_cq *scq, *rcq;
static struct ibv_qp *qa, *qb;		/* qa is the requester */
static uint8_t *loc, *rem, *rbuf;	/* qa's buffers, qb's, qb's receives */
static struct ibv_mr *loc_mr, *rem_mr, *rbuf_mr;

static void die(const char *what)
{
	perror(what);
	exit(2);
}

static struct ibv_qp *make_qp(void)
{
	struct ibv_qp_init_attr a = {
		.send_cq = scq, .recv_cq = rcq, .qp_type = IBV_QPT_RC,
		.cap = { .max_send_wr = BATCH, .max_recv_wr = BATCH,
			 .max_send_sge = 1, .max_recv_sge = 1 },
	};
	struct ibv_qp *qp = ibv_create_qp(pd, &a);

	if (!qp)
		die("ibv_create_qp");
	return qp;
}

/* What WQE @i of a batch does, and with how many bytes. */
static const struct {
	enum ibv_wr_opcode op;
	uint32_t len;
} chain[CHAIN] = {
	{ IBV_WR_RDMA_READ, 4096 },	/* four responses, by reference */
	{ IBV_WR_RDMA_WRITE, 2 },
	{ IBV_WR_SEND, 2 },
	{ IBV_WR_RDMA_READ, 8 },
	{ IBV_WR_RDMA_WRITE, 4096 },
	{ IBV_WR_SEND, 64 },
};

static enum ibv_wc_opcode wc_opcode(enum ibv_wr_opcode op)
{
	return op == IBV_WR_RDMA_READ ? IBV_WC_RDMA_READ :
	       op == IBV_WR_RDMA_WRITE ? IBV_WC_RDMA_WRITE : IBV_WC_SEND;
}

static void fill(uint8_t *p, size_t len, unsigned int seed)
{
	for (size_t i = 0; i < len; i++)
		p[i] = (uint8_t)(seed * 151 + i * 13 + (i >> 9));
}

/* Post batch @b: reads fetch rem's slot, writes and sends carry loc's. */
static void post_batch(unsigned int b)
{
	struct ibv_send_wr wr[BATCH], *bad;
	struct ibv_sge sge[BATCH];

	memset(wr, 0, sizeof(wr));
	for (int i = 0; i < BATCH; i++) {
		const unsigned int k = i % CHAIN;
		size_t at = (size_t)i * SLOT;

		if (chain[k].op == IBV_WR_RDMA_READ) {
			fill(rem + at, chain[k].len, b * BATCH + i);
			memset(loc + at, 0, chain[k].len);
		} else {
			fill(loc + at, chain[k].len, b * BATCH + i);
		}
		if (chain[k].op == IBV_WR_SEND) {
			struct ibv_sge r = {
				.addr = (uintptr_t)(rbuf + at),
				.length = SLOT, .lkey = rbuf_mr->lkey,
			};
			struct ibv_recv_wr rw = { .wr_id = i, .sg_list = &r,
						  .num_sge = 1 }, *rbad;

			if (ibv_post_recv(qb, &rw, &rbad))
				die("ibv_post_recv");
		}
		sge[i] = (struct ibv_sge){ .addr = (uintptr_t)(loc + at),
					   .length = chain[k].len,
					   .lkey = loc_mr->lkey };
		wr[i].wr_id = (uint64_t)b * BATCH + i;
		wr[i].opcode = chain[k].op;
		wr[i].sg_list = &sge[i];
		wr[i].num_sge = 1;
		wr[i].send_flags = IBV_SEND_SIGNALED;
		wr[i].wr.rdma.remote_addr = (uintptr_t)(rem + at);
		wr[i].wr.rdma.rkey = rem_mr->rkey;
		wr[i].next = i + 1 < BATCH ? &wr[i + 1] : NULL;
	}
	/* one chain per call: the requester runs between them */
	for (int c = 0; c < CHAINS; c++) {
		wr[c * CHAIN + CHAIN - 1].next = NULL;
		if (ibv_post_send(qa, &wr[c * CHAIN], &bad))
			die("ibv_post_send");
	}
}

/* Whether the bytes of batch @b's WQE @i arrived where they should. */
static int data_ok(unsigned int b, int i)
{
	const unsigned int k = i % CHAIN;
	size_t at = (size_t)i * SLOT;
	uint8_t want[SLOT];

	fill(want, chain[k].len, b * BATCH + i);
	switch (chain[k].op) {
	case IBV_WR_RDMA_READ:
		return !memcmp(loc + at, want, chain[k].len);
	case IBV_WR_RDMA_WRITE:
		return !memcmp(rem + at, want, chain[k].len);
	default:
		return !memcmp(rbuf + at, want, chain[k].len);
	}
}

static long long counter(const char *dev, const char *name)
{
	return probe_hw_counter(dev, name);
}

int main(int argc, char **argv)
{
	const char *names[] = { "completer_retry_err", "rcvd_seq_err",
				"duplicate_request", "sent_pkts",
				"rcvd_pkts" };
	long long before[5], after[5];
	enum ibv_wc_status status = IBV_WC_SUCCESS;
	long long order_bad = -1, data_bad = -1;
	struct ibv_context *ctx;
	unsigned int batches = 500;
	union ibv_gid gid;
	int gid_index;
	const char *step;

	if (argc < 3) {
		fprintf(stderr, "usage: ack_probe DEV GID_INDEX [BATCHES]\n");
		return 2;
	}
	gid_index = atoi(argv[2]);
	if (argc > 3)
		batches = strtoul(argv[3], NULL, 0);
	ctx = probe_open_device(argv[1]);
	if (!ctx)
		die("ibv_open_device");
	if (ibv_query_gid(ctx, 1, gid_index, &gid))
		die("ibv_query_gid");
	pd = ibv_alloc_pd(ctx);
	scq = ibv_create_cq(ctx, BATCH, NULL, NULL, 0);
	rcq = ibv_create_cq(ctx, BATCH, NULL, NULL, 0);
	if (!pd || !scq || !rcq)
		die("pd/cq");
	loc = mmap(NULL, 3 * AREA, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (loc == MAP_FAILED)
		die("mmap");
	rem = loc + AREA;
	rbuf = rem + AREA;
	loc_mr = ibv_reg_mr(pd, loc, AREA, IBV_ACCESS_LOCAL_WRITE);
	rem_mr = ibv_reg_mr(pd, rem, AREA, IBV_ACCESS_LOCAL_WRITE |
			    IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ);
	rbuf_mr = ibv_reg_mr(pd, rbuf, AREA, IBV_ACCESS_LOCAL_WRITE);
	if (!loc_mr || !rem_mr || !rbuf_mr)
		die("ibv_reg_mr");
	qa = make_qp();
	qb = make_qp();
	/*
	 * No retransmit timer (timeout 0): a stalled host would make it
	 * retry; an ACK taken out of order still does (a read response
	 * seems lost), which is what the counters are to show.
	 */
	step = rc_loop_connect_timeout(qa, qb->qp_num, gid_index, &gid, 0);
	if (!step)
		step = rc_loop_connect_timeout(qb, qa->qp_num, gid_index,
					       &gid, 0);
	if (step)
		die(step);

	for (int i = 0; i < 5; i++)
		before[i] = counter(argv[1], names[i]);
	for (unsigned int b = 0; b < batches && status == IBV_WC_SUCCESS;
	     b++) {
		int sends = 0;

		post_batch(b);
		for (int i = 0; i < BATCH; i++) {
			struct ibv_wc wc;

			if (!probe_poll(scq, &wc, 30)) {
				status = IBV_WC_GENERAL_ERR;
				break;
			}
			if (wc.status != IBV_WC_SUCCESS) {
				status = wc.status;
				break;
			}
			if (order_bad < 0 &&
			    (wc.wr_id != (uint64_t)b * BATCH + i ||
			     wc.opcode != wc_opcode(chain[i % CHAIN].op)))
				order_bad = (long long)b * BATCH + i;
			sends += chain[i % CHAIN].op == IBV_WR_SEND;
		}
		for (int i = 0; i < sends && status == IBV_WC_SUCCESS; i++) {
			struct ibv_wc wc;

			if (!probe_poll(rcq, &wc, 30))
				status = IBV_WC_GENERAL_ERR;
			else if (wc.status != IBV_WC_SUCCESS)
				status = wc.status;
		}
		for (int i = 0; i < BATCH && status == IBV_WC_SUCCESS &&
				data_bad < 0; i++)
			if (!data_ok(b, i))
				data_bad = (long long)b * BATCH + i;
	}
	for (int i = 0; i < 5; i++)
		after[i] = counter(argv[1], names[i]);

	printf("ack_order wqes=%u status=%s order=", batches * BATCH,
	       status == IBV_WC_GENERAL_ERR ? "timeout" :
	       ibv_wc_status_str(status));
	if (order_bad < 0)
		printf("ok");
	else
		printf("bad@%lld", order_bad);
	if (data_bad < 0)
		printf(" data=ok\n");
	else
		printf(" data=bad@%lld\n", data_bad);
	printf("ack_counters retries=%lld seq_naks=%lld duplicates=%lld sent_eq_rcvd=%s\n",
	       after[0] - before[0], after[1] - before[1],
	       after[2] - before[2],
	       after[3] - before[3] == after[4] - before[4] ? "yes" : "no");
	return 0;
}
