/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * rdma_ucm internals shared by the file/event side (ucma_main.c) and the
 * command handlers (ucma_cmd.c).
 *
 * Objects and who owns them:
 *   ucma_file     one per open of /dev/infiniband/rdma_cm: the ids and
 *                 multicast joins it owns, and its queue of events.
 *   ucma_context  one per rdma_cm_id a file owns.  Its number (global, so
 *                 it survives MIGRATE_ID) is its index in ucma_ids,
 *                 reserved first and stored only once userspace has
 *                 been told it (CREATE_ID's response, or GET_EVENT of
 *                 its CONNECT_REQUEST).  A command holds a reference;
 *                 whoever erases it from ucma_ids destroys it once the
 *                 references are gone.
 *   ucma_mcast    one per multicast join, numbered in ucma_mcasts.
 *   ucma_event    an rdma_cm event converted for GET_EVENT.
 *
 * Locks, outer to inner: ctx->mutex (one command at a time on an id, held
 * across rdma_* calls), ctx->event_lock (the rdma_cm handler and MIGRATE_ID:
 * which file the id's events go to), file->mut (event list, id list,
 * counts), then the xarray locks.
 */
#ifndef UCMA_H
#define UCMA_H

#include <linux/completion.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/refcount.h>
#include <linux/wait.h>
#include <linux/xarray.h>
#include <ordma/rdma_cm.h>
#include "ucma_abi.h"

/* What one open file may make the kernel hold. */
#define UCMA_MAX_IDS	4096	/* ids and multicast joins */
#define UCMA_MAX_EVENTS	8192	/* queued, not yet read events */

struct ucma_file {
	struct mutex mut;
	struct file *filp;
	struct list_head ctx_list;
	struct list_head event_list;
	wait_queue_head_t poll_wait;
	unsigned int nr_ids;		/* contexts + multicast joins */
	unsigned int nr_events;
	bool closing;			/* release: no new listen children */
};

struct ucma_context {
	u32 id;
	refcount_t ref;
	struct completion comp;		/* the last reference is gone */
	struct mutex mutex;
	struct mutex event_lock;
	struct ucma_file *file;		/* written under event_lock + file->mut */
	struct rdma_cm_id *cm_id;
	u64 uid;
	bool reporting;			/* events go to userspace */
	atomic_t backlog;		/* listen: requests still allowed */
	u32 events_reported;		/* under file->mut */
	struct list_head list;		/* in file->ctx_list */
	struct list_head mc_list;	/* under mutex */
};

struct ucma_mcast {
	u32 id;
	struct ucma_context *ctx;
	u64 uid;
	u8 join_state;
	u32 events_reported;		/* under file->mut */
	struct list_head list;		/* in ctx->mc_list */
	struct sockaddr_storage addr;
};

struct ucma_event {
	struct list_head list;
	struct ucma_context *ctx;
	struct ucma_context *conn_req_ctx;	/* CONNECT_REQUEST: the new id */
	struct ucma_mcast *mc;
	struct rdma_ucm_event_resp resp;
};

extern struct xarray ucma_ids;
extern struct xarray ucma_mcasts;
extern const struct file_operations ucma_fops;

typedef int (*ucma_cmd_fn)(struct ucma_file *file, const void *cmd,
			   u16 out_len);
extern const ucma_cmd_fn ucma_cmd_handlers[UCMA_CMD_COUNT];

struct ucma_context *ucma_get_ctx(struct ucma_file *file, u32 id);
struct ucma_context *ucma_get_ctx_dev(struct ucma_file *file, u32 id);
void ucma_put_ctx(struct ucma_context *ctx);
int ucma_create_ctx(struct ucma_file *file, u64 uid,
		    enum rdma_ucm_port_space ps, enum ib_qp_type qp_type,
		    void __user *response);
/* Destroy the id numbered @id; returns its events_reported or an errno. */
int ucma_destroy_id(struct ucma_file *file, u32 id);
int ucma_charge_id(struct ucma_file *file);
void ucma_uncharge_id(struct ucma_file *file);
/* Drop @mc's queued events; returns its events_reported. */
u32 ucma_purge_mc_events(struct ucma_mcast *mc);
int ucma_migrate(struct ucma_file *new_file, struct ucma_context *ctx,
		 u32 *events_reported);
int ucma_get_event(struct ucma_file *file, void __user *response,
		   u16 out_len);

void ucma_ah_attr_to_user(struct ib_uverbs_ah_attr *dst,
			  const struct ib_ah_attr *src);

#endif
