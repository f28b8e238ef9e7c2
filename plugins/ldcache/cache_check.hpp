// SPDX-License-Identifier: Apache-2.0
// What ldconfig must have done before an ldcache_update counts as applied:
// the container's cache lists every entry the plan expects (each injected
// library under its soname) and each of those paths still leads to a file.
//
// ldconfig walks the image's directories by path. An image that swaps one of
// them while ldconfig runs can leave the cache without the driver, or have
// ldconfig's own link update remove a link graft made; nothing leaves the
// root, but the container would start without its driver. Checking the
// result turns that into a refusal naming the entry.
#pragma once

#include <string>
#include <vector>

#include "graft/base/error.hpp"
#include "graft/base/ldcache.hpp"
#include "graft/plugin.h"
#include "plugin_glue.hpp"

namespace graft::ldcache {

// The action's expected entries: its content, one container path per line
// (such as "/usr/lib/x86_64-linux-gnu/libcuda.so.1"). Empty when the plan
// expects none (a plan from before the check existed).
std::vector<std::string> expected_entries(const graft_action& action);

// The directories of expected entries that are none of the action's library
// directories (`paths`), in the order the entries name them: directories of
// the image whose libraries the loader must prefer (forward compatibility,
// docs/policy.md). ldconfig scans them first; the direct writer lists their
// entries first, as native libraries.
std::vector<std::string> preferred_dirs(const graft_action& action, const std::vector<std::string>& expected);

// Opens the file behind `path_fd` (an O_PATH fd whose type the caller
// checked) for reading, through its entry in `own_fds` (this process's
// /proc/self/fd, opened in the host namespace): the entry names that very
// inode, so a device node an image swaps in after the check is never opened
// (opening some devices has effects). The container's own /proc, if any,
// does not know this process. A new fd, or -errno.
int reopen_checked(int own_fds, int path_fd);

// Where the check looks.
struct CacheCheck {
  int root_fd = -1;       // the container root (resolve_in_root)
  int own_fds = -1;       // O_PATH fd of this process's /proc/self/fd, opened in the
                          //   host namespace (prepare): the cache is read through it
  std::string root_name;  // the root as a path, for messages only
};

// Reads the cache at `cache_path` inside the root and checks every entry in
// `expected` against it and against the root.
Status check_cache(const plugin::Host& host, const CacheCheck& check, const std::string& cache_path,
                   const std::vector<std::string>& expected);

// The entries of the cache at `cache_path` inside the root, read as
// check_cache reads them: opened O_PATH through resolve_in_root, refused
// unless a regular file, reopened through own_fds, read with a bound and
// parsed by graft_base's checked parser. `when` ends the file's name in
// errors (" after ldconfig ran", or "").
Result<std::vector<LdCacheEntry>> read_cache_entries(const plugin::Host& host,
                                                     const CacheCheck& check,
                                                     const std::string& cache_path,
                                                     const std::string& when = "");

// The soname an expected entry is listed under (its file name).
std::string soname_of(const std::string& entry);

// Whether `entries` list `entry` under its soname with that very path.
bool lists(const std::vector<LdCacheEntry>& entries, const std::string& entry);

}  // namespace graft::ldcache
