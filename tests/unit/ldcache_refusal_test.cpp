// SPDX-License-Identifier: Apache-2.0
// The ldcache plugin's refusals and failures: host ldconfig binaries it must
// not run (dynamic, writable by others, not root's, symlinked, a script),
// an /etc leading out of the root, bad config, an ldconfig that hangs or
// fails, and a cache that lacks what the plan expects. Needs root; skipped
// otherwise.
#include <catch2/catch.hpp>

#include <sys/sysmacros.h>

#include <cerrno>

#include "ldcache_support.hpp"

using namespace graft;
using namespace graft::ldcache_test;

TEST_CASE("An /etc that is a symlink leading out of the container root is refused",
          "[plugins][ldcache]") {
  GRAFT_SKIP_IF(no_static_ldconfig());
  TempDir host_etc("graft-ldcache-host-etc-");
  Rootfs rootfs(/*with_etc=*/false);
  make_symlink(host_etc.path(), rootfs.path("etc"));
  auto plugin = load();
  auto applied = prepare_and_apply(*plugin, rootfs);
  REQUIRE_FALSE(applied.ok());
  CHECK_THAT(applied.error().message,
             Catch::Contains("creating /etc in " + rootfs.dir.path()) &&
                 Catch::Contains("does not resolve inside the root"));
  CHECK(fs::is_empty(host_etc.path()));
}

TEST_CASE("A dynamically linked ldconfig is refused because it would load the image's ld.so",
          "[plugins][ldcache]") {
  GRAFT_SKIP_IF(cannot_run());
  auto plugin = load(json_config("/bin/true"));
  Rootfs rootfs;
  auto applied = prepare_and_apply(*plugin, rootfs);
  REQUIRE_FALSE(applied.ok());
  CHECK_THAT(applied.error().message,
             Catch::Contains("ldcache_update /etc/ld.so.cache: ldconfig: /bin/true: dynamically "
                             "linked") &&
                 Catch::Contains("a static ldconfig is required"));
}

TEST_CASE("An ldconfig that someone other than root could have changed is refused",
          "[plugins][ldcache]") {
  GRAFT_SKIP_IF(no_static_ldconfig());
  TempDir bin("graft-ldcache-bin-");
  std::string copy = bin.path() + "/ldconfig";
  copy_file(kHostLdconfig, copy, 0755);
  Rootfs rootfs;
  SECTION("group-writable") {
    REQUIRE(::chmod(copy.c_str(), 0775) == 0);
    auto applied = prepare_and_apply(*load(json_config(copy)), rootfs);
    REQUIRE_FALSE(applied.ok());
    CHECK_THAT(applied.error().message,
               Catch::EndsWith(copy + ": writable by group or others (mode 0775)"));
  }
  SECTION("owned by another user") {
    REQUIRE(::chown(copy.c_str(), 1000, 0) == 0);
    auto applied = prepare_and_apply(*load(json_config(copy)), rootfs);
    REQUIRE_FALSE(applied.ok());
    CHECK_THAT(applied.error().message, Catch::EndsWith(copy + ": owned by uid 1000, not root"));
  }
  SECTION("a symlink") {
    make_symlink(kHostLdconfig, bin.path() + "/link");
    auto applied = prepare_and_apply(*load(json_config(bin.path() + "/link")), rootfs);
    REQUIRE_FALSE(applied.ok());
    CHECK(applied.error().code == ELOOP);  // O_NOFOLLOW refused the link
  }
  SECTION("a script") {
    write_file(copy, "#!/bin/sh\nexit 0\n", 0755);
    auto applied = prepare_and_apply(*load(json_config(copy)), rootfs);
    REQUIRE_FALSE(applied.ok());
    CHECK_THAT(applied.error().message,
               Catch::EndsWith(copy + ": not an ELF executable (a script would run an "
                                      "interpreter from the container image)"));
  }
  CHECK_FALSE(fs::exists(rootfs.path("etc/ld.so.cache")));
}

TEST_CASE("A hung ldconfig is killed at the timeout", "[plugins][ldcache]") {
  GRAFT_SKIP_IF(no_probes());
  TempDir bin("graft-ldcache-bin-");
  write_probe(bin.path() + "/hang", kHangProbe);
  Rootfs rootfs;
  auto plugin = load(json_config(bin.path() + "/hang", 300));
  auto started = std::chrono::steady_clock::now();
  auto applied = prepare_and_apply(*plugin, rootfs);
  auto took = std::chrono::steady_clock::now() - started;
  REQUIRE_FALSE(applied.ok());
  CHECK_THAT(applied.error().message,
             Catch::EndsWith("ldconfig in container root " + rootfs.dir.path() +
                             " did not finish within 300 ms and was killed: no error output"));
  CHECK(took < std::chrono::seconds(5));
}

TEST_CASE("A failing ldconfig is reported with the root, its exit status and its first stderr line",
          "[plugins][ldcache]") {
  GRAFT_SKIP_IF(no_probes());
  TempDir bin("graft-ldcache-bin-");
  write_probe(bin.path() + "/fail", kFailProbe);
  Rootfs rootfs;
  auto applied = prepare_and_apply(*load(json_config(bin.path() + "/fail")), rootfs);
  REQUIRE_FALSE(applied.ok());
  CHECK_THAT(applied.error().message,
             Catch::EndsWith("ldcache_update /etc/ld.so.cache: ldconfig in container root " +
                             rootfs.dir.path() + " exited with status 3: cannot frobnicate"));
}

TEST_CASE("A cache that ldconfig wrote without an entry the plan expects is refused, naming the entry",
          "[plugins][ldcache]") {
  GRAFT_SKIP_IF(no_static_ldconfig());
  Rootfs rootfs;
  const std::string missing = FakeHost::lib_dir() + "/libnvidia-ml.so.1";
  auto applied = prepare_and_apply(
      *load(), rootfs, 0, ldcache_action({FakeHost::lib_dir() + "/" + kSoname, missing}));
  REQUIRE_FALSE(applied.ok());
  CHECK_THAT(applied.error().message,
             Catch::EndsWith("ldconfig left " + missing + " out of /etc/ld.so.cache in " +
                             rootfs.dir.path() +
                             " (did the image change the directory while it ran?)"));
}

TEST_CASE("An expected soname link that is gone once ldconfig has run is refused",
          "[plugins][ldcache]") {
  GRAFT_SKIP_IF(no_static_ldconfig());
  GRAFT_SKIP_IF(no_probes());
  const std::string link = FakeHost::lib_dir() + "/" + kSoname;
  Rootfs rootfs;
  // A real run leaves a cache listing the link; then the link goes, and an
  // ldconfig that writes nothing runs: the cache still lists it.
  REQUIRE(prepare_and_apply(*load(), rootfs).ok());
  REQUIRE(cached_path(rootfs.path("etc/ld.so.cache"), kSoname) == link);
  REQUIRE(::unlink(rootfs.path(link).c_str()) == 0);
  TempDir bin("graft-ldcache-bin-");
  write_probe(bin.path() + "/noop", kNoopProbe);
  auto applied = prepare_and_apply(*load(json_config(bin.path() + "/noop")), rootfs, 0,
                                   ldcache_action({link}));
  REQUIRE_FALSE(applied.ok());
  CHECK_THAT(applied.error().message,
             Catch::EndsWith(link + " in " + rootfs.dir.path() +
                             " after ldconfig ran: No such file or directory"));
}

TEST_CASE("A cache path that is a FIFO or a device node once ldconfig has run is refused without "
          "being opened",
          "[plugins][ldcache]") {
  GRAFT_SKIP_IF(no_probes());
  Rootfs rootfs;
  const std::string cache = rootfs.path("etc/ld.so.cache");
  // Opening a FIFO for reading would block until a writer comes, and
  // opening some devices has effects: neither may happen.
  SECTION("a FIFO") { REQUIRE(::mkfifo(cache.c_str(), 0644) == 0); }
  SECTION("a device node") { REQUIRE(::mknod(cache.c_str(), S_IFCHR | 0644, ::makedev(1, 3)) == 0); }
  TempDir bin("graft-ldcache-bin-");
  write_probe(bin.path() + "/noop", kNoopProbe);
  auto applied = prepare_and_apply(*load(json_config(bin.path() + "/noop")), rootfs, 0,
                                   ldcache_action({FakeHost::lib_dir() + "/" + kSoname}));
  REQUIRE_FALSE(applied.ok());
  CHECK_THAT(applied.error().message,
             Catch::EndsWith("/etc/ld.so.cache in " + rootfs.dir.path() +
                             " after ldconfig ran: does not lead to a regular file"));
}

TEST_CASE("An expected cache entry that is not a plain absolute path is refused before ldconfig runs",
          "[plugins][ldcache]") {
  GRAFT_SKIP_IF(no_static_ldconfig());
  Rootfs rootfs;
  auto applied = prepare_and_apply(*load(), rootfs, 0, ldcache_action({"/usr/lib/../../x.so.1"}));
  REQUIRE_FALSE(applied.ok());
  CHECK_THAT(applied.error().message,
             Catch::EndsWith("expected cache entry '/usr/lib/../../x.so.1' is not a plain "
                             "absolute container path"));
  CHECK_FALSE(fs::exists(rootfs.path("etc/ld.so.cache")));
}

TEST_CASE("The ldcache plugin refuses unknown config keys and out-of-range timeouts",
          "[plugins][ldcache]") {
  auto unknown = load_plugin(GRAFT_BUILD_PLUGIN_DIR, "ldcache", R"({"ldconfg": "/sbin/ldconfig"})");
  REQUIRE_FALSE(unknown.ok());
  CHECK_THAT(unknown.error().message, Catch::Contains("unknown key \"ldconfg\""));
  auto zero = load_plugin(GRAFT_BUILD_PLUGIN_DIR, "ldcache", R"({"timeout_ms": 0})");
  REQUIRE_FALSE(zero.ok());
  CHECK_THAT(zero.error().message, Catch::Contains("\"timeout_ms\" must be an integer"));
  auto relative = load_plugin(GRAFT_BUILD_PLUGIN_DIR, "ldcache", R"({"ldconfig": "ldconfig"})");
  REQUIRE_FALSE(relative.ok());
  CHECK_THAT(relative.error().message, Catch::Contains("must be an absolute host path"));
}
