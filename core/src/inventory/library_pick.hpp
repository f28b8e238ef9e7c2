// SPDX-License-Identifier: Apache-2.0
// The libraries discovery picks, one per capability-set name prefix and ABI,
// and the two places it picks them from: the driver root's ld.so.cache
// (library_selection.cpp) and [discovery] library_dirs (library_dirs.cpp).
// Both apply the same test to what they find: the real file, symlinks
// resolved inside the driver root, carries the driver version suffix.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "paths/root_links.hpp"
#include "graft/base/ldcache.hpp"
#include "inventory/inventory.hpp"
#include "inventory/prefix_index.hpp"

namespace graft {

struct LibraryPick {
  std::string soname;
  std::string path;  // real file, root-relative; "" while nothing was picked
  LibrarySource source;
};

// What discovery is looking for, and what it has picked so far: picks[i]
// for prefixes[i], per ABI.
struct LibraryPicks {
  const PrefixIndex& index;
  std::string suffix;  // ".so.<driver version>"; "" with library_version = "any"
  RootLinks& links;
  std::vector<LibraryPick> native, compat32;

  std::vector<LibraryPick>& of(LdCacheAbi abi) { return abi == LdCacheAbi::native ? native : compat32; }

  // `path` resolved inside the driver root, if its real file carries the
  // driver version: the stray copies other driver versions leave are dropped.
  std::optional<std::string> versioned_real_path(const std::string& path) {
    auto real = links.follow(path);
    if (!real || !real->ends_with(suffix)) return std::nullopt;
    return *real;
  }
};

// Fills the picks still empty from policy.discovery.library_dirs, in order:
// a directory's entries are read (at most a bounded number; more is a
// warning), those named <prefix>...<suffix> are opened inside the driver
// root, and a regular ELF file of either ABI is picked under its DT_SONAME
// (its file name if it names none); the first in name order wins. A
// directory that cannot be opened, or a file that is not a fit ELF object,
// is a warning.
void pick_from_library_dirs(const Policy& policy, LibraryPicks& picks, std::vector<std::string>& warnings);

}  // namespace graft
