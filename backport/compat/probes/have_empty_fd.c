/*
 * HAVE_EMPTY_FD: EMPTY_FD, the initializer of an empty struct fd.
 * Used by: ib_uverbs (uverbs_cmd.c, OPEN_XRCD). Wrapper: linux/file.h.
 */
#include <linux/module.h>
#include <linux/file.h>

static int __init probe_init(void)
{
	struct fd f = EMPTY_FD;

	fdput(f);
	return 0;
}
module_init(probe_init);
MODULE_LICENSE("GPL");
