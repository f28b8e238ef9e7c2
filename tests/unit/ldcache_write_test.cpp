// SPDX-License-Identifier: Apache-2.0
// Writing ld.so.cache without ldconfig (graft/base/ldcache_write.hpp): the
// order ldconfig stores entries in, and files the reader reads back whole.
// Equivalence with ldconfig itself is ldcache_equivalence_test.cpp.
#include <catch2/catch.hpp>

#include "graft/base/ldcache.hpp"
#include "graft/base/ldcache_write.hpp"

using namespace graft;

namespace {

LdCacheEntry entry(std::string key, std::string value, std::int32_t flags = 0x0303) {
  return LdCacheEntry{flags, std::move(key), std::move(value)};
}

std::vector<std::string> keys(const std::vector<LdCacheEntry>& entries) {
  std::vector<std::string> out;
  for (const auto& e : entries) out.push_back(e.key + " " + e.value);
  return out;
}

}  // namespace

TEST_CASE("library names compare with their numbers as numbers", "[ldcache-write]") {
  CHECK(ldcache_libcmp("libx.so.10", "libx.so.9") > 0);
  CHECK(ldcache_libcmp("libx.so.2", "libx.so.10") < 0);
  CHECK(ldcache_libcmp("libx.so.1", "libx.so.1") == 0);
  CHECK(ldcache_libcmp("libx.so.1", "libx.so") > 0);
  CHECK(ldcache_libcmp("libx.so", "libx.so.1") < 0);
  CHECK(ldcache_libcmp("libx1.so", "libxa.so") > 0);  // a digit sorts after any other character
  CHECK(ldcache_libcmp("liba.so", "libb.so") < 0);
}

TEST_CASE("entries are stored as ldconfig stores them: names descending, then flags descending",
          "[ldcache-write]") {
  std::vector<LdCacheEntry> entries{entry("liba.so.1", "/l/liba.so.1"), entry("libz.so.1", "/l/libz.so.1"),
                                    entry("libz.so.1", "/l32/libz.so.1", 0x0003),
                                    entry("libm.so.6", "/l/libm.so.6")};
  sort_ldcache_entries(entries);
  CHECK(keys(entries) == std::vector<std::string>{"libz.so.1 /l/libz.so.1", "libz.so.1 /l32/libz.so.1",
                                                  "libm.so.6 /l/libm.so.6", "liba.so.1 /l/liba.so.1"});
}

TEST_CASE("equal entries keep the order they were found in, as ldconfig's list does", "[ldcache-write]") {
  std::vector<LdCacheEntry> entries{entry("libcuda.so.1", "/usr/lib/libcuda.so.1"),
                                    entry("libcuda.so.1", "/usr/local/cuda/compat/libcuda.so.1")};
  sort_ldcache_entries(entries);
  CHECK(entries[0].value == "/usr/lib/libcuda.so.1");
  std::swap(entries[0], entries[1]);
  sort_ldcache_entries(entries);
  CHECK(entries[0].value == "/usr/local/cuda/compat/libcuda.so.1");
}

TEST_CASE("glibc-hwcaps entries come before the plain entry of the same name, by subdirectory",
          "[ldcache-write]") {
  LdCacheEntry v3 = entry("libz.so.1", "/l/glibc-hwcaps/x86-64-v3/libz.so.1");
  v3.hwcaps_subdir = "x86-64-v3";
  LdCacheEntry v2 = entry("libz.so.1", "/l/glibc-hwcaps/x86-64-v2/libz.so.1");
  v2.hwcaps_subdir = "x86-64-v2";
  std::vector<LdCacheEntry> entries{entry("libz.so.1", "/l/libz.so.1"), v3, v2};
  sort_ldcache_entries(entries);
  CHECK(entries[0].hwcaps_subdir == "x86-64-v2");
  CHECK(entries[1].hwcaps_subdir == "x86-64-v3");
  CHECK(entries[2].hwcaps_subdir.empty());
}

TEST_CASE("a written cache reads back as the entries it was written from", "[ldcache-write]") {
  LdCacheEntry hwcaps = entry("libz.so.1", "/l/glibc-hwcaps/x86-64-v3/libz.so.1");
  hwcaps.hwcaps_subdir = "x86-64-v3";
  hwcaps.hwcap = (1ULL << 62) | (3ULL << 32) | 7;  // the index the old file gave it is renumbered
  LdCacheEntry os = entry("libold.so.2", "/l/libold.so.2");
  os.osversion = 0x00030200;
  std::vector<LdCacheEntry> entries{hwcaps, entry("libz.so.1", "/l/libz.so.1"), os,
                                    entry("libz.so.1", "/l32/libz.so.1", 0x0003)};
  sort_ldcache_entries(entries);
  auto read = parse_ldcache(render_ldcache(entries, "graft test"), "written");
  REQUIRE(read);
  REQUIRE(read->size() == entries.size());
  for (std::size_t i = 0; i < entries.size(); ++i) {
    INFO(i);
    CHECK((*read)[i].key == entries[i].key);
    CHECK((*read)[i].value == entries[i].value);
    CHECK((*read)[i].flags == entries[i].flags);
    CHECK((*read)[i].osversion == entries[i].osversion);
    CHECK((*read)[i].hwcaps_subdir == entries[i].hwcaps_subdir);
  }
  CHECK((*read)[0].hwcap == ((1ULL << 62) | (3ULL << 32) | 0));  // ISA level kept, index 0 of one name
}

TEST_CASE("an empty cache is a valid file with no entries", "[ldcache-write]") {
  auto read = parse_ldcache(render_ldcache({}, "graft test"), "empty");
  REQUIRE(read);
  CHECK(read->empty());
}

TEST_CASE("injected libraries come first among equal names and replace their own old entries",
          "[ldcache-write]") {
  std::vector<LdCacheEntry> existing{entry("libcuda.so.1", "/usr/local/cuda/compat/libcuda.so.1"),
                                     entry("libcuda.so.1", "/usr/lib/x86_64-linux-gnu/libcuda.so.1"),
                                     entry("libc.so.6", "/usr/lib/x86_64-linux-gnu/libc.so.6")};
  auto merged = merge_ldcache_entries({entry("libcuda.so.1", "/usr/lib/x86_64-linux-gnu/libcuda.so.1"),
                                       entry("libnvidia-ml.so.1", "/usr/lib/x86_64-linux-gnu/libnvidia-ml.so.1")},
                                      existing);
  CHECK(keys(merged) == std::vector<std::string>{
                            "libnvidia-ml.so.1 /usr/lib/x86_64-linux-gnu/libnvidia-ml.so.1",
                            "libcuda.so.1 /usr/lib/x86_64-linux-gnu/libcuda.so.1",
                            "libcuda.so.1 /usr/local/cuda/compat/libcuda.so.1",
                            "libc.so.6 /usr/lib/x86_64-linux-gnu/libc.so.6"});
}

TEST_CASE("native and 32-bit libraries get the flags ldconfig gives them here", "[ldcache-write]") {
  CHECK((ldcache_flags_for(LdCacheAbi::native) & 0x00ff) == 0x0003);  // glibc's FLAG_ELF_LIBC6
  CHECK(ldcache_abi(ldcache_flags_for(LdCacheAbi::native)) == LdCacheAbi::native);
  CHECK(ldcache_abi(ldcache_flags_for(LdCacheAbi::compat32)) == LdCacheAbi::compat32);
}
