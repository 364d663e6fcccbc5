/*
 * HAVE_CONFIGFS_CONST_OPS: struct config_item_type points to const
 * configfs_item_operations and configfs_group_operations. Used
 * by: rdma_cm (cma_configfs.c). Patch 0006: the three ops structs are
 * not const on older kernels (nothing writes them either way).
 */
#include <linux/module.h>
#include <linux/configfs.h>

static const struct configfs_item_operations probe_item_ops;

static int __init probe_init(void)
{
	struct config_item_type t = { .ct_item_ops = &probe_item_ops };

	(void)t;
	return 0;
}
module_init(probe_init);
MODULE_LICENSE("GPL");
