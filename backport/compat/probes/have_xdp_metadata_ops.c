/*
 * HAVE_XDP_METADATA_OPS: struct xdp_metadata_ops, net_device's
 * xdp_metadata_ops and its xmo_rx_timestamp()/xmo_rx_hash() with an
 * enum xdp_rss_hash_type (6.3): a driver's answers to the XDP RX
 * metadata kfuncs (bpf_xdp_metadata_rx_hash()...). Older kernels have no
 * such kfuncs. Used by: mlx4_en (en_rx.c, en_netdev.c). Patch:
 * 0006-BACKPORT-mlx4_en.patch (the feature is compiled out).
 */
#include <linux/module.h>
#include <linux/netdevice.h>
#include <net/xdp.h>

struct xdp_md;

static int probe_ts(const struct xdp_md *ctx, u64 *timestamp)
{
	return 0;
}

static int probe_hash(const struct xdp_md *ctx, u32 *hash,
		      enum xdp_rss_hash_type *rss_type)
{
	*rss_type = XDP_RSS_L4_TCP;
	return 0;
}

static const struct xdp_metadata_ops probe_ops = {
	.xmo_rx_timestamp = probe_ts,
	.xmo_rx_hash = probe_hash,
};

static int __init probe_init(void)
{
	struct net_device *dev = NULL;

	dev->xdp_metadata_ops = &probe_ops;
	return 0;
}
module_init(probe_init);
MODULE_LICENSE("GPL");
