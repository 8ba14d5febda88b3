/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Internal to ib_core: shared between its files, never exported. */
#ifndef ORDMA_CORE_PRIV_H
#define ORDMA_CORE_PRIV_H

#include <linux/netlink.h>
#include <net/netlink.h>
#include <ordma/ib_core.h>

struct ib_gid_table;

/* Per-port state the core keeps; ib_device.port_data[port]. */
struct ib_port_data {
	struct ib_port_immutable immutable;
	spinlock_t netdev_lock;			/* protects netdev updates */
	struct net_device __rcu *netdev;	/* held with dev_hold() */
	struct ib_gid_table *gid_table;		/* gid.c */
	struct rdma_hw_stats *hw_stats;		/* NULL if the driver has none */
	struct mutex hw_stats_lock;
	struct kobject *sysfs;			/* ports/N, sysfs.c */
};

static inline struct ib_port_data *ib_port(struct ib_device *ibdev, u32 port)
{
	return &ibdev->port_data[port];
}

/* device.c */
extern struct class ib_class;
int ib_devices_init(void);
void ib_devices_exit(void);

/* Shared CQ pools of a device (cq_pool.c). */
void ib_cq_pools_init(struct ib_device *dev);
void ib_cq_pool_cleanup(struct ib_device *dev);

/*
 * Iterate registered devices from *index on; returns a referenced device
 * (drop with ib_device_put()) and advances *index, or NULL at the end.
 */
struct ib_device *ib_device_get_next(unsigned long *index);
/* Unregister a device the caller looked up (consumes that reference). */
void ib_unregister_device_and_put(struct ib_device *ibdev);
int ib_get_client_nl_info(struct ib_device *ibdev, const char *client_name,
			  struct ib_client_nl_info *res);
int ib_client_fill_res_cm_ids(struct ib_device *ibdev, u32 port,
			      struct sk_buff *msg, unsigned long *pos);

/* gid.c: the GID table and its RoCE maintenance from netdev events */
int ib_gid_table_setup(struct ib_device *ibdev);	/* at registration */
void ib_gid_table_populate(struct ib_device *ibdev);	/* once visible */
void ib_gid_table_cleanup(struct ib_device *ibdev);	/* at unregistration */
/* test-only pause points' debugfs files (test_pause.c) */
void ib_test_pause_init(void);
void ib_test_pause_exit(void);
int ib_gid_init(void);			/* module init: notifiers */
void ib_gid_exit(void);

/* sysfs.c: /sys/class/infiniband/<dev>/ beyond the device's own groups */
int ib_sysfs_setup(struct ib_device *ibdev);	/* after device_add() */
void ib_sysfs_cleanup(struct ib_device *ibdev);	/* before device_del() */
extern const struct attribute_group ib_dev_attr_group;

/*
 * objects.c: an MR that takes no use of its PD and is not in `rdma res`
 * (the PD's own DMA MR, verbs.c), and its undoing.
 */
struct ib_mr *ib_mr_make(struct ib_pd *pd, struct ib_uobject *uobj,
			 const struct ib_mr_source *src,
			 struct ib_udata *udata);
void ib_mr_unmake(struct ib_mr *mr);

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
int rdma_nl_multicast_init_net(struct sk_buff *msg, unsigned int group);

/* nldev.c */
extern const struct rdma_nl_handler nldev_handlers[RDMA_NLDEV_NUM_OPS];
void nldev_notify_registered(struct ib_device *ibdev);
void nldev_notify_unregistered(struct ib_device *ibdev);

#endif
