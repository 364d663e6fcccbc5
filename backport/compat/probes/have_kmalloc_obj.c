/*
 * HAVE_KMALLOC_OBJ: the typed allocators kmalloc_obj(), kzalloc_obj(),
 * kmalloc_objs(), kzalloc_objs(), k[v][mz]alloc_flex() and
 * default_gfp() (in Debian's 6.12.118; ~300 calls in the 7.3 tree).
 * Used by: every module. Wrapper linux/slab.h: the same macros.
 */
#include <linux/module.h>
#include <linux/slab.h>

static int __init probe_init(void)
{
	struct { int n; int v[]; } *f = kvzalloc_flex(*f, v, 4);
	int *p = kzalloc_obj(*p);

	kvfree(f);
	kfree(p);
	return 0;
}
module_init(probe_init);
MODULE_LICENSE("GPL");
