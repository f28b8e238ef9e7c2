// SPDX-License-Identifier: Apache-2.0
// cgroup v1 device rules: the kernel's devices controller takes one rule per
// write(2) to devices.allow, opened relative to the cgroup fd from prepare.
#include "devices_v1.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "graft/base/unique_fd.hpp"

namespace graft::cgroup {

Status allow_v1(int cgroup_fd, const std::string& path, const DeviceRule& rule) {
  const std::string line = rule.text();
  UniqueFd allow(::openat(cgroup_fd, "devices.allow", O_WRONLY | O_CLOEXEC));
  if (!allow.valid())
    return make_sys_error(errno, "cgroup {}: open devices.allow for '{}'", path, line);
  ssize_t written;
  do {
    written = ::write(allow.get(), line.data(), line.size());
  } while (written < 0 && errno == EINTR);
  if (written != static_cast<ssize_t>(line.size()))
    return make_error("cgroup {}: writing '{}' to devices.allow: {}", path, line,
                      written < 0 ? std::strerror(errno) : "short write");
  return ok_status();
}

}  // namespace graft::cgroup
