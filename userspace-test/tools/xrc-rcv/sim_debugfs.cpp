#include "sim_debugfs.hpp"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <string>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

namespace xrcrcv::sim {

namespace {
bool exists(const std::string& p) {
  struct stat st {};
  return ::stat(p.c_str(), &st) == 0;
}
constexpr long kDebugfsMagic = 0x64626720;
}  // namespace

std::string Debugfs::default_dir() {
  if (const char* e = std::getenv("XRC_SIM_DEBUGFS"); e && *e) return e;
  return "/sys/kernel/debug/xrc_sim";
}

void Debugfs::ensure_mounted() {
  if (exists(default_dir())) return;
  struct statfs sf {};
  if (::statfs("/sys/kernel/debug", &sf) == 0 && static_cast<long>(sf.f_type) == kDebugfsMagic)
    return;
  (void)::mount("debugfs", "/sys/kernel/debug", "debugfs", 0, nullptr);
}

bool Debugfs::has_counters() const {
  return exists(dir_ + "/live_qps") && exists(dir_ + "/live_xrcds");
}

bool Debugfs::has_inject() const { return exists(dir_ + "/inject_event"); }

Result<long> Debugfs::read_counter(const std::string& name) const {
  const std::string path = dir_ + "/" + name;
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return std::unexpected(sys_error("open debugfs counter", errno));
  char buf[64] = {};
  const ssize_t n = ::read(fd, buf, sizeof buf - 1);
  const int err = errno;
  ::close(fd);
  if (n < 0) return std::unexpected(sys_error("read debugfs counter", err));
  char* end = nullptr;
  errno = 0;
  const long v = std::strtol(buf, &end, 10);
  if (end == buf || errno) return std::unexpected(sys_error("parse debugfs counter", EPROTO));
  return v;
}

Status Debugfs::inject_event(std::uint32_t qp_num, std::uint32_t event_type) const {
  const std::string path = dir_ + "/inject_event";
  const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) return std::unexpected(sys_error("open inject_event", errno));
  const std::string line = std::to_string(qp_num) + " " + std::to_string(event_type) + "\n";
  const ssize_t n = ::write(fd, line.data(), line.size());
  const int err = errno;
  ::close(fd);
  if (n < 0) return std::unexpected(sys_error("write inject_event", err));
  if (static_cast<std::size_t>(n) != line.size())
    return std::unexpected(sys_error("write inject_event", EIO));
  return {};
}

bool Debugfs::has_modify_udata() const { return exists(dir_ + "/modify_qp_udata"); }

namespace {
Result<std::string> read_small_file(const std::string& path, const char* what) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return std::unexpected(sys_error(std::string("open ") + what, errno));
  char buf[256] = {};
  const ssize_t n = ::read(fd, buf, sizeof buf - 1);
  const int err = errno;
  ::close(fd);
  if (n < 0) return std::unexpected(sys_error(std::string("read ") + what, err));
  return std::string(buf, static_cast<std::size_t>(n));
}
}  // namespace

// "calls 3\nudata present\ninlen 0\noutlen 0\n" (udata: present or null)
Result<ModifyUdata> Debugfs::modify_udata() const {
  auto text = read_small_file(dir_ + "/modify_qp_udata", "modify_qp_udata");
  if (!text) return std::unexpected(text.error());
  ModifyUdata u;
  int seen = 0;
  std::size_t pos = 0;
  while (pos < text->size()) {
    const auto eol = text->find('\n', pos);
    const std::string line = text->substr(pos, eol == std::string::npos ? eol : eol - pos);
    pos = eol == std::string::npos ? text->size() : eol + 1;
    const auto sp = line.find(' ');
    if (sp == std::string::npos) continue;
    const std::string key = line.substr(0, sp), val = line.substr(sp + 1);
    if (key == "udata") {
      u.null = val == "null";
      ++seen;
    } else if (key == "calls" || key == "inlen" || key == "outlen") {
      const long v = std::strtol(val.c_str(), nullptr, 10);
      (key == "calls" ? u.calls : key == "inlen" ? u.inlen : u.outlen) = v;
      ++seen;
    }
  }
  if (seen != 4) return std::unexpected(sys_error("parse modify_qp_udata", EPROTO));
  return u;
}

Status Debugfs::clear_modify_udata() const {
  const std::string path = dir_ + "/modify_qp_udata";
  const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) return std::unexpected(sys_error("open modify_qp_udata", errno));
  const ssize_t n = ::write(fd, "0\n", 2);
  const int err = errno;
  ::close(fd);
  if (n != 2) return std::unexpected(sys_error("write modify_qp_udata", n < 0 ? err : EIO));
  return {};
}

Result<bool> Debugfs::xrc_enabled(const std::string& param) {
  auto text = read_small_file(param, "xrc_sim parameter xrc");
  if (!text) return std::unexpected(text.error());
  if (text->starts_with("Y") || text->starts_with("1")) return true;
  if (text->starts_with("N") || text->starts_with("0")) return false;
  return std::unexpected(sys_error("parse xrc_sim parameter xrc", EPROTO));
}

}  // namespace xrcrcv::sim
