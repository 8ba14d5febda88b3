// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ib_core: the module's entry points.  The work is in device.c (devices
 * and clients), netlink.c + nldev.c (the `rdma` tool's interface) and
 * link.c (`rdma link add` types).
 */
#include <linux/module.h>
#include <net/sock.h>
#include <ordma/version.h>
#include "core_priv.h"
#include "mad_priv.h"

static int __init ib_core_init(void)
{
	int ret;

	ret = ib_devices_init();
	if (ret)
		return ret;
	ret = ib_gid_init();
	if (ret)
		goto err_devices;
	ret = rdma_nl_init();
	if (ret)
		goto err_gid;
	/* The first client: on every device before any other, gone last. */
	ret = ib_mad_init();
	if (ret)
		goto err_nl;
	ib_test_pause_init();
	pr_info("ib_core: out-of-tree RDMA core %s loaded\n", ORDMA_VERSION);
	return 0;

err_nl:
	rdma_nl_exit();
err_gid:
	ib_gid_exit();
err_devices:
	ib_devices_exit();
	return ret;
}

static void __exit ib_core_exit(void)
{
	ib_test_pause_exit();
	ib_mad_exit();
	rdma_nl_exit();
	ib_gid_exit();
	ib_devices_exit();
}

module_init(ib_core_init);
module_exit(ib_core_exit);

MODULE_DESCRIPTION("RDMA core (out-of-tree): devices, clients, netlink");
MODULE_LICENSE("Dual BSD/GPL");
MODULE_VERSION(ORDMA_VERSION);
/* `rdma` opening a NETLINK_RDMA socket autoloads us, as it does in-tree. */
MODULE_ALIAS_NET_PF_PROTO(PF_NETLINK, NETLINK_RDMA);
