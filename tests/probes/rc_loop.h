/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * For the guest-side probes: take an RC QP of port 1 through INIT, RTR and
 * RTS towards @dest, a QP of the same process reached at @gid (one of this
 * host's addresses, GID index @gid_index).  Remote read and write allowed,
 * MTU 1024, 4 reads/atomics in flight, retries at their maximum, the
 * local ACK timeout @timeout, the first send PSN @sq_psn.  Returns the
 * name of the step that failed, or NULL.
 */
#ifndef RC_LOOP_H
#define RC_LOOP_H

#include <infiniband/verbs.h>
#include <string.h>

static inline const char *rc_loop_connect_psn(struct ibv_qp *qp,
					      uint32_t dest, int gid_index,
					      const union ibv_gid *gid,
					      uint8_t timeout, uint32_t sq_psn)
{
	struct ibv_qp_attr a = {
		.qp_state = IBV_QPS_INIT, .port_num = 1,
		.qp_access_flags = IBV_ACCESS_REMOTE_WRITE |
				   IBV_ACCESS_REMOTE_READ,
	};

	if (ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX |
			  IBV_QP_PORT | IBV_QP_ACCESS_FLAGS))
		return "INIT";
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTR;
	a.path_mtu = IBV_MTU_1024;
	a.dest_qp_num = dest;
	a.max_dest_rd_atomic = 4;
	a.min_rnr_timer = 1;
	a.ah_attr.is_global = 1;
	a.ah_attr.port_num = 1;
	a.ah_attr.grh.dgid = *gid;
	a.ah_attr.grh.sgid_index = gid_index;
	a.ah_attr.grh.hop_limit = 64;
	if (ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU |
			  IBV_QP_DEST_QPN | IBV_QP_RQ_PSN |
			  IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER))
		return "RTR";
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTS;
	a.timeout = timeout;
	a.retry_cnt = 7;
	a.rnr_retry = 7;
	a.max_rd_atomic = 4;
	a.sq_psn = sq_psn;
	if (ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_TIMEOUT |
			  IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY |
			  IBV_QP_SQ_PSN | IBV_QP_MAX_QP_RD_ATOMIC))
		return "RTS";
	return NULL;
}

/* The same with the first PSN 0 (the peer's receive PSN is 0 too). */
static inline const char *rc_loop_connect_timeout(struct ibv_qp *qp,
						  uint32_t dest, int gid_index,
						  const union ibv_gid *gid,
						  uint8_t timeout)
{
	return rc_loop_connect_psn(qp, dest, gid_index, gid, timeout, 0);
}

/* The same with the local ACK timeout 14 (67 ms). */
static inline const char *rc_loop_connect(struct ibv_qp *qp, uint32_t dest,
					  int gid_index,
					  const union ibv_gid *gid)
{
	return rc_loop_connect_timeout(qp, dest, gid_index, gid, 14);
}

#endif
