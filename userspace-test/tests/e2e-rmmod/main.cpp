// xrc_e2e_rmmod_tests: device removal (abi.md rule 4, disassociation).
// Destructive: it unloads xrc_sim itself, so it runs only with
// XRC_E2E_RMMOD=1 and must be the last thing the guest runs.
#include "rmmod.hpp"

#include <gtest/gtest.h>

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  ::testing::AddGlobalTestEnvironment(new xrc_e2e::RemovalEnvironment);
  return RUN_ALL_TESTS();
}
