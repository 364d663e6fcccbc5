/*
 * HAVE_CYCLECOUNTER_READ_MUTABLE: cyclecounter.read() takes a non-const
 * struct cyclecounter * (const before). Used by: mlx4_en
 * (en_clock.c). Patch mlx4_en: the older prototype.
 */
#include <linux/module.h>
#include <linux/timecounter.h>

static u64 probe_read(struct cyclecounter *cc) { return 0; }

static int __init probe_init(void)
{
	struct cyclecounter c = { .read = probe_read };

	(void)c;
	return 0;
}
module_init(probe_init);
MODULE_LICENSE("GPL");
