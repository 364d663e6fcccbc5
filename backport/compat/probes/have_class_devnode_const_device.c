/*
 * HAVE_CLASS_DEVNODE_CONST_DEVICE: struct class' devnode() takes a
 * const struct device *. Used by: ib_uverbs (uverbs_main.c's
 * uverbs_devnode). Patch: 0002-BACKPORT-ib_uverbs.patch.
 */
#include <linux/module.h>
#include <linux/device.h>

static char *probe_devnode(const struct device *dev, umode_t *mode)
{
	return NULL;
}

static struct class probe_class = { .devnode = probe_devnode };

static int __init probe_init(void)
{
	return probe_class.devnode ? 0 : 1;
}
module_init(probe_init);
MODULE_LICENSE("GPL");
