// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Per-port CM counters, laid out as the in-tree ib_cm lays them out:
 *
 *   ports/N/cm_rx_msgs/<msg>        messages received
 *   ports/N/cm_tx_msgs/<msg>        messages sent (first transmissions)
 *   ports/N/cm_rx_duplicates/<msg>  received messages that repeated one
 *   ports/N/cm_tx_retries/<msg>     retransmissions
 *
 * with <msg> one of req mra rej rep rtu dreq drep sidr_req sidr_rep lap
 * apr.  Each directory is a small kobject of ours below the port's
 * kobject (ib_port_sysfs_kobj()); the counters live in struct cm_port,
 * which outlives the directories.
 *
 * Drops the in-tree layout has no place for are in debugfs:
 *
 *   ib_cm/<dev>-<port>  "rx_dropped_bad_attr N", "rx_dropped_stale N", ...
 *
 * and the ids themselves, for tests that must name a live connection on
 * the wire (its communication IDs are random, on purpose):
 *
 *   ib_cm/ids  "LOCAL_ID REMOTE_ID STATE LOCAL_QPN REMOTE_QPN" per id,
 *              the IDs in hex as the wire carries them, QPNs in hex
 */
#include <linux/debugfs.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include "cm_priv.h"

struct cm_counter_attr {
	struct attribute attr;
	unsigned int index;		/* attr_id - CM_ATTR_REQ */
};

#define CM_COUNTER(_name, _attr_id)					\
	static struct cm_counter_attr cm_counter_##_name = {		\
		.attr = { .name = __stringify(_name), .mode = 0444 },	\
		.index = (_attr_id) - CM_ATTR_REQ,			\
	}

CM_COUNTER(req, CM_ATTR_REQ);
CM_COUNTER(mra, CM_ATTR_MRA);
CM_COUNTER(rej, CM_ATTR_REJ);
CM_COUNTER(rep, CM_ATTR_REP);
CM_COUNTER(rtu, CM_ATTR_RTU);
CM_COUNTER(dreq, CM_ATTR_DREQ);
CM_COUNTER(drep, CM_ATTR_DREP);
CM_COUNTER(sidr_req, CM_ATTR_SIDR_REQ);
CM_COUNTER(sidr_rep, CM_ATTR_SIDR_REP);
CM_COUNTER(lap, CM_ATTR_LAP);
CM_COUNTER(apr, CM_ATTR_APR);

static struct attribute *cm_counter_attrs[] = {
	&cm_counter_req.attr, &cm_counter_mra.attr, &cm_counter_rej.attr,
	&cm_counter_rep.attr, &cm_counter_rtu.attr, &cm_counter_dreq.attr,
	&cm_counter_drep.attr, &cm_counter_sidr_req.attr,
	&cm_counter_sidr_rep.attr, &cm_counter_lap.attr,
	&cm_counter_apr.attr, NULL,
};
ATTRIBUTE_GROUPS(cm_counter);

static const char * const cm_counter_dir_names[CM_COUNTER_GROUPS] = {
	[CM_RECV]		= "cm_rx_msgs",
	[CM_XMIT]		= "cm_tx_msgs",
	[CM_RECV_DUPLICATES]	= "cm_rx_duplicates",
	[CM_XMIT_RETRIES]	= "cm_tx_retries",
};

static ssize_t cm_counter_show(struct kobject *kobj, struct attribute *attr,
			       char *buf)
{
	struct cm_counter_dir *dir = container_of(kobj, struct cm_counter_dir,
						  kobj);
	struct cm_counter_attr *ca = container_of(attr, struct cm_counter_attr,
						  attr);

	return sysfs_emit(buf, "%ld\n",
			  atomic_long_read(&dir->port->counters[dir->group]
							      [ca->index]));
}

static const struct sysfs_ops cm_counter_ops = {
	.show = cm_counter_show,
};

static void cm_counter_release(struct kobject *kobj)
{
	kfree(container_of(kobj, struct cm_counter_dir, kobj));
}

static const struct kobj_type cm_counter_ktype = {
	.sysfs_ops = &cm_counter_ops,
	.release = cm_counter_release,
	.default_groups = cm_counter_groups,
};

static struct dentry *cm_debugfs;

static const char * const cm_drop_names[CM_DROP_MAX] = {
	[CM_DROP_BAD_ATTR]	= "rx_dropped_bad_attr",
	[CM_DROP_STALE]		= "rx_dropped_stale",
	[CM_DROP_FOREIGN_GID]	= "rx_dropped_foreign_gid",
	[CM_DROP_BAD_QPN]	= "rx_dropped_bad_qpn",
	[CM_DROP_LISTEN_FULL]	= "rx_dropped_listen_full",
	[CM_DROP_ANSWER_RATELIMITED] = "tx_answer_ratelimited",
};

static int cm_drops_show(struct seq_file *m, void *unused)
{
	struct cm_port *port = m->private;
	int i;

	for (i = 0; i < CM_DROP_MAX; i++)
		seq_printf(m, "%s %ld\n", cm_drop_names[i],
			   atomic_long_read(&port->drops[i]));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(cm_drops);

static const char * const cm_state_names[] = {
	[IB_CM_IDLE]		= "IDLE",
	[IB_CM_LISTEN]		= "LISTEN",
	[IB_CM_REQ_SENT]	= "REQ_SENT",
	[IB_CM_REQ_RCVD]	= "REQ_RCVD",
	[IB_CM_MRA_REQ_SENT]	= "MRA_REQ_SENT",
	[IB_CM_MRA_REQ_RCVD]	= "MRA_REQ_RCVD",
	[IB_CM_REP_SENT]	= "REP_SENT",
	[IB_CM_REP_RCVD]	= "REP_RCVD",
	[IB_CM_MRA_REP_SENT]	= "MRA_REP_SENT",
	[IB_CM_MRA_REP_RCVD]	= "MRA_REP_RCVD",
	[IB_CM_ESTABLISHED]	= "ESTABLISHED",
	[IB_CM_DREQ_SENT]	= "DREQ_SENT",
	[IB_CM_DREQ_RCVD]	= "DREQ_RCVD",
	[IB_CM_TIMEWAIT]	= "TIMEWAIT",
	[IB_CM_SIDR_REQ_SENT]	= "SIDR_REQ_SENT",
	[IB_CM_SIDR_REQ_RCVD]	= "SIDR_REQ_RCVD",
};

/*
 * An id stays in the xarray until its teardown has erased it, and its
 * creator's reference outlives that: under the xarray's lock every entry
 * is alive.  The fields are read without the id's lock (a snapshot).
 */
static int cm_ids_show(struct seq_file *m, void *unused)
{
	struct cm_id_priv *priv;
	unsigned long index;

	xa_lock(&cm.local_ids);
	xa_for_each(&cm.local_ids, index, priv) {
		enum ib_cm_state s = READ_ONCE(priv->id.state);

		seq_printf(m, "%08x %08x %s %06x %06x\n",
			   be32_to_cpu(priv->id.local_id),
			   be32_to_cpu(READ_ONCE(priv->id.remote_id)),
			   s < ARRAY_SIZE(cm_state_names) ? cm_state_names[s] :
							    "?",
			   READ_ONCE(priv->local_qpn),
			   READ_ONCE(priv->remote_qpn));
	}
	xa_unlock(&cm.local_ids);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(cm_ids);

void cm_debugfs_init(void)
{
	cm_debugfs = debugfs_create_dir("ib_cm", NULL);
	debugfs_create_file("ids", 0400, cm_debugfs, NULL, &cm_ids_fops);
}

void cm_debugfs_exit(void)
{
	debugfs_remove(cm_debugfs);
}

int cm_sysfs_add_port(struct cm_port *port)
{
	struct kobject *parent;
	char name[IB_DEVICE_NAME_MAX + 12];
	int g, ret;

	snprintf(name, sizeof(name), "%s-%u",
		 dev_name(&port->cm_dev->ibdev->dev), port->port_num);
	port->debugfs = debugfs_create_file(name, 0400, cm_debugfs, port,
					    &cm_drops_fops);
	parent = ib_port_sysfs_kobj(port->cm_dev->ibdev, port->port_num);
	if (!parent)
		return 0;	/* no sysfs for this device: nothing to show */
	for (g = 0; g < CM_COUNTER_GROUPS; g++) {
		struct cm_counter_dir *dir = kzalloc(sizeof(*dir), GFP_KERNEL);

		if (!dir) {
			ret = -ENOMEM;
			goto err;
		}
		dir->port = port;
		dir->group = g;
		ret = kobject_init_and_add(&dir->kobj, &cm_counter_ktype,
					   parent, "%s",
					   cm_counter_dir_names[g]);
		if (ret) {
			kobject_put(&dir->kobj);
			goto err;
		}
		port->dirs[g] = dir;
	}
	return 0;
err:
	cm_sysfs_remove_port(port);
	return ret;
}

void cm_sysfs_remove_port(struct cm_port *port)
{
	int g;

	/* (waits for a reader in progress) */
	debugfs_remove(port->debugfs);
	port->debugfs = NULL;
	for (g = 0; g < CM_COUNTER_GROUPS; g++) {
		if (!port->dirs[g])
			continue;
		kobject_del(&port->dirs[g]->kobj);
		kobject_put(&port->dirs[g]->kobj);
		port->dirs[g] = NULL;
	}
}
