// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * In-kernel selftest of ib_cm, run once at insmod on port 1 of the
 * device named by "device" (rxe0).  Both ends live here and talk through
 * the port's own IPv4 RoCEv2 GID, so every CM MAD loops through rxe's
 * GSI QP:
 *
 *   connect:    A --REQ--> listen(SID) spawns B; B --REP--> A --RTU--> B,
 *               private data checked each way; two RC QPs moved to RTS
 *               with ib_cm_init_qp_attr(), then sends both ways, byte-exact
 *   disconnect: A --DREQ--> B --DREP--> A; both TIMEWAIT, then IDLE
 *   reject:     REQ to an unknown SID -> REJ "invalid service ID";
 *               REQ answered by ib_send_cm_rej() -> consumer REJ + data
 *   SIDR:       SIDR_REQ -> listen -> SIDR_REP (QPN, Q_Key, data);
 *               SIDR_REQ to an unknown SID -> status UNSUPPORTED
 *   flushed:    a REQ the MAD layer flushes (debugfs ib_mad/flush_sends)
 *               -> REQ_ERROR at once, not silence
 *
 * With pause_send=1 it runs none of that: it sends one SIDR_REQ from a
 * work item held at the test-only pause point ib_test_pause/cm_make_buf
 * (while the CM makes the buffer on the port's MAD agent), drops its own
 * references to the device and returns, so that tests/guest/removal_pause.sh
 * can delete the device under the held sender; unloading waits for the
 * sender and prints "cm_selftest: pause_send: SIDR_REQ returned E".
 *
 * Handlers only log events; the test thread waits for them.  The result
 * is one line, "cm_selftest: N passed, M failed".  The guest script
 * checks the sysfs counters around it.
 */
#include <linux/delay.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/wait.h>
#include <net/ipv6.h>
#include <ordma/ib_cm.h>
#include <ordma/ib_core.h>
#include <ordma/test_pause.h>

#include "kselftest.h"

#define ST_SID		cpu_to_be64(0x0000000001060000ULL | 4791)
#define ST_SID_NONE	cpu_to_be64(0x0000000001060000ULL | 4792)
#define ST_SID_SIDR	cpu_to_be64(0x0000000001110000ULL | 4791)
#define ST_WAIT		(20 * HZ)	/* QEMU/TCG is slow */
#define ST_NEVENTS	64
#define ST_MSG		4096

static char *device = "rxe0";
module_param(device, charp, 0444);
MODULE_PARM_DESC(device, "RDMA device to test on (port 1)");
static bool pause_send;
module_param(pause_send, bool, 0444);
MODULE_PARM_DESC(pause_send, "only send a SIDR_REQ held at a pause point");

struct st_event {
	struct ib_cm_id *id;
	struct ib_cm_event ev;		/* pointers in it are not kept */
	u8 pdata[IB_CM_RTU_PRIVATE_DATA_SIZE];
	bool taken;
};

static struct {
	struct ib_device *dev;
	const struct ib_gid_attr *gid;
	struct ib_cm_path path;
	struct ib_pd *pd;
	struct ib_cq *cq_a, *cq_b;
	struct ib_qp *qp_a, *qp_b;
	u8 *buf_a, *buf_b;

	spinlock_t lock;
	wait_queue_head_t wq;
	struct st_event events[ST_NEVENTS];
	int nevents;
} st;


static const int st_pdata_len[] = {
	[IB_CM_REQ_RECEIVED] = IB_CM_REQ_PRIVATE_DATA_SIZE,
	[IB_CM_REP_RECEIVED] = IB_CM_REP_PRIVATE_DATA_SIZE,
	[IB_CM_RTU_RECEIVED] = IB_CM_RTU_PRIVATE_DATA_SIZE,
	[IB_CM_DREQ_RECEIVED] = IB_CM_DREQ_PRIVATE_DATA_SIZE,
	[IB_CM_DREP_RECEIVED] = IB_CM_DREP_PRIVATE_DATA_SIZE,
	[IB_CM_MRA_RECEIVED] = IB_CM_MRA_PRIVATE_DATA_SIZE,
	[IB_CM_REJ_RECEIVED] = IB_CM_REJ_PRIVATE_DATA_SIZE,
	[IB_CM_SIDR_REQ_RECEIVED] = IB_CM_SIDR_REQ_PRIVATE_DATA_SIZE,
	[IB_CM_SIDR_REP_RECEIVED] = IB_CM_SIDR_REP_PRIVATE_DATA_SIZE,
};

static int st_handler(struct ib_cm_id *id, const struct ib_cm_event *ev)
{
	struct st_event *e;

	spin_lock(&st.lock);
	if (st.nevents == ST_NEVENTS) {
		spin_unlock(&st.lock);
		pr_err("cm_selftest: event log full\n");
		return 0;
	}
	e = &st.events[st.nevents++];
	e->id = id;
	e->ev = *ev;
	if (ev->private_data && ev->event < ARRAY_SIZE(st_pdata_len))
		memcpy(e->pdata, ev->private_data, st_pdata_len[ev->event]);
	spin_unlock(&st.lock);
	wake_up(&st.wq);
	return 0;
}

/* The first untaken event of @type for @id (any id if NULL). */
static struct st_event *st_find(struct ib_cm_id *id,
				enum ib_cm_event_type type)
{
	struct st_event *found = NULL;
	int i;

	spin_lock(&st.lock);
	for (i = 0; i < st.nevents; i++) {
		struct st_event *e = &st.events[i];

		if (!e->taken && e->ev.event == type && e->id &&
		    (!id || e->id == id)) {
			e->taken = true;
			found = e;
			break;
		}
	}
	spin_unlock(&st.lock);
	return found;
}

static struct st_event *st_wait(struct ib_cm_id *id,
				enum ib_cm_event_type type)
{
	struct st_event *e = NULL;

	wait_event_timeout(st.wq, (e = st_find(id, type)) != NULL, ST_WAIT);
	if (!e)
		pr_err("cm_selftest: no event %d for %p\n", type, id);
	return e;
}

static void st_fill(u8 *p, size_t n, u8 seed)
{
	size_t i;

	for (i = 0; i < n; i++)
		p[i] = (u8)(seed + i * 13);
}

static bool st_same(const u8 *p, size_t n, u8 seed)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (p[i] != (u8)(seed + i * 13))
			return false;
	return true;
}

/* Our own IPv4 RoCEv2 GID on port 1, kept referenced for the paths. */
static int st_find_self(void)
{
	const struct ib_gid_attr *attr = kst_find_roce_v4_gid(st.dev, 1);

	if (!attr)
		return -ENOENT;
	st.gid = attr;
	memset(&st.path, 0, sizeof(st.path));
	st.path.sgid = attr->gid;
	st.path.dgid = attr->gid;
	st.path.sgid_attr = attr;
	st.path.hop_limit = 64;
	st.path.mtu = IB_MTU_1024;
	st.path.packet_life_time = 14;
	st.path.pkey = 0xffff;
	return 0;
}

static int st_setup_verbs(void)
{
	struct ib_qp_init_attr ia = {
		.cap = { .max_send_wr = 8, .max_recv_wr = 8,
			 .max_send_sge = 1, .max_recv_sge = 1 },
		.sq_sig_type = IB_SIGNAL_ALL_WR,
		.qp_type = IB_QPT_RC,
	};

	st.pd = ib_alloc_pd(st.dev, 0);
	if (IS_ERR(st.pd))
		return PTR_ERR(st.pd);
	st.cq_a = ib_alloc_cq(st.dev, NULL, 16, 0, IB_POLL_DIRECT);
	if (IS_ERR(st.cq_a))
		return PTR_ERR(st.cq_a);
	st.cq_b = ib_alloc_cq(st.dev, NULL, 16, 0, IB_POLL_DIRECT);
	if (IS_ERR(st.cq_b))
		return PTR_ERR(st.cq_b);
	ia.send_cq = ia.recv_cq = st.cq_a;
	st.qp_a = ib_create_qp(st.pd, &ia);
	if (IS_ERR(st.qp_a))
		return PTR_ERR(st.qp_a);
	ia.send_cq = ia.recv_cq = st.cq_b;
	st.qp_b = ib_create_qp(st.pd, &ia);
	if (IS_ERR(st.qp_b))
		return PTR_ERR(st.qp_b);
	st.buf_a = kzalloc(ST_MSG, GFP_KERNEL);
	st.buf_b = kzalloc(ST_MSG, GFP_KERNEL);
	return st.buf_a && st.buf_b ? 0 : -ENOMEM;
}

static void st_teardown_verbs(void)
{
	if (!IS_ERR_OR_NULL(st.qp_a))
		ib_destroy_qp(st.qp_a);
	if (!IS_ERR_OR_NULL(st.qp_b))
		ib_destroy_qp(st.qp_b);
	if (!IS_ERR_OR_NULL(st.cq_a))
		ib_free_cq(st.cq_a);
	if (!IS_ERR_OR_NULL(st.cq_b))
		ib_free_cq(st.cq_b);
	if (!IS_ERR_OR_NULL(st.pd))
		ib_dealloc_pd(st.pd);
	kfree(st.buf_a);
	kfree(st.buf_b);
}

/*
 * INIT, RTR, RTS of @qp as @id's connection says.  The passive side does
 * it before its REP, as rdma_cm does: the CM then picks its receive PSN.
 */
static int st_qp_to_rts(struct ib_cm_id *id, struct ib_qp *qp)
{
	static const enum ib_qp_state states[] = {
		IB_QPS_INIT, IB_QPS_RTR, IB_QPS_RTS
	};
	struct ib_qp_attr attr;
	int i, mask, ret;

	for (i = 0; i < ARRAY_SIZE(states); i++) {
		memset(&attr, 0, sizeof(attr));
		attr.qp_state = states[i];
		ret = ib_cm_init_qp_attr(id, &attr, &mask);
		if (ret)
			return ret;
		if (states[i] == IB_QPS_INIT)
			attr.qp_access_flags |= IB_ACCESS_LOCAL_WRITE;
		ret = ib_modify_qp(qp, &attr, mask);
		if (ret) {
			pr_err("cm_selftest: modify to %d: %d\n", states[i],
			       ret);
			return ret;
		}
	}
	return 0;
}

static int st_poll_one(struct ib_cq *cq, struct ib_wc *wc)
{
	return kst_poll_cq(cq, wc, 20000) == 1 ? 0 : -ETIMEDOUT;
}

/* Send ST_MSG bytes from @src's QP to @dst's, check what arrived. */
static void st_transfer(struct ib_qp *sq, struct ib_cq *scq, u8 *sbuf,
			struct ib_qp *rq, struct ib_cq *rcq, u8 *rbuf, u8 seed)
{
	struct ib_sge ssge = {
		.addr = ib_dma_map_single(st.dev, sbuf, ST_MSG, DMA_TO_DEVICE),
		.length = ST_MSG, .lkey = st.pd->local_dma_lkey,
	};
	struct ib_sge rsge = {
		.addr = ib_dma_map_single(st.dev, rbuf, ST_MSG,
					  DMA_FROM_DEVICE),
		.length = ST_MSG, .lkey = st.pd->local_dma_lkey,
	};
	struct ib_recv_wr rwr = { .wr_id = 1, .sg_list = &rsge, .num_sge = 1 };
	struct ib_send_wr swr = { .wr_id = 2, .sg_list = &ssge, .num_sge = 1,
				  .opcode = IB_WR_SEND,
				  .send_flags = IB_SEND_SIGNALED };
	const struct ib_recv_wr *bad_rwr;
	const struct ib_send_wr *bad_swr;
	struct ib_wc wc;

	st_fill(sbuf, ST_MSG, seed);
	memset(rbuf, 0, ST_MSG);
	ST_CHECK(ib_post_recv(rq, &rwr, &bad_rwr) == 0);
	ST_CHECK(ib_post_send(sq, &swr, &bad_swr) == 0);
	ST_CHECK(st_poll_one(scq, &wc) == 0);
	ST_CHECK(wc.status == IB_WC_SUCCESS && wc.wr_id == 2);
	ST_CHECK(st_poll_one(rcq, &wc) == 0);
	ST_CHECK(wc.status == IB_WC_SUCCESS && wc.wr_id == 1);
	ST_CHECK(wc.byte_len == ST_MSG);
	ST_CHECK(st_same(rbuf, ST_MSG, seed));
}

static void st_req_param(struct ib_cm_req_param *p, __be64 sid,
			 const u8 *pdata)
{
	memset(p, 0, sizeof(*p));
	p->primary_path = &st.path;
	p->service_id = sid;
	p->qp_num = st.qp_a->qp_num;
	p->qp_type = IB_QPT_RC;
	p->starting_psn = 0x111111;
	p->private_data = pdata;
	p->private_data_len = IB_CM_REQ_PRIVATE_DATA_SIZE;
	p->responder_resources = 1;
	p->initiator_depth = 1;
	p->remote_cm_response_timeout = 20;	/* 4 s: TCG is slow */
	p->local_cm_response_timeout = 20;
	p->retry_count = 7;
	p->rnr_retry_count = 7;
	p->max_cm_retries = 3;
}

/*
 * A listener on @sid and an active id, both on st_handler.  False (one
 * failed check) when either cannot be made; whatever was made is freed.
 * The listen itself is one more check, as every test wants it to work.
 */
static bool st_listen_pair(struct ib_cm_id **listen, struct ib_cm_id **a,
			   __be64 sid)
{
	*listen = ib_create_cm_id(st.dev, st_handler, NULL);
	*a = ib_create_cm_id(st.dev, st_handler, NULL);
	if (IS_ERR(*listen) || IS_ERR(*a)) {
		ST_CHECK(!"create cm ids");
		if (!IS_ERR(*listen))
			ib_destroy_cm_id(*listen);
		if (!IS_ERR(*a))
			ib_destroy_cm_id(*a);
		return false;
	}
	ST_CHECK(ib_cm_listen(*listen, sid) == 0);
	return true;
}

static void test_connect_transfer_disconnect(void)
{
	struct ib_cm_id *listen, *a, *b = NULL;
	struct ib_cm_req_param req;
	struct ib_cm_rep_param rep = {};
	struct ib_qp_attr qa;
	struct ib_qp_init_attr qia;
	struct st_event *e;
	u8 pdata[IB_CM_RTU_PRIVATE_DATA_SIZE];
	u32 rep_psn = 0;

	if (!st_listen_pair(&listen, &a, ST_SID))
		return;
	ST_CHECK(listen->state == IB_CM_LISTEN);

	st_fill(pdata, sizeof(pdata), 1);
	st_req_param(&req, ST_SID, pdata);
	ST_CHECK(ib_send_cm_req(a, &req) == 0);

	/* passive: REQ with the active side's private data */
	e = st_wait(NULL, IB_CM_REQ_RECEIVED);
	ST_CHECK(e);
	if (!e)
		goto out;
	b = e->id;
	ST_CHECK(b != listen && b != a);
	ST_CHECK(e->ev.param.req_rcvd.listen_id == listen);
	ST_CHECK(e->ev.param.req_rcvd.remote_qpn == st.qp_a->qp_num);
	ST_CHECK(e->ev.param.req_rcvd.starting_psn == 0x111111);
	ST_CHECK(e->ev.param.req_rcvd.port == 1);
	ST_CHECK(e->ev.param.req_rcvd.qp_type == IB_QPT_RC);
	ST_CHECK(st_same(e->pdata, IB_CM_REQ_PRIVATE_DATA_SIZE, 1));
	ST_CHECK(b->state == IB_CM_REQ_RCVD);
	ST_CHECK(b->remote_id == a->local_id);
	ST_CHECK(st_qp_to_rts(b, st.qp_b) == 0);

	st_fill(pdata, sizeof(pdata), 2);
	rep.qp_num = st.qp_b->qp_num;
	rep.starting_psn = 0x222222;
	rep.private_data = pdata;
	rep.private_data_len = IB_CM_REP_PRIVATE_DATA_SIZE;
	rep.responder_resources = 1;
	rep.initiator_depth = 1;
	rep.rnr_retry_count = 7;
	ST_CHECK(ib_send_cm_rep(b, &rep) == 0);
	ST_CHECK(b->state == IB_CM_REP_SENT);

	/* active: REP with the passive side's private data, then RTU */
	e = st_wait(a, IB_CM_REP_RECEIVED);
	ST_CHECK(e);
	if (!e)
		goto out;
	ST_CHECK(e->ev.param.rep_rcvd.remote_qpn == st.qp_b->qp_num);
	rep_psn = e->ev.param.rep_rcvd.starting_psn;	/* B's choice */
	ST_CHECK(st_same(e->pdata, IB_CM_REP_PRIVATE_DATA_SIZE, 2));
	ST_CHECK(a->state == IB_CM_REP_RCVD);
	ST_CHECK(a->remote_id == b->local_id);
	ST_CHECK(st_qp_to_rts(a, st.qp_a) == 0);
	st_fill(pdata, sizeof(pdata), 3);
	ST_CHECK(ib_send_cm_rtu(a, pdata, IB_CM_RTU_PRIVATE_DATA_SIZE) == 0);
	ST_CHECK(a->state == IB_CM_ESTABLISHED);

	e = st_wait(b, IB_CM_RTU_RECEIVED);
	ST_CHECK(e && st_same(e->pdata, IB_CM_RTU_PRIVATE_DATA_SIZE, 3));
	ST_CHECK(b->state == IB_CM_ESTABLISHED);

	/* the QPs as the CM set them up: each other's QPN, matching PSNs */
	memset(&qa, 0, sizeof(qa));
	ST_CHECK(ib_query_qp(st.qp_a, &qa, IB_QP_STATE | IB_QP_DEST_QPN |
			     IB_QP_SQ_PSN | IB_QP_RQ_PSN, &qia) == 0);
	ST_CHECK(qa.qp_state == IB_QPS_RTS);
	ST_CHECK(qa.dest_qp_num == st.qp_b->qp_num);
	ST_CHECK(qa.sq_psn == rep_psn && qa.rq_psn == 0x111111);
	memset(&qa, 0, sizeof(qa));
	ST_CHECK(ib_query_qp(st.qp_b, &qa, IB_QP_STATE | IB_QP_DEST_QPN |
			     IB_QP_SQ_PSN | IB_QP_RQ_PSN, &qia) == 0);
	ST_CHECK(qa.qp_state == IB_QPS_RTS);
	ST_CHECK(qa.dest_qp_num == st.qp_a->qp_num);
	ST_CHECK(qa.sq_psn == 0x111111 && qa.rq_psn == rep_psn);

	st_transfer(st.qp_a, st.cq_a, st.buf_a, st.qp_b, st.cq_b, st.buf_b,
		    0x42);
	st_transfer(st.qp_b, st.cq_b, st.buf_b, st.qp_a, st.cq_a, st.buf_a,
		    0x99);

	/* DREQ / DREP with private data, then timewait to IDLE */
	st_fill(pdata, sizeof(pdata), 4);
	ST_CHECK(ib_send_cm_dreq(a, pdata, IB_CM_DREQ_PRIVATE_DATA_SIZE) == 0);
	ST_CHECK(a->state == IB_CM_DREQ_SENT);
	e = st_wait(b, IB_CM_DREQ_RECEIVED);
	ST_CHECK(e && st_same(e->pdata, IB_CM_DREQ_PRIVATE_DATA_SIZE, 4));
	ST_CHECK(b->state == IB_CM_DREQ_RCVD);
	st_fill(pdata, sizeof(pdata), 5);
	ST_CHECK(ib_send_cm_drep(b, pdata, IB_CM_DREP_PRIVATE_DATA_SIZE) == 0);
	e = st_wait(a, IB_CM_DREP_RECEIVED);
	ST_CHECK(e && st_same(e->pdata, IB_CM_DREP_PRIVATE_DATA_SIZE, 5));
	ST_CHECK(st_wait(a, IB_CM_TIMEWAIT_EXIT) != NULL);
	ST_CHECK(st_wait(b, IB_CM_TIMEWAIT_EXIT) != NULL);
	ST_CHECK(a->state == IB_CM_IDLE && b->state == IB_CM_IDLE);
out:
	if (b)
		ib_destroy_cm_id(b);
	ib_destroy_cm_id(a);
	ib_destroy_cm_id(listen);
}

static void test_reject(void)
{
	struct ib_cm_id *listen, *a, *a2, *b;
	struct ib_cm_req_param req;
	struct st_event *e;
	u8 pdata[IB_CM_REJ_PRIVATE_DATA_SIZE];

	/* nobody listens: the CM itself says "invalid service ID" */
	a = ib_create_cm_id(st.dev, st_handler, NULL);
	if (IS_ERR(a)) {
		ST_CHECK(!"create cm id");
		return;
	}
	st_fill(pdata, sizeof(pdata), 6);
	st_req_param(&req, ST_SID_NONE, pdata);
	ST_CHECK(ib_send_cm_req(a, &req) == 0);
	e = st_wait(a, IB_CM_REJ_RECEIVED);
	ST_CHECK(e && e->ev.param.rej_rcvd.reason ==
		      IB_CM_REJ_INVALID_SERVICE_ID);
	ST_CHECK(a->state == IB_CM_IDLE);
	ib_destroy_cm_id(a);

	/* the listener's consumer rejects, with private data */
	if (!st_listen_pair(&listen, &a2, ST_SID))
		return;
	ST_CHECK(ib_cm_listen(a2, ST_SID) != 0);	/* taken */
	st_req_param(&req, ST_SID, pdata);
	ST_CHECK(ib_send_cm_req(a2, &req) == 0);
	e = st_wait(NULL, IB_CM_REQ_RECEIVED);
	ST_CHECK(e);
	if (e) {
		b = e->id;
		st_fill(pdata, sizeof(pdata), 7);
		ST_CHECK(ib_send_cm_rej(b, IB_CM_REJ_CONSUMER_DEFINED, NULL, 0,
					pdata, IB_CM_REJ_PRIVATE_DATA_SIZE) ==
			 0);
		e = st_wait(a2, IB_CM_REJ_RECEIVED);
		ST_CHECK(e && e->ev.param.rej_rcvd.reason ==
			      IB_CM_REJ_CONSUMER_DEFINED);
		ST_CHECK(e && st_same(e->pdata, IB_CM_REJ_PRIVATE_DATA_SIZE,
				      7));
		ib_destroy_cm_id(b);
	}
	ST_CHECK(!strcmp(ibcm_reject_msg(IB_CM_REJ_INVALID_SERVICE_ID),
			 "invalid service ID"));
	ib_destroy_cm_id(a2);
	ib_destroy_cm_id(listen);
}

static void test_sidr(void)
{
	struct ib_cm_sidr_req_param req = {};
	struct ib_cm_sidr_rep_param rep = {};
	struct ib_cm_id *listen, *a, *b;
	struct st_event *e;
	u8 pdata[IB_CM_SIDR_REQ_PRIVATE_DATA_SIZE];

	if (!st_listen_pair(&listen, &a, ST_SID_SIDR))
		return;
	st_fill(pdata, sizeof(pdata), 8);
	req.path = &st.path;
	req.service_id = ST_SID_SIDR;
	req.timeout_ms = 2000;
	req.private_data = pdata;
	req.private_data_len = IB_CM_SIDR_REQ_PRIVATE_DATA_SIZE;
	req.max_cm_retries = 3;
	ST_CHECK(ib_send_cm_sidr_req(a, &req) == 0);
	ST_CHECK(a->state == IB_CM_SIDR_REQ_SENT);
	e = st_wait(NULL, IB_CM_SIDR_REQ_RECEIVED);
	ST_CHECK(e);
	if (e) {
		b = e->id;
		ST_CHECK(e->ev.param.sidr_req_rcvd.listen_id == listen);
		ST_CHECK(e->ev.param.sidr_req_rcvd.service_id == ST_SID_SIDR);
		ST_CHECK(st_same(e->pdata, IB_CM_SIDR_REQ_PRIVATE_DATA_SIZE,
				 8));
		st_fill(pdata, sizeof(pdata), 9);
		rep.qp_num = 0x123456;
		rep.qkey = 0x01234567;
		rep.status = IB_SIDR_SUCCESS;
		rep.private_data = pdata;
		rep.private_data_len = IB_CM_SIDR_REP_PRIVATE_DATA_SIZE;
		ST_CHECK(ib_send_cm_sidr_rep(b, &rep) == 0);
		e = st_wait(a, IB_CM_SIDR_REP_RECEIVED);
		ST_CHECK(e && e->ev.param.sidr_rep_rcvd.status ==
			      IB_SIDR_SUCCESS);
		ST_CHECK(e && e->ev.param.sidr_rep_rcvd.qpn == 0x123456);
		ST_CHECK(e && e->ev.param.sidr_rep_rcvd.qkey == 0x01234567);
		ST_CHECK(e && st_same(e->pdata,
				      IB_CM_SIDR_REP_PRIVATE_DATA_SIZE, 9));
		ib_destroy_cm_id(b);
	}
	ST_CHECK(a->state == IB_CM_IDLE);

	/* an unknown service: UNSUPPORTED */
	req.service_id = ST_SID_NONE;
	ST_CHECK(ib_send_cm_sidr_req(a, &req) == 0);
	e = st_wait(a, IB_CM_SIDR_REP_RECEIVED);
	ST_CHECK(e && e->ev.param.sidr_rep_rcvd.status ==
		      IB_SIDR_UNSUPPORTED);
	ib_destroy_cm_id(a);
	ib_destroy_cm_id(listen);
}

/* A connecting id destroyed midway: its peer hears a REJ. */
static void test_destroy_sends_rej(void)
{
	struct ib_cm_id *listen, *a;
	struct ib_cm_req_param req;
	struct st_event *e;
	u8 pdata[IB_CM_REQ_PRIVATE_DATA_SIZE] = {};

	if (!st_listen_pair(&listen, &a, ST_SID))
		return;
	st_req_param(&req, ST_SID, pdata);
	ST_CHECK(ib_send_cm_req(a, &req) == 0);
	e = st_wait(NULL, IB_CM_REQ_RECEIVED);
	ST_CHECK(e);
	if (e) {
		ib_destroy_cm_id(e->id);	/* REJ consumer defined */
		e = st_wait(a, IB_CM_REJ_RECEIVED);
		ST_CHECK(e && e->ev.param.rej_rcvd.reason ==
			      IB_CM_REJ_CONSUMER_DEFINED);
	}
	ib_destroy_cm_id(a);
	ib_destroy_cm_id(listen);
}

/*
 * A listener that never answers: the REQ is sent again (max_cm_retries 2,
 * a short response timeout), the passive side sees the repeats as
 * duplicates, and the active side gets REQ_ERROR (cm_selftest.sh checks
 * cm_tx_retries/req and cm_rx_duplicates/req moved).
 */
static void test_req_retries(void)
{
	struct ib_cm_id *listen, *a;
	struct ib_cm_req_param req;
	struct st_event *e, *b;
	u8 pdata[IB_CM_REQ_PRIVATE_DATA_SIZE] = {};

	if (!st_listen_pair(&listen, &a, ST_SID))
		return;
	st_req_param(&req, ST_SID, pdata);
	req.remote_cm_response_timeout = 12;	/* 16 ms, doubled per try */
	req.max_cm_retries = 2;
	ST_CHECK(ib_send_cm_req(a, &req) == 0);
	b = st_wait(NULL, IB_CM_REQ_RECEIVED);
	ST_CHECK(b);
	e = st_wait(a, IB_CM_REQ_ERROR);
	ST_CHECK(e && e->ev.param.send_status == IB_WC_RESP_TIMEOUT_ERR);
	ST_CHECK(a->state == IB_CM_IDLE);
	ST_CHECK(!st_find(NULL, IB_CM_REQ_RECEIVED));	/* no second REQ event */
	if (b)
		ib_destroy_cm_id(b->id);
	ib_destroy_cm_id(a);
	ib_destroy_cm_id(listen);
}

/*
 * A second REQ from a QP the CM already has a connection attempt with,
 * under another communication ID: rejected as a stale connection.
 */
static void test_stale_conn(void)
{
	struct ib_cm_id *listen, *a, *a2;
	struct ib_cm_req_param req;
	struct st_event *e, *b;
	u8 pdata[IB_CM_REQ_PRIVATE_DATA_SIZE] = {};

	if (!st_listen_pair(&listen, &a, ST_SID))
		return;
	a2 = ib_create_cm_id(st.dev, st_handler, NULL);
	if (IS_ERR(a2)) {
		ST_CHECK(!"create cm id");
		a2 = NULL;
		goto out;
	}
	st_req_param(&req, ST_SID, pdata);
	ST_CHECK(ib_send_cm_req(a, &req) == 0);
	b = st_wait(NULL, IB_CM_REQ_RECEIVED);
	ST_CHECK(b);
	ST_CHECK(ib_send_cm_req(a2, &req) == 0);	/* the same QP */
	e = st_wait(a2, IB_CM_REJ_RECEIVED);
	ST_CHECK(e && e->ev.param.rej_rcvd.reason == IB_CM_REJ_STALE_CONN);
	ST_CHECK(!st_find(NULL, IB_CM_REQ_RECEIVED));	/* not delivered */
	if (b)
		ib_destroy_cm_id(b->id);
	ib_destroy_cm_id(a2);
out:
	ib_destroy_cm_id(a);
	ib_destroy_cm_id(listen);
}

/*
 * A REQ that QP1 flushes (ib_mad/flush_sends makes the next send end as
 * a QP1 in error ends it): the active id gets REQ_ERROR with the flush
 * status at once, well before the REQ's 4 s response timeout, and is
 * IDLE, instead of staying in REQ_SENT with no event (a flush used to be
 * taken for the CM's own cancel).  The REQ never reached the listener;
 * the next one, from a fresh id, does.
 */
static void test_req_flushed(void)
{
	struct ib_cm_id *listen, *a, *a2;
	struct ib_cm_req_param req;
	struct st_event *e, *b;
	unsigned long start;
	u8 pdata[IB_CM_REQ_PRIVATE_DATA_SIZE] = {};
	int ret;

	if (!st_listen_pair(&listen, &a, ST_SID))
		return;
	st_req_param(&req, ST_SID, pdata);
	ret = kst_debugfs_write("ib_mad/flush_sends", "1");
	if (!CHECK(ret == 0, "cannot arm ib_mad/flush_sends: %d", ret))
		goto out;
	start = jiffies;
	ST_CHECK(ib_send_cm_req(a, &req) == 0);
	e = st_wait(a, IB_CM_REQ_ERROR);
	if (!CHECK(e, "no REQ_ERROR for a flushed REQ in %d s, state %d",
		   ST_WAIT / HZ, a->state))
		goto out;
	pr_info("cm_selftest: flushed REQ: REQ_ERROR status %d after %u ms\n",
		e->ev.param.send_status, jiffies_to_msecs(jiffies - start));
	ST_CHECK(e->ev.param.send_status == IB_WC_WR_FLUSH_ERR);
	ST_CHECK(time_before(jiffies, start + 4 * HZ));
	ST_CHECK(a->state == IB_CM_IDLE);
	ST_CHECK(!st_find(NULL, IB_CM_REQ_RECEIVED));

	a2 = ib_create_cm_id(st.dev, st_handler, NULL);
	if (IS_ERR(a2)) {
		ST_CHECK(!"create cm id");
		goto out;
	}
	ST_CHECK(ib_send_cm_req(a2, &req) == 0);
	b = st_wait(NULL, IB_CM_REQ_RECEIVED);
	ST_CHECK(b);
	if (b)
		ib_destroy_cm_id(b->id);	/* REJ to a2 */
	ST_CHECK(st_wait(a2, IB_CM_REJ_RECEIVED));
	ib_destroy_cm_id(a2);
out:
	kst_debugfs_write("ib_mad/flush_sends", "0");
	ib_destroy_cm_id(a);
	ib_destroy_cm_id(listen);
}

/* ---- a sender held while the device goes (pause_send=1) ------------ */

static struct {
	struct ib_cm_id *id;
	struct ib_cm_sidr_req_param req;
	struct work_struct work;
	int ret;
} held;

static int held_handler(struct ib_cm_id *id, const struct ib_cm_event *ev)
{
	return 0;
}

static void held_send(struct work_struct *work)
{
	held.ret = ib_send_cm_sidr_req(held.id, &held.req);
}

/*
 * Start the held sender; on return the CM holds its own GID entry and we
 * hold no reference to the device, so only the sender's step can keep
 * the device's removal from finishing.
 */
static void start_held_send(void)
{
	held.id = ib_create_cm_id(st.dev, held_handler, NULL);
	if (IS_ERR(held.id)) {
		KST_FAIL("ib_create_cm_id: %ld", PTR_ERR(held.id));
		held.id = NULL;
		return;
	}
	held.req.path = &st.path;
	held.req.service_id = ST_SID_SIDR;
	held.req.timeout_ms = 2000;
	held.req.max_cm_retries = 1;
	INIT_WORK(&held.work, held_send);
	atomic_set(&ib_test_pause_armed[IB_TEST_PAUSE_CM_MAKE_BUF], 1);
	queue_work(system_unbound_wq, &held.work);
	CHECK(ib_test_pause_wait_paused(IB_TEST_PAUSE_CM_MAKE_BUF, 20000),
	      "the SIDR_REQ never reached ib_test_pause/cm_make_buf");
}

static void stop_held_send(void)
{
	if (!held.id)
		return;
	flush_work(&held.work);
	pr_info("cm_selftest: pause_send: SIDR_REQ returned %d\n", held.ret);
	ib_destroy_cm_id(held.id);
}

static int __init cm_selftest_init(void)
{
	spin_lock_init(&st.lock);
	init_waitqueue_head(&st.wq);

	st.dev = kst_get_device(device);
	if (!st.dev)
		goto out;
	if (st_find_self()) {
		KST_FAIL("%s has no IPv4 RoCEv2 GID", device);
		goto put;
	}
	if (pause_send) {
		start_held_send();
		goto gid;
	}
	if (st_setup_verbs()) {
		KST_FAIL("cannot set up QPs");
		goto verbs;
	}
	test_connect_transfer_disconnect();
	test_reject();
	test_sidr();
	test_destroy_sends_rej();
	test_req_retries();
	test_stale_conn();
	test_req_flushed();
verbs:
	st_teardown_verbs();
gid:
	rdma_put_gid_attr(st.gid);
put:
	ib_device_put(st.dev);
out:
	kst_report();
	return 0;
}

static void __exit cm_selftest_exit(void)
{
	stop_held_send();
}

module_init(cm_selftest_init);
module_exit(cm_selftest_exit);

MODULE_DESCRIPTION("Selftest of the out-of-tree ib_cm");
MODULE_LICENSE("Dual BSD/GPL");
