// SPDX-License-Identifier: Apache-2.0
// Declarative mode's edit of config.json: a split plan's device nodes,
// device rules, binds and env written where the runtime carries them out,
// graft cdi-hook for the residual actions, each once, and everything the
// engine wrote kept.
#include <catch2/catch.hpp>

#include "config_plan_edit.hpp"

using graft::NativeEdits;
using graft::HookCommand;
using graft::runtime::ordered_json;
using graft::runtime::write_plan_edits;

namespace {

NativeEdits gpu1_edits() {
  NativeEdits edits;
  edits.device_nodes = {{"/dev/nvidia1", "/dev/nvidia1", 'c', 195, 1}};
  edits.device_rules = {{'c', 195, 1, "rw"}};
  edits.mounts = {{"/drv/libcuda.so.560", "/usr/lib/x86_64-linux-gnu/libcuda.so.560", {"ro", "nosuid", "nodev", "bind"}}};
  edits.env = {{"GPU_MODE", "shared"}};
  return edits;
}

const HookCommand kResidualHook{"/usr/bin/graft", {"graft", "cdi-hook", "createRuntime", "--link", "/a::b"}, {"PATH=/bin"}};

const char* kEngineConfig =
    R"({"ociVersion":"1.0.2","process":{"env":["PATH=/bin","GPU_MODE=x"],"args":["sh"]},)"
    R"("mounts":[{"destination":"/proc","type":"proc","source":"proc"}],)"
    R"("linux":{"resources":{"devices":[{"allow":false,"access":"rwm"}]},"x-engine":1}})";

ordered_json plan_edited(const std::string& text, const std::optional<HookCommand>& hook) {
  auto config = ordered_json::parse(text);
  auto changed = write_plan_edits(config, gpu1_edits(), hook);
  INFO((changed ? std::string() : changed.error().message));
  REQUIRE(changed);
  CHECK(*changed);
  return config;
}

}  // namespace

TEST_CASE("declarative edits go after the engine's devices, rules, mounts and env", "[runtime]") {
  auto config = plan_edited(kEngineConfig, kResidualHook);
  CHECK(config.dump() ==
        R"({"ociVersion":"1.0.2","process":{"env":["PATH=/bin","GPU_MODE=shared"],"args":["sh"]},)"
        R"("mounts":[{"destination":"/proc","type":"proc","source":"proc"},)"
        R"({"destination":"/usr/lib/x86_64-linux-gnu/libcuda.so.560","type":"bind","source":"/drv/libcuda.so.560",)"
        R"("options":["ro","nosuid","nodev","bind"]}],)"
        R"("linux":{"resources":{"devices":[{"allow":false,"access":"rwm"},)"
        R"({"allow":true,"type":"c","major":195,"minor":1,"access":"rw"}]},"x-engine":1,)"
        R"("devices":[{"path":"/dev/nvidia1","type":"c","major":195,"minor":1}]},)"
        R"("hooks":{"createRuntime":[{"path":"/usr/bin/graft","args":["graft","cdi-hook","createRuntime",)"
        R"("--link","/a::b"],"env":["PATH=/bin"]}]}})");
}

TEST_CASE("a config without the sections gets them", "[runtime]") {
  auto config = plan_edited(R"({"root":{"path":"rootfs"}})", std::nullopt);
  CHECK(config.at("linux").at("devices").size() == 1);
  CHECK(config.at("linux").at("resources").at("devices").size() == 1);
  CHECK(config.at("mounts").size() == 1);
  CHECK(config.at("process").at("env") == ordered_json::array({"GPU_MODE=shared"}));
  CHECK_FALSE(config.contains("hooks"));  // nothing residual: no hook
}

TEST_CASE("writing the same plan twice changes nothing the second time", "[runtime]") {
  auto config = plan_edited(kEngineConfig, kResidualHook);
  std::string once = config.dump();
  auto again = write_plan_edits(config, gpu1_edits(), kResidualHook);
  REQUIRE(again);
  CHECK_FALSE(*again);
  CHECK(config.dump() == once);
}

TEST_CASE("a config that already runs graft's hook is left as it is", "[runtime]") {
  auto config = ordered_json::parse(
      R"({"hooks":{"prestart":[{"path":"/usr/bin/graft","args":["graft","hook","prestart"]}]}})");
  std::string before = config.dump();
  auto changed = write_plan_edits(config, gpu1_edits(), kResidualHook);
  REQUIRE(changed);
  CHECK_FALSE(*changed);
  CHECK(config.dump() == before);
}

TEST_CASE("a section of the wrong shape is an error", "[runtime]") {
  auto config = ordered_json::parse(R"({"mounts":{}})");
  auto changed = write_plan_edits(config, gpu1_edits(), std::nullopt);
  REQUIRE_FALSE(changed);
  CHECK(changed.error().message == "config.json: mounts: expected an array");
  config = ordered_json::parse(R"({"linux":{"resources":{"devices":{}}}})");
  changed = write_plan_edits(config, gpu1_edits(), std::nullopt);
  REQUIRE_FALSE(changed);
  CHECK(changed.error().message == "config.json: linux.resources.devices: expected an array");
}
