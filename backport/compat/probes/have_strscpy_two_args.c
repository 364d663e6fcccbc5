/*
 * HAVE_STRSCPY_TWO_ARGS: strscpy() with its size taken from a
 * destination array (6.8). Used by: iw_cm (iwcm.c). Wrapper:
 * linux/string.h.
 */
#include <linux/module.h>
#include <linux/string.h>

static int __init probe_init(void)
{
	char b[4];

	return strscpy(b, "x") < 0;
}
module_init(probe_init);
MODULE_LICENSE("GPL");
