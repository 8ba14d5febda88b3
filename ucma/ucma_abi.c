// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The rdma_ucm command size table and the RoCE path record conversions
 * (see ucma_abi.h).  Sizes are the in-tree UAPI structures'; the response
 * minimums are what the in-tree module demands before it writes (librdmacm
 * 44 always passes the full structures).
 */
#include "ucma_abi.h"

#ifdef __KERNEL__
#include <linux/errno.h>
#else
#include <errno.h>
#endif

#define CMD(name, req, min_req, min_resp)				\
	[RDMA_USER_CM_CMD_##name] = {					\
		.in = sizeof(req), .min_in = (min_req),			\
		.min_out = (min_resp) }
#define CMD_FIXED(name, req, min_resp) CMD(name, req, sizeof(req), min_resp)

const struct ucma_cmd_size ucma_cmd_sizes[UCMA_CMD_COUNT] = {
	CMD_FIXED(CREATE_ID, struct rdma_ucm_create_id,
		  sizeof(struct rdma_ucm_create_id_resp)),
	CMD_FIXED(DESTROY_ID, struct rdma_ucm_destroy_id,
		  sizeof(struct rdma_ucm_destroy_id_resp)),
	CMD_FIXED(BIND_IP, struct rdma_ucm_bind_ip, 0),
	CMD_FIXED(RESOLVE_IP, struct rdma_ucm_resolve_ip, 0),
	CMD_FIXED(RESOLVE_ROUTE, struct rdma_ucm_resolve_route, 0),
	/* The response may stop before ibdev_index (older librdmacm). */
	CMD_FIXED(QUERY_ROUTE, struct rdma_ucm_query,
		  offsetof(struct rdma_ucm_query_route_resp, ibdev_index)),
	CMD(CONNECT, struct rdma_ucm_connect,
	    offsetof(struct rdma_ucm_connect, ece), 0),
	CMD_FIXED(LISTEN, struct rdma_ucm_listen, 0),
	CMD(ACCEPT, struct rdma_ucm_accept,
	    offsetof(struct rdma_ucm_accept, ece), 0),
	CMD_FIXED(REJECT, struct rdma_ucm_reject, 0),
	CMD_FIXED(DISCONNECT, struct rdma_ucm_disconnect, 0),
	CMD_FIXED(INIT_QP_ATTR, struct rdma_ucm_init_qp_attr,
		  sizeof(struct ib_uverbs_qp_attr)),
	/* 32-bit librdmacm leaves out the tail padding and the ECE. */
	CMD_FIXED(GET_EVENT, struct rdma_ucm_get_event,
		  offsetof(struct rdma_ucm_event_resp, reserved)),
	/* GET_OPTION: never implemented, in-tree either. */
	CMD_FIXED(SET_OPTION, struct rdma_ucm_set_option, 0),
	CMD_FIXED(NOTIFY, struct rdma_ucm_notify, 0),
	CMD_FIXED(JOIN_IP_MCAST, struct rdma_ucm_join_ip_mcast,
		  sizeof(struct rdma_ucm_create_id_resp)),
	CMD_FIXED(LEAVE_MCAST, struct rdma_ucm_destroy_id,
		  sizeof(struct rdma_ucm_destroy_id_resp)),
	CMD_FIXED(MIGRATE_ID, struct rdma_ucm_migrate_id,
		  sizeof(struct rdma_ucm_migrate_resp)),
	/* The response's size depends on the option: checked by QUERY. */
	CMD_FIXED(QUERY, struct rdma_ucm_query, 0),
	CMD_FIXED(BIND, struct rdma_ucm_bind, 0),
	CMD_FIXED(RESOLVE_ADDR, struct rdma_ucm_resolve_addr, 0),
	CMD_FIXED(JOIN_MCAST, struct rdma_ucm_join_mcast,
		  sizeof(struct rdma_ucm_create_id_resp)),
};

int ucma_cmd_check(const struct rdma_ucm_cmd_hdr *hdr, size_t len)
{
	const struct ucma_cmd_size *size;

	if (len < sizeof(*hdr) || hdr->in > len - sizeof(*hdr))
		return -EINVAL;
	if (hdr->cmd >= UCMA_CMD_COUNT)
		return -ENOSYS;
	size = &ucma_cmd_sizes[hdr->cmd];
	if (!size->in)
		return -ENOSYS;
	if (hdr->in < size->min_in)
		return -EINVAL;
	if (hdr->out < size->min_out)
		return -ENOSPC;
	return 0;
}

static void put_be16(void *p, u16 v)
{
	u8 *b = p;

	b[0] = v >> 8;
	b[1] = v;
}

static void put_be32(void *p, u32 v)
{
	u8 *b = p;

	b[0] = v >> 24;
	b[1] = v >> 16;
	b[2] = v >> 8;
	b[3] = v;
}

void ucma_route_gids_to_user(struct ib_user_path_rec *dst,
			     const u8 sgid[16], const u8 dgid[16])
{
	memcpy(dst->sgid, sgid, 16);
	memcpy(dst->dgid, dgid, 16);
	put_be16(&dst->pkey, 0xffff);
}

/*
 * RoCE has no LIDs and no SA: DLID/SLID stay 0, the path is reversible,
 * the selectors say "exactly", and numb_path and preference are 0.
 */
void ucma_path_to_user(struct ib_user_path_rec *dst,
		       const struct ucma_roce_path *src)
{
	memset(dst, 0, sizeof(*dst));
	memcpy(dst->dgid, src->dgid, 16);
	memcpy(dst->sgid, src->sgid, 16);
	put_be32(&dst->flow_label, src->flow_label & 0xfffff);
	dst->reversible = 1;
	dst->mtu = src->mtu;
	put_be16(&dst->pkey, src->pkey);
	dst->hop_limit = src->hop_limit;
	dst->traffic_class = src->traffic_class;
	dst->sl = src->sl;
	dst->mtu_selector = UCMA_SA_EQ;
	dst->rate_selector = UCMA_SA_EQ;
	dst->rate = src->rate;
	dst->packet_life_time_selector = UCMA_SA_EQ;
	dst->packet_life_time = src->packet_life_time;
}

/*
 * PathRecord, bytes: 0 ServiceID, 8 DGID, 24 SGID, 40 DLID, 42 SLID,
 * 44 RawTraffic:1 rsvd:3 FlowLabel:20 HopLimit:8, 48 TClass,
 * 49 Reversible:1 NumbPath:7, 50 P_Key, 52 QosClass:12 SL:4,
 * 54 MTUSelector:2 MTU:6, 55 RateSelector:2 Rate:6,
 * 56 PacketLifeTimeSelector:2 PacketLifeTime:6, 57 Preference, 58 rsvd.
 */
void ucma_path_pack(struct ib_path_rec_data *dst,
		    const struct ucma_roce_path *src)
{
	u8 *rec = (u8 *)dst->path_rec;

	memset(dst, 0, sizeof(*dst));
	dst->flags = IB_PATH_GMP | IB_PATH_PRIMARY | IB_PATH_BIDIRECTIONAL;
	memcpy(rec + 8, src->dgid, 16);
	memcpy(rec + 24, src->sgid, 16);
	put_be32(rec + 44, (src->flow_label & 0xfffff) << 8 | src->hop_limit);
	rec[48] = src->traffic_class;
	rec[49] = 0x80;			/* reversible, NumbPath 0 */
	put_be16(rec + 50, src->pkey);
	put_be16(rec + 52, src->sl & 0xf);
	rec[54] = UCMA_SA_EQ << 6 | (src->mtu & 0x3f);
	rec[55] = UCMA_SA_EQ << 6 | (src->rate & 0x3f);
	rec[56] = UCMA_SA_EQ << 6 | (src->packet_life_time & 0x3f);
}
