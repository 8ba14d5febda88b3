// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * uverbs_abuse: send malformed input to a uverbs character device and print
 * one line per case, "CASE_NAME RESULT", where RESULT is OK, the errno name
 * of the failure, or one of:
 *   BADVAL      the call succeeded but returned an unexpected value
 *   SHORTRET    write() returned a byte count other than the one written
 *   SETUP_<E>   a well-formed preparatory call failed with <E>, so the case
 *               itself could not run
 * Run on the stock and on our stack; the two outputs are compared.
 *
 * No libibverbs: raw write() and ioctl(RDMA_VERBS_IOCTL) with the target
 * kernel's UAPI headers.  Every case that depends on per-file state uses a
 * fresh open() of the device.  Bad pointers point into a PROT_NONE page, so
 * a fault is certain and never hits our own memory.
 *
 *   uverbs_abuse [/dev/infiniband/uverbsN]     (default uverbs0)
 *
 * Exits 0 once every case has printed, 2 if the device cannot be opened;
 * SIGALRM ends it after 300 s should a call hang.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <rdma/ib_user_verbs.h>
#include <rdma/ib_user_ioctl_cmds.h>
#include <rdma/ib_user_ioctl_verbs.h>
#include <rdma/rdma_user_ioctl.h>
#include <rdma/rdma_user_ioctl_cmds.h>

#include "uverbs_ioctl.h"

#define R_BADVAL	(-1)
#define R_SHORTRET	(-2)
#define R_SETUP_BASE	(-1000)
#define R_SETUP(e)	(R_SETUP_BASE - (e))

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define PTR(p) ((__u64)(uintptr_t)(p))

/* A user address the kernel must refuse (above TASK_SIZE on x86-64). */
#define KERNEL_PTR 0xffff888000000000ULL

static const char *dev_path = "/dev/infiniband/uverbs0";
static long page_size;
static char *guard;	/* a PROT_NONE page */
static char *edge;	/* a RW page that ends where guard begins */
static char *big;	/* a large RW buffer */
#define BIG_LEN (1024 * 1024)

/* ------------------------------------------------------------------------ */
/* output                                                                    */

static const struct {
	int num;
	const char *name;
} errnames[] = {
#define E(x) { x, #x }
	E(EPERM), E(ENOENT), E(ESRCH), E(EINTR), E(EIO), E(ENXIO), E(E2BIG),
	E(ENOEXEC), E(EBADF), E(ECHILD), E(EAGAIN), E(ENOMEM), E(EACCES),
	E(EFAULT), E(EBUSY), E(EEXIST), E(EXDEV), E(ENODEV), E(ENOTDIR),
	E(EISDIR), E(EINVAL), E(ENFILE), E(EMFILE), E(ENOTTY), E(EFBIG),
	E(ENOSPC), E(ESPIPE), E(EROFS), E(EMLINK), E(EPIPE), E(EDOM),
	E(ERANGE), E(EDEADLK), E(ENAMETOOLONG), E(ENOLCK), E(ENOSYS),
	E(ENOTEMPTY), E(ELOOP), E(ENOMSG), E(EIDRM), E(ENOSTR), E(ENODATA),
	E(ETIME), E(ENOSR), E(ENOLINK), E(EPROTO), E(EBADMSG), E(EOVERFLOW),
	E(EILSEQ), E(EUSERS), E(ENOTSOCK), E(EDESTADDRREQ), E(EMSGSIZE),
	E(EPROTOTYPE), E(ENOPROTOOPT), E(EPROTONOSUPPORT),
	E(ESOCKTNOSUPPORT), E(EOPNOTSUPP), E(EPFNOSUPPORT), E(EAFNOSUPPORT),
	E(EADDRINUSE), E(EADDRNOTAVAIL), E(ENETDOWN), E(ENETUNREACH),
	E(ENETRESET), E(ECONNABORTED), E(ECONNRESET), E(ENOBUFS), E(EISCONN),
	E(ENOTCONN), E(ETIMEDOUT), E(ECONNREFUSED), E(EHOSTDOWN),
	E(EHOSTUNREACH), E(EALREADY), E(EINPROGRESS), E(ESTALE), E(EDQUOT),
	E(ECANCELED), E(EOWNERDEAD), E(ENOTRECOVERABLE), E(ERFKILL),
	E(EHWPOISON),
#undef E
};

static void errno_name(int e, char *buf, size_t len)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(errnames); i++) {
		if (errnames[i].num == e) {
			snprintf(buf, len, "%s", errnames[i].name);
			return;
		}
	}
	snprintf(buf, len, "E%d", e);
}

static void report(const char *name, int rc)
{
	char buf[64];

	if (rc == 0)
		snprintf(buf, sizeof(buf), "OK");
	else if (rc == R_BADVAL)
		snprintf(buf, sizeof(buf), "BADVAL");
	else if (rc == R_SHORTRET)
		snprintf(buf, sizeof(buf), "SHORTRET");
	else if (rc <= R_SETUP_BASE) {
		char e[32];

		errno_name(R_SETUP_BASE - rc, e, sizeof(e));
		snprintf(buf, sizeof(buf), "SETUP_%s", e);
	} else if (rc > 0)
		errno_name(rc, buf, sizeof(buf));
	else
		snprintf(buf, sizeof(buf), "R%d", rc);
	printf("%s %s\n", name, buf);
	fflush(stdout);
}

/* A preparatory step's result, reported as SETUP_<E> if it failed. */
static int setup_rc(int rc)
{
	if (rc > 0)
		return R_SETUP(rc);
	if (rc == R_SHORTRET || rc == R_BADVAL)
		return R_SETUP(EPROTO);
	return rc;
}

/* ------------------------------------------------------------------------ */
/* device files and the write() path                                         */

struct ctx {
	int fd;
	int async_fd;
};

static int dev_open(int flags)
{
	return open(dev_path, flags | O_CLOEXEC);
}

static int xwrite(int fd, const void *buf, size_t len)
{
	ssize_t r = write(fd, buf, len);

	if (r < 0)
		return errno;
	if ((size_t)r != len)
		return R_SHORTRET;
	return 0;
}

/* A legacy command: header, then the request; in_words from its length. */
static int cmd_write(int fd, __u32 command, const void *req, size_t req_len,
		     __u16 out_words)
{
	__u64 buf[64] = { 0 };
	struct ib_uverbs_cmd_hdr hdr = {
		.command = command,
		.in_words = (sizeof(hdr) + req_len) / 4,
		.out_words = out_words,
	};

	memcpy(buf, &hdr, sizeof(hdr));
	memcpy((char *)buf + sizeof(hdr), req, req_len);
	return xwrite(fd, buf, sizeof(hdr) + req_len);
}

struct exreq {
	__u32 command;
	__u16 in_words;		/* 8-byte units */
	__u16 out_words;	/* 8-byte units */
	__u64 response;
	__u16 provider_in_words;
	__u16 provider_out_words;
	__u32 cmd_hdr_reserved;
	const void *body;	/* what follows the two headers */
	size_t body_len;
};

static int ex_write(int fd, const struct exreq *r)
{
	__u64 buf[64] = { 0 };
	struct ib_uverbs_cmd_hdr hdr = {
		.command = r->command,
		.in_words = r->in_words,
		.out_words = r->out_words,
	};
	struct ib_uverbs_ex_cmd_hdr ex = {
		.response = r->response,
		.provider_in_words = r->provider_in_words,
		.provider_out_words = r->provider_out_words,
		.cmd_hdr_reserved = r->cmd_hdr_reserved,
	};

	memcpy(buf, &hdr, sizeof(hdr));
	memcpy((char *)buf + sizeof(hdr), &ex, sizeof(ex));
	if (r->body_len)
		memcpy((char *)buf + sizeof(hdr) + sizeof(ex), r->body,
		       r->body_len);
	return xwrite(fd, buf, sizeof(hdr) + sizeof(ex) + r->body_len);
}

/* Only ever close what looks like a new fd, never stdio or the device. */
static int async_fd_ok(int fd, int async_fd)
{
	return async_fd > 2 && async_fd != fd;
}

static int get_context(int fd, int *async_fd)
{
	struct ib_uverbs_get_context_resp resp;
	struct ib_uverbs_get_context req = { .response = PTR(&resp) };
	int rc;

	memset(&resp, 0, sizeof(resp));
	rc = cmd_write(fd, IB_USER_VERBS_CMD_GET_CONTEXT, &req, sizeof(req),
		       sizeof(resp) / 4);
	if (!rc && !async_fd_ok(fd, (int)resp.async_fd))
		return R_BADVAL;
	if (!rc && async_fd)
		*async_fd = (int)resp.async_fd;
	else if (!rc)
		close((int)resp.async_fd);
	return rc;
}

/* Fresh fd, with a context if asked; 0 or a SETUP_ result. */
static int ctx_open(struct ctx *c, int with_context)
{
	int rc;

	c->async_fd = -1;
	c->fd = dev_open(O_RDWR);
	if (c->fd < 0)
		return R_SETUP(errno);
	if (!with_context)
		return 0;
	rc = get_context(c->fd, &c->async_fd);
	if (rc) {
		close(c->fd);
		c->fd = -1;
		return setup_rc(rc);
	}
	return 0;
}

static void ctx_close(struct ctx *c)
{
	if (c->async_fd >= 0)
		close(c->async_fd);
	if (c->fd >= 0)
		close(c->fd);
	c->fd = c->async_fd = -1;
}

static int alloc_pd(int fd, __u32 *handle)
{
	struct ib_uverbs_alloc_pd_resp resp;
	struct ib_uverbs_alloc_pd req = { .response = PTR(&resp) };
	int rc;

	memset(&resp, 0, sizeof(resp));
	rc = cmd_write(fd, IB_USER_VERBS_CMD_ALLOC_PD, &req, sizeof(req),
		       sizeof(resp) / 4);
	if (!rc && handle)
		*handle = resp.pd_handle;
	return rc;
}

static int dealloc_pd(int fd, __u32 handle)
{
	struct ib_uverbs_dealloc_pd req = { .pd_handle = handle };

	return cmd_write(fd, IB_USER_VERBS_CMD_DEALLOC_PD, &req, sizeof(req),
			 0);
}

/* ------------------------------------------------------------------------ */
/* the ioctl() path                                                          */

/* An inline 64-bit constant (UVERBS_ATTR_CONST_IN / FLAGS_IN). */
static struct ib_uverbs_attr *io_const(struct ib_uverbs_ioctl_hdr *h,
				       __u16 attr_id, __u64 val)
{
	return io_attr(h, attr_id, sizeof(__u64), val);
}

static struct ib_uverbs_attr *io_ptr(struct ib_uverbs_ioctl_hdr *h,
				     __u16 attr_id, const void *p, size_t len)
{
	return io_attr(h, attr_id, (__u16)len, PTR(p));
}

static int io_send(int fd, void *h)
{
	return ioctl(fd, RDMA_VERBS_IOCTL, h) ? errno : 0;
}

/* One ioctl on a fresh fd (with or without a context). */
static int io_fresh(struct ib_uverbs_ioctl_hdr *h, int with_context)
{
	struct ctx c;
	int rc = ctx_open(&c, with_context);

	if (rc)
		return rc;
	rc = io_send(c.fd, h);
	ctx_close(&c);
	return rc;
}

static int info_handles(int fd, __u16 object_id, __u32 *total)
{
	struct uverbs_ioreq r;
	struct ib_uverbs_ioctl_hdr *h = io_init(&r, UVERBS_OBJECT_DEVICE,
						UVERBS_METHOD_INFO_HANDLES);
	__u32 list[64], tot = 0xffffffff;
	int rc;

	io_const(h, UVERBS_ATTR_INFO_OBJECT_ID, object_id);
	io_ptr(h, UVERBS_ATTR_INFO_TOTAL_HANDLES, &tot, sizeof(tot));
	io_ptr(h, UVERBS_ATTR_INFO_HANDLES_LIST, list, sizeof(list));
	rc = io_send(fd, h);
	if (!rc)
		*total = tot;
	return rc;
}

/* ======================================================================== */
/* write() cases                                                             */

static void write_cases(void)
{
	struct ib_uverbs_cmd_hdr hdr;
	__u64 buf[64];
	struct ctx c;
	int rc, rc2, fd;

	/* count < sizeof(struct ib_uverbs_cmd_hdr) */
	if (!(rc = ctx_open(&c, 0))) {
		memset(buf, 0, sizeof(buf));
		rc = xwrite(c.fd, buf, 4);
		ctx_close(&c);
	}
	report("W_SHORT_WRITE_4", rc);

	if (!(rc = ctx_open(&c, 0))) {
		rc = xwrite(c.fd, buf, 0);
		ctx_close(&c);
	}
	report("W_ZERO_WRITE", rc);

	/* header read faults: the whole buffer is in the PROT_NONE page */
	if (!(rc = ctx_open(&c, 0))) {
		rc = xwrite(c.fd, guard, 16);
		ctx_close(&c);
	}
	report("W_HDR_FAULT", rc);

	/* GET_CONTEXT, in_words*4 != count */
	if (!(rc = ctx_open(&c, 0))) {
		struct ib_uverbs_get_context_resp resp;
		struct ib_uverbs_get_context req = { .response = PTR(&resp) };

		hdr = (struct ib_uverbs_cmd_hdr){
			.command = IB_USER_VERBS_CMD_GET_CONTEXT,
			.in_words = 3,
			.out_words = sizeof(resp) / 4,
		};
		memcpy(buf, &hdr, sizeof(hdr));
		memcpy((char *)buf + sizeof(hdr), &req, sizeof(req));
		rc = xwrite(c.fd, buf, sizeof(hdr) + sizeof(req));
		ctx_close(&c);
	}
	report("W_IN_WORDS_MISMATCH", rc);

	/* GET_CONTEXT with only the header: count < req_size + hdr */
	if (!(rc = ctx_open(&c, 0))) {
		hdr = (struct ib_uverbs_cmd_hdr){
			.command = IB_USER_VERBS_CMD_GET_CONTEXT,
			.in_words = sizeof(hdr) / 4,
			.out_words = 2,
		};
		rc = xwrite(c.fd, &hdr, sizeof(hdr));
		ctx_close(&c);
	}
	report("W_GET_CONTEXT_NO_BODY", rc);

	/* header fine, request body in the PROT_NONE page */
	if (!(rc = ctx_open(&c, 0))) {
		hdr = (struct ib_uverbs_cmd_hdr){
			.command = IB_USER_VERBS_CMD_GET_CONTEXT,
			.in_words = 4,
			.out_words = 2,
		};
		memcpy(guard - sizeof(hdr), &hdr, sizeof(hdr));
		rc = xwrite(c.fd, guard - sizeof(hdr), 16);
		ctx_close(&c);
	}
	report("W_BODY_FAULT", rc);

	/* unknown command numbers */
	if (!(rc = ctx_open(&c, 0))) {
		__u64 z = 0;

		rc = cmd_write(c.fd, 200, &z, sizeof(z), 0);
		ctx_close(&c);
	}
	report("W_UNKNOWN_CMD_200", rc);

	if (!(rc = ctx_open(&c, 0))) {
		__u64 z = 0;

		rc = cmd_write(c.fd, 0x40000000u | IB_USER_VERBS_CMD_GET_CONTEXT,
			       &z, sizeof(z), 2);
		ctx_close(&c);
	}
	report("W_CMD_UNKNOWN_FLAG_BITS", rc);

	/* REG_SMR has never had a handler; in range of the table */
	if (!(rc = ctx_open(&c, 1))) {
		__u64 z[4] = { 0 };

		rc = cmd_write(c.fd, IB_USER_VERBS_CMD_REG_SMR, z, sizeof(z), 0);
		ctx_close(&c);
	}
	report("W_CMD_REG_SMR_NEVER_IMPLEMENTED", rc);

	/* OPEN_XRCD: rxe has no XRC domains */
	if (!(rc = ctx_open(&c, 1))) {
		struct ib_uverbs_open_xrcd_resp resp;
		struct ib_uverbs_open_xrcd req = {
			.response = PTR(&resp), .fd = (__u32)-1,
		};

		rc = cmd_write(c.fd, IB_USER_VERBS_CMD_OPEN_XRCD, &req,
			       sizeof(req), sizeof(resp) / 4);
		ctx_close(&c);
	}
	report("W_OPEN_XRCD_UNSUPPORTED", rc);

	/* GET_CONTEXT: out_words smaller than the response */
	if (!(rc = ctx_open(&c, 0))) {
		struct ib_uverbs_get_context_resp resp;
		struct ib_uverbs_get_context req = { .response = PTR(&resp) };

		rc = cmd_write(c.fd, IB_USER_VERBS_CMD_GET_CONTEXT, &req,
			       sizeof(req), 1);
		ctx_close(&c);
	}
	report("W_GET_CONTEXT_OUT_WORDS_1", rc);

	/* GET_CONTEXT: response pointer NULL / in the PROT_NONE page; a
	 * later well-formed GET_CONTEXT on the same fd must still work */
	if (!(rc = ctx_open(&c, 0))) {
		struct ib_uverbs_get_context req = { .response = 0 };

		rc = cmd_write(c.fd, IB_USER_VERBS_CMD_GET_CONTEXT, &req,
			       sizeof(req), 2);
		report("W_GET_CONTEXT_NULL_RESP", rc);
		req.response = PTR(guard);
		rc = cmd_write(c.fd, IB_USER_VERBS_CMD_GET_CONTEXT, &req,
			       sizeof(req), 2);
		report("W_GET_CONTEXT_FAULT_RESP", rc);
		rc = get_context(c.fd, &c.async_fd);
		report("W_GET_CONTEXT_AFTER_EFAULT", rc);
		ctx_close(&c);
	} else {
		report("W_GET_CONTEXT_NULL_RESP", rc);
		report("W_GET_CONTEXT_FAULT_RESP", rc);
		report("W_GET_CONTEXT_AFTER_EFAULT", rc);
	}

	/* GET_CONTEXT with trailing driver data (rxe ignores it) */
	if (!(rc = ctx_open(&c, 0))) {
		struct ib_uverbs_get_context_resp resp[4];
		__u64 req[4] = { PTR(resp), 1, 2, 3 };

		rc = cmd_write(c.fd, IB_USER_VERBS_CMD_GET_CONTEXT, req,
			       sizeof(req), sizeof(resp) / 4);
		if (!rc && async_fd_ok(c.fd, (int)resp[0].async_fd))
			close((int)resp[0].async_fd);
		else if (!rc)
			rc = R_BADVAL;
		ctx_close(&c);
	}
	report("W_GET_CONTEXT_DRIVER_DATA", rc);

	/* GET_CONTEXT twice on one fd */
	if (!(rc = ctx_open(&c, 0))) {
		rc = get_context(c.fd, &c.async_fd);
		report("W_GET_CONTEXT_FIRST", rc);
		rc2 = get_context(c.fd, NULL);
		report("W_GET_CONTEXT_SECOND", rc2);
		/* the failed second one must not have broken the first */
		rc = rc ? setup_rc(rc) : alloc_pd(c.fd, NULL);
		report("W_GET_CONTEXT_SECOND_THEN_ALLOC_PD", rc);
		ctx_close(&c);
	} else {
		report("W_GET_CONTEXT_FIRST", rc);
		report("W_GET_CONTEXT_SECOND", rc);
		report("W_GET_CONTEXT_SECOND_THEN_ALLOC_PD", rc);
	}

	/* commands needing a context, without one */
	if (!(rc = ctx_open(&c, 0))) {
		struct ib_uverbs_query_device_resp resp;
		struct ib_uverbs_query_device req = { .response = PTR(&resp) };

		rc = cmd_write(c.fd, IB_USER_VERBS_CMD_QUERY_DEVICE, &req,
			       sizeof(req), sizeof(resp) / 4);
		ctx_close(&c);
	}
	report("W_QUERY_DEVICE_NO_CONTEXT", rc);

	if (!(rc = ctx_open(&c, 0))) {
		rc = alloc_pd(c.fd, NULL);
		ctx_close(&c);
	}
	report("W_ALLOC_PD_NO_CONTEXT", rc);

	if (!(rc = ctx_open(&c, 0))) {
		rc = dealloc_pd(c.fd, 0);
		ctx_close(&c);
	}
	report("W_DEALLOC_PD_NO_CONTEXT", rc);

	/* QUERY_DEVICE: well formed, and with out_words one short */
	if (!(rc = ctx_open(&c, 1))) {
		struct ib_uverbs_query_device_resp resp;
		struct ib_uverbs_query_device req = { .response = PTR(&resp) };

		rc = cmd_write(c.fd, IB_USER_VERBS_CMD_QUERY_DEVICE, &req,
			       sizeof(req), sizeof(resp) / 4);
		report("W_QUERY_DEVICE", rc);
		if (!rc && resp.phys_port_cnt != 1)
			rc = R_BADVAL;
		report("W_QUERY_DEVICE_PHYS_PORT_CNT_1", rc);
		rc = cmd_write(c.fd, IB_USER_VERBS_CMD_QUERY_DEVICE, &req,
			       sizeof(req), sizeof(resp) / 4 - 1);
		report("W_QUERY_DEVICE_OUT_SHORT", rc);
		ctx_close(&c);
	} else {
		report("W_QUERY_DEVICE", rc);
		report("W_QUERY_DEVICE_PHYS_PORT_CNT_1", rc);
		report("W_QUERY_DEVICE_OUT_SHORT", rc);
	}

	/* QUERY_PORT on ports 1, 0, 2 */
	if (!(rc = ctx_open(&c, 1))) {
		static const struct {
			const char *name;
			__u8 port;
		} q[] = {
			{ "W_QUERY_PORT_1", 1 },
			{ "W_QUERY_PORT_0", 0 },
			{ "W_QUERY_PORT_2", 2 },
			{ "W_QUERY_PORT_255", 255 },
		};
		size_t i;

		for (i = 0; i < ARRAY_SIZE(q); i++) {
			struct ib_uverbs_query_port_resp resp;
			struct ib_uverbs_query_port req = {
				.response = PTR(&resp), .port_num = q[i].port,
			};

			rc = cmd_write(c.fd, IB_USER_VERBS_CMD_QUERY_PORT, &req,
				       sizeof(req), sizeof(resp) / 4);
			report(q[i].name, rc);
		}
		ctx_close(&c);
	} else {
		report("W_QUERY_PORT_1", rc);
		report("W_QUERY_PORT_0", rc);
		report("W_QUERY_PORT_2", rc);
		report("W_QUERY_PORT_255", rc);
	}

	/* ALLOC_PD whose response cannot be written: the PD must be undone */
	if (!(rc = ctx_open(&c, 1))) {
		struct ib_uverbs_alloc_pd req = { .response = 0 };
		__u32 total;

		rc = cmd_write(c.fd, IB_USER_VERBS_CMD_ALLOC_PD, &req,
			       sizeof(req), 1);
		report("W_ALLOC_PD_NULL_RESP", rc);
		req.response = PTR(guard);
		rc = cmd_write(c.fd, IB_USER_VERBS_CMD_ALLOC_PD, &req,
			       sizeof(req), 1);
		report("W_ALLOC_PD_FAULT_RESP", rc);
		req.response = KERNEL_PTR;
		rc = cmd_write(c.fd, IB_USER_VERBS_CMD_ALLOC_PD, &req,
			       sizeof(req), 1);
		report("W_ALLOC_PD_KERNEL_RESP", rc);
		rc = info_handles(c.fd, UVERBS_OBJECT_PD, &total);
		if (!rc && total != 0)
			rc = R_BADVAL;
		report("W_ALLOC_PD_EFAULT_LEAVES_NO_PD", rc);
		ctx_close(&c);
	} else {
		report("W_ALLOC_PD_NULL_RESP", rc);
		report("W_ALLOC_PD_FAULT_RESP", rc);
		report("W_ALLOC_PD_KERNEL_RESP", rc);
		report("W_ALLOC_PD_EFAULT_LEAVES_NO_PD", rc);
	}

	/* ALLOC_PD with out_words 0 */
	if (!(rc = ctx_open(&c, 1))) {
		__u32 resp;
		struct ib_uverbs_alloc_pd req = { .response = PTR(&resp) };

		rc = cmd_write(c.fd, IB_USER_VERBS_CMD_ALLOC_PD, &req,
			       sizeof(req), 0);
		ctx_close(&c);
	}
	report("W_ALLOC_PD_OUT_WORDS_0", rc);

	/* DEALLOC_PD of handles never allocated */
	if (!(rc = ctx_open(&c, 1))) {
		rc = dealloc_pd(c.fd, 0);
		report("W_DEALLOC_PD_NEVER_ALLOCATED_0", rc);
		rc = dealloc_pd(c.fd, 12345);
		report("W_DEALLOC_PD_NEVER_ALLOCATED_12345", rc);
		rc = dealloc_pd(c.fd, 0xffffffffu);
		report("W_DEALLOC_PD_HANDLE_U32_MAX", rc);
		ctx_close(&c);
	} else {
		report("W_DEALLOC_PD_NEVER_ALLOCATED_0", rc);
		report("W_DEALLOC_PD_NEVER_ALLOCATED_12345", rc);
		report("W_DEALLOC_PD_HANDLE_U32_MAX", rc);
	}

	/* DEALLOC_PD twice */
	if (!(rc = ctx_open(&c, 1))) {
		__u32 h = 0;

		rc = alloc_pd(c.fd, &h);
		report("W_ALLOC_PD", rc);
		rc = rc ? setup_rc(rc) : dealloc_pd(c.fd, h);
		report("W_DEALLOC_PD_FIRST", rc);
		rc = rc ? setup_rc(rc) : dealloc_pd(c.fd, h);
		report("W_DEALLOC_PD_SECOND", rc);
		ctx_close(&c);
	} else {
		report("W_ALLOC_PD", rc);
		report("W_DEALLOC_PD_FIRST", rc);
		report("W_DEALLOC_PD_SECOND", rc);
	}

	/* DEALLOC_PD with a longer request: trailing zeros are accepted,
	 * anything else is refused */
	if (!(rc = ctx_open(&c, 1))) {
		__u32 h = 0;
		__u32 req[3] = { 0 };

		rc = alloc_pd(c.fd, &h);
		if (!rc) {
			req[0] = h;
			req[2] = 0x5a5a5a5a;
			rc = cmd_write(c.fd, IB_USER_VERBS_CMD_DEALLOC_PD, req,
				       sizeof(req), 0);
			report("W_DEALLOC_PD_TRAILING_NONZERO", rc);
			req[2] = 0;
			rc = cmd_write(c.fd, IB_USER_VERBS_CMD_DEALLOC_PD, req,
				       sizeof(req), 0);
			report("W_DEALLOC_PD_TRAILING_ZERO", rc);
		} else {
			report("W_DEALLOC_PD_TRAILING_NONZERO", setup_rc(rc));
			report("W_DEALLOC_PD_TRAILING_ZERO", setup_rc(rc));
		}
		ctx_close(&c);
	} else {
		report("W_DEALLOC_PD_TRAILING_NONZERO", rc);
		report("W_DEALLOC_PD_TRAILING_ZERO", rc);
	}

	/* DESTROY_CQ written as 16 bytes: the kernel's compat path for
	 * rdma-core v18/v19 takes it as 24 (the rest read from our zeroed
	 * buffer: cq_handle 0, which does not exist on a fresh fd) */
	if (!(rc = ctx_open(&c, 1))) {
		struct ib_uverbs_destroy_cq_resp resp;

		memset(buf, 0, sizeof(buf));
		hdr = (struct ib_uverbs_cmd_hdr){
			.command = IB_USER_VERBS_CMD_DESTROY_CQ,
			.in_words = 4,
			.out_words = sizeof(resp) / 4,
		};
		memcpy(buf, &hdr, sizeof(hdr));
		buf[1] = PTR(&resp);
		rc = xwrite(c.fd, buf, 16);
		ctx_close(&c);
	}
	report("W_DESTROY_CQ_16_BYTES_COMPAT", rc);

	/* DESTROY_CQ 12 bytes: no compat for that */
	if (!(rc = ctx_open(&c, 1))) {
		memset(buf, 0, sizeof(buf));
		hdr = (struct ib_uverbs_cmd_hdr){
			.command = IB_USER_VERBS_CMD_DESTROY_CQ,
			.in_words = 3,
			.out_words = 2,
		};
		memcpy(buf, &hdr, sizeof(hdr));
		rc = xwrite(c.fd, buf, 12);
		ctx_close(&c);
	}
	report("W_DESTROY_CQ_12_BYTES", rc);

	/* write() with a NULL buffer */
	if (!(rc = ctx_open(&c, 0))) {
		rc = xwrite(c.fd, NULL, 8);
		ctx_close(&c);
	}
	report("W_NULL_BUFFER", rc);

	/* read() on the uverbs fd: it has no read method */
	if (!(rc = ctx_open(&c, 1))) {
		ssize_t n = read(c.fd, buf, sizeof(buf));

		rc = n < 0 ? errno : R_BADVAL;
		ctx_close(&c);
	}
	report("W_READ_UVERBS_FD", rc);

	/* write() on an O_RDONLY fd */
	fd = dev_open(O_RDONLY);
	if (fd >= 0) {
		struct ib_uverbs_get_context_resp resp;
		struct ib_uverbs_get_context req = { .response = PTR(&resp) };

		rc = cmd_write(fd, IB_USER_VERBS_CMD_GET_CONTEXT, &req,
			       sizeof(req), 2);
		close(fd);
	} else {
		rc = R_SETUP(errno);
	}
	report("W_WRITE_RDONLY_FD", rc);

	/* mmap() of the uverbs fd without a context */
	if (!(rc = ctx_open(&c, 0))) {
		void *p = mmap(NULL, page_size, PROT_READ, MAP_SHARED, c.fd, 0);

		if (p == MAP_FAILED) {
			rc = errno;
		} else {
			munmap(p, page_size);
			rc = 0;
		}
		ctx_close(&c);
	}
	report("W_MMAP_NO_CONTEXT", rc);

	/* the async event fd: nothing queued, so a non-blocking read has
	 * nothing to give */
	if (!(rc = ctx_open(&c, 1))) {
		struct ib_uverbs_async_event_desc ev;
		ssize_t n;

		if (fcntl(c.async_fd, F_SETFL, O_NONBLOCK)) {
			rc = R_SETUP(errno);
		} else {
			n = read(c.async_fd, &ev, sizeof(ev));
			rc = n < 0 ? errno : R_BADVAL;
		}
		ctx_close(&c);
	}
	report("W_ASYNC_FD_READ_NONBLOCK", rc);
}

/* ======================================================================== */
/* extended write() cases                                                    */

static void write_ex_cases(void)
{
	const __u32 qd = IB_USER_VERBS_CMD_FLAG_EXTENDED |
			 IB_USER_VERBS_EX_CMD_QUERY_DEVICE;
	struct ib_uverbs_ex_query_device req = { 0 };
	struct ib_uverbs_ex_query_device_resp resp;
	const __u16 ow = (sizeof(resp) + 7) / 8;
	struct exreq r;
	struct ctx c;
	int rc;

#define EXREQ_QD()                                                            \
	((struct exreq){ .command = qd, .in_words = sizeof(req) / 8,          \
			 .out_words = ow, .response = PTR(&resp),             \
			 .body = &req, .body_len = sizeof(req) })

	/* only the legacy header, no ex header */
	if (!(rc = ctx_open(&c, 1))) {
		struct ib_uverbs_cmd_hdr hdr = {
			.command = qd, .in_words = 1, .out_words = ow,
		};

		rc = xwrite(c.fd, &hdr, sizeof(hdr));
		ctx_close(&c);
	}
	report("X_NO_EX_HDR", rc);

	static const struct {
		const char *name;
		int with_context;
		int variant;
	} cases[] = {
		{ "X_QUERY_DEVICE", 1, 0 },
		{ "X_QUERY_DEVICE_NO_CONTEXT", 0, 0 },
		{ "X_RESERVED_NONZERO", 1, 1 },
		{ "X_IN_WORDS_TOO_BIG", 1, 2 },
		{ "X_IN_WORDS_0_WITH_BODY", 1, 3 },
		{ "X_PROVIDER_IN_WORDS_NOT_SENT", 1, 4 },
		{ "X_RESPONSE_WITHOUT_OUT_WORDS", 1, 5 },
		{ "X_OUT_WORDS_WITHOUT_RESPONSE", 1, 6 },
		{ "X_PROVIDER_OUT_WORDS_WITHOUT_RESPONSE", 1, 7 },
		{ "X_RESPONSE_KERNEL_PTR", 1, 8 },
		{ "X_RESPONSE_FAULT", 1, 9 },
		{ "X_RESP_LEN_0_NULL", 1, 10 },
		{ "X_RESP_LEN_1_WORD", 1, 11 },
		{ "X_RESP_LEN_HUGE", 1, 12 },
		{ "X_RESP_LEN_HUGE_SHORT_BUFFER", 1, 13 },
		{ "X_COMP_MASK_NONZERO", 1, 14 },
		{ "X_REQ_RESERVED_NONZERO", 1, 15 },
		{ "X_IN_WORDS_0_NO_BODY", 1, 16 },
		{ "X_LONGER_REQ_TRAILING_NONZERO", 1, 17 },
		{ "X_LONGER_REQ_TRAILING_ZERO", 1, 18 },
		{ "X_PROVIDER_IN_WORDS_1", 1, 19 },
		{ "X_PROVIDER_OUT_WORDS_1", 1, 20 },
		{ "X_UNKNOWN_EX_CMD_200", 1, 21 },
		{ "X_UNKNOWN_EX_CMD_50", 1, 22 },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		struct ib_uverbs_ex_query_device xreq = { 0 };
		__u64 body[3] = { 0 };

		rc = ctx_open(&c, cases[i].with_context);
		if (rc) {
			report(cases[i].name, rc);
			continue;
		}
		memset(&resp, 0, sizeof(resp));
		r = EXREQ_QD();
		switch (cases[i].variant) {
		case 0:
			break;
		case 1:
			r.cmd_hdr_reserved = 1;
			break;
		case 2:
			r.in_words = 2;
			break;
		case 3:
			r.in_words = 0;
			break;
		case 4:
			r.provider_in_words = 1;
			break;
		case 5:
			r.out_words = 0;
			break;
		case 6:
			r.response = 0;
			break;
		case 7:
			r.response = 0;
			r.out_words = 0;
			r.provider_out_words = 1;
			break;
		case 8:
			r.response = KERNEL_PTR;
			break;
		case 9:
			r.response = PTR(guard);
			break;
		case 10:
			r.response = 0;
			r.out_words = 0;
			break;
		case 11:
			r.out_words = 1;
			break;
		case 12:
			r.response = PTR(big);
			r.out_words = 0xffff;
			break;
		case 13:
			/* resp fits before the guard page, the rest does not */
			r.response = PTR(edge);
			r.out_words = 0xffff;
			break;
		case 14:
			xreq.comp_mask = 1;
			r.body = &xreq;
			break;
		case 15:
			xreq.reserved = 1;
			r.body = &xreq;
			break;
		case 16:
			r.in_words = 0;
			r.body_len = 0;
			break;
		case 17:
			body[2] = 1;
			r.body = body;
			r.body_len = sizeof(body);
			r.in_words = sizeof(body) / 8;
			break;
		case 18:
			r.body = body;
			r.body_len = sizeof(body);
			r.in_words = sizeof(body) / 8;
			break;
		case 19:
			r.body = body;
			r.body_len = 16;
			r.provider_in_words = 1;
			break;
		case 20:
			r.provider_out_words = 1;
			break;
		case 21:
			r.command = IB_USER_VERBS_CMD_FLAG_EXTENDED | 200;
			break;
		case 22:
			r.command = IB_USER_VERBS_CMD_FLAG_EXTENDED |
				    IB_USER_VERBS_EX_CMD_CREATE_FLOW;
			break;
		}
		rc = ex_write(c.fd, &r);
		if (cases[i].variant == 0 && !rc &&
		    resp.response_length != sizeof(resp))
			rc = R_BADVAL;
		report(cases[i].name, rc);
		ctx_close(&c);
	}

	/* the extended flag on a command that has no extended form: the
	 * request is laid out as an extended one */
	if (!(rc = ctx_open(&c, 1))) {
		r = EXREQ_QD();
		r.command = IB_USER_VERBS_CMD_FLAG_EXTENDED |
			    IB_USER_VERBS_CMD_ALLOC_PD;
		rc = ex_write(c.fd, &r);
		ctx_close(&c);
	}
	report("X_EX_FLAG_ON_ALLOC_PD", rc);
#undef EXREQ_QD
}

/* ======================================================================== */
/* ioctl() cases                                                             */

static void ioctl_cases(void)
{
	struct ib_uverbs_query_port_resp_ex presp;
	struct ib_uverbs_gid_entry gent, gtab[64];
	__u64 nent;
	struct ib_uverbs_ioctl_hdr *h;
	struct ib_uverbs_attr *a;
	struct uverbs_ioreq r;
	struct ctx c;
	int rc;

#define QUERY_PORT(port)                                                       \
	do {                                                                   \
		h = io_init(&r, UVERBS_OBJECT_DEVICE,                          \
			    UVERBS_METHOD_QUERY_PORT);                         \
		io_const(h, UVERBS_ATTR_QUERY_PORT_PORT_NUM, (port));          \
		io_ptr(h, UVERBS_ATTR_QUERY_PORT_RESP, &presp, sizeof(presp)); \
	} while (0)

	/* an ioctl number other than RDMA_VERBS_IOCTL */
	if (!(rc = ctx_open(&c, 1))) {
		QUERY_PORT(1);
		rc = ioctl(c.fd, _IOWR(RDMA_IOCTL_MAGIC, 2,
				       struct ib_uverbs_ioctl_hdr), h) ? errno : 0;
		report("I_WRONG_IOCTL_NR", rc);
		rc = ioctl(c.fd, _IOR(RDMA_IOCTL_MAGIC, 1,
				      struct ib_uverbs_ioctl_hdr), h) ? errno : 0;
		report("I_WRONG_IOCTL_DIR", rc);
		rc = ioctl(c.fd, FIONREAD, &rc) ? errno : 0;
		report("I_FIONREAD", rc);
		ctx_close(&c);
	} else {
		report("I_WRONG_IOCTL_NR", rc);
		report("I_WRONG_IOCTL_DIR", rc);
		report("I_FIONREAD", rc);
	}

	/* the reference: QUERY_PORT 1 with a context */
	QUERY_PORT(1);
	report("I_QUERY_PORT_1", io_fresh(h, 1));
	QUERY_PORT(1);
	report("I_QUERY_PORT_NO_CONTEXT", io_fresh(h, 0));

	/* header */
	if (!(rc = ctx_open(&c, 1))) {
		rc = ioctl(c.fd, RDMA_VERBS_IOCTL, NULL) ? errno : 0;
		ctx_close(&c);
	}
	report("I_HDR_NULL", rc);

	if (!(rc = ctx_open(&c, 1))) {
		rc = ioctl(c.fd, RDMA_VERBS_IOCTL, guard - 8) ? errno : 0;
		ctx_close(&c);
	}
	report("I_HDR_FAULT", rc);

	QUERY_PORT(1);
	h->length -= 1;
	report("I_HDR_LENGTH_SHORT_BY_1", io_fresh(h, 1));
	QUERY_PORT(1);
	h->length = 0;
	report("I_HDR_LENGTH_0", io_fresh(h, 1));
	QUERY_PORT(1);
	h->length += sizeof(struct ib_uverbs_attr);
	report("I_HDR_LENGTH_ONE_ATTR_TOO_MANY", io_fresh(h, 1));
	QUERY_PORT(1);
	h->num_attrs = 3;
	report("I_HDR_NUM_ATTRS_GT_LENGTH", io_fresh(h, 1));
	QUERY_PORT(1);
	h->num_attrs = 300;
	h->length = sizeof(*h) + 300 * sizeof(struct ib_uverbs_attr);
	report("I_HDR_LENGTH_GT_PAGE", io_fresh(h, 1));

	/* num_attrs/length agree, but the attributes run into PROT_NONE */
	{
		size_t sz = sizeof(*h) + 2 * sizeof(struct ib_uverbs_attr);
		struct ib_uverbs_ioctl_hdr *g;

		QUERY_PORT(1);
		g = (struct ib_uverbs_ioctl_hdr *)(guard - sz);
		memcpy(g, h, sz);
		g->num_attrs = 4;
		g->length = sizeof(*h) + 4 * sizeof(struct ib_uverbs_attr);
		report("I_ATTRS_PAST_BUFFER", io_fresh(g, 1));
	}

	QUERY_PORT(1);
	h->reserved1 = 1;
	report("I_HDR_RESERVED1", io_fresh(h, 1));
	QUERY_PORT(1);
	h->reserved2 = 1;
	report("I_HDR_RESERVED2", io_fresh(h, 1));
	QUERY_PORT(1);
	h->driver_id = RDMA_DRIVER_MLX5;
	report("I_HDR_DRIVER_ID_MLX5", io_fresh(h, 1));
	QUERY_PORT(1);
	h->driver_id = RDMA_DRIVER_UNKNOWN;
	report("I_HDR_DRIVER_ID_UNKNOWN", io_fresh(h, 1));

	/* objects and methods */
	QUERY_PORT(1);
	h->object_id = 200;
	report("I_UNKNOWN_OBJECT_200", io_fresh(h, 1));
	QUERY_PORT(1);
	h->object_id = UVERBS_ID_NS_MASK | 1;
	report("I_UNKNOWN_DRIVER_OBJECT", io_fresh(h, 1));
	QUERY_PORT(1);
	h->method_id = 100;
	report("I_DEVICE_UNKNOWN_METHOD_100", io_fresh(h, 1));
	QUERY_PORT(1);
	h->object_id = UVERBS_OBJECT_PD;
	h->method_id = UVERBS_METHOD_PD_DESTROY + 1;
	report("I_PD_UNKNOWN_METHOD", io_fresh(h, 1));
	QUERY_PORT(1);
	h->object_id = UVERBS_OBJECT_XRCD;
	h->method_id = UVERBS_METHOD_XRCD_DESTROY;
	report("I_XRCD_DESTROY_UNSUPPORTED", io_fresh(h, 1));

	/* attributes */
	QUERY_PORT(1);
	io_const(h, 50, 0);
	report("I_UNKNOWN_ATTR_OPTIONAL", io_fresh(h, 1));
	QUERY_PORT(1);
	a = io_const(h, 50, 0);
	a->flags = UVERBS_ATTR_F_MANDATORY;
	report("I_UNKNOWN_ATTR_MANDATORY", io_fresh(h, 1));
	QUERY_PORT(1);
	a = io_const(h, UVERBS_ATTR_UHW_IN, 0);
	a->flags = UVERBS_ATTR_F_MANDATORY;
	report("I_UHW_IN_ON_METHOD_WITHOUT_UHW_MANDATORY", io_fresh(h, 1));
	QUERY_PORT(1);
	h->attrs[0].flags = 0xfffc;
	report("I_ATTR_UNKNOWN_FLAG_BITS", io_fresh(h, 1));
	QUERY_PORT(1);
	h->attrs[1].flags = UVERBS_ATTR_F_VALID_OUTPUT;
	report("I_ATTR_VALID_OUTPUT_FROM_USER", io_fresh(h, 1));

	h = io_init(&r, UVERBS_OBJECT_DEVICE, UVERBS_METHOD_QUERY_PORT);
	io_ptr(h, UVERBS_ATTR_QUERY_PORT_RESP, &presp, sizeof(presp));
	report("I_QUERY_PORT_MISSING_PORT_NUM", io_fresh(h, 1));
	h = io_init(&r, UVERBS_OBJECT_DEVICE, UVERBS_METHOD_QUERY_PORT);
	io_const(h, UVERBS_ATTR_QUERY_PORT_PORT_NUM, 1);
	report("I_QUERY_PORT_MISSING_RESP", io_fresh(h, 1));
	h = io_init(&r, UVERBS_OBJECT_DEVICE, UVERBS_METHOD_QUERY_PORT);
	report("I_QUERY_PORT_NO_ATTRS", io_fresh(h, 1));

	QUERY_PORT(1);
	h->attrs[0].len = 4;
	report("I_CONST_LEN_4", io_fresh(h, 1));
	{
		__u64 v[2] = { 1, 0 };

		QUERY_PORT(1);
		h->attrs[0].len = sizeof(v);
		h->attrs[0].data = PTR(v);
		report("I_CONST_LEN_16", io_fresh(h, 1));
	}
	QUERY_PORT(1);
	h->attrs[1].len = 8;
	report("I_PTR_OUT_TOO_SHORT", io_fresh(h, 1));
	QUERY_PORT(1);
	h->attrs[1].len = 0;
	report("I_PTR_OUT_LEN_0", io_fresh(h, 1));
	QUERY_PORT(1);
	h->attrs[1].len = offsetof(struct ib_uverbs_query_port_resp_ex,
				   reserved);
	report("I_PTR_OUT_WITHOUT_RESERVED", io_fresh(h, 1));
	QUERY_PORT(1);
	h->attrs[1].len = 4096;
	h->attrs[1].data = PTR(big);
	report("I_PTR_OUT_OVERSIZED", io_fresh(h, 1));
	QUERY_PORT(1);
	h->attrs[1].data = PTR(guard);
	report("I_PTR_OUT_FAULT", io_fresh(h, 1));
	QUERY_PORT(1);
	h->attrs[1].data = 0;
	report("I_PTR_OUT_NULL", io_fresh(h, 1));
	QUERY_PORT(1);
	h->attrs[1].attr_data.reserved = 1;
	report("I_PTR_ATTR_RESERVED_NONZERO", io_fresh(h, 1));
	QUERY_PORT(1);
	h->attrs[0].attr_data.reserved = 1;
	report("I_CONST_ATTR_RESERVED_NONZERO", io_fresh(h, 1));
	QUERY_PORT(1);
	io_const(h, UVERBS_ATTR_QUERY_PORT_PORT_NUM, 1);
	report("I_DUPLICATE_ATTR", io_fresh(h, 1));
	QUERY_PORT(1);
	io_ptr(h, UVERBS_ATTR_QUERY_PORT_RESP, &presp, sizeof(presp));
	report("I_DUPLICATE_PTR_ATTR", io_fresh(h, 1));

	QUERY_PORT(0);
	report("I_QUERY_PORT_0", io_fresh(h, 1));
	QUERY_PORT(2);
	report("I_QUERY_PORT_2", io_fresh(h, 1));
	QUERY_PORT(255);
	report("I_QUERY_PORT_255", io_fresh(h, 1));
	QUERY_PORT(256);
	report("I_QUERY_PORT_256_OVER_U8", io_fresh(h, 1));
	QUERY_PORT(0x101);
	report("I_QUERY_PORT_0X101", io_fresh(h, 1));

	/* QUERY_CONTEXT: rxe has no query_ucontext */
	h = io_init(&r, UVERBS_OBJECT_DEVICE, UVERBS_METHOD_QUERY_CONTEXT);
	report("I_QUERY_CONTEXT", io_fresh(h, 1));
	h = io_init(&r, UVERBS_OBJECT_DEVICE, UVERBS_METHOD_QUERY_CONTEXT);
	report("I_QUERY_CONTEXT_NO_CONTEXT", io_fresh(h, 0));

	/* GET_CONTEXT through ioctl, on a fresh fd and on one that has one */
	{
		__u32 ncomp = 0;
		__u64 core = 0;

		h = io_init(&r, UVERBS_OBJECT_DEVICE,
			    UVERBS_METHOD_GET_CONTEXT);
		io_ptr(h, UVERBS_ATTR_GET_CONTEXT_NUM_COMP_VECTORS, &ncomp,
		       sizeof(ncomp));
		io_ptr(h, UVERBS_ATTR_GET_CONTEXT_CORE_SUPPORT, &core,
		       sizeof(core));
		if (!(rc = ctx_open(&c, 0))) {
			rc = io_send(c.fd, h);
			report("I_GET_CONTEXT", rc);
			report("I_GET_CONTEXT_AGAIN", io_send(c.fd, h));
			report("I_GET_CONTEXT_THEN_WRITE_GET_CONTEXT",
			       get_context(c.fd, NULL));
			ctx_close(&c);
		} else {
			report("I_GET_CONTEXT", rc);
			report("I_GET_CONTEXT_AGAIN", rc);
			report("I_GET_CONTEXT_THEN_WRITE_GET_CONTEXT", rc);
		}
		report("I_GET_CONTEXT_AFTER_WRITE_GET_CONTEXT",
		       io_fresh(h, 1));
		h->attrs[0].len = 8;
		report("I_GET_CONTEXT_NUM_COMP_LEN_8", io_fresh(h, 0));
	}

	/* QUERY_GID_TABLE */
#define GID_TABLE(esz, n)                                                      \
	do {                                                                   \
		h = io_init(&r, UVERBS_OBJECT_DEVICE,                          \
			    UVERBS_METHOD_QUERY_GID_TABLE);                    \
		io_const(h, UVERBS_ATTR_QUERY_GID_TABLE_ENTRY_SIZE, (esz));    \
		io_ptr(h, UVERBS_ATTR_QUERY_GID_TABLE_RESP_ENTRIES, gtab,      \
		       (n) * (esz));                                           \
		io_ptr(h, UVERBS_ATTR_QUERY_GID_TABLE_RESP_NUM_ENTRIES, &nent, \
		       sizeof(nent));                                          \
	} while (0)

	nent = 0;
	GID_TABLE(sizeof(gent), ARRAY_SIZE(gtab));
	rc = io_fresh(h, 1);
	if (!rc && (nent < 2 || nent > ARRAY_SIZE(gtab)))
		rc = R_BADVAL;
	report("I_GID_TABLE_64_ENTRIES", rc);
	GID_TABLE(sizeof(gent), 1);
	report("I_GID_TABLE_1_ENTRY", io_fresh(h, 1));
	GID_TABLE(sizeof(gent), ARRAY_SIZE(gtab));
	io_const(h, UVERBS_ATTR_QUERY_GID_TABLE_FLAGS, 1);
	report("I_GID_TABLE_FLAGS_1", io_fresh(h, 1));
	GID_TABLE(sizeof(gent), ARRAY_SIZE(gtab));
	io_attr(h, UVERBS_ATTR_QUERY_GID_TABLE_FLAGS, 4, 0);
	report("I_GID_TABLE_FLAGS_0_LEN_4", io_fresh(h, 1));
	GID_TABLE(sizeof(gent), ARRAY_SIZE(gtab));
	io_attr(h, UVERBS_ATTR_QUERY_GID_TABLE_FLAGS, 2, 0);
	report("I_GID_TABLE_FLAGS_LEN_2", io_fresh(h, 1));
	GID_TABLE(sizeof(gent), ARRAY_SIZE(gtab));
	h->attrs[0].data = 0;
	report("I_GID_TABLE_ENTRY_SIZE_0", io_fresh(h, 1));
	GID_TABLE(sizeof(gent), 1);
	h->attrs[0].data = sizeof(gent) + 1;
	report("I_GID_TABLE_ENTRY_SIZE_GT_BUFFER", io_fresh(h, 1));
	GID_TABLE(8, ARRAY_SIZE(gtab));
	report("I_GID_TABLE_ENTRY_SIZE_8", io_fresh(h, 1));
	GID_TABLE(sizeof(gent) + 8, ARRAY_SIZE(gtab) / 2);
	report("I_GID_TABLE_ENTRY_SIZE_40", io_fresh(h, 1));
	GID_TABLE(sizeof(gent), ARRAY_SIZE(gtab));
	h->attrs[1].len = 0;
	report("I_GID_TABLE_BUFFER_LEN_0", io_fresh(h, 1));
	GID_TABLE(sizeof(gent), ARRAY_SIZE(gtab));
	h->attrs[2].len = 4;
	report("I_GID_TABLE_NUM_ENTRIES_LEN_4", io_fresh(h, 1));
	GID_TABLE(sizeof(gent), ARRAY_SIZE(gtab));
	h->attrs[1].data = PTR(guard);
	report("I_GID_TABLE_ENTRIES_FAULT", io_fresh(h, 1));
	GID_TABLE(sizeof(gent), ARRAY_SIZE(gtab));
	h->num_attrs = 2;
	h->length -= sizeof(struct ib_uverbs_attr);
	report("I_GID_TABLE_MISSING_NUM_ENTRIES", io_fresh(h, 1));
	GID_TABLE(sizeof(gent), ARRAY_SIZE(gtab));
	report("I_GID_TABLE_NO_CONTEXT", io_fresh(h, 0));
#undef GID_TABLE

	/* QUERY_GID_ENTRY */
#define GID_ENTRY(port, index, flags)                                          \
	do {                                                                   \
		h = io_init(&r, UVERBS_OBJECT_DEVICE,                          \
			    UVERBS_METHOD_QUERY_GID_ENTRY);                    \
		io_const(h, UVERBS_ATTR_QUERY_GID_ENTRY_PORT, (port));         \
		io_const(h, UVERBS_ATTR_QUERY_GID_ENTRY_GID_INDEX, (index));   \
		io_const(h, UVERBS_ATTR_QUERY_GID_ENTRY_FLAGS, (flags));       \
		io_ptr(h, UVERBS_ATTR_QUERY_GID_ENTRY_RESP_ENTRY, &gent,       \
		       sizeof(gent));                                          \
	} while (0)

	memset(&gent, 0xa5, sizeof(gent));
	GID_ENTRY(1, 0, 0);
	rc = io_fresh(h, 1);
	if (!rc && (gent.gid_index != 0 || gent.port_num != 1))
		rc = R_BADVAL;
	report("I_GID_ENTRY_1_0", rc);
	GID_ENTRY(1, 1000, 0);
	report("I_GID_ENTRY_EMPTY_1000", io_fresh(h, 1));
	GID_ENTRY(1, 1023, 0);
	report("I_GID_ENTRY_EMPTY_1023", io_fresh(h, 1));
	GID_ENTRY(1, 1024, 0);
	report("I_GID_ENTRY_1024_OUT_OF_RANGE", io_fresh(h, 1));
	GID_ENTRY(1, 5000, 0);
	report("I_GID_ENTRY_5000_OUT_OF_RANGE", io_fresh(h, 1));
	GID_ENTRY(1, 0xffffffffu, 0);
	report("I_GID_ENTRY_U32_MAX", io_fresh(h, 1));
	GID_ENTRY(1, 0x100000000ull, 0);
	report("I_GID_ENTRY_INDEX_OVER_U32", io_fresh(h, 1));
	GID_ENTRY(0, 0, 0);
	report("I_GID_ENTRY_PORT_0", io_fresh(h, 1));
	GID_ENTRY(2, 0, 0);
	report("I_GID_ENTRY_PORT_2", io_fresh(h, 1));
	GID_ENTRY(1, 0, 1);
	report("I_GID_ENTRY_FLAGS_1", io_fresh(h, 1));
	GID_ENTRY(1, 0, 0);
	h->num_attrs = 2;
	h->length -= 2 * sizeof(struct ib_uverbs_attr);
	io_ptr(h, UVERBS_ATTR_QUERY_GID_ENTRY_RESP_ENTRY, &gent, sizeof(gent));
	report("I_GID_ENTRY_MISSING_FLAGS", io_fresh(h, 1));
	GID_ENTRY(1, 0, 0);
	h->attrs[3].len = offsetof(struct ib_uverbs_gid_entry, netdev_ifindex);
	report("I_GID_ENTRY_RESP_SHORT", io_fresh(h, 1));
	GID_ENTRY(1, 0, 0);
	h->attrs[3].len = sizeof(gent) + 32;
	h->attrs[3].data = PTR(big);
	report("I_GID_ENTRY_RESP_OVERSIZED", io_fresh(h, 1));
	GID_ENTRY(1, 0, 0);
	report("I_GID_ENTRY_NO_CONTEXT", io_fresh(h, 0));
#undef GID_ENTRY

	/* INVOKE_WRITE */
	{
		struct ib_uverbs_query_device_resp dresp;
		__u64 zero[2] = { 0 };

#define INVOKE(cmd, inlen, outlen)                                             \
	do {                                                                   \
		h = io_init(&r, UVERBS_OBJECT_DEVICE,                          \
			    UVERBS_METHOD_INVOKE_WRITE);                       \
		io_const(h, UVERBS_ATTR_WRITE_CMD, (cmd));                     \
		io_attr(h, UVERBS_ATTR_CORE_IN, (inlen),                       \
			(inlen) > 8 ? PTR(zero) : 0);                          \
		io_ptr(h, UVERBS_ATTR_CORE_OUT, &dresp, (outlen));             \
	} while (0)

		INVOKE(IB_USER_VERBS_CMD_QUERY_DEVICE, 8, sizeof(dresp));
		report("I_INVOKE_WRITE_QUERY_DEVICE", io_fresh(h, 1));
		INVOKE(IB_USER_VERBS_CMD_QUERY_DEVICE, 8, sizeof(dresp));
		report("I_INVOKE_WRITE_QUERY_DEVICE_NO_CONTEXT",
		       io_fresh(h, 0));
		INVOKE(IB_USER_VERBS_CMD_QUERY_DEVICE, 8, sizeof(dresp) - 8);
		report("I_INVOKE_WRITE_OUT_SHORT", io_fresh(h, 1));
		INVOKE(IB_USER_VERBS_CMD_QUERY_DEVICE, 4, sizeof(dresp));
		report("I_INVOKE_WRITE_IN_SHORT", io_fresh(h, 1));
		INVOKE(IB_USER_VERBS_CMD_QUERY_DEVICE, 16, sizeof(dresp));
		h->attrs[1].data = PTR(guard);
		report("I_INVOKE_WRITE_IN_FAULT", io_fresh(h, 1));
		INVOKE(200, 8, sizeof(dresp));
		report("I_INVOKE_WRITE_UNKNOWN_CMD_200", io_fresh(h, 1));
		INVOKE(IB_USER_VERBS_CMD_REG_SMR, 8, sizeof(dresp));
		report("I_INVOKE_WRITE_REG_SMR", io_fresh(h, 1));
		INVOKE(0x40000000u | IB_USER_VERBS_CMD_QUERY_DEVICE, 8,
		       sizeof(dresp));
		report("I_INVOKE_WRITE_CMD_FLAG_BITS", io_fresh(h, 1));
		INVOKE(0x100000000ull, 8, sizeof(dresp));
		report("I_INVOKE_WRITE_CMD_OVER_U32", io_fresh(h, 1));
		INVOKE(IB_USER_VERBS_CMD_FLAG_EXTENDED |
			       IB_USER_VERBS_EX_CMD_QUERY_DEVICE,
		       8, sizeof(dresp));
		report("I_INVOKE_WRITE_EX_QUERY_DEVICE", io_fresh(h, 1));
		INVOKE(IB_USER_VERBS_CMD_QUERY_DEVICE, 8, sizeof(dresp));
		h->attrs[0] = h->attrs[2];
		h->num_attrs = 2;
		h->length -= sizeof(struct ib_uverbs_attr);
		report("I_INVOKE_WRITE_MISSING_CMD", io_fresh(h, 1));
#undef INVOKE
	}

	/* INFO_HANDLES */
	{
		__u32 tot, list[4];

		h = io_init(&r, UVERBS_OBJECT_DEVICE,
			    UVERBS_METHOD_INFO_HANDLES);
		io_const(h, UVERBS_ATTR_INFO_OBJECT_ID, 200);
		io_ptr(h, UVERBS_ATTR_INFO_TOTAL_HANDLES, &tot, sizeof(tot));
		io_ptr(h, UVERBS_ATTR_INFO_HANDLES_LIST, list, sizeof(list));
		report("I_INFO_HANDLES_UNKNOWN_OBJECT", io_fresh(h, 1));
		h->attrs[0].data = UVERBS_OBJECT_PD;
		h->attrs[2].len = 6;
		report("I_INFO_HANDLES_LIST_LEN_6", io_fresh(h, 1));
		h->attrs[2].len = 2;
		report("I_INFO_HANDLES_LIST_LEN_2", io_fresh(h, 1));
		h->num_attrs = 2;
		h->length -= sizeof(struct ib_uverbs_attr);
		report("I_INFO_HANDLES_NO_LIST", io_fresh(h, 1));
	}

	/* PD_DESTROY: the only PD method in 6.1 */
#define PD_DESTROY(handle)                                                     \
	do {                                                                   \
		h = io_init(&r, UVERBS_OBJECT_PD, UVERBS_METHOD_PD_DESTROY);   \
		io_attr(h, UVERBS_ATTR_DESTROY_PD_HANDLE, 0, (handle));        \
	} while (0)

	PD_DESTROY(12345);
	report("I_PD_DESTROY_NEVER_ALLOCATED", io_fresh(h, 1));
	PD_DESTROY(0);
	report("I_PD_DESTROY_NO_CONTEXT", io_fresh(h, 0));
	PD_DESTROY((__u64)-1);
	report("I_PD_DESTROY_HANDLE_MINUS_1", io_fresh(h, 1));
	PD_DESTROY(0x100000000ull);
	report("I_PD_DESTROY_HANDLE_2_POW_32", io_fresh(h, 1));
	h = io_init(&r, UVERBS_OBJECT_PD, UVERBS_METHOD_PD_DESTROY);
	report("I_PD_DESTROY_NO_HANDLE", io_fresh(h, 1));

	if (!(rc = ctx_open(&c, 1))) {
		__u32 pd = 0;

		rc = alloc_pd(c.fd, &pd);
		if (!rc) {
			PD_DESTROY(pd);
			h->attrs[0].len = 8;
			report("I_PD_DESTROY_IDR_LEN_8", io_send(c.fd, h));
			PD_DESTROY(pd);
			h->attrs[0].attr_data.reserved = 1;
			report("I_PD_DESTROY_IDR_RESERVED", io_send(c.fd, h));
			PD_DESTROY(pd);
			report("I_PD_DESTROY_FIRST", io_send(c.fd, h));
			report("I_PD_DESTROY_SECOND", io_send(c.fd, h));
			report("I_PD_DESTROY_THEN_WRITE_DEALLOC",
			       dealloc_pd(c.fd, pd));
		} else {
			rc = setup_rc(rc);
			report("I_PD_DESTROY_IDR_LEN_8", rc);
			report("I_PD_DESTROY_IDR_RESERVED", rc);
			report("I_PD_DESTROY_FIRST", rc);
			report("I_PD_DESTROY_SECOND", rc);
			report("I_PD_DESTROY_THEN_WRITE_DEALLOC", rc);
		}
		ctx_close(&c);
	} else {
		report("I_PD_DESTROY_IDR_LEN_8", rc);
		report("I_PD_DESTROY_IDR_RESERVED", rc);
		report("I_PD_DESTROY_FIRST", rc);
		report("I_PD_DESTROY_SECOND", rc);
		report("I_PD_DESTROY_THEN_WRITE_DEALLOC", rc);
	}
#undef PD_DESTROY
#undef QUERY_PORT
}

/* ======================================================================== */
/* lifecycle                                                                 */

static void lifecycle_cases(void)
{
	struct ctx c1, c2;
	__u32 pd[3] = { 0 }, total = 0;
	int rc, i;

	/* handles of a closed fd do not exist on a new one */
	rc = ctx_open(&c1, 1);
	if (!rc) {
		for (i = 0; i < 3 && !rc; i++)
			rc = setup_rc(alloc_pd(c1.fd, &pd[i]));
		ctx_close(&c1);	/* three PDs left for the kernel to free */
	}
	if (!rc)
		rc = ctx_open(&c2, 1);
	if (!rc) {
		report("L_OLD_HANDLE_ON_NEW_FD", dealloc_pd(c2.fd, pd[1]));
		rc = info_handles(c2.fd, UVERBS_OBJECT_PD, &total);
		if (!rc && total != 0)
			rc = R_BADVAL;
		report("L_NEW_FD_HAS_NO_PDS", rc);
		ctx_close(&c2);
	} else {
		report("L_OLD_HANDLE_ON_NEW_FD", rc);
		report("L_NEW_FD_HAS_NO_PDS", rc);
	}

	/* two fds open at once: a handle belongs to its fd only */
	rc = ctx_open(&c1, 1);
	if (!rc) {
		rc = ctx_open(&c2, 1);
		if (rc)
			ctx_close(&c1);
	}
	if (!rc) {
		rc = setup_rc(alloc_pd(c1.fd, &pd[0]));
		if (!rc) {
			report("L_OTHER_FD_DEALLOC", dealloc_pd(c2.fd, pd[0]));
			report("L_OWN_FD_DEALLOC", dealloc_pd(c1.fd, pd[0]));
		} else {
			report("L_OTHER_FD_DEALLOC", rc);
			report("L_OWN_FD_DEALLOC", rc);
		}
		ctx_close(&c2);
		ctx_close(&c1);
	} else {
		report("L_OTHER_FD_DEALLOC", rc);
		report("L_OWN_FD_DEALLOC", rc);
	}

	/* handles are per fd and start from the same place on each */
	rc = ctx_open(&c1, 1);
	if (!rc) {
		rc = ctx_open(&c2, 1);
		if (rc)
			ctx_close(&c1);
	}
	if (!rc) {
		rc = setup_rc(alloc_pd(c1.fd, &pd[0]));
		if (!rc)
			rc = setup_rc(alloc_pd(c2.fd, &pd[1]));
		if (!rc && pd[0] != pd[1])
			rc = R_BADVAL;
		report("L_FIRST_HANDLE_SAME_ON_TWO_FDS", rc);
		ctx_close(&c2);
		ctx_close(&c1);
	} else {
		report("L_FIRST_HANDLE_SAME_ON_TWO_FDS", rc);
	}

	/* the async fd closed first; the context goes on working */
	rc = ctx_open(&c1, 1);
	if (!rc) {
		close(c1.async_fd);
		c1.async_fd = -1;
		rc = alloc_pd(c1.fd, &pd[0]);
		if (!rc)
			rc = dealloc_pd(c1.fd, pd[0]);
		ctx_close(&c1);
	}
	report("L_ASYNC_FD_CLOSED_FIRST", rc);

	/* the uverbs fd closed first; the async fd still reads EAGAIN */
	rc = ctx_open(&c1, 1);
	if (!rc) {
		struct ib_uverbs_async_event_desc ev;
		ssize_t n;

		close(c1.fd);
		c1.fd = -1;
		if (fcntl(c1.async_fd, F_SETFL, O_NONBLOCK)) {
			rc = R_SETUP(errno);
		} else {
			n = read(c1.async_fd, &ev, sizeof(ev));
			rc = n < 0 ? errno : R_BADVAL;
		}
		ctx_close(&c1);
	}
	report("L_UVERBS_FD_CLOSED_FIRST_ASYNC_READ", rc);

	/* many contexts at once */
	{
		struct ctx many[32];
		int n = 0;

		rc = 0;
		for (i = 0; i < (int)ARRAY_SIZE(many) && !rc; i++) {
			rc = ctx_open(&many[i], 1);
			if (!rc) {
				n++;
				rc = alloc_pd(many[i].fd, NULL);
			}
		}
		for (i = 0; i < n; i++)
			ctx_close(&many[i]);
		report("L_32_CONTEXTS_WITH_A_PD_EACH", rc);
	}
}

int main(int argc, char **argv)
{
	int fd;

	if (argc > 1)
		dev_path = argv[1];
	setvbuf(stdout, NULL, _IOLBF, 0);
	alarm(300);	/* a hung call kills us (non-zero exit), not the run */
	page_size = sysconf(_SC_PAGESIZE);

	edge = mmap(NULL, 2 * page_size, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	big = mmap(NULL, BIG_LEN, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (edge == MAP_FAILED || big == MAP_FAILED) {
		perror("mmap");
		return 2;
	}
	guard = edge + page_size;
	if (mprotect(guard, page_size, PROT_NONE)) {
		perror("mprotect");
		return 2;
	}

	fd = dev_open(O_RDWR);
	if (fd < 0) {
		fprintf(stderr, "uverbs_abuse: %s: %s\n", dev_path,
			strerror(errno));
		return 2;
	}
	close(fd);

	write_cases();
	write_ex_cases();
	ioctl_cases();
	lifecycle_cases();
	return 0;
}
