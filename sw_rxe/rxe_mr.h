/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Memory regions and windows, and what the data path needs of them.
 *
 * Keys: an MR's lkey is its index in the device's MR table shifted left by
 * 8, plus a random 8-bit key; its rkey is the same value when the MR
 * allows some remote access, else 0.  MW rkeys are built the same way from
 * the MW table, whose indices follow the MR ones, so key >> 8 says which
 * table a key belongs to.
 *
 * The data path finds an MR by key with rxe_mr_get() (a reference, under
 * the table's lock, in any context), checks the access and range with
 * rxe_mr_check(), moves data with rxe_mr_copy() and drops the reference
 * with rxe_mr_put().  Deregistration and reregistration take the MR out of
 * the table and wait for those references to go before changing anything,
 * so a holder sees a stable MR.
 */
#ifndef RXE_MR_H
#define RXE_MR_H

#include <linux/completion.h>
#include <linux/refcount.h>
#include "rxe.h"

struct rxe_mr {
	struct ib_mr ibmr;		/* first: the core allocates us */
	u32 index;
	refcount_t ref;			/* the table's, and lookups' */
	struct completion released;
	struct ib_umem *umem;		/* the pinned pages */
	/*
	 * MWs bound to it.  A bound MW points at its MR without holding a
	 * reference (that would block reregistration's drain forever):
	 * instead deregistration and reregistration refuse while this is
	 * not zero, which keeps the MR and its translation in place.
	 */
	atomic_t num_mw;
	/*
	 * Fast registration (ib_alloc_mr()): the page list map_mr_sg loads
	 * (kernel addresses, ibmr.page_size apart), and what the device
	 * honours: REG_MR makes @fr_key valid with ibmr.access, LOCAL_INV
	 * or SEND_WITH_INV of that key makes it invalid again.  The key and
	 * flag change in the requester or responder, while lookups run:
	 * @fr_valid is released after, and acquired before, the key, the
	 * access and @fr_page_size are looked at.  Whether an RDMA op in flight when the MR
	 * is invalidated still lands is the consumer's race, as on hardware
	 * (it invalidates once the peer is done).
	 */
	bool fast_reg;
	bool fr_valid;
	u32 fr_key;
	u32 fr_page_size;		/* ibmr.page_size at REG_MR */
	u64 *fr_pages;
	u32 fr_max_pages;
	u32 fr_npages;
};

enum rxe_mw_state {
	RXE_MW_STATE_INVALID,		/* deallocated */
	RXE_MW_STATE_FREE,		/* type 2, not bound */
	RXE_MW_STATE_VALID,		/* type 1 always, type 2 bound */
};

/*
 * A memory window.  ibmw.rkey is its current rkey: binding changes its
 * low 8 bits.  Everything below @lock is written under it (bind,
 * invalidate, dealloc) and read under it by rkey lookups.
 */
struct rxe_mw {
	struct ib_mw ibmw;		/* first: the core allocates us */
	u32 index;
	refcount_t ref;			/* the table's, and lookups' */
	struct completion released;
	spinlock_t lock;
	enum rxe_mw_state state;
	struct rxe_mr *mr;		/* bound with length > 0, else NULL */
	u64 addr;			/* the window: [addr, addr + length) */
	u64 length;
	int access;			/* remote rights it grants */
	u64 qp_serial;			/* type 2: the QP it is bound through */
};

static inline struct rxe_mr *to_rmr(struct ib_mr *ibmr)
{
	return container_of(ibmr, struct rxe_mr, ibmr);
}

static inline struct rxe_mw *to_rmw(struct ib_mw *ibmw)
{
	return container_of(ibmw, struct rxe_mw, ibmw);
}

/* Verbs (ib_device_ops). */
int rxe_reg_user_mr(struct ib_mr *ibmr, u64 start, u64 length, u64 iova,
		    int access, struct ib_udata *udata);
int rxe_rereg_user_mr(struct ib_mr *ibmr, int flags, u64 start, u64 length,
		      u64 iova, int access, struct ib_pd *pd,
		      struct ib_udata *udata);
int rxe_dereg_mr(struct ib_mr *ibmr, struct ib_udata *udata);
int rxe_alloc_mw(struct ib_mw *ibmw, struct ib_udata *udata);
int rxe_dealloc_mw(struct ib_mw *ibmw);
int rxe_alloc_mr(struct ib_mr *ibmr, enum ib_mr_type type, u32 max_num_sg);
int rxe_map_mr_sg(struct ib_mr *ibmr, struct scatterlist *sg, int sg_nents,
		  unsigned int *sg_offset);

/* A random 8-bit key, other than @old's when @old >= 0. */
u8 rxe_new_key(int old);

/* Whether @key (an rkey) names an MW rather than an MR. */
static inline bool rxe_key_is_mw(u32 key)
{
	return (key >> 8) >= RXE_MIN_MW_INDEX;
}

/* Data path. */
enum rxe_mr_lookup {
	RXE_LOOKUP_LOCAL,		/* @key is an lkey */
	RXE_LOOKUP_REMOTE,		/* @key is an rkey */
};

/* The MR @key names, referenced, or NULL (no such key, stale key). */
struct rxe_mr *rxe_mr_get(struct rxe_dev *rxe, u32 key,
			  enum rxe_mr_lookup type);
void rxe_mr_put(struct rxe_mr *mr);
/*
 * Whether @pd may use [@iova, @iova + @length) of @mr with @access
 * (IB_ACCESS_* needed, 0 for a local read): -EACCES for a PD or rights
 * mismatch, -EFAULT out of range.
 */
int rxe_mr_check(struct rxe_mr *mr, struct ib_pd *pd, int access, u64 iova,
		 u64 length);

enum rxe_copy_dir {
	RXE_COPY_TO_MR,
	RXE_COPY_FROM_MR,
};

/* Copy between @buf and the MR at @iova (checked with rxe_mr_check()). */
void rxe_mr_copy(struct rxe_mr *mr, u64 iova, void *buf, u64 length,
		 enum rxe_copy_dir dir);
struct sk_buff;
/* Attach the range to @skb as referenced page fragments (rxe_mr.c). */
int rxe_mr_frags(struct rxe_mr *mr, u64 iova, struct sk_buff *skb, u32 len);

#endif
