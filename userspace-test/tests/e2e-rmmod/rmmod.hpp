#pragma once

#include "support.hpp"

#include <optional>
#include <string>

namespace xrc_e2e {

// Sets the scene once: two files holding references on one receive QP,
// a third with an XRCD only; then unloads xrc_sim with them open.
class RemovalEnvironment : public ::testing::Environment {
 public:
  void SetUp() override;
  void TearDown() override;

  static std::optional<Peer> creator;   // created the QP
  static std::optional<Peer> holder;    // registered it
  static std::optional<Peer> idle;      // XRCD, no references
  static std::uint32_t qpn;
  static int rmmod_errno;               // 0 when xrc_sim was unloaded
  static bool ready;                    // scene set and module gone
  static std::string skip_reason;       // non-empty: every test skips
};

}  // namespace xrc_e2e
