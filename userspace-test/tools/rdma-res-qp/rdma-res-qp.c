// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * rdma-res-qp: list the QPs that RDMA resource tracking reports, as
 * `rdma resource show qp` (iproute2) does, through the same netlink
 * queries: RDMA_NLDEV_CMD_GET to find the devices, then a dump of
 * RDMA_NLDEV_CMD_RES_QP_GET per device. One line per QP:
 *
 *   dev=xrc_sim0 lqpn=1234 type=10 pid=56
 *   dev=xrc_sim0 lqpn=1235 type=10 kern=ib_uverbs
 *
 * Static and dependency-free, so that the busybox test guest can run it.
 * Exit status: 0, or 1 with a message on stderr.
 */
#include <errno.h>
#include <linux/netlink.h>
#include <rdma/rdma_netlink.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define BUF_SIZE (64 * 1024)

struct dev {
	uint32_t index;
	char name[64];
};

static int request(int fd, uint16_t op, uint32_t seq, const struct dev *dev)
{
	struct {
		struct nlmsghdr hdr;
		char attrs[64];
	} msg = { 0 };
	struct sockaddr_nl kernel = { .nl_family = AF_NETLINK };

	msg.hdr.nlmsg_len = NLMSG_LENGTH(0);
	msg.hdr.nlmsg_type = RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, op);
	msg.hdr.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	msg.hdr.nlmsg_seq = seq;
	if (dev) {
		struct nlattr *a = (struct nlattr *)NLMSG_DATA(&msg.hdr);

		a->nla_type = RDMA_NLDEV_ATTR_DEV_INDEX;
		a->nla_len = NLA_HDRLEN + sizeof(uint32_t);
		memcpy((char *)a + NLA_HDRLEN, &dev->index, sizeof(uint32_t));
		msg.hdr.nlmsg_len += NLA_ALIGN(a->nla_len);
	}
	return sendto(fd, &msg, msg.hdr.nlmsg_len, 0,
		      (struct sockaddr *)&kernel, sizeof(kernel)) < 0 ? -errno : 0;
}

/* Calls fn for every top-level attribute of every message of a dump */
static int dump(int fd, uint32_t seq,
		void (*fn)(const struct nlattr *, void *), void *ctx)
{
	static char buf[BUF_SIZE];

	for (;;) {
		ssize_t n = recv(fd, buf, sizeof(buf), 0);
		struct nlmsghdr *h;

		if (n < 0)
			return -errno;
		for (h = (struct nlmsghdr *)buf; NLMSG_OK(h, (size_t)n);
		     h = NLMSG_NEXT(h, n)) {
			struct nlattr *a;
			int len;

			if (h->nlmsg_seq != seq)
				continue;
			if (h->nlmsg_type == NLMSG_DONE)
				return 0;
			if (h->nlmsg_type == NLMSG_ERROR)
				return ((struct nlmsgerr *)NLMSG_DATA(h))->error;
			len = NLMSG_PAYLOAD(h, 0);
			for (a = NLMSG_DATA(h); len >= NLA_HDRLEN &&
			     a->nla_len >= NLA_HDRLEN && a->nla_len <= len;
			     len -= NLA_ALIGN(a->nla_len),
			     a = (struct nlattr *)((char *)a + NLA_ALIGN(a->nla_len)))
				fn(a, ctx);
		}
	}
}

static const void *payload(const struct nlattr *a)
{
	return (const char *)a + NLA_HDRLEN;
}

#define for_each_nested(pos, parent, left)				\
	for (pos = (const struct nlattr *)payload(parent),		\
	     left = (int)(parent)->nla_len - NLA_HDRLEN;		\
	     left >= NLA_HDRLEN && pos->nla_len >= NLA_HDRLEN &&	\
	     pos->nla_len <= left;					\
	     left -= NLA_ALIGN(pos->nla_len),				\
	     pos = (const struct nlattr *)((const char *)pos +		\
					   NLA_ALIGN(pos->nla_len)))

struct devs {
	struct dev dev[16];
	int n;
	struct dev cur;
};

static void on_dev_attr(const struct nlattr *a, void *ctx)
{
	struct devs *d = ctx;

	switch (a->nla_type & NLA_TYPE_MASK) {
	case RDMA_NLDEV_ATTR_DEV_INDEX:
		memcpy(&d->cur.index, payload(a), sizeof(uint32_t));
		break;
	case RDMA_NLDEV_ATTR_DEV_NAME:
		snprintf(d->cur.name, sizeof(d->cur.name), "%s",
			 (const char *)payload(a));
		/* The name follows the index in every RDMA_NLDEV_CMD_GET answer */
		if (d->n < 16)
			d->dev[d->n++] = d->cur;
		break;
	}
}

static void print_qp(const char *dev, const struct nlattr *entry)
{
	const struct nlattr *a;
	int left;

	printf("dev=%s", dev);
	for_each_nested(a, entry, left) {
		uint32_t v = 0;

		switch (a->nla_type & NLA_TYPE_MASK) {
		case RDMA_NLDEV_ATTR_RES_LQPN:
			memcpy(&v, payload(a), sizeof(v));
			printf(" lqpn=%u", v);
			break;
		case RDMA_NLDEV_ATTR_RES_TYPE:
			printf(" type=%u", *(const uint8_t *)payload(a));
			break;
		case RDMA_NLDEV_ATTR_RES_PID:
			memcpy(&v, payload(a), sizeof(v));
			printf(" pid=%u", v);
			break;
		case RDMA_NLDEV_ATTR_RES_KERN_NAME:
			printf(" kern=%s", (const char *)payload(a));
			break;
		}
	}
	printf("\n");
}

static void on_qp_attr(const struct nlattr *a, void *ctx)
{
	const struct nlattr *entry;
	int left;

	if ((a->nla_type & NLA_TYPE_MASK) != RDMA_NLDEV_ATTR_RES_QP)
		return;
	for_each_nested(entry, a, left)
		if ((entry->nla_type & NLA_TYPE_MASK) == RDMA_NLDEV_ATTR_RES_QP_ENTRY)
			print_qp(ctx, entry);
}

int main(void)
{
	struct devs devs = { .n = 0 };
	uint32_t seq = 1;
	int fd, ret, i;

	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_RDMA);
	if (fd < 0) {
		perror("rdma-res-qp: socket(NETLINK_RDMA)");
		return 1;
	}
	ret = request(fd, RDMA_NLDEV_CMD_GET, seq, NULL);
	if (!ret)
		ret = dump(fd, seq, on_dev_attr, &devs);
	for (i = 0; !ret && i < devs.n; i++) {
		seq++;
		ret = request(fd, RDMA_NLDEV_CMD_RES_QP_GET, seq, &devs.dev[i]);
		if (!ret)
			ret = dump(fd, seq, on_qp_attr, devs.dev[i].name);
	}
	close(fd);
	if (ret) {
		fprintf(stderr, "rdma-res-qp: %s\n", strerror(-ret));
		return 1;
	}
	return 0;
}
