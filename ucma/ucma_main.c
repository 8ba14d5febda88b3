// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* RDMA connection manager userspace access: placeholder until the module lands. */
#include <linux/module.h>
#include <ordma/rdma_cm.h>
#include <ordma/version.h>

static int __init ucma_main_init(void)
{
	return 0;
}

static void __exit ucma_main_exit(void)
{
}

module_init(ucma_main_init);
module_exit(ucma_main_exit);

MODULE_DESCRIPTION("RDMA connection manager userspace access (out-of-tree)");
MODULE_LICENSE("Dual BSD/GPL");
MODULE_VERSION(ORDMA_VERSION);
