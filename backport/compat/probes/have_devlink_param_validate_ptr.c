/*
 * HAVE_DEVLINK_PARAM_VALIDATE_PTR: struct devlink_param's validate()
 * takes the value by pointer (by value before). Used by:
 * mlx4_core (main.c, mlx4_devlink_max_macs_validate()). Patch 0003: the
 * older prototype, the body reading the same value.
 */
#include <linux/module.h>
#include <net/devlink.h>

static int probe_validate(struct devlink *devlink, u32 id,
			  union devlink_param_value *val,
			  struct netlink_ext_ack *extack)
{
	return 0;
}

static int __init probe_init(void)
{
	struct devlink_param p = { .validate = probe_validate };

	(void)p;
	return 0;
}
module_init(probe_init);
MODULE_LICENSE("GPL");
