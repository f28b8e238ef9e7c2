// SPDX-License-Identifier: Apache-2.0
// Load: 50 containers started at once by runc (cgroup v1), each
// with graft as its prestart hook and a request of its own (GPU i % 8, by
// index or UUID, capability sets taking turns), each running the check
// script generated from its own `graft plan`. The hooks overlap, so a shared
// file, a global in a plugin or an interleaved audit write would show as a
// container with a neighbour's device, a torn audit line or a leftover.
#include <catch2/catch.hpp>

#include <algorithm>
#include <iostream>

#include "harness/load_checks.hpp"

using namespace graft::e2e;

namespace {

constexpr std::size_t kContainers = 50;

}  // namespace

TEST_CASE("50 containers started at once each get exactly their own plan, one intact audit line each, "
          "and leave no mount, temp file, runc state or cgroup behind",
          "[e2e][load][runc][v1]") {
  GRAFT_LOAD_REQUIRE();
  const std::string& root = load_host_root();
  load_policies();  // the policies and the empty log belong to the baseline
  auto before = snapshot_host(root);

  auto batch = start_at_once(kContainers, LoadProbe::plan_script);

  for (const auto& container : batch) {
    check_started_and_gone(container);
    check_own_plan(container);
  }
  // The requests differ from one container to the next, so their plans do:
  // a container holding a neighbour's plan could not pass check_own_plan.
  for (std::size_t i = 0; i + 1 < batch.size(); ++i)
    CHECK(batch[i].probed.plan.at("actions") != batch[i + 1].probed.plan.at("actions"));
  auto audit = read_audit_lines(load_policies().audit_log);
  auto max_rss = check_audit_lines(audit, kContainers, batch);
  // The hooks did overlap: 50 runtimes released together on any machine
  // put more than one hook in flight (the count is printed for the record).
  std::size_t overlap = most_hooks_at_once(audit);
  std::cout << "load-overlap|most_hooks_at_once=" << overlap << "\n";
  CHECK(overlap >= 2);
  auto changes = host_changes(before, snapshot_host(root));
  check_host_unchanged(changes);

  // One round: its median hook peak is both the first and the last figure.
  std::sort(max_rss.begin(), max_rss.end());
  long median = max_rss.empty() ? 0 : max_rss[max_rss.size() / 2];
  std::cout << load_outcome_line(kContainers, 1, audit, changes, median, median) << "\n";
}
