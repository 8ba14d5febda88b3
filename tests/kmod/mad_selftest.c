// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * In-kernel selftest of the MAD layer, run once at insmod on port 1 of
 * the device named by the "device" parameter (rxe0).  Three agents share
 * the made-up class 0x31 version 1 and talk through the device's own
 * IPv4 RoCEv2 GID, so every MAD loops through rxe and the GSI QP:
 *
 *   client (send-only) --Get-->  server (Get, Set) --GetResp--> client
 *   client --Send--> sink (Send): counted, never answered (timeouts)
 *
 * The flood bounds (issue 19) are driven without a network peer: a
 * "stall" agent whose handler does not return until told fills its
 * request queue, and sends posted with bottom halves off (nothing can
 * complete meanwhile on one CPU) fill the port's send backlog; mad.sh
 * checks the drop counters they leave in debugfs.
 *
 * With in_recovery=1 (mad.sh forces QP1 to ERR first, with the test-only
 * pause point ib_test_pause/mad_recover armed) it checks the backlog's
 * cap while QP1 is held in recovery instead, then the round trip again.
 *
 * The result is one line, "mad_selftest: N passed, M failed"; the module
 * stays loaded until rmmod and does nothing more.
 */
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/workqueue.h>
#include <net/ipv6.h>
#include <ordma/ib_core.h>
#include <ordma/ib_mad.h>
#include <ordma/test_pause.h>

#include "kselftest.h"

#define ST_CLASS		0x31
#define ST_CLASS_VERSION	1
#define ST_ATTR_ID		0x1234
#define ST_ATTR_MOD		0xa5a5f00d
#define ST_WAIT			(20 * HZ)	/* QEMU/TCG is slow */
/* core/mad_priv.h's bounds, as the tests below expect them */
#define ST_SEND_DEPTH		64	/* MAD_QP_SEND_DEPTH */
#define ST_MAX_BACKLOG		256	/* MAD_PORT_MAX_BACKLOG */
#define ST_MAX_QUEUED		1024	/* MAD_AGENT_MAX_QUEUED_REQUESTS */

static char *device = "rxe0";
module_param(device, charp, 0444);
MODULE_PARM_DESC(device, "RDMA device to test on (port 1)");
static bool in_recovery;
module_param(in_recovery, bool, 0444);
MODULE_PARM_DESC(in_recovery, "only the backlog test, QP1 held in recovery");

static struct {
	struct ib_device *dev;
	struct ib_ah_attr self;
	struct ib_mad_agent *client, *server, *sink;
	u8 class_version;	/* of the client's requests */

	/* client */
	struct completion client_recv, client_send;
	struct ib_mad_send_buf *resp_matched;
	struct ib_mad resp;
	bool resp_in_task;
	enum ib_wc_status send_status;
	struct ib_mad_send_buf *send_done_buf;
	atomic_t client_sends_done;
	atomic_t client_sends_ok;
	atomic_t client_sends_general_err;
	atomic_t client_recvs;

	/* server */
	struct completion server_send;
	enum ib_wc_status server_status;
	union ib_gid server_saw_dgid;
	u32 server_saw_src_qp;
	int server_post_ret;

	/* sink */
	atomic_t sink_count;

	/* slow: a handler that sleeps while its agent unregisters */
	atomic_t slow_entered, slow_finished;

	/* stall: its first handler call waits for stall_release */
	atomic_t stall_count;
	struct completion stall_release;
} st;


static u8 st_pattern(unsigned int i)
{
	return (u8)(i * 7 + 3);
}

static void client_send_handler(struct ib_mad_agent *agent,
				struct ib_mad_send_wc *wc)
{
	st.send_status = wc->status;
	st.send_done_buf = wc->send_buf;
	ib_free_send_mad(wc->send_buf);
	if (wc->status == IB_WC_SUCCESS)
		atomic_inc(&st.client_sends_ok);
	else if (wc->status == IB_WC_GENERAL_ERR)
		atomic_inc(&st.client_sends_general_err);
	atomic_inc(&st.client_sends_done);
	complete(&st.client_send);
}

static void client_recv_handler(struct ib_mad_agent *agent,
				struct ib_mad_send_buf *send_buf,
				struct ib_mad_recv_wc *recv_wc)
{
	st.resp_matched = send_buf;
	st.resp = *recv_wc->mad;
	st.resp_in_task = in_task();
	atomic_inc(&st.client_recvs);
	ib_free_recv_mad(recv_wc);
	complete(&st.client_recv);
}

static void server_send_handler(struct ib_mad_agent *agent,
				struct ib_mad_send_wc *wc)
{
	st.server_status = wc->status;
	ib_free_send_mad(wc->send_buf);
	complete(&st.server_send);
}

/* Answer a Get: the same header as GetResp, the payload XOR 0x5a. */
static void server_recv_handler(struct ib_mad_agent *agent,
				struct ib_mad_send_buf *send_buf,
				struct ib_mad_recv_wc *recv_wc)
{
	struct ib_mad_send_buf *resp;
	struct ib_mad *mad;
	int i;

	st.server_saw_dgid = recv_wc->ah_attr.dgid;
	st.server_saw_src_qp = recv_wc->wc->src_qp;
	resp = ib_create_send_mad(agent, recv_wc->wc->src_qp,
				  recv_wc->wc->pkey_index, &recv_wc->ah_attr,
				  GFP_KERNEL);
	if (IS_ERR(resp)) {
		st.server_post_ret = PTR_ERR(resp);
		goto out;
	}
	mad = resp->mad;
	*mad = *recv_wc->mad;
	mad->mad_hdr.method = IB_MGMT_METHOD_GET_RESP;
	for (i = 0; i < IB_MGMT_MAD_DATA; i++)
		mad->data[i] ^= 0x5a;
	resp->timeout_ms = 0;
	st.server_post_ret = ib_post_send_mad(resp);
	if (st.server_post_ret)
		ib_free_send_mad(resp);
out:
	ib_free_recv_mad(recv_wc);
}

static void sink_send_handler(struct ib_mad_agent *agent,
			      struct ib_mad_send_wc *wc)
{
	ib_free_send_mad(wc->send_buf);
}

static void sink_recv_handler(struct ib_mad_agent *agent,
			      struct ib_mad_send_buf *send_buf,
			      struct ib_mad_recv_wc *recv_wc)
{
	atomic_inc(&st.sink_count);
	ib_free_recv_mad(recv_wc);
}

static void slow_recv_handler(struct ib_mad_agent *agent,
			      struct ib_mad_send_buf *send_buf,
			      struct ib_mad_recv_wc *recv_wc)
{
	atomic_inc(&st.slow_entered);
	msleep(500);
	ib_free_recv_mad(recv_wc);
	atomic_inc(&st.slow_finished);
}

static void stall_recv_handler(struct ib_mad_agent *agent,
			       struct ib_mad_send_buf *send_buf,
			       struct ib_mad_recv_wc *recv_wc)
{
	if (atomic_inc_return(&st.stall_count) == 1)
		wait_for_completion_timeout(&st.stall_release, 120 * HZ);
	ib_free_recv_mad(recv_wc);
}

/* A request from the client: class @class, @method, TID low half @lo. */
static struct ib_mad_send_buf *st_request(u8 class, u8 method, u32 lo,
					  int timeout_ms, int retries)
{
	struct ib_mad_send_buf *sb;
	struct ib_mad *mad;
	int i;

	sb = ib_create_send_mad(st.client, IB_QP1, 0, &st.self, GFP_KERNEL);
	if (IS_ERR(sb))
		return sb;
	mad = sb->mad;
	mad->mad_hdr.base_version = IB_MGMT_BASE_VERSION;
	mad->mad_hdr.mgmt_class = class;
	mad->mad_hdr.class_version = st.class_version;
	mad->mad_hdr.method = method;
	mad->mad_hdr.tid = cpu_to_be64((u64)st.client->hi_tid << 32 | lo);
	mad->mad_hdr.attr_id = cpu_to_be16(ST_ATTR_ID);
	mad->mad_hdr.attr_mod = cpu_to_be32(ST_ATTR_MOD);
	for (i = 0; i < IB_MGMT_MAD_DATA; i++)
		mad->data[i] = st_pattern(i);
	sb->timeout_ms = timeout_ms;
	sb->retries = retries;
	return sb;
}

/*
 * A SEND of ours to the sink's class, ready to post; the client's send
 * completion is re-armed for it.  NULL (one failed check) when it cannot
 * be made, so the caller just returns.
 */
static struct ib_mad_send_buf *st_new_send(u32 lo, int timeout_ms,
					   int retries)
{
	struct ib_mad_send_buf *sb;

	reinit_completion(&st.client_send);
	sb = st_request(ST_CLASS, IB_MGMT_METHOD_SEND, lo, timeout_ms, retries);
	if (IS_ERR(sb)) {
		ST_CHECK(!IS_ERR(sb));
		return NULL;
	}
	return sb;
}

/* Up to 4 s for the sink to count a MAD more than @before (TCG is slow). */
static void st_wait_sink(int before)
{
	int i;

	for (i = 0; i < 200 && atomic_read(&st.sink_count) == before; i++)
		msleep(20);
}

/* Our own IPv4 RoCEv2 GID on port 1. */
static int st_find_self(void)
{
	const struct ib_gid_attr *attr = kst_find_roce_v4_gid(st.dev, 1);

	if (!attr)
		return -ENOENT;
	memset(&st.self, 0, sizeof(st.self));
	st.self.dgid = attr->gid;
	st.self.sgid_index = attr->index;
	st.self.hop_limit = 64;
	st.self.is_global = 1;
	st.self.port_num = 1;
	rdma_put_gid_attr(attr);
	return 0;
}

static void test_registration(void)
{
	struct ib_mad_reg_req req = {
		.mgmt_class = ST_CLASS,
		.mgmt_class_version = ST_CLASS_VERSION,
	};
	struct ib_mad_agent *a;

	__set_bit(IB_MGMT_METHOD_GET, req.method_mask);
	__set_bit(IB_MGMT_METHOD_SET, req.method_mask);
	st.server = ib_register_mad_agent(st.dev, 1, &req, server_send_handler,
					  server_recv_handler, NULL);
	ST_CHECK(!IS_ERR(st.server));
	if (IS_ERR(st.server))
		st.server = NULL;

	/* Set is taken: a second claim on it fails, whatever else it asks. */
	bitmap_zero(req.method_mask, IB_MGMT_MAX_METHODS);
	__set_bit(IB_MGMT_METHOD_SET, req.method_mask);
	__set_bit(IB_MGMT_METHOD_SEND, req.method_mask);
	a = ib_register_mad_agent(st.dev, 1, &req, sink_send_handler,
				  sink_recv_handler, NULL);
	ST_CHECK(PTR_ERR_OR_ZERO(a) == -EBUSY);
	if (!IS_ERR(a))
		ib_unregister_mad_agent(a);

	/* Bad port, class 0, no methods, no recv_handler: -EINVAL. */
	a = ib_register_mad_agent(st.dev, 0, NULL, sink_send_handler, NULL,
				  NULL);
	ST_CHECK(PTR_ERR_OR_ZERO(a) == -EINVAL);
	a = ib_register_mad_agent(st.dev, st.dev->phys_port_cnt + 1, NULL,
				  sink_send_handler, NULL, NULL);
	ST_CHECK(PTR_ERR_OR_ZERO(a) == -EINVAL);
	req.mgmt_class = 0;
	a = ib_register_mad_agent(st.dev, 1, &req, sink_send_handler,
				  sink_recv_handler, NULL);
	ST_CHECK(PTR_ERR_OR_ZERO(a) == -EINVAL);
	req.mgmt_class = ST_CLASS;
	a = ib_register_mad_agent(st.dev, 1, &req, sink_send_handler, NULL,
				  NULL);
	ST_CHECK(PTR_ERR_OR_ZERO(a) == -EINVAL);

	/* Send alone is free: the sink takes it. */
	bitmap_zero(req.method_mask, IB_MGMT_MAX_METHODS);
	__set_bit(IB_MGMT_METHOD_SEND, req.method_mask);
	st.sink = ib_register_mad_agent(st.dev, 1, &req, sink_send_handler,
					sink_recv_handler, NULL);
	ST_CHECK(!IS_ERR(st.sink));
	if (IS_ERR(st.sink))
		st.sink = NULL;

	st.client = ib_register_mad_agent(st.dev, 1, NULL, client_send_handler,
					  client_recv_handler, NULL);
	ST_CHECK(!IS_ERR(st.client));
	if (IS_ERR(st.client)) {
		st.client = NULL;
		return;
	}
	ST_CHECK(st.client->hi_tid != 0);
	ST_CHECK(st.client->mgmt_class == 0);
	ST_CHECK(!st.server || st.server->hi_tid != st.client->hi_tid);
	ST_CHECK(!st.server || st.server->mgmt_class == ST_CLASS);
}

static void test_request_response(void)
{
	struct ib_mad_send_buf *sb;
	int i, bad = 0;

	reinit_completion(&st.client_send);
	reinit_completion(&st.client_recv);
	reinit_completion(&st.server_send);
	sb = st_request(ST_CLASS, IB_MGMT_METHOD_GET, 0x1001, 2000, 3);
	ST_CHECK(!IS_ERR(sb));
	if (IS_ERR(sb))
		return;
	ST_CHECK(ib_post_send_mad(sb) == 0);
	ST_CHECK(ib_post_send_mad(sb) == -EBUSY);	/* already posted */

	ST_CHECK(wait_for_completion_timeout(&st.client_recv, ST_WAIT));
	ST_CHECK(wait_for_completion_timeout(&st.client_send, ST_WAIT));
	ST_CHECK(wait_for_completion_timeout(&st.server_send, ST_WAIT));
	ST_CHECK(st.server_post_ret == 0);
	ST_CHECK(st.server_status == IB_WC_SUCCESS);
	ST_CHECK(!memcmp(&st.server_saw_dgid, &st.self.dgid, 16));
	ST_CHECK(st.server_saw_src_qp == IB_QP1);

	ST_CHECK(st.send_status == IB_WC_SUCCESS);
	ST_CHECK(st.send_done_buf == sb);
	ST_CHECK(st.resp_matched == sb);
	ST_CHECK(st.resp_in_task);
	ST_CHECK(st.resp.mad_hdr.base_version == IB_MGMT_BASE_VERSION);
	ST_CHECK(st.resp.mad_hdr.mgmt_class == ST_CLASS);
	ST_CHECK(st.resp.mad_hdr.class_version == ST_CLASS_VERSION);
	ST_CHECK(st.resp.mad_hdr.method == IB_MGMT_METHOD_GET_RESP);
	ST_CHECK(st.resp.mad_hdr.tid ==
		 cpu_to_be64((u64)st.client->hi_tid << 32 | 0x1001));
	ST_CHECK(st.resp.mad_hdr.attr_id == cpu_to_be16(ST_ATTR_ID));
	ST_CHECK(st.resp.mad_hdr.attr_mod == cpu_to_be32(ST_ATTR_MOD));
	for (i = 0; i < IB_MGMT_MAD_DATA; i++)
		bad += st.resp.data[i] != (st_pattern(i) ^ 0x5a);
	ST_CHECK(bad == 0);
	ST_CHECK(atomic_read(&st.client_recvs) == 1);
}

static void test_timeout_with_retries(void)
{
	struct ib_mad_send_buf *sb;
	unsigned long start;
	int before = atomic_read(&st.sink_count);

	sb = st_new_send(0x2001, 300, 2);
	if (!sb)
		return;
	start = jiffies;
	ST_CHECK(ib_post_send_mad(sb) == 0);
	ST_CHECK(wait_for_completion_timeout(&st.client_send, ST_WAIT));
	ST_CHECK(st.send_status == IB_WC_RESP_TIMEOUT_ERR);
	ST_CHECK(st.send_done_buf == sb);
	/* Three timeouts of 300 ms, each after a send completed. */
	ST_CHECK(time_after_eq(jiffies, start + msecs_to_jiffies(900)));
	/* The first send and two retries all reached the sink. */
	ST_CHECK(atomic_read(&st.sink_count) - before == 3);
}

static void test_send_without_response(void)
{
	struct ib_mad_send_buf *sb;
	int before = atomic_read(&st.sink_count);

	sb = st_new_send(0x3001, 0, 0);
	if (!sb)
		return;
	ST_CHECK(ib_post_send_mad(sb) == 0);
	ST_CHECK(wait_for_completion_timeout(&st.client_send, ST_WAIT));
	ST_CHECK(st.send_status == IB_WC_SUCCESS);
	st_wait_sink(before);
	ST_CHECK(atomic_read(&st.sink_count) - before == 1);
}

static void test_cancel(void)
{
	struct ib_mad_send_buf *sb;
	int before = atomic_read(&st.sink_count);

	sb = st_new_send(0x4001, 60000, 0);
	if (!sb)
		return;
	ST_CHECK(ib_post_send_mad(sb) == 0);
	st_wait_sink(before);
	ST_CHECK(ib_modify_mad(sb, 50000) == 0);
	ib_cancel_mad(sb);
	ST_CHECK(wait_for_completion_timeout(&st.client_send, ST_WAIT));
	ST_CHECK(st.send_status == IB_WC_WR_FLUSH_ERR);
}

/* Nobody's: an unregistered class, and a response to no agent's TID. */
static void test_unclaimed(void)
{
	struct ib_mad_send_buf *sb;
	int done = atomic_read(&st.client_sends_done);
	int recvs = atomic_read(&st.client_recvs);

	sb = st_request(ST_CLASS + 1, IB_MGMT_METHOD_GET, 0x5001, 0, 0);
	if (!IS_ERR(sb) && ib_post_send_mad(sb))
		ib_free_send_mad(sb);
	sb = st_request(ST_CLASS, IB_MGMT_METHOD_GET_RESP, 0x5002, 0, 0);
	if (!IS_ERR(sb)) {
		struct ib_mad *mad = sb->mad;

		mad->mad_hdr.tid = cpu_to_be64(0xfffffff0ULL << 32 | 1);
		if (ib_post_send_mad(sb))
			ib_free_send_mad(sb);
	}
	msleep(1000);
	ST_CHECK(atomic_read(&st.client_sends_done) - done == 2);
	ST_CHECK(atomic_read(&st.client_recvs) == recvs);
}

/* A Get nobody takes is answered by the MAD layer with a status. */
static void st_expect_status(u8 class, u8 version, u32 lo, u16 status)
{
	struct ib_mad_send_buf *sb;

	reinit_completion(&st.client_send);
	reinit_completion(&st.client_recv);
	st.class_version = version;
	sb = st_request(class, IB_MGMT_METHOD_GET, lo, 3000, 0);
	st.class_version = ST_CLASS_VERSION;
	if (IS_ERR(sb)) {
		ST_CHECK(!IS_ERR(sb));
		return;
	}
	ST_CHECK(ib_post_send_mad(sb) == 0);
	ST_CHECK(wait_for_completion_timeout(&st.client_recv, ST_WAIT));
	ST_CHECK(wait_for_completion_timeout(&st.client_send, ST_WAIT));
	ST_CHECK(st.send_status == IB_WC_SUCCESS);
	ST_CHECK(st.resp_matched == sb);
	ST_CHECK(st.resp.mad_hdr.method == IB_MGMT_METHOD_GET_RESP);
	ST_CHECK(st.resp.mad_hdr.mgmt_class == class);
	ST_CHECK(st.resp.mad_hdr.class_version == version);
	ST_CHECK(be16_to_cpu(st.resp.mad_hdr.status) == status);
	ST_CHECK(st.resp.data[0] == st_pattern(0));	/* echoed as sent */
}

static void test_unclaimed_answered(void)
{
	/* No agent of class 0x32 at all; 0x31 served at version 1 only. */
	st_expect_status(ST_CLASS + 1, ST_CLASS_VERSION, 0x9001,
			 IB_MGMT_MAD_STATUS_UNSUPPORTED_METHOD_ATTRIB);
	st_expect_status(ST_CLASS, ST_CLASS_VERSION + 8, 0x9002,
			 IB_MGMT_MAD_STATUS_BAD_VERSION);
}

/* More sends at once than the GSI QP's send queue holds: all complete. */
static void test_burst(void)
{
	int ok = atomic_read(&st.client_sends_ok);
	int done = atomic_read(&st.client_sends_done);
	int before = atomic_read(&st.sink_count), i, posted = 0;

	for (i = 0; i < 200; i++) {
		struct ib_mad_send_buf *sb;

		sb = st_request(ST_CLASS, IB_MGMT_METHOD_SEND, 0x7000 + i, 0, 0);
		if (IS_ERR(sb))
			break;
		if (ib_post_send_mad(sb)) {
			ib_free_send_mad(sb);
			break;
		}
		posted++;
	}
	ST_CHECK(posted == 200);
	for (i = 0; i < 1500 &&
	     atomic_read(&st.client_sends_done) - done < posted; i++)
		msleep(20);
	ST_CHECK(atomic_read(&st.client_sends_done) - done == posted);
	ST_CHECK(atomic_read(&st.client_sends_ok) - ok == posted);
	msleep(500);
	/* The receive ring may overflow under a burst; most arrive. */
	ST_CHECK(atomic_read(&st.sink_count) - before > 0);
	ST_CHECK(atomic_read(&st.sink_count) - before <= posted);
	pr_info("mad_selftest: burst of %d sends, %d received\n", posted,
		atomic_read(&st.sink_count) - before);
}

/*
 * Malformed MADs on the wire: from a UD QP of our own (Q_Key 0x80010000,
 * as QP1 wants), one of 100 bytes and one of base version 2.  The MAD
 * layer drops both and counts them (tests/guest/mad.sh reads the counters);
 * no agent sees them.
 */
static int st_raw_send(struct ib_qp *qp, struct ib_cq *cq, struct ib_ah *ah,
		       void *buf, u32 len)
{
	struct ib_sge sge = {
		.addr = ib_dma_map_single(st.dev, buf, len, DMA_TO_DEVICE),
		.length = len,
		.lkey = qp->pd->local_dma_lkey,
	};
	struct ib_ud_wr wr = {
		.wr = {
			.wr_id = 1,
			.sg_list = &sge,
			.num_sge = 1,
			.opcode = IB_WR_SEND,
			.send_flags = IB_SEND_SIGNALED,
		},
		.ah = ah,
		.remote_qpn = IB_QP1,
		.remote_qkey = IB_QP1_QKEY,
	};
	const struct ib_send_wr *bad;
	struct ib_wc wc;
	int ret;

	ret = ib_post_send(qp, &wr.wr, &bad);
	if (ret)
		return ret;
	ret = kst_poll_cq(cq, &wc, 10000);
	if (!ret)
		return -ETIMEDOUT;
	return ret < 0 ? ret : wc.status == IB_WC_SUCCESS ? 0 : -EIO;
}

static void test_malformed_dropped(void)
{
	struct ib_qp_init_attr init = {
		.cap = { .max_send_wr = 4, .max_recv_wr = 1,
			 .max_send_sge = 1, .max_recv_sge = 1 },
		.sq_sig_type = IB_SIGNAL_ALL_WR,
		.qp_type = IB_QPT_UD,
	};
	struct ib_qp_attr attr = {};
	int sinks = atomic_read(&st.sink_count);
	struct ib_ah *ah = NULL;
	struct ib_qp *qp = NULL;
	struct ib_cq *cq;
	struct ib_pd *pd;
	u8 *buf;

	buf = kzalloc(IB_MGMT_MAD_SIZE, GFP_KERNEL);
	ST_CHECK(buf);
	if (!buf)
		return;
	pd = ib_alloc_pd(st.dev, 0);
	ST_CHECK(!IS_ERR(pd));
	if (IS_ERR(pd))
		goto free_buf;
	cq = ib_alloc_cq(st.dev, NULL, 8, 0, IB_POLL_DIRECT);
	ST_CHECK(!IS_ERR(cq));
	if (IS_ERR(cq))
		goto free_pd;
	init.send_cq = cq;
	init.recv_cq = cq;
	qp = ib_create_qp(pd, &init);
	ST_CHECK(!IS_ERR(qp));
	if (IS_ERR(qp))
		goto free_cq;
	attr.qp_state = IB_QPS_INIT;
	attr.pkey_index = 0;
	attr.port_num = 1;
	attr.qkey = IB_QP1_QKEY;
	ST_CHECK(!ib_modify_qp(qp, &attr, IB_QP_STATE | IB_QP_PKEY_INDEX |
					  IB_QP_PORT | IB_QP_QKEY));
	attr.qp_state = IB_QPS_RTR;
	ST_CHECK(!ib_modify_qp(qp, &attr, IB_QP_STATE));
	attr.qp_state = IB_QPS_RTS;
	attr.sq_psn = 0;
	ST_CHECK(!ib_modify_qp(qp, &attr, IB_QP_STATE | IB_QP_SQ_PSN));
	ah = ib_create_ah(pd, &st.self);
	ST_CHECK(!IS_ERR(ah));
	if (IS_ERR(ah))
		goto free_qp;

	/* A sink-bound Send header, first cut short, then of version 2. */
	buf[0] = IB_MGMT_BASE_VERSION;
	buf[1] = ST_CLASS;
	buf[2] = ST_CLASS_VERSION;
	buf[3] = IB_MGMT_METHOD_SEND;
	ST_CHECK(st_raw_send(qp, cq, ah, buf, 100) == 0);
	buf[0] = 2;
	ST_CHECK(st_raw_send(qp, cq, ah, buf, IB_MGMT_MAD_SIZE) == 0);
	msleep(500);
	ST_CHECK(atomic_read(&st.sink_count) == sinks);

	ib_destroy_ah(ah);
free_qp:
	ib_destroy_qp(qp);
free_cq:
	ib_free_cq(cq);
free_pd:
	ib_dealloc_pd(pd);
free_buf:
	kfree(buf);
}

/* Unregistering waits for a handler in progress. */
static void test_unregister_waits_for_handler(void)
{
	struct ib_mad_reg_req req = {
		.mgmt_class = ST_CLASS,
		.mgmt_class_version = ST_CLASS_VERSION + 1,
	};
	struct ib_mad_send_buf *sb;
	struct ib_mad_agent *slow;
	int i;

	__set_bit(IB_MGMT_METHOD_SEND, req.method_mask);
	slow = ib_register_mad_agent(st.dev, 1, &req, sink_send_handler,
				     slow_recv_handler, NULL);
	ST_CHECK(!IS_ERR(slow));
	if (IS_ERR(slow))
		return;
	st.class_version = ST_CLASS_VERSION + 1;
	sb = st_request(ST_CLASS, IB_MGMT_METHOD_SEND, 0x8001, 0, 0);
	st.class_version = ST_CLASS_VERSION;
	if (!IS_ERR(sb) && ib_post_send_mad(sb))
		ib_free_send_mad(sb);
	for (i = 0; i < 500 && !atomic_read(&st.slow_entered); i++)
		msleep(10);
	ST_CHECK(atomic_read(&st.slow_entered) == 1);
	ib_unregister_mad_agent(slow);
	ST_CHECK(atomic_read(&st.slow_finished) == 1);
}

/* Unregisters an agent from a work item and says when it returned. */
struct st_unregister {
	struct work_struct work;
	struct ib_mad_agent *agent;
	struct completion returned;
};

static void st_unregister_fn(struct work_struct *work)
{
	struct st_unregister *u = container_of(work, struct st_unregister,
					       work);

	ib_unregister_mad_agent(u->agent);
	complete(&u->returned);
}

/*
 * A send buffer keeps its agent: while one is unfreed, unregistering
 * (from another thread) does not return, a post on it fails cleanly
 * (the agent is going), and freeing it lets the unregistration finish.
 * If unregistration returns early, the buffer's agent is gone and
 * freeing the buffer would touch freed memory: it is leaked instead.
 */
static void test_unregister_waits_for_buffers(void)
{
	struct st_unregister u = { };
	struct ib_mad_send_buf *sb;
	struct ib_mad_agent *agent;

	agent = ib_register_mad_agent(st.dev, 1, NULL, sink_send_handler,
				      NULL, NULL);
	ST_CHECK(!IS_ERR(agent));
	if (IS_ERR(agent))
		return;
	sb = ib_create_send_mad(agent, IB_QP1, 0, &st.self, GFP_KERNEL);
	ST_CHECK(!IS_ERR(sb));
	if (IS_ERR(sb)) {
		ib_unregister_mad_agent(agent);
		return;
	}
	INIT_WORK_ONSTACK(&u.work, st_unregister_fn);
	u.agent = agent;
	init_completion(&u.returned);
	queue_work(system_unbound_wq, &u.work);

	/* 1 s for an unregistration that should be waiting for @sb. */
	if (!CHECK(!wait_for_completion_timeout(&u.returned, HZ),
		   "unregister returned with a send buffer unfreed")) {
		flush_work(&u.work);
		destroy_work_on_stack(&u.work);
		return;
	}
	ST_CHECK(ib_post_send_mad(sb) == -ESHUTDOWN);
	ib_free_send_mad(sb);
	CHECK(wait_for_completion_timeout(&u.returned, ST_WAIT),
	      "unregister still waiting after its last buffer was freed");
	flush_work(&u.work);
	destroy_work_on_stack(&u.work);
}

/*
 * More sends than the GSI QP's send queue and the port's backlog hold,
 * posted with bottom halves (so preemption too) off: no completion can
 * free a slot meanwhile on this CPU, so ST_SEND_DEPTH go to the QP,
 * ST_MAX_BACKLOG wait, and the rest end at once with IB_WC_GENERAL_ERR
 * (mad.sh: tx_dropped_backlog_full is 80).  Every post returns 0 and
 * every send reaches its send_handler.  (Exact on one CPU, as the lanes
 * run; on more, completions may free slots meanwhile.)
 */
static void test_backlog_cap(void)
{
	enum { N = ST_SEND_DEPTH + ST_MAX_BACKLOG + 80 };
	int done = atomic_read(&st.client_sends_done);
	int failed = atomic_read(&st.client_sends_general_err);
	struct ib_mad_send_buf **sb;
	int i, made, posted = 0;

	sb = kcalloc(N, sizeof(*sb), GFP_KERNEL);
	if (!sb) {
		ST_CHECK(sb);
		return;
	}
	for (made = 0; made < N; made++) {
		sb[made] = st_request(ST_CLASS, IB_MGMT_METHOD_SEND,
				      0xa000 + made, 0, 0);
		if (IS_ERR(sb[made]))
			break;
	}
	ST_CHECK(made == N);
	local_bh_disable();
	for (i = 0; i < made; i++)
		if (!ib_post_send_mad(sb[i]))
			posted++;
	local_bh_enable();
	for (i = posted; i < made; i++)
		ib_free_send_mad(sb[i]);
	kfree(sb);
	ST_CHECK(posted == made);
	for (i = 0; i < 1500 &&
	     atomic_read(&st.client_sends_done) - done < posted; i++)
		msleep(20);
	ST_CHECK(atomic_read(&st.client_sends_done) - done == posted);
	failed = atomic_read(&st.client_sends_general_err) - failed;
	ST_CHECK(failed > 0);
	if (num_online_cpus() == 1)
		ST_CHECK(failed == posted - ST_SEND_DEPTH - ST_MAX_BACKLOG);
	pr_info("mad_selftest: %d sends at once: %d refused by the backlog cap\n",
		posted, failed);
}

/*
 * QP1 is in ERR and its recovery held (ib_test_pause/mad_recover): every
 * send waits on the backlog, nothing drains it.  ST_MAX_BACKLOG + 40
 * sends: 40 end at once with IB_WC_GENERAL_ERR (mad.sh: counted in
 * tx_dropped_backlog_full), no other completes while QP1 is down; once
 * the recovery is let go, the ST_MAX_BACKLOG waiting ones go out.
 */
static void test_backlog_in_recovery(void)
{
	enum { EXTRA = 40, N = ST_MAX_BACKLOG + EXTRA };
	int done = atomic_read(&st.client_sends_done);
	int ok = atomic_read(&st.client_sends_ok);
	int failed = atomic_read(&st.client_sends_general_err);
	struct ib_mad_send_buf *sb;
	int i, posted = 0;

	if (!CHECK(ib_test_pause_wait_paused(IB_TEST_PAUSE_MAD_RECOVER, 20000),
		   "QP1's recovery is not held at ib_test_pause/mad_recover"))
		return;
	for (i = 0; i < N; i++) {
		sb = st_request(ST_CLASS, IB_MGMT_METHOD_SEND, 0xb000 + i, 0, 0);
		if (IS_ERR(sb))
			break;
		if (ib_post_send_mad(sb)) {
			ib_free_send_mad(sb);
			break;
		}
		posted++;
	}
	ST_CHECK(posted == N);
	msleep(500);	/* the refused ones' handlers run from a work */
	CHECK(atomic_read(&st.client_sends_general_err) - failed == EXTRA,
	      "%d refused, not %d",
	      atomic_read(&st.client_sends_general_err) - failed, EXTRA);
	CHECK(atomic_read(&st.client_sends_done) - done == EXTRA,
	      "%d done while QP1 is down, not %d",
	      atomic_read(&st.client_sends_done) - done, EXTRA);
	ST_CHECK(kst_debugfs_write("ib_test_pause/mad_recover", "0") == 0);
	for (i = 0; i < 1500 &&
	     atomic_read(&st.client_sends_done) - done < posted; i++)
		msleep(20);
	CHECK(atomic_read(&st.client_sends_ok) - ok == ST_MAX_BACKLOG,
	      "%d of the backlogged sends went out after the recovery, not %d",
	      atomic_read(&st.client_sends_ok) - ok, ST_MAX_BACKLOG);
	pr_info("mad_selftest: in recovery: %d sends, %d refused, %d sent after\n",
		posted, atomic_read(&st.client_sends_general_err) - failed,
		atomic_read(&st.client_sends_ok) - ok);
}

/*
 * Requests to an agent whose handler does not return: it holds one, and
 * ST_MAX_QUEUED more wait; the rest are dropped (mad.sh: counted in
 * rx_dropped_agent_busy).  1 + ST_MAX_QUEUED + 200 of them, in rounds
 * of 32 (the receive ring is 64 deep, so all of them arrive); once the
 * handler returns, exactly 1 + ST_MAX_QUEUED have reached it.
 */
static void test_request_queue_cap(void)
{
	struct ib_mad_reg_req req = {
		.mgmt_class = ST_CLASS,
		.mgmt_class_version = ST_CLASS_VERSION + 2,
	};
	enum { N = 1 + ST_MAX_QUEUED + 200 };
	struct ib_mad_agent *stall;
	int sent = 0, i, j, last;

	__set_bit(IB_MGMT_METHOD_SEND, req.method_mask);
	init_completion(&st.stall_release);
	stall = ib_register_mad_agent(st.dev, 1, &req, sink_send_handler,
				      stall_recv_handler, NULL);
	ST_CHECK(!IS_ERR(stall));
	if (IS_ERR(stall))
		return;
	while (sent < N) {
		int done = atomic_read(&st.client_sends_done), n = 0;

		st.class_version = ST_CLASS_VERSION + 2;
		for (j = 0; j < 32 && sent < N; j++) {
			struct ib_mad_send_buf *sb;

			sb = st_request(ST_CLASS, IB_MGMT_METHOD_SEND,
					0xb000 + sent, 0, 0);
			if (IS_ERR(sb))
				break;
			if (ib_post_send_mad(sb)) {
				ib_free_send_mad(sb);
				break;
			}
			n++;
			sent++;
		}
		st.class_version = ST_CLASS_VERSION;
		if (!n)
			break;
		for (j = 0; j < 500 &&
		     atomic_read(&st.client_sends_done) - done < n; j++)
			msleep(10);
	}
	ST_CHECK(sent == N);
	msleep(500);	/* the last round's receives */
	ST_CHECK(atomic_read(&st.stall_count) == 1);
	complete(&st.stall_release);
	last = -1;
	for (i = 0; i < 100 && atomic_read(&st.stall_count) != last; i++) {
		last = atomic_read(&st.stall_count);
		msleep(100);
	}
	ST_CHECK(atomic_read(&st.stall_count) == 1 + ST_MAX_QUEUED);
	pr_info("mad_selftest: %d requests to a stalled agent: %d handled\n",
		sent, atomic_read(&st.stall_count));
	ib_unregister_mad_agent(stall);
}

/* Unregistering with a send waiting: its handler runs before it returns. */
static void test_unregister_flushes(void)
{
	struct ib_mad_send_buf *sb;
	int before = atomic_read(&st.sink_count);

	sb = st_new_send(0x6001, 60000, 5);
	if (!sb)
		return;
	ST_CHECK(ib_post_send_mad(sb) == 0);
	st_wait_sink(before);
	ib_unregister_mad_agent(st.client);
	st.client = NULL;
	ST_CHECK(completion_done(&st.client_send));
	ST_CHECK(st.send_status == IB_WC_WR_FLUSH_ERR);
}

static int __init mad_selftest_init(void)
{
	init_completion(&st.client_recv);
	init_completion(&st.client_send);
	init_completion(&st.server_send);
	st.class_version = ST_CLASS_VERSION;

	st.dev = kst_get_device(device);
	if (!st.dev)
		goto out;
	if (st_find_self()) {
		KST_FAIL("%s has no IPv4 RoCEv2 GID", device);
		goto put;
	}
	test_registration();
	if (st.client && st.server && st.sink && in_recovery) {
		test_backlog_in_recovery();
		test_request_response();
	} else if (st.client && st.server && st.sink) {
		test_request_response();
		test_timeout_with_retries();
		test_send_without_response();
		test_cancel();
		test_unclaimed();
		test_unclaimed_answered();
		test_burst();
		test_malformed_dropped();
		test_backlog_cap();
		test_request_queue_cap();
		test_unregister_waits_for_handler();
		test_unregister_waits_for_buffers();
		test_unregister_flushes();
	}
	if (st.client)
		ib_unregister_mad_agent(st.client);
	if (st.server)
		ib_unregister_mad_agent(st.server);
	if (st.sink)
		ib_unregister_mad_agent(st.sink);
put:
	ib_device_put(st.dev);
out:
	kst_report();
	return 0;
}

static void __exit mad_selftest_exit(void)
{
}

module_init(mad_selftest_init);
module_exit(mad_selftest_exit);

MODULE_DESCRIPTION("Selftest of the out-of-tree MAD layer");
MODULE_LICENSE("Dual BSD/GPL");
