/* SPDX-License-Identifier: GPL-2.0 */
/*
 * backport wrapper: <linux/file.h> (probes HAVE_FD_FILE, HAVE_EMPTY_FD,
 * HAVE_FD_EMPTY).
 *
 * 6.12 packs struct fd into one word and reads it with fd_file(); older
 * kernels have struct fd { struct file *file; unsigned int flags; }.
 * fd_file() is only ever read (never assigned) by the backported code.
 * fd_empty() (6.12): no file, 6.12's test.
 */
#ifndef _BACKPORT_LINUX_FILE_H
#define _BACKPORT_LINUX_FILE_H

#include_next <linux/file.h>

#ifndef HAVE_FD_FILE
#define fd_file(f) ((f).file)
#endif

#ifndef HAVE_EMPTY_FD
#define EMPTY_FD ((struct fd){ .file = NULL, .flags = 0 })
#endif

#ifndef HAVE_FD_EMPTY
static inline bool fd_empty(struct fd f)
{
	return unlikely(!fd_file(f));
}
#endif

#endif /* _BACKPORT_LINUX_FILE_H */
