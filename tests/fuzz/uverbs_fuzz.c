// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * uverbs_fuzz: drive a uverbs character device with random and
 * structure-aware calls, and print one summary line:
 *
 *   uverbs_fuzz seed=S calls=N ok=N errno_top=E:n,E:n,...
 *
 * Most calls are real commands: the legacy write() commands (with the
 * extended header where the command has one) and RDMA_VERBS_IOCTL methods
 * of the objects rxe supports, with sizes and attribute lengths mostly
 * valid and sometimes a little off, and handles taken mostly from a table
 * of objects this process created (bogus ones sometimes).  A fraction is
 * fully random: command numbers, sizes, attribute ids.  Beside them: reads
 * of the async and completion event fds, mmap() of the ring offsets the
 * driver returned with random lengths and flags, and a re-open of the
 * device (dup2() over the same fd number, so that no thread ever writes to
 * an fd that is not the device) while the other thread is in a call.
 *
 *   uverbs_fuzz [--seed N] [--calls N] [--threads 1|2]
 *               [--dev /dev/infiniband/uverbsN] [--trace] [--stats]
 *               [--skip do_mcast,io_random,...] [--case mcast-twice]
 *
 * --threads 2 (default): a second thread with its own random stream works
 * on the same fd and the same handle table, mostly destroying and using
 * what the first one creates.  With one thread a seed replays exactly;
 * with two, each thread's sequence of choices is the same for a seed, but
 * the handles it meets depend on the interleaving.  --trace prints every
 * call (thread, index, what, result) to stderr, for narrowing a finding
 * down to a call index; --stats prints, per kind of call, how many were
 * made and accepted and their mean time.
 *
 * No libibverbs: raw write() and ioctl() with the kernel's UAPI headers.
 * Exits 0 when every call was made (whatever the calls returned), 1 on a
 * usage or setup error, 3 when a call did not return within 120 s.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <rdma/ib_user_verbs.h>
#include <rdma/ib_user_ioctl_cmds.h>
#include <rdma/ib_user_ioctl_verbs.h>
#include <rdma/rdma_user_ioctl.h>
#include <rdma/rdma_user_ioctl_cmds.h>
#include <rdma/rdma_user_rxe.h>

#include "../probes/uverbs_ioctl.h"
#include "fuzz_report.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define PTR(p) ((__u64)(uintptr_t)(p))
#define KERNEL_PTR 0xffff888000000000ULL

/*
 * MODIFY_QP/QUERY_QP attr_mask bits: ABI values that the UAPI headers do
 * not name (the kernel's enum ib_qp_attr_mask).
 */
#define QPA_STATE		(1u << 0)
#define QPA_CUR_STATE		(1u << 1)
#define QPA_EN_SQD_ASYNC_NOTIFY	(1u << 2)
#define QPA_ACCESS_FLAGS	(1u << 3)
#define QPA_PKEY_INDEX		(1u << 4)
#define QPA_PORT		(1u << 5)
#define QPA_QKEY		(1u << 6)
#define QPA_AV			(1u << 7)
#define QPA_PATH_MTU		(1u << 8)
#define QPA_TIMEOUT		(1u << 9)
#define QPA_RETRY_CNT		(1u << 10)
#define QPA_RNR_RETRY		(1u << 11)
#define QPA_RQ_PSN		(1u << 12)
#define QPA_MAX_QP_RD_ATOMIC	(1u << 13)
#define QPA_ALT_PATH		(1u << 14)
#define QPA_MIN_RNR_TIMER	(1u << 15)
#define QPA_SQ_PSN		(1u << 16)
#define QPA_MAX_DEST_RD_ATOMIC	(1u << 17)
#define QPA_PATH_MIG_STATE	(1u << 18)
#define QPA_CAP			(1u << 19)
#define QPA_DEST_QPN		(1u << 20)
#define QPA_RATE_LIMIT		(1u << 25)

/* ------------------------------------------------------------------------ */
/* random numbers: splitmix64, one stream per thread                         */

struct th {
	int id;
	int exact;		/* --case: no mutation, every pct() false */
	uint64_t rs;
	unsigned long calls, ok, target;
	unsigned long err[256];
	/*
	 * Response scratch: the main response at its start, small outputs
	 * (scr()) after 8 KiB.  RESP_LEN is past anything a mutated length
	 * lets the kernel write or zero (out_words, provider_out_words and
	 * attribute lengths are 16 bits), so that a length "a little off"
	 * never lands in our own variables.
	 */
	unsigned char *resp;
	unsigned int sc;
};

#define RESP_LEN (2 << 20)

/* An output buffer of up to 256 bytes for one attribute of this call. */
static void *scr(struct th *t, size_t n)
{
	void *p = t->resp + 8192 + t->sc;

	t->sc = (t->sc + (n + 255) / 256 * 256) % (64 * 256);
	memset(p, 0, n);
	return p;
}

static uint64_t rnd(struct th *t)
{
	uint64_t z = (t->rs += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static uint32_t rn(struct th *t, uint32_t n)	/* 0 .. n-1 */
{
	return n ? (uint32_t)(rnd(t) % n) : 0;
}

static int pct(struct th *t, unsigned int p)	/* true p% of the time */
{
	return !t->exact && rn(t, 100) < p;
}

/* A value near a valid one: mostly itself, else a little off or extreme. */
static uint32_t near(struct th *t, uint32_t v)
{
	switch (rn(t, 16)) {
	case 0: return v + 1 + rn(t, 4);
	case 1: return v ? v - 1 - rn(t, v < 4 ? v : 4) : 0;
	case 2: return 0;
	case 3: return (uint32_t)rnd(t);
	case 4: return 0xffffffff;
	case 5: return v * 2 + 1;
	default: return v;
	}
}

/* ------------------------------------------------------------------------ */
/* shared state                                                              */

static const char *dev_path = "/dev/infiniband/uverbs0";
static int g_fd = -1;		/* always the device: re-opened with dup2() */
static long page_size;
static char *guard;		/* a PROT_NONE page */
static char *mrbuf;		/* memory to register */
#define MRBUF_LEN (1024 * 1024)
static int trace;
static volatile unsigned long progress[2];

enum { H_PD, H_CQ, H_QP, H_SRQ, H_MR, H_MW, H_AH, NH };
#define HMAX 24
static struct {
	uint32_t h[HMAX];
	int n;
} tab[NH];

/* ring offsets the driver returned, for mmap() */
#define MMAX 32
static struct {
	__u64 off;
	__u32 size;
} mm[MMAX];
static int mm_n;

/* event fds (async, completion channel): read by thread 0 only */
#define FMAX 16
static int efd[FMAX];
static int efd_n;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void h_add(int type, uint32_t h)
{
	pthread_mutex_lock(&lock);
	if (tab[type].n < HMAX)
		tab[type].h[tab[type].n++] = h;
	pthread_mutex_unlock(&lock);
}

static void h_del(int type, uint32_t h)
{
	int i;

	pthread_mutex_lock(&lock);
	for (i = 0; i < tab[type].n; i++) {
		if (tab[type].h[i] == h) {
			tab[type].h[i] = tab[type].h[--tab[type].n];
			break;
		}
	}
	pthread_mutex_unlock(&lock);
}

static int h_full(int type)
{
	return tab[type].n >= HMAX;
}

/* A live handle mostly, a bogus one sometimes (or when there is none). */
static uint32_t h_pick(struct th *t, int type)
{
	uint32_t h = 0;
	int n, live = 0;

	pthread_mutex_lock(&lock);
	n = tab[type].n;
	if (n && !pct(t, 8)) {
		h = tab[type].h[rn(t, n)];
		live = 1;
	}
	pthread_mutex_unlock(&lock);
	if (live)
		return h;
	switch (rn(t, 4)) {
	case 0: return 0;
	case 1: return 0xffffffff;
	case 2: return rn(t, 64);
	default: return (uint32_t)rnd(t);
	}
}

static void mm_add(__u64 off, __u32 size)
{
	pthread_mutex_lock(&lock);
	if (mm_n < MMAX)
		mm[mm_n++].off = off, mm[mm_n - 1].size = size;
	else
		mm[off % MMAX].off = off, mm[off % MMAX].size = size;
	pthread_mutex_unlock(&lock);
}

static void efd_add(int fd)
{
	fcntl(fd, F_SETFL, O_NONBLOCK);
	pthread_mutex_lock(&lock);
	if (efd_n < FMAX)
		efd[efd_n++] = fd;
	pthread_mutex_unlock(&lock);
}

/* ------------------------------------------------------------------------ */
/* bookkeeping of one call                                                   */

static const char *cur_what[2];
static int stats;

/* --stats: calls, accepted and time per kind of call */
#define SMAX 64
static struct stat_ent {
	const char *what;
	unsigned long n, ok;
	double secs;
} st[2][SMAX];

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static double t_begin[2];

static void begin(struct th *t, const char *what)
{
	cur_what[t->id] = what;
	if (stats)
		t_begin[t->id] = now();
}

static void stat_add(struct th *t, const char *what, int ok)
{
	int i;

	for (i = 0; i < SMAX; i++) {
		struct stat_ent *e = &st[t->id][i];

		if (e->what && e->what != what)
			continue;
		e->what = what;
		e->n++;
		e->ok += ok;
		e->secs += now() - t_begin[t->id];
		return;
	}
}

static int done(struct th *t, const char *what, long r)
{
	int e = r < 0 ? errno : 0;

	t->calls++;
	progress[t->id] = t->calls;
	if (r >= 0)
		t->ok++;
	else
		t->err[e < 256 ? e : 255]++;
	if (stats)
		stat_add(t, what, r >= 0);
	if (trace)
		fprintf(stderr, "T%d #%lu %s -> %s\n", t->id, t->calls, what,
			r >= 0 ? "ok" : strerrorname_np(e) ?: "?");
	return r >= 0 ? 0 : -1;
}

/* ------------------------------------------------------------------------ */
/* the write() path                                                          */

/*
 * Legacy command: header, then the request (whose first field is the
 * response pointer, filled in here); the response goes to t->resp, or now
 * and then to a bogus address.  in_words/out_words from the sizes, now and
 * then a little off.
 */
static int wcmd(struct th *t, const char *what, __u32 cmd, void *req,
		size_t req_len, size_t resp_len, int has_resp)
{
	__u64 buf[520];
	struct ib_uverbs_cmd_hdr hdr = { .command = cmd };
	size_t len = sizeof(hdr) + req_len;
	long r;

	if (has_resp) {
		__u64 rp = PTR(t->resp);

		if (pct(t, 3))
			rp = pct(t, 50) ? PTR(guard) : (pct(t, 50) ? 0 : KERNEL_PTR);
		memcpy(req, &rp, sizeof(rp));
	}
	memset(t->resp, 0, resp_len);
	hdr.in_words = len / 4;
	hdr.out_words = resp_len / 4;
	if (pct(t, 5))
		hdr.in_words = near(t, hdr.in_words);
	if (pct(t, 5))
		hdr.out_words = near(t, hdr.out_words);
	if (pct(t, 2))
		len = near(t, len) % sizeof(buf);
	memcpy(buf, &hdr, sizeof(hdr));
	memcpy((char *)buf + sizeof(hdr), req, req_len);
	begin(t, what);
	r = write(g_fd, buf, len);
	return done(t, what, r);
}

/* Extended command: both headers, then the request. */
static int wcmd_ex(struct th *t, const char *what, __u32 cmd, void *req,
		   size_t req_len, size_t resp_len, size_t drv_len)
{
	__u64 buf[520];
	struct ib_uverbs_cmd_hdr hdr = {
		.command = cmd | IB_USER_VERBS_CMD_FLAG_EXTENDED,
	};
	struct ib_uverbs_ex_cmd_hdr ex = { .response = PTR(t->resp) };
	size_t len = sizeof(hdr) + sizeof(ex) + req_len;
	long r;

	memset(t->resp, 0, resp_len + drv_len);
	hdr.in_words = req_len / 8;
	hdr.out_words = resp_len / 8;
	/* the driver's response follows the core's */
	ex.provider_out_words = drv_len / 8;
	if (pct(t, 5))
		hdr.in_words = near(t, hdr.in_words);
	if (pct(t, 5))
		hdr.out_words = near(t, hdr.out_words);
	if (pct(t, 3))
		ex.provider_in_words = rn(t, 4);
	if (pct(t, 3))
		ex.provider_out_words = near(t, ex.provider_out_words);
	if (pct(t, 2))
		ex.cmd_hdr_reserved = rnd(t);
	if (pct(t, 3))
		ex.response = pct(t, 50) ? PTR(guard) : 0;
	memcpy(buf, &hdr, sizeof(hdr));
	memcpy((char *)buf + sizeof(hdr), &ex, sizeof(ex));
	memcpy((char *)buf + sizeof(hdr) + sizeof(ex), req, req_len);
	if (pct(t, 2))
		len = near(t, len) % sizeof(buf);
	begin(t, what);
	r = write(g_fd, buf, len);
	return done(t, what, r);
}

#define RESP(t, type) ((type *)(void *)(t)->resp)

static void do_get_context(struct th *t)
{
	struct ib_uverbs_get_context req = { 0 };

	if (!wcmd(t, "GET_CONTEXT", IB_USER_VERBS_CMD_GET_CONTEXT, &req,
		  sizeof(req), sizeof(struct ib_uverbs_get_context_resp), 1)) {
		int fd = RESP(t, struct ib_uverbs_get_context_resp)->async_fd;

		if (fd > 2 && fd != g_fd)
			efd_add(fd);
	}
}

static void do_query_device(struct th *t)
{
	struct ib_uverbs_query_device req = { 0 };

	if (pct(t, 50)) {
		wcmd(t, "QUERY_DEVICE", IB_USER_VERBS_CMD_QUERY_DEVICE, &req,
		     sizeof(req), sizeof(struct ib_uverbs_query_device_resp), 1);
	} else {
		struct ib_uverbs_ex_query_device ex = { 0 };

		if (pct(t, 5))
			ex.comp_mask = rnd(t);
		wcmd_ex(t, "EX_QUERY_DEVICE", IB_USER_VERBS_EX_CMD_QUERY_DEVICE,
			&ex, sizeof(ex),
			sizeof(struct ib_uverbs_ex_query_device_resp) -
				8 * rn(t, 8), 0);
	}
}

static void do_query_port(struct th *t)
{
	struct ib_uverbs_query_port req = { 0 };

	req.port_num = pct(t, 85) ? 1 : rn(t, 256);
	wcmd(t, "QUERY_PORT", IB_USER_VERBS_CMD_QUERY_PORT, &req, sizeof(req),
	     sizeof(struct ib_uverbs_query_port_resp), 1);
}

static void do_alloc_pd(struct th *t)
{
	struct ib_uverbs_alloc_pd req = { 0 };

	if (h_full(H_PD))
		return;
	if (!wcmd(t, "ALLOC_PD", IB_USER_VERBS_CMD_ALLOC_PD, &req, sizeof(req),
		  sizeof(struct ib_uverbs_alloc_pd_resp), 1))
		h_add(H_PD, RESP(t, struct ib_uverbs_alloc_pd_resp)->pd_handle);
}

static void do_dealloc_pd(struct th *t)
{
	struct ib_uverbs_dealloc_pd req = { .pd_handle = h_pick(t, H_PD) };

	if (!wcmd(t, "DEALLOC_PD", IB_USER_VERBS_CMD_DEALLOC_PD, &req,
		  sizeof(req), 0, 0))
		h_del(H_PD, req.pd_handle);
}

static __u32 access_flags(struct th *t)
{
	static const __u32 common[] = {
		0, IB_UVERBS_ACCESS_LOCAL_WRITE,
		IB_UVERBS_ACCESS_LOCAL_WRITE | IB_UVERBS_ACCESS_REMOTE_WRITE |
			IB_UVERBS_ACCESS_REMOTE_READ,
		IB_UVERBS_ACCESS_REMOTE_WRITE,	/* invalid without LOCAL_WRITE */
		IB_UVERBS_ACCESS_LOCAL_WRITE | IB_UVERBS_ACCESS_MW_BIND,
		IB_UVERBS_ACCESS_LOCAL_WRITE | IB_UVERBS_ACCESS_REMOTE_ATOMIC,
	};

	if (pct(t, 10))
		return (__u32)rnd(t);
	return common[rn(t, ARRAY_SIZE(common))];
}

/* An address range: mostly inside mrbuf, sometimes bogus. */
static void mr_range(struct th *t, __u64 *start, __u64 *len)
{
	__u64 off = rn(t, 64) * page_size + (pct(t, 20) ? rn(t, page_size) : 0);

	*start = PTR(mrbuf) + off;
	/* pinning is what costs under emulation: one page mostly */
	*len = pct(t, 90) ? page_size - rn(t, 2) * (off % page_size) :
	       1 + rn(t, pct(t, 90) ? 4 * page_size : MRBUF_LEN);
	if (*start + *len > PTR(mrbuf) + MRBUF_LEN && pct(t, 80))
		*len = PTR(mrbuf) + MRBUF_LEN - *start;
	switch (rn(t, 20)) {
	case 0: *start = 0; break;
	case 1: *start = PTR(guard); break;
	case 2: *start = KERNEL_PTR; break;
	case 3: *len = 0; break;
	case 4: *len = (__u64)-1; break;
	/*
	 * Huge: past what can be pinned (fails at once), or a few MiB.
	 * Not 2^26..2^37: ours allocates the page array up front, and as
	 * root (no RLIMIT_MEMLOCK) that is a vmalloc of up to 1 GiB per
	 * call, tens of milliseconds under emulation.
	 */
	case 5: *len = 1ULL << (pct(t, 50) ? 20 + rn(t, 4) : 40 + rn(t, 8)); break;
	}
}

static void do_reg_mr(struct th *t)
{
	struct ib_uverbs_reg_mr req = { 0 };

	if (h_full(H_MR))
		return;
	mr_range(t, &req.start, &req.length);
	req.hca_va = pct(t, 80) ? req.start : rnd(t);
	req.pd_handle = h_pick(t, H_PD);
	req.access_flags = access_flags(t);
	if (!wcmd(t, "REG_MR", IB_USER_VERBS_CMD_REG_MR, &req, sizeof(req),
		  sizeof(struct ib_uverbs_reg_mr_resp), 1))
		h_add(H_MR, RESP(t, struct ib_uverbs_reg_mr_resp)->mr_handle);
}

static void do_rereg_mr(struct th *t)
{
	struct ib_uverbs_rereg_mr req = { 0 };

	req.mr_handle = h_pick(t, H_MR);
	req.flags = pct(t, 90) ? rn(t, 8) : (__u32)rnd(t);
	mr_range(t, &req.start, &req.length);
	req.hca_va = req.start;
	req.pd_handle = h_pick(t, H_PD);
	req.access_flags = access_flags(t);
	wcmd(t, "REREG_MR", IB_USER_VERBS_CMD_REREG_MR, &req, sizeof(req),
	     sizeof(struct ib_uverbs_rereg_mr_resp), 1);
}

static void do_dereg_mr(struct th *t)
{
	struct ib_uverbs_dereg_mr req = { .mr_handle = h_pick(t, H_MR) };

	if (!wcmd(t, "DEREG_MR", IB_USER_VERBS_CMD_DEREG_MR, &req, sizeof(req),
		  0, 0))
		h_del(H_MR, req.mr_handle);
}

static void do_alloc_mw(struct th *t)
{
	struct ib_uverbs_alloc_mw req = { 0 };

	if (h_full(H_MW))
		return;
	req.pd_handle = h_pick(t, H_PD);
	req.mw_type = pct(t, 90) ? 1 + rn(t, 2) : rn(t, 256);
	if (!wcmd(t, "ALLOC_MW", IB_USER_VERBS_CMD_ALLOC_MW, &req, sizeof(req),
		  sizeof(struct ib_uverbs_alloc_mw_resp), 1))
		h_add(H_MW, RESP(t, struct ib_uverbs_alloc_mw_resp)->mw_handle);
}

static void do_dealloc_mw(struct th *t)
{
	struct ib_uverbs_dealloc_mw req = { .mw_handle = h_pick(t, H_MW) };

	if (!wcmd(t, "DEALLOC_MW", IB_USER_VERBS_CMD_DEALLOC_MW, &req,
		  sizeof(req), 0, 0))
		h_del(H_MW, req.mw_handle);
}

static void do_comp_channel(struct th *t)
{
	struct ib_uverbs_create_comp_channel req = { 0 };

	if (efd_n >= FMAX)
		return;
	if (!wcmd(t, "CREATE_COMP_CHANNEL", IB_USER_VERBS_CMD_CREATE_COMP_CHANNEL,
		  &req, sizeof(req),
		  sizeof(struct ib_uverbs_create_comp_channel_resp), 1)) {
		int fd = RESP(t, struct ib_uverbs_create_comp_channel_resp)->fd;

		if (fd > 2 && fd != g_fd)
			efd_add(fd);
	}
}

static int pick_efd(struct th *t)
{
	int fd = -1;

	pthread_mutex_lock(&lock);
	if (efd_n)
		fd = efd[rn(t, efd_n)];
	pthread_mutex_unlock(&lock);
	return fd;
}

static __u32 cqe_count(struct th *t)
{
	return pct(t, 85) ? 1 + rn(t, 256) : near(t, 32768);
}

static void keep_mmap_info(const struct mminfo *mi)
{
	if (mi->size)
		mm_add(mi->offset, mi->size);
}

static void do_create_cq(struct th *t)
{
	size_t core = sizeof(struct ib_uverbs_create_cq_resp);
	size_t rlen = core + sizeof(struct rxe_create_cq_resp);
	int ch = pick_efd(t);

	if (h_full(H_CQ))
		return;
	if (pct(t, 70)) {
		struct ib_uverbs_create_cq req = { 0 };

		req.user_handle = rnd(t);
		req.cqe = cqe_count(t);
		req.comp_vector = pct(t, 90) ? 0 : rn(t, 4);
		req.comp_channel = pct(t, 30) && ch >= 0 ? ch : -1;
		if (pct(t, 3))
			req.comp_channel = rn(t, 64);
		if (wcmd(t, "CREATE_CQ", IB_USER_VERBS_CMD_CREATE_CQ, &req,
			 sizeof(req), rlen, 1))
			return;
	} else {
		struct ib_uverbs_ex_create_cq req = { 0 };

		core = sizeof(struct ib_uverbs_ex_create_cq_resp);
		req.user_handle = rnd(t);
		req.cqe = cqe_count(t);
		req.comp_channel = pct(t, 30) && ch >= 0 ? ch : -1;
		if (pct(t, 5))
			req.comp_mask = rnd(t);
		if (pct(t, 5))
			req.flags = rn(t, 4);
		if (wcmd_ex(t, "EX_CREATE_CQ", IB_USER_VERBS_EX_CMD_CREATE_CQ,
			    &req, sizeof(req), core,
			    sizeof(struct rxe_create_cq_resp)))
			return;
	}
	h_add(H_CQ, RESP(t, struct ib_uverbs_create_cq_resp)->cq_handle);
	keep_mmap_info((struct mminfo *)((char *)t->resp + core));
}

static void do_destroy_cq(struct th *t)
{
	struct ib_uverbs_destroy_cq req = { .cq_handle = h_pick(t, H_CQ) };

	if (!wcmd(t, "DESTROY_CQ", IB_USER_VERBS_CMD_DESTROY_CQ, &req,
		  sizeof(req), sizeof(struct ib_uverbs_destroy_cq_resp), 1))
		h_del(H_CQ, req.cq_handle);
}

static void do_resize_cq(struct th *t)
{
	struct ib_uverbs_resize_cq req = { 0 };
	size_t core = sizeof(struct ib_uverbs_resize_cq_resp);

	req.cq_handle = h_pick(t, H_CQ);
	req.cqe = cqe_count(t);
	if (!wcmd(t, "RESIZE_CQ", IB_USER_VERBS_CMD_RESIZE_CQ, &req,
		  sizeof(req), core + sizeof(struct rxe_resize_cq_resp), 1))
		keep_mmap_info((struct mminfo *)((char *)t->resp + core));
}

static void do_poll_cq(struct th *t)
{
	struct ib_uverbs_poll_cq req = { 0 };
	__u32 ne = pct(t, 90) ? 1 + rn(t, 8) : near(t, 16);
	size_t rlen = sizeof(struct ib_uverbs_poll_cq_resp) +
		      (ne < 16 ? ne : 16) * sizeof(struct ib_uverbs_wc);

	req.cq_handle = h_pick(t, H_CQ);
	req.ne = ne;
	wcmd(t, "POLL_CQ", IB_USER_VERBS_CMD_POLL_CQ, &req, sizeof(req), rlen, 1);
}

static void do_notify_cq(struct th *t)
{
	struct ib_uverbs_req_notify_cq req = { 0 };

	req.cq_handle = h_pick(t, H_CQ);
	req.solicited_only = pct(t, 90) ? rn(t, 2) : rnd(t);
	wcmd(t, "REQ_NOTIFY_CQ", IB_USER_VERBS_CMD_REQ_NOTIFY_CQ, &req,
	     sizeof(req), 0, 0);
}

static __u8 qp_type(struct th *t)
{
	static const __u8 types[] = { IB_UVERBS_QPT_RC, IB_UVERBS_QPT_UC,
				      IB_UVERBS_QPT_UD, IB_UVERBS_QPT_RC,
				      IB_UVERBS_QPT_UD, IB_UVERBS_QPT_RAW_PACKET,
				      IB_UVERBS_QPT_XRC_INI, IB_UVERBS_QPT_XRC_TGT,
				      IB_UVERBS_QPT_DRIVER, 0, 1 /* SMI/GSI */ };

	return pct(t, 95) ? types[rn(t, ARRAY_SIZE(types))] : rn(t, 256);
}

static __u32 qp_wr(struct th *t)
{
	return pct(t, 95) ? rn(t, 16) : near(t, pct(t, 50) ? 64 : 16384);
}

static __u32 qp_sge(struct th *t)
{
	return pct(t, 90) ? rn(t, 8) : near(t, 32);
}

static void create_qp_fields(struct th *t, struct ib_uverbs_create_qp *c)
{
	c->user_handle = rnd(t);
	c->pd_handle = h_pick(t, H_PD);
	c->send_cq_handle = h_pick(t, H_CQ);
	c->recv_cq_handle = pct(t, 50) ? c->send_cq_handle : h_pick(t, H_CQ);
	c->is_srq = pct(t, 20);
	c->srq_handle = c->is_srq ? h_pick(t, H_SRQ) : 0;
	c->max_send_wr = qp_wr(t);
	c->max_recv_wr = qp_wr(t);
	c->max_send_sge = qp_sge(t);
	c->max_recv_sge = qp_sge(t);
	c->max_inline_data = pct(t, 80) ? rn(t, 256) : near(t, 4096);
	c->sq_sig_all = rn(t, 2);
	c->qp_type = qp_type(t);
}

static void do_create_qp(struct th *t)
{
	size_t core = sizeof(struct ib_uverbs_create_qp_resp);
	struct rxe_create_qp_resp *d;

	if (h_full(H_QP))
		return;
	if (pct(t, 70)) {
		struct ib_uverbs_create_qp req = { 0 };

		create_qp_fields(t, &req);
		if (wcmd(t, "CREATE_QP", IB_USER_VERBS_CMD_CREATE_QP, &req,
			 sizeof(req), core + sizeof(*d), 1))
			return;
	} else {
		struct ib_uverbs_create_qp base = { 0 };
		struct ib_uverbs_ex_create_qp req = { 0 };

		create_qp_fields(t, &base);
		memcpy(&req.user_handle, &base.user_handle,
		       offsetof(struct ib_uverbs_ex_create_qp, comp_mask));
		if (pct(t, 5))
			req.comp_mask = rnd(t);
		if (pct(t, 10))
			req.create_flags = 1u << rn(t, 32);
		if (pct(t, 3))
			req.source_qpn = rnd(t);
		core = sizeof(struct ib_uverbs_ex_create_qp_resp);
		if (wcmd_ex(t, "EX_CREATE_QP", IB_USER_VERBS_EX_CMD_CREATE_QP,
			    &req, sizeof(req), core, sizeof(*d)))
			return;
	}
	h_add(H_QP, RESP(t, struct ib_uverbs_create_qp_resp)->qp_handle);
	d = (struct rxe_create_qp_resp *)((char *)t->resp + core);
	keep_mmap_info(&d->rq_mi);
	keep_mmap_info(&d->sq_mi);
}

static void do_destroy_qp(struct th *t)
{
	struct ib_uverbs_destroy_qp req = { .qp_handle = h_pick(t, H_QP) };

	if (!wcmd(t, "DESTROY_QP", IB_USER_VERBS_CMD_DESTROY_QP, &req,
		  sizeof(req), sizeof(struct ib_uverbs_destroy_qp_resp), 1))
		h_del(H_QP, req.qp_handle);
}

static void do_query_qp(struct th *t)
{
	struct ib_uverbs_query_qp req = { 0 };

	req.qp_handle = h_pick(t, H_QP);
	req.attr_mask = pct(t, 80) ? (__u32)rnd(t) & 0x1fffff : (__u32)rnd(t);
	wcmd(t, "QUERY_QP", IB_USER_VERBS_CMD_QUERY_QP, &req, sizeof(req),
	     sizeof(struct ib_uverbs_query_qp_resp), 1);
}

/* A destination: this host's own IPv4-mapped GID mostly. */
static void qp_dest(struct th *t, struct ib_uverbs_qp_dest *d)
{
	static const __u8 gid4[16] = { [10] = 0xff, [11] = 0xff, [12] = 10,
				       [13] = 0, [14] = 2, [15] = 15 };

	memcpy(d->dgid, gid4, sizeof(gid4));
	if (pct(t, 10)) {
		uint64_t a = rnd(t), b = rnd(t);

		memcpy(d->dgid, &a, 8);
		memcpy(d->dgid + 8, &b, 8);
	}
	d->flow_label = pct(t, 90) ? 0 : rnd(t);
	d->dlid = pct(t, 90) ? 0 : rnd(t);
	d->sgid_index = pct(t, 90) ? rn(t, 3) : rn(t, 256);
	d->hop_limit = pct(t, 90) ? 64 : rn(t, 256);
	d->traffic_class = rn(t, 256);
	d->sl = rn(t, 16);
	d->is_global = pct(t, 90) ? 1 : rn(t, 256);
	d->port_num = pct(t, 90) ? 1 : rn(t, 256);
	d->static_rate = pct(t, 90) ? 0 : rn(t, 256);
}

static void do_modify_qp(struct th *t)
{
	/* masks of the transitions RESET->INIT->RTR->RTS, ERR, SQD, RESET */
	/* qp_state for each of the masks below */
	static const __u8 states[] = { 6, 1, 1, 2, 2, 3, 3, 3, 4, 3, 3, 3 };
	static const __u32 masks[] = {
		QPA_STATE,
		QPA_STATE | QPA_PKEY_INDEX | QPA_PORT | QPA_ACCESS_FLAGS,
		QPA_STATE | QPA_PKEY_INDEX | QPA_PORT | QPA_QKEY,
		QPA_STATE | QPA_AV | QPA_PATH_MTU | QPA_DEST_QPN |
			QPA_RQ_PSN | QPA_MAX_DEST_RD_ATOMIC |
			QPA_MIN_RNR_TIMER,
		QPA_STATE | QPA_AV | QPA_PATH_MTU | QPA_DEST_QPN |
			QPA_RQ_PSN,
		QPA_STATE | QPA_SQ_PSN | QPA_TIMEOUT | QPA_RETRY_CNT |
			QPA_RNR_RETRY | QPA_MAX_QP_RD_ATOMIC,
		QPA_STATE | QPA_SQ_PSN,
		QPA_CUR_STATE | QPA_STATE,
		QPA_EN_SQD_ASYNC_NOTIFY | QPA_STATE,
		QPA_CAP,
		QPA_ALT_PATH | QPA_PATH_MIG_STATE,
		QPA_RATE_LIMIT,
	};
	struct ib_uverbs_ex_modify_qp ex = { 0 };
	struct ib_uverbs_modify_qp *m = &ex.base;

	m->qp_handle = h_pick(t, H_QP);
	unsigned int k = rn(t, ARRAY_SIZE(masks));

	m->attr_mask = pct(t, 85) ? masks[k] :
		       (__u32)rnd(t) & (pct(t, 50) ? 0x3fffff : ~0u);
	m->qp_state = pct(t, 70) ? states[k] :
		      (pct(t, 90) ? rn(t, 7) : rn(t, 256));
	m->cur_qp_state = rn(t, 7);
	m->path_mtu = pct(t, 90) ? 1 + rn(t, 5) : rn(t, 256);
	m->path_mig_state = rn(t, 3);
	m->qkey = pct(t, 50) ? 0x11111111 : rnd(t);
	m->rq_psn = rnd(t) & (pct(t, 90) ? 0xffffff : ~0u);
	m->sq_psn = rnd(t) & (pct(t, 90) ? 0xffffff : ~0u);
	m->dest_qp_num = pct(t, 50) ? 17 + rn(t, 64) : rnd(t);
	m->qp_access_flags = access_flags(t);
	m->pkey_index = pct(t, 90) ? 0 : rnd(t);
	m->alt_pkey_index = rnd(t);
	m->en_sqd_async_notify = rn(t, 2);
	m->max_rd_atomic = rn(t, pct(t, 90) ? 17 : 256);
	m->max_dest_rd_atomic = rn(t, pct(t, 90) ? 17 : 256);
	m->min_rnr_timer = rn(t, 32);
	m->port_num = pct(t, 90) ? 1 : rn(t, 256);
	m->alt_port_num = rn(t, 3);
	m->timeout = rn(t, 32);
	m->alt_timeout = rn(t, 32);
	m->retry_cnt = rn(t, 8);
	m->rnr_retry = rn(t, 8);
	qp_dest(t, &m->dest);
	qp_dest(t, &m->alt_dest);
	if (pct(t, 75)) {
		wcmd(t, "MODIFY_QP", IB_USER_VERBS_CMD_MODIFY_QP, m, sizeof(*m),
		     0, 0);
	} else {
		ex.rate_limit = pct(t, 80) ? 0 : rnd(t);
		wcmd_ex(t, "EX_MODIFY_QP", IB_USER_VERBS_EX_CMD_MODIFY_QP, &ex,
			sizeof(ex), sizeof(struct ib_uverbs_ex_modify_qp_resp), 0);
	}
}

static void do_create_srq(struct th *t)
{
	struct ib_uverbs_create_srq req = { 0 };
	size_t core = sizeof(struct ib_uverbs_create_srq_resp);
	struct rxe_create_srq_resp *d;

	if (h_full(H_SRQ))
		return;
	req.user_handle = rnd(t);
	req.pd_handle = h_pick(t, H_PD);
	req.max_wr = qp_wr(t);
	req.max_sge = qp_sge(t);
	req.srq_limit = pct(t, 80) ? 0 : rn(t, 128);
	if (wcmd(t, "CREATE_SRQ", IB_USER_VERBS_CMD_CREATE_SRQ, &req,
		 sizeof(req), core + sizeof(*d), 1))
		return;
	h_add(H_SRQ, RESP(t, struct ib_uverbs_create_srq_resp)->srq_handle);
	d = (struct rxe_create_srq_resp *)((char *)t->resp + core);
	keep_mmap_info(&d->mi);
}

static void do_modify_srq(struct th *t)
{
	struct {
		struct ib_uverbs_modify_srq m;
		struct rxe_modify_srq_cmd d;
	} req;
	struct mminfo *mi = (struct mminfo *)((char *)t->resp + 256);

	memset(&req, 0, sizeof(req));
	memset(mi, 0, sizeof(*mi));
	req.m.srq_handle = h_pick(t, H_SRQ);
	req.m.attr_mask = pct(t, 90) ? 1 + rn(t, 3) : (__u32)rnd(t);
	req.m.max_wr = qp_wr(t);
	req.m.srq_limit = rn(t, 64);
	/* rxe writes the resized ring's mmap info here */
	req.d.mmap_info_addr = pct(t, 90) ? PTR(mi) :
			       (pct(t, 50) ? PTR(guard) : KERNEL_PTR);
	if (!wcmd(t, "MODIFY_SRQ", IB_USER_VERBS_CMD_MODIFY_SRQ, &req,
		  pct(t, 80) ? sizeof(req) : sizeof(req.m), 0, 0))
		keep_mmap_info(mi);
}

static void do_query_srq(struct th *t)
{
	struct ib_uverbs_query_srq req = { 0 };

	req.srq_handle = h_pick(t, H_SRQ);
	wcmd(t, "QUERY_SRQ", IB_USER_VERBS_CMD_QUERY_SRQ, &req, sizeof(req),
	     sizeof(struct ib_uverbs_query_srq_resp), 1);
}

static void do_destroy_srq(struct th *t)
{
	struct ib_uverbs_destroy_srq req = { .srq_handle = h_pick(t, H_SRQ) };

	if (!wcmd(t, "DESTROY_SRQ", IB_USER_VERBS_CMD_DESTROY_SRQ, &req,
		  sizeof(req), sizeof(struct ib_uverbs_destroy_srq_resp), 1))
		h_del(H_SRQ, req.srq_handle);
}

static void do_create_ah(struct th *t)
{
	struct ib_uverbs_create_ah req = { 0 };
	struct ib_uverbs_qp_dest d = { 0 };

	if (h_full(H_AH))
		return;
	qp_dest(t, &d);
	req.user_handle = rnd(t);
	req.pd_handle = h_pick(t, H_PD);
	memcpy(req.attr.grh.dgid, d.dgid, sizeof(d.dgid));
	req.attr.grh.flow_label = d.flow_label;
	req.attr.grh.sgid_index = d.sgid_index;
	req.attr.grh.hop_limit = d.hop_limit;
	req.attr.grh.traffic_class = d.traffic_class;
	req.attr.dlid = d.dlid;
	req.attr.sl = d.sl;
	req.attr.static_rate = d.static_rate;
	req.attr.is_global = d.is_global;
	req.attr.port_num = d.port_num;
	if (!wcmd(t, "CREATE_AH", IB_USER_VERBS_CMD_CREATE_AH, &req, sizeof(req),
		  sizeof(struct ib_uverbs_create_ah_resp) +
			  sizeof(struct rxe_create_ah_resp), 1))
		h_add(H_AH, RESP(t, struct ib_uverbs_create_ah_resp)->ah_handle);
}

static void do_destroy_ah(struct th *t)
{
	struct ib_uverbs_destroy_ah req = { .ah_handle = h_pick(t, H_AH) };

	if (!wcmd(t, "DESTROY_AH", IB_USER_VERBS_CMD_DESTROY_AH, &req,
		  sizeof(req), 0, 0))
		h_del(H_AH, req.ah_handle);
}

static void do_mcast(struct th *t)
{
	struct ib_uverbs_attach_mcast req = { 0 };

	req.gid[0] = 0xff;
	req.gid[1] = 0x0e;
	req.gid[15] = rn(t, 4);
	if (pct(t, 10))
		req.gid[0] = rn(t, 256);
	req.qp_handle = h_pick(t, H_QP);
	req.mlid = pct(t, 90) ? 0 : rnd(t);
	if (pct(t, 50))
		wcmd(t, "ATTACH_MCAST", IB_USER_VERBS_CMD_ATTACH_MCAST, &req,
		     sizeof(req), 0, 0);
	else
		wcmd(t, "DETACH_MCAST", IB_USER_VERBS_CMD_DETACH_MCAST, &req,
		     sizeof(req), 0, 0);
}

/* POST_SEND / POST_RECV / POST_SRQ_RECV through write(). */
static void do_post(struct th *t)
{
	__u64 body[256];
	struct ib_uverbs_post_send *ps = (void *)body;
	unsigned int kind = rn(t, 3), wrs = pct(t, 90) ? 1 + rn(t, 4) : rn(t, 64);
	unsigned int wqe = kind ? sizeof(struct ib_uverbs_recv_wr) :
				  sizeof(struct ib_uverbs_send_wr);
	unsigned int sges = 0, i, len;
	struct ib_uverbs_sge *sg;
	char *p;

	memset(body, 0, sizeof(body));
	ps->qp_handle = kind == 2 ? h_pick(t, H_SRQ) : h_pick(t, H_QP);
	if (pct(t, 5))
		wqe = near(t, wqe) & 0xff;
	if (wrs * wqe > 1024)
		wrs = wqe ? 1024 / wqe : 0;
	p = (char *)(ps + 1);
	for (i = 0; i < wrs; i++, p += wqe) {
		struct ib_uverbs_send_wr *w = (void *)p;
		unsigned int n = pct(t, 90) ? rn(t, 3) : rn(t, 40);

		if (wqe < sizeof(struct ib_uverbs_recv_wr))
			break;
		w->wr_id = rnd(t);
		w->num_sge = n;
		sges += n;
		if (!kind && wqe >= sizeof(*w)) {
			w->opcode = pct(t, 90) ? rn(t, 14) : rnd(t);
			w->send_flags = rn(t, 32);
			w->wr.rdma.remote_addr = PTR(mrbuf);
			w->wr.rdma.rkey = rnd(t);
			w->wr.ud.ah = h_pick(t, H_AH);
		}
	}
	if (sges > 30)
		sges = 30;
	sg = (struct ib_uverbs_sge *)p;
	for (i = 0; i < sges; i++) {
		sg[i].addr = PTR(mrbuf) + rn(t, MRBUF_LEN / 2);
		sg[i].length = rn(t, 8192);
		sg[i].lkey = rnd(t);
	}
	ps->wr_count = pct(t, 95) ? wrs : near(t, wrs);
	ps->sge_count = pct(t, 95) ? sges : near(t, sges);
	ps->wqe_size = wqe;
	len = (char *)(sg + sges) - (char *)body;
	if (kind == 0)
		wcmd(t, "POST_SEND", IB_USER_VERBS_CMD_POST_SEND, body, len,
		     sizeof(struct ib_uverbs_post_send_resp), 1);
	else if (kind == 1)
		wcmd(t, "POST_RECV", IB_USER_VERBS_CMD_POST_RECV, body, len,
		     sizeof(struct ib_uverbs_post_recv_resp), 1);
	else
		wcmd(t, "POST_SRQ_RECV", IB_USER_VERBS_CMD_POST_SRQ_RECV, body,
		     len, sizeof(struct ib_uverbs_post_srq_recv_resp), 1);
}

/* Fully random: command number, sizes and body. */
static void do_random_write(struct th *t)
{
	__u64 body[64];
	unsigned int i, len = rn(t, sizeof(body) + 1);
	__u32 cmd = rn(t, 64) | (pct(t, 30) ? IB_USER_VERBS_CMD_FLAG_EXTENDED : 0);
	__u64 buf[80];
	struct ib_uverbs_cmd_hdr hdr = { .command = cmd };
	long r;

	if (pct(t, 5))
		cmd = hdr.command = rnd(t);
	for (i = 0; i < ARRAY_SIZE(body); i++)
		body[i] = pct(t, 50) ? rn(t, 64) : rnd(t);
	/* keep response pointers (first word) our own memory mostly */
	if (pct(t, 80))
		body[0] = PTR(t->resp);
	if ((cmd & IB_USER_VERBS_CMD_FLAG_EXTENDED) && pct(t, 80))
		body[0] = PTR(t->resp);
	hdr.in_words = pct(t, 50) ? (sizeof(hdr) + len) / 4 : rn(t, 80);
	hdr.out_words = rn(t, 64);
	memcpy(buf, &hdr, sizeof(hdr));
	memcpy((char *)buf + sizeof(hdr), body, len);
	begin(t, "RANDOM_WRITE");
	r = write(g_fd, buf, sizeof(hdr) + len);
	done(t, "RANDOM_WRITE", r);
}

/* ------------------------------------------------------------------------ */
/* the ioctl() path                                                          */

/* Send, after mutating one attribute or the header now and then. */
static int io_send(struct th *t, const char *what, struct ib_uverbs_ioctl_hdr *h)
{
	long r;

	if (h->num_attrs && pct(t, 8)) {
		struct ib_uverbs_attr *a = &h->attrs[rn(t, h->num_attrs)];

		switch (rn(t, 6)) {
		case 0: a->len = near(t, a->len); break;
		case 1: a->attr_id = rn(t, 20); break;
		case 2: a->flags = rn(t, 4); break;
		case 3: a->data = pct(t, 50) ? PTR(guard) : rnd(t); break;
		case 4: a->attr_data.reserved = rnd(t); break;
		case 5: h->num_attrs--; h->length -= sizeof(*a); break;
		}
	}
	if (pct(t, 2))
		h->length = near(t, h->length);
	if (pct(t, 2))
		h->reserved1 = rnd(t);
	if (pct(t, 2))
		h->driver_id = rn(t, 32);
	begin(t, what);
	r = ioctl(g_fd, RDMA_VERBS_IOCTL, h);
	return done(t, what, r);
}

static void io_destroy(struct th *t, int type, __u16 obj, __u16 method,
		       const char *what, size_t resp_len)
{
	struct uverbs_ioreq r;
	struct ib_uverbs_ioctl_hdr *h = io_init(&r, obj, method);
	uint32_t hd = h_pick(t, type);

	io_attr(h, 0, 0, hd);
	if (resp_len)
		io_attr(h, 1, resp_len, PTR(t->resp));
	if (!io_send(t, what, h))
		h_del(type, hd);
}

static void io_create_cq(struct th *t)
{
	struct uverbs_ioreq r;
	struct ib_uverbs_ioctl_hdr *h = io_init(&r, UVERBS_OBJECT_CQ,
						UVERBS_METHOD_CQ_CREATE);
	struct rxe_create_cq_resp *d = (void *)t->resp;
	__u32 *cqe_out = scr(t, 4);
	int ch = pick_efd(t);

	if (h_full(H_CQ))
		return;
	memset(d, 0, sizeof(*d));
	io_attr(h, UVERBS_ATTR_CREATE_CQ_HANDLE, 0, 0);
	io_attr(h, UVERBS_ATTR_CREATE_CQ_CQE, 4, cqe_count(t));
	io_attr(h, UVERBS_ATTR_CREATE_CQ_USER_HANDLE, 8, rnd(t));
	io_attr(h, UVERBS_ATTR_CREATE_CQ_COMP_VECTOR, 4, pct(t, 90) ? 0 : rn(t, 4));
	io_attr(h, UVERBS_ATTR_CREATE_CQ_FLAGS, 8, pct(t, 90) ? 0 : rn(t, 8));
	io_attr(h, UVERBS_ATTR_CREATE_CQ_RESP_CQE, 4, PTR(cqe_out));
	if (ch >= 0 && pct(t, 30))
		io_attr(h, UVERBS_ATTR_CREATE_CQ_COMP_CHANNEL, 0, ch);
	if (ch >= 0 && pct(t, 20))
		io_attr(h, UVERBS_ATTR_CREATE_CQ_EVENT_FD, 0, ch);
	if (pct(t, 95))
		io_attr(h, UVERBS_ATTR_UHW_OUT, sizeof(*d), PTR(d));
	if (!io_send(t, "IOCTL_CQ_CREATE", h) && h->num_attrs) {
		h_add(H_CQ, (uint32_t)h->attrs[0].data);
		keep_mmap_info(&d->mi);
	}
}

static void io_create_qp(struct th *t)
{
	struct uverbs_ioreq r;
	struct ib_uverbs_ioctl_hdr *h = io_init(&r, UVERBS_OBJECT_QP,
						UVERBS_METHOD_QP_CREATE);
	struct rxe_create_qp_resp *d = (void *)t->resp;
	struct ib_uverbs_qp_cap *cap = scr(t, sizeof(*cap));
	struct ib_uverbs_qp_cap *rcap = scr(t, sizeof(*rcap));
	struct ib_uverbs_create_qp c = { 0 };
	__u32 *qpn = scr(t, 4);

	if (h_full(H_QP))
		return;
	memset(d, 0, sizeof(*d));
	create_qp_fields(t, &c);
	cap->max_send_wr = c.max_send_wr;
	cap->max_recv_wr = c.max_recv_wr;
	cap->max_send_sge = c.max_send_sge;
	cap->max_recv_sge = c.max_recv_sge;
	cap->max_inline_data = c.max_inline_data;
	io_attr(h, UVERBS_ATTR_CREATE_QP_HANDLE, 0, 0);
	io_attr(h, UVERBS_ATTR_CREATE_QP_PD_HANDLE, 0, c.pd_handle);
	io_attr(h, UVERBS_ATTR_CREATE_QP_SEND_CQ_HANDLE, 0, c.send_cq_handle);
	io_attr(h, UVERBS_ATTR_CREATE_QP_RECV_CQ_HANDLE, 0, c.recv_cq_handle);
	if (c.is_srq)
		io_attr(h, UVERBS_ATTR_CREATE_QP_SRQ_HANDLE, 0, c.srq_handle);
	io_attr(h, UVERBS_ATTR_CREATE_QP_USER_HANDLE, 8, c.user_handle);
	io_attr(h, UVERBS_ATTR_CREATE_QP_CAP, sizeof(*cap), PTR(cap));
	io_attr(h, UVERBS_ATTR_CREATE_QP_TYPE, 8, c.qp_type);
	io_attr(h, UVERBS_ATTR_CREATE_QP_FLAGS, 8,
		pct(t, 90) ? 0 : 1ULL << rn(t, 32));
	io_attr(h, UVERBS_ATTR_CREATE_QP_RESP_CAP, sizeof(*rcap), PTR(rcap));
	io_attr(h, UVERBS_ATTR_CREATE_QP_RESP_QP_NUM, 4, PTR(qpn));
	if (pct(t, 95))
		io_attr(h, UVERBS_ATTR_UHW_OUT, sizeof(*d), PTR(d));
	if (!io_send(t, "IOCTL_QP_CREATE", h) && h->num_attrs) {
		h_add(H_QP, (uint32_t)h->attrs[0].data);
		keep_mmap_info(&d->rq_mi);
		keep_mmap_info(&d->sq_mi);
	}
}

static void io_create_srq(struct th *t)
{
	struct uverbs_ioreq r;
	struct ib_uverbs_ioctl_hdr *h = io_init(&r, UVERBS_OBJECT_SRQ,
						UVERBS_METHOD_SRQ_CREATE);
	struct rxe_create_srq_resp *d = (void *)t->resp;
	__u32 *o_wr = scr(t, 4), *o_sge = scr(t, 4), *o_num = scr(t, 4);

	if (h_full(H_SRQ))
		return;
	memset(d, 0, sizeof(*d));
	io_attr(h, UVERBS_ATTR_CREATE_SRQ_HANDLE, 0, 0);
	io_attr(h, UVERBS_ATTR_CREATE_SRQ_PD_HANDLE, 0, h_pick(t, H_PD));
	io_attr(h, UVERBS_ATTR_CREATE_SRQ_USER_HANDLE, 8, rnd(t));
	io_attr(h, UVERBS_ATTR_CREATE_SRQ_MAX_WR, 4, qp_wr(t));
	io_attr(h, UVERBS_ATTR_CREATE_SRQ_MAX_SGE, 4, qp_sge(t));
	io_attr(h, UVERBS_ATTR_CREATE_SRQ_LIMIT, 4, rn(t, 4));
	io_attr(h, UVERBS_ATTR_CREATE_SRQ_TYPE, 8,
		pct(t, 90) ? IB_UVERBS_SRQT_BASIC : rn(t, 8));
	io_attr(h, UVERBS_ATTR_CREATE_SRQ_RESP_MAX_WR, 4, PTR(o_wr));
	io_attr(h, UVERBS_ATTR_CREATE_SRQ_RESP_MAX_SGE, 4, PTR(o_sge));
	io_attr(h, UVERBS_ATTR_CREATE_SRQ_RESP_SRQ_NUM, 4, PTR(o_num));
	if (pct(t, 95))
		io_attr(h, UVERBS_ATTR_UHW_OUT, sizeof(*d), PTR(d));
	if (!io_send(t, "IOCTL_SRQ_CREATE", h) && h->num_attrs) {
		h_add(H_SRQ, (uint32_t)h->attrs[0].data);
		keep_mmap_info(&d->mi);
	}
}

static void io_query(struct th *t)
{
	struct uverbs_ioreq r;
	struct ib_uverbs_ioctl_hdr *h;
	__u32 *a = scr(t, 4), *b = scr(t, 4);
	__u64 *c = scr(t, 8);

	switch (rn(t, 7)) {
	case 0:
		h = io_init(&r, UVERBS_OBJECT_DEVICE, UVERBS_METHOD_QUERY_PORT);
		io_attr(h, UVERBS_ATTR_QUERY_PORT_PORT_NUM, 8,
			pct(t, 90) ? 1 : rn(t, 256));
		io_attr(h, UVERBS_ATTR_QUERY_PORT_RESP,
			sizeof(struct ib_uverbs_query_port_resp_ex), PTR(t->resp));
		io_send(t, "IOCTL_QUERY_PORT", h);
		break;
	case 1:
		h = io_init(&r, UVERBS_OBJECT_DEVICE, UVERBS_METHOD_QUERY_CONTEXT);
		io_attr(h, UVERBS_ATTR_QUERY_CONTEXT_NUM_COMP_VECTORS, 4, PTR(a));
		io_attr(h, UVERBS_ATTR_QUERY_CONTEXT_CORE_SUPPORT, 8, PTR(c));
		io_send(t, "IOCTL_QUERY_CONTEXT", h);
		break;
	case 2:
		h = io_init(&r, UVERBS_OBJECT_DEVICE, UVERBS_METHOD_INFO_HANDLES);
		io_attr(h, UVERBS_ATTR_INFO_OBJECT_ID, 8,
			pct(t, 90) ? rn(t, UVERBS_OBJECT_ASYNC_EVENT + 1) : rnd(t));
		io_attr(h, UVERBS_ATTR_INFO_TOTAL_HANDLES, 4, PTR(a));
		io_attr(h, UVERBS_ATTR_INFO_HANDLES_LIST, 4 * (1 + rn(t, 128)),
			PTR(t->resp));
		io_send(t, "IOCTL_INFO_HANDLES", h);
		break;
	case 3:
		h = io_init(&r, UVERBS_OBJECT_DEVICE,
			    UVERBS_METHOD_QUERY_GID_TABLE);
		io_attr(h, UVERBS_ATTR_QUERY_GID_TABLE_ENTRY_SIZE, 8,
			pct(t, 90) ? sizeof(struct ib_uverbs_gid_entry) : rn(t, 64));
		io_attr(h, UVERBS_ATTR_QUERY_GID_TABLE_FLAGS, 8,
			pct(t, 90) ? 0 : rnd(t));
		io_attr(h, UVERBS_ATTR_QUERY_GID_TABLE_RESP_ENTRIES,
			sizeof(struct ib_uverbs_gid_entry) * (1 + rn(t, 16)),
			PTR(t->resp));
		io_attr(h, UVERBS_ATTR_QUERY_GID_TABLE_RESP_NUM_ENTRIES, 8,
			PTR(c));
		io_send(t, "IOCTL_QUERY_GID_TABLE", h);
		break;
	case 4:
		h = io_init(&r, UVERBS_OBJECT_DEVICE,
			    UVERBS_METHOD_QUERY_GID_ENTRY);
		io_attr(h, UVERBS_ATTR_QUERY_GID_ENTRY_PORT, 8,
			pct(t, 90) ? 1 : rn(t, 256));
		io_attr(h, UVERBS_ATTR_QUERY_GID_ENTRY_GID_INDEX, 8,
			pct(t, 90) ? rn(t, 4) : rnd(t));
		io_attr(h, UVERBS_ATTR_QUERY_GID_ENTRY_FLAGS, 8, 0);
		io_attr(h, UVERBS_ATTR_QUERY_GID_ENTRY_RESP_ENTRY,
			sizeof(struct ib_uverbs_gid_entry), PTR(t->resp));
		io_send(t, "IOCTL_QUERY_GID_ENTRY", h);
		break;
	case 5:
		h = io_init(&r, UVERBS_OBJECT_MR, UVERBS_METHOD_QUERY_MR);
		io_attr(h, UVERBS_ATTR_QUERY_MR_HANDLE, 0, h_pick(t, H_MR));
		io_attr(h, UVERBS_ATTR_QUERY_MR_RESP_LKEY, 4, PTR(a));
		io_attr(h, UVERBS_ATTR_QUERY_MR_RESP_RKEY, 4, PTR(b));
		io_attr(h, UVERBS_ATTR_QUERY_MR_RESP_LENGTH, 8, PTR(c));
		io_send(t, "IOCTL_QUERY_MR", h);
		break;
	default:
		/* a write() command through the ioctl path */
		h = io_init(&r, UVERBS_OBJECT_DEVICE, UVERBS_METHOD_INVOKE_WRITE);
		{
			struct ib_uverbs_query_port *q = scr(t, sizeof(*q));

			q->port_num = 1;

			io_attr(h, UVERBS_ATTR_WRITE_CMD, 8,
				pct(t, 80) ? IB_USER_VERBS_CMD_QUERY_PORT :
					     rn(t, 64));
			io_attr(h, UVERBS_ATTR_CORE_IN, sizeof(*q), PTR(q));
			io_attr(h, UVERBS_ATTR_CORE_OUT,
				sizeof(struct ib_uverbs_query_port_resp),
				PTR(t->resp));
			io_send(t, "IOCTL_INVOKE_WRITE", h);
		}
		break;
	}
}

static void io_dmabuf_mr(struct th *t)
{
	struct uverbs_ioreq r;
	struct ib_uverbs_ioctl_hdr *h = io_init(&r, UVERBS_OBJECT_MR,
						UVERBS_METHOD_REG_DMABUF_MR);
	__u32 *lkey = scr(t, 4), *rkey = scr(t, 4);
	__u64 start, len;

	if (h_full(H_MR))
		return;
	mr_range(t, &start, &len);
	io_attr(h, UVERBS_ATTR_REG_DMABUF_MR_HANDLE, 0, 0);
	io_attr(h, UVERBS_ATTR_REG_DMABUF_MR_PD_HANDLE, 0, h_pick(t, H_PD));
	io_attr(h, UVERBS_ATTR_REG_DMABUF_MR_OFFSET, 8, 0);
	io_attr(h, UVERBS_ATTR_REG_DMABUF_MR_LENGTH, 8, len);
	io_attr(h, UVERBS_ATTR_REG_DMABUF_MR_IOVA, 8, start);
	/* the device fd is no dma-buf: a failure either way */
	io_attr(h, UVERBS_ATTR_REG_DMABUF_MR_FD, 4, pct(t, 50) ? (__u32)g_fd : rn(t, 64));
	io_attr(h, UVERBS_ATTR_REG_DMABUF_MR_ACCESS_FLAGS, 4, access_flags(t));
	io_attr(h, UVERBS_ATTR_REG_DMABUF_MR_RESP_LKEY, 4, PTR(lkey));
	io_attr(h, UVERBS_ATTR_REG_DMABUF_MR_RESP_RKEY, 4, PTR(rkey));
	if (!io_send(t, "IOCTL_REG_DMABUF_MR", h) && h->num_attrs)
		h_add(H_MR, (uint32_t)h->attrs[0].data);
}

static void io_random(struct th *t)
{
	struct uverbs_ioreq r;
	struct ib_uverbs_ioctl_hdr *h;
	unsigned int i, n = rn(t, 8);

	h = io_init(&r, pct(t, 90) ? rn(t, UVERBS_OBJECT_ASYNC_EVENT + 2) :
				     rnd(t),
		    pct(t, 90) ? rn(t, 8) : rnd(t));
	for (i = 0; i < n; i++) {
		__u16 id = pct(t, 80) ? rn(t, 16) :
			   (pct(t, 50) ? UVERBS_ATTR_UHW_IN + rn(t, 2) : rnd(t));
		__u16 len = pct(t, 50) ? rn(t, 9) : rn(t, 512);
		__u64 data = len > 8 || pct(t, 30) ? PTR(t->resp) :
			     (pct(t, 50) ? rn(t, 64) : rnd(t));

		io_attr(h, id, len, data);
	}
	io_send(t, "IOCTL_RANDOM", h);
}

/* ------------------------------------------------------------------------ */
/* fds, mmap, re-open                                                        */

static void do_read_event(struct th *t)
{
	__u64 ev[4];
	int fd = pick_efd(t);
	long r;

	if (fd < 0)
		return;
	begin(t, "READ_EVENT");
	r = read(fd, ev, pct(t, 90) ? sizeof(ev) : rn(t, sizeof(ev)));
	done(t, "READ_EVENT", r);
}

static void do_mmap(struct th *t)
{
	__u64 off;
	size_t len;
	int prot, flags, n;
	void *p;
	long r;

	pthread_mutex_lock(&lock);
	n = mm_n;
	off = n ? mm[rn(t, n)].off : 0;
	len = n ? mm[rn(t, n)].size : (size_t)page_size;
	pthread_mutex_unlock(&lock);
	if (!n || pct(t, 10))
		off = pct(t, 50) ? (__u64)rn(t, 64) * page_size : rnd(t) & ~0xfffULL;
	switch (rn(t, 8)) {
	case 0: len += page_size; break;
	case 1: len = len > (size_t)page_size ? len - page_size : 1; break;
	case 2: len = 1 + rn(t, 1 << 20); break;
	}
	prot = pct(t, 80) ? PROT_READ | PROT_WRITE :
	       (int[]){ PROT_READ, PROT_WRITE, PROT_EXEC, PROT_NONE }[rn(t, 4)];
	flags = pct(t, 85) ? MAP_SHARED : MAP_PRIVATE;
	begin(t, "MMAP");
	p = mmap(NULL, len, prot, flags, g_fd, off);
	r = p == MAP_FAILED ? -1 : 0;
	done(t, "MMAP", r);
	if (p != MAP_FAILED)
		munmap(p, len);
}

/*
 * Scribble on a ring the driver shares with us (the rings are user memory
 * by design: the kernel must take nothing in them on trust), then kick the
 * requester with a POST_SEND.  A fault on the mapping (there should be
 * none while the device exists) is caught and counted, not fatal.
 */
static __thread sigjmp_buf ring_jmp;
static __thread volatile int in_ring;

static void ring_fault(int sig)
{
	if (in_ring)
		siglongjmp(ring_jmp, sig);
	signal(sig, SIG_DFL);
	raise(sig);
}

static void do_ring(struct th *t)
{
	struct rxe_queue_buf *q;
	__u32 size, elem, mask, n, i;
	__u64 off;
	void *p;

	pthread_mutex_lock(&lock);
	n = mm_n;
	i = rn(t, n);
	off = n ? mm[i].off : 0;
	size = n ? mm[i].size : 0;
	pthread_mutex_unlock(&lock);
	/* mapping a ring costs per page: the small ones only */
	if (!n || size < sizeof(*q) || size > 16 * page_size)
		return;
	begin(t, "RING_MMAP");
	p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, g_fd, off);
	done(t, "RING_MMAP", p == MAP_FAILED ? -1 : 0);
	if (p == MAP_FAILED)
		return;
	q = p;
	in_ring = 1;
	if (sigsetjmp(ring_jmp, 1)) {
		in_ring = 0;
		done(t, "RING_FAULT", -1);
		munmap(p, size);
		return;
	}
	elem = q->log2_elem_size < 16 ? 1u << q->log2_elem_size : 64;
	mask = q->index_mask;
	for (i = 0; i < 1 + rn(t, 4); i++) {
		switch (rn(t, 8)) {
		case 0: q->producer_index += 1 + rn(t, 4); break;
		case 1: q->consumer_index += 1 + rn(t, 4); break;
		case 2: q->producer_index = rnd(t); break;
		case 3: q->consumer_index = rnd(t); break;
		case 4: q->index_mask = rnd(t); break;
		case 5: q->log2_elem_size = rn(t, 64); break;
		default: {
			/* random bytes in one element of the data area */
			size_t at = (size_t)(rn(t, mask + 1) & mask) * elem;
			__u32 k, len = elem < 256 ? elem : 256;

			if (sizeof(*q) + at + len > size)
				break;
			for (k = 0; k < len; k += 8) {
				__u64 v = pct(t, 50) ? rn(t, 256) : rnd(t);

				memcpy(q->data + at + k, &v,
				       len - k < 8 ? len - k : 8);
			}
			break;
		}
		}
	}
	in_ring = 0;
	munmap(p, size);
	do_post(t);
}

/*
 * Swap a fresh open of the device in under g_fd, while the other thread
 * may be inside a call on the old file: the old file is released when
 * that call drops its reference.  Then close every fd but stdio and the
 * device (event fds, and fds random ioctls created), and forget all
 * handles.
 */
static void do_reopen(struct th *t)
{
	int nfd = open(dev_path, O_RDWR | O_CLOEXEC), fd;
	DIR *d;
	struct dirent *de;

	if (nfd < 0) {
		done(t, "REOPEN", -1);
		return;
	}
	pthread_mutex_lock(&lock);
	begin(t, "REOPEN");
	done(t, "REOPEN", dup2(nfd, g_fd));
	close(nfd);
	memset(tab, 0, sizeof(tab));
	mm_n = 0;
	efd_n = 0;
	d = opendir("/proc/self/fd");
	while (d && (de = readdir(d))) {
		fd = atoi(de->d_name);
		if (fd > 2 && fd != g_fd && fd != dirfd(d))
			close(fd);
	}
	if (d)
		closedir(d);
	pthread_mutex_unlock(&lock);
	do_get_context(t);
}

/* ------------------------------------------------------------------------ */
/* the mix                                                                    */

struct op {
	void (*fn)(struct th *t);
	const char *name;
	unsigned int w[2];	/* weight for thread 0, thread 1 */
};
#define OP(fn, w0, w1) { fn, #fn, { w0, w1 } }

static void io_destroy_any(struct th *t)
{
	switch (rn(t, 7)) {
	case 0: io_destroy(t, H_CQ, UVERBS_OBJECT_CQ, UVERBS_METHOD_CQ_DESTROY,
			   "IOCTL_CQ_DESTROY",
			   sizeof(struct ib_uverbs_destroy_cq_resp)); break;
	case 1: io_destroy(t, H_QP, UVERBS_OBJECT_QP, UVERBS_METHOD_QP_DESTROY,
			   "IOCTL_QP_DESTROY",
			   sizeof(struct ib_uverbs_destroy_qp_resp)); break;
	case 2: io_destroy(t, H_SRQ, UVERBS_OBJECT_SRQ,
			   UVERBS_METHOD_SRQ_DESTROY, "IOCTL_SRQ_DESTROY",
			   sizeof(struct ib_uverbs_destroy_srq_resp)); break;
	case 3: io_destroy(t, H_PD, UVERBS_OBJECT_PD, UVERBS_METHOD_PD_DESTROY,
			   "IOCTL_PD_DESTROY", 0); break;
	case 4: io_destroy(t, H_MR, UVERBS_OBJECT_MR, UVERBS_METHOD_MR_DESTROY,
			   "IOCTL_MR_DESTROY", 0); break;
	case 5: io_destroy(t, H_MW, UVERBS_OBJECT_MW, UVERBS_METHOD_MW_DESTROY,
			   "IOCTL_MW_DESTROY", 0); break;
	default: io_destroy(t, H_AH, UVERBS_OBJECT_AH, UVERBS_METHOD_AH_DESTROY,
			    "IOCTL_AH_DESTROY", 0); break;
	}
}

static void io_create_any(struct th *t)
{
	switch (rn(t, 4)) {
	case 0: io_create_cq(t); break;
	case 1: io_create_qp(t); break;
	case 2: io_create_srq(t); break;
	default: io_dmabuf_mr(t); break;
	}
}

static void io_async_alloc(struct th *t)
{
	struct uverbs_ioreq r;
	struct ib_uverbs_ioctl_hdr *h = io_init(&r, UVERBS_OBJECT_ASYNC_EVENT,
						UVERBS_METHOD_ASYNC_EVENT_ALLOC);

	if (efd_n >= FMAX)
		return;
	io_attr(h, UVERBS_ATTR_ASYNC_EVENT_ALLOC_FD_HANDLE, 0, 0);
	if (!io_send(t, "IOCTL_ASYNC_EVENT_ALLOC", h) && h->num_attrs) {
		int fd = (int)h->attrs[0].data;

		if (fd > 2 && fd != g_fd)
			efd_add(fd);
	}
}

/*
 * Weights per thread.  Thread 0 creates, thread 1 mostly uses and
 * destroys.  Creating objects (vmalloc'ed rings, pinned pages) costs
 * milliseconds under emulation where a cheap call costs tens of
 * microseconds, so creation and destruction are a small share; the bulk
 * is calls on live objects and malformed calls.
 */
static struct op ops[] = {
	OP(do_query_device, 5, 4),
	OP(do_query_port, 5, 4),
	OP(do_get_context, 1, 1),
	OP(do_alloc_pd, 3, 1),
	OP(do_dealloc_pd, 1, 2),
	OP(do_reg_mr, 2, 1),
	OP(do_rereg_mr, 1, 1),
	OP(do_dereg_mr, 1, 2),
	OP(do_alloc_mw, 2, 1),
	OP(do_dealloc_mw, 1, 2),
	OP(do_comp_channel, 1, 0),
	OP(do_create_cq, 2, 1),
	OP(do_destroy_cq, 1, 2),
	OP(do_resize_cq, 1, 1),
	OP(do_poll_cq, 8, 8),
	OP(do_notify_cq, 6, 6),
	OP(do_create_qp, 2, 1),
	OP(do_destroy_qp, 1, 2),
	OP(do_query_qp, 6, 6),
	OP(do_modify_qp, 14, 10),
	OP(do_create_srq, 1, 0),
	OP(do_modify_srq, 1, 1),
	OP(do_query_srq, 4, 4),
	OP(do_destroy_srq, 1, 1),
	OP(do_create_ah, 2, 1),
	OP(do_destroy_ah, 1, 2),
	OP(do_mcast, 1, 1),
	OP(do_post, 8, 8),
	OP(do_random_write, 10, 10),
	OP(io_create_any, 1, 1),
	OP(io_destroy_any, 1, 2),
	OP(io_query, 8, 8),
	OP(io_random, 10, 10),
	OP(io_async_alloc, 1, 0),
	OP(do_read_event, 4, 0),
	OP(do_mmap, 2, 2),
	OP(do_ring, 1, 1),
};

static unsigned int wsum[2];

static void *run(void *arg)
{
	struct th *t = arg;

	while (t->calls < t->target) {
		unsigned int w = rn(t, wsum[t->id]), i;

		/* thread 0: now and then a re-open, racing thread 1 */
		if (t->id == 0 && rn(t, 20000) == 0) {
			do_reopen(t);
			continue;
		}
		for (i = 0; i < ARRAY_SIZE(ops); i++) {
			if (w < ops[i].w[t->id])
				break;
			w -= ops[i].w[t->id];
		}
		ops[i].fn(t);
		/* a full table would stop creation: empty one now and then */
		if (t->id == 0 && t->calls % 4096 == 4095)
			do_reopen(t);
	}
	return NULL;
}

/*
 * --case mcast-twice: what the fuzzer found on the in-tree 6.1 stack,
 * replayed exactly.  A UD QP is attached to one group twice, with two
 * different MLIDs (RoCE ignores the MLID, uverbs keeps one entry per gid
 * and MLID), then the file is closed with everything still in place.
 * Prints "mcast_twice attach=R1,R2" and leaves the checking to the caller
 * (rdma res, kernel log).
 */
static int case_mcast_twice(struct th *t)
{
	struct ib_uverbs_alloc_pd pd = { 0 };
	struct ib_uverbs_create_cq cq = { 0 };
	struct ib_uverbs_create_qp qp = { 0 };
	struct ib_uverbs_attach_mcast mc = { .gid = { 0xff, 0x0e, [15] = 1 } };
	__u32 pdh, cqh;
	int r1, r2, rq;

	t->exact = 1;
	do_get_context(t);
	if (wcmd(t, "ALLOC_PD", IB_USER_VERBS_CMD_ALLOC_PD, &pd, sizeof(pd),
		 sizeof(struct ib_uverbs_alloc_pd_resp), 1))
		return 1;
	pdh = RESP(t, struct ib_uverbs_alloc_pd_resp)->pd_handle;
	cq.cqe = 4;
	cq.comp_channel = -1;
	if (wcmd(t, "CREATE_CQ", IB_USER_VERBS_CMD_CREATE_CQ, &cq, sizeof(cq),
		 sizeof(struct ib_uverbs_create_cq_resp) +
			 sizeof(struct rxe_create_cq_resp), 1))
		return 1;
	cqh = RESP(t, struct ib_uverbs_create_cq_resp)->cq_handle;
	qp.pd_handle = pdh;
	qp.send_cq_handle = qp.recv_cq_handle = cqh;
	qp.max_send_wr = qp.max_recv_wr = 1;
	qp.max_send_sge = qp.max_recv_sge = 1;
	qp.qp_type = IB_UVERBS_QPT_UD;
	rq = wcmd(t, "CREATE_QP", IB_USER_VERBS_CMD_CREATE_QP, &qp, sizeof(qp),
		  sizeof(struct ib_uverbs_create_qp_resp) +
			  sizeof(struct rxe_create_qp_resp), 1);
	if (rq)
		return 1;
	mc.qp_handle = RESP(t, struct ib_uverbs_create_qp_resp)->qp_handle;
	mc.mlid = 0;
	r1 = wcmd(t, "ATTACH_MCAST", IB_USER_VERBS_CMD_ATTACH_MCAST, &mc,
		  sizeof(mc), 0, 0) ? errno : 0;
	mc.mlid = 1;
	r2 = wcmd(t, "ATTACH_MCAST", IB_USER_VERBS_CMD_ATTACH_MCAST, &mc,
		  sizeof(mc), 0, 0) ? errno : 0;
	printf("mcast_twice attach=%s,%s\n", r1 ? strerrorname_np(r1) : "OK",
	       r2 ? strerrorname_np(r2) : "OK");
	return 0;
}

static unsigned long last_progress[2];

static void watchdog(int sig)
{
	(void)sig;
	if (progress[0] == last_progress[0] && progress[1] == last_progress[1]) {
		fprintf(stderr, "uverbs_fuzz: no call returned in 120 s; in %s / %s\n",
			cur_what[0] ?: "-", cur_what[1] ?: "-");
		_exit(3);
	}
	last_progress[0] = progress[0];
	last_progress[1] = progress[1];
	alarm(120);
}

int main(int argc, char **argv)
{
	unsigned long long seed = 1, calls = 100000;
	int nthreads = 2, i, e;
	const char *skip = "", *kase = NULL;
	static struct th th[2];
	pthread_t tid;
	unsigned long total = 0, ok = 0, errs[256] = { 0 };
	char top[256] = "";

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--seed") && i + 1 < argc)
			seed = strtoull(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--calls") && i + 1 < argc)
			calls = strtoull(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--threads") && i + 1 < argc)
			nthreads = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--dev") && i + 1 < argc)
			dev_path = argv[++i];
		else if (!strcmp(argv[i], "--trace"))
			trace = 1;
		else if (!strcmp(argv[i], "--stats"))
			stats = 1;
		else if (!strcmp(argv[i], "--skip") && i + 1 < argc)
			skip = argv[++i];
		else if (!strcmp(argv[i], "--case") && i + 1 < argc)
			kase = argv[++i];
		else {
			fprintf(stderr, "usage: uverbs_fuzz [--seed N] [--calls N] [--threads 1|2] [--dev PATH] [--trace] [--stats] [--skip OPS] [--case NAME]\n");
			return 1;
		}
	}
	if (nthreads < 1 || nthreads > 2)
		nthreads = 2;
	page_size = sysconf(_SC_PAGESIZE);
	guard = mmap(NULL, page_size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	mrbuf = mmap(NULL, MRBUF_LEN, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (guard == MAP_FAILED || mrbuf == MAP_FAILED) {
		perror("uverbs_fuzz: mmap");
		return 1;
	}
	memset(mrbuf, 0x5a, MRBUF_LEN);
	for (i = 0; i < nthreads; i++) {
		th[i].resp = mmap(NULL, RESP_LEN, PROT_READ | PROT_WRITE,
				  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (th[i].resp == MAP_FAILED) {
			perror("uverbs_fuzz: mmap");
			return 1;
		}
	}
	g_fd = open(dev_path, O_RDWR | O_CLOEXEC);
	if (g_fd < 0) {
		fprintf(stderr, "uverbs_fuzz: %s: %s\n", dev_path, strerror(errno));
		return 1;
	}
	/* a SIGPIPE or a SIGBUS would be a finding too, but is not ours to die of */
	signal(SIGPIPE, SIG_IGN);
	signal(SIGALRM, watchdog);
	signal(SIGBUS, ring_fault);
	signal(SIGSEGV, ring_fault);
	alarm(120);
	for (i = 0; i < (int)ARRAY_SIZE(ops); i++) {
		/* --skip do_mcast,io_random: leave kinds out, to narrow a finding */
		const char *m = strstr(skip, ops[i].name);
		size_t l = strlen(ops[i].name);

		if (m && (m == skip || m[-1] == ',') && (!m[l] || m[l] == ','))
			ops[i].w[0] = ops[i].w[1] = 0;
		wsum[0] += ops[i].w[0];
		wsum[1] += ops[i].w[1];
	}
	for (i = 0; i < nthreads; i++) {
		th[i].id = i;
		th[i].rs = seed * 0x100000001b3ULL + i;
		th[i].target = calls / nthreads + (i == 0 ? calls % nthreads : 0);
	}
	if (kase) {
		if (strcmp(kase, "mcast-twice")) {
			fprintf(stderr, "uverbs_fuzz: cases: mcast-twice\n");
			return 1;
		}
		e = case_mcast_twice(&th[0]);
		close(g_fd);
		return e;
	}
	do_get_context(&th[0]);
	if (nthreads == 2 && pthread_create(&tid, NULL, run, &th[1])) {
		perror("uverbs_fuzz: pthread_create");
		return 1;
	}
	run(&th[0]);
	if (nthreads == 2)
		pthread_join(tid, NULL);
	alarm(0);
	for (i = 0; i < nthreads; i++) {
		total += th[i].calls;
		ok += th[i].ok;
		for (e = 0; e < 256; e++)
			errs[e] += th[i].err[e];
	}
	fuzz_errno_top(errs, top, sizeof(top));
	printf("uverbs_fuzz seed=%llu calls=%lu ok=%lu errno_top=%s\n", seed,
	       total, ok, top[0] ? top : "-");
	for (i = 0; stats && i < nthreads; i++) {
		for (e = 0; e < SMAX && st[i][e].what; e++)
			fprintf(stderr, "T%d %-24s n=%-8lu ok=%-8lu us/call=%.1f\n",
				i, st[i][e].what, st[i][e].n, st[i][e].ok,
				1e6 * st[i][e].secs / st[i][e].n);
	}
	close(g_fd);
	return 0;
}
