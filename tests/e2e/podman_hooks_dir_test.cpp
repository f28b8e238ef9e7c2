// SPDX-License-Identifier: Apache-2.0
// podman and the hooks.d file graft ships (hooks/oci-hooks.d/graft.json.in,
// docs/hooks.md "podman and CRI-O: hooks.d"): Debian's podman 4.3.1, given
// the file with --hooks-dir, runs `graft hook prestart` and the container
// gets exactly what `graft plan` prints, as with runc's config.json hook.
// The file is the one this tree configured for installation, with two edits
// only: the built graft instead of the installed path, and the test policy;
// its explicit env (PATH alone) stays as shipped.
#include <catch2/catch.hpp>

#include <fstream>

#include <nlohmann/json.hpp>

#include "fixture_files.hpp"
#include "harness/container_checks.hpp"
#include "harness/gpu_host.hpp"
#include "harness/podman.hpp"
#include "harness/probed_container.hpp"

namespace graft::e2e {
namespace {

using nlohmann::json;

// The `when` docs/hooks.md gives for running the hook only for containers
// that ask through a CDI annotation, the channel the shipped rules read.
const json kAnnotationGate = {{"annotations", {{"^cdi\\.k8s\\.io/", "nvidia\\.com/gpu="}}}};

// The installed hooks.d file, pointed at the built graft and `policy`, with
// `when` replaced when one is given; written as graft.json into `dir`.
void write_hooks_dir(const std::string& dir, const std::string& policy, const json& when = nullptr) {
  std::ifstream in(GRAFT_E2E_HOOKS_FILE);
  json hook = json::parse(in);
  // What the edits below assume the shipped file says.
  REQUIRE(hook.at("hook").at("path").get<std::string>().ends_with("/bin/graft"));
  REQUIRE(hook.at("hook").at("args") == json({"graft", "hook", "prestart"}));
  REQUIRE(hook.at("when") == json({{"always", true}}));
  // Kept as shipped: podman runs the hook with exactly this env.
  REQUIRE(hook.at("hook").at("env") ==
          json({"PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"}));
  hook["hook"]["path"] = GRAFT_BINARY;
  hook["hook"]["args"] = {"graft", "--policy", policy, "hook", "prestart"};
  if (!when.is_null()) hook["when"] = when;
  fixture::write_file(dir + "/graft.json", hook.dump(2));
}

// Every audit record the hook wrote for container `id`, whatever its outcome.
std::vector<json> any_audit_record(const std::string& id) {
  std::vector<json> records;
  for (const char* outcome : {"untouched", "planned", "applied", "refused", "error"})
    for (auto& record : audit_records(id, outcome)) records.push_back(std::move(record));
  return records;
}

// One podman run of `spec`'s root with the hooks.d file in `hooks_dir`,
// the spec's env and annotations passed as podman options.
ProbedContainer run_podman_probed(const std::string& hooks_dir, const BundleSpec& spec) {
  std::vector<std::string> args{"--hooks-dir", hooks_dir};
  for (const auto& entry : spec.env) args.insert(args.end(), {"--env", entry});
  for (const auto& [key, value] : spec.annotations) args.insert(args.end(), {"--annotation", key + "=" + value});
  return run_podman_probed(args, spec);
}

// Nothing of the GPU host reached the container: no NVIDIA node, none of
// the targets its plan names (when it has one), and no audit record, which
// every container graft gives something to has.
void check_hooks_dir_untouched(const ProbedContainer& container) {
  INFO("container output:\n" << container.run.out);
  CHECK(container.report.subjects("devls").empty());
  CHECK(container.report.open_result("/dev/nvidia1") == "No such file or directory");
  for (const auto& action : container.plan.at("actions")) {
    std::string target = action.at("target");
    INFO(target);
    if (auto exists = container.report.find("exists", target)) CHECK(exists->at(0) == "0");
  }
  CHECK(any_audit_record(container.id).empty());
}

}  // namespace

TEST_CASE("podman with the shipped hooks.d file gives a container asking for GPU 1 exactly that GPU, "
          "its libraries and its ld cache",
          "[podman]") {
  GRAFT_SKIP_IF(podman_skip_reason());
  fixture::TempDir hooks("graft-e2e-hooks-");
  write_hooks_dir(hooks.path(), gpu_host().policy);
  auto container = run_podman_probed(hooks.path(), gpu1_compute_utility());
  require_ran_cleanly(container);
  check_gpu1_devices(container);
  check_planned_libraries(container);
  check_gpu1_procfs(container);
  check_exactly_the_plan(container);
}

TEST_CASE("podman with the shipped hooks.d file puts a bare busybox root's libraries in its empty multiarch "
          "directory, as graft plan --rootfs says",
          "[podman][lib_dir]") {
  GRAFT_SKIP_IF(podman_skip_reason());
  fixture::TempDir hooks("graft-e2e-hooks-");
  write_hooks_dir(hooks.path(), gpu_host().policy);
  BundleSpec spec = gpu1_compute_utility();
  spec.layout = ImageLayout::busybox;  // no /etc/debian_version, no ld.so.conf
  auto container = run_podman_probed(hooks.path(), spec);
  require_ran_cleanly(container);
  CHECK(container.plan.at("lib_dir") == "/usr/lib/x86_64-linux-gnu");
  check_planned_libraries(container);
  check_exactly_the_plan(container);
}

TEST_CASE("podman with the shipped hooks.d file leaves a container that asks for no GPU untouched", "[podman]") {
  GRAFT_SKIP_IF(podman_skip_reason());
  fixture::TempDir hooks("graft-e2e-hooks-");
  write_hooks_dir(hooks.path(), gpu_host().policy);
  auto container = run_podman_probed(hooks.path(), BundleSpec{});
  require_ran_cleanly(container);
  CHECK(container.plan.at("inject") == false);
  check_hooks_dir_untouched(container);
}

TEST_CASE("podman with the annotation-gated hooks.d file runs no hook for a container without the annotation, "
          "even one whose env asks for GPU 1",
          "[podman]") {
  GRAFT_SKIP_IF(podman_skip_reason());
  fixture::TempDir hooks("graft-e2e-hooks-");
  write_hooks_dir(hooks.path(), gpu_host().policy, kAnnotationGate);
  auto container = run_podman_probed(hooks.path(), gpu1_compute_utility());
  require_ran_cleanly(container);
  // The always-on file would have given it GPU 1 (and an "applied" record).
  CHECK(container.plan.at("inject") == true);
  check_hooks_dir_untouched(container);
}

TEST_CASE("podman with the annotation-gated hooks.d file gives a container with the CDI annotation its GPU",
          "[podman]") {
  GRAFT_SKIP_IF(podman_skip_reason());
  fixture::TempDir hooks("graft-e2e-hooks-");
  write_hooks_dir(hooks.path(), gpu_host().policy, kAnnotationGate);
  BundleSpec spec;
  spec.env = {"NVIDIA_DRIVER_CAPABILITIES=compute,utility"};
  spec.annotations = {{"cdi.k8s.io/graft", "nvidia.com/gpu=1"}};
  auto container = run_podman_probed(hooks.path(), spec);
  require_ran_cleanly(container);
  check_gpu1_devices(container);
  check_gpu1_procfs(container);
  check_exactly_the_plan(container);
}

}  // namespace graft::e2e
