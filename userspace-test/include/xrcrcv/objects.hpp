// RAII owners of what a uverbs file holds: an XRCD and receive-QP
// references.  Destructors undo silently; the explicit close()/unreg()
// report errors (e.g. CLOSE_XRCD's EBUSY while references remain).
#pragma once

#include <xrcrcv/commands.hpp>
#include <xrcrcv/context.hpp>
#include <xrcrcv/error.hpp>
#include <xrcrcv/qp_attr.hpp>

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
  static Result<Xrcd> open(ContextRef ctx, const std::string& file);
  // OPEN_XRCD on a caller's fd (-1 for an XRCD without inode) and oflags.
  static Result<Xrcd> open_fd(ContextRef ctx, int fd, std::uint32_t oflags);

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
  Status close();
  // Stop owning without CLOSE_XRCD; returns the handle.
  std::uint32_t release();

 private:
  Xrcd(ContextRef ctx, std::uint32_t h) : ctx_(ctx), handle_(h), owned_(true) {}
  ContextRef ctx_;
  std::uint32_t handle_ = 0;
  bool owned_ = false;
};

// One reference of this file on a receive QP.  Move-only; the destructor
// sends UNREG (the last reference anywhere destroys the QP).
class RcvQpRegistration {
 public:
  // REG with IB_UVERBS_XRC_RCV_QPN_NEW: a new QP in RESET.
  static Result<RcvQpRegistration> create(XrcdRef xrcd);
  // REG of an existing number: one more reference.
  static Result<RcvQpRegistration> reg(XrcdRef xrcd, std::uint32_t qp_num);
  // Adopt a reference made by other means (e.g. a raw REG).
  static RcvQpRegistration adopt(XrcdRef xrcd, std::uint32_t qp_num) {
    return RcvQpRegistration(xrcd, qp_num);
  }

  RcvQpRegistration(RcvQpRegistration&& o) noexcept;
  RcvQpRegistration& operator=(RcvQpRegistration&& o) noexcept;
  RcvQpRegistration(const RcvQpRegistration&) = delete;
  RcvQpRegistration& operator=(const RcvQpRegistration&) = delete;
  ~RcvQpRegistration();

  [[nodiscard]] std::uint32_t qp_num() const { return qp_num_; }
  [[nodiscard]] XrcdRef xrcd() const { return xrcd_; }
  [[nodiscard]] bool owns() const { return owned_; }

  Status modify(const QpAttr& attr, QpAttrMask mask) const;
  Status modify(const QpModify& m) const { return modify(m.attr, m.mask); }
  Result<QpAttr> query(QpAttrMask mask = QpAttrMask::AllStandard) const;
  Result<QpState> state() const;

  // UNREG now and report it; on failure ownership is kept.
  Status unreg();
  // Keep the reference in the kernel but stop owning it; returns qp_num.
  std::uint32_t release();

 private:
  RcvQpRegistration(XrcdRef x, std::uint32_t n) : xrcd_(x), qp_num_(n), owned_(true) {}
  XrcdRef xrcd_;
  std::uint32_t qp_num_ = 0;
  bool owned_ = false;
};

}  // namespace xrcrcv
