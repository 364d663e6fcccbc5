#include <xrcrcv/error.hpp>
#include <xrcrcv/uapi.h>

#include <cerrno>
#include <cstring>
#include <ostream>

namespace xrcrcv {

std::string_view command_name(std::uint32_t command) {
  switch (command) {
    case IB_USER_VERBS_CMD_GET_CONTEXT: return "GET_CONTEXT";
    case IB_USER_VERBS_CMD_QUERY_DEVICE: return "QUERY_DEVICE";
    case IB_USER_VERBS_CMD_ALLOC_PD: return "ALLOC_PD";
    case IB_USER_VERBS_CMD_CREATE_QP: return "CREATE_QP";
    case IB_USER_VERBS_CMD_QUERY_QP: return "QUERY_QP";
    case IB_USER_VERBS_CMD_MODIFY_QP: return "MODIFY_QP";
    case IB_USER_VERBS_CMD_DESTROY_QP: return "DESTROY_QP";
    case IB_USER_VERBS_CMD_OPEN_XRCD: return "OPEN_XRCD";
    case IB_USER_VERBS_CMD_CLOSE_XRCD: return "CLOSE_XRCD";
    case IB_USER_VERBS_CMD_OPEN_QP: return "OPEN_QP";
    case kCmdRegXrcRcvQp: return "REG_XRC_RCV_QP";
    case kCmdUnregXrcRcvQp: return "UNREG_XRC_RCV_QP";
    case kCmdModifyXrcRcvQp: return "MODIFY_XRC_RCV_QP";
    case kCmdQueryXrcRcvQp: return "QUERY_XRC_RCV_QP";
    default: return "UNKNOWN";
  }
}

std::string_view errno_name(int e) {
  switch (e) {
    case 0: return "OK";
    case EPERM: return "EPERM";
    case ENOENT: return "ENOENT";
    case EINTR: return "EINTR";
    case EIO: return "EIO";
    case ENXIO: return "ENXIO";
    case EBADF: return "EBADF";
    case EAGAIN: return "EAGAIN";
    case ENOMEM: return "ENOMEM";
    case EACCES: return "EACCES";
    case EFAULT: return "EFAULT";
    case EBUSY: return "EBUSY";
    case EEXIST: return "EEXIST";
    case ENODEV: return "ENODEV";
    case EINVAL: return "EINVAL";
    case EMFILE: return "EMFILE";
    case ENOSPC: return "ENOSPC";
    case ENOSYS: return "ENOSYS";
    case EOVERFLOW: return "EOVERFLOW";
    case EPROTO: return "EPROTO";
    case EOPNOTSUPP: return "EOPNOTSUPP";
    case ETIMEDOUT: return "ETIMEDOUT";
    case ERANGE: return "ERANGE";
    case ESRCH: return "ESRCH";
    case ECHILD: return "ECHILD";
    case ENOTTY: return "ENOTTY";
    case EPROTONOSUPPORT: return "EPROTONOSUPPORT";
    default: return "E?";
  }
}

Error command_error(std::uint32_t command, int errnum) {
  return Error{errnum, command, std::string(command_name(command)), std::nullopt};
}

Error ioctl_error(std::uint32_t command, int errnum) {
  return Error{errnum, command,
               std::string(command_name(command) == "UNKNOWN" ? "IOCTL" : command_name(command)),
               Transport::ioctl};
}

Error verbs_error(std::uint32_t command, std::string_view verb, int errnum) {
  return Error{errnum, command, std::string(verb), Transport::verbs};
}

Error sys_error(std::string_view what, int errnum) {
  return Error{errnum, kNotACommand, std::string(what), std::nullopt};
}

std::string Error::message() const {
  std::string s(what.empty() ? std::string("?") : what);
  if (transport == Transport::verbs) {
    // `what` names the verb; the command, if any, says what it does.
    s = command == kNotACommand ? s + " (libibverbs)"
                                : std::string(command_name(command)) + " (libibverbs " + s + ")";
  } else if (transport == Transport::ioctl) {
    s += " (ioctl";
    if (is_ioctl_method_command(command)) {
      const auto object = (command >> 16) & 0x3fffU;
      s += object == UVERBS_OBJECT_XRCD ? std::string(" XRCD")
                                        : " object " + std::to_string(object);
      s += " method " + std::to_string(command & 0xffffU);
    }
    s += ")";
  } else if (command != kNotACommand) {
    s += " (cmd " + std::to_string(command) + ")";
  }
  s += ": ";
  s += std::strerror(errnum);
  s += " [";
  s += errno_name(errnum);
  if (errno_name(errnum) == "E?") s += std::to_string(errnum);
  s += "]";
  return s;
}

std::ostream& operator<<(std::ostream& os, const Error& e) { return os << e.message(); }

}  // namespace xrcrcv
