// Not built into any target: tests/CMakeLists.txt compiles it with
// -Wunused-result (cmake/check-nodiscard.cmake) and requires one
// "ignoring return value" warning per line marked NODISCARD, so a
// fallible call that loses [[nodiscard]] fails ctest.
#include <xrcrcv/xrcrcv.hpp>

#include "sim_debugfs.hpp"

using namespace xrcrcv;
using namespace std::chrono_literals;

void ignores_every_fallible_call(ContextRef c, Context& ctx, Xrcd& x, RcvQpRegistration& r,
                                 const sim::Debugfs& d, UniqueFd& fd) {
  const QpAttr a;
  const ib_uverbs_modify_qp mq{};
  std::uint32_t n = 0;
  cmd::reg_xrc_rcv_qp(c, 1, 2);                                    // NODISCARD
  cmd::reg_xrc_rcv_qp(c, 1, kNewRcvQp, Transport::ioctl);          // NODISCARD
  cmd::unreg_xrc_rcv_qp(c, 1, 2);                                  // NODISCARD
  cmd::modify_xrc_rcv_qp(c, 1, 2, a, QpAttrMask::State);           // NODISCARD
  cmd::query_xrc_rcv_qp(c, 1, 2);                                  // NODISCARD
  cmd::open_xrcd(c, -1, 0);                                        // NODISCARD
  cmd::close_xrcd(c, 1);                                           // NODISCARD
  cmd::open_qp(c, 1, 2);                                           // NODISCARD
  cmd::create_qp_xrc_tgt(c, 1);                                    // NODISCARD
  cmd::destroy_qp(c, 1);                                           // NODISCARD
  cmd::query_qp(c, 1);                                             // NODISCARD
  cmd::modify_qp(c, 1, a, QpAttrMask::State);                      // NODISCARD
  raw::write_bytes(c, {});                                         // NODISCARD
  raw::send(c, 41, {}, 0);                                         // NODISCARD
  raw::xrcd_method(c, 2, {});                                      // NODISCARD
  raw::ioctl_reg_xrc_rcv_qp(c, 1, kNewRcvQp, &n);                  // NODISCARD
  raw::ioctl(c, UVERBS_OBJECT_XRCD, 1, {});                        // NODISCARD
  raw::ioctl_modify_xrc_rcv_qp(c, 1, 2, mq);                       // NODISCARD
  Context::open("/dev/null");                                      // NODISCARD
  ctx.close();                                                     // NODISCARD
  Xrcd::open(c, "/tmp/x");                                         // NODISCARD
  Xrcd::open_fd(c, -1, 0);                                         // NODISCARD
  x.close();                                                       // NODISCARD
  RcvQpRegistration::create(x.ref());                              // NODISCARD
  RcvQpRegistration::reg(x.ref(), 5);                              // NODISCARD
  r.unreg();                                                       // NODISCARD
  r.modify(a, QpAttrMask::State);                                  // NODISCARD
  r.query();                                                       // NODISCARD
  r.state();                                                       // NODISCARD
  read_events(c, 0ms);                                             // NODISCARD
  next_event(-1, 0ms);                                             // NODISCARD
  d.inject_event(1, 1);                                            // NODISCARD
  d.modify_udata();                                                // NODISCARD
  d.clear_modify_udata();                                          // NODISCARD
  fd.close();                                                      // NODISCARD
}
