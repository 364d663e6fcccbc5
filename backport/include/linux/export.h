/* SPDX-License-Identifier: GPL-2.0 */
/*
 * backport wrapper: <linux/export.h> (probe HAVE_MODULE_NS_STRING).
 *
 * Since 6.13 a symbol namespace is a string literal:
 * EXPORT_SYMBOL_NS_GPL(sym, "rdma_core"). Older kernels' macros
 * stringify their argument, which would name the namespace
 * "\"rdma_core\"", quotes included. Here they take the literal as it
 * is, as 6.13's do. Imports are the patches' business (probe comment).
 *
 * The second argument of __EXPORT_SYMBOL() is the license since 6.5's
 * export.h ("GPL"), the suffix of the __ksymtab section before ("_gpl").
 * 6.5's defines __EXPORT_SYMBOL_REF(), tested as itself.
 */
#ifndef _BACKPORT_LINUX_EXPORT_H
#define _BACKPORT_LINUX_EXPORT_H

#include_next <linux/export.h>

#ifndef HAVE_MODULE_NS_STRING
#undef EXPORT_SYMBOL_NS
#undef EXPORT_SYMBOL_NS_GPL
#define EXPORT_SYMBOL_NS(sym, ns)	__EXPORT_SYMBOL(sym, "", ns)
#ifdef __EXPORT_SYMBOL_REF
#define EXPORT_SYMBOL_NS_GPL(sym, ns)	__EXPORT_SYMBOL(sym, "GPL", ns)
#else
#define EXPORT_SYMBOL_NS_GPL(sym, ns)	__EXPORT_SYMBOL(sym, "_gpl", ns)
#endif
#endif

#endif /* _BACKPORT_LINUX_EXPORT_H */
