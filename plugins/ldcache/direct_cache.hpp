// SPDX-License-Identifier: Apache-2.0
// Writing the container's ld.so.cache directly (the plugin's default
// method): the image's cache is read inside the root, the injected
// libraries are added (graft_base's ldcache_write.hpp, as ldconfig orders
// them), and the new file is written beside the old one and renamed over
// it, through fds below the root; nothing is executed. An image whose cache
// cannot be read gets a cache of the injected libraries only (ldconfig
// would rebuild it from the image's directories; see docs/plugins.md).
#pragma once

#include <sys/types.h>

#include <string>
#include <vector>

#include "graft/base/error.hpp"
#include "graft/base/ldcache.hpp"
#include "graft/plugin.h"
#include "plugin_glue.hpp"

namespace graft::ldcache {

// The cache entries the plan expects (container paths, cache_check.hpp),
// each with the flags of its directory's ABI: the action's first library
// directory is native, its second the 32-bit one. Entries in neither name a
// directory the image ships whose libraries must win (preferred_dirs in
// cache_check.hpp): native, and only allowed before all the others.
Result<std::vector<LdCacheEntry>> injected_entries(const graft_action& action,
                                                   const std::vector<std::string>& expected);

struct CacheFile {
  int dir_fd = -1;        // the cache's directory inside the container root, as
                          //   the plugin checked it (on the root's mount): the
                          //   file is read and written through it, never looked up again
  int own_fds = -1;       // O_PATH fd of this process's /proc/self/fd (host namespace)
  std::string root_name;  // for messages only
  uid_t uid = 0;          // the new file's owner: the container's root
  gid_t gid = 0;
};

// Replaces `cache_path`'s file in `file.dir_fd` with the image's entries
// plus `injected`. The directory must be on the root's mount (the plugin
// checks it on that fd first).
Status write_cache_directly(const plugin::Host& host, const CacheFile& file, const std::string& cache_path,
                            std::vector<LdCacheEntry> injected);

}  // namespace graft::ldcache
