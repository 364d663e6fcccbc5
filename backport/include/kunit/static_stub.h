/* SPDX-License-Identifier: GPL-2.0 */
/*
 * backport wrapper: <kunit/static_stub.h> (probe HAVE_KUNIT_STATIC_STUB_H).
 *
 * Kernels without static stubs get the header's !CONFIG_KUNIT meaning:
 * KUNIT_STATIC_STUB_REDIRECT() does nothing. That is exact for the
 * backport, which builds no KUnit suite: only the tests ever redirect.
 */
#ifndef _BACKPORT_KUNIT_STATIC_STUB_H
#define _BACKPORT_KUNIT_STATIC_STUB_H

#ifdef HAVE_KUNIT_STATIC_STUB_H
#include_next <kunit/static_stub.h>
#else
#define KUNIT_STATIC_STUB_REDIRECT(real_fn_name, args...) do {} while (0)
#endif

#endif /* _BACKPORT_KUNIT_STATIC_STUB_H */
