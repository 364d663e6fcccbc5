// Async events from a context's async fd, decoded.
#pragma once

#include <xrcrcv/context.hpp>
#include <xrcrcv/error.hpp>
#include <xrcrcv/uapi.h>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace xrcrcv {

// enum ib_event_type (include/rdma/ib_verbs.h, v6.12), in full.  Note
// PATH_MIG is 6: the enum has no gaps.
enum class EventType : std::uint32_t {
  CqErr = 0,
  QpFatal = 1,
  QpReqErr = 2,
  QpAccessErr = 3,
  CommEst = 4,
  SqDrained = 5,
  PathMig = 6,
  PathMigErr = 7,
  DeviceFatal = 8,
  PortActive = 9,
  PortErr = 10,
  LidChange = 11,
  PkeyChange = 12,
  SmChange = 13,
  SrqErr = 14,
  SrqLimitReached = 15,
  QpLastWqeReached = 16,
  ClientReregister = 17,
  GidChange = 18,
  WqFatal = 19,
};

struct AsyncEvent {
  std::uint64_t element = 0;      // handle/user cookie, or qp_num for XRC rcv
  std::uint32_t event_type = 0;   // as received, flag included
  std::uint32_t reserved = 0;

  // Event on an XRC receive QP (IB_UVERBS_XRC_QP_EVENT_FLAG set).
  [[nodiscard]] bool is_xrc_rcv() const {
    return (event_type & IB_UVERBS_XRC_QP_EVENT_FLAG) != 0;
  }
  // ib_event_type without the flag.
  [[nodiscard]] std::uint32_t type() const { return event_type & ~IB_UVERBS_XRC_QP_EVENT_FLAG; }
  [[nodiscard]] std::optional<std::uint32_t> xrc_qp_num() const {
    if (!is_xrc_rcv()) return std::nullopt;
    return static_cast<std::uint32_t>(element);
  }
  // "XRC_RCV qp 0x000012 QP_FATAL(1)"
  [[nodiscard]] std::string describe() const;
  friend bool operator==(const AsyncEvent&, const AsyncEvent&) = default;
};

[[nodiscard]] AsyncEvent decode_event(const ib_uverbs_async_event_desc& d);
[[nodiscard]] std::string_view event_type_name(std::uint32_t type);

// Wait up to `timeout` for the first event, then collect whatever else is
// already queued (up to `max` events in all).  An empty vector means the
// timeout passed with nothing to read.
[[nodiscard]] Result<std::vector<AsyncEvent>> read_events(int async_fd,
                                                          std::chrono::milliseconds timeout,
                                                          std::size_t max = 1024);
[[nodiscard]] inline Result<std::vector<AsyncEvent>> read_events(const ContextRef& ctx,
                                                   std::chrono::milliseconds timeout,
                                                   std::size_t max = 1024) {
  return read_events(ctx.async_fd, timeout, max);
}
// The next event, or nullopt after `timeout`.  Another reader, or an
// UNREG or DESTROY_QP that drops queued events, can empty the queue
// between poll(2) and read(2): on a blocking fd the read would then wait
// for the next event, so Context::open() makes its async fd non-blocking.
[[nodiscard]] Result<std::optional<AsyncEvent>> next_event(int async_fd,
                                                           std::chrono::milliseconds timeout);

}  // namespace xrcrcv
