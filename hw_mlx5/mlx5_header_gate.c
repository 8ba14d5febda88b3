// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Build gate, not a module: every header of ours and the kernel's mlx5
 * headers in one translation unit, through mlx5_core_headers.h.  `make
 * check` compiles it (sparse, W=1) on each kernel we build for; nothing
 * links it and DKMS never sees it.  The assertions pin what mlx5_core,
 * built against the in-tree types, and a driver of ours built against
 * ours must agree on: the layouts the mlx5 headers embed by value and the
 * values firmware reports in an ib_port_state.
 */
#include <linux/stddef.h>
#include <ordma/compat.h>
#include <ordma/ib_cm.h>
#include <ordma/ib_core.h>
#include <ordma/ib_mad.h>
#include <ordma/ib_verbs.h>
#include <ordma/rdma_cm.h>
#include <ordma/version.h>
#include "mlx5_core_headers.h"

/* union mlx5_ext_cqe: a received GRH in the first half of a 128-byte CQE. */
static_assert(sizeof(union ib_gid) == 16);
static_assert(offsetof(struct ib_grh, sgid) == 8);
static_assert(offsetof(struct ib_grh, dgid) == 24);
static_assert(sizeof(union mlx5_ext_cqe) == 64);
static_assert(offsetof(struct mlx5_cqe128, cqe64) == 64);
static_assert(sizeof(struct mlx5_cqe128) == 128);

/* struct mlx5_core_sig_ctx embeds the in-tree struct ib_sig_err. */
static_assert(offsetof(struct ib_sig_err, expected) == 4);
static_assert(offsetof(struct ib_sig_err, actual) == 8);
static_assert(offsetof(struct ib_sig_err, sig_err_offset) == 16);
static_assert(offsetof(struct ib_sig_err, key) == 24);

/*
 * mlx5_query_hca_vport_context() stores the firmware's PortState
 * (IBTA 14.2.5.6) in vport_state, an int-sized enum ib_port_state.
 */
static_assert(sizeof(((struct mlx5_hca_vport_context *)NULL)->vport_state) ==
	      sizeof(int));
static_assert(IB_PORT_DOWN == 1 && IB_PORT_INIT == 2 &&
	      IB_PORT_ARMED == 3 && IB_PORT_ACTIVE == 4);

/* mlx5_ib_ah wraps our ib_ah: core allocates it as rxe's objects are. */
static_assert(offsetof(struct mlx5_ib_ah, ibah) == 0);
