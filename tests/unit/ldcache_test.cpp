// SPDX-License-Identifier: Apache-2.0
// ld.so.cache parsing: real caches written by the system ldconfig, caches
// built byte by byte here (old, new, combined layouts), and damaged ones.
#include "graft/base/ldcache.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <sstream>

#include "fake_host.hpp"
#include "fixture_files.hpp"
#include "graft/base/unique_fd.hpp"
#include "ldcache_file.hpp"
#include "temp_dir.hpp"
#include "skip.hpp"

using namespace graft;
using namespace graft::fixture;

namespace {

struct RawEntry {
  std::int32_t flags;
  std::string key;
  std::string value;
};

constexpr std::int32_t kX8664Libc6 = 0x0303;
constexpr std::int32_t kI386Libc6 = 0x0003;

// glibc's FLAG_ELF_LIBC6 in an entry's type byte: an ELF library linked
// against libc.so.6, what ldconfig writes for every library it lists here.
bool has_libc6_type(std::int32_t flags) { return (flags & 0x00ff) == 0x0003; }

void append_u32(std::string& out, std::uint32_t value) {
  out.append(reinterpret_cast<const char*>(&value), sizeof value);
}

void put_u32(std::string& bytes, std::size_t pos, std::uint32_t value) {
  std::memcpy(bytes.data() + pos, &value, sizeof value);
}

// Strings laid end to end; offsets[i] is where string i starts.
struct StringTable {
  std::string bytes;
  std::vector<std::uint32_t> offsets;
};

StringTable string_table(const std::vector<RawEntry>& entries) {
  StringTable table;
  for (const auto& entry : entries) {
    for (const auto* text : {&entry.key, &entry.value}) {
      table.offsets.push_back(static_cast<std::uint32_t>(table.bytes.size()));
      table.bytes += *text;
      table.bytes += '\0';
    }
  }
  return table;
}

// A new-format cache section; string offsets count from its first byte.
std::string new_section(const std::vector<RawEntry>& entries) {
  StringTable strings = string_table(entries);
  std::uint32_t strings_start = static_cast<std::uint32_t>(48 + 24 * entries.size());
  std::string out = "glibc-ld.so.cache1.1";
  append_u32(out, static_cast<std::uint32_t>(entries.size()));
  append_u32(out, static_cast<std::uint32_t>(strings.bytes.size()));
  out += std::string(1, '\x02') + std::string(3, '\0');  // little-endian flag, padding
  out += std::string(16, '\0');                          // no extensions, unused
  for (std::size_t i = 0; i < entries.size(); ++i) {
    append_u32(out, static_cast<std::uint32_t>(entries[i].flags));
    append_u32(out, strings_start + strings.offsets[2 * i]);
    append_u32(out, strings_start + strings.offsets[2 * i + 1]);
    append_u32(out, 0);           // osversion
    out += std::string(8, '\0');  // hwcap
  }
  return out + strings.bytes;
}

std::string old_header(std::size_t nlibs) {
  std::string out("ld.so-1.7.0\0", 12);
  append_u32(out, static_cast<std::uint32_t>(nlibs));
  return out;
}

// Old-format only: string offsets count from the end of the entries.
std::string old_cache(const std::vector<RawEntry>& entries) {
  StringTable strings = string_table(entries);
  std::string out = old_header(entries.size());
  for (std::size_t i = 0; i < entries.size(); ++i) {
    append_u32(out, static_cast<std::uint32_t>(entries[i].flags));
    append_u32(out, strings.offsets[2 * i]);
    append_u32(out, strings.offsets[2 * i + 1]);
  }
  return out + strings.bytes;
}

// Old entries, padding to 8 bytes, then a new section, as glibc < 2.32 wrote.
// The old entries point into the new section's strings, as they do there.
std::string combined_cache(const std::vector<RawEntry>& old_entries,
                           const std::vector<RawEntry>& new_entries) {
  std::string out = old_header(old_entries.size());
  std::size_t old_end = out.size() + 12 * old_entries.size();
  std::size_t pad = (8 - old_end % 8) % 8;
  std::string section = new_section(new_entries);
  for (std::size_t i = 0; i < old_entries.size(); ++i) {
    std::uint32_t key = 0, value = 0;
    std::memcpy(&key, section.data() + 48 + 24 * i + 4, 4);
    std::memcpy(&value, section.data() + 48 + 24 * i + 8, 4);
    append_u32(out, static_cast<std::uint32_t>(old_entries[i].flags));
    append_u32(out, static_cast<std::uint32_t>(pad + key));
    append_u32(out, static_cast<std::uint32_t>(pad + value));
  }
  return out + std::string(pad, '\0') + section;
}

const std::vector<RawEntry> kTwoLibraries = {
    {kX8664Libc6, "libfoo.so.1", "/usr/lib/x86_64-linux-gnu/libfoo.so.1"},
    {kI386Libc6, "libbar.so.2", "/usr/lib/i386-linux-gnu/libbar.so.2"},
};

std::string read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

const LdCacheEntry* find_key(const std::vector<LdCacheEntry>& entries, const std::string& key,
                             LdCacheAbi abi = LdCacheAbi::native) {
  auto it = std::find_if(entries.begin(), entries.end(), [&](const LdCacheEntry& e) {
    return e.key == key && ldcache_abi(e.flags) == abi;
  });
  return it == entries.end() ? nullptr : &*it;
}

void check_two_libraries(const Result<std::vector<LdCacheEntry>>& parsed) {
  REQUIRE(parsed.ok());
  REQUIRE(parsed->size() == 2);
  CHECK(parsed->at(0).flags == kX8664Libc6);
  CHECK(parsed->at(0).key == "libfoo.so.1");
  CHECK(parsed->at(0).value == "/usr/lib/x86_64-linux-gnu/libfoo.so.1");
  CHECK(parsed->at(1).flags == kI386Libc6);
  CHECK(parsed->at(1).key == "libbar.so.2");
  CHECK(parsed->at(1).value == "/usr/lib/i386-linux-gnu/libbar.so.2");
}

// Writes a cache with the system ldconfig for a root holding a copy of the
// host's libc; "" when ldconfig refused (the format is not supported).
std::string system_ldconfig_cache(const TempDir& root, const std::string& format) {
  std::string lib_dir = join(root.path(), FakeHost::lib_dir());
  copy_file(FakeHost::lib_dir() + "/libc.so.6", lib_dir + "/libc.so.6");
  write_file(join(root.path(), "etc/ld.so.conf"), FakeHost::lib_dir() + "\n");
  std::vector<std::string> argv = {"/sbin/ldconfig", "-r", root.path(), "-c", format};
  if (::geteuid() != 0)
    argv.insert(argv.begin(), {"/usr/bin/unshare", "--user", "--map-root-user"});
  if (run_program(argv).exit_code != 0) return {};
  return read_bytes(join(root.path(), "etc/ld.so.cache"));
}

std::string parse_error_of(const std::string& bytes) {
  auto parsed = parse_ldcache(bytes, "/x/etc/ld.so.cache");
  REQUIRE_FALSE(parsed.ok());
  return parsed.error().message;
}

}  // namespace

TEST_CASE("The fixture's ld.so.cache lists libcuda.so.1 at its path with native libc6 flags",
          "[ldcache]") {
  FakeHost host = FakeHost::build(FakeHostSpec::with_gpus(1));
  if (!host.ldcache_created()) {
    GRAFT_SKIP("the fixture could not run ldconfig: " << host.ldcache_problem());
  }
  auto entries = read_ldcache_file(host.path("etc/ld.so.cache"));
  REQUIRE(entries.ok());
  std::string path = FakeHost::lib_dir() + "/libcuda.so.1";
  auto cuda = std::find_if(entries->begin(), entries->end(), [&](const LdCacheEntry& entry) {
    return entry.key == "libcuda.so.1" && entry.value == path;
  });
  REQUIRE(cuda != entries->end());
  CHECK(ldcache_abi(cuda->flags) == LdCacheAbi::native);
  CHECK(ldcache_is_elf(cuda->flags));
  CHECK(has_libc6_type(cuda->flags));
#if defined(__x86_64__)
  CHECK(cuda->flags == kX8664Libc6);
#endif
}

TEST_CASE("A cache the system ldconfig writes for a temporary root parses", "[ldcache]") {
  TempDir root;
  std::string bytes = system_ldconfig_cache(root, "new");
  REQUIRE_FALSE(bytes.empty());
  auto entries = parse_ldcache(bytes, "system cache");
  REQUIRE(entries.ok());
  const LdCacheEntry* libc = find_key(*entries, "libc.so.6");
  REQUIRE(libc != nullptr);
  CHECK(libc->value == FakeHost::lib_dir() + "/libc.so.6");
}

TEST_CASE("Old-only and combined caches from the system ldconfig parse like the new format",
          "[ldcache]") {
  std::string unwritable;
  for (std::string format : {"old", "compat"}) {
    TempDir root;
    std::string bytes = system_ldconfig_cache(root, format);
    if (bytes.empty()) {
      WARN("not checked: this ldconfig cannot write the " << format << " format");
      unwritable += unwritable.empty() ? format : " and " + format;
      continue;
    }
    auto entries = parse_ldcache(bytes, format);
    REQUIRE(entries.ok());
    const LdCacheEntry* libc = find_key(*entries, "libc.so.6");
    REQUIRE(libc != nullptr);
    CHECK(libc->value == FakeHost::lib_dir() + "/libc.so.6");
  }
  if (unwritable == "old and compat") GRAFT_SKIP("this ldconfig writes neither the old nor the compat format");
}

TEST_CASE("An old-format-only cache built in code parses", "[ldcache]") {
  check_two_libraries(parse_ldcache(old_cache(kTwoLibraries), "old"));
}

TEST_CASE("A new-format cache built in code parses", "[ldcache]") {
  check_two_libraries(parse_ldcache(new_section(kTwoLibraries), "new"));
}

TEST_CASE("A combined old+new cache yields the new-format entries", "[ldcache]") {
  // The old table says something else (one entry, other flags): it must be ignored.
  std::vector<RawEntry> old_entries = {{0x0001, "libfoo.so.1", ""}};
  std::string bytes = combined_cache(old_entries, kTwoLibraries);
  REQUIRE(bytes.compare(0, 11, "ld.so-1.7.0") == 0);
  check_two_libraries(parse_ldcache(bytes, "combined"));
}

TEST_CASE("A combined cache whose old table is not 8-byte aligned finds the new header",
          "[ldcache]") {
  std::vector<RawEntry> old_entries = {kTwoLibraries[0]};  // 16 + 12 = 28: 4 bytes of padding
  check_two_libraries(parse_ldcache(combined_cache(old_entries, kTwoLibraries), "combined"));
}

TEST_CASE("Every truncation of a real cache is an error, never a crash", "[ldcache]") {
  FakeHost host = FakeHost::build(FakeHostSpec::with_gpus(1));
  if (!host.ldcache_created()) {
    GRAFT_SKIP("the fixture could not run ldconfig: " << host.ldcache_problem());
  }
  std::string bytes = read_bytes(host.path("etc/ld.so.cache"));
  REQUIRE(parse_ldcache(bytes, "whole").ok());
  for (std::size_t length = 0; length < bytes.size(); ++length) {
    INFO("prefix of " << length << " of " << bytes.size() << " bytes");
    CHECK_FALSE(parse_ldcache(std::string_view(bytes).substr(0, length), "cut").ok());
  }
}

TEST_CASE("Overwriting any single byte of a real cache never reads out of bounds", "[ldcache]") {
  FakeHost host = FakeHost::build(FakeHostSpec::with_gpus(1));
  if (!host.ldcache_created()) {
    GRAFT_SKIP("the fixture could not run ldconfig: " << host.ldcache_problem());
  }
  const std::string bytes = read_bytes(host.path("etc/ld.so.cache"));
  std::size_t rejected = 0;
  for (std::size_t pos = 0; pos < bytes.size(); ++pos) {
    for (char junk : {'\x00', '\x7f', '\xff'}) {
      std::string damaged = bytes;
      damaged[pos] = junk;
      // Either outcome is fine; the sanitizer build checks nothing is read out of bounds.
      if (!parse_ldcache(damaged, "damaged").ok()) ++rejected;
    }
  }
  CHECK(rejected > 0);
}

TEST_CASE("Every truncation of old and combined caches is an error", "[ldcache]") {
  for (const std::string& bytes :
       {old_cache(kTwoLibraries), combined_cache({kTwoLibraries[0]}, kTwoLibraries)}) {
    REQUIRE(parse_ldcache(bytes, "whole").ok());
    for (std::size_t length = 0; length < bytes.size(); ++length) {
      INFO("prefix of " << length << " of " << bytes.size() << " bytes");
      CHECK_FALSE(parse_ldcache(std::string_view(bytes).substr(0, length), "cut").ok());
    }
  }
}

TEST_CASE("A huge nlibs is rejected without overflow", "[ldcache]") {
  std::string bytes = new_section(kTwoLibraries);
  put_u32(bytes, 20, 0xffffffff);
  std::string message = parse_error_of(bytes);
  CHECK_THAT(message, Catch::Contains("/x/etc/ld.so.cache"));
  CHECK_THAT(message, Catch::Contains("claims 4294967295 entries"));

  std::string old = old_cache(kTwoLibraries);
  put_u32(old, 12, 0xffffffff);
  CHECK_THAT(parse_error_of(old), Catch::Contains("old-format header claims 4294967295 entries"));
}

TEST_CASE("A key filter keeps only the entries it accepts, in file order", "[ldcache]") {
  for (const auto& bytes : {new_section(kTwoLibraries), old_cache(kTwoLibraries)}) {
    auto kept = parse_ldcache(bytes, "filtered", [](std::string_view key) { return key == "libbar.so.2"; });
    REQUIRE(kept.ok());
    REQUIRE(kept->size() == 1);
    CHECK(kept->at(0).key == "libbar.so.2");
    CHECK(kept->at(0).value == "/usr/lib/i386-linux-gnu/libbar.so.2");
    CHECK(kept->at(0).flags == kI386Libc6);
  }
}

TEST_CASE("An entry a key filter drops is still checked: a broken one fails the file", "[ldcache]") {
  std::string bytes = new_section(kTwoLibraries);
  put_u32(bytes, 48 + 24 + 8, 99999);  // entry 1, value
  auto parsed = parse_ldcache(bytes, "/x/etc/ld.so.cache", [](std::string_view key) { return key == "libfoo.so.1"; });
  REQUIRE_FALSE(parsed.ok());
  CHECK(parsed.error().message == "ld.so.cache /x/etc/ld.so.cache: entry 1 value offset 99999 beyond end of file");
}

TEST_CASE("A key offset beyond the end of the file is named in the error", "[ldcache]") {
  std::string bytes = new_section(kTwoLibraries);
  put_u32(bytes, 48 + 24 + 4, 99999);  // entry 1, key
  CHECK(parse_error_of(bytes) ==
        "ld.so.cache /x/etc/ld.so.cache: entry 1 key offset 99999 beyond end of file");
}

TEST_CASE("A value offset beyond the end of the file is named in the error", "[ldcache]") {
  std::string bytes = old_cache(kTwoLibraries);
  put_u32(bytes, 16 + 8, 0xfffffff0);  // entry 0, value
  CHECK_THAT(parse_error_of(bytes),
             Catch::Contains("entry 0 value offset 4294967280 beyond end of file"));
}

TEST_CASE("A string without a NUL terminator before the end of the file is an error", "[ldcache]") {
  std::string bytes = old_cache(kTwoLibraries);
  bytes.pop_back();  // the last string's terminator
  CHECK_THAT(parse_error_of(bytes), Catch::Contains("entry 1 value at offset") &&
                                  Catch::Contains("has no NUL terminator before end of file"));
}

TEST_CASE("A string table larger than the file is an error", "[ldcache]") {
  std::string bytes = new_section(kTwoLibraries);
  put_u32(bytes, 24, 100000);
  CHECK_THAT(parse_error_of(bytes),
             Catch::Contains("string table of 100000 bytes extends beyond end of file"));
}

TEST_CASE("A file with neither magic is rejected as bad magic", "[ldcache]") {
  CHECK_THAT(parse_error_of("\x7f"
                      "ELF not a cache at all, just bytes"),
             Catch::Contains("bad magic \"\\x7fELF"));
  CHECK_THAT(parse_error_of(""), Catch::Contains("empty file"));
}

TEST_CASE("A new-format header with another version is rejected", "[ldcache]") {
  std::string bytes = new_section(kTwoLibraries);
  bytes.replace(17, 3, "2.0");
  CHECK_THAT(parse_error_of(bytes), Catch::Contains("unsupported version \"2.0\" (expected \"1.1\")"));
}

TEST_CASE("A cache marked for the other byte order is rejected", "[ldcache]") {
  std::string bytes = new_section(kTwoLibraries);
  bytes[28] = 3;  // big-endian
  CHECK_THAT(parse_error_of(bytes), Catch::Contains("other byte order"));
}

TEST_CASE("An extension directory beyond the end of the file is an error", "[ldcache]") {
  std::string bytes = new_section(kTwoLibraries);
  put_u32(bytes, 32, static_cast<std::uint32_t>(bytes.size()));
  CHECK_THAT(parse_error_of(bytes), Catch::Contains("extension directory at offset"));
}

TEST_CASE("Reading a cache that is not a regular file is refused, naming the path", "[ldcache]") {
  TempDir dir;
  UniqueFd fd(::open(dir.path().c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  REQUIRE(fd.valid());
  auto parsed = read_ldcache_fd(fd.get(), dir.path());
  REQUIRE_FALSE(parsed.ok());
  CHECK(parsed.error().message == "ld.so.cache " + dir.path() + ": not a regular file");
}

TEST_CASE("Flags classify entries by ABI relative to the build", "[ldcache]") {
#if defined(__x86_64__)
  CHECK(ldcache_abi(0x0303) == LdCacheAbi::native);
  CHECK(ldcache_abi(0x0003) == LdCacheAbi::compat32);
  CHECK(ldcache_abi(0x0a03) == LdCacheAbi::other);
#elif defined(__aarch64__)
  CHECK(ldcache_abi(0x0a03) == LdCacheAbi::native);
  CHECK(ldcache_abi(0x0903) == LdCacheAbi::compat32);
  CHECK(ldcache_abi(0x0303) == LdCacheAbi::other);
#endif
  CHECK(ldcache_is_elf(0x0001));
  CHECK_FALSE(ldcache_is_elf(0x0000));
}

TEST_CASE("The fixture's 32-bit libraries are compat32 entries in its cache", "[ldcache]") {
  FakeHost host = FakeHost::build(FakeHostSpec::with_gpus(1));
  if (!host.ldcache_created() || !host.lib32_created()) {
    GRAFT_SKIP("no 32-bit fake libraries or no cache in this build");
  }
  auto entries = read_ldcache_file(host.path("etc/ld.so.cache"));
  REQUIRE(entries.ok());
  const LdCacheEntry* cuda32 = find_key(*entries, "libcuda.so.1", LdCacheAbi::compat32);
  REQUIRE(cuda32 != nullptr);
  CHECK(cuda32->value == FakeHost::lib32_dir() + "/libcuda.so.1");
  CHECK(has_libc6_type(cuda32->flags));
}
