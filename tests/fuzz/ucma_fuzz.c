// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ucma_fuzz: drive /dev/infiniband/rdma_cm with structure-aware sequences
 * of the write() commands librdmacm issues, and print one summary line:
 *
 *   ucma_fuzz seed=S calls=N ok=N events=N children=N migrated=N
 *             guessed=N errno_top=E:n,... event_types=EV:n,...
 *
 * (children: connection requests read; guessed: MIGRATE_IDs of a guessed
 * number that succeeded, most of them new ids not yet reported)
 *
 * Two files are open; two threads, each with its own random stream, race
 * on both of them and on one table of the ids and multicast joins each
 * file owns.  Most calls take the next step of an id's life (CREATE_ID,
 * BIND, LISTEN, RESOLVE_ADDR to this host, RESOLVE_ROUTE, CONNECT to a
 * listener of this host, ACCEPT or REJECT of the ids CONNECT_REQUEST
 * brings, DISCONNECT, DESTROY_ID), with real addresses (10.0.2.15,
 * fd00::15, multicast 224.0.1.x and ff0e::x) and ports from a small set
 * so that connects find listeners; JOIN twice of the same group and LEAVE
 * of either; MIGRATE_ID between the files, sometimes of an id number
 * guessed near the newest (a connection request's new id is numbered
 * before GET_EVENT reports it); QUERY, INIT_QP_ATTR, SET_OPTION, NOTIFY;
 * GET_EVENT after poll() says an event waits (the files are O_NONBLOCK
 * too, since the other thread may take it first).  A share of calls get a
 * wrong id, address, size or a random command.  Now and then a file is
 * re-opened (dup2() over its fd number, so its ids die with the old file
 * while the other thread may be in a call on it).
 *
 *   ucma_fuzz [--seed N] [--calls N] [--threads 1|2] [--dev PATH] [--trace]
 *             [--skip do_join,do_migrate,...]
 *   ucma_fuzz --directed migrate-child|dup-join [--dev PATH]
 *
 * --skip leaves kinds of call out (to narrow a finding down, or to run the
 * rest past a known one).  --directed runs one of the sequences of issue 19's findings exactly and
 * prints what it saw as one line; it exits 0 when the kernel behaved
 * (see the cases below), 4 when it showed the bug.
 *
 * No librdmacm: raw write() with <rdma/rdma_user_cm.h>.  Exits 0 when
 * every call was made (whatever the calls returned), 1 on a usage or
 * setup error, 3 when no call returned within 120 s.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <rdma/rdma_user_cm.h>
#include "fuzz_report.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define PTR(p) ((__u64)(uintptr_t)(p))

/*
 * rdma_cm event numbers in rdma_ucm_event_resp.event: ABI values that the
 * UAPI header does not name (the kernel's enum rdma_cm_event_type).
 */
enum {
	EV_ADDR_RESOLVED = 0,
	EV_ROUTE_RESOLVED = 2,
	EV_CONNECT_REQUEST = 4,
	EV_CONNECT_RESPONSE = 5,
	EV_ESTABLISHED = 9,
	EV_DISCONNECTED = 10,
	EV_DEVICE_REMOVAL = 11,
	EV_MULTICAST_JOIN = 12,
	EV_NR = 16,
};
#define QPT_RC 2	/* ib_qp_type values for CREATE_ID */
#define QPT_UD 4

/* ------------------------------------------------------------------------ */
/* random numbers: splitmix64, one stream per thread                         */

struct th {
	int id;
	uint64_t rs;
	unsigned long calls, ok, target;
	unsigned long err[256];
};

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

static int pct(struct th *t, unsigned int p)
{
	return rn(t, 100) < p;
}

/* ------------------------------------------------------------------------ */
/* shared state: two files, what each owns                                   */

static const char *dev_path = "/dev/infiniband/rdma_cm";
static int g_fd[2] = { -1, -1 };	/* re-opened with dup2() */
static int trace;
static volatile unsigned long progress[2];
static const char *cur_what[2];
static unsigned long n_events, n_children, n_migrated, n_guessed;
static unsigned long n_evtype[EV_NR];

enum { S_NEW, S_BOUND, S_LISTEN, S_ADDR, S_ROUTE, S_CONN, S_CHILD, S_UP };
#define IMAX 48
#define MMAX 24
struct ident {
	uint32_t id;
	uint8_t ud;	/* RDMA_PS_UDP/IPOIB: joins, no connects */
	uint8_t state;
	uint8_t v6;
};
static struct {
	struct ident ids[IMAX];
	int n;
	uint32_t mc[MMAX];
	int nmc;
} tab[2];
static uint32_t newest_id;	/* highest id number seen */
/* read outside the lock: any recent value will do for a guess */
#define NEWEST() __atomic_load_n(&newest_id, __ATOMIC_RELAXED)
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void id_add(int f, uint32_t id, int ud, int state, int v6)
{
	pthread_mutex_lock(&lock);
	if (tab[f].n < IMAX)
		tab[f].ids[tab[f].n++] = (struct ident){ id, ud, state, v6 };
	if (id > newest_id && id < 1u << 20)
		__atomic_store_n(&newest_id, id, __ATOMIC_RELAXED);
	pthread_mutex_unlock(&lock);
}

/* Take an id of file @f out of the table (to destroy or move it). */
static int id_take(struct th *t, int f, struct ident *out)
{
	int i, ret = 0;

	pthread_mutex_lock(&lock);
	if (tab[f].n) {
		i = rn(t, tab[f].n);
		*out = tab[f].ids[i];
		tab[f].ids[i] = tab[f].ids[--tab[f].n];
		ret = 1;
	}
	pthread_mutex_unlock(&lock);
	return ret;
}

/* A copy of an id of file @f, preferring state @want (-1: any). */
static int id_pick(struct th *t, int f, int want, struct ident *out)
{
	int i, n, start, ret = 0;

	pthread_mutex_lock(&lock);
	n = tab[f].n;
	start = rn(t, n ? n : 1);
	for (i = 0; i < n && !ret; i++) {
		struct ident *e = &tab[f].ids[(start + i) % n];

		if (want < 0 || e->state == want) {
			*out = *e;
			ret = 1;
		}
	}
	pthread_mutex_unlock(&lock);
	return ret;
}

static void id_set_state(int f, uint32_t id, int state)
{
	int i;

	pthread_mutex_lock(&lock);
	for (i = 0; i < tab[f].n; i++)
		if (tab[f].ids[i].id == id)
			tab[f].ids[i].state = state;
	pthread_mutex_unlock(&lock);
}

/* An id number for a call: mostly a real one, else guessed or bogus. */
static uint32_t some_id(struct th *t, int f, int want)
{
	struct ident e;

	if (pct(t, 90) && (id_pick(t, f, want, &e) || id_pick(t, f, -1, &e)))
		return e.id;
	switch (rn(t, 4)) {
	case 0: return NEWEST() + rn(t, 4);	/* maybe an unread child */
	case 1: return rn(t, NEWEST() + 2);
	case 2: return (uint32_t)rnd(t);
	default: return id_pick(t, !f, -1, &e) ? e.id : 0; /* other file's */
	}
}

static void mc_add(int f, uint32_t id)
{
	pthread_mutex_lock(&lock);
	if (tab[f].nmc < MMAX)
		tab[f].mc[tab[f].nmc++] = id;
	pthread_mutex_unlock(&lock);
}

static int mc_take(struct th *t, int f, uint32_t *id)
{
	int i, ret = 0;

	pthread_mutex_lock(&lock);
	if (tab[f].nmc) {
		i = rn(t, tab[f].nmc);
		*id = tab[f].mc[i];
		tab[f].mc[i] = tab[f].mc[--tab[f].nmc];
		ret = 1;
	}
	pthread_mutex_unlock(&lock);
	return ret;
}

/* ------------------------------------------------------------------------ */
/* one command                                                                */

static int ucmd(struct th *t, int fd, const char *what, __u32 cmd,
		const void *req, __u16 in, __u16 out)
{
	struct {
		struct rdma_ucm_cmd_hdr hdr;
		unsigned char body[1024];
	} buf;
	size_t len = sizeof(buf.hdr) + in;
	int ret, e;

	buf.hdr.cmd = cmd;
	buf.hdr.in = in;
	buf.hdr.out = out;
	memcpy(buf.body, req, in > sizeof(buf.body) ? sizeof(buf.body) : in);
	if (len > sizeof(buf))
		len = sizeof(buf);
	if (t) {
		cur_what[t->id] = what;
		/* now and then a length that disagrees with the header */
		if (pct(t, 2))
			len = rn(t, len + 8);
	}
	ret = write(fd, &buf, len) < 0 ? -1 : 0;
	e = errno;
	if (t) {
		t->calls++;
		progress[t->id]++;
		if (!ret)
			t->ok++;
		else
			t->err[e & 255]++;
		if (trace)
			fprintf(stderr, "T%d %lu %s fd=%d -> %s\n", t->id, t->calls,
				what, fd, ret ? strerrorname_np(e) : "OK");
	}
	errno = e;
	return ret;
}
#define CMD(t, fd, name, req, out) \
	ucmd(t, fd, #name, RDMA_USER_CM_CMD_##name, &(req), sizeof(req), out)

/* ------------------------------------------------------------------------ */
/* addresses                                                                  */

static const uint16_t ports[] = { 7470, 7471, 7472, 7473 };

static void fill_addr(struct th *t, struct sockaddr_storage *ss, int v6,
		      int kind)
{
	memset(ss, 0, sizeof(*ss));
	if (v6) {
		struct sockaddr_in6 *a = (struct sockaddr_in6 *)ss;

		a->sin6_family = AF_INET6;
		a->sin6_port = htons(ports[rn(t, ARRAY_SIZE(ports))]);
		if (kind == 1)		/* any */
			;
		else if (kind == 2)	/* multicast ff0e::1..3 */
			inet_pton(AF_INET6, "ff0e::1", &a->sin6_addr),
			a->sin6_addr.s6_addr[15] = 1 + rn(t, 3);
		else
			inet_pton(AF_INET6, "fd00::15", &a->sin6_addr);
	} else {
		struct sockaddr_in *a = (struct sockaddr_in *)ss;

		a->sin_family = AF_INET;
		a->sin_port = htons(ports[rn(t, ARRAY_SIZE(ports))]);
		if (kind == 1)
			a->sin_addr.s_addr = 0;
		else if (kind == 2)
			a->sin_addr.s_addr = htonl(0xe0000101 + rn(t, 3));
		else
			a->sin_addr.s_addr = htonl(0x0a00020f);
	}
	/* a wrong one now and then */
	switch (pct(t, 5) ? rn(t, 5) : 9) {
	case 0: ss->ss_family = rn(t, 64); break;
	case 1: ((struct sockaddr_in *)ss)->sin_addr.s_addr = htonl(0x7f000001); break;
	case 2: ((struct sockaddr_in *)ss)->sin_port = 0; break;
	case 3: memset((char *)ss + 2, 0xff, 26); break;
	case 4: ((struct sockaddr_in *)ss)->sin_addr.s_addr = (uint32_t)rnd(t); break;
	}
}

static __u16 addr_len(const struct sockaddr_storage *ss)
{
	return ss->ss_family == AF_INET6 ? sizeof(struct sockaddr_in6) :
	       sizeof(struct sockaddr_in);
}

/* ------------------------------------------------------------------------ */
/* the commands                                                               */

static int pick_file(struct th *t)
{
	return rn(t, 2);
}

static void do_create(struct th *t)
{
	static const __u16 ps[] = { RDMA_PS_TCP, RDMA_PS_TCP, RDMA_PS_TCP,
				    RDMA_PS_UDP, RDMA_PS_IPOIB, RDMA_PS_IB };
	struct rdma_ucm_create_id_resp resp = { 0 };
	struct rdma_ucm_create_id c = { .response = PTR(&resp) };
	int f = pick_file(t), ud;

	pthread_mutex_lock(&lock);
	ud = tab[f].n >= IMAX;
	pthread_mutex_unlock(&lock);
	if (ud)		/* full: make room first */
		return;
	c.ps = ps[rn(t, ARRAY_SIZE(ps))];
	ud = c.ps == RDMA_PS_UDP || c.ps == RDMA_PS_IPOIB;
	c.qp_type = ud ? QPT_UD : QPT_RC;
	c.uid = rnd(t);
	if (pct(t, 3))
		c.ps = rn(t, 0x200);
	if (pct(t, 2))
		c.response = 0;
	if (!CMD(t, g_fd[f], CREATE_ID, c, sizeof(resp)) && c.response)
		id_add(f, resp.id, ud, S_NEW, rn(t, 4) == 0);
}

static void do_destroy(struct th *t)
{
	struct rdma_ucm_destroy_id_resp resp;
	struct rdma_ucm_destroy_id c = { .response = PTR(&resp) };
	struct ident e;
	int f = pick_file(t);

	if (pct(t, 5))
		c.id = some_id(t, f, -1);
	else if (id_take(t, f, &e))
		c.id = e.id;
	else
		return;
	CMD(t, g_fd[f], DESTROY_ID, c, sizeof(resp));
}

static void do_bind(struct th *t)
{
	struct ident e = { 0 };
	int f = pick_file(t);

	if (!id_pick(t, f, S_NEW, &e) && pct(t, 80))
		return;
	if (pct(t, 50)) {
		struct rdma_ucm_bind c = { .id = e.id };

		fill_addr(t, (struct sockaddr_storage *)&c.addr, e.v6,
			  pct(t, 20));
		c.addr_size = addr_len((struct sockaddr_storage *)&c.addr);
		if (pct(t, 3))
			c.addr_size = rn(t, 130);
		if (!CMD(t, g_fd[f], BIND, c, 0))
			id_set_state(f, e.id, S_BOUND);
	} else {
		struct rdma_ucm_bind_ip c = { .id = e.id };
		struct sockaddr_storage ss;

		fill_addr(t, &ss, e.v6, pct(t, 20));
		memcpy(&c.addr, &ss, sizeof(c.addr));
		if (!CMD(t, g_fd[f], BIND_IP, c, 0))
			id_set_state(f, e.id, S_BOUND);
	}
}

static void do_listen(struct th *t)
{
	struct rdma_ucm_listen c = { .backlog = 1 + rn(t, 8) };
	int f = pick_file(t);

	c.id = some_id(t, f, S_BOUND);
	if (pct(t, 3))
		c.backlog = (uint32_t)rnd(t);
	if (!CMD(t, g_fd[f], LISTEN, c, 0))
		id_set_state(f, c.id, S_LISTEN);
}

static void do_resolve_addr(struct th *t)
{
	struct ident e = { 0 };
	int f = pick_file(t);

	if (!id_pick(t, f, S_NEW, &e) && !id_pick(t, f, S_BOUND, &e) &&
	    pct(t, 80))
		return;
	if (pct(t, 70)) {
		struct rdma_ucm_resolve_addr c = { .id = e.id };

		c.timeout_ms = 50 + rn(t, 2000);
		if (pct(t, 30)) {
			fill_addr(t, (struct sockaddr_storage *)&c.src_addr,
				  e.v6, 0);
			((struct sockaddr_in *)&c.src_addr)->sin_port = 0;
			c.src_size = addr_len((struct sockaddr_storage *)&c.src_addr);
		}
		fill_addr(t, (struct sockaddr_storage *)&c.dst_addr, e.v6,
			  e.ud && pct(t, 30) ? 2 : 0);
		c.dst_size = addr_len((struct sockaddr_storage *)&c.dst_addr);
		if (pct(t, 3))
			c.dst_size = rn(t, 256);
		if (!CMD(t, g_fd[f], RESOLVE_ADDR, c, 0))
			id_set_state(f, e.id, S_ADDR);
	} else {
		struct rdma_ucm_resolve_ip c = { .id = e.id };
		struct sockaddr_storage ss;

		c.timeout_ms = 50 + rn(t, 2000);
		fill_addr(t, &ss, e.v6, 0);
		memcpy(&c.dst_addr, &ss, sizeof(c.dst_addr));
		if (!CMD(t, g_fd[f], RESOLVE_IP, c, 0))
			id_set_state(f, e.id, S_ADDR);
	}
}

static void do_resolve_route(struct th *t)
{
	struct rdma_ucm_resolve_route c = { .timeout_ms = 50 + rn(t, 2000) };
	int f = pick_file(t);

	c.id = some_id(t, f, S_ADDR);
	CMD(t, g_fd[f], RESOLVE_ROUTE, c, 0);
}

static void conn_param(struct th *t, struct rdma_ucm_conn_param *p)
{
	p->qp_num = 0x11 + rn(t, 64);
	p->private_data_len = pct(t, 50) ? rn(t, 57) : 0;
	if (pct(t, 3))
		p->private_data_len = rn(t, 256);
	memset(p->private_data, 0xa5, p->private_data_len);
	p->responder_resources = rn(t, 4);
	p->initiator_depth = rn(t, 4);
	p->retry_count = rn(t, 8);
	p->rnr_retry_count = rn(t, 8);
	p->srq = pct(t, 10);
	p->valid = pct(t, 90);
}

static void do_connect(struct th *t)
{
	struct rdma_ucm_connect c = { 0 };
	int f = pick_file(t);

	c.id = some_id(t, f, S_ROUTE);
	conn_param(t, &c.conn_param);
	if (!CMD(t, g_fd[f], CONNECT, c, 0))
		id_set_state(f, c.id, S_CONN);
}

static void do_accept(struct th *t)
{
	struct rdma_ucm_accept c = { .uid = rnd(t) };
	int f = pick_file(t);

	c.id = some_id(t, f, S_CHILD);
	conn_param(t, &c.conn_param);
	if (!CMD(t, g_fd[f], ACCEPT, c, 0))
		id_set_state(f, c.id, S_UP);
}

static void do_reject(struct th *t)
{
	struct rdma_ucm_reject c = { .reason = rn(t, 4) };
	int f = pick_file(t);

	c.id = some_id(t, f, S_CHILD);
	c.private_data_len = pct(t, 50) ? rn(t, 149) : 0;
	if (pct(t, 3))
		c.private_data_len = 255;
	CMD(t, g_fd[f], REJECT, c, 0);
}

static void do_disconnect(struct th *t)
{
	struct rdma_ucm_disconnect c;
	int f = pick_file(t);

	c.id = some_id(t, f, pct(t, 50) ? S_UP : S_CONN);
	CMD(t, g_fd[f], DISCONNECT, c, 0);
}

static void do_query(struct th *t)
{
	static unsigned char resp[2][4096];
	int f = pick_file(t);

	if (pct(t, 25)) {
		struct rdma_ucm_query c = { .response = PTR(resp[t->id]) };

		c.id = some_id(t, f, -1);
		CMD(t, g_fd[f], QUERY_ROUTE, c,
		    sizeof(struct rdma_ucm_query_route_resp));
	} else {
		struct rdma_ucm_query c = { .response = PTR(resp[t->id]) };
		__u16 out[] = { sizeof(struct rdma_ucm_query_addr_resp),
				sizeof(struct rdma_ucm_query_path_resp) + 2 * 64,
				sizeof(struct rdma_ucm_query_addr_resp) };

		c.id = some_id(t, f, -1);
		c.option = pct(t, 95) ? rn(t, 3) : (uint32_t)rnd(t);
		CMD(t, g_fd[f], QUERY, c,
		    pct(t, 5) ? rn(t, 4096) : out[c.option < 3 ? c.option : 0]);
	}
}

static void do_init_qp_attr(struct th *t)
{
	static struct ib_uverbs_qp_attr resp[2];
	struct rdma_ucm_init_qp_attr c = { .response = PTR(&resp[t->id]) };
	int f = pick_file(t);

	c.id = some_id(t, f, -1);
	c.qp_state = pct(t, 95) ? rn(t, 4) : (uint32_t)rnd(t);
	CMD(t, g_fd[f], INIT_QP_ATTR, c, sizeof(resp[0]));
}

static void do_set_option(struct th *t)
{
	unsigned char val[256];
	struct rdma_ucm_set_option c = { .optval = PTR(val) };
	int f = pick_file(t);

	memset(val, rn(t, 2) ? 0 : 1, sizeof(val));
	c.id = some_id(t, f, -1);
	switch (rn(t, 6)) {
	case 0: c.level = RDMA_OPTION_ID; c.optname = RDMA_OPTION_ID_TOS;
		c.optlen = 1; break;
	case 1: c.level = RDMA_OPTION_ID; c.optname = RDMA_OPTION_ID_REUSEADDR;
		c.optlen = 4; break;
	case 2: c.level = RDMA_OPTION_ID; c.optname = RDMA_OPTION_ID_AFONLY;
		c.optlen = 4; break;
	case 3: c.level = RDMA_OPTION_ID;
		c.optname = RDMA_OPTION_ID_ACK_TIMEOUT; c.optlen = 1; break;
	case 4: c.level = RDMA_OPTION_IB; c.optname = RDMA_OPTION_IB_PATH;
		c.optlen = 64 * (1 + rn(t, 3)); break;
	default: c.level = rn(t, 3); c.optname = rn(t, 6);
		c.optlen = rn(t, 300); break;
	}
	if (c.optlen > sizeof(val))
		c.optval = 8;	/* unmapped */
	CMD(t, g_fd[f], SET_OPTION, c, 0);
}

static void do_notify(struct th *t)
{
	struct rdma_ucm_notify c = { .event = rn(t, 24) };
	int f = pick_file(t);

	c.id = some_id(t, f, -1);
	CMD(t, g_fd[f], NOTIFY, c, 0);
}

/*
 * JOIN of a group, and often the same group again on the same id, then
 * sometimes LEAVE of one of the two at once, while the join's event may
 * still be on its way.
 */
static void do_join(struct th *t)
{
	struct rdma_ucm_create_id_resp resp[2];
	struct rdma_ucm_join_mcast c = { .uid = rnd(t) };
	struct rdma_ucm_destroy_id_resp lresp;
	struct rdma_ucm_destroy_id l = { .response = PTR(&lresp) };
	struct ident e = { 0 };
	int f = pick_file(t), n = 0, i, times;

	/* a UD id (only they join), bound or resolved; a TCP one sometimes */
	for (i = 0; i < 4 && !e.ud; i++)
		if (!id_pick(t, f, i & 1 ? S_ADDR : S_BOUND, &e))
			e.ud = 0;
	if (!e.id && !e.ud && pct(t, 90))
		return;
	c.id = e.id;
	fill_addr(t, (struct sockaddr_storage *)&c.addr, e.v6, 2);
	c.addr_size = addr_len((struct sockaddr_storage *)&c.addr);
	c.join_flags = pct(t, 90) ? RDMA_MC_JOIN_FLAG_FULLMEMBER : rn(t, 3);
	times = pct(t, 60) ? 2 : 1;
	for (i = 0; i < times; i++) {
		c.response = PTR(&resp[n]);
		if (pct(t, 30)) {
			struct rdma_ucm_join_ip_mcast ci = {
				.response = c.response, .uid = c.uid, .id = c.id };

			memcpy(&ci.addr, &c.addr, sizeof(ci.addr));
			if (!CMD(t, g_fd[f], JOIN_IP_MCAST, ci, sizeof(resp[0])))
				n++;
		} else if (!CMD(t, g_fd[f], JOIN_MCAST, c, sizeof(resp[0]))) {
			n++;
		}
	}
	if (n && pct(t, 50)) {
		/* leave one of them now, the newer one more often */
		i = pct(t, 70) ? n - 1 : 0;
		l.id = resp[i].id;
		CMD(t, g_fd[f], LEAVE_MCAST, l, sizeof(lresp));
		resp[i] = resp[--n];
	}
	for (i = 0; i < n; i++)
		mc_add(f, resp[i].id);
}

static void do_leave(struct th *t)
{
	struct rdma_ucm_destroy_id_resp resp;
	struct rdma_ucm_destroy_id c = { .response = PTR(&resp) };
	int f = pick_file(t);

	if (pct(t, 5))
		c.id = rn(t, 64);
	else if (!mc_take(t, f, &c.id))
		return;
	CMD(t, g_fd[f], LEAVE_MCAST, c, sizeof(resp));
}

/*
 * MIGRATE_ID is written to the file the id goes to and names the file it
 * is in by fd.  Sometimes the number is a guess near the newest one seen:
 * a connection request's new id that GET_EVENT has not reported yet.
 */
static void do_migrate(struct th *t)
{
	struct rdma_ucm_migrate_resp resp;
	struct rdma_ucm_migrate_id c = { .response = PTR(&resp) };
	struct ident e = { 0 };
	int from = pick_file(t), to = !from, guessed = 0, i;

	if (pct(t, 3))
		to = from;
	if (pct(t, 25) || !id_take(t, from, &e)) {
		e.id = NEWEST() + rn(t, 3);
		e.state = S_CHILD;
		guessed = 1;
	}
	c.id = e.id;
	c.fd = pct(t, 97) ? (uint32_t)g_fd[from] : rn(t, 8);
	if (!CMD(t, g_fd[to], MIGRATE_ID, c, sizeof(resp))) {
		__atomic_fetch_add(&n_migrated, 1, __ATOMIC_RELAXED);
		if (guessed) {
			__atomic_fetch_add(&n_guessed, 1, __ATOMIC_RELAXED);
			/* it may be in a table already: take it out there */
			pthread_mutex_lock(&lock);
			for (i = 0; i < tab[from].n; i++)
				if (tab[from].ids[i].id == e.id)
					tab[from].ids[i--] =
						tab[from].ids[--tab[from].n];
			pthread_mutex_unlock(&lock);
		}
		id_add(to, e.id, e.ud, e.state, e.v6);
	} else if (!guessed) {
		id_add(from, e.id, e.ud, e.state, e.v6);
	}
}

/* One event, if poll() says there is one (the other thread may be first). */
static void do_get_event(struct th *t)
{
	struct rdma_ucm_event_resp resp;
	struct rdma_ucm_get_event c = { .response = PTR(&resp) };
	int f = pick_file(t), st = -1;
	struct pollfd p = { .fd = g_fd[f], .events = POLLIN };

	if (poll(&p, 1, 0) != 1 && pct(t, 90))
		return;
	if (CMD(t, g_fd[f], GET_EVENT, c, pct(t, 3) ? rn(t, sizeof(resp)) :
						     sizeof(resp)))
		return;
	__atomic_fetch_add(&n_events, 1, __ATOMIC_RELAXED);
	if (resp.event < EV_NR)
		__atomic_fetch_add(&n_evtype[resp.event], 1, __ATOMIC_RELAXED);
	switch (resp.event) {
	case EV_CONNECT_REQUEST:
		__atomic_fetch_add(&n_children, 1, __ATOMIC_RELAXED);
		id_add(f, resp.id, 0, S_CHILD, 0);
		return;
	case EV_ADDR_RESOLVED: st = S_ADDR; break;
	case EV_ROUTE_RESOLVED: st = S_ROUTE; break;
	case EV_ESTABLISHED: st = S_UP; break;
	case EV_CONNECT_RESPONSE: st = S_UP; break;
	}
	if (st >= 0)
		id_set_state(f, resp.id, st);
}

/* Random commands, sizes and bytes. */
static void do_random(struct th *t)
{
	/* twice the most a response may be told to take (out < 600) */
	unsigned char body[1200];
	unsigned int i;
	__u16 in = rn(t, 400);

	for (i = 0; i < sizeof(body); i += 8) {
		uint64_t v = rnd(t);

		memcpy(body + i, &v, 8);
	}
	/* ids in the usual place, responses to our own memory */
	memcpy(body + (pct(t, 50) ? 0 : 8), &(uint32_t){ some_id(t, 0, -1) }, 4);
	if (pct(t, 50))
		memcpy(body, &(uint64_t){ PTR(body) }, 8);
	ucmd(t, g_fd[pick_file(t)], "RANDOM",
	     pct(t, 90) ? rn(t, RDMA_USER_CM_CMD_JOIN_MCAST + 2) : rn(t, 1000),
	     body, in, rn(t, 600));
}

/* Close a file under the other thread, with whatever it owns. */
static void do_reopen(struct th *t)
{
	int f = pick_file(t);
	int nfd = open(dev_path, O_RDWR | O_NONBLOCK | O_CLOEXEC);

	if (nfd < 0)
		return;
	pthread_mutex_lock(&lock);
	cur_what[t->id] = "REOPEN";
	dup2(nfd, g_fd[f]);
	close(nfd);
	tab[f].n = 0;
	tab[f].nmc = 0;
	t->calls++;
	t->ok++;
	progress[t->id]++;
	pthread_mutex_unlock(&lock);
}

struct op {
	void (*fn)(struct th *t);
	const char *name;
	unsigned int w;
};
#define OP(fn, w) { fn, #fn, w }

/*
 * Steps of an id's life weigh most; every command librdmacm issues is in
 * the mix.  GET_EVENT is frequent so that connection requests come back
 * as ids to accept, reject or migrate.
 */
static struct op ops[] = {
	OP(do_create, 6),
	OP(do_destroy, 4),
	OP(do_bind, 6),
	OP(do_listen, 4),
	OP(do_resolve_addr, 4),
	OP(do_resolve_route, 4),
	OP(do_connect, 5),
	OP(do_accept, 4),
	OP(do_reject, 2),
	OP(do_disconnect, 2),
	OP(do_query, 6),
	OP(do_init_qp_attr, 3),
	OP(do_set_option, 3),
	OP(do_notify, 1),
	OP(do_join, 3),
	OP(do_leave, 2),
	OP(do_migrate, 3),
	OP(do_get_event, 14),
	OP(do_random, 6),
};

static void *run(void *arg)
{
	struct th *t = arg;
	unsigned int wsum = 0, w, i;

	for (i = 0; i < ARRAY_SIZE(ops); i++)
		wsum += ops[i].w;
	while (t->calls < t->target) {
		if (rn(t, 30000) == 0) {
			do_reopen(t);
			continue;
		}
		w = rn(t, wsum);
		for (i = 0; w >= ops[i].w; i++)
			w -= ops[i].w;
		ops[i].fn(t);
	}
	return NULL;
}

/* ------------------------------------------------------------------------ */
/* the directed cases                                                         */

static const char *en(int ok)
{
	return ok ? "OK" : strerrorname_np(errno) ?: "?";
}

static int create_id(int fd, __u16 ps, uint32_t *id)
{
	struct rdma_ucm_create_id_resp resp = { 0 };
	struct rdma_ucm_create_id c = { .response = PTR(&resp), .ps = ps };

	c.qp_type = ps == RDMA_PS_UDP ? QPT_UD : QPT_RC;
	if (CMD(NULL, fd, CREATE_ID, c, sizeof(resp)))
		return -1;
	*id = resp.id;
	return 0;
}

static int destroy_id(int fd, uint32_t id)
{
	struct rdma_ucm_destroy_id_resp resp;
	struct rdma_ucm_destroy_id c = { .response = PTR(&resp), .id = id };

	return CMD(NULL, fd, DESTROY_ID, c, sizeof(resp));
}

/* Wait up to @ms for an event on @fd, of @id if not ~0; -1 if none came. */
static int wait_event_ms(int fd, uint32_t id, struct rdma_ucm_event_resp *r,
			 int ms)
{
	struct rdma_ucm_get_event c = { .response = PTR(r) };
	struct pollfd p = { .fd = fd, .events = POLLIN };
	int i;

	for (i = 0; i < ms / 100; i++) {
		if (poll(&p, 1, 100) != 1)
			continue;
		if (CMD(NULL, fd, GET_EVENT, c, sizeof(*r)))
			continue;
		if (id == ~0u || r->id == id)
			return 0;
	}
	return -1;
}

static int wait_event(int fd, uint32_t id, struct rdma_ucm_event_resp *r)
{
	return wait_event_ms(fd, id, r, 5000);
}

static void v4(struct sockaddr_storage *ss, uint16_t port)
{
	struct sockaddr_in *a = (struct sockaddr_in *)ss;

	memset(ss, 0, sizeof(*ss));
	a->sin_family = AF_INET;
	a->sin_port = htons(port);
	a->sin_addr.s_addr = htonl(0x0a00020f);
}

/*
 * Finding 2.  A listener in file A; a connect to it from file B.  The
 * request's new id is numbered (the lowest free number) before GET_EVENT
 * reports it; MIGRATE_ID of that number into B, DESTROY_ID there, then
 * destroying the listener walks A's unread request, whose new id is freed
 * memory.  Under slab poisoning that read is silent (the freed id's
 * number reads as 0x6b6b6b6b, which names nothing), so the case makes it
 * visible: a fresh id created in between lands in the freed memory with
 * the same number, and destroying the listener then destroys the fresh
 * id behind its owner's back.  Prints
 *   migrate_child migrate=R destroy_child=R fresh_destroy=R
 * and fails (4) when the unread id could be migrated and the fresh id was
 * gone afterwards.
 */
static int case_migrate_child(void)
{
	int a = open(dev_path, O_RDWR | O_CLOEXEC);
	int b = open(dev_path, O_RDWR | O_CLOEXEC);
	struct rdma_ucm_event_resp ev;
	struct rdma_ucm_bind bind = { .addr_size = sizeof(struct sockaddr_in) };
	struct rdma_ucm_listen listen = { .backlog = 4 };
	struct rdma_ucm_resolve_addr ra = { .timeout_ms = 2000,
					    .dst_size = sizeof(struct sockaddr_in) };
	struct rdma_ucm_resolve_route rr = { .timeout_ms = 2000 };
	struct rdma_ucm_connect conn = { 0 };
	struct rdma_ucm_migrate_resp mresp;
	struct rdma_ucm_migrate_id mig = { .response = PTR(&mresp) };
	struct pollfd p = { .fd = a, .events = POLLIN };
	uint32_t lid, cid, child, fresh, guess;
	int migrated = 0, e_mig = ENOENT, r_fd, e_fd = 0, i;
	char dc[32] = "-", mg[32];

	if (a < 0 || b < 0 || create_id(a, RDMA_PS_TCP, &lid) ||
	    create_id(b, RDMA_PS_TCP, &cid)) {
		perror("ucma_fuzz: migrate-child setup");
		return 1;
	}
	bind.id = lid;
	v4((struct sockaddr_storage *)&bind.addr, 7479);
	listen.id = lid;
	ra.id = rr.id = conn.id = cid;
	v4((struct sockaddr_storage *)&ra.dst_addr, 7479);
	conn.conn_param.qp_num = 0x42;
	conn.conn_param.responder_resources = 1;
	conn.conn_param.initiator_depth = 1;
	conn.conn_param.retry_count = 1;
	conn.conn_param.valid = 1;
	if (CMD(NULL, a, BIND, bind, 0) || CMD(NULL, a, LISTEN, listen, 0) ||
	    CMD(NULL, b, RESOLVE_ADDR, ra, 0) || wait_event(b, cid, &ev) ||
	    ev.event != EV_ADDR_RESOLVED ||
	    CMD(NULL, b, RESOLVE_ROUTE, rr, 0) || wait_event(b, cid, &ev) ||
	    ev.event != EV_ROUTE_RESOLVED || CMD(NULL, b, CONNECT, conn, 0)) {
		fprintf(stderr, "ucma_fuzz: migrate-child: connect: %s (event %u)\n",
			strerror(errno), ev.event);
		return 1;
	}
	/* the request is queued on A: do not read it */
	if (poll(&p, 1, 5000) != 1) {
		fprintf(stderr, "ucma_fuzz: migrate-child: no connection request\n");
		return 1;
	}
	/* its id is the lowest free number: try the few above ours */
	guess = (lid > cid ? lid : cid) + 4;
	for (i = 0; i <= (int)guess && !migrated; i++) {
		if ((uint32_t)i == lid || (uint32_t)i == cid)
			continue;
		mig.id = i;
		mig.fd = a;
		if (!CMD(NULL, b, MIGRATE_ID, mig, sizeof(mresp))) {
			migrated = 1;
			child = i;
		} else if (errno != ENOENT) {
			e_mig = errno;
		}
	}
	errno = e_mig;
	snprintf(mg, sizeof(mg), "%s", en(migrated));
	if (migrated)
		snprintf(dc, sizeof(dc), "%s", en(!destroy_id(b, child)));
	/* a fresh id, in the memory and under the number just freed */
	if (create_id(a, RDMA_PS_TCP, &fresh))
		return 1;
	destroy_id(a, lid);
	r_fd = destroy_id(a, fresh);
	if (r_fd)
		e_fd = errno;
	errno = e_fd;
	printf("migrate_child migrate=%s destroy_child=%s fresh_destroy=%s\n",
	       mg, dc, en(!r_fd));
	destroy_id(b, cid);
	close(a);
	close(b);
	return migrated && r_fd ? 4 : 0;
}

/*
 * Finding 3.  Two JOINs of one group on one UD id, then at once LEAVE of
 * the second: if the leave removes the first join's rdma_cm membership
 * and frees the second's ucma_mcast, the second join's event, still to
 * come, names freed memory, and GET_EVENT counts into it.  Repeated, since
 * the event must still be on its way when LEAVE runs.  Prints
 *   dup_join rounds=N joins=OK leaves=OK events=N foreign=N
 * "foreign" counts MULTICAST_JOIN events whose id is neither join's live
 * number (a freed one's number reads as slab poison); fails (4) on any.
 */
static int case_dup_join(void)
{
	int fd = open(dev_path, O_RDWR | O_CLOEXEC), round, i;
	struct rdma_ucm_bind bind = { .addr_size = sizeof(struct sockaddr_in) };
	struct rdma_ucm_create_id_resp jr[2];
	struct rdma_ucm_join_mcast j = { .addr_size = sizeof(struct sockaddr_in),
					 .join_flags = RDMA_MC_JOIN_FLAG_FULLMEMBER };
	struct rdma_ucm_destroy_id_resp lr;
	struct rdma_ucm_destroy_id l = { .response = PTR(&lr) };
	struct rdma_ucm_event_resp ev;
	unsigned int events = 0, foreign = 0, joins_ok = 1, leaves_ok = 1;
	uint32_t id, keep = 0;
	const int rounds = 20;

	if (fd < 0) {
		perror("ucma_fuzz: dup-join");
		return 1;
	}
	for (round = 0; round < rounds; round++) {
		if (create_id(fd, RDMA_PS_UDP, &id))
			return 1;
		bind.id = j.id = id;
		v4((struct sockaddr_storage *)&bind.addr, 0);
		if (CMD(NULL, fd, BIND, bind, 0)) {
			perror("ucma_fuzz: dup-join: bind");
			return 1;
		}
		v4((struct sockaddr_storage *)&j.addr, 0);
		((struct sockaddr_in *)&j.addr)->sin_addr.s_addr =
			htonl(0xe0000110 + round % 4);
		for (i = 0; i < 2; i++) {
			j.uid = 0x1000 + i;
			j.response = PTR(&jr[i]);
			if (CMD(NULL, fd, JOIN_MCAST, j, sizeof(jr[0])))
				joins_ok = 0;
		}
		if (!joins_ok)
			break;
		l.id = jr[1].id;
		if (CMD(NULL, fd, LEAVE_MCAST, l, sizeof(lr)))
			leaves_ok = 0;
		keep = jr[0].id;
		/* every join event there is: one for the first join, no more */
		while (!wait_event(fd, ~0u, &ev)) {
			events++;
			if (ev.event == EV_MULTICAST_JOIN && ev.id != keep)
				foreign++;
			/* the first join's event has come: the second's would have too */
			if (ev.event == EV_MULTICAST_JOIN)
				break;
		}
		/* a late one */
		if (!wait_event_ms(fd, ~0u, &ev, 300)) {
			events++;
			if (ev.event == EV_MULTICAST_JOIN && ev.id != keep)
				foreign++;
		}
		if (destroy_id(fd, id))
			perror("ucma_fuzz: dup-join: destroy");
	}
	printf("dup_join rounds=%d joins=%s leaves=%s events=%u foreign=%u\n",
	       round, joins_ok ? "OK" : "fail", leaves_ok ? "OK" : "fail",
	       events, foreign);
	close(fd);
	return foreign ? 4 : 0;
}

/* ------------------------------------------------------------------------ */

static unsigned long last_progress[2];

static void watchdog(int sig)
{
	(void)sig;
	if (progress[0] == last_progress[0] && progress[1] == last_progress[1]) {
		fprintf(stderr, "ucma_fuzz: no call returned in 120 s; in %s / %s\n",
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
	const char *directed = NULL, *skip = "";
	static struct th th[2];
	pthread_t tid;
	unsigned long total = 0, ok = 0, errs[256] = { 0 };
	char top[256] = "", evs[256] = "";

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
		else if (!strcmp(argv[i], "--skip") && i + 1 < argc)
			skip = argv[++i];
		else if (!strcmp(argv[i], "--directed") && i + 1 < argc)
			directed = argv[++i];
		else {
			fprintf(stderr, "usage: ucma_fuzz [--seed N] [--calls N] [--threads 1|2] [--dev PATH] [--trace] [--skip OPS] [--directed migrate-child|dup-join]\n");
			return 1;
		}
	}
	if (nthreads < 1 || nthreads > 2)
		nthreads = 2;
	signal(SIGPIPE, SIG_IGN);
	if (directed) {
		if (!strcmp(directed, "migrate-child"))
			return case_migrate_child();
		if (!strcmp(directed, "dup-join"))
			return case_dup_join();
		fprintf(stderr, "ucma_fuzz: cases: migrate-child dup-join\n");
		return 1;
	}
	for (i = 0; i < 2; i++) {
		g_fd[i] = open(dev_path, O_RDWR | O_NONBLOCK | O_CLOEXEC);
		if (g_fd[i] < 0) {
			fprintf(stderr, "ucma_fuzz: %s: %s\n", dev_path,
				strerror(errno));
			return 1;
		}
	}
	for (i = 0; i < (int)ARRAY_SIZE(ops); i++) {
		const char *m = strstr(skip, ops[i].name);
		size_t l = strlen(ops[i].name);

		if (m && (m == skip || m[-1] == ',') && (!m[l] || m[l] == ','))
			ops[i].w = 0;
	}
	signal(SIGALRM, watchdog);
	alarm(120);
	for (i = 0; i < nthreads; i++) {
		th[i].id = i;
		th[i].rs = seed * 0x100000001b3ULL + i;
		th[i].target = calls / nthreads + (i == 0 ? calls % nthreads : 0);
	}
	if (nthreads == 2 && pthread_create(&tid, NULL, run, &th[1])) {
		perror("ucma_fuzz: pthread_create");
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
	for (e = 0; e < EV_NR; e++)
		if (n_evtype[e])
			snprintf(evs + strlen(evs), sizeof(evs) - strlen(evs),
				 "%s%d:%lu", evs[0] ? "," : "", e, n_evtype[e]);
	printf("ucma_fuzz seed=%llu calls=%lu ok=%lu events=%lu children=%lu migrated=%lu guessed=%lu errno_top=%s event_types=%s\n",
	       seed, total, ok, n_events, n_children, n_migrated, n_guessed,
	       top[0] ? top : "-", evs[0] ? evs : "-");
	close(g_fd[0]);
	close(g_fd[1]);
	return 0;
}
