#include <xrcrcv/ibverbs.hpp>
#include <xrcrcv/fd.hpp>
#include <xrcrcv/uapi.h>

#include "detail.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <span>
#include <utility>

namespace xrcrcv::ibverbs {

// libibverbs copies the attribute mask into the uverbs command as it is.
static_assert(IBV_QP_STATE == to_bits(QpAttrMask::State));
static_assert(IBV_QP_AV == to_bits(QpAttrMask::Av));
static_assert(IBV_QP_DEST_QPN == to_bits(QpAttrMask::DestQpn));
// libibverbs' "create" number; the kernel uAPI has none (REG without a
// number creates), libibverbs translates.
static_assert(IBV_XRC_RCV_QPN_NEW == 0xffffffffU);
static_assert(IBV_XRC_QP_EVENT_FLAG == IB_UVERBS_XRC_QP_EVENT_FLAG);

namespace {

// libibverbs' int verbs return 0 or an errno value; a few set errno and
// return -1 instead, and some providers return -errno.  Each way: the
// positive errno (EIO when a verb failed and said nothing).
int verb_errno(int rc) {
  if (rc > 0) return rc;
  if (rc < -1) return -rc;
  return errno ? errno : EIO;
}

ibv_ah_attr to_ibv(const AddressVector& av) {
  ibv_ah_attr a{};
  std::memcpy(a.grh.dgid.raw, av.dgid.data(), av.dgid.size());
  a.grh.flow_label = av.flow_label;
  a.grh.sgid_index = av.sgid_index;
  a.grh.hop_limit = av.hop_limit;
  a.grh.traffic_class = av.traffic_class;
  a.dlid = av.dlid;
  a.sl = av.sl;
  a.src_path_bits = av.src_path_bits;
  a.static_rate = av.static_rate;
  a.is_global = av.is_global ? 1 : 0;
  a.port_num = av.port_num;
  return a;
}

AddressVector from_ibv(const ibv_ah_attr& a) {
  AddressVector av;
  std::memcpy(av.dgid.data(), a.grh.dgid.raw, av.dgid.size());
  av.flow_label = a.grh.flow_label;
  av.sgid_index = a.grh.sgid_index;
  av.hop_limit = a.grh.hop_limit;
  av.traffic_class = a.grh.traffic_class;
  av.dlid = a.dlid;
  av.sl = a.sl;
  av.src_path_bits = a.src_path_bits;
  av.static_rate = a.static_rate;
  av.is_global = a.is_global != 0;
  av.port_num = a.port_num;
  return av;
}

}  // namespace

// ------------------------------------------------------------- Context
Result<Context> Context::open(const std::string& name) {
  int n = 0;
  std::unique_ptr<ibv_device*, decltype(&::ibv_free_device_list)> list(
      ::ibv_get_device_list(&n), &::ibv_free_device_list);
  if (!list) return std::unexpected(verbs_error(kNotACommand, "ibv_get_device_list", verb_errno(-1)));
  const auto devices = std::span(list.get(), static_cast<std::size_t>(n));
  const auto it = std::ranges::find_if(devices, [&name](ibv_device* d) {
    return name.empty() || name == ::ibv_get_device_name(d);
  });
  if (it == devices.end()) return std::unexpected(verbs_error(kNotACommand, "ibv_get_device_list", ENODEV));
  errno = 0;
  ibv_context* c = ::ibv_open_device(*it);
  if (!c) return std::unexpected(verbs_error(kNotACommand, "ibv_open_device", verb_errno(-1)));
  Context ctx(c);
  // As ibv_get_async_event(3) shows: never block on an emptied queue (see
  // next_event())
  const int fl = ::fcntl(c->async_fd, F_GETFL);
  if (fl < 0 || ::fcntl(c->async_fd, F_SETFL, fl | O_NONBLOCK) < 0)
    return std::unexpected(sys_error("fcntl", errno));
  return ctx;
}

Context::Device::~Device() {
  if (ctx) (void)::ibv_close_device(ctx);
}

int Context::close() noexcept {
  if (!dev_) return 0;
  const std::shared_ptr<Device> dev = std::move(dev_);
  if (dev.use_count() > 1) return 0;  // an Xrcd closes it when it goes
  const int rc = ::ibv_close_device(std::exchange(dev->ctx, nullptr));
  return rc == 0 ? 0 : verb_errno(rc);
}

// ---------------------------------------------------------------- Xrcd
Result<Xrcd> Xrcd::open(const Context& ctx, const std::string& file) {
  if (!ctx.is_open()) return std::unexpected(verbs_error(IB_USER_VERBS_CMD_OPEN_XRCD, "ibv_open_xrcd", EBADF));
  // The kernel keys a shared XRCD on the inode; the fd is only needed for
  // the duration of OPEN_XRCD.
  UniqueFd fd(::open(file.c_str(), O_RDONLY | O_CREAT | O_CLOEXEC, 0600));
  if (!fd) return std::unexpected(sys_error("open", errno));
  ibv_xrcd_init_attr attr{};
  attr.comp_mask = IBV_XRCD_INIT_ATTR_FD | IBV_XRCD_INIT_ATTR_OFLAGS;
  attr.fd = fd.get();
  attr.oflags = O_CREAT;
  errno = 0;
  ibv_xrcd* x = ::ibv_open_xrcd(ctx.get(), &attr);
  if (!x)
    return std::unexpected(verbs_error(IB_USER_VERBS_CMD_OPEN_XRCD, "ibv_open_xrcd", verb_errno(-1)));
  return Xrcd(ctx.dev_, x);
}

Status Xrcd::close() {
  if (!xrcd_) return {};
  // On failure libibverbs keeps the ibv_xrcd, and so do we.
  if (const int rc = ::ibv_close_xrcd(xrcd_.get()); rc != 0)
    return std::unexpected(verbs_error(IB_USER_VERBS_CMD_CLOSE_XRCD, "ibv_close_xrcd", verb_errno(rc)));
  (void)xrcd_.release();
  dev_.reset();
  return {};
}

// ------------------------------------------------------------ the verbs
Result<std::uint32_t> reg_xrc_rcv_qp(ibv_xrcd& xrcd, std::uint32_t qp_num) {
  constexpr auto kCmd = kCmdRegXrcRcvQp;
  std::uint32_t n = qp_num;
  if (const int rc = ::ibv_reg_xrc_rcv_qp(&xrcd, &n); rc != 0)
    return std::unexpected(verbs_error(kCmd, "ibv_reg_xrc_rcv_qp", verb_errno(rc)));
  // A create must answer a number, not leave the sentinel.
  if (n == IBV_XRC_RCV_QPN_NEW) return std::unexpected(verbs_error(kCmd, "ibv_reg_xrc_rcv_qp", EPROTO));
  return n;
}

Status unreg_xrc_rcv_qp(ibv_xrcd& xrcd, std::uint32_t qp_num) {
  if (const int rc = ::ibv_unreg_xrc_rcv_qp(&xrcd, qp_num); rc != 0)
    return std::unexpected(
        verbs_error(kCmdUnregXrcRcvQp, "ibv_unreg_xrc_rcv_qp", verb_errno(rc)));
  return {};
}

Status modify_xrc_rcv_qp(ibv_xrcd& xrcd, std::uint32_t qp_num, const QpAttr& attr,
                         QpAttrMask mask) {
  auto a = to_ibv(attr);
  if (const int rc = ::ibv_modify_xrc_rcv_qp(&xrcd, qp_num, &a, static_cast<int>(to_bits(mask)));
      rc != 0)
    return std::unexpected(
        verbs_error(kCmdModifyXrcRcvQp, "ibv_modify_xrc_rcv_qp", verb_errno(rc)));
  return {};
}

Result<QpAttr> query_xrc_rcv_qp(ibv_xrcd& xrcd, std::uint32_t qp_num, QpAttrMask mask) {
  ibv_qp_attr a{};
  ibv_qp_init_attr init{};
  if (const int rc = ::ibv_query_xrc_rcv_qp(&xrcd, qp_num, &a, static_cast<int>(to_bits(mask)),
                                            &init);
      rc != 0)
    return std::unexpected(
        verbs_error(kCmdQueryXrcRcvQp, "ibv_query_xrc_rcv_qp", verb_errno(rc)));
  auto out = from_ibv(a);
  // libibverbs reports the capabilities in init_attr, as ibv_query_qp().
  out.cap = {init.cap.max_send_wr, init.cap.max_recv_wr, init.cap.max_send_sge,
             init.cap.max_recv_sge, init.cap.max_inline_data};
  out.sq_sig_all = init.sq_sig_all != 0;
  return out;
}

// --------------------------------------------------------------- events
AsyncEvent decode_event(const ibv_async_event& ev) {
  AsyncEvent e;
  // Read as the integer libibverbs (C) stored: with IBV_XRC_QP_EVENT_FLAG
  // the value is outside the range of C++'s enum ibv_event_type.
  static_assert(sizeof ev.event_type == sizeof e.event_type);
  std::memcpy(&e.event_type, &ev.event_type, sizeof e.event_type);
  if (e.is_xrc_rcv()) {
    e.element = ev.element.xrc_qp_num;
    return e;
  }
  switch (e.event_type) {
    case IBV_EVENT_CQ_ERR: e.element = reinterpret_cast<std::uintptr_t>(ev.element.cq); break;
    case IBV_EVENT_QP_FATAL:
    case IBV_EVENT_QP_REQ_ERR:
    case IBV_EVENT_QP_ACCESS_ERR:
    case IBV_EVENT_COMM_EST:
    case IBV_EVENT_SQ_DRAINED:
    case IBV_EVENT_PATH_MIG:
    case IBV_EVENT_PATH_MIG_ERR:
    case IBV_EVENT_QP_LAST_WQE_REACHED:
      e.element = reinterpret_cast<std::uintptr_t>(ev.element.qp);
      break;
    case IBV_EVENT_SRQ_ERR:
    case IBV_EVENT_SRQ_LIMIT_REACHED:
      e.element = reinterpret_cast<std::uintptr_t>(ev.element.srq);
      break;
    case IBV_EVENT_WQ_FATAL: e.element = reinterpret_cast<std::uintptr_t>(ev.element.wq); break;
    default: e.element = static_cast<std::uint32_t>(ev.element.port_num); break;
  }
  return e;
}

Result<std::optional<AsyncEvent>> next_event(ibv_context& ctx, std::chrono::milliseconds timeout) {
  // As the raw next_event(): the queue can empty between poll(2) and the
  // read, and Context::open() made the fd non-blocking for that.
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    const auto left = std::max(std::chrono::milliseconds(0),
                               std::chrono::duration_cast<std::chrono::milliseconds>(
                                   deadline - std::chrono::steady_clock::now()));
    auto ready = detail::wait_readable(ctx.async_fd, left);
    if (!ready) return std::unexpected(ready.error());
    if (!*ready) return std::nullopt;
    ibv_async_event ev{};
    errno = 0;
    if (::ibv_get_async_event(&ctx, &ev) != 0) {
      if (errno == EAGAIN && left.count() > 0) continue;
      if (errno == EAGAIN) return std::nullopt;
      return std::unexpected(verbs_error(kNotACommand, "ibv_get_async_event", verb_errno(-1)));
    }
    const auto decoded = decode_event(ev);
    // Every event read is acked, as libibverbs requires before a destroy.
    ::ibv_ack_async_event(&ev);
    return decoded;
  }
}

Result<std::vector<AsyncEvent>> read_events(ibv_context& ctx, std::chrono::milliseconds timeout,
                                            std::size_t max) {
  std::vector<AsyncEvent> out;
  // The first within `timeout`, then whatever is already queued.
  for (auto wait = timeout; out.size() < max; wait = std::chrono::milliseconds(0)) {
    auto ev = next_event(ctx, wait);
    if (!ev) return std::unexpected(ev.error());
    if (!*ev) break;
    out.push_back(**ev);
  }
  return out;
}

// ---------------------------------------------------------- attributes
ibv_qp_attr to_ibv(const QpAttr& a) {
  ibv_qp_attr o{};
  o.qp_state = static_cast<ibv_qp_state>(a.qp_state);
  o.cur_qp_state = static_cast<ibv_qp_state>(a.cur_qp_state);
  o.path_mtu = static_cast<ibv_mtu>(a.path_mtu);
  o.path_mig_state = static_cast<ibv_mig_state>(a.path_mig_state);
  o.qkey = a.qkey;
  o.rq_psn = a.rq_psn;
  o.sq_psn = a.sq_psn;
  o.dest_qp_num = a.dest_qp_num;
  o.qp_access_flags = static_cast<unsigned>(a.qp_access_flags);
  o.ah_attr = to_ibv(a.ah_attr);
  o.alt_ah_attr = to_ibv(a.alt_ah_attr);
  o.pkey_index = a.pkey_index;
  o.alt_pkey_index = a.alt_pkey_index;
  o.en_sqd_async_notify = a.en_sqd_async_notify ? 1 : 0;
  o.max_rd_atomic = a.max_rd_atomic;
  o.max_dest_rd_atomic = a.max_dest_rd_atomic;
  o.min_rnr_timer = a.min_rnr_timer;
  o.port_num = a.port_num;
  o.timeout = a.timeout;
  o.retry_cnt = a.retry_cnt;
  o.rnr_retry = a.rnr_retry;
  o.alt_port_num = a.alt_port_num;
  o.alt_timeout = a.alt_timeout;
  return o;
}

QpAttr from_ibv(const ibv_qp_attr& a) {
  QpAttr o;
  o.qp_state = static_cast<QpState>(a.qp_state);
  o.cur_qp_state = static_cast<QpState>(a.cur_qp_state);
  o.path_mtu = static_cast<Mtu>(a.path_mtu);
  o.path_mig_state = static_cast<std::uint8_t>(a.path_mig_state);
  o.en_sqd_async_notify = a.en_sqd_async_notify != 0;
  o.sq_draining = a.sq_draining != 0;
  o.qkey = a.qkey;
  o.rq_psn = a.rq_psn;
  o.sq_psn = a.sq_psn;
  o.dest_qp_num = a.dest_qp_num;
  o.qp_access_flags = static_cast<std::uint32_t>(a.qp_access_flags);
  o.pkey_index = a.pkey_index;
  o.alt_pkey_index = a.alt_pkey_index;
  o.max_rd_atomic = a.max_rd_atomic;
  o.max_dest_rd_atomic = a.max_dest_rd_atomic;
  o.min_rnr_timer = a.min_rnr_timer;
  o.port_num = a.port_num;
  o.timeout = a.timeout;
  o.retry_cnt = a.retry_cnt;
  o.rnr_retry = a.rnr_retry;
  o.alt_port_num = a.alt_port_num;
  o.alt_timeout = a.alt_timeout;
  o.ah_attr = from_ibv(a.ah_attr);
  o.alt_ah_attr = from_ibv(a.alt_ah_attr);
  o.cap = {a.cap.max_send_wr, a.cap.max_recv_wr, a.cap.max_send_sge, a.cap.max_recv_sge,
           a.cap.max_inline_data};
  return o;
}

// libibverbs owns the file: a bare view, no share.
ContextRef context_view(const ibv_context& ctx) { return {ctx.cmd_fd, ctx.async_fd, nullptr}; }

}  // namespace xrcrcv::ibverbs
