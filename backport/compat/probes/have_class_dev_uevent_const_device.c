/*
 * HAVE_CLASS_DEV_UEVENT_CONST_DEVICE: struct class' dev_uevent() takes a
 * const struct device *. Used by: ib_core (device.c's ib_device_uevent).
 * Patch: 0001-BACKPORT-ib_core.patch.
 */
#include <linux/module.h>
#include <linux/device.h>

static int probe_uevent(const struct device *dev, struct kobj_uevent_env *env)
{
	return 0;
}

static struct class probe_class = { .dev_uevent = probe_uevent };

static int __init probe_init(void)
{
	return probe_class.dev_uevent ? 0 : 1;
}
module_init(probe_init);
MODULE_LICENSE("GPL");
