// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The NETLINK_RDMA socket, one per network namespace, and the dispatch of
 * its messages.  A message type is (client << 10) + op; nldev is the only
 * client we implement, the other client ids (iwcm, LS) answer -EINVAL just
 * as the in-tree core does when their module is absent.
 */
#include <linux/module.h>
#include <net/net_namespace.h>
#include <net/netns/generic.h>
#include <net/sock.h>
#include "core_priv.h"

struct rdma_nl_net {
	struct sock *sock;
};

static unsigned int rdma_nl_net_id;

static const struct rdma_nl_client {
	const struct rdma_nl_handler *handlers;
	unsigned int count;
} rdma_nl_clients[RDMA_NL_NUM_CLIENTS] = {
	[RDMA_NL_NLDEV] = { nldev_handlers, RDMA_NLDEV_NUM_OPS },
};

static const struct rdma_nl_handler *rdma_nl_lookup(u16 type)
{
	unsigned int client = RDMA_NL_GET_CLIENT(type);
	unsigned int op = RDMA_NL_GET_OP(type);
	const struct rdma_nl_handler *h;

	if (client >= RDMA_NL_NUM_CLIENTS ||
	    op >= rdma_nl_clients[client].count)
		return NULL;
	h = &rdma_nl_clients[client].handlers[op];
	return h->doit || h->dump ? h : NULL;
}

static int rdma_nl_rcv_msg(struct sk_buff *skb, struct nlmsghdr *nlh,
			   struct netlink_ext_ack *extack)
{
	const struct rdma_nl_handler *h = rdma_nl_lookup(nlh->nlmsg_type);

	if (!h)
		return -EINVAL;
	if (h->admin && !netlink_capable(skb, CAP_NET_ADMIN))
		return -EPERM;

	if (nlh->nlmsg_flags & NLM_F_DUMP) {
		struct netlink_dump_control c = { .dump = h->dump };

		/* -EINTR from here means "dump started": no ack is sent. */
		return h->dump ? netlink_dump_start(skb->sk, skb, nlh, &c) :
				 -EINVAL;
	}
	return h->doit ? h->doit(skb, nlh, extack) : -EINVAL;
}

static void rdma_nl_rcv(struct sk_buff *skb)
{
	netlink_rcv_skb(skb, rdma_nl_rcv_msg);
}

int rdma_nl_unicast(struct sk_buff *in_skb, struct sk_buff *reply)
{
	int ret = netlink_unicast(in_skb->sk, reply, NETLINK_CB(in_skb).portid,
				  MSG_DONTWAIT);

	return ret < 0 ? ret : 0;
}

/*
 * Device events (`rdma monitor`) go to the initial namespace's socket: our
 * devices are shared by every namespace, and a shared device belongs to
 * init_net, as in-tree.  Consumes @msg; nobody listening is no error.
 */
int rdma_nl_multicast_init_net(struct sk_buff *msg, unsigned int group)
{
	struct rdma_nl_net *rnet = net_generic(&init_net, rdma_nl_net_id);
	int ret = nlmsg_multicast(rnet->sock, msg, 0, group, GFP_KERNEL);

	return ret == -ESRCH ? 0 : ret;
}

static int __net_init rdma_nl_net_init(struct net *net)
{
	struct rdma_nl_net *rnet = net_generic(net, rdma_nl_net_id);
	/* Any user may listen to the multicast groups (`rdma monitor`). */
	struct netlink_kernel_cfg cfg = {
		.input = rdma_nl_rcv,
		.flags = NL_CFG_F_NONROOT_RECV,
	};

	rnet->sock = netlink_kernel_create(net, NETLINK_RDMA, &cfg);
	return rnet->sock ? 0 : -ENOMEM;
}

static void __net_exit rdma_nl_net_exit(struct net *net)
{
	struct rdma_nl_net *rnet = net_generic(net, rdma_nl_net_id);

	netlink_kernel_release(rnet->sock);
}

static struct pernet_operations rdma_nl_net_ops = {
	.init = rdma_nl_net_init,
	.exit = rdma_nl_net_exit,
	.id = &rdma_nl_net_id,
	.size = sizeof(struct rdma_nl_net),
};

int rdma_nl_init(void)
{
	return register_pernet_subsys(&rdma_nl_net_ops);
}

void rdma_nl_exit(void)
{
	unregister_pernet_subsys(&rdma_nl_net_ops);
}
