/* SPDX-License-Identifier: GPL-2.0 */
/*
 * backport wrapper: <linux/timer.h> (probe HAVE_TIMER_CONTAINER_OF).
 *
 * 6.16 renamed from_timer() to timer_container_of(); same macro.
 */
#ifndef _BACKPORT_LINUX_TIMER_H
#define _BACKPORT_LINUX_TIMER_H

#include_next <linux/timer.h>

#ifndef HAVE_TIMER_CONTAINER_OF
#define timer_container_of(var, callback_timer, timer_fieldname) \
	from_timer(var, callback_timer, timer_fieldname)
#endif

#endif /* _BACKPORT_LINUX_TIMER_H */
