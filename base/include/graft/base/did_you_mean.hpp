// SPDX-License-Identifier: Apache-2.0
// "Did you mean" suggestions by edit distance, for every place a name typed
// by a person is checked against the names that exist: policy keys, CLI
// commands, rule API names.
#pragma once

#include <span>
#include <string>
#include <string_view>

namespace graft {

// Insertions, deletions and substitutions that turn `a` into `b`.
std::size_t edit_distance(std::string_view a, std::string_view b);

// "; did you mean 'libraries'?" when a candidate is close to `word`, else "".
std::string did_you_mean(std::string_view word, std::span<const std::string_view> candidates);

}  // namespace graft
