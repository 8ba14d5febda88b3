/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * What ib_core offers the other modules of the set: the device registry,
 * the client interface (ib_uverbs is a client like any other) and the
 * registry of `rdma link` types (rdma_rxe registers "rxe").
 *
 * Our headers live under include/ordma/ so that no header of the kernel's
 * own include/rdma/ can shadow them; UAPI headers are always included by
 * their uapi/ path for the same reason.
 */
#ifndef ORDMA_IB_CORE_H
#define ORDMA_IB_CORE_H

#include <linux/completion.h>
#include <linux/device.h>
#include <linux/list.h>
#include <linux/netdevice.h>
#include <linux/refcount.h>
#include <linux/rwsem.h>
#include <linux/xarray.h>
#include <uapi/rdma/rdma_netlink.h>
#include <ordma/ib_verbs.h>

/* What a client tells nldev's GET_CHARDEV about its character device. */
struct ib_client_nl_info {
	struct sk_buff *nl_msg;	/* the reply: a client may add attributes */
	struct device *cdev;	/* the char device; a reference is taken */
	int port;		/* -1 when the request named no port */
	u64 abi;
};

struct ib_client {
	const char *name;
	/* Called for every registered device; returns 0 or a negative errno. */
	int (*add)(struct ib_device *ibdev);
	void (*remove)(struct ib_device *ibdev, void *client_data);
	/* Per-device and device-less answers to GET_CHARDEV. */
	int (*get_nl_info)(struct ib_device *ibdev, void *client_data,
			   struct ib_client_nl_info *res);
	int (*get_global_nl_info)(struct ib_client_nl_info *res);
	/*
	 * `rdma res show cm_id` (nldev RES_CM_ID_GET), from the client that
	 * owns them: one RDMA_NLDEV_ATTR_RES_CM_ID_ENTRY nest per id of
	 * @ibdev (of @port, unless 0), skipping the first *@pos, advancing
	 * *@pos; -EMSGSIZE when @msg is full (the dump goes on in the next
	 * message), 0 when all are in.
	 */
	int (*fill_res_cm_ids)(struct ib_device *ibdev, void *client_data,
			       u32 port, struct sk_buff *msg,
			       unsigned long *pos);

	u32 client_id;		/* assigned by ib_register_client() */
};

int ib_register_client(struct ib_client *client);
void ib_unregister_client(struct ib_client *client);
void ib_set_client_data(struct ib_device *ibdev, struct ib_client *client,
			void *data);
void *ib_get_client_data(struct ib_device *ibdev, struct ib_client *client);
/*
 * The kobject of /sys/class/infiniband/<dev>/ports/<port_num>/, where a
 * client may hang its own directories from add() until remove(); NULL
 * for a bad port.
 */
struct kobject *ib_port_sysfs_kobj(struct ib_device *ibdev, u32 port_num);

/*
 * A link type for `rdma link add NAME type TYPE netdev NDEV`.  ib_core
 * autoloads the module aliased "rdma-link-TYPE" when the type is unknown.
 */
struct rdma_link_ops {
	struct list_head list;
	const char *type;
	int (*newlink)(const char *ibdev_name, struct net_device *ndev);
};

int rdma_link_register(struct rdma_link_ops *ops);
void rdma_link_unregister(struct rdma_link_ops *ops);

#define MODULE_ALIAS_RDMA_LINK(type) MODULE_ALIAS("rdma-link-" type)

#endif
