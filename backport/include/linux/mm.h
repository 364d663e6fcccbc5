/* SPDX-License-Identifier: GPL-2.0 */
/*
 * backport wrapper: <linux/mm.h> (probe HAVE_ZAP_SPECIAL_VMA_RANGE).
 *
 * Upstream renamed zap_vma_ptes(), which zaps the PTEs of a VM_PFNMAP/VM_MIXEDMAP
 * range, to zap_special_vma_range(); same arguments.
 */
#ifndef _BACKPORT_LINUX_MM_H
#define _BACKPORT_LINUX_MM_H

#include_next <linux/mm.h>

#ifndef HAVE_ZAP_SPECIAL_VMA_RANGE
#define zap_special_vma_range(vma, address, size) zap_vma_ptes(vma, address, size)
#endif

#endif /* _BACKPORT_LINUX_MM_H */
