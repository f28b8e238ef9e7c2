// SPDX-License-Identifier: Apache-2.0
// Load: 500 container start/stop cycles, as rounds of 50 started at
// once (the same 50 requests as load_test.cpp), each container only listing
// its /dev and /proc/driver/nvidia/gpus so that a cycle costs little more
// than runc and the hook. After a warm-up round the host is snapshotted;
// after every later round the mount table, the temp directories, the fake
// host's files and this process's fds must be exactly as in that snapshot,
// and the hooks' peak memory (max_rss_kb in the audit log) must not creep up
// from the first measured round to the last.
#include <catch2/catch.hpp>

#include <algorithm>
#include <iostream>

#include "harness/load_checks.hpp"

using namespace graft::e2e;

namespace {

constexpr std::size_t kPerRound = 50;
// After the warm-up: 500 cycles. The load cases run in the Release build
// only (tests/e2e/CMakeLists.txt): under ASan a hook costs about five times
// the CPU, and 500 cycles would take minutes on 2 cores.
constexpr std::size_t kRounds = 10;
// Every round runs the same 50 requests, so a hook's peak memory can only
// creep up if graft reads something that accumulates (the audit log, state
// left by earlier containers). The round's figure is the median of its 50
// max_rss_kb values: a single hook's peak moves by page-fault and allocator
// noise (measured: medians within 100 KiB of each other across rounds,
// maxima within 200 KiB). 512 KiB is well above that noise and well below
// what re-reading even one round's audit log (50 lines of ~3 KiB, parsed
// into JSON) would add to every hook.
constexpr long kRssToleranceKb = 512;

struct Round {
  HostChanges changes;
  long max_rss_kb = 0;  // the median of the round's hooks
  AuditLines audit;
};

// One round: 50 containers at once, each checked, then the audit log (which
// must by now hold `lines_before` + 50 lines) and the host against `baseline`.
Round run_round(const std::string& root, const HostSnapshot& baseline, std::size_t lines_before) {
  auto batch = start_at_once(kPerRound, LoadProbe::gpu_listing);
  for (const auto& container : batch) {
    check_started_and_gone(container);
    check_own_listing(container);
  }
  Round round;
  round.audit = read_audit_lines(load_policies().audit_log);
  auto max_rss = check_audit_lines(round.audit, lines_before + kPerRound, batch);
  REQUIRE(max_rss.size() == kPerRound);
  std::sort(max_rss.begin(), max_rss.end());
  round.max_rss_kb = max_rss[kPerRound / 2];
  std::cout << "load-round|max_rss_kb_min=" << max_rss.front() << "|median=" << round.max_rss_kb
            << "|max=" << max_rss.back() << "\n";
  round.changes = host_changes(baseline, snapshot_host(root));
  return round;
}

}  // namespace

TEST_CASE("500 container start/stop cycles leave mounts, temp files and fds exactly "
          "where the first round left them, and the hook's peak memory does not grow",
          "[e2e][load][runc][v1]") {
  GRAFT_LOAD_REQUIRE();
  const std::string& root = load_host_root();
  load_policies();
  auto start = snapshot_host(root);
  // Warm-up: checked like the rest, and also against the state before it.
  auto warm_up = run_round(root, start, 0);
  check_host_unchanged(warm_up.changes);
  auto baseline = snapshot_host(root);

  std::vector<Round> rounds;
  for (std::size_t r = 0; r < kRounds; ++r) {
    INFO("round " << r + 1 << " of " << kRounds << " after the warm-up");
    rounds.push_back(run_round(root, baseline, (r + 1) * kPerRound));
    check_host_unchanged(rounds.back().changes);
  }
  long first = rounds.front().max_rss_kb, last = rounds.back().max_rss_kb;
  INFO("hook max_rss_kb: first round " << first << ", last round " << last);
  CHECK(first > 0);
  CHECK(last <= first + kRssToleranceKb);
  std::cout << "load-overlap|most_hooks_at_once=" << most_hooks_at_once(rounds.back().audit) << "\n"
            << load_outcome_line(kPerRound, kRounds, rounds.back().audit, rounds.back().changes, first, last)
            << "\n";
}
