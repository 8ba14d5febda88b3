// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The QP state table of ib_core (core/qp_state.c) against the IBTA state
 * diagram (10.3.1), the attribute lists of Modify QP (11.2.5.2) and of
 * XRC (Annex A14), written out here by hand per QP type, and against the
 * masks stock rdma-core sends (libibverbs examples, librdmacm's
 * rdma_init_qp_attr, perftest) and our MAD layer sends for QP1.
 */
#include "unit.h"
#include "../../core/qp_state.c"

#define NSTATES (IB_QPS_ERR + 1)

static const enum ib_qp_type types[] = {
	IB_QPT_RC, IB_QPT_UC, IB_QPT_UD, IB_QPT_GSI, IB_QPT_SMI,
	IB_QPT_XRC_INI, IB_QPT_XRC_TGT,
};

/* Every bit of the standard mask, IB_QP_STATE .. IB_QP_DEST_QPN. */
#define STANDARD_BITS	((IB_QP_DEST_QPN << 1) - 1)

/* The transitions IBTA allows besides "any state -> RESET / ERR". */
static bool legal(enum ib_qp_state cur, enum ib_qp_state next)
{
	if (next == IB_QPS_RESET || next == IB_QPS_ERR)
		return true;
	switch (cur) {
	case IB_QPS_RESET:
		return next == IB_QPS_INIT;
	case IB_QPS_INIT:
		return next == IB_QPS_INIT || next == IB_QPS_RTR;
	case IB_QPS_RTR:
		return next == IB_QPS_RTS;
	case IB_QPS_RTS:
		return next == IB_QPS_RTS || next == IB_QPS_SQD;
	case IB_QPS_SQD:
		return next == IB_QPS_RTS || next == IB_QPS_SQD;
	case IB_QPS_SQE:
		return next == IB_QPS_RTS;
	default:
		return false;
	}
}

static bool special(enum ib_qp_type t)
{
	return t == IB_QPT_GSI || t == IB_QPT_SMI;
}

/* What a transition requires, by hand from the spec's tables. */
static int required(enum ib_qp_type t, enum ib_qp_state cur,
		    enum ib_qp_state next)
{
	if (cur == IB_QPS_RESET && next == IB_QPS_INIT) {
		if (special(t))
			return IB_QP_PKEY_INDEX | IB_QP_QKEY;
		if (t == IB_QPT_UD)
			return IB_QP_PKEY_INDEX | IB_QP_PORT | IB_QP_QKEY;
		return IB_QP_PKEY_INDEX | IB_QP_PORT | IB_QP_ACCESS_FLAGS;
	}
	if (cur == IB_QPS_INIT && next == IB_QPS_RTR) {
		int path = IB_QP_AV | IB_QP_PATH_MTU | IB_QP_DEST_QPN |
			   IB_QP_RQ_PSN;

		if (t == IB_QPT_UC || t == IB_QPT_XRC_INI)
			return path;
		if (t == IB_QPT_RC || t == IB_QPT_XRC_TGT)
			return path | IB_QP_MAX_DEST_RD_ATOMIC |
			       IB_QP_MIN_RNR_TIMER;
		return 0;
	}
	if (cur == IB_QPS_RTR && next == IB_QPS_RTS) {
		if (t == IB_QPT_RC || t == IB_QPT_XRC_INI)
			return IB_QP_SQ_PSN | IB_QP_TIMEOUT |
			       IB_QP_RETRY_CNT | IB_QP_RNR_RETRY |
			       IB_QP_MAX_QP_RD_ATOMIC;
		if (t == IB_QPT_XRC_TGT)
			return IB_QP_SQ_PSN | IB_QP_TIMEOUT;
		return IB_QP_SQ_PSN;
	}
	return 0;
}

/* What a transition accepts besides, likewise by hand. */
static int optional(enum ib_qp_type t, enum ib_qp_state cur,
		    enum ib_qp_state next)
{
	int path = IB_QP_CUR_STATE | IB_QP_ACCESS_FLAGS | IB_QP_ALT_PATH |
		   IB_QP_PATH_MIG_STATE;

	if (next == IB_QPS_RESET || next == IB_QPS_ERR)
		return 0;
	if (cur == IB_QPS_INIT && next == IB_QPS_INIT)
		return required(t, IB_QPS_RESET, IB_QPS_INIT);
	if (cur == IB_QPS_INIT && next == IB_QPS_RTR) {
		if (special(t) || t == IB_QPT_UD)
			return IB_QP_PKEY_INDEX | IB_QP_QKEY;
		return IB_QP_ALT_PATH | IB_QP_ACCESS_FLAGS | IB_QP_PKEY_INDEX;
	}
	if (next == IB_QPS_RTS && cur != IB_QPS_SQE) {
		if (special(t) || t == IB_QPT_UD)
			return IB_QP_CUR_STATE | IB_QP_QKEY;
		if (t == IB_QPT_RC || t == IB_QPT_XRC_TGT)
			return path | IB_QP_MIN_RNR_TIMER;
		return path;
	}
	if (cur == IB_QPS_SQE && next == IB_QPS_RTS) {
		if (special(t) || t == IB_QPT_UD)
			return IB_QP_CUR_STATE | IB_QP_QKEY;
		if (t == IB_QPT_UC)
			return IB_QP_CUR_STATE | IB_QP_ACCESS_FLAGS;
		return 0;
	}
	if (cur == IB_QPS_RTS && next == IB_QPS_SQD)
		return IB_QP_EN_SQD_ASYNC_NOTIFY;
	if (cur == IB_QPS_SQD && next == IB_QPS_SQD) {
		int sqd = IB_QP_AV | IB_QP_ALT_PATH | IB_QP_ACCESS_FLAGS |
			  IB_QP_PKEY_INDEX | IB_QP_PATH_MIG_STATE;

		switch (t) {
		case IB_QPT_UC:
			return sqd;
		case IB_QPT_RC:
			return sqd | IB_QP_PORT | IB_QP_TIMEOUT |
			       IB_QP_RETRY_CNT | IB_QP_RNR_RETRY |
			       IB_QP_MAX_QP_RD_ATOMIC |
			       IB_QP_MAX_DEST_RD_ATOMIC | IB_QP_MIN_RNR_TIMER;
		case IB_QPT_XRC_INI:
			return sqd | IB_QP_PORT | IB_QP_TIMEOUT |
			       IB_QP_RETRY_CNT | IB_QP_RNR_RETRY |
			       IB_QP_MAX_QP_RD_ATOMIC;
		case IB_QPT_XRC_TGT:
			return sqd | IB_QP_PORT | IB_QP_TIMEOUT |
			       IB_QP_MAX_DEST_RD_ATOMIC | IB_QP_MIN_RNR_TIMER;
		default:
			return IB_QP_PKEY_INDEX | IB_QP_QKEY;
		}
	}
	return 0;
}

static bool ok(enum ib_qp_type t, enum ib_qp_state cur,
	       enum ib_qp_state next, int mask)
{
	return ib_modify_qp_is_ok(cur, next, t, mask);
}

/* SQE is for unreliable QPs only; what a connected QP does there is moot. */
static bool reachable(enum ib_qp_type t, enum ib_qp_state cur)
{
	return cur != IB_QPS_SQE || t == IB_QPT_UC || t == IB_QPT_UD ||
	       special(t);
}

/* Calls @fn for every type, every state it can be in, every next state. */
static void for_each_case(void (*fn)(enum ib_qp_type t, enum ib_qp_state c,
				     enum ib_qp_state n, int *failed),
			  int *failed)
{
	for (unsigned int i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		for (int c = 0; c < NSTATES; c++)
			for (int n = 0; reachable(types[i], c) && n < NSTATES;
			     n++)
				fn(types[i], c, n, failed);
}

static void legal_with_required(enum ib_qp_type t, enum ib_qp_state c,
				enum ib_qp_state n, int *failed)
{
	if (ok(t, c, n, IB_QP_STATE | required(t, c, n)) != legal(c, n)) {
		printf("  type %d %d -> %d\n", t, c, n);
		*failed = 1;
	}
}

TEST(qp_state_legal_transitions_with_their_required_attributes)
{
	for_each_case(legal_with_required, failed);
}

static void illegal_whatever_the_mask(enum ib_qp_type t, enum ib_qp_state c,
				      enum ib_qp_state n, int *failed)
{
	if (legal(c, n))
		return;
	CHECK(!ok(t, c, n, IB_QP_STATE));
	CHECK(!ok(t, c, n, STANDARD_BITS));
}

TEST(qp_state_illegal_transitions_whatever_the_mask)
{
	for_each_case(illegal_whatever_the_mask, failed);
	/* the usual mistakes of a hand-written modify sequence */
	CHECK(!ok(IB_QPT_RC, IB_QPS_RESET, IB_QPS_RTR, IB_QP_STATE));
	CHECK(!ok(IB_QPT_RC, IB_QPS_INIT, IB_QPS_RTS, IB_QP_STATE));
	CHECK(!ok(IB_QPT_UD, IB_QPS_RTR, IB_QPS_RTR, IB_QP_STATE));
	CHECK(!ok(IB_QPT_UD, IB_QPS_ERR, IB_QPS_RTS, IB_QP_STATE));
	CHECK(!ok(IB_QPT_UC, IB_QPS_RTS, IB_QPS_INIT, IB_QP_STATE));
	CHECK(!ok(IB_QPT_UD, IB_QPS_SQE, IB_QPS_SQD, IB_QP_STATE));
	/* states beyond ERR */
	CHECK(!ok(IB_QPT_UD, IB_QPS_ERR + 1, IB_QPS_RESET, IB_QP_STATE));
	CHECK(!ok(IB_QPT_UD, IB_QPS_RESET, IB_QPS_ERR + 1, IB_QP_STATE));
	CHECK(!ok(IB_QPT_UD, (enum ib_qp_state)-1, IB_QPS_RESET,
		  IB_QP_STATE));
}

static void required_missing(enum ib_qp_type t, enum ib_qp_state c,
			     enum ib_qp_state n, int *failed)
{
	int req = required(t, c, n);

	for (int bit = 1; bit <= req; bit <<= 1)
		if (req & bit)
			CHECK(!ok(t, c, n, (IB_QP_STATE | req) & ~bit));
}

TEST(qp_state_required_attribute_missing)
{
	for_each_case(required_missing, failed);
	/* RTR and RTS of a UD QP require nothing of a path */
	CHECK(ok(IB_QPT_UD, IB_QPS_INIT, IB_QPS_RTR, IB_QP_STATE));
	CHECK(!ok(IB_QPT_UD, IB_QPS_RTR, IB_QPS_RTS, IB_QP_STATE));
	CHECK(!ok(IB_QPT_RC, IB_QPS_RESET, IB_QPS_INIT,
		  IB_QP_STATE | IB_QP_PKEY_INDEX | IB_QP_PORT));
}

static void optional_accepted(enum ib_qp_type t, enum ib_qp_state c,
			      enum ib_qp_state n, int *failed)
{
	int req = IB_QP_STATE | required(t, c, n);
	int opt = optional(t, c, n);

	if (!legal(c, n))
		return;
	for (int bit = 1; bit <= opt; bit <<= 1)
		if (opt & bit)
			CHECK(ok(t, c, n, req | bit));
	CHECK(ok(t, c, n, req | opt));
	/* and nothing besides */
	for (int bit = 1; bit & STANDARD_BITS; bit <<= 1) {
		if (((req | opt) & bit) || !ok(t, c, n, req | bit))
			continue;
		printf("  type %d %d -> %d bit %#x\n", t, c, n, bit);
		*failed = 1;
	}
}

TEST(qp_state_optional_attributes_accepted_one_by_one_and_all_together)
{
	for_each_case(optional_accepted, failed);
	/* the IB_QP_STATE bit itself may be left out (a modify in place) */
	CHECK(ok(IB_QPT_RC, IB_QPS_RTS, IB_QPS_RTS, IB_QP_MIN_RNR_TIMER));
	CHECK(ok(IB_QPT_UD, IB_QPS_RTS, IB_QPS_RTS, 0));
}

TEST(qp_state_unknown_attributes_and_types_refused)
{
	static const int unknown[] = {
		IB_QP_CAP, IB_QP_RATE_LIMIT, 1 << 21, 1 << 24, 1 << 30,
		(int)(1u << 31),
	};
	const int rc_init = IB_QP_STATE | IB_QP_PKEY_INDEX | IB_QP_PORT |
			    IB_QP_ACCESS_FLAGS;

	CHECK(ok(IB_QPT_RC, IB_QPS_RESET, IB_QPS_INIT, rc_init));
	for (unsigned int i = 0; i < sizeof(unknown) / sizeof(unknown[0]); i++) {
		CHECK(!ok(IB_QPT_RC, IB_QPS_RESET, IB_QPS_INIT,
			  rc_init | unknown[i]));
		CHECK(!ok(IB_QPT_UD, IB_QPS_RTS, IB_QPS_RTS,
			  IB_QP_STATE | unknown[i]));
		CHECK(!ok(IB_QPT_RC, IB_QPS_RTS, IB_QPS_ERR,
			  IB_QP_STATE | unknown[i]));
	}
	/* another type's attributes */
	CHECK(!ok(IB_QPT_RC, IB_QPS_RESET, IB_QPS_INIT, rc_init | IB_QP_QKEY));
	CHECK(!ok(IB_QPT_UD, IB_QPS_RESET, IB_QPS_INIT, IB_QP_STATE |
		  IB_QP_PKEY_INDEX | IB_QP_PORT | IB_QP_QKEY |
		  IB_QP_ACCESS_FLAGS));
	CHECK(!ok(IB_QPT_UC, IB_QPS_INIT, IB_QPS_RTR, IB_QP_STATE |
		  IB_QP_AV | IB_QP_PATH_MTU | IB_QP_DEST_QPN | IB_QP_RQ_PSN |
		  IB_QP_MIN_RNR_TIMER));
	/* a special QP's port is fixed when it is created */
	CHECK(!ok(IB_QPT_GSI, IB_QPS_RESET, IB_QPS_INIT, IB_QP_STATE |
		  IB_QP_PKEY_INDEX | IB_QP_PORT | IB_QP_QKEY));
	CHECK(!ok(IB_QPT_GSI, IB_QPS_INIT, IB_QPS_INIT,
		  IB_QP_STATE | IB_QP_PORT));
	/* the current state may be asserted from RTR, RTS, SQD, SQE only */
	CHECK(!ok(IB_QPT_RC, IB_QPS_INIT, IB_QPS_INIT,
		  IB_QP_STATE | IB_QP_CUR_STATE));
	CHECK(!ok(IB_QPT_RC, IB_QPS_RTS, IB_QPS_ERR,
		  IB_QP_STATE | IB_QP_CUR_STATE));
	CHECK(!ok(IB_QPT_UD, IB_QPS_ERR, IB_QPS_RESET,
		  IB_QP_STATE | IB_QP_CUR_STATE));
	CHECK(ok(IB_QPT_UD, IB_QPS_SQE, IB_QPS_RTS,
		 IB_QP_STATE | IB_QP_CUR_STATE));
	/* types the table does not know */
	CHECK(!ok(IB_QPT_RAW_PACKET, IB_QPS_RESET, IB_QPS_INIT,
		  IB_QP_STATE | IB_QP_PORT));
	CHECK(!ok(IB_QPT_RAW_PACKET, IB_QPS_INIT, IB_QPS_RESET, IB_QP_STATE));
	CHECK(!ok(IB_QPT_DRIVER, IB_QPS_INIT, IB_QPS_RESET, IB_QP_STATE));
	CHECK(!ok((enum ib_qp_type)5, IB_QPS_INIT, IB_QPS_RESET, IB_QP_STATE));
}

/* The sequences stock tools and our own MAD layer send, in order. */
TEST(qp_state_what_rdma_core_and_the_mad_layer_send)
{
	/* librdmacm rdma_init_qp_attr() masks for an RC connection */
	CHECK(ok(IB_QPT_RC, IB_QPS_RESET, IB_QPS_INIT, IB_QP_STATE |
		 IB_QP_ACCESS_FLAGS | IB_QP_PKEY_INDEX | IB_QP_PORT));
	CHECK(ok(IB_QPT_RC, IB_QPS_INIT, IB_QPS_RTR, IB_QP_STATE |
		 IB_QP_AV | IB_QP_PATH_MTU | IB_QP_DEST_QPN | IB_QP_RQ_PSN |
		 IB_QP_MAX_DEST_RD_ATOMIC | IB_QP_MIN_RNR_TIMER));
	CHECK(ok(IB_QPT_RC, IB_QPS_RTR, IB_QPS_RTS, IB_QP_STATE |
		 IB_QP_TIMEOUT | IB_QP_RETRY_CNT | IB_QP_RNR_RETRY |
		 IB_QP_SQ_PSN | IB_QP_MAX_QP_RD_ATOMIC));
	/* rdma_cm's UD QP: INIT with a Q_Key, RTR bare, RTS with a PSN */
	CHECK(ok(IB_QPT_UD, IB_QPS_RESET, IB_QPS_INIT, IB_QP_STATE |
		 IB_QP_PKEY_INDEX | IB_QP_PORT | IB_QP_QKEY));
	CHECK(ok(IB_QPT_UD, IB_QPS_INIT, IB_QPS_RTR, IB_QP_STATE));
	CHECK(ok(IB_QPT_UD, IB_QPS_RTR, IB_QPS_RTS,
		 IB_QP_STATE | IB_QP_SQ_PSN));
	/* perftest's UC */
	CHECK(ok(IB_QPT_UC, IB_QPS_INIT, IB_QPS_RTR, IB_QP_STATE |
		 IB_QP_AV | IB_QP_PATH_MTU | IB_QP_DEST_QPN | IB_QP_RQ_PSN));
	CHECK(ok(IB_QPT_UC, IB_QPS_RTR, IB_QPS_RTS,
		 IB_QP_STATE | IB_QP_SQ_PSN));
	/* pyverbs' SQD round trip, with the async notification */
	CHECK(ok(IB_QPT_RC, IB_QPS_RTS, IB_QPS_SQD,
		 IB_QP_STATE | IB_QP_EN_SQD_ASYNC_NOTIFY));
	CHECK(ok(IB_QPT_RC, IB_QPS_SQD, IB_QPS_RTS, IB_QP_STATE));
	/* QP1 as core/mad.c brings it up */
	CHECK(ok(IB_QPT_GSI, IB_QPS_RESET, IB_QPS_INIT,
		 IB_QP_STATE | IB_QP_PKEY_INDEX | IB_QP_QKEY));
	CHECK(ok(IB_QPT_GSI, IB_QPS_INIT, IB_QPS_RTR, IB_QP_STATE));
	CHECK(ok(IB_QPT_GSI, IB_QPS_RTR, IB_QPS_RTS,
		 IB_QP_STATE | IB_QP_SQ_PSN));
	/* teardown from anywhere */
	for (int c = 0; c < NSTATES; c++) {
		CHECK(ok(IB_QPT_RC, c, IB_QPS_ERR, IB_QP_STATE));
		CHECK(ok(IB_QPT_RC, c, IB_QPS_RESET, IB_QP_STATE));
	}
}
