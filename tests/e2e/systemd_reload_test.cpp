// SPDX-License-Identifier: Apache-2.0
// A GPU container keeps its GPU when systemd re-applies its cgroup's device
// rules (issue 29; nvidia-container-toolkit issue 48). On a host whose
// cgroups systemd manages (harness/systemd_host.hpp), runc with its systemd cgroup
// driver starts a busybox container asking for the fake host's GPU 1, by
// each route graft documents (harness/systemd_container.hpp). Then something makes
// systemd apply the scope's device rules again: `systemctl daemon-reload`,
// or `runc update`. GPU 1 and the control node must still open as far as
// the absent driver (ENXIO), while GPU 0, made by hand and never granted,
// stays refused (EPERM). Each case runs once per cgroup mode, each mode on
// a systemd host of its own, removed at the end of the case.
//
// A privileged container (issue 42) is the other way round: its unit
// allows every device (runc: DevicePolicy=auto, no DeviceAllow=), and one
// DeviceAllow= entry from graft would close it, so that systemd denies the
// container every other device at once. The /dev/fuse its spec lists must
// open through the hook and through a reload, as GPU 1 does.
#include <catch2/catch.hpp>

#include <functional>

#include <fmt/format.h>

#include "harness/device_access.hpp"
#include "harness/gpu_host.hpp"
#include "harness/systemd_container.hpp"
#include "harness/systemd_host.hpp"

using namespace graft::e2e;

namespace {

bool host_has_memory_controller(SystemdHost& host) {
  if (host.mode() == CgroupMode::v1) return host.exec({"test", "-d", "/sys/fs/cgroup/memory"}).exit_code == 0;
  return host.exec({"grep", "-qw", "memory", "/sys/fs/cgroup/cgroup.controllers"}).exit_code == 0;
}

// What makes systemd apply a running container's device rules again, as a
// command in the systemd host for the container of that id.
using Event = std::function<std::vector<std::string>(SystemdHost& host, const std::string& id)>;

std::vector<std::string> daemon_reload(SystemdHost&, const std::string&) { return {"systemctl", "daemon-reload"}; }

// runc skips devices on update (runc 1.0 and later), but hands the other
// resources to systemd as the scope's properties; in v1, systemd 252 then
// rewrote the scope's device rules from its DeviceAllow= list (seen here
// with Debian 12's runc 1.1.5).
std::vector<std::string> runc_update(SystemdHost& host, const std::string& id) {
  std::vector<std::string> update{"runc", "--systemd-cgroup", "update"};
  auto options = runc_update_options(host_has_memory_controller(host));
  update.insert(update.end(), options.begin(), options.end());
  update.push_back(id);
  return update;
}

// What a case checks once the event has run, with the container and the
// GPU 0 node made inside it.
using After = std::function<void(SystemdContainer& container, const HandMadeNode& gpu0)>;

// Starts `route`'s container, shows GPU 1 open and a hand-made GPU 0 node
// refused, runs `event` in the systemd host, then `after`.
void around_event(Route route, CgroupMode mode, const Event& event, const After& after) {
  SystemdScene scene(mode);
  INFO("systemd host: " << scene.host().start_error());
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
  after(container, gpu0);
}

// GPU 1 opens before and after `event`; GPU 0, made by hand, never does;
// and `graft verify` finds the container as its plan says.
void check_gpu1_survives(Route route, CgroupMode mode, const Event& event) {
  around_event(route, mode, event, [](SystemdContainer& container, const HandMadeNode& gpu0) {
    CHECK(container.open("/dev/nvidia1") == kENXIO);
    CHECK(container.open("/dev/nvidiactl") == kENXIO);
    CHECK(container.open(gpu0.path) == kEPERM);
    CHECK(container.open("/dev/null") == "ok");
    auto verified = container.verify();
    INFO("graft verify: exit " << verified.exit_code << "\n" << verified.out << verified.err);
    CHECK(verified.exit_code == 0);
  });
}

// What systemd holds for the container's scope, for a failure's message.
std::string unit_devices(SystemdHost& host, const std::string& id) {
  auto shown = host.exec({"systemctl", "show", "-p", "DevicePolicy", "-p", "DeviceAllow", "runc-" + id + ".scope"});
  return shown.out + shown.err;
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

TEST_CASE("with the cgroup plugin's systemd setting off, a hooked GPU container under runc's systemd cgroup "
          "driver loses GPU 1 through systemctl daemon-reload, its audit record warns of it, and graft verify "
          "names the loss",
          "[e2e][systemd]") {
  GRAFT_SYSTEMD_EACH_CGROUP_MODE(mode);
  around_event(Route::hook_systemd_off, mode, daemon_reload, [](SystemdContainer& container, const HandMadeNode&) {
    CHECK(container.open("/dev/nvidia1") == kEPERM);
    auto verified = container.verify();
    INFO("graft verify: exit " << verified.exit_code << "\n" << verified.out << verified.err);
    CHECK(verified.exit_code == 1);
    CHECK_THAT(verified.out, Catch::Contains("c 195:1"));
    auto records = audit_records(container.id(), "applied");
    REQUIRE(records.size() == 1);
    INFO(records[0].dump());
    REQUIRE(records[0].contains("warnings"));
    CHECK_THAT(records[0]["warnings"][0].get<std::string>(),
               Catch::Contains("plugin cgroup: ") &&
                   Catch::Contains("systemd daemon-reload will take these device rules away"));
  });
}

TEST_CASE("graft hook as runc's prestart hook: a privileged GPU container under runc's systemd cgroup driver keeps "
          "/dev/fuse through the hook and through systemctl daemon-reload", "[e2e][systemd]") {
  GRAFT_SYSTEMD_EACH_CGROUP_MODE(mode);
  SystemdScene scene(mode);
  INFO("systemd host: " << scene.host().start_error());
  REQUIRE(scene.host().start_error().empty());
  SystemdContainer container(scene, Route::hook, DeviceSpec::every_device);
  INFO("start: " << container.started().err);
  REQUIRE(container.started().exit_code == 0);
  {
    INFO("after the hook: " << unit_devices(scene.host(), container.id()));
    CHECK(container.open("/dev/fuse") != kEPERM);  // "ok", or ENODEV on a host without fuse
    CHECK(container.open("/dev/nvidia1") == kENXIO);
  }
  auto reloaded = scene.host().exec({"systemctl", "daemon-reload"});
  INFO("daemon-reload: " << reloaded.err);
  REQUIRE(reloaded.exit_code == 0);
  INFO("after the reload: " << unit_devices(scene.host(), container.id()));
  CHECK(container.open("/dev/fuse") != kEPERM);
  CHECK(container.open("/dev/nvidia1") == kENXIO);
}
