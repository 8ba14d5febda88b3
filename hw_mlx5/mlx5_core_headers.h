/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The kernel's mlx5 headers over our verbs types: the one way a file of
 * ours includes <linux/mlx5/...>.
 *
 * mlx5_core (in-tree, kept) publishes its interface in <linux/mlx5/...>,
 * and <linux/mlx5/device.h> includes the in-tree <rdma/ib_verbs.h>, whose
 * types are also ours (<ordma/ib_verbs.h>): both in one file give about 250
 * redefinitions.  Of that header, the mlx5 headers (6.1 and 6.12) use only
 *
 *   union ib_gid, enum ib_port_state,         ours (<ordma/ib_verbs.h>)
 *   struct ib_ah (by value in mlx5_ib_ah),
 *   struct ib_device (pointers)
 *   struct ib_grh (by value in mlx5_ext_cqe)   here, the in-tree layout
 *   struct ib_sig_err (by value in             here, the in-tree layout
 *     mlx5_core_sig_ctx; <rdma/signature.h>)
 *   struct rdma_netdev_alloc_params,           declared here (pointers)
 *   struct ib_counters
 *   struct hwtstamp_config (by value in        <linux/net_tstamp.h>, which
 *     mlx5_clock)                              ib_verbs.h brings in itself
 *
 * so this header provides those and defines IB_VERBS_H, the in-tree
 * header's include guard, before the first mlx5 header: device.h's
 * #include <rdma/ib_verbs.h> then opens the file and reads nothing, and no
 * other include/rdma/ header is reached (hw_mlx5/Makefile checks that).
 *
 * Include this before any <linux/mlx5/...> header and instead of them;
 * <ordma/...> headers may come before or after.
 */
#ifndef ORDMA_MLX5_CORE_HEADERS_H
#define ORDMA_MLX5_CORE_HEADERS_H

#ifdef IB_VERBS_H
#error "the in-tree <rdma/ib_verbs.h> came first: include mlx5_core_headers.h before any <linux/mlx5/...> header"
#endif

#include <linux/build_bug.h>
#include <linux/net_tstamp.h>
#include <linux/types.h>
#include <ordma/ib_verbs.h>

/* The Global Route Header (IBTA 8.3): in a 128-byte CQE, the received GRH. */
struct ib_grh {
	__be32 version_tclass_flow;
	__be16 paylen;
	u8 next_hdr;
	u8 hop_limit;
	union ib_gid sgid;
	union ib_gid dgid;
};
static_assert(sizeof(struct ib_grh) == 40);

/* A signature (T10-DIF) check failure as mlx5_core_sig_ctx keeps it. */
enum ib_sig_err_type {
	IB_SIG_BAD_GUARD,
	IB_SIG_BAD_REFTAG,
	IB_SIG_BAD_APPTAG,
};

struct ib_sig_err {
	enum ib_sig_err_type err_type;
	u32 expected;
	u32 actual;
	u64 sig_err_offset;
	u32 key;
};
static_assert(sizeof(struct ib_sig_err) == 32);

/* Only pointed to by the mlx5 headers (IPoIB netdevs, flow counters). */
struct rdma_netdev_alloc_params;
struct ib_counters;

#define IB_VERBS_H

#include <linux/mlx5/driver.h>
#include <linux/mlx5/mlx5_ifc.h>
#include <linux/mlx5/qp.h>
#include <linux/mlx5/cq.h>
#include <linux/mlx5/doorbell.h>
#include <linux/mlx5/eq.h>
#include <linux/mlx5/fs.h>
#include <linux/mlx5/port.h>
#include <linux/mlx5/vport.h>
#include <linux/mlx5/transobj.h>

#endif /* ORDMA_MLX5_CORE_HEADERS_H */
