// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdma_rxe: soft-RoCE.  This file is the module's entry point and the
 * "rxe" link type behind `rdma link add NAME type rxe netdev NDEV`.
 */
#include <linux/module.h>
#include <linux/netdevice.h>
#include <ordma/ib_core.h>
#include <ordma/version.h>

/*
 * Creating the device needs the device model of the control path; until
 * that lands the request is refused, but it is logged so that a test can
 * prove it arrived here through ib_core's nldev and module autoload.
 */
static int rxe_newlink(const char *ibdev_name, struct net_device *ndev)
{
	pr_info("rdma_rxe: link add %s on %s: not supported yet\n",
		ibdev_name, netdev_name(ndev));
	return -EOPNOTSUPP;
}

static struct rdma_link_ops rxe_link_ops = {
	.type = "rxe",
	.newlink = rxe_newlink,
};

static int __init rxe_module_init(void)
{
	int ret = rdma_link_register(&rxe_link_ops);

	if (ret)
		return ret;
	pr_info("rdma_rxe: out-of-tree soft-RoCE %s loaded\n", ORDMA_VERSION);
	return 0;
}

static void __exit rxe_module_exit(void)
{
	rdma_link_unregister(&rxe_link_ops);
}

module_init(rxe_module_init);
module_exit(rxe_module_exit);

MODULE_DESCRIPTION("Soft RDMA over Converged Ethernet (out-of-tree)");
MODULE_LICENSE("Dual BSD/GPL");
MODULE_VERSION(ORDMA_VERSION);
MODULE_ALIAS_RDMA_LINK("rxe");
/*
 * Userspace reaches an rxe device only through ib_uverbs; load it with us
 * as the in-tree module's dependencies do (ours will become a symbol
 * dependency when rxe pins user memory through ib_uverbs).
 */
MODULE_SOFTDEP("pre: ib_uverbs");
