// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "unit.h"
#include <ordma/eui64.h>

TEST(eui64_flips_the_ul_bit_and_inserts_fffe)
{
	const u8 mac[6] = { 0x52, 0x54, 0x00, 0x12, 0x34, 0x56 };
	const u8 want[8] = { 0x50, 0x54, 0x00, 0xff, 0xfe, 0x12, 0x34, 0x56 };
	u8 eui[8];

	ordma_mac_to_eui64(mac, eui);
	CHECK_MEM(eui, want, 8);
}

TEST(default_gid_is_link_local)
{
	const u8 mac[6] = { 0x00, 0x1b, 0x21, 0xaa, 0xbb, 0xcc };
	const u8 want[16] = { 0xfe, 0x80, 0, 0, 0, 0, 0, 0,
			      0x02, 0x1b, 0x21, 0xff, 0xfe, 0xaa, 0xbb, 0xcc };
	u8 gid[16];

	memset(gid, 0x5a, sizeof(gid));
	ordma_mac_to_default_gid(mac, gid);
	CHECK_MEM(gid, want, 16);
}
