// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Receive: validate a RoCEv2 packet that rxe_net.c found to be for one of
 * our devices, and hand it to the responder (requests) or the completer
 * (responses) of its QP, or of every QP of its multicast group.
 *
 * Checks, in order; whatever fails is dropped:
 *   1. length: the BTH and the ICRC fit, the skb is as rxe_net.c makes it
 *   2. ICRC (not for packets of our own that never left the host:
 *      nothing could corrupt them, and a CRC pass over each payload
 *      twice is a large part of the local path's cost)
 *   3. BTH transport version 0
 *   4. opcode known
 *   5. UDP payload long enough for the opcode's headers, pad and ICRC
 *   6. P_Key of the default partition
 *   7. destination QP: the multicast QPN needs a multicast destination
 *      address and a group with QPs; otherwise a QP that exists (QP0/QP1
 *      are not supported)
 *   then for each QP:
 *   8. opcode legal for the QP's transport service
 *   9. QP state takes it (requests: RTR, RTS, SQD, SQE; responses: RTS,
 *      SQD)
 *  10. RC/UC: the packet's addresses are the QP's path (pri_av)
 *  11. UD: the DETH Q_Key is the QP's
 *
 * Everything runs in the softirq of the UDP socket, under RCU, and takes
 * no lock: the QP lookup takes a reference, which is dropped once the
 * packet is queued (queued packets do not hold the QP).
 */
#include <linux/crc32.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/skbuff.h>
#include <linux/udp.h>
#include <net/ipv6.h>
#include <uapi/rdma/rdma_user_rxe.h>
#include "rxe_loc.h"
#include "rxe_icrc.h"

/* Destination QPN of multicast packets. */
#define RXE_MCAST_QPN		RXE_QPN_MASK

/* The most QPs one group delivers to: the device's max_mcast_qp_attach. */
#define RXE_RCV_MCAST_MAX	56

/* Why a packet was dropped. */
enum rxe_rcv_verdict {
	RXE_RCV_OK,
	RXE_RCV_BAD_LENGTH,
	RXE_RCV_BAD_ICRC,
	RXE_RCV_BAD_TVER,
	RXE_RCV_BAD_OPCODE,
	RXE_RCV_BAD_PAYLEN,
	RXE_RCV_BAD_PKEY,
	RXE_RCV_BAD_MCAST,
	RXE_RCV_NO_QP,
	RXE_RCV_BAD_TRANSPORT,
	RXE_RCV_BAD_STATE,
	RXE_RCV_BAD_ADDR,
	RXE_RCV_BAD_QKEY,
};

/*
 * The hw counter each drop is counted in: a few classes a sender can tell
 * apart (rdma statistic), the exact reason only in the debug message.
 */
static const u8 rxe_rcv_verdict_counter[RXE_RCV_BAD_QKEY + 1] = {
	[RXE_RCV_BAD_LENGTH]	= RXE_CNT_RCV_MALFORMED,
	[RXE_RCV_BAD_ICRC]	= RXE_CNT_RCV_ICRC_ERR,
	[RXE_RCV_BAD_TVER]	= RXE_CNT_RCV_MALFORMED,
	[RXE_RCV_BAD_OPCODE]	= RXE_CNT_RCV_MALFORMED,
	[RXE_RCV_BAD_PAYLEN]	= RXE_CNT_RCV_MALFORMED,
	[RXE_RCV_BAD_PKEY]	= RXE_CNT_RCV_KEY_ERR,
	[RXE_RCV_BAD_MCAST]	= RXE_CNT_RCV_BAD_QP,
	[RXE_RCV_NO_QP]		= RXE_CNT_RCV_BAD_QP,
	[RXE_RCV_BAD_TRANSPORT]	= RXE_CNT_RCV_MALFORMED,
	[RXE_RCV_BAD_STATE]	= RXE_CNT_RCV_BAD_QP,
	[RXE_RCV_BAD_ADDR]	= RXE_CNT_RCV_ADDR_MISMATCH,
	[RXE_RCV_BAD_QKEY]	= RXE_CNT_RCV_KEY_ERR,
};

static const char * const rxe_rcv_verdict_names[] = {
	[RXE_RCV_OK]		= "ok",
	[RXE_RCV_BAD_LENGTH]	= "bad length",
	[RXE_RCV_BAD_ICRC]	= "bad ICRC",
	[RXE_RCV_BAD_TVER]	= "bad transport version",
	[RXE_RCV_BAD_OPCODE]	= "unknown opcode",
	[RXE_RCV_BAD_PAYLEN]	= "payload shorter than headers",
	[RXE_RCV_BAD_PKEY]	= "bad P_Key",
	[RXE_RCV_BAD_MCAST]	= "multicast QPN without a multicast group",
	[RXE_RCV_NO_QP]		= "no such QP",
	[RXE_RCV_BAD_TRANSPORT]	= "opcode not of the QP's service",
	[RXE_RCV_BAD_STATE]	= "QP state",
	[RXE_RCV_BAD_ADDR]	= "addresses are not the QP's path",
	[RXE_RCV_BAD_QKEY]	= "bad Q_Key",
};

/*
 * The P_Key and Q_Key violation counters of the port (query_port), which
 * saturate at 16 bits.  Their owner, port_lock, is a mutex we cannot take
 * here; two CPUs dropping at once may lose a count, which a diagnostic
 * counter can afford.
 */
static void rxe_rcv_port_cntr_inc(u32 *cntr)
{
	u32 v = READ_ONCE(*cntr);

	if (v < 0xffff)
		WRITE_ONCE(*cntr, v + 1);
}

static void rxe_rcv_drop(struct rxe_dev *rxe, struct sk_buff *skb,
			 enum rxe_rcv_verdict why)
{
	switch (why) {
	case RXE_RCV_BAD_PKEY:
		rxe_rcv_port_cntr_inc(&rxe->port_attr.bad_pkey_cntr);
		break;
	case RXE_RCV_BAD_QKEY:
		rxe_rcv_port_cntr_inc(&rxe->port_attr.qkey_viol_cntr);
		break;
	default:
		break;
	}
	atomic_inc(&rxe->rcv_drops);
	rxe_counter_inc(rxe, rxe_rcv_verdict_counter[why]);
	dev_dbg_ratelimited(&rxe->ib_dev.dev, "dropped a packet: %s\n",
			    rxe_rcv_verdict_names[why]);
	kfree_skb(skb);
}

static bool rxe_rcv_ipv6(const struct sk_buff *skb)
{
	return skb->protocol == htons(ETH_P_IPV6);
}

/* Checks 1 to 6: the packet on its own. */
static enum rxe_rcv_verdict rxe_rcv_check_pkt(struct sk_buff *skb,
					      bool from_self)
{
	const u8 *bth = skb->data;
	u8 opcode;

	/*
	 * As rxe_net.c hands it over: linear (but for our own packets,
	 * whose payload may be page fragments after linear headers), data
	 * at the BTH, the UDP header right in front of it, IP below that.
	 */
	if (unlikely(skb->len < RXE_BTH_BYTES + RXE_ICRC_BYTES ||
		     skb->len > U16_MAX ||
		     (skb_is_nonlinear(skb) && !from_self) ||
		     skb_headlen(skb) < RXE_BTH_BYTES ||
		     skb_transport_offset(skb) != -RXE_UDP_HDR_BYTES ||
		     (skb->protocol != htons(ETH_P_IP) && !rxe_rcv_ipv6(skb))))
		return RXE_RCV_BAD_LENGTH;

	/*
	 * An RC FLUSH may also carry the in-tree rxe's form of the ICRC
	 * (rxe_icrc.h): taken, so that its FLUSHes reach our responder.
	 */
	if (!from_self &&
	    unlikely(!rxe_icrc_valid(skb_network_header(skb),
				     skb_network_header_len(skb),
				     rxe_rcv_ipv6(skb),
				     skb_transport_header(skb),
				     RXE_UDP_HDR_BYTES + skb->len,
				     rxe_crc32) &&
		     !rxe_icrc_valid_intree_flush(skb_network_header(skb),
						  skb_network_header_len(skb),
						  rxe_rcv_ipv6(skb),
						  skb_transport_header(skb),
						  RXE_UDP_HDR_BYTES + skb->len,
						  rxe_crc32)))
		return RXE_RCV_BAD_ICRC;

	if (unlikely(rxe_bth_tver(bth) != RXE_TVER))
		return RXE_RCV_BAD_TVER;

	opcode = rxe_bth_opcode(bth);
	if (unlikely(!rxe_opcode_known(opcode)))
		return RXE_RCV_BAD_OPCODE;

	if (unlikely(skb->len < rxe_opcode_hdr_len(opcode) + rxe_bth_pad(bth) +
				RXE_ICRC_BYTES ||
		     skb_headlen(skb) < rxe_opcode_hdr_len(opcode)))
		return RXE_RCV_BAD_PAYLEN;

	/* The default partition only; either membership is fine for us. */
	if (unlikely((rxe_bth_pkey(bth) & ~RXE_PKEY_MEMBER) !=
		     (RXE_DEFAULT_PKEY & ~RXE_PKEY_MEMBER)))
		return RXE_RCV_BAD_PKEY;

	return RXE_RCV_OK;
}

/* RC/UC: the packet comes from the QP's peer to the QP's own address. */
static bool rxe_rcv_addr_ok(const struct sk_buff *skb,
			    const struct rxe_qp *qp)
{
	const struct rxe_av *av = &qp->pri_av;

	if (!rxe_rcv_ipv6(skb)) {
		const struct iphdr *iph = ip_hdr(skb);
		__be32 peer = av->dgid_addr._sockaddr_in.sin_addr.s_addr;
		__be32 self = av->sgid_addr._sockaddr_in.sin_addr.s_addr;

		return av->network_type == RXE_NETWORK_TYPE_IPV4 &&
		       iph->saddr == peer && iph->daddr == self;
	} else {
		const struct ipv6hdr *ip6h = ipv6_hdr(skb);
		const struct in6_addr *peer, *self;

		peer = &av->dgid_addr._sockaddr_in6.sin6_addr;
		self = &av->sgid_addr._sockaddr_in6.sin6_addr;
		return av->network_type == RXE_NETWORK_TYPE_IPV6 &&
		       ipv6_addr_equal(&ip6h->saddr, peer) &&
		       ipv6_addr_equal(&ip6h->daddr, self);
	}
}

/*
 * The same check for a packet from @from's path, which goes from its
 * sgid address to its dgid address (rxe_local_ack() made sure the
 * source is no route's choice).
 */
static bool rxe_rcv_av_ok(const struct rxe_av *from, const struct rxe_qp *qp)
{
	const struct rxe_av *av = &qp->pri_av;

	if (av->network_type != from->network_type)
		return false;
	if (av->network_type == RXE_NETWORK_TYPE_IPV4)
		return from->sgid_addr._sockaddr_in.sin_addr.s_addr ==
		       av->dgid_addr._sockaddr_in.sin_addr.s_addr &&
		       from->dgid_addr._sockaddr_in.sin_addr.s_addr ==
		       av->sgid_addr._sockaddr_in.sin_addr.s_addr;
	return av->network_type == RXE_NETWORK_TYPE_IPV6 &&
	       ipv6_addr_equal(&from->sgid_addr._sockaddr_in6.sin6_addr,
			       &av->dgid_addr._sockaddr_in6.sin6_addr) &&
	       ipv6_addr_equal(&from->dgid_addr._sockaddr_in6.sin6_addr,
			       &av->sgid_addr._sockaddr_in6.sin6_addr);
}

/* Checks 8 to 11: may @qp take the packet? */
static enum rxe_rcv_verdict rxe_rcv_check_qp(struct sk_buff *skb,
					     const struct rxe_qp *qp)
{
	struct rxe_pkt_info *pkt = rxe_skb_pkt(skb);
	enum ib_qp_state state;

	if (unlikely(!rxe_opcode_legal(pkt->opcode, rxe_qp_transport(qp))))
		return RXE_RCV_BAD_TRANSPORT;

	/*
	 * Requests: the receive side works from RTR on, also while the
	 * send side is drained (SQD) or in error (SQE, UC/UD only).  The
	 * completer takes responses only while it has requests out.
	 */
	state = rxe_qp_state(qp);
	if (pkt->mask & RXE_REQ_MASK) {
		if (unlikely(state != IB_QPS_RTR && state != IB_QPS_RTS &&
			     state != IB_QPS_SQD && state != IB_QPS_SQE))
			return RXE_RCV_BAD_STATE;
	} else if (unlikely(state != IB_QPS_RTS && state != IB_QPS_SQD)) {
		return RXE_RCV_BAD_STATE;
	}

	switch (rxe_qp_type(qp)) {
	case IB_QPT_RC:
	case IB_QPT_UC:
		if (unlikely(!rxe_rcv_addr_ok(skb, qp)))
			return RXE_RCV_BAD_ADDR;
		break;
	case IB_QPT_UD:
		if (unlikely(rxe_deth_qkey(rxe_pkt_hdr(pkt, RXE_DETH)) !=
			     READ_ONCE(qp->attr.qkey)))
			return RXE_RCV_BAD_QKEY;
		break;
	case IB_QPT_GSI:
		if (unlikely(rxe_deth_qkey(rxe_pkt_hdr(pkt, RXE_DETH)) !=
			     RXE_GSI_QKEY))
			return RXE_RCV_BAD_QKEY;
		break;
	default:
		return RXE_RCV_BAD_TRANSPORT;
	}
	return RXE_RCV_OK;
}

/*
 * Checks 8 to 10 for an ACK: the service, the state (a response) and
 * the addresses.
 */
static bool rxe_rcv_ack_ok(const struct rxe_qp *qp, const struct rxe_av *from)
{
	enum ib_qp_state state = rxe_qp_state(qp);

	return rxe_opcode_legal(RXE_OPCODE_RC_ACKNOWLEDGE,
				rxe_qp_transport(qp)) &&
	       (state == IB_QPS_RTS || state == IB_QPS_SQD) &&
	       rxe_rcv_av_ok(from, qp);
}

/* Hand @skb to @qp's responder or completer; consumes it. */
static void rxe_rcv_deliver(struct rxe_qp *qp, struct sk_buff *skb)
{
	struct rxe_pkt_info *pkt = rxe_skb_pkt(skb);

	pkt->qp = qp;
	if (pkt->mask & RXE_REQ_MASK)
		rxe_resp_queue_pkt(qp, skb);
	else
		rxe_comp_queue_pkt(qp, skb);
}

/*
 * A multicast packet: one copy to each QP of the group of its destination
 * address that may take it.  Unreliable datagrams: a QP that may not, or
 * a failed clone, costs that QP its copy, not the others theirs.
 */
static void rxe_rcv_mcast(struct rxe_dev *rxe, struct sk_buff *skb)
{
	struct rxe_qp *qps[RXE_RCV_MCAST_MAX];
	enum rxe_rcv_verdict why = RXE_RCV_BAD_MCAST;
	union ib_gid mgid;
	int n, i, ok = 0;

	if (!rxe_rcv_ipv6(skb)) {
		__be32 daddr = ip_hdr(skb)->daddr;

		if (!ipv4_is_multicast(daddr))
			goto drop;
		ipv6_addr_set_v4mapped(daddr, (struct in6_addr *)mgid.raw);
	} else {
		const struct in6_addr *daddr = &ipv6_hdr(skb)->daddr;

		if (!ipv6_addr_is_multicast(daddr))
			goto drop;
		memcpy(mgid.raw, daddr, sizeof(mgid.raw));
	}

	n = rxe_mcast_qps(rxe, &mgid, qps, ARRAY_SIZE(qps));
	for (i = 0; i < n; i++) {
		why = rxe_rcv_check_qp(skb, qps[i]);
		if (why == RXE_RCV_OK)
			qps[ok++] = qps[i];
		else
			rxe_qp_put(qps[i]);
	}
	if (!ok) {
		if (!n)
			why = RXE_RCV_BAD_MCAST;
		goto drop;
	}

	rxe_counter_inc(rxe, RXE_CNT_RCVD_PKTS);
	/* clones for all but the last, which gets the packet itself */
	for (i = 0; i < ok; i++) {
		struct sk_buff *s = skb;

		if (i < ok - 1) {
			s = skb_clone(skb, GFP_ATOMIC);
			if (unlikely(!s)) {
				dev_dbg_ratelimited(&rxe->ib_dev.dev,
						    "multicast copy lost: %s\n",
						    "out of memory");
				rxe_qp_put(qps[i]);
				continue;
			}
		}
		rxe_rcv_deliver(qps[i], s);
		rxe_qp_put(qps[i]);
	}
	return;

drop:
	rxe_rcv_drop(rxe, skb, why);
}

void rxe_rcv(struct rxe_dev *rxe, struct sk_buff *skb, bool from_self)
{
	struct rxe_pkt_info *pkt = rxe_skb_pkt(skb);
	enum rxe_rcv_verdict why;
	struct rxe_qp *qp;
	u32 qpn;

	why = rxe_rcv_check_pkt(skb, from_self);
	if (unlikely(why != RXE_RCV_OK))
		goto drop;

	memset(pkt, 0, sizeof(*pkt));
	pkt->rxe = rxe;
	pkt->hdr = skb->data;
	pkt->opcode = rxe_bth_opcode(pkt->hdr);
	pkt->psn = rxe_bth_psn(pkt->hdr);
	pkt->paylen = skb->len;
	pkt->port_num = 1;
	pkt->mask = rxe_opcode_mask(pkt->opcode) | RXE_GRH_MASK;
	/* sent to an address of this host: it came through the loopback */
	if (skb->dev && (skb->dev->flags & IFF_LOOPBACK))
		pkt->mask |= RXE_LOOPBACK_MASK;

	qpn = rxe_bth_qpn(pkt->hdr);
	if (qpn == RXE_MCAST_QPN) {
		rxe_rcv_mcast(rxe, skb);
		return;
	}

	/* no QP0 (SMI) on RoCE; QP1 is the GSI QP if the MAD layer made it */
	qp = qpn ? rxe_qp_get(rxe, qpn) : NULL;
	if (unlikely(!qp)) {
		why = RXE_RCV_NO_QP;
		goto drop;
	}
	why = rxe_rcv_check_qp(skb, qp);
	if (unlikely(why != RXE_RCV_OK)) {
		rxe_qp_put(qp);
		goto drop;
	}

	rxe_counter_inc(rxe, RXE_CNT_RCVD_PKTS);
	rxe_rcv_deliver(qp, skb);
	rxe_qp_put(qp);
	return;

drop:
	rxe_rcv_drop(rxe, skb, why);
}

bool rxe_rcv_local_ack(struct rxe_dev *rxe, struct rxe_qp *from, u32 psn,
		       u8 syn)
{
	u32 qpn = from->attr.dest_qp_num;
	struct rxe_qp *qp;
	bool held = false;

	/*
	 * Checks 1 to 6 hold for the packet we would build; 7 needs a
	 * plain QPN, as for any RC packet.
	 */
	if (unlikely(!qpn || qpn == RXE_MCAST_QPN))
		return false;
	qp = rxe_qp_get(rxe, qpn);
	if (unlikely(!qp))
		return false;
	if (likely(rxe_rcv_ack_ok(qp, &from->pri_av)))
		held = rxe_comp_put_ack(qp, psn, syn);
	if (held) {
		/* as rxe_pkt_xmit() and rxe_rcv() count the packet */
		rxe_counter_inc(from->rxe, RXE_CNT_SENT_PKTS);
		rxe_counter_inc(rxe, RXE_CNT_RCVD_PKTS);
		rxe_comp_run_inline(qp);
	}
	rxe_qp_put(qp);
	return held;
}
