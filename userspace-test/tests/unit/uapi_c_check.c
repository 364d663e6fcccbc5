/* Compiles the uAPI header as C11: the kernel-style header must stay C. */
#include <xrcrcv/uapi.h>

int xrc_uapi_c_check(void);
int xrc_uapi_c_check(void)
{
	struct ib_uverbs_reg_xrc_rcv_qp reg = { .qp_num = IB_UVERBS_XRC_RCV_QPN_NEW };

	return (int)(reg.qp_num & IB_UVERBS_XRC_QP_EVENT_FLAG) + IB_USER_VERBS_CMD_REG_XRC_RCV_QP;
}
