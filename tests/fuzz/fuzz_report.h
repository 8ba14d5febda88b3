/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * What the fuzzers (uverbs_fuzz, ucma_fuzz) print about a seed's errnos:
 * the five most frequent, "ENAME:count" comma-separated, so that a run's
 * summary line shows at a glance what the kernel refused and how often.
 */
#ifndef ORDMA_TESTS_FUZZ_REPORT_H
#define ORDMA_TESTS_FUZZ_REPORT_H

#include <stdio.h>
#include <string.h>

/* @errs: 256 counters indexed by errno (consumed: zeroed as printed). */
static inline void fuzz_errno_top(unsigned long *errs, char *top, size_t size)
{
	int i, e;

	top[0] = '\0';
	for (i = 0; i < 5; i++) {
		int best = -1;

		for (e = 0; e < 256; e++)
			if (errs[e] && (best < 0 || errs[e] > errs[best]))
				best = e;
		if (best < 0)
			break;
		snprintf(top + strlen(top), size - strlen(top), "%s%s:%lu",
			 i ? "," : "", strerrorname_np(best) ?: "?", errs[best]);
		errs[best] = 0;
	}
}

#endif
