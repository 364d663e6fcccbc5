/*
 * HAVE_TIMER_CONTAINER_OF: timer_container_of() (6.16), from_timer()
 * renamed. Used by: mlx4_core (catas.c). Wrapper: linux/timer.h.
 */
#include <linux/module.h>
#include <linux/timer.h>

struct probe_s { struct timer_list t; };

static int __init probe_init(void)
{
	struct probe_s s, *p = &s;

	p = timer_container_of(p, &s.t, t);
	(void)p;
	return 0;
}
module_init(probe_init);
MODULE_LICENSE("GPL");
