// SPDX-License-Identifier: Apache-2.0
// ld.so.cache writer. The layout is the one ldcache.cpp reads (glibc's
// sysdeps/generic/dl-cache.h): header, entries, string table, then the
// extension directory (generator, glibc-hwcaps), in host byte order.
#include "graft/base/ldcache_write.hpp"

#include <algorithm>
#include <bit>
#include <cstring>
#include <map>

#include "ldcache_format.hpp"

namespace graft {
namespace {

using namespace ldcache_format;

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// glibc subtracts plain chars: signed on x86-64, unsigned on aarch64, as
// plain char is here, so bytes above 0x7f sort as ldconfig sorts them.
int as_glibc_char(char c) { return static_cast<int>(c); }

// The hwcap ldconfig sorts by: none for glibc-hwcaps entries, which it keeps
// apart from the legacy hwcap bits.
std::uint64_t legacy_hwcap(const LdCacheEntry& entry) { return entry.hwcaps_subdir.empty() ? entry.hwcap : 0; }

// ldconfig's compare(): negative when `a` is stored before `b`.
int stored_order(const LdCacheEntry& a, const LdCacheEntry& b) {
  if (int by_key = ldcache_libcmp(b.key, a.key); by_key != 0) return by_key;
  if (a.flags != b.flags) return a.flags > b.flags ? -1 : 1;
  if (a.hwcaps_subdir.empty() != b.hwcaps_subdir.empty()) return a.hwcaps_subdir.empty() ? 1 : -1;
  if (int by_dir = a.hwcaps_subdir.compare(b.hwcaps_subdir); by_dir != 0) return by_dir;
  int bits_a = std::popcount(legacy_hwcap(a)), bits_b = std::popcount(legacy_hwcap(b));
  if (bits_a != bits_b) return bits_a > bits_b ? -1 : 1;
  if (legacy_hwcap(a) != legacy_hwcap(b)) return legacy_hwcap(a) > legacy_hwcap(b) ? -1 : 1;
  if (a.osversion != b.osversion) return a.osversion > b.osversion ? -1 : 1;
  return 0;
}

template <typename T>
void put(std::string& out, std::size_t at, T value) {
  std::memcpy(out.data() + at, &value, sizeof value);
}

template <typename T>
void append(std::string& out, T value) {
  out.append(reinterpret_cast<const char*>(&value), sizeof value);
}

// The string table: each string once, offsets counted from the file's start.
class Strings {
 public:
  explicit Strings(std::size_t base) : base_(base) {}
  std::uint32_t offset_of(const std::string& text) {
    auto [it, added] = offsets_.try_emplace(text, 0);
    if (added) {
      it->second = static_cast<std::uint32_t>(base_ + table_.size());
      table_.append(text).push_back('\0');
    }
    return it->second;
  }
  const std::string& table() const { return table_; }

 private:
  std::size_t base_;
  std::string table_;
  std::map<std::string, std::uint32_t> offsets_;
};

// The glibc-hwcaps names in use, sorted by strcmp as ldconfig numbers them.
std::vector<std::string> hwcaps_names(const std::vector<LdCacheEntry>& entries) {
  std::vector<std::string> names;
  for (const auto& entry : entries)
    if (!entry.hwcaps_subdir.empty()) names.push_back(entry.hwcaps_subdir);
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  return names;
}

std::uint64_t stored_hwcap(const LdCacheEntry& entry, const std::vector<std::string>& names) {
  if (entry.hwcaps_subdir.empty()) return entry.hwcap;
  auto index = std::lower_bound(names.begin(), names.end(), entry.hwcaps_subdir) - names.begin();
  return kHwcapExtension | (entry.hwcap & kHwcapIsaLevelMask) | static_cast<std::uint64_t>(index);
}

void append_extensions(std::string& out, const std::vector<std::uint32_t>& hwcaps, std::string_view generator) {
  std::uint32_t sections = hwcaps.empty() ? 1 : 2;
  auto directory_end =
      static_cast<std::uint32_t>(out.size() + kExtensionHeaderSize + sections * kExtensionSectionSize);
  auto hwcaps_size = static_cast<std::uint32_t>(hwcaps.size() * 4);
  append(out, kExtensionMagic);
  append(out, sections);
  for (std::uint32_t field : {kExtensionTagGenerator, 0u, directory_end + hwcaps_size,
                              static_cast<std::uint32_t>(generator.size())})
    append(out, field);
  if (!hwcaps.empty())
    for (std::uint32_t field : {kExtensionTagHwcaps, 0u, directory_end, hwcaps_size}) append(out, field);
  for (std::uint32_t offset : hwcaps) append(out, offset);
  out.append(generator);
}

}  // namespace

int ldcache_libcmp(std::string_view a, std::string_view b) {
  std::size_t i = 0, j = 0;
  while (i < a.size()) {
    if (is_digit(a[i])) {
      if (j >= b.size() || !is_digit(b[j])) return 1;
      unsigned long long x = 0, y = 0;
      while (i < a.size() && is_digit(a[i])) x = x * 10 + static_cast<unsigned>(a[i++] - '0');
      while (j < b.size() && is_digit(b[j])) y = y * 10 + static_cast<unsigned>(b[j++] - '0');
      if (x != y) return x < y ? -1 : 1;
    } else if (j < b.size() && is_digit(b[j])) {
      return -1;
    } else if (j >= b.size() || a[i] != b[j]) {
      return as_glibc_char(a[i]) - (j < b.size() ? as_glibc_char(b[j]) : 0);
    } else {
      ++i, ++j;
    }
  }
  return j < b.size() ? -as_glibc_char(b[j]) : 0;
}

void sort_ldcache_entries(std::vector<LdCacheEntry>& entries) {
  std::stable_sort(entries.begin(), entries.end(),
                   [](const LdCacheEntry& a, const LdCacheEntry& b) { return stored_order(a, b) < 0; });
}

std::string render_ldcache(const std::vector<LdCacheEntry>& entries, std::string_view generator) {
  std::vector<std::string> names = hwcaps_names(entries);
  Strings strings(kNewHeaderSize + entries.size() * kNewEntrySize);
  std::string out(kNewHeaderSize, '\0');
  out.replace(0, kNewMagic.size(), kNewMagic);
  out.replace(kNewVersionOffset, kNewVersion.size(), kNewVersion);
  for (const auto& entry : entries) {
    append(out, entry.flags);
    append(out, strings.offset_of(entry.key));
    append(out, strings.offset_of(entry.value));
    append(out, entry.osversion);
    append(out, stored_hwcap(entry, names));
  }
  std::vector<std::uint32_t> hwcaps;
  for (const auto& name : names) hwcaps.push_back(strings.offset_of(name));
  out += strings.table();
  out.resize((out.size() + 3) & ~std::size_t{3}, '\0');  // the directory is 4-byte aligned
  put(out, kNewNlibsOffset, static_cast<std::uint32_t>(entries.size()));
  put(out, kNewStringsSizeOffset, static_cast<std::uint32_t>(strings.table().size()));
  put(out, kNewFlagsOffset, kEndianHost);
  put(out, kNewExtensionOffset, static_cast<std::uint32_t>(out.size()));
  append_extensions(out, hwcaps, generator);
  return out;
}

std::int32_t ldcache_flags_for(LdCacheAbi abi) {
  std::int32_t abi_bits = abi == LdCacheAbi::native ? kNativeAbi : kCompatAbi;
  return abi_bits < 0 ? kTypeElfLibc6 : (kTypeElfLibc6 | abi_bits);
}

std::vector<LdCacheEntry> merge_ldcache_entries(std::vector<LdCacheEntry> injected,
                                                const std::vector<LdCacheEntry>& existing) {
  std::vector<LdCacheEntry> merged = std::move(injected);
  std::size_t injected_count = merged.size();
  for (const auto& entry : existing) {
    bool replaced = std::any_of(merged.begin(), merged.begin() + static_cast<std::ptrdiff_t>(injected_count),
                                [&](const LdCacheEntry& mine) {
                                  return mine.key == entry.key && mine.value == entry.value &&
                                         mine.flags == entry.flags;
                                });
    if (!replaced) merged.push_back(entry);
  }
  sort_ldcache_entries(merged);
  return merged;
}

}  // namespace graft
