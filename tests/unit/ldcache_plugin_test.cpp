// SPDX-License-Identifier: Apache-2.0
// The ldcache plugin, loaded from the build tree and driven through
// LoadedPlugin::prepare/apply against container roots built here. Needs root
// (chroot, a mount namespace, capabilities to drop); skipped otherwise. The
// confinement itself is checked by tiny static x86-64 probes written byte by
// byte below, standing in for ldconfig.
#include <catch2/catch.hpp>

#include "ldcache_support.hpp"
#include "skip.hpp"

using namespace graft;
using namespace graft::ldcache_test;

TEST_CASE("The ldcache plugin writes a container ld.so.cache that lists the injected library",
          "[plugins][ldcache]") {
  GRAFT_SKIP_IF(no_static_ldconfig());
  Rootfs rootfs;
  auto plugin = load();
  // The plan's expectation holds, so the check after ldconfig passes.
  auto applied = prepare_and_apply(*plugin, rootfs, 0,
                                   ldcache_action({FakeHost::lib_dir() + "/" + kSoname}));
  REQUIRE(applied.ok());
  CHECK(cached_path(rootfs.path("etc/ld.so.cache"), kSoname) ==
        FakeHost::lib_dir() + "/" + kSoname);
  // ldconfig made the soname link the cache points at, inside the root.
  CHECK(fs::read_symlink(rootfs.lib_dir() + "/" + kSoname) == kLibFile);
  // And the host's own `ldconfig -p` reads the file as a valid cache.
  auto listing = testing::run_command(
      {kHostLdconfig, "-p", "-C", rootfs.path("etc/ld.so.cache")});
  CHECK(listing.exit_code == 0);
  CHECK_THAT(listing.out, Catch::Contains(std::string(kSoname) + " (libc6,") &&
                              Catch::Contains(FakeHost::lib_dir() + "/" + kSoname));
}

TEST_CASE("ldconfig never sees what lies under the root's /proc and /sys (masked)",
          "[plugins][ldcache]") {
  GRAFT_SKIP_IF(no_static_ldconfig());
  Rootfs rootfs;
  copy_file(stub_library(), rootfs.path("proc/lib/libcuda.so.2"), 0644);
  copy_file(stub_library(), rootfs.path("sys/lib/libcuda.so.3"), 0644);
  write_file(rootfs.path("etc/ld.so.conf"), "/proc/lib\n/sys/lib\n");
  auto plugin = load();
  REQUIRE(prepare_and_apply(*plugin, rootfs).ok());
  auto entries = read_ldcache_file(rootfs.path("etc/ld.so.cache"));
  REQUIRE(entries.ok());
  for (const auto& entry : *entries) {
    CHECK_THAT(entry.value, !Catch::StartsWith("/proc/") && !Catch::StartsWith("/sys/"));
  }
  CHECK(cached_path(rootfs.path("etc/ld.so.cache"), kSoname) != "");
  // The masks lived in the child's own mount namespace: nothing is left here.
  CHECK(fs::exists(rootfs.path("proc/lib/libcuda.so.2")));
}

TEST_CASE("The ldcache plugin creates a missing /etc inside the container root",
          "[plugins][ldcache]") {
  GRAFT_SKIP_IF(no_static_ldconfig());
  Rootfs rootfs(/*with_etc=*/false);
  auto plugin = load();
  REQUIRE(prepare_and_apply(*plugin, rootfs).ok());
  struct stat st {};
  REQUIRE(::lstat(rootfs.path("etc").c_str(), &st) == 0);
  CHECK(S_ISDIR(st.st_mode));
  CHECK(cached_path(rootfs.path("etc/ld.so.cache"), kSoname) != "");
}

TEST_CASE("A rootless container's cache is written as the rootfs owner, /etc created for it",
          "[plugins][ldcache]") {
  GRAFT_SKIP_IF(no_static_ldconfig());
  Rootfs rootfs(/*with_etc=*/false);
  for (const auto& entry : fs::recursive_directory_iterator(rootfs.dir.path()))
    REQUIRE(::lchown(entry.path().c_str(), 1000, 1000) == 0);
  REQUIRE(::chown(rootfs.dir.path().c_str(), 1000, 1000) == 0);
  auto plugin = load();
  auto applied = prepare_and_apply(*plugin, rootfs, /*uid=*/1000);
  REQUIRE(applied.ok());
  struct stat etc {}, cache {};
  REQUIRE(::lstat(rootfs.path("etc").c_str(), &etc) == 0);
  REQUIRE(::lstat(rootfs.path("etc/ld.so.cache").c_str(), &cache) == 0);
  CHECK(etc.st_uid == 1000);
  CHECK(cache.st_uid == 1000);
  CHECK(cached_path(rootfs.path("etc/ld.so.cache"), kSoname) != "");
}

TEST_CASE("A cache file that is a symlink out of the root is replaced inside it, not followed",
          "[plugins][ldcache]") {
  GRAFT_SKIP_IF(no_static_ldconfig());
  TempDir host_dir("graft-ldcache-host-");
  write_file(host_dir.path() + "/ld.so.cache", "host file\n");
  Rootfs rootfs;
  make_symlink(host_dir.path() + "/ld.so.cache", rootfs.path("etc/ld.so.cache"));
  auto plugin = load();
  REQUIRE(prepare_and_apply(*plugin, rootfs).ok());
  CHECK_FALSE(fs::is_symlink(rootfs.path("etc/ld.so.cache")));
  CHECK(cached_path(rootfs.path("etc/ld.so.cache"), kSoname) != "");
  std::ifstream host_file(host_dir.path() + "/ld.so.cache");
  std::string line;
  std::getline(host_file, line);
  CHECK(line == "host file");
  CHECK(fs::directory_iterator(host_dir.path())->path().filename() == "ld.so.cache");
}

TEST_CASE("The image's own /sbin/ldconfig is never executed", "[plugins][ldcache]") {
  GRAFT_SKIP_IF(no_static_ldconfig());
  if (::access("/bin/busybox", X_OK) != 0 || ::access("/usr/sbin/chroot", X_OK) != 0) {
    GRAFT_SKIP("needs /bin/busybox (static) and /usr/sbin/chroot");
  }
  // The image: a working /bin/sh (static busybox) and an ldconfig script
  // that leaves a marker wherever it runs.
  Rootfs rootfs;
  copy_file("/bin/busybox", rootfs.path("bin/sh"));
  write_file(rootfs.path("sbin/ldconfig"), "#!/bin/sh\necho ran > /marker\n", 0755);
  // The trap works: run the way a careless runtime would, it springs.
  REQUIRE(testing::run_command({"/usr/sbin/chroot", rootfs.dir.path(), "/sbin/ldconfig"})
              .exit_code == 0);
  REQUIRE(fs::exists(rootfs.path("marker")));
  fs::remove(rootfs.path("marker"));

  auto plugin = load();
  REQUIRE(prepare_and_apply(*plugin, rootfs).ok());
  CHECK_FALSE(fs::exists(rootfs.path("marker")));
  CHECK(cached_path(rootfs.path("etc/ld.so.cache"), kSoname) != "");
}

TEST_CASE("The confined child gets no environment, no capabilities, no_new_privs and no fds, "
          "even with LD_PRELOAD and friends set in graft's environment",
          "[plugins][ldcache]") {
  GRAFT_SKIP_IF(no_probes());
  TempDir bin("graft-ldcache-bin-");
  write_probe(bin.path() + "/audit", kAuditProbe);
  ScopedEnv env({{"LD_PRELOAD", "/marker.so"}, {"LD_LIBRARY_PATH", "/tmp"},
                 {"LD_AUDIT", "/marker.so"}, {"GCONV_PATH", "/tmp"}, {"PATH", "/tmp"}});
  // An fd graft holds without O_CLOEXEC must not reach the child either.
  int leaked = ::open("/", O_RDONLY | O_DIRECTORY);
  REQUIRE(leaked >= 0);
  Rootfs rootfs;
  auto plugin = load(json_config(bin.path() + "/audit"));
  auto applied = prepare_and_apply(*plugin, rootfs);
  ::close(leaked);
  // Bits of a failure's exit status: 1 env, 2 caps, 4 bounding set,
  // 8 no_new_privs unset, 16 an open fd.
  if (!applied.ok()) FAIL(applied.error().message);
}

TEST_CASE("The running ldconfig's /proc/<pid>/exe cannot be written (a sealed memfd copy)",
          "[plugins][ldcache]") {
  GRAFT_SKIP_IF(no_probes());
  TempDir bin("graft-ldcache-bin-");
  write_probe(bin.path() + "/hang", kHangProbe);
  Rootfs rootfs;
  auto plugin = load(json_config(bin.path() + "/hang", 1500));
  // While apply waits on the child, find it and try to write its executable.
  std::atomic<int> found{0}, wrote{0};
  std::string exe_link;
  std::thread intruder([&] {
    auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(1200);
    while (found == 0 && std::chrono::steady_clock::now() < until) {
      for (const auto& entry : fs::directory_iterator("/proc")) {
        std::error_code error;
        auto link = fs::read_symlink(entry.path() / "exe", error);
        if (error || link.string().rfind("/memfd:ldconfig", 0) != 0) continue;
        exe_link = link.string();
        found = 1;
        int fd = ::open((entry.path() / "exe").c_str(), O_WRONLY);
        if (fd >= 0) {
          wrote = ::write(fd, "x", 1) == 1 ? 1 : 0;
          ::close(fd);
        }
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  });
  auto applied = prepare_and_apply(*plugin, rootfs);
  intruder.join();
  CHECK_FALSE(applied.ok());
  REQUIRE(found == 1);
  CHECK_THAT(exe_link, Catch::StartsWith("/memfd:ldconfig"));
  CHECK(wrote == 0);
}
