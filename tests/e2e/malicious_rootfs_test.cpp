// Issue 4, "Malicious images": the root filesystem as a whole is hostile or
// unusual: read-only, lacking the directories graft writes into. Each case
// is one `runc run` (cgroup v1) through run_hostile.
#include <catch2/catch.hpp>

#include "container_checks.hpp"
#include "hostile_image.hpp"

using namespace graft::e2e;

TEST_CASE("a read-only rootfs (root.readonly) is injected or refused, never escaped",
          "[e2e][malicious][runc][v1]") {
  GRAFT_E2E_REQUIRE(Runtime::runc, CgroupMode::v1);
  BundleSpec spec = gpu1_compute_utility();
  spec.readonly_root = true;
  auto result = run_hostile(spec, "/");
  record("rootfs", "root.readonly = true", "read-only rootfs", result);
  if (result.outcome == "injected") check_planned_libraries(result.container);
}

TEST_CASE("a rootfs without /usr, /run, /tmp and /etc/ld.so.conf.d gets them made inside the root, 0755 and owned by the rootfs owner",
          "[e2e][malicious][runc][v1]") {
  GRAFT_E2E_REQUIRE(Runtime::runc, CgroupMode::v1);
  BundleSpec spec = gpu1_compute_utility();
  spec.rootfs_removed = {"/usr", "/run", "/tmp", "/etc/ld.so.conf.d"};
  auto result = run_hostile(spec, "/usr");
  record("rootfs", "/usr, /run, /tmp, /etc/ld.so.conf.d missing", "missing directories", result);
  REQUIRE(result.outcome == "injected");
  check_planned_libraries(result.container);
  check_exactly_the_plan(result.container);
  const auto& report = result.container.report;
  for (const char* dir : {"/usr", "/usr/lib", "/usr/lib/x86_64-linux-gnu", "/usr/bin", "/run",
                          "/run/nvidia-persistenced", "/lib", "/lib/firmware", "/lib/firmware/nvidia",
                          "/lib/firmware/nvidia/560.35.03", "/tmp"}) {
    INFO(dir);
    auto mode = report.find("dirmode", dir);
    REQUIRE(mode);
    CHECK(mode->at(0) == "755 0 0");
  }
}
