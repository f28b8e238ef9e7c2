// SPDX-License-Identifier: Apache-2.0
#include "paths/root_links.hpp"

#include <fcntl.h>

#include "paths/paths.hpp"
#include "graft/base/open_in_root.hpp"

namespace graft {

Result<std::string> RootLinks::follow(const std::string& path) {
  std::string normal = normalize_path(path);
  if (normal == "/") return normal;
  std::string dir = dirname_of(normal);
  auto known = dirs_.find(dir);
  if (known == dirs_.end()) {
    auto real_dir = follow_links_in_root(root_, dir);
    if (!real_dir) return real_dir.error();
    known = dirs_.emplace(dir, std::move(*real_dir)).first;
  }
  return follow_links_from(root_, known->second, "/" + basename_of(normal));
}

std::optional<std::string> RootLinks::stat(const std::string& path, struct stat& st) {
  auto real = follow(path);
  if (!real) return std::nullopt;
  if (!root_fd_.valid()) root_fd_ = UniqueFd(::open(root_.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC));
  if (!root_fd_.valid()) return std::nullopt;
  // The real path has no symlink left: opening it without following checks
  // that, and the kernel keeps it inside the root whatever happened since.
  std::string relative = *real == "/" ? "." : real->substr(1);
  UniqueFd fd(open_in_root(root_fd_.get(), relative.c_str(), O_PATH | O_NOFOLLOW));
  if (!fd.valid() || ::fstat(fd.get(), &st) != 0) return std::nullopt;
  return *real;
}

}  // namespace graft
