// SPDX-License-Identifier: Apache-2.0
// `graft policy diff`'s comparison of one request's outcome under two
// policies: pure, what a container gains, loses, how its verdict moved and
// which rule made each change.
#include <catch2/catch.hpp>

#include "policy_cases/policy_diff.hpp"

using namespace graft;

namespace {

DiffItem diff_item(std::string name, std::string origin = "rule r, r.lua:1") {
  return {std::move(name), "", std::move(origin)};
}

DiffOutcome diff_outcome(std::vector<DiffItem> devices, std::vector<DiffItem> capabilities,
                         std::vector<DiffItem> mounts = {}) {
  DiffOutcome outcome;
  outcome.devices = std::move(devices);
  outcome.capabilities = std::move(capabilities);
  outcome.mounts = std::move(mounts);
  return outcome;
}

std::vector<std::string> diff_names(const std::vector<ItemChange>& changes) {
  std::vector<std::string> out;
  for (const auto& change : changes) out.push_back(change.item.name);
  return out;
}

DiffOutcome diff_refused(const std::string& text, const std::string& origin) {
  DiffOutcome outcome = diff_outcome({}, {});
  outcome.refusal = DiffItem{text, text, origin};
  return outcome;
}

}  // namespace

TEST_CASE("the same outcome under both policies is no change", "[policy-test]") {
  DiffOutcome outcome =
      diff_outcome({diff_item("0")}, {diff_item("compute")}, {diff_item("/usr/bin/smi (bind_mount)")});
  CHECK(diff_outcomes(outcome, outcome).empty());
}

TEST_CASE("devices, capabilities and mounts gained and lost are listed in plan order", "[policy-test]") {
  DiffOutcome before =
      diff_outcome({diff_item("0"), diff_item("1")}, {diff_item("compute"), diff_item("display")},
                   {diff_item("/dev/gpu0 (device_node)"), diff_item("/usr/lib/libgl.so (bind_mount)")});
  DiffOutcome after = diff_outcome({diff_item("1"), diff_item("3"), diff_item("2")}, {diff_item("compute")},
                                   {diff_item("/dev/gpu3 (device_node)"), diff_item("/dev/gpu2 (device_node)")});
  OutcomeChange change = diff_outcomes(before, after);
  CHECK(diff_names(change.devices_gained) == std::vector<std::string>{"3", "2"});
  CHECK(diff_names(change.devices_lost) == std::vector<std::string>{"0"});
  CHECK(change.capabilities_gained.empty());
  CHECK(diff_names(change.capabilities_lost) == std::vector<std::string>{"display"});
  CHECK(diff_names(change.mounts_gained) ==
        std::vector<std::string>{"/dev/gpu3 (device_node)", "/dev/gpu2 (device_node)"});
  CHECK(diff_names(change.mounts_lost) ==
        std::vector<std::string>{"/dev/gpu0 (device_node)", "/usr/lib/libgl.so (bind_mount)"});
  CHECK_FALSE(change.empty());
}

TEST_CASE("only bind mounts and device nodes of a plan count as mounts", "[policy-test]") {
  Plan plan;
  plan.actions = {Action{.kind = ActionKind::cgroup_allow, .target = "c 195:0"},
                  Action{.kind = ActionKind::symlink, .target = "/usr/lib/libgpu.so"},
                  Action{.kind = ActionKind::device_node, .target = "/dev/gpu0"}};
  DiffOutcome outcome = diff_outcome_of(plan);
  REQUIRE(outcome.mounts.size() == 1);
  CHECK(outcome.mounts[0].name == "/dev/gpu0 (device_node)");
}

TEST_CASE("a plan's grants and denials carry the rule and file:line that decided them", "[policy-test]") {
  Plan plan;
  plan.devices = {GrantedDevice{.index = 2, .reason = Reason{"VISIBLE=2", {"/p/visible.lua", 12, 0}, "visible"}}};
  plan.intent.denials = {Denial{"GPU 3", Reason{"lease for team-b", {"/p/lease.lua", 38, 0}, "tenant-lease"}}};
  plan.intent.refusal = Reason{"no lease", {"/etc/graft/graft.toml", 4, 1}, ""};
  DiffOutcome outcome = diff_outcome_of(plan);
  CHECK(outcome.devices.at(0).origin == "rule visible, visible.lua:12");
  CHECK(outcome.denials.at(0) == DiffItem{"GPU 3", "lease for team-b", "rule tenant-lease, lease.lua:38"});
  CHECK(outcome.refusal->origin == "graft.toml:4");
}

TEST_CASE("a lost device is blamed on the new policy's denial of its GPU, else on the old grant",
          "[policy-test]") {
  DiffOutcome before =
      diff_outcome({diff_item("2", "rule visible, v.lua:1"), diff_item("3", "rule visible, v.lua:1")}, {});
  DiffOutcome after = diff_outcome({}, {});
  after.denials = {DiffItem{"GPU 2", "lease for team-b", "rule lease, l.lua:9"}};
  OutcomeChange change = diff_outcomes(before, after);
  REQUIRE(change.devices_lost.size() == 2);
  CHECK(change.devices_lost[0] == ItemChange{DiffItem{"2", "lease for team-b", "rule lease, l.lua:9"}, false});
  CHECK(change.devices_lost[1] == ItemChange{diff_item("3", "rule visible, v.lua:1"), true});
  CHECK(diff_names(change.denials_gained) == std::vector<std::string>{"GPU 2"});
}

TEST_CASE("a denial whose reason changed is one lost and one gained", "[policy-test]") {
  DiffOutcome before = diff_outcome({}, {}), after = diff_outcome({}, {});
  before.denials = {DiffItem{"capability display", "unprivileged", "rule a, a.lua:1"}};
  after.denials = {DiffItem{"capability display", "display is off here", "rule b, b.lua:2"}};
  OutcomeChange change = diff_outcomes(before, after);
  CHECK(change.denials_lost.at(0).item.reason == "unprivileged");
  CHECK(change.denials_gained.at(0).item.reason == "display is off here");
}

TEST_CASE("allowed to refused, refused to allowed and a changed refusal reason are three verdicts",
          "[policy-test]") {
  DiffOutcome allowed = diff_outcome({diff_item("0")}, {});
  DiffOutcome no_lease = diff_refused("tenant 'x' has no GPU lease", "rule lease, l.lua:9");
  DiffOutcome other = diff_refused("tenant annotation missing", "rule lease, l.lua:4");
  CHECK(diff_outcomes(allowed, no_lease).verdict == Verdict::now_refused);
  CHECK(diff_outcomes(no_lease, allowed).verdict == Verdict::now_allowed);
  OutcomeChange changed = diff_outcomes(no_lease, other);
  CHECK(changed.verdict == Verdict::reason_changed);
  CHECK(changed.old_refusal->name == "tenant 'x' has no GPU lease");
  CHECK(changed.new_refusal->origin == "rule lease, l.lua:4");
  CHECK(diff_outcomes(no_lease, no_lease).empty());
}

TEST_CASE("the diff report names each change's rule, the verdict and the cases it counts", "[policy-test]") {
  CaseDiff same{"same-case", "/c/same.toml", {}, {}, {}, {}, false};
  CaseDiff lease{"lease", "/c/lease.toml", {}, {}, {}, {}, false};
  lease.change = diff_outcomes(diff_refused("no lease", "rule lease, l.lua:9"),
                               diff_refused("no tenant", "rule lease, l.lua:4"));
  lease.change.devices_gained = {{diff_item("4", "rule lease, l.lua:12"), false}};
  std::string text = render_diff_text({same, lease});
  CHECK(text ==
        "same     same-case\n"
        "changed  lease\n"
        "  + device 4  (rule lease, l.lua:12)\n"
        "  refusal reason changed (refused under both)\n"
        "    was: no lease  (rule lease, l.lua:9)\n"
        "    now: no tenant  (rule lease, l.lua:4)\n"
        "2 cases: 1 changed, 1 unchanged\n");
  nlohmann::json json = render_diff_json({same, lease});
  CHECK(json["summary"]["changed"] == 1);
  CHECK(json["cases"][1]["verdict"] == "reason_changed");
  CHECK(json["cases"][1]["devices"]["gained"][0]["origin"] == "rule lease, l.lua:12");
  CHECK(json["cases"][1]["refusal"]["new"]["text"] == "no tenant");
}

TEST_CASE("a case the new policy fails on, or whose [expect] it breaks, is marked", "[policy-test]") {
  CaseDiff failing{"bad", "/c/bad.toml", {}, "", "rule r raised: boom", {}, false};
  CaseDiff broken{"lease", "/c/lease.toml", {}, {}, {}, {}, false};
  broken.change.devices_gained = {{diff_item("4"), false}};
  broken.expect_broken = {Mismatch{"devices", "[\"2\"]", "[\"2\", \"4\"]"}};
  CHECK(failing.failed());
  std::string text = render_diff_text({failing, broken});
  CHECK_THAT(text, Catch::Contains("error    bad\n  new policy error: rule r raised: boom\n"));
  CHECK_THAT(text, Catch::Contains("  breaks its [expect] (met under the old policy):\n"
                                   "    - devices = [\"2\"]\n    + devices = [\"2\", \"4\"]\n"));
  CHECK_THAT(text, Catch::EndsWith("2 cases: 2 changed, 0 unchanged; 1 now breaks its [expect]; "
                                   "the new policy fails on 1\n"));
  CaseDiff expected = failing;
  expected.new_error_expected = true;
  CHECK_FALSE(expected.failed());
}
