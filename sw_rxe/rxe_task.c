// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The three parts of a QP (requester, completer, responder) run as work
 * items on one unbound workqueue.  A work item never runs concurrently
 * with itself, so each part is single threaded per QP without a lock,
 * while different QPs (and different parts of one QP) run in parallel.
 */
#include <linux/workqueue.h>
#include "rxe_loc.h"

struct workqueue_struct *rxe_wq;

/* Calls of @fn per run before the work item yields the worker. */
#define RXE_TASK_BUDGET		64

static void rxe_task_work(struct work_struct *work)
{
	struct rxe_task *task = container_of(work, struct rxe_task, work);
	int budget = RXE_TASK_BUDGET;

	while (!READ_ONCE(task->stopped)) {
		if (task->fn(task->qp))
			return;
		if (--budget == 0) {
			/* more to do: go to the back of the queue */
			queue_work(rxe_wq, &task->work);
			return;
		}
	}
}

void rxe_task_init(struct rxe_task *task, struct rxe_qp *qp,
		   int (*fn)(struct rxe_qp *qp))
{
	INIT_WORK(&task->work, rxe_task_work);
	task->qp = qp;
	task->fn = fn;
	task->stopped = false;
}

void rxe_task_run(struct rxe_task *task)
{
	if (!READ_ONCE(task->stopped))
		queue_work(rxe_wq, &task->work);
}

void rxe_task_stop(struct rxe_task *task)
{
	WRITE_ONCE(task->stopped, true);
	/* a run that was queued before sees @stopped and returns at once */
	cancel_work_sync(&task->work);
}

void rxe_task_start(struct rxe_task *task)
{
	WRITE_ONCE(task->stopped, false);
}

int rxe_wq_init(void)
{
	rxe_wq = alloc_workqueue("rxe_wq", WQ_UNBOUND | WQ_MEM_RECLAIM, 0);
	return rxe_wq ? 0 : -ENOMEM;
}

void rxe_wq_exit(void)
{
	destroy_workqueue(rxe_wq);
}
