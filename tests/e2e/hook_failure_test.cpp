// A hook that fails must keep the container from starting: runc reports the
// failure and the container's process never runs.
#include <catch2/catch.hpp>

#include <fmt/format.h>

#include "container_checks.hpp"
#include "gpu_host.hpp"

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
