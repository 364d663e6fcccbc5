/*
 * RDMA_VERBS_IOCTL on a pipe, captured: the unit tests replace the
 * command fd by a pipe and read back what reached the "device".  A write
 * command lands there by itself; an ioctl on a pipe would fail with
 * ENOTTY and leave nothing, so this definition of ioctl(2) (it takes the
 * place of libc's, which is a weak alias of __ioctl, in this test binary
 * only) writes a record into the pipe instead and succeeds:
 *
 *   struct ib_uverbs_cmd_hdr { command = XRCRCV ioctl method command
 *                              (0x40000000 | object << 16 | method),
 *                              in_words = (8 + hdr.length) / 4,
 *                              out_words = 0 }
 *   the ioctl buffer as sent (ib_uverbs_ioctl_hdr + ib_uverbs_attr[])
 *
 * so a reader frames both kinds alike.  Nothing is answered: a PTR_OUT
 * stays as the caller left it.  Any other request, or any fd that is not
 * a pipe, goes to the kernel as it is.
 */
#include <xrcrcv/uapi.h>

#include <errno.h>
#include <stdarg.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

int ioctl(int fd, unsigned long request, ...)
{
	va_list ap;
	void *arg;
	struct stat st;

	va_start(ap, request);
	arg = va_arg(ap, void *);
	va_end(ap);
	if (request == RDMA_VERBS_IOCTL && arg && fstat(fd, &st) == 0 && S_ISFIFO(st.st_mode)) {
		struct ib_uverbs_ioctl_hdr h;
		struct ib_uverbs_cmd_hdr rec;
		unsigned char buf[sizeof(rec) + 4096];

		memcpy(&h, arg, sizeof(h));
		if (h.length < sizeof(h) || h.length % 4 || h.length > 4096) {
			errno = EINVAL;
			return -1;
		}
		rec.command = 0x40000000U | (((__u32)h.object_id & 0x3fffU) << 16) | h.method_id;
		rec.in_words = (__u16)((sizeof(rec) + h.length) / 4);
		rec.out_words = 0;
		memcpy(buf, &rec, sizeof(rec));
		memcpy(buf + sizeof(rec), arg, h.length);
		if (write(fd, buf, sizeof(rec) + h.length) != (ssize_t)(sizeof(rec) + h.length))
			return -1;
		return 0;
	}
	return (int)syscall(SYS_ioctl, fd, request, arg);
}
