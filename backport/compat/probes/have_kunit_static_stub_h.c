/*
 * HAVE_KUNIT_STATIC_STUB_H: <kunit/static_stub.h> exists.
 * 6.12 has it, 6.1 does not. Used by: ib_core (xrc_rcv.c's
 * KUNIT_STATIC_STUB_REDIRECT). Wrapper: backport-include/kunit/static_stub.h.
 */
#include <linux/module.h>
#include <kunit/static_stub.h>

MODULE_LICENSE("GPL");
