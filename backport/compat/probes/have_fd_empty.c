/*
 * HAVE_FD_EMPTY: fd_empty() (6.12), whether fdget() found no file.
 * Used by: ib_uverbs. Wrapper: linux/file.h.
 */
#include <linux/module.h>
#include <linux/file.h>

static int __init probe_init(void)
{
	struct fd f = {};

	return fd_empty(f);
}
module_init(probe_init);
MODULE_LICENSE("GPL");
