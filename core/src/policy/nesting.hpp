// SPDX-License-Identifier: Apache-2.0
// A bound on how deep a parsed policy file nests tables and arrays. The
// policy is not root (a ConfigMap more people can edit than log into
// nodes): `data.a.a.a...` 60,000 keys deep parses, and then every walk of
// the document (origins, [data], its schema) recursed once per level until
// the stack ran out, so `policy check`, the node agent and the hook died of
// SIGSEGV. Checked once, without recursion, right after parsing.
#pragma once

#include <string>

#include <toml++/toml.h>

#include "graft/base/error.hpp"

namespace graft::policy_parse {

inline constexpr std::size_t kMaxNesting = 64;

// An error at the first value nested deeper than kMaxNesting; ok otherwise.
Status check_nesting(const toml::table& root, const std::string& path);

}  // namespace graft::policy_parse
