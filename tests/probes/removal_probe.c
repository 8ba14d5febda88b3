// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * removal_probe SECONDS IPV4: for SECONDS, over and over, open
 * /dev/infiniband/rdma_cm, create an id, bind it to IPV4 (which attaches
 * it to the device behind the address), resolve the same address, then
 * ask every QUERY (ADDR, GID, PATH) and QUERY_ROUTE about it a few times
 * and destroy it; every other round the file is closed with the id still
 * in it, so that the close path destroys it.  Meant to run while the
 * device is deleted and added again (tests/guest/cmsec/30-removal.sh): the
 * queries read the id's device while removal detaches it.
 *
 * Raw ucma commands (the layouts of <rdma/rdma_user_cm.h>), so that
 * librdmacm's device cache plays no part.  Errors are expected while the
 * device is away and only counted.  Prints one line:
 *   removal_probe: R rounds, Q queries, D saw a device, E failed
 * and exits 0 if at least one query saw the device.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <rdma/rdma_user_cm.h>

static unsigned long queries, with_device, failed;

static int ucma(int fd, __u32 cmd, const void *body, __u16 in, __u16 out)
{
	char msg[sizeof(struct rdma_ucm_cmd_hdr) + 512];
	struct rdma_ucm_cmd_hdr hdr = { .cmd = cmd, .in = in, .out = out };

	memcpy(msg, &hdr, sizeof(hdr));
	memcpy(msg + sizeof(hdr), body, in);
	return write(fd, msg, sizeof(hdr) + in) == (ssize_t)(sizeof(hdr) + in) ?
	       0 : -errno;
}

static void query(int fd, __u32 id, __u32 option)
{
	struct rdma_ucm_query_addr_resp addr;
	struct rdma_ucm_query cmd = {
		.response = (__u64)(unsigned long)&addr,
		.id = id,
		.option = option,
	};

	memset(&addr, 0, sizeof(addr));
	queries++;
	if (ucma(fd, RDMA_USER_CM_CMD_QUERY, &cmd, sizeof(cmd), sizeof(addr))) {
		failed++;
		return;
	}
	if (option != RDMA_USER_CM_QUERY_PATH && addr.node_guid)
		with_device++;
}

static void query_route(int fd, __u32 id)
{
	struct rdma_ucm_query_route_resp route;
	struct rdma_ucm_query cmd = {
		.response = (__u64)(unsigned long)&route,
		.id = id,
	};

	memset(&route, 0, sizeof(route));
	queries++;
	if (ucma(fd, RDMA_USER_CM_CMD_QUERY_ROUTE, &cmd, sizeof(cmd),
		 sizeof(route))) {
		failed++;
		return;
	}
	if (route.node_guid)
		with_device++;
}

static void round_trip(const struct sockaddr_in *sin, int close_with_id)
{
	struct rdma_ucm_create_id_resp created = { 0 };
	struct rdma_ucm_destroy_id_resp destroyed;
	struct rdma_ucm_create_id create = {
		.uid = 1,
		.response = (__u64)(unsigned long)&created,
		.ps = RDMA_PS_TCP,
		.qp_type = 2,		/* IBV_QPT_RC */
	};
	struct rdma_ucm_bind_ip bind = { 0 };
	struct rdma_ucm_resolve_ip resolve = { 0 };
	struct rdma_ucm_destroy_id destroy = { 0 };
	int fd, i;

	fd = open("/dev/infiniband/rdma_cm", O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		failed++;
		usleep(10000);
		return;
	}
	if (ucma(fd, RDMA_USER_CM_CMD_CREATE_ID, &create, sizeof(create),
		 sizeof(created))) {
		failed++;
		goto out;
	}
	bind.id = created.id;
	memcpy(&bind.addr, sin, sizeof(*sin));
	if (ucma(fd, RDMA_USER_CM_CMD_BIND_IP, &bind, sizeof(bind), 0))
		failed++;
	resolve.id = created.id;
	resolve.timeout_ms = 2000;
	memcpy(&resolve.dst_addr, sin, sizeof(*sin));
	if (ucma(fd, RDMA_USER_CM_CMD_RESOLVE_IP, &resolve, sizeof(resolve), 0))
		failed++;
	for (i = 0; i < 8; i++) {
		query(fd, created.id, RDMA_USER_CM_QUERY_ADDR);
		query(fd, created.id, RDMA_USER_CM_QUERY_GID);
		query(fd, created.id, RDMA_USER_CM_QUERY_PATH);
		query_route(fd, created.id);
	}
	if (!close_with_id) {
		destroy.id = created.id;
		destroy.response = (__u64)(unsigned long)&destroyed;
		if (ucma(fd, RDMA_USER_CM_CMD_DESTROY_ID, &destroy,
			 sizeof(destroy), sizeof(destroyed)))
			failed++;
	}
out:
	close(fd);
}

int main(int argc, char **argv)
{
	struct sockaddr_in sin = { .sin_family = AF_INET };
	unsigned long rounds = 0;
	time_t end;

	if (argc != 3 || inet_pton(AF_INET, argv[2], &sin.sin_addr) != 1) {
		fprintf(stderr, "usage: %s SECONDS IPV4\n", argv[0]);
		return 2;
	}
	end = time(NULL) + atoi(argv[1]);
	while (time(NULL) < end)
		round_trip(&sin, rounds++ & 1);
	printf("removal_probe: %lu rounds, %lu queries, %lu saw a device, %lu failed\n",
	       rounds, queries, with_device, failed);
	return with_device ? 0 : 1;
}
