// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Grow one QP's queue of received requests past its cap: are the drops
 * counted, and does kernel memory stay bounded?
 *
 *   queue_flood_probe DEV [GID_INDEX [FLOODERS [READ_MIB [READS]]]]
 *
 * The responder of QP B takes no request while it sends the responses of
 * an RDMA read (one packet a step), so while B answers READS (default 4)
 * reads of QP A, READ_MIB (default 64) MiB in all, every request that
 * reaches B waits in its queue.  FLOODERS (default 80) more RC QPs of
 * this process, all connected to B over the same address (the address
 * check cannot tell them from A), post 128 sends each; a QP has at most
 * 64 of its packets waiting at a receiver of this host, so together they
 * exceed the cap of a few thousand packets per queue, and keep trying as
 * drops free their slots.  With FLOODERS 0 and READS 1 it is one long
 * read (up to 2 GiB, the largest message), which must complete.
 *
 * skbuff_head_cache's active objects are sampled from /proc/slabinfo
 * while the reads run.  Prints
 *   "queue_flood reads=OK|FAILED drops=yes|no|none"
 *   "queue_flood skb_growth=N"
 * drops: whether the hw counter rcvd_queue_drops rose ("none": the device
 * has no such counter); N: the peak of active skbuff heads above the
 * count before the flood.
 */
#include <infiniband/verbs.h>
#include "probe.h"
#include "rc_loop.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#define SENDS	128
#define MAX_READS	4

static void die(const char *what)
{
	fprintf(stderr, "queue_flood_probe: %s failed\n", what);
	exit(1);
}

/* Active objects of the slab cache @name, or -1. */
static long slab_active(const char *name)
{
	char line[512], n[64];
	long active = -1, v;
	FILE *f = fopen("/proc/slabinfo", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%63s %ld", n, &v) == 2 && !strcmp(n, name)) {
			active = v;
			break;
		}
	fclose(f);
	return active;
}

int main(int argc, char **argv)
{
	int gi = argc > 2 ? atoi(argv[2]) : 0;
	int nflood = argc > 3 ? atoi(argv[3]) : 80;
	size_t len = (size_t)(argc > 4 ? atoi(argv[4]) : 64) << 20;
	int reads = argc > 5 ? atoi(argv[5]) : MAX_READS;
	struct ibv_qp_init_attr qa = {
		.qp_type = IBV_QPT_RC,
		.cap = { .max_send_wr = SENDS, .max_recv_wr = 1,
			 .max_send_sge = 1, .max_recv_sge = 1 },
	};
	struct ibv_send_wr swr[SENDS], rwr[MAX_READS], *bad;
	struct ibv_sge ssge, rsge[MAX_READS];
	struct ibv_context *ctx = NULL;
	struct ibv_qp *a, *b, **fl;
	struct ibv_cq *cq, *fcq;
	struct ibv_pd *pd;
	struct ibv_mr *mr;
	union ibv_gid gid;
	struct ibv_wc wc[16];
	long s0, s, peak;
	long long c0, c1;
	int i, j, done = 0, ok = 1;
	const char *err;
	double t0;
	char *buf;

	if (argc < 2 || nflood < 0 || !len || reads < 1 || reads > MAX_READS)
		die("argument check (DEV [GID_INDEX [FLOODERS [READ_MIB [READS]]]])");
	ctx = probe_open_device(argv[1]);
	if (!ctx)
		die("open device");
	if (ibv_query_gid(ctx, 1, gi, &gid))
		die("query gid");
	pd = ibv_alloc_pd(ctx);
	cq = ibv_create_cq(ctx, 64, NULL, NULL, 0);
	fcq = ibv_create_cq(ctx, 4096, NULL, NULL, 0);
	fl = calloc(nflood + 1, sizeof(*fl));
	/* the reads copy the buffer onto itself: half the pinned memory */
	buf = mmap(NULL, len, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	if (!pd || !cq || !fcq || !fl || buf == MAP_FAILED)
		die("pd/cq/buffer");
	mr = ibv_reg_mr(pd, buf, len, IBV_ACCESS_LOCAL_WRITE |
			IBV_ACCESS_REMOTE_READ);
	if (!mr)
		die("reg mr");
	qa.send_cq = qa.recv_cq = cq;
	a = ibv_create_qp(pd, &qa);
	b = ibv_create_qp(pd, &qa);
	if (!a || !b)
		die("create qp");
	/*
	 * A retries after 4 s (timeout 20), not 67 ms: a scheduling stall of
	 * the emulated guest would otherwise make A ask for the rest of a
	 * long read again, and B answers every such duplicate in full.
	 */
	err = rc_loop_connect_timeout(a, b->qp_num, gi, &gid, 20);
	if (!err)
		err = rc_loop_connect(b, a->qp_num, gi, &gid);
	qa.send_cq = qa.recv_cq = fcq;
	for (i = 0; !err && i < nflood; i++) {
		fl[i] = ibv_create_qp(pd, &qa);
		if (!fl[i])
			die("create flooder qp");
		err = rc_loop_connect(fl[i], b->qp_num, gi, &gid);
	}
	if (err)
		die(err);

	for (i = 0; i < reads; i++) {
		size_t part = len / reads;

		rsge[i] = (struct ibv_sge){
			.addr = (uintptr_t)buf + i * part, .length = part,
			.lkey = mr->lkey,
		};
		rwr[i] = (struct ibv_send_wr){
			.wr_id = i, .sg_list = &rsge[i], .num_sge = 1,
			.opcode = IBV_WR_RDMA_READ,
			.send_flags = IBV_SEND_SIGNALED,
			.next = i + 1 < reads ? &rwr[i + 1] : NULL,
			.wr.rdma = { .remote_addr = (uintptr_t)buf + i * part,
				     .rkey = mr->rkey },
		};
	}
	ssge = (struct ibv_sge){
		.addr = (uintptr_t)buf, .length = 8, .lkey = mr->lkey,
	};
	for (j = 0; j < SENDS; j++)
		swr[j] = (struct ibv_send_wr){
			.wr_id = j, .sg_list = &ssge, .num_sge = 1,
			.opcode = IBV_WR_SEND,
			.next = j + 1 < SENDS ? &swr[j + 1] : NULL,
		};

	c0 = probe_hw_counter(argv[1], "rcvd_queue_drops");
	s0 = peak = slab_active("skbuff_head_cache");
	if (ibv_post_send(a, rwr, &bad))
		die("post reads");
	for (i = 0; i < nflood; i++)
		if (ibv_post_send(fl[i], swr, &bad))
			die("post flooder sends");

	t0 = probe_now();
	while (done < reads && probe_now() - t0 < 300) {
		int n = ibv_poll_cq(cq, 16, wc);

		if (n < 0)
			die("poll cq");
		for (i = 0; i < n; i++) {
			if (wc[i].status != IBV_WC_SUCCESS) {
				fprintf(stderr, "read %d: %s\n",
					(int)wc[i].wr_id,
					ibv_wc_status_str(wc[i].status));
				ok = 0;
			}
			done++;
		}
		s = slab_active("skbuff_head_cache");
		if (s > peak)
			peak = s;
		usleep(20000);
	}
	c1 = probe_hw_counter(argv[1], "rcvd_queue_drops");
	fprintf(stderr, "queue_flood_probe: %d reads of %zu bytes in %.1f s, counter %lld -> %lld, skbuff_head_cache %ld -> peak %ld\n",
		done, len / reads, probe_now() - t0, c0, c1, s0, peak);
	printf("queue_flood reads=%s drops=%s\n",
	       ok && done == reads ? "OK" : "FAILED",
	       c0 < 0 || c1 < 0 ? "none" : c1 > c0 ? "yes" : "no");
	printf("queue_flood skb_growth=%ld\n", peak - s0);

	for (i = 0; i < nflood; i++)
		ibv_destroy_qp(fl[i]);
	ibv_destroy_qp(a);
	ibv_destroy_qp(b);
	ibv_dereg_mr(mr);
	ibv_destroy_cq(cq);
	ibv_destroy_cq(fcq);
	ibv_dealloc_pd(pd);
	ibv_close_device(ctx);
	return 0;
}
