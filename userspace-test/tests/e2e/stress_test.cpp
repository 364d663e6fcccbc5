// Many processes registering and unregistering the same QPs at once, some
// killed at random; afterwards nothing is left.  Bounded in processes and
// time, seeded for repeatability:
//   XRC_E2E_STRESS_PROCS (6), XRC_E2E_STRESS_SECONDS (4), XRC_E2E_SEED (20240611)
// Over ioctl, and over libibverbs (a libibverbs stack per
// worker process).
#include "support.hpp"

#include <random>
#include <thread>

namespace xrc_e2e {
namespace {

class Stress : public TransportTest {};

// One worker: random REG/UNREG/QUERY/MODIFY/create on the shared QPs until
// the deadline.  The test holds a reference on every shared QP throughout,
// so each of these calls has a known right answer.
int stress_worker(const std::string& file, Transport t, const std::vector<std::uint32_t>& shared,
                  std::uint64_t seed, std::chrono::steady_clock::time_point deadline) {
  auto p = Peer::open(file, t);
  std::mt19937_64 rng(seed);
  std::map<std::uint32_t, int> held;  // qpn -> references this file holds
  std::vector<std::uint32_t> own;     // QPs this worker created
  while (std::chrono::steady_clock::now() < deadline) {
    const std::uint32_t q = shared[rng() % shared.size()];
    switch (rng() % 6) {
      case 0:
      case 1:
        CHILD_OK(p.reg(q));
        ++held[q];
        break;
      case 2:
        if (held[q] > 0) {
          CHILD_OK(p.unreg(q));
          --held[q];
        } else {
          CHILD_ERRNO(p.unreg(q), EINVAL);
        }
        break;
      case 3:
        if (held[q] > 0) CHILD_OK(p.query(q));
        else CHILD_ERRNO(p.query(q), EINVAL);
        break;
      case 4:
        if (own.size() < 4) {
          auto n = p.create();
          // The device may be full (xrc_sim max_qps): ENOMEM is fair.
          if (n) own.push_back(*n);
          else CHILD_CHECK(n.error().errnum == ENOMEM);
        } else {
          CHILD_OK(p.unreg(own.back()));
          own.pop_back();
        }
        break;
      case 5:
        if (held[q] > 0) {
          // Racing modifies from other workers: any valid answer is fine.
          auto r = p.modify(q, rng() % 2 ? xrc_tgt_to_init() : to_state_only(QpState::Reset));
          CHILD_CHECK(r || r.error().errnum == EINVAL);
        }
        break;
    }
  }
  // Leave about half the references for the file close to drop.
  for (auto& [q, n] : held)
    for (; n > 0 && rng() % 2; --n) CHILD_OK(p.unreg(q));
  return 0;
}

TEST_P(Stress, ParallelRegistrationsAndRandomKillsLeaveNoQpBehind) {
  REQUIRE_COUNTERS();
  const long procs = std::clamp(env_long("XRC_E2E_STRESS_PROCS", 6), 1L, 64L);
  const long secs = std::clamp(env_long("XRC_E2E_STRESS_SECONDS", 4), 1L, 600L);
  const auto seed = static_cast<std::uint64_t>(env_long("XRC_E2E_SEED", 20240611));
  RecordProperty("seed", std::to_string(seed));
  const long before_qps = live_qps();
  const long before_xrcds = live_xrcds();

  auto owner = open();
  std::vector<std::uint32_t> shared;
  for (int i = 0; i < 4; ++i) shared.push_back(MUST(owner.create()));

  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(secs);
  std::vector<Child> workers;
  for (long i = 0; i < procs; ++i)
    workers.push_back(Child::spawn([&, i](Channel&) {
      return stress_worker(xrcd_file_, tr(), shared, seed + static_cast<std::uint64_t>(i),
                           deadline);
    }));

  // Kill about a third of the workers at random moments.
  std::mt19937_64 rng(seed);
  std::vector<bool> killed(workers.size(), false);
  for (std::size_t i = 0; i < workers.size(); ++i) {
    if (rng() % 3 != 0) continue;
    const auto at = std::chrono::milliseconds(rng() % (secs * 1000));
    std::this_thread::sleep_until(deadline - std::chrono::seconds(secs) + at);
    workers[i].kill(SIGKILL);
    killed[i] = true;
  }
  for (std::size_t i = 0; i < workers.size(); ++i) {
    const int rc = workers[i].wait(std::chrono::seconds(secs + 60));
    if (killed[i]) EXPECT_TRUE(rc == 0 || rc == 128 + SIGKILL) << "worker " << i << ": " << rc;
    else EXPECT_EQ(rc, 0) << "worker " << i;
  }

  // Only the owner's references remain, on exactly the shared QPs.
  EXPECT_EQ(wait_live_qps(before_qps + 4), before_qps + 4);
  for (auto q : shared) {
    ASSERT_OK(owner.unreg(q));
    EXPECT_ERRNO(owner.unreg(q), EINVAL);
  }
  EXPECT_EQ(wait_live_qps(before_qps), before_qps);
  ASSERT_OK(owner.xrcd.close());
  EXPECT_EQ(live_xrcds(), before_xrcds);
}

TEST_P(Stress, RepeatedFileOpenCreateAndCloseLeavesNoQpBehind) {
  REQUIRE_COUNTERS();
  const long before = live_qps();
  for (int i = 0; i < 200; ++i) {
    auto p = open();
    ASSERT_OK(p.create());
    ASSERT_OK(p.create());
    p.forget_xrcd();
  }
  EXPECT_EQ(wait_live_qps(before), before);
}

INSTANTIATE_TEST_SUITE_P(, Stress,
                         ::testing::Values(Transport::ioctl
#ifdef XRC_E2E_VERBS
                                           , Transport::verbs
#endif
                                           ),
                         TransportName());

}  // namespace
}  // namespace xrc_e2e
