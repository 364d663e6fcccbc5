/* SPDX-License-Identifier: GPL-2.0 */
/*
 * backport wrapper: <linux/unaligned.h> (probe HAVE_LINUX_UNALIGNED_H).
 *
 * 6.12 moved <asm/unaligned.h> to <linux/unaligned.h>; older kernels
 * define the same get_unaligned_*()/put_unaligned_*() in the former.
 */
#ifndef _BACKPORT_LINUX_UNALIGNED_H
#define _BACKPORT_LINUX_UNALIGNED_H

#ifdef HAVE_LINUX_UNALIGNED_H
#include_next <linux/unaligned.h>
#else
#include <asm/unaligned.h>
#endif

#endif /* _BACKPORT_LINUX_UNALIGNED_H */
