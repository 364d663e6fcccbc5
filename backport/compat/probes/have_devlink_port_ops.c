/*
 * HAVE_DEVLINK_PORT_OPS: struct devlink_port_ops (per-port callbacks,
 * given to devl_port_register_with_ops()). On 6.1 the port callbacks,
 * port_type_set() among them, are members of struct devlink_ops.
 * Used by: mlx4_core (main.c). Wrapper: net/devlink.h; patch:
 * 0003-BACKPORT-mlx4_core.patch.
 */
#include <linux/module.h>
#include <net/devlink.h>

static int probe_type_set(struct devlink_port *port, enum devlink_port_type t)
{
	return 0;
}

static const struct devlink_port_ops probe_ops = {
	.port_type_set = probe_type_set,
};

static int __init probe_init(void)
{
	return devl_port_register_with_ops(NULL, NULL, 0, &probe_ops);
}
module_init(probe_init);
MODULE_LICENSE("GPL");
