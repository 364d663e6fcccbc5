/*
 * HAVE_DEVL_PARAM_DRIVERINIT_VALUE_SET_PTR: devl_param_driverinit_value_set()
 * takes the value by pointer (by value before). Used by:
 * mlx4_core (main.c, 5 calls). Patch mlx4_core: a macro that passes
 * the value (not a wrapper: it would change what the kernel's own name
 * means to every file that includes <net/devlink.h>).
 */
#include <linux/module.h>
#include <net/devlink.h>

static int __init probe_init(void)
{
	union devlink_param_value v = { 0 };

	devl_param_driverinit_value_set(NULL, 0, &v);
	return 0;
}
module_init(probe_init);
MODULE_LICENSE("GPL");
