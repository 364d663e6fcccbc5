// Async event decoding and reading (from a pipe standing in for the
// async fd).
#include <xrcrcv/events.hpp>
#include <xrcrcv/fd.hpp>

#include <gtest/gtest.h>

#include <chrono>
#include <unistd.h>

namespace {

using namespace xrcrcv;
using namespace std::chrono_literals;

ib_uverbs_async_event_desc desc(std::uint64_t el, std::uint32_t type) {
  ib_uverbs_async_event_desc d{};
  d.element = el;
  d.event_type = type;
  return d;
}

TEST(EventDecoding, FlaggedEventIsAnXrcReceiveEventOnTheQpNumber) {
  const auto e = decode_event(desc(0x123, 1 | IB_UVERBS_XRC_QP_EVENT_FLAG));
  EXPECT_TRUE(e.is_xrc_rcv());
  EXPECT_EQ(e.type(), 1U);
  EXPECT_EQ(e.xrc_qp_num(), 0x123U);
  EXPECT_EQ(e.describe(), "XRC_RCV qp 0x000123 QP_FATAL(1)");
}

TEST(EventDecoding, UnflaggedEventIsNotAnXrcReceiveEvent) {
  const auto e = decode_event(desc(0xdead, 4));
  EXPECT_FALSE(e.is_xrc_rcv());
  EXPECT_EQ(e.type(), 4U);
  EXPECT_FALSE(e.xrc_qp_num());
  EXPECT_EQ(e.describe(), "element 0xdead COMM_EST(4)");
}

TEST(EventDecoding, EventTypeNamesFollowTheKernelEnum) {
  EXPECT_EQ(event_type_name(2), "QP_REQ_ERR");
  EXPECT_EQ(event_type_name(3), "QP_ACCESS_ERR");
  EXPECT_EQ(event_type_name(6), "PATH_MIG");
  EXPECT_EQ(event_type_name(16), "QP_LAST_WQE_REACHED");
  EXPECT_EQ(event_type_name(99), "UNKNOWN");
}

class PipeEvents : public ::testing::Test {
 protected:
  void SetUp() override {
    int p[2];
    ASSERT_EQ(::pipe(p), 0);
    rd_.reset(p[0]);
    wr_.reset(p[1]);
  }
  void push(std::uint64_t el, std::uint32_t type) {
    const auto d = desc(el, type);
    ASSERT_EQ(::write(wr_.get(), &d, sizeof d), static_cast<ssize_t>(sizeof d));
  }
  UniqueFd rd_, wr_;
};

TEST_F(PipeEvents, ReadingAnEmptyQueueTimesOutWithNoEvents) {
  auto evs = read_events(rd_.get(), 20ms);
  ASSERT_TRUE(evs) << evs.error();
  EXPECT_TRUE(evs->empty());
}

TEST_F(PipeEvents, ReadingCollectsEverythingAlreadyQueued) {
  push(5, 1 | IB_UVERBS_XRC_QP_EVENT_FLAG);
  push(6, 3 | IB_UVERBS_XRC_QP_EVENT_FLAG);
  push(7, 4);
  auto evs = read_events(rd_.get(), 100ms);
  ASSERT_TRUE(evs) << evs.error();
  ASSERT_EQ(evs->size(), 3U);
  EXPECT_EQ((*evs)[0].xrc_qp_num(), 5U);
  EXPECT_EQ((*evs)[1].type(), 3U);
  EXPECT_FALSE((*evs)[2].is_xrc_rcv());
}

TEST_F(PipeEvents, ReadingStopsAtTheRequestedMaximum) {
  push(1, 1);
  push(2, 1);
  auto evs = read_events(rd_.get(), 100ms, 1);
  ASSERT_TRUE(evs);
  EXPECT_EQ(evs->size(), 1U);
  auto next = next_event(rd_.get(), 100ms);
  ASSERT_TRUE(next);
  ASSERT_TRUE(next->has_value());
  EXPECT_EQ((*next)->element, 2U);
}

TEST_F(PipeEvents, ATruncatedRecordIsAProtocolError) {
  const char half[8] = {};
  ASSERT_EQ(::write(wr_.get(), half, sizeof half), 8);
  auto ev = next_event(rd_.get(), 100ms);
  ASSERT_FALSE(ev);
  EXPECT_EQ(ev.error().errnum, EPROTO);
}

TEST(EventReading, AClosedDescriptorIsReportedNotWaitedOn) {
  auto ev = next_event(-1, 10ms);
  // poll ignores negative fds: this is a plain timeout, not a hang.
  ASSERT_TRUE(ev);
  EXPECT_FALSE(ev->has_value());
}

}  // namespace
