// SPDX-License-Identifier: Apache-2.0
// dlopen and descriptor validation. The descriptor is read field by field
// only after struct_size proves the plugin has that field, so an old or
// truncated descriptor is refused instead of read past its end.
#include "plugin_host/plugin_loader.hpp"

#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <cstring>
#include <dirent.h>
#include <dlfcn.h>

#include "watchdog/plugin_crash_handlers.hpp"
#include "watchdog/running_note.hpp"
#include "graft/engine/install_dirs.hpp"
#include "plugin_host/action_view.hpp"
#include "plugin_host/plugin_file.hpp"
#include "policy/policy.hpp"

namespace graft {

namespace {

// The host reads every member up to and including last_error; the members
// after it are optional (NULL when struct_size ends before them).
constexpr std::size_t kRequiredSize = offsetof(graft_plugin, last_error) + sizeof(void*);

struct DlCloser {
  void operator()(void* handle) const { dlclose(handle); }
};
using DlHandle = std::unique_ptr<void, DlCloser>;

// A newer minor may count on members or calls this host lacks (plugin.h,
// "Versioning"), so only the host's own minor and older ones load.
Status check_version(const std::string& path, const graft_plugin& d) {
  if (d.abi_major != GRAFT_PLUGIN_ABI_MAJOR)
    return make_error("plugin {}: ABI {}.{}, this graft speaks {}.x", path, d.abi_major,
                      d.abi_minor, GRAFT_PLUGIN_ABI_MAJOR);
  if (d.abi_minor > GRAFT_PLUGIN_ABI_MINOR)
    return make_error("plugin {}: ABI {}.{}, this graft speaks {}.0 to {}.{}", path, d.abi_major,
                      d.abi_minor, GRAFT_PLUGIN_ABI_MAJOR, GRAFT_PLUGIN_ABI_MAJOR,
                      GRAFT_PLUGIN_ABI_MINOR);
  return ok_status();
}

// The slot that was `expand` must be NULL (plugin.h says why).
bool sets_reserved(const graft_plugin& d) {
  return d.struct_size >= offsetof(graft_plugin, reserved) + sizeof d.reserved &&
         d.reserved != nullptr;
}

Status check_header(const std::string& path, const graft_plugin& d, const std::string& name) {
  if (auto version = check_version(path, d); !version) return version;
  if (d.struct_size < kRequiredSize)
    return make_error("plugin {}: descriptor is {} bytes, this graft needs at least {}", path,
                      d.struct_size, kRequiredSize);
  if (sets_reserved(d))
    return make_error("plugin {}: sets the reserved member after last_error (was expand, "
                      "never called); it must be NULL", path);
  if (d.name == nullptr || name != d.name)
    return make_error("plugin {}: calls itself '{}', expected '{}'", path,
                      d.name ? d.name : "(null)", name);
  return ok_status();
}

Result<std::vector<ActionKind>> check_functions(const std::string& path, const graft_plugin& d) {
  if (d.init == nullptr || d.destroy == nullptr || d.last_error == nullptr)
    return make_error("plugin {}: missing init, destroy or last_error function", path);
  if (d.kind_count > 0 && d.kinds == nullptr)
    return make_error("plugin {}: claims {} kinds but lists none", path, d.kind_count);
  std::vector<ActionKind> kinds;
  for (std::uint32_t i = 0; i < d.kind_count; ++i) {
    auto kind = from_abi_kind(d.kinds[i]);
    if (!kind) return make_error("plugin {}: claims unknown action kind {}", path, d.kinds[i]);
    if (d.apply == nullptr)
      return make_error("plugin {}: claims {} but has no apply function", path, to_string(*kind));
    kinds.push_back(*kind);
  }
  return kinds;
}

// The entry symbol's descriptor, or why there is none.
Result<const graft_plugin*> entry_descriptor(const std::string& path, void* handle) {
  dlerror();  // clear: a NULL symbol value is only an error if dlerror says so
  void* symbol = dlsym(handle, GRAFT_PLUGIN_ENTRY_SYMBOL);
  if (symbol == nullptr)
    return make_error("plugin {}: no {} symbol", path, GRAFT_PLUGIN_ENTRY_SYMBOL);
  auto entry = reinterpret_cast<graft_plugin_entry_fn>(symbol);
  const graft_plugin* descriptor = nullptr;
  try {
    descriptor = entry();
  } catch (...) {
    return make_error("plugin {}: {} threw an exception", path, GRAFT_PLUGIN_ENTRY_SYMBOL);
  }
  if (descriptor == nullptr)
    return make_error("plugin {}: {} returned no descriptor", path, GRAFT_PLUGIN_ENTRY_SYMBOL);
  return descriptor;
}

struct OpenedPlugin {
  DlHandle handle;
  const graft_plugin* descriptor;
};

// dlopen runs the plugin's constructors and the entry symbol is its code:
// both are named should they crash or overrun the deadline.
Result<OpenedPlugin> open_plugin(const std::string& path, int fd) {
  PluginCrashHandlers crash_handlers;
  PluginCallNote note(path, "load");
  // Load the inode we checked, not whatever the name points at by now.
  std::string via_fd = "/proc/self/fd/" + std::to_string(fd);
  DlHandle handle(dlopen(via_fd.c_str(), RTLD_NOW | RTLD_LOCAL));
  if (!handle) {
    const char* why = dlerror();
    return make_error("plugin {}: {}", path, why ? why : "dlopen failed");
  }
  auto descriptor = entry_descriptor(path, handle.get());
  if (!descriptor) return descriptor.error();
  return OpenedPlugin{std::move(handle), *descriptor};
}

Result<std::unique_ptr<LoadedPlugin>> load_plugin(TrustedDirs& dirs, const std::string& dir,
                                                  const std::string& name,
                                                  const std::string& config_json) {
  auto file = open_plugin_file(dirs, dir, name);
  if (!file) return file.error();
  std::string path = dir + "/" + plugin_file_name(name);
  auto opened = open_plugin(path, file->get());
  if (!opened) return opened.error();
  const graft_plugin* descriptor = opened->descriptor;
  if (auto header = check_header(path, *descriptor, name); !header) return header.error();
  auto kinds = check_functions(path, *descriptor);
  if (!kinds) return kinds.error();
  auto plugin = std::make_unique<LoadedPlugin>(path, opened->handle.release(), descriptor,
                                               std::move(kinds).value());
  plugin->keep_loaded_from(std::move(file).value());
  if (auto started = plugin->init(config_json); !started) return started.error();
  return plugin;
}

}  // namespace

Result<std::unique_ptr<LoadedPlugin>> load_plugin(const std::string& dir, const std::string& name,
                                                  const std::string& config_json) {
  TrustedDirs dirs;
  return load_plugin(dirs, dir, name, config_json);
}

std::string plugin_dir_of(const Policy& policy) {
  return policy.plugin_dir.empty() ? install_dirs().plugins : policy.plugin_dir;
}

namespace {

// Plugin names of every lib<name>.so in dir, sorted.
Result<std::vector<std::string>> plugins_in(const std::string& dir) {
  std::unique_ptr<DIR, int (*)(DIR*)> listing(::opendir(dir.c_str()), ::closedir);
  if (!listing) return make_sys_error(errno, "plugin directory {}: cannot be listed", dir);
  std::vector<std::string> names;
  while (const dirent* entry = ::readdir(listing.get())) {
    std::string_view file = entry->d_name;
    if (file.size() > 6 && file.starts_with("lib") && file.ends_with(".so"))
      names.emplace_back(file.substr(3, file.size() - 6));
  }
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace

Result<PluginSet> load_plugins(const Policy& policy) {
  std::string dir = plugin_dir_of(policy);
  std::vector<std::string> names = policy.plugins;
  if (names.empty()) {
    auto found = plugins_in(dir);
    if (!found) return found.error();
    names = std::move(found).value();
  }
  // Once for every plugin: the directory's checks, and the crash handlers
  // (each load and init would otherwise install and restore its own).
  TrustedDirs dirs;
  PluginCrashHandlers crash_handlers;
  PluginSet set;
  for (const auto& name : names) {
    auto config = policy.plugin_config.find(name);
    auto plugin = load_plugin(dirs, dir, name,
                              config == policy.plugin_config.end() ? "{}" : config->second.dump());
    if (!plugin) return plugin.error();
    if (auto added = set.add(std::move(plugin).value()); !added) return added.error();
  }
  return set;
}

}  // namespace graft
