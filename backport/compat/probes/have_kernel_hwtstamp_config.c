/*
 * HAVE_KERNEL_HWTSTAMP_CONFIG: struct kernel_hwtstamp_config with its
 * ifr and copied_to_user fields and both conversions in
 * <linux/net_tstamp.h> (6.6; 6.4 and 6.5 have the struct and one
 * conversion only). Older kernels have only the uapi header, struct
 * hwtstamp_config. Used by: mlx4_en (mlx4_en.h, en_netdev.c). Wrapper:
 * linux/net_tstamp.h.
 */
#include <linux/module.h>
#include <linux/net_tstamp.h>

static int __init probe_init(void)
{
	struct kernel_hwtstamp_config k = {};
	struct hwtstamp_config c = {};

	hwtstamp_config_to_kernel(&k, &c);
	hwtstamp_config_from_kernel(&c, &k);
	return k.flags + !k.ifr + k.copied_to_user;
}
module_init(probe_init);
MODULE_LICENSE("GPL");
