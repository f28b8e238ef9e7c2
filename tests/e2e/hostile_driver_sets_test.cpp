// SPDX-License-Identifier: Apache-2.0
// Hostile images: the places graft writes only for some
// requests: the 32-bit library directory (compat32), /dev/nvidia-caps and
// its nodes (a MIG partition, and MIG management in a privileged
// container, on a fake MIG host), and the graphics loaders' vendor files
// with the config file graft writes (graphics). Each target is planted with
// every Trick of harness/hostile_image.hpp, one `runc run` (cgroup v1) per case.
#include <catch2/catch.hpp>

#include "fake_host.hpp"
#include "harness/hostile_families.hpp"
#include "skip.hpp"

using namespace graft::e2e;

TEST_CASE("a hostile 32-bit library directory, 32-bit library or its soname link never leads graft out of the root",
          "[e2e][hostile][runc][v1]") {
  GRAFT_E2E_REQUIRE(Runtime::runc, CgroupMode::v1);
  if (graft::fixture::FakeHost::lib32_dir().empty()) {
    GRAFT_SKIP("this build has no 32-bit fake driver libraries (no i386-capable linker)");
  }
  run_family(lib32_family());
}

TEST_CASE("a hostile /dev/nvidia-caps or MIG capability node mountpoint never leads graft out of the root",
          "[e2e][hostile][runc][v1]") {
  GRAFT_E2E_REQUIRE(Runtime::runc, CgroupMode::v1);
  run_family(mig_node_family());
}

TEST_CASE("the MIG requests give an image that plants nothing GPU 1's cap nodes, or the capability directory read-only",
          "[e2e][hostile][runc][v1]") {
  GRAFT_E2E_REQUIRE(Runtime::runc, CgroupMode::v1);
  SECTION("partition 1:0: /dev/nvidia-caps/nvidia-cap147 and -cap148, opening as far as the driver") {
    run_unplanted(mig_node_family());
  }
  SECTION("NVIDIA_MIG_CONFIG_DEVICES=all in a privileged container: /dev/nvidia-caps bound read-only") {
    run_unplanted(mig_config_family());
  }
}

TEST_CASE("a hostile /dev/nvidia-caps where MIG management binds the capability directory never leads graft out of the root",
          "[e2e][hostile][runc][v1]") {
  GRAFT_E2E_REQUIRE(Runtime::runc, CgroupMode::v1);
  run_family(mig_config_family());
}

TEST_CASE("a hostile EGL vendor file or /usr/share/glvnd/egl_vendor.d never leads graft out of the root",
          "[e2e][hostile][runc][v1]") {
  GRAFT_E2E_REQUIRE(Runtime::runc, CgroupMode::v1);
  run_family(only_targets(graphics_family(), {"/usr/share/glvnd/egl_vendor.d",
                                              "/usr/share/glvnd/egl_vendor.d/10_nvidia.json"}));
}

TEST_CASE("a hostile Vulkan ICD file or /etc/vulkan never leads graft out of the root",
          "[e2e][hostile][runc][v1]") {
  GRAFT_E2E_REQUIRE(Runtime::runc, CgroupMode::v1);
  run_family(only_targets(graphics_family(), {"/etc/vulkan", "/etc/vulkan/icd.d/nvidia_icd.json"}));
}

TEST_CASE("hostile entries at the application-profiles file graft writes, or its directory, are replaced inside the root or refused",
          "[e2e][hostile][runc][v1]") {
  GRAFT_E2E_REQUIRE(Runtime::runc, CgroupMode::v1);
  run_family(only_targets(graphics_family(), {"/etc/nvidia/nvidia-application-profiles-rc.d",
                                              "/etc/nvidia/nvidia-application-profiles-rc.d/10-container.conf"}));
}
