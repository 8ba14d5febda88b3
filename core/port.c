// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Port queries and asynchronous events: the thin layer between callers
 * (nldev, sysfs, ib_uverbs) and a driver's query_port/query_pkey ops.
 */
#include <linux/ethtool.h>
#include <linux/module.h>
#include <linux/rtnetlink.h>
#include "core_priv.h"

const struct ib_port_immutable *ib_port_immutable(struct ib_device *ibdev,
						  u32 port)
{
	return &ib_port(ibdev, port)->immutable;
}
EXPORT_SYMBOL(ib_port_immutable);

enum rdma_link_layer rdma_port_get_link_layer(struct ib_device *ibdev,
					      u32 port)
{
	if (ibdev->ops.get_link_layer)
		return ibdev->ops.get_link_layer(ibdev, port);
	return IB_LINK_LAYER_INFINIBAND;
}
EXPORT_SYMBOL(rdma_port_get_link_layer);

int ib_query_port(struct ib_device *ibdev, u32 port, struct ib_port_attr *attr)
{
	union ib_gid gid;
	int ret;

	if (!rdma_is_port_valid(ibdev, port))
		return -EINVAL;
	memset(attr, 0, sizeof(*attr));
	ret = ibdev->ops.query_port(ibdev, port, attr);
	if (ret || rdma_port_get_link_layer(ibdev, port) != IB_LINK_LAYER_ETHERNET)
		return ret;
	/* RoCE has no subnet manager: the prefix is the default GID's. */
	if (!rdma_query_gid(ibdev, port, 0, &gid))
		attr->subnet_prefix = be64_to_cpu(gid.global.subnet_prefix);
	return 0;
}
EXPORT_SYMBOL(ib_query_port);

int ib_query_pkey(struct ib_device *ibdev, u32 port, u16 index, u16 *pkey)
{
	if (!rdma_is_port_valid(ibdev, port))
		return -EINVAL;
	if (index >= ib_port(ibdev, port)->immutable.pkey_tbl_len)
		return -EINVAL;
	if (!ibdev->ops.query_pkey)
		return -EOPNOTSUPP;
	return ibdev->ops.query_pkey(ibdev, port, index, pkey);
}
EXPORT_SYMBOL(ib_query_pkey);

/*
 * An Ethernet port's speed as IB width x speed, the way the in-tree core
 * maps it, so that rate and active_speed read the same on both stacks.
 * An unknown link speed counts as 1 Gb/s.
 */
int ib_get_eth_speed(struct ib_device *ibdev, u32 port, u16 *speed, u8 *width)
{
	struct ethtool_link_ksettings lks;
	static const struct {
		u32 max_mbps;
		u8 width;
		u16 speed;
	} map[] = {
		{ SPEED_1000, IB_WIDTH_1X, IB_SPEED_SDR },
		{ SPEED_10000, IB_WIDTH_1X, IB_SPEED_FDR10 },
		{ SPEED_20000, IB_WIDTH_4X, IB_SPEED_DDR },
		{ SPEED_25000, IB_WIDTH_1X, IB_SPEED_EDR },
		{ SPEED_40000, IB_WIDTH_4X, IB_SPEED_FDR10 },
		{ U32_MAX, IB_WIDTH_4X, IB_SPEED_EDR },
	};
	struct net_device *ndev;
	u32 mbps = SPEED_1000;
	unsigned int i;

	ndev = ib_device_get_netdev(ibdev, port);
	if (!ndev)
		return -ENODEV;
	rtnl_lock();
	if (!__ethtool_get_link_ksettings(ndev, &lks) &&
	    lks.base.speed != (u32)SPEED_UNKNOWN)
		mbps = lks.base.speed;
	rtnl_unlock();
	dev_put(ndev);

	for (i = 0; mbps > map[i].max_mbps; i++)
		;
	*width = map[i].width;
	*speed = map[i].speed;
	return 0;
}
EXPORT_SYMBOL(ib_get_eth_speed);

void ib_register_event_handler(struct ib_event_handler *handler)
{
	struct ib_device *ibdev = handler->device;

	down_write(&ibdev->event_handler_rwsem);
	list_add_tail(&handler->list, &ibdev->event_handler_list);
	up_write(&ibdev->event_handler_rwsem);
}
EXPORT_SYMBOL(ib_register_event_handler);

void ib_unregister_event_handler(struct ib_event_handler *handler)
{
	struct ib_device *ibdev = handler->device;

	down_write(&ibdev->event_handler_rwsem);
	list_del(&handler->list);
	up_write(&ibdev->event_handler_rwsem);
}
EXPORT_SYMBOL(ib_unregister_event_handler);

/* Process context only: handlers may sleep briefly (they queue events). */
void ib_dispatch_event(const struct ib_event *event)
{
	struct ib_device *ibdev = event->device;
	struct ib_event_handler *handler;
	struct ib_event ev = *event;

	down_read(&ibdev->event_handler_rwsem);
	list_for_each_entry(handler, &ibdev->event_handler_list, list)
		handler->handler(handler, &ev);
	up_read(&ibdev->event_handler_rwsem);
}
EXPORT_SYMBOL(ib_dispatch_event);

void ib_dispatch_port_state_event(struct ib_device *ibdev, u32 port,
				  bool active)
{
	struct ib_event ev = {
		.device = ibdev,
		.event = active ? IB_EVENT_PORT_ACTIVE : IB_EVENT_PORT_ERR,
		.port_num = port,
	};

	ib_dispatch_event(&ev);
}
EXPORT_SYMBOL(ib_dispatch_port_state_event);
