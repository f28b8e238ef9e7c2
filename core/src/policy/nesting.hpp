// SPDX-License-Identifier: Apache-2.0
// A bound on how deep a policy file nests tables and arrays. The policy is
// not root (a ConfigMap more people can edit than log into nodes):
// `data.a.a.a...` 60,000 keys deep made toml++ (which bounds inline tables
// and arrays at 256, not dotted keys and headers) and every walk of the
// document after it (origins, [data], its schema) recurse once per level
// until the stack ran out, so `policy check`, the node agent and the hook
// died of SIGSEGV. Keys are bounded in the text before it is parsed, and
// the document after, both without recursion.
#pragma once

#include <string>

#include <toml++/toml.h>

#include "graft/base/error.hpp"

namespace graft::policy_parse {

inline constexpr std::size_t kMaxNesting = 64;

// An error at the first key (a dotted key or a [table] header) of more
// than kMaxNesting parts in the TOML `text`; ok otherwise.
Status check_key_depth(std::string_view text, const std::string& path);

// An error at the first value nested deeper than kMaxNesting; ok otherwise.
Status check_nesting(const toml::table& root, const std::string& path);

}  // namespace graft::policy_parse
