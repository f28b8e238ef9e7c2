// SPDX-License-Identifier: Apache-2.0
// A running container (`graft apply --pid`) can change its root while the
// cache writer works. A thread here swaps /etc with a symlink to a volume
// (another mount inside the root, as a bind-mounted host directory is)
// while the plugin writes the cache again and again: /etc must be checked
// and written through one fd, so the cache never lands on the volume.
// The root is a tmpfs in a private mount namespace (MountSandbox), the
// volume a second tmpfs inside it.
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <sys/mount.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <thread>

#include "ldcache_support.hpp"
#include "mount_support.hpp"

using namespace graft;
using namespace graft::ldcache_test;

namespace ldcache_swap_test {

// Exchanges root/etc with root/etc-swap (a symlink to /vol/etc) as fast as
// it can until destroyed, then leaves the real directory at /etc.
class EtcSwapper {
 public:
  explicit EtcSwapper(const std::string& root) : root_fd_(::open(root.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC)) {
    REQUIRE(root_fd_ >= 0);
    thread_ = std::thread([this] {
      while (!stop_) {
        if (::renameat2(root_fd_, "etc", root_fd_, "etc-swap", RENAME_EXCHANGE) == 0) ++swaps_;
      }
    });
  }
  ~EtcSwapper() {
    stop_ = true;
    thread_.join();
    struct stat st {};
    if (::fstatat(root_fd_, "etc", &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode))
      ::renameat2(root_fd_, "etc", root_fd_, "etc-swap", RENAME_EXCHANGE);
    ::close(root_fd_);
  }
  long swaps() const { return swaps_; }

 private:
  int root_fd_;
  std::atomic<bool> stop_{false};
  std::atomic<long> swaps_{0};
  std::thread thread_;
};

}  // namespace ldcache_swap_test

using namespace ldcache_swap_test;

TEST_CASE("A container swapping /etc for a symlink to a volume while the cache is written never gets the cache "
          "on the volume",
          "[plugins][ldcache][ldcache-direct][race]") {
  GRAFT_SKIP_IF(cannot_run());
  GRAFT_REQUIRE_MOUNTS();
  test::MountSandbox sandbox;
  const std::string lib_dir = sandbox.path(FakeHost::lib_dir());
  fs::create_directories(lib_dir);
  copy_file(stub_library(), lib_dir + "/" + kLibFile, 0644);
  make_symlink(kLibFile, lib_dir + "/" + kSoname);
  fs::create_directories(sandbox.path("/etc"));
  fs::create_directories(sandbox.path("/vol"));
  REQUIRE(::mount("volume", sandbox.path("/vol").c_str(), "tmpfs", 0, "mode=0755") == 0);
  fs::create_directories(sandbox.path("/vol/etc"));
  make_symlink("/vol/etc", sandbox.path("/etc-swap"));

  auto plugin = load("{}");
  const Action action = ldcache_action({FakeHost::lib_dir() + "/" + kSoname});
  int applied = 0;
  long swaps = 0;
  {
    EtcSwapper swapper(sandbox.rootfs());
    for (int i = 0; i < 300; ++i) {
      REQUIRE(plugin->prepare(action, 7, ApplyTarget{.container_id = "c-swap"}).ok());
      applied += plugin->apply(action, 7, sandbox.target()).ok() ? 1 : 0;
      REQUIRE_FALSE(fs::exists(sandbox.path("/vol/etc/ld.so.cache")));
    }
    swaps = swapper.swaps();
  }
  INFO(applied << " of 300 writes applied (the rest refused), " << swaps << " swaps");
  CHECK(swaps > 300);
  CHECK_FALSE(fs::exists(sandbox.path("/vol/etc/ld.so.cache")));
  std::error_code ignored;
  for (const auto& entry : fs::directory_iterator(sandbox.path("/vol/etc"), ignored))
    FAIL("the volume got " << entry.path());
}
