/*
 * HAVE_NETDEV_STAT_OPS: struct netdev_stat_ops and net_device's stat_ops
 * (6.10): per-queue counters for the netdev netlink family's qstats-get.
 * Older kernels have no such report. Used by: mlx4_en (en_netdev.c).
 * Patch: 0006-BACKPORT-mlx4_en.patch (compiled out).
 */
#include <linux/module.h>
#include <linux/netdevice.h>
#include <net/netdev_queues.h>

static void probe_rx(struct net_device *dev, int i,
		     struct netdev_queue_stats_rx *stats)
{
}

static void probe_tx(struct net_device *dev, int i,
		     struct netdev_queue_stats_tx *stats)
{
}

static void probe_base(struct net_device *dev,
		       struct netdev_queue_stats_rx *rx,
		       struct netdev_queue_stats_tx *tx)
{
}

static const struct netdev_stat_ops probe_ops = {
	.get_queue_stats_rx = probe_rx,
	.get_queue_stats_tx = probe_tx,
	.get_base_stats = probe_base,
};

static int __init probe_init(void)
{
	struct net_device *dev = NULL;

	dev->stat_ops = &probe_ops;
	return 0;
}
module_init(probe_init);
MODULE_LICENSE("GPL");
