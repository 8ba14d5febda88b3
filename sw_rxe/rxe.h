/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* rdma_rxe internals: the device, its single port, its objects. */
#ifndef RXE_H
#define RXE_H

#include <linux/completion.h>
#include <linux/netdevice.h>
#include <linux/refcount.h>
#include <linux/spinlock.h>
#include <linux/xarray.h>
#include <ordma/ib_core.h>
#include "rxe_queue.h"
#include <linux/rbtree.h>

/* The provider ABI librxe checks at GET_CONTEXT. */
#define RXE_UVERBS_ABI_VERSION	2

/* Space the RoCEv2 headers take from the netdev MTU (Eth+IP+UDP+BTH+...). */
#define RXE_MAX_HDR_LENGTH	80

/* Limits and object index ranges, as in-tree rxe has them. */
#define RXE_MAX_VALUE		(1 << 20)
#define RXE_MIN_QP_INDEX	16
#define RXE_GSI_QPN		1	/* the GSI QP of the (single) port */
#define RXE_MAX_QP_INDEX	0x00020000
#define RXE_MIN_SRQ_INDEX	0x00020001
#define RXE_MAX_SRQ_INDEX	0x00040000
#define RXE_MIN_AH_INDEX	1
#define RXE_MAX_AH_INDEX	0x00008000
#define RXE_MAX_CQ_INDEX	RXE_MAX_VALUE
#define RXE_MIN_MR_INDEX	1
#define RXE_MAX_MR_INDEX	(RXE_MAX_VALUE >> 1)
#define RXE_MIN_MW_INDEX	(RXE_MAX_MR_INDEX + 1)
#define RXE_MAX_MW_INDEX	RXE_MAX_VALUE

/*
 * Objects the data path finds by number (CQs) or key (MRs, MWs: index <<
 * 8 | an 8-bit key).  Lookups take a reference under the xarray's lock;
 * destruction erases the entry, then waits for those references.
 */
struct rxe_table {
	struct xarray xa;		/* XA_FLAGS_LOCK_IRQ */
	struct xa_limit limit;
	u32 next;			/* indices are handed out cyclically */
	atomic_t count;
	u32 max;
};

/*
 * A lookup's hold on a table: no table is searched from a hard interrupt
 * (the engine runs in softirq, work items and syscalls; kernel CQs are
 * polled from their owner's context, never an interrupt handler of
 * ours), so keeping BHs out is enough, and on the receive path they are
 * out already.  That spares the data path an interrupt re-enable per
 * packet, dear under emulation.  Writers keep the xarray's irq-safe
 * lock; a caller with interrupts off is excluded from BHs as it is.
 * Returns whether rxe_table_lookup_end() has to enable BHs again.
 */
static inline bool rxe_table_lookup_begin(struct rxe_table *t)
{
	bool bh = !in_softirq() && !irqs_disabled();

	if (bh)
		local_bh_disable();
	xa_lock(&t->xa);
	return bh;
}

static inline void rxe_table_lookup_end(struct rxe_table *t, bool bh)
{
	xa_unlock(&t->xa);
	if (bh)
		local_bh_enable();
}

enum rxe_counter {
	RXE_CNT_SENT_PKTS,
	RXE_CNT_RCVD_PKTS,
	RXE_CNT_DUP_REQ,
	RXE_CNT_OUT_OF_SEQ_REQ,
	RXE_CNT_RCV_RNR,
	RXE_CNT_SND_RNR,
	RXE_CNT_RCV_SEQ_ERR,
	RXE_CNT_COMPLETER_SCHED,
	RXE_CNT_RETRY_EXCEEDED,
	RXE_CNT_RNR_RETRY_EXCEEDED,
	RXE_CNT_COMP_RETRY,
	RXE_CNT_SEND_ERR,
	RXE_CNT_LINK_DOWNED,
	RXE_CNT_RDMA_SEND,
	RXE_CNT_RDMA_RECV,
	/* ours, beyond in-tree rxe's set: drops that were silent there */
	RXE_CNT_RCV_QUEUE_DROP,		/* a QP's packet queue was full */
	RXE_CNT_CQ_OVERFLOW,		/* a completion found its CQ full */
	/* received packets dropped before any QP saw them, by reason */
	RXE_CNT_RCV_ICRC_ERR,		/* the ICRC did not match */
	RXE_CNT_RCV_MALFORMED,		/* length, version, opcode, headers */
	RXE_CNT_RCV_BAD_QP,		/* no such QP, or not in a state for it */
	RXE_CNT_RCV_KEY_ERR,		/* P_Key or Q_Key */
	RXE_CNT_RCV_ADDR_MISMATCH,	/* RC/UC: not from the QP's peer */
	RXE_CNT_RCV_UD_LEN_ERR,		/* UD: longer than the receive WQE */
	RXE_NUM_COUNTERS
};

struct rxe_dev {
	struct ib_device ib_dev;	/* first: the core allocates us */
	struct net_device *ndev;	/* held for the device's lifetime */

	struct ib_device_attr attr;
	struct mutex port_lock;		/* port_attr.state / active_mtu */
	struct ib_port_attr port_attr;

	atomic64_t counters[RXE_NUM_COUNTERS];
	/*
	 * Received packets dropped as malformed or not for any QP, every
	 * reason together (each is dev_dbg()ed and counted by class in a
	 * rcvd_* hw counter as well): shown in debugfs.
	 */
	atomic_t rcv_drops;

	struct rxe_table cq_table;
	struct rxe_table mr_table;
	struct rxe_table mw_table;
	struct rxe_table qp_table;	/* QPN -> struct rxe_qp */
	struct rxe_table srq_table;	/* SRQ number -> struct rxe_srq */
	struct rxe_table ah_table;	/* AH number -> struct rxe_ah */

	/* multicast groups (rxe_mcast.c) */
	spinlock_t mcg_lock;
	struct rb_root mcg_tree;
	atomic_t mcg_num;
	unsigned int mcg_ip_joins;	/* groups the IP stack joined for us */
#ifdef CONFIG_DEBUG_FS
	struct dentry *debugfs;
#endif
};

struct rxe_ucontext {
	struct ib_ucontext ibuc;
};

struct rxe_pd {
	struct ib_pd ibpd;
};

struct rxe_cq {
	struct ib_cq ibcq;		/* first: the core allocates us */
	spinlock_t lock;		/* @queue's producer side, @notify */
	struct mutex resize_mutex;	/* one resize at a time */
	struct rxe_queue *queue;	/* of struct ib_uverbs_wc */
	u8 notify;			/* 0 or IB_CQ_NEXT_COMP/SOLICITED */
	bool dying;
	/*
	 * A completion found the ring full and was lost: IB_EVENT_CQ_ERR
	 * was raised.  Until the consumer makes room, later completions are
	 * lost too, counted, without another event.
	 */
	bool overflow;
	bool is_kernel;			/* polled by rxe_poll_cq() */
	spinlock_t poll_lock;		/* kernel CQs: the consumer side */
	u32 index;
	refcount_t ref;			/* the table's, and lookups' */
	struct completion released;
};

static inline struct rxe_dev *to_rdev(struct ib_device *ibdev)
{
	return container_of(ibdev, struct rxe_dev, ib_dev);
}

static inline struct rxe_pd *to_rpd(struct ib_pd *ibpd)
{
	return container_of(ibpd, struct rxe_pd, ibpd);
}

static inline struct rxe_cq *to_rcq(struct ib_cq *ibcq)
{
	return container_of(ibcq, struct rxe_cq, ibcq);
}

static inline void rxe_counter_inc(struct rxe_dev *rxe, enum rxe_counter c)
{
	atomic64_inc(&rxe->counters[c]);
}

/* rxe_verbs.c */
int rxe_add_device(const char *ibdev_name, struct net_device *ndev);
void rxe_set_port_state(struct rxe_dev *rxe);
void rxe_set_mtu(struct rxe_dev *rxe, unsigned int ndev_mtu);
void rxe_table_init(struct rxe_table *t, u32 min, u32 max, u32 count);
/* Reserve an index (the entry stays NULL until rxe_table_publish()). */
int rxe_table_alloc(struct rxe_table *t, u32 *index);
void rxe_table_publish(struct rxe_table *t, u32 index, void *obj);
/* Reserve the fixed @index (outside the allocation range): -EBUSY if taken. */
int rxe_table_insert(struct rxe_table *t, u32 index);
void rxe_table_remove(struct rxe_table *t, u32 index);

/* rxe_cq.c */
int rxe_create_cq(struct ib_cq *ibcq, const struct ib_cq_init_attr *attr,
		  struct ib_udata *udata);
int rxe_destroy_cq(struct ib_cq *ibcq, struct ib_udata *udata);
int rxe_resize_cq(struct ib_cq *ibcq, int cqe, struct ib_udata *udata);
int rxe_req_notify_cq(struct ib_cq *ibcq, enum ib_cq_notify_flags flags);
/* Kernel CQs: take up to @num completions. */
int rxe_poll_cq(struct ib_cq *ibcq, int num, struct ib_wc *wc);
/*
 * Write one completion into @cq and raise the completion event if the CQ
 * is armed for it (@solicited: the completion of a solicited message).
 * Any context; the caller keeps @cq alive (a QP's usecnt, or
 * rxe_cq_get()).  wc->reserved carries the enum rdma_network_type of a
 * UD receive for kernel CQs (0 otherwise); userspace sees it zeroed.
 * -EBUSY if the CQ is full: the completion is lost and
 * IB_EVENT_CQ_ERR is reported; -EIO if it is being destroyed.
 */
int rxe_cq_post(struct rxe_cq *cq, const struct ib_uverbs_wc *wc,
		bool solicited);
/* The CQ numbered @index, referenced, or NULL. */
struct rxe_cq *rxe_cq_get(struct rxe_dev *rxe, u32 index);
void rxe_cq_put(struct rxe_cq *cq);

/* Lookups take a reference on the object (rxe_*_put() drops it). */
struct rxe_qp;
struct rxe_srq;
struct rxe_ah;

/* The workqueue every QP's requester, completer and responder run on. */
extern struct workqueue_struct *rxe_wq;

/* rxe_debugfs.c */
#ifdef CONFIG_DEBUG_FS
void rxe_debugfs_add(struct rxe_dev *rxe);
void rxe_debugfs_remove(struct rxe_dev *rxe);
void rxe_debugfs_init(void);
void rxe_debugfs_exit(void);
#else
static inline void rxe_debugfs_add(struct rxe_dev *rxe) {}
static inline void rxe_debugfs_remove(struct rxe_dev *rxe) {}
static inline void rxe_debugfs_init(void) {}
static inline void rxe_debugfs_exit(void) {}
#endif

#endif
