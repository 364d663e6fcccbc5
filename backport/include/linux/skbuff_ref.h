/* SPDX-License-Identifier: GPL-2.0 */
/*
 * backport wrapper: <linux/skbuff_ref.h> (probe HAVE_LINUX_SKBUFF_REF_H).
 *
 * 6.11 moved the skb frag reference helpers (skb_frag_ref(),
 * __skb_frag_unref()...) out of <linux/skbuff.h> into
 * <linux/skbuff_ref.h>; older kernels define them, with the same
 * prototypes, in <linux/skbuff.h>.
 */
#ifndef _BACKPORT_LINUX_SKBUFF_REF_H
#define _BACKPORT_LINUX_SKBUFF_REF_H

#ifdef HAVE_LINUX_SKBUFF_REF_H
#include_next <linux/skbuff_ref.h>
#else
#include <linux/skbuff.h>
#endif

#endif /* _BACKPORT_LINUX_SKBUFF_REF_H */
