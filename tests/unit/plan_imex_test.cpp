// SPDX-License-Identifier: Apache-2.0
// Whole-pipeline tests for IMEX channels (the shipped policy's
// imex_channels.lua and its per-minor device class "imex-channel") on a
// fake host with channels 0 and 1: what NVIDIA_IMEX_CHANNELS grants, the
// node and cgroup rule each channel brings, and the policy's switches.
#include <algorithm>

#include "plan_support.hpp"
#include "render/render.hpp"

using namespace graft;
using namespace graft::testing;

namespace {

constexpr unsigned kFakeImexMajor = 507;  // the fake host's nvidia-caps-imex-channels

fixture::FakeHostSpec imex_spec() {
  auto spec = fixture::FakeHostSpec::with_gpus(2);
  spec.imex_channels = {0, 1};
  return spec;
}

const PlannedHost& imex_host() {
  static PlannedHost host = PlannedHost::make(imex_spec());
  return host;
}

std::string imex_channel_node(unsigned n) { return "/dev/nvidia-caps-imex-channels/channel" + std::to_string(n); }
std::string imex_channel_rule(unsigned n) { return "c " + std::to_string(kFakeImexMajor) + ":" + std::to_string(n); }

Plan imex_plan_gpu0(const PlannedHost& host, const std::string& channels, bool privileged = false) {
  return host.plan({{"NVIDIA_VISIBLE_DEVICES", "0"}, {"NVIDIA_IMEX_CHANNELS", channels}}, privileged);
}

}  // namespace

TEST_CASE("NVIDIA_IMEX_CHANNELS=1 brings channel 1's node and cgroup rule, and not channel 0's", "[plan][imex]") {
  const auto& host = imex_host();
  if (!nodes_available(host)) return;
  Plan plan = imex_plan_gpu0(host, "1");
  REQUIRE_FALSE(plan.intent.refusal);
  const Action* node = find_action(plan, ActionKind::device_node, imex_channel_node(1));
  REQUIRE(node);
  CHECK(node->major == kFakeImexMajor);
  CHECK(node->minor == 1);
  CHECK(node->options == std::vector<std::string>{"bind"});
  CHECK(node->provenance.capability == "imex-channel 1");
  CHECK(node->provenance.reason == "NVIDIA_IMEX_CHANNELS=1");
  CHECK(node->provenance.origin.brief().starts_with("imex_channels.lua:"));
  CHECK(has_target(plan, ActionKind::cgroup_allow, imex_channel_rule(1)));
  CHECK_FALSE(has_target(plan, ActionKind::device_node, imex_channel_node(0)));
  CHECK_FALSE(has_target(plan, ActionKind::cgroup_allow, imex_channel_rule(0)));
}

TEST_CASE("NVIDIA_IMEX_CHANNELS=all brings every channel node the host has", "[plan][imex]") {
  const auto& host = imex_host();
  if (!nodes_available(host)) return;
  Plan plan = imex_plan_gpu0(host, "all");
  CHECK(has_target(plan, ActionKind::device_node, imex_channel_node(0)));
  CHECK(has_target(plan, ActionKind::device_node, imex_channel_node(1)));
  CHECK(has_target(plan, ActionKind::cgroup_allow, imex_channel_rule(0)));
  CHECK(has_target(plan, ActionKind::cgroup_allow, imex_channel_rule(1)));
  CHECK(plan.intent.nodes.size() == 2);
}

TEST_CASE("a channel the host has no node for is made in the container from the /proc/devices major",
          "[plan][imex]") {
  const auto& host = imex_host();
  Plan plan = imex_plan_gpu0(host, "5");
  REQUIRE_FALSE(plan.intent.refusal);
  const Action* node = find_action(plan, ActionKind::device_node, imex_channel_node(5));
  REQUIRE(node);
  CHECK(node->options == std::vector<std::string>{"mknod"});
  CHECK(node->major == kFakeImexMajor);
  CHECK(node->minor == 5);
  CHECK(has_target(plan, ActionKind::cgroup_allow, imex_channel_rule(5)));
}

TEST_CASE("a channel on a host without the IMEX major fails the plan, naming the node", "[plan][imex]") {
  static PlannedHost host = PlannedHost::make(2);
  auto evaluation = host.evaluate({{"NVIDIA_VISIBLE_DEVICES", "0"}, {"NVIDIA_IMEX_CHANNELS", "0"}});
  REQUIRE_FALSE(evaluation);
  CHECK_THAT(evaluation.error().message, Catch::Contains(imex_channel_node(0)) &&
                                             Catch::Contains("nvidia-caps-imex-channels"));
}

TEST_CASE("IMEX channels without a GPU request bring nothing", "[plan][imex]") {
  Plan plan = imex_host().plan({{"NVIDIA_IMEX_CHANNELS", "0"}});
  CHECK_FALSE(plan.inject);
  CHECK(plan.actions.empty());
}

TEST_CASE("an IMEX channel that is not a number refuses the container", "[plan][imex]") {
  Plan plan = imex_plan_gpu0(imex_host(), "0,abc");
  REQUIRE(plan.intent.refusal);
  CHECK_THAT(plan.intent.refusal->text, Catch::Contains("invalid IMEX channel 'abc'"));
  CHECK(plan.actions.empty());
}

TEST_CASE("imex_channels.ignore_requests in the policy ignores channel requests with a note", "[plan][imex]") {
  static PlannedHost host = PlannedHost::make(imex_spec(), "[data.imex_channels]\nignore_requests = true\n");
  Plan plan = imex_plan_gpu0(host, "0");
  REQUIRE_FALSE(plan.intent.refusal);
  CHECK(plan.inject);
  CHECK_FALSE(has_target(plan, ActionKind::device_node, imex_channel_node(0)));
  auto& notes = plan.intent.request_notes;
  CHECK(std::any_of(notes.begin(), notes.end(),
                    [](const std::string& n) { return n.find("ignore_requests") != std::string::npos; }));
}

TEST_CASE("imex_channels.privileged_only keeps channels from unprivileged containers only", "[plan][imex]") {
  static PlannedHost host = PlannedHost::make(imex_spec(), "[data.imex_channels]\nprivileged_only = true\n");
  if (!nodes_available(host)) return;
  CHECK_FALSE(has_target(imex_plan_gpu0(host, "0"), ActionKind::device_node, imex_channel_node(0)));
  CHECK(has_target(imex_plan_gpu0(host, "0", /*privileged=*/true), ActionKind::device_node, imex_channel_node(0)));
}

TEST_CASE("graft plan's text names each granted channel with its reason", "[plan][imex]") {
  const auto& host = imex_host();
  if (!nodes_available(host)) return;
  std::string text = render_plan_text(imex_plan_gpu0(host, "1"));
  CHECK_THAT(text, Catch::Contains("node imex-channel 1  (NVIDIA_IMEX_CHANNELS=1)"));
}

TEST_CASE("a trusted volume mount on <prefix>/imex/1 brings channel 1, and wins over the env", "[plan][imex]") {
  static PlannedHost host = PlannedHost::make(imex_spec(), "[requests]\nunprivileged = [\"env\", \"volume-mounts\"]\n");
  if (!nodes_available(host)) return;
  auto request = request_from_flags({"NVIDIA_VISIBLE_DEVICES=0", "NVIDIA_IMEX_CHANNELS=0"}, {}, false, "");
  REQUIRE(request);
  request->mounts.push_back({"/var/run/nvidia-container-devices/imex/1", "/dev/null", "bind", {"bind"}});
  auto evaluation = plan_container(*request, host.policy);
  REQUIRE(evaluation);
  const Action* node = find_action(evaluation->plan, ActionKind::device_node, imex_channel_node(1));
  REQUIRE(node);
  CHECK(node->provenance.reason == "volume mount /var/run/nvidia-container-devices/imex/1");
  CHECK_FALSE(has_target(evaluation->plan, ActionKind::device_node, imex_channel_node(0)));
}
