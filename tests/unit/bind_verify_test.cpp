// SPDX-License-Identifier: Apache-2.0
// `graft verify` for what the mount plugins put in a root (plugins/common
// bind_check.hpp), through the real devices and libraries plugins: after
// they applied their actions in a sandbox root, verify finds nothing; then
// each way a target can be lost is one finding saying what is there now:
// missing, unmounted (the empty mountpoint file), replaced by another file,
// a node of another number, a symlink. Needs root (mounts, mknod).
#include <catch2/catch.hpp>

#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "fake_host.hpp"
#include "mount_support.hpp"

using namespace graft;
using graft::test::MountSandbox;

namespace {

Action bound_node(const std::string& source, const std::string& target, unsigned minor,
                  const std::string& how = "bind") {
  return Action{.kind = ActionKind::device_node, .plugin = "devices", .source = source,
                .target = target, .options = {how}, .device_type = 'c', .major = 195,
                .minor = minor};
}

Action library_bind(const std::string& source, const std::string& target) {
  return Action{.kind = ActionKind::bind_mount, .plugin = "libraries", .source = source,
                .target = target, .options = {"ro", "nosuid", "nodev"}};
}

std::vector<PluginFinding> findings_of(LoadedPlugin& plugin, const Action& action,
                                       const MountSandbox& sandbox) {
  auto findings = plugin.verify(action, 0, sandbox.target());
  INFO((findings.ok() ? std::string() : findings.error().message));
  REQUIRE(findings.ok());
  return *findings;
}

// The one drift `action` has now, by what it says was found.
std::string found_drift(LoadedPlugin& plugin, const Action& action, const MountSandbox& sandbox) {
  auto findings = findings_of(plugin, action, sandbox);
  REQUIRE(findings.size() == 1);
  CHECK(findings[0].kind == FindingKind::drift);
  return findings[0].found;
}

// A host with two GPUs' nodes and a driver library.
fixture::FakeHost verify_host() {
  auto spec = fixture::FakeHostSpec::with_gpus(2);
  spec.with_binaries = spec.with_firmware = false;
  return fixture::FakeHost::build(spec);
}

}  // namespace

TEST_CASE("verify finds a bound device node as planned, and names what replaced it",
          "[plugins][mount][verify]") {
  GRAFT_REQUIRE_MOUNTS();
  auto host = verify_host();
  MountSandbox sandbox;
  auto plugin = test::load_mechanism_plugin("devices");
  const Action node = bound_node(host.path("dev/nvidia1"), "/dev/nvidia1", 1);
  REQUIRE(test::run_plugin(*plugin, {node}, sandbox.target()).ok());
  CHECK(findings_of(*plugin, node, sandbox).empty());

  REQUIRE(::umount2(sandbox.path("/dev/nvidia1").c_str(), MNT_DETACH) == 0);
  CHECK(found_drift(*plugin, node, sandbox) ==
        "a regular file, not the host's " + host.path("dev/nvidia1"));
  REQUIRE(::unlink(sandbox.path("/dev/nvidia1").c_str()) == 0);
  CHECK(found_drift(*plugin, node, sandbox) == "missing");
  REQUIRE(::mknod(sandbox.path("/dev/nvidia1").c_str(), S_IFCHR | 0666, makedev(195, 2)) == 0);
  CHECK(found_drift(*plugin, node, sandbox) == "c 195:2");
}

TEST_CASE("verify holds a planned bound node that the runtime made itself with the same type and number",
          "[plugins][mount][verify]") {
  GRAFT_REQUIRE_MOUNTS();
  auto host = verify_host();
  MountSandbox sandbox;
  auto plugin = test::load_mechanism_plugin("devices");
  const Action node = bound_node(host.path("dev/nvidia1"), "/dev/nvidia1", 1);
  // As runc makes a spec's linux.devices entry (declarative mode, CDI).
  std::filesystem::create_directories(sandbox.path("/dev"));
  REQUIRE(::mknod(sandbox.path("/dev/nvidia1").c_str(), S_IFCHR | 0666, makedev(195, 1)) == 0);
  CHECK(findings_of(*plugin, node, sandbox).empty());
}

TEST_CASE("verify finds a node made with mknod by its type and number", "[plugins][mount][verify]") {
  GRAFT_REQUIRE_MOUNTS();
  MountSandbox sandbox;
  auto plugin = test::load_mechanism_plugin("devices");
  const Action node = bound_node("", "/dev/nvidia-uvm", 7, "mknod");
  REQUIRE(test::run_plugin(*plugin, {node}, sandbox.target()).ok());
  CHECK(findings_of(*plugin, node, sandbox).empty());
  REQUIRE(::unlink(sandbox.path("/dev/nvidia-uvm").c_str()) == 0);
  REQUIRE(::symlink("/dev/null", sandbox.path("/dev/nvidia-uvm").c_str()) == 0);
  CHECK(found_drift(*plugin, node, sandbox) == "a symlink");
}

TEST_CASE("verify finds a library bind as planned, then unmounted, then the host's file not mounted",
          "[plugins][mount][verify]") {
  GRAFT_REQUIRE_MOUNTS();
  auto host = verify_host();
  MountSandbox sandbox;
  auto plugin = test::load_mechanism_plugin("libraries");
  const std::string library = host.path("usr/lib/x86_64-linux-gnu/libcuda.so.560.35.03");
  const Action bind = library_bind(library, "/usr/lib/x86_64-linux-gnu/libcuda.so.560.35.03");
  REQUIRE(test::run_plugin(*plugin, {bind}, sandbox.target()).ok());
  CHECK(findings_of(*plugin, bind, sandbox).empty());

  const std::string target = sandbox.path(bind.target);
  REQUIRE(::umount2(target.c_str(), MNT_DETACH) == 0);
  CHECK(found_drift(*plugin, bind, sandbox) == "a regular file, not the host's " + library);
  // The host's own file there, but as a bind of its directory: the same
  // inode, not a mount at the target.
  REQUIRE(::unlink(target.c_str()) == 0);
  REQUIRE(::rmdir(sandbox.path("/usr/lib/x86_64-linux-gnu").c_str()) == 0);
  REQUIRE(::mkdir(sandbox.path("/usr/lib/x86_64-linux-gnu").c_str(), 0755) == 0);
  REQUIRE(::mount(host.path("usr/lib/x86_64-linux-gnu").c_str(),
                  sandbox.path("/usr/lib/x86_64-linux-gnu").c_str(), nullptr, MS_BIND, nullptr) == 0);
  CHECK(found_drift(*plugin, bind, sandbox) == "the host's file, but not mounted there");
}

TEST_CASE("verify of a symlink the libraries plugin made counts it as not checked",
          "[plugins][mount][verify]") {
  auto plugin = test::load_mechanism_plugin("libraries");
  CHECK(plugin->verifies());
  Action link{.kind = ActionKind::symlink, .plugin = "libraries", .source = "libcuda.so.1",
              .target = "/usr/lib/x86_64-linux-gnu/libcuda.so"};
  auto findings = plugin->verify(link, 0, ApplyTarget{});
  REQUIRE(findings.ok());
  REQUIRE(findings->size() == 1);
  CHECK((*findings)[0].kind == FindingKind::not_checked);
}
