/* SPDX-License-Identifier: GPL-2.0 */
/*
 * backport wrapper: <linux/ptp_clock_kernel.h> (probe
 * HAVE_ADJUST_BY_SCALED_PPM).
 *
 * diff_by_scaled_ppm() and adjust_by_scaled_ppm(), copied from 6.12:
 * the new increment of a PHC for an adjfine() request, computed with
 * mul_u64_u64_div_u64() so that it cannot overflow.
 */
#ifndef _BACKPORT_LINUX_PTP_CLOCK_KERNEL_H
#define _BACKPORT_LINUX_PTP_CLOCK_KERNEL_H

#include_next <linux/ptp_clock_kernel.h>

#ifndef HAVE_ADJUST_BY_SCALED_PPM
#include <linux/math64.h>

static inline bool diff_by_scaled_ppm(u64 base, long scaled_ppm, u64 *diff)
{
	bool negative = false;

	if (scaled_ppm < 0) {
		negative = true;
		scaled_ppm = -scaled_ppm;
	}

	*diff = mul_u64_u64_div_u64(base, (u64)scaled_ppm, 1000000ULL << 16);

	return negative;
}

static inline u64 adjust_by_scaled_ppm(u64 base, long scaled_ppm)
{
	u64 diff;

	if (diff_by_scaled_ppm(base, scaled_ppm, &diff))
		return base - diff;

	return base + diff;
}
#endif /* !HAVE_ADJUST_BY_SCALED_PPM */

#endif /* _BACKPORT_LINUX_PTP_CLOCK_KERNEL_H */
