// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Send hand-made MADs to QP1 (the GSI QP) of a RoCE port from a user UD
 * QP, as any root process on the network can: the receiving MAD layer and
 * CM must drop what is malformed and answer what is well formed.
 *
 *   mad_inject DEV GID_INDEX KIND...
 *
 * Each KIND is sent once to QPN 1 at the port's own GID (GID_INDEX of
 * port 1; rxe loops it back to the same port's QP1):
 *   short        a 100-byte datagram (a MAD is 256 bytes)
 *   base-version a CM REQ with base version 2
 *   class-version a CM REQ with class version 1 (CM is version 2)
 *   bad-class    management class 0x2f, which no agent registered
 *   bad-attr     a CM Send with attribute ID 0x00ff
 *   bad-method   the CM class with method 0x7f
 *   req-no-listener a well-formed CM REQ to a service ID nobody listens
 *                on (the CM answers with a REJ)
 * The QP uses the GSI Q_Key 0x80010000 (a controlled Q_Key: root only).
 * Prints "sent KIND" per datagram and exits 0 once every send completed.
 */
#include <arpa/inet.h>
#include <endian.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <infiniband/verbs.h>

#define GSI_QKEY 0x80010000u
#define MAD_SIZE 256
#define CM_CLASS 0x07
#define CM_ATTR_REQ 0x0010

struct mad_hdr {
	uint8_t base_version;
	uint8_t mgmt_class;
	uint8_t class_version;
	uint8_t method;
	__be16 status;
	__be16 class_specific;
	__be64 tid;
	__be16 attr_id;
	__be16 resv;
	__be32 attr_mod;
} __attribute__((packed));

static uint64_t next_tid(void)
{
	static uint64_t tid;

	if (!tid)
		tid = (uint64_t)time(NULL) << 20;
	return ++tid;
}

/* A CM REQ (IBTA 12.6.5) for an RC connection to SERVICE_ID, enough of it
 * for the CM to look the service up and reject it (offsets: the
 * message, after the 24-byte MAD header; cm/cm_msgs.h). */
static void build_req(uint8_t *m, uint64_t service_id, const union ibv_gid *gid)
{
	struct mad_hdr *h = (struct mad_hdr *)m;
	uint8_t *d = m + sizeof(*h);
	uint32_t v;

	h->base_version = 1;
	h->mgmt_class = CM_CLASS;
	h->class_version = 2;
	h->method = 0x03;			/* Send */
	h->tid = htobe64(next_tid());
	h->attr_id = htons(CM_ATTR_REQ);
	v = htonl(0x5a5a0001);			/* local communication ID */
	memcpy(d + 0, &v, 4);
	service_id = htobe64(service_id);
	memcpy(d + 8, &service_id, 8);
	v = htonl(0x123456 << 8);		/* local QPN */
	memcpy(d + 32, &v, 4);
	d[43] = 20 << 3;			/* remote CM timeout, RC */
	v = htonl(0xabcdef << 8 | 20 << 3 | 7);	/* PSN, CM timeout, retries */
	memcpy(d + 44, &v, 4);
	d[48] = 0xff;				/* P_Key */
	d[49] = 0xff;
	d[50] = 3 << 4 | 7;			/* path MTU 1024, RNR retries */
	d[51] = 15 << 4;			/* max CM retries */
	memcpy(d + 52 + 4, gid, 16);		/* primary local GID */
	memcpy(d + 52 + 20, gid, 16);		/* primary remote GID */
	d[52 + 41] = 64;			/* hop limit */
	d[52 + 43] = 18 << 3;			/* local ACK timeout */
}

static int build(const char *kind, uint8_t *m, const union ibv_gid *gid)
{
	struct mad_hdr *h = (struct mad_hdr *)m;
	/* rdma_cm TCP port space, port 1 (nothing listens there) */
	uint64_t no_listener = 0x0000000001060001ull;

	memset(m, 0, MAD_SIZE);
	build_req(m, no_listener, gid);
	if (!strcmp(kind, "short"))
		return 100;
	if (!strcmp(kind, "base-version"))
		h->base_version = 2;
	else if (!strcmp(kind, "class-version"))
		h->class_version = 1;
	else if (!strcmp(kind, "bad-class"))
		h->mgmt_class = 0x2f;
	else if (!strcmp(kind, "bad-attr"))
		h->attr_id = htons(0x00ff);
	else if (!strcmp(kind, "bad-method"))
		h->method = 0x7f;
	else if (strcmp(kind, "req-no-listener"))
		return -1;
	return MAD_SIZE;
}

static int to_state(struct ibv_qp *qp, enum ibv_qp_state state, int mask,
		    struct ibv_qp_attr *attr)
{
	attr->qp_state = state;
	return ibv_modify_qp(qp, attr, IBV_QP_STATE | mask);
}

int main(int argc, char **argv)
{
	struct ibv_device **list, *dev = NULL;
	struct ibv_qp_init_attr init = {0};
	struct ibv_qp_attr attr = {0};
	struct ibv_ah_attr ah_attr = {0};
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	struct ibv_cq *cq;
	struct ibv_qp *qp;
	struct ibv_mr *mr;
	struct ibv_ah *ah;
	union ibv_gid gid;
	uint8_t *buf;
	int i, n, gidx;

	if (argc < 4) {
		fprintf(stderr, "usage: mad_inject DEV GID_INDEX KIND...\n");
		return 2;
	}
	gidx = atoi(argv[2]);
	list = ibv_get_device_list(&n);
	for (i = 0; list && i < n; i++)
		if (!strcmp(ibv_get_device_name(list[i]), argv[1]))
			dev = list[i];
	if (!dev) {
		fprintf(stderr, "no device %s\n", argv[1]);
		return 1;
	}
	ctx = ibv_open_device(dev);
	if (!ctx || ibv_query_gid(ctx, 1, gidx, &gid)) {
		perror("open/query_gid");
		return 1;
	}
	pd = ibv_alloc_pd(ctx);
	cq = pd ? ibv_create_cq(ctx, 16, NULL, NULL, 0) : NULL;
	buf = calloc(1, MAD_SIZE);
	mr = cq && buf ? ibv_reg_mr(pd, buf, MAD_SIZE, 0) : NULL;
	if (!mr) {
		perror("pd/cq/mr");
		return 1;
	}
	init.send_cq = cq;
	init.recv_cq = cq;
	init.qp_type = IBV_QPT_UD;
	init.cap.max_send_wr = 4;
	init.cap.max_recv_wr = 1;
	init.cap.max_send_sge = 1;
	init.cap.max_recv_sge = 1;
	qp = ibv_create_qp(pd, &init);
	if (!qp) {
		perror("create_qp");
		return 1;
	}
	attr.port_num = 1;
	attr.qkey = GSI_QKEY;
	if (to_state(qp, IBV_QPS_INIT, IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_QKEY, &attr) ||
	    to_state(qp, IBV_QPS_RTR, 0, &attr) ||
	    to_state(qp, IBV_QPS_RTS, IBV_QP_SQ_PSN, &attr)) {
		perror("modify_qp (a controlled Q_Key needs CAP_NET_RAW)");
		return 1;
	}
	ah_attr.is_global = 1;
	ah_attr.grh.dgid = gid;
	ah_attr.grh.sgid_index = gidx;
	ah_attr.grh.hop_limit = 64;
	ah_attr.port_num = 1;
	ah = ibv_create_ah(pd, &ah_attr);
	if (!ah) {
		perror("create_ah");
		return 1;
	}
	for (i = 3; i < argc; i++) {
		struct ibv_sge sge = { .addr = (uintptr_t)buf, .lkey = mr->lkey };
		struct ibv_send_wr wr = {0}, *bad;
		struct ibv_wc wc;
		int len = build(argv[i], buf, &gid), polls = 0;

		if (len < 0) {
			fprintf(stderr, "unknown kind %s\n", argv[i]);
			return 2;
		}
		sge.length = len;
		wr.sg_list = &sge;
		wr.num_sge = 1;
		wr.opcode = IBV_WR_SEND;
		wr.send_flags = IBV_SEND_SIGNALED;
		wr.wr.ud.ah = ah;
		wr.wr.ud.remote_qpn = 1;
		wr.wr.ud.remote_qkey = GSI_QKEY;
		if (ibv_post_send(qp, &wr, &bad)) {
			perror("post_send");
			return 1;
		}
		while ((n = ibv_poll_cq(cq, 1, &wc)) == 0 && polls++ < 5000000)
			;
		if (n != 1 || wc.status != IBV_WC_SUCCESS) {
			fprintf(stderr, "%s: send completion %s\n", argv[i],
				n == 1 ? ibv_wc_status_str(wc.status) : "missing");
			return 1;
		}
		printf("sent %s (%d bytes)\n", argv[i], len);
	}
	ibv_destroy_ah(ah);
	ibv_destroy_qp(qp);
	ibv_dereg_mr(mr);
	ibv_destroy_cq(cq);
	ibv_dealloc_pd(pd);
	ibv_close_device(ctx);
	ibv_free_device_list(list);
	free(buf);
	return 0;
}
