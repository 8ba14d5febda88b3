// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The rdma_cm's REQ private-data header and service IDs (cma/cma_hdr.h). */
#include <stddef.h>
#include <arpa/inet.h>
#include "unit.h"
#include "../../cma/cma_hdr.h"

TEST(cma_hdr_layout_is_the_in_tree_one)
{
	CHECK_EQ(sizeof(struct cma_hdr), CMA_HDR_SIZE);
	CHECK_EQ(offsetof(struct cma_hdr, ip_version), 1);
	CHECK_EQ(offsetof(struct cma_hdr, port), 2);
	CHECK_EQ(offsetof(struct cma_hdr, src_addr), 4);
	CHECK_EQ(offsetof(struct cma_hdr, dst_addr), 20);
}

TEST(cma_hdr_ipv4_bytes)
{
	struct cma_hdr h;
	const u8 *b = (const u8 *)&h;
	u32 src = htonl(0x0a00020f), dst = htonl(0x0a000210);

	memset(&h, 0, sizeof(h));
	h.cma_version = CMA_HDR_VERSION;
	cma_hdr_set_ip_ver(&h, 4);
	h.port = htons(0x4853);
	memcpy(h.src_addr + 12, &src, 4);
	memcpy(h.dst_addr + 12, &dst, 4);
	CHECK_EQ(b[0], 0x00);
	CHECK_EQ(b[1], 0x40);
	CHECK_EQ(b[2], 0x48);
	CHECK_EQ(b[3], 0x53);
	CHECK_EQ(b[4], 0);
	CHECK_EQ(b[16], 10);
	CHECK_EQ(b[19], 15);
	CHECK_EQ(b[32], 10);
	CHECK_EQ(b[35], 16);
	CHECK(cma_hdr_valid(&h));
	CHECK_EQ(cma_hdr_ip_ver(&h), 4);
	cma_hdr_set_ip_ver(&h, 6);
	CHECK_EQ(b[1], 0x60);
	h.cma_version = 1;
	CHECK(!cma_hdr_valid(&h));
	h.cma_version = 0;
	h.ip_version = 0x50;
	CHECK(!cma_hdr_valid(&h));
}

TEST(cma_service_ids)
{
	CHECK(cma_service_id(0x0106, 7471) == 0x0000000001060000ULL + 7471);
	CHECK(cma_service_id(0x0111, 1) == 0x0000000001110001ULL);
	CHECK_EQ(cma_sid_ps(0x0000000001064853ULL), 0x0106);
	CHECK_EQ(cma_sid_port(0x0000000001064853ULL), 0x4853);
}
