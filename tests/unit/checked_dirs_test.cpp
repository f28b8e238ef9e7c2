// SPDX-License-Identifier: Apache-2.0
// Directories a plugin keeps across its apply calls (plugins/common/
// checked_dirs.hpp): what it keeps, what placing something forgets, and,
// through the real libraries plugin in a private mount namespace, that a
// kept directory is the one checked and never one mounted over since.
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdint>
#include <functional>
#include <string>

#include "checked_dirs.hpp"
#include "library_host.hpp"
#include "mount_support.hpp"
#include "temp_dir.hpp"

using namespace graft;
using graft::testing::library_host;
using graft::plugin::CheckedDirs;
using graft::test::MountSandbox;
using graft::test::read_all;

namespace {

// An O_PATH fd of an existing directory.
UniqueFd open_dir(const char* path) {
  UniqueFd fd(::open(path, O_PATH | O_DIRECTORY | O_CLOEXEC));
  REQUIRE(fd.valid());
  return fd;
}

// Whether `checked` holds a directory for `path`.
bool kept(const CheckedDirs& checked, const std::string& path) {
  auto found = checked.find(path);
  REQUIRE(found.ok());
  return found->valid();
}

bool same_inode(int a, int b) {
  struct stat sa {}, sb {};
  REQUIRE(::fstat(a, &sa) == 0);
  REQUIRE(::fstat(b, &sb) == 0);
  return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

// The host's libcuda, which every bind here mounts.
std::string libcuda(const fixture::FakeHost& host) {
  return host.path(graft::testing::kLibDir + "/" + graft::testing::kCuda);
}

Action libcuda_to(const fixture::FakeHost& host, const std::string& target) {
  return Action{.kind = ActionKind::bind_mount, .plugin = "libraries", .source = libcuda(host),
                .target = target, .options = {"ro", "nosuid", "nodev"}};
}

// libcuda to /opt/d/first.so (action 0), then `between`, then to
// /opt/d/second.so (action `second_index`): the plugin's calls one by one,
// as the hook makes them.
void bind_two_files(const MountSandbox& sandbox, const fixture::FakeHost& host,
                    std::uint32_t second_index, const std::function<void()>& between) {
  auto plugin = test::load_mechanism_plugin("libraries");
  auto first = libcuda_to(host, "/opt/d/first.so");
  auto second = libcuda_to(host, "/opt/d/second.so");
  auto host_side = sandbox.target();
  host_side.rootfs_fd = -1;  // prepare runs before graft enters the container
  REQUIRE(plugin->prepare(first, 0, host_side).ok());
  REQUIRE(plugin->prepare(second, second_index, host_side).ok());
  REQUIRE(plugin->apply(first, 0, sandbox.target()).ok());
  between();
  REQUIRE(plugin->apply(second, second_index, sandbox.target()).ok());
  REQUIRE(plugin->finish(sandbox.target()).ok());
}

}  // namespace

TEST_CASE("A kept directory is found again as a new fd of the same directory, and one never kept is not found",
          "[plugins][checked-dirs]") {
  CheckedDirs checked;
  auto root = open_dir("/");
  REQUIRE(checked.remember("/usr/lib", root.get()).ok());
  auto found = checked.find("/usr/lib");
  REQUIRE(found.ok());
  REQUIRE(found->valid());
  CHECK(found->get() != root.get());
  CHECK(same_inode(found->get(), root.get()));
  auto missing = checked.find("/usr");
  REQUIRE(missing.ok());
  CHECK_FALSE(missing->valid());
}

TEST_CASE("Forgetting a path forgets it and every directory below it, and keeps those that only share its spelling",
          "[plugins][checked-dirs]") {
  CheckedDirs checked;
  auto root = open_dir("/");
  for (const char* path : {"/a", "/a/b", "/a/b/c", "/a-x", "/ab", "/b"})
    REQUIRE(checked.remember(path, root.get()).ok());
  checked.forget_at_or_under("/a");
  CHECK_FALSE(kept(checked, "/a"));
  CHECK_FALSE(kept(checked, "/a/b"));
  CHECK_FALSE(kept(checked, "/a/b/c"));
  CHECK(kept(checked, "/a-x"));
  CHECK(kept(checked, "/ab"));
  CHECK(kept(checked, "/b"));
  checked.forget_at_or_under("/");
  CHECK_FALSE(kept(checked, "/b"));
}

TEST_CASE("Kept directories last across consecutive actions, and a gap in the plan's indexes forgets them all",
          "[plugins][checked-dirs]") {
  CheckedDirs checked;
  auto root = open_dir("/");
  checked.start_action(4);
  REQUIRE(checked.remember("/dev", root.get()).ok());
  checked.start_action(5);
  CHECK(kept(checked, "/dev"));
  checked.start_action(7);  // action 6 was another plugin's
  CHECK_FALSE(kept(checked, "/dev"));
}

TEST_CASE("A file goes into the directory checked for the one before it, even when the image swaps that path for a symlink in between",
          "[plugins][mount][checked-dirs]") {
  GRAFT_REQUIRE_MOUNTS();
  auto host = library_host();
  MountSandbox sandbox;
  REQUIRE(::mkdir(sandbox.path("/opt").c_str(), 0755) == 0);
  REQUIRE(::mkdir(sandbox.path("/opt/d").c_str(), 0755) == 0);
  REQUIRE(::mkdir(sandbox.path("/opt/elsewhere").c_str(), 0755) == 0);
  bind_two_files(sandbox, host, 1, [&] {
    REQUIRE(::rename(sandbox.path("/opt/d").c_str(), sandbox.path("/opt/moved").c_str()) == 0);
    REQUIRE(::symlink("elsewhere", sandbox.path("/opt/d").c_str()) == 0);
  });
  CHECK(read_all(sandbox.path("/opt/moved/second.so")) == read_all(libcuda(host)));
  CHECK(::access(sandbox.path("/opt/elsewhere/second.so").c_str(), F_OK) != 0);
}

TEST_CASE("A file goes onto a directory the plugin mounted over a directory it had checked, not beneath it",
          "[plugins][mount][checked-dirs]") {
  GRAFT_REQUIRE_MOUNTS();
  auto host = library_host();
  fixture::TempDir shared("graft-checked-dirs-");  // outlives the sandbox's mounts
  MountSandbox sandbox;
  auto plugin = test::load_mechanism_plugin("libraries");
  Action over_dir{.kind = ActionKind::bind_mount, .plugin = "libraries", .source = shared.path(),
                  .target = "/opt/d", .options = {"rw", "nosuid", "nodev"}};
  REQUIRE(test::run_plugin(*plugin,
                           {libcuda_to(host, "/opt/d/first.so"), over_dir,
                            libcuda_to(host, "/opt/d/second.so")},
                           sandbox.target())
              .ok());
  CHECK(read_all(sandbox.path("/opt/d/second.so")) == read_all(libcuda(host)));
  CHECK(::access((shared.path() + "/second.so").c_str(), F_OK) == 0);
}

TEST_CASE("After another plugin's action a directory is resolved again: a file goes onto what was mounted there meanwhile",
          "[plugins][mount][checked-dirs]") {
  GRAFT_REQUIRE_MOUNTS();
  auto host = library_host();
  MountSandbox sandbox;
  bind_two_files(sandbox, host, 2, [&] {  // action 1, another plugin's: a tmpfs over /opt/d
    REQUIRE(::mount("graft-test-other", sandbox.path("/opt/d").c_str(), "tmpfs", 0, "mode=0755") == 0);
  });
  CHECK(read_all(sandbox.path("/opt/d/second.so")) == read_all(libcuda(host)));
  CHECK(::access(sandbox.path("/opt/d/first.so").c_str(), F_OK) != 0);  // beneath the tmpfs
}
