/*
 * HAVE_NETDEV_LOCK: the netdev instance lock (6.14: netdev_lock(),
 * <net/netdev_lock.h> 6.15: netdev_lock_ops(), netdev_lock_ops_to_full()).
 * Used by: ib_ipoib (ipoib_main.c, ipoib_ib.c, ipoib_vlan.c). Wrapper
 * net/netdev_lock.h: the ops lock is a no-op (no older device has one);
 * patch ib_ipoib: the instance lock of an IPoIB device is a mutex of its
 * own (backport/README.md, IPoIB).
 */
#include <linux/module.h>
#include <net/netdev_lock.h>

static int __init probe_init(void)
{
	netdev_lock_ops_to_full(NULL);
	return 0;
}
module_init(probe_init);
MODULE_LICENSE("GPL");
