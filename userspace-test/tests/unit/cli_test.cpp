// xrc-rcv's step language and the steps that need no device.
#include "cli.hpp"
#include "script.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <sstream>

namespace {

using namespace xrcrcv::cli;

TEST(CliScript, StepsSplitOnSemicolonsAndNewlines) {
  const auto s = parse_script("create; save /tmp/q\nsleep 1;;  query  ");
  ASSERT_EQ(s.size(), 4U);
  EXPECT_EQ(s[0].words, (std::vector<std::string>{"create"}));
  EXPECT_EQ(s[1].words, (std::vector<std::string>{"save", "/tmp/q"}));
  EXPECT_EQ(s[2].words, (std::vector<std::string>{"sleep", "1"}));
  EXPECT_EQ(s[3].words, (std::vector<std::string>{"query"}));
}

TEST(CliScript, CommentsRunToTheEndOfTheLine) {
  const auto s = parse_script("create # new QP; not a step\nquery");
  ASSERT_EQ(s.size(), 2U);
  EXPECT_EQ(s[0].words, (std::vector<std::string>{"create"}));
  EXPECT_EQ(s[1].words, (std::vector<std::string>{"query"}));
}

TEST(CliScript, NumbersAreDecimalOrHex) {
  EXPECT_EQ(parse_u32("18"), 18U);
  EXPECT_EQ(parse_u32("0x12"), 18U);
  EXPECT_EQ(parse_u32("0xffffffff"), 0xffffffffU);
  EXPECT_FALSE(parse_u32("0x"));
  EXPECT_FALSE(parse_u32("12z"));
  EXPECT_FALSE(parse_u32("4294967296"));
}

class CliSession : public ::testing::Test {
 protected:
  Options opts() {
    Options o;
    o.device = "/nonexistent/uverbs0";
    o.xrcd_file = "/tmp/xrc-cli-unit.xrcd";
    o.tag = "T";
    return o;
  }
  int run(const std::string& script) {
    Session s(opts(), out_, err_);
    return s.run_steps(parse_script(script));
  }
  std::ostringstream out_, err_;
};

TEST_F(CliSession, EveryLineCarriesTheTag) {
  EXPECT_EQ(run("echo hello"), 0);
  EXPECT_EQ(out_.str(), "[T] echo hello\n[T]   hello\n");
}

TEST_F(CliSession, MissingDeviceFailsTheStepWithEnoent) {
  EXPECT_EQ(run("create"), 1);
  EXPECT_NE(out_.str().find("[ENOENT]"), std::string::npos);
  EXPECT_NE(out_.str().find("/nonexistent/uverbs0"), std::string::npos);
}

TEST_F(CliSession, ExpectPassesWhenTheStepFailsWithThatErrno) {
  EXPECT_EQ(run("expect ENOENT create"), 0);
  EXPECT_NE(out_.str().find("failed with ENOENT as expected"), std::string::npos);
}

TEST_F(CliSession, ExpectFailsWhenTheErrnoDiffers) {
  EXPECT_EQ(run("expect EINVAL create"), 1);
  EXPECT_NE(out_.str().find("but got ENOENT"), std::string::npos);
}

TEST_F(CliSession, ScriptStopsAtTheFirstFailedStep) {
  EXPECT_EQ(run("create; echo unreachable"), 1);
  EXPECT_EQ(out_.str().find("unreachable"), std::string::npos);
}

TEST_F(CliSession, KeepGoingRunsPastFailures) {
  auto o = opts();
  o.keep_going = true;
  Session s(o, out_, err_);
  EXPECT_EQ(s.run_steps(parse_script("create; echo reached")), 1);
  EXPECT_NE(out_.str().find("reached"), std::string::npos);
}

TEST_F(CliSession, ExitStopsTheScriptWithItsCode) {
  EXPECT_EQ(run("exit 3; echo unreachable"), 3);
  EXPECT_EQ(out_.str().find("unreachable"), std::string::npos);
}

TEST_F(CliSession, UnknownStepIsAUsageError) {
  EXPECT_EQ(run("frobnicate"), 2);
  EXPECT_NE(err_.str().find("frobnicate"), std::string::npos);
}

TEST_F(CliSession, QueryWithoutAnyQpIsAUsageError) {
  EXPECT_EQ(run("query"), 2);
}

TEST_F(CliSession, ModifyNeedsATargetState) {
  EXPECT_EQ(run("modify 5 --port 1"), 2);
  EXPECT_NE(err_.str().find("--state"), std::string::npos);
}

TEST_F(CliSession, ModifyRejectsAnUnknownMaskName) {
  EXPECT_EQ(run("modify 5 --state init --mask STATE|BOGUS"), 2);
}

TEST_F(CliSession, QpNumberCanComeFromAFile) {
  const std::string path = "/tmp/xrc-cli-unit-qpn";
  {
    std::ofstream f(path);
    f << "0x2a\n";
  }
  // The number resolves; the step then fails only for lack of a device.
  EXPECT_EQ(run("expect ENOENT reg @" + path), 0);
  std::remove(path.c_str());
}

TEST_F(CliSession, StdinModeRunsLineByLineUntilExit) {
  std::istringstream in("echo one\nexit 0\necho two\n");
  Session s(opts(), out_, err_);
  EXPECT_EQ(s.run_stream(in), 0);
  EXPECT_NE(out_.str().find("one"), std::string::npos);
  EXPECT_EQ(out_.str().find("two"), std::string::npos);
}

TEST(CliOptions, GlobalOptionsPrecedeTheStep) {
  const char* argv[] = {"xrc-rcv", "--device", "/dev/x", "--xrcd-file", "/tmp/f", "--tag", "B",
                        "query", "5"};
  Options o;
  std::ostringstream err;
  auto i = parse_global_options(9, const_cast<char**>(argv), o, err);
  ASSERT_TRUE(i);
  EXPECT_EQ(*i, 7);
  EXPECT_EQ(o.device, "/dev/x");
  EXPECT_EQ(o.xrcd_file, "/tmp/f");
  EXPECT_EQ(o.tag, "B");
}

TEST(CliOptions, TransportIsIoctlTheOnlyOne) {
  Options o;
  std::ostringstream err;
  EXPECT_EQ(o.transport, xrcrcv::Transport::ioctl);
  const char* argv[] = {"xrc-rcv", "--transport", "ioctl", "info"};
  auto i = parse_global_options(4, const_cast<char**>(argv), o, err);
  ASSERT_TRUE(i);
  EXPECT_EQ(*i, 3);
  EXPECT_EQ(o.transport, xrcrcv::Transport::ioctl);
  const char* bad[] = {"xrc-rcv", "--transport", "carrier-pigeon", "info"};
  EXPECT_FALSE(parse_global_options(4, const_cast<char**>(bad), o, err));
  // series v3's write commands are gone: refused, not silently ioctl
  const char* gone[] = {"xrc-rcv", "--transport", "write", "info"};
  EXPECT_FALSE(parse_global_options(4, const_cast<char**>(gone), o, err));
}

TEST(CliOptions, UnknownOptionIsRejected) {
  const char* argv[] = {"xrc-rcv", "--bogus"};
  Options o;
  std::ostringstream err;
  EXPECT_FALSE(parse_global_options(2, const_cast<char**>(argv), o, err));
}

}  // namespace
