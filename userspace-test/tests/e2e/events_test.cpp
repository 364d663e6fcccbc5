// abi.md rule 6: an async event on a receive QP reaches every file holding
// a reference, once per file, as {qp_num, type | IB_UVERBS_XRC_QP_EVENT_FLAG}.
// Over verbs they come from ibv_get_async_event() with the flag in
// event_type and the number in element.xrc_qp_num, and are acked.
// EventsRaw holds the QP through OPEN_QP too, a raw command.
#include "support.hpp"

#include <algorithm>
#include <cerrno>
#include <poll.h>
#include <unistd.h>

namespace xrc_e2e {
namespace {

constexpr std::uint32_t kQpFatal = 1;
constexpr auto kWait = 500ms;    // long enough for a queued event to show
constexpr auto kSilence = 300ms; // how long "no event" is watched

class Events : public TransportTest {};
class EventsRaw : public TransportTest {};

// XRC receive events for `qpn` among what `p` can read within `wait`.
std::vector<AsyncEvent> xrc_events_for(const Peer& p, std::uint32_t qpn,
                                       std::chrono::milliseconds wait) {
  auto evs = MUST(p.events(wait));
  std::erase_if(evs, [qpn](const AsyncEvent& e) { return e.xrc_qp_num() != qpn; });
  return evs;
}

TEST_P(Events, InjectedEventReachesEveryHoldingFileExactlyOnce) {
  REQUIRE_INJECT();
  auto a = open();
  auto b = open();
  auto c = open();
  auto qpn = MUST(a.create());
  ASSERT_OK(b.reg(qpn));
  ASSERT_OK(c.reg(qpn));
  ASSERT_OK(sim().inject_event(qpn, kQpFatal));
  for (const Peer* p : {&a, &b, &c}) {
    auto evs = xrc_events_for(*p, qpn, kWait);
    ASSERT_EQ(evs.size(), 1U);
    EXPECT_EQ(evs[0].event_type, kQpFatal | IB_UVERBS_XRC_QP_EVENT_FLAG);
    EXPECT_EQ(evs[0].element, qpn);
  }
}

TEST_P(Events, FileWithoutAReferenceGetsNoEvent) {
  REQUIRE_INJECT();
  auto a = open();
  auto outsider = open();
  auto qpn = MUST(a.create());
  ASSERT_OK(sim().inject_event(qpn, kQpFatal));
  EXPECT_EQ(xrc_events_for(a, qpn, kWait).size(), 1U);
  auto evs = MUST(outsider.events(kSilence));
  EXPECT_TRUE(evs.empty()) << evs.front().describe();
}

TEST_P(Events, FileThatUnregisteredGetsNoEvent) {
  REQUIRE_INJECT();
  auto a = open();
  auto b = open();
  auto qpn = MUST(a.create());
  ASSERT_OK(b.reg(qpn));
  ASSERT_OK(b.unreg(qpn));
  ASSERT_OK(sim().inject_event(qpn, kQpFatal));
  EXPECT_EQ(xrc_events_for(a, qpn, kWait).size(), 1U);
  EXPECT_TRUE(MUST(b.events(kSilence)).empty());
}

TEST_P(Events, FileWithTwoReferencesGetsTheEventOnce) {
  REQUIRE_INJECT();
  auto a = open();
  auto qpn = MUST(a.create());
  ASSERT_OK(a.reg(qpn));
  ASSERT_OK(sim().inject_event(qpn, kQpFatal));
  EXPECT_EQ(xrc_events_for(a, qpn, kWait).size(), 1U);
  EXPECT_TRUE(MUST(a.events(kSilence)).empty());
}

// One event per handle: a file that holds the QP through OPEN_QP and
// through a registration gets the verbs event under the OPEN_QP handle's
// user_handle and the XRC receive event.  (Mainline dropped the OPEN_QP
// handle's copy; patch 1 of the series fixes that.)
TEST_P(EventsRaw, OpenQpHandleGetsItsOwnEventBesideTheRegistration) {
  REQUIRE_INJECT();
  constexpr std::uint64_t kCookie = 0x5eed0000b0e0e0f1ULL;
  auto a = open();
  auto b = open();
  auto qpn = MUST(a.create());
  auto h = MUST(cmd::open_qp(b.ctx, b.h(), qpn, kCookie));
  ASSERT_OK(b.reg(qpn));
  ASSERT_OK(sim().inject_event(qpn, kQpFatal));
  auto evs = MUST(read_events(b.ctx, kWait));
  const auto more = MUST(read_events(b.ctx, kSilence));
  evs.insert(evs.end(), more.begin(), more.end());
  const AsyncEvent verbs{.element = kCookie, .event_type = kQpFatal};
  const AsyncEvent xrc{.element = qpn, .event_type = kQpFatal | IB_UVERBS_XRC_QP_EVENT_FLAG};
  EXPECT_EQ(std::ranges::count(evs, verbs), 1);
  EXPECT_EQ(std::ranges::count(evs, xrc), 1);
  EXPECT_EQ(evs.size(), 2U);
  EXPECT_OK(cmd::destroy_qp(b.ctx, h.handle));
}

TEST_P(Events, EachQpEventTypeArrivesFlaggedWithTheQpNumber) {
  REQUIRE_INJECT();
  auto a = open();
  auto qpn = MUST(a.create());
  for (auto t : {EventType::QpFatal, EventType::QpReqErr, EventType::QpAccessErr,
                 EventType::CommEst, EventType::PathMig}) {
    const auto type = static_cast<std::uint32_t>(t);
    SCOPED_TRACE(event_type_name(type));
    ASSERT_OK(sim().inject_event(qpn, type));
    auto ev = MUST(a.next_event(kWait));
    ASSERT_TRUE(ev.has_value());
    EXPECT_TRUE(ev->is_xrc_rcv());
    EXPECT_EQ(ev->type(), type);
    EXPECT_EQ(ev->element, qpn);
    EXPECT_EQ(ev->reserved, 0U);
  }
}

TEST_P(Events, OnlyTheQpThatRaisedTheEventIsReported) {
  REQUIRE_INJECT();
  auto a = open();
  auto q1 = MUST(a.create());
  auto q2 = MUST(a.create());
  ASSERT_OK(sim().inject_event(q2, kQpFatal));
  auto evs = MUST(a.events(kWait));
  ASSERT_EQ(evs.size(), 1U);
  EXPECT_EQ(evs[0].xrc_qp_num(), q2);
  EXPECT_NE(evs[0].xrc_qp_num(), q1);
}

TEST_P(Events, HolderInAnotherProcessGetsTheEventAfterTheCreatorIsGone) {
  REQUIRE_INJECT();
  std::uint32_t qpn = 0;
  auto holder = Child::spawn([file = xrcd_file_, t = tr()](Channel& ch) {
    auto b = Peer::open(file, t);
    auto m = ch.recv(60s);
    CHILD_CHECK(m.has_value());
    CHILD_OK(b.reg(m->a));
    CHILD_CHECK(ch.send(1));
    auto ev = CHILD_OK(b.next_event(5s));
    CHILD_CHECK(ev->has_value());
    CHILD_CHECK((*ev)->xrc_qp_num() == m->a);
    CHILD_CHECK((*ev)->type() == kQpFatal);
    auto more = CHILD_OK(b.events(kSilence));
    CHILD_CHECK(more->empty());
    return 0;
  });
  {
    auto a = open();
    qpn = MUST(a.create());
    holder.channel().send(1, qpn);
    ASSERT_TRUE(holder.channel().recv());
  }  // creator's file closes
  ASSERT_OK(sim().inject_event(qpn, kQpFatal));
  EXPECT_EQ(holder.wait(), 0);
}

TEST_P(Events, DestroyedQpCanNoLongerRaiseEvents) {
  REQUIRE_INJECT();
  auto a = open();
  auto qpn = MUST(a.create());
  ASSERT_OK(a.unreg(qpn));
  EXPECT_FALSE(sim().inject_event(qpn, kQpFatal));  // xrc_sim: no such QP
  EXPECT_TRUE(MUST(a.events(kSilence)).empty());
}

// Contract v2 rule 6: once a file's last reference on a QP is gone, no
// event of that QP is read from that file any more, including events
// queued before: they are purged (series v3).
TEST_P(Events, QueuedEventIsPurgedWhenTheFilesLastReferenceGoes) {
  REQUIRE_INJECT();
  auto a = open();
  auto b = open();
  auto qpn = MUST(a.create());
  ASSERT_OK(b.reg(qpn));
  ASSERT_OK(sim().inject_event(qpn, kQpFatal));  // queued on a and b
  ASSERT_OK(b.unreg(qpn));                       // b's last reference, before reading
  const auto evs = MUST(b.events(kSilence));
  EXPECT_TRUE(evs.empty()) << evs.front().describe();
  EXPECT_EQ(xrc_events_for(a, qpn, kWait).size(), 1U);  // a still holds: a keeps it
}

// A reader that polled while the event was queued and reads after another
// thread's UNREG purged it must not block until some later event: the
// async fd that Context::open() returns is non-blocking, so read(2) says
// EAGAIN. (The race fuzzer reads this way, in threads beside others that
// UNREG.)
TEST_P(EventsRaw, ReadAfterThePurgeOfAPolledEventDoesNotBlock) {
  REQUIRE_INJECT();
  auto a = open();
  auto b = open();
  auto qpn = MUST(a.create());
  ASSERT_OK(b.reg(qpn));
  ASSERT_OK(sim().inject_event(qpn, kQpFatal));
  pollfd p{b.ctx.async_fd(), POLLIN, 0};
  ASSERT_EQ(::poll(&p, 1, static_cast<int>(kWait.count())), 1);  // queued
  ASSERT_OK(b.unreg(qpn));  // purged, under the reader
  ib_uverbs_async_event_desc d{};
  errno = 0;
  EXPECT_EQ(::read(b.ctx.async_fd(), &d, sizeof d), -1);
  EXPECT_EQ(errno, EAGAIN);
  EXPECT_EQ(xrc_events_for(a, qpn, kWait).size(), 1U);  // a still holds: a keeps it
}

TEST_P(Events, QueuedEventStaysWhileTheFileStillHoldsAReference) {
  REQUIRE_INJECT();
  auto a = open();
  auto qpn = MUST(a.create());
  ASSERT_OK(a.reg(qpn));
  ASSERT_OK(sim().inject_event(qpn, kQpFatal));
  ASSERT_OK(a.unreg(qpn));  // one of two
  EXPECT_EQ(xrc_events_for(a, qpn, kWait).size(), 1U);
}

TEST_P(Events, PurgeTakesOnlyTheEventsOfThatQp) {
  REQUIRE_INJECT();
  auto a = open();
  auto b = open();
  auto q1 = MUST(a.create());
  auto q2 = MUST(a.create());
  ASSERT_OK(b.reg(q1));
  ASSERT_OK(b.reg(q2));
  ASSERT_OK(sim().inject_event(q1, kQpFatal));
  ASSERT_OK(sim().inject_event(q2, kQpFatal));
  ASSERT_OK(b.unreg(q1));
  auto evs = MUST(b.events(kWait));
  ASSERT_EQ(evs.size(), 1U);
  EXPECT_EQ(evs[0].xrc_qp_num(), q2);
}

TEST_P(Events, PurgedEventsStayPurgedAfterTheLastXrcdHandleCloses) {
  REQUIRE_INJECT();
  auto a = open();
  auto b = open();
  auto qpn = MUST(a.create());
  ASSERT_OK(b.reg(qpn));
  ASSERT_OK(sim().inject_event(qpn, kQpFatal));
  ASSERT_OK(b.unreg(qpn));
  ASSERT_OK(b.xrcd.close());  // b's last (only) handle on the XRCD
  const auto evs = MUST(b.events(kSilence));
  EXPECT_TRUE(evs.empty()) << evs.front().describe();
}

TEST_P(Events, ClosingOneOfTwoHandlesKeepsTheQueuedEvent) {
  REQUIRE_INJECT();
  auto a = open();
  auto b = open();
  auto b2 = b.open_xrcd(xrcd_file_);  // b's second handle on the XRCD
  auto qpn = MUST(a.create());
  ASSERT_OK(b.reg(qpn));
  ASSERT_OK(sim().inject_event(qpn, kQpFatal));
  ASSERT_OK(b.xrcd.close());  // the reference stays, through b2
  EXPECT_EQ(xrc_events_for(b, qpn, kWait).size(), 1U);
  ASSERT_OK(b.unreg_on(b2, qpn));
}

TEST_P(Events, QueuedEventIsGoneWhenTheLastReferenceOfEveryFileGoes) {
  REQUIRE_INJECT();
  auto a = open();
  auto qpn = MUST(a.create());
  ASSERT_OK(sim().inject_event(qpn, kQpFatal));
  ASSERT_OK(a.unreg(qpn));  // QP destroyed
  const auto evs = MUST(a.events(kSilence));
  EXPECT_TRUE(evs.empty()) << evs.front().describe();
}

XRC_ALL_TRANSPORTS(Events);
XRC_RAW_TRANSPORTS(EventsRaw);

}  // namespace
}  // namespace xrc_e2e
