// The libibverbs adapter's translations, without a device: QP attributes
// both ways, async events as libibverbs hands them out, the views of an
// ibv_context, and how its errors read.  (The verbs themselves run in
// the guest: the e2e suites' /verbs cases.)
#include <xrcrcv/commands.hpp>
#include <xrcrcv/ibverbs.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>

namespace {

using namespace xrcrcv;

TEST(IbverbsAdapter, ContextViewUsesTheCommandAndAsyncDescriptors) {
  ibv_context ctx{};
  ctx.cmd_fd = 11;
  ctx.async_fd = 12;
  const auto ref = ibverbs::context_view(ctx);
  EXPECT_EQ(ref.cmd_fd, 11);
  EXPECT_EQ(ref.async_fd, 12);
  EXPECT_EQ(ref.keep, nullptr);  // libibverbs owns the file
}

TEST(IbverbsAdapter, QpAttributesSurviveTheRoundTripThroughIbvQpAttr) {
  auto m = xrc_tgt_to_rtr({.port = 1, .dlid = 7, .dest_qp_num = 0xabc, .rq_psn = 0x55,
                           .path_mtu = Mtu::Mtu2048, .max_dest_rd_atomic = 2,
                           .min_rnr_timer = 9});
  m.attr.ah_attr.dgid[15] = 0x42;
  m.attr.ah_attr.is_global = true;
  m.attr.qp_access_flags = kAccessRemoteWrite;
  const auto v = ibverbs::to_ibv(m.attr);
  EXPECT_EQ(v.qp_state, IBV_QPS_RTR);
  EXPECT_EQ(v.path_mtu, IBV_MTU_2048);
  EXPECT_EQ(v.dest_qp_num, 0xabcU);
  EXPECT_EQ(v.ah_attr.dlid, 7);
  EXPECT_EQ(v.ah_attr.grh.dgid.raw[15], 0x42);
  EXPECT_EQ(ibverbs::from_ibv(v), m.attr);
}

TEST(IbverbsAdapter, XrcEventCarriesTheQpNumberAndTheFlag) {
  ibv_async_event ev{};
  // As libibverbs (C) stores it: the flagged type is outside the range of
  // C++'s enum ibv_event_type, so a cast would be unspecified.
  const std::uint32_t type = IBV_EVENT_COMM_EST | IBV_XRC_QP_EVENT_FLAG;
  static_assert(sizeof ev.event_type == sizeof type);
  std::memcpy(&ev.event_type, &type, sizeof type);
  ev.element.xrc_qp_num = 0x123456;
  const auto e = ibverbs::decode_event(ev);
  EXPECT_TRUE(e.is_xrc_rcv());
  EXPECT_EQ(e.type(), static_cast<std::uint32_t>(EventType::CommEst));
  EXPECT_EQ(e.xrc_qp_num(), 0x123456U);
}

TEST(IbverbsAdapter, PortEventCarriesThePortNumber) {
  ibv_async_event ev{};
  ev.event_type = IBV_EVENT_PORT_ACTIVE;
  ev.element.port_num = 1;
  const auto e = ibverbs::decode_event(ev);
  EXPECT_FALSE(e.is_xrc_rcv());
  EXPECT_EQ(e.element, 1U);
}

TEST(IbverbsAdapter, ErrorsNameTheVerbAndTheCommandItStandsFor) {
  const auto e = verbs_error(kCmdRegXrcRcvQp, "ibv_reg_xrc_rcv_qp", EINVAL);
  EXPECT_EQ(e.transport, Transport::verbs);
  EXPECT_EQ(e.message(), "REG_XRC_RCV_QP (libibverbs ibv_reg_xrc_rcv_qp): Invalid argument [EINVAL]");
}

TEST(IbverbsAdapter, RawCommandsRefuseTheVerbsTransport) {
  // No ibv_xrcd to hand libibverbs: refused before anything is written.
  EXPECT_EQ(errno_of(cmd::unreg_xrc_rcv_qp(ContextRef{}, 1, 2, Transport::verbs)), EOPNOTSUPP);
}

}  // namespace
