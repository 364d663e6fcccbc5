/*
 * HAVE_CLASS_REGISTER_CONST: a struct class may be const: class_register()
 * and struct device's .class take a const struct class * (the class'
 * private state moved out of it). On 6.1 class_register() writes into the
 * class (cls->p), so a const class would sit in read-only memory and fault.
 * Used by: ib_uverbs (uverbs_main.c's uverbs_class). Patch:
 * 0002-BACKPORT-ib_uverbs.patch.
 */
#include <linux/module.h>
#include <linux/device.h>

static const struct class probe_class = { .name = "backport_probe" };

static int __init probe_init(void)
{
	struct device dev = { .class = &probe_class };

	return dev.class ? 0 : class_register(&probe_class);
}
module_init(probe_init);
MODULE_LICENSE("GPL");
