// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Payload layouts through an RC QP connected to a second QP of the same
 * process (so over this host's own address, where ours passes payloads by
 * reference to the sender's pages and falls back to a copy when a packet
 * would need too many fragments).  Every transfer is checked byte for
 * byte, and the bytes around the target must stay untouched.  Prints one
 * "NAME RESULT" line per check (RESULT: OK, a mismatch offset, or the
 * completion status); exit status 0 unless the probe could not run.
 *
 *   payload_probe DEV GID_INDEX
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <infiniband/verbs.h>
#include "rc_loop.h"

#define PAGE		4096
#define AREA		(4u << 20)	/* each side's buffer */
#define MAX_SGE		30

static struct ibv_pd *pd;
static struct ibv_cq *cq;
static struct ibv_qp *qa, *qb;		/* qa sends to qb and back */
static uint8_t *src, *dst;
static struct ibv_mr *src_mr, *dst_mr;

static void die(const char *what)
{
	perror(what);
	exit(2);
}

static struct ibv_qp *make_qp(void)
{
	struct ibv_qp_init_attr a = {
		.send_cq = cq, .recv_cq = cq, .qp_type = IBV_QPT_RC,
		.cap = { .max_send_wr = 16, .max_recv_wr = 16,
			 .max_send_sge = MAX_SGE, .max_recv_sge = MAX_SGE },
	};
	struct ibv_qp *qp = ibv_create_qp(pd, &a);

	if (!qp)
		die("ibv_create_qp");
	return qp;
}

static void connect_qp(struct ibv_qp *qp, uint32_t dest, int gid_index,
		       const union ibv_gid *gid)
{
	const char *step = rc_loop_connect(qp, dest, gid_index, gid);

	if (step)
		die(step);
}

/* Wait for @n completions; the first bad status, or success. */
static enum ibv_wc_status wait_wcs(int n)
{
	enum ibv_wc_status st = IBV_WC_SUCCESS;
	struct ibv_wc wc;
	long spins = 0;

	while (n) {
		int got = ibv_poll_cq(cq, 1, &wc);

		if (got < 0)
			die("ibv_poll_cq");
		if (!got) {
			if (++spins > 2000000000L)
				return IBV_WC_GENERAL_ERR;
			continue;
		}
		if (wc.status != IBV_WC_SUCCESS && st == IBV_WC_SUCCESS)
			st = wc.status;
		n--;
	}
	return st;
}

static void fill(uint8_t *p, size_t len, unsigned int seed)
{
	for (size_t i = 0; i < len; i++)
		p[i] = (uint8_t)(seed * 131 + i * 7 + (i >> 11));
}

/*
 * Compare the gathered source pieces with [@at, @at + total) of dst;
 * the 64 bytes before and after must still hold the 0xee guard.
 */
static void check(const char *name, enum ibv_wc_status st,
		  const struct ibv_sge *sge, int n, size_t at)
{
	size_t off = at, total = 0;

	if (st != IBV_WC_SUCCESS) {
		printf("%s %s\n", name, ibv_wc_status_str(st));
		return;
	}
	for (int i = 0; i < n; i++) {
		const uint8_t *p = (const uint8_t *)(uintptr_t)sge[i].addr;

		for (uint32_t j = 0; j < sge[i].length; j++, off++)
			if (dst[off] != p[j]) {
				printf("%s mismatch@%zu\n", name, off - at);
				return;
			}
		total += sge[i].length;
	}
	for (size_t i = 1; i <= 64; i++)
		if ((at >= i && dst[at - i] != 0xee) ||
		    dst[at + total + i - 1] != 0xee) {
			printf("%s guard-overwritten\n", name);
			return;
		}
	printf("%s OK\n", name);
}

static void reset_dst(void)
{
	memset(dst, 0xee, AREA);
}

/* Post a receive of [@at, +@len) of dst on qb. */
static void post_recv_at(size_t at, uint32_t len)
{
	struct ibv_sge s = {
		.addr = (uintptr_t)(dst + at), .length = len,
		.lkey = dst_mr->lkey,
	};
	struct ibv_recv_wr wr = { .sg_list = &s, .num_sge = 1 }, *bad;

	if (ibv_post_recv(qb, &wr, &bad))
		die("ibv_post_recv");
}

static enum ibv_wc_status post_send(enum ibv_wr_opcode op, struct ibv_sge *sge,
				    int n, size_t at)
{
	struct ibv_send_wr wr = {
		.opcode = op, .sg_list = sge, .num_sge = n,
		.send_flags = IBV_SEND_SIGNALED,
	}, *bad;

	wr.wr.rdma.remote_addr = (uintptr_t)(dst + at);
	wr.wr.rdma.rkey = dst_mr->rkey;
	if (ibv_post_send(qa, &wr, &bad))
		die("ibv_post_send");
	return wait_wcs(op == IBV_WR_SEND ? 2 : 1);
}

/* @n SGEs of @len bytes, each on a page of its own at offset @in_page. */
static int scattered(struct ibv_sge *sge, int n, uint32_t len,
		     uint32_t in_page)
{
	for (int i = 0; i < n; i++) {
		sge[i].addr = (uintptr_t)(src + (size_t)(2 * i + 1) * PAGE +
					  in_page);
		sge[i].length = len;
		sge[i].lkey = src_mr->lkey;
	}
	return n;
}

int main(int argc, char **argv)
{
	struct ibv_device **list;
	struct ibv_context *ctx = NULL;
	struct ibv_sge sge[MAX_SGE];
	union ibv_gid gid;
	int gid_index, n;

	if (argc != 3) {
		fprintf(stderr, "usage: payload_probe DEV GID_INDEX\n");
		return 2;
	}
	gid_index = atoi(argv[2]);
	list = ibv_get_device_list(NULL);
	for (int i = 0; list && list[i]; i++)
		if (!strcmp(ibv_get_device_name(list[i]), argv[1]))
			ctx = ibv_open_device(list[i]);
	if (!ctx)
		die("ibv_open_device");
	if (ibv_query_gid(ctx, 1, gid_index, &gid))
		die("ibv_query_gid");
	pd = ibv_alloc_pd(ctx);
	cq = ibv_create_cq(ctx, 64, NULL, NULL, 0);
	if (!pd || !cq)
		die("pd/cq");
	src = mmap(NULL, AREA, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	dst = mmap(NULL, AREA, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (src == MAP_FAILED || dst == MAP_FAILED)
		die("mmap");
	fill(src, AREA, 1);
	reset_dst();
	src_mr = ibv_reg_mr(pd, src, AREA, IBV_ACCESS_LOCAL_WRITE |
			    IBV_ACCESS_REMOTE_READ);
	dst_mr = ibv_reg_mr(pd, dst, AREA, IBV_ACCESS_LOCAL_WRITE |
			    IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ);
	if (!src_mr || !dst_mr)
		die("ibv_reg_mr");
	qa = make_qp();
	qb = make_qp();
	connect_qp(qa, qb->qp_num, gid_index, &gid);
	connect_qp(qb, qa->qp_num, gid_index, &gid);

	/* 30 pieces of 33 bytes on 30 pages: one packet, 30 fragments */
	n = scattered(sge, MAX_SGE, 33, 100);
	post_recv_at(512, 4096);
	check("send_30_pages", post_send(IBV_WR_SEND, sge, n, 0), sge, n, 512);

	reset_dst();
	check("write_30_pages", post_send(IBV_WR_RDMA_WRITE, sge, n, 777),
	      sge, n, 777);

	/* a few pieces across page boundaries, several packets */
	reset_dst();
	n = scattered(sge, 5, 5000, 3000);
	check("write_cross_pages",
	      post_send(IBV_WR_RDMA_WRITE, sge, n, 12345), sge, n, 12345);

	reset_dst();
	post_recv_at(3001, 5 * 5000);
	check("send_cross_pages", post_send(IBV_WR_SEND, sge, n, 0),
	      sge, n, 3001);

	/* one large unaligned piece, many packets each way */
	reset_dst();
	sge[0] = (struct ibv_sge){ .addr = (uintptr_t)(src + 1001),
				   .length = (1u << 20) + 517,
				   .lkey = src_mr->lkey };
	check("write_1MiB_unaligned",
	      post_send(IBV_WR_RDMA_WRITE, sge, 1, 2049), sge, 1, 2049);

	/* read: qa pulls dst's bytes into src's pages */
	reset_dst();
	fill(dst + 4099, (1u << 20) + 3, 2);
	{
		struct ibv_sge r = { .addr = (uintptr_t)(src + 70001),
				     .length = (1u << 20) + 3,
				     .lkey = src_mr->lkey };
		struct ibv_send_wr wr = {
			.opcode = IBV_WR_RDMA_READ, .sg_list = &r,
			.num_sge = 1, .send_flags = IBV_SEND_SIGNALED,
		}, *bad;
		enum ibv_wc_status st;

		wr.wr.rdma.remote_addr = (uintptr_t)(dst + 4099);
		wr.wr.rdma.rkey = dst_mr->rkey;
		if (ibv_post_send(qa, &wr, &bad))
			die("ibv_post_send read");
		st = wait_wcs(1);
		/* compare the other way round: dst holds the source */
		if (st != IBV_WC_SUCCESS)
			printf("read_1MiB_unaligned %s\n",
			       ibv_wc_status_str(st));
		else if (memcmp(src + 70001, dst + 4099, (1u << 20) + 3))
			printf("read_1MiB_unaligned mismatch\n");
		else
			printf("read_1MiB_unaligned OK\n");
	}

	/* a bad lkey in the middle of the list fails the WQE, no data */
	reset_dst();
	n = scattered(sge, 4, 100, 0);
	sge[2].lkey ^= 0x5a00;
	printf("write_bad_lkey %s\n",
	       ibv_wc_status_str(post_send(IBV_WR_RDMA_WRITE, sge, n, 64)));
	return 0;
}
