#include "runtime_config/runtime_setup.hpp"

#include <sys/stat.h>

#include "runtime_config/containerd_config.hpp"
#include "runtime_config/crio_config.hpp"
#include "runtime_config/docker_config.hpp"
#include "runtime_config/owned_file.hpp"
#include "runtime_config/podman_config.hpp"

namespace graft::runtime_config {
namespace {

constexpr const char* kDropInName = "99-graft.conf";

bool is_directory(const std::string& path) {
  struct stat info {};
  return ::stat(path.c_str(), &info) == 0 && S_ISDIR(info.st_mode);
}

// A drop-in path: the file given, or 99-graft.conf in the directory given.
std::string drop_in_path(const std::string& given, const std::string& usual_dir) {
  if (given.empty()) return usual_dir + "/" + kDropInName;
  if (given.ends_with('/') || is_directory(given))
    return (given.ends_with('/') ? given : given + "/") + kDropInName;
  return given;
}

bool owned_by_graft(const std::string& engine) { return engine == "crio" || engine == "podman"; }

// The new text of the file, and the notes on it.
Result<Setup> edited(const SetupRequest& request, FileChange change) {
  Setup setup{std::move(change), {}, ""};
  auto& after = setup.change.after;
  const auto& before = setup.change.before;
  const auto& engine = request.engine;
  if (engine == "docker" && request.remove) {
    auto removal = docker_removed(before, request.entry);
    if (!removal) return removal.error();
    after = removal->after;
    if (!removal->kept.empty()) setup.kept.push_back(removal->kept);
  } else if (engine == "docker") {
    auto text = docker_configured(before, request.entry);
    if (!text) return text.error();
    after = *text;
  } else if (engine == "containerd" && request.remove) {
    after = containerd_removed(before);
  } else if (engine == "containerd") {
    auto text = containerd_configured(before, request.entry);
    if (!text) return text.error();
    after = *text;
  } else if (request.remove) {
    auto removal = owned_file_removed(before);
    if (!removal) return removal.error();
    after = *removal;
  } else {
    auto text = owned_file_configured(before, engine == "crio" ? crio_drop_in(request.entry)
                                                                : podman_drop_in(request.entry));
    if (!text) return text.error();
    after = *text;
  }
  return setup;
}

// What the admin does once the file is written.
std::string next_step(const SetupRequest& request) {
  const std::string& name = request.entry.name;
  if (request.engine == "docker")
    return "restart dockerd (systemctl restart docker) to load it" +
           (request.remove ? std::string() : "; then docker run --runtime " + name + " ...");
  if (request.engine == "containerd")
    return "restart containerd (systemctl restart containerd) to load it" +
           (request.remove ? std::string() : "; pods choose it with a RuntimeClass of handler: " + name);
  if (request.engine == "crio")
    return "restart CRI-O (systemctl restart crio) to load it" +
           (request.remove ? std::string() : "; pods choose it with a RuntimeClass of handler: " + name);
  return request.remove ? "podman reads it at each command"
                        : "podman --runtime " + name + " run ...; podman's hooks.d file already serves "
                          "every podman container without it";
}

}  // namespace

const std::vector<std::string>& known_engines() {
  static const std::vector<std::string> engines{"docker", "containerd", "crio", "podman"};
  return engines;
}

std::string config_path(const SetupRequest& request) {
  if (request.engine == "docker") return request.config.empty() ? "/etc/docker/daemon.json" : request.config;
  if (request.engine == "containerd")
    return request.config.empty() ? "/etc/containerd/config.toml" : request.config;
  if (request.engine == "crio") return drop_in_path(request.config, "/etc/crio/crio.conf.d");
  return drop_in_path(request.config, "/etc/containers/containers.conf.d");
}

Result<Setup> plan_setup(const SetupRequest& request) {
  auto path = config_path(request);
  auto change = read_config_file(path, owned_by_graft(request.engine) ? FileOwnerKind::graft : FileOwnerKind::admin);
  if (!change) return change.error();
  std::string shown = change->shown;
  auto setup = edited(request, std::move(*change));
  if (!setup) return setup.error().context(shown);
  if (setup->change.changes()) setup->next_step = next_step(request);
  return setup;
}

}  // namespace graft::runtime_config
