// SPDX-License-Identifier: Apache-2.0
#include "boundary/node_allow.hpp"

#include <cerrno>
#include <sstream>
#include <string_view>
#include <utility>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "trust/trusted_file.hpp"

namespace graft {
namespace {

constexpr std::pair<std::string_view, std::vector<Place> Places::*> kKinds[] = {
    {"places.device_drivers", &Places::device_drivers},
    {"places.devices", &Places::devices},
    {"places.sockets", &Places::sockets},
    {"places.directories", &Places::directories},
    {"places.read_only_directories", &Places::read_only_directories},
    {"places.files", &Places::files},
    {"places.state_dirs", &Places::state_dirs},
};

std::string_view trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r')) text.remove_suffix(1);
  return text;
}

// A line without its comment: `#` outside the quoted value.
std::string_view uncommented(std::string_view line) {
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    if (line[i] == '\\' && quoted) ++i;
    else if (line[i] == '"') quoted = !quoted;
    else if (line[i] == '#' && !quoted) return line.substr(0, i);
  }
  return line;
}

Status add_line(std::string_view key, std::string_view value, const Origin& origin, Places& places) {
  for (const auto& [name, field] : kKinds) {
    if (key != name) continue;
    auto parsed = nlohmann::json::parse(value, nullptr, false);
    if (!parsed.is_string()) return make_error("{}: {}: expected a JSON string, got {}", origin.full(), key, value);
    std::string path = parsed.get<std::string>();
    if (field != &Places::device_drivers && !path.starts_with('/'))
      return make_error("{}: {}: '{}' is not an absolute path", origin.full(), key, path);
    (places.*field).push_back(Place{std::move(path), origin});
    return ok_status();
  }
  if (key.starts_with("places."))
    return make_error("{}: {}: not a kind of place (places.device_drivers, places.devices, places.sockets, "
                      "places.directories, places.read_only_directories, places.files, places.state_dirs)",
                      origin.full(), key);
  return ok_status();  // a guarded setting: the node agent's
}

}  // namespace

Result<Places> parse_node_allow(const std::string& text, const std::string& path) {
  Places places;
  std::istringstream lines(text);
  std::string line;
  for (unsigned number = 1; std::getline(lines, line); ++number) {
    std::string_view setting = trim(uncommented(line));
    if (setting.empty()) continue;
    Origin origin{path, static_cast<int>(number), 1};
    auto equals = setting.find('=');
    if (equals == std::string_view::npos) return make_error("{}: expected KEY = \"VALUE\"", origin.full());
    auto status = add_line(trim(setting.substr(0, equals)), trim(setting.substr(equals + 1)), origin, places);
    if (!status) return status.error();
  }
  return places;
}

Status add_node_allow(Policy& policy, const std::string& path) {
  auto places = read_node_allow(path);
  if (!places) return places.error();
  policy.node_places = std::move(*places);
  return ok_status();
}

Result<Places> read_node_allow(const std::string& path) {
  if (path.empty()) return Places{};
  auto text = read_trusted_file(path, 1u << 20);
  if (!text) {
    if (text.error().code == ENOENT) return Places{};
    return text.error().context("the node's allow file");
  }
  return parse_node_allow(*text, path);
}

}  // namespace graft
