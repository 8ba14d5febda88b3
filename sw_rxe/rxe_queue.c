// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Allocation, export and resizing of the rings shared with librxe. */
#include <linux/cache.h>
#include <linux/log2.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include "rxe_queue.h"

struct rxe_queue *rxe_queue_alloc(struct ib_ucontext *uctx,
				  unsigned int *num_elem, size_t elem_size,
				  enum rxe_queue_dir dir)
{
	size_t slot = max_t(size_t, elem_size, cache_line_size());
	struct ib_mmap_buf *mb;
	struct rxe_queue *q;
	unsigned int log2;
	u32 slots;

	if (*num_elem >= RXE_QUEUE_MAX_ELEM || !elem_size ||
	    elem_size > RXE_QUEUE_MAX_BYTES)
		return ERR_PTR(-EINVAL);
	/* Slots are whole cache lines, a power of two in size and number. */
	log2 = order_base_2(slot);
	slots = roundup_pow_of_two(*num_elem + 1);
	if (((size_t)slots << log2) > RXE_QUEUE_MAX_BYTES)
		return ERR_PTR(-ENOMEM);

	/* a user ring's memory is charged to the caller (ib_mmap_buf_alloc()) */
	q = kzalloc(sizeof(*q), uctx ? IB_USER_GFP : GFP_KERNEL);
	if (!q)
		return ERR_PTR(-ENOMEM);
	q->dir = dir;
	q->elem_size = elem_size;
	q->log2_elem_size = log2;
	q->index_mask = slots - 1;
	q->buf_size = sizeof(*q->buf) + ((size_t)slots << log2);

	if (uctx) {
		mb = ib_mmap_buf_alloc(uctx, q->buf_size);
		if (IS_ERR(mb)) {
			kfree(q);
			return ERR_CAST(mb);
		}
		q->mb = mb;
		q->buf = mb->vaddr;
	} else {
		q->buf = vzalloc(q->buf_size);
		if (!q->buf) {
			kfree(q);
			return ERR_PTR(-ENOMEM);
		}
	}
	/* Both indices start at 0; userspace reads the geometry from here. */
	q->buf->log2_elem_size = q->log2_elem_size;
	q->buf->index_mask = q->index_mask;
	*num_elem = q->index_mask;
	return q;
}

void rxe_queue_free(struct rxe_queue *q)
{
	if (!q)
		return;
	/* An exported ring lives on while userspace still maps it. */
	if (q->mb)
		ib_mmap_buf_remove(q->mb);
	else
		vfree(q->buf);
	kfree(q);
}

void rxe_queue_mminfo(const struct rxe_queue *q, struct mminfo *mi)
{
	*mi = (struct mminfo){
		.offset = q->mb ? q->mb->offset : 0,
		.size = q->mb ? q->mb->size : 0,
	};
}

int rxe_queue_move(struct rxe_queue *to, struct rxe_queue *from)
{
	u32 cons = rxe_queue_consumer(from);
	u32 n = rxe_queue_count(from);
	u32 i;

	if (n > to->index_mask)
		return -EINVAL;
	for (i = 0; i < n; i++)
		memcpy(rxe_queue_addr(to, i), rxe_queue_addr(from, cons + i),
		       from->elem_size);
	/* Not mapped yet: plain stores, ordered by the caller's unlock. */
	if (to->dir == RXE_QUEUE_TO_USER)
		to->index = n;
	else
		to->index = 0;
	WRITE_ONCE(to->buf->producer_index, n);
	WRITE_ONCE(to->buf->consumer_index, 0);
	return 0;
}
