/*
 * HAVE_DEVLINK_PARAM_SET_EXTACK: struct devlink_param's set() callback
 * takes a struct netlink_ext_ack *. Used by: mlx4_core (main.c's
 * parameter setters). Patch: 0003-BACKPORT-mlx4_core.patch.
 */
#include <linux/module.h>
#include <net/devlink.h>

static int probe_set(struct devlink *devlink, u32 id,
		     struct devlink_param_gset_ctx *ctx,
		     struct netlink_ext_ack *extack)
{
	return 0;
}

static const struct devlink_param probe_param = { .set = probe_set };

static int __init probe_init(void)
{
	return probe_param.set ? 0 : 1;
}
module_init(probe_init);
MODULE_LICENSE("GPL");
