// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The common MAD header (include/ordma/mad_wire.h): encodings to the byte. */
#include "unit.h"
#include <ordma/mad_wire.h>

/* A CM REQ header as ib_cm sends it: class 7 v2, Send, TID agent 0x11. */
static const u8 cm_req_hdr[MAD_WIRE_HDR_SIZE] = {
	0x01, 0x07, 0x02, 0x03,			/* base, class, version, method */
	0x00, 0x00, 0x00, 0x00,			/* status, class specific */
	0x00, 0x00, 0x00, 0x11, 0xde, 0xad, 0xbe, 0xef,	/* TID */
	0x00, 0x10, 0x00, 0x00,			/* attr id 0x0010, reserved */
	0x00, 0x00, 0x00, 0x00,			/* attr mod */
};

TEST(mad_pack_cm_req_header_byte_exact)
{
	struct mad_wire_hdr h = {
		.base_version = 1, .mgmt_class = 0x07, .class_version = 2,
		.method = 0x03, .tid = 0x00000011deadbeefULL, .attr_id = 0x0010,
	};
	u8 buf[MAD_WIRE_HDR_SIZE];

	memset(buf, 0xaa, sizeof(buf));
	mad_wire_pack(buf, &h);
	CHECK_MEM(buf, cm_req_hdr, sizeof(buf));
}

TEST(mad_pack_every_field_big_endian)
{
	static const u8 want[MAD_WIRE_HDR_SIZE] = {
		0x01, 0x31, 0x01, 0x81,
		0x00, 0x0c, 0xa5, 0x5a,
		0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08,
		0xfe, 0xdc, 0x00, 0x00,
		0x12, 0x34, 0x56, 0x78,
	};
	struct mad_wire_hdr h = {
		.base_version = 1, .mgmt_class = 0x31, .class_version = 1,
		.method = 0x81, .status = 0x000c, .class_specific = 0xa55a,
		.tid = 0x0102030405060708ULL, .attr_id = 0xfedc,
		.attr_mod = 0x12345678,
	};
	u8 buf[MAD_WIRE_HDR_SIZE];

	memset(buf, 0xff, sizeof(buf));
	mad_wire_pack(buf, &h);
	CHECK_MEM(buf, want, sizeof(buf));
	CHECK_EQ(buf[MAD_WIRE_OFF_RESV], 0);
	CHECK_EQ(buf[MAD_WIRE_OFF_RESV + 1], 0);
}

TEST(mad_unpack_round_trips)
{
	struct mad_wire_hdr h, back;
	u8 buf[MAD_WIRE_HDR_SIZE];

	mad_wire_unpack(&h, cm_req_hdr);
	CHECK_EQ(h.base_version, 1);
	CHECK_EQ(h.mgmt_class, 0x07);
	CHECK_EQ(h.class_version, 2);
	CHECK_EQ(h.method, 0x03);
	CHECK_EQ(h.status, 0);
	CHECK_EQ(h.class_specific, 0);
	CHECK(h.tid == 0x00000011deadbeefULL);
	CHECK_EQ(h.attr_id, 0x0010);
	CHECK_EQ(h.attr_mod, 0);

	h.status = 0x8004;
	h.attr_mod = 0xffffffff;
	h.tid = 0xffffffff00000001ULL;
	mad_wire_pack(buf, &h);
	mad_wire_unpack(&back, buf);
	CHECK_EQ(back.status, 0x8004);
	CHECK(back.attr_mod == 0xffffffffu);
	CHECK(back.tid == 0xffffffff00000001ULL);
	CHECK_EQ(buf[MAD_WIRE_OFF_STATUS], 0x80);
	CHECK_EQ(buf[MAD_WIRE_OFF_STATUS + 1], 0x04);
}

TEST(mad_check_length_and_base_version)
{
	u8 mad[MAD_WIRE_SIZE] = { 0 };

	memcpy(mad, cm_req_hdr, sizeof(cm_req_hdr));
	CHECK_EQ(mad_wire_check(mad, MAD_WIRE_SIZE), MAD_WIRE_OK);
	CHECK_EQ(mad_wire_check(mad, MAD_WIRE_SIZE - 1), MAD_WIRE_SHORT);
	CHECK_EQ(mad_wire_check(mad, 0), MAD_WIRE_SHORT);
	CHECK_EQ(mad_wire_check(mad, MAD_WIRE_HDR_SIZE), MAD_WIRE_SHORT);
	mad[0] = 2;
	CHECK_EQ(mad_wire_check(mad, MAD_WIRE_SIZE), MAD_WIRE_BAD_BASE_VERSION);
	mad[0] = 0;
	CHECK_EQ(mad_wire_check(mad, MAD_WIRE_SIZE), MAD_WIRE_BAD_BASE_VERSION);
	/* Length is judged first: a short MAD with a bad version is short. */
	CHECK_EQ(mad_wire_check(mad, 100), MAD_WIRE_SHORT);
}

TEST(mad_response_bit_and_tid_agent)
{
	CHECK(!mad_wire_is_response(0x01));	/* Get */
	CHECK(!mad_wire_is_response(0x03));	/* Send */
	CHECK(!mad_wire_is_response(0x05));	/* Trap */
	CHECK(mad_wire_is_response(0x81));	/* GetResp */
	CHECK(mad_wire_is_response(0x07));	/* TrapRepress */
	CHECK(mad_wire_is_response(0xff));
	CHECK_EQ(mad_wire_method_index(0x81), 0x01);
	CHECK_EQ(mad_wire_method_index(0x03), 0x03);
	CHECK_EQ(mad_wire_tid_agent(0x00000011deadbeefULL), 0x11);
	CHECK(mad_wire_make_tid(0x11, 0xdeadbeef) == 0x00000011deadbeefULL);
	CHECK(mad_wire_make_tid(0xffffffff, 0) == 0xffffffff00000000ULL);
}
