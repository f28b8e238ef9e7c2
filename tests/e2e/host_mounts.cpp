#include "host_mounts.hpp"

#include <algorithm>
#include <fstream>

namespace graft::e2e {
namespace {

std::vector<std::string> mountinfo_lines() {
  std::ifstream in("/proc/self/mountinfo");
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

}  // namespace

HostMounts::HostMounts() : before_(mountinfo_lines()) {}

std::vector<std::string> HostMounts::added() const {
  std::vector<std::string> added;
  for (const auto& line : mountinfo_lines())
    if (std::find(before_.begin(), before_.end(), line) == before_.end()) added.push_back(line);
  return added;
}

long HostMounts::count_change() const { return static_cast<long>(added().size()); }

}  // namespace graft::e2e
