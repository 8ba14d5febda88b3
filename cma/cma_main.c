// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * RDMA connection manager (rdma_cm.ko): connection management by IP
 * address over ib_cm on RoCE ports.  cma.c owns the ids and devices,
 * cma_addr.c address and route resolution, cma_ports.c the port spaces,
 * cma_ib.c the ib_cm glue (with SIDR), cma_mcast.c multicast.
 */
#include <linux/module.h>
#include <ordma/rdma_cm.h>
#include <ordma/version.h>
#include "cma_priv.h"

static int __init cma_main_init(void)
{
	return cma_init();
}

static void __exit cma_main_exit(void)
{
	cma_exit();
}

module_init(cma_main_init);
module_exit(cma_main_exit);

MODULE_DESCRIPTION("RDMA connection manager (out-of-tree)");
MODULE_LICENSE("Dual BSD/GPL");
MODULE_VERSION(ORDMA_VERSION);
