// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * RDMA connection manager (rdma_cm.ko): connection management by IP
 * address over ib_cm on RoCE ports.  cma.c owns the ids and devices,
 * cma_addr.c address and route resolution, cma_ports.c the port spaces,
 * cma_ib.c the ib_cm glue (with SIDR), cma_mcast.c multicast.
 */
#include <linux/module.h>
#include <linux/workqueue.h>
#include <ordma/rdma_cm.h>
#include <ordma/version.h>
#include "cma_priv.h"

/*
 * cma_wq first: address resolution and the address layer's notifiers
 * (address and netdev events) queue work on it, and the layer's exit
 * flushes it.  The address layer before the client, so that an id on a
 * device the client is told of can resolve at once.
 */
static int __init cma_main_init(void)
{
	int ret;

	cma_wq = alloc_ordered_workqueue("rdma_cm", WQ_MEM_RECLAIM);
	if (!cma_wq)
		return -ENOMEM;
	ret = cma_addr_init();
	if (ret)
		goto err_wq;
	ret = ib_register_client(&cma_client);
	if (ret)
		goto err_addr;
	return 0;

err_addr:
	cma_addr_exit();
err_wq:
	destroy_workqueue(cma_wq);
	return ret;
}

static void __exit cma_main_exit(void)
{
	ib_unregister_client(&cma_client);
	cma_addr_exit();
	destroy_workqueue(cma_wq);
}

module_init(cma_main_init);
module_exit(cma_main_exit);

MODULE_DESCRIPTION("RDMA connection manager (out-of-tree)");
MODULE_LICENSE("Dual BSD/GPL");
MODULE_VERSION(ORDMA_VERSION);
