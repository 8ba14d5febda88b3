// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Modify QP / resize SRQ under the engine's feet.
 *
 *   modify_probe GID_INDEX stale|selfloop|srq_resize
 *
 * stale: an RC QP that the engine moved to ERR (an RDMA WRITE with a bad
 *   rkey: the peer NAKs it) is asked for RESET with IB_QP_CUR_STATE naming
 *   the state it had (RTS).  That modify must fail with EINVAL and change
 *   nothing: the QP stays in ERR and work posted afterwards is flushed
 *   within a second.  A plain RESET, INIT, RTR, RTS then makes it work.
 *   Prints "modify_stale ret=E state=S send=S again=A".
 *
 * selfloop: an RC QP connected to itself posts a long RDMA READ and
 *   WRITEs behind it, then is destroyed at once: the WRITE requests wait
 *   in its own receive queue (behind the read the responder streams) and
 *   each holds a reference on the sender, the QP being destroyed.  The
 *   destroy must return (run in a child, 20 s at most).
 *   Prints "selfloop_destroy returned" or "selfloop_destroy hung state=X".
 *
 * srq_resize: a resize of SRQ 1 whose answer (the new ring's mminfo) goes
 *   to a page that a userfaultfd holds for 3 s, and meanwhile a resize of
 *   SRQ 2 by librxe: that one must not wait for the first.  Receives
 *   posted on SRQ 2 before and after its resize then take 8 messages in
 *   order.  Prints "srq_resize other=fast|blocked first=E data=OK|BAD".
 */
#include <infiniband/verbs.h>
#include "probe.h"
#include "rc_loop.h"
#include <rdma/ib_user_verbs.h>
#include <rdma/rdma_user_rxe.h>
#include <linux/userfaultfd.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static struct ibv_context *ctx;
static struct ibv_pd *pd;
static union ibv_gid gid;
static int sgid;

static void die(const char *what)
{
	fprintf(stderr, "modify_probe: %s failed (%s)\n", what,
		strerror(errno));
	exit(1);
}

static void open_dev(void)
{
	int ndev;
	struct ibv_device **devs = ibv_get_device_list(&ndev);

	if (!devs || ndev < 1 || !(ctx = ibv_open_device(devs[0])))
		die("open device");
	if (ibv_query_gid(ctx, 1, sgid, &gid))
		die("query gid");
	pd = ibv_alloc_pd(ctx);
	if (!pd)
		die("alloc pd");
}

static struct ibv_qp *rc_qp(struct ibv_cq *cq, struct ibv_srq *srq)
{
	struct ibv_qp_init_attr qa = {
		.send_cq = cq, .recv_cq = cq, .srq = srq,
		.qp_type = IBV_QPT_RC,
		.cap = { .max_send_wr = 64, .max_recv_wr = 64,
			 .max_send_sge = 1, .max_recv_sge = 1 },
	};
	struct ibv_qp *qp = ibv_create_qp(pd, &qa);

	if (!qp)
		die("create qp");
	return qp;
}

static enum ibv_qp_state qp_state(struct ibv_qp *qp)
{
	struct ibv_qp_attr a;
	struct ibv_qp_init_attr ia;

	if (ibv_query_qp(qp, &a, IBV_QP_STATE, &ia))
		die("query qp");
	return a.qp_state;
}

static const char *state_str(enum ibv_qp_state s)
{
	static const char *const names[] = {
		"RESET", "INIT", "RTR", "RTS", "SQD", "SQE", "ERR",
	};

	return s <= IBV_QPS_ERR ? names[s] : "?";
}

static int post_wr(struct ibv_qp *qp, enum ibv_wr_opcode op, uint64_t id,
		   void *buf, uint32_t len, uint32_t lkey,
		   uint64_t raddr, uint32_t rkey, int signaled)
{
	struct ibv_sge sge = {
		.addr = (uintptr_t)buf, .length = len, .lkey = lkey,
	};
	struct ibv_send_wr wr = {
		.wr_id = id, .sg_list = &sge, .num_sge = 1, .opcode = op,
		.send_flags = signaled ? IBV_SEND_SIGNALED : 0,
		.wr.rdma = { .remote_addr = raddr, .rkey = rkey },
	}, *bad;

	return ibv_post_send(qp, &wr, &bad);
}

static int post_recv(struct ibv_qp *qp, uint64_t id, void *buf, uint32_t len,
		     uint32_t lkey)
{
	struct ibv_sge sge = {
		.addr = (uintptr_t)buf, .length = len, .lkey = lkey,
	};
	struct ibv_recv_wr wr = { .wr_id = id, .sg_list = &sge, .num_sge = 1 },
		*bad;

	return ibv_post_recv(qp, &wr, &bad);
}

static const char *wc_word(struct ibv_cq *cq, uint64_t id)
{
	struct ibv_wc wc;

	if (!probe_poll(cq, &wc, 1.0))
		return "none";
	if (wc.wr_id != id)
		return "wrong_wr_id";
	switch (wc.status) {
	case IBV_WC_SUCCESS:
		return "success";
	case IBV_WC_WR_FLUSH_ERR:
		return "flush";
	default:
		return ibv_wc_status_str(wc.status);
	}
}

static const char *errno_str(int e)
{
	switch (e) {
	case 0:
		return "0";
	case EINVAL:
		return "EINVAL";
	case EOPNOTSUPP:
		return "EOPNOTSUPP";
	default:
		return strerror(e);
	}
}

/* ------------------------------------------------------------------ */

static int do_stale(void)
{
	struct ibv_cq *cq = ibv_create_cq(ctx, 64, NULL, NULL, 0);
	struct ibv_qp *a, *b;
	struct ibv_mr *mr;
	struct ibv_qp_attr attr;
	struct ibv_wc wc;
	const char *send, *again = "OK";
	enum ibv_qp_state st;
	char *mem;
	double t0;
	int ret;

	if (!cq)
		die("create cq");
	a = rc_qp(cq, NULL);
	b = rc_qp(cq, NULL);
	if (rc_loop_connect(a, b->qp_num, sgid, &gid) ||
	    rc_loop_connect(b, a->qp_num, sgid, &gid))
		die("connect");
	mem = calloc(1, 8192);
	mr = ibv_reg_mr(pd, mem, 8192, IBV_ACCESS_LOCAL_WRITE |
			IBV_ACCESS_REMOTE_WRITE);
	if (!mem || !mr)
		die("reg mr");

	/* the engine moves A to ERR: B NAKs a write with a bad rkey */
	if (post_wr(a, IBV_WR_RDMA_WRITE, 1, mem, 64, mr->lkey,
		    (uintptr_t)mem + 4096, mr->rkey ^ 0x5a5a00, 1))
		die("post the bad write");
	if (!probe_poll(cq, &wc, 10.0) || wc.wr_id != 1 ||
	    wc.status == IBV_WC_SUCCESS)
		die("the bad write's error completion");
	for (t0 = probe_now(); qp_state(a) != IBV_QPS_ERR && probe_now() - t0 < 2;)
		;

	memset(&attr, 0, sizeof(attr));
	attr.qp_state = IBV_QPS_RESET;
	attr.cur_qp_state = IBV_QPS_RTS;	/* stale: it is ERR now */
	ret = ibv_modify_qp(a, &attr, IBV_QP_STATE | IBV_QP_CUR_STATE);
	st = qp_state(a);

	/*
	 * Nothing may be stopped: new work is flushed at once.  (A send:
	 * librxe rings no doorbell for a receive, so a receive posted in
	 * ERR waits for the next kick of the responder on either stack.)
	 */
	if (post_wr(a, IBV_WR_SEND, 3, mem, 64, mr->lkey, 0, 0, 1))
		send = "post_failed";
	else
		send = wc_word(cq, 3);

	/* and the normal way back works */
	memset(&attr, 0, sizeof(attr));
	attr.qp_state = IBV_QPS_RESET;
	if (ibv_modify_qp(a, &attr, IBV_QP_STATE) ||
	    ibv_modify_qp(b, &attr, IBV_QP_STATE) ||
	    rc_loop_connect(a, b->qp_num, sgid, &gid) ||
	    rc_loop_connect(b, a->qp_num, sgid, &gid)) {
		again = "reconnect_failed";
	} else {
		while (ibv_poll_cq(cq, 1, &wc) > 0)
			;	/* B's flushed work, if the NAK stopped it */
		memset(mem + 4096, 0, 64);
		memset(mem, 'M', 64);
		if (post_recv(b, 4, mem + 4096, 64, mr->lkey) ||
		    post_wr(a, IBV_WR_SEND, 5, mem, 64, mr->lkey, 0, 0, 1))
			again = "post_failed";
		else if (!probe_poll(cq, &wc, 10.0) ||
			 wc.status != IBV_WC_SUCCESS ||
			 !probe_poll(cq, &wc, 10.0) ||
			 wc.status != IBV_WC_SUCCESS || mem[4096] != 'M')
			again = "traffic_failed";
	}
	printf("modify_stale ret=%s state=%s send=%s again=%s\n",
	       errno_str(ret), state_str(st), send, again);
	return 0;
}

/* ------------------------------------------------------------------ */

#define LOOP_READ	(64u << 20)
#define LOOP_WRITES	16

/* The device is opened here: nothing verbs is shared with the parent. */
static void selfloop_child(void)
{
	struct ibv_cq *cq;
	struct ibv_qp *q;
	struct ibv_mr *mr;
	char *mem;
	int i;

	open_dev();
	cq = ibv_create_cq(ctx, 64, NULL, NULL, 0);
	if (!cq)
		die("create cq");
	q = rc_qp(cq, NULL);
	if (rc_loop_connect(q, q->qp_num, sgid, &gid))
		die("connect to itself");
	mem = mmap(NULL, 2 * (size_t)LOOP_READ, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	if (mem == MAP_FAILED)
		die("mmap");
	mr = ibv_reg_mr(pd, mem, 2 * (size_t)LOOP_READ,
			IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |
			IBV_ACCESS_REMOTE_READ);
	if (!mr)
		die("reg mr");
	/* the responder streams this one for a while ... */
	if (post_wr(q, IBV_WR_RDMA_READ, 1, mem, LOOP_READ, mr->lkey,
		    (uintptr_t)mem + LOOP_READ, mr->rkey, 1))
		die("post the read");
	/* ... while these wait behind it in its receive queue */
	for (i = 0; i < LOOP_WRITES; i++)
		if (post_wr(q, IBV_WR_RDMA_WRITE, 2 + i, mem + LOOP_READ, 4096,
			    mr->lkey, (uintptr_t)mem + 4096 * i, mr->rkey, 0))
			die("post a write");
	if (ibv_destroy_qp(q))
		die("destroy qp");
	exit(0);
}

static int do_selfloop(void)
{
	char path[64], buf[512], *p;
	pid_t pid;
	FILE *f;
	int i, status;

	fflush(stdout);
	pid = fork();
	if (pid < 0)
		die("fork");
	if (!pid)
		selfloop_child();
	for (i = 0; i < 200; i++) {
		if (waitpid(pid, &status, WNOHANG) == pid) {
			printf("selfloop_destroy %s\n",
			       WIFEXITED(status) && !WEXITSTATUS(status) ?
			       "returned" : "child_failed");
			return 0;
		}
		usleep(100000);
	}
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "r");
	buf[0] = 0;
	if (f) {
		if (!fgets(buf, sizeof(buf), f))
			buf[0] = 0;
		fclose(f);
	}
	p = strrchr(buf, ')');
	printf("selfloop_destroy hung state=%c\n", p && p[1] ? p[2] : '?');
	kill(pid, SIGKILL);
	return 0;
}

/* ------------------------------------------------------------------ */

#define UFFD_HOLD_SECS	3

static long page_size;
static int uffd;

/* Resolves the first fault on the held page, UFFD_HOLD_SECS late. */
/* Receives @first..@last-1 on @srq, wr_id i + 1, 64 bytes each at slot 16 + i. */
static void post_srq_recvs(struct ibv_srq *srq, struct ibv_mr *mr, char *mem,
			   int first, int last)
{
	int i;

	for (i = first; i < last; i++) {
		struct ibv_sge sge = {
			.addr = (uintptr_t)mem + 64 * (16 + i), .length = 64,
			.lkey = mr->lkey,
		};
		struct ibv_recv_wr wr = { .wr_id = 1 + i, .sg_list = &sge,
					  .num_sge = 1 }, *bad;

		if (ibv_post_srq_recv(srq, &wr, &bad))
			die("post srq recv");
	}
}

static void *uffd_thread(void *arg)
{
	struct uffd_msg msg;
	struct uffdio_copy cp;
	struct pollfd pfd = { .fd = uffd, .events = POLLIN };
	char *zero = calloc(1, page_size);

	(void)arg;
	if (poll(&pfd, 1, 20000) != 1 ||
	    read(uffd, &msg, sizeof(msg)) != sizeof(msg) ||
	    msg.event != UFFD_EVENT_PAGEFAULT)
		return NULL;
	sleep(UFFD_HOLD_SECS);
	memset(&cp, 0, sizeof(cp));
	cp.dst = msg.arg.pagefault.address & ~(page_size - 1);
	cp.src = (uintptr_t)zero;
	cp.len = page_size;
	ioctl(uffd, UFFDIO_COPY, &cp);
	return NULL;
}

struct slow_resize {
	struct ibv_srq *srq;
	void *answer;		/* where the kernel writes the mminfo */
	int err;
};

/*
 * librxe's resize, by hand: the same write() command, but with the
 * answer's address ours (a page the userfaultfd holds).
 */
static void *slow_resize_thread(void *arg)
{
	struct slow_resize *r = arg;
	struct {
		struct ib_uverbs_cmd_hdr hdr;
		struct ib_uverbs_modify_srq cmd;
		struct rxe_modify_srq_cmd drv;
	} c;

	memset(&c, 0, sizeof(c));
	c.hdr.command = IB_USER_VERBS_CMD_MODIFY_SRQ;
	c.hdr.in_words = sizeof(c) / 4;
	c.cmd.srq_handle = r->srq->handle;
	c.cmd.attr_mask = IBV_SRQ_MAX_WR;
	c.cmd.max_wr = 64;
	c.drv.mmap_info_addr = (uintptr_t)r->answer;
	r->err = write(ctx->cmd_fd, &c, sizeof(c)) == sizeof(c) ? 0 : errno;
	return NULL;
}

static int do_srq_resize(void)
{
	struct ibv_srq_init_attr sa = { .attr = { .max_wr = 8, .max_sge = 1 } };
	struct ibv_cq *cq = ibv_create_cq(ctx, 64, NULL, NULL, 0);
	struct uffdio_api api = { .api = UFFD_API };
	struct uffdio_register reg;
	struct slow_resize slow;
	struct ibv_srq *srq1, *srq2;
	struct ibv_srq_attr at;
	struct ibv_qp *s, *r;
	struct ibv_mr *mr;
	struct ibv_wc wc;
	pthread_t th_uffd, th_slow;
	const char *data = "OK";
	double t0, other;
	char *held, *mem;
	int i, ret;

	page_size = sysconf(_SC_PAGESIZE);
	srq1 = ibv_create_srq(pd, &sa);
	srq2 = ibv_create_srq(pd, &sa);
	if (!cq || !srq1 || !srq2)
		die("create cq/srqs");
	s = rc_qp(cq, NULL);
	r = rc_qp(cq, srq2);
	if (rc_loop_connect(s, r->qp_num, sgid, &gid) ||
	    rc_loop_connect(r, s->qp_num, sgid, &gid))
		die("connect");
	mem = calloc(1, 64 * 32);
	mr = ibv_reg_mr(pd, mem, 64 * 32, IBV_ACCESS_LOCAL_WRITE);
	if (!mem || !mr)
		die("reg mr");

	uffd = syscall(SYS_userfaultfd, O_CLOEXEC);
	if (uffd < 0 || ioctl(uffd, UFFDIO_API, &api))
		die("userfaultfd");
	held = mmap(NULL, page_size, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (held == MAP_FAILED)
		die("mmap");
	memset(&reg, 0, sizeof(reg));
	reg.range.start = (uintptr_t)held;
	reg.range.len = page_size;
	reg.mode = UFFDIO_REGISTER_MODE_MISSING;
	if (ioctl(uffd, UFFDIO_REGISTER, &reg))
		die("UFFDIO_REGISTER");

	/* receives 1..4 on SRQ 2 before its resize */
	post_srq_recvs(srq2, mr, mem, 0, 4);

	slow.srq = srq1;
	slow.answer = held;
	pthread_create(&th_uffd, NULL, uffd_thread, NULL);
	pthread_create(&th_slow, NULL, slow_resize_thread, &slow);
	usleep(500000);		/* the slow one is in the kernel now */
	t0 = probe_now();
	memset(&at, 0, sizeof(at));
	at.max_wr = 32;
	ret = ibv_modify_srq(srq2, &at, IBV_SRQ_MAX_WR);
	other = probe_now() - t0;
	if (ret)
		die("resize srq 2");
	pthread_join(th_slow, NULL);
	pthread_join(th_uffd, NULL);

	/* receives 5..8 into the new ring, then 8 messages */
	post_srq_recvs(srq2, mr, mem, 4, 8);
	for (i = 0; i < 8; i++) {
		int got_recv = 0, got_send = 0;

		memset(mem + 64 * i, 'a' + i, 64);
		if (post_wr(s, IBV_WR_SEND, 100 + i, mem + 64 * i, 64,
			    mr->lkey, 0, 0, 1))
			die("post send");
		while (!(got_recv && got_send)) {
			if (!probe_poll(cq, &wc, 10.0)) {
				data = "BAD";
				break;
			}
			if (wc.status != IBV_WC_SUCCESS)
				data = "BAD";
			if (wc.wr_id == 100u + i)
				got_send = 1;
			else if (wc.wr_id == 1u + i)
				got_recv = 1;
			else
				data = "BAD";
		}
		if (mem[64 * (16 + i)] != 'a' + i ||
		    mem[64 * (16 + i) + 63] != 'a' + i)
			data = "BAD";
	}
	printf("srq_resize other=%s first=%s data=%s\n",
	       other < 1.5 ? "fast" : "blocked", errno_str(slow.err), data);
	fprintf(stderr, "srq_resize: the other resize took %.3f s\n", other);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr,
			"usage: modify_probe GID_INDEX stale|selfloop|srq_resize\n");
		return 2;
	}
	sgid = atoi(argv[1]);
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!strcmp(argv[2], "selfloop"))
		return do_selfloop();
	open_dev();
	if (!strcmp(argv[2], "stale"))
		return do_stale();
	if (!strcmp(argv[2], "srq_resize"))
		return do_srq_resize();
	fprintf(stderr, "modify_probe: unknown test %s\n", argv[2]);
	return 2;
}
