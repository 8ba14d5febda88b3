// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ICRC of RoCEv2 packets: see rxe_icrc.h.  Only the first bytes of each
 * header hold variant fields, so only those are copied and masked; the
 * rest is fed to the CRC where it lies.
 */
#include <ordma/pure.h>
#include "rxe_hdr.h"
#include "rxe_icrc.h"
#include "rxe_opcode.h"

/* The variant fields all lie within these first bytes of each header. */
#define IPV4_VARIANT_BYTES	12	/* up to the header checksum */
#define IPV6_VARIANT_BYTES	8	/* up to the hop limit */
#define UDP_BTH_BYTES		(RXE_UDP_HDR_BYTES + RXE_BTH_BYTES)

static void mask_ipv4(u8 *h)
{
	h[1] = 0xff;			/* DSCP and ECN */
	h[8] = 0xff;			/* TTL */
	h[10] = 0xff;			/* header checksum */
	h[11] = 0xff;
}

static void mask_ipv6(u8 *h)
{
	h[0] |= 0x0f;			/* traffic class, high nibble */
	h[1] = 0xff;			/* traffic class low nibble, flow label */
	h[2] = 0xff;			/* flow label */
	h[3] = 0xff;
	h[7] = 0xff;			/* hop limit */
}

static void mask_udp_bth(u8 *h)
{
	h[6] = 0xff;			/* UDP checksum */
	h[7] = 0xff;
	h[RXE_UDP_HDR_BYTES + RXE_BTH_CN_OFF] = 0xff;	/* FECN, BECN, resv6a */
}

static size_t min_len(size_t a, size_t b)
{
	return a < b ? a : b;
}

u32 rxe_icrc_begin(const u8 *ip_hdr, size_t ip_len, bool ipv6,
		   const u8 *udp_bth, rxe_crc32_fn crc_fn)
{
	u8 buf[UDP_BTH_BYTES] = { 0 };
	u32 crc = RXE_ICRC_LRH_SEED;
	size_t n;

	/* A header too short to hold them all is masked as far as it goes. */
	n = min_len(ip_len, ipv6 ? IPV6_VARIANT_BYTES : IPV4_VARIANT_BYTES);
	memcpy(buf, ip_hdr, n);
	if (ipv6)
		mask_ipv6(buf);
	else
		mask_ipv4(buf);
	crc = crc_fn(crc, buf, n);
	if (ip_len > n)
		crc = crc_fn(crc, ip_hdr + n, ip_len - n);

	memcpy(buf, udp_bth, UDP_BTH_BYTES);
	mask_udp_bth(buf);
	return crc_fn(crc, buf, UDP_BTH_BYTES);
}

u32 rxe_icrc_compute(const u8 *ip_hdr, size_t ip_len, bool ipv6,
		     const u8 *rest, size_t rest_len, rxe_crc32_fn crc_fn)
{
	u32 crc;

	if (rest_len < UDP_BTH_BYTES)
		return 0;

	crc = rxe_icrc_begin(ip_hdr, ip_len, ipv6, rest, crc_fn);
	crc = rxe_icrc_update(crc, rest + UDP_BTH_BYTES,
			      rest_len - UDP_BTH_BYTES, crc_fn);
	return rxe_icrc_final(crc);
}

bool rxe_icrc_valid(const u8 *ip_hdr, size_t ip_len, bool ipv6,
		    const u8 *rest, size_t rest_len, rxe_crc32_fn crc_fn)
{
	size_t len;

	if (rest_len < UDP_BTH_BYTES + RXE_ICRC_BYTES)
		return false;
	len = rest_len - RXE_ICRC_BYTES;
	return rxe_icrc_compute(ip_hdr, ip_len, ipv6, rest, len, crc_fn) ==
	       rxe_icrc_get(rest + len);
}

/* BTH, FETH and RETH: all an RC FLUSH carries. */
#define FLUSH_HDR_BYTES	(RXE_BTH_BYTES + RXE_FETH_BYTES + RXE_RETH_BYTES)

u32 rxe_icrc_intree_flush(const u8 *ip_hdr, size_t ip_len, bool ipv6,
			  const u8 *rest, size_t rest_len, rxe_crc32_fn crc_fn)
{
	const u8 *bth = rest + RXE_UDP_HDR_BYTES;
	u32 crc;

	if (rest_len != RXE_UDP_HDR_BYTES + FLUSH_HDR_BYTES)
		return 0;
	crc = rxe_icrc_begin(ip_hdr, ip_len, ipv6, rest, crc_fn);
	crc = rxe_icrc_update(crc, bth + RXE_BTH_BYTES,
			      FLUSH_HDR_BYTES - RXE_BTH_BYTES, crc_fn);
	/* again, unmasked: the in-tree driver's "payload" of a FLUSH */
	crc = rxe_icrc_update(crc, bth, FLUSH_HDR_BYTES, crc_fn);
	return rxe_icrc_final(crc);
}

bool rxe_icrc_valid_intree_flush(const u8 *ip_hdr, size_t ip_len, bool ipv6,
				 const u8 *rest, size_t rest_len,
				 rxe_crc32_fn crc_fn)
{
	size_t len;

	if (rest_len != RXE_UDP_HDR_BYTES + FLUSH_HDR_BYTES + RXE_ICRC_BYTES ||
	    rest[RXE_UDP_HDR_BYTES] != RXE_OPCODE_RC_FLUSH)
		return false;
	len = rest_len - RXE_ICRC_BYTES;
	return rxe_icrc_intree_flush(ip_hdr, ip_len, ipv6, rest, len, crc_fn) ==
	       rxe_icrc_get(rest + len);
}
