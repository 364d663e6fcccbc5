// The wire structs match abi.md byte for byte (the header also
// static_asserts these; here they are visible as test cases).
#include <xrcrcv/uapi.h>

#include <gtest/gtest.h>

#include <cstddef>

namespace {

// Series v4 has no write commands for receive QPs (v3's 41-44 and their
// structs are gone) and no in-band "create" number; what stays is the
// event flag and the ioctl ids.
TEST(UapiLayout, EventFlagHasTheContractValue) {
  EXPECT_EQ(IB_UVERBS_XRC_QP_EVENT_FLAG, 0x80000000U);
}

TEST(UapiLayout, MainlineWriteCommandsEndAtOpenQp) {
  // What a write() of v3's 41-44 meets: no command past OPEN_QP.
  EXPECT_EQ(IB_USER_VERBS_CMD_OPEN_QP, 40);
}

TEST(UapiLayout, ModifyAndQueryCarryTheExistingQpStructs) {
  EXPECT_EQ(sizeof(ib_uverbs_modify_qp), 112U);
  EXPECT_EQ(sizeof(ib_uverbs_query_qp_resp), 128U);
}

TEST(UapiLayout, XrcdMethodsContinueAfterDestroy) {
  EXPECT_EQ(UVERBS_METHOD_XRCD_DESTROY, 0);
  EXPECT_EQ(UVERBS_METHOD_XRCD_REG_RCV_QP, 1);
  EXPECT_EQ(UVERBS_METHOD_XRCD_UNREG_RCV_QP, 2);
  EXPECT_EQ(UVERBS_METHOD_XRCD_MODIFY_RCV_QP, 3);
  EXPECT_EQ(UVERBS_METHOD_XRCD_QUERY_RCV_QP, 4);
}

TEST(UapiLayout, MethodAttributesAreNumberedAsTheSeriesDeclaresThem) {
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
