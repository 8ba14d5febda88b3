// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * wire_fuzz: send malformed and lying RoCEv2 packets to a victim's rxe
 * from a raw AF_PACKET socket, for the fuzz phase of tests/guest/wire.sh.
 *
 *   wire_fuzz --ifname eth0 --dst-mac M --dst-ip A --src-ip A
 *             --spoof-mac M --spoof-ip A --qpn N --type rc|ud
 *             [--qkey K] [--psn P] [--rounds R] [--seed S] [--gap-us U]
 *             [--plan] [--pcap FILE]
 *   wire_fuzz --ifname eth0 --dst-mac M --dst-ip A --src-ip A
 *             --resp ADDR:RKEY:FQPN,VQPN,PSN:...
 *
 * Every frame (Ethernet, IPv4, UDP 4791, BTH and extension headers,
 * payload, ICRC) is built here; the ICRC is computed with the driver's
 * own sw_rxe/rxe_icrc.c for every class but "icrc", so that the other
 * classes get past the ICRC check to the one they aim at.  The classes,
 * each sent to the victim's live QP --qpn (of type --type) unless said:
 *
 *   trunc      every opcode rxe knows, cut at each header boundary short
 *              of its full headers (from the peer's address)
 *   pad        SEND_ONLY whose PadCnt exceeds its payload
 *   tver       a transport version other than 0
 *   opcode     every opcode rxe does not know
 *   icrc       a well-formed SEND_ONLY with one bit of its ICRC flipped
 *   pkey       a P_Key outside the default partition
 *   noqp       a SEND_ONLY to QPNs that do not exist (destroyed ones below
 *              --qpn, unused ones above, 0, the multicast QPN)
 *   transport  full, well-formed packets of every opcode of another
 *              service than the QP's
 *   lie        (rc) well-formed requests and responses from --spoof-ip:
 *              writes with bad rkeys, lengths past any MR, va+len that
 *              wraps, reads of 2 GiB, atomics, sends, ACKs, NAKs and read
 *              responses, PSNs anywhere in the 24-bit space
 *   qkey       (ud) a SEND_ONLY with a wrong Q_Key, from --spoof-ip; and
 *              (both) a MAD to QP1 with a Q_Key that is not the GSI's
 *   psn        (rc, with --psn, the PSN the victim's QP expected when the
 *              connection was made) well-formed sends, writes, reads and
 *              atomics from the real peer's address, whose PSNs lie 2^20
 *              to 2^23 - 1 ahead of (psn_ahead) or behind (psn_behind) any
 *              the connection can have reached: they pass every receive
 *              check and the responder must drop them as out of sequence
 *              or duplicates, without harm to the connection
 *
 * Every packet of these classes but psn must be dropped by the victim's
 * receive checks; the classes up to pkey before any QP is looked at, so
 * they are counted whatever the target's state.  Deterministic: --seed picks the
 * PSNs, keys, payload bytes and the order of the packets of each round.
 * --plan prints the summary line without sending anything (the victim's
 * side computes what to expect with it).  Summary line:
 *
 *   wire_fuzz seed=S type=T qpn=N sent=N trunc=N pad=N ... expect_malformed=N
 *
 * --resp sends instead the responder cases of wire_resp.h, case i to the
 * victim's sacrificial QP VQPN at its expected PSN, as if from our QP
 * FQPN (tests/probes/wire_sac.c sets both up and passes this), against the
 * victim's MR at ADDR with R_Key RKEY; after each it waits for the
 * victim's ACK or NAK and prints "wire_fuzz resp NAME syn=0xNN" (or
 * syn=none), then "wire_fuzz resp cases=N answered=N".
 */
#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <net/if.h>
#include <netinet/in.h>
#include <netpacket/packet.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "../../sw_rxe/rxe_icrc.c"
#include "roce_frame.h"
#include "../../sw_rxe/rxe_opcode.c"
#include "wire_resp.h"

/* <net/ethernet.h> would clash with rxe_hdr.h's userspace __be64 */
#define ETH_P_ALL	0x0003
#define ETH_P_IP	0x0800

#define MAX_FRAME	2048
#define MAX_PKTS	8192

enum cls {
	C_TRUNC, C_PAD, C_TVER, C_OPCODE, C_ICRC, C_PKEY, C_NOQP,
	C_TRANSPORT, C_LIE, C_QKEY, C_PSN_AHEAD, C_PSN_BEHIND, C_NUM
};

static const char *const cls_names[C_NUM] = {
	"trunc", "pad", "tver", "opcode", "icrc", "pkey", "noqp",
	"transport", "lie", "qkey", "psn_ahead", "psn_behind",
};

struct pkt {
	enum cls cls;
	u16 len;		/* whole frame */
	u8 frame[MAX_FRAME];
};

static struct pkt *pkts;
static unsigned int npkts;
static unsigned long counts[C_NUM];

static u8 dst_mac[6], src_mac[6], spoof_mac[6];
static struct in_addr dst_ip, src_ip, spoof_ip;
static u32 qpn, qkey = 0x11111111;
static bool is_ud, have_psn;
static u32 start_psn;
static u64 rng;

/* splitmix64: a fixed sequence per seed, on any libc */
static u64 rnd(void)
{
	u64 z = (rng += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/*
 * Wrap @bth (@len bytes: headers and payload, pad included, no ICRC) in
 * Ethernet, IPv4 and UDP, append an ICRC (a correct one unless @bad_icrc)
 * and queue the frame as class @c.  @spoof: from the spoofed address.
 */
static void emit(enum cls c, const u8 *bth, size_t len, bool spoof,
		 bool bad_icrc)
{
	struct pkt *p;
	u8 *f, *ip, *udp;
	u32 icrc;

	if (npkts >= MAX_PKTS) {
		fprintf(stderr, "wire_fuzz: too many packets\n");
		exit(2);
	}
	p = &pkts[npkts++];
	p->cls = c;
	counts[c]++;
	f = p->frame;
	memcpy(f, dst_mac, 6);
	memcpy(f + 6, spoof ? spoof_mac : src_mac, 6);
	f[12] = 0x08;
	f[13] = 0x00;
	ip = f + 14;
	udp = ip + RXE_IPV4_HDR_BYTES;
	memset(ip, 0, RXE_IPV4_HDR_BYTES);
	ip[0] = 0x45;
	rxe_put_be16(ip + 2, RXE_IPV4_HDR_BYTES + RXE_UDP_HDR_BYTES + len +
			     RXE_ICRC_BYTES);
	rxe_put_be16(ip + 4, (u16)rnd());
	ip[6] = 0x40;		/* DF, as rxe sends */
	ip[8] = 64;
	ip[9] = IPPROTO_UDP;
	memcpy(ip + 12, spoof ? &spoof_ip : &src_ip, 4);
	memcpy(ip + 16, &dst_ip, 4);
	rxe_put_be16(ip + 10, ip_csum(ip, RXE_IPV4_HDR_BYTES));
	rxe_put_be16(udp, 0xc000 | (u16)(rnd() & 0x3fff));
	rxe_put_be16(udp + 2, RXE_ROCEV2_UDP_PORT);
	rxe_put_be16(udp + 4, RXE_UDP_HDR_BYTES + len + RXE_ICRC_BYTES);
	rxe_put_be16(udp + 6, 0);	/* no UDP checksum (IPv4) */
	memcpy(udp + RXE_UDP_HDR_BYTES, bth, len);
	icrc = rxe_icrc_compute(ip, RXE_IPV4_HDR_BYTES, false, udp,
				RXE_UDP_HDR_BYTES + len, crc32_raw);
	if (bad_icrc)
		icrc ^= 1u << (rnd() & 31);
	rxe_icrc_put(udp + RXE_UDP_HDR_BYTES + len, icrc);
	p->len = 14 + RXE_IPV4_HDR_BYTES + RXE_UDP_HDR_BYTES + len +
		 RXE_ICRC_BYTES;
	if (p->len < 60)	/* Ethernet minimum; IP's length says the rest */
		memset(f + p->len, 0, 60 - p->len), p->len = 60;
}

/*
 * A well-formed packet of @opcode to @dqpn with @paylen payload bytes
 * (padded), into @buf; returns its length.  Extension headers get
 * plausible random values; the caller overwrites what it aims at.
 */
static size_t build(u8 *buf, u8 opcode, u32 dqpn, u32 paylen)
{
	const struct rxe_opcode_info *info = rxe_opcode_info(opcode);
	u8 pad = rxe_pad_len(paylen);
	size_t len = info->length + paylen + pad;
	struct rxe_bth_fields b = {
		.opcode = opcode,
		.pad = pad,
		.pkey = RXE_DEFAULT_PKEY,
		.qpn = dqpn,
		.ackreq = true,
		.psn = (u32)rnd() & 0xffffff,
	};

	memset(buf, 0, len);
	rxe_bth_encode(buf, &b);
	for (size_t i = RXE_BTH_BYTES; i < len; i++)
		buf[i] = (u8)rnd();
	if (rxe_opcode_has(opcode, RXE_DETH)) {
		u8 *deth = buf + info->offset[RXE_DETH];

		rxe_deth_set_qkey(deth, dqpn == 1 ? RXE_GSI_QKEY : qkey);
		rxe_deth_set_sqp(deth, 2 + (u32)(rnd() & 0xff));
	}
	return len;
}

static u8 send_only(void)
{
	return (is_ud ? RXE_TRANSPORT_UD : RXE_TRANSPORT_RC) |
	       RXE_OP_SEND_ONLY;
}

static void gen_round(void)
{
	static u8 buf[MAX_FRAME];
	u8 own = is_ud ? RXE_TRANSPORT_UD : RXE_TRANSPORT_RC;
	size_t len;
	int op, i;

	/* trunc: each header boundary short of the full headers, and mid-BTH */
	for (op = 0; op < RXE_NUM_OPCODES; op++) {
		const struct rxe_opcode_info *info = rxe_opcode_info(op);
		int h;

		if (!rxe_opcode_known(op))
			continue;
		build(buf, op, qpn, 0);
		emit(C_TRUNC, buf, 0, false, false);
		emit(C_TRUNC, buf, RXE_BTH_BYTES - 4, false, false);
		for (h = RXE_RDETH; h < RXE_PAYLOAD; h++) {
			if (!rxe_opcode_has(op, h) || !info->offset[h])
				continue;
			/* the cut leaves the headers before @h whole */
			rxe_bth_set_pad(buf, 0);
			emit(C_TRUNC, buf, info->offset[h], false, false);
		}
	}

	/* pad: PadCnt larger than the payload */
	for (i = 0; i < 3; i++) {
		int pad;

		for (pad = i + 1; pad <= 3; pad++) {
			len = build(buf, send_only(), qpn, 0) + i;
			rxe_bth_set_pad(buf, pad);
			emit(C_PAD, buf, len, false, false);
		}
	}

	/* tver: versions 1 to 15 */
	for (i = 1; i < 16; i++) {
		len = build(buf, send_only(), qpn, 4 + (rnd() & 63));
		rxe_bth_set_tver(buf, i);
		emit(C_TVER, buf, len, false, false);
	}

	/* opcode: what rxe does not know, with a BTH and some bytes */
	for (op = 0; op < RXE_NUM_OPCODES; op++) {
		if (rxe_opcode_known(op))
			continue;
		len = build(buf, send_only(), qpn, 32);
		rxe_bth_set_opcode(buf, op);
		emit(C_OPCODE, buf, len, false, false);
	}

	/* icrc: the ICRC wrong, and the payload changed under a good one */
	for (i = 0; i < 8; i++) {
		len = build(buf, send_only(), qpn, 1 + (rnd() & 255));
		emit(C_ICRC, buf, len, false, true);
	}

	/* pkey: outside the default partition (0x7fff is its limited member) */
	{
		static const u16 bad[] = { 0x0000, 0x1234, 0x8001, 0xfffe,
					   0x7ffe, 0x8000 };

		for (i = 0; i < (int)(sizeof(bad) / sizeof(bad[0])); i++) {
			len = build(buf, send_only(), qpn, 16);
			rxe_bth_set_pkey(buf, bad[i]);
			emit(C_PKEY, buf, len, false, false);
		}
	}

	/* noqp: destroyed QPNs below the live one, unused ones above */
	for (i = 1; i <= 8; i++) {
		if (qpn > (u32)i + 1) {
			len = build(buf, send_only(), qpn - i, 8);
			emit(C_NOQP, buf, len, false, false);
		}
		len = build(buf, send_only(), qpn + 64 + i, 8);
		emit(C_NOQP, buf, len, false, false);
	}
	len = build(buf, send_only(), 0, 8);
	emit(C_NOQP, buf, len, false, false);
	len = build(buf, RXE_TRANSPORT_UD | RXE_OP_SEND_ONLY, RXE_QPN_MASK, 8);
	emit(C_NOQP, buf, len, false, false);	/* mcast QPN, unicast address */

	/* transport: every opcode of another service, whole */
	for (op = 0; op < RXE_NUM_OPCODES; op++) {
		if (!rxe_opcode_known(op) || rxe_opcode_transport(op) == own)
			continue;
		len = build(buf, op, qpn, rxe_opcode_has(op, RXE_PAYLOAD) ? 8 : 0);
		emit(C_TRANSPORT, buf, len, false, false);
	}

	if (!is_ud) {
		static const u8 reqs[] = {
			RXE_OP_WRITE_ONLY, RXE_OP_WRITE_FIRST,
			RXE_OP_WRITE_ONLY_IMM, RXE_OP_READ_REQUEST,
			RXE_OP_COMPARE_SWAP, RXE_OP_FETCH_ADD,
			RXE_OP_ATOMIC_WRITE, RXE_OP_SEND_ONLY,
			RXE_OP_SEND_FIRST, RXE_OP_SEND_MIDDLE,
			RXE_OP_SEND_LAST, RXE_OP_SEND_ONLY_INV,
			RXE_OP_ACKNOWLEDGE, RXE_OP_ATOMIC_ACKNOWLEDGE,
			RXE_OP_READ_RESPONSE_ONLY, RXE_OP_READ_RESPONSE_FIRST,
		};
		/* reth: bad rkey, past any MR, wrapping va+len, 2 GiB */
		static const struct { u64 va; u32 len; } reth[] = {
			{ 0x1000, 64 },
			{ 0x7f0000000000ull, 0x7fffffff },
			{ 0xfffffffffffff000ull, 0x2000 },
			{ 0, 0x80000000u },
		};

		for (i = 0; i < (int)(sizeof(reqs) / sizeof(reqs[0])); i++) {
			u8 o = reqs[i];
			int k;

			for (k = 0; k < 4; k++) {
				u8 *h;

				len = build(buf, o, qpn,
					    rxe_opcode_has(o, RXE_PAYLOAD) ?
					    64 : 0);
				h = buf + rxe_opcode_info(o)->offset[RXE_RETH];
				if (rxe_opcode_has(o, RXE_RETH)) {
					rxe_reth_set_va(h, reth[k].va);
					rxe_reth_set_rkey(h, (u32)rnd());
					rxe_reth_set_len(h, reth[k].len);
				}
				h = buf + rxe_opcode_info(o)->offset[RXE_AETH];
				if (rxe_opcode_has(o, RXE_AETH)) {
					/* ACK, RNR NAK, NAK seq, NAK access */
					static const u8 syn[] = {
						0x1f, 0x20 | 0x0e, 0x60, 0x62 };

					h[0] = syn[k];
				}
				emit(C_LIE, buf, len, true, false);
			}
		}
	} else {
		for (i = 0; i < 8; i++) {
			len = build(buf, send_only(), qpn, 16 + i);
			rxe_deth_set_qkey(buf + RXE_BTH_BYTES,
					  qkey ^ (1u << (rnd() % 31)));
			emit(C_QKEY, buf, len, true, false);
		}
	}
	/* QP1 with a Q_Key that is not the GSI's: a junk MAD never parsed */
	for (i = 0; i < 4; i++) {
		len = build(buf, RXE_TRANSPORT_UD | RXE_OP_SEND_ONLY, 1, 256);
		rxe_deth_set_qkey(buf + RXE_BTH_BYTES, (u32)rnd() & 0x7fffffff);
		emit(C_QKEY, buf, len, true, false);
	}
}

/*
 * psn: from the real peer, so they reach the responder.  The pingpong
 * moves the expected PSN a few thousand past start_psn at most; 2^20 to
 * 2^23 - 1 ahead of it, or 2^20 to 2^23 - 2^12 behind, stays ahead or
 * behind of wherever it got to in 24-bit serial arithmetic.  Each
 * direction: its extreme and a random distance, per opcode.  Appended
 * after the round's shuffle, the ones ahead back to back: the responder
 * NAKs the first of the run (out_of_seq_request) and drops the rest in
 * silence until an in-order packet comes; each one behind is a
 * duplicate (duplicate_request) that must not be executed again.
 */
static void gen_psn(void)
{
	static const u8 ops[] = {
		RXE_OP_SEND_ONLY, RXE_OP_WRITE_ONLY,
		RXE_OP_READ_REQUEST, RXE_OP_FETCH_ADD,
	};
	const u32 lo = 1u << 20, far = (1u << 23) - 1;
	static u8 buf[MAX_FRAME];
	size_t len;
	int i, k;

	for (k = 0; k < 4; k++) {
		bool ahead = k < 2;

		for (i = 0; i < (int)(sizeof(ops) / sizeof(ops[0])); i++) {
			u32 d = k & 1 ? lo + (u32)(rnd() % (far - lo - 4096)) :
				ahead ? far : far - 4095;

			len = build(buf, ops[i], qpn,
				    rxe_opcode_has(ops[i], RXE_PAYLOAD) ? 32 : 0);
			rxe_bth_set_psn(buf, (ahead ? start_psn + d :
					      start_psn - d) & 0xffffffu);
			emit(ahead ? C_PSN_AHEAD : C_PSN_BEHIND, buf, len,
			     false, false);
		}
	}
}

/*
 * The victim's answer to case @psn of our QP @fqpn: its ACK or NAK (an
 * RC ACKNOWLEDGE or ATOMIC ACKNOWLEDGE from --dst-ip to @fqpn with that
 * PSN), read from @rfd, a packet socket that sees every IPv4 frame on the
 * interface.  Returns the AETH syndrome, or -1 if none came within 2 s.
 */
static int resp_answer(int rfd, u32 fqpn, u32 psn)
{
	struct timespec t0, t;
	u8 f[MAX_FRAME];

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		struct pollfd pfd = { .fd = rfd, .events = POLLIN };
		const u8 *ip = f + 14, *udp, *bth;
		long ms;
		ssize_t n;
		u8 op;

		clock_gettime(CLOCK_MONOTONIC, &t);
		ms = 2000 - ((t.tv_sec - t0.tv_sec) * 1000 +
			     (t.tv_nsec - t0.tv_nsec) / 1000000);
		if (ms <= 0 || poll(&pfd, 1, (int)ms) <= 0)
			return -1;
		n = recv(rfd, f, sizeof(f), 0);
		if (n < 14 + RXE_IPV4_HDR_BYTES + RXE_UDP_HDR_BYTES +
			RXE_BTH_BYTES + RXE_AETH_BYTES ||
		    f[12] != 0x08 || f[13] != 0x00 || ip[0] != 0x45 ||
		    ip[9] != IPPROTO_UDP || memcmp(ip + 12, &dst_ip, 4))
			continue;
		udp = ip + RXE_IPV4_HDR_BYTES;
		bth = udp + RXE_UDP_HDR_BYTES;
		op = rxe_bth_opcode(bth);
		if (rxe_get_be16(udp + 2) != RXE_ROCEV2_UDP_PORT ||
		    (op != (RXE_TRANSPORT_RC | RXE_OP_ACKNOWLEDGE) &&
		     op != (RXE_TRANSPORT_RC | RXE_OP_ATOMIC_ACKNOWLEDGE)) ||
		    rxe_bth_qpn(bth) != fqpn || rxe_bth_psn(bth) != psn)
			continue;
		return rxe_aeth_syn(bth + RXE_BTH_BYTES);
	}
}

/*
 * --resp: the cases of wire_resp.h, each to a fresh sacrificial QP at the
 * PSN it expects, one at a time (the answer names the case by QPN and
 * PSN anyway).  Returns how many were answered.
 */
static unsigned int resp_run(int fd, const struct sockaddr_ll *sll,
			     int rfd, const char *spec)
{
	static u8 buf[MAX_FRAME];
	unsigned long long addr;
	unsigned int i, answered = 0;
	unsigned long rkey;
	char *p;

	addr = strtoull(spec, &p, 0);
	if (*p++ != ':')
		goto bad;
	rkey = strtoul(p, &p, 0);
	for (i = 0; i < WIRE_RESP_NCASES; i++) {
		const struct wire_resp_case *c = &wire_resp_cases[i];
		unsigned long fqpn, vqpn, psn;
		u64 va = wire_resp_va(c, addr);
		u32 key = wire_resp_rkey(c, (u32)rkey);
		size_t len;
		u8 *h;
		int syn;

		if (*p++ != ':')
			goto bad;
		fqpn = strtoul(p, &p, 0);
		if (*p++ != ',')
			goto bad;
		vqpn = strtoul(p, &p, 0);
		if (*p++ != ',')
			goto bad;
		psn = strtoul(p, &p, 0);

		len = build(buf, RXE_TRANSPORT_RC | c->opcode, (u32)vqpn,
			    c->paylen);
		rxe_bth_set_psn(buf, (u32)psn & 0xffffffu);
		rxe_bth_set_ackreq(buf, true);
		if (rxe_opcode_has(c->opcode, RXE_RETH)) {
			h = buf + rxe_opcode_info(c->opcode)->offset[RXE_RETH];
			rxe_reth_set_va(h, va);
			rxe_reth_set_rkey(h, key);
			rxe_reth_set_len(h, c->len);
		}
		if (rxe_opcode_has(c->opcode, RXE_ATMETH)) {
			h = buf + rxe_opcode_info(c->opcode)->offset[RXE_ATMETH];
			rxe_atmeth_set_va(h, va);
			rxe_atmeth_set_rkey(h, key);
			rxe_atmeth_set_comp(h, 0);
			rxe_atmeth_set_swap_add(h, 1);
		}
		if (c->paylen)
			memset(buf + rxe_opcode_info(c->opcode)->length,
			       WIRE_RESP_DATA, c->paylen);
		npkts = 0;
		emit(C_LIE, buf, len, false, false);
		counts[C_LIE]--;
		if (sendto(fd, pkts[0].frame, pkts[0].len, 0,
			   (const struct sockaddr *)sll, sizeof(*sll)) !=
		    pkts[0].len) {
			perror("wire_fuzz: sendto");
			exit(2);
		}
		syn = resp_answer(rfd, (u32)fqpn, (u32)psn & 0xffffffu);
		if (syn < 0) {
			printf("wire_fuzz resp %s syn=none\n", c->name);
		} else {
			printf("wire_fuzz resp %s syn=%#04x\n", c->name, syn);
			answered++;
		}
		fflush(stdout);
	}
	if (*p)
		goto bad;
	printf("wire_fuzz resp cases=%zu answered=%u\n", WIRE_RESP_NCASES,
	       answered);
	return answered;
bad:
	fprintf(stderr, "wire_fuzz: bad --resp at \"%s\"\n", p);
	exit(2);
}

/* --pcap FILE: the frames also go to a capture file, to read them with tshark */
static void write_pcap(FILE *f, unsigned int first)
{
	static bool hdr;
	unsigned int i;

	if (!hdr) {
		u32 h[6] = { 0xa1b2c3d4, 0x00040002, 0, 0, 65535, 1 };

		fwrite(h, sizeof(h), 1, f);
		hdr = true;
	}
	for (i = first; i < npkts; i++) {
		u32 rec[4] = { 0, i, pkts[i].len, pkts[i].len };

		fwrite(rec, sizeof(rec), 1, f);
		fwrite(pkts[i].frame, pkts[i].len, 1, f);
	}
}

static bool parse_mac(const char *s, u8 *mac)
{
	return sscanf(s, "%hhx:%hhx:%hhx:%hhx:%hhx:%hhx", &mac[0], &mac[1],
		      &mac[2], &mac[3], &mac[4], &mac[5]) == 6;
}

static void usage(void)
{
	fprintf(stderr, "usage: wire_fuzz --ifname IF --dst-mac M --dst-ip A "
		"--src-ip A --spoof-mac M --spoof-ip A --qpn N --type rc|ud "
		"[--qkey K] [--psn P] [--rounds R] [--seed S] [--gap-us U] [--plan] [--pcap FILE]\n"
		"       wire_fuzz --ifname IF --dst-mac M --dst-ip A --src-ip A "
		"--resp ADDR:RKEY:FQPN,VQPN,PSN:...\n");
	exit(2);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "ifname", 1, NULL, 'i' }, { "dst-mac", 1, NULL, 'm' },
		{ "dst-ip", 1, NULL, 'd' }, { "src-ip", 1, NULL, 's' },
		{ "spoof-mac", 1, NULL, 'M' }, { "spoof-ip", 1, NULL, 'S' },
		{ "qpn", 1, NULL, 'q' }, { "type", 1, NULL, 't' },
		{ "qkey", 1, NULL, 'k' }, { "rounds", 1, NULL, 'r' },
		{ "seed", 1, NULL, 'x' }, { "gap-us", 1, NULL, 'g' },
		{ "plan", 0, NULL, 'p' }, { "pcap", 1, NULL, 'w' },
		{ "psn", 1, NULL, 'P' }, { "resp", 1, NULL, 'R' },
		{ NULL, 0, NULL, 0 },
	};
	const char *ifname = NULL, *resp = NULL;
	unsigned long rounds = 4, gap_us = 200, seed = 1, sent = 0, failed = 0;
	unsigned long malformed, key, qp_or_addr;
	bool plan = false, have_type = false;
	FILE *pcap = NULL;
	struct sockaddr_ll sll = { 0 };
	unsigned int i, r;
	int c, fd = -1;

	memset(dst_mac, 0, 6);
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'i': ifname = optarg; break;
		case 'm': if (!parse_mac(optarg, dst_mac)) usage(); break;
		case 'M': if (!parse_mac(optarg, spoof_mac)) usage(); break;
		case 'd': if (!inet_aton(optarg, &dst_ip)) usage(); break;
		case 's': if (!inet_aton(optarg, &src_ip)) usage(); break;
		case 'S': if (!inet_aton(optarg, &spoof_ip)) usage(); break;
		case 'q': qpn = strtoul(optarg, NULL, 0) & RXE_QPN_MASK; break;
		case 't':
			have_type = true;
			is_ud = !strcmp(optarg, "ud");
			if (!is_ud && strcmp(optarg, "rc"))
				usage();
			break;
		case 'k': qkey = strtoul(optarg, NULL, 0); break;
		case 'r': rounds = strtoul(optarg, NULL, 0); break;
		case 'x': seed = strtoul(optarg, NULL, 0); break;
		case 'g': gap_us = strtoul(optarg, NULL, 0); break;
		case 'p': plan = true; break;
		case 'P':
			have_psn = true;
			start_psn = strtoul(optarg, NULL, 0) & 0xffffffu;
			break;
		case 'R': resp = optarg; break;
		case 'w':
			pcap = fopen(optarg, "w");
			if (!pcap) {
				perror(optarg);
				return 2;
			}
			break;
		default: usage();
		}
	}
	if (resp ? plan || !ifname :
		   !have_type || qpn < 2 || (!plan && !ifname))
		usage();

	pkts = calloc(MAX_PKTS, sizeof(*pkts));
	if (!pkts)
		return 2;
	rng = seed;

	if (!plan) {
		struct ifreq ifr = { 0 };

		fd = socket(AF_PACKET, SOCK_RAW, htons(ETH_P_ALL));
		if (fd < 0) {
			perror("wire_fuzz: socket(AF_PACKET)");
			return 2;
		}
		snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
		if (ioctl(fd, SIOCGIFHWADDR, &ifr) < 0) {
			perror("wire_fuzz: SIOCGIFHWADDR");
			return 2;
		}
		memcpy(src_mac, ifr.ifr_hwaddr.sa_data, 6);
		sll.sll_family = AF_PACKET;
		sll.sll_protocol = htons(ETH_P_IP);
		sll.sll_ifindex = if_nametoindex(ifname);
		sll.sll_halen = 6;
		memcpy(sll.sll_addr, dst_mac, 6);
	}

	if (resp) {
		struct sockaddr_ll rll = {
			.sll_family = AF_PACKET,
			.sll_protocol = htons(ETH_P_IP),
			.sll_ifindex = sll.sll_ifindex,
		};
		int rfd = socket(AF_PACKET, SOCK_RAW, htons(ETH_P_IP));

		if (rfd < 0 || bind(rfd, (struct sockaddr *)&rll, sizeof(rll))) {
			perror("wire_fuzz: answer socket");
			return 2;
		}
		resp_run(fd, &sll, rfd, resp);
		return 0;
	}

	for (r = 0; r < rounds; r++) {
		unsigned int first = npkts;

		gen_round();
		/* mix the round's classes so each reaches the victim among
		 * the others and among the real traffic
		 */
		for (i = npkts - 1; i > first; i--) {
			unsigned int j = first + rnd() % (i - first + 1);
			struct pkt t;

			if (j == i)
				continue;
			memcpy(&t, &pkts[i], sizeof(t));
			memcpy(&pkts[i], &pkts[j], sizeof(t));
			memcpy(&pkts[j], &t, sizeof(t));
		}
		if (!is_ud && have_psn)
			gen_psn();
		if (pcap)
			write_pcap(pcap, first);
		if (plan)
			continue;
		for (i = first; i < npkts; i++) {
			if (sendto(fd, pkts[i].frame, pkts[i].len, 0,
				   (struct sockaddr *)&sll, sizeof(sll)) ==
			    pkts[i].len)
				sent++;
			else
				failed++;
			/* a pause per 16 packets: a sleep costs milliseconds
			 * under TCG, and 16 small datagrams fit the victim's
			 * socket buffer
			 */
			if (gap_us && (i - first) % 16 == 15)
				usleep(gap_us);
		}
		npkts = 0;
	}

	/*
	 * What the victim's counters must show: the classes dropped before
	 * a QP is looked up by their counter; the rest in rcvd_bad_qp, or,
	 * while the target QP lives, in the counter of its check.
	 */
	malformed = counts[C_TRUNC] + counts[C_PAD] + counts[C_TVER] +
		    counts[C_OPCODE];
	key = counts[C_PKEY];
	qp_or_addr = counts[C_NOQP] + counts[C_TRANSPORT] + counts[C_LIE] +
		     counts[C_QKEY];
	/* psn: not among these, the responder counts them (see wire.sh) */
	printf("wire_fuzz seed=%lu type=%s qpn=%#x rounds=%lu sent=%lu failed=%lu",
	       seed, is_ud ? "ud" : "rc", qpn, rounds, sent, failed);
	for (i = 0; i < C_NUM; i++)
		printf(" %s=%lu", cls_names[i], counts[i]);
	printf(" expect_icrc=%lu expect_malformed=%lu expect_key=%lu expect_later=%lu expect_total=%lu\n",
	       counts[C_ICRC], malformed, key, qp_or_addr,
	       counts[C_ICRC] + malformed + key + qp_or_addr);
	if (pcap)
		fclose(pcap);
	return failed ? 1 : 0;
}
