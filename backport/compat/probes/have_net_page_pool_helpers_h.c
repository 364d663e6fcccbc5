/*
 * HAVE_NET_PAGE_POOL_HELPERS_H: <net/page_pool/helpers.h> (6.6 split
 * <net/page_pool.h> into page_pool/types.h and page_pool/helpers.h).
 * Used by: mlx4_en (en_rx.c, en_tx.c). Wrapper: net/page_pool/helpers.h.
 */
#include <linux/module.h>
#include <net/page_pool/helpers.h>

MODULE_LICENSE("GPL");
