// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Port spaces (TCP 0x0106, UDP 0x0111, IPoIB 0x0002, IB 0x013F): per
 * network namespace, each port of a space has a bind list of the ids
 * bound to it.  The rules are the sockets' ones, as in-tree:
 *   - a wildcard address conflicts with any address on the port, unless
 *     both ids set REUSEADDR, or both are AF-only and of other families;
 *   - two equal specific addresses conflict (-EADDRINUSE) likewise;
 *   - port 0 picks an ephemeral port from the namespace's
 *     ip_local_port_range, one whose binding is unique;
 *   - ports below 1024 need CAP_NET_BIND_SERVICE.
 * A listener is unique on its port whatever REUSEADDR said (rdma_listen
 * re-checks).  Everything here runs under cma_lock.
 */
#include <linux/hashtable.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <net/ip.h>
#include "cma_priv.h"

static DEFINE_HASHTABLE(cma_bind_table, 8);

static u32 cma_bind_hash(enum rdma_ucm_port_space ps, unsigned short port)
{
	return ((u32)ps << 16) | port;
}

struct cma_bind_list *cma_ps_find(struct net *net,
				  enum rdma_ucm_port_space ps,
				  unsigned short port)
{
	struct cma_bind_list *bl;

	lockdep_assert_held(&cma_lock);
	hash_for_each_possible(cma_bind_table, bl, hnode,
			       cma_bind_hash(ps, port))
		if (bl->ps == ps && bl->port == port && net_eq(bl->net, net))
			return bl;
	return NULL;
}

static void cma_bind_port(struct cma_bind_list *bl, struct rdma_id_private *p)
{
	struct sockaddr *addr = cma_src_addr(p);
	__be16 port = htons(bl->port);

	if (addr->sa_family == AF_INET)
		((struct sockaddr_in *)addr)->sin_port = port;
	else
		((struct sockaddr_in6 *)addr)->sin6_port = port;
	p->bind_list = bl;
	hlist_add_head(&p->bind_node, &bl->owners);
}

static int cma_alloc_port(enum rdma_ucm_port_space ps,
			  struct rdma_id_private *p, unsigned short port)
{
	struct cma_bind_list *bl = kzalloc(sizeof(*bl), GFP_KERNEL);

	if (!bl)
		return -ENOMEM;
	INIT_HLIST_HEAD(&bl->owners);
	bl->net = cma_net(p);
	bl->ps = ps;
	bl->port = port;
	hash_add(cma_bind_table, &bl->hnode, cma_bind_hash(ps, port));
	cma_bind_port(bl, p);
	return 0;
}

/* An ephemeral binding must differ from every other on the port. */
static int cma_port_is_unique(struct cma_bind_list *bl,
			      struct rdma_id_private *p)
{
	struct sockaddr *saddr = cma_src_addr(p), *daddr = cma_dst_addr(p);
	struct rdma_id_private *cur;

	hlist_for_each_entry(cur, &bl->owners, bind_node) {
		struct sockaddr *cs = cma_src_addr(cur), *cd = cma_dst_addr(cur);

		if (cur == p)
			continue;
		if (cma_port(daddr) && cma_port(cd) &&
		    cma_port(daddr) != cma_port(cd))
			continue;
		if (!cma_any_addr(saddr) && !cma_any_addr(cs) &&
		    cma_addr_cmp(saddr, cs))
			continue;
		if (!cma_any_addr(daddr) && !cma_any_addr(cd) &&
		    cma_addr_cmp(daddr, cd))
			continue;
		return -EADDRNOTAVAIL;
	}
	return 0;
}

static int cma_alloc_any_port(enum rdma_ucm_port_space ps,
			      struct rdma_id_private *p)
{
	static unsigned int last_used;
	struct cma_bind_list *bl;
	int low, high, remaining, ret;
	unsigned int rover;

	inet_get_local_port_range(cma_net(p), &low, &high);
	remaining = high - low + 1;
	rover = get_random_u32_below(remaining) + low;
	for (; remaining > 0; remaining--) {
		if (rover != last_used) {
			bl = cma_ps_find(cma_net(p), ps, rover);
			if (!bl) {
				ret = cma_alloc_port(ps, p, rover);
			} else {
				ret = cma_port_is_unique(bl, p);
				if (!ret)
					cma_bind_port(bl, p);
			}
			if (!ret)
				last_used = rover;
			if (ret != -EADDRNOTAVAIL)
				return ret;
		}
		if (++rover > high)
			rover = low;
	}
	return -EADDRNOTAVAIL;
}

int cma_check_port(struct cma_bind_list *bl, struct rdma_id_private *p,
		   bool reuseaddr)
{
	struct sockaddr *addr = cma_src_addr(p), *ca;
	struct rdma_id_private *cur;

	lockdep_assert_held(&cma_lock);
	hlist_for_each_entry(cur, &bl->owners, bind_node) {
		if (cur == p)
			continue;
		if (reuseaddr && cur->reuseaddr)
			continue;
		ca = cma_src_addr(cur);
		if (p->afonly && cur->afonly && addr->sa_family != ca->sa_family)
			continue;
		if (cma_any_addr(addr) || cma_any_addr(ca))
			return -EADDRNOTAVAIL;
		if (!cma_addr_cmp(addr, ca))
			return -EADDRINUSE;
	}
	return 0;
}

static int cma_use_port(enum rdma_ucm_port_space ps,
			struct rdma_id_private *p)
{
	unsigned short port = ntohs(cma_port(cma_src_addr(p)));
	struct cma_bind_list *bl;
	int ret;

	if (port < PROT_SOCK && !capable(CAP_NET_BIND_SERVICE))
		return -EACCES;
	bl = cma_ps_find(cma_net(p), ps, port);
	if (!bl)
		return cma_alloc_port(ps, p, port);
	ret = cma_check_port(bl, p, p->reuseaddr);
	if (!ret)
		cma_bind_port(bl, p);
	return ret;
}

int cma_get_port(struct rdma_id_private *p)
{
	enum rdma_ucm_port_space ps = p->id.ps;
	int ret;

	if (ps != RDMA_PS_TCP && ps != RDMA_PS_UDP && ps != RDMA_PS_IPOIB &&
	    ps != RDMA_PS_IB)
		return -EPROTONOSUPPORT;
	mutex_lock(&cma_lock);
	if (!cma_port(cma_src_addr(p)))
		ret = cma_alloc_any_port(ps, p);
	else
		ret = cma_use_port(ps, p);
	mutex_unlock(&cma_lock);
	return ret;
}

void cma_release_port(struct rdma_id_private *p)
{
	struct cma_bind_list *bl;

	mutex_lock(&cma_lock);
	bl = p->bind_list;
	if (bl) {
		hlist_del(&p->bind_node);
		p->bind_list = NULL;
		if (hlist_empty(&bl->owners)) {
			hash_del(&bl->hnode);
			kfree(bl);
		}
	}
	mutex_unlock(&cma_lock);
}
