// Error values and their formatting.
#include <xrcrcv/error.hpp>
#include <xrcrcv/uapi.h>

#include <gtest/gtest.h>

#include <cerrno>
#include <optional>
#include <sstream>
#include <string>
#include <type_traits>

namespace {

using namespace xrcrcv;

TEST(ErrorFormatting, CommandErrorNamesTheCommandItsNumberAndTheErrno) {
  const auto e = command_error(IB_USER_VERBS_CMD_REG_XRC_RCV_QP, EINVAL);
  EXPECT_EQ(e.errnum, EINVAL);
  EXPECT_EQ(e.command, 41U);
  EXPECT_EQ(e.what, "REG_XRC_RCV_QP");
  EXPECT_EQ(e.message(), "REG_XRC_RCV_QP (cmd 41): Invalid argument [EINVAL]");
}

TEST(ErrorFormatting, SystemCallErrorHasNoCommandNumber) {
  const auto e = sys_error("open", ENOENT);
  EXPECT_EQ(e.command, kNotACommand);
  EXPECT_EQ(e.message(), "open: No such file or directory [ENOENT]");
}

TEST(ErrorFormatting, EveryNewCommandHasAName) {
  EXPECT_EQ(command_name(42), "UNREG_XRC_RCV_QP");
  EXPECT_EQ(command_name(43), "MODIFY_XRC_RCV_QP");
  EXPECT_EQ(command_name(44), "QUERY_XRC_RCV_QP");
  EXPECT_EQ(command_name(IB_USER_VERBS_CMD_CLOSE_XRCD), "CLOSE_XRCD");
  EXPECT_EQ(command_name(49), "UNKNOWN");
}

TEST(ErrorFormatting, ErrnoNamesCoverTheContractsErrors) {
  EXPECT_EQ(errno_name(EINVAL), "EINVAL");
  EXPECT_EQ(errno_name(EFAULT), "EFAULT");
  EXPECT_EQ(errno_name(EBUSY), "EBUSY");
  EXPECT_EQ(errno_name(EOPNOTSUPP), "EOPNOTSUPP");
  EXPECT_EQ(errno_name(EOVERFLOW), "EOVERFLOW");
  EXPECT_EQ(errno_name(EIO), "EIO");
  EXPECT_EQ(errno_name(ENOSPC), "ENOSPC");
}

TEST(ErrorFormatting, UnknownErrnoKeepsItsNumber) {
  EXPECT_NE(sys_error("x", 4000).message().find("E?4000"), std::string::npos);
}

TEST(ErrorFormatting, StreamsAsItsMessage) {
  std::ostringstream os;
  os << command_error(IB_USER_VERBS_CMD_CLOSE_XRCD, EBUSY);
  EXPECT_EQ(os.str(), "CLOSE_XRCD (cmd 38): Device or resource busy [EBUSY]");
}

TEST(ErrorFormatting, ConvertsToAGenericErrorCode) {
  EXPECT_EQ(command_error(41, EFAULT).code(), std::errc::bad_address);
}

// Error::what used to be a string_view: a name built at run time dangled
// as soon as its string went.  It owns its text now.
static_assert(std::is_same_v<decltype(Error::what), std::string>, "Error::what owns its text");

TEST(ErrorLifetime, WhatOutlivesTheStringItWasMadeFrom) {
  Error e;
  {
    std::string name = "open " + std::string("/some/dynamic/path/uverbs0");
    e = sys_error(name, ENOENT);
    name.assign(name.size(), 'X');  // overwrite the buffer a view would see
  }
  EXPECT_EQ(e.what, "open /some/dynamic/path/uverbs0");
  EXPECT_EQ(e.message(), "open /some/dynamic/path/uverbs0: No such file or directory [ENOENT]");
}

TEST(ErrorLifetime, CopiesOutliveTheOriginal) {
  std::optional<Error> a = command_error(41, EINVAL);
  const Error b = *a;
  a.reset();
  EXPECT_EQ(b.what, "REG_XRC_RCV_QP");
  EXPECT_EQ(b.message(), "REG_XRC_RCV_QP (cmd 41): Invalid argument [EINVAL]");
}

TEST(ErrorFormatting, IoctlErrorNamesTheMethod) {
  const auto e = ioctl_error(IB_USER_VERBS_CMD_UNREG_XRC_RCV_QP, ENOENT);
  EXPECT_EQ(e.transport, Transport::ioctl);
  EXPECT_EQ(e.command, 42U);
  EXPECT_EQ(e.message(), "UNREG_XRC_RCV_QP (ioctl XRCD method 2): No such file or directory [ENOENT]");
  EXPECT_EQ(errno_name(EPROTONOSUPPORT), "EPROTONOSUPPORT");
  EXPECT_EQ(errno_name(EACCES), "EACCES");
}

TEST(ErrorResults, ErrnoOfIsZeroOnSuccessAndTheErrnoOnFailure) {
  Result<int> ok = 3;
  Result<int> bad = std::unexpected(command_error(42, EINVAL));
  EXPECT_EQ(errno_of(ok), 0);
  EXPECT_EQ(errno_of(bad), EINVAL);
}

}  // namespace
