// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The network layer of rxe: RoCEv2 is UDP to port 4791 over IPv4 or IPv6.
 *
 * Receive: one kernel UDP socket per family (in init_net) with an
 * encapsulation callback.  The callback finds the rxe device the packet
 * is for, strips the UDP header and hands the packet to rxe_rcv().
 *
 * Transmit: the requester and the responder build a packet in an skb from
 * rxe_pkt_alloc() (headroom for the UDP/IP/link headers, the BTH onwards
 * zeroed but for the payload the caller writes); rxe_pkt_xmit() routes
 * it, puts the UDP and IP headers in front, stores the ICRC (not for
 * packets that stay on this host) and hands it to the IP layer.  Every
 * packet goes through IP, also one to an address of this host: the route
 * of a local address leads through the loopback device, and the receive
 * side then maps the destination address back to the netdev (and rxe)
 * that owns it.
 *
 * Finding the rxe device of a netdev on receive must not sleep, and
 * ib_device_get_by_netdev() takes a semaphore, so we keep our own RCU
 * hash of netdev -> rxe, filled by an ib_client whose add and remove run
 * when an rxe device is registered and unregistered.
 */
#include <linux/crc32.h>
#include <linux/etherdevice.h>
#include <linux/hashtable.h>
#include <linux/if_vlan.h>
#include <linux/inetdevice.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/slab.h>
#include <linux/udp.h>
#include <crypto/hash.h>
#include <net/addrconf.h>
#include <net/ip.h>
#include <net/ip6_checksum.h>
#include <net/ip6_route.h>
#include <net/ipv6.h>
#include <net/ipv6_stubs.h>
#include <net/route.h>
#include <net/udp_tunnel.h>
#include <uapi/rdma/rdma_user_rxe.h>
#include "rxe_loc.h"
#include "rxe_icrc.h"

static struct socket *rxe_sk4;
static struct socket *rxe_sk6;	/* NULL when IPv6 is not available */

/* ------------------------------------------------------------------ */
/* ICRC                                                                 */
/* ------------------------------------------------------------------ */

/*
 * The crypto API's "crc32" is the same raw reflected CRC as crc32_le(),
 * but picks the fastest implementation (PCLMULQDQ on x86), several times
 * faster than the table-driven crc32_le() over a full-MTU payload.  The
 * tfm only holds the algorithm, so all CPUs share it; each call keeps its
 * CRC state in its own descriptor.
 */
static struct crypto_shash *rxe_crc_tfm;

/* Below this the descriptor setup costs more than the table lookups. */
#define RXE_CRC_SHASH_MIN	64

u32 rxe_crc32(u32 crc, const u8 *p, size_t len)
{
	struct crypto_shash *tfm = rxe_crc_tfm;

	if (tfm && len >= RXE_CRC_SHASH_MIN) {
		SHASH_DESC_ON_STACK(desc, tfm);

		desc->tfm = tfm;
		*(u32 *)shash_desc_ctx(desc) = crc;
		if (!crypto_shash_update(desc, p, len))
			return *(u32 *)shash_desc_ctx(desc);
	}
	return crc32_le(crc, p, len);
}

/* ------------------------------------------------------------------ */
/* netdev -> rxe                                                        */
/* ------------------------------------------------------------------ */

struct rxe_net_dev {
	struct hlist_node node;		/* in rxe_net_devs, by @ndev */
	struct net_device *ndev;
	struct rxe_dev *rxe;
};

static DEFINE_HASHTABLE(rxe_net_devs, 6);
static DEFINE_SPINLOCK(rxe_net_devs_lock);	/* writers of rxe_net_devs */

/* Under rcu_read_lock(); the rxe stays valid until it is released. */
static struct rxe_dev *rxe_net_dev_rxe(const struct net_device *ndev)
{
	struct rxe_net_dev *d;

	hash_for_each_possible_rcu(rxe_net_devs, d, node, (unsigned long)ndev)
		if (d->ndev == ndev)
			return d->rxe;
	return NULL;
}

static struct ib_client rxe_net_client;

static int rxe_net_client_add(struct ib_device *ibdev)
{
	struct rxe_net_dev *d;
	struct rxe_dev *rxe;

	if (ibdev->ops.driver_id != RDMA_DRIVER_RXE)
		return 0;
	rxe = to_rdev(ibdev);
	d = kzalloc(sizeof(*d), GFP_KERNEL);
	if (!d)
		return -ENOMEM;
	d->ndev = rxe->ndev;
	d->rxe = rxe;
	spin_lock(&rxe_net_devs_lock);
	hash_add_rcu(rxe_net_devs, &d->node, (unsigned long)d->ndev);
	spin_unlock(&rxe_net_devs_lock);
	ib_set_client_data(ibdev, &rxe_net_client, d);
	return 0;
}

static void rxe_net_client_remove(struct ib_device *ibdev, void *data)
{
	struct rxe_net_dev *d = data;

	if (!d)
		return;
	spin_lock(&rxe_net_devs_lock);
	hash_del_rcu(&d->node);
	spin_unlock(&rxe_net_devs_lock);
	/*
	 * Receive runs under RCU from the lookup until it holds a QP (or
	 * has dropped the packet): once readers are gone no packet can
	 * reach the device any more, and its teardown may go on.
	 */
	synchronize_rcu();
	kfree(d);
}

static struct ib_client rxe_net_client = {
	.name = "rxe_net",
	.add = rxe_net_client_add,
	.remove = rxe_net_client_remove,
};

/* A VLAN device stands for its real device.  Under rcu_read_lock(). */
static struct rxe_dev *rxe_net_ndev_rxe(const struct net_device *ndev)
{
	struct rxe_dev *rxe = rxe_net_dev_rxe(ndev);

	if (!rxe && is_vlan_dev(ndev))
		rxe = rxe_net_dev_rxe(vlan_dev_real_dev(ndev));
	return rxe;
}

/*
 * The rxe a received packet is for: the one of the netdev that owns the
 * destination address (this also maps packets to a local address, which
 * arrive on the loopback device, to the right netdev), or for multicast
 * the one of the netdev it arrived on.  A VLAN device stands for its real
 * device.  Under rcu_read_lock().
 */
static struct rxe_dev *rxe_net_rcv_rxe(struct sk_buff *skb)
{
	struct net_device *ndev = skb->dev;
	struct net *net = dev_net(ndev);

	if (skb->protocol == htons(ETH_P_IP)) {
		__be32 daddr = ip_hdr(skb)->daddr;

		if (!ipv4_is_multicast(daddr))
			ndev = __ip_dev_find(net, daddr, false);
	} else {
		const struct in6_addr *daddr = &ipv6_hdr(skb)->daddr;

		if (!ipv6_addr_is_multicast(daddr))
			ndev = ipv6_dev_find(net, daddr, NULL);
	}
	return ndev ? rxe_net_ndev_rxe(ndev) : NULL;
}

/* ------------------------------------------------------------------ */
/* Receive                                                              */
/* ------------------------------------------------------------------ */

/* skb->data is at the UDP header, which the UDP layer has checked. */
static int rxe_udp_encap_recv(struct sock *sk, struct sk_buff *skb)
{
	struct rxe_dev *rxe;

	rcu_read_lock();
	rxe = rxe_net_rcv_rxe(skb);
	/*
	 * The responder and completer read headers and payload through
	 * pkt->hdr, so the packet must be in one piece.
	 */
	if (unlikely(!rxe || skb_linearize(skb))) {
		rcu_read_unlock();
		/* Not for an rxe: the socket's drop count (/proc/net/udp). */
		atomic_inc(&sk->sk_drops);
		kfree_skb(skb);
		return 0;
	}
	/* The UDP header stays reachable at skb_transport_header(). */
	__skb_pull(skb, sizeof(struct udphdr));
	rxe_rcv(rxe, skb, false);
	rcu_read_unlock();
	return 0;
}

static struct socket *rxe_net_sock(bool ipv6)
{
	struct udp_tunnel_sock_cfg tnl_cfg = {
		.encap_type = 1,
		.encap_rcv = rxe_udp_encap_recv,
	};
	struct udp_port_cfg udp_cfg = {
		.local_udp_port = htons(RXE_ROCEV2_UDP_PORT),
	};
	struct socket *sock;
	int err;

	if (ipv6) {
		udp_cfg.family = AF_INET6;
		udp_cfg.ipv6_v6only = 1;
		/*
		 * Neither use_udp6_rx_checksums: RoCEv2 peers (in-tree rxe)
		 * send IPv6 with a zero UDP checksum, which we must accept.
		 */
	} else {
		udp_cfg.family = AF_INET;
	}
	err = udp_sock_create(&init_net, &udp_cfg, &sock);
	if (err)
		return ERR_PTR(err);
	setup_udp_tunnel_sock(&init_net, sock, &tnl_cfg);
	return sock;
}

/* ------------------------------------------------------------------ */
/* Transmit                                                             */
/* ------------------------------------------------------------------ */

/*
 * An skb with room for @len bytes.  A kmalloc()ed head is zeroed whole
 * on Debian's kernels (init_on_alloc), half a KiB for the smallest
 * packet, which rxe_pkt_alloc() and the callers write in full anyway.
 * A page fragment is zeroed only when its page is allocated, and the
 * page is used again, without that, once all its packets are freed, as
 * a small message's are before the next one.
 */
static struct sk_buff *rxe_skb_alloc(unsigned int len)
{
	unsigned int size = SKB_DATA_ALIGN(len) +
			    SKB_DATA_ALIGN(sizeof(struct skb_shared_info));
	struct sk_buff *skb;
	void *data;

	if (size > PAGE_SIZE)
		return alloc_skb(len, GFP_ATOMIC);
	data = netdev_alloc_frag(size);
	if (unlikely(!data))
		return NULL;
	skb = build_skb(data, size);
	if (unlikely(!skb))
		skb_free_frag(data);
	return skb;
}

struct sk_buff *rxe_pkt_alloc(struct rxe_qp *qp, const struct rxe_av *av,
			      unsigned int paylen, unsigned int payload)
{
	struct net_device *ndev = qp->rxe->ndev;
	struct rxe_pkt_info *pkt;
	struct sk_buff *skb;
	unsigned int hdr_len;
	__be16 proto;

	if (av->network_type == RXE_NETWORK_TYPE_IPV4) {
		hdr_len = sizeof(struct iphdr);
		proto = htons(ETH_P_IP);
	} else if (av->network_type == RXE_NETWORK_TYPE_IPV6) {
		hdr_len = sizeof(struct ipv6hdr);
		proto = htons(ETH_P_IPV6);
	} else {
		return NULL;
	}
	if (unlikely(paylen > U16_MAX))
		return NULL;
	hdr_len += sizeof(struct udphdr) + LL_RESERVED_SPACE(ndev);

	skb = rxe_skb_alloc(hdr_len + paylen);
	if (unlikely(!skb))
		return NULL;
	skb_reserve(skb, hdr_len);
	skb->protocol = proto;
	skb->dev = ndev;

	/* the control block is clear: mask, opcode, psn are 0 */
	pkt = rxe_skb_pkt(skb);
	pkt->rxe = qp->rxe;
	pkt->qp = qp;
	pkt->hdr = skb_put(skb, paylen);
	if (payload) {
		/* the caller writes the payload: zero what is around it */
		unsigned int tail = rxe_pad_len(payload) + RXE_ICRC_BYTES;
		unsigned int hdr_len = paylen - payload - tail;

		memset(pkt->hdr, 0, hdr_len);
		memset(pkt->hdr + hdr_len + payload, 0, tail);
	} else {
		memset(pkt->hdr, 0, paylen);
	}
	pkt->paylen = paylen;
	pkt->port_num = 1;
	return skb;
}

static void rxe_push_udp(struct sk_buff *skb, u16 src_port)
{
	struct udphdr *uh;

	__skb_push(skb, sizeof(*uh));
	skb_reset_transport_header(skb);
	uh = udp_hdr(skb);
	uh->source = htons(src_port);
	uh->dest = htons(RXE_ROCEV2_UDP_PORT);
	uh->len = htons(skb->len);
	uh->check = 0;
}

/*
 * The ICRC over IP header .. pad, into the last four bytes; for an RC
 * FLUSH of a QP that found its peer to be the in-tree rxe, in that
 * driver's form (rxe_icrc.h, req_flush_retry()).
 */
static void rxe_put_icrc(struct rxe_qp *qp, struct sk_buff *skb)
{
	u8 *icrc = skb_tail_pointer(skb) - RXE_ICRC_BYTES;
	u8 *udp = skb_transport_header(skb);
	u32 (*seal)(const u8 *ip_hdr, size_t ip_len, bool ipv6, const u8 *rest,
		    size_t rest_len, rxe_crc32_fn crc_fn) = rxe_icrc_compute;

	if (unlikely(rxe_skb_pkt(skb)->opcode == RXE_OPCODE_RC_FLUSH &&
		     READ_ONCE(qp->req.flush_icrc_intree)))
		seal = rxe_icrc_intree_flush;
	rxe_icrc_put(icrc, seal(skb_network_header(skb),
				skb_network_header_len(skb),
				skb->protocol == htons(ETH_P_IPV6),
				udp, icrc - udp, rxe_crc32));
}

/*
 * RC and UC send every packet along the QP's path, so its route is cached
 * per QP (per CPU, dst_cache; a route change in the system invalidates
 * the entry).  UD datagrams go wherever their AV says: looked up each.
 */
static struct dst_cache *rxe_path_cache(struct rxe_qp *qp)
{
	enum ib_qp_type t = rxe_qp_type(qp);

	return t == IB_QPT_RC || t == IB_QPT_UC ? &qp->dst_cache : NULL;
}

static int rxe_prepare4(struct rxe_qp *qp, const struct rxe_av *av,
			struct sk_buff *skb, struct net *net)
{
	struct dst_cache *cache = rxe_path_cache(qp);
	struct flowi4 fl4 = {
		.flowi4_oif = qp->rxe->ndev->ifindex,
		.flowi4_proto = IPPROTO_UDP,
		.saddr = av->sgid_addr._sockaddr_in.sin_addr.s_addr,
		.daddr = av->dgid_addr._sockaddr_in.sin_addr.s_addr,
		.fl4_sport = htons(qp->src_port),
		.fl4_dport = htons(RXE_ROCEV2_UDP_PORT),
	};
	struct rtable *rt = NULL;
	struct iphdr *iph;

	if (cache) {
		local_bh_disable();
		rt = dst_cache_get_ip4(cache, &fl4.saddr);
		local_bh_enable();
	}
	if (!rt) {
		rt = ip_route_output_key(net, &fl4);
		if (IS_ERR(rt))
			return PTR_ERR(rt);
		if (cache) {
			local_bh_disable();
			dst_cache_set_ip4(cache, &rt->dst, fl4.saddr);
			local_bh_enable();
		}
	}
	if (unlikely(skb_cow_head(skb, sizeof(*iph) + sizeof(struct udphdr)))) {
		ip_rt_put(rt);
		return -ENOMEM;
	}
	skb_dst_set(skb, &rt->dst);

	rxe_push_udp(skb, qp->src_port);

	__skb_push(skb, sizeof(*iph));
	skb_reset_network_header(skb);
	iph = ip_hdr(skb);
	iph->version = 4;
	iph->ihl = sizeof(*iph) >> 2;
	iph->tos = av->grh.traffic_class;
	iph->tot_len = htons(skb->len);
	iph->frag_off = htons(IP_DF);
	/* hop limit 0 in an AV: the route's default rather than a dead TTL */
	iph->ttl = av->grh.hop_limit ?: ip4_dst_hoplimit(&rt->dst);
	iph->protocol = IPPROTO_UDP;
	iph->check = 0;			/* ip_local_out() computes it */
	iph->saddr = fl4.saddr;		/* the route's choice if unset */
	iph->daddr = fl4.daddr;
	/* before the ICRC, which covers the identification */
	__ip_select_ident(net, iph, 1);
	return 0;
}

static int rxe_prepare6(struct rxe_qp *qp, const struct rxe_av *av,
			struct sk_buff *skb, struct net *net)
{
	__be32 label = htonl(av->grh.flow_label) & IPV6_FLOWLABEL_MASK;
	struct dst_cache *cache = rxe_path_cache(qp);
	struct flowi6 fl6 = {
		.flowi6_oif = qp->rxe->ndev->ifindex,
		.flowi6_proto = IPPROTO_UDP,
		.flowlabel = ip6_make_flowinfo(av->grh.traffic_class, label),
		.saddr = av->sgid_addr._sockaddr_in6.sin6_addr,
		.daddr = av->dgid_addr._sockaddr_in6.sin6_addr,
		.fl6_sport = htons(qp->src_port),
		.fl6_dport = htons(RXE_ROCEV2_UDP_PORT),
	};
	struct dst_entry *dst = NULL;
	struct ipv6hdr *ip6h;

	if (!rxe_sk6)
		return -EAFNOSUPPORT;
	if (cache) {
		local_bh_disable();
		dst = dst_cache_get_ip6(cache, &fl6.saddr);
		local_bh_enable();
	}
	if (!dst) {
		dst = ipv6_stub->ipv6_dst_lookup_flow(net, rxe_sk6->sk, &fl6,
						      NULL);
		if (IS_ERR(dst))
			return PTR_ERR(dst);
		if (cache) {
			local_bh_disable();
			dst_cache_set_ip6(cache, dst, &fl6.saddr);
			local_bh_enable();
		}
	}
	if (unlikely(skb_cow_head(skb, sizeof(*ip6h) +
					   sizeof(struct udphdr)))) {
		dst_release(dst);
		return -ENOMEM;
	}
	skb_dst_set(skb, dst);

	rxe_push_udp(skb, qp->src_port);

	__skb_push(skb, sizeof(*ip6h));
	skb_reset_network_header(skb);
	ip6h = ipv6_hdr(skb);
	ip6_flow_hdr(ip6h, av->grh.traffic_class, label);
	ip6h->payload_len = htons(skb->len - sizeof(*ip6h));
	ip6h->nexthdr = IPPROTO_UDP;
	ip6h->hop_limit = av->grh.hop_limit ?: ip6_dst_hoplimit(dst);
	ip6h->saddr = fl6.saddr;
	ip6h->daddr = fl6.daddr;
	return 0;
}

/*
 * A request skb was freed by the stack (sent, or dropped): one less in
 * flight.  The requester pauses when it has too many out; wake it when
 * the count falls below the low mark (only on that crossing: the count
 * moves by one at a time).  Any context.
 */
static void rxe_skb_tx_dtor(struct sk_buff *skb)
{
	struct rxe_qp *qp = skb_shinfo(skb)->destructor_arg;

	if (atomic_dec_return(&qp->skb_out) == RXE_INFLIGHT_SKBS_PER_QP_LOW - 1)
		rxe_req_run(qp);
	rxe_qp_put(qp);
}

/* The same for a read response to this host (the responder's stream). */
static void rxe_skb_rd_dtor(struct sk_buff *skb)
{
	struct rxe_qp *qp = skb_shinfo(skb)->destructor_arg;

	if (atomic_dec_return(&qp->resp.rd_skb_out) ==
	    RXE_INFLIGHT_SKBS_PER_QP_LOW - 1)
		rxe_resp_run(qp);
	rxe_qp_put(qp);
}

/*
 * A packet to an address of this host: hand it to the receive side at
 * once instead of through the loopback device, whose backlog would drop
 * bursts (a large read's responses) and whose orphaning of the skb would
 * end the sender's in-flight accounting before the packet was handled.
 * With the skb alive until the receiver is done with it, qp->skb_out
 * paces the sender.  Softirq-like context, as on a real receive.
 *
 * Such a packet carries no ICRC (rxe_pkt_xmit() skips it) and the
 * receive side does not check one: the CRC guards a wire, and this
 * packet never was on one.
 */
static void rxe_loopback(struct sk_buff *skb)
{
	struct rxe_dev *rxe;

	skb_dst_drop(skb);
	local_bh_disable();
	rcu_read_lock();
	rxe = rxe_net_rcv_rxe(skb);
	if (rxe) {
		__skb_pull(skb, skb_transport_offset(skb) +
			   sizeof(struct udphdr));
		rxe_rcv(rxe, skb, true);
	} else {
		kfree_skb(skb);
	}
	rcu_read_unlock();
	local_bh_enable();
}

int rxe_pkt_xmit(struct rxe_qp *qp, const struct rxe_av *av,
		 struct sk_buff *skb)
{
	struct rxe_dev *rxe = qp->rxe;
	struct net *net = dev_net(rxe->ndev);
	u32 mask = rxe_skb_pkt(skb)->mask;
	bool request = mask & RXE_REQ_MASK;
	bool ipv6, local;
	int err;

	if (unlikely(skb->len < RXE_BTH_BYTES + RXE_ICRC_BYTES)) {
		err = -EINVAL;
		goto drop;
	}
	if (av->network_type == RXE_NETWORK_TYPE_IPV4) {
		ipv6 = false;
		err = rxe_prepare4(qp, av, skb, net);
	} else if (av->network_type == RXE_NETWORK_TYPE_IPV6) {
		ipv6 = true;
		err = rxe_prepare6(qp, av, skb, net);
	} else {
		err = -EINVAL;
	}
	if (unlikely(err))
		goto drop;
	skb->protocol = ipv6 ? htons(ETH_P_IPV6) : htons(ETH_P_IP);
	local = skb_dst(skb)->dev->flags & IFF_LOOPBACK;
	if (!local) {
		/*
		 * A packet that carries the sender's memory by reference was
		 * meant for this host; if the route says otherwise after
		 * all, it becomes an ordinary packet here, with its ICRC.
		 */
		if (unlikely(skb_linearize(skb))) {
			err = -ENOMEM;
			goto drop;
		}
		rxe_put_icrc(qp, skb);
		/*
		 * Plain IPv6 forbids a zero UDP checksum; the ICRC does not
		 * cover it.  Offloaded (CHECKSUM_PARTIAL) where the device
		 * can.
		 */
		if (ipv6)
			udp6_set_csum(false, skb, &ipv6_hdr(skb)->saddr,
				      &ipv6_hdr(skb)->daddr,
				      skb->len - sizeof(struct ipv6hdr));
	}

	/* From here skb->cb belongs to the IP layer (IPCB / IP6CB). */
	memset(skb->cb, 0, sizeof(skb->cb));
	if (request) {
		rxe_qp_get_ref(qp);
		atomic_inc(&qp->skb_out);
		skb_shinfo(skb)->destructor_arg = qp;
		skb->destructor = rxe_skb_tx_dtor;
	} else if (local && (mask & RXE_RESP_MASK) &&
		   (mask & RXE_PAYLOAD_MASK)) {
		/*
		 * A read response, delivered below at once and freed once
		 * the requester's completer took it: a long read would
		 * otherwise queue all of itself there when that completer
		 * runs behind (on another CPU), and lose the tail to the
		 * queue's cap.
		 */
		rxe_qp_get_ref(qp);
		atomic_inc(&qp->resp.rd_skb_out);
		skb_shinfo(skb)->destructor_arg = qp;
		skb->destructor = rxe_skb_rd_dtor;
	}

	if (local) {
		rxe_counter_inc(rxe, RXE_CNT_SENT_PKTS);
		rxe_loopback(skb);
		return 0;
	}
	if (ipv6)
		err = ip6_local_out(net, NULL, skb);
	else
		err = ip_local_out(net, NULL, skb);
	err = net_xmit_eval(err);
	if (unlikely(err)) {
		rxe_counter_inc(rxe, RXE_CNT_SEND_ERR);
		return err < 0 ? err : -ENOBUFS;
	}
	rxe_counter_inc(rxe, RXE_CNT_SENT_PKTS);
	return 0;

drop:
	rxe_counter_inc(rxe, RXE_CNT_SEND_ERR);
	kfree_skb(skb);
	return err;
}

/*
 * Whether @av leads to an address of this host, so that packets to it
 * may carry the sender's memory by reference (rxe_pkt_add_trailer()).
 * A hint taken when the path is set: rxe_pkt_xmit() copes when the
 * route disagrees later.
 */
bool rxe_av_dest_local(struct rxe_dev *rxe, const struct rxe_av *av)
{
	struct net *net = dev_net(rxe->ndev);

	if (av->network_type == RXE_NETWORK_TYPE_IPV4)
		return inet_addr_type(net,
				      av->dgid_addr._sockaddr_in.sin_addr.s_addr) ==
		       RTN_LOCAL;
	if (av->network_type == RXE_NETWORK_TYPE_IPV6 && rxe_sk6)
		return ipv6_chk_addr(net, &av->dgid_addr._sockaddr_in6.sin6_addr,
				     NULL, 0);
	return false;
}

/*
 * The ACK would go through rxe_pkt_xmit() to rxe_loopback() and
 * rxe_rcv(), which find the device by the destination address and the
 * QP by number, check both, queue the packet for the completer and run
 * it: the same here, but for the packet.  Two skbs make a small message
 * on this path, the request and its ACK; this saves the second (its
 * allocation, which the kernel zeroes, the headers, the route).
 *
 * Taken only where the packet would be local: the destination address
 * is one of this host's (so its route is the loopback's, as for
 * rxe_av_dest_local()), and the source address is the path's own (an
 * unset one would be the route's choice, which only the packet knows).
 * Anything else, and anything rxe_rcv() would refuse, goes the packet's
 * way and is counted there.  No wire sees a difference: such a packet
 * never leaves the host.
 */
bool rxe_local_ack(struct rxe_qp *qp, u32 psn, u8 syn)
{
	const struct rxe_av *av = &qp->pri_av;
	struct net *net = dev_net(qp->rxe->ndev);
	struct net_device *ndev = NULL;
	struct rxe_dev *rxe;
	bool held = false;

	local_bh_disable();
	rcu_read_lock();
	if (av->network_type == RXE_NETWORK_TYPE_IPV4) {
		if (av->sgid_addr._sockaddr_in.sin_addr.s_addr)
			ndev = __ip_dev_find(net,
				av->dgid_addr._sockaddr_in.sin_addr.s_addr,
				false);
	} else if (av->network_type == RXE_NETWORK_TYPE_IPV6 && rxe_sk6) {
		if (!ipv6_addr_any(&av->sgid_addr._sockaddr_in6.sin6_addr))
			ndev = ipv6_dev_find(net,
				&av->dgid_addr._sockaddr_in6.sin6_addr, NULL);
	}
	rxe = ndev ? rxe_net_ndev_rxe(ndev) : NULL;
	if (rxe)
		held = rxe_rcv_local_ack(rxe, qp, psn, syn);
	rcu_read_unlock();
	local_bh_enable();
	return held;
}

/* Zeros for the pad and ICRC of packets whose payload is by reference. */
static struct page *rxe_zero_page;

int rxe_pkt_add_trailer(struct sk_buff *skb, unsigned int pad)
{
	struct skb_shared_info *sh = skb_shinfo(skb);

	if (sh->nr_frags >= MAX_SKB_FRAGS)
		return -EMSGSIZE;
	get_page(rxe_zero_page);
	skb_fill_page_desc(skb, sh->nr_frags, rxe_zero_page, 0,
			   pad + RXE_ICRC_BYTES);
	skb_len_add(skb, pad + RXE_ICRC_BYTES);
	rxe_skb_pkt(skb)->paylen = skb->len;
	return 0;
}

int rxe_pkt_payload_walk(const struct rxe_pkt_info *pkt,
			 int (*fn)(void *ctx, void *p, u32 n), void *ctx)
{
	struct sk_buff *skb = rxe_pkt_skb((struct rxe_pkt_info *)pkt);
	u32 from = rxe_pkt_payload(pkt) - skb->data;
	u32 len = rxe_pkt_payload_len(pkt);
	struct skb_seq_state st;
	u32 done = 0, n;
	const u8 *p;
	int ret = 0;

	/* the kernel's walk: linear part, then fragments a page at a time */
	skb_prepare_seq_read(skb, from, from + len, &st);
	while (done < len && (n = skb_seq_read(done, &p, &st))) {
		/* @fn only reads the piece (copy helpers take void *) */
		ret = fn(ctx, (void *)p, min(n, len - done));
		if (ret)
			break;
		done += min(n, len - done);
	}
	skb_abort_seq_read(&st);
	if (ret)
		return ret;
	return done < len ? -EINVAL : 0;
}

void rxe_pkt_src_av(struct sk_buff *skb, struct rxe_av *av)
{
	memset(av, 0, sizeof(*av));
	av->port_num = 1;
	if (skb->protocol == htons(ETH_P_IP)) {
		const struct iphdr *iph = ip_hdr(skb);

		av->network_type = RXE_NETWORK_TYPE_IPV4;
		av->sgid_addr._sockaddr_in.sin_family = AF_INET;
		av->sgid_addr._sockaddr_in.sin_addr.s_addr = iph->daddr;
		av->dgid_addr._sockaddr_in.sin_family = AF_INET;
		av->dgid_addr._sockaddr_in.sin_addr.s_addr = iph->saddr;
		ipv6_addr_set_v4mapped(iph->saddr,
				       (struct in6_addr *)av->grh.dgid.raw);
		av->grh.hop_limit = iph->ttl;
		av->grh.traffic_class = iph->tos;
	} else {
		const struct ipv6hdr *ip6h = ipv6_hdr(skb);

		av->network_type = RXE_NETWORK_TYPE_IPV6;
		av->sgid_addr._sockaddr_in6.sin6_family = AF_INET6;
		av->sgid_addr._sockaddr_in6.sin6_addr = ip6h->daddr;
		av->dgid_addr._sockaddr_in6.sin6_family = AF_INET6;
		av->dgid_addr._sockaddr_in6.sin6_addr = ip6h->saddr;
		memcpy(av->grh.dgid.raw, &ip6h->saddr, sizeof(av->grh.dgid));
		av->grh.flow_label = be32_to_cpu(ip6_flowlabel(ip6h));
		av->grh.hop_limit = ip6h->hop_limit;
		av->grh.traffic_class = ip6_tclass(ip6_flowinfo(ip6h));
	}
	/* The sender's MAC, when the packet came with an Ethernet header. */
	if (skb_mac_header_was_set(skb) && skb_mac_header_len(skb) >= ETH_HLEN)
		memcpy(av->dmac, eth_hdr(skb)->h_source, ETH_ALEN);
}

/* ------------------------------------------------------------------ */
/* Module                                                               */
/* ------------------------------------------------------------------ */

static void rxe_net_release_socks(void)
{
	if (rxe_sk6)
		udp_tunnel_sock_release(rxe_sk6);
	if (rxe_sk4)
		udp_tunnel_sock_release(rxe_sk4);
	rxe_sk6 = NULL;
	rxe_sk4 = NULL;
	/* An encap callback that found the socket before is done now. */
	synchronize_rcu();
}

int rxe_net_init(void)
{
	struct socket *sock;
	int err;

	rxe_zero_page = alloc_page(GFP_KERNEL | __GFP_ZERO);
	if (!rxe_zero_page)
		return -ENOMEM;

	/* Optional: without it, crc32_le() does all the work. */
	rxe_crc_tfm = crypto_alloc_shash("crc32", 0, 0);
	if (IS_ERR(rxe_crc_tfm)) {
		pr_info("rdma_rxe: no crc32 crypto driver, using crc32_le\n");
		rxe_crc_tfm = NULL;
	} else if (crypto_shash_descsize(rxe_crc_tfm) != sizeof(u32)) {
		crypto_free_shash(rxe_crc_tfm);
		rxe_crc_tfm = NULL;
	}

	err = ib_register_client(&rxe_net_client);
	if (err)
		goto err_tfm;

	sock = rxe_net_sock(false);
	if (IS_ERR(sock)) {
		err = PTR_ERR(sock);
		pr_err("rdma_rxe: cannot open UDP port %d: %d\n",
		       RXE_ROCEV2_UDP_PORT, err);
		goto err_client;
	}
	rxe_sk4 = sock;

	sock = rxe_net_sock(true);
	if (IS_ERR(sock)) {
		err = PTR_ERR(sock);
		if (err != -EAFNOSUPPORT) {
			pr_err("rdma_rxe: cannot open UDPv6 port %d: %d\n",
			       RXE_ROCEV2_UDP_PORT, err);
			goto err_socks;
		}
		/* IPv6 is disabled (ipv6.disable=1): IPv4 only. */
		pr_info("rdma_rxe: no IPv6, RoCEv2 over IPv4 only\n");
	} else {
		rxe_sk6 = sock;
	}
	return 0;

err_socks:
	rxe_net_release_socks();
err_client:
	ib_unregister_client(&rxe_net_client);
err_tfm:
	if (rxe_crc_tfm)
		crypto_free_shash(rxe_crc_tfm);
	rxe_crc_tfm = NULL;
	put_page(rxe_zero_page);
	return err;
}

void rxe_net_exit(void)
{
	rxe_net_release_socks();
	ib_unregister_client(&rxe_net_client);
	if (rxe_crc_tfm)
		crypto_free_shash(rxe_crc_tfm);
	rxe_crc_tfm = NULL;
	/* packets still in flight hold their own references */
	put_page(rxe_zero_page);
}
