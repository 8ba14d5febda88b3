// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Can this process give a UD QP a controlled Q_Key (high bit set)?  The
 * kernel allows it with CAP_NET_RAW, or to anyone while nldev's
 * privileged-qkey mode is on (`rdma system set privileged-qkey on`).
 *
 *   qkey_probe        prints "controlled_qkey OK" or "controlled_qkey ERRNO"
 */
#include <infiniband/verbs.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

int main(void)
{
	struct ibv_device **devs = ibv_get_device_list(NULL);
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	struct ibv_cq *cq;
	struct ibv_qp *qp;
	int ret;

	if (!devs || !devs[0] || !(ctx = ibv_open_device(devs[0])) ||
	    !(pd = ibv_alloc_pd(ctx)) ||
	    !(cq = ibv_create_cq(ctx, 4, NULL, NULL, 0))) {
		fprintf(stderr, "qkey_probe: device, PD or CQ failed\n");
		return 1;
	}
	struct ibv_qp_init_attr qa = {
		.send_cq = cq, .recv_cq = cq, .qp_type = IBV_QPT_UD,
		.cap = { .max_send_wr = 1, .max_recv_wr = 1,
			 .max_send_sge = 1, .max_recv_sge = 1 },
	};
	qp = ibv_create_qp(pd, &qa);
	if (!qp) {
		fprintf(stderr, "qkey_probe: create QP failed\n");
		return 1;
	}
	struct ibv_qp_attr a = {
		.qp_state = IBV_QPS_INIT, .port_num = 1, .qkey = 0x80000001,
	};
	ret = ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX |
			    IBV_QP_PORT | IBV_QP_QKEY);
	printf("controlled_qkey %s\n", !ret ? "OK" : ret == EPERM ? "EPERM" :
	       strerror(ret));
	return 0;
}
