// Not built into any target: as nodiscard_check.cpp, for the libibverbs
// adapter (ctest runs it when the adapter is built).
#include <xrcrcv/ibverbs.hpp>

using namespace xrcrcv;
using namespace std::chrono_literals;

void ignores_every_fallible_call(ibverbs::Context& c, ibverbs::Xrcd& x, ibv_context& ctx,
                                 ibv_xrcd& xrcd) {
  const QpAttr a;
  ibverbs::Context::open();                                        // NODISCARD
  c.close();                                                       // NODISCARD
  ibverbs::Xrcd::open(c, "/tmp/x");                                // NODISCARD
  x.close();                                                       // NODISCARD
  ibverbs::reg_xrc_rcv_qp(xrcd, 1);                                // NODISCARD
  ibverbs::unreg_xrc_rcv_qp(xrcd, 1);                              // NODISCARD
  ibverbs::modify_xrc_rcv_qp(xrcd, 1, a, QpAttrMask::State);       // NODISCARD
  ibverbs::query_xrc_rcv_qp(xrcd, 1);                              // NODISCARD
  ibverbs::read_events(ctx, 0ms);                                  // NODISCARD
  ibverbs::next_event(ctx, 0ms);                                   // NODISCARD
}
