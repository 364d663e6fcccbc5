// Optional adapter: the XRC receive-QP verbs through the patched
// libibverbs (rdma-core series, IBVERBS_1.18: ibv_reg_xrc_rcv_qp() ...),
// in xrcrcv's terms (Result, QpAttr, AsyncEvent), for Transport::verbs.
// Target xrcrcv::ibverbs, built only against a libibverbs that has those
// verbs: rdma-core's XRCD layout is private, so nothing here reads the
// kernel handle out of an ibv_xrcd; libibverbs sends the commands.
//
// Context and Xrcd own what they open (ibv_close_device, ibv_close_xrcd),
// an Xrcd with a share of its Context;
// the free functions work on any ibv_context / ibv_xrcd, owned or not.
#pragma once

#include <xrcrcv/context.hpp>
#include <xrcrcv/error.hpp>
#include <xrcrcv/events.hpp>
#include <xrcrcv/qp_attr.hpp>

#include <infiniband/verbs.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace xrcrcv::ibverbs {

// An ibv_context from ibv_open_device(), through the device's provider.
// Shared with the Xrcds opened on it, which keep it open: libibverbs frees
// the context in ibv_close_device(), and an ibv_xrcd is closed through it.
class Context {
 public:
  // The device named `name` (ibv_get_device_name), or the first one when
  // `name` is empty.  ENODEV when there is no such device.
  [[nodiscard]] static Result<Context> open(const std::string& name = {});

  [[nodiscard]] ibv_context* get() const { return dev_ ? dev_->ctx : nullptr; }
  [[nodiscard]] bool is_open() const { return dev_ != nullptr; }
  // Give up this Context's share now.  When no Xrcd opened through it
  // holds the device any more, that is ibv_close_device(): 0 or its errno;
  // otherwise the device stays open for them, until the last goes, and 0
  // is returned.
  [[nodiscard]] int close() noexcept;

 private:
  friend class Xrcd;
  struct Device {
    explicit Device(ibv_context* c) : ctx(c) {}
    Device(const Device&) = delete;
    Device& operator=(const Device&) = delete;
    ~Device();
    ibv_context* ctx;
  };
  explicit Context(ibv_context* c) : dev_(std::make_shared<Device>(c)) {}
  std::shared_ptr<Device> dev_;
};

// An ibv_xrcd from ibv_open_xrcd() on a file, with O_CREAT: every context
// of the node that opens the same file shares the XRCD.  It holds a share
// of its Context, so the two may go in either order.
class Xrcd {
 public:
  [[nodiscard]] static Result<Xrcd> open(const Context& ctx, const std::string& file);

  [[nodiscard]] ibv_xrcd* get() const { return xrcd_.get(); }
  [[nodiscard]] bool owns() const { return xrcd_ != nullptr; }
  // ibv_close_xrcd() now.  On failure (EBUSY while the context holds
  // receive-QP references in the XRCD) the object keeps ownership.
  [[nodiscard]] Status close();
  // Stop owning without ibv_close_xrcd(): the context's close cleans up.
  // (libibverbs' small struct is then never freed; tests only.)
  void release() noexcept {
    (void)xrcd_.release();
    dev_.reset();
  }

 private:
  struct Close {
    void operator()(ibv_xrcd* x) const noexcept { (void)::ibv_close_xrcd(x); }
  };
  Xrcd(std::shared_ptr<Context::Device> dev, ibv_xrcd* x) : dev_(std::move(dev)), xrcd_(x) {}
  std::shared_ptr<Context::Device> dev_;  // declared first: outlives xrcd_
  std::unique_ptr<ibv_xrcd, Close> xrcd_;
};

// --- the four verbs (errors: Transport::verbs, command kCmd*XrcRcvQp) ---
// qp_num == IBV_XRC_RCV_QPN_NEW creates; returns the QP number.
[[nodiscard]] Result<std::uint32_t> reg_xrc_rcv_qp(ibv_xrcd& xrcd, std::uint32_t qp_num);
[[nodiscard]] Status unreg_xrc_rcv_qp(ibv_xrcd& xrcd, std::uint32_t qp_num);
[[nodiscard]] Status modify_xrc_rcv_qp(ibv_xrcd& xrcd, std::uint32_t qp_num, const QpAttr& attr,
                                       QpAttrMask mask);
[[nodiscard]] Result<QpAttr> query_xrc_rcv_qp(ibv_xrcd& xrcd, std::uint32_t qp_num,
                                              QpAttrMask mask = QpAttrMask::AllStandard);

// --- async events: ibv_get_async_event(), then ibv_ack_async_event() ----
// As xrcrcv::read_events()/next_event() on a raw file: an XRC receive QP
// event has IBV_XRC_QP_EVENT_FLAG in event_type and element.xrc_qp_num in
// AsyncEvent::element; other events carry libibverbs' element (the
// ibv_qp/ibv_cq/ibv_srq pointer, or the port number).
[[nodiscard]] Result<std::vector<AsyncEvent>> read_events(ibv_context& ctx,
                                                          std::chrono::milliseconds timeout,
                                                          std::size_t max = 1024);
[[nodiscard]] Result<std::optional<AsyncEvent>> next_event(ibv_context& ctx,
                                                           std::chrono::milliseconds timeout);
[[nodiscard]] AsyncEvent decode_event(const ibv_async_event& ev);

// --- translation between xrcrcv's QP attributes and libibverbs' ---------
// The mask bits are the same (enum ib_qp_attr_mask = enum ibv_qp_attr_mask).
[[nodiscard]] ibv_qp_attr to_ibv(const QpAttr& a);
[[nodiscard]] QpAttr from_ibv(const ibv_qp_attr& a);

// {cmd_fd, async_fd} of an ibv_context, owning nothing: for the raw
// commands on a file libibverbs opened (e.g. OPEN_QP beside it).
[[nodiscard]] ContextRef context_view(const ibv_context& ctx);

}  // namespace xrcrcv::ibverbs
