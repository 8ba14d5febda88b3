// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Test-only pause points (include/ordma/test_pause.h): the state of each
 * point and its debugfs file ib_test_pause/<point>.  They exist so that
 * a test of a race with device removal can hold one side at the racy step
 * instead of hoping for the timing; production code never arms them.
 */
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/uio.h>
#include <linux/wait.h>
#include <ordma/test_pause.h>
#include "core_priv.h"

atomic_t ib_test_pause_armed[IB_TEST_PAUSE_NR];
EXPORT_SYMBOL(ib_test_pause_armed);

static const char *const test_pause_names[IB_TEST_PAUSE_NR] = {
	[IB_TEST_PAUSE_CMA_DESTROY] = "cma_destroy",
	[IB_TEST_PAUSE_CM_MAKE_BUF] = "cm_make_buf",
	[IB_TEST_PAUSE_UCMA_QUERY] = "ucma_query",
	[IB_TEST_PAUSE_MAD_RECOVER] = "mad_recover",
};

static struct {
	bool paused;	/* a thread sleeps at the point */
	bool released;	/* the test let it go */
} test_pause_state[IB_TEST_PAUSE_NR];

/* One for all points: they are used one at a time, by tests. */
static DECLARE_WAIT_QUEUE_HEAD(test_pause_wq);
static struct dentry *test_pause_debugfs;

void __ib_test_pause(enum ib_test_pause_point point)
{
	/* Only the first thread through takes the arming. */
	if (atomic_cmpxchg(&ib_test_pause_armed[point], 1, 0) != 1)
		return;
	WRITE_ONCE(test_pause_state[point].released, false);
	WRITE_ONCE(test_pause_state[point].paused, true);
	wake_up_all(&test_pause_wq);
	pr_info("ib_core: test pause point %s reached\n",
		test_pause_names[point]);
	wait_event_timeout(test_pause_wq,
			   READ_ONCE(test_pause_state[point].released),
			   TEST_PAUSE_MAX_S * HZ);
	WRITE_ONCE(test_pause_state[point].paused, false);
}
EXPORT_SYMBOL(__ib_test_pause);

bool ib_test_pause_wait_paused(enum ib_test_pause_point point,
			       unsigned int ms)
{
	return wait_event_timeout(test_pause_wq,
				  READ_ONCE(test_pause_state[point].paused),
				  msecs_to_jiffies(ms)) > 0;
}
EXPORT_SYMBOL(ib_test_pause_wait_paused);

static ssize_t test_pause_write(struct kiocb *iocb, struct iov_iter *from)
{
	enum ib_test_pause_point point =
		(uintptr_t)iocb->ki_filp->private_data;
	size_t len = iov_iter_count(from);
	char buf[4] = {};
	bool arm;

	if (len >= sizeof(buf))
		return -EINVAL;
	if (copy_from_iter(buf, len, from) != len)
		return -EFAULT;
	if (kstrtobool(strim(buf), &arm))
		return -EINVAL;
	atomic_set(&ib_test_pause_armed[point], arm);
	if (!arm) {
		WRITE_ONCE(test_pause_state[point].released, true);
		wake_up_all(&test_pause_wq);
	}
	return len;
}

static ssize_t test_pause_read(struct file *filp, char __user *ubuf,
			       size_t count, loff_t *ppos)
{
	enum ib_test_pause_point point = (uintptr_t)filp->private_data;
	const char *s = "idle\n";

	if (READ_ONCE(test_pause_state[point].paused))
		s = "paused\n";
	else if (atomic_read(&ib_test_pause_armed[point]))
		s = "armed\n";
	return simple_read_from_buffer(ubuf, count, ppos, s, strlen(s));
}

static const struct file_operations test_pause_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.read = test_pause_read,
	.write_iter = test_pause_write,
};

void ib_test_pause_init(void)
{
	uintptr_t p;

	test_pause_debugfs = debugfs_create_dir("ib_test_pause", NULL);
	for (p = 0; p < IB_TEST_PAUSE_NR; p++)
		debugfs_create_file_unsafe(test_pause_names[p], 0600,
					   test_pause_debugfs, (void *)p,
					   &test_pause_fops);
}

void ib_test_pause_exit(void)
{
	debugfs_remove_recursive(test_pause_debugfs);
}
