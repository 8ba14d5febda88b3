/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The packet descriptor the data path passes between its parts, kept in
 * skb->cb, and its accessors into the headers.  The header layouts and
 * their encode/decode are the pure rxe_hdr.h (which userspace unit tests
 * include, so nothing of sk_buff's may go there); this is their
 * kernel-side handle on a packet.
 */
#ifndef RXE_PKT_H
#define RXE_PKT_H

#include <linux/skbuff.h>
#include "rxe_hdr.h"
#include "rxe_opcode.h"

struct rxe_dev;
struct rxe_qp;


/* Flags of rxe_pkt_info.mask beyond enum rxe_opcode_mask's. */
#define RXE_GRH_MASK		(1u << 28)	/* received: has a (IP) GRH */
#define RXE_LOOPBACK_MASK	(1u << 29)	/* received from ourselves */

/*
 * What the data path knows about one packet, kept in skb->cb.  On the
 * receive side @qp is not referenced: a QP purges its packet queues when
 * it is destroyed, after lookups drained.  On the send side @qp is the
 * sender.
 */
struct rxe_pkt_info {
	struct rxe_dev *rxe;
	struct rxe_qp *qp;
	u8 *hdr;			/* the BTH */
	u32 mask;			/* rxe_opcode_mask(opcode) | RXE_*_MASK */
	u32 psn;
	u16 paylen;			/* BTH through ICRC */
	u8 opcode;
	u8 port_num;
};

static inline struct rxe_pkt_info *rxe_skb_pkt(struct sk_buff *skb)
{
	BUILD_BUG_ON(sizeof(struct rxe_pkt_info) > sizeof(skb->cb));
	return (struct rxe_pkt_info *)skb->cb;
}

static inline struct sk_buff *rxe_pkt_skb(struct rxe_pkt_info *pkt)
{
	return container_of((void *)pkt, struct sk_buff, cb);
}

/* Header @type of @pkt (which must carry it). */
static inline u8 *rxe_pkt_hdr(const struct rxe_pkt_info *pkt,
			      enum rxe_hdr_type type)
{
	return pkt->hdr + rxe_opcodes[pkt->opcode].offset[type];
}

static inline u8 *rxe_pkt_payload(const struct rxe_pkt_info *pkt)
{
	return pkt->hdr + rxe_opcodes[pkt->opcode].length;
}

/* Bytes of payload: without headers, pad and ICRC. */
static inline u32 rxe_pkt_payload_len(const struct rxe_pkt_info *pkt)
{
	return pkt->paylen - rxe_opcodes[pkt->opcode].length -
	       rxe_bth_pad(pkt->hdr) - RXE_ICRC_BYTES;
}

#endif /* RXE_PKT_H */
