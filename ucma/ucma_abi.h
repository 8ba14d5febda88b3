/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The rdma_ucm write() ABI as data: which request and response sizes each
 * command accepts (ucma_cmd_sizes[], checked once by ucma_cmd_check()),
 * and how a RoCE path becomes the two path-record shapes userspace reads:
 * struct ib_user_path_rec (QUERY_ROUTE) and the 64-byte SA PathRecord in
 * struct ib_path_rec_data (QUERY with RDMA_USER_CM_QUERY_PATH).
 *
 * Pure: builds in the kernel and in tests/unit.
 */
#ifndef UCMA_ABI_H
#define UCMA_ABI_H

#include <ordma/pure.h>
#ifdef __KERNEL__
#include <linux/stddef.h>
#include <uapi/rdma/rdma_user_cm.h>
#else
#include <stddef.h>
#include <rdma/rdma_user_cm.h>
#endif

/* Commands are numbered 0 .. UCMA_CMD_COUNT - 1. */
#define UCMA_CMD_COUNT	(RDMA_USER_CM_CMD_JOIN_MCAST + 1)

/*
 * @in: the request structure's size; the kernel reads min(hdr.in, @in)
 * bytes and zero-fills the rest.  @min_in: what hdr.in must at least be
 * (smaller than @in where later fields are optional, e.g. the ECE of
 * CONNECT and ACCEPT).  @min_out: what hdr.out must at least be (0 for
 * commands without a response, or whose response size depends on the
 * request, as QUERY's does).  @in == 0: the command is not implemented.
 */
struct ucma_cmd_size {
	u16 in;
	u16 min_in;
	u16 min_out;
};

extern const struct ucma_cmd_size ucma_cmd_sizes[UCMA_CMD_COUNT];

/*
 * Validate a command header against a write() of @len bytes.  Returns 0,
 * -EINVAL (short write, hdr.in past the write, request too short),
 * -ENOSYS (unknown command) or -ENOSPC (response buffer too small).
 */
int ucma_cmd_check(const struct rdma_ucm_cmd_hdr *hdr, size_t len);

/* A resolved RoCE path, as rdma_cm keeps it (host order). */
struct ucma_roce_path {
	u8 sgid[16];
	u8 dgid[16];
	u32 flow_label;		/* 20 bits */
	u8 hop_limit;
	u8 traffic_class;
	u8 sl;
	u8 mtu;			/* enum ib_mtu */
	u8 rate;		/* enum ib_rate; 0: the port's current rate */
	u8 packet_life_time;
	u16 pkey;
};

/* The SA "exactly" selector, which RoCE paths use for MTU, rate, lifetime. */
#define UCMA_SA_EQ	2

void ucma_path_to_user(struct ib_user_path_rec *dst,
		       const struct ucma_roce_path *src);
/* @dst: the 64-byte SA PathRecord, network order (IBTA 15.2.5.16). */
void ucma_path_pack(struct ib_path_rec_data *dst,
		    const struct ucma_roce_path *src);
/* QUERY_ROUTE with no path yet: only the GIDs and the default P_Key. */
void ucma_route_gids_to_user(struct ib_user_path_rec *dst,
			     const u8 sgid[16], const u8 dgid[16]);

#endif
