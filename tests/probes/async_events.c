// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Print the asynchronous events of an RDMA device as they arrive:
 *
 *   async_events DEV COUNT SECONDS
 *
 * prints "ready", then one line per event ("PORT_ERR port 1", ...) until
 * COUNT port events (PORT_ACTIVE/PORT_ERR; other events are printed but
 * not counted) were seen or SECONDS passed without any event.  Exit status
 * 0 when COUNT port events arrived.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <infiniband/verbs.h>

static const char *event_name(enum ibv_event_type t)
{
	switch (t) {
	case IBV_EVENT_PORT_ACTIVE: return "PORT_ACTIVE";
	case IBV_EVENT_PORT_ERR: return "PORT_ERR";
	case IBV_EVENT_GID_CHANGE: return "GID_CHANGE";
	case IBV_EVENT_DEVICE_FATAL: return "DEVICE_FATAL";
	case IBV_EVENT_LID_CHANGE: return "LID_CHANGE";
	case IBV_EVENT_PKEY_CHANGE: return "PKEY_CHANGE";
	default: return "OTHER";
	}
}

int main(int argc, char **argv)
{
	struct ibv_device **list, *dev = NULL;
	struct ibv_async_event ev;
	struct ibv_context *ctx;
	struct pollfd pfd;
	int i, n, want, secs, seen = 0;

	if (argc != 4) {
		fprintf(stderr, "usage: async_events DEV COUNT SECONDS\n");
		return 2;
	}
	want = atoi(argv[2]);
	secs = atoi(argv[3]);
	list = ibv_get_device_list(&n);
	for (i = 0; list && i < n; i++)
		if (!strcmp(ibv_get_device_name(list[i]), argv[1]))
			dev = list[i];
	if (!dev || !(ctx = ibv_open_device(dev))) {
		printf("cannot open %s\n", argv[1]);
		return 1;
	}
	printf("ready\n");
	fflush(stdout);

	pfd.fd = ctx->async_fd;
	pfd.events = POLLIN;
	while (seen < want && poll(&pfd, 1, secs * 1000) == 1) {
		if (ibv_get_async_event(ctx, &ev))
			break;
		printf("%s port %d\n", event_name(ev.event_type),
		       ev.element.port_num);
		fflush(stdout);
		if (ev.event_type == IBV_EVENT_PORT_ACTIVE ||
		    ev.event_type == IBV_EVENT_PORT_ERR)
			seen++;
		ibv_ack_async_event(&ev);
	}
	ibv_close_device(ctx);
	ibv_free_device_list(list);
	return seen == want ? 0 : 1;
}
