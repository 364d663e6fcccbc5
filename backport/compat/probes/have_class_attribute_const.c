/*
 * HAVE_CLASS_ATTRIBUTE_CONST: struct class_attribute's show() takes a
 * const struct class * and a const struct class_attribute *. Used by:
 * ib_umad (user_mad.c's abi_version_show). Patch:
 * 0005-BACKPORT-ib_umad.patch.
 */
#include <linux/module.h>
#include <linux/device.h>

static ssize_t probe_show(const struct class *class,
			  const struct class_attribute *attr, char *buf)
{
	return 0;
}

static struct class_attribute probe_attr = __ATTR(probe, 0444, probe_show, NULL);

static int __init probe_init(void)
{
	return probe_attr.show ? 0 : 1;
}
module_init(probe_init);
MODULE_LICENSE("GPL");
