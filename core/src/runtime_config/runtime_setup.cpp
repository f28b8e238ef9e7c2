// SPDX-License-Identifier: Apache-2.0
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

// The file's new text (nullopt: it goes) for each engine; `kept` gets a
// line for what --remove left, and why.
using NewText = Result<std::optional<std::string>>;

NewText docker_text(const SetupRequest& request, const std::optional<std::string>& before,
                    std::vector<std::string>& kept) {
  if (!request.remove) {
    auto text = docker_configured(before, request.entry);
    if (!text) return text.error();
    return std::optional<std::string>(*text);
  }
  auto removal = docker_removed(before, request.entry);
  if (!removal) return removal.error();
  if (!removal->kept.empty()) kept.push_back(removal->kept);
  return removal->after;
}

NewText containerd_text(const SetupRequest& request, const std::optional<std::string>& before) {
  if (request.remove) return containerd_removed(before);
  auto text = containerd_configured(before, request.entry);
  if (!text) return text.error();
  return std::optional<std::string>(*text);
}

NewText drop_in_text(const SetupRequest& request, const std::optional<std::string>& before) {
  if (request.remove) return owned_file_removed(before);
  auto text = owned_file_configured(
      before, request.engine == "crio" ? crio_drop_in(request.entry) : podman_drop_in(request.entry));
  if (!text) return text.error();
  return std::optional<std::string>(*text);
}

Result<Setup> edited(const SetupRequest& request, FileChange change) {
  Setup setup{std::move(change), {}, ""};
  const auto& before = setup.change.before;
  auto after = request.engine == "docker"       ? docker_text(request, before, setup.kept)
               : request.engine == "containerd" ? containerd_text(request, before)
                                                : drop_in_text(request, before);
  if (!after) return after.error();
  setup.change.after = std::move(*after);
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
