// RAII owners of what a uverbs file holds: an XRCD and receive-QP
// references.  Destructors undo silently; the explicit close()/unreg()
// report errors (e.g. CLOSE_XRCD's EBUSY while references remain).
// Each object keeps a share of its file (ContextRef::keep), so it may
// outlive the Context it was made through: its cleanup still reaches that
// file, never a file that reused the descriptor number.
#pragma once

#include <xrcrcv/commands.hpp>
#include <xrcrcv/context.hpp>
#include <xrcrcv/error.hpp>
#include <xrcrcv/qp_attr.hpp>
#include <xrcrcv/transport.hpp>

#include <cstdint>
#include <string>

namespace xrcrcv {

// Non-owning (context, XRCD handle) pair.
struct XrcdRef {
  ContextRef ctx;
  std::uint32_t handle = 0;
};

class Xrcd {
 public:
  // Open (creating if needed, mode 0600) `file` and OPEN_XRCD on it with
  // O_CREAT: every file of the node that does so shares the XRCD.
  [[nodiscard]] static Result<Xrcd> open(ContextRef ctx, const std::string& file);
  // OPEN_XRCD on a caller's fd (-1 for an XRCD without inode) and oflags.
  [[nodiscard]] static Result<Xrcd> open_fd(ContextRef ctx, int fd, std::uint32_t oflags);

  Xrcd(Xrcd&& o) noexcept;
  Xrcd& operator=(Xrcd&& o) noexcept;
  Xrcd(const Xrcd&) = delete;
  Xrcd& operator=(const Xrcd&) = delete;
  ~Xrcd();

  [[nodiscard]] std::uint32_t handle() const { return handle_; }
  [[nodiscard]] ContextRef context() const { return ctx_; }
  [[nodiscard]] XrcdRef ref() const { return {ctx_, handle_}; }
  operator XrcdRef() const { return ref(); }  // NOLINT: a view, by design
  [[nodiscard]] bool owns() const { return owned_; }

  // CLOSE_XRCD now.  On failure (EBUSY while this file holds receive-QP
  // references in the XRCD) the object keeps ownership.
  [[nodiscard]] Status close();
  // Stop owning without CLOSE_XRCD (and drop the share of the file);
  // returns the handle.
  std::uint32_t release();

 private:
  Xrcd(ContextRef ctx, std::uint32_t h) : ctx_(std::move(ctx)), handle_(h), owned_(true) {}
  ContextRef ctx_;
  std::uint32_t handle_ = 0;
  bool owned_ = false;
};

// One reference of this file on a receive QP.  Move-only; the destructor
// sends UNREG (the last reference anywhere destroys the QP).  Every
// command goes over the object's transport: ioctl (Transport::verbs has
// no ibv_xrcd here and is refused with EOPNOTSUPP; see ibverbs.hpp).
class RcvQpRegistration {
 public:
  // REG without a number: a new QP in RESET.
  [[nodiscard]] static Result<RcvQpRegistration> create(XrcdRef xrcd,
                                                        Transport t = Transport::ioctl);
  // REG of an existing number: one more reference.
  [[nodiscard]] static Result<RcvQpRegistration> reg(XrcdRef xrcd, std::uint32_t qp_num,
                                                     Transport t = Transport::ioctl);
  // Adopt a reference made by other means (e.g. a raw REG).
  [[nodiscard]] static RcvQpRegistration adopt(XrcdRef xrcd, std::uint32_t qp_num,
                                               Transport t = Transport::ioctl) {
    return RcvQpRegistration(std::move(xrcd), qp_num, t);
  }

  RcvQpRegistration(RcvQpRegistration&& o) noexcept;
  RcvQpRegistration& operator=(RcvQpRegistration&& o) noexcept;
  RcvQpRegistration(const RcvQpRegistration&) = delete;
  RcvQpRegistration& operator=(const RcvQpRegistration&) = delete;
  ~RcvQpRegistration();

  [[nodiscard]] std::uint32_t qp_num() const { return qp_num_; }
  [[nodiscard]] XrcdRef xrcd() const { return xrcd_; }
  [[nodiscard]] bool owns() const { return owned_; }
  [[nodiscard]] Transport transport() const { return transport_; }
  void set_transport(Transport t) { transport_ = t; }

  [[nodiscard]] Status modify(const QpAttr& attr, QpAttrMask mask) const;
  [[nodiscard]] Status modify(const QpModify& m) const { return modify(m.attr, m.mask); }
  [[nodiscard]] Result<QpAttr> query(QpAttrMask mask = QpAttrMask::AllStandard) const;
  [[nodiscard]] Result<QpState> state() const;

  // UNREG now and report it; on failure ownership is kept.
  [[nodiscard]] Status unreg();
  // Keep the reference in the kernel but stop owning it (and drop the
  // share of the file); returns qp_num.
  std::uint32_t release();

 private:
  RcvQpRegistration(XrcdRef x, std::uint32_t n, Transport t)
      : xrcd_(std::move(x)), qp_num_(n), owned_(true), transport_(t) {}
  XrcdRef xrcd_;
  std::uint32_t qp_num_ = 0;
  bool owned_ = false;
  Transport transport_ = Transport::ioctl;
};

}  // namespace xrcrcv
