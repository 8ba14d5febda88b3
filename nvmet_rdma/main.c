// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The transport as nvmet sees it: its ops, and the ports.  nvmet loads
 * us by the alias nvmet-transport-1 (NVMF_TRTYPE_RDMA; request_module()
 * in drivers/nvme/target/core.c of 6.1 and 6.12 alike) when configfs
 * enables a port with addr_trtype=rdma, then calls add_port: one rdma_cm
 * listener on the port's traddr:trsvcid (IPv4 or IPv6, in the initial
 * network namespace, where configfs lives).  A listener whose device goes
 * away is dropped (the port stays configured but deaf until re-enabled).
 */
#include <linux/inet.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <ordma/version.h>
#include "nvmet_rdma.h"

/* Serializes ports' listener pointers against their DEVICE_REMOVAL. */
static DEFINE_MUTEX(nvmet_rdma_port_mutex);

static int nvmet_rdma_listener_handler(struct rdma_cm_id *id,
				       struct rdma_cm_event *ev)
{
	struct nvmet_rdma_port *port = id->context;

	switch (ev->event) {
	case RDMA_CM_EVENT_CONNECT_REQUEST:
		return nvmet_rdma_queue_connect(id, port, ev);
	case RDMA_CM_EVENT_DEVICE_REMOVAL:
		mutex_lock(&nvmet_rdma_port_mutex);
		if (port->listener == id) {
			port->listener = NULL;
			mutex_unlock(&nvmet_rdma_port_mutex);
			pr_info("nvmet_rdma: port %d: device removed, no longer listening\n",
				le16_to_cpu(port->nport->disc_addr.portid));
			return 1;
		}
		mutex_unlock(&nvmet_rdma_port_mutex);
		return 0;
	default:
		return 0;
	}
}

static int nvmet_rdma_listen(struct nvmet_rdma_port *port)
{
	struct rdma_cm_id *id;
	int ret;

	id = rdma_create_id(&init_net, nvmet_rdma_listener_handler, port,
			    RDMA_PS_TCP, IB_QPT_RC);
	if (IS_ERR(id))
		return PTR_ERR(id);
	/* An IPv6 port serves IPv6 only; its IPv4 twin may listen too. */
	if (port->addr.ss_family == AF_INET6) {
		ret = rdma_set_afonly(id, 1);
		if (ret)
			goto out;
	}
	ret = rdma_bind_addr(id, (struct sockaddr *)&port->addr);
	if (ret)
		goto out;
	ret = rdma_listen(id, NVMET_RDMA_BACKLOG);
	if (ret)
		goto out;
	mutex_lock(&nvmet_rdma_port_mutex);
	port->listener = id;
	mutex_unlock(&nvmet_rdma_port_mutex);
	return 0;
out:
	rdma_destroy_id(id);
	return ret;
}

static int nvmet_rdma_add_port(struct nvmet_port *nport)
{
	struct nvmet_rdma_port *port;
	int af, ret;

	switch (nport->disc_addr.adrfam) {
	case NVMF_ADDR_FAMILY_IP4:
		af = AF_INET;
		break;
	case NVMF_ADDR_FAMILY_IP6:
		af = AF_INET6;
		break;
	default:
		pr_err("nvmet_rdma: address family %d not supported\n",
		       nport->disc_addr.adrfam);
		return -EINVAL;
	}
	/* What identify reports as IOCCSZ: the in-capsule room we post. */
	if (nport->inline_data_size < 0)
		nport->inline_data_size = PAGE_SIZE;
	nport->inline_data_size = min_t(int, nport->inline_data_size,
					NVMET_RDMA_MAX_INLINE_PAGES * PAGE_SIZE);

	port = kzalloc(sizeof(*port), GFP_KERNEL);
	if (!port)
		return -ENOMEM;
	port->nport = nport;
	ret = inet_pton_with_scope(&init_net, af, nport->disc_addr.traddr,
				   nport->disc_addr.trsvcid, &port->addr);
	if (ret) {
		pr_err("nvmet_rdma: malformed address %s:%s\n",
		       nport->disc_addr.traddr, nport->disc_addr.trsvcid);
		goto fail;
	}
	ret = nvmet_rdma_listen(port);
	if (ret) {
		pr_err("nvmet_rdma: cannot listen on %pISpc: %d\n",
		       &port->addr, ret);
		goto fail;
	}
	nport->priv = port;
	pr_info("nvmet_rdma: enabling port %d (%pISpc)\n",
		le16_to_cpu(nport->disc_addr.portid), &port->addr);
	return 0;
fail:
	kfree(port);
	return ret;
}

static void nvmet_rdma_remove_port(struct nvmet_port *nport)
{
	struct nvmet_rdma_port *port = nport->priv;
	struct rdma_cm_id *listener;

	mutex_lock(&nvmet_rdma_port_mutex);
	listener = port->listener;
	port->listener = NULL;
	mutex_unlock(&nvmet_rdma_port_mutex);
	/*
	 * No new queue after this (the listener's destruction waits for a
	 * CONNECT_REQUEST being handled); then the port's queues close.
	 * Not waiting for them here: nvmet_config_sem is held, which their
	 * Connect commands may need; nvmet flushes nvmet_wq, where they are
	 * released, before it frees @nport.  They keep @port as a key only.
	 */
	if (listener)
		rdma_destroy_id(listener);
	nvmet_rdma_close_queues(port, NULL);
	nport->priv = NULL;
	kfree(port);
}

static void nvmet_rdma_delete_ctrl(struct nvmet_ctrl *ctrl)
{
	nvmet_rdma_close_queues(NULL, ctrl);
}

static u8 nvmet_rdma_get_mdts(const struct nvmet_ctrl *ctrl)
{
	return NVMET_RDMA_MDTS;
}

static u16 nvmet_rdma_get_max_queue_size(const struct nvmet_ctrl *ctrl)
{
	return NVMET_RDMA_MAX_QUEUE_SIZE;
}

const struct nvmet_fabrics_ops nvmet_rdma_ops = {
	.owner = THIS_MODULE,
	.type = NVMF_TRTYPE_RDMA,
	.msdbd = 1,
	.flags = NVMF_KEYED_SGLS,
	.queue_response = nvmet_rdma_queue_response,
	.add_port = nvmet_rdma_add_port,
	.remove_port = nvmet_rdma_remove_port,
	.delete_ctrl = nvmet_rdma_delete_ctrl,
	.get_mdts = nvmet_rdma_get_mdts,
	.get_max_queue_size = nvmet_rdma_get_max_queue_size,
};

static int __init nvmet_rdma_init(void)
{
	return nvmet_register_transport(&nvmet_rdma_ops);
}

static void __exit nvmet_rdma_exit(void)
{
	/* nvmet holds our module while a port is enabled: none is left. */
	nvmet_unregister_transport(&nvmet_rdma_ops);
	nvmet_rdma_queues_exit();
}

module_init(nvmet_rdma_init);
module_exit(nvmet_rdma_exit);

MODULE_DESCRIPTION("NVMe over Fabrics RDMA target on the ordma stack");
MODULE_LICENSE("Dual BSD/GPL");
MODULE_VERSION(ORDMA_VERSION);
MODULE_ALIAS("nvmet-transport-1");	/* NVMF_TRTYPE_RDMA */
