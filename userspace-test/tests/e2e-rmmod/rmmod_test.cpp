#include "rmmod.hpp"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sys/syscall.h>
#include <thread>
#include <unistd.h>

namespace xrc_e2e {

std::optional<Peer> RemovalEnvironment::creator;
std::optional<Peer> RemovalEnvironment::holder;
std::optional<Peer> RemovalEnvironment::idle;
std::uint32_t RemovalEnvironment::qpn = 0;
int RemovalEnvironment::rmmod_errno = -1;
bool RemovalEnvironment::ready = false;
std::string RemovalEnvironment::skip_reason;

namespace {

const std::string kFile = "/tmp/xrc-e2e-rmmod.xrcd";

int unload_xrc_sim() {
  if (::syscall(SYS_delete_module, "xrc_sim", O_NONBLOCK) == 0) return 0;
  const int err = errno;
  std::printf("[  NOTE    ] delete_module(xrc_sim): %s; trying rmmod\n", std::strerror(err));
  if (std::system("rmmod xrc_sim") == 0) return 0;
  return err;
}

}  // namespace

void RemovalEnvironment::SetUp() {
  if (env_long("XRC_E2E_RMMOD", 0) != 1) {
    std::printf("[  NOTE    ] device-removal tests unload xrc_sim; set XRC_E2E_RMMOD=1 "
                "to run them (last). Every test will skip.\n");
    skip_reason = "XRC_E2E_RMMOD is not 1";
    return;
  }
  if (!device_present()) {
    std::printf("[  NOTE    ] %s is absent. Every test will skip.\n", device_path().c_str());
    skip_reason = "no " + device_path();
    return;
  }
  try {
    creator.emplace(Peer::open(kFile));
    holder.emplace(Peer::open(kFile));
    idle.emplace(Peer::open(kFile));
    qpn = must(creator->create(), "create");
    must(holder->reg(qpn), "register");
    must(holder->modify(qpn, xrc_tgt_to_init()), "modify");
  } catch (const SetupFailure& e) {
    std::printf("[  FAILED  ] setting the scene: %s\n", e.what());
    return;
  }
  rmmod_errno = unload_xrc_sim();
  for (int i = 0; i < 500 && device_present(); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  ready = rmmod_errno == 0;
}

void RemovalEnvironment::TearDown() {
  // Closing the disassociated files must work (ClosingTheOldFiles... checks).
  creator.reset();
  holder.reset();
  idle.reset();
  ::unlink(kFile.c_str());
}

namespace {

class DeviceRemoval : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!RemovalEnvironment::skip_reason.empty()) GTEST_SKIP() << RemovalEnvironment::skip_reason;
    if (!RemovalEnvironment::ready) GTEST_FAIL() << "xrc_sim was not unloaded: "
                                                 << std::strerror(RemovalEnvironment::rmmod_errno);
  }
  Peer& creator() { return *RemovalEnvironment::creator; }
  Peer& holder() { return *RemovalEnvironment::holder; }
  Peer& idle() { return *RemovalEnvironment::idle; }
  std::uint32_t qpn() { return RemovalEnvironment::qpn; }
};

TEST_F(DeviceRemoval, ModuleUnloadsWhileFilesHoldReferences) {
  EXPECT_EQ(RemovalEnvironment::rmmod_errno, 0);
  EXPECT_FALSE(device_present());
}

TEST_F(DeviceRemoval, RegisterOnAnOldFileFailsEio) {
  EXPECT_ERRNO(holder().reg(qpn()), EIO);
  EXPECT_ERRNO(idle().create(), EIO);
}

TEST_F(DeviceRemoval, UnregisterOnAnOldFileFailsEio) {
  EXPECT_ERRNO(holder().unreg(qpn()), EIO);
  EXPECT_ERRNO(creator().unreg(qpn()), EIO);
}

TEST_F(DeviceRemoval, ModifyOnAnOldFileFailsEio) {
  EXPECT_ERRNO(holder().modify(qpn(), to_state_only(QpState::Err)), EIO);
}

TEST_F(DeviceRemoval, QueryOnAnOldFileFailsEio) {
  EXPECT_ERRNO(holder().query(qpn()), EIO);
  EXPECT_ERRNO(creator().query(qpn()), EIO);
}

// uverbs lets destroy commands through on a disassociated file (rdma_core.c:
// "block every command except for DESTROY based commands"), so CLOSE_XRCD
// may succeed; anything but success must be EIO.
TEST_F(DeviceRemoval, CloseXrcdOnAnOldFileSucceedsOrFailsEio) {
  const auto r = idle().xrcd.close();
  if (!r) {
    EXPECT_EQ(r.error().errnum, EIO) << r.error().message();
  }
}

TEST_F(DeviceRemoval, AsyncFdOfAnOldFileDoesNotBlockForever) {
  // Disassociation may post DEVICE_FATAL; either way reading must not hang
  // and must not report receive-QP events for the vanished QP later on.
  auto evs = read_events(holder().ctx, std::chrono::milliseconds(300));
  if (evs) {
    for (const auto& e : *evs) EXPECT_FALSE(e.is_xrc_rcv()) << e.describe();
  } else {
    EXPECT_EQ(evs.error().errnum, EIO) << evs.error().message();
  }
}

TEST_F(DeviceRemoval, NewOpensFailOnceTheDeviceIsGone) {
  auto c = Context::open(device_path());
  ASSERT_FALSE(c);
  EXPECT_EQ(c.error().what, "open");
}

TEST_F(DeviceRemoval, ClosingTheOldFilesSucceeds) {
  for (auto* p : {&RemovalEnvironment::creator, &RemovalEnvironment::holder,
                  &RemovalEnvironment::idle}) {
    (*p)->forget_xrcd();
    EXPECT_EQ((*p)->ctx.close(), 0);
  }
}

}  // namespace
}  // namespace xrc_e2e
