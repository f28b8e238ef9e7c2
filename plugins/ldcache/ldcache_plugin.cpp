// SPDX-License-Identifier: Apache-2.0
// The ldcache plugin: executes ldcache_update actions (target: the cache
// file, "/etc/ld.so.cache"; paths: the container's library directories),
// then checks that the new cache lists what the plan expects (content: one
// container path per line, cache_check.hpp). Expected entries outside the
// library directories come first and name an image directory whose
// libraries must win (forward compatibility): the direct writer lists their
// entries first, ldconfig scans them first.
//
// "write" (the default): the cache is written directly, the image's entries
// plus the injected libraries, through fds below the root (direct_cache.hpp);
// nothing is executed. This file is that path, plus a dispatch.
//
// "ldconfig": the host's static ldconfig runs confined to the container root;
// all of it is in ldconfig_method/, entered only through ldconfig_method.hpp
// (prepare in the host's namespace, run in the container's).
//
// verify (`graft verify`, host namespace, either method): the running
// container's cache, read as the check after an update reads it
// (cache_check.hpp), must still list every expected entry with its path.
//
// Config: {"method": "write" | "ldconfig", and for ldconfig: "ldconfig":
//          "/sbin/ldconfig", "timeout_ms": 10000, "cgroup_root": "/sys/fs/cgroup"}.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <cstring>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cache_check.hpp"
#include "direct_cache.hpp"
#include "graft/base/unique_fd.hpp"
#include "ldconfig_method.hpp"
#include "plugin_glue.hpp"
#include "root_mount.hpp"
#include "root_path.hpp"

namespace graft::ldcache {
namespace {

using plugin::Host;

struct Config {
  bool run_ldconfig = false;  // method "ldconfig"; "write" otherwise
  LdconfigConfig ldconfig;    // its keys are read (and checked) whichever method is chosen
};

Result<Config> read_config(const nlohmann::json& json) {
  Config config;
  for (const auto& [key, value] : json.items()) {
    auto ldconfig_key = read_ldconfig_key(key, value, config.ldconfig);
    if (!ldconfig_key.ok()) return ldconfig_key.error();
    if (*ldconfig_key) continue;
    if (key == "method") {
      if (!value.is_string() || (value != "write" && value != "ldconfig"))
        return make_error("ldcache config: \"method\" must be \"write\" or \"ldconfig\"");
      config.run_ldconfig = value == "ldconfig";
    } else {
      return make_error(
          "ldcache config: unknown key \"{}\" (known: method, ldconfig, timeout_ms, cgroup_root)", key);
    }
  }
  return config;
}

// What `entries` list under `soname` instead of the expected path.
std::string listed_instead(const std::vector<LdCacheEntry>& entries, const std::string& soname) {
  std::string found;
  for (const auto& entry : entries)
    if (entry.key == soname) found += (found.empty() ? "" : ", ") + soname + " => " + entry.value;
  return found.empty() ? soname + " not listed" : found;
}

std::string root_name(const graft_apply_context& context) {
  return context.rootfs_path != nullptr && *context.rootfs_path != 0 ? context.rootfs_path
                                                                     : "(unnamed root)";
}

// One step of ensure_directory: `name` inside the already resolved `parent`.
Result<UniqueFd> open_or_make(const Host& host, int root_fd, const std::string& so_far, int parent,
                              const std::string& name, const graft_apply_context& context) {
  int fd = host.resolve_in_root(root_fd, so_far, O_PATH | O_DIRECTORY);
  if (fd >= 0) return UniqueFd(fd);
  if (fd != -ENOENT)
    return make_sys_error(-fd, "{} in {}", so_far, root_name(context));
  // mkdirat with a single name below a resolved fd: nothing is followed. A
  // dangling symlink in the way makes it fail (EEXIST) instead of creating
  // its target.
  if (::mkdirat(parent, name.c_str(), 0755) != 0)
    return make_error("creating {} in {}: {}", so_far, root_name(context),
                      errno == EEXIST ? "exists but does not resolve inside the root"
                                      : std::strerror(errno));
  if ((context.container_uid != 0 || context.container_gid != 0) &&
      ::fchownat(parent, name.c_str(), context.container_uid, context.container_gid,
                 AT_SYMLINK_NOFOLLOW) != 0)
    return make_sys_error(errno, "chown {} in {}", so_far, root_name(context));
  fd = host.resolve_in_root(root_fd, so_far, O_PATH | O_DIRECTORY);
  if (fd < 0) return make_sys_error(-fd, "{} in {}", so_far, root_name(context));
  return UniqueFd(fd);
}

// ldconfig writes <target>~ then renames it, so the directory must exist.
// An image without /etc (scratch images) gets one, made through the host's
// resolve_in_root, one component at a time, never by joining path strings.
// Returns the directory's fd: the cache is checked and written through it.
Result<UniqueFd> ensure_directory(const Host& host, int root_fd, const std::string& dir,
                                  const graft_apply_context& context) {
  int root = host.resolve_in_root(root_fd, "/", O_PATH | O_DIRECTORY);
  if (root < 0) return make_sys_error(-root, "{}", root_name(context));
  UniqueFd current(root);
  std::string so_far;
  for (size_t start = 1; start < dir.size();) {
    size_t end = std::min(dir.find('/', start), dir.size());
    std::string name = dir.substr(start, end - start);
    start = end + 1;
    if (name.empty() || name == ".") continue;
    so_far += "/" + name;
    auto next = open_or_make(host, root_fd, so_far, current.get(), name, context);
    if (!next.ok()) return next.error();
    current = std::move(*next);
  }
  return current;
}

// ldconfig writes the cache next to `target` and makes soname links in each
// library directory: all of them must be on the container root's mount
// (root_mount.hpp), not on a volume an image symlink steers them to. The
// cache's directory is checked on the fd it is then written through (a
// second lookup could meet another directory: a running container can swap
// it in between). A library directory that does not exist is skipped, as
// ldconfig skips it.
Status check_written_dirs(const Host& host, int root_fd, int cache_dir, const graft_action& action,
                          const std::vector<std::string>& preferred) {
  const std::string target = action.target;
  const std::string cache_dir_path = target.substr(0, std::max<size_t>(1, target.rfind('/')));
  if (auto status = plugin::check_target_mount(root_fd, cache_dir, target, cache_dir_path); !status)
    return status;
  std::vector<std::string> dirs = preferred;
  for (const char* const* path = action.paths; path != nullptr && *path != nullptr; ++path)
    dirs.emplace_back(*path);
  for (const auto& path : dirs) {
    int fd = host.resolve_in_root(root_fd, path, O_PATH | O_DIRECTORY);
    if (fd == -ENOENT) continue;
    if (fd < 0) return make_sys_error(-fd, "{}", path);
    UniqueFd dir(fd);
    if (auto status = plugin::check_target_mount(root_fd, dir.get(), path, path); !status)
      return status;
  }
  return ok_status();
}

class LdcachePlugin {
 public:
  LdcachePlugin(const Host& host, Config config) : host_(host) {
    if (config.run_ldconfig) ldconfig_.emplace(host, std::move(config.ldconfig));
  }

  static Result<std::unique_ptr<LdcachePlugin>> create(const Host& host,
                                                       const nlohmann::json& json) {
    auto config = read_config(json);
    if (!config.ok()) return config.error();
    return std::make_unique<LdcachePlugin>(host, std::move(*config));
  }

  // Host mount namespace. Opens this process's /proc/self/fd, through which
  // apply reads the cache back (cache_check.hpp): in a running container's
  // namespace, /proc is the container's and does not know this process.
  // The ldconfig method opens the host's ldconfig here too.
  Status prepare(const graft_action& action, const graft_apply_context& context) {
    UniqueFd own_fds(::open("/proc/self/fd", O_PATH | O_DIRECTORY | O_CLOEXEC));
    if (!own_fds.valid()) return make_sys_error(errno, "/proc/self/fd");
    Prepared prepared{std::move(own_fds), {}};
    if (ldconfig_) {
      auto opened = ldconfig_->prepare(context);
      if (!opened.ok()) return opened.error();
      prepared.ldconfig = std::move(*opened);
    }
    prepared_[action.index] = std::move(prepared);
    return ok_status();
  }

  Status apply(const graft_action& action, const graft_apply_context& context) {
    auto found = prepared_.find(action.index);
    if (found == prepared_.end()) return make_error("not prepared (prepare opens the host ldconfig)");
    Prepared prepared = std::move(found->second);  // used once, closed when apply returns
    prepared_.erase(found);
    if (context.rootfs_fd < 0) return make_error("no container root to update");
    const std::vector<std::string> expected = expected_entries(action);
    for (const auto& entry : expected)
      if (auto checked = plugin::check_plain_container_path(entry, "expected cache entry");
          !checked.ok())
        return checked;
    const std::string& target = action.target;
    auto cache_dir = ensure_directory(host_, context.rootfs_fd, target.substr(0, target.rfind('/')), context);
    if (!cache_dir.ok()) return cache_dir.error();
    const std::vector<std::string> preferred = preferred_dirs(action, expected);
    if (auto checked = check_written_dirs(host_, context.rootfs_fd, cache_dir->get(), action, preferred);
        !checked.ok())
      return checked;
    if (auto updated = update(action, context, prepared, cache_dir->get(), expected); !updated.ok())
      return updated;
    return check_cache(host_, {context.rootfs_fd, prepared.own_fds.get(), root_name(context)},
                       target, expected);
  }

  Status verify(const graft_action& action, const graft_apply_context& context,
                const plugin::Findings& findings) const {
    const std::vector<std::string> expected = expected_entries(action);
    if (expected.empty()) {
      findings.not_checked("the plan names no cache entries to check");
      return ok_status();
    }
    if (context.rootfs_fd < 0) return make_error("no container root to look in");
    UniqueFd own_fds(::open("/proc/self/fd", O_PATH | O_DIRECTORY | O_CLOEXEC));
    if (!own_fds.valid()) return make_sys_error(errno, "/proc/self/fd");
    auto entries = read_cache_entries(
        host_, {context.rootfs_fd, own_fds.get(), root_name(context)}, action.target);
    if (!entries.ok()) {
      findings.drift(fmt::format("a cache listing {} entries ({}, ...)", expected.size(),
                                 soname_of(expected.front())),
                     entries.error().message);
      return ok_status();
    }
    for (const auto& entry : expected)
      if (!lists(*entries, entry))
        findings.drift(soname_of(entry) + " => " + entry, listed_instead(*entries, soname_of(entry)));
    return ok_status();
  }

 private:
  struct Prepared {
    UniqueFd own_fds;                          // /proc/self/fd as the host namespace shows it
    std::optional<LdconfigPrepared> ldconfig;  // method "ldconfig" only
  };

  // The dispatch: the direct writer, unless the policy chose ldconfig.
  Status update(const graft_action& action, const graft_apply_context& context,
                const Prepared& prepared, int cache_dir,
                const std::vector<std::string>& expected) const {
    if (ldconfig_)
      return ldconfig_->run(*prepared.ldconfig, action, context, root_name(context),
                            preferred_dirs(action, expected));
    auto injected = injected_entries(action, expected);
    if (!injected.ok()) return injected.error();
    CacheFile file{cache_dir, prepared.own_fds.get(), root_name(context),
                   static_cast<uid_t>(context.container_uid), static_cast<gid_t>(context.container_gid)};
    return write_cache_directly(host_, file, action.target, std::move(*injected));
  }

  Host host_;
  std::optional<LdconfigMethod> ldconfig_;      // set when the policy chose method "ldconfig"
  std::map<std::uint32_t, Prepared> prepared_;  // by action index, from prepare to apply
};

}  // namespace
}  // namespace graft::ldcache

GRAFT_PLUGIN(graft::ldcache::LdcachePlugin, "ldcache", "1.0", GRAFT_ACTION_LDCACHE_UPDATE)
