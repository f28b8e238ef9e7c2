// SPDX-License-Identifier: Apache-2.0
// Choosing the uncommented form of a shipped TOML file (uncommented_toml.hpp).
#include "policy/uncommented_toml.hpp"

namespace graft {

std::string_view toml_to_parse(std::string_view text, std::span<const UncommentedToml> known) {
  for (const auto& shipped : known)
    if (shipped.text == text) return shipped.uncommented;
  return text;
}

}  // namespace graft
