// Issue 4, "Malicious images": the places graft writes only for some
// requests: the 32-bit library directory (compat32), /dev/nvidia-caps and
// its nodes (a MIG partition, and MIG management in a privileged
// container, on a fake MIG host), and the graphics loaders' vendor files
// with the config file graft writes (graphics). Each target is planted with
// every Trick of hostile_image.hpp, one `runc run` (cgroup v1) per case.
#include <catch2/catch.hpp>

#include "fake_host.hpp"
#include "hostile_families.hpp"

using namespace graft::e2e;

TEST_CASE("a hostile 32-bit library directory, 32-bit library or its soname link never leads graft out of the root",
          "[e2e][malicious][runc][v1]") {
  GRAFT_E2E_REQUIRE(Runtime::runc, CgroupMode::v1);
  if (graft::fixture::FakeHost::lib32_dir().empty()) {
    WARN("graft-e2e skipped: this build has no 32-bit fake driver libraries (no i386-capable linker)");
    return;
  }
  run_family(lib32_family());
}

TEST_CASE("a hostile /dev/nvidia-caps or MIG capability node mountpoint never leads graft out of the root",
          "[e2e][malicious][runc][v1]") {
  GRAFT_E2E_REQUIRE(Runtime::runc, CgroupMode::v1);
  run_family(mig_node_family());
}

TEST_CASE("the MIG requests give an image that plants nothing GPU 1's cap nodes, or the capability directory read-only",
          "[e2e][malicious][runc][v1]") {
  GRAFT_E2E_REQUIRE(Runtime::runc, CgroupMode::v1);
  SECTION("partition 1:0: /dev/nvidia-caps/nvidia-cap147 and -cap148, opening as far as the driver") {
    run_unplanted(mig_node_family());
  }
  SECTION("NVIDIA_MIG_CONFIG_DEVICES=all in a privileged container: /dev/nvidia-caps bound read-only") {
    run_unplanted(mig_config_family());
  }
}

TEST_CASE("a hostile /dev/nvidia-caps where MIG management binds the capability directory never leads graft out of the root",
          "[e2e][malicious][runc][v1]") {
  GRAFT_E2E_REQUIRE(Runtime::runc, CgroupMode::v1);
  run_family(mig_config_family());
}

TEST_CASE("a hostile graphics vendor file, its directory or the application-profiles file graft writes never leads graft out of the root",
          "[e2e][malicious][runc][v1]") {
  GRAFT_E2E_REQUIRE(Runtime::runc, CgroupMode::v1);
  run_family(graphics_family());
}
