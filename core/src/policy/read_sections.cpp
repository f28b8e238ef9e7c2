// SPDX-License-Identifier: Apache-2.0
// The top level of a policy file and its small sections: host roots, plugins,
// request trust, defaults, rules and rule modules, limits, the runtime shim,
// audit, CDI and free-form data.
#include "policy/read_sections.hpp"
#include "policy/member_readers.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <optional>

#include <fmt/format.h>

#include "cdi_format/cdi_names.hpp"
#include "policy/data_schema.hpp"
#include "policy/key_reader.hpp"

namespace graft::policy_parse {
namespace {

Status read_root(const TomlField& field, std::string& into, const FileContext& file) {
  auto value = as_string(field);
  if (!value) return value.error();
  if (value->empty()) return field.error("must not be empty; \"/\" means the host itself");
  into = resolve_path(file, *value);
  return ok_status();
}

constexpr KeyReader<HostRoots> kHostReaders[] = {
    {"driver_root", [](const TomlField& f, HostRoots& h, const FileContext& c) { return read_root(f, h.driver_root, c); }},
    {"dev_root", [](const TomlField& f, HostRoots& h, const FileContext& c) { return read_root(f, h.dev_root, c); }},
    {"proc_root", [](const TomlField& f, HostRoots& h, const FileContext& c) { return read_root(f, h.proc_root, c); }},
    {"sys_root", [](const TomlField& f, HostRoots& h, const FileContext& c) { return read_root(f, h.sys_root, c); }},
    {"run_root", [](const TomlField& f, HostRoots& h, const FileContext& c) { return read_root(f, h.run_root, c); }},
};

Status read_host(const TomlField& field, Policy& policy, const FileContext& file) {
  return read_table(field, kHostReaders, policy.host, file);
}

Status read_plugin_dir(const TomlField& field, Policy& policy, const FileContext& file) {
  auto value = as_string(field);
  if (!value) return value.error();
  policy.plugin_dir = value->empty() ? "" : resolve_path(file, *value);
  return ok_status();
}

Status read_plugin_enable(const TomlField& field, Policy& policy, const FileContext&) {
  auto names = as_string_list(field);
  if (!names) return names.error();
  policy.plugins = std::move(*names);
  return ok_status();
}

nlohmann::json to_json(const toml::node& node);  // below, with [data]

// [plugins.config.NAME] is handed to plugin NAME's init as a JSON object; its
// keys are the plugin's to check, so they merge like [data].
Status read_plugin_config(const TomlField& field, Policy& policy, const FileContext&) {
  auto table = as_table(field);
  if (!table) return table.error();
  for (const auto& [name, value] : **table) {
    TomlField plugin = field.child(name.str(), value);
    auto config = as_table(plugin);
    if (!config) return config.error();
    policy.plugin_config[std::string(name.str())].merge_patch(to_json(**config));
  }
  return ok_status();
}

constexpr KeyReader<Policy> kPluginReaders[] = {
    {"dir", read_plugin_dir},
    {"enable", read_plugin_enable},
    {"config", read_plugin_config},
};

constexpr std::string_view kChannels[] = {"env", "volume-mounts", "annotations"};

Status read_channels(const TomlField& field, std::set<std::string>& into) {
  auto list = as_sourced_list(field);
  if (!list) return list.error();
  std::set<std::string> channels;
  for (std::size_t i = 0; i < list->size(); ++i) {
    const auto& name = (*list)[i];
    if (std::find(std::begin(kChannels), std::end(kChannels), name.value) == std::end(kChannels)) {
      return error_at(name.origin, fmt::format("{}[{}]", field.key, i),
                      fmt::format("unknown request channel '{}'{}", name.value,
                                  did_you_mean(name.value, kChannels)));
    }
    channels.insert(name.value);
  }
  into = std::move(channels);
  return ok_status();
}

constexpr KeyReader<Policy> kRequestReaders[] = {
    {"privileged", [](const TomlField& f, Policy& p, const FileContext&) { return read_channels(f, p.trusted_privileged); }},
    {"unprivileged", [](const TomlField& f, Policy& p, const FileContext&) { return read_channels(f, p.trusted_unprivileged); }},
};

Status read_default_capabilities(const TomlField& field, Policy& policy, const FileContext&) {
  auto list = as_sourced_list(field);
  if (!list) return list.error();
  policy.default_capabilities = std::move(*list);
  return ok_status();
}

constexpr KeyReader<Policy> kDefaultsReaders[] = {
    {"capabilities", read_default_capabilities},
};

// Rules accumulate across files (vendor first) rather than replace, so a site
// adds its own rules without restating the vendor's.
Status read_rules(const TomlField& field, Policy& policy, const FileContext& file) {
  auto list = as_sourced_list(field);
  if (!list) return list.error();
  for (auto& rule : *list) {
    rule.value = resolve_path(file, rule.value);
    auto same = [&](const SourcedString& known) { return known.value == rule.value; };
    if (std::none_of(policy.rules.begin(), policy.rules.end(), same)) {
      policy.rules.push_back(std::move(rule));
    }
  }
  return ok_status();
}

// Modules accumulate as rules do. Each is required by its name, so two files
// of one name would make require() ambiguous: an error naming both.
Status read_rule_modules(const TomlField& field, Policy& policy, const FileContext& file) {
  auto list = as_sourced_list(field);
  if (!list) return list.error();
  for (std::size_t i = 0; i < list->size(); ++i) {
    SourcedString module = std::move((*list)[i]);
    std::string key = fmt::format("{}[{}]", field.key, i);
    if (!module.value.ends_with(".lua"))
      return error_at(module.origin, key, fmt::format("'{}': a rule module is a .lua file", module.value));
    module.value = resolve_path(file, module.value);
    std::string name = rule_module_name(module.value);
    if (name.empty() || !std::all_of(name.begin(), name.end(), [](unsigned char c) {
          return std::isalnum(c) || c == '_';
        }))
      return error_at(module.origin, key,
                      fmt::format("'{}': a module name (the file name without .lua) takes "
                                  "letters, digits and _ only", name));
    auto same_name = [&](const SourcedString& known) { return rule_module_name(known.value) == name; };
    auto known = std::find_if(policy.rule_modules.begin(), policy.rule_modules.end(), same_name);
    if (known == policy.rule_modules.end()) {
      policy.rule_modules.push_back(std::move(module));
    } else if (known->value != module.value) {
      return error_at(module.origin, key,
                      fmt::format("module '{}' is already declared at {} ({})", name,
                                  known->origin.full(), known->value));
    }
  }
  return ok_status();
}

// "32MiB", "512KiB", "1GiB", "1048576" or "1048576B".
std::optional<std::uint64_t> parse_size(std::string_view text) {
  std::uint64_t number = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), number);
  if (ec != std::errc() || end == text.data()) return std::nullopt;
  std::string_view unit(end, text.data() + text.size() - end);
  std::uint64_t scale = 0;
  if (unit.empty() || unit == "B") scale = 1;
  if (unit == "KiB") scale = 1ull << 10;
  if (unit == "MiB") scale = 1ull << 20;
  if (unit == "GiB") scale = 1ull << 30;
  if (scale == 0 || number == 0 || number > UINT64_MAX / scale) return std::nullopt;
  return number * scale;
}

Status read_rule_instructions(const TomlField& field, Limits& limits, const FileContext&) {
  auto value = as_integer(field);
  if (!value) return value.error();
  if (*value <= 0) return field.error(fmt::format("expected an integer > 0, got {}", *value));
  limits.rule_instructions = static_cast<std::uint64_t>(*value);
  return ok_status();
}

Status read_rule_memory(const TomlField& field, Limits& limits, const FileContext&) {
  constexpr std::string_view expected = "a size such as \"32MiB\" (B, KiB, MiB, GiB) or a byte count > 0";
  std::optional<std::uint64_t> bytes;
  if (const auto* number = field.node.as_integer()) {
    if (number->get() > 0) bytes = static_cast<std::uint64_t>(number->get());
  } else if (const auto* text = field.node.as_string()) {
    bytes = parse_size(text->get());
  } else {
    return field.type_error(expected);
  }
  if (!bytes) {
    return field.error(fmt::format("expected {}, got {}", expected, toml_text(field.node)));
  }
  limits.rule_memory_bytes = *bytes;
  return ok_status();
}

Status read_deadline(const TomlField& field, Limits& limits, const FileContext&) {
  auto value = as_integer(field);
  if (!value) return value.error();
  if (*value <= 0) return field.error(fmt::format("expected a number of milliseconds > 0, got {}", *value));
  limits.deadline_ms = static_cast<std::uint64_t>(*value);
  return ok_status();
}

constexpr KeyReader<Limits> kLimitsReaders[] = {
    {"rule_instructions", read_rule_instructions},
    {"rule_memory", read_rule_memory},
    {"deadline_ms", read_deadline},
};

// A name is looked up on PATH when graft-runtime runs (as the shims look up
// runc); anything else must be absolute: relative to which directory would
// be a guess, since the runtime runs from the bundle.
Status read_runtime_path(const TomlField& field, RuntimeShim& runtime, const FileContext&) {
  auto value = as_string(field);
  if (!value) return value.error();
  if (value->empty() || (value->find('/') != std::string::npos && !value->starts_with('/')))
    return field.error(fmt::format("expected a runtime name looked up on PATH (\"runc\") or an "
                                   "absolute path, got {}", toml_text(field.node)));
  runtime.path = std::move(*value);
  return ok_status();
}

constexpr std::string_view kRuntimeModes[] = {"hook", "declarative"};

Status read_runtime_mode(const TomlField& field, RuntimeShim& runtime, const FileContext&) {
  auto value = as_string(field);
  if (!value) return value.error();
  if (*value == "hook") {
    runtime.mode = RuntimeShim::Mode::hook;
  } else if (*value == "declarative") {
    runtime.mode = RuntimeShim::Mode::declarative;
  } else {
    return field.error(fmt::format("unknown mode '{}' (hook or declarative){}", *value,
                                   did_you_mean(*value, kRuntimeModes)));
  }
  return ok_status();
}

constexpr KeyReader<RuntimeShim> kRuntimeReaders[] = {
    {"path", read_runtime_path},
    {"mode", read_runtime_mode},
};

// An absolute directory graft owns (root, 0700): a relative one would move
// with the directory a runtime starts the hook in.
Status read_state_dir(const TomlField& field, Exclusive& exclusive, const FileContext&) {
  auto value = as_string(field);
  if (!value) return value.error();
  if (value->empty() || value->front() != '/') return field.error("must be an absolute directory");
  exclusive.state_dir = std::move(*value);
  return ok_status();
}

constexpr KeyReader<Exclusive> kExclusiveReaders[] = {
    {"gpus", read_bool<&Exclusive::gpus>},
    {"state_dir", read_state_dir},
};

Status read_audit_log(const TomlField& field, Policy& policy, const FileContext& file) {
  auto value = as_string(field);
  if (!value) return value.error();
  policy.audit_log = value->empty() ? "" : resolve_path(file, *value);
  return ok_status();
}

constexpr KeyReader<Policy> kAuditReaders[] = {
    {"log", read_audit_log},
    {"env", read_strings<&Policy::audit_env>},
};

// A CDI kind ("vendor/class") as cdi_names checks it, so `graft policy
// check` names a bad one where it is written.
Status read_cdi_kind(const TomlField& field, CdiSettings& cdi, const FileContext&) {
  auto value = as_string(field);
  if (!value) return value.error();
  if (auto kind = cdi::parse_kind(*value); !kind) return field.error(kind.error().message);
  cdi.kind = std::move(*value);
  return ok_status();
}

// "default" (the [defaults] capabilities) or a list of set names, checked
// against the merged policy's sets in validate.cpp.
Status read_cdi_gpu_capabilities(const TomlField& field, CdiSettings& cdi, const FileContext&) {
  if (field.node.is_string()) {
    auto value = as_string(field);
    if (!value) return value.error();
    if (*value != "default")
      return field.error(fmt::format("'{}' is not \"default\"; name the sets in an array ([] for none)", *value));
    cdi.gpu_capabilities = {};
    return ok_status();
  }
  if (!field.node.is_array()) return field.type_error("\"default\" or an array of capability set names");
  auto sets = as_sourced_list(field);
  if (!sets) return sets.error();
  cdi.gpu_capabilities = {false, std::move(*sets)};
  return ok_status();
}

constexpr KeyReader<CdiSettings> kCdiReaders[] = {
    {"kind", read_cdi_kind},
    {"gpu_capabilities", read_cdi_gpu_capabilities},
};

nlohmann::json to_json(const toml::node& node) {
  if (const auto* table = node.as_table()) {
    auto object = nlohmann::json::object();
    for (auto&& [key, value] : *table) object[std::string(key.str())] = to_json(value);
    return object;
  }
  if (const auto* array = node.as_array()) {
    auto list = nlohmann::json::array();
    for (const auto& value : *array) list.push_back(to_json(value));
    return list;
  }
  if (const auto* value = node.as_string()) return value->get();
  if (const auto* value = node.as_integer()) return value->get();
  if (const auto* value = node.as_floating_point()) return value->get();
  if (const auto* value = node.as_boolean()) return value->get();
  return toml_text(node);  // dates and times: their TOML spelling
}

// [data] is free-form: no key checks, tables merge recursively (TOML has no
// null, so a JSON merge patch never deletes anything).
Status read_data(const TomlField& field, Policy& policy, const FileContext&) {
  auto table = as_table(field);
  if (!table) return table.error();
  policy.data.merge_patch(to_json(**table));
  return ok_status();
}

// A container path: absolute, no "." or ".." steps, no control characters
// (it becomes a line of an ld.so.conf.d file).
Result<std::string> as_container_path(const TomlField& field) {
  auto value = as_string(field);
  if (!value) return value.error();
  bool ok = value->starts_with('/');
  for (char c : *value) ok = ok && static_cast<unsigned char>(c) >= 0x20;
  for (size_t start = 1; ok && start <= value->size();) {
    size_t end = std::min(value->find('/', start), value->size());
    std::string_view step(value->data() + start, end - start);
    ok = step != "." && step != "..";
    start = end + 1;
  }
  if (!ok) return field.error("must be an absolute container path without '.' or '..' steps");
  return value;
}

Status read_compat_path(const TomlField& field, SourcedString& into) {
  auto value = as_container_path(field);
  if (!value) return value.error();
  into = SourcedString{std::move(*value), field.origin()};
  return ok_status();
}

Status read_compat_library(const TomlField& field, ForwardCompat& compat, const FileContext&) {
  auto value = as_sourced(field);
  if (!value) return value.error();
  if (value->value.empty() || value->value.find('/') != std::string::npos)
    return field.error("must be a library file name prefix such as \"libvendor.so\"");
  compat.library = std::move(*value);
  return ok_status();
}

Status read_compat_conf_file(const TomlField& field, ForwardCompat& compat, const FileContext&) {
  auto value = as_container_path(field);
  if (!value) return value.error();
  compat.conf_file = std::move(*value);
  return ok_status();
}

constexpr KeyReader<ForwardCompat> kForwardCompatReaders[] = {
    {"enabled", read_bool<&ForwardCompat::enabled>},
    {"dir", [](const TomlField& f, ForwardCompat& c, const FileContext&) { return read_compat_path(f, c.dir); }},
    {"library", read_compat_library},
    {"conf_file", read_compat_conf_file},
};

Status directive(const TomlField&, Policy&, const FileContext&) { return ok_status(); }

constexpr KeyReader<Policy> kTopReaders[] = {
    {"include", directive},
    {"drop_ins", directive},
    {"rules", read_rules},
    {"rule_modules", read_rule_modules},
    {"host", read_host},
    {"plugins", [](const TomlField& f, Policy& p, const FileContext& c) { return read_table(f, kPluginReaders, p, c); }},
    {"requests", [](const TomlField& f, Policy& p, const FileContext& c) { return read_table(f, kRequestReaders, p, c); }},
    {"defaults", [](const TomlField& f, Policy& p, const FileContext& c) { return read_table(f, kDefaultsReaders, p, c); }},
    {"capability", read_capabilities},
    {"device", read_devices},
    {"extra", read_extras},
    {"sample", read_samples},
    {"discovery", read_discovery},
    {"vendor", read_vendors},
    {"procfs", read_procfs},
    {"limits", [](const TomlField& f, Policy& p, const FileContext& c) { return read_table(f, kLimitsReaders, p.limits, c); }},
    {"runtime", [](const TomlField& f, Policy& p, const FileContext& c) { return read_table(f, kRuntimeReaders, p.runtime, c); }},
    {"exclusive", [](const TomlField& f, Policy& p, const FileContext& c) { return read_table(f, kExclusiveReaders, p.exclusive, c); }},
    {"audit", [](const TomlField& f, Policy& p, const FileContext& c) { return read_table(f, kAuditReaders, p, c); }},
    {"cdi", [](const TomlField& f, Policy& p, const FileContext& c) { return read_table(f, kCdiReaders, p.cdi, c); }},
    {"forward_compat", [](const TomlField& f, Policy& p, const FileContext& c) { return read_table(f, kForwardCompatReaders, p.forward_compat, c); }},
    {"data", read_data},
    {"data_schema", read_data_schema},
};

}  // namespace

Status apply_file(const toml::table& root, const FileContext& file, Policy& policy) {
  TomlField top{root, "", &file.path};
  return read_table(top, kTopReaders, policy, file);
}

}  // namespace graft::policy_parse

namespace graft {

std::string rule_module_name(const std::string& path) {
  std::string name = path.substr(path.find_last_of('/') + 1);
  if (name.ends_with(".lua")) name.resize(name.size() - 4);
  return name;
}

}  // namespace graft
