// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The BTH opcode table (sw_rxe/rxe_opcode.c) against IBTA 9.2 and 9.3. */
#include "unit.h"
#include "../../sw_rxe/rxe_opcode.c"

static const unsigned int hdr_bytes[RXE_NUM_HDR_TYPES] = {
	[RXE_BTH] = RXE_BTH_BYTES,
	[RXE_RDETH] = RXE_RDETH_BYTES,
	[RXE_DETH] = RXE_DETH_BYTES,
	[RXE_FETH] = RXE_FETH_BYTES,
	[RXE_RETH] = RXE_RETH_BYTES,
	[RXE_ATMETH] = RXE_ATMETH_BYTES,
	[RXE_AETH] = RXE_AETH_BYTES,
	[RXE_ATMACK] = RXE_ATMACK_BYTES,
	[RXE_IMMDT] = RXE_IMMDT_BYTES,
	[RXE_IETH] = RXE_IETH_BYTES,
	[RXE_PAYLOAD] = 0,
};

static int popcount(u32 x)
{
	return __builtin_popcount(x);
}

/* Header lengths and offsets straight from the packet layouts of IBTA 9.2. */
TEST(opcode_header_layouts)
{
	CHECK_EQ(rxe_opcode_hdr_len(RXE_OPCODE_RC_SEND_FIRST), 12);
	CHECK_EQ(rxe_opcode_hdr_len(RXE_OPCODE_RC_SEND_MIDDLE), 12);
	CHECK_EQ(rxe_opcode_hdr_len(RXE_OPCODE_RC_SEND_LAST_IMM), 16);
	CHECK_EQ(rxe_opcode_hdr_offset(RXE_OPCODE_RC_SEND_LAST_IMM, RXE_IMMDT), 12);
	CHECK_EQ(rxe_opcode_hdr_len(RXE_OPCODE_RC_SEND_ONLY_INV), 16);
	CHECK_EQ(rxe_opcode_hdr_offset(RXE_OPCODE_RC_SEND_ONLY_INV, RXE_IETH), 12);
	CHECK_EQ(rxe_opcode_hdr_len(RXE_OPCODE_RC_WRITE_FIRST), 28);
	CHECK_EQ(rxe_opcode_hdr_offset(RXE_OPCODE_RC_WRITE_FIRST, RXE_RETH), 12);
	CHECK_EQ(rxe_opcode_hdr_len(RXE_OPCODE_RC_WRITE_MIDDLE), 12);
	CHECK_EQ(rxe_opcode_hdr_len(RXE_OPCODE_RC_WRITE_LAST_IMM), 16);
	CHECK_EQ(rxe_opcode_hdr_len(RXE_OPCODE_RC_WRITE_ONLY_IMM), 32);
	CHECK_EQ(rxe_opcode_hdr_offset(RXE_OPCODE_RC_WRITE_ONLY_IMM, RXE_RETH), 12);
	CHECK_EQ(rxe_opcode_hdr_offset(RXE_OPCODE_RC_WRITE_ONLY_IMM, RXE_IMMDT), 28);
	CHECK_EQ(rxe_opcode_hdr_offset(RXE_OPCODE_RC_WRITE_ONLY_IMM, RXE_PAYLOAD), 32);
	CHECK_EQ(rxe_opcode_hdr_len(RXE_OPCODE_RC_READ_REQUEST), 28);
	CHECK_EQ(rxe_opcode_hdr_len(RXE_OPCODE_RC_READ_RESPONSE_FIRST), 16);
	CHECK_EQ(rxe_opcode_hdr_offset(RXE_OPCODE_RC_READ_RESPONSE_FIRST, RXE_AETH), 12);
	CHECK_EQ(rxe_opcode_hdr_len(RXE_OPCODE_RC_READ_RESPONSE_MIDDLE), 12);
	CHECK_EQ(rxe_opcode_hdr_offset(RXE_OPCODE_RC_READ_RESPONSE_MIDDLE, RXE_AETH), -1);
	CHECK_EQ(rxe_opcode_hdr_len(RXE_OPCODE_RC_READ_RESPONSE_LAST), 16);
	CHECK_EQ(rxe_opcode_hdr_len(RXE_OPCODE_RC_READ_RESPONSE_ONLY), 16);
	CHECK_EQ(rxe_opcode_hdr_len(RXE_OPCODE_RC_ACKNOWLEDGE), 16);
	CHECK_EQ(rxe_opcode_hdr_len(RXE_OPCODE_RC_ATOMIC_ACKNOWLEDGE), 24);
	CHECK_EQ(rxe_opcode_hdr_offset(RXE_OPCODE_RC_ATOMIC_ACKNOWLEDGE, RXE_AETH), 12);
	CHECK_EQ(rxe_opcode_hdr_offset(RXE_OPCODE_RC_ATOMIC_ACKNOWLEDGE, RXE_ATMACK), 16);
	CHECK_EQ(rxe_opcode_hdr_len(RXE_OPCODE_RC_COMPARE_SWAP), 40);
	CHECK_EQ(rxe_opcode_hdr_len(RXE_OPCODE_RC_FETCH_ADD), 40);
	CHECK_EQ(rxe_opcode_hdr_offset(RXE_OPCODE_RC_FETCH_ADD, RXE_ATMETH), 12);
	/* ATOMIC WRITE: BTH + RETH, then its 8 bytes; RC only, acked */
	CHECK_EQ(rxe_opcode_hdr_len(RXE_OPCODE_RC_ATOMIC_WRITE), 28);
	CHECK(rxe_opcode_mask(RXE_OPCODE_RC_ATOMIC_WRITE) & RXE_ATOMIC_WRITE_MASK);
	CHECK(rxe_opcode_mask(RXE_OPCODE_RC_ATOMIC_WRITE) & RXE_ACKED_MASK);
	CHECK(rxe_opcode_legal(RXE_OPCODE_RC_ATOMIC_WRITE, RXE_TRANSPORT_RC));
	CHECK(!rxe_opcode_legal(RXE_OPCODE_RC_ATOMIC_WRITE | RXE_TRANSPORT_UC,
				RXE_TRANSPORT_UC));
	/* FLUSH (IBTA 1.5, 0x1c): BTH + FETH + RETH, no data; RC only */
	CHECK_EQ(RXE_OPCODE_RC_FLUSH, 0x1c);
	CHECK_EQ(rxe_opcode_hdr_len(RXE_OPCODE_RC_FLUSH), 32);
	CHECK_EQ(rxe_opcode_hdr_offset(RXE_OPCODE_RC_FLUSH, RXE_FETH), 12);
	CHECK_EQ(rxe_opcode_hdr_offset(RXE_OPCODE_RC_FLUSH, RXE_RETH), 16);
	CHECK_EQ(rxe_opcode_hdr_offset(RXE_OPCODE_RC_FLUSH, RXE_PAYLOAD), 32);
	CHECK_EQ(rxe_opcode_mask(RXE_OPCODE_RC_FLUSH),
		 RXE_BTH_MASK | RXE_FETH_MASK | RXE_RETH_MASK | RXE_REQ_MASK |
		 RXE_FLUSH_MASK | RXE_ONLY_MASK | RXE_ACKED_MASK);
	CHECK(!(rxe_opcode_mask(RXE_OPCODE_RC_FLUSH) & RXE_PAYLOAD_MASK));
	CHECK(!(rxe_opcode_mask(RXE_OPCODE_RC_FLUSH) &
		(RXE_READ_OR_WRITE_MASK | RXE_ATOMIC_MASK | RXE_SEND_MASK)));
	CHECK(rxe_opcode_legal(RXE_OPCODE_RC_FLUSH, RXE_TRANSPORT_RC));
	CHECK(!rxe_opcode_legal(RXE_OPCODE_RC_FLUSH | RXE_TRANSPORT_UC,
				RXE_TRANSPORT_UC));
	CHECK(rxe_opcode_may_follow(RXE_OPCODE_RC_SEND_LAST,
				    RXE_OPCODE_RC_FLUSH));
	CHECK(!rxe_opcode_may_follow(RXE_OPCODE_RC_WRITE_FIRST,
				     RXE_OPCODE_RC_FLUSH));

	CHECK_EQ(rxe_opcode_hdr_len(RXE_OPCODE_UC_WRITE_ONLY_IMM), 32);
	CHECK_EQ(rxe_opcode_hdr_len(RXE_OPCODE_UC_SEND_ONLY), 12);

	CHECK_EQ(rxe_opcode_hdr_len(RXE_OPCODE_UD_SEND_ONLY), 20);
	CHECK_EQ(rxe_opcode_hdr_offset(RXE_OPCODE_UD_SEND_ONLY, RXE_DETH), 12);
	CHECK_EQ(rxe_opcode_hdr_len(RXE_OPCODE_UD_SEND_ONLY_IMM), 24);
	CHECK_EQ(rxe_opcode_hdr_offset(RXE_OPCODE_UD_SEND_ONLY_IMM, RXE_IMMDT), 20);

	/* RD: RDETH first, then DETH on requests only. */
	CHECK_EQ(rxe_opcode_hdr_len(RXE_OPCODE_RD_WRITE_ONLY_IMM), 44);
	CHECK_EQ(rxe_opcode_hdr_offset(RXE_OPCODE_RD_WRITE_ONLY_IMM, RXE_RDETH), 12);
	CHECK_EQ(rxe_opcode_hdr_offset(RXE_OPCODE_RD_WRITE_ONLY_IMM, RXE_DETH), 16);
	CHECK_EQ(rxe_opcode_hdr_offset(RXE_OPCODE_RD_WRITE_ONLY_IMM, RXE_RETH), 24);
	CHECK_EQ(rxe_opcode_hdr_offset(RXE_OPCODE_RD_WRITE_ONLY_IMM, RXE_IMMDT), 40);
	CHECK_EQ(rxe_opcode_hdr_len(RXE_OPCODE_RD_COMPARE_SWAP), 52);
	CHECK_EQ(rxe_opcode_hdr_len(RXE_OPCODE_RD_ACKNOWLEDGE), 20);
	CHECK_EQ(rxe_opcode_hdr_offset(RXE_OPCODE_RD_ACKNOWLEDGE, RXE_DETH), -1);
	CHECK_EQ(rxe_opcode_hdr_len(RXE_OPCODE_RD_ATOMIC_ACKNOWLEDGE), 28);
	CHECK_EQ(rxe_opcode_hdr_offset(RXE_OPCODE_RD_ATOMIC_ACKNOWLEDGE, RXE_ATMACK), 20);
	CHECK_EQ(rxe_opcode_hdr_len(RXE_OPCODE_RD_READ_RESPONSE_MIDDLE), 16);
}

TEST(opcode_masks_of_a_sample)
{
	CHECK_EQ(rxe_opcode_mask(RXE_OPCODE_RC_SEND_FIRST),
		 RXE_BTH_MASK | RXE_PAYLOAD_MASK | RXE_REQ_MASK | RXE_SEND_MASK |
		 RXE_FIRST_MASK | RXE_RWR_MASK | RXE_ACKED_MASK);
	CHECK_EQ(rxe_opcode_mask(RXE_OPCODE_UC_SEND_LAST_IMM),
		 RXE_BTH_MASK | RXE_IMMDT_MASK | RXE_PAYLOAD_MASK |
		 RXE_REQ_MASK | RXE_SEND_MASK | RXE_LAST_MASK | RXE_COMP_MASK);
	CHECK_EQ(rxe_opcode_mask(RXE_OPCODE_RC_WRITE_MIDDLE),
		 RXE_BTH_MASK | RXE_PAYLOAD_MASK | RXE_REQ_MASK |
		 RXE_WRITE_MASK | RXE_MIDDLE_MASK | RXE_ACKED_MASK);
	CHECK_EQ(rxe_opcode_mask(RXE_OPCODE_RC_WRITE_ONLY_IMM),
		 RXE_BTH_MASK | RXE_RETH_MASK | RXE_IMMDT_MASK |
		 RXE_PAYLOAD_MASK | RXE_REQ_MASK | RXE_WRITE_MASK |
		 RXE_ONLY_MASK | RXE_RWR_MASK | RXE_COMP_MASK | RXE_ACKED_MASK);
	CHECK_EQ(rxe_opcode_mask(RXE_OPCODE_RC_READ_REQUEST),
		 RXE_BTH_MASK | RXE_RETH_MASK | RXE_REQ_MASK | RXE_READ_MASK |
		 RXE_ONLY_MASK | RXE_ACKED_MASK);
	CHECK_EQ(rxe_opcode_mask(RXE_OPCODE_RC_READ_RESPONSE_MIDDLE),
		 RXE_BTH_MASK | RXE_PAYLOAD_MASK | RXE_RESP_MASK |
		 RXE_MIDDLE_MASK);
	CHECK_EQ(rxe_opcode_mask(RXE_OPCODE_RC_ATOMIC_ACKNOWLEDGE),
		 RXE_BTH_MASK | RXE_AETH_MASK | RXE_ATMACK_MASK |
		 RXE_RESP_MASK | RXE_ONLY_MASK);
	CHECK_EQ(rxe_opcode_mask(RXE_OPCODE_RC_SEND_LAST_INV),
		 RXE_BTH_MASK | RXE_IETH_MASK | RXE_PAYLOAD_MASK |
		 RXE_REQ_MASK | RXE_SEND_MASK | RXE_LAST_MASK |
		 RXE_COMP_MASK | RXE_ACKED_MASK);
	CHECK_EQ(rxe_opcode_mask(RXE_OPCODE_UD_SEND_ONLY_IMM),
		 RXE_BTH_MASK | RXE_DETH_MASK | RXE_IMMDT_MASK |
		 RXE_PAYLOAD_MASK | RXE_REQ_MASK | RXE_SEND_MASK |
		 RXE_ONLY_MASK | RXE_RWR_MASK | RXE_COMP_MASK);
	CHECK_EQ(rxe_opcode_mask(RXE_OPCODE_RD_FETCH_ADD),
		 RXE_BTH_MASK | RXE_RDETH_MASK | RXE_DETH_MASK |
		 RXE_ATMETH_MASK | RXE_REQ_MASK | RXE_ATOMIC_MASK |
		 RXE_ONLY_MASK | RXE_ACKED_MASK);

	CHECK(!strcmp(rxe_opcode_name(RXE_OPCODE_RC_WRITE_ONLY), "RC_WRITE_ONLY"));
	CHECK(!strcmp(rxe_opcode_name(RXE_OPCODE_UD_SEND_ONLY_IMM), "UD_SEND_ONLY_IMM"));
	CHECK(!strcmp(rxe_opcode_name(RXE_OPCODE_CNP), "UNKNOWN"));
}

TEST(opcode_table_invariants)
{
	int known = 0, per_svc[8] = { 0 };

	for (unsigned int op = 0; op < RXE_NUM_OPCODES; op++) {
		const struct rxe_opcode_info *info = rxe_opcode_info(op);
		u32 m = info->mask;
		u32 svc = op & RXE_TRANSPORT_MASK;
		u32 kind = m & (RXE_SEND_MASK | RXE_WRITE_MASK | RXE_FLUSH_MASK |
				RXE_READ_MASK | RXE_ATOMIC_MASK);
		u32 place = m & (RXE_FIRST_MASK | RXE_MIDDLE_MASK | RXE_LAST_MASK);
		unsigned int end = 0;
		static const char *const prefix[] = { "RC_", "UC_", "RD_", "UD_" };

		if (!info->name) {
			CHECK_EQ(m, 0);
			CHECK_EQ(info->length, 0);
			CHECK_EQ(rxe_opcode_hdr_offset(op, RXE_BTH), -1);
			CHECK(!rxe_opcode_known(op));
			continue;
		}
		known++;
		per_svc[svc >> 5]++;
		CHECK(svc <= RXE_TRANSPORT_UD);
		if (svc <= RXE_TRANSPORT_UD)
			CHECK(!strncmp(info->name, prefix[svc >> 5], 3));

		/* Headers follow each other in wire order, with no gaps. */
		CHECK(m & RXE_BTH_MASK);
		for (int t = 0; t < RXE_PAYLOAD; t++) {
			if (!(m & (1u << t))) {
				CHECK_EQ(info->offset[t], 0);
				CHECK_EQ(rxe_opcode_hdr_offset(op, t), -1);
				continue;
			}
			CHECK_EQ(info->offset[t], end);
			CHECK_EQ(rxe_opcode_hdr_offset(op, t), end);
			end += hdr_bytes[t];
		}
		CHECK_EQ(info->length, end);
		CHECK_EQ(info->offset[RXE_PAYLOAD], end);
		CHECK_EQ(rxe_opcode_hdr_offset(op, RXE_PAYLOAD), end);
		CHECK(end <= 52);

		/* One direction; requests have one kind, responses none. */
		CHECK_EQ(popcount(m & (RXE_REQ_MASK | RXE_RESP_MASK)), 1);
		if (m & RXE_REQ_MASK)
			CHECK_EQ(popcount(kind), 1);
		else
			CHECK_EQ(kind, 0);

		/* A middle packet is neither first nor last. */
		CHECK(place);
		if (place & RXE_MIDDLE_MASK)
			CHECK_EQ(place, RXE_MIDDLE_MASK);

		/* Only the reliable services' requests are answered. */
		CHECK_EQ(!!(m & RXE_ACKED_MASK),
			 (m & RXE_REQ_MASK) &&
			 (svc == RXE_TRANSPORT_RC || svc == RXE_TRANSPORT_RD));

		/* Extension headers each service carries. */
		CHECK_EQ(!!(m & RXE_RDETH_MASK), svc == RXE_TRANSPORT_RD);
		CHECK_EQ(!!(m & RXE_DETH_MASK),
			 svc == RXE_TRANSPORT_UD ||
			 (svc == RXE_TRANSPORT_RD && (m & RXE_REQ_MASK)));
		CHECK_EQ(!!(m & RXE_RETH_MASK),
			 (m & (RXE_READ_MASK | RXE_FLUSH_MASK)) ||
			 ((m & RXE_WRITE_MASK) && (m & RXE_FIRST_MASK)));
		CHECK_EQ(!!(m & RXE_FETH_MASK), !!(m & RXE_FLUSH_MASK));
		CHECK_EQ(!!(m & RXE_ATMETH_MASK), !!(m & RXE_ATOMIC_MASK));
		if (m & RXE_RESP_MASK)
			CHECK_EQ(!!(m & RXE_AETH_MASK),
				 !(place & RXE_MIDDLE_MASK));
		else
			CHECK(!(m & (RXE_AETH_MASK | RXE_ATMACK_MASK)));
		CHECK(!((m & RXE_IMMDT_MASK) && (m & RXE_IETH_MASK)));
		if (m & (RXE_IMMDT_MASK | RXE_IETH_MASK))
			CHECK(m & RXE_LAST_MASK);

		/* Receive WQEs: taken by a send's first packet or a write
		 * with immediate's last, completed by the last.
		 */
		CHECK_EQ(!!(m & RXE_RWR_MASK),
			 ((m & RXE_SEND_MASK) && (m & RXE_FIRST_MASK)) ||
			 ((m & RXE_WRITE_MASK) && (m & RXE_IMMDT_MASK)));
		CHECK_EQ(!!(m & RXE_COMP_MASK),
			 (m & RXE_LAST_MASK) &&
			 ((m & RXE_SEND_MASK) || (m & RXE_IMMDT_MASK)));
		/* Data rides on sends, writes and read responses. */
		CHECK_EQ(!!(m & RXE_PAYLOAD_MASK),
			 (m & (RXE_SEND_MASK | RXE_WRITE_MASK)) ||
			 ((m & RXE_RESP_MASK) &&
			  (op & RXE_OPERATION_MASK) >= RXE_OP_READ_RESPONSE_FIRST &&
			  (op & RXE_OPERATION_MASK) <= RXE_OP_READ_RESPONSE_ONLY));
	}
	CHECK_EQ(known, 60);
	/* with ATOMIC WRITE and FLUSH */
	CHECK_EQ(per_svc[RXE_TRANSPORT_RC >> 5], 25);
	CHECK_EQ(per_svc[RXE_TRANSPORT_UC >> 5], 12);
	CHECK_EQ(per_svc[RXE_TRANSPORT_RD >> 5], 21);
	CHECK_EQ(per_svc[RXE_TRANSPORT_UD >> 5], 2);
}

TEST(opcode_unknown_ones)
{
	static const u8 unknown[] = {
		0x15, 0x18, 0x1f, 0x2c, 0x30, 0x3f, 0x55, 0x5f, 0x60, 0x63,
		0x66, 0x7f, 0x80, 0x81, 0xc0, 0xe0, 0xff,
	};

	for (unsigned int i = 0; i < sizeof(unknown); i++) {
		CHECK(!rxe_opcode_known(unknown[i]));
		CHECK_EQ(rxe_opcode_hdr_len(unknown[i]), 0);
		CHECK_EQ(rxe_opcode_hdr_offset(unknown[i], RXE_PAYLOAD), -1);
		CHECK(!rxe_opcode_legal(unknown[i], RXE_TRANSPORT_RC));
		CHECK(!rxe_opcode_legal(unknown[i], RXE_TRANSPORT_UD));
	}
	CHECK_EQ(rxe_opcode_hdr_offset(RXE_OPCODE_RC_SEND_ONLY, RXE_NUM_HDR_TYPES), -1);
}

TEST(opcode_legal_per_service)
{
	CHECK(rxe_opcode_legal(RXE_OPCODE_RC_SEND_ONLY, RXE_TRANSPORT_RC));
	CHECK(rxe_opcode_legal(RXE_OPCODE_RC_COMPARE_SWAP, RXE_TRANSPORT_RC));
	CHECK(rxe_opcode_legal(RXE_OPCODE_RC_ACKNOWLEDGE, RXE_TRANSPORT_RC));
	CHECK(!rxe_opcode_legal(RXE_OPCODE_RC_SEND_ONLY, RXE_TRANSPORT_UC));
	CHECK(!rxe_opcode_legal(RXE_OPCODE_RC_SEND_ONLY, RXE_TRANSPORT_UD));
	CHECK(rxe_opcode_legal(RXE_OPCODE_UC_WRITE_FIRST, RXE_TRANSPORT_UC));
	CHECK(!rxe_opcode_legal(RXE_OPCODE_UC_WRITE_FIRST, RXE_TRANSPORT_RC));
	/* UC has no reads, atomics or ACKs: those opcodes do not exist. */
	CHECK(!rxe_opcode_legal(RXE_TRANSPORT_UC | RXE_OP_READ_REQUEST,
				RXE_TRANSPORT_UC));
	CHECK(!rxe_opcode_legal(RXE_TRANSPORT_UC | RXE_OP_ACKNOWLEDGE,
				RXE_TRANSPORT_UC));
	CHECK(!rxe_opcode_legal(RXE_TRANSPORT_UC | RXE_OP_SEND_ONLY_INV,
				RXE_TRANSPORT_UC));
	CHECK(rxe_opcode_legal(RXE_OPCODE_UD_SEND_ONLY, RXE_TRANSPORT_UD));
	CHECK(rxe_opcode_legal(RXE_OPCODE_UD_SEND_ONLY_IMM, RXE_TRANSPORT_UD));
	CHECK(!rxe_opcode_legal(RXE_TRANSPORT_UD | RXE_OP_SEND_FIRST,
				RXE_TRANSPORT_UD));
	CHECK(!rxe_opcode_legal(RXE_OPCODE_UD_SEND_ONLY, RXE_TRANSPORT_RC));
	/* RD is described but not supported. */
	CHECK(rxe_opcode_known(RXE_OPCODE_RD_SEND_ONLY));
	CHECK(!rxe_opcode_legal(RXE_OPCODE_RD_SEND_ONLY, RXE_TRANSPORT_RD));
	CHECK(!rxe_opcode_legal(RXE_OPCODE_CNP, RXE_TRANSPORT_CNP));
}

TEST(opcode_request_sequencing)
{
	/* Nothing in progress: any start of a message. */
	CHECK(rxe_opcode_may_follow(RXE_OPCODE_NONE, RXE_OPCODE_RC_SEND_FIRST));
	CHECK(rxe_opcode_may_follow(RXE_OPCODE_NONE, RXE_OPCODE_RC_READ_REQUEST));
	CHECK(!rxe_opcode_may_follow(RXE_OPCODE_NONE, RXE_OPCODE_RC_SEND_MIDDLE));
	CHECK(!rxe_opcode_may_follow(RXE_OPCODE_NONE, RXE_OPCODE_RC_WRITE_LAST));
	CHECK(!rxe_opcode_may_follow(RXE_OPCODE_NONE, RXE_OPCODE_RC_ACKNOWLEDGE));

	/* Inside a send. */
	CHECK(rxe_opcode_may_follow(RXE_OPCODE_RC_SEND_FIRST, RXE_OPCODE_RC_SEND_MIDDLE));
	CHECK(rxe_opcode_may_follow(RXE_OPCODE_RC_SEND_FIRST, RXE_OPCODE_RC_SEND_LAST));
	CHECK(rxe_opcode_may_follow(RXE_OPCODE_RC_SEND_MIDDLE, RXE_OPCODE_RC_SEND_LAST_IMM));
	CHECK(rxe_opcode_may_follow(RXE_OPCODE_RC_SEND_MIDDLE, RXE_OPCODE_RC_SEND_LAST_INV));
	CHECK(!rxe_opcode_may_follow(RXE_OPCODE_RC_SEND_FIRST, RXE_OPCODE_RC_SEND_ONLY));
	CHECK(!rxe_opcode_may_follow(RXE_OPCODE_RC_SEND_FIRST, RXE_OPCODE_RC_SEND_FIRST));
	CHECK(!rxe_opcode_may_follow(RXE_OPCODE_RC_SEND_MIDDLE, RXE_OPCODE_RC_WRITE_LAST));
	CHECK(!rxe_opcode_may_follow(RXE_OPCODE_RC_SEND_MIDDLE, RXE_OPCODE_RC_READ_REQUEST));

	/* Inside a write. */
	CHECK(rxe_opcode_may_follow(RXE_OPCODE_UC_WRITE_FIRST, RXE_OPCODE_UC_WRITE_MIDDLE));
	CHECK(rxe_opcode_may_follow(RXE_OPCODE_UC_WRITE_MIDDLE, RXE_OPCODE_UC_WRITE_LAST_IMM));
	CHECK(!rxe_opcode_may_follow(RXE_OPCODE_UC_WRITE_MIDDLE, RXE_OPCODE_UC_SEND_LAST));
	CHECK(!rxe_opcode_may_follow(RXE_OPCODE_UC_WRITE_FIRST, RXE_OPCODE_RC_WRITE_MIDDLE));

	/* After a message: a new one, of the same service. */
	CHECK(rxe_opcode_may_follow(RXE_OPCODE_RC_SEND_LAST, RXE_OPCODE_RC_WRITE_ONLY));
	CHECK(rxe_opcode_may_follow(RXE_OPCODE_RC_READ_REQUEST, RXE_OPCODE_RC_FETCH_ADD));
	CHECK(rxe_opcode_may_follow(RXE_OPCODE_RC_SEND_ONLY, RXE_OPCODE_RC_SEND_FIRST));
	CHECK(!rxe_opcode_may_follow(RXE_OPCODE_RC_SEND_LAST, RXE_OPCODE_RC_SEND_MIDDLE));
	CHECK(!rxe_opcode_may_follow(RXE_OPCODE_RC_SEND_ONLY, RXE_OPCODE_UC_SEND_ONLY));
}
