// SPDX-License-Identifier: Apache-2.0
// The ipc plugin against a real mount namespace: daemon sockets and the MPS
// pipe directory bound writable with nosuid/nodev/noexec, and sources of the
// wrong type refused before anything is cloned.
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>

#include "fake_host.hpp"
#include "mount_support.hpp"

using namespace graft;
using graft::test::MountSandbox;

namespace {

fixture::FakeHost ipc_host() {
  auto spec = fixture::FakeHostSpec::with_gpus(1);
  spec.with_libraries = spec.with_binaries = spec.with_firmware = false;
  spec.with_device_nodes = false;
  return fixture::FakeHost::build(spec);
}

// Options as the planner gives them: sockets and FIFOs read-only, directories writable.
Action ipc_bind(std::string source, std::string target, std::string access = "rw") {
  return Action{.kind = ActionKind::bind_mount, .plugin = "ipc", .source = std::move(source),
                .target = std::move(target),
                .options = {std::move(access), "nosuid", "nodev", "noexec"}};
}

// connect(2)'s errno on a Unix socket path: ECONNREFUSED means "a socket,
// nobody listening", which is what the fixture's sockets are.
int connect_errno(const std::string& path) {
  int sock = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  std::strncpy(address.sun_path, path.c_str(), sizeof address.sun_path - 1);
  int rc = ::connect(sock, reinterpret_cast<sockaddr*>(&address), sizeof address);
  int err = rc == 0 ? 0 : errno;
  ::close(sock);
  return err;
}

}  // namespace

TEST_CASE("A daemon socket bound read-only, nosuid, nodev and noexec onto an empty file still takes connections",
          "[plugins][mount][ipc]") {
  GRAFT_REQUIRE_MOUNTS();
  auto host = ipc_host();
  MountSandbox sandbox;
  auto plugin = test::load_mechanism_plugin("ipc");
  std::string socket = "/run/nvidia-persistenced/socket";
  REQUIRE(test::run_plugin(*plugin, {ipc_bind(host.path(socket), socket, "ro")}, sandbox.target())
              .ok());
  struct stat st {};
  REQUIRE(::stat(sandbox.path(socket).c_str(), &st) == 0);
  CHECK(S_ISSOCK(st.st_mode));
  CHECK(connect_errno(sandbox.path(socket)) == ECONNREFUSED);
  constexpr unsigned long kFlags = ST_RDONLY | ST_NOSUID | ST_NODEV | ST_NOEXEC;
  CHECK((test::mount_flags(sandbox.path(socket)) & kFlags) == kFlags);
}

TEST_CASE("chmod and chown of a read-only bound socket fail with EROFS and leave the host's socket as it was",
          "[plugins][mount][ipc]") {
  GRAFT_REQUIRE_MOUNTS();
  auto host = ipc_host();
  MountSandbox sandbox;
  auto plugin = test::load_mechanism_plugin("ipc");
  std::string socket = "/run/nvidia-persistenced/socket";
  struct stat before {};
  REQUIRE(::stat(host.path(socket).c_str(), &before) == 0);
  REQUIRE(test::run_plugin(*plugin, {ipc_bind(host.path(socket), socket, "ro")}, sandbox.target())
              .ok());
  CHECK(::chmod(sandbox.path(socket).c_str(), 0777) == -1);
  CHECK(errno == EROFS);
  CHECK(::chown(sandbox.path(socket).c_str(), 4242, 4242) == -1);
  CHECK(errno == EROFS);
  struct stat after {};
  REQUIRE(::stat(host.path(socket).c_str(), &after) == 0);
  CHECK(after.st_mode == before.st_mode);
  CHECK(after.st_uid == before.st_uid);
}

TEST_CASE("The MPS pipe directory is bound as a writable directory shared with the host",
          "[plugins][mount][ipc]") {
  GRAFT_REQUIRE_MOUNTS();
  auto host = ipc_host();
  MountSandbox sandbox;
  auto plugin = test::load_mechanism_plugin("ipc");
  REQUIRE(test::run_plugin(*plugin, {ipc_bind(host.path("tmp/nvidia-mps"), "/tmp/nvidia-mps")},
                           sandbox.target())
              .ok());
  std::ofstream(sandbox.path("/tmp/nvidia-mps/control")) << "hello";
  std::ifstream seen(host.path("tmp/nvidia-mps/control"));
  std::string word;
  seen >> word;
  CHECK(word == "hello");
}

TEST_CASE("An ipc source that is a regular file is refused in prepare, naming it",
          "[plugins][mount][ipc]") {
  GRAFT_REQUIRE_MOUNTS();
  auto host = ipc_host();
  auto plugin = test::load_mechanism_plugin("ipc");
  std::string file = host.path("proc/driver/nvidia/version");
  auto status = plugin->prepare(ipc_bind(file, "/run/x"), 0, ApplyTarget{});
  REQUIRE_FALSE(status.ok());
  CHECK_THAT(status.error().message,
             Catch::Contains("source " + file + " is a regular file, expected a socket"));
}
