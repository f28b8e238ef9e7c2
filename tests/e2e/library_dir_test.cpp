// SPDX-License-Identifier: Apache-2.0
// One library directory whichever route starts the container: a busybox
// root with an empty /usr/lib/x86_64-linux-gnu and no /etc/debian_version
// (the issue-31 image) gets the driver libraries in the directory `graft
// plan --rootfs` printed, through runc with graft as its prestart hook and
// through graft-runtime in front of runc, in hook and declarative mode.
#include <catch2/catch.hpp>

#include "harness/container_checks.hpp"
#include "harness/gpu_host.hpp"
#include "harness/host_mounts.hpp"
#include "harness/runtime.hpp"
#include "run_command.hpp"
#include "temp_dir.hpp"

using namespace graft::e2e;

namespace {

constexpr const char* kBusyboxLibDir = "/usr/lib/x86_64-linux-gnu";

BundleSpec busybox_gpu1() {
  BundleSpec spec = gpu1_compute_utility();
  spec.layout = ImageLayout::busybox;
  return spec;
}

// `graft plan --rootfs` for a fresh copy of the image: the library directory.
std::string lib_dir_planned_for_rootfs(const BundleSpec& spec) {
  OciBundle bundle(spec);
  std::vector<std::string> args{GRAFT_BINARY, "--policy", gpu_host().policy, "plan", "--format", "json",
                                "--rootfs", bundle.rootfs()};
  for (const auto& entry : spec.env) args.insert(args.end(), {"--env", entry});
  auto result = graft::testing::run_command(args);
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  return nlohmann::json::parse(result.out).at("lib_dir");
}

// `graft-runtime --graft-policy POLICY run` of the probe, graft-runtime
// becoming runc; the container deleted by runc afterwards.
ProbedContainer run_through_graft_runtime(BundleSpec spec, const std::string& policy) {
  ProbedContainer result;
  HostMounts mounts;
  result.id = unique_container_id("libdir-shim");
  spec.cgroups_path = "/" + result.id;
  {
    graft::fixture::TempDir state("graft-e2e-libdir-state-");
    OciBundle bundle(spec);  // no prestart hook: graft-runtime adds what it adds
    result.plan = plan_with_probe(bundle, gpu_host().policy, result.id);
    result.run = graft::testing::run_command({GRAFT_RUNTIME_BINARY, "--graft-policy", policy, "--root",
                                              state.path(), "run", "--bundle", bundle.path(), result.id});
    read_probe_output(result, "graft-runtime");
    (void)graft::testing::run_command(
        {runtime_path(Runtime::runc), "--root", state.path(), "delete", "-f", result.id});
  }
  result.leaked_mounts = mounts.added();
  result.mount_count_change = mounts.count_change();
  return result;
}

void check_libraries_in(const ProbedContainer& container, const std::string& dir) {
  INFO("container output:\n" << container.run.out << container.run.err);
  require_ran_cleanly(container);
  CHECK(container.plan.at("lib_dir") == dir);
  check_planned_libraries(container);
  auto cuda = container.report.find("exists", dir + "/libcuda.so.1");
  REQUIRE(cuda);
  CHECK(cuda->at(0) == "1");
}

}  // namespace

TEST_CASE("a busybox root with an empty multiarch directory and no debian_version gets the libraries "
          "there through the runc hook, as graft plan --rootfs printed",
          "[e2e][runc][v1][lib_dir]") {
  GRAFT_E2E_REQUIRE(Runtime::runc, CgroupMode::v1);
  std::string planned = lib_dir_planned_for_rootfs(busybox_gpu1());
  CHECK(planned == kBusyboxLibDir);
  auto container = run_probed_container(Runtime::runc, CgroupMode::v1, busybox_gpu1());
  check_libraries_in(container, planned);
}

TEST_CASE("a busybox root with an empty multiarch directory and no debian_version gets the libraries "
          "there through graft-runtime, in hook and declarative mode, as graft plan --rootfs printed",
          "[e2e][shim][runc][lib_dir]") {
  GRAFT_E2E_REQUIRE(Runtime::runc, CgroupMode::v1);
  std::string planned = lib_dir_planned_for_rootfs(busybox_gpu1());
  CHECK(planned == kBusyboxLibDir);
  std::string mode = GENERATE("hook", "declarative");
  INFO("graft-runtime mode " << mode);
  std::string policy = write_policy(
      "libdir-shim-" + mode,
      "[runtime]\nmode = \"" + mode + "\"\n[plugins]\ndir = \"" GRAFT_BUILD_PLUGIN_DIR "\"\n");
  check_libraries_in(run_through_graft_runtime(busybox_gpu1(), policy), planned);
}
