/* Compiles the uAPI header as C11: the kernel-style header must stay C. */
#include <xrcrcv/uapi.h>

int xrc_uapi_c_check(void);
int xrc_uapi_c_check(void)
{
	struct ib_uverbs_attr num = { .attr_id = UVERBS_ATTR_REG_RCV_QP_NUM };

	return (int)(num.attr_id & IB_UVERBS_XRC_QP_EVENT_FLAG) + UVERBS_METHOD_XRCD_REG_RCV_QP;
}
