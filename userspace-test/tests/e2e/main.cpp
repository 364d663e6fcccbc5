// xrc_e2e_tests: the XRC receive-QP ABI (abi.md) end to end, as root in the
// QEMU guest against xrc_sim.  On a machine without the device every test
// skips with one clear message.
#include "support.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <unistd.h>

namespace {

class DeviceEnvironment : public ::testing::Environment {
 public:
  void SetUp() override {
    const auto dev = xrc_e2e::device_path();
    if (!xrc_e2e::device_present()) {
      // Each test's fixture skips itself, so the summary counts them.
      std::printf("[  NOTE    ] %s is absent: the end-to-end tests need the xrc_sim device "
                  "(run them in the QEMU guest). Every test will skip.\n", dev.c_str());
      return;
    }
    if (::geteuid() != 0)
      std::printf("[  NOTE    ] not root: debugfs counters and injection may be unavailable\n");
    const auto& d = xrc_e2e::sim();
    std::printf("[  NOTE    ] device %s, xrc_sim debugfs %s (%s)\n", dev.c_str(),
                d.dir().c_str(), d.has_counters() ? "counters found" : "no counters");
  }
};

}  // namespace

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  ::testing::AddGlobalTestEnvironment(new DeviceEnvironment);
  return RUN_ALL_TESTS();
}
