/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The responder cases of the wire fuzz: one crafted RC request per
 * sacrificial QP of the victim, at the PSN that QP expects, from the
 * address of its real peer, so that it passes every receive check and
 * reaches the responder's R_Key, range and length checks.  Shared by
 * tests/probes/wire_fuzz.c (which builds and sends them and reads the
 * answer) and tests/probes/wire_sac.c (which sets the QPs up on both guests
 * and, on the victim, checks what each case did).  Plain C: wire_fuzz.c
 * includes the driver's own headers, wire_sac.c libibverbs'.
 *
 * The victim's MR (WIRE_RESP_MR_LEN bytes) lies inside a larger buffer
 * at WIRE_RESP_MR_OFF, not page aligned, so the guard bytes around it
 * share its pinned pages: an access the range check let through would
 * change them.
 */
#ifndef WIRE_RESP_H
#define WIRE_RESP_H

#include <stdint.h>

#define WIRE_RESP_BUF_LEN	(4 * 4096)
#define WIRE_RESP_MR_OFF	(4096 - 512)
#define WIRE_RESP_MR_LEN	4096
#define WIRE_RESP_GUARD		0xa5	/* the bytes around the MR */
#define WIRE_RESP_FILL		0x5a	/* the MR's own bytes */
#define WIRE_RESP_DATA		0x3c	/* what the valid write carries */
#define WIRE_RESP_MTU		1024	/* both sides' path MTU */

/* where a case's address is counted from */
enum wire_resp_base {
	WIRE_RESP_AT_MR,	/* the MR's first byte */
	WIRE_RESP_AT_END,	/* the byte after the MR */
	WIRE_RESP_AT_ZERO,	/* address 0: negative offsets wrap */
};

/* AETH syndromes the cases expect */
#define WIRE_RESP_ACK		0x00	/* any ACK: 0x00-0x1f */
#define WIRE_RESP_NAK_INV	0x61	/* invalid request */
#define WIRE_RESP_NAK_ACC	0x62	/* remote access error */

struct wire_resp_case {
	const char *name;
	uint8_t opcode;		/* RC opcode (transport bits 000) */
	uint8_t base;		/* enum wire_resp_base */
	int64_t off;		/* va = base + off, modulo 2^64 */
	uint32_t len;		/* RETH length (writes and reads) */
	uint32_t paylen;	/* payload bytes the packet carries */
	uint8_t bad_rkey;	/* the R_Key with its key byte changed */
	uint8_t want;		/* the AETH syndrome it must draw */
};

/*
 * The first case is the control: a valid write that must be ACKed and
 * land, so a mistake in the crafting shows as its failure rather than
 * as NAKs for the wrong reason.  Every other one must draw its NAK and
 * leave the QP in ERR (IBTA classes of responder errors), the memory
 * untouched.
 */
static const struct wire_resp_case wire_resp_cases[] = {
	{ "write-ok",		0x0a, WIRE_RESP_AT_MR,   64,  64, 64,   0, WIRE_RESP_ACK },
	{ "write-rkey",		0x0a, WIRE_RESP_AT_MR,   0,   64, 64,   1, WIRE_RESP_NAK_ACC },
	{ "write-past",		0x0a, WIRE_RESP_AT_END,  -32, 64, 64,   0, WIRE_RESP_NAK_ACC },
	{ "write-wrap",		0x0a, WIRE_RESP_AT_ZERO, -32, 64, 64,   0, WIRE_RESP_NAK_ACC },
	{ "write-first-past",	0x06, WIRE_RESP_AT_MR,   0,   2 * WIRE_RESP_MR_LEN, WIRE_RESP_MTU, 0, WIRE_RESP_NAK_ACC },
	{ "write-len",		0x0a, WIRE_RESP_AT_MR,   0,   0x80000000u, 64, 0, WIRE_RESP_NAK_INV },
	{ "read-rkey",		0x0c, WIRE_RESP_AT_MR,   0,   64, 0,    1, WIRE_RESP_NAK_ACC },
	{ "read-past",		0x0c, WIRE_RESP_AT_MR,   0,   WIRE_RESP_MR_LEN + 1, 0, 0, WIRE_RESP_NAK_ACC },
	{ "read-wrap",		0x0c, WIRE_RESP_AT_ZERO, -64, 128, 0,   0, WIRE_RESP_NAK_ACC },
	{ "read-2g",		0x0c, WIRE_RESP_AT_MR,   0,   0x80000000u, 0, 0, WIRE_RESP_NAK_ACC },
	{ "cas-rkey",		0x13, WIRE_RESP_AT_MR,   0,   8,  0,    1, WIRE_RESP_NAK_ACC },
	{ "cas-unaligned",	0x13, WIRE_RESP_AT_MR,   4,   8,  0,    0, WIRE_RESP_NAK_INV },
	{ "fadd-past",		0x14, WIRE_RESP_AT_END,  0,   8,  0,    0, WIRE_RESP_NAK_ACC },
	{ "fadd-wrap",		0x14, WIRE_RESP_AT_ZERO, -8,  8,  0,    0, WIRE_RESP_NAK_ACC },
	{ "atomic-write-past",	0x1d, WIRE_RESP_AT_END,  0,   8,  8,    0, WIRE_RESP_NAK_ACC },
};

#define WIRE_RESP_NCASES (sizeof(wire_resp_cases) / sizeof(wire_resp_cases[0]))

/* the address a case names, given the victim's MR */
static inline uint64_t wire_resp_va(const struct wire_resp_case *c,
				    uint64_t mr_addr)
{
	uint64_t base = c->base == WIRE_RESP_AT_MR ? mr_addr :
			c->base == WIRE_RESP_AT_END ? mr_addr + WIRE_RESP_MR_LEN : 0;

	return base + (uint64_t)c->off;
}

/* the R_Key a case sends: a bad one differs in the key byte only */
static inline uint32_t wire_resp_rkey(const struct wire_resp_case *c,
				      uint32_t rkey)
{
	return c->bad_rkey ? rkey ^ 0x5a : rkey;
}

#endif
