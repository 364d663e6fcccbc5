/*
 * HAVE_LINUX_PCI_TPH_H: <linux/pci-tph.h> (6.13), enum tph_mem_type.
 * Used by: ib_core's <rdma/ib_verbs.h> (struct ib_dmah), ib_uverbs
 * (uverbs_std_types_dmah.c). Wrapper: linux/pci-tph.h defines the enum.
 */
#include <linux/module.h>
#include <linux/pci-tph.h>

static int __init probe_init(void)
{
	enum tph_mem_type t = TPH_MEM_TYPE_PM;

	(void)t;
	return 0;
}
module_init(probe_init);
MODULE_LICENSE("GPL");
