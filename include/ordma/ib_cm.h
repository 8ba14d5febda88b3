/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * ib_cm (cm/): the IBTA connection manager (IBTA chapter 12) over the MAD
 * layer, for RoCE ports.  A cm_id walks the connection state machine:
 *
 *   active:  IDLE -REQ-> REQ_SENT -REP-> REP_RCVD -RTU-> ESTABLISHED
 *   passive: LISTEN spawns a new id: REQ_RCVD -REP-> REP_SENT -RTU->
 *            ESTABLISHED
 *   close:   ESTABLISHED -DREQ-> DREQ_SENT -DREP-> TIMEWAIT -> IDLE
 *            ESTABLISHED <-DREQ- DREQ_RCVD -DREP-> TIMEWAIT -> IDLE
 *   UD:      IDLE -SIDR_REQ-> SIDR_REQ_SENT -SIDR_REP-> IDLE;
 *            LISTEN spawns SIDR_REQ_RCVD -SIDR_REP-> IDLE
 *
 * MRA stretches a peer's timeout, REJ ends any pre-ESTABLISHED state.
 * Events reach the id's handler in process context, one at a time per
 * id; a handler that returns non-zero asks the CM to destroy the id (it
 * must not call ib_destroy_cm_id() on it itself then).
 *
 * Paths are RoCE paths (struct ib_cm_path): no SA, the rdma_cm builds
 * them from the route it resolved.
 */
#ifndef ORDMA_IB_CM_H
#define ORDMA_IB_CM_H

#include <linux/types.h>
#include <uapi/rdma/rdma_user_cm.h>
#include <ordma/ib_verbs.h>

enum ib_cm_state {
	IB_CM_IDLE,
	IB_CM_LISTEN,
	IB_CM_REQ_SENT,
	IB_CM_REQ_RCVD,
	IB_CM_MRA_REQ_SENT,
	IB_CM_MRA_REQ_RCVD,
	IB_CM_REP_SENT,
	IB_CM_REP_RCVD,
	IB_CM_MRA_REP_SENT,
	IB_CM_MRA_REP_RCVD,
	IB_CM_ESTABLISHED,
	IB_CM_DREQ_SENT,
	IB_CM_DREQ_RCVD,
	IB_CM_TIMEWAIT,
	IB_CM_SIDR_REQ_SENT,
	IB_CM_SIDR_REQ_RCVD,
};

enum ib_cm_event_type {
	IB_CM_REQ_ERROR,		/* REQ retries used up */
	IB_CM_REQ_RECEIVED,
	IB_CM_REP_ERROR,		/* REP retries used up */
	IB_CM_REP_RECEIVED,
	IB_CM_RTU_RECEIVED,
	IB_CM_USER_ESTABLISHED,		/* ib_cm_notify(COMM_EST) */
	IB_CM_DREQ_ERROR,
	IB_CM_DREQ_RECEIVED,
	IB_CM_DREP_RECEIVED,
	IB_CM_TIMEWAIT_EXIT,
	IB_CM_MRA_RECEIVED,
	IB_CM_REJ_RECEIVED,
	IB_CM_LAP_ERROR,
	IB_CM_LAP_RECEIVED,
	IB_CM_APR_RECEIVED,
	IB_CM_SIDR_REQ_ERROR,
	IB_CM_SIDR_REQ_RECEIVED,
	IB_CM_SIDR_REP_RECEIVED,
};

/* REJ reasons (IBTA 12.6.7.2). */
enum ib_cm_rej_reason {
	IB_CM_REJ_NO_QP = 1,
	IB_CM_REJ_NO_EEC = 2,
	IB_CM_REJ_NO_RESOURCES = 3,
	IB_CM_REJ_TIMEOUT = 4,
	IB_CM_REJ_UNSUPPORTED = 5,
	IB_CM_REJ_INVALID_COMM_ID = 6,
	IB_CM_REJ_INVALID_COMM_INSTANCE = 7,
	IB_CM_REJ_INVALID_SERVICE_ID = 8,
	IB_CM_REJ_INVALID_TRANSPORT_TYPE = 9,
	IB_CM_REJ_STALE_CONN = 10,
	IB_CM_REJ_RDC_NOT_EXIST = 11,
	IB_CM_REJ_INVALID_GID = 12,
	IB_CM_REJ_INVALID_LID = 13,
	IB_CM_REJ_INVALID_SL = 14,
	IB_CM_REJ_INVALID_TRAFFIC_CLASS = 15,
	IB_CM_REJ_INVALID_HOP_LIMIT = 16,
	IB_CM_REJ_INVALID_PACKET_RATE = 17,
	IB_CM_REJ_PORT_CM_REDIRECT = 24,
	IB_CM_REJ_PORT_REDIRECT = 25,
	IB_CM_REJ_INVALID_MTU = 26,
	IB_CM_REJ_INSUFFICIENT_RESP_RESOURCES = 27,
	IB_CM_REJ_CONSUMER_DEFINED = 28,
	IB_CM_REJ_INVALID_RNR_RETRY = 29,
	IB_CM_REJ_DUPLICATE_LOCAL_COMM_ID = 30,
	IB_CM_REJ_INVALID_CLASS_VERSION = 31,
	IB_CM_REJ_INVALID_FLOW_LABEL = 32,
	IB_CM_REJ_VENDOR_OPTION_NOT_SUPPORTED = 35,
};

enum ib_cm_sidr_status {
	IB_SIDR_SUCCESS,
	IB_SIDR_UNSUPPORTED,
	IB_SIDR_REJECT,
	IB_SIDR_NO_QP,
	IB_SIDR_REDIRECT,
	IB_SIDR_UNSUPPORTED_VERSION,
};

/*
 * A RoCE path, seen from the side that holds it: sgid is ours, dgid the
 * peer's (IPv4 addresses as IPv4-mapped GIDs).  @sgid_attr is the local
 * GID entry, referenced by whoever filled the path for as long as it is
 * used.
 */
struct ib_cm_path {
	union ib_gid sgid;
	union ib_gid dgid;
	const struct ib_gid_attr *sgid_attr;
	u32 flow_label;
	u8 hop_limit;
	u8 traffic_class;
	u8 sl;
	enum ib_mtu mtu;
	u8 rate;
	u8 packet_life_time;	/* 4.096 us * 2^n */
	u16 pkey;
};

/*
 * The address vector of @path on @port_num: the GRH fields, the SL and
 * the static rate of the path, and its GID entry (@path->sgid_attr,
 * neither referenced nor dropped: valid while the caller holds it).
 * The CM puts it in a QP's RTR attributes and its own MADs' AV, the
 * rdma_cm in a UD peer's ESTABLISHED event, as in-tree's
 * ib_init_ah_attr_from_path() does for both.
 */
void ib_cm_path_to_ah_attr(const struct ib_cm_path *path, u32 port_num,
			   struct ib_ah_attr *ah);

struct ib_cm_id;
struct ib_cm_event;

/* Non-zero: the CM destroys @cm_id after the handler returns. */
typedef int (*ib_cm_handler)(struct ib_cm_id *cm_id,
			     const struct ib_cm_event *event);

struct ib_cm_id {
	ib_cm_handler cm_handler;
	void *context;
	struct ib_device *device;
	__be64 service_id;
	__be64 service_mask;
	enum ib_cm_state state;
	__be32 local_id;
	__be32 remote_id;
	u32 remote_cm_qpn;	/* 1 */
};

struct ib_cm_req_event_param {
	struct ib_cm_id *listen_id;
	u32 port;
	u16 bth_pkey;
	struct ib_cm_path *primary_path;	/* from our side */
	const struct ib_gid_attr *ppath_sgid_attr; /* the GID it came to */
	__be64 remote_ca_guid;
	u32 remote_qkey;
	u32 remote_qpn;
	enum ib_qp_type qp_type;
	u32 starting_psn;
	u8 responder_resources;
	u8 initiator_depth;
	u8 local_cm_response_timeout;
	u8 flow_control;
	u8 remote_cm_response_timeout;
	u8 retry_count;
	u8 rnr_retry_count;
	u8 srq;
};

struct ib_cm_rep_event_param {
	__be64 remote_ca_guid;
	u32 remote_qkey;
	u32 remote_qpn;
	u32 starting_psn;
	u8 responder_resources;
	u8 initiator_depth;
	u8 target_ack_delay;
	u8 failover_accepted;
	u8 flow_control;
	u8 rnr_retry_count;
	u8 srq;
};

struct ib_cm_rej_event_param {
	enum ib_cm_rej_reason reason;
	void *ari;
	u8 ari_length;
};

struct ib_cm_mra_event_param {
	u8 service_timeout;
};

struct ib_cm_sidr_req_event_param {
	struct ib_cm_id *listen_id;
	__be64 service_id;
	/* The GID it came to, and the way back to the sender. */
	const struct ib_gid_attr *sgid_attr;
	struct ib_ah_attr *reply_ah_attr;
	u16 bth_pkey;
	u32 port;
	u16 pkey;
};

struct ib_cm_sidr_rep_event_param {
	enum ib_cm_sidr_status status;
	u32 qkey;
	u32 qpn;
	void *info;
	const struct ib_gid_attr *sgid_attr;
	u8 info_len;
};

struct ib_cm_event {
	enum ib_cm_event_type event;
	union {
		struct ib_cm_req_event_param req_rcvd;
		struct ib_cm_rep_event_param rep_rcvd;
		struct ib_cm_rej_event_param rej_rcvd;
		struct ib_cm_mra_event_param mra_rcvd;
		struct ib_cm_sidr_req_event_param sidr_req_rcvd;
		struct ib_cm_sidr_rep_event_param sidr_rep_rcvd;
		enum ib_wc_status send_status;	/* *_ERROR events */
	} param;
	/* The message's private data, its full field length (IBTA). */
	void *private_data;
};

/* Private data sizes of each message (IBTA 12.6). */
#define IB_CM_REQ_PRIVATE_DATA_SIZE	92
#define IB_CM_MRA_PRIVATE_DATA_SIZE	222
#define IB_CM_REJ_PRIVATE_DATA_SIZE	148
#define IB_CM_REP_PRIVATE_DATA_SIZE	196
#define IB_CM_RTU_PRIVATE_DATA_SIZE	224
#define IB_CM_DREQ_PRIVATE_DATA_SIZE	220
#define IB_CM_DREP_PRIVATE_DATA_SIZE	224
#define IB_CM_REJ_ARI_LENGTH		72
#define IB_CM_SIDR_REQ_PRIVATE_DATA_SIZE 216
#define IB_CM_SIDR_REP_PRIVATE_DATA_SIZE 136
#define IB_CM_SIDR_REP_INFO_LENGTH	72

struct ib_cm_id *ib_create_cm_id(struct ib_device *device,
				 ib_cm_handler cm_handler, void *context);
/* Sends what the state requires (REJ, DREQ), waits for its handler. */
void ib_destroy_cm_id(struct ib_cm_id *cm_id);

/* -EBUSY if another id listens on @service_id of the same device. */
int ib_cm_listen(struct ib_cm_id *cm_id, __be64 service_id);

struct ib_cm_req_param {
	struct ib_cm_path *primary_path;
	__be64 service_id;
	u32 qp_num;
	enum ib_qp_type qp_type;
	u32 starting_psn;
	const void *private_data;
	u8 private_data_len;
	u8 responder_resources;
	u8 initiator_depth;
	u8 remote_cm_response_timeout;
	u8 flow_control;
	u8 local_cm_response_timeout;
	u8 retry_count;
	u8 rnr_retry_count;
	u8 max_cm_retries;
	u8 srq;
};

struct ib_cm_rep_param {
	u32 qp_num;
	u32 starting_psn;
	const void *private_data;
	u8 private_data_len;
	u8 responder_resources;
	u8 initiator_depth;
	u8 failover_accepted;
	u8 flow_control;
	u8 rnr_retry_count;
	u8 srq;
};

struct ib_cm_sidr_req_param {
	struct ib_cm_path *path;
	__be64 service_id;
	unsigned long timeout_ms;
	const void *private_data;
	u8 private_data_len;
	u8 max_cm_retries;
};

struct ib_cm_sidr_rep_param {
	u32 qp_num;
	u32 qkey;
	enum ib_cm_sidr_status status;
	const void *info;
	u8 info_length;
	const void *private_data;
	u8 private_data_len;
};

/* -EINVAL for a bad state or too much private data. */
int ib_send_cm_req(struct ib_cm_id *cm_id, struct ib_cm_req_param *param);
int ib_send_cm_rep(struct ib_cm_id *cm_id, struct ib_cm_rep_param *param);
int ib_send_cm_rtu(struct ib_cm_id *cm_id, const void *private_data,
		   u8 private_data_len);
int ib_send_cm_dreq(struct ib_cm_id *cm_id, const void *private_data,
		    u8 private_data_len);
int ib_send_cm_drep(struct ib_cm_id *cm_id, const void *private_data,
		    u8 private_data_len);
int ib_send_cm_rej(struct ib_cm_id *cm_id, enum ib_cm_rej_reason reason,
		   void *ari, u8 ari_length, const void *private_data,
		   u8 private_data_len);
int ib_send_cm_mra(struct ib_cm_id *cm_id, u8 service_timeout,
		   const void *private_data, u8 private_data_len);
/* IB_EVENT_COMM_EST: traffic arrived before the RTU. */
int ib_cm_notify(struct ib_cm_id *cm_id, enum ib_event_type event);
/*
 * The attributes for moving the id's QP to qp_attr->qp_state (INIT, RTR,
 * RTS) as the connection negotiated them; -EINVAL in a wrong state.
 *
 * PSNs follow the in-tree CM, which every peer on the wire follows: the
 * starting_psn a side puts in its REQ or REP is the PSN it *receives*
 * from, and its send PSN is the one in the peer's message.  The passive
 * side may take RTR and RTS attributes before ib_send_cm_rep(): its
 * receive PSN is then one the CM picked, and the REP announces that one
 * (ib_cm_rep_param.starting_psn is used only if RTR comes after the
 * REP).  Callers use the rq_psn they are given and do not override it.
 */
int ib_cm_init_qp_attr(struct ib_cm_id *cm_id, struct ib_qp_attr *qp_attr,
		       int *qp_attr_mask);
int ib_send_cm_sidr_req(struct ib_cm_id *cm_id,
			struct ib_cm_sidr_req_param *param);
int ib_send_cm_sidr_rep(struct ib_cm_id *cm_id,
			struct ib_cm_sidr_rep_param *param);

const char *ibcm_reject_msg(int reason);

#endif
