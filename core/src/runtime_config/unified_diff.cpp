// SPDX-License-Identifier: Apache-2.0
#include "runtime_config/unified_diff.hpp"

#include <algorithm>
#include <vector>

#include <fmt/format.h>

namespace graft::runtime_config {
namespace {

struct DiffLine {
  char mark;       // ' ', '-' or '+'
  std::size_t old_line, new_line;  // 0-based positions before this line
  std::string text;
};

std::vector<std::string> split_lines(const std::optional<std::string>& text) {
  std::vector<std::string> lines;
  if (!text) return lines;
  std::size_t start = 0;
  while (start < text->size()) {
    std::size_t end = text->find('\n', start);
    if (end == std::string::npos) {
      lines.push_back(text->substr(start) + "\n\\ No newline at end of file");
      break;
    }
    lines.push_back(text->substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

// Every line of both, in order, by a longest common subsequence (config
// files are short; past 4M cells, all old lines out and all new in).
std::vector<DiffLine> edit_script(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  std::vector<DiffLine> script;
  std::size_t n = a.size(), m = b.size();
  std::vector<std::vector<unsigned>> common;
  if (n * m <= (4u << 20)) {
    common.assign(n + 1, std::vector<unsigned>(m + 1, 0));
    for (std::size_t i = n; i-- > 0;)
      for (std::size_t j = m; j-- > 0;)
        common[i][j] = a[i] == b[j] ? common[i + 1][j + 1] + 1 : std::max(common[i + 1][j], common[i][j + 1]);
  }
  std::size_t i = 0, j = 0;
  while (i < n || j < m) {
    bool can_keep = !common.empty() && i < n && j < m && a[i] == b[j];
    if (can_keep) {
      script.push_back({' ', i, j, a[i]});
      ++i, ++j;
    } else if (i < n && (j == m || common.empty() || common[i + 1][j] >= common[i][j + 1])) {
      script.push_back({'-', i, j, a[i]});
      ++i;
    } else {
      script.push_back({'+', i, j, b[j]});
      ++j;
    }
  }
  return script;
}

// "@@ -start,count +start,count @@" for lines [first, last) of the script.
std::string hunk_header(const std::vector<DiffLine>& script, std::size_t first, std::size_t last) {
  std::size_t old_count = 0, new_count = 0;
  for (std::size_t k = first; k < last; ++k) {
    if (script[k].mark != '+') ++old_count;
    if (script[k].mark != '-') ++new_count;
  }
  auto start = [](std::size_t position, std::size_t count) { return count == 0 ? position : position + 1; };
  return fmt::format("@@ -{},{} +{},{} @@\n", start(script[first].old_line, old_count), old_count,
                     start(script[first].new_line, new_count), new_count);
}

}  // namespace

std::string unified_diff(const std::string& path, const std::optional<std::string>& before,
                         const std::optional<std::string>& after) {
  if (before == after) return "";
  auto script = edit_script(split_lines(before), split_lines(after));
  constexpr std::size_t kContext = 3;
  std::string diff = fmt::format("--- {}\n+++ {}\n", before ? path : "/dev/null", after ? path : "/dev/null");
  std::size_t k = 0;
  while (k < script.size()) {
    if (script[k].mark == ' ') {
      ++k;
      continue;
    }
    std::size_t first = k >= kContext ? k - kContext : 0;
    std::size_t end = k;  // one past the hunk's last change
    // Changes up to twice the context apart share a hunk, as in diff -u.
    for (std::size_t scan = k, quiet = 0; scan < script.size() && quiet <= 2 * kContext; ++scan) {
      if (script[scan].mark == ' ') {
        ++quiet;
      } else {
        quiet = 0;
        end = scan + 1;
      }
    }
    std::size_t last = std::min(script.size(), end + kContext);
    diff += hunk_header(script, first, last);
    for (std::size_t line = first; line < last; ++line) diff += script[line].mark + script[line].text + "\n";
    k = last;
  }
  return diff;
}

}  // namespace graft::runtime_config
