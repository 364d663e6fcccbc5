/*
 * HAVE_REGISTER_NET_SYSCTL_SZ: register_net_sysctl() takes the table's
 * size from ARRAY_SIZE() (6.6 added register_net_sysctl_sz(); the
 * tables have since lost their empty sentinel entry). Older kernels
 * walk a table up to an entry with no procname: without it they read past
 * the array ("sysctl table check failed", and the module fails to load).
 * Used by: iw_cm (iwcm.c), rdma_ucm (ucma.c). Fix: patches 0007 and
 * 0008 end each table with the sentinel.
 */
#include <linux/module.h>
#include <net/net_namespace.h>

static struct ctl_table t[1];

void probe(void);
void probe(void)
{
	register_net_sysctl_sz(&init_net, "probe", t, ARRAY_SIZE(t));
}

MODULE_LICENSE("GPL");
