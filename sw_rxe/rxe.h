/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* rdma_rxe internals: the device and its single port. */
#ifndef RXE_H
#define RXE_H

#include <linux/netdevice.h>
#include <ordma/ib_core.h>

/* The provider ABI librxe checks at GET_CONTEXT. */
#define RXE_UVERBS_ABI_VERSION	2

/* Space the RoCEv2 headers take from the netdev MTU (Eth+IP+UDP+BTH+...). */
#define RXE_MAX_HDR_LENGTH	80

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
	RXE_NUM_COUNTERS
};

struct rxe_dev {
	struct ib_device ib_dev;	/* first: the core allocates us */
	struct net_device *ndev;	/* held for the device's lifetime */

	struct ib_device_attr attr;
	struct mutex port_lock;		/* port_attr.state / active_mtu */
	struct ib_port_attr port_attr;

	atomic64_t counters[RXE_NUM_COUNTERS];
};

struct rxe_ucontext {
	struct ib_ucontext ibuc;
};

struct rxe_pd {
	struct ib_pd ibpd;
};

static inline struct rxe_dev *to_rdev(struct ib_device *ibdev)
{
	return container_of(ibdev, struct rxe_dev, ib_dev);
}

static inline void rxe_counter_inc(struct rxe_dev *rxe, enum rxe_counter c)
{
	atomic64_inc(&rxe->counters[c]);
}

/* rxe_verbs.c */
int rxe_add_device(const char *ibdev_name, struct net_device *ndev);
void rxe_set_port_state(struct rxe_dev *rxe);
void rxe_set_mtu(struct rxe_dev *rxe, unsigned int ndev_mtu);

#endif
