/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Rings shared with librxe: completion queues, send and receive queues.
 *
 * The memory is a struct rxe_queue_buf (<uapi/rdma/rdma_user_rxe.h>): a
 * header with log2_elem_size and index_mask, the producer and consumer
 * indices each on its own cache line, then 2^n slots of 2^log2_elem_size
 * bytes.  An index is a slot number in [0, index_mask]; the ring is empty
 * when both are equal and full when the producer is one slot behind the
 * consumer, so it holds index_mask elements.  librxe maps it at the
 * offset of its struct mminfo (from the create response).
 *
 * Each side owns one index.  The owner writes an element (or finishes
 * reading it), then publishes its index with a release store; the other
 * side reads that index with an acquire load before touching the slots
 * it covers.  librxe does the same with C11 atomics.  The kernel keeps a
 * private copy of the index it owns and never reads it back from the
 * shared page, and masks the index userspace owns, so whatever userspace
 * writes there can at worst make the ring look full or empty.  Elements
 * userspace produces may change under the kernel: copy them before
 * checking them.
 *
 * Callers serialize each side with their own lock.
 */
#ifndef RXE_QUEUE_H
#define RXE_QUEUE_H

#include <linux/types.h>
#include <uapi/rdma/rdma_user_rxe.h>
#include <ordma/ib_verbs.h>

enum rxe_queue_dir {
	RXE_QUEUE_TO_USER,	/* the kernel produces: CQ */
	RXE_QUEUE_FROM_USER,	/* userspace produces: SQ, RQ, SRQ */
};

struct rxe_queue {
	struct rxe_queue_buf *buf;
	struct ib_mmap_buf *mb;		/* the export of @buf, or NULL */
	size_t buf_size;
	size_t elem_size;		/* bytes of a slot that are used */
	unsigned int log2_elem_size;
	u32 index_mask;
	u32 index;			/* the kernel's own index */
	enum rxe_queue_dir dir;
};

/* Larger rings than any limit rxe advertises. */
#define RXE_QUEUE_MAX_ELEM	(1U << 24)
/*
 * The most bytes of slots in one ring, whatever its element count and
 * size: a ring at max_qp_wr (2^21 slots) of send WQEs with up to three
 * SGEs, or of receive WQEs with up to 13.  Deeper rings of larger WQEs
 * fail with -ENOMEM: one verb of any user may not take gigabytes of
 * kernel memory, even charged to its cgroup (which an unlimited one
 * does not bound).
 */
#define RXE_QUEUE_MAX_BYTES	(512UL << 20)

/*
 * A ring of at least *@num_elem elements of @elem_size bytes, exported to
 * @uctx (NULL: kernel only).  *@num_elem becomes the real capacity.
 * Errors: -EINVAL (no size, too many elements), -ENOMEM (also: more than
 * RXE_QUEUE_MAX_BYTES), -ENOSPC (the ucontext has no mmap offset left).
 */
struct rxe_queue *rxe_queue_alloc(struct ib_ucontext *uctx,
				  unsigned int *num_elem, size_t elem_size,
				  enum rxe_queue_dir dir);
void rxe_queue_free(struct rxe_queue *q);
/* Where userspace maps @q: for the create and resize responses. */
void rxe_queue_mminfo(const struct rxe_queue *q, struct mminfo *mi);
/*
 * Move the unconsumed elements of @from to the start of the empty @to (a
 * resize); both sides' locks held.  -EINVAL if they do not fit.
 */
int rxe_queue_move(struct rxe_queue *to, struct rxe_queue *from);

static inline u32 rxe_queue_producer(const struct rxe_queue *q)
{
	if (q->dir == RXE_QUEUE_TO_USER)
		return q->index;
	/*
	 * The WQEs it covers are read only after it: pairs with the release
	 * of producer_index by librxe or by rxe_queue_kprod_advance().
	 */
	return smp_load_acquire(&q->buf->producer_index) & q->index_mask;
}

static inline u32 rxe_queue_consumer(const struct rxe_queue *q)
{
	if (q->dir == RXE_QUEUE_FROM_USER)
		return q->index;
	/*
	 * The slots it frees are refilled only after it: pairs with the
	 * release of consumer_index by librxe or by rxe_queue_kcons_advance().
	 */
	return smp_load_acquire(&q->buf->consumer_index) & q->index_mask;
}

static inline u32 rxe_queue_count(const struct rxe_queue *q)
{
	return (rxe_queue_producer(q) - rxe_queue_consumer(q)) & q->index_mask;
}

static inline bool rxe_queue_empty(const struct rxe_queue *q)
{
	return rxe_queue_count(q) == 0;
}

static inline bool rxe_queue_full(const struct rxe_queue *q)
{
	return rxe_queue_count(q) == q->index_mask;
}

static inline void *rxe_queue_addr(const struct rxe_queue *q, u32 index)
{
	return q->buf->data + ((size_t)(index & q->index_mask) <<
			       q->log2_elem_size);
}

/* TO_USER: the slot to fill next (check rxe_queue_full() first). */
static inline void *rxe_queue_producer_addr(const struct rxe_queue *q)
{
	return rxe_queue_addr(q, q->index);
}

/* TO_USER: publish the filled slot. */
static inline void rxe_queue_advance_producer(struct rxe_queue *q)
{
	q->index = (q->index + 1) & q->index_mask;
	/*
	 * The CQE is written before the index that publishes it: pairs with
	 * the acquire in librxe's poll and in rxe_queue_kcons_head().
	 */
	smp_store_release(&q->buf->producer_index, q->index);
}

/* FROM_USER: the oldest element, or NULL when empty. */
static inline void *rxe_queue_head(const struct rxe_queue *q)
{
	return rxe_queue_empty(q) ? NULL : rxe_queue_addr(q, q->index);
}

/* FROM_USER: hand the oldest slot back to userspace. */
static inline void rxe_queue_advance_consumer(struct rxe_queue *q)
{
	q->index = (q->index + 1) & q->index_mask;
	/*
	 * Done with the WQE before its slot can be refilled: pairs with the
	 * acquire in librxe's post and in rxe_queue_kprod_addr().
	 */
	smp_store_release(&q->buf->consumer_index, q->index);
}

/*
 * Rings of kernel consumers (not exported): the kernel also plays the
 * part librxe plays for userspace rings, through the shared indices, so
 * the engine sees no difference.  Callers serialize each side.
 */

/* FROM_USER ring, kernel producer: the slot to fill, or NULL if full. */
static inline void *rxe_queue_kprod_addr(const struct rxe_queue *q)
{
	u32 prod = READ_ONCE(q->buf->producer_index) & q->index_mask;
	/* refill only freed slots: pairs with rxe_queue_advance_consumer() */
	u32 cons = smp_load_acquire(&q->buf->consumer_index) & q->index_mask;

	if (((prod + 1) & q->index_mask) == cons)
		return NULL;
	return rxe_queue_addr(q, prod);
}

/* FROM_USER ring, kernel producer: publish the filled slot. */
static inline void rxe_queue_kprod_advance(struct rxe_queue *q)
{
	u32 prod = READ_ONCE(q->buf->producer_index) & q->index_mask;

	/* publish the WQE once written: pairs with rxe_queue_producer() */
	smp_store_release(&q->buf->producer_index,
			  (prod + 1) & q->index_mask);
}

/* TO_USER ring, kernel consumer: the oldest element, or NULL. */
static inline void *rxe_queue_kcons_head(const struct rxe_queue *q)
{
	u32 cons = READ_ONCE(q->buf->consumer_index) & q->index_mask;
	/* read the CQE after it: pairs with rxe_queue_advance_producer() */
	u32 prod = smp_load_acquire(&q->buf->producer_index) & q->index_mask;

	return cons == prod ? NULL : rxe_queue_addr(q, cons);
}

/* TO_USER ring, kernel consumer: free the oldest slot. */
static inline void rxe_queue_kcons_advance(struct rxe_queue *q)
{
	u32 cons = READ_ONCE(q->buf->consumer_index) & q->index_mask;

	/* done with the CQE before reuse: pairs with rxe_queue_consumer() */
	smp_store_release(&q->buf->consumer_index,
			  (cons + 1) & q->index_mask);
}

#endif
