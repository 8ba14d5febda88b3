// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Addresses: binding, address resolution and route resolution over RoCE.
 *
 *   rdma_bind_addr      IDLE -> ADDR_BOUND (a specific address attaches
 *                       the id to the RDMA device of its netdev)
 *   rdma_resolve_addr   [IDLE ->] ADDR_BOUND -> ADDR_QUERY; then the
 *                       resolution work: route lookup in the id's
 *                       namespace (source address selection), the
 *                       netdev (a route over lo means a local address:
 *                       the netdev that owns it), the neighbour (ARP/ND
 *                       kicked and polled until the timeout), the RDMA
 *                       device and RoCE v2 GID of the source address ->
 *                       ADDR_RESOLVED, or ADDR_BOUND with ADDR_ERROR
 *   rdma_resolve_route  ADDR_RESOLVED -> ROUTE_QUERY -> ROUTE_RESOLVED:
 *                       the RoCE path is built locally (no SA)
 *
 * A deleted address or a changed MAC under an id's bound netdev queues
 * ADDR_CHANGE to the ids using it.
 */
#include <linux/inetdevice.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <net/addrconf.h>
#include <net/arp.h>
#include <net/ip6_route.h>
#include <net/ipv6.h>
#include <net/ndisc.h>
#include <net/neighbour.h>
#include <net/netevent.h>
#include <net/route.h>
#include "cma_priv.h"

#define CMA_NEIGH_POLL_MS	20

/*
 * The wildcard, and (as in-tree) the loopback address: neither names a
 * device.  An id bound to 127.0.0.1 or ::1 gets a port and no device, and
 * listens on every device; libfabric's verbs provider binds one to
 * 127.0.0.1 ("localhost") to probe for a passive endpoint.
 */
bool cma_any_addr(const struct sockaddr *addr)
{
	switch (addr->sa_family) {
	case AF_INET: {
		__be32 a = ((const struct sockaddr_in *)addr)->sin_addr.s_addr;

		return ipv4_is_zeronet(a) || ipv4_is_loopback(a);
	}
	case AF_INET6: {
		const struct in6_addr *a = &((const struct sockaddr_in6 *)addr)->sin6_addr;

		return ipv6_addr_any(a) || ipv6_addr_loopback(a);
	}
	default:
		return false;
	}
}

/* 0 when the addresses (not the ports) are equal. */
int cma_addr_cmp(const struct sockaddr *a, const struct sockaddr *b)
{
	if (a->sa_family != b->sa_family)
		return a->sa_family - b->sa_family;
	if (a->sa_family == AF_INET)
		return ((const struct sockaddr_in *)a)->sin_addr.s_addr !=
		       ((const struct sockaddr_in *)b)->sin_addr.s_addr;
	return !ipv6_addr_equal(&((const struct sockaddr_in6 *)a)->sin6_addr,
				&((const struct sockaddr_in6 *)b)->sin6_addr);
}

__be16 cma_port(const struct sockaddr *addr)
{
	if (addr->sa_family == AF_INET)
		return ((const struct sockaddr_in *)addr)->sin_port;
	if (addr->sa_family == AF_INET6)
		return ((const struct sockaddr_in6 *)addr)->sin6_port;
	return 0;
}

int cma_addr_size(const struct sockaddr *addr)
{
	if (addr->sa_family == AF_INET)
		return sizeof(struct sockaddr_in);
	if (addr->sa_family == AF_INET6)
		return sizeof(struct sockaddr_in6);
	return 0;
}

/* The RoCE v2 GID of an IP address: IPv6 as is, IPv4 mapped. */
void cma_ip_to_gid(const struct sockaddr *addr, union ib_gid *gid)
{
	if (addr->sa_family == AF_INET6) {
		memcpy(gid->raw, &((const struct sockaddr_in6 *)addr)->sin6_addr,
		       16);
	} else {
		ipv6_addr_set_v4mapped(((const struct sockaddr_in *)addr)->sin_addr.s_addr,
				       (struct in6_addr *)gid->raw);
	}
}

void cma_copy_l2(struct rdma_dev_addr *da, const struct net_device *ndev)
{
	da->dev_type = ndev->type;
	memcpy(da->src_dev_addr, ndev->dev_addr,
	       min_t(size_t, ndev->addr_len, MAX_ADDR_LEN));
	memcpy(da->broadcast, ndev->broadcast, MAX_ADDR_LEN);
	da->bound_dev_if = ndev->ifindex;
}

/* The netdev that owns @addr in @net, referenced, or NULL. */
static struct net_device *cma_ndev_by_addr(struct net *net,
					   const struct sockaddr *addr)
{
	struct net_device *ndev = NULL, *d;

	if (addr->sa_family == AF_INET)
		return ip_dev_find(net,
				   ((const struct sockaddr_in *)addr)->sin_addr.s_addr);
	rcu_read_lock();
	for_each_netdev_rcu(net, d) {
		if (ipv6_chk_addr(net,
				  &((const struct sockaddr_in6 *)addr)->sin6_addr,
				  d, 1)) {
			ndev = d;
			dev_hold(ndev);
			break;
		}
	}
	rcu_read_unlock();
	return ndev;
}

/* Look up @gid of type RoCE v2 on @port, bound to @ndev. */
static const struct ib_gid_attr *cma_find_gid(struct ib_device *device,
					      u32 port, const union ib_gid *gid,
					      struct net_device *ndev)
{
	const struct ib_port_immutable *im = ib_port_immutable(device, port);
	const struct ib_gid_attr *attr;
	int i, len = im ? im->gid_tbl_len : 0;

	for (i = 0; i < len; i++) {
		attr = rdma_get_gid_attr(device, port, i);
		if (IS_ERR(attr))
			continue;
		if (!memcmp(attr->gid.raw, gid->raw, 16) &&
		    attr->gid_type == IB_UVERBS_GID_TYPE_ROCE_V2 &&
		    rcu_access_pointer(attr->ndev) == ndev)
			return attr;
		rdma_put_gid_attr(attr);
	}
	return NULL;
}

/*
 * Attach @p to the RDMA device and port whose netdev is @ndev and that
 * has the GID of @p's source address.  -EADDRNOTAVAIL when none does.
 */
int cma_acquire_by_ndev(struct rdma_id_private *p, struct net_device *ndev)
{
	struct rdma_dev_addr *da = &p->id.route.addr.dev_addr;
	const struct ib_gid_attr *attr;
	struct cma_device *cma_dev;
	struct net_device *nd;
	union ib_gid gid;
	u32 port;

	cma_ip_to_gid(cma_src_addr(p), &gid);
	mutex_lock(&cma_lock);
	list_for_each_entry(cma_dev, &cma_dev_list, list) {
		rdma_for_each_port(cma_dev->device, port) {
			nd = ib_device_get_netdev(cma_dev->device, port);
			if (nd)
				dev_put(nd);
			if (nd != ndev)
				continue;
			attr = cma_find_gid(cma_dev->device, port, &gid, ndev);
			if (!attr)
				continue;
			cma_attach(p, cma_dev, port, attr);
			da->sgid = gid;
			mutex_unlock(&cma_lock);
			return 0;
		}
	}
	mutex_unlock(&cma_lock);
	return -EADDRNOTAVAIL;
}

/* rdma_bind_addr() with the handler lock held. */
int cma_bind_locked(struct rdma_id_private *p, struct sockaddr *addr)
{
	struct rdma_dev_addr *da = &p->id.route.addr.dev_addr;
	struct net_device *ndev;
	int ret;

	if (addr->sa_family != AF_INET && addr->sa_family != AF_INET6)
		return -EAFNOSUPPORT;
	if (!cma_comp_exch(p, RDMA_CM_IDLE, RDMA_CM_ADDR_BOUND))
		return -EINVAL;

	if (addr->sa_family == AF_INET6) {
		const struct sockaddr_in6 *s6 = (const struct sockaddr_in6 *)addr;

		if (ipv6_addr_type(&s6->sin6_addr) & IPV6_ADDR_LINKLOCAL) {
			if (!s6->sin6_scope_id) {
				ret = -EINVAL;
				goto err;
			}
			da->bound_dev_if = s6->sin6_scope_id;
		}
	}
	memset(&p->id.route.addr.src_addr, 0, sizeof(p->id.route.addr.src_addr));
	memcpy(cma_src_addr(p), addr, cma_addr_size(addr));
	if (!cma_any_addr(addr)) {
		ndev = cma_ndev_by_addr(da->net, addr);
		if (!ndev) {
			ret = -EADDRNOTAVAIL;
			goto err;
		}
		cma_copy_l2(da, ndev);
		da->network = addr->sa_family == AF_INET ? RDMA_NETWORK_IPV4 :
							   RDMA_NETWORK_IPV6;
		ret = cma_acquire_by_ndev(p, ndev);
		dev_put(ndev);
		if (ret)
			goto err;
	}
	if (!p->afonly_set) {
		if (addr->sa_family == AF_INET)
			p->afonly = 1;
		else
			p->afonly = !!da->net->ipv6.sysctl.bindv6only;
	}
	p->id.route.addr.dst_addr.ss_family = addr->sa_family;
	ret = cma_get_port(p);
	if (ret)
		goto err_dev;
	return 0;
err_dev:
	cma_detach(p);
err:
	cma_comp_exch(p, RDMA_CM_ADDR_BOUND, RDMA_CM_IDLE);
	return ret;
}

int rdma_bind_addr(struct rdma_cm_id *id, struct sockaddr *addr)
{
	struct rdma_id_private *p = to_id_priv(id);
	bool locked = cma_lock_handler(p);
	int ret = cma_bind_locked(p, addr);

	cma_unlock_handler(p, locked);
	return ret;
}
EXPORT_SYMBOL(rdma_bind_addr);

/* ------------------------------------------------------------------ */
/* Address resolution                                                  */
/* ------------------------------------------------------------------ */

/*
 * One attempt.  0: resolved (source address, L2 addresses, hop limit in
 * the id, *ndevp the netdev, referenced); -EAGAIN: the neighbour is
 * being resolved; else the error.
 */
static int cma_resolve_once(struct rdma_id_private *p,
			    struct net_device **ndevp)
{
	struct rdma_dev_addr *da = &p->id.route.addr.dev_addr;
	struct sockaddr *src = cma_src_addr(p), *dst = cma_dst_addr(p);
	struct net_device *ndev;
	struct dst_entry *dste;
	struct neighbour *n;
	const void *daddr;
	int ret = 0;

	if (dst->sa_family == AF_INET) {
		struct sockaddr_in *s4 = (struct sockaddr_in *)src;
		struct sockaddr_in *d4 = (struct sockaddr_in *)dst;
		struct flowi4 fl4 = {
			.daddr = d4->sin_addr.s_addr,
			.flowi4_oif = da->bound_dev_if,
		};
		struct rtable *rt;

		/* (a loopback source is the wildcard: the route picks one) */
		if (!cma_any_addr(src))
			fl4.saddr = s4->sin_addr.s_addr;
		rt = ip_route_output_key(da->net, &fl4);

		if (IS_ERR(rt))
			return PTR_ERR(rt);
		s4->sin_addr.s_addr = fl4.saddr;
		dste = &rt->dst;
		da->hoplimit = ip4_dst_hoplimit(dste);
		daddr = &d4->sin_addr.s_addr;
	} else {
		struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)src;
		struct sockaddr_in6 *d6 = (struct sockaddr_in6 *)dst;
		struct flowi6 fl6 = {
			.daddr = d6->sin6_addr,
			.flowi6_oif = da->bound_dev_if,
		};
		bool any_src = cma_any_addr(src);

		if (!any_src)
			fl6.saddr = s6->sin6_addr;
		dste = ip6_route_output(da->net, NULL, &fl6);
		ret = dste->error;
		if (ret) {
			dst_release(dste);
			return ret;
		}
		if (any_src) {
			ret = ipv6_dev_get_saddr(da->net, dste->dev,
						 &d6->sin6_addr, 0,
						 &s6->sin6_addr);
			if (ret) {
				dst_release(dste);
				return -EADDRNOTAVAIL;
			}
		}
		da->hoplimit = ip6_dst_hoplimit(dste);
		daddr = &d6->sin6_addr;
	}

	if (dste->dev->flags & IFF_LOOPBACK) {
		/* A local destination: the netdev that owns it. */
		ndev = cma_ndev_by_addr(da->net, dst);
		if (!ndev) {
			ret = -ENODEV;
			goto out;
		}
		cma_copy_l2(da, ndev);
		memcpy(da->dst_dev_addr, da->src_dev_addr, MAX_ADDR_LEN);
	} else {
		ndev = dste->dev;
		dev_hold(ndev);
		cma_copy_l2(da, ndev);
		n = dst_neigh_lookup(dste, daddr);
		if (!n) {
			ret = -ENODATA;
		} else {
			read_lock_bh(&n->lock);
			if (n->nud_state & NUD_VALID) {
				memcpy(da->dst_dev_addr, n->ha,
				       min_t(size_t, ndev->addr_len,
					     MAX_ADDR_LEN));
			} else {
				ret = -EAGAIN;
			}
			read_unlock_bh(&n->lock);
			if (ret == -EAGAIN)
				neigh_event_send(n, NULL);
			neigh_release(n);
		}
		if (ret) {
			dev_put(ndev);
			goto out;
		}
	}
	da->network = dst->sa_family == AF_INET ? RDMA_NETWORK_IPV4 :
						  RDMA_NETWORK_IPV6;
	cma_ip_to_gid(dst, &da->dgid);
	*ndevp = ndev;
out:
	dst_release(dste);
	return ret;
}

void cma_addr_work(struct work_struct *work)
{
	struct rdma_id_private *p = container_of(to_delayed_work(work),
						 struct rdma_id_private,
						 addr_work);
	struct rdma_cm_event ev = {};
	struct sockaddr_storage old_src;
	struct net_device *ndev = NULL;
	int ret;

	mutex_lock(&p->handler_mutex);
	if (READ_ONCE(p->state) != RDMA_CM_ADDR_QUERY)
		goto out;
	memcpy(&old_src, &p->id.route.addr.src_addr, sizeof(old_src));
	ret = cma_resolve_once(p, &ndev);
	if (ret == -EAGAIN && time_before(jiffies, p->addr_deadline)) {
		memcpy(&p->id.route.addr.src_addr, &old_src, sizeof(old_src));
		queue_delayed_work(cma_wq, &p->addr_work,
				   msecs_to_jiffies(CMA_NEIGH_POLL_MS));
		goto out;
	}
	if (ret == -EAGAIN)
		ret = -ETIMEDOUT;
	if (!ret) {
		if (!p->cma_dev)
			ret = cma_acquire_by_ndev(p, ndev);
		else if (p->id.route.addr.dev_addr.bound_dev_if != ndev->ifindex)
			ret = -EADDRNOTAVAIL;
		dev_put(ndev);
	}
	if (ret) {
		memcpy(&p->id.route.addr.src_addr, &old_src, sizeof(old_src));
		ev.event = RDMA_CM_EVENT_ADDR_ERROR;
		ev.status = ret;
		cma_queue_event(p, RDMA_CM_ADDR_QUERY, RDMA_CM_ADDR_BOUND, &ev);
	} else {
		ev.event = RDMA_CM_EVENT_ADDR_RESOLVED;
		cma_queue_event(p, RDMA_CM_ADDR_QUERY, RDMA_CM_ADDR_RESOLVED,
				&ev);
	}
out:
	mutex_unlock(&p->handler_mutex);
}

int rdma_resolve_addr(struct rdma_cm_id *id, struct sockaddr *src_addr,
		      const struct sockaddr *dst_addr,
		      unsigned long timeout_ms)
{
	struct rdma_id_private *p = to_id_priv(id);
	bool locked = cma_lock_handler(p);
	int ret;

	if (dst_addr->sa_family != AF_INET && dst_addr->sa_family != AF_INET6) {
		ret = -EAFNOSUPPORT;
		goto out;
	}
	if (READ_ONCE(p->state) == RDMA_CM_IDLE) {
		struct sockaddr_storage any = {};

		if (!src_addr || !src_addr->sa_family) {
			any.ss_family = dst_addr->sa_family;
			if (dst_addr->sa_family == AF_INET6) {
				const struct sockaddr_in6 *d6 =
					(const struct sockaddr_in6 *)dst_addr;

				((struct sockaddr_in6 *)&any)->sin6_scope_id =
					d6->sin6_scope_id;
				if (ipv6_addr_type(&d6->sin6_addr) &
				    IPV6_ADDR_LINKLOCAL)
					id->route.addr.dev_addr.bound_dev_if =
						d6->sin6_scope_id;
			}
			src_addr = (struct sockaddr *)&any;
		}
		ret = cma_bind_locked(p, src_addr);
		if (ret)
			goto out;
	}
	if (cma_family(p) != dst_addr->sa_family) {
		ret = -EINVAL;
		goto out;
	}
	if (!cma_comp_exch(p, RDMA_CM_ADDR_BOUND, RDMA_CM_ADDR_QUERY)) {
		ret = -EINVAL;
		goto out;
	}
	memcpy(cma_dst_addr(p), dst_addr, cma_addr_size(dst_addr));
	p->addr_deadline = jiffies + msecs_to_jiffies(timeout_ms ?: 1);
	queue_delayed_work(cma_wq, &p->addr_work, 0);
	ret = 0;
out:
	cma_unlock_handler(p, locked);
	return ret;
}
EXPORT_SYMBOL(rdma_resolve_addr);

/* ------------------------------------------------------------------ */
/* Route resolution                                                    */
/* ------------------------------------------------------------------ */

static enum ib_mtu cma_mtu_of(int ndev_mtu)
{
	/* Room for the GRH, UDP, BTH, the largest extension and ICRC. */
	int room = ndev_mtu - 40 - 8 - 12 - 28 - 4 - 4;

	if (room >= 4096)
		return IB_MTU_4096;
	if (room >= 2048)
		return IB_MTU_2048;
	if (room >= 1024)
		return IB_MTU_1024;
	if (room >= 512)
		return IB_MTU_512;
	if (room >= 256)
		return IB_MTU_256;
	return 0;
}

static u32 cma_flow_label(struct rdma_id_private *p)
{
	const struct sockaddr_in6 *s6 = (const struct sockaddr_in6 *)cma_src_addr(p);
	u32 fl = 0;

	if (cma_family(p) == AF_INET6)
		fl = be32_to_cpu(s6->sin6_flowinfo) & 0xfffff;
	if (!fl)
		fl = ((u32)be16_to_cpu(cma_port(cma_src_addr(p))) * 31 +
		      be16_to_cpu(cma_port(cma_dst_addr(p)))) & 0xfffff;
	return fl;
}

int rdma_resolve_route(struct rdma_cm_id *id, unsigned long timeout_ms)
{
	struct rdma_id_private *p = to_id_priv(id);
	struct rdma_dev_addr *da = &id->route.addr.dev_addr;
	struct rdma_cm_event ev = { .event = RDMA_CM_EVENT_ROUTE_RESOLVED };
	bool locked = cma_lock_handler(p);
	struct ib_cm_path *path = &p->path;
	struct net_device *ndev;
	int ret;

	if (!timeout_ms) {
		ret = -EINVAL;
		goto out;
	}
	if (!cma_comp_exch(p, RDMA_CM_ADDR_RESOLVED, RDMA_CM_ROUTE_QUERY)) {
		ret = -EINVAL;
		goto out;
	}
	ndev = dev_get_by_index(da->net, da->bound_dev_if);
	if (!ndev || !id->device) {
		if (ndev)
			dev_put(ndev);
		ret = -ENODEV;
		goto err;
	}
	memset(path, 0, sizeof(*path));
	cma_ip_to_gid(cma_src_addr(p), &path->sgid);
	cma_ip_to_gid(cma_dst_addr(p), &path->dgid);
	da->sgid = path->sgid;
	da->dgid = path->dgid;
	path->sgid_attr = p->sgid_attr;
	path->hop_limit = da->hoplimit;
	path->traffic_class = p->tos_set ? p->tos : 0;
	path->sl = path->traffic_class >> 5;
	path->mtu = cma_mtu_of(ndev->mtu);
	path->rate = 0;		/* the port's current rate */
	path->packet_life_time = p->timeout_set && p->timeout ?
				 p->timeout - 1 : CMA_PACKET_LIFETIME;
	path->pkey = CMA_ROCE_PKEY;
	path->flow_label = cma_flow_label(p);
	dev_put(ndev);
	if (!path->mtu) {
		ret = -EINVAL;
		goto err;
	}
	if (!id->route.path_rec) {
		id->route.path_rec = kzalloc(sizeof(*path), GFP_KERNEL);
		if (!id->route.path_rec) {
			ret = -ENOMEM;
			goto err;
		}
	}
	*id->route.path_rec = *path;
	id->route.num_pri_alt_paths = 1;
	ret = cma_queue_event(p, RDMA_CM_ROUTE_QUERY, RDMA_CM_ROUTE_RESOLVED,
			      &ev);
	if (ret)
		goto err;
	goto out;
err:
	cma_comp_exch(p, RDMA_CM_ROUTE_QUERY, RDMA_CM_ADDR_RESOLVED);
out:
	cma_unlock_handler(p, locked);
	return ret;
}
EXPORT_SYMBOL(rdma_resolve_route);

void rdma_read_gids(struct rdma_cm_id *id, union ib_gid *sgid,
		    union ib_gid *dgid)
{
	struct rdma_addr *addr = &id->route.addr;

	if (!id->device) {
		if (sgid)
			memset(sgid, 0, sizeof(*sgid));
		if (dgid)
			memset(dgid, 0, sizeof(*dgid));
		return;
	}
	if (sgid)
		cma_ip_to_gid((struct sockaddr *)&addr->src_addr, sgid);
	if (dgid)
		cma_ip_to_gid((struct sockaddr *)&addr->dst_addr, dgid);
}
EXPORT_SYMBOL(rdma_read_gids);

/* ------------------------------------------------------------------ */
/* Address changes                                                     */
/* ------------------------------------------------------------------ */

struct cma_addr_event {
	struct work_struct work;
	struct sockaddr_storage addr;	/* family 0: any address of ifindex */
	struct net *net;
	int ifindex;
};

static bool cma_addr_event_hits(struct rdma_id_private *p,
				const struct cma_addr_event *e)
{
	const struct sockaddr *a = (const struct sockaddr *)&e->addr;

	if (p->internal || !net_eq(cma_net(p), e->net))
		return false;
	if (!a->sa_family)
		return p->id.route.addr.dev_addr.bound_dev_if == e->ifindex;
	return !cma_any_addr(cma_src_addr(p)) &&
	       !cma_addr_cmp(cma_src_addr(p), a);
}

static void cma_addr_event_fn(struct work_struct *work)
{
	struct cma_addr_event *e = container_of(work, struct cma_addr_event,
						work);
	struct rdma_cm_event ev = { .event = RDMA_CM_EVENT_ADDR_CHANGE };
	struct cma_device *cma_dev;
	struct rdma_id_private *p;

	mutex_lock(&cma_lock);
	list_for_each_entry(cma_dev, &cma_dev_list, list)
		list_for_each_entry(p, &cma_dev->id_list, device_item)
			if (cma_addr_event_hits(p, e))
				cma_queue_event(p, RDMA_CM_DESTROYING,
						RDMA_CM_DESTROYING, &ev);
	mutex_unlock(&cma_lock);
	put_net(e->net);
	kfree(e);
}

static void cma_addr_event_queue(struct net *net, const struct sockaddr *addr,
				 int ifindex)
{
	struct cma_addr_event *e = kzalloc(sizeof(*e), GFP_ATOMIC);

	if (!e)
		return;
	INIT_WORK(&e->work, cma_addr_event_fn);
	if (addr)
		memcpy(&e->addr, addr, cma_addr_size(addr));
	e->net = get_net(net);
	e->ifindex = ifindex;
	queue_work(cma_wq, &e->work);
}

static int cma_inetaddr_event(struct notifier_block *nb, unsigned long event,
			      void *ptr)
{
	struct in_ifaddr *ifa = ptr;
	struct sockaddr_in sin = {
		.sin_family = AF_INET,
		.sin_addr.s_addr = ifa->ifa_local,
	};

	if (event == NETDEV_DOWN)
		cma_addr_event_queue(dev_net(ifa->ifa_dev->dev),
				     (struct sockaddr *)&sin, 0);
	return NOTIFY_DONE;
}

static int cma_inet6addr_event(struct notifier_block *nb, unsigned long event,
			       void *ptr)
{
	struct inet6_ifaddr *ifa = ptr;
	struct sockaddr_in6 sin6 = {
		.sin6_family = AF_INET6,
		.sin6_addr = ifa->addr,
	};

	if (event == NETDEV_DOWN)
		cma_addr_event_queue(dev_net(ifa->idev->dev),
				     (struct sockaddr *)&sin6, 0);
	return NOTIFY_DONE;
}

static int cma_netdev_event(struct notifier_block *nb, unsigned long event,
			    void *ptr)
{
	struct net_device *ndev = netdev_notifier_info_to_dev(ptr);

	if (event == NETDEV_CHANGEADDR)
		cma_addr_event_queue(dev_net(ndev), NULL, ndev->ifindex);
	return NOTIFY_DONE;
}

static struct notifier_block cma_inetaddr_nb = {
	.notifier_call = cma_inetaddr_event,
};

static struct notifier_block cma_inet6addr_nb = {
	.notifier_call = cma_inet6addr_event,
};

static struct notifier_block cma_netdev_nb = {
	.notifier_call = cma_netdev_event,
};

int cma_addr_init(void)
{
	int ret;

	ret = register_inetaddr_notifier(&cma_inetaddr_nb);
	if (ret)
		return ret;
	ret = register_inet6addr_notifier(&cma_inet6addr_nb);
	if (ret)
		goto err4;
	ret = register_netdevice_notifier(&cma_netdev_nb);
	if (ret)
		goto err6;
	return 0;
err6:
	unregister_inet6addr_notifier(&cma_inet6addr_nb);
err4:
	unregister_inetaddr_notifier(&cma_inetaddr_nb);
	return ret;
}

void cma_addr_exit(void)
{
	unregister_netdevice_notifier(&cma_netdev_nb);
	unregister_inet6addr_notifier(&cma_inet6addr_nb);
	unregister_inetaddr_notifier(&cma_inetaddr_nb);
	flush_workqueue(cma_wq);
}
