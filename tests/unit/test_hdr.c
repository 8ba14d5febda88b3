// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Byte-exact encodings of the RoCEv2 transport headers (sw_rxe/rxe_hdr.h). */
#include "unit.h"
#include "../../sw_rxe/rxe_hdr.h"

TEST(hdr_sizes_match_the_spec)
{
	CHECK_EQ(RXE_BTH_BYTES, 12);
	CHECK_EQ(RXE_RDETH_BYTES, 4);
	CHECK_EQ(RXE_DETH_BYTES, 8);
	CHECK_EQ(RXE_FETH_BYTES, 4);
	CHECK_EQ(RXE_RETH_BYTES, 16);
	CHECK_EQ(RXE_ATMETH_BYTES, 28);
	CHECK_EQ(RXE_AETH_BYTES, 4);
	CHECK_EQ(RXE_ATMACK_BYTES, 8);
	CHECK_EQ(RXE_IMMDT_BYTES, 4);
	CHECK_EQ(RXE_IETH_BYTES, 4);
	CHECK_EQ(RXE_ICRC_BYTES, 4);
	CHECK_EQ(RXE_ROCEV2_UDP_PORT, 4791);
}

TEST(hdr_bth_encode_is_byte_exact)
{
	static const u8 want[RXE_BTH_BYTES] = {
		0x0a,			/* RC RDMA WRITE Only */
		0xf0,			/* SE, MigReq, PadCnt 3, TVer 0 */
		0xff, 0xff,		/* P_Key */
		0x80,			/* FECN */
		0x12, 0x34, 0x56,	/* DestQP */
		0x80,			/* AckReq */
		0xab, 0xcd, 0xef,	/* PSN */
	};
	const struct rxe_bth_fields f = {
		.opcode = 0x0a, .se = true, .migreq = true, .pad = 3,
		.tver = 0, .pkey = 0xffff, .fecn = true, .becn = false,
		.qpn = 0x123456, .ackreq = true, .psn = 0xabcdef,
	};
	struct rxe_bth_fields g;
	u8 buf[RXE_BTH_BYTES + 1];

	/* Odd address: the accessors must not assume alignment. */
	memset(buf, 0x5a, sizeof(buf));
	rxe_bth_encode(buf + 1, &f);
	CHECK_MEM(buf + 1, want, sizeof(want));
	CHECK_EQ(buf[0], 0x5a);

	rxe_bth_decode(buf + 1, &g);
	CHECK_EQ(g.opcode, 0x0a);
	CHECK(g.se && g.migreq && g.fecn && !g.becn && g.ackreq);
	CHECK_EQ(g.pad, 3);
	CHECK_EQ(g.tver, 0);
	CHECK_EQ(g.pkey, 0xffff);
	CHECK_EQ(g.qpn, 0x123456);
	CHECK_EQ(g.psn, 0xabcdef);
}

TEST(hdr_bth_second_encoding)
{
	static const u8 want[RXE_BTH_BYTES] = {
		0x64, 0x01, 0x80, 0x01, 0x40, 0x00, 0x00, 0x01,
		0x00, 0xff, 0xff, 0xff,
	};
	const struct rxe_bth_fields f = {
		.opcode = 0x64, .tver = 1, .pkey = 0x8001, .becn = true,
		.qpn = 1, .psn = 0xffffff,
	};
	u8 buf[RXE_BTH_BYTES];

	rxe_bth_encode(buf, &f);
	CHECK_MEM(buf, want, sizeof(want));
	CHECK(!rxe_bth_se(buf) && !rxe_bth_migreq(buf) && !rxe_bth_fecn(buf));
	CHECK(rxe_bth_becn(buf) && !rxe_bth_ackreq(buf));
	CHECK_EQ(rxe_bth_pad(buf), 0);
	CHECK_EQ(rxe_bth_tver(buf), 1);
	CHECK_EQ(rxe_bth_pkey(buf), 0x8001);
	CHECK_EQ(rxe_bth_qpn(buf), 1);
	CHECK_EQ(rxe_bth_psn(buf), 0xffffff);
}

TEST(hdr_bth_setters_touch_only_their_field)
{
	u8 b[RXE_BTH_BYTES];
	u8 want[RXE_BTH_BYTES];

	memset(b, 0xff, sizeof(b));
	memset(want, 0xff, sizeof(want));

	rxe_bth_set_pad(b, 1);
	want[1] = 0xdf;
	CHECK_MEM(b, want, sizeof(want));
	rxe_bth_set_tver(b, 0);
	want[1] = 0xd0;
	CHECK_MEM(b, want, sizeof(want));
	rxe_bth_set_se(b, false);
	want[1] = 0x50;
	CHECK_MEM(b, want, sizeof(want));
	rxe_bth_set_migreq(b, false);
	want[1] = 0x10;
	CHECK_MEM(b, want, sizeof(want));
	rxe_bth_set_se(b, true);
	want[1] = 0x90;
	CHECK_MEM(b, want, sizeof(want));

	rxe_bth_set_qpn(b, 0x000102);
	want[5] = 0x00; want[6] = 0x01; want[7] = 0x02;
	CHECK_MEM(b, want, sizeof(want));	/* FECN/BECN byte kept */
	rxe_bth_set_fecn(b, false);
	want[4] = 0x7f;
	CHECK_MEM(b, want, sizeof(want));
	rxe_bth_set_becn(b, false);
	want[4] = 0x3f;
	CHECK_MEM(b, want, sizeof(want));
	CHECK_EQ(rxe_bth_qpn(b), 0x000102);

	rxe_bth_set_psn(b, 0x345678);
	want[9] = 0x34; want[10] = 0x56; want[11] = 0x78;
	CHECK_MEM(b, want, sizeof(want));	/* AckReq byte kept */
	rxe_bth_set_ackreq(b, false);
	want[8] = 0x7f;
	CHECK_MEM(b, want, sizeof(want));
	CHECK_EQ(rxe_bth_psn(b), 0x345678);

	rxe_bth_set_opcode(b, 0x11);
	rxe_bth_set_pkey(b, 0x1234);
	want[0] = 0x11; want[2] = 0x12; want[3] = 0x34;
	CHECK_MEM(b, want, sizeof(want));

	/* Out-of-range values are cut to the field. */
	rxe_bth_set_pad(b, 7);
	CHECK_EQ(rxe_bth_pad(b), 3);
	CHECK_EQ(b[1], 0xb0);
	rxe_bth_set_qpn(b, 0xff000001);
	CHECK_EQ(rxe_bth_qpn(b), 1);
	CHECK_EQ(b[4], 0x3f);
}

TEST(hdr_reth_at_odd_offset)
{
	static const u8 want[RXE_RETH_BYTES] = {
		0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef,	/* VA */
		0xde, 0xad, 0xbe, 0xef,				/* R_Key */
		0x00, 0x01, 0x00, 0x00,				/* DMA length */
	};
	u8 buf[3 + RXE_RETH_BYTES];
	u8 *reth = buf + 3;

	memset(buf, 0, sizeof(buf));
	rxe_reth_set_va(reth, 0x0123456789abcdefull);
	rxe_reth_set_rkey(reth, 0xdeadbeef);
	rxe_reth_set_len(reth, 65536);
	CHECK_MEM(reth, want, sizeof(want));
	CHECK(rxe_reth_va(reth) == 0x0123456789abcdefull);
	CHECK_EQ(rxe_reth_rkey(reth), 0xdeadbeef);
	CHECK_EQ(rxe_reth_len(reth), 65536);
}

/* FETH (IBTA 1.5 A19.3.1): placement type in bits 3-0, selectivity in 5-4. */
TEST(hdr_feth_encode_decode)
{
	static const u8 want_global_range[RXE_FETH_BYTES] = { 0, 0, 0, 0x01 };
	static const u8 want_both_mr[RXE_FETH_BYTES] = { 0, 0, 0, 0x13 };
	static const u8 hostile[RXE_FETH_BYTES] = { 0xff, 0xff, 0xff, 0xfe };
	u8 buf[1 + RXE_FETH_BYTES];
	u8 *feth = buf + 1;

	memset(buf, 0xee, sizeof(buf));
	rxe_feth_set(feth, RXE_FETH_PLT_GLOBAL, RXE_FETH_SEL_RANGE);
	CHECK_MEM(feth, want_global_range, sizeof(want_global_range));
	CHECK_EQ(buf[0], 0xee);
	CHECK_EQ(rxe_feth_placement(feth), RXE_FETH_PLT_GLOBAL);
	CHECK_EQ(rxe_feth_selectivity(feth), RXE_FETH_SEL_RANGE);

	rxe_feth_set(feth, RXE_FETH_PLT_GLOBAL | RXE_FETH_PLT_PERSISTENT,
		     RXE_FETH_SEL_MR);
	CHECK_MEM(feth, want_both_mr, sizeof(want_both_mr));
	CHECK_EQ(rxe_feth_placement(feth), 3);
	CHECK_EQ(rxe_feth_selectivity(feth), RXE_FETH_SEL_MR);

	/* out-of-range arguments stay inside their fields */
	rxe_feth_set(feth, 0xff, 0xff);
	CHECK_EQ(feth[0] | feth[1] | feth[2], 0);
	CHECK_EQ(feth[3], 0x3f);

	/* reserved bits set by a peer do not leak into the fields */
	CHECK_EQ(rxe_feth_placement(hostile), 0x0e);
	CHECK_EQ(rxe_feth_selectivity(hostile), 3);
}

TEST(hdr_atomic_eth_and_ack)
{
	static const u8 want[RXE_ATMETH_BYTES] = {
		0x00, 0x00, 0x7f, 0xff, 0x00, 0x00, 0x10, 0x08,	/* VA */
		0x00, 0x00, 0x12, 0x34,				/* R_Key */
		0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88,	/* swap/add */
		0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff, 0x00,	/* compare */
	};
	static const u8 want_ack[RXE_ATMACK_BYTES] = {
		0xfe, 0xdc, 0xba, 0x98, 0x76, 0x54, 0x32, 0x10,
	};
	u8 buf[1 + RXE_ATMETH_BYTES];
	u8 ack[1 + RXE_ATMACK_BYTES];

	rxe_atmeth_set_va(buf + 1, 0x00007fff00001008ull);
	rxe_atmeth_set_rkey(buf + 1, 0x1234);
	rxe_atmeth_set_swap_add(buf + 1, 0x1122334455667788ull);
	rxe_atmeth_set_comp(buf + 1, 0x99aabbccddeeff00ull);
	CHECK_MEM(buf + 1, want, sizeof(want));
	CHECK(rxe_atmeth_va(buf + 1) == 0x00007fff00001008ull);
	CHECK_EQ(rxe_atmeth_rkey(buf + 1), 0x1234);
	CHECK(rxe_atmeth_swap_add(buf + 1) == 0x1122334455667788ull);
	CHECK(rxe_atmeth_comp(buf + 1) == 0x99aabbccddeeff00ull);

	rxe_atmack_set_orig(ack + 1, 0xfedcba9876543210ull);
	CHECK_MEM(ack + 1, want_ack, sizeof(want_ack));
	CHECK(rxe_atmack_orig(ack + 1) == 0xfedcba9876543210ull);
}

TEST(hdr_deth_rdeth_ieth_immdt)
{
	static const u8 want_deth[RXE_DETH_BYTES] = {
		0x80, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01,
	};
	static const u8 want_rdeth[RXE_RDETH_BYTES] = { 0x00, 0xab, 0xcd, 0xef };
	static const u8 want_ieth[RXE_IETH_BYTES] = { 0x00, 0x12, 0x34, 0x56 };
	static const u8 imm_bytes[RXE_IMMDT_BYTES] = { 0xca, 0xfe, 0xf0, 0x0d };
	u8 b[16];
	__be32 imm;

	memset(b, 0xff, sizeof(b));
	rxe_deth_set_qkey(b, RXE_GSI_QKEY);
	rxe_deth_set_sqp(b, 1);			/* clears the reserved byte */
	CHECK_MEM(b, want_deth, sizeof(want_deth));
	CHECK_EQ(rxe_deth_qkey(b), 0x80010000u);
	CHECK_EQ(rxe_deth_sqp(b), 1);

	memset(b, 0xff, sizeof(b));
	rxe_rdeth_set_eec(b + 1, 0xabcdef);
	CHECK_MEM(b + 1, want_rdeth, sizeof(want_rdeth));
	CHECK_EQ(rxe_rdeth_eec(b + 1), 0xabcdef);

	rxe_ieth_set_rkey(b + 2, 0x123456);
	CHECK_MEM(b + 2, want_ieth, sizeof(want_ieth));
	CHECK_EQ(rxe_ieth_rkey(b + 2), 0x123456);

	/* Immediate data is opaque and keeps its byte order. */
	memcpy(&imm, imm_bytes, sizeof(imm));
	rxe_immdt_set_imm(b + 3, imm);
	CHECK_MEM(b + 3, imm_bytes, sizeof(imm_bytes));
	CHECK(rxe_immdt_imm(b + 3) == imm);
}

TEST(hdr_aeth_syndromes)
{
	u8 aeth[RXE_AETH_BYTES];
	static const u8 want[RXE_AETH_BYTES] = { 0x62, 0x00, 0x10, 0x01 };

	/* ACK: type 00, value = credit code; 31 means no flow control. */
	CHECK_EQ(rxe_aeth_syn_ack(RXE_AETH_CREDITS_UNLIMITED), 0x1f);
	CHECK_EQ(rxe_aeth_syn_ack(0), 0x00);
	CHECK_EQ(rxe_aeth_syn_ack(12), 0x0c);
	/* RNR NAK: type 01, value = timer code. */
	CHECK_EQ(rxe_aeth_syn_rnr_nak(0), 0x20);
	CHECK_EQ(rxe_aeth_syn_rnr_nak(14), 0x2e);
	CHECK_EQ(rxe_aeth_syn_rnr_nak(31), 0x3f);
	/* NAK: type 11, value = NAK code. */
	CHECK_EQ(rxe_aeth_syn_nak(RXE_NAK_PSN_SEQ_ERR), 0x60);
	CHECK_EQ(rxe_aeth_syn_nak(RXE_NAK_INVALID_REQ), 0x61);
	CHECK_EQ(rxe_aeth_syn_nak(RXE_NAK_REM_ACCESS_ERR), 0x62);
	CHECK_EQ(rxe_aeth_syn_nak(RXE_NAK_REM_OP_ERR), 0x63);
	CHECK_EQ(rxe_aeth_syn_nak(RXE_NAK_INVALID_RD_REQ), 0x64);

	CHECK_EQ(rxe_aeth_syn_type(0x1f), RXE_AETH_ACK);
	CHECK_EQ(rxe_aeth_syn_type(0x2e), RXE_AETH_RNR_NAK);
	CHECK_EQ(rxe_aeth_syn_type(0x43), RXE_AETH_RESERVED);
	CHECK_EQ(rxe_aeth_syn_type(0x63), RXE_AETH_NAK);
	CHECK_EQ(rxe_aeth_syn_value(0x2e), 14);
	CHECK_EQ(rxe_aeth_syn_value(0x63), 3);
	/* The reserved bit 7 makes a syndrome match no type. */
	CHECK(rxe_aeth_syn_type(0x80) != RXE_AETH_ACK);
	CHECK(rxe_aeth_syn_type(0xe0) != RXE_AETH_NAK);

	memset(aeth, 0, sizeof(aeth));
	rxe_aeth_set_syn(aeth, rxe_aeth_syn_nak(RXE_NAK_REM_ACCESS_ERR));
	rxe_aeth_set_msn(aeth, 0x1001);
	CHECK_MEM(aeth, want, sizeof(want));
	CHECK_EQ(rxe_aeth_syn(aeth), 0x62);
	CHECK_EQ(rxe_aeth_msn(aeth), 0x1001);
	rxe_aeth_set_msn(aeth, 0x1ffffff);	/* wraps to 24 bits */
	CHECK_EQ(aeth[0], 0x62);
	CHECK_EQ(rxe_aeth_msn(aeth), 0xffffff);
}

/* IBTA end-to-end credit codes 0..30 (code 31: unlimited). */
static const unsigned int spec_credits[31] = {
	0, 1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256,
	384, 512, 768, 1024, 1536, 2048, 3072, 4096, 6144, 8192, 12288,
	16384, 24576, 32768,
};

/* IBTA RNR NAK timer codes in units of 10 us: code 0 is 655.36 ms. */
static const unsigned int spec_rnr_10us[32] = {
	65536, 1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256,
	384, 512, 768, 1024, 1536, 2048, 3072, 4096, 6144, 8192, 12288,
	16384, 24576, 32768, 49152,
};

TEST(hdr_aeth_credit_codes)
{
	for (unsigned int c = 0; c < 31; c++)
		CHECK_EQ(rxe_aeth_credits(c), spec_credits[c]);
	CHECK_EQ(rxe_aeth_credits(RXE_AETH_CREDITS_UNLIMITED), 0xffffffffu);

	/* Encoding rounds down: never advertise more than there is. */
	for (unsigned int c = 0; c < 31; c++) {
		CHECK_EQ(rxe_aeth_credit_code(spec_credits[c]), c);
		if (c < 30 && spec_credits[c + 1] - 1 > spec_credits[c])
			CHECK_EQ(rxe_aeth_credit_code(spec_credits[c + 1] - 1), c);
	}
	CHECK_EQ(rxe_aeth_credit_code(5), 4);
	CHECK_EQ(rxe_aeth_credit_code(100), 13);	/* 96 */
	CHECK_EQ(rxe_aeth_credit_code(1000000), 30);
}

TEST(hdr_rnr_timer_codes)
{
	for (unsigned int c = 0; c < 32; c++)
		CHECK_EQ(rxe_rnr_timer_usecs(c), spec_rnr_10us[c] * 10);
	CHECK_EQ(rxe_rnr_timer_usecs(0), 655360);
	CHECK_EQ(rxe_rnr_timer_usecs(14), 1280);
	CHECK_EQ(rxe_rnr_timer_usecs(31), 491520);
}

TEST(hdr_pad_and_wide_loads)
{
	u8 b[9];

	CHECK_EQ(rxe_pad_len(0), 0);
	CHECK_EQ(rxe_pad_len(1), 3);
	CHECK_EQ(rxe_pad_len(2), 2);
	CHECK_EQ(rxe_pad_len(3), 1);
	CHECK_EQ(rxe_pad_len(13), 3);
	CHECK_EQ(rxe_pad_len(4096), 0);

	rxe_put_be16(b + 1, 0x0102);
	CHECK(b[1] == 0x01 && b[2] == 0x02);
	rxe_put_le32(b + 1, 0x04030201);
	CHECK(b[1] == 1 && b[2] == 2 && b[3] == 3 && b[4] == 4);
	CHECK_EQ(rxe_get_be32(b + 1), 0x01020304);
	CHECK_EQ(rxe_get_le32(b + 1), 0x04030201);
	rxe_put_be24(b, 0xa1b2c3);
	CHECK(b[0] == 0xa1 && b[1] == 0xb2 && b[2] == 0xc3);
}
