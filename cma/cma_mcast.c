// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * RoCE multicast for UD ids.  There is no SA: joining a group is local.
 * The MGID is the group's IPv6 address, or for IPv4 the IPv4-mapped
 * address (RoCE v2, as in-tree).  A full-member join also joins the IP
 * group on the id's netdev (IGMP / MLD), so that switches and the host's
 * own stack deliver the group's packets.  MULTICAST_JOIN comes from
 * cma_wq with the address vector of the group (QPN 0xFFFFFF, the id's
 * Q_Key, RDMA_UDP_QKEY by default); leaving, and destroying the id,
 * drops the IP membership again.  An id joins a group at most once
 * (-EADDRINUSE, as in-tree): the group's address is what a leave names,
 * so it must name one join.
 */
#include <linux/igmp.h>
#include <linux/inetdevice.h>
#include <linux/rtnetlink.h>
#include <linux/slab.h>
#include <net/addrconf.h>
#include <net/ipv6.h>
#include "cma_priv.h"

static int cma_ip_group(struct cma_multicast *mc, struct net *net, bool join)
{
	struct sockaddr *addr = (struct sockaddr *)&mc->addr;
	struct net_device *ndev;
	struct in_device *in_dev;
	int ret = 0;

	ndev = dev_get_by_index(net, mc->ifindex);
	if (!ndev)
		return -ENODEV;
	rtnl_lock();
	if (addr->sa_family == AF_INET) {
		__be32 group = ((struct sockaddr_in *)addr)->sin_addr.s_addr;

		in_dev = __in_dev_get_rtnl(ndev);
		if (!in_dev)
			ret = -ENODEV;
		else if (join)
			ip_mc_inc_group(in_dev, group);
		else
			ip_mc_dec_group(in_dev, group);
	} else {
		const struct in6_addr *group =
			&((struct sockaddr_in6 *)addr)->sin6_addr;

		if (join)
			ret = ipv6_dev_mc_inc(ndev, group);
		else
			ret = ipv6_dev_mc_dec(ndev, group);
	}
	rtnl_unlock();
	dev_put(ndev);
	return ret;
}

/* The same group: family and address (not the port or padding). */
static bool cma_mc_same_group(const struct sockaddr *a,
			      const struct sockaddr *b)
{
	if (a->sa_family != b->sa_family)
		return false;
	if (a->sa_family == AF_INET)
		return ((const struct sockaddr_in *)a)->sin_addr.s_addr ==
		       ((const struct sockaddr_in *)b)->sin_addr.s_addr;
	return ipv6_addr_equal(&((const struct sockaddr_in6 *)a)->sin6_addr,
			       &((const struct sockaddr_in6 *)b)->sin6_addr);
}

/* Under the handler lock (or with the id going). */
static struct cma_multicast *cma_find_mc(struct rdma_id_private *p,
					 const struct sockaddr *addr)
{
	struct cma_multicast *mc;

	list_for_each_entry(mc, &p->mc_list, list)
		if (cma_mc_same_group((struct sockaddr *)&mc->addr, addr))
			return mc;
	return NULL;
}

/* The join event: the group is looked up again, it may be gone. */
struct cma_mc_work {
	struct work_struct work;
	struct rdma_id_private *p;
	struct cma_multicast *mc;
};

static void cma_mc_join_work(struct work_struct *work)
{
	struct cma_mc_work *w = container_of(work, struct cma_mc_work, work);
	struct rdma_id_private *p = w->p;
	struct cma_multicast *mc;
	struct rdma_cm_event ev = {};
	struct ib_ah_attr *ah = &ev.param.ud.ah_attr;
	enum rdma_cm_state st;
	bool found = false;

	mutex_lock(&p->handler_mutex);
	st = READ_ONCE(p->state);
	if (st == RDMA_CM_DESTROYING || st == RDMA_CM_DEVICE_REMOVAL)
		goto out;
	list_for_each_entry(mc, &p->mc_list, list)
		if (mc == w->mc)
			found = true;
	if (!found)
		goto out;
	mc = w->mc;
	ev.event = RDMA_CM_EVENT_MULTICAST_JOIN;
	ev.param.ud.private_data = mc->context;
	ah->dgid = mc->mgid;
	ah->sgid_index = p->sgid_attr ? p->sgid_attr->index : 0;
	ah->hop_limit = mc->addr.ss_family == AF_INET ? 64 : 1;
	ah->traffic_class = p->tos_set ? p->tos : 0;
	ah->is_global = 1;
	ah->port_num = p->id.port_num;
	ev.param.ud.qp_num = 0xffffff;
	ev.param.ud.qkey = p->qkey;
	if (cma_deliver(p, &ev))
		pr_warn_ratelimited("rdma_cm: a MULTICAST_JOIN handler failed\n");
out:
	mutex_unlock(&p->handler_mutex);
	cma_id_put(p);
	kfree(w);
}

int rdma_join_multicast(struct rdma_cm_id *id, struct sockaddr *addr,
			u8 join_state, void *context)
{
	struct rdma_id_private *p = to_id_priv(id);
	bool locked = cma_lock_handler(p);
	struct cma_multicast *mc;
	struct cma_mc_work *w;
	enum rdma_cm_state st = READ_ONCE(p->state);
	int ret;

	if (!id->device || id->qp_type != IB_QPT_UD ||
	    (st != RDMA_CM_ADDR_BOUND && st != RDMA_CM_ADDR_RESOLVED) ||
	    (addr->sa_family != AF_INET && addr->sa_family != AF_INET6) ||
	    cma_any_addr(addr)) {
		ret = -EINVAL;
		goto out;
	}
	if (addr->sa_family == AF_INET ?
	    !ipv4_is_multicast(((struct sockaddr_in *)addr)->sin_addr.s_addr) :
	    !ipv6_addr_is_multicast(&((struct sockaddr_in6 *)addr)->sin6_addr)) {
		ret = -EINVAL;
		goto out;
	}
	if (cma_find_mc(p, addr)) {
		ret = -EADDRINUSE;
		goto out;
	}
	mc = kzalloc(sizeof(*mc), GFP_KERNEL);
	w = kzalloc(sizeof(*w), GFP_KERNEL);
	if (!mc || !w) {
		kfree(mc);
		kfree(w);
		ret = -ENOMEM;
		goto out;
	}
	memcpy(&mc->addr, addr, cma_addr_size(addr));
	cma_ip_to_gid(addr, &mc->mgid);
	mc->context = context;
	mc->join_state = join_state;
	mc->id_priv = p;
	mc->ifindex = id->route.addr.dev_addr.bound_dev_if;
	if (!(join_state & RDMA_MC_JOIN_SENDONLY_FULLMEMBER) ||
	    (join_state & RDMA_MC_JOIN_FULLMEMBER)) {
		ret = cma_ip_group(mc, cma_net(p), true);
		if (ret) {
			kfree(mc);
			kfree(w);
			goto out;
		}
		mc->igmp_joined = true;
	}
	if (!p->qkey)
		p->qkey = RDMA_UDP_QKEY;
	list_add_tail(&mc->list, &p->mc_list);
	INIT_WORK(&w->work, cma_mc_join_work);
	w->p = p;
	w->mc = mc;
	cma_id_get(p);
	queue_work(cma_wq, &w->work);
	ret = 0;
out:
	cma_unlock_handler(p, locked);
	return ret;
}
EXPORT_SYMBOL(rdma_join_multicast);

static void cma_mc_free(struct rdma_id_private *p, struct cma_multicast *mc)
{
	if (mc->igmp_joined)
		cma_ip_group(mc, cma_net(p), false);
	kfree(mc);
}

void rdma_leave_multicast(struct rdma_cm_id *id, struct sockaddr *addr)
{
	struct rdma_id_private *p = to_id_priv(id);
	bool locked = cma_lock_handler(p);
	struct cma_multicast *mc;

	/* Joins are unique per group: this is the caller's join. */
	mc = cma_find_mc(p, addr);
	if (mc)
		list_del(&mc->list);
	cma_unlock_handler(p, locked);
	if (mc)
		cma_mc_free(p, mc);
}
EXPORT_SYMBOL(rdma_leave_multicast);

/* The id is going (DESTROYING or detached): no handler lock needed. */
void cma_leave_all(struct rdma_id_private *p)
{
	struct cma_multicast *mc, *tmp;
	LIST_HEAD(list);

	mutex_lock(&p->handler_mutex);
	list_splice_init(&p->mc_list, &list);
	mutex_unlock(&p->handler_mutex);
	list_for_each_entry_safe(mc, tmp, &list, list) {
		list_del(&mc->list);
		cma_mc_free(p, mc);
	}
}
