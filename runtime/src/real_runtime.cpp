// SPDX-License-Identifier: Apache-2.0
#include "real_runtime.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

namespace graft::runtime {
namespace {

constexpr const char* kDefaultPath = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

bool executable_file(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(path.c_str(), X_OK) == 0;
}

bool same_file(const std::string& a, const std::string& b) {
  struct stat first {}, second {};
  return ::stat(a.c_str(), &first) == 0 && ::stat(b.c_str(), &second) == 0 &&
         first.st_dev == second.st_dev && first.st_ino == second.st_ino;
}

}  // namespace

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

Result<std::string> find_real_runtime(const std::string& name) {
  auto path = find_on_path(name, std::getenv("PATH"), executable_file);
  if (!path) return path.error();
  if (same_file(*path, "/proc/self/exe"))
    return make_error("runtime {} is graft-runtime itself; [runtime] path must name the real runtime", *path);
  return path;
}

Error exec_real_runtime(const std::string& path, const std::vector<std::string>& args) {
  std::vector<char*> argv;
  argv.push_back(const_cast<char*>(path.c_str()));
  for (const auto& arg : args) argv.push_back(const_cast<char*>(arg.c_str()));
  argv.push_back(nullptr);
  ::execv(path.c_str(), argv.data());
  return make_error("cannot run {}: {}", path, std::strerror(errno));
}

}  // namespace graft::runtime
