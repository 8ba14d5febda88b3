/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * CM messages on the wire (IBTA vol. 1, chapter 12.6): the 232-byte data
 * area that follows the 24-byte MAD header of a management class 0x07,
 * class version 2 MAD.  Every CM message travels with method SEND; the
 * attribute ID says which message it is.
 *
 * Offsets below count from the start of that data area.  Multi-byte
 * fields are big-endian.  Bit fields are named by the byte that holds
 * them, a shift (from the least significant bit) and a width: "top 5
 * bits of byte 43" is (43, 3, 5).  Each message has a host-order struct
 * and a pack/unpack pair; private data is copied by the caller at the
 * message's *_PDATA_OFF, *_PDATA_LEN bytes long (the field's full size).
 *
 * Pure: compiled both into ib_cm and into tests/unit.
 */
#ifndef ORDMA_CM_MSGS_H
#define ORDMA_CM_MSGS_H

#include <ordma/pure.h>

#define CM_MGMT_CLASS		0x07
#define CM_CLASS_VERSION	2
#define CM_METHOD_SEND		0x03
#define CM_MSG_SIZE		232	/* the MAD's data area */

enum cm_attr_id {
	CM_ATTR_CLASS_PORT_INFO	= 0x0001,
	CM_ATTR_REQ		= 0x0010,
	CM_ATTR_MRA		= 0x0011,
	CM_ATTR_REJ		= 0x0012,
	CM_ATTR_REP		= 0x0013,
	CM_ATTR_RTU		= 0x0014,
	CM_ATTR_DREQ		= 0x0015,
	CM_ATTR_DREP		= 0x0016,
	CM_ATTR_SIDR_REQ	= 0x0017,
	CM_ATTR_SIDR_REP	= 0x0018,
	CM_ATTR_LAP		= 0x0019,
	CM_ATTR_APR		= 0x001a,
};

/* What an MRA or REJ answers (its "message MRAed/rejected" field). */
enum cm_msg_answered {
	CM_ANSWERS_REQ = 0,
	CM_ANSWERS_REP = 1,
	CM_ANSWERS_OTHER = 2,
};

/* REQ transport service type. */
enum cm_transport {
	CM_TRANSPORT_RC = 0,
	CM_TRANSPORT_UC = 1,
	CM_TRANSPORT_RD = 2,
};

/* Private data: where each message carries it and how long it is. */
#define CM_REQ_PDATA_OFF	140
#define CM_REQ_PDATA_LEN	92
#define CM_MRA_PDATA_OFF	10
#define CM_MRA_PDATA_LEN	222
#define CM_REJ_ARI_OFF		12
#define CM_REJ_ARI_LEN		72
#define CM_REJ_PDATA_OFF	84
#define CM_REJ_PDATA_LEN	148
#define CM_REP_PDATA_OFF	36
#define CM_REP_PDATA_LEN	196
#define CM_RTU_PDATA_OFF	8
#define CM_RTU_PDATA_LEN	224
#define CM_DREQ_PDATA_OFF	12
#define CM_DREQ_PDATA_LEN	220
#define CM_DREP_PDATA_OFF	8
#define CM_DREP_PDATA_LEN	224
#define CM_SIDR_REQ_PDATA_OFF	16
#define CM_SIDR_REQ_PDATA_LEN	216
#define CM_SIDR_REP_INFO_OFF	24
#define CM_SIDR_REP_INFO_LEN	72
#define CM_SIDR_REP_PDATA_OFF	96
#define CM_SIDR_REP_PDATA_LEN	136

/* ------------------------------------------------------------------ */
/* Field access                                                        */
/* ------------------------------------------------------------------ */

static inline void cm_put8(u8 *m, unsigned int off, u8 v)
{
	m[off] = v;
}

static inline u8 cm_get8(const u8 *m, unsigned int off)
{
	return m[off];
}

static inline void cm_put16(u8 *m, unsigned int off, u16 v)
{
	m[off] = v >> 8;
	m[off + 1] = v;
}

static inline u16 cm_get16(const u8 *m, unsigned int off)
{
	return (u16)(m[off] << 8 | m[off + 1]);
}

static inline void cm_put32(u8 *m, unsigned int off, u32 v)
{
	cm_put16(m, off, v >> 16);
	cm_put16(m, off + 2, v);
}

static inline u32 cm_get32(const u8 *m, unsigned int off)
{
	return (u32)cm_get16(m, off) << 16 | cm_get16(m, off + 2);
}

static inline void cm_put64(u8 *m, unsigned int off, u64 v)
{
	cm_put32(m, off, v >> 32);
	cm_put32(m, off + 4, (u32)v);
}

static inline u64 cm_get64(const u8 *m, unsigned int off)
{
	return (u64)cm_get32(m, off) << 32 | cm_get32(m, off + 4);
}

/* A 24-bit field in the top three bytes of the 32-bit word at @off. */
static inline void cm_put24(u8 *m, unsigned int off, u32 v)
{
	m[off] = v >> 16;
	m[off + 1] = v >> 8;
	m[off + 2] = v;
}

static inline u32 cm_get24(const u8 *m, unsigned int off)
{
	return (u32)m[off] << 16 | (u32)m[off + 1] << 8 | m[off + 2];
}

/* @width bits at @shift (from the LSB) of byte @off; other bits kept. */
static inline void cm_put_bits(u8 *m, unsigned int off, unsigned int shift,
			       unsigned int width, u8 v)
{
	u8 mask = (u8)(((1u << width) - 1) << shift);

	m[off] = (u8)((m[off] & ~mask) | ((v << shift) & mask));
}

static inline u8 cm_get_bits(const u8 *m, unsigned int off,
			     unsigned int shift, unsigned int width)
{
	return (m[off] >> shift) & ((1u << width) - 1);
}

/*
 * A layout is written once, as a list of its fields, and turns into the
 * pack/unpack pair so the two cannot disagree: F(bits, member, offset)
 * for a whole 8/16/24/32/64-bit field, B(member, offset, shift, width)
 * for a bit field.  CM_LAYOUT(cm_x, ...) defines cm_x_pack() and
 * cm_x_unpack().
 */
#define CM_PUT_FIELD(bits, f, off)	cm_put##bits(m, off, r->f);
#define CM_GET_FIELD(bits, f, off)	r->f = cm_get##bits(m, off);
#define CM_PUT_BITS(f, off, sh, w)	cm_put_bits(m, off, sh, w, r->f);
#define CM_GET_BITS(f, off, sh, w)	r->f = cm_get_bits(m, off, sh, w);

#define CM_LAYOUT(name, type, FIELDS)					\
static inline void name##_pack(u8 *m, const type *r)			\
{									\
	FIELDS(CM_PUT_FIELD, CM_PUT_BITS)				\
}									\
									\
static inline void name##_unpack(const u8 *m, type *r)			\
{									\
	FIELDS(CM_GET_FIELD, CM_GET_BITS)				\
}

/* ------------------------------------------------------------------ */
/* REQ (IBTA table 99)                                                 */
/* ------------------------------------------------------------------ */

/* One path of a REQ: 44 bytes at 52 (primary) or 96 (alternate). */
struct cm_req_path {
	u16 local_lid;
	u16 remote_lid;
	u8 local_gid[16];
	u8 remote_gid[16];
	u32 flow_label;		/* 20 bits */
	u8 packet_rate;		/* 6 bits */
	u8 traffic_class;
	u8 hop_limit;
	u8 sl;			/* 4 bits */
	u8 subnet_local;	/* 1 bit */
	u8 local_ack_timeout;	/* 5 bits */
};

#define CM_REQ_PRIMARY_PATH_OFF		52
#define CM_REQ_ALTERNATE_PATH_OFF	96

struct cm_req {
	u32 local_comm_id;
	u32 vendor_id;			/* 24 bits */
	u64 service_id;
	u64 local_ca_guid;
	u32 local_qkey;
	u32 local_qpn;			/* 24 bits */
	u8 responder_resources;
	u32 local_eecn;			/* 24 bits */
	u8 initiator_depth;
	u32 remote_eecn;		/* 24 bits */
	u8 remote_cm_response_timeout;	/* 5 bits */
	u8 transport;			/* 2 bits, enum cm_transport */
	u8 flow_control;		/* 1 bit */
	u32 starting_psn;		/* 24 bits */
	u8 local_cm_response_timeout;	/* 5 bits */
	u8 retry_count;			/* 3 bits */
	u16 pkey;
	u8 path_mtu;			/* 4 bits, IB_MTU_* */
	u8 rdc_exists;			/* 1 bit */
	u8 rnr_retry_count;		/* 3 bits */
	u8 max_cm_retries;		/* 4 bits */
	u8 srq;				/* 1 bit */
	u8 ext_transport;		/* 3 bits */
	struct cm_req_path primary;
	struct cm_req_path alternate;
};

static inline void cm_req_path_pack(u8 *m, unsigned int o,
				    const struct cm_req_path *p)
{
	cm_put16(m, o, p->local_lid);
	cm_put16(m, o + 2, p->remote_lid);
	memcpy(m + o + 4, p->local_gid, 16);
	memcpy(m + o + 20, p->remote_gid, 16);
	/* flow label: top 20 bits of the word at +36; rate: low 6 of +39 */
	m[o + 36] = (u8)(p->flow_label >> 12);
	m[o + 37] = (u8)(p->flow_label >> 4);
	cm_put_bits(m, o + 38, 4, 4, p->flow_label & 0xf);
	cm_put_bits(m, o + 39, 0, 6, p->packet_rate);
	cm_put8(m, o + 40, p->traffic_class);
	cm_put8(m, o + 41, p->hop_limit);
	cm_put_bits(m, o + 42, 4, 4, p->sl);
	cm_put_bits(m, o + 42, 3, 1, p->subnet_local);
	cm_put_bits(m, o + 43, 3, 5, p->local_ack_timeout);
}

static inline void cm_req_path_unpack(const u8 *m, unsigned int o,
				      struct cm_req_path *p)
{
	p->local_lid = cm_get16(m, o);
	p->remote_lid = cm_get16(m, o + 2);
	memcpy(p->local_gid, m + o + 4, 16);
	memcpy(p->remote_gid, m + o + 20, 16);
	p->flow_label = cm_get32(m, o + 36) >> 12;
	p->packet_rate = cm_get_bits(m, o + 39, 0, 6);
	p->traffic_class = cm_get8(m, o + 40);
	p->hop_limit = cm_get8(m, o + 41);
	p->sl = cm_get_bits(m, o + 42, 4, 4);
	p->subnet_local = cm_get_bits(m, o + 42, 3, 1);
	p->local_ack_timeout = cm_get_bits(m, o + 43, 3, 5);
}

/* The REQ but for its paths. */
#define CM_REQ_FIELDS(F, B) \
	F(32, local_comm_id, 0) \
	F(24, vendor_id, 5) \
	F(64, service_id, 8) \
	F(64, local_ca_guid, 16) \
	F(32, local_qkey, 28) \
	F(24, local_qpn, 32) \
	F(8, responder_resources, 35) \
	F(24, local_eecn, 36) \
	F(8, initiator_depth, 39) \
	F(24, remote_eecn, 40) \
	B(remote_cm_response_timeout, 43, 3, 5) \
	B(transport, 43, 1, 2) \
	B(flow_control, 43, 0, 1) \
	F(24, starting_psn, 44) \
	B(local_cm_response_timeout, 47, 3, 5) \
	B(retry_count, 47, 0, 3) \
	F(16, pkey, 48) \
	B(path_mtu, 50, 4, 4) \
	B(rdc_exists, 50, 3, 1) \
	B(rnr_retry_count, 50, 0, 3) \
	B(max_cm_retries, 51, 4, 4) \
	B(srq, 51, 3, 1) \
	B(ext_transport, 51, 0, 3)

CM_LAYOUT(cm_req_head, struct cm_req, CM_REQ_FIELDS)

/* Writes every field but the private data; @m must be zeroed first. */
static inline void cm_req_pack(u8 *m, const struct cm_req *r)
{
	cm_req_head_pack(m, r);
	cm_req_path_pack(m, CM_REQ_PRIMARY_PATH_OFF, &r->primary);
	cm_req_path_pack(m, CM_REQ_ALTERNATE_PATH_OFF, &r->alternate);
}

static inline void cm_req_unpack(const u8 *m, struct cm_req *r)
{
	cm_req_head_unpack(m, r);
	cm_req_path_unpack(m, CM_REQ_PRIMARY_PATH_OFF, &r->primary);
	cm_req_path_unpack(m, CM_REQ_ALTERNATE_PATH_OFF, &r->alternate);
}

/* ------------------------------------------------------------------ */
/* MRA, REJ (tables 103, 104)                                          */
/* ------------------------------------------------------------------ */

struct cm_mra {
	u32 local_comm_id;
	u32 remote_comm_id;
	u8 message_mraed;	/* 2 bits, enum cm_msg_answered */
	u8 service_timeout;	/* 5 bits */
};

#define CM_MRA_FIELDS(F, B) \
	F(32, local_comm_id, 0) \
	F(32, remote_comm_id, 4) \
	B(message_mraed, 8, 6, 2) \
	B(service_timeout, 9, 3, 5)

CM_LAYOUT(cm_mra, struct cm_mra, CM_MRA_FIELDS)

struct cm_rej {
	u32 local_comm_id;
	u32 remote_comm_id;
	u8 message_rejected;	/* 2 bits, enum cm_msg_answered */
	u8 ari_length;		/* 7 bits */
	u16 reason;
};

#define CM_REJ_FIELDS(F, B) \
	F(32, local_comm_id, 0) \
	F(32, remote_comm_id, 4) \
	B(message_rejected, 8, 6, 2) \
	B(ari_length, 9, 1, 7) \
	F(16, reason, 10)

CM_LAYOUT(cm_rej, struct cm_rej, CM_REJ_FIELDS)

/* ------------------------------------------------------------------ */
/* REP (table 105)                                                     */
/* ------------------------------------------------------------------ */

struct cm_rep {
	u32 local_comm_id;
	u32 remote_comm_id;
	u32 local_qkey;
	u32 local_qpn;			/* 24 bits */
	u32 local_eecn;			/* 24 bits */
	u32 starting_psn;		/* 24 bits */
	u8 responder_resources;
	u8 initiator_depth;
	u8 target_ack_delay;		/* 5 bits */
	u8 failover_accepted;		/* 2 bits */
	u8 flow_control;		/* 1 bit */
	u8 rnr_retry_count;		/* 3 bits */
	u8 srq;				/* 1 bit */
	u64 local_ca_guid;
};

#define CM_REP_FIELDS(F, B) \
	F(32, local_comm_id, 0) \
	F(32, remote_comm_id, 4) \
	F(32, local_qkey, 8) \
	F(24, local_qpn, 12) \
	F(24, local_eecn, 16) \
	F(24, starting_psn, 20) \
	F(8, responder_resources, 24) \
	F(8, initiator_depth, 25) \
	B(target_ack_delay, 26, 3, 5) \
	B(failover_accepted, 26, 1, 2) \
	B(flow_control, 26, 0, 1) \
	B(rnr_retry_count, 27, 5, 3) \
	B(srq, 27, 4, 1) \
	F(64, local_ca_guid, 28)

CM_LAYOUT(cm_rep, struct cm_rep, CM_REP_FIELDS)

/* ------------------------------------------------------------------ */
/* RTU, DREQ, DREP (tables 106, 107, 108): the comm ID pair            */
/* ------------------------------------------------------------------ */

/* RTU and DREP are only the pair; DREQ adds the remote QPN. */
struct cm_ids {
	u32 local_comm_id;
	u32 remote_comm_id;
	u32 remote_qpn;		/* DREQ only, 24 bits */
};

static inline void cm_ids_pack(u8 *m, const struct cm_ids *r)
{
	cm_put32(m, 0, r->local_comm_id);
	cm_put32(m, 4, r->remote_comm_id);
}

static inline void cm_ids_unpack(const u8 *m, struct cm_ids *r)
{
	r->local_comm_id = cm_get32(m, 0);
	r->remote_comm_id = cm_get32(m, 4);
	r->remote_qpn = 0;
}

static inline void cm_dreq_pack(u8 *m, const struct cm_ids *r)
{
	cm_ids_pack(m, r);
	cm_put24(m, 8, r->remote_qpn);
}

static inline void cm_dreq_unpack(const u8 *m, struct cm_ids *r)
{
	cm_ids_unpack(m, r);
	r->remote_qpn = cm_get24(m, 8);
}

/* ------------------------------------------------------------------ */
/* SIDR_REQ, SIDR_REP (tables 119, 120)                                */
/* ------------------------------------------------------------------ */

struct cm_sidr_req {
	u32 request_id;
	u16 pkey;
	u64 service_id;
};

#define CM_SIDR_REQ_FIELDS(F, B) \
	F(32, request_id, 0) \
	F(16, pkey, 4) \
	F(64, service_id, 8)

CM_LAYOUT(cm_sidr_req, struct cm_sidr_req, CM_SIDR_REQ_FIELDS)

struct cm_sidr_rep {
	u32 request_id;
	u8 status;
	u8 info_length;
	u32 qpn;		/* 24 bits */
	u64 service_id;
	u32 qkey;
};

#define CM_SIDR_REP_FIELDS(F, B) \
	F(32, request_id, 0) \
	F(8, status, 4) \
	F(8, info_length, 5) \
	F(24, qpn, 8) \
	F(64, service_id, 12) \
	F(32, qkey, 20)

CM_LAYOUT(cm_sidr_rep, struct cm_sidr_rep, CM_SIDR_REP_FIELDS)

/* ------------------------------------------------------------------ */
/* Timeouts                                                            */
/* ------------------------------------------------------------------ */

/*
 * The largest exponent we wait for: 2^24 * 4.096 us = 68.7 s, what the
 * in-tree rdma_cm asks for in an MRA.  Most exponents come from the peer
 * (REQ, REP, MRA), and 31 would hold an id for 2.4 hours per try.
 */
#define CM_TIMEOUT_MAX_EXP 24

/* 4.096 us * 2^@exp in milliseconds, at least 1, at most 2^24's. */
static inline u32 cm_timeout_ms(u8 exp)
{
	u64 ns = 4096ull << (exp > CM_TIMEOUT_MAX_EXP ? CM_TIMEOUT_MAX_EXP : exp);

	ns /= 1000000;
	return ns ? (u32)ns : 1;
}

#endif
