/*
 * HAVE_CLASS_NAMESPACE_NS_COMMON: struct class' namespace() returns the
 * device's namespace as a const struct ns_common *, the tag
 * kobject namespaces compare; before, a const void *, and the tag of a
 * network namespace was the struct net itself. Used by: ib_core
 * (device.c, net_namespace()). Patch 0001: the older prototype, and the
 * struct net as the tag.
 */
#include <linux/module.h>
#include <linux/device/class.h>
#include <linux/ns_common.h>

static const struct ns_common *probe_namespace(const struct device *dev)
{
	return NULL;
}

static int __init probe_init(void)
{
	struct class c = { .namespace = probe_namespace };

	(void)c;
	return 0;
}
module_init(probe_init);
MODULE_LICENSE("GPL");
