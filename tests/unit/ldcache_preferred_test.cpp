// SPDX-License-Identifier: Apache-2.0
// The ldcache plugin and an image directory whose libraries must win
// (forward compatibility, docs/policy.md "[forward_compat]"): an expected
// entry outside the action's library directories, listed first, is the
// entry the loader finds first for its soname, with either method. The
// directory's library is the image's own; nothing is mounted.
#include <algorithm>

#include <catch2/catch.hpp>

#include "graft/base/ldcache_write.hpp"
#include "ldcache_support.hpp"
#include "skip.hpp"

using namespace graft;
using namespace graft::ldcache_test;

namespace {

const std::string kCompatDir = "/usr/local/cuda/compat";

// The root with the injected soname link, and the image's compat directory
// holding its own copy of libcuda (the fixture's ELF, renamed) and its link.
struct CompatRootfs : Rootfs {
  CompatRootfs() {
    make_symlink(kLibFile, lib_dir() + "/" + kSoname);
    copy_file(stub_library(), path(kCompatDir + "/libcuda.so.575.57.08"), 0644);
    make_symlink("libcuda.so.575.57.08", path(kCompatDir + "/" + kSoname));
  }
};

Action preferring_compat() {
  return ldcache_action({kCompatDir + "/" + kSoname, FakeHost::lib_dir() + "/" + kSoname});
}

}  // namespace

TEST_CASE("Written directly, an image directory's entry listed first is the one the loader finds first",
          "[plugins][ldcache][ldcache-preferred]") {
  GRAFT_SKIP_IF(cannot_run());
  CompatRootfs rootfs;
  auto plugin = load("{}");
  auto applied = prepare_and_apply(*plugin, rootfs, 0, preferring_compat());
  INFO((applied.ok() ? std::string() : applied.error().message));
  REQUIRE(applied.ok());
  CHECK(cached_path(rootfs.path("etc/ld.so.cache"), kSoname) == kCompatDir + "/" + kSoname);
  auto entries = read_ldcache_file(rootfs.path("etc/ld.so.cache"));
  REQUIRE(entries.ok());
  CHECK(std::count_if(entries->begin(), entries->end(),
                      [](const LdCacheEntry& e) { return e.key == kSoname; }) == 2);
}

TEST_CASE("With ldconfig, an image directory's entry listed first is scanned first and found first",
          "[plugins][ldcache][ldcache-preferred]") {
  GRAFT_SKIP_IF(cannot_run());
  GRAFT_SKIP_IF(no_static_ldconfig());
  CompatRootfs rootfs;
  auto plugin = load();
  auto applied = prepare_and_apply(*plugin, rootfs, 0, preferring_compat());
  INFO((applied.ok() ? std::string() : applied.error().message));
  REQUIRE(applied.ok());
  CHECK(cached_path(rootfs.path("etc/ld.so.cache"), kSoname) == kCompatDir + "/" + kSoname);
}
