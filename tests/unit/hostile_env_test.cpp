// SPDX-License-Identifier: Apache-2.0
// Hostile values in the NVIDIA env contract that the shipped policy's cases
// (policies/nvidia/tests) do not already cover (docs/security.md maps each
// item to its test): very long and repetitive device lists, malformed ids,
// garbage capabilities and requirements; and, through the real `graft hook`,
// that a refusal is exit 3 with one line and no plugin loaded.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <chrono>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <vector>

#include "env_support.hpp"
#include "hook_harness.hpp"
#include "rules/evaluate_rules.hpp"

using namespace graft;
using namespace graft::env_test;

namespace {

std::string repeat_list(const std::vector<std::string>& items, std::size_t count) {
  std::string out;
  for (std::size_t i = 0; i < count; ++i) out += (i ? "," : "") + items[i % items.size()];
  return out;
}

Intent with_devices(const std::string& value) { return evaluate_env({{"NVIDIA_VISIBLE_DEVICES", value}}); }

const std::string& hook_policy(const std::string& extra = "") {
  // No plugin directory: any hook that loads plugins fails with exit 1, so
  // exit 3 or 0 also proves nothing was loaded.
  static std::map<std::string, std::string> policies;
  auto& policy = policies[extra];
  if (policy.empty())
    policy = harness::write_policy("env-" + std::to_string(policies.size()),
                                   harness::host().path("/no-plugins"), extra);
  return policy;
}

testing::CommandResult hook_with_env(const std::string& name, const std::vector<std::string>& env,
                                     bool privileged = false, const std::string& extra = "") {
  std::string bundle = harness::write_bundle(harness::host().path("/env-bundles/" + name), env);
  if (privileged) {
    // write_bundle gives CAP_CHOWN only; a privileged container has CAP_SYS_ADMIN.
    std::string config = bundle + "/config.json";
    std::ifstream in(config);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    text.replace(text.find("CAP_CHOWN"), 9, "CAP_SYS_ADMIN");
    std::ofstream(config) << text;
  }
  return harness::hook(hook_policy(extra), harness::state_json("c9", ::getpid(), bundle));
}

}  // namespace

TEST_CASE("NVIDIA_VISIBLE_DEVICES with 10k repeated entries grants each GPU once", "[env][hostile]") {
  auto start = std::chrono::steady_clock::now();
  auto intent = with_devices(repeat_list({"0", "1", kUuids[2], "0000:3c:00.0", "nvidia.com/gpu=4", "7:1"}, 10000));
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(10));
  CHECK_FALSE(intent.refusal);
  CHECK(devices(intent) == std::vector<std::string>{"0", "1", "2", "3", "4", "7:1"});
}

TEST_CASE("NVIDIA_VISIBLE_DEVICES with 10k distinct out-of-range indices is refused naming the first",
          "[env][hostile]") {
  std::string value;
  for (int i = 8; i < 10008; ++i) value += (value.empty() ? "" : ",") + std::to_string(i);
  auto intent = with_devices(value);
  CHECK(refusal(intent) == "unknown device '8' in NVIDIA_VISIBLE_DEVICES (the host has 8 GPUs)");
  CHECK(intent.devices.empty());
}

TEST_CASE("NVIDIA_VISIBLE_DEVICES with 10k good entries and one bad last grants nothing", "[env][hostile]") {
  auto intent = with_devices(repeat_list({"0", "1", "2"}, 10000) + ",GPU-zz");
  CHECK(refusal(intent) == "unknown device 'GPU-zz' in NVIDIA_VISIBLE_DEVICES");
  CHECK(intent.devices.empty());
  CHECK(intent.capabilities.empty());
}

TEST_CASE("NVIDIA_VISIBLE_DEVICES of 1 MiB ends the evaluation with a sandbox limit error",
          "[env][hostile]") {
  auto result = evaluate_rules(make_request({{"NVIDIA_VISIBLE_DEVICES", repeat_list({"0"}, 1u << 19)}}),
                               make_inventory(), trusting_policy());
  REQUIRE_FALSE(result.ok());
  CHECK_THAT(result.error().message, Catch::EndsWith("exceeded"));  // the instruction budget or the memory cap
  CHECK(result.error().message.find('\n') == std::string::npos);
}

TEST_CASE("numeric device ids that are not plain GPU indices are refused", "[env][hostile]") {
  for (const char* id : {"99999999999999999999", "8", "-0", "+1", "1.0", "0x1", "1e0", " 0 1", "4294967296"}) {
    CAPTURE(id);
    auto intent = with_devices(id);
    CHECK_THAT(refusal(intent), Catch::StartsWith(std::string("unknown device '")));
    CHECK(intent.devices.empty());
  }
}

TEST_CASE("a leading zero index means that GPU, as libnvidia-container's atoi does", "[env][hostile]") {
  CHECK(devices(with_devices("01")) == std::vector<std::string>{"1"});
}

TEST_CASE("malformed GPU and MIG UUIDs are refused naming the token", "[env][hostile]") {
  const std::pair<std::string, std::string> cases[] = {
      {"GPU-", "unknown device 'GPU-' in NVIDIA_VISIBLE_DEVICES"},
      {"GPU-zzzz", "unknown device 'GPU-zzzz' in NVIDIA_VISIBLE_DEVICES"},
      {kUuids[0] + "-extra", "unknown device '" + kUuids[0] + "-extra' in NVIDIA_VISIBLE_DEVICES"},
      {"GPU-1a2b0000-1111-2222-3333-00000000000%", "unknown device 'GPU-1a2b0000-1111-2222-3333-00000000000%' in NVIDIA_VISIBLE_DEVICES"},
      {"MIG-GPU-" + kUuids[7].substr(4) + "/99/0",
       "unknown device 'MIG-GPU-" + kUuids[7].substr(4) + "/99/0' in NVIDIA_VISIBLE_DEVICES (GPU 7 has no such MIG partition)"},
  };
  for (const auto& [id, message] : cases) {
    CAPTURE(id);
    auto intent = with_devices(id);
    CHECK(refusal(intent) == message);
    CHECK(intent.devices.empty());
  }
  for (const char* id : {"MIG-", "MIG-GPU-zz/1/0"})
    CHECK_THAT(refusal(with_devices(id)), Catch::StartsWith("cannot resolve MIG device '" + std::string(id) + "'"));
}

TEST_CASE("empty entries in a device list are skipped", "[env][hostile]") {
  CHECK(devices(with_devices("0,,1,")) == std::vector<std::string>{"0", "1"});
  auto only_commas = with_devices(" , ,");
  CHECK(only_commas.devices.empty());
  CHECK_FALSE(only_commas.refusal);
}

TEST_CASE("void next to bad tokens still means no GPU container", "[env][hostile]") {
  for (const char* value : {"bogus,void", "void,GPU-zz", "99,void,-1"}) {
    CAPTURE(value);
    auto intent = with_devices(value);
    CHECK_FALSE(intent.inject);
    CHECK_FALSE(intent.refusal);
    CHECK(intent.devices.empty());
  }
}

TEST_CASE("garbage in NVIDIA_DRIVER_CAPABILITIES is refused naming the first unknown name", "[env][hostile]") {
  const std::pair<const char*, const char*> cases[] = {
      {"COMPUTE", "COMPUTE"}, {"compute;utility", "compute;utility"}, {"compute,\x01", "\x01"}};
  for (const auto& [value, name] : cases) {
    CAPTURE(value);
    auto intent = evaluate_env({{"NVIDIA_VISIBLE_DEVICES", "0"}, {"NVIDIA_DRIVER_CAPABILITIES", value}});
    CHECK_THAT(refusal(intent), Catch::StartsWith("unsupported capability '" + std::string(name) + "'"));
    CHECK(intent.capabilities.empty());
  }
  std::string many = repeat_list({"compute", "utility", "video"}, 10000);
  auto intent = evaluate_env({{"NVIDIA_VISIBLE_DEVICES", "0"}, {"NVIDIA_DRIVER_CAPABILITIES", many}});
  CHECK_FALSE(intent.refusal);
  CHECK(capabilities(intent) == std::vector<std::string>{"compute", "utility", "video"});
}

TEST_CASE("a requirement expression of 1 MiB is refused as too long, quickly", "[env][hostile]") {
  std::string expr = repeat_list({"cuda>=1.0"}, 100000);
  auto start = std::chrono::steady_clock::now();
  auto intent = evaluate_env({{"NVIDIA_VISIBLE_DEVICES", "0"}, {"NVIDIA_REQUIRE_CUDA", expr}});
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(5));
  CHECK(refusal(intent) == "invalid expression in NVIDIA_REQUIRE_CUDA: longer than 4096 characters");
}

TEST_CASE("malformed requirement expressions are refused naming the term", "[env][hostile]") {
  for (const char* expr : {"cuda>=", ">=12.0", "cuda>=12..0", "cuda >= 12.0 arch", "\x01"}) {
    CAPTURE(expr);
    auto intent = evaluate_env({{"NVIDIA_VISIBLE_DEVICES", "0"}, {"NVIDIA_REQUIRE_CUDA", expr}});
    CHECK_THAT(refusal(intent), Catch::StartsWith("invalid expression"));
  }
}

TEST_CASE("an empty alternative in a requirement holds, as the image's own constraint", "[env][hostile]") {
  auto intent = evaluate_env({{"NVIDIA_VISIBLE_DEVICES", "0"}, {"NVIDIA_REQUIRE_CUDA", "cuda>=99.0 ,"}});
  CHECK_FALSE(intent.refusal);
}

TEST_CASE("a refused request exits 3 with one line before any plugin is loaded", "[hook][hostile]") {
  auto result = hook_with_env("refused-index", {R"("NVIDIA_VISIBLE_DEVICES=0,99")"});
  INFO(result.err);
  CHECK(result.exit_code == 3);
  CHECK(result.out.empty());
  CHECK(result.err ==
        "graft: container c9 refused: unknown device '99' in NVIDIA_VISIBLE_DEVICES (the host has 2 GPUs) "
        "(visible_devices.lua:" + result.err.substr(result.err.rfind(':') + 1));
}

TEST_CASE("NVIDIA_MIG_CONFIG_DEVICES in an unprivileged container exits 3 with one line",
          "[hook][hostile]") {
  auto result = hook_with_env("mig-config", {R"("NVIDIA_VISIBLE_DEVICES=0")", R"("NVIDIA_MIG_CONFIG_DEVICES=all")"});
  INFO(result.err);
  CHECK(result.exit_code == 3);
  CHECK(harness::line_count(result.err) == 1);
  CHECK_THAT(result.err, Catch::Contains("cannot set NVIDIA_MIG_CONFIG_DEVICES in an unprivileged container"));
}

TEST_CASE("an env request the policy does not trust leaves the container alone with exit 0",
          "[hook][hostile]") {
  const std::string only_mounts =
      "[requests]\nprivileged = [\"env\", \"volume-mounts\", \"annotations\"]\n"
      "unprivileged = [\"volume-mounts\", \"annotations\"]\n";
  auto result = hook_with_env("untrusted-env", {R"("NVIDIA_VISIBLE_DEVICES=all")"}, false, only_mounts);
  INFO(result.err);
  CHECK(result.exit_code == 0);
  CHECK(result.err.empty());
  // The same request from a privileged container is trusted, so the hook goes
  // on to load plugins, which this policy has none of.
  auto privileged = hook_with_env("untrusted-env-priv", {R"("NVIDIA_VISIBLE_DEVICES=0")"}, true, only_mounts);
  if (harness::host().device_nodes_created()) {
    CHECK(privileged.exit_code == 1);
    CHECK_THAT(privileged.err, Catch::Contains("plugin directory"));
  }
}

TEST_CASE("a refusal quoting a value with a newline stays one line", "[hook][hostile]") {
  auto result = hook_with_env("newline", {R"("NVIDIA_VISIBLE_DEVICES=0,bo\ngus\u0001")"});
  INFO(result.err);
  CHECK(result.exit_code == 3);
  CHECK(harness::line_count(result.err) == 1);
  CHECK_THAT(result.err, Catch::Contains(R"(unknown device 'bo\ngus\x01')"));
}
