// SPDX-License-Identifier: Apache-2.0
// ld.so.cache: a bounds-checked reader for glibc's dynamic linker cache, in
// the new format ("glibc-ld.so.cache1.1", glibc >= 2.32 writes only this),
// the old format ("ld.so-1.7.0") and the combined file older glibc wrote.
// The file belongs to whoever controls the driver root, so every count,
// offset and string is checked before it is used.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "graft/base/error.hpp"

namespace graft {

struct LdCacheEntry {
  std::int32_t flags = 0;  // type in the low byte, ABI in 0xff00
  std::string key;         // soname, e.g. "libfoo.so.1"
  std::string value;       // path as seen from the cache's root
  std::uint32_t osversion = 0;  // new format only
  std::uint64_t hwcap = 0;      // new format only; see hwcaps_subdir
  // For a library in a glibc-hwcaps subdirectory (glibc >= 2.33): its name,
  // e.g. "x86-64-v3". `hwcap` then holds the extension bit and ISA level
  // with the index the file gave the name, which a writer assigns afresh.
  std::string hwcaps_subdir;

  bool operator==(const LdCacheEntry&) const = default;
};

// Which entries to return, by key; an empty filter keeps all. Every entry
// is checked all the same, so a file malformed anywhere still fails whole.
using LdCacheKeyFilter = std::function<bool(std::string_view key)>;

// Entries in file order (glibc sorts them; callers must not rely on it).
// When a file has both formats, only the new-format entries are returned.
// `name_for_errors` is the path every error message names.
Result<std::vector<LdCacheEntry>> parse_ldcache(std::string_view bytes,
                                                const std::string& name_for_errors,
                                                const LdCacheKeyFilter& keep = {});

// A cache larger than this is not one anyone wrote; reading one fails.
inline constexpr std::size_t kMaxLdCacheBytes = 16u << 20;

// Reads a cache whole (a regular file, at most kMaxLdCacheBytes) from an fd
// the caller opened (O_RDONLY|O_NONBLOCK) and keeps, and parses it; `path`
// names it in messages. There is no by-path reader: every cache graft reads
// is opened inside a root it does not trust (a driver root, an image), each
// caller the way that root needs (core's library_selection.cpp).
Result<std::vector<LdCacheEntry>> read_ldcache_fd(int fd, const std::string& path,
                                                  const LdCacheKeyFilter& keep = {});

// Which ABI an entry belongs to, relative to the ABI this program was built for.
enum class LdCacheAbi {
  native,    // the build's own 64-bit ABI (x86-64, aarch64)
  compat32,  // its 32-bit companion (i386 on x86-64, ARM hard-float on aarch64)
  other,
};

LdCacheAbi ldcache_abi(std::int32_t flags);

// True when the entry describes an ELF object at all (type bit 0x1).
bool ldcache_is_elf(std::int32_t flags);

}  // namespace graft
