/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * BTH opcodes (IBTA vol. 1 9.2): what each one carries and means.
 *
 * The top three bits of an opcode name the transport service, the low
 * five the operation.  rxe_opcodes[] describes every opcode of the RC, UC,
 * RD and UD services: which extension headers follow the BTH, where each
 * starts, how long the headers are, and what kind of packet it is.  RD is
 * described but not supported: rxe_opcode_legal() refuses it.  Opcodes
 * the table does not name (CNP, the manufacturer-specific range, and the
 * holes) have a NULL name and a zero mask.
 *
 * Pure protocol logic: compiles in the kernel and in the unit tests.
 */
#ifndef RXE_OPCODE_H
#define RXE_OPCODE_H

#include <ordma/pure.h>
#include "rxe_hdr.h"

/* Transport service, the opcode's top three bits. */
enum rxe_transport {
	RXE_TRANSPORT_RC	= 0x00,
	RXE_TRANSPORT_UC	= 0x20,
	RXE_TRANSPORT_RD	= 0x40,
	RXE_TRANSPORT_UD	= 0x60,
	RXE_TRANSPORT_CNP	= 0x80,
};

#define RXE_TRANSPORT_MASK	0xe0
#define RXE_OPERATION_MASK	0x1f

/* Operation, the opcode's low five bits. */
enum rxe_operation {
	RXE_OP_SEND_FIRST		= 0x00,
	RXE_OP_SEND_MIDDLE		= 0x01,
	RXE_OP_SEND_LAST		= 0x02,
	RXE_OP_SEND_LAST_IMM		= 0x03,
	RXE_OP_SEND_ONLY		= 0x04,
	RXE_OP_SEND_ONLY_IMM		= 0x05,
	RXE_OP_WRITE_FIRST		= 0x06,
	RXE_OP_WRITE_MIDDLE		= 0x07,
	RXE_OP_WRITE_LAST		= 0x08,
	RXE_OP_WRITE_LAST_IMM		= 0x09,
	RXE_OP_WRITE_ONLY		= 0x0a,
	RXE_OP_WRITE_ONLY_IMM		= 0x0b,
	RXE_OP_READ_REQUEST		= 0x0c,
	RXE_OP_READ_RESPONSE_FIRST	= 0x0d,
	RXE_OP_READ_RESPONSE_MIDDLE	= 0x0e,
	RXE_OP_READ_RESPONSE_LAST	= 0x0f,
	RXE_OP_READ_RESPONSE_ONLY	= 0x10,
	RXE_OP_ACKNOWLEDGE		= 0x11,
	RXE_OP_ATOMIC_ACKNOWLEDGE	= 0x12,
	RXE_OP_COMPARE_SWAP		= 0x13,
	RXE_OP_FETCH_ADD		= 0x14,
	/* 0x15 is reserved */
	RXE_OP_SEND_LAST_INV		= 0x16,
	RXE_OP_SEND_ONLY_INV		= 0x17,
	/* 0x18-0x1b: RD/XRC */
	RXE_OP_FLUSH			= 0x1c,
	RXE_OP_ATOMIC_WRITE		= 0x1d,
};

/* Full opcodes: transport | operation. */
enum rxe_opcode {
	RXE_OPCODE_RC_SEND_FIRST		= 0x00,
	RXE_OPCODE_RC_SEND_MIDDLE		= 0x01,
	RXE_OPCODE_RC_SEND_LAST			= 0x02,
	RXE_OPCODE_RC_SEND_LAST_IMM		= 0x03,
	RXE_OPCODE_RC_SEND_ONLY			= 0x04,
	RXE_OPCODE_RC_SEND_ONLY_IMM		= 0x05,
	RXE_OPCODE_RC_WRITE_FIRST		= 0x06,
	RXE_OPCODE_RC_WRITE_MIDDLE		= 0x07,
	RXE_OPCODE_RC_WRITE_LAST		= 0x08,
	RXE_OPCODE_RC_WRITE_LAST_IMM		= 0x09,
	RXE_OPCODE_RC_WRITE_ONLY		= 0x0a,
	RXE_OPCODE_RC_WRITE_ONLY_IMM		= 0x0b,
	RXE_OPCODE_RC_READ_REQUEST		= 0x0c,
	RXE_OPCODE_RC_READ_RESPONSE_FIRST	= 0x0d,
	RXE_OPCODE_RC_READ_RESPONSE_MIDDLE	= 0x0e,
	RXE_OPCODE_RC_READ_RESPONSE_LAST	= 0x0f,
	RXE_OPCODE_RC_READ_RESPONSE_ONLY	= 0x10,
	RXE_OPCODE_RC_ACKNOWLEDGE		= 0x11,
	RXE_OPCODE_RC_ATOMIC_ACKNOWLEDGE	= 0x12,
	RXE_OPCODE_RC_COMPARE_SWAP		= 0x13,
	RXE_OPCODE_RC_FETCH_ADD			= 0x14,
	RXE_OPCODE_RC_SEND_LAST_INV		= 0x16,
	RXE_OPCODE_RC_SEND_ONLY_INV		= 0x17,
	RXE_OPCODE_RC_FLUSH			= 0x1c,
	RXE_OPCODE_RC_ATOMIC_WRITE		= 0x1d,

	RXE_OPCODE_UC_SEND_FIRST		= 0x20,
	RXE_OPCODE_UC_SEND_MIDDLE		= 0x21,
	RXE_OPCODE_UC_SEND_LAST			= 0x22,
	RXE_OPCODE_UC_SEND_LAST_IMM		= 0x23,
	RXE_OPCODE_UC_SEND_ONLY			= 0x24,
	RXE_OPCODE_UC_SEND_ONLY_IMM		= 0x25,
	RXE_OPCODE_UC_WRITE_FIRST		= 0x26,
	RXE_OPCODE_UC_WRITE_MIDDLE		= 0x27,
	RXE_OPCODE_UC_WRITE_LAST		= 0x28,
	RXE_OPCODE_UC_WRITE_LAST_IMM		= 0x29,
	RXE_OPCODE_UC_WRITE_ONLY		= 0x2a,
	RXE_OPCODE_UC_WRITE_ONLY_IMM		= 0x2b,

	RXE_OPCODE_RD_SEND_FIRST		= 0x40,
	RXE_OPCODE_RD_SEND_MIDDLE		= 0x41,
	RXE_OPCODE_RD_SEND_LAST			= 0x42,
	RXE_OPCODE_RD_SEND_LAST_IMM		= 0x43,
	RXE_OPCODE_RD_SEND_ONLY			= 0x44,
	RXE_OPCODE_RD_SEND_ONLY_IMM		= 0x45,
	RXE_OPCODE_RD_WRITE_FIRST		= 0x46,
	RXE_OPCODE_RD_WRITE_MIDDLE		= 0x47,
	RXE_OPCODE_RD_WRITE_LAST		= 0x48,
	RXE_OPCODE_RD_WRITE_LAST_IMM		= 0x49,
	RXE_OPCODE_RD_WRITE_ONLY		= 0x4a,
	RXE_OPCODE_RD_WRITE_ONLY_IMM		= 0x4b,
	RXE_OPCODE_RD_READ_REQUEST		= 0x4c,
	RXE_OPCODE_RD_READ_RESPONSE_FIRST	= 0x4d,
	RXE_OPCODE_RD_READ_RESPONSE_MIDDLE	= 0x4e,
	RXE_OPCODE_RD_READ_RESPONSE_LAST	= 0x4f,
	RXE_OPCODE_RD_READ_RESPONSE_ONLY	= 0x50,
	RXE_OPCODE_RD_ACKNOWLEDGE		= 0x51,
	RXE_OPCODE_RD_ATOMIC_ACKNOWLEDGE	= 0x52,
	RXE_OPCODE_RD_COMPARE_SWAP		= 0x53,
	RXE_OPCODE_RD_FETCH_ADD			= 0x54,

	RXE_OPCODE_UD_SEND_ONLY			= 0x64,
	RXE_OPCODE_UD_SEND_ONLY_IMM		= 0x65,

	RXE_OPCODE_CNP				= 0x81,	/* not in the table */

	/* Not an opcode rxe uses (the vendor range): "no packet yet". */
	RXE_OPCODE_NONE				= 0xff,
};

#define RXE_NUM_OPCODES		256

/*
 * Headers that may follow the BTH, in the order they appear on the wire
 * (IBTA 9.2): an index into rxe_opcode_info.offset[] and a bit of .mask.
 * No opcode has both RETH and AETH, nor ImmDt together with AtomicETH or
 * IETH, so this one order serves every opcode (FLUSH: FETH, then RETH).
 */
enum rxe_hdr_type {
	RXE_BTH,
	RXE_RDETH,
	RXE_DETH,
	RXE_FETH,
	RXE_RETH,
	RXE_ATMETH,
	RXE_AETH,
	RXE_ATMACK,
	RXE_IMMDT,
	RXE_IETH,
	RXE_PAYLOAD,
	RXE_NUM_HDR_TYPES
};

/* rxe_opcode_info.mask: the headers present, then what the packet is. */
enum rxe_opcode_mask {
	RXE_BTH_MASK		= 1u << RXE_BTH,
	RXE_RDETH_MASK		= 1u << RXE_RDETH,
	RXE_DETH_MASK		= 1u << RXE_DETH,
	RXE_FETH_MASK		= 1u << RXE_FETH,
	RXE_RETH_MASK		= 1u << RXE_RETH,
	RXE_ATMETH_MASK		= 1u << RXE_ATMETH,
	RXE_AETH_MASK		= 1u << RXE_AETH,
	RXE_ATMACK_MASK		= 1u << RXE_ATMACK,
	RXE_IMMDT_MASK		= 1u << RXE_IMMDT,
	RXE_IETH_MASK		= 1u << RXE_IETH,
	RXE_PAYLOAD_MASK	= 1u << RXE_PAYLOAD,	/* may carry data */

	/* Direction: a request goes requester to responder. */
	RXE_REQ_MASK		= 1u << 16,
	/* A response: ACK/NAK, RDMA read response, atomic ACK. */
	RXE_RESP_MASK		= 1u << 17,

	/* Kind of a request (never set on responses). */
	RXE_SEND_MASK		= 1u << 18,
	RXE_WRITE_MASK		= 1u << 19,
	RXE_READ_MASK		= 1u << 20,
	RXE_ATOMIC_MASK		= 1u << 21,

	/* Place of the packet in its message; ONLY is FIRST | LAST. */
	RXE_FIRST_MASK		= 1u << 22,
	RXE_MIDDLE_MASK		= 1u << 23,
	RXE_LAST_MASK		= 1u << 24,

	/* The responder takes a receive WQE for this message here. */
	RXE_RWR_MASK		= 1u << 25,
	/* The responder completes that receive WQE with this packet. */
	RXE_COMP_MASK		= 1u << 26,
	/* A request of a reliable service (RC, RD): the responder answers
	 * it, with an ACK or NAK, read response data or an atomic ACK.
	 */
	RXE_ACKED_MASK		= 1u << 27,
	/* An RDMA write of 8 bytes the responder stores atomically
	 * (ATOMIC WRITE, IBTA 1.5); also has RXE_WRITE_MASK.  Bits 28 and 29
	 * are the driver's per-packet flags.
	 */
	RXE_ATOMIC_WRITE_MASK	= 1u << 30,
	/*
	 * FLUSH (IBTA 1.5): no data moves; the responder makes a range or a
	 * whole MR visible or persistent and answers as to a zero-length read.
	 */
	RXE_FLUSH_MASK		= 1u << 31,

	RXE_ONLY_MASK		= RXE_FIRST_MASK | RXE_LAST_MASK,
	RXE_READ_OR_ATOMIC_MASK	= RXE_READ_MASK | RXE_ATOMIC_MASK,
	RXE_WRITE_OR_SEND_MASK	= RXE_WRITE_MASK | RXE_SEND_MASK,
	RXE_READ_OR_WRITE_MASK	= RXE_READ_MASK | RXE_WRITE_MASK,
};

struct rxe_opcode_info {
	const char *name;	/* NULL: not an opcode of the table */
	u32 mask;		/* enum rxe_opcode_mask */
	u8 length;		/* bytes of BTH and extension headers */
	/* Start of each header present, from the BTH; 0 for one absent
	 * (only the BTH starts at 0).  offset[RXE_PAYLOAD] == length.
	 */
	u8 offset[RXE_NUM_HDR_TYPES];
};

extern const struct rxe_opcode_info rxe_opcodes[RXE_NUM_OPCODES];

static inline const struct rxe_opcode_info *rxe_opcode_info(u8 opcode)
{
	return &rxe_opcodes[opcode];
}

static inline bool rxe_opcode_known(u8 opcode)
{
	return rxe_opcodes[opcode].name;
}

static inline u32 rxe_opcode_mask(u8 opcode)
{
	return rxe_opcodes[opcode].mask;
}

/* Bytes of BTH and extension headers: where the payload starts. */
static inline unsigned int rxe_opcode_hdr_len(u8 opcode)
{
	return rxe_opcodes[opcode].length;
}

static inline bool rxe_opcode_has(u8 opcode, enum rxe_hdr_type type)
{
	return rxe_opcodes[opcode].mask & (1u << type);
}

/*
 * Offset of header @type from the start of the BTH, or -1 if @opcode
 * does not carry it.  RXE_PAYLOAD is always "carried": its offset is the
 * header length even when the opcode has no data.
 */
static inline int rxe_opcode_hdr_offset(u8 opcode, enum rxe_hdr_type type)
{
	const struct rxe_opcode_info *info = &rxe_opcodes[opcode];

	if (!info->name || type >= RXE_NUM_HDR_TYPES)
		return -1;
	if (type != RXE_PAYLOAD && !(info->mask & (1u << type)))
		return -1;
	return info->offset[type];
}

static inline u8 rxe_opcode_transport(u8 opcode)
{
	return opcode & RXE_TRANSPORT_MASK;
}

static inline const char *rxe_opcode_name(u8 opcode)
{
	return rxe_opcodes[opcode].name ? rxe_opcodes[opcode].name : "UNKNOWN";
}

/*
 * May a QP of service @transport (an enum rxe_transport; UD for GSI and
 * SMI QPs too) send or receive @opcode?  Only opcodes of its own service,
 * and none of RD, which rxe does not implement.
 */
bool rxe_opcode_legal(u8 opcode, u8 transport);

/*
 * For a responder checking the order of the requests it accepts in PSN
 * order on one RC or UC QP: may @opcode follow @prev, the request accepted
 * last (RXE_OPCODE_NONE before the first)?  Inside a multi-packet send or
 * write (@prev a FIRST or MIDDLE) only a MIDDLE or LAST of the same kind
 * may come; otherwise only the start of a new message (a FIRST or ONLY, a
 * read or an atomic).  Only requests of @prev's service follow it.
 */
bool rxe_opcode_may_follow(u8 prev, u8 opcode);

#endif /* RXE_OPCODE_H */
