// SPDX-License-Identifier: Apache-2.0
// The entries of Policy::key_origins at and under one dotted key, or the
// default render_policy_json gives a key no file sets.
#include "render/policy_key.hpp"

#include <string_view>

#include <fmt/format.h>

#include "graft/base/did_you_mean.hpp"
#include "render/policy_render.hpp"

namespace graft {
namespace {

using ojson = nlohmann::ordered_json;

// Top-level entries of the document that are reports, not settings.
bool is_report_entry(const std::string& name) {
  return name == "schema" || name == "files" || name == "registered_rules" || name == "origins";
}

// The document's value at a dotted key, or nullptr.
const ojson* document_value(const ojson& document, const std::string& key) {
  const ojson* at = &document;
  for (std::size_t start = 0; start <= key.size();) {
    std::size_t dot = std::min(key.find('.', start), key.size());
    std::string step = key.substr(start, dot - start);
    if (!at->is_object() || !at->contains(step) || (at == &document && is_report_entry(step))) return nullptr;
    at = &(*at)[step];
    start = dot + 1;
  }
  return at;
}

void add_paths(const ojson& object, const std::string& prefix, std::vector<std::string>& into) {
  for (const auto& [name, value] : object.items()) {
    if (prefix.empty() && is_report_entry(name)) continue;
    std::string key = prefix.empty() ? name : prefix + "." + name;
    into.push_back(key);
    if (value.is_object()) add_paths(value, key, into);
  }
}

// The key and every key under it, in key order.
std::vector<std::pair<std::string, const KeyOrigin*>> entries_at(const Policy& policy, const std::string& key) {
  std::vector<std::pair<std::string, const KeyOrigin*>> out;
  for (auto it = policy.key_origins.lower_bound(key); it != policy.key_origins.end(); ++it) {
    if (it->first != key && !it->first.starts_with(key + ".")) break;
    out.emplace_back(it->first, &it->second);
  }
  return out;
}

Error no_such_key(const Policy& policy, const ojson& document, const std::string& key) {
  std::vector<std::string> paths;
  add_paths(document, "", paths);
  for (const auto& [name, entry] : policy.key_origins) paths.push_back(name);
  std::vector<std::string_view> candidates(paths.begin(), paths.end());
  return make_error("policy show: no key '{}' in the policy{}", key, did_you_mean(key, candidates));
}

std::string entry_text(const std::string& key, const KeyOrigin& entry) {
  if (entry.is_table()) {
    std::string text = fmt::format("[{}]\n  set at {}\n", key, entry.origin.full());
    if (!entry.replaced.empty()) text += fmt::format("  merged over {}\n", entry.replaced.full());
    return text;
  }
  std::string text = fmt::format("{} = {}\n  set at {}\n", key, entry.value, entry.origin.full());
  if (!entry.replaced.empty())
    text += fmt::format("  overrode {} from {}\n", entry.replaced_value, entry.replaced.full());
  return text;
}

}  // namespace

Result<std::string> render_policy_key_text(const Policy& policy, const std::vector<RuleActivity>& rules,
                                           const std::string& key) {
  auto entries = entries_at(policy, key);
  ojson document = render_policy_json(policy, rules);
  if (entries.empty()) {
    const ojson* value = document_value(document, key);
    if (!value) return no_such_key(policy, document, key);
    return fmt::format("{} = {}\n  not set by any policy file: graft's default\n", key, value->dump());
  }
  std::string out;
  for (const auto& [name, entry] : entries) out += entry_text(name, *entry);
  return out;
}

Result<std::string> render_policy_key_json(const Policy& policy, const std::vector<RuleActivity>& rules,
                                           const std::string& key) {
  auto entries = entries_at(policy, key);
  ojson document = render_policy_json(policy, rules);
  ojson out = {{"key", key}};
  if (entries.empty()) {
    const ojson* value = document_value(document, key);
    if (!value) return no_such_key(policy, document, key);
    out["default"] = *value;
  } else {
    ojson keys = ojson::object();
    for (const auto& [name, entry] : entries) keys[name] = key_origin_json(*entry);
    out["keys"] = keys;
  }
  return out.dump(2) + "\n";
}

}  // namespace graft
