// SPDX-License-Identifier: Apache-2.0
// Plan order and merging: deterministic order, duplicates merged, and
// disagreeing actions on one target refused with both origins named.
#include <catch2/catch.hpp>

#include "plan/plan_context.hpp"

using namespace graft;

namespace {

Action mount(const std::string& source, const std::string& target, const std::string& origin_file,
             int line) {
  return Action{.kind = ActionKind::bind_mount,
                .plugin = "libraries",
                .source = source,
                .target = target,
                .options = {"ro"},
                .provenance = {"compute", "compute", Origin{origin_file, line, 1}}};
}

}  // namespace

TEST_CASE("identical actions from two capability sets merge into one", "[plan-order]") {
  Plan plan;
  plan.actions = {mount("/h/libx.so.1", "/usr/lib/libx.so.1", "a.toml", 3),
                  mount("/h/libx.so.1", "/usr/lib/libx.so.1", "b.toml", 9)};
  REQUIRE(order_and_merge(plan));
  REQUIRE(plan.actions.size() == 1);
  CHECK(plan.actions[0].provenance.origin.line == 3);  // the first origin is kept
}

TEST_CASE("two different actions on one target are an error naming both origins", "[plan-order]") {
  Plan plan;
  plan.actions = {mount("/h/one", "/usr/lib/libx.so.1", "a.toml", 3),
                  mount("/h/two", "/usr/lib/libx.so.1", "site.toml", 12)};
  auto status = order_and_merge(plan);
  REQUIRE_FALSE(status);
  CHECK_THAT(status.error().message, Catch::Contains("/usr/lib/libx.so.1") &&
                                         Catch::Contains("a.toml:3") &&
                                         Catch::Contains("site.toml:12"));
}

TEST_CASE("actions are ordered by step, then by target", "[plan-order]") {
  Plan plan;
  Action node{.kind = ActionKind::device_node, .plugin = "devices", .target = "/dev/a"};
  Action mask{.kind = ActionKind::procfs_mask, .plugin = "procfs", .target = "/proc/x"};
  plan.actions = {node, mount("/h/b", "/usr/lib/b", "a.toml", 1), mask,
                  mount("/h/a", "/usr/lib/a", "a.toml", 2)};
  REQUIRE(order_and_merge(plan));
  std::vector<std::string> order;
  for (const auto& action : plan.actions) order.push_back(action.target);
  CHECK(order == std::vector<std::string>{"/proc/x", "/usr/lib/a", "/usr/lib/b", "/dev/a"});
}

TEST_CASE("cgroup rules merge by device number", "[plan-order]") {
  Plan plan;
  Action allow{.kind = ActionKind::cgroup_allow, .plugin = "cgroup", .target = "c 195:0",
               .device_type = 'c', .major = 195, .minor = 0, .access = "rw"};
  plan.actions = {allow, allow};
  REQUIRE(order_and_merge(plan));
  CHECK(plan.actions.size() == 1);
}
