// SPDX-License-Identifier: Apache-2.0
// Hostile images: the places every GPU container gets written
// (the library directory and its parents, the soname links graft makes,
// /usr/bin, /dev, the firmware directory, the IPC paths, /etc,
// /etc/ld.so.cache and /etc/ld.so.conf.d), each planted with every Trick of
// harness/hostile_image.hpp, one `runc run` (cgroup v1) per case. The targets are in
// harness/hostile_families.cpp; docs/security.md has the table of outcomes.
#include <catch2/catch.hpp>

#include "harness/hostile_families.hpp"

using namespace graft::e2e;

TEST_CASE("a hostile /usr or /usr/lib above the library directory never leads graft out of the root",
          "[e2e][hostile][runc][v1]") {
  GRAFT_E2E_REQUIRE(Runtime::runc, CgroupMode::v1);
  run_family(only_targets(library_dir_family(), {"/usr", "/usr/lib"}));
}

TEST_CASE("a hostile multiarch library directory or library file never leads graft out of the root",
          "[e2e][hostile][runc][v1]") {
  GRAFT_E2E_REQUIRE(Runtime::runc, CgroupMode::v1);
  run_family(only_targets(library_dir_family(), {"/usr/lib/x86_64-linux-gnu",
                                                 "/usr/lib/x86_64-linux-gnu/libcuda.so.560.35.03"}));
}

TEST_CASE("hostile entries where graft makes soname links (libcuda.so.1, libcuda.so) are replaced inside the root or refused",
          "[e2e][hostile][runc][v1]") {
  GRAFT_E2E_REQUIRE(Runtime::runc, CgroupMode::v1);
  run_family(soname_link_family());
}

TEST_CASE("a hostile /usr/bin or binary mountpoint never leads graft out of the root",
          "[e2e][hostile][runc][v1]") {
  GRAFT_E2E_REQUIRE(Runtime::runc, CgroupMode::v1);
  run_family(binaries_family());
}

TEST_CASE("a hostile device node mountpoint in an image without a /dev tmpfs never leads graft out of the root",
          "[e2e][hostile][runc][v1]") {
  GRAFT_E2E_REQUIRE(Runtime::runc, CgroupMode::v1);
  run_family(devices_family());
}

TEST_CASE("a hostile firmware directory or file (/lib, /lib/firmware/nvidia/<version>, gsp_ga10x.bin) never leads graft out of the root",
          "[e2e][hostile][runc][v1]") {
  GRAFT_E2E_REQUIRE(Runtime::runc, CgroupMode::v1);
  run_family(firmware_family());
}

TEST_CASE("a hostile IPC path (/run/nvidia-persistenced, its socket, /tmp/nvidia-mps) never leads graft out of the root",
          "[e2e][hostile][runc][v1]") {
  GRAFT_E2E_REQUIRE(Runtime::runc, CgroupMode::v1);
  run_family(ipc_family());
}

TEST_CASE("a hostile /etc, /etc/ld.so.cache or /etc/ld.so.conf.d never leads the ldconfig run out of the root",
          "[e2e][hostile][runc][v1]") {
  GRAFT_E2E_REQUIRE(Runtime::runc, CgroupMode::v1);
  run_family(ldcache_family());
}
