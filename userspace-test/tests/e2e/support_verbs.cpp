// Transport::verbs for the end-to-end Peer: the four verbs, the XRCD and
// the async events through the patched libibverbs (xrcrcv::ibverbs), on
// the device its xrc_sim provider opens.
#include "verbs_peer.hpp"

#ifdef XRC_E2E_VERBS
#include <xrcrcv/ibverbs.hpp>

static_assert(IBV_XRC_RCV_QPN_NEW == xrc_e2e::verbs_peer::kIbvXrcRcvQpnNew);

#include <cstdlib>
#endif

namespace xrc_e2e {

#ifdef XRC_E2E_VERBS

struct VerbsFile {
  ibverbs::Context ctx;
};
struct VerbsXrcd {
  ibverbs::Xrcd xrcd;
};

void VerbsFileClose::operator()(VerbsFile* f) const noexcept { delete f; }
void VerbsXrcdClose::operator()(VerbsXrcd* x) const noexcept { delete x; }

namespace verbs_peer {

std::string device_name() {
  const char* name = std::getenv("XRC_E2E_VERBS_DEVICE");
  return name ? name : "";
}

VerbsFilePtr open_file() {
  auto ctx = must(ibverbs::Context::open(device_name()), "ibv_open_device");
  return VerbsFilePtr(new VerbsFile{std::move(ctx)});
}

int close_file(VerbsFilePtr f) { return f ? f->ctx.close() : 0; }

VerbsXrcdPtr open_xrcd(VerbsFile& f, const std::string& file) {
  auto x = must(ibverbs::Xrcd::open(f.ctx, file), "ibv_open_xrcd");
  return VerbsXrcdPtr(new VerbsXrcd{std::move(x)});
}

Status close_xrcd(VerbsXrcd& x) { return x.xrcd.close(); }
bool owns(const VerbsXrcd& x) { return x.xrcd.owns(); }
void release(VerbsXrcd& x) { x.xrcd.release(); }

Result<std::uint32_t> reg(VerbsXrcd& x, std::uint32_t qpn) {
  return ibverbs::reg_xrc_rcv_qp(*x.xrcd.get(), qpn);
}
Status unreg(VerbsXrcd& x, std::uint32_t qpn) {
  return ibverbs::unreg_xrc_rcv_qp(*x.xrcd.get(), qpn);
}
Status modify(VerbsXrcd& x, std::uint32_t qpn, const QpModify& m) {
  return ibverbs::modify_xrc_rcv_qp(*x.xrcd.get(), qpn, m.attr, m.mask);
}
Result<QpAttr> query(VerbsXrcd& x, std::uint32_t qpn, QpAttrMask mask) {
  return ibverbs::query_xrc_rcv_qp(*x.xrcd.get(), qpn, mask);
}

Result<std::vector<AsyncEvent>> events(VerbsFile& f, std::chrono::milliseconds wait) {
  return ibverbs::read_events(*f.ctx.get(), wait);
}
Result<std::optional<AsyncEvent>> next_event(VerbsFile& f, std::chrono::milliseconds wait) {
  return ibverbs::next_event(*f.ctx.get(), wait);
}

}  // namespace verbs_peer

#else  // no libibverbs with the new verbs: nothing runs over verbs

struct VerbsFile {};
struct VerbsXrcd {};

void VerbsFileClose::operator()(VerbsFile* f) const noexcept { delete f; }
void VerbsXrcdClose::operator()(VerbsXrcd* x) const noexcept { delete x; }

namespace verbs_peer {
namespace {
[[noreturn]] void unavailable() {
  throw SetupFailure("this build has no libibverbs with ibv_reg_xrc_rcv_qp()");
}
}  // namespace

std::string device_name() { unavailable(); }
VerbsFilePtr open_file() { unavailable(); }
int close_file(VerbsFilePtr) { unavailable(); }
VerbsXrcdPtr open_xrcd(VerbsFile&, const std::string&) { unavailable(); }
Status close_xrcd(VerbsXrcd&) { unavailable(); }
bool owns(const VerbsXrcd&) { unavailable(); }
void release(VerbsXrcd&) { unavailable(); }
Result<std::uint32_t> reg(VerbsXrcd&, std::uint32_t) { unavailable(); }
Status unreg(VerbsXrcd&, std::uint32_t) { unavailable(); }
Status modify(VerbsXrcd&, std::uint32_t, const QpModify&) { unavailable(); }
Result<QpAttr> query(VerbsXrcd&, std::uint32_t, QpAttrMask) { unavailable(); }
Result<std::vector<AsyncEvent>> events(VerbsFile&, std::chrono::milliseconds) { unavailable(); }
Result<std::optional<AsyncEvent>> next_event(VerbsFile&, std::chrono::milliseconds) {
  unavailable();
}

}  // namespace verbs_peer

#endif

}  // namespace xrc_e2e
