// SPDX-License-Identifier: Apache-2.0
// intent_changes: what one rule changed, as the lines `graft plan --explain`
// prints under it. Pure: Intents built in code.
#include <catch2/catch.hpp>

#include "intent/intent_changes.hpp"

using namespace graft;

namespace {

Reason because(const std::string& text) { return Reason{text, Origin{"/etc/graft/site.lua", 3, 0}}; }

Intent injecting() {
  Intent intent;
  intent.inject = true;
  intent.inject_reason = because("asked");
  intent.devices.push_back(DeviceGrant{0, std::nullopt, because("VISIBLE_DEVICES=all")});
  intent.devices.push_back(DeviceGrant{1, std::nullopt, because("VISIBLE_DEVICES=all")});
  intent.capabilities.push_back(NamedGrant{"compute", because("default")});
  intent.capabilities.push_back(NamedGrant{"display", because("asked")});
  return intent;
}

}  // namespace

TEST_CASE("equal intents have no changes", "[explain]") {
  CHECK(intent_changes(injecting(), injecting()).empty());
}

TEST_CASE("turning injection on is one line with the old and new value and the reason", "[explain]") {
  Intent after;
  after.inject = true;
  after.inject_reason = because("VISIBLE_DEVICES=1");
  CHECK(intent_changes(Intent{}, after) == std::vector<std::string>{"inject: false -> true (VISIBLE_DEVICES=1)"});
}

TEST_CASE("a granted device and partition are added lines with their reasons", "[explain]") {
  Intent before;
  Intent after;
  after.devices.push_back(DeviceGrant{1, std::nullopt, because("VISIBLE_DEVICES=1")});
  after.devices.push_back(DeviceGrant{2, 0u, because("VISIBLE_DEVICES=2:0")});
  CHECK(intent_changes(before, after) == std::vector<std::string>{"+ device GPU 1 (VISIBLE_DEVICES=1)",
                                                                   "+ device GPU 2 partition 0 (VISIBLE_DEVICES=2:0)"});
}

TEST_CASE("a dropped capability takes the reason of the denial recorded with it", "[explain]") {
  Intent after = injecting();
  after.capabilities.pop_back();
  after.denials.push_back(Denial{"capability display", because("unprivileged container")});
  CHECK(intent_changes(injecting(), after) ==
        std::vector<std::string>{"- capability display (unprivileged container)"});
}

TEST_CASE("a removed GPU takes the reason of its denial", "[explain]") {
  Intent after = injecting();
  after.devices.erase(after.devices.begin());
  after.denials.push_back(Denial{"GPU 0", because("lease for team-a")});
  CHECK(intent_changes(injecting(), after) == std::vector<std::string>{"- device GPU 0 (lease for team-a)"});
}

TEST_CASE("a denial that removed nothing is listed as denied", "[explain]") {
  Intent after = injecting();
  after.denials.push_back(Denial{"capability video", because("not on this node")});
  CHECK(intent_changes(injecting(), after) == std::vector<std::string>{"+ denied capability video (not on this node)"});
}

TEST_CASE("env changes show the variable's old and new values", "[explain]") {
  Intent before;
  before.env.push_back(EnvGrant{"A", "1", because("first")});
  Intent after;
  after.env.push_back(EnvGrant{"A", "2", because("second")});
  after.env.push_back(EnvGrant{"B", "x", because("added")});
  CHECK(intent_changes(before, after) == std::vector<std::string>{"~ env A: 1 -> 2 (second)", "+ env B=x (added)"});
}

TEST_CASE("a written file and an added extra are listed by path and name", "[explain]") {
  Intent after;
  after.files.push_back(FileGrant{"/etc/profile.json", "{}", because("graphics")});
  after.extras.push_back(NamedGrant{"mig-config", because("admin namespace")});
  CHECK(intent_changes(Intent{}, after) ==
        std::vector<std::string>{"+ extra mig-config (admin namespace)", "+ file /etc/profile.json (graphics)"});
}

TEST_CASE("a refusal is the last line, with its reason", "[explain]") {
  Intent after = injecting();
  after.refusal = because("needs cuda>=13");
  after.denials.push_back(Denial{"request", because("needs cuda>=13")});
  CHECK(intent_changes(injecting(), after) ==
        std::vector<std::string>{"+ denied request (needs cuda>=13)", "refused (needs cuda>=13)"});
}

TEST_CASE("a request note is an added line", "[explain]") {
  Intent after;
  after.request_notes.push_back("NVIDIA_VISIBLE_DEVICES=1");
  CHECK(intent_changes(Intent{}, after) == std::vector<std::string>{"+ note NVIDIA_VISIBLE_DEVICES=1"});
}

TEST_CASE("a granted node is an added line naming its class, its number and its reason", "[explain]") {
  Intent before = injecting();
  Intent after = injecting();
  after.nodes.push_back(NodeGrant{"imex-channel", 3u, because("NVIDIA_IMEX_CHANNELS=3")});
  after.nodes.push_back(NodeGrant{"gds", std::nullopt, because("NVIDIA_GDS=enabled")});
  CHECK(intent_changes(before, after) ==
        std::vector<std::string>{"+ node imex-channel 3 (NVIDIA_IMEX_CHANNELS=3)", "+ node gds (NVIDIA_GDS=enabled)"});
}
