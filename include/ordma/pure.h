/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Protocol logic (header encode/decode, PSN arithmetic, identifiers) is
 * written to compile both in the kernel and in userspace, where
 * tests/unit exercises it.  Such files include this header and nothing
 * else from the kernel.
 */
#ifndef ORDMA_PURE_H
#define ORDMA_PURE_H

#ifdef __KERNEL__
#include <linux/types.h>
#include <linux/string.h>
#else
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int32_t s32;
#endif

#endif
