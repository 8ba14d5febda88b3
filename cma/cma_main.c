// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* RDMA connection manager: placeholder until the module lands. */
#include <linux/module.h>
#include <ordma/rdma_cm.h>
#include <ordma/version.h>

static int __init cma_main_init(void)
{
	return 0;
}

static void __exit cma_main_exit(void)
{
}

module_init(cma_main_init);
module_exit(cma_main_exit);

MODULE_DESCRIPTION("RDMA connection manager (out-of-tree)");
MODULE_LICENSE("Dual BSD/GPL");
MODULE_VERSION(ORDMA_VERSION);
