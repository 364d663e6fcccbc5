/*
 * HAVE_LINUX_UNALIGNED_H: <linux/unaligned.h> exists (6.12 moved
 * <asm/unaligned.h> there, which older kernels have instead, with the
 * same get_unaligned_*()/put_unaligned_*()). Used by: rdma/iba.h and
 * rdma/ib_hdrs.h (ib_cm, rdma_cm, mlx4_ib). Wrapper: linux/unaligned.h.
 */
#include <linux/module.h>
#include <linux/unaligned.h>

MODULE_LICENSE("GPL");
