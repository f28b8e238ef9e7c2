// SPDX-License-Identifier: Apache-2.0
// The procfs plugin against a real mount namespace: a tmpfs mask over the
// driver's procfs directory holding only the copied (and rewritten) files,
// the granted GPU's entries bound read-only beneath it, and the mask made
// read-only before it is attached.
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <cerrno>

#include "fake_host.hpp"
#include "mount_support.hpp"

using namespace graft;
using graft::test::entries;
using graft::test::MountSandbox;
using graft::test::read_all;

namespace {

const std::string kDriverProc = "/proc/driver/nvidia";

fixture::FakeHost proc_host(bool mig = false) {
  auto spec = fixture::FakeHostSpec::with_gpus(2, mig);
  spec.with_libraries = spec.with_binaries = spec.with_firmware = false;
  spec.with_device_nodes = false;
  return fixture::FakeHost::build(spec);
}

Action mask(const fixture::FakeHost& host) {
  return Action{.kind = ActionKind::procfs_mask,
                .plugin = "procfs",
                .source = host.path(kDriverProc),
                .target = kDriverProc,
                .options = {"mode=0555", "nosuid", "nodev", "noexec"},
                .paths = {"version", "registry", "params"},
                .rewrites = {"params: ModifyDeviceFiles: 1 => ModifyDeviceFiles: 0"}};
}

Action proc_bind(const fixture::FakeHost& host, const std::string& inside) {
  return Action{.kind = ActionKind::bind_mount, .plugin = "procfs", .source = host.path(inside),
                .target = inside, .options = {"ro", "nosuid", "nodev", "noexec"}};
}

}  // namespace

TEST_CASE("The procfs mask shows only the copied files, with ModifyDeviceFiles: 0",
          "[plugins][mount][procfs]") {
  GRAFT_REQUIRE_MOUNTS();
  auto host = proc_host();
  MountSandbox sandbox;
  auto plugin = test::load_mechanism_plugin("procfs");
  REQUIRE(test::run_plugin(*plugin, {mask(host)}, sandbox.target()).ok());
  std::string dir = sandbox.path(kDriverProc);
  CHECK(entries(dir) == std::vector<std::string>{"params", "registry", "version"});
  std::string params = read_all(dir + "/params");
  CHECK_THAT(params, Catch::Contains("ModifyDeviceFiles: 0"));
  CHECK_THAT(params, !Catch::Contains("ModifyDeviceFiles: 1"));
  CHECK(read_all(dir + "/version") == read_all(host.path(kDriverProc + "/version")));
  struct stat st {};
  REQUIRE(::stat((dir + "/version").c_str(), &st) == 0);
  CHECK((st.st_mode & 07777) == 0444);
  REQUIRE(::stat(dir.c_str(), &st) == 0);
  CHECK((st.st_mode & 07777) == 0555);
}

TEST_CASE("After finish the mask is read-only, nosuid, nodev and noexec",
          "[plugins][mount][procfs]") {
  GRAFT_REQUIRE_MOUNTS();
  auto host = proc_host();
  MountSandbox sandbox;
  auto plugin = test::load_mechanism_plugin("procfs");
  REQUIRE(test::run_plugin(*plugin, {mask(host)}, sandbox.target()).ok());
  std::string dir = sandbox.path(kDriverProc);
  unsigned long flags = test::mount_flags(dir);
  CHECK((flags & (ST_RDONLY | ST_NOSUID | ST_NODEV | ST_NOEXEC)) ==
        (ST_RDONLY | ST_NOSUID | ST_NODEV | ST_NOEXEC));
  CHECK(test::open_errno(dir + "/extra", O_WRONLY | O_CREAT) == EROFS);
}

TEST_CASE("The procfs mask is already read-only when apply attaches it, before finish",
          "[plugins][mount][procfs]") {
  GRAFT_REQUIRE_MOUNTS();
  auto host = proc_host();
  MountSandbox sandbox;
  auto plugin = test::load_mechanism_plugin("procfs");
  ApplyTarget host_side = sandbox.target();
  host_side.rootfs_fd = -1;
  REQUIRE(plugin->prepare(mask(host), 0, host_side).ok());
  REQUIRE(plugin->apply(mask(host), 0, sandbox.target()).ok());
  std::string dir = sandbox.path(kDriverProc);
  CHECK((test::mount_flags(dir) & ST_RDONLY) == ST_RDONLY);
  CHECK(test::open_errno(dir + "/extra", O_WRONLY | O_CREAT) == EROFS);
  CHECK(test::open_errno(dir + "/params", O_WRONLY) == EROFS);
  CHECK(plugin->finish(sandbox.target()).ok());
}

TEST_CASE("Only the granted GPU's procfs directory shows under the mask, read-only",
          "[plugins][mount][procfs]") {
  GRAFT_REQUIRE_MOUNTS();
  auto host = proc_host();
  MountSandbox sandbox;
  auto plugin = test::load_mechanism_plugin("procfs");
  std::string gpu = kDriverProc + "/gpus/" + host.spec().gpus[1].bus_id;
  REQUIRE(test::run_plugin(*plugin, {mask(host), proc_bind(host, gpu)}, sandbox.target()).ok());
  CHECK(entries(sandbox.path(kDriverProc + "/gpus")) ==
        std::vector<std::string>{host.spec().gpus[1].bus_id});
  CHECK(read_all(sandbox.path(gpu + "/information")) ==
        read_all(host.path(gpu + "/information")));
  CHECK(test::open_errno(sandbox.path(gpu + "/information"), O_WRONLY) == EROFS);
}

TEST_CASE("A MIG access file is bound onto a file made inside the mask",
          "[plugins][mount][procfs]") {
  GRAFT_REQUIRE_MOUNTS();
  auto host = proc_host(/*mig=*/true);
  MountSandbox sandbox;
  auto plugin = test::load_mechanism_plugin("procfs");
  std::string access = kDriverProc + "/capabilities/gpu0/mig/gi2/access";
  REQUIRE(test::run_plugin(*plugin, {mask(host), proc_bind(host, access)}, sandbox.target()).ok());
  CHECK(read_all(sandbox.path(access)) == read_all(host.path(access)));
  CHECK(entries(sandbox.path(kDriverProc + "/capabilities/gpu0/mig")) ==
        std::vector<std::string>{"gi2"});
}

TEST_CASE("MIG access files sharing directories in the mask, in any order, each show their own file",
          "[plugins][mount][procfs]") {
  GRAFT_REQUIRE_MOUNTS();
  auto host = proc_host(/*mig=*/true);
  MountSandbox sandbox;
  auto plugin = test::load_mechanism_plugin("procfs");
  // Deeper, shallower, another GPU, then back: the directories made for one
  // file are reused by the next only where its path shares them.
  const std::vector<std::string> files = {
      "gpu0/mig/gi2/ci1/access", "gpu0/mig/gi2/access", "gpu0/mig/gi2/ci0/access",
      "gpu1/mig/gi1/access",     "gpu0/mig/gi1/ci0/access", "gpu1/mig/gi2/ci1/access"};
  std::vector<Action> actions = {mask(host)};
  for (const auto& file : files) actions.push_back(proc_bind(host, kDriverProc + "/capabilities/" + file));
  REQUIRE(test::run_plugin(*plugin, actions, sandbox.target()).ok());
  for (const auto& file : files) {
    std::string access = kDriverProc + "/capabilities/" + file;
    CHECK(read_all(sandbox.path(access)) == read_all(host.path(access)));
  }
  const std::string mig0 = sandbox.path(kDriverProc + "/capabilities/gpu0/mig");
  CHECK(entries(mig0) == std::vector<std::string>{"gi1", "gi2"});
  CHECK(entries(mig0 + "/gi2") == std::vector<std::string>{"access", "ci0", "ci1"});
  CHECK(entries(mig0 + "/gi1") == std::vector<std::string>{"ci0"});
  CHECK(entries(sandbox.path(kDriverProc + "/capabilities/gpu1/mig")) == std::vector<std::string>{"gi1", "gi2"});
}

TEST_CASE("A malformed procfs rewrite is refused in prepare, naming the mask target",
          "[plugins][mount][procfs]") {
  GRAFT_REQUIRE_MOUNTS();
  auto host = proc_host();
  auto plugin = test::load_mechanism_plugin("procfs");
  auto action = mask(host);
  action.rewrites = {"params ModifyDeviceFiles=0"};
  auto status = plugin->prepare(action, 0, ApplyTarget{});
  REQUIRE_FALSE(status.ok());
  CHECK_THAT(status.error().message,
             Catch::Contains(kDriverProc + ": rewrite 'params ModifyDeviceFiles=0' is not"));
}

TEST_CASE("A procfs file replaced by a symlink on the host is refused, not followed",
          "[plugins][mount][procfs]") {
  GRAFT_REQUIRE_MOUNTS();
  auto host = proc_host();
  std::string registry = host.path(kDriverProc + "/registry");
  REQUIRE(::unlink(registry.c_str()) == 0);
  REQUIRE(::symlink("/etc/shadow", registry.c_str()) == 0);
  auto plugin = test::load_mechanism_plugin("procfs");
  auto status = plugin->prepare(mask(host), 0, ApplyTarget{});
  REQUIRE_FALSE(status.ok());
  CHECK_THAT(status.error().message, Catch::Contains("open " + registry));
}
