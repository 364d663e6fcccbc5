#include <xrcrcv/fd.hpp>

#include <cerrno>
#include <unistd.h>

namespace xrcrcv {

void UniqueFd::reset(int fd) noexcept {
  if (fd_ >= 0 && fd_ != fd) {
    // close(2) frees the descriptor even when it reports EINTR; no retry.
    ::close(fd_);
  }
  fd_ = fd;
}

int UniqueFd::close() noexcept {
  if (fd_ < 0) return 0;
  const int rc = ::close(std::exchange(fd_, -1));
  return rc == 0 ? 0 : errno;
}

}  // namespace xrcrcv
