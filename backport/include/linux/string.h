/* SPDX-License-Identifier: GPL-2.0 */
/*
 * backport wrapper: <linux/string.h> (probe HAVE_STRSCPY_TWO_ARGS).
 *
 * Since 6.8 strscpy(dst, src) takes the size of dst, an array, when no
 * size is given. Before, the size is always an argument: the macro
 * below passes sizeof(dst) for the two-argument form (checking that dst
 * is an array, as 6.8 does) and calls the kernel's strscpy() for both.
 */
#ifndef _BACKPORT_LINUX_STRING_H
#define _BACKPORT_LINUX_STRING_H

#include_next <linux/string.h>

#ifndef HAVE_STRSCPY_TWO_ARGS
#include <linux/build_bug.h>
#include <linux/compiler.h>

static __always_inline ssize_t backport_sized_strscpy(char *dst, const char *src, size_t size)
{
	return strscpy(dst, src, size);
}

#define __backport_strscpy0(dst, src) \
	backport_sized_strscpy(dst, src, sizeof(dst) + __must_be_array(dst))
#define __backport_strscpy1(dst, src, size) \
	backport_sized_strscpy(dst, src, size)
#define __backport_strscpy_pick(_0, _1, name, ...) name
#define strscpy(dst, src, ...) \
	__backport_strscpy_pick(, ##__VA_ARGS__, __backport_strscpy1, \
				__backport_strscpy0)(dst, src, ##__VA_ARGS__)
#endif

#endif /* _BACKPORT_LINUX_STRING_H */
