// SPDX-License-Identifier: Apache-2.0
// Hostile images: the root filesystem as a whole is hostile or
// unusual: read-only, lacking the directories graft writes into, on a
// filesystem mounted nosuid,nodev (and noexec). Each case is one `runc run`
// (cgroup v1) through run_hostile.
#include <catch2/catch.hpp>

#include <sys/mount.h>

#include "harness/container_checks.hpp"
#include "harness/gpu_host.hpp"
#include "harness/hostile_image.hpp"
#include "harness/private_tmpfs.hpp"

using namespace graft::e2e;

TEST_CASE("a read-only rootfs (root.readonly) is injected or refused, never escaped",
          "[e2e][hostile][runc][v1]") {
  GRAFT_E2E_REQUIRE(Runtime::runc, CgroupMode::v1);
  BundleSpec spec = gpu1_compute_utility();
  spec.readonly_root = true;
  auto result = run_hostile(spec, "/");
  record("rootfs", "root.readonly = true", "read-only rootfs", result);
  if (result.outcome == "injected") check_planned_libraries(result.container);
}

TEST_CASE("a rootfs without /usr, /run, /tmp and /etc/ld.so.conf.d gets them made inside the root, 0755 and owned by the rootfs owner",
          "[e2e][hostile][runc][v1]") {
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

namespace {

// The standard request with its bundle (and so its rootfs) on `fs`.
CaseOutcome run_on(const PrivateTmpfs& fs, bool dev_tmpfs) {
  INFO("the rootfs filesystem is mounted " << fs.mount_options());
  REQUIRE_THAT(fs.mount_options(), Catch::Contains("nosuid") && Catch::Contains("nodev"));
  BundleSpec spec = gpu1_compute_utility();
  spec.tmp_subdir = fs.tmp_subdir();
  spec.dev_tmpfs = dev_tmpfs;
  return run_hostile(spec, fs.path());
}

// The hook succeeded (one "applied" record), then runc failed on its own.
void check_applied_then_refused_by_runc(const CaseOutcome& result, const std::string& why) {
  INFO("runc stderr: " << result.container.run.err);
  CHECK(result.outcome == "refused by runc");
  CHECK_THAT(result.message, Catch::Contains(why));
  CHECK(audit_records(result.container.id, "applied").size() == 1);
}

}  // namespace

// Each bind graft makes is a mount of its own, carrying the flags graft
// gives it (libraries ro,nosuid,nodev) and the source's device, so the
// rootfs's nodev does not reach the nodes: /dev/nvidia1 opens as far as the
// absent driver allows (ENXIO), not EACCES.
TEST_CASE("a rootfs on a nosuid,nodev filesystem is injected and GPU 1's node still opens as far as the driver",
          "[e2e][hostile][runc][v1]") {
  GRAFT_E2E_REQUIRE(Runtime::runc, CgroupMode::v1);
  (void)gpu_host(), (void)sentinel();  // built on the host's /tmp, outside the tmpfs
  PrivateTmpfs fs(MS_NOSUID | MS_NODEV);
  auto result = run_on(fs, /*dev_tmpfs=*/true);
  record("rootfs", "rootfs on nosuid,nodev", "nosuid,nodev filesystem", result);
  REQUIRE(result.outcome == "injected");
  check_gpu1_devices(result.container);
  check_planned_libraries(result.container);
  check_exactly_the_plan(result.container);
}

// Without runc's /dev tmpfs, runc makes /dev/null and friends with mknod
// on the nodev filesystem itself and cannot reopen them: runc fails after
// the prestart hook, whatever graft did (graft had applied its plan).
TEST_CASE("a rootfs on a nosuid,nodev filesystem without a /dev tmpfs is injected by graft and then refused by runc, which cannot open its own /dev/null",
          "[e2e][hostile][runc][v1]") {
  GRAFT_E2E_REQUIRE(Runtime::runc, CgroupMode::v1);
  (void)gpu_host(), (void)sentinel();
  PrivateTmpfs fs(MS_NOSUID | MS_NODEV);
  auto result = run_on(fs, /*dev_tmpfs=*/false);
  record("rootfs", "rootfs on nosuid,nodev, no /dev tmpfs", "nosuid,nodev filesystem", result);
  check_applied_then_refused_by_runc(result, "/dev/null: permission denied");
}

// noexec as well: graft's part needs no execution from the rootfs (ldconfig
// is the host's, run from a sealed memfd), so the hook applies the plan;
// then runc cannot exec the container's /bin/sh and the start fails there.
TEST_CASE("a rootfs on a nosuid,nodev,noexec filesystem is injected by graft and then refused by runc, which cannot exec the container's process",
          "[e2e][hostile][runc][v1]") {
  GRAFT_E2E_REQUIRE(Runtime::runc, CgroupMode::v1);
  (void)gpu_host(), (void)sentinel();
  PrivateTmpfs fs(MS_NOSUID | MS_NODEV | MS_NOEXEC);
  REQUIRE_THAT(fs.mount_options(), Catch::Contains("noexec"));
  auto result = run_on(fs, /*dev_tmpfs=*/true);
  record("rootfs", "rootfs on nosuid,nodev,noexec", "nosuid,nodev,noexec filesystem", result);
  check_applied_then_refused_by_runc(result, "exec /bin/sh: permission denied");
}
