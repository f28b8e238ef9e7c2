// SPDX-License-Identifier: Apache-2.0
// ld.so.cache reader. Layouts follow glibc's sysdeps/generic/dl-cache.h; the
// cache is written in host byte order, so fields are copied out with memcpy.
#include "graft/base/ldcache.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <bit>
#include <cerrno>
#include <cstring>

#include "graft/base/bounded_read.hpp"
#include "ldcache_format.hpp"

namespace graft {
namespace {

using namespace ldcache_format;

// Where a table of entries lives and what its string offsets are relative to.
struct Table {
  std::size_t entries_pos = 0;
  std::uint32_t nlibs = 0;
  std::size_t entry_size = 0;
  std::size_t strings_base = 0;
};

// Bytes plus the name for messages; every accessor is bounds-checked by its caller.
// It also keeps the copy budget: strings are copied out of the file (entries
// own them), and a file's offsets may point many entries at one long string,
// so what is copied is capped per string and in total, not by the file size.
class Reader {
 public:
  Reader(std::string_view bytes, const std::string& name)
      : bytes_(bytes), name_(name), copy_left_(kCopyFactor * bytes.size() + kCopySlack) {}

  std::size_t size() const { return bytes_.size(); }
  std::string_view bytes(std::size_t pos, std::size_t n) const { return bytes_.substr(pos, n); }

  bool has_at(std::size_t pos, std::string_view text) const {
    return pos <= bytes_.size() && bytes_.size() - pos >= text.size() &&
           bytes_.compare(pos, text.size(), text) == 0;
  }

  // The bytes at `pos` are a (possibly truncated) prefix of `text`.
  bool starts_like(std::size_t pos, std::string_view text) const {
    if (pos >= bytes_.size()) return false;
    std::size_t n = std::min(bytes_.size() - pos, text.size());
    return bytes_.compare(pos, n, text.substr(0, n)) == 0;
  }

  template <typename T>
  T field(std::size_t pos) const {
    T value;
    std::memcpy(&value, bytes_.data() + pos, sizeof value);
    return value;
  }

  Error fail(const std::string& detail) const {
    return Error{fmt::format("ld.so.cache {}: {}", name_, detail)};
  }

  // The NUL-terminated string at `base + offset`, inside the file's bytes.
  Result<std::string_view> string_at(std::size_t base, std::uint32_t offset, std::size_t entry,
                                     const char* what) const {
    if (base > bytes_.size() || offset >= bytes_.size() - base) {
      return fail(fmt::format("entry {} {} offset {} beyond end of file", entry, what, offset));
    }
    std::size_t start = base + offset;
    const void* nul = std::memchr(bytes_.data() + start, '\0', bytes_.size() - start);
    if (nul == nullptr) {
      return fail(fmt::format("entry {} {} at offset {} has no NUL terminator before end of file",
                              entry, what, offset));
    }
    std::size_t length = static_cast<const char*>(nul) - (bytes_.data() + start);
    return bytes_.substr(start, length);
  }

  // `text` as an owned string, charged to the copy budget. `limit` caps one
  // string (PATH_MAX for paths and names, NAME_MAX for a directory name).
  Result<std::string> copy(std::string_view text, std::size_t limit, std::size_t entry,
                           const char* what) {
    if (text.size() > limit)
      return fail(fmt::format("entry {} {} is {} bytes long (at most {})", entry, what, text.size(), limit));
    if (text.size() > copy_left_)
      return fail(fmt::format("its entries' strings add up to more than {} times the file's size "
                              "(many entries naming one long string)",
                              kCopyFactor));
    copy_left_ -= text.size();
    return std::string(text);
  }

 private:
  // An ldconfig-written cache copies out at most about twice its size: a
  // key is stored as the tail of its value. Entries sharing one string are
  // what a crafted file uses to ask for far more.
  static constexpr std::size_t kCopyFactor = 3;
  static constexpr std::size_t kCopySlack = 64 * 1024;

  std::string_view bytes_;
  const std::string& name_;
  std::size_t copy_left_;
};

// glibc's own limits for what a cache string names.
constexpr std::size_t kMaxPathBytes = 4096;  // PATH_MAX: a key or a value
constexpr std::size_t kMaxSubdirBytes = 255;  // NAME_MAX: a glibc-hwcaps subdirectory
// glibc knows a handful of glibc-hwcaps subdirectories per architecture
// (x86-64-v2 to v4, power9, z13 to z16, ...); a cache lists those in use.
constexpr std::uint32_t kMaxHwcapsNames = 1024;

// Shows a few header bytes in messages without letting binary junk through.
std::string printable(std::string_view bytes) {
  std::string out;
  for (unsigned char c : bytes) {
    if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\') {
      out += static_cast<char>(c);
    } else {
      out += fmt::format("\\x{:02x}", c);
    }
  }
  return out;
}

// Fails when `nlibs` entries of `entry_size` bytes do not fit after `entries_pos`.
// Dividing instead of multiplying keeps a huge nlibs from overflowing.
Result<Done> check_entries_fit(Reader& in, const Table& table, const char* format) {
  std::size_t room = in.size() >= table.entries_pos ? in.size() - table.entries_pos : 0;
  if (table.nlibs > room / table.entry_size) {
    return in.fail(fmt::format("{} header claims {} entries of {} bytes, but only {} bytes follow",
                               format, table.nlibs, table.entry_size, room));
  }
  return Done{};
}

bool uses_hwcaps_extension(std::uint64_t hwcap) {
  return (hwcap & ~kHwcapIsaLevelMask & ~0xffffffffULL) == kHwcapExtension;
}

// The new format's osversion and hwcap; the hwcap's glibc-hwcaps
// subdirectory, if it names one, comes back as a view into the file.
Result<std::string_view> read_new_fields(Reader& in, std::size_t pos, std::size_t i,
                                         const std::vector<std::string_view>& hwcaps, LdCacheEntry& entry) {
  entry.osversion = in.field<std::uint32_t>(pos + 12);
  entry.hwcap = in.field<std::uint64_t>(pos + 16);
  if (!uses_hwcaps_extension(entry.hwcap)) return std::string_view();
  auto index = static_cast<std::uint32_t>(entry.hwcap);
  if (index >= hwcaps.size())
    return in.fail(fmt::format("entry {} names glibc-hwcaps subdirectory {}, but the file lists {}", i, index,
                               hwcaps.size()));
  return hwcaps[index];
}

// The strings of a kept entry, copied out within the budget.
Result<Done> copy_strings(Reader& in, std::size_t i, std::string_view key, std::string_view value,
                          std::string_view subdir, LdCacheEntry& entry) {
  auto key_copy = in.copy(key, kMaxPathBytes, i, "key");
  if (!key_copy) return key_copy.error();
  auto value_copy = in.copy(value, kMaxPathBytes, i, "value");
  if (!value_copy) return value_copy.error();
  auto subdir_copy = in.copy(subdir, kMaxSubdirBytes, i, "glibc-hwcaps subdirectory");
  if (!subdir_copy) return subdir_copy.error();
  entry.key = std::move(*key_copy);
  entry.value = std::move(*value_copy);
  entry.hwcaps_subdir = std::move(*subdir_copy);
  return Done{};
}

// Every entry is checked; only those whose key `keep` accepts are copied out.
Result<std::vector<LdCacheEntry>> read_entries(Reader& in, const Table& table,
                                               const LdCacheKeyFilter& keep,
                                               const std::vector<std::string_view>& hwcaps = {}) {
  std::vector<LdCacheEntry> entries;
  if (!keep) entries.reserve(table.nlibs);
  for (std::size_t i = 0; i < table.nlibs; ++i) {
    std::size_t pos = table.entries_pos + i * table.entry_size;
    auto key = in.string_at(table.strings_base, in.field<std::uint32_t>(pos + 4), i, "key");
    if (!key) return key.error();
    auto value = in.string_at(table.strings_base, in.field<std::uint32_t>(pos + 8), i, "value");
    if (!value) return value.error();
    LdCacheEntry entry{.flags = in.field<std::int32_t>(pos)};
    std::string_view subdir;
    if (table.entry_size == kNewEntrySize) {
      auto read = read_new_fields(in, pos, i, hwcaps, entry);
      if (!read) return read.error();
      subdir = *read;
    }
    if (keep && !keep(*key)) continue;
    if (auto copied = copy_strings(in, i, *key, *value, subdir, entry); !copied) return copied.error();
    entries.push_back(std::move(entry));
  }
  return entries;
}

Result<Done> check_byte_order(Reader& in, std::size_t pos) {
  auto endian =
      static_cast<std::uint8_t>(in.field<std::uint8_t>(pos + kNewFlagsOffset) & kEndianMask);
  if (endian == kEndianInvalid) return in.fail("header marks its byte order as invalid");
  if (endian != 0 && endian != kEndianHost) {
    return in.fail("written for a host of the other byte order");
  }
  return Done{};
}

// The declared string table must fit after the entries, so a file cut short
// inside the strings is reported as such rather than as a bad offset.
Result<Done> check_strings_fit(Reader& in, const Table& table) {
  std::size_t entries_end = table.entries_pos + table.nlibs * table.entry_size;
  auto strings = in.field<std::uint32_t>(table.strings_base + kNewStringsSizeOffset);
  if (strings > in.size() - entries_end) {
    return in.fail(
        fmt::format("string table of {} bytes extends beyond end of file ({} bytes left)", strings,
                    in.size() - entries_end));
  }
  return Done{};
}

// The glibc-hwcaps section: u32 string offsets, counted like the keys'. The
// names stay views into the file; an entry copies the one it names.
Result<std::vector<std::string_view>> read_hwcaps(Reader& in, std::size_t base, std::uint32_t start,
                                                  std::uint32_t size) {
  if (size / 4 > kMaxHwcapsNames)
    return in.fail(fmt::format("glibc-hwcaps section lists {} names (at most {})", size / 4, kMaxHwcapsNames));
  std::vector<std::string_view> names;
  names.reserve(size / 4);
  for (std::uint32_t at = 0; at + 4 <= size; at += 4) {
    auto name = in.string_at(base, in.field<std::uint32_t>(start + at), at / 4, "glibc-hwcaps name");
    if (!name) return name.error();
    names.push_back(*name);
  }
  return names;
}

// Checks the extension directory and returns the glibc-hwcaps names, if any.
Result<std::vector<std::string_view>> check_extensions(Reader& in, std::size_t pos) {
  std::vector<std::string_view> hwcaps;
  auto offset = in.field<std::uint32_t>(pos + kNewExtensionOffset);
  if (offset == 0) return hwcaps;
  if (offset > in.size() || in.size() - offset < kExtensionHeaderSize) {
    return in.fail(fmt::format("extension directory at offset {} beyond end of file", offset));
  }
  if (in.field<std::uint32_t>(offset) != kExtensionMagic) {
    return in.fail(fmt::format("extension directory at offset {} has bad magic", offset));
  }
  auto count = in.field<std::uint32_t>(offset + 4);
  std::size_t room = in.size() - offset - kExtensionHeaderSize;
  if (count > room / kExtensionSectionSize) {
    return in.fail(
        fmt::format("extension directory claims {} sections, beyond end of file", count));
  }
  for (std::size_t i = 0; i < count; ++i) {
    std::size_t at = offset + kExtensionHeaderSize + i * kExtensionSectionSize;
    auto start = in.field<std::uint32_t>(at + 8);
    auto size = in.field<std::uint32_t>(at + 12);
    if (start > in.size() || size > in.size() - start) {
      return in.fail(fmt::format("extension section {} ({} bytes at offset {}) beyond end of file",
                                 i, size, start));
    }
    if (in.field<std::uint32_t>(at) == kExtensionTagHwcaps) {
      auto names = read_hwcaps(in, pos, start, size);
      if (!names) return names.error();
      hwcaps = std::move(*names);
    }
  }
  return hwcaps;
}

// New-format header at `pos`; its string offsets count from the header itself.
Result<std::vector<LdCacheEntry>> parse_new(Reader& in, std::size_t pos,
                                            const LdCacheKeyFilter& keep) {
  if (in.size() - pos < kNewHeaderSize) {
    return in.fail(fmt::format("truncated new-format header at offset {}: {} of {} bytes", pos,
                               in.size() - pos, kNewHeaderSize));
  }
  if (!in.has_at(pos, kNewMagic)) return in.fail("bad magic in new-format header");
  if (!in.has_at(pos + kNewVersionOffset, kNewVersion)) {
    return in.fail(fmt::format("unsupported version \"{}\" (expected \"{}\")",
                               printable(in.bytes(pos + kNewVersionOffset, kNewVersion.size())),
                               kNewVersion));
  }
  Table table{pos + kNewHeaderSize, in.field<std::uint32_t>(pos + kNewNlibsOffset), kNewEntrySize,
              pos};
  if (auto check = check_byte_order(in, pos); !check) return check.error();
  if (auto check = check_entries_fit(in, table, "new-format"); !check) return check.error();
  if (auto check = check_strings_fit(in, table); !check) return check.error();
  auto hwcaps = check_extensions(in, pos);
  if (!hwcaps) return hwcaps.error();
  return read_entries(in, table, keep, *hwcaps);
}

// Old-format header at 0. A new-format header may follow its entries (the
// combined layout glibc < 2.32 wrote); it is preferred when present.
Result<std::vector<LdCacheEntry>> parse_old(Reader& in, const LdCacheKeyFilter& keep) {
  if (in.size() < kOldHeaderSize) {
    return in.fail(
        fmt::format("truncated old-format header: {} of {} bytes", in.size(), kOldHeaderSize));
  }
  Table table{kOldHeaderSize, in.field<std::uint32_t>(kOldMagic.size() + 1), kOldEntrySize, 0};
  if (auto check = check_entries_fit(in, table, "old-format"); !check) return check.error();
  std::size_t entries_end = table.entries_pos + table.nlibs * kOldEntrySize;
  std::size_t new_pos = (entries_end + kNewHeaderAlign - 1) & ~(kNewHeaderAlign - 1);
  // A file cut inside the new magic is a truncated combined cache, not an old one.
  bool cut_in_magic = new_pos < in.size() && in.size() - new_pos < kNewMagic.size() &&
                      in.starts_like(new_pos, kNewMagic);
  if (in.has_at(new_pos, kNewMagic) || cut_in_magic) return parse_new(in, new_pos, keep);
  table.strings_base = entries_end;
  return read_entries(in, table, keep);
}

}  // namespace

Result<std::vector<LdCacheEntry>> parse_ldcache(std::string_view bytes,
                                                const std::string& name_for_errors,
                                                const LdCacheKeyFilter& keep) {
  Reader in(bytes, name_for_errors);
  if (bytes.empty()) return in.fail("empty file");
  if (in.starts_like(0, kNewMagic)) return parse_new(in, 0, keep);
  if (in.starts_like(0, kOldMagic)) return parse_old(in, keep);
  return in.fail(fmt::format("bad magic \"{}\" (expected \"{}\" or \"{}\")",
                             printable(bytes.substr(0, kNewMagic.size())), kNewMagic, kOldMagic));
}

Result<std::vector<LdCacheEntry>> read_ldcache_fd(int fd, const std::string& path,
                                                  const LdCacheKeyFilter& keep) {
  auto fail = [&](const std::string& detail) {
    return Error{fmt::format("ld.so.cache {}: {}", path, detail)};
  };
  struct stat st {};
  if (::fstat(fd, &st) != 0) return make_sys_error(errno, "ld.so.cache {}: cannot stat", path);
  if (!S_ISREG(st.st_mode)) return fail("not a regular file");
  auto bytes = read_bounded(fd, kMaxLdCacheBytes, "ld.so.cache " + path);
  if (!bytes) return bytes.error();
  return parse_ldcache(*bytes, path, keep);
}

LdCacheAbi ldcache_abi(std::int32_t flags) {
  std::int32_t abi = flags & kAbiMask;
  if (abi == kNativeAbi) return LdCacheAbi::native;
  if (abi == kCompatAbi) return LdCacheAbi::compat32;
  return LdCacheAbi::other;
}

bool ldcache_is_elf(std::int32_t flags) { return (flags & 0x1) != 0; }

}  // namespace graft
