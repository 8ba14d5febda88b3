// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The rxe device as ib_core sees it: creation on top of a netdev, device
 * and port attributes (the same values as in-tree rxe, so that tools and
 * applications see the same limits), the verbs of the control path and
 * the tables the data path finds objects in.
 */
#include <linux/module.h>
#include <net/addrconf.h>
#include <uapi/rdma/ib_user_ioctl_verbs.h>
#include "rxe.h"
#include "rxe_loc.h"

static void rxe_init_device_attr(struct rxe_dev *rxe)
{
	struct ib_device_attr *a = &rxe->attr;

	a->vendor_id = 0xffffff;	/* no IEEE OUI (IBTA A3.3.1) */
	a->max_mr_size = U64_MAX;
	a->page_size_cap = 0xfffff000;
	a->max_qp = RXE_MAX_VALUE - RXE_MIN_QP_INDEX;
	a->max_qp_wr = RXE_MAX_VALUE;
	a->device_cap_flags = IB_DEVICE_BAD_PKEY_CNTR |
			      IB_DEVICE_BAD_QKEY_CNTR |
			      IB_DEVICE_AUTO_PATH_MIG |
			      IB_DEVICE_CHANGE_PHY_PORT |
			      IB_DEVICE_UD_AV_PORT_ENFORCE |
			      IB_DEVICE_PORT_ACTIVE_EVENT |
			      IB_DEVICE_SYS_IMAGE_GUID |
			      IB_DEVICE_RC_RNR_NAK_GEN |
			      IB_DEVICE_SRQ_RESIZE |
			      IB_DEVICE_MEM_MGT_EXTENSIONS |
			      IB_DEVICE_MEM_WINDOW |
			      IB_DEVICE_MEM_WINDOW_TYPE_2B |
			      IB_DEVICE_ATOMIC_WRITE;
	/* as in-tree; rxe_mr_persistent_ok() refuses memory it cannot keep */
	a->device_cap_flags |= IB_DEVICE_FLUSH_GLOBAL |
			       IB_DEVICE_FLUSH_PERSISTENT;
	a->max_send_sge = 32;
	a->max_recv_sge = 32;
	a->max_sge_rd = 32;
	a->max_cq = RXE_MAX_VALUE;
	a->max_cqe = (1 << 15) - 1;
	a->max_mr = RXE_MAX_MR_INDEX - RXE_MIN_MR_INDEX;
	a->max_mw = RXE_MAX_MW_INDEX - RXE_MIN_MW_INDEX;
	a->max_pd = RXE_MAX_VALUE;
	a->max_qp_rd_atom = 128;
	a->max_res_rd_atom = 0x3f000;
	a->max_qp_init_rd_atom = 128;
	a->atomic_cap = IB_ATOMIC_HCA;
	a->max_mcast_grp = 8192;
	a->max_mcast_qp_attach = 56;
	a->max_total_mcast_qp_attach = 0x70000;
	a->max_ah = (1 << 15) - 1;
	a->max_srq = RXE_MAX_VALUE - RXE_MIN_SRQ_INDEX;
	a->max_srq_wr = RXE_MAX_VALUE;
	a->max_srq_sge = 27;
	a->max_fast_reg_page_list_len = 512;
	a->max_pkeys = 64;
	a->local_ca_ack_delay = 15;
	addrconf_addr_eui48((u8 *)&a->sys_image_guid, rxe->ndev->dev_addr);
}

static void rxe_init_port_attr(struct rxe_dev *rxe)
{
	struct ib_port_attr *p = &rxe->port_attr;

	p->state = IB_PORT_DOWN;
	p->max_mtu = IB_MTU_4096;
	p->active_mtu = IB_MTU_256;
	p->gid_tbl_len = 1024;
	p->port_cap_flags = IB_PORT_CM_SUP;
	/*
	 * IBTA's limit, 2^31 bytes, as in-tree rxe since 6.10: a peer may
	 * send that much in one message and ours must accept it.  Nothing
	 * here is sized by the message, only by the packet.
	 */
	p->max_msg_sz = 1U << 31;
	p->pkey_tbl_len = 1;
	p->max_vl_num = 1;
	p->active_width = IB_WIDTH_1X;
	p->active_speed = IB_SPEED_SDR;
	p->phys_state = IB_PORT_PHYS_STATE_POLLING;
	p->subnet_prefix = 0xfe80000000000000ULL;
}

/* The IB MTU that fits the netdev's MTU once RoCEv2 headers are added. */
void rxe_set_mtu(struct rxe_dev *rxe, unsigned int ndev_mtu)
{
	int room = (int)ndev_mtu - RXE_MAX_HDR_LENGTH;
	enum ib_mtu mtu = IB_MTU_256;

	while (mtu < IB_MTU_4096 && room >= ib_mtu_enum_to_int(mtu + 1))
		mtu++;
	mutex_lock(&rxe->port_lock);
	rxe->port_attr.active_mtu = mtu;
	mutex_unlock(&rxe->port_lock);
}

/* Follow the netdev: active when it is up with carrier, down otherwise. */
void rxe_set_port_state(struct rxe_dev *rxe)
{
	bool up = netif_running(rxe->ndev) && netif_carrier_ok(rxe->ndev);
	enum ib_port_state state = up ? IB_PORT_ACTIVE : IB_PORT_DOWN;
	bool changed;

	mutex_lock(&rxe->port_lock);
	changed = rxe->port_attr.state != state;
	rxe->port_attr.state = state;
	mutex_unlock(&rxe->port_lock);
	if (!changed)
		return;
	if (!up)
		rxe_counter_inc(rxe, RXE_CNT_LINK_DOWNED);
	ib_dispatch_port_state_event(&rxe->ib_dev, 1, up);
	dev_info(&rxe->ib_dev.dev, "port %s\n", up ? "active" : "down");
}

static int rxe_query_device(struct ib_device *ibdev,
			    struct ib_device_attr *attr, struct ib_udata *udata)
{
	if (udata && (udata->inlen || udata->outlen))
		return -EINVAL;
	*attr = to_rdev(ibdev)->attr;
	return 0;
}

static int rxe_query_port(struct ib_device *ibdev, u32 port,
			  struct ib_port_attr *attr)
{
	struct rxe_dev *rxe = to_rdev(ibdev);
	int ret;

	mutex_lock(&rxe->port_lock);
	*attr = rxe->port_attr;
	mutex_unlock(&rxe->port_lock);

	ret = ib_get_eth_speed(ibdev, port, &attr->active_speed,
			       &attr->active_width);
	if (attr->state == IB_PORT_ACTIVE)
		attr->phys_state = IB_PORT_PHYS_STATE_LINK_UP;
	else if (dev_get_flags(rxe->ndev) & IFF_UP)
		attr->phys_state = IB_PORT_PHYS_STATE_POLLING;
	else
		attr->phys_state = IB_PORT_PHYS_STATE_DISABLED;
	return ret;
}

static int rxe_get_port_immutable(struct ib_device *ibdev, u32 port,
				  struct ib_port_immutable *immutable)
{
	struct rxe_dev *rxe = to_rdev(ibdev);

	immutable->core_cap_flags = RDMA_CORE_PORT_IBA_ROCE_UDP_ENCAP;
	immutable->pkey_tbl_len = rxe->port_attr.pkey_tbl_len;
	immutable->gid_tbl_len = rxe->port_attr.gid_tbl_len;
	immutable->max_mad_size = 256;
	return 0;
}

static enum rdma_link_layer rxe_get_link_layer(struct ib_device *ibdev,
					       u32 port)
{
	return IB_LINK_LAYER_ETHERNET;
}

static int rxe_query_pkey(struct ib_device *ibdev, u32 port, u16 index,
			  u16 *pkey)
{
	if (index)
		return -EINVAL;
	*pkey = 0xffff;	/* the default full-membership partition */
	return 0;
}

/* @node_desc is IB_NODE_DESC_MAX bytes, NUL-padded but not terminated. */
static int rxe_modify_device(struct ib_device *ibdev, const char *node_desc)
{
	memcpy(ibdev->node_desc, node_desc, sizeof(ibdev->node_desc));
	return 0;
}

static int rxe_alloc_ucontext(struct ib_ucontext *uctx, struct ib_udata *udata)
{
	return 0;
}

static void rxe_dealloc_ucontext(struct ib_ucontext *uctx)
{
}

/* Queues and whatever else the device exported to this context. */
static int rxe_mmap(struct ib_ucontext *uctx, struct vm_area_struct *vma)
{
	return ib_mmap_buf_map(uctx, vma);
}

static int rxe_alloc_pd(struct ib_pd *pd, struct ib_udata *udata)
{
	return 0;
}

static int rxe_dealloc_pd(struct ib_pd *pd, struct ib_udata *udata)
{
	return 0;
}

static const struct rdma_stat_desc rxe_counter_descs[RXE_NUM_COUNTERS] = {
	[RXE_CNT_SENT_PKTS]		= { "sent_pkts" },
	[RXE_CNT_RCVD_PKTS]		= { "rcvd_pkts" },
	[RXE_CNT_DUP_REQ]		= { "duplicate_request" },
	[RXE_CNT_OUT_OF_SEQ_REQ]	= { "out_of_seq_request" },
	[RXE_CNT_RCV_RNR]		= { "rcvd_rnr_err" },
	[RXE_CNT_SND_RNR]		= { "send_rnr_err" },
	[RXE_CNT_RCV_SEQ_ERR]		= { "rcvd_seq_err" },
	[RXE_CNT_COMPLETER_SCHED]	= { "ack_deferred" },
	[RXE_CNT_RETRY_EXCEEDED]	= { "retry_exceeded_err" },
	[RXE_CNT_RNR_RETRY_EXCEEDED]	= { "retry_rnr_exceeded_err" },
	[RXE_CNT_COMP_RETRY]		= { "completer_retry_err" },
	[RXE_CNT_SEND_ERR]		= { "send_err" },
	[RXE_CNT_LINK_DOWNED]		= { "link_downed" },
	[RXE_CNT_RDMA_SEND]		= { "rdma_sends" },
	[RXE_CNT_RDMA_RECV]		= { "rdma_recvs" },
	[RXE_CNT_RCV_QUEUE_DROP]	= { "rcvd_queue_drops" },
	[RXE_CNT_CQ_OVERFLOW]		= { "cq_overflow_drops" },
	[RXE_CNT_RCV_ICRC_ERR]		= { "rcvd_icrc_err" },
	[RXE_CNT_RCV_MALFORMED]		= { "rcvd_malformed" },
	[RXE_CNT_RCV_BAD_QP]		= { "rcvd_bad_qp" },
	[RXE_CNT_RCV_KEY_ERR]		= { "rcvd_key_err" },
	[RXE_CNT_RCV_ADDR_MISMATCH]	= { "rcvd_addr_mismatch" },
	[RXE_CNT_RCV_UD_LEN_ERR]	= { "rcvd_ud_len_err" },
};

static struct rdma_hw_stats *rxe_alloc_hw_port_stats(struct ib_device *ibdev,
						     u32 port)
{
	struct rdma_hw_stats *stats;

	stats = kzalloc(struct_size(stats, value, RXE_NUM_COUNTERS),
			GFP_KERNEL);
	if (!stats)
		return NULL;
	stats->descs = rxe_counter_descs;
	stats->num_counters = RXE_NUM_COUNTERS;
	return stats;
}

/* Refreshes every counter at once; returns how many there are. */
static int rxe_get_hw_stats(struct ib_device *ibdev,
			    struct rdma_hw_stats *stats, u32 port, int index)
{
	struct rxe_dev *rxe = to_rdev(ibdev);
	int i;

	for (i = 0; i < RXE_NUM_COUNTERS; i++)
		stats->value[i] = atomic64_read(&rxe->counters[i]);
	return RXE_NUM_COUNTERS;
}

static ssize_t parent_show(struct device *dev, struct device_attribute *attr,
			   char *buf)
{
	struct rxe_dev *rxe = container_of(dev, struct rxe_dev, ib_dev.dev);

	return sysfs_emit(buf, "%s\n", netdev_name(rxe->ndev));
}
static DEVICE_ATTR_RO(parent);

static struct attribute *rxe_dev_attrs[] = {
	&dev_attr_parent.attr,
	NULL,
};

static const struct attribute_group rxe_dev_group = {
	.attrs = rxe_dev_attrs,
};

void rxe_table_init(struct rxe_table *t, u32 min, u32 max, u32 count)
{
	xa_init_flags(&t->xa, XA_FLAGS_ALLOC | XA_FLAGS_LOCK_IRQ);
	t->limit = XA_LIMIT(min, max);
	t->next = min;
	atomic_set(&t->count, 0);
	t->max = count;
}

/* -ENOSPC past the table's count limit or when no index is free. */
int rxe_table_alloc(struct rxe_table *t, u32 *index)
{
	int ret;

	if (atomic_inc_return(&t->count) > t->max) {
		atomic_dec(&t->count);
		return -ENOSPC;
	}
	ret = xa_alloc_cyclic_irq(&t->xa, index, NULL, t->limit, &t->next,
				  GFP_KERNEL);
	if (ret < 0) {
		atomic_dec(&t->count);
		return ret == -EBUSY ? -ENOSPC : ret;
	}
	return 0;
}

int rxe_table_insert(struct rxe_table *t, u32 index)
{
	int ret;

	if (atomic_inc_return(&t->count) > t->max) {
		atomic_dec(&t->count);
		return -ENOSPC;
	}
	/* NULL in an allocating xarray reserves the index */
	ret = xa_insert_irq(&t->xa, index, NULL, GFP_KERNEL);
	if (ret)
		atomic_dec(&t->count);
	return ret;
}

/* The slot exists since rxe_table_alloc(): this cannot fail. */
void rxe_table_publish(struct rxe_table *t, u32 index, void *obj)
{
	xa_store_irq(&t->xa, index, obj, GFP_KERNEL);
}

void rxe_table_remove(struct rxe_table *t, u32 index)
{
	xa_erase_irq(&t->xa, index);
	atomic_dec(&t->count);
}

static void rxe_dealloc_driver(struct ib_device *ibdev)
{
	struct rxe_dev *rxe = to_rdev(ibdev);

	rxe_debugfs_remove(rxe);
	/* Disassociation destroyed every object: the tables are empty. */
	xa_destroy(&rxe->cq_table.xa);
	xa_destroy(&rxe->mr_table.xa);
	xa_destroy(&rxe->mw_table.xa);
	xa_destroy(&rxe->qp_table.xa);
	xa_destroy(&rxe->srq_table.xa);
	xa_destroy(&rxe->ah_table.xa);
	rxe_mcast_cleanup(rxe);
	dev_put(rxe->ndev);
	rxe->ndev = NULL;
}

static const struct ib_device_ops rxe_dev_ops = {
	.owner = THIS_MODULE,
	.driver_id = RDMA_DRIVER_RXE,
	.uverbs_abi_ver = RXE_UVERBS_ABI_VERSION,

	.query_device = rxe_query_device,
	.query_port = rxe_query_port,
	.get_port_immutable = rxe_get_port_immutable,
	.get_link_layer = rxe_get_link_layer,
	.query_pkey = rxe_query_pkey,
	.modify_device = rxe_modify_device,
	.alloc_ucontext = rxe_alloc_ucontext,
	.dealloc_ucontext = rxe_dealloc_ucontext,
	.mmap = rxe_mmap,
	.alloc_pd = rxe_alloc_pd,
	.dealloc_pd = rxe_dealloc_pd,
	.create_cq = rxe_create_cq,
	.destroy_cq = rxe_destroy_cq,
	.resize_cq = rxe_resize_cq,
	.req_notify_cq = rxe_req_notify_cq,
	.reg_user_mr = rxe_reg_user_mr,
	.rereg_user_mr = rxe_rereg_user_mr,
	.dereg_mr = rxe_dereg_mr,
	.alloc_mw = rxe_alloc_mw,
	.dealloc_mw = rxe_dealloc_mw,
	.create_ah = rxe_create_ah,
	.destroy_ah = rxe_destroy_ah,
	.create_srq = rxe_create_srq,
	.modify_srq = rxe_modify_srq,
	.query_srq = rxe_query_srq,
	.destroy_srq = rxe_destroy_srq,
	.create_qp = rxe_create_qp,
	.modify_qp = rxe_modify_qp,
	.query_qp = rxe_query_qp,
	.destroy_qp = rxe_destroy_qp,
	.post_send = rxe_post_send,
	.post_recv = rxe_post_recv,
	.post_send_wrs = rxe_post_send_wrs,
	.post_recv_wrs = rxe_post_recv_wrs,
	.poll_cq = rxe_poll_cq,
	.get_dma_mr = rxe_get_dma_mr,
	.alloc_mr = rxe_alloc_mr,
	.map_mr_sg = rxe_map_mr_sg,
	.attach_mcast = rxe_attach_mcast,
	.detach_mcast = rxe_detach_mcast,
	.alloc_hw_port_stats = rxe_alloc_hw_port_stats,
	.get_hw_stats = rxe_get_hw_stats,
	.device_group = &rxe_dev_group,
	.dealloc_driver = rxe_dealloc_driver,

	.size_ib_ucontext = sizeof(struct rxe_ucontext),
	.size_ib_pd = sizeof(struct rxe_pd),
	.size_ib_cq = sizeof(struct rxe_cq),
	.size_ib_mr = sizeof(struct rxe_mr),
	.size_ib_mw = sizeof(struct rxe_mw),
	.size_ib_ah = sizeof(struct rxe_ah),
	.size_ib_srq = sizeof(struct rxe_srq),
	.size_ib_qp = sizeof(struct rxe_qp),
};

int rxe_add_device(const char *ibdev_name, struct net_device *ndev)
{
	struct rxe_dev *rxe;
	int ret;

	rxe = ib_alloc_device(rxe_dev, ib_dev);
	if (!rxe)
		return -ENOMEM;
	dev_hold(ndev);
	rxe->ndev = ndev;
	mutex_init(&rxe->port_lock);
	rxe_init_device_attr(rxe);
	rxe_table_init(&rxe->cq_table, 1, RXE_MAX_CQ_INDEX, rxe->attr.max_cq);
	rxe_table_init(&rxe->mr_table, RXE_MIN_MR_INDEX, RXE_MAX_MR_INDEX,
		       rxe->attr.max_mr);
	rxe_table_init(&rxe->mw_table, RXE_MIN_MW_INDEX, RXE_MAX_MW_INDEX,
		       rxe->attr.max_mw);
	rxe_table_init(&rxe->qp_table, RXE_MIN_QP_INDEX, RXE_MAX_QP_INDEX,
		       rxe->attr.max_qp);
	rxe_table_init(&rxe->srq_table, RXE_MIN_SRQ_INDEX, RXE_MAX_SRQ_INDEX,
		       rxe->attr.max_srq);
	rxe_table_init(&rxe->ah_table, RXE_MIN_AH_INDEX, RXE_MAX_AH_INDEX,
		       rxe->attr.max_ah);
	spin_lock_init(&rxe->mcg_lock);
	rxe->mcg_tree = RB_ROOT;
	rxe_init_port_attr(rxe);
	rxe_set_mtu(rxe, ndev->mtu);

	ib_set_device_ops(&rxe->ib_dev, &rxe_dev_ops);
	rxe->ib_dev.node_type = RDMA_NODE_IB_CA;
	rxe->ib_dev.phys_port_cnt = 1;
	rxe->ib_dev.num_comp_vectors = num_possible_cpus();
	rxe->ib_dev.link_type = "rxe";
	strscpy(rxe->ib_dev.node_desc, "rxe", sizeof(rxe->ib_dev.node_desc));
	addrconf_addr_eui48((u8 *)&rxe->ib_dev.node_guid, ndev->dev_addr);

	ret = ib_device_set_netdev(&rxe->ib_dev, ndev, 1);
	if (ret)
		goto err;
	/*
	 * The netdev's own parent (e.g. its PCI or virtio device) becomes
	 * ours, so /sys/class/infiniband/<dev>/device/net/ names the netdev,
	 * as it does for RoCE hardware; tools find the interface (and its IP
	 * addresses) behind a device that way.  Virtual netdevs have none.
	 */
	ret = ib_register_device(&rxe->ib_dev, ibdev_name, ndev->dev.parent);
	if (ret)
		goto err;
	/* Registered: from here the core owns it, and events may flow. */
	rxe_debugfs_add(rxe);
	rxe_set_port_state(rxe);
	return 0;

err:
	dev_put(ndev);
	ib_dealloc_device(&rxe->ib_dev);
	return ret;
}
