// Objects share ownership of their uverbs file: whatever order things are
// destroyed in, cleanup reaches the file the object was made on and never
// a file that reused its descriptor number.  (Seen before the fix: the
// Context went first, a fresh file got the number, and the registration's
// UNREG wrote 12 bytes into it.)  The UNREG is an ioctl now: on the pipe
// it is captured (ioctl_capture.c) as a record of kCmdUnregXrcRcvQp; on a
// regular file that reused the number it would fail, unseen, so what is
// checked is that the pipe, not the fresh file, got it.
#include <xrcrcv/xrcrcv.hpp>

#include <gtest/gtest.h>

#include <cerrno>
#include <cstdlib>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace {

using namespace xrcrcv;

// A regular file opened now: it takes the lowest free descriptor number.
UniqueFd fresh_file() {
  char path[] = "/tmp/xrcrcv-fd-reuse-XXXXXX";
  UniqueFd fd(::mkstemp(path));
  ::unlink(path);
  return fd;
}

off_t size_of(const UniqueFd& fd) {
  struct stat st {};
  return ::fstat(fd.get(), &st) == 0 ? st.st_size : -1;
}

// The commands that reached the pipe, by number, up to EOF (-1 if the
// pipe is still open for writing, i.e. no EOF).
std::vector<std::uint32_t> drain(const UniqueFd& rd, bool* eof) {
  std::vector<std::uint32_t> cmds;
  *eof = false;
  for (;;) {
    ib_uverbs_cmd_hdr h{};
    const ssize_t n = ::read(rd.get(), &h, sizeof h);
    if (n == 0) {
      *eof = true;
      break;
    }
    if (n != static_cast<ssize_t>(sizeof h)) break;
    cmds.push_back(h.command);
    std::vector<std::byte> body(h.in_words * 4U - sizeof h);
    if (!body.empty() && ::read(rd.get(), body.data(), body.size()) < 0) break;
  }
  return cmds;
}

class SharedOwnership : public ::testing::Test {
 protected:
  void SetUp() override {
    int p[2];
    ASSERT_EQ(::pipe2(p, O_NONBLOCK | O_CLOEXEC), 0);
    rd_.reset(p[0]);
    cmd_number_ = p[1];
    ctx_.emplace(Context::adopt(UniqueFd(p[1]), UniqueFd()));
  }
  UniqueFd rd_;
  int cmd_number_ = -1;
  std::optional<Context> ctx_;
};

TEST_F(SharedOwnership, ObjectsThatOutliveTheContextNeverWriteIntoAReusedDescriptor) {
  auto x = Xrcd::open_fd(*ctx_, -1, O_CREAT);  // OPEN_XRCD "succeeds" on a pipe
  ASSERT_TRUE(x);
  auto r = RcvQpRegistration::adopt(x->ref(), 0x42);
  EXPECT_EQ(ctx_->sharers(), 2);
  ctx_.reset();  // the Context goes first

  // Had the Context closed the descriptor, this file would now have its
  // number, and the cleanup below would write into it.
  UniqueFd fresh = fresh_file();
  ASSERT_TRUE(fresh);
  EXPECT_NE(fresh.get(), cmd_number_) << "the command fd was closed under its objects";

  { auto gone = std::move(r); }   // UNREG
  { auto gone = std::move(*x); }  // CLOSE_XRCD, then the last share closes the pipe
  EXPECT_EQ(size_of(fresh), 0) << "cleanup wrote into a file that is not the uverbs file";
  bool eof = false;
  const auto cmds = drain(rd_, &eof);
  const std::vector<std::uint32_t> want = {IB_USER_VERBS_CMD_OPEN_XRCD,
                                           kCmdUnregXrcRcvQp,
                                           IB_USER_VERBS_CMD_CLOSE_XRCD};
  EXPECT_EQ(cmds, want);
  EXPECT_TRUE(eof) << "the last object's destruction must close the file";
}

TEST_F(SharedOwnership, ExplicitContextCloseKeepsTheFileOpenForItsObjects) {
  auto r = RcvQpRegistration::adopt({ctx_->ref(), 1}, 0x7);
  EXPECT_EQ(ctx_->close(), 0);
  EXPECT_EQ(ctx_->cmd_fd(), -1);
  UniqueFd fresh = fresh_file();
  EXPECT_NE(fresh.get(), cmd_number_);
  ASSERT_TRUE(r.unreg());  // still reaches the pipe
  EXPECT_EQ(size_of(fresh), 0);
  bool eof = false;
  EXPECT_EQ(drain(rd_, &eof), std::vector<std::uint32_t>{kCmdUnregXrcRcvQp});
  EXPECT_TRUE(eof) << "a successful unreg leaves nothing to send: the share goes";
}

TEST_F(SharedOwnership, ContextCloseWithoutObjectsClosesTheFileNow) {
  EXPECT_EQ(ctx_->sharers(), 0);
  EXPECT_EQ(ctx_->close(), 0);
  bool eof = false;
  EXPECT_TRUE(drain(rd_, &eof).empty());
  EXPECT_TRUE(eof);
}

TEST_F(SharedOwnership, ReleasedObjectsDoNotHoldTheFileOpen) {
  auto r = RcvQpRegistration::adopt({ctx_->ref(), 1}, 0x7);
  auto x = Xrcd::open_fd(*ctx_, -1, O_CREAT);
  ASSERT_TRUE(x);
  EXPECT_EQ(r.release(), 0x7U);
  (void)x->release();
  EXPECT_EQ(ctx_->sharers(), 0);
  EXPECT_EQ(ctx_->close(), 0);
  bool eof = false;
  EXPECT_EQ(drain(rd_, &eof), std::vector<std::uint32_t>{IB_USER_VERBS_CMD_OPEN_XRCD});
  EXPECT_TRUE(eof);
}

TEST_F(SharedOwnership, MovedContextKeepsTheShareAndTheObjectsWork) {
  auto r = RcvQpRegistration::adopt({ctx_->ref(), 1}, 0x8);
  Context moved = std::move(*ctx_);
  ctx_.reset();
  EXPECT_EQ(moved.sharers(), 1);
  ASSERT_TRUE(r.unreg());
  bool eof = false;
  EXPECT_EQ(drain(rd_, &eof), std::vector<std::uint32_t>{kCmdUnregXrcRcvQp});
  EXPECT_FALSE(eof);  // `moved` still holds it
}

TEST(BareViews, OwnNothing) {
  const ContextRef v{5, 6, nullptr};
  EXPECT_EQ(v.keep, nullptr);
  EXPECT_EQ(Context::adopt(UniqueFd(), UniqueFd()).ref().keep.use_count(), 2);
}

}  // namespace
