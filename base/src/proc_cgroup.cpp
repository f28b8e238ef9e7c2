// SPDX-License-Identifier: Apache-2.0
// Parsing /proc/<pid>/cgroup (proc_cgroup.hpp).
#include "graft/base/proc_cgroup.hpp"

namespace graft {

std::vector<ProcCgroupLine> parse_proc_cgroup(std::string_view text) {
  std::vector<ProcCgroupLine> lines;
  while (!text.empty()) {
    std::size_t eol = text.find('\n');
    std::string_view line = text.substr(0, eol);
    text = eol == std::string_view::npos ? std::string_view{} : text.substr(eol + 1);
    std::size_t first = line.find(':');
    if (first == std::string_view::npos) continue;
    std::size_t second = line.find(':', first + 1);
    if (second == std::string_view::npos) continue;
    lines.push_back(ProcCgroupLine{.hierarchy = std::string(line.substr(0, first)),
                                   .controllers = std::string(line.substr(first + 1, second - first - 1)),
                                   .path = std::string(line.substr(second + 1))});
  }
  return lines;
}

}  // namespace graft
