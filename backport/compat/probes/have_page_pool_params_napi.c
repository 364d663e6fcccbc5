/*
 * HAVE_PAGE_POOL_PARAMS_NAPI: page_pool_params' napi (6.5): the NAPI
 * instance that consumes the pool, which lets the pool recycle into its
 * lockless cache when freed from that NAPI's context. Older pools
 * recycle directly only when the caller says so (allow_direct), as the
 * 7.3 driver also does on its own paths. Used by: mlx4_en (en_rx.c).
 * Patch: 0004-BACKPORT-mlx4_en.patch (not set).
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

	pp.napi = NULL;
	return pp.flags;
}
module_init(probe_init);
MODULE_LICENSE("GPL");
