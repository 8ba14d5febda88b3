/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The invariant CRC of RoCEv2 packets (IBTA vol. 1 annex A17, RoCEv2).
 *
 * The ICRC is the Ethernet CRC-32 of a pseudo-packet: 8 bytes of ones
 * standing in for the InfiniBand LRH, then the IP header, the UDP header,
 * the BTH, the extension headers and the padded payload, with every field
 * a router or switch may rewrite replaced by ones:
 *
 *   IPv4: Type of Service (DSCP and ECN), Time to Live, Header Checksum
 *   IPv6: Traffic Class, Flow Label, Hop Limit
 *   UDP:  Checksum
 *   BTH:  byte 4 (FECN, BECN and the reserved bits beside them)
 *
 * The result is complemented and sent least significant byte first.
 *
 * The CRC itself is injected: @crc_fn must update a raw, reflected
 * CRC-32 (polynomial 0xedb88320) with no inversion on entry or exit;
 * the kernel's crc32_le() is exactly that.
 */
#ifndef RXE_ICRC_H
#define RXE_ICRC_H

#include <ordma/pure.h>
#include "rxe_hdr.h"

typedef u32 (*rxe_crc32_fn)(u32 crc, const u8 *p, size_t len);

/* The CRC register after the all-ones start and the 8 bytes of masked LRH. */
#define RXE_ICRC_LRH_SEED	0xdebb20e3u

/*
 * The running CRC over the masked IP header (@ip_len bytes at @ip_hdr,
 * IPv6 if @ipv6, else IPv4 with any options) and over @udp_bth, the UDP
 * header followed by the BTH (RXE_UDP_HDR_BYTES + RXE_BTH_BYTES bytes).
 * Go on with rxe_icrc_update() over the rest of the transport headers and
 * the padded payload, then rxe_icrc_final().
 */
u32 rxe_icrc_begin(const u8 *ip_hdr, size_t ip_len, bool ipv6,
		   const u8 *udp_bth, rxe_crc32_fn crc_fn);

static inline u32 rxe_icrc_update(u32 crc, const u8 *p, size_t len,
				  rxe_crc32_fn crc_fn)
{
	return crc_fn(crc, p, len);
}

static inline u32 rxe_icrc_final(u32 crc)
{
	return ~crc;
}

/*
 * The ICRC of a packet held in two contiguous pieces: the IP header, and
 * @rest, everything from the UDP header to the end of the pad (without the
 * ICRC itself).  Returns the value to store with rxe_icrc_put(), or 0
 * if @rest_len is shorter than RXE_UDP_HDR_BYTES + RXE_BTH_BYTES.
 */
u32 rxe_icrc_compute(const u8 *ip_hdr, size_t ip_len, bool ipv6,
		     const u8 *rest, size_t rest_len, rxe_crc32_fn crc_fn);

/* The ICRC on the wire: least significant byte first. */
static inline void rxe_icrc_put(u8 *p, u32 icrc)
{
	rxe_put_le32(p, icrc);
}

static inline u32 rxe_icrc_get(const u8 *p)
{
	return rxe_get_le32(p);
}

/*
 * Does the ICRC that ends @rest (its last RXE_ICRC_BYTES) match the
 * packet?  @rest runs from the UDP header to the end of the ICRC.
 */
bool rxe_icrc_valid(const u8 *ip_hdr, size_t ip_len, bool ipv6,
		    const u8 *rest, size_t rest_len, rxe_crc32_fn crc_fn);

/*
 * The in-tree rxe (6.2 and later; 6.12 still) seals an RC FLUSH with a
 * CRC that covers its 32 bytes of transport headers twice: masked, as
 * every packet's, then once more as they lie, as if they were its payload
 * (its opcode table gives FLUSH no payload offset, so the payload starts
 * at the BTH).  Its responder checks FLUSH the same way and drops an IBTA
 * ICRC unanswered.  rxe_icrc_intree_flush() gives that value for a FLUSH
 * without pad (@rest: UDP header, BTH, FETH, RETH; 0 for another length);
 * rxe_icrc_valid_intree_flush() is rxe_icrc_valid() for it, false for
 * anything but a whole RC FLUSH.
 */
u32 rxe_icrc_intree_flush(const u8 *ip_hdr, size_t ip_len, bool ipv6,
			  const u8 *rest, size_t rest_len, rxe_crc32_fn crc_fn);
bool rxe_icrc_valid_intree_flush(const u8 *ip_hdr, size_t ip_len, bool ipv6,
				 const u8 *rest, size_t rest_len,
				 rxe_crc32_fn crc_fn);

#endif /* RXE_ICRC_H */
