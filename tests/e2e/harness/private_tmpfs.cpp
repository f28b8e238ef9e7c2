// SPDX-License-Identifier: Apache-2.0
#include "private_tmpfs.hpp"

#include <sys/mount.h>

#include <fstream>
#include <sstream>

namespace graft::e2e {

PrivateTmpfs::PrivateTmpfs(unsigned long flags) {
  std::string what = "mount tmpfs on " + path();
  check_call(::mount("tmpfs", path().c_str(), "tmpfs", flags, "size=256m,mode=755"), what.c_str());
}

PrivateTmpfs::~PrivateTmpfs() { (void)::umount2(path().c_str(), MNT_DETACH); }

std::string PrivateTmpfs::tmp_subdir() const { return path().substr(path().rfind('/') + 1); }

std::string PrivateTmpfs::mount_options() const {
  std::ifstream in("/proc/self/mountinfo");
  for (std::string line; std::getline(in, line);) {
    std::istringstream fields(line);
    std::string id, parent, device, root, point, options;
    fields >> id >> parent >> device >> root >> point >> options;
    if (point == path()) return options;
  }
  return "";
}

}  // namespace graft::e2e
