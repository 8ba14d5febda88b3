/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Internal to the MAD layer (core/mad.c): the per-port GSI state, agents,
 * send and receive buffers.  See include/ordma/ib_mad.h for the flows.
 *
 * Lifetimes:
 *  - a mad_port lives from the device's registration (the "mad" client's
 *    add) to its unregistration (remove); agents must be gone by then.
 *  - a mad_agent is referenced by its registration, by every send buffer
 *    made on it until ib_free_send_mad(), by every send it has posted
 *    until send_handler() returned, and by every event queued for its
 *    handlers; unregistration waits for the count to drop to zero, so a
 *    consumer frees its buffers before (or while) it unregisters.
 *  - a mad_send is the consumer's from ib_create_send_mad() to
 *    ib_free_send_mad(); while posted it is on its agent's send list.
 *  - a mad_recv is the QP's while posted, then its agent's until
 *    ib_free_recv_mad().
 *
 * Locks: mad_agent.lock (the agent's sends and events) nests outside
 * mad_port.lock (method tables, send queue accounting, posted receives);
 * both are taken with interrupts saved, consumers may post from any
 * context.  mad_port.reg_mutex serializes (un)registrations.
 */
#ifndef ORDMA_MAD_PRIV_H
#define ORDMA_MAD_PRIV_H

#include <linux/completion.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/ratelimit.h>
#include <linux/refcount.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>
#include <linux/xarray.h>
#include <ordma/ib_mad.h>

#define MAD_GRH_SIZE		40
#define MAD_QP_SEND_DEPTH	64
#define MAD_QP_RECV_DEPTH	64

/*
 * The bounds on what a peer's traffic can make the layer hold (issue 19,
 * "bounded under a flood"); each drop beyond one is counted.
 *
 * Requests an agent has been handed and not yet handled: the receive
 * path refills the ring before it dispatches, so a peer that sends faster
 * than the consumer handles (the CM builds an id per REQ) would grow the
 * queue without limit.  16 receive rings' worth lets bursts of a full
 * ring wait many times over; at about 1 KiB a buffer it holds at most
 * 1 MiB per agent.  (Responses are not capped: each ends the send it
 * matches, so there are no more of them than the agent's own sends.)
 */
#define MAD_AGENT_MAX_QUEUED_REQUESTS	1024
/*
 * Sends waiting for room in the send queue or for QP1's recovery: four
 * send queues' worth.  More than that waiting means the port cannot keep
 * up (or QP1 stays down); the next send then fails at once to its agent
 * (IB_WC_GENERAL_ERR) rather than holding its buffer and AH.
 */
#define MAD_PORT_MAX_BACKLOG		(4 * MAD_QP_SEND_DEPTH)
/*
 * Answers to Get/Set that no agent takes, per port: 200 a second (burst
 * 200).  They are a courtesy (IBTA 13.4.9, so the requester need not time
 * out); each costs an AH and a send slot, and a flood of unclaimed Gets
 * must not turn the port into a reflector.
 */
#define MAD_UNCLAIMED_ANSWERS_PER_SEC	200

/* Per-port drop and traffic counters, shown in debugfs (ib_mad/). */
enum mad_port_counter {
	MAD_CNT_RX_DELIVERED,	/* given to an agent's recv_handler */
	MAD_CNT_RX_SHORT,	/* fewer than 256 bytes after the GRH */
	MAD_CNT_RX_BAD_VERSION,	/* base version other than 1 */
	MAD_CNT_RX_UNCLAIMED,	/* no agent for it / no send matched */
	MAD_CNT_RX_NO_ROUTE,	/* no way back (bad GRH, local GID gone) */
	MAD_CNT_RX_ERROR,	/* receive completed with an error */
	MAD_CNT_RX_NO_BUFFER,	/* no memory for a fresh receive buffer */
	MAD_CNT_TX_SENT,	/* send completions, retransmissions included */
	MAD_CNT_TX_RETRIES,	/* retransmissions after a timeout */
	MAD_CNT_TX_TIMEOUTS,	/* sends that ran out of retries */
	MAD_CNT_TX_ERROR,	/* send completed with an error */
	MAD_CNT_TX_ANSWERED,	/* unclaimed Get/Set answered with a status */
	MAD_CNT_RX_FLUSHED,	/* receives flushed: the QP went to ERR */
	MAD_CNT_QP_RECOVERED,	/* QP1 brought back from ERR to RTS */
	MAD_CNT_QP_RECOVERY_FAILED, /* a try at that failed (retried) */
	/* a request dropped: its agent had MAD_AGENT_MAX_QUEUED_REQUESTS */
	MAD_CNT_RX_AGENT_BUSY,
	/* a send failed at once: MAD_PORT_MAX_BACKLOG sends were waiting */
	MAD_CNT_TX_BACKLOG_FULL,
	/* an unclaimed Get/Set left unanswered: over the answer rate */
	MAD_CNT_TX_UNCLAIMED_RATELIMITED,
	MAD_CNT_MAX,
};

/* Which agent takes each method of one (class, class version). */
struct mad_method_table {
	struct mad_agent *agent[IB_MGMT_MAX_METHODS];
};

struct mad_port {
	struct ib_device *device;
	u32 port_num;
	struct ib_pd *pd;
	struct ib_cq *cq;
	struct ib_qp *qp;

	spinlock_t lock;
	/* (class << 8 | class_version) -> mad_method_table; under reg_mutex */
	struct xarray classes;
	struct mutex reg_mutex;
	/* hi_tid -> mad_agent, allocated cyclically */
	struct xarray agents;
	u32 next_hi_tid;

	/* Sends posted to the QP, and those waiting for room (lock). */
	unsigned int sends_posted;
	struct list_head send_backlog;
	unsigned int backlog_len;	/* at most MAD_PORT_MAX_BACKLOG */
	/* answers to unclaimed Get/Set (MAD_UNCLAIMED_ANSWERS_PER_SEC) */
	struct ratelimit_state unclaimed_answers;

	/* Receive buffers the QP holds (lock); freed at teardown. */
	struct list_head recvs_posted;
	/* The layer's own answers to unclaimed requests on the QP (lock). */
	struct list_head replies;
	bool closing;
	/*
	 * The QP flushed a work request, so it is in ERR (lock): nothing is
	 * posted until recover_work has brought it back to RTS, which it
	 * does once every posted WR has come back.  Flushed receive buffers
	 * wait in recvs_parked, sends on send_backlog.
	 */
	bool qp_down;
	struct list_head recvs_parked;
	struct delayed_work recover_work;

	/* Send buffers freed by consumers, their AHs destroyed here. */
	struct llist_head free_sends;
	struct work_struct free_work;

	atomic64_t counters[MAD_CNT_MAX];
	struct dentry *debugfs;
};

/* What an agent's handler work delivers, in the order queued. */
enum mad_event_kind {
	MAD_EVENT_RECV,
	MAD_EVENT_SEND_DONE,
};

struct mad_event {
	struct list_head list;
	enum mad_event_kind kind;
};

struct mad_agent {
	struct ib_mad_agent agent;
	struct mad_port *port;
	ib_mad_send_handler send_handler;
	ib_mad_recv_handler recv_handler;
	bool has_reg;
	struct ib_mad_reg_req reg;

	refcount_t refcount;
	struct completion released;

	spinlock_t lock;
	bool dead;			/* unregistering: no new work */
	struct list_head sends;		/* posted, not yet reported */
	struct list_head events;	/* for handler_work */
	/* MAD_EVENT_RECVs of requests on events */
	unsigned int queued_requests;
	struct work_struct handler_work;
	struct delayed_work timeout_work;
	unsigned long timeout_at;	/* when timeout_work is due */
};

/*
 * A send's progress.  IDLE: created, or reported and reposted never.
 * ON_WIRE: handed to the QP (or its backlog), its completion due.
 * WAITING: sent, waiting for a response until @deadline.  DONE: queued
 * for send_handler().
 */
enum mad_send_state {
	MAD_SEND_IDLE,
	MAD_SEND_ON_WIRE,
	MAD_SEND_WAITING,
	MAD_SEND_DONE,
};

struct mad_send {
	struct ib_mad_send_buf send_buf;
	struct mad_agent *agent;
	struct ib_ah *ah;
	struct ib_cqe cqe;
	struct ib_ud_wr wr;
	struct ib_sge sge;

	/* agent->lock */
	enum mad_send_state state;
	struct list_head list;		/* agent->sends */
	struct list_head backlog;	/* port->send_backlog */
	struct mad_event event;
	enum ib_wc_status status;	/* what send_handler will see */
	bool finish_on_wc;		/* final once the QP is done with it */
	int retries_left;
	unsigned long deadline;		/* jiffies, in WAITING */
	u64 tid;			/* the TID as posted */
	u8 mgmt_class;

	struct llist_node free_node;
	struct ib_mad mad;
};

/* The layer's own answer to a Get/Set no agent takes (IBTA 13.4.9). */
struct mad_reply {
	struct ib_cqe cqe;
	struct list_head list;		/* port->replies */
	struct ib_ah *ah;
	struct ib_ud_wr wr;
	struct ib_sge sge;
	struct ib_mad mad;
};

/* A receive buffer: the 40-byte GRH slot, then the MAD. */
struct mad_recv {
	struct ib_cqe cqe;
	struct list_head list;		/* port->recvs_posted */
	struct mad_port *port;
	struct ib_mad_recv_wc recv_wc;
	struct ib_wc wc;
	struct mad_event event;
	struct mad_send *matched;	/* the request it answers, if any */
	bool is_request;		/* counted in queued_requests */
	struct ib_sge sge;
	struct ib_recv_wr wr;
	u8 buf[MAD_GRH_SIZE + IB_MGMT_MAD_SIZE] __aligned(8);
};

/* main.c's module init/exit: the "mad" client of every device. */
int ib_mad_init(void);
void ib_mad_exit(void);

#endif
