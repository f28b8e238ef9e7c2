// SPDX-License-Identifier: Apache-2.0
// The NVIDIA rules' notes and grant reasons (policies/nvidia/*.lua): what
// `graft explain` and the audit log show beside a decision. The decisions
// themselves are policies/nvidia/tests/*.toml cases, run by `graft policy
// test`; a case's [expect] has no key for a note or a reason, so those stay
// here, with the one switch of policy.data a case cannot set
// (data.disable_require). Each case names the policy test case it completes.
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "env_support.hpp"

using namespace graft;
using namespace graft::env_test;

namespace {
std::string first_device_reason(const Intent& intent) {
  REQUIRE_FALSE(intent.devices.empty());
  return intent.devices[0].reason.text;
}
}  // namespace

// ---------------------------------------------------------------------------
// capabilities.lua

// capabilities-unset.toml
TEST_CASE("the default capabilities note that NVIDIA_DRIVER_CAPABILITIES was unset", "[env]") {
  CHECK(has_note(evaluate_env({{"NVIDIA_VISIBLE_DEVICES", "0"}}), "NVIDIA_DRIVER_CAPABILITIES unset"));
}

// capabilities-empty.toml
TEST_CASE("the default capabilities note that NVIDIA_DRIVER_CAPABILITIES was empty", "[env]") {
  auto intent = evaluate_env({{"NVIDIA_VISIBLE_DEVICES", "0"}, {"NVIDIA_DRIVER_CAPABILITIES", ""}});
  CHECK(has_note(intent, "NVIDIA_DRIVER_CAPABILITIES empty"));
}

// capability-alone-*.toml
TEST_CASE("a capability asked for alone has the variable as its reason", "[env]") {
  for (const auto& name : supported_capabilities()) {
    INFO("capability " << name);
    auto intent = evaluate_env({{"NVIDIA_VISIBLE_DEVICES", "0"}, {"NVIDIA_DRIVER_CAPABILITIES", name}});
    REQUIRE(intent.capabilities.size() == 1);
    CHECK(intent.capabilities[0].reason.text == "NVIDIA_DRIVER_CAPABILITIES=" + name);
  }
}

// ---------------------------------------------------------------------------
// visible_devices.lua

// void.toml
TEST_CASE("NVIDIA_VISIBLE_DEVICES=void is the reason a container is not a GPU container", "[env]") {
  CHECK(evaluate_env({{"NVIDIA_VISIBLE_DEVICES", "void"}}).inject_reason.text == "NVIDIA_VISIBLE_DEVICES=void");
}

// all-gpus.toml
TEST_CASE("every GPU granted by all has the variable as its reason and the trusted channel noted", "[env]") {
  auto intent = evaluate_env({{"NVIDIA_VISIBLE_DEVICES", "all"}});
  REQUIRE(intent.devices.size() == kAllGpus.size());
  CHECK(intent.devices[3].reason.text == "NVIDIA_VISIBLE_DEVICES=all");
  CHECK(has_note(intent, "devices from env NVIDIA_VISIBLE_DEVICES=all (trusted)"));
}

// gpu-by-index.toml
TEST_CASE("a GPU granted by index has the variable as its reason, at its line of visible_devices.lua", "[env]") {
  auto intent = evaluate_env({{"NVIDIA_VISIBLE_DEVICES", "1"}});
  REQUIRE(devices(intent) == std::vector<std::string>{"1"});
  CHECK(intent.devices[0].reason.text == "NVIDIA_VISIBLE_DEVICES=1");
  CHECK(intent.devices[0].reason.origin.file.find("visible_devices.lua") != std::string::npos);
  CHECK(intent.devices[0].reason.origin.line > 0);
  CHECK(has_note(intent, "devices from env NVIDIA_VISIBLE_DEVICES=1 (trusted)"));
}

// cdi-name-in-visible-devices.toml
TEST_CASE("a CDI name in NVIDIA_VISIBLE_DEVICES is the reason of its grant, as written", "[env]") {
  auto intent = evaluate_env({{"NVIDIA_VISIBLE_DEVICES", "nvidia.com/gpu=3,nvidia.com/gpu=7:2"}});
  CHECK(first_device_reason(intent) == "NVIDIA_VISIBLE_DEVICES=nvidia.com/gpu=3");
}

// mig-partition-by-index.toml
TEST_CASE("a MIG partition granted by index has the variable as its reason", "[env]") {
  CHECK(first_device_reason(evaluate_env({{"NVIDIA_VISIBLE_DEVICES", "7:1"}})) == "NVIDIA_VISIBLE_DEVICES=7:1");
}

// all-gpus-on-host-without-gpus.toml
TEST_CASE("all on a host without GPUs notes that the host has none", "[env]") {
  Inventory inv = make_inventory();
  inv.gpus.clear();
  auto intent = evaluate(make_request({{"NVIDIA_VISIBLE_DEVICES", "all"}}), trusting_policy(), inv);
  CHECK(has_note(intent, "no GPUs found on this host"));
}

// annotations-win-over-env.toml
TEST_CASE("a GPU granted by annotation has the annotation as its reason and the channel noted", "[env]") {
  Request req = make_request({{"NVIDIA_VISIBLE_DEVICES", "0"}}, true);
  req.annotations = {{"cdi.k8s.io/gpus", "nvidia.com/gpu=all"}};
  auto intent = evaluate(req, cautious_policy());
  CHECK(first_device_reason(intent) == "annotation cdi.k8s.io/gpus=nvidia.com/gpu=all");
  CHECK(has_note(intent, "devices from annotations cdi.k8s.io/* (trusted)"));
}

// volume-mount-untrusted-env-decides.toml
TEST_CASE("untrusted volume mounts in an unprivileged container are noted as ignored", "[env]") {
  Policy policy = cautious_policy();
  policy.trusted_unprivileged = {"env"};
  Request req = make_request({{"NVIDIA_VISIBLE_DEVICES", "5"}}, false);
  req.mounts = {device_mount("all")};
  auto intent = evaluate(req, policy);
  CHECK(has_note(intent, "ignored devices requested by volume mounts in an unprivileged container"));
}

// legacy-cuda-image-all-gpus.toml
TEST_CASE("a legacy CUDA image's GPUs have the legacy image as their reason", "[env]") {
  auto intent = evaluate_env({{"CUDA_VERSION", "11.8.0"}});
  CHECK(first_device_reason(intent).find("legacy CUDA image") != std::string::npos);
}

// ---------------------------------------------------------------------------
// mig.lua

// mig-config-extra-only.toml
TEST_CASE("the mig-config extra has NVIDIA_MIG_CONFIG_DEVICES=all as its reason", "[env]") {
  auto intent = evaluate_env({{"NVIDIA_VISIBLE_DEVICES", "7"}, {"NVIDIA_MIG_CONFIG_DEVICES", "all"}},
                             /*privileged=*/true);
  REQUIRE(extras(intent) == std::vector<std::string>{"mig-config"});
  CHECK(intent.extras[0].reason.text == "NVIDIA_MIG_CONFIG_DEVICES=all");
}

// ---------------------------------------------------------------------------
// requirements.lua (driver 560.35.03; every GPU of make_inventory() is an
// "NVIDIA H100")

// requirement-cuda-met.toml
TEST_CASE("a checked requirement notes the driver version and the CUDA version it serves", "[env]") {
  auto intent = evaluate_env({{"NVIDIA_VISIBLE_DEVICES", "0"}, {"NVIDIA_REQUIRE_CUDA", "cuda>=12.6"}});
  CHECK(has_note(intent, "driver 560.35.03, cuda 12.6"));
}

// requirement-unknown-driver-branch.toml
TEST_CASE("a driver branch without a known CUDA version is noted as cuda unknown", "[env]") {
  Inventory inv = make_inventory();
  inv.driver_version = inv.driver_versions["nvidia"] = "999.1.2";
  auto intent = evaluate(
      make_request({{"NVIDIA_VISIBLE_DEVICES", "0"}, {"NVIDIA_REQUIRE_CUDA", "cuda>=99.0,driver>=999"}}),
      trusting_policy(), inv);
  CHECK(has_note(intent, "driver 999.1.2, cuda unknown"));
}

TEST_CASE("the plan notes each granted GPU's model, arch and brand", "[env]") {
  auto intent = evaluate_env({{"NVIDIA_VISIBLE_DEVICES", "0"}, {"NVIDIA_REQUIRE_ARCH", "arch>=9.0"}});
  CHECK(has_note(intent, "GPU 0 (NVIDIA H100) arch 9.0, brand nvidia"));
}

// requirement-unknown-model.toml
TEST_CASE("a model the tables do not know is noted with arch and brand unknown", "[env]") {
  Inventory inv = make_inventory();
  inv.gpus[0].model = "Prototype Accelerator X1";
  auto intent = evaluate(
      make_request({{"NVIDIA_VISIBLE_DEVICES", "0"}, {"NVIDIA_REQUIRE_ARCH", "arch>=99.0,brand=tesla"}}),
      trusting_policy(), inv);
  CHECK(has_note(intent, "GPU 0 (Prototype Accelerator X1) arch unknown, brand unknown"));
}

// requirement-arch-without-gpu.toml
TEST_CASE("without a granted GPU arch and brand are noted unknown", "[env]") {
  auto intent = evaluate_env({{"NVIDIA_VISIBLE_DEVICES", "none"}, {"NVIDIA_REQUIRE_ARCH", "arch>=99.0,brand=tesla"}});
  CHECK(has_note(intent, "arch and brand unknown (no GPU granted)"));
}

// disable-require-{1,t,t-upper,true,true-upper,true-title}.toml
TEST_CASE("NVIDIA_DISABLE_REQUIRE with a Go true value is noted as what disabled requirements", "[env]") {
  for (const char* value : {"1", "t", "T", "TRUE", "true", "True"}) {
    INFO("NVIDIA_DISABLE_REQUIRE=" << value);
    auto intent = evaluate_env({{"NVIDIA_VISIBLE_DEVICES", "0"},
                                {"NVIDIA_REQUIRE_CUDA", "cuda>=99.0"},
                                {"NVIDIA_DISABLE_REQUIRE", value}});
    CHECK(has_note(intent, std::string("requirements disabled by NVIDIA_DISABLE_REQUIRE=") + value));
  }
}

// A policy test case runs under one site policy and cannot set policy.data.
TEST_CASE("data.disable_require in the policy disables requirements for every container", "[env]") {
  Policy policy = trusting_policy();
  policy.data["disable_require"] = true;
  auto intent = evaluate(
      make_request({{"NVIDIA_VISIBLE_DEVICES", "0"}, {"NVIDIA_REQUIRE_CUDA", "cuda>=99.0"}}), policy);
  CHECK_FALSE(intent.refusal);
  CHECK(has_note(intent, "requirements disabled by policy"));
}
