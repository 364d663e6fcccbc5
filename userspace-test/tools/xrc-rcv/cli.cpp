#include "cli.hpp"

#include "sim_debugfs.hpp"

#include <xrcrcv/xrcrcv.hpp>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <iostream>
#include <sstream>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

namespace xrcrcv::cli {

namespace {

using namespace std::chrono_literals;

std::string hexqpn(std::uint32_t q) {
  char b[32];
  std::snprintf(b, sizeof b, "0x%06x (%u)", q, q);
  return b;
}

std::optional<int> errno_from_name(std::string_view s) {
  for (int e = 1; e < 200; ++e)
    if (errno_name(e) == s) return e;
  if (auto v = parse_u32(s)) return static_cast<int>(*v);
  return std::nullopt;
}

std::optional<std::uint32_t> parse_event_type(std::string_view s) {
  if (auto v = parse_u32(s)) return *v;
  for (std::uint32_t t = 0; t < 32; ++t)
    if (event_type_name(t) == s) return t;
  return std::nullopt;
}

std::optional<QpAttrMask> parse_mask(std::string_view s) {
  if (auto v = parse_u32(s)) return mask_from_bits(*v);
  QpAttrMask m = QpAttrMask::None;
  std::size_t i = 0;
  while (i <= s.size()) {
    std::size_t j = s.find_first_of("|,", i);
    if (j == std::string_view::npos) j = s.size();
    const auto name = s.substr(i, j - i);
    bool found = false;
    for (unsigned b = 0; b < 21; ++b) {
      if (to_string(mask_from_bits(1U << b)) == name) {
        m |= mask_from_bits(1U << b);
        found = true;
      }
    }
    if (!found) return std::nullopt;
    i = j + 1;
  }
  return m;
}

bool file_exists(const std::string& p) {
  struct stat st {};
  return ::stat(p.c_str(), &st) == 0;
}

}  // namespace

void print_usage(std::ostream& o) {
  o << "usage: xrc-rcv [--device PATH] [--xrcd-file PATH] [--tag NAME] [--keep-going]\n"
       "               [--transport ioctl]         (the only one)\n"
       "               STEP [ARGS...]          run one step\n"
       "       xrc-rcv [opts] run \"STEP; STEP; ...\"   run a script in one context\n"
       "       xrc-rcv [opts] shell            read steps from stdin, line by line\n"
       "\n"
       "References belong to the uverbs file, so they live as long as this process:\n"
       "use `run`/`shell` to keep the context open across steps.\n"
       "\n"
       "steps (QPN: number, 0x-hex, @FILE holding a number, or omitted = last QP):\n"
       "  create                    REG without a QP number: new QP in RESET\n"
       "  reg QPN|new               REG: take one more reference (new: create)\n"
       "  unreg [QPN]               UNREG: drop one reference\n"
       "  query [QPN]               QUERY and print the attributes\n"
       "  modify [QPN] --state S [--port N --pkey-index N --access N --path-mtu N\n"
       "         --dest-qpn N --rq-psn N --sq-psn N --dlid N --sl N --qkey N\n"
       "         --max-dest-rd-atomic N --min-rnr-timer N --timeout N --mask M]\n"
       "                            MODIFY; without --mask the standard XRC TGT mask\n"
       "                            for the target state (init, rtr, rts, reset, err)\n"
       "  events [--timeout MS] [--count N]   print async events (default 1000 ms)\n"
       "  close-xrcd                CLOSE_XRCD now (EBUSY while references are held)\n"
       "  info                      print the context, XRCD and held references\n"
       "  counters                  print xrc_sim live_qps/live_xrcds (debugfs)\n"
       "  inject [QPN] TYPE         raise event TYPE (number or QP_FATAL...) via xrc_sim\n"
       "  expect ERRNO STEP...      run STEP, succeed only if it fails with ERRNO\n"
       "  save PATH                 write the last QP number to PATH\n"
       "  wait-file PATH [SEC]      wait until PATH exists (default 30 s)\n"
       "  touch PATH | echo TEXT | sleep SEC | hold (sleep until killed)\n"
       "  exit [N]                  stop; the uverbs file closes and the kernel drops\n"
       "                            every reference still held\n"
       "  kill9                     die by SIGKILL (references still dropped)\n"
       "\n"
       "environment: XRC_RCV_DEVICE, XRC_RCV_XRCD_FILE, XRC_SIM_DEBUGFS\n";
}

std::optional<int> parse_global_options(int argc, char** argv, Options& opts, std::ostream& err) {
  if (const char* e = std::getenv("XRC_RCV_DEVICE"); e && *e) opts.device = e;
  if (const char* e = std::getenv("XRC_RCV_XRCD_FILE"); e && *e) opts.xrcd_file = e;
  int i = 1;
  for (; i < argc; ++i) {
    const std::string_view a = argv[i];
    auto value = [&](const char* name) -> const char* {
      if (i + 1 >= argc) {
        err << "xrc-rcv: " << name << " needs a value\n";
        return nullptr;
      }
      return argv[++i];
    };
    if (a == "--device" || a == "-d") {
      const char* v = value("--device");
      if (!v) return std::nullopt;
      opts.device = v;
    } else if (a == "--xrcd-file" || a == "-x") {
      const char* v = value("--xrcd-file");
      if (!v) return std::nullopt;
      opts.xrcd_file = v;
    } else if (a == "--tag" || a == "-t") {
      const char* v = value("--tag");
      if (!v) return std::nullopt;
      opts.tag = v;
    } else if (a == "--transport" || a == "-T") {
      const char* v = value("--transport");
      if (!v) return std::nullopt;
      const std::string_view t(v);
      // The verbs go over ioctl only (series v4 removed the write
      // commands); the option stays so that scripts may name it.
      if (t == "ioctl") {
        opts.transport = Transport::ioctl;
      } else {
        err << "xrc-rcv: --transport is ioctl (the only one), not " << t << "\n";
        return std::nullopt;
      }
    } else if (a == "--keep-going" || a == "-k") {
      opts.keep_going = true;
    } else if (a == "--help" || a == "-h") {
      print_usage(err);
      return std::nullopt;
    } else if (a.starts_with("-") && a != "-") {
      err << "xrc-rcv: unknown option " << a << "\n";
      return std::nullopt;
    } else {
      break;
    }
  }
  return i;
}

Session::Session(Options opts, std::ostream& out, std::ostream& err)
    : opts_(std::move(opts)), out_(out), err_(err) {}

Session::~Session() {
  // Leave the references to the kernel: closing the file drops them all,
  // which is the behaviour this tool exists to show.
  std::size_t held = 0;
  for (auto& [qpn, v] : regs_) {
    for (auto& r : v) {
      r.release();
      ++held;
    }
  }
  if (xrcd_) xrcd_->release();
  if (ctx_) {
    if (held)
      line() << "closing uverbs file: the kernel drops " << held << " reference(s)\n";
    if (const int e = ctx_->close(); e != 0)
      line() << "closing uverbs file: " << sys_error("close", e).message() << "\n";
  }
  out_.flush();
}

std::ostream& Session::line() {
  if (!opts_.tag.empty()) out_ << "[" << opts_.tag << "] ";
  return out_;
}

int Session::fail(const Error& e) {
  last_errno_ = e.errnum;
  line() << "  -> error: " << e.message() << "\n";
  out_.flush();
  return 1;
}

std::size_t Session::refs(std::uint32_t qpn) const {
  auto it = regs_.find(qpn);
  return it == regs_.end() ? 0 : it->second.size();
}

int Session::ensure_open() {
  if (!ctx_) {
    auto c = Context::open(opts_.device);
    if (!c) {
      line() << "  cannot open uverbs device " << opts_.device << "\n";
      return fail(c.error());
    }
    ctx_.emplace(std::move(*c));
  }
  if (!xrcd_) {
    auto x = Xrcd::open(*ctx_, opts_.xrcd_file);
    if (!x) {
      line() << "  cannot open the XRCD of file " << opts_.xrcd_file << "\n";
      return fail(x.error());
    }
    xrcd_.emplace(std::move(*x));
  }
  return 0;
}

std::optional<std::uint32_t> Session::resolve_qpn(const std::vector<std::string>& w,
                                                  std::size_t i) {
  if (i >= w.size() || w[i].starts_with("--") || w[i] == "$") {
    if (!current_) err_ << "xrc-rcv: no QP number given and no current QP\n";
    return current_;
  }
  const std::string& a = w[i];
  if (a.starts_with("@")) {
    std::ifstream f(a.substr(1));
    std::string s;
    if (!(f >> s)) {
      err_ << "xrc-rcv: cannot read a QP number from " << a.substr(1) << "\n";
      return std::nullopt;
    }
    auto v = parse_u32(s);
    if (!v) err_ << "xrc-rcv: bad QP number in " << a.substr(1) << "\n";
    return v;
  }
  auto v = parse_u32(a);
  if (!v) err_ << "xrc-rcv: bad QP number " << a << "\n";
  return v;
}

int Session::step_create() {
  if (int rc = ensure_open()) return rc;
  auto r = RcvQpRegistration::create(*xrcd_, opts_.transport);
  if (!r) return fail(r.error());
  const auto qpn = r->qp_num();
  current_ = qpn;
  regs_[qpn].push_back(std::move(*r));
  auto st = regs_[qpn].back().state();
  line() << "  -> created qpn " << hexqpn(qpn) << ", state "
         << (st ? to_string(*st) : std::string_view("?")) << ", refs here " << refs(qpn) << "\n";
  return 0;
}

int Session::step_reg(const std::vector<std::string>& w) {
  // "new" creates; any number, 0xffffffff too, is a number to register
  if (w.size() > 1 && w[1] == "new") return step_create();
  auto q = resolve_qpn(w, 1);
  if (!q) return 2;
  if (int rc = ensure_open()) return rc;
  auto r = RcvQpRegistration::reg(*xrcd_, *q, opts_.transport);
  if (!r) return fail(r.error());
  current_ = *q;
  regs_[*q].push_back(std::move(*r));
  auto st = regs_[*q].back().state();
  line() << "  -> registered qpn " << hexqpn(*q) << ", state "
         << (st ? to_string(*st) : std::string_view("?")) << ", refs here " << refs(*q) << "\n";
  return 0;
}

int Session::step_unreg(const std::vector<std::string>& w) {
  auto q = resolve_qpn(w, 1);
  if (!q) return 2;
  if (int rc = ensure_open()) return rc;
  auto it = regs_.find(*q);
  if (it == regs_.end() || it->second.empty()) {
    // Not ours: send it anyway so the kernel's answer is visible.
    if (auto st = cmd::unreg_xrc_rcv_qp(*ctx_, xrcd_->handle(), *q, opts_.transport); !st) return fail(st.error());
    line() << "  -> unregistered qpn " << hexqpn(*q) << " (not tracked here)\n";
    return 0;
  }
  if (auto st = it->second.back().unreg(); !st) return fail(st.error());
  it->second.pop_back();
  if (it->second.empty()) regs_.erase(it);
  line() << "  -> unregistered qpn " << hexqpn(*q) << ", refs here " << refs(*q) << "\n";
  return 0;
}

int Session::step_query(const std::vector<std::string>& w) {
  auto q = resolve_qpn(w, 1);
  if (!q) return 2;
  if (int rc = ensure_open()) return rc;
  auto a = cmd::query_xrc_rcv_qp(*ctx_, xrcd_->handle(), *q, QpAttrMask::AllStandard,
                                opts_.transport);
  if (!a) return fail(a.error());
  line() << "  -> qpn " << hexqpn(*q) << ": " << describe(*a) << "\n";
  return 0;
}

int Session::step_modify(const std::vector<std::string>& w) {
  std::size_t i = 1;
  auto q = resolve_qpn(w, i);
  if (!q) return 2;
  if (i < w.size() && !w[i].starts_with("--")) ++i;

  std::optional<QpState> target;
  std::optional<QpAttrMask> mask;
  QpAttrMask extra = QpAttrMask::None;
  // Values given on the command line, applied after the defaults.
  std::vector<std::pair<std::string, std::string>> sets;
  for (; i < w.size(); ++i) {
    const std::string& o = w[i];
    if (i + 1 >= w.size()) {
      err_ << "xrc-rcv: modify: " << o << " needs a value\n";
      return 2;
    }
    const std::string& v = w[++i];
    if (o == "--state") {
      target = parse_qp_state(v);
      if (!target) {
        err_ << "xrc-rcv: modify: bad state " << v << "\n";
        return 2;
      }
    } else if (o == "--mask") {
      mask = parse_mask(v);
      if (!mask) {
        err_ << "xrc-rcv: modify: bad mask " << v << "\n";
        return 2;
      }
    } else {
      sets.emplace_back(o, v);
    }
  }
  if (!target) {
    err_ << "xrc-rcv: modify: --state is required\n";
    return 2;
  }
  QpModify m;
  switch (*target) {
    case QpState::Init: m = xrc_tgt_to_init(); break;
    case QpState::Rtr: m = xrc_tgt_to_rtr(); break;
    case QpState::Rts: m = xrc_tgt_to_rts(); break;
    default: m = to_state_only(*target); break;
  }
  for (auto& [o, v] : sets) {
    if (o == "--path-mtu") {
      auto mtu = parse_mtu(v);
      if (!mtu) {
        err_ << "xrc-rcv: modify: bad MTU " << v << "\n";
        return 2;
      }
      m.attr.path_mtu = *mtu;
      extra |= QpAttrMask::PathMtu;
      continue;
    }
    if (o == "--cur-state") {
      auto s = parse_qp_state(v);
      if (!s) return 2;
      m.attr.cur_qp_state = *s;
      extra |= QpAttrMask::CurState;
      continue;
    }
    auto n = parse_u32(v);
    if (!n) {
      err_ << "xrc-rcv: modify: bad number " << v << " for " << o << "\n";
      return 2;
    }
    const auto u8 = static_cast<std::uint8_t>(*n);
    if (o == "--port") { m.attr.port_num = u8; m.attr.ah_attr.port_num = u8; extra |= QpAttrMask::Port; }
    else if (o == "--pkey-index") { m.attr.pkey_index = static_cast<std::uint16_t>(*n); extra |= QpAttrMask::PkeyIndex; }
    else if (o == "--access") { m.attr.qp_access_flags = *n; extra |= QpAttrMask::AccessFlags; }
    else if (o == "--dest-qpn") { m.attr.dest_qp_num = *n; extra |= QpAttrMask::DestQpn; }
    else if (o == "--rq-psn") { m.attr.rq_psn = *n; extra |= QpAttrMask::RqPsn; }
    else if (o == "--sq-psn") { m.attr.sq_psn = *n; extra |= QpAttrMask::SqPsn; }
    else if (o == "--dlid") { m.attr.ah_attr.dlid = static_cast<std::uint16_t>(*n); extra |= QpAttrMask::Av; }
    else if (o == "--sl") { m.attr.ah_attr.sl = u8; extra |= QpAttrMask::Av; }
    else if (o == "--qkey") { m.attr.qkey = *n; extra |= QpAttrMask::Qkey; }
    else if (o == "--max-dest-rd-atomic") { m.attr.max_dest_rd_atomic = u8; extra |= QpAttrMask::MaxDestRdAtomic; }
    else if (o == "--min-rnr-timer") { m.attr.min_rnr_timer = u8; extra |= QpAttrMask::MinRnrTimer; }
    else if (o == "--timeout") { m.attr.timeout = u8; extra |= QpAttrMask::Timeout; }
    else {
      err_ << "xrc-rcv: modify: unknown option " << o << "\n";
      return 2;
    }
  }
  // An option the standard mask lacks is sent too; --mask overrides all.
  const QpAttrMask send_mask = mask ? *mask : (m.mask | extra);
  if (int rc = ensure_open()) return rc;
  line() << "  modify qpn " << hexqpn(*q) << " to " << to_string(m.attr.qp_state) << " mask "
         << to_string(send_mask) << "\n";
  if (auto st = cmd::modify_xrc_rcv_qp(*ctx_, xrcd_->handle(), *q, m.attr, send_mask,
                                         opts_.transport);
      !st)
    return fail(st.error());
  auto a = cmd::query_xrc_rcv_qp(*ctx_, xrcd_->handle(), *q, QpAttrMask::State, opts_.transport);
  line() << "  -> ok, state now " << (a ? to_string(a->qp_state) : std::string_view("?"))
         << "\n";
  return 0;
}

int Session::step_events(const std::vector<std::string>& w) {
  long timeout_ms = 1000;
  std::size_t count = 1024;
  for (std::size_t i = 1; i + 1 < w.size(); i += 2) {
    auto n = parse_u32(w[i + 1]);
    if (!n) return 2;
    if (w[i] == "--timeout") timeout_ms = *n;
    else if (w[i] == "--count") count = *n;
    else return 2;
  }
  if (int rc = ensure_open()) return rc;
  auto evs = read_events(*ctx_, std::chrono::milliseconds(timeout_ms), count);
  if (!evs) return fail(evs.error());
  line() << "  -> " << evs->size() << " event(s)\n";
  for (const auto& e : *evs) line() << "     " << e.describe() << "\n";
  return 0;
}

int Session::step_close_xrcd() {
  if (int rc = ensure_open()) return rc;
  if (auto st = xrcd_->close(); !st) return fail(st.error());
  xrcd_.reset();
  line() << "  -> XRCD closed (the next step opens it again)\n";
  return 0;
}

int Session::step_counters() {
  sim::Debugfs d;
  if (!d.has_counters()) {
    line() << "  -> no xrc_sim counters at " << d.dir() << "\n";
    return 0;
  }
  auto q = d.live_qps();
  auto x = d.live_xrcds();
  if (!q) return fail(q.error());
  if (!x) return fail(x.error());
  line() << "  -> xrc_sim live_qps=" << *q << " live_xrcds=" << *x << "\n";
  return 0;
}

int Session::step_inject(const std::vector<std::string>& w) {
  std::optional<std::uint32_t> q;
  std::optional<std::uint32_t> type;
  if (w.size() >= 3) {
    q = resolve_qpn(w, 1);
    type = parse_event_type(w[2]);
  } else if (w.size() == 2) {
    q = current_;
    type = parse_event_type(w[1]);
  }
  if (!q || !type) {
    err_ << "xrc-rcv: inject [QPN] TYPE\n";
    return 2;
  }
  if (auto st = sim::Debugfs().inject_event(*q, *type); !st) return fail(st.error());
  line() << "  -> injected " << event_type_name(*type) << " on qpn " << hexqpn(*q) << "\n";
  return 0;
}

int Session::step_expect(const std::vector<std::string>& w) {
  if (w.size() < 3) {
    err_ << "xrc-rcv: expect ERRNO STEP...\n";
    return 2;
  }
  auto want = errno_from_name(w[1]);
  if (!want) {
    err_ << "xrc-rcv: expect: unknown errno " << w[1] << "\n";
    return 2;
  }
  last_errno_ = 0;
  Step inner{std::vector<std::string>(w.begin() + 2, w.end())};
  const int rc = run_step(inner);
  if (rc == 2) return 2;
  if (rc == 0) {
    line() << "  -> expected " << w[1] << " but the step succeeded\n";
    return 1;
  }
  if (last_errno_ != *want) {
    line() << "  -> expected " << w[1] << " but got " << errno_name(last_errno_) << "\n";
    return 1;
  }
  line() << "  -> failed with " << w[1] << " as expected\n";
  return 0;
}

int Session::step_info() {
  if (int rc = ensure_open()) return rc;
  line() << "  -> device " << opts_.device << " cmd_fd " << ctx_->cmd_fd() << " async_fd "
         << ctx_->async_fd() << ", xrcd file " << opts_.xrcd_file << " handle "
         << xrcd_->handle() << "\n";
  for (const auto& [q, v] : regs_)
    line() << "     holds " << v.size() << " reference(s) on qpn " << hexqpn(q) << "\n";
  return 0;
}

int Session::run_step(const Step& step) {
  const auto& w = step.words;
  if (w.empty()) return 0;
  const std::string& c = w[0];
  if (c != "expect") {
    line() << c;
    for (std::size_t i = 1; i < w.size(); ++i) out_ << ' ' << w[i];
    out_ << "\n";
  }
  int rc = 0;
  if (c == "create") rc = step_create();
  else if (c == "reg") rc = step_reg(w);
  else if (c == "unreg") rc = step_unreg(w);
  else if (c == "query") rc = step_query(w);
  else if (c == "modify") rc = step_modify(w);
  else if (c == "events") rc = step_events(w);
  else if (c == "close-xrcd") rc = step_close_xrcd();
  else if (c == "counters") rc = step_counters();
  else if (c == "inject") rc = step_inject(w);
  else if (c == "expect") rc = step_expect(w);
  else if (c == "info") rc = step_info();
  else if (c == "save" && w.size() == 2) {
    if (!current_) {
      err_ << "xrc-rcv: save: no current QP\n";
      return 2;
    }
    const std::string tmp = w[1] + ".tmp";
    {
      std::ofstream f(tmp);
      f << *current_ << "\n";
      if (!f) return fail(sys_error("write", EIO));
    }
    if (std::rename(tmp.c_str(), w[1].c_str()) != 0) return fail(sys_error("rename", errno));
  } else if (c == "touch" && w.size() == 2) {
    const int fd = ::open(w[1].c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) return fail(sys_error("open", errno));
    ::close(fd);
  } else if (c == "echo") {
    line() << " ";
    for (std::size_t i = 1; i < w.size(); ++i) out_ << ' ' << w[i];
    out_ << "\n";
  } else if (c == "sleep" && w.size() == 2) {
    out_.flush();
    std::this_thread::sleep_for(std::chrono::duration<double>(std::strtod(w[1].c_str(), nullptr)));
  } else if (c == "wait-file" && (w.size() == 2 || w.size() == 3)) {
    const double secs = w.size() == 3 ? std::strtod(w[2].c_str(), nullptr) : 30.0;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(secs);
    while (!file_exists(w[1])) {
      if (std::chrono::steady_clock::now() > deadline) return fail(sys_error("wait-file", ETIMEDOUT));
      std::this_thread::sleep_for(20ms);
    }
  } else if (c == "hold") {
    out_.flush();
    for (;;) ::pause();
  } else if (c == "exit") {
    exit_code_ = w.size() > 1 ? std::atoi(w[1].c_str()) : 0;
  } else if (c == "kill9") {
    out_.flush();
    ::raise(SIGKILL);
  } else if (c == "help") {
    print_usage(out_);
  } else {
    err_ << "xrc-rcv: unknown step or wrong arguments: " << c << "\n";
    rc = 2;
  }
  out_.flush();
  return rc;
}

int Session::run_steps(const std::vector<Step>& steps) {
  int worst = 0;
  for (const auto& s : steps) {
    const int rc = run_step(s);
    if (rc) {
      worst = std::max(worst, rc);
      if (!opts_.keep_going) return rc;
    }
    if (exit_requested()) return exit_code();
  }
  return worst;
}

int Session::run_stream(std::istream& in) {
  int worst = 0;
  std::string text;
  while (std::getline(in, text)) {
    const int rc = run_steps(parse_script(text));
    if (exit_requested()) return exit_code();
    if (rc) {
      worst = std::max(worst, rc);
      if (!opts_.keep_going) return rc;
    }
  }
  return worst;
}

int main_entry(int argc, char** argv) {
  Options opts;
  auto first = parse_global_options(argc, argv, opts, std::cerr);
  if (!first) return 2;
  int i = *first;
  if (i >= argc) {
    print_usage(std::cerr);
    return 2;
  }
  const std::string_view mode = argv[i];
  int rc = 0;
  {
    Session s(opts, std::cout, std::cerr);
    if (mode == "run") {
      std::string script;
      for (int j = i + 1; j < argc; ++j) {
        if (!script.empty()) script += ' ';
        script += argv[j];
      }
      if (script == "-") rc = s.run_stream(std::cin);
      else rc = s.run_steps(parse_script(script));
    } else if (mode == "shell") {
      rc = s.run_stream(std::cin);
    } else {
      Step step;
      for (int j = i; j < argc; ++j) step.words.emplace_back(argv[j]);
      rc = s.run_step(step);
      if (s.exit_requested()) rc = s.exit_code();
    }
  }
  return rc;
}

}  // namespace xrcrcv::cli
