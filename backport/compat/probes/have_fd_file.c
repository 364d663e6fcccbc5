/*
 * HAVE_FD_FILE: fd_file(struct fd) is the accessor of struct fd's file
 * (6.12 packs struct fd into one word; 6.1 has a plain .file member).
 * Used by: ib_uverbs (uverbs_cmd.c, OPEN_XRCD). Wrapper: linux/file.h.
 */
#include <linux/module.h>
#include <linux/file.h>

static int __init probe_init(void)
{
	struct fd f = fdget(0);
	struct file *file = fd_file(f);

	fdput(f);
	return file ? 0 : 0;
}
module_init(probe_init);
MODULE_LICENSE("GPL");
