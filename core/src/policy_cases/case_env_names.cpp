// SPDX-License-Identifier: Apache-2.0
// misspelled_env_names: edit distance to the policy's declared env names.
#include "policy_cases/case_env_names.hpp"

#include <fnmatch.h>

#include <algorithm>
#include <set>
#include <string>

#include "graft/base/did_you_mean.hpp"
#include "render/policy_render.hpp"

namespace graft {
namespace {

// Two edits: a dropped, doubled or swapped letter. A looser bound would
// call a real, different variable of the same shape (another prefix of the
// same length before the same suffix) a typo.
constexpr std::size_t kMostEdits = 2;

bool is_pattern(const std::string& name) { return name.find_first_of("*?[") != std::string::npos; }

struct DeclaredNames {
  std::vector<std::string> patterns;  // [audit] env, globs included
  std::set<std::string> names;        // the plain names, as candidates
};

DeclaredNames declared_names(const Policy& policy) {
  DeclaredNames declared;
  for (const auto& entry : policy.audit_env) {
    declared.patterns.push_back(entry);
    if (!is_pattern(entry)) declared.names.insert(entry);
  }
  for (const auto& [_, sample] : policy.samples)
    for (const auto& pair : sample.env) declared.names.insert(pair.substr(0, pair.find('=')));
  return declared;
}

bool is_declared(const DeclaredNames& declared, const std::string& name) {
  if (declared.names.contains(name)) return true;
  return std::any_of(declared.patterns.begin(), declared.patterns.end(),
                     [&](const std::string& pattern) { return ::fnmatch(pattern.c_str(), name.c_str(), 0) == 0; });
}

}  // namespace

std::vector<Mismatch> misspelled_env_names(const Request& request, const Policy& policy) {
  DeclaredNames declared = declared_names(policy);
  std::vector<Mismatch> out;
  for (const auto& [name, _] : request.env) {
    if (is_declared(declared, name)) continue;
    auto close = std::find_if(declared.names.begin(), declared.names.end(),
                              [&](const std::string& known) { return edit_distance(name, known) <= kMostEdits; });
    if (close == declared.names.end()) continue;
    out.push_back({"request.env name", toml_quoted(*close) + "  (a name the policy reads)",
                   toml_quoted(name) + "  (one the policy does not read: a typo?)", *close, name});
  }
  return out;
}

}  // namespace graft
