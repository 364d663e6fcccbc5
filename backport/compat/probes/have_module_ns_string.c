/*
 * HAVE_MODULE_NS_STRING: symbol namespaces are string literals (6.13):
 * EXPORT_SYMBOL_NS_GPL(sym, "ns"), MODULE_IMPORT_NS("ns"). Before, the
 * macros stringify a bare name, so a literal became the namespace
 * "\"ns\"", quotes included, which matches no kernel namespace (DMA_BUF).
 * Used by: ib_core, ib_uverbs_support ("rdma_core" exports), ib_core
 * and ib_uverbs (imports). Wrapper linux/export.h (the exports); patches
 * 0001 and 0002 (the imports; a wrapper of MODULE_IMPORT_NS could do it
 * as well now that every source is the 7.3 tree's).
 *
 * The probe captures what MODULE_IMPORT_NS() hands to __MODULE_INFO():
 * "X" on 6.13 and later, "\"X\"" before. (No MODULE_LICENSE: it would
 * go through the same capture.)
 */
#include <linux/module.h>
#include <linux/build_bug.h>

#undef __MODULE_INFO
#define __MODULE_INFO(tag, name, info) static_assert(sizeof(info) == sizeof("X"))

MODULE_IMPORT_NS("X");
