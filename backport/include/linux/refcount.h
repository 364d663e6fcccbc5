/* SPDX-License-Identifier: GPL-2.0 */
/*
 * backport wrapper: <linux/refcount.h> (probe HAVE_REFCOUNT_SET_RELEASE).
 *
 * refcount_set_release() is refcount_set() with release ordering, for an
 * object published to lockless readers right after it is initialized;
 * 6.12 defines it exactly like this.
 */
#ifndef _BACKPORT_LINUX_REFCOUNT_H
#define _BACKPORT_LINUX_REFCOUNT_H

#include_next <linux/refcount.h>

#ifndef HAVE_REFCOUNT_SET_RELEASE
static inline void refcount_set_release(refcount_t *r, int n)
{
	atomic_set_release(&r->refs, n);
}
#endif

#endif /* _BACKPORT_LINUX_REFCOUNT_H */
