// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The GID table of each port, and its upkeep for RoCE ports.
 *
 * A RoCE port's GIDs are its netdev's addresses: slot 0 holds the default
 * GID (fe80::/64 with the EUI-64 of the MAC), and every IPv4 address (as
 * ::ffff:a.b.c.d) and IPv6 address takes the lowest free slot after it.
 * Address and netdev notifiers queue the changes to one ordered workqueue,
 * so they apply in the order they happened; the inet6 notifier runs in
 * atomic context, which is why nothing is done in the notifiers themselves.
 *
 * Entries are immutable and reference counted: a reader that got one with
 * rdma_get_gid_attr() keeps a stable GID and netdev until it puts it, even
 * if the address is deleted meanwhile.  Only RoCE v2 GIDs are created: the
 * one RoCE driver here (rxe) speaks only RoCE v2, as in-tree.
 */
#include <linux/inetdevice.h>
#include <linux/module.h>
#include <net/addrconf.h>
#include <net/if_inet6.h>
#include "core_priv.h"

struct gid_entry {
	struct kref kref;
	struct ib_gid_attr attr;
};

struct ib_gid_table {
	struct mutex lock;	/* serializes changes */
	rwlock_t rwlock;	/* protects the slots for readers */
	unsigned int len;
	struct gid_entry *slots[];
};

static struct workqueue_struct *gid_wq;

static struct ib_gid_table *gid_table(struct ib_device *ibdev, u32 port)
{
	return ib_port(ibdev, port)->gid_table;
}

static bool port_is_roce(struct ib_device *ibdev, u32 port)
{
	return ib_port(ibdev, port)->immutable.core_cap_flags &
	       RDMA_CORE_CAP_PROT_ROCE_UDP_ENCAP;
}

static void gid_entry_release(struct kref *kref)
{
	struct gid_entry *e = container_of(kref, struct gid_entry, kref);

	dev_put(rcu_dereference_protected(e->attr.ndev, 1));
	kfree(e);
}

const struct ib_gid_attr *rdma_get_gid_attr(struct ib_device *ibdev,
					    u32 port, unsigned int index)
{
	struct ib_gid_table *table;
	struct gid_entry *e;

	if (!rdma_is_port_valid(ibdev, port))
		return ERR_PTR(-EINVAL);
	table = gid_table(ibdev, port);
	if (!table || index >= table->len)
		return ERR_PTR(-EINVAL);
	read_lock_irq(&table->rwlock);
	e = table->slots[index];
	if (e)
		kref_get(&e->kref);
	read_unlock_irq(&table->rwlock);
	return e ? &e->attr : ERR_PTR(-ENODATA);
}
EXPORT_SYMBOL(rdma_get_gid_attr);

void rdma_put_gid_attr(const struct ib_gid_attr *attr)
{
	struct gid_entry *e = container_of(attr, struct gid_entry, attr);

	kref_put(&e->kref, gid_entry_release);
}
EXPORT_SYMBOL(rdma_put_gid_attr);

int rdma_query_gid(struct ib_device *ibdev, u32 port, unsigned int index,
		   union ib_gid *gid)
{
	const struct ib_gid_attr *attr = rdma_get_gid_attr(ibdev, port, index);

	if (IS_ERR(attr))
		return PTR_ERR(attr);
	*gid = attr->gid;
	rdma_put_gid_attr(attr);
	return 0;
}
EXPORT_SYMBOL(rdma_query_gid);

ssize_t rdma_query_gid_table(struct ib_device *ibdev,
			     struct ib_uverbs_gid_entry *entries,
			     size_t max_entries)
{
	struct ib_gid_table *table;
	struct net_device *ndev;
	struct gid_entry *e;
	size_t n = 0;
	unsigned int i;
	u32 port;

	rdma_for_each_port(ibdev, port) {
		table = gid_table(ibdev, port);
		if (!table)
			continue;
		read_lock_irq(&table->rwlock);
		for (i = 0; i < table->len; i++) {
			e = table->slots[i];
			if (!e)
				continue;
			if (n == max_entries) {
				read_unlock_irq(&table->rwlock);
				return -EINVAL;	/* as in-tree: too small */
			}
			memcpy(&entries[n].gid, e->attr.gid.raw,
			       sizeof(entries[n].gid));
			entries[n].gid_index = i;
			entries[n].port_num = port;
			entries[n].gid_type = e->attr.gid_type;
			ndev = rcu_dereference_protected(e->attr.ndev, 1);
			entries[n].netdev_ifindex = ndev ? ndev->ifindex : 0;
			n++;
		}
		read_unlock_irq(&table->rwlock);
	}
	return n;
}
EXPORT_SYMBOL(rdma_query_gid_table);

static void gid_changed(struct ib_device *ibdev, u32 port)
{
	struct ib_event ev = {
		.device = ibdev,
		.event = IB_EVENT_GID_CHANGE,
		.port_num = port,
	};

	ib_dispatch_event(&ev);
}

static bool gid_matches(const struct gid_entry *e, const union ib_gid *gid,
			struct net_device *ndev)
{
	return !memcmp(e->attr.gid.raw, gid->raw, sizeof(gid->raw)) &&
	       rcu_access_pointer(e->attr.ndev) == ndev;
}

/* Store @gid for @ndev, once; @is_default takes the reserved slot 0. */
static int gid_add(struct ib_device *ibdev, u32 port, const union ib_gid *gid,
		   struct net_device *ndev, bool is_default)
{
	struct ib_gid_table *table = gid_table(ibdev, port);
	unsigned int i, free = table->len;
	struct gid_entry *e;

	mutex_lock(&table->lock);
	for (i = 0; i < table->len; i++) {
		if (!table->slots[i]) {
			if (free == table->len && (i > 0 || is_default))
				free = i;
		} else if (gid_matches(table->slots[i], gid, ndev)) {
			mutex_unlock(&table->lock);
			return 0;
		}
	}
	if (is_default)
		free = table->slots[0] ? table->len : 0;
	if (free == table->len) {
		mutex_unlock(&table->lock);
		return -ENOSPC;
	}
	e = kzalloc(sizeof(*e), GFP_KERNEL);
	if (!e) {
		mutex_unlock(&table->lock);
		return -ENOMEM;
	}
	kref_init(&e->kref);
	e->attr.device = ibdev;
	e->attr.gid = *gid;
	e->attr.gid_type = IB_UVERBS_GID_TYPE_ROCE_V2;
	e->attr.index = free;
	e->attr.port_num = port;
	dev_hold(ndev);
	RCU_INIT_POINTER(e->attr.ndev, ndev);

	write_lock_irq(&table->rwlock);
	table->slots[free] = e;
	write_unlock_irq(&table->rwlock);
	mutex_unlock(&table->lock);
	gid_changed(ibdev, port);
	return 0;
}

/* Remove @gid of @ndev, or with @gid NULL every GID of @ndev. */
static void gid_del(struct ib_device *ibdev, u32 port, const union ib_gid *gid,
		    struct net_device *ndev)
{
	struct ib_gid_table *table = gid_table(ibdev, port);
	struct gid_entry *e;
	bool changed = false;
	unsigned int i;

	mutex_lock(&table->lock);
	for (i = 0; i < table->len; i++) {
		e = table->slots[i];
		if (!e || rcu_access_pointer(e->attr.ndev) != ndev ||
		    (gid && !gid_matches(e, gid, ndev)))
			continue;
		write_lock_irq(&table->rwlock);
		table->slots[i] = NULL;
		write_unlock_irq(&table->rwlock);
		kref_put(&e->kref, gid_entry_release);
		changed = true;
	}
	mutex_unlock(&table->lock);
	if (changed)
		gid_changed(ibdev, port);
}

static void default_gid(struct net_device *ndev, union ib_gid *gid)
{
	memset(gid, 0, sizeof(*gid));
	gid->global.subnet_prefix = cpu_to_be64(0xfe80000000000000ULL);
	addrconf_addr_eui48(&gid->raw[8], ndev->dev_addr);
}

/* Add the default GID and a GID for every address @ndev has now. */
static void gid_add_all(struct ib_device *ibdev, u32 port,
			struct net_device *ndev)
{
	struct inet6_ifaddr *ifp;
	struct in_device *in_dev;
	struct inet6_dev *in6_dev;
	const struct in_ifaddr *ifa;
	union ib_gid *gids = NULL;
	unsigned int n = 0, max = 0, i;
	union ib_gid gid;

	default_gid(ndev, &gid);
	gid_add(ibdev, port, &gid, ndev, true);

	/*
	 * Addresses are collected under their locks and added after, since
	 * adding sleeps.  Two passes: count, then copy what still fits.
	 */
	for (;;) {
		n = 0;
		rcu_read_lock();
		in_dev = __in_dev_get_rcu(ndev);
		if (in_dev) {
			in_dev_for_each_ifa_rcu(ifa, in_dev) {
				if (n < max)
					ipv6_addr_set_v4mapped(ifa->ifa_address,
						(struct in6_addr *)gids[n].raw);
				n++;
			}
		}
		rcu_read_unlock();
		in6_dev = in6_dev_get(ndev);
		if (in6_dev) {
			read_lock_bh(&in6_dev->lock);
			list_for_each_entry(ifp, &in6_dev->addr_list, if_list) {
				if (n < max)
					memcpy(gids[n].raw, &ifp->addr,
					       sizeof(gids[n].raw));
				n++;
			}
			read_unlock_bh(&in6_dev->lock);
			in6_dev_put(in6_dev);
		}
		if (n <= max)
			break;
		kfree(gids);
		max = n + 4;
		gids = kcalloc(max, sizeof(*gids), GFP_KERNEL);
		if (!gids)
			return;
	}
	for (i = 0; i < n; i++)
		gid_add(ibdev, port, &gids[i], ndev, false);
	kfree(gids);
}

/* --- upkeep from netdev and address events --------------------------------- */

enum gid_work_op { GID_WORK_ADD, GID_WORK_DEL, GID_WORK_RESCAN, GID_WORK_FLUSH };

struct gid_work {
	struct work_struct work;
	enum gid_work_op op;
	struct net_device *ndev;	/* held */
	union ib_gid gid;
};

static void gid_work_apply(struct ib_device *ibdev, u32 port,
			   struct gid_work *w)
{
	switch (w->op) {
	case GID_WORK_ADD:
		gid_add(ibdev, port, &w->gid, w->ndev, false);
		break;
	case GID_WORK_DEL:
		gid_del(ibdev, port, &w->gid, w->ndev);
		break;
	case GID_WORK_RESCAN:
		gid_del(ibdev, port, NULL, w->ndev);
		gid_add_all(ibdev, port, w->ndev);
		break;
	case GID_WORK_FLUSH:
		gid_del(ibdev, port, NULL, w->ndev);
		break;
	}
}

static void gid_work_fn(struct work_struct *work)
{
	struct gid_work *w = container_of(work, struct gid_work, work);
	struct ib_device *ibdev;
	unsigned long index = 0;
	u32 port;

	while ((ibdev = ib_device_get_next(&index))) {
		rdma_for_each_port(ibdev, port) {
			if (port_is_roce(ibdev, port) && gid_table(ibdev, port) &&
			    rcu_access_pointer(ib_port(ibdev, port)->netdev) ==
			    w->ndev)
				gid_work_apply(ibdev, port, w);
		}
		ib_device_put(ibdev);
	}
	dev_put(w->ndev);
	kfree(w);
}

static void gid_queue(enum gid_work_op op, struct net_device *ndev,
		      const struct in6_addr *addr)
{
	struct gid_work *w = kzalloc(sizeof(*w), GFP_ATOMIC);

	if (!w)
		return;	/* the next rescan of this netdev repairs the table */
	INIT_WORK(&w->work, gid_work_fn);
	w->op = op;
	w->ndev = ndev;
	dev_hold(ndev);
	if (addr)
		memcpy(w->gid.raw, addr, sizeof(w->gid.raw));
	queue_work(gid_wq, &w->work);
}

static int gid_netdev_event(struct notifier_block *nb, unsigned long event,
			    void *ptr)
{
	struct net_device *ndev = netdev_notifier_info_to_dev(ptr);

	switch (event) {
	case NETDEV_UP:
	case NETDEV_CHANGEADDR:
		gid_queue(GID_WORK_RESCAN, ndev, NULL);
		break;
	case NETDEV_UNREGISTER:
		gid_queue(GID_WORK_FLUSH, ndev, NULL);
		break;
	}
	return NOTIFY_DONE;
}

static int gid_inetaddr_event(struct notifier_block *nb, unsigned long event,
			      void *ptr)
{
	const struct in_ifaddr *ifa = ptr;
	struct in6_addr addr;

	if (event != NETDEV_UP && event != NETDEV_DOWN)
		return NOTIFY_DONE;
	ipv6_addr_set_v4mapped(ifa->ifa_address, &addr);
	gid_queue(event == NETDEV_UP ? GID_WORK_ADD : GID_WORK_DEL,
		  ifa->ifa_dev->dev, &addr);
	return NOTIFY_DONE;
}

static int gid_inet6addr_event(struct notifier_block *nb, unsigned long event,
			       void *ptr)
{
	const struct inet6_ifaddr *ifp = ptr;

	if (event != NETDEV_UP && event != NETDEV_DOWN)
		return NOTIFY_DONE;
	gid_queue(event == NETDEV_UP ? GID_WORK_ADD : GID_WORK_DEL,
		  ifp->idev->dev, &ifp->addr);
	return NOTIFY_DONE;
}

static struct notifier_block gid_netdev_nb = { .notifier_call = gid_netdev_event };
static struct notifier_block gid_inet_nb = { .notifier_call = gid_inetaddr_event };
static struct notifier_block gid_inet6_nb = { .notifier_call = gid_inet6addr_event };

/* --- per-device setup -------------------------------------------------------- */

int ib_gid_table_setup(struct ib_device *ibdev)
{
	struct ib_gid_table *table;
	u32 port;
	int len;

	rdma_for_each_port(ibdev, port) {
		len = ib_port(ibdev, port)->immutable.gid_tbl_len;
		if (len <= 0)
			continue;
		table = kzalloc(struct_size(table, slots, len), GFP_KERNEL);
		if (!table) {
			ib_gid_table_cleanup(ibdev);
			return -ENOMEM;
		}
		mutex_init(&table->lock);
		rwlock_init(&table->rwlock);
		table->len = len;
		ib_port(ibdev, port)->gid_table = table;
	}
	return 0;
}

/* Fill RoCE ports' tables from their netdevs; the device is registered. */
void ib_gid_table_populate(struct ib_device *ibdev)
{
	struct net_device *ndev;
	u32 port;

	rdma_for_each_port(ibdev, port) {
		if (!port_is_roce(ibdev, port) || !gid_table(ibdev, port))
			continue;
		ndev = ib_device_get_netdev(ibdev, port);
		if (!ndev)
			continue;
		gid_add_all(ibdev, port, ndev);
		dev_put(ndev);
	}
}

void ib_gid_table_cleanup(struct ib_device *ibdev)
{
	struct ib_gid_table *table;
	unsigned int i;
	u32 port;

	rdma_for_each_port(ibdev, port) {
		table = gid_table(ibdev, port);
		if (!table)
			continue;
		for (i = 0; i < table->len; i++)
			if (table->slots[i])
				kref_put(&table->slots[i]->kref,
					 gid_entry_release);
		kfree(table);
		ib_port(ibdev, port)->gid_table = NULL;
	}
}

int ib_gid_init(void)
{
	int ret;

	gid_wq = alloc_ordered_workqueue("ib_core_gid", 0);
	if (!gid_wq)
		return -ENOMEM;
	ret = register_netdevice_notifier(&gid_netdev_nb);
	if (ret)
		goto err_wq;
	ret = register_inetaddr_notifier(&gid_inet_nb);
	if (ret)
		goto err_netdev;
	ret = register_inet6addr_notifier(&gid_inet6_nb);
	if (ret)
		goto err_inet;
	return 0;

err_inet:
	unregister_inetaddr_notifier(&gid_inet_nb);
err_netdev:
	unregister_netdevice_notifier(&gid_netdev_nb);
err_wq:
	destroy_workqueue(gid_wq);
	return ret;
}

void ib_gid_exit(void)
{
	unregister_inet6addr_notifier(&gid_inet6_nb);
	unregister_inetaddr_notifier(&gid_inet_nb);
	unregister_netdevice_notifier(&gid_netdev_nb);
	destroy_workqueue(gid_wq);	/* drains queued work first */
}
