/* SPDX-License-Identifier: GPL-2.0 */
/*
 * backport wrapper: <linux/overflow.h>.
 *
 * overflows_type(n, T) (6.4; a macro, tested as itself): whether the
 * value n does not fit in the type of T. 6.4 folds a constant n at
 * compile time; the 7.3 tree only tests run-time values (ib_core,
 * umem.c), for which 6.4 adds n to a zero of T's type with
 * __builtin_add_overflow(), as here. (Older kernels' check_add_overflow()
 * insists on operands of one type, and their type_max() takes a type,
 * so neither helps.)
 */
#ifndef _BACKPORT_LINUX_OVERFLOW_H
#define _BACKPORT_LINUX_OVERFLOW_H

#include_next <linux/overflow.h>

#ifndef overflows_type
#define overflows_type(n, T) ({					\
	typeof(T) __backport_ot_v = 0;				\
	__builtin_add_overflow((n), __backport_ot_v, &__backport_ot_v);	\
})
#endif

#endif /* _BACKPORT_LINUX_OVERFLOW_H */
