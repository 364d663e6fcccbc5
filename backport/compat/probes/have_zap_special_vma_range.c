/*
 * HAVE_ZAP_SPECIAL_VMA_RANGE: zap_special_vma_range(), zap_vma_ptes()
 * renamed. Used by: ib_uverbs (uverbs_main.c). Wrapper: linux/mm.h.
 */
#include <linux/module.h>
#include <linux/mm.h>

static int __init probe_init(void)
{
	zap_special_vma_range(NULL, 0, 0);
	return 0;
}
module_init(probe_init);
MODULE_LICENSE("GPL");
