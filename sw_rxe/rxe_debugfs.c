// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Debug hooks under debugfs (root only), one directory per device:
 *
 *   rdma_rxe/DEV/cqs       one line per CQ: "INDEX CQE COUNT NOTIFY"
 *   rdma_rxe/DEV/qps       one line per QP: its state, send queue indices,
 *                          PSNs, requester flags and its tasks' bits, and
 *                          a second line with the responder's PSN and
 *                          flags (what a hung QP is waiting for)
 *   rdma_rxe/DEV/cq_post   write "INDEX WR_ID STATUS SOLICITED" to post a
 *                          completion to CQ INDEX with rxe_cq_post(), as
 *                          the data path does; the write fails with its
 *                          errno (-EBUSY: the CQ was full)
 *   rdma_rxe/DEV/qp_error  write "QPN" to move that QP to the error state
 *                          as a fatal local error would (rxe_qp_error())
 *
 * They let tests drive the completion path (shared ring, arming, events,
 * overflow, resize with entries) before QPs exist, and what a QP's owner
 * does when the QP fails under it (the MAD layer recovering QP1).
 */
#include <linux/debugfs.h>
#include <linux/seq_file.h>
#include <linux/uaccess.h>
#include "rxe.h"
#include "rxe_loc.h"

static struct dentry *rxe_debugfs_root;

static int cqs_show(struct seq_file *m, void *unused)
{
	struct rxe_dev *rxe = m->private;
	unsigned long index;
	struct rxe_cq *cq;

	/* A CQ in the table is not destroyed before we let go of it. */
	xa_lock_irq(&rxe->cq_table.xa);
	xa_for_each(&rxe->cq_table.xa, index, cq) {
		spin_lock(&cq->lock);
		seq_printf(m, "%lu %d %u %u\n", index, cq->ibcq.cqe,
			   rxe_queue_count(cq->queue), cq->notify);
		spin_unlock(&cq->lock);
	}
	xa_unlock_irq(&rxe->cq_table.xa);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(cqs);

static void qps_show_one(struct seq_file *m, struct rxe_qp *qp)
{
	struct rxe_req_info *req = &qp->req;
	struct rxe_queue *sq = qp->sq.queue;

	seq_printf(m, "%u state %d", rxe_qp_num(qp), rxe_qp_state(qp));
	if (sq)
		seq_printf(m, " sq prod %u cons %u cur %u wqe %u shadow %u",
			   rxe_queue_producer(sq), rxe_queue_consumer(sq),
			   req->cur_index, req->wqe_index, req->shadow_index);
	if (sq && rxe_queue_consumer(sq) != req->shadow_index)
		seq_printf(m, " head %d",
			   rxe_sq_wqe(qp, rxe_queue_consumer(sq))->state);
	seq_printf(m, " psn %06x sent %06x comp %06x retry %d rnr %d blocked %d events %lx timer %d tasks %lx/%d %lx/%d %lx/%d ack %d\n",
		   req->psn, req->sent_psn, qp->comp.psn, req->need_retry,
		   req->wait_rnr_timer, req->blocked, req->events,
		   timer_pending(&req->retrans_timer),
		   req->task.flags, req->task.stopped,
		   qp->comp.task.flags, qp->comp.task.stopped,
		   qp->resp.task.flags, qp->resp.task.stopped,
		   qp->resp.ack_pending);
	seq_printf(m, "    resp psn %06x ack_psn %06x opcode %d nak_sent %d has_wqe %d rd_active %d\n",
		   qp->resp.psn, qp->resp.ack_psn, qp->resp.opcode,
		   qp->resp.nak_sent, qp->resp.has_wqe, qp->resp.rd_active);
}

static int qps_show(struct seq_file *m, void *unused)
{
	struct rxe_dev *rxe = m->private;
	unsigned long index;
	struct rxe_qp *qp;

	/* a snapshot without the QPs' locks: racy, for reading by eye */
	xa_lock_irq(&rxe->qp_table.xa);
	xa_for_each(&rxe->qp_table.xa, index, qp)
		qps_show_one(m, qp);
	xa_unlock_irq(&rxe->qp_table.xa);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(qps);

static ssize_t cq_post_write(struct file *file, const char __user *ubuf,
			     size_t len, loff_t *ppos)
{
	struct rxe_dev *rxe = file->private_data;
	struct ib_uverbs_wc wc = {};
	u32 index, status, solicited;
	struct rxe_cq *cq;
	char buf[96];
	u64 wr_id;
	int ret;

	if (len >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = 0;
	if (sscanf(buf, "%u %llu %u %u", &index, &wr_id, &status,
		   &solicited) != 4)
		return -EINVAL;

	cq = rxe_cq_get(rxe, index);
	if (!cq)
		return -ENOENT;
	wc.wr_id = wr_id;
	wc.status = status;
	wc.opcode = IB_UVERBS_WC_SEND;
	ret = rxe_cq_post(cq, &wc, solicited);
	rxe_cq_put(cq);
	return ret ? ret : len;
}

static const struct file_operations cq_post_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = cq_post_write,
};

static ssize_t qp_error_write(struct file *file, const char __user *ubuf,
			      size_t len, loff_t *ppos)
{
	struct rxe_dev *rxe = file->private_data;
	struct rxe_qp *qp;
	u32 qpn;
	int ret;

	ret = kstrtou32_from_user(ubuf, len, 0, &qpn);
	if (ret)
		return ret;
	qp = rxe_qp_get(rxe, qpn);
	if (!qp)
		return -ENOENT;
	rxe_qp_error(qp);
	rxe_qp_put(qp);
	return len;
}

static const struct file_operations qp_error_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = qp_error_write,
};

void rxe_debugfs_add(struct rxe_dev *rxe)
{
	rxe->debugfs = debugfs_create_dir(ib_device_name(&rxe->ib_dev),
					  rxe_debugfs_root);
	debugfs_create_file("cqs", 0400, rxe->debugfs, rxe, &cqs_fops);
	debugfs_create_file("qps", 0400, rxe->debugfs, rxe, &qps_fops);
	debugfs_create_atomic_t("rcv_drops", 0400, rxe->debugfs,
				&rxe->rcv_drops);
	debugfs_create_file("cq_post", 0200, rxe->debugfs, rxe,
			    &cq_post_fops);
	debugfs_create_file("qp_error", 0200, rxe->debugfs, rxe,
			    &qp_error_fops);
}

/* Waits for readers and writers of the files to leave. */
void rxe_debugfs_remove(struct rxe_dev *rxe)
{
	debugfs_remove(rxe->debugfs);
	rxe->debugfs = NULL;
}

void rxe_debugfs_init(void)
{
	rxe_debugfs_root = debugfs_create_dir("rdma_rxe", NULL);
}

void rxe_debugfs_exit(void)
{
	debugfs_remove(rxe_debugfs_root);
}
