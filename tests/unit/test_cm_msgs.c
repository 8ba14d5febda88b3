// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * CM message layouts against bytes worked out by hand from the IBTA
 * tables (offsets count from the start of the MAD data area).
 */
#include "unit.h"
#include "../../cm/cm_msgs.h"

static const u8 gid_a[16] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff,
			      10, 0, 2, 15 };
static const u8 gid_b[16] = { 0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0x50, 0x54,
			      0, 0xff, 0xfe, 0x12, 0x34, 0x56 };

TEST(cm_private_data_fills_the_mad)
{
	CHECK_EQ(CM_REQ_PDATA_OFF + CM_REQ_PDATA_LEN, CM_MSG_SIZE);
	CHECK_EQ(CM_MRA_PDATA_OFF + CM_MRA_PDATA_LEN, CM_MSG_SIZE);
	CHECK_EQ(CM_REJ_PDATA_OFF + CM_REJ_PDATA_LEN, CM_MSG_SIZE);
	CHECK_EQ(CM_REJ_ARI_OFF + CM_REJ_ARI_LEN, CM_REJ_PDATA_OFF);
	CHECK_EQ(CM_REP_PDATA_OFF + CM_REP_PDATA_LEN, CM_MSG_SIZE);
	CHECK_EQ(CM_RTU_PDATA_OFF + CM_RTU_PDATA_LEN, CM_MSG_SIZE);
	CHECK_EQ(CM_DREQ_PDATA_OFF + CM_DREQ_PDATA_LEN, CM_MSG_SIZE);
	CHECK_EQ(CM_DREP_PDATA_OFF + CM_DREP_PDATA_LEN, CM_MSG_SIZE);
	CHECK_EQ(CM_SIDR_REQ_PDATA_OFF + CM_SIDR_REQ_PDATA_LEN, CM_MSG_SIZE);
	CHECK_EQ(CM_SIDR_REP_PDATA_OFF + CM_SIDR_REP_PDATA_LEN, CM_MSG_SIZE);
	CHECK_EQ(CM_SIDR_REP_INFO_OFF + CM_SIDR_REP_INFO_LEN,
		 CM_SIDR_REP_PDATA_OFF);
	CHECK_EQ(CM_REQ_PDATA_LEN, 92);
	CHECK_EQ(CM_MRA_PDATA_LEN, 222);
	CHECK_EQ(CM_REJ_PDATA_LEN, 148);
	CHECK_EQ(CM_REP_PDATA_LEN, 196);
	CHECK_EQ(CM_RTU_PDATA_LEN, 224);
	CHECK_EQ(CM_DREQ_PDATA_LEN, 220);
	CHECK_EQ(CM_DREP_PDATA_LEN, 224);
	CHECK_EQ(CM_SIDR_REQ_PDATA_LEN, 216);
	CHECK_EQ(CM_SIDR_REP_PDATA_LEN, 136);
}

static struct cm_req sample_req(void)
{
	struct cm_req r = {
		.local_comm_id = 0x11223344,
		.service_id = 0x0000000001060000ull | 0x4d2,  /* RDMA_PS_TCP:1234 */
		.local_ca_guid = 0x5054000000123456ull,
		.local_qkey = 0,
		.local_qpn = 0xabcdef,
		.responder_resources = 4,
		.initiator_depth = 3,
		.remote_cm_response_timeout = 20,
		.transport = CM_TRANSPORT_RC,
		.flow_control = 1,
		.starting_psn = 0x123456,
		.local_cm_response_timeout = 18,
		.retry_count = 7,
		.pkey = 0xffff,
		.path_mtu = 3,		/* IB_MTU_1024 */
		.rnr_retry_count = 6,
		.max_cm_retries = 15,
		.srq = 0,
		.primary = {
			.local_lid = 0xffff, .remote_lid = 0xffff,
			.flow_label = 0xabcde,
			.packet_rate = 2,
			.traffic_class = 0x20,
			.hop_limit = 64,
			.sl = 5,
			.subnet_local = 1,
			.local_ack_timeout = 19,
		},
	};

	memcpy(r.primary.local_gid, gid_a, 16);
	memcpy(r.primary.remote_gid, gid_b, 16);
	return r;
}

TEST(cm_req_packs_to_hand_computed_bytes)
{
	struct cm_req r = sample_req();
	u8 m[CM_MSG_SIZE] = {};

	cm_req_pack(m, &r);
	static const u8 head[] = {
		0x11, 0x22, 0x33, 0x44, 0, 0, 0, 0,		/* 0: comm id */
		0, 0, 0, 0, 0x01, 0x06, 0x04, 0xd2,		/* 8: service */
		0x50, 0x54, 0, 0, 0, 0x12, 0x34, 0x56,		/* 16: guid */
		0, 0, 0, 0, 0, 0, 0, 0,				/* 24: qkey */
		0xab, 0xcd, 0xef, 4,				/* 32: qpn|rr */
		0, 0, 0, 3,					/* 36: id */
		0, 0, 0, (20 << 3) | (0 << 1) | 1,		/* 40 */
		0x12, 0x34, 0x56, (18 << 3) | 7,		/* 44: psn */
		0xff, 0xff, (3 << 4) | 6, (15 << 4),		/* 48 */
		0xff, 0xff, 0xff, 0xff,				/* 52: lids */
	};
	CHECK_MEM(m, head, sizeof(head));
	CHECK_MEM(m + 56, gid_a, 16);
	CHECK_MEM(m + 72, gid_b, 16);
	/* flow label 0xabcde in the top 20 bits, rate in the low 6 */
	CHECK_EQ(m[88], 0xab);
	CHECK_EQ(m[89], 0xcd);
	CHECK_EQ(m[90], 0xe0);
	CHECK_EQ(m[91], 0x02);
	CHECK_EQ(m[92], 0x20);
	CHECK_EQ(m[93], 64);
	CHECK_EQ(m[94], (5 << 4) | (1 << 3));
	CHECK_EQ(m[95], 19 << 3);
	for (int i = 96; i < CM_MSG_SIZE; i++)
		CHECK_EQ(m[i], 0);
}

TEST(cm_req_round_trips)
{
	struct cm_req r = sample_req(), u;
	u8 m[CM_MSG_SIZE] = {};

	cm_req_pack(m, &r);
	memset(&u, 0x5a, sizeof(u));
	cm_req_unpack(m, &u);
	CHECK_EQ(u.local_comm_id, r.local_comm_id);
	CHECK_EQ(u.service_id, r.service_id);
	CHECK_EQ(u.local_ca_guid, r.local_ca_guid);
	CHECK_EQ(u.local_qpn, r.local_qpn);
	CHECK_EQ(u.responder_resources, 4);
	CHECK_EQ(u.initiator_depth, 3);
	CHECK_EQ(u.remote_cm_response_timeout, 20);
	CHECK_EQ(u.transport, CM_TRANSPORT_RC);
	CHECK_EQ(u.flow_control, 1);
	CHECK_EQ(u.starting_psn, 0x123456);
	CHECK_EQ(u.local_cm_response_timeout, 18);
	CHECK_EQ(u.retry_count, 7);
	CHECK_EQ(u.pkey, 0xffff);
	CHECK_EQ(u.path_mtu, 3);
	CHECK_EQ(u.rdc_exists, 0);
	CHECK_EQ(u.rnr_retry_count, 6);
	CHECK_EQ(u.max_cm_retries, 15);
	CHECK_EQ(u.srq, 0);
	CHECK_EQ(u.primary.flow_label, 0xabcde);
	CHECK_EQ(u.primary.packet_rate, 2);
	CHECK_EQ(u.primary.traffic_class, 0x20);
	CHECK_EQ(u.primary.hop_limit, 64);
	CHECK_EQ(u.primary.sl, 5);
	CHECK_EQ(u.primary.subnet_local, 1);
	CHECK_EQ(u.primary.local_ack_timeout, 19);
	CHECK_MEM(u.primary.local_gid, gid_a, 16);
	CHECK_MEM(u.primary.remote_gid, gid_b, 16);
	CHECK_EQ(u.alternate.local_lid, 0);
}

TEST(cm_rep_packs_to_hand_computed_bytes)
{
	struct cm_rep r = {
		.local_comm_id = 0xa1a2a3a4, .remote_comm_id = 0x11223344,
		.local_qkey = 0x01020304, .local_qpn = 0x000011,
		.starting_psn = 0xfedcba, .responder_resources = 1,
		.initiator_depth = 2, .target_ack_delay = 31,
		.failover_accepted = 1, .flow_control = 1,
		.rnr_retry_count = 7, .srq = 1,
		.local_ca_guid = 0x0102030405060708ull,
	}, u;
	static const u8 want[36] = {
		0xa1, 0xa2, 0xa3, 0xa4, 0x11, 0x22, 0x33, 0x44,
		1, 2, 3, 4, 0, 0, 0x11, 0,
		0, 0, 0, 0, 0xfe, 0xdc, 0xba, 0,
		1, 2, (31 << 3) | (1 << 1) | 1, (7 << 5) | (1 << 4),
		1, 2, 3, 4, 5, 6, 7, 8,
	};
	u8 m[CM_MSG_SIZE] = {};

	cm_rep_pack(m, &r);
	CHECK_MEM(m, want, sizeof(want));
	cm_rep_unpack(m, &u);
	CHECK_EQ(u.local_qpn, 0x11);
	CHECK_EQ(u.starting_psn, 0xfedcba);
	CHECK_EQ(u.target_ack_delay, 31);
	CHECK_EQ(u.failover_accepted, 1);
	CHECK_EQ(u.flow_control, 1);
	CHECK_EQ(u.rnr_retry_count, 7);
	CHECK_EQ(u.srq, 1);
	CHECK_EQ(u.local_ca_guid, 0x0102030405060708ull);
}

TEST(cm_mra_rej_pack_their_bit_fields)
{
	struct cm_mra mra = { 1, 2, CM_ANSWERS_REP, 23 }, mu;
	struct cm_rej rej = { 3, 4, CM_ANSWERS_OTHER, 72, 8 }, ru;
	u8 m[CM_MSG_SIZE] = {};

	cm_mra_pack(m, &mra);
	CHECK_EQ(m[3], 1);
	CHECK_EQ(m[7], 2);
	CHECK_EQ(m[8], 0x40);
	CHECK_EQ(m[9], 23 << 3);
	cm_mra_unpack(m, &mu);
	CHECK_EQ(mu.message_mraed, CM_ANSWERS_REP);
	CHECK_EQ(mu.service_timeout, 23);

	memset(m, 0, sizeof(m));
	cm_rej_pack(m, &rej);
	CHECK_EQ(m[3], 3);
	CHECK_EQ(m[7], 4);
	CHECK_EQ(m[8], 0x80);
	CHECK_EQ(m[9], 72 << 1);
	CHECK_EQ(m[10], 0);
	CHECK_EQ(m[11], 8);	/* invalid service ID */
	cm_rej_unpack(m, &ru);
	CHECK_EQ(ru.message_rejected, CM_ANSWERS_OTHER);
	CHECK_EQ(ru.ari_length, 72);
	CHECK_EQ(ru.reason, 8);
}

TEST(cm_dreq_carries_the_remote_qpn)
{
	struct cm_ids d = { 0x01020304, 0x05060708, 0x123456 }, u;
	static const u8 want[12] = { 1, 2, 3, 4, 5, 6, 7, 8,
				     0x12, 0x34, 0x56, 0 };
	u8 m[CM_MSG_SIZE] = {};

	cm_dreq_pack(m, &d);
	CHECK_MEM(m, want, sizeof(want));
	cm_dreq_unpack(m, &u);
	CHECK_EQ(u.remote_qpn, 0x123456);
	memset(m, 0, sizeof(m));
	cm_ids_pack(m, &d);	/* RTU / DREP */
	CHECK_MEM(m, want, 8);
	CHECK_EQ(m[8], 0);
}

TEST(cm_sidr_pack_to_hand_computed_bytes)
{
	struct cm_sidr_req q = { 0xdeadbeef, 0xffff, 0x0000000001110000ull };
	struct cm_sidr_rep p = { 0xdeadbeef, 0, 0, 0x000042,
				 0x0000000001110000ull, 0x01234567 };
	struct cm_sidr_rep pu;
	static const u8 wq[16] = { 0xde, 0xad, 0xbe, 0xef, 0xff, 0xff, 0, 0,
				   0, 0, 0, 0, 0x01, 0x11, 0, 0 };
	static const u8 wp[24] = { 0xde, 0xad, 0xbe, 0xef, 0, 0, 0, 0,
				   0, 0, 0x42, 0, 0, 0, 0, 0,
				   0x01, 0x11, 0, 0, 0x01, 0x23, 0x45, 0x67 };
	u8 m[CM_MSG_SIZE] = {};

	cm_sidr_req_pack(m, &q);
	CHECK_MEM(m, wq, sizeof(wq));
	memset(m, 0, sizeof(m));
	cm_sidr_rep_pack(m, &p);
	CHECK_MEM(m, wp, sizeof(wp));
	cm_sidr_rep_unpack(m, &pu);
	CHECK_EQ(pu.qpn, 0x42);
	CHECK_EQ(pu.qkey, 0x01234567);
	CHECK_EQ(pu.service_id, 0x0000000001110000ull);
}

TEST(cm_timeout_ms_is_4096ns_times_2_to_the_n)
{
	CHECK_EQ(cm_timeout_ms(0), 1);
	CHECK_EQ(cm_timeout_ms(8), 1);		/* 1.05 ms */
	CHECK_EQ(cm_timeout_ms(18), 1073);
	CHECK_EQ(cm_timeout_ms(20), 4294);
	CHECK_EQ(cm_timeout_ms(24), 68719);
}

/*
 * The exponents come from the peer (REQ, REP, MRA): 31 would hold an id
 * for 2.4 hours per try.  Past 2^24 (68.7 s, what the in-tree rdma_cm
 * asks for in its MRA) they are capped.
 */
TEST(cm_timeout_ms_caps_what_a_peer_asks_for)
{
	CHECK_EQ(cm_timeout_ms(25), 68719);
	CHECK_EQ(cm_timeout_ms(31), 68719);
}
