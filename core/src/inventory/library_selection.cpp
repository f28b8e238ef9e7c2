// SPDX-License-Identifier: Apache-2.0
// Chooses driver library files: for each name prefix a capability set lists,
// the last ld.so.cache entry of the right ABI whose real file carries the
// driver version suffix (the suffix check drops stray copies left by other
// driver versions); then, for what the cache gave nothing for, the policy's
// library_dirs (library_dirs.cpp). "dirs-only" never opens the cache.
// A cache lists a library under its soname and often under its linker name
// too (libfoo.so.1 and libfoo.so, both leading to the same file): the
// name a pick is known by in the container is its soname, never the linker
// name (pick_from_ldcache).
#include <fcntl.h>

#include <algorithm>
#include <cstring>
#include <optional>
#include <set>

#include "paths/paths.hpp"
#include "graft/base/ldcache.hpp"
#include "graft/base/unique_fd.hpp"
#include "inventory/elf_identity.hpp"
#include "inventory/host_files.hpp"
#include "inventory/library_pick.hpp"
#include "policy/vendors.hpp"

namespace graft {
namespace {

// The driver root's ld.so.cache, opened inside that root (RESOLVE_IN_ROOT):
// a driver container's /etc/ld.so.cache -> /etc/... is its own, not the host's.
Result<std::vector<LdCacheEntry>> read_driver_ldcache(const Policy& policy, const LdCacheKeyFilter& keep) {
  std::string shown = join_root(policy.host.driver_root, policy.discovery.ldcache);
  UniqueFd fd(open_in_host_root(policy.host.driver_root, policy.discovery.ldcache,
                                O_RDONLY | O_NOCTTY | O_NONBLOCK));
  if (!fd.valid())
    return make_sys_error(-fd.get(), "ld.so.cache {}: cannot open", shown);
  return read_ldcache_fd(fd.get(), shown, keep);
}

// A linker name, libX.so: what a -dev link or a driver installer adds
// beside the soname (libX.so.1), and the cache lists too.
bool is_linker_name(std::string_view key) { return key.ends_with(".so"); }

// One walk over the cache from the end (for each prefix the last entry that
// fits wins, the dynamic linker's own tie-breaking), taking the entries of
// one kind only: sonames, or linker names. A picked prefix costs nothing
// more, so each library's links are followed about once.
void pick_cache_entries(const std::vector<LdCacheEntry>& entries, bool linker_names, const LibrarySource& source,
                        LibraryPicks& picks) {
  for (auto entry = entries.rbegin(); entry != entries.rend(); ++entry) {
    if (!ldcache_is_elf(entry->flags) || is_linker_name(entry->key) != linker_names) continue;
    auto abi = ldcache_abi(entry->flags);
    if (abi == LdCacheAbi::other) continue;
    auto& picked = picks.of(abi);
    std::optional<std::optional<std::string>> real;  // followed at most once per entry
    picks.index.each_prefix_of(entry->key, [&](std::size_t i) {
      if (!picked[i].path.empty()) return;
      if (!real) real = picks.versioned_real_path(entry->value);
      if (*real) picked[i] = LibraryPick{entry->key, **real, source};
    });
  }
}

// Each pick the cache gave under a linker name renamed to its file's
// DT_SONAME; a file whose soname cannot be read keeps the key, with a warning.
void name_by_soname(const Policy& policy, std::vector<LibraryPick>& picked, std::vector<std::string>& warnings) {
  for (auto& pick : picked) {
    if (pick.path.empty() || pick.source.kind != LibrarySource::Kind::ldcache || !is_linker_name(pick.soname))
      continue;
    auto identity = read_elf_identity_in_root(policy.host.driver_root, pick.path);
    if (!identity)
      warnings.push_back(identity.error().message + " (named by its cache key " + pick.soname + ")");
    else if (!identity->soname.empty())
      pick.soname = std::move(identity->soname);
  }
}

// A host's cache has thousands of entries, few of them the driver's: only
// those are copied out. It lists a library under its soname, which is what
// the container's cache and link must be named, and often under its linker
// name too (both lead to the same file): sonames are taken first, and a
// library the cache names only by its linker name gets the DT_SONAME of its
// file (name_by_soname). A versioned key is taken as the soname without
// opening the file: ldconfig keys libraries by their sonames, and the other
// names it lists are links beside them, a versioned one (libX.so.1.2) rare.
Status pick_from_ldcache(const Policy& policy, LibraryPicks& picks, std::vector<std::string>& warnings) {
  auto entries = read_driver_ldcache(policy, [&](std::string_view key) { return picks.index.matches(key); });
  if (!entries) return entries.error();
  LibrarySource source{LibrarySource::Kind::ldcache, policy.discovery.ldcache};
  pick_cache_entries(*entries, false, source, picks);
  pick_cache_entries(*entries, true, source, picks);
  name_by_soname(policy, picks.native, warnings);
  name_by_soname(policy, picks.compat32, warnings);
  return ok_status();
}

bool all_picked(const std::vector<LibraryPick>& picks) {
  return std::all_of(picks.begin(), picks.end(), [](const auto& pick) { return !pick.path.empty(); });
}

Library library_of(const Policy& policy, const LibraryPick& pick, bool lib32) {
  return Library{pick.soname, join_root(policy.host.driver_root, pick.path), lib32, pick.source};
}

}  // namespace

namespace {

// The library names of the sets whose files carry one version suffix
// (".so.<version>", or "" for any version): a vendor's own driver version,
// or none for a vendor whose libraries are versioned apart from its driver.
struct LibraryGroup {
  std::string suffix;
  std::vector<std::string> prefixes;
};

std::vector<LibraryGroup> library_groups(const Policy& policy, const Inventory& inventory) {
  std::string primary = gpu_sources(policy).front().vendor;
  std::vector<LibraryGroup> groups;
  std::set<std::string> seen;
  for (const auto& [_, set] : policy.capabilities) {
    const std::string& vendor = set.vendor.empty() ? primary : set.vendor;
    bool any = gpu_discovery_of(policy, vendor).library_version == GpuDiscovery::LibraryVersion::any;
    const std::string& version = driver_version_of(inventory, vendor);
    std::string suffix = any ? "" : version.empty() ? "-" : ".so." + version;  // "-": no version, nothing fits
    auto group = std::find_if(groups.begin(), groups.end(), [&](const auto& g) { return g.suffix == suffix; });
    if (group == groups.end()) group = groups.insert(groups.end(), LibraryGroup{suffix, {}});
    for (const auto& library : set.libraries)
      if (seen.insert(library.value).second) group->prefixes.push_back(library.value);
  }
  std::erase_if(groups, [](const auto& group) { return group.prefixes.empty(); });
  return groups;
}

Status find_library_group(const Policy& policy, const LibraryGroup& group, Inventory& inventory) {
  const auto& prefixes = group.prefixes;
  if (group.suffix == "-") {
    inventory.warnings.push_back("no driver version: driver libraries not selected");
    return ok_status();
  }
  PrefixIndex index(prefixes);
  RootLinks links(policy.host.driver_root);
  LibraryPicks picks{index, group.suffix, links, std::vector<LibraryPick>(prefixes.size()),
                     std::vector<LibraryPick>(prefixes.size())};
  const Discovery& discovery = policy.discovery;
  if (discovery.library_search == Discovery::LibrarySearch::cache_then_dirs)
    if (auto status = pick_from_ldcache(policy, picks, inventory.warnings); !status) return status;
  if (!discovery.library_dirs.empty() && !(all_picked(picks.native) && all_picked(picks.compat32)))
    pick_from_library_dirs(policy, picks, inventory.warnings);
  for (std::size_t i = 0; i < prefixes.size(); ++i) {
    auto& found = inventory.libraries[prefixes[i]];
    if (!picks.native[i].path.empty()) found.push_back(library_of(policy, picks.native[i], false));
    else inventory.warnings.push_back("library " + prefixes[i] + " not found");
    if (!picks.compat32[i].path.empty()) found.push_back(library_of(policy, picks.compat32[i], true));
  }
  return ok_status();
}

}  // namespace

// One pass over the cache per version suffix: one on a host of one vendor.
Status find_libraries(const Policy& policy, Inventory& inventory) {
  for (const auto& group : library_groups(policy, inventory))
    if (auto status = find_library_group(policy, group, inventory); !status) return status;
  return ok_status();
}

}  // namespace graft
