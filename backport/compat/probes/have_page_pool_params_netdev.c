/*
 * HAVE_PAGE_POOL_PARAMS_NETDEV: page_pool_params' netdev (6.8), the
 * device netdev netlink's page-pool-get reports a pool under. Older
 * kernels have no such report. Used by: mlx4_en (en_rx.c). Patch:
 * 0004-BACKPORT-mlx4_en.patch (not set).
 */
#include <linux/module.h>
/* the header's name changed in 6.6 */
#if __has_include(<net/page_pool/types.h>)
#include <net/page_pool/types.h>
#else
#include <net/page_pool.h>
#endif

static int __init probe_init(void)
{
	struct page_pool_params pp = {};

	pp.netdev = NULL;
	return pp.flags;
}
module_init(probe_init);
MODULE_LICENSE("GPL");
