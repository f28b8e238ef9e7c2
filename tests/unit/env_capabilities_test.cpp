// NVIDIA env contract, NVIDIA_DRIVER_CAPABILITIES: policy defaults, single and
// combined capabilities, all, and the refusal of an unknown capability.
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "env_support.hpp"

using namespace graft;
using namespace graft::env_test;

// ---------------------------------------------------------------------------
// NVIDIA_DRIVER_CAPABILITIES

TEST_CASE("capabilities unset get the policy defaults", "[env]") {
  auto intent = evaluate_env({{"NVIDIA_VISIBLE_DEVICES", "0"}});
  CHECK(capabilities(intent) == default_capabilities());
  CHECK(has_note(intent, "NVIDIA_DRIVER_CAPABILITIES unset"));
}

TEST_CASE("capabilities empty get the policy defaults", "[env]") {
  auto intent = evaluate_env({{"NVIDIA_VISIBLE_DEVICES", "0"}, {"NVIDIA_DRIVER_CAPABILITIES", ""}});
  CHECK(capabilities(intent) == default_capabilities());
  CHECK(has_note(intent, "NVIDIA_DRIVER_CAPABILITIES empty"));
}

TEST_CASE("each supported capability can be asked for alone", "[env]") {
  for (const auto& name : supported_capabilities()) {
    INFO("capability " << name);
    auto intent = evaluate_env({{"NVIDIA_VISIBLE_DEVICES", "0"}, {"NVIDIA_DRIVER_CAPABILITIES", name}});
    CHECK(capabilities(intent) == std::vector<std::string>{name});
    REQUIRE(intent.capabilities.size() == 1);
    CHECK(intent.capabilities[0].reason.text == "NVIDIA_DRIVER_CAPABILITIES=" + name);
  }
}

TEST_CASE("capabilities combine and are whitespace-trimmed", "[env]") {
  auto intent = evaluate_env(
      {{"NVIDIA_VISIBLE_DEVICES", "0"}, {"NVIDIA_DRIVER_CAPABILITIES", "compute, video,graphics"}});
  CHECK(capabilities(intent) == std::vector<std::string>{"compute", "graphics", "video"});
}

TEST_CASE("capabilities=all grants every supported capability", "[env]") {
  auto intent = evaluate_env({{"NVIDIA_VISIBLE_DEVICES", "0"}, {"NVIDIA_DRIVER_CAPABILITIES", "all"}});
  CHECK(capabilities(intent) == supported_capabilities());
}

TEST_CASE("an unknown capability is refused naming it", "[env]") {
  auto intent =
      evaluate_env({{"NVIDIA_VISIBLE_DEVICES", "0"}, {"NVIDIA_DRIVER_CAPABILITIES", "compute,teleport"}});
  CHECK(refusal(intent).starts_with("unsupported capability 'teleport' in NVIDIA_DRIVER_CAPABILITIES"));
}

TEST_CASE("capabilities are not applied to a container that is not injected", "[env]") {
  auto intent =
      evaluate_env({{"NVIDIA_VISIBLE_DEVICES", "void"}, {"NVIDIA_DRIVER_CAPABILITIES", "teleport"}});
  CHECK_FALSE(intent.inject);
  CHECK(intent.capabilities.empty());
  CHECK_FALSE(intent.refusal);
}
