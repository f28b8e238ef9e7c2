// Chooses driver library files from the driver root's ld.so.cache: for each
// name prefix a capability set lists, the last cache entry of the right ABI
// whose real file carries the driver version suffix. The suffix check drops
// stray copies left by other driver versions.
#include <fcntl.h>

#include <cstring>
#include <set>

#include "files/paths.hpp"
#include "files/root_links.hpp"
#include "graft/base/ldcache.hpp"
#include "graft/base/unique_fd.hpp"
#include "inventory/host_files.hpp"
#include "inventory/prefix_index.hpp"

namespace graft {
namespace {

struct Candidate {
  std::string soname;
  std::string path;  // real file, root-relative
};

// Later entries win, as with the dynamic linker's own tie-breaking in the cache.
void consider(const LdCacheEntry& entry, RootLinks& links, const std::string& suffix,
              Candidate& pick) {
  auto real = links.follow(entry.value);
  if (!real || !real->ends_with(suffix)) return;
  pick = Candidate{entry.key, *real};
}

// The driver root's ld.so.cache, opened inside that root (RESOLVE_IN_ROOT):
// a driver container's /etc/ld.so.cache -> /etc/... is its own, not the host's.
Result<std::vector<LdCacheEntry>> read_driver_ldcache(const Policy& policy, const LdCacheKeyFilter& keep) {
  std::string shown = join_root(policy.host.driver_root, policy.discovery.ldcache);
  UniqueFd fd(open_in_host_root(policy.host.driver_root, policy.discovery.ldcache,
                                O_RDONLY | O_NOCTTY | O_NONBLOCK));
  if (!fd.valid())
    return make_error("ld.so.cache {}: cannot open: {}", shown, std::strerror(-fd.get()));
  return read_ldcache_fd(fd.get(), shown, keep);
}

}  // namespace

Status find_libraries(const Policy& policy, Inventory& inventory) {
  auto prefixes = names_in_sets(policy, &CapabilitySet::libraries);
  if (prefixes.empty()) return ok_status();
  if (inventory.driver_version.empty()) {
    inventory.warnings.push_back("no driver version: driver libraries not selected");
    return ok_status();
  }
  // A host's cache has thousands of entries, few of them the driver's: only
  // those are copied out, and one pass over them, in cache order, keeps for
  // each prefix the last entry that fits.
  PrefixIndex index(prefixes);
  auto entries = read_driver_ldcache(policy, [&](std::string_view key) { return index.matches(key); });
  if (!entries) return entries.error();
  std::string suffix = ".so." + inventory.driver_version;
  RootLinks links(policy.host.driver_root);
  std::vector<Candidate> native(prefixes.size()), compat32(prefixes.size());
  for (const auto& entry : *entries) {
    if (!ldcache_is_elf(entry.flags)) continue;
    auto abi = ldcache_abi(entry.flags);
    if (abi == LdCacheAbi::other) continue;
    index.each_prefix_of(entry.key, [&](std::size_t i) {
      consider(entry, links, suffix, abi == LdCacheAbi::native ? native[i] : compat32[i]);
    });
  }
  for (std::size_t i = 0; i < prefixes.size(); ++i) {
    auto& found = inventory.libraries[prefixes[i]];
    if (!native[i].path.empty())
      found.push_back({native[i].soname, join_root(policy.host.driver_root, native[i].path), false});
    else
      inventory.warnings.push_back("library " + prefixes[i] + " not found");
    if (!compat32[i].path.empty())
      found.push_back({compat32[i].soname, join_root(policy.host.driver_root, compat32[i].path), true});
  }
  return ok_status();
}

}  // namespace graft
