/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * rdma_cm (cma/): connection management by IP address, over ib_cm on
 * RoCE ports.  An rdma_cm_id walks this state machine:
 *
 *   IDLE -bind-> ADDR_BOUND -listen-> LISTEN (spawns CONNECT ids)
 *   IDLE/ADDR_BOUND -resolve_addr-> ADDR_QUERY -> ADDR_RESOLVED
 *        -resolve_route-> ROUTE_QUERY -> ROUTE_RESOLVED
 *        -connect-> CONNECT -> ESTABLISHED -disconnect-> DISCONNECT
 *   CONNECT ids from a listener: CONNECT -accept-> ESTABLISHED
 *   UD port spaces use SIDR instead of REQ/REP; multicast joins any
 *   bound, resolved UD id.
 *
 * Address resolution is local (route and neighbour lookup in the id's
 * network namespace; the source GID is the RoCE v2 GID of the netdev's
 * IP address), and so is route resolution (no SA on RoCE).
 *
 * Events reach the id's handler in process context, one at a time per
 * id.  A handler returning non-zero asks the rdma_cm to destroy the id
 * (for CONNECT_REQUEST: destroy the new id, rejecting the peer).  The
 * rdma_* calls below take the id's handler lock themselves; from within
 * the id's own handler (the lock is then held by the caller) they skip
 * it, so a kernel consumer may rdma_accept() in its CONNECT_REQUEST
 * handler.  rdma_destroy_id() is the exception: never from the handler
 * of the id itself (return non-zero instead).
 *
 * DEVICE_REMOVAL: delivered once to every id on a device that goes away;
 * after the handler returns the id is detached from the device (device
 * NULL, QP-related calls -ENODEV) so removal never waits for the id's
 * owner to destroy it.
 */
#ifndef ORDMA_RDMA_CM_H
#define ORDMA_RDMA_CM_H

#include <linux/in6.h>
#include <linux/netdevice.h>
#include <linux/socket.h>
#include <net/net_namespace.h>
#include <uapi/rdma/rdma_user_cm.h>
#include <ordma/ib_cm.h>
#include <ordma/ib_verbs.h>

/* librdmacm's enum rdma_cm_event_type has the same values. */
enum rdma_cm_event_type {
	RDMA_CM_EVENT_ADDR_RESOLVED,
	RDMA_CM_EVENT_ADDR_ERROR,
	RDMA_CM_EVENT_ROUTE_RESOLVED,
	RDMA_CM_EVENT_ROUTE_ERROR,
	RDMA_CM_EVENT_CONNECT_REQUEST,
	RDMA_CM_EVENT_CONNECT_RESPONSE,
	RDMA_CM_EVENT_CONNECT_ERROR,
	RDMA_CM_EVENT_UNREACHABLE,
	RDMA_CM_EVENT_REJECTED,
	RDMA_CM_EVENT_ESTABLISHED,
	RDMA_CM_EVENT_DISCONNECTED,
	RDMA_CM_EVENT_DEVICE_REMOVAL,
	RDMA_CM_EVENT_MULTICAST_JOIN,
	RDMA_CM_EVENT_MULTICAST_ERROR,
	RDMA_CM_EVENT_ADDR_CHANGE,
	RDMA_CM_EVENT_TIMEWAIT_EXIT,
};

const char *rdma_event_msg(enum rdma_cm_event_type event);

/* The Q_Key of the UDP and IPoIB port spaces' UD QPs and multicast. */
#define RDMA_UDP_QKEY		0x01234567

/* Where an id's addresses live, and what resolution found. */
struct rdma_dev_addr {
	u8 src_dev_addr[MAX_ADDR_LEN];	/* our netdev's MAC */
	u8 dst_dev_addr[MAX_ADDR_LEN];	/* the peer's (neighbour) MAC */
	u8 broadcast[MAX_ADDR_LEN];
	unsigned short dev_type;	/* ARPHRD_ETHER */
	int bound_dev_if;		/* ifindex, 0 if none */
	struct net *net;		/* the creator's namespace, referenced */
	enum rdma_network_type network;	/* RDMA_NETWORK_IPV4 / IPV6 */
	int hoplimit;
	union ib_gid sgid;		/* RoCE v2 GIDs of the two addresses */
	union ib_gid dgid;
};

struct rdma_addr {
	struct sockaddr_storage src_addr;
	struct sockaddr_storage dst_addr;
	struct rdma_dev_addr dev_addr;
};

struct rdma_route {
	struct rdma_addr addr;
	struct ib_cm_path *path_rec;	/* NULL until the route is resolved */
	int num_pri_alt_paths;		/* 0 or 1 */
};

struct rdma_conn_param {
	const void *private_data;
	u8 private_data_len;
	u8 responder_resources;
	u8 initiator_depth;
	u8 flow_control;
	u8 retry_count;		/* ignored by rdma_accept() */
	u8 rnr_retry_count;
	u8 srq;			/* ignored if the id has a QP */
	u32 qp_num;		/* ignored if the id has a QP */
	u32 qkey;		/* UD: the accepting QP's Q_Key */
};

struct rdma_ud_param {
	const void *private_data;	/* MULTICAST_*: the join's context */
	u8 private_data_len;
	struct ib_ah_attr ah_attr;	/* sgid_attr NULL */
	u32 qp_num;
	u32 qkey;
};

struct rdma_cm_event {
	enum rdma_cm_event_type event;
	int status;			/* 0 or a negative errno / REJ reason */
	union {
		struct rdma_conn_param conn;
		struct rdma_ud_param ud;
	} param;
	struct rdma_ucm_ece ece;
};

struct rdma_cm_id;

typedef int (*rdma_cm_event_handler)(struct rdma_cm_id *id,
				     struct rdma_cm_event *event);

struct rdma_cm_id {
	struct ib_device *device;	/* once bound to a device, else NULL */
	void *context;
	struct ib_qp *qp;		/* kernel consumers only */
	rdma_cm_event_handler event_handler;
	struct rdma_route route;
	enum rdma_ucm_port_space ps;
	enum ib_qp_type qp_type;
	u32 port_num;
};

/* The id states; rdma_cm internal, exposed for diagnostics. */
enum rdma_cm_state {
	RDMA_CM_IDLE,
	RDMA_CM_ADDR_QUERY,
	RDMA_CM_ADDR_RESOLVED,
	RDMA_CM_ROUTE_QUERY,
	RDMA_CM_ROUTE_RESOLVED,
	RDMA_CM_CONNECT,
	RDMA_CM_DISCONNECT,
	RDMA_CM_ADDR_BOUND,
	RDMA_CM_LISTEN,
	RDMA_CM_DEVICE_REMOVAL,
	RDMA_CM_DESTROYING,
};

/* rdma_join_multicast() join_state bits (the SA's JoinState). */
#define RDMA_MC_JOIN_FULLMEMBER		(1 << 0)
#define RDMA_MC_JOIN_SENDONLY_FULLMEMBER (1 << 3)

/*
 * A kernel consumer's id in namespace @net (referenced by the id);
 * `rdma res show cm_id` names its owner by @caller, the module.
 */
struct rdma_cm_id *__rdma_create_kernel_id(struct net *net,
					   rdma_cm_event_handler event_handler,
					   void *context,
					   enum rdma_ucm_port_space ps,
					   enum ib_qp_type qp_type,
					   const char *caller);
#define rdma_create_id(net, event_handler, context, ps, qp_type)	\
	__rdma_create_kernel_id(net, event_handler, context, ps, qp_type, \
				KBUILD_MODNAME)
/* An id in the calling task's network namespace. */
struct rdma_cm_id *rdma_create_user_id(rdma_cm_event_handler event_handler,
				       void *context,
				       enum rdma_ucm_port_space ps,
				       enum ib_qp_type qp_type);
/* Leaves groups, disconnects or rejects as needed; waits for the handler. */
void rdma_destroy_id(struct rdma_cm_id *id);

/*
 * Errnos follow the in-tree rdma_cm: -EADDRINUSE, -EADDRNOTAVAIL (no
 * RDMA device for the address), -EINVAL (wrong state or family), ...
 */
int rdma_bind_addr(struct rdma_cm_id *id, struct sockaddr *addr);
int rdma_resolve_addr(struct rdma_cm_id *id, struct sockaddr *src_addr,
		      const struct sockaddr *dst_addr,
		      unsigned long timeout_ms);
int rdma_resolve_route(struct rdma_cm_id *id, unsigned long timeout_ms);
int rdma_listen(struct rdma_cm_id *id, int backlog);
int rdma_connect(struct rdma_cm_id *id, struct rdma_conn_param *conn_param);
int rdma_connect_locked(struct rdma_cm_id *id,
			struct rdma_conn_param *conn_param);
int rdma_accept(struct rdma_cm_id *id, struct rdma_conn_param *conn_param);
int rdma_reject(struct rdma_cm_id *id, const void *private_data,
		u8 private_data_len, u8 reason);
/* Reads of a REJECTED event (cma/cma_ib.c): its reason, a consumer's data. */
bool rdma_is_consumer_reject(struct rdma_cm_id *id, int reason);
const void *rdma_consumer_reject_data(struct rdma_cm_id *id,
				      struct rdma_cm_event *ev, u8 *data_len);
const char *rdma_reject_msg(struct rdma_cm_id *id, int reason);
int rdma_disconnect(struct rdma_cm_id *id);
int rdma_notify(struct rdma_cm_id *id, enum ib_event_type event);
int rdma_init_qp_attr(struct rdma_cm_id *id, struct ib_qp_attr *qp_attr,
		      int *qp_attr_mask);

/*
 * Kernel consumers: a QP on the id's device and port, moved to INIT (UD:
 * to RTS with the id's Q_Key).  The rdma_cm then moves it along the
 * connection (RTR/RTS on accept and on the REP, ERR on reject and
 * disconnect).  rdma_destroy_qp() before rdma_destroy_id().
 */
int rdma_create_qp(struct rdma_cm_id *id, struct ib_pd *pd,
		   struct ib_qp_init_attr *qp_init_attr);
void rdma_destroy_qp(struct rdma_cm_id *id);

/* The id's state (for ucma's queries and tests). */
enum rdma_cm_state rdma_get_state(struct rdma_cm_id *id);

/*
 * RoCE multicast: the group's MGID is the IPv6 address, or the
 * IPv4-mapped one; joining also joins the IP group on the netdev
 * (IGMP/MLD).  MULTICAST_JOIN / MULTICAST_ERROR carry @context in
 * param.ud.private_data.
 */
int rdma_join_multicast(struct rdma_cm_id *id, struct sockaddr *addr,
			u8 join_state, void *context);
void rdma_leave_multicast(struct rdma_cm_id *id, struct sockaddr *addr);

/* Options (rdma_set_option()); -EINVAL in a state that forbids them. */
void rdma_set_service_type(struct rdma_cm_id *id, int tos);
int rdma_set_reuseaddr(struct rdma_cm_id *id, int reuse);
int rdma_set_afonly(struct rdma_cm_id *id, int afonly);
int rdma_set_ack_timeout(struct rdma_cm_id *id, u8 timeout);
int rdma_set_min_rnr_timer(struct rdma_cm_id *id, u8 min_rnr_timer);

void rdma_read_gids(struct rdma_cm_id *id, union ib_gid *sgid,
		    union ib_gid *dgid);
/*
 * Between these, @id->device is stable: the id is not detached from its
 * device, which therefore cannot finish its removal.  Do not sleep long
 * (or fault on user memory) in between: removal and binding wait.
 */
void rdma_lock_id_device(struct rdma_cm_id *id);
void rdma_unlock_id_device(struct rdma_cm_id *id);
__be64 rdma_get_service_id(struct rdma_cm_id *id, struct sockaddr *addr);

#endif
