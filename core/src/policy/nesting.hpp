// SPDX-License-Identifier: Apache-2.0
// A bound on how many parts a TOML key has, checked in the text before it
// is parsed. A file graft reads may be hostile (a ConfigMap policy more
// people can edit than log into nodes, a foreign config.toml to import):
// `data.a.a.a...` 60,000 parts deep made toml++ 3.3, which bounds inline
// tables and arrays (256 levels) but not dotted keys and [headers], and
// every recursive walk of the document after it overflow the stack, so
// `policy check`, the node agent, the hook and `policy import` died of
// SIGSEGV. With keys bounded here, nothing parsed nests deeper than a few
// hundred levels.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "graft/base/error.hpp"

namespace graft::policy_parse {

inline constexpr std::size_t kMaxKeyParts = 64;

// An error naming `path`:line at the first key (dotted, or a [table]
// header) of more than kMaxKeyParts parts in the TOML `text`; ok otherwise.
Status check_key_depth(std::string_view text, const std::string& path);

}  // namespace graft::policy_parse
