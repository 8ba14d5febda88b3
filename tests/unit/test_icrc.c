// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ICRC of RoCEv2 packets (sw_rxe/rxe_icrc.c) against packets whose ICRC
 * was computed by other implementations:
 *
 *  - cx4_cnp_v4: a congestion notification packet captured from a
 *    Mellanox ConnectX-4 Lx NIC (published with Scapy's RoCE tests).  Its
 *    TOS (0xc2) and BECN bit are set, so it checks the IPv4 and BTH
 *    masking against hardware.
 *  - rxe_*: RC and UD sends that Debian 12's in-tree rdma_rxe (kernel
 *    6.1.0-56, rdma-core 44's ibv_rc_pingpong/ibv_ud_pingpong) put on a
 *    veth over IPv4 and IPv6, captured with dumpcap.  Every retransmission
 *    captured (56 over IPv4, 98 over IPv6) carried the same ICRC as
 *    computed here.
 *  - intree_flush_v4: an RC FLUSH (global, range) that Debian 13's in-tree
 *    rdma_rxe (6.12.117+deb13) sent to ours over IPv4, captured with
 *    dumpcap: its ICRC is not the IBTA's but the in-tree driver's own,
 *    with the transport headers covered twice (rxe_icrc.h).
 *
 * Each array runs from the IP header to the end of the ICRC.
 */
#include "unit.h"
#include "../../sw_rxe/rxe_icrc.c"

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#endif

/* The raw reflected CRC-32 the kernel's crc32_le() computes, bit by bit. */
static u32 crc32_bitwise(u32 crc, const u8 *p, size_t len)
{
	while (len--) {
		crc ^= *p++;
		for (int k = 0; k < 8; k++)
			crc = (crc >> 1) ^ (0xedb88320u & -(crc & 1u));
	}
	return crc;
}

static const u8 cx4_cnp_v4[] = {
	/* IPv4: version/IHL, TOS, length, id, flags/frag */
	0x45, 0xc2, 0x00, 0x3c, 0x71, 0x8c, 0x40, 0x00,
	/* TTL, protocol, checksum, source */
	0x40, 0x11, 0x91, 0x61, 0x0a, 0x00, 0x11, 0x01,
	/* destination */
	0x0a, 0x00, 0x12, 0x01,
	/* UDP: ports, length, checksum */
	0x00, 0x00, 0x12, 0xb7, 0x00, 0x28, 0x00, 0x00,
	/* BTH */
	0x81, 0x00, 0xff, 0xff, 0x40, 0x00, 0x01, 0x18,
	0x00, 0x00, 0x00, 0x00,
	/* CNP: 16 reserved bytes */
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	/* ICRC */
	0x82, 0xfd, 0x00, 0x2a,
};

static const u8 rxe_rc_v4[] = {
	/* IPv4: version/IHL, TOS, length, id, flags/frag */
	0x45, 0x00, 0x00, 0x3c, 0x04, 0xfd, 0x40, 0x00,
	/* TTL, protocol, checksum, source */
	0x40, 0x11, 0x1a, 0x60, 0xc0, 0xa8, 0x4d, 0x01,
	/* destination */
	0xc0, 0xa8, 0x4d, 0x02,
	/* UDP: ports, length, checksum */
	0xec, 0x4b, 0x12, 0xb7, 0x00, 0x28, 0x00, 0x00,
	/* BTH */
	0x04, 0x30, 0xff, 0xff, 0x00, 0xab, 0xcd, 0xef,
	0x80, 0xb2, 0x2e, 0xec,
	/* payload and pad */
	0x7b, 0x7b, 0x7b, 0x7b, 0x7b, 0x7b, 0x7b, 0x7b,
	0x7b, 0x7b, 0x7b, 0x7b, 0x7b, 0x00, 0x00, 0x00,
	/* ICRC */
	0xaa, 0x0a, 0xdc, 0x3f,
};

static const u8 rxe_ud_v4[] = {
	/* IPv4: version/IHL, TOS, length, id, flags/frag */
	0x45, 0x00, 0x00, 0x44, 0x0b, 0xdc, 0x40, 0x00,
	/* TTL, protocol, checksum, source */
	0x40, 0x11, 0x13, 0x79, 0xc0, 0xa8, 0x4d, 0x01,
	/* destination */
	0xc0, 0xa8, 0x4d, 0x02,
	/* UDP: ports, length, checksum */
	0xf8, 0x06, 0x12, 0xb7, 0x00, 0x30, 0x00, 0x00,
	/* BTH */
	0x64, 0x30, 0xff, 0xff, 0x00, 0xab, 0xcd, 0xef,
	0x00, 0x96, 0x9f, 0xd1,
	/* DETH */
	0x11, 0x11, 0x11, 0x11, 0x00, 0x00, 0x00, 0x12,
	/* payload and pad */
	0x7b, 0x7b, 0x7b, 0x7b, 0x7b, 0x7b, 0x7b, 0x7b,
	0x7b, 0x7b, 0x7b, 0x7b, 0x7b, 0x00, 0x00, 0x00,
	/* ICRC */
	0xa7, 0x1d, 0x2b, 0x41,
};

static const u8 rxe_rc_v6[] = {
	/* IPv6: version/TC/flow label, payload length, next header, hop limit */
	0x60, 0x00, 0x00, 0x00, 0x00, 0x28, 0x11, 0x40,
	/* source address */
	0x20, 0x01, 0x0d, 0xb8, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01,
	/* destination address */
	0x20, 0x01, 0x0d, 0xb8, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02,
	/* UDP: ports, length, checksum */
	0xfa, 0x1e, 0x12, 0xb7, 0x00, 0x28, 0x00, 0x00,
	/* BTH */
	0x04, 0x30, 0xff, 0xff, 0x00, 0xab, 0xcd, 0xef,
	0x80, 0xab, 0x89, 0xef,
	/* payload and pad */
	0x7b, 0x7b, 0x7b, 0x7b, 0x7b, 0x7b, 0x7b, 0x7b,
	0x7b, 0x7b, 0x7b, 0x7b, 0x7b, 0x00, 0x00, 0x00,
	/* ICRC */
	0x33, 0xc0, 0x59, 0xe1,
};

static const u8 rxe_ud_v6[] = {
	/* IPv6: version/TC/flow label, payload length, next header, hop limit */
	0x60, 0x00, 0x00, 0x00, 0x00, 0x30, 0x11, 0x40,
	/* source address */
	0x20, 0x01, 0x0d, 0xb8, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01,
	/* destination address */
	0x20, 0x01, 0x0d, 0xb8, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02,
	/* UDP: ports, length, checksum */
	0xd0, 0x78, 0x12, 0xb7, 0x00, 0x30, 0x00, 0x00,
	/* BTH */
	0x64, 0x30, 0xff, 0xff, 0x00, 0xab, 0xcd, 0xef,
	0x00, 0x49, 0x51, 0x74,
	/* DETH */
	0x11, 0x11, 0x11, 0x11, 0x00, 0x00, 0x00, 0x13,
	/* payload and pad */
	0x7b, 0x7b, 0x7b, 0x7b, 0x7b, 0x7b, 0x7b, 0x7b,
	0x7b, 0x7b, 0x7b, 0x7b, 0x7b, 0x00, 0x00, 0x00,
	/* ICRC */
	0xc2, 0x07, 0x93, 0x7d,
};

static const u8 intree_flush_v4[] = {
	0x45, 0x00, 0x00, 0x40, 0x99, 0x5e, 0x40, 0x00,
	0x40, 0x11, 0x89, 0x38, 0x0a, 0x00, 0x02, 0x0c,
	0x0a, 0x00, 0x02, 0x0b, 0xc1, 0x32, 0x12, 0xb7,
	0x00, 0x2c, 0x00, 0x00, 0x1c, 0x00, 0xff, 0xff,
	0x00, 0x00, 0x00, 0x11, 0x80, 0x00, 0x00, 0x05,
	0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03, 0xb6,
	0x00, 0x00, 0x00, 0x00, 0x91, 0xe6, 0x30, 0xed,
};

struct icrc_vector {
	const char *name;
	const u8 *pkt;
	size_t len;
	bool ipv6;
	u8 opcode;
};

#define VEC(v, six, op) { #v, v, sizeof(v), six, op }

static const struct icrc_vector vectors[] = {
	VEC(cx4_cnp_v4, false, 0x81),
	VEC(rxe_rc_v4, false, 0x04),
	VEC(rxe_ud_v4, false, 0x64),
	VEC(rxe_rc_v6, true, 0x04),
	VEC(rxe_ud_v6, true, 0x64),
};

static size_t ip_len_of(const struct icrc_vector *v)
{
	return v->ipv6 ? RXE_IPV6_HDR_BYTES : (size_t)(v->pkt[0] & 0x0f) * 4;
}

TEST(icrc_primitive_and_seed)
{
	static const u8 lrh_ones[8] = {
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	};

	/* The standard CRC-32 check value. */
	CHECK_EQ(~crc32_bitwise(~0u, (const u8 *)"123456789", 9), 0xcbf43926u);
	CHECK_EQ(crc32_bitwise(~0u, lrh_ones, sizeof(lrh_ones)),
		 RXE_ICRC_LRH_SEED);
}

TEST(icrc_known_packets)
{
	for (size_t i = 0; i < ARRAY_SIZE(vectors); i++) {
		const struct icrc_vector *v = &vectors[i];
		size_t ip_len = ip_len_of(v);
		const u8 *rest = v->pkt + ip_len;
		size_t rest_len = v->len - ip_len - RXE_ICRC_BYTES;
		u32 icrc = rxe_icrc_compute(v->pkt, ip_len, v->ipv6, rest,
					    rest_len, crc32_bitwise);
		u8 wire[RXE_ICRC_BYTES];

		rxe_icrc_put(wire, icrc);
		if (memcmp(wire, v->pkt + v->len - RXE_ICRC_BYTES, 4))
			printf("  %s: computed ICRC %08x\n", v->name, icrc);
		CHECK_MEM(wire, v->pkt + v->len - RXE_ICRC_BYTES, 4);
		CHECK(rxe_icrc_valid(v->pkt, ip_len, v->ipv6, rest,
				     rest_len + RXE_ICRC_BYTES, crc32_bitwise));
		CHECK_EQ(rxe_get_be16(rest + 2), RXE_ROCEV2_UDP_PORT);
		CHECK_EQ(rxe_bth_opcode(rest + RXE_UDP_HDR_BYTES), v->opcode);
	}
}

/* The headers of the rxe vectors decode to what the sender put there. */
TEST(icrc_vectors_decode)
{
	const u8 *bth = rxe_ud_v6 + RXE_IPV6_HDR_BYTES + RXE_UDP_HDR_BYTES;
	const u8 *deth = bth + RXE_BTH_BYTES;
	struct rxe_bth_fields f;

	rxe_bth_decode(bth, &f);
	CHECK_EQ(f.opcode, 0x64);
	CHECK_EQ(f.pad, 3);		/* 13 bytes of payload */
	CHECK_EQ(f.pkey, RXE_DEFAULT_PKEY);
	CHECK_EQ(f.qpn, 0xabcdef);
	CHECK(!f.ackreq && !f.se && !f.fecn && !f.becn);
	CHECK_EQ(f.psn, 0x495174);
	CHECK_EQ(rxe_deth_qkey(deth), 0x11111111);
	CHECK_EQ(rxe_deth_sqp(deth), 0x13);

	bth = rxe_rc_v4 + RXE_IPV4_HDR_BYTES + RXE_UDP_HDR_BYTES;
	rxe_bth_decode(bth, &f);
	CHECK_EQ(f.opcode, 0x04);
	CHECK(f.ackreq);
	CHECK_EQ(f.psn, 0xb22eec);

	bth = cx4_cnp_v4 + RXE_IPV4_HDR_BYTES + RXE_UDP_HDR_BYTES;
	CHECK(rxe_bth_becn(bth) && !rxe_bth_fecn(bth));
	CHECK_EQ(rxe_bth_qpn(bth), 0x000118);
}

static u32 icrc_of(const u8 *pkt, size_t len, bool ipv6)
{
	size_t ip_len = ipv6 ? RXE_IPV6_HDR_BYTES : RXE_IPV4_HDR_BYTES;

	return rxe_icrc_compute(pkt, ip_len, ipv6, pkt + ip_len,
				len - ip_len - RXE_ICRC_BYTES, crc32_bitwise);
}

/* Fields a router may rewrite do not change the ICRC; any other does. */
TEST(icrc_masks_exactly_the_variant_fields)
{
	static const struct { size_t off; u8 val; bool variant; } v4[] = {
		{ 1, 0xb8, true },	/* TOS */
		{ 8, 0x01, true },	/* TTL */
		{ 10, 0x12, true },	/* header checksum */
		{ 11, 0x34, true },
		{ 26, 0xab, true },	/* UDP checksum */
		{ 27, 0xcd, true },
		{ 32, 0xc0, true },	/* BTH FECN, BECN */
		{ 32, 0x3f, true },	/* BTH resv6a */
		{ 0, 0x46, false },	/* version/IHL */
		{ 4, 0x55, false },	/* identification */
		{ 9, 0x06, false },	/* protocol */
		{ 15, 0x02, false },	/* source address */
		{ 20, 0x12, false },	/* UDP source port */
		{ 29, 0x70, false },	/* BTH SE/M/pad/TVer */
		{ 36, 0x81, false },	/* BTH resv7 */
		{ 38, 0x00, false },	/* PSN */
		{ 45, 0x00, false },	/* payload */
		{ 53, 0x01, false },	/* pad */
	};
	static const struct { size_t off; u8 val; bool variant; } v6[] = {
		{ 0, 0x6f, true },	/* traffic class, high nibble */
		{ 1, 0xff, true },	/* traffic class, flow label */
		{ 2, 0x12, true },	/* flow label */
		{ 3, 0x34, true },
		{ 7, 0x01, true },	/* hop limit */
		{ 46, 0xff, true },	/* UDP checksum */
		{ 52, 0x80, true },	/* BTH FECN */
		{ 0, 0x70, false },	/* version */
		{ 5, 0x29, false },	/* payload length */
		{ 6, 0x3a, false },	/* next header */
		{ 8, 0xfe, false },	/* source address */
		{ 39, 0x09, false },	/* destination address */
		{ 42, 0x13, false },	/* UDP destination port */
		{ 49, 0x80, false },	/* BTH SE */
		{ 55, 0x00, false },	/* DestQP */
		{ 63, 0x22, false },	/* DETH Q_Key */
		{ 80, 0x00, false },	/* payload */
	};
	u8 p[sizeof(rxe_ud_v6)];
	u32 ref;

	ref = icrc_of(rxe_rc_v4, sizeof(rxe_rc_v4), false);
	for (size_t i = 0; i < ARRAY_SIZE(v4); i++) {
		memcpy(p, rxe_rc_v4, sizeof(rxe_rc_v4));
		p[v4[i].off] = v4[i].val;
		if (v4[i].variant)
			CHECK_EQ(icrc_of(p, sizeof(rxe_rc_v4), false), ref);
		else
			CHECK(icrc_of(p, sizeof(rxe_rc_v4), false) != ref);
	}

	ref = icrc_of(rxe_ud_v6, sizeof(rxe_ud_v6), true);
	for (size_t i = 0; i < ARRAY_SIZE(v6); i++) {
		memcpy(p, rxe_ud_v6, sizeof(rxe_ud_v6));
		p[v6[i].off] = v6[i].val;
		if (v6[i].variant)
			CHECK_EQ(icrc_of(p, sizeof(rxe_ud_v6), true), ref);
		else
			CHECK(icrc_of(p, sizeof(rxe_ud_v6), true) != ref);
	}
}

TEST(icrc_in_pieces_equals_whole)
{
	const u8 *ip = rxe_ud_v6;
	const u8 *rest = ip + RXE_IPV6_HDR_BYTES;
	size_t rest_len = sizeof(rxe_ud_v6) - RXE_IPV6_HDR_BYTES - RXE_ICRC_BYTES;
	size_t hdrs = RXE_UDP_HDR_BYTES + RXE_BTH_BYTES;
	u32 crc;

	crc = rxe_icrc_begin(ip, RXE_IPV6_HDR_BYTES, true, rest, crc32_bitwise);
	crc = rxe_icrc_update(crc, rest + hdrs, RXE_DETH_BYTES, crc32_bitwise);
	crc = rxe_icrc_update(crc, rest + hdrs + RXE_DETH_BYTES,
			      rest_len - hdrs - RXE_DETH_BYTES, crc32_bitwise);
	CHECK_EQ(rxe_icrc_final(crc),
		 rxe_icrc_compute(ip, RXE_IPV6_HDR_BYTES, true, rest, rest_len,
				  crc32_bitwise));
	CHECK_EQ(rxe_icrc_final(crc), rxe_icrc_get(rest + rest_len));
}

TEST(icrc_rejects_damage)
{
	u8 p[sizeof(rxe_rc_v6)];
	const size_t ip_len = RXE_IPV6_HDR_BYTES;
	const size_t rest_len = sizeof(p) - ip_len;

	memcpy(p, rxe_rc_v6, sizeof(p));
	CHECK(rxe_icrc_valid(p, ip_len, true, p + ip_len, rest_len,
			     crc32_bitwise));
	p[sizeof(p) - 6] ^= 0x01;		/* a bit of the pad */
	CHECK(!rxe_icrc_valid(p, ip_len, true, p + ip_len, rest_len,
			      crc32_bitwise));
	p[sizeof(p) - 6] ^= 0x01;
	p[sizeof(p) - 1] ^= 0x80;		/* a bit of the ICRC */
	CHECK(!rxe_icrc_valid(p, ip_len, true, p + ip_len, rest_len,
			      crc32_bitwise));
	/* Too short to hold UDP, BTH and ICRC. */
	CHECK(!rxe_icrc_valid(p, ip_len, true, p + ip_len, 23, crc32_bitwise));
	CHECK_EQ(rxe_icrc_compute(p, ip_len, true, p + ip_len, 19,
				  crc32_bitwise), 0);
	/* Wrong family: the masks fall elsewhere. */
	CHECK(!rxe_icrc_valid(rxe_rc_v4, RXE_IPV4_HDR_BYTES, true,
			      rxe_rc_v4 + RXE_IPV4_HDR_BYTES,
			      sizeof(rxe_rc_v4) - RXE_IPV4_HDR_BYTES,
			      crc32_bitwise));
}

/*
 * The in-tree rxe's FLUSH: refused by the IBTA check, taken by the in-tree
 * form's, whose value the sender side reproduces; damage and any other
 * packet fail it.
 */
TEST(icrc_intree_flush)
{
	const size_t ip_len = RXE_IPV4_HDR_BYTES;
	const size_t rest_len = sizeof(intree_flush_v4) - ip_len;
	u8 p[sizeof(intree_flush_v4)];
	u8 wire[RXE_ICRC_BYTES];

	memcpy(p, intree_flush_v4, sizeof(p));
	CHECK_EQ(rxe_bth_opcode(p + ip_len + RXE_UDP_HDR_BYTES),
		 RXE_OPCODE_RC_FLUSH);
	CHECK(!rxe_icrc_valid(p, ip_len, false, p + ip_len, rest_len,
			      crc32_bitwise));
	CHECK(rxe_icrc_valid_intree_flush(p, ip_len, false, p + ip_len,
					  rest_len, crc32_bitwise));
	rxe_icrc_put(wire, rxe_icrc_intree_flush(p, ip_len, false, p + ip_len,
						 rest_len - RXE_ICRC_BYTES,
						 crc32_bitwise));
	CHECK_MEM(wire, p + sizeof(p) - RXE_ICRC_BYTES, RXE_ICRC_BYTES);
	/* the TTL is masked in both forms; the RETH's rkey is not */
	p[8] ^= 0x01;
	CHECK(rxe_icrc_valid_intree_flush(p, ip_len, false, p + ip_len,
					  rest_len, crc32_bitwise));
	p[ip_len + RXE_UDP_HDR_BYTES + 30] ^= 0x01;
	CHECK(!rxe_icrc_valid_intree_flush(p, ip_len, false, p + ip_len,
					   rest_len, crc32_bitwise));
	/* not a FLUSH, or not a whole one */
	CHECK(!rxe_icrc_valid_intree_flush(rxe_rc_v4, ip_len, false,
					   rxe_rc_v4 + ip_len,
					   sizeof(rxe_rc_v4) - ip_len,
					   crc32_bitwise));
	CHECK(!rxe_icrc_valid_intree_flush(intree_flush_v4, ip_len, false,
					   intree_flush_v4 + ip_len,
					   rest_len - 1, crc32_bitwise));
	CHECK_EQ(rxe_icrc_intree_flush(p, ip_len, false, p + ip_len, 20,
				       crc32_bitwise), 0);
}

TEST(icrc_goes_on_the_wire_lsb_first)
{
	u8 b[RXE_ICRC_BYTES];

	rxe_icrc_put(b, 0x2a00fd82u);
	CHECK(b[0] == 0x82 && b[1] == 0xfd && b[2] == 0x00 && b[3] == 0x2a);
	CHECK_EQ(rxe_icrc_get(cx4_cnp_v4 + sizeof(cx4_cnp_v4) - 4), 0x2a00fd82u);
}
