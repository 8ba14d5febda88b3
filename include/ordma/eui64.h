/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Modified EUI-64 from an Ethernet MAC (RFC 4291, appendix A): the node
 * GUID of a RoCE device and the interface id of its default GID.
 */
#ifndef ORDMA_EUI64_H
#define ORDMA_EUI64_H

#include <ordma/pure.h>

static inline void ordma_mac_to_eui64(const u8 mac[6], u8 eui[8])
{
	eui[0] = mac[0] ^ 0x02;	/* invert the universal/local bit */
	eui[1] = mac[1];
	eui[2] = mac[2];
	eui[3] = 0xff;
	eui[4] = 0xfe;
	eui[5] = mac[3];
	eui[6] = mac[4];
	eui[7] = mac[5];
}

/* The link-local IPv6 address fe80::/64 + EUI-64, as a 16-byte GID. */
static inline void ordma_mac_to_default_gid(const u8 mac[6], u8 gid[16])
{
	memset(gid, 0, 16);
	gid[0] = 0xfe;
	gid[1] = 0x80;
	ordma_mac_to_eui64(mac, gid + 8);
}

#endif
