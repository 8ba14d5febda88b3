/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The thin layer between the kernels we build for: Debian 12's 6.1 and the
 * 6.12 backport.  Everything version-dependent is named here, nowhere else.
 */
#ifndef ORDMA_COMPAT_H
#define ORDMA_COMPAT_H

#include <linux/version.h>
#include <linux/device.h>

/* struct class lost its const-less devnode() argument in 6.2. */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 2, 0)
#define ORDMA_DEVNODE_DEV const struct device
#else
#define ORDMA_DEVNODE_DEV struct device
#endif

#endif
