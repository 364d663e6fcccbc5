/*
 * HAVE_CLASS_NAMESPACE_CONST_DEVICE: struct class' namespace() takes a
 * const struct device *. Used by: ib_core (device.c's net_namespace).
 * Patch: 0001-BACKPORT-ib_core.patch.
 */
#include <linux/module.h>
#include <linux/device.h>

static const void *probe_namespace(const struct device *dev)
{
	return NULL;
}

static struct class probe_class = { .namespace = probe_namespace };

static int __init probe_init(void)
{
	return probe_class.namespace ? 0 : 1;
}
module_init(probe_init);
MODULE_LICENSE("GPL");
