/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The thin layer between the kernels we build for: Debian 12's 6.1 and the
 * 6.12 backport.  Everything version-dependent is named here, nowhere else.
 */
#ifndef ORDMA_COMPAT_H
#define ORDMA_COMPAT_H

#include <linux/version.h>
#include <linux/device.h>
#include <linux/mm.h>

/* struct class lost its const-less devnode() argument in 6.2. */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 2, 0)
#define ORDMA_DEVNODE_DEV const struct device
#else
#define ORDMA_DEVNODE_DEV struct device
#endif

/* class_attribute show() takes a const class and attribute since 6.4. */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 4, 0)
#define ORDMA_CLASS_ATTR_CONST const
#else
#define ORDMA_CLASS_ATTR_CONST
#endif

/* The extra flags of a read-only long-term pin (core/umem.c says why). */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 2, 0)
#define ORDMA_FOLL_RO_LONGTERM (FOLL_WRITE | FOLL_FORCE)
#else
#define ORDMA_FOLL_RO_LONGTERM 0
#endif

/* The unaligned accessors moved from asm/ to linux/unaligned.h in 6.12. */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0)
#include <linux/unaligned.h>
#else
#include <asm/unaligned.h>
#endif

/*
 * nvme core's host API (drivers/nvme/host/nvme.h and fabrics.h, which
 * only nvme_rdma/ includes; these expand there).  Between 6.1 and 6.12:
 * the queue quiescing calls were renamed (nvme_stop_queues() became
 * nvme_quiesce_io_queues(), ..._admin_queue() likewise),
 * nvme_init_ctrl_finish() took was_suspended, nvme_shutdown_ctrl() became
 * nvme_disable_ctrl(ctrl, true), nvmf_should_reconnect() took the failed
 * attempt's status, and nvme_init_ctrl() no longer adds the character
 * device: nvme_add_ctrl() does.  Only these two lines are built (the ABI
 * gate checks each), hence one version test for all.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0)
#define ordma_nvme_quiesce_io(c)	nvme_quiesce_io_queues(c)
#define ordma_nvme_unquiesce_io(c)	nvme_unquiesce_io_queues(c)
#define ordma_nvme_quiesce_admin(c)	nvme_quiesce_admin_queue(c)
#define ordma_nvme_unquiesce_admin(c)	nvme_unquiesce_admin_queue(c)
#define ordma_nvme_init_ctrl_finish(c)	nvme_init_ctrl_finish(c, false)
#define ordma_nvme_shutdown_ctrl(c)	nvme_disable_ctrl(c, true)
#define ordma_nvmf_should_reconnect(c, status) nvmf_should_reconnect(c, status)
#define ORDMA_NVME_HAVE_ADD_CTRL 1
#else
#define ordma_nvme_quiesce_io(c)	nvme_stop_queues(c)
#define ordma_nvme_unquiesce_io(c)	nvme_start_queues(c)
#define ordma_nvme_quiesce_admin(c)	nvme_stop_admin_queue(c)
#define ordma_nvme_unquiesce_admin(c)	nvme_start_admin_queue(c)
#define ordma_nvme_init_ctrl_finish(c)	nvme_init_ctrl_finish(c)
#define ordma_nvme_shutdown_ctrl(c)	nvme_shutdown_ctrl(c)
#define ordma_nvmf_should_reconnect(c, status) nvmf_should_reconnect(c)
#endif

/* vm_flags is written through vm_flags_{set,clear}() since 6.3. */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 3, 0)
#define ordma_vm_flags_set vm_flags_set
#define ordma_vm_flags_clear vm_flags_clear
#else
static inline void ordma_vm_flags_set(struct vm_area_struct *vma,
				      vm_flags_t flags)
{
	vma->vm_flags |= flags;
}

static inline void ordma_vm_flags_clear(struct vm_area_struct *vma,
					vm_flags_t flags)
{
	vma->vm_flags &= ~flags;
}
#endif

/*
 * The nldev monitor (RDMA_NLDEV_CMD_MONITOR, multicast on the NOTIFY group,
 * and SYS_ATTR_MONITOR_MODE) is UAPI since 6.9: 6.1 has neither the
 * constants nor, in the stock stack, the events.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 9, 0)
#define ORDMA_HAVE_NL_MONITOR 1
#endif

/*
 * RDMA FLUSH (IBTA 1.5) is UAPI since 6.2: the WR and completion opcodes,
 * the MR access flags, the device capability bits, and the flush member
 * of rxe's send WR (sw_rxe/rxe_req.c).  We implement FLUSH on every line:
 * rdma-core (librxe and pyverbs since 45) sends these values whatever
 * kernel it runs on, so 6.1, whose headers lack the names, gets them here
 * with 6.2's ABI values; the 6.2+ builds check the values against their
 * UAPI (include/ordma/ib_verbs.h).  The guard is the version, not
 * #ifndef: the UAPI's names are enumerators, which the preprocessor
 * cannot see.
 */
#define ORDMA_ABI_WR_FLUSH			14
#define ORDMA_ABI_WC_FLUSH			8
#define ORDMA_ABI_ACCESS_FLUSH_GLOBAL		(1 << 8)
#define ORDMA_ABI_ACCESS_FLUSH_PERSISTENT	(1 << 9)
#define ORDMA_ABI_DEVICE_FLUSH_GLOBAL		(1ULL << 38)
#define ORDMA_ABI_DEVICE_FLUSH_PERSISTENT	(1ULL << 39)
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 2, 0)
#define ORDMA_UAPI_HAS_FLUSH 1
#else
#define IB_UVERBS_WR_FLUSH		ORDMA_ABI_WR_FLUSH
#define IB_UVERBS_WC_FLUSH		ORDMA_ABI_WC_FLUSH
#define IB_UVERBS_ACCESS_FLUSH_GLOBAL	ORDMA_ABI_ACCESS_FLUSH_GLOBAL
#define IB_UVERBS_ACCESS_FLUSH_PERSISTENT ORDMA_ABI_ACCESS_FLUSH_PERSISTENT
#define IB_UVERBS_DEVICE_FLUSH_GLOBAL	ORDMA_ABI_DEVICE_FLUSH_GLOBAL
#define IB_UVERBS_DEVICE_FLUSH_PERSISTENT ORDMA_ABI_DEVICE_FLUSH_PERSISTENT
#endif

#endif
