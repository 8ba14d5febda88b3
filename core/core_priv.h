/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Internal to ib_core: shared between its files, never exported. */
#ifndef ORDMA_CORE_PRIV_H
#define ORDMA_CORE_PRIV_H

#include <linux/netlink.h>
#include <net/netlink.h>
#include <ordma/ib_core.h>

/* device.c */
extern struct class ib_class;
int ib_devices_init(void);
void ib_devices_exit(void);
/*
 * Iterate registered devices from *index on; returns a referenced device
 * (drop with ib_device_put()) and advances *index, or NULL at the end.
 */
struct ib_device *ib_device_get_next(unsigned long *index);
int ib_get_client_nl_info(struct ib_device *ibdev, const char *client_name,
			  struct ib_client_nl_info *res);

/* link.c */
int rdma_link_newlink(const char *type, const char *ibdev_name,
		      struct net_device *ndev);

/* netlink.c: the NETLINK_RDMA socket of every network namespace */
struct rdma_nl_handler {
	int (*doit)(struct sk_buff *skb, struct nlmsghdr *nlh,
		    struct netlink_ext_ack *extack);
	int (*dump)(struct sk_buff *skb, struct netlink_callback *cb);
	bool admin;	/* needs CAP_NET_ADMIN in the socket's namespace */
};

int rdma_nl_init(void);
void rdma_nl_exit(void);
int rdma_nl_unicast(struct sk_buff *in_skb, struct sk_buff *reply);

/* nldev.c */
extern const struct rdma_nl_handler nldev_handlers[RDMA_NLDEV_NUM_OPS];

#endif
