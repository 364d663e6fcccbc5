/*
 * HAVE_NET_RPS_H: <net/rps.h> exists (6.10 moved the RPS/RFS declarations,
 * rps_may_expire_flow() among them, out of <linux/netdevice.h> and
 * <net/sock.h> into it). Used by: mlx4_en (en_netdev.c).
 * Wrapper: net/rps.h.
 */
#include <linux/module.h>
#include <net/rps.h>

MODULE_LICENSE("GPL");
