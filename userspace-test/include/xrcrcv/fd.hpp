// RAII holder for a file descriptor.
#pragma once

#include <utility>

namespace xrcrcv {

class UniqueFd {
 public:
  UniqueFd() noexcept = default;
  explicit UniqueFd(int fd) noexcept : fd_(fd) {}
  UniqueFd(UniqueFd&& o) noexcept : fd_(std::exchange(o.fd_, -1)) {}
  UniqueFd& operator=(UniqueFd&& o) noexcept {
    if (this != &o) reset(std::exchange(o.fd_, -1));
    return *this;
  }
  UniqueFd(const UniqueFd&) = delete;
  UniqueFd& operator=(const UniqueFd&) = delete;
  ~UniqueFd() { reset(); }

  [[nodiscard]] int get() const noexcept { return fd_; }
  [[nodiscard]] explicit operator bool() const noexcept { return fd_ >= 0; }
  // Give up ownership without closing.
  [[nodiscard]] int release() noexcept { return std::exchange(fd_, -1); }
  // Close the current descriptor (errors ignored) and own `fd` instead.
  void reset(int fd = -1) noexcept;
  // Close now and report close(2)'s errno (0 on success).
  [[nodiscard]] int close() noexcept;

 private:
  int fd_ = -1;
};

}  // namespace xrcrcv
