/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * For the probes that build RoCE v2 frames by hand (wire_fuzz, goback_probe):
 * the CRC-32 sw_rxe/rxe_icrc.c is handed (the kernel gives it crc32_le()),
 * and the IPv4 header checksum.  Include after rxe_icrc.c.
 */
#ifndef ROCE_FRAME_H
#define ROCE_FRAME_H

#include <stddef.h>
#include <stdint.h>

/* Reflected CRC-32, polynomial 0xedb88320, no pre- or post-inversion. */
static uint32_t crc32_raw(uint32_t crc, const uint8_t *p, size_t len)
{
	static uint32_t table[256];

	if (!table[1])
		for (uint32_t i = 0; i < 256; i++) {
			uint32_t c = i;

			for (int k = 0; k < 8; k++)
				c = (c >> 1) ^ (c & 1 ? 0xedb88320u : 0);
			table[i] = c;
		}
	while (len--)
		crc = table[(crc ^ *p++) & 0xff] ^ (crc >> 8);
	return crc;
}

/* The IPv4 header checksum of @len bytes (its own field zero). */
static uint16_t ip_csum(const uint8_t *p, size_t len)
{
	uint32_t sum = 0;

	for (size_t i = 0; i < len; i += 2)
		sum += (uint32_t)p[i] << 8 | p[i + 1];
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)~sum;
}

#endif
