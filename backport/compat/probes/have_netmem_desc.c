/*
 * HAVE_NETMEM_DESC: struct netmem_desc and pp_page_to_nmdesc() :
 * the page pool fields of a page moved out of struct page's union. Used
 * by: mlx4_en (en_rx.c). Patch mlx4_en: page->pp_ref_count, where older
 * kernels keep it.
 */
#include <linux/module.h>
#include <net/netmem.h>

static int __init probe_init(void)
{
	struct netmem_desc *d = pp_page_to_nmdesc(NULL);

	(void)d;
	return 0;
}
module_init(probe_init);
MODULE_LICENSE("GPL");
