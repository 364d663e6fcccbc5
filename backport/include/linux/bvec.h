/* SPDX-License-Identifier: GPL-2.0 */
/*
 * backport wrapper: <linux/bvec.h> (probe HAVE_BVEC_PHYS).
 *
 * bvec_phys() (6.10): the physical address of a bio_vec, 6.12's body.
 */
#ifndef _BACKPORT_LINUX_BVEC_H
#define _BACKPORT_LINUX_BVEC_H

#include_next <linux/bvec.h>

#ifndef HAVE_BVEC_PHYS
#include <linux/mm.h>
#include <asm/io.h>

static inline phys_addr_t bvec_phys(const struct bio_vec *bvec)
{
	return page_to_phys(bvec->bv_page) + bvec->bv_offset;
}
#endif

#endif /* _BACKPORT_LINUX_BVEC_H */
