// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The RC requester after a go-back, against a peer this probe plays
 * itself: one RC QP on the rxe device of a veth pair's end OUR_IF, whose
 * "peer" at PEER_IP is the other end PEER_IF, where the probe reads the
 * requests from an AF_PACKET socket and writes the responses (ACKs, NAKs,
 * read responses, with their ICRC) that the QP receives.  So it decides
 * exactly what the requester hears, and when.
 *
 *   goback_probe ack|fence DEV GID_INDEX OUR_IF PEER_IF OUR_IP PEER_IP
 *
 * ack: a 96-packet SEND (PSNs wrap in its middle) all sent; a plug qdisc
 *   on OUR_IF then holds what the requester sends; a sequence NAK for
 *   the first PSN makes it go back and re-send into the plug until its
 *   in-flight skb limit holds it (65 packets, usually: req.psn is
 *   rewound and short of the last PSN; stderr logs it).  Then an ACK for
 *   the last PSN, as a peer that had everything answers a duplicate.
 *   That ACK acknowledges the whole SEND: it must complete without
 *   anything more from the peer, and the requester need not send the
 *   rest of the window again once the plug opens.  Prints
 *     "goback_ack cqe=STATUS|none" and, for information,
 *     "goback_ack_resent N" (requests seen after the NAK).
 * fence: a SEND with IB_SEND_FENCE (no read before it, so it goes at
 *   once), then a READ; a sequence NAK for the SEND's PSN makes the
 *   requester go back to the SEND, which it must send again (its fence
 *   was passed the first time; the READ after it cannot complete before
 *   it).  Prints "goback_fence resent=yes|no cqes=N" (N completions once
 *   the probe answered the re-sent READ).
 */
#include <infiniband/verbs.h>
#include <arpa/inet.h>
#include <errno.h>
#include <net/if.h>
#include <netpacket/packet.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include "probe.h"
#include "rc_loop.h"

/*
 * The driver's pure header and ICRC code, built here as wire_fuzz does.
 * Its userspace stand-ins for the wire-order types would clash with
 * <linux/types.h> (through verbs.h): give them names of their own.
 */
#define __be16 rxe_be16_t
#define __be32 rxe_be32_t
#define __be64 rxe_be64_t
#define __le32 rxe_le32_t
#include "../../sw_rxe/rxe_icrc.c"
#include "roce_frame.h"
#include "../../sw_rxe/rxe_opcode.h"
#include "../../sw_rxe/rxe_psn.h"
#undef __be16
#undef __be32
#undef __be64
#undef __le32

#define ETH_HDR		14
#define BTH_OFF		(ETH_HDR + RXE_IPV4_HDR_BYTES + RXE_UDP_HDR_BYTES)
#define MAX_FRAME	2048
#define PEER_QPN	0x321
#define MTU		1024
#define ACK_PKTS	96
/* the SEND's PSNs run across the 24-bit wrap */
#define ACK_SQ_PSN	(RXE_PSN_MASK - 31)

static int sock, peer_ifindex;
static unsigned char our_mac[6], peer_mac[6];
static struct in_addr our_ip, peer_ip;
static uint32_t our_qpn;
static const char *our_if;

static void die(const char *what)
{
	fprintf(stderr, "goback_probe: %s failed (%s)\n", what,
		strerror(errno));
	exit(1);
}

static void read_mac(const char *ifname, unsigned char *mac)
{
	char path[128];
	FILE *f;

	snprintf(path, sizeof(path), "/sys/class/net/%s/address", ifname);
	f = fopen(path, "r");
	if (!f || fscanf(f, "%hhx:%hhx:%hhx:%hhx:%hhx:%hhx", &mac[0], &mac[1],
			 &mac[2], &mac[3], &mac[4], &mac[5]) != 6)
		die("reading a MAC address");
	fclose(f);
}

/* A response from the peer: BTH, AETH with @syn, @paylen bytes of 0xab. */
static void inject(u8 opcode, uint32_t psn, u8 syn, uint32_t paylen)
{
	u8 f[MAX_FRAME] = { 0 }, *ip = f + ETH_HDR;
	u8 *udp = ip + RXE_IPV4_HDR_BYTES, *bth = f + BTH_OFF;
	size_t len = RXE_BTH_BYTES + RXE_AETH_BYTES + paylen +
		     rxe_pad_len(paylen);
	struct rxe_bth_fields b = {
		.opcode = opcode, .pad = rxe_pad_len(paylen),
		.pkey = RXE_DEFAULT_PKEY, .qpn = our_qpn,
		.psn = psn & RXE_PSN_MASK,
	};
	size_t total;

	memcpy(f, our_mac, 6);
	memcpy(f + 6, peer_mac, 6);
	f[12] = 0x08;
	ip[0] = 0x45;
	rxe_put_be16(ip + 2, RXE_IPV4_HDR_BYTES + RXE_UDP_HDR_BYTES + len +
			     RXE_ICRC_BYTES);
	ip[6] = 0x40;
	ip[8] = 64;
	ip[9] = IPPROTO_UDP;
	memcpy(ip + 12, &peer_ip, 4);
	memcpy(ip + 16, &our_ip, 4);
	rxe_put_be16(ip + 10, ip_csum(ip, RXE_IPV4_HDR_BYTES));
	rxe_put_be16(udp, 0xc123);
	rxe_put_be16(udp + 2, RXE_ROCEV2_UDP_PORT);
	rxe_put_be16(udp + 4, RXE_UDP_HDR_BYTES + len + RXE_ICRC_BYTES);
	rxe_bth_encode(bth, &b);
	rxe_aeth_set_syn(bth + RXE_BTH_BYTES, syn);
	rxe_aeth_set_msn(bth + RXE_BTH_BYTES, 1);
	memset(bth + RXE_BTH_BYTES + RXE_AETH_BYTES, 0xab, paylen);
	rxe_icrc_put(udp + RXE_UDP_HDR_BYTES + len,
		     rxe_icrc_compute(ip, RXE_IPV4_HDR_BYTES, false, udp,
				      RXE_UDP_HDR_BYTES + len, crc32_raw));
	total = ETH_HDR + RXE_IPV4_HDR_BYTES + RXE_UDP_HDR_BYTES + len +
		RXE_ICRC_BYTES;
	if (send(sock, f, total < 60 ? 60 : total, 0) < 0)
		die("send");
}

/* The next request of our QP seen on PEER_IF within @secs: 1, or 0. */
static int next_request(double secs, u8 *opcode, uint32_t *psn)
{
	double t0 = probe_now();
	u8 f[MAX_FRAME];
	ssize_t n;

	for (;;) {
		double left = secs - (probe_now() - t0);
		struct pollfd p = { .fd = sock, .events = POLLIN };

		if (left <= 0 || poll(&p, 1, (int)(left * 1000) + 1) <= 0)
			return 0;
		n = recv(sock, f, sizeof(f), MSG_DONTWAIT);
		if (n < BTH_OFF + RXE_BTH_BYTES || f[12] != 0x08 ||
		    f[13] != 0x00 || f[ETH_HDR + 9] != IPPROTO_UDP ||
		    rxe_get_be16(f + ETH_HDR + RXE_IPV4_HDR_BYTES + 2) !=
		    RXE_ROCEV2_UDP_PORT ||
		    rxe_bth_qpn(f + BTH_OFF) != PEER_QPN)
			continue;
		*opcode = rxe_bth_opcode(f + BTH_OFF);
		*psn = rxe_bth_psn(f + BTH_OFF);
		return 1;
	}
}

/* Requests seen within @secs (each up to @idle after the last one). */
static int count_requests(double secs, double idle, uint32_t *last)
{
	double t0 = probe_now();
	uint32_t psn, first = 0, prev = 0;
	u8 op;
	int n = 0;

	while (probe_now() - t0 < secs && next_request(idle, &op, &psn)) {
		if (!n)
			first = psn;
		else if (psn != ((prev + 1) & RXE_PSN_MASK))
			fprintf(stderr, "goback_probe: run %#x-%#x at %.3f\n",
				first, prev, probe_now() - t0),
			first = psn;
		prev = psn;
		*last = psn;
		n++;
	}
	if (n)
		fprintf(stderr, "goback_probe: run %#x-%#x, %d requests in %.3f s\n",
			first, prev, n, probe_now() - t0);
	return n;
}

/* tc on OUR_IF: "add" a closed plug qdisc, "open" it, "del" it. */
static void plug(const char *action)
{
	char cmd[256];

	if (!strcmp(action, "add"))
		snprintf(cmd, sizeof(cmd),
			 "tc qdisc add dev %s root plug limit 100000000",
			 our_if);
	else if (!strcmp(action, "open"))
		snprintf(cmd, sizeof(cmd),
			 "tc qdisc change dev %s root plug release_indefinite",
			 our_if);
	else
		snprintf(cmd, sizeof(cmd), "tc qdisc del dev %s root", our_if);
	if (system(cmd))
		die(cmd);
}

static void connect_qp(struct ibv_qp *qp, int gid_index, uint32_t sq_psn)
{
	union ibv_gid gid = { .raw[10] = 0xff, .raw[11] = 0xff };
	const char *step;

	memcpy(&gid.raw[12], &peer_ip, 4);
	/* timeout 20 (4 s): go-backs here come from NAKs only */
	step = rc_loop_connect_psn(qp, PEER_QPN, gid_index, &gid, 20, sq_psn);
	if (step)
		die(step);
}

/* The QP's next PSN to send (rxe: req.psn), for the probe's log. */
static uint32_t sq_psn(struct ibv_qp *qp)
{
	struct ibv_qp_attr a;
	struct ibv_qp_init_attr ia;

	if (ibv_query_qp(qp, &a, IBV_QP_SQ_PSN, &ia))
		return ~0u;
	return a.sq_psn;
}

static const u8 nak_seq = RXE_AETH_NAK | RXE_NAK_PSN_SEQ_ERR;
static const u8 ack_syn = RXE_AETH_ACK | RXE_AETH_CREDITS_UNLIMITED;

static void run_ack(struct ibv_qp *qp, struct ibv_cq *cq, struct ibv_mr *mr)
{
	struct ibv_sge sge = {
		.addr = (uintptr_t)mr->addr, .length = ACK_PKTS * MTU,
		.lkey = mr->lkey,
	};
	struct ibv_send_wr wr = {
		.wr_id = 1, .sg_list = &sge, .num_sge = 1,
		.opcode = IBV_WR_SEND, .send_flags = IBV_SEND_SIGNALED,
	}, *bad;
	uint32_t last = ACK_SQ_PSN + ACK_PKTS - 1, psn;
	struct ibv_wc wc;
	int seen, resent;
	u8 op;

	if (ibv_post_send(qp, &wr, &bad))
		die("post_send");
	seen = count_requests(10, 2, &psn);
	if (seen != ACK_PKTS || psn != (last & RXE_PSN_MASK)) {
		printf("goback_ack setup: %d requests, last PSN %#x\n", seen,
		       psn);
		exit(1);
	}
	plug("add");
	inject(RXE_TRANSPORT_RC | RXE_OP_ACKNOWLEDGE, ACK_SQ_PSN, nak_seq, 0);
	usleep(500000);		/* it re-sends into the plug, then waits */
	fprintf(stderr, "goback_probe: sq_psn %#x before the ACK\n",
		sq_psn(qp));
	inject(RXE_TRANSPORT_RC | RXE_OP_ACKNOWLEDGE, last, ack_syn, 0);
	if (probe_poll(cq, &wc, 2))
		printf("goback_ack cqe=%s\n", ibv_wc_status_str(wc.status));
	else
		printf("goback_ack cqe=none\n");
	fprintf(stderr, "goback_probe: sq_psn %#x after it\n", sq_psn(qp));
	plug("open");
	resent = count_requests(10, 1, &psn);
	printf("goback_ack_resent %d\n", resent);
	/* the duplicate ACK a peer would send for what came again */
	if (!next_request(0, &op, &psn))
		inject(RXE_TRANSPORT_RC | RXE_OP_ACKNOWLEDGE, last, ack_syn, 0);
	plug("del");
}

static void run_fence(struct ibv_qp *qp, struct ibv_cq *cq, struct ibv_mr *mr)
{
	struct ibv_sge s_sge = {
		.addr = (uintptr_t)mr->addr, .length = 16, .lkey = mr->lkey,
	}, r_sge = {
		.addr = (uintptr_t)mr->addr + 4096, .length = 8,
		.lkey = mr->lkey,
	};
	struct ibv_send_wr read = {
		.wr_id = 2, .sg_list = &r_sge, .num_sge = 1,
		.opcode = IBV_WR_RDMA_READ, .send_flags = IBV_SEND_SIGNALED,
		.wr.rdma = { .remote_addr = 0x10000, .rkey = 0x1234 },
	}, send = {
		.wr_id = 1, .next = &read, .sg_list = &s_sge, .num_sge = 1,
		.opcode = IBV_WR_SEND,
		.send_flags = IBV_SEND_SIGNALED | IBV_SEND_FENCE,
	}, *bad;
	uint32_t psn, psn0 = 0;
	struct ibv_wc wc;
	int cqes = 0, resent = 0;
	u8 op;

	if (ibv_post_send(qp, &send, &bad))
		die("post_send");
	if (count_requests(5, 1, &psn) != 2) {
		printf("goback_fence setup: not 2 requests\n");
		exit(1);
	}
	inject(RXE_TRANSPORT_RC | RXE_OP_ACKNOWLEDGE, psn0, nak_seq, 0);
	/* the SEND again, then the READ: answer the READ, which covers both */
	while (next_request(2, &op, &psn)) {
		if (psn == psn0)
			resent = 1;
		if (op == (RXE_TRANSPORT_RC | RXE_OP_READ_REQUEST)) {
			inject(RXE_TRANSPORT_RC | RXE_OP_READ_RESPONSE_ONLY,
			       psn, ack_syn, 8);
			break;
		}
	}
	while (cqes < 2 && probe_poll(cq, &wc, 1))
		cqes += wc.status == IBV_WC_SUCCESS;
	printf("goback_fence resent=%s cqes=%d\n", resent ? "yes" : "no",
	       cqes);
}

int main(int argc, char **argv)
{
	struct ibv_qp_init_attr qa = {
		.qp_type = IBV_QPT_RC,
		.cap = { .max_send_wr = 8, .max_recv_wr = 1,
			 .max_send_sge = 1, .max_recv_sge = 1 },
	};
	struct sockaddr_ll sll = { .sll_family = AF_PACKET };
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	struct ibv_cq *cq;
	struct ibv_mr *mr;
	struct ibv_qp *qp;
	int rcvbuf = 8 << 20;
	void *buf;

	if (argc != 8) {
		fprintf(stderr, "usage: goback_probe ack|fence DEV GID_INDEX "
			"OUR_IF PEER_IF OUR_IP PEER_IP\n");
		return 2;
	}
	our_if = argv[4];
	read_mac(argv[4], our_mac);
	read_mac(argv[5], peer_mac);
	if (inet_pton(AF_INET, argv[6], &our_ip) != 1 ||
	    inet_pton(AF_INET, argv[7], &peer_ip) != 1)
		die("parsing the addresses");
	peer_ifindex = if_nametoindex(argv[5]);
	sock = socket(AF_PACKET, SOCK_RAW, htons(0x0003 /* ETH_P_ALL */));
	if (sock < 0 || !peer_ifindex)
		die("the packet socket");
	setsockopt(sock, SOL_SOCKET, SO_RCVBUFFORCE, &rcvbuf, sizeof(rcvbuf));
	sll.sll_protocol = htons(0x0003);
	sll.sll_ifindex = peer_ifindex;
	if (bind(sock, (struct sockaddr *)&sll, sizeof(sll)))
		die("bind");

	ctx = probe_open_device(argv[2]);
	if (!ctx)
		die("opening the device");
	pd = ibv_alloc_pd(ctx);
	cq = ibv_create_cq(ctx, 16, NULL, NULL, 0);
	buf = calloc(1, ACK_PKTS * MTU);
	if (!pd || !cq || !buf)
		die("pd/cq");
	mr = ibv_reg_mr(pd, buf, ACK_PKTS * MTU, IBV_ACCESS_LOCAL_WRITE);
	qa.send_cq = cq;
	qa.recv_cq = cq;
	qp = mr ? ibv_create_qp(pd, &qa) : NULL;
	if (!qp)
		die("mr/qp");
	our_qpn = qp->qp_num;
	connect_qp(qp, atoi(argv[3]),
		   strcmp(argv[1], "ack") ? 0 : ACK_SQ_PSN);
	if (!strcmp(argv[1], "ack"))
		run_ack(qp, cq, mr);
	else
		run_fence(qp, cq, mr);
	ibv_destroy_qp(qp);
	ibv_dereg_mr(mr);
	ibv_destroy_cq(cq);
	ibv_dealloc_pd(pd);
	ibv_close_device(ctx);
	return 0;
}
