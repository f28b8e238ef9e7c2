// The ldcache plugin: executes ldcache_update actions (target: the cache
// file, "/etc/ld.so.cache"; paths: the container's library directories),
// then checks that the new cache lists what the plan expects (content: one
// container path per line, cache_check.hpp). Expected entries outside the
// library directories come first and name an image directory whose
// libraries must win (forward compatibility): ldconfig scans it first, the
// direct writer lists its entries first. Two methods, by config:
//
// "write" (the default): the cache is written directly, the image's entries
// plus the injected libraries, through fds below the root (direct_cache.hpp);
// nothing is executed.
//
// "ldconfig": the host's static ldconfig runs confined to the container root.
//   prepare (host mount ns): seal the host ldconfig into a memfd; find the
//     container's device cgroup and read its uid and gid maps from its pid.
//   apply (container mount ns): make sure the cache's directory exists in the
//     root, then run `ldconfig -f /etc/ld.so.conf -C <target> <paths...>`
//     from the memfd, chrooted into the root, inside the container's device
//     cgroup, as an identity the container maps (confined_run.hpp,
//     child_identity.hpp), and check the cache it wrote.
//
// Without a container pid (`graft apply` on a bare root) there is no cgroup
// to join and no map to check: ldconfig runs outside any device cgroup,
// where nodev alone keeps it from opening device nodes, as the root's
// owner (a debug line says so). With a pid whose cgroup or maps cannot be
// found, the action is refused.
//
// No binary of the image is ever executed, and ldconfig reads the image's
// own /etc/ld.so.conf only from inside the chroot.
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
#include <chrono>
#include <cstddef>
#include <cstring>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <memory>
#include <string>
#include <vector>

#include "cache_check.hpp"
#include "confined_run.hpp"
#include "container_cgroup.hpp"
#include "container_process.hpp"
#include "child_identity.hpp"
#include "direct_cache.hpp"
#include "graft/base/unique_fd.hpp"
#include "plugin_glue.hpp"
#include "root_mount.hpp"
#include "sealed_binary.hpp"

namespace graft::ldcache {
namespace {

using plugin::Host;

constexpr long long kMaxTimeoutMs = 10 * 60 * 1000;

struct Config {
  bool run_ldconfig = false;  // method "ldconfig"; "write" otherwise
  std::string ldconfig = "/sbin/ldconfig";
  std::chrono::milliseconds timeout{10000};
  std::string cgroup_root = "/sys/fs/cgroup";
};

Result<Config> read_config(const nlohmann::json& json) {
  Config config;
  for (const auto& [key, value] : json.items()) {
    if (key == "ldconfig" || key == "cgroup_root") {
      if (!value.is_string() || value.get<std::string>().empty() ||
          value.get<std::string>().front() != '/')
        return make_error("ldcache config: \"{}\" must be an absolute host path", key);
      (key == "ldconfig" ? config.ldconfig : config.cgroup_root) = value.get<std::string>();
    } else if (key == "timeout_ms") {
      if (!value.is_number_integer() || value.get<long long>() < 1 ||
          value.get<long long>() > kMaxTimeoutMs)
        return make_error("ldcache config: \"timeout_ms\" must be an integer from 1 to {}",
                          kMaxTimeoutMs);
      config.timeout = std::chrono::milliseconds(value.get<long long>());
    } else if (key == "method") {
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

// Container paths handed to ldconfig: absolute, no "..", nothing that could
// be read as an option or split a line. (The chroot confines them anyway;
// this keeps a bad plan from reaching ldconfig at all.)
Status check_container_path(const std::string& path, const char* what) {
  bool ok = !path.empty() && path.front() == '/' && path.find("/../") == std::string::npos &&
            !path.ends_with("/..");
  for (char c : path) ok = ok && static_cast<unsigned char>(c) >= 0x20;
  if (!ok) return make_error("{} '{}' is not a plain absolute container path", what, path);
  return ok_status();
}

// What `entries` list under `soname` instead of the expected path.
std::string listed_instead(const std::vector<LdCacheEntry>& entries, const std::string& soname) {
  std::string found;
  for (const auto& entry : entries)
    if (entry.key == soname) found += (found.empty() ? "" : ", ") + soname + " => " + entry.value;
  return found.empty() ? soname + " not listed" : found;
}

// Read, then confirmed through the pidfd: a reused pid's maps are not the container's.
Result<std::vector<IdRange>> read_id_map(int pid, int pidfd, const char* which) {
  auto text = plugin::read_container_proc(pidfd, pid, which, which);
  if (!text.ok()) return text.error();
  auto map = parse_id_map(*text);
  if (!map.ok()) return map.error().context(fmt::format("/proc/{}/{}", pid, which));
  return map;
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
    return make_error("{} in {}: {}", so_far, root_name(context), std::strerror(-fd));
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
    return make_error("chown {} in {}: {}", so_far, root_name(context), std::strerror(errno));
  fd = host.resolve_in_root(root_fd, so_far, O_PATH | O_DIRECTORY);
  if (fd < 0) return make_error("{} in {}: {}", so_far, root_name(context), std::strerror(-fd));
  return UniqueFd(fd);
}

// ldconfig writes <target>~ then renames it, so the directory must exist.
// An image without /etc (scratch images) gets one, made through the host's
// resolve_in_root, one component at a time, never by joining path strings.
// Returns the directory's fd: the cache is checked and written through it.
Result<UniqueFd> ensure_directory(const Host& host, int root_fd, const std::string& dir,
                                  const graft_apply_context& context) {
  int root = host.resolve_in_root(root_fd, "/", O_PATH | O_DIRECTORY);
  if (root < 0) return make_error("{}: {}", root_name(context), std::strerror(-root));
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
    if (fd < 0) return make_error("{}: {}", path, std::strerror(-fd));
    UniqueFd dir(fd);
    if (auto status = plugin::check_target_mount(root_fd, dir.get(), path, path); !status)
      return status;
  }
  return ok_status();
}

class LdcachePlugin {
 public:
  LdcachePlugin(const Host& host, Config config) : host_(host), config_(std::move(config)) {}

  static Result<std::unique_ptr<LdcachePlugin>> create(const Host& host,
                                                       const nlohmann::json& json) {
    auto config = read_config(json);
    if (!config.ok()) return config.error();
    return std::make_unique<LdcachePlugin>(host, std::move(*config));
  }

  // Host mount namespace: the only place the host's ldconfig is opened.
  // Also opens this process's /proc/self/fd, through which apply reads the
  // cache back (cache_check.hpp): in a running container's namespace, /proc
  // is the container's and does not know this process.
  Status prepare(const graft_action& action, const graft_apply_context& context) {
    UniqueFd own_fds(::open("/proc/self/fd", O_PATH | O_DIRECTORY | O_CLOEXEC));
    if (!own_fds.valid()) return make_error("/proc/self/fd: {}", std::strerror(errno));
    if (!config_.run_ldconfig) {
      prepared_[action.index] = Prepared{{}, std::move(own_fds), {}};
      return ok_status();
    }
    auto sealed = seal_host_binary(config_.ldconfig);
    if (!sealed.ok()) return sealed.error().context("ldconfig");
    Prepared prepared{std::move(*sealed), std::move(own_fds), {}};
    if (auto found = find_container(plugin::pid_of(context), plugin::pidfd_of(context)); found.ok())
      prepared.container = std::move(*found);
    else
      return found.error();
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
      if (auto checked = check_container_path(entry, "expected cache entry"); !checked.ok())
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
    if (!own_fds.valid()) return make_error("/proc/self/fd: {}", std::strerror(errno));
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
  struct Prepared;

  Status update(const graft_action& action, const graft_apply_context& context, Prepared& prepared,
                int cache_dir, const std::vector<std::string>& expected) const {
    if (!config_.run_ldconfig) {
      auto injected = injected_entries(action, expected);
      if (!injected.ok()) return injected.error();
      CacheFile file{cache_dir, prepared.own_fds.get(), root_name(context),
                     static_cast<uid_t>(context.container_uid), static_cast<gid_t>(context.container_gid)};
      return write_cache_directly(host_, file, action.target, std::move(*injected));
    }
    auto command = command_for(action, context, prepared.exe.get(), preferred_dirs(action, expected));
    if (!command.ok()) return command.error();
    if (auto joined = use_container(prepared.container, context, *command); !joined.ok()) return joined;
    return run_confined(*command);
  }

  // What prepare learns of the container from its pid, in the host's
  // namespaces: its device cgroup (opened; on v1 its cgroup.procs too) and
  // its id maps. Absent without a pid.
  struct Container {
    cgroup::ContainerCgroup cgroup;
    UniqueFd procs;  // v1: cgroup.procs of the devices cgroup, for writing
    std::vector<IdRange> uid_map, gid_map;
  };

  Result<std::optional<Container>> find_container(int pid, int pidfd) const {
    if (pid <= 0) {
      host_.debug("no container pid: ldconfig runs outside any device cgroup (nodev alone "
                  "keeps it from device nodes), as the root's owner");
      return std::optional<Container>();
    }
    auto cgroup = cgroup::find_container_cgroup(pid, pidfd, config_.cgroup_root);
    if (!cgroup.ok())
      return cgroup.error().context("ldconfig must run in the container's device cgroup");
    Container container{std::move(*cgroup), {}, {}, {}};
    if (container.cgroup.mode == cgroup::CgroupMode::v1) {
      container.procs = UniqueFd(::openat(container.cgroup.dir.get(), "cgroup.procs",
                                          O_WRONLY | O_CLOEXEC | O_NOFOLLOW));
      if (!container.procs.valid())
        return make_error("ldconfig must run in the container's device cgroup: {}/cgroup.procs: {}",
                          container.cgroup.path, std::strerror(errno));
    }
    auto uids = read_id_map(pid, pidfd, "uid_map");
    if (!uids.ok()) return uids.error();
    auto gids = read_id_map(pid, pidfd, "gid_map");
    if (!gids.ok()) return gids.error();
    container.uid_map = std::move(*uids);
    container.gid_map = std::move(*gids);
    return std::optional<Container>(std::move(container));
  }

  // The container's cgroup and an identity its user namespace maps.
  Status use_container(const std::optional<Container>& container,
                       const graft_apply_context& context, ConfinedCommand& command) const {
    if (!container) return ok_status();
    auto identity = child_identity(command.uid, command.gid, container->uid_map, container->gid_map);
    if (!identity.ok()) return identity.error().context(root_name(context));
    if (identity->fell_back)
      host_.debug(fmt::format("the owner {}:{} of {} is not mapped by the container's user "
                              "namespace: ldconfig runs as the container's root, {}:{}",
                              command.uid, command.gid, root_name(context), identity->uid,
                              identity->gid));
    command.uid = identity->uid;
    command.gid = identity->gid;
    command.cgroup_name = container->cgroup.path;
    if (container->cgroup.mode == cgroup::CgroupMode::v2)
      command.cgroup_dir_fd = container->cgroup.dir.get();
    else
      command.cgroup_procs_fd = container->procs.get();
    return ok_status();
  }

  // argv as libnvidia-container builds it: explicit -f/-C because the host's
  // ldconfig may have been built with another prefix. Preferred directories
  // come first: ldconfig lists what it scans first first among equal sonames.
  Result<ConfinedCommand> command_for(const graft_action& action, const graft_apply_context& context,
                                      int exe, const std::vector<std::string>& preferred) const {
    if (auto checked = check_container_path(action.target, "target"); !checked.ok())
      return checked.error();
    ConfinedCommand command{.exe_fd = exe,
                            .root_fd = context.rootfs_fd,
                            .root_name = root_name(context),
                            .argv = {"ldconfig", "-f", "/etc/ld.so.conf", "-C", action.target},
                            .uid = static_cast<uid_t>(context.container_uid),
                            .gid = static_cast<gid_t>(context.container_gid),
                            .timeout = config_.timeout};
    for (const auto& dir : preferred) {
      if (auto checked = check_container_path(dir, "preferred library directory"); !checked.ok())
        return checked.error();
      command.argv.push_back(dir);
    }
    for (const char* const* path = action.paths; path != nullptr && *path != nullptr; ++path) {
      if (auto checked = check_container_path(*path, "library directory"); !checked.ok())
        return checked.error();
      command.argv.emplace_back(*path);
    }
    return command;
  }

  Host host_;
  Config config_;
  struct Prepared {
    UniqueFd exe;      // the sealed host ldconfig (method "ldconfig")
    UniqueFd own_fds;  // /proc/self/fd as the host namespace shows it
    std::optional<Container> container;  // none without a container pid
  };
  std::map<std::uint32_t, Prepared> prepared_;  // by action index, from prepare to apply
};

}  // namespace
}  // namespace graft::ldcache

GRAFT_PLUGIN(graft::ldcache::LdcachePlugin, "ldcache", "1.0", GRAFT_ACTION_LDCACHE_UPDATE)
