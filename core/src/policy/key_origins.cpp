// note_origins: one walk over a file's tables, keyed as TomlField::child names them.
#include "policy/key_origins.hpp"

#include <algorithm>
#include <span>
#include <string_view>

#include "policy/toml_field.hpp"

namespace graft::policy_parse {
namespace {

constexpr std::string_view kOriginDirectives[] = {"include", "drop_ins"};
constexpr std::string_view kAccumulatingKeys[] = {"rules", "rule_modules"};
constexpr std::string_view kSecuritySections[] = {"requests", "defaults", "limits", "plugins", "runtime", "audit"};

bool origin_name_in(std::string_view name, std::span<const std::string_view> names) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

struct OriginWalk {
  const std::string& file;
  std::map<std::string, KeyOrigin>& origins;
  std::vector<std::string> replaced;

  void note(const std::string& key, const toml::node& node, bool replaces) {
    KeyOrigin entry{origin_of(node.source(), file), node.is_table() ? "" : toml_text(node), {}, {}};
    auto [it, created] = origins.try_emplace(key, entry);
    if (created) return;
    if (replaces && !entry.is_table() && it->second.origin.file != file) {
      entry.replaced = it->second.origin;
      entry.replaced_value = it->second.value;
      replaced.push_back(key);
    } else if (entry.is_table() && it->second.origin.file != file) {
      entry.replaced = it->second.origin;  // a table merges: where it was set before
    }
    it->second = std::move(entry);
  }

  void walk(const std::string& prefix, const toml::table& table, bool replaces) {
    for (const auto& [name, node] : table) {
      std::string key = prefix.empty() ? std::string(name.str()) : prefix + "." + std::string(name.str());
      note(key, node, replaces);
      if (const auto* child = node.as_table()) walk(key, *child, replaces);
    }
  }
};

}  // namespace

std::vector<std::string> note_origins(const toml::table& root, const std::string& file,
                                      std::map<std::string, KeyOrigin>& origins) {
  OriginWalk walk{file, origins, {}};
  for (const auto& [name, node] : root) {
    if (origin_name_in(name.str(), kOriginDirectives)) continue;
    std::string key(name.str());
    bool replaces = !origin_name_in(key, kAccumulatingKeys);
    walk.note(key, node, replaces);
    if (const auto* table = node.as_table()) walk.walk(key, *table, replaces);
  }
  return std::move(walk.replaced);
}

bool is_security_relevant(const std::string& key) {
  return origin_name_in(std::string_view(key).substr(0, key.find('.')), kSecuritySections);
}

}  // namespace graft::policy_parse
