// A GPU container keeps its GPU when systemd re-applies its cgroup's device
// rules (issue 29; nvidia-container-toolkit issue 48): on a host whose
// cgroups systemd manages (systemd_host.hpp), runc with its systemd cgroup
// driver starts a busybox container asking for the fake host's GPU 1, by
// each route graft documents; then `systemctl daemon-reload` (or `runc
// update`, which hands the container's resources to systemd again) runs,
// and GPU 1 and the control node must still open as far as the absent
// driver (ENXIO), while GPU 0, made by hand and never granted, stays
// refused (EPERM). Each case runs once per cgroup mode, each mode on a
// systemd host of its own, removed at the end of the case.
#include <catch2/catch.hpp>

#include <filesystem>
#include <functional>
#include <memory>

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "cdi_edits.hpp"
#include "device_access.hpp"
#include "fixture_files.hpp"
#include "gpu_host.hpp"
#include "oci_bundle.hpp"
#include "probed_container.hpp"
#include "systemd_host.hpp"
#include "temp_dir.hpp"

using namespace graft::e2e;

namespace {

using graft::testing::CommandResult;
using nlohmann::json;

// The ways graft documents to run a GPU container (docs/runtimes.md, docs/cdi.md).
enum class Route { hook, runtime_hook, runtime_declarative, cdi };

// The container's process: it must outlive the case.
const std::vector<std::string> kSleep = {"/bin/sleep", "3600"};

std::string plugin_dir_toml() { return "[plugins]\ndir = \"" GRAFT_BUILD_PLUGIN_DIR "\"\n"; }

// graft-runtime's policy, its mode named (the default may change).
std::string runtime_policy(Route route) {
  bool declarative = route == Route::runtime_declarative;
  return write_policy(declarative ? "systemd-declarative" : "systemd-runtime-hook",
                      std::string("[runtime]\nmode = \"") + (declarative ? "declarative" : "hook") + "\"\n" +
                          plugin_dir_toml());
}

// One case's world: a directory the systemd host shares (the bundles and
// the CDI spec go there), the fake GPU host, and the systemd host itself.
// Members go in reverse: the host (and every container in it) first.
class Scene {
 public:
  explicit Scene(CgroupMode mode)
      : scratch_("graft-e2e-systemd-"), host_(mode, {scratch_.path(), gpu_host().host.root()}) {}

  SystemdHost& host() { return host_; }
  // For BundleSpec::tmp_subdir: the bundle is made in the shared directory.
  std::string bundle_subdir() const { return std::filesystem::path(scratch_.path()).filename(); }
  std::string file(const std::string& name) const { return scratch_.path() + "/" + name; }

 private:
  graft::fixture::TempDir scratch_;
  SystemdHost host_;
};

// A container runc runs with its systemd driver in the scene's systemd
// host, deleted (`runc delete --force`) when this goes away.
class SystemdContainer {
 public:
  SystemdContainer(Scene& scene, Route route);
  ~SystemdContainer() { (void)scene_.host().exec({"runc", "delete", "--force", id_}); }
  SystemdContainer(const SystemdContainer&) = delete;
  SystemdContainer& operator=(const SystemdContainer&) = delete;

  // How the start went: the runtime's (or graft's) exit code and words.
  const CommandResult& started() const { return started_; }
  CommandResult exec(const std::vector<std::string>& argv) {
    std::vector<std::string> full{"runc", "exec", id_};
    full.insert(full.end(), argv.begin(), argv.end());
    return scene_.host().exec(full);
  }
  std::string open(const std::string& node) { return open_node_outcome(exec(open_node_command(node))); }
  const std::string& id() const { return id_; }

 private:
  BundleSpec spec_for(Route route);
  void apply_cdi_spec(const OciBundle& bundle);

  Scene& scene_;
  std::string id_ = unique_container_id("systemd");
  std::unique_ptr<OciBundle> bundle_;  // runc reads it while the container lives
  CommandResult started_;
};

BundleSpec SystemdContainer::spec_for(Route route) {
  BundleSpec spec;
  // The CDI route's container asks by its devices alone (a CDI engine
  // passes no NVIDIA_VISIBLE_DEVICES); every other route by the env.
  if (route != Route::cdi) spec = gpu1_compute_utility();
  spec.args = kSleep;
  // runc's systemd driver: slice:prefix:name, the scope runc-<id>.scope.
  spec.cgroups_path = "system.slice:runc:" + id_;
  spec.tmp_subdir = scene_.bundle_subdir();
  if (route == Route::hook) spec.hook_policy = gpu_host().policy;  // `graft hook prestart` in config.json
  return spec;
}

// `graft cdi generate` in the systemd host (so whatever it prepares on the
// host, it prepares there), its edits for GPU 1, compute and utility
// written into config.json as an engine would (cdi_edits.hpp).
void SystemdContainer::apply_cdi_spec(const OciBundle& bundle) {
  std::string spec_path = scene_.file("cdi-" + id_ + ".json");
  auto generated = scene_.host().exec({GRAFT_BINARY, "--policy", gpu_host().policy, "cdi", "generate", "--kind",
                                       "nvidia.com/gpu", "--output", spec_path});
  INFO("graft cdi generate: " << generated.err);
  REQUIRE(generated.exit_code == 0);
  auto spec = json::parse(graft::fixture::read_file(spec_path));
  std::string config_path = bundle.path() + "/config.json";
  auto config = json::parse(graft::fixture::read_file(config_path));
  apply_cdi_edits(spec, {"1", "capability-compute", "capability-utility"}, config);
  graft::fixture::write_file(config_path, config.dump(2) + "\n");
}

SystemdContainer::SystemdContainer(Scene& scene, Route route) : scene_(scene) {
  bundle_ = std::make_unique<OciBundle>(spec_for(route));
  const OciBundle& bundle = *bundle_;
  std::vector<std::string> start;
  if (route == Route::runtime_hook || route == Route::runtime_declarative) {
    // graft-runtime in front of the runc it finds on the systemd host's PATH.
    start = {GRAFT_RUNTIME_BINARY, "--graft-policy", runtime_policy(route)};
  } else {
    start = {"runc"};
  }
  if (route == Route::cdi) apply_cdi_spec(bundle);
  start.insert(start.end(), {"--systemd-cgroup", "run", "--detach", "--bundle", bundle.path(), id_});
  started_ = scene_.host().exec(start);
}

bool host_has_memory_controller(SystemdHost& host) {
  if (host.mode() == CgroupMode::v1) return host.exec({"test", "-d", "/sys/fs/cgroup/memory"}).exit_code == 0;
  return host.exec({"grep", "-qw", "memory", "/sys/fs/cgroup/cgroup.controllers"}).exit_code == 0;
}

// What rewrites a running container's device rules, as a command in the
// systemd host for the container of that id.
using Event = std::function<std::vector<std::string>(SystemdHost& host, const std::string& id)>;

std::vector<std::string> daemon_reload(SystemdHost&, const std::string&) { return {"systemctl", "daemon-reload"}; }

// runc hands the container's resources to systemd again (and, in v1, writes
// them itself).
std::vector<std::string> runc_update(SystemdHost& host, const std::string& id) {
  std::vector<std::string> update{"runc", "--systemd-cgroup", "update"};
  auto options = runc_update_options(host_has_memory_controller(host));
  update.insert(update.end(), options.begin(), options.end());
  update.push_back(id);
  return update;
}

// GPU 1 opens before and after `event`; GPU 0, made by hand, never does.
void check_gpu1_survives(Route route, CgroupMode mode, const Event& event) {
  Scene scene(mode);
  REQUIRE(scene.host().start_error().empty());
  SystemdContainer container(scene, route);
  INFO("start: " << container.started().err);
  REQUIRE(container.started().exit_code == 0);
  REQUIRE(container.open("/dev/nvidia1") == kENXIO);  // the route gave GPU 1 at all
  auto gpu0 = fake_gpu0_node();
  auto made = container.exec(mknod_command(gpu0));
  INFO("mknod: " << made.err);
  REQUIRE(made.exit_code == 0);
  REQUIRE(container.open(gpu0.path) == kEPERM);

  auto command = event(scene.host(), container.id());
  auto done = scene.host().exec(command);
  INFO(fmt::format("{}: exit {}, {}{}", fmt::join(command, " "), done.exit_code, done.out, done.err));
  REQUIRE(done.exit_code == 0);
  CHECK(container.open("/dev/nvidia1") == kENXIO);
  CHECK(container.open("/dev/nvidiactl") == kENXIO);
  CHECK(container.open(gpu0.path) == kEPERM);
  CHECK(container.open("/dev/null") == "ok");
  // TODO(graft verify, issue 29): once `graft verify` exists, run
  //   scene.host().exec({GRAFT_BINARY, "--policy", <the route's policy>, "verify", container.id()})
  // here and require exit 0 and no drift line; where a CHECK above saw
  // EPERM, it must exit 1 and name /dev/nvidia1. Not called yet: the
  // command does not exist on this branch.
}

}  // namespace

// Declares `mode`: the case runs once per cgroup mode (GENERATE), and a mode
// the systemd host cannot run in here skips with the reason.
#define GRAFT_SYSTEMD_EACH_CGROUP_MODE(mode)                                 \
  const CgroupMode mode = GENERATE(CgroupMode::v1, CgroupMode::v2);          \
  INFO(mode_name(mode));                                                     \
  GRAFT_SKIP_IF(systemd_host_skip_reason(mode))

TEST_CASE("graft hook as runc's prestart hook: a GPU container under runc's systemd cgroup driver keeps GPU 1 "
          "through systemctl daemon-reload", "[e2e][systemd]") {
  GRAFT_SYSTEMD_EACH_CGROUP_MODE(mode);
  check_gpu1_survives(Route::hook, mode, daemon_reload);
}

TEST_CASE("graft-runtime in hook mode: a GPU container under runc's systemd cgroup driver keeps GPU 1 through "
          "systemctl daemon-reload", "[e2e][systemd]") {
  GRAFT_SYSTEMD_EACH_CGROUP_MODE(mode);
  check_gpu1_survives(Route::runtime_hook, mode, daemon_reload);
}

TEST_CASE("graft-runtime in declarative mode: a GPU container under runc's systemd cgroup driver keeps GPU 1 "
          "through systemctl daemon-reload", "[e2e][systemd]") {
  GRAFT_SYSTEMD_EACH_CGROUP_MODE(mode);
  check_gpu1_survives(Route::runtime_declarative, mode, daemon_reload);
}

TEST_CASE("a CDI spec from graft cdi generate: a GPU container under runc's systemd cgroup driver keeps GPU 1 "
          "through systemctl daemon-reload", "[e2e][systemd]") {
  GRAFT_SYSTEMD_EACH_CGROUP_MODE(mode);
  check_gpu1_survives(Route::cdi, mode, daemon_reload);
}

TEST_CASE("graft hook as runc's prestart hook: a GPU container under runc's systemd cgroup driver keeps GPU 1 "
          "through runc update", "[e2e][systemd]") {
  GRAFT_SYSTEMD_EACH_CGROUP_MODE(mode);
  check_gpu1_survives(Route::hook, mode, runc_update);
}

TEST_CASE("graft-runtime in declarative mode: a GPU container under runc's systemd cgroup driver keeps GPU 1 "
          "through runc update", "[e2e][systemd]") {
  GRAFT_SYSTEMD_EACH_CGROUP_MODE(mode);
  check_gpu1_survives(Route::runtime_declarative, mode, runc_update);
}
