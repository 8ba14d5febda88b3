/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* A minimal test harness: each TEST registers itself; main() runs them all. */
#ifndef UNIT_H
#define UNIT_H

#include <stdio.h>
#include <string.h>

struct unit_test {
	const char *name;
	void (*fn)(int *failed);
	struct unit_test *next;
};

void unit_register(struct unit_test *t);

#define TEST(name)							\
	static void name(int *failed);					\
	static struct unit_test name##_desc = { #name, name, NULL };	\
	__attribute__((constructor)) static void name##_reg(void)	\
	{ unit_register(&name##_desc); }				\
	static void name(int *failed)

#define CHECK(cond)							\
	do {								\
		if (!(cond)) {						\
			printf("  %s:%d: CHECK(%s) failed\n", __FILE__,	\
			       __LINE__, #cond);			\
			*failed = 1;					\
		}							\
	} while (0)

#define CHECK_EQ(a, b)							\
	do {								\
		long long _a = (long long)(a), _b = (long long)(b);	\
		if (_a != _b) {						\
			printf("  %s:%d: %s == %lld, expected %s == %lld\n", \
			       __FILE__, __LINE__, #a, _a, #b, _b);	\
			*failed = 1;					\
		}							\
	} while (0)

#define CHECK_MEM(a, b, n)						\
	do {								\
		if (memcmp((a), (b), (n))) {				\
			printf("  %s:%d: %s differs from %s\n", __FILE__, \
			       __LINE__, #a, #b);			\
			*failed = 1;					\
		}							\
	} while (0)

#endif
