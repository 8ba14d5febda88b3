// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * wire_sac: the sacrificial RC QPs of the wire fuzz's responder cases
 * (tests/probes/wire_resp.h), one pair per case, so that requests the
 * responder must refuse by moving its QP to ERR cost no innocent
 * connection.
 *
 *   wire_sac --victim --port P --gid-idx G [--dev D]
 *   wire_sac --fuzzer --peer A --port P --gid-idx G [--dev D] -- CMD...
 *
 * The victim (the stack under test) registers an MR inside a guarded
 * buffer and serves one fuzzer on TCP port P: it learns the fuzzer's GID,
 * QPNs and PSNs, connects a QP to each and answers with its QPNs and the
 * MR's address and R_Key.  The fuzzer connects its QPs the same way (real
 * QPs: the victim's answers go to them), then runs CMD (tests/probes/bin/
 * wire_fuzz with its addresses) with "--resp ADDR:RKEY:FQPN,VQPN,PSN:..."
 * appended, which sends each case to its victim QP at the PSN it expects
 * and prints the syndrome that came back; those go to the victim, which
 * checks per case the answer and its QP's state, then the memory:
 *
 *   wire_sac case NAME: answer 0x62 (want 0x62), qp ERR (want ERR): ok
 *   wire_sac memory: guard intact, MR intact but write-ok's 64 bytes, which landed: ok
 *   wire_sac victim: cases=N failed=N
 *
 * Both print these lines; each exits 0 only if every check passed.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <infiniband/verbs.h>

#include "wire_resp.h"

#define NCASES	WIRE_RESP_NCASES

static struct ibv_context *ctx;
static struct ibv_pd *pd;
static struct ibv_cq *cq;
static struct ibv_qp *qps[NCASES];
static union ibv_gid my_gid;
static int gid_idx;

static void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stderr, "wire_sac: ");
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, "\n");
	va_end(ap);
	exit(2);
}

static void setup(const char *dev)
{
	struct ibv_device **list = ibv_get_device_list(NULL);
	int i;

	if (!list)
		die("no devices");
	for (i = 0; list[i]; i++)
		if (!strcmp(ibv_get_device_name(list[i]), dev))
			break;
	if (!list[i])
		die("no device %s", dev);
	ctx = ibv_open_device(list[i]);
	if (!ctx)
		die("open %s: %s", dev, strerror(errno));
	ibv_free_device_list(list);
	pd = ibv_alloc_pd(ctx);
	cq = ibv_create_cq(ctx, 4 * NCASES, NULL, NULL, 0);
	if (!pd || !cq)
		die("pd/cq: %s", strerror(errno));
	if (ibv_query_gid(ctx, 1, gid_idx, &my_gid))
		die("query gid %d: %s", gid_idx, strerror(errno));
	for (i = 0; i < (int)NCASES; i++) {
		struct ibv_qp_init_attr ia = {
			.send_cq = cq, .recv_cq = cq, .qp_type = IBV_QPT_RC,
			.cap = { .max_send_wr = 1, .max_recv_wr = 1,
				 .max_send_sge = 1, .max_recv_sge = 1 },
		};
		struct ibv_qp_attr a = {
			.qp_state = IBV_QPS_INIT, .port_num = 1,
			.qp_access_flags = IBV_ACCESS_REMOTE_WRITE |
					   IBV_ACCESS_REMOTE_READ |
					   IBV_ACCESS_REMOTE_ATOMIC,
		};

		qps[i] = ibv_create_qp(pd, &ia);
		if (!qps[i])
			die("create qp %d: %s", i, strerror(errno));
		if (ibv_modify_qp(qps[i], &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX |
				  IBV_QP_PORT | IBV_QP_ACCESS_FLAGS))
			die("qp %d to INIT: %s", i, strerror(errno));
	}
}

/* QP @i to RTR and RTS towards @dqpn at @dgid; it expects @rq_psn */
static void connect_qp(int i, const union ibv_gid *dgid, uint32_t dqpn,
		       uint32_t rq_psn, uint32_t sq_psn)
{
	struct ibv_qp_attr a = {
		.qp_state = IBV_QPS_RTR, .path_mtu = IBV_MTU_1024,
		.dest_qp_num = dqpn, .rq_psn = rq_psn,
		.max_dest_rd_atomic = 1, .min_rnr_timer = 12,
		.ah_attr = {
			.is_global = 1, .port_num = 1,
			.grh = { .dgid = *dgid, .sgid_index = gid_idx,
				 .hop_limit = 64 },
		},
	};

	if (ibv_modify_qp(qps[i], &a, IBV_QP_STATE | IBV_QP_AV |
			  IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN |
			  IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER))
		die("qp %d to RTR: %s", i, strerror(errno));
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTS;
	a.sq_psn = sq_psn;
	a.timeout = 14;
	a.retry_cnt = 7;
	a.rnr_retry = 7;
	a.max_rd_atomic = 1;
	if (ibv_modify_qp(qps[i], &a, IBV_QP_STATE | IBV_QP_SQ_PSN |
			  IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT |
			  IBV_QP_RNR_RETRY | IBV_QP_MAX_QP_RD_ATOMIC))
		die("qp %d to RTS: %s", i, strerror(errno));
}

static void gid_str(const union ibv_gid *g, char *s)
{
	for (int i = 0; i < 16; i++)
		sprintf(s + 2 * i, "%02x", g->raw[i]);
}

static void gid_parse(const char *s, union ibv_gid *g)
{
	for (int i = 0; i < 16; i++)
		if (sscanf(s + 2 * i, "%2hhx", &g->raw[i]) != 1)
			die("bad gid %s", s);
}

/* one line from the peer, without its newline */
static char *get_line(FILE *f)
{
	static char line[8192];

	if (!fgets(line, sizeof(line), f))
		die("the peer closed the connection");
	line[strcspn(line, "\n")] = 0;
	return line;
}

/* a line of the victim's report: to its output and to the fuzzer */
static void report(FILE *f, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
}

static uint32_t rnd_psn(void)
{
	return (uint32_t)random() & 0xffffff;
}

static const char *state_name(int s)
{
	static const char *const n[] = { "RESET", "INIT", "RTR", "RTS",
					 "SQD", "SQE", "ERR" };

	return s >= 0 && s < 7 ? n[s] : "?";
}

static int victim(int port)
{
	struct sockaddr_in sa = { .sin_family = AF_INET,
				  .sin_port = htons(port) };
	uint8_t *buf, *mrb;
	uint32_t fqpn[NCASES], fpsn[NCASES];
	int syn[NCASES];
	union ibv_gid fgid;
	char gs[33], *l, *p;
	unsigned int i, failed = 0;
	size_t j, bad_guard = 0, bad_mr = 0, landed = 0;
	struct ibv_mr *mr;
	int ls, s, one = 1;
	FILE *f;

	buf = aligned_alloc(4096, WIRE_RESP_BUF_LEN);
	if (!buf)
		die("no memory");
	memset(buf, WIRE_RESP_GUARD, WIRE_RESP_BUF_LEN);
	mrb = buf + WIRE_RESP_MR_OFF;
	memset(mrb, WIRE_RESP_FILL, WIRE_RESP_MR_LEN);
	mr = ibv_reg_mr(pd, mrb, WIRE_RESP_MR_LEN, IBV_ACCESS_LOCAL_WRITE |
			IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ |
			IBV_ACCESS_REMOTE_ATOMIC);
	if (!mr)
		die("reg mr: %s", strerror(errno));

	ls = socket(AF_INET, SOCK_STREAM, 0);
	setsockopt(ls, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (ls < 0 || bind(ls, (struct sockaddr *)&sa, sizeof(sa)) ||
	    listen(ls, 1))
		die("listen on %d: %s", port, strerror(errno));
	s = accept(ls, NULL, NULL);
	if (s < 0)
		die("accept: %s", strerror(errno));
	f = fdopen(s, "r+");
	setvbuf(f, NULL, _IOLBF, 0);

	/* "GID FQPN FPSN ..." */
	l = get_line(f);
	gid_parse(l, &fgid);
	p = l + 32;
	for (i = 0; i < NCASES; i++) {
		fqpn[i] = strtoul(p, &p, 0);
		fpsn[i] = strtoul(p, &p, 0);
		connect_qp(i, &fgid, fqpn[i], fpsn[i], rnd_psn());
	}
	gid_str(&my_gid, gs);
	fprintf(f, "%s %#llx %#x", gs, (unsigned long long)(uintptr_t)mrb,
		mr->rkey);
	for (i = 0; i < NCASES; i++)
		fprintf(f, " %#x", qps[i]->qp_num);
	fprintf(f, "\n");
	fflush(f);

	/* "done SYN ..." after the fuzzer sent every case; -1: no answer */
	l = get_line(f);
	if (strncmp(l, "done", 4))
		die("expected done, got %s", l);
	p = l + 4;
	for (i = 0; i < NCASES; i++)
		syn[i] = (int)strtol(p, &p, 0);

	for (i = 0; i < NCASES; i++) {
		const struct wire_resp_case *c = &wire_resp_cases[i];
		struct ibv_qp_init_attr ia;
		struct ibv_qp_attr a;
		bool ack = c->want == WIRE_RESP_ACK;
		int want_state = ack ? IBV_QPS_RTS : IBV_QPS_ERR;
		bool ok_syn = ack ? syn[i] >= 0 && syn[i] < 0x20 :
				    syn[i] == c->want;
		bool ok;
		char ans[16];

		if (ibv_query_qp(qps[i], &a, IBV_QP_STATE, &ia))
			a.qp_state = -1;
		ok = ok_syn && (int)a.qp_state == want_state;
		failed += !ok;
		if (syn[i] < 0)
			snprintf(ans, sizeof(ans), "none");
		else
			snprintf(ans, sizeof(ans), "%#04x", syn[i]);
		report(f, "wire_sac case %s: answer %s (want %s), qp %s (want %s): %s\n",
			c->name, ans, ack ? "an ACK" : c->want == WIRE_RESP_NAK_ACC ?
			"0x62" : "0x61", state_name(a.qp_state),
			state_name(want_state), ok ? "ok" : "FAIL");
	}

	/* Nothing but write-ok's 64 bytes may have changed. */
	for (j = 0; j < WIRE_RESP_BUF_LEN; j++) {
		size_t off = j - WIRE_RESP_MR_OFF;
		bool in_mr = j >= WIRE_RESP_MR_OFF &&
			     off < WIRE_RESP_MR_LEN;
		bool in_ok = in_mr && off >= 64 && off < 128;

		if (!in_mr)
			bad_guard += buf[j] != WIRE_RESP_GUARD;
		else if (in_ok)
			landed += buf[j] == WIRE_RESP_DATA;
		else
			bad_mr += buf[j] != WIRE_RESP_FILL;
	}
	report(f, "wire_sac memory: guard %s (%zu bytes changed), MR %s but write-ok's 64 bytes (%zu changed), %zu of which landed: %s\n",
		bad_guard ? "CHANGED" : "intact", bad_guard,
		bad_mr ? "CHANGED" : "intact", bad_mr, landed,
		!bad_guard && !bad_mr && landed == 64 ? "ok" : "FAIL");
	failed += bad_guard || bad_mr || landed != 64;
	report(f, "wire_sac victim: cases=%zu failed=%u\n", NCASES, failed);
	fflush(f);
	fflush(stdout);
	fclose(f);
	close(ls);
	ibv_dereg_mr(mr);
	free(buf);
	return failed ? 1 : 0;
}

static int fuzzer(const char *peer, int port, char **cmd)
{
	struct sockaddr_in sa = { .sin_family = AF_INET,
				  .sin_port = htons(port) };
	uint32_t fpsn[NCASES], vqpn[NCASES];
	unsigned long long addr;
	unsigned long rkey;
	int syn[NCASES];
	union ibv_gid vgid;
	char gs[33], *l, *p, *cmdline, *at;
	unsigned int i, tries;
	size_t n;
	int s = -1, rc = 0, fail = 1;
	FILE *f, *w;
	char line[512];

	if (inet_pton(AF_INET, peer, &sa.sin_addr) != 1)
		die("bad peer %s", peer);
	/* the victim may still be setting up its QPs: retry for 2 min */
	for (tries = 0; tries < 1200; tries++) {
		s = socket(AF_INET, SOCK_STREAM, 0);
		if (!connect(s, (struct sockaddr *)&sa, sizeof(sa)))
			break;
		close(s);
		s = -1;
		usleep(100000);
	}
	if (s < 0)
		die("connect to %s:%d: %s", peer, port, strerror(errno));
	f = fdopen(s, "r+");
	setvbuf(f, NULL, _IOLBF, 0);

	gid_str(&my_gid, gs);
	fprintf(f, "%s", gs);
	for (i = 0; i < NCASES; i++) {
		fpsn[i] = rnd_psn();
		fprintf(f, " %#x %#x", qps[i]->qp_num, fpsn[i]);
	}
	fprintf(f, "\n");
	fflush(f);

	/* "GID ADDR RKEY VQPN ..." */
	l = get_line(f);
	gid_parse(l, &vgid);
	p = l + 32;
	addr = strtoull(p, &p, 0);
	rkey = strtoul(p, &p, 0);
	for (i = 0; i < NCASES; i++) {
		vqpn[i] = strtoul(p, &p, 0);
		connect_qp(i, &vgid, vqpn[i], rnd_psn(), fpsn[i]);
	}

	/* CMD... --resp ADDR:RKEY:FQPN,VQPN,PSN:... */
	n = 0;
	for (i = 0; cmd[i]; i++)
		n += strlen(cmd[i]) + 1;
	cmdline = malloc(n + 64 + NCASES * 40);
	if (!cmdline)
		die("no memory");
	at = cmdline;
	for (i = 0; cmd[i]; i++)
		at += sprintf(at, "%s ", cmd[i]);
	at += sprintf(at, "--resp %#llx:%#lx", addr, rkey);
	for (i = 0; i < NCASES; i++) {
		syn[i] = -1;
		at += sprintf(at, ":%#x,%#x,%#x", qps[i]->qp_num, vqpn[i],
			      fpsn[i]);
	}
	w = popen(cmdline, "r");
	if (!w)
		die("run %s: %s", cmd[0], strerror(errno));
	while (fgets(line, sizeof(line), w)) {
		char name[64], sv[16];

		fputs(line, stdout);
		if (sscanf(line, "wire_fuzz resp %63s syn=%15s", name, sv) != 2)
			continue;
		for (i = 0; i < NCASES; i++)
			if (!strcmp(name, wire_resp_cases[i].name))
				syn[i] = strcmp(sv, "none") ?
					 (int)strtol(sv, NULL, 0) : -1;
	}
	rc = pclose(w);
	fflush(stdout);

	fprintf(f, "done");
	for (i = 0; i < NCASES; i++)
		fprintf(f, " %d", syn[i]);
	fprintf(f, "\n");
	fflush(f);
	while (fgets(line, sizeof(line), f)) {
		fputs(line, stdout);
		if (strstr(line, "wire_sac victim:") &&
		    strstr(line, " failed=0\n"))
			fail = 0;
	}
	fclose(f);
	if (rc)
		printf("wire_sac: %s exited with %d\n", cmd[0], rc);
	return fail || rc ? 1 : 0;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "victim", 0, NULL, 'v' }, { "fuzzer", 0, NULL, 'f' },
		{ "peer", 1, NULL, 'a' }, { "port", 1, NULL, 'p' },
		{ "gid-idx", 1, NULL, 'g' }, { "dev", 1, NULL, 'd' },
		{ NULL, 0, NULL, 0 },
	};
	const char *dev = "rxe0", *peer = NULL;
	int c, role = 0, port = 0, rc;
	unsigned int i;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'v': case 'f': role = c; break;
		case 'a': peer = optarg; break;
		case 'p': port = atoi(optarg); break;
		case 'g': gid_idx = atoi(optarg); break;
		case 'd': dev = optarg; break;
		default: role = -1;
		}
	}
	if (role <= 0 || !port || (role == 'f' && (!peer || optind >= argc))) {
		fprintf(stderr, "usage: wire_sac --victim --port P --gid-idx G [--dev D]\n"
			"       wire_sac --fuzzer --peer A --port P --gid-idx G [--dev D] -- CMD...\n");
		return 2;
	}
	srandom((unsigned int)time(NULL) ^ (unsigned int)getpid());
	setup(dev);
	rc = role == 'v' ? victim(port) : fuzzer(peer, port, argv + optind);
	for (i = 0; i < NCASES; i++)
		ibv_destroy_qp(qps[i]);
	ibv_destroy_cq(cq);
	ibv_dealloc_pd(pd);
	ibv_close_device(ctx);
	return rc;
}
