// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The physical reference of the benchmark: how fast this (emulated) CPU
 * copies 64 KiB buffers, which bounds what a software RDMA stack that
 * copies each byte once per side can reach.  Prints "memcpy MB/s: N".
 *
 *   memcpy_bw [BYTES [SECONDS]]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	size_t len = argc > 1 ? strtoul(argv[1], NULL, 0) : 65536;
	double secs = argc > 2 ? atof(argv[2]) : 1.0;
	unsigned long rounds = 0;
	double start, end;
	char *src, *dst;

	src = malloc(len);
	dst = malloc(len);
	if (!src || !dst || !len)
		return 1;
	memset(src, 0x5a, len);
	memset(dst, 0, len);
	start = now();
	do {
		/* a batch between clock reads; the barrier keeps every copy */
		for (int i = 0; i < 64; i++) {
			memcpy(dst, src, len);
			__asm__ __volatile__("" : : "r"(dst) : "memory");
		}
		rounds += 64;
		end = now();
	} while (end - start < secs);
	printf("memcpy MB/s: %.2f\n", rounds * (double)len / (end - start) / 1e6);
	return dst[len - 1] == 0x5a ? 0 : 1;
}
