// SPDX-License-Identifier: Apache-2.0
// The libraries plugin against a real mount namespace: read-only library
// binds with the planned flags, directories made for the container's owner,
// soname symlinks and config files written atomically, and symlinks planted
// in the image that must not lead a mount out of the root.
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <fstream>

#include "library_host.hpp"
#include "fake_host.hpp"
#include "mount_support.hpp"

using namespace graft;
using namespace graft::testing;
using graft::test::entries;
using graft::test::MountSandbox;
using graft::test::read_all;

namespace {


std::string lib(const std::string& name) { return fixture::FakeHost::lib_dir() + "/" + name; }

Action bind_action(std::string source, std::string target,
            std::vector<std::string> options = {"ro", "nosuid", "nodev"}) {
  return Action{.kind = ActionKind::bind_mount, .plugin = "libraries", .source = std::move(source),
                .target = std::move(target), .options = std::move(options)};
}


Action symlink_action(std::string value, std::string target) {
  return Action{.kind = ActionKind::symlink, .plugin = "libraries", .source = std::move(value),
                .target = std::move(target)};
}

// What an image may ship: a directory `dir` in the root holding `name`, a
// symlink to `value`.
void plant_symlink(const MountSandbox& sandbox, const std::string& dir, const std::string& name,
                   const std::string& value) {
  REQUIRE(::mkdir(sandbox.path(dir).c_str(), 0755) == 0);
  REQUIRE(::symlink(value.c_str(), sandbox.path(dir + "/" + name).c_str()) == 0);
}

Action config(std::string target, std::string content) {
  Action action{.kind = ActionKind::config_file, .plugin = "libraries", .target = std::move(target)};
  action.content = std::move(content);
  return action;
}

}  // namespace

TEST_CASE("A library is bound read-only, nosuid and nodev, with the host file's bytes",
          "[plugins][mount][libraries]") {
  GRAFT_REQUIRE_MOUNTS();
  auto host = library_host();
  MountSandbox sandbox;
  auto plugin = test::load_mechanism_plugin("libraries");
  REQUIRE(test::run_plugin(*plugin, {cuda_bind(host)}, sandbox.target()).ok());
  std::string inside = sandbox.path(lib(kCuda));
  CHECK(read_all(inside) == read_all(host.path(lib(kCuda))));
  CHECK(test::open_errno(inside, O_WRONLY) == EROFS);
  unsigned long flags = test::mount_flags(inside);
  CHECK((flags & ST_RDONLY) != 0);
  CHECK((flags & ST_NOSUID) != 0);
  CHECK((flags & ST_NODEV) != 0);
  CHECK((flags & ST_NOEXEC) == 0);  // not asked for: libraries must stay mappable executable
}

TEST_CASE("noexec in the options makes the bound file's mount noexec",
          "[plugins][mount][libraries]") {
  GRAFT_REQUIRE_MOUNTS();
  auto host = library_host();
  MountSandbox sandbox;
  auto plugin = test::load_mechanism_plugin("libraries");
  auto firmware = bind_action(host.path(lib(kCuda)), "/lib/firmware/nvidia/gsp.bin",
                       {"ro", "nosuid", "nodev", "noexec"});
  REQUIRE(test::run_plugin(*plugin, {firmware}, sandbox.target()).ok());
  CHECK((test::mount_flags(sandbox.path("/lib/firmware/nvidia/gsp.bin")) & ST_NOEXEC) != 0);
}

TEST_CASE("Directories made for a bind belong to the container's owner, mode 0755",
          "[plugins][mount][libraries]") {
  GRAFT_REQUIRE_MOUNTS();
  auto host = library_host();
  MountSandbox sandbox;
  auto plugin = test::load_mechanism_plugin("libraries");
  REQUIRE(test::run_plugin(*plugin, {cuda_bind(host)}, sandbox.target(1000, 1000)).ok());
  for (const char* dir : {"/usr", "/usr/lib", "/usr/lib/x86_64-linux-gnu"}) {
    struct stat st {};
    REQUIRE(::lstat(sandbox.path(dir).c_str(), &st) == 0);
    INFO(dir);
    CHECK(S_ISDIR(st.st_mode));
    CHECK(st.st_uid == 1000);
    CHECK((st.st_mode & 07777) == 0755);
  }
}

TEST_CASE("The file made for a library's mount is empty, mode 0644, and the container owner's",
          "[plugins][mount][libraries]") {
  GRAFT_REQUIRE_MOUNTS();
  auto host = library_host();
  MountSandbox sandbox;
  auto plugin = test::load_mechanism_plugin("libraries");
  REQUIRE(test::run_plugin(*plugin, {cuda_bind(host)}, sandbox.target(1000, 1000)).ok());
  std::string inside = sandbox.path(lib(kCuda));
  REQUIRE(::umount2(inside.c_str(), MNT_DETACH) == 0);  // what lies under the library
  struct stat st {};
  REQUIRE(::lstat(inside.c_str(), &st) == 0);
  CHECK(S_ISREG(st.st_mode));
  CHECK((st.st_mode & 07777) == 0644);
  CHECK(st.st_uid == 1000);
  CHECK(st.st_gid == 1000);
  CHECK(st.st_size == 0);
}

TEST_CASE("A soname symlink holds the planned value and resolves to the bound library",
          "[plugins][mount][libraries]") {
  GRAFT_REQUIRE_MOUNTS();
  auto host = library_host();
  MountSandbox sandbox;
  auto plugin = test::load_mechanism_plugin("libraries");
  REQUIRE(test::run_plugin(*plugin,
                           {cuda_bind(host), symlink_action(kCuda, lib("libcuda.so.1"))},
                           sandbox.target())
              .ok());
  char value[256] = {};
  REQUIRE(::readlink(sandbox.path(lib("libcuda.so.1")).c_str(), value, sizeof value - 1) > 0);
  CHECK(std::string(value) == kCuda);
  CHECK(read_all(sandbox.path(lib("libcuda.so.1"))) == read_all(host.path(lib(kCuda))));
}

TEST_CASE("A symlink replaces an existing link or file and leaves no temporary entry",
          "[plugins][mount][libraries]") {
  GRAFT_REQUIRE_MOUNTS();
  MountSandbox sandbox;
  plant_symlink(sandbox, "/lib", "liba.so.1", "libold.so");
  std::ofstream(sandbox.path("/lib/libb.so.1")) << "stale";
  auto plugin = test::load_mechanism_plugin("libraries");
  REQUIRE(test::run_plugin(*plugin, {symlink_action("liba.so.2", "/lib/liba.so.1"),
                                     symlink_action("libb.so.2", "/lib/libb.so.1")},
                           sandbox.target())
              .ok());
  char value[64] = {};
  REQUIRE(::readlink(sandbox.path("/lib/liba.so.1").c_str(), value, sizeof value - 1) > 0);
  CHECK(std::string(value) == "liba.so.2");
  CHECK(entries(sandbox.path("/lib")) == std::vector<std::string>{"liba.so.1", "libb.so.1"});
}

TEST_CASE("A new symlink and a replaced one both belong to the container owner",
          "[plugins][mount][libraries]") {
  GRAFT_REQUIRE_MOUNTS();
  MountSandbox sandbox;
  plant_symlink(sandbox, "/lib", "libold.so.1", "libold.so");
  auto plugin = test::load_mechanism_plugin("libraries");
  REQUIRE(test::run_plugin(*plugin, {symlink_action("libnew.so.2", "/lib/libnew.so.1"),
                                     symlink_action("libold.so.2", "/lib/libold.so.1")},
                           sandbox.target(1000, 1000))
              .ok());
  for (const char* name : {"/lib/libnew.so.1", "/lib/libold.so.1"}) {
    INFO(name);
    struct stat st {};
    REQUIRE(::lstat(sandbox.path(name).c_str(), &st) == 0);
    CHECK(S_ISLNK(st.st_mode));
    CHECK(st.st_uid == 1000);
    CHECK(st.st_gid == 1000);
  }
  CHECK(entries(sandbox.path("/lib")) == std::vector<std::string>{"libnew.so.1", "libold.so.1"});
}

TEST_CASE("A symlink is never put in place of a directory", "[plugins][mount][libraries]") {
  GRAFT_REQUIRE_MOUNTS();
  MountSandbox sandbox;
  REQUIRE(::mkdir(sandbox.path("/lib").c_str(), 0755) == 0);
  REQUIRE(::mkdir(sandbox.path("/lib/libcuda.so").c_str(), 0755) == 0);
  auto plugin = test::load_mechanism_plugin("libraries");
  auto status = test::run_plugin(*plugin, {symlink_action("libcuda.so.1", "/lib/libcuda.so")},
                                 sandbox.target());
  REQUIRE_FALSE(status.ok());
  CHECK_THAT(status.error().message,
             Catch::Contains("/lib/libcuda.so exists and is a directory"));
  struct stat st {};
  REQUIRE(::lstat(sandbox.path("/lib/libcuda.so").c_str(), &st) == 0);
  CHECK(S_ISDIR(st.st_mode));
}

TEST_CASE("A config file is written with its exact bytes, mode 0644, for the container's owner",
          "[plugins][mount][libraries]") {
  GRAFT_REQUIRE_MOUNTS();
  MountSandbox sandbox;
  auto plugin = test::load_mechanism_plugin("libraries");
  using namespace std::string_literals;
  std::string content = "{\"file_format_version\" : \"1.0.0\"}\n\0tail"s;  // NUL-safe
  std::string path = "/usr/share/egl/egl_external_platform.d/10_nvidia.json";
  REQUIRE(test::run_plugin(*plugin, {config(path, content)}, sandbox.target(1000, 1000)).ok());
  CHECK(read_all(sandbox.path(path)) == content);
  struct stat st {};
  REQUIRE(::lstat(sandbox.path(path).c_str(), &st) == 0);
  CHECK(S_ISREG(st.st_mode));
  CHECK((st.st_mode & 07777) == 0644);
  CHECK(st.st_uid == 1000);
  CHECK(entries(sandbox.path("/usr/share/egl/egl_external_platform.d")) ==
        std::vector<std::string>{"10_nvidia.json"});
}

TEST_CASE("A parent symlink that climbs out of the root keeps the mount inside the root",
          "[plugins][mount][libraries]") {
  GRAFT_REQUIRE_MOUNTS();
  auto host = library_host();
  MountSandbox sandbox;
  fixture::TempDir outside("graft-outside-");
  // On the host this relative link would reach `outside`; in the root it
  // cannot climb above "/", so it names <root><outside> instead.
  plant_symlink(sandbox, "/usr", "lib", "../../../../../../../../../../.." + outside.path());
  std::string inside_copy = sandbox.path(outside.path());
  std::filesystem::create_directories(inside_copy);
  auto plugin = test::load_mechanism_plugin("libraries");
  REQUIRE(test::run_plugin(*plugin, {cuda_bind(host)}, sandbox.target()).ok());
  CHECK(entries(outside.path()).empty());
  CHECK(read_all(inside_copy + "/x86_64-linux-gnu/" + kCuda) == read_all(host.path(lib(kCuda))));
}

TEST_CASE("A parent symlink that names a host directory absent from the root is refused",
          "[plugins][mount][libraries]") {
  GRAFT_REQUIRE_MOUNTS();
  auto host = library_host();
  MountSandbox sandbox;
  fixture::TempDir outside("graft-outside-");
  plant_symlink(sandbox, "/usr", "lib", outside.path());
  auto plugin = test::load_mechanism_plugin("libraries");
  auto status = test::run_plugin(*plugin, {cuda_bind(host)}, sandbox.target());
  REQUIRE_FALSE(status.ok());
  CHECK_THAT(status.error().message, Catch::Contains("/usr/lib exists and is a symlink"));
  CHECK(entries(outside.path()).empty());
}

TEST_CASE("A library source that is a symlink on the host is refused, naming it",
          "[plugins][mount][libraries]") {
  GRAFT_REQUIRE_MOUNTS();
  auto host = library_host();
  auto plugin = test::load_mechanism_plugin("libraries");
  auto status = plugin->prepare(bind_action(host.path(lib("libcuda.so.1")), lib("libcuda.so.1")), 0,
                                ApplyTarget{});
  REQUIRE_FALSE(status.ok());
  CHECK_THAT(status.error().message,
             Catch::Contains(host.path(lib("libcuda.so.1")) + " is a symlink, expected"));
}

TEST_CASE("A library source missing on the host fails with ENOENT carried across the plugin boundary",
          "[plugins][mount][libraries]") {
  auto plugin = test::load_mechanism_plugin("libraries");
  auto status = plugin->prepare(bind_action("/nonexistent/graft/libcuda.so.1", lib("libcuda.so.1")), 0,
                                ApplyTarget{});
  REQUIRE_FALSE(status.ok());
  CHECK(status.error().code == ENOENT);
}

TEST_CASE("An apply whose prepare never ran fails closed instead of mounting nothing",
          "[plugins][mount][libraries]") {
  GRAFT_REQUIRE_MOUNTS();
  auto host = library_host();
  MountSandbox sandbox;
  auto plugin = test::load_mechanism_plugin("libraries");
  auto status = plugin->apply(cuda_bind(host), 0, sandbox.target());
  REQUIRE_FALSE(status.ok());
  CHECK_THAT(status.error().message, Catch::Contains(lib(kCuda) + ": not prepared"));
}

TEST_CASE("A mount option no plugin executes is refused, naming it",
          "[plugins][mount][libraries]") {
  GRAFT_REQUIRE_MOUNTS();
  auto host = library_host();
  auto plugin = test::load_mechanism_plugin("libraries");
  auto status = plugin->prepare(bind_action(host.path(lib(kCuda)), lib(kCuda), {"ro", "relatime"}),
                                0, ApplyTarget{});
  REQUIRE_FALSE(status.ok());
  CHECK_THAT(status.error().message, Catch::Contains("unsupported mount option 'relatime'"));
}
