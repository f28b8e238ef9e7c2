// SPDX-License-Identifier: Apache-2.0
#include "runtime_config/docker_config.hpp"

#include <nlohmann/json.hpp>

namespace graft::runtime_config {
namespace {

using ordered_json = nlohmann::ordered_json;

// The daemon.json document: {} for a missing or blank file.
Result<ordered_json> parse_daemon_json(const std::optional<std::string>& text) {
  if (!text || text->find_first_not_of(" \t\r\n") == std::string::npos) return ordered_json::object();
  ordered_json document;
  try {
    document = ordered_json::parse(*text);
  } catch (const nlohmann::json::parse_error& error) {
    return make_error("not valid JSON ({}); nothing was changed", error.what());
  }
  if (!document.is_object()) return make_error("not a JSON object; nothing was changed");
  if (document.contains("runtimes") && !document["runtimes"].is_object())
    return make_error("\"runtimes\" is not an object; nothing was changed");
  return document;
}

// The indent of the file's first indented line (2 spaces when it has none).
std::pair<char, int> indent_of(const std::optional<std::string>& text) {
  if (!text) return {' ', 2};
  for (std::size_t newline = text->find('\n'); newline != std::string::npos; newline = text->find('\n', newline + 1)) {
    std::size_t first = newline + 1;
    std::size_t end = text->find_first_not_of(" \t", first);
    if (end == std::string::npos || end == first || (*text)[end] == '\n') continue;
    return {(*text)[first], static_cast<int>(end - first)};
  }
  return {' ', 2};
}

std::string render(const ordered_json& document, const std::optional<std::string>& before) {
  auto [indent_char, width] = indent_of(before);
  return document.dump(width, indent_char) + "\n";
}

ordered_json graft_entry(const RuntimeEntry& entry) {
  ordered_json runtime = {{"path", entry.binary}};
  if (!entry.arguments.empty()) runtime["runtimeArgs"] = entry.arguments;
  return runtime;
}

}  // namespace

Result<std::string> docker_configured(const std::optional<std::string>& before, const RuntimeEntry& entry) {
  auto document = parse_daemon_json(before);
  if (!document) return document.error();
  ordered_json edited = *document;
  edited["runtimes"][entry.name] = graft_entry(entry);
  if (entry.set_as_default) edited["default-runtime"] = entry.name;
  if (entry.cdi) {
    if (edited.contains("features") && !edited["features"].is_object())
      return make_error("\"features\" is not an object; nothing was changed");
    edited["features"]["cdi"] = true;
  }
  if (before && edited == *document) return *before;
  return render(edited, before);
}

Result<DockerRemoval> docker_removed(const std::optional<std::string>& before, const RuntimeEntry& entry) {
  auto document = parse_daemon_json(before);
  if (!document) return document.error();
  ordered_json edited = *document;
  DockerRemoval removal;
  if (edited.contains("runtimes") && edited["runtimes"].contains(entry.name)) {
    if (edited["runtimes"][entry.name] == graft_entry(entry))
      edited["runtimes"].erase(entry.name);
    else
      removal.kept = "runtimes." + entry.name + " is not what graft writes (edited by hand?): left as it is";
    if (edited["runtimes"].empty()) edited.erase("runtimes");
  }
  auto runtimes = edited.find("runtimes");
  bool entry_gone = runtimes == edited.end() || !runtimes->contains(entry.name);
  auto default_runtime = edited.find("default-runtime");
  if (entry_gone && default_runtime != edited.end() && *default_runtime == entry.name)
    edited.erase("default-runtime");
  if (edited == *document) {
    removal.after = before;
  } else if (!edited.empty()) {
    removal.after = render(edited, before);
  }
  return removal;
}

}  // namespace graft::runtime_config
