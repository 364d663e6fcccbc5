/* SPDX-License-Identifier: GPL-2.0 */
/*
 * backport wrapper: <linux/pci-tph.h> (probe HAVE_LINUX_PCI_TPH_H).
 *
 * 6.13 added TPH (PCIe TLP Processing Hints). The RDMA stack uses only
 * enum tph_mem_type (the DMAH object's memory type attribute); the
 * steering tags themselves are the device driver's, and none that the
 * backport builds asks for one. Older kernels: the enum, 6.13's values.
 */
#ifndef _BACKPORT_LINUX_PCI_TPH_H
#define _BACKPORT_LINUX_PCI_TPH_H

#ifdef HAVE_LINUX_PCI_TPH_H
#include_next <linux/pci-tph.h>
#else
enum tph_mem_type {
	TPH_MEM_TYPE_VM,	/* volatile memory */
	TPH_MEM_TYPE_PM		/* persistent memory */
};
#endif

#endif /* _BACKPORT_LINUX_PCI_TPH_H */
