// SPDX-License-Identifier: Apache-2.0
// The lines of /proc/<pid>/cgroup, parsed once for both sides: core asks
// whether a process's cgroups name a container (apply/cgroup_match), the
// plugins which cgroup holds its device rules (plugins/common
// container_cgroup). Each line is "hierarchy-ID:controller-list:cgroup-path"
// (cgroups(7)): "5:devices:/docker/abc" on cgroup v1, the single
// "0::/user.slice/..." on v2, both kinds in a hybrid setup.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace graft {

struct ProcCgroupLine {
  std::string hierarchy;    // "5"; "0" for the v2 line
  std::string controllers;  // "devices", "cpu,cpuacct", "name=systemd"; "" for v2
  std::string path;         // "/docker/abc"; keeps any ':' it holds
};

// Every line of `text` with at least two ':', in order. Any other line (empty,
// or cut short by a bounded read) is skipped: the kernel writes none, and a
// caller finds the line it needs or says it has none.
std::vector<ProcCgroupLine> parse_proc_cgroup(std::string_view text);

}  // namespace graft
