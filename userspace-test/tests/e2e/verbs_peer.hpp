// Transport::verbs for the Peer of support.hpp: what support_verbs.cpp
// does with libibverbs.  Built without the patched libibverbs, every call
// throws SetupFailure (no case is instantiated over verbs then).
#pragma once

#include "support.hpp"

namespace xrc_e2e::verbs_peer {

// The libibverbs device the /verbs cases open: XRC_E2E_VERBS_DEVICE, or
// "" for the first one (the guest has only xrc_sim0).
[[nodiscard]] std::string device_name();
// ibv_open_device() of device_name(), through its provider.
[[nodiscard]] VerbsFilePtr open_file();
// ibv_close_device(); 0 or its errno.
[[nodiscard]] int close_file(VerbsFilePtr f);
// ibv_open_xrcd() on `file`, O_CREAT.
[[nodiscard]] VerbsXrcdPtr open_xrcd(VerbsFile& f, const std::string& file);
[[nodiscard]] Status close_xrcd(VerbsXrcd& x);
[[nodiscard]] bool owns(const VerbsXrcd& x);
void release(VerbsXrcd& x);

// libibverbs' IBV_XRC_RCV_QPN_NEW (this header needs no libibverbs).
inline constexpr std::uint32_t kIbvXrcRcvQpnNew = 0xffffffffU;
// qpn == kIbvXrcRcvQpnNew creates (libibverbs then sends REG without a number).
[[nodiscard]] Result<std::uint32_t> reg(VerbsXrcd& x, std::uint32_t qpn);
[[nodiscard]] Status unreg(VerbsXrcd& x, std::uint32_t qpn);
[[nodiscard]] Status modify(VerbsXrcd& x, std::uint32_t qpn, const QpModify& m);
[[nodiscard]] Result<QpAttr> query(VerbsXrcd& x, std::uint32_t qpn, QpAttrMask mask);

[[nodiscard]] Result<std::vector<AsyncEvent>> events(VerbsFile& f, std::chrono::milliseconds wait);
[[nodiscard]] Result<std::optional<AsyncEvent>> next_event(VerbsFile& f,
                                                           std::chrono::milliseconds wait);

}  // namespace xrc_e2e::verbs_peer
