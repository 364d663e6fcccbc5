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
  const auto e = command_error(IB_USER_VERBS_CMD_OPEN_XRCD, EINVAL);
  EXPECT_EQ(e.errnum, EINVAL);
  EXPECT_EQ(e.command, 37U);
  EXPECT_EQ(e.what, "OPEN_XRCD");
  EXPECT_FALSE(e.transport.has_value());  // a write(2) command
  EXPECT_EQ(e.message(), "OPEN_XRCD (cmd 37): Invalid argument [EINVAL]");
}

// Series v4 removed the write commands 41-44: the numbers name nothing
// here any more, and the four verbs are named by their XRCD methods.
TEST(ErrorFormatting, TheFormerWriteCommandNumbersNameNothing) {
  for (std::uint32_t c : {41U, 42U, 43U, 44U}) EXPECT_EQ(command_name(c), "UNKNOWN") << c;
}

TEST(ErrorFormatting, TheFourVerbsAreIoctlMethodCommandsOfTheXrcd) {
  EXPECT_EQ(kCmdRegXrcRcvQp, ioctl_method_command(UVERBS_OBJECT_XRCD, 1));
  EXPECT_EQ(kCmdUnregXrcRcvQp, ioctl_method_command(UVERBS_OBJECT_XRCD, 2));
  EXPECT_EQ(kCmdModifyXrcRcvQp, ioctl_method_command(UVERBS_OBJECT_XRCD, 3));
  EXPECT_EQ(kCmdQueryXrcRcvQp, ioctl_method_command(UVERBS_OBJECT_XRCD, 4));
  for (std::uint32_t c : {kCmdRegXrcRcvQp, kCmdUnregXrcRcvQp, kCmdModifyXrcRcvQp,
                          kCmdQueryXrcRcvQp}) {
    EXPECT_TRUE(is_ioctl_method_command(c));
    EXPECT_GT(c, 0xffffU) << "never a write command number";
    EXPECT_EQ(c & 0x80000000U, 0U) << "never an extended write command";
  }
  EXPECT_FALSE(is_ioctl_method_command(IB_USER_VERBS_CMD_OPEN_XRCD));
  EXPECT_FALSE(is_ioctl_method_command(kNotACommand));
}

TEST(ErrorFormatting, SystemCallErrorHasNoCommandNumber) {
  const auto e = sys_error("open", ENOENT);
  EXPECT_EQ(e.command, kNotACommand);
  EXPECT_EQ(e.message(), "open: No such file or directory [ENOENT]");
}

TEST(ErrorFormatting, EveryNewCommandHasAName) {
  EXPECT_EQ(command_name(kCmdRegXrcRcvQp), "REG_XRC_RCV_QP");
  EXPECT_EQ(command_name(kCmdUnregXrcRcvQp), "UNREG_XRC_RCV_QP");
  EXPECT_EQ(command_name(kCmdModifyXrcRcvQp), "MODIFY_XRC_RCV_QP");
  EXPECT_EQ(command_name(kCmdQueryXrcRcvQp), "QUERY_XRC_RCV_QP");
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
  EXPECT_EQ(ioctl_error(kCmdRegXrcRcvQp, EFAULT).code(), std::errc::bad_address);
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
  std::optional<Error> a = ioctl_error(kCmdRegXrcRcvQp, EINVAL);
  const Error b = *a;
  a.reset();
  EXPECT_EQ(b.what, "REG_XRC_RCV_QP");
  EXPECT_EQ(b.message(), "REG_XRC_RCV_QP (ioctl XRCD method 1): Invalid argument [EINVAL]");
}

TEST(ErrorFormatting, IoctlErrorNamesTheMethod) {
  const auto e = ioctl_error(kCmdUnregXrcRcvQp, ENOENT);
  EXPECT_EQ(e.transport, Transport::ioctl);
  EXPECT_EQ(e.command, kCmdUnregXrcRcvQp);
  EXPECT_EQ(e.message(), "UNREG_XRC_RCV_QP (ioctl XRCD method 2): No such file or directory [ENOENT]");
  EXPECT_EQ(errno_name(EPROTONOSUPPORT), "EPROTONOSUPPORT");
  EXPECT_EQ(errno_name(EACCES), "EACCES");
  EXPECT_EQ(ioctl_error(ioctl_method_command(UVERBS_OBJECT_QP, 7), EINVAL).message(),
            "IOCTL (ioctl object " + std::to_string(UVERBS_OBJECT_QP) +
                " method 7): Invalid argument [EINVAL]");
}

TEST(ErrorResults, ErrnoOfIsZeroOnSuccessAndTheErrnoOnFailure) {
  Result<int> ok = 3;
  Result<int> bad = std::unexpected(ioctl_error(kCmdUnregXrcRcvQp, EINVAL));
  EXPECT_EQ(errno_of(ok), 0);
  EXPECT_EQ(errno_of(bad), EINVAL);
}

}  // namespace
