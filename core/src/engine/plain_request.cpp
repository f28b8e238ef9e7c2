// SPDX-License-Identifier: Apache-2.0
// request_channel_items and pass_through_without_rules. The rules are loaded
// once more only when a container has failed and asks for nothing, so the
// working hook pays nothing for this.
#include "engine/plain_request.hpp"

#include <fnmatch.h>

#include <algorithm>

#include <fmt/format.h>

#include "rules/evaluate_rules.hpp"

namespace graft {
namespace {

bool declared_request_variable(const std::string& name, const Policy& policy) {
  if (policy.audit_env.empty()) return true;  // none declared: any variable may be one
  return std::any_of(policy.audit_env.begin(), policy.audit_env.end(),
                     [&](const std::string& pattern) { return ::fnmatch(pattern.c_str(), name.c_str(), 0) == 0; });
}

}  // namespace

std::vector<std::string> request_channel_items(const Request& request, const Policy& policy) {
  const std::set<std::string>& trusted = request.privileged ? policy.trusted_privileged : policy.trusted_unprivileged;
  std::vector<std::string> items;
  if (trusted.count("env"))
    for (const auto& [name, _] : request.env)
      if (declared_request_variable(name, policy)) items.push_back("env " + name);
  if (trusted.count("annotations"))
    for (const auto& [key, _] : request.annotations) items.push_back("annotation " + key);
  if (trusted.count("volume-mounts"))
    for (const RequestMount& mount : request.mounts) items.push_back("mount " + mount.destination);
  return items;
}

std::optional<std::string> pass_through_without_rules(const Policy& policy, const Request& request,
                                                      const Error& evaluation_error) {
  if (evaluation_error.kind != ErrorKind::rules_not_loaded) return std::nullopt;
  if (!request_channel_items(request, policy).empty()) return std::nullopt;
  auto rules = registered_rules(policy);  // for the load failure's own words, without the context
  if (rules) return std::nullopt;  // they load now: whatever failed to load has been fixed
  return fmt::format("container {}: let through untouched: it asks for nothing through the policy's request "
                     "channels, and the policy's rules do not load: {}",
                     request.container_id, rules.error().message);
}

}  // namespace graft
