/* SPDX-License-Identifier: GPL-2.0 */
/*
 * backport wrapper: <linux/sort.h> (probe HAVE_CMP_INT_SORT_H).
 *
 * The 7.3 tree has cmp_int() (-1, 0 or 1, a three-way compare) in <linux/sort.h>.
 */
#ifndef _BACKPORT_LINUX_SORT_H
#define _BACKPORT_LINUX_SORT_H

#include_next <linux/sort.h>

#if !defined(HAVE_CMP_INT_SORT_H) && !defined(cmp_int)
#define cmp_int(l, r) (((l) > (r)) - ((l) < (r)))
#endif

#endif /* _BACKPORT_LINUX_SORT_H */
