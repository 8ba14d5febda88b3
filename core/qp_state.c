// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The QP state table of Modify QP (see <ordma/qp_state.h>).
 *
 *   RESET -> INIT -> RTR -> RTS <-> SQD      and SQE -> RTS;
 *   INIT -> INIT, RTS -> RTS, SQD -> SQD;    any state -> RESET or ERR.
 *
 * RESET and ERR are reached from every state with the state alone; the
 * other transitions are rows of qp_transitions[], each naming, per class
 * of QP, the attributes the transition requires and those it accepts
 * besides.  A transition without a row is illegal; so is a bit that
 * neither list names (IB_QP_CUR_STATE is accepted only where a row says
 * so, which is from RTR, RTS, SQD and SQE, as IBTA 11.2.5.2 has it).
 */
#include <ordma/qp_state.h>

/* The columns: QP types whose attribute lists are the same share one. */
enum qp_class {
	QPC_SPECIAL,	/* SMI and GSI: port and Q_Key fixed from creation */
	QPC_UD,
	QPC_UC,
	QPC_RC,
	QPC_XRC_INI,	/* the sending half of XRC: RC's requester side */
	QPC_XRC_TGT,	/* the receiving half: RC's responder side */
	QPC_NUM
};

struct qp_transition {
	bool valid;
	u32 req[QPC_NUM];	/* must be given */
	u32 opt[QPC_NUM];	/* may be given */
};

/* RESET -> INIT requires these; INIT -> INIT may change them. */
#define INIT_CONNECTED	(IB_QP_PKEY_INDEX | IB_QP_PORT | IB_QP_ACCESS_FLAGS)
#define INIT_ATTRS {							\
	[QPC_SPECIAL] = IB_QP_PKEY_INDEX | IB_QP_QKEY,			\
	[QPC_UD] = IB_QP_PKEY_INDEX | IB_QP_PORT | IB_QP_QKEY,		\
	[QPC_UC] = INIT_CONNECTED,					\
	[QPC_RC] = INIT_CONNECTED,					\
	[QPC_XRC_INI] = INIT_CONNECTED,					\
	[QPC_XRC_TGT] = INIT_CONNECTED,					\
}

/* A datagram QP may change its P_Key index and Q_Key on the way. */
#define DATAGRAM_KEYS	(IB_QP_PKEY_INDEX | IB_QP_QKEY)

/* The primary path and the receive side a connected QP gets at RTR. */
#define RTR_PATH	(IB_QP_AV | IB_QP_PATH_MTU | IB_QP_DEST_QPN |	\
			 IB_QP_RQ_PSN)
/* What a connected QP's responder needs (RC and XRC target). */
#define RESPONDER	(IB_QP_MAX_DEST_RD_ATOMIC | IB_QP_MIN_RNR_TIMER)
/* What a connected QP's requester needs (RC and XRC initiator). */
#define REQUESTER	(IB_QP_TIMEOUT | IB_QP_RETRY_CNT | IB_QP_RNR_RETRY | \
			 IB_QP_MAX_QP_RD_ATOMIC)
#define CONNECTED_OPT	(IB_QP_ALT_PATH | IB_QP_ACCESS_FLAGS |		\
			 IB_QP_PKEY_INDEX)

/* What RTR -> RTS, RTS -> RTS and SQD -> RTS accept. */
#define RTS_UC_OPT	(IB_QP_CUR_STATE | IB_QP_ACCESS_FLAGS |		\
			 IB_QP_ALT_PATH | IB_QP_PATH_MIG_STATE)
#define RTS_OPT {							\
	[QPC_SPECIAL] = IB_QP_CUR_STATE | IB_QP_QKEY,			\
	[QPC_UD] = IB_QP_CUR_STATE | IB_QP_QKEY,			\
	[QPC_UC] = RTS_UC_OPT,						\
	[QPC_RC] = RTS_UC_OPT | IB_QP_MIN_RNR_TIMER,			\
	[QPC_XRC_INI] = RTS_UC_OPT,					\
	[QPC_XRC_TGT] = RTS_UC_OPT | IB_QP_MIN_RNR_TIMER,		\
}

/* SQD -> SQD: a drained QP may take a new path and new limits. */
#define SQD_PATH	(IB_QP_AV | IB_QP_ALT_PATH | IB_QP_ACCESS_FLAGS | \
			 IB_QP_PKEY_INDEX | IB_QP_PATH_MIG_STATE)

static const struct qp_transition qp_transitions[IB_QPS_ERR + 1][IB_QPS_ERR + 1] = {
	[IB_QPS_RESET][IB_QPS_INIT] = { .valid = true, .req = INIT_ATTRS },
	[IB_QPS_INIT][IB_QPS_INIT] = { .valid = true, .opt = INIT_ATTRS },
	[IB_QPS_INIT][IB_QPS_RTR] = {
		.valid = true,
		.req = {
			[QPC_UC] = RTR_PATH,
			[QPC_RC] = RTR_PATH | RESPONDER,
			[QPC_XRC_INI] = RTR_PATH,
			[QPC_XRC_TGT] = RTR_PATH | RESPONDER,
		},
		.opt = {
			[QPC_SPECIAL] = DATAGRAM_KEYS,
			[QPC_UD] = DATAGRAM_KEYS,
			[QPC_UC] = CONNECTED_OPT,
			[QPC_RC] = CONNECTED_OPT,
			[QPC_XRC_INI] = CONNECTED_OPT,
			[QPC_XRC_TGT] = CONNECTED_OPT,
		},
	},
	[IB_QPS_RTR][IB_QPS_RTS] = {
		.valid = true,
		.req = {
			[QPC_SPECIAL] = IB_QP_SQ_PSN,
			[QPC_UD] = IB_QP_SQ_PSN,
			[QPC_UC] = IB_QP_SQ_PSN,
			[QPC_RC] = IB_QP_SQ_PSN | REQUESTER,
			[QPC_XRC_INI] = IB_QP_SQ_PSN | REQUESTER,
			[QPC_XRC_TGT] = IB_QP_SQ_PSN | IB_QP_TIMEOUT,
		},
		.opt = RTS_OPT,
	},
	[IB_QPS_RTS][IB_QPS_RTS] = { .valid = true, .opt = RTS_OPT },
	[IB_QPS_RTS][IB_QPS_SQD] = {
		.valid = true,
		.opt = {
			[QPC_SPECIAL] = IB_QP_EN_SQD_ASYNC_NOTIFY,
			[QPC_UD] = IB_QP_EN_SQD_ASYNC_NOTIFY,
			[QPC_UC] = IB_QP_EN_SQD_ASYNC_NOTIFY,
			[QPC_RC] = IB_QP_EN_SQD_ASYNC_NOTIFY,
			[QPC_XRC_INI] = IB_QP_EN_SQD_ASYNC_NOTIFY,
			[QPC_XRC_TGT] = IB_QP_EN_SQD_ASYNC_NOTIFY,
		},
	},
	[IB_QPS_SQD][IB_QPS_RTS] = { .valid = true, .opt = RTS_OPT },
	[IB_QPS_SQD][IB_QPS_SQD] = {
		.valid = true,
		.opt = {
			[QPC_SPECIAL] = DATAGRAM_KEYS,
			[QPC_UD] = DATAGRAM_KEYS,
			[QPC_UC] = SQD_PATH,
			[QPC_RC] = SQD_PATH | IB_QP_PORT | REQUESTER |
				   RESPONDER,
			[QPC_XRC_INI] = SQD_PATH | IB_QP_PORT | REQUESTER,
			[QPC_XRC_TGT] = SQD_PATH | IB_QP_PORT |
					IB_QP_TIMEOUT | RESPONDER,
		},
	},
	/* only unreliable QPs enter SQE: RC and XRC have no column here */
	[IB_QPS_SQE][IB_QPS_RTS] = {
		.valid = true,
		.opt = {
			[QPC_SPECIAL] = IB_QP_CUR_STATE | IB_QP_QKEY,
			[QPC_UD] = IB_QP_CUR_STATE | IB_QP_QKEY,
			[QPC_UC] = IB_QP_CUR_STATE | IB_QP_ACCESS_FLAGS,
		},
	},
};

static int qp_class(enum ib_qp_type type)
{
	switch (type) {
	case IB_QPT_SMI:
	case IB_QPT_GSI:
		return QPC_SPECIAL;
	case IB_QPT_UD:
		return QPC_UD;
	case IB_QPT_UC:
		return QPC_UC;
	case IB_QPT_RC:
		return QPC_RC;
	case IB_QPT_XRC_INI:
		return QPC_XRC_INI;
	case IB_QPT_XRC_TGT:
		return QPC_XRC_TGT;
	default:
		return -1;
	}
}

bool ib_modify_qp_is_ok(enum ib_qp_state cur, enum ib_qp_state next,
			enum ib_qp_type type, int attr_mask)
{
	const struct qp_transition *t;
	u32 mask = attr_mask, req = 0, opt = 0;
	int column = qp_class(type);

	if (column < 0 || (u32)cur > IB_QPS_ERR || (u32)next > IB_QPS_ERR)
		return false;
	if (next != IB_QPS_RESET && next != IB_QPS_ERR) {
		t = &qp_transitions[cur][next];
		if (!t->valid)
			return false;
		req = t->req[column];
		opt = t->opt[column];
	}
	return (mask & req) == req && !(mask & ~(req | opt | IB_QP_STATE));
}

#ifdef __KERNEL__
#include <linux/export.h>
EXPORT_SYMBOL(ib_modify_qp_is_ok);
#endif
