// SPDX-License-Identifier: Apache-2.0
// A hook that fails must keep the container from starting: runc reports the
// failure and the container's process never runs.
#include <catch2/catch.hpp>

#include <filesystem>

#include <fmt/format.h>

#include "harness/container_checks.hpp"
#include "harness/gpu_host.hpp"
#include "harness/host_mounts.hpp"
#include "harness/runtime.hpp"
#include "temp_dir.hpp"

using namespace graft::e2e;

namespace {

constexpr const char* kStarted = "graft-e2e-container-started";
constexpr const char* kStartCommand = "echo graft-e2e-container-started";

// Asks for GPU 1; the process would print kStarted if it ever ran.
BundleSpec never_starts() {
  BundleSpec spec = gpu1_compute_utility();
  spec.args = {"/bin/sh", "-c", kStartCommand};
  return spec;
}

void check_refused_start(const ProbedContainer& container, const std::string& expected_error) {
  INFO("runtime stderr: " << container.run.err);
  INFO("container output: " << container.run.out);
  CHECK(container.run.exit_code != 0);
  CHECK(container.run.out.find(kStarted) == std::string::npos);
  CHECK_THAT(container.run.err, Catch::Contains(expected_error));
  INFO("leaked mounts:\n" << fmt::format("{}", fmt::join(container.leaked_mounts, "\n")));
  CHECK(container.leaked_mounts.empty());
  CHECK(container.mount_count_change == 0);
  auto errors = audit_records(container.id, "error");
  REQUIRE(errors.size() == 1);
  CHECK_THAT(errors[0].value("error", ""), Catch::Contains(expected_error));
}

// The built plugins, with the test plugin `crash` (tests/stub_plugins/crash.c) in
// the cgroup plugin's place; its [plugins.config.cgroup] says how it breaks.
class CgroupStandIn {
 public:
  CgroupStandIn() {
    namespace fs = std::filesystem;
    for (const auto& entry : fs::directory_iterator(GRAFT_BUILD_PLUGIN_DIR)) {
      std::string name = entry.path().filename().string();
      if (!name.ends_with(".so")) continue;
      fs::path to = fs::path(dir_.path()) / name;
      fs::copy_file(name == "libcgroup.so" ? fs::path(GRAFT_TEST_PLUGIN_DIR) / "libcrash.so" : entry.path(), to);
      fs::permissions(to, fs::perms(0755));
    }
    fs::permissions(dir_.path(), fs::perms(0700));
  }
  const std::string& path() const { return dir_.path(); }

 private:
  graft::fixture::TempDir dir_{"graft-e2e-standin-"};
};

}  // namespace

TEST_CASE("a policy naming a missing plugin directory makes runc run fail before the container starts",
          "[e2e][runc][v1][failure]") {
  GRAFT_E2E_REQUIRE(Runtime::runc, CgroupMode::v1);
  BundleSpec spec = never_starts();
  spec.hook_policy =
      write_policy("missing-plugin-dir", "[plugins]\ndir = \"/nonexistent/graft-e2e-plugins\"\n");
  check_refused_start(run_probed_container(Runtime::runc, CgroupMode::v1, spec),
                      "/nonexistent/graft-e2e-plugins");
}

TEST_CASE("a plugin failing an action (the image's library directory is a file) makes runc run fail before the container starts",
          "[e2e][runc][v1][failure]") {
  GRAFT_E2E_REQUIRE(Runtime::runc, CgroupMode::v1);
  BundleSpec spec = never_starts();
  spec.rootfs_files = {{"/usr/lib/x86_64-linux-gnu", "a file where the image should have a directory\n"}};
  check_refused_start(run_probed_container(Runtime::runc, CgroupMode::v1, spec),
                      "/usr/lib/x86_64-linux-gnu");
}

TEST_CASE("a plugin that hangs in apply, inside the container's mount namespace, makes runc run fail at the deadline "
          "with one line and nothing left on the host",
          "[e2e][runc][v1][failure]") {
  GRAFT_E2E_REQUIRE(Runtime::runc, CgroupMode::v1);
  CgroupStandIn plugins;
  BundleSpec spec = never_starts();
  spec.hook_policy = write_policy("hung-apply", "[plugins]\ndir = \"" + plugins.path() +
                                                    "\"\n[plugins.config.cgroup]\nmode = \"hang\"\n"
                                                    "[limits]\ndeadline_ms = 5000\n");
  auto container = run_probed_container(Runtime::runc, CgroupMode::v1, spec);
  check_refused_start(container, ": apply did not finish within 5000 ms");
  CHECK_THAT(container.run.err, Catch::Contains("/libcgroup.so: cgroup_allow c "));
  std::string line = "graft: container " + container.id + ": plugin ";
  auto first = container.run.err.find(line);
  CHECK(first != std::string::npos);
  CHECK(container.run.err.find(line, first + 1) == std::string::npos);
}

// The policy boundary (docs/security.md): a site set handing every GPU
// container the host's /etc read-write, refused by the hook under runc
// before the container's process runs. Not probed first: `graft plan`
// refuses the same policy.
static void check_boundary_refused(CgroupMode mode) {
  BundleSpec spec = never_starts();
  const std::string tag = mode == CgroupMode::v1 ? "v1" : "v2";
  spec.hook_policy = write_policy("boundary-etc-" + tag, "[capability.x]\nalways = true\nipc = [\"/etc\"]\n");
  ProbedContainer result;
  result.id = unique_container_id("boundary-" + tag);
  spec.cgroups_path = "/" + result.id;
  HostMounts mounts;
  {
    OciBundle bundle(spec);
    Container container(Runtime::runc, mode, result.id);
    result.run = container.run(bundle.path());
  }
  result.leaked_mounts = mounts.added();
  result.mount_count_change = mounts.count_change();
  check_refused_start(result, "capability.x.ipc: /etc is a socket or IPC directory outside the policy boundary");
}

TEST_CASE("a policy binding the host's /etc makes runc run fail before the container starts, on cgroup v1",
          "[e2e][runc][v1][failure][boundary]") {
  GRAFT_E2E_REQUIRE(Runtime::runc, CgroupMode::v1);
  check_boundary_refused(CgroupMode::v1);
}

TEST_CASE("a policy binding the host's /etc makes runc run fail before the container starts, on cgroup v2",
          "[e2e][runc][v2][failure][boundary]") {
  GRAFT_E2E_REQUIRE(Runtime::runc, CgroupMode::v2);
  check_boundary_refused(CgroupMode::v2);
}
