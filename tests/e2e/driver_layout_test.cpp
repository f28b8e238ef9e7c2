// SPDX-License-Identifier: Apache-2.0
// A host whose driver sits under /usr/local/nvidia (lib64/, lib/, bin/),
// listed in no ld.so.cache, as on CUDA-ready cloud images: with
// [discovery] library_dirs naming it, runc with graft as its prestart hook
// starts a container whose own ld cache lists libcuda.so.1 from the
// image's library directory, mounted read-only from that tree.
#include <catch2/catch.hpp>

#include "fake_host.hpp"
#include "harness/container_checks.hpp"
#include "site_policy.hpp"

using namespace graft::e2e;

namespace {

struct LayoutHost {
  graft::fixture::FakeHost host;
  std::string policy;
};

const LayoutHost& usr_local_nvidia_host() {
  static LayoutHost built = [] {
    graft::fixture::FakeHostSpec spec = graft::fixture::FakeHostSpec::with_gpus(2);
    spec.driver_dir = "/usr/local/nvidia";
    auto host = graft::fixture::FakeHost::build(spec);
    std::string policy = graft::fixture::write_site_policy(
        host, "[plugins]\ndir = \"" GRAFT_BUILD_PLUGIN_DIR "\"\n\n[discovery]\n"
              "library_search = \"dirs-only\"\n"
              "library_dirs = [\"/usr/local/nvidia/lib64\", \"/usr/local/nvidia/lib\"]\n"
              "binary_dirs = [\"/usr/local/nvidia/bin\"]\n");
    return LayoutHost{std::move(host), policy};
  }();
  return built;
}

}  // namespace

TEST_CASE("runc on a /usr/local/nvidia host without cache entries: the container's ld cache finds libcuda.so.1 from the library dir",
          "[e2e][runc][layout]") {
  GRAFT_E2E_REQUIRE(Runtime::runc, CgroupMode::v1);
  const auto& layout = usr_local_nvidia_host();
  if (!layout.host.device_nodes_created()) GRAFT_SKIP(layout.host.device_nodes_problem());
  BundleSpec spec = gpu1_compute_utility();
  spec.hook_policy = layout.policy;
  auto container = run_probed_container(Runtime::runc, CgroupMode::v1, spec);
  require_ran_cleanly(container);
  bool from_dir = false;
  for (const auto& action : container.plan.at("actions"))
    if (action.at("kind") == "bind_mount" && action.at("plugin") == "libraries" &&
        action.at("source") == layout.host.path("/usr/local/nvidia/lib64/libcuda.so.560.35.03"))
      from_dir = true;
  CHECK(from_dir);
  check_planned_libraries(container);
}
