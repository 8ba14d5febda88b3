// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Probes of the CQ and MR verbs for tests/guest/cq_mr.sh.  Each prints one
 * line per check, "NAME RESULT" (RESULT an errno name, OK, or a value), so
 * that the script compares them with what the stock stack prints; exit
 * status 0 unless the probe could not run at all.
 *
 *   cq_mr_probe errnos DEV       errnos of bad MR/CQ/MW/PD requests
 *   cq_mr_probe write DEV        CQ verbs as raw write() commands, the
 *                                shared ring's header through mmap()
 *   cq_mr_probe ioctl DEV        CQ/MR/MW methods as raw ioctl()s, bad
 *                                attributes among them
 *   cq_mr_probe pin DEV KB       register KB of memory, print VmPin/VmLck
 *                                while it is registered and after
 *   cq_mr_probe rereg DEV        REREG_MR: access, translation, PD
 *   cq_mr_probe churn DEV N      N rounds of create/destroy of every object,
 *                                then leaves a set behind for close()
 *   cq_mr_probe events DEV       (ours) completions posted through
 *                                debugfs: ring, arming, overflow, resize
 *   cq_mr_probe mmap DEV         (ours) mmap() corner cases of a CQ ring:
 *                                private, exec, fork, split, mremap,
 *                                MADV_DONTNEED, use after destroy, and
 *                                garbage indices written by userspace
 *   cq_mr_probe revoke DEV       (ours) map a CQ, say "ready", wait for a
 *                                line on stdin (the device is removed
 *                                meanwhile), then touch the mapping
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>
#include <infiniband/verbs.h>
#include <rdma/ib_user_ioctl_cmds.h>
#include <rdma/ib_user_verbs.h>
#include <rdma/rdma_user_ioctl_cmds.h>
#include <rdma/rdma_user_rxe.h>

static const char *dev_name;

static const char *res(int err)
{
	return err ? strerrorname_np(err) : "OK";
}

static void say(const char *name, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void say(const char *name, const char *fmt, ...)
{
	va_list ap;

	printf("%s ", name);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
}

static struct ibv_context *open_dev(void)
{
	struct ibv_device **list, *dev = NULL;
	struct ibv_context *ctx;
	int i, n;

	list = ibv_get_device_list(&n);
	for (i = 0; list && i < n; i++)
		if (!strcmp(ibv_get_device_name(list[i]), dev_name))
			dev = list[i];
	if (!dev) {
		printf("no device %s\n", dev_name);
		exit(1);
	}
	ctx = ibv_open_device(dev);
	if (!ctx) {
		printf("open_device %s\n", res(errno));
		exit(1);
	}
	ibv_free_device_list(list);
	return ctx;
}

static void *pages(size_t len, int prot)
{
	void *p = mmap(NULL, len, prot, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) {
		perror("mmap");
		exit(1);
	}
	return p;
}

/* errno of ibv_reg_mr(), or OK (then deregistered) */
static const char *try_reg(struct ibv_pd *pd, void *addr, size_t len,
			   int access)
{
	struct ibv_mr *mr = ibv_reg_mr(pd, addr, len, access);

	if (!mr)
		return res(errno);
	return res(ibv_dereg_mr(mr));
}

static const char *try_cq(struct ibv_context *ctx, int cqe, int vec)
{
	struct ibv_cq *cq = ibv_create_cq(ctx, cqe, NULL, NULL, vec);

	if (!cq)
		return res(errno);
	return res(ibv_destroy_cq(cq));
}

static int probe_errnos(void)
{
	struct ibv_context *ctx = open_dev();
	struct ibv_device_attr attr;
	struct ibv_pd *pd = ibv_alloc_pd(ctx);
	char *buf = pages(1 << 16, PROT_READ | PROT_WRITE);
	char *ro = pages(1 << 16, PROT_READ);
	struct ibv_mr *mr;
	struct ibv_mw *mw;

	if (!pd || ibv_query_device(ctx, &attr)) {
		printf("setup %s\n", res(errno));
		return 1;
	}
	say("reg_mr", "%s", try_reg(pd, buf, 1 << 16, IBV_ACCESS_LOCAL_WRITE));
	say("reg_mr_unaligned", "%s", try_reg(pd, buf + 100, 5000,
					      IBV_ACCESS_LOCAL_WRITE));
	say("reg_mr_len0", "%s", try_reg(pd, buf, 0, IBV_ACCESS_LOCAL_WRITE));
	say("reg_mr_remote_write_only", "%s",
	    try_reg(pd, buf, 4096, IBV_ACCESS_REMOTE_WRITE));
	say("reg_mr_remote_atomic_only", "%s",
	    try_reg(pd, buf, 4096, IBV_ACCESS_REMOTE_ATOMIC));
	say("reg_mr_remote_read_only", "%s",
	    try_reg(pd, buf, 4096, IBV_ACCESS_REMOTE_READ));
	say("reg_mr_all_rights", "%s",
	    try_reg(pd, buf, 4096, IBV_ACCESS_LOCAL_WRITE |
		    IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ |
		    IBV_ACCESS_REMOTE_ATOMIC | IBV_ACCESS_MW_BIND));
	say("reg_mr_unknown_bit", "%s", try_reg(pd, buf, 4096, 1 << 12));
	say("reg_mr_on_demand", "%s",
	    try_reg(pd, buf, 4096, IBV_ACCESS_ON_DEMAND |
		    IBV_ACCESS_LOCAL_WRITE));
	say("reg_mr_readonly_mem_local_write", "%s",
	    try_reg(pd, ro, 4096, IBV_ACCESS_LOCAL_WRITE));
	say("reg_mr_readonly_mem_no_write", "%s", try_reg(pd, ro, 4096, 0));
	munmap(buf + (1 << 15), 1 << 15);
	say("reg_mr_unmapped", "%s",
	    try_reg(pd, buf + (1 << 15), 4096, IBV_ACCESS_LOCAL_WRITE));
	say("reg_mr_partly_unmapped", "%s",
	    try_reg(pd, buf, 1 << 16, IBV_ACCESS_LOCAL_WRITE));
	say("reg_mr_wrapping", "%s",
	    try_reg(pd, (void *)(uintptr_t)-4096, 8192,
		    IBV_ACCESS_LOCAL_WRITE));

	mr = ibv_reg_mr(pd, buf, 4096, IBV_ACCESS_LOCAL_WRITE);
	say("mr_rkey_without_remote_rights", "%s",
	    mr && mr->rkey == 0 ? "zero" : "nonzero");
	say("mr_lkey_nonzero", "%s", mr && mr->lkey ? "yes" : "no");
	say("dealloc_pd_with_mr", "%s", res(ibv_dealloc_pd(pd)));
	say("dereg_mr", "%s", mr ? res(ibv_dereg_mr(mr)) : "setup");

	mw = ibv_alloc_mw(pd, IBV_MW_TYPE_1);
	say("alloc_mw_type1", "%s", mw ? "OK" : res(errno));
	say("dealloc_pd_with_mw", "%s", res(ibv_dealloc_pd(pd)));
	if (mw)
		say("dealloc_mw_type1", "%s", res(ibv_dealloc_mw(mw)));
	mw = ibv_alloc_mw(pd, IBV_MW_TYPE_2);
	say("alloc_mw_type2", "%s", mw ? "OK" : res(errno));
	if (mw)
		say("dealloc_mw_type2", "%s", res(ibv_dealloc_mw(mw)));
	mw = ibv_alloc_mw(pd, 3);
	say("alloc_mw_type3", "%s", mw ? "OK" : res(errno));

	say("create_cq_1", "%s", try_cq(ctx, 1, 0));
	say("create_cq_max", "%s", try_cq(ctx, attr.max_cqe, 0));
	say("create_cq_max_plus_1", "%s", try_cq(ctx, attr.max_cqe + 1, 0));
	say("create_cq_0", "%s", try_cq(ctx, 0, 0));
	say("create_cq_negative", "%s", try_cq(ctx, -1, 0));
	say("create_cq_bad_vector", "%s",
	    try_cq(ctx, 1, ctx->num_comp_vectors));
	say("create_cq_negative_vector", "%s", try_cq(ctx, 1, -1));
	say("max_cqe", "%d", attr.max_cqe);

	say("dealloc_pd", "%s", res(ibv_dealloc_pd(pd)));
	say("close_device", "%s", res(ibv_close_device(ctx)));
	return 0;
}

/* ------------------------------------------------------------------ */

static int cmd_write(int fd, void *req, size_t len)
{
	return write(fd, req, len) == (ssize_t)len ? 0 : errno;
}

struct raw_cq {
	uint32_t handle;
	uint32_t cqe;
	struct mminfo mi;
};

static int raw_create_cq(int fd, int cqe, int channel, struct raw_cq *out)
{
	struct {
		struct ib_uverbs_cmd_hdr hdr;
		struct ib_uverbs_create_cq cmd;
	} req = {};
	struct {
		struct ib_uverbs_create_cq_resp core;
		struct rxe_create_cq_resp drv;
	} resp = {};
	int ret;

	req.hdr.command = IB_USER_VERBS_CMD_CREATE_CQ;
	req.hdr.in_words = sizeof(req) / 4;
	req.hdr.out_words = sizeof(resp) / 4;
	req.cmd.response = (uintptr_t)&resp;
	req.cmd.user_handle = 0x1234;
	req.cmd.cqe = cqe;
	req.cmd.comp_channel = channel;
	ret = cmd_write(fd, &req, sizeof(req));
	if (!ret) {
		out->handle = resp.core.cq_handle;
		out->cqe = resp.core.cqe;
		out->mi = resp.drv.mi;
	}
	return ret;
}

static int raw_destroy_cq(int fd, uint32_t handle,
			  struct ib_uverbs_destroy_cq_resp *resp)
{
	struct {
		struct ib_uverbs_cmd_hdr hdr;
		struct ib_uverbs_destroy_cq cmd;
	} req = {};

	req.hdr.command = IB_USER_VERBS_CMD_DESTROY_CQ;
	req.hdr.in_words = sizeof(req) / 4;
	req.hdr.out_words = sizeof(*resp) / 4;
	req.cmd.response = (uintptr_t)resp;
	req.cmd.cq_handle = handle;
	return cmd_write(fd, &req, sizeof(req));
}

/* The ring header as librxe reads it. */
static void show_ring(const char *name, int fd, const struct mminfo *mi)
{
	struct rxe_queue_buf *q;

	q = mmap(NULL, mi->size, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		 mi->offset);
	if (q == MAP_FAILED) {
		say(name, "mmap %s", res(errno));
		return;
	}
	say(name, "log2_elem_size=%u index_mask=%u prod=%u cons=%u",
	    q->log2_elem_size, q->index_mask, q->producer_index,
	    q->consumer_index);
	munmap(q, mi->size);
}

static int probe_write(void)
{
	struct ibv_context *ctx = open_dev();
	struct ib_uverbs_destroy_cq_resp dresp;
	int fd = ctx->cmd_fd;
	struct raw_cq cq;
	int ret;

	ret = raw_create_cq(fd, 10, -1, &cq);
	say("write_create_cq", "%s cqe=%u", res(ret), ret ? 0 : cq.cqe);
	if (!ret) {
		struct {
			struct ib_uverbs_cmd_hdr hdr;
			struct ib_uverbs_resize_cq cmd;
		} req = {};
		struct {
			struct ib_uverbs_resize_cq_resp core;
			struct rxe_resize_cq_resp drv;
		} resp = {};
		void *p;

		say("mmap_offset_page_aligned", "%s",
		    cq.mi.offset % 4096 ? "no" : "yes");
		show_ring("ring", fd, &cq.mi);
		p = mmap(NULL, cq.mi.size, PROT_READ, MAP_SHARED, fd,
			 cq.mi.offset + 4096 * 1000);
		say("mmap_bad_offset", "%s",
		    p == MAP_FAILED ? res(errno) : "mapped");
		p = mmap(NULL, cq.mi.size + 4096, PROT_READ, MAP_SHARED, fd,
			 cq.mi.offset);
		say("mmap_too_large", "%s",
		    p == MAP_FAILED ? res(errno) : "mapped");

		req.hdr.command = IB_USER_VERBS_CMD_RESIZE_CQ;
		req.hdr.in_words = sizeof(req) / 4;
		req.hdr.out_words = sizeof(resp) / 4;
		req.cmd.response = (uintptr_t)&resp;
		req.cmd.cq_handle = cq.handle;
		req.cmd.cqe = 100;
		ret = cmd_write(fd, &req, sizeof(req));
		say("write_resize_cq", "%s cqe=%u", res(ret),
		    ret ? 0 : resp.core.cqe);
		if (!ret)
			show_ring("resized_ring", fd, &resp.drv.mi);
		req.cmd.cqe = 0;
		say("write_resize_cq_0", "%s", res(cmd_write(fd, &req,
							     sizeof(req))));
		req.cmd.cqe = 1 << 20;
		say("write_resize_cq_huge", "%s", res(cmd_write(fd, &req,
								sizeof(req))));
		/* no room for the driver's reply */
		req.hdr.out_words = sizeof(resp.core) / 4;
		req.cmd.cqe = 20;
		say("write_resize_cq_short_resp", "%s",
		    res(cmd_write(fd, &req, sizeof(req))));

		ret = raw_destroy_cq(fd, cq.handle, &dresp);
		say("write_destroy_cq", "%s events=%u/%u", res(ret),
		    ret ? 0 : dresp.comp_events_reported,
		    ret ? 0 : dresp.async_events_reported);
		say("write_destroy_cq_again", "%s",
		    res(raw_destroy_cq(fd, cq.handle, &dresp)));
	}
	say("write_destroy_cq_bad_handle", "%s",
	    res(raw_destroy_cq(fd, 12345, &dresp)));
	say("write_create_cq_0", "%s", res(raw_create_cq(fd, 0, -1, &cq)));
	say("write_create_cq_bad_channel", "%s",
	    res(raw_create_cq(fd, 4, 0, &cq)));

	/* A completion channel and a CQ on it, all through write(). */
	{
		struct {
			struct ib_uverbs_cmd_hdr hdr;
			struct ib_uverbs_create_comp_channel cmd;
		} req = {};
		struct ib_uverbs_create_comp_channel_resp resp = {};
		struct {
			struct ib_uverbs_cmd_hdr hdr;
			struct ib_uverbs_req_notify_cq cmd;
		} notify = {};
		struct pollfd pfd;

		req.hdr.command = IB_USER_VERBS_CMD_CREATE_COMP_CHANNEL;
		req.hdr.in_words = sizeof(req) / 4;
		req.hdr.out_words = sizeof(resp) / 4;
		req.cmd.response = (uintptr_t)&resp;
		ret = cmd_write(fd, &req, sizeof(req));
		say("write_create_comp_channel", "%s", res(ret));
		if (!ret) {
			ret = raw_create_cq(fd, 4, resp.fd, &cq);
			say("write_create_cq_on_channel", "%s", res(ret));
			notify.hdr.command = IB_USER_VERBS_CMD_REQ_NOTIFY_CQ;
			notify.hdr.in_words = sizeof(notify) / 4;
			notify.cmd.cq_handle = cq.handle;
			say("write_req_notify_cq", "%s",
			    res(cmd_write(fd, &notify, sizeof(notify))));
			notify.cmd.cq_handle = 999;
			say("write_req_notify_bad_cq", "%s",
			    res(cmd_write(fd, &notify, sizeof(notify))));
			pfd.fd = resp.fd;
			pfd.events = POLLIN;
			say("channel_poll_idle", "%d", poll(&pfd, 1, 0));
			say("channel_read_nonblock", "%s",
			    res(fcntl(resp.fd, F_SETFL, O_NONBLOCK) ||
				read(resp.fd, &dresp, 8) >= 0 ? 0 : errno));
			if (!ret)
				say("write_destroy_cq_on_channel", "%s",
				    res(raw_destroy_cq(fd, cq.handle, &dresp)));
			close(resp.fd);
		}
	}

	/* The extended CREATE_CQ. */
	{
		struct {
			struct ib_uverbs_cmd_hdr hdr;
			struct ib_uverbs_ex_cmd_hdr ex;
			struct ib_uverbs_ex_create_cq cmd;
		} req = {};
		struct {
			struct ib_uverbs_ex_create_cq_resp core;
			struct rxe_create_cq_resp drv;
		} resp = {};

		req.hdr.command = IB_USER_VERBS_CMD_FLAG_EXTENDED |
				  IB_USER_VERBS_EX_CMD_CREATE_CQ;
		req.hdr.in_words = sizeof(req.cmd) / 8;
		req.hdr.out_words = sizeof(resp.core) / 8;
		req.ex.response = (uintptr_t)&resp;
		req.ex.provider_out_words = sizeof(resp.drv) / 8;
		req.cmd.cqe = 5;
		req.cmd.comp_channel = -1;
		ret = cmd_write(fd, &req, sizeof(req));
		say("write_ex_create_cq", "%s cqe=%u len=%u", res(ret),
		    ret ? 0 : resp.core.base.cqe,
		    ret ? 0 : resp.core.response_length);
		if (!ret)
			say("write_ex_destroy_cq", "%s",
			    res(raw_destroy_cq(fd, resp.core.base.cq_handle,
					       &dresp)));
		req.cmd.flags = IB_UVERBS_CQ_FLAGS_TIMESTAMP_COMPLETION;
		say("write_ex_create_cq_flags", "%s",
		    res(cmd_write(fd, &req, sizeof(req))));
		req.cmd.flags = 0;
		req.cmd.comp_mask = 1;
		say("write_ex_create_cq_comp_mask", "%s",
		    res(cmd_write(fd, &req, sizeof(req))));
	}
	say("close_device", "%s", res(ibv_close_device(ctx)));
	return 0;
}

/* ------------------------------------------------------------------ */

struct ioc {
	struct ib_uverbs_ioctl_hdr hdr;
	struct ib_uverbs_attr attrs[12];
};

static void ioc_init(struct ioc *c, int object, int method)
{
	memset(c, 0, sizeof(*c));
	c->hdr.object_id = object;
	c->hdr.method_id = method;
	c->hdr.driver_id = RDMA_DRIVER_RXE;
}

static struct ib_uverbs_attr *ioc_attr(struct ioc *c, int id, int len,
				       uint64_t data)
{
	struct ib_uverbs_attr *a = &c->attrs[c->hdr.num_attrs++];

	a->attr_id = id;
	a->len = len;
	a->flags = UVERBS_ATTR_F_MANDATORY;
	a->data = data;
	return a;
}

static int ioc_run(int fd, struct ioc *c)
{
	c->hdr.length = sizeof(c->hdr) + c->hdr.num_attrs * sizeof(c->attrs[0]);
	return ioctl(fd, RDMA_VERBS_IOCTL, c) ? errno : 0;
}

enum { CQ_GOOD, CQ_NO_UHW, CQ_CQE_LEN8, CQ_NO_CQE, CQ_CHANNEL_ASYNC,
       CQ_EVENT_FD_BAD, CQ_FLAGS_UNKNOWN, CQ_FLAGS_TS, CQ_RESP_LEN8,
       CQ_HANDLE_LEN4 };

/* CQ_CREATE as libibverbs sends it, spoilt as @how says. */
static int ioc_create_cq(int fd, int how, int async_fd, uint32_t *handle)
{
	struct rxe_create_cq_resp drv;
	uint32_t cqe = 4, vec = 0, resp_cqe;
	struct ib_uverbs_attr *h;
	struct ioc c;
	int ret;

	ioc_init(&c, UVERBS_OBJECT_CQ, UVERBS_METHOD_CQ_CREATE);
	h = ioc_attr(&c, UVERBS_ATTR_CREATE_CQ_HANDLE, how == CQ_HANDLE_LEN4 ?
		     4 : 0, 0);
	ioc_attr(&c, UVERBS_ATTR_CREATE_CQ_RESP_CQE,
		 how == CQ_RESP_LEN8 ? 8 : 4, (uintptr_t)&resp_cqe);
	if (how != CQ_NO_CQE)
		ioc_attr(&c, UVERBS_ATTR_CREATE_CQ_CQE,
			 how == CQ_CQE_LEN8 ? 8 : 4, cqe);
	ioc_attr(&c, UVERBS_ATTR_CREATE_CQ_USER_HANDLE, 8, 0x42);
	ioc_attr(&c, UVERBS_ATTR_CREATE_CQ_COMP_VECTOR, 4, vec);
	if (how == CQ_CHANNEL_ASYNC)
		ioc_attr(&c, UVERBS_ATTR_CREATE_CQ_COMP_CHANNEL, 0, async_fd);
	ioc_attr(&c, UVERBS_ATTR_CREATE_CQ_EVENT_FD, 0,
		 how == CQ_EVENT_FD_BAD ? 12345 : async_fd)->flags = 0;
	if (how == CQ_FLAGS_UNKNOWN)
		ioc_attr(&c, UVERBS_ATTR_CREATE_CQ_FLAGS, 4, 1 << 5);
	if (how == CQ_FLAGS_TS)
		ioc_attr(&c, UVERBS_ATTR_CREATE_CQ_FLAGS, 4,
			 IB_UVERBS_CQ_FLAGS_TIMESTAMP_COMPLETION);
	if (how != CQ_NO_UHW)
		ioc_attr(&c, UVERBS_ATTR_UHW_OUT, sizeof(drv),
			 (uintptr_t)&drv)->flags = 0;
	ret = ioc_run(fd, &c);
	if (!ret)
		*handle = h->data;
	return ret;
}

static int ioc_destroy(int fd, int object, int method, int attr,
		       uint32_t handle, int resp_len)
{
	struct ib_uverbs_destroy_cq_resp resp;
	struct ioc c;

	ioc_init(&c, object, method);
	ioc_attr(&c, attr, 0, handle);
	if (resp_len)
		ioc_attr(&c, UVERBS_ATTR_DESTROY_CQ_RESP, resp_len,
			 (uintptr_t)&resp);
	return ioc_run(fd, &c);
}

static int probe_ioctl(void)
{
	static const char *const names[] = {
		"cq_create", "cq_create_no_uhw", "cq_create_cqe_len8",
		"cq_create_no_cqe", "cq_create_channel_is_async_fd",
		"cq_create_event_fd_bad", "cq_create_flags_unknown",
		"cq_create_flags_timestamp", "cq_create_resp_len8",
		"cq_create_handle_len4",
	};
	struct ibv_context *ctx = open_dev();
	struct ibv_pd *pd = ibv_alloc_pd(ctx);
	int fd = ctx->cmd_fd, how, ret;
	struct ibv_mr *mr;
	struct ibv_mw *mw;
	uint32_t handle;

	for (how = CQ_GOOD; how <= CQ_HANDLE_LEN4; how++) {
		ret = ioc_create_cq(fd, how, ctx->async_fd, &handle);
		say(names[how], "%s", res(ret));
		if (!ret)
			ioc_destroy(fd, UVERBS_OBJECT_CQ,
				    UVERBS_METHOD_CQ_DESTROY,
				    UVERBS_ATTR_DESTROY_CQ_HANDLE, handle,
				    sizeof(struct ib_uverbs_destroy_cq_resp));
	}
	ret = ioc_create_cq(fd, CQ_GOOD, ctx->async_fd, &handle);
	say("cq_destroy_resp_len4", "%s",
	    res(ioc_destroy(fd, UVERBS_OBJECT_CQ, UVERBS_METHOD_CQ_DESTROY,
			    UVERBS_ATTR_DESTROY_CQ_HANDLE, handle, 4)));
	say("cq_destroy_no_resp", "%s",
	    res(ioc_destroy(fd, UVERBS_OBJECT_CQ, UVERBS_METHOD_CQ_DESTROY,
			    UVERBS_ATTR_DESTROY_CQ_HANDLE, handle, 0)));
	say("cq_destroy", "%s",
	    res(ioc_destroy(fd, UVERBS_OBJECT_CQ, UVERBS_METHOD_CQ_DESTROY,
			    UVERBS_ATTR_DESTROY_CQ_HANDLE, handle, 8)));
	say("cq_destroy_again", "%s",
	    res(ioc_destroy(fd, UVERBS_OBJECT_CQ, UVERBS_METHOD_CQ_DESTROY,
			    UVERBS_ATTR_DESTROY_CQ_HANDLE, handle, 8)));
	say("cq_destroy_pd_handle", "%s",
	    res(ioc_destroy(fd, UVERBS_OBJECT_CQ, UVERBS_METHOD_CQ_DESTROY,
			    UVERBS_ATTR_DESTROY_CQ_HANDLE, pd->handle, 8)));

	mr = ibv_reg_mr(pd, ctx, 64, 0);
	mw = ibv_alloc_mw(pd, IBV_MW_TYPE_1);
	if (!mr || !mw) {
		say("setup", "%s", res(errno));
		return 1;
	}
	{
		uint32_t lkey = 0, rkey = 1;
		uint64_t length = 0, iova = 0;
		struct ioc c;

		ioc_init(&c, UVERBS_OBJECT_MR, UVERBS_METHOD_QUERY_MR);
		ioc_attr(&c, UVERBS_ATTR_QUERY_MR_HANDLE, 0, mr->handle);
		ioc_attr(&c, UVERBS_ATTR_QUERY_MR_RESP_LKEY, 4,
			 (uintptr_t)&lkey);
		ioc_attr(&c, UVERBS_ATTR_QUERY_MR_RESP_RKEY, 4,
			 (uintptr_t)&rkey);
		ioc_attr(&c, UVERBS_ATTR_QUERY_MR_RESP_LENGTH, 8,
			 (uintptr_t)&length);
		ioc_attr(&c, UVERBS_ATTR_QUERY_MR_RESP_IOVA, 8,
			 (uintptr_t)&iova);
		ret = ioc_run(fd, &c);
		say("query_mr", "%s lkey %s rkey=%u length=%llu iova %s",
		    res(ret), lkey == mr->lkey ? "same" : "other", rkey,
		    (unsigned long long)length,
		    iova == (uintptr_t)ctx ? "same" : "other");
		c.hdr.num_attrs = 4;
		say("query_mr_no_iova", "%s", res(ioc_run(fd, &c)));
		c.attrs[3].len = 4;
		say("query_mr_length_len4", "%s", res(ioc_run(fd, &c)));
		c.attrs[0].data = mw->handle;
		c.attrs[3].len = 8;
		say("query_mr_mw_handle", "%s", res(ioc_run(fd, &c)));
	}
	say("mr_destroy_as_mw", "%s",
	    res(ioc_destroy(fd, UVERBS_OBJECT_MW, UVERBS_METHOD_MW_DESTROY,
			    UVERBS_ATTR_DESTROY_MW_HANDLE, mr->handle, 0)));
	say("mw_destroy", "%s",
	    res(ioc_destroy(fd, UVERBS_OBJECT_MW, UVERBS_METHOD_MW_DESTROY,
			    UVERBS_ATTR_DESTROY_MW_HANDLE, mw->handle, 0)));
	say("mr_destroy", "%s",
	    res(ioc_destroy(fd, UVERBS_OBJECT_MR, UVERBS_METHOD_MR_DESTROY,
			    UVERBS_ATTR_DESTROY_MR_HANDLE, mr->handle, 0)));
	say("mr_destroy_again", "%s",
	    res(ioc_destroy(fd, UVERBS_OBJECT_MR, UVERBS_METHOD_MR_DESTROY,
			    UVERBS_ATTR_DESTROY_MR_HANDLE, mr->handle, 0)));
	say("dealloc_pd", "%s", res(ibv_dealloc_pd(pd)));
	/* mr and mw are gone behind libibverbs' back: not freed here */
	say("close_device", "%s", res(ibv_close_device(ctx)));
	return 0;
}

/* ------------------------------------------------------------------ */

static void show_status(const char *when)
{
	char line[256];
	FILE *f = fopen("/proc/self/status", "r");

	while (f && fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "VmPin:", 6) || !strncmp(line, "VmLck:", 6)) {
			line[strcspn(line, "\n")] = 0;
			printf("%s %s\n", when, line);
		}
	}
	if (f)
		fclose(f);
	fflush(stdout);
}

static int probe_pin(size_t kb)
{
	struct ibv_context *ctx = open_dev();
	struct ibv_pd *pd = ibv_alloc_pd(ctx);
	size_t len = kb << 10;
	void *buf = pages(len, PROT_READ | PROT_WRITE);
	struct ibv_mr *mr;

	show_status("before");
	mr = ibv_reg_mr(pd, buf, len, IBV_ACCESS_LOCAL_WRITE);
	say("reg_mr", "%s", mr ? "OK" : res(errno));
	if (mr) {
		show_status("registered");
		say("dereg_mr", "%s", res(ibv_dereg_mr(mr)));
	}
	show_status("after");
	ibv_dealloc_pd(pd);
	ibv_close_device(ctx);
	return 0;
}

/*
 * REREG_MR as a raw write(): librxe 44 has no rereg_mr, so libibverbs
 * answers EOPNOTSUPP itself without asking the kernel.
 */
static int raw_rereg(int fd, struct ibv_mr *mr, uint32_t flags, void *addr,
		     size_t len, struct ibv_pd *pd, int access,
		     struct ib_uverbs_rereg_mr_resp *resp)
{
	struct {
		struct ib_uverbs_cmd_hdr hdr;
		struct ib_uverbs_rereg_mr cmd;
	} req = {};

	req.hdr.command = IB_USER_VERBS_CMD_REREG_MR;
	req.hdr.in_words = sizeof(req) / 4;
	req.hdr.out_words = sizeof(*resp) / 4;
	req.cmd.response = (uintptr_t)resp;
	req.cmd.mr_handle = mr->handle;
	req.cmd.flags = flags;
	req.cmd.start = (uintptr_t)addr;
	req.cmd.length = len;
	req.cmd.hca_va = (uintptr_t)addr;
	req.cmd.pd_handle = pd ? pd->handle : 999;
	req.cmd.access_flags = access;
	return cmd_write(fd, &req, sizeof(req));
}

static int probe_rereg(void)
{
	struct ibv_context *ctx = open_dev();
	struct ibv_pd *pd1 = ibv_alloc_pd(ctx), *pd2 = ibv_alloc_pd(ctx);
	char *buf1 = pages(1 << 16, PROT_READ | PROT_WRITE);
	char *buf2 = pages(1 << 20, PROT_READ | PROT_WRITE);
	struct ib_uverbs_rereg_mr_resp resp;
	int fd = ctx->cmd_fd;
	struct ibv_mr *mr;
	int ret;

	mr = ibv_reg_mr(pd1, buf1, 1 << 16, IBV_ACCESS_LOCAL_WRITE);
	if (!mr) {
		say("reg_mr", "%s", res(errno));
		return 1;
	}
	ret = ibv_rereg_mr(mr, IBV_REREG_MR_CHANGE_ACCESS, NULL, NULL, 0, 0);
	say("libibverbs_rereg", "%s", ret ? res(errno) : "OK");

	ret = raw_rereg(fd, mr, IBV_REREG_MR_CHANGE_ACCESS, NULL, 0, NULL,
			IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE,
			&resp);
	say("rereg_access", "%s", res(ret));
	if (ret == EOPNOTSUPP) {
		/* stock 6.1 rxe: nothing more to see */
		ibv_dereg_mr(mr);
		ibv_dealloc_pd(pd1);
		ibv_dealloc_pd(pd2);
		ibv_close_device(ctx);
		return 0;
	}
	say("rereg_access_keys", "lkey %s, rkey %s",
	    resp.lkey == mr->lkey ? "kept" : "changed",
	    resp.rkey == mr->lkey ? "=lkey" : "other");
	ret = raw_rereg(fd, mr, IBV_REREG_MR_CHANGE_ACCESS, NULL, 0, NULL, 0,
			&resp);
	say("rereg_access_none", "%s rkey=%s", res(ret),
	    resp.rkey ? "nonzero" : "zero");
	say("rereg_access_bad", "%s",
	    res(raw_rereg(fd, mr, IBV_REREG_MR_CHANGE_ACCESS, NULL, 0, NULL,
			  IBV_ACCESS_REMOTE_WRITE, &resp)));
	say("rereg_no_flags", "%s",
	    res(raw_rereg(fd, mr, 0, NULL, 0, NULL, 0, &resp)));
	say("rereg_unknown_flag", "%s",
	    res(raw_rereg(fd, mr, 8, NULL, 0, NULL, 0, &resp)));
	ret = raw_rereg(fd, mr, IBV_REREG_MR_CHANGE_TRANSLATION, buf2,
			1 << 20, NULL, 0, &resp);
	say("rereg_translation", "%s lkey %s", res(ret),
	    resp.lkey == mr->lkey ? "kept" : "changed");
	show_status("rereg_translation");
	ret = raw_rereg(fd, mr, IBV_REREG_MR_CHANGE_TRANSLATION,
			buf1 + (1 << 15), 4096, NULL, 0, &resp);
	say("rereg_translation_small", "%s", res(ret));
	show_status("rereg_translation_small");
	munmap(buf1 + (1 << 14), 1 << 14);
	say("rereg_translation_unmapped", "%s",
	    res(raw_rereg(fd, mr, IBV_REREG_MR_CHANGE_TRANSLATION, buf1,
			  1 << 16, NULL, 0, &resp)));
	show_status("rereg_translation_unmapped");
	say("rereg_bad_pd", "%s",
	    res(raw_rereg(fd, mr, IBV_REREG_MR_CHANGE_PD, NULL, 0, NULL, 0,
			  &resp)));
	say("rereg_pd", "%s",
	    res(raw_rereg(fd, mr, IBV_REREG_MR_CHANGE_PD, NULL, 0, pd2, 0,
			  &resp)));
	say("dealloc_new_pd_with_mr", "%s", res(ibv_dealloc_pd(pd2)));
	say("dealloc_old_pd", "%s", res(ibv_dealloc_pd(pd1)));
	say("dereg_mr", "%s", res(ibv_dereg_mr(mr)));
	say("dealloc_new_pd", "%s", res(ibv_dealloc_pd(pd2)));
	show_status("end");
	ibv_close_device(ctx);
	return 0;
}

static int probe_churn(int n)
{
	struct ibv_context *ctx = open_dev();
	struct ibv_comp_channel *cc = ibv_create_comp_channel(ctx);
	char *buf = pages(1 << 16, PROT_READ | PROT_WRITE);
	struct ibv_pd *pd = ibv_alloc_pd(ctx);
	int i, fail = 0;

	if (!cc || !pd) {
		say("setup", "%s", res(errno));
		return 1;
	}
	for (i = 0; i < n && !fail; i++) {
		struct ibv_mr *mr = ibv_reg_mr(pd, buf, 1 << 16,
					       IBV_ACCESS_LOCAL_WRITE);
		struct ibv_cq *cq = ibv_create_cq(ctx, 64, NULL, cc, 0);
		struct ibv_mw *mw = ibv_alloc_mw(pd, IBV_MW_TYPE_2);

		if (!mr || !cq || !mw)
			fail = errno ? errno : EINVAL;
		if (mr && ibv_dereg_mr(mr))
			fail = errno;
		if (cq && ibv_destroy_cq(cq))
			fail = errno;
		if (mw && ibv_dealloc_mw(mw))
			fail = errno;
	}
	say("churn", "%s", res(fail));
	/* left for close() to tear down */
	for (i = 0; i < 16; i++) {
		ibv_reg_mr(pd, buf, 1 << 16, IBV_ACCESS_LOCAL_WRITE);
		ibv_create_cq(ctx, 256, NULL, cc, 0);
		ibv_alloc_mw(pd, IBV_MW_TYPE_1);
	}
	close(ctx->cmd_fd);
	close(ctx->async_fd);
	close(cc->fd);
	return 0;
}

/* ------------------------------------------------------------------ */

static int debugfs_index(void)
{
	char path[256], line[128];
	int index = -1, n = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/kernel/debug/rdma_rxe/%s/cqs",
		 dev_name);
	/*
	 * Ours lists the GSI QP's kernel CQ too (made when rxe0 registered,
	 * so lower in index): the CQ this probe made is the newest.
	 */
	f = fopen(path, "r");
	while (f && fgets(line, sizeof(line), f)) {
		if (atoi(line) > index)
			index = atoi(line);
		n++;
	}
	if (f)
		fclose(f);
	return n >= 1 ? index : -1;
}

static int cq_index;

static int post(uint64_t wr_id, int solicited)
{
	char path[256], line[128];
	int fd, ret = 0;

	snprintf(path, sizeof(path), "/sys/kernel/debug/rdma_rxe/%s/cq_post",
		 dev_name);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return errno;
	snprintf(line, sizeof(line), "%d %llu 0 %d", cq_index,
		 (unsigned long long)wr_id, solicited);
	if (write(fd, line, strlen(line)) < 0)
		ret = errno;
	close(fd);
	return ret;
}

static int channel_ready(struct ibv_comp_channel *cc)
{
	struct pollfd pfd = { .fd = cc->fd, .events = POLLIN };

	return poll(&pfd, 1, 1000);
}

/* wr_ids of what the CQ holds, in order, or "empty" */
static const char *drain(struct ibv_cq *cq)
{
	static char out[256];
	struct ibv_wc wc;
	int len = 0;

	out[0] = 0;
	while (ibv_poll_cq(cq, 1, &wc) == 1)
		len += snprintf(out + len, sizeof(out) - len, "%s%llu",
				len ? "," : "",
				(unsigned long long)wc.wr_id);
	return len ? out : "empty";
}

static const char *event(struct ibv_comp_channel *cc, struct ibv_cq *want)
{
	struct ibv_cq *cq;
	void *cq_ctx;

	if (channel_ready(cc) != 1)
		return "none";
	if (ibv_get_cq_event(cc, &cq, &cq_ctx))
		return res(errno);
	ibv_ack_cq_events(cq, 1);
	return cq == want && cq_ctx == (void *)0x77 ? "cq" : "other";
}

static int probe_events(void)
{
	struct ibv_context *ctx = open_dev();
	struct ibv_comp_channel *cc = ibv_create_comp_channel(ctx);
	struct ibv_async_event aev;
	struct pollfd pfd;
	struct ibv_cq *cq;
	int i, ret;

	cq = cc ? ibv_create_cq(ctx, 3, (void *)0x77, cc, 0) : NULL;
	if (!cq) {
		say("setup", "%s", res(errno));
		return 1;
	}
	cq_index = debugfs_index();
	say("cqe", "%d", cq->cqe);
	say("debugfs", "%s", cq_index < 0 ? "missing" : "found");
	if (cq_index < 0)
		return 1;

	say("post_unarmed", "%s", res(post(11, 0)));
	say("event_unarmed", "%s", channel_ready(cc) == 1 ? "yes" : "none");
	say("poll_unarmed", "%s", drain(cq));

	say("arm", "%s", res(ibv_req_notify_cq(cq, 0)));
	say("post_armed", "%s", res(post(12, 0)));
	say("event_armed", "%s", event(cc, cq));
	say("post_disarmed", "%s", res(post(13, 0)));
	say("event_disarmed", "%s", event(cc, cq));
	say("poll_armed", "%s", drain(cq));

	say("arm_solicited", "%s", res(ibv_req_notify_cq(cq, 1)));
	say("post_unsolicited", "%s", res(post(14, 0)));
	say("event_unsolicited", "%s", event(cc, cq));
	say("post_solicited", "%s", res(post(15, 1)));
	say("event_solicited", "%s", event(cc, cq));
	say("poll_solicited", "%s", drain(cq));

	for (i = 0; i < 3; i++)
		post(20 + i, 0);
	say("post_full", "%s", res(post(23, 0)));
	pfd.fd = ctx->async_fd;
	pfd.events = POLLIN;
	if (poll(&pfd, 1, 1000) == 1 && !ibv_get_async_event(ctx, &aev)) {
		say("async_event", "%s",
		    aev.event_type == IBV_EVENT_CQ_ERR &&
		    aev.element.cq == cq ? "CQ_ERR" : "other");
		ibv_ack_async_event(&aev);
	} else {
		say("async_event", "none");
	}
	say("resize_below_count", "%s", res(ibv_resize_cq(cq, 1)));
	ret = ibv_resize_cq(cq, 7);
	say("resize_up", "%s cqe=%d", res(ret), cq->cqe);
	say("poll_after_resize", "%s", drain(cq));
	for (i = 0; i < 7; i++)
		post(30 + i, 0);
	say("post_after_resize", "%s", res(post(37, 0)));
	say("poll_resized_full", "%s", drain(cq));
	ret = ibv_resize_cq(cq, 2);
	say("resize_down", "%s cqe=%d", res(ret), cq->cqe);
	post(40, 0);
	say("poll_resized_down", "%s", drain(cq));

	/* An unread event is taken back by the destroy. */
	ibv_req_notify_cq(cq, 0);
	post(50, 0);
	channel_ready(cc);
	say("destroy_cq_unread_event", "%s", res(ibv_destroy_cq(cq)));
	pfd.fd = cc->fd;
	say("channel_after_destroy", "%s", poll(&pfd, 1, 0) ? "event" : "empty");
	say("destroy_channel", "%s", res(ibv_destroy_comp_channel(cc)));
	say("close_device", "%s", res(ibv_close_device(ctx)));
	return 0;
}

static const char *map_res(void *p)
{
	if (p == MAP_FAILED)
		return res(errno);
	return "mapped";
}

static int probe_mmap(void)
{
	struct ibv_context *ctx = open_dev();
	struct ib_uverbs_destroy_cq_resp dresp;
	int fd = ctx->cmd_fd, i, status;
	volatile struct rxe_queue_buf *q, *q2;
	struct raw_cq cq;
	size_t len;
	pid_t pid;
	void *p;

	if (raw_create_cq(fd, 500, -1, &cq)) {
		say("create_cq", "%s", res(errno));
		return 1;
	}
	len = cq.mi.size;
	say("ring_pages", "%zu", len / 4096);
	cq_index = debugfs_index();
	say("debugfs", "%s", cq_index < 0 ? "missing" : "found");

	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd,
		 cq.mi.offset);
	say("mmap_private", "%s", map_res(p));
	p = mmap(NULL, len, PROT_READ | PROT_EXEC, MAP_SHARED, fd,
		 cq.mi.offset);
	say("mmap_exec", "%s", map_res(p));
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		 cq.mi.offset + 4096);
	say("mmap_inside", "%s", map_res(p));

	q = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		 cq.mi.offset);
	q2 = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, cq.mi.offset);
	say("mmap_twice", "%s %s", map_res((void *)q), map_res((void *)q2));
	if (q == MAP_FAILED || q2 == MAP_FAILED)
		return 1;
	/* not executable later either (VM_MAYEXEC cleared) */
	say("mprotect_exec", "%s", mprotect((void *)q2, 4096,
					    PROT_READ | PROT_EXEC) ?
	    res(errno) : "OK");
	say("same_memory", "%s", q2->index_mask == 511 &&
	    q->index_mask == 511 ? "yes" : "no");

	post(1, 0);
	post(2, 0);
	say("producer_seen", "%u", q2->producer_index);

	pid = fork();
	if (!pid) {
		/* The child's copy of the mapping shows the same ring. */
		say("child_reads", "prod=%u", q->producer_index);
		q->consumer_index = 2;
		_exit(0);
	}
	waitpid(pid, &status, 0);
	say("child_wrote", "cons=%u", q2->consumer_index);

	madvise((void *)q, len, MADV_DONTNEED);
	say("after_dontneed", "mask=%u prod=%u", q->index_mask,
	    q->producer_index);

	/* A hole in the middle, and read-only head: the rest still works. */
	munmap((char *)q + 4096, 4096);
	mprotect((void *)q, 4096, PROT_READ);
	((volatile char *)q)[2 * 4096 + 8] = 7;
	say("split", "%d", ((volatile char *)q2)[2 * 4096 + 8]);
	p = mremap((void *)q2, len, len + 4096, MREMAP_MAYMOVE);
	say("mremap_grow", "%s", p == MAP_FAILED ? res(errno) : "grown");

	/* Userspace owns the consumer index: garbage cannot hurt us. */
	q2 = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		  cq.mi.offset);
	for (i = 0; i < 4; i++) {
		static const uint32_t junk[] = { 0xffffffff, 512, 0x80000001,
						 3 };

		q2->consumer_index = junk[i];
		say("post_with_junk_consumer", "%x %s", junk[i],
		    res(post(100 + i, 0)));
	}
	q2->index_mask = 0xffffffff;
	q2->log2_elem_size = 31;
	say("post_with_junk_header", "%s", res(post(200, 0)));

	say("destroy_cq", "%s", res(raw_destroy_cq(fd, cq.handle, &dresp)));
	say("read_after_destroy", "mask=%u", q2->index_mask);
	q2->producer_index = 5;
	say("mmap_after_destroy", "%s",
	    map_res(mmap(NULL, len, PROT_READ, MAP_SHARED, fd, cq.mi.offset)));
	munmap((void *)q2, len);
	munmap((void *)q, len);
	say("close_device", "%s", res(ibv_close_device(ctx)));
	return 0;
}

/* ------------------------------------------------------------------ */

static sigjmp_buf jump;

static void on_sigbus(int sig)
{
	siglongjmp(jump, sig);
}

static int probe_revoke(void)
{
	struct ibv_context *ctx = open_dev();
	unsigned long start = 0, end;
	char line[512];
	volatile uint32_t *ring;
	struct ibv_pd *pd;
	struct ibv_mr *mr;
	struct ibv_cq *cq;
	FILE *f;
	int sig;

	cq = ibv_create_cq(ctx, 15, NULL, NULL, 0);
	pd = ibv_alloc_pd(ctx);
	mr = pd ? ibv_reg_mr(pd, pages(1 << 20, PROT_READ | PROT_WRITE),
			     1 << 20, IBV_ACCESS_LOCAL_WRITE) : NULL;
	if (!cq || !mr) {
		say("setup", "%s", res(errno));
		return 1;
	}
	show_status("registered");
	/* librxe's mapping of the ring: the command fd, shared. */
	f = fopen("/proc/self/maps", "r");
	while (f && fgets(line, sizeof(line), f))
		if (strstr(line, "/dev/infiniband/uverbs") &&
		    sscanf(line, "%lx-%lx", &start, &end) == 2)
			break;
	if (f)
		fclose(f);
	if (!start) {
		say("mapping", "missing");
		return 1;
	}
	ring = (volatile uint32_t *)start;
	say("mapped", "log2_elem_size=%u index_mask=%u", ring[0], ring[1]);
	printf("ready\n");
	fflush(stdout);
	if (!fgets(line, sizeof(line), stdin))
		line[0] = 0;

	signal(SIGBUS, on_sigbus);
	signal(SIGSEGV, on_sigbus);
	sig = sigsetjmp(jump, 1);
	if (!sig)
		say("after_removal", "read %u", ring[1]);
	else
		say("after_removal", "%s", sig == SIGBUS ? "SIGBUS" : "SIGSEGV");
	sig = sigsetjmp(jump, 1);
	if (!sig) {
		ring[32] = 1;
		say("write_after_removal", "done");
	} else {
		say("write_after_removal", "%s",
		    sig == SIGBUS ? "SIGBUS" : "SIGSEGV");
	}
	signal(SIGBUS, SIG_DFL);
	signal(SIGSEGV, SIG_DFL);
	/* The pages were unpinned by the disassociation, from elsewhere. */
	show_status("removed");
	say("destroy_cq", "%s", res(ibv_destroy_cq(cq)));
	say("dereg_mr", "%s", res(ibv_dereg_mr(mr)));
	say("close_device", "%s", res(ibv_close_device(ctx)));
	return 0;
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: cq_mr_probe errnos|write|ioctl|pin|rereg|churn|events|mmap|revoke DEV [ARG]\n");
		return 2;
	}
	dev_name = argv[2];
	if (!strcmp(argv[1], "errnos"))
		return probe_errnos();
	if (!strcmp(argv[1], "write"))
		return probe_write();
	if (!strcmp(argv[1], "ioctl"))
		return probe_ioctl();
	if (!strcmp(argv[1], "pin") && argc == 4)
		return probe_pin(strtoul(argv[3], NULL, 0));
	if (!strcmp(argv[1], "rereg"))
		return probe_rereg();
	if (!strcmp(argv[1], "churn") && argc == 4)
		return probe_churn(atoi(argv[3]));
	if (!strcmp(argv[1], "events"))
		return probe_events();
	if (!strcmp(argv[1], "revoke"))
		return probe_revoke();
	if (!strcmp(argv[1], "mmap"))
		return probe_mmap();
	fprintf(stderr, "cq_mr_probe: unknown probe %s\n", argv[1]);
	return 2;
}
