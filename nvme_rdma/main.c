// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The transport as nvme-fabrics sees it ("rdma", which it loads as
 * nvme-rdma), and the controller's life as nvme core drives it:
 *
 *   create:   admin queue -> Fabrics Connect -> enable -> identify
 *             (nvme_init_ctrl_finish) -> Set Features (queue count) ->
 *             I/O queues -> Connect each -> LIVE.
 *   delete:   nvme core stops the controller and removes the namespaces,
 *             then delete_ctrl: I/O queues down, shutdown through the
 *             admin queue, admin queue down, tag sets gone.
 *   reset:    the same teardown without removing the tag sets, then the
 *             create sequence again on the kept ones.
 *   errors:   a failed completion, a protocol error, a disconnect or a
 *             command timeout on a LIVE controller move it to RESETTING;
 *             err_work tears the queues down (outstanding commands are
 *             cancelled and retried by nvme core later) and reconnects
 *             every reconnect_delay seconds while nvmf_should_reconnect()
 *             allows (ctrl_loss_tmo), else deletes the controller.
 */
#include <linux/inet.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <ordma/ib_core.h>
#include <ordma/version.h>
#include "nvme_rdma.h"

static LIST_HEAD(nrdma_ctrls);
static DEFINE_MUTEX(nrdma_ctrl_mutex);

void nrdma_error_recovery(struct nrdma_ctrl *ctrl)
{
	if (!nvme_change_ctrl_state(&ctrl->ctrl, NVME_CTRL_RESETTING))
		return;
	pr_warn("nvme_rdma: %s: starting error recovery\n",
		dev_name(ctrl->ctrl.device));
	queue_work(nvme_reset_wq, &ctrl->err_work);
}

static void nrdma_stop_io_queues(struct nrdma_ctrl *ctrl)
{
	u32 i;

	for (i = 1; i < ctrl->ctrl.queue_count; i++)
		nrdma_stop_queue(&ctrl->queues[i]);
}

static void nrdma_free_io_queues(struct nrdma_ctrl *ctrl)
{
	u32 i;

	for (i = 1; i < ctrl->queues_alloc; i++)
		nrdma_free_queue(&ctrl->queues[i]);
}

static void nrdma_teardown_admin_queue(struct nrdma_ctrl *ctrl, bool remove)
{
	if (ctrl->admin_tags_live) {
		ordma_nvme_quiesce_admin(&ctrl->ctrl);
		blk_sync_queue(ctrl->ctrl.admin_q);
	}
	nrdma_stop_queue(&ctrl->queues[0]);
	if (ctrl->admin_tags_live) {
		nvme_cancel_admin_tagset(&ctrl->ctrl);
		if (remove) {
			ordma_nvme_unquiesce_admin(&ctrl->ctrl);
			nvme_remove_admin_tag_set(&ctrl->ctrl);
			ctrl->admin_tags_live = false;
		}
	}
	nrdma_free_queue(&ctrl->queues[0]);
}

static void nrdma_teardown_io_queues(struct nrdma_ctrl *ctrl, bool remove)
{
	if (ctrl->io_tags_live) {
		ordma_nvme_quiesce_io(&ctrl->ctrl);
		nvme_sync_io_queues(&ctrl->ctrl);
	}
	nrdma_stop_io_queues(ctrl);
	if (ctrl->io_tags_live) {
		nvme_cancel_tagset(&ctrl->ctrl);
		if (remove) {
			ordma_nvme_unquiesce_io(&ctrl->ctrl);
			nvme_remove_io_tag_set(&ctrl->ctrl);
			ctrl->io_tags_live = false;
		}
	}
	nrdma_free_io_queues(ctrl);
}

static int nrdma_configure_admin_queue(struct nrdma_ctrl *ctrl, bool new)
{
	struct nrdma_queue *queue = &ctrl->queues[0];
	int ret;

	ret = nrdma_alloc_queue(ctrl, 0, NVME_AQ_DEPTH);
	if (ret)
		return ret;
	WRITE_ONCE(ctrl->ibdev, queue->cm_id->device);
	if (new) {
		ret = nvme_alloc_admin_tag_set(&ctrl->ctrl, &ctrl->admin_tag_set,
					       &nrdma_admin_mq_ops,
					       NRDMA_CMD_SIZE);
		if (ret)
			goto out_free_queue;
		ctrl->admin_tags_live = true;
	}
	ret = nvmf_connect_admin_queue(&ctrl->ctrl);
	if (ret)
		goto out_teardown;
	set_bit(NRDMA_Q_LIVE, &queue->flags);

	ret = nvme_enable_ctrl(&ctrl->ctrl);
	if (ret)
		goto out_teardown;
	ctrl->ctrl.max_segments = ctrl->max_fr_pages;
	ctrl->ctrl.max_hw_sectors = ctrl->max_fr_pages << (ilog2(SZ_4K) - 9);
	ordma_nvme_unquiesce_admin(&ctrl->ctrl);
	ret = ordma_nvme_init_ctrl_finish(&ctrl->ctrl);
	if (ret)
		goto out_teardown;
	return 0;

out_teardown:
	nrdma_teardown_admin_queue(ctrl, new);
	return ret > 0 ? -EIO : ret;
out_free_queue:
	nrdma_free_queue(queue);
	return ret;
}

static int nrdma_configure_io_queues(struct nrdma_ctrl *ctrl, bool new)
{
	struct nvmf_ctrl_options *opts = ctrl->ctrl.opts;
	int nr = min_t(int, opts->nr_io_queues, ctrl->queues_alloc - 1);
	int ret, i;

	ret = nvme_set_queue_count(&ctrl->ctrl, &nr);
	if (ret)
		return ret;
	if (nr <= 0) {
		pr_err("nvme_rdma: %s: the target grants no I/O queue\n",
		       dev_name(ctrl->ctrl.device));
		return -ENOMEM;
	}
	nr = min_t(int, nr, ctrl->queues_alloc - 1);
	ctrl->ctrl.queue_count = nr + 1;
	pr_info("nvme_rdma: %s: %d I/O queues of %u\n",
		dev_name(ctrl->ctrl.device), nr, ctrl->io_queue_size);

	for (i = 1; i <= nr; i++) {
		ret = nrdma_alloc_queue(ctrl, i, ctrl->io_queue_size);
		if (ret)
			goto out_free;
	}
	if (new) {
		ret = nvme_alloc_io_tag_set(&ctrl->ctrl, &ctrl->tag_set,
					    &nrdma_mq_ops, 1, NRDMA_CMD_SIZE);
		if (ret)
			goto out_free;
		ctrl->io_tags_live = true;
	}
	for (i = 1; i <= nr; i++) {
		ret = nvmf_connect_io_queue(&ctrl->ctrl, i);
		if (ret)
			goto out_teardown;
		set_bit(NRDMA_Q_LIVE, &ctrl->queues[i].flags);
	}
	if (!new) {
		nvme_start_freeze(&ctrl->ctrl);
		ordma_nvme_unquiesce_io(&ctrl->ctrl);
		if (!nvme_wait_freeze_timeout(&ctrl->ctrl, NVME_IO_TIMEOUT)) {
			nvme_unfreeze(&ctrl->ctrl);
			ret = -ENODEV;
			goto out_teardown;
		}
		blk_mq_update_nr_hw_queues(&ctrl->tag_set, nr);
		nvme_unfreeze(&ctrl->ctrl);
	}
	return 0;

out_teardown:
	nrdma_teardown_io_queues(ctrl, new);
	return ret > 0 ? -EIO : ret;
out_free:
	nrdma_free_io_queues(ctrl);
	return ret;
}

/* Bring the controller up on fresh queues; on failure nothing is left. */
static int nrdma_setup_ctrl(struct nrdma_ctrl *ctrl, bool new)
{
	struct nvmf_ctrl_options *opts = ctrl->ctrl.opts;
	u32 size;
	int ret;

	ret = nrdma_configure_admin_queue(ctrl, new);
	if (ret)
		return ret;

	ret = -EOPNOTSUPP;
	if (ctrl->ctrl.icdoff) {
		pr_err("nvme_rdma: %s: in-capsule data offset %u not supported\n",
		       dev_name(ctrl->ctrl.device), ctrl->ctrl.icdoff);
		goto out_admin;
	}
	if (!(ctrl->ctrl.sgls & (1 << 2))) {
		pr_err("nvme_rdma: %s: the target has no keyed SGL data blocks\n",
		       dev_name(ctrl->ctrl.device));
		goto out_admin;
	}
	/* IOCCSZ counts 16-byte units of command plus in-capsule data. */
	ctrl->inline_bytes = ctrl->ctrl.ioccsz * 16 > sizeof(struct nvme_command) ?
		ctrl->ctrl.ioccsz * 16 - sizeof(struct nvme_command) : 0;
	ctrl->inline_bytes = min_t(u32, ctrl->inline_bytes,
				   NRDMA_MAX_INLINE_SGES * PAGE_SIZE);

	/* The I/O queues' size, within what the target says it takes. */
	size = ctrl->ctrl.sqsize + 1;
	if (ctrl->ctrl.maxcmd && size > ctrl->ctrl.maxcmd)
		size = ctrl->ctrl.maxcmd;
	if (new) {
		if (size < 2) {
			pr_err("nvme_rdma: %s: queue size %u too small\n",
			       dev_name(ctrl->ctrl.device), size);
			ret = -EINVAL;
			goto out_admin;
		}
		if (size < opts->queue_size)
			pr_warn("nvme_rdma: %s: queue size %zu cut to %u\n",
				dev_name(ctrl->ctrl.device), opts->queue_size,
				size);
		ctrl->io_queue_size = size;
	} else if (size < ctrl->io_queue_size) {
		/* The kept tag set has more tags than the queues would have. */
		pr_err("nvme_rdma: %s: the target shrank the queue size to %u\n",
		       dev_name(ctrl->ctrl.device), size);
		ret = -EINVAL;
		goto out_admin;
	}
	ctrl->ctrl.sqsize = ctrl->io_queue_size - 1;

	if (ctrl->ctrl.queue_count > 1) {
		ret = nrdma_configure_io_queues(ctrl, new);
		if (ret)
			goto out_admin;
	}

	if (!nvme_change_ctrl_state(&ctrl->ctrl, NVME_CTRL_LIVE)) {
		/* Only a deletion may have come in between. */
		ret = -EINVAL;
		goto out_io;
	}
	nvme_start_ctrl(&ctrl->ctrl);
	return 0;

out_io:
	if (ctrl->ctrl.queue_count > 1)
		nrdma_teardown_io_queues(ctrl, new);
out_admin:
	nrdma_teardown_admin_queue(ctrl, new);
	return ret;
}

static void nrdma_reconnect_or_remove(struct nrdma_ctrl *ctrl, int status)
{
	if (nvme_ctrl_state(&ctrl->ctrl) != NVME_CTRL_CONNECTING)
		return;
	if (ordma_nvmf_should_reconnect(&ctrl->ctrl, status)) {
		pr_info("nvme_rdma: %s: reconnecting in %d seconds\n",
			dev_name(ctrl->ctrl.device),
			ctrl->ctrl.opts->reconnect_delay);
		queue_delayed_work(nvme_wq, &ctrl->reconnect_work,
				   ctrl->ctrl.opts->reconnect_delay * HZ);
	} else {
		nvme_delete_ctrl(&ctrl->ctrl);
	}
}

static void nrdma_reconnect_work(struct work_struct *work)
{
	struct nrdma_ctrl *ctrl = container_of(to_delayed_work(work),
					       struct nrdma_ctrl, reconnect_work);
	int ret;

	++ctrl->ctrl.nr_reconnects;
	ret = nrdma_setup_ctrl(ctrl, false);
	if (ret) {
		pr_info("nvme_rdma: %s: reconnect attempt %d failed: %d\n",
			dev_name(ctrl->ctrl.device), ctrl->ctrl.nr_reconnects,
			ret);
		nrdma_reconnect_or_remove(ctrl, ret);
		return;
	}
	pr_info("nvme_rdma: %s: reconnected after %d attempts\n",
		dev_name(ctrl->ctrl.device), ctrl->ctrl.nr_reconnects);
	ctrl->ctrl.nr_reconnects = 0;
}

static void nrdma_err_work(struct work_struct *work)
{
	struct nrdma_ctrl *ctrl = container_of(work, struct nrdma_ctrl,
					       err_work);

	nvme_stop_keep_alive(&ctrl->ctrl);
	flush_work(&ctrl->ctrl.async_event_work);
	nrdma_teardown_io_queues(ctrl, false);
	/* Queued commands fail over to nvme core's retry logic. */
	if (ctrl->io_tags_live)
		ordma_nvme_unquiesce_io(&ctrl->ctrl);
	nrdma_teardown_admin_queue(ctrl, false);
	if (ctrl->admin_tags_live)
		ordma_nvme_unquiesce_admin(&ctrl->ctrl);
	if (!nvme_change_ctrl_state(&ctrl->ctrl, NVME_CTRL_CONNECTING))
		return;	/* being deleted */
	nrdma_reconnect_or_remove(ctrl, -ENOTCONN);
}

/* Queues down; with @shutdown the controller is told first (delete). */
static void nrdma_shutdown_ctrl(struct nrdma_ctrl *ctrl, bool shutdown)
{
	nrdma_teardown_io_queues(ctrl, shutdown);
	/* Through the admin queue, which is not quiesced while it is live. */
	if (shutdown && test_bit(NRDMA_Q_LIVE, &ctrl->queues[0].flags))
		ordma_nvme_shutdown_ctrl(&ctrl->ctrl);
	nrdma_teardown_admin_queue(ctrl, shutdown);
}

static void nrdma_reset_work(struct work_struct *work)
{
	struct nrdma_ctrl *ctrl = container_of(work, struct nrdma_ctrl,
					       ctrl.reset_work);
	int ret;

	nvme_stop_ctrl(&ctrl->ctrl);
	nrdma_shutdown_ctrl(ctrl, false);
	if (!nvme_change_ctrl_state(&ctrl->ctrl, NVME_CTRL_CONNECTING))
		return;	/* being deleted */
	ret = nrdma_setup_ctrl(ctrl, false);
	if (ret) {
		++ctrl->ctrl.nr_reconnects;
		nrdma_reconnect_or_remove(ctrl, ret);
	}
}

static void nrdma_delete_ctrl(struct nvme_ctrl *nctrl)
{
	nrdma_shutdown_ctrl(to_nrdma_ctrl(nctrl), true);
}

static void nrdma_stop_ctrl(struct nvme_ctrl *nctrl)
{
	struct nrdma_ctrl *ctrl = to_nrdma_ctrl(nctrl);

	flush_work(&ctrl->err_work);
	cancel_delayed_work_sync(&ctrl->reconnect_work);
}

static void nrdma_free_ctrl(struct nvme_ctrl *nctrl)
{
	struct nrdma_ctrl *ctrl = to_nrdma_ctrl(nctrl);

	/* The options are fabrics' to free until the creation succeeded. */
	if (ctrl->listed) {
		mutex_lock(&nrdma_ctrl_mutex);
		list_del(&ctrl->entry);
		mutex_unlock(&nrdma_ctrl_mutex);
		nvmf_free_options(nctrl->opts);
	}
	kfree(ctrl->aen_sqe);
	kfree(ctrl->queues);
	kfree(ctrl);
}

static const struct nvme_ctrl_ops nrdma_ctrl_ops = {
	.name = "rdma",
	.module = THIS_MODULE,
	.flags = NVME_F_FABRICS,
	.reg_read32 = nvmf_reg_read32,
	.reg_read64 = nvmf_reg_read64,
	.reg_write32 = nvmf_reg_write32,
	.free_ctrl = nrdma_free_ctrl,
	.submit_async_event = nrdma_submit_async_event,
	.delete_ctrl = nrdma_delete_ctrl,
	.stop_ctrl = nrdma_stop_ctrl,
	.get_address = nvmf_get_address,
};

static bool nrdma_ctrl_exists(struct nvmf_ctrl_options *opts)
{
	struct nrdma_ctrl *ctrl;
	bool found = false;

	mutex_lock(&nrdma_ctrl_mutex);
	list_for_each_entry(ctrl, &nrdma_ctrls, entry) {
		if (nvmf_ip_options_match(&ctrl->ctrl, opts)) {
			found = true;
			break;
		}
	}
	mutex_unlock(&nrdma_ctrl_mutex);
	return found;
}

static struct nrdma_ctrl *nrdma_alloc_ctrl(struct nvmf_ctrl_options *opts)
{
	struct nrdma_ctrl *ctrl;
	int ret;

	ctrl = kzalloc(sizeof(*ctrl), GFP_KERNEL);
	if (!ctrl)
		return ERR_PTR(-ENOMEM);
	INIT_LIST_HEAD(&ctrl->entry);
	ctrl->ctrl.opts = opts;

	if (!(opts->mask & NVMF_OPT_TRSVCID)) {
		opts->trsvcid = kstrdup(__stringify(NVME_RDMA_IP_PORT),
					GFP_KERNEL);
		if (!opts->trsvcid) {
			ret = -ENOMEM;
			goto fail;
		}
		opts->mask |= NVMF_OPT_TRSVCID;
	}
	ret = inet_pton_with_scope(&init_net, AF_UNSPEC, opts->traddr,
				   opts->trsvcid, &ctrl->addr);
	if (ret) {
		pr_err("nvme_rdma: malformed address %s:%s\n", opts->traddr,
		       opts->trsvcid);
		goto fail;
	}
	if (opts->mask & NVMF_OPT_HOST_TRADDR) {
		ret = inet_pton_with_scope(&init_net, AF_UNSPEC,
					   opts->host_traddr, NULL,
					   &ctrl->src_addr);
		if (ret) {
			pr_err("nvme_rdma: malformed host address %s\n",
			       opts->host_traddr);
			goto fail;
		}
		ctrl->has_src = true;
	}
	if (!opts->duplicate_connect && nrdma_ctrl_exists(opts)) {
		ret = -EALREADY;
		goto fail;
	}
	if (opts->queue_size < 2 || opts->queue_size > NRDMA_MAX_QUEUE_SIZE) {
		ret = -EINVAL;
		goto fail;
	}

	ctrl->aen_sqe = kzalloc(sizeof(*ctrl->aen_sqe), GFP_KERNEL);
	/* The admin queue and one I/O queue per CPU at most. */
	ctrl->queues_alloc = min_t(u32, opts->nr_io_queues,
				   num_online_cpus()) + 1;
	ctrl->queues = kcalloc(ctrl->queues_alloc, sizeof(*ctrl->queues),
			       GFP_KERNEL);
	if (!ctrl->aen_sqe || !ctrl->queues) {
		ret = -ENOMEM;
		goto fail;
	}
	ctrl->ctrl.queue_count = ctrl->queues_alloc;
	ctrl->ctrl.sqsize = opts->queue_size - 1;
	ctrl->ctrl.kato = opts->kato;
	INIT_WORK(&ctrl->err_work, nrdma_err_work);
	INIT_DELAYED_WORK(&ctrl->reconnect_work, nrdma_reconnect_work);
	INIT_WORK(&ctrl->ctrl.reset_work, nrdma_reset_work);
	return ctrl;
fail:
	kfree(ctrl->aen_sqe);
	kfree(ctrl->queues);
	kfree(ctrl);
	return ERR_PTR(ret);
}

static struct nvme_ctrl *nrdma_create_ctrl(struct device *dev,
					   struct nvmf_ctrl_options *opts)
{
	struct nrdma_ctrl *ctrl;
	int ret;

	ctrl = nrdma_alloc_ctrl(opts);
	if (IS_ERR(ctrl))
		return ERR_CAST(ctrl);
	ret = nvme_init_ctrl(&ctrl->ctrl, dev, &nrdma_ctrl_ops, 0);
	if (ret) {
		kfree(ctrl->aen_sqe);
		kfree(ctrl->queues);
		kfree(ctrl);
		return ERR_PTR(ret);
	}
#ifdef ORDMA_NVME_HAVE_ADD_CTRL
	ret = nvme_add_ctrl(&ctrl->ctrl);
	if (ret)
		goto out_put;
#endif
	if (!nvme_change_ctrl_state(&ctrl->ctrl, NVME_CTRL_CONNECTING)) {
		ret = -EIO;
		goto out_uninit;
	}
	ret = nrdma_setup_ctrl(ctrl, true);
	if (ret)
		goto out_uninit;

	pr_info("nvme_rdma: %s: new controller for %s at %pISpc\n",
		dev_name(ctrl->ctrl.device), opts->subsysnqn, &ctrl->addr);
	mutex_lock(&nrdma_ctrl_mutex);
	list_add_tail(&ctrl->entry, &nrdma_ctrls);
	ctrl->listed = true;
	mutex_unlock(&nrdma_ctrl_mutex);
	return &ctrl->ctrl;

out_uninit:
	nvme_uninit_ctrl(&ctrl->ctrl);
#ifdef ORDMA_NVME_HAVE_ADD_CTRL
out_put:
#endif
	nvme_put_ctrl(&ctrl->ctrl);
	return ERR_PTR(ret > 0 ? -EIO : ret);
}

static struct nvmf_transport_ops nrdma_transport = {
	.name = "rdma",
	.module = THIS_MODULE,
	.required_opts = NVMF_OPT_TRADDR,
	.allowed_opts = NVMF_OPT_TRSVCID | NVMF_OPT_RECONNECT_DELAY |
			NVMF_OPT_HOST_TRADDR | NVMF_OPT_CTRL_LOSS_TMO |
			NVMF_OPT_TOS | NVMF_OPT_FAIL_FAST_TMO,
	.create_ctrl = nrdma_create_ctrl,
};

/*
 * A device going away takes its controllers with it, as in-tree: they
 * are deleted (not reconnected) before rdma_cm detaches their ids, so no
 * queue's verbs object outlives the device.  Registered after rdma_cm,
 * so ib_core calls this remove() before rdma_cm's.
 */
static void nrdma_remove_one(struct ib_device *ibdev, void *client_data)
{
	struct nrdma_ctrl *ctrl;
	bool found = false;

	mutex_lock(&nrdma_ctrl_mutex);
	list_for_each_entry(ctrl, &nrdma_ctrls, entry) {
		if (READ_ONCE(ctrl->ibdev) != ibdev)
			continue;
		pr_info("nvme_rdma: %s: device %s removed: deleting the controller\n",
			dev_name(ctrl->ctrl.device), ib_device_name(ibdev));
		nvme_delete_ctrl(&ctrl->ctrl);
		found = true;
	}
	mutex_unlock(&nrdma_ctrl_mutex);
	if (found)
		flush_workqueue(nvme_delete_wq);
}

static struct ib_client nrdma_ib_client = {
	.name = "nvme_rdma",
	.remove = nrdma_remove_one,
};

static int __init nrdma_init(void)
{
	int ret;

	ret = ib_register_client(&nrdma_ib_client);
	if (ret)
		return ret;
	ret = nvmf_register_transport(&nrdma_transport);
	if (ret)
		ib_unregister_client(&nrdma_ib_client);
	return ret;
}

static void __exit nrdma_exit(void)
{
	struct nrdma_ctrl *ctrl;

	nvmf_unregister_transport(&nrdma_transport);
	ib_unregister_client(&nrdma_ib_client);
	mutex_lock(&nrdma_ctrl_mutex);
	list_for_each_entry(ctrl, &nrdma_ctrls, entry)
		nvme_delete_ctrl(&ctrl->ctrl);
	mutex_unlock(&nrdma_ctrl_mutex);
	flush_workqueue(nvme_delete_wq);
}

module_init(nrdma_init);
module_exit(nrdma_exit);

MODULE_DESCRIPTION("NVMe over Fabrics RDMA host on the ordma stack");
MODULE_LICENSE("Dual BSD/GPL");
MODULE_VERSION(ORDMA_VERSION);
