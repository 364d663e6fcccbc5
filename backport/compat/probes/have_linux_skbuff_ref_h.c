/*
 * HAVE_LINUX_SKBUFF_REF_H: <linux/skbuff_ref.h> exists (6.11 moved the
 * skb frag reference helpers, __skb_frag_unref() among them, out of
 * <linux/skbuff.h> into it). Used by: mlx4_en (en_rx.c).
 * Wrapper: linux/skbuff_ref.h.
 */
#include <linux/module.h>
#include <linux/skbuff_ref.h>

MODULE_LICENSE("GPL");
