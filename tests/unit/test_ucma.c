// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdma_ucm's pure ABI layer (ucma/ucma_abi.c): the command size table
 * against the UAPI layouts librdmacm 44 writes (sizes counted by hand from
 * <rdma/rdma_user_cm.h>), the header checks' errnos, and RoCE paths
 * converted to struct ib_user_path_rec and to the 64-byte SA PathRecord,
 * byte for byte.
 */
#include <errno.h>
#include "unit.h"
#include "../../ucma/ucma_abi.c"

TEST(ucma_cmd_sizes_match_the_uapi_layouts)
{
	static const struct { u32 cmd; u16 in, min_in, min_out; } want[] = {
		{ RDMA_USER_CM_CMD_CREATE_ID, 24, 24, 4 },
		{ RDMA_USER_CM_CMD_DESTROY_ID, 16, 16, 4 },
		{ RDMA_USER_CM_CMD_BIND_IP, 40, 40, 0 },
		{ RDMA_USER_CM_CMD_RESOLVE_IP, 64, 64, 0 },
		{ RDMA_USER_CM_CMD_RESOLVE_ROUTE, 8, 8, 0 },
		{ RDMA_USER_CM_CMD_QUERY_ROUTE, 16, 16, 200 },
		{ RDMA_USER_CM_CMD_CONNECT, 288, 280, 0 },
		{ RDMA_USER_CM_CMD_LISTEN, 8, 8, 0 },
		{ RDMA_USER_CM_CMD_ACCEPT, 296, 288, 0 },
		{ RDMA_USER_CM_CMD_REJECT, 264, 264, 0 },
		{ RDMA_USER_CM_CMD_DISCONNECT, 4, 4, 0 },
		{ RDMA_USER_CM_CMD_INIT_QP_ATTR, 16, 16, 144 },
		{ RDMA_USER_CM_CMD_GET_EVENT, 8, 8, 324 },
		{ RDMA_USER_CM_CMD_GET_OPTION, 0, 0, 0 },
		{ RDMA_USER_CM_CMD_SET_OPTION, 24, 24, 0 },
		{ RDMA_USER_CM_CMD_NOTIFY, 8, 8, 0 },
		{ RDMA_USER_CM_CMD_JOIN_IP_MCAST, 48, 48, 4 },
		{ RDMA_USER_CM_CMD_LEAVE_MCAST, 16, 16, 4 },
		{ RDMA_USER_CM_CMD_MIGRATE_ID, 16, 16, 4 },
		{ RDMA_USER_CM_CMD_QUERY, 16, 16, 0 },
		{ RDMA_USER_CM_CMD_BIND, 136, 136, 0 },
		{ RDMA_USER_CM_CMD_RESOLVE_ADDR, 272, 272, 0 },
		{ RDMA_USER_CM_CMD_JOIN_MCAST, 152, 152, 4 },
	};

	CHECK_EQ(UCMA_CMD_COUNT, 23);
	CHECK_EQ(sizeof(want) / sizeof(want[0]), UCMA_CMD_COUNT);
	for (unsigned int i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		const struct ucma_cmd_size *s = &ucma_cmd_sizes[want[i].cmd];

		CHECK_EQ(want[i].cmd, i);
		CHECK_EQ(s->in, want[i].in);
		CHECK_EQ(s->min_in, want[i].min_in);
		CHECK_EQ(s->min_out, want[i].min_out);
	}
	/* The responses librdmacm reads. */
	CHECK_EQ(sizeof(struct rdma_ucm_event_resp), 336);
	CHECK_EQ(sizeof(struct rdma_ucm_query_route_resp), 208);
	CHECK_EQ(sizeof(struct rdma_ucm_query_addr_resp), 280);
	CHECK_EQ(sizeof(struct ib_path_rec_data), 72);
	CHECK_EQ(sizeof(struct ib_user_path_rec), 64);
}

static int check_hdr(u32 cmd, u16 in, u16 out, size_t len)
{
	struct rdma_ucm_cmd_hdr hdr = { .cmd = cmd, .in = in, .out = out };

	return ucma_cmd_check(&hdr, len);
}

TEST(ucma_cmd_check_errnos)
{
	/* CREATE_ID as librdmacm writes it. */
	CHECK_EQ(check_hdr(RDMA_USER_CM_CMD_CREATE_ID, 24, 4, 32), 0);
	/* Shorter than a header, or hdr.in past the end of the write. */
	CHECK_EQ(check_hdr(RDMA_USER_CM_CMD_CREATE_ID, 24, 4, 7), -EINVAL);
	CHECK_EQ(check_hdr(RDMA_USER_CM_CMD_CREATE_ID, 24, 4, 31), -EINVAL);
	CHECK_EQ(check_hdr(RDMA_USER_CM_CMD_CREATE_ID, 0xffff, 4, 32), -EINVAL);
	/* A request shorter than its structure. */
	CHECK_EQ(check_hdr(RDMA_USER_CM_CMD_CREATE_ID, 23, 4, 31), -EINVAL);
	/* A response buffer too small to write into. */
	CHECK_EQ(check_hdr(RDMA_USER_CM_CMD_CREATE_ID, 24, 3, 32), -ENOSPC);
	CHECK_EQ(check_hdr(RDMA_USER_CM_CMD_GET_EVENT, 8, 323, 16), -ENOSPC);
	CHECK_EQ(check_hdr(RDMA_USER_CM_CMD_GET_EVENT, 8, 324, 16), 0);
	/* Unknown commands: never implemented, and past the table. */
	CHECK_EQ(check_hdr(RDMA_USER_CM_CMD_GET_OPTION, 0, 0, 8), -ENOSYS);
	CHECK_EQ(check_hdr(23, 0, 0, 8), -ENOSYS);
	CHECK_EQ(check_hdr(0xffffffff, 0, 0, 8), -ENOSYS);
	/* CONNECT and ACCEPT without the trailing ECE. */
	CHECK_EQ(check_hdr(RDMA_USER_CM_CMD_CONNECT, 280, 0, 288), 0);
	CHECK_EQ(check_hdr(RDMA_USER_CM_CMD_CONNECT, 279, 0, 288), -EINVAL);
	CHECK_EQ(check_hdr(RDMA_USER_CM_CMD_ACCEPT, 288, 0, 296), 0);
	/* Extra bytes after a full request are accepted (and ignored). */
	CHECK_EQ(check_hdr(RDMA_USER_CM_CMD_DISCONNECT, 64, 0, 72), 0);
}

/* rping's route: 10.0.2.15 to itself, as rdma_cm resolves it on rxe0. */
static const struct ucma_roce_path rping_path = {
	.sgid = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 10, 0, 2, 15 },
	.dgid = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 10, 0, 2, 15 },
	.flow_label = 0,
	.hop_limit = 64,
	.traffic_class = 0,
	.sl = 0,
	.mtu = 3,		/* IB_MTU_1024 */
	.rate = 0,		/* IB_RATE_PORT_CURRENT */
	.packet_life_time = 16,
	.pkey = 0xffff,
};

/* Every field distinct and using its full width. */
static const struct ucma_roce_path odd_path = {
	.sgid = { 0xfd, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x15 },
	.dgid = { 0xfd, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x16 },
	.flow_label = 0xabcde,
	.hop_limit = 0x7f,
	.traffic_class = 0xb8,
	.sl = 5,
	.mtu = 5,		/* IB_MTU_4096 */
	.rate = 7,		/* IB_RATE_40_GBPS */
	.packet_life_time = 0x3f,
	.pkey = 0x8001,
};

TEST(ucma_path_pack_is_the_sa_pathrecord)
{
	static const u8 rping_rec[64] = {
		/* ServiceID */
		0, 0, 0, 0, 0, 0, 0, 0,
		/* DGID, SGID */
		0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 10, 0, 2, 15,
		0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 10, 0, 2, 15,
		/* DLID, SLID; RawTraffic FlowLabel HopLimit */
		0, 0, 0, 0, 0x00, 0x00, 0x00, 64,
		/* TClass, Reversible NumbPath, P_Key, QosClass SL */
		0, 0x80, 0xff, 0xff, 0x00, 0x00,
		/* MTU, Rate, PacketLifeTime (selector 2: exactly) */
		0x83, 0x80, 0x90,
		/* Preference, reserved */
		0, 0, 0, 0, 0, 0, 0,
	};
	static const u8 odd_rec[64] = {
		0, 0, 0, 0, 0, 0, 0, 0,
		0xfd, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x16,
		0xfd, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x15,
		0, 0, 0, 0, 0x0a, 0xbc, 0xde, 0x7f,
		0xb8, 0x80, 0x80, 0x01, 0x00, 0x05,
		0x85, 0x87, 0xbf,
		0, 0, 0, 0, 0, 0, 0,
	};
	struct ib_path_rec_data data;

	memset(&data, 0xaa, sizeof(data));
	ucma_path_pack(&data, &rping_path);
	CHECK_EQ(data.flags, IB_PATH_GMP | IB_PATH_PRIMARY |
			     IB_PATH_OUTBOUND | IB_PATH_INBOUND_REVERSE);
	CHECK_EQ(data.flags, 0x2b);
	CHECK_EQ(data.reserved, 0);
	CHECK_MEM(data.path_rec, rping_rec, 64);

	ucma_path_pack(&data, &odd_path);
	CHECK_MEM(data.path_rec, odd_rec, 64);
}

TEST(ucma_path_to_user_is_ib_user_path_rec)
{
	static const u8 odd_user[64] = {
		/* dgid, sgid */
		0xfd, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x16,
		0xfd, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x15,
		/* dlid, slid (big endian), raw_traffic (host u32) */
		0, 0, 0, 0, 0, 0, 0, 0,
		/* flow_label (big endian), reversible, mtu (host u32) */
		0x00, 0x0a, 0xbc, 0xde, 1, 0, 0, 0, 5, 0, 0, 0,
		/* pkey (big endian), hop_limit, traffic_class, numb_path */
		0x80, 0x01, 0x7f, 0xb8, 0,
		/* sl, mtu_sel, rate_sel, rate, plt_sel, plt, preference */
		5, 2, 2, 7, 2, 0x3f, 0,
	};
	struct ib_user_path_rec rec;
	union { u8 b[16]; struct ib_user_path_rec r; } gids;

	memset(&rec, 0xaa, sizeof(rec));
	ucma_path_to_user(&rec, &odd_path);
	CHECK_MEM(&rec, odd_user, 64);

	ucma_path_to_user(&rec, &rping_path);
	CHECK_EQ(rec.mtu, 3);
	CHECK_EQ(rec.packet_life_time, 16);
	CHECK_EQ(rec.hop_limit, 64);
	CHECK_MEM(rec.sgid, rping_path.sgid, 16);

	/* No path yet: GIDs and the default P_Key only. */
	memset(&gids, 0, sizeof(gids));
	ucma_route_gids_to_user(&gids.r, odd_path.sgid, odd_path.dgid);
	CHECK_MEM(gids.r.sgid, odd_path.sgid, 16);
	CHECK_MEM(gids.r.dgid, odd_path.dgid, 16);
	CHECK_MEM(&gids.r.pkey, "\xff\xff", 2);
	CHECK_EQ(gids.r.mtu, 0);
}
