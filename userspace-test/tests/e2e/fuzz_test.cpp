// A seeded fuzzer over the four commands.  Each call gets random handles,
// numbers, attributes, lengths, reserved fields, trailing bytes and
// response pointers.  A model of this file's references predicts the
// outcome of every well-formed REG/UNREG/QUERY; malformed calls must fail
// with an errno from the contract and change nothing, which the xrc_sim
// counters and the final unwinding verify.
//   XRC_E2E_FUZZ_ITERATIONS (100000), XRC_E2E_SEED (20240611)
#include "support.hpp"

#include <cstdio>
#include <map>
#include <random>
#include <set>
#include <sstream>
#include <sys/mman.h>

namespace xrc_e2e {
namespace {

constexpr std::uint32_t k2Pow24 = 1U << 24;

struct Held {
  std::uint32_t xrcd = 0;
  long refs = 0;
};

class Fuzzer {
 public:
  Fuzzer(Peer& me, std::uint32_t x2, std::vector<std::uint32_t> others, std::uint64_t seed)
      : me_(me), x2_(x2), others_(others.begin(), others.end()), rng_(seed) {
    ro_ = ::mmap(nullptr, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (ro_ == MAP_FAILED) throw SetupFailure("mmap");
  }
  ~Fuzzer() { ::munmap(ro_, 4096); }

  // One random call; returns a description of a broken expectation.
  std::optional<std::string> step();

  [[nodiscard]] std::size_t own_live() const {
    std::size_t n = 0;
    for (auto& [q, h] : model_)
      if (!others_.contains(q)) ++n;
    return n;
  }
  std::map<std::uint32_t, Held>& model() { return model_; }
  [[nodiscard]] const std::map<std::string, long>& stats() const { return stats_; }

 private:
  std::uint32_t u32() { return static_cast<std::uint32_t>(rng_()); }
  bool chance(unsigned percent) { return rng_() % 100 < percent; }
  template <class C>
  auto pick(const C& c) {
    auto it = c.begin();
    std::advance(it, static_cast<long>(rng_() % c.size()));
    return *it;
  }

  std::uint32_t pick_xrcd() {
    const auto r = rng_() % 10;
    if (r < 7) return me_.h();
    if (r < 9) return x2_;
    return u32();
  }
  std::uint32_t pick_qpn() {
    const auto r = rng_() % 100;
    if (r < 25 && model_.size() < 48) return IB_UVERBS_XRC_RCV_QPN_NEW;
    if (r < 60 && !model_.empty()) return pick(model_).first;
    if (r < 75) return pick(others_);
    if (r < 85 && !dead_.empty()) return pick(dead_);
    if (r < 95) return u32() % k2Pow24;
    return u32() | k2Pow24;
  }
  [[nodiscard]] bool valid_xrcd(std::uint32_t x) const { return x == me_.h() || x == x2_; }
  // Xrcd of a live receive QP with this number, if any is known.
  [[nodiscard]] std::optional<std::uint32_t> live_xrcd_of(std::uint32_t q) const {
    if (auto it = model_.find(q); it != model_.end()) return it->second.xrcd;
    if (others_.contains(q)) return me_.h();
    return std::nullopt;
  }
  [[nodiscard]] bool holds(std::uint32_t x, std::uint32_t q) const {
    auto it = model_.find(q);
    return it != model_.end() && it->second.xrcd == x && it->second.refs > 0;
  }

  // The mutations of one call.
  struct Shape {
    bool truncate = false;
    std::size_t keep = 0;
    std::vector<std::byte> trailing;
    bool trailing_nonzero = false;
    bool bad_response = false;
    bool short_out = false;
  };
  // `min_size`: a body shorter than this is incomplete (truncation keeps
  // less); trailing bytes go after `body_size`.
  Shape shape(std::size_t body_size, bool has_response, std::size_t min_size);
  Status send(std::uint32_t command, std::span<const std::byte> body, std::size_t resp_bytes,
              const Shape& s);
  std::uint64_t response_addr(void* good, const Shape& s) {
    if (!s.bad_response) return wire::user_ptr(good);
    return chance(50) ? 0 : wire::user_ptr(ro_);
  }

  std::optional<std::string> check_failure_errno(const Status& r, const std::string& what);

  Peer& me_;
  std::uint32_t x2_;
  std::set<std::uint32_t> others_;
  std::map<std::uint32_t, Held> model_;
  std::set<std::uint32_t> dead_;
  std::mt19937_64 rng_;
  void* ro_ = nullptr;
  std::map<std::string, long> stats_;
};

Fuzzer::Shape Fuzzer::shape(std::size_t body_size, bool has_response, std::size_t min_size) {
  (void)body_size;
  Shape s;
  if (chance(8)) {
    s.truncate = true;
    s.keep = (rng_() % (min_size / 4)) * 4;  // shorter, still whole words
    return s;
  }
  if (chance(15)) {
    s.trailing.resize(8 * (1 + rng_() % 8));
    if (chance(50)) {
      s.trailing[rng_() % s.trailing.size()] = std::byte{static_cast<unsigned char>(1 + rng_() % 255)};
      s.trailing_nonzero = true;
    }
  }
  if (has_response) {
    s.bad_response = chance(5);
    s.short_out = chance(5);
  }
  return s;
}

Status Fuzzer::send(std::uint32_t command, std::span<const std::byte> body,
                    std::size_t resp_bytes, const Shape& s) {
  const std::size_t out = s.short_out ? (rng_() % (resp_bytes / 4)) * 4 : resp_bytes;
  if (s.truncate) return raw::send(me_.ctx, command, body.first(s.keep), static_cast<std::uint16_t>(out / 4));
  return raw::send(me_.ctx, command, body, static_cast<std::uint16_t>(out / 4), s.trailing);
}

std::optional<std::string> Fuzzer::check_failure_errno(const Status& r, const std::string& what) {
  if (r) return std::nullopt;
  switch (r.error().errnum) {
    case EINVAL:
    case EFAULT:
    case ENOSPC:
    case ENOMEM:
    case EOVERFLOW:
      return std::nullopt;
    default:
      return what + ": errno outside the contract: " + r.error().message();
  }
}

std::optional<std::string> Fuzzer::step() {
  std::uint32_t command = IB_USER_VERBS_CMD_REG_XRC_RCV_QP + static_cast<std::uint32_t>(rng_() % 4);
  std::uint32_t x = pick_xrcd();
  std::uint32_t q = pick_qpn();
  // Keep reference counts small: a REG of a QP already held often becomes
  // an UNREG of it.  Every step makes exactly one call.
  if (command == IB_USER_VERBS_CMD_REG_XRC_RCV_QP && holds(x, q) && model_[q].refs > 16)
    command = IB_USER_VERBS_CMD_UNREG_XRC_RCV_QP;

  std::ostringstream d;
  d << command_name(command) << " xrcd=" << x << " qpn=0x" << std::hex << q << std::dec;
  std::optional<std::string> err;
  Status r;
  bool well_formed = true;
  std::optional<std::uint32_t> new_qpn;
  bool query_unknown_mask = false;

  switch (command) {
    case IB_USER_VERBS_CMD_REG_XRC_RCV_QP: {
      ib_uverbs_reg_xrc_rcv_qp_resp resp{};
      auto s = shape(sizeof(ib_uverbs_reg_xrc_rcv_qp), true, sizeof(ib_uverbs_reg_xrc_rcv_qp));
      auto c = wire::make_reg(x, q, nullptr);
      c.response = response_addr(&resp, s);
      r = send(command, wire::as_bytes(c), sizeof resp, s);
      well_formed = !s.truncate && !s.trailing_nonzero && !s.bad_response && !s.short_out;
      d << (s.truncate ? " truncated" : "") << (s.trailing_nonzero ? " tail!=0" : "")
        << (s.bad_response ? " badresp" : "") << (s.short_out ? " shortout" : "");
      if (r) new_qpn = resp.qp_num;
      break;
    }
    case IB_USER_VERBS_CMD_UNREG_XRC_RCV_QP: {
      auto s = shape(sizeof(ib_uverbs_unreg_xrc_rcv_qp), false, sizeof(ib_uverbs_unreg_xrc_rcv_qp));
      r = send(command, wire::as_bytes(wire::make_unreg(x, q)), 0, s);
      well_formed = !s.truncate && !s.trailing_nonzero;
      d << (s.truncate ? " truncated" : "") << (s.trailing_nonzero ? " tail!=0" : "");
      break;
    }
    case IB_USER_VERBS_CMD_MODIFY_XRC_RCV_QP: {
      ib_uverbs_modify_xrc_rcv_qp c{};
      if (chance(50)) {
        static const QpModify kMods[] = {xrc_tgt_to_init(), xrc_tgt_to_rtr(), xrc_tgt_to_rts(),
                                         to_state_only(QpState::Reset),
                                         to_state_only(QpState::Err)};
        auto m = kMods[rng_() % std::size(kMods)];
        if (chance(20)) m.mask |= mask_from_bits(1U << (rng_() % 32));
        c = encode_modify_xrc_rcv_qp(x, q, m.attr, m.mask);
      } else {
        auto* p = reinterpret_cast<unsigned char*>(&c);
        for (std::size_t i = 0; i < 116; ++i) p[i] = static_cast<unsigned char>(rng_());
        c.xrcd_handle = x;
        c.qp_num = q;
        c.reserved[0] = c.reserved[1] = 0;
      }
      bool reserved_bad = false;
      if (chance(5)) {
        const auto which = rng_() % 3;
        if (which < 2)
          c.reserved[which] = static_cast<__u8>(1 + rng_() % 255);
        else
          c.reserved2 = 1U << (rng_() % 32);  // v3's explicit reserved2
        reserved_bad = true;
      }
      // The whole 120-byte struct (fields end at 116, then reserved2).
      auto s = shape(sizeof c, false, sizeof c);
      r = send(command, wire::as_bytes(c), 0, s);
      well_formed = !s.truncate && !s.trailing_nonzero && !reserved_bad;
      d << " mask=" << to_string(mask_from_bits(c.attr_mask)) << " state=" << int(c.qp_state)
        << (reserved_bad ? " reserved!=0" : "") << (s.truncate ? " truncated" : "")
        << (s.trailing_nonzero ? " tail!=0" : "");
      break;
    }
    case IB_USER_VERBS_CMD_QUERY_XRC_RCV_QP: {
      ib_uverbs_query_qp_resp resp{};
      auto s = shape(sizeof(ib_uverbs_query_xrc_rcv_qp), true, sizeof(ib_uverbs_query_xrc_rcv_qp));
      const std::uint32_t mask = chance(80) ? to_bits(QpAttrMask::AllStandard) & u32() : u32();
      auto c = wire::make_query(x, q, mask, nullptr);
      c.response = response_addr(&resp, s);
      const bool reserved_bad = chance(5);
      if (reserved_bad) c.reserved = 1 + u32() % 0xffff;
      r = send(command, wire::as_bytes(c), sizeof resp, s);
      well_formed = !s.truncate && !s.trailing_nonzero && !s.bad_response && !s.short_out &&
                    !reserved_bad;
      d << " mask=0x" << std::hex << mask << std::dec << (reserved_bad ? " reserved!=0" : "")
        << (s.truncate ? " truncated" : "") << (s.trailing_nonzero ? " tail!=0" : "")
        << (s.bad_response ? " badresp" : "") << (s.short_out ? " shortout" : "");
      if (r && well_formed && resp.qp_state > 6)
        err = d.str() + ": query answered state " + std::to_string(resp.qp_state);
      query_unknown_mask = (mask & ~to_bits(QpAttrMask::AllStandard)) != 0;
      break;
    }
  }
  const std::string what = d.str();
  stats_[std::string(command_name(command)) + (r ? " ok" : " " + std::string(errno_name(r.error().errnum)))]++;
  if (err) return err;
  if (auto e = check_failure_errno(r, what)) return e;

  const bool is_reg = command == IB_USER_VERBS_CMD_REG_XRC_RCV_QP;
  const bool is_unreg = command == IB_USER_VERBS_CMD_UNREG_XRC_RCV_QP;
  const bool is_query = command == IB_USER_VERBS_CMD_QUERY_XRC_RCV_QP;

  if (!well_formed) {
    if (r) return what + ": malformed call succeeded";
    return std::nullopt;
  }
  if (query_unknown_mask) {
    // The contract leaves QUERY's attr_mask to uverbs' convention (which
    // ignores it): a holder may get an answer or EINVAL, others EINVAL.
    if (r && !holds(x, q)) return what + ": succeeded without a reference";
    if (!r && r.error().errnum != EINVAL) return what + ": " + r.error().message();
    return std::nullopt;
  }

  const bool xrcd_ok = valid_xrcd(x);
  const auto live = live_xrcd_of(q);
  if (is_reg) {
    if (q == IB_UVERBS_XRC_RCV_QPN_NEW && xrcd_ok) {
      if (!r) {
        if (r.error().errnum == ENOMEM) return std::nullopt;  // device full
        return what + ": create failed: " + r.error().message();
      }
      if (*new_qpn >= k2Pow24) return what + ": new number >= 2^24";
      if (model_.contains(*new_qpn) || others_.contains(*new_qpn))
        return what + ": new number already live";
      model_[*new_qpn] = Held{x, 1};
      dead_.erase(*new_qpn);
      return std::nullopt;
    }
    if (xrcd_ok && live && *live == x && q < k2Pow24) {
      if (!r) return what + ": register of a live QP failed: " + r.error().message();
      auto& h = model_[q];
      h.xrcd = x;
      ++h.refs;
      return std::nullopt;
    }
    if (r) return what + ": register succeeded, expected EINVAL";
    if (r.error().errnum != EINVAL) return what + ": " + r.error().message() + ", expected EINVAL";
    return std::nullopt;
  }
  if (is_unreg) {
    if (holds(x, q)) {
      if (!r) return what + ": unreg of a held reference failed: " + r.error().message();
      if (--model_[q].refs == 0) {
        model_.erase(q);
        if (!others_.contains(q)) dead_.insert(q);
      }
      return std::nullopt;
    }
    if (r) return what + ": unreg without a reference succeeded";
    if (r.error().errnum != EINVAL) return what + ": " + r.error().message() + ", expected EINVAL";
    return std::nullopt;
  }
  // MODIFY and QUERY: only for a holder; the answer of a holder's MODIFY
  // depends on the QP's state, so only its errno is checked.
  if (!holds(x, q)) {
    if (r) return what + ": succeeded without a reference";
    if (r.error().errnum != EINVAL) return what + ": " + r.error().message() + ", expected EINVAL";
    return std::nullopt;
  }
  if (is_query && !r) return what + ": holder's query failed: " + r.error().message();
  if (!r && r.error().errnum != EINVAL) return what + ": " + r.error().message();
  return std::nullopt;
}

class Fuzz : public E2eTest {};

TEST_F(Fuzz, RandomCallsKeepTheReferenceModelAndLeaveNothingBehind) {
  REQUIRE_COUNTERS();
  const long iterations = std::max(1L, env_long("XRC_E2E_FUZZ_ITERATIONS", 100000));
  const auto seed = static_cast<std::uint64_t>(env_long("XRC_E2E_SEED", 20240611));
  RecordProperty("seed", std::to_string(seed));
  RecordProperty("iterations", std::to_string(iterations));
  const long base = live_qps();

  const std::string file2 = temp_xrcd_path();
  auto other = Peer::open(xrcd_file_);
  std::vector<std::uint32_t> others;
  for (int i = 0; i < 3; ++i) others.push_back(MUST(other.create()));
  auto me = Peer::open(xrcd_file_);
  auto x2 = MUST(Xrcd::open(me.ctx, file2));

  Fuzzer fz(me, x2.handle(), others, seed);
  int failures = 0;
  for (long i = 0; i < iterations && failures < 10; ++i) {
    if (auto e = fz.step()) {
      ADD_FAILURE() << "iteration " << i << " (seed " << seed << "): " << *e;
      ++failures;
    }
    if (i % 2000 == 1999 || i == iterations - 1) {
      const long expect = base + static_cast<long>(others.size() + fz.own_live());
      const long got = live_qps();
      if (got != expect) {
        ADD_FAILURE() << "after iteration " << i << ": live_qps " << got << ", model says "
                      << expect;
        ++failures;
      }
    }
  }
  for (auto& [k, v] : fz.stats()) std::printf("[  FUZZ    ] %-28s %ld\n", k.c_str(), v);

  // Unwind exactly the references the model says this file holds.
  for (auto& [q, h] : fz.model()) {
    for (long n = 0; n < h.refs; ++n)
      ASSERT_OK(cmd::unreg_xrc_rcv_qp(me.ctx, h.xrcd, q)) << "qpn " << q << " ref " << n;
    EXPECT_ERRNO(cmd::unreg_xrc_rcv_qp(me.ctx, h.xrcd, q), EINVAL) << "qpn " << q;
  }
  EXPECT_EQ(wait_live_qps(base + 3), base + 3);
  EXPECT_OK(x2.close());
  EXPECT_OK(me.xrcd.close());
  for (auto q : others) ASSERT_OK(other.unreg(q));
  EXPECT_EQ(wait_live_qps(base), base);
  ::unlink(file2.c_str());
}

}  // namespace
}  // namespace xrc_e2e
