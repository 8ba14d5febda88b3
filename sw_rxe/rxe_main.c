// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdma_rxe: soft-RoCE.  This file is the module's entry point, the "rxe"
 * link type behind `rdma link add NAME type rxe netdev NDEV`, and the
 * netdev notifier that keeps each device's port in step with its netdev.
 */
#include <linux/if_vlan.h>
#include <linux/module.h>
#include <linux/netdevice.h>
#include <ordma/version.h>
#include "rxe_loc.h"

static struct rxe_dev *rxe_get_by_netdev(struct net_device *ndev)
{
	struct ib_device *ibdev = ib_device_get_by_netdev(ndev, RDMA_DRIVER_RXE);

	return ibdev ? to_rdev(ibdev) : NULL;
}

static int rxe_newlink(const char *ibdev_name, struct net_device *ndev)
{
	struct rxe_dev *exists;

	/* A VLAN's traffic is the real device's: bind to that, as in-tree. */
	if (is_vlan_dev(ndev))
		return -EPERM;
	exists = rxe_get_by_netdev(ndev);
	if (exists) {
		ib_device_put(&exists->ib_dev);
		return -EEXIST;
	}
	return rxe_add_device(ibdev_name, ndev);
}

static struct rdma_link_ops rxe_link_ops = {
	.type = "rxe",
	.newlink = rxe_newlink,
};

static int rxe_netdev_event(struct notifier_block *nb, unsigned long event,
			    void *ptr)
{
	struct net_device *ndev = netdev_notifier_info_to_dev(ptr);
	struct rxe_dev *rxe = rxe_get_by_netdev(ndev);

	if (!rxe)
		return NOTIFY_DONE;
	switch (event) {
	case NETDEV_UNREGISTER:
		/* Consumes our reference; runs once the notifier returns. */
		ib_unregister_device_queued(&rxe->ib_dev);
		return NOTIFY_OK;
	case NETDEV_UP:
	case NETDEV_DOWN:
	case NETDEV_CHANGE:
		rxe_set_port_state(rxe);
		break;
	case NETDEV_CHANGEMTU:
		rxe_set_mtu(rxe, ndev->mtu);
		break;
	}
	ib_device_put(&rxe->ib_dev);
	return NOTIFY_OK;
}

static struct notifier_block rxe_netdev_nb = {
	.notifier_call = rxe_netdev_event,
};

static int __init rxe_module_init(void)
{
	int ret;

	ret = rxe_wq_init();
	if (ret)
		return ret;
	ret = rxe_net_init();
	if (ret)
		goto err_wq;
	rxe_debugfs_init();
	ret = register_netdevice_notifier(&rxe_netdev_nb);
	if (ret)
		goto err_debugfs;
	ret = rdma_link_register(&rxe_link_ops);
	if (ret) {
		unregister_netdevice_notifier(&rxe_netdev_nb);
		goto err_debugfs;
	}
	pr_info("rdma_rxe: out-of-tree soft-RoCE %s loaded\n", ORDMA_VERSION);
	return 0;

err_debugfs:
	rxe_debugfs_exit();
	rxe_net_exit();
err_wq:
	rxe_wq_exit();
	return ret;
}

static void __exit rxe_module_exit(void)
{
	rdma_link_unregister(&rxe_link_ops);
	ib_unregister_driver(RDMA_DRIVER_RXE);
	unregister_netdevice_notifier(&rxe_netdev_nb);
	rxe_debugfs_exit();
	rxe_net_exit();
	rxe_wq_exit();
}

module_init(rxe_module_init);
module_exit(rxe_module_exit);

MODULE_DESCRIPTION("Soft RDMA over Converged Ethernet (out-of-tree)");
MODULE_LICENSE("Dual BSD/GPL");
MODULE_VERSION(ORDMA_VERSION);
MODULE_ALIAS_RDMA_LINK("rxe");
/*
 * No symbol of ib_uverbs is used (kernel consumers need none), but users of
 * `modprobe rdma_rxe` expect /dev/infiniband/uverbsN, as the in-tree module
 * (which links against ib_uverbs) gives them.
 */
MODULE_SOFTDEP("post: ib_uverbs");
/* ib_uverbs, which pins user memory and maps queues for us, loads first. */
