#include <xrcrcv/events.hpp>

#include "detail.hpp"

#include <algorithm>
#include <array>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <poll.h>
#include <unistd.h>

namespace xrcrcv {

std::string_view event_type_name(std::uint32_t type) {
  static constexpr std::array<std::string_view, 20> kNames = {
      "CQ_ERR",        "QP_FATAL",      "QP_REQ_ERR",        "QP_ACCESS_ERR",
      "COMM_EST",      "SQ_DRAINED",    "PATH_MIG",          "PATH_MIG_ERR",
      "DEVICE_FATAL",  "PORT_ACTIVE",   "PORT_ERR",          "LID_CHANGE",
      "PKEY_CHANGE",   "SM_CHANGE",     "SRQ_ERR",           "SRQ_LIMIT_REACHED",
      "QP_LAST_WQE_REACHED", "CLIENT_REREGISTER", "GID_CHANGE", "WQ_FATAL"};
  return type < kNames.size() ? kNames[type] : std::string_view("UNKNOWN");
}

std::string AsyncEvent::describe() const {
  char buf[128];
  const auto name = event_type_name(type());
  if (is_xrc_rcv())
    std::snprintf(buf, sizeof buf, "XRC_RCV qp 0x%06llx %.*s(%u)",
                  static_cast<unsigned long long>(element), static_cast<int>(name.size()),
                  name.data(), type());
  else
    std::snprintf(buf, sizeof buf, "element 0x%llx %.*s(%u)",
                  static_cast<unsigned long long>(element), static_cast<int>(name.size()),
                  name.data(), type());
  return buf;
}

AsyncEvent decode_event(const ib_uverbs_async_event_desc& d) {
  return AsyncEvent{d.element, d.event_type, d.reserved};
}

// poll(2) for input; true when readable, false on timeout.
Result<bool> detail::wait_readable(int fd, std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    pollfd p{fd, POLLIN, 0};
    const int rc = ::poll(&p, 1, static_cast<int>(std::max<long long>(0, left.count())));
    if (rc < 0) {
      if (errno == EINTR) continue;
      return std::unexpected(sys_error("poll", errno));
    }
    if (rc == 0) return false;
    if (p.revents & POLLNVAL) return std::unexpected(sys_error("poll", EBADF));
    // POLLERR/POLLHUP: let read(2) report what happened.
    return true;
  }
}

namespace {
// nullopt: nothing to read after all (EAGAIN on a non-blocking fd).
Result<std::optional<AsyncEvent>> read_one(int fd) {
  ib_uverbs_async_event_desc d{};
  for (;;) {
    const ssize_t n = ::read(fd, &d, sizeof d);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno == EAGAIN) return std::optional<AsyncEvent>{};
    if (n < 0) return std::unexpected(sys_error("read", errno));
    if (n != static_cast<ssize_t>(sizeof d)) return std::unexpected(sys_error("read", EPROTO));
    return std::optional<AsyncEvent>{decode_event(d)};
  }
}
}  // namespace

// The queue can empty between poll(2) and read(2): another reader of the
// file took the event, or an UNREG, DESTROY_QP or close dropped it with
// its registration or QP, as the kernel does. On a non-blocking fd (what
// Context::open() makes) the read then says EAGAIN and the wait goes on
// for what is left of the timeout; a blocking read would wait for the next
// event, however long that is.
Result<std::optional<AsyncEvent>> next_event(int async_fd, std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    const auto left = std::max(std::chrono::milliseconds(0),
                               std::chrono::duration_cast<std::chrono::milliseconds>(
                                   deadline - std::chrono::steady_clock::now()));
    auto ready = detail::wait_readable(async_fd, left);
    if (!ready) return std::unexpected(ready.error());
    if (!*ready) return std::optional<AsyncEvent>{};
    auto ev = read_one(async_fd);
    if (!ev || *ev || left.count() == 0) return ev;
  }
}

Result<std::vector<AsyncEvent>> read_events(int async_fd, std::chrono::milliseconds timeout,
                                            std::size_t max) {
  std::vector<AsyncEvent> out;
  auto wait = timeout;
  while (out.size() < max) {
    auto ev = next_event(async_fd, wait);
    if (!ev) return std::unexpected(ev.error());
    if (!*ev) break;
    out.push_back(**ev);
    wait = std::chrono::milliseconds(0);  // drain what is already queued
  }
  return out;
}

}  // namespace xrcrcv
