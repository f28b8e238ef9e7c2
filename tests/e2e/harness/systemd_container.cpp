// SPDX-License-Identifier: Apache-2.0
#include "systemd_container.hpp"

#include <catch2/catch.hpp>

#include <filesystem>

#include <nlohmann/json.hpp>

#include "cdi_edits.hpp"
#include "device_access.hpp"
#include "fixture_files.hpp"
#include "gpu_host.hpp"
#include "probed_container.hpp"

namespace graft::e2e {
namespace {

using nlohmann::json;

// graft-runtime's policy, its mode named (the default may change).
std::string runtime_policy(Route route) {
  bool declarative = route == Route::runtime_declarative;
  return write_policy(declarative ? "systemd-declarative" : "systemd-runtime-hook",
                      std::string("[runtime]\nmode = \"") + (declarative ? "declarative" : "hook") +
                          "\"\n[plugins]\ndir = \"" GRAFT_BUILD_PLUGIN_DIR "\"\n");
}

// The hook's policy with the cgroup plugin told not to tell systemd.
std::string systemd_off_policy() {
  return write_policy("systemd-off", "[plugins]\ndir = \"" GRAFT_BUILD_PLUGIN_DIR "\"\n"
                                     "[plugins.config.cgroup]\nsystemd = \"off\"\n");
}

std::string policy_for(Route route) {
  switch (route) {
    case Route::runtime_hook:
    case Route::runtime_declarative: return runtime_policy(route);
    case Route::hook_systemd_off: return systemd_off_policy();
    default: return gpu_host().policy;
  }
}

}  // namespace

SystemdScene::SystemdScene(CgroupMode mode)
    : scratch_("graft-e2e-systemd-"), host_(mode, {scratch_.path(), gpu_host().host.root()}) {}

std::string SystemdScene::bundle_subdir() const { return std::filesystem::path(scratch_.path()).filename(); }

BundleSpec SystemdContainer::spec_for(Route route) const {
  BundleSpec spec;
  // The CDI route's container asks by its devices alone (a CDI engine
  // passes no NVIDIA_VISIBLE_DEVICES); every other route by the env.
  if (route != Route::cdi) spec = gpu1_compute_utility();
  spec.args = {"/bin/sleep", "3600"};  // outlives the case
  // runc's systemd driver: slice:prefix:name, the scope runc-<id>.scope.
  spec.cgroups_path = "system.slice:runc:" + id_;
  spec.tmp_subdir = scene_.bundle_subdir();
  if (devices_ == DeviceSpec::every_device) {
    spec.privileged = spec.allow_all_devices = true;
    spec.devices = {{"/dev/fuse", 'c', 10, 229}};
  }
  // `graft hook prestart` in config.json
  if (route == Route::hook || route == Route::hook_systemd_off) spec.hook_policy = policy_;
  return spec;
}

// `graft cdi generate` in the systemd host (whatever it prepares on a host,
// it prepares there), its edits for GPU 1, compute and utility written into
// config.json as an engine would (cdi_edits.hpp).
void SystemdContainer::apply_cdi_spec() {
  std::string spec_path = scene_.file("cdi-" + id_ + ".json");
  auto generated = scene_.host().exec({GRAFT_BINARY, "--policy", gpu_host().policy, "cdi", "generate", "--kind",
                                       "nvidia.com/gpu", "--output", spec_path});
  INFO("graft cdi generate: " << generated.err);
  REQUIRE(generated.exit_code == 0);
  auto spec = json::parse(fixture::read_file(spec_path));
  std::string config_path = bundle_->path() + "/config.json";
  auto config = json::parse(fixture::read_file(config_path));
  apply_cdi_edits(spec, {"1", "capability-compute", "capability-utility"}, config);
  fixture::write_file(config_path, config.dump(2) + "\n");
}

SystemdContainer::SystemdContainer(SystemdScene& scene, Route route, DeviceSpec devices)
    : scene_(scene), id_(unique_container_id("systemd")), policy_(policy_for(route)), devices_(devices) {
  bundle_ = std::make_unique<OciBundle>(spec_for(route));
  if (route == Route::cdi) apply_cdi_spec();
  std::vector<std::string> start{"runc"};
  // graft-runtime in front of the runc it finds on the systemd host's PATH.
  if (route == Route::runtime_hook || route == Route::runtime_declarative)
    start = {GRAFT_RUNTIME_BINARY, "--graft-policy", policy_};
  start.insert(start.end(), {"--systemd-cgroup", "run", "--detach", "--bundle", bundle_->path(), id_});
  started_ = scene_.host().exec(start);
}

SystemdContainer::~SystemdContainer() { (void)scene_.host().exec({"runc", "delete", "--force", id_}); }

testing::CommandResult SystemdContainer::exec(const std::vector<std::string>& argv) {
  std::vector<std::string> full{"runc", "exec", id_};
  full.insert(full.end(), argv.begin(), argv.end());
  return scene_.host().exec(full);
}

testing::CommandResult SystemdContainer::verify() {
  return scene_.host().exec({GRAFT_BINARY, "--policy", policy_, "verify", id_});
}

std::string SystemdContainer::open(const std::string& node) {
  return open_node_outcome(exec(open_node_command(node)));
}

}  // namespace graft::e2e
