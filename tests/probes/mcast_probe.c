// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Attaching a UD QP to a multicast group makes the device listen to it;
 * any process may attach, so the IP-level memberships (IGMP) this costs
 * must stay within net.ipv4.igmp_max_memberships, as a socket's do,
 * while every attach still succeeds.
 *
 *   mcast_probe NETDEV COUNT
 *
 * Attaches one QP to COUNT groups 239.1.1.1..COUNT, counts NETDEV's IPv4
 * memberships among them (ip maddr), detaches, counts again.  Prints
 * "mcast attached=N ip_joined=M after_detach=K".
 */
#include <infiniband/verbs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void die(const char *what)
{
	fprintf(stderr, "mcast_probe: %s failed\n", what);
	exit(1);
}

static int ip_memberships(const char *netdev)
{
	char cmd[128], line[256];
	FILE *f;
	int n = 0;

	snprintf(cmd, sizeof(cmd), "ip maddr show dev %s", netdev);
	f = popen(cmd, "r");
	if (!f)
		die("ip maddr");
	while (fgets(line, sizeof(line), f))
		if (strstr(line, "inet  239.1.1.") || strstr(line, "inet 239.1.1."))
			n++;
	pclose(f);
	return n;
}

static void group(union ibv_gid *gid, int i)
{
	memset(gid, 0, sizeof(*gid));
	gid->raw[10] = 0xff;
	gid->raw[11] = 0xff;
	gid->raw[12] = 239;
	gid->raw[13] = 1;
	gid->raw[14] = 1;
	gid->raw[15] = i;
}

int main(int argc, char **argv)
{
	const char *netdev = argc > 1 ? argv[1] : "eth0";
	int count = argc > 2 ? atoi(argv[2]) : 30, attached = 0, joined, i;
	struct ibv_device **devs = ibv_get_device_list(NULL);
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	struct ibv_cq *cq;
	struct ibv_qp *qp;
	union ibv_gid gid;

	if (count < 1 || count > 250)
		die("COUNT in 1..250");
	if (!devs || !devs[0] || !(ctx = ibv_open_device(devs[0])) ||
	    !(pd = ibv_alloc_pd(ctx)) ||
	    !(cq = ibv_create_cq(ctx, 4, NULL, NULL, 0)))
		die("device, PD or CQ");
	struct ibv_qp_init_attr qa = {
		.send_cq = cq, .recv_cq = cq, .qp_type = IBV_QPT_UD,
		.cap = { .max_send_wr = 1, .max_recv_wr = 1,
			 .max_send_sge = 1, .max_recv_sge = 1 },
	};
	qp = ibv_create_qp(pd, &qa);
	if (!qp)
		die("create QP");
	for (i = 1; i <= count; i++) {
		group(&gid, i);
		attached += !ibv_attach_mcast(qp, &gid, 0);
	}
	joined = ip_memberships(netdev);
	for (i = 1; i <= count; i++) {
		group(&gid, i);
		ibv_detach_mcast(qp, &gid, 0);
	}
	printf("mcast attached=%d ip_joined=%d after_detach=%d\n", attached,
	       joined, ip_memberships(netdev));
	return 0;
}
