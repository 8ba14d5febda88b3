// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The opcode table.  Each operation is described once by its own
 * headers and flags; a transport adds the headers every packet of its
 * service carries (RD: RDETH, and DETH on requests; UD: DETH) and marks
 * the requests of the reliable services as acknowledged.  Header
 * offsets and lengths are then summed at compile time from the mask, in
 * wire order, so no number in the table is written by hand.
 */
#include <ordma/pure.h>
#include "rxe_opcode.h"

/* Bytes header @t adds when the mask @m has it. */
#define HDR_IF(m, t, bytes)	((((m) >> (t)) & 1u) * (bytes))

/* Where each header ends (or would end), from the start of the BTH. */
#define END_BTH(m)	RXE_BTH_BYTES
#define END_RDETH(m)	(END_BTH(m) + HDR_IF(m, RXE_RDETH, RXE_RDETH_BYTES))
#define END_DETH(m)	(END_RDETH(m) + HDR_IF(m, RXE_DETH, RXE_DETH_BYTES))
#define END_FETH(m)	(END_DETH(m) + HDR_IF(m, RXE_FETH, RXE_FETH_BYTES))
#define END_RETH(m)	(END_FETH(m) + HDR_IF(m, RXE_RETH, RXE_RETH_BYTES))
#define END_ATMETH(m)	(END_RETH(m) + HDR_IF(m, RXE_ATMETH, RXE_ATMETH_BYTES))
#define END_AETH(m)	(END_ATMETH(m) + HDR_IF(m, RXE_AETH, RXE_AETH_BYTES))
#define END_ATMACK(m)	(END_AETH(m) + HDR_IF(m, RXE_ATMACK, RXE_ATMACK_BYTES))
#define END_IMMDT(m)	(END_ATMACK(m) + HDR_IF(m, RXE_IMMDT, RXE_IMMDT_BYTES))
#define END_IETH(m)	(END_IMMDT(m) + HDR_IF(m, RXE_IETH, RXE_IETH_BYTES))

/* A header starts where the one before it in wire order ends. */
#define START_IF(m, t, start)	((((m) >> (t)) & 1u) ? (start) : 0)

#define ENTRY(_name, m) {						\
	.name	= _name,						\
	.mask	= (m),							\
	.length	= END_IETH(m),						\
	.offset	= {							\
		[RXE_BTH]	= 0,					\
		[RXE_RDETH]	= START_IF(m, RXE_RDETH, END_BTH(m)),	\
		[RXE_DETH]	= START_IF(m, RXE_DETH, END_RDETH(m)),	\
		[RXE_FETH]	= START_IF(m, RXE_FETH, END_DETH(m)),	\
		[RXE_RETH]	= START_IF(m, RXE_RETH, END_FETH(m)),	\
		[RXE_ATMETH]	= START_IF(m, RXE_ATMETH, END_RETH(m)),	\
		[RXE_AETH]	= START_IF(m, RXE_AETH, END_ATMETH(m)),	\
		[RXE_ATMACK]	= START_IF(m, RXE_ATMACK, END_AETH(m)),	\
		[RXE_IMMDT]	= START_IF(m, RXE_IMMDT, END_ATMACK(m)),	\
		[RXE_IETH]	= START_IF(m, RXE_IETH, END_IMMDT(m)),	\
		[RXE_PAYLOAD]	= END_IETH(m),				\
	},								\
}

/*
 * The operations, whatever the service.  A send takes its receive WQE at
 * its first packet and completes it at the last; a write only involves a
 * receive WQE when it carries immediate data, and then at its last packet.
 */
#define REQ		(RXE_BTH_MASK | RXE_REQ_MASK)
#define RESP		(RXE_BTH_MASK | RXE_RESP_MASK)
#define DATA		RXE_PAYLOAD_MASK

#define SEND_FIRST	(REQ | RXE_SEND_MASK | DATA | RXE_FIRST_MASK | RXE_RWR_MASK)
#define SEND_MIDDLE	(REQ | RXE_SEND_MASK | DATA | RXE_MIDDLE_MASK)
#define SEND_LAST	(REQ | RXE_SEND_MASK | DATA | RXE_LAST_MASK | RXE_COMP_MASK)
#define SEND_ONLY	(SEND_FIRST | SEND_LAST)

#define WRITE_FIRST	(REQ | RXE_WRITE_MASK | DATA | RXE_FIRST_MASK | RXE_RETH_MASK)
#define WRITE_MIDDLE	(REQ | RXE_WRITE_MASK | DATA | RXE_MIDDLE_MASK)
#define WRITE_LAST	(REQ | RXE_WRITE_MASK | DATA | RXE_LAST_MASK)
#define WRITE_ONLY	(WRITE_FIRST | WRITE_LAST)
#define WITH_IMM	(RXE_IMMDT_MASK | RXE_RWR_MASK | RXE_COMP_MASK)

#define READ_REQUEST	(REQ | RXE_READ_MASK | RXE_ONLY_MASK | RXE_RETH_MASK)
#define ATOMIC_REQUEST	(REQ | RXE_ATOMIC_MASK | RXE_ONLY_MASK | RXE_ATMETH_MASK)
/* ATOMIC WRITE: a one-packet write of exactly 8 bytes, answered by an ACK */
#define ATOMIC_WRITE	(WRITE_ONLY | RXE_ATOMIC_WRITE_MASK)
/* FLUSH: one packet without data, answered by a zero-length read response */
#define FLUSH		(REQ | RXE_FLUSH_MASK | RXE_ONLY_MASK | RXE_FETH_MASK |	\
			 RXE_RETH_MASK)

/* Only the first and last read response carry an AETH. */
#define READ_RESP_FIRST	(RESP | DATA | RXE_FIRST_MASK | RXE_AETH_MASK)
#define READ_RESP_MIDDLE (RESP | DATA | RXE_MIDDLE_MASK)
#define READ_RESP_LAST	(RESP | DATA | RXE_LAST_MASK | RXE_AETH_MASK)
#define READ_RESP_ONLY	(READ_RESP_FIRST | READ_RESP_LAST)
#define ACK		(RESP | RXE_ONLY_MASK | RXE_AETH_MASK)
#define ATOMIC_ACK	(ACK | RXE_ATMACK_MASK)

/* What each service adds to an operation. */
#define ACKED_IF_REQ(m)	(((m) & RXE_REQ_MASK) ? RXE_ACKED_MASK : 0u)
#define RC(m)		((m) | ACKED_IF_REQ(m))
#define UC(m)		(m)
#define RD(m)		((m) | ACKED_IF_REQ(m) | RXE_RDETH_MASK |	\
			 (((m) & RXE_REQ_MASK) ? RXE_DETH_MASK : 0u))
#define UD(m)		((m) | RXE_DETH_MASK)

#define OP(svc, op, m) \
	[RXE_OPCODE_##svc##_##op] = ENTRY(#svc "_" #op, svc(m))

const struct rxe_opcode_info rxe_opcodes[RXE_NUM_OPCODES] = {
	OP(RC, SEND_FIRST,		SEND_FIRST),
	OP(RC, SEND_MIDDLE,		SEND_MIDDLE),
	OP(RC, SEND_LAST,		SEND_LAST),
	OP(RC, SEND_LAST_IMM,		SEND_LAST | RXE_IMMDT_MASK),
	OP(RC, SEND_ONLY,		SEND_ONLY),
	OP(RC, SEND_ONLY_IMM,		SEND_ONLY | RXE_IMMDT_MASK),
	OP(RC, WRITE_FIRST,		WRITE_FIRST),
	OP(RC, WRITE_MIDDLE,		WRITE_MIDDLE),
	OP(RC, WRITE_LAST,		WRITE_LAST),
	OP(RC, WRITE_LAST_IMM,		WRITE_LAST | WITH_IMM),
	OP(RC, WRITE_ONLY,		WRITE_ONLY),
	OP(RC, WRITE_ONLY_IMM,		WRITE_ONLY | WITH_IMM),
	OP(RC, READ_REQUEST,		READ_REQUEST),
	OP(RC, READ_RESPONSE_FIRST,	READ_RESP_FIRST),
	OP(RC, READ_RESPONSE_MIDDLE,	READ_RESP_MIDDLE),
	OP(RC, READ_RESPONSE_LAST,	READ_RESP_LAST),
	OP(RC, READ_RESPONSE_ONLY,	READ_RESP_ONLY),
	OP(RC, ACKNOWLEDGE,		ACK),
	OP(RC, ATOMIC_ACKNOWLEDGE,	ATOMIC_ACK),
	OP(RC, COMPARE_SWAP,		ATOMIC_REQUEST),
	OP(RC, FETCH_ADD,		ATOMIC_REQUEST),
	OP(RC, SEND_LAST_INV,		SEND_LAST | RXE_IETH_MASK),
	OP(RC, SEND_ONLY_INV,		SEND_ONLY | RXE_IETH_MASK),
	OP(RC, FLUSH,			FLUSH),
	OP(RC, ATOMIC_WRITE,		ATOMIC_WRITE),

	OP(UC, SEND_FIRST,		SEND_FIRST),
	OP(UC, SEND_MIDDLE,		SEND_MIDDLE),
	OP(UC, SEND_LAST,		SEND_LAST),
	OP(UC, SEND_LAST_IMM,		SEND_LAST | RXE_IMMDT_MASK),
	OP(UC, SEND_ONLY,		SEND_ONLY),
	OP(UC, SEND_ONLY_IMM,		SEND_ONLY | RXE_IMMDT_MASK),
	OP(UC, WRITE_FIRST,		WRITE_FIRST),
	OP(UC, WRITE_MIDDLE,		WRITE_MIDDLE),
	OP(UC, WRITE_LAST,		WRITE_LAST),
	OP(UC, WRITE_LAST_IMM,		WRITE_LAST | WITH_IMM),
	OP(UC, WRITE_ONLY,		WRITE_ONLY),
	OP(UC, WRITE_ONLY_IMM,		WRITE_ONLY | WITH_IMM),

	OP(RD, SEND_FIRST,		SEND_FIRST),
	OP(RD, SEND_MIDDLE,		SEND_MIDDLE),
	OP(RD, SEND_LAST,		SEND_LAST),
	OP(RD, SEND_LAST_IMM,		SEND_LAST | RXE_IMMDT_MASK),
	OP(RD, SEND_ONLY,		SEND_ONLY),
	OP(RD, SEND_ONLY_IMM,		SEND_ONLY | RXE_IMMDT_MASK),
	OP(RD, WRITE_FIRST,		WRITE_FIRST),
	OP(RD, WRITE_MIDDLE,		WRITE_MIDDLE),
	OP(RD, WRITE_LAST,		WRITE_LAST),
	OP(RD, WRITE_LAST_IMM,		WRITE_LAST | WITH_IMM),
	OP(RD, WRITE_ONLY,		WRITE_ONLY),
	OP(RD, WRITE_ONLY_IMM,		WRITE_ONLY | WITH_IMM),
	OP(RD, READ_REQUEST,		READ_REQUEST),
	OP(RD, READ_RESPONSE_FIRST,	READ_RESP_FIRST),
	OP(RD, READ_RESPONSE_MIDDLE,	READ_RESP_MIDDLE),
	OP(RD, READ_RESPONSE_LAST,	READ_RESP_LAST),
	OP(RD, READ_RESPONSE_ONLY,	READ_RESP_ONLY),
	OP(RD, ACKNOWLEDGE,		ACK),
	OP(RD, ATOMIC_ACKNOWLEDGE,	ATOMIC_ACK),
	OP(RD, COMPARE_SWAP,		ATOMIC_REQUEST),
	OP(RD, FETCH_ADD,		ATOMIC_REQUEST),

	OP(UD, SEND_ONLY,		SEND_ONLY),
	OP(UD, SEND_ONLY_IMM,		SEND_ONLY | RXE_IMMDT_MASK),
};

bool rxe_opcode_legal(u8 opcode, u8 transport)
{
	if (!rxe_opcode_known(opcode))
		return false;
	if (transport == RXE_TRANSPORT_RD)
		return false;
	return rxe_opcode_transport(opcode) == transport;
}

bool rxe_opcode_may_follow(u8 prev, u8 opcode)
{
	u32 pmask = rxe_opcode_mask(prev);
	u32 mask = rxe_opcode_mask(opcode);
	u32 kind = RXE_SEND_MASK | RXE_WRITE_MASK;

	if (!(mask & RXE_REQ_MASK))
		return false;

	/* Outside a message: anything that starts one. */
	if (prev == RXE_OPCODE_NONE ||
	    !(pmask & RXE_REQ_MASK) || (pmask & RXE_LAST_MASK))
		return (mask & RXE_FIRST_MASK) &&
		       (prev == RXE_OPCODE_NONE ||
			rxe_opcode_transport(prev) ==
			rxe_opcode_transport(opcode));

	/* Inside a send or a write: its next packet, of the same kind. */
	return rxe_opcode_transport(prev) == rxe_opcode_transport(opcode) &&
	       (mask & kind) == (pmask & kind) &&
	       (mask & (RXE_MIDDLE_MASK | RXE_LAST_MASK)) &&
	       !(mask & RXE_FIRST_MASK);
}
