/* SPDX-License-Identifier: GPL-2.0 */
/*
 * backport wrapper: <linux/udp.h> (probe HAVE_UDP_SET_LEN_SHORT).
 *
 * The 7.3 tree's udp_set_len_short() sets the length of a UDP header that is
 * known to fit in 16 bits; its body without the debug check.
 */
#ifndef _BACKPORT_LINUX_UDP_H
#define _BACKPORT_LINUX_UDP_H

#include_next <linux/udp.h>

#ifndef HAVE_UDP_SET_LEN_SHORT
static inline void udp_set_len_short(struct udphdr *uh, unsigned int len)
{
	uh->len = htons(len);
}
#endif

#endif /* _BACKPORT_LINUX_UDP_H */
