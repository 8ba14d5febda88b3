// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * `rdma link add NAME type TYPE netdev NDEV`: the registry of link types.
 * A driver for software devices (rdma_rxe: "rxe") registers one; nldev
 * looks it up, autoloading "rdma-link-TYPE" when nobody registered it.
 */
#include <linux/module.h>
#include "core_priv.h"

static LIST_HEAD(link_types);
/* Held for reading across a whole newlink call: unregistration waits. */
static DECLARE_RWSEM(link_types_rwsem);

static const struct rdma_link_ops *find_link_ops(const char *type)
{
	const struct rdma_link_ops *ops;

	list_for_each_entry(ops, &link_types, list)
		if (!strcmp(ops->type, type))
			return ops;
	return NULL;
}

int rdma_link_register(struct rdma_link_ops *ops)
{
	int ret = 0;

	down_write(&link_types_rwsem);
	if (find_link_ops(ops->type))
		ret = -EEXIST;
	else
		list_add(&ops->list, &link_types);
	up_write(&link_types_rwsem);
	return ret;
}
EXPORT_SYMBOL(rdma_link_register);

void rdma_link_unregister(struct rdma_link_ops *ops)
{
	down_write(&link_types_rwsem);
	list_del(&ops->list);
	up_write(&link_types_rwsem);
}
EXPORT_SYMBOL(rdma_link_unregister);

/*
 * Create a link of @type.  An unknown type gets one chance to appear by
 * module autoload; after that the request is invalid (-EINVAL, as in-tree).
 */
int rdma_link_newlink(const char *type, const char *ibdev_name,
		      struct net_device *ndev)
{
	const struct rdma_link_ops *ops;
	int ret;

	down_read(&link_types_rwsem);
	ops = find_link_ops(type);
	if (!ops) {
		up_read(&link_types_rwsem);
		request_module("rdma-link-%s", type);
		down_read(&link_types_rwsem);
		ops = find_link_ops(type);
	}
	ret = ops ? ops->newlink(ibdev_name, ndev) : -EINVAL;
	up_read(&link_types_rwsem);
	return ret;
}
