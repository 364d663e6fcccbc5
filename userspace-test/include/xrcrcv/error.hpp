// Error model of xrcrcv: every fallible call returns std::expected, whose
// error carries the errno and the command (or system call) that failed.
#pragma once

#include <cstdint>
#include <expected>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>

#include <xrcrcv/transport.hpp>
#include <xrcrcv/uapi.h>

namespace xrcrcv {

// Pseudo command number for failures that are not a uverbs command
// (open(2) of the device, poll(2)/read(2) of the async fd, ...).
inline constexpr std::uint32_t kNotACommand = 0xffffffffU;

// Error::command of an ioctl method: this bit, the object id in bits
// 16-29 and the method id in bits 0-15.  Write command numbers are small,
// and extended ones set bit 31 alone, so the two never meet.
inline constexpr std::uint32_t kIoctlMethodBit = 0x40000000U;
[[nodiscard]] constexpr std::uint32_t ioctl_method_command(std::uint16_t object_id,
                                                           std::uint16_t method_id) {
  return kIoctlMethodBit | (std::uint32_t{object_id} & 0x3fffU) << 16 | method_id;
}
[[nodiscard]] constexpr bool is_ioctl_method_command(std::uint32_t command) {
  return command != kNotACommand && (command & 0xc0000000U) == kIoctlMethodBit;
}

// The four XRC receive-QP verbs, as Error::command names them: the XRCD
// methods (ioctl only; libibverbs' verbs send the same methods).
inline constexpr std::uint32_t kCmdRegXrcRcvQp =
    ioctl_method_command(UVERBS_OBJECT_XRCD, UVERBS_METHOD_XRCD_REG_RCV_QP);
inline constexpr std::uint32_t kCmdUnregXrcRcvQp =
    ioctl_method_command(UVERBS_OBJECT_XRCD, UVERBS_METHOD_XRCD_UNREG_RCV_QP);
inline constexpr std::uint32_t kCmdModifyXrcRcvQp =
    ioctl_method_command(UVERBS_OBJECT_XRCD, UVERBS_METHOD_XRCD_MODIFY_RCV_QP);
inline constexpr std::uint32_t kCmdQueryXrcRcvQp =
    ioctl_method_command(UVERBS_OBJECT_XRCD, UVERBS_METHOD_XRCD_QUERY_RCV_QP);

struct Error {
  int errnum = 0;                         // positive errno value
  // uverbs write command number (OPEN_XRCD, CREATE_QP, ...), or an ioctl
  // method's ioctl_method_command() (kCmdRegXrcRcvQp ...; over libibverbs
  // the method the verb sends), or kNotACommand.
  std::uint32_t command = kNotACommand;
  // "REG_XRC_RCV_QP", "open", ...; over libibverbs the verb's name.  Owned: an Error never points into a
  // caller's buffer (it used to be a string_view, which could dangle).
  std::string what;
  // How the call was made: ioctl or libibverbs; nullopt for a write(2)
  // command or another system call.
  std::optional<Transport> transport;

  // "OPEN_XRCD (cmd 37): Invalid argument [EINVAL]"
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
// Error for a failed ioctl method: `command` as ioctl_method_command()
// makes it (kCmdRegXrcRcvQp ...), or kNotACommand.
[[nodiscard]] Error ioctl_error(std::uint32_t command, int errnum);
// Error for a failed libibverbs verb (`verb`, e.g. "ibv_reg_xrc_rcv_qp")
// that does what `command` (a write command or kCmd*XrcRcvQp) does;
// Transport::verbs.
[[nodiscard]] Error verbs_error(std::uint32_t command, std::string_view verb, int errnum);
// Error for a failed system call or other operation; `what` is copied.
[[nodiscard]] Error sys_error(std::string_view what, int errnum);

// "GET_CONTEXT", "REG_XRC_RCV_QP" (kCmdRegXrcRcvQp), ...; "CMD_<n>" is
// not available as a view, so unknown numbers give "UNKNOWN".
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
