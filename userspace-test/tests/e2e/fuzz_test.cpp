// A seeded fuzzer over the four XRCD methods (ioctl).  Each call gets
// random handles, numbers (or none: create), attributes, a missing
// mandatory attribute, unknown ones (mandatory or not), attribute
// lengths and reserved fields, MODIFY's reserved fields and trailing
// bytes, and response pointers.  A model of this file's references predicts the
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
  // std::nullopt: REG without a number (create)
  std::optional<std::uint32_t> pick_qpn() {
    const auto r = rng_() % 100;
    if (r < 25 && model_.size() < 48) return std::nullopt;
    if (r < 60 && !model_.empty()) return pick(model_).first;
    if (r < 75) return pick(others_);
    if (r < 85 && !dead_.empty()) return pick(dead_);
    if (r < 95) return u32() % k2Pow24;
    return u32() | k2Pow24;  // 0xffffffff among them: a number like any other
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

  // The mutations of one call; `malformed` says what makes it so.
  struct Shape {
    std::vector<ib_uverbs_attr> attrs;
    std::string malformed;   // empty: well formed
    std::string note;        // well-formed variations (an unknown optional attribute)
  };
  // Mutates `attrs` of a method whose PTR_OUT (if any) is at `out_index`
  // and points at `good` of `out_len` bytes; `droppable`: the ids of its
  // mandatory attributes.
  Shape shape(std::vector<ib_uverbs_attr> attrs, std::optional<std::size_t> out_index,
              std::size_t out_len, std::span<const std::uint16_t> droppable);
  Status send(std::uint16_t method, const Shape& s) {
    return raw::xrcd_method(me_.ctx, method, s.attrs);
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

Fuzzer::Shape Fuzzer::shape(std::vector<ib_uverbs_attr> attrs,
                            std::optional<std::size_t> out_index, std::size_t out_len,
                            std::span<const std::uint16_t> droppable) {
  Shape s;
  s.attrs = std::move(attrs);
  const auto r = rng_() % 100;
  if (r < 6 && !droppable.empty()) {
    const auto id = droppable[rng_() % droppable.size()];
    s.attrs = wire::without_attr(s.attrs, id);
    s.malformed = " no-attr-" + std::to_string(id);
  } else if (r < 10) {
    const auto id = static_cast<std::uint16_t>(5 + rng_() % 20);  // none of the methods has it
    s.attrs.push_back(wire::ioctl_attr::in_u32(id, u32()));
    s.malformed = " unknown-mandatory-" + std::to_string(id);
  } else if (r < 14) {
    const auto id = static_cast<std::uint16_t>(5 + rng_() % 20);
    s.attrs.push_back(wire::ioctl_attr::not_mandatory(wire::ioctl_attr::in_u32(id, u32())));
    s.note = " unknown-optional-" + std::to_string(id);
  } else if (r < 18 && s.attrs.size() > 1) {
    // a PTR attribute (never the IDR at 0) with a non-zero reserved field
    s.attrs[1 + rng_() % (s.attrs.size() - 1)].attr_data.reserved =
        static_cast<__u16>(1 + rng_() % 0xffff);
    s.malformed = " attr-reserved!=0";
  } else if (r < 23 && out_index) {
    auto& o = s.attrs[*out_index];
    o.data = chance(50) ? 0 : wire::user_ptr(ro_);
    s.malformed = " badresp";
  } else if (r < 28 && out_index) {
    s.attrs[*out_index].len = static_cast<__u16>(rng_() % out_len);
    s.malformed = " shortout";
  }
  return s;
}

std::optional<std::string> Fuzzer::check_failure_errno(const Status& r, const std::string& what) {
  if (r) return std::nullopt;
  switch (r.error().errnum) {
    case EINVAL:
    case ENOENT:           // a handle that names no object of the file
    case EFAULT:
    case EPROTONOSUPPORT:  // an unknown mandatory attribute
    case EOPNOTSUPP:       // non-zero bytes after MODIFY's struct
    case ENOMEM:
    case EOVERFLOW:
      return std::nullopt;
    default:
      return what + ": errno outside the contract: " + r.error().message();
  }
}

std::optional<std::string> Fuzzer::step() {
  std::uint32_t command = kCmdRegXrcRcvQp + static_cast<std::uint32_t>(rng_() % 4);
  std::uint32_t x = pick_xrcd();
  const std::optional<std::uint32_t> picked = pick_qpn();
  // Only REG can go without a number; the others take one at random.
  if (!picked && command != kCmdRegXrcRcvQp) command = kCmdRegXrcRcvQp;
  const bool create = !picked;
  const std::uint32_t q = picked.value_or(0);
  // Keep reference counts small: a REG of a QP already held often becomes
  // an UNREG of it.  Every step makes exactly one call.
  if (command == kCmdRegXrcRcvQp && !create && holds(x, q) && model_[q].refs > 16)
    command = kCmdUnregXrcRcvQp;

  std::ostringstream d;
  d << command_name(command) << " xrcd=" << x;
  if (create)
    d << " (no number)";
  else
    d << " qpn=0x" << std::hex << q << std::dec;
  std::optional<std::string> err;
  Status r;
  bool well_formed = true;
  std::optional<std::uint32_t> new_qpn;
  bool query_unknown_mask = false;

  switch (command) {
    case kCmdRegXrcRcvQp: {
      std::uint32_t resp = 0xffffffffU;
      Shape s;
      if (create) {
        const auto a = wire::create_rcv_qp_attrs(x, &resp);
        static constexpr std::uint16_t kMandatory[] = {UVERBS_ATTR_REG_RCV_QP_XRCD_HANDLE,
                                                       UVERBS_ATTR_REG_RCV_QP_RESP_NUM};
        s = shape({a.begin(), a.end()}, 1, sizeof resp, kMandatory);
      } else {
        const auto a = wire::reg_rcv_qp_attrs(x, q, &resp);
        static constexpr std::uint16_t kMandatory[] = {UVERBS_ATTR_REG_RCV_QP_XRCD_HANDLE,
                                                       UVERBS_ATTR_REG_RCV_QP_RESP_NUM};
        s = shape({a.begin(), a.end()}, 2, sizeof resp, kMandatory);
      }
      r = send(UVERBS_METHOD_XRCD_REG_RCV_QP, s);
      well_formed = s.malformed.empty();
      d << s.malformed << s.note;
      if (r) new_qpn = resp;
      break;
    }
    case kCmdUnregXrcRcvQp: {
      const auto a = wire::unreg_rcv_qp_attrs(x, q);
      static constexpr std::uint16_t kMandatory[] = {UVERBS_ATTR_UNREG_RCV_QP_XRCD_HANDLE,
                                                     UVERBS_ATTR_UNREG_RCV_QP_NUM};
      const auto s = shape({a.begin(), a.end()}, std::nullopt, 0, kMandatory);
      r = send(UVERBS_METHOD_XRCD_UNREG_RCV_QP, s);
      well_formed = s.malformed.empty();
      d << s.malformed << s.note;
      break;
    }
    case kCmdModifyXrcRcvQp: {
      // MODIFY_QP's struct, and room after it for trailing bytes
      struct {
        ib_uverbs_modify_qp m;
        std::array<std::uint64_t, 4> tail;
      } body{};
      auto& c = body.m;
      if (chance(50)) {
        static const QpModify kMods[] = {xrc_tgt_to_init(), xrc_tgt_to_rtr(), xrc_tgt_to_rts(),
                                         to_state_only(QpState::Reset),
                                         to_state_only(QpState::Err)};
        auto m = kMods[rng_() % std::size(kMods)];
        if (chance(20)) m.mask |= mask_from_bits(1U << (rng_() % 32));
        c = encode_modify_qp(0, m.attr, m.mask);
      } else {
        auto* p = reinterpret_cast<unsigned char*>(&c);
        for (std::size_t i = 0; i < sizeof c; ++i) p[i] = static_cast<unsigned char>(rng_());
        c.qp_handle = 0;
        c.reserved[0] = c.reserved[1] = 0;
      }
      std::string bad;
      if (chance(5)) {
        const auto which = rng_() % 3;
        if (which < 2)
          c.reserved[which] = static_cast<__u8>(1 + rng_() % 255);
        else
          c.qp_handle = 1U << (rng_() % 32);  // unused, must be 0
        bad = " reserved!=0";
      }
      std::size_t len = sizeof c;
      if (chance(8)) {
        len += 8 * (1 + rng_() % body.tail.size());
        if (chance(50)) {
          body.tail[rng_() % ((len - sizeof c) / 8)] = 1ULL << (rng_() % 64);
          bad += " tail!=0";
        }
      }
      auto a = wire::modify_rcv_qp_attrs(x, q, &c);
      a[2] = wire::ioctl_attr::in_ptr(UVERBS_ATTR_MODIFY_RCV_QP_ATTR, &body, len);
      static constexpr std::uint16_t kMandatory[] = {UVERBS_ATTR_MODIFY_RCV_QP_XRCD_HANDLE,
                                                     UVERBS_ATTR_MODIFY_RCV_QP_NUM,
                                                     UVERBS_ATTR_MODIFY_RCV_QP_ATTR};
      const auto s = shape({a.begin(), a.end()}, std::nullopt, 0, kMandatory);
      r = send(UVERBS_METHOD_XRCD_MODIFY_RCV_QP, s);
      well_formed = s.malformed.empty() && bad.empty();
      d << " mask=" << to_string(mask_from_bits(c.attr_mask)) << " state=" << int(c.qp_state)
        << " len=" << len << bad << s.malformed << s.note;
      break;
    }
    case kCmdQueryXrcRcvQp: {
      ib_uverbs_query_qp_resp resp{};
      const std::uint32_t mask = chance(80) ? to_bits(QpAttrMask::AllStandard) & u32() : u32();
      const auto a = wire::query_rcv_qp_attrs(x, q, mask, &resp);
      static constexpr std::uint16_t kMandatory[] = {
          UVERBS_ATTR_QUERY_RCV_QP_XRCD_HANDLE, UVERBS_ATTR_QUERY_RCV_QP_NUM,
          UVERBS_ATTR_QUERY_RCV_QP_ATTR_MASK, UVERBS_ATTR_QUERY_RCV_QP_RESP};
      const auto s = shape({a.begin(), a.end()}, 3, sizeof resp, kMandatory);
      r = send(UVERBS_METHOD_XRCD_QUERY_RCV_QP, s);
      well_formed = s.malformed.empty();
      d << " mask=0x" << std::hex << mask << std::dec << s.malformed << s.note;
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

  const bool is_reg = command == kCmdRegXrcRcvQp;
  const bool is_unreg = command == kCmdUnregXrcRcvQp;
  const bool is_query = command == kCmdQueryXrcRcvQp;

  if (!well_formed) {
    if (r) return what + ": malformed call succeeded";
    return std::nullopt;
  }
  if (query_unknown_mask) {
    // The contract leaves QUERY's attr_mask to uverbs' convention (which
    // ignores it): a holder may get an answer or EINVAL, others EINVAL.
    if (r && !holds(x, q)) return what + ": succeeded without a reference";
    if (!r && r.error().errnum != EINVAL && r.error().errnum != kBadHandleErrno)
      return what + ": " + r.error().message();
    return std::nullopt;
  }

  const bool xrcd_ok = valid_xrcd(x);
  // A handle that names no object of the file: the framework's ENOENT,
  // before the method runs.
  if (!xrcd_ok) {
    if (r) return what + ": succeeded on a handle that is no XRCD of the file";
    if (r.error().errnum != kBadHandleErrno)
      return what + ": " + r.error().message() + ", expected " + std::string(errno_name(kBadHandleErrno));
    return std::nullopt;
  }
  const auto live = live_xrcd_of(q);
  if (is_reg) {
    if (create) {
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
    if (live && *live == x && q < k2Pow24) {
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
