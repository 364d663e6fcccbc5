/*
 * HAVE_RDMACG_DEVICE_INDEX: struct rdmacg_device has an index, the
 * ib_device's, set before rdmacg_register_device(). Used by: ib_core
 * (cgroup.c). Patch 0001: older kernels' rdma cgroup knows a device by
 * its name only, so the assignment goes.
 */
#include <linux/module.h>
#include <linux/cgroup_rdma.h>

static int __init probe_init(void)
{
	struct rdmacg_device d = { .index = 0 };

	(void)d;
	return 0;
}
module_init(probe_init);
MODULE_LICENSE("GPL");
