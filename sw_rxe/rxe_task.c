// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The three parts of a QP (requester, completer, responder) are tasks: a
 * function called until it reports it is idle, by at most one context at
 * a time.  Normally a task runs as a work item on rxe_wq (per-CPU, high
 * priority: queued on the CPU that kicked it, so a kick is a local
 * wakeup, not an IPI).  A caller that may run the task where it is (the
 * doorbell syscall for the requester, the receive softirq for the
 * responder) uses rxe_task_run_inline() and saves the wakeup and the
 * context switch, which is most of the latency of a small message.
 *
 * Exclusion is a RUNNING bit; a kick while the task runs sets AGAIN,
 * which the runner checks after it released RUNNING, so no kick is lost.
 */
#include <linux/delay.h>
#include <linux/workqueue.h>
#include "rxe_loc.h"

struct workqueue_struct *rxe_wq;

/* Calls of @fn per run before the runner yields to other work. */
#define RXE_TASK_BUDGET		64

enum {
	RXE_TASK_RUNNING,	/* some context is calling fn */
	RXE_TASK_AGAIN,		/* kicked since the runner last looked */
};

static bool rxe_task_claim(struct rxe_task *task)
{
	return !test_and_set_bit_lock(RXE_TASK_RUNNING, &task->flags);
}

/* Called with RUNNING claimed; releases it. */
static void rxe_task_do(struct rxe_task *task)
{
	int budget;

	do {
		budget = RXE_TASK_BUDGET;
		clear_bit(RXE_TASK_AGAIN, &task->flags);
		/*
		 * RUNNING claimed and AGAIN cleared before @stopped and the
		 * work are read: pairs with rxe_task_run*() (we see its work
		 * or its AGAIN stays set) and with rxe_task_stop() (it sees
		 * RUNNING or we see @stopped).
		 */
		smp_mb__after_atomic();
		while (!READ_ONCE(task->stopped) && !task->fn(task->qp)) {
			if (--budget == 0) {
				/*
				 * More to do: go to the back of the queue.
				 * Queued while RUNNING is ours, like any run
				 * fn queues (rxe_task_defer()), so that
				 * rxe_task_stop() can cancel it.
				 */
				queue_work(rxe_wq, &task->work);
				break;
			}
		}
		clear_bit_unlock(RXE_TASK_RUNNING, &task->flags);
		/*
		 * RUNNING released before AGAIN is tested: pairs with
		 * rxe_task_run*(), so either the kicker sees RUNNING clear or
		 * we see its AGAIN.
		 */
		smp_mb__after_atomic();
	} while (!READ_ONCE(task->stopped) &&
		 test_bit(RXE_TASK_AGAIN, &task->flags) && rxe_task_claim(task));
}

/*
 * Queued by a kick, or by the runner itself (its budget spent, or fn
 * deferring).  A run queued from inside fn may start on another CPU
 * before the runner let go of RUNNING: it then only sets AGAIN, which
 * makes the runner go round once more, so that run is not lost.
 */
static void rxe_task_work(struct work_struct *work)
{
	rxe_task_run_inline(container_of(work, struct rxe_task, work));
}

void rxe_task_init(struct rxe_task *task, struct rxe_qp *qp,
		   int (*fn)(struct rxe_qp *qp))
{
	INIT_WORK(&task->work, rxe_task_work);
	task->qp = qp;
	task->fn = fn;
	task->flags = 0;
	task->stopped = false;
}

void rxe_task_run(struct rxe_task *task)
{
	if (READ_ONCE(task->stopped))
		return;
	/* the work we were called for is visible before AGAIN is */
	smp_mb__before_atomic();
	set_bit(RXE_TASK_AGAIN, &task->flags);
	/* pairs with rxe_task_do(): we see RUNNING clear or it sees AGAIN */
	smp_mb__after_atomic();
	if (!test_bit(RXE_TASK_RUNNING, &task->flags))
		queue_work(rxe_wq, &task->work);
}

void rxe_task_run_inline(struct rxe_task *task)
{
	if (READ_ONCE(task->stopped))
		return;
	/* the work we were called for is visible before AGAIN is */
	smp_mb__before_atomic();
	set_bit(RXE_TASK_AGAIN, &task->flags);
	/* a failed claim orders nothing: the runner must still see AGAIN */
	smp_mb__after_atomic();
	if (rxe_task_claim(task))
		rxe_task_do(task);
}

/* From the task's fn only, while RUNNING is ours (see rxe_task_work()). */
void rxe_task_defer(struct rxe_task *task)
{
	if (!READ_ONCE(task->stopped))
		queue_work(rxe_wq, &task->work);
}

void rxe_task_stop(struct rxe_task *task)
{
	WRITE_ONCE(task->stopped, true);
	/* pairs with rxe_task_do(): we see RUNNING or it sees @stopped */
	smp_mb();
	/* the runner finishes its call (it may queue a run meanwhile) */
	while (test_bit(RXE_TASK_RUNNING, &task->flags))
		usleep_range(20, 100);
	/* then no run is queued again: a queued one sees @stopped */
	cancel_work_sync(&task->work);
}

void rxe_task_start(struct rxe_task *task)
{
	WRITE_ONCE(task->stopped, false);
}

int rxe_wq_init(void)
{
	rxe_wq = alloc_workqueue("rxe_wq", WQ_HIGHPRI | WQ_MEM_RECLAIM, 0);
	return rxe_wq ? 0 : -ENOMEM;
}

void rxe_wq_exit(void)
{
	destroy_workqueue(rxe_wq);
}
