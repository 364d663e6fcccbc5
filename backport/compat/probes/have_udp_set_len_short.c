/*
 * HAVE_UDP_SET_LEN_SHORT: udp_set_len_short(). Used by: ib_core
 * (lag.c). Wrapper linux/udp.h: uh->len = htons(len), its body without
 * the debug check.
 */
#include <linux/module.h>
#include <linux/udp.h>

static int __init probe_init(void)
{
	udp_set_len_short(NULL, 0);
	return 0;
}
module_init(probe_init);
MODULE_LICENSE("GPL");
