/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The rdma_cm's wire facts, pure (no kernel headers): the 36-byte IP
 * header that leads the private data of a REQ and a SIDR_REQ, and the
 * service ID that carries the port space and port.  Byte-compatible with
 * the in-tree rdma_cm:
 *
 *   0  version (0x00)
 *   1  IP version in the upper nibble (4 or 6)
 *   2  source port (network order)
 *   4  source address: IPv6, or 12 zero bytes and the IPv4 address
 *  20  destination address, the same way
 *
 * Service ID = (port space << 16) | port, e.g. 0x0000000001060000 | port
 * for the TCP port space.
 */
#ifndef ORDMA_CMA_HDR_H
#define ORDMA_CMA_HDR_H

#include <ordma/pure.h>

#ifndef __KERNEL__
typedef u16 __be16;
#endif

#define CMA_HDR_VERSION		0x00
#define CMA_HDR_SIZE		36

struct cma_hdr {
	u8 cma_version;
	u8 ip_version;		/* 7:4 */
	__be16 port;
	u8 src_addr[16];
	u8 dst_addr[16];
};

static inline u8 cma_hdr_ip_ver(const struct cma_hdr *hdr)
{
	return hdr->ip_version >> 4;
}

static inline void cma_hdr_set_ip_ver(struct cma_hdr *hdr, u8 ver)
{
	hdr->ip_version = (u8)((ver << 4) | (hdr->ip_version & 0xf));
}

static inline u64 cma_service_id(u16 ps, u16 port)
{
	return ((u64)ps << 16) + port;
}

static inline u16 cma_sid_ps(u64 sid)
{
	return (u16)(sid >> 16);
}

static inline u16 cma_sid_port(u64 sid)
{
	return (u16)sid;
}

/* A header is ours to parse: right version and a known IP version. */
static inline int cma_hdr_valid(const struct cma_hdr *hdr)
{
	return hdr->cma_version == CMA_HDR_VERSION &&
	       (cma_hdr_ip_ver(hdr) == 4 || cma_hdr_ip_ver(hdr) == 6);
}

#endif
