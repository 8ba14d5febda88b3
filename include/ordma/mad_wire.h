/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The common MAD header (IBTA 13.4.3) as bytes on the wire: 24 bytes,
 * big-endian, at the start of every 256-byte management datagram.
 *
 *   0  base_version   1  mgmt_class   2  class_version   3  R|method
 *   4  status (16)    6  class_specific (16)
 *   8  transaction id (64)
 *  16  attribute id (16)  18  reserved (16)  20  attribute modifier (32)
 *
 * Pure: includes only <ordma/pure.h>, so tests/unit checks it in
 * userspace.  The MAD layer (core/mad.c) validates every receive with
 * mad_wire_check() before looking at anything else, and classifies it
 * with mad_wire_is_response() and mad_wire_tid_agent().
 */
#ifndef ORDMA_MAD_WIRE_H
#define ORDMA_MAD_WIRE_H

#include <ordma/pure.h>

#define MAD_WIRE_SIZE			256
#define MAD_WIRE_HDR_SIZE		24
#define MAD_WIRE_BASE_VERSION		1
#define MAD_WIRE_METHOD_RESP		0x80	/* the R bit of the method */
#define MAD_WIRE_METHOD_TRAP_REPRESS	0x07

/* Byte offsets of the fields. */
#define MAD_WIRE_OFF_BASE_VERSION	0
#define MAD_WIRE_OFF_MGMT_CLASS		1
#define MAD_WIRE_OFF_CLASS_VERSION	2
#define MAD_WIRE_OFF_METHOD		3
#define MAD_WIRE_OFF_STATUS		4
#define MAD_WIRE_OFF_CLASS_SPECIFIC	6
#define MAD_WIRE_OFF_TID		8
#define MAD_WIRE_OFF_ATTR_ID		16
#define MAD_WIRE_OFF_RESV		18
#define MAD_WIRE_OFF_ATTR_MOD		20

/* The header in host order. */
struct mad_wire_hdr {
	u8 base_version;
	u8 mgmt_class;
	u8 class_version;
	u8 method;
	u16 status;
	u16 class_specific;
	u64 tid;
	u16 attr_id;
	u32 attr_mod;
};

/* Why a receive is not a MAD the layer can dispatch. */
enum mad_wire_verdict {
	MAD_WIRE_OK,
	MAD_WIRE_SHORT,			/* not the full 256 bytes */
	MAD_WIRE_BAD_BASE_VERSION,	/* base version other than 1 */
};

static inline u16 mad_wire_get16(const u8 *p)
{
	return (u16)(p[0] << 8 | p[1]);
}

static inline u32 mad_wire_get32(const u8 *p)
{
	return (u32)p[0] << 24 | (u32)p[1] << 16 | (u32)p[2] << 8 | p[3];
}

static inline u64 mad_wire_get64(const u8 *p)
{
	return (u64)mad_wire_get32(p) << 32 | mad_wire_get32(p + 4);
}

static inline void mad_wire_put16(u8 *p, u16 v)
{
	p[0] = v >> 8;
	p[1] = v;
}

static inline void mad_wire_put32(u8 *p, u32 v)
{
	p[0] = v >> 24;
	p[1] = v >> 16;
	p[2] = v >> 8;
	p[3] = v;
}

static inline void mad_wire_put64(u8 *p, u64 v)
{
	mad_wire_put32(p, v >> 32);
	mad_wire_put32(p + 4, (u32)v);
}

/* Write @h into the first MAD_WIRE_HDR_SIZE bytes of @buf (reserved: 0). */
static inline void mad_wire_pack(u8 *buf, const struct mad_wire_hdr *h)
{
	buf[MAD_WIRE_OFF_BASE_VERSION] = h->base_version;
	buf[MAD_WIRE_OFF_MGMT_CLASS] = h->mgmt_class;
	buf[MAD_WIRE_OFF_CLASS_VERSION] = h->class_version;
	buf[MAD_WIRE_OFF_METHOD] = h->method;
	mad_wire_put16(buf + MAD_WIRE_OFF_STATUS, h->status);
	mad_wire_put16(buf + MAD_WIRE_OFF_CLASS_SPECIFIC, h->class_specific);
	mad_wire_put64(buf + MAD_WIRE_OFF_TID, h->tid);
	mad_wire_put16(buf + MAD_WIRE_OFF_ATTR_ID, h->attr_id);
	mad_wire_put16(buf + MAD_WIRE_OFF_RESV, 0);
	mad_wire_put32(buf + MAD_WIRE_OFF_ATTR_MOD, h->attr_mod);
}

static inline void mad_wire_unpack(struct mad_wire_hdr *h, const u8 *buf)
{
	h->base_version = buf[MAD_WIRE_OFF_BASE_VERSION];
	h->mgmt_class = buf[MAD_WIRE_OFF_MGMT_CLASS];
	h->class_version = buf[MAD_WIRE_OFF_CLASS_VERSION];
	h->method = buf[MAD_WIRE_OFF_METHOD];
	h->status = mad_wire_get16(buf + MAD_WIRE_OFF_STATUS);
	h->class_specific = mad_wire_get16(buf + MAD_WIRE_OFF_CLASS_SPECIFIC);
	h->tid = mad_wire_get64(buf + MAD_WIRE_OFF_TID);
	h->attr_id = mad_wire_get16(buf + MAD_WIRE_OFF_ATTR_ID);
	h->attr_mod = mad_wire_get32(buf + MAD_WIRE_OFF_ATTR_MOD);
}

/*
 * May @len bytes at @buf be dispatched?  @len is what arrived after the
 * GRH slot; only whole 256-byte MADs of base version 1 are.
 */
static inline enum mad_wire_verdict mad_wire_check(const u8 *buf, u32 len)
{
	if (len < MAD_WIRE_SIZE)
		return MAD_WIRE_SHORT;
	if (buf[MAD_WIRE_OFF_BASE_VERSION] != MAD_WIRE_BASE_VERSION)
		return MAD_WIRE_BAD_BASE_VERSION;
	return MAD_WIRE_OK;
}

/* A response (IBTA 13.4.5): the R bit, or TrapRepress. */
static inline bool mad_wire_is_response(u8 method)
{
	return (method & MAD_WIRE_METHOD_RESP) ||
	       method == MAD_WIRE_METHOD_TRAP_REPRESS;
}

/* The method a registration's method set is indexed by (R bit off). */
static inline u8 mad_wire_method_index(u8 method)
{
	return method & ~MAD_WIRE_METHOD_RESP;
}

/* The agent a TID belongs to: its upper 32 bits, the agent's hi_tid. */
static inline u32 mad_wire_tid_agent(u64 tid)
{
	return (u32)(tid >> 32);
}

static inline u64 mad_wire_make_tid(u32 hi_tid, u32 lo)
{
	return (u64)hi_tid << 32 | lo;
}

#endif
