// SPDX-License-Identifier: Apache-2.0
// Builds a Request from an OCI bundle's config.json. Only the fields graft
// needs are read, each checked for type, so a malformed config is one clear
// error instead of a crash.
#include <filesystem>
#include <nlohmann/json.hpp>

#include "paths/paths.hpp"
#include "graft/base/bounded_read.hpp"
#include "request/request.hpp"

namespace graft {
namespace {

using json = nlohmann::json;

constexpr int cap_sys_admin_bit = 21;  // capability(7) number, used for the pre-1.0 list form

// json::value() throws on a type mismatch; a hostile config must not get that far.
std::string string_field(const json& object, const char* key) {
  auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

bool bool_field(const json& object, const char* key) {
  auto it = object.find(key);
  return it != object.end() && it->is_boolean() && it->get<bool>();
}

Status read_env(const json& process, Request& request) {
  auto env = process.find("env");
  if (env == process.end() || env->is_null()) return ok_status();
  if (!env->is_array()) return make_error("process.env: expected an array");
  for (const auto& entry : *env) {
    if (!entry.is_string()) return make_error("process.env: expected strings");
    const auto& text = entry.get_ref<const std::string&>();
    auto eq = text.find('=');
    if (eq == std::string::npos || eq == 0) continue;  // runc ignores these too
    request.env[text.substr(0, eq)] = text.substr(eq + 1);
  }
  return ok_status();
}

bool has_sys_admin(const json& list) {
  if (!list.is_array()) return false;
  for (const auto& cap : list) {
    if (cap.is_string() && cap.get<std::string>() == "CAP_SYS_ADMIN") return true;
    if (cap.is_number_integer() && cap.get<long>() == cap_sys_admin_bit) return true;
  }
  return false;
}

// Privileged means CAP_SYS_ADMIN in the bounding set; pre-1.0.0-rc5 configs
// had a flat list instead of the per-set object.
bool read_privileged(const json& process) {
  auto caps = process.find("capabilities");
  if (caps == process.end()) return false;
  if (caps->is_array()) return has_sys_admin(*caps);
  if (caps->is_object() && caps->contains("bounding")) return has_sys_admin((*caps)["bounding"]);
  return false;
}

Status read_annotations(const json& config, Request& request) {
  auto annotations = config.find("annotations");
  if (annotations == config.end() || annotations->is_null()) return ok_status();
  if (!annotations->is_object()) return make_error("annotations: expected an object");
  for (const auto& [key, value] : annotations->items()) {
    if (!value.is_string()) return make_error("annotations.{}: expected a string", key);
    request.annotations[key] = value.get<std::string>();
  }
  return ok_status();
}

Status read_mounts(const json& config, Request& request) {
  auto mounts = config.find("mounts");
  if (mounts == config.end() || mounts->is_null()) return ok_status();
  if (!mounts->is_array()) return make_error("mounts: expected an array");
  for (const auto& mount : *mounts) {
    if (!mount.is_object()) return make_error("mounts: expected objects");
    RequestMount entry;
    entry.destination = string_field(mount, "destination");
    entry.source = string_field(mount, "source");
    entry.type = string_field(mount, "type");
    if (auto options = mount.find("options"); options != mount.end() && options->is_array())
      for (const auto& option : *options)
        if (option.is_string()) entry.options.push_back(option.get<std::string>());
    request.mounts.push_back(std::move(entry));
  }
  return ok_status();
}

// linux.devices[].path: the nodes the runtime will make (CDI deviceNodes end
// up here), which `graft cdi-hook --procfs-bind-if` tests.
void read_device_paths(const json& linux_section, Request& request) {
  auto devices = linux_section.find("devices");
  if (devices == linux_section.end() || !devices->is_array()) return;
  for (const auto& device : *devices)
    if (device.is_object()) request.device_paths.push_back(string_field(device, "path"));
}

Status read_root(const json& config, const std::string& bundle, Request& request) {
  auto root = config.find("root");
  if (root == config.end() || !root->is_object() || !root->contains("path") ||
      !(*root)["path"].is_string())
    return make_error("root.path: missing");
  std::string path = (*root)["path"].get<std::string>();
  request.rootfs = path.starts_with('/') ? normalize_path(path) : join_root(bundle, path);
  request.rootfs_readonly = bool_field(*root, "readonly");
  return ok_status();
}

// A parser callback keeping only the parts of config.json that parse_config
// reads. The rest (a seccomp profile alone is hundreds of strings, most of a
// container engine's config) is parsed but never built into the document:
// for a 14 KB config with a seccomp profile, 2.2 M instructions became 1.8 M,
// the rest being nlohmann's lexer.
class ConfigSections {
 public:
  bool operator()(int depth, json::parse_event_t event, json& parsed) {
    if (event != json::parse_event_t::key) return true;
    const auto& key = parsed.get_ref<const std::string&>();
    if (depth == 1) {
      section_ = key;
      return key == "root" || key == "process" || key == "annotations" || key == "mounts" ||
             key == "linux";
    }
    if (depth != 2) return true;
    if (section_ == "process") return key == "env" || key == "capabilities";
    if (section_ == "linux") return key == "cgroupsPath" || key == "devices";
    return true;
  }

 private:
  std::string section_;  // the top-level key whose value is being parsed
};

Result<Request> parse_config(const json& config, const std::string& bundle) {
  if (!config.is_object()) return make_error("expected a JSON object");
  Request request;
  request.bundle = bundle;
  if (auto status = read_root(config, bundle, request); !status) return status.error();
  if (auto process = config.find("process"); process != config.end() && process->is_object()) {
    if (auto status = read_env(*process, request); !status) return status.error();
    request.privileged = read_privileged(*process);
  }
  if (auto status = read_annotations(config, request); !status) return status.error();
  if (auto status = read_mounts(config, request); !status) return status.error();
  if (auto linux_section = config.find("linux");
      linux_section != config.end() && linux_section->is_object()) {
    request.cgroups_path = string_field(*linux_section, "cgroupsPath");
    read_device_paths(*linux_section, request);
  }
  return request;
}

}  // namespace

Result<Request> parse_bundle_config(std::string_view text, const std::string& bundle) {
  json config = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (config.is_discarded()) return make_error("not valid JSON");
  return parse_config(config, normalize_path(bundle));
}

Result<Request> request_from_bundle(const std::string& bundle, const std::string& container_id,
                                    int pid) {
  if (!bundle.starts_with('/')) {
    // Relative to where we were started, like any command-line path.
    std::error_code error;
    auto absolute = std::filesystem::absolute(bundle, error);
    if (error) return make_error("bundle {}: {}", bundle, error.message());
    return request_from_bundle(absolute.string(), container_id, pid);
  }
  std::string config_path = join_root(bundle, "/config.json");
  auto text = read_file(config_path, 64u << 20);
  if (!text) return text.error();
  auto request = parse_bundle_config(*text, bundle);
  if (!request) return request.error().context(config_path);
  request->container_id = container_id;
  request->pid = pid;
  request->layout = read_image_layout(request->rootfs);
  return request;
}

}  // namespace graft
