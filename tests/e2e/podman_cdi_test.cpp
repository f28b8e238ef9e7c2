// SPDX-License-Identifier: Apache-2.0
// Debian's podman 4.3.1 as a real CDI consumer: `graft cdi generate` writes
// the spec for the e2e fake host into /etc/cdi, and `podman run --device
// KIND=1` injects it, graft's own hooks (`graft cdi-hook createRuntime`)
// included. No graft hook is configured: what the container gets comes from
// the spec alone, and the check script generated from `graft plan` for the
// same request (GPU 1 with the policy's default capabilities, compute and
// utility) proves it is that plan, as the hook tests prove theirs. The GPU
// alone gives the default capabilities, as every CDI consumer expects; a
// spec generated for least privilege gives them only through capability
// devices.
// Each spec has a kind of its own and a unique file name, removed at the
// end even when the case fails, so parallel tests never see each other's.
// The AMD case alone uses its policy's real kind, amd.com/gpu, as amd-ctk
// names it (no other case does), on the fake AMD host.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <filesystem>

#include <nlohmann/json.hpp>

#include "fixture_files.hpp"
#include "harness/amd_container_checks.hpp"
#include "harness/amd_host.hpp"
#include "harness/container_checks.hpp"
#include "harness/gpu_host.hpp"
#include "harness/podman.hpp"
#include "harness/probed_container.hpp"
#include "run_command.hpp"

namespace graft::e2e {
namespace {

using nlohmann::json;

constexpr const char* kCdiDir = "/etc/cdi";

// A kind of this test process's own ("graft-e2e-<pid>-<n>.test/gpu").
std::string unique_kind() {
  static std::atomic<int> counter{0};
  return "graft-e2e-" + std::to_string(::getpid()) + "-" + std::to_string(++counter) + ".test/gpu";
}

// Where an InstalledSpec of `kind` lives: /etc/cdi/<vendor part>.json.
std::string spec_path(const std::string& kind) {
  return std::string(kCdiDir) + "/" + kind.substr(0, kind.find('/')) + ".json";
}

// A generated spec in /etc/cdi for as long as this lives.
class InstalledSpec {
 public:
  InstalledSpec(const std::string& policy, const std::string& kind, const std::vector<std::string>& options = {}) {
    std::filesystem::create_directories(kCdiDir);
    path_ = spec_path(kind);
    std::vector<std::string> args = {"--policy", policy, "cdi", "generate", "--kind", kind, "--output", path_};
    args.insert(args.end(), options.begin(), options.end());
    result_ = testing::run_graft(args);
  }
  ~InstalledSpec() { std::filesystem::remove(path_); }
  InstalledSpec(const InstalledSpec&) = delete;
  InstalledSpec& operator=(const InstalledSpec&) = delete;

  const testing::CommandResult& result() const { return result_; }
  json document() const { return json::parse(fixture::read_file(path_)); }

 private:
  std::string path_;
  testing::CommandResult result_;
};

// `spec`'s root run by podman with the CDI devices `devices` (names within
// `kind`) and nothing of `spec`'s env: the spec alone gives the container
// its GPU; the env only makes `graft plan` print the plan to check.
ProbedContainer run_podman_cdi(const std::string& kind, const std::vector<std::string>& devices,
                               const BundleSpec& spec, const DeviceProbes& probes = nvidia_device_probes()) {
  std::vector<std::string> args;
  for (const auto& device : devices) args.insert(args.end(), {"--device", kind + "=" + device});
  return run_podman_probed(args, spec, probes);
}

// A CDI spec already on this host that declares `kind` (a real amd-ctk's,
// say): ours would clash with it, and podman refuses both. The file an
// InstalledSpec of `kind` writes is not one: a killed run's is overwritten.
std::string host_spec_of_kind(const std::string& kind) {
  const std::string ours = spec_path(kind);
  for (const char* dir : {kCdiDir, "/var/run/cdi"}) {
    std::error_code error;
    for (const auto& entry : std::filesystem::directory_iterator(dir, error))
      if (entry.path() != ours && fixture::read_file(entry.path()).find("\"" + kind + "\"") != std::string::npos)
        return "this host's CDI spec " + entry.path().string() + " declares " + kind + " already";
  }
  return "";
}

// GPU 1 with the policy's default capabilities: what `graft plan` checks
// the container against (the env reaches graft plan, never podman).
BundleSpec gpu1_default_capabilities() {
  BundleSpec spec;
  spec.env = {"NVIDIA_VISIBLE_DEVICES=1"};
  return spec;
}

// The planned target whose name is `name` exists in the container.
void check_planned_binary(const ProbedContainer& container, const std::string& name) {
  std::string target;
  for (const auto& action : container.plan.at("actions"))
    if (action.at("kind") == "bind_mount" && action.at("target").get<std::string>().ends_with("/" + name))
      target = action.at("target");
  INFO(name << " in the plan: " << target);
  REQUIRE_FALSE(target.empty());
  auto exists = container.report.find("exists", target);
  REQUIRE(exists);
  CHECK(exists->at(0) == "1");
}

void check_gpu1_with_default_capabilities(const ProbedContainer& container) {
  require_ran_cleanly(container);
  check_gpu1_devices(container);
  check_planned_libraries(container);  // libcuda.so.1 in the container's ld cache among them
  check_planned_binary(container, "nvidia-smi");
  check_gpu1_procfs(container);
  check_exactly_the_planned_targets(container);
}

}  // namespace

TEST_CASE("podman 4.3.1 runs a container with GPU 1 alone from graft's CDI spec, and it gets the default "
          "capabilities (libcuda.so.1, nvidia-smi): exactly what graft plan prints for NVIDIA_VISIBLE_DEVICES=1",
          "[podman][cdi]") {
  GRAFT_SKIP_IF(podman_skip_reason());
  std::string kind = unique_kind();
  InstalledSpec installed(gpu_host().policy, kind);
  INFO(installed.result().err);
  REQUIRE(installed.result().exit_code == 0);
  CHECK(installed.document()["cdiVersion"] == "0.5.0");
  auto container = run_podman_cdi(kind, {"1"}, gpu1_default_capabilities());
  check_gpu1_with_default_capabilities(container);
  // graft's hooks ran, each writing its record: the spec-level one (procfs
  // mask, GPU 1's procfs directory) and GPU 1's (compute's and utility's
  // links, the ld cache).
  CHECK(audit_records(container.id, "applied").size() == 2);
}

TEST_CASE("an image without a multiarch directory or /etc/debian_version gets GPU 1's libraries from graft's CDI "
          "spec in the multiarch directory the spec names, and its ld cache finds libcuda.so.1 there",
          "[podman][cdi][lib_dir]") {
  GRAFT_SKIP_IF(podman_skip_reason());
  std::string kind = unique_kind();
  InstalledSpec installed(gpu_host().policy, kind);
  INFO(installed.result().err);
  REQUIRE(installed.result().exit_code == 0);
  BundleSpec spec = gpu1_default_capabilities();
  spec.layout = ImageLayout::lib64;
  auto container = run_podman_cdi(kind, {"1"}, spec);
  require_ran_cleanly(container);
  INFO("container output:\n" << container.run.out);
  // The hook would choose /usr/lib64 for this image, and says so; a spec
  // written with no image cannot (docs/cdi.md, "Image layout").
  CHECK(container.plan.at("lib_dir") == "/usr/lib64");
  const auto& cache = container.report.subjects("ldcache");
  CHECK(std::any_of(cache.begin(), cache.end(), [](const std::string& line) {
    return line.find("libcuda.so.1") != std::string::npos &&
           line.find("=> /usr/lib/x86_64-linux-gnu/libcuda.so.1") != std::string::npos;
  }));
}

TEST_CASE("podman runs a container with all alone from graft's CDI spec, and it gets every GPU and the default "
          "capabilities: exactly what graft plan prints for NVIDIA_VISIBLE_DEVICES=all",
          "[podman][cdi]") {
  GRAFT_SKIP_IF(podman_skip_reason());
  std::string kind = unique_kind();
  InstalledSpec installed(gpu_host().policy, kind);
  INFO(installed.result().err);
  REQUIRE(installed.result().exit_code == 0);
  BundleSpec every_gpu;
  every_gpu.env = {"NVIDIA_VISIBLE_DEVICES=all"};
  auto container = run_podman_cdi(kind, {"all"}, every_gpu);
  require_ran_cleanly(container);
  CHECK(container.plan.at("decisions").at("granted").at("devices").size() == kFakeGpus);
  check_planned_libraries(container);
  check_planned_binary(container, "nvidia-smi");
  check_exactly_the_planned_targets(container);
  CHECK(audit_records(container.id, "applied").size() == 2);
}

TEST_CASE("podman runs GPU 1 named with capability-compute and capability-utility, sets the GPU device carries "
          "too: the hooks named twice give the same container",
          "[podman][cdi]") {
  GRAFT_SKIP_IF(podman_skip_reason());
  std::string kind = unique_kind();
  InstalledSpec installed(gpu_host().policy, kind);
  INFO(installed.result().err);
  REQUIRE(installed.result().exit_code == 0);
  auto container = run_podman_cdi(kind, {"1", "capability-compute", "capability-utility"},
                                  gpu1_default_capabilities());
  check_gpu1_with_default_capabilities(container);
  // The spec-level hook, GPU 1's, and compute's and utility's again.
  CHECK(audit_records(container.id, "applied").size() == 4);
}

TEST_CASE("with a least-privilege spec (--gpu-capabilities none) the GPU device carries no library, and podman "
          "with GPU 1, compute and utility gets exactly what graft plan prints for that request",
          "[podman][cdi]") {
  GRAFT_SKIP_IF(podman_skip_reason());
  std::string kind = unique_kind();
  InstalledSpec installed(gpu_host().policy, kind, {"--gpu-capabilities", "none"});
  INFO(installed.result().err);
  REQUIRE(installed.result().exit_code == 0);
  // Held by name: a range-for over a member of a temporary would read it
  // after it is destroyed.
  json document = installed.document();
  for (const auto& device : document["devices"])
    if (device["name"] == "1") CHECK_FALSE(device["containerEdits"].contains("mounts"));
  auto container = run_podman_cdi(kind, {"1", "capability-compute", "capability-utility"},
                                  gpu1_compute_utility());
  require_ran_cleanly(container);
  check_gpu1_devices(container);
  check_planned_libraries(container);
  check_gpu1_procfs(container);
  check_exactly_the_planned_targets(container);
  // One hook per CDI edits that has one: the spec-level one, compute's and
  // utility's; each wrote its record.
  CHECK(audit_records(container.id, "applied").size() == 3);
}

TEST_CASE("podman refuses a CDI device the spec does not name, and runs nothing", "[podman][cdi]") {
  GRAFT_SKIP_IF(podman_skip_reason());
  std::string kind = unique_kind();
  InstalledSpec installed(gpu_host().policy, kind);
  REQUIRE(installed.result().exit_code == 0);
  auto container = run_podman_cdi(kind, {"no-such-gpu"}, gpu1_compute_utility());
  CHECK(container.run.exit_code != 0);
  CHECK_THAT(container.run.err, Catch::Contains(kind + "=no-such-gpu"));
  CHECK(audit_records(container.id, "applied").empty());
}

// Catch wraps a case's name at its first ": ", which must come early.
TEST_CASE("podman with graft's CDI spec for the AMD host: --device amd.com/gpu=1 gets /dev/kfd and renderD129 "
          "and not renderD128, exactly what graft plan prints for AMD_VISIBLE_DEVICES=1",
          "[podman][cdi][amd]") {
  GRAFT_SKIP_IF(podman_skip_reason());
  GRAFT_SKIP_IF(amd_host_skip_reason());
  const std::string kind = "amd.com/gpu";
  GRAFT_SKIP_IF(host_spec_of_kind(kind));
  InstalledSpec installed(amd_host().policy, kind);
  INFO(installed.result().err);
  REQUIRE(installed.result().exit_code == 0);
  // The env reaches graft plan only (run_podman_cdi), never podman.
  auto container = run_podman_cdi(kind, {"1"}, amd_bundle("1"), amd_device_probes());
  require_ran_cleanly(container);
  check_amd_gpu1_planned(container);
  check_amd_gpu1_devices(container);
  check_exactly_the_planned_amd_targets(container);
}

}  // namespace graft::e2e
