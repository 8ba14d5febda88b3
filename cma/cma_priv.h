/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Internal to rdma_cm: the private id, the per-device state and what the
 * files of the module share.
 *
 * Locks, outermost first:
 *   id->handler_mutex  one event or one rdma_* call at a time per id;
 *                      held while the id's handler runs
 *   cma_lock (mutex)   the device list, every device's id list, the
 *                      port spaces (bind lists), listeners' children and
 *                      the shared ib_cm listens
 *   id->lock (spin)    the state word, for cheap compare-and-exchange
 * A REQ takes the listener's handler_mutex, then the new id's.  ib_cm
 * ids are destroyed with no handler_mutex held (their handlers take it).
 */
#ifndef ORDMA_CMA_PRIV_H
#define ORDMA_CMA_PRIV_H

#include <linux/completion.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/refcount.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>
#include <ordma/ib_core.h>
#include <ordma/rdma_cm.h>
#include "cma_hdr.h"

#define CMA_CM_RESPONSE_TIMEOUT	20	/* 4.096 us * 2^20, ~4.3 s */
#define CMA_MAX_CM_RETRIES	15
#define CMA_PACKET_LIFETIME	18
#define CMA_ROCE_PKEY		0xffff

/* One RDMA device as the rdma_cm knows it (ib_client data). */
struct cma_device {
	struct ib_device *device;
	struct list_head list;		/* cma_dev_list */
	struct list_head id_list;	/* ids attached to the device */
	struct list_head ib_listens;	/* struct cma_ib_listen */
	struct kref kref;		/* attached ids and the list */
	u32 next_res_id;		/* `rdma res` cm-idn, under cma_lock */
};

/* One ib_cm listen per (device, service ID), shared by the ids on it. */
struct cma_ib_listen {
	struct list_head list;		/* cma_device.ib_listens */
	struct ib_cm_id *cm_id;
	__be64 service_id;
	int users;
};

/* The ids bound to one port of one port space in one namespace. */
struct cma_bind_list {
	struct hlist_node hnode;	/* cma_bind_table */
	struct hlist_head owners;	/* rdma_id_private.bind_node */
	struct net *net;
	enum rdma_ucm_port_space ps;
	unsigned short port;
};

struct cma_multicast {
	struct list_head list;
	struct sockaddr_storage addr;
	union ib_gid mgid;
	void *context;
	u8 join_state;
	bool igmp_joined;
	int ifindex;
	struct rdma_id_private *id_priv;
};

struct rdma_id_private {
	struct rdma_cm_id id;

	spinlock_t lock;
	enum rdma_cm_state state;
	struct mutex handler_mutex;
	struct task_struct *handler_task;	/* running the handler */
	refcount_t refcount;
	struct completion comp;

	struct cma_device *cma_dev;
	struct list_head device_item;	/* cma_device.id_list */
	const struct ib_gid_attr *sgid_attr;	/* our GID entry, referenced */

	/* Listeners: a wildcard one has a child per device. */
	struct list_head listen_list;	/* children */
	struct list_head listen_item;	/* a child in its parent's list */
	struct list_head listen_any_item; /* wildcard listeners */
	struct cma_ib_listen *ib_listen;
	bool internal;			/* a per-device child listener */
	int backlog;

	struct cma_bind_list *bind_list;
	struct hlist_node bind_node;

	struct ib_cm_id *cm_id;
	struct ib_cm_path path;

	struct delayed_work addr_work;	/* address resolution */
	unsigned long addr_deadline;

	struct list_head mc_list;

	u32 seq_num;
	u32 qp_num;
	u32 qkey;
	u8 srq;
	u8 tos;
	u8 tos_set:1;
	u8 reuseaddr:1;
	u8 afonly:1;
	u8 afonly_set:1;
	u8 timeout_set:1;
	u8 min_rnr_timer_set:1;
	u8 rts_pending:1;
	u8 initiator_depth;
	u8 timeout;
	u8 min_rnr_timer;

	/* For `rdma res show cm_id`: who owns it, its number there. */
	struct pid *owner;		/* a process's (ucma), or NULL */
	const char *kern_name;		/* else the kernel module's name */
	u32 res_id;			/* set when attached to a device */
};

static inline struct rdma_id_private *to_id_priv(struct rdma_cm_id *id)
{
	return container_of(id, struct rdma_id_private, id);
}

static inline struct sockaddr *cma_src_addr(struct rdma_id_private *p)
{
	return (struct sockaddr *)&p->id.route.addr.src_addr;
}

static inline struct sockaddr *cma_dst_addr(struct rdma_id_private *p)
{
	return (struct sockaddr *)&p->id.route.addr.dst_addr;
}

static inline sa_family_t cma_family(struct rdma_id_private *p)
{
	return p->id.route.addr.src_addr.ss_family;
}

static inline struct net *cma_net(struct rdma_id_private *p)
{
	return p->id.route.addr.dev_addr.net;
}

/* cma.c: ids, states, events, devices */
extern struct mutex cma_lock;
extern struct workqueue_struct *cma_wq;
extern struct list_head cma_dev_list;
extern struct list_head cma_listen_any;

bool cma_comp_exch(struct rdma_id_private *p, enum rdma_cm_state comp,
		   enum rdma_cm_state exch);
enum rdma_cm_state cma_exch(struct rdma_id_private *p,
			    enum rdma_cm_state exch);
void cma_inherit_owner(struct rdma_id_private *c,
		       const struct rdma_id_private *parent);
bool cma_lock_handler(struct rdma_id_private *p);
void cma_unlock_handler(struct rdma_id_private *p, bool locked);
int cma_deliver(struct rdma_id_private *p, struct rdma_cm_event *ev);
void cma_destroy_locked(struct rdma_id_private *p);
void cma_id_get(struct rdma_id_private *p);
void cma_id_put(struct rdma_id_private *p);
struct rdma_id_private *cma_alloc_id(struct net *net,
				     rdma_cm_event_handler handler,
				     void *context,
				     enum rdma_ucm_port_space ps,
				     enum ib_qp_type qp_type);
void cma_attach(struct rdma_id_private *p, struct cma_device *cma_dev,
		u32 port, const struct ib_gid_attr *sgid_attr);
void cma_detach(struct rdma_id_private *p);
int cma_queue_event(struct rdma_id_private *p, enum rdma_cm_state old,
		    enum rdma_cm_state new, const struct rdma_cm_event *ev);
int cma_modify_qp_err(struct rdma_id_private *p);
int cma_modify_qp_rtr_rts(struct rdma_id_private *p,
			  const struct rdma_conn_param *param);
int cma_modify_qp_rts(struct rdma_id_private *p);
extern struct ib_client cma_client;	/* ids' devices come and go */

/* cma_addr.c: address and route resolution */
bool cma_any_addr(const struct sockaddr *addr);
int cma_addr_cmp(const struct sockaddr *a, const struct sockaddr *b);
__be16 cma_port(const struct sockaddr *addr);
int cma_addr_size(const struct sockaddr *addr);
void cma_ip_to_gid(const struct sockaddr *addr, union ib_gid *gid);
int cma_acquire_by_ndev(struct rdma_id_private *p, struct net_device *ndev);
void cma_copy_l2(struct rdma_dev_addr *da, const struct net_device *ndev);
void cma_addr_work(struct work_struct *work);
int cma_bind_locked(struct rdma_id_private *p, struct sockaddr *addr);
int cma_addr_init(void);
void cma_addr_exit(void);

/* cma_ports.c: port spaces */
int cma_get_port(struct rdma_id_private *p);
void cma_release_port(struct rdma_id_private *p);
int cma_check_port(struct cma_bind_list *bl, struct rdma_id_private *p,
		   bool reuseaddr);
struct cma_bind_list *cma_ps_find(struct net *net,
				  enum rdma_ucm_port_space ps,
				  unsigned short port);

/* cma_ib.c: ib_cm glue */
int cma_ib_listen(struct rdma_id_private *p);
void cma_ib_unlisten(struct rdma_id_private *p);

/* cma_mcast.c */
void cma_leave_all(struct rdma_id_private *p);

#endif
