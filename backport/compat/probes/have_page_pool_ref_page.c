/*
 * HAVE_PAGE_POOL_REF_PAGE: page_pool_ref_page() (6.7), and with it the
 * page pool's reference count of every page it hands out (6.7 made the
 * count unconditional: PP_FLAG_PAGE_FRAG is gone). Before, a pool
 * counts the users of a page in page->pp_frag_count only when created
 * with PP_FLAG_PAGE_FRAG. Used by: mlx4_en (en_rx.c). Wrapper:
 * net/page_pool/helpers.h; patch 0004-BACKPORT-mlx4_en.patch (the flag).
 */
#include <linux/module.h>
/* the header's name changed in 6.6 */
#if __has_include(<net/page_pool/helpers.h>)
#include <net/page_pool/helpers.h>
#else
#include <net/page_pool.h>
#endif

static int __init probe_init(void)
{
	page_pool_ref_page(NULL);
	return 0;
}
module_init(probe_init);
MODULE_LICENSE("GPL");
