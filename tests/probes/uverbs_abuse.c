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

/*
 * Most write() cases are one write() on a fresh fd: a legacy header
 * (command, in_words, out_words), up to four 8-byte request words, LEN
 * bytes of that written (or LEN bytes from a bad address).  Each row of
 * w_cases is one; a row with .run is a sequence on one fd, or another
 * call than write(), and prints its own lines.  Rows run, and print, in
 * order.
 */
enum w_src {
	W_REQUEST,	/* the header and words of the row */
	W_GUARD,	/* the PROT_NONE page */
	W_NULL,
};

/* A request word that stands for the address of a response buffer. */
#define W_RESP		(~0ULL)

struct w_case {
	const char *name;
	void (*run)(void);
	int with_context;
	enum w_src src;
	__u32 command;
	__u16 in_words;		/* 4-byte units, the header included */
	__u16 out_words;
	__u64 word[4];
	size_t len;
};

static __u64 w_resp[64];	/* larger than any response here */

static void w_case_run(const struct w_case *k)
{
	__u64 buf[64] = { 0 };
	struct ib_uverbs_cmd_hdr hdr = {
		.command = k->command,
		.in_words = k->in_words,
		.out_words = k->out_words,
	};
	const void *src = buf;
	struct ctx c;
	size_t i;
	int rc;

	if (k->run) {
		k->run();
		return;
	}
	memcpy(buf, &hdr, sizeof(hdr));
	for (i = 0; i < ARRAY_SIZE(k->word); i++)
		buf[1 + i] = k->word[i] == W_RESP ? PTR(w_resp) : k->word[i];
	if (k->src == W_GUARD)
		src = guard;
	else if (k->src == W_NULL)
		src = NULL;
	if (!(rc = ctx_open(&c, k->with_context))) {
		rc = xwrite(c.fd, src, k->len);
		ctx_close(&c);
	}
	report(k->name, rc);
}

/* header fine, request body in the PROT_NONE page */
static void w_body_fault(void)
{
	struct ib_uverbs_cmd_hdr hdr;
	struct ctx c;
	int rc;

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
}

/* GET_CONTEXT: response pointer NULL / in the PROT_NONE page; a later
 * well-formed GET_CONTEXT on the same fd must still work */
static void w_get_context_bad_resp(void)
{
	struct ctx c;
	int rc;

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
}

/* GET_CONTEXT with trailing driver data (rxe ignores it) */
static void w_get_context_driver_data(void)
{
	struct ctx c;
	int rc;

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
}

/* GET_CONTEXT twice on one fd */
static void w_get_context_twice(void)
{
	struct ctx c;
	int rc, rc2;

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
}

/* QUERY_DEVICE: well formed, and with out_words one short */
static void w_query_device(void)
{
	struct ctx c;
	int rc;

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
}

/* QUERY_PORT on ports 1, 0, 2, 255 of one fd */
static void w_query_ports(void)
{
	static const struct {
		const char *name;
		__u8 port;
	} q[] = {
		{ "W_QUERY_PORT_1", 1 },
		{ "W_QUERY_PORT_0", 0 },
		{ "W_QUERY_PORT_2", 2 },
		{ "W_QUERY_PORT_255", 255 },
	};
	struct ctx c;
	size_t i;
	int rc = ctx_open(&c, 1);

	for (i = 0; i < ARRAY_SIZE(q); i++) {
		struct ib_uverbs_query_port_resp resp;
		struct ib_uverbs_query_port req = {
			.response = PTR(&resp), .port_num = q[i].port,
		};

		report(q[i].name, rc ? rc :
		       cmd_write(c.fd, IB_USER_VERBS_CMD_QUERY_PORT, &req,
				 sizeof(req), sizeof(resp) / 4));
	}
	if (!rc)
		ctx_close(&c);
}

/* ALLOC_PD whose response cannot be written: the PD must be undone */
static void w_alloc_pd_bad_resp(void)
{
	struct ctx c;
	int rc;

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
}

/* DEALLOC_PD of handles never allocated, on one fd */
static void w_dealloc_pd_never_allocated(void)
{
	static const struct {
		const char *name;
		__u32 handle;
	} q[] = {
		{ "W_DEALLOC_PD_NEVER_ALLOCATED_0", 0 },
		{ "W_DEALLOC_PD_NEVER_ALLOCATED_12345", 12345 },
		{ "W_DEALLOC_PD_HANDLE_U32_MAX", 0xffffffffu },
	};
	struct ctx c;
	size_t i;
	int rc = ctx_open(&c, 1);

	for (i = 0; i < ARRAY_SIZE(q); i++)
		report(q[i].name, rc ? rc : dealloc_pd(c.fd, q[i].handle));
	if (!rc)
		ctx_close(&c);
}

/* DEALLOC_PD twice */
static void w_dealloc_pd_twice(void)
{
	struct ctx c;
	int rc;

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
}

/* DEALLOC_PD with a longer request: trailing zeros are accepted,
 * anything else is refused */
static void w_dealloc_pd_trailing(void)
{
	struct ctx c;
	int rc;

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
}

/* read() on the uverbs fd: it has no read method */
static void w_read_uverbs_fd(void)
{
	__u64 buf[64];
	struct ctx c;
	int rc;

	if (!(rc = ctx_open(&c, 1))) {
		ssize_t n = read(c.fd, buf, sizeof(buf));

		rc = n < 0 ? errno : R_BADVAL;
		ctx_close(&c);
	}
	report("W_READ_UVERBS_FD", rc);
}

/* write() on an O_RDONLY fd */
static void w_write_rdonly_fd(void)
{
	int rc, fd = dev_open(O_RDONLY);

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
}

/* mmap() of the uverbs fd without a context */
static void w_mmap_no_context(void)
{
	struct ctx c;
	int rc;

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
}

/* the async event fd: nothing queued, so a non-blocking read has
 * nothing to give */
static void w_async_fd_read_nonblock(void)
{
	struct ctx c;
	int rc;

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

#define HDR_WORDS	(sizeof(struct ib_uverbs_cmd_hdr) / 4)
#define RESP_WORDS(t)	(sizeof(struct t) / 4)
#define GET_CONTEXT	IB_USER_VERBS_CMD_GET_CONTEXT

static const struct w_case w_cases[] = {
	/* count < sizeof(struct ib_uverbs_cmd_hdr) */
	{ "W_SHORT_WRITE_4", .len = 4 },
	{ "W_ZERO_WRITE", .len = 0 },
	/* header read faults: the whole buffer is in the PROT_NONE page */
	{ "W_HDR_FAULT", .src = W_GUARD, .len = 16 },
	/* GET_CONTEXT, in_words*4 != count */
	{ "W_IN_WORDS_MISMATCH", .command = GET_CONTEXT, .in_words = 3,
	  .out_words = RESP_WORDS(ib_uverbs_get_context_resp),
	  .word = { W_RESP }, .len = 16 },
	/* GET_CONTEXT with only the header: count < req_size + hdr */
	{ "W_GET_CONTEXT_NO_BODY", .command = GET_CONTEXT,
	  .in_words = HDR_WORDS, .out_words = 2, .len = 8 },
	{ .run = w_body_fault },
	/* unknown command numbers */
	{ "W_UNKNOWN_CMD_200", .command = 200, .in_words = 4, .len = 16 },
	{ "W_CMD_UNKNOWN_FLAG_BITS", .command = 0x40000000u | GET_CONTEXT,
	  .in_words = 4, .out_words = 2, .len = 16 },
	/* REG_SMR has never had a handler; in range of the table */
	{ "W_CMD_REG_SMR_NEVER_IMPLEMENTED", .with_context = 1,
	  .command = IB_USER_VERBS_CMD_REG_SMR, .in_words = 10, .len = 40 },
	/* OPEN_XRCD (fd -1): rxe has no XRC domains */
	{ "W_OPEN_XRCD_UNSUPPORTED", .with_context = 1,
	  .command = IB_USER_VERBS_CMD_OPEN_XRCD, .in_words = 6,
	  .out_words = RESP_WORDS(ib_uverbs_open_xrcd_resp),
	  .word = { W_RESP, 0xffffffffu }, .len = 24 },
	/* GET_CONTEXT: out_words smaller than the response */
	{ "W_GET_CONTEXT_OUT_WORDS_1", .command = GET_CONTEXT, .in_words = 4,
	  .out_words = 1, .word = { W_RESP }, .len = 16 },
	{ .run = w_get_context_bad_resp },
	{ .run = w_get_context_driver_data },
	{ .run = w_get_context_twice },
	/* commands needing a context, without one */
	{ "W_QUERY_DEVICE_NO_CONTEXT", .command = IB_USER_VERBS_CMD_QUERY_DEVICE,
	  .in_words = 4, .out_words = RESP_WORDS(ib_uverbs_query_device_resp),
	  .word = { W_RESP }, .len = 16 },
	{ "W_ALLOC_PD_NO_CONTEXT", .command = IB_USER_VERBS_CMD_ALLOC_PD,
	  .in_words = 4, .out_words = RESP_WORDS(ib_uverbs_alloc_pd_resp),
	  .word = { W_RESP }, .len = 16 },
	{ "W_DEALLOC_PD_NO_CONTEXT", .command = IB_USER_VERBS_CMD_DEALLOC_PD,
	  .in_words = 3, .len = 12 },
	{ .run = w_query_device },
	{ .run = w_query_ports },
	{ .run = w_alloc_pd_bad_resp },
	/* ALLOC_PD with out_words 0 */
	{ "W_ALLOC_PD_OUT_WORDS_0", .with_context = 1,
	  .command = IB_USER_VERBS_CMD_ALLOC_PD, .in_words = 4,
	  .word = { W_RESP }, .len = 16 },
	{ .run = w_dealloc_pd_never_allocated },
	{ .run = w_dealloc_pd_twice },
	{ .run = w_dealloc_pd_trailing },
	/* DESTROY_CQ written as 16 bytes: the kernel's compat path for
	 * rdma-core v18/v19 takes it as 24 (the rest read from our zeroed
	 * buffer: cq_handle 0, which does not exist on a fresh fd) */
	{ "W_DESTROY_CQ_16_BYTES_COMPAT", .with_context = 1,
	  .command = IB_USER_VERBS_CMD_DESTROY_CQ, .in_words = 4,
	  .out_words = RESP_WORDS(ib_uverbs_destroy_cq_resp),
	  .word = { W_RESP }, .len = 16 },
	/* DESTROY_CQ 12 bytes: no compat for that */
	{ "W_DESTROY_CQ_12_BYTES", .with_context = 1,
	  .command = IB_USER_VERBS_CMD_DESTROY_CQ, .in_words = 3,
	  .out_words = 2, .len = 12 },
	/* write() with a NULL buffer */
	{ "W_NULL_BUFFER", .src = W_NULL, .len = 8 },
	{ .run = w_read_uverbs_fd },
	{ .run = w_write_rdonly_fd },
	{ .run = w_mmap_no_context },
	{ .run = w_async_fd_read_nonblock },
};

#undef HDR_WORDS
#undef RESP_WORDS
#undef GET_CONTEXT

static void write_cases(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(w_cases); i++)
		w_case_run(&w_cases[i]);
}

/* ======================================================================== */
/* extended write() cases                                                    */

/*
 * Each row: the extended QUERY_DEVICE, well formed (command, in_words for
 * its 8-byte request, out_words for its response, a response pointer),
 * on a fresh fd, then up to three changes to its headers or body.
 */
enum ex_fix_what {
	XF_NONE,
	XF_COMMAND,
	XF_IN_WORDS,
	XF_OUT_WORDS,
	XF_PROVIDER_IN_WORDS,
	XF_PROVIDER_OUT_WORDS,
	XF_CMD_HDR_RESERVED,
	XF_RESPONSE,	/* val: an enum ex_buf */
	XF_BODY,	/* val: an enum ex_buf; the body's length is its size */
	XF_BODY_LEN,
};

enum ex_buf {
	EX_NULL, EX_KERNEL_PTR, EX_GUARD, EX_BIG,
	EX_EDGE,		/* the response fits before the guard page, more does not */
	EX_COMP_MASK_1,		/* the request with comp_mask 1 */
	EX_RESERVED_1,		/* the request with reserved 1 */
	EX_BODY_24,		/* 24 zero bytes */
	EX_BODY_24_NONZERO,	/* 24 bytes, the last 8 nonzero */
};

struct ex_fix {
	enum ex_fix_what what;
	__u64 val;
};

struct ex_case {
	const char *name;
	int no_context;
	int check_length;	/* success must give response_length == sizeof */
	struct ex_fix fix[3];
};

static struct ib_uverbs_ex_query_device_resp ex_resp;
static const struct ib_uverbs_ex_query_device ex_req;
static const struct ib_uverbs_ex_query_device ex_comp_mask_1 = { .comp_mask = 1 };
static const struct ib_uverbs_ex_query_device ex_reserved_1 = { .reserved = 1 };
static const __u64 ex_body_24[3];
static const __u64 ex_body_24_nonzero[3] = { 0, 0, 1 };

static void ex_buf(enum ex_buf b, __u64 *addr, const void **body, size_t *len)
{
	switch (b) {
	case EX_NULL:		*addr = 0; break;
	case EX_KERNEL_PTR:	*addr = KERNEL_PTR; break;
	case EX_GUARD:		*addr = PTR(guard); break;
	case EX_BIG:		*addr = PTR(big); break;
	case EX_EDGE:		*addr = PTR(edge); break;
	case EX_COMP_MASK_1:
		*body = &ex_comp_mask_1;
		*len = sizeof(ex_comp_mask_1);
		break;
	case EX_RESERVED_1:
		*body = &ex_reserved_1;
		*len = sizeof(ex_reserved_1);
		break;
	case EX_BODY_24:
		*body = ex_body_24;
		*len = sizeof(ex_body_24);
		break;
	case EX_BODY_24_NONZERO:
		*body = ex_body_24_nonzero;
		*len = sizeof(ex_body_24_nonzero);
		break;
	}
}

static void ex_apply(struct exreq *r, const struct ex_fix *f)
{
	switch (f->what) {
	case XF_NONE:			break;
	case XF_COMMAND:		r->command = (__u32)f->val; break;
	case XF_IN_WORDS:		r->in_words = (__u16)f->val; break;
	case XF_OUT_WORDS:		r->out_words = (__u16)f->val; break;
	case XF_PROVIDER_IN_WORDS:	r->provider_in_words = (__u16)f->val; break;
	case XF_PROVIDER_OUT_WORDS:	r->provider_out_words = (__u16)f->val; break;
	case XF_CMD_HDR_RESERVED:	r->cmd_hdr_reserved = (__u32)f->val; break;
	case XF_RESPONSE:
		ex_buf((enum ex_buf)f->val, &r->response, NULL, NULL);
		break;
	case XF_BODY:
		ex_buf((enum ex_buf)f->val, NULL, &r->body, &r->body_len);
		break;
	case XF_BODY_LEN:		r->body_len = (size_t)f->val; break;
	}
}

#define XFIX(what, val)	{ (what), (__u64)(val) }
#define EXT(cmd)	(IB_USER_VERBS_CMD_FLAG_EXTENDED | (cmd))

static const struct ex_case ex_cases[] = {
	{ "X_QUERY_DEVICE", .check_length = 1 },
	{ "X_QUERY_DEVICE_NO_CONTEXT", .no_context = 1, .check_length = 1 },
	{ "X_RESERVED_NONZERO", .fix = { XFIX(XF_CMD_HDR_RESERVED, 1) } },
	{ "X_IN_WORDS_TOO_BIG", .fix = { XFIX(XF_IN_WORDS, 2) } },
	{ "X_IN_WORDS_0_WITH_BODY", .fix = { XFIX(XF_IN_WORDS, 0) } },
	{ "X_PROVIDER_IN_WORDS_NOT_SENT",
	  .fix = { XFIX(XF_PROVIDER_IN_WORDS, 1) } },
	{ "X_RESPONSE_WITHOUT_OUT_WORDS", .fix = { XFIX(XF_OUT_WORDS, 0) } },
	{ "X_OUT_WORDS_WITHOUT_RESPONSE",
	  .fix = { XFIX(XF_RESPONSE, EX_NULL) } },
	{ "X_PROVIDER_OUT_WORDS_WITHOUT_RESPONSE",
	  .fix = { XFIX(XF_RESPONSE, EX_NULL), XFIX(XF_OUT_WORDS, 0),
		   XFIX(XF_PROVIDER_OUT_WORDS, 1) } },
	{ "X_RESPONSE_KERNEL_PTR", .fix = { XFIX(XF_RESPONSE, EX_KERNEL_PTR) } },
	{ "X_RESPONSE_FAULT", .fix = { XFIX(XF_RESPONSE, EX_GUARD) } },
	{ "X_RESP_LEN_0_NULL",
	  .fix = { XFIX(XF_RESPONSE, EX_NULL), XFIX(XF_OUT_WORDS, 0) } },
	{ "X_RESP_LEN_1_WORD", .fix = { XFIX(XF_OUT_WORDS, 1) } },
	{ "X_RESP_LEN_HUGE",
	  .fix = { XFIX(XF_RESPONSE, EX_BIG), XFIX(XF_OUT_WORDS, 0xffff) } },
	{ "X_RESP_LEN_HUGE_SHORT_BUFFER",
	  .fix = { XFIX(XF_RESPONSE, EX_EDGE), XFIX(XF_OUT_WORDS, 0xffff) } },
	{ "X_COMP_MASK_NONZERO", .fix = { XFIX(XF_BODY, EX_COMP_MASK_1) } },
	{ "X_REQ_RESERVED_NONZERO", .fix = { XFIX(XF_BODY, EX_RESERVED_1) } },
	{ "X_IN_WORDS_0_NO_BODY",
	  .fix = { XFIX(XF_IN_WORDS, 0), XFIX(XF_BODY_LEN, 0) } },
	{ "X_LONGER_REQ_TRAILING_NONZERO",
	  .fix = { XFIX(XF_BODY, EX_BODY_24_NONZERO), XFIX(XF_IN_WORDS, 3) } },
	{ "X_LONGER_REQ_TRAILING_ZERO",
	  .fix = { XFIX(XF_BODY, EX_BODY_24), XFIX(XF_IN_WORDS, 3) } },
	{ "X_PROVIDER_IN_WORDS_1",
	  .fix = { XFIX(XF_BODY, EX_BODY_24), XFIX(XF_BODY_LEN, 16),
		   XFIX(XF_PROVIDER_IN_WORDS, 1) } },
	{ "X_PROVIDER_OUT_WORDS_1", .fix = { XFIX(XF_PROVIDER_OUT_WORDS, 1) } },
	{ "X_UNKNOWN_EX_CMD_200", .fix = { XFIX(XF_COMMAND, EXT(200)) } },
	{ "X_UNKNOWN_EX_CMD_50",
	  .fix = { XFIX(XF_COMMAND, EXT(IB_USER_VERBS_EX_CMD_CREATE_FLOW)) } },
	/* the extended flag on a command that has no extended form: the
	 * request is laid out as an extended one */
	{ "X_EX_FLAG_ON_ALLOC_PD",
	  .fix = { XFIX(XF_COMMAND, EXT(IB_USER_VERBS_CMD_ALLOC_PD)) } },
};

static void write_ex_cases(void)
{
	const __u32 qd = EXT(IB_USER_VERBS_EX_CMD_QUERY_DEVICE);
	const __u16 ow = (sizeof(ex_resp) + 7) / 8;
	struct exreq r;
	struct ctx c;
	size_t i, j;
	int rc;

	/* only the legacy header, no ex header */
	if (!(rc = ctx_open(&c, 1))) {
		struct ib_uverbs_cmd_hdr hdr = {
			.command = qd, .in_words = 1, .out_words = ow,
		};

		rc = xwrite(c.fd, &hdr, sizeof(hdr));
		ctx_close(&c);
	}
	report("X_NO_EX_HDR", rc);

	for (i = 0; i < ARRAY_SIZE(ex_cases); i++) {
		const struct ex_case *k = &ex_cases[i];

		rc = ctx_open(&c, !k->no_context);
		if (rc) {
			report(k->name, rc);
			continue;
		}
		memset(&ex_resp, 0, sizeof(ex_resp));
		r = (struct exreq){
			.command = qd, .in_words = sizeof(ex_req) / 8,
			.out_words = ow, .response = PTR(&ex_resp),
			.body = &ex_req, .body_len = sizeof(ex_req),
		};
		for (j = 0; j < ARRAY_SIZE(k->fix); j++)
			ex_apply(&r, &k->fix[j]);
		rc = ex_write(c.fd, &r);
		if (k->check_length && !rc &&
		    ex_resp.response_length != sizeof(ex_resp))
			rc = R_BADVAL;
		report(k->name, rc);
		ctx_close(&c);
	}
}

/* ======================================================================== */
/* ioctl() cases                                                             */

/*
 * Most ioctl() cases are one request on a fresh fd: an object and method,
 * its attributes, then up to three changes that make it malformed (struct
 * io_fix).  Each row of io_cases is one such case; a row with .run is a
 * sequence that needs one fd across calls instead, and prints its own
 * lines.  Rows run, and print, in order.
 */

/* Buffers the attributes point at (the kernel writes the responses). */
static struct {
	struct ib_uverbs_query_port_resp_ex presp;
	struct ib_uverbs_gid_entry gtab[64], gent;
	__u64 nent;
	struct ib_uverbs_query_device_resp dresp;
	__u64 zero16[2], const16[2];
	__u32 total, list[4], ncomp;
	__u64 core;
} iob = { .const16 = { 1, 0 } };

/* What an attribute's data is: its value, or the address of a buffer. */
enum io_at {
	AT_VAL, AT_PRESP, AT_GTAB, AT_NENT, AT_GENT, AT_DRESP, AT_ZERO16,
	AT_CONST16, AT_TOTAL, AT_LIST, AT_NCOMP, AT_CORE,
	AT_GUARD,	/* the PROT_NONE page */
	AT_BIG,		/* the large RW buffer */
};

struct io_attr_spec {
	__u16 id;
	__u16 len;
	enum io_at at;
	__u64 val;
};

enum io_fix_what {
	FIX_NONE,
	FIX_LENGTH_ADD,		/* header length += val (mod 2^16) */
	FIX_LENGTH,		/* header length = val */
	FIX_NUM_ATTRS,		/* header num_attrs = val; length as it was */
	FIX_RESERVED1,
	FIX_RESERVED2,
	FIX_DRIVER_ID,
	FIX_OBJECT,
	FIX_METHOD,
	FIX_LEN,		/* attribute i's len = val */
	FIX_DATA,		/* attribute i's data = val */
	FIX_AT,			/* attribute i's data = the address of buffer val */
	FIX_FLAGS,		/* attribute i's flags = val */
	FIX_ATTR_RESERVED,	/* attribute i's attr_data.reserved = val */
};

struct io_fix {
	enum io_fix_what what;
	unsigned int i;
	__u64 val;
};

/* A success that must also have answered sensibly. */
enum io_check {
	CHECK_NONE,
	CHECK_GID_TABLE,	/* between 2 and 64 entries */
	CHECK_GID_ENTRY,	/* the entry of port 1, index 0 */
};

struct io_case {
	const char *name;
	void (*run)(void);
	int no_context;
	__u16 object, method;
	unsigned int nattrs;
	struct io_attr_spec attr[4];
	struct io_fix fix[3];
	enum io_check check;
};

static __u64 io_data(enum io_at at, __u64 val)
{
	switch (at) {
	case AT_VAL:		return val;
	case AT_PRESP:		return PTR(&iob.presp);
	case AT_GTAB:		return PTR(iob.gtab);
	case AT_NENT:		return PTR(&iob.nent);
	case AT_GENT:		return PTR(&iob.gent);
	case AT_DRESP:		return PTR(&iob.dresp);
	case AT_ZERO16:		return PTR(iob.zero16);
	case AT_CONST16:	return PTR(iob.const16);
	case AT_TOTAL:		return PTR(&iob.total);
	case AT_LIST:		return PTR(iob.list);
	case AT_NCOMP:		return PTR(&iob.ncomp);
	case AT_CORE:		return PTR(&iob.core);
	case AT_GUARD:		return PTR(guard);
	case AT_BIG:		return PTR(big);
	}
	return val;
}

static void io_apply(struct ib_uverbs_ioctl_hdr *h, const struct io_fix *f)
{
	struct ib_uverbs_attr *a = &h->attrs[f->i];

	switch (f->what) {
	case FIX_NONE:		break;
	case FIX_LENGTH_ADD:	h->length = (__u16)(h->length + f->val); break;
	case FIX_LENGTH:	h->length = (__u16)f->val; break;
	case FIX_NUM_ATTRS:	h->num_attrs = (__u16)f->val; break;
	case FIX_RESERVED1:	h->reserved1 = f->val; break;
	case FIX_RESERVED2:	h->reserved2 = (__u32)f->val; break;
	case FIX_DRIVER_ID:	h->driver_id = (__u32)f->val; break;
	case FIX_OBJECT:	h->object_id = (__u16)f->val; break;
	case FIX_METHOD:	h->method_id = (__u16)f->val; break;
	case FIX_LEN:		a->len = (__u16)f->val; break;
	case FIX_DATA:		a->data = f->val; break;
	case FIX_AT:		a->data = io_data((enum io_at)f->val, 0); break;
	case FIX_FLAGS:		a->flags = (__u16)f->val; break;
	case FIX_ATTR_RESERVED:	a->attr_data.reserved = (__u16)f->val; break;
	}
}

/* The request of a row, in R; returns its header. */
static struct ib_uverbs_ioctl_hdr *io_build(struct uverbs_ioreq *r,
					    const struct io_case *k)
{
	struct ib_uverbs_ioctl_hdr *h = io_init(r, k->object, k->method);
	unsigned int i;

	for (i = 0; i < k->nattrs; i++)
		io_attr(h, k->attr[i].id, k->attr[i].len,
			io_data(k->attr[i].at, k->attr[i].val));
	for (i = 0; i < ARRAY_SIZE(k->fix); i++)
		io_apply(h, &k->fix[i]);
	return h;
}

static void io_case_run(const struct io_case *k)
{
	struct uverbs_ioreq r;
	struct ib_uverbs_ioctl_hdr *h;
	int rc;

	if (k->run) {
		k->run();
		return;
	}
	h = io_build(&r, k);
	if (k->check == CHECK_GID_TABLE)
		iob.nent = 0;
	if (k->check == CHECK_GID_ENTRY)
		memset(&iob.gent, 0xa5, sizeof(iob.gent));
	rc = io_fresh(h, !k->no_context);
	if (!rc && k->check == CHECK_GID_TABLE &&
	    (iob.nent < 2 || iob.nent > ARRAY_SIZE(iob.gtab)))
		rc = R_BADVAL;
	if (!rc && k->check == CHECK_GID_ENTRY &&
	    (iob.gent.gid_index != 0 || iob.gent.port_num != 1))
		rc = R_BADVAL;
	report(k->name, rc);
}

#define CONST_ATTR(id, v)	{ (id), sizeof(__u64), AT_VAL, (v) }
#define PTR_ATTR(id, at, len)	{ (id), (len), (at), 0 }
#define FIX(what, i, val)	{ (what), (i), (__u64)(val) }
#define DEVICE(m)		.object = UVERBS_OBJECT_DEVICE, .method = (m)
#define ATTR_SIZE		sizeof(struct ib_uverbs_attr)

#define QUERY_PORT_ATTRS(port)                                                 \
	CONST_ATTR(UVERBS_ATTR_QUERY_PORT_PORT_NUM, (port)),                   \
	PTR_ATTR(UVERBS_ATTR_QUERY_PORT_RESP, AT_PRESP, sizeof(iob.presp))
#define QUERY_PORT(port)                                                       \
	DEVICE(UVERBS_METHOD_QUERY_PORT), .nattrs = 2,                         \
	.attr = { QUERY_PORT_ATTRS(port) }

#define GID_TABLE_ATTRS(esz, n)                                                \
	CONST_ATTR(UVERBS_ATTR_QUERY_GID_TABLE_ENTRY_SIZE, (esz)),             \
	PTR_ATTR(UVERBS_ATTR_QUERY_GID_TABLE_RESP_ENTRIES, AT_GTAB,            \
		 (n) * (esz)),                                                 \
	PTR_ATTR(UVERBS_ATTR_QUERY_GID_TABLE_RESP_NUM_ENTRIES, AT_NENT,        \
		 sizeof(iob.nent))
#define GID_TABLE(esz, n)                                                      \
	DEVICE(UVERBS_METHOD_QUERY_GID_TABLE), .nattrs = 3,                    \
	.attr = { GID_TABLE_ATTRS(esz, n) }
#define GID_TABLE_FLAGS(len, v)                                                \
	DEVICE(UVERBS_METHOD_QUERY_GID_TABLE), .nattrs = 4,                    \
	.attr = { GID_TABLE_ATTRS(GENT, 64),                                   \
		  { UVERBS_ATTR_QUERY_GID_TABLE_FLAGS, (len), AT_VAL, (v) } }
#define GENT			sizeof(struct ib_uverbs_gid_entry)

#define GID_ENTRY(port, index, flags)                                          \
	DEVICE(UVERBS_METHOD_QUERY_GID_ENTRY), .nattrs = 4,                    \
	.attr = { CONST_ATTR(UVERBS_ATTR_QUERY_GID_ENTRY_PORT, (port)),        \
		  CONST_ATTR(UVERBS_ATTR_QUERY_GID_ENTRY_GID_INDEX, (index)),  \
		  CONST_ATTR(UVERBS_ATTR_QUERY_GID_ENTRY_FLAGS, (flags)),      \
		  PTR_ATTR(UVERBS_ATTR_QUERY_GID_ENTRY_RESP_ENTRY, AT_GENT,    \
			   GENT) }

/* INVOKE_WRITE of a legacy command: its request (zeros) and response. */
#define INVOKE(cmd, inlen, outlen)                                             \
	DEVICE(UVERBS_METHOD_INVOKE_WRITE), .nattrs = 3,                       \
	.attr = { CONST_ATTR(UVERBS_ATTR_WRITE_CMD, (cmd)),                    \
		  { UVERBS_ATTR_CORE_IN, (inlen),                              \
		    (inlen) > 8 ? AT_ZERO16 : AT_VAL, 0 },                     \
		  PTR_ATTR(UVERBS_ATTR_CORE_OUT, AT_DRESP, (outlen)) }
#define DRESP			sizeof(struct ib_uverbs_query_device_resp)
#define QD			IB_USER_VERBS_CMD_QUERY_DEVICE

#define INFO_HANDLES(object, listlen)                                          \
	DEVICE(UVERBS_METHOD_INFO_HANDLES), .nattrs = 3,                       \
	.attr = { CONST_ATTR(UVERBS_ATTR_INFO_OBJECT_ID, (object)),            \
		  PTR_ATTR(UVERBS_ATTR_INFO_TOTAL_HANDLES, AT_TOTAL,           \
			   sizeof(iob.total)),                                 \
		  PTR_ATTR(UVERBS_ATTR_INFO_HANDLES_LIST, AT_LIST, (listlen)) }

#define PD_DESTROY(handle)                                                     \
	.object = UVERBS_OBJECT_PD, .method = UVERBS_METHOD_PD_DESTROY,        \
	.nattrs = 1,                                                           \
	.attr = { { UVERBS_ATTR_DESTROY_PD_HANDLE, 0, AT_VAL, (handle) } }

#define GET_CONTEXT                                                            \
	DEVICE(UVERBS_METHOD_GET_CONTEXT), .nattrs = 2,                        \
	.attr = { PTR_ATTR(UVERBS_ATTR_GET_CONTEXT_NUM_COMP_VECTORS, AT_NCOMP, \
			   sizeof(iob.ncomp)),                                 \
		  PTR_ATTR(UVERBS_ATTR_GET_CONTEXT_CORE_SUPPORT, AT_CORE,      \
			   sizeof(iob.core)) }

static const struct io_case io_query_port_1 = { QUERY_PORT(1) };
static const struct io_case io_get_context = { GET_CONTEXT };

/* ioctl numbers other than RDMA_VERBS_IOCTL, on one fd */
static void io_wrong_ioctls(void)
{
	struct ib_uverbs_ioctl_hdr *h;
	struct uverbs_ioreq r;
	struct ctx c;
	int rc;

	if (!(rc = ctx_open(&c, 1))) {
		h = io_build(&r, &io_query_port_1);
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
}

/* the header pointer itself bad: NULL, then in the PROT_NONE page */
static void io_hdr_pointers(void)
{
	struct ctx c;
	int rc;

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
}

/* num_attrs and length agree, but the attributes run into PROT_NONE */
static void io_attrs_past_buffer(void)
{
	size_t sz = sizeof(struct ib_uverbs_ioctl_hdr) + 2 * ATTR_SIZE;
	struct ib_uverbs_ioctl_hdr *h, *g;
	struct uverbs_ioreq r;

	h = io_build(&r, &io_query_port_1);
	g = (struct ib_uverbs_ioctl_hdr *)(guard - sz);
	memcpy(g, h, sz);
	g->num_attrs = 4;
	g->length = sizeof(*h) + 4 * ATTR_SIZE;
	report("I_ATTRS_PAST_BUFFER", io_fresh(g, 1));
}

/* GET_CONTEXT through ioctl on a fresh fd, again, then through write() */
static void io_get_context_twice(void)
{
	struct ib_uverbs_ioctl_hdr *h;
	struct uverbs_ioreq r;
	struct ctx c;
	int rc;

	h = io_build(&r, &io_get_context);
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
}

/* PD_DESTROY of a real PD: bad forms of its handle, then twice */
static void io_pd_destroy_real(void)
{
	static const char *const names[] = {
		"I_PD_DESTROY_IDR_LEN_8", "I_PD_DESTROY_IDR_RESERVED",
		"I_PD_DESTROY_FIRST", "I_PD_DESTROY_SECOND",
		"I_PD_DESTROY_THEN_WRITE_DEALLOC",
	};
	struct io_case k = { PD_DESTROY(0) };
	struct ib_uverbs_ioctl_hdr *h;
	struct uverbs_ioreq r;
	struct ctx c;
	__u32 pd = 0;
	size_t i;
	int rc;

	rc = ctx_open(&c, 1);
	if (!rc) {
		rc = setup_rc(alloc_pd(c.fd, &pd));
		if (rc)
			ctx_close(&c);
	}
	if (rc) {
		for (i = 0; i < ARRAY_SIZE(names); i++)
			report(names[i], rc);
		return;
	}
	k.attr[0].val = pd;
	k.fix[0] = (struct io_fix)FIX(FIX_LEN, 0, 8);
	report(names[0], io_send(c.fd, io_build(&r, &k)));
	k.fix[0] = (struct io_fix)FIX(FIX_ATTR_RESERVED, 0, 1);
	report(names[1], io_send(c.fd, io_build(&r, &k)));
	k.fix[0] = (struct io_fix)FIX(FIX_NONE, 0, 0);
	h = io_build(&r, &k);
	report(names[2], io_send(c.fd, h));
	report(names[3], io_send(c.fd, h));
	report(names[4], dealloc_pd(c.fd, pd));
	ctx_close(&c);
}

static const struct io_case io_cases[] = {
	{ .run = io_wrong_ioctls },
	/* the reference: QUERY_PORT 1 with a context */
	{ "I_QUERY_PORT_1", QUERY_PORT(1) },
	{ "I_QUERY_PORT_NO_CONTEXT", .no_context = 1, QUERY_PORT(1) },

	/* header */
	{ .run = io_hdr_pointers },
	{ "I_HDR_LENGTH_SHORT_BY_1", QUERY_PORT(1),
	  .fix = { FIX(FIX_LENGTH_ADD, 0, -1) } },
	{ "I_HDR_LENGTH_0", QUERY_PORT(1), .fix = { FIX(FIX_LENGTH, 0, 0) } },
	{ "I_HDR_LENGTH_ONE_ATTR_TOO_MANY", QUERY_PORT(1),
	  .fix = { FIX(FIX_LENGTH_ADD, 0, ATTR_SIZE) } },
	{ "I_HDR_NUM_ATTRS_GT_LENGTH", QUERY_PORT(1),
	  .fix = { FIX(FIX_NUM_ATTRS, 0, 3) } },
	{ "I_HDR_LENGTH_GT_PAGE", QUERY_PORT(1),
	  .fix = { FIX(FIX_NUM_ATTRS, 0, 300),
		   FIX(FIX_LENGTH, 0, sizeof(struct ib_uverbs_ioctl_hdr) +
				      300 * ATTR_SIZE) } },
	{ .run = io_attrs_past_buffer },
	{ "I_HDR_RESERVED1", QUERY_PORT(1), .fix = { FIX(FIX_RESERVED1, 0, 1) } },
	{ "I_HDR_RESERVED2", QUERY_PORT(1), .fix = { FIX(FIX_RESERVED2, 0, 1) } },
	{ "I_HDR_DRIVER_ID_MLX5", QUERY_PORT(1),
	  .fix = { FIX(FIX_DRIVER_ID, 0, RDMA_DRIVER_MLX5) } },
	{ "I_HDR_DRIVER_ID_UNKNOWN", QUERY_PORT(1),
	  .fix = { FIX(FIX_DRIVER_ID, 0, RDMA_DRIVER_UNKNOWN) } },

	/* objects and methods */
	{ "I_UNKNOWN_OBJECT_200", QUERY_PORT(1),
	  .fix = { FIX(FIX_OBJECT, 0, 200) } },
	{ "I_UNKNOWN_DRIVER_OBJECT", QUERY_PORT(1),
	  .fix = { FIX(FIX_OBJECT, 0, UVERBS_ID_NS_MASK | 1) } },
	{ "I_DEVICE_UNKNOWN_METHOD_100", QUERY_PORT(1),
	  .fix = { FIX(FIX_METHOD, 0, 100) } },
	{ "I_PD_UNKNOWN_METHOD", QUERY_PORT(1),
	  .fix = { FIX(FIX_OBJECT, 0, UVERBS_OBJECT_PD),
		   FIX(FIX_METHOD, 0, UVERBS_METHOD_PD_DESTROY + 1) } },
	{ "I_XRCD_DESTROY_UNSUPPORTED", QUERY_PORT(1),
	  .fix = { FIX(FIX_OBJECT, 0, UVERBS_OBJECT_XRCD),
		   FIX(FIX_METHOD, 0, UVERBS_METHOD_XRCD_DESTROY) } },

	/* attributes */
	{ "I_UNKNOWN_ATTR_OPTIONAL", DEVICE(UVERBS_METHOD_QUERY_PORT),
	  .nattrs = 3, .attr = { QUERY_PORT_ATTRS(1), CONST_ATTR(50, 0) } },
	{ "I_UNKNOWN_ATTR_MANDATORY", DEVICE(UVERBS_METHOD_QUERY_PORT),
	  .nattrs = 3, .attr = { QUERY_PORT_ATTRS(1), CONST_ATTR(50, 0) },
	  .fix = { FIX(FIX_FLAGS, 2, UVERBS_ATTR_F_MANDATORY) } },
	{ "I_UHW_IN_ON_METHOD_WITHOUT_UHW_MANDATORY",
	  DEVICE(UVERBS_METHOD_QUERY_PORT), .nattrs = 3,
	  .attr = { QUERY_PORT_ATTRS(1), CONST_ATTR(UVERBS_ATTR_UHW_IN, 0) },
	  .fix = { FIX(FIX_FLAGS, 2, UVERBS_ATTR_F_MANDATORY) } },
	{ "I_ATTR_UNKNOWN_FLAG_BITS", QUERY_PORT(1),
	  .fix = { FIX(FIX_FLAGS, 0, 0xfffc) } },
	{ "I_ATTR_VALID_OUTPUT_FROM_USER", QUERY_PORT(1),
	  .fix = { FIX(FIX_FLAGS, 1, UVERBS_ATTR_F_VALID_OUTPUT) } },
	{ "I_QUERY_PORT_MISSING_PORT_NUM", DEVICE(UVERBS_METHOD_QUERY_PORT),
	  .nattrs = 1, .attr = { PTR_ATTR(UVERBS_ATTR_QUERY_PORT_RESP, AT_PRESP,
					  sizeof(iob.presp)) } },
	{ "I_QUERY_PORT_MISSING_RESP", DEVICE(UVERBS_METHOD_QUERY_PORT),
	  .nattrs = 1, .attr = { CONST_ATTR(UVERBS_ATTR_QUERY_PORT_PORT_NUM, 1) } },
	{ "I_QUERY_PORT_NO_ATTRS", DEVICE(UVERBS_METHOD_QUERY_PORT) },
	{ "I_CONST_LEN_4", QUERY_PORT(1), .fix = { FIX(FIX_LEN, 0, 4) } },
	{ "I_CONST_LEN_16", QUERY_PORT(1),
	  .fix = { FIX(FIX_LEN, 0, 16), FIX(FIX_AT, 0, AT_CONST16) } },
	{ "I_PTR_OUT_TOO_SHORT", QUERY_PORT(1), .fix = { FIX(FIX_LEN, 1, 8) } },
	{ "I_PTR_OUT_LEN_0", QUERY_PORT(1), .fix = { FIX(FIX_LEN, 1, 0) } },
	{ "I_PTR_OUT_WITHOUT_RESERVED", QUERY_PORT(1),
	  .fix = { FIX(FIX_LEN, 1, offsetof(struct ib_uverbs_query_port_resp_ex,
					    reserved)) } },
	{ "I_PTR_OUT_OVERSIZED", QUERY_PORT(1),
	  .fix = { FIX(FIX_LEN, 1, 4096), FIX(FIX_AT, 1, AT_BIG) } },
	{ "I_PTR_OUT_FAULT", QUERY_PORT(1), .fix = { FIX(FIX_AT, 1, AT_GUARD) } },
	{ "I_PTR_OUT_NULL", QUERY_PORT(1), .fix = { FIX(FIX_DATA, 1, 0) } },
	{ "I_PTR_ATTR_RESERVED_NONZERO", QUERY_PORT(1),
	  .fix = { FIX(FIX_ATTR_RESERVED, 1, 1) } },
	{ "I_CONST_ATTR_RESERVED_NONZERO", QUERY_PORT(1),
	  .fix = { FIX(FIX_ATTR_RESERVED, 0, 1) } },
	{ "I_DUPLICATE_ATTR", DEVICE(UVERBS_METHOD_QUERY_PORT), .nattrs = 3,
	  .attr = { QUERY_PORT_ATTRS(1),
		    CONST_ATTR(UVERBS_ATTR_QUERY_PORT_PORT_NUM, 1) } },
	{ "I_DUPLICATE_PTR_ATTR", DEVICE(UVERBS_METHOD_QUERY_PORT), .nattrs = 3,
	  .attr = { QUERY_PORT_ATTRS(1),
		    PTR_ATTR(UVERBS_ATTR_QUERY_PORT_RESP, AT_PRESP,
			     sizeof(iob.presp)) } },

	{ "I_QUERY_PORT_0", QUERY_PORT(0) },
	{ "I_QUERY_PORT_2", QUERY_PORT(2) },
	{ "I_QUERY_PORT_255", QUERY_PORT(255) },
	{ "I_QUERY_PORT_256_OVER_U8", QUERY_PORT(256) },
	{ "I_QUERY_PORT_0X101", QUERY_PORT(0x101) },

	/* QUERY_CONTEXT: rxe has no query_ucontext */
	{ "I_QUERY_CONTEXT", DEVICE(UVERBS_METHOD_QUERY_CONTEXT) },
	{ "I_QUERY_CONTEXT_NO_CONTEXT", .no_context = 1,
	  DEVICE(UVERBS_METHOD_QUERY_CONTEXT) },

	/* GET_CONTEXT through ioctl, on a fresh fd and on one that has one */
	{ .run = io_get_context_twice },
	{ "I_GET_CONTEXT_AFTER_WRITE_GET_CONTEXT", GET_CONTEXT },
	{ "I_GET_CONTEXT_NUM_COMP_LEN_8", .no_context = 1, GET_CONTEXT,
	  .fix = { FIX(FIX_LEN, 0, 8) } },

	/* QUERY_GID_TABLE */
	{ "I_GID_TABLE_64_ENTRIES", GID_TABLE(GENT, 64),
	  .check = CHECK_GID_TABLE },
	{ "I_GID_TABLE_1_ENTRY", GID_TABLE(GENT, 1) },
	{ "I_GID_TABLE_FLAGS_1", GID_TABLE_FLAGS(sizeof(__u64), 1) },
	{ "I_GID_TABLE_FLAGS_0_LEN_4", GID_TABLE_FLAGS(4, 0) },
	{ "I_GID_TABLE_FLAGS_LEN_2", GID_TABLE_FLAGS(2, 0) },
	{ "I_GID_TABLE_ENTRY_SIZE_0", GID_TABLE(GENT, 64),
	  .fix = { FIX(FIX_DATA, 0, 0) } },
	{ "I_GID_TABLE_ENTRY_SIZE_GT_BUFFER", GID_TABLE(GENT, 1),
	  .fix = { FIX(FIX_DATA, 0, GENT + 1) } },
	{ "I_GID_TABLE_ENTRY_SIZE_8", GID_TABLE(8, 64) },
	{ "I_GID_TABLE_ENTRY_SIZE_40", GID_TABLE(GENT + 8, 32) },
	{ "I_GID_TABLE_BUFFER_LEN_0", GID_TABLE(GENT, 64),
	  .fix = { FIX(FIX_LEN, 1, 0) } },
	{ "I_GID_TABLE_NUM_ENTRIES_LEN_4", GID_TABLE(GENT, 64),
	  .fix = { FIX(FIX_LEN, 2, 4) } },
	{ "I_GID_TABLE_ENTRIES_FAULT", GID_TABLE(GENT, 64),
	  .fix = { FIX(FIX_AT, 1, AT_GUARD) } },
	{ "I_GID_TABLE_MISSING_NUM_ENTRIES", GID_TABLE(GENT, 64),
	  .fix = { FIX(FIX_NUM_ATTRS, 0, 2), FIX(FIX_LENGTH_ADD, 0, -ATTR_SIZE) } },
	{ "I_GID_TABLE_NO_CONTEXT", .no_context = 1, GID_TABLE(GENT, 64) },

	/* QUERY_GID_ENTRY */
	{ "I_GID_ENTRY_1_0", GID_ENTRY(1, 0, 0), .check = CHECK_GID_ENTRY },
	{ "I_GID_ENTRY_EMPTY_1000", GID_ENTRY(1, 1000, 0) },
	{ "I_GID_ENTRY_EMPTY_1023", GID_ENTRY(1, 1023, 0) },
	{ "I_GID_ENTRY_1024_OUT_OF_RANGE", GID_ENTRY(1, 1024, 0) },
	{ "I_GID_ENTRY_5000_OUT_OF_RANGE", GID_ENTRY(1, 5000, 0) },
	{ "I_GID_ENTRY_U32_MAX", GID_ENTRY(1, 0xffffffffu, 0) },
	{ "I_GID_ENTRY_INDEX_OVER_U32", GID_ENTRY(1, 0x100000000ull, 0) },
	{ "I_GID_ENTRY_PORT_0", GID_ENTRY(0, 0, 0) },
	{ "I_GID_ENTRY_PORT_2", GID_ENTRY(2, 0, 0) },
	{ "I_GID_ENTRY_FLAGS_1", GID_ENTRY(1, 0, 1) },
	{ "I_GID_ENTRY_MISSING_FLAGS", DEVICE(UVERBS_METHOD_QUERY_GID_ENTRY),
	  .nattrs = 3,
	  .attr = { CONST_ATTR(UVERBS_ATTR_QUERY_GID_ENTRY_PORT, 1),
		    CONST_ATTR(UVERBS_ATTR_QUERY_GID_ENTRY_GID_INDEX, 0),
		    PTR_ATTR(UVERBS_ATTR_QUERY_GID_ENTRY_RESP_ENTRY, AT_GENT,
			     GENT) } },
	{ "I_GID_ENTRY_RESP_SHORT", GID_ENTRY(1, 0, 0),
	  .fix = { FIX(FIX_LEN, 3, offsetof(struct ib_uverbs_gid_entry,
					    netdev_ifindex)) } },
	{ "I_GID_ENTRY_RESP_OVERSIZED", GID_ENTRY(1, 0, 0),
	  .fix = { FIX(FIX_LEN, 3, GENT + 32), FIX(FIX_AT, 3, AT_BIG) } },
	{ "I_GID_ENTRY_NO_CONTEXT", .no_context = 1, GID_ENTRY(1, 0, 0) },

	/* INVOKE_WRITE */
	{ "I_INVOKE_WRITE_QUERY_DEVICE", INVOKE(QD, 8, DRESP) },
	{ "I_INVOKE_WRITE_QUERY_DEVICE_NO_CONTEXT", .no_context = 1,
	  INVOKE(QD, 8, DRESP) },
	{ "I_INVOKE_WRITE_OUT_SHORT", INVOKE(QD, 8, DRESP - 8) },
	{ "I_INVOKE_WRITE_IN_SHORT", INVOKE(QD, 4, DRESP) },
	{ "I_INVOKE_WRITE_IN_FAULT", INVOKE(QD, 16, DRESP),
	  .fix = { FIX(FIX_AT, 1, AT_GUARD) } },
	{ "I_INVOKE_WRITE_UNKNOWN_CMD_200", INVOKE(200, 8, DRESP) },
	{ "I_INVOKE_WRITE_REG_SMR", INVOKE(IB_USER_VERBS_CMD_REG_SMR, 8, DRESP) },
	{ "I_INVOKE_WRITE_CMD_FLAG_BITS", INVOKE(0x40000000u | QD, 8, DRESP) },
	{ "I_INVOKE_WRITE_CMD_OVER_U32", INVOKE(0x100000000ull, 8, DRESP) },
	{ "I_INVOKE_WRITE_EX_QUERY_DEVICE",
	  INVOKE(IB_USER_VERBS_CMD_FLAG_EXTENDED |
		 IB_USER_VERBS_EX_CMD_QUERY_DEVICE, 8, DRESP) },
	{ "I_INVOKE_WRITE_MISSING_CMD", DEVICE(UVERBS_METHOD_INVOKE_WRITE),
	  .nattrs = 2,
	  .attr = { PTR_ATTR(UVERBS_ATTR_CORE_OUT, AT_DRESP, DRESP),
		    { UVERBS_ATTR_CORE_IN, 8, AT_VAL, 0 } } },

	/* INFO_HANDLES */
	{ "I_INFO_HANDLES_UNKNOWN_OBJECT", INFO_HANDLES(200, 16) },
	{ "I_INFO_HANDLES_LIST_LEN_6", INFO_HANDLES(UVERBS_OBJECT_PD, 6) },
	{ "I_INFO_HANDLES_LIST_LEN_2", INFO_HANDLES(UVERBS_OBJECT_PD, 2) },
	{ "I_INFO_HANDLES_NO_LIST", INFO_HANDLES(UVERBS_OBJECT_PD, 2),
	  .fix = { FIX(FIX_NUM_ATTRS, 0, 2), FIX(FIX_LENGTH_ADD, 0, -ATTR_SIZE) } },

	/* PD_DESTROY: the only PD method in 6.1 */
	{ "I_PD_DESTROY_NEVER_ALLOCATED", PD_DESTROY(12345) },
	{ "I_PD_DESTROY_NO_CONTEXT", .no_context = 1, PD_DESTROY(0) },
	{ "I_PD_DESTROY_HANDLE_MINUS_1", PD_DESTROY((__u64)-1) },
	{ "I_PD_DESTROY_HANDLE_2_POW_32", PD_DESTROY(0x100000000ull) },
	{ "I_PD_DESTROY_NO_HANDLE", .object = UVERBS_OBJECT_PD,
	  .method = UVERBS_METHOD_PD_DESTROY },
	{ .run = io_pd_destroy_real },
};

static void ioctl_cases(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(io_cases); i++)
		io_case_run(&io_cases[i]);
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
