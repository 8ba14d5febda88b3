// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Multicast groups.  A group (struct rxe_mcg) exists while UD QPs are
 * attached to its MGID; it sits in rxe->mcg_tree, ordered by MGID, and
 * lists its members (struct rxe_mca).  The receive path looks groups up
 * under rxe->mcg_lock only (rxe_mcast_qps()); attach and detach, which
 * allocate and may sleep, are serialized by rxe_mcast_mutex and change
 * the tree and lists under mcg_lock as well.
 *
 * Members do not hold a reference on their QP: destroying a QP detaches
 * it (rxe_mcast_detach_all()) before its memory goes, and the receive
 * path takes its references with refcount_inc_not_zero(), skipping a QP
 * already being torn down.
 *
 * When a group gets its first member the device starts listening to it:
 * the Ethernet multicast address the IP address maps to is added to the
 * netdev's filter, and the IP stack joins the group (IGMP / MLD), without
 * which it drops multicast datagrams before they reach our UDP socket.
 * Both are undone when the last member leaves.
 *
 * Any process may attach, so the IP-level joins a device makes are
 * bounded like a socket's: by net.ipv4.igmp_max_memberships of the
 * netdev's namespace, for IPv4 and IPv6 groups together.  Past that a
 * group gets only the filter entry, as in-tree rxe gives every group;
 * attaching still succeeds.
 */
#include <linux/igmp.h>
#include <linux/inetdevice.h>
#include <linux/rtnetlink.h>
#include <linux/slab.h>
#include <net/addrconf.h>
#include <net/ip.h>
#include <net/ipv6.h>
#include "rxe_loc.h"

struct rxe_mcg {
	struct rb_node node;		/* in rxe->mcg_tree */
	union ib_gid mgid;
	struct list_head members;	/* of struct rxe_mca */
	unsigned int num_qp;
	bool ip_joined;			/* the IP stack joined for us */
};

struct rxe_mca {
	struct list_head list;
	struct rxe_qp *qp;
};

/* Attach and detach of every device: the control path only. */
static DEFINE_MUTEX(rxe_mcast_mutex);

static const struct in6_addr *rxe_mgid_addr(const union ib_gid *mgid)
{
	return (const struct in6_addr *)mgid->raw;
}

static bool rxe_mgid_is_v4(const union ib_gid *mgid)
{
	return ipv6_addr_v4mapped(rxe_mgid_addr(mgid));
}

/* IPv6 multicast, or IPv4-mapped IPv4 multicast. */
static bool rxe_mgid_is_mcast(const union ib_gid *mgid)
{
	const struct in6_addr *a = rxe_mgid_addr(mgid);

	if (ipv6_addr_v4mapped(a))
		return ipv4_is_multicast(a->s6_addr32[3]);
	return ipv6_addr_is_multicast(a);
}

static void rxe_mgid_mac(const union ib_gid *mgid, u8 *mac)
{
	const struct in6_addr *a = rxe_mgid_addr(mgid);

	if (rxe_mgid_is_v4(mgid))
		ip_eth_mc_map(a->s6_addr32[3], mac);
	else
		ipv6_eth_mc_map(a, mac);
}

/* Whether the IP stack joined: false when the netdev lacks that IP. */
static bool rxe_mcast_ip_join(struct net_device *ndev,
			      const union ib_gid *mgid)
{
	const struct in6_addr *a = rxe_mgid_addr(mgid);
	struct in_device *in_dev;
	bool joined = false;

	if (rxe_mgid_is_v4(mgid)) {
		rtnl_lock();
		in_dev = __in_dev_get_rtnl(ndev);
		if (in_dev) {
			ip_mc_inc_group(in_dev, a->s6_addr32[3]);
			joined = true;
		}
		rtnl_unlock();
	} else if (IS_ENABLED(CONFIG_IPV6)) {
		/* Symmetric with the leave, which the IPv6 code asserts RTNL for. */
		rtnl_lock();
		joined = !ipv6_dev_mc_inc(ndev, a);
		rtnl_unlock();
	}
	return joined;
}

static void rxe_mcast_ip_leave(struct net_device *ndev,
			       const union ib_gid *mgid)
{
	const struct in6_addr *a = rxe_mgid_addr(mgid);
	struct in_device *in_dev;

	if (rxe_mgid_is_v4(mgid)) {
		rtnl_lock();
		/* Gone if the netdev lost IPv4: its groups went with it. */
		in_dev = __in_dev_get_rtnl(ndev);
		if (in_dev)
			ip_mc_dec_group(in_dev, a->s6_addr32[3]);
		rtnl_unlock();
	} else if (IS_ENABLED(CONFIG_IPV6)) {
		rtnl_lock();
		ipv6_dev_mc_dec(ndev, a);
		rtnl_unlock();
	}
}

/* Start receiving @mcg's packets (a new group, not yet visible). */
static int rxe_mcg_listen(struct rxe_dev *rxe, struct rxe_mcg *mcg)
{
	u8 mac[ETH_ALEN];
	int ret;

	rxe_mgid_mac(&mcg->mgid, mac);
	ret = dev_mc_add(rxe->ndev, mac);
	if (ret)
		return ret;
	if (rxe->mcg_ip_joins <
	    READ_ONCE(dev_net(rxe->ndev)->ipv4.sysctl_igmp_max_memberships))
		mcg->ip_joined = rxe_mcast_ip_join(rxe->ndev, &mcg->mgid);
	if (mcg->ip_joined)
		rxe->mcg_ip_joins++;
	return 0;
}

static void rxe_mcg_unlisten(struct rxe_dev *rxe, struct rxe_mcg *mcg)
{
	u8 mac[ETH_ALEN];

	if (mcg->ip_joined) {
		rxe_mcast_ip_leave(rxe->ndev, &mcg->mgid);
		rxe->mcg_ip_joins--;
	}
	rxe_mgid_mac(&mcg->mgid, mac);
	dev_mc_del(rxe->ndev, mac);
}

/* The group of @mgid (under mcg_lock or rxe_mcast_mutex), or NULL. */
static struct rxe_mcg *rxe_mcg_find(struct rxe_dev *rxe,
				    const union ib_gid *mgid)
{
	struct rb_node *node = rxe->mcg_tree.rb_node;

	while (node) {
		struct rxe_mcg *mcg = rb_entry(node, struct rxe_mcg, node);
		int cmp = memcmp(mgid->raw, mcg->mgid.raw, sizeof(mgid->raw));

		if (!cmp)
			return mcg;
		node = cmp < 0 ? node->rb_left : node->rb_right;
	}
	return NULL;
}

/* Under mcg_lock; @mcg's MGID is not in the tree. */
static void rxe_mcg_insert(struct rxe_dev *rxe, struct rxe_mcg *mcg)
{
	struct rb_node **link = &rxe->mcg_tree.rb_node, *parent = NULL;

	while (*link) {
		struct rxe_mcg *m = rb_entry(*link, struct rxe_mcg, node);

		parent = *link;
		if (memcmp(mcg->mgid.raw, m->mgid.raw, sizeof(m->mgid.raw)) < 0)
			link = &parent->rb_left;
		else
			link = &parent->rb_right;
	}
	rb_link_node(&mcg->node, parent, link);
	rb_insert_color(&mcg->node, &rxe->mcg_tree);
}

static struct rxe_mca *rxe_mcg_member(struct rxe_mcg *mcg, struct rxe_qp *qp)
{
	struct rxe_mca *mca;

	list_for_each_entry(mca, &mcg->members, list)
		if (mca->qp == qp)
			return mca;
	return NULL;
}

/* A new group for @mgid, listened to and in the tree (under the mutex). */
static struct rxe_mcg *rxe_mcg_create(struct rxe_dev *rxe,
				      const union ib_gid *mgid)
{
	struct rxe_mcg *mcg;
	int ret;

	if (atomic_read(&rxe->mcg_num) >= rxe->attr.max_mcast_grp)
		return ERR_PTR(-ENOMEM);
	mcg = kzalloc(sizeof(*mcg), GFP_KERNEL);
	if (!mcg)
		return ERR_PTR(-ENOMEM);
	mcg->mgid = *mgid;
	INIT_LIST_HEAD(&mcg->members);
	ret = rxe_mcg_listen(rxe, mcg);
	if (ret) {
		kfree(mcg);
		return ERR_PTR(ret);
	}
	spin_lock_bh(&rxe->mcg_lock);
	rxe_mcg_insert(rxe, mcg);
	spin_unlock_bh(&rxe->mcg_lock);
	atomic_inc(&rxe->mcg_num);
	return mcg;
}

/* Remove @mca from @mcg, and @mcg when it empties (under the mutex). */
static void rxe_mcg_remove(struct rxe_dev *rxe, struct rxe_mcg *mcg,
			   struct rxe_mca *mca)
{
	bool last;

	spin_lock_bh(&rxe->mcg_lock);
	list_del(&mca->list);
	last = !--mcg->num_qp;
	if (last)
		rb_erase(&mcg->node, &rxe->mcg_tree);
	spin_unlock_bh(&rxe->mcg_lock);

	atomic_dec(&mca->qp->mcg_num);
	kfree(mca);
	if (last) {
		rxe_mcg_unlisten(rxe, mcg);
		atomic_dec(&rxe->mcg_num);
		kfree(mcg);
	}
}

/* Attach @qp to the group of @mgid, creating it (under the mutex). */
static int rxe_mcg_attach(struct rxe_dev *rxe, struct rxe_qp *qp,
			  const union ib_gid *mgid, struct rxe_mca *mca)
{
	struct rxe_mcg *mcg = rxe_mcg_find(rxe, mgid);

	if (mcg && rxe_mcg_member(mcg, qp))
		return -EEXIST;
	if (mcg && mcg->num_qp >= rxe->attr.max_mcast_qp_attach)
		return -ENOMEM;
	if (!mcg) {
		mcg = rxe_mcg_create(rxe, mgid);
		if (IS_ERR(mcg))
			return PTR_ERR(mcg);
	}
	mca->qp = qp;
	spin_lock_bh(&rxe->mcg_lock);
	list_add_tail(&mca->list, &mcg->members);
	mcg->num_qp++;
	spin_unlock_bh(&rxe->mcg_lock);
	atomic_inc(&qp->mcg_num);
	return 0;
}

/*
 * Only UD QPs take multicast (IBA 10.5); attaching twice is harmless and
 * succeeds, as in-tree.  Must not be called under RTNL.
 */
int rxe_attach_mcast(struct ib_qp *ibqp, const union ib_gid *mgid)
{
	struct rxe_dev *rxe = to_rdev(ibqp->device);
	struct rxe_qp *qp = to_rqp(ibqp);
	struct rxe_mca *mca;
	int ret;

	if (ibqp->qp_type != IB_QPT_UD || !rxe_mgid_is_mcast(mgid))
		return -EINVAL;
	mca = kzalloc(sizeof(*mca), GFP_KERNEL_ACCOUNT);
	if (!mca)
		return -ENOMEM;

	mutex_lock(&rxe_mcast_mutex);
	ret = rxe_mcg_attach(rxe, qp, mgid, mca);
	mutex_unlock(&rxe_mcast_mutex);
	if (ret)
		kfree(mca);
	return ret == -EEXIST ? 0 : ret;
}

/* -EINVAL if @qp is not attached to @mgid. */
int rxe_detach_mcast(struct ib_qp *ibqp, const union ib_gid *mgid)
{
	struct rxe_dev *rxe = to_rdev(ibqp->device);
	struct rxe_qp *qp = to_rqp(ibqp);
	struct rxe_mcg *mcg;
	struct rxe_mca *mca = NULL;

	mutex_lock(&rxe_mcast_mutex);
	mcg = rxe_mcg_find(rxe, mgid);
	if (mcg)
		mca = rxe_mcg_member(mcg, qp);
	if (mca)
		rxe_mcg_remove(rxe, mcg, mca);
	mutex_unlock(&rxe_mcast_mutex);
	return mca ? 0 : -EINVAL;
}

void rxe_mcast_detach_all(struct rxe_qp *qp)
{
	struct rxe_dev *rxe = to_rdev(qp->ibqp.device);
	struct rb_node *node, *next;

	if (!atomic_read(&qp->mcg_num))
		return;
	mutex_lock(&rxe_mcast_mutex);
	for (node = rb_first(&rxe->mcg_tree);
	     node && atomic_read(&qp->mcg_num); node = next) {
		struct rxe_mcg *mcg = rb_entry(node, struct rxe_mcg, node);
		struct rxe_mca *mca = rxe_mcg_member(mcg, qp);

		next = rb_next(node);	/* @node may go away */
		if (mca)
			rxe_mcg_remove(rxe, mcg, mca);
	}
	mutex_unlock(&rxe_mcast_mutex);
}

int rxe_mcast_qps(struct rxe_dev *rxe, const union ib_gid *mgid,
		  struct rxe_qp **qps, int max)
{
	struct rxe_mcg *mcg;
	struct rxe_mca *mca;
	unsigned long flags;
	int n = 0;

	spin_lock_irqsave(&rxe->mcg_lock, flags);
	mcg = rxe_mcg_find(rxe, mgid);
	if (mcg) {
		list_for_each_entry(mca, &mcg->members, list) {
			if (n == max)
				break;
			if (refcount_inc_not_zero(&mca->qp->ref))
				qps[n++] = mca->qp;
		}
	}
	spin_unlock_irqrestore(&rxe->mcg_lock, flags);
	return n;
}

/*
 * Device teardown: every QP was destroyed, and detached then, so there
 * is nothing left but by mistake.  Whatever is left is freed without
 * leaving the IP groups (that would need RTNL here); they go with the
 * netdev's IP configuration.
 */
void rxe_mcast_cleanup(struct rxe_dev *rxe)
{
	struct rb_node *node;

	mutex_lock(&rxe_mcast_mutex);
	while ((node = rb_first(&rxe->mcg_tree))) {
		struct rxe_mcg *mcg = rb_entry(node, struct rxe_mcg, node);
		struct rxe_mca *mca, *tmp;

		spin_lock_bh(&rxe->mcg_lock);
		rb_erase(node, &rxe->mcg_tree);
		spin_unlock_bh(&rxe->mcg_lock);
		list_for_each_entry_safe(mca, tmp, &mcg->members, list)
			kfree(mca);
		atomic_dec(&rxe->mcg_num);
		kfree(mcg);
	}
	mutex_unlock(&rxe_mcast_mutex);
}
