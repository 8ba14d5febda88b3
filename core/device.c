// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The device registry and the client interface.
 *
 * A client (ib_uverbs, later the CM and others) is told about every
 * registered device through its add() callback and keeps per-device data
 * in the device's client_data xarray.  Locks nest in this order:
 * devices_rwsem, clients_rwsem, ib_device.client_data_rwsem.
 */
#include <linux/module.h>
#include <linux/slab.h>
#include "core_priv.h"

static DECLARE_RWSEM(devices_rwsem);
/*
 * index -> ib_device, from the moment a name is reserved at registration;
 * only devices marked DEVICE_REGISTERED are visible to lookups.
 */
static DEFINE_XARRAY_FLAGS(devices, XA_FLAGS_ALLOC);
static u32 devices_next_index;
#define DEVICE_REGISTERED XA_MARK_1

/* Unregistrations requested from contexts that cannot wait for them. */
static struct workqueue_struct *unreg_wq;

static DECLARE_RWSEM(clients_rwsem);
static DEFINE_XARRAY_ALLOC(clients);	/* client_id -> ib_client */

/*
 * A client's entry in a device's client_data exists from just before add()
 * until remove(); the mark says add() succeeded, so only marked entries are
 * visible to lookups.  Clients may keep NULL as their data: an xarray cannot
 * store NULL, so it is kept as this value entry instead.
 */
#define CLIENT_DATA_READY XA_MARK_1
#define CLIENT_NO_DATA xa_mk_value(0)

static void ib_device_release(struct device *dev)
{
	struct ib_device *ibdev = container_of(dev, struct ib_device, dev);

	xa_destroy(&ibdev->client_data);
	kfree(ibdev->port_data);
	kfree(ibdev);
}

struct class ib_class = {
	.name = "infiniband",
	.dev_release = ib_device_release,
};

struct ib_device *ib_device_get_by_index(u32 index)
{
	struct ib_device *ibdev;

	down_read(&devices_rwsem);
	ibdev = xa_load(&devices, index);
	if (ibdev && (!xa_get_mark(&devices, index, DEVICE_REGISTERED) ||
		      !refcount_inc_not_zero(&ibdev->refcount)))
		ibdev = NULL;
	up_read(&devices_rwsem);
	return ibdev;
}
EXPORT_SYMBOL(ib_device_get_by_index);

/* Any device holding @name, registered or being registered. */
static struct ib_device *find_by_name(const char *name)
{
	struct ib_device *ibdev;
	unsigned long index;

	xa_for_each(&devices, index, ibdev)
		if (!strcmp(name, dev_name(&ibdev->dev)))
			return ibdev;
	return NULL;
}

struct ib_device *ib_device_get_by_name(const char *name)
{
	struct ib_device *ibdev;

	down_read(&devices_rwsem);
	ibdev = find_by_name(name);
	if (ibdev && (!xa_get_mark(&devices, ibdev->index, DEVICE_REGISTERED) ||
		      !refcount_inc_not_zero(&ibdev->refcount)))
		ibdev = NULL;
	up_read(&devices_rwsem);
	return ibdev;
}
EXPORT_SYMBOL(ib_device_get_by_name);

void ib_device_put(struct ib_device *ibdev)
{
	if (refcount_dec_and_test(&ibdev->refcount))
		complete(&ibdev->unreg_completion);
}
EXPORT_SYMBOL(ib_device_put);

struct ib_device *ib_device_get_next(unsigned long *index)
{
	struct ib_device *ibdev;

	down_read(&devices_rwsem);
	for (ibdev = xa_find(&devices, index, ULONG_MAX, DEVICE_REGISTERED);
	     ibdev;
	     ibdev = xa_find_after(&devices, index, ULONG_MAX,
				   DEVICE_REGISTERED)) {
		if (refcount_inc_not_zero(&ibdev->refcount)) {
			(*index)++;
			break;
		}
	}
	up_read(&devices_rwsem);
	return ibdev;
}

void ib_set_client_data(struct ib_device *ibdev, struct ib_client *client,
			void *data)
{
	xa_store(&ibdev->client_data, client->client_id,
		 data ?: CLIENT_NO_DATA, GFP_KERNEL);
}
EXPORT_SYMBOL(ib_set_client_data);

void *ib_get_client_data(struct ib_device *ibdev, struct ib_client *client)
{
	void *data = xa_load(&ibdev->client_data, client->client_id);

	return xa_is_value(data) ? NULL : data;
}
EXPORT_SYMBOL(ib_get_client_data);

static int add_client_context(struct ib_device *ibdev, struct ib_client *client)
{
	int ret;

	down_write(&ibdev->client_data_rwsem);
	ret = xa_insert(&ibdev->client_data, client->client_id,
			CLIENT_NO_DATA, GFP_KERNEL);
	up_write(&ibdev->client_data_rwsem);
	if (ret == -EBUSY)	/* raced with device registration: done */
		return 0;
	if (ret)
		return ret;

	ret = client->add ? client->add(ibdev) : 0;
	down_write(&ibdev->client_data_rwsem);
	if (ret)
		xa_erase(&ibdev->client_data, client->client_id);
	else
		xa_set_mark(&ibdev->client_data, client->client_id,
			    CLIENT_DATA_READY);
	up_write(&ibdev->client_data_rwsem);
	return ret;
}

static void remove_client_context(struct ib_device *ibdev,
				  struct ib_client *client)
{
	void *data;

	down_write(&ibdev->client_data_rwsem);
	if (!xa_get_mark(&ibdev->client_data, client->client_id,
			 CLIENT_DATA_READY)) {
		up_write(&ibdev->client_data_rwsem);
		return;
	}
	xa_clear_mark(&ibdev->client_data, client->client_id,
		      CLIENT_DATA_READY);
	data = xa_load(&ibdev->client_data, client->client_id);
	up_write(&ibdev->client_data_rwsem);

	/* Lookups can no longer find the data; the client frees it now. */
	if (client->remove)
		client->remove(ibdev, xa_is_value(data) ? NULL : data);
	xa_erase(&ibdev->client_data, client->client_id);
}

int ib_register_client(struct ib_client *client)
{
	struct ib_device *ibdev;
	unsigned long index;
	int ret;

	down_write(&clients_rwsem);
	ret = xa_alloc(&clients, &client->client_id, client, xa_limit_31b,
		       GFP_KERNEL);
	up_write(&clients_rwsem);
	if (ret)
		return ret;

	/*
	 * A device that fails to accept the client just goes without it, as
	 * a device registered later would: the client stays registered.
	 */
	down_read(&devices_rwsem);
	xa_for_each(&devices, index, ibdev) {
		ret = add_client_context(ibdev, client);
		if (ret)
			dev_warn(&ibdev->dev, "client %s not added: %d\n",
				 client->name, ret);
	}
	up_read(&devices_rwsem);
	return 0;
}
EXPORT_SYMBOL(ib_register_client);

void ib_unregister_client(struct ib_client *client)
{
	struct ib_device *ibdev;
	unsigned long index;

	down_write(&clients_rwsem);
	xa_erase(&clients, client->client_id);
	up_write(&clients_rwsem);

	down_read(&devices_rwsem);
	xa_for_each(&devices, index, ibdev)
		remove_client_context(ibdev, client);
	up_read(&devices_rwsem);
}
EXPORT_SYMBOL(ib_unregister_client);

static struct ib_client *client_get_by_name(const char *name)
{
	struct ib_client *client;
	unsigned long index;

	xa_for_each(&clients, index, client)
		if (!strcmp(client->name, name))
			return client;
	return NULL;
}

static int client_nl_info(struct ib_device *ibdev, const char *client_name,
			  struct ib_client_nl_info *res)
{
	struct ib_client *client;
	void *data;
	int ret;

	down_read(&clients_rwsem);
	client = client_get_by_name(client_name);
	if (!client) {
		ret = -ENOENT;
	} else if (!ibdev) {
		ret = client->get_global_nl_info ?
			client->get_global_nl_info(res) : -EOPNOTSUPP;
	} else {
		down_read(&ibdev->client_data_rwsem);
		if (!xa_get_mark(&ibdev->client_data, client->client_id,
				 CLIENT_DATA_READY)) {
			ret = -ENOENT;
		} else if (!client->get_nl_info) {
			ret = -EOPNOTSUPP;
		} else {
			data = xa_load(&ibdev->client_data, client->client_id);
			ret = client->get_nl_info(ibdev,
						  xa_is_value(data) ? NULL : data,
						  res);
		}
		/* The client cannot remove the cdev while we hold the lock. */
		if (!ret)
			get_device(res->cdev);
		up_read(&ibdev->client_data_rwsem);
		goto out;
	}
	if (!ret)
		get_device(res->cdev);
out:
	up_read(&clients_rwsem);
	return ret;
}

/*
 * Answer GET_CHARDEV for @client_name on @ibdev (NULL: device-less).  On
 * success res->cdev holds a reference the caller drops with put_device().
 * A client that is not loaded is autoloaded by its "rdma-client-" alias;
 * one that still is not there makes the request unsupported.
 */
int ib_get_client_nl_info(struct ib_device *ibdev, const char *client_name,
			  struct ib_client_nl_info *res)
{
	int ret;

	ret = client_nl_info(ibdev, client_name, res);
	if (ret == -ENOENT) {
		request_module("rdma-client-%s", client_name);
		ret = client_nl_info(ibdev, client_name, res);
	}
	if (ret == -ENOENT)
		ret = -EOPNOTSUPP;
	if (!ret && !res->cdev)
		ret = -EINVAL;
	return ret;
}

/*
 * Have the client that owns cm_ids (rdma_cm) list @ibdev's into @msg; no
 * such client loaded: nothing to list.  The locks keep the client and its
 * data for the device while it fills.
 */
int ib_client_fill_res_cm_ids(struct ib_device *ibdev, u32 port,
			      struct sk_buff *msg, unsigned long *pos)
{
	struct ib_client *client;
	unsigned long index;
	void *data;
	int ret = 0;

	down_read(&clients_rwsem);
	down_read(&ibdev->client_data_rwsem);
	xa_for_each(&clients, index, client) {
		if (!client->fill_res_cm_ids ||
		    !xa_get_mark(&ibdev->client_data, client->client_id,
				 CLIENT_DATA_READY))
			continue;
		data = xa_load(&ibdev->client_data, client->client_id);
		ret = client->fill_res_cm_ids(ibdev,
					      xa_is_value(data) ? NULL : data,
					      port, msg, pos);
		break;
	}
	up_read(&ibdev->client_data_rwsem);
	up_read(&clients_rwsem);
	return ret;
}

/* --- allocation and registration ----------------------------------------- */

struct ib_device *_ib_alloc_device(size_t size)
{
	struct ib_device *ibdev;

	if (WARN_ON(size < sizeof(*ibdev)))
		return NULL;
	ibdev = kzalloc(size, GFP_KERNEL);
	if (!ibdev)
		return NULL;

	device_initialize(&ibdev->dev);
	ibdev->dev.class = &ib_class;
	ibdev->node_type = RDMA_NODE_IB_CA;
	mutex_init(&ibdev->unregistration_lock);
	init_completion(&ibdev->unreg_completion);
	init_rwsem(&ibdev->client_data_rwsem);
	xa_init_flags(&ibdev->client_data, XA_FLAGS_ALLOC);
	init_rwsem(&ibdev->event_handler_rwsem);
	INIT_LIST_HEAD(&ibdev->event_handler_list);
	ib_cq_pools_init(ibdev);
	return ibdev;
}
EXPORT_SYMBOL(_ib_alloc_device);

/* For a device that was never registered, or a driver's error path. */
void ib_dealloc_device(struct ib_device *ibdev)
{
	put_device(&ibdev->dev);
}
EXPORT_SYMBOL(ib_dealloc_device);

void ib_set_device_ops(struct ib_device *ibdev, const struct ib_device_ops *ops)
{
	ibdev->ops = *ops;
}
EXPORT_SYMBOL(ib_set_device_ops);

/*
 * Reserve @name (or the first free name of a "%d" pattern) and an index.
 * The device is in the registry from here on, but invisible to lookups.
 */
static int reserve_name_and_index(struct ib_device *ibdev, const char *name)
{
	char buf[IB_DEVICE_NAME_MAX];
	int ret, i;

	down_write(&devices_rwsem);
	if (strchr(name, '%')) {
		for (i = 0; i < 1024; i++) {
			snprintf(buf, sizeof(buf), name, i);
			if (!find_by_name(buf))
				break;
		}
		ret = i < 1024 ? 0 : -ENFILE;
	} else {
		ret = strscpy(buf, name, sizeof(buf)) < 0 ? -ENAMETOOLONG : 0;
		if (!ret && find_by_name(buf))
			ret = -EEXIST;
	}
	if (!ret)
		ret = dev_set_name(&ibdev->dev, "%s", buf);
	if (!ret)
		ret = xa_alloc_cyclic(&devices, &ibdev->index, ibdev,
				      xa_limit_31b, &devices_next_index,
				      GFP_KERNEL);
	up_write(&devices_rwsem);
	return ret < 0 ? ret : 0;
}

static void release_index(struct ib_device *ibdev)
{
	down_write(&devices_rwsem);
	xa_erase(&devices, ibdev->index);
	up_write(&devices_rwsem);
}

static int setup_ports(struct ib_device *ibdev)
{
	struct ib_port_data *pdata;
	u32 port;
	int ret;

	if (!ibdev->phys_port_cnt || !ibdev->ops.get_port_immutable ||
	    !ibdev->ops.query_port || !ibdev->ops.query_device)
		return -EINVAL;
	/* Indexed by port number, which starts at 1. */
	pdata = kcalloc(ibdev->phys_port_cnt + 1, sizeof(*pdata), GFP_KERNEL);
	if (!pdata)
		return -ENOMEM;
	ibdev->port_data = pdata;
	rdma_for_each_port(ibdev, port) {
		spin_lock_init(&pdata[port].netdev_lock);
		mutex_init(&pdata[port].hw_stats_lock);
		ret = ibdev->ops.get_port_immutable(ibdev, port,
						    &pdata[port].immutable);
		if (ret)
			return ret;
		if (ibdev->ops.alloc_hw_port_stats)
			pdata[port].hw_stats =
				ibdev->ops.alloc_hw_port_stats(ibdev, port);
	}
	return 0;
}

static void release_ports(struct ib_device *ibdev)
{
	struct net_device *ndev;
	u32 port;

	if (!ibdev->port_data)
		return;
	rdma_for_each_port(ibdev, port) {
		struct ib_port_data *pdata = ib_port(ibdev, port);

		spin_lock(&pdata->netdev_lock);
		ndev = rcu_dereference_protected(pdata->netdev,
					lockdep_is_held(&pdata->netdev_lock));
		RCU_INIT_POINTER(pdata->netdev, NULL);
		spin_unlock(&pdata->netdev_lock);
		if (ndev)
			dev_put(ndev);
		kfree(pdata->hw_stats);
		pdata->hw_stats = NULL;
	}
}

int ib_device_set_netdev(struct ib_device *ibdev, struct net_device *ndev,
			 u32 port)
{
	struct ib_port_data *pdata;
	struct net_device *old;

	if (!ibdev->port_data) {
		/* Before registration: ports are set up on demand. */
		int ret = setup_ports(ibdev);

		if (ret)
			return ret;
	}
	if (!rdma_is_port_valid(ibdev, port))
		return -EINVAL;
	pdata = ib_port(ibdev, port);
	if (ndev)
		dev_hold(ndev);
	spin_lock(&pdata->netdev_lock);
	old = rcu_dereference_protected(pdata->netdev,
					lockdep_is_held(&pdata->netdev_lock));
	rcu_assign_pointer(pdata->netdev, ndev);
	spin_unlock(&pdata->netdev_lock);
	if (old) {
		synchronize_rcu();
		dev_put(old);
	}
	return 0;
}
EXPORT_SYMBOL(ib_device_set_netdev);

struct net_device *ib_device_get_netdev(struct ib_device *ibdev, u32 port)
{
	struct net_device *ndev;

	if (!ibdev->port_data || !rdma_is_port_valid(ibdev, port))
		return NULL;
	rcu_read_lock();
	ndev = rcu_dereference(ib_port(ibdev, port)->netdev);
	if (ndev)
		dev_hold(ndev);
	rcu_read_unlock();
	return ndev;
}
EXPORT_SYMBOL(ib_device_get_netdev);

struct ib_device *ib_device_get_by_netdev(struct net_device *ndev,
					  u32 driver_id)
{
	struct ib_device *ibdev, *found = NULL;
	unsigned long index;
	u32 port;

	down_read(&devices_rwsem);
	xa_for_each_marked(&devices, index, ibdev, DEVICE_REGISTERED) {
		if (ibdev->ops.driver_id != driver_id)
			continue;
		rcu_read_lock();
		rdma_for_each_port(ibdev, port)
			if (rcu_access_pointer(ib_port(ibdev, port)->netdev) == ndev)
				found = ibdev;
		rcu_read_unlock();
		if (found) {
			if (!refcount_inc_not_zero(&found->refcount))
				found = NULL;
			break;
		}
	}
	up_read(&devices_rwsem);
	return found;
}
EXPORT_SYMBOL(ib_device_get_by_netdev);

int ib_register_device(struct ib_device *ibdev, const char *name,
		       struct device *dma_device)
{
	struct ib_client *client;
	unsigned long index;
	int ret;

	if (!ibdev->port_data) {
		ret = setup_ports(ibdev);
		if (ret)
			goto err_ports;
	}
	ret = ibdev->ops.query_device(ibdev, &ibdev->attrs, NULL);
	if (ret)
		goto err_ports;

	ret = reserve_name_and_index(ibdev, name);
	if (ret)
		goto err_ports;
	ret = ib_gid_table_setup(ibdev);
	if (ret)
		goto err_index;

	ibdev->dev.parent = dma_device;
	ibdev->groups[0] = (struct attribute_group *)&ib_dev_attr_group;
	ibdev->groups[1] = (struct attribute_group *)ibdev->ops.device_group;
	ibdev->dev.groups = (const struct attribute_group **)ibdev->groups;
	ret = device_add(&ibdev->dev);
	if (ret)
		goto err_gid;
	ret = ib_sysfs_setup(ibdev);
	if (ret)
		goto err_del;

	refcount_set(&ibdev->refcount, 1);	/* the registration's own */
	reinit_completion(&ibdev->unreg_completion);
	ibdev->registered = true;

	/* Visible to everyone, then tell the clients. */
	down_write(&devices_rwsem);
	xa_set_mark(&devices, ibdev->index, DEVICE_REGISTERED);
	downgrade_write(&devices_rwsem);
	ib_gid_table_populate(ibdev);
	down_read(&clients_rwsem);
	xa_for_each(&clients, index, client) {
		ret = add_client_context(ibdev, client);
		if (ret)
			dev_warn(&ibdev->dev, "client %s not added: %d\n",
				 client->name, ret);
	}
	up_read(&clients_rwsem);
	nldev_notify_registered(ibdev);
	up_read(&devices_rwsem);
	return 0;

err_del:
	device_del(&ibdev->dev);
err_gid:
	ib_gid_table_cleanup(ibdev);
err_index:
	release_index(ibdev);
err_ports:
	release_ports(ibdev);
	return ret;
}
EXPORT_SYMBOL(ib_register_device);

/*
 * Unregister, then hand the device back to its driver (dealloc_driver) and
 * drop the allocation's reference.  @caller_ref: the caller holds a
 * registry reference (from a lookup) that must go before we can wait.
 */
static void unregister_and_free(struct ib_device *ibdev, bool caller_ref)
{
	struct ib_client *client;
	unsigned long index, last = 0;

	/*
	 * Our own hold on the memory; the caller's registry reference goes
	 * now, or a second unregistration (dellink racing a netdev going
	 * away) would wait for it while holding the lock we wait for.
	 */
	get_device(&ibdev->dev);
	if (caller_ref)
		ib_device_put(ibdev);

	mutex_lock(&ibdev->unregistration_lock);
	if (!ibdev->registered) {
		mutex_unlock(&ibdev->unregistration_lock);
		put_device(&ibdev->dev);
		return;
	}
	ibdev->registered = false;

	/* No new lookups; then the clients, last registered first. */
	down_write(&devices_rwsem);
	xa_clear_mark(&devices, ibdev->index, DEVICE_REGISTERED);
	up_write(&devices_rwsem);
	nldev_notify_unregistered(ibdev);

	down_read(&clients_rwsem);
	xa_for_each(&clients, index, client)
		last = index;
	for (index = last + 1; index-- > 0;) {
		client = xa_load(&clients, index);
		if (client)
			remove_client_context(ibdev, client);
	}
	up_read(&clients_rwsem);

	/* Drop the registration's reference and wait for lookups to end. */
	ib_device_put(ibdev);
	wait_for_completion(&ibdev->unreg_completion);
	ib_cq_pool_cleanup(ibdev);

	ib_sysfs_cleanup(ibdev);
	device_del(&ibdev->dev);
	ib_gid_table_cleanup(ibdev);
	release_ports(ibdev);
	release_index(ibdev);
	mutex_unlock(&ibdev->unregistration_lock);

	if (ibdev->ops.dealloc_driver)
		ibdev->ops.dealloc_driver(ibdev);
	put_device(&ibdev->dev);	/* the allocation's */
	put_device(&ibdev->dev);	/* ours */
}

void ib_unregister_device(struct ib_device *ibdev)
{
	unregister_and_free(ibdev, false);
}
EXPORT_SYMBOL(ib_unregister_device);

void ib_unregister_device_and_put(struct ib_device *ibdev)
{
	unregister_and_free(ibdev, true);
}

static void unregister_work(struct work_struct *work)
{
	struct ib_device *ibdev =
		container_of(work, struct ib_device, unregistration_work);

	unregister_and_free(ibdev, true);
}

/*
 * Called with a registry reference (e.g. from ib_device_get_by_netdev()),
 * which the queued work consumes.
 */
void ib_unregister_device_queued(struct ib_device *ibdev)
{
	INIT_WORK(&ibdev->unregistration_work, unregister_work);
	if (!queue_work(unreg_wq, &ibdev->unregistration_work))
		ib_device_put(ibdev);
}
EXPORT_SYMBOL(ib_unregister_device_queued);

/* Unregister every device of a driver: its module is going away. */
void ib_unregister_driver(u32 driver_id)
{
	struct ib_device *ibdev;
	unsigned long index = 0;

	flush_workqueue(unreg_wq);
	while ((ibdev = ib_device_get_next(&index))) {
		if (ibdev->ops.driver_id == driver_id)
			unregister_and_free(ibdev, true);
		else
			ib_device_put(ibdev);
	}
	flush_workqueue(unreg_wq);
}
EXPORT_SYMBOL(ib_unregister_driver);

int ib_device_rename(struct ib_device *ibdev, const char *name)
{
	int ret;

	if (strchr(name, '%') || !name[0])
		return -EINVAL;
	down_write(&devices_rwsem);
	if (!strcmp(name, dev_name(&ibdev->dev)))
		ret = 0;
	else if (find_by_name(name))
		ret = -EEXIST;
	else
		ret = device_rename(&ibdev->dev, name);
	up_write(&devices_rwsem);
	return ret;
}
EXPORT_SYMBOL(ib_device_rename);

int ib_devices_init(void)
{
	int ret;

	unreg_wq = alloc_workqueue("ib_core_unreg", WQ_UNBOUND, 0);
	if (!unreg_wq)
		return -ENOMEM;
	ret = class_register(&ib_class);
	if (ret)
		destroy_workqueue(unreg_wq);
	return ret;
}

void ib_devices_exit(void)
{
	destroy_workqueue(unreg_wq);
	class_unregister(&ib_class);
	xa_destroy(&devices);
	xa_destroy(&clients);
}
