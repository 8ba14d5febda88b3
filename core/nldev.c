// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * nldev: the RDMA_NL_NLDEV netlink client, which is what iproute2's `rdma`
 * and libibverbs' device enumeration talk to.  Attribute ids, command ids
 * and their meaning are the UAPI of <uapi/rdma/rdma_netlink.h>; errnos
 * follow the in-tree core so that tools behave the same on both stacks.
 */
#include <linux/module.h>
#include <linux/kdev_t.h>
#include <net/sock.h>
#include <ordma/compat.h>
#include "core_priv.h"

/* Longest client name a GET_CHARDEV request may carry ("uverbs", "umad"). */
#define NLDEV_CHARDEV_TYPE_SIZE 32

/*
 * `rdma system set privileged-qkey on`: Q_Keys with the high bit set
 * ("controlled", IBTA 10.2.4) become usable without CAP_NET_RAW.  Off by
 * default, as in-tree.
 */
static bool nldev_privileged_qkey_open;

/* May the caller give a QP a controlled Q_Key? */
bool ib_privileged_qkey_allowed(void)
{
	return READ_ONCE(nldev_privileged_qkey_open) || capable(CAP_NET_RAW);
}
EXPORT_SYMBOL(ib_privileged_qkey_allowed);

static const struct nla_policy nldev_policy[RDMA_NLDEV_ATTR_MAX] = {
	[RDMA_NLDEV_ATTR_DEV_INDEX]	= { .type = NLA_U32 },
	[RDMA_NLDEV_ATTR_DEV_NAME]	= { .type = NLA_NUL_STRING,
					    .len = IB_DEVICE_NAME_MAX },
	[RDMA_NLDEV_ATTR_PORT_INDEX]	= { .type = NLA_U32 },
	[RDMA_NLDEV_ATTR_CHARDEV]	= { .type = NLA_U64 },
	[RDMA_NLDEV_ATTR_CHARDEV_ABI]	= { .type = NLA_U64 },
	/* Only ever sent by us: a request may carry it, empty. */
	[RDMA_NLDEV_ATTR_CHARDEV_NAME]	= { .type = NLA_NUL_STRING, .len = 1 },
	[RDMA_NLDEV_ATTR_CHARDEV_TYPE]	= { .type = NLA_NUL_STRING,
					    .len = NLDEV_CHARDEV_TYPE_SIZE },
	[RDMA_NLDEV_NET_NS_FD]		= { .type = NLA_U32 },
	[RDMA_NLDEV_ATTR_DEV_DIM]	= { .type = NLA_U8 },
	[RDMA_NLDEV_ATTR_LINK_TYPE]	= { .type = NLA_NUL_STRING,
					    .len = IFNAMSIZ },
	[RDMA_NLDEV_ATTR_NDEV_NAME]	= { .type = NLA_NUL_STRING,
					    .len = IFNAMSIZ },
	[RDMA_NLDEV_SYS_ATTR_NETNS_MODE] = { .type = NLA_U8 },
	[RDMA_NLDEV_SYS_ATTR_PRIVILEGED_QKEY_MODE] = { .type = NLA_U8 },
	[RDMA_NLDEV_SYS_ATTR_COPY_ON_FORK] = { .type = NLA_U8 },
	[RDMA_NLDEV_ATTR_STAT_RES]	= { .type = NLA_U32 },
	[RDMA_NLDEV_ATTR_STAT_MODE]	= { .type = NLA_U32 },
	[RDMA_NLDEV_ATTR_STAT_COUNTER_ID] = { .type = NLA_U32 },
};

static int nldev_parse(const struct nlmsghdr *nlh, struct nlattr **tb,
		       struct netlink_ext_ack *extack)
{
	return nlmsg_parse_deprecated(nlh, 0, tb, RDMA_NLDEV_ATTR_MAX - 1,
				      nldev_policy, extack);
}

/* Start a reply to the request in @skb; NULL when out of memory. */
static struct sk_buff *nldev_reply_new(struct sk_buff *skb,
				       const struct nlmsghdr *req, u32 cmd,
				       struct nlmsghdr **nlh)
{
	struct sk_buff *msg = nlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);

	if (!msg)
		return NULL;
	*nlh = nlmsg_put(msg, NETLINK_CB(skb).portid, req->nlmsg_seq,
			 RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, cmd), 0, 0);
	if (!*nlh) {
		nlmsg_free(msg);
		return NULL;
	}
	return msg;
}

static int nldev_reply_send(struct sk_buff *skb, struct sk_buff *msg,
			    struct nlmsghdr *nlh)
{
	nlmsg_end(msg, nlh);
	return rdma_nl_unicast(skb, msg);
}

static int fill_dev_handle(struct sk_buff *msg, struct ib_device *ibdev)
{
	if (nla_put_u32(msg, RDMA_NLDEV_ATTR_DEV_INDEX, ibdev->index) ||
	    nla_put_string(msg, RDMA_NLDEV_ATTR_DEV_NAME, ib_device_name(ibdev)))
		return -EMSGSIZE;
	return 0;
}

static const char *dev_protocol(struct ib_device *ibdev)
{
	/* Decided by the first port, as in-tree. */
	if (ib_port_immutable(ibdev, 1)->core_cap_flags &
	    RDMA_CORE_CAP_PROT_ROCE_UDP_ENCAP)
		return "roce";
	return "ib";
}

static int fill_dev_info(struct sk_buff *msg, struct ib_device *ibdev)
{
	if (fill_dev_handle(msg, ibdev) ||
	    nla_put_u32(msg, RDMA_NLDEV_ATTR_PORT_INDEX, ibdev->phys_port_cnt) ||
	    nla_put_u64_64bit(msg, RDMA_NLDEV_ATTR_CAP_FLAGS,
			      ibdev->attrs.device_cap_flags,
			      RDMA_NLDEV_ATTR_PAD) ||
	    nla_put_u64_64bit(msg, RDMA_NLDEV_ATTR_NODE_GUID,
			      be64_to_cpu(ibdev->node_guid),
			      RDMA_NLDEV_ATTR_PAD) ||
	    nla_put_u64_64bit(msg, RDMA_NLDEV_ATTR_SYS_IMAGE_GUID,
			      be64_to_cpu(ibdev->attrs.sys_image_guid),
			      RDMA_NLDEV_ATTR_PAD) ||
	    nla_put_u8(msg, RDMA_NLDEV_ATTR_DEV_NODE_TYPE, ibdev->node_type) ||
	    nla_put_u8(msg, RDMA_NLDEV_ATTR_DEV_DIM, 0) ||
	    nla_put_string(msg, RDMA_NLDEV_ATTR_DEV_PROTOCOL,
			   dev_protocol(ibdev)))
		return -EMSGSIZE;
	return 0;
}

static int fill_port_info(struct sk_buff *msg, struct ib_device *ibdev,
			  u32 port, struct net *net)
{
	struct net_device *ndev;
	struct ib_port_attr attr;
	int ret;

	if (fill_dev_handle(msg, ibdev) ||
	    nla_put_u32(msg, RDMA_NLDEV_ATTR_PORT_INDEX, port))
		return -EMSGSIZE;
	ret = ib_query_port(ibdev, port, &attr);
	if (ret)
		return ret;
	if (rdma_port_get_link_layer(ibdev, port) == IB_LINK_LAYER_INFINIBAND &&
	    (nla_put_u64_64bit(msg, RDMA_NLDEV_ATTR_CAP_FLAGS,
			       attr.port_cap_flags |
			       ((u64)attr.port_cap_flags2 << 32),
			       RDMA_NLDEV_ATTR_PAD) ||
	     nla_put_u64_64bit(msg, RDMA_NLDEV_ATTR_SUBNET_PREFIX,
			       attr.subnet_prefix, RDMA_NLDEV_ATTR_PAD) ||
	     nla_put_u32(msg, RDMA_NLDEV_ATTR_LID, attr.lid) ||
	     nla_put_u32(msg, RDMA_NLDEV_ATTR_SM_LID, attr.sm_lid) ||
	     nla_put_u8(msg, RDMA_NLDEV_ATTR_LMC, attr.lmc)))
		return -EMSGSIZE;
	if (nla_put_u8(msg, RDMA_NLDEV_ATTR_PORT_STATE, attr.state) ||
	    nla_put_u8(msg, RDMA_NLDEV_ATTR_PORT_PHYS_STATE, attr.phys_state))
		return -EMSGSIZE;

	ndev = ib_device_get_netdev(ibdev, port);
	if (!ndev)
		return 0;
	/* A netdev in another namespace is not ours to name. */
	if (net_eq(dev_net(ndev), net) &&
	    (nla_put_u32(msg, RDMA_NLDEV_ATTR_NDEV_INDEX, ndev->ifindex) ||
	     nla_put_string(msg, RDMA_NLDEV_ATTR_NDEV_NAME, ndev->name)))
		ret = -EMSGSIZE;
	dev_put(ndev);
	return ret;
}

/* The device named by the request's DEV_INDEX, referenced, or NULL. */
static struct ib_device *nldev_get_device(struct nlattr **tb)
{
	if (!tb[RDMA_NLDEV_ATTR_DEV_INDEX])
		return NULL;
	return ib_device_get_by_index(nla_get_u32(tb[RDMA_NLDEV_ATTR_DEV_INDEX]));
}

static bool port_valid(struct ib_device *ibdev, u32 port)
{
	return port >= 1 && port <= ibdev->phys_port_cnt;
}

/* A reply about the one device the request names, filled by @fill. */
static int nldev_device_doit(struct sk_buff *skb, struct nlmsghdr *nlh,
			     struct netlink_ext_ack *extack, u32 cmd,
			     int (*fill)(struct sk_buff *msg,
					 struct ib_device *ibdev))
{
	struct nlattr *tb[RDMA_NLDEV_ATTR_MAX];
	struct ib_device *ibdev;
	struct sk_buff *msg;
	int ret;

	if (nldev_parse(nlh, tb, extack))
		return -EINVAL;
	ibdev = nldev_get_device(tb);
	if (!ibdev)
		return -EINVAL;

	ret = -ENOMEM;
	msg = nldev_reply_new(skb, nlh, cmd, &nlh);
	if (msg) {
		ret = fill(msg, ibdev);
		if (ret)
			nlmsg_free(msg);
		else
			ret = nldev_reply_send(skb, msg, nlh);
	}
	ib_device_put(ibdev);
	return ret;
}

/* One message per registered device, filled by @fill; cb->args[0]: next. */
static int nldev_devices_dumpit(struct sk_buff *skb,
				struct netlink_callback *cb, u32 cmd,
				int (*fill)(struct sk_buff *msg,
					    struct ib_device *ibdev))
{
	unsigned long index = cb->args[0];
	struct ib_device *ibdev;
	struct nlmsghdr *nlh;

	while ((ibdev = ib_device_get_next(&index))) {
		nlh = nlmsg_put(skb, NETLINK_CB(cb->skb).portid,
				cb->nlh->nlmsg_seq,
				RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, cmd),
				0, NLM_F_MULTI);
		if (!nlh || fill(skb, ibdev)) {
			if (nlh)
				nlmsg_cancel(skb, nlh);
			ib_device_put(ibdev);
			break;	/* this skb is full: resume here next time */
		}
		nlmsg_end(skb, nlh);
		cb->args[0] = index;
		ib_device_put(ibdev);
	}
	return skb->len;
}

static int nldev_get_doit(struct sk_buff *skb, struct nlmsghdr *nlh,
			  struct netlink_ext_ack *extack)
{
	return nldev_device_doit(skb, nlh, extack, RDMA_NLDEV_CMD_GET,
				 fill_dev_info);
}

static int nldev_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	return nldev_devices_dumpit(skb, cb, RDMA_NLDEV_CMD_GET,
				    fill_dev_info);
}

static int nldev_port_get_doit(struct sk_buff *skb, struct nlmsghdr *nlh,
			       struct netlink_ext_ack *extack)
{
	struct nlattr *tb[RDMA_NLDEV_ATTR_MAX];
	struct ib_device *ibdev;
	struct sk_buff *msg;
	u32 port;
	int ret;

	if (nldev_parse(nlh, tb, extack) || !tb[RDMA_NLDEV_ATTR_PORT_INDEX])
		return -EINVAL;
	ibdev = nldev_get_device(tb);
	if (!ibdev)
		return -EINVAL;

	ret = -EINVAL;
	port = nla_get_u32(tb[RDMA_NLDEV_ATTR_PORT_INDEX]);
	if (!port_valid(ibdev, port))
		goto out;
	ret = -ENOMEM;
	msg = nldev_reply_new(skb, nlh, RDMA_NLDEV_CMD_PORT_GET, &nlh);
	if (msg) {
		ret = fill_port_info(msg, ibdev, port, sock_net(skb->sk));
		if (ret)
			nlmsg_free(msg);
		else
			ret = nldev_reply_send(skb, msg, nlh);
	}
out:
	ib_device_put(ibdev);
	return ret;
}

/* Ports of the one device the request names; cb->args[0]: next port. */
static int nldev_port_get_dumpit(struct sk_buff *skb,
				 struct netlink_callback *cb)
{
	struct nlattr *tb[RDMA_NLDEV_ATTR_MAX];
	struct ib_device *ibdev;
	struct nlmsghdr *nlh;
	u32 port;

	if (nldev_parse(cb->nlh, tb, NULL))
		return -EINVAL;
	ibdev = nldev_get_device(tb);
	if (!ibdev)
		return -EINVAL;

	for (port = max_t(u32, cb->args[0], 1); port_valid(ibdev, port);
	     port++) {
		nlh = nlmsg_put(skb, NETLINK_CB(cb->skb).portid,
				cb->nlh->nlmsg_seq,
				RDMA_NL_GET_TYPE(RDMA_NL_NLDEV,
						 RDMA_NLDEV_CMD_PORT_GET),
				0, NLM_F_MULTI);
		if (!nlh || fill_port_info(skb, ibdev, port, sock_net(skb->sk))) {
			if (nlh)
				nlmsg_cancel(skb, nlh);
			break;
		}
		nlmsg_end(skb, nlh);
		cb->args[0] = port + 1;
	}
	ib_device_put(ibdev);
	return skb->len;
}

static int nldev_get_chardev(struct sk_buff *skb, struct nlmsghdr *nlh,
			     struct netlink_ext_ack *extack)
{
	char name[NLDEV_CHARDEV_TYPE_SIZE];
	struct ib_client_nl_info info = { .port = -1 };
	struct nlattr *tb[RDMA_NLDEV_ATTR_MAX];
	struct ib_device *ibdev = NULL;
	struct sk_buff *msg;
	int ret;

	if (nldev_parse(nlh, tb, extack) || !tb[RDMA_NLDEV_ATTR_CHARDEV_TYPE])
		return -EINVAL;
	nla_strscpy(name, tb[RDMA_NLDEV_ATTR_CHARDEV_TYPE], sizeof(name));

	if (tb[RDMA_NLDEV_ATTR_DEV_INDEX]) {
		ibdev = nldev_get_device(tb);
		if (!ibdev)
			return -EINVAL;
		if (tb[RDMA_NLDEV_ATTR_PORT_INDEX]) {
			info.port = nla_get_u32(tb[RDMA_NLDEV_ATTR_PORT_INDEX]);
			if (!port_valid(ibdev, info.port)) {
				ret = -EINVAL;
				goto out_put;
			}
		}
	} else if (tb[RDMA_NLDEV_ATTR_PORT_INDEX]) {
		return -EINVAL;	/* a port needs a device */
	}

	ret = -ENOMEM;
	msg = nldev_reply_new(skb, nlh, RDMA_NLDEV_CMD_GET_CHARDEV, &nlh);
	if (!msg)
		goto out_put;
	info.nl_msg = msg;
	ret = ib_get_client_nl_info(ibdev, name, &info);
	if (ret)
		goto out_free;

	ret = -EMSGSIZE;
	if (nla_put_u64_64bit(msg, RDMA_NLDEV_ATTR_CHARDEV,
			      huge_encode_dev(info.cdev->devt),
			      RDMA_NLDEV_ATTR_PAD) ||
	    nla_put_u64_64bit(msg, RDMA_NLDEV_ATTR_CHARDEV_ABI, info.abi,
			      RDMA_NLDEV_ATTR_PAD) ||
	    nla_put_string(msg, RDMA_NLDEV_ATTR_CHARDEV_NAME,
			   dev_name(info.cdev))) {
		put_device(info.cdev);
		goto out_free;
	}
	put_device(info.cdev);
	ret = nldev_reply_send(skb, msg, nlh);
	goto out_put;

out_free:
	nlmsg_free(msg);
out_put:
	if (ibdev)
		ib_device_put(ibdev);
	return ret;
}

#ifdef ORDMA_HAVE_NL_MONITOR
/* `rdma sys` says "monitor on" where the kernel line sends device events. */
static int nldev_put_monitor_mode(struct sk_buff *msg)
{
	return nla_put_u8(msg, RDMA_NLDEV_SYS_ATTR_MONITOR_MODE, 1);
}

/*
 * One RDMA_NLDEV_CMD_MONITOR message to the NOTIFY group: the device's
 * handle, for a netdev event (@ndev) also the port and the netdev, and the
 * event.  A lost event (no memory) is only logged: registration goes on.
 */
static void nldev_notify(struct ib_device *ibdev, u32 port,
			 struct net_device *ndev, u8 event)
{
	struct nlmsghdr *nlh;
	struct sk_buff *msg;
	int ret = -ENOMEM;

	msg = nlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);
	if (!msg)
		goto lost;
	ret = -EMSGSIZE;
	nlh = nlmsg_put(msg, 0, 0,
			RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, RDMA_NLDEV_CMD_MONITOR),
			0, 0);
	if (!nlh || fill_dev_handle(msg, ibdev) ||
	    (ndev &&
	     (nla_put_u32(msg, RDMA_NLDEV_ATTR_PORT_INDEX, port) ||
	      nla_put_u32(msg, RDMA_NLDEV_ATTR_NDEV_INDEX, ndev->ifindex) ||
	      nla_put_string(msg, RDMA_NLDEV_ATTR_NDEV_NAME, ndev->name))) ||
	    nla_put_u8(msg, RDMA_NLDEV_ATTR_EVENT_TYPE, event)) {
		nlmsg_free(msg);
		goto lost;
	}
	nlmsg_end(msg, nlh);
	ret = rdma_nl_multicast_init_net(msg, RDMA_NL_GROUP_NOTIFY);
	if (!ret)
		return;
lost:
	dev_warn_ratelimited(&ibdev->dev, "monitor event %u not sent: %d\n",
			     event, ret);
}

/* After registration: the device, then each port that has a netdev. */
void nldev_notify_registered(struct ib_device *ibdev)
{
	struct net_device *ndev;
	u32 port;

	nldev_notify(ibdev, 0, NULL, RDMA_REGISTER_EVENT);
	rdma_for_each_port(ibdev, port) {
		ndev = ib_device_get_netdev(ibdev, port);
		if (!ndev)
			continue;
		nldev_notify(ibdev, port, ndev, RDMA_NETDEV_ATTACH_EVENT);
		dev_put(ndev);
	}
}

void nldev_notify_unregistered(struct ib_device *ibdev)
{
	nldev_notify(ibdev, 0, NULL, RDMA_UNREGISTER_EVENT);
}
#else
static int nldev_put_monitor_mode(struct sk_buff *msg)
{
	return 0;
}

void nldev_notify_registered(struct ib_device *ibdev)
{
}

void nldev_notify_unregistered(struct ib_device *ibdev)
{
}
#endif

static int nldev_sys_get_doit(struct sk_buff *skb, struct nlmsghdr *nlh,
			      struct netlink_ext_ack *extack)
{
	struct nlattr *tb[RDMA_NLDEV_ATTR_MAX];
	struct sk_buff *msg;

	if (nldev_parse(nlh, tb, extack))
		return -EINVAL;
	msg = nldev_reply_new(skb, nlh, RDMA_NLDEV_CMD_SYS_GET, &nlh);
	if (!msg)
		return -ENOMEM;
	/*
	 * Devices are visible in every namespace ("shared"), controlled
	 * Q_Keys need CAP_NET_RAW unless privileged-qkey is on, and pinned
	 * pages are copied on fork (the kernels we target all do early COW
	 * of pinned pages).
	 */
	if (nla_put_u8(msg, RDMA_NLDEV_SYS_ATTR_NETNS_MODE, 1) ||
	    nla_put_u8(msg, RDMA_NLDEV_SYS_ATTR_PRIVILEGED_QKEY_MODE,
		       READ_ONCE(nldev_privileged_qkey_open)) ||
	    nla_put_u8(msg, RDMA_NLDEV_SYS_ATTR_COPY_ON_FORK, 1) ||
	    nldev_put_monitor_mode(msg)) {
		nlmsg_free(msg);
		return -EMSGSIZE;
	}
	return nldev_reply_send(skb, msg, nlh);
}

/* `rdma res`: how many objects of each kind the device has. */
static int fill_res_summary(struct sk_buff *msg, struct ib_device *ibdev)
{
	static const char * const names[IB_RES_MAX] = {
		[IB_RES_PD] = "pd", [IB_RES_CQ] = "cq", [IB_RES_QP] = "qp",
		[IB_RES_CM_ID] = "cm_id", [IB_RES_MR] = "mr",
		[IB_RES_CTX] = "ctx", [IB_RES_SRQ] = "srq",
	};
	struct nlattr *table, *entry;
	int i;

	if (fill_dev_handle(msg, ibdev))
		return -EMSGSIZE;
	table = nla_nest_start(msg, RDMA_NLDEV_ATTR_RES_SUMMARY);
	if (!table)
		return -EMSGSIZE;
	for (i = 0; i < IB_RES_MAX; i++) {
		entry = nla_nest_start(msg, RDMA_NLDEV_ATTR_RES_SUMMARY_ENTRY);
		if (!entry ||
		    nla_put_string(msg, RDMA_NLDEV_ATTR_RES_SUMMARY_ENTRY_NAME,
				   names[i]) ||
		    nla_put_u64_64bit(msg,
				      RDMA_NLDEV_ATTR_RES_SUMMARY_ENTRY_CURR,
				      atomic_read(&ibdev->res_count[i]),
				      RDMA_NLDEV_ATTR_PAD)) {
			nla_nest_cancel(msg, table);
			return -EMSGSIZE;
		}
		nla_nest_end(msg, entry);
	}
	nla_nest_end(msg, table);
	return 0;
}

static int nldev_res_get_doit(struct sk_buff *skb, struct nlmsghdr *nlh,
			      struct netlink_ext_ack *extack)
{
	return nldev_device_doit(skb, nlh, extack, RDMA_NLDEV_CMD_RES_GET,
				 fill_res_summary);
}

static int nldev_res_get_dumpit(struct sk_buff *skb,
				struct netlink_callback *cb)
{
	return nldev_devices_dumpit(skb, cb, RDMA_NLDEV_CMD_RES_GET,
				    fill_res_summary);
}

/*
 * `rdma res show cm_id`: one message per call for the device the request
 * names (DEV_INDEX, as in-tree: required), its RES_CM_ID table holding
 * what fits; cb->args[0] is the next id, cb->args[1] set once all are in.
 */
static int nldev_res_cm_id_dumpit(struct sk_buff *skb,
				  struct netlink_callback *cb)
{
	struct nlattr *tb[RDMA_NLDEV_ATTR_MAX];
	unsigned long pos = cb->args[0];
	struct ib_device *ibdev;
	struct nlattr *table;
	struct nlmsghdr *nlh;
	u32 port = 0;
	int ret;

	if (cb->args[1])
		return 0;
	if (nldev_parse(cb->nlh, tb, NULL))
		return -EINVAL;
	ibdev = nldev_get_device(tb);
	if (!ibdev)
		return -EINVAL;
	ret = -EINVAL;
	if (tb[RDMA_NLDEV_ATTR_PORT_INDEX]) {
		port = nla_get_u32(tb[RDMA_NLDEV_ATTR_PORT_INDEX]);
		if (!port_valid(ibdev, port))
			goto out;
	}
	ret = -EMSGSIZE;
	nlh = nlmsg_put(skb, NETLINK_CB(cb->skb).portid, cb->nlh->nlmsg_seq,
			RDMA_NL_GET_TYPE(RDMA_NL_NLDEV,
					 RDMA_NLDEV_CMD_RES_CM_ID_GET),
			0, NLM_F_MULTI);
	if (!nlh)
		goto out;
	table = fill_dev_handle(skb, ibdev) ? NULL :
		nla_nest_start(skb, RDMA_NLDEV_ATTR_RES_CM_ID);
	if (!table) {
		nlmsg_cancel(skb, nlh);
		goto out;
	}
	/* (rdma_cm not loaded: no cm_id, an empty table) */
	ret = ib_client_fill_res_cm_ids(ibdev, port, skb, &pos);
	if (ret && ret != -EMSGSIZE) {
		nlmsg_cancel(skb, nlh);
		goto out;
	}
	nla_nest_end(skb, table);
	nlmsg_end(skb, nlh);
	cb->args[0] = pos;
	cb->args[1] = !ret;
	ret = skb->len;
out:
	ib_device_put(ibdev);
	return ret;
}

/* One "name value" pair of a hw counter table. */
static int fill_hwcounter_entry(struct sk_buff *msg, const char *name, u64 v)
{
	struct nlattr *entry;

	entry = nla_nest_start(msg, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY);
	if (!entry)
		return -EMSGSIZE;
	if (nla_put_string(msg, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_NAME,
			   name) ||
	    nla_put_u64_64bit(msg, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_VALUE,
			      v, RDMA_NLDEV_ATTR_PAD)) {
		nla_nest_cancel(msg, entry);
		return -EMSGSIZE;
	}
	nla_nest_end(msg, entry);
	return 0;
}

/* The port's hw counters, fresh from the driver, as a nested table. */
static int fill_port_hwcounters(struct sk_buff *msg, struct ib_device *ibdev,
				u32 port)
{
	struct ib_port_data *pdata = ib_port(ibdev, port);
	struct rdma_hw_stats *stats = pdata->hw_stats;
	struct nlattr *table;
	int i, n, ret = 0;

	mutex_lock(&pdata->hw_stats_lock);
	n = ibdev->ops.get_hw_stats(ibdev, stats, port, 0);
	if (n < 0) {
		ret = n;
		goto out;
	}
	table = nla_nest_start(msg, RDMA_NLDEV_ATTR_STAT_HWCOUNTERS);
	if (!table) {
		ret = -EMSGSIZE;
		goto out;
	}
	for (i = 0; i < stats->num_counters && !ret; i++)
		ret = fill_hwcounter_entry(msg, stats->descs[i].name,
					   stats->value[i]);
	if (ret)
		nla_nest_cancel(msg, table);
	else
		nla_nest_end(msg, table);
out:
	mutex_unlock(&pdata->hw_stats_lock);
	return ret;
}

/*
 * `rdma statistic show`: a port's default counters.  Per-QP counters
 * (STAT_RES set, and the dump form which needs it) are not supported:
 * -EINVAL, as in-tree answers a device without them.
 */
static int nldev_stat_get_doit(struct sk_buff *skb, struct nlmsghdr *nlh,
			       struct netlink_ext_ack *extack)
{
	struct nlattr *tb[RDMA_NLDEV_ATTR_MAX];
	struct ib_device *ibdev;
	struct sk_buff *msg;
	u32 port;
	int ret;

	if (nldev_parse(nlh, tb, extack) || tb[RDMA_NLDEV_ATTR_STAT_RES] ||
	    !tb[RDMA_NLDEV_ATTR_PORT_INDEX])
		return -EINVAL;
	ibdev = nldev_get_device(tb);
	if (!ibdev)
		return -EINVAL;
	ret = -EINVAL;
	port = nla_get_u32(tb[RDMA_NLDEV_ATTR_PORT_INDEX]);
	if (!port_valid(ibdev, port) || !ibdev->ops.get_hw_stats ||
	    !ib_port(ibdev, port)->hw_stats)
		goto out;
	ret = -ENOMEM;
	msg = nldev_reply_new(skb, nlh, RDMA_NLDEV_CMD_STAT_GET, &nlh);
	if (msg) {
		ret = fill_dev_handle(msg, ibdev);
		if (!ret && nla_put_u32(msg, RDMA_NLDEV_ATTR_PORT_INDEX, port))
			ret = -EMSGSIZE;
		if (!ret)
			ret = fill_port_hwcounters(msg, ibdev, port);
		if (ret)
			nlmsg_free(msg);
		else
			ret = nldev_reply_send(skb, msg, nlh);
	}
out:
	ib_device_put(ibdev);
	return ret;
}

static int nldev_newlink(struct sk_buff *skb, struct nlmsghdr *nlh,
			 struct netlink_ext_ack *extack)
{
	struct nlattr *tb[RDMA_NLDEV_ATTR_MAX];
	char ibdev_name[IB_DEVICE_NAME_MAX];
	char ndev_name[IFNAMSIZ];
	struct net_device *ndev;
	char type[IFNAMSIZ];
	int ret;

	if (nldev_parse(nlh, tb, extack) || !tb[RDMA_NLDEV_ATTR_DEV_NAME] ||
	    !tb[RDMA_NLDEV_ATTR_LINK_TYPE] || !tb[RDMA_NLDEV_ATTR_NDEV_NAME])
		return -EINVAL;

	nla_strscpy(ibdev_name, tb[RDMA_NLDEV_ATTR_DEV_NAME],
		    sizeof(ibdev_name));
	/* A name pattern ("rxe%d") is for drivers, not for users. */
	if (!ibdev_name[0] || strchr(ibdev_name, '%'))
		return -EINVAL;
	nla_strscpy(type, tb[RDMA_NLDEV_ATTR_LINK_TYPE], sizeof(type));
	nla_strscpy(ndev_name, tb[RDMA_NLDEV_ATTR_NDEV_NAME],
		    sizeof(ndev_name));

	ndev = dev_get_by_name(sock_net(skb->sk), ndev_name);
	if (!ndev)
		return -ENODEV;
	ret = rdma_link_newlink(type, ibdev_name, ndev);
	dev_put(ndev);
	return ret;
}

static int nldev_dellink(struct sk_buff *skb, struct nlmsghdr *nlh,
			 struct netlink_ext_ack *extack)
{
	struct nlattr *tb[RDMA_NLDEV_ATTR_MAX];
	struct ib_device *ibdev;

	if (nldev_parse(nlh, tb, extack))
		return -EINVAL;
	ibdev = nldev_get_device(tb);
	if (!ibdev)
		return -EINVAL;
	/* Only devices made by `rdma link add` go by `rdma link delete`. */
	if (!ibdev->link_type) {
		ib_device_put(ibdev);
		return -EINVAL;
	}
	ib_unregister_device_and_put(ibdev);
	return 0;
}

static int nldev_set_doit(struct sk_buff *skb, struct nlmsghdr *nlh,
			  struct netlink_ext_ack *extack)
{
	struct nlattr *tb[RDMA_NLDEV_ATTR_MAX];
	char name[IB_DEVICE_NAME_MAX];
	struct ib_device *ibdev;
	int ret = -EINVAL;

	if (nldev_parse(nlh, tb, extack))
		return -EINVAL;
	ibdev = nldev_get_device(tb);
	if (!ibdev)
		return -EINVAL;
	if (tb[RDMA_NLDEV_ATTR_DEV_NAME]) {
		nla_strscpy(name, tb[RDMA_NLDEV_ATTR_DEV_NAME], sizeof(name));
		ret = ib_device_rename(ibdev, name);
	} else if (tb[RDMA_NLDEV_NET_NS_FD] || tb[RDMA_NLDEV_ATTR_DEV_DIM]) {
		/* Namespace moves and adaptive moderation: not supported. */
		ret = -EOPNOTSUPP;
	}
	ib_device_put(ibdev);
	return ret;
}

/*
 * `rdma system set`: the privileged-qkey mode (0 or 1), or the namespace
 * mode, of which only "shared" exists here.
 */
static int nldev_sys_set_doit(struct sk_buff *skb, struct nlmsghdr *nlh,
			      struct netlink_ext_ack *extack)
{
	struct nlattr *tb[RDMA_NLDEV_ATTR_MAX];
	u8 mode;

	if (nldev_parse(nlh, tb, extack))
		return -EINVAL;
	if (tb[RDMA_NLDEV_SYS_ATTR_NETNS_MODE]) {
		mode = nla_get_u8(tb[RDMA_NLDEV_SYS_ATTR_NETNS_MODE]);
		if (mode > 1)
			return -EINVAL;
		return mode ? 0 : -EOPNOTSUPP;
	}
	if (tb[RDMA_NLDEV_SYS_ATTR_PRIVILEGED_QKEY_MODE]) {
		mode = nla_get_u8(tb[RDMA_NLDEV_SYS_ATTR_PRIVILEGED_QKEY_MODE]);
		if (mode > 1)
			return -EINVAL;
		WRITE_ONCE(nldev_privileged_qkey_open, mode);
		return 0;
	}
	return -EINVAL;
}

const struct rdma_nl_handler nldev_handlers[RDMA_NLDEV_NUM_OPS] = {
	[RDMA_NLDEV_CMD_GET] = {
		.doit = nldev_get_doit,
		.dump = nldev_get_dumpit,
	},
	[RDMA_NLDEV_CMD_SET] = {
		.doit = nldev_set_doit,
		.admin = true,
	},
	[RDMA_NLDEV_CMD_GET_CHARDEV] = {
		.doit = nldev_get_chardev,
	},
	[RDMA_NLDEV_CMD_NEWLINK] = {
		.doit = nldev_newlink,
		.admin = true,
	},
	[RDMA_NLDEV_CMD_DELLINK] = {
		.doit = nldev_dellink,
		.admin = true,
	},
	[RDMA_NLDEV_CMD_PORT_GET] = {
		.doit = nldev_port_get_doit,
		.dump = nldev_port_get_dumpit,
	},
	[RDMA_NLDEV_CMD_RES_GET] = {
		.doit = nldev_res_get_doit,
		.dump = nldev_res_get_dumpit,
	},
	[RDMA_NLDEV_CMD_RES_CM_ID_GET] = {
		.dump = nldev_res_cm_id_dumpit,
	},
	[RDMA_NLDEV_CMD_STAT_GET] = {
		.doit = nldev_stat_get_doit,
	},
	[RDMA_NLDEV_CMD_SYS_GET] = {
		.doit = nldev_sys_get_doit,
	},
	[RDMA_NLDEV_CMD_SYS_SET] = {
		.doit = nldev_sys_set_doit,
		.admin = true,
	},
};
