// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * A planted use-after-free, to prove that a guest booted with slab
 * debugging (vm-run.sh --slub-debug) turns one into a log line before any
 * lane relies on that.  Loading it makes a cache of its own, frees an object
 * and then writes into it; the write lands in the poison that SLUB put
 * there.  The guest then asks SLUB to validate the cache
 * (/sys/kernel/slab/ordma_canary/validate), which must report "Poison
 * overwritten" (and repairs the poison, so unloading destroys the cache
 * cleanly).  Without slab debugging nothing is reported: the script checks
 * for the report, so it fails on a guest without it.  Never loaded outside
 * that check.
 */
#include <linux/module.h>
#include <linux/slab.h>

static struct kmem_cache *canary_cache;

static int __init slab_canary_init(void)
{
	u8 *obj;

	canary_cache = kmem_cache_create("ordma_canary", 64, 0, 0, NULL);
	if (!canary_cache)
		return -ENOMEM;
	obj = kmem_cache_alloc(canary_cache, GFP_KERNEL);
	if (!obj) {
		kmem_cache_destroy(canary_cache);
		return -ENOMEM;
	}
	kmem_cache_free(canary_cache, obj);
	/* The use after free: one byte in the middle of the freed object. */
	WRITE_ONCE(obj[20], 0x5a);
	return 0;
}

static void __exit slab_canary_exit(void)
{
	kmem_cache_destroy(canary_cache);
}

module_init(slab_canary_init);
module_exit(slab_canary_exit);
MODULE_DESCRIPTION("ordma test: a planted use-after-free for the slab debugging check");
MODULE_LICENSE("Dual BSD/GPL");
