// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "unit.h"
#include "../../sw_rxe/rxe_psn.h"

TEST(psn_add_wraps_at_24_bits)
{
	CHECK_EQ(rxe_psn_add(0, 1), 1);
	CHECK_EQ(rxe_psn_add(0xffffff, 1), 0);
	CHECK_EQ(rxe_psn_add(0xfffffe, 5), 3);
	CHECK_EQ(rxe_psn_add(0x123456, 0x1000000), 0x123456);
}

TEST(psn_cmp_orders_across_the_wrap)
{
	CHECK(rxe_psn_cmp(5, 5) == 0);
	CHECK(rxe_psn_cmp(6, 5) > 0);
	CHECK(rxe_psn_cmp(5, 6) < 0);
	CHECK(rxe_psn_cmp(0, 0xffffff) > 0);	/* 0 follows 0xffffff */
	CHECK(rxe_psn_cmp(0xffffff, 0) < 0);
	CHECK_EQ(rxe_psn_cmp(2, 0xfffffe), 4);
	CHECK_EQ(rxe_psn_cmp(0xfffffe, 2), -4);
	/* The window is half the space: 2^23 - 1 ahead is still "after". */
	CHECK(rxe_psn_cmp(0x7fffff, 0) > 0);
	CHECK(rxe_psn_cmp(0x800001, 0) < 0);
}

TEST(psn_in_is_half_open_across_the_wrap)
{
	CHECK(rxe_psn_in(5, 5, 6));
	CHECK(!rxe_psn_in(6, 5, 6));
	CHECK(!rxe_psn_in(4, 5, 6));
	CHECK(!rxe_psn_in(5, 5, 5));		/* empty */
	/* [0xfffff0, 0x10): both sides of the wrap are in, the ends not */
	CHECK(rxe_psn_in(0xfffff0, 0xfffff0, 0x10));
	CHECK(rxe_psn_in(0xffffff, 0xfffff0, 0x10));
	CHECK(rxe_psn_in(0, 0xfffff0, 0x10));
	CHECK(rxe_psn_in(0xf, 0xfffff0, 0x10));
	CHECK(!rxe_psn_in(0x10, 0xfffff0, 0x10));
	CHECK(!rxe_psn_in(0xffffef, 0xfffff0, 0x10));
	/* a go-back: comp.psn 0xffffff, 128 PSNs out, ACK for the last one */
	CHECK(rxe_psn_in(rxe_psn_add(0xffffff, 127), 0xffffff,
			 rxe_psn_add(0xffffff, 128)));
}

TEST(psn_max_across_the_wrap)
{
	CHECK_EQ(rxe_psn_max(3, 7), 7);
	CHECK_EQ(rxe_psn_max(7, 3), 7);
	CHECK_EQ(rxe_psn_max(5, 5), 5);
	CHECK_EQ(rxe_psn_max(0xfffffe, 2), 2);	/* 2 follows the wrap */
	CHECK_EQ(rxe_psn_max(2, 0xfffffe), 2);
}
