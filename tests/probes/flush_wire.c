// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * RDMA FLUSH between two hosts, for the wire lanes (tests/guest/wire.sh):
 * one side's requester against the other side's responder, each side
 * either stack, so that a FLUSH of ours meets stock rxe's responder and
 * the other way round, and the capture holds FLUSH packets (BTH opcode
 * 0x1C, FETH, RETH) and their ACKs and NAK for tshark.  FLUSH is posted
 * through librxe's ring (flush_ring.h), so any rdma-core will do.
 *
 *   flush_wire -d DEV -g GID_INDEX -p PORT            the responder
 *   flush_wire -d DEV -g GID_INDEX -p PORT PEER       the requester
 *
 * The two exchange QP number, GID, rkey and address over TCP PORT (the
 * requester prints "Couldn't connect to PEER" while the responder does not
 * listen yet, as the pingpongs do).  The responder registers 8 KiB with
 * remote write and FLUSH_GLOBAL and allows flushes on its QP.  The
 * requester then
 *   1. RDMA WRITEs a 4 KiB pattern (four 1 KiB packets) into the second
 *      half, then FLUSHes that range (placement global, selectivity range):
 *      success, opcode IBV_WC_FLUSH;
 *   2. FLUSHes the whole MR (selectivity memory region): success;
 *   3. asks the responder over TCP to compare its memory with the pattern:
 *      "data ok";
 *   4. FLUSHes under a wrong rkey: the responder NAKs it, the completion is
 *      a remote access error.
 * Each step prints one line; exit status 0 when every step gave what it
 * should, 1 when one did not, 2 when the probe could not run.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <netdb.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <infiniband/verbs.h>
#include "flush_ring.h"
#include "probe.h"
#include "rc_loop.h"

#define MR_LEN		8192
#define PATTERN_OFF	4096
#define PATTERN_LEN	4096

/* What each side tells the other, as one text line. */
struct peer_info {
	uint32_t qpn;
	uint32_t rkey;
	uint64_t addr;
	union ibv_gid gid;
};

static const char *role = "flush_wire";

static void die(const char *what)
{
	fprintf(stderr, "%s: %s failed (errno %d)\n", role, what, errno);
	exit(2);
}

static uint8_t pattern_byte(size_t i)
{
	return (uint8_t)(i * 7 + 3);
}

static void send_line(int fd, const char *line)
{
	size_t len = strlen(line);

	if (write(fd, line, len) != (ssize_t)len)
		die("write to the peer");
}

/* One line from @fd into @buf (without its newline). */
static void recv_line(int fd, char *buf, size_t size)
{
	size_t n = 0;
	char c;

	while (n + 1 < size) {
		ssize_t r = read(fd, &c, 1);

		if (r <= 0)
			die("read from the peer");
		if (c == '\n')
			break;
		buf[n++] = c;
	}
	buf[n] = '\0';
}

static void send_info(int fd, const struct peer_info *i)
{
	char line[160], *p = line;

	p += sprintf(p, "%u %u %llu ", i->qpn, i->rkey,
		     (unsigned long long)i->addr);
	for (int k = 0; k < 16; k++)
		p += sprintf(p, "%02x", i->gid.raw[k]);
	sprintf(p, "\n");
	send_line(fd, line);
}

static void recv_info(int fd, struct peer_info *i)
{
	char line[160], gid[33];
	unsigned long long addr;

	recv_line(fd, line, sizeof(line));
	if (sscanf(line, "%u %u %llu %32s", &i->qpn, &i->rkey, &addr,
		   gid) != 4 || strlen(gid) != 32) {
		errno = EPROTO;
		die("parse the peer's QP line");
	}
	i->addr = addr;
	for (int k = 0; k < 16; k++) {
		unsigned int b;

		sscanf(gid + 2 * k, "%2x", &b);
		i->gid.raw[k] = (uint8_t)b;
	}
}

static int tcp_listen_accept(const char *port)
{
	struct sockaddr_in6 a = { .sin6_family = AF_INET6,
				  .sin6_addr = IN6ADDR_ANY_INIT };
	int fd = socket(AF_INET6, SOCK_STREAM, 0), one = 1, zero = 0, c;

	if (fd < 0)
		die("socket");
	a.sin6_port = htons((uint16_t)atoi(port));
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof(zero));
	if (bind(fd, (struct sockaddr *)&a, sizeof(a)) || listen(fd, 1))
		die("bind/listen");
	c = accept(fd, NULL, NULL);
	if (c < 0)
		die("accept");
	close(fd);
	return c;
}

static int tcp_connect(const char *peer, const char *port)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM }, *res, *r;
	int fd = -1;

	if (getaddrinfo(peer, port, &hints, &res) == 0) {
		for (r = res; r && fd < 0; r = r->ai_next) {
			fd = socket(r->ai_family, r->ai_socktype, 0);
			if (fd >= 0 && connect(fd, r->ai_addr, r->ai_addrlen)) {
				close(fd);
				fd = -1;
			}
		}
		freeaddrinfo(res);
	}
	if (fd < 0) {
		/* the wording tests/guest/wire.sh retries on */
		printf("Couldn't connect to %s:%s\n", peer, port);
		exit(2);
	}
	return fd;
}

struct side {
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	struct ibv_cq *cq;
	struct ibv_qp *qp;
	struct ibv_mr *mr;
	uint8_t *buf;
	int gid_index;
	struct peer_info self;
	struct flush_ring_snap snap;	/* the mappings before the QP */
};

static void side_open(struct side *s, const char *dev, int access)
{
	struct ibv_qp_init_attr a = {
		.qp_type = IBV_QPT_RC,
		.cap = { .max_send_wr = 16, .max_recv_wr = 1,
			 .max_send_sge = 1, .max_recv_sge = 1 },
	};

	s->ctx = probe_open_device(dev);
	if (!s->ctx)
		die("ibv_open_device");
	if (ibv_query_gid(s->ctx, 1, s->gid_index, &s->self.gid))
		die("ibv_query_gid");
	s->pd = ibv_alloc_pd(s->ctx);
	s->cq = ibv_create_cq(s->ctx, 32, NULL, NULL, 0);
	s->buf = calloc(1, MR_LEN);
	if (!s->pd || !s->cq || !s->buf)
		die("pd/cq/buffer");
	s->mr = ibv_reg_mr(s->pd, s->buf, MR_LEN, access);
	if (!s->mr)
		die("ibv_reg_mr");
	a.send_cq = a.recv_cq = s->cq;
	if (flush_ring_snap(&s->snap))
		die("read /proc/self/maps");
	s->qp = ibv_create_qp(s->pd, &a);
	if (!s->qp)
		die("ibv_create_qp");
	s->self.qpn = s->qp->qp_num;
	s->self.rkey = s->mr->rkey;
	s->self.addr = (uintptr_t)s->buf;
}

static void side_connect(struct side *s, const struct peer_info *peer)
{
	const char *step = rc_loop_connect(s->qp, peer->qpn, s->gid_index,
					   &peer->gid);

	if (step) {
		fprintf(stderr, "%s: the QP's move to %s failed (errno %d)\n",
			role, step, errno);
		exit(2);
	}
}

static int responder(struct side *s, int fd)
{
	struct peer_info peer;
	char line[64];
	int ok = 1;

	recv_info(fd, &peer);
	side_connect(s, &peer);
	if (flush_qp_allow(s->qp))
		die("RTS -> RTS with FLUSH_GLOBAL");
	send_info(fd, &s->self);
	recv_line(fd, line, sizeof(line));
	if (!strcmp(line, "check")) {
		for (size_t i = 0; i < PATTERN_LEN; i++)
			if (s->buf[PATTERN_OFF + i] != pattern_byte(i))
				ok = 0;
		printf("responder: data %s\n", ok ? "ok" : "bad");
		send_line(fd, ok ? "data ok\n" : "data bad\n");
		recv_line(fd, line, sizeof(line));
	}
	printf("responder: peer says '%s'\n", line);
	return ok && !strcmp(line, "end") ? 0 : 1;
}

/* A signaled RDMA WRITE of @len bytes from our buffer at @off. */
static void post_write(struct side *s, const struct peer_info *peer,
		       uint64_t wr_id, size_t off, uint32_t len)
{
	struct ibv_sge sge = {
		.addr = (uintptr_t)s->buf + off, .length = len,
		.lkey = s->mr->lkey,
	};
	struct ibv_send_wr wr = {
		.wr_id = wr_id, .sg_list = &sge, .num_sge = 1,
		.opcode = IBV_WR_RDMA_WRITE, .send_flags = IBV_SEND_SIGNALED,
		.wr.rdma = { .remote_addr = peer->addr + off,
			     .rkey = peer->rkey },
	}, *bad;

	if (ibv_post_send(s->qp, &wr, &bad))
		die("ibv_post_send");
}

/*
 * Wait for the completion of @wr_id (those of other WRs before it are
 * checked to be successes); 1 when it came with @status (and, for a
 * success, the FLUSH opcode when @is_flush).
 */
static int expect(struct side *s, const char *name, uint64_t wr_id,
		  enum ibv_wc_status status, int is_flush)
{
	struct ibv_wc wc;

	while (probe_poll(s->cq, &wc, 15)) {
		if (wc.wr_id != wr_id) {
			if (wc.status != IBV_WC_SUCCESS) {
				printf("%s: WR %llu before it: %s\n", name,
				       (unsigned long long)wc.wr_id,
				       ibv_wc_status_str(wc.status));
				return 0;
			}
			continue;
		}
		printf("%s: status=%s", name, ibv_wc_status_str(wc.status));
		if (wc.status == IBV_WC_SUCCESS)
			printf(" opcode=%d", (int)wc.opcode);
		printf("\n");
		return wc.status == status &&
		       (status != IBV_WC_SUCCESS || !is_flush ||
			(int)wc.opcode == ABI_WC_FLUSH);
	}
	printf("%s: status=none\n", name);
	return 0;
}

static int requester(struct side *s, int fd)
{
	struct rxe_queue_buf *ring;
	struct peer_info peer;
	char line[64];
	int ok = 1;

	send_info(fd, &s->self);
	recv_info(fd, &peer);
	side_connect(s, &peer);
	for (size_t i = 0; i < PATTERN_LEN; i++)
		s->buf[PATTERN_OFF + i] = pattern_byte(i);

	/* the QP's send ring, found by the first WRITE (8 bytes at 0) */
	post_write(s, &peer, 1, 0, 8);
	ok &= expect(s, "first_write", 1, IBV_WC_SUCCESS, 0);
	ring = flush_ring_find(&s->snap);
	if (!ring)
		die("find the send ring");

	/* 1. the pattern, then FLUSH of its range; the WRITE behind rings */
	post_write(s, &peer, 2, PATTERN_OFF, PATTERN_LEN);
	flush_ring_put(ring, 3, peer.addr + PATTERN_OFF, PATTERN_LEN,
		       peer.rkey, ABI_FLUSH_GLOBAL, ABI_FLUSH_RANGE);
	post_write(s, &peer, 4, 8, 8);
	ok &= expect(s, "flush_range", 3, IBV_WC_SUCCESS, 1);
	ok &= expect(s, "doorbell_write", 4, IBV_WC_SUCCESS, 0);

	/* 2. the whole MR */
	flush_ring_put(ring, 5, 0, 0, peer.rkey, ABI_FLUSH_GLOBAL,
		       ABI_FLUSH_MR);
	post_write(s, &peer, 6, 8, 8);
	ok &= expect(s, "flush_whole_mr", 5, IBV_WC_SUCCESS, 1);
	ok &= expect(s, "doorbell_write", 6, IBV_WC_SUCCESS, 0);

	/* 3. what the responder's memory holds */
	send_line(fd, "check\n");
	recv_line(fd, line, sizeof(line));
	printf("pattern at the responder: %s\n", line);
	ok &= !strcmp(line, "data ok");

	/* 4. a wrong rkey: NAK, and our QP goes to error */
	flush_ring_put(ring, 7, peer.addr, 64, peer.rkey + 0x100,
		       ABI_FLUSH_GLOBAL, ABI_FLUSH_RANGE);
	post_write(s, &peer, 8, 8, 8);
	ok &= expect(s, "flush_bad_rkey", 7, IBV_WC_REM_ACCESS_ERR, 1);

	send_line(fd, "end\n");
	printf("requester: %s\n", ok ? "all as expected" : "FAILED");
	return ok ? 0 : 1;
}

int main(int argc, char **argv)
{
	const char *dev = NULL, *port = NULL;
	struct side s = { .gid_index = -1 };
	int c, fd, rc;

	while ((c = getopt(argc, argv, "d:g:p:")) != -1) {
		switch (c) {
		case 'd': dev = optarg; break;
		case 'g': s.gid_index = atoi(optarg); break;
		case 'p': port = optarg; break;
		default: goto usage;
		}
	}
	if (!dev || !port || s.gid_index < 0 || argc - optind > 1)
		goto usage;
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (optind == argc) {
		role = "responder";
		side_open(&s, dev, IBV_ACCESS_LOCAL_WRITE |
			  IBV_ACCESS_REMOTE_WRITE | ABI_ACCESS_FLUSH_GLOBAL);
		fd = tcp_listen_accept(port);
		rc = responder(&s, fd);
	} else {
		role = "requester";
		fd = tcp_connect(argv[optind], port);
		side_open(&s, dev, IBV_ACCESS_LOCAL_WRITE);
		rc = requester(&s, fd);
	}
	close(fd);
	return rc;
usage:
	fprintf(stderr, "usage: flush_wire -d DEV -g GID_INDEX -p PORT [PEER]\n");
	return 2;
}
