#include <xrcrcv/objects.hpp>

#include <cerrno>
#include <fcntl.h>
#include <utility>

namespace xrcrcv {

// ------------------------------------------------------------------ Xrcd
Result<Xrcd> Xrcd::open(ContextRef ctx, const std::string& file) {
  // The kernel keys a shared XRCD on the inode; the fd is only needed for
  // the duration of OPEN_XRCD.
  UniqueFd fd(::open(file.c_str(), O_RDONLY | O_CREAT | O_CLOEXEC, 0600));
  if (!fd) return std::unexpected(sys_error("open", errno));
  return open_fd(ctx, fd.get(), O_CREAT);
}

Result<Xrcd> Xrcd::open_fd(ContextRef ctx, int fd, std::uint32_t oflags) {
  auto h = cmd::open_xrcd(ctx, fd, oflags);
  if (!h) return std::unexpected(h.error());
  return Xrcd(std::move(ctx), *h);
}

Xrcd::Xrcd(Xrcd&& o) noexcept
    : ctx_(std::move(o.ctx_)), handle_(o.handle_), owned_(std::exchange(o.owned_, false)) {}

Xrcd& Xrcd::operator=(Xrcd&& o) noexcept {
  if (this != &o) {
    if (owned_) (void)cmd::close_xrcd(ctx_, handle_);
    ctx_ = std::move(o.ctx_);
    handle_ = o.handle_;
    owned_ = std::exchange(o.owned_, false);
  }
  return *this;
}

Xrcd::~Xrcd() {
  if (owned_) (void)cmd::close_xrcd(ctx_, handle_);
}

Status Xrcd::close() {
  if (!owned_) return {};
  if (auto st = cmd::close_xrcd(ctx_, handle_); !st) return st;
  owned_ = false;
  ctx_.keep.reset();  // nothing left to send on the file
  return {};
}

std::uint32_t Xrcd::release() {
  owned_ = false;
  ctx_.keep.reset();
  return handle_;
}

// ------------------------------------------------------ RcvQpRegistration
Result<RcvQpRegistration> RcvQpRegistration::create(XrcdRef xrcd, Transport t) {
  auto n = cmd::reg_xrc_rcv_qp(xrcd.ctx, xrcd.handle, kNewRcvQp, t);
  if (!n) return std::unexpected(n.error());
  return RcvQpRegistration(std::move(xrcd), *n, t);
}

Result<RcvQpRegistration> RcvQpRegistration::reg(XrcdRef xrcd, std::uint32_t qp_num,
                                                 Transport t) {
  auto n = cmd::reg_xrc_rcv_qp(xrcd.ctx, xrcd.handle, qp_num, t);
  if (!n) return std::unexpected(n.error());
  return RcvQpRegistration(std::move(xrcd), *n, t);
}

RcvQpRegistration::RcvQpRegistration(RcvQpRegistration&& o) noexcept
    : xrcd_(std::move(o.xrcd_)),
      qp_num_(o.qp_num_),
      owned_(std::exchange(o.owned_, false)),
      transport_(o.transport_) {}

RcvQpRegistration& RcvQpRegistration::operator=(RcvQpRegistration&& o) noexcept {
  if (this != &o) {
    if (owned_) (void)cmd::unreg_xrc_rcv_qp(xrcd_.ctx, xrcd_.handle, qp_num_, transport_);
    xrcd_ = std::move(o.xrcd_);
    qp_num_ = o.qp_num_;
    owned_ = std::exchange(o.owned_, false);
    transport_ = o.transport_;
  }
  return *this;
}

RcvQpRegistration::~RcvQpRegistration() {
  if (owned_) (void)cmd::unreg_xrc_rcv_qp(xrcd_.ctx, xrcd_.handle, qp_num_, transport_);
}

Status RcvQpRegistration::modify(const QpAttr& attr, QpAttrMask mask) const {
  return cmd::modify_xrc_rcv_qp(xrcd_.ctx, xrcd_.handle, qp_num_, attr, mask, transport_);
}

Result<QpAttr> RcvQpRegistration::query(QpAttrMask mask) const {
  return cmd::query_xrc_rcv_qp(xrcd_.ctx, xrcd_.handle, qp_num_, mask, transport_);
}

Result<QpState> RcvQpRegistration::state() const {
  auto a = query(QpAttrMask::State);
  if (!a) return std::unexpected(a.error());
  return a->qp_state;
}

Status RcvQpRegistration::unreg() {
  if (!owned_) return {};
  if (auto st = cmd::unreg_xrc_rcv_qp(xrcd_.ctx, xrcd_.handle, qp_num_, transport_); !st)
    return st;
  owned_ = false;
  xrcd_.ctx.keep.reset();  // nothing left to send on the file
  return {};
}

std::uint32_t RcvQpRegistration::release() {
  owned_ = false;
  xrcd_.ctx.keep.reset();
  return qp_num_;
}

}  // namespace xrcrcv
