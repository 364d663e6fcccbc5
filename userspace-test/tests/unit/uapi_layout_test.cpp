// The wire structs match abi.md byte for byte (the header also
// static_asserts these; here they are visible as test cases).
#include <xrcrcv/uapi.h>

#include <gtest/gtest.h>

#include <cstddef>

namespace {

TEST(UapiLayout, CommandNumbersContinueAfterOpenQp) {
  EXPECT_EQ(IB_USER_VERBS_CMD_OPEN_QP, 40);
  EXPECT_EQ(IB_USER_VERBS_CMD_REG_XRC_RCV_QP, 41);
  EXPECT_EQ(IB_USER_VERBS_CMD_UNREG_XRC_RCV_QP, 42);
  EXPECT_EQ(IB_USER_VERBS_CMD_MODIFY_XRC_RCV_QP, 43);
  EXPECT_EQ(IB_USER_VERBS_CMD_QUERY_XRC_RCV_QP, 44);
}

TEST(UapiLayout, SentinelAndEventFlagHaveTheContractValues) {
  EXPECT_EQ(IB_UVERBS_XRC_RCV_QPN_NEW, 0xffffffffU);
  EXPECT_EQ(IB_UVERBS_XRC_QP_EVENT_FLAG, 0x80000000U);
}

TEST(UapiLayout, RegCommandIsSixteenBytesWithResponseFirst) {
  EXPECT_EQ(sizeof(ib_uverbs_reg_xrc_rcv_qp), 16U);
  EXPECT_EQ(offsetof(ib_uverbs_reg_xrc_rcv_qp, response), 0U);
  EXPECT_EQ(offsetof(ib_uverbs_reg_xrc_rcv_qp, xrcd_handle), 8U);
  EXPECT_EQ(offsetof(ib_uverbs_reg_xrc_rcv_qp, qp_num), 12U);
  EXPECT_EQ(offsetof(ib_uverbs_reg_xrc_rcv_qp, driver_data), 16U);
}

TEST(UapiLayout, RegResponseIsEightBytes) {
  EXPECT_EQ(sizeof(ib_uverbs_reg_xrc_rcv_qp_resp), 8U);
  EXPECT_EQ(offsetof(ib_uverbs_reg_xrc_rcv_qp_resp, qp_num), 0U);
  EXPECT_EQ(offsetof(ib_uverbs_reg_xrc_rcv_qp_resp, reserved), 4U);
}

TEST(UapiLayout, UnregCommandIsEightBytesWithoutResponse) {
  EXPECT_EQ(sizeof(ib_uverbs_unreg_xrc_rcv_qp), 8U);
  EXPECT_EQ(offsetof(ib_uverbs_unreg_xrc_rcv_qp, xrcd_handle), 0U);
  EXPECT_EQ(offsetof(ib_uverbs_unreg_xrc_rcv_qp, qp_num), 4U);
}

TEST(UapiLayout, QueryCommandIsTwentyFourBytes) {
  EXPECT_EQ(sizeof(ib_uverbs_query_xrc_rcv_qp), 24U);
  EXPECT_EQ(offsetof(ib_uverbs_query_xrc_rcv_qp, response), 0U);
  EXPECT_EQ(offsetof(ib_uverbs_query_xrc_rcv_qp, xrcd_handle), 8U);
  EXPECT_EQ(offsetof(ib_uverbs_query_xrc_rcv_qp, qp_num), 12U);
  EXPECT_EQ(offsetof(ib_uverbs_query_xrc_rcv_qp, attr_mask), 16U);
  EXPECT_EQ(offsetof(ib_uverbs_query_xrc_rcv_qp, reserved), 20U);
}

TEST(UapiLayout, QueryAnswersWithTheQueryQpResponse) {
  EXPECT_EQ(sizeof(ib_uverbs_query_qp_resp), 128U);
}

TEST(UapiLayout, ModifyStartsWithXrcdHandleAndQpNumberThenTheAddressVectors) {
  EXPECT_EQ(offsetof(ib_uverbs_modify_xrc_rcv_qp, xrcd_handle), 0U);
  EXPECT_EQ(offsetof(ib_uverbs_modify_xrc_rcv_qp, qp_num), 4U);
  EXPECT_EQ(offsetof(ib_uverbs_modify_xrc_rcv_qp, dest), 8U);
  EXPECT_EQ(offsetof(ib_uverbs_modify_xrc_rcv_qp, alt_dest), 40U);
}

// Every field of ib_uverbs_modify_qp after qp_handle sits at the same
// place relative to attr_mask.
TEST(UapiLayout, ModifyFollowsModifyQpFieldForFieldAfterQpHandle) {
  using X = ib_uverbs_modify_xrc_rcv_qp;
  using M = ib_uverbs_modify_qp;
  const std::size_t dx = offsetof(X, attr_mask), dm = offsetof(M, attr_mask);
#define SAME_PLACE(f) EXPECT_EQ(offsetof(X, f) - dx, offsetof(M, f) - dm) << #f
  SAME_PLACE(qkey);
  SAME_PLACE(rq_psn);
  SAME_PLACE(sq_psn);
  SAME_PLACE(dest_qp_num);
  SAME_PLACE(qp_access_flags);
  SAME_PLACE(pkey_index);
  SAME_PLACE(alt_pkey_index);
  SAME_PLACE(qp_state);
  SAME_PLACE(cur_qp_state);
  SAME_PLACE(path_mtu);
  SAME_PLACE(path_mig_state);
  SAME_PLACE(en_sqd_async_notify);
  SAME_PLACE(max_rd_atomic);
  SAME_PLACE(max_dest_rd_atomic);
  SAME_PLACE(min_rnr_timer);
  SAME_PLACE(port_num);
  SAME_PLACE(timeout);
  SAME_PLACE(retry_cnt);
  SAME_PLACE(rnr_retry);
  SAME_PLACE(alt_port_num);
  SAME_PLACE(alt_timeout);
  SAME_PLACE(reserved);
#undef SAME_PLACE
  EXPECT_EQ(offsetof(X, attr_mask), 72U);
}

TEST(UapiLayout, ModifyIsModifyQpMinusQpHandlePlusEightBytesThenReserved2) {
  // 112 - 4 (qp_handle) + 8 (xrcd_handle, qp_num) = 116, then v3's
  // explicit reserved2 up to the 8-aligned driver_data: 120.
  EXPECT_EQ(sizeof(ib_uverbs_modify_qp), 112U);
  EXPECT_EQ(offsetof(ib_uverbs_modify_xrc_rcv_qp, reserved) + 2, 116U);
  EXPECT_EQ(offsetof(ib_uverbs_modify_xrc_rcv_qp, reserved2), 116U);
  EXPECT_EQ(sizeof(ib_uverbs_modify_xrc_rcv_qp{}.reserved2), 4U);
  EXPECT_EQ(offsetof(ib_uverbs_modify_xrc_rcv_qp, driver_data), 120U);
  EXPECT_EQ(sizeof(ib_uverbs_modify_xrc_rcv_qp), 120U);
}

TEST(UapiLayout, XrcdMethodsContinueAfterDestroy) {
  EXPECT_EQ(UVERBS_METHOD_XRCD_DESTROY, 0);
  EXPECT_EQ(UVERBS_METHOD_XRCD_REG_RCV_QP, 1);
  EXPECT_EQ(UVERBS_METHOD_XRCD_UNREG_RCV_QP, 2);
  EXPECT_EQ(UVERBS_METHOD_XRCD_MODIFY_RCV_QP, 3);
  EXPECT_EQ(UVERBS_METHOD_XRCD_QUERY_RCV_QP, 4);
}

TEST(UapiLayout, MethodAttributesAreNumberedAsV3DeclaresThem) {
  EXPECT_EQ(UVERBS_ATTR_REG_RCV_QP_XRCD_HANDLE, 0);
  EXPECT_EQ(UVERBS_ATTR_REG_RCV_QP_NUM, 1);
  EXPECT_EQ(UVERBS_ATTR_REG_RCV_QP_RESP_NUM, 2);
  EXPECT_EQ(UVERBS_ATTR_UNREG_RCV_QP_XRCD_HANDLE, 0);
  EXPECT_EQ(UVERBS_ATTR_UNREG_RCV_QP_NUM, 1);
  EXPECT_EQ(UVERBS_ATTR_MODIFY_RCV_QP_XRCD_HANDLE, 0);
  EXPECT_EQ(UVERBS_ATTR_MODIFY_RCV_QP_NUM, 1);
  EXPECT_EQ(UVERBS_ATTR_MODIFY_RCV_QP_ATTR, 2);
  EXPECT_EQ(UVERBS_ATTR_QUERY_RCV_QP_XRCD_HANDLE, 0);
  EXPECT_EQ(UVERBS_ATTR_QUERY_RCV_QP_NUM, 1);
  EXPECT_EQ(UVERBS_ATTR_QUERY_RCV_QP_ATTR_MASK, 2);
  EXPECT_EQ(UVERBS_ATTR_QUERY_RCV_QP_RESP, 3);
}

TEST(UapiLayout, IoctlHeaderAndAttributeHaveTheFrameworksSizes) {
  EXPECT_EQ(sizeof(ib_uverbs_ioctl_hdr), 24U);
  EXPECT_EQ(sizeof(ib_uverbs_attr), 16U);
  EXPECT_EQ(offsetof(ib_uverbs_attr, data), 8U);
}

TEST(UapiLayout, AsyncEventRecordIsSixteenBytes) {
  EXPECT_EQ(sizeof(ib_uverbs_async_event_desc), 16U);
  EXPECT_EQ(offsetof(ib_uverbs_async_event_desc, event_type), 8U);
}

}  // namespace
