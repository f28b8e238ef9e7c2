// SPDX-License-Identifier: Apache-2.0
// Host paths under [host] driver_root (a driver container's
// /run/nvidia/driver) are resolved inside that root: an absolute symlink
// there names the driver root's file, never the host's. Discovery
// (paths/root_links.hpp) and the libraries plugin's prepare
// (graft_apply_context.source_root_fd, ABI 1.2) both open them with
// openat2(RESOLVE_IN_ROOT) from an fd of the driver root.
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "library_host.hpp"
#include "fake_host.hpp"
#include "fixture_files.hpp"
#include "inventory/inventory.hpp"
#include "mount_support.hpp"
#include "site_policy.hpp"
#include "temp_dir.hpp"
#include "skip.hpp"

using namespace graft;
using namespace graft::fixture;
using graft::testing::kCuda;
namespace fs = std::filesystem;

namespace {


// Moves `dir` of the driver root to `elsewhere` inside it and leaves an
// absolute symlink `dir` -> `elsewhere`, as driver containers ship
// (/usr/lib/x86_64-linux-gnu -> /usr/lib64 and the like). Resolved against
// the host's "/", the link means the host's `elsewhere`.
void relink_absolute(const FakeHost& host, const std::string& dir, const std::string& elsewhere) {
  fs::create_directories(fs::path(host.path(elsewhere)).parent_path());
  fs::rename(host.path(dir), host.path(elsewhere));
  fs::create_symlink(elsewhere, host.path(dir));
}

}  // namespace

TEST_CASE("Discovery finds a binary behind an absolute symlink inside the driver root",
          "[inventory][driver-root]") {
  const std::string elsewhere = "/graft-test-driver-only/bin";
  if (fs::exists("/graft-test-driver-only")) {
    GRAFT_SKIP("the host has /graft-test-driver-only");
  }
  FakeHostSpec spec = FakeHostSpec::with_gpus(1);
  auto host = FakeHost::build(spec);
  relink_absolute(host, "/usr/bin", elsewhere);
  auto policy = load_policy(write_site_policy(host), PolicySearch{{fixture::source_policy_dir()}});
  REQUIRE(policy.ok());
  auto inventory = discover_inventory(*policy);
  REQUIRE(inventory.ok());
  REQUIRE(inventory->binaries.contains("nvidia-smi"));
  CHECK(inventory->binaries.at("nvidia-smi").host_path == host.path(elsewhere + "/nvidia-smi"));
}

TEST_CASE("The libraries plugin binds the driver root's file, not the host file an absolute "
          "symlink names",
          "[plugins][mount][libraries][driver-root]") {
  GRAFT_REQUIRE_MOUNTS();
  auto spec = FakeHostSpec::with_gpus(1);
  spec.with_device_nodes = spec.with_binaries = spec.with_firmware = false;
  auto host = FakeHost::build(spec);
  // The decoy: a host directory holding a different file of the same name.
  TempDir decoy("graft-decoy-");
  std::string decoy_dir = decoy.path() + "/lib";
  fs::create_directories(decoy_dir);
  write_file(decoy_dir + "/" + kCuda, "decoy, the host's own file\n");
  relink_absolute(host, FakeHost::lib_dir(), decoy_dir);
  std::string real = test::read_all(host.path(decoy_dir + "/" + kCuda));
  REQUIRE_FALSE(real.empty());

  test::MountSandbox sandbox;
  int driver_root = ::open(host.root().c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC);
  REQUIRE(driver_root >= 0);
  auto target = sandbox.target();
  target.source_root_fd = driver_root;
  target.source_root = host.root();
  std::string lib = FakeHost::lib_dir() + "/" + kCuda;
  Action bind{.kind = ActionKind::bind_mount, .plugin = "libraries", .source = host.path(lib),
              .target = lib, .options = {"ro", "nosuid", "nodev"}};
  auto plugin = test::load_mechanism_plugin("libraries");
  auto status = test::run_plugin(*plugin, {bind}, target);
  ::close(driver_root);
  REQUIRE(status.ok());
  CHECK(test::read_all(sandbox.path(lib)) == real);
}
