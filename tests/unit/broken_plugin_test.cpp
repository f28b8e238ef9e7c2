// SPDX-License-Identifier: Apache-2.0
// Broken plugins under the real `graft hook` and `graft apply`: a missing or
// ABI-mismatched plugin stops the hook before anything is prepared; a plugin
// that fails half-way through a plan stops it there (fail closed: exit 1, one
// line, the runtime refuses the container and tears down its mount namespace
// with whatever was applied in it); a plugin that crashes kills the hook by
// its signal, after graft's handler wrote one line naming it. The "container"
// is a process in a mount namespace of its own (hook_harness.hpp); the
// test plugin `crash` stands in for the cgroup plugin, so the host's cgroups
// are never touched. tests/e2e/hook_failure_test.cpp runs the same failure
// under runc; hung_plugin_test.cpp covers a plugin that never returns.
#include <catch2/catch.hpp>

#include <cstdlib>

#include <signal.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "watchdog/plugin_crash_handlers.hpp"
#include "fixture_files.hpp"
#include "hook_harness.hpp"
#include "skip.hpp"

namespace fs = std::filesystem;
using namespace graft;
using namespace graft::harness;

namespace {

std::string gpu_bundle_named(const std::string& name) {
  return gpu1_bundle(host().path("/broken-plugin/" + name));
}

// A policy with `dir` as plugin directory; the stand-in's config in `mode`/`phase`.
std::string standin_policy(const std::string& name, const std::string& dir, const std::string& mode,
                           const std::string& phase = "apply", const std::string& audit = "") {
  return write_policy(name, dir,
                      "[plugins.config.cgroup]\nmode = \"" + mode + "\"\nphase = \"" + phase + "\"\n", audit);
}

// The hook for container c9 with the stand-in crashing (SIGSEGV) in `phase`.
testing::CommandResult hook_crashing_in(const std::string& phase, const PluginDir& plugins,
                                        const Container& container) {
  return hook(standin_policy("plugin-segv-" + phase, plugins.path(), "segv", phase),
              state_json("c9", container.pid(), gpu_bundle_named("segv-" + phase)));
}



// Under AddressSanitizer (the second test build) the graft binary's fatal
// signals belong to ASan, which reports and exits 1 instead of dying by the
// signal. These tests are about graft's own line and the signal death, so
// the graft processes they start leave those signals to graft.
void leave_fatal_signals_to_graft() {
  const char* current = std::getenv("ASAN_OPTIONS");
  std::string options = current ? current : "";
  if (!options.empty()) options += ":";
  options += "handle_segv=0:handle_sigbus=0:handle_sigill=0:handle_sigfpe=0:handle_abort=0";
  ::setenv("ASAN_OPTIONS", options.c_str(), 1);
}

}  // namespace

TEST_CASE("a stand-in plugin that does nothing lets a whole plan apply (the harness works)",
          "[hook][hostile]") {
  if (!hook_can_run()) {
    GRAFT_SKIP("needs root and device nodes");
  }
  PluginDir plugins("cgroup");
  Container container;
  std::size_t before = container.mount_count();
  std::string bundle = gpu_bundle_named("works");
  auto result = hook(standin_policy("plugin-works", plugins.path(), "none"),
                     state_json("c9", container.pid(), bundle));
  INFO(result.err);
  CHECK(result.exit_code == 0);
  CHECK(result.err.empty());
  CHECK(container.mount_count() > before);
  CHECK(host_has_no_mount_under(bundle));
}

TEST_CASE("a plugin that is enabled but missing is one line naming its file, before anything is prepared",
          "[hook][hostile]") {
  if (!hook_can_run()) {
    GRAFT_SKIP("needs root and device nodes");
  }
  PluginDir plugins;
  std::string policy = write_policy("plugin-missing", "",
                                    "[plugins]\ndir = \"" + plugins.path() +
                                        "\"\nenable = [\"devices\", \"absent\"]\n");
  auto result = hook(policy, state_json("c9", ::getpid(), gpu_bundle_named("missing")));
  INFO(result.err);
  CHECK(result.exit_code == 1);
  CHECK(line_count(result.err) == 1);
  CHECK_THAT(result.err, Catch::StartsWith("graft: container c9: plugin " + plugins.path() + "/libabsent.so"));
}

TEST_CASE("a plan action whose plugin is not in the directory is one line before anything is prepared",
          "[hook][hostile]") {
  if (!hook_can_run()) {
    GRAFT_SKIP("needs root and device nodes");
  }
  PluginDir plugins;
  fs::remove(fs::path(plugins.path()) / "libcgroup.so");
  auto result = hook(write_policy("plugin-absent", plugins.path()),
                     state_json("c9", ::getpid(), gpu_bundle_named("absent")));
  INFO(result.err);
  CHECK(result.exit_code == 1);
  CHECK(line_count(result.err) == 1);
  CHECK_THAT(result.err, Catch::Contains("plugin 'cgroup' is not loaded"));
}

TEST_CASE("a plugin built for another ABI major is one line naming both versions", "[hook][hostile]") {
  if (!hook_can_run()) {
    GRAFT_SKIP("needs root and device nodes");
  }
  PluginDir plugins;
  fs::copy_file(fs::path(GRAFT_TEST_PLUGIN_DIR) / "libabi2.so", fs::path(plugins.path()) / "libabi2.so");
  fs::permissions(fs::path(plugins.path()) / "libabi2.so", fs::perms(0755));
  auto result = hook(write_policy("plugin-abi2", plugins.path()),
                     state_json("c9", ::getpid(), gpu_bundle_named("abi2")));
  INFO(result.err);
  CHECK(result.exit_code == 1);
  CHECK(line_count(result.err) == 1);
  CHECK_THAT(result.err, Catch::EndsWith("libabi2.so: ABI 2.0, this graft speaks 1.x\n"));
}

TEST_CASE("a plugin failing in the middle of a plan stops it with one line, exit 1, and an audit record, "
          "and nothing lands on the host",
          "[hook][hostile]") {
  if (!hook_can_run()) {
    GRAFT_SKIP("needs root and device nodes");
  }
  PluginDir plugins("cgroup");
  Container container;
  std::size_t before = container.mount_count();
  std::string audit = host().path("/broken-plugin/fail-audit.jsonl");
  fs::remove(audit);
  std::string bundle = gpu_bundle_named("fail");
  auto result = hook(standin_policy("plugin-fail", plugins.path(), "fail", "apply", audit),
                     state_json("c9", container.pid(), bundle));
  INFO(result.err);
  CHECK(result.exit_code == 1);
  CHECK(line_count(result.err) == 1);
  CHECK_THAT(result.err, Catch::StartsWith("graft: container c9: plugin " + plugins.path() +
                                           "/libcgroup.so: cgroup_allow c ") &&
                             Catch::EndsWith(": failed on purpose\n"));
  // Libraries and device nodes went in before the cgroup step: the failure
  // really was half-way. They are in the container's namespace only, which
  // the runtime tears down with the container it refuses to start.
  CHECK(container.mount_count() > before);
  CHECK(host_has_no_mount_under(bundle));
  auto record = nlohmann::json::parse(graft::fixture::read_file(audit));
  CHECK(record["outcome"] == "error");
  CHECK_THAT(record["error"].get<std::string>(), Catch::Contains("failed on purpose"));
}

TEST_CASE("a plugin failing in the middle of a plan on a running container says in one line "
          "which actions stayed",
          "[apply][hostile]") {
  if (!hook_can_run()) {
    GRAFT_SKIP("needs root and device nodes");
  }
  PluginDir plugins("cgroup");
  Container container;
  std::size_t before = container.mount_count();
  std::string bundle = gpu_bundle_named("apply-fail");
  auto result = testing::run_graft({"--policy", standin_policy("plugin-apply-fail", plugins.path(), "fail"),
                                    "apply", "--pid", std::to_string(container.pid()), "--rootfs",
                                    bundle + "/rootfs", "--bundle", bundle, "--id", "lxc1", "--trust-pid"});
  INFO(result.err);
  CHECK(result.exit_code == 1);
  CHECK(line_count(result.err) == 1);
  // No runtime tears this container down: what went in before the failing
  // cgroup rule stays, and the line counts it, by kind.
  CHECK(container.mount_count() > before);
  CHECK_THAT(result.err, Catch::StartsWith("graft: container lxc1: apply stopped at action ") &&
                             Catch::Contains(" (plugin " + plugins.path() + "/libcgroup.so: cgroup_allow c ") &&
                             Catch::Contains(": failed on purpose); applied and left in the container: ") &&
                             Catch::Contains(" device_node") &&
                             Catch::EndsWith(", and no plugin's finish ran; see `graft plan` for them\n"));
}

TEST_CASE("a plugin that crashes in apply kills the hook by SIGSEGV after one line naming it",
          "[hook][hostile]") {
  leave_fatal_signals_to_graft();
  if (!hook_can_run()) {
    GRAFT_SKIP("needs root and device nodes");
  }
  PluginDir plugins("cgroup");
  Container container;
  std::string bundle = gpu_bundle_named("segv");
  auto result = hook(standin_policy("plugin-segv", plugins.path(), "segv"),
                     state_json("c9", container.pid(), bundle));
  INFO(result.err);
  CHECK(result.exit_code == 128 + SIGSEGV);
  CHECK(line_count(result.err) == 1);
  CHECK_THAT(result.err, Catch::StartsWith("graft: container c9: plugin " + plugins.path() +
                                           "/libcgroup.so: cgroup_allow c ") &&
                             Catch::EndsWith(": apply crashed with SIGSEGV\n"));
  CHECK(host_has_no_mount_under(bundle));
}

TEST_CASE("a plugin that crashes in init, prepare, finish or destroy kills the hook by SIGSEGV after one "
          "line naming that phase",
          "[hook][hostile]") {
  leave_fatal_signals_to_graft();
  if (!hook_can_run()) {
    GRAFT_SKIP("needs root and device nodes");
  }
  const std::string phase = GENERATE(as<std::string>{}, "init", "prepare", "finish", "destroy");
  INFO("the stand-in crashes in " << phase);
  PluginDir plugins("cgroup");
  Container container;
  std::size_t before = container.mount_count();
  auto result = hook_crashing_in(phase, plugins, container);
  INFO(result.err);
  CHECK(result.exit_code == 128 + SIGSEGV);
  const std::string plugin = "graft: container c9: plugin " + plugins.path() + "/libcgroup.so: ";
  if (phase == "prepare") {  // prepare runs per action, and the line names the action
    CHECK(line_count(result.err) == 1);
    CHECK_THAT(result.err, Catch::StartsWith(plugin) && Catch::EndsWith(": prepare crashed with SIGSEGV\n"));
  } else {  // the other phases are the whole plugin's: no action to name
    CHECK(result.err == plugin + phase + " crashed with SIGSEGV\n");
  }
  if (phase == "destroy") CHECK(container.mount_count() > before);  // the whole plan went in first
}

TEST_CASE("a plugin that crashes kills graft apply by SIGSEGV after one line naming it", "[apply][hostile]") {
  leave_fatal_signals_to_graft();
  if (!hook_can_run()) {
    GRAFT_SKIP("needs root and device nodes");
  }
  PluginDir plugins("cgroup");
  Container container;
  std::string bundle = gpu_bundle_named("apply-segv");
  auto result = testing::run_graft({"--policy", standin_policy("plugin-apply-segv", plugins.path(), "segv"),
                                    "apply", "--pid", std::to_string(container.pid()), "--rootfs",
                                    bundle + "/rootfs", "--bundle", bundle, "--id", "lxc1", "--trust-pid"});
  INFO(result.err);
  CHECK(result.exit_code == 128 + SIGSEGV);
  CHECK(line_count(result.err) == 1);
  CHECK_THAT(result.err, Catch::StartsWith("graft: container lxc1: plugin ") &&
                             Catch::EndsWith(": apply crashed with SIGSEGV\n"));
}

TEST_CASE("The plugin crash handlers are gone again once a plan is applied", "[hook][hostile]") {
  struct sigaction before {}, during {}, after {};
  ::sigaction(SIGSEGV, nullptr, &before);
  {
    PluginCrashHandlers handlers;
    ::sigaction(SIGSEGV, nullptr, &during);
    CHECK(during.sa_handler != before.sa_handler);
    CHECK((during.sa_flags & SA_ONSTACK) != 0);
  }
  ::sigaction(SIGSEGV, nullptr, &after);
  CHECK(after.sa_handler == before.sa_handler);
}
