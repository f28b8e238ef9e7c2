// `graft policy diff`'s comparison of one request's outcome under two
// policies: pure, what a container gains, loses, and whether it is refused.
#include <catch2/catch.hpp>

#include "policy_test/policy_diff.hpp"

using namespace graft;

namespace {

CaseOutcome diff_outcome(std::vector<std::string> devices, std::vector<std::string> capabilities,
                         std::vector<OutcomeAction> actions) {
  CaseOutcome outcome;
  outcome.injected = true;
  outcome.devices = std::move(devices);
  outcome.capabilities = std::move(capabilities);
  outcome.actions = std::move(actions);
  return outcome;
}

}  // namespace

TEST_CASE("the same outcome under both policies is no change", "[policy-test]") {
  CaseOutcome outcome = diff_outcome({"0"}, {"compute"}, {{"bind_mount", "/usr/bin/smi"}});
  CHECK(diff_outcomes(outcome, outcome).empty());
}

TEST_CASE("devices, capabilities and mounts gained and lost are listed in plan order", "[policy-test]") {
  CaseOutcome before = diff_outcome({"0", "1"}, {"compute", "display"},
                                    {{"device_node", "/dev/gpu0"}, {"bind_mount", "/usr/lib/libgl.so"}});
  CaseOutcome after = diff_outcome({"1", "3", "2"}, {"compute"},
                                   {{"device_node", "/dev/gpu3"}, {"device_node", "/dev/gpu2"}});
  OutcomeChange change = diff_outcomes(before, after);
  CHECK(change.devices_gained == std::vector<std::string>{"3", "2"});
  CHECK(change.devices_lost == std::vector<std::string>{"0"});
  CHECK(change.capabilities_gained.empty());
  CHECK(change.capabilities_lost == std::vector<std::string>{"display"});
  CHECK(change.mounts_gained ==
        std::vector<std::string>{"/dev/gpu3 (device_node)", "/dev/gpu2 (device_node)"});
  CHECK(change.mounts_lost ==
        std::vector<std::string>{"/dev/gpu0 (device_node)", "/usr/lib/libgl.so (bind_mount)"});
  CHECK_FALSE(change.empty());
}

TEST_CASE("only bind mounts and device nodes count as mounts", "[policy-test]") {
  CaseOutcome before = diff_outcome({}, {}, {{"cgroup_allow", "c 195:0"}, {"symlink", "/usr/lib/libgpu.so"}});
  CaseOutcome after = diff_outcome({}, {}, {});
  CHECK(diff_outcomes(before, after).empty());
}

TEST_CASE("a request the new policy refuses, or no longer refuses, is a change with both refusals",
          "[policy-test]") {
  CaseOutcome allowed = diff_outcome({"0"}, {}, {});
  CaseOutcome refused = allowed;
  refused.refusal = "tenant 'x' has no GPU lease";
  OutcomeChange now = diff_outcomes(allowed, refused);
  CHECK_FALSE(now.old_refusal.has_value());
  CHECK(now.new_refusal == "tenant 'x' has no GPU lease");
  OutcomeChange lifted = diff_outcomes(refused, allowed);
  CHECK(lifted.old_refusal == "tenant 'x' has no GPU lease");
  CHECK_FALSE(lifted.new_refusal.has_value());
  CHECK(diff_outcomes(refused, refused).empty());
}

TEST_CASE("the diff report names each changed case's gains and losses and counts the cases",
          "[policy-test]") {
  CaseDiff same{"same-case", "/c/same.toml", {}, {}, {}};
  CaseDiff changed{"lease", "/c/lease.toml", {}, {}, {}};
  changed.change.devices_gained = {"4"};
  changed.change.devices_lost = {"2"};
  changed.change.new_refusal = "refused now";
  std::string text = render_diff_text({same, changed});
  CHECK(text ==
        "same     same-case\n"
        "changed  lease\n"
        "  + device 4\n"
        "  - device 2\n"
        "  now refused: refused now\n"
        "2 cases: 1 changed, 1 unchanged\n");
  nlohmann::json json = render_diff_json({same, changed});
  CHECK(json["summary"]["changed"] == 1);
  CHECK(json["cases"][1]["devices"]["gained"] == nlohmann::json::array({"4"}));
  CHECK(json["cases"][1]["refusal"]["new"] == "refused now");
}
