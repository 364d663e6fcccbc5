/*
 * HAVE_DEVL_PARAMS_REGISTER: the devl_ (caller holds the devlink lock)
 * variants of the devlink parameter API: devl_params_[un]register(),
 * devl_param_driverinit_value_{get,set}(), devl_param_value_changed().
 * 6.1 has only devlink_params_register() & co., which take no lock and
 * which 6.1's own mlx4 calls at the same points under devl_lock().
 * Used by: mlx4_core (main.c). Wrapper: net/devlink.h.
 */
#include <linux/module.h>
#include <net/devlink.h>

static int __init probe_init(void)
{
	union devlink_param_value v;
	struct devlink *dl = NULL;

	devl_param_value_changed(dl, 0);
	devl_params_unregister(dl, NULL, 0);
	return devl_params_register(dl, NULL, 0) +
	       devl_param_driverinit_value_get(dl, 0, &v);
}
module_init(probe_init);
MODULE_LICENSE("GPL");
