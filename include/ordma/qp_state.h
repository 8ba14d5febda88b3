/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * QP types, QP states and the attribute mask of Modify QP, and the one
 * table every driver checks a modify against: ib_modify_qp_is_ok()
 * (core/qp_state.c) answers whether @cur -> @next is a transition IBTA
 * allows (10.3.1, and Annex A14 for XRC) and whether @attr_mask gives
 * every attribute that transition requires and none it does not accept
 * (11.2.5.2).  The values an attribute carries, and whether the QP's
 * state really is @cur, stay the driver's to check.
 *
 * Pure: includes only <ordma/pure.h> and a UAPI header, so tests/unit
 * checks the table in userspace.
 */
#ifndef ORDMA_QP_STATE_H
#define ORDMA_QP_STATE_H

#include <ordma/pure.h>
#ifdef __KERNEL__
#include <uapi/rdma/ib_user_ioctl_verbs.h>
#else
#include <rdma/ib_user_ioctl_verbs.h>
#endif

/* QP types: the UAPI's values, plus the special QPs. */
enum ib_qp_type {
	IB_QPT_SMI = 0,
	IB_QPT_GSI = 1,
	IB_QPT_RC = IB_UVERBS_QPT_RC,
	IB_QPT_UC = IB_UVERBS_QPT_UC,
	IB_QPT_UD = IB_UVERBS_QPT_UD,
	IB_QPT_RAW_PACKET = IB_UVERBS_QPT_RAW_PACKET,
	IB_QPT_XRC_INI = IB_UVERBS_QPT_XRC_INI,
	IB_QPT_XRC_TGT = IB_UVERBS_QPT_XRC_TGT,
	IB_QPT_DRIVER = IB_UVERBS_QPT_DRIVER,
};

/* QP states (IBTA 10.3.1); libibverbs' enum ibv_qp_state matches. */
enum ib_qp_state {
	IB_QPS_RESET,
	IB_QPS_INIT,
	IB_QPS_RTR,
	IB_QPS_RTS,
	IB_QPS_SQD,
	IB_QPS_SQE,
	IB_QPS_ERR,
};

/* MODIFY_QP / QUERY_QP attribute mask (enum ibv_qp_attr_mask). */
#define IB_QP_STATE			(1 << 0)
#define IB_QP_CUR_STATE			(1 << 1)
#define IB_QP_EN_SQD_ASYNC_NOTIFY	(1 << 2)
#define IB_QP_ACCESS_FLAGS		(1 << 3)
#define IB_QP_PKEY_INDEX		(1 << 4)
#define IB_QP_PORT			(1 << 5)
#define IB_QP_QKEY			(1 << 6)
#define IB_QP_AV			(1 << 7)
#define IB_QP_PATH_MTU			(1 << 8)
#define IB_QP_TIMEOUT			(1 << 9)
#define IB_QP_RETRY_CNT			(1 << 10)
#define IB_QP_RNR_RETRY			(1 << 11)
#define IB_QP_RQ_PSN			(1 << 12)
#define IB_QP_MAX_QP_RD_ATOMIC		(1 << 13)
#define IB_QP_ALT_PATH			(1 << 14)
#define IB_QP_MIN_RNR_TIMER		(1 << 15)
#define IB_QP_SQ_PSN			(1 << 16)
#define IB_QP_MAX_DEST_RD_ATOMIC	(1 << 17)
#define IB_QP_PATH_MIG_STATE		(1 << 18)
#define IB_QP_CAP			(1 << 19)
#define IB_QP_DEST_QPN			(1 << 20)
#define IB_QP_RATE_LIMIT		(1 << 25)
/* Every bit the modify_qp/query_qp of the target kernel may carry. */
#define IB_QP_ATTR_MASK_ALL		((IB_QP_RATE_LIMIT << 1) - 1)

/*
 * Whether a QP of @type in @cur may be modified to @next with the
 * attributes @attr_mask names (IB_QP_STATE always may be given; without
 * it the caller passes @next == @cur).  Types the table does not know
 * (RAW_PACKET, DRIVER) and bits it does not list for the transition
 * (IB_QP_CAP, IB_QP_RATE_LIMIT, anything unnamed) are refused.
 */
bool ib_modify_qp_is_ok(enum ib_qp_state cur, enum ib_qp_state next,
			enum ib_qp_type type, int attr_mask);

#endif
