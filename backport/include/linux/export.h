/* SPDX-License-Identifier: GPL-2.0 */
/*
 * backport wrapper: <linux/export.h> (probe HAVE_MODULE_NS_STRING).
 *
 * Since 6.13 a symbol namespace is a string literal:
 * EXPORT_SYMBOL_NS_GPL(sym, "rdma_core"). Older kernels' macros
 * stringify their argument, which would name the namespace
 * "\"rdma_core\"", quotes included. Here they take the literal as it
 * is, as 6.13's do. (No source of the v3 input exports into a
 * namespace. Imports are the patches' business: probe comment.)
 */
#ifndef _BACKPORT_LINUX_EXPORT_H
#define _BACKPORT_LINUX_EXPORT_H

#include_next <linux/export.h>

#ifndef HAVE_MODULE_NS_STRING
#undef EXPORT_SYMBOL_NS
#undef EXPORT_SYMBOL_NS_GPL
#define EXPORT_SYMBOL_NS(sym, ns)	__EXPORT_SYMBOL(sym, "", ns)
#define EXPORT_SYMBOL_NS_GPL(sym, ns)	__EXPORT_SYMBOL(sym, "GPL", ns)
#endif

#endif /* _BACKPORT_LINUX_EXPORT_H */
