/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * ib_cm internals shared by its files:
 *
 *   cm_main.c   module init, the ib_client, one MAD agent per port
 *   cm.c        cm_ids: the tables (local IDs, listens, remote IDs),
 *               lifetime, event delivery, timewait, QP attributes
 *   cm_send.c   building and posting CM MADs; the ib_send_cm_*() API
 *   cm_recv.c   the MAD handlers: one function per received message
 *   cm_sysfs.c  ports/N/cm_{rx,tx}_* counters, debugfs drop counters
 *
 * Locking: cm.lock (a spinlock) guards the listen list and the remote-ID
 * hash; the local-ID xarray has its own lock.  Each id's state and
 * connection fields are under its own spinlock, never taken together
 * with cm.lock in the other order (cm.lock first when both).
 *
 * Lifetime: an id is reference counted.  Its creator holds one; every
 * queued event, pending timewait and MAD in flight holds one.  The last
 * put frees it.  ib_destroy_cm_id() marks it destroyed (no more events),
 * takes it out of every table and waits for a running handler.
 */
#ifndef ORDMA_CM_PRIV_H
#define ORDMA_CM_PRIV_H

#include <linux/hashtable.h>
#include <linux/kobject.h>
#include <linux/list.h>
#include <linux/ratelimit.h>
#include <linux/refcount.h>
#include <linux/rwsem.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>
#include <linux/xarray.h>
#include <ordma/ib_cm.h>
#include <ordma/ib_core.h>
#include <ordma/ib_mad.h>
#include "cm_msgs.h"

/* Counter groups and, within each, one counter per attribute. */
enum cm_counter_group {
	CM_RECV,
	CM_XMIT,
	CM_RECV_DUPLICATES,
	CM_XMIT_RETRIES,
	CM_COUNTER_GROUPS
};

#define CM_NR_ATTRS	(CM_ATTR_APR - CM_ATTR_REQ + 1)	/* req .. apr */

/*
 * The bounds on what a peer's messages can make the CM hold or send
 * (issue 19, "bounded under a flood"); each drop is counted in debugfs.
 *
 * Answers to messages no id owns (REJ to a REQ, DREP to a DREQ, SIDR_REP
 * to a SIDR_REQ nobody listens for), per port: 200 a second, burst 200.
 * Each costs an AH and a send, and a forged source makes them a
 * reflector; an honest peer whose answer is dropped retries its request
 * (or times it out), as it does when the answer is lost.
 */
#define CM_ANSWERS_PER_SEC		200
/*
 * REQs and SIDR_REQs a listen has spawned ids for that its consumer has
 * not answered yet (REP, REJ, SIDR_REP or destroy).  Kernel rdma_cm
 * listeners have no backlog, so each unanswered REQ holds an ib_cm id,
 * its event and an rdma_cm id (about 4 KiB) for as long as the consumer
 * takes.  512 is half of rdma_ucm's default backlog (net.rdma_ucm.
 * max_backlog, 1024), so ib_cm drops a flood before rdma_ucm would
 * refuse it and have every refusal answered by a REJ; beyond it a REQ is
 * dropped without an answer, as TCP drops a SYN on a full accept queue,
 * and the sender's retries come back when there is room.
 */
#define CM_LISTEN_MAX_UNANSWERED	512

struct cm_port;

struct cm_counter_dir {
	struct kobject kobj;
	struct cm_port *port;
	enum cm_counter_group group;
};

/*
 * Received CM MADs dropped without a counter of the in-tree layout to
 * show them (debugfs ib_cm/<dev>-<port>, next to the MAD layer's ib_mad/).
 */
enum cm_drop {
	CM_DROP_BAD_ATTR,	/* an attribute ID the CM does not define */
	CM_DROP_STALE,		/* fits no state of its id, and no repeat */
	/* a REQ whose primary GID is not the GID it came from */
	CM_DROP_FOREIGN_GID,
	CM_DROP_BAD_QPN,	/* a DREQ naming another QP than the id's */
	/* a REQ/SIDR_REQ: CM_LISTEN_MAX_UNANSWERED wait at its listen */
	CM_DROP_LISTEN_FULL,
	/* a REJ/DREP/SIDR_REP not sent: over CM_ANSWERS_PER_SEC */
	CM_DROP_ANSWER_RATELIMITED,
	CM_DROP_MAX
};

struct cm_port {
	struct cm_device *cm_dev;
	u32 port_num;
	/*
	 * NULL once the device is gone.  Making a buffer on the agent holds
	 * agent_lock for reading, so that removal (which clears the pointer
	 * under it for writing, then unregisters) never frees the agent
	 * under ib_create_send_mad(); the buffer then holds the agent.
	 */
	struct rw_semaphore agent_lock;
	struct ib_mad_agent *agent;
	u32 hi_tid;			/* the agent's, for our TIDs */
	atomic_long_t counters[CM_COUNTER_GROUPS][CM_NR_ATTRS];
	struct cm_counter_dir *dirs[CM_COUNTER_GROUPS];
	atomic_long_t drops[CM_DROP_MAX];
	/* answers to messages no id owns (CM_ANSWERS_PER_SEC) */
	struct ratelimit_state answers;
	struct dentry *debugfs;
};

struct cm_device {
	struct ib_device *ibdev;	/* not to be used once dead */
	u32 nports;
	struct list_head list;		/* cm.devices or cm.dead_devices */
	struct cm_port *ports[];	/* [0, phys_port_cnt) for ports 1.. */
};

struct cm_globals {
	spinlock_t lock;
	struct list_head listens;	/* cm_id_priv.listen_entry */
	DECLARE_HASHTABLE(remote_ids, 8);
	DECLARE_HASHTABLE(remote_qpns, 8);
	struct xarray local_ids;
	u32 local_id_next;
	u32 random_xor;
	struct workqueue_struct *wq;
	struct list_head devices;	/* under devices_lock */
	/* removed devices: ids may still point at their ports until exit */
	struct list_head dead_devices;
	struct mutex devices_lock;
};

extern struct cm_globals cm;

struct cm_id_priv {
	struct ib_cm_id id;
	spinlock_t lock;
	refcount_t refcount;
	bool destroyed;

	struct list_head listen_entry;
	bool listening;
	/* a listen: ids it spawned not yet answered (CM_LISTEN_MAX_UNANSWERED) */
	atomic_t unanswered;
	/* a spawned id until answered: its listen, referenced */
	struct cm_id_priv *unanswered_on;
	struct hlist_node remote_entry;
	bool in_remote_table;
	/* RC/UC: the peer's QP (remote_qpn, path.dgid), for stale REQs */
	struct hlist_node qpn_entry;
	bool in_qpn_table;
	u32 xa_index;

	/* events waiting for the handler, in order */
	struct list_head events;
	struct work_struct event_work;
	struct delayed_work timewait_work;
	bool timewait_pending;

	/* where we talk to the peer's CM */
	struct cm_port *port;
	struct ib_ah_attr av;
	const struct ib_gid_attr *sgid_attr;	/* referenced */
	struct ib_cm_path path;			/* from our side */
	__be64 tid;
	struct ib_mad_send_buf *msg;	/* the one waiting for an answer */
	/*
	 * We cancelled msg (an answer came, the id moved on): its flush is
	 * no failure.  A flush without it is one (the QP flushed the send).
	 */
	bool msg_cancelled;
	/* the last one-shot answer (MRA, RTU, REJ), resent on duplicates */
	u8 last_msg[CM_MSG_SIZE];
	u16 last_attr;

	/* the connection as negotiated */
	u64 remote_ca_guid;
	enum ib_qp_type qp_type;
	u32 local_qpn;
	u32 remote_qpn;
	u32 sq_psn;
	u32 rq_psn;
	bool rq_psn_fixed;	/* passive: handed out in RTR before the REP */
	u8 responder_resources;
	u8 initiator_depth;
	u8 retry_count;
	u8 rnr_retry_count;
	u8 local_ack_timeout;
	u8 max_cm_retries;
	u8 remote_cm_response_timeout;	/* how long the peer may take */
	u8 local_cm_response_timeout;	/* how long we said we take */
	u8 srq;
	u8 flow_control;
};

/* One event for the handler: owns a copy of the message it came from. */
struct cm_event_work {
	struct list_head list;
	struct ib_cm_event event;
	struct cm_id_priv *listen;	/* REQ/SIDR_REQ: referenced */
	struct ib_cm_path path;
	struct ib_ah_attr ah_attr;
	u8 msg[CM_MSG_SIZE];
};

static inline struct cm_id_priv *to_priv(struct ib_cm_id *id)
{
	return container_of(id, struct cm_id_priv, id);
}

static inline int cm_attr_index(u16 attr_id)
{
	if (attr_id < CM_ATTR_REQ || attr_id > CM_ATTR_APR)
		return -1;
	return attr_id - CM_ATTR_REQ;
}

static inline void cm_count_n(struct cm_port *port, enum cm_counter_group g,
			      u16 attr_id, long n)
{
	int i = cm_attr_index(attr_id);

	if (port && i >= 0)
		atomic_long_add(n, &port->counters[g][i]);
}

static inline void cm_count(struct cm_port *port, enum cm_counter_group g,
			    u16 attr_id)
{
	cm_count_n(port, g, attr_id, 1);
}

/* cm.c */
void cm_get(struct cm_id_priv *priv);
void cm_put(struct cm_id_priv *priv);
struct cm_id_priv *cm_alloc_id(struct ib_device *device,
			       ib_cm_handler handler, void *context);
struct cm_id_priv *cm_find_local(__be32 local_id);
struct cm_id_priv *cm_find_listen(struct ib_device *device, __be64 sid);
struct cm_id_priv *cm_find_remote(__be32 remote_id, u64 remote_ca_guid);
/* -EEXIST (and nothing inserted) if another id has the same remote. */
int cm_insert_remote(struct cm_id_priv *priv);
struct cm_id_priv *cm_find_remote_qpn(u32 remote_qpn, const u8 *gid);
void cm_remove_remote(struct cm_id_priv *priv);
struct cm_event_work *cm_alloc_event(enum ib_cm_event_type type,
				     const u8 *msg);
void cm_queue_event(struct cm_id_priv *priv, struct cm_event_work *ev);
void cm_free_event(struct cm_event_work *ev);
/* Under priv->lock: TIMEWAIT now, IDLE (with TIMEWAIT_EXIT) later. */
void cm_enter_timewait(struct cm_id_priv *priv);
struct cm_port *cm_get_port(struct ib_device *ibdev, u32 port_num);
/* A slot among @listen's unanswered requests, if it has one free. */
bool cm_listen_take_slot(struct cm_id_priv *listen);
void cm_listen_put_slot(struct cm_id_priv *listen);
/* The spawned @priv answered its REQ/SIDR_REQ: its slot is free again. */
void cm_req_answered(struct cm_id_priv *priv);
int cm_set_av_from_path(struct cm_id_priv *priv, struct ib_cm_path *path);

/* cm_send.c */
/* A buffer toward the id's peer (header unset), or NULL; may sleep. */
struct ib_mad_send_buf *cm_alloc_msg(struct cm_id_priv *priv);
/* A one-shot MAD to where @recv_wc came from (no id needed). */
struct ib_mad_send_buf *cm_alloc_response(struct cm_port *port,
					  struct ib_mad_recv_wc *recv_wc,
					  u16 attr_id);
int cm_post(struct cm_port *port, struct ib_mad_send_buf *buf);
void cm_cancel_msg_locked(struct cm_id_priv *priv);
u8 *cm_msg_data(struct ib_mad_send_buf *buf);
/*
 * Under priv->lock; each sends with *@spare (from cm_alloc_msg()) and
 * sets it NULL, or sends nothing if it is NULL.
 */
void cm_send_rej_locked(struct cm_id_priv *priv,
			struct ib_mad_send_buf **spare,
			enum ib_cm_rej_reason reason, const void *ari,
			u8 ari_len, const void *pdata, u8 pdata_len);
/*
 * A connection being set up (REQ sent or received up to the RTU): stop
 * repeating our message and send the REJ; false, doing nothing, in any
 * other state.  The caller moves the state on.
 */
bool cm_reject_locked(struct cm_id_priv *priv, struct ib_mad_send_buf **spare,
		      enum ib_cm_rej_reason reason, const void *ari,
		      u8 ari_len, const void *pdata, u8 pdata_len);
void cm_send_dreq_oneshot(struct cm_id_priv *priv,
			  struct ib_mad_send_buf **spare);
void cm_send_drep_locked(struct cm_id_priv *priv,
			 struct ib_mad_send_buf **spare, const void *pdata,
			 u8 pdata_len);
void cm_resend_last(struct cm_id_priv *priv, struct ib_mad_send_buf **spare);
void cm_send_sidr_status(struct cm_id_priv *priv,
			 struct ib_mad_send_buf **spare,
			 enum ib_cm_sidr_status status);

/* cm_recv.c */
void cm_recv_handler(struct ib_mad_agent *agent,
		     struct ib_mad_send_buf *send_buf,
		     struct ib_mad_recv_wc *recv_wc);
void cm_send_handler(struct ib_mad_agent *agent,
		     struct ib_mad_send_wc *send_wc);

/* cm_sysfs.c */
int cm_sysfs_add_port(struct cm_port *port);
void cm_sysfs_remove_port(struct cm_port *port);
void cm_debugfs_init(void);
void cm_debugfs_exit(void);

static inline void cm_count_drop(struct cm_port *port, enum cm_drop why)
{
	atomic_long_inc(&port->drops[why]);
}

/*
 * How long until an answer is due (or a timewait ends): @peer_timeout, an
 * exponent the peer chose (capped by cm_timeout_ms()), plus a round trip.
 */
static inline u32 cm_wait_ms(const struct cm_id_priv *priv, u8 peer_timeout)
{
	return 2 * cm_timeout_ms(priv->path.packet_life_time) +
	       cm_timeout_ms(peer_timeout);
}

#endif
