/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The MAD layer of ib_core (core/mad*.c): management datagrams over the
 * GSI QP (QP1) of each port, as the ib_cm module uses them on RoCE.
 *
 * When a device registers, the MAD layer creates per port a PD, a CQ and
 * the GSI QP and keeps receive buffers posted; it destroys them when the
 * device goes.  A consumer registers an agent for one port: with a
 * registration request it receives the unsolicited MADs of its
 * (management class, class version, method) set; every agent can send.
 *
 *   send:  ib_create_send_mad() -> fill send_buf->mad -> ib_post_send_mad()
 *          -> [retransmitted every timeout_ms, up to retries times, until a
 *          response matches by TID, or ib_cancel_mad()] -> send_handler()
 *          exactly once -> ib_free_send_mad()
 *   recv:  a response (method with the 0x80 bit) goes to the agent whose
 *          hi_tid is the TID's upper 32 bits and, if it matches an
 *          outstanding send by TID, comes with that send_buf; anything
 *          else to the agent registered for its class/version/method.
 *          recv_handler() owns the recv_wc until ib_free_recv_mad().
 *
 * Handlers run in process context (a workqueue) and may sleep; they are
 * never called after ib_unregister_mad_agent() returns (which must not be
 * called from the agent's own handlers).  MADs that are malformed (short,
 * bad base version), unclaimed or without a way back are dropped and
 * counted per port: /sys/kernel/debug/ib_mad/<device>-<port>, one
 * "name value" line per counter.  An unclaimed Get or Set is first
 * answered with a GetResp of status IB_MGMT_MAD_STATUS_BAD_VERSION (the
 * class is served at other versions only) or ..._UNSUPPORTED_METHOD_ATTRIB.  The wire layout of the header is in
 * <ordma/mad_wire.h> (pure, unit-tested).
 */
#ifndef ORDMA_IB_MAD_H
#define ORDMA_IB_MAD_H

#include <linux/bitmap.h>
#include <linux/types.h>
#include <ordma/ib_verbs.h>

#define IB_MGMT_BASE_VERSION		1

#define IB_MGMT_CLASS_SUBN_ADM		0x03
#define IB_MGMT_CLASS_PERF_MGMT		0x04
#define IB_MGMT_CLASS_CM		0x07

#define IB_MGMT_METHOD_GET		0x01
#define IB_MGMT_METHOD_SET		0x02
#define IB_MGMT_METHOD_SEND		0x03
#define IB_MGMT_METHOD_TRAP		0x05
#define IB_MGMT_METHOD_REPORT		0x06
#define IB_MGMT_METHOD_TRAP_REPRESS	0x07
#define IB_MGMT_METHOD_RESP		0x80
#define IB_MGMT_METHOD_GET_RESP		0x81
#define IB_MGMT_MAX_METHODS		128

#define IB_MGMT_MAD_HDR			24
#define IB_MGMT_MAD_DATA		232
#define IB_MGMT_MAD_SIZE		(IB_MGMT_MAD_HDR + IB_MGMT_MAD_DATA)

/* MAD status field values a receiver may answer with. */
#define IB_MGMT_MAD_STATUS_BAD_VERSION			0x0004
#define IB_MGMT_MAD_STATUS_UNSUPPORTED_METHOD		0x0008
#define IB_MGMT_MAD_STATUS_UNSUPPORTED_METHOD_ATTRIB	0x000c

#define IB_QP1				1
#define IB_QP1_QKEY			0x80010000
#define IB_DEFAULT_PKEY_FULL		0xffff

/* The common MAD header (IBTA 13.4.3), big-endian on the wire. */
struct ib_mad_hdr {
	u8 base_version;
	u8 mgmt_class;
	u8 class_version;
	u8 method;
	__be16 status;
	__be16 class_specific;
	__be64 tid;
	__be16 attr_id;
	__be16 resv;
	__be32 attr_mod;
};

struct ib_mad {
	struct ib_mad_hdr mad_hdr;
	u8 data[IB_MGMT_MAD_DATA];
};

struct ib_mad_agent;
struct ib_mad_send_buf;
struct ib_mad_send_wc;
struct ib_mad_recv_wc;

typedef void (*ib_mad_send_handler)(struct ib_mad_agent *agent,
				    struct ib_mad_send_wc *send_wc);
/* @send_buf: the request a response matched, else NULL. */
typedef void (*ib_mad_recv_handler)(struct ib_mad_agent *agent,
				    struct ib_mad_send_buf *send_buf,
				    struct ib_mad_recv_wc *recv_wc);

struct ib_mad_agent {
	struct ib_device *device;
	u32 port_num;
	void *context;
	u32 hi_tid;		/* upper 32 bits of this agent's TIDs */
	u8 mgmt_class;		/* 0 for a send-only agent */
	u8 class_version;
};

/* Which unsolicited MADs an agent takes. */
struct ib_mad_reg_req {
	u8 mgmt_class;
	u8 mgmt_class_version;
	DECLARE_BITMAP(method_mask, IB_MGMT_MAX_METHODS);
};

struct ib_mad_send_buf {
	struct ib_mad_agent *mad_agent;
	void *mad;		/* IB_MGMT_MAD_SIZE bytes, zeroed, to fill */
	int timeout_ms;		/* 0: done once sent; else wait for a response */
	int retries;		/* retransmissions before RESP_TIMEOUT_ERR */
	int retried;		/* set by the layer: retransmissions made */
	void *context[2];	/* the consumer's */
};

struct ib_mad_send_wc {
	struct ib_mad_send_buf *send_buf;
	/*
	 * IB_WC_SUCCESS (sent, or response received), IB_WC_RESP_TIMEOUT_ERR
	 * (retries used up), IB_WC_WR_FLUSH_ERR (cancelled, agent going),
	 * or the send completion's error.
	 */
	enum ib_wc_status status;
};

struct ib_mad_recv_wc {
	struct ib_wc *wc;		/* src_qp, pkey_index, network_hdr_type */
	struct ib_mad *mad;		/* IB_MGMT_MAD_SIZE bytes */
	const void *grh;		/* the 40-byte GRH slot (ib_wc comment) */
	/* The way back to the sender (ib_init_ah_attr_from_wc()). */
	struct ib_ah_attr ah_attr;
	u32 port_num;
};

/*
 * An agent on @port_num of @device.  @reg_req NULL: send only.  -EBUSY if
 * another agent holds a method of the same class/version, -EINVAL for a
 * bad port or class, -ENODEV if the device is going.
 */
struct ib_mad_agent *ib_register_mad_agent(struct ib_device *device,
					   u32 port_num,
					   const struct ib_mad_reg_req *reg_req,
					   ib_mad_send_handler send_handler,
					   ib_mad_recv_handler recv_handler,
					   void *context);
/*
 * Cancels the agent's sends (their send_handler sees WR_FLUSH_ERR), waits
 * for handlers in progress and for every send buffer made on the agent to
 * be freed (a buffer keeps its agent), then frees the agent.
 */
void ib_unregister_mad_agent(struct ib_mad_agent *agent);

/*
 * A send buffer to QP @remote_qpn (1 for the GSI QP) at the address
 * @ah_attr names (sgid_index on agent->port_num); the MAD layer makes the
 * AH and uses Q_Key 0x80010000.  Returns ERR_PTR(); may sleep (the AH).
 *
 * A request that waits for a response (timeout_ms > 0) must carry a TID
 * whose upper 32 bits are agent->hi_tid: responses find their agent by
 * it.  ib_post_send_mad(): 0, -EBUSY (already posted), -ESHUTDOWN (agent
 * unregistering), -EINVAL, or the QP's error; any context.  A buffer may
 * be posted again once its send_handler() ran.  ib_free_send_mad() and
 * ib_free_recv_mad() work in any context.
 */
struct ib_mad_send_buf *ib_create_send_mad(struct ib_mad_agent *agent,
					   u32 remote_qpn, u16 pkey_index,
					   const struct ib_ah_attr *ah_attr,
					   gfp_t gfp);
int ib_post_send_mad(struct ib_mad_send_buf *send_buf);
/* Wait @timeout_ms from now for the response (MRA); 0 cancels. */
int ib_modify_mad(struct ib_mad_send_buf *send_buf, u32 timeout_ms);
void ib_cancel_mad(struct ib_mad_send_buf *send_buf);
void ib_free_send_mad(struct ib_mad_send_buf *send_buf);
void ib_free_recv_mad(struct ib_mad_recv_wc *recv_wc);

/* A response method (IBTA 13.4.5): the 0x80 bit, or TrapRepress. */
static inline bool ib_response_mad(const struct ib_mad_hdr *hdr)
{
	return (hdr->method & IB_MGMT_METHOD_RESP) ||
	       hdr->method == IB_MGMT_METHOD_TRAP_REPRESS;
}

#endif
