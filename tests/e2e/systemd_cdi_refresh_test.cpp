// SPDX-License-Identifier: Apache-2.0
// The graft-cdi-refresh units (hooks/systemd/, docs/cdi.md "Keeping the
// spec current") under a real systemd 252 as PID 1 (harness/systemd_host.hpp). The
// units are the ones this build configured, with graft's path the build
// tree's; the systemd host's own /etc/graft/graft.toml is the site policy,
// its host roots a link in the shared scratch directory that leads to the
// fake GPU host (a driver) or to an empty directory (none). The units are
// enabled, then `systemctl start multi-user.target` starts what the target
// wants, as the boot does (the host is not rebooted). A driver change is
// the link moved, then what a driver install does to a watched file:
// depmod renaming a new /lib/modules/<kernel>/modules.dep over the old, or
// ldconfig rewriting /etc/ld.so.cache.
#include <catch2/catch.hpp>

#include <chrono>
#include <filesystem>
#include <functional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "fixture_files.hpp"
#include "harness/gpu_host.hpp"
#include "harness/systemd_container.hpp"
#include "harness/systemd_host.hpp"

using namespace graft::e2e;
using nlohmann::json;

namespace {

constexpr const char* kRefreshSpec = "/var/run/cdi/graft.json";

// v1 where this host has it (as the CI machine), else v2: the units do not
// depend on the cgroup layout.
CgroupMode refresh_mode() {
  return systemd_host_skip_reason(CgroupMode::v1).empty() ? CgroupMode::v1 : CgroupMode::v2;
}

std::string refresh_unit_text(const std::string& unit) {
  std::string text = graft::fixture::read_file(std::string(GRAFT_E2E_BINARY_DIR) + "/hooks/systemd/" + unit);
  // The installed graft's path, as configured (a tree's prefix: /usr,
  // /usr/local), becomes the build tree's.
  const std::string exec = "\nExecStart=";
  auto at = text.find(exec);
  if (at == std::string::npos) return text;
  at += exec.size();
  text.replace(at, text.find(' ', at) - at, GRAFT_BINARY);
  return text;
}

// One case's systemd host with the units installed and enabled but not yet
// started, the site policy's roots at `roots_link`.
class RefreshScene {
 public:
  RefreshScene() : scene_(refresh_mode()), roots_link_(scene_.file("host")), empty_root_(scene_.file("empty")) {
    std::filesystem::create_directories(empty_root_);
    set_driver(true);
    // The fake host's policy, its roots (and audit log) read through the link.
    std::string policy = graft::fixture::read_file(gpu_host().policy);
    const std::string root = gpu_host().host.root();
    for (auto at = policy.find(root); at != std::string::npos; at = policy.find(root, at + roots_link_.size()))
      policy.replace(at, root.size(), roots_link_);
    graft::fixture::write_file(scene_.file("graft.toml"), policy);
    for (const char* unit : {"graft-cdi-refresh.service", "graft-cdi-refresh.path"})
      graft::fixture::write_file(scene_.file(unit), refresh_unit_text(unit));
  }

  SystemdHost& host() { return scene_.host(); }
  std::string file(const std::string& name) const { return scene_.file(name); }

  // Installs the policy and the units; `driver`: whether the roots lead to the fake host.
  void install(bool driver) {
    set_driver(driver);
    run("mkdir -p /etc/graft /lib/modules/$(uname -r) && : > /lib/modules/$(uname -r)/modules.dep && "
        "cp " + file("graft.toml") + " /etc/graft/graft.toml && cp " + file("graft-cdi-refresh.service") + " " +
        file("graft-cdi-refresh.path") + " /etc/systemd/system/ && systemctl daemon-reload && "
        "systemctl enable graft-cdi-refresh.service graft-cdi-refresh.path");
  }

  // What the boot does with the enabled units.
  void boot() { run("systemctl start multi-user.target"); }

  // The driver comes or goes: the roots' link moves, then what a driver
  // install does to a watched file: `trigger`, a shell command.
  void change_driver(bool driver, const std::string& trigger) {
    set_driver(driver);
    run(trigger);
  }

  graft::testing::CommandResult run(const std::string& script) {
    auto result = host().exec({"sh", "-c", script});
    INFO(fmt::format("{}: exit {}\n{}{}", script, result.exit_code, result.out, result.err));
    REQUIRE(result.exit_code == 0);
    return result;
  }

  bool spec_exists() { return host().exec({"test", "-f", kRefreshSpec}).exit_code == 0; }
  std::string spec_kind() {
    auto shown = host().exec({"cat", kRefreshSpec});
    if (shown.exit_code != 0) return "";
    auto spec = json::parse(shown.out, nullptr, false);
    return spec.is_object() ? spec.value("kind", "") : "";
  }

  // The service's journal, for a failing case to show.
  std::string journal() {
    return host().exec({"journalctl", "--no-pager", "-o", "cat", "-u", "graft-cdi-refresh.service"}).out;
  }

  // The lines graft itself logged in the service's journal.
  std::vector<std::string> graft_lines() {
    std::vector<std::string> lines;
    std::istringstream in(journal());
    for (std::string line; std::getline(in, line);)
      if (line.starts_with("graft: ")) lines.push_back(line);
    return lines;
  }

  std::string unit_property(const std::string& unit, const std::string& property) {
    auto shown = host().exec({"systemctl", "show", "--value", "-p", property, unit});
    std::string value = shown.out;
    while (!value.empty() && value.back() == '\n') value.pop_back();
    return value;
  }

 private:
  void set_driver(bool driver) {
    std::filesystem::remove(roots_link_);
    std::filesystem::create_symlink(driver ? gpu_host().host.root() : empty_root_, roots_link_);
  }

  SystemdScene scene_;
  std::string roots_link_, empty_root_;
};

// What depmod does to modules.dep, and what ldconfig does to its cache.
constexpr const char* kDepmod =
    "cd /lib/modules/$(uname -r) && echo changed >> modules.dep && cp modules.dep modules.dep.new && "
    "mv modules.dep.new modules.dep";
constexpr const char* kLdconfig = "ldconfig";

// Polls `done` for up to 60 s: the path unit reacts within a second on an
// idle machine, but a sanitizer build's refresh beside the whole suite on
// two cores once took more than 20 s.
bool refresh_eventually(const std::function<bool()>& done) {
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (std::chrono::steady_clock::now() < deadline) {
    if (done()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  return done();
}

}  // namespace

#define GRAFT_REFRESH_SCENE(scene)                                   \
  GRAFT_SKIP_IF(systemd_host_skip_reason(refresh_mode()));           \
  RefreshScene scene;                                                \
  INFO("systemd host: " << scene.host().start_error());              \
  REQUIRE(scene.host().start_error().empty())

TEST_CASE("graft-cdi-refresh at boot with no driver succeeds, writes no spec, logs one line and does not run again",
          "[e2e][systemd][cdi-refresh]") {
  GRAFT_REFRESH_SCENE(scene);
  scene.install(false);
  scene.boot();
  INFO("the service's journal after the boot:\n" << scene.journal());
  CHECK(scene.unit_property("graft-cdi-refresh.service", "Result") == "success");
  CHECK(scene.unit_property("graft-cdi-refresh.service", "ActiveState") == "inactive");
  CHECK_FALSE(scene.spec_exists());
  std::this_thread::sleep_for(std::chrono::seconds(3));  // a loop would have run again by now
  auto lines = scene.graft_lines();
  REQUIRE(lines.size() == 1);
  CHECK_THAT(lines[0], Catch::StartsWith("graft: no driver loaded") &&
                           Catch::EndsWith(std::string("; no spec written to ") + kRefreshSpec));
  CHECK(scene.unit_property("graft-cdi-refresh.path", "ActiveState") == "active");
  CHECK(scene.unit_property("graft-cdi-refresh.path", "SubState") == "waiting");
}

TEST_CASE("graft-cdi-refresh at boot with a driver writes the spec, and writes it again when the policy is edited",
          "[e2e][systemd][cdi-refresh]") {
  GRAFT_REFRESH_SCENE(scene);
  scene.install(true);
  scene.boot();
  INFO("the service's journal after the boot:\n" << scene.journal());
  CHECK(scene.unit_property("graft-cdi-refresh.service", "Result") == "success");
  CHECK(scene.spec_kind() == "nvidia.com/gpu");
  // An edit in place, then a save by rename, as editors do.
  scene.run("printf '\\n[cdi]\\nkind = \"example.com/gpu\"\\n' >> /etc/graft/graft.toml");
  CHECK(refresh_eventually([&] { return scene.spec_kind() == "example.com/gpu"; }));
  scene.run("sed 's|example.com/gpu|example.org/gpu|' /etc/graft/graft.toml > /etc/graft/graft.toml.new && "
            "mv /etc/graft/graft.toml.new /etc/graft/graft.toml");
  CHECK(refresh_eventually([&] { return scene.spec_kind() == "example.org/gpu"; }));
}

TEST_CASE("graft-cdi-refresh removes the spec when the driver goes (modules.dep rewritten), in one line, and writes it "
          "when the driver comes back (ld.so.cache rewritten)",
          "[e2e][systemd][cdi-refresh]") {
  GRAFT_REFRESH_SCENE(scene);
  scene.install(true);
  scene.boot();
  INFO("the service's journal after the boot:\n" << scene.journal());
  REQUIRE(scene.spec_kind() == "nvidia.com/gpu");
  scene.change_driver(false, kDepmod);
  CHECK(refresh_eventually([&] { return !scene.spec_exists(); }));
  CHECK(refresh_eventually([&] {
    auto lines = scene.graft_lines();
    return !lines.empty() && lines.back().ends_with(std::string("; removed the stale spec ") + kRefreshSpec);
  }));
  scene.change_driver(true, kLdconfig);
  CHECK(refresh_eventually([&] { return scene.spec_kind() == "nvidia.com/gpu"; }));
  CHECK(scene.unit_property("graft-cdi-refresh.service", "Result") == "success");
}

TEST_CASE("graft-cdi-refresh stops watching a policy that keeps changing instead of spinning", "[e2e][systemd][cdi-refresh]") {
  GRAFT_REFRESH_SCENE(scene);
  scene.install(true);
  scene.boot();
  INFO("the service's journal after the boot:\n" << scene.journal());
  // Edits every 0.1 s until the watch gives up, for at most a minute: a
  // refresh that runs long (a sanitizer build, a loaded machine) is started
  // less often, so a fixed count of edits need not reach the limit.
  scene.run("for i in $(seq 600); do echo \"# edit $i\" >> /etc/graft/graft.toml; sleep 0.1; "
            "[ \"$(systemctl show --value -p ActiveState graft-cdi-refresh.path)\" = failed ] && break; done; true");
  std::this_thread::sleep_for(std::chrono::seconds(2));
  auto path_result = scene.unit_property("graft-cdi-refresh.path", "Result");
  auto service_result = scene.unit_property("graft-cdi-refresh.service", "Result");
  INFO("path unit: " << path_result << ", service: " << service_result);
  // The service's limit (the boot's start counts) is met first; the path
  // unit then fails too, and stops triggering.
  CHECK(service_result == "start-limit-hit");
  CHECK(path_result == "unit-start-limit-hit");
  CHECK(scene.unit_property("graft-cdi-refresh.path", "ActiveState") == "failed");
  // The boot's run, then at most the ten a minute the limits allow.
  auto runs = scene.graft_lines().size();
  INFO(runs << " runs");
  CHECK(runs <= 11);
  CHECK(runs >= 2);
}
