// SPDX-License-Identifier: Apache-2.0
// Writing glibc's ld.so.cache ("glibc-ld.so.cache1.1", the only format
// glibc >= 2.32 writes) without running ldconfig: the entries a container's
// cache must list, in the order ldconfig stores them, so the dynamic linker
// and `ldconfig -p` read the file as one ldconfig wrote. Entries in
// glibc-hwcaps subdirectories keep their subdirectory (the extension section
// is written anew); the generator string names the writer.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "graft/base/ldcache.hpp"

namespace graft {

// glibc's _dl_cache_libcmp: strcmp, except that runs of digits compare as
// numbers ("libx.so.10" > "libx.so.9"), and a digit sorts after any other
// character.
int ldcache_libcmp(std::string_view a, std::string_view b);

// Sorts as ldconfig keeps its list: keys descending by ldcache_libcmp, then
// flags descending, glibc-hwcaps entries first (by subdirectory), then the
// most specific hwcap and the highest osversion. Stable: equal entries keep
// their order, as ldconfig keeps the order it found them in.
void sort_ldcache_entries(std::vector<LdCacheEntry>& entries);

// The cache file for `entries`, stored in the order given (sort first).
std::string render_ldcache(const std::vector<LdCacheEntry>& entries, std::string_view generator);

// The flags ldconfig gives an ELF library linked against libc.so.6 of `abi`
// on this build's architecture.
std::int32_t ldcache_flags_for(LdCacheAbi abi);

// A container's cache after injection: `injected` first, then every entry of
// `existing` that is not one of them (same key, value and flags), sorted.
// Injected libraries come first among equal keys, as they do when ldconfig
// scans the library directories named on its command line before the rest.
std::vector<LdCacheEntry> merge_ldcache_entries(std::vector<LdCacheEntry> injected,
                                                const std::vector<LdCacheEntry>& existing);

}  // namespace graft
