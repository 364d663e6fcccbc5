/*
 * HAVE_DEVLINK_PARAM_GET_EXTACK: struct devlink_param's get() takes a
 * struct netlink_ext_ack *, as set() does. Used by:
 * mlx4_core (main.c, two getters). Patch 0003: the older prototypes
 * (neither getter uses it).
 */
#include <linux/module.h>
#include <net/devlink.h>

static int probe_get(struct devlink *devlink, u32 id,
		     struct devlink_param_gset_ctx *ctx,
		     struct netlink_ext_ack *extack)
{
	return 0;
}

static int __init probe_init(void)
{
	struct devlink_param p = { .get = probe_get };

	(void)p;
	return 0;
}
module_init(probe_init);
MODULE_LICENSE("GPL");
