/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * What the files of the data path call of each other.  Each block names
 * the file that implements it.
 */
#ifndef RXE_LOC_H
#define RXE_LOC_H

#include "rxe_qp.h"
#include "rxe_mr.h"

/*
 * WR and completion opcodes of ATOMIC WRITE: rdma-core 44 has them
 * (IBV_WR_ATOMIC_WRITE, IBV_WC_ATOMIC_WRITE), the 6.1 UAPI not yet.
 */
#define RXE_WR_ATOMIC_WRITE	15
#define RXE_WC_ATOMIC_WRITE	9

/* ---- rxe_task.c ---------------------------------------------------- */
int rxe_wq_init(void);
void rxe_wq_exit(void);

/* ---- rxe_qp.c: QP verbs and lifetime --------------------------------- */
int rxe_create_qp(struct ib_qp *ibqp, struct ib_qp_init_attr *init,
		  struct ib_udata *udata);
int rxe_modify_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr, int mask,
		  struct ib_udata *udata);
int rxe_query_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr, int mask,
		 struct ib_qp_init_attr *init);
int rxe_destroy_qp(struct ib_qp *ibqp, struct ib_udata *udata);
int rxe_post_send(struct ib_qp *ibqp);	/* doorbell: run the requester */
int rxe_post_recv(struct ib_qp *ibqp);	/* doorbell: flush if in error */
/* The QP numbered @qpn, referenced, or NULL (also while destroyed). */
struct rxe_qp *rxe_qp_get(struct rxe_dev *rxe, u32 qpn);
void rxe_qp_get_ref(struct rxe_qp *qp);	/* another reference on a held QP */
void rxe_qp_put(struct rxe_qp *qp);
/*
 * Move the QP to the error state (from the engine, any context): send
 * and receive queues get flushed (completer: SQ, responder: RQ), and
 * all three tasks are kicked.  Idempotent.
 */
void rxe_qp_error(struct rxe_qp *qp);
/* Deliver an async event about the QP to its owner. */
void rxe_qp_event(struct rxe_qp *qp, enum ib_event_type type);

/* ---- rxe_kverbs.c: work requests of kernel consumers ----------------- */
int rxe_post_send_wrs(struct ib_qp *ibqp, const struct ib_send_wr *wr,
		      const struct ib_send_wr **bad_wr);
int rxe_post_recv_wrs(struct ib_qp *ibqp, const struct ib_recv_wr *wr,
		      const struct ib_recv_wr **bad_wr);
int rxe_get_dma_mr(struct ib_mr *ibmr, int access);

/* ---- rxe_srq.c ------------------------------------------------------- */
int rxe_create_srq(struct ib_srq *ibsrq, struct ib_srq_init_attr *init,
		   struct ib_udata *udata);
int rxe_modify_srq(struct ib_srq *ibsrq, struct ib_srq_attr *attr, int mask,
		   struct ib_udata *udata);
int rxe_query_srq(struct ib_srq *ibsrq, struct ib_srq_attr *attr);
int rxe_destroy_srq(struct ib_srq *ibsrq, struct ib_udata *udata);
/*
 * Take the WQE at the head of the SRQ (copy it into @wqe, at most
 * @max_len bytes) and advance the consumer; raises SRQ_LIMIT_REACHED
 * when the armed limit is crossed.  -ENOENT if the SRQ is empty.
 */
int rxe_srq_take(struct rxe_srq *srq, struct rxe_recv_wqe *wqe,
		 size_t max_len);

/* ---- rxe_av.c: address vectors and AHs ------------------------------- */
int rxe_create_ah(struct ib_ah *ibah, struct ib_ah_attr *attr,
		  struct ib_udata *udata);
int rxe_destroy_ah(struct ib_ah *ibah);
/* Fill @av from @attr (whose sgid_attr is resolved): -EINVAL if bad. */
int rxe_av_from_attr(struct rxe_dev *rxe, struct rxe_av *av,
		     const struct ib_ah_attr *attr);
/* The reverse, for query_qp (sgid_attr left NULL). */
void rxe_av_to_attr(const struct rxe_av *av, struct ib_ah_attr *attr);
struct rxe_ah *rxe_ah_get(struct rxe_dev *rxe, u32 ah_num);
void rxe_ah_put(struct rxe_ah *ah);
/*
 * The destination of a UD send WQE: the AH numbered wr.ud.ah_num
 * (referenced into *@ahp; must belong to the QP's PD), or, for ah_num 0,
 * the address vector in the WQE itself (*@ahp = NULL), which
 * rxe_wqe_av_rebuild() checked.  NULL if invalid.
 */
const struct rxe_av *rxe_wqe_av(struct rxe_qp *qp,
				const struct rxe_send_wqe *wqe,
				struct rxe_ah **ahp);
/* Check an AV a WQE carries; its addresses are rebuilt from our GIDs. */
bool rxe_wqe_av_rebuild(struct rxe_qp *qp, struct rxe_av *av);

/* ---- rxe_mw.c: memory windows and remote keys ------------------------ */
/* Execute a BIND_MW send WQE: 0 or the completion status (IB_WC_*). */
int rxe_mw_bind(struct rxe_qp *qp, const struct rxe_send_wqe *wqe);
/*
 * Invalidate @rkey (an MW's; an MR's if it may be): for LOCAL_INV and
 * SEND_WITH_INV.  0 or -EINVAL.
 */
int rxe_invalidate_rkey(struct rxe_qp *qp, u32 rkey);
/* Fast registration (rxe_mr.c): REG_MR and invalidation of an MR key. */
int rxe_mr_fast_reg(struct rxe_qp *qp, u32 mr_lkey, u32 key, int access);
int rxe_mr_invalidate(struct rxe_qp *qp, u32 key);
struct rxe_mr *rxe_mr_index_get(struct rxe_dev *rxe, u32 index);
/*
 * For the responder: the MR behind @rkey (an MR's rkey, or a bound MW's
 * of @qp's PD and, for type 2, bound to @qp) if [@iova, @iova + @length)
 * lies within what the key grants and the key grants @access.  The MR is
 * referenced (rxe_mr_put()); ERR_PTR(-EACCES) / (-EINVAL) otherwise.
 */
struct rxe_mr *rxe_rkey_mr(struct rxe_qp *qp, u32 rkey, int access,
			   u64 iova, u64 length);
/*
 * Copy @len bytes between @buf and the memory the SGE list of @dma
 * describes, starting at its current position (cur_sge, sge_offset), and
 * advance that position and resid.  lkeys are looked up in @pd and must
 * grant @access (IB_ACCESS_LOCAL_WRITE when @dir is RXE_COPY_TO_MR).
 * 0, -ENOSPC when the SGEs are too short, -EACCES for a bad lkey/range.
 */
int rxe_dma_copy(struct rxe_dev *rxe, struct ib_pd *pd, int access,
		 struct rxe_dma_info *dma, void *buf, u32 len,
		 enum rxe_copy_dir dir);
/*
 * The same walk for a local read, attaching the memory to @skb as page
 * fragments instead of copying it (rxe_mr_frags()); on an error the
 * position of @dma and the fragments of @skb are partly advanced.
 */
int rxe_dma_frags(struct rxe_dev *rxe, struct ib_pd *pd,
		  struct rxe_dma_info *dma, struct sk_buff *skb, u32 len);

/* ---- rxe_mcast.c ----------------------------------------------------- */
int rxe_attach_mcast(struct ib_qp *ibqp, const union ib_gid *mgid);
int rxe_detach_mcast(struct ib_qp *ibqp, const union ib_gid *mgid);
/* Detach @qp from every group (destroy). */
void rxe_mcast_detach_all(struct rxe_qp *qp);
/*
 * The QPs attached to @mgid, referenced, into @qps (at most @max);
 * returns how many.
 */
int rxe_mcast_qps(struct rxe_dev *rxe, const union ib_gid *mgid,
		  struct rxe_qp **qps, int max);
void rxe_mcast_cleanup(struct rxe_dev *rxe);	/* device teardown */

/* ---- rxe_net.c: sockets and transmit --------------------------------- */
int rxe_net_init(void);
/* CRC32 (reflected, as crc32_le) by the fastest implementation: ICRC */
u32 rxe_crc32(u32 crc, const u8 *p, size_t len);
void rxe_net_exit(void);
/*
 * A packet of @paylen bytes from the BTH through the ICRC for @qp to
 * @av: headroom for the Ethernet/IP/UDP headers is reserved and the
 * BTH-to-ICRC area is zeroed, except for the @payload bytes after the
 * headers, which the caller must write in full (0: zero everything);
 * rxe_skb_pkt(skb) has rxe, qp, hdr, paylen and port_num set (the caller
 * sets opcode, psn, mask).  NULL if out of memory.
 */
struct sk_buff *rxe_pkt_alloc(struct rxe_qp *qp, const struct rxe_av *av,
			      unsigned int paylen, unsigned int payload);
/*
 * Put the UDP/IP headers around the packet, compute its ICRC and send
 * it.  Always consumes @skb.  A request (RXE_REQ_MASK) counts in
 * qp->skb_out until the stack frees it, and holds a QP reference as long.
 * Returns 0, or -errno when the packet was dropped (counted).
 */
int rxe_pkt_xmit(struct rxe_qp *qp, const struct rxe_av *av,
		 struct sk_buff *skb);
/* The av of a received packet's sender (for UD replies / GRH in CQEs). */
void rxe_pkt_src_av(struct sk_buff *skb, struct rxe_av *av);
/* Whether @av leads to an address of this host (set with the path). */
bool rxe_av_dest_local(struct rxe_dev *rxe, const struct rxe_av *av);
/*
 * RC, @qp's path local (qp->path_local): hand the ACK (AETH @syn, for
 * @psn) to the peer's completer without building a packet
 * (rxe_rcv_local_ack()).  False when the caller has to send the packet.
 */
bool rxe_local_ack(struct rxe_qp *qp, u32 psn, u8 syn);
/*
 * Below this many bytes a copy costs less than the fragment bookkeeping
 * (MR lookup, page references, a mapping on the receive side).
 */
#define RXE_PAYLOAD_BY_REF_MIN	256
/*
 * Payload by reference (RC, to this host): a packet allocated for its
 * headers only gets the payload as page fragments of the sender's memory
 * (rxe_dma_frags(), rxe_mr_frags()), then this trailer for the pad and
 * the ICRC, which also sets its paylen.  0 or -EMSGSIZE.  The receiver
 * copies straight from the sender's pages: one copy instead of two.
 */
int rxe_pkt_add_trailer(struct sk_buff *skb, unsigned int pad);
/*
 * Call @fn on each contiguous piece of a received packet's payload, in
 * order (one piece for a linear packet); stops at the first non-zero
 * return and returns it.
 */
int rxe_pkt_payload_walk(const struct rxe_pkt_info *pkt,
			 int (*fn)(void *ctx, void *p, u32 n), void *ctx);
/* The netdev's MTU changed or the port state: nothing for now. */

/* ---- rxe_recv.c ------------------------------------------------------ */
/*
 * A RoCEv2 packet arrived for @rxe: skb->data at the BTH, the IP header
 * still reachable (skb_network_header()).  Validates it and hands it to
 * the responder or completer of its QP (or the QPs of its multicast
 * group); drops (and counts) what is bad.  Consumes @skb.  @from_self:
 * built by our own rxe_pkt_xmit() for an address of this host and handed
 * over without touching a wire (no ICRC was computed).
 */
void rxe_rcv(struct rxe_dev *rxe, struct sk_buff *skb, bool from_self);
/*
 * The ACK (AETH @syn, for @psn) that @from's responder would send as a
 * packet to its peer QP on @rxe of this host, handed to that QP's
 * completer instead, if the peer would take the packet (rxe_rcv()'s
 * checks: the QP, its service and state, the addresses).  Counted as
 * sent and received.  False if not: the caller sends the packet, whose
 * fate rxe_rcv() then decides and counts.  Under rcu_read_lock(), BHs
 * off.
 */
bool rxe_rcv_local_ack(struct rxe_dev *rxe, struct rxe_qp *from, u32 psn,
		       u8 syn);

/* ---- rxe_req.c / rxe_comp.c: the send side -------------------------- */
void rxe_req_init(struct rxe_qp *qp);	/* create: tasks, timers */
void rxe_req_stop(struct rxe_qp *qp);	/* reset/destroy: quiesce */
void rxe_req_reset(struct rxe_qp *qp);	/* to RESET: forget everything */
void rxe_req_start(struct rxe_qp *qp);	/* out of RESET: runs allowed */
void rxe_req_run(struct rxe_qp *qp);	/* kick the requester */
void rxe_req_run_inline(struct rxe_qp *qp);	/* in process context */
void rxe_comp_run(struct rxe_qp *qp);	/* kick the completer */
/* A response packet for @qp's completer (consumes @skb). */
void rxe_comp_queue_pkt(struct rxe_qp *qp, struct sk_buff *skb);
/*
 * An ACK (AETH @syn) for @psn from a responder of this host for @qp's
 * completer, without a packet, once rxe_rcv_local_ack() checked what
 * rxe_rcv() checks of a packet.  False when it cannot be held now (a
 * response is queued, or another held ACK, or the completer is
 * stopped): then the responder sends a packet, as to anyone.  The
 * caller runs the completer after (rxe_comp_run_inline()).
 */
bool rxe_comp_put_ack(struct rxe_qp *qp, u32 psn, u8 syn);
void rxe_comp_run_inline(struct rxe_qp *qp);
/* Drop the responses waiting for the completer, held ACK included. */
void rxe_comp_purge(struct rxe_qp *qp);

/* ---- rxe_resp.c: the receive side ----------------------------------- */
void rxe_resp_init(struct rxe_qp *qp);
void rxe_resp_stop(struct rxe_qp *qp);
void rxe_resp_reset(struct rxe_qp *qp);
void rxe_resp_start(struct rxe_qp *qp);
void rxe_resp_run(struct rxe_qp *qp);
/* A request packet for @qp's responder (consumes @skb). */
void rxe_resp_queue_pkt(struct rxe_qp *qp, struct sk_buff *skb);
/* The responder's resources (read/atomic replay): create and destroy. */
void rxe_resp_fini(struct rxe_qp *qp);

#endif /* RXE_LOC_H */
