// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ib_cm module: an ib_client of ib_core.  For every device it registers
 * one MAD agent per port for the CM class (0x07, version 2, method
 * SEND) and publishes the port's CM counters; the connection state
 * machine itself is in cm.c, cm_send.c and cm_recv.c (see cm_priv.h).
 *
 *   add(ibdev):    cm_device + per port: agent, sysfs counters
 *   remove(ibdev): unlist, then per port: sysfs, unregister the agent
 *                  (which waits for the handlers in progress and for
 *                  every send buffer made on it to be freed); the
 *                  ports' memory is freed at module exit
 */
#include <linux/module.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <ordma/version.h>
#include "cm_priv.h"

struct cm_globals cm;

static struct ib_client cm_client;

/*
 * The device is going: no more MADs.  The ports' memory stays (ids of
 * consumers that outlive the device still point at it; their sends then
 * fail with -ENOMEM/-ENODEV) until cm_free_ports() at module exit.
 */
static void cm_stop_ports(struct cm_device *cm_dev)
{
	u32 i;

	for (i = 0; i < cm_dev->nports; i++) {
		struct cm_port *port = cm_dev->ports[i];
		struct ib_mad_agent *agent;

		if (!port)
			continue;
		cm_sysfs_remove_port(port);
		down_write(&port->agent_lock);
		agent = port->agent;
		WRITE_ONCE(port->agent, NULL);
		up_write(&port->agent_lock);
		/* (waits for every buffer made on it to be freed) */
		if (agent)
			ib_unregister_mad_agent(agent);
	}
}

static void cm_free_ports(struct cm_device *cm_dev)
{
	u32 i;

	for (i = 0; i < cm_dev->nports; i++)
		kfree(cm_dev->ports[i]);
	kfree(cm_dev);
}

static int cm_add_one(struct ib_device *ibdev)
{
	struct ib_mad_reg_req reg = {
		.mgmt_class = CM_MGMT_CLASS,
		.mgmt_class_version = CM_CLASS_VERSION,
	};
	struct cm_device *cm_dev;
	u32 p;
	int ret;

	if (!ibdev->phys_port_cnt)
		return -EOPNOTSUPP;
	set_bit(CM_METHOD_SEND, reg.method_mask);

	cm_dev = kzalloc(struct_size(cm_dev, ports, ibdev->phys_port_cnt),
			 GFP_KERNEL);
	if (!cm_dev)
		return -ENOMEM;
	cm_dev->ibdev = ibdev;
	cm_dev->nports = ibdev->phys_port_cnt;

	rdma_for_each_port(ibdev, p) {
		struct cm_port *port = kzalloc(sizeof(*port), GFP_KERNEL);

		if (!port) {
			ret = -ENOMEM;
			goto err;
		}
		port->cm_dev = cm_dev;
		port->port_num = p;
		init_rwsem(&port->agent_lock);
		ratelimit_state_init(&port->answers, HZ, CM_ANSWERS_PER_SEC);
		/* counted in debugfs, not reported as "callbacks suppressed" */
		ratelimit_set_flags(&port->answers, RATELIMIT_MSG_ON_RELEASE);
		cm_dev->ports[p - 1] = port;
		port->agent = ib_register_mad_agent(ibdev, p, &reg,
						    cm_send_handler,
						    cm_recv_handler, port);
		if (IS_ERR(port->agent)) {
			ret = PTR_ERR(port->agent);
			port->agent = NULL;
			goto err;
		}
		port->hi_tid = port->agent->hi_tid;
		ret = cm_sysfs_add_port(port);
		if (ret)
			goto err;
	}

	mutex_lock(&cm.devices_lock);
	list_add_tail(&cm_dev->list, &cm.devices);
	mutex_unlock(&cm.devices_lock);
	ib_set_client_data(ibdev, &cm_client, cm_dev);
	return 0;

err:
	cm_stop_ports(cm_dev);
	cm_free_ports(cm_dev);
	return ret;
}

static void cm_remove_one(struct ib_device *ibdev, void *client_data)
{
	struct cm_device *cm_dev = client_data;

	if (!cm_dev)
		return;
	mutex_lock(&cm.devices_lock);
	list_move_tail(&cm_dev->list, &cm.dead_devices);
	mutex_unlock(&cm.devices_lock);
	cm_stop_ports(cm_dev);
}

static struct ib_client cm_client = {
	.name = "cm",
	.add = cm_add_one,
	.remove = cm_remove_one,
};

static int __init cm_main_init(void)
{
	int ret;

	spin_lock_init(&cm.lock);
	INIT_LIST_HEAD(&cm.listens);
	hash_init(cm.remote_ids);
	hash_init(cm.remote_qpns);
	xa_init_flags(&cm.local_ids, XA_FLAGS_ALLOC);
	INIT_LIST_HEAD(&cm.devices);
	INIT_LIST_HEAD(&cm.dead_devices);
	mutex_init(&cm.devices_lock);
	cm.random_xor = get_random_u32() & 0x7fffffff;

	cm.wq = alloc_workqueue("ib_cm", WQ_MEM_RECLAIM, 0);
	if (!cm.wq)
		return -ENOMEM;
	cm_debugfs_init();
	ret = ib_register_client(&cm_client);
	if (ret) {
		cm_debugfs_exit();
		destroy_workqueue(cm.wq);
		return ret;
	}
	return 0;
}

static void __exit cm_main_exit(void)
{
	struct cm_device *cm_dev, *tmp;

	ib_unregister_client(&cm_client);
	cm_debugfs_exit();
	destroy_workqueue(cm.wq);
	list_for_each_entry_safe(cm_dev, tmp, &cm.dead_devices, list)
		cm_free_ports(cm_dev);
	if (!xa_empty(&cm.local_ids))
		pr_err("ib_cm: cm_ids left at unload\n");
	xa_destroy(&cm.local_ids);
}

module_init(cm_main_init);
module_exit(cm_main_exit);

MODULE_DESCRIPTION("InfiniBand connection manager (out-of-tree)");
MODULE_LICENSE("Dual BSD/GPL");
MODULE_VERSION(ORDMA_VERSION);
