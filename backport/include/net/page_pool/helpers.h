/* SPDX-License-Identifier: GPL-2.0 */
/*
 * backport wrapper: <net/page_pool/helpers.h> (probes
 * HAVE_NET_PAGE_POOL_HELPERS_H, HAVE_PAGE_POOL_REF_PAGE).
 *
 * 6.6 split <net/page_pool.h> into <net/page_pool/types.h> and
 * <net/page_pool/helpers.h>; older kernels declare all of it in
 * <net/page_pool.h>.
 *
 * page_pool_ref_page() (6.7) takes one more reference of the pool on a
 * page, in the count page_pool_put_page() drops and recycles the page
 * at zero. 6.7 made that count unconditional; before, it is
 * page->pp_frag_count, counted only in a pool created with
 * PP_FLAG_PAGE_FRAG (patch 0004-BACKPORT-mlx4_en.patch sets it, and
 * reads the count by its old name). The body is 6.7's.
 */
#ifndef _BACKPORT_NET_PAGE_POOL_HELPERS_H
#define _BACKPORT_NET_PAGE_POOL_HELPERS_H

#ifdef HAVE_NET_PAGE_POOL_HELPERS_H
#include_next <net/page_pool/helpers.h>
#else
#include <net/page_pool.h>
#endif

#ifndef HAVE_PAGE_POOL_REF_PAGE
static inline void page_pool_ref_page(struct page *page)
{
	atomic_long_inc(&page->pp_frag_count);
}
#endif

#endif /* _BACKPORT_NET_PAGE_POOL_HELPERS_H */
