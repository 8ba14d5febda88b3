/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Test-only pause points.  A few races with device removal can only be
 * tested if one thread is held at a chosen step while removal runs.  A
 * pause point marks such a step; a test arms it (debugfs
 * ib_test_pause/<point>: write 1), the next thread to pass it sleeps there
 * until the test releases it (write 0), and reading the file says "idle",
 * "armed" or "paused".  Nothing is held beyond TEST_PAUSE_MAX_S, so a test
 * that dies cannot wedge the kernel.  Unarmed (the default), a point costs
 * one atomic read.  Not an interface for anything but the tests in
 * tests/kmod and tests/guest.
 */
#ifndef ORDMA_TEST_PAUSE_H
#define ORDMA_TEST_PAUSE_H

#include <linux/atomic.h>
#include <linux/compiler.h>

enum ib_test_pause_point {
	/* rdma_cm: an id is DESTROYING but still attached to its device */
	IB_TEST_PAUSE_CMA_DESTROY,
	/* ib_cm: a send buffer is being made on a port's MAD agent */
	IB_TEST_PAUSE_CM_MAKE_BUF,
	/* rdma_ucm: a QUERY / QUERY_ROUTE is reading the id's device */
	IB_TEST_PAUSE_UCMA_QUERY,
	/* MAD layer: QP1 is in ERR, its recovery about to reset it */
	IB_TEST_PAUSE_MAD_RECOVER,
	IB_TEST_PAUSE_NR
};

#define TEST_PAUSE_MAX_S	120

extern atomic_t ib_test_pause_armed[IB_TEST_PAUSE_NR];
void __ib_test_pause(enum ib_test_pause_point point);

/* Test-only: sleep here if a test armed @point (see above). */
static inline void ib_test_pause(enum ib_test_pause_point point)
{
	if (unlikely(atomic_read(&ib_test_pause_armed[point])))
		__ib_test_pause(point);
}

/*
 * For a kernel selftest that must not go on before its own thread is held
 * at @point: true once one is, false after @ms without.
 */
bool ib_test_pause_wait_paused(enum ib_test_pause_point point,
			       unsigned int ms);

#endif
