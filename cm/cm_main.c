// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* InfiniBand connection manager: placeholder until the module lands. */
#include <linux/module.h>
#include <ordma/ib_cm.h>
#include <ordma/ib_mad.h>
#include <ordma/version.h>

static int __init cm_main_init(void)
{
	return 0;
}

static void __exit cm_main_exit(void)
{
}

module_init(cm_main_init);
module_exit(cm_main_exit);

MODULE_DESCRIPTION("InfiniBand connection manager (out-of-tree)");
MODULE_LICENSE("Dual BSD/GPL");
MODULE_VERSION(ORDMA_VERSION);
