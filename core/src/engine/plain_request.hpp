// SPDX-License-Identifier: Apache-2.0
// Deciding, without the rules, that a container asks for nothing: what lets
// `graft hook` pass a container through untouched when the policy's TOML
// loads but its rule files do not (a syntax error, a duplicate rule name, a
// rule file that raises as it loads), instead of failing every container of
// the node. Only a container that carries nothing any trusted request
// channel of the policy reads qualifies; anything else is refused as ever
// (fail closed). Letting a container through injects nothing, which is what
// every non-GPU container gets: it can grant nothing, and the worst it can
// do is start a container that meant to ask for a GPU without one, which is
// why anything that might be a request is refused instead.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "graft/base/error.hpp"
#include "policy/policy.hpp"
#include "request/request.hpp"

namespace graft {

// What in `request` a channel the policy trusts for it could read as a
// request, e.g. "env VENDOR_VISIBLE_DEVICES", "annotation cdi.k8s.io/x",
// "mount /dev/null": under a trusted "env" channel each variable the policy
// declares as its request variables ([audit] env patterns; every variable
// when it declares none), under "annotations" every annotation, under
// "volume-mounts" every mount. Empty: the container asks for nothing.
std::vector<std::string> request_channel_items(const Request& request, const Policy& policy);

// The warning to print when `evaluation_error` is the policy's rules failing
// to load (ErrorKind::rules_not_loaded) and `request` asks for nothing: the container is then let through
// untouched. nullopt when it must be refused (a request, a run-time error of
// a rule, an inventory error).
std::optional<std::string> pass_through_without_rules(const Policy& policy, const Request& request,
                                                      const Error& evaluation_error);

}  // namespace graft
