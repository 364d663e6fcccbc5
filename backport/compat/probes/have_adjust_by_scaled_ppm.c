/*
 * HAVE_ADJUST_BY_SCALED_PPM: adjust_by_scaled_ppm() and
 * diff_by_scaled_ppm() (6.2), a PHC's adjfine() helpers. Used by: mlx4_en
 * (en_clock.c). Wrapper: linux/ptp_clock_kernel.h.
 */
#include <linux/module.h>
#include <linux/ptp_clock_kernel.h>

static int __init probe_init(void)
{
	return adjust_by_scaled_ppm(1000, 0) == 1000 ? 0 : 1;
}
module_init(probe_init);
MODULE_LICENSE("GPL");
