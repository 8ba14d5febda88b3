// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Send hand-made MADs to QP1 (the GSI QP) of a RoCE port from a user UD
 * QP, as any root process on the network can: the receiving MAD layer and
 * CM must drop what is malformed and answer what is well formed.
 *
 *   mad_inject [-s SRC_GID_INDEX] [-d DEST] DEV GID_INDEX KIND...
 *
 * Each KIND is sent once to QPN 1 at the port's own GID (GID_INDEX of
 * port 1; rxe loops it back to the same port's QP1), from the GID at
 * SRC_GID_INDEX (default: GID_INDEX), e.g. a second address of the port.
 * With -d, to QPN 1 of another host instead: DEST is its GID or an IPv4
 * address (taken as the v4-mapped GID), reached over the port's network,
 * and GID_INDEX is only the source.  The kinds below say "the GID" for
 * the destination either way.
 *   short        a 100-byte datagram (a MAD is 256 bytes)
 *   base-version a CM REQ with base version 2
 *   class-version a CM REQ with class version 1 (CM is version 2)
 *   bad-class    management class 0x2f, which no agent registered
 *   bad-attr     a CM Send with attribute ID 0x00ff
 *   bad-method   the CM class with method 0x7f
 *   req-no-listener a well-formed CM REQ to a service ID nobody listens
 *                on (the CM answers with a REJ)
 *   oversize     a 1024-byte datagram: more than QP1's 256-byte receive
 *                buffers hold (the receiver must drop it, not die of it)
 * these to a plain UD QP of the same port instead of QP1, with the
 * well-known rdma_cm Q_Key 0x01234567 (no privilege needed):
 *   ud-oversize=QPN  1024 bytes to QPN (hex or decimal)
 *   ud-small=QPN     64 bytes to QPN, a datagram that fits
 * and kinds that name a connection (numbers in hex; "the GID" is the one
 * at GID_INDEX, and the CA GUID is the device's own: tests run their
 * connections on this port, through loopback):
 *   stale-req:QPN  a REQ from the peer QP QPN at the GID: to the CM, that
 *                peer lost its connection (a stale one) unless the REQ
 *                comes from another source GID than the one it claims
 *   dreq:LOCAL:REMOTE:QPN  a DREQ from comm ID LOCAL to our comm ID
 *                REMOTE, naming our QP QPN
 *   rep:LOCAL:REMOTE  a REP from comm ID LOCAL to our comm ID REMOTE
 *   sidr-req:PORT:ID  an rdma_cm SIDR_REQ (UDP port space, IPv4 header
 *                from the source GID to the GID) for PORT, request ID ID;
 *                the TID follows from ID, so sending it twice is a retry
 * and floods (issue 19, "bounded under a flood"), COUNT datagrams each,
 * every one with a fresh comm ID / request ID (and a fresh QPN for REQs),
 * sent back to back with up to FLOOD_WINDOW sends in flight:
 *   flood-req:COUNT[:PORT]   REQs for rdma_cm TCP port PORT (decimal;
 *                default 1, where nobody listens: each is answered by a
 *                REJ), with a valid rdma_cm private-data header so that
 *                a listener's rdma_cm takes them as connection requests
 *   flood-dreq:COUNT   DREQs naming comm IDs nobody has (each answered by
 *                a DREP)
 *   flood-sidr:COUNT[:PORT]  SIDR_REQs for rdma_cm UDP port PORT (default
 *                1: answered by a SIDR_REP "unsupported")
 *   flood-get:COUNT  Gets of management class 0x2f, which no agent takes
 *                (the MAD layer answers each with a status GetResp)
 * COUNT is decimal.
 * The QP uses the GSI Q_Key 0x80010000 (a controlled Q_Key: root only).
 * Prints "sent KIND" per datagram (per flood: one line with the count and
 * the time it took, as soon as the flood is sent) and exits 0 once every
 * send completed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <endian.h>
#include <arpa/inet.h>
#include <infiniband/verbs.h>
/* the project's own wire layouts (pure headers, userspace-clean) */
#include <ordma/mad_wire.h>
#include "cm_msgs.h"

#define GSI_QKEY 0x80010000u
#define RDMA_CM_QKEY 0x01234567u
#define OVERSIZE_LEN 1024
#define UD_SMALL_LEN 64
#define BUF_LEN (OVERSIZE_LEN > MAD_WIRE_SIZE ? OVERSIZE_LEN : MAD_WIRE_SIZE)
/*
 * Sends in flight during a flood, each with its own slot of the buffer
 * (the send queue is FLOOD_WINDOW deep): enough to keep rxe busy, and the
 * buffer small.
 */
#define FLOOD_WINDOW 32
#define MR_LEN (BUF_LEN * FLOOD_WINDOW)
#define RDMA_PS_TCP_SID 0x0000000001060000ull
#define RDMA_PS_UDP_SID 0x0000000001110000ull

/* Where one datagram goes. */
struct inject_dest {
	unsigned int qpn;
	unsigned int qkey;
};

/* A CM REQ (IBTA 12.6.5) for an RC connection to SERVICE_ID: enough of it
 * for the CM to look the service up and reject it. */
static void build_req(u8 *m, u64 service_id, const union ibv_gid *gid)
{
	struct mad_wire_hdr h = {
		.base_version = MAD_WIRE_BASE_VERSION,
		.mgmt_class = CM_MGMT_CLASS,
		.class_version = CM_CLASS_VERSION,
		.method = CM_METHOD_SEND,
		.tid = (u64)time(NULL) << 20 | (u64)rand() << 4,
		.attr_id = CM_ATTR_REQ,
	};
	struct cm_req r = {
		.local_comm_id = 0x5a5a0001,
		.service_id = service_id,
		.local_qpn = 0x123456,
		.remote_cm_response_timeout = 20,
		.transport = CM_TRANSPORT_RC,
		.starting_psn = 0xabcdef,
		.local_cm_response_timeout = 20,
		.retry_count = 7,
		.pkey = 0xffff,
		.path_mtu = 3,			/* IB_MTU_1024 */
		.rnr_retry_count = 7,
		.max_cm_retries = 15,
		.primary = { .hop_limit = 64, .local_ack_timeout = 18 },
	};

	memcpy(r.primary.local_gid, gid->raw, 16);
	memcpy(r.primary.remote_gid, gid->raw, 16);
	mad_wire_pack(m, &h);
	cm_req_pack(m + MAD_WIRE_HDR_SIZE, &r);
}

/* What the kinds that name a connection need to know about the port. */
struct inject_ctx {
	union ibv_gid gid;	/* the destination, and the claimed source */
	union ibv_gid sgid;	/* where the datagram really comes from */
	u64 node_guid;		/* host order */
};

static void build_hdr(u8 *m, u16 attr_id, u64 tid)
{
	struct mad_wire_hdr h = {
		.base_version = MAD_WIRE_BASE_VERSION,
		.mgmt_class = CM_MGMT_CLASS,
		.class_version = CM_CLASS_VERSION,
		.method = CM_METHOD_SEND,
		.tid = tid,
		.attr_id = attr_id,
	};

	mad_wire_pack(m, &h);
}

static u64 random_tid(void)
{
	return (u64)time(NULL) << 20 | (u64)rand() << 4;
}

static int build_stale_req(u8 *m, const struct inject_ctx *c, u32 qpn)
{
	struct cm_req r;

	build_req(m, 0x0000000001060001ull, &c->gid);
	cm_req_unpack(m + MAD_WIRE_HDR_SIZE, &r);
	r.local_comm_id = (u32)rand() | 1;
	r.local_qpn = qpn & 0xffffff;
	r.local_ca_guid = c->node_guid;
	cm_req_pack(m + MAD_WIRE_HDR_SIZE, &r);
	return MAD_WIRE_SIZE;
}

static int build_dreq(u8 *m, u32 local, u32 remote, u32 qpn)
{
	struct cm_ids d = {
		.local_comm_id = local,
		.remote_comm_id = remote,
		.remote_qpn = qpn & 0xffffff,
	};

	build_hdr(m, CM_ATTR_DREQ, random_tid());
	cm_dreq_pack(m + MAD_WIRE_HDR_SIZE, &d);
	return MAD_WIRE_SIZE;
}

static int build_rep(u8 *m, const struct inject_ctx *c, u32 local,
		     u32 remote)
{
	struct cm_rep r = {
		.local_comm_id = local,
		.remote_comm_id = remote,
		.local_qpn = 0x654321,
		.starting_psn = 0x123456,
		.rnr_retry_count = 7,
		.local_ca_guid = c->node_guid,
	};

	build_hdr(m, CM_ATTR_REP, random_tid());
	cm_rep_pack(m + MAD_WIRE_HDR_SIZE, &r);
	return MAD_WIRE_SIZE;
}

/* The v4 address of a v4-mapped GID, in network order, as rdma_cm's
 * private-data header carries it (the last 4 of 16 bytes). */
static void put_ip4(u8 *dst16, const union ibv_gid *g)
{
	memcpy(dst16 + 12, g->raw + 12, 4);
}

static int build_sidr_req(u8 *m, const struct inject_ctx *c, u16 port,
			  u32 id)
{
	struct cm_sidr_req q = {
		.request_id = id,
		.pkey = 0xffff,
		.service_id = 0x0000000001110000ull | port,	/* RDMA_PS_UDP */
	};
	u8 *pdata = m + MAD_WIRE_HDR_SIZE + CM_SIDR_REQ_PDATA_OFF;

	build_hdr(m, CM_ATTR_SIDR_REQ, 0x5a00000000000000ull | id);
	cm_sidr_req_pack(m + MAD_WIRE_HDR_SIZE, &q);
	pdata[0] = 0;			/* rdma_cm header version */
	pdata[1] = 4 << 4;		/* IPv4 */
	pdata[2] = 0x4e;		/* our "port", 20000 */
	pdata[3] = 0x20;
	put_ip4(pdata + 4, &c->sgid);
	put_ip4(pdata + 20, &c->gid);
	return MAD_WIRE_SIZE;
}

/* KIND:ARG...: the kinds that name a connection; -1 if unknown. */
static int build_addressed(const char *kind, u8 *m,
			   const struct inject_ctx *c)
{
	unsigned int a, b, q;
	char tail;

	memset(m, 0, MAD_WIRE_SIZE);
	if (sscanf(kind, "stale-req:%x%c", &a, &tail) == 1)
		return build_stale_req(m, c, a);
	if (sscanf(kind, "dreq:%x:%x:%x%c", &a, &b, &q, &tail) == 3)
		return build_dreq(m, a, b, q);
	if (sscanf(kind, "rep:%x:%x%c", &a, &b, &tail) == 2)
		return build_rep(m, c, a, b);
	if (sscanf(kind, "sidr-req:%u:%x%c", &a, &b, &tail) == 2 &&
	    a < 65536)
		return build_sidr_req(m, c, a, b);
	return -1;
}

static int build(const char *kind, u8 *m, const union ibv_gid *gid)
{
	/* rdma_cm TCP port space, port 1 (nothing listens there) */
	u64 no_listener = 0x0000000001060001ull;

	memset(m, 0, MAD_WIRE_SIZE);
	build_req(m, no_listener, gid);
	if (!strcmp(kind, "short"))
		return 100;
	if (!strcmp(kind, "base-version"))
		m[MAD_WIRE_OFF_BASE_VERSION] = 2;
	else if (!strcmp(kind, "class-version"))
		m[MAD_WIRE_OFF_CLASS_VERSION] = 1;
	else if (!strcmp(kind, "bad-class"))
		m[MAD_WIRE_OFF_MGMT_CLASS] = 0x2f;
	else if (!strcmp(kind, "bad-attr"))
		mad_wire_put16(m + MAD_WIRE_OFF_ATTR_ID, 0x00ff);
	else if (!strcmp(kind, "bad-method"))
		m[MAD_WIRE_OFF_METHOD] = 0x7f;
	else if (strcmp(kind, "req-no-listener"))
		return -1;
	return MAD_WIRE_SIZE;
}

/*
 * The datagrams that are too big for the receiver, or that probe a UD QP
 * after one was: -1 when @kind is none of them, else the length of the
 * datagram built in @m (BUF_LEN bytes) and its destination in @d.
 */
static int build_oversize(const char *kind, u8 *m, struct inject_dest *d)
{
	const char *qpn = strchr(kind, '=');
	int len;

	if (!strcmp(kind, "oversize")) {
		len = OVERSIZE_LEN;
	} else if (qpn && !strncmp(kind, "ud-oversize=", qpn + 1 - kind)) {
		len = OVERSIZE_LEN;
		d->qkey = RDMA_CM_QKEY;
	} else if (qpn && !strncmp(kind, "ud-small=", qpn + 1 - kind)) {
		len = UD_SMALL_LEN;
		d->qkey = RDMA_CM_QKEY;
	} else {
		return -1;
	}
	if (qpn)
		d->qpn = strtoul(qpn + 1, NULL, 0) & 0xffffff;
	/* a recognisable pattern, not a MAD: nothing should parse it */
	for (int i = 0; i < len; i++)
		m[i] = (u8)(0xa5 ^ i);
	return len;
}

/* The kinds of flood, and what each datagram of one is. */
enum flood_kind { FLOOD_REQ, FLOOD_DREQ, FLOOD_SIDR, FLOOD_GET };

struct flood {
	enum flood_kind kind;
	unsigned long count;
	unsigned int port;	/* rdma_cm port (REQ, SIDR_REQ) */
	u32 id_base;		/* comm IDs / request IDs: id_base + i */
};

/* flood-KIND:COUNT[:PORT]: 1 and @f filled in, 0 if not a flood. */
static int parse_flood(const char *kind, struct flood *f)
{
	static const struct { const char *name; enum flood_kind kind; } k[] = {
		{ "flood-req:", FLOOD_REQ },
		{ "flood-dreq:", FLOOD_DREQ },
		{ "flood-sidr:", FLOOD_SIDR },
		{ "flood-get:", FLOOD_GET },
	};
	char tail;
	unsigned int i;

	for (i = 0; i < sizeof(k) / sizeof(k[0]); i++) {
		size_t n = strlen(k[i].name);

		if (strncmp(kind, k[i].name, n))
			continue;
		f->kind = k[i].kind;
		f->port = 1;
		if (sscanf(kind + n, "%lu:%u%c", &f->count, &f->port,
			   &tail) == 2 && f->port < 65536)
			return 1;
		f->port = 1;
		if (sscanf(kind + n, "%lu%c", &f->count, &tail) == 1)
			return 1;
		return -1;
	}
	return 0;
}

/* Datagram @i of flood @f, in @m (MAD_WIRE_SIZE bytes). */
static void build_flood(u8 *m, const struct flood *f, unsigned long i,
			const struct inject_ctx *c)
{
	u32 id = f->id_base + (u32)i;
	struct cm_req r;
	u8 *pdata;

	memset(m, 0, MAD_WIRE_SIZE);
	switch (f->kind) {
	case FLOOD_REQ:
		build_req(m, RDMA_PS_TCP_SID | f->port, &c->gid);
		cm_req_unpack(m + MAD_WIRE_HDR_SIZE, &r);
		r.local_comm_id = id;
		/* a QPN nobody is connected to: not a stale connection */
		r.local_qpn = (0x800000 | (u32)i) & 0xffffff;
		r.local_ca_guid = c->node_guid ^ 0xf100d;
		memcpy(r.primary.local_gid, c->sgid.raw, 16);
		cm_req_pack(m + MAD_WIRE_HDR_SIZE, &r);
		mad_wire_put64(m + MAD_WIRE_OFF_TID, 0xf1000000000000ull | id);
		/* rdma_cm's header: version 0, IPv4, source port, addresses */
		pdata = m + MAD_WIRE_HDR_SIZE + CM_REQ_PDATA_OFF;
		pdata[1] = 4 << 4;
		pdata[2] = (u8)(id >> 8);
		pdata[3] = (u8)id;
		put_ip4(pdata + 4, &c->sgid);
		put_ip4(pdata + 20, &c->gid);
		break;
	case FLOOD_DREQ:
		build_dreq(m, id, ~id, 0x800000 | (u32)i);
		break;
	case FLOOD_SIDR:
		build_sidr_req(m, c, f->port, id);
		break;
	case FLOOD_GET:
		build_hdr(m, 0, 0xf2000000000000ull | id);
		m[MAD_WIRE_OFF_MGMT_CLASS] = 0x2f;
		m[MAD_WIRE_OFF_CLASS_VERSION] = 1;
		m[MAD_WIRE_OFF_METHOD] = 0x01;	/* Get */
		break;
	}
}

/* -d's DEST: a GID, or an IPv4 address as its v4-mapped GID; 0 if valid. */
static int parse_dest(const char *s, union ibv_gid *gid)
{
	memset(gid, 0, sizeof(*gid));
	if (inet_pton(AF_INET6, s, gid->raw) == 1)
		return 0;
	gid->raw[10] = 0xff;
	gid->raw[11] = 0xff;
	return inet_pton(AF_INET, s, gid->raw + 12) == 1 ? 0 : -1;
}

static int to_state(struct ibv_qp *qp, enum ibv_qp_state state, int mask,
		    struct ibv_qp_attr *attr)
{
	attr->qp_state = state;
	return ibv_modify_qp(qp, attr, IBV_QP_STATE | mask);
}

/* One datagram of @len bytes at @buf to QP1 (or @d); 0 once posted. */
static int post_one(struct ibv_qp *qp, struct ibv_ah *ah, struct ibv_mr *mr,
		    u8 *buf, int len, const struct inject_dest *d)
{
	struct ibv_sge sge = {
		.addr = (uintptr_t)buf, .length = len, .lkey = mr->lkey,
	};
	struct ibv_send_wr wr = {0}, *bad;

	wr.sg_list = &sge;
	wr.num_sge = 1;
	wr.opcode = IBV_WR_SEND;
	wr.send_flags = IBV_SEND_SIGNALED;
	wr.wr.ud.ah = ah;
	wr.wr.ud.remote_qpn = d->qpn;
	wr.wr.ud.remote_qkey = d->qkey;
	if (ibv_post_send(qp, &wr, &bad)) {
		perror("post_send");
		return -1;
	}
	return 0;
}

/* Wait for @n send completions, all successful; 0 if they were. */
static int reap(struct ibv_cq *cq, int n, const char *what)
{
	struct ibv_wc wc[FLOOD_WINDOW];
	long polls = 0;
	int got;

	while (n > 0) {
		got = ibv_poll_cq(cq, n < FLOOD_WINDOW ? n : FLOOD_WINDOW, wc);
		if (got < 0 || (got == 0 && polls++ > 50000000)) {
			fprintf(stderr, "%s: send completion missing\n", what);
			return -1;
		}
		for (int i = 0; i < got; i++)
			if (wc[i].status != IBV_WC_SUCCESS) {
				fprintf(stderr, "%s: send completion %s\n",
					what, ibv_wc_status_str(wc[i].status));
				return -1;
			}
		n -= got;
	}
	return 0;
}

/* Send flood @f with up to FLOOD_WINDOW datagrams in flight. */
static int send_flood(struct ibv_qp *qp, struct ibv_cq *cq, struct ibv_ah *ah,
		      struct ibv_mr *mr, u8 *buf, const struct flood *f,
		      const struct inject_ctx *c, const char *what)
{
	const struct inject_dest d = { .qpn = 1, .qkey = GSI_QKEY };
	struct timespec t0, t1;
	unsigned long i;
	int inflight = 0;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (i = 0; i < f->count; i++) {
		u8 *m = buf + (i % FLOOD_WINDOW) * BUF_LEN;

		/* the slot's last send must be done before it is rewritten */
		if (inflight == FLOOD_WINDOW) {
			if (reap(cq, 1, what))
				return -1;
			inflight--;
		}
		build_flood(m, f, i, c);
		if (post_one(qp, ah, mr, m, MAD_WIRE_SIZE, &d))
			return -1;
		inflight++;
	}
	if (reap(cq, inflight, what))
		return -1;
	clock_gettime(CLOCK_MONOTONIC, &t1);
	printf("sent %s (%lu datagrams in %.1f s)\n", what, f->count,
	       (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9);
	/* a test watching the output starts its next step on this line */
	fflush(stdout);
	return 0;
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
	struct inject_ctx c = {0};
	union ibv_gid gid;
	u8 *buf;
	int i, n, gidx, sgidx = -1, remote = 0;

	for (;;) {
		if (argc > 2 && !strcmp(argv[1], "-s")) {
			sgidx = atoi(argv[2]);
		} else if (argc > 2 && !strcmp(argv[1], "-d")) {
			if (parse_dest(argv[2], &gid)) {
				fprintf(stderr, "-d %s: not a GID or IPv4 address\n",
					argv[2]);
				return 2;
			}
			remote = 1;
		} else {
			break;
		}
		argc -= 2;
		argv += 2;
	}
	if (argc < 4) {
		fprintf(stderr,
			"usage: mad_inject [-s SRC_GID_INDEX] [-d DEST] DEV GID_INDEX KIND...\n");
		return 2;
	}
	gidx = atoi(argv[2]);
	if (sgidx < 0)
		sgidx = gidx;
	list = ibv_get_device_list(&n);
	for (i = 0; list && i < n; i++)
		if (!strcmp(ibv_get_device_name(list[i]), argv[1]))
			dev = list[i];
	if (!dev) {
		fprintf(stderr, "no device %s\n", argv[1]);
		return 1;
	}
	ctx = ibv_open_device(dev);
	if (!ctx || (!remote && ibv_query_gid(ctx, 1, gidx, &gid)) ||
	    ibv_query_gid(ctx, 1, sgidx, &c.sgid)) {
		perror("open/query_gid");
		return 1;
	}
	c.gid = gid;
	c.node_guid = be64toh(ibv_get_device_guid(dev));
	pd = ibv_alloc_pd(ctx);
	cq = pd ? ibv_create_cq(ctx, FLOOD_WINDOW, NULL, NULL, 0) : NULL;
	buf = calloc(1, MR_LEN);
	mr = cq && buf ? ibv_reg_mr(pd, buf, MR_LEN, 0) : NULL;
	if (!mr) {
		perror("pd/cq/mr");
		return 1;
	}
	init.send_cq = cq;
	init.recv_cq = cq;
	init.qp_type = IBV_QPT_UD;
	init.cap.max_send_wr = FLOOD_WINDOW;
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
	ah_attr.grh.sgid_index = sgidx;
	ah_attr.grh.hop_limit = 64;
	ah_attr.port_num = 1;
	ah = ibv_create_ah(pd, &ah_attr);
	if (!ah) {
		perror("create_ah");
		return 1;
	}
	for (i = 3; i < argc; i++) {
		struct inject_dest dest = { .qpn = 1, .qkey = GSI_QKEY };
		/* fresh IDs per run, without disturbing rand()'s sequence */
		struct flood f = {
			.id_base = ((u32)time(NULL) ^ (u32)getpid() << 16 ^
				    (u32)i << 28) * 2654435761u,
		};
		int len, fl = parse_flood(argv[i], &f);

		if (fl > 0) {
			if (send_flood(qp, cq, ah, mr, buf, &f, &c, argv[i]))
				return 1;
			continue;
		}
		len = fl < 0 ? -1 : build_oversize(argv[i], buf, &dest);
		if (len < 0 && fl == 0 && strchr(argv[i], ':'))
			len = build_addressed(argv[i], buf, &c);
		else if (len < 0 && fl == 0)
			len = build(argv[i], buf, &gid);
		if (len < 0) {
			fprintf(stderr, "unknown kind %s\n", argv[i]);
			return 2;
		}
		if (post_one(qp, ah, mr, buf, len, &dest) ||
		    reap(cq, 1, argv[i]))
			return 1;
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
