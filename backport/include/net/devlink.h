/* SPDX-License-Identifier: GPL-2.0 */
/*
 * backport wrapper: <net/devlink.h>, for mlx4_core.
 *
 * HAVE_DEVL_PARAMS_REGISTER: 6.12's devl_param*() expect the caller to
 *   hold the devlink instance lock. Older kernels have only devlink_param*(),
 *   which take no lock and check that the instance is not registered yet;
 *   6.1's own mlx4_core calls them at the very points (under devl_lock(),
 *   before devlink_register()) where 6.12's calls the devl_ ones. So the
 *   devl_ names map one to one.
 *
 * HAVE_DEVLINK_PORT_OPS: 6.12 gives per-port callbacks in a struct
 *   devlink_port_ops to devl_port_register_with_ops(). Older kernels
 *   declare no such struct (it is incomplete there, so defining it here
 *   clashes with nothing) and take the same callbacks from struct
 *   devlink_ops. The struct below holds what the backported drivers set;
 *   the driver's struct devlink_ops gets the callback by a backport patch
 *   (0003-BACKPORT-mlx4_core.patch), since a header cannot add a member
 *   to a driver's const initializer.
 *
 * HAVE_DEVLINK_PORT_TYPE_ETH_SET_NO_NETDEV: 6.12 sets a port to Ethernet
 *   without naming its netdev (the netdev notifier links it later). Older
 *   kernels take the netdev, and accept NULL (logging a dev_warn()).
 */
#ifndef _BACKPORT_NET_DEVLINK_H
#define _BACKPORT_NET_DEVLINK_H

#include_next <net/devlink.h>

#ifndef HAVE_DEVL_PARAMS_REGISTER
static inline int devl_params_register(struct devlink *devlink,
				       const struct devlink_param *params,
				       size_t params_count)
{
	devl_assert_locked(devlink);
	return devlink_params_register(devlink, params, params_count);
}

static inline void devl_params_unregister(struct devlink *devlink,
					  const struct devlink_param *params,
					  size_t params_count)
{
	devl_assert_locked(devlink);
	devlink_params_unregister(devlink, params, params_count);
}

static inline int devl_param_driverinit_value_get(struct devlink *devlink,
						  u32 param_id,
						  union devlink_param_value *val)
{
	devl_assert_locked(devlink);
	return devlink_param_driverinit_value_get(devlink, param_id, val);
}

static inline void devl_param_driverinit_value_set(struct devlink *devlink,
						   u32 param_id,
						   union devlink_param_value init_val)
{
	devl_assert_locked(devlink);
	/* 6.1 returns an error only for an unknown id or a parameter
	 * without the driverinit cmode: a driver bug, which it WARNs on.
	 */
	devlink_param_driverinit_value_set(devlink, param_id, init_val);
}

static inline void devl_param_value_changed(struct devlink *devlink,
					    u32 param_id)
{
	devl_assert_locked(devlink);
	devlink_param_value_changed(devlink, param_id);
}
#endif /* !HAVE_DEVL_PARAMS_REGISTER */

#ifndef HAVE_DEVLINK_PORT_OPS
struct devlink_port_ops {
	int (*port_type_set)(struct devlink_port *devlink_port,
			     enum devlink_port_type port_type);
};

/* the ops reach the core through the driver's struct devlink_ops instead */
static inline int
devl_port_register_with_ops(struct devlink *devlink,
			    struct devlink_port *devlink_port,
			    unsigned int port_index,
			    const struct devlink_port_ops *ops)
{
	return devl_port_register(devlink, devlink_port, port_index);
}
#endif /* !HAVE_DEVLINK_PORT_OPS */

#ifndef HAVE_DEVLINK_PORT_TYPE_ETH_SET_NO_NETDEV
#define devlink_port_type_eth_set(devlink_port) \
	devlink_port_type_eth_set(devlink_port, NULL)
#endif

#endif /* _BACKPORT_NET_DEVLINK_H */
