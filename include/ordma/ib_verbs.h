/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The device model shared by ib_core, ib_uverbs and the drivers: devices,
 * ports, their attributes, the GID table, and the verbs objects userspace
 * creates (ucontext, PD, CQ, MR, MW).  Values that cross into userspace use
 * the UAPI types and constants of the target kernel; the rest are IBTA
 * values.  The last part declares what ib_core offers drivers of
 * userspace objects: pinned user memory (struct ib_umem) and kernel
 * buffers mapped into userspace (struct ib_mmap_buf).
 */
#ifndef ORDMA_IB_VERBS_H
#define ORDMA_IB_VERBS_H

#include <linux/completion.h>
#include <linux/device.h>
#include <linux/dma-direction.h>
#include <linux/in6.h>
#include <linux/kref.h>
#include <linux/mutex.h>
#include <linux/netdevice.h>
#include <linux/refcount.h>
#include <linux/rwsem.h>
#include <linux/scatterlist.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>
#include <linux/xarray.h>
#include <uapi/rdma/ib_user_ioctl_verbs.h>
#include <uapi/rdma/ib_user_verbs.h>
#include <uapi/rdma/rdma_netlink.h>
#include <ordma/compat.h>
#include <ordma/qp_state.h>

#define IB_DEVICE_NAME_MAX 64
#define IB_NODE_DESC_MAX 64

/* Node types are the UAPI's RDMA_NODE_* values (rdma_netlink.h). */

/* PortInfo:PortState (IBTA 14.2.5.6). */
enum ib_port_state {
	IB_PORT_NOP = 0,
	IB_PORT_DOWN = 1,
	IB_PORT_INIT = 2,
	IB_PORT_ARMED = 3,
	IB_PORT_ACTIVE = 4,
	IB_PORT_ACTIVE_DEFER = 5,
};

/* PortInfo:PortPhysicalState. */
enum ib_port_phys_state {
	IB_PORT_PHYS_STATE_SLEEP = 1,
	IB_PORT_PHYS_STATE_POLLING = 2,
	IB_PORT_PHYS_STATE_DISABLED = 3,
	IB_PORT_PHYS_STATE_PORT_CONFIGURATION_TRAINING = 4,
	IB_PORT_PHYS_STATE_LINK_UP = 5,
	IB_PORT_PHYS_STATE_LINK_ERROR_RECOVERY = 6,
	IB_PORT_PHYS_STATE_PHY_TEST = 7,
};

enum ib_mtu {
	IB_MTU_256 = 1,
	IB_MTU_512 = 2,
	IB_MTU_1024 = 3,
	IB_MTU_2048 = 4,
	IB_MTU_4096 = 5,
};

static inline int ib_mtu_enum_to_int(enum ib_mtu mtu)
{
	return mtu >= IB_MTU_256 && mtu <= IB_MTU_4096 ? 128 << mtu : -1;
}

enum ib_port_width {
	IB_WIDTH_1X = 1,
	IB_WIDTH_2X = 16,
	IB_WIDTH_4X = 2,
	IB_WIDTH_8X = 4,
	IB_WIDTH_12X = 8,
};

enum ib_port_speed {
	IB_SPEED_SDR = 1,
	IB_SPEED_DDR = 2,
	IB_SPEED_QDR = 4,
	IB_SPEED_FDR10 = 8,
	IB_SPEED_FDR = 16,
	IB_SPEED_EDR = 32,
	IB_SPEED_HDR = 64,
	IB_SPEED_NDR = 128,
};

enum ib_atomic_cap {
	IB_ATOMIC_NONE,
	IB_ATOMIC_HCA,
	IB_ATOMIC_GLOB,
};

/* Device capability bits (IBTA, the values ibv_devinfo decodes). */
#define IB_DEVICE_RESIZE_MAX_WR		(1ULL << 0)
#define IB_DEVICE_BAD_PKEY_CNTR		(1ULL << 1)
#define IB_DEVICE_BAD_QKEY_CNTR		(1ULL << 2)
#define IB_DEVICE_RAW_MULTI		(1ULL << 3)
#define IB_DEVICE_AUTO_PATH_MIG		(1ULL << 4)
#define IB_DEVICE_CHANGE_PHY_PORT	(1ULL << 5)
#define IB_DEVICE_UD_AV_PORT_ENFORCE	(1ULL << 6)
#define IB_DEVICE_CURR_QP_STATE_MOD	(1ULL << 7)
#define IB_DEVICE_SHUTDOWN_PORT		(1ULL << 8)
#define IB_DEVICE_PORT_ACTIVE_EVENT	(1ULL << 10)
#define IB_DEVICE_SYS_IMAGE_GUID	(1ULL << 11)
#define IB_DEVICE_RC_RNR_NAK_GEN	(1ULL << 12)
#define IB_DEVICE_SRQ_RESIZE		(1ULL << 13)
#define IB_DEVICE_N_NOTIFY_CQ		(1ULL << 14)
#define IB_DEVICE_MEM_WINDOW		(1ULL << 17)
#define IB_DEVICE_UD_IP_CSUM		(1ULL << 18)
#define IB_DEVICE_XRC			(1ULL << 20)
#define IB_DEVICE_MEM_MGT_EXTENSIONS	(1ULL << 21)
#define IB_DEVICE_MEM_WINDOW_TYPE_2A	(1ULL << 23)
#define IB_DEVICE_MEM_WINDOW_TYPE_2B	(1ULL << 24)
/* 6.2's UAPI names it IB_UVERBS_DEVICE_ATOMIC_WRITE; 6.1's lacks the bit. */
#define IB_DEVICE_ATOMIC_WRITE		(1ULL << 40)
#define IB_DEVICE_FLUSH_GLOBAL		IB_UVERBS_DEVICE_FLUSH_GLOBAL
#define IB_DEVICE_FLUSH_PERSISTENT	IB_UVERBS_DEVICE_FLUSH_PERSISTENT
#ifdef ORDMA_UAPI_HAS_FLUSH
/* the values compat.h gives 6.1 are this UAPI's */
static_assert(IB_UVERBS_WR_FLUSH == ORDMA_ABI_WR_FLUSH &&
	      IB_UVERBS_WC_FLUSH == ORDMA_ABI_WC_FLUSH &&
	      IB_UVERBS_ACCESS_FLUSH_GLOBAL == ORDMA_ABI_ACCESS_FLUSH_GLOBAL &&
	      IB_UVERBS_ACCESS_FLUSH_PERSISTENT ==
	      ORDMA_ABI_ACCESS_FLUSH_PERSISTENT &&
	      IB_UVERBS_DEVICE_FLUSH_GLOBAL == ORDMA_ABI_DEVICE_FLUSH_GLOBAL &&
	      IB_UVERBS_DEVICE_FLUSH_PERSISTENT ==
	      ORDMA_ABI_DEVICE_FLUSH_PERSISTENT);
#endif

/* PortInfo:CapabilityMask bits used by the drivers here. */
#define IB_PORT_CM_SUP			(1U << 16)

/* What a port speaks: the core's view, used to pick GID types and such. */
#define RDMA_CORE_CAP_IB_MAD		0x00000001
#define RDMA_CORE_CAP_PROT_ROCE_UDP_ENCAP 0x00800000
#define RDMA_CORE_PORT_IBA_ROCE_UDP_ENCAP \
	(RDMA_CORE_CAP_PROT_ROCE_UDP_ENCAP | RDMA_CORE_CAP_IB_MAD)

enum rdma_link_layer {
	IB_LINK_LAYER_UNSPECIFIED,
	IB_LINK_LAYER_INFINIBAND,
	IB_LINK_LAYER_ETHERNET,
};

struct ib_device_attr {
	u64 fw_ver;
	__be64 sys_image_guid;
	u64 max_mr_size;
	u64 page_size_cap;
	u32 vendor_id;
	u32 vendor_part_id;
	u32 hw_ver;
	int max_qp;
	int max_qp_wr;
	u64 device_cap_flags;
	int max_send_sge;
	int max_recv_sge;
	int max_sge_rd;
	int max_cq;
	int max_cqe;
	int max_mr;
	int max_pd;
	int max_qp_rd_atom;
	int max_ee_rd_atom;
	int max_res_rd_atom;
	int max_qp_init_rd_atom;
	int max_ee_init_rd_atom;
	enum ib_atomic_cap atomic_cap;
	int max_ee;
	int max_rdd;
	int max_mw;
	int max_raw_ipv6_qp;
	int max_raw_ethy_qp;
	int max_mcast_grp;
	int max_mcast_qp_attach;
	int max_total_mcast_qp_attach;
	int max_ah;
	int max_srq;
	int max_srq_wr;
	int max_srq_sge;
	unsigned int max_fast_reg_page_list_len;
	u16 max_pkeys;
	u8 local_ca_ack_delay;
	u64 timestamp_mask;
	u64 hca_core_clock;
	u32 max_cq_moderation_count;
	u32 max_cq_moderation_period;
};

struct ib_port_attr {
	u64 subnet_prefix;
	enum ib_port_state state;
	enum ib_mtu max_mtu;
	enum ib_mtu active_mtu;
	u32 phys_mtu;
	int gid_tbl_len;
	u32 port_cap_flags;
	u32 max_msg_sz;
	u32 bad_pkey_cntr;
	u32 qkey_viol_cntr;
	u16 pkey_tbl_len;
	u32 sm_lid;
	u32 lid;
	u8 lmc;
	u8 max_vl_num;
	u8 sm_sl;
	u8 subnet_timeout;
	u8 init_type_reply;
	u8 active_width;
	u16 active_speed;
	u8 phys_state;
	u16 port_cap_flags2;
};

/* Fixed per-port facts, read once at registration. */
struct ib_port_immutable {
	int pkey_tbl_len;
	int gid_tbl_len;
	u32 core_cap_flags;
	u32 max_mad_size;
};

union ib_gid {
	u8 raw[16];
	struct {
		__be64 subnet_prefix;
		__be64 interface_id;
	} global;
};

/*
 * One GID table entry as readers see it.  Entries are reference counted:
 * a reader holding one keeps its netdev and contents stable even if the
 * address behind it goes away meanwhile.
 */
struct ib_gid_attr {
	struct net_device __rcu *ndev;
	struct ib_device *device;
	union ib_gid gid;
	enum ib_uverbs_gid_type gid_type;
	u16 index;
	u32 port_num;
};

/*
 * Asynchronous events (IBTA 11.6.3).  The values are what ib_uverbs hands
 * to userspace as event_type, and libibverbs' enum ibv_event_type matches.
 */
enum ib_event_type {
	IB_EVENT_CQ_ERR,
	IB_EVENT_QP_FATAL,
	IB_EVENT_QP_REQ_ERR,
	IB_EVENT_QP_ACCESS_ERR,
	IB_EVENT_COMM_EST,
	IB_EVENT_SQ_DRAINED,
	IB_EVENT_PATH_MIG,
	IB_EVENT_PATH_MIG_ERR,
	IB_EVENT_DEVICE_FATAL,
	IB_EVENT_PORT_ACTIVE,
	IB_EVENT_PORT_ERR,
	IB_EVENT_LID_CHANGE,
	IB_EVENT_PKEY_CHANGE,
	IB_EVENT_SM_CHANGE,
	IB_EVENT_SRQ_ERR,
	IB_EVENT_SRQ_LIMIT_REACHED,
	IB_EVENT_QP_LAST_WQE_REACHED,
	IB_EVENT_CLIENT_REREGISTER,
	IB_EVENT_GID_CHANGE,
	IB_EVENT_WQ_FATAL,
};

struct ib_cq;
struct ib_qp;
struct ib_srq;

struct ib_event {
	struct ib_device *device;
	enum ib_event_type event;
	u32 port_num;
	/*
	 * The object of a per-object event: IB_EVENT_CQ_ERR the CQ;
	 * IB_EVENT_QP_* / COMM_EST / SQ_DRAINED / QP_LAST_WQE_REACHED the QP;
	 * IB_EVENT_SRQ_* the SRQ.  Per-object events go to the object's own
	 * event_handler, never through ib_dispatch_event().
	 */
	struct ib_cq *cq;
	struct ib_qp *qp;
	struct ib_srq *srq;
};

struct ib_event_handler {
	struct ib_device *device;
	void (*handler)(struct ib_event_handler *handler, struct ib_event *ev);
	struct list_head list;
};

struct ib_ucontext;

/*
 * The driver's part of a command: its private request and response.
 * @uctx is the ucontext the command acts in, for drivers that export
 * memory to it (set by ib_uverbs when it calls the driver, else NULL).
 */
struct ib_udata {
	const void __user *inbuf;
	void __user *outbuf;
	size_t inlen;
	size_t outlen;
	struct ib_ucontext *uctx;
};

struct ib_ucontext {
	struct ib_device *device;
	struct ib_uverbs_file *ufile;	/* owned by ib_uverbs */
	struct xarray mmap_xa;		/* mmap page offset -> ib_mmap_buf */
	struct ib_mmap_file *mmap_file;	/* the command file's, set by ib_uverbs */
};

struct ib_pd {
	struct ib_device *device;
	struct ib_uobject *uobject;	/* NULL for a kernel PD */
	atomic_t usecnt;	/* objects that reference this PD */
	/*
	 * Kernel PDs (ib_alloc_pd()): an lkey valid for any directly mapped
	 * kernel memory (kmalloc, page_address) of this PD, local write
	 * allowed; the SGE address is what ib_dma_map_single() returned.
	 */
	u32 local_dma_lkey;
	struct ib_mr *internal_mr;	/* the MR behind local_dma_lkey */
};

/* Completion queues */

enum ib_cq_notify_flags {
	IB_CQ_SOLICITED			= 1 << 0,
	IB_CQ_NEXT_COMP			= 1 << 1,
	IB_CQ_SOLICITED_MASK		= IB_CQ_SOLICITED | IB_CQ_NEXT_COMP,
	/* req_notify_cq returns 1 if completions are already waiting */
	IB_CQ_REPORT_MISSED_EVENTS	= 1 << 2,
};

struct ib_cq_init_attr {
	unsigned int cqe;	/* as asked; a driver may round it up */
	u32 comp_vector;
	u32 flags;		/* enum ib_uverbs_ex_create_cq_flags */
};

typedef void (*ib_comp_handler)(struct ib_cq *cq, void *cq_context);

/*
 * A completion queue.  The creator sets the handlers: @comp_handler runs
 * when an armed CQ gets a completion, @event_handler on IB_EVENT_CQ_ERR
 * (a completion was lost because the CQ was full); both get @cq_context
 * and may be called from any context, including hard interrupts.
 */
struct ib_cq {
	struct ib_device *device;
	struct ib_uobject *uobject;
	ib_comp_handler comp_handler;
	void (*event_handler)(struct ib_event *event, void *cq_context);
	void *cq_context;
	int cqe;		/* capacity, set by the driver */
	atomic_t usecnt;	/* QPs and SRQs using it: no destroy while > 0 */
	/* Kernel CQs of ib_alloc_cq() (core/verbs.c): the core's poller. */
	int poll_ctx;			/* enum ib_poll_context */
	bool poll_stopping;		/* ib_free_cq() began */
	struct ib_wc *poll_wc;		/* a batch of completions */
	struct work_struct poll_work;
	/* Shared CQs of ib_cq_pool_get() (core/cq_pool.c). */
	bool shared;			/* in a device's pool: not ib_free_cq() */
	u32 comp_vector;
	unsigned int cqe_used;		/* handed out, under cq_pools_lock */
	struct list_head pool_entry;
};

/* Memory regions and windows */

/* Access rights to memory: the values of the UAPI. */
#define IB_ACCESS_LOCAL_WRITE		IB_UVERBS_ACCESS_LOCAL_WRITE
#define IB_ACCESS_REMOTE_WRITE		IB_UVERBS_ACCESS_REMOTE_WRITE
#define IB_ACCESS_REMOTE_READ		IB_UVERBS_ACCESS_REMOTE_READ
#define IB_ACCESS_REMOTE_ATOMIC		IB_UVERBS_ACCESS_REMOTE_ATOMIC
#define IB_ACCESS_MW_BIND		IB_UVERBS_ACCESS_MW_BIND
#define IB_ACCESS_ZERO_BASED		IB_UVERBS_ACCESS_ZERO_BASED
#define IB_ACCESS_ON_DEMAND		IB_UVERBS_ACCESS_ON_DEMAND
#define IB_ACCESS_HUGETLB		IB_UVERBS_ACCESS_HUGETLB
#define IB_ACCESS_RELAXED_ORDERING	IB_UVERBS_ACCESS_RELAXED_ORDERING
/* Bits a driver may ignore: userspace sets them as hints. */
#define IB_ACCESS_OPTIONAL		IB_UVERBS_ACCESS_OPTIONAL_RANGE
#define IB_ACCESS_FLUSH_GLOBAL		IB_UVERBS_ACCESS_FLUSH_GLOBAL
#define IB_ACCESS_FLUSH_PERSISTENT	IB_UVERBS_ACCESS_FLUSH_PERSISTENT
#define IB_ACCESS_FLUSH \
	(IB_ACCESS_FLUSH_GLOBAL | IB_ACCESS_FLUSH_PERSISTENT)
/* Everything our verbs know, on every kernel line (compat.h: FLUSH). */
#define IB_ACCESS_SUPPORTED \
	(((IB_ACCESS_FLUSH_PERSISTENT << 1) - 1) | IB_ACCESS_OPTIONAL)
#define IB_ACCESS_REMOTE \
	(IB_ACCESS_REMOTE_READ | IB_ACCESS_REMOTE_WRITE | IB_ACCESS_REMOTE_ATOMIC)

/* Whether memory with these rights can be written by the device. */
static inline bool ib_access_writable(int access)
{
	return access & (IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_WRITE |
			 IB_ACCESS_REMOTE_ATOMIC | IB_ACCESS_MW_BIND);
}

/* What REREG_MR changes (its flags field). */
#define IB_MR_REREG_TRANS	(1 << 0)	/* address, length, iova */
#define IB_MR_REREG_PD		(1 << 1)
#define IB_MR_REREG_ACCESS	(1 << 2)
#define IB_MR_REREG_SUPPORTED	((IB_MR_REREG_ACCESS << 1) - 1)

/* What ib_alloc_mr() makes: in-tree's values; only MEM_REG here. */
enum ib_mr_type {
	IB_MR_TYPE_MEM_REG,	/* fast registration: page list, REG_MR */
	IB_MR_TYPE_SG_GAPS,
	IB_MR_TYPE_DM,
	IB_MR_TYPE_USER,
	IB_MR_TYPE_DMA,
	IB_MR_TYPE_INTEGRITY,
};

/*
 * A memory region.  The caller of reg_user_mr sets @device, @pd,
 * @uobject; the driver sets the rest.  For a fast-registration MR
 * (ib_alloc_mr()) ib_map_mr_sg() sets @iova, @length and @page_size,
 * and the consumer's ib_update_fast_reg_key() the low 8 bits of the
 * keys; the device honours them from the IB_WR_REG_MR on.
 */
struct ib_mr {
	struct ib_device *device;
	struct ib_pd *pd;
	struct ib_uobject *uobject;
	u32 lkey;
	u32 rkey;
	u64 iova;		/* the address the device sees for byte 0 */
	u64 length;
	int access;		/* IB_ACCESS_* */
	enum ib_mr_type type;	/* IB_MR_TYPE_USER / _DMA / _MEM_REG */
	unsigned int page_size;	/* MEM_REG: of the page list */
	struct list_head qp_entry;	/* on a QP's MR pool (core/mr_pool.c) */
};

enum ib_mw_type {
	IB_MW_TYPE_1 = 1,
	IB_MW_TYPE_2 = 2,
};

struct ib_mw {
	struct ib_device *device;
	struct ib_pd *pd;
	struct ib_uobject *uobject;
	u32 rkey;
	enum ib_mw_type type;
};

/* ------------------------------------------------------------------ */
/* Address handles, shared receive queues, queue pairs                 */
/* ------------------------------------------------------------------ */

/*
 * A RoCE address vector (the GRH fields plus the port).  @sgid_attr is
 * the GID table entry @sgid_index names, resolved and referenced by the
 * caller (ib_uverbs) for the duration of the driver call only: a driver
 * copies what it needs.  @dmac is not resolved by the core: RoCEv2
 * drivers send through the IP stack, which does neighbour resolution.
 */
struct ib_ah_attr {
	union ib_gid dgid;
	u32 flow_label;
	u8 sgid_index;
	u8 hop_limit;
	u8 traffic_class;
	u8 sl;
	u8 static_rate;
	u8 is_global;
	u32 port_num;
	u16 dlid;		/* kept for query, meaningless on RoCE */
	u8 src_path_bits;
	const struct ib_gid_attr *sgid_attr;
};

/* An address handle: used by UD work requests (librxe: by number). */
struct ib_ah {
	struct ib_device *device;
	struct ib_pd *pd;
	struct ib_uobject *uobject;
	struct ib_ah_attr attr;		/* as created; sgid_attr is NULL */
};

enum ib_srq_type {
	IB_SRQT_BASIC = IB_UVERBS_SRQT_BASIC,
	IB_SRQT_XRC = IB_UVERBS_SRQT_XRC,
	IB_SRQT_TM = IB_UVERBS_SRQT_TM,
};

/* MODIFY_SRQ's mask (enum ibv_srq_attr_mask). */
#define IB_SRQ_MAX_WR	(1 << 0)
#define IB_SRQ_LIMIT	(1 << 1)

struct ib_srq_attr {
	u32 max_wr;
	u32 max_sge;
	u32 srq_limit;	/* armed: SRQ_LIMIT_REACHED when fewer WQEs remain */
};

struct ib_srq_init_attr {
	void (*event_handler)(struct ib_event *event, void *srq_context);
	void *srq_context;
	struct ib_srq_attr attr;	/* the driver writes back what it made */
	enum ib_srq_type srq_type;
};

/*
 * A shared receive queue.  The creator sets @event_handler (called with
 * IB_EVENT_SRQ_LIMIT_REACHED / IB_EVENT_SRQ_ERR, any context) and
 * @srq_context.  @usecnt counts the QPs using it: no destroy while > 0.
 */
struct ib_srq {
	struct ib_device *device;
	struct ib_pd *pd;
	struct ib_uobject *uobject;
	void (*event_handler)(struct ib_event *event, void *srq_context);
	void *srq_context;
	enum ib_srq_type srq_type;
	atomic_t usecnt;
};

/* QP types, QP states and the Modify QP mask: <ordma/qp_state.h>. */

enum ib_mig_state {
	IB_MIG_MIGRATED,
	IB_MIG_REARM,
	IB_MIG_ARMED,
};

enum ib_sig_type {
	IB_SIGNAL_ALL_WR,	/* every send WR completes */
	IB_SIGNAL_REQ_WR,	/* only those with IB_SEND_SIGNALED */
};

/* Send flags of a WR (enum ibv_send_flags). */
#define IB_SEND_FENCE		(1 << 0)
#define IB_SEND_SIGNALED	(1 << 1)
#define IB_SEND_SOLICITED	(1 << 2)
#define IB_SEND_INLINE		(1 << 3)
#define IB_SEND_IP_CSUM		(1 << 4)

struct ib_qp_cap {
	u32 max_send_wr;
	u32 max_recv_wr;
	u32 max_send_sge;
	u32 max_recv_sge;
	u32 max_inline_data;
	/*
	 * Kernel QPs only: read/write contexts (<ordma/rw.h>) the consumer
	 * keeps in flight at once; ib_create_qp() adds their WRs to
	 * @max_send_wr.
	 */
	u32 max_rdma_ctxs;
};

/*
 * What CREATE_QP asks for.  The CQs and SRQ are referenced by the caller
 * for the QP's lifetime (their usecnt).  The driver writes back in @cap
 * what it really made.
 */
struct ib_qp_init_attr {
	struct ib_cq *send_cq;
	struct ib_cq *recv_cq;
	struct ib_srq *srq;		/* or NULL */
	struct ib_qp_cap cap;
	enum ib_sig_type sq_sig_type;
	enum ib_qp_type qp_type;
	u32 create_flags;		/* enum ib_uverbs_qp_create_flags */
	u32 port_num;			/* special QPs only */
	/* Copied into struct ib_qp (for uverbs: its uobject's handler). */
	void (*event_handler)(struct ib_event *event, void *qp_context);
	void *qp_context;
};

/*
 * The attributes MODIFY_QP sets and QUERY_QP reports; a mask of IB_QP_*
 * says which are meant.  For IB_QP_AV / IB_QP_ALT_PATH the caller has
 * resolved ah_attr.sgid_attr (NULL when !is_global, not possible on RoCE:
 * the caller rejects that).
 */
struct ib_qp_attr {
	enum ib_qp_state qp_state;
	enum ib_qp_state cur_qp_state;
	enum ib_mtu path_mtu;
	enum ib_mig_state path_mig_state;
	u32 qkey;
	u32 rq_psn;
	u32 sq_psn;
	u32 dest_qp_num;
	int qp_access_flags;
	struct ib_qp_cap cap;
	struct ib_ah_attr ah_attr;
	struct ib_ah_attr alt_ah_attr;
	u16 pkey_index;
	u16 alt_pkey_index;
	u8 en_sqd_async_notify;
	u8 sq_draining;
	u8 max_rd_atomic;
	u8 max_dest_rd_atomic;
	u8 min_rnr_timer;
	u32 port_num;
	u8 timeout;
	u8 retry_cnt;
	u8 rnr_retry;
	u32 alt_port_num;
	u8 alt_timeout;
	u32 rate_limit;
};

/*
 * A queue pair.  The caller of create_qp sets everything but @qp_num,
 * which the driver sets.  @event_handler gets the QP's async events (any
 * context).  @usecnt counts multicast attachments and such: no destroy
 * while > 0 is not enforced for those (destroy detaches).
 */
struct ib_qp {
	struct ib_device *device;
	struct ib_pd *pd;
	struct ib_cq *send_cq;
	struct ib_cq *recv_cq;
	struct ib_srq *srq;
	struct ib_uobject *uobject;
	void (*event_handler)(struct ib_event *event, void *qp_context);
	void *qp_context;
	u32 qp_num;
	enum ib_qp_type qp_type;
	u32 port_num;
	/* MR pools of kernel consumers (core/mr_pool.c), under mr_lock. */
	spinlock_t mr_lock;
	int mrs_used;			/* taken out of any pool */
	struct list_head rdma_mrs;
	struct list_head sig_mrs;
	/* SGEs one RDMA WRITE / READ WR may carry (the made caps). */
	u32 max_write_sge;
	u32 max_read_sge;
};

/*
 * Work completion status (IBTA 11.4.2.1), what goes into
 * ib_uverbs_wc.status; libibverbs' enum ibv_wc_status matches.  Opcodes
 * are the UAPI's IB_UVERBS_WC_* plus the receive ones below.
 */
enum ib_wc_status {
	IB_WC_SUCCESS,
	IB_WC_LOC_LEN_ERR,
	IB_WC_LOC_QP_OP_ERR,
	IB_WC_LOC_EEC_OP_ERR,
	IB_WC_LOC_PROT_ERR,
	IB_WC_WR_FLUSH_ERR,
	IB_WC_MW_BIND_ERR,
	IB_WC_BAD_RESP_ERR,
	IB_WC_LOC_ACCESS_ERR,
	IB_WC_REM_INV_REQ_ERR,
	IB_WC_REM_ACCESS_ERR,
	IB_WC_REM_OP_ERR,
	IB_WC_RETRY_EXC_ERR,
	IB_WC_RNR_RETRY_EXC_ERR,
	IB_WC_LOC_RDD_VIOL_ERR,
	IB_WC_REM_INV_RD_REQ_ERR,
	IB_WC_REM_ABORT_ERR,
	IB_WC_INV_EECN_ERR,
	IB_WC_INV_EEC_STATE_ERR,
	IB_WC_FATAL_ERR,
	IB_WC_RESP_TIMEOUT_ERR,
	IB_WC_GENERAL_ERR,
};

/* Receive-side completion opcodes (enum ibv_wc_opcode). */
#define IB_WC_RECV			(1 << 7)
#define IB_WC_RECV_RDMA_WITH_IMM	(IB_WC_RECV + 1)

/* ib_uverbs_wc.wc_flags (enum ibv_wc_flags). */
#define IB_WC_GRH			(1 << 0)
#define IB_WC_WITH_IMM			(1 << 1)
#define IB_WC_WITH_INVALIDATE		(1 << 3)

/* ------------------------------------------------------------------ */
/* Work requests and completions of kernel consumers                   */
/* ------------------------------------------------------------------ */

/* Send opcodes: the UAPI's values (enum ib_uverbs_wr_opcode). */
enum ib_wr_opcode {
	IB_WR_RDMA_WRITE = IB_UVERBS_WR_RDMA_WRITE,
	IB_WR_RDMA_WRITE_WITH_IMM = IB_UVERBS_WR_RDMA_WRITE_WITH_IMM,
	IB_WR_SEND = IB_UVERBS_WR_SEND,
	IB_WR_SEND_WITH_IMM = IB_UVERBS_WR_SEND_WITH_IMM,
	IB_WR_RDMA_READ = IB_UVERBS_WR_RDMA_READ,
	IB_WR_ATOMIC_CMP_AND_SWP = IB_UVERBS_WR_ATOMIC_CMP_AND_SWP,
	IB_WR_ATOMIC_FETCH_AND_ADD = IB_UVERBS_WR_ATOMIC_FETCH_AND_ADD,
	IB_WR_LOCAL_INV = IB_UVERBS_WR_LOCAL_INV,
	IB_WR_SEND_WITH_INV = IB_UVERBS_WR_SEND_WITH_INV,
	/* kernel QPs only (struct ib_reg_wr): past the UAPI's opcodes */
	IB_WR_REG_MR = 0x20,
};

/* Send-side completion opcodes (enum ib_uverbs_wc_opcode). */
#define IB_WC_SEND			IB_UVERBS_WC_SEND
#define IB_WC_RDMA_WRITE		IB_UVERBS_WC_RDMA_WRITE
#define IB_WC_RDMA_READ			IB_UVERBS_WC_RDMA_READ
#define IB_WC_COMP_SWAP			IB_UVERBS_WC_COMP_SWAP
#define IB_WC_FETCH_ADD			IB_UVERBS_WC_FETCH_ADD
#define IB_WC_LOCAL_INV			IB_UVERBS_WC_LOCAL_INV
#define IB_WC_REG_MR			0x20	/* kernel QPs only */

/* What a RoCE receive came over (ib_wc.network_hdr_type). */
enum rdma_network_type {
	RDMA_NETWORK_IB,
	RDMA_NETWORK_ROCE_V1,
	RDMA_NETWORK_IPV4,
	RDMA_NETWORK_IPV6,
};

/* ib_wc.wc_flags beyond the UAPI's: network_hdr_type is valid. */
#define IB_WC_WITH_NETWORK_HDR_TYPE	(1 << 7)

/*
 * A gather/scatter element.  For kernel consumers of software devices
 * @addr is a kernel virtual address of directly mapped memory (what
 * ib_dma_map_single() returns) and @lkey usually pd->local_dma_lkey.
 */
struct ib_sge {
	u64 addr;
	u32 length;
	u32 lkey;
};

struct ib_wc;

/*
 * Completion callback of a CQ made by ib_alloc_cq(): a WR carries a
 * pointer to one of these (usually embedded in the consumer's request)
 * in place of a wr_id, and the core calls ->done() for its completion.
 */
struct ib_cqe {
	void (*done)(struct ib_cq *cq, struct ib_wc *wc);
};

struct ib_send_wr {
	struct ib_send_wr *next;
	union {
		u64 wr_id;
		struct ib_cqe *wr_cqe;
	};
	struct ib_sge *sg_list;
	int num_sge;
	enum ib_wr_opcode opcode;
	int send_flags;		/* IB_SEND_* */
	union {
		__be32 imm_data;
		u32 invalidate_rkey;
	} ex;
};

/* A send on a UD QP (or the GSI QP): where it goes. */
struct ib_ud_wr {
	struct ib_send_wr wr;
	struct ib_ah *ah;
	u32 remote_qpn;
	u32 remote_qkey;
	u16 pkey_index;		/* GSI QP only */
};

static inline const struct ib_ud_wr *ud_wr(const struct ib_send_wr *wr)
{
	return container_of(wr, struct ib_ud_wr, wr);
}

/* RDMA write/read. */
struct ib_rdma_wr {
	struct ib_send_wr wr;
	u64 remote_addr;
	u32 rkey;
};

static inline const struct ib_rdma_wr *rdma_wr(const struct ib_send_wr *wr)
{
	return container_of(wr, struct ib_rdma_wr, wr);
}

/*
 * Fast registration of @mr (IB_MR_TYPE_MEM_REG, mapped by ib_map_mr_sg())
 * under @key (its keys with the low 8 bits the consumer chose) with
 * @access.  The MR must be invalid (fresh, or after an invalidation).
 */
struct ib_reg_wr {
	struct ib_send_wr wr;
	struct ib_mr *mr;
	u32 key;
	int access;
};

static inline const struct ib_reg_wr *reg_wr(const struct ib_send_wr *wr)
{
	return container_of(wr, struct ib_reg_wr, wr);
}

struct ib_recv_wr {
	struct ib_recv_wr *next;
	union {
		u64 wr_id;
		struct ib_cqe *wr_cqe;
	};
	struct ib_sge *sg_list;
	int num_sge;
};

/*
 * A completion as kernel consumers see it.  For a receive on a UD or GSI
 * QP over RoCE, the first 40 bytes of the buffer hold the GRH slot: the
 * IPv6 header, or for IPv4 20 zero bytes then the IPv4 header
 * (@network_hdr_type says which; IB_WC_GRH is set).
 */
struct ib_wc {
	union {
		u64 wr_id;
		struct ib_cqe *wr_cqe;
	};
	enum ib_wc_status status;
	int opcode;		/* IB_WC_SEND ... IB_WC_RECV ... */
	u32 vendor_err;
	u32 byte_len;		/* receives: includes the 40-byte GRH slot */
	struct ib_qp *qp;
	union {
		__be32 imm_data;
		u32 invalidate_rkey;
	} ex;
	u32 src_qp;
	u32 slid;
	int wc_flags;		/* IB_WC_GRH, IB_WC_WITH_IMM, ... */
	u16 pkey_index;
	u8 sl;
	u8 dlid_path_bits;
	u32 port_num;		/* GSI QP receives */
	u8 network_hdr_type;	/* enum rdma_network_type */
};

/* hw_counters: names from the driver, values read on demand. */
struct rdma_stat_desc {
	const char *name;
};

struct rdma_hw_stats {
	const struct rdma_stat_desc *descs;
	int num_counters;
	u64 value[];
};

struct ib_device;
struct vm_area_struct;

/*
 * What a driver implements.  Its objects are allocated by the caller
 * (ib_uverbs): size_* says how large the driver's structure embedding the
 * core's is (the core's must be its first member); the caller zeroes it,
 * sets ->device and calls alloc_*, and after dealloc_* frees it.
 */
struct ib_device_ops {
	struct module *owner;
	u32 driver_id;		/* enum rdma_driver_id */
	u32 uverbs_abi_ver;	/* the provider's ABI, sent at GET_CONTEXT */

	int (*query_device)(struct ib_device *ibdev, struct ib_device_attr *attr,
			    struct ib_udata *udata);
	int (*query_port)(struct ib_device *ibdev, u32 port,
			  struct ib_port_attr *attr);
	int (*get_port_immutable)(struct ib_device *ibdev, u32 port,
				  struct ib_port_immutable *immutable);
	enum rdma_link_layer (*get_link_layer)(struct ib_device *ibdev,
					       u32 port);
	int (*query_pkey)(struct ib_device *ibdev, u32 port, u16 index,
			  u16 *pkey);
	int (*modify_device)(struct ib_device *ibdev, const char *node_desc);

	int (*alloc_ucontext)(struct ib_ucontext *uctx, struct ib_udata *udata);
	void (*dealloc_ucontext)(struct ib_ucontext *uctx);
	int (*alloc_pd)(struct ib_pd *pd, struct ib_udata *udata);
	int (*dealloc_pd)(struct ib_pd *pd, struct ib_udata *udata);

	/*
	 * mmap() of the command fd by a process with @uctx: map what the
	 * driver exported (with ib_mmap_buf_alloc(), then ib_mmap_buf_map()).
	 */
	int (*mmap)(struct ib_ucontext *uctx, struct vm_area_struct *vma);

	/*
	 * CQs.  destroy_cq is only called when cq->usecnt is zero and must
	 * not fail then except for a driver's own reasons; once it returns
	 * 0 neither handler of the CQ runs any more.  resize_cq sets
	 * cq->cqe.  req_notify_cq arms the CQ for the next completion
	 * (IB_CQ_NEXT_COMP) or the next solicited one (IB_CQ_SOLICITED).
	 */
	int (*create_cq)(struct ib_cq *cq, const struct ib_cq_init_attr *attr,
			 struct ib_udata *udata);
	int (*destroy_cq)(struct ib_cq *cq, struct ib_udata *udata);
	int (*resize_cq)(struct ib_cq *cq, int cqe, struct ib_udata *udata);
	int (*req_notify_cq)(struct ib_cq *cq, enum ib_cq_notify_flags flags);

	/*
	 * MRs of user memory.  The caller checked @access against
	 * IB_ACCESS_SUPPORTED and the local-write rule.  rereg_user_mr
	 * changes what @flags (IB_MR_REREG_*) say in place: on success the
	 * driver has updated mr->pd (to @pd), iova, length, access and keys;
	 * on failure the MR is unchanged.  The caller moves the PD usecnt.
	 */
	int (*reg_user_mr)(struct ib_mr *mr, u64 start, u64 length, u64 iova,
			   int access, struct ib_udata *udata);
	int (*rereg_user_mr)(struct ib_mr *mr, int flags, u64 start,
			     u64 length, u64 iova, int access,
			     struct ib_pd *pd, struct ib_udata *udata);
	int (*dereg_mr)(struct ib_mr *mr, struct ib_udata *udata);
	int (*alloc_mw)(struct ib_mw *mw, struct ib_udata *udata);
	int (*dealloc_mw)(struct ib_mw *mw);

	/*
	 * Address handles.  create_ah gets the attributes with sgid_attr
	 * resolved; the driver's response (udata) tells librxe the AH's
	 * number.  destroy_ah cannot fail.
	 */
	int (*create_ah)(struct ib_ah *ah, struct ib_ah_attr *attr,
			 struct ib_udata *udata);
	int (*destroy_ah)(struct ib_ah *ah);

	/*
	 * SRQs.  destroy_srq is only called when srq->usecnt is zero.
	 * modify_srq's @mask is IB_SRQ_MAX_WR | IB_SRQ_LIMIT.
	 */
	int (*create_srq)(struct ib_srq *srq, struct ib_srq_init_attr *init,
			  struct ib_udata *udata);
	int (*modify_srq)(struct ib_srq *srq, struct ib_srq_attr *attr,
			  int mask, struct ib_udata *udata);
	int (*query_srq)(struct ib_srq *srq, struct ib_srq_attr *attr);
	int (*destroy_srq)(struct ib_srq *srq, struct ib_udata *udata);

	/*
	 * QPs.  create_qp sets qp->qp_num and writes back init->cap.
	 * modify_qp checks the transition and the mask against the QP type
	 * (IBTA 10.3.1 and its tables; -EINVAL when illegal).  query_qp
	 * fills @attr and @init (caps, sig type) whatever @mask says.
	 * destroy_qp stops all processing of the QP before returning.
	 * post_send / post_recv: userspace rang the doorbell after writing
	 * WQEs into the shared rings (librxe's POST_SEND with no WR).
	 */
	int (*create_qp)(struct ib_qp *qp, struct ib_qp_init_attr *init,
			 struct ib_udata *udata);
	int (*modify_qp)(struct ib_qp *qp, struct ib_qp_attr *attr, int mask,
			 struct ib_udata *udata);
	int (*query_qp)(struct ib_qp *qp, struct ib_qp_attr *attr, int mask,
			struct ib_qp_init_attr *init);
	int (*destroy_qp)(struct ib_qp *qp, struct ib_udata *udata);
	int (*post_send)(struct ib_qp *qp);
	int (*post_recv)(struct ib_qp *qp);

	/*
	 * Kernel consumers (udata NULL above; objects without a uobject).
	 * post_send_wrs / post_recv_wrs queue a list of work requests of a
	 * kernel QP (any context, no sleeping); on error *bad_wr names the
	 * first WR not queued.  poll_cq takes up to @num completions of a
	 * kernel CQ.  get_dma_mr makes the MR behind pd->local_dma_lkey.
	 */
	int (*post_send_wrs)(struct ib_qp *qp, const struct ib_send_wr *wr,
			     const struct ib_send_wr **bad_wr);
	int (*post_recv_wrs)(struct ib_qp *qp, const struct ib_recv_wr *wr,
			     const struct ib_recv_wr **bad_wr);
	int (*poll_cq)(struct ib_cq *cq, int num, struct ib_wc *wc);
	int (*get_dma_mr)(struct ib_mr *mr, int access);
	/*
	 * Optional: a driver's own ib_drain_sq()/ib_drain_rq() (the QP is
	 * in any state; on return every WR posted before is completed).
	 * Without them the core moves the QP to ERR and waits for a marker.
	 */
	void (*drain_sq)(struct ib_qp *qp);
	void (*drain_rq)(struct ib_qp *qp);
	/*
	 * Fast registration: alloc_mr makes an invalid MR of @type with room
	 * for @max_num_sg pages (its keys set, released by dereg_mr);
	 * map_mr_sg loads its page list from DMA-mapped @sg, as
	 * ib_sg_to_pages() does, at mr->page_size.
	 */
	int (*alloc_mr)(struct ib_mr *mr, enum ib_mr_type type, u32 max_num_sg);
	int (*map_mr_sg)(struct ib_mr *mr, struct scatterlist *sg, int sg_nents,
			 unsigned int *sg_offset);
	int (*attach_mcast)(struct ib_qp *qp, const union ib_gid *gid);
	int (*detach_mcast)(struct ib_qp *qp, const union ib_gid *gid);

	/* hw_counters of a port (sysfs and `rdma statistic`) */
	struct rdma_hw_stats *(*alloc_hw_port_stats)(struct ib_device *ibdev,
						     u32 port);
	int (*get_hw_stats)(struct ib_device *ibdev,
			    struct rdma_hw_stats *stats, u32 port, int index);

	/* Device-specific sysfs attributes (e.g. rxe's "parent"). */
	const struct attribute_group *device_group;

	void (*dealloc_driver)(struct ib_device *ibdev);

	size_t size_ib_ucontext;
	size_t size_ib_pd;
	size_t size_ib_cq;
	size_t size_ib_mr;
	size_t size_ib_mw;
	size_t size_ib_ah;
	size_t size_ib_srq;
	size_t size_ib_qp;
};

struct ib_port_data;	/* core-private, per port */

/* Kinds of objects `rdma res` counts (the in-tree summary's order). */
enum ib_res_kind {
	IB_RES_PD,
	IB_RES_CQ,
	IB_RES_QP,
	IB_RES_CM_ID,
	IB_RES_MR,
	IB_RES_CTX,
	IB_RES_SRQ,
	IB_RES_MAX
};

/* Where the completions of an ib_alloc_cq() CQ are handled. */
enum ib_poll_context {
	IB_POLL_DIRECT,			/* the consumer calls ib_poll_cq() */
	IB_POLL_SOFTIRQ,		/* ->done() in softirq context */
	IB_POLL_WORKQUEUE,		/* ->done() from a work item */
	IB_POLL_UNBOUND_WORKQUEUE,	/* same, unbound workqueue */
};

/* The poll contexts with a CQ pool: all but IB_POLL_DIRECT. */
#define IB_CQ_POOLS			(IB_POLL_UNBOUND_WORKQUEUE)
#define IB_CQ_POOL_INDEX(poll_ctx)	((poll_ctx) - IB_POLL_SOFTIRQ)

/*
 * One RDMA device.  Lifetime: the embedded struct device owns the memory;
 * @refcount counts users that found the device through the registry, and
 * unregistration waits for it to drop to zero.
 */
struct ib_device {
	struct device dev;		/* class "infiniband", named like rxe0 */
	u32 index;			/* stable id in nldev messages */
	struct ib_device_ops ops;

	u8 node_type;			/* RDMA_NODE_* */
	__be64 node_guid;
	char node_desc[IB_NODE_DESC_MAX];
	u32 phys_port_cnt;
	int num_comp_vectors;
	struct ib_device_attr attrs;	/* filled by the core at registration */
	const char *link_type;		/* set for `rdma link` devices ("rxe") */

	struct ib_port_data *port_data;	/* [1..phys_port_cnt] */

	refcount_t refcount;
	struct completion unreg_completion;
	struct mutex unregistration_lock;
	bool registered;

	/* client id -> that client's per-device data */
	struct rw_semaphore client_data_rwsem;
	struct xarray client_data;

	struct rw_semaphore event_handler_rwsem;
	struct list_head event_handler_list;

	struct work_struct unregistration_work;
	struct attribute_group *groups[4];	/* sysfs, NULL-terminated */

	/* Live objects per kind, for `rdma res`; kept by ib_uverbs. */
	atomic_t res_count[IB_RES_MAX];

	/* Shared CQs (core/cq_pool.c), one list per IB_CQ_POOL_INDEX(). */
	spinlock_t cq_pools_lock;
	struct list_head cq_pools[IB_CQ_POOLS];
};

static inline const char *ib_device_name(const struct ib_device *ibdev)
{
	return dev_name(&ibdev->dev);
}

static inline bool rdma_is_port_valid(const struct ib_device *ibdev, u32 port)
{
	return port >= 1 && port <= ibdev->phys_port_cnt;
}

#define rdma_for_each_port(ibdev, iter)				\
	for (iter = 1; iter <= (ibdev)->phys_port_cnt; iter++)

/* Allocation of a driver structure that embeds struct ib_device first. */
struct ib_device *_ib_alloc_device(size_t size);
#define ib_alloc_device(drv_struct, member)				\
	container_of(_ib_alloc_device(sizeof(struct drv_struct) +	\
				      BUILD_BUG_ON_ZERO(offsetof(	\
					struct drv_struct, member))),	\
		     struct drv_struct, member)
void ib_dealloc_device(struct ib_device *ibdev);
void ib_set_device_ops(struct ib_device *ibdev, const struct ib_device_ops *ops);

/*
 * @name may be a pattern ("rxe%d").  The netdev of each port must be set
 * with ib_device_set_netdev() before registration for RoCE devices.
 */
int ib_register_device(struct ib_device *ibdev, const char *name,
		       struct device *dma_device);
void ib_unregister_device(struct ib_device *ibdev);
/* From a context that cannot sleep on the device (e.g. netdev notifier). */
void ib_unregister_device_queued(struct ib_device *ibdev);
void ib_unregister_driver(u32 driver_id);

int ib_device_set_netdev(struct ib_device *ibdev, struct net_device *ndev,
			 u32 port);
/* A referenced netdev of @port (dev_put() it), or NULL. */
struct net_device *ib_device_get_netdev(struct ib_device *ibdev, u32 port);
/* The registered device a driver bound to @ndev, referenced, or NULL. */
struct ib_device *ib_device_get_by_netdev(struct net_device *ndev,
					  u32 driver_id);

struct ib_device *ib_device_get_by_index(u32 index);
struct ib_device *ib_device_get_by_name(const char *name);
void ib_device_put(struct ib_device *ibdev);
int ib_device_rename(struct ib_device *ibdev, const char *name);

enum rdma_link_layer rdma_port_get_link_layer(struct ib_device *ibdev,
					      u32 port);
int ib_query_port(struct ib_device *ibdev, u32 port, struct ib_port_attr *attr);
int ib_query_pkey(struct ib_device *ibdev, u32 port, u16 index, u16 *pkey);
int ib_get_eth_speed(struct ib_device *ibdev, u32 port, u16 *speed, u8 *width);
const struct ib_port_immutable *ib_port_immutable(struct ib_device *ibdev,
						  u32 port);

void ib_register_event_handler(struct ib_event_handler *handler);
void ib_unregister_event_handler(struct ib_event_handler *handler);
void ib_dispatch_event(const struct ib_event *event);
/* The port's state changed: sends PORT_ACTIVE/PORT_ERR to listeners. */
void ib_dispatch_port_state_event(struct ib_device *ibdev, u32 port,
				  bool active);

/* Controlled Q_Keys: CAP_NET_RAW or privileged-qkey on (core/nldev.c) */
bool ib_privileged_qkey_allowed(void);

/* GID table (core/gid.c) */
const struct ib_gid_attr *rdma_get_gid_attr(struct ib_device *ibdev,
					    u32 port, unsigned int index);
void rdma_put_gid_attr(const struct ib_gid_attr *attr);
/* -ENODATA for an empty slot, -EINVAL for an index out of the table. */
int rdma_query_gid(struct ib_device *ibdev, u32 port, unsigned int index,
		   union ib_gid *gid);
/* Fill @entries with the valid GIDs of the device; returns the count. */
ssize_t rdma_query_gid_table(struct ib_device *ibdev,
			     struct ib_uverbs_gid_entry *entries,
			     size_t max_entries);

/* ------------------------------------------------------------------ */
/* Object lifecycle (core/objects.c): one for ib_uverbs and the kernel */
/* ------------------------------------------------------------------ */
/*
 * Create and destroy a verbs object for ib_uverbs (@uobj the new object's
 * uobject, @udata the command's driver data) or a kernel consumer (both
 * NULL; the kernel verbs below wrap these).  Creation allocates the
 * driver's structure, calls the driver, takes a use of every object the
 * new one names and counts it in `rdma res`; destruction refuses an
 * object in use (-EBUSY) and undoes all of it.  They may sleep.
 */
struct ib_pd *ib_alloc_pd_user(struct ib_device *ibdev,
			       struct ib_uobject *uobj, struct ib_udata *udata);
int ib_dealloc_pd_user(struct ib_pd *pd, struct ib_udata *udata);

struct ib_cq *ib_create_cq_user(struct ib_device *ibdev,
				ib_comp_handler comp_handler,
				void (*event_handler)(struct ib_event *, void *),
				void *cq_context,
				const struct ib_cq_init_attr *attr,
				struct ib_uobject *uobj, struct ib_udata *udata);
int ib_destroy_cq_user(struct ib_cq *cq, struct ib_udata *udata);

struct ib_srq *ib_create_srq_user(struct ib_pd *pd,
				  struct ib_srq_init_attr *init,
				  struct ib_uobject *uobj, struct ib_udata *udata);
int ib_destroy_srq_user(struct ib_srq *srq, struct ib_udata *udata);

/* @init names the CQs and SRQ; the driver writes back init->cap. */
struct ib_qp *ib_create_qp_user(struct ib_pd *pd,
				struct ib_qp_init_attr *init,
				struct ib_uobject *uobj, struct ib_udata *udata);
int ib_destroy_qp_user(struct ib_qp *qp, struct ib_udata *udata);
/*
 * Resolve the addresses @mask names (rdma_ah_attr_resolve(); an
 * alternate path only between IB ports), then the driver's modify.
 */
int ib_modify_qp_user(struct ib_qp *qp, struct ib_qp_attr *attr, int mask,
		      struct ib_udata *udata);

/*
 * @attr resolved by rdma_ah_attr_resolve(): its sgid_attr is the
 * caller's, held across the call and put by the caller.
 */
struct ib_ah *ib_create_ah_user(struct ib_pd *pd, struct ib_ah_attr *attr,
				struct ib_uobject *uobj, struct ib_udata *udata);
int ib_destroy_ah_user(struct ib_ah *ah);

/* What an MR covers: a user range, or all kernel memory (DMA MR). */
struct ib_mr_source {
	bool user;		/* reg_user_mr; else get_dma_mr */
	bool fast_reg;		/* alloc_mr of @max_num_sg pages, no access */
	u32 max_num_sg;
	u64 start;		/* user: the range's address, length */
	u64 length;
	u64 iova;		/* user: where the device sees @start */
	int access;		/* IB_ACCESS_* */
};

/* Remote write/atomic without local write, or unknown bits: -EINVAL. */
int ib_check_mr_access(int access);
int ib_check_mr_device_access(const struct ib_device *dev, int access);
struct ib_mr *ib_reg_mr_user(struct ib_pd *pd, const struct ib_mr_source *src,
			     struct ib_uobject *uobj, struct ib_udata *udata);
int ib_dereg_mr_user(struct ib_mr *mr, struct ib_udata *udata);

struct ib_mw *ib_alloc_mw_user(struct ib_pd *pd, enum ib_mw_type type,
			       struct ib_uobject *uobj, struct ib_udata *udata);
int ib_dealloc_mw_user(struct ib_mw *mw);

/*
 * Check @attr's port and, with a GRH, hold the GID entry sgid_index names
 * in attr->sgid_attr (-EINVAL: no such port, a RoCE port without GRH or
 * an index past the table; -ENODATA: an empty entry); the caller puts
 * it with rdma_put_gid_attr().
 */
int rdma_ah_attr_resolve(struct ib_device *ibdev, struct ib_ah_attr *attr);

/* ------------------------------------------------------------------ */
/* Kernel verbs (core/verbs.c): objects owned by kernel consumers      */
/* ------------------------------------------------------------------ */
/*
 * The in-tree kernel verbs' shapes, for in-kernel consumers (the MAD
 * layer, later storage protocols).  Objects made here have no uobject and
 * count in `rdma res` like userspace's.  All return ERR_PTR()/negative
 * errnos; creation and destruction may sleep; post/poll/notify do not.
 */

/*
 * Shared CQs, as in-tree: a consumer's queue takes room for @nr_cqe
 * completions on a CQ of the device's pool for @poll_ctx (not DIRECT),
 * on completion vector @comp_vector_hint (any when negative); the CQ may
 * serve other queues too, so WRs must carry a wr_cqe.  put gives the room
 * back; the CQs themselves live until the device is unregistered.
 */
struct ib_cq *ib_cq_pool_get(struct ib_device *dev, unsigned int nr_cqe,
			     int comp_vector_hint,
			     enum ib_poll_context poll_ctx);
void ib_cq_pool_put(struct ib_cq *cq, unsigned int nr_cqe);

/* A PD with pd->local_dma_lkey set; @flags must be 0. */
struct ib_pd *ib_alloc_pd(struct ib_device *device, unsigned int flags);
void ib_dealloc_pd(struct ib_pd *pd);

/*
 * A CQ whose completions go to wc->wr_cqe->done() (except
 * IB_POLL_DIRECT); cq->cq_context is @private.  ib_free_cq() waits for
 * callbacks in progress.
 */
struct ib_cq *ib_alloc_cq(struct ib_device *device, void *private, int nr_cqe,
			  int comp_vector, enum ib_poll_context poll_ctx);
void ib_free_cq(struct ib_cq *cq);

/* A classic CQ: @comp_handler runs when armed (ib_req_notify_cq()). */
struct ib_cq *ib_create_cq(struct ib_device *device,
			   ib_comp_handler comp_handler,
			   void (*event_handler)(struct ib_event *, void *),
			   void *cq_context,
			   const struct ib_cq_init_attr *cq_attr);
int ib_destroy_cq(struct ib_cq *cq);
int ib_poll_cq(struct ib_cq *cq, int num_entries, struct ib_wc *wc);
int ib_req_notify_cq(struct ib_cq *cq, enum ib_cq_notify_flags flags);

/*
 * A kernel QP.  IB_QPT_GSI needs init_attr->port_num and gets qp_num 1
 * (one per port; -EBUSY for a second); it has UD semantics and accepts
 * only Q_Key 0x80010000.  Moving a QP to IB_QPS_ERR flushes its queued
 * WRs, each completing with IB_WC_WR_FLUSH_ERR; after ib_destroy_qp()
 * returns no completion of it is delivered any more.
 */
struct ib_qp *ib_create_qp(struct ib_pd *pd, struct ib_qp_init_attr *init_attr);
int ib_modify_qp(struct ib_qp *qp, struct ib_qp_attr *attr, int attr_mask);
/* Drivers check a modify with ib_modify_qp_is_ok() (<ordma/qp_state.h>). */
int ib_query_qp(struct ib_qp *qp, struct ib_qp_attr *attr, int attr_mask,
		struct ib_qp_init_attr *init_attr);
int ib_destroy_qp(struct ib_qp *qp);
int ib_post_send(struct ib_qp *qp, const struct ib_send_wr *wr,
		 const struct ib_send_wr **bad_wr);
int ib_post_recv(struct ib_qp *qp, const struct ib_recv_wr *wr,
		 const struct ib_recv_wr **bad_wr);

/*
 * Drain a kernel QP before destroying it or reusing its buffers: move it
 * to IB_QPS_ERR and wait until every WR posted before has completed
 * (flushed ones with IB_WC_WR_FLUSH_ERR through their ->done()).  The
 * queue's CQ must be an ib_alloc_cq() one (a DIRECT one is polled here,
 * its other completions handed to their ->done() too); the queue needs
 * room for one more WR.  Sleeps.  ib_drain_rq() does nothing for a QP
 * on an SRQ; ib_drain_qp() drains both queues.
 */
void ib_drain_sq(struct ib_qp *qp);
void ib_drain_rq(struct ib_qp *qp);
void ib_drain_qp(struct ib_qp *qp);

/*
 * An MR of the DMA kind for @pd: it covers all directly mapped kernel
 * memory (addresses as ib_dma_map_single() returns them) with @access;
 * with remote rights its rkey lets peers reach any of it, so only for
 * trusted peers (tests, storage targets).  Counts as an MR in `rdma res`.
 */
struct ib_mr *ib_get_dma_mr(struct ib_pd *pd, int access);
int ib_dereg_mr(struct ib_mr *mr);

/*
 * Fast registration, as in-tree.  ib_alloc_mr(): an MR (only
 * IB_MR_TYPE_MEM_REG) for up to @max_num_sg pages, invalid until an
 * IB_WR_REG_MR; freed with ib_dereg_mr().  ib_map_mr_sg(): its page list
 * from the DMA-mapped @sg (ib_dma_map_sg()), starting *@sg_offset bytes
 * into the first entry (NULL: 0) at @page_size; every entry but the
 * first must start, and every one but the last end, on a page boundary,
 * unless it continues the previous one.  Returns how many entries were
 * mapped: fewer than @sg_nents when the MR is full or the alignment rule
 * stops it (then *@sg_offset says where in the next entry to go on), or
 * a negative errno when not even the first could be.  mr->iova is the
 * first mapped byte, mr->length the bytes mapped.
 */
struct ib_mr *ib_alloc_mr(struct ib_pd *pd, enum ib_mr_type mr_type,
			  u32 max_num_sg);
int ib_map_mr_sg(struct ib_mr *mr, struct scatterlist *sg, int sg_nents,
		 unsigned int *sg_offset, unsigned int page_size);
/* The walk behind map_mr_sg: @set_page gets each page, <0 when full. */
int ib_sg_to_pages(struct ib_mr *mr, struct scatterlist *sgl, int sg_nents,
		   unsigned int *sg_offset,
		   int (*set_page)(struct ib_mr *mr, u64 addr));

/*
 * MR pools, as in-tree: @nr MRs of ib_alloc_mr(qp->pd, @type, @max_num_sg)
 * kept on a list of the QP (qp->rdma_mrs or qp->sig_mrs).  get takes one
 * (NULL when none is left) and counts it in qp->mrs_used; put gives it
 * back; destroy deregisters those on the list (the taken ones must be put
 * first).  IB_MR_TYPE_INTEGRITY (@max_num_meta_sg) is not supported.
 */
int ib_mr_pool_init(struct ib_qp *qp, struct list_head *list, int nr,
		    enum ib_mr_type type, u32 max_num_sg, u32 max_num_meta_sg);
struct ib_mr *ib_mr_pool_get(struct ib_qp *qp, struct list_head *list);
void ib_mr_pool_put(struct ib_qp *qp, struct list_head *list,
		    struct ib_mr *mr);
void ib_mr_pool_destroy(struct ib_qp *qp, struct list_head *list);

/* The next variant of a key: its low 8 bits counted up. */
static inline u32 ib_inc_rkey(u32 rkey)
{
	const u32 mask = 0x000000ff;

	return ((rkey + 1) & mask) | (rkey & ~mask);
}

/* Set the low 8 bits of @mr's keys (before posting its IB_WR_REG_MR). */
static inline void ib_update_fast_reg_key(struct ib_mr *mr, u8 newkey)
{
	mr->lkey = (mr->lkey & 0xffffff00) | newkey;
	mr->rkey = (mr->rkey & 0xffffff00) | newkey;
}

/*
 * An AH for kernel UD sends.  The core resolves @ah_attr->sgid_index to
 * its GID entry (ah_attr->sgid_attr is ignored on input).
 */
struct ib_ah *ib_create_ah(struct ib_pd *pd, struct ib_ah_attr *ah_attr);
int ib_destroy_ah(struct ib_ah *ah);

/*
 * The address vector that answers a UD/GSI receive: dgid from the
 * source of the GRH slot (IPv4 sources as IPv4-mapped GIDs), sgid_index
 * the local GID the packet was sent to, hop limit, traffic class and
 * flow label as RoCE replies need.  @grh is the receive buffer's first
 * 40 bytes.  -EINVAL without IB_WC_GRH, -ENOENT if the local GID is gone.
 */
int ib_init_ah_attr_from_wc(struct ib_device *device, u32 port_num,
			    const struct ib_wc *wc, const void *grh,
			    struct ib_ah_attr *ah_attr);

/* DMA addresses of software devices are kernel virtual addresses. */
static inline u64 ib_dma_map_single(struct ib_device *dev, void *cpu_addr,
				    size_t size, enum dma_data_direction dir)
{
	return (uintptr_t)cpu_addr;
}

static inline void ib_dma_unmap_single(struct ib_device *dev, u64 addr,
				       size_t size,
				       enum dma_data_direction dir)
{
}

static inline int ib_dma_mapping_error(struct ib_device *dev, u64 dma_addr)
{
	return 0;
}

/* The same for a scatterlist (directly mapped pages): all @nents. */
static inline int ib_dma_map_sg(struct ib_device *dev, struct scatterlist *sg,
				int nents, enum dma_data_direction dir)
{
	struct scatterlist *s;
	int i;

	for_each_sg(sg, s, nents, i) {
		s->dma_address = (uintptr_t)sg_virt(s);
		sg_dma_len(s) = s->length;
	}
	return nents;
}

static inline void ib_dma_unmap_sg(struct ib_device *dev,
				   struct scatterlist *sg, int nents,
				   enum dma_data_direction dir)
{
}

/* Ownership hand-overs of a mapped buffer: nothing to do for them. */
static inline void ib_dma_sync_single_for_cpu(struct ib_device *dev, u64 addr,
					      size_t size,
					      enum dma_data_direction dir)
{
}

static inline void ib_dma_sync_single_for_device(struct ib_device *dev,
						 u64 addr, size_t size,
						 enum dma_data_direction dir)
{
}

/* GID lookups for the CM: a referenced entry (rdma_put_gid_attr()). */
const struct ib_gid_attr *rdma_find_gid_by_port(struct ib_device *ibdev,
						const union ib_gid *gid,
						enum ib_uverbs_gid_type gid_type,
						u32 port,
						struct net_device *ndev);
/* Any registered device and port holding @gid (ndev NULL: any netdev). */
const struct ib_gid_attr *rdma_find_gid(const union ib_gid *gid,
					enum ib_uverbs_gid_type gid_type,
					struct net_device *ndev);
/* The netdev of a GID entry, referenced (dev_put()), or NULL. */
struct net_device *rdma_read_gid_attr_ndev(const struct ib_gid_attr *attr);

/* ------------------------------------------------------------------ */
/* Provided by ib_core to drivers of userspace objects                 */
/* ------------------------------------------------------------------ */

struct mm_struct;
struct page;

/*
 * User memory pinned for the device (core/umem.c).  The pages stay
 * pinned, and counted in the owner's pinned_vm (VmPin, limited by
 * RLIMIT_MEMLOCK unless CAP_IPC_LOCK), until ib_umem_release().
 */
struct ib_umem {
	struct ib_device *ibdev;
	struct mm_struct *owning_mm;	/* whose pinned_vm counts @npages */
	unsigned long address;		/* user address of the first byte */
	size_t length;
	unsigned long npages;		/* pages covering the range */
	struct page **pages;		/* in address order */
	bool writable;			/* pinned for writing */
};

/*
 * Pin [@addr, @addr + @length) for a region with rights @access.  Errors:
 * -EINVAL (empty or wrapping range), -EPERM (RLIMIT_MEMLOCK is 0 and no
 * CAP_IPC_LOCK), -ENOMEM (over the limit, or no memory), -EFAULT (not
 * mapped, or not writable when @access needs it), -EOPNOTSUPP (on-demand
 * paging), -EINTR (killed while pinning).
 */
struct ib_umem *ib_umem_get(struct ib_device *ibdev, unsigned long addr,
			    size_t length, int access);
void ib_umem_release(struct ib_umem *umem);

/* Offset of the first byte in the first page. */
static inline unsigned int ib_umem_offset(const struct ib_umem *umem)
{
	return umem->address & ~PAGE_MASK;
}

/*
 * For memory whose size or number userspace picks (rings, their kernel
 * copies, objects per verb): charged to the memory cgroup of the calling
 * process, and failing with -ENOMEM at that cgroup's limit (or when the
 * host is short) rather than invoking the OOM killer, which would pick
 * some process other than the one whose verb asked for too much.
 */
#define IB_USER_GFP	(GFP_KERNEL_ACCOUNT | __GFP_RETRY_MAYFAIL | __GFP_NOWARN)

/*
 * A kernel buffer shared with userspace through mmap() of the command fd
 * (core/mmap.c): zeroed vmalloc memory of @size bytes (IB_USER_GFP: charged
 * to the caller's memory cgroup) that the ucontext's process maps at file
 * offset @offset, what the driver tells it in a command's response.
 *
 * The exporter holds one reference and gives it up with
 * ib_mmap_buf_remove(), at the latest when the object it belongs to is
 * destroyed: the offset is forgotten at once, the memory lives on while a
 * mapping of it remains.  When the device is disassociated,
 * every mapping of the command fd is torn down and later accesses get
 * SIGBUS; the memory is never freed under a mapping.
 */
struct ib_mmap_buf {
	void *vaddr;
	size_t size;			/* a multiple of PAGE_SIZE */
	u64 offset;
	/* private to core/mmap.c */
	struct kref ref;
	struct ib_ucontext *uctx;	/* whose offset it is, until removed */
	struct ib_mmap_file *mfile;
};

struct ib_mmap_buf *ib_mmap_buf_alloc(struct ib_ucontext *uctx, size_t size);
void ib_mmap_buf_remove(struct ib_mmap_buf *mb);
/* A driver's mmap op: map the buffer @vma's offset names. */
int ib_mmap_buf_map(struct ib_ucontext *uctx, struct vm_area_struct *vma);

/*
 * The mmap state of one command file, kept by ib_uverbs (one per open
 * file, set as uctx->mmap_file) and consulted by the fault handler:
 * @mapping is the inode's address space holding every VMA of the file
 * (NULL once the file is closed); @revoked, set at disassociation under
 * @rwsem, makes faults fail.
 */
struct ib_mmap_file {
	struct address_space *mapping;
	struct rw_semaphore rwsem;
	bool revoked;
};

void ib_mmap_file_init(struct ib_mmap_file *mf, struct address_space *mapping);
/* Disassociation: zap every mapping of the file; later faults SIGBUS. */
void ib_mmap_file_revoke(struct ib_mmap_file *mf);
/* The ucontext goes: buffers not removed (a driver bug) forget it. */
void ib_mmap_forget(struct ib_ucontext *uctx);

#endif
