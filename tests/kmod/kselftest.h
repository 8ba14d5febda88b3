/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Shared pieces of the in-kernel selftest modules in tests/kmod: the
 * pass/fail counters with their check macros, the closing report line the
 * guest scripts grep for, and finding the port's own IPv4 RoCEv2 GID that
 * every loopback test talks through.  Included by exactly one .c per
 * module, so the counters are per module.
 */
#ifndef ORDMA_TESTS_KSELFTEST_H
#define ORDMA_TESTS_KSELFTEST_H

#include <linux/delay.h>
#include <linux/fs.h>
#include <linux/jiffies.h>
#include <linux/printk.h>
#include <net/ipv6.h>
#include <ordma/ib_core.h>

static int kst_passed, kst_failed;

/*
 * Count one check; on failure log where and why.  Evaluates to the
 * outcome so a test can stop when later checks would only cascade.
 */
#define CHECK(cond, fmt, ...)						\
	({								\
		bool __ok = (cond);					\
		if (__ok) {						\
			kst_passed++;					\
		} else {						\
			kst_failed++;					\
			pr_err(KBUILD_MODNAME ": FAIL %s:%d: " fmt "\n", \
			       __func__, __LINE__, ##__VA_ARGS__);	\
		}							\
		__ok;							\
	})

/* A check whose message is the condition's own text. */
#define ST_CHECK(cond)	((void)CHECK(cond, "%s", #cond))

/* A set-up step failed: it counts as one failed check. */
#define KST_FAIL(fmt, ...)						\
	do {								\
		kst_failed++;						\
		pr_err(KBUILD_MODNAME ": " fmt "\n", ##__VA_ARGS__);	\
	} while (0)

/* The one line the guest scripts read: "NAME: N passed, M failed". */
static inline void kst_report(void)
{
	pr_info(KBUILD_MODNAME ": %d passed, %d failed\n",
		kst_passed, kst_failed);
}

/*
 * Poll a direct CQ for one completion for up to @ms (QEMU/TCG is slow).
 * Returns ib_poll_cq()'s answer: 1 with @wc filled, a negative errno, or
 * 0 when nothing came in time.
 */
static inline int kst_poll_cq(struct ib_cq *cq, struct ib_wc *wc,
			      unsigned int ms)
{
	unsigned long end = jiffies + msecs_to_jiffies(ms);
	int n;

	do {
		n = ib_poll_cq(cq, 1, wc);
		if (n)
			return n;
		usleep_range(500, 1000);
	} while (time_before(jiffies, end));
	return 0;
}

/* The device under test, referenced; NULL (one failed check) if absent. */
static inline struct ib_device *kst_get_device(const char *name)
{
	struct ib_device *dev = ib_device_get_by_name(name);

	if (!dev)
		KST_FAIL("no device %s", name);
	return dev;
}

/*
 * The first IPv4-mapped RoCEv2 GID of @port, referenced (the caller puts
 * it), or NULL.  Empty table slots are skipped; the scan ends at the
 * first index the table does not have.
 */
static inline const struct ib_gid_attr *
kst_find_roce_v4_gid(struct ib_device *dev, u32 port)
{
	unsigned int i;

	for (i = 0; i < 1024; i++) {
		const struct ib_gid_attr *attr = rdma_get_gid_attr(dev, port, i);

		if (IS_ERR(attr)) {
			if (PTR_ERR(attr) == -ENODATA)
				continue;
			return NULL;
		}
		if (attr->gid_type == IB_UVERBS_GID_TYPE_ROCE_V2 &&
		    ipv6_addr_v4mapped((struct in6_addr *)attr->gid.raw))
			return attr;
		rdma_put_gid_attr(attr);
	}
	return NULL;
}

/*
 * Write @val to the debugfs file @name (under /sys/kernel/debug, which the
 * guest script mounts): a test arms a fault-injection knob right before
 * the step it is for.  0 or a negative errno.
 */
static inline int kst_debugfs_write(const char *name, const char *val)
{
	char path[128];
	struct file *f;
	loff_t pos = 0;
	ssize_t n;

	snprintf(path, sizeof(path), "/sys/kernel/debug/%s", name);
	f = filp_open(path, O_WRONLY, 0);
	if (IS_ERR(f))
		return PTR_ERR(f);
	n = kernel_write(f, val, strlen(val), &pos);
	filp_close(f, NULL);
	return n < 0 ? n : n == strlen(val) ? 0 : -EIO;
}

#endif /* ORDMA_TESTS_KSELFTEST_H */
