// SPDX-License-Identifier: Apache-2.0
#include "shared_host_tree.hpp"

#include <sys/mount.h>

#include <fstream>
#include <sstream>

namespace graft::e2e {

SharedHostTree::SharedHostTree(const std::string& tree, CgroupMode mode) : tree_(tree) {
  // Cut from the machine (namespace_); then the tree becomes its own shared peer group.
  check_call(::mount(tree_.c_str(), tree_.c_str(), nullptr, MS_BIND | MS_REC, nullptr),
             "bind the host tree onto itself");
  check_call(::mount(nullptr, tree_.c_str(), nullptr, MS_SHARED, nullptr), "make the host tree shared");
  if (mode == CgroupMode::v2) {
    check_call(::mount("none", "/sys/fs/cgroup", "cgroup2", 0, nullptr), "mount cgroup2 on /sys/fs/cgroup");
    check_call(::mount("bpf", "/sys/fs/bpf", "bpf", 0, nullptr), "mount bpf on /sys/fs/bpf");
  }
}

std::string SharedHostTree::mountinfo_line() const {
  std::ifstream in("/proc/self/mountinfo");
  for (std::string line; std::getline(in, line);) {
    std::istringstream fields(line);
    std::string id, parent, device, root, point;
    fields >> id >> parent >> device >> root >> point;
    if (point == tree_) return line;
  }
  return "";
}

}  // namespace graft::e2e
