// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * /sys/class/infiniband/<dev>/, laid out as the in-tree stack lays it out,
 * since libibverbs, ibstat and friends parse it.
 *
 * The device's own files (ib_dev_attr_group) are created by device_add()
 * with the device.  ib_sysfs_setup() then adds, for each port N:
 *
 *   ports/N/{state,phys_state,rate,lid,sm_lid,sm_sl,lid_mask_count,
 *            cap_mask,link_layer}
 *   ports/N/gids/<i>               0 <= i < gid_tbl_len
 *   ports/N/pkeys/<i>              0 <= i < pkey_tbl_len (if any)
 *   ports/N/hw_counters/<name>     one per driver counter, plus "lifespan"
 *   ports/N/gid_attrs/ndevs/<i>
 *   ports/N/gid_attrs/types/<i>
 *
 * Only ports/ and ports/N/ and ports/N/gid_attrs/ are kobjects.  Every other
 * directory is a named attribute group, and a table of thousands of GID
 * files is one array of small attributes, built at setup time, each of
 * which records what it shows and for which index.  All values are read
 * from the device when a file is read.
 *
 * Lifetime: files are only read between ib_sysfs_setup() and
 * ib_sysfs_cleanup(); removing a kobject's directory waits for readers
 * still inside a show or store, so none of them outlives the cleanup.  The
 * kobjects' release functions free memory only and never look at the
 * device, so they may run whenever the last reference goes.
 */
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/kobject.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/sysfs.h>
#include "core_priv.h"

/* hw_counters/lifespan: its initial value, and the most it may be set to. */
#define IB_SYSFS_STATS_LIFESPAN_MS	10
#define IB_SYSFS_STATS_LIFESPAN_MAX_MS	10000

/* What a file under ports/N/ shows. */
enum ib_sysfs_kind {
	IB_SYSFS_STATE,
	IB_SYSFS_PHYS_STATE,
	IB_SYSFS_RATE,
	IB_SYSFS_LID,
	IB_SYSFS_SM_LID,
	IB_SYSFS_SM_SL,
	IB_SYSFS_LID_MASK_COUNT,
	IB_SYSFS_CAP_MASK,
	IB_SYSFS_LINK_LAYER,
	IB_SYSFS_GID,
	IB_SYSFS_PKEY,
	IB_SYSFS_GID_NDEV,
	IB_SYSFS_GID_TYPE,
	IB_SYSFS_HW_COUNTER,
	IB_SYSFS_HW_LIFESPAN,
	IB_SYSFS_NR_KINDS
};

/*
 * One file below ports/N/.  @index is the table slot (or counter) it
 * shows; table files are named after it, in @name, which is large enough
 * for any u32.  The named port files are static and leave @name unused.
 */
struct ib_sysfs_file {
	struct attribute attr;
	u32 index;
	u8 kind;		/* enum ib_sysfs_kind */
	char name[11];
};

#define IB_SYSFS_MAX_GROUPS	3

/*
 * What ports/N/ and ports/N/gid_attrs/ have in common: the port they
 * describe and their tables.  @files and @slots are filled in order through
 * the two cursors; @slots holds each group's attribute list, each one
 * NULL-terminated, back to back.
 */
struct ib_sysfs_dir {
	struct kobject kobj;
	struct ib_device *ibdev;
	u32 port_num;

	struct ib_sysfs_file *files;
	struct attribute **slots;
	unsigned int next_file;
	unsigned int next_slot;
	unsigned int nr_groups;
	struct attribute_group groups[IB_SYSFS_MAX_GROUPS];
	const struct attribute_group *group_list[IB_SYSFS_MAX_GROUPS + 1];
};

/* ports/N/gid_attrs/ */
struct ib_sysfs_gid_attrs {
	struct ib_sysfs_dir dir;
};

/* ports/N/; ib_port(ibdev, N)->sysfs points at dir.kobj. */
struct ib_sysfs_port {
	struct ib_sysfs_dir dir;
	struct ib_sysfs_gid_attrs *gid_attrs;

	/*
	 * hw_counters are fetched from the driver at most once per lifespan;
	 * reads in between are served from the values it last wrote.  These
	 * three are under the port's hw_stats_lock.
	 */
	unsigned long stats_lifespan;	/* jiffies */
	unsigned long stats_stamp;	/* jiffies of the last full update */
	bool stats_valid;		/* stats_stamp means something */
};

struct ib_sysfs_file_ops {
	ssize_t (*show)(struct ib_sysfs_dir *dir,
			const struct ib_sysfs_file *file, char *buf);
	ssize_t (*store)(struct ib_sysfs_dir *dir,
			 const struct ib_sysfs_file *file, const char *buf,
			 size_t count);
};

static inline struct ib_device *dev_to_ibdev(struct device *dev)
{
	return container_of(dev, struct ib_device, dev);
}

/* ---------------------------------------------------------------------
 * The device's own files
 */

/* ibdev->node_type holds the UAPI's RDMA_NODE_* values. */
static const char *node_type_name(unsigned int type)
{
	switch (type) {
	case RDMA_NODE_IB_CA:
		return "CA";
	case RDMA_NODE_IB_SWITCH:
		return "switch";
	case RDMA_NODE_IB_ROUTER:
		return "router";
	case RDMA_NODE_RNIC:
		return "RNIC";
	case RDMA_NODE_USNIC:
		return "usNIC";
	case RDMA_NODE_USNIC_UDP:
		return "usNIC UDP";
	case RDMA_NODE_UNSPECIFIED:
		return "unspecified";
	}
	return "<unknown>";
}

/* A GUID as four big-endian 16-bit groups: "5054:00ff:fe00:0001". */
static ssize_t emit_guid(char *buf, __be64 guid)
{
	u64 v = be64_to_cpu(guid);

	return sysfs_emit(buf, "%04x:%04x:%04x:%04x\n",
			  (unsigned int)(v >> 48) & 0xffff,
			  (unsigned int)(v >> 32) & 0xffff,
			  (unsigned int)(v >> 16) & 0xffff,
			  (unsigned int)v & 0xffff);
}

static ssize_t node_type_show(struct device *dev,
			      struct device_attribute *attr, char *buf)
{
	struct ib_device *ibdev = dev_to_ibdev(dev);

	return sysfs_emit(buf, "%u: %s\n", ibdev->node_type,
			  node_type_name(ibdev->node_type));
}
static DEVICE_ATTR_RO(node_type);

static ssize_t node_guid_show(struct device *dev,
			      struct device_attribute *attr, char *buf)
{
	return emit_guid(buf, dev_to_ibdev(dev)->node_guid);
}
static DEVICE_ATTR_RO(node_guid);

static ssize_t sys_image_guid_show(struct device *dev,
				   struct device_attribute *attr, char *buf)
{
	return emit_guid(buf, dev_to_ibdev(dev)->attrs.sys_image_guid);
}
static DEVICE_ATTR_RO(sys_image_guid);

/*
 * The firmware version as text is the driver's to format, and the in-tree
 * core prints an empty line for drivers that do not (rxe).  No driver of
 * ours formats one (ib_device_ops has no hook for it), so neither do we:
 * the numeric attrs.fw_ver reaches userspace through query_device.
 */
static ssize_t fw_ver_show(struct device *dev, struct device_attribute *attr,
			   char *buf)
{
	return sysfs_emit(buf, "\n");
}
static DEVICE_ATTR_RO(fw_ver);

static ssize_t node_desc_show(struct device *dev,
			      struct device_attribute *attr, char *buf)
{
	struct ib_device *ibdev = dev_to_ibdev(dev);

	/* Not necessarily NUL-terminated when all IB_NODE_DESC_MAX are used. */
	return sysfs_emit(buf, "%.*s\n", IB_NODE_DESC_MAX, ibdev->node_desc);
}

/*
 * As in-tree: the first IB_NODE_DESC_MAX bytes written, NUL-padded and
 * taken as they are (a newline from `echo` is kept, as in-tree), go to the
 * driver, which stores them in ibdev->node_desc.
 */
static ssize_t node_desc_store(struct device *dev,
			       struct device_attribute *attr,
			       const char *buf, size_t count)
{
	struct ib_device *ibdev = dev_to_ibdev(dev);
	char desc[IB_NODE_DESC_MAX] = {};
	int ret;

	if (!ibdev->ops.modify_device)
		return -EOPNOTSUPP;

	memcpy(desc, buf, min(count, sizeof(desc)));
	ret = ibdev->ops.modify_device(ibdev, desc);
	return ret ? ret : count;
}
static DEVICE_ATTR_RW(node_desc);

static struct attribute *ib_dev_attrs[] = {
	&dev_attr_node_type.attr,
	&dev_attr_node_guid.attr,
	&dev_attr_sys_image_guid.attr,
	&dev_attr_fw_ver.attr,
	&dev_attr_node_desc.attr,
	NULL
};

const struct attribute_group ib_dev_attr_group = {
	.attrs = ib_dev_attrs,
};

/* ---------------------------------------------------------------------
 * ports/N/: the port's attributes, queried at each read
 */

static const char *port_state_name(enum ib_port_state state)
{
	static const char * const names[] = {
		[IB_PORT_NOP]		= "NOP",
		[IB_PORT_DOWN]		= "DOWN",
		[IB_PORT_INIT]		= "INIT",
		[IB_PORT_ARMED]		= "ARMED",
		[IB_PORT_ACTIVE]	= "ACTIVE",
		[IB_PORT_ACTIVE_DEFER]	= "ACTIVE_DEFER",
	};

	if ((unsigned int)state < ARRAY_SIZE(names))
		return names[state];
	return "UNKNOWN";
}

static const char *port_phys_state_name(unsigned int phys_state)
{
	static const char * const names[] = {
		[IB_PORT_PHYS_STATE_SLEEP]	= "Sleep",
		[IB_PORT_PHYS_STATE_POLLING]	= "Polling",
		[IB_PORT_PHYS_STATE_DISABLED]	= "Disabled",
		[IB_PORT_PHYS_STATE_PORT_CONFIGURATION_TRAINING] =
			"PortConfigurationTraining",
		[IB_PORT_PHYS_STATE_LINK_UP]	= "LinkUp",
		[IB_PORT_PHYS_STATE_LINK_ERROR_RECOVERY] = "LinkErrorRecovery",
		[IB_PORT_PHYS_STATE_PHY_TEST]	= "Phy Test",
	};

	if (phys_state < ARRAY_SIZE(names) && names[phys_state])
		return names[phys_state];
	return "<unknown>";
}

/* Lanes of an IBTA width code; -1 if it is not one. */
static int port_width_lanes(u8 width)
{
	switch (width) {
	case IB_WIDTH_1X:
		return 1;
	case IB_WIDTH_2X:
		return 2;
	case IB_WIDTH_4X:
		return 4;
	case IB_WIDTH_8X:
		return 8;
	case IB_WIDTH_12X:
		return 12;
	}
	return -1;
}

/* "2.5 Gb/sec (1X SDR)": lanes times the per-lane rate of the speed. */
static ssize_t emit_port_rate(char *buf, const struct ib_port_attr *attr)
{
	int lanes = port_width_lanes(attr->active_width);
	const char *speed;
	int rate;		/* per lane, in 100 Mb/s */

	switch (attr->active_speed) {
	case IB_SPEED_DDR:
		speed = "DDR";
		rate = 50;
		break;
	case IB_SPEED_QDR:
		speed = "QDR";
		rate = 100;
		break;
	case IB_SPEED_FDR10:
		speed = "FDR10";
		rate = 100;
		break;
	case IB_SPEED_FDR:
		speed = "FDR";
		rate = 140;
		break;
	case IB_SPEED_EDR:
		speed = "EDR";
		rate = 250;
		break;
	case IB_SPEED_HDR:
		speed = "HDR";
		rate = 500;
		break;
	case IB_SPEED_NDR:
		speed = "NDR";
		rate = 1000;
		break;
	default:	/* SDR, and what any unknown speed is shown as */
		speed = "SDR";
		rate = 25;
		break;
	}

	if (lanes < 0)
		return -EINVAL;
	rate *= lanes;

	/* Every rate is a multiple of 2.5 Gb/s: the tenths are 0 or 5. */
	return sysfs_emit(buf, "%d%s Gb/sec (%dX %s)\n", rate / 10,
			  rate % 10 ? ".5" : "", lanes, speed);
}

static ssize_t port_attr_show(struct ib_sysfs_dir *dir,
			      const struct ib_sysfs_file *file, char *buf)
{
	struct ib_port_attr attr = {};
	int ret;

	ret = ib_query_port(dir->ibdev, dir->port_num, &attr);
	if (ret)
		return ret;

	switch (file->kind) {
	case IB_SYSFS_STATE:
		return sysfs_emit(buf, "%d: %s\n", attr.state,
				  port_state_name(attr.state));
	case IB_SYSFS_PHYS_STATE:
		return sysfs_emit(buf, "%u: %s\n", attr.phys_state,
				  port_phys_state_name(attr.phys_state));
	case IB_SYSFS_RATE:
		return emit_port_rate(buf, &attr);
	case IB_SYSFS_LID:
		return sysfs_emit(buf, "0x%x\n", attr.lid);
	case IB_SYSFS_SM_LID:
		return sysfs_emit(buf, "0x%x\n", attr.sm_lid);
	case IB_SYSFS_SM_SL:
		return sysfs_emit(buf, "%u\n", attr.sm_sl);
	case IB_SYSFS_LID_MASK_COUNT:
		return sysfs_emit(buf, "%u\n", attr.lmc);
	case IB_SYSFS_CAP_MASK:
		return sysfs_emit(buf, "0x%08x\n", attr.port_cap_flags);
	}
	return -EIO;
}

static ssize_t link_layer_show(struct ib_sysfs_dir *dir,
			       const struct ib_sysfs_file *file, char *buf)
{
	const char *name;

	switch (rdma_port_get_link_layer(dir->ibdev, dir->port_num)) {
	case IB_LINK_LAYER_INFINIBAND:
		name = "InfiniBand";
		break;
	case IB_LINK_LAYER_ETHERNET:
		name = "Ethernet";
		break;
	default:
		name = "Unknown";
		break;
	}
	return sysfs_emit(buf, "%s\n", name);
}

/* ---------------------------------------------------------------------
 * The tables: gids/, pkeys/, gid_attrs/{ndevs,types}/
 */

/*
 * An empty GID slot reads as the zero GID, not as an error: tools walk
 * the whole table and stop at the first failing read.
 */
static ssize_t gid_show(struct ib_sysfs_dir *dir,
			const struct ib_sysfs_file *file, char *buf)
{
	static const u8 zero_gid[16];
	const struct ib_gid_attr *gid_attr;
	ssize_t ret;

	gid_attr = rdma_get_gid_attr(dir->ibdev, dir->port_num, file->index);
	if (IS_ERR(gid_attr))
		return sysfs_emit(buf, "%pI6\n", zero_gid);

	ret = sysfs_emit(buf, "%pI6\n", gid_attr->gid.raw);
	rdma_put_gid_attr(gid_attr);
	return ret;
}

static const char *gid_type_name(enum ib_uverbs_gid_type type)
{
	switch (type) {
	case IB_UVERBS_GID_TYPE_IB:
	case IB_UVERBS_GID_TYPE_ROCE_V1:
		/* One name for both, as userspace has always read it. */
		return "IB/RoCE v1";
	case IB_UVERBS_GID_TYPE_ROCE_V2:
		return "RoCE v2";
	}
	return "Invalid GID type";
}

/*
 * gid_attrs/ files of an empty slot, and ndevs/ of a GID without a netdev,
 * fail with -EINVAL whatever the GID table said: userspace tests for it.
 */
static ssize_t gid_attr_show(struct ib_sysfs_dir *dir,
			     const struct ib_sysfs_file *file, char *buf)
{
	const struct ib_gid_attr *gid_attr;
	struct net_device *ndev;
	ssize_t ret;

	gid_attr = rdma_get_gid_attr(dir->ibdev, dir->port_num, file->index);
	if (IS_ERR(gid_attr))
		return -EINVAL;

	if (file->kind == IB_SYSFS_GID_TYPE) {
		ret = sysfs_emit(buf, "%s\n",
				 gid_type_name(gid_attr->gid_type));
	} else {
		rcu_read_lock();
		ndev = rcu_dereference(gid_attr->ndev);
		ret = ndev ? sysfs_emit(buf, "%s\n", ndev->name) : -EINVAL;
		rcu_read_unlock();
	}

	rdma_put_gid_attr(gid_attr);
	return ret;
}

static ssize_t pkey_show(struct ib_sysfs_dir *dir,
			 const struct ib_sysfs_file *file, char *buf)
{
	u16 pkey;
	int ret;

	/* pkey_tbl_len is a u16: every index fits. */
	ret = ib_query_pkey(dir->ibdev, dir->port_num, (u16)file->index, &pkey);
	if (ret)
		return ret;
	return sysfs_emit(buf, "0x%04x\n", pkey);
}

/* ---------------------------------------------------------------------
 * hw_counters/
 */

static ssize_t hw_counter_show(struct ib_sysfs_dir *dir,
			       const struct ib_sysfs_file *file, char *buf)
{
	struct ib_sysfs_port *port = container_of(dir, struct ib_sysfs_port,
						  dir);
	struct ib_device *ibdev = dir->ibdev;
	struct ib_port_data *pdata = ib_port(ibdev, dir->port_num);
	struct rdma_hw_stats *stats = pdata->hw_stats;
	u64 value;
	int ret;

	mutex_lock(&pdata->hw_stats_lock);
	if (!port->stats_valid ||
	    time_after(jiffies, port->stats_stamp + port->stats_lifespan)) {
		/*
		 * The driver updates at least the counter asked for and says
		 * how many it updated; only a full update restarts the
		 * lifespan.
		 */
		ret = ibdev->ops.get_hw_stats(ibdev, stats, dir->port_num,
					      file->index);
		if (ret < 0) {
			mutex_unlock(&pdata->hw_stats_lock);
			return ret;
		}
		if (ret == stats->num_counters) {
			port->stats_stamp = jiffies;
			port->stats_valid = true;
		}
	}
	value = stats->value[file->index];
	mutex_unlock(&pdata->hw_stats_lock);

	return sysfs_emit(buf, "%llu\n", value);
}

/* lifespan: how long fetched counter values are reused, in milliseconds. */
static ssize_t hw_lifespan_show(struct ib_sysfs_dir *dir,
				const struct ib_sysfs_file *file, char *buf)
{
	struct ib_sysfs_port *port = container_of(dir, struct ib_sysfs_port,
						  dir);
	struct ib_port_data *pdata = ib_port(dir->ibdev, dir->port_num);
	unsigned int msecs;

	mutex_lock(&pdata->hw_stats_lock);
	msecs = jiffies_to_msecs(port->stats_lifespan);
	mutex_unlock(&pdata->hw_stats_lock);

	return sysfs_emit(buf, "%u\n", msecs);
}

static ssize_t hw_lifespan_store(struct ib_sysfs_dir *dir,
				 const struct ib_sysfs_file *file,
				 const char *buf, size_t count)
{
	struct ib_sysfs_port *port = container_of(dir, struct ib_sysfs_port,
						  dir);
	struct ib_port_data *pdata = ib_port(dir->ibdev, dir->port_num);
	int msecs;
	int ret;

	ret = kstrtoint(buf, 10, &msecs);
	if (ret)
		return ret;
	if (msecs < 0 || msecs > IB_SYSFS_STATS_LIFESPAN_MAX_MS)
		return -EINVAL;

	mutex_lock(&pdata->hw_stats_lock);
	port->stats_lifespan = msecs_to_jiffies(msecs);
	mutex_unlock(&pdata->hw_stats_lock);

	return count;
}

/* ---------------------------------------------------------------------
 * Dispatch: every file below ports/ is a struct ib_sysfs_file
 */

static const struct ib_sysfs_file_ops ib_sysfs_file_ops[IB_SYSFS_NR_KINDS] = {
	[IB_SYSFS_STATE]		= { .show = port_attr_show },
	[IB_SYSFS_PHYS_STATE]		= { .show = port_attr_show },
	[IB_SYSFS_RATE]			= { .show = port_attr_show },
	[IB_SYSFS_LID]			= { .show = port_attr_show },
	[IB_SYSFS_SM_LID]		= { .show = port_attr_show },
	[IB_SYSFS_SM_SL]		= { .show = port_attr_show },
	[IB_SYSFS_LID_MASK_COUNT]	= { .show = port_attr_show },
	[IB_SYSFS_CAP_MASK]		= { .show = port_attr_show },
	[IB_SYSFS_LINK_LAYER]		= { .show = link_layer_show },
	[IB_SYSFS_GID]			= { .show = gid_show },
	[IB_SYSFS_PKEY]			= { .show = pkey_show },
	[IB_SYSFS_GID_NDEV]		= { .show = gid_attr_show },
	[IB_SYSFS_GID_TYPE]		= { .show = gid_attr_show },
	[IB_SYSFS_HW_COUNTER]		= { .show = hw_counter_show },
	[IB_SYSFS_HW_LIFESPAN]		= { .show = hw_lifespan_show,
					    .store = hw_lifespan_store },
};

static ssize_t ib_sysfs_show(struct kobject *kobj, struct attribute *attr,
			     char *buf)
{
	struct ib_sysfs_dir *dir = container_of(kobj, struct ib_sysfs_dir,
						kobj);
	const struct ib_sysfs_file *file =
		container_of(attr, struct ib_sysfs_file, attr);
	const struct ib_sysfs_file_ops *ops = &ib_sysfs_file_ops[file->kind];

	if (!ops->show)
		return -EIO;
	return ops->show(dir, file, buf);
}

/* Only lifespan has a store; the other files are created read-only. */
static ssize_t ib_sysfs_store(struct kobject *kobj, struct attribute *attr,
			      const char *buf, size_t count)
{
	struct ib_sysfs_dir *dir = container_of(kobj, struct ib_sysfs_dir,
						kobj);
	const struct ib_sysfs_file *file =
		container_of(attr, struct ib_sysfs_file, attr);
	const struct ib_sysfs_file_ops *ops = &ib_sysfs_file_ops[file->kind];

	if (!ops->store)
		return -EIO;
	return ops->store(dir, file, buf, count);
}

static const struct sysfs_ops ib_sysfs_ops = {
	.show = ib_sysfs_show,
	.store = ib_sysfs_store,
};

/* ---------------------------------------------------------------------
 * Building the kobjects
 */

#define IB_PORT_FILE(_name, _kind)					\
	static struct ib_sysfs_file ib_port_file_##_name = {		\
		.attr = { .name = __stringify(_name), .mode = 0444 },	\
		.kind = (_kind),					\
	}

IB_PORT_FILE(state, IB_SYSFS_STATE);
IB_PORT_FILE(phys_state, IB_SYSFS_PHYS_STATE);
IB_PORT_FILE(rate, IB_SYSFS_RATE);
IB_PORT_FILE(lid, IB_SYSFS_LID);
IB_PORT_FILE(sm_lid, IB_SYSFS_SM_LID);
IB_PORT_FILE(sm_sl, IB_SYSFS_SM_SL);
IB_PORT_FILE(lid_mask_count, IB_SYSFS_LID_MASK_COUNT);
IB_PORT_FILE(cap_mask, IB_SYSFS_CAP_MASK);
IB_PORT_FILE(link_layer, IB_SYSFS_LINK_LAYER);

static struct attribute *ib_port_default_attrs[] = {
	&ib_port_file_state.attr,
	&ib_port_file_phys_state.attr,
	&ib_port_file_rate.attr,
	&ib_port_file_lid.attr,
	&ib_port_file_sm_lid.attr,
	&ib_port_file_sm_sl.attr,
	&ib_port_file_lid_mask_count.attr,
	&ib_port_file_cap_mask.attr,
	&ib_port_file_link_layer.attr,
	NULL
};
ATTRIBUTE_GROUPS(ib_port_default);

static void ib_sysfs_dir_free_tables(struct ib_sysfs_dir *dir)
{
	kvfree(dir->slots);
	kvfree(dir->files);
}

static void ib_port_release(struct kobject *kobj)
{
	struct ib_sysfs_port *port =
		container_of(kobj, struct ib_sysfs_port, dir.kobj);

	ib_sysfs_dir_free_tables(&port->dir);
	kfree(port);
}

static void ib_gid_attrs_release(struct kobject *kobj)
{
	struct ib_sysfs_gid_attrs *gid_attrs =
		container_of(kobj, struct ib_sysfs_gid_attrs, dir.kobj);

	ib_sysfs_dir_free_tables(&gid_attrs->dir);
	kfree(gid_attrs);
}

static const struct kobj_type ib_port_ktype = {
	.release = ib_port_release,
	.sysfs_ops = &ib_sysfs_ops,
	.default_groups = ib_port_default_groups,
};

static const struct kobj_type ib_gid_attrs_ktype = {
	.release = ib_gid_attrs_release,
	.sysfs_ops = &ib_sysfs_ops,
};

/*
 * Room for @nr_files files in at most @nr_groups groups
 * (IB_SYSFS_MAX_GROUPS at most).
 */
static int ib_sysfs_dir_alloc(struct ib_sysfs_dir *dir, size_t nr_files,
			      unsigned int nr_groups)
{
	dir->files = kvcalloc(nr_files, sizeof(*dir->files), GFP_KERNEL);
	dir->slots = kvcalloc(size_add(nr_files, nr_groups),
			      sizeof(*dir->slots), GFP_KERNEL);
	if (!dir->files || !dir->slots)
		return -ENOMEM;	/* the release function frees either */
	return 0;
}

static void ib_sysfs_group_begin(struct ib_sysfs_dir *dir, const char *name)
{
	struct attribute_group *group = &dir->groups[dir->nr_groups];

	group->name = name;
	group->attrs = &dir->slots[dir->next_slot];
	dir->group_list[dir->nr_groups++] = group;
}

static void ib_sysfs_group_end(struct ib_sysfs_dir *dir)
{
	dir->slots[dir->next_slot++] = NULL;
}

/* Adds a file to the group begun last; @name NULL names it after @index. */
static void ib_sysfs_group_add(struct ib_sysfs_dir *dir, const char *name,
			       umode_t mode, enum ib_sysfs_kind kind, u32 index)
{
	struct ib_sysfs_file *file = &dir->files[dir->next_file++];

	sysfs_attr_init(&file->attr);
	if (!name) {
		snprintf(file->name, sizeof(file->name), "%u", index);
		name = file->name;
	}
	file->attr.name = name;
	file->attr.mode = mode;
	file->kind = kind;
	file->index = index;
	dir->slots[dir->next_slot++] = &file->attr;
}

/* A group of @count files named 0 .. @count - 1. */
static void ib_sysfs_add_table(struct ib_sysfs_dir *dir, const char *name,
			       enum ib_sysfs_kind kind, u32 count)
{
	u32 i;

	ib_sysfs_group_begin(dir, name);
	for (i = 0; i < count; i++)
		ib_sysfs_group_add(dir, NULL, 0444, kind, i);
	ib_sysfs_group_end(dir);
}

/*
 * Whether the port has hw_counters/: a driver that exposes counters sets
 * hw_stats up and reads them with get_hw_stats().
 */
static bool ib_port_has_hw_counters(struct ib_device *ibdev, u32 port_num)
{
	const struct rdma_hw_stats *stats = ib_port(ibdev, port_num)->hw_stats;

	return stats && stats->descs && stats->num_counters > 0 &&
	       ibdev->ops.get_hw_stats;
}

/*
 * hw_counters/: the counters under the names the driver gives them, and
 * "lifespan".  The names stay the driver's: they are needed until the
 * files are removed, and the driver's stats outlive ib_sysfs_cleanup().
 */
static int ib_sysfs_add_hw_counters(struct ib_sysfs_port *port)
{
	struct ib_sysfs_dir *dir = &port->dir;
	const struct rdma_hw_stats *stats =
		ib_port(dir->ibdev, dir->port_num)->hw_stats;
	int i;

	for (i = 0; i < stats->num_counters; i++)
		if (!stats->descs[i].name || !stats->descs[i].name[0])
			return -EINVAL;

	ib_sysfs_group_begin(dir, "hw_counters");
	for (i = 0; i < stats->num_counters; i++)
		ib_sysfs_group_add(dir, stats->descs[i].name, 0444,
				   IB_SYSFS_HW_COUNTER, i);
	ib_sysfs_group_add(dir, "lifespan", 0644, IB_SYSFS_HW_LIFESPAN, 0);
	ib_sysfs_group_end(dir);

	port->stats_lifespan = msecs_to_jiffies(IB_SYSFS_STATS_LIFESPAN_MS);
	return 0;
}

/* ports/N/gid_attrs/{ndevs,types}/ */
static int ib_sysfs_add_gid_attrs(struct ib_sysfs_port *port, u32 nr_gids)
{
	struct ib_sysfs_gid_attrs *gid_attrs;
	int ret;

	gid_attrs = kzalloc(sizeof(*gid_attrs), GFP_KERNEL);
	if (!gid_attrs)
		return -ENOMEM;
	gid_attrs->dir.ibdev = port->dir.ibdev;
	gid_attrs->dir.port_num = port->dir.port_num;
	kobject_init(&gid_attrs->dir.kobj, &ib_gid_attrs_ktype);

	ret = ib_sysfs_dir_alloc(&gid_attrs->dir, 2 * (size_t)nr_gids, 2);
	if (ret)
		goto err_put;
	ib_sysfs_add_table(&gid_attrs->dir, "ndevs", IB_SYSFS_GID_NDEV,
			   nr_gids);
	ib_sysfs_add_table(&gid_attrs->dir, "types", IB_SYSFS_GID_TYPE,
			   nr_gids);

	ret = kobject_add(&gid_attrs->dir.kobj, &port->dir.kobj, "gid_attrs");
	if (ret)
		goto err_put;
	ret = sysfs_create_groups(&gid_attrs->dir.kobj,
				  gid_attrs->dir.group_list);
	if (ret)
		goto err_del;

	port->gid_attrs = gid_attrs;
	return 0;

err_del:
	kobject_del(&gid_attrs->dir.kobj);
err_put:
	kobject_put(&gid_attrs->dir.kobj);
	return ret;
}

/*
 * Removing a kobject's directory removes everything below it, groups
 * included, and first waits for the readers of each file; the files are
 * not removed one by one by name, so nothing here needs the names.
 */
static void ib_sysfs_del_port(struct ib_sysfs_port *port)
{
	if (port->gid_attrs) {
		kobject_del(&port->gid_attrs->dir.kobj);
		kobject_put(&port->gid_attrs->dir.kobj);
		port->gid_attrs = NULL;
	}
	kobject_del(&port->dir.kobj);
	kobject_put(&port->dir.kobj);
}

/* ports/N/ and all below it; the tables are sized as the port reports. */
static int ib_sysfs_add_port(struct ib_device *ibdev, struct kobject *ports,
			     u32 port_num)
{
	struct rdma_hw_stats *stats = ib_port(ibdev, port_num)->hw_stats;
	bool hw_counters = ib_port_has_hw_counters(ibdev, port_num);
	struct ib_port_attr attr = {};
	struct ib_sysfs_port *port;
	size_t nr_files;
	u32 nr_gids;
	int ret;

	ret = ib_query_port(ibdev, port_num, &attr);
	if (ret)
		return ret;
	if (attr.gid_tbl_len < 0)
		return -EINVAL;
	nr_gids = attr.gid_tbl_len;

	port = kzalloc(sizeof(*port), GFP_KERNEL);
	if (!port)
		return -ENOMEM;
	port->dir.ibdev = ibdev;
	port->dir.port_num = port_num;
	kobject_init(&port->dir.kobj, &ib_port_ktype);

	nr_files = (size_t)nr_gids + attr.pkey_tbl_len;
	if (hw_counters)
		nr_files += stats->num_counters + 1;
	ret = ib_sysfs_dir_alloc(&port->dir, nr_files, 3);
	if (ret)
		goto err_put;

	ib_sysfs_add_table(&port->dir, "gids", IB_SYSFS_GID, nr_gids);
	if (attr.pkey_tbl_len)
		ib_sysfs_add_table(&port->dir, "pkeys", IB_SYSFS_PKEY,
				   attr.pkey_tbl_len);
	if (hw_counters) {
		ret = ib_sysfs_add_hw_counters(port);
		if (ret)
			goto err_put;
	}

	ret = kobject_add(&port->dir.kobj, ports, "%u", port_num);
	if (ret)
		goto err_put;
	ret = sysfs_create_groups(&port->dir.kobj, port->dir.group_list);
	if (ret)
		goto err_del;
	ret = ib_sysfs_add_gid_attrs(port, nr_gids);
	if (ret)
		goto err_del;

	ib_port(ibdev, port_num)->sysfs = &port->dir.kobj;
	return 0;

err_del:
	ib_sysfs_del_port(port);
	return ret;
err_put:
	kobject_put(&port->dir.kobj);
	return ret;
}

/* Removes the ports set up so far, then ports/ itself. */
static void ib_sysfs_del_ports(struct ib_device *ibdev, struct kobject *ports)
{
	struct ib_port_data *pdata;
	u32 port_num;

	rdma_for_each_port(ibdev, port_num) {
		pdata = ib_port(ibdev, port_num);
		if (!pdata->sysfs)
			continue;
		ib_sysfs_del_port(container_of(pdata->sysfs,
					       struct ib_sysfs_port, dir.kobj));
		pdata->sysfs = NULL;
	}
	kobject_del(ports);
	kobject_put(ports);
}

/*
 * Called once the device is in sysfs (after device_add()).  On failure
 * nothing of what it added is left.
 *
 * ports/ itself is found again at cleanup as the parent of ports/1/, which
 * every device has: the core registers no device without ports, and a
 * device without ports gets no ports/ here.
 */
int ib_sysfs_setup(struct ib_device *ibdev)
{
	struct kobject *ports;
	u32 port_num;
	int ret;

	if (!ibdev->phys_port_cnt || !ibdev->port_data)
		return 0;

	ports = kobject_create_and_add("ports", &ibdev->dev.kobj);
	if (!ports)
		return -ENOMEM;

	rdma_for_each_port(ibdev, port_num) {
		ret = ib_sysfs_add_port(ibdev, ports, port_num);
		if (ret)
			goto err;
	}
	return 0;

err:
	ib_sysfs_del_ports(ibdev, ports);
	return ret;
}

/*
 * Called before device_del(), while the device and its driver still work:
 * once it returns, no show or store is running or will run.  A no-op if
 * ib_sysfs_setup() failed or was not called.
 */
void ib_sysfs_cleanup(struct ib_device *ibdev)
{
	struct kobject *port1;

	if (!ibdev->phys_port_cnt || !ibdev->port_data)
		return;
	port1 = ib_port(ibdev, 1)->sysfs;
	if (!port1)
		return;

	/* Taken before ports/1/ goes: kobject_del() clears ->parent. */
	ib_sysfs_del_ports(ibdev, port1->parent);
}

/*
 * ports/N/ for a client that adds its own directories there (ib_cm's
 * cm_rx_msgs/ and friends): valid from the client's add() to its
 * remove(), which run between ib_sysfs_setup() and ib_sysfs_cleanup().
 */
struct kobject *ib_port_sysfs_kobj(struct ib_device *ibdev, u32 port_num)
{
	if (!rdma_is_port_valid(ibdev, port_num) || !ibdev->port_data)
		return NULL;
	return ib_port(ibdev, port_num)->sysfs;
}
EXPORT_SYMBOL(ib_port_sysfs_kobj);
