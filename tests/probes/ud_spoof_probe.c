// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * A UD send WQE may carry its address vector inline (ah_num 0, the form
 * of providers older than librxe 44).  That AV is the user's memory, and
 * among its fields is a ready-made source sockaddr: a sender must not be
 * able to pick its packets' source IP with it.  The source must be the
 * GID at the AV's sgid_index, as for an AH.
 *
 * librxe 44 always sends by AH number, so the probe writes the WQE into
 * the send ring itself: it copies the WQE librxe wrote for a first send,
 * clears ah_num and fills the inline AV with the real destination, the
 * real sgid_index and a forged source address.  A UD QP of the same
 * process receives both messages; the source address in the received
 * GRH tells which address went on the wire.
 *
 *   ud_spoof_probe GID_INDEX
 *
 * Prints "ud_spoof FAMILY wr_id=2 status=STR src=own|forged|other" for
 * the forged WQE, or "... recv=none" when nothing arrived.
 */
#include <infiniband/verbs.h>
#include "probe.h"
#include <arpa/inet.h>
#include <rdma/rdma_user_rxe.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define QKEY 0x11111111
#define GRH_LEN 40
#define MSG_LEN 16
#define FORGED_V6 "2001:db8::bad"
#define FORGED_V4 "10.0.2.99"

static void die(const char *what)
{
	fprintf(stderr, "ud_spoof_probe: %s failed\n", what);
	exit(1);
}

static void ud_up(struct ibv_qp *qp)
{
	struct ibv_qp_attr a = {
		.qp_state = IBV_QPS_INIT, .port_num = 1, .qkey = QKEY,
	};

	if (ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX |
			  IBV_QP_PORT | IBV_QP_QKEY))
		die("UD INIT");
	a.qp_state = IBV_QPS_RTR;
	if (ibv_modify_qp(qp, &a, IBV_QP_STATE))
		die("UD RTR");
	a.qp_state = IBV_QPS_RTS;
	a.sq_psn = 0;
	if (ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_SQ_PSN))
		die("UD RTS");
}

static struct rxe_send_wqe *ring_slot(struct rxe_queue_buf *ring, uint32_t i)
{
	return (struct rxe_send_wqe *)(ring->data +
		((size_t)(i & ring->index_mask) << ring->log2_elem_size));
}

static uint32_t ring_producer(struct rxe_queue_buf *ring)
{
	return atomic_load_explicit((_Atomic uint32_t *)&ring->producer_index,
				    memory_order_acquire);
}

int main(int argc, char **argv)
{
	int sgid = argc > 1 ? atoi(argv[1]) : 1;
	unsigned long before[64], after[64], maps[2];
	int nb, na, nmaps = 0, i, j, ndev, v4;
	struct ibv_device **devs = ibv_get_device_list(&ndev);
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	struct ibv_cq *scq, *rcq;
	struct ibv_qp *sqp, *rqp;
	struct ibv_ah *ah;
	struct ibv_mr *mr;
	struct ibv_wc wc;
	union ibv_gid gid;
	struct rxe_queue_buf *ring = NULL;
	struct rxe_send_wqe *prev, *slot;
	struct rxe_av *av;
	uint32_t prod;
	char *mem, *src, *forged_msg, name[INET6_ADDRSTRLEN];
	const unsigned char *got;
	const char *msg = NULL;
	unsigned char own[16], forged[16];

	if (!devs || ndev < 1 || !(ctx = ibv_open_device(devs[0])))
		die("open device");
	if (ibv_query_gid(ctx, 1, sgid, &gid))
		die("query gid");
	v4 = !memcmp(gid.raw, "\0\0\0\0\0\0\0\0\0\0\xff\xff", 12);
	pd = ibv_alloc_pd(ctx);
	scq = ibv_create_cq(ctx, 16, NULL, NULL, 0);
	rcq = ibv_create_cq(ctx, 16, NULL, NULL, 0);
	if (!pd || !scq || !rcq)
		die("pd/cq");

	struct ibv_qp_init_attr qa = {
		.send_cq = scq, .recv_cq = rcq, .qp_type = IBV_QPT_UD,
		.cap = { .max_send_wr = 8, .max_recv_wr = 8,
			 .max_send_sge = 1, .max_recv_sge = 1 },
	};
	rqp = ibv_create_qp(pd, &qa);
	nb = uverbs_maps(before, 64);
	if (nb < 0)
		die("read /proc/self/maps");
	sqp = ibv_create_qp(pd, &qa);
	if (!sqp || !rqp)
		die("create qp");
	na = uverbs_maps(after, 64);
	for (i = 0; i < na; i++) {
		for (j = 0; j < nb && before[j] != after[i]; j++)
			;
		if (j == nb && nmaps < 2)
			maps[nmaps++] = after[i];
	}
	if (nmaps != 2)
		die("find the sender's two ring mappings");
	ud_up(sqp);
	ud_up(rqp);

	struct ibv_ah_attr aa = {
		.is_global = 1, .port_num = 1,
		.grh = { .dgid = gid, .sgid_index = sgid, .hop_limit = 64 },
	};
	ah = ibv_create_ah(pd, &aa);
	if (!ah)
		die("create ah");

	mem = calloc(1, 4096);
	mr = ibv_reg_mr(pd, mem, 4096, IBV_ACCESS_LOCAL_WRITE);
	if (!mr)
		die("reg mr");
	src = mem + 3072;
	memset(src, 'U', MSG_LEN);
	forged_msg = src + 512;
	memset(forged_msg, 'F', MSG_LEN);
	for (i = 0; i < 3; i++) {
		struct ibv_sge rs = {
			.addr = (uintptr_t)mem + i * 1024,
			.length = GRH_LEN + MSG_LEN, .lkey = mr->lkey,
		};
		struct ibv_recv_wr rw = {
			.wr_id = 10 + i, .sg_list = &rs, .num_sge = 1,
		}, *rbad;

		if (ibv_post_recv(rqp, &rw, &rbad))
			die("post recv");
	}

	/* 1: a proper send by AH number; it tells which mapping is the SQ */
	struct ibv_sge ss = {
		.addr = (uintptr_t)src, .length = MSG_LEN, .lkey = mr->lkey,
	};
	struct ibv_send_wr sw = {
		.wr_id = 1, .sg_list = &ss, .num_sge = 1,
		.opcode = IBV_WR_SEND, .send_flags = IBV_SEND_SIGNALED,
		.wr.ud = { .ah = ah, .remote_qpn = rqp->qp_num,
			   .remote_qkey = QKEY },
	}, *bad;

	if (ibv_post_send(sqp, &sw, &bad))
		die("post the first send");
	for (i = 0; i < 2; i++)
		if (ring_producer((struct rxe_queue_buf *)maps[i]) == 1)
			ring = (struct rxe_queue_buf *)maps[i];
	if (!ring)
		die("find the send ring");
	if (!probe_poll(scq, &wc, 10) || wc.status != IBV_WC_SUCCESS ||
	    !probe_poll(rcq, &wc, 10) || wc.status != IBV_WC_SUCCESS)
		die("the first message");

	/* 2: the same WQE with the AV inline and a forged source */
	if (v4)
		inet_pton(AF_INET, FORGED_V4, forged);
	else
		inet_pton(AF_INET6, FORGED_V6, forged);
	memcpy(own, v4 ? gid.raw + 12 : gid.raw, v4 ? 4 : 16);
	prod = ring_producer(ring);
	prev = ring_slot(ring, prod - 1);
	slot = ring_slot(ring, prod);
	memcpy(slot, prev, 1u << ring->log2_elem_size);
	slot->wr.wr_id = 2;
	slot->status = 0;
	slot->state = 0;
	slot->dma.resid = slot->dma.length;
	slot->dma.cur_sge = 0;
	slot->dma.sge_offset = 0;
	slot->dma.sge[0].addr = (uintptr_t)forged_msg;
	slot->wr.wr.ud.ah_num = 0;
	av = &slot->wr.wr.ud.av;
	memset(av, 0, sizeof(*av));
	av->port_num = 1;
	memcpy(av->grh.dgid.raw, gid.raw, 16);
	av->grh.sgid_index = sgid;
	av->grh.hop_limit = 64;
	if (v4) {
		av->network_type = RXE_NETWORK_TYPE_IPV4;
		av->sgid_addr._sockaddr_in.sin_family = AF_INET;
		memcpy(&av->sgid_addr._sockaddr_in.sin_addr, forged, 4);
		av->dgid_addr._sockaddr_in.sin_family = AF_INET;
		memcpy(&av->dgid_addr._sockaddr_in.sin_addr, own, 4);
	} else {
		av->network_type = RXE_NETWORK_TYPE_IPV6;
		av->sgid_addr._sockaddr_in6.sin6_family = AF_INET6;
		memcpy(&av->sgid_addr._sockaddr_in6.sin6_addr, forged, 16);
		av->dgid_addr._sockaddr_in6.sin6_family = AF_INET6;
		memcpy(&av->dgid_addr._sockaddr_in6.sin6_addr, own, 16);
	}
	atomic_store_explicit((_Atomic uint32_t *)&ring->producer_index,
			      (prod + 1) & ring->index_mask,
			      memory_order_release);

	/* 3: a proper send rings the doorbell for both */
	sw.wr_id = 3;
	if (ibv_post_send(sqp, &sw, &bad))
		die("post the third send");

	printf("ud_spoof %s wr_id=2 ", v4 ? "ipv4" : "ipv6");
	for (i = 0; i < 2; i++) {
		if (!probe_poll(scq, &wc, 10))
			break;
		if (wc.wr_id == 2)
			printf("status=%s ", ibv_wc_status_str(wc.status));
	}
	if (i < 2)
		printf("send-completions=%d ", i);
	/* its message says 'F'; the third send's says 'U' */
	for (i = 0; i < 2 && probe_poll(rcq, &wc, 3); i++) {
		msg = mem + (size_t)(wc.wr_id - 10) * 1024;
		if (wc.status == IBV_WC_SUCCESS && msg[GRH_LEN] == 'F')
			break;
	}
	if (i == 2 || wc.status != IBV_WC_SUCCESS || msg[GRH_LEN] != 'F') {
		printf("recv=none\n");
		return 0;
	}
	/*
	 * RoCEv2 receives put the IP header into the GRH's 40 bytes: IPv6
	 * in full (source at 8), IPv4 in the last 20 (source at 20 + 12).
	 */
	got = (unsigned char *)msg + (v4 ? 32 : 8);
	if (!memcmp(got, own, v4 ? 4 : 16))
		printf("src=own\n");
	else if (!memcmp(got, forged, v4 ? 4 : 16))
		printf("src=forged\n");
	else
		printf("src=other:%s\n", inet_ntop(v4 ? AF_INET : AF_INET6,
						   got, name, sizeof(name)));
	return 0;
}
