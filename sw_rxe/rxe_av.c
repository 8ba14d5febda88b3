// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Address vectors (struct rxe_av, the UAPI's form, which the data path
 * sends with) and address handles.
 *
 * An AV is what RoCEv2 needs to build the IP/UDP headers: the source
 * and destination addresses as sockaddrs (an IPv4-mapped GID stands for
 * an IPv4 address) and the GRH fields that become TTL/hop limit, TOS and
 * flow label.  The destination MAC is left zero: packets go through the
 * IP stack, which resolves neighbours itself.
 *
 * AHs are numbered (ah_table); librxe 44 puts the number into UD send
 * WQEs, and older providers, which get no number, embed an AV instead.
 */
#include <linux/uaccess.h>
#include <net/ipv6.h>
#include "rxe_loc.h"

static bool rxe_gid_is_v4(const union ib_gid *gid)
{
	return ipv6_addr_v4mapped((const struct in6_addr *)gid->raw);
}

/* The sockaddr @gid stands for: IPv4 for an IPv4-mapped GID, else IPv6. */
static void rxe_gid_to_sockaddr(const union ib_gid *gid, bool v4,
				struct sockaddr_in *sin,
				struct sockaddr_in6 *sin6)
{
	if (v4) {
		memset(sin, 0, sizeof(*sin));
		sin->sin_family = AF_INET;
		memcpy(&sin->sin_addr.s_addr, gid->raw + 12, 4);
	} else {
		memset(sin6, 0, sizeof(*sin6));
		sin6->sin6_family = AF_INET6;
		memcpy(&sin6->sin6_addr, gid->raw, sizeof(sin6->sin6_addr));
	}
}

int rxe_av_from_attr(struct rxe_dev *rxe, struct rxe_av *av,
		     const struct ib_ah_attr *attr)
{
	const struct ib_gid_attr *sgid = attr->sgid_attr;
	bool v4;

	if (!sgid || sgid->gid_type != IB_UVERBS_GID_TYPE_ROCE_V2)
		return -EINVAL;
	if (attr->port_num != 1)	/* our only port */
		return -EINVAL;
	v4 = rxe_gid_is_v4(&sgid->gid);
	/* Both ends speak the same IP version. */
	if (rxe_gid_is_v4(&attr->dgid) != v4)
		return -EINVAL;

	memset(av, 0, sizeof(*av));
	av->port_num = attr->port_num;
	av->network_type = v4 ? RXE_NETWORK_TYPE_IPV4 : RXE_NETWORK_TYPE_IPV6;
	memcpy(av->grh.dgid.raw, attr->dgid.raw, sizeof(av->grh.dgid.raw));
	av->grh.flow_label = attr->flow_label;
	av->grh.sgid_index = attr->sgid_index;
	av->grh.hop_limit = attr->hop_limit;
	av->grh.traffic_class = attr->traffic_class;
	rxe_gid_to_sockaddr(&sgid->gid, v4, &av->sgid_addr._sockaddr_in,
			    &av->sgid_addr._sockaddr_in6);
	rxe_gid_to_sockaddr(&attr->dgid, v4, &av->dgid_addr._sockaddr_in,
			    &av->dgid_addr._sockaddr_in6);
	return 0;
}

void rxe_av_to_attr(const struct rxe_av *av, struct ib_ah_attr *attr)
{
	memset(attr, 0, sizeof(*attr));
	memcpy(attr->dgid.raw, av->grh.dgid.raw, sizeof(attr->dgid.raw));
	attr->flow_label = av->grh.flow_label;
	attr->sgid_index = av->grh.sgid_index;
	attr->hop_limit = av->grh.hop_limit;
	attr->traffic_class = av->grh.traffic_class;
	attr->is_global = 1;		/* RoCE: always a GRH */
	attr->port_num = av->port_num;
}

int rxe_create_ah(struct ib_ah *ibah, struct ib_ah_attr *attr,
		  struct ib_udata *udata)
{
	struct rxe_dev *rxe = to_rdev(ibah->device);
	struct rxe_ah *ah = to_rah(ibah);
	struct rxe_create_ah_resp resp = {};
	int ret;

	ret = rxe_av_from_attr(rxe, &ah->av, attr);
	if (ret)
		return ret;
	if (rxe_table_alloc(&rxe->ah_table, &ah->index))
		return -ENOMEM;
	refcount_set(&ah->ref, 1);
	init_completion(&ah->released);

	/* An older provider has no room for the number: it embeds AVs. */
	if (udata && udata->outlen >= sizeof(resp)) {
		resp.ah_num = ah->index;
		if (copy_to_user(udata->outbuf, &resp, sizeof(resp))) {
			rxe_table_remove(&rxe->ah_table, ah->index);
			return -EFAULT;
		}
	}
	rxe_table_publish(&rxe->ah_table, ah->index, ah);
	return 0;
}

/* Returns once no WQE being sent uses the AH any more. */
int rxe_destroy_ah(struct ib_ah *ibah)
{
	struct rxe_dev *rxe = to_rdev(ibah->device);
	struct rxe_ah *ah = to_rah(ibah);

	rxe_table_remove(&rxe->ah_table, ah->index);
	if (!refcount_dec_and_test(&ah->ref))
		wait_for_completion(&ah->released);
	return 0;
}

struct rxe_ah *rxe_ah_get(struct rxe_dev *rxe, u32 ah_num)
{
	struct rxe_ah *ah;
	unsigned long flags;

	xa_lock_irqsave(&rxe->ah_table.xa, flags);
	ah = xa_load(&rxe->ah_table.xa, ah_num);
	if (ah && !refcount_inc_not_zero(&ah->ref))
		ah = NULL;
	xa_unlock_irqrestore(&rxe->ah_table.xa, flags);
	return ah;
}

void rxe_ah_put(struct rxe_ah *ah)
{
	if (refcount_dec_and_test(&ah->ref))
		complete(&ah->released);
}

/*
 * An AV a WQE carries (older providers) is the user's memory, and so are
 * the sockaddrs in it: the transmit path would put them into the IP
 * header as they are.  Keep only what an AH's attributes would give
 * (destination GID, sgid_index, GRH fields) and rebuild both addresses:
 * the source from our GID table, so that a sender can only send from an
 * address of this device, as through an AH.  Run once per WQE, on the
 * kernel's copy.
 */
bool rxe_wqe_av_rebuild(struct rxe_qp *qp, struct rxe_av *av)
{
	const struct ib_gid_attr *sgid;
	bool v4, ok;

	if (av->port_num != 1)
		return false;
	if (av->network_type != RXE_NETWORK_TYPE_IPV4 &&
	    av->network_type != RXE_NETWORK_TYPE_IPV6)
		return false;
	v4 = av->network_type == RXE_NETWORK_TYPE_IPV4;
	if (rxe_gid_is_v4((const union ib_gid *)av->grh.dgid.raw) != v4)
		return false;

	sgid = rdma_get_gid_attr(qp->ibqp.device, 1, av->grh.sgid_index);
	if (IS_ERR(sgid))
		return false;
	ok = sgid->gid_type == IB_UVERBS_GID_TYPE_ROCE_V2 &&
	     rxe_gid_is_v4(&sgid->gid) == v4;
	if (ok)
		rxe_gid_to_sockaddr(&sgid->gid, v4,
				    &av->sgid_addr._sockaddr_in,
				    &av->sgid_addr._sockaddr_in6);
	rdma_put_gid_attr(sgid);
	if (ok)
		rxe_gid_to_sockaddr((const union ib_gid *)av->grh.dgid.raw, v4,
				    &av->dgid_addr._sockaddr_in,
				    &av->dgid_addr._sockaddr_in6);
	return ok;
}

const struct rxe_av *rxe_wqe_av(struct rxe_qp *qp,
				const struct rxe_send_wqe *wqe,
				struct rxe_ah **ahp)
{
	u32 ah_num = wqe->wr.wr.ud.ah_num;
	struct rxe_ah *ah;

	*ahp = NULL;
	if (!ah_num)	/* rebuilt by rxe_wqe_av_rebuild() */
		return &wqe->wr.wr.ud.av;

	ah = rxe_ah_get(to_rdev(qp->ibqp.device), ah_num);
	if (!ah)
		return NULL;
	if (ah->ibah.pd != qp->ibqp.pd) {
		rxe_ah_put(ah);
		return NULL;
	}
	*ahp = ah;
	return &ah->av;
}
