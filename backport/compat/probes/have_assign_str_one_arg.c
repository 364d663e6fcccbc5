/*
 * HAVE_ASSIGN_STR_ONE_ARG: a trace event's TP_fast_assign() copies a
 * __string() field with __assign_str(field) (6.10: the source given to
 * __string() is remembered); older kernels take __assign_str(field, src).
 * The probe only expands the macro, as a string, so a wrong argument
 * count is the sole possible error. Used by: rdma_cm (cma_trace.h).
 * Patch: 0004-BACKPORT-rdma_cm.patch.
 */
#include <linux/module.h>
#include <linux/trace_events.h>
#include <trace/stages/stage6_event_callback.h>

#define probe_str(...) #__VA_ARGS__
#define probe_xstr(...) probe_str(__VA_ARGS__)

static const char probe_text[] = probe_xstr(__assign_str(name));

static int __init probe_init(void)
{
	return probe_text[0] ? 0 : 1;
}
module_init(probe_init);
MODULE_LICENSE("GPL");
