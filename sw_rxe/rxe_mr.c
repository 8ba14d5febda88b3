// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Memory regions of user memory.  Registration pins the pages
 * (ib_umem_get(), which also counts them against RLIMIT_MEMLOCK) and
 * publishes the MR under its keys; the page list stays with the MR for the
 * data path (rxe_mr_copy(), rxe_dma_copy()).
 *
 * Reregistration, which in-tree 6.1 rxe lacks, changes the MR in place:
 * whatever may fail (pinning a new range, or the old one again for
 * writing) is done first; then the MR leaves the table, lookups drain,
 * the new translation, rights and PD are installed and the MR returns
 * under the same keys (the rkey follows the remote rights).
 *
 * Neither deregistration nor reregistration is allowed while memory
 * windows are bound to the MR (-EINVAL, as in-tree deregistration, IBA
 * 10.6.7.2.6): a bound window relies on the MR staying what it was.
 * Binding needs a lookup of the MR, so once the MR is out of the table
 * and drained, the count can only fall: it is checked again then.
 */
#include <linux/highmem.h>
#include <linux/random.h>
#include <linux/skbuff.h>
#include "rxe_loc.h"

u8 rxe_new_key(int old)
{
	u8 key;

	do {
		key = get_random_u8();
	} while (old >= 0 && key == (u8)old);
	return key;
}

static u32 rxe_mr_rkey(const struct ib_mr *ibmr, int access)
{
	return access & IB_ACCESS_REMOTE ? ibmr->lkey : 0;
}

/*
 * FLUSH with the persistence placement type needs pages of persistent
 * memory whose cache lines it can write back; rxe supports none (as
 * in-tree rxe on a host without pmem, registration with
 * IB_ACCESS_FLUSH_PERSISTENT fails with -EINVAL), so a persistent flush
 * never finds an MR that allows it and is NAKed for its access.
 */
static int rxe_mr_persistent_ok(int access)
{
	if (access & IB_ACCESS_FLUSH_PERSISTENT)
		return -EINVAL;
	return 0;
}

/* Out of the table, no lookup left: the MR can be changed or freed. */
static void rxe_mr_quiesce(struct rxe_mr *mr)
{
	if (!refcount_dec_and_test(&mr->ref))
		wait_for_completion(&mr->released);
}

/* Back into the table after rxe_mr_quiesce(), under the same keys. */
static void rxe_mr_republish(struct rxe_dev *rxe, struct rxe_mr *mr)
{
	refcount_set(&mr->ref, 1);
	reinit_completion(&mr->released);
	rxe_table_publish(&rxe->mr_table, mr->index, mr);
}

int rxe_reg_user_mr(struct ib_mr *ibmr, u64 start, u64 length, u64 iova,
		    int access, struct ib_udata *udata)
{
	struct rxe_dev *rxe = to_rdev(ibmr->device);
	struct rxe_mr *mr = to_rmr(ibmr);
	struct ib_umem *umem;
	int ret;

	if (start != (unsigned long)start || length != (size_t)length ||
	    rxe_mr_persistent_ok(access))
		return -EINVAL;
	if (rxe_table_alloc(&rxe->mr_table, &mr->index))
		return -ENOMEM;
	umem = ib_umem_get(ibmr->device, start, length, access);
	if (IS_ERR(umem)) {
		ret = PTR_ERR(umem);
		rxe_table_remove(&rxe->mr_table, mr->index);
		return ret;
	}
	mr->umem = umem;
	refcount_set(&mr->ref, 1);
	init_completion(&mr->released);
	atomic_set(&mr->num_mw, 0);

	ibmr->lkey = mr->index << 8 | rxe_new_key(-1);
	ibmr->rkey = rxe_mr_rkey(ibmr, access);
	ibmr->iova = iova;
	ibmr->length = length;
	ibmr->access = access;
	rxe_table_publish(&rxe->mr_table, mr->index, mr);
	return 0;
}

int rxe_rereg_user_mr(struct ib_mr *ibmr, int flags, u64 start, u64 length,
		      u64 iova, int access, struct ib_pd *pd,
		      struct ib_udata *udata)
{
	struct rxe_dev *rxe = to_rdev(ibmr->device);
	struct rxe_mr *mr = to_rmr(ibmr);
	int new_access = flags & IB_MR_REREG_ACCESS ? access : ibmr->access;
	struct ib_umem *umem = NULL, *old = NULL;

	if (atomic_read(&mr->num_mw) || rxe_mr_persistent_ok(new_access))
		return -EINVAL;
	if (flags & IB_MR_REREG_TRANS) {
		if (start != (unsigned long)start ||
		    length != (size_t)length)
			return -EINVAL;
		umem = ib_umem_get(ibmr->device, start, length, new_access);
	} else if (ib_access_writable(new_access) && !mr->umem->writable) {
		/* The same pages, now pinned for writing. */
		umem = ib_umem_get(ibmr->device, mr->umem->address,
				   mr->umem->length, new_access);
	}
	if (IS_ERR(umem))
		return PTR_ERR(umem);

	/* The index stays reserved while the MR is away. */
	xa_store_irq(&rxe->mr_table.xa, mr->index, NULL, GFP_KERNEL);
	rxe_mr_quiesce(mr);
	if (atomic_read(&mr->num_mw)) {
		/* A bind won the race: leave the MR as it was. */
		rxe_mr_republish(rxe, mr);
		ib_umem_release(umem);
		return -EINVAL;
	}

	if (umem) {
		old = mr->umem;
		mr->umem = umem;
	}
	if (flags & IB_MR_REREG_TRANS) {
		ibmr->iova = iova;
		ibmr->length = length;
	}
	if (flags & IB_MR_REREG_ACCESS) {
		ibmr->access = access;
		ibmr->rkey = rxe_mr_rkey(ibmr, access);
	}
	if (flags & IB_MR_REREG_PD)
		ibmr->pd = pd;

	rxe_mr_republish(rxe, mr);
	ib_umem_release(old);
	return 0;
}

int rxe_alloc_mr(struct ib_mr *ibmr, enum ib_mr_type type, u32 max_num_sg)
{
	struct rxe_dev *rxe = to_rdev(ibmr->device);
	struct rxe_mr *mr = to_rmr(ibmr);

	if (ibmr->pd->uobject || type != IB_MR_TYPE_MEM_REG)
		return -EINVAL;
	mr->fr_pages = kcalloc(max_num_sg, sizeof(*mr->fr_pages), GFP_KERNEL);
	if (!mr->fr_pages)
		return -ENOMEM;
	if (rxe_table_alloc(&rxe->mr_table, &mr->index)) {
		kfree(mr->fr_pages);
		return -ENOMEM;
	}
	mr->fast_reg = true;
	mr->fr_max_pages = max_num_sg;
	refcount_set(&mr->ref, 1);
	init_completion(&mr->released);
	atomic_set(&mr->num_mw, 0);

	/* invalid until a REG_MR: no key finds it yet */
	ibmr->lkey = mr->index << 8 | rxe_new_key(-1);
	ibmr->rkey = ibmr->lkey;
	rxe_table_publish(&rxe->mr_table, mr->index, mr);
	return 0;
}

static int rxe_mr_set_page(struct ib_mr *ibmr, u64 addr)
{
	struct rxe_mr *mr = to_rmr(ibmr);

	if (mr->fr_npages == mr->fr_max_pages)
		return -ENOMEM;
	mr->fr_pages[mr->fr_npages++] = addr;
	return 0;
}

int rxe_map_mr_sg(struct ib_mr *ibmr, struct scatterlist *sg, int sg_nents,
		  unsigned int *sg_offset)
{
	struct rxe_mr *mr = to_rmr(ibmr);

	/* a valid MR's page list is in use by the device */
	if (smp_load_acquire(&mr->fr_valid))
		return -EBUSY;
	mr->fr_npages = 0;
	return ib_sg_to_pages(ibmr, sg, sg_nents, sg_offset, rxe_mr_set_page);
}

/*
 * Make @mr valid under @key with @access (IB_WR_REG_MR on @qp).  It must
 * be a fast-registration MR of the QP's PD, invalid, with @key one of its
 * own and the mapping inside its page list.
 */
int rxe_mr_fast_reg(struct rxe_qp *qp, u32 mr_lkey, u32 key, int access)
{
	struct rxe_dev *rxe = to_rdev(qp->ibqp.device);
	struct rxe_mr *mr;
	struct ib_mr *ibmr;
	u64 first;
	int ret = -EINVAL;

	if (rxe_key_is_mw(mr_lkey) || (key >> 8) != (mr_lkey >> 8) ||
	    ib_check_mr_access(access) || rxe_mr_persistent_ok(access))
		return -EINVAL;
	mr = rxe_mr_index_get(rxe, mr_lkey >> 8);
	if (!mr)
		return -EINVAL;
	ibmr = &mr->ibmr;
	first = ibmr->iova & ~((u64)ibmr->page_size - 1);
	if (mr->fast_reg && !smp_load_acquire(&mr->fr_valid) &&
	    ibmr->pd == qp->ibqp.pd && mr->fr_npages && ibmr->page_size &&
	    ibmr->iova - first + ibmr->length <=
	    (u64)mr->fr_npages * ibmr->page_size) {
		ibmr->access = access;
		mr->fr_page_size = ibmr->page_size;
		mr->fr_key = key;
		/* access, page size and key before the MR is found valid */
		smp_store_release(&mr->fr_valid, true);
		ret = 0;
	}
	rxe_mr_put(mr);
	return ret;
}

/* LOCAL_INV / SEND_WITH_INV of an MR key: only a valid fast-reg one. */
int rxe_mr_invalidate(struct rxe_qp *qp, u32 key)
{
	struct rxe_mr *mr = rxe_mr_index_get(to_rdev(qp->ibqp.device),
					     key >> 8);
	int ret = -EINVAL;

	if (!mr)
		return -EINVAL;
	if (mr->fast_reg && smp_load_acquire(&mr->fr_valid) &&
	    mr->fr_key == key &&
	    mr->ibmr.pd == qp->ibqp.pd) {
		WRITE_ONCE(mr->fr_valid, false);
		ret = 0;
	}
	rxe_mr_put(mr);
	return ret;
}

int rxe_dereg_mr(struct ib_mr *ibmr, struct ib_udata *udata)
{
	struct rxe_dev *rxe = to_rdev(ibmr->device);
	struct rxe_mr *mr = to_rmr(ibmr);

	if (atomic_read(&mr->num_mw))
		return -EINVAL;
	/* Not rxe_table_remove(): the index is kept until we are sure. */
	xa_store_irq(&rxe->mr_table.xa, mr->index, NULL, GFP_KERNEL);
	rxe_mr_quiesce(mr);
	if (atomic_read(&mr->num_mw)) {
		rxe_mr_republish(rxe, mr);
		return -EINVAL;
	}
	rxe_table_remove(&rxe->mr_table, mr->index);
	ib_umem_release(mr->umem);
	mr->umem = NULL;
	kfree(mr->fr_pages);
	mr->fr_pages = NULL;
	return 0;
}

/* The MR at @index, referenced, whatever its keys. */
struct rxe_mr *rxe_mr_index_get(struct rxe_dev *rxe, u32 index)
{
	struct rxe_mr *mr;
	bool bh;

	bh = rxe_table_lookup_begin(&rxe->mr_table);
	mr = xa_load(&rxe->mr_table.xa, index);
	if (mr && !refcount_inc_not_zero(&mr->ref))
		mr = NULL;
	rxe_table_lookup_end(&rxe->mr_table, bh);
	return mr;
}

/* Whether @key names @mr now (a fast-reg MR: only while valid). */
static bool rxe_mr_key_matches(const struct rxe_mr *mr, u32 key,
			       enum rxe_mr_lookup type)
{
	if (mr->fast_reg) {
		if (!smp_load_acquire(&mr->fr_valid) || mr->fr_key != key)
			return false;
		return type == RXE_LOOKUP_LOCAL ||
		       (mr->ibmr.access & IB_ACCESS_REMOTE);
	}
	return key == (type == RXE_LOOKUP_LOCAL ? mr->ibmr.lkey :
						  mr->ibmr.rkey);
}

struct rxe_mr *rxe_mr_get(struct rxe_dev *rxe, u32 key,
			  enum rxe_mr_lookup type)
{
	struct rxe_mr *mr = rxe_mr_index_get(rxe, key >> 8);

	if (mr && !rxe_mr_key_matches(mr, key, type)) {
		rxe_mr_put(mr);
		mr = NULL;
	}
	return mr;
}

void rxe_mr_put(struct rxe_mr *mr)
{
	if (refcount_dec_and_test(&mr->ref))
		complete(&mr->released);
}

int rxe_mr_check(struct rxe_mr *mr, struct ib_pd *pd, int access, u64 iova,
		 u64 length)
{
	const struct ib_mr *ibmr = &mr->ibmr;

	if (ibmr->pd != pd)
		return -EACCES;
	if (access & ~ibmr->access)
		return -EACCES;
	if (iova < ibmr->iova || length > ibmr->length ||
	    iova - ibmr->iova > ibmr->length - length)
		return -EFAULT;
	return 0;
}

/* Through a fast-reg MR's page list: kernel addresses of its pages. */
static void rxe_fr_copy(struct rxe_mr *mr, u64 iova, void *buf, u64 length,
			enum rxe_copy_dir dir)
{
	const u64 page_size = mr->fr_page_size;
	/* from the start of the first listed page; checked by REG_MR */
	u64 off = iova - (mr->ibmr.iova & ~(page_size - 1));

	while (length) {
		u64 in_page = off & (page_size - 1);
		u64 n = min(length, page_size - in_page);
		void *va = (void *)(uintptr_t)
			   (mr->fr_pages[off / page_size] + in_page);

		if (dir == RXE_COPY_TO_MR)
			memcpy(va, buf, n);
		else
			memcpy(buf, va, n);
		buf += n;
		off += n;
		length -= n;
	}
}

void rxe_mr_copy(struct rxe_mr *mr, u64 iova, void *buf, u64 length,
		 enum rxe_copy_dir dir)
{
	u64 off;

	if (mr->fast_reg) {
		rxe_fr_copy(mr, iova, buf, length, dir);
		return;
	}
	/* a DMA MR (kernel consumers): the iova is a kernel address */
	if (!mr->umem) {
		void *va = (void *)(uintptr_t)iova;

		if (dir == RXE_COPY_TO_MR)
			memcpy(va, buf, length);
		else
			memcpy(buf, va, length);
		return;
	}
	/* Byte offset from the start of the first pinned page. */
	off = iova - mr->ibmr.iova + ib_umem_offset(mr->umem);
	while (length) {
		struct page *page = mr->umem->pages[off >> PAGE_SHIFT];
		unsigned int in_page = off & ~PAGE_MASK;
		unsigned int n = min_t(u64, length, PAGE_SIZE - in_page);
		void *va = kmap_local_page(page);

		if (dir == RXE_COPY_TO_MR) {
			memcpy(va + in_page, buf, n);
			flush_dcache_page(page);
		} else {
			memcpy(buf, va + in_page, n);
		}
		kunmap_local(va);
		buf += n;
		off += n;
		length -= n;
	}
}

/*
 * The MR behind @sge for [@iova, @iova + @len), reusing *@mr when it is
 * the same lkey (consecutive SGEs often name one MR).  The previous MR
 * is dropped when another one is needed.
 */
static int rxe_sge_mr(struct rxe_dev *rxe, struct ib_pd *pd, int access,
		      const struct rxe_sge *sge, u64 iova, u32 len,
		      struct rxe_mr **mr)
{
	if (!*mr || (*mr)->ibmr.lkey != sge->lkey) {
		if (*mr)
			rxe_mr_put(*mr);
		*mr = rxe_mr_get(rxe, sge->lkey, RXE_LOOKUP_LOCAL);
		if (!*mr)
			return -EACCES;
	}
	return rxe_mr_check(*mr, pd, access, iova, len) ? -EACCES : 0;
}

/*
 * Attach [@iova, @iova + @len) of user MR @mr to @skb as page fragments,
 * each page referenced by the skb: the receiver then copies straight from
 * the sender's memory, one copy instead of two.  -EOPNOTSUPP for a kernel
 * MR (no pages we own), -EMSGSIZE when the skb runs out of fragments.
 */
int rxe_mr_frags(struct rxe_mr *mr, u64 iova, struct sk_buff *skb, u32 len)
{
	struct skb_shared_info *sh = skb_shinfo(skb);
	u64 off;

	if (!mr->umem)
		return -EOPNOTSUPP;
	off = iova - mr->ibmr.iova + ib_umem_offset(mr->umem);
	while (len) {
		struct page *page = mr->umem->pages[off >> PAGE_SHIFT];
		unsigned int in_page = off & ~PAGE_MASK;
		unsigned int n = min_t(u32, len, PAGE_SIZE - in_page);
		int i = sh->nr_frags;

		if (i && skb_can_coalesce(skb, i, page, in_page)) {
			skb_frag_size_add(&sh->frags[i - 1], n);
		} else {
			if (i >= MAX_SKB_FRAGS)
				return -EMSGSIZE;
			get_page(page);
			skb_fill_page_desc(skb, i, page, in_page, n);
		}
		skb_len_add(skb, n);
		off += n;
		len -= n;
	}
	return 0;
}

/*
 * The SGE list lives in a kernel copy of the WQE that its owner
 * validated (num_sge within what was copied); resid is only bookkept
 * here: the SGEs themselves say how much room there is.  Calls @fn on
 * each MR piece of the next @len bytes, in order.
 */
static int rxe_dma_walk(struct rxe_dev *rxe, struct ib_pd *pd, int access,
			struct rxe_dma_info *dma, u32 len,
			int (*fn)(struct rxe_mr *mr, u64 iova, u32 n,
				  void *ctx),
			void *ctx)
{
	struct rxe_mr *mr = NULL;
	int ret = 0;

	while (len) {
		const struct rxe_sge *sge;
		u32 n;

		if (dma->cur_sge >= dma->num_sge) {
			ret = -ENOSPC;
			break;
		}
		sge = &dma->sge[dma->cur_sge];
		if (dma->sge_offset >= sge->length) {
			/* Used up, or empty: zero-length SGEs are skipped. */
			dma->cur_sge++;
			dma->sge_offset = 0;
			continue;
		}
		n = min(len, sge->length - dma->sge_offset);
		ret = rxe_sge_mr(rxe, pd, access, sge,
				 sge->addr + dma->sge_offset, n, &mr);
		if (ret)
			break;
		ret = fn(mr, sge->addr + dma->sge_offset, n, ctx);
		if (ret)
			break;
		len -= n;
		dma->sge_offset += n;
		dma->resid = dma->resid > n ? dma->resid - n : 0;
	}
	if (mr)
		rxe_mr_put(mr);
	return ret;
}

struct rxe_dma_copy_ctx {
	void *buf;
	enum rxe_copy_dir dir;
};

static int rxe_dma_copy_piece(struct rxe_mr *mr, u64 iova, u32 n, void *ctx)
{
	struct rxe_dma_copy_ctx *c = ctx;

	rxe_mr_copy(mr, iova, c->buf, n, c->dir);
	c->buf += n;
	return 0;
}

int rxe_dma_copy(struct rxe_dev *rxe, struct ib_pd *pd, int access,
		 struct rxe_dma_info *dma, void *buf, u32 len,
		 enum rxe_copy_dir dir)
{
	struct rxe_dma_copy_ctx c = { .buf = buf, .dir = dir };

	return rxe_dma_walk(rxe, pd, access, dma, len, rxe_dma_copy_piece, &c);
}

static int rxe_dma_frags_piece(struct rxe_mr *mr, u64 iova, u32 n, void *ctx)
{
	return rxe_mr_frags(mr, iova, ctx, n);
}

int rxe_dma_frags(struct rxe_dev *rxe, struct ib_pd *pd,
		  struct rxe_dma_info *dma, struct sk_buff *skb, u32 len)
{
	return rxe_dma_walk(rxe, pd, 0, dma, len, rxe_dma_frags_piece, skb);
}
