// abi.md rules 3-5 across processes: references belong to uverbs files,
// so they die with the process that holds the file (exit or SIGKILL) and
// are shared with a forked child that shares the file.
#include "support.hpp"

namespace xrc_e2e {
namespace {

enum Tag : std::int32_t { kQpn = 1, kGo, kDone, kState, kErrno };

class CreatorExit : public TransportTest {};
class CrossProcess : public TransportTest {};
class ForkShared : public TransportTest {};

// Child: open the XRCD, create a QP, report its number, wait for kGo,
// then exit normally (or wait to be killed).
Child spawn_creator(const std::string& file, bool wait_forever, Transport t) {
  return Child::spawn([file, wait_forever, t](Channel& ch) {
    auto a = Peer::open(file, t);
    auto qpn = CHILD_OK(a.create());
    CHILD_CHECK(ch.send(kQpn, *qpn));
    CHILD_CHECK(ch.recv(60s).has_value());
    if (wait_forever)
      for (;;) ::pause();
    return 0;  // a's file closes in exit: its reference goes
  });
}

TEST_P(CreatorExit, QpSurvivesTheCreatorExitingNormally) {
  auto creator = spawn_creator(xrcd_file_, false, tr());
  auto b = open();
  auto m = creator.channel().recv();
  ASSERT_TRUE(m);
  const std::uint32_t qpn = m->a;
  ASSERT_OK(b.reg(qpn));
  creator.channel().send(kGo);
  ASSERT_EQ(creator.wait(), 0);

  auto st = b.state(qpn);
  ASSERT_OK(st);
  EXPECT_EQ(*st, QpState::Reset);
}

TEST_P(CreatorExit, QpSurvivesTheCreatorBeingKilled) {
  auto creator = spawn_creator(xrcd_file_, true, tr());
  auto b = open();
  auto m = creator.channel().recv();
  ASSERT_TRUE(m);
  const std::uint32_t qpn = m->a;
  ASSERT_OK(b.reg(qpn));
  creator.kill(SIGKILL);
  ASSERT_EQ(creator.wait(), 128 + SIGKILL);

  EXPECT_OK(b.query(qpn));
}

TEST_P(CreatorExit, SurvivorCanModifyTheQpAfterTheCreatorIsGone) {
  auto creator = spawn_creator(xrcd_file_, true, tr());
  auto b = open();
  auto m = creator.channel().recv();
  ASSERT_TRUE(m);
  const std::uint32_t qpn = m->a;
  ASSERT_OK(b.reg(qpn));
  creator.kill(SIGKILL);
  ASSERT_EQ(creator.wait(), 128 + SIGKILL);

  ASSERT_OK(b.modify(qpn, xrc_tgt_to_init()));
  ASSERT_OK(b.modify(qpn, xrc_tgt_to_rtr()));
  auto st = b.state(qpn);
  ASSERT_OK(st);
  EXPECT_EQ(*st, QpState::Rtr);
}

TEST_P(CreatorExit, SurvivorsUnregisterDestroysTheQpForGood) {
  REQUIRE_COUNTERS();
  const long before = live_qps();
  auto creator = spawn_creator(xrcd_file_, false, tr());
  auto b = open();
  auto m = creator.channel().recv();
  ASSERT_TRUE(m);
  const std::uint32_t qpn = m->a;
  ASSERT_OK(b.reg(qpn));
  creator.channel().send(kGo);
  ASSERT_EQ(creator.wait(), 0);
  EXPECT_EQ(wait_live_qps(before + 1), before + 1);

  ASSERT_OK(b.unreg(qpn));
  EXPECT_EQ(wait_live_qps(before), before);
  EXPECT_ERRNO(b.reg(qpn), EINVAL);
}

TEST_P(CreatorExit, QpDiesWhenEveryHolderProcessIsGone) {
  REQUIRE_COUNTERS();
  const long before = live_qps();
  auto creator = spawn_creator(xrcd_file_, true, tr());
  auto m = creator.channel().recv();
  ASSERT_TRUE(m);
  const std::uint32_t qpn = m->a;
  auto holder = Child::spawn([file = xrcd_file_, qpn, t = tr()](Channel& ch) {
    auto b = Peer::open(file, t);
    CHILD_OK(b.reg(qpn));
    CHILD_CHECK(ch.send(kDone));
    for (;;) ::pause();
    return 0;
  });
  ASSERT_TRUE(holder.channel().recv());
  creator.kill();
  ASSERT_EQ(creator.wait(), 128 + SIGKILL);
  EXPECT_EQ(wait_live_qps(before + 1), before + 1);
  holder.kill();
  ASSERT_EQ(holder.wait(), 128 + SIGKILL);
  EXPECT_EQ(wait_live_qps(before), before);

  auto c = open();
  EXPECT_ERRNO(c.reg(qpn), EINVAL);
}

TEST_P(CrossProcess, ModifyByOneHolderIsSeenByAnother) {
  auto a = open();
  auto qpn = MUST(a.create());
  auto b = Child::spawn([file = xrcd_file_, qpn, t = tr()](Channel&) {
    auto p = Peer::open(file, t);
    CHILD_OK(p.reg(qpn));
    CHILD_OK(p.modify(qpn, xrc_tgt_to_init({.port = 1, .pkey_index = 0, .access = 2})));
    return 0;
  });
  ASSERT_EQ(b.wait(), 0);
  auto attr = a.query(qpn);
  ASSERT_OK(attr);
  EXPECT_EQ(attr->qp_state, QpState::Init);
  EXPECT_EQ(attr->qp_access_flags, 2U);
}

TEST_P(CrossProcess, ProcessWithoutAReferenceCanNeitherUnregModifyNorQuery) {
  auto a = open();
  auto qpn = MUST(a.create());
  auto b = Child::spawn([file = xrcd_file_, qpn, t = tr()](Channel&) {
    auto p = Peer::open(file, t);
    CHILD_ERRNO(p.unreg(qpn), EINVAL);
    CHILD_ERRNO(p.modify(qpn, xrc_tgt_to_init()), EINVAL);
    CHILD_ERRNO(p.query(qpn), EINVAL);
    return 0;
  });
  ASSERT_EQ(b.wait(), 0);
  auto st = a.state(qpn);
  ASSERT_OK(st);
  EXPECT_EQ(*st, QpState::Reset);
  ASSERT_OK(a.unreg(qpn));  // still exactly one reference
  EXPECT_ERRNO(a.unreg(qpn), EINVAL);
}

TEST_P(CrossProcess, ManyHolderProcessesKeepTheQpUntilTheLastOneGoes) {
  REQUIRE_COUNTERS();
  const long before = live_qps();
  auto a = open();
  auto qpn = MUST(a.create());
  std::vector<Child> holders;
  for (int i = 0; i < 3; ++i) {
    holders.push_back(Child::spawn([file = xrcd_file_, qpn, t = tr()](Channel& ch) {
      auto p = Peer::open(file, t);
      CHILD_OK(p.reg(qpn));
      CHILD_CHECK(ch.send(kDone));
      for (;;) ::pause();
      return 0;
    }));
    ASSERT_TRUE(holders.back().channel().recv());
  }
  ASSERT_OK(a.unreg(qpn));
  for (auto& h : holders) {
    EXPECT_EQ(wait_live_qps(before + 1), before + 1);
    h.kill();
    ASSERT_EQ(h.wait(), 128 + SIGKILL);
  }
  EXPECT_EQ(wait_live_qps(before), before);
}

// The shared file's references live until its last close, whichever
// process closes it.
TEST_P(ForkShared, SharedFileKeepsTheQpAliveAfterTheParentClosesIt) {
  REQUIRE_COUNTERS();
  const long before = live_qps();
  auto a = open();
  auto qpn = MUST(a.create());
  auto child = Child::spawn(
      [](Channel& ch) {
        CHILD_CHECK(ch.recv(60s).has_value());
        return 0;  // the last close of the shared file
      },
      Child::Fds::Inherit);
  a.forget_xrcd();
  ASSERT_EQ(a.close_file(), 0);
  EXPECT_EQ(live_qps(), before + 1);
  {
    auto b = open();
    EXPECT_OK(b.reg(qpn));  // still a live receive QP of the XRCD
  }
  child.channel().send(kGo);
  ASSERT_EQ(child.wait(), 0);
  EXPECT_EQ(wait_live_qps(before), before);
}

TEST_P(ForkShared, QpDiesAtTheLastCloseOfTheSharedFile) {
  REQUIRE_COUNTERS();
  const long before = live_qps();
  auto a = open();
  auto qpn = MUST(a.create());
  auto child = Child::spawn([](Channel& ch) { return ch.recv(60s) ? 0 : 1; },
                            Child::Fds::Inherit);
  a.forget_xrcd();
  ASSERT_EQ(a.close_file(), 0);
  child.kill(SIGKILL);
  ASSERT_EQ(child.wait(), 128 + SIGKILL);
  EXPECT_EQ(wait_live_qps(before), before);
  auto b = open();
  EXPECT_ERRNO(b.reg(qpn), EINVAL);
}

TEST_P(ForkShared, KilledChildDoesNotDropTheParentsReferences) {
  auto a = open();
  auto qpn = MUST(a.create());
  auto child = Child::spawn(
      [](Channel&) {
        for (;;) ::pause();
        return 0;
      },
      Child::Fds::Inherit);
  child.kill(SIGKILL);
  ASSERT_EQ(child.wait(), 128 + SIGKILL);
  auto st = a.state(qpn);
  ASSERT_OK(st);
  EXPECT_EQ(*st, QpState::Reset);
  ASSERT_OK(a.unreg(qpn));
  EXPECT_ERRNO(a.unreg(qpn), EINVAL);
}

// A forked child shares the parent's file and its references; the ioctl
// methods serve it, as every ioctl method does (only write(2) checks the
// opener's credentials, and the four verbs have no write commands).
// libibverbs sends the ioctl methods, so it serves it too.
TEST_P(ForkShared, ForkedChildIsServedOnTheSharedReferences) {
  REQUIRE_COUNTERS();
  auto a = open();
  auto qpn = MUST(a.create());
  const long before = live_qps();
  auto child = Child::spawn(
      [&a, qpn](Channel&) {
        // A reference of its own on the shared QP, then back to one
        CHILD_CHECK(a.reg(qpn).has_value());
        CHILD_CHECK(a.query(qpn).has_value());
        CHILD_CHECK(a.unreg(qpn).has_value());
        // A new QP on the shared file, and gone again
        auto fresh = a.create();
        CHILD_CHECK(fresh.has_value());
        CHILD_CHECK(a.unreg(*fresh).has_value());
        return 0;
      },
      Child::Fds::Inherit);
  ASSERT_EQ(child.wait(), 0);
  EXPECT_EQ(wait_live_qps(before), before);  // whatever the child made is gone
  auto st = a.state(qpn);         // the parent's reference is untouched...
  ASSERT_OK(st);
  EXPECT_EQ(*st, QpState::Reset);
  ASSERT_OK(a.unreg(qpn));        // ...and still exactly one
  EXPECT_ERRNO(a.unreg(qpn), EINVAL);
}

XRC_ALL_TRANSPORTS(CreatorExit);
XRC_ALL_TRANSPORTS(CrossProcess);
XRC_ALL_TRANSPORTS(ForkShared);

}  // namespace
}  // namespace xrc_e2e
