// Error model of xrcrcv: every fallible call returns std::expected, whose
// error carries the errno and the command (or system call) that failed.
#pragma once

#include <cstdint>
#include <expected>
#include <iosfwd>
#include <string>
#include <string_view>
#include <system_error>

#include <xrcrcv/transport.hpp>

namespace xrcrcv {

// Pseudo command number for failures that are not a uverbs write command
// (open(2) of the device, poll(2)/read(2) of the async fd, ...).
inline constexpr std::uint32_t kNotACommand = 0xffffffffU;

struct Error {
  int errnum = 0;                         // positive errno value
  // uverbs write command number; over ioctl and libibverbs the number of
  // the write command that does the same (41-44), so callers can test it
  // alike.
  std::uint32_t command = kNotACommand;
  // "REG_XRC_RCV_QP", "open", ...; over libibverbs the verb's name.  Owned: an Error never points into a
  // caller's buffer (it used to be a string_view, which could dangle).
  std::string what;
  Transport transport = Transport::write;  // how the command was sent

  // "REG_XRC_RCV_QP (cmd 41): Invalid argument [EINVAL]"
  // "REG_XRC_RCV_QP (ioctl XRCD method 1): Invalid argument [EINVAL]"
  // "REG_XRC_RCV_QP (libibverbs ibv_reg_xrc_rcv_qp): Invalid argument [EINVAL]"
  [[nodiscard]] std::string message() const;
  [[nodiscard]] std::error_code code() const {
    return {errnum, std::generic_category()};
  }
  friend bool operator==(const Error&, const Error&) = default;
};

// Error for a failed uverbs write command; name from command_name().
[[nodiscard]] Error command_error(std::uint32_t command, int errnum);
// Error for a failed ioctl method that does what write command `command`
// does (kNotACommand for other methods).
[[nodiscard]] Error ioctl_error(std::uint32_t command, int errnum);
// Error for a failed libibverbs verb (`verb`, e.g. "ibv_reg_xrc_rcv_qp")
// that does what write command `command` does; Transport::verbs.
[[nodiscard]] Error verbs_error(std::uint32_t command, std::string_view verb, int errnum);
// Error for a failed system call or other operation; `what` is copied.
[[nodiscard]] Error sys_error(std::string_view what, int errnum);

// "GET_CONTEXT", "REG_XRC_RCV_QP", ...; "CMD_<n>" is not available as a
// view, so unknown numbers give "UNKNOWN".
[[nodiscard]] std::string_view command_name(std::uint32_t command);
// "EINVAL", "EFAULT", ...; "E?" for numbers outside the table.
[[nodiscard]] std::string_view errno_name(int errnum);

std::ostream& operator<<(std::ostream& os, const Error& e);

template <class T>
using Result = std::expected<T, Error>;
using Status = std::expected<void, Error>;

// Shorthand: the errno of a failed result, 0 on success.
template <class T>
[[nodiscard]] int errno_of(const std::expected<T, Error>& r) {
  return r ? 0 : r.error().errnum;
}

}  // namespace xrcrcv
