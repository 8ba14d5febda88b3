// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * cma_selftest: the rdma_cm on a live RoCE device (rxe0 on eth0 with
 * 10.0.2.15 and fd00::15), run once at module load.  Flow, for IPv4 then
 * IPv6 where it applies:
 *
 *   resolve_addr / resolve_route to our own address (loopback through
 *   the netdev owning it): device, source address, GIDs, the RoCE path
 *   -> listen on an ephemeral port; connect with private data, accept
 *      with private data (both seen byte-exact by the other side), kernel
 *      RC QPs moved by the rdma_cm; a SEND checked byte for byte; the
 *      active side disconnects, both see DISCONNECTED
 *   -> a connect that the listener rejects: REJECTED, reason 28 and the
 *      reject's private data, also as the consumer helpers read them
 *      (rdma_is_consumer_reject(), rdma_consumer_reject_data(),
 *      rdma_reject_msg())
 *   -> a connect whose REQ the MAD layer flushes (ib_mad/flush_sends):
 *      UNREACHABLE at once, not silence
 *   -> the UDP port space: SIDR_REQ/SIDR_REP give the peer's QPN and the
 *      RDMA_UDP_QKEY
 *   -> bind conflicts (-EADDRINUSE) and REUSEADDR
 *   -> every id destroyed; the device's cm_id count back where it was.
 *
 * Prints "cma_selftest: N passed, M failed"; fails the load (-EINVAL)
 * when anything failed.
 *
 * With hold=1 the module then keeps, until it is unloaded, a wildcard
 * listener, a connection made through it (kernel QPs) and an id bound to
 * fd00::15, for the guest script to delete the address (ADDR_CHANGE on
 * the bound id) and the device under them (DEVICE_REMOVAL on each; the
 * handler frees the QPs, and removal must not wait for anything else).
 * Unloading prints "cma_selftest: hold: A addr_change, R device_removal".
 */
#include <linux/delay.h>
#include <linux/inet.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/wait.h>
#include <net/ipv6.h>
#include <net/net_namespace.h>
#include <ordma/ib_core.h>
#include <ordma/rdma_cm.h>

#include "kselftest.h"

static bool hold;
module_param(hold, bool, 0444);
MODULE_PARM_DESC(hold, "keep ids alive for removal tests until unload");


#define WAIT_MS		20000
#define MSG_LEN		1000

/* Events of one test, recorded by the handler in arrival order. */
struct rec {
	struct rdma_cm_id *id;
	enum rdma_cm_event_type event;
	int status;
	u8 pdata[64];
	u32 qp_num;
	u32 qkey;
};

struct evq {
	spinlock_t lock;
	wait_queue_head_t wq;
	struct rec recs[32];
	int n, taken;
};

static int st_handler(struct rdma_cm_id *id, struct rdma_cm_event *ev)
{
	struct evq *q = id->context;
	struct rec *r;
	const void *pd = NULL;
	size_t len = 0;

	spin_lock(&q->lock);
	if (q->n < ARRAY_SIZE(q->recs)) {
		r = &q->recs[q->n];
		memset(r, 0, sizeof(*r));
		r->id = id;
		r->event = ev->event;
		r->status = ev->status;
		if (id->qp_type == IB_QPT_UD &&
		    ev->event != RDMA_CM_EVENT_REJECTED) {
			pd = ev->param.ud.private_data;
			len = ev->param.ud.private_data_len;
			r->qp_num = ev->param.ud.qp_num;
			r->qkey = ev->param.ud.qkey;
		} else {
			pd = ev->param.conn.private_data;
			len = ev->param.conn.private_data_len;
			r->qp_num = ev->param.conn.qp_num;
		}
		if (pd)
			memcpy(r->pdata, pd, min(len, sizeof(r->pdata)));
		q->n++;
	}
	spin_unlock(&q->lock);
	wake_up(&q->wq);
	return 0;
}

static void evq_init(struct evq *q)
{
	memset(q, 0, sizeof(*q));
	spin_lock_init(&q->lock);
	init_waitqueue_head(&q->wq);
}

/*
 * The next event for @id (any id if NULL) of type @type within @ms, or
 * NULL; 0 only looks at what has come already.
 */
static struct rec *evq_wait_ms(struct evq *q, struct rdma_cm_id *id,
			       enum rdma_cm_event_type type, unsigned int ms)
{
	unsigned long end = jiffies + msecs_to_jiffies(ms);
	int i;

	for (;;) {
		spin_lock(&q->lock);
		for (i = 0; i < q->n; i++) {
			struct rec *r = &q->recs[i];

			if (r->event == type && (!id || r->id == id) &&
			    !(q->taken & (1 << i))) {
				q->taken |= 1 << i;
				spin_unlock(&q->lock);
				return r;
			}
		}
		spin_unlock(&q->lock);
		if (time_after(jiffies, end))
			return NULL;
		wait_event_timeout(q->wq, true, msecs_to_jiffies(50));
	}
}

static struct rec *evq_wait(struct evq *q, struct rdma_cm_id *id,
			    enum rdma_cm_event_type type)
{
	return evq_wait_ms(q, id, type, WAIT_MS);
}

static void st_dump(struct evq *q)
{
	int i;

	for (i = 0; i < q->n; i++)
		pr_info("cma_selftest:   event %d on %p: %s (%d)\n", i,
			q->recs[i].id, rdma_event_msg(q->recs[i].event),
			q->recs[i].status);
}

static void st_addr(struct sockaddr_storage *ss, int family, u16 port)
{
	memset(ss, 0, sizeof(*ss));
	if (family == AF_INET) {
		struct sockaddr_in *s = (struct sockaddr_in *)ss;

		s->sin_family = AF_INET;
		s->sin_addr.s_addr = in_aton("10.0.2.15");
		s->sin_port = htons(port);
	} else {
		struct sockaddr_in6 *s = (struct sockaddr_in6 *)ss;

		s->sin6_family = AF_INET6;
		in6_pton("fd00::15", -1, s->sin6_addr.s6_addr, -1, NULL);
		s->sin6_port = htons(port);
	}
}

static u16 st_port(struct rdma_cm_id *id)
{
	struct sockaddr *a = (struct sockaddr *)&id->route.addr.src_addr;

	return a->sa_family == AF_INET ?
	       ntohs(((struct sockaddr_in *)a)->sin_port) :
	       ntohs(((struct sockaddr_in6 *)a)->sin6_port);
}

static struct rdma_cm_id *st_id(struct evq *q, enum rdma_ucm_port_space ps,
				enum ib_qp_type type)
{
	struct rdma_cm_id *id = rdma_create_id(&init_net, st_handler, q, ps,
					       type);

	CHECK(!IS_ERR(id), "rdma_create_id: %ld", PTR_ERR(id));
	return IS_ERR(id) ? NULL : id;
}

/* resolve_addr + resolve_route on @id to @dst; true when resolved. */
static bool st_resolve(struct evq *q, struct rdma_cm_id *id,
		       struct sockaddr_storage *dst)
{
	struct rec *r;
	int ret;

	ret = rdma_resolve_addr(id, NULL, (struct sockaddr *)dst, 5000);
	if (!CHECK(!ret, "rdma_resolve_addr: %d", ret))
		return false;
	r = evq_wait(q, id, RDMA_CM_EVENT_ADDR_RESOLVED);
	if (!CHECK(r, "ADDR_RESOLVED")) {
		st_dump(q);
		return false;
	}
	ret = rdma_resolve_route(id, 5000);
	if (!CHECK(!ret, "rdma_resolve_route: %d", ret))
		return false;
	r = evq_wait(q, id, RDMA_CM_EVENT_ROUTE_RESOLVED);
	if (!CHECK(r, "ROUTE_RESOLVED")) {
		st_dump(q);
		return false;
	}
	return true;
}

/* ---- address and route resolution ---------------------------------- */

static void st_resolution(int family)
{
	struct sockaddr_storage dst;
	union ib_gid gid;
	struct evq *q = kmalloc(sizeof(*q), GFP_KERNEL);
	struct rdma_cm_id *id;
	struct ib_cm_path *path;

	if (!CHECK(q, "alloc"))
		return;
	evq_init(q);
	id = st_id(q, RDMA_PS_TCP, IB_QPT_RC);
	if (!id)
		goto out;
	st_addr(&dst, family, 7000);
	if (!st_resolve(q, id, &dst))
		goto destroy;
	CHECK(id->device && !strcmp(dev_name(&id->device->dev), "rxe0"),
	      "resolved to rxe0");
	CHECK(id->port_num == 1, "port 1: %u", id->port_num);
	CHECK(rdma_get_state(id) == RDMA_CM_ROUTE_RESOLVED, "state %d",
	      rdma_get_state(id));
	CHECK(id->route.addr.src_addr.ss_family == family, "source family");
	st_addr(&dst, family, 0);
	if (family == AF_INET)
		CHECK(((struct sockaddr_in *)&id->route.addr.src_addr)->sin_addr.s_addr ==
		      ((struct sockaddr_in *)&dst)->sin_addr.s_addr,
		      "source 10.0.2.15 selected");
	else
		CHECK(ipv6_addr_equal(&((struct sockaddr_in6 *)&id->route.addr.src_addr)->sin6_addr,
				      &((struct sockaddr_in6 *)&dst)->sin6_addr),
		      "source fd00::15 selected");
	CHECK(st_port(id) != 0, "an ephemeral source port");
	rdma_read_gids(id, &gid, NULL);
	path = id->route.path_rec;
	if (CHECK(path, "a path record")) {
		CHECK(!memcmp(path->sgid.raw, gid.raw, 16), "path sgid");
		CHECK(!memcmp(path->dgid.raw, gid.raw, 16), "path dgid (self)");
		CHECK(family != AF_INET || (gid.raw[10] == 0xff &&
					    gid.raw[11] == 0xff &&
					    gid.raw[12] == 10 &&
					    gid.raw[15] == 15),
		      "IPv4-mapped GID");
		CHECK(path->pkey == 0xffff, "pkey %x", path->pkey);
		CHECK(path->mtu == IB_MTU_1024, "mtu %d (1500-byte netdev)",
		      path->mtu);
		CHECK(path->sgid_attr &&
		      path->sgid_attr->gid_type == IB_UVERBS_GID_TYPE_ROCE_V2,
		      "RoCE v2 GID entry");
		CHECK(path->hop_limit > 0, "hop limit %u", path->hop_limit);
	}
	CHECK(!memcmp(id->route.addr.dev_addr.src_dev_addr,
		      id->route.addr.dev_addr.dst_dev_addr, ETH_ALEN),
	      "loopback: our own MAC as the destination");
destroy:
	rdma_destroy_id(id);
out:
	kfree(q);
}

/* ---- a connection on kernel RC QPs ---------------------------------- */

struct side {
	struct rdma_cm_id *id;
	struct ib_pd *pd;
	struct ib_cq *cq;
	u8 *buf;
};

static bool side_qp(struct side *s)
{
	struct ib_qp_init_attr init = {
		.cap = { .max_send_wr = 8, .max_recv_wr = 8,
			 .max_send_sge = 1, .max_recv_sge = 1 },
		.sq_sig_type = IB_SIGNAL_ALL_WR,
		.qp_type = IB_QPT_RC,
	};
	int ret;

	s->pd = ib_alloc_pd(s->id->device, 0);
	if (!CHECK(!IS_ERR(s->pd), "ib_alloc_pd: %ld", PTR_ERR(s->pd))) {
		s->pd = NULL;
		return false;
	}
	s->cq = ib_alloc_cq(s->id->device, NULL, 16, 0, IB_POLL_DIRECT);
	if (!CHECK(!IS_ERR(s->cq), "ib_alloc_cq: %ld", PTR_ERR(s->cq))) {
		s->cq = NULL;
		return false;
	}
	s->buf = kzalloc(4096, GFP_KERNEL);
	if (!CHECK(s->buf, "buffer"))
		return false;
	init.send_cq = s->cq;
	init.recv_cq = s->cq;
	ret = rdma_create_qp(s->id, s->pd, &init);
	return CHECK(!ret, "rdma_create_qp: %d", ret);
}

static void side_free(struct side *s)
{
	if (s->id && s->id->qp)
		rdma_destroy_qp(s->id);
	if (s->cq)
		ib_free_cq(s->cq);
	if (s->pd)
		ib_dealloc_pd(s->pd);
	kfree(s->buf);
	if (s->id)
		rdma_destroy_id(s->id);
	memset(s, 0, sizeof(*s));
}

static int side_post(struct side *s, bool recv, u32 len)
{
	struct ib_sge sge = {
		.addr = ib_dma_map_single(s->id->device, s->buf, len,
					  DMA_BIDIRECTIONAL),
		.length = len,
		.lkey = s->pd->local_dma_lkey,
	};
	struct ib_recv_wr rwr = { .sg_list = &sge, .num_sge = 1, .wr_id = 1 };
	struct ib_send_wr swr = {
		.sg_list = &sge, .num_sge = 1, .wr_id = 2,
		.opcode = IB_WR_SEND, .send_flags = IB_SEND_SIGNALED,
	};
	const struct ib_recv_wr *rbad;
	const struct ib_send_wr *sbad;

	return recv ? ib_post_recv(s->id->qp, &rwr, &rbad) :
		      ib_post_send(s->id->qp, &swr, &sbad);
}

static bool side_poll(struct side *s, struct ib_wc *wc)
{
	return kst_poll_cq(s->cq, wc, WAIT_MS) == 1;
}

static const char cli_pdata[] = "rdma_cm selftest: hello from the client";
static const char srv_pdata[] = "and hello back from the server";

static void st_connect(int family)
{
	struct side cli = {}, srv = {};
	struct rdma_cm_id *listen;
	struct rdma_conn_param param = {};
	struct sockaddr_storage addr;
	struct evq *q = kmalloc(sizeof(*q), GFP_KERNEL);
	struct ib_wc wc;
	struct rec *r;
	int ret, i;

	if (!CHECK(q, "alloc"))
		return;
	evq_init(q);
	listen = st_id(q, RDMA_PS_TCP, IB_QPT_RC);
	if (!listen)
		goto out;
	st_addr(&addr, family, 0);
	ret = rdma_bind_addr(listen, (struct sockaddr *)&addr);
	CHECK(!ret, "bind listener: %d", ret);
	ret = rdma_listen(listen, 4);
	if (!CHECK(!ret, "rdma_listen: %d", ret))
		goto destroy_listen;
	CHECK(rdma_get_state(listen) == RDMA_CM_LISTEN, "LISTEN");

	cli.id = st_id(q, RDMA_PS_TCP, IB_QPT_RC);
	if (!cli.id)
		goto destroy_listen;
	st_addr(&addr, family, st_port(listen));
	if (!st_resolve(q, cli.id, &addr) || !side_qp(&cli))
		goto free;
	ret = side_post(&cli, true, 4096);
	CHECK(!ret, "client post_recv: %d", ret);

	param.private_data = cli_pdata;
	param.private_data_len = sizeof(cli_pdata);
	param.responder_resources = 1;
	param.initiator_depth = 1;
	param.retry_count = 7;
	param.rnr_retry_count = 7;
	ret = rdma_connect(cli.id, &param);
	if (!CHECK(!ret, "rdma_connect: %d", ret))
		goto free;

	r = evq_wait(q, NULL, RDMA_CM_EVENT_CONNECT_REQUEST);
	if (!CHECK(r, "CONNECT_REQUEST")) {
		st_dump(q);
		goto free;
	}
	srv.id = r->id;
	CHECK(srv.id != listen, "a new id for the request");
	CHECK(!memcmp(r->pdata, cli_pdata, sizeof(cli_pdata)),
	      "the REQ's private data, byte-exact");
	CHECK(r->qp_num == cli.id->qp->qp_num, "the client's QPN %x",
	      r->qp_num);
	CHECK(rdma_get_state(srv.id) == RDMA_CM_CONNECT, "new id CONNECT");
	CHECK(srv.id->route.addr.dst_addr.ss_family == family,
	      "peer address family");
	CHECK(st_port(srv.id) == st_port(listen), "local port = listener's");
	if (!side_qp(&srv))
		goto free;
	ret = side_post(&srv, true, 4096);
	CHECK(!ret, "server post_recv: %d", ret);
	memset(&param, 0, sizeof(param));
	param.private_data = srv_pdata;
	param.private_data_len = sizeof(srv_pdata);
	param.responder_resources = 1;
	param.initiator_depth = 1;
	param.rnr_retry_count = 7;
	ret = rdma_accept(srv.id, &param);
	if (!CHECK(!ret, "rdma_accept: %d", ret))
		goto free;

	r = evq_wait(q, cli.id, RDMA_CM_EVENT_ESTABLISHED);
	if (!CHECK(r, "client ESTABLISHED")) {
		st_dump(q);
		goto free;
	}
	CHECK(!memcmp(r->pdata, srv_pdata, sizeof(srv_pdata)),
	      "the REP's private data, byte-exact");
	r = evq_wait(q, srv.id, RDMA_CM_EVENT_ESTABLISHED);
	if (!CHECK(r, "server ESTABLISHED")) {
		st_dump(q);
		goto free;
	}

	for (i = 0; i < MSG_LEN; i++)
		cli.buf[i] = (u8)(i * 13 + family);
	ret = side_post(&cli, false, MSG_LEN);
	CHECK(!ret, "client post_send: %d", ret);
	if (CHECK(side_poll(&cli, &wc), "send completion"))
		CHECK(wc.status == IB_WC_SUCCESS, "send status %d", wc.status);
	if (CHECK(side_poll(&srv, &wc), "receive completion")) {
		CHECK(wc.status == IB_WC_SUCCESS, "recv status %d", wc.status);
		CHECK(wc.byte_len == MSG_LEN, "recv %u bytes", wc.byte_len);
		CHECK(!memcmp(srv.buf, cli.buf, MSG_LEN), "byte-exact SEND");
	}

	ret = rdma_disconnect(cli.id);
	CHECK(!ret, "rdma_disconnect: %d", ret);
	r = evq_wait(q, srv.id, RDMA_CM_EVENT_DISCONNECTED);
	if (CHECK(r, "server DISCONNECTED"))
		rdma_disconnect(srv.id);
	r = evq_wait(q, cli.id, RDMA_CM_EVENT_DISCONNECTED);
	if (CHECK(r, "client DISCONNECTED"))
		CHECK(r->status == 0, "status %d", r->status);
	CHECK(rdma_get_state(cli.id) == RDMA_CM_DISCONNECT, "client state %d",
	      rdma_get_state(cli.id));
free:
	side_free(&srv);
	side_free(&cli);
destroy_listen:
	rdma_destroy_id(listen);
out:
	kfree(q);
}

/* ---- a rejected connection ------------------------------------------ */

/*
 * The common opening of the reject and SIDR tests: @listen listens on an
 * ephemeral port of @family, @cli resolves to it and connects with @param.
 * Returns the listener's CONNECT_REQUEST, or NULL after counting a
 * failure (or when either id could not be made: st_id() counted that).
 */
/* @listen listening on a port of @family, @cli resolved to it (@addr). */
static bool st_listen_resolve(struct evq *q, struct rdma_cm_id *listen,
			      struct rdma_cm_id *cli, int family,
			      struct sockaddr_storage *addr)
{
	int ret;

	st_addr(addr, family, 0);
	ret = rdma_bind_addr(listen, (struct sockaddr *)addr);
	ret = ret ?: rdma_listen(listen, 1);
	if (!CHECK(!ret, "listen: %d", ret))
		return false;
	st_addr(addr, family, st_port(listen));
	return st_resolve(q, cli, addr);
}

static struct rec *st_request(struct evq *q, struct rdma_cm_id *listen,
			      struct rdma_cm_id *cli, int family,
			      struct rdma_conn_param *param)
{
	struct sockaddr_storage addr;
	struct rec *r;
	int ret;

	if (!listen || !cli || !st_listen_resolve(q, listen, cli, family, &addr))
		return NULL;
	ret = rdma_connect(cli, param);
	if (!CHECK(!ret, "rdma_connect (%s): %d",
		   listen->qp_type == IB_QPT_UD ? "SIDR" : "RC", ret))
		return NULL;
	r = evq_wait(q, NULL, RDMA_CM_EVENT_CONNECT_REQUEST);
	if (!CHECK(r, "%sCONNECT_REQUEST",
		   listen->qp_type == IB_QPT_UD ? "UD " : "")) {
		st_dump(q);
		return NULL;
	}
	return r;
}

/* Drops what st_request()'s callers made; either id may be NULL. */
static void st_put_pair(struct evq *q, struct rdma_cm_id *listen,
			struct rdma_cm_id *cli)
{
	if (cli)
		rdma_destroy_id(cli);
	if (listen)
		rdma_destroy_id(listen);
	kfree(q);
}

/*
 * The helpers a kernel consumer reads a REJECTED event with, on the event
 * as the handler saw it (@r's copy of its status and private data): a
 * consumer's reject, its data; any other reason, none.
 */
static void st_reject_reads(struct rdma_cm_id *cli, struct rec *r,
			    const char *why, size_t why_len)
{
	struct rdma_cm_event ev = {
		.event = RDMA_CM_EVENT_REJECTED,
		.status = r->status,
		.param.conn.private_data = r->pdata,
		.param.conn.private_data_len = IB_CM_REJ_PRIVATE_DATA_SIZE,
	};
	const char *msg = rdma_reject_msg(cli, r->status);
	const void *data;
	u8 len = 0xff;

	CHECK(rdma_is_consumer_reject(cli, r->status),
	      "rdma_is_consumer_reject(%d)", r->status);
	data = rdma_consumer_reject_data(cli, &ev, &len);
	CHECK(data == r->pdata && len == IB_CM_REJ_PRIVATE_DATA_SIZE &&
	      !memcmp(data, why, why_len),
	      "rdma_consumer_reject_data: the REJ's data, len %u", len);
	CHECK(msg && !strcmp(msg, "consumer defined"), "rdma_reject_msg: %s",
	      msg ? msg : "(null)");
	ev.status = IB_CM_REJ_INVALID_SERVICE_ID;
	len = 0xff;
	CHECK(!rdma_is_consumer_reject(cli, ev.status) &&
	      !rdma_consumer_reject_data(cli, &ev, &len) && !len,
	      "reason %d: not a consumer's reject, no data (len %u)",
	      ev.status, len);
}

static void st_reject(void)
{
	static const char why[] = "not today";
	struct rdma_cm_id *listen, *cli;
	struct rdma_conn_param param = {
		.private_data = cli_pdata,
		.private_data_len = 8,
		.qp_num = 0x77,
		.retry_count = 7,
	};
	struct evq *q = kmalloc(sizeof(*q), GFP_KERNEL);
	struct rec *r;
	int ret;

	if (!CHECK(q, "alloc"))
		return;
	evq_init(q);
	listen = st_id(q, RDMA_PS_TCP, IB_QPT_RC);
	cli = st_id(q, RDMA_PS_TCP, IB_QPT_RC);
	r = st_request(q, listen, cli, AF_INET, &param);
	if (!r)
		goto out;
	ret = rdma_reject(r->id, why, sizeof(why), 28);
	CHECK(!ret, "rdma_reject: %d", ret);
	rdma_destroy_id(r->id);
	r = evq_wait(q, cli, RDMA_CM_EVENT_REJECTED);
	if (CHECK(r, "REJECTED")) {
		CHECK(r->status == 28, "reason %d (consumer defined)",
		      r->status);
		CHECK(!memcmp(r->pdata, why, sizeof(why)),
		      "the REJ's private data");
		st_reject_reads(cli, r, why, sizeof(why));
	} else {
		st_dump(q);
	}
out:
	st_put_pair(q, listen, cli);
}

/* ---- a connect whose REQ QP1 flushes --------------------------------- */

/*
 * rdma_connect() whose REQ the MAD layer flushes (ib_mad/flush_sends, as
 * a QP1 in error would): UNREACHABLE with -ETIMEDOUT (what in-tree gives
 * for a failed REQ) at once, well before the REQ's 4 s response timeout,
 * instead of no event ever (ib_cm used to take a flush for a cancel); the
 * listener never hears of it.  A second connect, from a fresh id, does
 * reach the listener: nothing is left broken.
 */
static void st_flushed_connect(void)
{
	struct rdma_conn_param param = {
		.private_data = cli_pdata,
		.private_data_len = 8,
		.qp_num = 0x78,
		.retry_count = 7,
	};
	struct evq *q = kmalloc(sizeof(*q), GFP_KERNEL);
	struct rdma_cm_id *listen, *cli, *cli2 = NULL;
	struct sockaddr_storage addr;
	unsigned long start;
	struct rec *r;
	int ret;

	if (!CHECK(q, "alloc"))
		return;
	evq_init(q);
	listen = st_id(q, RDMA_PS_TCP, IB_QPT_RC);
	cli = st_id(q, RDMA_PS_TCP, IB_QPT_RC);
	if (!listen || !cli ||
	    !st_listen_resolve(q, listen, cli, AF_INET, &addr))
		goto out;
	ret = kst_debugfs_write("ib_mad/flush_sends", "1");
	if (!CHECK(!ret, "arm ib_mad/flush_sends: %d", ret))
		goto out;
	start = jiffies;
	ret = rdma_connect(cli, &param);
	if (!CHECK(!ret, "rdma_connect: %d", ret))
		goto disarm;
	r = evq_wait(q, cli, RDMA_CM_EVENT_UNREACHABLE);
	if (!CHECK(r, "UNREACHABLE for a flushed REQ within %d s",
		   WAIT_MS / 1000)) {
		st_dump(q);
		goto disarm;
	}
	pr_info("cma_selftest: flushed REQ: %s (%d) after %u ms\n",
		rdma_event_msg(r->event), r->status,
		jiffies_to_msecs(jiffies - start));
	CHECK(r->status == -ETIMEDOUT, "status %d", r->status);
	CHECK(time_before(jiffies, start + 4 * HZ), "at once: %u ms",
	      jiffies_to_msecs(jiffies - start));
	CHECK(!evq_wait_ms(q, NULL, RDMA_CM_EVENT_CONNECT_REQUEST, 0),
	      "the flushed REQ reached the listener");

	cli2 = st_id(q, RDMA_PS_TCP, IB_QPT_RC);
	if (!cli2 || !st_resolve(q, cli2, &addr))
		goto disarm;
	ret = rdma_connect(cli2, &param);
	CHECK(!ret, "second rdma_connect: %d", ret);
	r = evq_wait(q, NULL, RDMA_CM_EVENT_CONNECT_REQUEST);
	if (CHECK(r, "the second REQ reached the listener"))
		rdma_destroy_id(r->id);
disarm:
	kst_debugfs_write("ib_mad/flush_sends", "0");
out:
	if (cli2)
		rdma_destroy_id(cli2);
	st_put_pair(q, listen, cli);
}

/* ---- UDP port space: SIDR ------------------------------------------- */

static void st_udp(int family)
{
	static const char hi[] = "sidr";
	struct rdma_cm_id *listen, *cli;
	struct rdma_conn_param param = {
		.private_data = hi,
		.private_data_len = sizeof(hi),
	};
	struct evq *q = kmalloc(sizeof(*q), GFP_KERNEL);
	struct rec *r;
	int ret;

	if (!CHECK(q, "alloc"))
		return;
	evq_init(q);
	listen = st_id(q, RDMA_PS_UDP, IB_QPT_UD);
	cli = st_id(q, RDMA_PS_UDP, IB_QPT_UD);
	r = st_request(q, listen, cli, family, &param);
	if (!r)
		goto out;
	CHECK(!memcmp(r->pdata, hi, sizeof(hi)), "SIDR_REQ private data");
	memset(&param, 0, sizeof(param));
	param.qp_num = 0x1234;
	ret = rdma_accept(r->id, &param);
	CHECK(!ret, "rdma_accept (SIDR_REP): %d", ret);
	rdma_destroy_id(r->id);
	r = evq_wait(q, cli, RDMA_CM_EVENT_ESTABLISHED);
	if (CHECK(r, "UD ESTABLISHED")) {
		CHECK(r->qp_num == 0x1234, "remote QPN %x", r->qp_num);
		CHECK(r->qkey == RDMA_UDP_QKEY, "qkey %x", r->qkey);
	} else {
		st_dump(q);
	}
out:
	st_put_pair(q, listen, cli);
}

/* ---- binding rules --------------------------------------------------- */

static void st_bind(void)
{
	struct rdma_cm_id *a, *b, *c;
	struct sockaddr_storage addr;
	struct evq *q = kmalloc(sizeof(*q), GFP_KERNEL);
	int ret;

	if (!CHECK(q, "alloc"))
		return;
	evq_init(q);
	a = st_id(q, RDMA_PS_TCP, IB_QPT_RC);
	b = st_id(q, RDMA_PS_TCP, IB_QPT_RC);
	c = st_id(q, RDMA_PS_UDP, IB_QPT_UD);
	if (!a || !b || !c)
		goto out;
	st_addr(&addr, AF_INET, 0);
	ret = rdma_bind_addr(a, (struct sockaddr *)&addr);
	CHECK(!ret, "bind 10.0.2.15:0: %d", ret);
	CHECK(a->device != NULL, "a specific address attaches a device");
	st_addr(&addr, AF_INET, st_port(a));
	ret = rdma_bind_addr(b, (struct sockaddr *)&addr);
	CHECK(ret == -EADDRINUSE, "same address and port: %d", ret);
	ret = rdma_bind_addr(c, (struct sockaddr *)&addr);
	CHECK(!ret, "same port, other port space: %d", ret);
	ret = rdma_bind_addr(a, (struct sockaddr *)&addr);
	CHECK(ret == -EINVAL, "bind twice: %d", ret);
	rdma_destroy_id(b);
	b = st_id(q, RDMA_PS_TCP, IB_QPT_RC);
	if (b) {
		struct sockaddr_in any = { .sin_family = AF_INET,
					   .sin_port = htons(st_port(a)) };

		ret = rdma_bind_addr(b, (struct sockaddr *)&any);
		CHECK(ret == -EADDRNOTAVAIL, "wildcard on a used port: %d",
		      ret);
	}
	/* REUSEADDR on both: the same address and port twice. */
	rdma_destroy_id(a);
	rdma_destroy_id(b);
	a = st_id(q, RDMA_PS_TCP, IB_QPT_RC);
	b = st_id(q, RDMA_PS_TCP, IB_QPT_RC);
	if (!a || !b)
		goto out;
	CHECK(!rdma_set_reuseaddr(a, 1) && !rdma_set_reuseaddr(b, 1),
	      "set REUSEADDR");
	st_addr(&addr, AF_INET, 0);
	ret = rdma_bind_addr(a, (struct sockaddr *)&addr);
	CHECK(!ret, "bind with REUSEADDR: %d", ret);
	st_addr(&addr, AF_INET, st_port(a));
	ret = rdma_bind_addr(b, (struct sockaddr *)&addr);
	CHECK(!ret, "second bind with REUSEADDR: %d", ret);
	ret = rdma_listen(a, 1);
	CHECK(ret == -EADDRINUSE, "listen on a shared port: %d", ret);
	rdma_destroy_id(b);
	b = NULL;
	ret = rdma_listen(a, 1);
	CHECK(!ret, "listen once alone on the port: %d", ret);
	CHECK(rdma_set_reuseaddr(a, 1) == -EINVAL, "no REUSEADDR on a listener");
	CHECK(rdma_set_afonly(a, 1) == -EINVAL, "no AFONLY on a listener");
	/* The loopback address is a wildcard, as in-tree (libfabric binds
	 * to 127.0.0.1 to probe): a port, no device. */
	rdma_destroy_id(c);
	c = st_id(q, RDMA_PS_TCP, IB_QPT_RC);
	if (c) {
		struct sockaddr_in lo = { .sin_family = AF_INET,
			.sin_addr.s_addr = htonl(INADDR_LOOPBACK) };

		ret = rdma_bind_addr(c, (struct sockaddr *)&lo);
		CHECK(!ret, "bind 127.0.0.1: %d", ret);
		CHECK(!c->device, "127.0.0.1 attaches no device");
		CHECK(st_port(c) != 0, "127.0.0.1 gets a port");
	}
out:
	if (a)
		rdma_destroy_id(a);
	if (b)
		rdma_destroy_id(b);
	if (c)
		rdma_destroy_id(c);
	kfree(q);
}

/* ---- ids held for the removal tests -------------------------------- */

static struct {
	struct evq *q;
	struct rdma_cm_id *listen, *bound;
	struct side cli, srv;
	atomic_t addr_change, removal;
} held;

static void side_free_verbs(struct side *s)
{
	if (s->id && s->id->qp)
		rdma_destroy_qp(s->id);
	if (s->cq)
		ib_free_cq(s->cq);
	s->cq = NULL;
	if (s->pd)
		ib_dealloc_pd(s->pd);
	s->pd = NULL;
}

static int held_handler(struct rdma_cm_id *id, struct rdma_cm_event *ev)
{
	if (ev->event == RDMA_CM_EVENT_ADDR_CHANGE) {
		atomic_inc(&held.addr_change);
		pr_info("cma_selftest: hold: ADDR_CHANGE on %s\n",
			id == held.bound ? "the bound id" : "another id");
	}
	if (ev->event == RDMA_CM_EVENT_DEVICE_REMOVAL) {
		atomic_inc(&held.removal);
		if (id == held.cli.id)
			side_free_verbs(&held.cli);
		if (id == held.srv.id)
			side_free_verbs(&held.srv);
	}
	return st_handler(id, ev);
}

static void st_hold(void)
{
	struct rdma_conn_param param = { .retry_count = 7,
					 .rnr_retry_count = 7 };
	struct sockaddr_in any = { .sin_family = AF_INET };
	struct sockaddr_storage addr;
	struct evq *q;
	struct rec *r;
	int ret;

	q = kmalloc(sizeof(*q), GFP_KERNEL);
	if (!CHECK(q, "alloc"))
		return;
	evq_init(q);
	held.q = q;
	held.listen = rdma_create_id(&init_net, held_handler, q, RDMA_PS_TCP,
				     IB_QPT_RC);
	held.bound = rdma_create_id(&init_net, held_handler, q, RDMA_PS_UDP,
				    IB_QPT_UD);
	held.cli.id = rdma_create_id(&init_net, held_handler, q, RDMA_PS_TCP,
				     IB_QPT_RC);
	if (!CHECK(!IS_ERR(held.listen) && !IS_ERR(held.bound) &&
		   !IS_ERR(held.cli.id), "hold: ids")) {
		memset(&held, 0, sizeof(held));
		return;
	}
	ret = rdma_bind_addr(held.listen, (struct sockaddr *)&any);
	CHECK(!ret, "hold: bind the wildcard: %d", ret);
	ret = rdma_listen(held.listen, 8);
	CHECK(!ret, "hold: wildcard listen: %d", ret);
	CHECK(!held.listen->device, "a wildcard listener has no device");
	st_addr(&addr, AF_INET6, 0);
	ret = rdma_bind_addr(held.bound, (struct sockaddr *)&addr);
	CHECK(!ret, "hold: bind fd00::15: %d", ret);

	/* A connection through the wildcard listener's per-device child. */
	st_addr(&addr, AF_INET, st_port(held.listen));
	if (!st_resolve(q, held.cli.id, &addr) || !side_qp(&held.cli))
		return;
	ret = rdma_connect(held.cli.id, &param);
	if (!CHECK(!ret, "hold: connect: %d", ret))
		return;
	r = evq_wait(q, NULL, RDMA_CM_EVENT_CONNECT_REQUEST);
	if (!CHECK(r, "hold: CONNECT_REQUEST through the wildcard")) {
		st_dump(q);
		return;
	}
	held.srv.id = r->id;
	if (!side_qp(&held.srv))
		return;
	ret = rdma_accept(held.srv.id, &param);
	CHECK(!ret, "hold: accept: %d", ret);
	CHECK(evq_wait(q, held.cli.id, RDMA_CM_EVENT_ESTABLISHED),
	      "hold: client ESTABLISHED");
	CHECK(evq_wait(q, held.srv.id, RDMA_CM_EVENT_ESTABLISHED),
	      "hold: server ESTABLISHED");
}

static void st_unhold(void)
{
	if (!held.q)
		return;
	pr_info("cma_selftest: hold: %d addr_change, %d device_removal\n",
		atomic_read(&held.addr_change), atomic_read(&held.removal));
	side_free(&held.srv);
	side_free(&held.cli);
	if (held.bound)
		rdma_destroy_id(held.bound);
	if (held.listen)
		rdma_destroy_id(held.listen);
	kfree(held.q);
}

static int __init cma_selftest_init(void)
{
	struct ib_device *dev = ib_device_get_by_name("rxe0");
	int base = -1;

	if (dev) {
		base = atomic_read(&dev->res_count[IB_RES_CM_ID]);
		ib_device_put(dev);
	}
	CHECK(dev, "rxe0 exists");
	st_resolution(AF_INET);
	st_resolution(AF_INET6);
	st_bind();
	st_connect(AF_INET);
	st_connect(AF_INET6);
	st_reject();
	st_flushed_connect();
	st_udp(AF_INET);
	st_udp(AF_INET6);
	dev = ib_device_get_by_name("rxe0");
	if (dev) {
		CHECK(atomic_read(&dev->res_count[IB_RES_CM_ID]) == base,
		      "cm_id count %d back to %d",
		      atomic_read(&dev->res_count[IB_RES_CM_ID]), base);
		ib_device_put(dev);
	}
	if (hold)
		st_hold();
	kst_report();
	if (kst_failed)
		st_unhold();
	return kst_failed ? -EINVAL : 0;
}

static void __exit cma_selftest_exit(void)
{
	st_unhold();
}

module_init(cma_selftest_init);
module_exit(cma_selftest_exit);

MODULE_DESCRIPTION("rdma_cm selftest");
MODULE_LICENSE("Dual BSD/GPL");
