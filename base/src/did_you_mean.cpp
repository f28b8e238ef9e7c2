// SPDX-License-Identifier: Apache-2.0
// Levenshtein distance with a limit that grows with the word.
#include "graft/base/did_you_mean.hpp"

#include <algorithm>
#include <numeric>
#include <vector>

#include <fmt/format.h>

namespace graft {

// Names are short, so the two-row version is plenty.
std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> previous(b.size() + 1), current(b.size() + 1);
  std::iota(previous.begin(), previous.end(), 0);
  for (std::size_t i = 1; i <= a.size(); ++i) {
    current[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      std::size_t substitute = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
      current[j] = std::min({previous[j] + 1, current[j - 1] + 1, substitute});
    }
    std::swap(previous, current);
  }
  return previous[b.size()];
}

std::string did_you_mean(std::string_view word, std::span<const std::string_view> candidates) {
  // Two edits catch most typos; longer words tolerate a little more (a plural, a suffix).
  std::size_t limit = std::max<std::size_t>(2, word.size() / 4);
  std::string_view best;
  std::size_t best_distance = limit + 1;
  for (auto candidate : candidates) {
    std::size_t distance = edit_distance(word, candidate);
    if (distance < best_distance) {
      best = candidate;
      best_distance = distance;
    }
  }
  if (best.empty()) return "";
  return fmt::format("; did you mean '{}'?", best);
}

}  // namespace graft
