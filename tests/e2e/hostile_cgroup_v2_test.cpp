// SPDX-License-Identifier: Apache-2.0
// Hostile images in cgroup v2 mode: runc inside a private
// mount namespace with cgroup2 on /sys/fs/cgroup (harness/runtime.hpp), so graft's
// device rules go through its eBPF program instead of devices.allow. One
// representative target of every family (harness/hostile_families.hpp), the one
// most likely to differ between the modes where a family has several,
// planted with every Trick. The mount leak check sees only the host's own
// namespace here; the host sentinel check holds in both modes.
#include <catch2/catch.hpp>

#include "fake_host.hpp"
#include "harness/hostile_families.hpp"
#include "skip.hpp"

using namespace graft::e2e;

namespace {

void run_in_v2(Family family, const std::string& target) {
  family = only_targets(std::move(family), {target});
  family.how.mode = CgroupMode::v2;
  run_family(family);
}

}  // namespace

TEST_CASE("cgroup v2: a hostile multiarch library directory never leads graft out of the root",
          "[e2e][hostile][runc][v2]") {
  GRAFT_E2E_REQUIRE(Runtime::runc, CgroupMode::v2);
  run_in_v2(library_dir_family(), "/usr/lib/x86_64-linux-gnu");
}

TEST_CASE("cgroup v2: hostile entries at libcuda.so.1 are replaced inside the root or refused",
          "[e2e][hostile][runc][v2]") {
  GRAFT_E2E_REQUIRE(Runtime::runc, CgroupMode::v2);
  run_in_v2(soname_link_family(), "/usr/lib/x86_64-linux-gnu/libcuda.so.1");
}

TEST_CASE("cgroup v2: a hostile binary mountpoint never leads graft out of the root",
          "[e2e][hostile][runc][v2]") {
  GRAFT_E2E_REQUIRE(Runtime::runc, CgroupMode::v2);
  run_in_v2(binaries_family(), "/usr/bin/nvidia-smi");
}

TEST_CASE("cgroup v2: a hostile /dev/nvidia1 in an image without a /dev tmpfs never leads graft out of the root",
          "[e2e][hostile][runc][v2]") {
  GRAFT_E2E_REQUIRE(Runtime::runc, CgroupMode::v2);
  run_in_v2(devices_family(), "/dev/nvidia1");
}

TEST_CASE("cgroup v2: a hostile firmware directory never leads graft out of the root",
          "[e2e][hostile][runc][v2]") {
  GRAFT_E2E_REQUIRE(Runtime::runc, CgroupMode::v2);
  run_in_v2(firmware_family(), "/lib/firmware/nvidia/560.35.03");
}

TEST_CASE("cgroup v2: a hostile persistenced socket mountpoint never leads graft out of the root",
          "[e2e][hostile][runc][v2]") {
  GRAFT_E2E_REQUIRE(Runtime::runc, CgroupMode::v2);
  run_in_v2(ipc_family(), "/run/nvidia-persistenced/socket");
}

TEST_CASE("cgroup v2: a hostile /etc/ld.so.cache never leads the ldconfig run out of the root",
          "[e2e][hostile][runc][v2]") {
  GRAFT_E2E_REQUIRE(Runtime::runc, CgroupMode::v2);
  run_in_v2(ldcache_family(), "/etc/ld.so.cache");
}

TEST_CASE("cgroup v2: a hostile 32-bit library directory never leads graft out of the root",
          "[e2e][hostile][runc][v2]") {
  GRAFT_E2E_REQUIRE(Runtime::runc, CgroupMode::v2);
  if (graft::fixture::FakeHost::lib32_dir().empty()) {
    GRAFT_SKIP("this build has no 32-bit fake driver libraries (no i386-capable linker)");
  }
  run_in_v2(lib32_family(), "/usr/lib/i386-linux-gnu");
}

TEST_CASE("cgroup v2: a hostile MIG capability node mountpoint never leads graft out of the root",
          "[e2e][hostile][runc][v2]") {
  GRAFT_E2E_REQUIRE(Runtime::runc, CgroupMode::v2);
  run_in_v2(mig_node_family(), mig_cap_node());
}

TEST_CASE("cgroup v2: a hostile /dev/nvidia-caps where MIG management binds the directory never leads graft out of the root",
          "[e2e][hostile][runc][v2]") {
  GRAFT_E2E_REQUIRE(Runtime::runc, CgroupMode::v2);
  run_in_v2(mig_config_family(), "/dev/nvidia-caps");
}

TEST_CASE("cgroup v2: hostile entries at the application-profiles file graft writes are replaced inside the root or refused",
          "[e2e][hostile][runc][v2]") {
  GRAFT_E2E_REQUIRE(Runtime::runc, CgroupMode::v2);
  run_in_v2(graphics_family(), "/etc/nvidia/nvidia-application-profiles-rc.d/10-container.conf");
}
