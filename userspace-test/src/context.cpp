#include <xrcrcv/commands.hpp>
#include <xrcrcv/context.hpp>

#include "detail.hpp"

#include <algorithm>
#include <cerrno>
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace xrcrcv {

Device Device::index(unsigned n) {
  return Device("/dev/infiniband/uverbs" + std::to_string(n));
}

std::vector<Device> Device::list(const std::string& dir) {
  std::vector<std::string> names;
  if (DIR* d = ::opendir(dir.c_str())) {
    while (const dirent* e = ::readdir(d)) {
      const std::string_view n(e->d_name);
      if (n.starts_with("uverbs")) names.emplace_back(n);
    }
    ::closedir(d);
  }
  std::ranges::sort(names);
  std::vector<Device> out;
  for (auto& n : names) out.emplace_back(dir + "/" + n);
  return out;
}

bool Device::exists() const {
  struct stat st {};
  return ::stat(path_.c_str(), &st) == 0 && S_ISCHR(st.st_mode);
}

Result<Context> Device::open() const { return Context::open(path_); }

Result<Context> Context::open(const std::string& path, std::size_t driver_resp_bytes) {
  UniqueFd fd(::open(path.c_str(), O_RDWR | O_CLOEXEC));
  if (!fd) return std::unexpected(sys_error("open", errno));

  // Response plus optional room for driver private data, 8-byte aligned.
  std::vector<std::uint64_t> resp_buf(
      (sizeof(ib_uverbs_get_context_resp) + driver_resp_bytes + 7) / 8, 0);
  constexpr std::uint32_t kNoFd = 0xffffffffU;
  std::memcpy(resp_buf.data(), &kNoFd, sizeof kNoFd);
  ib_uverbs_get_context cmd{};
  cmd.response = wire::user_ptr(resp_buf.data());
  const ContextRef tmp{fd.get(), -1, nullptr};
  if (auto st = detail::execute(tmp, IB_USER_VERBS_CMD_GET_CONTEXT, wire::as_bytes(cmd),
                                resp_buf.size() * 8);
      !st)
    return std::unexpected(st.error());
  ib_uverbs_get_context_resp resp{};
  std::memcpy(&resp, resp_buf.data(), sizeof resp);
  // A file that swallows writes (not uverbs) leaves the sentinel in place;
  // never adopt a descriptor number the kernel did not give us.
  if (resp.async_fd == kNoFd) return std::unexpected(command_error(IB_USER_VERBS_CMD_GET_CONTEXT, EPROTO));
  UniqueFd async(static_cast<int>(resp.async_fd));
  // Never block in read(2) on an emptied queue (see next_event())
  const int fl = ::fcntl(async.get(), F_GETFL);
  if (fl < 0 || ::fcntl(async.get(), F_SETFL, fl | O_NONBLOCK) < 0)
    return std::unexpected(sys_error("fcntl", errno));
  return Context(std::move(fd), std::move(async), resp.num_comp_vectors);
}

Context::Context(UniqueFd cmd, UniqueFd async, std::uint32_t ncv)
    : files_(std::make_shared<FileHandles>()), num_comp_vectors_(ncv) {
  files_->cmd = std::move(cmd);
  files_->async = std::move(async);
}

Context Context::adopt(UniqueFd cmd_fd, UniqueFd async_fd, std::uint32_t num_comp_vectors) {
  return Context(std::move(cmd_fd), std::move(async_fd), num_comp_vectors);
}

int Context::close() noexcept {
  if (!files_) return 0;
  if (files_.use_count() > 1) {
    files_.reset();  // the objects that share the file close it
    return 0;
  }
  const int e1 = files_->cmd.close();
  const int e2 = files_->async.close();
  files_.reset();
  return e1 ? e1 : e2;
}

}  // namespace xrcrcv
