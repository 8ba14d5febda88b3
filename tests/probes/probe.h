/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * What the guest-side probes share: a completion polled for with a
 * deadline (a probe must print a verdict, never hang on a lost
 * completion), and the start addresses of this process's uverbs mappings
 * (a probe that writes into a ring finds it as the mapping an object's
 * creation added), and the device's hw counters (how a probe sees a drop
 * the stack counted).
 */
#ifndef PROBE_H
#define PROBE_H

#include <infiniband/verbs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static inline double probe_now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

/* One completion of @cq into @wc within @secs: 1, or 0 when none came. */
static inline int probe_poll(struct ibv_cq *cq, struct ibv_wc *wc,
			     double secs)
{
	double t0 = probe_now();
	int n;

	do {
		n = ibv_poll_cq(cq, 1, wc);
		if (n)
			return n;
	} while (probe_now() - t0 < secs);
	return 0;
}

/* Start addresses of the uverbs mappings, up to @max; -1 without maps. */
static inline int uverbs_maps(unsigned long *starts, int max)
{
	char line[512];
	FILE *f = fopen("/proc/self/maps", "r");
	int n = 0;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f) && n < max)
		if (strstr(line, "/dev/infiniband/uverbs"))
			starts[n++] = strtoul(line, NULL, 16);
	fclose(f);
	return n;
}

/* A context on the device called @name, or NULL. */
static inline struct ibv_context *probe_open_device(const char *name)
{
	struct ibv_device **list = ibv_get_device_list(NULL);
	struct ibv_context *ctx = NULL;

	for (int i = 0; list && list[i] && !ctx; i++)
		if (!strcmp(ibv_get_device_name(list[i]), name))
			ctx = ibv_open_device(list[i]);
	if (list)
		ibv_free_device_list(list);
	return ctx;
}

/* The hw counter @name of port 1 of @dev, or -1 when it has none. */
static inline long long probe_hw_counter(const char *dev, const char *name)
{
	char path[256];
	long long v = -1;
	FILE *f;

	snprintf(path, sizeof(path),
		 "/sys/class/infiniband/%s/ports/1/hw_counters/%s", dev, name);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (fscanf(f, "%lld", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

#endif
