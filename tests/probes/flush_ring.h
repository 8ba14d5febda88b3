/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Posting RDMA FLUSH (IBTA 1.5) with a userspace that may have no FLUSH
 * verb: Debian 12's rdma-core 44, whose librxe cannot post one, while the
 * kernel side (ours on every line, stock from 6.2) executes it.  The
 * probes write the WQE into the send ring librxe maps, as librxe 45 and
 * later do (opcode IB_UVERBS_WR_FLUSH, the flush member of the WR's union,
 * the range also in iova and dma.length/resid), and let an ordinary
 * ibv_post_send() behind it ring the doorbell.  The values rdma-core 44
 * and 6.1's UAPI headers lack are 6.2's ABI values, named here.
 *
 * Finding the ring: take a snapshot of the uverbs mappings before the QP
 * is created, post exactly one WR on it, and the ring is the new mapping
 * whose producer index moved to 1.
 */
#ifndef FLUSH_RING_H
#define FLUSH_RING_H

#include <stdatomic.h>
#include <stdint.h>
#include <string.h>
#include <infiniband/verbs.h>
#include <rdma/rdma_user_rxe.h>
#include "probe.h"

/* 6.2's UAPI (ib_user_verbs.h, ib_user_ioctl_verbs.h), rdma-core 45 */
#define ABI_WR_FLUSH			14
#define ABI_WC_FLUSH			8
#define ABI_ACCESS_FLUSH_GLOBAL		(1 << 8)
#define ABI_ACCESS_FLUSH_PERSISTENT	(1 << 9)
#define ABI_DEVICE_FLUSH_GLOBAL		(1ULL << 38)
#define ABI_DEVICE_FLUSH_PERSISTENT	(1ULL << 39)
#define ABI_FLUSH_GLOBAL		1	/* placement type */
#define ABI_FLUSH_RANGE			0	/* selectivity level */
#define ABI_FLUSH_MR			1

/* The flush member of rxe_send_wr's union, 6.2's layout. */
struct flush_wr {
	uint64_t remote_addr;
	uint32_t length;
	uint32_t rkey;
	uint8_t type;
	uint8_t level;
};

/* Let a connected RC QP's peer flush (RTS -> RTS with FLUSH_GLOBAL). */
static inline int flush_qp_allow(struct ibv_qp *qp)
{
	struct ibv_qp_attr attr = {
		.qp_access_flags = IBV_ACCESS_REMOTE_WRITE |
				   IBV_ACCESS_REMOTE_READ |
				   ABI_ACCESS_FLUSH_GLOBAL,
	};

	return ibv_modify_qp(qp, &attr, IBV_QP_ACCESS_FLAGS);
}

#define FLUSH_RING_MAX_MAPS	64

struct flush_ring_snap {
	unsigned long before[FLUSH_RING_MAX_MAPS];
	int n;
};

static inline uint32_t flush_ring_producer(struct rxe_queue_buf *ring)
{
	return atomic_load_explicit((_Atomic uint32_t *)&ring->producer_index,
				    memory_order_acquire);
}

/* Before the QP's creation: 0, or -1 without /proc/self/maps. */
static inline int flush_ring_snap(struct flush_ring_snap *s)
{
	s->n = uverbs_maps(s->before, FLUSH_RING_MAX_MAPS);
	return s->n < 0 ? -1 : 0;
}

/*
 * After the QP's creation and one WR posted on it: its send ring, or NULL.
 * A QP adds two mappings (its send and receive rings).
 */
static inline struct rxe_queue_buf *
flush_ring_find(const struct flush_ring_snap *s)
{
	unsigned long after[FLUSH_RING_MAX_MAPS];
	int na = uverbs_maps(after, FLUSH_RING_MAX_MAPS), i, j;

	for (i = 0; i < na; i++) {
		for (j = 0; j < s->n && s->before[j] != after[i]; j++)
			;
		if (j == s->n &&
		    flush_ring_producer((struct rxe_queue_buf *)after[i]) == 1)
			return (struct rxe_queue_buf *)after[i];
	}
	return NULL;
}

/*
 * Put a signaled FLUSH of [@va, +@len) under @rkey into ring @q; the next
 * ibv_post_send() on the QP rings the doorbell for both.
 */
static inline void flush_ring_put(struct rxe_queue_buf *q, uint64_t wr_id,
				  uint64_t va, uint32_t len, uint32_t rkey,
				  uint8_t type, uint8_t level)
{
	uint32_t prod = flush_ring_producer(q);
	struct rxe_send_wqe *w = (struct rxe_send_wqe *)(q->data +
		((size_t)(prod & q->index_mask) << q->log2_elem_size));
	struct flush_wr *f = (struct flush_wr *)&w->wr.wr;

	memset(w, 0, 1u << q->log2_elem_size);
	w->wr.wr_id = wr_id;
	w->wr.opcode = ABI_WR_FLUSH;
	w->wr.send_flags = IBV_SEND_SIGNALED;
	f->remote_addr = va;
	f->rkey = rkey;
	f->type = type;
	f->level = level;
	/* the in-tree driver reads the range from here */
	w->iova = va;
	w->dma.length = len;
	w->dma.resid = len;
	atomic_store_explicit((_Atomic uint32_t *)&q->producer_index,
			      (prod + 1) & q->index_mask,
			      memory_order_release);
}

#endif
