// Device and context: /dev/infiniband/uverbsN opened and GET_CONTEXT done.
#pragma once

#include <xrcrcv/error.hpp>
#include <xrcrcv/fd.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace xrcrcv {

inline constexpr const char* kDefaultDevice = "/dev/infiniband/uverbs0";

// Non-owning view of a uverbs file: the command fd and its async event fd.
// Everything that sends commands takes one of these, so a Context we own
// and an ibv_context owned by libibverbs (see ibverbs.hpp) work alike.
// The file must outlive the view.
struct ContextRef {
  int cmd_fd = -1;
  int async_fd = -1;
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

// One uverbs file with its ucontext: owns the command fd and the async
// event fd.  All references (XRCDs, receive-QP registrations) made through
// it belong to this file and die with it.  Move-only.
class Context {
 public:
  // open(2) the device and send GET_CONTEXT.  `driver_resp_bytes` reserves
  // room after the response for drivers that answer with private data.
  static Result<Context> open(const std::string& path = kDefaultDevice,
                              std::size_t driver_resp_bytes = 0);
  // Take ownership of already set-up descriptors (no GET_CONTEXT); the
  // unit tests use this with pipes to capture what would be sent.
  static Context adopt(UniqueFd cmd_fd, UniqueFd async_fd, std::uint32_t num_comp_vectors = 0);

  Context(Context&&) noexcept = default;
  Context& operator=(Context&&) noexcept = default;

  [[nodiscard]] ContextRef ref() const { return {cmd_.get(), async_.get()}; }
  operator ContextRef() const { return ref(); }  // NOLINT: a view, by design
  [[nodiscard]] int cmd_fd() const { return cmd_.get(); }
  [[nodiscard]] int async_fd() const { return async_.get(); }
  [[nodiscard]] std::uint32_t num_comp_vectors() const { return num_comp_vectors_; }

  // Close both descriptors now (drops every reference of the file);
  // returns close(2)'s first errno, 0 on success.
  int close() noexcept;

 private:
  Context(UniqueFd cmd, UniqueFd async, std::uint32_t ncv)
      : async_(std::move(async)), cmd_(std::move(cmd)), num_comp_vectors_(ncv) {}
  // Declared in this order so the command fd closes first (that close
  // tears down the file's objects), then the async event fd.
  UniqueFd async_;
  UniqueFd cmd_;
  std::uint32_t num_comp_vectors_ = 0;
};

}  // namespace xrcrcv
