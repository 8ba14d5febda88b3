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
static DEFINE_XARRAY_ALLOC(devices);	/* index -> registered ib_device */

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
	if (ibdev && !refcount_inc_not_zero(&ibdev->refcount))
		ibdev = NULL;
	up_read(&devices_rwsem);
	return ibdev;
}
EXPORT_SYMBOL(ib_device_get_by_index);

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
	xa_for_each_start(&devices, *index, ibdev, *index) {
		if (refcount_inc_not_zero(&ibdev->refcount)) {
			(*index)++;
			up_read(&devices_rwsem);
			return ibdev;
		}
	}
	up_read(&devices_rwsem);
	return NULL;
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

int ib_devices_init(void)
{
	return class_register(&ib_class);
}

void ib_devices_exit(void)
{
	class_unregister(&ib_class);
	xa_destroy(&devices);
	xa_destroy(&clients);
}
