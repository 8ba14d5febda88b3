// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Open an RDMA device through libibverbs, allocate a PD, say "ready", and
 * hold both until a line arrives on stdin; then try a verb on the context
 * and release everything, reporting each result.  Used to remove a device
 * from under an open context:
 *
 *   hold_pd DEV   ->  "ready", then after input:
 *                     "query_device <errno name or OK>"
 *                     "dealloc_pd <...>" "close_device <...>"
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <infiniband/verbs.h>

static const char *res(int err)
{
	return err ? strerrorname_np(err) : "OK";
}

int main(int argc, char **argv)
{
	struct ibv_device **list, *dev = NULL;
	struct ibv_device_attr attr;
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	char line[16];
	int i, n;

	if (argc != 2) {
		fprintf(stderr, "usage: hold_pd DEV\n");
		return 2;
	}
	list = ibv_get_device_list(&n);
	for (i = 0; list && i < n; i++)
		if (!strcmp(ibv_get_device_name(list[i]), argv[1]))
			dev = list[i];
	if (!dev) {
		printf("no device %s\n", argv[1]);
		return 1;
	}
	ctx = ibv_open_device(dev);
	if (!ctx) {
		printf("open_device %s\n", res(errno));
		return 1;
	}
	pd = ibv_alloc_pd(ctx);
	if (!pd) {
		printf("alloc_pd %s\n", res(errno));
		return 1;
	}
	printf("ready\n");
	fflush(stdout);

	if (!fgets(line, sizeof(line), stdin))
		line[0] = 0;
	printf("query_device %s\n", res(ibv_query_device(ctx, &attr)));
	printf("dealloc_pd %s\n", res(ibv_dealloc_pd(pd)));
	printf("close_device %s\n", res(ibv_close_device(ctx)));
	ibv_free_device_list(list);
	return 0;
}
