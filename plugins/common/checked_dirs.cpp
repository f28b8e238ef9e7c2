// SPDX-License-Identifier: Apache-2.0
// Checked container directories for checked_dirs.hpp.
#include "checked_dirs.hpp"

#include <fcntl.h>

#include <cerrno>

#include "sys_error.hpp"

namespace graft::plugin {

void CheckedDirs::start_action(std::uint32_t index) {
  if (!last_index_ || index != *last_index_ + 1) dirs_.clear();
  last_index_ = index;
}

Result<UniqueFd> CheckedDirs::find(const std::string& path) const {
  auto found = dirs_.find(path);
  if (found == dirs_.end()) return UniqueFd();
  UniqueFd copy(::fcntl(found->second.get(), F_DUPFD_CLOEXEC, 0));
  if (!copy.valid()) return sys_error("dup", path, errno);
  return copy;
}

Status CheckedDirs::remember(const std::string& path, int fd) {
  UniqueFd copy(::fcntl(fd, F_DUPFD_CLOEXEC, 0));
  if (!copy.valid()) return sys_error("dup", path, errno);
  dirs_.insert_or_assign(path, std::move(copy));
  return ok_status();
}

void CheckedDirs::forget_at_or_under(const std::string& path) {
  dirs_.erase(path);
  // Keys with a common prefix sort together; "/a/" holds "/a/b", not "/ab".
  const std::string prefix = path.ends_with('/') ? path : path + "/";
  auto it = dirs_.lower_bound(prefix);
  while (it != dirs_.end() && it->first.starts_with(prefix)) it = dirs_.erase(it);
}

}  // namespace graft::plugin
