/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * RoCEv2 transport headers on the wire (IBTA vol. 1 ch. 9, annex A17).
 *
 * A RoCEv2 packet is Ethernet / IP / UDP (destination port 4791) / BTH,
 * then the extension headers the opcode calls for, the payload padded to
 * a multiple of four bytes, and the 4-byte ICRC.  Every multi-byte field
 * is big-endian except the ICRC, which is sent least significant byte
 * first.
 *
 * The accessors below take a pointer to the first byte of one header (for
 * the packet at @pkt and opcode @op, an extension header starts at
 * pkt + rxe_opcode_hdr_offset(op, type), see rxe_opcode.h).  They work on
 * plain bytes: a header may sit at any alignment, and every load and store
 * goes through memcpy() or single-byte operations.
 *
 * Included from both the kernel and the userspace unit tests: it includes
 * <ordma/pure.h> and, for byte order only, <asm/byteorder.h> or <endian.h>.
 */
#ifndef RXE_HDR_H
#define RXE_HDR_H

#include <ordma/pure.h>

#ifdef __KERNEL__
#include <asm/byteorder.h>

#define rxe_be16_to_cpu(x)	be16_to_cpu(x)
#define rxe_be32_to_cpu(x)	be32_to_cpu(x)
#define rxe_be64_to_cpu(x)	be64_to_cpu(x)
#define rxe_cpu_to_be16(x)	cpu_to_be16(x)
#define rxe_cpu_to_be32(x)	cpu_to_be32(x)
#define rxe_cpu_to_be64(x)	cpu_to_be64(x)
#define rxe_le32_to_cpu(x)	le32_to_cpu(x)
#define rxe_cpu_to_le32(x)	cpu_to_le32(x)
#else
#include <endian.h>

/* Userspace has no sparse: the wire-order types are plain integers. */
typedef u16 __be16;
typedef u32 __be32;
typedef u64 __be64;
typedef u32 __le32;

#define rxe_be16_to_cpu(x)	be16toh(x)
#define rxe_be32_to_cpu(x)	be32toh(x)
#define rxe_be64_to_cpu(x)	be64toh(x)
#define rxe_cpu_to_be16(x)	htobe16(x)
#define rxe_cpu_to_be32(x)	htobe32(x)
#define rxe_cpu_to_be64(x)	htobe64(x)
#define rxe_le32_to_cpu(x)	le32toh(x)
#define rxe_cpu_to_le32(x)	htole32(x)
#endif

/* ------------------------------------------------------------------------
 * Loads and stores of wire-order fields at any alignment
 */

static inline u16 rxe_get_be16(const u8 *p)
{
	__be16 v;

	memcpy(&v, p, sizeof(v));
	return rxe_be16_to_cpu(v);
}

static inline void rxe_put_be16(u8 *p, u16 x)
{
	__be16 v = rxe_cpu_to_be16(x);

	memcpy(p, &v, sizeof(v));
}

static inline u32 rxe_get_be32(const u8 *p)
{
	__be32 v;

	memcpy(&v, p, sizeof(v));
	return rxe_be32_to_cpu(v);
}

static inline void rxe_put_be32(u8 *p, u32 x)
{
	__be32 v = rxe_cpu_to_be32(x);

	memcpy(p, &v, sizeof(v));
}

static inline u64 rxe_get_be64(const u8 *p)
{
	__be64 v;

	memcpy(&v, p, sizeof(v));
	return rxe_be64_to_cpu(v);
}

static inline void rxe_put_be64(u8 *p, u64 x)
{
	__be64 v = rxe_cpu_to_be64(x);

	memcpy(p, &v, sizeof(v));
}

static inline u32 rxe_get_le32(const u8 *p)
{
	__le32 v;

	memcpy(&v, p, sizeof(v));
	return rxe_le32_to_cpu(v);
}

static inline void rxe_put_le32(u8 *p, u32 x)
{
	__le32 v = rxe_cpu_to_le32(x);

	memcpy(p, &v, sizeof(v));
}

/* QPNs, PSNs, MSNs and EE contexts are 24-bit fields in three bytes. */
static inline u32 rxe_get_be24(const u8 *p)
{
	return (u32)p[0] << 16 | (u32)p[1] << 8 | p[2];
}

static inline void rxe_put_be24(u8 *p, u32 x)
{
	p[0] = (u8)(x >> 16);
	p[1] = (u8)(x >> 8);
	p[2] = (u8)x;
}

static inline void rxe_put_flag8(u8 *p, u8 flag, bool on)
{
	if (on)
		*p |= flag;
	else
		*p &= (u8)~flag;
}

/* ------------------------------------------------------------------------
 * Sizes and constants
 */

enum rxe_hdr_bytes {
	RXE_BTH_BYTES		= 12,
	RXE_RDETH_BYTES		= 4,
	RXE_DETH_BYTES		= 8,
	RXE_FETH_BYTES		= 4,
	RXE_RETH_BYTES		= 16,
	RXE_ATMETH_BYTES	= 28,
	RXE_AETH_BYTES		= 4,
	RXE_ATMACK_BYTES	= 8,
	RXE_IMMDT_BYTES		= 4,
	RXE_IETH_BYTES		= 4,
	RXE_ICRC_BYTES		= 4,
};

#define RXE_ROCEV2_UDP_PORT	4791
#define RXE_UDP_HDR_BYTES	8
#define RXE_IPV4_HDR_BYTES	20	/* without options */
#define RXE_IPV6_HDR_BYTES	40

#define RXE_TVER		0	/* the only transport header version */
#define RXE_DEFAULT_PKEY	0xffff	/* full member of the default partition */
#define RXE_PKEY_MEMBER		0x8000	/* set: full member, clear: limited */
#define RXE_GSI_QKEY		0x80010000u	/* well-known Q_Key of QP1 */
#define RXE_QKEY_CONTROLLED	0x80000000u	/* MSB: take the QP's Q_Key */
#define RXE_QPN_MASK		0x00ffffffu

/* Payload bytes needed to round @len up to a whole number of words. */
static inline u8 rxe_pad_len(u32 len)
{
	return (u8)(-len & 3);
}

/* ------------------------------------------------------------------------
 * BTH, Base Transport Header (12 bytes)
 *
 *   byte 0      OpCode
 *   byte 1      SE:1 MigReq:1 PadCnt:2 TVer:4
 *   bytes 2-3   P_Key
 *   byte 4      FECN:1 BECN:1 reserved:6   (all of byte 4 was "resv8a"
 *                                           before congestion control)
 *   bytes 5-7   DestQP
 *   byte 8      AckReq:1 reserved:7
 *   bytes 9-11  PSN
 */

#define RXE_BTH_OPCODE_OFF	0
#define RXE_BTH_FLAGS_OFF	1
#define RXE_BTH_PKEY_OFF	2
#define RXE_BTH_CN_OFF		4
#define RXE_BTH_QPN_OFF		5
#define RXE_BTH_ACK_OFF		8
#define RXE_BTH_PSN_OFF		9

#define RXE_BTH_SE		0x80
#define RXE_BTH_MIGREQ		0x40
#define RXE_BTH_PAD_MASK	0x30
#define RXE_BTH_PAD_SHIFT	4
#define RXE_BTH_TVER_MASK	0x0f
#define RXE_BTH_FECN		0x80
#define RXE_BTH_BECN		0x40
#define RXE_BTH_ACKREQ		0x80

static inline u8 rxe_bth_opcode(const u8 *bth)
{
	return bth[RXE_BTH_OPCODE_OFF];
}

static inline void rxe_bth_set_opcode(u8 *bth, u8 opcode)
{
	bth[RXE_BTH_OPCODE_OFF] = opcode;
}

static inline bool rxe_bth_se(const u8 *bth)
{
	return bth[RXE_BTH_FLAGS_OFF] & RXE_BTH_SE;
}

static inline void rxe_bth_set_se(u8 *bth, bool se)
{
	rxe_put_flag8(&bth[RXE_BTH_FLAGS_OFF], RXE_BTH_SE, se);
}

static inline bool rxe_bth_migreq(const u8 *bth)
{
	return bth[RXE_BTH_FLAGS_OFF] & RXE_BTH_MIGREQ;
}

static inline void rxe_bth_set_migreq(u8 *bth, bool mig)
{
	rxe_put_flag8(&bth[RXE_BTH_FLAGS_OFF], RXE_BTH_MIGREQ, mig);
}

static inline u8 rxe_bth_pad(const u8 *bth)
{
	return (bth[RXE_BTH_FLAGS_OFF] & RXE_BTH_PAD_MASK) >> RXE_BTH_PAD_SHIFT;
}

static inline void rxe_bth_set_pad(u8 *bth, u8 pad)
{
	u8 *f = &bth[RXE_BTH_FLAGS_OFF];

	*f = (*f & (u8)~RXE_BTH_PAD_MASK) |
	     ((pad << RXE_BTH_PAD_SHIFT) & RXE_BTH_PAD_MASK);
}

static inline u8 rxe_bth_tver(const u8 *bth)
{
	return bth[RXE_BTH_FLAGS_OFF] & RXE_BTH_TVER_MASK;
}

static inline void rxe_bth_set_tver(u8 *bth, u8 tver)
{
	u8 *f = &bth[RXE_BTH_FLAGS_OFF];

	*f = (*f & (u8)~RXE_BTH_TVER_MASK) | (tver & RXE_BTH_TVER_MASK);
}

static inline u16 rxe_bth_pkey(const u8 *bth)
{
	return rxe_get_be16(&bth[RXE_BTH_PKEY_OFF]);
}

static inline void rxe_bth_set_pkey(u8 *bth, u16 pkey)
{
	rxe_put_be16(&bth[RXE_BTH_PKEY_OFF], pkey);
}

static inline bool rxe_bth_fecn(const u8 *bth)
{
	return bth[RXE_BTH_CN_OFF] & RXE_BTH_FECN;
}

static inline void rxe_bth_set_fecn(u8 *bth, bool fecn)
{
	rxe_put_flag8(&bth[RXE_BTH_CN_OFF], RXE_BTH_FECN, fecn);
}

static inline bool rxe_bth_becn(const u8 *bth)
{
	return bth[RXE_BTH_CN_OFF] & RXE_BTH_BECN;
}

static inline void rxe_bth_set_becn(u8 *bth, bool becn)
{
	rxe_put_flag8(&bth[RXE_BTH_CN_OFF], RXE_BTH_BECN, becn);
}

static inline u32 rxe_bth_qpn(const u8 *bth)
{
	return rxe_get_be24(&bth[RXE_BTH_QPN_OFF]);
}

static inline void rxe_bth_set_qpn(u8 *bth, u32 qpn)
{
	rxe_put_be24(&bth[RXE_BTH_QPN_OFF], qpn);
}

static inline bool rxe_bth_ackreq(const u8 *bth)
{
	return bth[RXE_BTH_ACK_OFF] & RXE_BTH_ACKREQ;
}

static inline void rxe_bth_set_ackreq(u8 *bth, bool ackreq)
{
	rxe_put_flag8(&bth[RXE_BTH_ACK_OFF], RXE_BTH_ACKREQ, ackreq);
}

static inline u32 rxe_bth_psn(const u8 *bth)
{
	return rxe_get_be24(&bth[RXE_BTH_PSN_OFF]);
}

static inline void rxe_bth_set_psn(u8 *bth, u32 psn)
{
	rxe_put_be24(&bth[RXE_BTH_PSN_OFF], psn);
}

/* All BTH fields at once; the reserved bits are sent as zero. */
struct rxe_bth_fields {
	u8 opcode;
	bool se;
	bool migreq;
	u8 pad;
	u8 tver;
	u16 pkey;
	bool fecn;
	bool becn;
	u32 qpn;
	bool ackreq;
	u32 psn;
};

static inline void rxe_bth_encode(u8 *bth, const struct rxe_bth_fields *f)
{
	bth[RXE_BTH_OPCODE_OFF] = f->opcode;
	bth[RXE_BTH_FLAGS_OFF] = (f->se ? RXE_BTH_SE : 0) |
				 (f->migreq ? RXE_BTH_MIGREQ : 0) |
				 ((f->pad << RXE_BTH_PAD_SHIFT) & RXE_BTH_PAD_MASK) |
				 (f->tver & RXE_BTH_TVER_MASK);
	rxe_put_be16(&bth[RXE_BTH_PKEY_OFF], f->pkey);
	bth[RXE_BTH_CN_OFF] = (f->fecn ? RXE_BTH_FECN : 0) |
			      (f->becn ? RXE_BTH_BECN : 0);
	rxe_put_be24(&bth[RXE_BTH_QPN_OFF], f->qpn);
	bth[RXE_BTH_ACK_OFF] = f->ackreq ? RXE_BTH_ACKREQ : 0;
	rxe_put_be24(&bth[RXE_BTH_PSN_OFF], f->psn);
}

static inline void rxe_bth_decode(const u8 *bth, struct rxe_bth_fields *f)
{
	f->opcode = rxe_bth_opcode(bth);
	f->se = rxe_bth_se(bth);
	f->migreq = rxe_bth_migreq(bth);
	f->pad = rxe_bth_pad(bth);
	f->tver = rxe_bth_tver(bth);
	f->pkey = rxe_bth_pkey(bth);
	f->fecn = rxe_bth_fecn(bth);
	f->becn = rxe_bth_becn(bth);
	f->qpn = rxe_bth_qpn(bth);
	f->ackreq = rxe_bth_ackreq(bth);
	f->psn = rxe_bth_psn(bth);
}

/* ------------------------------------------------------------------------
 * RDETH, Reliable Datagram ETH (4 bytes): reserved byte, EE-context:24
 */

#define RXE_RDETH_EEC_OFF	1

static inline u32 rxe_rdeth_eec(const u8 *rdeth)
{
	return rxe_get_be24(&rdeth[RXE_RDETH_EEC_OFF]);
}

static inline void rxe_rdeth_set_eec(u8 *rdeth, u32 eec)
{
	rdeth[0] = 0;
	rxe_put_be24(&rdeth[RXE_RDETH_EEC_OFF], eec);
}

/* ------------------------------------------------------------------------
 * DETH, Datagram ETH (8 bytes): Q_Key:32, reserved byte, SrcQP:24
 */

#define RXE_DETH_QKEY_OFF	0
#define RXE_DETH_SQP_OFF	5

static inline u32 rxe_deth_qkey(const u8 *deth)
{
	return rxe_get_be32(&deth[RXE_DETH_QKEY_OFF]);
}

static inline void rxe_deth_set_qkey(u8 *deth, u32 qkey)
{
	rxe_put_be32(&deth[RXE_DETH_QKEY_OFF], qkey);
}

static inline u32 rxe_deth_sqp(const u8 *deth)
{
	return rxe_get_be24(&deth[RXE_DETH_SQP_OFF]);
}

static inline void rxe_deth_set_sqp(u8 *deth, u32 sqp)
{
	deth[RXE_DETH_SQP_OFF - 1] = 0;
	rxe_put_be24(&deth[RXE_DETH_SQP_OFF], sqp);
}

/* ------------------------------------------------------------------------
 * FETH, FLUSH ETH (4 bytes, IBTA 1.5 A19): reserved:26, Selectivity
 * Level:2, Placement Type:4.  The placement type is a set of bits: make
 * the data globally visible, make it persistent.  The selectivity level
 * says what is flushed: the RETH's range, or the whole memory region.
 */

#define RXE_FETH_PLT_MASK		0x0f
#define RXE_FETH_SEL_SHIFT		4
#define RXE_FETH_SEL_MASK		0x03

/* placement types, a set */
#define RXE_FETH_PLT_GLOBAL		0x1
#define RXE_FETH_PLT_PERSISTENT		0x2
/* selectivity levels */
#define RXE_FETH_SEL_RANGE		0
#define RXE_FETH_SEL_MR			1

static inline u8 rxe_feth_placement(const u8 *feth)
{
	return rxe_get_be32(feth) & RXE_FETH_PLT_MASK;
}

static inline u8 rxe_feth_selectivity(const u8 *feth)
{
	return (rxe_get_be32(feth) >> RXE_FETH_SEL_SHIFT) & RXE_FETH_SEL_MASK;
}

/* The whole header: the reserved bits go out as zero. */
static inline void rxe_feth_set(u8 *feth, u8 placement, u8 selectivity)
{
	rxe_put_be32(feth, (placement & RXE_FETH_PLT_MASK) |
			   (u32)(selectivity & RXE_FETH_SEL_MASK) <<
			   RXE_FETH_SEL_SHIFT);
}

/* ------------------------------------------------------------------------
 * RETH, RDMA ETH (16 bytes): VA:64, R_Key:32, DMA length:32
 */

#define RXE_RETH_VA_OFF		0
#define RXE_RETH_RKEY_OFF	8
#define RXE_RETH_LEN_OFF	12

static inline u64 rxe_reth_va(const u8 *reth)
{
	return rxe_get_be64(&reth[RXE_RETH_VA_OFF]);
}

static inline void rxe_reth_set_va(u8 *reth, u64 va)
{
	rxe_put_be64(&reth[RXE_RETH_VA_OFF], va);
}

static inline u32 rxe_reth_rkey(const u8 *reth)
{
	return rxe_get_be32(&reth[RXE_RETH_RKEY_OFF]);
}

static inline void rxe_reth_set_rkey(u8 *reth, u32 rkey)
{
	rxe_put_be32(&reth[RXE_RETH_RKEY_OFF], rkey);
}

static inline u32 rxe_reth_len(const u8 *reth)
{
	return rxe_get_be32(&reth[RXE_RETH_LEN_OFF]);
}

static inline void rxe_reth_set_len(u8 *reth, u32 len)
{
	rxe_put_be32(&reth[RXE_RETH_LEN_OFF], len);
}

/* ------------------------------------------------------------------------
 * AtomicETH (28 bytes): VA:64, R_Key:32, Swap (or Add) Data:64,
 * Compare Data:64
 */

#define RXE_ATMETH_VA_OFF	0
#define RXE_ATMETH_RKEY_OFF	8
#define RXE_ATMETH_SWAP_ADD_OFF	12
#define RXE_ATMETH_COMP_OFF	20

static inline u64 rxe_atmeth_va(const u8 *atmeth)
{
	return rxe_get_be64(&atmeth[RXE_ATMETH_VA_OFF]);
}

static inline void rxe_atmeth_set_va(u8 *atmeth, u64 va)
{
	rxe_put_be64(&atmeth[RXE_ATMETH_VA_OFF], va);
}

static inline u32 rxe_atmeth_rkey(const u8 *atmeth)
{
	return rxe_get_be32(&atmeth[RXE_ATMETH_RKEY_OFF]);
}

static inline void rxe_atmeth_set_rkey(u8 *atmeth, u32 rkey)
{
	rxe_put_be32(&atmeth[RXE_ATMETH_RKEY_OFF], rkey);
}

static inline u64 rxe_atmeth_swap_add(const u8 *atmeth)
{
	return rxe_get_be64(&atmeth[RXE_ATMETH_SWAP_ADD_OFF]);
}

static inline void rxe_atmeth_set_swap_add(u8 *atmeth, u64 v)
{
	rxe_put_be64(&atmeth[RXE_ATMETH_SWAP_ADD_OFF], v);
}

static inline u64 rxe_atmeth_comp(const u8 *atmeth)
{
	return rxe_get_be64(&atmeth[RXE_ATMETH_COMP_OFF]);
}

static inline void rxe_atmeth_set_comp(u8 *atmeth, u64 v)
{
	rxe_put_be64(&atmeth[RXE_ATMETH_COMP_OFF], v);
}

/* ------------------------------------------------------------------------
 * AETH, ACK ETH (4 bytes): Syndrome:8, MSN:24
 *
 * The syndrome's bit 7 is reserved (zero), bits 6-5 are the type and
 * bits 4-0 a value whose meaning depends on the type:
 *
 *   ACK       0 00 ccccc   c: end-to-end credit code (31: no credits
 *                          advertised, "unlimited")
 *   RNR NAK   0 01 ttttt   t: minimum RNR NAK timer code
 *   reserved  0 10 xxxxx
 *   NAK       0 11 nnnnn   n: NAK code, enum rxe_nak_code
 *
 * Both the credit and the timer code map to values on the same scale,
 * 0, 1, 2, 3, 4, 6, 8, 12, 16, 24, ...: from code 2 on, the values
 * alternate between 2 * 2^k and 3 * 2^k.
 */

#define RXE_AETH_SYN_OFF	0
#define RXE_AETH_MSN_OFF	1

/* The type bits together with the reserved bit 7, so a syndrome with bit 7
 * set never matches a valid type.
 */
#define RXE_AETH_TYPE_MASK	0xe0
#define RXE_AETH_VALUE_MASK	0x1f

enum rxe_aeth_type {
	RXE_AETH_ACK		= 0x00,
	RXE_AETH_RNR_NAK	= 0x20,
	RXE_AETH_RESERVED	= 0x40,
	RXE_AETH_NAK		= 0x60,
};

enum rxe_nak_code {
	RXE_NAK_PSN_SEQ_ERR	= 0,	/* PSN sequence error */
	RXE_NAK_INVALID_REQ	= 1,	/* invalid request */
	RXE_NAK_REM_ACCESS_ERR	= 2,	/* remote access error */
	RXE_NAK_REM_OP_ERR	= 3,	/* remote operational error */
	RXE_NAK_INVALID_RD_REQ	= 4,	/* invalid RD request */
};

#define RXE_AETH_CREDITS_UNLIMITED	0x1f	/* credit code: no flow control */
#define RXE_AETH_MAX_CREDIT_CODE	0x1e	/* 32768 credits */
#define RXE_RNR_TIMER_MAX_CODE		0x1f

static inline u8 rxe_aeth_syn(const u8 *aeth)
{
	return aeth[RXE_AETH_SYN_OFF];
}

static inline void rxe_aeth_set_syn(u8 *aeth, u8 syn)
{
	aeth[RXE_AETH_SYN_OFF] = syn;
}

static inline u32 rxe_aeth_msn(const u8 *aeth)
{
	return rxe_get_be24(&aeth[RXE_AETH_MSN_OFF]);
}

static inline void rxe_aeth_set_msn(u8 *aeth, u32 msn)
{
	rxe_put_be24(&aeth[RXE_AETH_MSN_OFF], msn);
}

static inline u8 rxe_aeth_syn_type(u8 syn)
{
	return syn & RXE_AETH_TYPE_MASK;
}

static inline u8 rxe_aeth_syn_value(u8 syn)
{
	return syn & RXE_AETH_VALUE_MASK;
}

/* Syndrome of a positive ACK advertising credit code @credit_code. */
static inline u8 rxe_aeth_syn_ack(u8 credit_code)
{
	return RXE_AETH_ACK | (credit_code & RXE_AETH_VALUE_MASK);
}

/* Syndrome of an RNR NAK asking the requester to wait @timer_code. */
static inline u8 rxe_aeth_syn_rnr_nak(u8 timer_code)
{
	return RXE_AETH_RNR_NAK | (timer_code & RXE_AETH_VALUE_MASK);
}

static inline u8 rxe_aeth_syn_nak(enum rxe_nak_code code)
{
	return RXE_AETH_NAK | ((u8)code & RXE_AETH_VALUE_MASK);
}

/* The value of a 5-bit credit or RNR timer code on the common scale. */
static inline u32 rxe_aeth_code_scale(u8 code)
{
	code &= RXE_AETH_VALUE_MASK;
	if (code < 2)
		return code;
	return (2u | (code & 1u)) << ((code >> 1) - 1);
}

/*
 * Credits advertised by @code; RXE_AETH_CREDITS_UNLIMITED means the
 * responder does not do end-to-end flow control, returned as U32 max.
 */
static inline u32 rxe_aeth_credits(u8 code)
{
	code &= RXE_AETH_VALUE_MASK;
	if (code == RXE_AETH_CREDITS_UNLIMITED)
		return 0xffffffffu;
	return rxe_aeth_code_scale(code);
}

/* The largest credit code that does not advertise more than @credits. */
static inline u8 rxe_aeth_credit_code(u32 credits)
{
	u8 code = RXE_AETH_MAX_CREDIT_CODE;

	while (code && rxe_aeth_code_scale(code) > credits)
		code--;
	return code;
}

/* Microseconds an RNR NAK timer code stands for (code 0 is the longest). */
static inline u32 rxe_rnr_timer_usecs(u8 code)
{
	code &= RXE_AETH_VALUE_MASK;
	if (code == 0)
		return 655360;
	return 10 * rxe_aeth_code_scale(code);
}

/* ------------------------------------------------------------------------
 * AtomicAckETH (8 bytes): the original remote data, 64 bits
 */

static inline u64 rxe_atmack_orig(const u8 *atmack)
{
	return rxe_get_be64(atmack);
}

static inline void rxe_atmack_set_orig(u8 *atmack, u64 v)
{
	rxe_put_be64(atmack, v);
}

/* ------------------------------------------------------------------------
 * ImmDt (4 bytes).  Immediate data is opaque: verbs carry it in network
 * order (__be32 imm_data) and it goes on the wire unchanged.
 */

static inline __be32 rxe_immdt_imm(const u8 *immdt)
{
	__be32 imm;

	memcpy(&imm, immdt, sizeof(imm));
	return imm;
}

static inline void rxe_immdt_set_imm(u8 *immdt, __be32 imm)
{
	memcpy(immdt, &imm, sizeof(imm));
}

/* ------------------------------------------------------------------------
 * IETH, Invalidate ETH (4 bytes): the R_Key to invalidate
 */

static inline u32 rxe_ieth_rkey(const u8 *ieth)
{
	return rxe_get_be32(ieth);
}

static inline void rxe_ieth_set_rkey(u8 *ieth, u32 rkey)
{
	rxe_put_be32(ieth, rkey);
}

#endif /* RXE_HDR_H */
