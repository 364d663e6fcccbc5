// Device and context: /dev/infiniband/uverbsN opened and GET_CONTEXT done.
#pragma once

#include <xrcrcv/error.hpp>
#include <xrcrcv/fd.hpp>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace xrcrcv {

inline constexpr const char* kDefaultDevice = "/dev/infiniband/uverbs0";

// The descriptors of one uverbs file, shared by the Context and by every
// object made through it: the file closes when the last of them goes, so
// an object that outlives its Context still sends its cleanup to the right
// file, never into whatever file reused the descriptor number.
struct FileHandles {
  UniqueFd async;  // declared first: the command fd closes first
  UniqueFd cmd;
  ~FileHandles() {
    // The command fd's close tears down the file's objects; then the
    // async event fd goes.
    cmd.reset();
    async.reset();
  }
};

// View of a uverbs file: the command fd and its async event fd.
// Everything that sends commands takes one of these, so a Context we own
// and an ibv_context owned by libibverbs (see ibverbs.hpp) work alike.
// A view made by Context::ref() also carries a share of the file
// (`keep`); objects that store the view keep the file open with it.  A
// bare view ({fd, fd}) owns nothing, and its file must outlive it.
struct ContextRef {
  int cmd_fd = -1;
  int async_fd = -1;
  std::shared_ptr<const FileHandles> keep;
  friend bool operator==(const ContextRef&, const ContextRef&) = default;
};

class Context;

// A uverbs character device node.
class Device {
 public:
  explicit Device(std::string path) : path_(std::move(path)) {}
  static Device index(unsigned n);  // /dev/infiniband/uverbs<n>
  // Device nodes present under /dev/infiniband, sorted by name.
  static std::vector<Device> list(const std::string& dir = "/dev/infiniband");

  [[nodiscard]] const std::string& path() const { return path_; }
  [[nodiscard]] bool exists() const;
  [[nodiscard]] Result<Context> open() const;

 private:
  std::string path_;
};

// One uverbs file with its ucontext: owns (a share of) the command fd and
// the async event fd.  All references (XRCDs, receive-QP registrations)
// made through it belong to this file and die with it.  Move-only.
class Context {
 public:
  // open(2) the device and send GET_CONTEXT.  `driver_resp_bytes` reserves
  // room after the response for drivers that answer with private data.
  [[nodiscard]] static Result<Context> open(const std::string& path = kDefaultDevice,
                                            std::size_t driver_resp_bytes = 0);
  // Take ownership of already set-up descriptors (no GET_CONTEXT); the
  // unit tests use this with pipes to capture what would be sent.
  [[nodiscard]] static Context adopt(UniqueFd cmd_fd, UniqueFd async_fd,
                                     std::uint32_t num_comp_vectors = 0);

  Context(Context&&) noexcept = default;
  Context& operator=(Context&&) noexcept = default;
  Context(const Context&) = delete;
  Context& operator=(const Context&) = delete;

  [[nodiscard]] ContextRef ref() const {
    if (!files_) return {};
    return {files_->cmd.get(), files_->async.get(), files_};
  }
  operator ContextRef() const { return ref(); }  // NOLINT: a view, by design
  [[nodiscard]] int cmd_fd() const { return files_ ? files_->cmd.get() : -1; }
  [[nodiscard]] int async_fd() const { return files_ ? files_->async.get() : -1; }
  [[nodiscard]] std::uint32_t num_comp_vectors() const { return num_comp_vectors_; }
  // Objects (and views) besides this Context that keep the file open.
  [[nodiscard]] long sharers() const { return files_ ? files_.use_count() - 1 : 0; }

  // Give up this Context's share now.  When no object made through it
  // holds the file any more, that closes both descriptors (dropping every
  // reference of the file) and returns close(2)'s first errno, 0 on
  // success; otherwise the file stays open for those objects and 0 is
  // returned.
  [[nodiscard]] int close() noexcept;

 private:
  Context(UniqueFd cmd, UniqueFd async, std::uint32_t ncv);
  std::shared_ptr<FileHandles> files_;
  std::uint32_t num_comp_vectors_ = 0;
};

}  // namespace xrcrcv
