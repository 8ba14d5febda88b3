/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Packet sequence numbers are 24 bits wide and wrap (IBTA 9.7.1); two PSNs
 * are ordered by the signed 24-bit distance between them, which is only
 * meaningful while they are less than 2^23 apart.
 */
#ifndef RXE_PSN_H
#define RXE_PSN_H

#include <ordma/pure.h>

#define RXE_PSN_MASK 0x00ffffffu

static inline u32 rxe_psn_add(u32 psn, u32 n)
{
	return (psn + n) & RXE_PSN_MASK;
}

/* <0, 0, >0 as @a is before, equal to or after @b in sequence space. */
static inline s32 rxe_psn_cmp(u32 a, u32 b)
{
	/* Move the 24-bit difference into the top bits to get its sign. */
	return (s32)((a - b) << 8) >> 8;
}

/* @psn lies in [@lo, @hi): at or after @lo and before @hi. */
static inline bool rxe_psn_in(u32 psn, u32 lo, u32 hi)
{
	return rxe_psn_cmp(psn, lo) >= 0 && rxe_psn_cmp(psn, hi) < 0;
}

/* The later of @a and @b in sequence space. */
static inline u32 rxe_psn_max(u32 a, u32 b)
{
	return rxe_psn_cmp(a, b) >= 0 ? a : b;
}

#endif
