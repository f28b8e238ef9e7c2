// SPDX-License-Identifier: Apache-2.0
#include "graft/base/executable_path.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <string_view>

namespace graft {
namespace {

constexpr const char* kDefaultPath = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

}  // namespace

bool is_executable_file(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(path.c_str(), X_OK) == 0;
}

Result<std::string> find_on_path(const std::string& name, const char* path_env,
                                 bool (*is_executable)(const std::string&)) {
  if (name.find('/') != std::string::npos) {
    if (!is_executable(name)) return make_error("runtime {} is not an executable file", name);
    return name;
  }
  std::string_view dirs = path_env != nullptr ? path_env : kDefaultPath;
  while (!dirs.empty()) {
    auto colon = dirs.find(':');
    std::string_view dir = dirs.substr(0, colon);
    dirs = colon == std::string_view::npos ? std::string_view() : dirs.substr(colon + 1);
    // "" and every relative entry (".", "bin") mean the current directory or
    // one under it: the engine runs graft-runtime in the bundle, whose files
    // are not a runtime to trust.
    if (!dir.starts_with('/')) continue;
    std::string candidate = std::string(dir) + "/" + name;
    if (is_executable(candidate)) return candidate;
  }
  return make_error("runtime {} is not on PATH ({})", name, path_env != nullptr ? path_env : kDefaultPath);
}

}  // namespace graft
